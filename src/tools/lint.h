/*
 * lint.h: the draft's advice to operators, checked on a compiled form
 * (through schema_view.h) and on an address's hook.
 *
 * lint_facts() reads the form once: every compiled schema with what the
 * rules and the decoder table (decoder.h) need to know about it (an open
 * object, a pattern with lookaround, recursion, ...).  lint_check() turns
 * the facts into warnings; lint_hook() looks at the hook file.  Nothing
 * here refuses a form: a form that compiles is served whatever its
 * warnings say.
 *
 * Limits: the walk from the root goes at most LINT_DEPTH_MAX subschemas
 * deep (deeper ones are left unjudged, never guessed at); a node the view
 * marks undescribed is judged only on what the view does describe.
 * Memory is malloc'd (the command line and address loads, never the
 * request path) and released by lint_facts_free.
 */
#ifndef GPT_LINT_H
#define GPT_LINT_H

#include "base/common.h"

struct arena;
struct report;
struct schema;
struct schema_node;

#define LINT_DEPTH_MAX 256
#define LINT_TOKENS_WARN 4096 /* estimated tokens of a served form */

/* Facts about one schema (bits of lint_node.facts). */
enum {
	LINT_F_OPEN_OBJECT = 1u << 0,     /* object, additionalProperties not
	                                     false (nor unevaluated*) */
	LINT_F_OPTIONAL_MEMBER = 1u << 1, /* a property not in required */
	LINT_F_RECURSION = 1u << 2,       /* contains itself */
	LINT_F_ENUM_OBJECT = 1u << 3,     /* enum/const with an object or
	                                     array value */
	LINT_F_LOOKAROUND = 1u << 4,      /* pattern with lookaround, \b or
	                                     a backreference */
	LINT_F_UNANCHORED = 1u << 5,      /* pattern not starting with ^ and
	                                     ending with $ */
	LINT_F_ONEOF_OVERLAP = 1u << 6,   /* oneOf not provably disjoint */
	LINT_F_REACHED = 1u << 7,         /* applies to some act */
	LINT_F_ROOT = 1u << 8,
};

struct lint_node {
	const struct schema_node *n; /* borrowed from the form */
	unsigned facts;
	size_t depth;  /* instance nesting where first reached (root 0) */
	size_t nenums; /* enum values */
};

struct lint_facts {
	const struct schema *s;  /* borrowed */
	struct lint_node *nodes; /* owned: every object schema, in
	                            schema_view_each order */
	size_t count;
	size_t properties;       /* properties of every object together */
	size_t optional_members; /* of them, not required */
	size_t served_bytes;     /* of the form as GET serves it */
	size_t tokens;           /* estimated (lint_tokens) */
	/* per node, private to lint.c */
	unsigned char *bounds; /* owned: deep bounds, see lint.c */
	uint16_t *visited;     /* owned */
	unsigned char *state;  /* owned */
	size_t *slots;         /* owned: pointer hash of nodes */
	size_t nslots;
};

/*
 * Read the form s, whose served text (the form's JSON as GET serves it)
 * is served_len bytes at served.  0, or -1 when out of memory (f is then
 * empty and safe to free).
 */
int lint_facts(const struct schema *s, const char *served, size_t served_len,
    struct lint_facts *f) GPT_MUSTCHECK;
void lint_facts_free(struct lint_facts *f);

/* The facts of node n, or NULL when n is not an object schema of f. */
const struct lint_node *lint_node_of(
    const struct lint_facts *f, const struct schema_node *n);

/*
 * Add the form's warnings to r.  scratch takes the validator's memory
 * (defaults and examples are judged by the real validator); it is reset
 * between values.
 */
void lint_check(struct lint_facts *f, struct arena *scratch, struct report *r);

/* Add the warnings about dir/hook to r: missing, not executable, a CRLF
 * #! line, no #! line nor binary, set-user-ID root.  (Running as root
 * is the caller's to say: the responder says it once at start.) */
void lint_hook(const char *dir, struct report *r);

/* An estimate of the tokens a model spends on len bytes of JSON text:
 * runs of letters about four to a token, digits three, punctuation two,
 * each other byte (non-ASCII) one. */
size_t lint_tokens(const char *text, size_t len);

#endif /* GPT_LINT_H */
