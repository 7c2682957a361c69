/*
 * schema_cc.c: the compiler's context (schema_cc.h): refusals and the
 * problems of --check in document order, the quiet tries, running out of
 * memory.  Shared by the compiler's files (schema_compile.c, schema_res.c,
 * schema_plan.c), which call it and never each other back: schema_res.c
 * compiles a reference's target through the context's compile function,
 * which schema_compile.c sets.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "base/arena.h"
#include "base/num.h"
#include "parser/jptr.h"
#include "parser/json.h"
#include "schema/schema.h"
#include "schema/schema_int.h"
#include "schema/schema_cc.h"

static void err_reason(struct schema_err *err, const char *fmt, va_list ap)
    GPT_PRINTF(2, 0);

static void
err_reason(struct schema_err *err, const char *fmt, va_list ap)
{
	vsnprintf(err->reason, sizeof(err->reason), fmt, ap);
	/* Names come from the form: keep the message on one printable line. */
	gpt_mask_controls(err->reason, strlen(err->reason));
}

void
schema_clip(char *out, const char *s, size_t len)
{
	if (len > SCHEMA_CLIP_MAX)
		len = SCHEMA_CLIP_MAX;
	memcpy(out, s, len);
	gpt_mask_controls(out, len);
	out[len] = '\0';
}

void
schema_problems_init(struct schema_problems *p)
{
	p->count = 0;
	p->more = 0;
}

/*
 * The document order key of the refusal at c->ptr: the member or item
 * index at each level, found by walking c->root (member names through
 * the parser's index, so a key costs the pointer's depth, not the
 * form's size).  A pointer into another document, or cut short, keys as
 * far as it resolves.
 */
static void
problem_key(const struct cctx *c, struct schema_problem *p)
{
	const struct json_value *v = c->root;
	const char *s = c->ptr.buf, *end = c->ptr.buf + c->ptr.len;
	char tok[JPTR_MAX];

	p->depth = 0;
	p->outside = c->ptr_root == NULL || c->ptr_root != c->root;
	while (!p->outside && s < end && *s == '/' &&
	       p->depth < SCHEMA_PROBLEM_DEPTH) {
		const char *t = s + 1, *e = memchr(t, '/', (size_t)(end - t));
		size_t n = 0, i = 0;
		uint64_t idx;

		if (e == NULL)
			e = end;
		/* RFC 6901 section 4: ~1 is '/', ~0 is '~' */
		for (; t < e; t++)
			if (*t == '~' && t + 1 < e) {
				tok[n++] = t[1] == '1' ? '/' : '~';
				t++;
			} else {
				tok[n++] = *t;
			}
		if (v->type == JSON_T_OBJECT) {
			const struct json_value *m = json_object_get(v, tok, n);

			if (m == NULL)
				return;
			i = (size_t)((const struct json_member *)(const void
			                     *)((const char *)m -
			                        offsetof(struct json_member,
			                            value)) -
			             v->u.obj.members);
			v = m;
		} else if (v->type == JSON_T_ARRAY && v->u.arr.count > 0) {
			if (num_read(tok, n, 0, v->u.arr.count - 1, 0, &idx) !=
			    NULL)
				return;
			i = (size_t)idx;
			v = &v->u.arr.items[i];
		} else {
			return;
		}
		p->path[p->depth++] = (uint32_t)i;
		s = e;
	}
}

/* <0, 0, >0: a comes before, with, after b in document order; a parent
 * before what it holds, another document after the form. */
static int
problem_cmp(const struct schema_problem *a, const struct schema_problem *b)
{
	unsigned i;

	if (a->outside || b->outside)
		return (int)a->outside - (int)b->outside;
	for (i = 0; i < a->depth && i < b->depth; i++)
		if (a->path[i] != b->path[i])
			return a->path[i] < b->path[i] ? -1 : 1;
	return (int)a->depth - (int)b->depth;
}

/* Keep e among the first SCHEMA_PROBLEMS_MAX problems in document order
 * (after those at the same place: the order found), or count it. */
static void
problem_add(struct cctx *c, const struct schema_err *e)
{
	struct schema_problems *ps = c->o->problems;
	struct schema_problem p;
	size_t i, at;

	p.err = *e;
	problem_key(c, &p);
	for (at = ps->count; at > 0 && problem_cmp(&ps->list[at - 1], &p) > 0;
	     at--)
		;
	/* the same refusal reached twice (a $ref to a malformed place) */
	for (i = at; i > 0 && problem_cmp(&ps->list[i - 1], &p) == 0; i--)
		if ((ps->list[i - 1].err.keyword == NULL) ==
		        (e->keyword == NULL) &&
		    (e->keyword == NULL ||
		        strcmp(ps->list[i - 1].err.keyword, e->keyword) == 0) &&
		    ps->list[i - 1].err.pointer.len == e->pointer.len &&
		    memcmp(ps->list[i - 1].err.pointer.buf, e->pointer.buf,
		        e->pointer.len) == 0 &&
		    strcmp(ps->list[i - 1].err.reason, e->reason) == 0)
			return;
	if (at == SCHEMA_PROBLEMS_MAX) {
		ps->more++;
		return;
	}
	if (ps->count == SCHEMA_PROBLEMS_MAX) {
		ps->count--;
		ps->more++;
	}
	for (i = ps->count; i > at; i--)
		ps->list[i] = ps->list[i - 1];
	ps->list[at] = p;
	ps->count++;
}

void *
schema_cc_refuse(struct cctx *c, const char *keyword, const char *fmt, ...)
{
	struct schema_err e;
	va_list ap;

	e.keyword = keyword;
	e.pointer = c->ptr;
	va_start(ap, fmt);
	err_reason(&e, fmt, ap);
	va_end(ap);
	/* *err is the first refusal: what a caller that stops there sees */
	if (c->rc == SCHEMA_OK)
		*c->err = e;
	if (c->rc != SCHEMA_NOMEM)
		c->rc = SCHEMA_REFUSED;
	if (c->o->problems != NULL && c->quiet == 0)
		problem_add(c, &e);
	return NULL;
}

bool
schema_cc_go_on(const struct cctx *c)
{
	return c->o->problems != NULL && c->quiet == 0 &&
	       c->rc == SCHEMA_REFUSED;
}

void
schema_cc_try(struct cctx *c, struct cc_try *t)
{
	t->rc = c->rc;
	c->quiet++;
}

int
schema_cc_untry(struct cctx *c, const struct cc_try *t, bool failed)
{
	c->quiet--;
	if (c->rc == SCHEMA_NOMEM)
		return -1;
	if (failed)
		c->rc = t->rc;
	return 0;
}

void *
schema_cc_nomem(struct cctx *c)
{
	c->rc = SCHEMA_NOMEM;
	c->err->keyword = NULL;
	c->err->pointer = c->ptr;
	snprintf(c->err->reason, sizeof(c->err->reason),
	    "out of memory compiling the form");
	return NULL;
}

void
schema_cc_ptr_set(struct jptr *p, const char *s, size_t len)
{
	jptr_init(p);
	if (len >= sizeof(p->buf)) {
		len = sizeof(p->buf) - 1;
		p->truncated = true;
	}
	memcpy(p->buf, s, len);
	p->buf[len] = '\0';
	p->len = len;
}

/* ----- the value map ------------------------------------------------- */

/* v's slot in tab: its own, or the empty one where it would go. */
static size_t
vmap_slot(const struct vmap_ent *tab, size_t cap, const struct json_value *v)
{
	/* Fibonacci hashing: the address's low bits are the allocator's
	 * alignment, the high ones spread the arena's neighbours */
	uint64_t h = (uint64_t)(uintptr_t)v * 0x9e3779b97f4a7c15u;
	size_t i = (size_t)(h >> 20) & (cap - 1);

	/* bounded by cap: the table is never more than half full */
	while (tab[i].v != NULL && tab[i].v != v)
		i = (i + 1) & (cap - 1);
	return i;
}

const void *
vmap_get(const struct vmap *m, const struct json_value *v)
{
	size_t i;

	if (m->cap == 0)
		return NULL;
	i = vmap_slot(m->tab, m->cap, v);
	return m->tab[i].v == v ? m->tab[i].p : NULL;
}

int
vmap_put(
    struct vmap *m, struct arena *a, const struct json_value *v, const void *p)
{
	size_t i;

	if (2 * (m->len + 1) > m->cap) {
		size_t cap = m->cap == 0 ? 64 : 2 * m->cap;
		struct vmap_ent *tab = arena_calloc(a, cap, sizeof(*tab));

		if (tab == NULL)
			return -1;
		for (i = 0; i < m->cap; i++)
			if (m->tab[i].v != NULL)
				tab[vmap_slot(tab, cap, m->tab[i].v)] =
				    m->tab[i];
		m->tab = tab;
		m->cap = cap;
	}
	i = vmap_slot(m->tab, m->cap, v);
	m->tab[i].v = v;
	m->tab[i].p = p;
	m->len++;
	return 0;
}
