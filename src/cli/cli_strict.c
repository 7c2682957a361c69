/*
 * cli_strict.c: `gpt.fcgi --strict-openai SCHEMA`: the form rewritten for
 * OpenAI's Structured Outputs strict mode, when that is possible without
 * changing what the form accepts; otherwise every keyword that prevents
 * it, with its schema pointer.
 *
 * What OpenAI's strict mode takes is data, the openai-strict rules of
 * schemas/decoders.json (decoder.h), the same table --check reports from:
 * a keyword the table says it enforces is carried over, one it refuses
 * (or does not document) is an obstacle.  The rest is structure the
 * table's rules cannot say, from OpenAI's "Supported schemas": the root
 * is an object, every object has additionalProperties false and lists
 * every property in required, at most 5000 properties, 10 levels of
 * nesting, 1000 enum values and 120,000 characters of names and values.
 *
 * Everything about the form is read from its compiled view: the dialect
 * each schema was compiled in (never guessed from text), whether a oneOf's
 * branches are disjoint (schema_facts.h, as --check says), the keywords
 * the view does not describe (an obstacle: nothing is known of them).
 *
 * Rewrites that keep the accepted set: annotations dropped (the
 * registry's, and x-*) unless the table says the model reads them
 * (title, description); oneOf becomes anyOf when its branches are
 * provably disjoint; an allOf of one branch beside nothing else becomes
 * that branch; draft-04's boolean exclusiveMinimum/Maximum become the
 * numeric form, and the rewrite then says draft-06 in $schema (whose
 * bounds are numbers, and which reads the other keywords kept alike); a
 * root that is only a $ref to an object definition is replaced by the
 * definition.  $schema is kept, so the rewrite loads in the form's
 * dialect.  Nothing is added or tightened: an optional member, an open
 * object or a missing type is reported, since fixing it would change the
 * form.
 *
 * Exit 0: the rewrite on stdout (each rewrite noted on stderr); 1: the
 * form cannot be sent in strict mode, one line per obstacle on stderr
 * ("at POINTER: KEYWORD: reason; fix: what to change"); 2: usage, or the form
 * does not load.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/sort.h"
#include "cli/cli.h"
#include "cli/cli_form.h"
#include "tools/decoder.h"
#include "parser/jptr.h"
#include "parser/json.h"
#include "parser/json_out.h"
#include "schema/schema.h"
#include "schema/schema_dialect.h"
#include "schema/schema_facts.h"
#include "schema/schema_view.h"

#define STRICT_PROBLEMS_MAX 64
#define STRICT_MAX_DEPTH 10 /* levels of nested objects */
#define STRICT_MAX_PROPS 5000
#define STRICT_MAX_ENUM 1000
#define STRICT_MAX_CHARS 120000

/* The decoder of schemas/decoders.json whose rules strict mode follows. */
#define STRICT_DECODER "openai-strict"

struct strict {
	struct cli_form *f;
	const struct json_value *root;
	enum schema_dialect d; /* the schema being walked was compiled in */
	/* the root's node, when inline_root replaced the root by a copy */
	const struct schema_node *root_node;
	struct buf out;
	struct buf notes; /* the rewrites, for stderr */
	struct jptr ptr;
	size_t nproblems, nprops, nchars;
	struct json_out w; /* its nomem: any allocation refused */
	/* the compiled nodes and their source values by dense node id
	 * (schema_view_each's order), and those ids ordered by source
	 * address (stable: the lowest id first among equal sources), so
	 * that a schema value finds its node by binary search */
	const struct schema_node **nodes;
	const struct json_value **srcs;
	uint32_t *by_src;
	size_t nnodes;
};

static bool
key_is(const struct json_string *k, const char *s)
{
	return k->len == strlen(s) && memcmp(k->ptr, s, k->len) == 0;
}

/* Is k the keyword kw's name? */
static bool
key_is_kw(const struct json_string *k, enum kw kw)
{
	return key_is(k, schema_kw_name(kw));
}

/* The member kw of the schema object v, or NULL. */
static const struct json_value *
get_kw(const struct json_value *v, enum kw kw)
{
	const char *name = schema_kw_name(kw);

	return json_object_get(v, name, strlen(name));
}

/* One obstacle on stderr: where, the keyword, why, and its fix. */
static void
problem_kw(struct strict *s, const char *keyword, size_t len, const char *why,
    const char *fix)
{
	size_t i;

	if (s->nproblems++ >= STRICT_PROBLEMS_MAX)
		return;
	fputs("gpt.fcgi: not for OpenAI strict mode: at ", stderr);
	cli_form_put_where(&s->ptr);
	fputs(": ", stderr);
	for (i = 0; i < len && i < 64; i++)
		fputc(gpt_is_control((unsigned char)keyword[i]) ? '?'
		                                                : keyword[i],
		    stderr);
	fprintf(stderr, ": %s; fix: %s\n", why, fix);
}

static void
problem(struct strict *s, const char *keyword, const char *why, const char *fix)
{
	problem_kw(s, keyword, strlen(keyword), why, fix);
}

/* A rewrite made, told on stderr once the form qualifies. */
static void
note(struct strict *s, const char *what)
{
	size_t i;

	if (buf_puts(&s->notes, "gpt.fcgi: strict rewrite at ") == -1)
		return;
	for (i = 0; i < s->ptr.len; i++)
		if (buf_putc(
		        &s->notes, gpt_is_control((unsigned char)s->ptr.buf[i])
		                       ? '?'
		                       : s->ptr.buf[i]) == -1)
			return;
	if (buf_printf(&s->notes, "%s: %s\n", s->ptr.len == 0 ? "the root" : "",
	        what) == -1)
		return;
}

static void
put_member(struct strict *s, size_t *n, const struct json_string *k)
{
	if ((*n)++ > 0)
		json_out_put(&s->w, ",", 1);
	json_out_key(&s->w, k);
}

/* The compiled node whose source is v (the first compiled from it), or
 * NULL. */
static const struct schema_node *
node_of(const struct strict *s, const struct json_value *v)
{
	uintptr_t key = (uintptr_t)v;
	size_t lo = 0, hi = s->nnodes, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if ((uintptr_t)s->srcs[s->by_src[mid]] < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < s->nnodes && s->srcs[s->by_src[lo]] == v)
		return s->nodes[s->by_src[lo]];
	return NULL;
}

static int
by_src_cmp(const void *ctx, uint32_t a, uint32_t b)
{
	const struct strict *s = ctx;
	uintptr_t x = (uintptr_t)s->srcs[a], y = (uintptr_t)s->srcs[b];

	return x < y ? -1 : x > y;
}

/* s->by_src from the collected nodes.  0, or -1 (no memory). */
static int
index_nodes(struct strict *s)
{
	uint32_t *tmp;
	size_t i;

	if (s->nnodes > UINT32_MAX ||
	    (s->by_src = calloc(s->nnodes + 1, sizeof(*s->by_src))) == NULL ||
	    (tmp = calloc(s->nnodes + 1, sizeof(*tmp))) == NULL)
		return -1;
	for (i = 0; i < s->nnodes; i++)
		s->by_src[i] = (uint32_t)i;
	sort_positions(s->by_src, tmp, s->nnodes, by_src_cmp, s);
	free(tmp);
	return 0;
}

struct strict_collect {
	struct strict *s;
	size_t cap;
};

static int
collect_node(void *ctx, const struct schema_node *n)
{
	struct strict_collect *c = ctx;
	struct strict *s = c->s;
	struct schema_view v;

	if (s->nnodes == c->cap) {
		size_t ncap = c->cap == 0 ? 64 : c->cap * 2;
		const struct schema_node **nn =
		    realloc(s->nodes, ncap * sizeof(*nn));
		const struct json_value **ns;

		if (nn == NULL)
			return -1;
		s->nodes = nn;
		if ((ns = realloc(s->srcs, ncap * sizeof(*ns))) == NULL)
			return -1;
		s->srcs = ns;
		c->cap = ncap;
	}
	schema_view_get(n, &v);
	s->nodes[s->nnodes] = n;
	s->srcs[s->nnodes] = v.src;
	s->nnodes++;
	return 0;
}

/* ----- the walk ---------------------------------------------------------- */

static void walk(struct strict *s, const struct json_value *v, unsigned objects,
    bool is_root);

static void
walk_sub(struct strict *s, const char *kw, const struct json_value *v,
    unsigned objects)
{
	size_t save = jptr_push(&s->ptr, kw, strlen(kw));

	walk(s, v, objects, false);
	jptr_pop(&s->ptr, save);
}

static void
walk_map(struct strict *s, const struct json_string *kw,
    const struct json_value *v, unsigned objects)
{
	size_t i, n = 0, save = jptr_push(&s->ptr, kw->ptr, kw->len);

	json_out_put(&s->w, "{", 1);
	for (i = 0; i < v->u.obj.count; i++) {
		const struct json_member *m = &v->u.obj.members[i];
		size_t s2 = jptr_push(&s->ptr, m->key.ptr, m->key.len);

		put_member(s, &n, &m->key);
		s->nchars += m->key.len;
		walk(s, &m->value, objects, false);
		jptr_pop(&s->ptr, s2);
	}
	json_out_put(&s->w, "}", 1);
	jptr_pop(&s->ptr, save);
}

static void
walk_list(struct strict *s, const char *kw, const struct json_value *v,
    unsigned objects)
{
	size_t i, save = jptr_push(&s->ptr, kw, strlen(kw));

	json_out_put(&s->w, "[", 1);
	for (i = 0; i < v->u.arr.count; i++) {
		size_t s2 = jptr_push_index(&s->ptr, i);

		if (i > 0)
			json_out_put(&s->w, ",", 1);
		walk(s, &v->u.arr.items[i], objects, false);
		jptr_pop(&s->ptr, s2);
	}
	json_out_put(&s->w, "]", 1);
	jptr_pop(&s->ptr, save);
}

/* The effect of keyword k (value kv) of the schema v for strict mode;
 * a table that does not load refuses everything. */
static enum decoder_effect
effect(const struct schema_view *v, const struct json_string *k,
    const struct json_value *kv, bool root)
{
	enum decoder_effect e;

	if (decoder_effect(STRICT_DECODER, v, k->ptr, k->len, kv, root, &e) ==
	    -1)
		return DECODER_REFUSE;
	return e;
}

static enum decoder_effect
effect_kw(const struct schema_view *v, enum kw kw, bool root)
{
	const char *name = schema_kw_name(kw);
	struct json_string k = {name, strlen(name), strlen(name)};

	return effect(v, &k, NULL, root);
}

/* The strings and enum values of v count towards the size limit. */
static void
count_chars(struct strict *s, const struct json_value *v)
{
	size_t i;

	if (v->type == JSON_T_STRING)
		s->nchars += v->u.str.cps;
	else if (v->type == JSON_T_ARRAY)
		for (i = 0; i < v->u.arr.count; i++)
			count_chars(s, &v->u.arr.items[i]);
	else if (v->type == JSON_T_OBJECT)
		for (i = 0; i < v->u.obj.count; i++) {
			s->nchars += v->u.obj.members[i].key.cps;
			count_chars(s, &v->u.obj.members[i].value);
		}
}

/* d's meta-schema URI, as a JSON string. */
static void
put_uri(struct strict *s, enum schema_dialect d)
{
	const char *uri = schema_dialect_uri(d);

	json_out_string(&s->w, uri, strlen(uri));
}

/* draft-04's {"minimum": 0, "exclusiveMinimum": true}: is bound (KW_MINIMUM
 * or KW_MAXIMUM) of v written as the exclusive one instead? */
static bool
draft4_exclusive(const struct json_value *v, enum kw bound)
{
	const struct json_value *x =
	    get_kw(v, bound == KW_MINIMUM ? KW_XMIN_BOOL : KW_XMAX_BOOL);

	return x != NULL && x->type == JSON_T_TRUE;
}

/* One member k (value mv) of the schema object v, whose view is view. */
static void
walk_member(struct strict *s, const struct json_value *v,
    const struct schema_view *view, const struct json_member *m,
    unsigned objects, bool is_root, size_t *n)
{
	const struct json_string *k = &m->key;
	const struct schema_kw_info *row = schema_kw_find(s->d, k->ptr, k->len);
	int kw = row != NULL ? (int)row->kw : -1;
	bool draft4 = s->d == SCHEMA_D_DRAFT04;
	size_t save = jptr_push(&s->ptr, k->ptr, k->len);
	enum decoder_effect e;

	if (kw == KW_SCHEMA) {
		put_member(s, n, k);
		if (draft4) {
			/* the bounds below are written as numbers */
			put_uri(s, SCHEMA_D_DRAFT06);
			note(s, "draft-04's boolean bounds become numbers: "
			        "$schema says draft-06");
		} else {
			json_out_value(&s->w, &m->value);
		}
	} else if (is_root && (kw == KW_ID || kw == KW_ID_OLD)) {
		note(s, "an annotation, dropped");
	} else if (kw >= 0 && !schema_view_describes((enum kw)kw)) {
		problem_kw(s, k->ptr, k->len,
		    "a keyword the tools do not describe (nothing is known "
		    "of what it accepts)",
		    "send the form without strict mode (gpt.fcgi enforces the "
		    "keyword either way)");
	} else if (draft4 && (kw == KW_XMIN_BOOL || kw == KW_XMAX_BOOL)) {
		/* {"minimum": 0, "exclusiveMinimum": true} */
		const struct json_value *b =
		    get_kw(v, kw == KW_XMIN_BOOL ? KW_MINIMUM : KW_MAXIMUM);

		if (m->value.type == JSON_T_TRUE && b != NULL) {
			note(s, "draft-04's boolean form: the bound");
			put_member(s, n, k);
			json_out_value(&s->w, b);
		}
	} else if (draft4 && (kw == KW_MINIMUM || kw == KW_MAXIMUM) &&
	           draft4_exclusive(v, (enum kw)kw)) {
		; /* written as the exclusive bound instead */
	} else if ((e = effect(view, k, &m->value, false)) != DECODER_ENFORCE &&
	           (row != NULL ? row->role == SCHEMA_KR_ANNOTATE ||
	                              kw == KW_VOCABULARY
	                        : k->len > 2 && memcmp(k->ptr, "x-", 2) == 0)) {
		/* an annotation (title, default, x-*), or what the meta-schema
		 * says: nothing the form accepts depends on it.  A name the
		 * address declares (annotations =) is no keyword strict mode
		 * knows: an obstacle below. */
		note(s, "an annotation, dropped");
	} else if (kw == KW_ONEOF && e != DECODER_ENFORCE) {
		char why[128];
		const struct schema_node *node = node_of(s, v);

		if (m->value.type == JSON_T_ARRAY && node != NULL &&
		    effect_kw(view, KW_ANYOF, false) == DECODER_ENFORCE &&
		    schema_facts_oneof_disjoint(node, why, sizeof(why))) {
			const char *any = schema_kw_name(KW_ANYOF);
			struct json_string ks = {any, strlen(any), strlen(any)};

			note(s, "oneOf of disjoint branches: anyOf");
			jptr_pop(&s->ptr, save);
			put_member(s, n, &ks);
			walk_list(
			    s, schema_kw_name(KW_ONEOF), &m->value, objects);
			return;
		}
		problem(s, schema_kw_name(KW_ONEOF),
		    "refused by strict mode, and the branches are not "
		    "provably disjoint (anyOf would accept a value that "
		    "matches two)",
		    "tell the branches apart (a const or enum member that "
		    "each has alone) so that oneOf becomes anyOf, or send "
		    "the form without strict mode");
	} else if (e != DECODER_ENFORCE) {
		if (kw == KW_FORMAT && e == DECODER_REFUSE)
			problem(s, schema_kw_name(KW_FORMAT),
			    "a format strict mode does not know "
			    "(dropping it would accept more)",
			    "replace it with a pattern that says the same, or "
			    "send the form without strict mode");
		else
			problem_kw(s, k->ptr, k->len,
			    "not supported by strict mode",
			    "drop it if the form can do without it (gpt.fcgi "
			    "enforces it either way), or send the form without "
			    "strict mode");
	} else if (kw == KW_PROPERTIES || kw == KW_DEFS ||
	           kw == KW_DEFINITIONS) {
		jptr_pop(&s->ptr, save);
		put_member(s, n, k);
		if (m->value.type == JSON_T_OBJECT)
			walk_map(
			    s, k, &m->value, kw == KW_PROPERTIES ? objects : 0);
		else
			json_out_value(&s->w, &m->value);
		return;
	} else if (kw == KW_ITEMS || kw == KW_ITEMS_OLD) {
		jptr_pop(&s->ptr, save);
		put_member(s, n, k);
		if (m->value.type == JSON_T_ARRAY) {
			save = jptr_push(&s->ptr, k->ptr, k->len);
			problem(s, schema_kw_name(KW_ITEMS),
			    "an array of schemas "
			    "(tuples are not supported)",
			    "use one items schema for every item, or an object "
			    "with a member for each position");
			jptr_pop(&s->ptr, save);
			json_out_value(&s->w, &m->value);
		} else {
			walk_sub(
			    s, schema_kw_name(KW_ITEMS), &m->value, objects);
		}
		return;
	} else if (kw == KW_ANYOF) {
		jptr_pop(&s->ptr, save);
		put_member(s, n, k);
		if (m->value.type == JSON_T_ARRAY)
			walk_list(
			    s, schema_kw_name(KW_ANYOF), &m->value, objects);
		else
			json_out_value(&s->w, &m->value);
		return;
	} else {
		if (kw == KW_ADDITIONALPROPERTIES &&
		    m->value.type != JSON_T_FALSE)
			problem(s, schema_kw_name(KW_ADDITIONALPROPERTIES),
			    "must be false",
			    "write \"additionalProperties\": false (the form "
			    "then refuses members it does not name)");
		if (kw == KW_ENUM && m->value.type == JSON_T_ARRAY &&
		    m->value.u.arr.count > STRICT_MAX_ENUM)
			problem(s, schema_kw_name(KW_ENUM),
			    "more than 1000 values",
			    "split the choice in two members, or accept a "
			    "string with a pattern");
		if (kw == KW_ENUM || kw == KW_CONST)
			count_chars(s, &m->value);
		put_member(s, n, k);
		json_out_value(&s->w, &m->value);
	}
	jptr_pop(&s->ptr, save);
}

/* The object schema v's members as strict mode takes them: the checks
 * of an object schema (properties all required, closed). */
static void
check_object(struct strict *s, const struct schema_node *node,
    const struct schema_view *view, const struct json_value *v,
    unsigned objects)
{
	const struct json_value *add = get_kw(v, KW_ADDITIONALPROPERTIES);
	struct schema_view_prop p;
	size_t i;

	if (objects + 1 > STRICT_MAX_DEPTH)
		problem(s, schema_kw_name(KW_PROPERTIES),
		    "more than 10 levels of nested objects",
		    "flatten the form to 10 levels (for recursion, gpt.fcgi "
		    "--unroll with fewer levels)");
	if (add == NULL || add->type != JSON_T_FALSE)
		problem(s, schema_kw_name(KW_ADDITIONALPROPERTIES),
		    "must be false (adding it would refuse members "
		    "the form accepts)",
		    "add \"additionalProperties\": false to this object, "
		    "if refusing other members is what you mean");
	if (get_kw(v, KW_PROPERTIES) == NULL &&
	    (add == NULL || add->type != JSON_T_FALSE))
		problem(s, schema_kw_name(KW_PROPERTIES),
		    "an object without properties",
		    "name its members under properties, or make it an "
		    "array of {key, value} objects");
	for (i = 0; node != NULL && i < view->nprops; i++) {
		schema_view_prop(node, i, &p);
		if (p.src == NULL) {
			/* named by required only */
			problem(s, schema_kw_name(KW_REQUIRED),
			    "names a member properties does not define",
			    "define the member under properties, or take it "
			    "out of required");
			continue;
		}
		s->nprops++;
		if (!p.required) {
			size_t save =
			    jptr_push(&s->ptr, schema_kw_name(KW_PROPERTIES),
			        strlen(schema_kw_name(KW_PROPERTIES)));

			jptr_push(&s->ptr, p.name, p.len);
			problem(s, schema_kw_name(KW_REQUIRED),
			    "an optional member (strict mode wants "
			    "every property required; required and "
			    "nullable would accept another set)",
			    "make it required, with \"null\" among its types "
			    "if it may be left out (clients then send null "
			    "instead of omitting it)");
			jptr_pop(&s->ptr, save);
		}
	}
}

static void
walk(struct strict *s, const struct json_value *v, unsigned objects,
    bool is_root)
{
	const struct json_value *all, *ref;
	const struct schema_node *node;
	struct schema_view view;
	enum schema_dialect saved = s->d;
	size_t i, n = 0;

	if (v->type != JSON_T_OBJECT) {
		/* true or false as a subschema: {} is not allowed, false has
		 * no spelling */
		problem(s, v->type == JSON_T_TRUE ? "true" : "false",
		    "a boolean schema (strict mode wants a typed schema)",
		    "write a typed schema for true, and leave the member "
		    "out for false");
		json_out_value(&s->w, v);
		return;
	}
	node = is_root && s->root_node != NULL ? s->root_node : node_of(s, v);
	if (node == NULL) {
		/* a schema the compiler never reached (under a keyword of a
		 * vocabulary the meta-schema leaves out): nothing is known */
		problem(s, schema_kw_name(KW_TYPE),
		    "a schema the form does not apply (strict mode would)",
		    "remove the schema the form does not apply");
		json_out_value(&s->w, v);
		return;
	}
	schema_view_get(node, &view);
	if (view.dialect >= 0)
		s->d = (enum schema_dialect)view.dialect;
	all = get_kw(v, KW_ALLOF);
	ref = get_kw(v, KW_REF);

	/* {"allOf": [X], "description": ...}: X itself */
	if (all != NULL && all->type == JSON_T_ARRAY && all->u.arr.count == 1 &&
	    !is_root) {
		bool alone = true;

		for (i = 0; i < v->u.obj.count; i++) {
			const struct json_string *k = &v->u.obj.members[i].key;
			const struct schema_kw_info *row =
			    schema_kw_find(s->d, k->ptr, k->len);

			if (row != NULL && row->kw != KW_ALLOF &&
			    row->role != SCHEMA_KR_ANNOTATE &&
			    row->kw != KW_SCHEMA && row->kw != KW_VOCABULARY)
				alone = false;
		}
		if (alone) {
			size_t save =
			    jptr_push(&s->ptr, schema_kw_name(KW_ALLOF),
			        strlen(schema_kw_name(KW_ALLOF)));

			jptr_push_index(&s->ptr, 0);
			note(s, "an allOf of one schema is that schema");
			walk(s, &all->u.arr.items[0], objects, false);
			jptr_pop(&s->ptr, save);
			s->d = saved;
			return;
		}
	}
	/* draft-07 and before: the siblings of $ref are ignored */
	if (ref != NULL && s->d <= SCHEMA_D_DRAFT07) {
		json_out_put(&s->w, "{", 1);
		for (i = 0; i < v->u.obj.count; i++) {
			const struct json_member *m = &v->u.obj.members[i];

			if (key_is_kw(&m->key, KW_REF) ||
			    key_is_kw(&m->key, KW_DESCRIPTION) ||
			    key_is_kw(&m->key, KW_TITLE)) {
				put_member(s, &n, &m->key);
				json_out_value(&s->w, &m->value);
			}
		}
		json_out_put(&s->w, "}", 1);
		if (v->u.obj.count > n)
			note(s, "the keywords beside $ref, which this dialect "
			        "ignores, are dropped");
		s->d = saved;
		return;
	}
	if (!view.typed && view.ref == NULL && view.dyn == SV_DYN_NONE &&
	    view.nany_of == 0 && view.none_of == 0 && view.nenums == 0 &&
	    view.const_value == NULL)
		problem(s, schema_kw_name(KW_TYPE),
		    "missing (strict mode has no schema for "
		    "any value)",
		    "add the type (or types) the member takes");
	if (is_root && !(view.typed && (view.types & SV_TY_OBJECT)))
		problem(s, schema_kw_name(KW_TYPE),
		    "the root must be an object",
		    "wrap the value in an object with one required member "
		    "(additionalProperties false) holding it");
	if (is_root && view.nany_of > 0 &&
	    effect_kw(&view, KW_ANYOF, true) != DECODER_ENFORCE)
		problem(s, schema_kw_name(KW_ANYOF), "not allowed at the root",
		    "move the anyOf under a required member of a root "
		    "object");
	if (view.typed && (view.types & SV_TY_OBJECT)) {
		check_object(s, node, &view, v, objects);
		objects++;
	}
	json_out_put(&s->w, "{", 1);
	/* a draft-04 form without $schema: its rewrite says draft-06 */
	if (is_root && s->d == SCHEMA_D_DRAFT04 &&
	    get_kw(v, KW_SCHEMA) == NULL) {
		const char *name = schema_kw_name(KW_SCHEMA);
		struct json_string sk = {name, strlen(name), strlen(name)};

		put_member(s, &n, &sk);
		put_uri(s, SCHEMA_D_DRAFT06);
		note(s, "draft-04's boolean bounds become numbers: $schema "
		        "says draft-06");
	}
	for (i = 0; i < v->u.obj.count; i++)
		walk_member(
		    s, v, &view, &v->u.obj.members[i], objects, is_root, &n);
	json_out_put(&s->w, "}", 1);
	s->d = saved;
}

/* A root that is only {"$ref": "#/$defs/x", "$defs": ...}: the target,
 * with the root's definitions beside it. */
static const struct json_value *
inline_root(struct strict *s, struct arena *a)
{
	static const enum kw beside[] = {KW_REF, KW_DEFS, KW_DEFINITIONS,
	    KW_SCHEMA, KW_TITLE, KW_DESCRIPTION, KW_COMMENT};
	const struct json_value *root = s->root, *ref, *t;
	const struct schema_node *rn = node_of(s, root);
	struct schema_view rv, tv;
	struct json_value *copy;
	struct json_member *ms;
	size_t i, j, n = 0;

	if (rn == NULL)
		return root;
	schema_view_get(rn, &rv);
	if (rv.typed || rv.ref == NULL || rv.dyn != SV_DYN_NONE ||
	    (ref = get_kw(root, KW_REF)) == NULL ||
	    ref->type != JSON_T_STRING || ref->u.str.len < 2 ||
	    ref->u.str.ptr[0] != '#')
		return root;
	schema_view_get(rv.ref, &tv);
	if ((t = tv.src) == NULL || t->type != JSON_T_OBJECT || t == root)
		return root;
	for (i = 0; i < root->u.obj.count; i++) {
		const struct json_string *k = &root->u.obj.members[i].key;
		bool ok = false;

		for (j = 0; j < GPT_ARRAY_LEN(beside); j++)
			ok = ok || key_is_kw(k, beside[j]);
		if (!ok)
			return root; /* more than a reference */
	}
	copy = arena_calloc(a, 1, sizeof(*copy));
	ms = arena_calloc(
	    a, t->u.obj.count + root->u.obj.count + 1, sizeof(*ms));
	if (copy == NULL || ms == NULL)
		return root;
	for (i = 0; i < t->u.obj.count; i++)
		if (!key_is_kw(&t->u.obj.members[i].key, KW_DEFS) &&
		    !key_is_kw(&t->u.obj.members[i].key, KW_DEFINITIONS))
			ms[n++] = t->u.obj.members[i];
	for (i = 0; i < root->u.obj.count; i++)
		if (key_is_kw(&root->u.obj.members[i].key, KW_DEFS) ||
		    key_is_kw(&root->u.obj.members[i].key, KW_DEFINITIONS) ||
		    key_is_kw(&root->u.obj.members[i].key, KW_SCHEMA))
			ms[n++] = root->u.obj.members[i];
	copy->type = JSON_T_OBJECT;
	copy->u.obj.members = ms;
	copy->u.obj.count = n;
	copy->u.obj.index = NULL;
	s->root_node = rv.ref;
	note(s, "a root that only refers to a definition: the definition");
	return copy;
}

int
cli_strict_openai(int argc, char **argv)
{
	struct cli_form f;
	struct strict s;
	struct strict_collect col;
	const struct json_value *res, *root;
	struct schema_view rv;
	const struct schema *out;
	struct json_err jerr;
	char reason[SCHEMA_REASON_MAX + JPTR_MAX + 32];
	int i = 1, status = 2;

	cli_form_init(&f);
	memset(&s, 0, sizeof(s));
	buf_init(&s.out, CLI_INPUT_MAX);
	s.w.out = &s.out;
	buf_init(&s.notes, 65536);
	if (cli_form_opt(&f, argc, argv, &i) == -1)
		goto done;
	if (argc - i != 1 || strncmp(argv[i], "--", 2) == 0) {
		fputs("usage: gpt.fcgi --strict-openai " CLI_FORM_OPTS_USAGE
		      " DIR-or-SCHEMA.json\n",
		    stderr);
		goto done;
	}
	if (cli_form_load(&f, argv[i]) == -1)
		goto done;
	s.f = &f;
	s.root = f.schema;
	col.s = &s;
	col.cap = 0;
	if (schema_view_each(f.form, collect_node, &col) != 0 ||
	    index_nodes(&s) == -1) {
		fprintf(stderr, "gpt.fcgi: out of memory\n");
		goto done;
	}
	/* the dialect the root was compiled in: its $schema, else the
	 * address's (--dialect), else 2020-12 */
	schema_view_get(schema_view_root(f.form), &rv);
	s.d = rv.dialect >= 0 ? (enum schema_dialect)rv.dialect
	                      : SCHEMA_D_DEFAULT;
	status = 1;
	root = inline_root(&s, &f.a);
	walk(&s, root, 0, true);
	if (s.nprops > STRICT_MAX_PROPS)
		problem(&s, schema_kw_name(KW_PROPERTIES),
		    "more than 5000 properties in all",
		    "split the form across several addresses");
	if (s.nchars > STRICT_MAX_CHARS)
		problem(&s, schema_kw_name(KW_ENUM),
		    "more than 120,000 characters of names and values",
		    "shorten member names and enum values, or split the form "
		    "across several addresses");
	if (s.w.nomem) {
		fprintf(stderr, "gpt.fcgi: out of memory\n");
		status = 2;
		goto done;
	}
	if (s.nproblems > 0) {
		if (s.nproblems > STRICT_PROBLEMS_MAX)
			fprintf(stderr, "gpt.fcgi: ... and %zu more\n",
			    s.nproblems - STRICT_PROBLEMS_MAX);
		fprintf(stderr,
		    "gpt.fcgi: %s: %zu obstacle%s to OpenAI strict "
		    "mode\n",
		    f.path, s.nproblems, s.nproblems == 1 ? "" : "s");
		goto done;
	}
	/* the rewrite must load, as it is what the model is held to */
	if (json_parse(buf_ptr(&s.out), buf_len(&s.out), &f.a, 0, &res,
	        &jerr) != JSON_OK ||
	    cli_form_compile(
	        &f, res, NULL, NULL, &out, reason, sizeof(reason)) == -1) {
		fprintf(stderr, "gpt.fcgi: %s: the rewrite does not load\n",
		    f.path);
		goto done;
	}
	if (buf_len(&s.notes) > 0)
		fwrite(buf_ptr(&s.notes), 1, buf_len(&s.notes), stderr);
	status = cli_form_print(res) == 0 ? 0 : 2;
done:
	buf_free(&s.notes);
	free(s.nodes);
	free(s.srcs);
	free(s.by_src);
	buf_free(&s.out);
	cli_form_free(&f);
	return status;
}
