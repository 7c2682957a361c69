/*
 * bench_common.h: what the two in-process benchmarks share: a fixed
 * pseudo-random sequence for their generated bodies (the same bytes every
 * run), appending to a body, the process's CPU clock, and sorting figures
 * for a median.  Benchmark code only; nothing here is built into gpt.fcgi.
 */
#ifndef GPT_BENCH_COMMON_H
#define GPT_BENCH_COMMON_H

#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#include "base/buf.h"

/* xorshift32 from a fixed seed: generated bodies are the same each run. */
#define BENCH_RAND_SEED 2463534242u
static uint32_t rng = BENCH_RAND_SEED;

static inline uint32_t
next_rand(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 17;
	rng ^= rng << 5;
	return rng;
}

/* Append s to a generated body; running out of memory ends the bench. */
static inline void
put(struct buf *b, const char *s)
{
	if (buf_puts(b, s) == -1)
		abort();
}

/* CPU time of this process: other work on the machine (it may have two
 * cores shared with builds and tests) then slows the clock much less. */
static inline double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static inline int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The median of x[0..n) (n odd); sorts x. */
static inline double
median(double *x, size_t n)
{
	qsort(x, n, sizeof(*x), cmp_double);
	return x[n / 2];
}

#endif /* GPT_BENCH_COMMON_H */
