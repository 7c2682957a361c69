/*
 * hash.h: the one keyed hash of the project, SipHash-1-3 (Aumasson and
 * Bernstein, "SipHash: a fast short-input PRF", 2012, with one
 * compression and three finalization rounds) under a per-process random
 * key.  Every table that holds names or values a body can choose (the
 * parser's member index, uniqueItems, the form's member and enum tables)
 * hashes through it, so colliding inputs cannot be prepared offline: an
 * attacker who does not know the key cannot predict which slot a name
 * takes.
 *
 * The key is taken once per process, on the first hash or by hash_init():
 * getrandom(2), else /dev/urandom, else (both failing, logged) bits of the
 * clocks, the pid and addresses, which still differ between processes and
 * runs.  Keys never leave the process; outputs must not either (a 64-bit
 * output reveals a little about the key).
 *
 * Owns the process key only; allocates nothing.  Not for cryptography:
 * SipHash-1-3 is the reduced-round variant meant for hash tables.
 * Single-threaded, as the rest of gpt.fcgi: the lazy first call is not
 * synchronised.
 */
#ifndef GPT_HASH_H
#define GPT_HASH_H

#include "base/common.h"

/* A 128-bit SipHash key as its two little-endian 64-bit halves. */
struct hash_key {
	uint64_t k0, k1;
};

/* Take the process key now (idempotent).  Calling it at startup keeps the
 * one getrandom(2) off the first request; hashing calls it when needed. */
void hash_init(void);

/*
 * SipHash-1-3 of the n bytes at p under key: the function of the paper
 * with c = 1, d = 3, 64-bit output.  p may be NULL when n is 0.
 */
uint64_t hash_sip13(const struct hash_key *key, const void *p, size_t n);

/* hash_sip13 of (p, n) under the process key: member names, strings. */
uint64_t hash_bytes(const void *p, size_t n);

/*
 * Incremental hashing under the process key, tweaked by `domain` (k0 is
 * XORed with it): inputs hashed in different domains are unrelated, so a
 * number's digits never hash like a string of the same bytes.  Updates may
 * split the input anywhere: begin(d), update(a), update(b), end is
 * hash_sip13 over a followed by b under (k0 ^ d, k1).
 */
struct hash_state {
	uint64_t v0, v1, v2, v3;
	uint64_t tail; /* the bytes of an incomplete word, little-endian */
	size_t len;    /* bytes so far */
};

void hash_begin(struct hash_state *st, uint64_t domain);
void hash_update(struct hash_state *st, const void *p, size_t n);
void hash_update_u64(struct hash_state *st, uint64_t w);
uint64_t hash_end(const struct hash_state *st);

/* getrandom(2)'s contract: bytes written, or -1 with errno. */
typedef long (*hash_rnd_fn)(void *p, size_t n, unsigned flags);

#ifdef GPT_TEST
/* Test builds: the key sources with getrandom(2) and the file replaced.
 * 0, 1 or 2: the key came from rnd, from the file, or from the clocks
 * (logged). */
int hash_key_from(
    struct hash_key *out, hash_rnd_fn rnd, const char *urandom_path);
#endif

#endif /* GPT_HASH_H */
