/* check_dec.c: exact decimals: parsing, comparison, integers, multipleOf. */
#include <string.h>

#include "check_main.h"
#include "base/dec.h"

static struct dec
parse_ok(const char *text)
{
	struct dec d;

	ck_assert_msg(dec_parse(text, strlen(text), &d) == 0,
	    "dec_parse refused %s", text);
	return d;
}

static void
expect_parse(const char *text, bool neg, const char *digits, int64_t exp)
{
	struct dec d = parse_ok(text);
	char got[64];
	size_t i;

	ck_assert_msg(d.ndigits < sizeof(got), "%s: too many digits", text);
	for (i = 0; i < d.ndigits; i++)
		got[i] = dec_digit(&d, i);
	got[i] = '\0';
	ck_assert_msg(strcmp(got, digits) == 0 && d.exp == exp && d.neg == neg,
	    "%s: got %s%se%lld, expected %s%se%lld", text, d.neg ? "-" : "",
	    got, (long long)d.exp, neg ? "-" : "", digits, (long long)exp);
}

static void
expect_parse_fail(const char *text)
{
	struct dec d = {.exp = 12345};

	ck_assert_msg(dec_parse(text, strlen(text), &d) == -1,
	    "dec_parse accepted %s", text);
	ck_assert_msg(d.exp == 12345, "%s: output touched on failure", text);
}

START_TEST(dec_parse_normalizes_digits_and_exponent)
{
	static const struct {
		const char *text, *digits;
		bool neg;
		int64_t exp;
	} cases[] = {
	    {"0", "", false, 0},
	    {"-0", "", false, 0},
	    {"0.000", "", false, 0},
	    {"0e99999999999999999999999", "", false, 0},
	    {"1", "1", false, 0},
	    {"1.0", "1", false, 0},
	    {"1e0", "1", false, 0},
	    {"10e-1", "1", false, 0},
	    {"100", "1", false, 2},
	    {"-1.500", "15", true, -1},
	    {"10.5", "105", false, -1},
	    {"0.001", "1", false, -3},
	    {"120.0e2", "12", false, 3},
	    {"1E+2", "1", false, 2},
	    {"123.456e-3", "123456", false, -6},
	    {"1e-0000000000000000000000000000008", "1", false, -8},
	    {"1e1099511627776", "1", false, DEC_EXP_MAX},
	    {"18446744073709551616", "18446744073709551616", false, 0},
	};
	size_t i;

	for (i = 0; i < GPT_ARRAY_LEN(cases); i++)
		expect_parse(cases[i].text, cases[i].neg, cases[i].digits,
		    cases[i].exp);
}
END_TEST

START_TEST(dec_parse_refuses_exponents_out_of_range)
{
	static const char *const cases[] = {
	    "1e1099511627777",
	    "1e-1099511627777",
	    "1e99999999999999999999999999",
	    "-5e-99999999999999999999999999",
	    "",
	    "-",
	    "1e",
	    "1.2.3",
	};
	size_t i;

	for (i = 0; i < GPT_ARRAY_LEN(cases); i++)
		expect_parse_fail(cases[i]);
}
END_TEST

static void
expect_cmp(const char *a, const char *b, int want)
{
	struct dec da = parse_ok(a), db = parse_ok(b);

	ck_assert_msg(dec_cmp(&da, &db) == want, "cmp(%s, %s) = %d, not %d",
	    a, b, dec_cmp(&da, &db), want);
	ck_assert_msg(dec_cmp(&db, &da) == -want, "cmp(%s, %s) not %d", b, a,
	    -want);
}

START_TEST(dec_cmp_orders_exactly)
{
	static const struct {
		const char *a, *b;
		int want;
	} cases[] = {
	    {"-0", "0", 0},
	    {"0", "0.0e5", 0},
	    {"1", "1.0", 0},
	    {"1", "1e0", 0},
	    {"1", "10e-1", 0},
	    {"1.0", "0.1e1", 0},
	    {"1", "2", -1},
	    {"-1", "1", -1},
	    {"-2", "-1", -1},
	    {"0", "1e-400", -1},
	    {"-1e-400", "0", -1},
	    {"9", "10", -1},
	    {"0.99", "1", -1},
	    {"1.5", "1.05", 1},
	    {"1.25", "1.2", 1},
	    {"-1.25", "-1.2", -1},
	    /* 30-digit decimals that doubles cannot tell apart */
	    {"1.00000000000000000000000000001", "1", 1},
	    {"1.00000000000000000000000000001", "1.00000000000000000000000000002",
		-1},
	    {"123456789012345678901234567890", "123456789012345678901234567891",
		-1},
	    /* integers past 2^64 */
	    {"18446744073709551616", "18446744073709551615", 1},
	    {"18446744073709551617", "1.8446744073709551617e19", 0},
	    {"-18446744073709551617", "-18446744073709551616", -1},
	    {"9007199254740993", "9007199254740992", 1},
	    {"1e400", "1e399", 1},
	    {"1e400", "99999999999999999999", 1},
	};
	size_t i;

	for (i = 0; i < GPT_ARRAY_LEN(cases); i++)
		expect_cmp(cases[i].a, cases[i].b, cases[i].want);
}
END_TEST

static void
expect_integer(const char *text, bool want)
{
	struct dec d = parse_ok(text);

	ck_assert_msg(dec_is_integer(&d) == want, "dec_is_integer(%s) != %d",
	    text, want);
}

START_TEST(dec_is_integer_ignores_how_the_number_is_written)
{
	expect_integer("0", true);
	expect_integer("-0.0", true);
	expect_integer("1", true);
	expect_integer("1.0", true);
	expect_integer("1e2", true);
	expect_integer("1.5e1", true);
	expect_integer("1e400", true);
	expect_integer("-18446744073709551617", true);
	expect_integer("1.5", false);
	expect_integer("1e-400", false);
	expect_integer("1.25e1", false);
}
END_TEST

START_TEST(dec_is_zero_sees_every_zero)
{
	static const char *const zeros[] = {"0", "-0", "0.0", "0e10", "-0.0E-3"};
	static const char *const others[] = {"1", "1e-400", "-0.001"};
	size_t i;

	for (i = 0; i < GPT_ARRAY_LEN(zeros); i++) {
		struct dec d = parse_ok(zeros[i]);

		ck_assert_msg(dec_is_zero(&d), "%s is zero", zeros[i]);
	}
	for (i = 0; i < GPT_ARRAY_LEN(others); i++) {
		struct dec d = parse_ok(others[i]);

		ck_assert_msg(!dec_is_zero(&d), "%s is not zero", others[i]);
	}
}
END_TEST

static void
expect_multiple(const char *value, const char *divisor, int want)
{
	struct dec v = parse_ok(value), d = parse_ok(divisor);
	int got = dec_is_multiple(&v, &d);

	ck_assert_msg(got == want, "%s multipleOf %s: %d, expected %d", value,
	    divisor, got, want);
}

START_TEST(dec_is_multiple_is_exact)
{
	static const struct {
		const char *value, *divisor;
		int want;
	} cases[] = {
	    {"19.99", "0.01", 1},
	    {"0.015", "0.01", 0},
	    {"0.3", "0.1", 1},
	    {"0.30000000000000004", "0.1", 0},
	    {"0.00000003", "1e-8", 1},
	    {"0.000000035", "1e-8", 0},
	    {"0", "7", 1},
	    {"-0.0", "0.3", 1},
	    {"10", "2", 1},
	    {"7", "2", 0},
	    {"-21", "7", 1},
	    {"4.5", "1.5", 1},
	    {"35", "1.5", 0},
	    {"1e400", "0.01", 1},
	    {"1e400", "3", 0},
	    {"1e308", "0.123456789", 0},
	    {"1.5e-400", "0.5e-400", 1},
	    {"1e-400", "0.01", 0},
	    /* 2^64 * 7 and neighbours */
	    {"129127208515966861312", "7", 1},
	    {"129127208515966861313", "7", 0},
	    {"129127208515966861312", "18446744073709551616", 1},
	    {"129127208515966861313", "18446744073709551616", 0},
	    {"18446744073709551616e300", "18446744073709551616", 1},
	    {"1e300", "18446744073709551616", 1},
	    {"1e300", "18446744073709551617", 0},
	    {"2e64", "2e32", 1},
	    {"340282366920938463463374607431768211456", "18446744073709551616",
		1},
	    /* a ten-digit divisor takes the long way */
	    {"24691357802", "1234567890.1", 1},
	    {"24691357803", "1234567890.1", 0},
	    {"1e40", "1024000000001", 0},
	    {"1e400", "1000000007", 0},
	    {"1000000007e400", "1000000007", 1},
	    {"12345678901234567890123e5", "1234567890123456789012.3", 1},
	    {"2e1000", "20000000000000000000000001", 0},
	    {"1024e300", "1.024000000001", 0},
	    {"5e30", "2500000000001", 0},
	};
	size_t i;

	for (i = 0; i < GPT_ARRAY_LEN(cases); i++)
		expect_multiple(cases[i].value, cases[i].divisor,
		    cases[i].want);
}
END_TEST

START_TEST(dec_is_multiple_refuses_huge_divisors)
{
	char big[4000];
	struct dec v, d;

	memset(big, '7', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	v = parse_ok("7");
	d = parse_ok(big);
	ck_assert_int_eq(dec_is_multiple(&v, &d), -1);
	d = parse_ok("0");
	ck_assert_int_eq(dec_is_multiple(&v, &d), -1);
	d = parse_ok("-2");
	ck_assert_int_eq(dec_is_multiple(&v, &d), -1);
}
END_TEST

START_TEST(dec_digit_skips_the_decimal_point)
{
	struct dec d = parse_ok("-12.034e7");

	ck_assert_uint_eq(d.ndigits, 5);
	ck_assert_int_eq(dec_digit(&d, 0), '1');
	ck_assert_int_eq(dec_digit(&d, 1), '2');
	ck_assert_int_eq(dec_digit(&d, 2), '0');
	ck_assert_int_eq(dec_digit(&d, 4), '4');
}
END_TEST

static const struct {
	const char *text;
	bool fits;
	uint64_t mant;
	int64_t exp;
} shorts[] = {
	{"0", true, 0, 0},
	{"-0", true, 0, 0},
	{"7", true, 7, 0},
	{"-12.50", true, 1250, -2}, /* sign ignored, not normalized */
	{"1E+2", true, 1, 2},
	{"-0.5e-3", true, 5, -4},
	{"0.000", true, 0, -3},
	{"000000000000000000000001", true, 1, 0}, /* leading zeros are free */
	{"123456789012345678", true, 123456789012345678u, 0}, /* 18 digits */
	{"1234567890123456789", false, 0, 0},		  /* 19 */
	{"1.000000000000000000", false, 0, 0}, /* 19 with the zeros */
	{"1e400", true, 1, 400},
	{"1e401", false, 0, 0},
	{"1.5e-399", true, 15, -400},
	{"1.5e-400", false, 0, 0},
	{"1e99999999999999999999999", false, 0, 0}, /* no overflow */
	{"0e-401", false, 0, 0},
};

START_TEST(dec_short_reads_small_numbers_and_refuses_the_rest)
{
	uint64_t mant = 99;
	int64_t exp = 99;
	bool fits;

	fits = dec_short(shorts[_i].text, strlen(shorts[_i].text), &mant,
	    &exp);
	ck_assert_msg(fits == shorts[_i].fits, "%s: fits %d", shorts[_i].text,
	    (int)fits);
	if (fits) {
		ck_assert_msg(mant == shorts[_i].mant && exp == shorts[_i].exp,
		    "%s: %llue%lld", shorts[_i].text, (unsigned long long)mant,
		    (long long)exp);
	} else {
		ck_assert_msg(mant == 99 && exp == 99,
		    "%s: outputs touched on failure", shorts[_i].text);
	}
}
END_TEST

static Suite *
suite_dec(void)
{
	Suite *s = suite_create("dec");
	TCase *tc = tcase_create("Core");

	tcase_add_test(tc, dec_parse_normalizes_digits_and_exponent);
	tcase_add_test(tc, dec_parse_refuses_exponents_out_of_range);
	tcase_add_test(tc, dec_cmp_orders_exactly);
	tcase_add_test(tc, dec_is_integer_ignores_how_the_number_is_written);
	tcase_add_test(tc, dec_is_zero_sees_every_zero);
	tcase_add_test(tc, dec_is_multiple_is_exact);
	tcase_add_test(tc, dec_is_multiple_refuses_huge_divisors);
	tcase_add_test(tc, dec_digit_skips_the_decimal_point);
	tcase_add_loop_test(tc, dec_short_reads_small_numbers_and_refuses_the_rest,
	    0, (int)GPT_ARRAY_LEN(shorts));
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(suite_dec)
