/*
 * decoder.c: the decoder table (schemas/decoders.json) evaluated over a
 * form (decoder.h).
 *
 * The table is parsed once per process into decoder_arena and checked:
 * every rule names a keyword, a known effect, a source the table lists,
 * a verification date or null, and only known conditions (a typo in the
 * data must fail the tests, never be read as "no condition").
 *
 * Evaluation, the same for every decoder: for each object schema of the
 * form (all of them, as the decoder receives the whole document), each
 * keyword written in it is judged by the first of its rules whose
 * conditions hold, else by the decoder's `others` effect (neutral
 * keywords excepted); then each fact lint.h found there (@open-object,
 * ...) is judged by its rules.  A refusal is listed in refused_by, an
 * ignored keyword in ignores; "enforce" and "unknown" add nothing.
 */
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "tools/decoder.h"
#include "parser/json.h"
#include "tools/lint.h"
#include "tools/report.h"
#include "schema/schema_view.h"

enum dec_effect { DEC_ENFORCE, DEC_REFUSE, DEC_IGNORE, DEC_UNKNOWN };

struct dec_rule {
	char *keyword; /* arena: NUL-terminated */
	size_t kwlen;
	enum dec_effect effect;
	const struct json_value *rule; /* the rule object, for conditions */
};

struct dec_decoder {
	char *id, *name; /* arena */
	enum dec_effect others;
	struct dec_rule *rules;
	size_t nrules;
};

static struct arena decoder_arena;
static bool decoder_loaded;
static int decoder_rc;
static char decoder_msg[256];
static const struct json_value *decoder_neutral; /* array of strings */
static char *decoder_verified;                   /* the table's date */
static struct dec_decoder *decoder_list;
static size_t decoder_count;

/* Facts of lint.h as pseudo-keywords, and the keyword a site names. */
static const struct {
	const char *name;
	unsigned bit;
	const char *keyword;
} decoder_facts[] = {
    {"@open-object", LINT_F_OPEN_OBJECT, "additionalProperties"},
    {"@optional-member", LINT_F_OPTIONAL_MEMBER, "required"},
    {"@recursion", LINT_F_RECURSION, "$ref"},
    {"@enum-object", LINT_F_ENUM_OBJECT, "enum"},
    {"@pattern-lookaround", LINT_F_LOOKAROUND, "pattern"},
    {"@unanchored-pattern", LINT_F_UNANCHORED, "pattern"},
    {"@oneof-overlap", LINT_F_ONEOF_OVERLAP, "oneOf"},
    {"@schema", 0, "type"}, /* 0: every object schema */
};

/* Counting facts: per schema (@nesting, @enum-values) or per form. */
static const char *const decoder_counts[] = {
    "@nesting",
    "@enum-values",
    "@properties",
    "@optional-members",
};

/* Condition members a rule may carry, besides its own fields. */
static const char *const decoder_rule_members[] = {
    "keyword",
    "effect",
    "source",
    "verified",
    "note",
    "with",
    "without",
    "where",
    "types",
    "formats",
    "min_items",
    "value_max",
    "not_false",
    "max",
};

static char *
dec_str(const struct json_value *v)
{
	char *p;

	if (v == NULL || v->type != JSON_T_STRING ||
	    memchr(v->u.str.ptr, '\0', v->u.str.len) != NULL)
		return NULL;
	if ((p = arena_alloc(&decoder_arena, v->u.str.len + 1)) == NULL)
		return NULL;
	memcpy(p, v->u.str.ptr, v->u.str.len);
	p[v->u.str.len] = '\0';
	return p;
}

static bool
dec_str_is(const struct json_value *v, const char *s, size_t len)
{
	return v != NULL && v->type == JSON_T_STRING && v->u.str.len == len &&
	       memcmp(v->u.str.ptr, s, len) == 0;
}

static int
dec_effect_of(const struct json_value *v, enum dec_effect *out)
{
	static const char *const names[] = {
	    "enforce", "refuse", "ignore", "unknown"};
	size_t i;

	for (i = 0; i < GPT_ARRAY_LEN(names); i++)
		if (dec_str_is(v, names[i], strlen(names[i]))) {
			*out = (enum dec_effect)i;
			return 0;
		}
	return -1;
}

static bool
dec_is_fact(const char *kw)
{
	size_t i;

	for (i = 0; i < GPT_ARRAY_LEN(decoder_facts); i++)
		if (strcmp(kw, decoder_facts[i].name) == 0)
			return true;
	for (i = 0; i < GPT_ARRAY_LEN(decoder_counts); i++)
		if (strcmp(kw, decoder_counts[i]) == 0)
			return true;
	return false;
}

#define DEC_FAIL(...)                                                          \
	do {                                                                   \
		snprintf(decoder_msg, sizeof(decoder_msg), __VA_ARGS__);       \
		return -1;                                                     \
	} while (0)

/* Check rule r of decoder d (index i) and keep it in *out. */
static int
dec_load_rule(const struct json_value *sources, const char *d, size_t i,
    const struct json_value *r, struct dec_rule *out)
{
	const struct json_value *v;
	size_t k, m;

	if (r->type != JSON_T_OBJECT)
		DEC_FAIL("%s: rule %zu is not an object", d, i);
	for (m = 0; m < r->u.obj.count; m++) {
		const struct json_string *key = &r->u.obj.members[m].key;

		for (k = 0; k < GPT_ARRAY_LEN(decoder_rule_members); k++)
			if (key->len == strlen(decoder_rule_members[k]) &&
			    memcmp(key->ptr, decoder_rule_members[k],
			        key->len) == 0)
				break;
		/* hits on {"keyword": "oneOf", "wiht": [...]} */
		if (k == GPT_ARRAY_LEN(decoder_rule_members))
			DEC_FAIL("%s: rule %zu: unknown member \"%.*s\"", d, i,
			    (int)(key->len < 40 ? key->len : 40), key->ptr);
	}
	if ((out->keyword = dec_str(json_object_get(r, "keyword", 7))) == NULL)
		DEC_FAIL("%s: rule %zu has no keyword", d, i);
	out->kwlen = strlen(out->keyword);
	if (out->keyword[0] == '@' && !dec_is_fact(out->keyword))
		DEC_FAIL("%s: rule %zu: unknown fact %s", d, i, out->keyword);
	if (dec_effect_of(json_object_get(r, "effect", 6), &out->effect) == -1)
		DEC_FAIL("%s: rule %zu (%s): bad effect", d, i, out->keyword);
	v = json_object_get(r, "source", 6);
	if (v == NULL || v->type != JSON_T_STRING ||
	    json_object_get(sources, v->u.str.ptr, v->u.str.len) == NULL)
		DEC_FAIL("%s: rule %zu (%s): source not in sources", d, i,
		    out->keyword);
	v = json_object_get(r, "verified", 8);
	if (v == NULL || (v->type != JSON_T_NULL && v->type != JSON_T_STRING))
		DEC_FAIL("%s: rule %zu (%s): verified must be a date or null",
		    d, i, out->keyword);
	v = json_object_get(r, "where", 5);
	if (v != NULL && !dec_str_is(v, "root", 4) &&
	    !dec_str_is(v, "below-root", 10))
		DEC_FAIL("%s: rule %zu (%s): where is root or below-root", d, i,
		    out->keyword);
	out->rule = r;
	return 0;
}

static int
dec_load_tree(const struct json_value *t)
{
	const struct json_value *ds, *d, *rules, *sources;
	size_t i, k;

	if (t->type != JSON_T_OBJECT ||
	    (ds = json_object_get(t, "decoders", 8)) == NULL ||
	    ds->type != JSON_T_ARRAY ||
	    (sources = json_object_get(t, "sources", 7)) == NULL ||
	    sources->type != JSON_T_OBJECT ||
	    (decoder_neutral = json_object_get(t, "neutral", 7)) == NULL ||
	    decoder_neutral->type != JSON_T_ARRAY ||
	    (decoder_verified = dec_str(json_object_get(t, "verified", 8))) ==
	        NULL)
		DEC_FAIL("the table needs decoders, sources, neutral and "
		         "verified");
	decoder_count = ds->u.arr.count;
	if (decoder_count > REPORT_DECODERS_MAX ||
	    (decoder_list = arena_calloc(&decoder_arena,
	         decoder_count > 0 ? decoder_count : 1,
	         sizeof(*decoder_list))) == NULL)
		DEC_FAIL("too many decoders, or out of memory");
	for (i = 0; i < decoder_count; i++) {
		struct dec_decoder *dd = &decoder_list[i];

		d = &ds->u.arr.items[i];
		if (d->type != JSON_T_OBJECT ||
		    (dd->id = dec_str(json_object_get(d, "id", 2))) == NULL ||
		    (dd->name = dec_str(json_object_get(d, "name", 4))) ==
		        NULL ||
		    dec_effect_of(
		        json_object_get(d, "others", 6), &dd->others) == -1 ||
		    (rules = json_object_get(d, "rules", 5)) == NULL ||
		    rules->type != JSON_T_ARRAY)
			DEC_FAIL(
			    "decoder %zu needs id, name, others, rules", i);
		dd->nrules = rules->u.arr.count;
		if ((dd->rules = arena_calloc(&decoder_arena,
		         dd->nrules > 0 ? dd->nrules : 1,
		         sizeof(*dd->rules))) == NULL)
			DEC_FAIL("out of memory");
		for (k = 0; k < dd->nrules; k++)
			if (dec_load_rule(sources, dd->id, k,
			        &rules->u.arr.items[k], &dd->rules[k]) == -1)
				return -1;
	}
	return 0;
}

int
decoder_load_text(const char *text, size_t len, char *msg, size_t msglen)
{
	const struct json_value *t;
	struct json_err jerr;

	decoder_unload();
	decoder_loaded = true;
	arena_init(&decoder_arena, (size_t)16 * 1024 * 1024);
	decoder_msg[0] = '\0';
	if (json_parse(text, len, &decoder_arena, 0, &t, &jerr) != JSON_OK) {
		snprintf(decoder_msg, sizeof(decoder_msg),
		    "decoder table: byte %zu: %s", jerr.offset, jerr.msg);
		decoder_rc = -1;
	} else {
		decoder_rc = dec_load_tree(t);
	}
	if (decoder_rc == -1)
		snprintf(msg, msglen, "decoder table: %s", decoder_msg);
	return decoder_rc;
}

int
decoder_load(char *msg, size_t msglen)
{
	if (decoder_loaded) {
		if (decoder_rc == -1)
			snprintf(msg, msglen, "decoder table: %s", decoder_msg);
		return decoder_rc;
	}
	return decoder_load_text(
	    decoder_table_text, decoder_table_len, msg, msglen);
}

void
decoder_unload(void)
{
	if (decoder_loaded)
		arena_free(&decoder_arena);
	decoder_loaded = false;
	decoder_list = NULL;
	decoder_count = 0;
	decoder_neutral = NULL;
	decoder_verified = NULL;
}

/* --- evaluation --------------------------------------------------------- */

static bool
dec_neutral(const char *kw, size_t len)
{
	size_t i;
	const struct json_value *e;

	for (i = 0; i < decoder_neutral->u.arr.count; i++) {
		e = &decoder_neutral->u.arr.items[i];
		if (e->type != JSON_T_STRING)
			continue;
		/* "x-*": a prefix */
		if (e->u.str.len > 0 && e->u.str.ptr[e->u.str.len - 1] == '*') {
			if (len >= e->u.str.len - 1 &&
			    memcmp(kw, e->u.str.ptr, e->u.str.len - 1) == 0)
				return true;
		} else if (dec_str_is(e, kw, len)) {
			return true;
		}
	}
	return false;
}

/* Does the schema src have one of the keywords listed in the array l? */
static bool
dec_has_any(const struct json_value *src, const struct json_value *l)
{
	size_t i;

	for (i = 0; i < l->u.arr.count; i++)
		if (l->u.arr.items[i].type == JSON_T_STRING &&
		    json_object_get(src, l->u.arr.items[i].u.str.ptr,
		        l->u.arr.items[i].u.str.len) != NULL)
			return true;
	return false;
}

static unsigned
dec_type_bits(const struct json_value *l)
{
	static const struct {
		const char *name;
		unsigned bits;
	} t[] = {
	    {"null", SV_TY_NULL},
	    {"boolean", SV_TY_BOOLEAN},
	    {"object", SV_TY_OBJECT},
	    {"array", SV_TY_ARRAY},
	    {"number", SV_TY_NUMBER},
	    {"string", SV_TY_STRING},
	    {"integer", SV_TY_INTEGER | SV_TY_NUMBER},
	};
	unsigned bits = 0;
	size_t i, k;

	for (i = 0; i < l->u.arr.count; i++)
		for (k = 0; k < GPT_ARRAY_LEN(t); k++)
			if (dec_str_is(&l->u.arr.items[i], t[k].name,
			        strlen(t[k].name)))
				bits |= t[k].bits;
	return bits;
}

/* The rule's number member name, or -1 when absent. */
static double
dec_num(const struct json_value *rule, const char *name)
{
	const struct json_value *v = json_object_get(rule, name, strlen(name));

	if (v == NULL || v->type != JSON_T_NUMBER || !v->u.num.is_small_int)
		return -1;
	return (double)v->u.num.i;
}

/*
 * Do the conditions of rule hold for keyword value kv (NULL for a fact)
 * of the schema v (src its value), count the fact's count?
 */
static bool
dec_holds(const struct json_value *rule, const struct schema_view *v,
    const struct json_value *kv, bool root, size_t count)
{
	const struct json_value *c, *src = v->src, *x;
	size_t i;
	double lim;

	if ((c = json_object_get(rule, "with", 4)) != NULL &&
	    (c->type != JSON_T_ARRAY || src == NULL || !dec_has_any(src, c)))
		return false;
	if ((c = json_object_get(rule, "without", 7)) != NULL &&
	    c->type == JSON_T_ARRAY && src != NULL && dec_has_any(src, c))
		return false;
	if ((c = json_object_get(rule, "where", 5)) != NULL &&
	    dec_str_is(c, "root", 4) != root)
		return false;
	if ((c = json_object_get(rule, "types", 5)) != NULL &&
	    (c->type != JSON_T_ARRAY || (v->types & dec_type_bits(c)) == 0))
		return false;
	if ((c = json_object_get(rule, "formats", 7)) != NULL) {
		/* applies to a format outside the list */
		if (kv == NULL || kv->type != JSON_T_STRING ||
		    c->type != JSON_T_ARRAY)
			return false;
		for (i = 0; i < c->u.arr.count; i++)
			if (dec_str_is(&c->u.arr.items[i], kv->u.str.ptr,
			        kv->u.str.len))
				return false;
	}
	if ((lim = dec_num(rule, "min_items")) >= 0 &&
	    (kv == NULL || kv->type != JSON_T_ARRAY ||
	        (double)kv->u.arr.count < lim))
		return false;
	if ((lim = dec_num(rule, "value_max")) >= 0 &&
	    (kv == NULL || kv->type != JSON_T_NUMBER ||
	        !kv->u.num.is_small_int || (double)kv->u.num.i > lim))
		return false;
	if ((c = json_object_get(rule, "not_false", 9)) != NULL &&
	    c->type == JSON_T_STRING && src != NULL &&
	    (x = json_object_get(src, c->u.str.ptr, c->u.str.len)) != NULL &&
	    x->type == JSON_T_FALSE)
		return false;
	if ((lim = dec_num(rule, "max")) >= 0 && (double)count <= lim)
		return false;
	return true;
}

/* The first rule of d for kw (len bytes) that holds; NULL when none. */
static const struct dec_rule *
dec_match(const struct dec_decoder *d, const char *kw, size_t len,
    const struct schema_view *v, const struct json_value *kv, bool root,
    size_t count)
{
	size_t i;

	for (i = 0; i < d->nrules; i++)
		if (d->rules[i].kwlen == len &&
		    memcmp(d->rules[i].keyword, kw, len) == 0 &&
		    dec_holds(d->rules[i].rule, v, kv, root, count))
			return &d->rules[i];
	return NULL;
}

static void
dec_site(struct report *r, struct report_decoder *rd, enum dec_effect e,
    const char *ptr, const char *kw, size_t len)
{
	char name[80];
	size_t n = len < sizeof(name) - 1 ? len : sizeof(name) - 1, i;

	if (e != DEC_REFUSE && e != DEC_IGNORE)
		return;
	for (i = 0; i < n; i++)
		name[i] = (unsigned char)kw[i] < 0x20 ? '?' : kw[i];
	name[n] = '\0';
	report_decoder_site(r, rd, e == DEC_REFUSE, ptr, name);
}

/* Judge one schema of the form for decoder d. */
static void
dec_node(const struct lint_facts *f, const struct lint_node *ln,
    const struct dec_decoder *d, struct report *r, struct report_decoder *rd)
{
	const struct dec_rule *m;
	const struct json_member *mem;
	struct schema_view v;
	char ptr[1024];
	bool root = (ln->facts & LINT_F_ROOT) != 0;
	size_t i, n;
	enum dec_effect e;

	schema_view_get(ln->n, &v);
	n = v.pointer_len < sizeof(ptr) - 1 ? v.pointer_len : sizeof(ptr) - 1;
	for (i = 0; i < n; i++)
		ptr[i] = v.pointer[i] == '\0' ? '?' : v.pointer[i];
	ptr[n] = '\0';
	if (v.src != NULL && v.src->type == JSON_T_OBJECT)
		for (i = 0; i < v.src->u.obj.count; i++) {
			mem = &v.src->u.obj.members[i];
			m = dec_match(d, mem->key.ptr, mem->key.len, &v,
			    &mem->value, root, 0);
			if (m != NULL)
				e = m->effect;
			else if (dec_neutral(mem->key.ptr, mem->key.len))
				continue;
			else
				e = d->others;
			dec_site(r, rd, e, ptr, mem->key.ptr, mem->key.len);
		}
	for (i = 0; i < GPT_ARRAY_LEN(decoder_facts); i++) {
		if (decoder_facts[i].bit != 0 &&
		    !(ln->facts & decoder_facts[i].bit))
			continue;
		m = dec_match(d, decoder_facts[i].name,
		    strlen(decoder_facts[i].name), &v, NULL, root, 0);
		if (m != NULL)
			dec_site(r, rd, m->effect, ptr,
			    decoder_facts[i].keyword,
			    strlen(decoder_facts[i].keyword));
	}
	if ((m = dec_match(d, "@nesting", 8, &v, NULL, root, ln->depth)) !=
	    NULL)
		dec_site(r, rd, m->effect, ptr, "properties", 10);
	if ((m = dec_match(
	         d, "@enum-values", 12, &v, NULL, root, ln->nenums)) != NULL)
		dec_site(r, rd, m->effect, ptr, "enum", 4);
	(void)f;
}

int
decoder_report(const struct lint_facts *f, struct report *r)
{
	const struct dec_decoder *d;
	struct report_decoder *rd;
	const struct dec_rule *m;
	struct schema_view v;
	char msg[256];
	size_t i, k;

	if (decoder_load(msg, sizeof(msg)) == -1)
		return -1;
	memset(&v, 0, sizeof(v));
	v.types = SV_TY_ALL;
	for (i = 0; i < decoder_count; i++) {
		d = &decoder_list[i];
		if ((rd = report_decoder(
		         r, d->id, d->name, decoder_verified)) == NULL)
			return -1;
		for (k = 0; k < f->count; k++)
			dec_node(f, &f->nodes[k], d, r, rd);
		/* the form's totals, at the root */
		if ((m = dec_match(d, "@properties", 11, &v, NULL, true,
		         f->properties)) != NULL)
			dec_site(r, rd, m->effect, "", "properties", 10);
		if ((m = dec_match(d, "@optional-members", 17, &v, NULL, true,
		         f->optional_members)) != NULL)
			dec_site(r, rd, m->effect, "", "required", 8);
	}
	return 0;
}
