/*
 * arena.h: a bump allocator with a hard cap, for memory whose lifetime is
 * one request or one loaded form.
 *
 * Owns: the blocks it obtains from malloc, and a list of cleanup callbacks
 * (for foreign objects such as compiled PCRE2 patterns) run at reset/free.
 * Limits: never holds more than `cap` bytes of blocks; an allocation that
 * would pass the cap fails (NULL) and leaves the arena as it was.
 * Not thread-safe; one arena belongs to one request or one form.
 * Callers use only the functions below, never the fields.
 */
#ifndef GPT_ARENA_H
#define GPT_ARENA_H

#include "base/common.h"

#define ARENA_ALIGN 16
#define ARENA_BLOCK_MIN ((size_t)16 * 1024)

/*
 * An arena whose callers have asked for U bytes in all (each request
 * rounded up to ARENA_ALIGN, the one being made included) never refuses
 * for want of room while its cap is at least ARENA_WORST_FACTOR * U.
 * Why: a block is added only for a request r that did not fit in the
 * newest block's free space f, so the space stranded in every older block
 * is smaller than the request that followed it, and those requests are
 * part of U: held < 2 * U_before + f.  A request fails only when r > f
 * and r > cap - held, so cap < 2 * U_before + f + r < 2 * (U_before + r).
 * (Rewinding gives back whole newer blocks and makes room in the newest:
 * the argument holds after it too.)  Callers that size a cap from a worst
 * case multiply that worst case by this.
 */
#define ARENA_WORST_FACTOR 2

struct arena_cleanup;

/*
 * A block of arena memory.  Private to arena.c: it is here only so that
 * the common cases of arena_alloc (a bump within the newest block, inlined
 * into the parser's loop rather than a call that spills its registers) and
 * of arena_reset (one block kept) are inline.
 */
struct arena_block {
	struct arena_block *next; /* owned: the older block */
	size_t size;              /* bytes of data[] */
	size_t used;
	_Alignas(ARENA_ALIGN) unsigned char data[];
};

struct arena {
	struct arena_block *head;       /* owned: newest block first */
	struct arena_cleanup *cleanups; /* owned: run newest first */
	size_t cap;                     /* most bytes of blocks held at once */
	size_t held;                    /* bytes of blocks held now */
	size_t peak; /* most bytes ever held (for benchmarks) */
	size_t hint; /* size of the first block after a reset */
};

/* A position in an arena, to give back everything allocated after it. */
struct arena_mark {
	struct arena_block *block; /* borrowed */
	size_t used;
	struct arena_cleanup *cleanups; /* borrowed */
};

/* Prepare an empty arena that will hold at most `cap` bytes. No allocation. */
void arena_init(struct arena *a, size_t cap);

/*
 * Return `n` bytes aligned to ARENA_ALIGN, valid until the next reset,
 * rewind past them, or free.  NULL when the cap or malloc refuses; the arena
 * is then unchanged.  n == 0 returns a valid unique pointer.
 */
static inline void *arena_alloc(struct arena *a, size_t n) GPT_MUSTCHECK;

/* arena_alloc past the newest block's free space (and for n == 0 or a size
 * that would overflow): arena.c. */
void *arena_alloc_slow(struct arena *a, size_t n) GPT_MUSTCHECK;

static inline void *
arena_alloc(struct arena *a, size_t n)
{
	struct arena_block *b = a->head;
	/* 0 when n is 0 or so large that rounding wraps: then r - 1 is
	 * SIZE_MAX, never below the free space, and the slow path decides */
	size_t r = (n + (ARENA_ALIGN - 1)) & ~(size_t)(ARENA_ALIGN - 1);
	void *p;

	if (b == NULL || r - 1 >= b->size - b->used)
		return arena_alloc_slow(a, n);
	p = b->data + b->used;
	b->used += r;
	return p;
}

/* arena_alloc of count * size zeroed bytes; NULL also on overflow. */
void *arena_calloc(struct arena *a, size_t count, size_t size) GPT_MUSTCHECK;

/* A copy of n bytes of p, followed by a NUL byte (not counted in n). */
char *arena_strndup(struct arena *a, const char *p, size_t n) GPT_MUSTCHECK;

/*
 * Register fn(ptr) to be called when the arena is reset, rewound past this
 * point, or freed.  Returns 0, or -1 (and does not register) when out of
 * memory; the caller must then release ptr itself.
 */
int arena_defer(struct arena *a, void (*fn)(void *), void *ptr) GPT_MUSTCHECK;

struct arena_mark arena_mark(const struct arena *a);

/* Give back everything allocated since `m` (running its cleanups). */
void arena_rewind(struct arena *a, struct arena_mark m);

/*
 * Give back everything, running cleanups, but keep memory for the next use
 * so a process that serves many requests does not call malloc for each:
 * a single block is kept; several are freed and the next first block is
 * made as large as they were together (up to ARENA_KEEP_MAX), so a steady
 * load settles on one block and no allocation at all.
 */
#define ARENA_KEEP_MAX ((size_t)32 * 1024 * 1024)
static inline void arena_reset(struct arena *a);

/* arena_reset past its common cases (cleanups to run, several blocks):
 * arena.c. */
void arena_reset_slow(struct arena *a);

/* Inline for the cases of every request on a steady load, one block kept
 * (one store) or none taken at all (nothing), and nothing to run. */
static inline void
arena_reset(struct arena *a)
{
	struct arena_block *b = a->head;

	if (a->cleanups == NULL &&
	    (b == NULL || (b->next == NULL && b->size <= ARENA_KEEP_MAX))) {
		if (b != NULL)
			b->used = 0;
		return;
	}
	arena_reset_slow(a);
}

/* Give back everything, blocks included.  The arena may be reused. */
void arena_free(struct arena *a);

/*
 * Change the cap for the allocations to come (an arena reused for inputs
 * with different limits).  Blocks already held stay; when they pass the new
 * cap, every allocation that needs a new block fails until a reset or free.
 */
static inline void
arena_set_cap(struct arena *a, size_t cap)
{
	a->cap = cap;
}

/* The cap, the bytes of blocks held now, and the most ever held. */
static inline size_t
arena_cap(const struct arena *a)
{
	return a->cap;
}

static inline size_t
arena_held(const struct arena *a)
{
	return a->held;
}

static inline size_t
arena_peak(const struct arena *a)
{
	return a->peak;
}

#endif /* GPT_ARENA_H */
