/* check_json_equal.c: JSON equality (2020-12), its consistent keyed hash
 * and the canonical encoding that orders values consistently with it. */
#include <stdio.h>
#include <string.h>

#include "base/arena.h"
#include "check_main.h"
#include "check_parse.h"
#include "base/hash.h"
#include "parser/json.h"

static struct arena test_arena;

static void
setup(void)
{
	arena_init(&test_arena, 64 << 20);
}

static void
teardown(void)
{
	arena_free(&test_arena);
}

static const struct json_value *
parse(const char *text)
{
	return test_parse(&test_arena, text, 0);
}

/* true when the canonical encodings of a and b are the same bytes. */
static bool
canon_same(const struct json_value *a, const struct json_value *b)
{
	const unsigned char *ea, *eb;
	size_t la, lb;

	ck_assert_int_eq(json_canon(a, &test_arena, &ea, &la), 0);
	ck_assert_int_eq(json_canon(b, &test_arena, &eb, &lb), 0);
	return la == lb && memcmp(ea, eb, la) == 0;
}

static void
expect_equal(const char *a, const char *b)
{
	const struct json_value *va = parse(a), *vb = parse(b);

	ck_assert_msg(json_equal(va, vb), "%s should equal %s", a, b);
	ck_assert_msg(json_equal(vb, va), "%s should equal %s", b, a);
	ck_assert_msg(json_hash(va) == json_hash(vb),
	    "%s and %s are equal but hash apart", a, b);
	ck_assert_msg(
	    canon_same(va, vb), "%s and %s are equal but encode apart", a, b);
}

static void
expect_unequal(const char *a, const char *b)
{
	const struct json_value *va = parse(a), *vb = parse(b);

	ck_assert_msg(!json_equal(va, vb), "%s should differ from %s", a, b);
	ck_assert_msg(!json_equal(vb, va), "%s should differ from %s", b, a);
	ck_assert_msg(!canon_same(va, vb), "%s and %s encode alike", a, b);
}

START_TEST(json_equal_compares_numbers_as_exact_decimals)
{
	static const char *const equal[][2] = {
	    {"1", "1.0"},
	    {"1", "1e0"},
	    {"1", "10e-1"},
	    {"1.0", "0.1E1"},
	    {"-0", "0"},
	    {"0", "0.000e7"},
	    {"100", "1e2"},
	    {"-123.45", "-12345e-2"},
	    {"18446744073709551616", "1.8446744073709551616e19"},
	    {"9223372036854775807", "9223372036854775807.0"},
	    {"-9223372036854775808", "-9.223372036854775808e18"},
	    {"1e400", "10e399"},
	    {"1e99999999999999999999", "1e99999999999999999999"},
	};
	static const char *const unequal[][2] = {
	    {"1", "2"},
	    {"1", "-1"},
	    {"0.1", "0.10000000000000001"},
	    {"9007199254740993", "9007199254740992"},
	    {"18446744073709551616", "18446744073709551617"},
	    {"1e400", "1e401"},
	    {"1", "\"1\""},
	    {"0", "false"},
	    {"1", "true"},
	    {"0", "null"},
	};
	size_t i;

	for (i = 0; i < GPT_ARRAY_LEN(equal); i++)
		expect_equal(equal[i][0], equal[i][1]);
	for (i = 0; i < GPT_ARRAY_LEN(unequal); i++)
		expect_unequal(unequal[i][0], unequal[i][1]);
}
END_TEST

START_TEST(json_equal_compares_strings_after_unescaping)
{
	expect_equal("\"abc\"", "\"\\u0061bc\"");
	expect_equal("\"\\u00e9\"", "\"\xc3\xa9\"");
	expect_equal("\"a\\u0000b\"", "\"a\\u0000b\"");
	expect_equal("\"\\ud83d\\ude00\"", "\"\xf0\x9f\x98\x80\"");
	expect_equal("\"\"", "\"\"");
	expect_unequal("\"a\\u0000b\"", "\"a\\u0000c\"");
	expect_unequal("\"a\"", "\"a \"");
	expect_unequal("\"e\\u0301\"", "\"\\u00e9\""); /* no normalization */
	expect_unequal("\"A\"", "\"a\"");
}
END_TEST

START_TEST(json_equal_compares_arrays_in_order)
{
	expect_equal("[]", "[]");
	expect_equal("[1, [2, {\"a\": 3}]]", "[1.0, [2e0, {\"a\": 30e-1}]]");
	expect_unequal("[1, 2]", "[2, 1]");
	expect_unequal("[1]", "[1, 1]");
	expect_unequal("[]", "{}");
	expect_unequal("[[]]", "[{}]");
	expect_unequal("[null]", "[false]");
}
END_TEST

START_TEST(json_equal_ignores_member_order)
{
	expect_equal("{}", "{}");
	expect_equal(
	    "{\"a\": 1, \"b\": [true]}", "{\"b\": [true], \"a\": 1.0}");
	expect_equal(
	    "{\"x\": {\"p\": 1, \"q\": 2}}", "{\"x\": {\"q\": 2, \"p\": 1}}");
	expect_unequal("{\"a\": 1}", "{\"a\": 1, \"b\": 1}");
	expect_unequal("{\"a\": 1}", "{\"b\": 1}");
	expect_unequal("{\"a\": 1}", "{\"a\": 2}");
	expect_unequal("{\"a\": null}", "{}");
}
END_TEST

START_TEST(json_equal_handles_large_objects)
{
	char a[40000], b[40000];
	size_t la = 0, lb = 0;
	int i;

	/* 1000 members, in opposite orders: the indexed lookup path */
	a[la++] = '{';
	b[lb++] = '{';
	for (i = 0; i < 1000; i++) {
		la += (size_t)snprintf(a + la, sizeof(a) - la, "%s\"k%d\": %d",
		    i ? "," : "", i, i);
		lb += (size_t)snprintf(b + lb, sizeof(b) - lb, "%s\"k%d\": %d",
		    i ? "," : "", 999 - i, 999 - i);
	}
	a[la++] = '}';
	b[lb++] = '}';
	a[la] = '\0';
	b[lb] = '\0';
	expect_equal(a, b);
	b[lb - 2] = '1'; /* "k0": 0 becomes "k0": 1 */
	expect_unequal(a, b);
}
END_TEST

START_TEST(json_equal_works_on_hand_built_trees)
{
	struct json_value one_int = {.type = JSON_T_NUMBER};
	struct json_value one_dec = {.type = JSON_T_NUMBER};
	struct json_member m1[2], m2[2];
	struct json_value o1 = {.type = JSON_T_OBJECT};
	struct json_value o2 = {.type = JSON_T_OBJECT};

	one_int.u.num.text = "1";
	one_int.u.num.len = 1;
	one_int.u.num.is_small_int = true;
	one_int.u.num.i = 1;
	one_dec.u.num.text = "1.00";
	one_dec.u.num.len = 4;
	json_member_name(&m1[0], "a", 1, 1);
	m1[0].value = one_int;
	json_member_name(&m1[1], "b", 1, 1);
	m1[1].value = one_dec;
	m2[0] = m1[1];
	m2[1] = m1[0];
	m2[1].value = one_dec;
	o1.u.obj.members = m1;
	o1.u.obj.count = 2;
	o2.u.obj.members = m2;
	o2.u.obj.count = 2;
	ck_assert(json_equal(&one_int, &one_dec));
	ck_assert(json_equal(&o1, &o2));
	ck_assert_uint_eq(json_hash(&o1), json_hash(&o2));
	json_member_name(&m2[0], "c", 1, 1);
	ck_assert(!json_equal(&o1, &o2));
}
END_TEST

START_TEST(json_hash_separates_common_values)
{
	static const char *const values[] = {
	    "null",
	    "true",
	    "false",
	    "0",
	    "1",
	    "-1",
	    "10",
	    "0.1",
	    "\"\"",
	    "\"1\"",
	    "[]",
	    "{}",
	    "[1]",
	    "[[1]]",
	    "{\"a\":1}",
	    "{\"a\":2}",
	    "{\"b\":1}",
	    "[1,2]",
	    "[2,1]",
	    "\"null\"",
	    "1e400",
	    "-1e400",
	};
	uint64_t h[GPT_ARRAY_LEN(values)];
	size_t i, j;

	for (i = 0; i < GPT_ARRAY_LEN(values); i++) {
		h[i] = json_hash(parse(values[i]));
		for (j = 0; j < i; j++)
			ck_assert_msg(h[i] != h[j], "%s and %s hash alike",
			    values[i], values[j]);
	}
}
END_TEST

START_TEST(json_hash_is_keyed_and_hashes_strings_as_member_names)
{
	/* the unkeyed hash of "a" before: FNV-1a 64 then splitmix64 */
	ck_assert(json_hash(parse("\"a\"")) != 0x0b0eebdd1dac6ee9ull);
	ck_assert(json_hash(parse("\"a\\u0000b\"")) == hash_bytes("a\0b", 3));
	ck_assert(json_hash(parse("\"\"")) == hash_bytes("", 0));
	/* a number is not the string of its digits */
	ck_assert(json_hash(parse("1")) != hash_bytes("1", 1));
}
END_TEST

START_TEST(json_canon_is_a_total_order_consistent_with_json_equal)
{
	/* every pair of these: equal exactly when the encodings are */
	static const char *const values[] = {
	    "null",
	    "true",
	    "false",
	    "0",
	    "-0.0",
	    "0e7",
	    "1",
	    "1.0",
	    "10e-1",
	    "-1",
	    "100",
	    "1e2",
	    "0.5",
	    "5e-1",
	    "1e400",
	    "1e99999999999999",
	    "\"\"",
	    "\"1\"",
	    "\"a\\u0000\"",
	    "[]",
	    "[1]",
	    "[1.0]",
	    "[1,2]",
	    "[2,1]",
	    "{}",
	    "{\"a\":1}",
	    "{\"a\":1.0}",
	    "{\"a\":1,\"b\":[2]}",
	    "{\"b\":[2e0],\"a\":1}",
	    "{\"b\":1,\"a\":1}",
	    "{\"aa\":1}",
	    "[{}]",
	    "[[]]",
	};
	const struct json_value *v[GPT_ARRAY_LEN(values)];
	size_t i, j;

	for (i = 0; i < GPT_ARRAY_LEN(values); i++)
		v[i] = parse(values[i]);
	for (i = 0; i < GPT_ARRAY_LEN(values); i++)
		for (j = 0; j < GPT_ARRAY_LEN(values); j++)
			ck_assert_msg(
			    json_equal(v[i], v[j]) == canon_same(v[i], v[j]),
			    "%s and %s", values[i], values[j]);
}
END_TEST

START_TEST(json_canon_fails_cleanly_when_the_arena_refuses)
{
	struct arena small;
	const unsigned char *e = NULL;
	size_t n = 0;

	arena_init(&small, 16);
	ck_assert_int_eq(
	    json_canon(parse("[\"0123456789abcdef\"]"), &small, &e, &n), -1);
	ck_assert_ptr_null(e);
	arena_free(&small);
}
END_TEST

START_TEST(json_equal_follows_the_deepest_parsed_values)
{
	char a[2 * JSON_MAX_DEPTH + 8], b[2 * JSON_MAX_DEPTH + 8];
	size_t i;

	for (i = 0; i < JSON_MAX_DEPTH; i++) {
		a[i] = b[i] = '[';
		a[2 * JSON_MAX_DEPTH - 1 - i] = b[2 * JSON_MAX_DEPTH - 1 - i] =
		    ']';
	}
	a[2 * JSON_MAX_DEPTH] = b[2 * JSON_MAX_DEPTH] = '\0';
	expect_equal(a, b);
	/* [[...[1]...]] against [[...[2]...]] */
	memmove(a + JSON_MAX_DEPTH + 1, a + JSON_MAX_DEPTH, JSON_MAX_DEPTH + 1);
	memmove(b + JSON_MAX_DEPTH + 1, b + JSON_MAX_DEPTH, JSON_MAX_DEPTH + 1);
	a[JSON_MAX_DEPTH] = '1';
	b[JSON_MAX_DEPTH] = '2';
	expect_unequal(a, b);
}
END_TEST

static Suite *
suite_json_equal(void)
{
	Suite *s = suite_create("json_equal");
	TCase *tc = tcase_create("Core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, json_equal_compares_numbers_as_exact_decimals);
	tcase_add_test(tc, json_equal_compares_strings_after_unescaping);
	tcase_add_test(tc, json_equal_compares_arrays_in_order);
	tcase_add_test(tc, json_equal_ignores_member_order);
	tcase_add_test(tc, json_equal_handles_large_objects);
	tcase_add_test(tc, json_equal_works_on_hand_built_trees);
	tcase_add_test(tc, json_hash_separates_common_values);
	tcase_add_test(tc, json_equal_follows_the_deepest_parsed_values);
	tcase_add_test(
	    tc, json_hash_is_keyed_and_hashes_strings_as_member_names);
	tcase_add_test(
	    tc, json_canon_is_a_total_order_consistent_with_json_equal);
	tcase_add_test(tc, json_canon_fails_cleanly_when_the_arena_refuses);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(suite_json_equal)
