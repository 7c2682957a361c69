/*
 * check_hash.c: SipHash-1-3 against published vectors and against a
 * second implementation written here in another style; the incremental
 * interface against the one-shot one; the key sources and their
 * fallbacks (src/base/hash.c is built into this test with GPT_TEST, which
 * exposes hash_key_from).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_main.h"
#include "base/hash.h"
#include "base/log.h"

/*
 * The 64-bit SipHash-1-3 outputs of the reference implementation
 * (github.com/veorq/SipHash, built with cROUNDS 1 and dROUNDS 3) for the
 * all-zero key and the messages 00, 00 01, ..., 00 01 .. 3e, as published
 * in OCaml's test suite for its SipHash-1-3 string hash.
 */
static const uint64_t sip13_zero_key[64] = {
    0xd1fba762150c532c, 0x68a914128e01e473, 0x010bac45c41e3669,
    0x4d4c9a4a8ef6e0ad, 0x7cc43f98813e4dbd, 0x5abe2169dff36275,
    0xe3c25f87624f1cdb, 0x2f098ab0c751325a, 0xead411e67ebe2eea,
    0x75927f9d95124362, 0xaf9f77a65ab51a1d, 0xfe64ce8b6617fcff,
    0xa6baf4fb0f9fe1c2, 0xa0cf3211850f8e0d, 0x7f86049379fbfe67,
    0xf30eb725bb91c9ea, 0x8972188433a5c5b7, 0x4883c49a2c009c1d,
    0xadc2c0b63044067d, 0x091f4a3329f87d19, 0x639e355ae68c0100,
    0xb17bef2cb5213239, 0xf8aeb1066236ccfe, 0x37332b1389daa4ff,
    0x31185a47af932f3a, 0xebf352e82ae23e2f, 0xed36ff242fe478b2,
    0x2454d97d299299df, 0x8cd57fe8130d0ac7, 0xbe98eb2faf0a0e85,
    0xd427c34ee09470c6, 0x169739443111d49b, 0x31ef8061c910629b,
    0x7fb71d24dfa4c9f6, 0x92771f49e836d389, 0x3c393cf6f0853bc3,
    0xac77921fcc642bd3, 0x422a9751192ff266, 0xc680ae8a8c584ddf,
    0x6c76b6d34bb6d26b, 0x95bc321ab41d8206, 0x908a3a97a6d37669,
    0xfcaf3c64874dd0b4, 0xf689479b32b84a44, 0xd857641079efd1fd,
    0x8b581578722633f7, 0x83cb09d35ea7bcd4, 0x8485f7f5ae725a0d,
    0xfe1f2445ba50237f, 0x23cece041d7866b0, 0x416687480b336c09,
    0xf15960da7e7f3892, 0xded6177b9826835a, 0xf80dae51668be6be,
    0x17ecc6ee6647df18, 0x5220d642b4a52110, 0xa4f0cf4ba4adc016,
    0xe5125bb26d1f2976, 0x851b0e75f580d256, 0x12605250a37e39ac,
    0xd95a713568daebf1, 0xcdcf4a42ec0dd605, 0xa5c708712b617164,
    0x385d3e39e5f37359,
};

/*
 * A second SipHash, written from the paper independently of src/base/hash.c:
 * the state as an array, the key and message read byte by byte, the
 * rounds counted by parameters.  It is checked against the paper's own
 * SipHash-2-4 example (Appendix A), then used as the oracle for 1-3.
 */
static uint64_t
ref_rot(uint64_t x, int b)
{
	return (x << b) | (x >> (64 - b));
}

static void
ref_round(uint64_t v[4])
{
	v[0] += v[1];
	v[2] += v[3];
	v[1] = ref_rot(v[1], 13) ^ v[0];
	v[3] = ref_rot(v[3], 16) ^ v[2];
	v[0] = ref_rot(v[0], 32);
	v[2] += v[1];
	v[0] += v[3];
	v[1] = ref_rot(v[1], 17) ^ v[2];
	v[3] = ref_rot(v[3], 21) ^ v[0];
	v[2] = ref_rot(v[2], 32);
}

static uint64_t
ref_word(const unsigned char *b)
{
	uint64_t w = 0;
	int i;

	for (i = 7; i >= 0; i--)
		w = (w << 8) | b[i];
	return w;
}

static uint64_t
ref_siphash(int c, int d, const unsigned char key[16],
    const unsigned char *m, size_t n)
{
	uint64_t k0 = ref_word(key), k1 = ref_word(key + 8), v[4], w;
	unsigned char last[8];
	size_t i, words = n / 8;
	int r;

	v[0] = k0 ^ 0x736f6d6570736575ull;
	v[1] = k1 ^ 0x646f72616e646f6dull;
	v[2] = k0 ^ 0x6c7967656e657261ull;
	v[3] = k1 ^ 0x7465646279746573ull;
	for (i = 0; i <= words; i++) {
		if (i < words) {
			w = ref_word(m + 8 * i);
		} else {
			memset(last, 0, sizeof(last));
			memcpy(last, m + 8 * i, n % 8);
			last[7] = (unsigned char)n;
			w = ref_word(last);
		}
		v[3] ^= w;
		for (r = 0; r < c; r++)
			ref_round(v);
		v[0] ^= w;
	}
	v[2] ^= 0xff;
	for (r = 0; r < d; r++)
		ref_round(v);
	return v[0] ^ v[1] ^ v[2] ^ v[3];
}

static struct hash_key
key_of(const unsigned char k[16])
{
	struct hash_key key;

	key.k0 = ref_word(k);
	key.k1 = ref_word(k + 8);
	return key;
}

START_TEST(hash_sip13_matches_the_published_vectors)
{
	unsigned char msg[64], zero[16] = {0};
	struct hash_key key = {0, 0};
	size_t n;

	for (n = 0; n < 64; n++)
		msg[n] = (unsigned char)n;
	for (n = 0; n < 64; n++) {
		ck_assert_msg(hash_sip13(&key, msg, n) == sip13_zero_key[n],
		    "length %zu", n);
		ck_assert_msg(ref_siphash(1, 3, zero, msg, n) ==
			sip13_zero_key[n],
		    "reference, length %zu", n);
	}
}
END_TEST

START_TEST(the_reference_implementation_gives_the_papers_2_4_example)
{
	unsigned char key[16], msg[15];
	size_t i;

	for (i = 0; i < 16; i++)
		key[i] = (unsigned char)i;
	for (i = 0; i < 15; i++)
		msg[i] = (unsigned char)i;
	ck_assert(ref_siphash(2, 4, key, msg, 15) == 0xa129ca6149be45e5ull);
}
END_TEST

START_TEST(hash_sip13_agrees_with_the_reference_on_random_keys)
{
	unsigned char key[16], msg[300];
	uint32_t x = 12345;
	size_t i, n;
	int trial;

	for (trial = 0; trial < 200; trial++) {
		struct hash_key k;

		for (i = 0; i < sizeof(key); i++) {
			x = x * 1103515245u + 12345u;
			key[i] = (unsigned char)(x >> 16);
		}
		for (i = 0; i < sizeof(msg); i++) {
			x = x * 1103515245u + 12345u;
			msg[i] = (unsigned char)(x >> 16);
		}
		k = key_of(key);
		n = (size_t)trial % 40 + (trial >= 100 ? 250 : 0);
		ck_assert_msg(hash_sip13(&k, msg, n) ==
			ref_siphash(1, 3, key, msg, n),
		    "trial %d, length %zu", trial, n);
	}
}
END_TEST

START_TEST(hash_update_in_pieces_equals_hash_bytes)
{
	unsigned char msg[100];
	struct hash_state st;
	size_t n, cut1, cut2;

	for (n = 0; n < sizeof(msg); n++)
		msg[n] = (unsigned char)(n * 7 + 1);
	for (n = 0; n <= sizeof(msg); n += 13)
		for (cut1 = 0; cut1 <= n; cut1 += 3)
			for (cut2 = cut1; cut2 <= n; cut2 += 5) {
				hash_begin(&st, 0);
				hash_update(&st, msg, cut1);
				hash_update(&st, msg + cut1, cut2 - cut1);
				hash_update(&st, msg + cut2, n - cut2);
				ck_assert_msg(
				    hash_end(&st) == hash_bytes(msg, n),
				    "n %zu cuts %zu %zu", n, cut1, cut2);
			}
}
END_TEST

START_TEST(hash_update_u64_is_the_little_endian_bytes)
{
	unsigned char b[8] = {1, 2, 3, 4, 5, 6, 7, 8};
	struct hash_state st;

	hash_begin(&st, 0);
	hash_update_u64(&st, 0x0807060504030201ull);
	ck_assert(hash_end(&st) == hash_bytes(b, 8));
}
END_TEST

START_TEST(domains_give_unrelated_hashes)
{
	struct hash_state a, b;

	hash_begin(&a, 0);
	hash_begin(&b, 1);
	hash_update(&a, "abc", 3);
	hash_update(&b, "abc", 3);
	ck_assert(hash_end(&a) != hash_end(&b));
	ck_assert(hash_end(&a) == hash_bytes("abc", 3));
}
END_TEST

START_TEST(the_process_key_is_stable_and_not_the_zero_key)
{
	struct hash_key zero = {0, 0};

	hash_init();
	hash_init();
	ck_assert(hash_bytes("name", 4) == hash_bytes("name", 4));
	ck_assert(hash_bytes("name", 4) != hash_bytes("namf", 4));
	ck_assert(hash_bytes("", 0) != hash_sip13(&zero, "", 0));
}
END_TEST

/* ---- key sources ------------------------------------------------------ */

static unsigned rnd_calls;

/* EINTR first, then 3 bytes per call: 0x10, 0x11, ... */
static long
rnd_interrupted_and_short(void *p, size_t n, unsigned flags)
{
	static unsigned char next = 0x10;
	unsigned char *b = p;
	size_t i;

	(void)flags;
	if (rnd_calls++ == 0) {
		errno = EINTR;
		return -1;
	}
	for (i = 0; i < n && i < 3; i++)
		b[i] = next++;
	return (long)i;
}

static long
rnd_enosys(void *p, size_t n, unsigned flags)
{
	(void)p;
	(void)n;
	(void)flags;
	rnd_calls++;
	errno = ENOSYS;
	return -1;
}

/* A source that never fails and never gives anything. */
static long
rnd_zero(void *p, size_t n, unsigned flags)
{
	(void)p;
	(void)n;
	(void)flags;
	rnd_calls++;
	return 0;
}

static char logged[512];

static void
capture(void *ctx, const char *line, size_t len)
{
	(void)ctx;
	snprintf(logged, sizeof(logged), "%.*s", (int)len, line);
}

/* A temporary file holding n bytes 0xa0, 0xa1, ...; its path. */
static const char *
file_of(size_t n)
{
	static char path[64];
	unsigned char b[32];
	size_t i;
	int fd;

	snprintf(path, sizeof(path), "/tmp/check_hash.XXXXXX");
	fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	for (i = 0; i < n; i++)
		b[i] = (unsigned char)(0xa0 + i);
	ck_assert_int_eq(write(fd, b, n), (ssize_t)n);
	close(fd);
	return path;
}

START_TEST(getrandom_is_retried_after_eintr_and_short_reads)
{
	struct hash_key k;

	rnd_calls = 0;
	ck_assert_int_eq(hash_key_from(&k, rnd_interrupted_and_short,
			     "/nonexistent"),
	    0);
	/* 1 EINTR + ceil(16 / 3) reads */
	ck_assert_uint_eq(rnd_calls, 7);
	ck_assert(k.k0 == 0x1716151413121110ull);
	ck_assert(k.k1 == 0x1f1e1d1c1b1a1918ull);
}
END_TEST

START_TEST(without_getrandom_the_key_comes_from_urandom)
{
	const char *path = file_of(16);
	struct hash_key k;

	rnd_calls = 0;
	ck_assert_int_eq(hash_key_from(&k, rnd_enosys, path), 1);
	ck_assert_uint_eq(rnd_calls, 1);
	ck_assert(k.k0 == 0xa7a6a5a4a3a2a1a0ull);
	ck_assert(k.k1 == 0xafaeadacabaaa9a8ull);
	unlink(path);
	/* a source that gives 0 bytes forever ends too */
	path = file_of(16);
	ck_assert_int_eq(hash_key_from(&k, rnd_zero, path), 1);
	unlink(path);
}
END_TEST

START_TEST(without_any_source_the_key_is_still_fresh_and_logged)
{
	const char *path = file_of(5); /* too short: ends before 16 bytes */
	struct hash_key a, b;

	logged[0] = '\0';
	log_set_sink(capture, NULL);
	ck_assert_int_eq(hash_key_from(&a, rnd_enosys, path), 2);
	ck_assert_ptr_nonnull(strstr(logged, "no random source"));
	ck_assert_int_eq(hash_key_from(&b, rnd_enosys, "/nonexistent"), 2);
	log_set_sink(NULL, NULL);
	unlink(path);
	ck_assert(a.k0 != b.k0 || a.k1 != b.k1);
	ck_assert(a.k0 != 0 || a.k1 != 0);
}
END_TEST

static Suite *
suite_hash(void)
{
	Suite *s = suite_create("hash");
	TCase *sip = tcase_create("SipHash-1-3");
	TCase *key = tcase_create("Key");

	tcase_add_test(sip, hash_sip13_matches_the_published_vectors);
	tcase_add_test(sip,
	    the_reference_implementation_gives_the_papers_2_4_example);
	tcase_add_test(sip, hash_sip13_agrees_with_the_reference_on_random_keys);
	tcase_add_test(sip, hash_update_in_pieces_equals_hash_bytes);
	tcase_add_test(sip, hash_update_u64_is_the_little_endian_bytes);
	tcase_add_test(sip, domains_give_unrelated_hashes);
	tcase_add_test(key, the_process_key_is_stable_and_not_the_zero_key);
	tcase_add_test(key, getrandom_is_retried_after_eintr_and_short_reads);
	tcase_add_test(key, without_getrandom_the_key_comes_from_urandom);
	tcase_add_test(key,
	    without_any_source_the_key_is_still_fresh_and_logged);
	suite_add_tcase(s, sip);
	suite_add_tcase(s, key);
	return s;
}

CHECK_MAIN(suite_hash)
