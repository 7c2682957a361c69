/*
 * check_html.c: the human page: escaping for markup and for the data block,
 * the description of the controls for each shape of schema (read from the
 * compiled form), the page's parts, its Content-Security-Policy, its
 * sameness from load to load, and its validity as UTF-8 whatever the form's
 * strings hold.
 */
#include <stdio.h>
#include <string.h>

#include "base/arena.h"
#include "base/buf.h"
#include "check_main.h"
#include "check_parse.h"
#include "web/html.h"
#include "parser/json.h"
#include "schema/schema.h"
#include "base/sha256.h"
#include "base/utf8.h"

static struct arena test_arena;

static void
setup(void)
{
	arena_init(&test_arena, (size_t)64 << 20);
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

/* v is the string want: compared by length and bytes, as the tree keeps
 * strings (not NUL-terminated). */
static void
expect_string(const struct json_value *v, const char *want)
{
	ck_assert_ptr_nonnull(v);
	ck_assert_int_eq(v->type, JSON_T_STRING);
	ck_assert_msg(v->u.str.len == strlen(want) &&
	                  memcmp(v->u.str.ptr, want, v->u.str.len) == 0,
	    "\"%.*s\", expected \"%s\"", (int)v->u.str.len, v->u.str.ptr, want);
}

static size_t
count_of(const char *hay, size_t len, const char *needle)
{
	size_t n = 0, nl = strlen(needle), i;

	for (i = 0; i + nl <= len; i++)
		if (memcmp(hay + i, needle, nl) == 0)
			n++;
	return n;
}

static bool
contains(const struct buf *b, const char *needle)
{
	return buf_len(b) > 0 && count_of(buf_ptr(b), buf_len(b), needle) > 0;
}

/* --- html_escape ------------------------------------------------------ */

static void
expect_escape(const char *in, size_t len, const char *want)
{
	struct buf out;

	buf_init(&out, 1 << 20);
	ck_assert_int_eq(html_escape(in, len, &out), 0);
	ck_assert_msg(buf_len(&out) == strlen(want) &&
	                  memcmp(buf_ptr(&out), want, buf_len(&out)) == 0,
	    "html_escape(\"%.*s\") gave \"%.*s\", expected \"%s\"", (int)len,
	    in, (int)buf_len(&out), buf_ptr(&out), want);
	buf_free(&out);
}

#define ESC(in, want)                                                          \
	{                                                                      \
		in, sizeof(in) - 1, want                                       \
	}

START_TEST(html_escape_replaces_markup_characters_and_controls)
{
	static const struct {
		const char *in;
		size_t len;
		const char *want;
	} cases[] = {
	    ESC("plain text", "plain text"),
	    ESC("", ""),
	    ESC("<script>alert(1)</script>",
	        "&lt;script&gt;alert(1)&lt;/script&gt;"),
	    ESC("a & b", "a &amp; b"),
	    ESC("&amp;", "&amp;amp;"),
	    ESC("\"double\" 'single'", "&quot;double&quot; &#39;single&#39;"),
	    ESC("</textarea><b>", "&lt;/textarea&gt;&lt;b&gt;"),
	    ESC("<!-- x -->", "&lt;!-- x --&gt;"),
	    ESC("tab\tlf\ncr\r", "tab\tlf\ncr\r"),
	    ESC("nul\0end", "nul\xEF\xBF\xBD"
	                    "end"),
	    ESC("bell\a", "bell\xEF\xBF\xBD"),
	    ESC("del\x7F", "del\xEF\xBF\xBD"),
	    ESC("c1\xC2\x85", "c1\xEF\xBF\xBD"),
	    ESC("caf\xC3\xA9 \xE2\x80\xA8 \xF0\x9F\x98\x80",
	        "caf\xC3\xA9 \xE2\x80\xA8 \xF0\x9F\x98\x80"),
	    ESC("bad \xC3( and \xFF", "bad \xEF\xBF\xBD( and \xEF\xBF\xBD"),
	    ESC("cut \xE2\x82", "cut \xEF\xBF\xBD\xEF\xBF\xBD"),
	};
	size_t i;

	for (i = 0; i < GPT_ARRAY_LEN(cases); i++)
		expect_escape(cases[i].in, cases[i].len, cases[i].want);
}
END_TEST

START_TEST(html_escape_leaves_the_buffer_as_it_was_when_full)
{
	struct buf out;

	buf_init(&out, 12);
	ck_assert_int_eq(buf_puts(&out, "abc"), 0);
	ck_assert_int_eq(html_escape("<<<<", 4, &out), -1);
	ck_assert_uint_eq(buf_len(&out), 3);
	ck_assert_str_eq(buf_ptr(&out), "abc");
	buf_free(&out);
}
END_TEST

/* --- html_json_script ---------------------------------------------------- */

START_TEST(html_json_script_leaves_no_markup_nor_line_separators)
{
	static const struct {
		const char *in;
		size_t len;
		const char *want;
	} cases[] = {
	    ESC("{\"a\":\"plain\"}", "{\"a\":\"plain\"}"),
	    ESC("\"</script>\"", "\"\\u003c/script\\u003e\""),
	    ESC("\"<!--\"", "\"\\u003c!--\""),
	    ESC("\"a & b\"", "\"a \\u0026 b\""),
	    ESC("\"\xE2\x80\xA8\xE2\x80\xA9\"", "\"\\u2028\\u2029\""),
	    /* the neighbours of U+2028 stay as they are */
	    ESC("\"\xE2\x80\xA7\xE2\x80\xAA\xC3\xA9\"",
	        "\"\xE2\x80\xA7\xE2\x80\xAA\xC3\xA9\""),
	    /* a sequence cut at the end is copied, not read past */
	    ESC("\"\xE2\x80", "\"\xE2\x80"),
	    ESC("", ""),
	};
	struct buf out;
	size_t i;

	for (i = 0; i < GPT_ARRAY_LEN(cases); i++) {
		buf_init(&out, 1 << 20);
		ck_assert_int_eq(
		    html_json_script(cases[i].in, cases[i].len, &out), 0);
		ck_assert_msg(buf_len(&out) == strlen(cases[i].want) &&
		                  memcmp(buf_ptr(&out), cases[i].want,
		                      buf_len(&out)) == 0,
		    "case %zu gave \"%.*s\", expected \"%s\"", i,
		    (int)buf_len(&out), buf_ptr(&out), cases[i].want);
		buf_free(&out);
	}
}
END_TEST

START_TEST(html_json_script_leaves_the_buffer_as_it_was_when_full)
{
	struct buf out;

	buf_init(&out, 8);
	ck_assert_int_eq(buf_puts(&out, "abc"), 0);
	ck_assert_int_eq(html_json_script("\"<<<<<<<<\"", 10, &out), -1);
	ck_assert_uint_eq(buf_len(&out), 3);
	ck_assert_str_eq(buf_ptr(&out), "abc");
	buf_free(&out);
}
END_TEST

/* --- the page ------------------------------------------------------------ */

static const char data_open[] =
    "<script type=\"application/json\" id=\"gpt-form\">";

/* The page of the arrival document doc (its s compiled as the address
 * would), with type and etag as address.conf and the JSON ETag give. */
static void
page_named(const char *doc, const char *type, const char *etag,
    const char *name, struct buf *out)
{
	const struct json_value *d = parse(doc);
	const struct json_value *s = json_object_get(d, "s", 1);
	const struct schema *form = NULL;
	struct schema_err err;
	struct html_opts o = {type, etag, name, 0, false, NULL};

	ck_assert_ptr_nonnull(s);
	ck_assert_msg(schema_compile(s, &test_arena, NULL, NULL, &form, &err) ==
	                  SCHEMA_OK,
	    "form refused: %s", err.reason);
	buf_init(out, 16 << 20);
	ck_assert_int_eq(html_page(d, form, &o, out), 0);
	ck_assert_uint_gt(buf_len(out), 0);
}

static void
page_with(const char *doc, const char *type, const char *etag, struct buf *out)
{
	page_named(doc, type, etag, NULL, out);
}

static void
page_of(const char *doc, struct buf *out)
{
	page_with(doc, NULL, NULL, out);
}

/* The data block's text, as the page holds it (escaped). */
static void
data_block(const struct buf *page, const char **text, size_t *len)
{
	const char *p = strstr(buf_ptr(page), data_open), *end;

	ck_assert_ptr_nonnull(p);
	p += strlen(data_open);
	end = strstr(p, "</script>");
	ck_assert_ptr_nonnull(end);
	*text = p;
	*len = (size_t)(end - p);
}

/* The description of schema s's controls: the data block's "nodes". */
static void
expect_nodes(const char *schema, const char *want)
{
	char doc[4096];
	struct buf page;
	const char *text, *n;
	size_t len;

	snprintf(
	    doc, sizeof(doc), "{\"p\": \"\", \"m\": [], \"s\": %s}", schema);
	page_of(doc, &page);
	data_block(&page, &text, &len);
	n = strstr(text, ",\"nodes\":");
	ck_assert_msg(
	    n != NULL && n < text + len, "no nodes in %.*s", (int)len, text);
	n += 9;
	/* the block ends with the nodes and "}" */
	ck_assert_msg((size_t)(text + len - n - 1) == strlen(want) &&
	                  memcmp(n, want, strlen(want)) == 0,
	    "%s\n gave %.*s\n expected %s", schema, (int)(text + len - n - 1),
	    n, want);
	buf_free(&page);
}

START_TEST(html_describes_strings_with_lengths_pattern_and_format)
{
	expect_nodes("{\"type\": \"string\", \"minLength\": 2, "
	             "\"maxLength\": 9, \"pattern\": \"^a+$\", "
	             "\"format\": \"date\", \"title\": \"T\", "
	             "\"description\": \"D\", \"examples\": [\"aa\"]}",
	    "[{\"title\":\"T\",\"description\":\"D\",\"examples\":[\"aa\"],"
	    "\"type\":[\"string\"],\"minLength\":2,\"maxLength\":9,"
	    "\"pattern\":\"^a+$\",\"format\":\"date\"}]");
	/* a number's format, and a string's content: described, never
	 * dropped */
	expect_nodes("{\"type\": \"integer\", \"format\": \"int32\"}",
	    "[{\"type\":[\"integer\"],\"format\":\"int32\"}]");
	expect_nodes("{\"type\": \"string\", \"contentEncoding\": \"base64\", "
	             "\"contentMediaType\": \"application/json\", "
	             "\"contentSchema\": {\"type\": \"object\"}}",
	    "[{\"type\":[\"string\"],\"contentEncoding\":\"base64\","
	    "\"contentMediaType\":\"application/json\",\"contentSchema\":1},"
	    "{\"type\":[\"object\"]}]");
}
END_TEST

START_TEST(html_describes_number_bounds_as_exact_text)
{
	/* 0.10 and 1e2 stay as written: step 0.01 is 0.01, not 0.01000001 */
	expect_nodes("{\"type\": \"number\", \"minimum\": 0.10, "
	             "\"exclusiveMaximum\": 1e2, \"multipleOf\": 0.01}",
	    "[{\"type\":[\"number\"],\"minimum\":0.10,"
	    "\"exclusiveMaximum\":1e2,\"multipleOf\":0.01}]");
	expect_nodes("{\"type\": \"integer\", \"default\": 3, \"maximum\": 9, "
	             "\"exclusiveMinimum\": -1}",
	    "[{\"default\":3,\"type\":[\"integer\"],\"maximum\":9,"
	    "\"exclusiveMinimum\":-1}]");
	/* draft-04's boolean exclusiveMinimum, read once by the compiler */
	expect_nodes(
	    "{\"$schema\": \"http://json-schema.org/draft-04/schema#\","
	    " \"type\": \"number\", \"minimum\": 5, "
	    "\"exclusiveMinimum\": true}",
	    "[{\"type\":[\"number\"],\"exclusiveMinimum\":5}]");
}
END_TEST

START_TEST(html_describes_booleans_enums_consts_and_type_unions)
{
	expect_nodes("{\"type\": \"boolean\"}", "[{\"type\":[\"boolean\"]}]");
	expect_nodes("{\"enum\": [\"a\", 1, null, {\"b\": [true]}]}",
	    "[{\"enum\":[\"a\",1,null,{\"b\":[true]}]}]");
	expect_nodes("{\"const\": {\"v\": 1}}", "[{\"const\":{\"v\":1}}]");
	expect_nodes("{\"type\": [\"null\", \"string\"], \"maxLength\": 5}",
	    "[{\"type\":[\"string\",\"null\"],\"maxLength\":5}]");
	expect_nodes("true", "[true]");
	expect_nodes("false", "[false]");
	/* annotations only: every value, with its title */
	expect_nodes("{\"title\": \"Any\"}", "[{\"title\":\"Any\"}]");
}
END_TEST

START_TEST(html_describes_objects_members_and_maps)
{
	expect_nodes("{\"type\": \"object\", \"properties\": {\"a\": "
	             "{\"type\": \"string\"}, \"b\": true}, \"required\": "
	             "[\"a\", \"c\"], \"additionalProperties\": false, "
	             "\"minProperties\": 1, \"maxProperties\": 4}",
	    "[{\"type\":[\"object\"],\"properties\":[[\"a\",1],[\"b\",2]],"
	    "\"required\":[\"a\",\"c\"],\"additionalProperties\":3,"
	    "\"minProperties\":1,\"maxProperties\":4},"
	    "{\"type\":[\"string\"]},true,false]");
	/* propertyNames, dependentRequired, dependentSchemas */
	expect_nodes("{\"propertyNames\": {\"maxLength\": 3}, "
	             "\"dependentRequired\": {\"a\": [\"b\", \"c\"]}, "
	             "\"dependentSchemas\": {\"b\": {\"minProperties\": 2}}}",
	    "[{\"dependentRequired\":[[\"a\",[\"b\",\"c\"]]],"
	    "\"dependentSchemas\":[[\"b\",1]],\"propertyNames\":2},"
	    "{\"minProperties\":2},{\"maxLength\":3}]");
	expect_nodes("{\"patternProperties\": {\"^x-\": {\"type\": "
	             "\"integer\"}}, \"additionalProperties\": {\"type\": "
	             "\"string\"}}",
	    "[{\"patternProperties\":[[\"^x-\",1]],\"additionalProperties\":2},"
	    "{\"type\":[\"integer\"]},{\"type\":[\"string\"]}]");
	/* a member's own title beside its $ref is the member's label */
	expect_nodes("{\"properties\": {\"a\": {\"$ref\": \"#/$defs/s\", "
	             "\"title\": \"A\"}}, \"$defs\": {\"s\": {\"type\": "
	             "\"string\", \"title\": \"S\"}}}",
	    "[{\"properties\":[[\"a\",1,{\"title\":\"A\"}]]},"
	    "{\"title\":\"S\",\"x-defName\":\"s\",\"type\":[\"string\"]}]");
}
END_TEST

START_TEST(html_describes_arrays_slots_and_bounds)
{
	expect_nodes("{\"type\": \"array\", \"prefixItems\": [{\"type\": "
	             "\"number\"}, {\"type\": \"string\"}], \"items\": false, "
	             "\"minItems\": 1, \"maxItems\": 2, \"uniqueItems\": true}",
	    "[{\"type\":[\"array\"],\"minItems\":1,\"maxItems\":2,"
	    "\"prefixItems\":[1,2],\"items\":3,\"uniqueItems\":true},"
	    "{\"type\":[\"number\"]},{\"type\":[\"string\"]},false]");
	expect_nodes("{\"items\": {\"type\": \"integer\"}, \"contains\": "
	             "{\"const\": 1}}",
	    "[{\"items\":1,\"contains\":2},{\"type\":[\"integer\"]},"
	    "{\"const\":1}]");
	expect_nodes("{\"contains\": {\"const\": 1}, \"minContains\": 2, "
	             "\"maxContains\": 3}",
	    "[{\"contains\":1,\"minContains\":2,\"maxContains\":3},"
	    "{\"const\":1}]");
}
END_TEST

START_TEST(html_describes_alternatives_and_references_once)
{
	expect_nodes("{\"anyOf\": [{\"type\": \"string\"}, {\"type\": "
	             "\"null\"}], \"not\": {\"const\": \"\"}}",
	    "[{\"anyOf\":[1,2],\"not\":3},{\"type\":[\"string\"]},"
	    "{\"type\":[\"null\"]},{\"const\":\"\"}]");
	expect_nodes("{\"oneOf\": [{\"title\": \"A\", \"type\": \"integer\"}, "
	             "{\"title\": \"B\", \"type\": \"boolean\"}], "
	             "\"allOf\": [{\"minimum\": 0}]}",
	    "[{\"allOf\":[1],\"oneOf\":[2,3]},{\"minimum\":0},"
	    "{\"title\":\"A\",\"type\":[\"integer\"]},"
	    "{\"title\":\"B\",\"type\":[\"boolean\"]}]");
	expect_nodes("{\"if\": {\"required\": [\"a\"]}, \"then\": "
	             "{\"required\": [\"b\"]}, \"else\": false}",
	    "[{\"if\":1,\"then\":2,\"else\":3},{\"required\":[\"a\"]},"
	    "{\"required\":[\"b\"]},false]");
	/* a recursive form: the tree node is described once, named twice */
	expect_nodes("{\"$ref\": \"#/$defs/t\", \"$defs\": {\"t\": {\"type\": "
	             "\"object\", \"properties\": {\"kids\": {\"type\": "
	             "\"array\", \"items\": {\"$ref\": \"#/$defs/t\"}}}}}}",
	    "[{\"$ref\":1},"
	    "{\"x-defName\":\"t\",\"type\":[\"object\"],"
	    "\"properties\":[[\"kids\",2]]},"
	    "{\"type\":[\"array\"],\"items\":1}]");
}
END_TEST

START_TEST(html_hands_what_it_cannot_show_to_a_json_editor)
{
	/* what the page cannot judge: marked by its keyword's name */
	static const char *const opaque[] = {
	    "{\"properties\": {\"a\": true}, \"unevaluatedProperties\": false}",
	    "{\"prefixItems\": [true], \"unevaluatedItems\": false}",
	    "{\"$dynamicAnchor\": \"n\", \"properties\": {\"k\": "
	    "{\"$dynamicRef\": \"#n\"}}}",
	};
	size_t i;

	for (i = 0; i < GPT_ARRAY_LEN(opaque); i++) {
		char doc[1024];
		struct buf page;
		const char *text;
		size_t len;

		snprintf(doc, sizeof(doc),
		    "{\"p\": \"\", \"m\": [], \"s\": %s}", opaque[i]);
		page_of(doc, &page);
		data_block(&page, &text, &len);
		ck_assert_msg(count_of(text, len, "\"x-opaque\":[\"") >= 1,
		    "%s is not handed to a JSON editor: %.*s", opaque[i],
		    (int)len, text);
		buf_free(&page);
	}
}
END_TEST

START_TEST(html_describes_a_shared_node_once_in_linear_size)
{
	/* 20,000 members that all name one definition: 20,002 nodes would
	 * be written by a walk that follows every reference */
	struct buf doc, page;
	const char *text;
	size_t len, i;

	buf_init(&doc, 8 << 20);
	ck_assert_int_eq(buf_puts(&doc, "{\"p\": \"\", \"m\": [], \"s\": "
	                                "{\"$defs\": {\"d\": {\"type\": "
	                                "\"string\"}}, \"properties\": {"),
	    0);
	for (i = 0; i < 20000; i++)
		ck_assert_int_eq(
		    buf_printf(&doc, "%s\"m%zu\": {\"$ref\": \"#/$defs/d\"}",
		        i > 0 ? ", " : "", i),
		    0);
	ck_assert_int_eq(buf_puts(&doc, "}}}"), 0);
	page_of(buf_ptr(&doc), &page);
	data_block(&page, &text, &len);
	ck_assert_uint_eq(count_of(text, len, "{\"x-defName\":\"d\""), 1);
	ck_assert_uint_eq(count_of(text, len, "\"type\":["), 1);
	ck_assert_uint_eq(count_of(text, len, ",1]"), 20000);
	buf_free(&page);
	buf_free(&doc);
}
END_TEST

static const char hostile_doc[] =
    "{\"p\": \"<script>alert(1)</script> & \\\"q\\\" 'a' <!-- \\u0000\","
    " \"m\": [{\"role\": \"user<b>\", \"content\": "
    "\"</textarea><script>x()</script>\"},"
    " {\"role\": \"assistant\", \"content\": \"</pre><img src=x "
    "onerror=y>\"}],"
    " \"s\": {\"type\": \"object\", \"title\": \"</title><!--\\u2028\","
    " \"properties\": {"
    "\"</pre><script>z()</script>\": {\"type\": \"string\", "
    "\"default\": \"</script><!-- \\u2028\\u2029 '\\\"\", "
    "\"pattern\": \"</script>|<!--\", "
    "\"enum\": [\"</script><script>w()</script>\", \"\\u2029\"]}},"
    " \"description\": \"</style><!--\"}}";

static void
expect_page_contains(const struct buf *page, const char *needle)
{
	ck_assert_msg(contains(page, needle), "page lacks: %s", needle);
}

static void
expect_page_count(const struct buf *page, const char *needle, size_t n)
{
	size_t got = count_of(buf_ptr(page), buf_len(page), needle);

	ck_assert_msg(
	    got == n, "page has %zu times %s, expected %zu", got, needle, n);
}

START_TEST(html_page_keeps_hostile_strings_inside_text_and_data)
{
	struct buf page;
	const struct json_value *d, *n0, *pr, *sub;
	const char *text;
	size_t len;
	struct buf raw;

	page_of(hostile_doc, &page);
	/* Only the page's own elements appear as markup. */
	expect_page_count(&page, "<script", 2);
	expect_page_count(&page, "</script", 2);
	expect_page_count(&page, "<textarea", 1);
	expect_page_count(&page, "</textarea>", 1);
	expect_page_count(&page, "</pre>", 2);
	expect_page_count(&page, "<style>", 1);
	expect_page_count(&page, "</style>", 1);
	expect_page_count(&page, "</title>", 1);
	expect_page_count(&page, "<!--", 0);
	expect_page_count(&page, "<b>", 0);
	expect_page_count(&page, "<img", 0);
	/* U+2028 is plain text in markup (<title>, <h1>, twice in the <pre>);
	 * only the data block must not hold it raw */
	expect_page_count(&page, "\xE2\x80\xA8", 4);
	/* The document's strings are there, escaped. */
	expect_page_contains(&page, "&lt;script&gt;alert(1)&lt;/script&gt; "
	                            "&amp; &quot;q&quot; &#39;a&#39; &lt;!-- "
	                            "\xEF\xBF\xBD");
	expect_page_contains(&page, "user&lt;b&gt;");
	expect_page_contains(
	    &page, "&lt;/textarea&gt;&lt;script&gt;x()&lt;/script&gt;");
	expect_page_contains(&page, "&lt;/pre&gt;&lt;img src=x onerror=y&gt;");
	expect_page_contains(
	    &page, "<h1>&lt;/title&gt;&lt;!--\xE2\x80\xA8</h1>");
	expect_page_contains(&page, "&quot;&lt;/style&gt;&lt;!--&quot;");
	/* The data block holds no markup and no U+2028, and still reads as
	 * the form's very strings. */
	data_block(&page, &text, &len);
	ck_assert_ptr_null(memchr(text, '<', len));
	ck_assert_ptr_null(memchr(text, '>', len));
	ck_assert_ptr_null(memchr(text, '&', len));
	ck_assert_uint_eq(count_of(text, len, "\xE2\x80\xA8"), 0);
	ck_assert_uint_eq(count_of(text, len, "\xE2\x80\xA9"), 0);
	buf_init(&raw, 1 << 20);
	ck_assert_int_eq(buf_append(&raw, text, len), 0);
	d = parse(buf_ptr(&raw));
	n0 = &json_object_get(d, "nodes", 5)->u.arr.items[0];
	expect_string(
	    json_object_get(n0, "title", 5), "</title><!--\xE2\x80\xA8");
	pr = &json_object_get(n0, "properties", 10)->u.arr.items[0];
	expect_string(&pr->u.arr.items[0], "</pre><script>z()</script>");
	sub = &json_object_get(d, "nodes", 5)->u.arr.items[1];
	expect_string(json_object_get(sub, "default", 7),
	    "</script><!-- \xE2\x80\xA8\xE2\x80\xA9 '\"");
	expect_string(json_object_get(sub, "pattern", 7), "</script>|<!--");
	expect_string(
	    &json_object_get(sub, "enum", 4)->u.arr.items[1], "\xE2\x80\xA9");
	buf_free(&raw);
	buf_free(&page);
}
END_TEST

START_TEST(html_page_heading_is_the_title_else_the_name)
{
	static const struct {
		const char *s, *type, *name, *want;
	} cases[] = {
	    {"{\"title\": \"A ledger entry\"}", "ledger", "books",
	        "<title>A ledger entry</title>"},
	    {"{\"title\": \"\"}", "ledger", NULL, "<title>ledger</title>"},
	    {"{\"type\": \"object\"}", "ledger", NULL, "<title>ledger</title>"},
	    /* without a title, the address's name, before its type */
	    {"{\"type\": \"object\"}", "ledger", "books",
	        "<title>books</title>"},
	    {"true", NULL, "note", "<title>note</title>"},
	    {"true", NULL, NULL, "<title>An address</title>"},
	    {"{\"description\": \"no title\"}", "", "",
	        "<title>An address</title>"},
	};
	size_t i;

	for (i = 0; i < GPT_ARRAY_LEN(cases); i++) {
		char doc[512], h1[512];
		struct buf page;

		snprintf(doc, sizeof(doc),
		    "{\"p\": \"Not the title.\", \"m\": [], \"s\": %s}",
		    cases[i].s);
		page_named(doc, cases[i].type, NULL, cases[i].name, &page);
		expect_page_contains(&page, cases[i].want);
		/* <title>X</title> and <h1>X</h1> */
		snprintf(h1, sizeof(h1), "<h1>%.*s</h1>",
		    (int)(strlen(cases[i].want) - 15), cases[i].want + 7);
		expect_page_contains(&page, h1);
		buf_free(&page);
	}
}
END_TEST

START_TEST(html_page_shows_p_each_message_and_the_form)
{
	struct buf page;

	page_with("{\"p\": \"Order tea.\", \"m\": ["
	          "{\"role\": \"system\", \"content\": \"Be brief.\"},"
	          "{\"role\": \"user\", \"content\": \"Two cups.\"}],"
	          " \"s\": {\"type\": \"object\", \"properties\": {\"cups\": "
	          "{\"type\": \"integer\", \"minimum\": 1}}, \"required\": "
	          "[\"cups\"]}, \"x-extra\": 1}",
	    "tea", "\"e1\"", &page);
	expect_page_contains(&page, "<p class=\"p\">Order tea.</p>");
	expect_page_contains(&page, "<div class=\"role\">system</div>"
	                            "<div class=\"content\">Be brief.</div>");
	expect_page_contains(&page, "<div class=\"role\">user</div>"
	                            "<div class=\"content\">Two cups.</div>");
	/* The form, pretty-printed and escaped, readable without script. */
	expect_page_contains(&page, "<pre class=\"s\">{");
	expect_page_contains(&page, "&quot;minimum&quot;: 1");
	/* The editor starts empty: the script fills it from the controls. */
	expect_page_contains(&page, "aria-describedby=\"body-help "
	                            "body-error\"></textarea>");
	/* The type and the JSON ETag (sent back as If-Match) are data, and
	 * so are the nesting the address reads and the validator's depth:
	 * the controls go as deep as an act may. */
	expect_page_contains(&page,
	    "{\"root\":0,\"jsonDepth\":128,\"schemaDepth\":512,"
	    "\"type\":\"tea\",\"etag\":\"\\\"e1\\\"\","
	    "\"keywords\":{\"title\":\"value\",");
	/* the keywords' value forms come from the registry */
	expect_page_contains(&page, "\"minLength\":\"count\"");
	expect_page_contains(&page, "\"prefixItems\":\"nodes\"");
	expect_page_contains(&page, "\"$ref\":\"node\"");
	expect_page_contains(&page, "\"properties\":\"pairs\"");
	expect_page_contains(&page, "\"multipleOf\":\"number\"");
	buf_free(&page);
}
END_TEST

/* The page sends an Idempotency-Key only where the address keeps them. */
START_TEST(html_page_says_whether_the_address_keeps_keys)
{
	const char *doc =
	    "{\"p\": \"x\", \"m\": [], \"s\": {\"type\": \"string\"}}";
	const struct json_value *d = parse(doc);
	const struct schema *form = NULL;
	struct schema_err err;
	struct html_opts o = {NULL, NULL, NULL, 0, true, NULL};
	struct buf page;

	ck_assert_int_eq(schema_compile(json_object_get(d, "s", 1), &test_arena,
	                     NULL, NULL, &form, &err),
	    SCHEMA_OK);
	buf_init(&page, 16 << 20);
	ck_assert_int_eq(html_page(d, form, &o, &page), 0);
	expect_page_contains(&page, ",\"keys\":true,");
	buf_free(&page);
	page_of(doc, &page);
	ck_assert(!contains(&page, "\"keys\""));
	buf_free(&page);
}
END_TEST

START_TEST(html_page_shows_links_as_navigation_and_the_answer_form)
{
	struct buf page;

	page_of("{\"p\": \"Open.\", \"m\": [], \"s\": {\"type\": \"object\"},"
	        " \"a\": {\"type\": \"object\", \"required\": [\"ticket\"]},"
	        " \"links\": [{\"rel\": \"related\", \"href\": \"close\","
	        " \"title\": \"Close <it>\"}, {\"rel\": \"help\", \"href\":"
	        " \"https://e.org/?a=1&b=2\"}, {\"rel\": \"next\", \"href\":"
	        " \"javascript:alert(1)\"}]}",
	    &page);
	expect_page_contains(&page,
	    "<nav aria-label=\"Links\"><ul class=\"links\">\n"
	    "<li><a href=\"close\">Close &lt;it&gt;</a> "
	    "<span class=\"help\">related</span></li>\n"
	    "<li><a href=\"https://e.org/?a=1&amp;b=2\">"
	    "https://e.org/?a=1&amp;b=2</a> <span class=\"help\">help</span>"
	    "</li>\n");
	/* a scheme the page would run is shown, never linked */
	expect_page_contains(&page, "<li>javascript:alert(1) <span");
	ck_assert_ptr_null(strstr(buf_ptr(&page), "href=\"javascript"));
	/* the answer's form, right after the act */
	expect_page_contains(&page,
	    "</section>\n<section aria-labelledby=\"h-a\">\n"
	    "<h2 id=\"h-a\">Answer</h2>");
	expect_page_contains(&page, "&quot;ticket&quot;");
	buf_free(&page);
}
END_TEST

START_TEST(html_page_is_one_document_that_needs_nothing_else)
{
	struct buf page, want;

	page_of(
	    "{\"p\": \"x\", \"m\": [], \"s\": {\"type\": \"string\"}}", &page);
	ck_assert_msg(buf_len(&page) > 15 &&
	                  memcmp(buf_ptr(&page), "<!DOCTYPE html>\n", 16) == 0,
	    "page does not start with the doctype");
	ck_assert_msg(
	    strcmp(buf_ptr(&page) + buf_len(&page) - 8, "</html>\n") == 0,
	    "page does not end with </html>");
	expect_page_contains(&page, "<meta charset=\"utf-8\">");
	expect_page_contains(
	    &page, "<meta name=\"color-scheme\" content=\"light dark\">");
	/* The controls appear only with script; reading needs none. */
	expect_page_contains(&page, "<form id=\"act\" hidden novalidate>");
	expect_page_contains(&page, "<noscript><p class=\"note\">Reading this "
	                            "page needs no JavaScript; composing and "
	                            "sending an act from it does.");
	expect_page_contains(&page, "<textarea id=\"body\"");
	expect_page_contains(&page, "<button type=\"submit\"");
	expect_page_contains(&page, "<output id=\"status\" role=\"status\"");
	/* The style sheet and the script, whole and exactly once. */
	buf_init(&want, 1 << 20);
	ck_assert_int_eq(buf_puts(&want, "<style>"), 0);
	ck_assert_int_eq(
	    buf_append(&want, html_page_css, html_page_css_len), 0);
	ck_assert_int_eq(buf_puts(&want, "</style>"), 0);
	expect_page_count(&page, buf_ptr(&want), 1);
	buf_reset(&want);
	ck_assert_int_eq(buf_puts(&want, "<script>"), 0);
	ck_assert_int_eq(buf_append(&want, html_page_js, html_page_js_len), 0);
	ck_assert_int_eq(buf_puts(&want, "</script>"), 0);
	expect_page_count(&page, buf_ptr(&want), 1);
	buf_free(&want);
	/* Never the only way to the form. */
	expect_page_contains(&page, "without text/html in its Accept header "
	                            "returns the JSON document");
	/* Nothing is loaded from elsewhere. */
	expect_page_count(&page, "src=", 0);
	expect_page_count(&page, "href=", 0);
	expect_page_count(&page, "http://", 0);
	expect_page_count(&page, "https://", 0);
	expect_page_count(&page, "@import", 0);
	expect_page_count(&page, "url(", 0);
	/* An empty m shows no message list. */
	expect_page_count(&page, "<ol class=\"m\">", 0);
	buf_free(&page);
}
END_TEST

START_TEST(html_script_and_style_cannot_end_their_element_early)
{
	/* HTML 13.2.5: "</script" ends a script's text wherever it is, and
	 * "<!--" changes how the rest is read; "</style" ends a style */
	ck_assert_uint_eq(count_of(html_page_js, html_page_js_len, "</"), 0);
	ck_assert_uint_eq(count_of(html_page_js, html_page_js_len, "<!--"), 0);
	ck_assert_uint_eq(count_of(html_page_css, html_page_css_len, "</"), 0);
	ck_assert_uint_eq(strlen(html_page_js), html_page_js_len);
	ck_assert_uint_eq(strlen(html_page_css), html_page_css_len);
}
END_TEST

START_TEST(html_csp_allows_exactly_the_script_and_the_style)
{
	char js[SHA256_B64_SIZE], css[SHA256_B64_SIZE], want[512];

	sha256_base64(html_page_js, html_page_js_len, js);
	sha256_base64(html_page_css, html_page_css_len, css);
	snprintf(want, sizeof(want),
	    "default-src 'none'; script-src 'sha256-%s'; "
	    "style-src 'sha256-%s'; connect-src 'self'; form-action 'self'; "
	    "base-uri 'none'; frame-ancestors 'none'",
	    js, css);
	ck_assert_str_eq(html_csp(), want);
	/* computed once: the same string after */
	ck_assert_ptr_eq(html_csp(), html_csp());
}
END_TEST

START_TEST(html_page_is_the_same_bytes_from_load_to_load)
{
	/* The numbering follows the form, not where the arena put its nodes:
	 * two compilations (other addresses, other hash keys) give one page */
	static const char doc[] =
	    "{\"p\": \"x\", \"m\": [], \"s\": {\"$defs\": {\"t\": {\"anyOf\": "
	    "[{\"type\": \"string\"}, {\"properties\": {\"k\": {\"$ref\": "
	    "\"#/$defs/t\"}, \"j\": {\"$ref\": \"#/$defs/t\"}}}]}}, "
	    "\"properties\": {\"a\": {\"$ref\": \"#/$defs/t\"}, \"b\": "
	    "{\"enum\": [1, 2]}}}}";
	struct buf one, two;
	struct arena other;
	char *pad;

	page_of(doc, &one);
	arena_init(&other, 1 << 20);
	pad = arena_alloc(&other, 4096); /* move the next form elsewhere */
	ck_assert_ptr_nonnull(pad);
	page_of(doc, &two);
	ck_assert_uint_eq(buf_len(&one), buf_len(&two));
	ck_assert_mem_eq(buf_ptr(&one), buf_ptr(&two), buf_len(&one));
	arena_free(&other);
	buf_free(&one);
	buf_free(&two);
}
END_TEST

START_TEST(html_page_cuts_a_long_title_on_a_code_point)
{
	struct buf page, doc;
	const char *title;
	int i;

	buf_init(&doc, 1 << 20);
	ck_assert_int_eq(buf_puts(&doc, "{\"p\": \"\", \"m\": [], \"s\": "
	                                "{\"title\": \""),
	    0);
	for (i = 0; i < 100; i++)
		ck_assert_int_eq(buf_puts(&doc, "\xC3\xA9"), 0);
	ck_assert_int_eq(buf_puts(&doc, "\"}}"), 0);
	page_of(buf_ptr(&doc), &page);
	title = strstr(buf_ptr(&page), "<title>");
	ck_assert_ptr_nonnull(title);
	title += strlen("<title>");
	for (i = 0; i < HTML_TITLE_MAX; i++, title += 2)
		ck_assert_mem_eq(title, "\xC3\xA9", 2);
	ck_assert_msg(strncmp(title, "\xE2\x80\xA6</title>", 11) == 0,
	    "title is not cut with an ellipsis: %.20s", title);
	/* The heading shows all of it, as do the form and the data block. */
	expect_page_count(&page, "\xC3\xA9", 300 + HTML_TITLE_MAX);
	buf_free(&page);
	buf_free(&doc);
}
END_TEST

START_TEST(html_page_is_valid_utf8)
{
	static const char *const docs[] = {
	    hostile_doc,
	    "{\"p\": \"\\u0000\\u001f\\u007f\\u0085\\u2028\\u2029\\ud83d\\ude00"
	    "\", \"m\": [{\"role\": \"\\u00e9\", \"content\": \"\\uffff\"}], "
	    "\"s\": {\"enum\": [\"\\u0000\\u2028\"], \"title\": \"\\u0001\"}}",
	    "{\"p\": \"\", \"m\": [], \"s\": {}}",
	};
	size_t i, bad = 0;
	struct buf page;

	for (i = 0; i < GPT_ARRAY_LEN(docs); i++) {
		page_of(docs[i], &page);
		ck_assert_msg(
		    utf8_validate((const unsigned char *)buf_ptr(&page),
		        buf_len(&page), NULL, &bad),
		    "page of %s is not UTF-8 at byte %zu", docs[i], bad);
		ck_assert_msg(
		    memchr(buf_ptr(&page), '\0', buf_len(&page)) == NULL,
		    "page of %s holds a NUL byte", docs[i]);
		buf_free(&page);
	}
}
END_TEST

START_TEST(html_page_leaves_the_buffer_as_it_was_when_full)
{
	const struct json_value *d = parse(hostile_doc);
	const struct schema *form = NULL;
	struct schema_err err;
	struct buf out;
	size_t max;

	ck_assert_int_eq(schema_compile(json_object_get(d, "s", 1), &test_arena,
	                     NULL, NULL, &form, &err),
	    SCHEMA_OK);
	/* full at every point of the page: in the markup, the style, the
	 * data block, the script */
	for (max = 1000; max < 120000; max += 997) {
		buf_init(&out, max);
		ck_assert_int_eq(buf_puts(&out, "abc"), 0);
		if (html_page(d, form, NULL, &out) == 0) {
			buf_free(&out);
			break;
		}
		ck_assert_uint_eq(buf_len(&out), 3);
		ck_assert_str_eq(buf_ptr(&out), "abc");
		buf_free(&out);
	}
	ck_assert_msg(max < 120000, "the page never fit");
}
END_TEST

static Suite *
suite_html(void)
{
	Suite *s = suite_create("html");
	TCase *esc = tcase_create("html_escape");
	TCase *desc = tcase_create("description");
	TCase *page = tcase_create("html_page");

	tcase_add_checked_fixture(esc, setup, teardown);
	tcase_add_test(
	    esc, html_escape_replaces_markup_characters_and_controls);
	tcase_add_test(esc, html_escape_leaves_the_buffer_as_it_was_when_full);
	tcase_add_test(
	    esc, html_json_script_leaves_no_markup_nor_line_separators);
	tcase_add_test(
	    esc, html_json_script_leaves_the_buffer_as_it_was_when_full);
	suite_add_tcase(s, esc);

	tcase_add_checked_fixture(desc, setup, teardown);
	tcase_add_test(
	    desc, html_describes_strings_with_lengths_pattern_and_format);
	tcase_add_test(desc, html_describes_number_bounds_as_exact_text);
	tcase_add_test(
	    desc, html_describes_booleans_enums_consts_and_type_unions);
	tcase_add_test(desc, html_describes_objects_members_and_maps);
	tcase_add_test(desc, html_describes_arrays_slots_and_bounds);
	tcase_add_test(desc, html_describes_alternatives_and_references_once);
	tcase_add_test(desc, html_hands_what_it_cannot_show_to_a_json_editor);
	tcase_add_test(desc, html_describes_a_shared_node_once_in_linear_size);
	suite_add_tcase(s, desc);

	tcase_add_checked_fixture(page, setup, teardown);
	tcase_add_test(
	    page, html_page_keeps_hostile_strings_inside_text_and_data);
	tcase_add_test(page, html_page_heading_is_the_title_else_the_name);
	tcase_add_test(page, html_page_shows_p_each_message_and_the_form);
	tcase_add_test(page, html_page_is_one_document_that_needs_nothing_else);
	tcase_add_test(
	    page, html_script_and_style_cannot_end_their_element_early);
	tcase_add_test(page, html_csp_allows_exactly_the_script_and_the_style);
	tcase_add_test(page, html_page_is_the_same_bytes_from_load_to_load);
	tcase_add_test(page, html_page_cuts_a_long_title_on_a_code_point);
	tcase_add_test(page, html_page_is_valid_utf8);
	tcase_add_test(page, html_page_says_whether_the_address_keeps_keys);
	tcase_add_test(
	    page, html_page_shows_links_as_navigation_and_the_answer_form);
	tcase_add_test(page, html_page_leaves_the_buffer_as_it_was_when_full);
	suite_add_tcase(s, page);
	return s;
}

CHECK_MAIN(suite_html)
