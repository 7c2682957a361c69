/*
 * check_schema_view.c: what the tools see of a compiled form: each keyword
 * as the view describes it, references already followed, draft-04's
 * boolean bounds already exclusive ones, annotations left in src.
 */
#include "check_schema.h"
#include "schema/schema_view.h"

static struct schema_view
view_of(struct arena *a, const char *schema, const struct schema **sp)
{
	const struct schema *s = compile_text(a, schema, NULL);
	struct schema_view v;

	if (sp != NULL)
		*sp = s;
	schema_view_get(schema_view_root(s), &v);
	return v;
}

static bool
text_is(const char *p, size_t len, const char *want)
{
	return p != NULL && len == strlen(want) && memcmp(p, want, len) == 0;
}

START_TEST(strings_show_lengths_pattern_and_format)
{
	struct arena a;
	struct schema_view v;

	arena_init(&a, 1 << 20);
	v = view_of(&a,
	    "{\"type\": \"string\", \"minLength\": 2, \"maxLength\": 9, "
	    "\"pattern\": \"^a+$\", \"format\": \"date\", \"title\": \"T\"}",
	    NULL);
	ck_assert_int_eq(v.kind, SV_NODE);
	ck_assert(v.typed && v.types == SV_TY_STRING);
	ck_assert_uint_eq(v.min_length, 2);
	ck_assert_uint_eq(v.max_length, 9);
	ck_assert(text_is(v.pattern, v.pattern_len, "^a+$"));
	ck_assert_str_eq(v.format, "date");
	ck_assert(!v.undescribed);
	/* annotations stay in the schema value */
	ck_assert(v.src != NULL && json_object_get(v.src, "title", 5) != NULL);
	ck_assert(text_is(v.pointer, v.pointer_len, ""));
	arena_free(&a);
}
END_TEST

START_TEST(number_bounds_are_exact_text)
{
	struct arena a;
	struct schema_view v;

	arena_init(&a, 1 << 20);
	v = view_of(&a,
	    "{\"type\": \"number\", \"minimum\": 0.10, "
	    "\"exclusiveMaximum\": 1e2, \"multipleOf\": 0.01}",
	    NULL);
	ck_assert(text_is(v.minimum.text, v.minimum.len, "0.10"));
	ck_assert(text_is(v.xmaximum.text, v.xmaximum.len, "1e2"));
	ck_assert(text_is(v.multiple_of.text, v.multiple_of.len, "0.01"));
	ck_assert_ptr_null(v.maximum.text);
	ck_assert(schema_view_admits(&v, SV_TY_INTEGER));
	ck_assert(!schema_view_admits(&v, SV_TY_STRING));
	arena_free(&a);
}
END_TEST

START_TEST(draft04_boolean_exclusive_bound_is_an_exclusive_one)
{
	struct arena a;
	struct schema_view v;

	arena_init(&a, 1 << 20);
	v = view_of(&a,
	    "{\"$schema\": \"http://json-schema.org/draft-04/schema#\", "
	    "\"minimum\": 5, \"exclusiveMinimum\": true}",
	    NULL);
	ck_assert_ptr_null(v.minimum.text);
	ck_assert(text_is(v.xminimum.text, v.xminimum.len, "5"));
	arena_free(&a);
}
END_TEST

START_TEST(objects_list_members_required_and_closed)
{
	struct arena a;
	struct schema_view v, sub;
	struct schema_view_prop p;
	struct schema_view_pprop pp;
	const struct schema *s;
	size_t i;
	bool saw_a = false, saw_b = false;

	arena_init(&a, 1 << 20);
	v = view_of(&a,
	    "{\"type\": \"object\", \"properties\": {\"a\": {\"type\": "
	    "\"integer\"}, \"b\": {}}, \"required\": [\"a\"], "
	    "\"patternProperties\": {\"^x-\": {\"type\": \"string\"}}, "
	    "\"additionalProperties\": false}",
	    &s);
	ck_assert_uint_eq(v.nprops, 2);
	for (i = 0; i < v.nprops; i++) {
		schema_view_prop(schema_view_root(s), i, &p);
		if (text_is(p.name, p.len, "a")) {
			saw_a = true;
			ck_assert(p.required);
			schema_view_get(p.sub, &sub);
			ck_assert(sub.types == SV_TY_INTEGER);
			ck_assert(text_is(
			    sub.pointer, sub.pointer_len, "/properties/a"));
		} else if (text_is(p.name, p.len, "b")) {
			saw_b = true;
			ck_assert(!p.required);
		}
	}
	ck_assert(saw_a && saw_b);
	ck_assert_uint_eq(v.npprops, 1);
	schema_view_pprop(schema_view_root(s), 0, &pp);
	ck_assert(text_is(pp.pattern, pp.len, "^x-"));
	schema_view_get(v.additional, &sub);
	ck_assert_int_eq(sub.kind, SV_FALSE);
	arena_free(&a);
}
END_TEST

START_TEST(references_are_already_followed)
{
	struct arena a;
	struct schema_view v, t;
	struct schema_view_prop p;
	const struct schema *s;

	arena_init(&a, 1 << 20);
	v = view_of(&a,
	    "{\"properties\": {\"n\": {\"$ref\": \"#/$defs/node\", "
	    "\"description\": \"a tree\"}}, "
	    "\"$defs\": {\"node\": {\"type\": \"array\", \"maxItems\": 3, "
	    "\"items\": {\"$ref\": \"#/$defs/node\"}}}}",
	    &s);
	schema_view_prop(schema_view_root(s), 0, &p);
	schema_view_get(p.sub, &t);
	/* the pure $ref node is gone: the member's schema is the target */
	ck_assert(t.types == SV_TY_ARRAY);
	ck_assert_uint_eq(t.max_items, 3);
	ck_assert_ptr_eq(t.items, p.sub);
	/* the member's own annotations stay reachable */
	ck_assert(
	    p.src != NULL && json_object_get(p.src, "description", 11) != NULL);
	ck_assert(v.nprops == 1);
	arena_free(&a);
}
END_TEST

START_TEST(enums_consts_and_alternatives)
{
	struct arena a;
	struct schema_view v, b;
	const struct schema *s;

	arena_init(&a, 1 << 20);
	v = view_of(&a,
	    "{\"anyOf\": [{\"enum\": [\"x\", 1, null]}, {\"const\": true}], "
	    "\"not\": {\"type\": \"null\"}}",
	    &s);
	ck_assert_uint_eq(v.nany_of, 2);
	ck_assert_ptr_nonnull(v.not_);
	schema_view_get(schema_view_any_of(schema_view_root(s), 0), &b);
	ck_assert_uint_eq(b.nenums, 3);
	ck_assert_int_eq(
	    schema_view_enum(schema_view_any_of(schema_view_root(s), 0), 1)
	        ->type,
	    JSON_T_NUMBER);
	schema_view_get(schema_view_any_of(schema_view_root(s), 1), &b);
	ck_assert(b.const_value != NULL && b.const_value->type == JSON_T_TRUE);
	arena_free(&a);
}
END_TEST

START_TEST(arrays_show_prefix_items_and_contains)
{
	struct arena a;
	struct schema_view v, e;
	const struct schema *s;

	arena_init(&a, 1 << 20);
	v = view_of(&a,
	    "{\"prefixItems\": [{\"type\": \"string\"}, {\"type\": "
	    "\"number\"}], \"items\": false, \"minItems\": 1, "
	    "\"contains\": {\"const\": 1}, \"maxContains\": 2, "
	    "\"uniqueItems\": true}",
	    &s);
	ck_assert_uint_eq(v.nprefix, 2);
	schema_view_get(schema_view_prefix(schema_view_root(s), 1), &e);
	ck_assert(e.types == SV_TY_NUMBER);
	schema_view_get(v.items, &e);
	ck_assert_int_eq(e.kind, SV_FALSE);
	ck_assert_uint_eq(v.min_items, 1);
	ck_assert_uint_eq(v.max_contains, 2);
	ck_assert(v.unique_items);
	ck_assert_ptr_nonnull(v.contains);
	arena_free(&a);
}
END_TEST

static int
count_node(void *ctx, const struct schema_node *n)
{
	(void)n;
	(*(size_t *)ctx)++;
	return 0;
}

START_TEST(each_visits_every_object_schema_once)
{
	struct arena a;
	const struct schema *s;
	size_t n = 0;

	arena_init(&a, 1 << 20);
	(void)view_of(&a,
	    "{\"properties\": {\"a\": {\"type\": \"string\"}, \"b\": "
	    "{\"$ref\": \"#/$defs/d\"}, \"c\": true}, \"$defs\": {\"d\": "
	    "{\"type\": \"integer\"}}}",
	    &s);
	ck_assert_int_eq(schema_view_each(s, count_node, &n), 0);
	/* root, a, the $ref node, d; not the boolean c */
	ck_assert_uint_eq(n, 4);
	ck_assert_uint_eq(schema_view_count(s), 4);
	arena_free(&a);
}
END_TEST

START_TEST(validate_judges_a_value_against_one_node)
{
	struct arena a, scratch;
	const struct schema *s;
	struct schema_view v;
	struct schema_view_prop p;
	struct schema_err err;

	arena_init(&a, 1 << 20);
	arena_init(&scratch, 1 << 20);
	v = view_of(&a,
	    "{\"type\": \"object\", \"properties\": {\"a\": "
	    "{\"type\": \"string\", \"minLength\": 2}}}",
	    &s);
	ck_assert_uint_eq(v.nprops, 1);
	schema_view_prop(schema_view_root(s), 0, &p);
	/* "x" is too short for /properties/a, though the root accepts it
	 * as a whole value (it is not an object there) */
	ck_assert_int_eq(schema_view_validate(
	                     s, p.sub, parse_text(&a, "\"x\""), &scratch, &err),
	    SCHEMA_INVALID);
	ck_assert_str_eq(err.keyword, "minLength");
	ck_assert_int_eq(schema_view_validate(s, p.sub,
	                     parse_text(&a, "\"xy\""), &scratch, &err),
	    SCHEMA_OK);
	arena_free(&scratch);
	arena_free(&a);
}
END_TEST

static int
ids_are_dense(void *ctx, const struct schema_node *n)
{
	size_t *next = ctx;

	ck_assert_uint_eq(schema_view_id(n), *next);
	(*next)++;
	return 0;
}

/* One enumeration of a node's child edges, in its documented order, with
 * what the registry says of each; ids number the nodes densely. */
START_TEST(edges_come_in_one_order_with_the_registry_s_facts)
{
	static const struct {
		enum kw kw;
		enum schema_kw_at at;
		bool tests;
	} want[] = {
	    {KW_REF, SCHEMA_KA_SAME, false},
	    {KW_ALLOF, SCHEMA_KA_SAME, false},
	    {KW_NOT, SCHEMA_KA_SAME, true},
	    {KW_PROPERTIES, SCHEMA_KA_MEMBER, false},
	    {KW_PROPERTIES, SCHEMA_KA_MEMBER, false},
	    {KW_ADDITIONALPROPERTIES, SCHEMA_KA_MEMBER, false},
	    {KW_ITEMS, SCHEMA_KA_ITEM, false},
	    {KW_CONTAINS, SCHEMA_KA_ITEM, true},
	    {KW_PROPERTYNAMES, SCHEMA_KA_NAME, false},
	};
	struct arena a;
	const struct schema *s;
	struct schema_view_edges it;
	struct schema_view_edge e;
	size_t n = 0, next = 0;

	arena_init(&a, 1 << 20);
	s = compile_text(&a,
	    "{\"$ref\": \"#/$defs/d\", \"allOf\": [{\"minimum\": 1}], "
	    "\"not\": {\"type\": \"null\"}, \"properties\": {\"a\": "
	    "{\"type\": \"string\"}, \"b\": {\"type\": \"integer\"}}, "
	    "\"required\": [\"c\"], \"additionalProperties\": false, "
	    "\"items\": {\"type\": \"string\"}, \"contains\": {\"const\": "
	    "\"x\"}, \"propertyNames\": {\"maxLength\": 3}, \"$defs\": "
	    "{\"d\": {\"type\": [\"object\", \"array\"]}}}",
	    NULL);
	schema_view_edges_init(&it, schema_view_root(s), SV_EDGES_VIEW);
	while (schema_view_edges_next(&it, &e)) {
		ck_assert_uint_lt(n, GPT_ARRAY_LEN(want));
		ck_assert_int_eq(e.kw, want[n].kw);
		ck_assert_int_eq(e.at, want[n].at);
		ck_assert_int_eq(e.tests, want[n].tests);
		ck_assert_ptr_nonnull(e.to);
		n++;
	}
	ck_assert_uint_eq(n, GPT_ARRAY_LEN(want));
	(void)schema_view_each(s, ids_are_dense, &next);
	ck_assert_uint_eq(next, schema_view_count(s));
	ck_assert_uint_eq(schema_view_id(NULL), SIZE_MAX);
	arena_free(&a);
}
END_TEST

/* The compiler's edges (the plan's walk) keep what the view leaves out,
 * an if without then or else, and give every in-place edge before the
 * first into the instance, which the plan's cycle search relies on. */
START_TEST(compiled_edges_keep_a_bare_if_and_put_in_place_first)
{
	struct arena a;
	const struct schema *s;
	struct schema_view_edges it;
	struct schema_view_edge e;
	bool inside = false, saw_if = false;
	size_t n = 0;

	arena_init(&a, 1 << 20);
	s = compile_text(&a,
	    "{\"properties\": {\"a\": {\"type\": \"string\"}}, "
	    "\"if\": {\"required\": [\"a\"]}, \"items\": {\"type\": "
	    "\"null\"}, \"allOf\": [{\"minProperties\": 1}], "
	    "\"unevaluatedProperties\": false}",
	    NULL);
	schema_view_edges_init(&it, schema_view_root(s), SV_EDGES_VIEW);
	while (schema_view_edges_next(&it, &e))
		ck_assert_int_ne(e.kw, KW_IF);
	schema_view_edges_init(&it, schema_view_root(s), SV_EDGES_COMPILED);
	while (schema_view_edges_next(&it, &e)) {
		if (e.at != SCHEMA_KA_SAME)
			inside = true;
		else
			ck_assert_msg(!inside, "in-place edge %d after others",
			    (int)e.kw);
		saw_if |= e.kw == KW_IF;
		ck_assert_ptr_eq(*e.slot, e.to);
		n++;
	}
	ck_assert(saw_if);
	ck_assert_uint_eq(n, 5);
	arena_free(&a);
}
END_TEST

static Suite *
suite_schema_view(void)
{
	Suite *s = suite_create("schema_view");
	TCase *k = tcase_create("Core");

	tcase_add_test(k, strings_show_lengths_pattern_and_format);
	tcase_add_test(k, compiled_edges_keep_a_bare_if_and_put_in_place_first);
	tcase_add_test(k, number_bounds_are_exact_text);
	tcase_add_test(k, draft04_boolean_exclusive_bound_is_an_exclusive_one);
	tcase_add_test(k, objects_list_members_required_and_closed);
	tcase_add_test(k, references_are_already_followed);
	tcase_add_test(k, enums_consts_and_alternatives);
	tcase_add_test(k, arrays_show_prefix_items_and_contains);
	tcase_add_test(k, each_visits_every_object_schema_once);
	tcase_add_test(k, validate_judges_a_value_against_one_node);
	tcase_add_test(k, edges_come_in_one_order_with_the_registry_s_facts);
	suite_add_tcase(s, k);
	return s;
}

CHECK_MAIN(suite_schema_view)
