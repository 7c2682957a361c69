/*
 * heap_peak.c: a preloaded library (LD_PRELOAD) that follows a process's
 * live heap bytes (malloc_usable_size of every block) and prints the peak
 * to stderr at exit as "heap_peak=N".  bench/heap.sh measures the three
 * parsers' memory with it the same way: gpt.fcgi's arena blocks, Blaze's
 * and simdjson's allocations all go through malloc.  Benchmark code
 * only; nothing here is built into gpt.fcgi.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>

extern void *__libc_malloc(size_t n);
extern void *__libc_calloc(size_t k, size_t n);
extern void *__libc_realloc(void *p, size_t n);
extern void *__libc_memalign(size_t a, size_t n);
extern void __libc_free(void *p);

static size_t live, peak;

static void *
note(void *p)
{
	if (p != NULL) {
		live += malloc_usable_size(p);
		if (live > peak)
			peak = live;
	}
	return p;
}

static void
drop(void *p)
{
	if (p != NULL)
		live -= malloc_usable_size(p);
}

void *
malloc(size_t n)
{
	return note(__libc_malloc(n));
}

void *
calloc(size_t k, size_t n)
{
	return note(__libc_calloc(k, n));
}

void *
realloc(void *p, size_t n)
{
	drop(p);
	return note(__libc_realloc(p, n));
}

void
free(void *p)
{
	drop(p);
	__libc_free(p);
}

void *
memalign(size_t a, size_t n)
{
	return note(__libc_memalign(a, n));
}

void *
aligned_alloc(size_t a, size_t n)
{
	return note(__libc_memalign(a, n));
}

int
posix_memalign(void **out, size_t a, size_t n)
{
	void *p = note(__libc_memalign(a, n));

	if (p == NULL)
		return ENOMEM;
	*out = p;
	return 0;
}

__attribute__((destructor)) static void
report(void)
{
	fprintf(stderr, "heap_peak=%zu\n", peak);
}
