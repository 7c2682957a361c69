/*
 * schema_anchor.c: the anchor index (schema_anchor.h).
 *
 * Linear probing from the hash's low bits, at most half full, so a probe
 * sequence ends at a free slot; a slot compares the 64-bit hash before
 * the bytes, so a lookup reads another name's bytes only when all 64 bits
 * agree.
 */
#include <string.h>

#include "base/arena.h"
#include "base/hash.h"
#include "schema/schema_anchor.h"

#ifdef GPT_TEST
uint64_t schema_test_anchor_probes;
#define PROBED(k) (schema_test_anchor_probes += (k))
#else
#define PROBED(k) ((void)0)
#endif

uint64_t
anchor_hash(const char *name, size_t len)
{
	return hash_bytes(name, len);
}

/* The slot of name in slots[0..cap), or the free slot where it would go;
 * *k is the slots looked at.  cap is a power of two and a slot is free. */
static struct anchor_slot *
anchor_slot_of(struct anchor_slot *slots, uint32_t cap, const char *name,
    size_t len, uint64_t h, uint64_t *k)
{
	uint32_t i = (uint32_t)h & (cap - 1);

	/* bounded: at most half the slots are taken */
	for (*k = 1; slots[i].name != NULL; (*k)++, i = (i + 1) & (cap - 1))
		if (slots[i].hash == h && slots[i].len == len &&
		    memcmp(slots[i].name, name, len) == 0)
			break;
	return &slots[i];
}

/* Double the table (or make the first one).  0, or -1. */
static int
anchor_grow(struct anchor_index *ix, struct arena *a)
{
	uint32_t cap = ix->cap == 0 ? 16 : 2 * ix->cap, i;
	struct anchor_slot *slots;
	uint64_t k;

	if (ix->cap > ANCHOR_INDEX_MAX ||
	    (slots = arena_calloc(a, cap, sizeof(*slots))) == NULL)
		return -1;
	for (i = 0; i < ix->cap; i++)
		if (ix->slots[i].name != NULL)
			*anchor_slot_of(slots, cap, ix->slots[i].name,
			    ix->slots[i].len, ix->slots[i].hash, &k) =
			    ix->slots[i];
	ix->slots = slots;
	ix->cap = cap;
	return 0;
}

int
anchor_index_put(struct anchor_index *ix, struct arena *a, const char *name,
    size_t len, uint64_t h, void *val, void **old, uint64_t *probes)
{
	struct anchor_slot *s;
	uint64_t k = 0;

	if (ix->cap > 0) {
		s = anchor_slot_of(ix->slots, ix->cap, name, len, h, &k);
		PROBED(k);
		if (probes != NULL)
			*probes += k;
		if (s->name != NULL) {
			if (old != NULL)
				*old = s->val;
			return 1;
		}
	}
	/* one more must leave the table at most half full */
	if (2 * ((uint64_t)ix->len + 1) > ix->cap && anchor_grow(ix, a) == -1)
		return -1;
	s = anchor_slot_of(ix->slots, ix->cap, name, len, h, &k);
	s->name = name;
	s->len = len;
	s->hash = h;
	s->val = val;
	ix->len++;
	return 0;
}

void *
anchor_index_get(const struct anchor_index *ix, const char *name, size_t len,
    uint64_t h, uint64_t *probes)
{
	const struct anchor_slot *s;
	uint64_t k;

	if (ix->cap == 0)
		return NULL;
	s = anchor_slot_of(ix->slots, ix->cap, name, len, h, &k);
	PROBED(k);
	if (probes != NULL)
		*probes += k;
	return s->name != NULL ? s->val : NULL;
}
