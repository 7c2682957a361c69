/*
 * cli_strict.c: `gpt.fcgi --strict-openai SCHEMA`: the form rewritten for
 * OpenAI's Structured Outputs strict mode, when that is possible without
 * changing what the form accepts; otherwise every keyword that prevents
 * it, with its schema pointer.
 *
 * The rules are OpenAI's "Supported schemas" (platform.openai.com, guide
 * "Structured model outputs", read 2026-12): the root is an object, not
 * anyOf; every object has additionalProperties false and lists every
 * property in required; the keywords are type, properties, required,
 * additionalProperties, items, enum, const, anyOf, $ref and
 * $defs/definitions, title and description, and the type-specific ones:
 * pattern, format (date-time, time, date, duration, email, hostname,
 * ipv4, ipv6, uuid), minLength and maxLength (unsupported only for
 * fine-tuned models), minimum, maximum, exclusiveMinimum,
 * exclusiveMaximum, multipleOf, minItems, maxItems; at most 5000
 * properties, 10 levels of nesting, 1000 enum values and 120,000
 * characters of names and values; allOf, oneOf, not, if/then/else,
 * dependent*, patternProperties, propertyNames, min/maxProperties,
 * contains, uniqueItems, prefixItems and default are refused.
 *
 * Rewrites that keep the accepted set: annotations dropped ($schema,
 * $comment, default, examples, deprecated, readOnly, writeOnly, x-*);
 * oneOf becomes anyOf when its branches are provably disjoint (their
 * types do not overlap, or one required member has a const/enum that
 * differs in each); an allOf of one branch beside nothing else becomes
 * that branch; draft-04's boolean exclusiveMinimum/Maximum become the
 * numeric form; a root that is only a $ref to an object definition is
 * replaced by the definition.  Nothing is added or tightened: an optional
 * member, an open object or a missing type is reported, since fixing it
 * would change the form.
 *
 * Exit 0: the rewrite on stdout (each rewrite noted on stderr); 1: the
 * form cannot be sent in strict mode, one line per obstacle on stderr
 * ("at POINTER: KEYWORD: reason"); 2: usage, or the form does not load.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "cli/cli.h"
#include "cli/cli_form.h"
#include "parser/jptr.h"
#include "parser/json.h"
#include "parser/json_out.h"
#include "schema/schema.h"
#include "schema/schema_view.h"

#define STRICT_PROBLEMS_MAX 64
#define STRICT_MAX_DEPTH 10 /* levels of nested objects */
#define STRICT_MAX_PROPS 5000
#define STRICT_MAX_ENUM 1000
#define STRICT_MAX_CHARS 120000

static const char *const strict_formats[] = {"date-time", "time", "date",
    "duration", "email", "hostname", "ipv4", "ipv6", "uuid"};

/* Keywords carried over as they are (their values checked elsewhere). */
static const char *const strict_kept[] = {"type", "properties", "required",
    "additionalProperties", "items", "enum", "const", "anyOf", "$ref", "$defs",
    "definitions", "title", "description", "pattern", "format", "minLength",
    "maxLength", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum",
    "multipleOf", "minItems", "maxItems"};

/* Annotations: dropped, which changes nothing the form accepts. */
static const char *const strict_dropped[] = {"$schema", "$comment", "default",
    "examples", "deprecated", "readOnly", "writeOnly", "$vocabulary"};

struct strict {
	struct cli_form *f;
	const struct json_value *root;
	bool old;    /* draft-04..07: $ref siblings are ignored */
	bool draft4; /* boolean exclusiveMinimum/Maximum */
	struct buf out;
	struct buf notes; /* the rewrites, for stderr */
	struct jptr ptr;
	size_t nproblems, nprops, nchars;
	struct json_out w; /* its nomem: any allocation refused */
	/* the compiled nodes by their source value, for the view */
	const struct schema_node **nodes;
	const struct json_value **srcs;
	size_t nnodes;
};

static bool
key_is(const struct json_string *k, const char *s)
{
	return k->len == strlen(s) && memcmp(k->ptr, s, k->len) == 0;
}

static bool
in_list(const struct json_string *k, const char *const *list, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (key_is(k, list[i]))
			return true;
	return false;
}

static void
problem_kw(struct strict *s, const char *keyword, size_t len, const char *why)
{
	size_t i;

	if (s->nproblems++ >= STRICT_PROBLEMS_MAX)
		return;
	fputs("gpt.fcgi: not for OpenAI strict mode: at ", stderr);
	cli_form_put_where(&s->ptr);
	fputs(": ", stderr);
	for (i = 0; i < len && i < 64; i++)
		fputc((unsigned char)keyword[i] < 0x20 ? '?' : keyword[i],
		    stderr);
	fprintf(stderr, ": %s\n", why);
}

static void
problem(struct strict *s, const char *keyword, const char *why)
{
	problem_kw(s, keyword, strlen(keyword), why);
}

/* A rewrite made, told on stderr once the form qualifies. */
static void
note(struct strict *s, const char *what)
{
	size_t i;

	if (buf_puts(&s->notes, "gpt.fcgi: strict rewrite at ") == -1)
		return;
	for (i = 0; i < s->ptr.len; i++)
		if (buf_putc(&s->notes, (unsigned char)s->ptr.buf[i] < 0x20
		                            ? '?'
		                            : s->ptr.buf[i]) == -1)
			return;
	if (buf_printf(&s->notes, "%s: %s\n",
	        s->ptr.len == 0 ? "(the root)" : "", what) == -1)
		return;
}

static void
put_member(struct strict *s, size_t *n, const struct json_string *k)
{
	if ((*n)++ > 0)
		json_out_put(&s->w, ",", 1);
	json_out_key(&s->w, k);
}

/* The compiled node whose source is v, or NULL. */
static const struct schema_node *
node_of(const struct strict *s, const struct json_value *v)
{
	size_t i;

	for (i = 0; i < s->nnodes; i++)
		if (s->srcs[i] == v)
			return s->nodes[i];
	return NULL;
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

/* ----- disjoint oneOf branches ------------------------------------------ */

/* The types a branch admits, integers counted with numbers. */
static unsigned
types_of(const struct schema_node *n)
{
	struct schema_view v;
	unsigned t;

	schema_view_get(n, &v);
	if (v.kind == SV_FALSE)
		return 0;
	if (v.kind == SV_TRUE || v.undescribed)
		return SV_TY_ALL;
	t = v.types;
	if (v.const_value != NULL || v.nenums > 0) {
		/* the types of the values listed, when there is no `type` */
		unsigned e = 0;
		size_t i;

		for (i = 0; i < v.nenums; i++) {
			const struct json_value *x = schema_view_enum(n, i);

			e |= x->type == JSON_T_NULL     ? SV_TY_NULL
			     : x->type == JSON_T_STRING ? SV_TY_STRING
			     : x->type == JSON_T_NUMBER ? SV_TY_NUMBER
			     : x->type == JSON_T_ARRAY  ? SV_TY_ARRAY
			     : x->type == JSON_T_OBJECT ? SV_TY_OBJECT
			                                : SV_TY_BOOLEAN;
		}
		if (v.const_value != NULL) {
			const struct json_value *x = v.const_value;

			e = x->type == JSON_T_NULL     ? SV_TY_NULL
			    : x->type == JSON_T_STRING ? SV_TY_STRING
			    : x->type == JSON_T_NUMBER ? SV_TY_NUMBER
			    : x->type == JSON_T_ARRAY  ? SV_TY_ARRAY
			    : x->type == JSON_T_OBJECT ? SV_TY_OBJECT
			                               : SV_TY_BOOLEAN;
		}
		t &= e;
	}
	if (v.ref != NULL && v.nany_of == 0)
		t &= types_of(v.ref);
	if (t & SV_TY_NUMBER)
		t |= SV_TY_INTEGER;
	return t;
}

/* The values a required member of object branch n must take (its const,
 * or its enum), for the discriminator test; false when it has none. */
static bool
member_values(const struct schema_node *n, const char *name, size_t len,
    const struct schema_node **sub)
{
	struct schema_view v, pv;
	struct schema_view_prop p;
	size_t i;

	schema_view_get(n, &v);
	if (v.ref != NULL && v.nprops == 0)
		return member_values(v.ref, name, len, sub);
	for (i = 0; i < v.nprops; i++) {
		schema_view_prop(n, i, &p);
		if (p.len != len || memcmp(p.name, name, len) != 0)
			continue;
		if (!p.required || p.sub == NULL)
			return false;
		schema_view_get(p.sub, &pv);
		if (pv.ref != NULL && pv.const_value == NULL && pv.nenums == 0)
			p.sub = pv.ref, schema_view_get(p.sub, &pv);
		if (pv.const_value == NULL && pv.nenums == 0)
			return false;
		*sub = p.sub;
		return true;
	}
	return false;
}

static bool
values_meet(const struct schema_node *a, const struct schema_node *b)
{
	struct schema_view va, vb;
	size_t i, j, na, nb;

	schema_view_get(a, &va);
	schema_view_get(b, &vb);
	na = va.const_value != NULL ? 1 : va.nenums;
	nb = vb.const_value != NULL ? 1 : vb.nenums;
	for (i = 0; i < na; i++)
		for (j = 0; j < nb; j++) {
			const struct json_value *x =
			    va.const_value != NULL ? va.const_value
			                           : schema_view_enum(a, i);
			const struct json_value *y =
			    vb.const_value != NULL ? vb.const_value
			                           : schema_view_enum(b, j);

			if (json_equal(x, y))
				return true;
		}
	return false;
}

/* Can no value match both a and b?  Types that do not overlap, or, for
 * two object branches, one member required by both whose const/enum
 * values differ. */
static bool
disjoint(const struct schema_node *a, const struct schema_node *b)
{
	struct schema_view va;
	struct schema_view_prop p;
	size_t i;
	const struct schema_node *na = a;

	if ((types_of(a) & types_of(b)) == 0)
		return true;
	if ((types_of(a) | types_of(b)) & ~SV_TY_OBJECT)
		return false; /* an overlap outside objects */
	schema_view_get(a, &va);
	if (va.ref != NULL && va.nprops == 0)
		na = va.ref, schema_view_get(na, &va);
	for (i = 0; i < va.nprops; i++) {
		const struct schema_node *sa, *sb;

		schema_view_prop(na, i, &p);
		if (member_values(na, p.name, p.len, &sa) &&
		    member_values(b, p.name, p.len, &sb) &&
		    !values_meet(sa, sb))
			return true;
	}
	return false;
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

/* Is the oneOf at v provably exclusive? */
static bool
one_of_disjoint(const struct strict *s, const struct json_value *v)
{
	const struct schema_node *n = node_of(s, v);
	struct schema_view view;
	size_t i, j;

	if (n == NULL)
		return false;
	schema_view_get(n, &view);
	for (i = 0; i < view.none_of; i++)
		for (j = i + 1; j < view.none_of; j++)
			if (!disjoint(schema_view_one_of(n, i),
			        schema_view_one_of(n, j)))
				return false;
	return true;
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

static void
walk(struct strict *s, const struct json_value *v, unsigned objects,
    bool is_root)
{
	const struct json_value *type, *props, *req, *add, *all, *ref;
	size_t i, n = 0;
	bool object = false;

	if (v->type != JSON_T_OBJECT) {
		/* true or false as a subschema: {} is not allowed, false has
		 * no spelling */
		problem(s, v->type == JSON_T_TRUE ? "true" : "false",
		    "a boolean schema (strict mode wants a typed schema)");
		json_out_value(&s->w, v);
		return;
	}
	type = json_object_get(v, "type", 4);
	props = json_object_get(v, "properties", 10);
	req = json_object_get(v, "required", 8);
	add = json_object_get(v, "additionalProperties", 20);
	all = json_object_get(v, "allOf", 5);
	ref = json_object_get(v, "$ref", 4);

	/* {"allOf": [X], "description": ...}: X itself */
	if (all != NULL && all->type == JSON_T_ARRAY && all->u.arr.count == 1) {
		bool alone = true;

		for (i = 0; i < v->u.obj.count; i++) {
			const struct json_string *k = &v->u.obj.members[i].key;

			if (!key_is(k, "allOf") && !key_is(k, "title") &&
			    !key_is(k, "description") &&
			    !in_list(k, strict_dropped,
			        GPT_ARRAY_LEN(strict_dropped)) &&
			    !(k->len > 2 && memcmp(k->ptr, "x-", 2) == 0))
				alone = false;
		}
		if (alone && !is_root) {
			size_t save = jptr_push(&s->ptr, "allOf", 5);

			jptr_push_index(&s->ptr, 0);
			note(s, "an allOf of one schema is that schema");
			jptr_pop(&s->ptr, save);
			save = jptr_push(&s->ptr, "allOf", 5);
			jptr_push_index(&s->ptr, 0);
			walk(s, &all->u.arr.items[0], objects, false);
			jptr_pop(&s->ptr, save);
			return;
		}
	}
	/* draft-07 and before: the siblings of $ref are ignored */
	if (ref != NULL && s->old) {
		json_out_put(&s->w, "{", 1);
		for (i = 0; i < v->u.obj.count; i++) {
			const struct json_member *m = &v->u.obj.members[i];

			if (key_is(&m->key, "$ref") ||
			    key_is(&m->key, "description") ||
			    key_is(&m->key, "title")) {
				put_member(s, &n, &m->key);
				json_out_value(&s->w, &m->value);
			}
		}
		json_out_put(&s->w, "}", 1);
		if (v->u.obj.count > n)
			note(s, "the keywords beside $ref, which this dialect "
			        "ignores, are dropped");
		return;
	}
	if (type != NULL) {
		if (type->type == JSON_T_STRING)
			object = type->u.str.len == 6 &&
			         memcmp(type->u.str.ptr, "object", 6) == 0;
		else if (type->type == JSON_T_ARRAY)
			for (i = 0; i < type->u.arr.count; i++)
				object =
				    object ||
				    (type->u.arr.items[i].type ==
				            JSON_T_STRING &&
				        type->u.arr.items[i].u.str.len == 6 &&
				        memcmp(type->u.arr.items[i].u.str.ptr,
				            "object", 6) == 0);
	} else if (ref == NULL && json_object_get(v, "anyOf", 5) == NULL &&
	           json_object_get(v, "oneOf", 5) == NULL &&
	           json_object_get(v, "enum", 4) == NULL &&
	           json_object_get(v, "const", 5) == NULL) {
		problem(s, "type",
		    "missing (strict mode has no schema for "
		    "any value)");
	}
	if (is_root && !object)
		problem(s, "type", "the root must be an object");
	if (is_root && json_object_get(v, "anyOf", 5) != NULL)
		problem(s, "anyOf", "not allowed at the root");
	if (object) {
		if (objects + 1 > STRICT_MAX_DEPTH)
			problem(s, "properties",
			    "more than 10 levels of nested objects");
		objects++;
		if (add == NULL || add->type != JSON_T_FALSE)
			problem(s, "additionalProperties",
			    "must be false (adding it would refuse members "
			    "the form accepts)");
		if (props == NULL && (add == NULL || add->type != JSON_T_FALSE))
			problem(
			    s, "properties", "an object without properties");
		for (i = 0; props != NULL && props->type == JSON_T_OBJECT &&
		            i < props->u.obj.count;
		     i++) {
			const struct json_string *k =
			    &props->u.obj.members[i].key;
			bool found = false;
			size_t j;

			s->nprops++;
			for (j = 0; req != NULL && req->type == JSON_T_ARRAY &&
			            j < req->u.arr.count;
			     j++)
				found =
				    found ||
				    (req->u.arr.items[j].type ==
				            JSON_T_STRING &&
				        req->u.arr.items[j].u.str.len ==
				            k->len &&
				        memcmp(req->u.arr.items[j].u.str.ptr,
				            k->ptr, k->len) == 0);
			if (!found) {
				size_t save =
				    jptr_push(&s->ptr, "properties", 10);

				jptr_push(&s->ptr, k->ptr, k->len);
				problem(s, "required",
				    "an optional member (strict mode wants "
				    "every property required; required and "
				    "nullable would accept another set)");
				jptr_pop(&s->ptr, save);
			}
		}
		for (i = 0; req != NULL && req->type == JSON_T_ARRAY &&
		            i < req->u.arr.count;
		     i++) {
			const struct json_value *r = &req->u.arr.items[i];

			if (r->type == JSON_T_STRING &&
			    (props == NULL ||
			        json_object_get(
			            props, r->u.str.ptr, r->u.str.len) == NULL))
				problem(s, "required",
				    "names a member properties does not "
				    "define");
		}
	}
	json_out_put(&s->w, "{", 1);
	for (i = 0; i < v->u.obj.count; i++) {
		const struct json_member *m = &v->u.obj.members[i];
		const struct json_string *k = &m->key;
		size_t save = jptr_push(&s->ptr, k->ptr, k->len);

		if (in_list(k, strict_dropped, GPT_ARRAY_LEN(strict_dropped)) ||
		    (k->len > 2 && memcmp(k->ptr, "x-", 2) == 0) ||
		    (is_root && (key_is(k, "$id") || key_is(k, "id")))) {
			note(s, "an annotation, dropped");
		} else if (key_is(k, "oneOf")) {
			if (m->value.type == JSON_T_ARRAY &&
			    one_of_disjoint(s, v)) {
				static const struct json_string any = {
				    "anyOf", 5, 5};

				note(s, "oneOf of disjoint branches: anyOf");
				jptr_pop(&s->ptr, save);
				put_member(s, &n, &any);
				walk_list(s, "oneOf", &m->value, objects);
				continue;
			}
			problem(s, "oneOf",
			    "refused by strict mode, and the branches are not "
			    "provably disjoint (anyOf would accept a value "
			    "that matches two)");
		} else if (s->draft4 && (key_is(k, "exclusiveMinimum") ||
		                            key_is(k, "exclusiveMaximum"))) {
			/* {"minimum": 0, "exclusiveMinimum": true} */
			const struct json_value *b = json_object_get(v,
			    k->ptr[9] == 'M' && k->ptr[10] == 'i' ? "minimum"
			                                          : "maximum",
			    7);

			if (m->value.type == JSON_T_TRUE && b != NULL) {
				note(s, "draft-04's boolean form: the bound");
				put_member(s, &n, k);
				json_out_value(&s->w, b);
			}
		} else if (s->draft4 &&
		           (key_is(k, "minimum") || key_is(k, "maximum")) &&
		           json_object_get(v,
		               key_is(k, "minimum") ? "exclusiveMinimum"
		                                    : "exclusiveMaximum",
		               16) != NULL &&
		           json_object_get(v,
		               key_is(k, "minimum") ? "exclusiveMinimum"
		                                    : "exclusiveMaximum",
		               16)
		                   ->type == JSON_T_TRUE) {
			; /* written as the exclusive bound instead */
		} else if (!in_list(
		               k, strict_kept, GPT_ARRAY_LEN(strict_kept))) {
			problem_kw(
			    s, k->ptr, k->len, "not supported by strict mode");
		} else if (key_is(k, "properties") || key_is(k, "$defs") ||
		           key_is(k, "definitions")) {
			jptr_pop(&s->ptr, save);
			put_member(s, &n, k);
			if (m->value.type == JSON_T_OBJECT)
				walk_map(s, k, &m->value,
				    key_is(k, "properties") ? objects : 0);
			else
				json_out_value(&s->w, &m->value);
			continue;
		} else if (key_is(k, "items")) {
			jptr_pop(&s->ptr, save);
			put_member(s, &n, k);
			if (m->value.type == JSON_T_ARRAY) {
				save = jptr_push(&s->ptr, "items", 5);
				problem(s, "items",
				    "an array of schemas "
				    "(tuples are not supported)");
				jptr_pop(&s->ptr, save);
				json_out_value(&s->w, &m->value);
			} else {
				walk_sub(s, "items", &m->value, objects);
			}
			continue;
		} else if (key_is(k, "anyOf")) {
			jptr_pop(&s->ptr, save);
			put_member(s, &n, k);
			if (m->value.type == JSON_T_ARRAY)
				walk_list(s, "anyOf", &m->value, objects);
			else
				json_out_value(&s->w, &m->value);
			continue;
		} else if (key_is(k, "additionalProperties")) {
			if (m->value.type != JSON_T_FALSE)
				problem(
				    s, "additionalProperties", "must be false");
			put_member(s, &n, k);
			json_out_value(&s->w, &m->value);
		} else if (key_is(k, "format")) {
			bool known = false;
			size_t j;

			for (j = 0; j < GPT_ARRAY_LEN(strict_formats); j++)
				known = known ||
				        (m->value.type == JSON_T_STRING &&
				            m->value.u.str.len ==
				                strlen(strict_formats[j]) &&
				            memcmp(m->value.u.str.ptr,
				                strict_formats[j],
				                m->value.u.str.len) == 0);
			if (!known)
				problem(s, "format",
				    "a format strict mode does not know "
				    "(dropping it would accept more)");
			put_member(s, &n, k);
			json_out_value(&s->w, &m->value);
		} else if (key_is(k, "enum")) {
			if (m->value.type == JSON_T_ARRAY &&
			    m->value.u.arr.count > STRICT_MAX_ENUM)
				problem(s, "enum", "more than 1000 values");
			count_chars(s, &m->value);
			put_member(s, &n, k);
			json_out_value(&s->w, &m->value);
		} else {
			if (key_is(k, "const"))
				count_chars(s, &m->value);
			put_member(s, &n, k);
			json_out_value(&s->w, &m->value);
		}
		jptr_pop(&s->ptr, save);
	}
	json_out_put(&s->w, "}", 1);
}

/* A root that is only {"$ref": "#/$defs/x", "$defs": ...}: the target,
 * with the root's definitions beside it. */
static const struct json_value *
inline_root(struct strict *s, struct arena *a)
{
	const struct json_value *root = s->root, *ref, *t;
	struct json_value *copy;
	struct json_member *ms;
	size_t i, n = 0;

	if (root->type != JSON_T_OBJECT ||
	    json_object_get(root, "type", 4) != NULL ||
	    (ref = json_object_get(root, "$ref", 4)) == NULL ||
	    ref->type != JSON_T_STRING || ref->u.str.len < 2 ||
	    ref->u.str.ptr[0] != '#' ||
	    (t = jptr_resolve(root, ref->u.str.ptr, ref->u.str.len)) == NULL ||
	    t->type != JSON_T_OBJECT || t == root)
		return root;
	for (i = 0; i < root->u.obj.count; i++) {
		const struct json_string *k = &root->u.obj.members[i].key;

		if (!key_is(k, "$ref") && !key_is(k, "$defs") &&
		    !key_is(k, "definitions") && !key_is(k, "$schema") &&
		    !key_is(k, "title") && !key_is(k, "description") &&
		    !key_is(k, "$comment"))
			return root; /* more than a reference */
	}
	copy = arena_calloc(a, 1, sizeof(*copy));
	ms = arena_calloc(
	    a, t->u.obj.count + root->u.obj.count + 1, sizeof(*ms));
	if (copy == NULL || ms == NULL)
		return root;
	for (i = 0; i < t->u.obj.count; i++)
		if (!key_is(&t->u.obj.members[i].key, "$defs") &&
		    !key_is(&t->u.obj.members[i].key, "definitions"))
			ms[n++] = t->u.obj.members[i];
	for (i = 0; i < root->u.obj.count; i++)
		if (key_is(&root->u.obj.members[i].key, "$defs") ||
		    key_is(&root->u.obj.members[i].key, "definitions") ||
		    key_is(&root->u.obj.members[i].key, "$schema"))
			ms[n++] = root->u.obj.members[i];
	copy->type = JSON_T_OBJECT;
	copy->u.obj.members = ms;
	copy->u.obj.count = n;
	copy->u.obj.index = NULL;
	note(s, "a root that only refers to a definition: the definition");
	return copy;
}

int
cli_strict_openai(int argc, char **argv)
{
	struct cli_form f;
	struct strict s;
	struct strict_collect col;
	const struct json_value *res, *root, *sch;
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
	if (schema_view_each(f.form, collect_node, &col) != 0) {
		fprintf(stderr, "gpt.fcgi: out of memory\n");
		goto done;
	}
	sch = s.root->type == JSON_T_OBJECT
	          ? json_object_get(s.root, "$schema", 7)
	          : NULL;
	s.old =
	    f.o.dialect >= 0 && f.o.dialect <= schema_dialect_named("draft-07");
	s.draft4 = f.o.dialect == schema_dialect_named("draft-04");
	if (sch != NULL && sch->type == JSON_T_STRING)
		for (size_t k = 0; k + 8 <= sch->u.str.len; k++)
			if (memcmp(sch->u.str.ptr + k, "draft-0", 7) == 0) {
				s.old = true;
				s.draft4 = sch->u.str.ptr[k + 7] == '4';
			}
	status = 1;
	root = inline_root(&s, &f.a);
	walk(&s, root, 0, true);
	if (s.nprops > STRICT_MAX_PROPS)
		problem(&s, "properties", "more than 5000 properties in all");
	if (s.nchars > STRICT_MAX_CHARS)
		problem(&s, "enum",
		    "more than 120,000 characters of names and values");
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
	buf_free(&s.out);
	cli_form_free(&f);
	return status;
}
