/*
 * check_sample.c: the value generator (src/tools/sample.c), through its API:
 * every value passes the form, the same seed gives the same values, the
 * variety promised (branches, enum values, optional members), the forms
 * it cannot sample, and the regex subset it writes strings from.
 */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "base/arena.h"
#include "base/buf.h"
#include "check_main.h"
#include "check_schema.h"
#include "parser/json.h"
#include "tools/sample.h"
#include "schema/schema.h"

struct fixture {
	struct arena a;
	const struct schema *form;
	struct sample_gen *g;
};

static void
fixture_open(struct fixture *f, const char *schema, uint64_t seed)
{
	struct schema_err err;

	arena_init(&f->a, SIZE_MAX / 4);
	ck_assert_msg(schema_compile(parse_text(&f->a, schema), &f->a, NULL,
	                  NULL, &f->form, &err) == SCHEMA_OK,
	    "%s does not compile: %s", schema, err.reason);
	ck_assert_ptr_nonnull(f->g = sample_new(f->form, seed));
}

static void
fixture_close(struct fixture *f)
{
	sample_free(f->g);
	arena_free(&f->a);
}

/* The next value's text in out (reset first); fails the test when the
 * generator finds none. */
static void
next_value(struct fixture *f, struct buf *out, const char *schema)
{
	struct sample_err err;

	buf_reset(out);
	ck_assert_msg(sample_next(f->g, out, &err) == 0, "%s: no value: %s",
	    schema, err.reason);
}

/* Is text accepted by the form, judged afresh? */
static bool
accepted(const struct fixture *f, const struct buf *text)
{
	struct arena scratch;
	const struct json_value *v;
	struct json_err jerr;
	struct schema_err err;
	bool ok;

	arena_init(&scratch, SIZE_MAX / 4);
	ok = json_parse(buf_ptr(text), buf_len(text), &scratch, 0, &v, &jerr) ==
	         JSON_OK &&
	     schema_validate(f->form, v, &scratch, &err) == SCHEMA_OK;
	arena_free(&scratch);
	return ok;
}

static const char *const samplable[] = {
    "true",
    "{}",
    "{\"type\": \"integer\", \"minimum\": 10, \"exclusiveMaximum\": 12}",
    "{\"type\": \"number\", \"multipleOf\": 0.25, \"minimum\": -1, "
    "\"maximum\": 1}",
    "{\"type\": \"integer\", \"multipleOf\": 0.123456789}",
    "{\"type\": \"string\", \"minLength\": 70}",
    "{\"type\": \"string\", \"pattern\": \"^[A-Z]{2}-\\\\d{3,5}$\"}",
    "{\"type\": \"string\", \"pattern\": \"^(cat|dog)s?$\", "
    "\"maxLength\": 4}",
    "{\"type\": \"string\", \"pattern\": \"^\\\\p{Lu}\\\\u00e9[^a-z]$\"}",
    "{\"type\": \"string\", \"format\": \"date-time\"}",
    "{\"type\": \"string\", \"format\": \"ipv6\"}",
    "{\"type\": \"string\", \"contentEncoding\": \"base64\", "
    "\"contentMediaType\": \"application/json\", \"contentSchema\": "
    "{\"type\": \"object\", \"required\": [\"n\"], \"properties\": "
    "{\"n\": {\"type\": \"integer\"}}}}",
    "{\"type\": \"array\", \"prefixItems\": [{\"const\": 1}, "
    "{\"type\": \"string\"}], \"items\": false, \"minItems\": 2}",
    "{\"type\": \"array\", \"contains\": {\"const\": 7}, \"minContains\": 2, "
    "\"uniqueItems\": false}",
    "{\"type\": \"array\", \"items\": {\"enum\": [1, 2, 3]}, "
    "\"uniqueItems\": true, \"minItems\": 3}",
    "{\"type\": \"object\", \"minProperties\": 3}",
    "{\"type\": \"object\", \"properties\": {\"a\": {}}, "
    "\"dependentRequired\": {\"a\": [\"b\"]}, \"required\": [\"a\"]}",
    "{\"allOf\": [{\"type\": \"object\", \"required\": [\"a\"], "
    "\"properties\": {\"a\": {\"type\": \"string\"}}}, {\"required\": "
    "[\"b\"], \"properties\": {\"b\": {\"type\": \"boolean\"}}}]}",
    "{\"oneOf\": [{\"type\": \"number\"}, {}]}",
    "{\"if\": {\"const\": 1}, \"else\": false}",
    "{\"not\": {\"type\": \"string\"}}",
    "{\"$defs\": {\"n\": {\"type\": \"object\", \"properties\": {\"kids\": "
    "{\"type\": \"array\", \"items\": {\"$ref\": \"#/$defs/n\"}}}}}, "
    "\"$ref\": \"#/$defs/n\"}",
    "{\"type\": \"object\", \"additionalProperties\": false, "
    "\"patternProperties\": {\"^x-[a-z]+$\": {\"type\": \"integer\"}}}",
};

START_TEST(sample_next_gives_values_the_form_accepts)
{
	struct fixture f;
	struct buf out;
	int k;

	fixture_open(&f, samplable[_i], 7);
	buf_init(&out, 1 << 20);
	for (k = 0; k < 50; k++) {
		next_value(&f, &out, samplable[_i]);
		ck_assert_msg(accepted(&f, &out), "%s: %.*s is rejected",
		    samplable[_i], (int)buf_len(&out), buf_ptr(&out));
	}
	buf_free(&out);
	fixture_close(&f);
}
END_TEST

START_TEST(sample_next_is_the_same_for_the_same_seed)
{
	static const char form[] =
	    "{\"type\": \"object\", \"properties\": {\"a\": {\"type\": "
	    "\"string\"}, \"b\": {\"type\": \"number\"}}}";
	struct fixture f1, f2, f3;
	struct buf a, b, c;
	bool differs = false;
	int k;

	fixture_open(&f1, form, 42);
	fixture_open(&f2, form, 42);
	fixture_open(&f3, form, 43);
	buf_init(&a, 1 << 20);
	buf_init(&b, 1 << 20);
	buf_init(&c, 1 << 20);
	for (k = 0; k < 20; k++) {
		next_value(&f1, &a, form);
		next_value(&f2, &b, form);
		next_value(&f3, &c, form);
		ck_assert_msg(
		    buf_len(&a) == buf_len(&b) &&
		        memcmp(buf_ptr(&a), buf_ptr(&b), buf_len(&a)) == 0,
		    "seed 42 gave %.*s, then %.*s", (int)buf_len(&a),
		    buf_ptr(&a), (int)buf_len(&b), buf_ptr(&b));
		differs = differs || buf_len(&a) != buf_len(&c) ||
		          memcmp(buf_ptr(&a), buf_ptr(&c), buf_len(&a)) != 0;
	}
	ck_assert_msg(differs, "seeds 42 and 43 gave the same 20 values");
	buf_free(&a);
	buf_free(&b);
	buf_free(&c);
	fixture_close(&f1);
	fixture_close(&f2);
	fixture_close(&f3);
}
END_TEST

/* The variety: in ten values, each listed text appears and each
 * optional member is present at least once and absent at least once. */
static const struct {
	const char *schema;
	const char *seen[4]; /* substrings some value holds */
} varied[] = {
    {"{\"anyOf\": [{\"type\": \"string\", \"maxLength\": 0}, {\"type\": "
     "\"null\"}, {\"type\": \"boolean\"}]}",
        {"\"\"", "null", "e"}},
    {"{\"enum\": [\"red\", \"green\", \"blue\"]}", {"red", "green", "blue"}},
    {"{\"type\": [\"integer\", \"array\"], \"items\": {\"const\": 0}, "
     "\"minimum\": 5, \"maximum\": 5}",
        {"[", "5"}},
};

START_TEST(sample_next_reaches_every_branch_and_value)
{
	struct fixture f;
	struct buf out;
	bool seen[4] = {false, false, false, false};
	int k, j;

	fixture_open(&f, varied[_i].schema, 1);
	buf_init(&out, 1 << 20);
	for (k = 0; k < 10; k++) {
		next_value(&f, &out, varied[_i].schema);
		for (j = 0; j < 4 && varied[_i].seen[j] != NULL; j++)
			seen[j] = seen[j] || strstr(buf_ptr(&out),
			                         varied[_i].seen[j]) != NULL;
	}
	for (j = 0; j < 4 && varied[_i].seen[j] != NULL; j++)
		ck_assert_msg(seen[j], "%s: no value holds %s",
		    varied[_i].schema, varied[_i].seen[j]);
	buf_free(&out);
	fixture_close(&f);
}
END_TEST

START_TEST(sample_next_sometimes_writes_each_optional_member)
{
	static const char form[] =
	    "{\"type\": \"object\", \"required\": [\"r\"], \"properties\": "
	    "{\"r\": {\"const\": 1}, \"o1\": {\"type\": \"integer\"}, "
	    "\"o2\": {\"type\": \"string\"}, \"o3\": {\"type\": \"null\"}}, "
	    "\"additionalProperties\": false}";
	static const char *const members[] = {"\"o1\"", "\"o2\"", "\"o3\""};
	struct fixture f;
	struct buf out;
	int in[3] = {0, 0, 0}, k, j;

	fixture_open(&f, form, 3);
	buf_init(&out, 1 << 20);
	for (k = 0; k < 10; k++) {
		next_value(&f, &out, form);
		ck_assert_msg(strstr(buf_ptr(&out), "\"r\":1") != NULL,
		    "the required member is missing from %s", buf_ptr(&out));
		for (j = 0; j < 3; j++)
			in[j] += strstr(buf_ptr(&out), members[j]) != NULL;
	}
	for (j = 0; j < 3; j++)
		ck_assert_msg(in[j] > 0 && in[j] < 10,
		    "%s is in %d of 10 values", members[j], in[j]);
	buf_free(&out);
	fixture_close(&f);
}
END_TEST

static const struct {
	const char *schema;
	const char *why; /* in the reason */
} unsamplable[] = {
    {"false", "accepts nothing"},
    {"{\"not\": {}}", "not"},
    {"{\"allOf\": [{\"type\": \"string\"}, {\"type\": \"integer\"}]}",
        "no value found"},
    {"{\"type\": \"string\", \"minLength\": 3, \"maxLength\": 2}",
        "no value found"},
    {"{\"type\": \"string\", \"pattern\": \"^(?=a)b$\"}", "pattern"},
};

START_TEST(sample_next_says_why_a_form_cannot_be_sampled)
{
	struct fixture f;
	struct sample_err err;
	struct buf out;

	fixture_open(&f, unsamplable[_i].schema, 1);
	buf_init(&out, 1 << 20);
	ck_assert_int_eq(sample_next(f.g, &out, &err), -1);
	ck_assert_msg(strstr(err.reason, unsamplable[_i].why) != NULL,
	    "%s: the reason \"%s\" does not say %s", unsamplable[_i].schema,
	    err.reason, unsamplable[_i].why);
	ck_assert_uint_eq(buf_len(&out), 0);
	buf_free(&out);
	fixture_close(&f);
}
END_TEST

static Suite *
suite_sample(void)
{
	Suite *s = suite_create("sample");
	TCase *tc = tcase_create("sample_next");

	tcase_add_loop_test(tc, sample_next_gives_values_the_form_accepts, 0,
	    (int)GPT_ARRAY_LEN(samplable));
	tcase_add_test(tc, sample_next_is_the_same_for_the_same_seed);
	tcase_add_loop_test(tc, sample_next_reaches_every_branch_and_value, 0,
	    (int)GPT_ARRAY_LEN(varied));
	tcase_add_test(tc, sample_next_sometimes_writes_each_optional_member);
	tcase_add_loop_test(tc, sample_next_says_why_a_form_cannot_be_sampled,
	    0, (int)GPT_ARRAY_LEN(unsamplable));
	tcase_set_timeout(tc, 60);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(suite_sample)
