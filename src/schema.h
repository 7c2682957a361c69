/*
 * schema.h: the form compiler and validator (JSON Schema 2020-12, the shape
 * vocabulary of the contract), exact and fail-closed.
 *
 * schema_compile() turns a parsed schema into a compiled form once, at load:
 * keyword dispatch, $ref targets, required sets, enum tables, compiled
 * patterns and decimal bounds are all ready before the first act.  Any
 * keyword outside the vocabulary, or any malformed keyword value, refuses
 * the whole form: nothing is ever treated as absent.
 *
 * schema_validate() walks a compiled form over an instance.  It allocates
 * only from the scratch arena it is given, recurses at most
 * SCHEMA_MAX_DEPTH deep and takes at most SCHEMA_MAX_STEPS steps; running
 * out of either rejects (fail closed).  The first failure it reports is
 * deterministic for a given form and instance.
 */
#ifndef GPT_SCHEMA_H
#define GPT_SCHEMA_H

#include "common.h"
#include "jptr.h"

struct arena;
struct json_value;
struct schema;

#define SCHEMA_MAX_DEPTH 512	       /* nested subschema applications */
#define SCHEMA_MAX_STEPS (1u << 24)    /* subschema applications per act */
#define SCHEMA_REASON_MAX 256

enum schema_result {
	SCHEMA_OK = 0,	   /* accepted / compiled */
	SCHEMA_INVALID,	   /* instance rejected by a keyword */
	SCHEMA_LIMIT,	   /* depth, step or pattern limit: rejected */
	SCHEMA_REFUSED,	   /* compile: the form is refused */
	SCHEMA_NOMEM,	   /* the arena refused */
};

/*
 * Why a compile or validation failed.  keyword is a static string (the
 * failing keyword, e.g. "minLength", or NULL); pointer is the JSON Pointer
 * of the failing instance value (validate) or of the offending schema
 * location (compile); reason is a short English phrase.
 */
struct schema_err {
	const char *keyword;
	struct jptr pointer;
	char reason[SCHEMA_REASON_MAX];
};

/* Called by schema_compile for each warning (e.g. unbounded recursion). */
typedef void (*schema_warn_fn)(void *ctx, const char *schema_pointer,
    const char *message);

/*
 * Compile root (a parsed schema: object or boolean) into a form allocated
 * in a, which must outlive it (as must root: the form borrows its
 * strings).  warn may be NULL.  On SCHEMA_OK *out is set; otherwise *out
 * is untouched and *err says why (SCHEMA_REFUSED or SCHEMA_NOMEM).
 */
enum schema_result schema_compile(const struct json_value *root,
    struct arena *a, schema_warn_fn warn, void *warn_ctx,
    const struct schema **out, struct schema_err *err) GPT_MUSTCHECK;

/*
 * Validate instance against s.  scratch receives any temporary memory.
 * SCHEMA_OK, or SCHEMA_INVALID / SCHEMA_LIMIT / SCHEMA_NOMEM with *err
 * filled (keyword and instance pointer of the first failure).
 */
enum schema_result schema_validate(const struct schema *s,
    const struct json_value *instance, struct arena *scratch,
    struct schema_err *err) GPT_MUSTCHECK;

/*
 * The arrival document's own schema (schemas/arrival.schema.json),
 * embedded at build time: schema_arrival_len bytes of JSON text at
 * schema_arrival_text (followed by a NUL not counted in the length).
 * Parse it once and compile it like any form to check a form.json.
 */
extern const char schema_arrival_text[];
extern const size_t schema_arrival_len;

#endif /* GPT_SCHEMA_H */
