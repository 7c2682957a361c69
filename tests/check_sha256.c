/*
 * check_sha256.c: SHA-256 against the FIPS 180-4 examples (and the
 * lengths around a block's padding), base64 of a digest as CSP writes it.
 */
#include <string.h>

#include "check_main.h"
#include "base/sha256.h"

static void
hex_of(const unsigned char *d, char *out)
{
	static const char x[] = "0123456789abcdef";
	size_t i;

	for (i = 0; i < SHA256_LEN; i++) {
		out[2 * i] = x[d[i] >> 4];
		out[2 * i + 1] = x[d[i] & 15];
	}
	out[2 * SHA256_LEN] = '\0';
}

START_TEST(sha256_gives_the_published_digests)
{
	static const struct {
		const char *in;
		const char *hex;
	} cases[] = {
	    {"", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b"
	         "855"},
	    {"abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f2"
	            "0015ad"},
	    /* 56 bytes: the length no longer fits the first block */
	    {"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
	        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06"
	        "c1"},
	    /* 64 bytes: a whole block, then a block of padding alone */
	    {"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
	        "a8ae6e6ee929abea3afcfc5258c8ccd6f85273e0d4626d26c7279f3250f77c"
	        "8e"},
	};
	unsigned char d[SHA256_LEN];
	char hex[2 * SHA256_LEN + 1];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		sha256(cases[i].in, strlen(cases[i].in), d);
		hex_of(d, hex);
		ck_assert_msg(strcmp(hex, cases[i].hex) == 0,
		    "sha256(\"%s\") = %s, expected %s", cases[i].in, hex,
		    cases[i].hex);
	}
}
END_TEST

START_TEST(sha256_of_a_million_a_is_the_published_one)
{
	static char a[1000000];
	unsigned char d[SHA256_LEN];
	char hex[2 * SHA256_LEN + 1];

	memset(a, 'a', sizeof(a));
	sha256(a, sizeof(a), d);
	hex_of(d, hex);
	ck_assert_str_eq(hex,
	    "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}
END_TEST

START_TEST(sha256_base64_is_padded_base64_of_the_digest)
{
	char b[SHA256_B64_SIZE];

	sha256_base64("", 0, b);
	ck_assert_str_eq(b, "47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=");
	sha256_base64("abc", 3, b);
	ck_assert_str_eq(b, "ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0=");
}
END_TEST

static Suite *
suite_sha256(void)
{
	Suite *s = suite_create("sha256");
	TCase *tc = tcase_create("sha256");

	tcase_add_test(tc, sha256_gives_the_published_digests);
	tcase_add_test(tc, sha256_of_a_million_a_is_the_published_one);
	tcase_add_test(tc, sha256_base64_is_padded_base64_of_the_digest);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(suite_sha256)
