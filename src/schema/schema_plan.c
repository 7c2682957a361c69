/*
 * schema_plan.c: after every $ref is resolved, check the graph of nodes
 * and plan the validator's fast paths (schema_int.h: need, admits,
 * accepts, accept_min/max).
 *
 * Owns nothing beyond the form arena.  Refuses a $ref cycle that never
 * descends into the instance; warns (once per node) about recursion that
 * does.  The shortcuts only ever skip work whose answer is acceptance.
 */
#include <string.h>

#include "base/arena.h"
#include "schema/format.h"
#include "parser/json.h"
#include "schema/schema_cc.h"
#include "schema/schema_facts.h"
#include "schema/schema_res.h"
#include "schema/schema_view.h"

#define refuse schema_cc_refuse
#define nomem schema_cc_nomem
#define ptr_set schema_cc_ptr_set

/* ----- cycle checks --------------------------------------------------- */

enum { WHITE, GRAY, BLACK };

struct dfs_frame {
	struct cnode *cn;
	struct schema_view_edges it;
};

/*
 * Depth-first search over the compiled nodes, iteratively (the graph may
 * be a long chain), along the compiler's edges (schema_view.h: every
 * subschema a node holds, a bare `if` included, whose annotations an
 * unevaluated* keyword waits for).  With all false, only in-place edges:
 * a cycle there means validation would loop without consuming the
 * instance, and refuses the form.  With all true, a cycle is recursion
 * through the instance: legal, and reported once per node that closes it
 * as a warning.  The enumeration gives the in-place edges first, so with
 * all false the walk of a node ends at its first other edge.
 */
static int
find_cycles(struct cctx *c, bool all)
{
	struct dfs_frame *stack;
	struct cnode *start, *cn;
	size_t top;

	if ((stack = arena_calloc(c->a, c->nnodes + 1, sizeof(*stack))) == NULL)
		return nomem(c), -1;
	for (cn = c->nodes; cn != NULL; cn = cn->next)
		cn->color = WHITE;
	for (start = c->nodes; start != NULL; start = start->next) {
		if (start->color != WHITE)
			continue;
		start->color = GRAY;
		stack[0].cn = start;
		schema_view_edges_init(
		    &stack[0].it, &start->n, SV_EDGES_COMPILED);
		top = 1;
		while (top > 0) {
			struct dfs_frame *f = &stack[top - 1];
			struct schema_view_edge e;
			struct cnode *ce;

			if (!schema_view_edges_next(&f->it, &e) ||
			    (!all && e.at != SCHEMA_KA_SAME)) {
				f->cn->color = BLACK;
				top--;
				continue;
			}
			if (e.to == &schema_node_true ||
			    e.to == &schema_node_false)
				continue;
			ce = (struct cnode *)(uintptr_t)e.to;
			if (ce->color == WHITE) {
				ce->color = GRAY;
				stack[top].cn = ce;
				schema_view_edges_init(
				    &stack[top].it, &ce->n, SV_EDGES_COMPILED);
				top++;
			} else if (ce->color == GRAY && !all) {
				/* {"$defs": {"a": {"$ref": "#/$defs/b"},
				 *   "b": {"$ref": "#/$defs/a"}}} */
				ptr_set(&c->ptr, ce->where, ce->where_len);
				return refuse(c, schema_kw_name(KW_REF),
				           "$ref cycle that never descends "
				           "into the instance"),
				       -1;
			} else if (ce->color == GRAY && !ce->warned &&
			           c->warn != NULL) {
				ce->warned = true;
				c->warn(c->warn_ctx, ce->where,
				    "unbounded recursion (the form allows "
				    "instances nested without limit)");
			}
		}
	}
	return 0;
}

/* ----- shortcuts ------------------------------------------------------ */

#ifdef GPT_TEST
/* Pointers skip_refs followed, in all: the unit tests bound load work by
 * it rather than by a clock. */
size_t schema_test_ref_hops;
#define COUNT_REF_HOP() (schema_test_ref_hops++)
#else
#define COUNT_REF_HOP() ((void)0)
#endif

/* true when n holds nothing but what its flags say: no unevaluated*
 * keyword, and no additionalProperties or items that is `true` (those
 * set no flag, yet evaluate members or items for an unevaluated* above:
 * {"$ref": "#/$defs/t", "unevaluatedProperties": false} is no alias of
 * its target). */
static bool
only_flags(const struct schema_node *n)
{
	return n->uneval_props == NULL && n->uneval_items == NULL &&
	       !n->additional_all && !n->items_all;
}

/* The node a pointer to n may lead to instead, or NULL: the target of a
 * node that holds nothing but a static $ref, or the one branch of a node
 * that holds nothing but an allOf of one ({"allOf": [{"$ref": ...}]}, as
 * draft-07 forms give $ref siblings). */
static const struct schema_node *
alias_target(const struct schema_node *n)
{
	if (n == NULL || n->kind != SCHEMA_K_NODE || !only_flags(n))
		return NULL;
	if (n->flags == SF_REF && n->dyn == SCHEMA_DYN_NONE)
		return n->ref;
	if (n->flags == SF_ALLOF && n->nall_of == 1)
		return n->all_of[0];
	return NULL;
}

static bool
is_pure_ref(const struct schema_node *n)
{
	return alias_target(n) != NULL;
}

/* Point n's alias link at end (n is a cnode, allocated writable, and so
 * is its allOf list). */
static void
alias_set(const struct schema_node *n, const struct schema_node *end)
{
	struct schema_node *w = (struct schema_node *)(uintptr_t)n;

	if (w->flags == SF_REF)
		w->ref = end;
	else
		((const struct schema_node **)(uintptr_t)w->all_of)[0] = end;
}

/*
 * Where a child pointer really leads: past nodes that hold nothing but a
 * $ref (after the cycle check, so the chain ends).  Every pure-$ref node
 * passed on the way is linked to that end too (the link skip_pure_refs
 * gives it anyway), so a chain is walked once: a chain of n such nodes
 * costs about 2n hops in all, where walking it again from each of its
 * nodes cost n^2/2 (a chain of 50,000 took 48 s to load).
 */
static const struct schema_node *
skip_refs(const struct schema_node *n)
{
	const struct schema_node *end = n, *next;

	while (is_pure_ref(end)) {
		COUNT_REF_HOP();
		end = alias_target(end);
	}
	while (n != end) {
		COUNT_REF_HOP();
		next = alias_target(n);
		alias_set(n, end);
		n = next;
	}
	return end;
}

/*
 * Link every child pointer past pure-$ref nodes: {"items": {"$ref":
 * "#/$defs/node"}} then costs the validator one application per item
 * instead of two.  Only what a failure reports changes: the keyword of a
 * `false` reached that way is the referring keyword, not "$ref".
 */
static void
skip_pure_refs(struct cctx *c)
{
	struct cnode *cn;

	/* a pure $ref node may enter a resource of the dynamic scope */
	if (c->dynamic)
		return;
	for (cn = c->nodes; cn != NULL; cn = cn->next) {
		struct schema_view_edges it;
		struct schema_view_edge e;

		/* every field, through the compiler's edges: the node and its
		 * lists were allocated writable here, and only show them
		 * const to the validator */
		schema_view_edges_init(&it, &cn->n, SV_EDGES_COMPILED);
		while (schema_view_edges_next(&it, &e))
			*(const struct schema_node **)(uintptr_t)e.slot =
			    skip_refs(e.to);
	}
}

_Static_assert(JSON_T_NULL == 0 && JSON_T_FALSE == 1 && JSON_T_TRUE == 2 &&
                   JSON_T_NUMBER == 3 && JSON_T_STRING == 4 &&
                   JSON_T_ARRAY == 5 && JSON_T_OBJECT == SCHEMA_NJSON_TYPES - 1,
    "node_plan's table follows enum json_type");

/*
 * Fill n->need, n->admits and n's own shortcuts (see schema_int.h) from
 * its keywords: what the validator would otherwise work out value by
 * value.  node_shortcut then widens the shortcuts through in-place
 * keywords.
 */

/*
 * {"type": "integer", "minimum": 0, "maximum": 1000}: the integers a node
 * accepts without being applied, when only `type`, integer bounds that
 * fit int64 and a numeric format can reject a number (schema_int.h:
 * accept_ilo, accept_ispan; format.h: imin, imax).  A bound such as 0.5
 * or 1e30 leaves no range (the walk decides), and so does a `type` that
 * rules numbers out.
 */
static void
int_range(struct schema_node *n)
{
	static const uint64_t bounds =
	    SF_MINIMUM | SF_MAXIMUM | SF_XMINIMUM | SF_XMAXIMUM | SF_NFORMAT;
	uint64_t need = n->need[JSON_T_NUMBER];
	int64_t lo = INT64_MIN, hi = INT64_MAX;

	n->accept_ilo = 0;
	n->accept_ispan = 0;
	if (need == 0 || (need & ~(SF_TYPE | bounds)) != 0 ||
	    ((need & SF_TYPE) && !(n->types & SCHEMA_TY_INTEGER)))
		return;
	if (need & SF_NFORMAT) {
		if (n->format->imin > lo)
			lo = n->format->imin;
		if (n->format->imax < hi)
			hi = n->format->imax;
	}
	if (need & SF_MINIMUM) {
		if (!n->minimum.is_small)
			return;
		if (n->minimum.i > lo)
			lo = n->minimum.i;
	}
	if (need & SF_XMINIMUM) {
		if (!n->xminimum.is_small || n->xminimum.i == INT64_MAX)
			return;
		if (n->xminimum.i + 1 > lo)
			lo = n->xminimum.i + 1;
	}
	if (need & SF_MAXIMUM) {
		if (!n->maximum.is_small)
			return;
		if (n->maximum.i < hi)
			hi = n->maximum.i;
	}
	if (need & SF_XMAXIMUM) {
		if (!n->xmaximum.is_small || n->xmaximum.i == INT64_MIN)
			return;
		if (n->xmaximum.i - 1 < hi)
			hi = n->xmaximum.i - 1;
	}
	if (lo > hi)
		return;
	n->accept_ilo = (uint64_t)lo;
	/* the whole of int64 loses INT64_MAX, which the walk then decides */
	n->accept_ispan = (uint64_t)hi - (uint64_t)lo + 1;
	if (n->accept_ispan == 0)
		n->accept_ispan = UINT64_MAX;
}

static void
node_plan(struct schema_node *n)
{
	/* Per JSON type (enum json_type order): its `type` bit and the
	 * keywords that apply to it alone. */
	static const struct {
		unsigned ty;
		uint64_t own;
	} per[SCHEMA_NJSON_TYPES] = {
	    {SCHEMA_TY_NULL, 0},
	    {SCHEMA_TY_BOOLEAN, 0},
	    {SCHEMA_TY_BOOLEAN, 0},
	    {SCHEMA_TY_NUMBER, SF_NUMBER_MASK},
	    {SCHEMA_TY_STRING, SF_STRING_MASK},
	    {SCHEMA_TY_ARRAY, SF_ARRAY_MASK},
	    {SCHEMA_TY_OBJECT, SF_OBJECT_MASK},
	};
	const uint64_t any = SF_ENUM | SF_CONST | SF_INPLACE_MASK;
	size_t t;

	n->admits = 0;
	for (t = 0; t < SCHEMA_NJSON_TYPES; t++) {
		bool typed = (n->flags & SF_TYPE) != 0;
		bool listed = (n->types & per[t].ty) != 0;
		/* {"type": "integer"} admits 1 and 1.0, not 1.5 */
		bool maybe = per[t].ty == SCHEMA_TY_NUMBER &&
		             (n->types & SCHEMA_TY_INTEGER) != 0;

		n->need[t] = n->flags & (per[t].own | any);
		if (typed && !listed)
			n->need[t] |= SF_TYPE;
		if (!typed || listed || maybe)
			n->admits |= 1u << t;
	}
	if (n->need[JSON_T_OBJECT] != 0 &&
	    (n->names != NULL || n->npprops > 0 || n->ndepreq > 0))
		n->need[JSON_T_OBJECT] |= SF_MEMBERS_FULL;
	n->accepts = 0;
	for (t = 0; t < SCHEMA_NJSON_TYPES; t++)
		if (n->need[t] == 0)
			n->accepts |= 1u << t;
	/* {"type": "string", "maxLength": 80}: absent bounds are 0 and
	 * SIZE_MAX */
	n->accept_min = 1;
	n->accept_max = 0;
	if ((n->need[JSON_T_STRING] & ~(uint64_t)SF_LENGTH_MASK) == 0) {
		n->accept_min = n->min_length;
		n->accept_max = n->max_length;
	}
	int_range(n);
}

/* The in-place keywords a shortcut can see through. */
#define SHORTCUT_INPLACE (SF_REF | SF_ALLOF | SF_ANYOF)

/* The first branch of an anyOf whose `type` admits JSON type t: the one
 * the validator applies first (it skips the others), or NULL. */
static const struct schema_node *
first_admitting(const struct schema_node *n, size_t t)
{
	size_t i;

	for (i = 0; i < n->nany_of; i++)
		if ((n->any_of[i]->admits >> t) & 1u)
			return n->any_of[i];
	return NULL;
}

/* true when every instance of JSON type t passes n's in-place keywords
 * (need holds nothing else) without any work, as the validator runs
 * them: $ref, every allOf branch, then anyOf's first admitting branch. */
static bool
inplace_accepts(const struct schema_node *n, uint64_t need, size_t t)
{
	const struct schema_node *first;
	uint32_t bit = 1u << t;
	size_t i;

	if ((need & SF_REF) && (n->ref == NULL || n->dyn != SCHEMA_DYN_NONE ||
	                           !(n->ref->accepts & bit)))
		return false;
	if (need & SF_ALLOF)
		for (i = 0; i < n->nall_of; i++)
			if (!(n->all_of[i]->accepts & bit))
				return false;
	if ((need & SF_ANYOF) && ((first = first_admitting(n, t)) == NULL ||
	                             !(first->accepts & bit)))
		return false;
	return true;
}

/* Narrow [*lo, *hi] to the strings sub accepts by its shortcuts. */
static void
narrow(const struct schema_node *sub, size_t *lo, size_t *hi)
{
	if (sub->accepts & (1u << JSON_T_STRING))
		return;
	if (sub->accept_min > *lo)
		*lo = sub->accept_min;
	if (sub->accept_max < *hi)
		*hi = sub->accept_max;
}

/*
 * Widen n's shortcuts through $ref, allOf and anyOf (see schema_int.h).
 * {"anyOf": [{"$ref": "#/$defs/text"}, {"$ref": "#/$defs/span"}]} then
 * accepts a short string at once, as applying it would after trying the
 * text branch.  true when something changed.
 */
static bool
node_shortcut(struct schema_node *n)
{
	uint32_t acc = n->accepts;
	uint64_t need;
	size_t t, i, lo, hi;
	const struct schema_node *first;
	bool changed;

	if (n->kind != SCHEMA_K_NODE)
		return false;
	for (t = 0; t < SCHEMA_NJSON_TYPES; t++) {
		need = n->need[t];
		if ((need & ~(uint64_t)SHORTCUT_INPLACE) == 0 &&
		    inplace_accepts(n, need, t))
			acc |= 1u << t;
	}
	need = n->need[JSON_T_STRING];
	lo = 1;
	hi = 0;
	if (acc & (1u << JSON_T_STRING)) {
		lo = 0;
		hi = SIZE_MAX;
	} else if ((need & ~(uint64_t)(SF_LENGTH_MASK | SHORTCUT_INPLACE)) ==
	           0) {
		lo = n->min_length;
		hi = n->max_length;
		if ((need & SF_REF) &&
		    (n->ref == NULL || n->dyn != SCHEMA_DYN_NONE))
			hi = 0, lo = 1;
		else if (need & SF_REF)
			narrow(n->ref, &lo, &hi);
		if (need & SF_ALLOF)
			for (i = 0; i < n->nall_of; i++)
				narrow(n->all_of[i], &lo, &hi);
		if (need & SF_ANYOF) {
			if ((first = first_admitting(n, JSON_T_STRING)) == NULL)
				hi = 0, lo = 1;
			else
				narrow(first, &lo, &hi);
		}
	}
	changed = acc != n->accepts;
	n->accepts = acc;
	/* a node's inputs only ever widen, so its range only widens */
	if (lo <= hi && (lo != n->accept_min || hi != n->accept_max)) {
		n->accept_min = lo;
		n->accept_max = hi;
		changed = true;
	}
	return changed;
}

/* ----- member names: a perfect hash ----------------------------------- */

/* Multiplier pairs tried per table size, and the table sizes tried: from
 * twice the names up to 32 times (at most 2^14 entries). */
#define PH_TRIES 32
#define PH_GROW 4
#define PH_MAX_BITS 14

static uint64_t
splitmix(uint64_t *state)
{
	uint64_t z = (*state += UINT64_C(0x9E3779B97F4A7C15));

	z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
	return z ^ (z >> 31);
}

/*
 * The n names of slots told apart by their lengths (modulo
 * SCHEMA_PH_LENS) into ph->by_len, or false when two share one.  The
 * lookup is then a load from a table in the node's cache lines, where the
 * multiplicative function costs two products and a guess of the order
 * costs a missed branch on every member out of the form's order.
 * 0, 1 (built), or -1 (no memory).
 */
static int
ph_by_len(struct cctx *c, const struct schema_slot *slots, uint32_t n,
    struct schema_ph *ph)
{
	uint64_t lens = 0;
	uint8_t *by_len;
	uint32_t i;

	if (n > SCHEMA_PH_LENS)
		return 0;
	for (i = 0; i < n; i++) {
		uint64_t bit = (uint64_t)1 << (slots[i].len % SCHEMA_PH_LENS);

		if (lens & bit)
			return 0;
		lens |= bit;
	}
	if ((by_len = arena_calloc(c->a, SCHEMA_PH_LENS, 1)) == NULL)
		return nomem(c), -1;
	for (i = 0; i < n; i++)
		by_len[slots[i].len % SCHEMA_PH_LENS] = (uint8_t)(i + 1);
	ph->by_len = by_len;
	return 1;
}

/*
 * Search a perfect hash (schema_int.h, struct schema_ph) for the n names
 * of slots into *ph: the names' lengths when they differ, else a
 * multiplicative function; ph->by_len and ph->tab stay NULL when none is
 * found in the tries (the keyed table then serves, as before).
 * Deterministic: a form gets the same functions on every load.  0, or -1
 * (no memory).
 */
static int
ph_build(struct cctx *c, const struct schema_slot *slots, uint32_t n,
    struct schema_ph *ph)
{
	uint16_t *tab = NULL;
	uint64_t state = UINT64_C(0x6a09e667f3bcc908);
	unsigned bits = 1, grow, try;
	uint32_t i;
	int r;

	ph->tab = NULL;
	ph->by_len = NULL;
	if (n == 0 || n > SCHEMA_PH_MAX)
		return 0;
	if ((r = ph_by_len(c, slots, n, ph)) != 0)
		return r < 0 ? -1 : 0;
	while (((uint32_t)1 << bits) < 2 * n)
		bits++;
	for (grow = 0; grow <= PH_GROW && bits <= PH_MAX_BITS; grow++, bits++) {
		size_t size = (size_t)1 << bits;

		if ((tab = arena_calloc(c->a, size, sizeof(*tab))) == NULL)
			return nomem(c), -1;
		for (try = 0; try < PH_TRIES; try++) {
			uint32_t j;

			ph->m1 = splitmix(&state) | 1;
			ph->m2 = splitmix(&state) | 1;
			ph->shift = 64 - bits;
			for (i = 0; i < n; i++) {
				uint32_t h = schema_ph_slot(
				    ph, slots[i].wa, slots[i].wb, slots[i].len);

				if (tab[h] != 0)
					break;
				tab[h] = (uint16_t)(i + 1);
			}
			if (i == n) {
				ph->tab = tab;
				return 0;
			}
			/* a collision: clear what this try set, no more (a
			 * try costs the names it placed, not the table) */
			for (j = 0; j < i; j++)
				tab[schema_ph_slot(ph, slots[j].wa, slots[j].wb,
				    slots[j].len)] = 0;
		}
		/* the arena keeps the failed table: a load-time cost only */
	}
	return 0;
}

/* Every node's slot names get their perfect hash. */
static int
plan_ph(struct cctx *c)
{
	struct cnode *cn;

	for (cn = c->nodes; cn != NULL; cn = cn->next)
		if (cn->n.nslots > 0 && ph_build(c, cn->n.slots, cn->n.nslots,
		                            &cn->n.slot_ph) == -1)
			return -1;
	return 0;
}

/* ----- unevaluatedProperties decided at load -------------------------- */

/* The most nodes and names the static plans of one form may look at in
 * all: past it the nodes left keep the collecting walk (the same answers,
 * only slower), so many such nodes sharing a large subgraph cannot make a
 * load quadratic. */
#define UNEVAL_STATIC_BUDGET ((size_t)1 << 20)

static bool
is_cnode(const struct schema_node *e)
{
	return e != NULL && e != &schema_node_true && e != &schema_node_false;
}

/* Push e (a child of a node being walked) unless this walk saw it. */
static void
reach_push(const struct schema_node *e, uint32_t visit, struct cnode **stack,
    size_t *top)
{
	struct cnode *cn;

	if (!is_cnode(e))
		return;
	cn = (struct cnode *)(uintptr_t)e;
	if (cn->visit != visit) {
		cn->visit = visit;
		stack[(*top)++] = cn;
	}
}

/*
 * The nodes start reaches in place through $ref and allOf (start first,
 * then in the order the validator applies them), into list (*len), with
 * *names the `properties` names among them.  false when what they
 * evaluate depends on the instance (anyOf, oneOf, if, dependentSchemas,
 * patternProperties, a dynamic reference) or the budget is spent.
 */
static bool
uneval_reach(struct cnode *start, uint32_t visit, struct cnode **stack,
    struct cnode **list, size_t *len, size_t *names, size_t *budget)
{
	struct schema_view_edges it;
	struct schema_view_edge e;
	size_t top = 0, from, i, j;

	*len = 0;
	*names = 0;
	start->visit = visit;
	stack[top++] = start;
	while (top > 0) {
		struct cnode *cn = stack[--top];
		const struct schema_node *n = &cn->n;

		if (*budget < 1 + (size_t)n->nslots)
			return false;
		*budget -= 1 + (size_t)n->nslots;
		if (n->npprops > 0 || n->nany_of > 0 || n->none_of > 0 ||
		    n->if_ != NULL || n->ndepsch > 0 ||
		    n->dyn > SCHEMA_DYN_STATIC)
			return false;
		list[(*len)++] = cn;
		for (i = 0; i < n->nslots; i++)
			*names += n->slots[i].sub != NULL;
		/* $ref, the static target, allOf: pushed in the edges'
		 * order, then turned round, so that they pop in the
		 * validator's */
		from = top;
		schema_view_edges_init(&it, n, SV_EDGES_COMPILED);
		while (
		    schema_view_edges_next(&it, &e) && e.at == SCHEMA_KA_SAME)
			if (e.kw == KW_REF || e.kw == KW_DYNAMICREF ||
			    e.kw == KW_ALLOF)
				reach_push(e.to, visit, stack, &top);
		for (i = from, j = top; i + 1 < j; i++, j--) {
			struct cnode *t = stack[i];

			stack[i] = stack[j - 1];
			stack[j - 1] = t;
		}
	}
	return true;
}

/* n->uneval_names (or uneval_all) from the len nodes of list.  0, or -1
 * (no memory). */
static int
uneval_build(struct cctx *c, struct schema_node *n, struct cnode *const *list,
    size_t len, size_t names)
{
	struct schema_names *u = &n->uneval_names;
	struct schema_slot *slot;
	uint32_t *table, k;
	size_t size = 8, i, j;

	for (i = 0; i < len; i++) {
		const struct schema_node *m = &list[i]->n;

		/* {"allOf": [{"additionalProperties": {...}}],
		 *  "unevaluatedProperties": false}: nothing is left */
		if (m->additional_all || (m != n && m->uneval_props != NULL)) {
			n->uneval_all = true;
			return 0;
		}
	}
	while (size < 2 * names)
		size *= 2;
	slot = arena_calloc(c->a, names > 0 ? names : 1, sizeof(*slot));
	table = arena_calloc(c->a, size, sizeof(*table));
	if (slot == NULL || table == NULL)
		return nomem(c), -1;
	u->n = 0;
	for (i = 0; i < len; i++) {
		const struct schema_node *m = &list[i]->n;

		for (j = 0; j < m->nslots; j++) {
			const struct schema_slot *s = &m->slots[j];
			uint32_t b = (uint32_t)s->hash & (uint32_t)(size - 1);

			if (s->sub == NULL)
				continue; /* named by required only */
			while ((k = table[b]) != 0 &&
			       !(slot[k - 1].hash == s->hash &&
			           slot[k - 1].len == s->len &&
			           schema_key_eq(
			               slot[k - 1].name, s->name, s->len)))
				b = (b + 1) & (uint32_t)(size - 1);
			if (k != 0)
				continue; /* named by two of them */
			slot[u->n].name = s->name;
			slot[u->n].len = s->len;
			slot[u->n].hash = s->hash;
			slot[u->n].wa = s->wa;
			slot[u->n].wb = s->wb;
			table[b] = ++u->n;
			u->lens |= (uint64_t)1 << (s->len % 64);
			u->firsts |=
			    (uint64_t)1
			    << (s->len > 0 ? (unsigned char)s->name[0] % 64
			                   : 0);
		}
	}
	u->slots = slot;
	u->table = table;
	u->mask = (uint32_t)(size - 1);
	return ph_build(c, slot, u->n, &u->ph);
}

/*
 * Decide at load what each unevaluatedProperties node's in-place
 * subschemas evaluate, where that does not depend on the instance
 * (schema_node.uneval_static): {"allOf": [{"$ref": "#/$defs/Resource"},
 * {"properties": {...}}], "unevaluatedProperties": false}, as OpenAPI
 * composes objects.  Not with the dynamic scope, nor for a node that
 * also has unevaluatedItems (both keep the collecting walk).
 */
static int
plan_uneval_static(struct cctx *c)
{
	struct cnode **stack = NULL, **list = NULL, *cn;
	size_t budget = UNEVAL_STATIC_BUDGET, len, names;
	uint32_t visit = 0;

	if (c->dynamic)
		return 0;
	for (cn = c->nodes; cn != NULL; cn = cn->next)
		cn->visit = 0;
	for (cn = c->nodes; cn != NULL; cn = cn->next) {
		if (!cn->own_collect || cn->n.uneval_props == NULL ||
		    cn->n.uneval_items != NULL)
			continue;
		if (stack == NULL &&
		    ((stack = arena_alloc(
		          c->a, (c->nnodes + 1) * sizeof(*stack))) == NULL ||
		        (list = arena_alloc(
		             c->a, (c->nnodes + 1) * sizeof(*list))) == NULL))
			return nomem(c), -1;
		if (!uneval_reach(
		        cn, ++visit, stack, list, &len, &names, &budget))
			continue;
		if (uneval_build(c, &cn->n, list, len, names) == -1)
			return -1;
		cn->n.uneval_static = true;
	}
	return 0;
}

/*
 * Mark collect (and SF_SPECIAL) on every node an unevaluated* keyword
 * depends on, unless plan_uneval_static decided it at load: the node
 * holding it and, in place from there, $ref, $dynamicRef and
 * $recursiveRef (every dynamic target: the anchors and recursive roots of
 * every resource), allOf, anyOf, oneOf, if, then, else, dependentSchemas.
 * Such a node reports what it evaluated; every other node is planned as
 * before, so a form without unevaluated* costs nothing more.
 */
static int
plan_collect(struct cctx *c)
{
	struct cnode **stack, *cn;
	size_t top = 0;
	bool dyn_done = false;

	if ((stack = arena_alloc(c->a, (c->nnodes + 1) * sizeof(*stack))) ==
	    NULL)
		return nomem(c), -1;
	for (cn = c->nodes; cn != NULL; cn = cn->next) {
		cn->color = WHITE;
		/* decided at load: only the node's own last step remains */
		if (cn->n.uneval_static)
			cn->n.need[JSON_T_OBJECT] |= SF_SPECIAL;
		else if (cn->own_collect) {
			cn->color = BLACK;
			stack[top++] = cn;
		}
	}
	while (top > 0) {
		struct schema_node *n = &stack[--top]->n;
		const struct schema_node *e;
		struct schema_view_edges it;
		struct schema_view_edge ed;

		n->collect = true;
		n->need[JSON_T_OBJECT] |= SF_SPECIAL;
		n->need[JSON_T_ARRAY] |= SF_SPECIAL;
		if (n->nslots > 0 || n->npprops > 0 || n->additional_all)
			n->need[JSON_T_OBJECT] |=
			    n->flags & SF_MEMBERS ? 0 : SF_MEMBERS;
		if (n->nprefix > 0 || n->items_all)
			n->need[JSON_T_ARRAY] |= SF_ITEMS;
		n->flags |=
		    (n->nslots > 0 || n->npprops > 0 || n->additional_all)
		        ? SF_MEMBERS
		        : 0;
		n->flags |= (n->nprefix > 0 || n->items_all) ? SF_ITEMS : 0;
		/* in place, but not `not`, which drops annotations */
		schema_view_edges_init(&it, n, SV_EDGES_COMPILED);
		while (schema_view_edges_next(&it, &ed) &&
		       ed.at == SCHEMA_KA_SAME) {
			if (ed.kw == KW_NOT || !is_cnode(ed.to))
				continue;
			cn = (struct cnode *)(uintptr_t)ed.to;
			if (cn->color != BLACK) {
				cn->color = BLACK;
				stack[top++] = cn;
			}
		}
		if (n->dyn > SCHEMA_DYN_STATIC && !dyn_done) {
			const struct res_resource *r;
			uint32_t i;

			dyn_done = true;
			for (r = c->resources; r != NULL; r = r->next) {
				for (i = 0; i <= r->rt->nanchors; i++) {
					e = i < r->rt->nanchors
					        ? r->rt->anchors[i].node
					        : r->rt->root;
					if (e == NULL ||
					    e->kind != SCHEMA_K_NODE)
						continue;
					cn = (struct cnode *)(uintptr_t)e;
					if (cn->color != BLACK) {
						cn->color = BLACK;
						stack[top++] = cn;
					}
				}
			}
		}
	}
	return 0;
}

/* The gates of the n branches br of an anyOf or oneOf, into *out (NULL
 * when no branch has one).  0, or -1 with no memory. */
static int
plan_gates(struct cctx *c, const struct schema_node *const *br, size_t n,
    const struct schema_gate *const **out)
{
	const struct json_value *vals[SCHEMA_FACTS_VALS_MAX];
	const struct schema_gate **gates = NULL;
	const struct json_value **kept;
	struct schema_gate *g;
	size_t i, nvals, len;
	const char *name;

	*out = NULL;
	/* the first SCHEMA_FACTS_ONEOF_MAX: a gate only saves work, and
	 * finding one costs up to SCHEMA_FACTS_GATE_NODES node looks */
	for (i = 0; i < n && i < SCHEMA_FACTS_ONEOF_MAX; i++) {
		if (!schema_facts_gate(br[i], &name, &len, vals,
		        SCHEMA_FACTS_VALS_MAX, &nvals))
			continue;
		if ((gates == NULL && (gates = arena_calloc(
		                           c->a, n, sizeof(*gates))) == NULL) ||
		    (g = arena_calloc(c->a, 1, sizeof(*g))) == NULL ||
		    (kept = arena_calloc(c->a, nvals + 1, sizeof(*kept))) ==
		        NULL)
			return nomem(c), -1;
		memcpy(kept, vals, nvals * sizeof(*kept));
		g->name = name;
		g->len = len;
		g->vals = kept;
		g->nvals = nvals;
		gates[i] = g;
	}
	*out = gates;
	return 0;
}

/* Passes of node_shortcut over the form.  Children are mostly made after
 * their parents, so walking backwards settles most forms in one pass;
 * stopping early only leaves shortcuts untaken, never wrong. */
#define SHORTCUT_PASSES 8

/* true when the validator may accept some string, number, boolean or
 * null against e without applying it (its shortcuts, schema_int.h). */
static bool
accepts_a_scalar(const struct schema_node *e)
{
	const uint32_t scalars = (1u << JSON_T_NULL) | (1u << JSON_T_FALSE) |
	                         (1u << JSON_T_TRUE) | (1u << JSON_T_NUMBER) |
	                         (1u << JSON_T_STRING);

	return (e->accepts & scalars) != 0 || e->accept_min <= e->accept_max ||
	       e->accept_ispan != 0;
}

/*
 * SF_MEMBERS_LEAF (schema_int.h), once the shortcuts are final: a member
 * walk alone, names by length, and every subschema with a shortcut for
 * some scalar.  additionalProperties false counts as one too: a member it
 * meets makes the object invalid, which the full walk then reports.
 */
static void
plan_members_leaf(struct schema_node *n)
{
	const uint64_t need = n->need[JSON_T_OBJECT];
	uint32_t i;

	if (need == 0 || (need & ~(uint64_t)(SF_MEMBERS | SF_REQUIRED)) != 0 ||
	    n->slot_ph.by_len == NULL)
		return;
	if (n->additional != NULL && n->additional != &schema_node_false &&
	    !accepts_a_scalar(n->additional))
		return;
	for (i = 0; i < n->nslots; i++)
		if (n->slots[i].sub != NULL &&
		    !accepts_a_scalar(n->slots[i].sub))
			return;
	n->need[JSON_T_OBJECT] |= SF_MEMBERS_LEAF;
}

static int
plan_nodes(struct cctx *c)
{
	struct cnode **order, *cn;
	size_t i, pass;
	bool changed = true;
	char why[128];

	for (cn = c->nodes; cn != NULL; cn = cn->next) {
		node_plan(&cn->n);
		/* a oneOf of discriminated objects (a required "op" or "kind"
		 * of a distinct const in each) checks one branch, not all */
		if (cn->n.none_of >= 2)
			cn->n.one_of_disjoint = schema_facts_oneof_disjoint(
			    &cn->n, why, sizeof(why));
		if ((cn->n.nany_of >= 2 &&
		        plan_gates(c, cn->n.any_of, cn->n.nany_of,
		            &cn->n.any_gates) == -1) ||
		    (cn->n.none_of >= 2 &&
		        plan_gates(c, cn->n.one_of, cn->n.none_of,
		            &cn->n.one_gates) == -1))
			return -1;
	}
	if (plan_ph(c) == -1 || plan_uneval_static(c) == -1 ||
	    plan_collect(c) == -1)
		return -1;
	if (c->dynamic)
		for (cn = c->nodes; cn != NULL; cn = cn->next) {
			cn->n.scoped = true;
			for (i = 0; i < SCHEMA_NJSON_TYPES; i++)
				cn->n.need[i] |= SF_SPECIAL;
		}
	for (cn = c->nodes; cn != NULL; cn = cn->next)
		for (i = 0; i < SCHEMA_NJSON_TYPES; i++)
			if (cn->n.need[i] != 0)
				cn->n.accepts &= ~(1u << i);
	if ((order = arena_alloc(c->a, (c->nnodes + 1) * sizeof(*order))) ==
	    NULL)
		return nomem(c), -1;
	for (i = 0, cn = c->nodes; cn != NULL; cn = cn->next)
		order[i++] = cn;
	for (pass = 0; pass < SHORTCUT_PASSES && changed; pass++) {
		changed = false;
		for (i = c->nnodes; i > 0; i--)
			changed |= node_shortcut(&order[i - 1]->n);
	}
	for (cn = c->nodes; cn != NULL; cn = cn->next)
		plan_members_leaf(&cn->n);
	return 0;
}

int
schema_plan(struct cctx *c)
{
	if (find_cycles(c, false) == -1 || find_cycles(c, true) == -1)
		return -1;
	skip_pure_refs(c);
	return plan_nodes(c);
}

const struct schema_node *
schema_plan_entry(const struct cctx *c, const struct schema_node *root)
{
	const struct schema_node *end;

	/* skip_pure_refs made the same choice for every other pointer; a
	 * `false` at the end is left to be reached through the root, so
	 * that the report names the keyword that led there */
	if (c->dynamic || root == NULL)
		return root;
	end = skip_refs(root);
	return end->kind == SCHEMA_K_NODE ? end : root;
}

void
schema_plan_cycles(struct cctx *c)
{
	/* the nodes' places are not tied to a document here: such a
	 * problem sorts after the form's own */
	c->ptr_root = NULL;
	(void)find_cycles(c, false); /* its outcome is recorded in c */
}
