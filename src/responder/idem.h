/*
 * idem.h: the Idempotency-Key header on acts (the IETF httpapi draft
 * "The Idempotency-Key HTTP Header Field"; Stripe's convention).
 *
 * The first accepted act with a key stores its answer (a hook's 200, or
 * a task's 202) under the key, in the address's store, before the answer
 * is sent.  A retry with the same key and the same body bytes gets the
 * same answer again, with Idempotent-Replayed: true, and the hook does
 * not run; the same key with another body gets 422; a retry while the
 * first act with the key is still being answered gets 409.  A key is
 * kept for idempotency_ttl seconds.  An act whose hook failed (5xx)
 * stores nothing: a retry runs it again.  If the process answering the
 * first act dies before it stored the answer, the key is free again.
 *
 * "While running" is a flock on the key's lock file (store.h), held from
 * the claim until the answer is stored, so it ends with the process that
 * held it.
 *
 * The key: the header's value as sent, or an RFC 8941 string ("...",
 * without escapes) whose content is then the key; 1 to IDEM_KEY_MAX
 * bytes, no control byte.  Anything else is 400 before the body is read.
 * Keys belong to the address: the same key at two addresses is two keys.
 *
 * Owns, between idem_begin and idem_end: the lock fd and the buffer the
 * act's answer is gathered in.
 */
#ifndef GPT_IDEM_H
#define GPT_IDEM_H

#include "base/buf.h"
#include "base/common.h"
#include "web/http.h"
#include "site/store.h"

#define IDEM_KEY_MAX 255
/* A stored answer, at most: a hook's output plus its head. */
#define IDEM_ANSWER_MAX ((size_t)1 << 31)

struct idem {
	const char *key; /* borrowed: the key's bytes, or NULL: none */
	size_t key_len;
	char name[STORE_NAME_MAX], lock[STORE_NAME_MAX];
	const struct store *store;  /* borrowed: where lock_fd is */
	int lock_fd;                /* owned: the claim, or -1 */
	char body_hex[65];          /* SHA-256 of the body */
	struct buf answer;          /* owned: the act's answer, gathered */
	struct http_writer capture; /* writes into answer */
};

/*
 * Read Idempotency-Key from the request's variables into k (k->key NULL
 * when absent).  0, or -1 when present but malformed (answer 400).
 */
int idem_header(char *const *envp, struct idem *k) GPT_MUSTCHECK;

/*
 * With k->key set and the store s open: claim the key for the body's len
 * bytes.  Returns 1 when the act must run, its answer written to
 * &k->capture (then call idem_end); 0 when the answer was written to out
 * here (a replay, 409, 422, or 503 when the store fails), *o set.  -1
 * when out failed.
 */
int idem_begin(struct idem *k, const struct store *s, const char *body,
    size_t len, struct http_writer *out, enum http_outcome *o) GPT_MUSTCHECK;

/*
 * After the act ran (its outcome o): store the gathered answer under the
 * key when o is a 200 or 202 (expiring ttl seconds from now), release
 * the claim, then write the answer to out.  A store that fails now is
 * logged and the answer sent anyway: the act happened.  0, or -1 when
 * out failed.
 */
int idem_end(struct idem *k, const struct store *s, enum http_outcome o,
    unsigned ttl, struct http_writer *out) GPT_MUSTCHECK;

/* Release what idem_begin took (idem_end calls it). */
void idem_release(struct idem *k);

#endif /* GPT_IDEM_H */
