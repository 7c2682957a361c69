/*
 * sort.h: a stable sort of positions (uint32_t indexes into the caller's
 * array), for the orders equality needs: object members by name in the
 * canonical encoding (json_equal.c) and array items by canonical encoding
 * for uniqueItems (schema_validate.c).
 *
 * A bottom-up merge sort: O(n log n) comparisons whatever the input, so a
 * crafted body cannot make it quadratic, and stable, so equal keys keep
 * the order they had.  It allocates nothing: the caller gives a second
 * buffer of n positions.  It is static inline so that each caller's
 * comparison is inlined into its loop.
 */
#ifndef GPT_SORT_H
#define GPT_SORT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Sort the n positions at x by cmp(ctx, a, b), which compares the keys at
 * positions a and b (<0, 0 or >0), through tmp (n positions, its contents
 * lost); the result is in x. */
static inline void
sort_positions(uint32_t *x, uint32_t *tmp, size_t n,
    int (*cmp)(const void *ctx, uint32_t a, uint32_t b), const void *ctx)
{
	size_t w, lo, mid, hi, i, j, k;
	uint32_t *from = x, *to = tmp, *t;

	for (w = 1; w < n; w *= 2) {
		for (lo = 0; lo < n; lo += 2 * w) {
			mid = lo + w < n ? lo + w : n;
			hi = lo + 2 * w < n ? lo + 2 * w : n;
			for (i = lo, j = mid, k = lo; k < hi; k++)
				if (i < mid &&
				    (j >= hi || cmp(ctx, from[i], from[j]) <= 0))
					to[k] = from[i++];
				else
					to[k] = from[j++];
		}
		t = from;
		from = to;
		to = t;
	}
	if (from != x)
		memcpy(x, from, n * sizeof(*x));
}

#endif /* GPT_SORT_H */
