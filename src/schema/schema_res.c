/*
 * schema_res.c: the URI layer of the compiler (schema_res.h).
 *
 * Owns nothing beyond the form arena: location records, the URI table,
 * loaded documents.  The scan recurses over subschemas at most
 * SCHEMA_MAX_DEPTH deep; references are resolved from the compiler's work
 * list, so a long chain of references never deepens the C stack.
 */
#include <stdio.h>
#include <string.h>

#include "base/arena.h"
#include "parser/jptr.h"
#include "parser/json.h"
#include "schema/schema_cc.h"
#include "schema/schema_res.h"
#include "parser/uri.h"

#define refuse schema_cc_refuse
#define nomem schema_cc_nomem
#define ptr_set schema_cc_ptr_set

/* One entry of the URI table: a resource.  Its anchors are in its own
 * index (res_resource.by_name), so no anchor copies the resource's URI. */
struct res_ent {
	const char *key; /* owned */
	size_t len;
	uint64_t hash;
	struct res_resource *res;
};

/* ----- RFC 3986 references -------------------------------------------- */

/*
 * Resolve ref (no fragment) against base (RFC 3986 section 5.2.2, uri.h),
 * in the normalized form $id values are compared by (section 6.2.2), into
 * the arena.  An empty base (a form without $id) leaves a relative ref
 * relative.  NULL with the refusal set.
 */
static char *
uri_resolve_to(struct cctx *c, const char *base, size_t blen, const char *ref,
    size_t rlen, size_t *out_len)
{
	struct uri b, r;
	char *abs, *norm;
	size_t alen;
	char name[SCHEMA_CLIP_MAX + 1];

	/* {"$id": "http://exa mple.com/"}, {"$ref": "a b.json"} */
	if (uri_parse(ref, rlen, URI_IRI, &r) == -1) {
		schema_clip(name, ref, rlen);
		return refuse(c, NULL,
		    "\"%s\" is not a URI reference "
		    "(RFC 3986)",
		    name);
	}
	if (blen == 0 || r.has_scheme) {
		abs = arena_strndup(c->a, ref, rlen);
		alen = rlen;
	} else {
		if (uri_parse(base, blen, URI_IRI, &b) == -1)
			return refuse(c, NULL, "the base URI does not parse");
		/* {"$id": "foo/", "items": {"$ref": "a.json"}}: RFC 3986
		 * section 5.1 resolves against an absolute base only */
		if (!b.has_scheme) {
			schema_clip(name, base, blen);
			return refuse(c, NULL,
			    "the base URI \"%s\" is not absolute (give the "
			    "form an absolute $id)",
			    name);
		}
		abs = uri_resolve_arena(&b, &r, c->a, &alen);
	}
	if (abs == NULL)
		return nomem(c);
	norm = uri_normalize_arena(abs, alen, URI_IRI, c->a, out_len);
	if (norm == NULL) {
		*out_len = alen;
		return abs;
	}
	return norm;
}

/* ----- the tables ------------------------------------------------------ */

static const struct res_loc *
loc_get(const struct cctx *c, const struct json_value *v)
{
	return vmap_get(&c->locs, v);
}

static struct res_ent *
ent_find(const struct cctx *c, const char *key, size_t len, uint64_t h)
{
	size_t i;

	if (c->ents_cap == 0)
		return NULL;
	for (i = (size_t)h & (c->ents_cap - 1); c->ents[i].key != NULL;
	     i = (i + 1) & (c->ents_cap - 1))
		if (c->ents[i].hash == h && c->ents[i].len == len &&
		    memcmp(c->ents[i].key, key, len) == 0)
			return &c->ents[i];
	return NULL;
}

/* Add key -> res.  0; 1 when key is already taken (the caller refuses);
 * -1 no memory. */
static int
ent_put(struct cctx *c, const char *key, size_t len, struct res_resource *res)
{
	uint64_t h = hash_bytes(key, len);
	size_t i;

	if (ent_find(c, key, len, h) != NULL)
		return 1;
	if (2 * (c->ents_len + 1) > c->ents_cap) {
		size_t cap = c->ents_cap == 0 ? 32 : 2 * c->ents_cap, j;
		struct res_ent *tab = arena_calloc(c->a, cap, sizeof(*tab));

		if (tab == NULL)
			return -1;
		for (j = 0; j < c->ents_cap; j++) {
			if (c->ents[j].key == NULL)
				continue;
			for (i = (size_t)c->ents[j].hash & (cap - 1);
			     tab[i].key != NULL; i = (i + 1) & (cap - 1))
				;
			tab[i] = c->ents[j];
		}
		c->ents = tab;
		c->ents_cap = cap;
	}
	for (i = (size_t)h & (c->ents_cap - 1); c->ents[i].key != NULL;
	     i = (i + 1) & (c->ents_cap - 1))
		;
	if ((c->ents[i].key = arena_strndup(c->a, key, len)) == NULL)
		return -1;
	c->ents[i].len = len;
	c->ents[i].hash = h;
	c->ents[i].res = res;
	c->ents_len++;
	return 0;
}

/* ----- the scan -------------------------------------------------------- */

/* 2020-12 section 8.2.2: an anchor is a plain name,
 * ^[A-Za-z_][-A-Za-z0-9._]*$ */
static bool
plain_name(const char *s, size_t len)
{
	size_t i;

	if (len == 0 || !((s[0] >= 'A' && s[0] <= 'Z') ||
	                    (s[0] >= 'a' && s[0] <= 'z') || s[0] == '_'))
		return false;
	for (i = 1; i < len; i++)
		if (!((s[i] >= 'A' && s[i] <= 'Z') ||
		        (s[i] >= 'a' && s[i] <= 'z') ||
		        (s[i] >= '0' && s[i] <= '9') || s[i] == '-' ||
		        s[i] == '.' || s[i] == '_'))
			return false;
	return true;
}

static struct res_resource *
resource_new(
    struct cctx *c, const char *uri, size_t len, const struct json_value *root)
{
	struct res_resource *r = arena_calloc(c->a, 1, sizeof(*r));

	if (r == NULL ||
	    (r->rt = arena_calloc(c->a, 1, sizeof(*r->rt))) == NULL ||
	    (r->uri = arena_strndup(c->a, uri, len)) == NULL)
		return nomem(c);
	r->len = len;
	r->root = root;
	if (c->last_res != NULL)
		c->last_res->next = r;
	else
		c->resources = r;
	c->last_res = r;
	return r;
}

/* Declare the anchor name (len bytes, borrowed) of v in res, through
 * res's index (schema_anchor.h): a name declared twice refuses, unless it
 * is the same schema's $anchor and $dynamicAnchor. */
static int
anchor_add(struct cctx *c, struct res_resource *res, const char *name,
    size_t len, const struct json_value *v, bool dynamic)
{
	struct res_anchor *an;
	void *old = NULL;
	int rc;

	if ((an = arena_calloc(c->a, 1, sizeof(*an))) == NULL)
		return nomem(c), -1;
	an->name = name;
	an->len = len;
	an->v = v;
	an->dynamic = dynamic;
	rc = anchor_index_put(&res->by_name, c->a, name, len,
	    anchor_hash(name, len), an, &old, NULL);
	if (rc == -1)
		return nomem(c), -1;
	if (rc == 1) {
		struct res_anchor *was = old;

		/* {"$defs": {"a": {"$anchor": "x"}, "b": {"$anchor": "x"}}};
		 * one schema may carry $anchor and $dynamicAnchor of the same
		 * name */
		if (was->v == v) {
			was->dynamic |= dynamic;
			return 0;
		}
		return refuse(c, "$anchor",
		           "the anchor is declared twice in its resource"),
		       -1;
	}
	an->next = res->anchors;
	res->anchors = an;
	return 0;
}

static int scan(struct cctx *c, const struct json_value *v,
    const struct res_loc *parent, unsigned depth);

/* The dialect and vocabularies named by $schema (value sv) at a resource
 * root.  A custom meta-schema is loaded and read: its own $schema gives
 * the dialect, its $vocabulary the vocabularies. */
static int
read_schema_kw(struct cctx *c, const struct json_value *sv,
    const struct res_loc *at, enum schema_dialect *d, unsigned *vocab)
{
	struct res_target t;
	struct cc_try try;
	const struct json_value *vv, *ms;
	enum schema_dialect md;
	size_t i, mark = jptr_push(&c->ptr, "$schema", 7);
	bool found = false;

	/* {"$schema": 7} */
	if (sv->type != JSON_T_STRING)
		return refuse(c, "$schema", "$schema must be a URI"), -1;
	if (schema_dialect_by_uri(sv->u.str.ptr, sv->u.str.len, d) == 0) {
		*vocab = SCHEMA_V_ALL;
		jptr_pop(&c->ptr, mark);
		return 0;
	}
	/* {"$schema": "https://example.com/my-meta"}: a meta-schema the
	 * address provides, or a refusal */
	if (c->ndocs > 0 && sv->u.str.len > 0) {
		/* tried: when it names nothing, the refusal is the unknown
		 * dialect below */
		schema_cc_try(c, &try);
		found = schema_res_find(
		            c, at, sv->u.str.ptr, sv->u.str.len, &t) == 0;
		if (schema_cc_untry(c, &try, !found) == -1)
			return -1;
	}
	if (found && t.v->type == JSON_T_OBJECT &&
	    (ms = json_object_get(t.v, "$schema", 7)) != NULL &&
	    ms->type == JSON_T_STRING &&
	    schema_dialect_by_uri(ms->u.str.ptr, ms->u.str.len, &md) == 0) {
		*d = md;
		*vocab = SCHEMA_V_ALL;
		vv = json_object_get(t.v, "$vocabulary", 11);
		if (vv != NULL && md >= SCHEMA_D_2019_09) {
			/* {"$vocabulary": []} */
			if (vv->type != JSON_T_OBJECT)
				return refuse(c, "$vocabulary",
				           "the meta-schema's $vocabulary must "
				           "be an object"),
				       -1;
			*vocab = 1u << SCHEMA_V_CORE;
			for (i = 0; i < vv->u.obj.count; i++) {
				const struct json_member *m =
				    &vv->u.obj.members[i];
				enum schema_vocab vb;
				char name[SCHEMA_CLIP_MAX + 1];

				if (schema_vocab_by_uri(
				        md, m->key.ptr, m->key.len, &vb) == 0) {
					*vocab |= 1u << vb;
					continue;
				}
				/* "https://example.com/vocab/x": true —
				 * section 8.1.2: a required vocabulary the
				 * implementation lacks refuses the schema */
				if (m->value.type == JSON_T_TRUE) {
					schema_clip(
					    name, m->key.ptr, m->key.len);
					return refuse(c, "$vocabulary",
					           "the meta-schema requires "
					           "the vocabulary \"%s\", "
					           "which is not implemented",
					           name),
					       -1;
				}
			}
		}
		jptr_pop(&c->ptr, mark);
		return 0;
	}
	{
		char name[SCHEMA_CLIP_MAX + 1];

		schema_clip(name, sv->u.str.ptr, sv->u.str.len);
		/* {"$schema": "http://json-schema.org/draft-03/schema#"} */
		ptr_set(&c->ptr, c->ptr.buf, mark);
		jptr_push(&c->ptr, "$schema", 7);
		return refuse(c, "$schema",
		           "unknown dialect \"%s\" (known: draft-04, "
		           "draft-06, draft-07, 2019-09, 2020-12, v1)",
		           name),
		       -1;
	}
}

/* Scan the subschemas under the keyword k of value kv. */
static int
scan_kw(struct cctx *c, enum kw k, const struct json_value *kv,
    const struct res_loc *l, unsigned depth)
{
	size_t i, mark;

	switch (schema_kw_shape(k)) {
	case SCHEMA_KS_NONE:
		return 0;
	case SCHEMA_KS_ONE:
		return scan(c, kv, l, depth);
	case SCHEMA_KS_ONE_OR_LIST:
		if (kv->type != JSON_T_ARRAY)
			return scan(c, kv, l, depth);
		/* FALLTHROUGH */
	case SCHEMA_KS_LIST:
		if (kv->type != JSON_T_ARRAY)
			return 0; /* the compiler refuses it */
		for (i = 0; i < kv->u.arr.count; i++) {
			mark = jptr_push_index(&c->ptr, i);
			if (scan(c, &kv->u.arr.items[i], l, depth) == -1)
				return -1;
			jptr_pop(&c->ptr, mark);
		}
		return 0;
	case SCHEMA_KS_MAP:
	case SCHEMA_KS_DEPS:
		if (kv->type != JSON_T_OBJECT)
			return 0;
		for (i = 0; i < kv->u.obj.count; i++) {
			const struct json_member *m = &kv->u.obj.members[i];

			if (m->value.type == JSON_T_ARRAY &&
			    schema_kw_shape(k) == SCHEMA_KS_DEPS)
				continue;
			mark = jptr_push(&c->ptr, m->key.ptr, m->key.len);
			if (scan(c, &m->value, l, depth) == -1)
				return -1;
			jptr_pop(&c->ptr, mark);
		}
		return 0;
	}
	return 0;
}

/* The identifier keywords of object v: $id / id, $anchor,
 * $dynamicAnchor, $recursiveAnchor.  *l is v's record, updated. */
static int
scan_ids(
    struct cctx *c, const struct json_value *v, struct res_loc *l, bool is_root)
{
	const struct json_value *id, *an;
	bool old = l->d <= SCHEMA_D_DRAFT07;
	size_t mark;

	/* draft-04..07: $ref beside $id makes $id ignored, like every
	 * sibling (draft-07 section 8.3) */
	if (old && json_object_get(v, "$ref", 4) != NULL)
		return 0;
	id = json_object_get(v, l->d == SCHEMA_D_DRAFT04 ? "id" : "$id",
	    l->d == SCHEMA_D_DRAFT04 ? 2 : 3);
	if (id != NULL) {
		const char *s = id->u.str.ptr, *hash;
		size_t len = id->u.str.len, ulen;
		char *abs;
		struct res_resource *res;
		int rc;

		mark =
		    jptr_push(&c->ptr, l->d == SCHEMA_D_DRAFT04 ? "id" : "$id",
		        l->d == SCHEMA_D_DRAFT04 ? 2 : 3);
		/* {"$id": 1} */
		if (id->type != JSON_T_STRING)
			return refuse(c, "$id", "$id must be a URI reference"),
			       -1;
		hash = memchr(s, '#', len);
		/* 2019-09 on: {"$id": "x.json#frag"} (only an empty
		 * fragment is allowed) */
		if (!old && hash != NULL && hash != s + len - 1)
			return refuse(c, "$id",
			           "$id must not have a fragment (use "
			           "$anchor for a name)"),
			       -1;
		ulen = hash != NULL ? (size_t)(hash - s) : len;
		if (ulen > 0) {
			abs = uri_resolve_to(
			    c, l->base, l->base_len, s, ulen, &ulen);
			if (abs == NULL)
				return -1;
			if ((res = resource_new(c, abs, ulen, v)) == NULL)
				return -1;
			if ((rc = ent_put(c, abs, ulen, res)) == -1)
				return nomem(c), -1;
			/* two subschemas with "$id": "https://x/a" */
			if (rc == 1 && !is_root)
				return refuse(c, "$id",
				           "the URI is declared twice"),
				       -1;
			l->base = res->uri;
			l->base_len = res->len;
			l->res = res;
			res->loc = l;
		}
		/* draft-04..07: {"$id": "#foo"} names a location */
		if (old && hash != NULL && hash != s + len - 1) {
			if (anchor_add(c, l->res, hash + 1,
			        (size_t)(s + len - hash - 1), v, false) == -1)
				return -1;
		}
		jptr_pop(&c->ptr, mark);
	}
	if (l->d >= SCHEMA_D_2019_09 &&
	    (an = json_object_get(v, "$anchor", 7)) != NULL) {
		mark = jptr_push(&c->ptr, "$anchor", 7);
		/* {"$anchor": "#foo"}, {"$anchor": "1a"} */
		if (an->type != JSON_T_STRING ||
		    !plain_name(an->u.str.ptr, an->u.str.len))
			return refuse(c, "$anchor",
			           "$anchor must be a plain name "
			           "([A-Za-z_][-A-Za-z0-9._]*)"),
			       -1;
		if (anchor_add(c, l->res, an->u.str.ptr, an->u.str.len, v,
		        false) == -1)
			return -1;
		jptr_pop(&c->ptr, mark);
	}
	if (l->d >= SCHEMA_D_2020_12 &&
	    (an = json_object_get(v, "$dynamicAnchor", 14)) != NULL) {
		mark = jptr_push(&c->ptr, "$dynamicAnchor", 14);
		/* {"$dynamicAnchor": "#meta"} */
		if (an->type != JSON_T_STRING ||
		    !plain_name(an->u.str.ptr, an->u.str.len))
			return refuse(c, "$dynamicAnchor",
			           "$dynamicAnchor must be a plain name "
			           "([A-Za-z_][-A-Za-z0-9._]*)"),
			       -1;
		if (anchor_add(
		        c, l->res, an->u.str.ptr, an->u.str.len, v, true) == -1)
			return -1;
		jptr_pop(&c->ptr, mark);
	}
	if (l->d == SCHEMA_D_2019_09 &&
	    (an = json_object_get(v, "$recursiveAnchor", 16)) != NULL) {
		mark = jptr_push(&c->ptr, "$recursiveAnchor", 16);
		/* {"$recursiveAnchor": "yes"} */
		if (an->type != JSON_T_TRUE && an->type != JSON_T_FALSE)
			return refuse(c, "$recursiveAnchor",
			           "$recursiveAnchor must be a boolean"),
			       -1;
		/* only a resource root's counts (2019-09 section 8.2.4.2.2) */
		if (an->type == JSON_T_TRUE && l->res->root == v)
			l->res->recursive = true;
		jptr_pop(&c->ptr, mark);
	}
	return 0;
}

/* The identifier that makes v an embedded resource, "$id" or draft-04's
 * "id" (a string), or NULL. */
static const struct json_value *
resource_id(const struct json_value *v)
{
	const struct json_value *id = json_object_get(v, "$id", 3);

	if (id == NULL)
		id = json_object_get(v, "id", 2);
	return id != NULL && id->type == JSON_T_STRING ? id : NULL;
}

static int
scan(struct cctx *c, const struct json_value *v, const struct res_loc *parent,
    unsigned depth)
{
	struct res_loc *l;
	const struct json_value *sv;
	size_t i, mark;

	if (v->type != JSON_T_OBJECT || loc_get(c, v) != NULL)
		return 0;
	/* {"items": {"items": ... 600 levels ...}} */
	if (depth >= SCHEMA_MAX_DEPTH)
		return refuse(c, NULL, "the form nests deeper than %d schemas",
		           SCHEMA_MAX_DEPTH),
		       -1;
	if ((l = arena_alloc(c->a, sizeof(*l))) == NULL)
		return nomem(c), -1;
	*l = *parent;
	/* $schema where a resource starts: the document root, or beside an
	 * $id (draft-04: id).  An embedded resource is processed in its own
	 * dialect whatever its parent's (2019-09 on say so; before, the
	 * bundle of a draft-07 form embeds a 2020-12 resource that way, and
	 * reading it as draft-07 would refuse its prefixItems) */
	if ((sv = json_object_get(v, "$schema", 7)) != NULL &&
	    (parent->res->root == v || resource_id(v) != NULL)) {
		if (read_schema_kw(c, sv, parent, &l->d, &l->vocab) == -1)
			return -1;
	}
	if (vmap_put(&c->locs, c->a, v, l) == -1)
		return nomem(c), -1;
	/* a malformed $id or anchor: with every problem wanted, the scan
	 * goes on (without that identifier) */
	mark = c->ptr.len;
	if (scan_ids(c, v, l, parent->res->root == v) == -1) {
		if (!schema_cc_go_on(c))
			return -1;
		jptr_pop(&c->ptr, mark);
	}
	/* draft-04..07: the keywords beside $ref are applied as written
	 * (schema_compile.c, read_keywords), so their subschemas are scanned;
	 * an $id beside $ref stays ignored (scan_ids) */
	for (i = 0; i < v->u.obj.count; i++) {
		const struct json_member *m = &v->u.obj.members[i];
		int k = schema_kw_lookup(l->d, m->key.ptr, m->key.len);

		/* an unknown keyword's value is no schema: an $id in it is
		 * no identifier */
		if (k < 0 || !((l->vocab >> schema_kw_vocab((enum kw)k)) & 1u))
			continue;
		mark = jptr_push(&c->ptr, m->key.ptr, m->key.len);
		if (scan_kw(c, (enum kw)k, &m->value, l, depth + 1) == -1)
			return -1;
		jptr_pop(&c->ptr, mark);
	}
	return 0;
}

int
schema_res_scan(struct cctx *c, const struct json_value *doc, const char *uri,
    size_t len, enum schema_dialect d, bool external)
{
	struct res_resource *res;
	struct res_loc root;
	struct jptr saved = c->ptr;
	const struct json_value *saved_root = c->ptr_root;
	int rc;

	/* a form using more documents than anyone serves */
	if (++c->ndocs > SCHEMA_MAX_DOCS + 1)
		return refuse(c, "$ref", "more than %d documents referenced",
		           SCHEMA_MAX_DOCS),
		       -1;
	if ((res = resource_new(c, uri, len, doc)) == NULL)
		return -1;
	res->external = external;
	if (len > 0 && (rc = ent_put(c, uri, len, res)) != 0)
		return rc == -1 ? (nomem(c), -1) : 0;
	memset(&root, 0, sizeof(root));
	root.base = res->uri;
	root.base_len = len;
	root.d = d;
	root.vocab = SCHEMA_V_ALL;
	root.res = res;
	jptr_init(&c->ptr);
	c->ptr_root = doc;
	if (doc->type != JSON_T_OBJECT) {
		struct res_loc *l = arena_alloc(c->a, sizeof(*l));

		if (l == NULL)
			return nomem(c), -1;
		*l = root;
		res->loc = l;
		c->ptr = saved;
		c->ptr_root = saved_root;
		return 0;
	}
	if (scan(c, doc, &root, 0) == -1)
		return -1;
	if (res->loc == NULL)
		res->loc = loc_get(c, doc);
	c->ptr = saved;
	c->ptr_root = saved_root;
	return 0;
}

const struct res_loc *
schema_res_loc(
    struct cctx *c, const struct json_value *v, const struct res_loc *from)
{
	const struct res_loc *l = loc_get(c, v);
	struct jptr saved;

	if (l != NULL || from == NULL)
		return l;
	/* {"$ref": "#/properties/a/enum/0"} or the sibling of a draft-07
	 * $ref: no scan reached it; it belongs to from's resource */
	saved = c->ptr;
	if (scan(c, v, from, 0) == -1)
		return NULL;
	c->ptr = saved;
	return loc_get(c, v);
}

/* Load the document uri (no fragment) and scan it; 0, 1 when nobody has
 * it, -1 refused. */
static int
load_doc(struct cctx *c, const char *uri, size_t len, enum schema_dialect d)
{
	const struct json_value *doc = NULL;
	const char *text;
	size_t tlen;
	char msg[SCHEMA_REASON_MAX];
	int rc;
	bool builtin = false;

	msg[0] = '\0';
	if ((text = schema_meta_text(uri, len, &tlen)) != NULL) {
		struct json_err jerr;

		if (json_parse(text, tlen, c->a, 0, &doc, &jerr) != JSON_OK)
			return nomem(c), -1;
		builtin = true;
		rc = 0;
	} else if (c->o->load == NULL) {
		rc = 1;
	} else {
		rc = c->o->load(
		    c->o->load_ctx, uri, len, c->a, &doc, msg, sizeof(msg));
	}
	if (rc == -1) {
		char name[SCHEMA_CLIP_MAX + 1];

		schema_clip(name, uri, len);
		return refuse(c, "$ref", "cannot load \"%s\": %s", name, msg),
		       -1;
	}
	if (rc == 1)
		return 1;
	if (schema_res_scan(c, doc, uri, len, d, true) == -1)
		return -1;
	if (builtin)
		c->last_res->builtin = true;
	{
		/* the resource of the retrieval URI, for the bundle */
		struct res_ent *e = ent_find(c, uri, len, hash_bytes(uri, len));

		if (e != NULL)
			e->res->external = true;
	}
	return 0;
}

int
schema_res_find(struct cctx *c, const struct res_loc *from, const char *ref,
    size_t len, struct res_target *out)
{
	const char *hash = memchr(ref, '#', len), *abs;
	size_t ulen = hash != NULL ? (size_t)(hash - ref) : len, alen;
	struct res_ent *e;
	struct res_resource *res;
	const struct json_value *v;
	char name[SCHEMA_CLIP_MAX + 1];

	memset(out, 0, sizeof(*out));
	if (hash != NULL) {
		out->frag = hash + 1;
		out->frag_len = (size_t)(ref + len - hash - 1);
	}
	if (ulen == 0) {
		res = from->res;
		abs = from->base;
		alen = from->base_len;
		/* the resource of the base: an $id'd subschema's or the
		 * document's */
		if ((e = ent_find(c, abs, alen, hash_bytes(abs, alen))) != NULL)
			res = e->res;
	} else {
		if ((abs = uri_resolve_to(c, from->base, from->base_len, ref,
		         ulen, &alen)) == NULL)
			return -1;
		e = ent_find(c, abs, alen, hash_bytes(abs, alen));
		if (e == NULL) {
			int rc = load_doc(c, abs, alen, from->d);

			if (rc == -1)
				return -1;
			e = rc == 0
			        ? ent_find(c, abs, alen, hash_bytes(abs, alen))
			        : NULL;
		}
		if (e == NULL) {
			/* {"$ref": "other.json"} with no such document */
			schema_clip(name, abs, alen);
			return refuse(c, "$ref",
			           "$ref names nothing: \"%s\" is neither in "
			           "the document nor provided (--refs)",
			           name),
			       -1;
		}
		res = e->res;
	}
	v = res->root;
	out->root = res->root;
	if (hash != NULL) {
		/* {"$ref": "#/$defs/a%zz"}, {"$ref": "#/a~2"} */
		if (jptr_from_fragment(&out->place, hash, out->frag_len + 1) ==
		    -1) {
			schema_clip(name, ref, len);
			return refuse(c, "$ref",
			           "$ref has a malformed escape (a %% takes "
			           "two "
			           "hex digits, a ~ takes 0 or 1): \"%s\"",
			           name),
			       -1;
		}
	}
	if (hash != NULL && out->place.len > 0 && out->place.buf[0] == '/') {
		/* RFC 6901 section 6: "#/a/b", percent-decoded */
		v = jptr_resolve(res->root, hash, out->frag_len + 1);
		out->pointer = true;
	} else if (out->frag_len > 0) {
		const struct res_anchor *an;
		const struct res_resource *named = res;

		/* a document whose root's $id is the URI it was loaded by:
		 * the anchors are the root resource's, of the same URI */
		if (res->loc != NULL && res->loc->res != res &&
		    res->loc->res->len == res->len &&
		    memcmp(res->loc->res->uri, res->uri, res->len) == 0)
			named = res->loc->res;
		/* the name percent-decoded: "#%41" is the anchor "A" */
		an = anchor_index_get(&named->by_name, out->place.buf,
		    out->place.len, anchor_hash(out->place.buf, out->place.len),
		    NULL);
		v = an != NULL ? an->v : NULL;
		out->anchor = an;
	}
	/* {"$ref": "#/$defs/missing"}, {"$ref": "#nope"} */
	if (v == NULL) {
		schema_clip(name, ref, len);
		return refuse(c, "$ref",
		           "$ref names nothing in the document: "
		           "\"%s\"",
		           name),
		       -1;
	}
	out->v = v;
	if ((out->loc = schema_res_loc(c, v, res->loc)) == NULL &&
	    v->type == JSON_T_OBJECT)
		return -1;
	if (out->loc == NULL)
		out->loc = res->loc;
	return 0;
}

/* ----- resolving the work list ---------------------------------------- */

/* The compiled resource of r, for the dynamic scope: its dynamic anchors,
 * compiled and indexed by name (schema_anchor.h), and its root. */
static int
build_rt(struct cctx *c, struct res_resource *r)
{
	struct schema_dynanchor *an;
	const struct res_anchor *a;
	uint32_t n = 0, i = 0;
	const struct schema_node *node;
	struct jptr saved = c->ptr;

	c->ptr_root = NULL; /* the places below are the resource's */
	for (a = r->anchors; a != NULL; a = a->next)
		n += a->dynamic;
	if ((an = arena_calloc(c->a, n == 0 ? 1 : n, sizeof(*an))) == NULL)
		return nomem(c), -1;
	for (a = r->anchors; a != NULL; a = a->next) {
		if (!a->dynamic)
			continue;
		jptr_init(&c->ptr);
		c->loc = schema_res_loc(c, a->v, r->loc);
		c->depth = 0;
		if ((node = c->compile(c, a->v)) == NULL)
			return -1;
		an[i].name = a->name;
		an[i].len = a->len;
		an[i].node = node;
		/* the names are distinct: anchor_add refused a second one */
		if (anchor_index_put(&r->rt->by_name, c->a, a->name, a->len,
		        anchor_hash(a->name, a->len), &an[i], NULL, NULL) == -1)
			return nomem(c), -1;
		i++;
	}
	r->rt->anchors = an;
	r->rt->nanchors = n;
	r->rt->recursive = r->recursive;
	if (r->recursive) {
		jptr_init(&c->ptr);
		c->loc = r->loc;
		c->depth = 0;
		if ((node = c->compile(c, r->root)) == NULL)
			return -1;
		r->rt->root = node;
	}
	c->ptr = saved;
	return 0;
}

static int
resolve_one(struct cctx *c, struct pending *p)
{
	struct res_target t;
	const struct schema_node *n;
	const char *ref = p->ref;
	size_t len = p->len;

	const char *hash = memchr(ref, '#', len);
	struct cc_try try;

	ptr_set(&c->ptr, p->where, p->where_len);
	c->ptr_root = p->where_root;
	/* v1: {"$dynamicRef": "meta"}, as the v1 meta-schemas write it, is
	 * the anchor name without its "#" (the core meta-schema's pattern is
	 * "^#?[A-Za-z_][-A-Za-z0-9._]*$"); read it as "#meta" */
	if (p->kind == PENDING_DYNAMIC && p->loc->d >= SCHEMA_D_V1 &&
	    hash == NULL && plain_name(ref, len)) {
		size_t hlen;
		char *h;

		if (!gpt_add_size(len, 1, &hlen) ||
		    (h = arena_alloc(c->a, hlen)) == NULL)
			return nomem(c), -1;
		h[0] = '#';
		memcpy(h + 1, ref, len);
		ref = hash = h;
		len = hlen;
	}
	/* v1: {"$dynamicRef": "#items"} names a $dynamicAnchor of the dynamic
	 * scope, with no anchor of that name needed where it is written */
	if (p->kind == PENDING_DYNAMIC && p->loc->d >= SCHEMA_D_V1 &&
	    hash != NULL &&
	    plain_name(hash + 1, (size_t)(ref + len - hash - 1))) {
		p->node->dyn = SCHEMA_DYN_ANCHOR;
		p->node->dyn_name = hash + 1;
		p->node->dyn_len = (size_t)(ref + len - hash - 1);
		p->node->dyn_hash =
		    anchor_hash(p->node->dyn_name, p->node->dyn_len);
		schema_cc_try(c, &try);
		if (schema_res_find(c, p->loc, ref, len, &t) == -1)
			return schema_cc_untry(c, &try, true);
		if (schema_cc_untry(c, &try, false) == -1)
			return -1;
		jptr_init(&c->ptr);
		c->ptr_root = NULL;
		c->depth = 0;
		c->loc = t.loc;
		if ((p->node->dref = c->compile(c, t.v)) == NULL)
			return -1;
		return 0;
	}
	if (schema_res_find(c, p->loc, ref, len, &t) == -1)
		return -1;
	/* The target's own place, for messages about it. */
	jptr_init(&c->ptr);
	c->ptr_root = NULL;
	if (t.pointer) {
		c->ptr = t.place;
		c->ptr_root = t.root;
	}
	c->depth = 0;
	c->loc = t.loc;
	if ((n = c->compile(c, t.v)) == NULL)
		return -1;
	switch (p->kind) {
	case PENDING_REF:
		p->node->ref = n;
		break;
	case PENDING_DYNAMIC:
		p->node->dref = n;
		p->node->dyn = SCHEMA_DYN_STATIC;
		/* 2020-12 section 8.2.3.2: dynamic only when the static target
		 * is a $dynamicAnchor of that name */
		if (t.anchor != NULL && t.anchor->dynamic) {
			p->node->dyn = SCHEMA_DYN_ANCHOR;
			p->node->dyn_name = t.anchor->name;
			p->node->dyn_len = t.anchor->len;
			p->node->dyn_hash =
			    anchor_hash(t.anchor->name, t.anchor->len);
		}
		break;
	case PENDING_RECURSIVE:
		p->node->dref = n;
		p->node->dyn = SCHEMA_DYN_STATIC;
		if (t.loc != NULL && t.loc->res->root == t.v &&
		    t.loc->res->recursive)
			p->node->dyn = SCHEMA_DYN_RECURSIVE;
		break;
	}
	return 0;
}

int
schema_res_resolve(struct cctx *c)
{
	struct res_resource *r, *done = NULL;
	bool more = true;

	while (more) {
		while (c->pending != NULL) {
			struct pending *p = c->pending;

			c->pending = p->next;
			/* with every problem wanted, the next reference */
			if (resolve_one(c, p) == -1 && !schema_cc_go_on(c))
				return -1;
		}
		more = false;
		if (!c->dynamic)
			break;
		/* every resource known so far gets its runtime record;
		 * building one may load more */
		for (r = done == NULL ? c->resources : done->next; r != NULL;
		     r = r->next) {
			if (build_rt(c, r) == -1 && !schema_cc_go_on(c))
				return -1;
			done = r;
			more = true;
		}
		more = more || c->pending != NULL;
	}
	return 0;
}

/* ----- built-in meta-schemas ----------------------------------------- */

const char *
schema_meta_text(const char *uri, size_t len, size_t *text_len)
{
	size_t i;

	for (i = 0; i < schema_nmetas; i++)
		if (strlen(schema_metas[i].uri) == len &&
		    memcmp(schema_metas[i].uri, uri, len) == 0) {
			*text_len = schema_metas[i].len;
			return schema_metas[i].text;
		}
	return NULL;
}

/* ----- the bundle ------------------------------------------------------ */

static int
str_value(struct cctx *c, struct json_value *out, const char *s, size_t len)
{
	out->type = JSON_T_STRING;
	out->u.str.ptr = s;
	out->u.str.len = len;
	out->u.str.cps = len; /* a URI is ASCII */
	(void)c;
	return 0;
}

/*
 * The served form: the root with every loaded document (not the built-in
 * meta-schemas, which every validator knows) embedded by its URI under
 * $defs (2019-09 on) or definitions, with $id (id in draft-04) set, so
 * references resolve inside the bundle (2020-12 section 9.3).
 */
int
schema_cc_bundle(struct cctx *c, struct schema *s)
{
	const struct res_resource *r;
	const struct json_value *root = c->root, *old = NULL;
	struct json_value *b, *defs;
	struct json_member *m, *dm;
	enum schema_dialect d = c->resources->loc->d;
	const char *dkw = d >= SCHEMA_D_2019_09 ? "$defs" : "definitions";
	const char *idkw = d == SCHEMA_D_DRAFT04 ? "id" : "$id";
	size_t next = 0, i, k, nold = 0, nm, root_uri_len = 0;
	const struct json_value *rid = NULL;
	const char *root_uri = NULL;
	bool set_id = false;

	s->bundle = root;
	for (r = c->resources; r != NULL; r = r->next)
		next += r->external && !r->builtin && r->root != root;
	if (next == 0)
		return 0;
	if (root->type != JSON_T_OBJECT)
		return refuse(c, "$ref", "a boolean form has no references"),
		       -1;
	old = json_object_get(root, dkw, strlen(dkw));
	if (old != NULL && old->type == JSON_T_OBJECT)
		nold = old->u.obj.count;
	/* a form with a base URI (its location) and no absolute $id: the
	 * bundle names the root by that URI, so that its relative references
	 * reach the resources embedded under the URIs they resolved to */
	if (c->o->base_uri != NULL && c->resources->loc != NULL &&
	    c->resources->loc->base_len > 0) {
		rid = json_object_get(root, idkw, strlen(idkw));
		root_uri = c->resources->loc->base;
		root_uri_len = c->resources->loc->base_len;
		set_id = rid == NULL || rid->type != JSON_T_STRING ||
		         rid->u.str.len != root_uri_len ||
		         memcmp(rid->u.str.ptr, root_uri, root_uri_len) != 0;
	}
	nm = root->u.obj.count + (old == NULL) + (set_id && rid == NULL);
	if ((b = arena_calloc(c->a, 1, sizeof(*b))) == NULL ||
	    (m = arena_calloc(c->a, nm, sizeof(*m))) == NULL ||
	    (defs = arena_calloc(c->a, 1, sizeof(*defs))) == NULL ||
	    (dm = arena_calloc(c->a, nold + next, sizeof(*dm))) == NULL)
		return nomem(c), -1;
	for (i = 0; i < nold; i++)
		dm[i] = old->u.obj.members[i];
	k = nold;
	for (r = c->resources; r != NULL; r = r->next) {
		struct json_value *doc;
		const struct json_value *id;

		if (!r->external || r->builtin || r->root == root)
			continue;
		json_member_name(&dm[k], r->uri, r->len, r->len);
		doc = &dm[k].value;
		*doc = *r->root;
		id = r->root->type == JSON_T_OBJECT
		         ? json_object_get(r->root, idkw, strlen(idkw))
		         : NULL;
		if (r->root->type == JSON_T_OBJECT && id == NULL) {
			struct json_member *cm = arena_calloc(
			    c->a, r->root->u.obj.count + 1, sizeof(*cm));

			if (cm == NULL)
				return nomem(c), -1;
			json_member_name(
			    &cm[0], idkw, strlen(idkw), strlen(idkw));
			str_value(c, &cm[0].value, r->uri, r->len);
			memcpy(cm + 1, r->root->u.obj.members,
			    r->root->u.obj.count * sizeof(*cm));
			doc->u.obj.members = cm;
			doc->u.obj.count++;
			doc->u.obj.index = NULL;
		} else if (r->root->type != JSON_T_OBJECT) {
			/* a boolean document: {"$id": uri, "allOf": [b]} */
			struct json_member *cm =
			    arena_calloc(c->a, 2, sizeof(*cm));
			struct json_value *arr =
			    arena_calloc(c->a, 1, sizeof(*arr));

			if (cm == NULL || arr == NULL)
				return nomem(c), -1;
			json_member_name(
			    &cm[0], idkw, strlen(idkw), strlen(idkw));
			str_value(c, &cm[0].value, r->uri, r->len);
			json_member_name(&cm[1], "allOf", 5, 5);
			*arr = *r->root;
			cm[1].value.type = JSON_T_ARRAY;
			cm[1].value.u.arr.items = arr;
			cm[1].value.u.arr.count = 1;
			doc->type = JSON_T_OBJECT;
			doc->u.obj.members = cm;
			doc->u.obj.count = 2;
			doc->u.obj.index = NULL;
		}
		k++;
	}
	defs->type = JSON_T_OBJECT;
	defs->u.obj.members = dm;
	defs->u.obj.count = k;
	k = 0;
	if (set_id && rid == NULL) {
		json_member_name(&m[k], idkw, strlen(idkw), strlen(idkw));
		str_value(c, &m[k].value, root_uri, root_uri_len);
		k++;
	}
	for (i = 0; i < root->u.obj.count; i++) {
		m[k] = root->u.obj.members[i];
		if (&root->u.obj.members[i].value == old)
			m[k].value = *defs;
		/* {"$id": "T0"}: the URI it resolved to */
		if (set_id && &root->u.obj.members[i].value == rid)
			str_value(c, &m[k].value, root_uri, root_uri_len);
		k++;
	}
	if (old == NULL) {
		json_member_name(&m[k], dkw, strlen(dkw), strlen(dkw));
		m[k].value = *defs;
		k++;
	}
	b->type = JSON_T_OBJECT;
	b->u.obj.members = m;
	b->u.obj.count = k;
	b->u.obj.index = NULL;
	s->bundle = b;
	return 0;
}

const struct json_value *
schema_bundle(const struct schema *s, struct arena *a)
{
	(void)a;
	return s->bundle;
}
