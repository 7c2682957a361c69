/*
 * schema.h: the form compiler and validator (JSON Schema draft-04 to
 * 2020-12 and v1, every keyword of the chosen dialect), exact and
 * fail-closed.
 *
 * schema_compile() turns a parsed schema into a compiled form once, at load:
 * keyword dispatch, $ref targets, required sets, enum tables, compiled
 * patterns and decimal bounds are all ready before the first act.  A name
 * that is neither a keyword of the dialect (or one a later dialect lends
 * it) nor an annotation (x-, declared, a known tool's), or any malformed
 * keyword value, refuses the whole form: a constraint the author wrote is
 * never treated as absent.  The one exception is the standard's: a
 * keyword of a vocabulary the meta-schema leaves out is an annotation
 * (schema_compile.c's head lists every refusal).
 *
 * schema_validate() walks a compiled form over an instance.  It allocates
 * only from the scratch arena it is given, recurses at most
 * SCHEMA_MAX_DEPTH deep, takes at most SCHEMA_MAX_STEPS steps and spends
 * at most the pattern engine's time budget per act; running out of any
 * of them ends the act with SCHEMA_LIMIT (fail closed).  The first
 * failure it reports is deterministic for a given form and instance.
 */
#ifndef GPT_SCHEMA_H
#define GPT_SCHEMA_H

#include "base/common.h"
#include "parser/jptr.h"

struct arena;
struct json_value;
struct schema;

#define SCHEMA_MAX_DEPTH 512        /* nested subschema applications */
#define SCHEMA_MAX_STEPS (1u << 24) /* subschema applications per act */
#define SCHEMA_REASON_MAX 256

enum schema_result {
	SCHEMA_OK = 0,  /* accepted / compiled */
	SCHEMA_INVALID, /* instance rejected by a keyword */
	SCHEMA_LIMIT,   /* depth, step or pattern limit: rejected */
	SCHEMA_REFUSED, /* compile: the form is refused */
	SCHEMA_NOMEM,   /* the arena refused */
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

/*
 * Every problem of a form, for --check: the compiler records each refusal
 * here and goes on with the next keyword or subschema.  The first
 * SCHEMA_PROBLEMS_MAX problems in document order are kept (sorted), the
 * rest only counted in more.  Refusals that end the walk (an unknown
 * $schema, nesting past SCHEMA_MAX_DEPTH, no memory) are the last one
 * found.  Zero it (schema_problems_init) before each compile.
 */
#define SCHEMA_PROBLEMS_MAX 100
#define SCHEMA_PROBLEM_DEPTH 64 /* levels of the document order key */

struct schema_problem {
	struct schema_err err;
	/* the compiler's: the member / item index at each level from the
	 * form's root (document order), and the record's sequence number;
	 * outside: not in the form's own document (sorted after it) */
	uint32_t path[SCHEMA_PROBLEM_DEPTH];
	unsigned depth;
	bool outside;
};

struct schema_problems {
	struct schema_problem list[SCHEMA_PROBLEMS_MAX]; /* count, in order */
	size_t count;
	size_t more; /* problems found past the first SCHEMA_PROBLEMS_MAX */
};

void schema_problems_init(struct schema_problems *p);

/* Called by schema_compile for each warning (e.g. unbounded recursion). */
typedef void (*schema_warn_fn)(
    void *ctx, const char *schema_pointer, const char *message);

/*
 * Provide the document at uri (len bytes: an absolute URI without
 * fragment) that a reference names: parse it into a (the form's arena)
 * and set *out.  0 provided; 1 not provided (the reference then names
 * nothing and the form is refused); -1 an error, with a phrase in msg.
 */
typedef int (*schema_load_fn)(void *ctx, const char *uri, size_t len,
    struct arena *a, const struct json_value **out, char *msg, size_t msglen);

/* How to compile a form.  Zeroed (with dialect -1) means: 2020-12 when
 * $schema is absent, no external documents, x- annotations only. */
struct schema_opts {
	int dialect; /* the default dialect (schema_dialect_named), or -1 */
	schema_load_fn load; /* NULL: only the built-in meta-schemas */
	void *load_ctx;
	/* the form's own location, an absolute URI (RFC 3986 section 5.1.3:
	 * the retrieval URI), against which its relative references and a
	 * relative $id resolve; NULL: none, and a relative $id is refused */
	const char *base_uri;
	const char *const *annotations; /* keyword names the address
	                                   declares as annotations */
	size_t nannotations;
	schema_warn_fn warn; /* warnings and notes, or NULL */
	void *warn_ctx;
	bool notes; /* also report each annotation keyword (for --check) */
	/* NULL: stop at the first refusal (the responder: fail closed, no
	 * work past it).  Else record every problem there and go on; the
	 * result is still SCHEMA_REFUSED, *err the first in document order */
	struct schema_problems *problems;
};

/* The dialect named name ("draft-04", "draft-06", "draft-07", "2019-09",
 * "2020-12", "v1"), or -1. */
int schema_dialect_named(const char *name);

/* Compile root as schema_compile does, with the options o. */
enum schema_result schema_compile_opts(const struct json_value *root,
    const struct schema_opts *o, struct arena *a, const struct schema **out,
    struct schema_err *err) GPT_MUSTCHECK;

/*
 * The bundled form of s: root with every external resource it uses
 * embedded (2019-09 on under $defs, before under definitions), each
 * keeping its $id, so it is served exactly as it is enforced.  root
 * itself when nothing is external.  NULL when the arena refuses.
 */
const struct json_value *schema_bundle(const struct schema *s, struct arena *a);

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
