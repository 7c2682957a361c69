/*
 * check_schema_res.c: the resource layer of the compiler
 * (src/schema/schema_res.c): base URIs, embedded resources, anchors,
 * what a reference names, the documents a loader provides, and the
 * built-in meta-schemas.  Driven through schema_compile_opts and
 * schema_validate, the layer's only callers, so each row reads as the
 * form an operator writes.
 */
#include <stdio.h>
#include <string.h>

#include "check_schema.h"
#include "schema/schema_res.h"

/* --- what a reference names ----------------------------------------- */

static const struct vcase resolves[] = {
    /* an embedded resource, by its $id resolved against the root's */
    {"{\"$id\": \"https://x.example/root.json\", \"$defs\": {\"a\": {\"$id\": "
     "\"a.json\", \"type\": \"integer\"}}, \"$ref\": \"a.json\"}",
        "1", NULL, NULL},
    {"{\"$id\": \"https://x.example/root.json\", \"$defs\": {\"a\": {\"$id\": "
     "\"a.json\", \"type\": \"integer\"}}, \"$ref\": \"a.json\"}",
        "\"x\"", "type", ""},
    /* the same, by its absolute URI */
    {"{\"$id\": \"https://x.example/root.json\", \"$defs\": {\"a\": {\"$id\": "
     "\"a.json\", \"type\": \"integer\"}}, \"$ref\": "
     "\"https://x.example/a.json\"}",
        "\"x\"", "type", ""},
    /* a reference inside a resource resolves against that resource */
    {"{\"$id\": \"https://x.example/r/\", \"$defs\": {\"s\": {\"$id\": "
     "\"sub/\", \"$defs\": {\"b\": {\"$id\": \"b.json\", \"type\": "
     "\"null\"}}, \"$ref\": \"b.json\"}}, \"$ref\": \"sub/\"}",
        "1", "type", ""},
    /* a URN id */
    {"{\"$defs\": {\"a\": {\"$id\": \"urn:uuid:6e8bc430-9c3a-11d9-9669-"
     "0800200c9a66\", \"type\": \"string\"}}, \"$ref\": \"urn:uuid:"
     "6e8bc430-9c3a-11d9-9669-0800200c9a66\"}",
        "2", "type", ""},
    /* $anchor, and a pointer into the resource an anchor is in */
    {"{\"$defs\": {\"a\": {\"$anchor\": \"num\", \"type\": \"number\"}}, "
     "\"$ref\": \"#num\"}",
        "\"x\"", "type", ""},
    {"{\"$defs\": {\"a\": {\"$anchor\": \"num\", \"type\": \"number\"}}, "
     "\"$ref\": \"#num\"}",
        "1.5", NULL, NULL},
    /* JSON Pointer fragments: percent-decoded, then ~1 and ~0 */
    {"{\"$defs\": {\"a b\": {\"type\": \"null\"}}, \"$ref\": "
     "\"#/$defs/a%20b\"}",
        "1", "type", ""},
    {"{\"$defs\": {\"a/b~c\": {\"type\": \"null\"}}, \"$ref\": "
     "\"#/$defs/a~1b~0c\"}",
        "null", NULL, NULL},
    /* draft-07's "#name" id is an anchor */
    {"{\"$schema\": \"http://json-schema.org/draft-07/schema#\", "
     "\"definitions\": {\"a\": {\"$id\": \"#n\", \"type\": \"string\"}}, "
     "\"allOf\": [{\"$ref\": \"#n\"}]}",
        "1", "type", ""},
    /* a built-in meta-schema is a resource too: a form that is a schema */
    {"{\"$ref\": \"https://json-schema.org/draft/2020-12/schema\"}",
        "{\"type\": \"string\"}", NULL, NULL},
    {"{\"$ref\": \"https://json-schema.org/draft/2020-12/schema\"}",
        "{\"type\": 1}", "anyOf", "/type"},
};

START_TEST(schema_res_finds_what_each_reference_names)
{
	const struct vcase *c = &resolves[_i];
	struct schema_err err;
	enum schema_result r = run_validate(c->schema, c->instance, &err);

	if (c->keyword == NULL)
		ck_assert_msg(r == SCHEMA_OK, "%s against %s: rejected (%s)",
		    c->instance, c->schema, err.reason);
	else
		expect_invalid(c->schema, c->instance, c->keyword, c->pointer);
}
END_TEST

/* --- what refuses the form ------------------------------------------- */

static const struct {
	const char *schema, *pointer, *reason;
} refusals[] = {
    {"{\"$defs\": {\"a\": {\"$id\": \"https://x.example/a\"}, \"b\": "
     "{\"$id\": \"https://x.example/a\"}}}",
        "/$defs/b/$id", "declared twice"},
    {"{\"$schema\": \"https://example.com/nope\"}", "/$schema",
        "unknown dialect"},
    {"{\"$ref\": \"#/$defs/missing\"}", "/$ref", "names nothing"},
    {"{\"$id\": \"https://x.example/r\", \"$ref\": \"#nope\"}", "/$ref",
        "names nothing"},
    {"{\"$defs\": {\"a\": {\"$anchor\": \"1bad\"}}}", "/$defs/a/$anchor",
        "plain name"},
    {"{\"$ref\": \"https://example.com/ext.json\"}", "/$ref",
        "neither in the document nor provided"},
};

START_TEST(schema_res_refuses_what_names_nothing_or_twice)
{
	expect_refused(
	    refusals[_i].schema, refusals[_i].pointer, refusals[_i].reason);
}
END_TEST

/* --- documents a loader provides ------------------------------------- */

struct loader {
	unsigned calls;
	unsigned chain; /* > 0: doc N refers to doc N + 1, without end */
	char last[128];
};

static int
load_doc(void *ctx, const char *uri, size_t len, struct arena *a,
    const struct json_value **out, char *msg, size_t msglen)
{
	struct loader *l = ctx;
	char text[256];
	unsigned n;

	(void)msg;
	(void)msglen;
	l->calls++;
	snprintf(l->last, sizeof(l->last), "%.*s", (int)len, uri);
	if (l->chain > 0 &&
	    sscanf(l->last, "https://docs.example/%u.json", &n) == 1) {
		snprintf(text, sizeof(text),
		    "{\"$ref\": \"https://docs.example/%u.json\"}", n + 1);
		/* the tree borrows its strings from the text: the form's
		 * arena must hold it */
		*out = parse_text(a, arena_strndup(a, text, strlen(text)));
		return 0;
	}
	if (strcmp(l->last, "https://docs.example/int.json") == 0) {
		*out = parse_text(a, "{\"type\": \"integer\", \"$defs\": "
		                     "{\"s\": {\"type\": \"string\"}}}");
		return 0;
	}
	return 1;
}

static enum schema_result
compile_with(struct arena *a, const char *schema, struct loader *l,
    const struct schema **s, struct schema_err *err)
{
	struct schema_opts o;

	memset(&o, 0, sizeof(o));
	o.dialect = -1;
	o.load = load_doc;
	o.load_ctx = l;
	return schema_compile_opts(parse_text(a, schema), &o, a, s, err);
}

START_TEST(schema_res_loads_each_document_once_and_resolves_inside_it)
{
	struct arena a, req;
	struct loader l = {0};
	const struct schema *s = NULL;
	struct schema_err err;

	arena_init(&a, 64 << 20);
	arena_init(&req, 1 << 20);
	ck_assert_int_eq(
	    compile_with(&a,
	        "{\"type\": \"array\", \"prefixItems\": [{\"$ref\": "
	        "\"https://docs.example/int.json\"}, {\"$ref\": "
	        "\"https://docs.example/int.json#/$defs/s\"}]}",
	        &l, &s, &err),
	    SCHEMA_OK);
	ck_assert_uint_eq(l.calls, 1);
	ck_assert_int_eq(
	    schema_validate(s, parse_text(&req, "[1, \"a\"]"), &req, &err),
	    SCHEMA_OK);
	ck_assert_int_eq(
	    schema_validate(s, parse_text(&req, "[1, 2]"), &req, &err),
	    SCHEMA_INVALID);
	ck_assert_str_eq(err.pointer.buf, "/1");
	arena_free(&req);
	arena_free(&a);
}
END_TEST

START_TEST(schema_res_refuses_a_document_not_provided)
{
	struct arena a;
	struct loader l = {0};
	const struct schema *s = NULL;
	struct schema_err err;

	arena_init(&a, 64 << 20);
	ck_assert_int_eq(
	    compile_with(&a, "{\"$ref\": \"https://docs.example/none.json\"}",
	        &l, &s, &err),
	    SCHEMA_REFUSED);
	ck_assert_ptr_null(s);
	ck_assert_str_eq(l.last, "https://docs.example/none.json");
	ck_assert_ptr_nonnull(strstr(err.reason, "names nothing"));
	arena_free(&a);
}
END_TEST

START_TEST(schema_res_loads_at_most_schema_max_docs_documents)
{
	struct arena a;
	struct loader l = {.chain = 1};
	const struct schema *s = NULL;
	struct schema_err err;

	arena_init(&a, 256 << 20);
	ck_assert_int_eq(
	    compile_with(&a, "{\"$ref\": \"https://docs.example/0.json\"}", &l,
	        &s, &err),
	    SCHEMA_REFUSED);
	/* the one past the limit is loaded, then refused */
	ck_assert_uint_le(l.calls, SCHEMA_MAX_DOCS + 1);
	ck_assert_msg(strstr(err.reason, "documents referenced") != NULL,
	    "refused for \"%s\"", err.reason);
	arena_free(&a);
}
END_TEST

/* --- the built-in meta-schemas ---------------------------------------- */

START_TEST(schema_meta_text_finds_each_built_in_meta_schema_by_its_uri)
{
	size_t i, len = 0;

	ck_assert_uint_ge(schema_nmetas, 6);
	for (i = 0; i < schema_nmetas; i++) {
		const char *t = schema_meta_text(
		    schema_metas[i].uri, strlen(schema_metas[i].uri), &len);

		ck_assert_ptr_eq(t, schema_metas[i].text);
		ck_assert_uint_eq(len, schema_metas[i].len);
	}
	ck_assert_ptr_nonnull(schema_meta_text(
	    "https://json-schema.org/draft/2020-12/schema", 44, &len));
	ck_assert_ptr_null(schema_meta_text("https://example.com/x", 21, &len));
	/* the length is the URI's, not its NUL's */
	ck_assert_ptr_null(schema_meta_text(
	    "https://json-schema.org/draft/2020-12/schema", 43, &len));
}
END_TEST

static Suite *
suite_schema_res(void)
{
	Suite *s = suite_create("schema_res");
	TCase *tc = tcase_create("Core");

	tcase_add_loop_test(tc, schema_res_finds_what_each_reference_names, 0,
	    (int)GPT_ARRAY_LEN(resolves));
	tcase_add_loop_test(tc, schema_res_refuses_what_names_nothing_or_twice,
	    0, (int)GPT_ARRAY_LEN(refusals));
	tcase_add_test(
	    tc, schema_res_loads_each_document_once_and_resolves_inside_it);
	tcase_add_test(tc, schema_res_refuses_a_document_not_provided);
	tcase_add_test(tc, schema_res_loads_at_most_schema_max_docs_documents);
	tcase_add_test(
	    tc, schema_meta_text_finds_each_built_in_meta_schema_by_its_uri);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(suite_schema_res)
