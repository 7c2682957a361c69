/*
 * check_schema_compile.c: schema_compile accepts the contract's vocabulary
 * and refuses everything else (fail closed), naming the schema pointer and
 * the reason; $ref resolution; no-progress cycles; recursion warnings.
 */
#include <stdlib.h>

#include "base/buf.h"

#include "check_schema.h"
#include "schema/schema_int.h"

struct rcase {
	const char *schema;
	const char *pointer; /* where the refusal points, in the schema */
	const char *reason;  /* a phrase the reason contains */
};

static void
run_rcases(const struct rcase *t, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		expect_refused(t[i].schema, t[i].pointer, t[i].reason);
}

#define RUN_RCASES(t) run_rcases((t), GPT_ARRAY_LEN(t))

static void
expect_compiles(const char *schema)
{
	struct arena a;

	arena_init(&a, 64 << 20);
	compile_text(&a, schema, NULL);
	arena_free(&a);
}

START_TEST(compile_accepts_the_whole_vocabulary)
{
	static const char *const ok[] = {
	    "true",
	    "false",
	    "{}",
	    "{\"$schema\":\"https://json-schema.org/draft/2020-12/schema\","
	    "\"$id\":\"https://example.com/form\",\"$comment\":\"c\","
	    "\"title\":\"t\",\"description\":\"d\",\"default\":{\"x\":1},"
	    "\"examples\":[1,\"a\"],\"deprecated\":true,\"readOnly\":false,"
	    "\"writeOnly\":true}",
	    "{\"type\":[\"string\",\"integer\",\"null\"],\"enum\":[],"
	    "\"const\":null}",
	    "{\"properties\":{\"a\":true},\"required\":[],"
	    "\"additionalProperties\":{\"type\":\"string\"},"
	    "\"patternProperties\":{\"^x\":false},\"propertyNames\":"
	    "{\"maxLength\":3},\"minProperties\":0,\"maxProperties\":2.0,"
	    "\"dependentRequired\":{\"a\":[],\"b\":[\"a\",\"c\"]}}",
	    "{\"items\":{},\"prefixItems\":[true,false],\"minItems\":1e1,"
	    "\"maxItems\":1e400,\"uniqueItems\":false,\"contains\":true,"
	    "\"minContains\":0,\"maxContains\":3}",
	    "{\"minLength\":0,\"maxLength\":10,\"pattern\":\"^[a-z]+$\","
	    "\"minimum\":-1e-30,\"maximum\":1e30,\"exclusiveMinimum\":0,"
	    "\"exclusiveMaximum\":100.5,\"multipleOf\":0.01}",
	    "{\"anyOf\":[true],\"allOf\":[{}],\"oneOf\":[false,true],"
	    "\"not\":false,\"if\":true,\"then\":{},\"else\":false}",
	    "{\"then\":{\"type\":\"string\"},\"else\":true}",
	    "{\"$defs\":{\"a\":{\"$ref\":\"#/$defs/b\"},\"b\":true},"
	    "\"$ref\":\"#\\/$defs/a\"}",
	    "{\"$defs\":{}}",
	    "{\"$id\":\"https://example.com/form#\"}",
	    "{\"properties\":{\"$ref\":{\"type\":\"string\"},"
	    "\"type\":{\"$ref\":\"#/$defs/t\"}},\"$defs\":{\"t\":{}}}",
	};
	size_t i;

	for (i = 0; i < GPT_ARRAY_LEN(ok); i++)
		expect_compiles(ok[i]);
}
END_TEST

START_TEST(compile_refuses_unknown_keywords_anywhere)
{
	static const struct rcase t[] = {
	    {"{\"minLenght\":1}", "/minLenght", "unknown keyword"},
	    {"{\"properties\":{\"a\":{\"foo\":1}}}", "/properties/a/foo",
	        "unknown keyword \"foo\""},
	    {"{\"items\":{\"unevaluatedItem\":false}}",
	        "/items/unevaluatedItem", "did you mean unevaluatedItems?"},
	    {"{\"$defs\":{\"x\":{\"bad\":1}}}", "/$defs/x/bad",
	        "unknown keyword"},
	    {"{\"$recursiveRef\":\"#\"}", "/$recursiveRef",
	        "not part of 2020-12"},
	    {"{\"nullable\":true}", "/nullable", "[T, \"null\"]"},
	    {"{\"uiHint\":\"x\"}", "/uiHint", "annotations = NAME"},
	    {"{\"allOf\":[{\"a~b/c\":1}]}", "/allOf/0/a~0b~1c",
	        "unknown keyword"},
	    {"{\"a\\nb\":1}", "/a\nb", "unknown keyword \"a?b\""},
	};

	RUN_RCASES(t);
}
END_TEST

/* Found by fuzz_validate: a keyword holding U+0000.  The pointer keeps
 * all its bytes (len counts past the NUL); the reason is printable. */
START_TEST(compile_reports_a_keyword_holding_nul_by_length)
{
	static const char schema[] = "{\"contains\":{\"min\\u0000x\":3}}";
	struct arena a;
	const struct schema *s = NULL;
	struct schema_err err;

	arena_init(&a, 1 << 20);
	ck_assert_int_eq(
	    schema_compile(parse_text(&a, schema), &a, NULL, NULL, &s, &err),
	    SCHEMA_REFUSED);
	ck_assert_uint_eq(err.pointer.len, strlen("/contains/min") + 2);
	ck_assert_int_eq(memcmp(err.pointer.buf, "/contains/min\0x", 16), 0);
	ck_assert_int_eq(err.pointer.buf[err.pointer.len], '\0');
	ck_assert_msg(strncmp(err.reason, "unknown keyword \"min?x\"", 23) == 0,
	    "reason: %s", err.reason);
	arena_free(&a);
}
END_TEST

START_TEST(compile_refuses_malformed_values)
{
	static const struct rcase t[] = {
	    {"1", "", "object or a boolean"},
	    {"[]", "", "object or a boolean"},
	    {"{\"type\":\"strnig\"}", "/type", "unknown type"},
	    {"{\"type\":1}", "/type", "unknown type"},
	    {"{\"type\":[]}", "/type", "empty"},
	    {"{\"type\":[\"string\",\"string\"]}", "/type/1", "repeats"},
	    {"{\"type\":[\"string\",\"int\"]}", "/type/1", "unknown type"},
	    {"{\"enum\":1}", "/enum", "array"},
	    {"{\"minLength\":-1}", "/minLength", "non-negative integer"},
	    {"{\"minLength\":1.5}", "/minLength", "non-negative integer"},
	    {"{\"maxLength\":\"1\"}", "/maxLength", "non-negative integer"},
	    {"{\"minItems\":null}", "/minItems", "non-negative integer"},
	    {"{\"maxItems\":-0.5}", "/maxItems", "non-negative integer"},
	    {"{\"minProperties\":true}", "/minProperties", "non-negative"},
	    {"{\"maxProperties\":-1}", "/maxProperties", "non-negative"},
	    {"{\"minContains\":-1}", "/minContains", "non-negative"},
	    {"{\"maxContains\":\"1\"}", "/maxContains", "non-negative"},
	    {"{\"minLength\":1e9999999999999}", "/minLength", "range"},
	    {"{\"minimum\":\"0\"}", "/minimum", "must be a number"},
	    {"{\"maximum\":null}", "/maximum", "must be a number"},
	    {"{\"exclusiveMinimum\":true}", "/exclusiveMinimum", "number"},
	    {"{\"exclusiveMaximum\":[]}", "/exclusiveMaximum", "number"},
	    {"{\"multipleOf\":0}", "/multipleOf", "> 0"},
	    {"{\"multipleOf\":-1}", "/multipleOf", "> 0"},
	    {"{\"multipleOf\":0.0e5}", "/multipleOf", "> 0"},
	    {"{\"pattern\":1}", "/pattern", "string"},
	    {"{\"pattern\":\"(\"}", "/pattern", "invalid pattern"},
	    {"{\"patternProperties\":{\"(\":{}}}", "/patternProperties/(",
	        "invalid pattern"},
	    {"{\"patternProperties\":[]}", "/patternProperties", "object"},
	    {"{\"patternProperties\":{\"a\":1}}", "/patternProperties/a",
	        "object or a boolean"},
	    {"{\"properties\":[]}", "/properties", "object"},
	    {"{\"properties\":{\"a\":1}}", "/properties/a",
	        "object or a boolean"},
	    {"{\"required\":\"a\"}", "/required", "array of strings"},
	    {"{\"required\":[1]}", "/required/0", "strings"},
	    {"{\"required\":[\"a\",\"b\",\"a\"]}", "/required/2", "repeats"},
	    {"{\"dependentRequired\":[]}", "/dependentRequired", "object"},
	    {"{\"dependentRequired\":{\"a\":\"b\"}}", "/dependentRequired/a",
	        "array of strings"},
	    {"{\"dependentRequired\":{\"a\":[\"b\",\"b\"]}}",
	        "/dependentRequired/a/1", "repeats"},
	    {"{\"dependentRequired\":{\"a\":[null]}}", "/dependentRequired/a/0",
	        "strings"},
	    {"{\"anyOf\":[]}", "/anyOf", "empty"},
	    {"{\"allOf\":{}}", "/allOf", "array of schemas"},
	    {"{\"oneOf\":[1]}", "/oneOf/0", "object or a boolean"},
	    {"{\"prefixItems\":[]}", "/prefixItems", "empty"},
	    {"{\"items\":[{}]}", "/items", "object or a boolean"},
	    {"{\"not\":\"x\"}", "/not", "object or a boolean"},
	    {"{\"if\":null}", "/if", "object or a boolean"},
	    {"{\"then\":1}", "/then", "object or a boolean"},
	    {"{\"else\":[]}", "/else", "object or a boolean"},
	    {"{\"contains\":0}", "/contains", "object or a boolean"},
	    {"{\"additionalProperties\":\"no\"}", "/additionalProperties",
	        "object or a boolean"},
	    {"{\"propertyNames\":1}", "/propertyNames", "object or"},
	    {"{\"uniqueItems\":1}", "/uniqueItems", "boolean"},
	    {"{\"$defs\":[]}", "/$defs", "object"},
	    {"{\"$defs\":{\"a\":2}}", "/$defs/a", "object or a boolean"},
	    {"{\"title\":1}", "/title", "string"},
	    {"{\"description\":null}", "/description", "string"},
	    {"{\"$comment\":5}", "/$comment", "string"},
	    {"{\"examples\":{}}", "/examples", "array"},
	    {"{\"deprecated\":1}", "/deprecated", "boolean"},
	    {"{\"readOnly\":\"yes\"}", "/readOnly", "boolean"},
	    {"{\"writeOnly\":null}", "/writeOnly", "boolean"},
	};

	RUN_RCASES(t);
}
END_TEST

START_TEST(compile_refuses_other_dialects_ids_and_formats)
{
	static const struct rcase t[] = {
	    {"{\"$schema\":\"http://json-schema.org/draft-03/schema#\"}",
	        "/$schema", "unknown dialect"},
	    {"{\"$schema\":1}", "/$schema", "URI"},
	    {"{\"$defs\":{\"a\":{\"$id\":\"https://x/a\"},\"b\":{\"$id\":"
	     "\"https://x/a\"}}}",
	        "/$defs/b/$id", "declared twice"},
	    {"{\"$id\":\"https://example.com/x#frag\"}", "/$id", "fragment"},
	    {"{\"$anchor\":\"#a\"}", "/$anchor", "plain name"},
	    {"{\"$id\":1}", "/$id", "URI"},
	    {"{\"format\":\"e-mail\"}", "/format", "unknown format"},
	    {"{\"format\":\"datetime\"}", "/format", "unknown format"},
	    {"{\"items\":{\"format\":\"UUID\"}}", "/items/format",
	        "unknown format"},
	    {"{\"format\":1}", "/format", "string"},
	};

	RUN_RCASES(t);
}
END_TEST

START_TEST(compile_refuses_remote_dangling_and_malformed_refs)
{
	static const struct rcase t[] = {
	    {"{\"$ref\":\"https://example.com/s.json\"}", "/$ref",
	        "neither in the document nor provided"},
	    {"{\"$ref\":\"other.json#/a\"}", "/$ref", "neither"},
	    {"{\"$ref\":\"#anchor\"}", "/$ref", "names nothing"},
	    {"{\"$ref\":\"/$defs/a\",\"$defs\":{\"a\":true}}", "/$ref",
	        "neither"},
	    {"{\"$ref\":1}", "/$ref", "URI reference"},
	    /* a relative root $id: no base to resolve against (this
	     * was reported as running out of memory) */
	    {"{\"$id\":\"foo/\",\"items\":{\"$ref\":\"a.json\"}}",
	        "/items/$ref", "is not absolute"},
	    {"{\"$ref\":\"#/$defs/missing\"}", "/$ref", "names nothing"},
	    {"{\"properties\":{\"a\":{\"$ref\":\"#/$defs/missing\"}},"
	     "\"$defs\":{}}",
	        "/properties/a/$ref", "names nothing"},
	    {"{\"$ref\":\"#/$defs/a%zz\",\"$defs\":{}}", "/$ref",
	        "malformed escape"},
	    {"{\"$ref\":\"#/$defs/a%2\",\"$defs\":{}}", "/$ref",
	        "malformed escape"},
	    {"{\"$ref\":\"#/$defs/a~2\",\"$defs\":{}}", "/$ref",
	        "malformed escape"},
	    {"{\"$ref\":\"#/$defs/a%7E\",\"$defs\":{}}", "/$ref",
	        "malformed escape"},
	    {"{\"$ref\":\"#%41\"}", "/$ref", "names nothing"},
	    /* RFC 6901 section 6: %2F is a separator, not a "/" in a name */
	    {"{\"$ref\":\"#/$defs/x%2Fnot\",\"$defs\":{\"x/not\":true}}",
	        "/$ref", "names nothing"},
	    /* Messages about a target name its decoded pointer. */
	    {"{\"$ref\":\"#/$defs/x%2Fminimum\","
	     "\"$defs\":{\"x\":{\"minimum\":1}}}",
	        "/$defs/x/minimum", "object or a boolean"},
	    {"{\"$ref\":\"#/items/01\",\"items\":true}", "/$ref",
	        "names nothing"},
	    {"{\"$ref\":\"#/required\",\"required\":[]}", "/required",
	        "object or a boolean"},
	    {"{\"$ref\":\"#/properties\",\"properties\":{\"a\":true}}",
	        "/properties/a", "unknown keyword"},
	    {"{\"$ref\":\"#/$defs/x\",\"$defs\":{\"x\":{\"bad\":1}}}",
	        "/$defs/x/bad", "unknown keyword"},
	};

	RUN_RCASES(t);
}
END_TEST

/*
 * A $ref's fragment is percent-decoded, then read as a JSON Pointer (RFC
 * 6901 section 6), then each token's ~1 and ~0 unescaped: x%2Fnot is
 * $defs.x.not (the `not` of x), x~1not is $defs["x/not"].
 */
START_TEST(compile_resolves_refs_by_the_percent_decoded_pointer)
{
	static const char defs[] =
	    "{\"$defs\":{\"x\":{\"not\":{\"type\":\"string\"}},"
	    "\"x/not\":{\"type\":\"integer\"},\"%\":{\"type\":\"boolean\"},"
	    "\"~1\":{\"type\":\"null\"}},\"properties\":{"
	    "\"a\":{\"$ref\":\"#/$defs/x%2Fnot\"},"
	    "\"b\":{\"$ref\":\"#/$defs/x~1not\"},"
	    "\"c\":{\"$ref\":\"#/$defs/%25\"},"
	    "\"d\":{\"$ref\":\"#/$defs/x%7E1not\"},"
	    "\"e\":{\"$ref\":\"#/$defs/%7E01\"},"
	    "\"f\":{\"$ref\":\"#%2F$defs%2Fx/not\"}}}";
	static const struct vcase t[] = {
	    {defs, "{\"a\":\"s\"}", NULL, NULL},
	    {defs, "{\"a\":1}", "type", "/a"},
	    {defs, "{\"b\":1}", NULL, NULL},
	    {defs, "{\"b\":\"s\"}", "type", "/b"},
	    {defs, "{\"c\":true}", NULL, NULL},
	    {defs, "{\"c\":1}", "type", "/c"},
	    {defs, "{\"d\":1}", NULL, NULL},
	    {defs, "{\"d\":\"s\"}", "type", "/d"},
	    {defs, "{\"e\":null}", NULL, NULL},
	    {defs, "{\"e\":1}", "type", "/e"},
	    {defs, "{\"f\":\"s\"}", NULL, NULL},
	    {defs, "{\"f\":1}", "type", "/f"},
	};

	RUN_VCASES(t);
}
END_TEST

START_TEST(compile_refuses_ref_cycles_that_make_no_progress)
{
	static const struct rcase t[] = {
	    {"{\"$ref\":\"#\"}", "", "cycle"},
	    {"{\"$defs\":{\"a\":{\"$ref\":\"#/$defs/b\"},\"b\":{\"$ref\":"
	     "\"#/$defs/a\"}},\"$ref\":\"#/$defs/a\"}",
	        "/$defs/", "cycle"},
	    {"{\"$defs\":{\"a\":{\"allOf\":[{\"$ref\":\"#/$defs/a\"}]}}}",
	        "/$defs/a", "cycle"},
	    {"{\"anyOf\":[{\"type\":\"string\"},{\"$ref\":\"#\"}]}", "",
	        "cycle"},
	    {"{\"oneOf\":[{\"$ref\":\"#\"}]}", "", "cycle"},
	    {"{\"not\":{\"$ref\":\"#\"}}", "", "cycle"},
	    {"{\"if\":{\"$ref\":\"#\"},\"then\":true}", "", "cycle"},
	    {"{\"if\":true,\"then\":{\"$ref\":\"#\"}}", "", "cycle"},
	    {"{\"if\":false,\"else\":{\"$ref\":\"#\"}}", "", "cycle"},
	    {"{\"$defs\":{\"a\":{\"$ref\":\"#/$defs/a\"}}}", "/$defs/a",
	        "cycle"},
	    /* an if without then or else asserts nothing, yet its
	     * annotations count for unevaluated*: the cycle search walks
	     * the compiler's edges, which keep it */
	    {"{\"if\":{\"$ref\":\"#\"},\"unevaluatedProperties\":false}", "",
	        "cycle"},
	    {"{\"if\":{\"$ref\":\"#\"}}", "", "cycle"},
	    /* the in-place cycle is found past edges into the instance */
	    {"{\"properties\":{\"a\":{\"$ref\":\"#\"}},\"items\":{\"$ref\":"
	     "\"#\"},\"not\":{\"$ref\":\"#\"}}",
	        "", "cycle"},
	};
	size_t i;

	/* The pointer names a node on the cycle; which one depends on the
	 * walk, so compare only a prefix for the two-node cycle. */
	for (i = 0; i < GPT_ARRAY_LEN(t); i++) {
		struct arena a;
		const struct schema *s = NULL;
		struct schema_err err;

		arena_init(&a, 1 << 20);
		ck_assert_msg(schema_compile(parse_text(&a, t[i].schema), &a,
		                  NULL, NULL, &s, &err) == SCHEMA_REFUSED,
		    "cycle %s not refused", t[i].schema);
		ck_assert_msg(strncmp(err.pointer.buf, t[i].pointer,
		                  strlen(t[i].pointer)) == 0,
		    "cycle %s refused at %s", t[i].schema, err.pointer.buf);
		ck_assert_msg(strstr(err.reason, t[i].reason) != NULL,
		    "cycle %s refused for %s", t[i].schema, err.reason);
		ck_assert_str_eq(err.keyword, "$ref");
		arena_free(&a);
	}
}
END_TEST

START_TEST(compile_warns_about_recursion_through_the_instance)
{
	static const struct {
		const char *schema;
		int warnings;
	} t[] = {
	    {"{\"type\":\"string\"}", 0},
	    {"{\"$defs\":{\"a\":{\"type\":\"integer\"}},\"allOf\":[{\"$ref\":"
	     "\"#/$defs/a\"},{\"$ref\":\"#/$defs/a\"}]}",
	        0},
	    {"{\"properties\":{\"a\":{\"$ref\":\"#\"}}}", 1},
	    {"{\"items\":{\"$ref\":\"#\"}}", 1},
	    {"{\"additionalProperties\":{\"anyOf\":[{\"$ref\":\"#\"}]}}", 1},
	    {"{\"$defs\":{\"n\":{\"prefixItems\":[{\"$ref\":\"#/$defs/n\"}]}}}",
	        1},
	    {"{\"contains\":{\"$ref\":\"#\"},\"propertyNames\":{\"$ref\":"
	     "\"#/$defs/s\"},\"$defs\":{\"s\":{\"type\":\"string\"}}}",
	        1},
	    /* two paths back to one definition: one warning, at it */
	    {"{\"$defs\":{\"a\":{\"anyOf\":[{\"items\":{\"$ref\":"
	     "\"#/$defs/a\"}},{\"items\":{\"$ref\":\"#/$defs/a\"}}]}},"
	     "\"$ref\":\"#/$defs/a\"}",
	        1},
	};
	size_t i;

	for (i = 0; i < GPT_ARRAY_LEN(t); i++) {
		struct arena a;
		struct warnings w = {0, ""};

		arena_init(&a, 1 << 20);
		compile_text(&a, t[i].schema, &w);
		ck_assert_msg(w.count == t[i].warnings,
		    "%s: %d warnings (%s), expected %d", t[i].schema, w.count,
		    w.last, t[i].warnings);
		if (w.count > 0)
			ck_assert_msg(
			    strstr(w.last, "unbounded recursion") != NULL,
			    "%s: warning %s", t[i].schema, w.last);
		arena_free(&a);
	}
}
END_TEST

START_TEST(compile_refuses_forms_nested_past_the_depth_limit)
{
	size_t n = SCHEMA_MAX_DEPTH + 5, i;
	char *s = malloc(n * 8 + 8), *p = s;

	ck_assert_ptr_nonnull(s);
	for (i = 0; i < n; i++)
		p += sprintf(p, "{\"not\":");
	p += sprintf(p, "true");
	for (i = 0; i < n; i++)
		*p++ = '}';
	*p = '\0';
	{
		struct arena a;
		const struct schema *out = NULL;
		struct schema_err err;

		arena_init(&a, 64 << 20);
		ck_assert_int_eq(schema_compile(parse_text(&a, s), &a, NULL,
		                     NULL, &out, &err),
		    SCHEMA_REFUSED);
		ck_assert_ptr_nonnull(strstr(err.reason, "nests deeper"));
		arena_free(&a);
	}
	free(s);
}
END_TEST

START_TEST(compile_reports_nomem_when_the_arena_refuses)
{
	struct arena big, tiny;
	const struct schema *s = NULL;
	struct schema_err err;
	const struct json_value *v;
	enum schema_result r;

	arena_init(&big, 1 << 20);
	arena_init(&tiny, 64);
	v = parse_text(&big, "{\"properties\":{\"a\":{\"type\":\"string\"}}}");
	r = schema_compile(v, &tiny, NULL, NULL, &s, &err);
	ck_assert_int_eq(r, SCHEMA_NOMEM);
	ck_assert_ptr_null(s);
	arena_free(&tiny);
	arena_free(&big);
}
END_TEST

START_TEST(compile_memoizes_each_schema_location_once)
{
	struct arena a;
	const struct schema *s;

	arena_init(&a, 1 << 20);
	/* Three refs to one definition: one node for it, not three. */
	s = compile_text(&a,
	    "{\"$defs\":{\"x\":{\"type\":\"integer\"}},\"properties\":{"
	    "\"a\":{\"$ref\":\"#/$defs/x\"},\"b\":{\"$ref\":\"#/$defs/x\"},"
	    "\"c\":{\"$ref\":\"#/$defs/x\"}}}",
	    NULL);
	/* root, x, a, b, c */
	ck_assert_uint_eq(s->nnodes, 5);
	arena_free(&a);
}
END_TEST

/* schema_compile.c, built into this test with -DGPT_TEST. */
extern size_t schema_test_ref_hops;

/* {"$ref": "#/$defs/d0", "$defs": {"d0": {"$ref": "#/$defs/d1"}, ...,
 * "dN": {"type": "string"}}}, with a property per link pointing into it. */
static char *
ref_chain(size_t n)
{
	struct buf b;
	char piece[96];
	size_t i;

	buf_init(&b, (size_t)64 << 20);
	ck_assert_int_eq(
	    buf_puts(&b, "{\"$ref\":\"#/$defs/d0\",\"$defs\":{"), 0);
	for (i = 0; i < n; i++) {
		snprintf(piece, sizeof(piece),
		    "\"d%zu\":{\"$ref\":\"#/$defs/d%zu\"},", i, i + 1);
		ck_assert_int_eq(buf_puts(&b, piece), 0);
	}
	snprintf(piece, sizeof(piece),
	    "\"d%zu\":{\"type\":\"string\"}},\"properties\":{", n);
	ck_assert_int_eq(buf_puts(&b, piece), 0);
	for (i = 0; i < n; i++) {
		snprintf(piece, sizeof(piece),
		    "%s\"p%zu\":{\"$ref\":\"#/$defs/d%zu\"}", i > 0 ? "," : "",
		    i, i);
		ck_assert_int_eq(buf_puts(&b, piece), 0);
	}
	ck_assert_int_eq(buf_puts(&b, "}}"), 0);
	return buf_take(&b, NULL); /* the caller frees */
}

/*
 * Linking past a chain of pure-$ref nodes walks the chain once: 2 hops
 * per link, then 2 per pointer into it (here 3 per link: the chain's own,
 * a property's, the root's slot for that property), whatever the chain's
 * length; following it afresh from each pointer cost n^2 hops (6,000,000
 * here, and 48 s at load for a chain of 50,000).
 */
START_TEST(compile_links_past_a_ref_chain_in_linear_work)
{
	static const size_t lengths[] = {1, 10, 2000};
	struct arena a;
	const struct schema *s;
	size_t i;

	for (i = 0; i < GPT_ARRAY_LEN(lengths); i++) {
		size_t n = lengths[i];
		char *text = ref_chain(n);

		arena_init(&a, (size_t)256 << 20);
		schema_test_ref_hops = 0;
		s = compile_text(&a, text, NULL);
		ck_assert_msg(schema_test_ref_hops <= 10 * n + 10,
		    "a chain of %zu refs took %zu hops", n,
		    schema_test_ref_hops);
		/* The root leads straight to the end of the chain. */
		ck_assert_ptr_nonnull(s->root->ref);
		ck_assert_uint_eq(s->root->ref->flags, SF_TYPE);
		arena_free(&a);
		expect_valid(text, "\"x\"");
		expect_invalid(text, "1", "type", "");
		free(text);
	}
}
END_TEST

/* schema_anchor.c, built into this test with -DGPT_TEST. */
extern uint64_t schema_test_anchor_probes;

/* {"$defs": {"d0": {kw: "a0", "type": "integer"}, ..., "dN-1": ...},
 * "properties": {"first": {"$ref": "#a0"}, "last": {"$ref": "#aN-1"}}}:
 * n anchors in one resource, and references to the first and the last. */
static char *
anchor_form(size_t n, const char *kw)
{
	struct buf b;
	char piece[128];
	size_t i;

	buf_init(&b, (size_t)64 << 20);
	ck_assert_int_eq(buf_puts(&b, "{\"$defs\":{"), 0);
	for (i = 0; i < n; i++) {
		snprintf(piece, sizeof(piece),
		    "%s\"d%zu\":{\"%s\":\"a%zu\",\"type\":\"integer\"}",
		    i > 0 ? "," : "", i, kw, i);
		ck_assert_int_eq(buf_puts(&b, piece), 0);
	}
	snprintf(piece, sizeof(piece),
	    "},\"properties\":{\"first\":{\"$ref\":\"#a0\"},"
	    "\"last\":{\"$ref\":\"#a%zu\"}}}",
	    n - 1);
	ck_assert_int_eq(buf_puts(&b, piece), 0);
	return buf_take(&b, NULL); /* the caller frees */
}

/*
 * Declaring n anchors in one resource looks at about n slots of its index
 * (a keyed hash table, at most half full): checking each new name against
 * every name before it cost n^2 / 2 comparisons, 203,000 anchors 132 s at
 * load.  The bound allows 4 slots a name, for the declaration and the two
 * references; the references still find their anchors.
 */
START_TEST(compile_indexes_anchors_in_linear_work)
{
	static const size_t lengths[] = {1, 100, 20000};
	static const char *const kws[] = {"$anchor", "$dynamicAnchor"};
	struct arena a;
	size_t i, k;

	for (k = 0; k < GPT_ARRAY_LEN(kws); k++)
		for (i = 0; i < GPT_ARRAY_LEN(lengths); i++) {
			size_t n = lengths[i];
			char *text = anchor_form(n, kws[k]);

			arena_init(&a, (size_t)256 << 20);
			schema_test_anchor_probes = 0;
			(void)compile_text(&a, text, NULL);
			ck_assert_msg(schema_test_anchor_probes <= 4 * n + 8,
			    "%zu anchors (%s) looked at %llu slots", n, kws[k],
			    (unsigned long long)schema_test_anchor_probes);
			arena_free(&a);
			expect_valid(text, "{\"first\":1,\"last\":2}");
			expect_invalid(
			    text, "{\"last\":\"x\"}", "type", "/last");
			expect_invalid(
			    text, "{\"first\":\"x\"}", "type", "/first");
			free(text);
		}
}
END_TEST

/* The index keeps the rules of the lists it replaced: a name declared
 * twice in a resource refuses, the same name in two resources does not,
 * one schema may say $anchor and $dynamicAnchor of one name, and "#%41"
 * names the anchor "A". */
START_TEST(compile_anchor_index_keeps_the_rules)
{
	expect_refused("{\"$defs\":{\"a\":{\"$anchor\":\"x\"},"
	               "\"b\":{\"$anchor\":\"x\"}}}",
	    "/$defs/b/$anchor", "declared twice");
	expect_refused("{\"$defs\":{\"a\":{\"$anchor\":\"x\"},"
	               "\"b\":{\"$dynamicAnchor\":\"x\"}}}",
	    "/$defs/b/$dynamicAnchor", "declared twice");
	expect_valid("{\"$defs\":{\"a\":{\"$id\":\"https://x/a\","
	             "\"$anchor\":\"x\"},\"b\":{\"$id\":\"https://x/b\","
	             "\"$anchor\":\"x\",\"type\":\"integer\"}},"
	             "\"$ref\":\"https://x/b#x\"}",
	    "1");
	expect_invalid("{\"$defs\":{\"a\":{\"$id\":\"https://x/a\","
	               "\"$anchor\":\"x\"},\"b\":{\"$id\":\"https://x/b\","
	               "\"$anchor\":\"x\",\"type\":\"integer\"}},"
	               "\"$ref\":\"https://x/b#x\"}",
	    "\"s\"", "type", "");
	expect_valid("{\"$defs\":{\"a\":{\"$anchor\":\"x\","
	             "\"$dynamicAnchor\":\"x\",\"type\":\"integer\"}},"
	             "\"$ref\":\"#x\"}",
	    "1");
	expect_invalid("{\"$defs\":{\"a\":{\"$anchor\":\"A\","
	               "\"type\":\"integer\"}},\"$ref\":\"#%41\"}",
	    "\"s\"", "type", "");
	expect_refused("{\"$defs\":{\"a\":{\"$anchor\":\"A\"}},"
	               "\"$ref\":\"#B\"}",
	    "/$ref", "names nothing");
}
END_TEST

/* What the compiler plans for the root of a form: the types it accepts
 * outright (bit per enum json_type) and the string lengths it accepts
 * without being applied (lo > hi: none). */
struct pcase {
	const char *schema;
	uint32_t accepts;
	size_t lo, hi;
};

#define T(t) (1u << (t))
#define ALL ((1u << SCHEMA_NJSON_TYPES) - 1)
#define ALL_BUT(t) (ALL & ~T(t))

static void
expect_plan(const struct pcase *c)
{
	struct arena a;
	const struct schema *s;
	const struct schema_node *n;

	arena_init(&a, 1 << 20);
	s = compile_text(&a, c->schema, NULL);
	n = s->root;
	ck_assert_msg(n->accepts == c->accepts,
	    "%s: accepts types 0x%x, expected 0x%x", c->schema,
	    (unsigned)n->accepts, (unsigned)c->accepts);
	if (c->lo > c->hi)
		ck_assert_msg(n->accept_min > n->accept_max,
		    "%s: accepts strings of %zu to %zu code points, expected "
		    "none",
		    c->schema, n->accept_min, n->accept_max);
	else
		ck_assert_msg(n->accept_min == c->lo && n->accept_max == c->hi,
		    "%s: accepts strings of %zu to %zu code points, expected "
		    "%zu to %zu",
		    c->schema, n->accept_min, n->accept_max, c->lo, c->hi);
	arena_free(&a);
}

START_TEST(compile_plans_what_each_node_accepts_without_work)
{
	static const struct pcase t[] = {
	    {"true", ALL, 0, SIZE_MAX},
	    {"{}", ALL, 0, SIZE_MAX},
	    {"false", 0, 1, 0},
	    {"{\"type\":\"string\"}", T(JSON_T_STRING), 0, SIZE_MAX},
	    {"{\"minimum\":0}", ALL_BUT(JSON_T_NUMBER), 0, SIZE_MAX},
	    {"{\"type\":\"integer\"}", 0, 1, 0},
	    {"{\"type\":\"string\",\"minLength\":2,\"maxLength\":5}", 0, 2, 5},
	    {"{\"maxLength\":5}", ALL_BUT(JSON_T_STRING), 0, 5},
	    {"{\"type\":\"string\",\"pattern\":\"^a\"}", 0, 1, 0},
	    {"{\"enum\":[\"a\"]}", 0, 1, 0},
	    /* anyOf: the first branch admitting the type decides */
	    {"{\"anyOf\":[{\"$ref\":\"#/$defs/t\"},{\"type\":\"object\","
	     "\"required\":[\"a\"]}],\"$defs\":{\"t\":{\"type\":\"string\","
	     "\"maxLength\":3}}}",
	        0, 0, 3},
	    {"{\"anyOf\":[{\"type\":\"object\"},{\"type\":\"string\"}]}",
	        T(JSON_T_OBJECT) | T(JSON_T_STRING), 0, SIZE_MAX},
	    {"{\"anyOf\":[{\"type\":\"string\",\"pattern\":\"^a\"},"
	     "{\"type\":\"string\"}]}",
	        0, 1, 0},
	    {"{\"anyOf\":[false,{\"type\":\"null\"}]}", T(JSON_T_NULL), 1, 0},
	    /* allOf and $ref narrow, own lengths too */
	    {"{\"allOf\":[{\"maxLength\":4},{\"minLength\":2}]}",
	        ALL_BUT(JSON_T_STRING), 2, 4},
	    {"{\"$ref\":\"#/$defs/t\",\"minLength\":1,\"$defs\":{\"t\":"
	     "{\"maxLength\":3}}}",
	        ALL_BUT(JSON_T_STRING), 1, 3},
	    /* oneOf, not and if are never seen through */
	    {"{\"oneOf\":[{\"type\":\"string\"}]}", 0, 1, 0},
	    {"{\"not\":{\"type\":\"number\"}}", 0, 1, 0},
	};
	size_t i;

	for (i = 0; i < GPT_ARRAY_LEN(t); i++)
		expect_plan(&t[i]);
}
END_TEST

/* --- every problem of a form (schema_opts.problems, for --check) ----- */

struct probcase {
	const char *schema;
	size_t count;           /* problems expected */
	const char *pointer[4]; /* the first ones, in document order; NULL:
	                           any place */
	const char *reason[4];  /* a phrase each one's reason contains */
};

static enum schema_result
compile_collecting(struct arena *a, const char *schema,
    struct schema_problems *ps, struct schema_err *err)
{
	struct schema_opts o;
	const struct schema *s = NULL;

	memset(&o, 0, sizeof(o));
	o.dialect = -1;
	o.problems = ps;
	schema_problems_init(ps);
	memset(err, 0, sizeof(*err));
	return schema_compile_opts(parse_text(a, schema), &o, a, &s, err);
}

static void
expect_problems(const struct probcase *t)
{
	struct schema_problems *ps = calloc(1, sizeof(*ps));
	struct schema_err err;
	struct arena a;
	enum schema_result r;
	size_t i;

	ck_assert_ptr_nonnull(ps);
	arena_init(&a, 64 << 20);
	r = compile_collecting(&a, t->schema, ps, &err);
	ck_assert_msg(r == (t->count == 0 ? SCHEMA_OK : SCHEMA_REFUSED),
	    "schema %.200s: result %d", t->schema, (int)r);
	ck_assert_msg(ps->count == t->count && ps->more == 0,
	    "schema %.200s: %zu problems (+%zu), expected %zu; first at "
	    "\"%s\": %s",
	    t->schema, ps->count, ps->more, t->count,
	    ps->count > 0 ? ps->list[0].err.pointer.buf : "",
	    ps->count > 0 ? ps->list[0].err.reason : "");
	for (i = 0; i < t->count && i < GPT_ARRAY_LEN(t->reason); i++) {
		const struct schema_err *e = &ps->list[i].err;

		if (t->reason[i] == NULL)
			break;
		ck_assert_msg(t->pointer[i] == NULL ||
		                  strcmp(e->pointer.buf, t->pointer[i]) == 0,
		    "schema %.200s: problem %zu at \"%s\", expected \"%s\"",
		    t->schema, i, e->pointer.buf, t->pointer[i]);
		ck_assert_msg(strstr(e->reason, t->reason[i]) != NULL,
		    "schema %.200s: problem %zu says \"%s\", expected \"%s\"",
		    t->schema, i, e->reason, t->reason[i]);
	}
	/* the single-error record is the first in document order */
	if (t->count > 0)
		ck_assert_str_eq(err.pointer.buf, ps->list[0].err.pointer.buf);
	arena_free(&a);
	free(ps);
}

/* A oneOf or anyOf of objects told apart by a required member gets a
 * gate per branch (its name and values, through $ref and a nested oneOf
 * of its own), and a oneOf proved disjoint is marked so. */
START_TEST(compile_plans_gates_for_discriminated_alternatives)
{
	static const char *const form =
	    "{\"type\":\"object\",\"oneOf\":["
	    "{\"required\":[\"op\"],\"properties\":{\"op\":"
	    "{\"enum\":[\"and\",\"or\"]}}},"
	    "{\"$ref\":\"#/$defs/cmp\"},"
	    "{\"required\":[\"fn\"]}],"
	    "\"anyOf\":[{\"required\":[\"op\"]},{\"type\":\"object\"}],"
	    "\"$defs\":{\"cmp\":{\"oneOf\":["
	    "{\"required\":[\"op\"],\"properties\":{\"op\":"
	    "{\"const\":\"=\"}}},"
	    "{\"required\":[\"op\"],\"properties\":{\"op\":"
	    "{\"const\":\"<\"}}}]}}}";
	struct arena a;
	const struct schema *s;
	const struct schema_node *n;
	const struct schema_gate *g;

	arena_init(&a, 1 << 20);
	s = compile_text(&a, form, NULL);
	n = s->root;
	ck_assert_uint_eq(n->none_of, 3);
	ck_assert_ptr_nonnull(n->one_gates);
	g = n->one_gates[0];
	ck_assert_ptr_nonnull(g);
	ck_assert_uint_eq(g->len, 2);
	ck_assert_int_eq(memcmp(g->name, "op", 2), 0);
	ck_assert_uint_eq(g->nvals, 2);
	/* the $ref to a oneOf of its own: the union of its branches */
	g = n->one_gates[1];
	ck_assert_ptr_nonnull(g);
	ck_assert_uint_eq(g->nvals, 2);
	ck_assert_int_eq(g->vals[0]->type, JSON_T_STRING);
	ck_assert_int_eq(g->vals[1]->type, JSON_T_STRING);
	ck_assert_uint_eq(g->vals[0]->u.str.len, 1);
	ck_assert_int_eq(g->vals[0]->u.str.ptr[0], '=');
	ck_assert_int_eq(g->vals[1]->u.str.ptr[0], '<');
	/* a required member with no values: no gate */
	ck_assert_ptr_null(n->one_gates[2]);
	/* fn may sit beside op: not disjoint */
	ck_assert(!n->one_of_disjoint);
	/* no branch of the anyOf names values */
	ck_assert_ptr_null(n->any_gates);
	/* the nested oneOf's branches tell objects apart, but its node
	 * takes any type, and 5 passes both: not disjoint */
	ck_assert(!n->one_of[1]->one_of_disjoint);
	arena_free(&a);
}
END_TEST

START_TEST(compile_reports_every_problem_in_document_order)
{
	static const struct probcase t[] = {
	    /* three independent problems, found in another order than
	     * written (unknown keywords first, then by keyword group) */
	    {"{\"required\":\"a\",\"properties\":{\"x\":{\"minLength\":-1}},"
	     "\"minLenght\":1}",
	        3, {"/required", "/properties/x/minLength", "/minLenght"},
	        {"array of strings", "non-negative integer",
	            "did you mean minLength?"}},
	    /* past a bad item or member, the next one is compiled */
	    {"{\"anyOf\":[{\"type\":\"strnig\"},true,{\"maxItems\":\"1\"}],"
	     "\"$defs\":{\"a\":{\"foo\":1},\"b\":{\"$ref\":\"#/nope\"}}}",
	        4,
	        {"/anyOf/0/type", "/anyOf/2/maxItems", "/$defs/a/foo",
	            "/$defs/b/$ref"},
	        {"unknown type", "non-negative", "unknown keyword \"foo\"",
	            "names nothing"}},
	    /* two problems in one keyword group, and a bad pattern beside
	     * a bad subschema of patternProperties */
	    {"{\"minimum\":\"0\",\"maxLength\":1.5,\"patternProperties\":"
	     "{\"(\":{\"nullable\":true}}}",
	        4,
	        {"/minimum", "/maxLength", "/patternProperties/(",
	            "/patternProperties/(/nullable"},
	        {"must be a number", "non-negative", "invalid pattern",
	            "[T, \"null\"]"}},
	    /* a no-progress cycle is found beside another problem */
	    {"{\"$defs\":{\"a\":{\"$ref\":\"#/$defs/b\"},\"b\":{\"$ref\":"
	     "\"#/$defs/a\"}},\"minLength\":-1}",
	        2, {"/minLength", NULL}, {"non-negative", "never descends"}},
	    /* one refusal: an unknown $schema is reported once, not also
	     * as the lookup tried before it */
	    {"{\"$schema\":\"https://example.com/nope\"}", 1, {"/$schema"},
	        {"unknown dialect"}},
	    /* tried and taken back: v1's $dynamicRef to a name no anchor
	     * declares is no problem */
	    {"{\"$schema\":\"https://json-schema.org/v1\","
	     "\"$dynamicRef\":\"#items\"}",
	        0, {NULL}, {NULL}},
	    {"{\"type\":\"string\",\"maxLength\":3}", 0, {NULL}, {NULL}},
	};
	size_t i;

	for (i = 0; i < GPT_ARRAY_LEN(t); i++)
		expect_problems(&t[i]);
}
END_TEST

/* The responder passes no collector: the first refusal found ends the
 * walk, as before. */
START_TEST(compile_without_a_collector_stops_at_the_first_problem)
{
	expect_refused("{\"required\":\"a\",\"properties\":{\"x\":"
	               "{\"minLength\":-1}},\"minLenght\":1}",
	    "/minLenght", "did you mean minLength?");
}
END_TEST

/* 150 bad members and an unknown keyword written last but read first:
 * the first SCHEMA_PROBLEMS_MAX in document order are kept, the rest
 * counted. */
START_TEST(compile_keeps_the_first_problems_and_counts_the_rest)
{
	struct schema_problems *ps = calloc(1, sizeof(*ps));
	struct schema_err err;
	struct arena a;
	struct buf b;
	char want[64];
	int i;

	ck_assert_ptr_nonnull(ps);
	buf_init(&b, 1 << 20);
	ck_assert_int_eq(buf_append(&b, "{\"properties\":{", 15), 0);
	for (i = 0; i < 150; i++) {
		char m[64];
		int n = snprintf(m, sizeof(m), "%s\"p%03d\":{\"minLength\":-1}",
		    i > 0 ? "," : "", i);

		ck_assert_int_eq(buf_append(&b, m, (size_t)n), 0);
	}
	ck_assert_int_eq(buf_append(&b, "},\"zzz\":1}", 11), 0);
	arena_init(&a, 64 << 20);
	ck_assert_int_eq(
	    compile_collecting(&a, buf_ptr(&b), ps, &err), SCHEMA_REFUSED);
	ck_assert_uint_eq(ps->count, SCHEMA_PROBLEMS_MAX);
	ck_assert_uint_eq(ps->more, 151 - SCHEMA_PROBLEMS_MAX);
	for (i = 0; i < SCHEMA_PROBLEMS_MAX; i++) {
		snprintf(want, sizeof(want), "/properties/p%03d/minLength", i);
		ck_assert_str_eq(ps->list[i].err.pointer.buf, want);
	}
	ck_assert_str_eq(err.pointer.buf, "/properties/p000/minLength");
	arena_free(&a);
	buf_free(&b);
	free(ps);
}
END_TEST

/* format: a name declared with `annotations` is an annotation; an
 * undeclared unknown name refuses; a known name stays asserted. */
START_TEST(compile_takes_a_declared_format_name_as_an_annotation)
{
	static const char *const ann[] = {"color-hex", "email"};
	struct schema_opts o;
	struct arena a, req;
	const struct schema *s = NULL;
	struct schema_err err;
	struct warnings w = {0};

	memset(&o, 0, sizeof(o));
	o.dialect = -1;
	o.annotations = ann;
	o.nannotations = 2;
	o.warn = collect_warning;
	o.warn_ctx = &w;
	o.notes = true;
	arena_init(&a, 1 << 20);
	arena_init(&req, 1 << 20);
	ck_assert_int_eq(
	    schema_compile_opts(
	        parse_text(&a, "{\"format\":\"color-hex\"}"), &o, &a, &s, &err),
	    SCHEMA_OK);
	ck_assert_int_eq(w.count, 1);
	ck_assert_str_eq(w.last,
	    "/format: format \"color-hex\" is an annotation (not enforced)");
	ck_assert_int_eq(schema_validate(s,
	                     parse_text(&req, "\"not a colour\""), &req, &err),
	    SCHEMA_OK);
	/* a known name is asserted, declared or not */
	ck_assert_int_eq(
	    schema_compile_opts(
	        parse_text(&a, "{\"format\":\"email\"}"), &o, &a, &s, &err),
	    SCHEMA_OK);
	ck_assert_int_eq(
	    schema_validate(s, parse_text(&req, "\"x\""), &req, &err),
	    SCHEMA_INVALID);
	arena_free(&req);
	arena_free(&a);
	expect_refused(
	    "{\"format\":\"color-hex\"}", "/format", "annotations = NAME");
}
END_TEST

static Suite *
suite_schema_compile(void)
{
	Suite *s = suite_create("schema_compile");
	TCase *k = tcase_create("schema_compile");

	/* A guard against a hang, not a speed test: the 20,000-anchor case
	 * takes a second alone and far longer on a loaded machine. */
	tcase_set_timeout(k, 60);

	tcase_add_test(k, compile_accepts_the_whole_vocabulary);
	tcase_add_test(k, compile_refuses_unknown_keywords_anywhere);
	tcase_add_test(k, compile_refuses_malformed_values);
	tcase_add_test(k, compile_reports_a_keyword_holding_nul_by_length);
	tcase_add_test(k, compile_refuses_other_dialects_ids_and_formats);
	tcase_add_test(k, compile_refuses_remote_dangling_and_malformed_refs);
	tcase_add_test(k, compile_resolves_refs_by_the_percent_decoded_pointer);
	tcase_add_test(k, compile_refuses_ref_cycles_that_make_no_progress);
	tcase_add_test(k, compile_warns_about_recursion_through_the_instance);
	tcase_add_test(k, compile_refuses_forms_nested_past_the_depth_limit);
	tcase_add_test(k, compile_reports_nomem_when_the_arena_refuses);
	tcase_add_test(k, compile_memoizes_each_schema_location_once);
	tcase_add_test(k, compile_links_past_a_ref_chain_in_linear_work);
	tcase_add_test(k, compile_indexes_anchors_in_linear_work);
	tcase_add_test(k, compile_anchor_index_keeps_the_rules);
	tcase_add_test(k, compile_plans_what_each_node_accepts_without_work);
	tcase_add_test(k, compile_plans_gates_for_discriminated_alternatives);
	tcase_add_test(k, compile_reports_every_problem_in_document_order);
	tcase_add_test(
	    k, compile_without_a_collector_stops_at_the_first_problem);
	tcase_add_test(k, compile_keeps_the_first_problems_and_counts_the_rest);
	tcase_add_test(
	    k, compile_takes_a_declared_format_name_as_an_annotation);
	suite_add_tcase(s, k);
	return s;
}

CHECK_MAIN(suite_schema_compile)
