/*
 * lint.c: the draft's advice to operators, checked (lint.h): the facts
 * about a form, and the walk from its root that judges bounds.  The other
 * rules are in lint_rules.c, the hook's in lint_hook.c.
 *
 * The rules, each with the draft's reason:
 *   oneof                 "An address SHOULD use anyOf in preference to
 *                         oneOf" (some decoders refuse oneOf); says when
 *                         the branches are provably disjoint, so anyOf
 *                         accepts the same values.
 *   string-unbounded, array-unbounded, object-open
 *                         "The Form Is the Attack Surface": bounded
 *                         strings and arrays, closed enumerations,
 *                         additionalProperties: false on every object.
 *   recursion-unbounded   "Bounded Recursion": unroll it.
 *   description-constraint
 *                         "A server MUST NOT rely on an actor having read"
 *                         a description: a number or unit there that no
 *                         keyword states.
 *   pattern-unanchored    a JSON Schema pattern matches anywhere in the
 *                         string (2020-12 validation section 6.3.3).
 *   default-invalid, example-invalid
 *                         an annotation the form itself rejects misleads
 *                         every actor that copies it.
 *   optional-empty        an optional member whose blank value ("", [],
 *                         {}) the form rejects: a page or generator that
 *                         fills every field sends it.
 *   form-size             the form is context the actor pays for.
 *   hook-*                lint_hook.
 *
 * Bounds are judged with their context: a schema is bounded when it, or
 * every branch of its anyOf/oneOf, or one of its allOf/$ref, bounds the
 * value (its "deep" bounds), or when a schema applied to the same value
 * around it does (its parent and allOf siblings).  Subschemas that only
 * test a value (if, not, contains, propertyNames) are not judged.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "parser/json.h"
#include "tools/lint.h"
#include "tools/lint_int.h"
#include "parser/re_tree.h"
#include "tools/report.h"
#include "schema/schema_view.h"

/* What bounds a value (bits of lint_facts.bounds). */
enum {
	B_STR = 1u << 0, /* string length */
	B_ARR = 1u << 1, /* array length */
	B_OBJ = 1u << 2, /* object members: closed */
	B_ALL = B_STR | B_ARR | B_OBJ,
	B_DONE = 1u << 7, /* bounds computed */
};

/* lint_facts.state bits */
enum {
	S_ONSTACK = 1u << 0,
	S_BUSY = 1u << 1, /* computing deep bounds */
	S_SAID_STR = 1u << 2,
	S_SAID_ARR = 1u << 3,
	S_SAID_OBJ = 1u << 4,
};

/* Formats whose values have a bounded length (format.c enforces it). */
static const char *const lint_bounded_formats[] = {
    "date",
    "time",
    "date-time",
    "uuid",
    "ipv4",
    "ipv6",
    "hostname",
};

#define LINT_DISC_MAX 32  /* members tried as a oneOf's discriminator */
#define LINT_ONEOF_MAX 64 /* oneOf branches compared pairwise */

void
lint_ptr(const struct schema_view *v, char out[LINT_PTR_MAX])
{
	size_t n = v->pointer_len < LINT_PTR_MAX - 4 ? v->pointer_len
	                                             : LINT_PTR_MAX - 4;
	size_t i;

	for (i = 0; i < n; i++)
		out[i] = v->pointer[i] == '\0' ? '?' : v->pointer[i];
	if (n < v->pointer_len)
		memcpy(out + n, "...", 3), n += 3;
	out[n] = '\0';
}

void
lint_clip(char *out, size_t cap, const char *s, size_t len)
{
	size_t i, n = len < cap - 1 ? len : cap - 1;

	for (i = 0; i < n; i++)
		out[i] = (unsigned char)s[i] < 0x20 ? '?' : s[i];
	out[n] = '\0';
}

/* --- the node index ----------------------------------------------------- */

static size_t
lint_hash_ptr(const void *p, size_t nslots)
{
	uintptr_t x = (uintptr_t)p;

	x ^= x >> 17;
	x *= (uintptr_t)0x9E3779B97F4A7C15ULL;
	return (size_t)(x ^ (x >> 29)) & (nslots - 1);
}

static size_t
lint_index(const struct lint_facts *f, const struct schema_node *n)
{
	size_t h, k;

	if (n == NULL || f->nslots == 0)
		return SIZE_MAX;
	/* bounded by nslots: the table is at most half full */
	for (h = lint_hash_ptr(n, f->nslots), k = 0; k < f->nslots;
	     k++, h = (h + 1) & (f->nslots - 1)) {
		if (f->slots[h] == SIZE_MAX)
			return SIZE_MAX;
		if (f->nodes[f->slots[h]].n == n)
			return f->slots[h];
	}
	return SIZE_MAX;
}

const struct lint_node *
lint_node_of(const struct lint_facts *f, const struct schema_node *n)
{
	size_t i = lint_index(f, n);

	return i == SIZE_MAX ? NULL : &f->nodes[i];
}

static int
lint_collect(void *ctx, const struct schema_node *n)
{
	struct lint_facts *f = ctx;

	if (f->count >= schema_view_count(f->s))
		return 1;
	f->nodes[f->count++].n = n;
	return 0;
}

/* --- patterns ----------------------------------------------------------- */

/* The scratch of one pattern's tree: the arena grows past it if needed. */
#define LINT_PATTERN_ARENA ((size_t)64 * 1024 * 1024)

void
lint_pattern_ask(
    const char *p, size_t len, uint32_t count, struct lint_pattern *out)
{
	struct arena a;
	struct re_tree t;
	struct re_tree_err err;

	memset(out, 0, sizeof(*out));
	arena_init(&a, LINT_PATTERN_ARENA);
	/* the form compiled, so the pattern parses; if memory runs out, it
	 * counts as unanchored and without lookaround */
	if (re_tree_parse(p, len, &a, &t, &err) == 0) {
		out->anchored = re_tree_anchored(&t);
		out->ends_anchored = re_tree_ends_anchored(&t);
		out->bounds_length = re_tree_bounds_length(&t);
		out->lookaround = re_tree_has_lookaround(&t);
		out->has_count = re_tree_has_count(&t, count);
	}
	arena_free(&a);
}

/* --- bounds ------------------------------------------------------------- */

/* Does v's pattern bound the length of the strings it admits? */
static bool
lint_pattern_bounds(const struct schema_view *v)
{
	struct lint_pattern lp;

	lint_pattern_ask(v->pattern, v->pattern_len, 0, &lp);
	return lp.bounds_length;
}

static bool
lint_is_false(const struct schema_node *n)
{
	struct schema_view v;

	if (n == NULL)
		return false;
	schema_view_get(n, &v);
	return v.kind == SV_FALSE;
}

/* What v bounds by its own keywords. */
static unsigned
lint_own_bounds(const struct schema_view *v)
{
	unsigned b = 0;
	size_t i;

	if (v->kind == SV_FALSE || v->const_value != NULL || v->nenums > 0)
		return B_ALL;
	if (v->kind != SV_NODE)
		return 0;
	/* a schema that admits no strings bounds them */
	if (!schema_view_admits(v, SV_TY_STRING) || v->max_length != SIZE_MAX ||
	    (v->pattern != NULL && lint_pattern_bounds(v)))
		b |= B_STR;
	if (v->format != NULL)
		for (i = 0; i < GPT_ARRAY_LEN(lint_bounded_formats); i++)
			if (strcmp(v->format, lint_bounded_formats[i]) == 0)
				b |= B_STR;
	if (!schema_view_admits(v, SV_TY_ARRAY) || v->max_items != SIZE_MAX ||
	    (v->nprefix > 0 && lint_is_false(v->items)))
		b |= B_ARR;
	if (!schema_view_admits(v, SV_TY_OBJECT) ||
	    lint_is_false(v->additional) || lint_is_false(v->unevaluated_props))
		b |= B_OBJ;
	return b;
}

/*
 * n's deep bounds: its own, those of its $ref and of any allOf branch,
 * and those every anyOf (and every oneOf) branch shares.  Memoized; the
 * in-place graph is acyclic (the compiler refuses a cycle that does not
 * descend into the instance), S_BUSY guards anyway.
 */
static unsigned
lint_deep(struct lint_facts *f, const struct schema_node *n, unsigned level)
{
	struct schema_view v;
	unsigned b, any;
	size_t i, k;

	schema_view_get(n, &v);
	if (v.kind != SV_NODE)
		return v.kind == SV_FALSE ? B_ALL : 0;
	if ((k = lint_index(f, n)) == SIZE_MAX)
		return 0;
	if (f->bounds[k] & B_DONE)
		return f->bounds[k] & B_ALL;
	if ((f->state[k] & S_BUSY) || level >= LINT_DEPTH_MAX)
		return lint_own_bounds(&v);
	f->state[k] |= S_BUSY;
	b = lint_own_bounds(&v);
	if (v.ref != NULL)
		b |= lint_deep(f, v.ref, level + 1);
	if (v.dyn_target != NULL)
		b |= lint_deep(f, v.dyn_target, level + 1);
	for (i = 0; i < v.nall_of; i++)
		b |= lint_deep(f, schema_view_all_of(n, i), level + 1);
	if (v.nany_of > 0) {
		any = B_ALL;
		for (i = 0; i < v.nany_of; i++)
			any &=
			    lint_deep(f, schema_view_any_of(n, i), level + 1);
		b |= any;
	}
	if (v.none_of > 0) {
		any = B_ALL;
		for (i = 0; i < v.none_of; i++)
			any &=
			    lint_deep(f, schema_view_one_of(n, i), level + 1);
		b |= any;
	}
	f->state[k] &= (unsigned char)~S_BUSY;
	f->bounds[k] = (unsigned char)(b | B_DONE);
	return b;
}

/* --- the walk from the root ------------------------------------------- */

struct lint_walk {
	struct lint_facts *f;
	struct report *r; /* NULL: facts only */
};

static bool
lint_objectish(const struct schema_view *v)
{
	if (v->typed)
		return (v->types & SV_TY_OBJECT) != 0;
	return v->nprops > 0 || v->npprops > 0 || v->additional != NULL ||
	       v->unevaluated_props != NULL;
}

static bool
lint_arrayish(const struct schema_view *v)
{
	if (v->typed)
		return (v->types & SV_TY_ARRAY) != 0;
	return v->nprefix > 0 || v->items != NULL;
}

/* Say once per node that it leaves a value unbounded. */
static void
lint_say_bounds(
    struct lint_walk *w, size_t k, const struct schema_view *v, unsigned eff)
{
	char ptr[LINT_PTR_MAX];

	if (w->r == NULL)
		return;
	lint_ptr(v, ptr);
	if (v->typed && (v->types & SV_TY_STRING) && !(eff & B_STR) &&
	    !(w->f->state[k] & S_SAID_STR)) {
		w->f->state[k] |= S_SAID_STR;
		report_add(w->r, REPORT_WARNING, "string-unbounded", ptr,
		    "a string with no maxLength (nor a pattern, format, enum "
		    "or const that bounds it): the actor may send one as long "
		    "as max_body allows",
		    "add \"maxLength\": N with the longest value the address "
		    "needs");
	}
	if (lint_arrayish(v) && !(eff & B_ARR) &&
	    !(w->f->state[k] & S_SAID_ARR)) {
		w->f->state[k] |= S_SAID_ARR;
		report_add(w->r, REPORT_WARNING, "array-unbounded", ptr,
		    "an array with no maxItems: the actor may send as many "
		    "items as max_body allows",
		    "add \"maxItems\": N");
	}
	if (lint_objectish(v) && !(eff & B_OBJ) &&
	    !(w->f->state[k] & S_SAID_OBJ) &&
	    !(v->additional != NULL && v->max_props != SIZE_MAX)) {
		w->f->state[k] |= S_SAID_OBJ;
		report_add(w->r, REPORT_WARNING, "object-open", ptr,
		    "an object open to members the form does not name: the "
		    "actor may add any of them, and strict decoders (OpenAI, "
		    "Anthropic) refuse the form",
		    "add \"additionalProperties\": false (or "
		    "\"unevaluatedProperties\": false beside allOf/$ref)");
	}
}

static void lint_visit(struct lint_walk *w, const struct schema_node *n,
    unsigned ctx, bool judge, size_t depth, unsigned level);

/* Visit every subschema of n: in place ones with ctx, the values inside
 * with none; tests (if, not, contains, propertyNames) unjudged. */
static void
lint_children(struct lint_walk *w, const struct schema_node *n,
    const struct schema_view *v, unsigned ctx, bool judge, size_t depth,
    unsigned level)
{
	struct schema_view_prop p;
	struct schema_view_pprop pp;
	const char *name;
	size_t i, len;

	if (v->ref != NULL)
		lint_visit(w, v->ref, ctx, judge, depth, level + 1);
	if (v->dyn_target != NULL)
		lint_visit(w, v->dyn_target, ctx, judge, depth, level + 1);
	for (i = 0; i < v->nall_of; i++)
		lint_visit(
		    w, schema_view_all_of(n, i), ctx, judge, depth, level + 1);
	for (i = 0; i < v->nany_of; i++)
		lint_visit(
		    w, schema_view_any_of(n, i), ctx, judge, depth, level + 1);
	for (i = 0; i < v->none_of; i++)
		lint_visit(
		    w, schema_view_one_of(n, i), ctx, judge, depth, level + 1);
	if (v->then_ != NULL)
		lint_visit(w, v->then_, ctx, judge, depth, level + 1);
	if (v->else_ != NULL)
		lint_visit(w, v->else_, ctx, judge, depth, level + 1);
	for (i = 0; i < v->ndepsch; i++)
		lint_visit(w, schema_view_depsch(n, i, &name, &len), ctx, judge,
		    depth, level + 1);
	if (v->if_ != NULL)
		lint_visit(w, v->if_, 0, false, depth, level + 1);
	if (v->not_ != NULL)
		lint_visit(w, v->not_, 0, false, depth, level + 1);
	/* the values inside: a new instance, no context */
	for (i = 0; i < v->nprops; i++) {
		schema_view_prop(n, i, &p);
		if (p.sub != NULL)
			lint_visit(w, p.sub, 0, judge, depth + 1, level + 1);
	}
	for (i = 0; i < v->npprops; i++) {
		schema_view_pprop(n, i, &pp);
		lint_visit(w, pp.sub, 0, judge, depth + 1, level + 1);
	}
	if (v->additional != NULL)
		lint_visit(w, v->additional, 0, judge, depth + 1, level + 1);
	if (v->unevaluated_props != NULL)
		lint_visit(
		    w, v->unevaluated_props, 0, judge, depth + 1, level + 1);
	for (i = 0; i < v->nprefix; i++)
		lint_visit(w, schema_view_prefix(n, i), 0, judge, depth + 1,
		    level + 1);
	if (v->items != NULL)
		lint_visit(w, v->items, 0, judge, depth + 1, level + 1);
	if (v->unevaluated_items != NULL)
		lint_visit(
		    w, v->unevaluated_items, 0, judge, depth + 1, level + 1);
	if (v->content_schema != NULL)
		lint_visit(
		    w, v->content_schema, 0, judge, depth + 1, level + 1);
	if (v->contains != NULL)
		lint_visit(w, v->contains, 0, false, depth + 1, level + 1);
	if (v->names != NULL)
		lint_visit(w, v->names, 0, false, depth + 1, level + 1);
}

/*
 * Visit n as applied with the bounds ctx from around it.  Each node is
 * visited at most once per (ctx, judge): 16 times, so the walk is linear
 * in the form.  An edge back to a node on the walk's stack is recursion.
 */
static void
lint_visit(struct lint_walk *w, const struct schema_node *n, unsigned ctx,
    bool judge, size_t depth, unsigned level)
{
	struct lint_facts *f = w->f;
	struct schema_view v;
	unsigned eff, key;
	size_t k;

	if (n == NULL || level >= LINT_DEPTH_MAX ||
	    (k = lint_index(f, n)) == SIZE_MAX)
		return;
	if (f->state[k] & S_ONSTACK) {
		f->nodes[k].facts |= LINT_F_RECURSION;
		return;
	}
	key = 1u << ((ctx & B_ALL) | (judge ? 8u : 0u));
	if (f->visited[k] & key)
		return;
	if (!(f->nodes[k].facts & LINT_F_REACHED) || depth < f->nodes[k].depth)
		f->nodes[k].depth = depth;
	f->visited[k] |= (uint16_t)key;
	f->nodes[k].facts |= LINT_F_REACHED;
	schema_view_get(n, &v);
	eff = (lint_deep(f, n, level) | ctx) & B_ALL;
	/* undescribed: the view cannot tell what bounds it; say nothing */
	if (judge && !v.undescribed)
		lint_say_bounds(w, k, &v, eff);
	f->state[k] |= S_ONSTACK;
	lint_children(w, n, &v, eff, judge, depth, level);
	f->state[k] &= (unsigned char)~S_ONSTACK;
}

/* --- facts from the view alone ----------------------------------------- */

/* A branch's types and finite value set, through $ref chains. */
struct lint_branch {
	unsigned types;
	const struct schema_node *vals; /* a node with const or enum */
	const struct schema_node *n;    /* the branch, refs followed */
};

static void
lint_branch_of(const struct schema_node *n, struct lint_branch *b)
{
	struct schema_view v;
	unsigned hops;

	b->types = SV_TY_ALL;
	b->vals = NULL;
	b->n = n;
	/* bounded: at most 32 $ref hops */
	for (hops = 0; n != NULL && hops < 32; hops++) {
		schema_view_get(n, &v);
		if (v.kind != SV_NODE) {
			if (v.kind == SV_FALSE)
				b->types = 0;
			return;
		}
		b->n = n;
		b->types &= v.types;
		if (b->vals == NULL && (v.const_value != NULL || v.nenums > 0))
			b->vals = n;
		n = v.ref;
	}
}

/* Every value of node x's const/enum. */
static size_t
lint_vals(
    const struct schema_node *x, const struct json_value **out, size_t max)
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

#define LINT_VALS_MAX 64

/* Do the finite value sets of nodes x and y share no value? */
static bool
lint_vals_disjoint(const struct schema_node *x, const struct schema_node *y)
{
	const struct json_value *a[LINT_VALS_MAX], *b[LINT_VALS_MAX];
	size_t na = lint_vals(x, a, LINT_VALS_MAX),
	       nb = lint_vals(y, b, LINT_VALS_MAX), i, j;

	if (na == SIZE_MAX || nb == SIZE_MAX)
		return false;
	for (i = 0; i < na; i++)
		for (j = 0; j < nb; j++)
			if (json_equal(a[i], b[j]))
				return false;
	return true;
}

/* The property name (len bytes) of node n: its schema and whether it is
 * required.  false when n does not name it. */
static bool
lint_prop(const struct schema_node *n, const char *name, size_t len,
    struct schema_view_prop *out)
{
	struct schema_view v;
	size_t i;

	schema_view_get(n, &v);
	for (i = 0; i < v.nprops && i < LINT_DISC_MAX * 4; i++) {
		schema_view_prop(n, i, out);
		if (out->len == len && memcmp(out->name, name, len) == 0)
			return true;
	}
	return false;
}

/* Widen integer to number: the two overlap. */
static unsigned
lint_types_norm(unsigned t)
{
	return (t & SV_TY_INTEGER) ? (t | SV_TY_NUMBER) : t;
}

/*
 * Are branches x and y provably disjoint: no common type, distinct
 * values, or a member both require with distinct const/enum values (a
 * discriminator)?  why gets the reason in words.
 */
static bool
lint_disjoint(const struct schema_node *x, const struct schema_node *y,
    char *why, size_t cap)
{
	struct lint_branch a, b;
	struct schema_view va;
	struct schema_view_prop pa, pb;
	struct lint_branch da, db;
	char name[64];
	size_t i;
	unsigned ta, tb;

	lint_branch_of(x, &a);
	lint_branch_of(y, &b);
	ta = lint_types_norm(a.types);
	tb = lint_types_norm(b.types);
	/* integer and number overlap; a number-only branch vs an
	 * integer-only one does too, so normalizing is exact enough */
	if ((ta & tb) == 0) {
		snprintf(why, cap, "disjoint types");
		return true;
	}
	if (a.vals != NULL && b.vals != NULL &&
	    lint_vals_disjoint(a.vals, b.vals)) {
		snprintf(why, cap, "distinct const/enum values");
		return true;
	}
	if (a.n == NULL || b.n == NULL)
		return false;
	schema_view_get(a.n, &va);
	/* a discriminator is among the first members: LINT_DISC_MAX of them
	 * are tried, so a oneOf of wide objects costs no more than that */
	for (i = 0; i < va.nprops && i < LINT_DISC_MAX; i++) {
		schema_view_prop(a.n, i, &pa);
		if (!pa.required || pa.sub == NULL ||
		    !lint_prop(b.n, pa.name, pa.len, &pb) || !pb.required ||
		    pb.sub == NULL)
			continue;
		lint_branch_of(pa.sub, &da);
		lint_branch_of(pb.sub, &db);
		if (da.vals != NULL && db.vals != NULL &&
		    lint_vals_disjoint(da.vals, db.vals)) {
			lint_clip(name, sizeof(name), pa.name, pa.len);
			snprintf(why, cap,
			    "distinct values of the required member \"%s\"",
			    name);
			return true;
		}
		if ((lint_types_norm(da.types) & lint_types_norm(db.types)) ==
		    0) {
			lint_clip(name, sizeof(name), pa.name, pa.len);
			snprintf(why, cap,
			    "disjoint types of the required member \"%s\"",
			    name);
			return true;
		}
	}
	return false;
}

/* Are all oneOf branches of n pairwise disjoint?  why as lint_disjoint. */
bool
lint_oneof_disjoint(
    const struct schema_node *n, size_t count, char *why, size_t cap)
{
	size_t i, j;

	why[0] = '\0';
	/* pairwise, so bounded: past LINT_ONEOF_MAX branches nothing is
	 * proved */
	if (count > LINT_ONEOF_MAX) {
		snprintf(why, cap, "more than %d branches", LINT_ONEOF_MAX);
		return false;
	}
	for (i = 0; i < count; i++)
		for (j = i + 1; j < count; j++)
			if (!lint_disjoint(schema_view_one_of(n, i),
			        schema_view_one_of(n, j), why, cap))
				return false;
	return true;
}

static void
lint_view_facts(struct lint_facts *f, struct lint_node *ln)
{
	struct schema_view v;
	struct schema_view_prop p;
	const struct json_value *e;
	struct lint_pattern lp;
	char why[128];
	size_t i;

	schema_view_get(ln->n, &v);
	ln->nenums = v.nenums;
	if (v.kind != SV_NODE)
		return;
	if (lint_objectish(&v) && !lint_is_false(v.additional) &&
	    !lint_is_false(v.unevaluated_props))
		ln->facts |= LINT_F_OPEN_OBJECT;
	for (i = 0; i < v.nprops; i++) {
		schema_view_prop(ln->n, i, &p);
		if (p.sub == NULL)
			continue;
		f->properties++;
		if (!p.required) {
			f->optional_members++;
			ln->facts |= LINT_F_OPTIONAL_MEMBER;
		}
	}
	if (v.const_value != NULL && (v.const_value->type == JSON_T_OBJECT ||
	                                 v.const_value->type == JSON_T_ARRAY))
		ln->facts |= LINT_F_ENUM_OBJECT;
	for (i = 0; i < v.nenums; i++) {
		e = schema_view_enum(ln->n, i);
		if (e->type == JSON_T_OBJECT || e->type == JSON_T_ARRAY)
			ln->facts |= LINT_F_ENUM_OBJECT;
	}
	if (v.pattern != NULL) {
		lint_pattern_ask(v.pattern, v.pattern_len, 0, &lp);
		if (lp.lookaround)
			ln->facts |= LINT_F_LOOKAROUND;
		if (!lp.ends_anchored)
			ln->facts |= LINT_F_UNANCHORED;
	}
	if (v.none_of > 1 &&
	    !lint_oneof_disjoint(ln->n, v.none_of, why, sizeof(why)))
		ln->facts |= LINT_F_ONEOF_OVERLAP;
}

size_t
lint_tokens(const char *text, size_t len)
{
	size_t i = 0, j, n = 0;

	/* bounded: each pass consumes at least one byte */
	while (i < len) {
		unsigned char c = (unsigned char)text[i];
		int cls = ((c | 0x20) >= 'a' && (c | 0x20) <= 'z') ? 0
		          : (c >= '0' && c <= '9')                 ? 1
		          : (c == ' ' || c == '\n' || c == '\t' || c == '\r')
		              ? 2
		          : c < 0x80 ? 3
		                     : 4;
		size_t per = cls == 0 ? 4 : cls == 1 ? 3 : cls == 3 ? 2 : 1;

		for (j = i + 1; j < len; j++) {
			unsigned char d = (unsigned char)text[j];
			int dc =
			    ((d | 0x20) >= 'a' && (d | 0x20) <= 'z') ? 0
			    : (d >= '0' && d <= '9')                 ? 1
			    : (d == ' ' || d == '\n' || d == '\t' || d == '\r')
			        ? 2
			    : d < 0x80 ? 3
			               : 4;
			if (dc != cls)
				break;
		}
		/* a single space joins the next word, as BPE vocabularies do */
		if (!(cls == 2 && j - i == 1))
			n += (j - i + per - 1) / per;
		i = j;
	}
	return n;
}

void
lint_facts_free(struct lint_facts *f)
{
	free(f->nodes);
	free(f->bounds);
	free(f->visited);
	free(f->state);
	free(f->slots);
	memset(f, 0, sizeof(*f));
}

int
lint_facts(const struct schema *s, const char *served, size_t served_len,
    struct lint_facts *f)
{
	struct lint_walk w;
	size_t count = schema_view_count(s), i, h, nslots = 16;
	const struct schema_node *root;

	memset(f, 0, sizeof(*f));
	f->s = s;
	f->served_bytes = served_len;
	f->tokens = lint_tokens(served, served_len);
	/* nslots >= 2 * count, a power of two: no overflow below SIZE_MAX/4 */
	while (nslots < 2 * count && nslots < SIZE_MAX / 4)
		nslots *= 2;
	f->nodes = calloc(count > 0 ? count : 1, sizeof(*f->nodes));
	f->bounds = calloc(count > 0 ? count : 1, 1);
	f->visited = calloc(count > 0 ? count : 1, sizeof(*f->visited));
	f->state = calloc(count > 0 ? count : 1, 1);
	f->slots = malloc(nslots * sizeof(*f->slots));
	if (f->nodes == NULL || f->bounds == NULL || f->visited == NULL ||
	    f->state == NULL || f->slots == NULL) {
		lint_facts_free(f);
		return -1;
	}
	f->nslots = nslots;
	for (h = 0; h < nslots; h++)
		f->slots[h] = SIZE_MAX;
	(void)schema_view_each(s, lint_collect, f);
	for (i = 0; i < f->count; i++) {
		/* bounded: the table is at most half full */
		for (h = lint_hash_ptr(f->nodes[i].n, nslots);
		     f->slots[h] != SIZE_MAX; h = (h + 1) & (nslots - 1))
			;
		f->slots[h] = i;
		lint_view_facts(f, &f->nodes[i]);
	}
	root = schema_view_root(s);
	if ((i = lint_index(f, root)) != SIZE_MAX)
		f->nodes[i].facts |= LINT_F_ROOT;
	w.f = f;
	w.r = NULL;
	lint_visit(&w, root, 0, true, 0, 0);
	return 0;
}

void
lint_walk_report(struct lint_facts *f, struct report *r)
{
	struct lint_walk w;
	size_t i;

	/* the walk again, now saying what it finds (the visited marks and
	 * said bits are the walk's own) */
	memset(f->visited, 0, f->count * sizeof(*f->visited));
	for (i = 0; i < f->count; i++)
		f->state[i] &=
		    (unsigned char)~(S_SAID_STR | S_SAID_ARR | S_SAID_OBJ);
	w.f = f;
	w.r = r;
	lint_visit(&w, schema_view_root(f->s), 0, true, 0, 0);
}
