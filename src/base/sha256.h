/*
 * sha256.h: SHA-256 (FIPS 180-4) of a byte string, and its base64 text
 * (RFC 4648 section 4), for the human page's Content-Security-Policy
 * hashes (CSP Level 3, "hash-source"): computed once at load, never on the
 * request path.  Owns nothing; one call hashes one whole string.
 */
#ifndef GPT_SHA256_H
#define GPT_SHA256_H

#include "base/common.h"

#define SHA256_LEN 32
/* base64 of 32 bytes: 44 characters with the padding, then NUL */
#define SHA256_B64_SIZE 45

/* The digest of the n bytes at p (p may be NULL when n is 0). */
void sha256(const void *p, size_t n, unsigned char out[SHA256_LEN]);

/* The digest of the n bytes at p as padded base64, NUL-terminated. */
void sha256_base64(const void *p, size_t n, char out[SHA256_B64_SIZE]);

#endif /* GPT_SHA256_H */
