/*
 * utf8.h: UTF-8 validation (RFC 3629) and code-point arithmetic.
 *
 * Valid means: shortest form only, no UTF-8-encoded surrogates (U+D800 to
 * U+DFFF), nothing past U+10FFFF, no truncated sequence, no stray
 * continuation byte.  Noncharacters (U+FFFE, U+FDD0...) are valid scalars.
 * Functions take (pointer, length) and never read past the length.
 */
#ifndef GPT_UTF8_H
#define GPT_UTF8_H

#include "base/common.h"

/*
 * Length in bytes of the valid sequence starting at s (1 to 4), storing its
 * code point in *cp; 0 when s does not start with a valid sequence (or
 * len == 0).  *cp is untouched on failure.
 */
size_t utf8_decode(const unsigned char *s, size_t len, uint32_t *cp);

/* Encode a scalar value (not a surrogate, <= U+10FFFF) into out; 1 to 4. */
size_t utf8_encode(uint32_t cp, unsigned char out[4]);

/*
 * true when all len bytes are valid UTF-8; then *count (when not NULL)
 * holds the number of code points.  On false, *bad_offset (when not NULL)
 * holds the offset of the first invalid byte.
 */
bool utf8_validate(const unsigned char *s, size_t len, size_t *count,
    size_t *bad_offset);

/* Code points in s, which must already be valid UTF-8. */
size_t utf8_count(const unsigned char *s, size_t len);

#endif /* GPT_UTF8_H */
