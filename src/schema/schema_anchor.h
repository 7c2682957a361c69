/*
 * schema_anchor.h: the anchor index, the names of one schema resource
 * ($anchor, $dynamicAnchor, and draft-04..07's "#name" ids) to what they
 * name, in an open-addressed table probed linearly under the process's
 * keyed hash (hash.h).
 *
 * Every name a form declares goes through one: at load, the resource's
 * index finds a name declared twice and what a "#name" reference names;
 * at validation, the index of each resource in the dynamic scope finds a
 * $dynamicRef's target.  A form cannot choose names that collide (it does
 * not know the key), so n names cost about n probes to index and one or
 * two to look up, where the lists they replace cost n^2 / 2 at load (203k
 * anchors: 132 s) and a scan of every dynamic anchor per $dynamicRef.
 * The probes are returned, so the validator can charge its step budget
 * for them.
 *
 * Owns nothing: the table lives in the arena given to anchor_index_put
 * (the form's), and its names and values are borrowed.  A table grows by
 * doubling and is at most half full; the tables it outgrew stay in the
 * arena (less than the final one in all).  At most ANCHOR_INDEX_MAX names.
 */
#ifndef GPT_SCHEMA_ANCHOR_H
#define GPT_SCHEMA_ANCHOR_H

#include "base/common.h"

struct arena;

#define ANCHOR_INDEX_MAX ((uint32_t)1 << 30)

struct anchor_slot {
	const char *name; /* borrowed; NULL: the slot is free */
	size_t len;
	uint64_t hash; /* anchor_hash(name, len) */
	void *val;     /* borrowed */
};

/* An index; all zero is an empty one. */
struct anchor_index {
	struct anchor_slot *slots; /* in the arena of anchor_index_put */
	uint32_t cap;              /* 0 or a power of two */
	uint32_t len;
};

/* The hash a name is indexed by: hash_bytes (the process key).  A caller
 * that looks one name up many times hashes it once. */
uint64_t anchor_hash(const char *name, size_t len);

/*
 * Index name (len bytes, hash h = anchor_hash(name, len), borrowed) to
 * val (not NULL).  0 when added; 1 when the name is indexed already (the
 * index is unchanged and *old, when not NULL, is its value); -1 when the
 * arena refused or the index is full (unchanged).  *probes, when not NULL,
 * grows by the slots looked at.
 */
int anchor_index_put(struct anchor_index *ix, struct arena *a, const char *name,
    size_t len, uint64_t h, void *val, void **old,
    uint64_t *probes) GPT_MUSTCHECK;

/*
 * The value of name (len bytes, hash h), or NULL.  *probes, when not
 * NULL, grows by the slots looked at (at least one for a non-empty
 * index).  Allocates nothing.
 */
void *anchor_index_get(const struct anchor_index *ix, const char *name,
    size_t len, uint64_t h, uint64_t *probes);

#ifdef GPT_TEST
/* Test builds of schema_anchor.c: every slot looked at, by put and get. */
extern uint64_t schema_test_anchor_probes;
#endif

#endif /* GPT_SCHEMA_ANCHOR_H */
