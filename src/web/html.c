/*
 * html.c: the human page (see html.h).
 *
 * Owns nothing past a call: the page is appended to the caller's buffer;
 * the scratch (a buffer for the description, the table of nodes already
 * numbered) is freed before returning.  html_csp() owns one static string.
 *
 * The description of the form (its format is written down at the head of
 * src/web/page/page.js, which reads it): every compiled node reachable
 * from the root gets a number, the first time a node refers to it (an
 * array by the node's dense id, schema_view_id, so a node shared by many
 * references, or a recursive form, is described once); nodes are written
 * in that order,
 * each naming the others by number, each keyword under its JSON Schema
 * name, bounds as the form's own number text.  What the page cannot judge
 * (a constraint the view does not describe, dynamic references,
 * unevaluated*) is named in "x-opaque", never dropped: the script gives
 * that part a JSON editor and its check says it cannot tell there.
 * Linear in the nodes and their keywords; the <title> shows at most
 * HTML_TITLE_MAX code points of the heading.
 *
 * Refuses nothing: the document and the form were checked at load; a
 * member of an unexpected shape (an `m` entry without `content`) is left
 * out of the page.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/buf.h"
#include "web/html.h"
#include "parser/json.h"
#include "schema/schema.h"
#include "schema/schema_dialect.h"
#include "schema/schema_view.h"
#include "base/sha256.h"
#include "base/utf8.h"

/* The page is small; the scratch buffer never needs more than this. */
#define HTML_SCRATCH_MAX ((size_t)64 * 1024 * 1024)

/* U+FFFD REPLACEMENT CHARACTER, written for what HTML text cannot carry. */
static const char html_fffd[] = "\xEF\xBF\xBD";

/* Put out back to len bytes: undoes a partly written page. */
static void
html_rollback(struct buf *out, size_t len)
{
	(void)buf_trunc(out, len); /* len came from buf_len(): cannot fail */
}

/*
 * Characters that HTML text may not carry raw.  C0 controls other than
 * tab, LF and CR, DEL, and the C1 controls are "control-character-in-input-
 * stream" parse errors (HTML Living Standard 13.2.3.5); they become
 * U+FFFD rather than character references, which are errors too.
 */
static bool
html_is_control(uint32_t cp)
{
	if (cp == '\t' || cp == '\n' || cp == '\r')
		return false;
	return cp < 0x20 || (cp >= 0x7F && cp <= 0x9F);
}

static const char *
html_entity(unsigned char c)
{
	switch (c) {
	case '&':
		return "&amp;";
	case '<':
		return "&lt;";
	case '>':
		return "&gt;";
	case '"':
		return "&quot;";
	case '\'':
		return "&#39;";
	default:
		return NULL;
	}
}

int
html_escape(const char *s, size_t len, struct buf *out)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t start = buf_len(out);
	size_t i = 0, run = 0;

	/* Copy runs of plain bytes whole; stop at each byte that needs care. */
	while (i < len) {
		const char *ent = html_entity(p[i]);
		uint32_t cp = p[i];
		size_t n = 1;

		if (ent == NULL && p[i] >= 0x20 && p[i] < 0x7F) {
			i++;
			continue;
		}
		if (buf_append(out, p + run, i - run) == -1)
			goto fail;
		if (p[i] >= 0x80 &&
		    (n = utf8_decode(p + i, len - i, &cp)) == 0) {
			/* A stray byte, e.g. "\xC3(": shown as U+FFFD. */
			n = 1;
			cp = 0xFFFD;
			if (buf_puts(out, html_fffd) == -1)
				goto fail;
		} else if (ent != NULL) {
			if (buf_puts(out, ent) == -1)
				goto fail;
		} else if (html_is_control(cp)) {
			/* "\u0000" in p reaches here. */
			if (buf_puts(out, html_fffd) == -1)
				goto fail;
		} else if (buf_append(out, p + i, n) == -1) {
			goto fail;
		}
		i += n;
		run = i;
	}
	if (buf_append(out, p + run, len - run) == -1)
		goto fail;
	return 0;
fail:
	html_rollback(out, start);
	return -1;
}

/* Escape the first `max` code points of s, then an ellipsis if cut. */
static int
html_escape_prefix(const char *s, size_t len, size_t max, struct buf *out)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, cps = 0;

	while (i < len && cps < max) {
		uint32_t cp;
		size_t n = utf8_decode(p + i, len - i, &cp);

		i += n == 0 ? 1 : n;
		cps++;
	}
	if (html_escape(s, i, out) == -1)
		return -1;
	if (i < len && buf_puts(out, "\xE2\x80\xA6") == -1)
		return -1;
	return 0;
}

int
html_json_script(const char *s, size_t len, struct buf *out)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t start = buf_len(out), i, run = 0;

	for (i = 0; i < len; i++) {
		const char *rep = NULL;
		size_t skip = 1;

		if (p[i] == '<')
			rep = "\\u003c";
		else if (p[i] == '>')
			rep = "\\u003e";
		else if (p[i] == '&')
			rep = "\\u0026";
		else if (p[i] == 0xE2 && i + 2 < len && p[i + 1] == 0x80 &&
		         (p[i + 2] == 0xA8 || p[i + 2] == 0xA9)) {
			/* U+2028, U+2029: line terminators to older scripts */
			rep = p[i + 2] == 0xA8 ? "\\u2028" : "\\u2029";
			skip = 3;
		}
		if (rep == NULL)
			continue;
		if (buf_append(out, p + run, i - run) == -1 ||
		    buf_puts(out, rep) == -1)
			goto fail;
		i += skip - 1;
		run = i + 1;
	}
	if (buf_append(out, p + run, len - run) == -1)
		goto fail;
	return 0;
fail:
	html_rollback(out, start);
	return -1;
}

/* --- the description of the controls ---------------------------------- */

struct html_desc {
	struct buf *out;                  /* the description's JSON, raw */
	const struct schema_node **nodes; /* owned: by number */
	size_t count;
	/* owned: each node's number + 1 (0: none yet) by its dense id
	 * (schema_view_id), then three slots for the nodes without one:
	 * NULL, the static true and the static false schema */
	size_t *num_of;
	size_t nids; /* the form's node count */
};

/* Room for every node of form.  0, or -1 out of memory. */
static int
html_desc_init(struct html_desc *d, const struct schema *form)
{
	size_t n = schema_view_count(form) + 3;

	d->nids = n - 3;
	if ((d->num_of = calloc(n, sizeof(*d->num_of))) == NULL ||
	    (d->nodes = calloc(n, sizeof(*d->nodes))) == NULL)
		return -1;
	return 0;
}

/* n's number, given now if n has none: always 0 (the arrays were sized
 * for every node by html_desc_init). */
static int
html_desc_num(struct html_desc *d, const struct schema_node *n, size_t *num)
{
	size_t k = schema_view_id(n);
	struct schema_view v;

	if (k >= d->nids) {
		schema_view_get(n, &v);
		k = d->nids + (n == NULL ? 0 : v.kind == SV_FALSE ? 2 : 1);
	}
	if (d->num_of[k] == 0) {
		d->nodes[d->count] = n;
		d->num_of[k] = ++d->count;
	}
	*num = d->num_of[k] - 1;
	return 0;
}

static int
html_json_text(struct buf *out, const char *p, size_t len)
{
	struct json_value v;

	memset(&v, 0, sizeof(v));
	v.type = JSON_T_STRING;
	v.u.str.ptr = p;
	v.u.str.len = len;
	return json_write(&v, out);
}

/* ,"key": written before every member but the node's first */
static int
html_key(struct html_desc *d, enum kw k)
{
	return buf_printf(d->out, ",\"%s\":", schema_kw_name(k));
}

static int
html_ref(struct html_desc *d, enum kw k, const struct schema_node *n)
{
	size_t num;

	if (html_desc_num(d, n, &num) == -1)
		return -1;
	return buf_printf(d->out, ",\"%s\":%zu", schema_kw_name(k), num);
}

static int
html_size(struct html_desc *d, enum kw k, size_t v, size_t absent)
{
	if (v == absent)
		return 0;
	return buf_printf(d->out, ",\"%s\":%zu", schema_kw_name(k), v);
}

static int
html_num(struct html_desc *d, enum kw k, const struct schema_view_num *num)
{
	if (num->text == NULL)
		return 0;
	/* the keyword's own JSON number text, as written: the page's reader
	 * keeps it exact (0.10 stays 0.10, 2^53 + 1 stays 2^53 + 1) */
	if (html_key(d, k) == -1)
		return -1;
	return buf_append(d->out, num->text, num->len);
}

/*
 * Close the object opened at mark ("{" then members each written with a
 * leading comma): the first member's comma goes.  An object with no
 * member is left as "{" for the caller to judge (buf_len == mark + 1).
 */
static void
html_close_first(struct buf *out, size_t mark)
{
	char *p = buf_data(out);
	size_t len = buf_len(out);

	if (len > mark + 1 && p[mark + 1] == ',') {
		memmove(p + mark + 1, p + mark + 2, len - mark - 2);
		html_rollback(out, len - 1);
	}
}

/* title, description, default, examples of a schema as written */
static int
html_annotations(struct html_desc *d, const struct json_value *src)
{
	static const struct {
		enum kw keyword;
		enum json_type type; /* JSON_T_NULL: any */
	} ann[] = {
	    {KW_TITLE, JSON_T_STRING},
	    {KW_DESCRIPTION, JSON_T_STRING},
	    {KW_DEFAULT, JSON_T_NULL},
	    {KW_EXAMPLES, JSON_T_ARRAY},
	};
	size_t i;

	if (src == NULL || src->type != JSON_T_OBJECT)
		return 0;
	for (i = 0; i < GPT_ARRAY_LEN(ann); i++) {
		const char *name = schema_kw_name(ann[i].keyword);
		const struct json_value *v =
		    json_object_get(src, name, strlen(name));

		if (v == NULL ||
		    (ann[i].type != JSON_T_NULL && v->type != ann[i].type))
			continue;
		if (html_key(d, ann[i].keyword) == -1 ||
		    json_write(v, d->out) == -1)
			return -1;
	}
	return 0;
}

/*
 * "x-defName": the name the form gave this schema, when it is a member of
 * $defs, definitions or components/schemas (a pointer's last segment,
 * unescaped): the page names an alternative or a list's items by it when
 * the form gives no title ("span" rather than "object").
 */
static int
html_def_name(struct html_desc *d, const struct schema_view *v)
{
	static const char *const homes[] = {
	    "/$defs/", "/definitions/", "/components/schemas/"};
	const char *p = v->pointer, *name = NULL;
	size_t len = v->pointer_len, i, k;
	struct buf *out = d->out;

	if (p == NULL || len == 0)
		return 0;
	for (i = 0; i < GPT_ARRAY_LEN(homes) && name == NULL; i++) {
		size_t hl = strlen(homes[i]);

		for (k = 0; k + hl <= len; k++)
			if ((k == 0 || p[k - 1] != '~') &&
			    memcmp(p + k, homes[i], hl) == 0 &&
			    memchr(p + k + hl, '/', len - k - hl) == NULL &&
			    k + hl < len)
				name = p + k + hl;
	}
	if (name == NULL)
		return 0;
	if (buf_puts(out, ",\"x-defName\":\"") == -1)
		return -1;
	for (; name < p + len; name++) {
		char c = *name;

		if (c == '~' && name + 1 < p + len) {
			c = name[1] == '1' ? '/' : '~';
			name++;
		}
		/* a name is JSON text here: escape what JSON needs */
		if ((c == '"' || c == '\\') && buf_putc(out, '\\') == -1)
			return -1;
		if ((unsigned char)c < 0x20
		        ? buf_printf(out, "\\u%04x", c) == -1
		        : buf_putc(out, c) == -1)
			return -1;
	}
	return buf_putc(out, '"');
}

static int
html_types(struct html_desc *d, unsigned types)
{
	static const struct {
		unsigned bit;
		const char *name;
	} names[] = {
	    {SV_TY_OBJECT, "object"},
	    {SV_TY_ARRAY, "array"},
	    {SV_TY_STRING, "string"},
	    {SV_TY_NUMBER, "number"},
	    {SV_TY_INTEGER, "integer"},
	    {SV_TY_BOOLEAN, "boolean"},
	    {SV_TY_NULL, "null"},
	};
	bool first = true;
	size_t i;

	if (html_key(d, KW_TYPE) == -1 || buf_putc(d->out, '[') == -1)
		return -1;
	for (i = 0; i < GPT_ARRAY_LEN(names); i++) {
		if (!(types & names[i].bit))
			continue;
		if (buf_printf(d->out, "%s\"%s\"", first ? "" : ",",
		        names[i].name) == -1)
			return -1;
		first = false;
	}
	return buf_putc(d->out, ']');
}

/*
 * What the page cannot judge, by keyword ("x-opaque"): the script gives
 * that part a JSON editor and its check says "cannot tell" there.
 * *opaque false: the page judges the node.  A constraint the view does
 * not describe is named as such, never dropped.
 */
static int
html_opaque(struct html_desc *d, const struct schema_view *v, bool *opaque)
{
	enum kw names[2];
	size_t i, n = 0;

	*opaque = true;
	if (v->undescribed)
		return buf_puts(d->out,
		    ",\"x-opaque\":[\"a keyword the page does not describe\"]");
	if (v->dyn != SV_DYN_NONE)
		names[n++] = KW_DYNAMICREF;
	else {
		if (v->unevaluated_items != NULL)
			names[n++] = KW_UNEVALITEMS;
		if (v->unevaluated_props != NULL)
			names[n++] = KW_UNEVALPROPS;
	}
	if (n == 0) {
		*opaque = false;
		return 0;
	}
	if (buf_puts(d->out, ",\"x-opaque\":[") == -1)
		return -1;
	for (i = 0; i < n; i++)
		if (buf_printf(d->out, "%s\"%s\"", i > 0 ? "," : "",
		        schema_kw_name(names[i])) == -1)
			return -1;
	return buf_putc(d->out, ']');
}

/* A list of nodes by number: "key":[n,...] (list(n, i) gives entry i). */
static int
html_list(struct html_desc *d, enum kw k, const struct schema_node *n,
    size_t count,
    const struct schema_node *(*list)(const struct schema_node *, size_t))
{
	size_t i, num;

	if (count == 0)
		return 0;
	if (buf_printf(d->out, ",\"%s\":[", schema_kw_name(k)) == -1)
		return -1;
	for (i = 0; i < count; i++)
		if (html_desc_num(d, list(n, i), &num) == -1 ||
		    buf_printf(d->out, "%s%zu", i > 0 ? "," : "", num) == -1)
			return -1;
	return buf_putc(d->out, ']');
}

/* "properties": [[name, node, {annotations}?]...], "required": [names] */
static int
html_properties(struct html_desc *d, const struct schema_node *n,
    const struct schema_view *v)
{
	struct schema_view_prop p;
	struct schema_view sv;
	bool any = false, anyreq = false;
	size_t i, num;

	for (i = 0; i < v->nprops; i++) {
		schema_view_prop(n, i, &p);
		if (p.sub == NULL)
			continue;
		if ((!any && (html_key(d, KW_PROPERTIES) == -1 ||
		                 buf_putc(d->out, '[') == -1)) ||
		    buf_puts(d->out, any ? ",[" : "[") == -1 ||
		    html_json_text(d->out, p.name, p.len) == -1 ||
		    html_desc_num(d, p.sub, &num) == -1 ||
		    buf_printf(d->out, ",%zu", num) == -1)
			return -1;
		any = true;
		schema_view_get(p.sub, &sv);
		/* beside a $ref the member's own title and description speak */
		if (p.src != NULL && p.src != sv.src &&
		    p.src->type == JSON_T_OBJECT) {
			size_t mark = buf_len(d->out);

			if (buf_puts(d->out, ",{") == -1 ||
			    html_annotations(d, p.src) == -1)
				return -1;
			html_close_first(d->out, mark + 1);
			if (buf_len(d->out) == mark + 2)
				html_rollback(d->out, mark);
			else if (buf_putc(d->out, '}') == -1)
				return -1;
		}
		if (buf_putc(d->out, ']') == -1)
			return -1;
	}
	if (any && buf_putc(d->out, ']') == -1)
		return -1;
	for (i = 0; i < v->nprops; i++) {
		schema_view_prop(n, i, &p);
		if (!p.required)
			continue;
		if ((!anyreq && (html_key(d, KW_REQUIRED) == -1 ||
		                    buf_putc(d->out, '[') == -1)) ||
		    (anyreq && buf_putc(d->out, ',') == -1) ||
		    html_json_text(d->out, p.name, p.len) == -1)
			return -1;
		anyreq = true;
	}
	if (anyreq && buf_putc(d->out, ']') == -1)
		return -1;
	return 0;
}

/* patternProperties, dependentRequired, dependentSchemas */
static int
html_object_rules(struct html_desc *d, const struct schema_node *n,
    const struct schema_view *v)
{
	struct schema_view_pprop pp;
	struct schema_view_depreq dr;
	const struct schema_node *sub;
	const char *name;
	size_t i, k, len, num;

	for (i = 0; i < v->npprops; i++) {
		schema_view_pprop(n, i, &pp);
		if ((i == 0 && (html_key(d, KW_PATTERNPROPERTIES) == -1 ||
		                   buf_putc(d->out, '[') == -1)) ||
		    buf_puts(d->out, i > 0 ? ",[" : "[") == -1 ||
		    html_json_text(d->out, pp.pattern, pp.len) == -1 ||
		    html_desc_num(d, pp.sub, &num) == -1 ||
		    buf_printf(d->out, ",%zu]", num) == -1)
			return -1;
	}
	if (v->npprops > 0 && buf_putc(d->out, ']') == -1)
		return -1;
	for (i = 0; i < v->ndepreq; i++) {
		schema_view_depreq(n, i, &dr);
		if ((i == 0 && (html_key(d, KW_DEPENDENTREQUIRED) == -1 ||
		                   buf_putc(d->out, '[') == -1)) ||
		    buf_puts(d->out, i > 0 ? ",[" : "[") == -1 ||
		    html_json_text(d->out, dr.name, dr.len) == -1 ||
		    buf_puts(d->out, ",[") == -1)
			return -1;
		for (k = 0; k < dr.nneed; k++) {
			schema_view_depreq_need(n, i, k, &name, &len);
			if ((k > 0 && buf_putc(d->out, ',') == -1) ||
			    html_json_text(d->out, name, len) == -1)
				return -1;
		}
		if (buf_puts(d->out, "]]") == -1)
			return -1;
	}
	if (v->ndepreq > 0 && buf_putc(d->out, ']') == -1)
		return -1;
	for (i = 0; i < v->ndepsch; i++) {
		sub = schema_view_depsch(n, i, &name, &len);
		if ((i == 0 && (html_key(d, KW_DEPENDENTSCHEMAS) == -1 ||
		                   buf_putc(d->out, '[') == -1)) ||
		    buf_puts(d->out, i > 0 ? ",[" : "[") == -1 ||
		    html_json_text(d->out, name, len) == -1 ||
		    html_desc_num(d, sub, &num) == -1 ||
		    buf_printf(d->out, ",%zu]", num) == -1)
			return -1;
	}
	if (v->ndepsch > 0 && buf_putc(d->out, ']') == -1)
		return -1;
	return 0;
}

/* A string's content: contentEncoding, contentMediaType, contentSchema. */
static int
html_content(struct html_desc *d, const struct schema_view *v)
{
	if (v->content_encoding != NULL &&
	    (html_key(d, KW_CONTENTENCODING) == -1 ||
	        html_json_text(d->out, v->content_encoding,
	            strlen(v->content_encoding)) == -1))
		return -1;
	if (v->content_json &&
	    (html_key(d, KW_CONTENTMEDIATYPE) == -1 ||
	        buf_puts(d->out, "\"application/json\"") == -1))
		return -1;
	if (v->content_schema != NULL &&
	    html_ref(d, KW_CONTENTSCHEMA, v->content_schema) == -1)
		return -1;
	return 0;
}

static int
html_node_end(struct html_desc *d, size_t mark)
{
	html_close_first(d->out, mark);
	return buf_putc(d->out, '}');
}

/* One node's description: true, false, or {"keyword": ..., ...}. */
static int
html_node(struct html_desc *d, const struct schema_node *n)
{
	struct schema_view v;
	const char *format;
	bool opaque;
	size_t i, mark;

	schema_view_get(n, &v);
	if (v.kind == SV_FALSE)
		return buf_puts(d->out, "false");
	mark = buf_len(d->out);
	if (buf_putc(d->out, '{') == -1 || html_annotations(d, v.src) == -1 ||
	    html_def_name(d, &v) == -1)
		return -1;
	if (v.kind == SV_TRUE && buf_len(d->out) == mark + 1) {
		html_rollback(d->out, mark);
		return buf_puts(d->out, "true");
	}
	if (v.kind == SV_TRUE)
		return html_node_end(d, mark);
	if (html_opaque(d, &v, &opaque) == -1)
		return -1;
	if (opaque)
		return html_node_end(d, mark);
	if (v.typed && html_types(d, v.types) == -1)
		return -1;
	/* the page's own key: an integer is judged by its text, as draft-04
	 * says */
	if (v.integer_text && buf_puts(d->out, ",\"x-integerText\":true") == -1)
		return -1;
	if (v.const_value != NULL &&
	    (html_key(d, KW_CONST) == -1 ||
	        json_write(v.const_value, d->out) == -1))
		return -1;
	if (v.nenums > 0) {
		if (html_key(d, KW_ENUM) == -1 || buf_putc(d->out, '[') == -1)
			return -1;
		for (i = 0; i < v.nenums; i++)
			if ((i > 0 && buf_putc(d->out, ',') == -1) ||
			    json_write(schema_view_enum(n, i), d->out) == -1)
				return -1;
		if (buf_putc(d->out, ']') == -1)
			return -1;
	}
	if (html_num(d, KW_MINIMUM, &v.minimum) == -1 ||
	    html_num(d, KW_MAXIMUM, &v.maximum) == -1 ||
	    html_num(d, KW_EXCLUSIVEMINIMUM, &v.xminimum) == -1 ||
	    html_num(d, KW_EXCLUSIVEMAXIMUM, &v.xmaximum) == -1 ||
	    html_num(d, KW_MULTIPLEOF, &v.multiple_of) == -1 ||
	    html_size(d, KW_MINLENGTH, v.min_length, 0) == -1 ||
	    html_size(d, KW_MAXLENGTH, v.max_length, SIZE_MAX) == -1)
		return -1;
	if (v.pattern != NULL &&
	    (html_key(d, KW_PATTERN) == -1 ||
	        html_json_text(d->out, v.pattern, v.pattern_len) == -1))
		return -1;
	/* one format keyword: the compiler tells a string's from a number's */
	format = v.format != NULL ? v.format : v.nformat;
	if (format != NULL &&
	    (html_key(d, KW_FORMAT) == -1 ||
	        html_json_text(d->out, format, strlen(format)) == -1))
		return -1;
	if (html_content(d, &v) == -1)
		return -1;
	if (html_size(d, KW_MINITEMS, v.min_items, 0) == -1 ||
	    html_size(d, KW_MAXITEMS, v.max_items, SIZE_MAX) == -1 ||
	    html_list(d, KW_PREFIXITEMS, n, v.nprefix, schema_view_prefix) ==
	        -1 ||
	    (v.items != NULL && html_ref(d, KW_ITEMS, v.items) == -1) ||
	    (v.contains != NULL &&
	        html_ref(d, KW_CONTAINS, v.contains) == -1) ||
	    (v.contains != NULL &&
	        html_size(d, KW_MINCONTAINS, v.min_contains, 1) == -1) ||
	    (v.contains != NULL &&
	        html_size(d, KW_MAXCONTAINS, v.max_contains, SIZE_MAX) == -1) ||
	    (v.unique_items && (html_key(d, KW_UNIQUEITEMS) == -1 ||
	                           buf_puts(d->out, "true") == -1)))
		return -1;
	if (html_properties(d, n, &v) == -1 ||
	    html_object_rules(d, n, &v) == -1 ||
	    (v.additional != NULL &&
	        html_ref(d, KW_ADDITIONALPROPERTIES, v.additional) == -1) ||
	    (v.names != NULL && html_ref(d, KW_PROPERTYNAMES, v.names) == -1) ||
	    html_size(d, KW_MINPROPERTIES, v.min_props, 0) == -1 ||
	    html_size(d, KW_MAXPROPERTIES, v.max_props, SIZE_MAX) == -1)
		return -1;
	if ((v.ref != NULL && html_ref(d, KW_REF, v.ref) == -1) ||
	    html_list(d, KW_ALLOF, n, v.nall_of, schema_view_all_of) == -1 ||
	    html_list(d, KW_ANYOF, n, v.nany_of, schema_view_any_of) == -1 ||
	    html_list(d, KW_ONEOF, n, v.none_of, schema_view_one_of) == -1 ||
	    (v.not_ != NULL && html_ref(d, KW_NOT, v.not_) == -1) ||
	    (v.if_ != NULL && html_ref(d, KW_IF, v.if_) == -1) ||
	    (v.then_ != NULL && html_ref(d, KW_THEN, v.then_) == -1) ||
	    (v.else_ != NULL && html_ref(d, KW_ELSE, v.else_) == -1))
		return -1;
	return html_node_end(d, mark);
}

/*
 * The keywords a node's description may carry, each under the name the
 * registry gives it.  The description lists them with the form of their
 * value ("keywords": {name: kind}), so that the script reads node numbers
 * and counts by that table and spells no keyword list of its own.
 */
static const enum kw html_described[] = {
    KW_TITLE,
    KW_DESCRIPTION,
    KW_DEFAULT,
    KW_EXAMPLES,
    KW_TYPE,
    KW_CONST,
    KW_ENUM,
    KW_MINIMUM,
    KW_MAXIMUM,
    KW_EXCLUSIVEMINIMUM,
    KW_EXCLUSIVEMAXIMUM,
    KW_MULTIPLEOF,
    KW_MINLENGTH,
    KW_MAXLENGTH,
    KW_PATTERN,
    KW_FORMAT,
    KW_CONTENTENCODING,
    KW_CONTENTMEDIATYPE,
    KW_CONTENTSCHEMA,
    KW_MINITEMS,
    KW_MAXITEMS,
    KW_PREFIXITEMS,
    KW_ITEMS,
    KW_CONTAINS,
    KW_MINCONTAINS,
    KW_MAXCONTAINS,
    KW_UNIQUEITEMS,
    KW_PROPERTIES,
    KW_REQUIRED,
    KW_PATTERNPROPERTIES,
    KW_ADDITIONALPROPERTIES,
    KW_PROPERTYNAMES,
    KW_MINPROPERTIES,
    KW_MAXPROPERTIES,
    KW_DEPENDENTREQUIRED,
    KW_DEPENDENTSCHEMAS,
    KW_REF,
    KW_ALLOF,
    KW_ANYOF,
    KW_ONEOF,
    KW_NOT,
    KW_IF,
    KW_THEN,
    KW_ELSE,
};

/* The form of k's value in the description, from the registry's row:
 * a node number, a list of them, [name, node] pairs, a count, a number's
 * text as written, or a JSON value. */
static const char *
html_kind(enum kw k)
{
	const struct schema_kw_info *info = schema_kw_info(k);

	/* a reference's value is a URI; the description gives the node it
	 * resolves to */
	if (info->value == SCHEMA_KV_URI_REF)
		return "node";
	switch (info->shape) {
	case SCHEMA_KS_ONE:
		return "node";
	case SCHEMA_KS_LIST:
		return "nodes";
	case SCHEMA_KS_MAP:
		return "pairs";
	default:
		break;
	}
	switch (info->value) {
	case SCHEMA_KV_COUNT:
		return "count";
	case SCHEMA_KV_NUMBER:
	case SCHEMA_KV_POSITIVE:
		return "number";
	default:
		return "value";
	}
}

static int
html_keywords(struct buf *out)
{
	size_t i;

	if (buf_puts(out, ",\"keywords\":{") == -1)
		return -1;
	for (i = 0; i < GPT_ARRAY_LEN(html_described); i++)
		if (buf_printf(out, "%s\"%s\":\"%s\"", i > 0 ? "," : "",
		        schema_kw_name(html_described[i]),
		        html_kind(html_described[i])) == -1)
			return -1;
	return buf_putc(out, '}');
}

/*
 * The whole description, {"root":0, "jsonDepth", "schemaDepth",
 * "maxBody"?, "type"?, "keys"?, "etag"?, "name"?, "keywords":{...},
 * "nodes":[...]}
 * (jsonDepth:
 * JSON_MAX_DEPTH, schemaDepth: SCHEMA_MAX_DEPTH), raw JSON in out (the
 * caller escapes it for the data block).
 */
static int
html_describe(
    const struct schema *form, const struct html_opts *o, struct buf *out)
{
	static const struct html_opts none;
	struct html_desc d;
	size_t i, num;
	int rc = -1;

	memset(&d, 0, sizeof(d));
	d.out = out;
	if (o == NULL)
		o = &none;
	/* the nesting the act parser reads and the validator's depth: the
	 * page offers controls as deep as the address reads acts */
	if (buf_printf(out, "{\"root\":0,\"jsonDepth\":%d,\"schemaDepth\":%d",
	        JSON_MAX_DEPTH, SCHEMA_MAX_DEPTH) == -1)
		goto done;
	if (o->max_body > 0 &&
	    buf_printf(out, ",\"maxBody\":%zu", o->max_body) == -1)
		goto done;
	if (o->type != NULL && o->type[0] != '\0' &&
	    (buf_puts(out, ",\"type\":") == -1 ||
	        html_json_text(out, o->type, strlen(o->type)) == -1))
		goto done;
	if (o->keys && buf_puts(out, ",\"keys\":true") == -1)
		goto done;
	if (o->etag != NULL &&
	    (buf_puts(out, ",\"etag\":") == -1 ||
	        html_json_text(out, o->etag, strlen(o->etag)) == -1))
		goto done;
	if (o->name != NULL && o->name[0] != '\0' &&
	    (buf_puts(out, ",\"name\":") == -1 ||
	        html_json_text(out, o->name, strlen(o->name)) == -1))
		goto done;
	if (html_keywords(out) == -1 || buf_puts(out, ",\"nodes\":[") == -1)
		goto done;
	if (form == NULL) {
		if (buf_puts(out, "true") == -1)
			goto done;
	} else {
		if (html_desc_init(&d, form) == -1 ||
		    html_desc_num(&d, schema_view_root(form), &num) == -1)
			goto done;
		/* html_node numbers the nodes it names: d.count grows */
		for (i = 0; i < d.count; i++)
			if ((i > 0 && buf_putc(out, ',') == -1) ||
			    html_node(&d, d.nodes[i]) == -1)
				goto done;
	}
	rc = buf_puts(out, "]}");
done:
	free(d.nodes);
	free(d.num_of);
	return rc;
}

/* --- the page ----------------------------------------------------------- */

static const char html_head[] =
    "<!DOCTYPE html>\n"
    "<html lang=\"en\">\n"
    "<head>\n"
    "<meta charset=\"utf-8\">\n"
    "<meta name=\"viewport\" content=\"width=device-width, "
    "initial-scale=1\">\n"
    "<meta name=\"referrer\" content=\"no-referrer\">\n"
    "<meta name=\"color-scheme\" content=\"light dark\">\n"
    "<title>";

static const char html_act[] =
    "<section aria-labelledby=\"h-act\">\n"
    "<h2 id=\"h-act\">Act</h2>\n"
    "<noscript><p class=\"note\">Reading this page needs no JavaScript; "
    "composing and sending an act from it does.  Any HTTP client can "
    "POST the act, a JSON value that conforms to the form below, with "
    "Content-Type: application/json.</p></noscript>\n"
    "<form id=\"act\" hidden novalidate>\n"
    "<div id=\"controls\"></div>\n"
    "<div class=\"field\">\n"
    "<label for=\"body\">The act as JSON: exactly the bytes that will be "
    "sent</label>\n"
    "<textarea id=\"body\" name=\"body\" spellcheck=\"false\" "
    "autocomplete=\"off\" autocapitalize=\"off\" "
    "aria-describedby=\"body-help body-error\"></textarea>\n"
    "<p class=\"help\" id=\"body-help\">Edit the controls above or this "
    "text: each follows the other.</p>\n"
    "<p class=\"error\" id=\"body-error\" aria-live=\"polite\"></p>\n"
    "</div>\n"
    "<div id=\"problems\" role=\"alert\"></div>\n"
    "<button type=\"submit\" class=\"primary\">Submit</button>"
    "<button type=\"button\" id=\"anyway\" hidden>Send anyway</button>\n"
    "</form>\n"
    "<div id=\"result\" hidden>\n"
    "<p>Status: <output id=\"status\" role=\"status\" "
    "aria-live=\"polite\"></output></p>\n"
    "<p id=\"meaning\"></p>\n"
    "<progress id=\"progress\" max=\"1\" aria-label=\"The task's progress\" "
    "hidden></progress>\n"
    "<pre id=\"response\" hidden></pre>\n"
    "<iframe id=\"preview\" title=\"The answer's HTML, previewed\" "
    "sandbox hidden></iframe>\n"
    "<button type=\"button\" id=\"again\" hidden>Send another</button>\n"
    "<button type=\"button\" id=\"retry\" hidden>Send it again, safely"
    "</button>\n"
    "<button type=\"button\" id=\"cancel\" hidden>Cancel the task"
    "</button>\n"
    "</div>\n"
    "</section>\n";

static const char html_foot[] =
    "<p class=\"note\">This page is for people.  A GET of this address "
    "without text/html in its Accept header returns the JSON document "
    "{p, m, s}; an act is a POST of a JSON body with Content-Type: "
    "application/json.  A rejected act is answered 204, with no body "
    "(422 with the reason where the address explains failures).</p>\n"
    "</main>\n";

static const struct json_value *
html_get(const struct json_value *obj, const char *key)
{
	if (obj == NULL || obj->type != JSON_T_OBJECT)
		return NULL;
	return json_object_get(obj, key, strlen(key));
}

static int
html_messages(const struct json_value *m, struct buf *out)
{
	size_t i;

	if (m == NULL || m->type != JSON_T_ARRAY || m->u.arr.count == 0)
		return 0;
	if (buf_puts(out,
	        "<section aria-labelledby=\"h-m\">\n"
	        "<h2 id=\"h-m\">Messages</h2>\n<ol class=\"m\">\n") == -1)
		return -1;
	for (i = 0; i < m->u.arr.count; i++) {
		const struct json_value *e = &m->u.arr.items[i];
		const struct json_value *role = html_get(e, "role");
		const struct json_value *content = html_get(e, "content");

		if (buf_puts(out, "<li>") == -1)
			return -1;
		if (role != NULL && role->type == JSON_T_STRING &&
		    (buf_puts(out, "<div class=\"role\">") == -1 ||
		        html_escape(role->u.str.ptr, role->u.str.len, out) ==
		            -1 ||
		        buf_puts(out, "</div>") == -1))
			return -1;
		if (content != NULL && content->type == JSON_T_STRING &&
		    (buf_puts(out, "<div class=\"content\">") == -1 ||
		        html_escape(content->u.str.ptr, content->u.str.len,
		            out) == -1 ||
		        buf_puts(out, "</div>") == -1))
			return -1;
		if (buf_puts(out, "</li>\n") == -1)
			return -1;
	}
	return buf_puts(out, "</ol>\n</section>\n");
}

/* The heading: the form's title, else the address's name, else its type. */
static void
html_heading(const struct schema *form, const struct html_opts *o,
    const char **text, size_t *len)
{
	struct schema_view v;
	const struct json_value *t;

	/* only a page built without its address (a test's) has no name */
	*text = "An address";
	*len = strlen(*text);
	if (form != NULL) {
		schema_view_get(schema_view_root(form), &v);
		t = html_get(v.src, schema_kw_name(KW_TITLE));
		if (t != NULL && t->type == JSON_T_STRING && t->u.str.len > 0) {
			*text = t->u.str.ptr;
			*len = t->u.str.len;
			return;
		}
	}
	if (o != NULL && o->name != NULL && o->name[0] != '\0') {
		*text = o->name;
		*len = strlen(o->name);
	} else if (o != NULL && o->type != NULL && o->type[0] != '\0') {
		*text = o->type;
		*len = strlen(o->type);
	}
}

/* May the page make href a hyperlink: a relative reference, or http(s)
 * (a javascript: or data: URI is shown as text, never followed)? */
static bool
html_href_safe(const char *h, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		if (h[i] == '/' || h[i] == '?' || h[i] == '#')
			return true;
		if (h[i] == ':')
			return (i == 4 && strncasecmp(h, "http", 4) == 0) ||
			       (i == 5 && strncasecmp(h, "https", 5) == 0);
	}
	return true;
}

/* The form's links as navigation: what this address names, by rel. */
static int
html_links(const struct json_value *links, struct buf *out)
{
	size_t i;

	if (links == NULL || links->type != JSON_T_ARRAY ||
	    links->u.arr.count == 0)
		return 0;
	if (buf_puts(out, "<nav aria-label=\"Links\"><ul class=\"links\">\n") ==
	    -1)
		return -1;
	/* bounded: the form's links are at most 64 (links.h) */
	for (i = 0; i < links->u.arr.count; i++) {
		const struct json_value *k = &links->u.arr.items[i];
		const struct json_value *rel = html_get(k, "rel");
		const struct json_value *href = html_get(k, "href");
		/* a link member, RFC 8288's target attribute */
		const struct json_value *title =
		    html_get(k, "title"); /* not-a-keyword */
		const struct json_value *text;
		bool a;

		if (rel == NULL || rel->type != JSON_T_STRING || href == NULL ||
		    href->type != JSON_T_STRING)
			continue;
		text = title != NULL && title->type == JSON_T_STRING &&
		               title->u.str.len > 0
		           ? title
		           : href;
		a = html_href_safe(href->u.str.ptr, href->u.str.len);
		if (buf_puts(out, "<li>") == -1 ||
		    (a && (buf_puts(out, "<a href=\"") == -1 ||
		              html_escape(href->u.str.ptr, href->u.str.len,
		                  out) == -1 ||
		              buf_puts(out, "\">") == -1)) ||
		    html_escape(text->u.str.ptr, text->u.str.len, out) == -1 ||
		    buf_puts(out, a ? "</a>" : "") == -1 ||
		    buf_puts(out, " <span class=\"help\">") == -1 ||
		    html_escape(rel->u.str.ptr, rel->u.str.len, out) == -1 ||
		    buf_puts(out, "</span></li>\n") == -1)
			return -1;
	}
	return buf_puts(out, "</ul></nav>\n");
}

/* The answer's form (a), beside the act: what an accepted act returns. */
/* A schema of the document as a section: its heading, and its text
 * behind a disclosure (the form s, or the answer's a). */
static int
html_schema_section(const char *id, const char *heading, const char *summary,
    const struct json_value *schema, struct buf *scratch, struct buf *out)
{
	buf_reset(scratch);
	return buf_printf(out,
	           "<section aria-labelledby=\"%s\">\n<h2 id=\"%s\">%s</h2>\n"
	           "<details><summary>%s</summary>\n<pre class=\"s\">",
	           id, id, heading, summary) == -1 ||
	               json_write_pretty(schema, 2, scratch) == -1 ||
	               html_escape(buf_ptr(scratch), buf_len(scratch), out) ==
	                   -1 ||
	               buf_puts(out, "</pre></details>\n</section>\n") == -1
	           ? -1
	           : 0;
}

/* A description as an inert data block, element id. */
static int
html_data_block(const char *id, const struct schema *form,
    const struct html_opts *o, struct buf *scratch, struct buf *out)
{
	buf_reset(scratch);
	return html_describe(form, o, scratch) == -1 ||
	               buf_printf(out,
	                   "<script type=\"application/json\" id=\"%s\">",
	                   id) == -1 ||
	               html_json_script(
	                   buf_ptr(scratch), buf_len(scratch), out) == -1 ||
	               buf_puts(out, "</script>\n") == -1
	           ? -1
	           : 0;
}

int
html_page(const struct json_value *doc, const struct schema *form,
    const struct html_opts *o, struct buf *out)
{
	const struct json_value *p = html_get(doc, "p");
	const struct json_value *s = html_get(doc, "s");
	const struct json_value *m = html_get(doc, "m");
	const char *head;
	size_t headlen, start = buf_len(out);
	struct buf scratch;
	int rc = -1;

	buf_init(&scratch, HTML_SCRATCH_MAX);
	html_heading(form, o, &head, &headlen);
	if (buf_puts(out, html_head) == -1 ||
	    html_escape_prefix(head, headlen, HTML_TITLE_MAX, out) == -1 ||
	    buf_puts(out, "</title>\n<style>") == -1 ||
	    buf_append(out, html_page_css, html_page_css_len) == -1 ||
	    buf_puts(out, "</style>\n</head>\n<body>\n<main>\n<h1>") == -1 ||
	    html_escape(head, headlen, out) == -1 ||
	    buf_puts(out, "</h1>\n") == -1)
		goto done;
	if (p != NULL && p->type == JSON_T_STRING && p->u.str.len > 0 &&
	    (buf_puts(out, "<p class=\"p\">") == -1 ||
	        html_escape(p->u.str.ptr, p->u.str.len, out) == -1 ||
	        buf_puts(out, "</p>\n") == -1))
		goto done;
	if (html_links(html_get(doc, "links"), out) == -1 ||
	    html_messages(m, out) == -1 || buf_puts(out, html_act) == -1)
		goto done;
	if (html_get(doc, "a") != NULL &&
	    html_schema_section("h-a", "Answer",
	        "What an accepted act returns, as JSON Schema",
	        html_get(doc, "a"), &scratch, out) == -1)
		goto done;
	if (s != NULL && html_schema_section("h-s", "Form",
	                     "The rules an act must follow, as JSON Schema", s,
	                     &scratch, out) == -1)
		goto done;
	buf_reset(&scratch);
	if (buf_puts(out, html_foot) == -1 ||
	    html_data_block("gpt-form", form, o, &scratch, out) == -1 ||
	    (o != NULL && o->answer != NULL &&
	        html_data_block("gpt-answer", o->answer, o, &scratch, out) ==
	            -1) ||
	    buf_puts(out, "<script>") == -1 ||
	    buf_append(out, html_page_js, html_page_js_len) == -1 ||
	    buf_puts(out, "</script>\n</body>\n</html>\n") == -1)
		goto done;
	rc = 0;
done:
	if (rc == -1)
		html_rollback(out, start);
	buf_free(&scratch);
	return rc;
}

const char *
html_csp(void)
{
	static char csp[256];
	char js[SHA256_B64_SIZE], css[SHA256_B64_SIZE];

	if (csp[0] != '\0')
		return csp;
	sha256_base64(html_page_js, html_page_js_len, js);
	sha256_base64(html_page_css, html_page_css_len, css);
	/* CSP Level 3: a hash-source names the exact text of an inline
	 * <script> or <style> element; the JSON block is data, never run. */
	snprintf(csp, sizeof(csp),
	    "default-src 'none'; script-src 'sha256-%s'; "
	    "style-src 'sha256-%s'; connect-src 'self'; form-action 'self'; "
	    "base-uri 'none'; frame-ancestors 'none'",
	    js, css);
	return csp;
}
