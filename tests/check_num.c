/* check_num.c: the one reader of decimal whole numbers (base/num.h). */
#include <stdint.h>
#include <string.h>

#include "check_main.h"
#include "base/num.h"

static const struct {
	const char *text;
	uint64_t min, max;
	unsigned flags;
	const char *why; /* NULL: read */
	uint64_t want;
} cases[] = {
    {"0", 0, 10, 0, NULL, 0},
    {"7", 0, 10, 0, NULL, 7},
    {"10", 0, 10, 0, NULL, 10},
    {"11", 0, 10, 0, "too large", 0},
    {"0", 1, 10, 0, "too small", 0},
    {"05", 0, 10, 0, NULL, 5},
    {"05", 0, 10, NUM_CANONICAL, "a leading zero", 0},
    {"0", 0, 10, NUM_CANONICAL, NULL, 0},
    {"", 0, 10, 0, "not a number", 0},
    {"-1", 0, 10, 0, "not a number", 0},
    {"+1", 0, 10, 0, "not a number", 0},
    {" 1", 0, 10, 0, "not a number", 0},
    {"1 ", 0, 10, 0, "not a number", 0},
    {"1e3", 0, 10000, 0, "not a number", 0},
    {"0x10", 0, 100, 0, "not a number", 0},
    {"18446744073709551615", 0, UINT64_MAX, 0, NULL, UINT64_MAX},
    {"18446744073709551616", 0, UINT64_MAX, 0, "too large", 0},
    {"99999999999999999999999999", 0, UINT64_MAX, 0, "too large", 0},
    /* a byte past the saturation point is still read */
    {"99999999999999999999999x", 0, UINT64_MAX, 0, "not a number", 0},
};

START_TEST(num_read_takes_digits_in_range_and_says_why_otherwise)
{
	uint64_t v = 42;
	const char *why = num_read(cases[_i].text, strlen(cases[_i].text),
	    cases[_i].min, cases[_i].max, cases[_i].flags, &v);

	if (cases[_i].why == NULL) {
		ck_assert_msg(why == NULL, "\"%s\": %s", cases[_i].text, why);
		ck_assert_uint_eq(v, cases[_i].want);
	} else {
		ck_assert_msg(why != NULL && strcmp(why, cases[_i].why) == 0,
		    "\"%s\": %s, not %s", cases[_i].text,
		    why != NULL ? why : "read", cases[_i].why);
		ck_assert_uint_eq(v, 42); /* untouched on failure */
	}
}
END_TEST

START_TEST(num_read_reads_no_byte_past_its_length)
{
	uint64_t v;

	ck_assert_ptr_null(num_read("12x", 2, 0, 100, 0, &v));
	ck_assert_uint_eq(v, 12);
	ck_assert_ptr_null(num_read_str("64", 0, 100, 0, &v));
	ck_assert_uint_eq(v, 64);
}
END_TEST

static Suite *
suite_num(void)
{
	Suite *s = suite_create("num");
	TCase *tc = tcase_create("Core");

	tcase_add_loop_test(tc,
	    num_read_takes_digits_in_range_and_says_why_otherwise, 0,
	    (int)(sizeof(cases) / sizeof(cases[0])));
	tcase_add_test(tc, num_read_reads_no_byte_past_its_length);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(suite_num)
