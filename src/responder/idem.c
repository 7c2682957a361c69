/*
 * idem.c: Idempotency-Key (idem.h): the header's check, the claim, the
 * stored answer and its replay.
 *
 * A key's record:
 *   gpt-key 1 EXPIRES_S BODY_SHA256_HEX\n
 *   the answer's bytes as first written (CGI head and body)
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "responder/idem.h"
#include "base/log.h"
#include "base/sha256.h"
#include "site/taskrec.h"

#define IDEM_HEAD_MAX 128

int
idem_header(char *const *envp, struct idem *k)
{
	const char *v = http_getenv(envp, "HTTP_IDEMPOTENCY_KEY");
	size_t n, i;

	memset(k, 0, sizeof(*k));
	k->lock_fd = -1;
	buf_init(&k->answer, IDEM_ANSWER_MAX);
	http_writer_buf(&k->capture, &k->answer);
	if (v == NULL)
		return 0;
	n = strlen(v);
	/* hits on "Idempotency-Key:" (empty) and on 256 bytes */
	if (n == 0 || n > IDEM_KEY_MAX)
		return -1;
	for (i = 0; i < n; i++)
		/* hits on a key with a tab or a DEL in it */
		if (gpt_is_control((unsigned char)v[i]) || v[i] == 0x7f)
			return -1;
	if (v[0] == '"') {
		/* RFC 8941 sf-string, without escapes: hits on "\"" and
		 * on "\"a\\\"b\"" */
		if (n < 3 || v[n - 1] != '"' || memchr(v + 1, '"', n - 2) ||
		    memchr(v + 1, '\\', n - 2))
			return -1;
		v++;
		n -= 2;
	}
	k->key = v;
	k->key_len = n;
	return 0;
}

void
idem_release(struct idem *k)
{
	if (k->lock_fd >= 0 && k->store != NULL)
		store_unlock(k->store, k->lock_fd);
	k->lock_fd = -1;
	buf_free(&k->answer);
}

/* The stored answer, with Idempotent-Replayed after its status line. */
static int
idem_replay(const char *p, size_t n, struct http_writer *out)
{
	static const char mark[] = "Idempotent-Replayed: true\r\n";
	const char *eol = memchr(p, '\n', n);
	size_t first = eol != NULL ? (size_t)(eol - p) + 1 : 0;

	if (out->write(out->ctx, p, first) == -1 ||
	    out->write(out->ctx, mark, sizeof(mark) - 1) == -1)
		return -1;
	return out->write(out->ctx, p + first, n - first);
}

/* The status of a stored answer's "Status: NNN" line, or 0. */
static enum http_outcome
idem_outcome(const char *p, size_t n)
{
	if (n > 11 && memcmp(p, "Status: 202", 11) == 0)
		return HTTP_O_TASK_ACCEPTED;
	return HTTP_O_HOOK_OK;
}

int
idem_begin(struct idem *k, const struct store *s, const char *body, size_t len,
    struct http_writer *out, enum http_outcome *o)
{
	unsigned char h[SHA256_LEN];
	struct buf rec;
	int rc;

	sha256(body, len, h);
	store_id_hex(h, k->body_hex);
	store_id_hex(h + STORE_ID_BYTES, k->body_hex + STORE_ID_HEX);
	store_name(STORE_KEY, k->key, k->key_len, k->name);
	memcpy(k->lock, k->name, sizeof(k->lock));
	k->lock[0] = STORE_LOCK;
	k->store = s;
	k->lock_fd = store_lock(s, k->lock, false);
	if (k->lock_fd == -1) {
		if (errno == EWOULDBLOCK) {
			/* hits on a retry sent while the first act with the
			 * key still runs its hook */
			log_reject("Idempotency-Key in use by an act still "
			           "running at %s: 409",
			    s->path);
			*o = HTTP_O_CONFLICT;
			return http_reply(out, *o) == -1 ? -1 : 0;
		}
		log_error("store %s: cannot lock a key: %s", s->path,
		    strerror(errno));
		*o = HTTP_O_UNAVAILABLE;
		return http_reply(out, *o) == -1 ? -1 : 0;
	}
	buf_init(&rec, IDEM_ANSWER_MAX);
	if (store_get(s, k->name, &rec, IDEM_ANSWER_MAX) == -1) {
		if (errno == ENOENT) {
			buf_free(&rec);
			return 1;
		}
		log_error("store %s: cannot read a key: %s", s->path,
		    strerror(errno));
		*o = HTTP_O_UNAVAILABLE;
		rc = http_reply(out, *o);
		goto answered;
	}
	{
		const char *p = buf_ptr(&rec);
		size_t n = buf_len(&rec);
		int64_t exp = store_expiry(p, n);
		const char *eol =
		    memchr(p, '\n', n < IDEM_HEAD_MAX ? n : IDEM_HEAD_MAX);
		size_t off;

		if (exp < 0 || eol == NULL || exp <= taskrec_now_ms() / 1000) {
			/* expired (or damaged): the key is new again */
			buf_free(&rec);
			return 1;
		}
		off = (size_t)(eol - p) + 1;
		if ((size_t)(eol - p) < 64 ||
		    !store_same_id(eol - 64, k->body_hex, 64)) {
			/* hits on the same key with another body */
			log_reject("Idempotency-Key sent again with another "
			           "body at %s: 422",
			    s->path);
			*o = HTTP_O_KEY_REUSED;
			rc = http_reply(out, *o);
			goto answered;
		}
		*o = idem_outcome(p + off, n - off);
		log_info("Idempotency-Key replayed at %s", s->path);
		rc = idem_replay(p + off, n - off, out);
	}
answered:
	buf_free(&rec);
	idem_release(k);
	return rc == -1 ? -1 : 0;
}

int
idem_end(struct idem *k, const struct store *s, enum http_outcome o,
    unsigned ttl, struct http_writer *out)
{
	int rc;

	if (o == HTTP_O_HOOK_OK || o == HTTP_O_TASK_ACCEPTED) {
		struct buf rec;

		buf_init(&rec, IDEM_ANSWER_MAX);
		if (buf_printf(&rec, "gpt-key 1 %lld %s\n",
		        (long long)(taskrec_now_ms() / 1000 + ttl),
		        k->body_hex) == -1 ||
		    buf_append(
		        &rec, buf_ptr(&k->answer), buf_len(&k->answer)) == -1 ||
		    store_put(s, k->name, buf_ptr(&rec), buf_len(&rec), true) ==
		        -1)
			log_error("store %s: cannot store an Idempotency-Key's "
			          "answer: %s (a retry will run the act again)",
			    s->path, strerror(errno));
		buf_free(&rec);
	}
	/* The claim ends once the answer is stored: a retry from now on
	 * gets it. */
	store_unlock(s, k->lock_fd);
	k->lock_fd = -1;
	rc = out->write(out->ctx, buf_ptr(&k->answer), buf_len(&k->answer));
	idem_release(k);
	store_sweep_maybe(s);
	return rc;
}
