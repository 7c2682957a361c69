/*
 * schema_facts.c: facts about a compiled form, from the view alone
 * (schema_facts.h).
 */
#include <stdio.h>
#include <string.h>

#include "parser/json.h"
#include "schema/schema_facts.h"
#include "schema/schema_view.h"

unsigned
schema_facts_type_of(const struct json_value *v)
{
	switch (v->type) {
	case JSON_T_NULL:
		return SV_TY_NULL;
	case JSON_T_FALSE:
	case JSON_T_TRUE:
		return SV_TY_BOOLEAN;
	case JSON_T_NUMBER:
		return SV_TY_NUMBER | SV_TY_INTEGER;
	case JSON_T_STRING:
		return SV_TY_STRING;
	case JSON_T_ARRAY:
		return SV_TY_ARRAY;
	case JSON_T_OBJECT:
		return SV_TY_OBJECT;
	}
	return SV_TY_ALL;
}

/* Widen integer to number: the two overlap. */
static unsigned
types_norm(unsigned t)
{
	return (t & (SV_TY_INTEGER | SV_TY_NUMBER))
	           ? (t | SV_TY_NUMBER | SV_TY_INTEGER)
	           : t;
}

/* The types of node v's const, or of its enum's values; SV_TY_ALL when
 * it has neither. */
static unsigned
value_types(const struct schema_node *n, const struct schema_view *v)
{
	unsigned t = 0;
	size_t i;

	if (v->const_value != NULL)
		return schema_facts_type_of(v->const_value);
	if (v->nenums == 0)
		return SV_TY_ALL;
	for (i = 0; i < v->nenums; i++)
		t |= schema_facts_type_of(schema_view_enum(n, i));
	return t;
}

/* A branch's types and finite value set, through $ref chains. */
struct branch {
	unsigned types;
	const struct schema_node *vals; /* a node with const or enum */
	const struct schema_node *n;    /* the branch, refs followed */
};

static void
branch_of(const struct schema_node *n, struct branch *b)
{
	struct schema_view v;
	unsigned hops;

	b->types = SV_TY_ALL;
	b->vals = NULL;
	b->n = n;
	for (hops = 0; n != NULL && hops < SCHEMA_FACTS_HOPS; hops++) {
		schema_view_get(n, &v);
		if (v.kind != SV_NODE) {
			if (v.kind == SV_FALSE)
				b->types = 0;
			break;
		}
		b->n = n;
		b->types &= types_norm(v.types) & value_types(n, &v);
		if (b->vals == NULL && (v.const_value != NULL || v.nenums > 0))
			b->vals = n;
		n = v.ref;
	}
	b->types = types_norm(b->types);
}

unsigned
schema_facts_types(const struct schema_node *n)
{
	struct branch b;

	branch_of(n, &b);
	return b.types;
}

/* Every value of node x's const/enum; SIZE_MAX past max. */
static size_t
vals(const struct schema_node *x, const struct json_value **out, size_t max)
{
	struct schema_view v;
	size_t i, n = 0;

	schema_view_get(x, &v);
	if (v.const_value != NULL) {
		out[0] = v.const_value;
		return 1; /* a const beside an enum narrows it to itself */
	}
	for (i = 0; i < v.nenums && n < max; i++)
		out[n++] = schema_view_enum(x, i);
	return v.nenums > max ? SIZE_MAX : n;
}

/* Do the finite value sets of nodes x and y share no value? */
static bool
vals_disjoint(const struct schema_node *x, const struct schema_node *y)
{
	const struct json_value *a[SCHEMA_FACTS_VALS_MAX],
	    *b[SCHEMA_FACTS_VALS_MAX];
	size_t na = vals(x, a, SCHEMA_FACTS_VALS_MAX),
	       nb = vals(y, b, SCHEMA_FACTS_VALS_MAX), i, j;

	if (na == SIZE_MAX || nb == SIZE_MAX)
		return false;
	for (i = 0; i < na; i++)
		for (j = 0; j < nb; j++)
			if (json_equal(a[i], b[j]))
				return false;
	return true;
}

/* The member name (len bytes) of node n: its entry.  false when n does
 * not name it. */
static bool
prop_of(const struct schema_node *n, const char *name, size_t len,
    struct schema_view_prop *out)
{
	struct schema_view v;
	size_t i;

	schema_view_get(n, &v);
	for (i = 0; i < v.nprops && i < SCHEMA_FACTS_DISC_MAX * 4; i++) {
		schema_view_prop(n, i, out);
		if (out->len == len && memcmp(out->name, name, len) == 0)
			return true;
	}
	return false;
}

/* Does every object n accepts have member name (len bytes), with a value
 * among those appended to out[0..*got) (at most max)?  depth levels of
 * allOf, anyOf and oneOf are left to look through and *budget nodes to
 * look at (the branches of branches multiply). */
static bool
member_values(const struct schema_node *n, const char *name, size_t len,
    unsigned depth, unsigned *budget, const struct json_value **out, size_t max,
    size_t *got)
{
	struct schema_view v;
	struct schema_view_prop p;
	struct branch b;
	unsigned hops;
	size_t i, k, at;

	for (hops = 0; n != NULL && hops < SCHEMA_FACTS_HOPS; hops++) {
		if (*budget == 0)
			return false;
		(*budget)--;
		schema_view_get(n, &v);
		if (v.kind == SV_FALSE)
			return true; /* accepts nothing: no value to add */
		if (v.kind != SV_NODE)
			return false;
		/* its own: a required member whose schema lists its values */
		if (*got < max && prop_of(n, name, len, &p) && p.required &&
		    p.sub != NULL) {
			branch_of(p.sub, &b);
			if (b.vals != NULL && (k = vals(b.vals, out + *got,
			                           max - *got)) != SIZE_MAX) {
				*got += k;
				return true;
			}
		}
		/* a part of allOf that says it says it for n */
		for (i = 0; depth > 0 && i < v.nall_of; i++) {
			at = *got;
			if (member_values(schema_view_all_of(n, i), name, len,
			        depth - 1, budget, out, max, got))
				return true;
			*got = at;
		}
		/* anyOf, oneOf: the values of every branch, when each says */
		if (depth > 0 && v.nany_of + v.none_of > 0) {
			bool all = true;

			at = *got;
			for (i = 0; all && i < v.nany_of; i++)
				all = member_values(schema_view_any_of(n, i),
				    name, len, depth - 1, budget, out, max,
				    got);
			for (i = 0; all && i < v.none_of; i++)
				all = member_values(schema_view_one_of(n, i),
				    name, len, depth - 1, budget, out, max,
				    got);
			if (all)
				return true;
			*got = at;
		}
		n = v.ref;
	}
	return false;
}

/* The values member name can have in an object n accepts, as
 * schema_facts_gate says, from *budget nodes. */
static bool
member_values_within(const struct schema_node *n, const char *name, size_t len,
    unsigned *budget, const struct json_value **out, size_t max, size_t *nout)
{
	*nout = 0;
	return member_values(
	    n, name, len, SCHEMA_FACTS_GATE_DEPTH, budget, out, max, nout);
}

bool
schema_facts_gate(const struct schema_node *n, const char **name, size_t *len,
    const struct json_value **out, size_t max, size_t *nout)
{
	struct schema_view v;
	struct schema_view_prop p;
	const struct schema_node *m = n;
	unsigned hops, depth, budget = SCHEMA_FACTS_GATE_NODES;
	size_t i;

	/* the name: the first required member of the branch (refs followed,
	 * then the first branch of a oneOf or anyOf it is made of) */
	for (hops = 0, depth = 0; m != NULL && hops < SCHEMA_FACTS_HOPS &&
	                          depth <= SCHEMA_FACTS_GATE_DEPTH;
	     hops++) {
		schema_view_get(m, &v);
		if (v.kind != SV_NODE)
			return false;
		for (i = 0; i < v.nprops && i < SCHEMA_FACTS_DISC_MAX; i++) {
			schema_view_prop(m, i, &p);
			if (p.required && p.sub != NULL &&
			    member_values_within(
			        n, p.name, p.len, &budget, out, max, nout)) {
				*name = p.name;
				*len = p.len;
				return true;
			}
		}
		if (v.ref != NULL)
			m = v.ref;
		else if (v.none_of > 0)
			m = schema_view_one_of(m, 0), depth++;
		else if (v.nany_of > 0)
			m = schema_view_any_of(m, 0), depth++;
		else
			return false;
	}
	return false;
}

static void
clip(char *out, size_t cap, const char *s, size_t len)
{
	size_t i, n = len < cap - 1 ? len : cap - 1;

	for (i = 0; i < n; i++)
		out[i] = (unsigned char)s[i] < 0x20 ? '?' : s[i];
	out[n] = '\0';
}

/*
 * Can no value of the types within (SV_TY_*) be accepted by both x and
 * y?  within: the types the node holding the alternatives lets reach
 * them, since a value of any other type fails that node whatever the
 * alternatives say.  true when proved, with the reason in why; false: not
 * proved (they may overlap).
 */
static bool
facts_disjoint(const struct schema_node *x, const struct schema_node *y,
    unsigned within, char *why, size_t cap)
{
	struct branch a, b, da, db;
	struct schema_view va;
	struct schema_view_prop pa, pb;
	char name[64];
	unsigned common;
	size_t i;

	branch_of(x, &a);
	branch_of(y, &b);
	common = a.types & b.types & types_norm(within);
	if (common == 0) {
		snprintf(why, cap, "disjoint types");
		return true;
	}
	if (a.vals != NULL && b.vals != NULL && vals_disjoint(a.vals, b.vals)) {
		snprintf(why, cap, "distinct const/enum values");
		return true;
	}
	/* required and properties say nothing of a value that is not an
	 * object: {"required": ["k"]} and {"required": ["j"]} both take 5 */
	if (a.n == NULL || b.n == NULL || (common & ~SV_TY_OBJECT) != 0)
		return false;
	schema_view_get(a.n, &va);
	/* a discriminator is among the first members: so many are tried,
	 * so a oneOf of wide objects costs no more than that */
	for (i = 0; i < va.nprops && i < SCHEMA_FACTS_DISC_MAX; i++) {
		schema_view_prop(a.n, i, &pa);
		if (!pa.required || pa.sub == NULL ||
		    !prop_of(b.n, pa.name, pa.len, &pb) || !pb.required ||
		    pb.sub == NULL)
			continue;
		branch_of(pa.sub, &da);
		branch_of(pb.sub, &db);
		if (da.vals != NULL && db.vals != NULL &&
		    vals_disjoint(da.vals, db.vals)) {
			clip(name, sizeof(name), pa.name, pa.len);
			snprintf(why, cap,
			    "distinct values of the required member \"%s\"",
			    name);
			return true;
		}
		if ((da.types & db.types) == 0) {
			clip(name, sizeof(name), pa.name, pa.len);
			snprintf(why, cap,
			    "disjoint types of the required member \"%s\"",
			    name);
			return true;
		}
	}
	return false;
}

bool
schema_facts_oneof_disjoint(const struct schema_node *n, char *why, size_t cap)
{
	struct schema_view v;
	unsigned within = schema_facts_types(n);
	size_t i, j;

	why[0] = '\0';
	schema_view_get(n, &v);
	/* pairwise, so bounded: past the limit nothing is proved */
	if (v.none_of > SCHEMA_FACTS_ONEOF_MAX) {
		snprintf(
		    why, cap, "more than %d branches", SCHEMA_FACTS_ONEOF_MAX);
		return false;
	}
	for (i = 0; i < v.none_of; i++)
		for (j = i + 1; j < v.none_of; j++)
			if (!facts_disjoint(schema_view_one_of(n, i),
			        schema_view_one_of(n, j), within, why, cap))
				return false;
	return true;
}

unsigned
schema_facts_concerns(const struct schema_view *v)
{
	unsigned t = 0;

	if (v->typed)
		return v->types;
	if (v->nprops || v->npprops || v->additional || v->names ||
	    v->min_props || v->max_props != SIZE_MAX || v->ndepreq ||
	    v->ndepsch)
		t |= SV_TY_OBJECT;
	if (v->min_items || v->max_items != SIZE_MAX || v->nprefix ||
	    v->items || v->contains || v->unique_items)
		t |= SV_TY_ARRAY;
	if (v->min_length || v->max_length != SIZE_MAX || v->pattern ||
	    v->format || v->content_encoding || v->content_json)
		t |= SV_TY_STRING;
	if (v->minimum.text || v->maximum.text || v->xminimum.text ||
	    v->xmaximum.text || v->multiple_of.text || v->nformat)
		t |= SV_TY_NUMBER | SV_TY_INTEGER;
	return t != 0 ? t : SV_TY_ALL;
}
