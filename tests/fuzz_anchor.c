/*
 * fuzz_anchor.c: libFuzzer target for the anchor index (schema_anchor.c).
 *
 * An input is a list of names separated by '\n' (any bytes, a name may be
 * empty or hold NUL), indexed in order into a small arena, so the growth
 * and the out-of-memory paths both run.  A plain list of the names taken
 * is the reference: put must say "already there" exactly when the list
 * holds the name (and give the first one's value), -1 only when the arena
 * refused (the index then unchanged), and afterwards every listed name
 * must be found with its value, and each name with one more byte found
 * exactly when the list holds that.  The slots looked at must stay within
 * the table.  Any violation aborts.
 *
 * Build: configure --enable-fuzz CC=clang; run: tests/fuzz_anchor CORPUS
 * (seeds in tests/data/fuzz-anchor/).
 */
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "schema/schema_anchor.h"

#define FUZZ_NAMES_MAX 4096

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct name {
	const char *p;
	size_t len;
};

/* The list's index of (p, len), or -1. */
static long
listed(const struct name *list, size_t n, const char *p, size_t len)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (list[i].len == len && memcmp(list[i].p, p, len) == 0)
			return (long)i;
	return -1;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct name list[FUZZ_NAMES_MAX];
	struct anchor_index ix;
	struct arena a;
	const char *s = (const char *)data, *end = s + size;
	size_t n = 0, i;
	char *longer;

	memset(&ix, 0, sizeof(ix));
	/* a cap from the input's length: some inputs run out of room */
	arena_init(&a, 512 + (size % 7) * 1024);
	while (s <= end && n < FUZZ_NAMES_MAX) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		size_t len = nl != NULL ? (size_t)(nl - s) : (size_t)(end - s);
		long at = listed(list, n, s, len);
		uint32_t before = ix.len;
		uint64_t probes = 0;
		void *old = NULL;
		int rc = anchor_index_put(&ix, &a, s, len, anchor_hash(s, len),
		    &list[n], &old, &probes);

		if (ix.cap > 0 && probes > ix.cap)
			abort();
		if (rc == 1 && (at < 0 || old != &list[at] || ix.len != before))
			abort();
		if (rc == 0 && (at >= 0 || ix.len != before + 1))
			abort();
		if (rc == -1 && (at >= 0 || ix.len != before))
			abort();
		if (rc == 0) {
			list[n].p = s;
			list[n].len = len;
			n++;
		}
		if (nl == NULL)
			break;
		s = nl + 1;
	}
	if (ix.len != n || (ix.cap > 0 && 2 * (uint64_t)ix.len > ix.cap))
		abort();
	for (i = 0; i < n; i++) {
		uint64_t probes = 0;

		if (anchor_index_get(&ix, list[i].p, list[i].len,
		        anchor_hash(list[i].p, list[i].len),
		        &probes) != &list[i] ||
		    probes == 0 || probes > ix.cap)
			abort();
		/* the name and one more byte: found only when listed */
		if ((longer = malloc(list[i].len + 1)) == NULL)
			break;
		memcpy(longer, list[i].p, list[i].len);
		longer[list[i].len] = 'x';
		{
			long at = listed(list, n, longer, list[i].len + 1);
			void *got =
			    anchor_index_get(&ix, longer, list[i].len + 1,
			        anchor_hash(longer, list[i].len + 1), NULL);

			if (got != (at >= 0 ? (void *)&list[at] : NULL))
				abort();
		}
		free(longer);
	}
	arena_free(&a);
	return 0;
}
