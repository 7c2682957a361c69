/*
 * schema_cc.h: what the parts of the compiler share, and nothing else.
 *
 * schema_compile.c reads keywords into nodes; schema_res.c resolves $ref
 * to the node it names; schema_plan.c checks cycles and plans the
 * validator's fast paths; schema_cc.c keeps the context's refusals and
 * problems.  They share one context (struct cctx), the
 * compiler's view of a node (struct cnode) and the refusal helpers.
 * Nothing here is visible outside the schema_ modules.
 */
#ifndef GPT_SCHEMA_CC_H
#define GPT_SCHEMA_CC_H

#include "parser/jptr.h"
#include "schema/schema.h"
#include "schema/schema_dialect.h"
#include "schema/schema_int.h"

struct arena;
struct json_value;

/* A compiled node plus what only the compiler needs.  n comes first so a
 * node pointer handed to the validator is also the cnode's address. */
struct cnode {
	struct schema_node n;         /* first: a K_NODE node is its cnode */
	const struct json_value *src; /* borrowed: the schema object */
	const struct json_value *pattern; /* borrowed: pattern's value */
	const struct json_value *props;   /* borrowed: properties' value */
	const char *where;  /* owned (form arena): schema pointer, messages */
	size_t where_len;   /* bytes (a member name may hold U+0000) */
	struct cnode *next; /* every cnode, for the cycle checks */
	unsigned char color;
	bool warned;
	bool own_collect;      /* has unevaluatedProperties/Items */
	unsigned char dialect; /* enum schema_dialect it was read in */
	uint32_t id;    /* dense: its index in schema.nodes (schema_view_id) */
	uint32_t visit; /* schema_plan.c: the last walk that reached it */
};

/*
 * What the compiler made of a value of the form, by the value's address:
 * open addressing in the compile's arena, at most half full.  The keys
 * are the parser's own pointers into the operator's form, never bytes an
 * actor chose.  One map per use (the memo of nodes, the resource layer's
 * locations); zeroed, it is empty.
 */
struct vmap_ent {
	const struct json_value *v; /* borrowed */
	const void *p;              /* borrowed: the map's user says what */
};
struct vmap {
	struct vmap_ent *tab;
	size_t cap, len;
};

/* What m maps v to, or NULL. */
const void *vmap_get(const struct vmap *m, const struct json_value *v);

/* Map v (not yet in m) to p; the table grows in a.  0, or -1 with no
 * memory. */
int vmap_put(struct vmap *m, struct arena *a, const struct json_value *v,
    const void *p) GPT_MUSTCHECK;

enum pending_kind { PENDING_REF, PENDING_DYNAMIC, PENDING_RECURSIVE };

/* A reference waiting for the structural walk to end. */
struct pending {
	struct pending *next;
	struct schema_node *node;
	enum pending_kind kind;
	const char *ref; /* borrowed: the reference string */
	size_t len;
	const struct res_loc *loc; /* where the reference is written */
	const char *where;         /* owned: pointer of the keyword */
	size_t where_len;
	const struct json_value *where_root; /* the document of where */
};

struct res_loc;
struct res_resource;
struct res_ent;

struct cctx;

/* How the context compiles a schema value: schema_cc_value, set by
 * schema_compile.c, so that schema_res.c compiles a reference's target
 * without calling into the compiler's file. */
typedef const struct schema_node *(*schema_cc_compile_fn)(
    struct cctx *c, const struct json_value *v);

struct cctx {
	const struct json_value *root;
	schema_cc_compile_fn compile;
	struct arena *a;
	const struct schema_opts *o;
	schema_warn_fn warn;
	void *warn_ctx;
	struct schema_err *err;
	enum schema_result rc;
	struct jptr ptr; /* schema pointer of what is being compiled */
	/* the document ptr is written in, or NULL when unknown: problems
	 * in c->root sort in document order (schema_problems) */
	const struct json_value *ptr_root;
	unsigned quiet; /* inside schema_cc_try: refusals are not problems */
	unsigned depth;
	struct vmap memo;           /* json_value -> struct schema_node */
	struct cnode *nodes, *last; /* in creation order: the root first */
	size_t nnodes;
	struct pending *pending;
	/* schema_res.c: the resource table */
	struct vmap locs;     /* json_value -> struct res_loc */
	struct res_ent *ents; /* URI -> resource or anchor */
	size_t ents_cap, ents_len;
	struct res_resource *resources, *last_res;
	size_t ndocs;
	const struct res_loc *loc; /* of the object being compiled */
	bool dynamic;              /* a $dynamicRef or $recursiveRef is used */
	bool allow_bool;           /* draft-04: a boolean is a schema here */
};

/* The two boolean schemas (and any {} or annotation-only object). */
#define ALL_TYPES ((1u << SCHEMA_NJSON_TYPES) - 1)
extern const struct schema_node schema_node_false, schema_node_true;

/* Refuse the form at the current schema pointer (c->ptr), with keyword
 * and a reason.  Returns NULL, so a caller can `return refuse(...)`. */
void *schema_cc_refuse(
    struct cctx *c, const char *keyword, const char *fmt, ...) GPT_PRINTF(3, 4);

/*
 * After a step failed: true when the walk goes on with the next keyword
 * or subschema (every problem is wanted, schema_opts.problems, and the
 * failure was a refusal), false when it ends (the first problem is
 * enough, or the arena refused, or inside schema_cc_try).
 */
bool schema_cc_go_on(const struct cctx *c);

/* A lookup whose refusal the caller may take back (a meta-schema tried
 * for $schema): refusals in it are not recorded as problems. */
struct cc_try {
	enum schema_result rc;
};
void schema_cc_try(struct cctx *c, struct cc_try *t);

/* End the try.  failed: take its refusal back (c->rc as before the
 * try).  -1 when the arena refused inside it (the walk ends), else 0. */
int schema_cc_untry(
    struct cctx *c, const struct cc_try *t, bool failed) GPT_MUSTCHECK;

/* Record that the arena refused.  Returns NULL. */
void *schema_cc_nomem(struct cctx *c);

/* Set p to the len bytes at s (a stored pointer), cut to fit. */
void schema_cc_ptr_set(struct jptr *p, const char *s, size_t len);

/* Compile the schema v (any JSON value: a non-schema refuses) at the
 * current pointer; memoized by v.  NULL on failure (c->rc and the error
 * set). */
const struct schema_node *schema_cc_value(
    struct cctx *c, const struct json_value *v);

/* schema_res.c: set s->bundle (schema_bundle).  0, or -1. */
int schema_cc_bundle(struct cctx *c, struct schema *s) GPT_MUSTCHECK;

/* schema_plan.c: refuse $ref cycles that make no progress, warn about
 * unbounded recursion, link past pure-$ref nodes and plan the fast
 * paths of every node.  0, or -1 (refused / no memory). */
int schema_plan(struct cctx *c) GPT_MUSTCHECK;

/* schema_plan.c, after schema_plan: where validation of the whole form
 * starts, root or the node root is an alias of (a root holding nothing
 * but {"allOf": [{"$ref": ...}]}). */
const struct schema_node *schema_plan_entry(
    const struct cctx *c, const struct schema_node *root);

/* schema_plan.c: only the refusal of no-progress $ref cycles, over what
 * compiled, for a form that has other problems (the refusal, or no
 * memory, is recorded in c). */
void schema_plan_cycles(struct cctx *c);

#endif /* GPT_SCHEMA_CC_H */
