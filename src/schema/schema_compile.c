/*
 * schema_compile.c: turn a parsed form (JSON Schema in the dialect its
 * $schema names, or the default one: draft-04 to 2020-12 and v1) into the
 * compiled nodes of schema_int.h, once, at load.
 *
 * Owns: nothing beyond the form arena it is given (nodes, tables, compiled
 * patterns).  Borrows the schema tree's strings and numbers for as long as
 * the compiled form lives.
 *
 * Refuses (fail closed, whole document): a name that is no keyword of the
 * dialect, nor one a later dialect lends it (const or prefixItems in a
 * draft-04 form keep their later meaning, schema_kw_find), nor an
 * annotation (x- names, the names the address declares, the known tools'
 * of schemas/annotations.json); any malformed keyword value; a `format`
 * name format.h does not know; an unknown $schema; a required $vocabulary
 * gpt.fcgi does not implement; a $ref that names nothing in the document
 * or in the resources the address provides (schema_res.c); a $ref cycle
 * that makes no progress into the instance (schema_plan.c); nesting past
 * SCHEMA_MAX_DEPTH.  Not refused, and not enforced: a keyword of a
 * vocabulary the meta-schema's $vocabulary leaves out (an annotation,
 * 2020-12 section 8.1.2).  The siblings of $ref in draft-04 to 07 are
 * applied, as from 2019-09 (a warning says so).  Every schema under $defs
 * (definitions) is compiled, so checked, even when unused.
 *
 * With a problems collector (schema_opts.problems, for --check) a refusal
 * is recorded and the walk goes on with the next keyword, item or member
 * (kw_failed), leaving the failed keyword out of its node; the form is
 * still refused at the end.  Without one, the first refusal ends the walk
 * (the responder: fail closed, no work past it).
 *
 * Each schema location is compiled once (memoized by its json_value), so a
 * $ref back to an ancestor links to the node already built.  The other
 * jobs of the compiler live apart (schema_cc.h): which keywords exist in
 * schema_dialect.c (the registry), what a $ref names in schema_res.c,
 * cycle checks and the fast paths in schema_plan.c, refusals and the
 * problems of --check in schema_cc.c.  None of them calls back into this
 * file: schema_res.c compiles a reference's target through the context's
 * compile function.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "base/arena.h"
#include "base/dec.h"
#include "schema/format.h"
#include "parser/jptr.h"
#include "parser/json.h"
#include "parser/re.h"
#include "schema/schema.h"
#include "schema/schema_int.h"
#include "schema/schema_annot.h"
#include "schema/schema_cc.h"
#include "schema/schema_res.h"

/* Short local names for the shared helpers (schema_cc.h). */
#define refuse schema_cc_refuse
#define nomem schema_cc_nomem
#define compile_value schema_cc_value

const struct schema_node schema_node_false = {.kind = SCHEMA_K_FALSE,
    .need = {SF_FALSE, SF_FALSE, SF_FALSE, SF_FALSE, SF_FALSE, SF_FALSE,
        SF_FALSE},
    .admits = 0,
    .accepts = 0,
    .accept_min = 1,
    .accept_max = 0};
const struct schema_node schema_node_true = {.kind = SCHEMA_K_TRUE,
    .admits = ALL_TYPES,
    .accepts = ALL_TYPES,
    .accept_min = 0,
    .accept_max = SIZE_MAX};
/* ----- errors ------------------------------------------------------- */

/* ----- keyword value readers ----------------------------------------- */

static bool
str_is(const struct json_value *v, const char *s)
{
	size_t n = strlen(s);

	return v->type == JSON_T_STRING && v->u.str.len == n &&
	       memcmp(v->u.str.ptr, s, n) == 0;
}

/* A non-negative integer (2.0 and 1e2 count, per 2020-12), saturated at
 * SIZE_MAX: a length that large can never be reached anyway. */
static int
read_count(
    struct cctx *c, const struct json_value *v, const char *kw, size_t *out)
{
	struct dec d;
	size_t i, n = 0;

	/* {"minLength": "3"} */
	if (v->type != JSON_T_NUMBER)
		return refuse(c, kw, "%s must be a non-negative integer", kw),
		       -1;
	/* {"minLength": 1e99999999999999} */
	if (dec_parse(v->u.num.text, v->u.num.len, &d) == -1)
		return refuse(c, kw, "%s is out of range", kw), -1;
	/* {"minLength": -1}, {"minLength": 1.5} */
	if (d.neg || !dec_is_integer(&d))
		return refuse(c, kw, "%s must be a non-negative integer", kw),
		       -1;
	if (d.ndigits == 0) {
		*out = 0;
		return 0;
	}
	if (d.exp > 20 || d.ndigits + (size_t)d.exp > 20) {
		*out = SIZE_MAX;
		return 0;
	}
	for (i = 0; i < d.ndigits + (size_t)d.exp; i++) {
		unsigned digit =
		    i < d.ndigits ? (unsigned)(dec_digit(&d, i) - '0') : 0;

		if (n > (SIZE_MAX - digit) / 10) {
			n = SIZE_MAX;
			break;
		}
		n = n * 10 + digit;
	}
	*out = n;
	return 0;
}

static int
read_num(struct cctx *c, const struct json_value *v, const char *kw,
    struct schema_num *out)
{
	/* {"minimum": "0"} */
	if (v->type != JSON_T_NUMBER)
		return refuse(c, kw, "%s must be a number", kw), -1;
	/* {"maximum": 1e99999999999999} */
	if (dec_parse(v->u.num.text, v->u.num.len, &out->d) == -1)
		return refuse(c, kw, "%s is out of range", kw), -1;
	out->v = v;
	out->is_small = v->u.num.is_small_int;
	out->i = v->u.num.i;
	out->is_short =
	    dec_short(v->u.num.text, v->u.num.len, &out->mant, &out->exp);
	return 0;
}

/* ----- going on past a problem ---------------------------------------- */

/*
 * A keyword's reader failed: -1 ends the walk (the first problem is
 * enough, or the arena refused); 0 goes on with the next keyword or
 * subschema (every problem is wanted: schema_opts.problems), the failure
 * noted in *bad and the pointer cut back to at, where the reader began.
 * The keyword that failed is then left out of the node: its flag is not
 * set, its pointers stay NULL, so what compiled stays a consistent graph.
 */
static int
kw_failed(struct cctx *c, size_t at, bool *bad)
{
	*bad = true;
	if (!schema_cc_go_on(c))
		return -1;
	jptr_pop(&c->ptr, at);
	return 0;
}

/* Run expr (a keyword's reader: 0 or -1) and go on past its refusal as
 * kw_failed says; at is the pointer's length before it. */
#define KW_STEP(c, at, bad, expr)                                              \
	do {                                                                   \
		if ((expr) == -1 && kw_failed((c), (at), &(bad)) == -1)        \
			return -1;                                             \
	} while (0)

/* Compile v as the schema under keyword kw (pointer /kw). */
static const struct schema_node *
compile_sub(struct cctx *c, const struct json_value *v, const char *kw)
{
	size_t mark = jptr_push(&c->ptr, kw, strlen(kw));
	const struct schema_node *n = compile_value(c, v);

	jptr_pop(&c->ptr, mark);
	return n;
}

/* A non-empty (when nonempty) array of schemas under kw. */
static const struct schema_node *const *
compile_list(
    struct cctx *c, const struct json_value *v, const char *kw, size_t *count)
{
	const struct schema_node **list = NULL;
	size_t mark, mark2, i;
	bool bad = false;

	mark = jptr_push(&c->ptr, kw, strlen(kw));
	/* {"anyOf": {}} */
	if (v->type != JSON_T_ARRAY)
		refuse(c, kw, "%s must be an array of schemas", kw);
	/* {"anyOf": []} */
	else if (v->u.arr.count == 0)
		refuse(c, kw, "%s must not be empty", kw);
	else if ((list = arena_calloc(c->a, v->u.arr.count, sizeof(*list))) ==
	         NULL)
		nomem(c);
	if (list == NULL) {
		jptr_pop(&c->ptr, mark);
		return NULL;
	}
	/* every item is checked, even after one fails (--check) */
	for (i = 0; i < v->u.arr.count; i++) {
		mark2 = jptr_push_index(&c->ptr, i);
		if ((list[i] = compile_value(c, &v->u.arr.items[i])) == NULL &&
		    kw_failed(c, mark2, &bad) == -1)
			return NULL;
		jptr_pop(&c->ptr, mark2);
	}
	jptr_pop(&c->ptr, mark);
	if (bad)
		return NULL;
	*count = v->u.arr.count;
	return list;
}

/* ----- object keywords: the member-name slots -------------------------- */

struct slots {
	struct schema_slot *slot;
	uint32_t n, cap;
	uint32_t *table;
	uint32_t mask;
	uint32_t *stamp; /* per slot: last list that named it (duplicates) */
};

static int
slots_init(struct cctx *c, struct slots *s, size_t bound)
{
	size_t size = 8;

	/* {"required": [... 2^32 names ...]}: not a form anyone serves. */
	if (bound > UINT32_MAX / 4)
		return refuse(c, NULL, "too many member names"), -1;
	while (size < 2 * bound)
		size *= 2;
	s->n = 0;
	s->cap = (uint32_t)bound;
	s->mask = (uint32_t)size - 1;
	s->slot = arena_calloc(c->a, bound == 0 ? 1 : bound, sizeof(*s->slot));
	s->stamp =
	    arena_calloc(c->a, bound == 0 ? 1 : bound, sizeof(*s->stamp));
	s->table = arena_calloc(c->a, size, sizeof(*s->table));
	if (s->slot == NULL || s->stamp == NULL || s->table == NULL)
		return nomem(c), -1;
	return 0;
}

/* The slot index of name, added when new. */
static uint32_t
slots_get(struct slots *s, const struct json_string *name)
{
	uint64_t h = hash_bytes(name->ptr, name->len);
	uint32_t i = (uint32_t)h & s->mask, k;

	while ((k = s->table[i]) != 0) {
		const struct schema_slot *sl = &s->slot[k - 1];

		if (sl->hash == h && sl->len == name->len &&
		    schema_key_eq(sl->name, name->ptr, name->len))
			return k - 1;
		i = (i + 1) & s->mask;
	}
	k = s->n++;
	s->slot[k].name = name->ptr;
	s->slot[k].len = name->len;
	s->slot[k].hash = h;
	json_name_words(name->ptr, name->len, &s->slot[k].wa, &s->slot[k].wb);
	s->table[i] = k + 1;
	return k;
}

/* A list of unique strings (required, dependentRequired's arrays) as slot
 * indices.  stamp tells this list apart from earlier ones. */
static uint32_t *
string_set(struct cctx *c, struct slots *s, const struct json_value *v,
    const char *kw, uint32_t stamp)
{
	uint32_t *idx;
	size_t i;

	/* {"required": "a"} */
	if (v->type != JSON_T_ARRAY)
		return refuse(c, kw, "%s must be an array of strings", kw);
	/* {"required": []} under draft-04: its validation spec (5.4.3,
	 * 5.4.5.2.2) says the array MUST have at least one element */
	if (v->u.arr.count == 0 && c->loc->d == SCHEMA_D_DRAFT04)
		return refuse(c, kw,
		    "%s must name at least one member in draft-04 (remove "
		    "it: an empty list asks for nothing)",
		    kw);
	idx = arena_calloc(
	    c->a, v->u.arr.count == 0 ? 1 : v->u.arr.count, sizeof(*idx));
	if (idx == NULL)
		return nomem(c);
	for (i = 0; i < v->u.arr.count; i++) {
		const struct json_value *e = &v->u.arr.items[i];
		size_t mark = jptr_push_index(&c->ptr, i);

		/* {"required": [1]} */
		if (e->type != JSON_T_STRING)
			return refuse(c, kw, "%s must contain strings", kw);
		idx[i] = slots_get(s, &e->u.str);
		/* {"required": ["a", "a"]} */
		if (s->stamp[idx[i]] == stamp)
			return refuse(c, kw, "%s repeats a name", kw);
		s->stamp[idx[i]] = stamp;
		jptr_pop(&c->ptr, mark);
	}
	return idx;
}

/* required: the names each get their slot, marked required. */
static int
read_required(struct cctx *c, struct slots *s, struct schema_node *n,
    const struct json_value *req, uint32_t stamp)
{
	size_t i, mark = jptr_push(&c->ptr, "required", 8);
	uint32_t *idx;

	if ((idx = string_set(c, s, req, "required", stamp)) == NULL)
		return -1;
	jptr_pop(&c->ptr, mark);
	n->required = idx;
	n->nrequired = (uint32_t)req->u.arr.count;
	for (i = 0; i < n->nrequired; i++)
		s->slot[idx[i]].required = true;
	if (n->nrequired > 0)
		n->flags |= SF_REQUIRED;
	return 0;
}

/* dependentRequired, or the arrays of dependencies (mixed). */
static int
read_depreq(struct cctx *c, struct slots *s, struct schema_node *n,
    const struct json_value *dep, const char *depkw, bool mixed,
    uint32_t *stamp)
{
	struct schema_depreq *dr;
	size_t i, mark, mark2, ndep = 0;
	bool bad = false;

	/* dependentRequired beside dependencies (2019-09 on, or borrowed
	 * into draft-07): both hold, so the second adds to the first */
	if ((dr = arena_calloc(
	         c->a, n->ndepreq + dep->u.obj.count, sizeof(*dr))) == NULL)
		return nomem(c), -1;
	if (n->ndepreq > 0)
		memcpy(dr, n->depreq, n->ndepreq * sizeof(*dr));
	ndep = n->ndepreq;
	mark = jptr_push(&c->ptr, depkw, strlen(depkw));
	for (i = 0; i < dep->u.obj.count; i++) {
		const struct json_member *m = &dep->u.obj.members[i];
		uint32_t *idx;

		if (mixed && m->value.type != JSON_T_ARRAY)
			continue;
		mark2 = jptr_push(&c->ptr, m->key.ptr, m->key.len);
		idx = string_set(c, s, &m->value, depkw, (*stamp)++);
		if (idx == NULL) {
			if (kw_failed(c, mark2, &bad) == -1)
				return -1;
			continue;
		}
		jptr_pop(&c->ptr, mark2);
		dr[ndep].trigger = slots_get(s, &m->key);
		dr[ndep].need = idx;
		dr[ndep].count = (uint32_t)m->value.u.arr.count;
		ndep++;
	}
	jptr_pop(&c->ptr, mark);
	n->depreq = dr;
	n->ndepreq = (uint32_t)ndep;
	if (ndep > 0)
		n->flags |= SF_DEPREQ;
	return bad ? -1 : 0;
}

/* patternProperties: each name a pattern, each value a schema; both
 * checked, member after member. */
static int
read_pprops(struct cctx *c, struct schema_node *n, const struct json_value *pp)
{
	struct schema_pprop *p;
	size_t i, k = 0, mark, mark2, here;
	bool bad = false;

	if ((p = arena_calloc(c->a, pp->u.obj.count, sizeof(*p))) == NULL)
		return nomem(c), -1;
	mark = jptr_push(&c->ptr, "patternProperties", 17);
	for (i = 0; i < pp->u.obj.count; i++) {
		const struct json_member *m = &pp->u.obj.members[i];
		char msg[128];

		mark2 = jptr_push(&c->ptr, m->key.ptr, m->key.len);
		here = c->ptr.len;
		p[k].re =
		    re_compile(m->key.ptr, m->key.len, c->a, msg, sizeof(msg));
		p[k].src = m->key.ptr;
		p[k].src_len = m->key.len;
		/* {"patternProperties": {"(": {}}}: its schema is still
		 * checked */
		if (p[k].re == NULL &&
		    (refuse(c, "patternProperties", "invalid pattern: %s", msg),
		        kw_failed(c, here, &bad)) == -1)
			return -1;
		if ((p[k].sub = compile_value(c, &m->value)) == NULL &&
		    kw_failed(c, mark2, &bad) == -1)
			return -1;
		jptr_pop(&c->ptr, mark2);
		if (p[k].re != NULL && p[k].sub != NULL)
			k++;
	}
	jptr_pop(&c->ptr, mark);
	n->pprops = p;
	n->npprops = (uint32_t)k;
	n->flags |= SF_MEMBERS;
	return bad ? -1 : 0;
}

/* A count keyword (minProperties, minLength, ...): *out and flag set. */
static int
read_count_kw(struct cctx *c, struct schema_node *n, const struct json_value *v,
    const char *kw, size_t *out, uint64_t flag)
{
	size_t mark;

	if (v == NULL)
		return 0;
	mark = jptr_push(&c->ptr, kw, strlen(kw));
	if (read_count(c, v, kw, out) == -1)
		return -1;
	jptr_pop(&c->ptr, mark);
	n->flags |= flag;
	return 0;
}

/* additionalProperties (a boolean even in draft-04). */
static int
read_additional(
    struct cctx *c, struct schema_node *n, const struct json_value *v)
{
	const struct schema_node *sub;

	c->allow_bool = true;
	sub = compile_sub(c, v, "additionalProperties");
	c->allow_bool = false;
	if (sub == NULL)
		return -1;
	n->additional_all = true;
	if (sub->kind != SCHEMA_K_TRUE) {
		n->additional = sub;
		n->flags |= SF_MEMBERS;
	}
	return 0;
}

static int
read_names(struct cctx *c, struct schema_node *n, const struct json_value *v)
{
	const struct schema_node *sub = compile_sub(c, v, "propertyNames");

	if (sub == NULL)
		return -1;
	if (sub->kind != SCHEMA_K_TRUE) {
		n->names = sub;
		n->flags |= SF_MEMBERS;
	}
	return 0;
}

/* A keyword that must hold an object ({"properties": []} refuses). */
static int
need_object(struct cctx *c, const struct json_value *v, const char *kw)
{
	if (v == NULL || v->type == JSON_T_OBJECT)
		return 0;
	jptr_push(&c->ptr, kw, strlen(kw));
	return refuse(c, kw, "%s must be an object", kw), -1;
}

/* The slots the names of a dependentRequired or dependencies object dep
 * may take: each trigger and each name it requires. */
static size_t
names_bound(const struct json_value *dep)
{
	size_t i, bound = 0;

	for (i = 0; dep != NULL && i < dep->u.obj.count; i++) {
		bound++;
		if (dep->u.obj.members[i].value.type == JSON_T_ARRAY)
			bound += dep->u.obj.members[i].value.u.arr.count;
	}
	return bound;
}

static int
compile_object_kws(
    struct cctx *c, struct schema_node *n, const struct json_value *const *kv)
{
	const struct json_value *props = kv[KW_PROPERTIES];
	const struct json_value *req = kv[KW_REQUIRED];
	const struct json_value *dep = kv[KW_DEPENDENTREQUIRED];
	const struct json_value *pp = kv[KW_PATTERNPROPERTIES];
	/* dependencies holds both kinds; its arrays are dependentRequired's
	 * (and add to a dependentRequired beside it) */
	const struct json_value *deps = kv[KW_DEPENDENCIES];
	bool bad = false;
	struct slots s;
	size_t at = c->ptr.len, bound = 0, i, mark, mark2;
	uint32_t stamp = 1;

	((struct cnode *)n)->props = props;
	/* {"properties": []}, {"dependentRequired": []},
	 * {"patternProperties": []}: reported, then left out */
	if (need_object(c, props, "properties") == -1) {
		if (kw_failed(c, at, &bad) == -1)
			return -1;
		props = NULL;
	}
	if (need_object(c, dep, "dependentRequired") == -1) {
		if (kw_failed(c, at, &bad) == -1)
			return -1;
		dep = NULL;
	}
	if (need_object(c, deps, "dependencies") == -1) {
		if (kw_failed(c, at, &bad) == -1)
			return -1;
		deps = NULL;
	}
	if (need_object(c, pp, "patternProperties") == -1) {
		if (kw_failed(c, at, &bad) == -1)
			return -1;
		pp = NULL;
	}
	if (props != NULL)
		bound += props->u.obj.count;
	if (req != NULL && req->type == JSON_T_ARRAY)
		bound += req->u.arr.count;
	bound += names_bound(dep) + names_bound(deps);
	if (slots_init(c, &s, bound) == -1)
		return -1;

	if (props != NULL) {
		mark = jptr_push(&c->ptr, "properties", 10);
		for (i = 0; i < props->u.obj.count; i++) {
			const struct json_member *m = &props->u.obj.members[i];
			uint32_t k = slots_get(&s, &m->key);

			mark2 = jptr_push(&c->ptr, m->key.ptr, m->key.len);
			if ((s.slot[k].sub = compile_value(c, &m->value)) ==
			        NULL &&
			    kw_failed(c, mark2, &bad) == -1)
				return -1;
			jptr_pop(&c->ptr, mark2);
		}
		jptr_pop(&c->ptr, mark);
		n->flags |= SF_MEMBERS;
	}
	if (req != NULL)
		KW_STEP(c, at, bad, read_required(c, &s, n, req, stamp++));
	if (dep != NULL && dep->u.obj.count > 0)
		KW_STEP(c, at, bad,
		    read_depreq(
		        c, &s, n, dep, "dependentRequired", false, &stamp));
	if (deps != NULL && deps->u.obj.count > 0)
		KW_STEP(c, at, bad,
		    read_depreq(c, &s, n, deps, "dependencies", true, &stamp));
	n->slots = s.slot;
	n->nslots = s.n;
	n->table = s.table;
	n->table_mask = s.mask;
	for (i = 0; i < s.n; i++) {
		n->slot_lens |= (uint64_t)1 << (s.slot[i].len % 64);
		n->slot_firsts |=
		    (uint64_t)1 << (s.slot[i].len > 0
		                        ? (unsigned char)s.slot[i].name[0] % 64
		                        : 0);
	}

	if (pp != NULL && pp->u.obj.count > 0)
		KW_STEP(c, at, bad, read_pprops(c, n, pp));
	if (kv[KW_ADDITIONALPROPERTIES] != NULL)
		KW_STEP(c, at, bad,
		    read_additional(c, n, kv[KW_ADDITIONALPROPERTIES]));
	if (kv[KW_PROPERTYNAMES] != NULL)
		KW_STEP(c, at, bad, read_names(c, n, kv[KW_PROPERTYNAMES]));
	KW_STEP(c, at, bad,
	    read_count_kw(c, n, kv[KW_MINPROPERTIES], "minProperties",
	        &n->min_props, SF_MINPROPS));
	KW_STEP(c, at, bad,
	    read_count_kw(c, n, kv[KW_MAXPROPERTIES], "maxProperties",
	        &n->max_props, SF_MAXPROPS));
	return bad ? -1 : 0;
}

/* ----- array keywords ------------------------------------------------- */

/* The schema for the items after the prefix: items, or (through
 * 2019-09, after an items array) additionalItems. */
static int
read_rest(struct cctx *c, struct schema_node *n, const struct json_value *rest,
    const char *rest_kw, bool boolean_ok)
{
	const struct schema_node *sub;

	/* draft-04: additionalItems may be a boolean */
	c->allow_bool = boolean_ok;
	sub = compile_sub(c, rest, rest_kw);
	c->allow_bool = false;
	if (sub == NULL)
		return -1;
	n->items_all = true;
	if (sub->kind != SCHEMA_K_TRUE) {
		n->items = sub;
		n->flags |= SF_ITEMS;
	}
	return 0;
}

/* schema_node keeps the keywords of its array reports in a byte. */
_Static_assert(KW_COUNT <= UINT8_MAX, "enum kw fits schema_node's uint8_t");

/* prefixItems, or items as an array (through 2019-09). */
static int
read_prefix(struct cctx *c, struct schema_node *n, const struct json_value *v,
    const char *kw)
{
	size_t count = 0;
	const struct schema_node *const *list = compile_list(c, v, kw, &count);

	if (list == NULL)
		return -1;
	n->prefix = list;
	n->nprefix = count;
	n->flags |= SF_ITEMS;
	return 0;
}

static int
read_contains(struct cctx *c, struct schema_node *n, const struct json_value *v)
{
	if ((n->contains = compile_sub(c, v, "contains")) == NULL)
		return -1;
	n->flags |= SF_CONTAINS;
	return 0;
}

static int
read_unique(struct cctx *c, struct schema_node *n, const struct json_value *v)
{
	size_t mark = jptr_push(&c->ptr, "uniqueItems", 11);

	/* {"uniqueItems": 1} */
	if (v->type != JSON_T_TRUE && v->type != JSON_T_FALSE)
		return refuse(
		           c, "uniqueItems", "uniqueItems must be a boolean"),
		       -1;
	jptr_pop(&c->ptr, mark);
	if (v->type == JSON_T_TRUE)
		n->flags |= SF_UNIQUE;
	return 0;
}

static int
compile_array_kws(
    struct cctx *c, struct schema_node *n, const struct json_value *const *kv)
{
	const struct json_value *rest = kv[KW_ITEMS];
	const char *rest_kw = "items";
	enum kw rest_id = KW_ITEMS;
	size_t at = c->ptr.len;
	bool bad = false;

	n->prefix_kw = KW_PREFIXITEMS;
	n->contains_marks = c->loc->d >= SCHEMA_D_2020_12;
	if (kv[KW_PREFIXITEMS] != NULL)
		KW_STEP(c, at, bad,
		    read_prefix(c, n, kv[KW_PREFIXITEMS], "prefixItems"));
	/* through 2019-09: items is a schema for every item, or an array
	 * by position followed by additionalItems (ignored without it) */
	if (kv[KW_ITEMS_OLD] != NULL &&
	    kv[KW_ITEMS_OLD]->type == JSON_T_ARRAY) {
		KW_STEP(
		    c, at, bad, read_prefix(c, n, kv[KW_ITEMS_OLD], "items"));
		n->prefix_kw = KW_ITEMS_OLD;
		rest = kv[KW_ADDITIONALITEMS];
		rest_kw = "additionalItems";
		rest_id = KW_ADDITIONALITEMS;
	} else if (kv[KW_ITEMS_OLD] != NULL) {
		rest = kv[KW_ITEMS_OLD];
	}
	n->items_kw = rest_id;
	if (rest != NULL)
		KW_STEP(c, at, bad,
		    read_rest(
		        c, n, rest, rest_kw, rest == kv[KW_ADDITIONALITEMS]));
	n->min_contains = 1;
	n->max_contains = SIZE_MAX;
	/* minContains/maxContains without contains constrain nothing. */
	KW_STEP(c, at, bad,
	    read_count_kw(
	        c, n, kv[KW_MINCONTAINS], "minContains", &n->min_contains, 0));
	KW_STEP(c, at, bad,
	    read_count_kw(
	        c, n, kv[KW_MAXCONTAINS], "maxContains", &n->max_contains, 0));
	if (kv[KW_CONTAINS] != NULL)
		KW_STEP(c, at, bad, read_contains(c, n, kv[KW_CONTAINS]));
	KW_STEP(c, at, bad,
	    read_count_kw(
	        c, n, kv[KW_MINITEMS], "minItems", &n->min_items, SF_MINITEMS));
	KW_STEP(c, at, bad,
	    read_count_kw(
	        c, n, kv[KW_MAXITEMS], "maxItems", &n->max_items, SF_MAXITEMS));
	if (kv[KW_UNIQUEITEMS] != NULL)
		KW_STEP(c, at, bad, read_unique(c, n, kv[KW_UNIQUEITEMS]));
	return bad ? -1 : 0;
}

/* ----- scalar keywords ------------------------------------------------ */

static const struct {
	const char *name;
	unsigned bit;
} type_names[] = {
    {"null", SCHEMA_TY_NULL},
    {"boolean", SCHEMA_TY_BOOLEAN},
    {"object", SCHEMA_TY_OBJECT},
    {"array", SCHEMA_TY_ARRAY},
    {"number", SCHEMA_TY_NUMBER},
    {"string", SCHEMA_TY_STRING},
    {"integer", SCHEMA_TY_INTEGER},
};

static unsigned
type_bit(const struct json_value *v)
{
	size_t i;

	if (v->type != JSON_T_STRING)
		return 0;
	for (i = 0; i < GPT_ARRAY_LEN(type_names); i++)
		if (str_is(v, type_names[i].name))
			return type_names[i].bit;
	return 0;
}

/* The refusal of an unknown type name, with the close one if any:
 * {"type": "strnig"} reads "did you mean string?". */
static void
refuse_type_name(struct cctx *c, const struct json_value *v)
{
	const char *names[GPT_ARRAY_LEN(type_names)], *close = NULL;
	char clip[SCHEMA_CLIP_MAX + 1];
	size_t i;

	for (i = 0; i < GPT_ARRAY_LEN(type_names); i++)
		names[i] = type_names[i].name;
	if (v->type != JSON_T_STRING) {
		refuse(c, "type",
		    "unknown type name: a type is a string (null, boolean, "
		    "object, array, number, string, integer)");
		return;
	}
	close = schema_name_suggest(
	    v->u.str.ptr, v->u.str.len, names, GPT_ARRAY_LEN(names));
	schema_clip(clip, v->u.str.ptr, v->u.str.len);
	if (close != NULL)
		refuse(c, "type", "unknown type name \"%s\": did you mean %s?",
		    clip, close);
	else
		refuse(c, "type",
		    "unknown type name \"%s\" (null, boolean, object, array, "
		    "number, string, integer)",
		    clip);
}

static int
compile_type(struct cctx *c, struct schema_node *n, const struct json_value *v)
{
	size_t i, mark = jptr_push(&c->ptr, "type", 4);
	unsigned bit;

	if (v->type == JSON_T_ARRAY) {
		/* {"type": []} (2020-12: minItems 1) */
		if (v->u.arr.count == 0)
			return refuse(c, "type", "type must not be empty"), -1;
		for (i = 0; i < v->u.arr.count; i++) {
			size_t mark2 = jptr_push_index(&c->ptr, i);

			/* {"type": ["strnig"]} */
			if ((bit = type_bit(&v->u.arr.items[i])) == 0)
				return refuse_type_name(c, &v->u.arr.items[i]),
				       -1;
			/* {"type": ["string", "string"]} */
			if (n->types & bit)
				return refuse(c, "type", "type repeats a name"),
				       -1;
			n->types |= bit;
			jptr_pop(&c->ptr, mark2);
		}
	} else if ((bit = type_bit(v)) != 0) {
		n->types = bit;
	} else {
		/* {"type": "strnig"}, {"type": 1} */
		return refuse_type_name(c, v), -1;
	}
	jptr_pop(&c->ptr, mark);
	n->flags |= SF_TYPE;
	/* {"type": "integer"} in draft-04: 1.0 is a number, not an integer */
	n->integer_text = c->loc != NULL && c->loc->d == SCHEMA_D_DRAFT04 &&
	                  (n->types & SCHEMA_TY_INTEGER) != 0;
	return 0;
}

/*
 * Every value of an enum in a table probed by json_hash (hash_bytes for
 * strings), so an instance costs about one probe whatever the enum's
 * length or its values' types: {"enum": [1, 2, ..., 20000]}.  The table
 * is fixed once built; the longest probe any entry took is kept, and a
 * lookup never probes further.
 *
 * With unique (draft-04, whose validation spec 5.5.1 says the values MUST
 * differ; later dialects only say SHOULD, and a repeat narrows nothing
 * there), two JSON-equal values refuse the form.
 */
static int
enum_table(struct cctx *c, struct schema_node *n, const struct schema_enum *e,
    size_t count, bool unique)
{
	uint32_t *tab, probes, longest = 0;
	size_t size = 8, i, b;

	/* {"enum": [... 2^30 values ...]} */
	if (count > UINT32_MAX / 4)
		return refuse(c, "enum", "enum has too many values"), -1;
	while (size < 2 * count)
		size *= 2;
	if ((tab = arena_calloc(c->a, size, sizeof(*tab))) == NULL)
		return nomem(c), -1;
	for (i = 0; i < count; i++) {
		b = (size_t)e[i].hash & (size - 1);
		/* bounded: the table is at most half full */
		for (probes = 1; tab[b] != 0; probes++) {
			const struct schema_enum *o = &e[tab[b] - 1];

			/* {"enum": [1, 1.0]} under draft-04 */
			if (unique && o->hash == e[i].hash &&
			    json_equal(o->value, e[i].value))
				return refuse(c, "enum",
				           "enum repeats a value (items %zu "
				           "and "
				           "%zu): draft-04 requires them "
				           "unique",
				           (size_t)(tab[b] - 1), i),
				       -1;
			b = (b + 1) & (size - 1);
		}
		tab[b] = (uint32_t)i + 1;
		if (probes > longest)
			longest = probes;
	}
	n->enum_table = tab;
	n->enum_mask = (uint32_t)(size - 1);
	n->enum_maxprobe = longest;
	return 0;
}

/* true when the address declares name (len bytes) an annotation. */
static bool
declared_annotation(const struct cctx *c, const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < c->o->nannotations; i++)
		if (strlen(c->o->annotations[i]) == len &&
		    memcmp(c->o->annotations[i], name, len) == 0)
			return true;
	return false;
}

/*
 * format: every name format.h knows is asserted, on the types its row
 * gives (binary, password, commonmark and html name a content kind and
 * are annotations by definition: any string).  Any other name refuses the
 * form, since treating it as absent would widen what is accepted, unless
 * the operator declares the name with `annotations` (address.conf,
 * --annotations): the format is then an annotation, asserting nothing.
 */
static int
compile_format(
    struct cctx *c, struct schema_node *n, const struct json_value *v)
{
	const struct format *f;
	char name[SCHEMA_CLIP_MAX + 1], msg[SCHEMA_CLIP_MAX + 64];
	size_t mark = jptr_push(&c->ptr, "format", 6);

	/* {"format": 1} */
	if (v->type != JSON_T_STRING)
		return refuse(c, "format", "format must be a string"), -1;
	f = format_lookup(v->u.str.ptr, v->u.str.len);
	if (f == NULL && declared_annotation(c, v->u.str.ptr, v->u.str.len)) {
		/* {"format": "color-hex"} with annotations = color-hex */
		if (c->o->notes && c->warn != NULL) {
			schema_clip(name, v->u.str.ptr, v->u.str.len);
			snprintf(msg, sizeof(msg),
			    "format \"%s\" is an annotation (not enforced)",
			    name);
			c->warn(c->warn_ctx, c->ptr.buf, msg);
		}
		jptr_pop(&c->ptr, mark);
		return 0;
	}
	/* {"format": "e-mail"} */
	if (f == NULL) {
		schema_clip(name, v->u.str.ptr, v->u.str.len);
		return refuse(c, "format",
		           "unknown format \"%s\": a name gpt.fcgi does not "
		           "enforce refuses the form (or declare it: "
		           "annotations = NAME)",
		           name),
		       -1;
	}
	jptr_pop(&c->ptr, mark);
	if (f->check == NULL && f->ncheck == NULL)
		return 0; /* {"format": "commonmark"}: names a content kind */
	n->format = f;
	if (f->check != NULL)
		n->flags |= SF_FORMAT;
	if (f->ncheck != NULL)
		n->flags |= SF_NFORMAT;
	return 0;
}

/* draft-04 section 5.1.2: "exclusiveMaximum": true makes maximum
 * exclusive; it requires maximum.  Moves the bound to the exclusive one. */
static int
draft04_exclusive(struct cctx *c, struct schema_node *n,
    const struct json_value *v, const char *kw, uint64_t flag,
    struct schema_num *num, uint64_t xflag, struct schema_num *xnum)
{
	size_t mark;

	if (v == NULL)
		return 0;
	mark = jptr_push(&c->ptr, kw, strlen(kw));
	/* {"exclusiveMaximum": 3} under draft-04 */
	if (v->type != JSON_T_TRUE && v->type != JSON_T_FALSE)
		return refuse(c, kw,
		           "%s must be a boolean in draft-04 (a number from "
		           "draft-06 on)",
		           kw),
		       -1;
	/* {"exclusiveMinimum": true} alone */
	if (!(n->flags & flag))
		return refuse(c, kw, "%s needs %s beside it", kw,
		           flag == SF_MINIMUM ? "minimum" : "maximum"),
		       -1;
	jptr_pop(&c->ptr, mark);
	if (v->type == JSON_T_TRUE) {
		*xnum = *num;
		n->flags = (n->flags & ~flag) | xflag;
	}
	return 0;
}

/*
 * contentEncoding, contentMediaType, contentSchema: enforced (a form that
 * says "base64 of a JSON document shaped like X" must not accept anything
 * else).  Only base64, base64url and application/json are implemented;
 * any other value refuses the form, as does contentSchema without
 * contentMediaType (it would then constrain nothing).
 */
static int
compile_content(
    struct cctx *c, struct schema_node *n, const struct json_value *const *kv)
{
	const struct json_value *e = kv[KW_CONTENTENCODING];
	const struct json_value *m = kv[KW_CONTENTMEDIATYPE];
	size_t mark, at = c->ptr.len;
	bool bad = false;

	if (e != NULL) {
		mark = jptr_push(&c->ptr, "contentEncoding", 15);
		if (e->type == JSON_T_STRING && e->u.str.len == 6 &&
		    memcmp(e->u.str.ptr, "base64", 6) == 0)
			n->enc = SCHEMA_ENC_BASE64;
		else if (e->type == JSON_T_STRING && e->u.str.len == 9 &&
		         memcmp(e->u.str.ptr, "base64url", 9) == 0)
			n->enc = SCHEMA_ENC_BASE64URL;
		else if ((/* {"contentEncoding": "quoted-printable"} */
		             refuse(c, "contentEncoding",
		                 "contentEncoding must be \"base64\" or "
		                 "\"base64url\" (the others are not "
		                 "implemented)"),
		             kw_failed(c, at, &bad)) == -1)
			return -1;
		jptr_pop(&c->ptr, mark);
		n->content = n->enc != SCHEMA_ENC_NONE;
	}
	if (m != NULL) {
		mark = jptr_push(&c->ptr, "contentMediaType", 16);
		/* {"contentMediaType": "image/png"} */
		if (m->type != JSON_T_STRING || m->u.str.len != 16 ||
		    memcmp(m->u.str.ptr, "application/json", 16) != 0) {
			refuse(c, "contentMediaType",
			    "contentMediaType must be "
			    "\"application/json\" (the others are not "
			    "implemented)");
			if (kw_failed(c, at, &bad) == -1)
				return -1;
			m = NULL;
		} else {
			jptr_pop(&c->ptr, mark);
			n->content_json = true;
			n->content = true;
		}
	}
	if (kv[KW_CONTENTSCHEMA] != NULL) {
		/* {"contentSchema": {...}} alone */
		if (m == NULL && kv[KW_CONTENTMEDIATYPE] == NULL) {
			jptr_push(&c->ptr, "contentSchema", 13);
			refuse(c, "contentSchema",
			    "contentSchema needs contentMediaType "
			    "\"application/json\"");
			if (kw_failed(c, at, &bad) == -1)
				return -1;
		} else if ((n->content_schema = compile_sub(
		                c, kv[KW_CONTENTSCHEMA], "contentSchema")) ==
		               NULL &&
		           kw_failed(c, at, &bad) == -1) {
			return -1;
		}
	}
	if (n->content)
		n->flags |= SF_PATTERN;
	return bad ? -1 : 0;
}

static int
read_enum(struct cctx *c, struct schema_node *n, const struct json_value *v)
{
	bool draft04 = c->loc->d == SCHEMA_D_DRAFT04;
	struct schema_enum *e;
	size_t i, mark = jptr_push(&c->ptr, "enum", 4);

	/* {"enum": 1}; an empty enum is valid and accepts nothing */
	if (v->type != JSON_T_ARRAY)
		return refuse(c, "enum", "enum must be an array"), -1;
	e = arena_calloc(
	    c->a, v->u.arr.count == 0 ? 1 : v->u.arr.count, sizeof(*e));
	if (e == NULL)
		return nomem(c), -1;
	for (i = 0; i < v->u.arr.count; i++) {
		e[i].value = &v->u.arr.items[i];
		e[i].hash = json_hash(e[i].value);
		e[i].len = SIZE_MAX;
		if (e[i].value->type == JSON_T_STRING) {
			e[i].str = e[i].value->u.str.ptr;
			e[i].len = e[i].value->u.str.len;
		}
	}
	/* {"enum": []} under draft-04 (validation 5.5.1: at least one
	 * value); elsewhere valid, and it accepts nothing */
	if (draft04 && v->u.arr.count == 0)
		return refuse(c, "enum",
		           "enum must have at least one value in draft-04"),
		       -1;
	/* the table serves short enums too when it must look for repeats:
	 * the validator takes it whenever it is there */
	if ((draft04 || v->u.arr.count >= SCHEMA_ENUM_TABLE_MIN) &&
	    enum_table(c, n, e, v->u.arr.count, draft04) == -1)
		return -1;
	jptr_pop(&c->ptr, mark);
	n->enums = e;
	n->nenums = v->u.arr.count;
	n->flags |= SF_ENUM;
	return 0;
}

/* minimum, maximum, exclusiveMinimum, exclusiveMaximum (numbers), or
 * multipleOf: the bound at num, flag set. */
static int
read_bound(struct cctx *c, struct schema_node *n, const struct json_value *v,
    enum kw kw, uint64_t flag, struct schema_num *num)
{
	const char *name = schema_kw_name(kw);
	size_t mark = jptr_push(&c->ptr, name, strlen(name));

	if (read_num(c, v, name, num) == -1)
		return -1;
	/* {"multipleOf": 0}, {"multipleOf": -2} */
	if (kw == KW_MULTIPLEOF && (num->d.neg || dec_is_zero(&num->d)))
		return refuse(c, name, "multipleOf must be > 0"), -1;
	jptr_pop(&c->ptr, mark);
	n->flags |= flag;
	return 0;
}

static int
read_pattern(struct cctx *c, struct schema_node *n, const struct json_value *v)
{
	char msg[128];
	size_t mark = jptr_push(&c->ptr, "pattern", 7);

	/* {"pattern": 1} */
	if (v->type != JSON_T_STRING)
		return refuse(c, "pattern", "pattern must be a string"), -1;
	n->pattern =
	    re_compile(v->u.str.ptr, v->u.str.len, c->a, msg, sizeof(msg));
	/* {"pattern": "("} */
	if (n->pattern == NULL)
		return refuse(c, "pattern", "invalid pattern: %s", msg), -1;
	jptr_pop(&c->ptr, mark);
	((struct cnode *)n)->pattern = v;
	n->flags |= SF_PATTERN;
	return 0;
}

static int
compile_scalar_kws(
    struct cctx *c, struct schema_node *n, const struct json_value *const *kv)
{
	static const struct {
		enum kw kw;
		uint64_t flag;
		size_t off;
	} nums[] = {
	    {KW_MINIMUM, SF_MINIMUM, offsetof(struct schema_node, minimum)},
	    {KW_MAXIMUM, SF_MAXIMUM, offsetof(struct schema_node, maximum)},
	    {KW_EXCLUSIVEMINIMUM, SF_XMINIMUM,
	        offsetof(struct schema_node, xminimum)},
	    {KW_EXCLUSIVEMAXIMUM, SF_XMAXIMUM,
	        offsetof(struct schema_node, xmaximum)},
	    {KW_MULTIPLEOF, SF_MULTIPLE,
	        offsetof(struct schema_node, multiple)},
	};
	size_t i, at = c->ptr.len;
	bool bad = false;

	if (kv[KW_TYPE] != NULL)
		KW_STEP(c, at, bad, compile_type(c, n, kv[KW_TYPE]));
	if (kv[KW_ENUM] != NULL)
		KW_STEP(c, at, bad, read_enum(c, n, kv[KW_ENUM]));
	/* the made-up keyword of test builds (schema_dialect.h): a flag
	 * that no tool describes, and nothing to judge */
	if (kv[KW_TEST_OPAQUE] != NULL)
		n->flags |= SF_TEST_OPAQUE;
	if (kv[KW_CONST] != NULL) {
		n->const_value = kv[KW_CONST];
		n->flags |= SF_CONST;
	}
	for (i = 0; i < GPT_ARRAY_LEN(nums); i++)
		if (kv[nums[i].kw] != NULL)
			KW_STEP(c, at, bad,
			    read_bound(c, n, kv[nums[i].kw], nums[i].kw,
			        nums[i].flag,
			        (struct schema_num *)((char *)n +
			                              nums[i].off)));
	KW_STEP(c, at, bad,
	    draft04_exclusive(c, n, kv[KW_XMIN_BOOL], "exclusiveMinimum",
	        SF_MINIMUM, &n->minimum, SF_XMINIMUM, &n->xminimum));
	KW_STEP(c, at, bad,
	    draft04_exclusive(c, n, kv[KW_XMAX_BOOL], "exclusiveMaximum",
	        SF_MAXIMUM, &n->maximum, SF_XMAXIMUM, &n->xmaximum));
	n->max_length = SIZE_MAX;
	KW_STEP(c, at, bad,
	    read_count_kw(c, n, kv[KW_MINLENGTH], "minLength", &n->min_length,
	        SF_MINLENGTH));
	KW_STEP(c, at, bad,
	    read_count_kw(c, n, kv[KW_MAXLENGTH], "maxLength", &n->max_length,
	        SF_MAXLENGTH));
	KW_STEP(c, at, bad, compile_content(c, n, kv));
	if (kv[KW_PATTERN] != NULL)
		KW_STEP(c, at, bad, read_pattern(c, n, kv[KW_PATTERN]));
	if (kv[KW_FORMAT] != NULL)
		KW_STEP(c, at, bad, compile_format(c, n, kv[KW_FORMAT]));
	return bad ? -1 : 0;
}

/* ----- in-place keywords ---------------------------------------------- */

/* A reference keyword (kw, of kind k) waits on the work list until the
 * structural walk ends. */
static int
add_ref(struct cctx *c, struct schema_node *n, const struct json_value *v,
    const char *kw, enum pending_kind k)
{
	struct pending *p;
	size_t mark;

	if (v == NULL)
		return 0;
	mark = jptr_push(&c->ptr, kw, strlen(kw));
	/* {"$ref": 1} */
	if (v->type != JSON_T_STRING)
		return refuse(c, kw, "%s must be a URI reference", kw), -1;
	/* {"$recursiveRef": "#/$defs/a"}: 2019-09 section 8.2.4.2.1 */
	if (k == PENDING_RECURSIVE &&
	    !(v->u.str.len == 1 && v->u.str.ptr[0] == '#'))
		return refuse(c, kw, "$recursiveRef must be \"#\""), -1;
	if ((p = arena_alloc(c->a, sizeof(*p))) == NULL ||
	    (p->where_len = c->ptr.len,
	        p->where = arena_strndup(c->a, c->ptr.buf, c->ptr.len)) == NULL)
		return nomem(c), -1;
	jptr_pop(&c->ptr, mark);
	p->node = n;
	p->kind = k;
	p->ref = v->u.str.ptr;
	p->len = v->u.str.len;
	p->loc = c->loc;
	p->where_root = c->ptr_root;
	p->next = c->pending;
	c->pending = p;
	n->flags |= SF_REF;
	if (k != PENDING_REF)
		c->dynamic = true;
	return 0;
}

/* The schemas of d (kw: dependentSchemas, or dependencies, whose name
 * arrays are dependentRequired's) appended to ds at *k. */
static int
add_depsch(struct cctx *c, struct schema_depsch *ds, size_t *k,
    const struct json_value *d, const char *kw, bool skip_arrays)
{
	size_t i, mark, mark2;
	bool bad = false;

	mark = jptr_push(&c->ptr, kw, strlen(kw));
	/* {"dependentSchemas": []} */
	if (d->type != JSON_T_OBJECT)
		return refuse(c, kw, "%s must be an object", kw), -1;
	for (i = 0; i < d->u.obj.count; i++) {
		const struct json_member *m = &d->u.obj.members[i];

		if (skip_arrays && m->value.type == JSON_T_ARRAY)
			continue;
		mark2 = jptr_push(&c->ptr, m->key.ptr, m->key.len);
		if ((ds[*k].sub = compile_value(c, &m->value)) == NULL) {
			if (kw_failed(c, mark2, &bad) == -1)
				return -1;
			continue;
		}
		jptr_pop(&c->ptr, mark2);
		ds[*k].name = m->key.ptr;
		ds[*k].len = m->key.len;
		(*k)++;
	}
	jptr_pop(&c->ptr, mark);
	return bad ? -1 : 0;
}

/* dependentSchemas (2019-09 on) and the schemas of dependencies: both
 * hold when both are written. */
static int
compile_depsch(
    struct cctx *c, struct schema_node *n, const struct json_value *const *kv)
{
	const struct json_value *d1 = kv[KW_DEPENDENTSCHEMAS];
	const struct json_value *d2 = kv[KW_DEPENDENCIES];
	struct schema_depsch *ds;
	size_t k = 0, total = 1, at = c->ptr.len;
	bool bad = false;

	if (d1 == NULL && d2 == NULL)
		return 0;
	total += d1 != NULL && d1->type == JSON_T_OBJECT ? d1->u.obj.count : 0;
	total += d2 != NULL && d2->type == JSON_T_OBJECT ? d2->u.obj.count : 0;
	if ((ds = arena_calloc(c->a, total, sizeof(*ds))) == NULL)
		return nomem(c), -1;
	if (d1 != NULL &&
	    add_depsch(c, ds, &k, d1, "dependentSchemas", false) == -1 &&
	    kw_failed(c, at, &bad) == -1)
		return -1;
	if (d2 != NULL &&
	    add_depsch(c, ds, &k, d2, "dependencies", true) == -1 &&
	    kw_failed(c, at, &bad) == -1)
		return -1;
	n->depsch = ds;
	n->ndepsch = (uint32_t)k;
	if (k > 0)
		n->flags |= SF_DEPSCH;
	return bad ? -1 : 0;
}

/* allOf, anyOf or oneOf: the list, its length and flag set. */
static int
read_list(struct cctx *c, struct schema_node *n, const struct json_value *v,
    const char *kw, const struct schema_node *const **list, size_t *count,
    uint64_t flag)
{
	if ((*list = compile_list(c, v, kw, count)) == NULL)
		return -1;
	n->flags |= flag;
	return 0;
}

/* One subschema keyword (not, if, then, ...) into *out. */
static int
read_one(struct cctx *c, const struct json_value *v, const char *kw,
    const struct schema_node **out)
{
	if (v == NULL)
		return 0;
	return (*out = compile_sub(c, v, kw)) == NULL ? -1 : 0;
}

static int
compile_inplace_kws(
    struct cctx *c, struct cnode *cn, const struct json_value *const *kv)
{
	struct schema_node *n = &cn->n;
	const struct schema_node *i = NULL, *t = NULL, *e = NULL;
	size_t at = c->ptr.len;
	bool bad = false;

	if (kv[KW_ALLOF] != NULL)
		KW_STEP(c, at, bad,
		    read_list(c, n, kv[KW_ALLOF], "allOf", &n->all_of,
		        &n->nall_of, SF_ALLOF));
	if (kv[KW_ANYOF] != NULL)
		KW_STEP(c, at, bad,
		    read_list(c, n, kv[KW_ANYOF], "anyOf", &n->any_of,
		        &n->nany_of, SF_ANYOF));
	if (kv[KW_ONEOF] != NULL)
		KW_STEP(c, at, bad,
		    read_list(c, n, kv[KW_ONEOF], "oneOf", &n->one_of,
		        &n->none_of, SF_ONEOF));
	KW_STEP(c, at, bad, read_one(c, kv[KW_NOT], "not", &n->not_));
	if (n->not_ != NULL)
		n->flags |= SF_NOT;
	/* then and else are checked even without if, but apply only with it
	 * (2020-12 section 10.2.2). */
	KW_STEP(c, at, bad, read_one(c, kv[KW_IF], "if", &i));
	KW_STEP(c, at, bad, read_one(c, kv[KW_THEN], "then", &t));
	KW_STEP(c, at, bad, read_one(c, kv[KW_ELSE], "else", &e));
	/* if alone asserts nothing, but its annotations count for
	 * unevaluated* when it passes */
	if (i != NULL) {
		n->if_ = i;
		n->then_ = t;
		n->else_ = e;
		if (t != NULL || e != NULL)
			n->flags |= SF_IF;
	}
	KW_STEP(c, at, bad, compile_depsch(c, n, kv));
	KW_STEP(c, at, bad, add_ref(c, n, kv[KW_REF], "$ref", PENDING_REF));
	KW_STEP(c, at, bad,
	    add_ref(c, n, kv[KW_DYNAMICREF], "$dynamicRef", PENDING_DYNAMIC));
	KW_STEP(c, at, bad,
	    add_ref(
	        c, n, kv[KW_RECURSIVEREF], "$recursiveRef", PENDING_RECURSIVE));
	KW_STEP(c, at, bad,
	    read_one(c, kv[KW_UNEVALPROPS], "unevaluatedProperties",
	        &n->uneval_props));
	KW_STEP(c, at, bad,
	    read_one(
	        c, kv[KW_UNEVALITEMS], "unevaluatedItems", &n->uneval_items));
	if (n->uneval_props != NULL || n->uneval_items != NULL)
		cn->own_collect = true;
	return bad ? -1 : 0;
}

/* ----- annotations ---------------------------------------------------- */

static int
check_annotations(struct cctx *c, const struct json_value *const *kv)
{
	static const struct {
		enum kw kw;
		enum json_type t1, t2;
		const char *what;
	} shapes[] = {
	    {KW_COMMENT, JSON_T_STRING, JSON_T_STRING, "a string"},
	    {KW_TITLE, JSON_T_STRING, JSON_T_STRING, "a string"},
	    {KW_DESCRIPTION, JSON_T_STRING, JSON_T_STRING, "a string"},
	    {KW_EXAMPLES, JSON_T_ARRAY, JSON_T_ARRAY, "an array"},
	    {KW_DEPRECATED, JSON_T_TRUE, JSON_T_FALSE, "a boolean"},
	    {KW_READONLY, JSON_T_TRUE, JSON_T_FALSE, "a boolean"},
	    {KW_WRITEONLY, JSON_T_TRUE, JSON_T_FALSE, "a boolean"},
	};
	size_t i, at = c->ptr.len;
	bool bad = false;

	for (i = 0; i < GPT_ARRAY_LEN(shapes); i++) {
		const struct json_value *v = kv[shapes[i].kw];
		const char *name = schema_kw_name(shapes[i].kw);

		/* {"title": 1}, {"readOnly": "yes"} */
		if (v != NULL && v->type != shapes[i].t1 &&
		    v->type != shapes[i].t2) {
			jptr_push(&c->ptr, name, strlen(name));
			refuse(c, name, "%s must be %s", name, shapes[i].what);
			if (kw_failed(c, at, &bad) == -1)
				return -1;
		}
	}
	return bad ? -1 : 0;
}

/* ----- one schema ----------------------------------------------------- */

/* Every schema under $defs / definitions, compiled (so checked) even when
 * nothing refers to it. */
static int
compile_defs(struct cctx *c, const struct json_value *d, const char *kw)
{
	size_t i, mark, mark2;
	bool bad = false;

	if (d == NULL)
		return 0;
	mark = jptr_push(&c->ptr, kw, strlen(kw));
	/* {"$defs": []} */
	if (d->type != JSON_T_OBJECT)
		return refuse(c, kw, "%s must be an object", kw), -1;
	for (i = 0; i < d->u.obj.count; i++) {
		const struct json_member *m = &d->u.obj.members[i];

		mark2 = jptr_push(&c->ptr, m->key.ptr, m->key.len);
		if (compile_value(c, &m->value) == NULL &&
		    kw_failed(c, mark2, &bad) == -1)
			return -1;
		jptr_pop(&c->ptr, mark2);
	}
	jptr_pop(&c->ptr, mark);
	return bad ? -1 : 0;
}

/* --check: say which keywords are annotations (tool: the tool whose
 * annotation it is, or NULL). */
static void
note_annotation(struct cctx *c, const struct json_member *m, const char *tool)
{
	char name[SCHEMA_CLIP_MAX + 1], msg[SCHEMA_CLIP_MAX + 128];
	size_t mark;

	if (!c->o->notes || c->warn == NULL)
		return;
	schema_clip(name, m->key.ptr, m->key.len);
	if (tool != NULL)
		snprintf(msg, sizeof(msg),
		    "\"%s\" is an annotation of %s (not enforced)", name, tool);
	else
		snprintf(msg, sizeof(msg),
		    "\"%s\" is an annotation (not enforced)", name);
	mark = jptr_push(&c->ptr, m->key.ptr, m->key.len);
	c->warn(c->warn_ctx, c->ptr.buf, msg);
	jptr_pop(&c->ptr, mark);
}

/* --check: a keyword of a later dialect in a form of dialect d, enforced
 * with that dialect's meaning ({"$schema": draft-04, "const": 1}). */
static void
note_borrowed(
    struct cctx *c, const struct json_member *m, enum schema_dialect d)
{
	char name[SCHEMA_CLIP_MAX + 1], msg[SCHEMA_CLIP_MAX + 128];
	size_t mark;
	int later;

	if (c->warn == NULL ||
	    (later = schema_kw_borrowed(d, m->key.ptr, m->key.len)) < 0)
		return;
	schema_clip(name, m->key.ptr, m->key.len);
	snprintf(msg, sizeof(msg),
	    "\"%s\" is not a %s keyword: enforced with its %s meaning", name,
	    schema_dialect_name(d),
	    schema_dialect_name((enum schema_dialect)later));
	mark = jptr_push(&c->ptr, m->key.ptr, m->key.len);
	c->warn(c->warn_ctx, c->ptr.buf, msg);
	jptr_pop(&c->ptr, mark);
}

/* Refuse the unknown keyword m at c->ptr, with the fix where one is
 * known. */
static int
refuse_unknown(struct cctx *c, const struct json_member *m)
{
	char name[SCHEMA_CLIP_MAX + 1];
	const char *near;
	int d;

	schema_clip(name, m->key.ptr, m->key.len);
	jptr_push(&c->ptr, m->key.ptr, m->key.len);
	/* {"nullable": true}: OpenAPI 3.0 */
	if (m->key.len == 8 && memcmp(m->key.ptr, "nullable", 8) == 0)
		return refuse(c, NULL,
		           "unknown keyword \"nullable\" (OpenAPI 3.0): "
		           "write \"type\": [T, \"null\"] instead"),
		       -1;
	/* {"discriminator": {"propertyName": "kind"}, "oneOf": [...]}:
	 * OpenAPI, and Pydantic v1's tagged unions */
	if (m->key.len == 13 && memcmp(m->key.ptr, "discriminator", 13) == 0)
		return refuse(c, NULL,
		           "unknown keyword \"discriminator\" (OpenAPI; "
		           "Pydantic v1 writes it beside oneOf): the oneOf "
		           "decides alone when each alternative fixes the "
		           "property with const or enum, as Pydantic writes "
		           "them: remove it, or declare it: annotations = "
		           "discriminator"),
		       -1;
	/* {"$anchor": "a"} under draft-07, {"$recursiveRef": "#"} under
	 * 2020-12 */
	if ((d = schema_kw_dialect_of(m->key.ptr, m->key.len)) >= 0)
		return refuse(c, NULL,
		           "keyword \"%s\" is not part of %s (set $schema, "
		           "or the address's dialect, to one that has it)",
		           name, schema_dialect_name(c->loc->d)),
		       -1;
	/* {"minLenght": 1} */
	if ((near = schema_kw_suggest(c->loc->d, m->key.ptr, m->key.len)) !=
	    NULL)
		return refuse(c, NULL,
		           "unknown keyword \"%s\": did you mean %s?", name,
		           near),
		       -1;
	return refuse(c, NULL,
	           "unknown keyword \"%s\" (an annotation must start with "
	           "x- or be declared: annotations = NAME)",
	           name),
	       -1;
}

/*
 * kv[k] = the value of each keyword of v, per the dialect of c->loc.  An
 * unknown keyword refuses the form (fail closed) unless it is an x- name
 * or an annotation the address declares; a keyword whose vocabulary the
 * meta-schema leaves out is an annotation (2020-12 section 8.1.2).
 */
static int
read_keywords(
    struct cctx *c, const struct json_value *v, const struct json_value **kv)
{
	enum schema_dialect d = c->loc->d;
	size_t i, at = c->ptr.len;
	bool bad = false;
	const char *tool;

	for (i = 0; i < v->u.obj.count; i++) {
		const struct json_member *m = &v->u.obj.members[i];
		int k = schema_kw_lookup(d, m->key.ptr, m->key.len);
		bool xname =
		    m->key.len >= 2 && memcmp(m->key.ptr, "x-", 2) == 0;

		if (k < 0 &&
		    (xname || declared_annotation(c, m->key.ptr, m->key.len))) {
			note_annotation(c, m, NULL);
			continue;
		}
		/* {"markdownDescription": "..."}: a known tool's annotation
		 * (schemas/annotations.json) */
		if (k < 0 && (tool = schema_annot_tool(
		                  m->key.ptr, m->key.len)) != NULL) {
			note_annotation(c, m, tool);
			continue;
		}
		if (k < 0) {
			if (refuse_unknown(c, m) == -1 &&
			    kw_failed(c, at, &bad) == -1)
				return -1;
			continue;
		}
		if (!((c->loc->vocab >> schema_kw_vocab((enum kw)k)) & 1u))
			continue;
		note_borrowed(c, m, d);
		kv[k] = &m->value;
	}
	/* draft-04..07 say to ignore the keywords beside $ref (draft-07
	 * section 8.3); their authors (and ajv) mean them, and ignoring a
	 * constraint widens the form: they are applied, as from 2019-09 */
	if (d <= SCHEMA_D_DRAFT07 && kv[KW_REF] != NULL && c->warn != NULL) {
		bool others = false;

		for (i = 0; i < KW_DEFS; i++)
			others |= kv[i] != NULL && i != KW_REF;
		if (others)
			c->warn(c->warn_ctx, c->ptr.buf,
			    "keywords beside $ref are applied (this dialect "
			    "says to ignore them; gpt.fcgi enforces what the "
			    "form writes, as 2019-09 on do)");
	}
	/* {"$schema": draft-07, "items": [...], "prefixItems": [...]}: two
	 * tuples, and which one additionalItems or a schema items follows
	 * is no reading of the form */
	if (d < SCHEMA_D_2020_12 && kv[KW_PREFIXITEMS] != NULL &&
	    (kv[KW_ITEMS_OLD] != NULL || kv[KW_ADDITIONALITEMS] != NULL)) {
		size_t mark = jptr_push(&c->ptr, "prefixItems", 11);

		if ((refuse(c, "prefixItems",
		         "prefixItems (2020-12) beside %s (%s): the two "
		         "dialects read the items differently; fix: set "
		         "$schema to 2020-12 (items then means the items "
		         "after prefixItems), or write the tuple as an items "
		         "array",
		         kv[KW_ITEMS_OLD] != NULL ? "items" : "additionalItems",
		         schema_dialect_name(d)),
		        kw_failed(c, at, &bad)) == -1)
			return -1;
		jptr_pop(&c->ptr, mark);
		kv[KW_PREFIXITEMS] = NULL;
	}
	return bad ? -1 : 0;
}

static const struct schema_node *
compile_object(struct cctx *c, const struct json_value *v)
{
	const struct json_value *kv[KW_COUNT] = {0};
	const struct res_loc *l, *saved;
	struct cnode *cn;
	size_t at = c->ptr.len;
	bool bad = false;

	/* {"properties": {"a": {"properties": ... 600 levels ...}}} */
	if (c->depth >= SCHEMA_MAX_DEPTH)
		return refuse(c, NULL, "the form nests deeper than %d schemas",
		    SCHEMA_MAX_DEPTH);
	if ((cn = arena_calloc(c->a, 1, sizeof(*cn))) == NULL ||
	    (cn->where_len = c->ptr.len, cn->where = arena_strndup(c->a,
	                                     c->ptr.buf, c->ptr.len)) == NULL ||
	    vmap_put(&c->memo, c->a, v, &cn->n) == -1)
		return nomem(c);
	cn->n.kind = SCHEMA_K_NODE;
	cn->src = v;
	if (c->last != NULL)
		c->last->next = cn;
	else
		c->nodes = cn;
	c->last = cn;
	c->nnodes++;

	if ((l = schema_res_loc(c, v, c->loc)) == NULL)
		return NULL;
	saved = c->loc;
	c->loc = l;
	cn->dialect = (unsigned char)l->d;
	/* Each step below goes on past a refusal when every problem is
	 * wanted (kw_failed); otherwise the first one ends the walk. */
	if (read_keywords(c, v, kv) == -1 && kw_failed(c, at, &bad) == -1)
		return NULL;
	cn->n.res = l->res->rt;
	c->depth++;
	if ((check_annotations(c, kv) == -1 && kw_failed(c, at, &bad) == -1) ||
	    (compile_scalar_kws(c, &cn->n, kv) == -1 &&
	        kw_failed(c, at, &bad) == -1) ||
	    (compile_array_kws(c, &cn->n, kv) == -1 &&
	        kw_failed(c, at, &bad) == -1) ||
	    (compile_object_kws(c, &cn->n, kv) == -1 &&
	        kw_failed(c, at, &bad) == -1) ||
	    (compile_inplace_kws(c, cn, kv) == -1 &&
	        kw_failed(c, at, &bad) == -1) ||
	    (compile_defs(c, kv[KW_DEFS], "$defs") == -1 &&
	        kw_failed(c, at, &bad) == -1) ||
	    (compile_defs(c, kv[KW_DEFINITIONS], "definitions") == -1 &&
	        kw_failed(c, at, &bad) == -1))
		return NULL;
	c->depth--;
	c->loc = saved;
	/* {"additionalProperties": true} still says every member was
	 * evaluated, for an unevaluatedProperties above it */
	if (cn->n.flags == 0 && !cn->n.additional_all && !cn->n.items_all &&
	    cn->n.nslots == 0 && !cn->own_collect)
		cn->n.kind = SCHEMA_K_TRUE;
	return bad ? NULL : &cn->n;
}

const struct schema_node *
schema_cc_value(struct cctx *c, const struct json_value *v)
{
	const struct schema_node *n;

	/* draft-04 has no boolean schemas: {"items": true} */
	if ((v->type == JSON_T_TRUE || v->type == JSON_T_FALSE) &&
	    c->loc != NULL && c->loc->d == SCHEMA_D_DRAFT04 && !c->allow_bool)
		return refuse(c, NULL,
		    "draft-04 has no boolean schemas (write {} for true, "
		    "{\"not\": {}} for false)");
	c->allow_bool = false;
	if (v->type == JSON_T_TRUE)
		return &schema_node_true;
	if (v->type == JSON_T_FALSE)
		return &schema_node_false;
	/* {"items": 1}, {"not": "x"} */
	if (v->type != JSON_T_OBJECT)
		return refuse(c, NULL,
		    "a schema must be an object or a "
		    "boolean");
	if ((n = vmap_get(&c->memo, v)) != NULL)
		return n;
	return compile_object(c, v);
}

/* ----- entry point ---------------------------------------------------- */

/* s->nodes: every cnode, in the order compiled (schema_view_each). */
static int
list_nodes(struct cctx *c, struct schema *s)
{
	const struct schema_node **list;
	struct cnode *cn;
	size_t i = 0;

	if ((list = arena_calloc(c->a, c->nnodes + 1, sizeof(*list))) == NULL)
		return nomem(c), -1;
	for (cn = c->nodes; cn != NULL && i < c->nnodes; cn = cn->next) {
		cn->id = (uint32_t)i;
		list[i++] = &cn->n;
	}
	s->nodes = list;
	s->nnodes = i;
	return 0;
}

int
schema_dialect_named(const char *name)
{
	enum schema_dialect d;

	if (schema_dialect_by_name(name, strlen(name), &d) == -1)
		return -1;
	return (int)d;
}

enum schema_result
schema_compile_opts(const struct json_value *root, const struct schema_opts *o,
    struct arena *a, const struct schema **out, struct schema_err *err)
{
	struct cctx c;
	struct schema *s;
	const struct schema_node *n;
	enum schema_dialect d = SCHEMA_D_DEFAULT;

	memset(&c, 0, sizeof(c));
	c.compile = schema_cc_value;
	c.root = root;
	c.a = a;
	c.o = o;
	c.warn = o->warn;
	c.warn_ctx = o->warn_ctx;
	c.err = err;
	c.rc = SCHEMA_OK;
	jptr_init(&c.ptr);
	if (o->dialect >= 0 && o->dialect < SCHEMA_D_COUNT)
		d = (enum schema_dialect)o->dialect;

	if (schema_res_scan(&c, root, o->base_uri != NULL ? o->base_uri : "",
	        o->base_uri != NULL ? strlen(o->base_uri) : 0, d, false) == -1)
		goto fail;
	c.loc = c.resources->loc;
	c.ptr_root = root;
	/* With a problems collector each phase goes on past a refusal, and
	 * the form is refused at the end (c.rc). */
	if ((n = compile_value(&c, root)) == NULL && !schema_cc_go_on(&c))
		goto fail;
	if (schema_res_resolve(&c) == -1)
		goto fail;
	if (c.rc != SCHEMA_OK) {
		/* the no-progress cycles over what compiled: refused too */
		schema_plan_cycles(&c);
		goto fail;
	}
	if (schema_plan(&c) == -1)
		goto fail;
	if ((s = arena_calloc(a, 1, sizeof(*s))) == NULL) {
		nomem(&c);
		goto fail;
	}
	s->root = n;
	s->entry = schema_plan_entry(&c, n);
	if (list_nodes(&c, s) == -1)
		goto fail;
	s->dynamic = c.dynamic;
	if (schema_cc_bundle(&c, s) == -1)
		goto fail;
	*out = s;
	return SCHEMA_OK;
fail:
	if (c.rc == SCHEMA_OK)
		return SCHEMA_NOMEM;
	/* the first problem in document order, for a caller that prints
	 * one */
	if (c.rc == SCHEMA_REFUSED && o->problems != NULL &&
	    o->problems->count > 0)
		*err = o->problems->list[0].err;
	return c.rc;
}

enum schema_result
schema_compile(const struct json_value *root, struct arena *a,
    schema_warn_fn warn, void *warn_ctx, const struct schema **out,
    struct schema_err *err)
{
	struct schema_opts o;

	memset(&o, 0, sizeof(o));
	o.dialect = -1;
	o.warn = warn;
	o.warn_ctx = warn_ctx;
	return schema_compile_opts(root, &o, a, out, err);
}
