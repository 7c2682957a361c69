/* check_jptr.c: JSON Pointer resolution ($ref) and bounded building. */
#include <stdio.h>
#include <string.h>

#include "base/arena.h"
#include "check_main.h"
#include "parser/jptr.h"
#include "parser/json.h"

static struct arena test_arena;
static const struct json_value *doc;

/* RFC 6901 section 5's example, plus arrays and nesting. */
static const char doc_text[] =
    "{\"foo\": [\"bar\", \"baz\"], \"\": 0, \"a/b\": 1, \"c%d\": 2,"
    " \"e^f\": 3, \"g|h\": 4, \"i\\\\j\": 5, \"k\\\"l\": 6, \" \": 7,"
    " \"m~n\": 8, \"~1\": 9, \"%25\": 10, \"x\": {\"not\": 30},"
    " \"x/not\": 31, \"%\": 32,"
    " \"$defs\": {\"node\": {\"items\": [10, 11, 12, 13, 14, 15, 16, 17,"
    " 18, 19, 20, 21]}}, \"caf\xc3\xa9\": 22}";

static void
setup(void)
{
	struct json_err err;

	arena_init(&test_arena, 1 << 20);
	ck_assert_int_eq(json_parse(doc_text, strlen(doc_text), &test_arena, 0,
			     &doc, &err),
	    JSON_OK);
}

static void
teardown(void)
{
	arena_free(&test_arena);
}

/* ref resolves to a number whose text is want. */
static void
expect_resolve(const char *ref, const char *want)
{
	const struct json_value *v = jptr_resolve(doc, ref, strlen(ref));

	ck_assert_msg(v != NULL, "%s names nothing", ref);
	ck_assert_msg(v->type == JSON_T_NUMBER &&
		v->u.num.len == strlen(want) &&
		memcmp(v->u.num.text, want, v->u.num.len) == 0,
	    "%s does not name %s", ref, want);
}

static void
expect_resolve_fail(const char *ref)
{
	ck_assert_msg(jptr_resolve(doc, ref, strlen(ref)) == NULL,
	    "%s should name nothing", ref);
}

START_TEST(jptr_resolve_follows_rfc6901_examples)
{
	const struct json_value *v;

	ck_assert_ptr_eq(jptr_resolve(doc, "", 0), doc);
	ck_assert_ptr_eq(jptr_resolve(doc, "#", 1), doc);
	v = jptr_resolve(doc, "/foo", 4);
	ck_assert_ptr_nonnull(v);
	ck_assert_int_eq(v->type, JSON_T_ARRAY);
	v = jptr_resolve(doc, "#/foo/0", 7);
	ck_assert_ptr_nonnull(v);
	ck_assert_mem_eq(v->u.str.ptr, "bar", 3);
	expect_resolve("/", "0");
	expect_resolve("/a~1b", "1");
	expect_resolve("/c%d", "2");
	expect_resolve("/e^f", "3");
	expect_resolve("/g|h", "4");
	expect_resolve("/i\\j", "5");
	expect_resolve("/k\"l", "6");
	expect_resolve("/ ", "7");
	expect_resolve("/m~0n", "8");
	expect_resolve("/~01", "9");
	expect_resolve("#/", "0");
	expect_resolve("#/a~1b", "1");
	expect_resolve("#/c%25d", "2");
	expect_resolve("#/e%5Ef", "3");
	expect_resolve("#/g%7Ch", "4");
	expect_resolve("#/i%5Cj", "5");
	expect_resolve("#/k%22l", "6");
	expect_resolve("#/%20", "7");
	expect_resolve("#/m~0n", "8");
	expect_resolve("#/%7E01", "9");
	expect_resolve("#/%2525", "10");
	expect_resolve("/%25", "10");
	expect_resolve("#/caf%C3%A9", "22");
	expect_resolve("#/caf\xc3\xa9", "22");
}
END_TEST

/*
 * RFC 6901 section 6: a fragment is percent-decoded before it is read as
 * a pointer, so an encoded '/' separates tokens, and '~' escapes are read
 * after the decoding.
 */
START_TEST(jptr_resolve_decodes_the_fragment_before_splitting_it)
{
	static const struct {
		const char *ref, *want;
	} ok[] = {
	    {"#/x%2Fnot", "30"},   /* /x/not: member "not" of "x" */
	    {"#/x%2fnot", "30"},   /* hex digits in either case */
	    {"#%2Fx%2Fnot", "30"}, /* the first '/' encoded too */
	    {"#/x~1not", "31"},	   /* "x/not", one member */
	    {"#/x%7E1not", "31"},  /* %7E1 is ~1, then "/" */
	    {"#/x%7e1not", "31"},
	    {"#/x~%31not", "31"},  /* ~ then %31 ("1") */
	    {"#/%25", "32"},	   /* "%", not decoded twice */
	    {"#/%2525", "10"},	   /* "%25" */
	    {"/x~1not", "31"},	   /* the plain form has no %XX */
	};
	static const char *const bad[] = {
	    "#/x%2",	  /* truncated */
	    "#/x%",	  /* truncated */
	    "#/x%G0not",  /* not hex */
	    "#/x%2Fnot%", /* truncated at the end */
	    "#/%%41",	  /* "%%" is no escape */
	    "#/x%7E2not", /* ~2 after decoding */
	    "#/x~%2Fnot", /* ~/ after decoding */
	    "#/x%7E",	  /* ~ at the end after decoding */
	    "/x%2Fnot",	  /* the plain form: member "x%2Fnot" */
	    "#%41",	  /* "A": a name, not a pointer */
	};
	size_t i;

	for (i = 0; i < GPT_ARRAY_LEN(ok); i++)
		expect_resolve(ok[i].ref, ok[i].want);
	for (i = 0; i < GPT_ARRAY_LEN(bad); i++)
		expect_resolve_fail(bad[i]);
}
END_TEST

static void
expect_fragment(const char *ref, const char *want)
{
	struct jptr p;

	ck_assert_msg(jptr_from_fragment(&p, ref, strlen(ref)) == 0,
	    "%s refused", ref);
	ck_assert_msg(strcmp(p.buf, want) == 0 && p.len == strlen(want),
	    "%s gave \"%s\", expected \"%s\"", ref, p.buf, want);
}

START_TEST(jptr_from_fragment_gives_the_decoded_pointer)
{
	static const char *const bad[] = {
	    "", "/a", "a#/b", "#/a%zz", "#/a%2", "#/a~2", "#/a~", "#/a%7E",
	};
	struct jptr p;
	char longref[3 * JPTR_MAX];
	size_t i;

	expect_fragment("#", "");
	expect_fragment("#/$defs/x%2Fnot", "/$defs/x/not");
	expect_fragment("#/$defs/x~1not", "/$defs/x~1not");
	expect_fragment("#/a%7E1b%25", "/a~1b%");
	expect_fragment("#anchor", "anchor");
	/* Refused leaves *p as it was. */
	jptr_init(&p);
	(void)jptr_push(&p, "kept", 4);
	for (i = 0; i < GPT_ARRAY_LEN(bad); i++) {
		ck_assert_msg(jptr_from_fragment(&p, bad[i], strlen(bad[i])) ==
			-1,
		    "%s accepted", bad[i]);
		ck_assert_str_eq(p.buf, "/kept");
	}
	/* Cut like a built pointer, never inside an escape; what is past
	 * the cut is still checked. */
	longref[0] = '#';
	for (i = 1; i + 1 < sizeof(longref); i += 2)
		memcpy(longref + i, "~1", 2);
	longref[i] = '\0';
	ck_assert_int_eq(jptr_from_fragment(&p, longref, strlen(longref)), 0);
	ck_assert(p.truncated);
	ck_assert_uint_lt(p.len, JPTR_MAX);
	ck_assert_str_eq(p.buf + p.len - 3, "...");
	for (i = 0; i + 3 < p.len; i += 2)
		ck_assert_msg(p.buf[i] == '~' && p.buf[i + 1] == '1',
		    "escape split at %zu", i);
	longref[i = strlen(longref) - 1] = '2';
	ck_assert_int_eq(jptr_from_fragment(&p, longref, i + 1), -1);
}
END_TEST

START_TEST(jptr_resolve_reads_canonical_array_indices)
{
	expect_resolve("#/$defs/node/items/0", "10");
	expect_resolve("#/$defs/node/items/9", "19");
	expect_resolve("#/$defs/node/items/11", "21");
	expect_resolve_fail("#/$defs/node/items/12");
	expect_resolve_fail("#/$defs/node/items/01");
	expect_resolve_fail("#/$defs/node/items/00");
	expect_resolve_fail("#/$defs/node/items/-");
	expect_resolve_fail("#/$defs/node/items/-1");
	expect_resolve_fail("#/$defs/node/items/+1");
	expect_resolve_fail("#/$defs/node/items/1e0");
	expect_resolve_fail("#/$defs/node/items/");
	expect_resolve_fail("#/$defs/node/items/99999999999999999999999999");
}
END_TEST

START_TEST(jptr_resolve_refuses_malformed_references)
{
	static const char *const bad[] = {
	    "foo",	  /* neither "#" nor "/" */
	    "#foo",	  /* an anchor, not a pointer */
	    "#/m~2n",	  /* ~ followed by neither 0 nor 1 */
	    "#/m~",	  /* ~ at the end */
	    "#/c%2",	  /* truncated percent-encoding */
	    "#/c%zzd",	  /* not hex */
	    "#/nope",	  /* names nothing */
	    "/foo/0/x",	  /* a string has no members */
	    "#/$defs/node/items/0/0",
	    "/m~0n/x",
	};
	char longref[JPTR_TOKEN_MAX + 16];
	size_t i;

	for (i = 0; i < GPT_ARRAY_LEN(bad); i++)
		expect_resolve_fail(bad[i]);
	/* "/c%d" is fine in the plain form (no percent-decoding) */
	expect_resolve("/c%d", "2");
	longref[0] = '/';
	memset(longref + 1, 'x', sizeof(longref) - 2);
	longref[sizeof(longref) - 1] = '\0';
	expect_resolve_fail(longref);
	ck_assert_ptr_null(jptr_resolve(NULL, "", 0));
}
END_TEST

static void
expect_built(const struct jptr *p, const char *want)
{
	ck_assert_msg(strcmp(p->buf, want) == 0 && p->len == strlen(want),
	    "built \"%s\", expected \"%s\"", p->buf, want);
}

START_TEST(jptr_push_escapes_tokens_and_pop_undoes_them)
{
	struct jptr p;
	size_t a, b, c;

	jptr_init(&p);
	expect_built(&p, "");
	a = jptr_push(&p, "nodes", 5);
	b = jptr_push_index(&p, 12);
	c = jptr_push(&p, "a/b~c", 5);
	expect_built(&p, "/nodes/12/a~1b~0c");
	jptr_pop(&p, c);
	expect_built(&p, "/nodes/12");
	c = jptr_push(&p, "", 0);
	expect_built(&p, "/nodes/12/");
	jptr_pop(&p, c);
	jptr_pop(&p, b);
	jptr_pop(&p, a);
	expect_built(&p, "");
	ck_assert(!p.truncated);
}
END_TEST

START_TEST(jptr_push_cuts_long_pointers_with_an_ellipsis)
{
	struct jptr p;
	char token[300];
	size_t marks[8], i;

	memset(token, 'k', sizeof(token));
	jptr_init(&p);
	for (i = 0; i < GPT_ARRAY_LEN(marks); i++)
		marks[i] = jptr_push(&p, token, sizeof(token));
	ck_assert(p.truncated);
	ck_assert_uint_lt(p.len, JPTR_MAX);
	ck_assert_uint_eq(strlen(p.buf), p.len);
	ck_assert_str_eq(p.buf + p.len - 3, "...");
	ck_assert_int_eq(p.buf[0], '/');
	/* Undo in reverse: back to the first token, whole again. */
	for (i = GPT_ARRAY_LEN(marks); i-- > 1;)
		jptr_pop(&p, marks[i]);
	ck_assert(!p.truncated);
	ck_assert_uint_eq(p.len, 1 + sizeof(token));
	ck_assert_int_eq(p.buf[p.len - 1], 'k');
	jptr_pop(&p, marks[0]);
	expect_built(&p, "");
}
END_TEST

START_TEST(jptr_push_never_splits_an_escape)
{
	struct jptr p;
	char token[JPTR_MAX];
	size_t i;

	memset(token, '/', sizeof(token));
	jptr_init(&p);
	(void)jptr_push(&p, token, sizeof(token));
	ck_assert(p.truncated);
	ck_assert_str_eq(p.buf + p.len - 3, "...");
	/* "/~1~1...~1...": pairs intact before the ellipsis */
	for (i = 1; i + 3 < p.len; i += 2)
		ck_assert_msg(p.buf[i] == '~' && p.buf[i + 1] == '1',
		    "escape split at %zu in %s", i, p.buf);
}
END_TEST

static Suite *
suite_jptr(void)
{
	Suite *s = suite_create("jptr");
	TCase *tc = tcase_create("Core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, jptr_resolve_follows_rfc6901_examples);
	tcase_add_test(
	    tc, jptr_resolve_decodes_the_fragment_before_splitting_it);
	tcase_add_test(tc, jptr_from_fragment_gives_the_decoded_pointer);
	tcase_add_test(tc, jptr_resolve_reads_canonical_array_indices);
	tcase_add_test(tc, jptr_resolve_refuses_malformed_references);
	tcase_add_test(tc, jptr_push_escapes_tokens_and_pop_undoes_them);
	tcase_add_test(tc, jptr_push_cuts_long_pointers_with_an_ellipsis);
	tcase_add_test(tc, jptr_push_never_splits_an_escape);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(suite_jptr)
