/*
 * schema_view.c: the compiled form described for the tools (schema_view.h).
 *
 * Reads the fields schema_compile.c filled and schema_plan.c settled; the
 * only knowledge here is which flag means which field.
 */
#include <string.h>

#include "schema/format.h"
#include "parser/json.h"
#include "schema/schema_cc.h"
#include "schema/schema_int.h"
#include "schema/schema_view.h"

static const struct cnode *
cnode_of(const struct schema_node *n)
{
	/* a K_NODE node is the first member of its cnode (schema_cc.h);
	 * the static true and false nodes are not */
	if (n == NULL || n == &schema_node_true || n == &schema_node_false)
		return NULL;
	return (const struct cnode *)(const void *)n;
}

/*
 * The SF_* bits this file describes, one by one, each with the fields it
 * fills.  A bit not listed here (a keyword added to the compiler after
 * this view was written) makes its node undescribed, so that the tools
 * treat it as opaque instead of ignoring it.
 */
static const uint64_t sv_described[] = {
    SF_TYPE,      /* types, typed */
    SF_ENUM,      /* nenums, schema_view_enum */
    SF_CONST,     /* const_value */
    SF_MINIMUM,   /* minimum */
    SF_MAXIMUM,   /* maximum */
    SF_XMINIMUM,  /* xminimum */
    SF_XMAXIMUM,  /* xmaximum */
    SF_MULTIPLE,  /* multiple_of */
    SF_NFORMAT,   /* nformat */
    SF_MINLENGTH, /* min_length */
    SF_MAXLENGTH, /* max_length */
    SF_PATTERN,   /* pattern, content_* */
    SF_FORMAT,    /* format */
    SF_MINITEMS,  /* min_items */
    SF_MAXITEMS,  /* max_items */
    SF_ITEMS,     /* nprefix, items */
    SF_CONTAINS,  /* contains, min_contains, max_contains */
    SF_UNIQUE,    /* unique_items */
    SF_MINPROPS,  /* min_props */
    SF_MAXPROPS,  /* max_props */
    SF_MEMBERS,   /* nprops, npprops, additional, names */
    SF_REQUIRED,  /* schema_view_prop's required */
    SF_DEPREQ,    /* ndepreq */
    SF_DEPSCH,    /* ndepsch */
    SF_REF,       /* ref, dyn, dyn_target */
    SF_ALLOF,     /* nall_of */
    SF_ANYOF,     /* nany_of */
    SF_ONEOF,     /* none_of */
    SF_NOT,       /* not_ */
    SF_IF,        /* if_, then_, else_ */
    SF_FALSE,     /* kind SV_FALSE */
    SF_SPECIAL,   /* unevaluated_props, unevaluated_items */
};

static uint64_t
described_mask(void)
{
	uint64_t m = 0;
	size_t i;

	for (i = 0; i < GPT_ARRAY_LEN(sv_described); i++)
		m |= sv_described[i];
	return m;
}

bool
schema_view_describes(enum kw k)
{
	return (schema_kw_info(k)->flag & ~described_mask()) == 0;
}

size_t
schema_view_opaque(
    const struct schema_node *n, size_t i, const char **name, size_t *len)
{
	const struct cnode *cn = cnode_of(n);
	const struct schema_kw_info *row;
	const struct json_member *m;

	if (cn == NULL || cn->src == NULL || cn->src->type != JSON_T_OBJECT)
		return SIZE_MAX;
	for (; i < cn->src->u.obj.count; i++) {
		m = &cn->src->u.obj.members[i];
		row = schema_kw_find(
		    (enum schema_dialect)cn->dialect, m->key.ptr, m->key.len);
		if (row != NULL && !schema_view_describes(row->kw)) {
			*name = m->key.ptr;
			*len = m->key.len;
			return i;
		}
	}
	return SIZE_MAX;
}

/* The view's type bits are the compiler's. */
_Static_assert((unsigned)SV_TY_NULL == (unsigned)SCHEMA_TY_NULL &&
                   (unsigned)SV_TY_STRING == (unsigned)SCHEMA_TY_STRING &&
                   (unsigned)SV_TY_INTEGER == (unsigned)SCHEMA_TY_INTEGER,
    "schema_view type bits follow SCHEMA_TY_*");

static void
num(const struct schema_node *n, uint64_t flag, const struct schema_num *b,
    struct schema_view_num *out)
{
	out->text = NULL;
	out->len = 0;
	if ((n->flags & flag) && b->v != NULL) {
		out->text = b->v->u.num.text;
		out->len = b->v->u.num.len;
	}
}

const struct schema_node *
schema_view_root(const struct schema *s)
{
	return s->root;
}

void
schema_view_get(const struct schema_node *n, struct schema_view *v)
{
	const struct cnode *cn = cnode_of(n);

	memset(v, 0, sizeof(*v));
	v->types = SV_TY_ALL;
	v->max_length = v->max_items = v->max_props = SIZE_MAX;
	v->min_contains = 1;
	v->max_contains = SIZE_MAX;
	v->dialect = -1;
	if (cn != NULL) {
		v->dialect = cn->dialect;
		v->src = cn->src;
		v->pointer = cn->where;
		v->pointer_len = cn->where_len;
	}
	if (n == NULL || n->kind == SCHEMA_K_TRUE) {
		v->kind = SV_TRUE;
		return;
	}
	if (n->kind == SCHEMA_K_FALSE) {
		v->kind = SV_FALSE;
		return;
	}
	v->kind = SV_NODE;
	v->undescribed = (n->flags & ~described_mask()) != 0;
	if (n->flags & SF_TYPE) {
		v->typed = true;
		v->integer_text = n->integer_text;
		v->types = n->types;
	}
	if (n->flags & SF_CONST)
		v->const_value = n->const_value;
	if (n->flags & SF_ENUM)
		v->nenums = n->nenums;

	num(n, SF_MINIMUM, &n->minimum, &v->minimum);
	num(n, SF_MAXIMUM, &n->maximum, &v->maximum);
	num(n, SF_XMINIMUM, &n->xminimum, &v->xminimum);
	num(n, SF_XMAXIMUM, &n->xmaximum, &v->xmaximum);
	num(n, SF_MULTIPLE, &n->multiple, &v->multiple_of);
	if ((n->flags & SF_NFORMAT) && n->format != NULL)
		v->nformat = n->format->name;

	if (n->flags & SF_MINLENGTH)
		v->min_length = n->min_length;
	if (n->flags & SF_MAXLENGTH)
		v->max_length = n->max_length;
	if (n->pattern != NULL && cn != NULL && cn->pattern != NULL) {
		v->pattern = cn->pattern->u.str.ptr;
		v->pattern_len = cn->pattern->u.str.len;
	}
	if ((n->flags & SF_FORMAT) && n->format != NULL)
		v->format = n->format->name;
	if (n->content) {
		v->content_encoding = n->enc == SCHEMA_ENC_BASE64 ? "base64"
		                      : n->enc == SCHEMA_ENC_BASE64URL
		                          ? "base64url"
		                          : NULL;
		v->content_json = n->content_json;
		v->content_schema = n->content_schema;
	}

	if (n->flags & SF_MINITEMS)
		v->min_items = n->min_items;
	if (n->flags & SF_MAXITEMS)
		v->max_items = n->max_items;
	if (n->flags & SF_ITEMS) {
		v->nprefix = n->nprefix;
		v->items = n->items;
	}
	if (n->flags & SF_CONTAINS) {
		v->contains = n->contains;
		v->min_contains = n->min_contains;
		v->max_contains = n->max_contains;
	}
	v->unique_items = (n->flags & SF_UNIQUE) != 0;
	v->unevaluated_items = n->uneval_items;

	if (n->flags & SF_MINPROPS)
		v->min_props = n->min_props;
	if (n->flags & SF_MAXPROPS)
		v->max_props = n->max_props;
	v->nprops = n->nslots;
	v->npprops = n->npprops;
	v->additional = n->additional;
	v->names = n->names;
	v->ndepreq = n->ndepreq;
	v->ndepsch = n->ndepsch;
	v->unevaluated_props = n->uneval_props;

	if (n->flags & SF_REF) {
		v->ref = n->ref;
		if (n->dyn == SCHEMA_DYN_STATIC) {
			v->dyn = SV_DYN_STATIC;
			v->dyn_target = n->dref;
		} else if (n->dyn != SCHEMA_DYN_NONE) {
			v->dyn = SV_DYN_DYNAMIC;
			v->dyn_target = n->dref;
		}
	}
	v->nall_of = n->nall_of;
	v->nany_of = n->nany_of;
	v->none_of = n->none_of;
	v->not_ = n->not_;
	if (n->flags & SF_IF) {
		v->if_ = n->if_;
		v->then_ = n->then_;
		v->else_ = n->else_;
	}
}

const struct json_value *
schema_view_enum(const struct schema_node *n, size_t i)
{
	return i < n->nenums ? n->enums[i].value : NULL;
}

const struct schema_node *
schema_view_prefix(const struct schema_node *n, size_t i)
{
	return i < n->nprefix ? n->prefix[i] : NULL;
}

void
schema_view_prop(
    const struct schema_node *n, size_t i, struct schema_view_prop *out)
{
	const struct schema_slot *sl = &n->slots[i];
	const struct cnode *cn = cnode_of(n);
	const struct json_value *props = cn != NULL ? cn->props : NULL;

	out->name = sl->name;
	out->len = sl->len;
	out->sub = sl->sub;
	out->src = json_object_get(props, sl->name, sl->len);
	out->required = sl->required;
}

void
schema_view_pprop(
    const struct schema_node *n, size_t i, struct schema_view_pprop *out)
{
	out->pattern = n->pprops[i].src;
	out->len = n->pprops[i].src_len;
	out->sub = n->pprops[i].sub;
}

void
schema_view_depreq(
    const struct schema_node *n, size_t i, struct schema_view_depreq *out)
{
	const struct schema_depreq *d = &n->depreq[i];

	out->name = n->slots[d->trigger].name;
	out->len = n->slots[d->trigger].len;
	out->nneed = d->count;
}

void
schema_view_depreq_need(const struct schema_node *n, size_t i, size_t k,
    const char **name, size_t *len)
{
	const struct schema_slot *sl = &n->slots[n->depreq[i].need[k]];

	*name = sl->name;
	*len = sl->len;
}

const struct schema_node *
schema_view_depsch(
    const struct schema_node *n, size_t i, const char **name, size_t *len)
{
	*name = n->depsch[i].name;
	*len = n->depsch[i].len;
	return n->depsch[i].sub;
}

const struct schema_node *
schema_view_all_of(const struct schema_node *n, size_t i)
{
	return i < n->nall_of ? n->all_of[i] : NULL;
}

const struct schema_node *
schema_view_any_of(const struct schema_node *n, size_t i)
{
	return i < n->nany_of ? n->any_of[i] : NULL;
}

const struct schema_node *
schema_view_one_of(const struct schema_node *n, size_t i)
{
	return i < n->none_of ? n->one_of[i] : NULL;
}

bool
schema_view_admits(const struct schema_view *v, unsigned ty)
{
	if (v->kind == SV_FALSE)
		return false;
	if (ty == SV_TY_INTEGER)
		return (v->types & (SV_TY_INTEGER | SV_TY_NUMBER)) != 0;
	return (v->types & ty) != 0;
}

int
schema_view_each(const struct schema *s,
    int (*fn)(void *ctx, const struct schema_node *n), void *ctx)
{
	size_t i;
	int rc;

	for (i = 0; i < s->nnodes; i++)
		if ((rc = fn(ctx, s->nodes[i])) != 0)
			return rc;
	return 0;
}

size_t
schema_view_count(const struct schema *s)
{
	return s->nnodes;
}

size_t
schema_view_id(const struct schema_node *n)
{
	const struct cnode *cn = cnode_of(n);

	return cn != NULL ? cn->id : SIZE_MAX;
}

/* The edge stages of schema_view_edges_next, in their order. */
static const enum kw sv_edge_order[] = {
    KW_REF,
    KW_DYNAMICREF,
    KW_ALLOF,
    KW_ANYOF,
    KW_ONEOF,
    KW_THEN,
    KW_ELSE,
    KW_DEPENDENTSCHEMAS,
    KW_IF,
    KW_NOT,
    KW_PROPERTIES,
    KW_PATTERNPROPERTIES,
    KW_ADDITIONALPROPERTIES,
    KW_UNEVALPROPS,
    KW_PREFIXITEMS,
    KW_ITEMS,
    KW_UNEVALITEMS,
    KW_CONTENTSCHEMA,
    KW_CONTAINS,
    KW_PROPERTYNAMES,
};

void
schema_view_edges_init(struct schema_view_edges *it,
    const struct schema_node *n, enum schema_view_edges_how how)
{
	it->n = n;
	it->how = how;
	it->stage = 0;
	it->i = 0;
}

/* The field of node n that holds the i-th subschema of stage kw, or NULL
 * past the last; *field NULL for one absent (a properties member without
 * a schema, a keyword the walk leaves out).  With view set, only what
 * schema_view_get describes: the same flags gate the same fields. */
static const struct schema_node *const *
sv_edge_at(const struct schema_node *n, bool view, enum kw kw, size_t i)
{
	static const struct schema_node *const none = NULL;
	uint64_t f = view ? n->flags : ~(uint64_t)0;

	switch (kw) {
	case KW_REF:
		return i > 0 ? NULL : (f & SF_REF) ? &n->ref : &none;
	case KW_DYNAMICREF:
		return i > 0 ? NULL
		       : (f & SF_REF) && (!view || n->dyn != SCHEMA_DYN_NONE)
		           ? &n->dref
		           : &none;
	case KW_ALLOF:
		return i < n->nall_of ? &n->all_of[i] : NULL;
	case KW_ANYOF:
		return i < n->nany_of ? &n->any_of[i] : NULL;
	case KW_ONEOF:
		return i < n->none_of ? &n->one_of[i] : NULL;
	case KW_THEN:
		return i > 0 ? NULL : (f & SF_IF) ? &n->then_ : &none;
	case KW_ELSE:
		return i > 0 ? NULL : (f & SF_IF) ? &n->else_ : &none;
	case KW_DEPENDENTSCHEMAS:
		return i < n->ndepsch ? &n->depsch[i].sub : NULL;
	case KW_IF:
		return i > 0 ? NULL : (f & SF_IF) ? &n->if_ : &none;
	case KW_NOT:
		return i > 0 ? NULL : &n->not_;
	case KW_PROPERTIES:
		return i < n->nslots ? &n->slots[i].sub : NULL;
	case KW_PATTERNPROPERTIES:
		return i < n->npprops ? &n->pprops[i].sub : NULL;
	case KW_ADDITIONALPROPERTIES:
		return i > 0 ? NULL : &n->additional;
	case KW_UNEVALPROPS:
		return i > 0 ? NULL : &n->uneval_props;
	case KW_PREFIXITEMS:
		return (f & SF_ITEMS) && i < n->nprefix ? &n->prefix[i] : NULL;
	case KW_ITEMS:
		return i > 0 ? NULL : (f & SF_ITEMS) ? &n->items : &none;
	case KW_UNEVALITEMS:
		return i > 0 ? NULL : &n->uneval_items;
	case KW_CONTENTSCHEMA:
		return i > 0                 ? NULL
		       : !view || n->content ? &n->content_schema
		                             : &none;
	case KW_CONTAINS:
		return i > 0 ? NULL : (f & SF_CONTAINS) ? &n->contains : &none;
	case KW_PROPERTYNAMES:
		return i > 0 ? NULL : &n->names;
	default:
		return NULL;
	}
}

bool
schema_view_edges_next(struct schema_view_edges *it, struct schema_view_edge *e)
{
	const struct schema_node *const *field;
	const struct schema_kw_info *row;
	const struct schema_node *n = it->n;
	bool view = it->how == SV_EDGES_VIEW;

	/* the view's edges are a described node's; the compiler's are any
	 * node's (the static true and false hold none) */
	if (n == NULL || (view && n->kind != SCHEMA_K_NODE))
		return false;
	/* bounded: each round moves to the next entry or the next stage */
	while (it->stage < GPT_ARRAY_LEN(sv_edge_order)) {
		enum kw kw = sv_edge_order[it->stage];

		if ((field = sv_edge_at(n, view, kw, it->i)) == NULL) {
			it->stage++;
			it->i = 0;
			continue;
		}
		e->index = it->i++;
		if (*field == NULL)
			continue;
		row = schema_kw_info(kw);
		e->kw = kw;
		e->at = row->at;
		e->tests = row->tests;
		e->to = *field;
		e->slot = field;
		return true;
	}
	return false;
}
