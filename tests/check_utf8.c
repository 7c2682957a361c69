/* check_utf8.c: UTF-8 decoding, encoding, validation and counting. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "base/utf8.h"

/* A byte string with its length (sequences may hold NUL). */
#define B(s) s, sizeof(s) - 1

/* Hex dump of s for failure messages (static buffer, truncated). */
static const char *
hex(const char *s, size_t n)
{
	static char out[3 * 32 + 4];
	size_t i, o = 0;

	for (i = 0; i < n && i < 32; i++)
		o += (size_t)snprintf(out + o, sizeof(out) - o, "%02X ",
		    (unsigned char)s[i]);
	if (n > 32)
		snprintf(out + o, sizeof(out) - o, "...");
	return out;
}

/* Decode s from an exactly sized heap copy, so ASan sees any overread. */
static size_t
decode_exact(const char *s, size_t n, uint32_t *cp)
{
	unsigned char *copy = malloc(n ? n : 1);
	size_t k;

	ck_assert_ptr_nonnull(copy);
	memcpy(copy, s, n);
	k = utf8_decode(copy, n, cp);
	free(copy);
	return k;
}

static void
expect_decode(const char *s, size_t n, uint32_t want)
{
	uint32_t cp = 0xFFFFFFFF;
	size_t k = decode_exact(s, n, &cp);
	size_t count = 0, bad = 0;

	ck_assert_msg(k == n, "utf8_decode(%s) = %zu, expected %zu", hex(s, n),
	    k, n);
	ck_assert_msg(cp == want, "utf8_decode(%s) gave U+%04X, expected U+%04X",
	    hex(s, n), (unsigned)cp, (unsigned)want);
	ck_assert_msg(utf8_validate((const unsigned char *)s, n, &count, &bad),
	    "utf8_validate refused %s", hex(s, n));
	ck_assert_uint_eq(count, 1);
	ck_assert_uint_eq(utf8_count((const unsigned char *)s, n), 1);
}

static void
expect_decode_fail(const char *s, size_t n)
{
	uint32_t cp = 0x1234;
	size_t bad = 99;

	ck_assert_msg(decode_exact(s, n, &cp) == 0,
	    "utf8_decode accepted %s", hex(s, n));
	ck_assert_msg(cp == 0x1234, "utf8_decode(%s) changed *cp on failure",
	    hex(s, n));
	ck_assert_msg(!utf8_validate((const unsigned char *)s, n, NULL, &bad),
	    "utf8_validate accepted %s", hex(s, n));
	ck_assert_msg(bad == 0, "utf8_validate(%s) bad offset %zu, expected 0",
	    hex(s, n), bad);
}

static const struct {
	const char *s;
	size_t n;
	uint32_t cp;
} valid[] = {
	{B("\x00"), 0x0000},
	{B("\x41"), 0x0041},
	{B("\x7F"), 0x007F},		 /* last 1-byte */
	{B("\xC2\x80"), 0x0080},	 /* first 2-byte */
	{B("\xC3\xA9"), 0x00E9},
	{B("\xDF\xBF"), 0x07FF},	 /* last 2-byte */
	{B("\xE0\xA0\x80"), 0x0800},	 /* first 3-byte */
	{B("\xE2\x82\xAC"), 0x20AC},
	{B("\xED\x9F\xBF"), 0xD7FF},	 /* last before the surrogates */
	{B("\xEE\x80\x80"), 0xE000},	 /* first after the surrogates */
	{B("\xEF\xB7\x90"), 0xFDD0},	 /* a noncharacter: still valid */
	{B("\xEF\xBF\xBE"), 0xFFFE},	 /* a noncharacter: still valid */
	{B("\xEF\xBF\xBF"), 0xFFFF},	 /* last 3-byte */
	{B("\xF0\x90\x80\x80"), 0x10000}, /* first 4-byte */
	{B("\xF0\x9F\x98\x80"), 0x1F600},
	{B("\xF4\x8F\xBF\xBF"), 0x10FFFF}, /* last scalar value */
};

static const struct {
	const char *s;
	size_t n;
	const char *why;
} invalid[] = {
	{B("\x80"), "stray continuation"},
	{B("\xBF"), "stray continuation"},
	{B("\xC0\x80"), "overlong 2-byte U+0000"},
	{B("\xC0\xAF"), "overlong 2-byte '/'"},
	{B("\xC1\xBF"), "overlong 2-byte U+007F"},
	{B("\xE0\x80\x80"), "overlong 3-byte U+0000"},
	{B("\xE0\x9F\xBF"), "overlong 3-byte U+07FF"},
	{B("\xF0\x80\x80\x80"), "overlong 4-byte U+0000"},
	{B("\xF0\x8F\xBF\xBF"), "overlong 4-byte U+FFFF"},
	{B("\xED\xA0\x80"), "encoded surrogate U+D800"},
	{B("\xED\xAF\xBF"), "encoded surrogate U+DBFF"},
	{B("\xED\xB0\x80"), "encoded surrogate U+DC00"},
	{B("\xED\xBF\xBF"), "encoded surrogate U+DFFF"},
	{B("\xF4\x90\x80\x80"), "U+110000, past the last scalar"},
	{B("\xF5\x80\x80\x80"), "F5 lead"},
	{B("\xF7\xBF\xBF\xBF"), "F7 lead"},
	{B("\xF8\x88\x80\x80\x80"), "5-byte form"},
	{B("\xFC\x84\x80\x80\x80\x80"), "6-byte form"},
	{B("\xFE"), "FE byte"},
	{B("\xFF"), "FF byte"},
	{B("\xC2"), "truncated 2-byte at the end"},
	{B("\xE2\x82"), "truncated 3-byte at the end"},
	{B("\xE0\xA0"), "truncated 3-byte at the end"},
	{B("\xF0\x9F\x98"), "truncated 4-byte at the end"},
	{B("\xF0"), "truncated 4-byte at the end"},
	{B("\xC2\x41"), "ASCII where a continuation belongs"},
	{B("\xE2\x28\xA1"), "ASCII where a continuation belongs"},
	{B("\xE2\x82\x28"), "ASCII where a continuation belongs"},
	{B("\xF0\x9F\x98\x28"), "ASCII where a continuation belongs"},
	{B("\xC2\xC2\x80"), "lead where a continuation belongs"},
};

START_TEST(utf8_decode_accepts_every_boundary_scalar)
{
	size_t i;

	for (i = 0; i < GPT_ARRAY_LEN(valid); i++)
		expect_decode(valid[i].s, valid[i].n, valid[i].cp);
}
END_TEST

START_TEST(utf8_decode_rejects_overlong_surrogate_truncated_and_stray_bytes)
{
	size_t i;

	for (i = 0; i < GPT_ARRAY_LEN(invalid); i++)
		expect_decode_fail(invalid[i].s, invalid[i].n);
}
END_TEST

START_TEST(utf8_decode_never_reads_past_len)
{
	uint32_t cp;

	/* The full sequence is in memory; only its prefix is given. */
	ck_assert_uint_eq(utf8_decode((const unsigned char *)"\xE2\x82\xAC",
	    2, &cp), 0);
	ck_assert_uint_eq(utf8_decode((const unsigned char *)"\xF0\x9F\x98\x80",
	    3, &cp), 0);
	ck_assert_uint_eq(utf8_decode((const unsigned char *)"A", 0, &cp), 0);
}
END_TEST

/* Loops over a million cases check with `if`, so that Check records a
 * point only on failure (a ck_assert per case would dominate the run). */
START_TEST(utf8_encode_and_decode_round_trip_every_scalar)
{
	unsigned char b[4];
	uint32_t cp, back;
	size_t n, k, want;

	for (cp = 0; cp <= 0x10FFFF; cp++) {
		if (cp >= 0xD800 && cp <= 0xDFFF)
			continue;
		want = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
		n = utf8_encode(cp, b);
		back = 0xFFFFFFFF;
		k = utf8_decode(b, n, &back);
		if (n != want || k != n || back != cp)
			ck_abort_msg("U+%04X did not round-trip", (unsigned)cp);
	}
}
END_TEST

START_TEST(utf8_decode_agrees_with_encode_on_every_two_and_three_byte_string)
{
	unsigned char b[3], e[4];
	uint32_t cp;
	unsigned x, y, z;
	size_t k;

	/* A sequence is valid exactly when it is the encoding of its value. */
	for (x = 0x80; x <= 0xFF; x++)
		for (y = 0; y <= 0xFF; y++) {
			b[0] = (unsigned char)x;
			b[1] = (unsigned char)y;
			k = utf8_decode(b, 2, &cp);
			if (k == 2 ? utf8_encode(cp, e) != 2 ||
				    memcmp(e, b, 2) != 0
				   : k != 0)
				ck_abort_msg("%02X %02X decoded wrongly", x, y);
		}
	for (x = 0xE0; x <= 0xEF; x++)
		for (y = 0x80; y <= 0xBF; y++)
			for (z = 0; z <= 0xFF; z++) {
				b[0] = (unsigned char)x;
				b[1] = (unsigned char)y;
				b[2] = (unsigned char)z;
				k = utf8_decode(b, 3, &cp);
				if (k == 3 ? utf8_encode(cp, e) != 3 ||
					    memcmp(e, b, 3) != 0 ||
					    (cp >= 0xD800 && cp <= 0xDFFF)
					   : k != 0 || (x != 0xE0 &&
						x != 0xED && (z & 0xC0) == 0x80))
					ck_abort_msg("%02X %02X %02X decoded "
						     "wrongly", x, y, z);
			}
}
END_TEST

START_TEST(utf8_validate_counts_code_points_and_finds_the_first_bad_byte)
{
	/* "aé€😀" then plenty of ASCII, to cross the eight-byte fast path. */
	const char ok[] = "a\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80 0123456789abc";
	const char bad[] = "0123456789abcdef\xC3\xA9xyz\xE2\x82!tail";
	size_t count = 0, at = 0;

	ck_assert(utf8_validate((const unsigned char *)ok, sizeof(ok) - 1,
	    &count, &at));
	ck_assert_uint_eq(count, 4 + 14);
	ck_assert_uint_eq(utf8_count((const unsigned char *)ok, sizeof(ok) - 1),
	    18);
	ck_assert(!utf8_validate((const unsigned char *)bad, sizeof(bad) - 1,
	    &count, &at));
	ck_assert_uint_eq(at, 21);
	ck_assert(utf8_validate((const unsigned char *)"", 0, &count, NULL));
	ck_assert_uint_eq(count, 0);
	/* A bad byte after a long ASCII run is still found. */
	ck_assert(!utf8_validate((const unsigned char *)"abcdefghijklmnop\x80",
	    17, NULL, &at));
	ck_assert_uint_eq(at, 16);
}
END_TEST

static Suite *
suite_utf8(void)
{
	Suite *s = suite_create("utf8");
	TCase *dec = tcase_create("utf8_decode");
	TCase *enc = tcase_create("utf8_encode");
	TCase *val = tcase_create("utf8_validate");

	tcase_add_test(dec, utf8_decode_accepts_every_boundary_scalar);
	tcase_add_test(dec,
	    utf8_decode_rejects_overlong_surrogate_truncated_and_stray_bytes);
	tcase_add_test(dec, utf8_decode_never_reads_past_len);
	tcase_add_test(dec,
	    utf8_decode_agrees_with_encode_on_every_two_and_three_byte_string);
	tcase_add_test(enc, utf8_encode_and_decode_round_trip_every_scalar);
	tcase_add_test(val,
	    utf8_validate_counts_code_points_and_finds_the_first_bad_byte);
	suite_add_tcase(s, dec);
	suite_add_tcase(s, enc);
	suite_add_tcase(s, val);
	return s;
}

CHECK_MAIN(suite_utf8)
