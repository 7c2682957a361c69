/*
 * cli_unroll.c: `gpt.fcgi --unroll N SCHEMA`, the draft's "Bounded
 * Recursion" advice done for the operator: a recursive form rewritten
 * into one that bounds the depth in the document itself.
 *
 * The recursive definitions are the targets of local JSON Pointer
 * references ("#", "#/$defs/NAME", "#/definitions/NAME") that reach
 * themselves again through references.  Each group of definitions that
 * reach one another (a strongly connected component of the reference
 * graph) is copied N times, as NAME-1 ... NAME-N beside the original
 * definitions (a recursive root: the root is level 1, root-2 ... root-N
 * its copies).  Inside level k, a reference within the group goes to the
 * same level when it leads to a definition later in the group's order
 * (discovery from the root, depth first), and to level k + 1 otherwise,
 * so every cycle climbs a level; at level N such a reference becomes the
 * schema false (and an anyOf/oneOf branch that is false is dropped).  A
 * value whose recursion stays within N levels is judged exactly as by the
 * original form; one that needs level N + 1 is rejected.  References from
 * outside a group enter it at level 1; the originals of the recursive
 * definitions are removed.
 *
 * Refused (exit 1, the reason and its schema pointer on stderr), because
 * the rewrite would then change what the form accepts or could not be
 * expressed: a recursive reference under `not`, `if` or `contains` (a
 * cut there would accept more, not less); a recursive target that is not
 * a whole definition; a reference into the inside of a recursive
 * definition; `$id` or anchors inside a recursive definition (copies
 * would collide); a copy name already taken.  Recursion the rewrite does
 * not follow (by anchor, $dynamicRef, another document) is found by
 * compiling the result: if it still recurses, that is exit 1 too.
 * Exit 0: the bounded form on stdout (a form without recursion is
 * printed unchanged, with a note on stderr); 2: usage, or the form is
 * refused as it stands.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/buf.h"
#include "base/num.h"
#include "cli/cli.h"
#include "cli/cli_form.h"
#include "parser/jptr.h"
#include "parser/json.h"
#include "parser/json_out.h"
#include "schema/schema.h"
#include "schema/schema_dialect.h"
#include "schema/schema_view.h"

#define UNROLL_LEVELS_MAX 64 /* N */
#define UNROLL_UNITS_MAX 256 /* distinct reference targets followed */

/* How the members of a schema object hold subschemas. */
enum unroll_kw {
	UK_DATA,  /* not a schema: copied as it is */
	UK_ONE,   /* one subschema */
	UK_MAP,   /* an object of subschemas */
	UK_LIST,  /* an array of subschemas */
	UK_ITEMS, /* items: one, or (before 2020-12) an array */
	UK_DEPS,  /* dependencies: subschemas or arrays of names */
};

/* A reference target: a recursive one becomes a unit copied N times. */
struct unroll_unit {
	const struct json_value *v; /* borrowed: the target in the tree */
	const struct json_value *container; /* its $defs/definitions, or
	                                       NULL for the root */
	const char *container_name;
	struct json_string name; /* the definition's name ("root") */
	bool recursive;
	unsigned scc; /* units that reach each other share it */
};

struct unroll {
	const struct json_value *root;
	enum schema_dialect d; /* the root's, as compiled */
	struct unroll_unit units[UNROLL_UNITS_MAX];
	size_t nunits;
	bool reach[UNROLL_UNITS_MAX][UNROLL_UNITS_MAX];
	unsigned n;
	const char *root_container; /* where root copies go */
	struct buf out;
	/* the first reason to refuse, and where */
	const char *why;
	struct jptr where;
	struct jptr ptr;   /* the walk's schema pointer */
	struct json_out w; /* its nomem: any allocation refused */
	/* references met under not/if/contains, judged once the groups
	 * are known */
	struct {
		int from, to;
		struct jptr where;
	} widen[UNROLL_UNITS_MAX];
	size_t nwiden;
};

/* How the keyword k holds subschemas (the registry's child edges), and
 * whether a cut below it may accept more. */
static enum unroll_kw
kw_of(const struct unroll *u, const struct json_string *k, bool *cut_widens)
{
	const struct schema_kw_info *row = schema_kw_find(u->d, k->ptr, k->len);

	if (cut_widens != NULL)
		*cut_widens = row != NULL && row->tests;
	if (row == NULL)
		return UK_DATA;
	switch (row->shape) {
	case SCHEMA_KS_ONE:
		/* 2020-12's items is one schema; an array there is refused
		 * by the compiler already, so reading both is the same */
		return row->kw == KW_ITEMS ? UK_ITEMS : UK_ONE;
	case SCHEMA_KS_LIST:
		return UK_LIST;
	case SCHEMA_KS_MAP:
		return UK_MAP;
	case SCHEMA_KS_ONE_OR_LIST:
		return UK_ITEMS;
	case SCHEMA_KS_DEPS:
		return UK_DEPS;
	case SCHEMA_KS_NONE:
		break;
	}
	return UK_DATA;
}

static bool
key_is_kw(const struct json_string *k, enum kw kw)
{
	const char *name = schema_kw_name(kw);

	return k->len == strlen(name) && memcmp(k->ptr, name, k->len) == 0;
}

static const struct json_value *
get_kw(const struct json_value *v, enum kw kw)
{
	const char *name = schema_kw_name(kw);

	return json_object_get(v, name, strlen(name));
}

static bool
is_defs(const struct json_string *k)
{
	return key_is_kw(k, KW_DEFS) || key_is_kw(k, KW_DEFINITIONS);
}

/* The container name of the defs member k. */
static const char *
defs_name(const struct json_string *k)
{
	return schema_kw_name(key_is_kw(k, KW_DEFS) ? KW_DEFS : KW_DEFINITIONS);
}

/* Is k $id, id or an anchor: a name its copies would repeat? */
static bool
is_identifier(const struct json_string *k)
{
	return key_is_kw(k, KW_ID) || key_is_kw(k, KW_ID_OLD) ||
	       key_is_kw(k, KW_ANCHOR) || key_is_kw(k, KW_DYNAMICANCHOR) ||
	       key_is_kw(k, KW_RECURSIVEANCHOR);
}

static void
refuse(struct unroll *u, const char *why)
{
	if (u->why == NULL) {
		u->why = why;
		u->where = u->ptr;
	}
}

/* The unit index of the local pointer reference ref, or -1 (not a local
 * pointer, or names nothing: the compiler has judged those already). */
static int
unit_of_value(const struct unroll *u, const struct json_value *t)
{
	size_t i;

	for (i = 0; i < u->nunits; i++)
		if (u->units[i].v == t)
			return (int)i;
	return -1;
}

static const struct json_value *
ref_target(const struct unroll *u, const struct json_value *ref)
{
	if (ref == NULL || ref->type != JSON_T_STRING || ref->u.str.len == 0 ||
	    ref->u.str.ptr[0] != '#' ||
	    (ref->u.str.len > 1 && ref->u.str.ptr[1] != '/'))
		return NULL; /* "other.json#/a", "#anchor": not followed */
	return jptr_resolve(u->root, ref->u.str.ptr, ref->u.str.len);
}

/* Where target t sits: the root, or a member of the root's $defs or
 * definitions; sets the unit's container and name. */
static void
unit_place(struct unroll *u, struct unroll_unit *un)
{
	size_t i, j;

	un->container = NULL;
	un->name.ptr = "root";
	un->name.len = 4;
	un->container_name = NULL;
	if (un->v == u->root || u->root->type != JSON_T_OBJECT)
		return;
	for (i = 0; i < u->root->u.obj.count; i++) {
		const struct json_member *m = &u->root->u.obj.members[i];

		if (!is_defs(&m->key) || m->value.type != JSON_T_OBJECT)
			continue;
		for (j = 0; j < m->value.u.obj.count; j++)
			if (&m->value.u.obj.members[j].value == un->v) {
				un->container = &m->value;
				un->container_name = defs_name(&m->key);
				un->name = m->value.u.obj.members[j].key;
				return;
			}
	}
}

/* ----- the reference graph ---------------------------------------------- */

static void collect(struct unroll *u, const struct json_value *v, int from,
    bool widen, unsigned depth);

/* Add the target of a reference met inside unit `from` (-1: outside any
 * target), then walk the target itself the first time it is seen, so
 * units are numbered depth first from the root. */
static void
collect_ref(struct unroll *u, const struct json_value *ref,
    const struct json_value *t, int from, bool widen, unsigned depth)
{
	int k = unit_of_value(u, t);

	if (k < 0) {
		if (u->nunits == UNROLL_UNITS_MAX) {
			refuse(u, "more reference targets than --unroll "
			          "follows (256)");
			return;
		}
		k = (int)u->nunits++;
		u->units[k].v = t;
		unit_place(u, &u->units[k]);
		{
			/* the walk goes on at the target's own pointer */
			struct jptr save = u->ptr;

			if (ref == NULL ||
			    jptr_from_fragment(
			        &u->ptr, ref->u.str.ptr, ref->u.str.len) == -1)
				jptr_init(&u->ptr);
			collect(u, t, k, false, depth + 1);
			u->ptr = save;
		}
	}
	if (from < 0)
		return;
	u->reach[from][k] = true;
	if (widen && u->nwiden < GPT_ARRAY_LEN(u->widen)) {
		u->widen[u->nwiden].from = from;
		u->widen[u->nwiden].to = k;
		u->widen[u->nwiden].where = u->ptr;
		u->nwiden++;
	} else if (widen) {
		refuse(u, "too many references under not, if or contains");
	}
}

static void
collect_kw(struct unroll *u, enum unroll_kw kw, const struct json_value *v,
    int from, bool widen, unsigned depth)
{
	size_t i, save;

	switch (kw) {
	case UK_DATA:
		break;
	case UK_ITEMS:
		if (v->type != JSON_T_ARRAY) {
			collect(u, v, from, widen, depth);
			break;
		}
		/* FALLTHROUGH */
	case UK_LIST:
		if (v->type != JSON_T_ARRAY)
			break;
		for (i = 0; i < v->u.arr.count; i++) {
			save = jptr_push_index(&u->ptr, i);
			collect(u, &v->u.arr.items[i], from, widen, depth);
			jptr_pop(&u->ptr, save);
		}
		break;
	case UK_MAP:
	case UK_DEPS:
		if (v->type != JSON_T_OBJECT)
			break;
		for (i = 0; i < v->u.obj.count; i++) {
			const struct json_member *m = &v->u.obj.members[i];

			if (kw == UK_DEPS && m->value.type == JSON_T_ARRAY)
				continue; /* {"dependencies": {"a": ["b"]}} */
			save = jptr_push(&u->ptr, m->key.ptr, m->key.len);
			collect(u, &m->value, from, widen, depth);
			jptr_pop(&u->ptr, save);
		}
		break;
	case UK_ONE:
		collect(u, v, from, widen, depth);
		break;
	}
}

/* The references v applies in place (never through $defs/definitions,
 * which are only reached by reference). */
static void
collect(struct unroll *u, const struct json_value *v, int from, bool widen,
    unsigned depth)
{
	size_t i, save;

	if (v->type != JSON_T_OBJECT || u->why != NULL)
		return;
	if (depth > JSON_MAX_DEPTH * 2) {
		refuse(u, "references nest too deep to follow");
		return;
	}
	for (i = 0; i < v->u.obj.count; i++) {
		const struct json_member *m = &v->u.obj.members[i];
		bool w = false;
		enum unroll_kw kw = kw_of(u, &m->key, &w);

		save = jptr_push(&u->ptr, m->key.ptr, m->key.len);
		if (key_is_kw(&m->key, KW_REF)) {
			const struct json_value *t = ref_target(u, &m->value);

			if (t != NULL)
				collect_ref(
				    u, &m->value, t, from, widen, depth);
		} else if (!is_defs(&m->key)) {
			collect_kw(u, kw, &m->value, from, widen || w, depth);
		}
		jptr_pop(&u->ptr, save);
	}
}

/* Does any value inside v (the whole JSON subtree, its defs excepted
 * when skip_defs) equal a non-recursive target, or carry $id or an
 * anchor?  Sets u->why. */
static void
check_inside(struct unroll *u, const struct json_value *v, size_t self,
    bool skip_defs, bool top, unsigned depth)
{
	size_t i, save;
	int k;

	if (u->why != NULL || depth > JSON_MAX_DEPTH)
		return;
	if (!top && (k = unit_of_value(u, v)) >= 0 && (size_t)k != self) {
		refuse(u, "a reference points inside a recursive definition "
		          "(make the target a definition of its own)");
		return;
	}
	if (v->type == JSON_T_ARRAY)
		for (i = 0; i < v->u.arr.count; i++) {
			save = jptr_push_index(&u->ptr, i);
			check_inside(u, &v->u.arr.items[i], self, false, false,
			    depth + 1);
			jptr_pop(&u->ptr, save);
		}
	if (v->type != JSON_T_OBJECT)
		return;
	for (i = 0; i < v->u.obj.count; i++) {
		const struct json_member *m = &v->u.obj.members[i];

		if (skip_defs && is_defs(&m->key))
			continue;
		save = jptr_push(&u->ptr, m->key.ptr, m->key.len);
		if (!(top && self == 0 && v == u->root) &&
		    is_identifier(&m->key) && m->value.type == JSON_T_STRING) {
			refuse(u, "an identifier ($id or an anchor) inside a "
			          "recursive definition: its copies would "
			          "collide");
		}
		check_inside(u, &m->value, self, false, false, depth + 1);
		jptr_pop(&u->ptr, save);
	}
}

/* Transitive closure, groups, and the checks that need them. */
static void
analyse(struct unroll *u)
{
	size_t i, j, k;

	for (k = 0; k < u->nunits; k++)
		for (i = 0; i < u->nunits; i++)
			if (u->reach[i][k])
				for (j = 0; j < u->nunits; j++)
					if (u->reach[k][j])
						u->reach[i][j] = true;
	for (i = 0; i < u->nunits; i++) {
		u->units[i].recursive = u->reach[i][i];
		u->units[i].scc = (unsigned)i;
		for (j = 0; j < i; j++)
			if (u->reach[i][j] && u->reach[j][i]) {
				u->units[i].scc = u->units[j].scc;
				break;
			}
	}
	for (i = 0; i < u->nwiden && u->why == NULL; i++) {
		const struct unroll_unit *a = &u->units[u->widen[i].from];
		const struct unroll_unit *b = &u->units[u->widen[i].to];

		if (a->recursive && b->recursive && a->scc == b->scc) {
			/* {"$defs": {"n": {"not": {"$ref": "#/$defs/n"}}}} */
			u->ptr = u->widen[i].where;
			refuse(u, "a recursive reference under not, if or "
			          "contains: cutting it would accept more");
		}
	}
	for (i = 0; i < u->nunits && u->why == NULL; i++) {
		struct unroll_unit *un = &u->units[i];

		if (!un->recursive)
			continue;
		jptr_init(&u->ptr);
		if (un->v != u->root && un->container == NULL) {
			/* "#/properties/a" referring to itself */
			refuse(u, "a recursive reference whose target is not "
			          "the root or a $defs/definitions entry");
			return;
		}
		if (un->container != NULL) {
			jptr_push(&u->ptr, un->container_name,
			    strlen(un->container_name));
			jptr_push(&u->ptr, un->name.ptr, un->name.len);
		}
		check_inside(u, un->v, i, un->v == u->root, true, 0);
	}
}

/* ----- the rewrite ------------------------------------------------------ */

/* Where a walk is: inside level `level` of unit `unit`, or outside. */
struct unroll_at {
	int unit; /* -1 outside the recursive units */
	unsigned level;
};

/* The copy name of unit k at level: NAME-level (root-level). */
static void
put_copy_name(struct unroll *u, size_t k, unsigned level)
{
	char num[16];
	struct buf name;
	struct json_string s;

	buf_init(&name, 4096);
	snprintf(num, sizeof(num), "-%u", level);
	if (buf_append(&name, u->units[k].name.ptr, u->units[k].name.len) ==
	        -1 ||
	    buf_puts(&name, num) == -1) {
		u->w.nomem = true;
	} else {
		s.ptr = buf_ptr(&name);
		s.len = buf_len(&name);
		json_out_key(&u->w, &s);
	}
	buf_free(&name);
}

/* The reference "#/CONTAINER/NAME-level", percent-encoded (RFC 3986
 * section 3.5: the fragment), pointer-escaped (RFC 6901 section 3). */
static void
put_copy_ref(struct unroll *u, size_t k, unsigned level)
{
	static const char hex[] = "0123456789ABCDEF";
	const struct unroll_unit *un = &u->units[k];
	const char *cont;
	size_t i;
	char num[16];

	if (un->v == u->root && level == 1) {
		json_out_puts(&u->w, "\"#\"");
		return;
	}
	cont = un->container != NULL ? un->container_name : u->root_container;
	json_out_puts(&u->w, "\"#/");
	json_out_puts(&u->w, cont); /* "$" is a sub-delim: no escape */
	json_out_puts(&u->w, "/");
	for (i = 0; i < un->name.len; i++) {
		unsigned char c = (unsigned char)un->name.ptr[i];

		if (c == '~')
			json_out_puts(&u->w, "~0");
		else if (c == '/')
			json_out_puts(&u->w, "~1");
		else if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
		         (c >= '0' && c <= '9') ||
		         strchr("-._!$&'()*+,;=:@", c))
			json_out_put(&u->w, &un->name.ptr[i], 1);
		else {
			char e[3] = {'%', hex[c >> 4], hex[c & 15]};

			json_out_put(&u->w, e, 3);
		}
	}
	snprintf(num, sizeof(num), "-%u\"", level);
	json_out_puts(&u->w, num);
}

/* The level a reference to unit t gets when met at `at`: 0 is the cut. */
static unsigned
level_of(const struct unroll *u, struct unroll_at at, size_t t)
{
	if (at.unit < 0 || u->units[at.unit].scc != u->units[t].scc)
		return 1;
	/* a later unit of the group: the same level; else a level up */
	if (t > (size_t)at.unit)
		return at.level;
	return at.level < u->n ? at.level + 1 : 0;
}

/* Is v a schema object whose recursive reference is cut here? */
static bool
is_cut(const struct unroll *u, const struct json_value *v, struct unroll_at at)
{
	const struct json_value *t;
	int k;

	if (v->type != JSON_T_OBJECT)
		return false;
	t = ref_target(u, get_kw(v, KW_REF));
	if (t == NULL || (k = unit_of_value(u, t)) < 0 ||
	    !u->units[k].recursive)
		return false;
	return level_of(u, at, (size_t)k) == 0;
}

static void emit(struct unroll *u, const struct json_value *v,
    struct unroll_at at, bool is_root, unsigned depth);

static void
emit_list(struct unroll *u, const struct json_value *v, struct unroll_at at,
    bool drop_false, unsigned depth)
{
	size_t i, kept = 0, left = 0;

	for (i = 0; i < v->u.arr.count; i++)
		if (!is_cut(u, &v->u.arr.items[i], at))
			left++;
	json_out_put(&u->w, "[", 1);
	for (i = 0; i < v->u.arr.count; i++) {
		/* anyOf [A, false]: the same as anyOf [A]; oneOf too, as
		 * false never matches */
		if (drop_false && left > 0 && is_cut(u, &v->u.arr.items[i], at))
			continue;
		if (kept++ > 0)
			json_out_put(&u->w, ",", 1);
		emit(u, &v->u.arr.items[i], at, false, depth + 1);
	}
	json_out_put(&u->w, "]", 1);
}

static void
emit_kw(struct unroll *u, const struct json_member *m, struct unroll_at at,
    unsigned depth)
{
	const struct json_value *v = &m->value;
	enum unroll_kw kw = kw_of(u, &m->key, NULL);
	size_t i, n = 0;

	switch (kw) {
	case UK_ONE:
		emit(u, v, at, false, depth + 1);
		return;
	case UK_ITEMS:
	case UK_LIST:
		if (v->type == JSON_T_ARRAY) {
			emit_list(u, v, at,
			    key_is_kw(&m->key, KW_ANYOF) ||
			        key_is_kw(&m->key, KW_ONEOF),
			    depth);
			return;
		}
		if (kw == UK_ITEMS) {
			emit(u, v, at, false, depth + 1);
			return;
		}
		break;
	case UK_MAP:
	case UK_DEPS:
		if (v->type != JSON_T_OBJECT)
			break;
		json_out_put(&u->w, "{", 1);
		for (i = 0; i < v->u.obj.count; i++) {
			const struct json_member *c = &v->u.obj.members[i];

			/* the originals of recursive definitions go */
			if (is_defs(&m->key)) {
				int k = unit_of_value(u, &c->value);

				if (k >= 0 && u->units[k].recursive)
					continue;
			}
			if (n++ > 0)
				json_out_put(&u->w, ",", 1);
			json_out_key(&u->w, &c->key);
			if (kw == UK_DEPS && c->value.type == JSON_T_ARRAY)
				json_out_value(&u->w, &c->value);
			else
				emit(u, &c->value, at, false, depth + 1);
		}
		json_out_put(&u->w, "}", 1);
		return;
	case UK_DATA:
		break;
	}
	json_out_value(&u->w, v);
}

/* The copies of every recursive unit that lives in container `cont`
 * (NULL: the root's), each level, each member preceded by a comma when
 * *n > 0. */
static void
emit_copies(struct unroll *u, const char *cont, size_t *n, unsigned depth)
{
	size_t k;
	unsigned level;

	for (k = 0; k < u->nunits; k++) {
		const struct unroll_unit *un = &u->units[k];

		if (!un->recursive ||
		    (un->container != NULL
		            ? strcmp(un->container_name, cont) != 0
		            : strcmp(u->root_container, cont) != 0))
			continue;
		for (level = un->v == u->root ? 2 : 1; level <= u->n; level++) {
			struct unroll_at at = {(int)k, level};

			if ((*n)++ > 0)
				json_out_put(&u->w, ",", 1);
			put_copy_name(u, k, level);
			emit(u, un->v, at, un->v == u->root, depth + 1);
		}
	}
}

/* Is name (NAME-level of a recursive unit) already a member of cont? */
static void
check_names(struct unroll *u)
{
	size_t i, k;
	unsigned level;
	char num[16];

	for (k = 0; k < u->nunits && u->why == NULL; k++) {
		const struct unroll_unit *un = &u->units[k];
		const char *cn = un->container != NULL ? un->container_name
		                                       : u->root_container;
		const struct json_value *c =
		    u->root->type == JSON_T_OBJECT
		        ? json_object_get(u->root, cn, strlen(cn))
		        : NULL;

		if (!un->recursive || c == NULL || c->type != JSON_T_OBJECT)
			continue;
		for (level = 1; level <= u->n; level++) {
			int len = snprintf(num, sizeof(num), "-%u", level);

			for (i = 0; i < c->u.obj.count; i++) {
				const struct json_string *name =
				    &c->u.obj.members[i].key;

				if (name->len == un->name.len + (size_t)len &&
				    memcmp(name->ptr, un->name.ptr,
				        un->name.len) == 0 &&
				    memcmp(name->ptr + un->name.len, num,
				        (size_t)len) == 0) {
					jptr_init(&u->ptr);
					jptr_push(&u->ptr, cn, strlen(cn));
					jptr_push(
					    &u->ptr, name->ptr, name->len);
					refuse(u, "the name of a level's copy "
					          "is already taken");
					return;
				}
			}
		}
	}
}

static void
emit(struct unroll *u, const struct json_value *v, struct unroll_at at,
    bool is_root, unsigned depth)
{
	size_t i, n = 0;
	bool wrote_defs = false;

	if (depth > JSON_MAX_DEPTH * 2) {
		u->w.nomem = true;
		return;
	}
	if (v->type != JSON_T_OBJECT) {
		json_out_value(&u->w, v);
		return;
	}
	if (is_cut(u, v, at)) {
		/* the last level: the recursive alternative is gone */
		json_out_puts(&u->w, "false");
		return;
	}
	json_out_put(&u->w, "{", 1);
	for (i = 0; i < v->u.obj.count; i++) {
		const struct json_member *m = &v->u.obj.members[i];

		/* a copy of the root: no defs, no identity of its own */
		if (is_root && at.level > 1 &&
		    (is_defs(&m->key) || key_is_kw(&m->key, KW_SCHEMA) ||
		        key_is_kw(&m->key, KW_VOCABULARY) ||
		        is_identifier(&m->key)))
			continue;
		if (n++ > 0)
			json_out_put(&u->w, ",", 1);
		json_out_key(&u->w, &m->key);
		if (key_is_kw(&m->key, KW_REF)) {
			const struct json_value *t = ref_target(u, &m->value);
			int k = t != NULL ? unit_of_value(u, t) : -1;

			if (k >= 0 && u->units[k].recursive)
				put_copy_ref(
				    u, (size_t)k, level_of(u, at, (size_t)k));
			else
				json_out_value(&u->w, &m->value);
			continue;
		}
		if (is_root && at.level <= 1 && is_defs(&m->key) &&
		    m->value.type == JSON_T_OBJECT) {
			/* the root's defs: the originals that stay, then the
			 * copies that belong here */
			size_t cn = 0, j;
			const char *name = defs_name(&m->key);
			struct unroll_at out = {-1, 0};

			json_out_put(&u->w, "{", 1);
			for (j = 0; j < m->value.u.obj.count; j++) {
				const struct json_member *c =
				    &m->value.u.obj.members[j];
				int k = unit_of_value(u, &c->value);

				if (k >= 0 && u->units[k].recursive)
					continue;
				if (cn++ > 0)
					json_out_put(&u->w, ",", 1);
				json_out_key(&u->w, &c->key);
				emit(u, &c->value, out, false, depth + 1);
			}
			emit_copies(u, name, &cn, depth);
			json_out_put(&u->w, "}", 1);
			if (strcmp(name, u->root_container) == 0)
				wrote_defs = true;
			continue;
		}
		emit_kw(u, m, at, depth);
	}
	if (is_root && at.level <= 1 && !wrote_defs && u->units[0].recursive) {
		/* a recursive root without a place for its copies */
		size_t cn = 0;

		if (n++ > 0)
			json_out_put(&u->w, ",", 1);
		json_out_puts(&u->w, "\"");
		json_out_puts(&u->w, u->root_container);
		json_out_puts(&u->w, "\":{");
		emit_copies(u, u->root_container, &cn, depth);
		json_out_put(&u->w, "}", 1);
	}
	json_out_put(&u->w, "}", 1);
}

/* ----- the command ------------------------------------------------------ */

struct unroll_warned {
	bool recursion;
	char where[JPTR_MAX];
};

static void
note_warning(void *ctx, const char *pointer, const char *message)
{
	struct unroll_warned *w = ctx;

	if (strstr(message, "recursion") != NULL && !w->recursion) {
		w->recursion = true;
		snprintf(w->where, sizeof(w->where), "%s", pointer);
	}
}

/* The root's container for copies of a recursive root: the one it has,
 * else its dialect's ("definitions" before 2019-09). */
static const char *
root_container(const struct unroll *u)
{
	const struct json_value *root = u->root;

	if (root->type == JSON_T_OBJECT && get_kw(root, KW_DEFS) != NULL)
		return schema_kw_name(KW_DEFS);
	if (root->type == JSON_T_OBJECT && get_kw(root, KW_DEFINITIONS) != NULL)
		return schema_kw_name(KW_DEFINITIONS);
	return schema_kw_name(
	    u->d < SCHEMA_D_2019_09 ? KW_DEFINITIONS : KW_DEFS);
}

/* The first schema of the form with a keyword the view does not
 * describe: the rewrite cannot know what its copies would accept. */
static int
find_opaque(void *ctx, const struct schema_node *n)
{
	struct unroll *u = ctx;
	struct schema_view v;
	const char *name;
	size_t len;

	schema_view_get(n, &v);
	if (!v.undescribed || schema_view_opaque(n, 0, &name, &len) == SIZE_MAX)
		return 0;
	/* the view's pointer is escaped already: copied, then the name */
	jptr_init(&u->ptr);
	u->ptr.len = v.pointer_len < sizeof(u->ptr.buf) - 1
	                 ? v.pointer_len
	                 : sizeof(u->ptr.buf) - 1;
	memcpy(u->ptr.buf, v.pointer, u->ptr.len);
	u->ptr.buf[u->ptr.len] = '\0';
	u->ptr.truncated = u->ptr.len < v.pointer_len;
	(void)jptr_push(&u->ptr, name, len);
	refuse(u, "a keyword the tools do not describe (nothing is known of "
	          "what its copies would accept)");
	return 1;
}

/* The form document doc with its s replaced by s (--unroll --form), in
 * a; NULL when it does not fit. */
static const struct json_value *
unroll_whole(struct unroll *u, const struct json_value *doc,
    const struct json_value *s, struct arena *a)
{
	const struct json_value *res = NULL;
	struct json_err jerr;
	struct buf text;
	struct json_out w = {&text, false};
	const char *copy;
	size_t k;

	/* s's strings point into u->out: a buffer of its own, kept in a
	 * (the tree parsed from it points into it too) */
	(void)u;
	buf_init(&text, CLI_INPUT_MAX);
	json_out_puts(&w, "{");
	for (k = 0; k < doc->u.obj.count; k++) {
		const struct json_member *m = &doc->u.obj.members[k];

		if (k > 0)
			json_out_puts(&w, ",");
		json_out_key(&w, &m->key);
		json_out_value(&w,
		    m->key.len == 1 && m->key.ptr[0] == 's' ? s : &m->value);
	}
	json_out_puts(&w, "}");
	if (!w.nomem &&
	    (copy = arena_strndup(a, buf_ptr(&text), buf_len(&text))) != NULL &&
	    json_parse(copy, buf_len(&text), a, 0, &res, &jerr) != JSON_OK)
		res = NULL;
	buf_free(&text);
	return res;
}

int
cli_unroll(int argc, char **argv)
{
	struct cli_form f;
	struct unroll *u = NULL;
	const struct json_value *res;
	const struct schema *out;
	struct json_err jerr;
	struct unroll_warned w;
	char reason[SCHEMA_REASON_MAX + JPTR_MAX + 32];
	uint64_t n;
	size_t k;
	int i = 1, status = 2;
	bool any = false, whole = false;
	struct stat st;

	cli_form_init(&f);
	if (i < argc && strcmp(argv[i], "--form") == 0) {
		whole = true;
		i++;
	}
	if (cli_form_opt(&f, argc, argv, &i) == -1)
		goto done;
	if (argc - i != 2)
		goto usage;
	if (num_read_str(argv[i], 1, UNROLL_LEVELS_MAX, NUM_CANONICAL, &n) !=
	    NULL)
		goto usage; /* --unroll 0 form.json */
	if (whole && (stat(argv[i + 1], &st) == -1 || !S_ISDIR(st.st_mode))) {
		/* hits on --unroll --form 3 schema.json */
		fprintf(stderr,
		    "gpt.fcgi: --unroll --form takes an address directory "
		    "(its form.json is written whole)\n");
		goto done;
	}
	if (cli_form_load(&f, argv[i + 1]) == -1)
		goto done;
	if ((u = calloc(1, sizeof(*u))) == NULL) {
		fprintf(stderr, "gpt.fcgi: out of memory\n");
		goto done;
	}
	u->root = f.schema;
	u->n = (unsigned)n;
	{
		struct schema_view rv;

		schema_view_get(schema_view_root(f.form), &rv);
		u->d = rv.dialect >= 0 ? (enum schema_dialect)rv.dialect
		                       : SCHEMA_D_DEFAULT;
	}
	u->root_container = root_container(u);
	(void)schema_view_each(f.form, find_opaque, u);
	buf_init(&u->out, CLI_INPUT_MAX);
	u->w.out = &u->out;
	/* the root first: unit 0 */
	collect_ref(u, NULL, u->root, -1, false, 0);
	/* then the definitions no reference reached */
	for (k = 0; u->root->type == JSON_T_OBJECT && k < u->root->u.obj.count;
	     k++) {
		const struct json_member *m = &u->root->u.obj.members[k];
		size_t j, save;

		if (!is_defs(&m->key) || m->value.type != JSON_T_OBJECT)
			continue;
		for (j = 0; j < m->value.u.obj.count; j++) {
			const struct json_member *d =
			    &m->value.u.obj.members[j];

			if (unit_of_value(u, &d->value) >= 0)
				continue;
			save = jptr_push(&u->ptr, m->key.ptr, m->key.len);
			jptr_push(&u->ptr, d->key.ptr, d->key.len);
			collect(u, &d->value, -1, false, 1);
			jptr_pop(&u->ptr, save);
		}
	}
	if (u->why == NULL)
		analyse(u);
	if (u->why == NULL)
		check_names(u);
	status = 1;
	if (u->why != NULL) {
		fprintf(stderr, "gpt.fcgi: %s: cannot unroll at ", f.path);
		cli_form_put_where(&u->where);
		fprintf(stderr, ": %s\n", u->why);
		goto done;
	}
	for (k = 0; k < u->nunits; k++)
		any = any || u->units[k].recursive;
	res = u->root;
	if (any) {
		struct unroll_at top = {u->units[0].recursive ? 0 : -1,
		    u->units[0].recursive ? 1 : 0};

		emit(u, u->root, top, true, 0);
		if (u->w.nomem)
			goto toolarge;
		if (json_parse(buf_ptr(&u->out), buf_len(&u->out), &f.a, 0,
		        &res, &jerr) != JSON_OK) {
			fprintf(stderr,
			    "gpt.fcgi: %s: the unrolled form nests too deep "
			    "(%s)\n",
			    f.path, json_errstr(jerr.code));
			goto done;
		}
	}
	/* the result must load, and no longer recurse */
	memset(&w, 0, sizeof(w));
	if (cli_form_compile(&f, res, note_warning, &w, &out, reason,
	        sizeof(reason)) == -1) {
		fprintf(stderr, "gpt.fcgi: %s: the unrolled form is %s\n",
		    f.path, reason);
		goto done;
	}
	if (w.recursion) {
		/* {"$defs": {"a": {"$anchor": "a", "items": {"$ref": "#a"}}}}
		 */
		fprintf(stderr,
		    "gpt.fcgi: %s: cannot unroll at %s: recursion through a "
		    "reference the rewrite does not follow (an anchor, "
		    "$dynamicRef, $recursiveRef or another document)\n",
		    f.path, w.where[0] != '\0' ? w.where : "the root");
		goto done;
	}
	if (!any)
		fprintf(stderr,
		    "gpt.fcgi: %s: no recursion to unroll; the "
		    "form as it is\n",
		    f.path);
	if (whole && (res = unroll_whole(u, f.addr.doc, res, &f.a)) == NULL)
		goto toolarge;
	status = cli_form_print(res) == 0 ? 0 : 2;
	goto done;
toolarge:
	fprintf(
	    stderr, "gpt.fcgi: %s: the unrolled form is too large\n", f.path);
done:
	if (u != NULL) {
		buf_free(&u->out);
		free(u);
	}
	cli_form_free(&f);
	return status;
usage:
	fputs("usage: gpt.fcgi --unroll " CLI_FORM_OPTS_USAGE
	      " N DIR-or-SCHEMA.json"
	      "   (1 <= N <= 64)\n"
	      "       gpt.fcgi --unroll --form N DIR   the whole form.json, "
	      "its s unrolled\n",
	    stderr);
	cli_form_free(&f);
	return 2;
}
