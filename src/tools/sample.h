/*
 * sample.h: values a compiled form accepts, generated from its view
 * (schema_view.h), for --sample and the clients' dry runs.
 *
 * Values are small (short strings, a few items, a few levels), varied
 * (each optional member present in some values and absent in others,
 * each anyOf/oneOf branch and enum value taken in turn) and
 * deterministic: the same form and seed give the same values, in the
 * same order, on every machine.
 *
 * Every value returned has passed schema_validate against the form.  A
 * candidate is generated from what the view describes (types, bounds,
 * lengths, patterns (sample_re.h says which), formats, enums, members,
 * items, allOf/anyOf/oneOf/$ref); where a subtree is not described (the
 * view's undescribed, `not`, `if`, dynamic references, a pattern outside
 * the subset) the candidate is generated from the rest and the validator
 * decides.  At most SAMPLE_TRIES candidates per value: a form none of
 * whose candidates passes cannot be sampled, and sample_next says why.
 *
 * Owns its memory (one arena, freed by sample_free); borrows the form,
 * which must outlive it.  Not thread-safe; one generator per thread.
 */
#ifndef GPT_SAMPLE_H
#define GPT_SAMPLE_H

#include "base/common.h"
#include "parser/jptr.h"

struct buf;
struct schema;

#define SAMPLE_TRIES 400     /* candidates per value */
#define SAMPLE_MAX_DEPTH 24  /* nested values in a candidate */
#define SAMPLE_SOFT_DEPTH 4  /* past it: no optional member, fewest items */
#define SAMPLE_MAX_STRING 64 /* code points of a generated string, unless
                                minLength asks for more */

/* Why no value was found. */
struct sample_err {
	char reason[256];
	/* the schema location that could not be generated, or that the
	 * last candidate failed (instance pointer, then), or empty */
	char pointer[JPTR_MAX];
};

struct sample_gen;

/* A generator over form, seeded with seed.  NULL when out of memory. */
struct sample_gen *sample_new(const struct schema *form, uint64_t seed);

/*
 * Append the next value's compact JSON text to out.  0; -1 when no
 * candidate passed the form in SAMPLE_TRIES tries (*err says why; out
 * unchanged); -2 out of memory.
 */
int sample_next(struct sample_gen *g, struct buf *out,
    struct sample_err *err) GPT_MUSTCHECK;

void sample_free(struct sample_gen *g);

#endif /* GPT_SAMPLE_H */
