/*
 * check_decoder.c: the decoder table is well formed, and its generic
 * evaluation gives each decoder's refusals and ignored keywords.
 */
#include "check_schema.h"
#include "tools/decoder.h"
#include "tools/lint.h"
#include "tools/report.h"

/* The report of the embedded table for schema. */
static void
decode_text(const char *schema, struct report *r)
{
	struct arena a;
	struct lint_facts f;
	const struct schema *s;

	arena_init(&a, 16 << 20);
	s = compile_text(&a, schema, NULL);
	report_init(r, "form");
	ck_assert_int_eq(lint_facts(s, schema, strlen(schema), &f), 0);
	ck_assert_int_eq(decoder_report(&f, r), 0);
	lint_facts_free(&f);
	arena_free(&a);
}

static const struct report_decoder *
decoder_named(const struct report *r, const char *id)
{
	size_t i;

	for (i = 0; i < r->ndecoders; i++)
		if (strcmp(r->decoders[i].id, id) == 0)
			return &r->decoders[i];
	ck_abort_msg("no decoder %s", id);
	return NULL;
}

static bool
has_site(const struct report_site *s, size_t n, const char *pointer,
    const char *keyword)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strcmp(s[i].pointer, pointer) == 0 &&
		    strcmp(s[i].keyword, keyword) == 0)
			return true;
	return false;
}

START_TEST(the_embedded_table_loads_with_six_decoders)
{
	char msg[256] = "";
	struct report r;

	decoder_unload();
	ck_assert_msg(decoder_load(msg, sizeof(msg)) == 0, "%s", msg);
	decode_text("{\"type\": \"null\"}", &r);
	ck_assert_uint_eq(r.ndecoders, 6);
	decoder_named(&r, "openai-strict");
	decoder_named(&r, "anthropic-strict");
	decoder_named(&r, "llama.cpp");
	decoder_named(&r, "xgrammar");
	decoder_named(&r, "llguidance");
	decoder_named(&r, "outlines");
	ck_assert_str_eq(r.decoders[0].verified, "2026-12-01");
	report_free(&r);
}
END_TEST

struct site_case {
	const char *schema;
	const char *decoder;
	bool refused; /* else ignored */
	const char *pointer, *keyword;
	bool listed;
};

#define CLOSED "\"additionalProperties\": false"
#define DISJOINT                                                               \
	"{\"oneOf\": [{\"type\": \"string\", \"maxLength\": 3}, {\"type\": "   \
	"\"integer\"}]}"
#define OVERLAP                                                                \
	"{\"oneOf\": [{\"type\": \"string\", \"maxLength\": 3}, {\"type\": "   \
	"\"string\", \"minLength\": 2, \"maxLength\": 3}]}"

static const struct site_case site_cases[] = {
    /* oneOf: refused by the strict modes, anyOf to the others */
    {DISJOINT, "openai-strict", true, "", "oneOf", true},
    {DISJOINT, "anthropic-strict", true, "", "oneOf", true},
    {DISJOINT, "xgrammar", false, "", "oneOf", true},
    {DISJOINT, "llama.cpp", false, "", "oneOf", true},
    /* llguidance: only when the branches may overlap */
    {DISJOINT, "llguidance", true, "", "oneOf", false},
    {OVERLAP, "llguidance", true, "", "oneOf", true},
    /* an open object: the strict modes refuse it */
    {"{\"type\": \"object\"}", "openai-strict", true, "",
        "additionalProperties", true},
    {"{\"type\": \"object\", " CLOSED "}", "openai-strict", true, "",
        "additionalProperties", false},
    /* OpenAI: every member required */
    {"{\"type\": \"object\", " CLOSED ", \"properties\": {\"a\": "
     "{\"type\": \"null\"}}}",
        "openai-strict", true, "", "required", true},
    {"{\"type\": \"object\", " CLOSED ", \"required\": [\"a\"], "
     "\"properties\": {\"a\": {\"type\": \"null\"}}}",
        "openai-strict", true, "", "required", false},
    /* a condition: xgrammar drops maxLength beside pattern only */
    {"{\"type\": \"string\", \"maxLength\": 3, \"pattern\": \"^a+$\"}",
        "xgrammar", false, "", "maxLength", true},
    {"{\"type\": \"string\", \"maxLength\": 3}", "xgrammar", false, "",
        "maxLength", false},
    /* outlines drops pattern beside a length */
    {"{\"type\": \"string\", \"maxLength\": 3, \"pattern\": \"^a+$\"}",
        "outlines", false, "", "pattern", true},
    /* types: llama.cpp bounds integers, not numbers */
    {"{\"type\": \"number\", \"maximum\": 3}", "llama.cpp", false, "",
        "maximum", true},
    {"{\"type\": \"integer\", \"maximum\": 3}", "llama.cpp", false, "",
        "maximum", false},
    /* others: a keyword a decoder does not list */
    {"{\"type\": \"array\", \"maxItems\": 3, \"uniqueItems\": true}",
        "llama.cpp", false, "", "uniqueItems", true},
    {"{\"type\": \"array\", \"maxItems\": 3, \"uniqueItems\": true}",
        "llguidance", true, "", "uniqueItems", true},
    /* formats outside a decoder's list */
    {"{\"type\": \"string\", \"format\": \"ipv4\"}", "llama.cpp", false, "",
        "format", true},
    {"{\"type\": \"string\", \"format\": \"date\"}", "llama.cpp", false, "",
        "format", false},
    /* facts: recursion refused by Anthropic; unanchored by llama.cpp */
    {"{\"$ref\": \"#/$defs/n\", \"$defs\": {\"n\": {\"type\": "
     "\"object\", " CLOSED
     ", \"properties\": {\"c\": {\"$ref\": \"#/$defs/n\"}}}}}",
        "anthropic-strict", true, "/$defs/n", "$ref", true},
    {"{\"type\": \"string\", \"maxLength\": 3, \"pattern\": \"a\"}",
        "llama.cpp", true, "", "pattern", true},
    {"{\"type\": \"string\", \"maxLength\": 3, \"pattern\": \"^a|b$\"}",
        "llama.cpp", true, "", "pattern", false},
    /* Anthropic's regex subset: no lookaround */
    {"{\"type\": \"string\", \"maxLength\": 3, \"pattern\": "
     "\"^(?=a)a$\"}",
        "anthropic-strict", true, "", "pattern", true},
    {"{\"type\": \"string\", \"maxLength\": 3, \"pattern\": \"^a$\"}",
        "anthropic-strict", true, "", "pattern", false},
    /* "(?=" inside a class is three characters, not a lookahead: the
     * decoders are asked of the pattern's syntax tree, not of its text */
    {"{\"type\": \"string\", \"maxLength\": 3, \"pattern\": "
     "\"^[(?=]$\"}",
        "anthropic-strict", true, "", "pattern", false},
    {"{\"type\": \"string\", \"maxLength\": 3, \"pattern\": "
     "\"^[\\\\b]$\"}",
        "llguidance", true, "", "pattern", false},
    {"{\"type\": \"string\", \"maxLength\": 3, \"pattern\": "
     "\"^a\\\\b$\"}",
        "llguidance", true, "", "pattern", true},
    /* an escaped "$" at the end anchors nothing */
    {"{\"type\": \"string\", \"maxLength\": 3, \"pattern\": "
     "\"^a\\\\$\"}",
        "llama.cpp", true, "", "pattern", true},
    /* where: anyOf at OpenAI's root only */
    {"{\"anyOf\": [{\"type\": \"null\"}, {\"type\": \"integer\"}]}",
        "openai-strict", true, "", "anyOf", true},
    {"{\"type\": \"object\", " CLOSED ", \"required\": [\"a\"], "
     "\"properties\": {\"a\": {\"anyOf\": [{\"type\": \"null\"}, "
     "{\"type\": \"integer\"}]}}}",
        "openai-strict", true, "/properties/a", "anyOf", false},
    /* value_max: Anthropic keeps minItems 0 or 1 */
    {"{\"type\": \"array\", \"minItems\": 1}", "anthropic-strict", false, "",
        "minItems", false},
    {"{\"type\": \"array\", \"minItems\": 2}", "anthropic-strict", false, "",
        "minItems", true},
    /* @schema: outlines reads one of a few keywords, or refuses */
    {"{\"maxLength\": 3}", "outlines", true, "", "type", true},
    {"{\"type\": \"string\", \"maxLength\": 3}", "outlines", true, "", "type",
        false},
    {"{\"type\": \"object\", \"properties\": {}, \"enum\": [{}]}", "outlines",
        false, "", "enum", true},
    /* neutral keywords: no "others" effect */
    {"{\"type\": \"null\", \"title\": \"t\", \"x-ui\": 1}", "llguidance", true,
        "", "x-ui", false},
    /* but an explicit rule still judges them */
    {"{\"type\": \"null\", \"default\": null}", "openai-strict", true, "",
        "default", true},
};

START_TEST(each_decoder_refuses_and_ignores_as_its_rows_say)
{
	const struct site_case *c = &site_cases[_i];
	const struct report_decoder *d;
	struct report r;
	bool got;

	decode_text(c->schema, &r);
	d = decoder_named(&r, c->decoder);
	got = c->refused
	          ? has_site(d->refused_by, d->nrefused, c->pointer, c->keyword)
	          : has_site(d->ignores, d->nignores, c->pointer, c->keyword);
	ck_assert_msg(got == c->listed, "%s %s %s at \"%s\": %s on %s",
	    c->decoder, c->refused ? "refuses" : "ignores", c->keyword,
	    c->pointer, got ? "listed" : "not listed", c->schema);
	report_free(&r);
}
END_TEST

struct table_case {
	const char *table;
	const char *says; /* in the refusal, or NULL: loads */
};

#define HEAD                                                                   \
	"{\"verified\": \"2026-12-01\", \"neutral\": [], \"sources\": "        \
	"{\"S\": \"s\"}, \"decoders\": [{\"id\": \"d\", \"name\": \"D\", "     \
	"\"others\": \"ignore\", \"rules\": ["
#define TAIL "]}]}"

static const struct table_case table_cases[] = {
    {HEAD "{\"keyword\": \"oneOf\", \"effect\": \"refuse\", \"source\": "
          "\"S\", \"verified\": null}" TAIL,
        NULL},
    {HEAD "{\"keyword\": \"oneOf\", \"effect\": \"refuse\", \"source\": "
          "\"S\", \"verified\": null, \"wiht\": []}" TAIL,
        "unknown member \"wiht\""},
    {HEAD "{\"keyword\": \"@no-such-fact\", \"effect\": \"refuse\", "
          "\"source\": \"S\", \"verified\": null}" TAIL,
        "unknown fact"},
    {HEAD "{\"keyword\": \"oneOf\", \"effect\": \"drop\", \"source\": "
          "\"S\", \"verified\": null}" TAIL,
        "bad effect"},
    {HEAD "{\"keyword\": \"oneOf\", \"effect\": \"refuse\", \"source\": "
          "\"Z\", \"verified\": null}" TAIL,
        "source not in sources"},
    {HEAD "{\"keyword\": \"oneOf\", \"effect\": \"refuse\", \"source\": "
          "\"S\"}" TAIL,
        "verified"},
    {"{\"decoders\": []}", "needs decoders"},
};

START_TEST(a_malformed_table_is_refused_with_its_reason)
{
	const struct table_case *c = &table_cases[_i];
	char msg[256] = "";
	int rc;

	rc = decoder_load_text(c->table, strlen(c->table), msg, sizeof(msg));
	if (c->says == NULL)
		ck_assert_msg(rc == 0, "%s", msg);
	else
		ck_assert_msg(rc == -1 && strstr(msg, c->says) != NULL,
		    "got \"%s\", expected \"%s\"", msg, c->says);
	decoder_unload();
}
END_TEST

START_TEST(a_table_is_evaluated_without_knowing_the_decoder)
{
	/* a made-up decoder: the same code reads its rows */
	static const char t[] = HEAD
	    "{\"keyword\": \"minimum\", \"with\": [\"maximum\"], \"effect\": "
	    "\"refuse\", \"source\": \"S\", \"verified\": null}, "
	    "{\"keyword\": \"minimum\", \"effect\": \"enforce\", \"source\": "
	    "\"S\", \"verified\": null}" TAIL;
	char msg[256] = "";
	struct report r;

	ck_assert_msg(
	    decoder_load_text(t, strlen(t), msg, sizeof(msg)) == 0, "%s", msg);
	decode_text(
	    "{\"type\": \"integer\", \"minimum\": 1, \"maximum\": 3}", &r);
	ck_assert_uint_eq(r.ndecoders, 1);
	ck_assert(has_site(
	    r.decoders[0].refused_by, r.decoders[0].nrefused, "", "minimum"));
	/* others = ignore: maximum and type have no row */
	ck_assert(has_site(
	    r.decoders[0].ignores, r.decoders[0].nignores, "", "maximum"));
	report_free(&r);
	decode_text("{\"type\": \"integer\", \"minimum\": 1}", &r);
	ck_assert_uint_eq(r.decoders[0].nrefused, 0);
	report_free(&r);
	decoder_unload();
}
END_TEST

static Suite *
suite_decoder(void)
{
	Suite *s = suite_create("decoder");
	TCase *k = tcase_create("Core");

	tcase_add_test(k, the_embedded_table_loads_with_six_decoders);
	tcase_add_loop_test(k, each_decoder_refuses_and_ignores_as_its_rows_say,
	    0, (int)GPT_ARRAY_LEN(site_cases));
	tcase_add_loop_test(k, a_malformed_table_is_refused_with_its_reason, 0,
	    (int)GPT_ARRAY_LEN(table_cases));
	tcase_add_test(k, a_table_is_evaluated_without_knowing_the_decoder);
	suite_add_tcase(s, k);
	return s;
}

CHECK_MAIN(suite_decoder)
