/*
 * check_report.c: the report's order (refusals first) and its JSON
 * rendering, read back with the project's own strict parser.
 */
#include "base/arena.h"
#include "base/buf.h"
#include "check_main.h"
#include "check_parse.h"
#include "parser/json.h"
#include "tools/report.h"

static const struct json_value *
get(const struct json_value *o, const char *name)
{
	const struct json_value *v = json_object_get(o, name, strlen(name));

	ck_assert_msg(v != NULL, "no member %s", name);
	return v;
}

static bool
str_is(const struct json_value *v, const char *s)
{
	return v->type == JSON_T_STRING && v->u.str.len == strlen(s) &&
	       memcmp(v->u.str.ptr, s, v->u.str.len) == 0;
}

START_TEST(json_lists_refusals_first_and_parses_strictly)
{
	struct report r;
	struct report_decoder *d;
	struct arena a;
	struct buf out;
	const struct json_value *doc, *ps, *p, *ds;

	report_init(&r, "dir/with \"quote\"");
	report_add(&r, REPORT_WARNING, "string-unbounded", "/properties/a",
	    "a string\twith a tab", "add maxLength");
	report_add(&r, REPORT_REFUSAL, "form-refused", "/minLenght",
	    "unknown keyword", "did you mean minLength?");
	report_add(&r, REPORT_WARNING, "hook-missing", "", "missing", NULL);
	report_annotation(&r, "title", 5, "");
	report_annotation(&r, "title", 5, "/x");
	r.loads = true;
	r.has_size = true;
	r.bytes = 10;
	r.tokens = 3;
	d = report_decoder(&r, "xgrammar", "xgrammar", "2026-12-01");
	report_decoder_site(&r, d, false, "/a", "oneOf");
	report_decoder_site(&r, d, false, "/a", "oneOf");
	report_sort(&r);
	buf_init(&out, 1 << 20);
	ck_assert_int_eq(report_json(&r, &out), 0);
	arena_init(&a, 1 << 20);
	doc = test_parse(&a, buf_ptr(&out), 64);
	ck_assert(str_is(get(doc, "form"), "dir/with \"quote\""));
	ck_assert_int_eq(get(doc, "loads")->type, JSON_T_TRUE);
	ps = get(doc, "problems");
	ck_assert_uint_eq(ps->u.arr.count, 3);
	p = &ps->u.arr.items[0];
	ck_assert(str_is(get(p, "severity"), "refusal"));
	ck_assert(str_is(get(p, "rule"), "form-refused"));
	ck_assert(str_is(get(p, "pointer"), "/minLenght"));
	ck_assert(str_is(get(p, "fix"), "did you mean minLength?"));
	p = &ps->u.arr.items[1];
	ck_assert(str_is(get(p, "severity"), "warning"));
	ck_assert(str_is(get(p, "reason"), "a string\twith a tab"));
	ck_assert_int_eq(get(&ps->u.arr.items[2], "fix")->type, JSON_T_NULL);
	ck_assert_uint_eq(get(doc, "annotations")->u.arr.count, 1);
	ck_assert(str_is(get(get(doc, "size"), "tokens"), "3") ||
	          get(get(doc, "size"), "tokens")->u.num.i == 3);
	ds = get(doc, "decoders");
	ck_assert_uint_eq(ds->u.arr.count, 1);
	ck_assert_int_eq(
	    get(&ds->u.arr.items[0], "refuses")->type, JSON_T_FALSE);
	/* one site per place and keyword */
	ck_assert_uint_eq(get(&ds->u.arr.items[0], "ignores")->u.arr.count, 1);
	arena_free(&a);
	buf_free(&out);
	report_free(&r);
}
END_TEST

START_TEST(past_the_limit_problems_are_counted)
{
	struct report r;
	size_t i;

	report_init(&r, "f");
	for (i = 0; i < REPORT_PROBLEMS_MAX + 5; i++)
		report_add(&r, REPORT_WARNING, "oneof", "", "x", NULL);
	ck_assert_uint_eq(r.count, REPORT_PROBLEMS_MAX);
	ck_assert_uint_eq(r.more, 5);
	report_free(&r);
}
END_TEST

static Suite *
suite_report(void)
{
	Suite *s = suite_create("report");
	TCase *k = tcase_create("Core");

	tcase_add_test(k, json_lists_refusals_first_and_parses_strictly);
	tcase_add_test(k, past_the_limit_problems_are_counted);
	suite_add_tcase(s, k);
	return s;
}

CHECK_MAIN(suite_report)
