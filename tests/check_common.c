/* check_common.c: the helpers every module shares (common.h). */
#include <string.h>
#include <time.h>

#include "check_main.h"
#include "base/common.h"

START_TEST(gpt_is_control_is_true_for_c0_and_del_only)
{
	unsigned c;

	for (c = 0; c < 256; c++)
		ck_assert_msg(gpt_is_control((unsigned char)c) ==
		        (c < 0x20 || c == 0x7f),
		    "byte 0x%02x", c);
}
END_TEST

static const struct {
	const char *in, *want;
	size_t n;
} masked[] = {
	{"plain", "plain", 5},
	{"a\nb\rc\td", "a?b?c?d", 7},
	{"\x1b[31mred", "?[31mred", 8},
	{"nul\0here", "nul?here", 8},
	{"del\x7f", "del?", 4},
	{"caf\xc3\xa9 \xc2\x85", "caf\xc3\xa9 \xc2\x85", 8}, /* UTF-8 kept */
	{"", "", 0},
};

START_TEST(gpt_mask_controls_replaces_each_control_byte_with_a_question_mark)
{
	char s[32];

	memcpy(s, masked[_i].in, masked[_i].n);
	s[masked[_i].n] = '!';
	gpt_mask_controls(s, masked[_i].n);
	ck_assert_mem_eq(s, masked[_i].want, masked[_i].n);
	ck_assert_int_eq(s[masked[_i].n], '!'); /* nothing past n */
}
END_TEST

START_TEST(gpt_is_tchar_admits_exactly_the_rfc_9110_token_bytes)
{
	static const char extra[] = "!#$%&'*+-.^_`|~";
	unsigned c;

	for (c = 0; c < 256; c++) {
		bool want = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		    (c >= '0' && c <= '9') ||
		    (c != 0 && memchr(extra, (int)c, sizeof(extra) - 1) != NULL);

		ck_assert_msg(gpt_is_tchar((unsigned char)c) == want,
		    "byte 0x%02x", c);
	}
}
END_TEST

START_TEST(gpt_add_and_mul_size_refuse_to_wrap)
{
	size_t out = 7;

	ck_assert(gpt_add_size(SIZE_MAX - 1, 1, &out));
	ck_assert_uint_eq(out, SIZE_MAX);
	ck_assert(!gpt_add_size(SIZE_MAX, 1, &out));
	ck_assert_uint_eq(out, SIZE_MAX);
	ck_assert(gpt_mul_size(SIZE_MAX / 2, 2, &out));
	ck_assert(!gpt_mul_size(SIZE_MAX / 2 + 1, 2, &out));
	ck_assert(gpt_mul_size(SIZE_MAX, 0, &out));
	ck_assert_uint_eq(out, 0);
}
END_TEST

START_TEST(gpt_now_ms_never_goes_back_and_counts_a_sleep)
{
	struct timespec pause = {0, 50 * 1000 * 1000};
	uint64_t start = gpt_now_ms(), prev = start, now;
	int i;

	ck_assert_uint_gt(start, 0);
	for (i = 0; i < 10000; i++) {
		now = gpt_now_ms();
		ck_assert_uint_ge(now, prev);
		prev = now;
	}
	ck_assert_int_eq(nanosleep(&pause, NULL), 0);
	now = gpt_now_ms();
	/* 50 ms asleep; the coarse clock may lag its last tick (a few ms). */
	ck_assert_uint_ge(now - start, 40);
}
END_TEST

static Suite *
suite_common(void)
{
	Suite *s = suite_create("common");
	TCase *tc = tcase_create("Core");

	tcase_add_test(tc, gpt_is_control_is_true_for_c0_and_del_only);
	tcase_add_loop_test(tc,
	    gpt_mask_controls_replaces_each_control_byte_with_a_question_mark,
	    0, (int)GPT_ARRAY_LEN(masked));
	tcase_add_test(tc, gpt_is_tchar_admits_exactly_the_rfc_9110_token_bytes);
	tcase_add_test(tc, gpt_add_and_mul_size_refuse_to_wrap);
	tcase_add_test(tc, gpt_now_ms_never_goes_back_and_counts_a_sleep);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(suite_common)
