/*
 * lint_rules.c: the rules of the form's lint (lint.h) that read the facts
 * lint.c gathered: recursion, oneOf, patterns, descriptions, defaults
 * and examples (judged by the validator), optional members' blank
 * values, the form's size.  The bounds rules are said by lint.c's walk.
 */
#include <stdio.h>
#include <string.h>

#include "base/arena.h"
#include "parser/json.h"
#include "tools/lint.h"
#include "tools/lint_int.h"
#include "base/num.h"
#include "tools/report.h"
#include "schema/schema_dialect.h"
#include "schema/schema_facts.h"
#include "schema/schema_view.h"

/* The member keyword kw of the schema object src, or NULL. */
static const struct json_value *
lint_kw(const struct json_value *src, enum kw kw)
{
	const char *name = schema_kw_name(kw);

	return json_object_get(src, name, strlen(name));
}

static void
lint_rule_oneof(const struct lint_facts *f, const struct lint_node *ln,
    const struct schema_view *v, const char *ptr, struct report *r)
{
	char why[128];

	(void)f;
	if (v->none_of == 0)
		return;
	if (v->none_of == 1 ||
	    schema_facts_oneof_disjoint(ln->n, why, sizeof(why)))
		report_addf(r, REPORT_WARNING, "oneof", ptr,
		    "replace \"oneOf\" with \"anyOf\": the same values pass",
		    "oneOf, which OpenAI's and Anthropic's strict modes refuse "
		    "and llama.cpp, xgrammar and outlines treat as anyOf; its "
		    "branches are provably disjoint (%s), so anyOf is "
		    "equivalent",
		    v->none_of == 1 ? "there is one" : why);
	else
		report_add(r, REPORT_WARNING, "oneof", ptr,
		    "oneOf, which OpenAI's and Anthropic's strict modes refuse "
		    "and llama.cpp, xgrammar and outlines treat as anyOf; its "
		    "branches are not provably disjoint, so anyOf would also "
		    "accept a value that matches several of them",
		    "make the branches disjoint (objects alone, with a "
		    "required member of a distinct const in each), then "
		    "use anyOf");
}

static void
lint_rule_pattern(
    const struct schema_view *v, const char *ptr, struct report *r)
{
	char pat[80];
	struct lint_pattern lp;

	if (v->pattern == NULL)
		return;
	lint_pattern_ask(v->pattern, v->pattern_len, 0, &lp);
	if (lp.anchored)
		return;
	lint_clip(pat, sizeof(pat), v->pattern, v->pattern_len);
	report_addf(r, REPORT_WARNING, "pattern-unanchored", ptr,
	    "anchor it: \"^(?:...)$\"",
	    "the pattern \"%s\" is not anchored at both ends (or has an "
	    "alternative outside them): JSON Schema patterns match anywhere "
	    "in the string, so it admits any text around a match",
	    pat);
}

/* A keyword the view does not describe: every tool is blind to it (the
 * page gives the subschema a JSON editor, --sample, --unroll and
 * --strict-openai refuse it), though the validator enforces it. */
static void
lint_rule_opaque(const struct lint_node *ln, const struct schema_view *v,
    const char *ptr, struct report *r)
{
	const char *name;
	size_t len, i = 0;
	char kw[64];

	if (!v->undescribed)
		return;
	/* bounded: each round moves past one member */
	while ((i = schema_view_opaque(ln->n, i, &name, &len)) != SIZE_MAX) {
		lint_clip(kw, sizeof(kw), name, len);
		report_addf(r, REPORT_WARNING, "keyword-opaque", ptr,
		    "none: the validator enforces it; the tools describe it "
		    "once gpt.fcgi's view does",
		    "the keyword \"%s\" is enforced, but the page, --sample, "
		    "--unroll, --strict-openai and this report cannot tell "
		    "what it accepts (the page offers a JSON editor there)",
		    kw);
		i++;
	}
}

/* Judge the annotation value x of node n with the validator. */
static void
lint_judge(const struct lint_facts *f, const struct lint_node *ln,
    const struct json_value *x, const char *what, const char *rule,
    const char *ptr, struct arena *scratch, struct report *r)
{
	struct schema_err err;
	enum schema_result res;

	res = schema_view_validate(f->s, ln->n, x, scratch, &err);
	arena_reset(scratch);
	if (res == SCHEMA_OK || res == SCHEMA_NOMEM)
		return;
	report_addf(r, REPORT_WARNING, rule, ptr,
	    "change it to a value the schema accepts, or remove it",
	    "%s is rejected by the schema it annotates: at \"%s\": %s%s%s",
	    what, err.pointer.buf, err.keyword != NULL ? err.keyword : "",
	    err.keyword != NULL ? ": " : "", err.reason);
}

static void
lint_rule_annotations(const struct lint_facts *f, const struct lint_node *ln,
    const struct schema_view *v, const char *ptr, struct arena *scratch,
    struct report *r)
{
	const struct json_value *d, *ex;
	char what[48];
	size_t i;

	if (v->src == NULL || v->src->type != JSON_T_OBJECT)
		return;
	if ((d = lint_kw(v->src, KW_DEFAULT)) != NULL)
		lint_judge(f, ln, d, "its default", "default-invalid", ptr,
		    scratch, r);
	if ((ex = lint_kw(v->src, KW_EXAMPLES)) != NULL &&
	    ex->type == JSON_T_ARRAY)
		for (i = 0; i < ex->u.arr.count && i < 100; i++) {
			snprintf(what, sizeof(what), "example %zu", i);
			lint_judge(f, ln, &ex->u.arr.items[i], what,
			    "example-invalid", ptr, scratch, r);
		}
}

/* The pointer of member name of the object schema v: v's own, then
 * /properties/ and the name escaped (RFC 6901 section 3). */
static void
lint_member_ptr(const struct schema_view *v, const char *name, size_t len,
    char out[LINT_PTR_MAX])
{
	size_t n, i;

	lint_ptr(v, out);
	n = strlen(out);
	if (n + 13 < LINT_PTR_MAX) {
		memcpy(out + n, "/properties/", 12);
		n += 12;
	}
	for (i = 0; i < len && n + 3 < LINT_PTR_MAX; i++) {
		if (name[i] == '~' || name[i] == '/') {
			out[n++] = '~';
			out[n++] = name[i] == '~' ? '0' : '1';
		} else {
			out[n++] = gpt_is_control((unsigned char)name[i])
			               ? '?'
			               : name[i];
		}
	}
	out[n] = '\0';
}

/* The blank value a page or generator fills in for an unset field of
 * type v: "", [] or {}; NULL for other types, and for a choice (an enum,
 * a const), a boolean or a number, which a page offers as a list, a box
 * or a number field that sends a value or nothing, never a blank. */
static const char *
lint_blank(const struct schema_view *v)
{
	if (!v->typed || v->nenums > 0 || v->const_value != NULL ||
	    (v->types & (SV_TY_BOOLEAN | SV_TY_NUMBER | SV_TY_INTEGER)))
		return NULL;
	if (v->types & SV_TY_STRING)
		return "\"\"";
	if (v->types & SV_TY_ARRAY)
		return "[]";
	if (v->types & SV_TY_OBJECT)
		return "{}";
	return NULL;
}

static void
lint_rule_optional(const struct lint_facts *f, const struct lint_node *ln,
    const struct schema_view *v, struct arena *scratch, struct report *r)
{
	struct schema_view_prop p;
	struct schema_view sv;
	const struct json_value *blank;
	struct schema_err err;
	struct json_err jerr;
	char ptr[LINT_PTR_MAX], name[64];
	const char *text;
	size_t i;

	for (i = 0; i < v->nprops; i++) {
		schema_view_prop(ln->n, i, &p);
		if (p.required || p.sub == NULL)
			continue;
		schema_view_get(p.sub, &sv);
		if ((text = lint_blank(&sv)) == NULL)
			continue;
		if (json_parse(text, strlen(text), scratch, 0, &blank, &jerr) !=
		        JSON_OK ||
		    schema_view_validate(f->s, p.sub, blank, scratch, &err) !=
		        SCHEMA_INVALID) {
			arena_reset(scratch);
			continue;
		}
		lint_member_ptr(v, p.name, p.len, ptr);
		lint_clip(name, sizeof(name), p.name, p.len);
		report_addf(r, REPORT_WARNING, "optional-empty", ptr,
		    "accept the blank value too (\"anyOf\": [..., {\"const\": "
		    "\"\"}]), make the member required, or have clients omit "
		    "blank members",
		    "the optional member \"%s\": a page or generator that "
		    "fills every field sends %s when it is left blank, which "
		    "the form rejects (%s)",
		    name, text, err.keyword != NULL ? err.keyword : err.reason);
		arena_reset(scratch);
	}
}

/* --- description-constraint ------------------------------------------- */

/* Words that make a nearby number a constraint. */
static const char *const lint_units[] = {
    "character", "characters", "chars", "char", "letters", "letter", "words",
    "digits", "digit", "bytes", "byte",
    "items", /* not-a-keyword: a word of a description */
    "item", "elements", "entries", "values", "tags", "lines", "decimals",
    "places", "kb", "mb", "percent", "members", "keys",
    "properties", /* not-a-keyword: a word of a description */
};
static const char *const lint_bound_words[] = {
    "max",
    "maximum", /* not-a-keyword: a word of a description */
    "min",
    "minimum", /* not-a-keyword: a word of a description */
    "most",
    "least",
    "upto",
    "than",
    "between",
    "exactly",
    "under",
    "over",
    "limit",
    "limited",
    "and",
    "to",
};

/* Words that state a constraint with no number, and what states it. */
struct lint_word {
	const char *word;
	unsigned needs; /* 1 pattern/format/enum/const, 2 a minimum size,
	                   4 uniqueItems */
};
static const struct lint_word lint_words[] = {
    {"lowercase", 1},
    {"uppercase", 1},
    {"alphanumeric", 1},
    {"email", 1},
    {"url", 1},
    {"uri", 1},
    {"uuid", 1},
    {"iso", 1},
    {"rfc", 1},
    {"nonempty", 2},
    {"unique", 4},
};

static bool
lint_word_in(const char *w, size_t len, const char *const *list, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strlen(list[i]) == len && strncmp(list[i], w, len) == 0)
			return true;
	return false;
}

/* Is the number text (len bytes) one of the node's bounds? */
static bool
lint_number_stated(const struct schema_view *v, const char *t, size_t len)
{
	const struct schema_view_num *nums[] = {&v->minimum, &v->maximum,
	    &v->xminimum, &v->xmaximum, &v->multiple_of};
	size_t sizes[] = {v->min_length, v->max_length, v->min_items,
	    v->max_items, v->min_props, v->max_props};
	struct lint_pattern lp;
	uint64_t count;
	char buf[32];
	size_t i;

	for (i = 0; i < GPT_ARRAY_LEN(nums); i++)
		if (nums[i]->text != NULL && nums[i]->len == len &&
		    memcmp(nums[i]->text, t, len) == 0)
			return true;
	for (i = 0; i < GPT_ARRAY_LEN(sizes); i++) {
		if (sizes[i] == SIZE_MAX)
			continue;
		snprintf(buf, sizeof(buf), "%zu", sizes[i]);
		if (strlen(buf) == len && memcmp(buf, t, len) == 0)
			return true;
	}
	/* a quantifier of the pattern: "{3,20}" */
	if (v->pattern != NULL &&
	    num_read(t, len, 0, UINT32_MAX, 0, &count) == NULL) {
		lint_pattern_ask(
		    v->pattern, v->pattern_len, (uint32_t)count, &lp);
		return lp.has_count;
	}
	return false;
}

/*
 * The first constraint the description d states that no keyword of v
 * does: a number beside a unit or bound word, or a constraint word.  The
 * phrase goes to out.  false when there is none.
 */
static bool
lint_description_claim(const struct schema_view *v, const char *d, size_t len,
    char *out, size_t cap)
{
	char w[32], prev[32] = "";
	size_t i = 0, j, k, wl, pl = 0;
	bool finite = v->const_value != NULL || v->nenums > 0;

	/* bounded: each pass consumes at least one byte */
	while (i < len) {
		unsigned char c = (unsigned char)d[i];

		if (c >= '0' && c <= '9') {
			/* a number: digits and one '.' */
			for (j = i;
			     j < len &&
			     ((d[j] >= '0' && d[j] <= '9') ||
			         (d[j] == '.' && j + 1 < len &&
			             d[j + 1] >= '0' && d[j + 1] <= '9'));
			     j++)
				;
			/* the next word */
			for (k = j; k < len && d[k] == ' '; k++)
				;
			for (wl = 0; k + wl < len && wl < sizeof(w) - 1 &&
			             (((d[k + wl] | 0x20) >= 'a' &&
			                 (d[k + wl] | 0x20) <= 'z'));
			     wl++)
				w[wl] = (char)(d[k + wl] | 0x20);
			if ((lint_word_in(w, wl, lint_units,
			         GPT_ARRAY_LEN(lint_units)) ||
			        lint_word_in(prev, pl, lint_bound_words,
			            GPT_ARRAY_LEN(lint_bound_words)) ||
			        (k < len && d[k] == '%')) &&
			    !finite && !lint_number_stated(v, d + i, j - i)) {
				lint_clip(out, cap, d + i,
				    (k + wl - i) < cap - 1 ? k + wl - i
				                           : cap - 1);
				return true;
			}
			pl = 0;
			i = j;
			continue;
		}
		if ((c | 0x20) >= 'a' && (c | 0x20) <= 'z') {
			for (j = i, wl = 0;
			     j < len &&
			     (((d[j] | 0x20) >= 'a' && (d[j] | 0x20) <= 'z') ||
			         d[j] == '-');
			     j++)
				if (d[j] != '-' && wl < sizeof(w) - 1)
					w[wl++] = (char)(d[j] | 0x20);
			for (k = 0; k < GPT_ARRAY_LEN(lint_words); k++) {
				const struct lint_word *lw = &lint_words[k];
				bool stated;

				if (strlen(lw->word) != wl ||
				    strncmp(lw->word, w, wl) != 0)
					continue;
				stated = finite ||
				         (lw->needs == 1 &&
				             (v->pattern != NULL ||
				                 v->format != NULL)) ||
				         (lw->needs == 2 &&
				             (v->min_length > 0 ||
				                 v->min_items > 0 ||
				                 v->min_props > 0 ||
				                 v->pattern != NULL)) ||
				         (lw->needs == 4 && v->unique_items);
				/* "unique" and "email" mean something only
				 * where the value can be such */
				if (lw->needs == 4 &&
				    !(v->typed && (v->types & SV_TY_ARRAY)))
					stated = true;
				if (lw->needs == 1 &&
				    !(v->typed && (v->types & SV_TY_STRING)))
					stated = true;
				if (!stated) {
					lint_clip(out, cap, d + i, j - i);
					return true;
				}
			}
			memcpy(prev, w, wl);
			pl = wl;
			i = j;
			continue;
		}
		i++;
	}
	return false;
}

static void
lint_rule_description(
    const struct schema_view *v, const char *ptr, struct report *r)
{
	const struct json_value *d;
	char claim[64];

	if (v->src == NULL || v->src->type != JSON_T_OBJECT ||
	    (d = lint_kw(v->src, KW_DESCRIPTION)) == NULL ||
	    d->type != JSON_T_STRING || v->undescribed)
		return;
	if (!lint_description_claim(
	        v, d->u.str.ptr, d->u.str.len, claim, sizeof(claim)))
		return;
	report_addf(r, REPORT_WARNING, "description-constraint", ptr,
	    "state it with a keyword (maxLength, maxItems, maximum, pattern, "
	    "format, uniqueItems, ...) or drop it from the description",
	    "the description says \"%s\" but no keyword does: an actor need "
	    "not read a description and gpt.fcgi does not enforce it",
	    claim);
}

void
lint_check(struct lint_facts *f, struct arena *scratch, struct report *r)
{
	const struct lint_node *ln;
	struct schema_view v;
	char ptr[LINT_PTR_MAX];
	size_t i;

	lint_walk_report(f, r);
	for (i = 0; i < f->count; i++) {
		ln = &f->nodes[i];
		if (!(ln->facts & LINT_F_REACHED))
			continue;
		schema_view_get(ln->n, &v);
		lint_ptr(&v, ptr);
		if (ln->facts & LINT_F_RECURSION)
			report_add(r, REPORT_WARNING, "recursion-unbounded",
			    ptr,
			    "this schema contains itself: values may nest "
			    "without a limit the form states, so the depth is "
			    "left to each actor's sampling",
			    "unroll it into N levels: gpt.fcgi --unroll --form "
			    "N DIR > form.json.new writes the form with the "
			    "last level without the recursive alternative "
			    "(the draft's Bounded Recursion); check it and mv "
			    "it over form.json");
		lint_rule_oneof(f, ln, &v, ptr, r);
		lint_rule_pattern(&v, ptr, r);
		lint_rule_opaque(ln, &v, ptr, r);
		lint_rule_description(&v, ptr, r);
		lint_rule_annotations(f, ln, &v, ptr, scratch, r);
		lint_rule_optional(f, ln, &v, scratch, r);
	}
	if (f->tokens > LINT_TOKENS_WARN)
		report_addf(r, REPORT_WARNING, "form-size", "",
		    "make it smaller: shorter descriptions, fewer members, "
		    "$defs for repeated parts",
		    "the served form is %zu bytes, about %zu tokens: large for "
		    "a model's context (over %d tokens), which every actor "
		    "spends on it before its act",
		    f->served_bytes, f->tokens, LINT_TOKENS_WARN);
}
