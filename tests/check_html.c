/*
 * check_html.c: the human page: escaping of hostile document strings, the
 * act skeleton for a range of forms, the controls the page must carry, and
 * the page's validity as UTF-8.
 */
#include <stdio.h>
#include <string.h>

#include "arena.h"
#include "buf.h"
#include "check_main.h"
#include "check_parse.h"
#include "html.h"
#include "json.h"
#include "schema.h"
#include "utf8.h"

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
	return b->data != NULL && count_of(b->data, b->len, needle) > 0;
}

/* --- html_escape ------------------------------------------------------ */

static void
expect_escape(const char *in, size_t len, const char *want)
{
	struct buf out;

	buf_init(&out, 1 << 20);
	ck_assert_int_eq(html_escape(in, len, &out), 0);
	ck_assert_msg(out.len == strlen(want) &&
		memcmp(out.data != NULL ? out.data : "", want, out.len) == 0,
	    "html_escape(\"%.*s\") gave \"%.*s\", expected \"%s\"", (int)len,
	    in, (int)out.len, out.data != NULL ? out.data : "", want);
	buf_free(&out);
}

#define ESC(in, want) {in, sizeof(in) - 1, want}

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
	    ESC("nul\0end", "nul\xEF\xBF\xBD" "end"),
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
	ck_assert_uint_eq(out.len, 3);
	ck_assert_str_eq(out.data, "abc");
	buf_free(&out);
}
END_TEST

/* --- html_skeleton ---------------------------------------------------- */

/*
 * The skeleton of schema must be want exactly; it must be strict JSON, and
 * when valid is set, an act the form accepts.
 */
static void
expect_skeleton(const char *schema, const char *want, bool valid)
{
	const struct json_value *s = parse(schema), *act = NULL;
	const struct schema *form = NULL;
	struct schema_err serr;
	struct json_err jerr;
	struct buf out;

	buf_init(&out, 1 << 20);
	ck_assert_msg(html_skeleton(s, &out) == 0, "html_skeleton failed: %s",
	    schema);
	if (want != NULL)
		ck_assert_msg(strcmp(out.data, want) == 0,
		    "skeleton of %s is\n%s\nexpected\n%s", schema, out.data,
		    want);
	ck_assert_msg(json_parse(out.data, out.len, &test_arena, 0, &act,
			  &jerr) == JSON_OK,
	    "skeleton of %s is not strict JSON (%s):\n%s", schema, jerr.msg,
	    out.data);
	if (valid) {
		ck_assert_msg(schema_compile(s, &test_arena, NULL, NULL, &form,
				  &serr) == SCHEMA_OK,
		    "test form refused (%s): %s", serr.reason, schema);
		ck_assert_msg(schema_validate(form, act, &test_arena, &serr) ==
			SCHEMA_OK,
		    "skeleton of %s fails its form at %s (%s):\n%s", schema,
		    serr.pointer.buf, serr.keyword ? serr.keyword : "?",
		    out.data);
	}
	buf_free(&out);
}

START_TEST(html_skeleton_fills_each_type_with_a_starting_value)
{
	static const struct {
		const char *schema, *want;
		bool valid;
	} cases[] = {
	    {"{\"type\": \"string\"}", "\"\"", true},
	    {"{\"type\": \"integer\"}", "0", true},
	    {"{\"type\": \"number\", \"minimum\": 2.5}", "2.5", true},
	    {"{\"type\": \"integer\", \"exclusiveMinimum\": 0}", "1", true},
	    {"{\"type\": \"integer\", \"maximum\": -3}", "-3", true},
	    {"{\"type\": \"boolean\"}", "false", true},
	    {"{\"type\": \"null\"}", "null", true},
	    {"{\"type\": [\"null\", \"string\"]}", "\"\"", true},
	    {"{\"enum\": [\"red\", \"green\"]}", "\"red\"", true},
	    {"{\"const\": {\"x\": [1, true]}}", "{\"x\":[1,true]}", true},
	    {"{\"type\": \"string\", \"default\": \"hi\"}", "\"hi\"", true},
	    {"{\"minLength\": 0}", "\"\"", true},
	    {"{}", "null", true},
	    {"true", "null", true},
	    {"{\"type\": \"array\", \"items\": {\"type\": \"string\"}}", "[]",
		true},
	    {"{\"type\": \"array\", \"items\": {\"type\": \"integer\"}, "
	     "\"minItems\": 2}",
		"[\n  0,\n  0\n]", true},
	    {"{\"type\": \"array\", \"prefixItems\": [{\"type\": \"string\"}, "
	     "{\"type\": \"boolean\"}], \"items\": false}",
		"[\n  \"\",\n  false\n]", true},
	    {"{\"type\": \"array\", \"items\": {}, \"minItems\": 1000}", NULL,
		false},
	};
	size_t i;

	for (i = 0; i < GPT_ARRAY_LEN(cases); i++)
		expect_skeleton(cases[i].schema, cases[i].want, cases[i].valid);
}
END_TEST

START_TEST(html_skeleton_lists_required_properties_first)
{
	expect_skeleton("{\"type\": \"object\", \"properties\": {"
			"\"note\": {\"type\": \"string\"},"
			"\"qty\": {\"type\": \"integer\", \"minimum\": 1},"
			"\"item\": {\"enum\": [\"tea\", \"coffee\"]}},"
			"\"required\": [\"item\", \"qty\"],"
			"\"additionalProperties\": false}",
	    "{\n  \"item\": \"tea\",\n  \"qty\": 1,\n  \"note\": \"\"\n}", true);
	expect_skeleton("{\"type\": \"object\"}", "{}", true);
	expect_skeleton("{\"type\": \"object\", \"properties\": {"
			"\"a\": {\"type\": \"object\", \"properties\": {"
			"\"b\": {\"type\": \"array\"}}}}}",
	    "{\n  \"a\": {\n    \"b\": []\n  }\n}", true);
	/* A required name without a property schema still appears. */
	expect_skeleton("{\"required\": [\"x\"]}", "{\n  \"x\": null\n}",
	    true);
	expect_skeleton("{\"required\": [\"x\", \"x\"]}", "{\n  \"x\": null\n}",
	    false);
	/* Member names are written as JSON strings. */
	expect_skeleton("{\"properties\": {\"q\\\"\\\\\\n\": {\"type\": "
			"\"boolean\"}}}",
	    "{\n  \"q\\\"\\\\\\n\": false\n}", true);
}
END_TEST

static void
put_text(struct buf *b, const char *s)
{
	ck_assert_int_eq(buf_puts(b, s), 0);
}

/* ,"<prefix>from",...,"<prefix>to-1" each followed by after. */
static void
put_names(struct buf *b, const char *prefix, size_t from, size_t to,
    const char *after)
{
	char name[64];
	size_t i;

	for (i = from; i < to; i++) {
		snprintf(name, sizeof(name), "%s\"%s%zu\"%s",
		    i > from ? "," : "", prefix, i % 4000, after);
		put_text(b, name);
	}
}

/* The skeleton of the form in b, parsed (it must be strict JSON). */
static const struct json_value *
skeleton_of(const struct buf *b)
{
	const struct json_value *act = NULL;
	struct json_err jerr;
	struct buf out;

	char *text;

	buf_init(&out, (size_t)64 << 20);
	ck_assert_int_eq(html_skeleton(parse(b->data), &out), 0);
	/* The tree borrows its strings from the text: keep it in the arena. */
	text = arena_strndup(&test_arena, out.data, out.len);
	ck_assert_ptr_nonnull(text);
	ck_assert_msg(json_parse(text, out.len, &test_arena, 0, &act, &jerr) ==
		JSON_OK,
	    "skeleton is not strict JSON (%s)", jerr.msg);
	buf_free(&out);
	return act;
}

/*
 * 4,000 required names (then 1,000 of them again) and 4,000 optional
 * properties: each name once in the skeleton, found by sorting and binary
 * search: about 93,000 comparisons, under 4 n log2 n.  Scanning `required`
 * for each entry and each property took 28,500,000 here (3 to 5 s at load
 * for 60,000 names).
 */
START_TEST(html_skeleton_matches_required_names_in_n_log_n)
{
	const size_t n = 4000, repeats = 1000, bound = 4 * 9000 * 14;
	const struct json_value *act;
	struct buf b;
	size_t i;

	buf_init(&b, (size_t)16 << 20);
	put_text(&b, "{\"type\": \"object\", \"required\": [");
	put_names(&b, "r", 0, n, "");
	put_text(&b, ",");
	put_names(&b, "r", 0, repeats, "");
	put_text(&b, "], \"properties\": {");
	put_names(&b, "o", 0, n, ": true");
	put_text(&b, ", \"r7\": {\"type\": \"string\"}}}");
	html_test_name_compares = 0;
	act = skeleton_of(&b);
	ck_assert_msg(html_test_name_compares <= bound,
	    "%zu comparisons for %zu names", html_test_name_compares,
	    n + repeats + n);
	/* The required in their order, each once, then the optional. */
	ck_assert_int_eq(act->type, JSON_T_OBJECT);
	ck_assert_uint_eq(act->u.obj.count, 2 * n);
	for (i = 0; i < 2 * n; i++) {
		char want[32];
		const struct json_string *key = &act->u.obj.members[i].key;

		snprintf(want, sizeof(want), "%c%zu", i < n ? 'r' : 'o', i % n);
		ck_assert_msg(key->len == strlen(want) &&
			memcmp(key->ptr, want, key->len) == 0,
		    "member %zu is %.*s, expected %s", i, (int)key->len,
		    key->ptr, want);
	}
	ck_assert_int_eq(act->u.obj.members[7].value.type, JSON_T_STRING);
	buf_free(&b);
}
END_TEST

/*
 * 2,000 required members described by additionalProperties, a $ref into
 * a chain of references 8 KB long: every member's value looks through up
 * to HTML_SKELETON_DEPTH of them.  The page resolves at most
 * HTML_SKELETON_REF_BYTES of $ref text in all (without the bound, 198 MB
 * here); members past it are null, and the skeleton still JSON.
 */
START_TEST(html_skeleton_bounds_the_ref_text_it_resolves)
{
	const size_t n = 2000, levels = 8, chain = 15;
	char name[1001], piece[64];
	const struct json_value *act;
	struct buf b, path;
	size_t i;

	memset(name, 'x', 1000);
	name[1000] = '\0';
	buf_init(&path, 1 << 20);
	put_text(&path, "#");
	for (i = 0; i < levels; i++) {
		put_text(&path, "/$defs/");
		put_text(&path, name);
	}
	buf_init(&b, (size_t)16 << 20);
	put_text(&b, "{\"type\": \"object\", \"required\": [");
	put_names(&b, "r", 0, n, "");
	put_text(&b, "], \"additionalProperties\": {\"$ref\": \"");
	put_text(&b, path.data);
	put_text(&b, "/$defs/c0\"}, \"$defs\": ");
	for (i = 0; i < levels; i++) {
		put_text(&b, "{\"");
		put_text(&b, name);
		put_text(&b, "\": {\"$defs\": ");
	}
	put_text(&b, "{");
	for (i = 0; i + 1 < chain; i++) {
		snprintf(piece, sizeof(piece), "\"c%zu\": {\"$ref\": \"", i);
		put_text(&b, piece);
		put_text(&b, path.data);
		snprintf(piece, sizeof(piece), "/$defs/c%zu\"}, ", i + 1);
		put_text(&b, piece);
	}
	snprintf(piece, sizeof(piece), "\"c%zu\": {\"type\": \"string\"}}",
	    chain - 1);
	put_text(&b, piece);
	for (i = 0; i < levels; i++)
		put_text(&b, "}}");
	put_text(&b, "}");
	html_test_ref_bytes = 0;
	act = skeleton_of(&b);
	ck_assert_msg(html_test_ref_bytes <= HTML_SKELETON_REF_BYTES,
	    "%zu bytes of $ref resolved", html_test_ref_bytes);
	ck_assert_int_eq(act->type, JSON_T_OBJECT);
	ck_assert_uint_eq(act->u.obj.count, n);
	/* The first members are reached through the chain, the last not. */
	ck_assert_int_eq(act->u.obj.members[0].value.type, JSON_T_STRING);
	ck_assert_int_eq(act->u.obj.members[n - 1].value.type, JSON_T_NULL);
	buf_free(&path);
	buf_free(&b);
}
END_TEST

START_TEST(html_skeleton_follows_refs_and_first_alternatives)
{
	expect_skeleton("{\"$defs\": {\"n\": {\"type\": \"integer\", "
			"\"minimum\": 7}}, \"$ref\": \"#/$defs/n\"}",
	    "7", true);
	expect_skeleton("{\"anyOf\": [{\"type\": \"string\"}, "
			"{\"type\": \"null\"}]}",
	    "\"\"", true);
	expect_skeleton("{\"oneOf\": [{\"type\": \"boolean\"}, "
			"{\"type\": \"string\"}]}",
	    "false", true);
	expect_skeleton("{\"allOf\": [{\"type\": \"object\", \"properties\": "
			"{\"k\": {\"type\": \"number\"}}}]}",
	    "{\n  \"k\": 0\n}", true);
	/* An unresolvable $ref leaves the rest of the schema to speak. */
	expect_skeleton("{\"$ref\": \"#/nowhere\", \"type\": \"string\"}",
	    "\"\"", false);
}
END_TEST

START_TEST(html_skeleton_ends_on_recursive_forms)
{
	struct buf out;
	const struct json_value *s;

	/* Self-reference through the root: bounded by depth. */
	expect_skeleton("{\"type\": \"object\", \"properties\": {"
			"\"v\": {\"type\": \"integer\"},"
			"\"next\": {\"$ref\": \"#\"}}}",
	    NULL, true);
	/* A $ref cycle that makes no progress still ends. */
	expect_skeleton("{\"$defs\": {\"a\": {\"$ref\": \"#/$defs/b\"}, "
			"\"b\": {\"$ref\": \"#/$defs/a\"}}, \"$ref\": "
			"\"#/$defs/a\"}",
	    "null", false);
	/* Wide and recursive: the node budget keeps the skeleton small. */
	s = parse("{\"$defs\": {\"t\": {\"type\": \"object\", \"properties\": {"
		  "\"a\": {\"$ref\": \"#/$defs/t\"},"
		  "\"b\": {\"$ref\": \"#/$defs/t\"},"
		  "\"c\": {\"$ref\": \"#/$defs/t\"},"
		  "\"d\": {\"$ref\": \"#/$defs/t\"}}}}, \"$ref\": "
		  "\"#/$defs/t\"}");
	buf_init(&out, 4 << 20);
	ck_assert_int_eq(html_skeleton(s, &out), 0);
	ck_assert_uint_lt(out.len, 512 * 1024);
	buf_free(&out);
}
END_TEST

/* --- html_page -------------------------------------------------------- */

static const char hostile_doc[] =
    "{\"p\": \"<script>alert(1)</script> & \\\"q\\\" 'a' <!-- \\u0000\","
    " \"m\": [{\"role\": \"user<b>\", \"content\": "
    "\"</textarea><script>x()</script>\"},"
    " {\"role\": \"assistant\", \"content\": \"</pre><img src=x "
    "onerror=y>\"}],"
    " \"s\": {\"type\": \"object\", \"properties\": {"
    "\"</pre><script>z()</script>\": {\"type\": \"string\", "
    "\"default\": \"</textarea><script>w()</script>\"}},"
    " \"description\": \"</style><!--\"}}";

static void
page_of(const char *doc, struct buf *out)
{
	buf_init(out, 4 << 20);
	ck_assert_int_eq(html_page(parse(doc), out), 0);
	ck_assert_ptr_nonnull(out->data);
}

static void
expect_page_contains(const struct buf *page, const char *needle)
{
	ck_assert_msg(contains(page, needle), "page lacks: %s", needle);
}

static void
expect_page_count(const struct buf *page, const char *needle, size_t n)
{
	size_t got = count_of(page->data, page->len, needle);

	ck_assert_msg(got == n, "page has %zu times %s, expected %zu", got,
	    needle, n);
}

START_TEST(html_page_escapes_hostile_document_strings)
{
	struct buf page;

	page_of(hostile_doc, &page);
	/* Only the page's own elements appear as markup. */
	expect_page_count(&page, "<script", 1);
	expect_page_count(&page, "</script>", 1);
	expect_page_count(&page, "<textarea", 1);
	expect_page_count(&page, "</textarea>", 1);
	expect_page_count(&page, "</pre>", 2);
	expect_page_count(&page, "<style>", 1);
	expect_page_count(&page, "</style>", 1);
	expect_page_count(&page, "<!--", 0);
	expect_page_count(&page, "<b>", 0);
	expect_page_count(&page, "<img", 0);
	/* The document's strings are there, escaped. */
	expect_page_contains(&page, "&lt;script&gt;alert(1)&lt;/script&gt; "
				    "&amp; &quot;q&quot; &#39;a&#39; &lt;!-- "
				    "\xEF\xBF\xBD");
	expect_page_contains(&page, "user&lt;b&gt;");
	expect_page_contains(&page,
	    "&lt;/textarea&gt;&lt;script&gt;x()&lt;/script&gt;");
	expect_page_contains(&page, "&lt;/pre&gt;&lt;img src=x onerror=y&gt;");
	/* The skeleton in the textarea, and the form in the <pre>. */
	expect_page_contains(&page,
	    "&quot;&lt;/pre&gt;&lt;script&gt;z()&lt;/script&gt;&quot;: "
	    "&quot;&lt;/textarea&gt;&lt;script&gt;w()&lt;/script&gt;&quot;");
	expect_page_contains(&page, "&quot;&lt;/style&gt;&lt;!--&quot;");
	buf_free(&page);
}
END_TEST

START_TEST(html_page_shows_p_and_each_message)
{
	struct buf page;

	page_of("{\"p\": \"Order tea.\", \"m\": ["
		"{\"role\": \"system\", \"content\": \"Be brief.\"},"
		"{\"role\": \"user\", \"content\": \"Two cups.\"}],"
		" \"s\": {\"type\": \"object\", \"properties\": {\"cups\": "
		"{\"type\": \"integer\", \"minimum\": 1}}, \"required\": "
		"[\"cups\"]}, \"x-extra\": 1}",
	    &page);
	expect_page_contains(&page, "<title>Order tea.</title>");
	expect_page_contains(&page, "<p class=\"p\">Order tea.</p>");
	expect_page_contains(&page, "<div class=\"role\">system</div>"
				    "<div class=\"content\">Be brief.</div>");
	expect_page_contains(&page, "<div class=\"role\">user</div>"
				    "<div class=\"content\">Two cups.</div>");
	/* The skeleton, escaped, fills the editor. */
	expect_page_contains(&page,
	    "autocapitalize=\"off\">{\n  &quot;cups&quot;: 1\n}</textarea>");
	/* The form, pretty-printed and escaped. */
	expect_page_contains(&page, "<pre class=\"s\">{");
	expect_page_contains(&page, "&quot;minimum&quot;: 1");
	buf_free(&page);
}
END_TEST

START_TEST(html_page_carries_the_controls_that_post_json)
{
	struct buf page;

	page_of("{\"p\": \"x\", \"m\": [], \"s\": {\"type\": \"string\"}}",
	    &page);
	ck_assert_msg(page.len > 15 &&
		memcmp(page.data, "<!DOCTYPE html>\n", 16) == 0,
	    "page does not start with the doctype");
	ck_assert_msg(strcmp(page.data + page.len - 8, "</html>\n") == 0,
	    "page does not end with </html>");
	expect_page_contains(&page, "<meta charset=\"utf-8\">");
	expect_page_contains(&page, "<form id=\"act\">");
	expect_page_contains(&page, "<textarea id=\"body\"");
	expect_page_contains(&page, "<button type=\"submit\">");
	expect_page_contains(&page, "fetch(location.href, {");
	expect_page_contains(&page, "method: \"POST\"");
	expect_page_contains(&page,
	    "headers: {\"Content-Type\": \"application/json\"}");
	expect_page_contains(&page, "body: body.value");
	expect_page_contains(&page, "\"rejected (204)\"");
	expect_page_contains(&page, "out.textContent = text");
	/* Never the only way to the form. */
	expect_page_contains(&page, "without text/html in its Accept header "
				    "returns the JSON document");
	/* Nothing is loaded from elsewhere. */
	expect_page_count(&page, "src=", 0);
	expect_page_count(&page, "href=", 0);
	expect_page_count(&page, "http://", 0);
	expect_page_count(&page, "https://", 0);
	/* An empty m shows no message list. */
	expect_page_count(&page, "<ol class=\"m\">", 0);
	buf_free(&page);
}
END_TEST

START_TEST(html_page_cuts_a_long_title_on_a_code_point)
{
	struct buf page, doc;
	char *title;
	int i;

	buf_init(&doc, 1 << 20);
	ck_assert_int_eq(buf_puts(&doc, "{\"p\": \""), 0);
	for (i = 0; i < 100; i++)
		ck_assert_int_eq(buf_puts(&doc, "\xC3\xA9"), 0);
	ck_assert_int_eq(buf_puts(&doc, "\", \"m\": [], \"s\": true}"), 0);
	page_of(doc.data, &page);
	title = strstr(page.data, "<title>");
	ck_assert_ptr_nonnull(title);
	title += strlen("<title>");
	for (i = 0; i < HTML_TITLE_MAX; i++, title += 2)
		ck_assert_mem_eq(title, "\xC3\xA9", 2);
	ck_assert_msg(strncmp(title, "\xE2\x80\xA6</title>", 11) == 0,
	    "title is not cut with an ellipsis: %.20s", title);
	/* The body shows all of p. */
	expect_page_count(&page, "\xC3\xA9", 100 + HTML_TITLE_MAX);
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
	    "\"s\": {\"enum\": [\"\\u0000\\u2028\"]}}",
	    "{\"p\": \"\", \"m\": [], \"s\": {}}",
	};
	size_t i, bad = 0;
	struct buf page;

	for (i = 0; i < GPT_ARRAY_LEN(docs); i++) {
		page_of(docs[i], &page);
		ck_assert_msg(utf8_validate((const unsigned char *)page.data,
				  page.len, NULL, &bad),
		    "page of %s is not UTF-8 at byte %zu", docs[i], bad);
		ck_assert_msg(memchr(page.data, '\0', page.len) == NULL,
		    "page of %s holds a NUL byte", docs[i]);
		buf_free(&page);
	}
}
END_TEST

START_TEST(html_page_leaves_the_buffer_as_it_was_when_full)
{
	struct buf out;

	buf_init(&out, 1000);
	ck_assert_int_eq(buf_puts(&out, "abc"), 0);
	ck_assert_int_eq(html_page(parse(hostile_doc), &out), -1);
	ck_assert_uint_eq(out.len, 3);
	ck_assert_str_eq(out.data, "abc");
	buf_free(&out);
}
END_TEST

static Suite *
suite_html(void)
{
	Suite *s = suite_create("html");
	TCase *esc = tcase_create("html_escape");
	TCase *skel = tcase_create("html_skeleton");
	TCase *page = tcase_create("html_page");

	tcase_add_checked_fixture(esc, setup, teardown);
	tcase_add_test(esc, html_escape_replaces_markup_characters_and_controls);
	tcase_add_test(esc, html_escape_leaves_the_buffer_as_it_was_when_full);
	suite_add_tcase(s, esc);

	tcase_add_checked_fixture(skel, setup, teardown);
	tcase_add_test(skel, html_skeleton_fills_each_type_with_a_starting_value);
	tcase_add_test(skel, html_skeleton_lists_required_properties_first);
	tcase_add_test(skel, html_skeleton_follows_refs_and_first_alternatives);
	tcase_add_test(skel, html_skeleton_ends_on_recursive_forms);
	tcase_add_test(skel, html_skeleton_matches_required_names_in_n_log_n);
	tcase_add_test(skel, html_skeleton_bounds_the_ref_text_it_resolves);
	suite_add_tcase(s, skel);

	tcase_add_checked_fixture(page, setup, teardown);
	tcase_add_test(page, html_page_escapes_hostile_document_strings);
	tcase_add_test(page, html_page_shows_p_and_each_message);
	tcase_add_test(page, html_page_carries_the_controls_that_post_json);
	tcase_add_test(page, html_page_cuts_a_long_title_on_a_code_point);
	tcase_add_test(page, html_page_is_valid_utf8);
	tcase_add_test(page, html_page_leaves_the_buffer_as_it_was_when_full);
	suite_add_tcase(s, page);
	return s;
}

CHECK_MAIN(suite_html)
