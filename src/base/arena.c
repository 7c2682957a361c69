/*
 * arena.c: bump allocation in blocks obtained from malloc, under a cap.
 *
 * Blocks are chained newest first.  A new block is at least twice the size
 * of the previous one (so n allocations cost O(log n) mallocs) and never
 * less than ARENA_BLOCK_MIN.  The cap counts whole blocks, so it bounds what
 * the process holds, not merely what callers asked for.
 */
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"

struct arena_cleanup {
	struct arena_cleanup *next; /* the older cleanup */
	void (*fn)(void *);
	void *ptr; /* borrowed until fn runs */
};

void
arena_init(struct arena *a, size_t cap)
{
	a->head = NULL;
	a->cleanups = NULL;
	a->cap = cap;
	a->held = 0;
	a->peak = 0;
	a->hint = 0;
}

static size_t
round_up(size_t n)
{
	return (n + (ARENA_ALIGN - 1)) & ~(size_t)(ARENA_ALIGN - 1);
}

static struct arena_block *
block_new(struct arena *a, size_t need)
{
	struct arena_block *b;
	size_t size = ARENA_BLOCK_MIN, total;

	if (a->head != NULL && a->head->size <= SIZE_MAX / 2)
		size = a->head->size * 2;
	else if (a->head == NULL && a->hint > size)
		size = a->hint;
	if (size < need)
		size = need;
	/* Shrink a greedy doubling to what the cap still allows. */
	if (a->held >= a->cap || need > a->cap - a->held)
		return NULL;
	if (size > a->cap - a->held)
		size = a->cap - a->held;
	if (!gpt_add_size(sizeof(*b), size, &total))
		return NULL;
	if ((b = malloc(total)) == NULL)
		return NULL;
	b->size = size;
	b->used = 0;
	b->next = a->head;
	a->head = b;
	a->held += size;
	if (a->held > a->peak)
		a->peak = a->held;
	return b;
}

void *
arena_alloc_slow(struct arena *a, size_t n)
{
	struct arena_block *b = a->head;
	void *p;

	if (n > SIZE_MAX - ARENA_ALIGN)
		return NULL;
	n = round_up(n == 0 ? 1 : n);
	if (b == NULL || b->size - b->used < n) {
		if ((b = block_new(a, n)) == NULL)
			return NULL;
	}
	p = b->data + b->used;
	b->used += n;
	return p;
}

void *
arena_calloc(struct arena *a, size_t count, size_t size)
{
	size_t n;
	void *p;

	if (!gpt_mul_size(count, size, &n))
		return NULL;
	if ((p = arena_alloc(a, n)) != NULL)
		memset(p, 0, n);
	return p;
}

char *
arena_strndup(struct arena *a, const char *p, size_t n)
{
	char *s;

	if (n == SIZE_MAX || (s = arena_alloc(a, n + 1)) == NULL)
		return NULL;
	if (n > 0)
		memcpy(s, p, n);
	s[n] = '\0';
	return s;
}

int
arena_defer(struct arena *a, void (*fn)(void *), void *ptr)
{
	struct arena_cleanup *c;

	if ((c = arena_alloc(a, sizeof(*c))) == NULL)
		return -1;
	c->fn = fn;
	c->ptr = ptr;
	c->next = a->cleanups;
	a->cleanups = c;
	return 0;
}

struct arena_mark
arena_mark(const struct arena *a)
{
	struct arena_mark m;

	m.block = a->head;
	m.used = a->head != NULL ? a->head->used : 0;
	m.cleanups = a->cleanups;
	return m;
}

static void
run_cleanups(struct arena *a, struct arena_cleanup *stop)
{
	/* Each node lives in the arena; read next before fn may touch it. */
	while (a->cleanups != NULL && a->cleanups != stop) {
		struct arena_cleanup *c = a->cleanups;

		a->cleanups = c->next;
		c->fn(c->ptr);
	}
}

static void
block_free(struct arena *a, struct arena_block *b)
{
	a->held -= b->size;
	free(b);
}

void
arena_rewind(struct arena *a, struct arena_mark m)
{
	run_cleanups(a, m.cleanups);
	while (a->head != NULL && a->head != m.block) {
		struct arena_block *b = a->head;

		a->head = b->next;
		block_free(a, b);
	}
	if (a->head != NULL)
		a->head->used = m.used;
}

void
arena_reset_slow(struct arena *a)
{
	struct arena_block *b, *next;

	run_cleanups(a, NULL);
	if (a->head != NULL && a->head->next == NULL &&
	    a->head->size <= ARENA_KEEP_MAX) {
		a->head->used = 0;
		return;
	}
	/* Several blocks (or one too large to keep): next time, one block. */
	a->hint = a->held < ARENA_KEEP_MAX ? a->held : ARENA_KEEP_MAX;
	for (b = a->head; b != NULL; b = next) {
		next = b->next;
		block_free(a, b);
	}
	a->head = NULL;
}

void
arena_free(struct arena *a)
{
	run_cleanups(a, NULL);
	while (a->head != NULL) {
		struct arena_block *b = a->head;

		a->head = b->next;
		block_free(a, b);
	}
	a->hint = 0;
}
