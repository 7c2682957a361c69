/*
 * schema_view.h: a read-only description of a compiled form, for the tools
 * that present or judge a form instead of validating against it: the human
 * page, the --check report, --sample, --unroll, --strict-openai.
 *
 * What a tool judges it reads here: what the compiler decided (the
 * validator's own structure, $ref already resolved, draft-04's boolean
 * exclusiveMinimum already an exclusive bound), so a dialect difference
 * is interpreted once.  Annotations (title, description, default,
 * examples, x-*) are not constraints; tools read them from src.  The two
 * rewriters also read src, because their output is the form's own text:
 * --unroll copies and renames definitions, and --strict-openai walks the
 * form member by member, asking schemas/decoders.json (decoder.h) what
 * strict mode does with each keyword and this view what the node means.
 *
 * A constraint this view does not describe sets `undescribed`: a tool
 * must then treat the subtree as opaque (a JSON editor on the page, "cannot
 * tell" in a report, a refusal from --unroll and --strict-openai), never
 * guess.  What is described is an explicit list of the compiler's flags
 * (schema_view.c), so a keyword added to the registry, the compiler and
 * the validator, with a flag of its own, is opaque to every tool until it
 * is described here; schema_view_opaque names it.
 *
 * Everything a view points at is owned by the form's arena and lives as
 * long as the compiled form.
 */
#ifndef GPT_SCHEMA_VIEW_H
#define GPT_SCHEMA_VIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "schema/schema.h"
#include "schema/schema_dialect.h"

struct json_value;
struct schema;
struct schema_node; /* opaque: one compiled schema */

enum schema_view_kind {
	SV_FALSE, /* the schema false (or {"not": {}}): nothing is accepted */
	SV_TRUE,  /* the schema true, or {}: everything is accepted */
	SV_NODE,  /* an object schema with at least one constraint */
};

/* Bits of schema_view.types.  "integer" is its own bit; a number node
 * admits integers too. */
enum {
	SV_TY_NULL = 1u << 0,
	SV_TY_BOOLEAN = 1u << 1,
	SV_TY_OBJECT = 1u << 2,
	SV_TY_ARRAY = 1u << 3,
	SV_TY_NUMBER = 1u << 4,
	SV_TY_STRING = 1u << 5,
	SV_TY_INTEGER = 1u << 6,
	SV_TY_ALL = (1u << 7) - 1,
};

/* A numeric bound: the keyword's JSON number text, exact. */
struct schema_view_num {
	const char *text; /* NULL: absent */
	size_t len;
};

/* How a node's dynamic reference resolves (2020-12 $dynamicRef, 2019-09
 * $recursiveRef): at validation time, so a tool sees only the static
 * target. */
enum schema_view_dyn { SV_DYN_NONE, SV_DYN_STATIC, SV_DYN_DYNAMIC };

struct schema_view {
	enum schema_view_kind kind;
	/* the schema value itself (an object; NULL for true/false reached
	 * without one), for annotations */
	const struct json_value *src;
	/* the schema's JSON Pointer in the document that held it (the
	 * served form; a bundled resource's own pointer for those) */
	const char *pointer;
	size_t pointer_len;
	/* the dialect (enum schema_dialect) the schema was read in: its
	 * $schema, its resource's, or the form's default; -1 for true and
	 * false reached without an object */
	int dialect;
	unsigned types; /* SV_TY_*: what `type` admits; SV_TY_ALL without */
	bool typed;     /* `type` present */
	/* draft-04's integer: a number written without a fraction or an
	 * exponent (1.0 is a number there, not an integer) */
	bool integer_text;
	bool undescribed;

	/* enum / const (a const is one value; both may be present) */
	const struct json_value *const_value; /* NULL: absent */
	size_t nenums;                        /* 0: no enum */

	/* numbers */
	struct schema_view_num minimum, maximum, xminimum, xmaximum,
	    multiple_of;
	const char *nformat; /* a format on numbers (int32, ...), or NULL */

	/* strings: code points; 0 and SIZE_MAX when absent */
	size_t min_length, max_length;
	const char *pattern; /* the pattern's source text, or NULL */
	size_t pattern_len;
	const char *format; /* a string format's name, or NULL */
	/* contentEncoding / contentMediaType / contentSchema */
	const char *content_encoding; /* "base64", "base64url" or NULL */
	bool content_json;            /* contentMediaType application/json */
	const struct schema_node *content_schema; /* NULL: any */

	/* arrays: 0 and SIZE_MAX when absent */
	size_t min_items, max_items;
	size_t nprefix; /* prefixItems (items as an array in old dialects) */
	const struct schema_node *items;    /* after the prefix; NULL: any */
	const struct schema_node *contains; /* NULL: none */
	size_t min_contains, max_contains;
	bool unique_items;
	const struct schema_node *unevaluated_items; /* NULL: none */

	/* objects: 0 and SIZE_MAX when absent */
	size_t min_props, max_props;
	size_t nprops;  /* properties and names that required mentions */
	size_t npprops; /* patternProperties */
	const struct schema_node *additional; /* NULL: any */
	const struct schema_node *names;      /* propertyNames, NULL: any */
	size_t ndepreq;                       /* dependentRequired */
	size_t ndepsch;                       /* dependentSchemas */
	const struct schema_node *unevaluated_props; /* NULL: none */

	/* in place */
	const struct schema_node *ref; /* $ref's target, or NULL */
	enum schema_view_dyn dyn;
	const struct schema_node *dyn_target; /* static target of dyn */
	size_t nall_of, nany_of, none_of;
	const struct schema_node *not_;                /* NULL: none */
	const struct schema_node *if_, *then_, *else_; /* NULL: none */
};

/* A member a node names: in properties and/or in required. */
struct schema_view_prop {
	const char *name; /* may hold U+0000: use len */
	size_t len;
	const struct schema_node *sub; /* properties[name]; NULL: any */
	/* properties[name] as written, or NULL: its annotations (a title
	 * beside a $ref stays here, while sub is the $ref's target) */
	const struct json_value *src;
	bool required;
};

/* A patternProperties entry. */
struct schema_view_pprop {
	const char *pattern;
	size_t len;
	const struct schema_node *sub;
};

/* dependentRequired (dependencies' array form): when `name` is present,
 * so must be need[0..nneed). */
struct schema_view_depreq {
	const char *name;
	size_t len;
	size_t nneed;
};

/* Does the view describe what keyword k constrains (its registry flag is
 * in the view's list)?  true for keywords that constrain nothing. */
bool schema_view_describes(enum kw k);

/*
 * The first member, at index i or after, of node n's schema object that
 * is a keyword the view does not describe: its index, with its name in
 * *name (len bytes, borrowed from the form); SIZE_MAX when there is none
 * (always so for a node that is not undescribed).
 */
size_t schema_view_opaque(
    const struct schema_node *n, size_t i, const char **name, size_t *len);

/* The form's root schema. */
const struct schema_node *schema_view_root(const struct schema *s);

/* Fill *v with what node n says. */
void schema_view_get(const struct schema_node *n, struct schema_view *v);

/* The i-th entries of the node's lists; i below the view's count. */
const struct json_value *schema_view_enum(
    const struct schema_node *n, size_t i);
const struct schema_node *schema_view_prefix(
    const struct schema_node *n, size_t i);
void schema_view_prop(
    const struct schema_node *n, size_t i, struct schema_view_prop *out);
void schema_view_pprop(
    const struct schema_node *n, size_t i, struct schema_view_pprop *out);
void schema_view_depreq(
    const struct schema_node *n, size_t i, struct schema_view_depreq *out);
/* the k-th name dependentRequired entry i requires (k < nneed) */
void schema_view_depreq_need(const struct schema_node *n, size_t i, size_t k,
    const char **name, size_t *len);
/* dependentSchemas entry i: its trigger name and schema */
const struct schema_node *schema_view_depsch(
    const struct schema_node *n, size_t i, const char **name, size_t *len);
const struct schema_node *schema_view_all_of(
    const struct schema_node *n, size_t i);
const struct schema_node *schema_view_any_of(
    const struct schema_node *n, size_t i);
const struct schema_node *schema_view_one_of(
    const struct schema_node *n, size_t i);

/* true when the node's (or a subschema's) JSON type t admits the
 * instance type: SV_TY_INTEGER is admitted by SV_TY_NUMBER too. */
bool schema_view_admits(const struct schema_view *v, unsigned ty);

/*
 * Call fn once for every object schema of the compiled form, in the order
 * compiled (document order, then referenced resources); the boolean
 * schemas are not visited.  Stops at fn's first nonzero return, which
 * it returns; 0 when every node was visited.
 */
int schema_view_each(const struct schema *s,
    int (*fn)(void *ctx, const struct schema_node *n), void *ctx);

/* How many object schemas the form compiled to. */
size_t schema_view_count(const struct schema *s);

/* The dense id of node n: its place in schema_view_each's order, below
 * schema_view_count, so that a tool keeps per-node facts in an array
 * instead of a table keyed by pointers.  SIZE_MAX for the static true and
 * false schemas (and NULL), which have no id. */
size_t schema_view_id(const struct schema_node *n);

/* One child edge of a node: a subschema and how it is reached. */
struct schema_view_edge {
	enum kw kw;           /* the keyword that holds it (the registry's) */
	enum schema_kw_at at; /* which instance it applies to */
	bool tests;           /* its verdict is not the node's (not, if,
	                         contains) */
	size_t index;         /* its place in the keyword's list or map */
	const struct schema_node *to;
	/* the node's own field that holds `to`, owned by the form: the
	 * compiler's plan links it past pure-$ref nodes in place */
	const struct schema_node *const *slot;
};

/* Which edges a walk gives (schema_view_edges_init's how). */
enum schema_view_edges_how {
	/* the view's: the subschemas the view describes, so an `if`
	 * without then or else (which asserts nothing) has no edge */
	SV_EDGES_VIEW,
	/* the compiler's: every subschema the node holds, whatever its
	 * flags say, for the plan (schema_plan.c), whose cycle search and
	 * unevaluated* collection need the bare `if` too (its annotations
	 * count); a node compiled to true that still holds one has it */
	SV_EDGES_COMPILED,
};

/* A walk over the child edges of one node (schema_view_edges_next):
 * small, so that a depth-first search keeps one per frame. */
struct schema_view_edges {
	const struct schema_node *n;
	enum schema_view_edges_how how;
	unsigned stage;
	size_t i;
};

/*
 * The one enumeration of a compiled node's child edges, for every tool
 * that walks a form and for the compiler's plan.  Start with
 * schema_view_edges_init, then each schema_view_edges_next fills *e and
 * returns true, until false.  The order is fixed, and every module that
 * walks the edges relies on it: the in-place edges first ($ref, the
 * static target of a dynamic reference, allOf, anyOf, oneOf, then, else,
 * dependentSchemas, if, not: every edge whose `at` is SCHEMA_KA_SAME),
 * then those into the values inside (properties, whose members without a
 * schema have no edge, patternProperties, additionalProperties,
 * unevaluatedProperties, prefixItems, items, unevaluatedItems,
 * contentSchema, contains, propertyNames).  Allocates nothing; reads the
 * node only, so a caller that rewrites *e->slot between two calls
 * (the plan) walks on unchanged.
 */
void schema_view_edges_init(struct schema_view_edges *it,
    const struct schema_node *n, enum schema_view_edges_how how);
bool schema_view_edges_next(
    struct schema_view_edges *it, struct schema_view_edge *e);

/*
 * Validate instance against the node n of the form s, as schema_validate
 * does against its root: what a tool needs to judge a default, an
 * example or a value it fills in.  A $dynamicRef under n starts its
 * dynamic scope at n.  SCHEMA_OK, or the failure with *err filled.
 */
enum schema_result schema_view_validate(const struct schema *s,
    const struct schema_node *n, const struct json_value *instance,
    struct arena *scratch, struct schema_err *err) GPT_MUSTCHECK;

#endif /* GPT_SCHEMA_VIEW_H */
