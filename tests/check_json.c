/*
 * check_json.c: the strict parser (grammar, strings, numbers, UTF-8,
 * duplicates, limits, errors), member lookup and the serializer.
 *
 * Every input is parsed from an exactly sized heap copy, so a read past
 * the given length is an AddressSanitizer error in the sanitizer build.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "base/buf.h"
#include "check_main.h"
#include "flood.h"
#include "base/hash.h"
#include "parser/json.h"

/* A literal with its length (inputs may hold NUL bytes). */
#define S(s) s, sizeof(s) - 1
/* In reject tables: do not check the offset. */
#define ANY SIZE_MAX

#define TEST_ARENA_CAP ((size_t)1 << 30)

/* The input, printable, for failure messages (static buffer, truncated). */
static const char *
show(const char *s, size_t n)
{
	static char out[256];
	size_t i, o = 0;

	for (i = 0; i < n && o < sizeof(out) - 12; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c >= 0x20 && c < 0x7F)
			out[o++] = (char)c;
		else
			o += (size_t)snprintf(
			    out + o, sizeof(out) - o, "\\x%02X", c);
	}
	if (i < n)
		o += (size_t)snprintf(out + o, sizeof(out) - o, "...");
	out[o] = '\0';
	return out;
}

/* A parse kept alive with its input copy (the tree borrows from it). */
struct parsed {
	struct arena a;
	char *copy;
	const struct json_value *v;
	struct json_err err;
	enum json_errcode rc;
};

/* Names hashed through json_test_key_hash by the tests that count them;
 * json_index_probes counts the index's probes. */
static uint64_t hashed;

/* The tree v as compact JSON, in b (initialized here): 0, or -1 when the
 * writer refuses it (nested deeper than it writes). */
static int
written(const struct json_value *v, struct buf *b)
{
	buf_init(b, (size_t)1 << 30);
	return json_write(v, b);
}

/*
 * json_parse_padded on the same input, from an exactly sized copy with
 * JSON_PAD bytes after it (a read past those is an ASan error), must give
 * json_parse's answer: the same code, message and offset, or the same
 * tree.
 */
static void
same_when_padded(
    const struct parsed *p, const char *in, size_t len, unsigned depth)
{
	struct arena a;
	char *copy = calloc(1, len + JSON_PAD);
	const struct json_value *v = NULL;
	struct json_err err;
	enum json_errcode rc;
	struct buf b1, b2;
	/* the tests that count probes and hashes count json_parse's */
	uint64_t probes = json_index_probes, hashes = hashed;

	ck_assert_ptr_nonnull(copy);
	if (len > 0)
		memcpy(copy, in, len);
	arena_init(&a, TEST_ARENA_CAP);
	memset(&err, 0, sizeof(err));
	rc = json_parse_padded(copy, len, &a, depth, &v, &err);
	ck_assert_msg(rc == p->rc && err.code == p->err.code &&
	                  err.offset == p->err.offset &&
	                  strcmp(err.msg, p->err.msg) == 0,
	    "json_parse_padded(%s): %s at %zu (\"%s\"), json_parse: %s at "
	    "%zu (\"%s\")",
	    show(in, len), json_errstr(rc), err.offset, err.msg,
	    json_errstr(p->rc), p->err.offset, p->err.msg);
	if (rc == JSON_OK) {
		ck_assert_int_eq(written(v, &b1), written(p->v, &b2));
		ck_assert_msg(
		    buf_len(&b1) == buf_len(&b2) &&
		        memcmp(buf_ptr(&b1), buf_ptr(&b2), buf_len(&b1)) == 0,
		    "json_parse_padded(%s) built another tree", show(in, len));
		buf_free(&b1);
		buf_free(&b2);
	} else {
		ck_assert_ptr_null(v);
	}
	arena_free(&a);
	free(copy);
	json_index_probes = probes;
	hashed = hashes;
}

/* Every input of these tests is parsed both ways (same_when_padded). */
static void
parse_into(struct parsed *p, const char *in, size_t len, unsigned depth)
{
	arena_init(&p->a, TEST_ARENA_CAP);
	p->copy = malloc(len > 0 ? len : 1);
	ck_assert_ptr_nonnull(p->copy);
	if (len > 0)
		memcpy(p->copy, in, len);
	p->v = NULL;
	memset(&p->err, 0, sizeof(p->err));
	p->rc = json_parse(p->copy, len, &p->a, depth, &p->v, &p->err);
	same_when_padded(p, in, len, depth);
}

static void
parsed_free(struct parsed *p)
{
	arena_free(&p->a);
	free(p->copy);
}

static void
expect_parse_depth(const char *in, size_t len, unsigned depth)
{
	struct parsed p;

	parse_into(&p, in, len, depth);
	ck_assert_msg(p.rc == JSON_OK, "json_parse rejected %s: %s at %zu",
	    show(in, len), p.err.msg, p.err.offset);
	ck_assert_ptr_nonnull(p.v);
	parsed_free(&p);
}

static void
expect_parse(const char *in, size_t len)
{
	expect_parse_depth(in, len, 0);
}

static void
expect_reject_depth(const char *in, size_t len, unsigned depth,
    enum json_errcode code, size_t offset)
{
	struct parsed p;

	parse_into(&p, in, len, depth);
	ck_assert_msg(p.rc != JSON_OK, "json_parse accepted %s", show(in, len));
	ck_assert_msg(p.rc == code && p.err.code == code,
	    "json_parse(%s) failed with %s (\"%s\"), expected %s",
	    show(in, len), json_errstr(p.rc), p.err.msg, json_errstr(code));
	ck_assert_msg(p.err.msg != NULL && p.err.msg[0] != '\0',
	    "json_parse(%s) left no message", show(in, len));
	ck_assert_msg(offset == ANY || p.err.offset == offset,
	    "json_parse(%s) reported offset %zu, expected %zu", show(in, len),
	    p.err.offset, offset);
	ck_assert_msg(p.err.offset <= len, "json_parse(%s): offset past end",
	    show(in, len));
	ck_assert_msg(
	    p.v == NULL, "json_parse(%s) set *out on failure", show(in, len));
	parsed_free(&p);
}

static void
expect_reject(const char *in, size_t len, enum json_errcode code, size_t offset)
{
	expect_reject_depth(in, len, 0, code, offset);
}

/* --- json_parse: grammar ---------------------------------------------- */

static const struct {
	const char *in;
	size_t len;
} accepted[] = {
    {S("0")}, {S("-0")}, {S("1")}, {S("-1")}, {S("1.5")}, {S("-1.5e10")},
    {S("1E400")}, {S("1e-400")}, {S("1E+2")}, {S("0.0")}, {S("0e0")},
    {S("-0.0e-0")}, {S("123456789012345678901234567890")}, {S("true")},
    {S("false")}, {S("null")}, {S("\"\"")}, {S("\"abc\"")}, {S("[]")},
    {S("{}")}, {S("[[]]")}, {S("{\"a\":{}}")}, {S(" [ 1 , 2 ] ")},
    {S("\t\n\r {\"a\" : [ ] }\n")}, {S("[1,[2,[3]]]")}, {S("{\"\":0}")},
    {S("[\"a\",{\"b\":[null]}]")}, {S("\"\\\"\\\\\\/\\b\\f\\n\\r\\t\"")},
    {S("\"\\u0041\\u00e9\\u20AC\\ud83d\\ude00\"")},
    {S("\"\\uFFFE\\uFDD0\\uffff\"")}, /* noncharacters are scalars */
    {S("\"\xEF\xBF\xBE\xEF\xB7\x90\"")}, {S("\"\\u0000\"")},
    {S("\"\x7F\"")}, /* DEL is not a control here */
    {S("\"/ \xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80\"")},
    {S("{\"a\":1,\"b\":2,\"A\":3}")},      /* names are case-sensitive */
    {S("{\"a\":{\"a\":{\"a\":1}}}")},      /* same name, other objects */
    {S("[{\"a\":1},{\"a\":1}]")},          /* sibling objects */
    {S("{\"\\u0000\":1,\"\":2}")},         /* NUL name is not the empty name */
    {S("{\"a\\u0000\":1,\"a\":2}")},       /* nor a prefix of another */
    {S("{\"\\u00e9\":1,\"e\\u0301\":2}")}, /* no normalization */
    {S("{\"axb\":1,\"ayb\":2,\"a\":3,\"b\":4}")}, /* alike, not equal */
};

START_TEST(json_parse_accepts_every_rfc8259_value)
{
	size_t i;

	for (i = 0; i < GPT_ARRAY_LEN(accepted); i++)
		expect_parse(accepted[i].in, accepted[i].len);
}
END_TEST

static const struct {
	const char *in;
	size_t len;
	enum json_errcode code;
	size_t offset;
} rejected[] = {
    /* empty */
    {S(""), JSON_E_EMPTY, 0},
    {S(" \t\r\n"), JSON_E_EMPTY, 4},
    /* structure */
    {S("[1,]"), JSON_E_SYNTAX, 3},
    {S("[,1]"), JSON_E_SYNTAX, 1},
    {S("[1,,2]"), JSON_E_SYNTAX, 3},
    {S("{\"a\":1,}"), JSON_E_SYNTAX, 7},
    {S("{,}"), JSON_E_SYNTAX, 1},
    {S("{a:1}"), JSON_E_SYNTAX, 1},
    {S("{'a':1}"), JSON_E_SYNTAX, 1},
    {S("{1:1}"), JSON_E_SYNTAX, 1},
    {S("['a']"), JSON_E_SYNTAX, 1},
    {S("[1 2]"), JSON_E_SYNTAX, 3},
    {S("[1}"), JSON_E_SYNTAX, 2},
    {S("{\"a\":1]"), JSON_E_SYNTAX, 6},
    {S("{\"a\" 1}"), JSON_E_SYNTAX, 5},
    {S("{\"a\",1}"), JSON_E_SYNTAX, 4},
    {S("{\"a\":1 \"b\":2}"), JSON_E_SYNTAX, 7},
    {S("]"), JSON_E_SYNTAX, 0},
    {S("}"), JSON_E_SYNTAX, 0},
    /* comments, NaN, Infinity, '+', hex: not JSON */
    {S("/* c */ 1"), JSON_E_SYNTAX, 0},
    {S("[1 /* c */]"), JSON_E_SYNTAX, 3},
    {S("1 // c"), JSON_E_TRAILING, 2},
    {S("# c\n1"), JSON_E_SYNTAX, 0},
    {S("NaN"), JSON_E_SYNTAX, 0},
    {S("Infinity"), JSON_E_SYNTAX, 0},
    {S("-Infinity"), JSON_E_NUMBER, 1},
    {S("+1"), JSON_E_SYNTAX, 0},
    {S("[+1]"), JSON_E_SYNTAX, 1},
    {S(".5"), JSON_E_SYNTAX, 0},
    {S("0x10"), JSON_E_TRAILING, 1},
    {S("[0x10]"), JSON_E_SYNTAX, 2},
    /* numbers */
    {S("01"), JSON_E_NUMBER, 1},
    {S("-01"), JSON_E_NUMBER, 2},
    {S("00"), JSON_E_NUMBER, 1},
    {S("[007]"), JSON_E_NUMBER, 2},
    {S("-"), JSON_E_TRUNCATED, 1},
    {S("-a"), JSON_E_NUMBER, 1},
    {S("1."), JSON_E_TRUNCATED, 2},
    {S("1.e5"), JSON_E_NUMBER, 2},
    {S("[1.]"), JSON_E_NUMBER, 3},
    {S("1e"), JSON_E_TRUNCATED, 2},
    {S("1e+"), JSON_E_TRUNCATED, 3},
    {S("[1e]"), JSON_E_NUMBER, 3},
    {S("[1E+x]"), JSON_E_NUMBER, 4},
    {S("1.5.5"), JSON_E_TRAILING, 3},
    /* literals */
    {S("tru"), JSON_E_TRUNCATED, 3},
    {S("nul"), JSON_E_TRUNCATED, 3},
    {S("True"), JSON_E_SYNTAX, 0},
    {S("nulL"), JSON_E_SYNTAX, 3},
    {S("fals3"), JSON_E_SYNTAX, 4},
    {S("truex"), JSON_E_TRAILING, 4},
    {S("[truex]"), JSON_E_SYNTAX, 5},
    /* trailing bytes */
    {S("1 2"), JSON_E_TRAILING, 2},
    {S("{}{}"), JSON_E_TRAILING, 2},
    {S("{} x"), JSON_E_TRAILING, 3},
    {S("[] ]"), JSON_E_TRAILING, 3},
    {S("\"a\"\""), JSON_E_TRAILING, 3},
    {S("{}\0"), JSON_E_TRAILING, 2},
    /* whitespace is space, tab, LF, CR only */
    {S("\f1"), JSON_E_SYNTAX, 0},
    {S("[1,\v2]"), JSON_E_SYNTAX, 3},
    {S("[\0]"), JSON_E_SYNTAX, 1},
    {S("[1]\xC2\xA0"), JSON_E_TRAILING, 3},
    {S("\xEF\xBB\xBF{}"), JSON_E_SYNTAX, 0}, /* a UTF-8 BOM */
    {S("\xC3\xA9"), JSON_E_SYNTAX, 0},       /* non-ASCII outside a string */
    /* truncated */
    {S("["), JSON_E_TRUNCATED, 1},
    {S("[1"), JSON_E_TRUNCATED, 2},
    {S("[1,"), JSON_E_TRUNCATED, 3},
    {S("{"), JSON_E_TRUNCATED, 1},
    {S("{\"a\""), JSON_E_TRUNCATED, 4},
    {S("{\"a\":"), JSON_E_TRUNCATED, 5},
    {S("{\"a\":1,"), JSON_E_TRUNCATED, 7},
    {S("\"abc"), JSON_E_TRUNCATED, 4},
    {S("\""), JSON_E_TRUNCATED, 1},
    {S("\"\\"), JSON_E_TRUNCATED, 2},
    {S("\"\\u12"), JSON_E_TRUNCATED, 5},
    {S("\"\\ud800"), JSON_E_TRUNCATED, 7},
    {S("\"\\ud800\\u"), JSON_E_TRUNCATED, 9},
    /* control characters */
    {S("\"a\x01\""), JSON_E_CONTROL, 2},
    {S("\"a\tb\""), JSON_E_CONTROL, 2},
    {S("\"\n\""), JSON_E_CONTROL, 1},
    {S("\"\x1F\""), JSON_E_CONTROL, 1},
    {S("\"\0\""), JSON_E_CONTROL, 1},
    {S("{\"a\nb\":1}"), JSON_E_CONTROL, 3},
    /* escapes */
    {S("\"\\x41\""), JSON_E_ESCAPE, 2},
    {S("\"\\'\""), JSON_E_ESCAPE, 2},
    {S("\"\\a\""), JSON_E_ESCAPE, 2},
    {S("\"\\U0041\""), JSON_E_ESCAPE, 2},
    {S("\"\\0\""), JSON_E_ESCAPE, 2},
    {S("\"\\\xC3\xA9\""), JSON_E_ESCAPE, 2},
    {S("\"\\u12G4\""), JSON_E_ESCAPE, 5},
    {S("\"\\u00\""), JSON_E_ESCAPE, 5},
    {S("\"\\u-123\""), JSON_E_ESCAPE, 3},
    {S("\"\\ud800\\uZZZZ\""), JSON_E_ESCAPE, 9},
    /* surrogates */
    {S("\"\\ud800\""), JSON_E_SURROGATE, 1},
    {S("\"\\uDBFF\""), JSON_E_SURROGATE, 1},
    {S("\"\\udc00\""), JSON_E_SURROGATE, 1},
    {S("\"\\uDFFF\""), JSON_E_SURROGATE, 1},
    {S("\"\\ud800\\u0041\""), JSON_E_SURROGATE, 1},
    {S("\"\\ud800x\""), JSON_E_SURROGATE, 1},
    {S("\"\\ud800\\n\""), JSON_E_SURROGATE, 1},
    {S("\"\\ud800\\ud800\""), JSON_E_SURROGATE, 1},
    {S("\"\\udc00\\ud800\""), JSON_E_SURROGATE, 1},
    {S("\"ab\\ude00\""), JSON_E_SURROGATE, 3},
    {S("{\"\\ud800\":1}"), JSON_E_SURROGATE, 2},
    /* duplicates */
    {S("{\"a\":1,\"a\":2}"), JSON_E_DUPLICATE, 7},
    {S("{\"a\":1,\"a\":1}"), JSON_E_DUPLICATE, 7},
    {S("{\"a\":1,\"\\u0061\":2}"), JSON_E_DUPLICATE, 7},
    {S("{\"\\/\":1,\"/\":2}"), JSON_E_DUPLICATE, 8},
    {S("{\"\":1,\"\":2}"), JSON_E_DUPLICATE, 6},
    {S("{\"\\u0000\":1,\"\\u0000\":2}"), JSON_E_DUPLICATE, 12},
    {S("{\"\xC3\xA9\":1,\"\\u00e9\":2}"), JSON_E_DUPLICATE, 8},
    {S("{\"\\ud83d\\ude00\":1,\"\xF0\x9F\x98\x80\":2}"), JSON_E_DUPLICATE, 18},
    {S("{\"a\":1,\"b\":2,\"c\":3,\"b\":4}"), JSON_E_DUPLICATE, 19},
    {S("[{\"x\":{\"y\":1,\"y\":2}}]"), JSON_E_DUPLICATE, 13},
    {S("{\"axb\":1,\"ayb\":2,\"axb\":3}"), JSON_E_DUPLICATE, 17},
};

START_TEST(json_parse_rejects_what_rfc8259_forbids_with_code_and_offset)
{
	size_t i;

	for (i = 0; i < GPT_ARRAY_LEN(rejected); i++)
		expect_reject(rejected[i].in, rejected[i].len, rejected[i].code,
		    rejected[i].offset);
}
END_TEST

START_TEST(json_parse_never_reads_past_len)
{
	/* Valid JSON in memory, cut short by len: the parser must stop. */
	expect_reject(S("[1]") - 1, JSON_E_TRUNCATED, 2);
	expect_reject(S("\"abc\"") - 1, JSON_E_TRUNCATED, 4);
	expect_reject(S("true") - 1, JSON_E_TRUNCATED, 3);
	expect_reject(S("\"\\u0041\"") - 3, JSON_E_TRUNCATED, 5);
	expect_reject(S("\"\xE2\x82\xAC\"") - 2, JSON_E_UTF8, 1);
	expect_parse(S("12345") - 2);
	{
		struct arena a;
		const struct json_value *v = NULL;
		struct json_err err;

		arena_init(&a, TEST_ARENA_CAP);
		ck_assert_int_eq(
		    json_parse(NULL, 0, &a, 0, &v, &err), JSON_E_EMPTY);
		ck_assert_ptr_null(v);
		arena_free(&a);
	}
}
END_TEST

/* --- json_parse: UTF-8 in strings and member names ----------------------- */

static const struct {
	const char *in;
	size_t len;
} utf8_ok[] = {
    {S("\x7F")},
    {S("\xC2\x80")},
    {S("\xDF\xBF")},
    {S("\xE0\xA0\x80")},
    {S("\xED\x9F\xBF")},
    {S("\xEE\x80\x80")},
    {S("\xEF\xBF\xBF")},
    {S("\xEF\xBF\xBE")},
    {S("\xEF\xB7\x90")},
    {S("\xF0\x90\x80\x80")},
    {S("\xF4\x8F\xBF\xBF")},
};

static const struct {
	const char *in;
	size_t len;
} utf8_bad[] = {
    {S("\x80")},
    {S("\xBF")},
    {S("\xC0\x80")},
    {S("\xC1\xBF")},
    {S("\xE0\x80\x80")},
    {S("\xE0\x9F\xBF")},
    {S("\xF0\x80\x80\x80")},
    {S("\xF0\x8F\xBF\xBF")},
    {S("\xED\xA0\x80")},
    {S("\xED\xBF\xBF")},
    {S("\xF4\x90\x80\x80")},
    {S("\xF5\x80\x80\x80")},
    {S("\xF8\x88\x80\x80\x80")},
    {S("\xFE")},
    {S("\xFF")},
    {S("\xC2")},
    {S("\xE2\x82")},
    {S("\xF0\x9F\x98")},
    {S("\xC2\x41")},
    {S("\xE2\x82\x41")},
};

/* `s` as a string value, then as a member name. */
static void
wrap(char *out, size_t *n, const char *pre, const char *s, size_t len,
    const char *post)
{
	size_t a = strlen(pre), b = strlen(post);

	memcpy(out, pre, a);
	memcpy(out + a, s, len);
	memcpy(out + a + len, post, b);
	*n = a + len + b;
}

START_TEST(json_parse_accepts_utf8_at_every_boundary_in_values_and_names)
{
	char buf[64];
	size_t i, n;
	struct parsed p;

	for (i = 0; i < GPT_ARRAY_LEN(utf8_ok); i++) {
		wrap(buf, &n, "\"", utf8_ok[i].in, utf8_ok[i].len, "\"");
		parse_into(&p, buf, n, 0);
		ck_assert_msg(p.rc == JSON_OK, "rejected %s", show(buf, n));
		ck_assert_uint_eq(p.v->u.str.cps, 1);
		ck_assert_uint_eq(p.v->u.str.len, utf8_ok[i].len);
		ck_assert_mem_eq(p.v->u.str.ptr, utf8_ok[i].in, utf8_ok[i].len);
		parsed_free(&p);
		wrap(buf, &n, "{\"", utf8_ok[i].in, utf8_ok[i].len, "\":0}");
		expect_parse(buf, n);
	}
}
END_TEST

START_TEST(json_parse_rejects_invalid_utf8_in_values_and_names)
{
	char buf[64];
	size_t i, n;

	for (i = 0; i < GPT_ARRAY_LEN(utf8_bad); i++) {
		wrap(buf, &n, "\"", utf8_bad[i].in, utf8_bad[i].len, "\"");
		expect_reject(buf, n, JSON_E_UTF8, 1);
		wrap(buf, &n, "{\"", utf8_bad[i].in, utf8_bad[i].len, "\":0}");
		expect_reject(buf, n, JSON_E_UTF8, 2);
		wrap(buf, &n, "[\"ok\",\"x", utf8_bad[i].in, utf8_bad[i].len,
		    "\"]");
		expect_reject(buf, n, JSON_E_UTF8, 8);
		/* truncated at the very end of the input */
		wrap(buf, &n, "\"", utf8_bad[i].in, utf8_bad[i].len, "");
		expect_reject(buf, n, JSON_E_UTF8, 1);
	}
}
END_TEST

START_TEST(json_parse_classifies_every_byte_at_every_word_offset)
{
	/* The string scanner reads sixteen bytes at a time (eight, or one,
	 * on the portable paths): put each byte value at each offset of two
	 * vectors, after and before plain ASCII. */
	char buf[80];
	unsigned b, k;
	size_t n;

	for (k = 0; k <= 33; k++)
		for (b = 0; b <= 0xFF; b++) {
			n = 0;
			buf[n++] = '"';
			memset(buf + n, 'a', k);
			n += k;
			buf[n++] = (char)b;
			memset(buf + n, 'a', 17);
			n += 17;
			buf[n++] = '"';
			if (b == '"')
				expect_reject(buf, n, JSON_E_TRAILING, k + 2);
			else if (b == '\\')
				expect_reject(buf, n, JSON_E_ESCAPE, k + 2);
			else if (b < 0x20)
				expect_reject(buf, n, JSON_E_CONTROL, k + 1);
			else if (b >= 0x80)
				expect_reject(buf, n, JSON_E_UTF8, k + 1);
			else
				expect_parse(buf, n);
		}
}
END_TEST

/* --- json_parse: the tree --------------------------------------------------
 */

START_TEST(json_parse_builds_the_tree_in_document_order)
{
	struct parsed p;
	const struct json_value *v, *a;

	parse_into(&p,
	    S("{\"z\":[1,\"two\",true,false,null,{}],\"a\":{\"b\":[]}}"), 0);
	ck_assert_int_eq(p.rc, JSON_OK);
	v = p.v;
	ck_assert_int_eq(v->type, JSON_T_OBJECT);
	ck_assert_uint_eq(v->u.obj.count, 2);
	ck_assert_ptr_null(v->u.obj.index);
	ck_assert_mem_eq(v->u.obj.members[0].key.ptr, "z", 1);
	ck_assert_mem_eq(v->u.obj.members[1].key.ptr, "a", 1);
	a = &v->u.obj.members[0].value;
	ck_assert_int_eq(a->type, JSON_T_ARRAY);
	ck_assert_uint_eq(a->u.arr.count, 6);
	ck_assert_int_eq(a->u.arr.items[0].type, JSON_T_NUMBER);
	ck_assert_int_eq(a->u.arr.items[0].u.num.i, 1);
	ck_assert_int_eq(a->u.arr.items[1].type, JSON_T_STRING);
	ck_assert_uint_eq(a->u.arr.items[1].u.str.len, 3);
	ck_assert_mem_eq(a->u.arr.items[1].u.str.ptr, "two", 3);
	ck_assert_int_eq(a->u.arr.items[2].type, JSON_T_TRUE);
	ck_assert_int_eq(a->u.arr.items[3].type, JSON_T_FALSE);
	ck_assert_int_eq(a->u.arr.items[4].type, JSON_T_NULL);
	ck_assert_int_eq(a->u.arr.items[5].type, JSON_T_OBJECT);
	ck_assert_uint_eq(a->u.arr.items[5].u.obj.count, 0);
	ck_assert_ptr_nonnull(a->u.arr.items[5].u.obj.members);
	a = json_object_get(&v->u.obj.members[1].value, "b", 1);
	ck_assert_ptr_nonnull(a);
	ck_assert_int_eq(a->type, JSON_T_ARRAY);
	ck_assert_uint_eq(a->u.arr.count, 0);
	ck_assert_ptr_nonnull(a->u.arr.items);
	parsed_free(&p);
}
END_TEST

static const struct {
	const char *in;
	bool small;
	int64_t i;
} numbers[] = {
    {"0", true, 0},
    {"-0", true, 0},
    {"42", true, 42},
    {"-42", true, -42},
    {"9223372036854775807", true, INT64_MAX},
    {"-9223372036854775808", true, INT64_MIN},
    {"9223372036854775808", false, 0},
    {"-9223372036854775809", false, 0},
    {"18446744073709551616", false, 0},
    {"99999999999999999999", false, 0},
    {"1.0", false, 0},
    {"1e2", false, 0},
    {"1E400", false, 0},
    {"1e-400", false, 0},
    {"-0.0", false, 0},
    /* runs of eight digits and the bytes after them (json.c reads
     * eight at a time) */
    {"12345678", true, 12345678},
    {"-87654321", true, -87654321},
    {"123456789", true, 123456789},
    {"10000000", true, 10000000},
    {"1700000123", true, 1700000123},
    {"1234567890123456", true, INT64_C(1234567890123456)},
    {"-12345678901234567", true, -INT64_C(12345678901234567)},
    {"9999999999999999999", false, 0},
    {"1234567.12345678901e+12345678", false, 0},
    {"0.123456789012345678", false, 0},
};

START_TEST(json_parse_keeps_number_text_and_sets_small_ints)
{
	struct parsed p;
	size_t i, n;

	for (i = 0; i < GPT_ARRAY_LEN(numbers); i++) {
		n = strlen(numbers[i].in);
		parse_into(&p, numbers[i].in, n, 0);
		ck_assert_msg(p.rc == JSON_OK, "rejected %s", numbers[i].in);
		ck_assert_int_eq(p.v->type, JSON_T_NUMBER);
		ck_assert_uint_eq(p.v->u.num.len, n);
		ck_assert_mem_eq(p.v->u.num.text, numbers[i].in, n);
		/* borrowed from the input, not copied */
		ck_assert_ptr_eq(p.v->u.num.text, p.copy);
		ck_assert_msg(p.v->u.num.is_small_int == numbers[i].small,
		    "is_small_int wrong for %s", numbers[i].in);
		if (numbers[i].small)
			ck_assert_msg(p.v->u.num.i == numbers[i].i,
			    "i wrong for %s", numbers[i].in);
		parsed_free(&p);
	}
}
END_TEST

START_TEST(json_parse_accepts_a_ten_thousand_digit_number)
{
	size_t n = 10000 + 8;
	char *s = malloc(n);
	struct parsed p;

	ck_assert_ptr_nonnull(s);
	memset(s, '7', n);
	s[0] = '-';
	memcpy(s + n - 7, ".5e-999", 7);
	parse_into(&p, s, n, 0);
	ck_assert_int_eq(p.rc, JSON_OK);
	ck_assert_uint_eq(p.v->u.num.len, n);
	ck_assert(!p.v->u.num.is_small_int);
	parsed_free(&p);
	free(s);
}
END_TEST

static const struct {
	const char *in;
	size_t len;
	const char *want;
	size_t want_len;
	size_t cps;
} strings[] = {
    {S("\"\""), S(""), 0},
    {S("\"abc\""), S("abc"), 3},
    {S("\"a\\nb\""), S("a\nb"), 3},
    {S("\"\\\"\\\\\\/\\b\\f\\n\\r\\t\""), S("\"\\/\b\f\n\r\t"), 8},
    {S("\"\\u0000\""), S("\0"), 1},
    {S("\"a\\u0000b\""), S("a\0b"), 3},
    {S("\"\\u0041\""), S("A"), 1},
    {S("\"\\u00e9\""), S("\xC3\xA9"), 1},
    {S("\"\\u07FF\\u0800\""), S("\xDF\xBF\xE0\xA0\x80"), 2},
    {S("\"\\u20ac\""), S("\xE2\x82\xAC"), 1},
    {S("\"\\uFFFF\""), S("\xEF\xBF\xBF"), 1},
    {S("\"\\ud800\\udc00\""), S("\xF0\x90\x80\x80"), 1},
    {S("\"\\ud83d\\ude00\""), S("\xF0\x9F\x98\x80"), 1},
    {S("\"\\uDBFF\\uDFFF\""), S("\xF4\x8F\xBF\xBF"), 1},
    {S("\"\xC3\xA9\\u00e9\xF0\x9F\x98\x80\""),
        S("\xC3\xA9\xC3\xA9\xF0\x9F\x98\x80"), 3},
};

START_TEST(json_parse_unescapes_strings_and_counts_code_points)
{
	struct parsed p;
	size_t i;

	for (i = 0; i < GPT_ARRAY_LEN(strings); i++) {
		parse_into(&p, strings[i].in, strings[i].len, 0);
		ck_assert_msg(p.rc == JSON_OK, "rejected %s",
		    show(strings[i].in, strings[i].len));
		ck_assert_int_eq(p.v->type, JSON_T_STRING);
		ck_assert_msg(p.v->u.str.len == strings[i].want_len &&
		                  memcmp(p.v->u.str.ptr, strings[i].want,
		                      strings[i].want_len) == 0,
		    "%s unescaped to %s", show(strings[i].in, strings[i].len),
		    show(p.v->u.str.ptr, p.v->u.str.len));
		ck_assert_msg(p.v->u.str.cps == strings[i].cps,
		    "%s: %zu code points, expected %zu",
		    show(strings[i].in, strings[i].len), p.v->u.str.cps,
		    strings[i].cps);
		parsed_free(&p);
	}
}
END_TEST

START_TEST(json_parse_borrows_strings_without_escapes_from_the_input)
{
	struct parsed p;

	parse_into(&p, S("[\"plain \xC3\xA9\",\"esc\\n\"]"), 0);
	ck_assert_int_eq(p.rc, JSON_OK);
	ck_assert_ptr_eq(p.v->u.arr.items[0].u.str.ptr, p.copy + 2);
	ck_assert(p.v->u.arr.items[1].u.str.ptr < p.copy ||
	          p.v->u.arr.items[1].u.str.ptr >= p.copy + 20);
	parsed_free(&p);
}
END_TEST

START_TEST(json_parse_accepts_a_key_holding_nul)
{
	struct parsed p;
	const struct json_value *v;

	parse_into(&p, S("{\"a\\u0000b\":1,\"a\":2}"), 0);
	ck_assert_int_eq(p.rc, JSON_OK);
	ck_assert_uint_eq(p.v->u.obj.members[0].key.len, 3);
	ck_assert_mem_eq(p.v->u.obj.members[0].key.ptr, "a\0b", 3);
	v = json_object_get(p.v, "a\0b", 3);
	ck_assert_ptr_nonnull(v);
	ck_assert_int_eq(v->u.num.i, 1);
	v = json_object_get(p.v, "a", 1);
	ck_assert_ptr_nonnull(v);
	ck_assert_int_eq(v->u.num.i, 2);
	parsed_free(&p);
}
END_TEST

START_TEST(json_parse_accepts_a_ten_megabyte_string)
{
	size_t n = 10 * 1024 * 1024 + 2;
	char *s = malloc(n);
	struct parsed p;

	ck_assert_ptr_nonnull(s);
	memset(s, 'x', n);
	s[0] = s[n - 1] = '"';
	memcpy(s + 100, "\xE2\x82\xAC", 3);
	parse_into(&p, s, n, 0);
	ck_assert_int_eq(p.rc, JSON_OK);
	ck_assert_uint_eq(p.v->u.str.len, n - 2);
	ck_assert_uint_eq(p.v->u.str.cps, n - 4);
	parsed_free(&p);
	/* ... and one with an escape near its end is copied whole. */
	memcpy(s + n - 10, "\\u00e9", 6);
	parse_into(&p, s, n, 0);
	ck_assert_int_eq(p.rc, JSON_OK);
	ck_assert_uint_eq(p.v->u.str.len, n - 2 - 4);
	parsed_free(&p);
	free(s);
}
END_TEST

/* --- json_parse: duplicates -------------------------------------------------
 */

/* depth-1 arrays around {"a":1,"a":2} (or {"a":1,"b":2}) */
static char *
nested_object(size_t depth, bool dup, size_t *n)
{
	const char *obj = dup ? "{\"a\":1,\"a\":2}" : "{\"a\":1,\"b\":2}";
	size_t k = strlen(obj), i;
	char *s = malloc(2 * depth + k);

	ck_assert_ptr_nonnull(s);
	for (i = 0; i + 1 < depth; i++)
		s[i] = '[';
	memcpy(s + depth - 1, obj, k);
	for (i = 0; i + 1 < depth; i++)
		s[depth - 1 + k + i] = ']';
	*n = 2 * (depth - 1) + k;
	return s;
}

START_TEST(json_parse_rejects_duplicates_at_depth_1_3_and_100)
{
	static const size_t depths[] = {1, 3, 100};
	size_t i, n;
	char *s;

	for (i = 0; i < GPT_ARRAY_LEN(depths); i++) {
		s = nested_object(depths[i], true, &n);
		expect_reject_depth(
		    s, n, 200, JSON_E_DUPLICATE, depths[i] - 1 + 7);
		free(s);
		s = nested_object(depths[i], false, &n);
		expect_parse_depth(s, n, 200);
		free(s);
	}
	/* an object nested in objects, the duplicate deep inside */
	expect_reject(S("{\"a\":{\"b\":{\"c\":1,\"d\":{},\"c\":2}}}"),
	    JSON_E_DUPLICATE, 24);
}
END_TEST

/* {"k0":0,"k1":1,...} with n members; the last name is `last` if given. */
static char *
big_object(size_t n, const char *last, size_t *len)
{
	struct buf b;
	size_t i;

	buf_init(&b, SIZE_MAX);
	ck_assert_int_eq(buf_putc(&b, '{'), 0);
	for (i = 0; i < n; i++) {
		if (i + 1 == n && last != NULL)
			ck_assert_int_eq(buf_printf(&b, "%s\"%s\":%zu",
			                     i ? "," : "", last, i),
			    0);
		else
			ck_assert_int_eq(buf_printf(&b, "%s\"k%zu\":%zu",
			                     i ? "," : "", i, i),
			    0);
	}
	ck_assert_int_eq(buf_putc(&b, '}'), 0);
	return buf_take(&b, len);
}

START_TEST(json_parse_rejects_a_duplicate_among_ten_thousand_members)
{
	size_t n;
	char *s = big_object(10000, "k0", &n);
	char *at = strstr(s, ",\"k0\"");

	ck_assert_ptr_nonnull(at);
	expect_reject(s, n, JSON_E_DUPLICATE, (size_t)(at + 1 - s));
	free(s);
	s = big_object(10000, "k\\u0030", &n);
	expect_reject(s, n, JSON_E_DUPLICATE, ANY);
	free(s);
	s = big_object(10000, "k5000", &n);
	expect_reject(s, n, JSON_E_DUPLICATE, ANY);
	free(s);
	s = big_object(10000, NULL, &n);
	expect_parse(s, n);
	free(s);
}
END_TEST

START_TEST(json_parse_handles_a_hundred_thousand_members)
{
	size_t n, i;
	char *s = big_object(100000, NULL, &n);
	struct parsed p;
	char key[16];

	parse_into(&p, s, n, 0);
	ck_assert_int_eq(p.rc, JSON_OK);
	ck_assert_uint_eq(p.v->u.obj.count, 100000);
	for (i = 0; i < 100000; i += 997) {
		const struct json_value *v;
		int k = snprintf(key, sizeof(key), "k%zu", i);

		v = json_object_get(p.v, key, (size_t)k);
		ck_assert_ptr_nonnull(v);
		ck_assert_int_eq(v->u.num.i, (int64_t)i);
	}
	parsed_free(&p);
	free(s);
}
END_TEST

/* --- json_parse: the member index under floods -----------------------------
 */

#define FLOOD_NAMES 4096
#define FLOOD_LEN 8

/* {"<name 0>":0,"<name 1>":1,...} from count names of len bytes at names,
 * then the first name again when dup. */
static char *
object_of(const char *names, size_t count, size_t len, bool dup, size_t *n)
{
	size_t cap = (count + 1) * (len + 16) + 2, o = 0, i;
	char *s = malloc(cap);

	ck_assert_ptr_nonnull(s);
	s[o++] = '{';
	for (i = 0; i < count + (dup ? 1 : 0); i++) {
		o += (size_t)snprintf(s + o, cap - o, "%s\"%.*s\":%zu",
		    i ? "," : "", (int)len, names + (i % count) * len, i);
	}
	s[o++] = '}';
	*n = o;
	return s;
}

/* Every name of the object found by json_object_get, with its value. */
static void
expect_all_found(
    const struct json_value *v, const char *names, size_t count, size_t len)
{
	size_t i;

	for (i = 0; i < count; i++) {
		const struct json_value *m =
		    json_object_get(v, names + i * len, len);

		ck_assert_ptr_nonnull(m);
		ck_assert_int_eq(m->u.num.i, (int64_t)i);
	}
	ck_assert_ptr_null(json_object_get(v, "absent!!", 8));
}

START_TEST(names_colliding_under_the_old_hash_cost_linear_probes)
{
	/* 4096 names in the first 16 slots of every table up to 2^14 under
	 * the old unkeyed FNV-1a: about 8 million probes before */
	char *names =
	    flood_names(flood_old_member_hash, 4, 14, FLOOD_NAMES, FLOOD_LEN);
	size_t n;
	char *s;
	struct parsed p;

	ck_assert_ptr_nonnull(names);
	s = object_of(names, FLOOD_NAMES, FLOOD_LEN, false, &n);
	json_index_probes = 0;
	parse_into(&p, s, n, 0);
	ck_assert_int_eq(p.rc, JSON_OK);
	ck_assert_msg(json_index_probes <= 4 * FLOOD_NAMES,
	    "%llu probes for %d names", (unsigned long long)json_index_probes,
	    FLOOD_NAMES);
	json_index_probes = 0;
	expect_all_found(p.v, names, FLOOD_NAMES, FLOOD_LEN);
	ck_assert_msg(json_index_probes <= 4 * FLOOD_NAMES,
	    "%llu probes for %d lookups", (unsigned long long)json_index_probes,
	    FLOOD_NAMES);
	parsed_free(&p);
	free(s);
	free(names);
}
END_TEST

/* The keyed hash, counted. */

static uint64_t
counted_hash(const char *s, size_t n)
{
	hashed++;
	return hash_bytes(s, n);
}

START_TEST(objects_of_up_to_32_distinct_names_take_no_hash)
{
	static const char *const bodies[] = {
	    /* the twenty names of a record in the formats benchmark */
	    "{\"at\":1,\"day\":1,\"clock\":1,\"span\":1,\"mail\":1,"
	    "\"host\":1,\"v4\":1,\"v6\":1,\"link\":1,\"ref\":1,\"id\":1,"
	    "\"tpl\":1,\"ptr\":1,\"rel\":1,\"re\":1,\"n32\":1,\"n64\":1,"
	    "\"f32\":1,\"f64\":1,\"blob\":1}",
	    "{\"a\":1,\"b\":2,\"c\":3,\"d\":4,\"e\":5,\"f\":6,\"g\":7,"
	    "\"h\":8,\"i\":9,\"j\":10}",
	};
	static const char *const last[] = {"blob", "j"};
	struct parsed p;
	size_t k;

	json_test_key_hash = counted_hash;
	for (k = 0; k < GPT_ARRAY_LEN(bodies); k++) {
		hashed = 0;
		parse_into(&p, bodies[k], strlen(bodies[k]), 0);
		ck_assert_int_eq(p.rc, JSON_OK);
		ck_assert_uint_eq(hashed, 0);
		ck_assert_ptr_null(p.v->u.obj.index);
		/* searched linearly */
		ck_assert_ptr_nonnull(
		    json_object_get(p.v, last[k], strlen(last[k])));
		parsed_free(&p);
	}
	json_test_key_hash = NULL;
}
END_TEST

START_TEST(names_sharing_a_signature_spend_the_compares_then_hash)
{
	/* 32 names of 4 bytes with one signature, found as an attacker
	 * would (it is not keyed), so every name after the first takes
	 * the comparisons */
	char names[32 * 4], *s, cand[4];
	size_t i, n;
	unsigned k, want;
	struct parsed p;

	want = json_test_name_sig("a000", 4);
	for (i = 0, k = 0; i < 32; k++) {
		ck_assert_uint_lt(k, 36 * 36 * 36);
		cand[0] = 'a';
		cand[1] = "0123456789abcdefghijklmnopqrstuvwxyz"[k / 1296];
		cand[2] = "0123456789abcdefghijklmnopqrstuvwxyz"[k / 36 % 36];
		cand[3] = "0123456789abcdefghijklmnopqrstuvwxyz"[k % 36];
		if (json_test_name_sig(cand, 4) == want)
			memcpy(names + 4 * i++, cand, 4);
	}
	json_test_key_hash = counted_hash;
	json_index_probes = 0;
	hashed = 0;
	s = object_of(names, 32, 4, false, &n);
	parse_into(&p, s, n, 0);
	ck_assert_int_eq(p.rc, JSON_OK);
	/* at most 64 comparisons, then each name hashed once */
	ck_assert_uint_le(hashed, 32);
	ck_assert_uint_gt(hashed, 0);
	ck_assert_msg(json_index_probes <= 64 + 4 * 32, "%llu probes",
	    (unsigned long long)json_index_probes);
	ck_assert_ptr_nonnull(p.v->u.obj.index);
	expect_all_found(p.v, names, 32, 4);
	parsed_free(&p);
	free(s);
	/* the duplicate is found on either side of the switch */
	for (i = 2; i <= 32; i += 10) {
		s = object_of(names, i, 4, true, &n);
		parse_into(&p, s, n, 0);
		ck_assert_int_eq(p.rc, JSON_E_DUPLICATE);
		parsed_free(&p);
		free(s);
	}
	json_test_key_hash = NULL;
}
END_TEST

/* A hash an attacker knows completely: every name one slot. */
static uint64_t
one_slot(const char *s, size_t n)
{
	(void)s;
	(void)n;
	return 7;
}

START_TEST(names_colliding_under_the_keyed_hash_move_the_object_to_a_tree)
{
	/* the worst case whatever the hash: at most 128 probes per
	 * insertion before the tree, then 2 log2(n + 1) comparisons */
	char *names = flood_names(NULL, 0, 0, FLOOD_NAMES, FLOOD_LEN);
	const uint64_t bound = (uint64_t)FLOOD_NAMES * 2 * 13 + 128 * 256;
	size_t n, dup_at;
	char *s;
	struct parsed p;

	ck_assert_ptr_nonnull(names);
	json_test_key_hash = one_slot;
	s = object_of(names, FLOOD_NAMES, FLOOD_LEN, false, &n);
	json_index_probes = 0;
	parse_into(&p, s, n, 0);
	ck_assert_int_eq(p.rc, JSON_OK);
	ck_assert_msg(json_index_probes <= bound, "%llu probes",
	    (unsigned long long)json_index_probes);
	json_index_probes = 0;
	expect_all_found(p.v, names, FLOOD_NAMES, FLOOD_LEN);
	ck_assert_msg(json_index_probes <= (uint64_t)FLOOD_NAMES * 2 * 13,
	    "%llu probes for lookups", (unsigned long long)json_index_probes);
	parsed_free(&p);
	free(s);
	/* a duplicate is still found, at the same offset */
	s = object_of(names, FLOOD_NAMES, FLOOD_LEN, true, &n);
	dup_at = (size_t)(strrchr(s, ',') - s) + 1;
	parse_into(&p, s, n, 0);
	ck_assert_int_eq(p.rc, JSON_E_DUPLICATE);
	ck_assert_uint_eq(p.err.offset, dup_at);
	parsed_free(&p);
	json_test_key_hash = NULL;
	free(s);
	free(names);
}
END_TEST

/* --- json_parse: depth ------------------------------------------------------
 */

/* n '[' then (balanced) n ']' */
static char *
brackets(size_t n, bool balanced, size_t *len)
{
	char *s = malloc(2 * n + 1);

	ck_assert_ptr_nonnull(s);
	memset(s, '[', n);
	memset(s + n, ']', n);
	*len = balanced ? 2 * n : n;
	return s;
}

START_TEST(json_parse_accepts_depth_at_the_limit_and_rejects_one_past)
{
	size_t n;
	char *s;

	s = brackets(JSON_MAX_DEPTH, true, &n);
	expect_parse(s, n);
	free(s);
	s = brackets(JSON_MAX_DEPTH + 1, true, &n);
	expect_reject(s, n, JSON_E_DEPTH, JSON_MAX_DEPTH);
	free(s);
	expect_parse_depth(S("[[[]]]"), 3);
	expect_reject_depth(S("[[[[]]]]"), 3, JSON_E_DEPTH, 3);
	expect_reject_depth(S("{\"a\":[{}]}"), 2, JSON_E_DEPTH, 6);
	expect_parse_depth(S("[1,[2],3]"), 2);
	expect_parse_depth(S("1"), 1);
	expect_parse_depth(S("[]"), 1);
	expect_reject_depth(S("[[]]"), 1, JSON_E_DEPTH, 1);
}
END_TEST

START_TEST(json_parse_rejects_a_hundred_thousand_brackets_cleanly)
{
	size_t n;
	char *s = brackets(100000, false, &n);

	expect_reject(s, n, JSON_E_DEPTH, JSON_MAX_DEPTH);
	/* With the limit lifted, no recursion means no stack overflow. */
	expect_reject_depth(s, n, 200000, JSON_E_TRUNCATED, n);
	free(s);
	s = brackets(100000, true, &n);
	expect_parse_depth(s, n, 100000);
	expect_reject_depth(s, n, 99999, JSON_E_DEPTH, 99999);
	free(s);
}
END_TEST

/* --- json_parse: memory ------------------------------------------------------
 */

START_TEST(json_parse_reports_nomem_when_the_arena_refuses)
{
	struct arena a;
	const struct json_value *v = (const struct json_value *)&a;
	struct json_err err;
	size_t n, i;
	char *s = big_object(20000, NULL, &n);

	arena_init(&a, 64 * 1024);
	ck_assert_int_eq(json_parse(s, n, &a, 0, &v, &err), JSON_E_NOMEM);
	ck_assert_int_eq(err.code, JSON_E_NOMEM);
	ck_assert_ptr_eq(v, (const struct json_value *)&a);
	ck_assert_uint_le(arena_held(&a), arena_cap(&a));
	arena_free(&a);
	free(s);
	/* Every cap either parses or refuses cleanly. */
	s = big_object(300, NULL, &n);
	for (i = 1; i < 64; i++) {
		enum json_errcode rc;

		arena_init(&a, i * 1024);
		rc = json_parse(s, n, &a, 0, &v, &err);
		ck_assert(rc == JSON_OK || rc == JSON_E_NOMEM);
		arena_free(&a);
	}
	free(s);
}
END_TEST

/*
 * json.h's parse budget holds for the densest inputs of each kind: an
 * arena capped at ARENA_WORST_FACTOR * (JSON_PARSE_BYTES_PER_INPUT_BYTE *
 * len + JSON_PARSE_BYTES_FIXED) parses `[1,1,...]`, `[[],[],...]`,
 * `{"a":0,"b":0,...}` (two-byte names: 6 bytes a member) and
 * `["\n",...]`, each about 512 KiB.
 */
/* b's text parses in an arena capped as json.h's budget says. */
static void
expect_parse_in_budget(struct buf *b, const char *what, size_t k)
{
	struct arena a;
	const struct json_value *v;
	struct json_err err;
	size_t len = buf_len(b);

	arena_init(
	    &a, ARENA_WORST_FACTOR * (JSON_PARSE_BYTES_PER_INPUT_BYTE * len +
	                                 JSON_PARSE_BYTES_FIXED));
	ck_assert_msg(json_parse(buf_ptr(b), len, &a, 0, &v, &err) == JSON_OK,
	    "%s %zu: %s", what, k, err.msg);
	arena_free(&a);
}

START_TEST(json_parse_fits_the_budget_json_h_derives)
{
	static const char *const pieces[] = {"1", "[]", NULL, "\"\\n\""};
	static const char letters[] =
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
	size_t k;

	for (k = 0; k < sizeof(pieces) / sizeof(pieces[0]); k++) {
		struct buf b;
		size_t i;

		buf_init(&b, (size_t)1 << 21);
		ck_assert_int_eq(buf_putc(&b, pieces[k] ? '[' : '{'), 0);
		for (i = 0; buf_len(&b) < (size_t)512 * 1024; i++) {
			char name[24];

			if (i > 0)
				ck_assert_int_eq(buf_putc(&b, ','), 0);
			if (pieces[k] != NULL) {
				ck_assert_int_eq(buf_puts(&b, pieces[k]), 0);
				continue;
			}
			/* distinct names of two bytes (52 * 52), then of
			 * digits */
			if (i < 52 * 52)
				snprintf(name, sizeof(name), "%c%c",
				    letters[i % 52], letters[i / 52]);
			else
				snprintf(name, sizeof(name), "%zu", i);
			ck_assert_int_eq(buf_putc(&b, '"'), 0);
			ck_assert_int_eq(buf_puts(&b, name), 0);
			ck_assert_int_eq(buf_puts(&b, "\":0"), 0);
		}
		ck_assert_int_eq(buf_putc(&b, pieces[k] ? ']' : '}'), 0);
		expect_parse_in_budget(&b, "piece", k);
		buf_free(&b);
	}
	/* the deepest inputs the default depth admits, each level a chunk
	 * of its own: 128 arrays, 128 objects of one member */
	for (k = 0; k < 2; k++) {
		struct buf b;
		size_t i;

		buf_init(&b, (size_t)1 << 16);
		for (i = 0; i < JSON_MAX_DEPTH; i++)
			ck_assert_int_eq(buf_puts(&b, k ? "{\"\":" : "["), 0);
		ck_assert_int_eq(buf_putc(&b, '0'), 0);
		for (i = 0; i < JSON_MAX_DEPTH; i++)
			ck_assert_int_eq(buf_putc(&b, k ? '}' : ']'), 0);
		expect_parse_in_budget(&b, "depth", k);
		buf_free(&b);
	}
}
END_TEST

/* Every member keeps its name's two words (json_name_words of the name
 * as unescaped), whatever its length, however it was written, and
 * however near the input's end (the last name has fewer than 16 bytes
 * after it). */
START_TEST(json_parse_keeps_each_member_name_words)
{
	static const char text[] =
	    "{\"\":0,\"a\":1,\"abc\":2,\"abcd\":3,\"abcdefg\":4,"
	    "\"abcdefgh\":5,\"abcdefghijklmnopq\":6,\"\\u0061\\n\\u00e9x\":7,"
	    "\"abcdefghijklmno\":8,\"abcdefghijklmnop\":9,"
	    "\"\xc3\xa9t\xc3\xa9\":10,"
	    "\"end\":11}";
	struct arena a;
	const struct json_value *v;
	struct json_err err;
	size_t i;

	arena_init(&a, 1 << 20);
	ck_assert_int_eq(
	    json_parse(text, sizeof(text) - 1, &a, 0, &v, &err), JSON_OK);
	ck_assert_uint_eq(v->u.obj.count, 12);
	for (i = 0; i < v->u.obj.count; i++) {
		const struct json_member *m = &v->u.obj.members[i];
		uint64_t wa, wb;

		json_name_words(m->key.ptr, m->key.len, &wa, &wb);
		ck_assert_uint_eq(m->key_wa, wa);
		ck_assert_uint_eq(m->key_wb, wb);
	}
	/* the escaped name's words are of its bytes: "a\n\xc3\xa9x" */
	ck_assert_uint_eq(v->u.obj.members[7].key.len, 5);
	ck_assert_int_eq(
	    memcmp(v->u.obj.members[7].key.ptr, "a\n\xc3\xa9x", 5), 0);
	/* every length from 0 to 20, far from the end and at it: the
	 * one-load path for names under 16 bytes, and the others */
	for (i = 0; i <= 20; i++) {
		char body[96];
		size_t k, n;
		int at_end;

		for (at_end = 0; at_end <= 1; at_end++) {
			const struct json_member *m;
			uint64_t wa, wb;

			n = 0;
			body[n++] = '{';
			body[n++] = '"';
			for (k = 0; k < i; k++)
				body[n++] = (char)('a' + (k * 7) % 26);
			memcpy(body + n, "\":1", 3);
			n += 3;
			if (!at_end) {
				static const char more[] =
				    ",\"zzzzzzzzzzzzzzzzzz\":2";

				memcpy(body + n, more, sizeof(more) - 1);
				n += sizeof(more) - 1;
			}
			body[n++] = '}';
			arena_reset(&a);
			ck_assert_int_eq(
			    json_parse(body, n, &a, 0, &v, &err), JSON_OK);
			m = &v->u.obj.members[0];
			ck_assert_uint_eq(m->key.len, i);
			ck_assert_uint_eq(m->key.cps, i);
			ck_assert_ptr_eq(m->key.ptr, body + 2);
			json_name_words(body + 2, i, &wa, &wb);
			ck_assert_msg(m->key_wa == wa && m->key_wb == wb,
			    "the words of a %zu-byte name", i);
		}
	}
	arena_free(&a);
}
END_TEST

/* The words are what json.h says, whatever the length: up to 16 bytes
 * the name's bytes 0-7 and 8-15 with zero past its end, longer its first
 * and last 8; read from the name's own bytes only (the bytes after it
 * here differ from zero, and would show). */
START_TEST(json_name_words_are_the_name_bytes_zero_padded)
{
	unsigned char text[48], w[16];
	uint64_t wa, wb, want_a, want_b;
	size_t len, i;

	for (i = 0; i < sizeof(text); i++)
		text[i] = (unsigned char)(0xA5 ^ (i * 37));
	for (len = 0; len <= 40; len++) {
		memset(w, 0, sizeof(w));
		memcpy(w, text, len < 16 ? len : 16);
		memcpy(&want_a, w, 8);
		if (len > 16)
			memcpy(&want_b, text + len - 8, 8);
		else
			memcpy(&want_b, w + 8, 8);
		json_name_words((const char *)text, len, &wa, &wb);
		ck_assert_msg(wa == want_a && wb == want_b,
		    "the words of a %zu-byte name", len);
	}
}
END_TEST

/* An object of `count` members: distinct names `filler` long from
 * "m000..." up, then the name at `first` (position 0) again last as
 * `again`, raw or escaped. */
static char *
object_ending_in(size_t count, size_t filler, const char *first,
    const char *again, size_t *len)
{
	struct buf b;
	size_t i;

	buf_init(&b, SIZE_MAX);
	ck_assert_int_eq(buf_printf(&b, "{\"%s\":0", first), 0);
	for (i = 1; i + 1 < count; i++)
		ck_assert_int_eq(
		    buf_printf(&b, ",\"m%0*zu\":%zu", (int)filler - 1, i, i),
		    0);
	ck_assert_int_eq(buf_printf(&b, ",\"%s\":1}", again), 0);
	return buf_take(&b, len);
}

START_TEST(json_parse_finds_duplicates_by_words_and_the_bytes_between)
{
	/* names of every length class of the words: the empty one, up to
	 * 16 bytes (words and length are the name), 17 (one byte between
	 * the first and last 8) and longer */
	static const char *const alike[][2] = {
	    {"", "\\u0000"},
	    {"a", "b"},
	    {"abcdefgh", "abcdefgi"},
	    {"abcdefghijklmno", "abcdefghijklmnp"},
	    {"abcdefghijklmnop", "abcdefgXijklmnop"},
	    {"abcdefgh-ijklmnop", "abcdefgh+ijklmnop"},
	    {"x-vendor-1-thing-2", "x-vendor-2-thing-2"},
	    {"x-vendor-thing-of-some-length-abc",
	        "x-vendor-thing-of-SOME-length-abc"},
	};
	static const char *const escaped[] = {"", "\\u0061", "\\u0061bcdefgh",
	    "\\u0061bcdefghijklmno", "abcdefghijklmno\\u0070",
	    "abcdefgh\\u002dijklmnop", "x-vendor-\\u0031-thing-2",
	    "x-vendor-thing-of-some-length-ab\\u0063"};
	static const char *const plain[] = {"", "a", "abcdefgh",
	    "abcdefghijklmno", "abcdefghijklmnop", "abcdefgh-ijklmnop",
	    "x-vendor-1-thing-2", "x-vendor-thing-of-some-length-abc"};
	static const size_t counts[] = {
	    2, 15, 16, 17, 33, 63, 64, 65, 66, 100, 127, 128, 129, 200};
	size_t i, c, n;
	char *s;
	char prev[32];

	/* the same name as the member just before it: in an object of
	 * over 65, among the signatures past the first 64 */
	for (c = 0; c < GPT_ARRAY_LEN(counts); c++) {
		if (counts[c] < 3)
			continue;
		snprintf(prev, sizeof(prev), "m%05zu", counts[c] - 2);
		s = object_ending_in(counts[c], 6, "a", prev, &n);
		expect_reject(s, n, JSON_E_DUPLICATE, n - 5 - strlen(prev));
		free(s);
	}

	for (i = 0; i < GPT_ARRAY_LEN(alike); i++) {
		for (c = 0; c < GPT_ARRAY_LEN(counts); c++) {
			/* names alike but for one byte (or differing only
			 * between their first and last 8) are distinct, and
			 * "" is not "\\u0000" */
			s = object_ending_in(
			    counts[c], 6, alike[i][0], alike[i][1], &n);
			expect_parse(s, n);
			free(s);
			/* the same name last, raw and escaped */
			s = object_ending_in(
			    counts[c], 6, plain[i], plain[i], &n);
			expect_reject(
			    s, n, JSON_E_DUPLICATE, n - 5 - strlen(plain[i]));
			free(s);
			if (escaped[i][0] == '\0')
				continue;
			s = object_ending_in(
			    counts[c], 6, plain[i], escaped[i], &n);
			expect_reject(
			    s, n, JSON_E_DUPLICATE, n - 5 - strlen(escaped[i]));
			free(s);
		}
	}
}
END_TEST

/* --- json_object_get
 * ------------------------------------------------------------ */

START_TEST(json_object_get_finds_members_of_small_and_large_objects)
{
	static const size_t sizes[] = {
	    1, 7, 8, 9, 10, 16, 17, 32, 33, 64, 65, 127, 128, 129, 1000};
	size_t k, i, n;
	struct parsed p;
	char key[16];

	for (k = 0; k < GPT_ARRAY_LEN(sizes); k++) {
		char *s = big_object(sizes[k], NULL, &n);

		parse_into(&p, s, n, 0);
		ck_assert_int_eq(p.rc, JSON_OK);
		/* between 9 and 128 members: an index when the signatures
		 * spent the comparisons */
		ck_assert_msg(sizes[k] <= 128 || p.v->u.obj.index != NULL,
		    "no index for %zu members", sizes[k]);
		ck_assert_msg(sizes[k] > 8 || p.v->u.obj.index == NULL,
		    "an index for %zu members", sizes[k]);
		for (i = 0; i < sizes[k]; i++) {
			const struct json_value *v;
			int m = snprintf(key, sizeof(key), "k%zu", i);

			v = json_object_get(p.v, key, (size_t)m);
			ck_assert_msg(v != NULL && v->u.num.i == (int64_t)i,
			    "k%zu not found among %zu", i, sizes[k]);
		}
		ck_assert_ptr_null(json_object_get(p.v, "k", 1));
		ck_assert_ptr_null(json_object_get(p.v, "", 0));
		ck_assert_ptr_null(json_object_get(p.v, "k1\0", 3));
		ck_assert_ptr_null(json_object_get(p.v, "nope", 4));
		parsed_free(&p);
		free(s);
	}
}
END_TEST

START_TEST(json_object_get_returns_null_for_non_objects)
{
	struct parsed p;

	ck_assert_ptr_null(json_object_get(NULL, "a", 1));
	parse_into(&p, S("[{\"a\":1}]"), 0);
	ck_assert_int_eq(p.rc, JSON_OK);
	ck_assert_ptr_null(json_object_get(p.v, "a", 1));
	ck_assert_ptr_nonnull(json_object_get(&p.v->u.arr.items[0], "a", 1));
	parsed_free(&p);
}
END_TEST

/* --- json_write
 * ------------------------------------------------------------------ */

static void
expect_write(const char *in, size_t len, unsigned indent, const char *want)
{
	struct parsed p;
	struct buf b;
	int rc;

	parse_into(&p, in, len, 0);
	ck_assert_msg(p.rc == JSON_OK, "rejected %s", show(in, len));
	buf_init(&b, 1 << 20);
	rc = indent ? json_write_pretty(p.v, indent, &b) : json_write(p.v, &b);
	ck_assert_int_eq(rc, 0);
	ck_assert_msg(buf_len(&b) == strlen(want) &&
	                  memcmp(buf_ptr(&b), want, buf_len(&b)) == 0,
	    "%s serialized as %s", show(in, len),
	    show(buf_ptr(&b), buf_len(&b)));
	buf_free(&b);
	parsed_free(&p);
}

START_TEST(json_write_escapes_quote_backslash_and_controls_only)
{
	expect_write(S(" [ 1 , -0.0E+5 , true ,false, null ] "), 0,
	    "[1,-0.0E+5,true,false,null]");
	expect_write(S("\"a\\\"b\\\\c\\/d/\""), 0, "\"a\\\"b\\\\c/d/\"");
	expect_write(S("\"\\u0001\\b\\f\\n\\r\\t\\u001F\\u0000\x7F\""), 0,
	    "\"\\u0001\\b\\f\\n\\r\\t\\u001f\\u0000\x7F\"");
	expect_write(S("\"\\u00e9\\u2028\\ud83d\\ude00<>&\""), 0,
	    "\"\xC3\xA9\xE2\x80\xA8\xF0\x9F\x98\x80<>&\"");
	expect_write(S("{ \"b\" : 1 , \"a\" : { } , \"c\" : [ ] }"), 0,
	    "{\"b\":1,\"a\":{},\"c\":[]}");
	expect_write(S("{\"k\\n\":\"v\"}"), 0, "{\"k\\n\":\"v\"}");
}
END_TEST

START_TEST(json_write_pretty_indents_each_level)
{
	expect_write(S("{\"a\":[1,{\"b\":null}],\"c\":{},\"d\":[]}"), 2,
	    "{\n"
	    "  \"a\": [\n"
	    "    1,\n"
	    "    {\n"
	    "      \"b\": null\n"
	    "    }\n"
	    "  ],\n"
	    "  \"c\": {},\n"
	    "  \"d\": []\n"
	    "}");
	expect_write(S("\"x\""), 4, "\"x\"");
}
END_TEST

/* Structural identity: same types, texts, bytes, names, order. */
static bool
same_tree(const struct json_value *a, const struct json_value *b)
{
	size_t i;

	if (a->type != b->type)
		return false;
	switch (a->type) {
	case JSON_T_NUMBER:
		return a->u.num.len == b->u.num.len &&
		       memcmp(a->u.num.text, b->u.num.text, a->u.num.len) ==
		           0 &&
		       a->u.num.is_small_int == b->u.num.is_small_int &&
		       a->u.num.i == b->u.num.i;
	case JSON_T_STRING:
		return a->u.str.len == b->u.str.len &&
		       a->u.str.cps == b->u.str.cps &&
		       memcmp(a->u.str.ptr, b->u.str.ptr, a->u.str.len) == 0;
	case JSON_T_ARRAY:
		if (a->u.arr.count != b->u.arr.count)
			return false;
		for (i = 0; i < a->u.arr.count; i++)
			if (!same_tree(&a->u.arr.items[i], &b->u.arr.items[i]))
				return false;
		return true;
	case JSON_T_OBJECT:
		if (a->u.obj.count != b->u.obj.count)
			return false;
		for (i = 0; i < a->u.obj.count; i++) {
			const struct json_member *x = &a->u.obj.members[i];
			const struct json_member *y = &b->u.obj.members[i];

			if (x->key.len != y->key.len ||
			    memcmp(x->key.ptr, y->key.ptr, x->key.len) != 0 ||
			    !same_tree(&x->value, &y->value))
				return false;
		}
		return true;
	default:
		return true;
	}
}

/* parse(write(parse(x))) is the first tree, compact and indented. */
static void
expect_round_trip(const char *in, size_t len)
{
	struct parsed p, q;
	struct buf b;
	unsigned indent;

	parse_into(&p, in, len, 0);
	ck_assert_msg(p.rc == JSON_OK, "rejected %s", show(in, len));
	for (indent = 0; indent <= 3; indent += 3) {
		buf_init(&b, 1 << 24);
		ck_assert_int_eq(indent ? json_write_pretty(p.v, indent, &b)
		                        : json_write(p.v, &b),
		    0);
		parse_into(&q, buf_ptr(&b), buf_len(&b), 0);
		ck_assert_msg(q.rc == JSON_OK, "%s wrote %s, which is rejected",
		    show(in, len), show(buf_ptr(&b), buf_len(&b)));
		ck_assert_msg(same_tree(p.v, q.v),
		    "%s wrote %s, which parses to another tree", show(in, len),
		    show(buf_ptr(&b), buf_len(&b)));
		parsed_free(&q);
		buf_free(&b);
	}
	parsed_free(&p);
}

START_TEST(json_write_round_trips_every_accepted_input)
{
	size_t i, n;
	char *s;

	for (i = 0; i < GPT_ARRAY_LEN(accepted); i++)
		expect_round_trip(accepted[i].in, accepted[i].len);
	for (i = 0; i < GPT_ARRAY_LEN(strings); i++)
		expect_round_trip(strings[i].in, strings[i].len);
	s = big_object(1000, NULL, &n);
	expect_round_trip(s, n);
	free(s);
	s = brackets(JSON_MAX_DEPTH, true, &n);
	expect_round_trip(s, n);
	free(s);
}
END_TEST

START_TEST(json_write_fails_past_the_buffer_max_and_leaves_it_unchanged)
{
	struct parsed p;
	struct buf b;

	parse_into(&p, S("{\"abc\":[1,2,3,\"long string here\"]}"), 0);
	ck_assert_int_eq(p.rc, JSON_OK);
	buf_init(&b, 20);
	ck_assert_int_eq(buf_append(&b, "prefix", 6), 0);
	ck_assert_int_eq(json_write(p.v, &b), -1);
	ck_assert_uint_eq(buf_len(&b), 6);
	ck_assert_str_eq(buf_ptr(&b), "prefix");
	ck_assert_int_eq(json_write_pretty(p.v, 8, &b), -1);
	ck_assert_uint_eq(buf_len(&b), 6);
	buf_free(&b);
	parsed_free(&p);
}
END_TEST

START_TEST(json_write_string_escapes_drops_broken_bytes_and_undoes_failures)
{
	struct buf b;

	buf_init(&b, 64);
	ck_assert_int_eq(json_write_string(&b, "a\"\\\n\x01\x7f", 6), 0);
	ck_assert_uint_eq(buf_len(&b), 16);
	ck_assert_mem_eq(buf_ptr(&b), "\"a\\\"\\\\\\n\\u0001\x7f\"", 16);
	buf_reset(&b);
	/* U+20AC cut after two of its three bytes, then a stray byte */
	ck_assert_int_eq(json_write_string(&b, "x\xe2\x82", 3), 0);
	ck_assert_int_eq(json_write_string(&b, "\xff\xc3\xa9", 3), 0);
	ck_assert_uint_eq(buf_len(&b), 7);
	ck_assert_mem_eq(buf_ptr(&b), "\"x\"\"\xc3\xa9\"", 7);
	buf_free(&b);
	buf_init(&b, 8);
	ck_assert_int_eq(buf_append(&b, "pre", 3), 0);
	ck_assert_int_eq(json_write_string(&b, "too long here", 13), -1);
	ck_assert_uint_eq(buf_len(&b), 3);
	buf_free(&b);
}
END_TEST

/* --- names
 * ------------------------------------------------------------------------- */

START_TEST(json_type_name_and_errstr_name_every_value)
{
	int c, d;

	ck_assert_str_eq(json_type_name(JSON_T_NULL), "null");
	ck_assert_str_eq(json_type_name(JSON_T_TRUE), "boolean");
	ck_assert_str_eq(json_type_name(JSON_T_FALSE), "boolean");
	ck_assert_str_eq(json_type_name(JSON_T_NUMBER), "number");
	ck_assert_str_eq(json_type_name(JSON_T_STRING), "string");
	ck_assert_str_eq(json_type_name(JSON_T_ARRAY), "array");
	ck_assert_str_eq(json_type_name(JSON_T_OBJECT), "object");
	for (c = JSON_OK; c <= JSON_E_NOMEM; c++)
		for (d = JSON_OK; d < c; d++)
			ck_assert_str_ne(json_errstr((enum json_errcode)c),
			    json_errstr((enum json_errcode)d));
}
END_TEST

/* The portable scanners (no vector step), as a machine without SSE2
 * runs them. */
static void
portable_on(void)
{
	json_test_portable = true;
}

static void
portable_off(void)
{
	json_test_portable = false;
}

static Suite *
suite_json(void)
{
	Suite *s = suite_create("json");
	TCase *parse = tcase_create("json_parse");
	TCase *portable = tcase_create("json_parse_portable");
	TCase *limits = tcase_create("Limits");
	TCase *get = tcase_create("json_object_get");
	TCase *write = tcase_create("json_write");
	TCase *names = tcase_create("names");

	tcase_add_test(parse, json_parse_accepts_every_rfc8259_value);
	tcase_add_test(parse,
	    json_parse_rejects_what_rfc8259_forbids_with_code_and_offset);
	tcase_add_test(parse, json_parse_never_reads_past_len);
	tcase_add_test(parse,
	    json_parse_accepts_utf8_at_every_boundary_in_values_and_names);
	tcase_add_test(
	    parse, json_parse_rejects_invalid_utf8_in_values_and_names);
	tcase_add_test(
	    parse, json_parse_classifies_every_byte_at_every_word_offset);
	tcase_add_test(parse, json_parse_builds_the_tree_in_document_order);
	tcase_add_test(parse, json_parse_keeps_number_text_and_sets_small_ints);
	tcase_add_test(
	    parse, json_parse_unescapes_strings_and_counts_code_points);
	tcase_add_test(
	    parse, json_parse_borrows_strings_without_escapes_from_the_input);
	tcase_add_test(parse, json_parse_accepts_a_key_holding_nul);
	tcase_add_test(
	    parse, json_parse_rejects_duplicates_at_depth_1_3_and_100);

	tcase_add_checked_fixture(portable, portable_on, portable_off);
	tcase_add_test(portable, json_parse_accepts_every_rfc8259_value);
	tcase_add_test(portable,
	    json_parse_rejects_what_rfc8259_forbids_with_code_and_offset);
	tcase_add_test(portable, json_parse_never_reads_past_len);
	tcase_add_test(portable,
	    json_parse_accepts_utf8_at_every_boundary_in_values_and_names);
	tcase_add_test(
	    portable, json_parse_rejects_invalid_utf8_in_values_and_names);
	tcase_add_test(
	    portable, json_parse_classifies_every_byte_at_every_word_offset);
	tcase_add_test(
	    portable, json_parse_unescapes_strings_and_counts_code_points);

	tcase_set_timeout(limits, 60);
	tcase_add_test(limits, json_parse_accepts_a_ten_thousand_digit_number);
	tcase_add_test(limits, json_parse_accepts_a_ten_megabyte_string);
	tcase_add_test(
	    limits, json_parse_rejects_a_duplicate_among_ten_thousand_members);
	tcase_add_test(limits, json_parse_handles_a_hundred_thousand_members);
	tcase_add_test(
	    limits, names_colliding_under_the_old_hash_cost_linear_probes);
	tcase_add_test(limits,
	    names_colliding_under_the_keyed_hash_move_the_object_to_a_tree);
	tcase_add_test(
	    limits, json_parse_accepts_depth_at_the_limit_and_rejects_one_past);
	tcase_add_test(
	    limits, json_parse_rejects_a_hundred_thousand_brackets_cleanly);
	tcase_add_test(limits, json_parse_reports_nomem_when_the_arena_refuses);
	tcase_add_test(limits, json_parse_fits_the_budget_json_h_derives);
	tcase_add_test(parse, json_parse_keeps_each_member_name_words);
	tcase_add_test(portable, json_parse_keeps_each_member_name_words);
	tcase_add_test(parse, json_name_words_are_the_name_bytes_zero_padded);
	tcase_add_test(
	    parse, json_parse_finds_duplicates_by_words_and_the_bytes_between);
	tcase_add_test(portable,
	    json_parse_finds_duplicates_by_words_and_the_bytes_between);

	tcase_add_test(
	    get, json_object_get_finds_members_of_small_and_large_objects);
	tcase_add_test(get, objects_of_up_to_32_distinct_names_take_no_hash);
	tcase_add_test(
	    get, names_sharing_a_signature_spend_the_compares_then_hash);
	tcase_add_test(get, json_object_get_returns_null_for_non_objects);

	tcase_set_timeout(write, 60);
	tcase_add_test(
	    write, json_write_escapes_quote_backslash_and_controls_only);
	tcase_add_test(write, json_write_pretty_indents_each_level);
	tcase_add_test(write,
	    json_write_string_escapes_drops_broken_bytes_and_undoes_failures);
	tcase_add_test(write, json_write_round_trips_every_accepted_input);
	tcase_add_test(write,
	    json_write_fails_past_the_buffer_max_and_leaves_it_unchanged);

	tcase_add_test(names, json_type_name_and_errstr_name_every_value);

	suite_add_tcase(s, parse);
	suite_add_tcase(s, portable);
	suite_add_tcase(s, limits);
	suite_add_tcase(s, get);
	suite_add_tcase(s, write);
	suite_add_tcase(s, names);
	return s;
}

CHECK_MAIN(suite_json)
