/*
 * schema_res.h: the URI layer of the compiler: schema resources, their
 * base URIs and anchors, and what a reference names.
 *
 * Before a document is compiled it is scanned once: every schema object
 * (found through the keywords that hold subschemas, per dialect) gets its
 * location record (base URI, dialect, vocabularies, resource), every $id
 * (id in draft-04) opens a resource, every $anchor / $dynamicAnchor (and
 * draft-04..07's "#name" ids) names a location.  A reference is resolved
 * against the base URI of the object that holds it (RFC 3986 section 5.2),
 * then looked up: a resource of this document, a built-in meta-schema, or
 * a document the caller's loader provides (schema_opts.load); nothing is
 * fetched from the network.  JSON Pointer fragments are resolved inside
 * the resource (RFC 6901 section 6, percent-decoded).
 *
 * Refuses: an unknown $schema, a required vocabulary not implemented, a
 * malformed $id / $anchor, the same URI declared twice, a reference that
 * names nothing, more than SCHEMA_MAX_DOCS documents.
 */
#ifndef GPT_SCHEMA_RES_H
#define GPT_SCHEMA_RES_H

#include "base/common.h"
#include "parser/jptr.h"
#include "schema/schema_anchor.h"
#include "schema/schema_dialect.h"

struct cctx;
struct json_value;
struct schema_resource;

/* External documents (loaded or built in) one form may use. */
#define SCHEMA_MAX_DOCS 256

/* The location record of one schema object. */
struct res_loc {
	const char *base; /* owned: absolute base URI, no fragment */
	size_t base_len;
	enum schema_dialect d;
	unsigned vocab; /* 1 << enum schema_vocab: the active vocabularies */
	struct res_resource *res;
};

struct res_anchor {
	struct res_anchor *next;
	const char *name; /* borrowed */
	size_t len;
	const struct json_value *v;
	bool dynamic;
};

/* A schema resource: a document root, or a subschema with $id. */
struct res_resource {
	struct res_resource *next;
	const char *uri; /* owned; "" for a form without $id */
	size_t len;
	const struct json_value *root;
	const struct res_loc *loc; /* the root's */
	bool recursive;		   /* "$recursiveAnchor": true */
	bool external;		   /* a document loaded for a reference */
	bool builtin;		   /* a built-in meta-schema */
	struct res_anchor *anchors;  /* the last declared first */
	struct anchor_index by_name; /* name -> struct res_anchor */
	struct schema_resource *rt;  /* what the validator sees */
};

/* What a reference names. */
struct res_target {
	const struct json_value *v;
	const struct res_loc *loc;
	const struct res_anchor *anchor; /* when the fragment is a name */
	const char *frag; /* the fragment (after '#'), or NULL */
	size_t frag_len;
	bool pointer;	  /* the fragment is a JSON Pointer: place */
	struct jptr place; /* the decoded pointer (RFC 6901 section 6) */
	const struct json_value *root; /* the resource place is inside */
};

/*
 * Scan the document doc (retrieved as uri, len bytes, "" for the form
 * itself) with default dialect d and record its resources and anchors.
 * 0, or -1 with the refusal set in c.
 */
int schema_res_scan(struct cctx *c, const struct json_value *doc,
    const char *uri, size_t len, enum schema_dialect d, bool external)
    GPT_MUSTCHECK;

/* The location record of v, scanning it (under the resource of from)
 * when no scan reached it: a reference into a non-schema place. */
const struct res_loc *schema_res_loc(struct cctx *c,
    const struct json_value *v, const struct res_loc *from);

/*
 * Resolve ref (len bytes) written at from, loading a document when needed.
 * 0 with *out set, or -1 with the refusal set (names nothing, or cannot
 * be loaded).
 */
int schema_res_find(struct cctx *c, const struct res_loc *from,
    const char *ref, size_t len, struct res_target *out) GPT_MUSTCHECK;

/*
 * Resolve every pending reference, compiling what it names, then the
 * dynamic anchors of every resource when the form is dynamic.  0, or -1.
 */
int schema_res_resolve(struct cctx *c) GPT_MUSTCHECK;

/* One built-in meta-schema (src/schema_meta.c, generated from
 * schemas/meta/INDEX at build time). */
struct schema_meta {
	const char *uri; /* its $id, without "#" */
	const char *text;
	size_t len;
};
extern const struct schema_meta schema_metas[];
extern const size_t schema_nmetas;

/*
 * The built-in meta-schemas (schemas/meta/, embedded at build time): the
 * text of the one whose URI is uri (len bytes, no fragment), or NULL.
 */
const char *schema_meta_text(const char *uri, size_t len, size_t *text_len);

#endif /* GPT_SCHEMA_RES_H */
