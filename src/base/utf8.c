/*
 * utf8.c: UTF-8 validation and code-point arithmetic (RFC 3629, section 4).
 *
 * Owns nothing and allocates nothing.  Every function takes (pointer,
 * length) and never reads past the length, so a sequence cut off by the
 * end of the input is reported as invalid, not read beyond.
 *
 * Refuses: overlong forms (C0 80 for U+0000), UTF-8-encoded surrogates
 * (ED A0 80 for U+D800), anything past U+10FFFF (F4 90 80 80, F5..FF),
 * stray continuation bytes (80..BF as a lead) and truncated sequences.
 * Accepts noncharacters (EF BF BE for U+FFFE): they are scalar values.
 */
#include <string.h>

#include "base/utf8.h"

/* True for a continuation byte 10xxxxxx. */
static inline bool
is_cont(unsigned char c)
{
	return (c & 0xC0) == 0x80;
}

size_t
utf8_decode(const unsigned char *s, size_t len, uint32_t *cp)
{
	unsigned char c, lo = 0x80, hi = 0xBF;

	if (len == 0)
		return 0;
	c = s[0];
	if (c < 0x80) {
		*cp = c;
		return 1;
	}
	/* 80..BF: a stray continuation byte; C0, C1: overlong 2-byte forms
	 * of ASCII (hits on C0 AF, an overlong '/'). */
	if (c < 0xC2)
		return 0;
	if (c < 0xE0) {
		if (len < 2 || !is_cont(s[1]))
			return 0;
		*cp = (uint32_t)(c & 0x1F) << 6 | (uint32_t)(s[1] & 0x3F);
		return 2;
	}
	if (c < 0xF0) {
		/* E0 80..9F would be overlong (E0 9F BF is U+07FF); ED A0..BF
		 * would be a surrogate (ED A0 80 is U+D800). */
		if (c == 0xE0)
			lo = 0xA0;
		else if (c == 0xED)
			hi = 0x9F;
		if (len < 3 || s[1] < lo || s[1] > hi || !is_cont(s[2]))
			return 0;
		*cp = (uint32_t)(c & 0x0F) << 12 | (uint32_t)(s[1] & 0x3F) << 6 |
		    (uint32_t)(s[2] & 0x3F);
		return 3;
	}
	if (c < 0xF5) {
		/* F0 80..8F would be overlong (F0 8F BF BF is U+FFFF); F4
		 * 90..BF passes U+10FFFF (F4 90 80 80 is U+110000). */
		if (c == 0xF0)
			lo = 0x90;
		else if (c == 0xF4)
			hi = 0x8F;
		if (len < 4 || s[1] < lo || s[1] > hi || !is_cont(s[2]) ||
		    !is_cont(s[3]))
			return 0;
		*cp = (uint32_t)(c & 0x07) << 18 | (uint32_t)(s[1] & 0x3F) << 12 |
		    (uint32_t)(s[2] & 0x3F) << 6 | (uint32_t)(s[3] & 0x3F);
		return 4;
	}
	/* F5..FF would start a code point past U+10FFFF (hits on F5 80 80 80). */
	return 0;
}

size_t
utf8_encode(uint32_t cp, unsigned char out[4])
{
	if (cp < 0x80) {
		out[0] = (unsigned char)cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = (unsigned char)(0xC0 | cp >> 6);
		out[1] = (unsigned char)(0x80 | (cp & 0x3F));
		return 2;
	}
	if (cp < 0x10000) {
		out[0] = (unsigned char)(0xE0 | cp >> 12);
		out[1] = (unsigned char)(0x80 | (cp >> 6 & 0x3F));
		out[2] = (unsigned char)(0x80 | (cp & 0x3F));
		return 3;
	}
	out[0] = (unsigned char)(0xF0 | cp >> 18);
	out[1] = (unsigned char)(0x80 | (cp >> 12 & 0x3F));
	out[2] = (unsigned char)(0x80 | (cp >> 6 & 0x3F));
	out[3] = (unsigned char)(0x80 | (cp & 0x3F));
	return 4;
}

/* True when none of the 8 bytes at s has its high bit set. */
static inline bool
ascii8(const unsigned char *s)
{
	uint64_t w;

	memcpy(&w, s, sizeof(w));
	return (w & UINT64_C(0x8080808080808080)) == 0;
}

bool
utf8_validate(const unsigned char *s, size_t len, size_t *count,
    size_t *bad_offset)
{
	size_t i = 0, n = 0, k;
	uint32_t cp;

	while (i < len) {
		/* ASCII fast path: eight bytes, eight code points. */
		if (len - i >= 8 && ascii8(s + i)) {
			i += 8;
			n += 8;
			continue;
		}
		if (s[i] < 0x80) {
			i++;
			n++;
			continue;
		}
		if ((k = utf8_decode(s + i, len - i, &cp)) == 0) {
			if (bad_offset != NULL)
				*bad_offset = i;
			return false;
		}
		i += k;
		n++;
	}
	if (count != NULL)
		*count = n;
	return true;
}

size_t
utf8_count(const unsigned char *s, size_t len)
{
	size_t i, n = 0;

	/* Each code point has exactly one byte that is not a continuation. */
	for (i = 0; i < len; i++)
		n += !is_cont(s[i]);
	return n;
}
