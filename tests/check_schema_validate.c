/*
 * check_schema_validate.c: schema_validate keyword by keyword (accept and
 * reject, with the failing keyword and instance pointer), exactness of
 * numbers, lengths and equality, $ref forms, and the depth, step and
 * pattern limits.
 */
#include <stdlib.h>

#include "base/buf.h"
#include "check_schema.h"
#include "flood.h"
#include "schema/schema_int.h"
#include "parser/re.h"

START_TEST(type_accepts_its_names_and_integer_by_value)
{
	static const struct vcase t[] = {
	    {"{\"type\":\"string\"}", "\"a\"", NULL, NULL},
	    {"{\"type\":\"string\"}", "1", "type", ""},
	    {"{\"type\":\"integer\"}", "1", NULL, NULL},
	    {"{\"type\":\"integer\"}", "1.0", NULL, NULL},
	    {"{\"type\":\"integer\"}", "1e2", NULL, NULL},
	    {"{\"type\":\"integer\"}", "15e-1", "type", ""},
	    {"{\"type\":\"integer\"}", "1.5e1", NULL, NULL},
	    {"{\"type\":\"integer\"}", "123456789012345678901234567890", NULL,
	        NULL},
	    {"{\"type\":\"integer\"}", "-0.0", NULL, NULL},
	    {"{\"type\":\"integer\"}", "1.5", "type", ""},
	    {"{\"type\":\"integer\"}", "\"1\"", "type", ""},
	    {"{\"type\":\"number\"}", "1.5", NULL, NULL},
	    {"{\"type\":\"number\"}", "1e9999999999999", NULL, NULL},
	    {"{\"type\":\"number\"}", "null", "type", ""},
	    {"{\"type\":[\"null\",\"boolean\"]}", "null", NULL, NULL},
	    {"{\"type\":[\"null\",\"boolean\"]}", "false", NULL, NULL},
	    {"{\"type\":[\"null\",\"boolean\"]}", "0", "type", ""},
	    {"{\"type\":\"object\"}", "{}", NULL, NULL},
	    {"{\"type\":\"object\"}", "[]", "type", ""},
	    {"{\"type\":\"array\"}", "[]", NULL, NULL},
	    {"{\"type\":[\"integer\",\"string\"]}", "2.5", "type", ""},
	};

	RUN_VCASES(t);
}
END_TEST

START_TEST(enum_and_const_use_json_equality)
{
	static const struct vcase t[] = {
	    {"{\"enum\":[1,\"a\",{\"x\":[1,2]},null]}", "1.0", NULL, NULL},
	    {"{\"enum\":[1,\"a\",{\"x\":[1,2]},null]}", "{\"x\":[1.0,2e0]}",
	        NULL, NULL},
	    {"{\"enum\":[1,\"a\",{\"x\":[1,2]},null]}", "\"b\"", "enum", ""},
	    {"{\"enum\":[1,\"a\",{\"x\":[1,2]},null]}", "[]", "enum", ""},
	    {"{\"enum\":[1,\"a\",{\"x\":[1,2]},null]}", "{\"x\":[2,1]}", "enum",
	        ""},
	    {"{\"enum\":[1,2,3,4,5,6,7,8,{\"a\":1,\"b\":2}]}",
	        "{\"b\":2,\"a\":1}", NULL, NULL},
	    {"{\"enum\":[1,2,3,4,5,6,7,8,{\"a\":1,\"b\":2}]}", "8.0", NULL,
	        NULL},
	    {"{\"enum\":[1,2,3,4,5,6,7,8,{\"a\":1,\"b\":2}]}", "9", "enum", ""},
	    {"{\"enum\":[]}", "null", "enum", ""},
	    {"{\"enum\":[\"a\",\"bb\",\"c\",\"d\",1,{\"x\":1}]}", "\"bb\"",
	        NULL, NULL},
	    {"{\"enum\":[\"a\",\"bb\",\"c\",\"d\",1,{\"x\":1}]}", "\"b\"",
	        "enum", ""},
	    {"{\"enum\":[\"a\",\"bb\",\"c\",\"d\",1,{\"x\":1}]}", "\"1\"",
	        "enum", ""},
	    {"{\"enum\":[\"a\",\"bb\",\"c\",\"d\",1,{\"x\":1}]}", "1.0", NULL,
	        NULL},
	    {"{\"enum\":[\"a\",\"bb\",\"c\",\"d\",1,{\"x\":1}]}", "{\"x\":1e0}",
	        NULL, NULL},
	    {"{\"enum\":[\"a\",\"a\",\"a\",\"a\",\"\\u00e9\"]}", "\"\xc3\xa9\"",
	        NULL, NULL},
	    {"{\"enum\":[false]}", "0", "enum", ""},
	    {"{\"const\":{\"a\":[1,{\"b\":null}]}}",
	        "{\"a\":[1.0,{\"b\":null}]}", NULL, NULL},
	    {"{\"const\":{\"a\":[1,{\"b\":null}]}}", "{\"a\":[1]}", "const",
	        ""},
	    {"{\"const\":false}", "0", "const", ""},
	    {"{\"const\":0}", "false", "const", ""},
	    {"{\"const\":\"\\u00e9\"}", "\"\xc3\xa9\"", NULL, NULL},
	    {"{\"properties\":{\"k\":{\"const\":1}}}", "{\"k\":2}", "const",
	        "/k"},
	};

	RUN_VCASES(t);
}
END_TEST

START_TEST(numeric_bounds_are_exact_decimals)
{
	static const struct vcase t[] = {
	    {"{\"minimum\":5}", "5", NULL, NULL},
	    {"{\"minimum\":5}", "4.999", "minimum", ""},
	    {"{\"minimum\":5}", "5.0000000000000000000000001", NULL, NULL},
	    {"{\"minimum\":5}", "4.9999999999999999999999999", "minimum", ""},
	    {"{\"exclusiveMinimum\":5}", "5", "exclusiveMinimum", ""},
	    {"{\"exclusiveMinimum\":5}", "5.0000000000000000000000001", NULL,
	        NULL},
	    {"{\"maximum\":18446744073709551616}", "18446744073709551616", NULL,
	        NULL},
	    {"{\"maximum\":18446744073709551616}", "18446744073709551617",
	        "maximum", ""},
	    {"{\"maximum\":9007199254740992}", "9007199254740993", "maximum",
	        ""},
	    {"{\"minimum\":-9007199254740993}", "-9007199254740994", "minimum",
	        ""},
	    {"{\"minimum\":-9007199254740993}", "-9007199254740993", NULL,
	        NULL},
	    {"{\"exclusiveMaximum\":0.3}", "0.299999999999999999999999999999",
	        NULL, NULL},
	    {"{\"exclusiveMaximum\":0.3}", "0.3", "exclusiveMaximum", ""},
	    {"{\"exclusiveMaximum\":0.3}", "3e-1", "exclusiveMaximum", ""},
	    {"{\"maximum\":1e2}", "100.0", NULL, NULL},
	    {"{\"maximum\":1e2}", "100.000000000000000000001", "maximum", ""},
	    {"{\"minimum\":-1.5}", "-2", "minimum", ""},
	    {"{\"minimum\":0}", "-0", NULL, NULL},
	    {"{\"minimum\":0}", "\"x\"", NULL, NULL},
	    {"{\"minimum\":0.5}", "0.49", "minimum", ""},
	    {"{\"minimum\":0.5}", "5e-1", NULL, NULL},
	    {"{\"minimum\":0.5}", "-0.5", "minimum", ""},
	    {"{\"minimum\":-0.5}", "-0.0", NULL, NULL},
	    {"{\"minimum\":-0.5}", "-0.51", "minimum", ""},
	    {"{\"maximum\":-1.5}", "-1.4", "maximum", ""},
	    {"{\"maximum\":-1.5}", "-1.6", NULL, NULL},
	    {"{\"maximum\":-1.5}", "-15e-1", NULL, NULL},
	    {"{\"exclusiveMinimum\":1e-3}", "0.001", "exclusiveMinimum", ""},
	    {"{\"exclusiveMinimum\":1e-3}", "0.0011", NULL, NULL},
	    {"{\"maximum\":100}", "100.5", "maximum", ""},
	    {"{\"maximum\":100}", "99.99999", NULL, NULL},
	    {"{\"maximum\":0}", "0.0", NULL, NULL},
	    {"{\"minimum\":1e300}", "1e299", "minimum", ""},
	    {"{\"minimum\":1e300}", "10e299", NULL, NULL},
	    {"{\"maximum\":123456789012345678.5}", "123456789012345678.6",
	        "maximum", ""},
	};

	RUN_VCASES(t);
}
END_TEST

START_TEST(multiple_of_is_exact)
{
	static const struct vcase t[] = {
	    {"{\"multipleOf\":0.01}", "0.07", NULL, NULL},
	    {"{\"multipleOf\":0.01}", "19.99", NULL, NULL},
	    {"{\"multipleOf\":0.01}", "0.015", "multipleOf", ""},
	    {"{\"multipleOf\":0.1}", "0.3", NULL, NULL},
	    {"{\"multipleOf\":3}", "9", NULL, NULL},
	    {"{\"multipleOf\":3}", "10", "multipleOf", ""},
	    {"{\"multipleOf\":3}", "1e30", "multipleOf", ""},
	    {"{\"multipleOf\":3}", "3e30", NULL, NULL},
	    {"{\"multipleOf\":3}", "-9", NULL, NULL},
	    {"{\"multipleOf\":1e-30}", "1", NULL, NULL},
	    {"{\"multipleOf\":0.5}", "123456789012345678901234567890.5", NULL,
	        NULL},
	    {"{\"multipleOf\":2}", "12345678901234567890123456789",
	        "multipleOf", ""},
	    {"{\"multipleOf\":0.25}", "1.75", NULL, NULL},
	    {"{\"multipleOf\":0.25}", "1.8", "multipleOf", ""},
	    {"{\"multipleOf\":0.25}", "2.5e1", NULL, NULL},
	    {"{\"multipleOf\":0.25}", "1e300", NULL, NULL},
	    {"{\"multipleOf\":0.25}", "-0.0", NULL, NULL},
	    {"{\"multipleOf\":7e-3}", "0.014", NULL, NULL},
	    {"{\"multipleOf\":7e-3}", "0.0141", "multipleOf", ""},
	    {"{\"multipleOf\":1.5}", "4.5", NULL, NULL},
	    {"{\"multipleOf\":1.5}", "-4", "multipleOf", ""},
	    {"{\"multipleOf\":3}", "0.3e1", NULL, NULL},
	    {"{\"multipleOf\":0.000000000000000000001}", "1.5", NULL, NULL},
	    {"{\"multipleOf\":3}", "1e399", "multipleOf", ""},
	    {"{\"multipleOf\":3}", "3e399", NULL, NULL},
	    {"{\"multipleOf\":7}", "7000000000000000000000000000001",
	        "multipleOf", ""},
	    {"{\"multipleOf\":1e-400}", "1", NULL, NULL},
	};

	RUN_VCASES(t);
}
END_TEST

START_TEST(numbers_out_of_range_fail_closed_on_numeric_keywords_only)
{
	static const char *const schemas[] = {
	    "{\"minimum\":0}",
	    "{\"not\":{\"minimum\":0}}",
	    "{\"type\":\"integer\"}",
	    "{\"multipleOf\":2}",
	    "{\"anyOf\":[{\"maximum\":0},{\"type\":\"string\"}]}",
	};
	struct schema_err err;
	size_t i;

	for (i = 0; i < GPT_ARRAY_LEN(schemas); i++) {
		ck_assert_msg(run_validate(schemas[i], "1e9999999999999",
		                  &err) == SCHEMA_LIMIT,
		    "1e9999999999999 against %s is not a limit", schemas[i]);
		ck_assert_ptr_nonnull(err.keyword);
	}
	expect_valid(
	    "{\"type\":\"number\",\"maxLength\":1}", "1e9999999999999");
}
END_TEST

START_TEST(string_lengths_count_code_points)
{
	static const struct vcase t[] = {
	    {"{\"minLength\":2}", "\"\xc3\xa9\"", "minLength", ""},
	    {"{\"minLength\":2}", "\"\xc3\xa9\xc3\xa9\"", NULL, NULL},
	    {"{\"maxLength\":2}", "\"\xc3\xa9\xc3\xa9\xc3\xa9\"", "maxLength",
	        ""},
	    {"{\"maxLength\":2}", "\"\\ud83d\\ude00\\ud83d\\ude00\"", NULL,
	        NULL},
	    {"{\"maxLength\":1}", "\"\\u0000\"", NULL, NULL},
	    {"{\"minLength\":2.0}", "\"ab\"", NULL, NULL},
	    {"{\"maxLength\":0}", "\"\"", NULL, NULL},
	    {"{\"maxLength\":0}", "0", NULL, NULL},
	    {"{\"maxLength\":1e400}", "\"abc\"", NULL, NULL},
	    {"{\"minLength\":1e400}", "\"abc\"", "minLength", ""},
	};

	RUN_VCASES(t);
}
END_TEST

START_TEST(pattern_searches_unanchored)
{
	static const struct vcase t[] = {
	    {"{\"pattern\":\"^a+$\"}", "\"aaa\"", NULL, NULL},
	    {"{\"pattern\":\"^a+$\"}", "\"ab\"", "pattern", ""},
	    {"{\"pattern\":\"b\"}", "\"abc\"", NULL, NULL},
	    {"{\"pattern\":\"^.$\"}", "\"\xc3\xa9\"", NULL, NULL},
	    {"{\"pattern\":\"x\"}", "5", NULL, NULL},
	    {"{\"items\":{\"pattern\":\"^[0-9]+$\"}}", "[\"1\",\"2a\"]",
	        "pattern", "/1"},
	};

	RUN_VCASES(t);
}
END_TEST

START_TEST(array_keywords_follow_2020_12)
{
	static const struct vcase t[] = {
	    {"{\"minItems\":2}", "[1]", "minItems", ""},
	    {"{\"minItems\":2}", "[1,2]", NULL, NULL},
	    {"{\"maxItems\":1}", "[1,2]", "maxItems", ""},
	    {"{\"items\":{\"type\":\"integer\"}}", "[1,2,\"x\"]", "type", "/2"},
	    {"{\"items\":{\"type\":\"integer\"}}", "{\"a\":\"x\"}", NULL, NULL},
	    {"{\"prefixItems\":[{\"type\":\"string\"},{\"type\":"
	     "\"integer\"}],\"items\":false}",
	        "[\"a\",1]", NULL, NULL},
	    {"{\"prefixItems\":[{\"type\":\"string\"},{\"type\":"
	     "\"integer\"}],\"items\":false}",
	        "[\"a\",1,2]", "items", "/2"},
	    {"{\"prefixItems\":[{\"type\":\"string\"},{\"type\":"
	     "\"integer\"}],\"items\":false}",
	        "[1]", "type", "/0"},
	    {"{\"prefixItems\":[{\"type\":\"string\"},{\"type\":"
	     "\"integer\"}],\"items\":false}",
	        "[]", NULL, NULL},
	    {"{\"prefixItems\":[{\"type\":\"string\"}]}", "[\"a\",5]", NULL,
	        NULL},
	    {"{\"prefixItems\":[false]}", "[1]", "prefixItems", "/0"},
	    {"{\"items\":false}", "[]", NULL, NULL},
	    {"{\"contains\":{\"const\":1}}", "[2,1]", NULL, NULL},
	    {"{\"contains\":{\"const\":1}}", "[2]", "contains", ""},
	    {"{\"contains\":{\"const\":1}}", "[]", "contains", ""},
	    {"{\"contains\":{\"const\":1}}", "{}", NULL, NULL},
	    {"{\"contains\":{\"const\":1},\"minContains\":2}", "[1,1.0]", NULL,
	        NULL},
	    {"{\"contains\":{\"const\":1},\"minContains\":2}", "[1,2]",
	        "minContains", ""},
	    {"{\"contains\":{\"const\":1},\"maxContains\":1}", "[1,1]",
	        "maxContains", ""},
	    {"{\"contains\":{\"const\":1},\"maxContains\":1}", "[1,2]", NULL,
	        NULL},
	    {"{\"contains\":{\"const\":1},\"minContains\":0}", "[]", NULL,
	        NULL},
	    {"{\"contains\":{\"const\":1},\"minContains\":0}", "[2]", NULL,
	        NULL},
	    {"{\"contains\":{\"const\":1},\"minContains\":0,"
	     "\"maxContains\":0}",
	        "[1]", "maxContains", ""},
	    {"{\"minContains\":2}", "[]", NULL, NULL},
	    {"{\"uniqueItems\":true}", "[1,2,1.0]", "uniqueItems", ""},
	    {"{\"uniqueItems\":true}", "[{\"a\":1,\"b\":2},{\"b\":2,\"a\":1}]",
	        "uniqueItems", ""},
	    {"{\"uniqueItems\":true}", "[1,\"1\",true,[1],{\"1\":1}]", NULL,
	        NULL},
	    {"{\"uniqueItems\":true}", "[[1],[1.0]]", "uniqueItems", ""},
	    {"{\"uniqueItems\":true}", "[0,false,null,\"\"]", NULL, NULL},
	    {"{\"uniqueItems\":true}", "[null,null]", "uniqueItems", ""},
	    {"{\"uniqueItems\":false}", "[1,1]", NULL, NULL},
	};

	RUN_VCASES(t);
}
END_TEST

/* A long array: [0, 1, ..., n-1] plus, when dup, a repeat of 0 as 0.0. */
static char *
long_array(size_t n, bool dup)
{
	char *s = malloc(n * 12 + 16), *p = s;
	size_t i;

	ck_assert_ptr_nonnull(s);
	*p++ = '[';
	for (i = 0; i < n; i++)
		p += sprintf(p, "%s%zu", i > 0 ? "," : "", i);
	if (dup)
		p += sprintf(p, ",0.0");
	*p++ = ']';
	*p = '\0';
	return s;
}

START_TEST(unique_items_on_long_arrays_is_hashed)
{
	char *ok = long_array(100000, false), *bad = long_array(100000, true);

	expect_valid("{\"uniqueItems\":true}", ok);
	expect_invalid("{\"uniqueItems\":true}", bad, "uniqueItems", "");
	free(ok);
	free(bad);
}
END_TEST

/* --- $dynamicRef against many dynamic anchors, probes counted --------- */

/* schema_anchor.c, built into this test with -DGPT_TEST. */
extern uint64_t schema_test_anchor_probes;

#define DYN_ANCHORS 20000
#define DYN_ITEMS 2000

/*
 * Each $dynamicRef finds its target in the index of each resource of the
 * dynamic scope: a slot or two, whatever the number of dynamic anchors.
 * The scan it replaces compared the name with every dynamic anchor of the
 * resource (charged one step), so a 1 MiB act against 50,000 dynamic
 * anchors took 92 s; here 2,000 items against 20,000 anchors would have
 * been 40 million comparisons.
 */
START_TEST(dynamic_ref_looks_up_its_anchor_in_constant_work)
{
	struct arena form, req;
	struct buf b;
	char piece[96];
	const struct schema *s;
	struct schema_err err;
	char *text, *items;
	size_t i;

	buf_init(&b, (size_t)64 << 20);
	ck_assert_int_eq(buf_puts(&b, "{\"$defs\":{"), 0);
	for (i = 0; i < DYN_ANCHORS; i++) {
		snprintf(piece, sizeof(piece),
		    "%s\"d%zu\":{\"$dynamicAnchor\":\"a%zu\","
		    "\"type\":\"integer\"}",
		    i > 0 ? "," : "", i, i);
		ck_assert_int_eq(buf_puts(&b, piece), 0);
	}
	/* the first declared: the last of a scan in declaration order, or
	 * the first of one in reverse */
	ck_assert_int_eq(buf_puts(&b, "},\"type\":\"array\",\"items\":"
	                              "{\"$dynamicRef\":\"#a0\"}}"),
	    0);
	text = buf_take(&b, NULL);
	buf_init(&b, (size_t)64 << 20);
	ck_assert_int_eq(buf_puts(&b, "["), 0);
	for (i = 0; i < DYN_ITEMS; i++)
		ck_assert_int_eq(buf_puts(&b, i > 0 ? ",1" : "1"), 0);
	ck_assert_int_eq(buf_puts(&b, "]"), 0);
	items = buf_take(&b, NULL);

	arena_init(&form, (size_t)256 << 20);
	arena_init(&req, (size_t)64 << 20);
	s = compile_text(&form, text, NULL);
	schema_test_anchor_probes = 0;
	ck_assert_int_eq(
	    schema_validate(s, parse_text(&req, items), &req, &err), SCHEMA_OK);
	/* a keyed table with an unaimable key: a lookup's probes vary
	 * with the process's key, but stay a small constant, never a
	 * function of the 20,000 anchors */
	ck_assert_msg(schema_test_anchor_probes <= 32 * DYN_ITEMS,
	    "%d $dynamicRef evaluations looked at %llu slots", DYN_ITEMS,
	    (unsigned long long)schema_test_anchor_probes);
	arena_free(&req);
	arena_free(&form);
	expect_invalid(text, "[1,\"x\"]", "type", "/1");
	free(items);
	free(text);
}
END_TEST

/* --- floods: uniqueItems and enum, probes counted ----------------------- */

#define FLOOD_ITEMS 4096
#define FLOOD_LEN 8

/* A JSON array of count strings of len bytes at names, then extra (JSON
 * text of more items, or ""). */
static char *
string_array(const char *names, size_t count, size_t len, const char *extra)
{
	size_t cap = count * (len + 3) + strlen(extra) + 4, o = 0, i;
	char *s = malloc(cap);

	ck_assert_ptr_nonnull(s);
	s[o++] = '[';
	for (i = 0; i < count; i++)
		o += (size_t)snprintf(s + o, cap - o, "%s\"%.*s\"",
		    i ? "," : "", (int)len, names + i * len);
	o += (size_t)snprintf(s + o, cap - o, "%s]", extra);
	return s;
}

START_TEST(strings_colliding_under_the_old_hash_cost_linear_unique_probes)
{
	/* 4096 strings in the first 16 slots of uniqueItems' 2^13-slot
	 * table under the old unkeyed json_hash: 8 million probes before */
	char *names =
	    flood_names(flood_old_string_hash, 4, 13, FLOOD_ITEMS, FLOOD_LEN);
	char *ok, *bad, dup[32];
	struct schema_err err;

	ck_assert_ptr_nonnull(names);
	ok = string_array(names, FLOOD_ITEMS, FLOOD_LEN, "");
	snprintf(dup, sizeof(dup), ",\"%.*s\"", FLOOD_LEN, names);
	bad = string_array(names, FLOOD_ITEMS, FLOOD_LEN, dup);
	schema_test_probes = 0;
	expect_valid("{\"uniqueItems\":true}", ok);
	ck_assert_msg(schema_test_probes <= 4 * FLOOD_ITEMS,
	    "%llu probes for %d items", (unsigned long long)schema_test_probes,
	    FLOOD_ITEMS);
	ck_assert_int_eq(
	    run_validate("{\"uniqueItems\":true}", bad, &err), SCHEMA_INVALID);
	ck_assert_str_eq(err.reason, "items 0 and 4096 are equal");
	free(ok);
	free(bad);
	free(names);
}
END_TEST

/* A hash an attacker knows completely: every item one slot. */
static uint64_t
one_slot(const struct json_value *v)
{
	(void)v;
	return 7;
}

START_TEST(unique_items_sorts_when_every_item_takes_one_slot)
{
	static const char *const arrays[] = {
	    /* no two equal */
	    "[0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,\"0\",[0],{\"0\":0},"
	    "null,true,false,1e400,0.5,{\"a\":1,\"b\":2},[1,2],[2,1]]",
	    /* 1.0 equals 1; 2e0 (later) equals 2 */
	    "[0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,2e0,1.0]",
	    /* objects equal in any member order, -0 equal to 0 */
	    "[{\"a\":1,\"b\":[2]},1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,"
	    "-0.0,{\"b\":[2.0],\"a\":1}]",
	    "[null,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,\"x\",\"x\",null]",
	};
	char *names = flood_names(NULL, 0, 0, FLOOD_ITEMS, FLOOD_LEN);
	char *big, hashed[SCHEMA_REASON_MAX], sorted[SCHEMA_REASON_MAX];
	enum schema_result r1, r2;
	struct schema_err err;
	size_t i;

	for (i = 0; i < GPT_ARRAY_LEN(arrays); i++) {
		r1 = run_validate("{\"uniqueItems\":true}", arrays[i], &err);
		snprintf(hashed, sizeof(hashed), "%s", err.reason);
		schema_test_item_hash = one_slot;
		r2 = run_validate("{\"uniqueItems\":true}", arrays[i], &err);
		schema_test_item_hash = NULL;
		snprintf(sorted, sizeof(sorted), "%s", err.reason);
		ck_assert_int_eq(r1, r2);
		ck_assert_msg(strcmp(hashed, sorted) == 0, "%s: %s against %s",
		    arrays[i], hashed, sorted);
	}
	ck_assert_ptr_nonnull(names);
	big = string_array(names, FLOOD_ITEMS, FLOOD_LEN, ",\"00000000\"");
	schema_test_item_hash = one_slot;
	schema_test_probes = 0;
	ck_assert_int_eq(
	    run_validate("{\"uniqueItems\":true}", big, &err), SCHEMA_INVALID);
	schema_test_item_hash = NULL;
	ck_assert_str_eq(err.reason, "items 0 and 4096 are equal");
	/* 128 probes, then a sort: n log2 n comparisons and one pass */
	ck_assert_msg(
	    schema_test_probes <= 128 * 129 + (uint64_t)FLOOD_ITEMS * (13 + 3),
	    "%llu probes", (unsigned long long)schema_test_probes);
	free(big);
	free(names);
}
END_TEST

START_TEST(a_long_numeric_enum_is_a_table_not_a_scan)
{
	static const char *const hits[] = {"0", "19999", "12345.0", "1e4"};
	static const char *const misses[] = {"20000", "0.5", "\"5\"", "[]"};
	size_t cap = 20000 * 7 + 16, o = 0, i;
	char *schema = malloc(cap);

	ck_assert_ptr_nonnull(schema);
	o += (size_t)snprintf(schema, cap, "{\"enum\":[");
	for (i = 0; i < 20000; i++)
		o += (size_t)snprintf(
		    schema + o, cap - o, "%s%zu", i ? "," : "", i);
	snprintf(schema + o, cap - o, "]}");
	schema_test_probes = 0;
	for (i = 0; i < GPT_ARRAY_LEN(hits); i++)
		expect_valid(schema, hits[i]);
	for (i = 0; i < GPT_ARRAY_LEN(misses); i++)
		expect_invalid(schema, misses[i], "enum", "");
	/* a scan would look at up to 20,000 entries per value */
	ck_assert_msg(schema_test_probes <= 8 * 64, "%llu probes",
	    (unsigned long long)schema_test_probes);
	free(schema);
}
END_TEST

START_TEST(object_keywords_follow_2020_12)
{
	static const struct vcase t[] = {
	    {"{\"properties\":{\"a\":{\"type\":\"string\"}}}",
	        "{\"a\":\"x\",\"b\":1}", NULL, NULL},
	    {"{\"properties\":{\"a\":{\"type\":\"string\"}}}", "{\"a\":1}",
	        "type", "/a"},
	    {"{\"properties\":{\"a\":{\"type\":\"string\"}}}", "[1]", NULL,
	        NULL},
	    {"{\"required\":[\"a\",\"b\"]}", "{\"a\":1}", "required", ""},
	    {"{\"required\":[\"a\",\"b\"]}", "{\"b\":1,\"a\":1}", NULL, NULL},
	    {"{\"required\":[\"a\"]}", "[]", NULL, NULL},
	    {"{\"required\":[\"\"]}", "{\"\":0}", NULL, NULL},
	    {"{\"required\":[\"a\\u0000b\"]}", "{\"a\":0}", "required", ""},
	    {"{\"required\":[\"a\\u0000b\"]}", "{\"a\\u0000b\":0}", NULL, NULL},
	    {"{\"properties\":{\"a\":true},\"additionalProperties\":false}",
	        "{\"a\":1}", NULL, NULL},
	    {"{\"properties\":{\"a\":true},\"additionalProperties\":false}",
	        "{\"a\":1,\"b\":1}", "additionalProperties", "/b"},
	    {"{\"additionalProperties\":{\"type\":\"integer\"}}",
	        "{\"a\":1,\"b\":\"x\"}", "type", "/b"},
	    {"{\"patternProperties\":{\"^x-\":{\"type\":\"integer\"}},"
	     "\"additionalProperties\":false}",
	        "{\"x-a\":1}", NULL, NULL},
	    {"{\"patternProperties\":{\"^x-\":{\"type\":\"integer\"}},"
	     "\"additionalProperties\":false}",
	        "{\"x-a\":\"s\"}", "type", "/x-a"},
	    {"{\"patternProperties\":{\"^x-\":{\"type\":\"integer\"}},"
	     "\"additionalProperties\":false}",
	        "{\"x-a\":1,\"y\":1}", "additionalProperties", "/y"},
	    {"{\"properties\":{\"a\":{\"minimum\":0}},"
	     "\"patternProperties\":{\"a\":{\"maximum\":10}}}",
	        "{\"a\":11}", "maximum", "/a"},
	    {"{\"properties\":{\"a\":{\"minimum\":0}},"
	     "\"patternProperties\":{\"a\":{\"maximum\":10}}}",
	        "{\"a\":5}", NULL, NULL},
	    {"{\"propertyNames\":{\"maxLength\":3}}", "{\"abcd\":1}",
	        "maxLength", "/abcd"},
	    {"{\"propertyNames\":{\"maxLength\":3}}", "{\"abc\":1}", NULL,
	        NULL},
	    {"{\"propertyNames\":false}", "{}", NULL, NULL},
	    {"{\"propertyNames\":false}", "{\"a\":1}", "propertyNames", "/a"},
	    {"{\"minProperties\":1}", "{}", "minProperties", ""},
	    {"{\"maxProperties\":1}", "{\"a\":1,\"b\":2}", "maxProperties", ""},
	    {"{\"dependentRequired\":{\"a\":[\"b\",\"c\"]}}",
	        "{\"a\":1,\"b\":1}", "dependentRequired", ""},
	    {"{\"dependentRequired\":{\"a\":[\"b\",\"c\"]}}", "{\"b\":1}", NULL,
	        NULL},
	    {"{\"dependentRequired\":{\"a\":[\"b\",\"c\"]}}",
	        "{\"a\":1,\"b\":1,\"c\":1}", NULL, NULL},
	    {"{\"properties\":{\"a/b\":{\"type\":\"string\"},"
	     "\"m~n\":{\"type\":\"string\"}}}",
	        "{\"a/b\":1}", "type", "/a~1b"},
	    {"{\"properties\":{\"a/b\":{\"type\":\"string\"},"
	     "\"m~n\":{\"type\":\"string\"}}}",
	        "{\"m~n\":1}", "type", "/m~0n"},
	    {"{\"properties\":{\"a\":{\"items\":{\"required\":[\"x\"]}}}}",
	        "{\"a\":[{\"x\":1},{}]}", "required", "/a/1"},
	};

	RUN_VCASES(t);
}
END_TEST

/* Forms that name more members than fit in the stack bitmap. */
START_TEST(required_works_past_the_stack_bitmap)
{
	char schema[16384], inst[16384], *p = schema, *q = inst;
	int i;

	p += sprintf(p, "{\"required\":[");
	q += sprintf(q, "{");
	for (i = 0; i < 300; i++) {
		p += sprintf(p, "%s\"k%d\"", i ? "," : "", i);
		if (i != 299)
			q += sprintf(q, "%s\"k%d\":%d", i ? "," : "", i, i);
	}
	sprintf(p, "]}");
	sprintf(q, "}");
	expect_invalid(schema, inst, "required", "");
	sprintf(q - 1, ",\"k299\":0}");
	expect_valid(schema, inst);
}
END_TEST

START_TEST(applicators_combine_per_2020_12)
{
	static const struct vcase t[] = {
	    {"{\"allOf\":[{\"type\":\"integer\"},{\"minimum\":2}]}", "1",
	        "minimum", ""},
	    {"{\"allOf\":[{\"type\":\"integer\"},{\"minimum\":2}]}", "2", NULL,
	        NULL},
	    {"{\"anyOf\":[{\"type\":\"string\"},{\"minimum\":2}]}", "1",
	        "anyOf", ""},
	    {"{\"anyOf\":[{\"type\":\"string\"},{\"minimum\":2}]}", "\"x\"",
	        NULL, NULL},
	    {"{\"anyOf\":[{\"type\":\"string\"},{\"minimum\":2}]}", "3", NULL,
	        NULL},
	    {"{\"oneOf\":[{\"type\":\"integer\"},{\"minimum\":2}]}", "3",
	        "oneOf", ""},
	    {"{\"oneOf\":[{\"type\":\"integer\"},{\"minimum\":2}]}", "1", NULL,
	        NULL},
	    {"{\"oneOf\":[{\"type\":\"integer\"},{\"minimum\":2}]}", "2.5",
	        NULL, NULL},
	    {"{\"oneOf\":[{\"type\":\"integer\"},{\"minimum\":2}]}", "1.5",
	        "oneOf", ""},
	/* discriminated objects: the plan proves them disjoint, so the
	 * first branch that passes settles it; a value that is not an
	 * object passes both untyped branches */
#define DISC_A "{\"required\":[\"k\"],\"properties\":{\"k\":{\"const\":\"a\"}}}"
#define DISC_B "{\"required\":[\"k\"],\"properties\":{\"k\":{\"const\":\"b\"}}}"
	    {"{\"type\":\"object\",\"oneOf\":[" DISC_A "," DISC_B "]}",
	        "{\"k\":\"a\"}", NULL, NULL},
	    {"{\"type\":\"object\",\"oneOf\":[" DISC_A "," DISC_B "]}",
	        "{\"k\":\"b\"}", NULL, NULL},
	    {"{\"type\":\"object\",\"oneOf\":[" DISC_A "," DISC_B "]}",
	        "{\"k\":\"c\"}", "oneOf", ""},
	    {"{\"oneOf\":[" DISC_A "," DISC_B "]}", "5", "oneOf", ""},
	    {"{\"oneOf\":[" DISC_A "," DISC_B "]}", "{\"k\":\"a\"}", NULL,
	        NULL},
	    /* what the branch that passed evaluated, and only it */
	    {"{\"type\":\"object\",\"oneOf\":[{\"required\":[\"k\"],"
	     "\"properties\":{\"k\":{\"const\":\"a\"},\"x\":true}}," DISC_B
	     "],\"unevaluatedProperties\":false}",
	        "{\"k\":\"a\",\"x\":1}", NULL, NULL},
	    {"{\"type\":\"object\",\"oneOf\":[{\"required\":[\"k\"],"
	     "\"properties\":{\"k\":{\"const\":\"a\"},\"x\":true}}," DISC_B
	     "],\"unevaluatedProperties\":false}",
	        "{\"k\":\"b\",\"x\":1}", "unevaluatedProperties", "/x"},
	/* gates: a branch whose required member has another value is
	 * not applied, one with the value is (and may still fail) */
#define GATED                                                                  \
	"{\"anyOf\":[{\"required\":[\"op\"],\"properties\":"                   \
	"{\"op\":{\"const\":\"a\"},\"x\":{\"type\":\"integer\"}}},"            \
	"{\"required\":[\"op\"],\"properties\":{\"op\":"                       \
	"{\"enum\":[\"b\",1]}}}]}"
	    {GATED, "{\"op\":\"a\",\"x\":1}", NULL, NULL},
	    {GATED, "{\"op\":\"a\",\"x\":\"s\"}", "anyOf", ""},
	    {GATED, "{\"op\":\"b\",\"x\":\"s\"}", NULL, NULL},
	    {GATED, "{\"op\":1.0}", NULL, NULL},
	    {GATED, "{\"op\":\"c\"}", "anyOf", ""},
	    {GATED, "{}", "anyOf", ""},
	    {GATED, "5", NULL, NULL},
#undef GATED
	/* through a $ref to a oneOf of its own, and a branch with none */
#define OP_IS "{\"required\":[\"op\"],\"properties\":{\"op\":{\"const\":"
#define OP(c) OP_IS "\"" c "\"}}}"
#define CMP "{\"oneOf\":[" OP("a") "," OP("b") "]}"
#define AND OP("and")
#define NESTED                                                                 \
	"{\"oneOf\":[{\"$ref\":\"#/$defs/cmp\"}," AND                          \
	",{\"required\":[\"fn\"]}],\"$defs\":{\"cmp\":" CMP "}}"
	    {NESTED, "{\"op\":\"and\"}", NULL, NULL},
	    {NESTED, "{\"op\":\"b\"}", NULL, NULL},
	    {NESTED, "{\"op\":\"x\"}", "oneOf", ""},
	    {NESTED, "{\"op\":\"and\",\"fn\":1}", "oneOf", ""},
	    {NESTED, "{\"fn\":1}", NULL, NULL},
#undef NESTED
#undef CMP
#undef AND
#undef OP
#undef OP_IS
#undef DISC_A
#undef DISC_B
	    {"{\"not\":{\"type\":\"string\"}}", "\"a\"", "not", ""},
	    {"{\"not\":{\"type\":\"string\"}}", "1", NULL, NULL},
	    {"{\"if\":{\"type\":\"integer\"},\"then\":{\"minimum\":0},"
	     "\"else\":{\"type\":\"string\"}}",
	        "-1", "minimum", ""},
	    {"{\"if\":{\"type\":\"integer\"},\"then\":{\"minimum\":0},"
	     "\"else\":{\"type\":\"string\"}}",
	        "1", NULL, NULL},
	    {"{\"if\":{\"type\":\"integer\"},\"then\":{\"minimum\":0},"
	     "\"else\":{\"type\":\"string\"}}",
	        "\"a\"", NULL, NULL},
	    {"{\"if\":{\"type\":\"integer\"},\"then\":{\"minimum\":0},"
	     "\"else\":{\"type\":\"string\"}}",
	        "1.5", "type", ""},
	    {"{\"if\":{\"const\":1},\"then\":false}", "1", "then", ""},
	    {"{\"then\":{\"type\":\"string\"}}", "1", NULL, NULL},
	    {"{\"else\":false}", "1", NULL, NULL},
	    {"{\"if\":{\"const\":1}}", "2", NULL, NULL},
	    {"true", "{\"a\":[1]}", NULL, NULL},
	    {"{}", "null", NULL, NULL},
	    {"false", "null", "false", ""},
	    {"{\"not\":true}", "1", "not", ""},
	    {"{\"not\":false}", "1", NULL, NULL},
	    {"{\"anyOf\":[false,{\"required\":[\"a\"]}]}", "{}", "anyOf", ""},
	    {"{\"properties\":{\"a\":{\"allOf\":[true,false]}}}", "{\"a\":1}",
	        "allOf", "/a"},
	};

	RUN_VCASES(t);
}
END_TEST

START_TEST(shortcuts_give_the_answers_and_reports_of_the_full_walk)
{
	/* The compiler's shortcuts skip applying a subschema only where it
	 * would accept; anything else reports as the full walk does. */
	static const char text_or_span[] =
	    "{\"items\":{\"anyOf\":[{\"$ref\":\"#/$defs/text\"},"
	    "{\"$ref\":\"#/$defs/span\"}]},\"$defs\":{"
	    "\"text\":{\"type\":\"string\",\"maxLength\":3},"
	    "\"span\":{\"type\":\"object\",\"required\":[\"s\"],"
	    "\"properties\":{\"s\":{\"enum\":[\"b\",\"i\",\"u\",\"em\"]}}}}}";
	static const struct vcase t[] = {
	    {text_or_span, "[\"abc\",\"\",{\"s\":\"em\"}]", NULL, NULL},
	    {text_or_span, "[\"abc\",\"abcd\"]", "anyOf", "/1"},
	    {text_or_span, "[{\"s\":\"x\"}]", "anyOf", "/0"},
	    {text_or_span, "[{}]", "anyOf", "/0"},
	    {text_or_span, "[1]", "anyOf", "/0"},
	    {"{\"properties\":{\"s\":{\"enum\":[\"b\",\"i\",\"u\",\"em\"]}}}",
	        "{\"s\":\"x\"}", "enum", "/s"},
	    {"{\"properties\":{\"s\":{\"type\":\"string\",\"enum\":[\"b\","
	     "\"i\",\"u\",\"em\"]}}}",
	        "{\"s\":1}", "type", "/s"},
	    {"{\"allOf\":[{\"maxLength\":3},{\"minLength\":2}]}", "\"a\"",
	        "minLength", ""},
	    {"{\"allOf\":[{\"maxLength\":3},{\"minLength\":2}]}", "\"abcd\"",
	        "maxLength", ""},
	    {"{\"allOf\":[{\"maxLength\":3},{\"minLength\":2}]}", "\"ab\"",
	        NULL, NULL},
	    {"{\"$ref\":\"#/$defs/t\",\"minLength\":2,\"$defs\":{\"t\":"
	     "{\"maxLength\":3}}}",
	        "\"a\"", "minLength", ""},
	    {"{\"$ref\":\"#/$defs/t\",\"minLength\":2,\"$defs\":{\"t\":"
	     "{\"maxLength\":3}}}",
	        "\"abcd\"", "maxLength", ""},
	    {"{\"anyOf\":[{\"type\":\"string\",\"pattern\":\"^a\"},"
	     "{\"maxLength\":2}]}",
	        "\"bc\"", NULL, NULL},
	    {"{\"anyOf\":[{\"type\":\"string\",\"pattern\":\"^a\"},"
	     "{\"maxLength\":2}]}",
	        "\"bcd\"", "anyOf", ""},
	    {"{\"anyOf\":[false,{\"type\":\"string\"}]}", "\"x\"", NULL, NULL},
	    {"{\"anyOf\":[false,{\"type\":\"string\"}]}", "1", "anyOf", ""},
	    {"{\"oneOf\":[{\"type\":\"string\"},{\"maxLength\":3}]}", "\"ab\"",
	        "oneOf", ""},
	    {"{\"oneOf\":[{\"type\":\"string\"},{\"maxLength\":3}]}", "1", NULL,
	        NULL},
	    {"{\"anyOf\":[{\"type\":\"integer\"},{\"type\":\"string\"}]}",
	        "2.0", NULL, NULL},
	    {"{\"anyOf\":[{\"type\":\"integer\"},{\"type\":\"string\"}]}",
	        "2.5", "anyOf", ""},
	    {"{\"propertyNames\":{\"maxLength\":2}}", "{\"ab\":1}", NULL, NULL},
	    {"{\"propertyNames\":{\"maxLength\":2}}", "{\"ab\":1,\"abc\":2}",
	        "maxLength", "/abc"},
	    {"{\"items\":{\"maxLength\":1}}", "[1,\"\\u00e9\",\"ab\"]",
	        "maxLength", "/2"},
	    /* integers within int64 bounds */
	    {"{\"items\":{\"type\":\"integer\",\"minimum\":0,\"maximum\":"
	     "10}}",
	        "[0,10,5.0,-0]", NULL, NULL},
	    {"{\"items\":{\"type\":\"integer\",\"minimum\":0,\"maximum\":"
	     "10}}",
	        "[0,-1]", "minimum", "/1"},
	    {"{\"items\":{\"type\":\"integer\",\"minimum\":0,\"maximum\":"
	     "10}}",
	        "[11]", "maximum", "/0"},
	    {"{\"items\":{\"type\":\"integer\",\"minimum\":0,\"maximum\":"
	     "10}}",
	        "[1.5]", "type", "/0"},
	    {"{\"items\":{\"exclusiveMinimum\":0,\"exclusiveMaximum\":3}}",
	        "[1,2]", NULL, NULL},
	    {"{\"items\":{\"exclusiveMinimum\":0,\"exclusiveMaximum\":3}}",
	        "[1,0]", "exclusiveMinimum", "/1"},
	    {"{\"items\":{\"exclusiveMinimum\":0,\"exclusiveMaximum\":3}}",
	        "[3]", "exclusiveMaximum", "/0"},
	    {"{\"items\":{\"type\":\"integer\",\"minimum\":0.5}}", "[0]",
	        "minimum", "/0"},
	    {"{\"items\":{\"type\":\"string\",\"minimum\":0}}", "[1]", "type",
	        "/0"},
	    {"{\"items\":{\"type\":\"integer\"}}",
	        "[-9223372036854775808,9223372036854775807]", NULL, NULL},
	    {"{\"items\":{\"maximum\":9223372036854775807}}",
	        "[9223372036854775807,9223372036854775808]", "maximum", "/1"},
	    {"{\"items\":{\"exclusiveMaximum\":-9223372036854775808}}",
	        "[-9223372036854775808]", "exclusiveMaximum", "/0"},
	    {"{\"items\":{\"type\":\"integer\",\"format\":\"int32\"}}",
	        "[2147483647,-2147483648,1.0]", NULL, NULL},
	    {"{\"items\":{\"type\":\"integer\",\"format\":\"int32\"}}",
	        "[0,2147483648]", "format", "/1"},
	    {"{\"items\":{\"format\":\"float\",\"maximum\":1e40}}",
	        "[-9223372036854775808,1.5,1e39]", "format", "/2"},
	    {"{\"items\":{\"format\":\"float\",\"maximum\":5}}", "[6]",
	        "maximum", "/0"},
	    {"{\"items\":{\"type\":\"string\",\"format\":\"date\"}}",
	        "[\"2024-02-29\",1]", "type", "/1"},
	    {"{\"items\":{\"type\":\"string\",\"format\":\"date\"}}",
	        "[\"2024-02-29\",\"2023-02-29\"]", "format", "/1"},
	    {"{\"$schema\":\"http://json-schema.org/draft-04/schema#\","
	     "\"items\":{\"maximum\":3,\"exclusiveMaximum\":true}}",
	        "[2,3]", "exclusiveMaximum", "/1"},
	};

	RUN_VCASES(t);
}
END_TEST

/* An OpenAPI 3.1 component: a shared Resource composed by allOf and
 * closed by unevaluatedProperties. */
static const char composed[] =
    "{\"$defs\":{\"R\":{\"type\":\"object\",\"required\":[\"id\"],"
    "\"properties\":{\"id\":{\"type\":\"string\"},\"tags\":{\"type\":"
    "\"object\"}}},\"C\":{\"allOf\":[{\"$ref\":\"#/$defs/R\"},"
    "{\"required\":[\"n\"],\"properties\":{\"n\":{\"type\":\"integer\"},"
    "\"kid\":{\"$ref\":\"#/$defs/C\"}}}],\"unevaluatedProperties\":false}},"
    "\"$ref\":\"#/$defs/C\"}";

START_TEST(unevaluated_properties_decided_at_load_report_as_collected)
{
	/* What $ref and allOf evaluate is known at load; the answers and
	 * reports stay those of the collecting walk. */
	static const char beside[] =
	    "{\"$defs\":{\"p\":{\"properties\":{\"a\":true}}},\"$ref\":"
	    "\"#/$defs/p\",\"properties\":{\"b\":true},"
	    "\"unevaluatedProperties\":false}";
	static const char own[] =
	    "{\"allOf\":[{\"properties\":{\"a\":true},"
	    "\"unevaluatedProperties\":{\"type\":\"integer\"}}],"
	    "\"unevaluatedProperties\":false}";
	/* C, decided at load, also lies under a collecting anyOf */
	static const char both[] =
	    "{\"$defs\":{\"C\":{\"allOf\":[{\"properties\":{\"a\":true}}],"
	    "\"unevaluatedProperties\":false}},\"anyOf\":[{\"$ref\":"
	    "\"#/$defs/C\"},{\"required\":[\"c\"]}],\"properties\":{\"c\":"
	    "{\"$ref\":\"#/$defs/C\"}},\"unevaluatedProperties\":false}";
	static const struct vcase t[] = {
	    {composed, "{\"id\":\"a\",\"n\":1}", NULL, NULL},
	    {composed, "{\"n\":1,\"tags\":{},\"id\":\"a\"}", NULL, NULL},
	    {composed, "{\"id\":\"a\",\"n\":1,\"x\":2}",
	        "unevaluatedProperties", "/x"},
	    {composed, "{\"x\":2,\"id\":1,\"n\":1}", "type", "/id"},
	    {composed, "{\"x\":2,\"id\":\"a\"}", "required", ""},
	    {composed, "[]", "type", ""},
	    {composed,
	        "{\"id\":\"a\",\"n\":1,\"kid\":{\"id\":\"b\","
	        "\"n\":2,\"tags\":{\"any\":1},\"y\":0}}",
	        "unevaluatedProperties", "/kid/y"},
	    /* required names no property: they evaluate nothing */
	    {"{\"allOf\":[{\"required\":[\"a\"]}],"
	     "\"unevaluatedProperties\":false}",
	        "{\"a\":1}", "unevaluatedProperties", "/a"},
	    {beside, "{\"a\":1,\"b\":2}", NULL, NULL},
	    {beside, "{\"a\":1,\"c\":2}", "unevaluatedProperties", "/c"},
	    /* a branch's own unevaluatedProperties evaluates every member */
	    {own, "{\"a\":1,\"b\":2}", NULL, NULL},
	    {own, "{\"b\":\"x\"}", "type", "/b"},
	    {"{\"properties\":{\"a\":true},"
	     "\"unevaluatedProperties\":{\"type\":\"string\"}}",
	        "{\"a\":1,\"b\":2}", "type", "/b"},
	    {both, "{\"a\":1}", NULL, NULL},
	    {both, "{\"c\":{\"a\":2}}", NULL, NULL},
	    {both, "{\"c\":{\"b\":2}}", "unevaluatedProperties", "/c/b"},
	    {both, "{\"a\":1,\"b\":2}", "anyOf", ""},
	};

	RUN_VCASES(t);
}
END_TEST

START_TEST(composed_objects_are_not_collected)
{
	static const char any[] = "{\"anyOf\":[{\"properties\":{\"a\":true}}],"
	                          "\"unevaluatedProperties\":false}";
	struct schema_err err;

	schema_test_collects = 0;
	ck_assert_int_eq(
	    run_validate(composed,
	        "{\"id\":\"a\",\"n\":1,\"kid\":{\"id\":\"b\",\"n\":2}}", &err),
	    SCHEMA_OK);
	ck_assert_uint_eq(schema_test_collects, 0);
	/* anyOf's evaluation depends on the instance: collected */
	ck_assert_int_eq(run_validate(any, "{\"a\":1}", &err), SCHEMA_OK);
	ck_assert_uint_gt(schema_test_collects, 0);
}
END_TEST

START_TEST(refs_resolve_to_compiled_nodes)
{
	static const struct vcase t[] = {
	    {"{\"$defs\":{\"pos\":{\"minimum\":0}},\"$ref\":\"#/$defs/pos\"}",
	        "-1", "minimum", ""},
	    {"{\"$defs\":{\"pos\":{\"minimum\":0}},\"$ref\":\"#/$defs/pos\"}",
	        "1", NULL, NULL},
	    {"{\"type\":\"object\",\"properties\":{\"a\":{\"$ref\":\"#\"}}}",
	        "{\"a\":{\"a\":1}}", "type", "/a/a"},
	    {"{\"type\":\"object\",\"properties\":{\"a\":{\"$ref\":\"#\"}}}",
	        "{\"a\":{\"a\":{}}}", NULL, NULL},
	    {"{\"$defs\":{\"a/b\":{\"type\":\"string\"},\"c~d\":{\"type\":"
	     "\"integer\"},\"e%f\":{\"type\":\"null\"}},\"properties\":{"
	     "\"x\":{\"$ref\":\"#/$defs/a~1b\"},\"y\":{\"$ref\":\"#/$defs/"
	     "c~0d\"},\"z\":{\"$ref\":\"#/$defs/e%25f\"}}}",
	        "{\"x\":\"s\",\"y\":1,\"z\":null}", NULL, NULL},
	    {"{\"$defs\":{\"a/b\":{\"type\":\"string\"},\"c~d\":{\"type\":"
	     "\"integer\"},\"e%f\":{\"type\":\"null\"}},\"properties\":{"
	     "\"x\":{\"$ref\":\"#/$defs/a~1b\"},\"y\":{\"$ref\":\"#/$defs/"
	     "c~0d\"},\"z\":{\"$ref\":\"#/$defs/e%25f\"}}}",
	        "{\"z\":1}", "type", "/z"},
	    {"{\"$defs\":{\"a/b\":{\"type\":\"string\"},\"c~d\":{\"type\":"
	     "\"integer\"},\"e%f\":{\"type\":\"null\"}},\"properties\":{"
	     "\"x\":{\"$ref\":\"#/$defs/a~1b\"},\"y\":{\"$ref\":\"#/$defs/"
	     "c~0d\"},\"z\":{\"$ref\":\"#/$defs/e%25f\"}}}",
	        "{\"y\":\"s\"}", "type", "/y"},
	    {"{\"$defs\":{\"a\":{\"type\":\"integer\"},\"b\":{\"$ref\":\"#/"
	     "$defs/a\"},\"c\":{\"$ref\":\"#/$defs/b\"}},\"$ref\":\"#/$defs/"
	     "c\"}",
	        "\"x\"", "type", ""},
	    {"{\"$defs\":{\"a\":{\"type\":\"integer\"},\"b\":{\"$ref\":\"#/"
	     "$defs/a\"},\"c\":{\"$ref\":\"#/$defs/b\"}},\"$ref\":\"#/$defs/"
	     "c\"}",
	        "5", NULL, NULL},
	    {"{\"prefixItems\":[{\"type\":\"integer\"},{\"$ref\":\"#/"
	     "prefixItems/0\"}]}",
	        "[1,\"a\"]", "type", "/1"},
	    {"{\"$defs\":{\"f\":false},\"$ref\":\"#/$defs/f\"}", "1", "$ref",
	        ""},
	    {"{\"$defs\":{\"t\":true},\"$ref\":\"#/$defs/t\"}", "1", NULL,
	        NULL},
	    {"{\"$defs\":{\"s\":{\"type\":\"string\"}},\"enum\":[{\"$ref\":"
	     "\"#/$defs/s\"}]}",
	        "\"a\"", "enum", ""},
	    {"{\"$defs\":{\"s\":{\"type\":\"string\"}},\"enum\":[{\"$ref\":"
	     "\"#/$defs/s\"}]}",
	        "{\"$ref\":\"#/$defs/s\"}", NULL, NULL},
	    {"{\"$defs\":{\"\":{\"$defs\":{\"\":{\"type\":\"number\"}}}},"
	     "\"allOf\":[{\"$ref\":\"#/$defs//$defs/\"}]}",
	        "\"a\"", "type", ""},
	    {"{\"$defs\":{\"r\":{\"$ref\":\"#/$defs/s\",\"maxItems\":1},"
	     "\"s\":{\"type\":\"array\"}},\"$ref\":\"#/$defs/r\"}",
	        "[1,2]", "maxItems", ""},
	};

	RUN_VCASES(t);
}
END_TEST

/* A tree whose recursion the instance bounds: every step descends. */
static const char tree_schema[] =
    "{\"$defs\":{\"node\":{\"type\":\"object\",\"required\":[\"v\"],"
    "\"properties\":{\"v\":{\"type\":\"integer\"},\"kids\":{\"type\":"
    "\"array\",\"items\":{\"$ref\":\"#/$defs/node\"}}},"
    "\"additionalProperties\":false}},\"$ref\":\"#/$defs/node\"}";

START_TEST(recursive_forms_validate_trees)
{
	expect_valid(tree_schema, "{\"v\":1}");
	expect_valid(tree_schema,
	    "{\"v\":1,\"kids\":[{\"v\":2},{\"v\":3,\"kids\":[{\"v\":4}]}]}");
	expect_invalid(tree_schema,
	    "{\"v\":1,\"kids\":[{\"v\":2,\"kids\":[{\"v\":3},{}]}]}",
	    "required", "/kids/0/kids/1");
	expect_invalid(tree_schema,
	    "{\"v\":1,\"kids\":[{\"v\":2,\"kids\":[{\"v\":\"x\"}]}]}", "type",
	    "/kids/0/kids/0/v");
	expect_invalid(
	    tree_schema, "{\"v\":1,\"x\":0}", "additionalProperties", "/x");
}
END_TEST

/* "[[[ ... x ... ]]]" n deep. */
static char *
nested_arrays(size_t n, const char *leaf)
{
	size_t len = strlen(leaf), i;
	char *s = malloc(2 * n + len + 1);

	ck_assert_ptr_nonnull(s);
	for (i = 0; i < n; i++) {
		s[i] = '[';
		s[n + len + i] = ']';
	}
	memcpy(s + n, leaf, len);
	s[2 * n + len] = '\0';
	return s;
}

START_TEST(exponential_forms_stop_at_the_step_budget)
{
	/* Two identical branches that fail only at the leaf: 2^100 paths. */
	static const char schema[] =
	    "{\"$defs\":{\"a\":{\"anyOf\":[{\"type\":\"array\",\"items\":"
	    "{\"$ref\":\"#/$defs/a\"}},{\"type\":\"array\",\"items\":"
	    "{\"$ref\":\"#/$defs/a\"}},{\"type\":\"integer\"}]}},"
	    "\"$ref\":\"#/$defs/a\"}";
	char *bad = nested_arrays(100, "\"x\""),
	     *good = nested_arrays(100, "1");
	struct schema_err err;

	ck_assert_int_eq(run_validate(schema, bad, &err), SCHEMA_LIMIT);
	ck_assert_int_eq(run_validate(schema, good, &err), SCHEMA_OK);
	free(bad);
	free(good);
}
END_TEST

START_TEST(deep_recursion_stops_at_the_depth_limit)
{
	static const char schema[] =
	    "{\"$defs\":{\"a\":{\"items\":{\"$ref\":\"#/$defs/a\"}}},"
	    "\"$ref\":\"#/$defs/a\"}";
	char *deep = nested_arrays(SCHEMA_MAX_DEPTH + 10, "1");
	char *shallow = nested_arrays(100, "1");
	struct schema_err err;

	ck_assert_int_eq(run_validate(schema, deep, &err), SCHEMA_LIMIT);
	ck_assert_int_eq(run_validate(schema, shallow, &err), SCHEMA_OK);
	free(deep);
	free(shallow);
}
END_TEST

START_TEST(catastrophic_pattern_is_rejected_not_hung)
{
	static const char schema[] = "{\"pattern\":\"^(a+)+$\"}";
	char *body = malloc(10000 + 4);
	struct schema_err err;
	enum schema_result r;

	ck_assert_ptr_nonnull(body);
	body[0] = '"';
	memset(body + 1, 'a', 10000);
	memcpy(body + 10001, "!\"", 3);
	r = run_validate(schema, body, &err);
	ck_assert_msg(r == SCHEMA_INVALID || r == SCHEMA_LIMIT,
	    "a^10000! against ^(a+)+$: result %d", (int)r);
	ck_assert_str_eq(err.keyword, "pattern");
	free(body);
}
END_TEST

/* The most a's before "!" that ^(a+)+$ still refuses under the match
 * limit: each such search backtracks for long, and answers. */
static size_t
slow_run_length(void)
{
	struct arena a;
	char err[128], s[32];
	const struct re *re;
	size_t n, best = 8;

	arena_init(&a, 1 << 20);
	re = re_compile("^(a+)+$", 7, &a, err, sizeof(err));
	ck_assert_msg(re != NULL, "^(a+)+$ refused: %s", err);
	for (n = 8; n < 30; n++) {
		memset(s, 'a', n);
		s[n] = '!';
		if (re_search(re, s, n + 1) != RE_NOMATCH)
			break;
		best = n;
	}
	arena_free(&a);
	return best;
}

START_TEST(many_slow_patterns_stop_at_the_act_budget)
{
	/* Every item passes (the pattern refuses it, `not` accepts), and
	 * every search stays under the per-match limit; only the act's
	 * pattern time ends it.  Unbounded, 20,000 of them take seconds. */
	static const char schema[] =
	    "{\"items\":{\"not\":{\"pattern\":\"^(a+)+$\"}}}";
	size_t run = slow_run_length(), count = 20000, i, o = 0;
	char *body = malloc(count * (run + 4) + 2);
	struct schema_err err;
	enum schema_result r;

	ck_assert_ptr_nonnull(body);
	body[o++] = '[';
	for (i = 0; i < count; i++) {
		if (i > 0)
			body[o++] = ',';
		body[o++] = '"';
		memset(body + o, 'a', run);
		o += run;
		memcpy(body + o, "!\"", 2);
		o += 2;
	}
	memcpy(body + o, "]", 2);
	r = run_validate(schema, body, &err);
	ck_assert_msg(r == SCHEMA_LIMIT, "%zu x \"a{%zu}!\": result %d (%s)",
	    count, run, (int)r, err.reason);
	ck_assert_str_eq(err.keyword, "pattern");
	ck_assert_msg(
	    strstr(err.reason, "time") != NULL, "reason: %s", err.reason);
	/* stopped part way, after more than one search */
	ck_assert_str_ne(err.pointer.buf, "/0");
	ck_assert_str_ne(err.pointer.buf, "");
	free(body);
}
END_TEST

START_TEST(validation_takes_no_scratch_memory_on_the_common_path)
{
	struct arena form, req;
	const struct schema *s;
	const struct json_value *v;
	struct schema_err err;
	struct arena_mark m;

	arena_init(&form, 1 << 20);
	arena_init(&req, 1 << 20);
	s = compile_text(&form, tree_schema, NULL);
	v = parse_text(&req,
	    "{\"v\":1,\"kids\":[{\"v\":2},{\"v\":3,\"kids\":[{\"v\":4}]}]}");
	m = arena_mark(&req);
	ck_assert_int_eq(schema_validate(s, v, &req, &err), SCHEMA_OK);
	ck_assert_ptr_eq(arena_mark(&req).block, m.block);
	ck_assert_uint_eq(arena_mark(&req).used, m.used);
	arena_free(&req);
	arena_free(&form);
}
END_TEST

START_TEST(arrival_schema_accepts_documents_and_rejects_bad_ones)
{
	static const struct {
		const char *doc;
		const char *keyword;
		const char *pointer;
	} t[] = {
	    {"{\"p\":\"hi\",\"m\":[],\"s\":{}}", NULL, NULL},
	    {"{\"p\":\"hi\",\"m\":[{\"role\":\"user\",\"content\":\"x\","
	     "\"extra\":1}],\"s\":{\"type\":\"string\"},\"x\":1}",
	        NULL, NULL},
	    {"{\"p\":\"hi\",\"m\":[]}", "required", ""},
	    {"{\"p\":1,\"m\":[],\"s\":{}}", "type", "/p"},
	    {"{\"p\":\"\",\"m\":{},\"s\":{}}", "type", "/m"},
	    {"{\"p\":\"\",\"m\":[{\"role\":\"user\"}],\"s\":{}}", "required",
	        "/m/0"},
	    {"{\"p\":\"\",\"m\":[{\"role\":1,\"content\":\"\"}],\"s\":{}}",
	        "type", "/m/0/role"},
	    {"{\"p\":\"\",\"m\":[],\"s\":true}", "type", "/s"},
	    {"[]", "type", ""},
	};
	struct arena form, req;
	const struct json_value *root, *doc;
	const struct schema *s = NULL;
	struct schema_err err;
	struct json_err jerr;
	size_t i;

	ck_assert_uint_eq(schema_arrival_len, strlen(schema_arrival_text));
	arena_init(&form, 1 << 20);
	ck_assert_int_eq(json_parse(schema_arrival_text, schema_arrival_len,
	                     &form, 0, &root, &jerr),
	    JSON_OK);
	ck_assert_int_eq(
	    schema_compile(root, &form, NULL, NULL, &s, &err), SCHEMA_OK);
	for (i = 0; i < GPT_ARRAY_LEN(t); i++) {
		enum schema_result r;

		arena_init(&req, 1 << 20);
		doc = parse_text(&req, t[i].doc);
		r = schema_validate(s, doc, &req, &err);
		if (t[i].keyword == NULL) {
			ck_assert_msg(r == SCHEMA_OK, "%s rejected by %s at %s",
			    t[i].doc, err.keyword, err.pointer.buf);
		} else {
			ck_assert_msg(
			    r == SCHEMA_INVALID &&
			        strcmp(err.keyword, t[i].keyword) == 0 &&
			        strcmp(err.pointer.buf, t[i].pointer) == 0,
			    "%s: result %d by %s at %s, expected %s at %s",
			    t[i].doc, (int)r, err.keyword, err.pointer.buf,
			    t[i].keyword, t[i].pointer);
		}
		arena_free(&req);
	}
	arena_free(&form);
}
END_TEST

/*
 * Member names are looked up through a perfect hash of the form's names,
 * found at load: one probe and one comparison per member, whatever its
 * name and its place, and no keyed hash of it.  200 properties named in
 * one order and members given in the reverse order, with as many names
 * that are no property, cost no hash at all (the lookup hashed each
 * member the guess missed); names alike in length and in their first
 * and last 8 bytes, which no such function separates, still find their
 * own slots through the keyed table.
 */
START_TEST(member_lookup_takes_the_perfect_hash_not_the_keyed_one)
{
	struct buf form, body;
	char piece[96];
	int i;

	buf_init(&form, (size_t)1 << 20);
	buf_init(&body, (size_t)1 << 20);
	ck_assert_int_eq(buf_puts(&form, "{\"properties\":{"), 0);
	for (i = 0; i < 200; i++) {
		snprintf(piece, sizeof(piece),
		    "%s\"member_%d\":{\"type\":\"integer\"}", i ? "," : "", i);
		ck_assert_int_eq(buf_puts(&form, piece), 0);
	}
	ck_assert_int_eq(buf_puts(&form, "},\"required\":[\"member_7\"],"
	                                 "\"additionalProperties\":"
	                                 "{\"type\":\"string\"}}"),
	    0);
	ck_assert_int_eq(buf_putc(&form, '\0'), 0);
	ck_assert_int_eq(buf_putc(&body, '{'), 0);
	for (i = 199; i >= 0; i--) {
		snprintf(piece, sizeof(piece),
		    "\"member_%d\":%d,\"other_%d\":\"x\",", i, i, i);
		ck_assert_int_eq(buf_puts(&body, piece), 0);
	}
	ck_assert_int_eq(buf_puts(&body, "\"m\":\"short\"}"), 0);
	ck_assert_int_eq(buf_putc(&body, '\0'), 0);
	schema_test_name_hashes = 0;
	expect_valid(buf_ptr(&form), buf_ptr(&body));
	ck_assert_uint_eq(schema_test_name_hashes, 0);
	/* a property name takes its own subschema, another name
	 * additionalProperties */
	expect_invalid(buf_ptr(&form), "{\"member_150\":\"x\",\"member_7\":1}",
	    "type", "/member_150");
	expect_invalid(buf_ptr(&form), "{\"member_7\":1,\"member_200\":2}",
	    "type", "/member_200");
	expect_invalid(buf_ptr(&form), "{\"member_8\":1}", "required", "");
	buf_free(&form);
	buf_free(&body);

	/* 17 bytes, alike but for the middle one */
	expect_valid(
	    "{\"properties\":{\"aaaaaaaaXaaaaaaaa\":{\"type\":\"string\"},"
	    "\"aaaaaaaaYaaaaaaaa\":{\"type\":\"integer\"}}}",
	    "{\"aaaaaaaaYaaaaaaaa\":1,\"aaaaaaaaXaaaaaaaa\":\"x\","
	    "\"aaaaaaaaZaaaaaaaa\":null}");
	expect_invalid(
	    "{\"properties\":{\"aaaaaaaaXaaaaaaaa\":{\"type\":\"string\"},"
	    "\"aaaaaaaaYaaaaaaaa\":{\"type\":\"integer\"}}}",
	    "{\"aaaaaaaaXaaaaaaaa\":\"x\",\"aaaaaaaaYaaaaaaaa\":\"y\"}", "type",
	    "/aaaaaaaaYaaaaaaaa");
}
END_TEST

/*
 * Property names of distinct lengths are looked up by length alone: the
 * members of a small closed object in any order find their slots, a name
 * of a slot's length that is not the slot's (by its last byte, or a name
 * 64 bytes longer, which takes the same entry) is no property, and names
 * whose lengths collide take the multiplicative function instead.  No
 * lookup hashes a name.
 */
START_TEST(member_lookup_by_length_when_the_lengths_differ)
{
	static const char closed[] =
	    "{\"properties\":{\"name\":{\"type\":\"string\"},"
	    "\"repository\":{\"type\":\"string\"},"
	    "\"version\":{\"type\":\"string\"}},"
	    "\"required\":[\"name\",\"version\"],"
	    "\"additionalProperties\":false}";
	static const char collide[] =
	    "{\"properties\":{\"a\":{\"type\":\"string\"},"
	    "\"b123456789012345678901234567890123456789012345678901234567890123"
	    "4\":{\"type\":\"integer\"}},\"additionalProperties\":false}";
	static const char *const orders[] = {
	    "{\"name\":\"a\",\"repository\":\"b\",\"version\":\"c\"}",
	    "{\"version\":\"c\",\"name\":\"a\",\"repository\":\"b\"}",
	    "{\"repository\":\"b\",\"version\":\"c\",\"name\":\"a\"}",
	    "{\"version\":\"c\",\"name\":\"a\"}",
	};
	size_t i;

	schema_test_name_hashes = 0;
	for (i = 0; i < sizeof(orders) / sizeof(orders[0]); i++)
		expect_valid(closed, orders[i]);
	expect_invalid(
	    closed, "{\"version\":1,\"name\":\"a\"}", "type", "/version");
	expect_invalid(closed, "{\"name\":\"a\",\"namf\":\"b\"}",
	    "additionalProperties", "/namf");
	expect_invalid(closed,
	    "{\"name\":\"a\",\"version\":\"c\","
	    "\"n123456789012345678901234567890123456789"
	    "0123456789012345678901234567\":1}",
	    "additionalProperties",
	    "/n123456789012345678901234567890123456789"
	    "0123456789012345678901234567");
	expect_invalid(
	    closed, "{\"repository\":\"b\",\"name\":\"a\"}", "required", "");
	ck_assert_uint_eq(schema_test_name_hashes, 0);
	expect_valid(collide,
	    "{\"b12345678901234567890123456789012345678901234567890123456789012"
	    "34\":1,\"a\":\"x\"}");
	expect_invalid(collide,
	    "{\"a\":\"x\",\"b123456789012345678901234567890123456789012345678"
	    "9012345678901234\":\"y\"}",
	    "type",
	    "/b1234567890123456789012345678901234567890123456789012345678901"
	    "234");
	expect_invalid(collide, "{\"c\":1}", "additionalProperties", "/c");
}
END_TEST

/*
 * A member walk first settles what the shortcuts accept (members the form
 * does not name, values their subschema's shortcuts take), applies the
 * subschema of the first member they do not, and goes on with the full
 * walk from the next: the required names met count once, never twice (a
 * count of all present when one is missing), and a name only required
 * is still a member additionalProperties applies to.
 */
START_TEST(member_walk_goes_on_where_the_shortcuts_stop)
{
	static const char form[] =
	    "{\"properties\":{\"a\":{\"type\":\"string\"},"
	    "\"obj\":{\"properties\":{\"x\":{\"type\":\"integer\"}}},"
	    "\"zz\":{\"type\":\"string\"}},"
	    "\"required\":[\"a\",\"obj\",\"zz\"]}";
	static const char closed[] =
	    "{\"properties\":{\"a\":{\"type\":\"string\"},"
	    "\"obj\":{\"properties\":{\"x\":{\"type\":\"integer\"}}}},"
	    "\"required\":[\"bb\"],\"additionalProperties\":false}";
	static const char strings[] =
	    "{\"properties\":{\"a\":{\"type\":\"integer\"}},"
	    "\"additionalProperties\":{\"type\":\"string\"}}";

	expect_valid(form, "{\"a\":\"s\",\"obj\":{\"x\":1},\"zz\":\"t\"}");
	expect_valid(
	    form, "{\"zz\":\"t\",\"other\":[],\"obj\":{},\"a\":\"s\"}");
	expect_valid(form, "{\"a\":\"s\",\"zz\":\"t\",\"obj\":{\"x\":1}}");
	expect_invalid(form, "{\"a\":\"s\",\"obj\":{\"x\":1}}", "required", "");
	expect_invalid(
	    form, "{\"obj\":{\"x\":1},\"zz\":\"t\"}", "required", "");
	expect_invalid(form, "{\"a\":\"s\",\"zz\":\"t\",\"obj\":{\"x\":1.5}}",
	    "type", "/obj/x");
	expect_invalid(form, "{\"a\":\"s\",\"obj\":{\"x\":\"1\"},\"zz\":\"t\"}",
	    "type", "/obj/x");
	expect_invalid(form, "{\"zz\":\"t\",\"a\":1,\"obj\":{}}", "type", "/a");
	expect_invalid(
	    closed, "{\"a\":\"s\",\"obj\":{\"x\":1}}", "required", "");
	expect_invalid(
	    closed, "{\"a\":\"s\",\"zz\":1}", "additionalProperties", "/zz");
	expect_invalid(closed, "{\"a\":\"s\",\"obj\":{},\"zz\":1}",
	    "additionalProperties", "/zz");
	expect_invalid(
	    closed, "{\"a\":\"s\",\"bb\":1}", "additionalProperties", "/bb");
	expect_valid(strings, "{\"u\":\"s\",\"a\":1,\"w\":\"t\"}");
	expect_invalid(strings, "{\"u\":\"s\",\"a\":1,\"w\":2}", "type", "/w");
	expect_invalid(
	    strings, "{\"u\":\"s\",\"w\":{},\"a\":\"1\"}", "type", "/w");
	expect_invalid(
	    strings, "{\"u\":\"s\",\"w\":\"t\",\"a\":\"1\"}", "type", "/a");
}
END_TEST

/*
 * A member walk whose every subschema has a shortcut for some scalar runs
 * as a leaf first (SF_MEMBERS_LEAF, set at load) and leaves the full walk
 * whatever it cannot settle: the answers and reports are the full walk's.
 */
START_TEST(member_walk_of_scalars_runs_as_a_leaf)
{
	static const char scalars[] =
	    "{\"properties\":{\"a\":{\"type\":\"string\"},"
	    "\"port\":{\"type\":\"integer\",\"minimum\":1}},"
	    "\"required\":[\"a\"]}";
	static const char closed[] =
	    "{\"properties\":{\"a\":{\"type\":\"string\"}},"
	    "\"additionalProperties\":false}";
	static const char nested[] =
	    "{\"properties\":{\"a\":{\"type\":\"string\"},"
	    "\"obj\":{\"type\":\"object\"}}}";
	struct arena a;
	const struct schema *s;

	arena_init(&a, 1 << 20);
	s = compile_text(&a, scalars, NULL);
	ck_assert(s->root->need[JSON_T_OBJECT] & SF_MEMBERS_LEAF);
	s = compile_text(&a, closed, NULL);
	ck_assert(s->root->need[JSON_T_OBJECT] & SF_MEMBERS_LEAF);
	s = compile_text(&a, nested, NULL);
	ck_assert(!(s->root->need[JSON_T_OBJECT] & SF_MEMBERS_LEAF));
	arena_free(&a);

	expect_valid(scalars, "{\"a\":\"s\",\"port\":80,\"x\":{}}");
	expect_valid(scalars, "{\"x\":[1],\"a\":\"s\"}");
	expect_invalid(scalars, "{\"port\":80}", "required", "");
	expect_invalid(scalars, "{\"a\":\"s\",\"port\":0}", "minimum", "/port");
	expect_invalid(scalars, "{\"a\":\"s\",\"port\":8.5}", "type", "/port");
	expect_invalid(scalars, "{\"a\":null,\"port\":80}", "type", "/a");
	expect_valid(closed, "{\"a\":\"s\"}");
	expect_valid(closed, "{}");
	expect_invalid(
	    closed, "{\"a\":\"s\",\"b\":1}", "additionalProperties", "/b");
	expect_invalid(closed, "{\"a\":[]}", "type", "/a");
	expect_valid(nested, "{\"a\":\"s\",\"obj\":{}}");
	expect_invalid(nested, "{\"a\":\"s\",\"obj\":1}", "type", "/obj");
}
END_TEST

/*
 * A node holding only a $ref, or only an allOf of one branch, is taken
 * as an alias of its target at load; a node that also holds a keyword
 * with no flag of its own is not one: unevaluatedProperties beside $ref
 * still applies (it was dropped with the node), and an
 * additionalProperties of true beside $ref still evaluates every member
 * for an unevaluatedProperties above it (they were all rejected).
 */
START_TEST(aliases_keep_the_keywords_beside_their_ref)
{
	static const char closed[] =
	    "{\"properties\":{\"a\":{\"$ref\":\"#/$defs/t\","
	    "\"unevaluatedProperties\":false}},"
	    "\"$defs\":{\"t\":{\"properties\":{\"x\":{}}}}}";
	static const char open[] =
	    "{\"unevaluatedProperties\":false,\"allOf\":[{\"$ref\":"
	    "\"#/$defs/t\",\"additionalProperties\":true}],"
	    "\"$defs\":{\"t\":{\"minProperties\":1}}}";
	static const char alias[] =
	    "{\"allOf\":[{\"$ref\":\"#/$defs/t\"}],"
	    "\"$defs\":{\"t\":{\"properties\":{\"n\":{\"type\":\"integer\"}},"
	    "\"required\":[\"n\"]}}}";

	expect_valid(closed, "{\"a\":{\"x\":1}}");
	expect_invalid(closed, "{\"a\":{\"x\":1,\"y\":2}}",
	    "unevaluatedProperties", "/a/y");
	expect_valid(open, "{\"a\":1}");
	expect_invalid(open, "{}", "minProperties", "");
	expect_valid(alias, "{\"n\":1}");
	expect_invalid(alias, "{\"n\":\"1\"}", "type", "/n");
	expect_invalid(alias, "{}", "required", "");
}
END_TEST

static Suite *
suite_schema_validate(void)
{
	Suite *s = suite_create("schema_validate");
	TCase *k = tcase_create("keywords");
	TCase *l = tcase_create("limits");

	tcase_add_test(k, type_accepts_its_names_and_integer_by_value);
	tcase_add_test(k, enum_and_const_use_json_equality);
	tcase_add_test(k, numeric_bounds_are_exact_decimals);
	tcase_add_test(k, multiple_of_is_exact);
	tcase_add_test(k, string_lengths_count_code_points);
	tcase_add_test(k, pattern_searches_unanchored);
	tcase_add_test(k, array_keywords_follow_2020_12);
	tcase_add_test(k, object_keywords_follow_2020_12);
	tcase_add_test(k, required_works_past_the_stack_bitmap);
	tcase_add_test(
	    k, member_lookup_takes_the_perfect_hash_not_the_keyed_one);
	tcase_add_test(k, member_lookup_by_length_when_the_lengths_differ);
	tcase_add_test(k, member_walk_goes_on_where_the_shortcuts_stop);
	tcase_add_test(k, member_walk_of_scalars_runs_as_a_leaf);
	tcase_add_test(k, aliases_keep_the_keywords_beside_their_ref);
	tcase_add_test(k, applicators_combine_per_2020_12);
	tcase_add_test(
	    k, shortcuts_give_the_answers_and_reports_of_the_full_walk);
	tcase_add_test(
	    k, unevaluated_properties_decided_at_load_report_as_collected);
	tcase_add_test(k, composed_objects_are_not_collected);
	tcase_add_test(k, refs_resolve_to_compiled_nodes);
	tcase_add_test(k, recursive_forms_validate_trees);
	tcase_add_test(
	    k, arrival_schema_accepts_documents_and_rejects_bad_ones);
	tcase_add_test(
	    k, validation_takes_no_scratch_memory_on_the_common_path);
	suite_add_tcase(s, k);

	tcase_add_test(
	    l, numbers_out_of_range_fail_closed_on_numeric_keywords_only);
	tcase_add_test(l, unique_items_on_long_arrays_is_hashed);
	tcase_add_test(l, dynamic_ref_looks_up_its_anchor_in_constant_work);
	tcase_add_test(
	    l, strings_colliding_under_the_old_hash_cost_linear_unique_probes);
	tcase_add_test(l, unique_items_sorts_when_every_item_takes_one_slot);
	tcase_add_test(l, a_long_numeric_enum_is_a_table_not_a_scan);
	tcase_add_test(l, exponential_forms_stop_at_the_step_budget);
	tcase_add_test(l, deep_recursion_stops_at_the_depth_limit);
	tcase_add_test(l, catastrophic_pattern_is_rejected_not_hung);
	tcase_add_test(l, many_slow_patterns_stop_at_the_act_budget);
	tcase_set_timeout(l, 120);
	suite_add_tcase(s, l);
	return s;
}

CHECK_MAIN(suite_schema_validate)
