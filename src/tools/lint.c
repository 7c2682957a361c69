/*
 * lint.c: the draft's advice to operators, checked (lint.h): the facts
 * about a form, and the walk from its root that judges bounds.  The other
 * rules are in lint_rules.c, the hook's in lint_hook.c.
 *
 * The rules, each with the draft's reason:
 *   oneof                 "An address SHOULD use anyOf in preference to
 *                         oneOf" (some decoders refuse oneOf); says when
 *                         the branches are provably disjoint, so anyOf
 *                         accepts the same values (schema_facts.h, which
 *                         --strict-openai asks too).
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
#include "schema/schema_facts.h"
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
	size_t n = len < cap - 1 ? len : cap - 1;

	memcpy(out, s, n);
	gpt_mask_controls(out, n);
	out[n] = '\0';
}

/* --- the node index ----------------------------------------------------- */

/* n's place in f->nodes: its dense id (schema_view_id), as lint_facts
 * collects the nodes in that order; SIZE_MAX for true, false and NULL. */
static size_t
lint_index(const struct lint_facts *f, const struct schema_node *n)
{
	size_t id = schema_view_id(n);

	if (id >= f->count || f->nodes[id].n != n)
		return SIZE_MAX;
	return id;
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
 * and those every anyOf (and every oneOf) branch shares, read off the
 * view's one edge enumeration.  Memoized; the in-place graph is acyclic
 * (the compiler refuses a cycle that does not descend into the
 * instance), S_BUSY guards anyway.
 */
static unsigned
lint_deep(struct lint_facts *f, const struct schema_node *n, unsigned level)
{
	struct schema_view_edges it;
	struct schema_view_edge e;
	struct schema_view view;
	const struct schema_view *v = &view;
	unsigned b, any = B_ALL, one = B_ALL;
	size_t k;

	schema_view_get(n, &view);
	schema_view_edges_init(&it, n, SV_EDGES_VIEW);
	if (v->kind != SV_NODE)
		return v->kind == SV_FALSE ? B_ALL : 0;
	if ((k = lint_index(f, n)) == SIZE_MAX)
		return 0;
	if (f->bounds[k] & B_DONE)
		return f->bounds[k] & B_ALL;
	if ((f->state[k] & S_BUSY) || level >= LINT_DEPTH_MAX)
		return lint_own_bounds(v);
	f->state[k] |= S_BUSY;
	b = lint_own_bounds(v);
	while (schema_view_edges_next(&it, &e)) {
		switch (e.kw) {
		case KW_REF:
		case KW_DYNAMICREF:
		case KW_ALLOF:
			b |= lint_deep(f, e.to, level + 1);
			break;
		case KW_ANYOF:
			any &= lint_deep(f, e.to, level + 1);
			break;
		case KW_ONEOF:
			one &= lint_deep(f, e.to, level + 1);
			break;
		default: /* then, else, not, ...: no bound of the node's */
			break;
		}
	}
	if (v->nany_of > 0)
		b |= any;
	if (v->none_of > 0)
		b |= one;
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

/* Visit every subschema of n (the view's one edge enumeration): in place
 * ones with ctx, the values inside with none; tests (if, not, contains)
 * and member names (propertyNames) unjudged. */
static void
lint_children(struct lint_walk *w, const struct schema_node *n,
    const struct schema_view *v, unsigned ctx, bool judge, size_t depth,
    unsigned level)
{
	struct schema_view_edges it;
	struct schema_view_edge e;

	(void)v;
	schema_view_edges_init(&it, n, SV_EDGES_VIEW);
	while (schema_view_edges_next(&it, &e)) {
		if (e.at == SCHEMA_KA_SAME)
			lint_visit(w, e.to, e.tests ? 0 : ctx,
			    judge && !e.tests, depth, level + 1);
		else
			lint_visit(w, e.to, 0,
			    judge && !e.tests && e.at != SCHEMA_KA_NAME,
			    depth + 1, level + 1);
	}
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
	    !schema_facts_oneof_disjoint(ln->n, why, sizeof(why)))
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
	memset(f, 0, sizeof(*f));
}

int
lint_facts(const struct schema *s, const char *served, size_t served_len,
    struct lint_facts *f)
{
	struct lint_walk w;
	size_t count = schema_view_count(s), i;
	const struct schema_node *root;

	memset(f, 0, sizeof(*f));
	f->s = s;
	f->served_bytes = served_len;
	f->tokens = lint_tokens(served, served_len);
	f->nodes = calloc(count > 0 ? count : 1, sizeof(*f->nodes));
	f->bounds = calloc(count > 0 ? count : 1, 1);
	f->visited = calloc(count > 0 ? count : 1, sizeof(*f->visited));
	f->state = calloc(count > 0 ? count : 1, 1);
	if (f->nodes == NULL || f->bounds == NULL || f->visited == NULL ||
	    f->state == NULL) {
		lint_facts_free(f);
		return -1;
	}
	/* in schema_view_each's order: nodes[i] is the node of id i */
	(void)schema_view_each(s, lint_collect, f);
	for (i = 0; i < f->count; i++)
		lint_view_facts(f, &f->nodes[i]);
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
