/*
 * check_schema_dialect.c: each dialect difference and each keyword the
 * dialects added, accepted and refused side by side: the same form and
 * body under two dialects, or a keyword's passing and failing body.
 */
#include "check_schema.h"
#include "parser/json.h"
#include "schema/schema_annot.h"
#include "schema/schema_dialect.h"
#include "schema/schema_load.h"

#define R_OK 0      /* accepted */
#define R_INVALID 1 /* rejected */
#define R_REFUSED 2 /* the form refused */

struct dcase {
	const char *dialect; /* NULL: 2020-12 (the default) */
	const char *schema;
	const char *instance;
	int expect;
};

static int
run_dialect(const struct dcase *t)
{
	struct schema_opts o;
	struct arena a;
	const struct schema *s;
	struct schema_err err;
	enum schema_result r;
	int rc;

	memset(&o, 0, sizeof(o));
	o.dialect = t->dialect != NULL ? schema_dialect_named(t->dialect) : -1;
	arena_init(&a, 64 << 20);
	memset(&err, 0, sizeof(err));
	r = schema_compile_opts(parse_text(&a, t->schema), &o, &a, &s, &err);
	if (r != SCHEMA_OK) {
		ck_assert_msg(
		    r == SCHEMA_REFUSED, "%s: result %d", t->schema, (int)r);
		arena_free(&a);
		return R_REFUSED;
	}
	r = schema_validate(s, parse_text(&a, t->instance), &a, &err);
	rc = r == SCHEMA_OK ? R_OK : R_INVALID;
	arena_free(&a);
	return rc;
}

static void
run_dcases(const struct dcase *t, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		int got = run_dialect(&t[i]);

		ck_assert_msg(got == t[i].expect,
		    "%s under %s against %s: %d, expected %d", t[i].schema,
		    t[i].dialect != NULL ? t[i].dialect : "2020-12",
		    t[i].instance, got, t[i].expect);
	}
}

#define RUN_DCASES(t) run_dcases((t), GPT_ARRAY_LEN(t))

/* Draft-04's validation spec makes these MUSTs (5.4.3, 5.4.5.2.2, 5.5.1);
 * later dialects only say SHOULD, and the forms narrow nothing there. */
START_TEST(draft04_refuses_empty_and_repeating_lists)
{
	static const struct dcase t[] = {
	    {"draft-04", "{\"enum\":[]}", "1", R_REFUSED},
	    {"draft-06", "{\"enum\":[]}", "1", R_INVALID},
	    {"draft-04", "{\"enum\":[1,2,1.0]}", "1", R_REFUSED},
	    {"draft-04", "{\"enum\":[{\"a\":1,\"b\":2},{\"b\":2,\"a\":1}]}",
	        "1", R_REFUSED},
	    {"draft-04", "{\"enum\":[1,\"1\",[1]]}", "1", R_OK},
	    {"draft-07", "{\"enum\":[1,1]}", "1", R_OK},
	    {"draft-04", "{\"required\":[]}", "{}", R_REFUSED},
	    {"draft-07", "{\"required\":[]}", "{}", R_OK},
	    {"draft-04", "{\"dependencies\":{\"a\":[]}}", "{}", R_REFUSED},
	    {"draft-04", "{\"dependencies\":{\"a\":[\"b\"]}}", "{\"a\":1}",
	        R_INVALID},
	};

	RUN_DCASES(t);
}
END_TEST

START_TEST(dialect_comes_from_schema_or_the_default)
{
	static const struct dcase t[] = {
	    {NULL,
	        "{\"$schema\":\"http://json-schema.org/draft-07/schema#\","
	        "\"definitions\":{},\"if\":true}",
	        "1", R_OK},
	    /* $defs is a container in every dialect */
	    {NULL,
	        "{\"$schema\":\"http://json-schema.org/draft-07/schema\","
	        "\"$defs\":{}}",
	        "1", R_OK},
	    {NULL,
	        "{\"$schema\":\"http://json-schema.org/draft-07/schema\","
	        "\"$anchor\":\"a\"}",
	        "1", R_REFUSED},
	    {NULL, "{\"$schema\":\"https://json-schema.org/v1\"}", "1", R_OK},
	    {NULL,
	        "{\"$schema\":\"https://json-schema.org/draft/2019-09/"
	        "schema\",\"$recursiveAnchor\":true}",
	        "1", R_OK},
	    {NULL, "{\"$schema\":\"http://example.com/unknown\"}", "1",
	        R_REFUSED},
	    /* a later keyword with its later meaning; a core one refused */
	    {"draft-06", "{\"if\":true,\"then\":false}", "1", R_INVALID},
	    {"draft-06", "{\"$anchor\":\"a\"}", "1", R_REFUSED},
	    {"draft-07", "{\"if\":false,\"else\":false}", "1", R_INVALID},
	};

	RUN_DCASES(t);
}
END_TEST

START_TEST(ids_follow_each_dialect)
{
	static const struct dcase t[] = {
	    /* draft-04 spells it id, later dialects $id */
	    {"draft-04",
	        "{\"id\":\"http://x/r\",\"definitions\":{\"a\":"
	        "{\"type\":\"string\"}},\"allOf\":[{\"$ref\":"
	        "\"http://x/r#/definitions/a\"}]}",
	        "\"s\"", R_OK},
	    /* beside $ref (through draft-07), id is ignored like the rest */
	    {"draft-04",
	        "{\"id\":\"http://x/r\",\"definitions\":{\"a\":"
	        "{}},\"$ref\":\"http://x/r#/definitions/a\"}",
	        "1", R_REFUSED},
	    {"draft-06", "{\"id\":\"http://x/r\"}", "1", R_REFUSED},
	    /* draft-07: "$id": "#name" names a location */
	    {"draft-07",
	        "{\"definitions\":{\"a\":{\"$id\":\"#n\",\"type\":"
	        "\"integer\"}},\"allOf\":[{\"$ref\":\"#n\"}]}",
	        "1.5", R_INVALID},
	    {"2020-12", "{\"$defs\":{\"a\":{\"$id\":\"#n\"}}}", "1", R_REFUSED},
	    /* 2019-09 on: $anchor */
	    {"2019-09",
	        "{\"$defs\":{\"a\":{\"$anchor\":\"n\",\"type\":"
	        "\"integer\"}},\"$ref\":\"#n\"}",
	        "\"s\"", R_INVALID},
	    {"draft-07", "{\"$anchor\":\"n\"}", "1", R_REFUSED},
	    /* an embedded resource changes the base of a relative $ref */
	    {NULL,
	        "{\"$id\":\"http://x/root\",\"properties\":{\"a\":{"
	        "\"$id\":\"sub/\",\"$ref\":\"leaf\"}},\"$defs\":{\"l\":{"
	        "\"$id\":\"http://x/sub/leaf\",\"type\":\"string\"}}}",
	        "{\"a\":1}", R_INVALID},
	    /* a URN id */
	    {NULL,
	        "{\"$id\":\"urn:uuid:deadbeef-1234-ffff-ffff-4321feebdaed\","
	        "\"$defs\":{\"s\":{\"type\":\"string\"}},\"$ref\":"
	        "\"urn:uuid:deadbeef-1234-ffff-ffff-4321feebdaed#/$defs/s\"}",
	        "1", R_INVALID},
	};

	RUN_DCASES(t);
}
END_TEST

START_TEST(ref_siblings_are_applied_in_every_dialect)
{
	static const struct dcase t[] = {
	    {"draft-07",
	        "{\"definitions\":{\"a\":{}},\"properties\":{\"p\":"
	        "{\"$ref\":\"#/definitions/a\",\"maxLength\":1}}}",
	        "{\"p\":\"long\"}", R_INVALID},
	    {"draft-04",
	        "{\"definitions\":{\"a\":{}},\"properties\":{\"p\":"
	        "{\"$ref\":\"#/definitions/a\",\"maxLength\":1}}}",
	        "{\"p\":\"x\"}", R_OK},
	    {"2019-09",
	        "{\"$defs\":{\"a\":{}},\"properties\":{\"p\":"
	        "{\"$ref\":\"#/$defs/a\",\"maxLength\":1}}}",
	        "{\"p\":\"long\"}", R_INVALID},
	};

	RUN_DCASES(t);
}
END_TEST

START_TEST(draft_04_exclusive_bounds_are_booleans)
{
	static const struct dcase t[] = {
	    {"draft-04", "{\"maximum\":3,\"exclusiveMaximum\":true}", "3",
	        R_INVALID},
	    {"draft-04", "{\"maximum\":3,\"exclusiveMaximum\":false}", "3",
	        R_OK},
	    {"draft-04", "{\"minimum\":3,\"exclusiveMinimum\":true}", "3.5",
	        R_OK},
	    {"draft-04", "{\"exclusiveMaximum\":true}", "3", R_REFUSED},
	    {"draft-04", "{\"exclusiveMaximum\":3}", "3", R_REFUSED},
	    {"draft-06", "{\"exclusiveMaximum\":3}", "3", R_INVALID},
	    {"draft-06", "{\"exclusiveMaximum\":true}", "3", R_REFUSED},
	    /* draft-04 has no boolean schemas, but additional* take one */
	    {"draft-04", "{\"items\":true}", "[1]", R_REFUSED},
	    {"draft-04", "{\"additionalProperties\":false}", "{\"a\":1}",
	        R_INVALID},
	};

	RUN_DCASES(t);
}
END_TEST

START_TEST(items_arrays_and_prefix_items_per_dialect)
{
	static const struct dcase t[] = {
	    {"2019-09",
	        "{\"items\":[{\"type\":\"string\"}],"
	        "\"additionalItems\":false}",
	        "[\"a\"]", R_OK},
	    {"2019-09",
	        "{\"items\":[{\"type\":\"string\"}],"
	        "\"additionalItems\":false}",
	        "[\"a\",1]", R_INVALID},
	    {"2019-09", "{\"items\":[{\"type\":\"string\"}]}", "[1]",
	        R_INVALID},
	    /* additionalItems without an items array constrains nothing */
	    {"draft-07", "{\"additionalItems\":false}", "[1]", R_OK},
	    {"2020-12", "{\"items\":[{\"type\":\"string\"}]}", "[1]",
	        R_REFUSED},
	    {"2020-12",
	        "{\"prefixItems\":[{\"type\":\"string\"}],"
	        "\"items\":false}",
	        "[\"a\",1]", R_INVALID},
	    {"2019-09", "{\"prefixItems\":[]}", "[1]", R_REFUSED},
	};

	RUN_DCASES(t);
}
END_TEST

START_TEST(dependencies_split_into_required_and_schemas)
{
	static const struct dcase t[] = {
	    {"draft-07", "{\"dependencies\":{\"a\":[\"b\"]}}", "{\"a\":1}",
	        R_INVALID},
	    {"draft-07", "{\"dependencies\":{\"a\":{\"required\":[\"b\"]}}}",
	        "{\"a\":1,\"b\":2}", R_OK},
	    {"draft-07", "{\"dependencies\":{\"a\":{\"required\":[\"b\"]}}}",
	        "{\"a\":1}", R_INVALID},
	    /* 2019-09 on: dependencies with its draft-07 meaning, beside
	     * dependentRequired both holding */
	    {"2020-12", "{\"dependencies\":{\"a\":[\"b\"]}}", "{\"a\":1}",
	        R_INVALID},
	    {"2019-09", "{\"dependencies\":{\"a\":{\"required\":[\"b\"]}}}",
	        "{\"a\":1}", R_INVALID},
	    {"2020-12",
	        "{\"dependencies\":{\"a\":[\"b\"]},"
	        "\"dependentRequired\":{\"a\":[\"c\"]}}",
	        "{\"a\":1,\"b\":1}", R_INVALID},
	    {"2020-12",
	        "{\"dependencies\":{\"a\":[\"b\"]},"
	        "\"dependentRequired\":{\"a\":[\"c\"]}}",
	        "{\"a\":1,\"c\":1}", R_INVALID},
	    {"2020-12", "{\"dependentRequired\":{\"a\":[\"b\"]}}", "{\"a\":1}",
	        R_INVALID},
	    {"2020-12", "{\"dependentSchemas\":{\"a\":{\"maxProperties\":1}}}",
	        "{\"a\":1,\"b\":2}", R_INVALID},
	    {"2020-12", "{\"dependentSchemas\":{\"a\":{\"maxProperties\":1}}}",
	        "{\"c\":1,\"b\":2}", R_OK},
	    /* borrowed into draft-07 with its 2019-09 meaning */
	    {"draft-07", "{\"dependentSchemas\":{}}", "{}", R_OK},
	    {"draft-07", "{\"dependentSchemas\":{\"a\":false}}", "{\"a\":1}",
	        R_INVALID},
	};

	RUN_DCASES(t);
}
END_TEST

START_TEST(unevaluated_keywords_see_through_applicators)
{
	static const struct dcase t[] = {
	    {NULL,
	        "{\"allOf\":[{\"properties\":{\"a\":true}}],"
	        "\"unevaluatedProperties\":false}",
	        "{\"a\":1}", R_OK},
	    {NULL,
	        "{\"allOf\":[{\"properties\":{\"a\":true}}],"
	        "\"unevaluatedProperties\":false}",
	        "{\"a\":1,\"b\":1}", R_INVALID},
	    /* additionalProperties false would reject a, allOf sees it */
	    {NULL,
	        "{\"anyOf\":[{\"properties\":{\"a\":true}},{\"properties\":"
	        "{\"b\":true}}],\"unevaluatedProperties\":false}",
	        "{\"a\":1,\"b\":1}", R_OK},
	    /* a failed branch's annotations are dropped */
	    {NULL,
	        "{\"anyOf\":[{\"properties\":{\"a\":{\"type\":\"string\"}}},"
	        "true],\"unevaluatedProperties\":false}",
	        "{\"a\":1}", R_INVALID},
	    /* not drops annotations */
	    {NULL,
	        "{\"not\":{\"not\":{\"properties\":{\"a\":true}}},"
	        "\"unevaluatedProperties\":false}",
	        "{\"a\":1}", R_INVALID},
	    {NULL,
	        "{\"if\":{\"properties\":{\"a\":{\"const\":1}}},"
	        "\"unevaluatedProperties\":false}",
	        "{\"a\":1}", R_OK},
	    {NULL,
	        "{\"if\":{\"properties\":{\"a\":{\"const\":1}}},"
	        "\"unevaluatedProperties\":false}",
	        "{\"a\":2}", R_INVALID},
	    {NULL,
	        "{\"$defs\":{\"p\":{\"properties\":{\"a\":true}}},\"$ref\":"
	        "\"#/$defs/p\",\"unevaluatedProperties\":false}",
	        "{\"a\":1}", R_OK},
	    {NULL,
	        "{\"allOf\":[{\"additionalProperties\":true}],"
	        "\"unevaluatedProperties\":false}",
	        "{\"z\":1}", R_OK},
	    {NULL, "{\"prefixItems\":[true],\"unevaluatedItems\":false}", "[1]",
	        R_OK},
	    {NULL, "{\"prefixItems\":[true],\"unevaluatedItems\":false}",
	        "[1,2]", R_INVALID},
	    /* contains evaluates items from 2020-12 on, not in 2019-09 */
	    {NULL,
	        "{\"contains\":{\"type\":\"string\"},"
	        "\"unevaluatedItems\":false}",
	        "[\"a\"]", R_OK},
	    {"2019-09",
	        "{\"contains\":{\"type\":\"string\"},"
	        "\"unevaluatedItems\":false}",
	        "[\"a\"]", R_INVALID},
	    /* borrowed into draft-07 with its 2019-09 meaning */
	    {"draft-07", "{\"unevaluatedItems\":false}", "[]", R_OK},
	    {"draft-07", "{\"unevaluatedItems\":false}", "[1]", R_INVALID},
	};

	RUN_DCASES(t);
}
END_TEST

START_TEST(dynamic_references_follow_the_dynamic_scope)
{
	/* the generic list of 2020-12 section 8.2.3.2, specialised */
	static const char list[] =
	    "{\"$id\":\"http://x/strings\",\"$ref\":\"list\",\"$defs\":{"
	    "\"s\":{\"$dynamicAnchor\":\"item\",\"type\":\"string\"},"
	    "\"list\":{\"$id\":\"list\",\"items\":{\"$dynamicRef\":"
	    "\"#item\"},\"$defs\":{\"any\":{\"$dynamicAnchor\":\"item\"}}}}}";
	static const char rec[] =
	    "{\"$schema\":\"https://json-schema.org/draft/2019-09/schema\","
	    "\"$id\":\"http://x/strict\",\"$recursiveAnchor\":true,"
	    "\"$ref\":\"tree\",\"unevaluatedProperties\":false,\"$defs\":{"
	    "\"t\":{\"$id\":\"tree\",\"$recursiveAnchor\":true,"
	    "\"properties\":{\"kids\":{\"items\":{\"$recursiveRef\":\"#\"}},"
	    "\"v\":true}}}}";
	static const struct dcase t[] = {
	    {NULL, list, "[\"a\",\"b\"]", R_OK},
	    {NULL, list, "[\"a\",1]", R_INVALID},
	    {NULL, rec, "{\"v\":1,\"kids\":[{\"v\":2}]}", R_OK},
	    {NULL, rec, "{\"v\":1,\"kids\":[{\"w\":2}]}", R_INVALID},
	    {"2020-12", "{\"$recursiveRef\":\"#\"}", "1", R_REFUSED},
	    {"2019-09", "{\"$dynamicRef\":\"#a\"}", "1", R_REFUSED},
	};

	RUN_DCASES(t);
}
END_TEST

START_TEST(content_is_enforced)
{
	static const char b64json[] =
	    "{\"contentEncoding\":\"base64\",\"contentMediaType\":"
	    "\"application/json\",\"contentSchema\":{\"required\":[\"a\"]}}";
	static const struct dcase t[] = {
	    {NULL, b64json, "\"eyJhIjoxfQ==\"", R_OK},  /* {"a":1} */
	    {NULL, b64json, "\"e30=\"", R_INVALID},     /* {} */
	    {NULL, b64json, "\"eyJhIjox\"", R_INVALID}, /* {"a":1 */
	    {NULL, b64json, "\"%%%\"", R_INVALID},
	    {NULL, "{\"contentEncoding\":\"base64url\"}", "\"-_8\"", R_OK},
	    {NULL, "{\"contentEncoding\":\"base64\"}", "\"-_8\"", R_INVALID},
	    {NULL, "{\"contentEncoding\":\"base64\"}", "\"YQ\"", R_INVALID},
	    {NULL, "{\"contentEncoding\":\"base64\"}", "1", R_OK},
	    {NULL, "{\"contentEncoding\":\"7bit\"}", "\"a\"", R_REFUSED},
	    {NULL, "{\"contentMediaType\":\"text/html\"}", "\"a\"", R_REFUSED},
	    {NULL, "{\"contentSchema\":true}", "\"a\"", R_REFUSED},
	    /* borrowed into draft-06 with its draft-07 meaning */
	    {"draft-06", "{\"contentEncoding\":\"base64\"}", "\"a\"",
	        R_INVALID},
	};

	RUN_DCASES(t);
}
END_TEST

START_TEST(annotations_are_x_names_known_or_declared)
{
	static const char *const ann[] = {"uiHint"};
	struct schema_opts o;
	struct arena a;
	const struct schema *s;
	struct schema_err err;
	static const struct dcase t[] = {
	    {NULL, "{\"x-order\":3,\"type\":\"string\"}", "\"a\"", R_OK},
	    {"draft-04", "{\"x-order\":3}", "1", R_OK},
	    {NULL, "{\"uiHint\":\"m\"}", "1", R_REFUSED},
	    /* a known tool's (schemas/annotations.json) */
	    {NULL, "{\"markdownDescription\":\"m\"}", "1", R_OK},
	    {"draft-04", "{\"tsType\":\"string\",\"type\":\"string\"}", "1",
	        R_INVALID},
	};

	RUN_DCASES(t);
	memset(&o, 0, sizeof(o));
	o.dialect = -1;
	o.annotations = ann;
	o.nannotations = 1;
	arena_init(&a, 1 << 20);
	ck_assert_int_eq(schema_compile_opts(parse_text(&a, "{\"uiHint\":1}"),
	                     &o, &a, &s, &err),
	    SCHEMA_OK);
	arena_free(&a);
}
END_TEST

START_TEST(builtin_meta_schemas_resolve_without_files)
{
	/* "this value is itself a schema": each dialect's meta-schema is
	 * built in (no file, no --refs) and judges a schema given as the
	 * instance; the nested cases go through the meta-schema's own
	 * references ($dynamicRef "meta" in v1, "#meta" in 2020-12) */
#define GOOD "{\"type\":\"string\",\"minLength\":1}"
#define BAD "{\"type\":12}"
#define NESTED_BAD "{\"properties\":{\"a\":{\"minLength\":-1}}}"
	static const struct dcase t[] = {
	    {"draft-04",
	        "{\"$ref\":\"http://json-schema.org/draft-04/schema#\"}", GOOD,
	        R_OK},
	    {"draft-04",
	        "{\"$ref\":\"http://json-schema.org/draft-04/schema#\"}", BAD,
	        R_INVALID},
	    {"draft-06",
	        "{\"$ref\":\"http://json-schema.org/draft-06/schema#\"}", GOOD,
	        R_OK},
	    {"draft-06",
	        "{\"$ref\":\"http://json-schema.org/draft-06/schema#\"}", BAD,
	        R_INVALID},
	    {"draft-07",
	        "{\"$ref\":\"http://json-schema.org/draft-07/schema#\"}", GOOD,
	        R_OK},
	    {"draft-07",
	        "{\"$ref\":\"http://json-schema.org/draft-07/schema#\"}", BAD,
	        R_INVALID},
	    {"2019-09",
	        "{\"$ref\":\"https://json-schema.org/draft/2019-09/schema\"}",
	        GOOD, R_OK},
	    {"2019-09",
	        "{\"$ref\":\"https://json-schema.org/draft/2019-09/schema\"}",
	        BAD, R_INVALID},
	    {"2020-12",
	        "{\"$ref\":\"https://json-schema.org/draft/2020-12/schema\"}",
	        GOOD, R_OK},
	    {"2020-12",
	        "{\"$ref\":\"https://json-schema.org/draft/2020-12/schema\"}",
	        BAD, R_INVALID},
	    {"2020-12",
	        "{\"$ref\":\"https://json-schema.org/draft/2020-12/schema\"}",
	        NESTED_BAD, R_INVALID},
	    {"v1", "{\"$ref\":\"https://json-schema.org/v1\"}", GOOD, R_OK},
	    {"v1", "{\"$ref\":\"https://json-schema.org/v1\"}", BAD, R_INVALID},
	    {"v1", "{\"$ref\":\"https://json-schema.org/v1\"}", NESTED_BAD,
	        R_INVALID},
	    {"v1", "{\"$ref\":\"https://json-schema.org/v1/meta/validation\"}",
	        "{\"minLength\":-1}", R_INVALID},
	    /* a v1 schema with a proposed keyword gpt.fcgi refuses, and the
	     * built-in meta-schema rejects it too (schemas/README) */
	    {"v1", "{\"$ref\":\"https://json-schema.org/v1\"}",
	        "{\"itemPattern\":[]}", R_INVALID},
	};
#undef GOOD
#undef BAD
#undef NESTED_BAD

	RUN_DCASES(t);
}
END_TEST

START_TEST(refs_load_local_copies_only_under_their_prefix)
{
	struct schema_refs r;
	struct arena a;
	const struct json_value *doc;
	char msg[128];

	schema_refs_init(&r);
	ck_assert_int_eq(schema_refs_add(&r, "http://h/=/nonexistent"), 0);
	ck_assert_int_eq(schema_refs_add(&r, "no-equals-sign"), -1);
	arena_init(&a, 1 << 20);
	ck_assert_int_eq(schema_refs_load(&r, "http://other/a.json", 19, &a,
	                     &doc, msg, sizeof(msg)),
	    1);
	ck_assert_int_eq(schema_refs_load(&r, "http://h/../etc/passwd", 22, &a,
	                     &doc, msg, sizeof(msg)),
	    -1);
	/* a missing copy under a prefix names where it was looked for */
	ck_assert_int_eq(schema_refs_load(&r, "http://h/a.json", 15, &a, &doc,
	                     msg, sizeof(msg)),
	    -1);
	ck_assert_str_eq(msg, "no file /nonexistent/a.json");
	arena_free(&a);
}
END_TEST

/* The registry's rows agree with themselves: every kw has a row, a
 * keyword with rows per vocabulary has one meaning, what holds subschemas
 * applies or holds them, and annotations set no flag. */
START_TEST(registry_rows_are_consistent)
{
	bool seen[KW_COUNT] = {false};
	size_t i;

	for (i = 0; i < schema_kw_rows(); i++) {
		const struct schema_kw_info *r = schema_kw_row(i);
		const struct schema_kw_info *first = schema_kw_info(r->kw);

		ck_assert_int_lt(r->kw, KW_COUNT);
		seen[r->kw] = true;
		ck_assert_str_eq(first->name, r->name);
		ck_assert_msg(
		    first->flag == r->flag && first->types == r->types &&
		        first->role == r->role && first->shape == r->shape,
		    "%s: rows disagree", r->name);
		if (r->shape != SCHEMA_KS_NONE)
			ck_assert_msg(r->role == SCHEMA_KR_APPLY ||
			                  r->role == SCHEMA_KR_CORE,
			    "%s holds subschemas", r->name);
		if (r->role == SCHEMA_KR_APPLY)
			ck_assert_msg(r->at != SCHEMA_KA_NONE && r->flag != 0,
			    "%s applies", r->name);
		if (r->role == SCHEMA_KR_ASSERT)
			ck_assert_msg(r->flag != 0 && r->types != 0,
			    "%s asserts", r->name);
		if (r->role == SCHEMA_KR_ANNOTATE || r->role == SCHEMA_KR_CORE)
			ck_assert_msg(r->flag == 0 && r->types == 0,
			    "%s constrains nothing", r->name);
	}
	for (i = 0; i < KW_COUNT; i++)
		ck_assert_msg(seen[i], "kw %zu has no row", i);
	ck_assert_ptr_nonnull(
	    schema_kw_find(SCHEMA_D_2020_12, "prefixItems", 11));
	/* a later keyword is found with its later row; a core one is not */
	ck_assert_ptr_nonnull(
	    schema_kw_find(SCHEMA_D_DRAFT07, "prefixItems", 11));
	ck_assert_int_eq(
	    schema_kw_borrowed(SCHEMA_D_DRAFT07, "prefixItems", 11),
	    SCHEMA_D_2020_12);
	ck_assert_int_eq(
	    schema_kw_borrowed(SCHEMA_D_DRAFT04, "const", 5), SCHEMA_D_DRAFT06);
	ck_assert_int_eq(schema_kw_borrowed(SCHEMA_D_2020_12, "const", 5), -1);
	ck_assert_ptr_null(schema_kw_find(SCHEMA_D_DRAFT07, "$anchor", 7));
	ck_assert_ptr_null(
	    schema_kw_find(SCHEMA_D_2020_12, "$recursiveRef", 13));
	ck_assert(schema_kw_is_annotation("title", 5));
	ck_assert(schema_kw_is_annotation("x-ui", 4));
	ck_assert(!schema_kw_is_annotation("minLength", 9));
	ck_assert(!schema_kw_is_annotation("titles", 6));
}
END_TEST

/* schemas/annotations.json: every row names its tool, its source, its
 * meaning and the date it was verified, and no keyword of any dialect. */
START_TEST(annotation_table_rows_are_complete)
{
	static const char *const fields[] = {
	    "keyword", "tool", "source", "meaning", "verified"};
	struct arena a;
	const struct json_value *doc, *rows;
	struct json_err err;
	const char *k, *tool;
	size_t i, f;

	arena_init(&a, (size_t)1 << 20);
	ck_assert_int_eq(
	    json_parse(schema_annot_text, schema_annot_len, &a, 0, &doc, &err),
	    JSON_OK);
	rows = json_object_get(doc, "annotations", 11);
	ck_assert_ptr_nonnull(rows);
	ck_assert_uint_ge(rows->u.arr.count, 20);
	for (i = 0; i < rows->u.arr.count; i++)
		for (f = 0; f < GPT_ARRAY_LEN(fields); f++) {
			const struct json_value *v =
			    json_object_get(&rows->u.arr.items[i], fields[f],
			        strlen(fields[f]));

			ck_assert_msg(v != NULL && v->type == JSON_T_STRING &&
			                  v->u.str.len > 0,
			    "row %zu lacks %s", i, fields[f]);
		}
	for (i = 0; schema_annot_at(i, &k, &tool) == 0; i++) {
		ck_assert_msg(schema_kw_dialect_of(k, strlen(k)) < 0,
		    "%s is a keyword of a dialect", k);
		ck_assert_str_eq(schema_annot_tool(k, strlen(k)), tool);
	}
	ck_assert_uint_eq(i, rows->u.arr.count);
	ck_assert_str_eq(
	    schema_annot_tool("markdownDescription", 19), "VS Code");
	ck_assert_ptr_null(schema_annot_tool("nullable", 8));
	ck_assert_ptr_null(schema_annot_tool("discriminator", 13));
	ck_assert_ptr_null(schema_annot_tool("markdown", 8));
	arena_free(&a);
}
END_TEST

static Suite *
suite_schema_dialect(void)
{
	Suite *s = suite_create("schema_dialect");
	TCase *k = tcase_create("Core");

	tcase_add_test(k, dialect_comes_from_schema_or_the_default);
	tcase_add_test(k, draft04_refuses_empty_and_repeating_lists);
	tcase_add_test(k, ids_follow_each_dialect);
	tcase_add_test(k, ref_siblings_are_applied_in_every_dialect);
	tcase_add_test(k, draft_04_exclusive_bounds_are_booleans);
	tcase_add_test(k, items_arrays_and_prefix_items_per_dialect);
	tcase_add_test(k, dependencies_split_into_required_and_schemas);
	tcase_add_test(k, unevaluated_keywords_see_through_applicators);
	tcase_add_test(k, dynamic_references_follow_the_dynamic_scope);
	tcase_add_test(k, content_is_enforced);
	tcase_add_test(k, annotations_are_x_names_known_or_declared);
	tcase_add_test(k, builtin_meta_schemas_resolve_without_files);
	tcase_add_test(k, refs_load_local_copies_only_under_their_prefix);
	tcase_add_test(k, registry_rows_are_consistent);
	tcase_add_test(k, annotation_table_rows_are_complete);
	suite_add_tcase(s, k);
	return s;
}

CHECK_MAIN(suite_schema_dialect)
