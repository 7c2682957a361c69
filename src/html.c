/*
 * html.c: the human page (see html.h).
 *
 * Owns nothing past a call: the page is appended to the caller's buffer;
 * the scratch (a second buffer, and per object of the skeleton its
 * `required` names sorted) is freed before returning.
 *
 * Limits: the act skeleton descends at most HTML_SKELETON_DEPTH schema
 * levels, writes at most HTML_SKELETON_NODES values in full and resolves
 * at most HTML_SKELETON_REF_BYTES of $ref text in all, so a recursive,
 * wildly branching or long-referenced form still gives a small page, in
 * time linear in the form (`required` and `properties` are matched by
 * binary search, not by scanning); the <title> shows at most
 * HTML_TITLE_MAX code points of p.
 *
 * Refuses nothing: the document was checked when the form was loaded; a
 * member of an unexpected shape (an `m` entry without `content`) is left
 * out of the page.  What the page shows is escaped here and nowhere else:
 * every byte taken from the document goes through html_escape(), and no
 * document byte is written inside <script> or <style>.
 */
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "html.h"
#include "jptr.h"
#include "json.h"
#include "utf8.h"

/* Values the skeleton writes before it writes only the emptiest ones. */
#define HTML_SKELETON_NODES 2000
/* The page is small; the scratch buffers never need more than this. */
#define HTML_SCRATCH_MAX ((size_t)16 * 1024 * 1024)

#ifdef GPT_TEST
size_t html_test_name_compares;
size_t html_test_ref_bytes;
#define HTML_COUNT(counter, n) ((counter) += (n))
#else
#define HTML_COUNT(counter, n) ((void)0)
#endif

/* U+FFFD REPLACEMENT CHARACTER, written for what HTML text cannot carry. */
static const char html_fffd[] = "\xEF\xBF\xBD";

/* Put out back to len bytes: undoes a partly written page. */
static void
html_rollback(struct buf *out, size_t len)
{
	if (out->data != NULL) {
		out->len = len;
		out->data[len] = '\0';
	}
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
	size_t start = out->len;
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

/* --- the act skeleton ------------------------------------------------- */

enum html_kind {
	HTML_K_NULL,
	HTML_K_OBJECT,
	HTML_K_ARRAY,
	HTML_K_STRING,
	HTML_K_NUMBER,
	HTML_K_INTEGER,
	HTML_K_BOOLEAN,
	HTML_K_NONE, /* the schema names no type and implies none */
};

struct html_skel {
	const struct json_value *root; /* borrowed: the form, for $ref */
	struct buf *out;	       /* borrowed */
	unsigned nodes;		       /* values still to write in full */
	size_t ref_bytes;	       /* $ref text still to resolve */
};

/*
 * The schema that $ref value v names within the form, or NULL: v is not a
 * string, names nothing, or the page's budget of $ref text is spent (then
 * for good, so the skeleton does not depend on which refs are short).
 * Every member's starting value may look through HTML_SKELETON_DEPTH refs:
 * without the budget, 50,000 required members sharing a chain of 8 KB
 * references read 5e9 bytes of pointers (5 s at load).
 */
static const struct json_value *
html_ref(struct html_skel *k, const struct json_value *v)
{
	size_t cost;

	if (v == NULL || v->type != JSON_T_STRING)
		return NULL;
	/* "" costs something too: every hop is charged */
	cost = v->u.str.len + 1;
	if (cost > k->ref_bytes) {
		k->ref_bytes = 0;
		return NULL;
	}
	k->ref_bytes -= cost;
	HTML_COUNT(html_test_ref_bytes, cost);
	return jptr_resolve(k->root, v->u.str.ptr, v->u.str.len);
}

static const struct json_value *
html_get(const struct json_value *obj, const char *key)
{
	return json_object_get(obj, key, strlen(key));
}

static bool
html_str_is(const struct json_string *s, const char *lit)
{
	size_t n = strlen(lit);

	return s->len == n && memcmp(s->ptr, lit, n) == 0;
}

static enum html_kind
html_kind_of_name(const struct json_string *name)
{
	static const struct {
		const char *name;
		enum html_kind kind;
	} names[] = {
		{"object", HTML_K_OBJECT},
		{"array", HTML_K_ARRAY},
		{"string", HTML_K_STRING},
		{"number", HTML_K_NUMBER},
		{"integer", HTML_K_INTEGER},
		{"boolean", HTML_K_BOOLEAN},
		{"null", HTML_K_NULL},
	};
	size_t i;

	for (i = 0; i < GPT_ARRAY_LEN(names); i++)
		if (html_str_is(name, names[i].name))
			return names[i].kind;
	return HTML_K_NONE;
}

/*
 * The kind of value schema s describes by itself (no $ref, no
 * alternatives): its `type` (the first non-null name of a list), else the
 * kind its keywords imply ("minLength" implies a string).
 */
static enum html_kind
html_kind_of(const struct json_value *s)
{
	static const struct {
		const char *keyword;
		enum html_kind kind;
	} implied[] = {
		{"properties", HTML_K_OBJECT},
		{"required", HTML_K_OBJECT},
		{"additionalProperties", HTML_K_OBJECT},
		{"patternProperties", HTML_K_OBJECT},
		{"minProperties", HTML_K_OBJECT},
		{"items", HTML_K_ARRAY},
		{"prefixItems", HTML_K_ARRAY},
		{"minItems", HTML_K_ARRAY},
		{"contains", HTML_K_ARRAY},
		{"minLength", HTML_K_STRING},
		{"maxLength", HTML_K_STRING},
		{"pattern", HTML_K_STRING},
		{"format", HTML_K_STRING},
		{"minimum", HTML_K_NUMBER},
		{"maximum", HTML_K_NUMBER},
		{"exclusiveMinimum", HTML_K_NUMBER},
		{"exclusiveMaximum", HTML_K_NUMBER},
		{"multipleOf", HTML_K_NUMBER},
	};
	const struct json_value *t;
	size_t i;

	if (s->type != JSON_T_OBJECT)
		return HTML_K_NULL;
	t = html_get(s, "type");
	if (t != NULL && t->type == JSON_T_STRING)
		return html_kind_of_name(&t->u.str);
	if (t != NULL && t->type == JSON_T_ARRAY && t->u.arr.count > 0) {
		for (i = 0; i < t->u.arr.count; i++) {
			const struct json_value *n = &t->u.arr.items[i];

			if (n->type == JSON_T_STRING &&
			    !html_str_is(&n->u.str, "null"))
				return html_kind_of_name(&n->u.str);
		}
		return HTML_K_NULL;
	}
	for (i = 0; i < GPT_ARRAY_LEN(implied); i++)
		if (html_get(s, implied[i].keyword) != NULL)
			return implied[i].kind;
	return HTML_K_NONE;
}

static int
html_indent(struct buf *out, unsigned level)
{
	unsigned i;

	if (buf_putc(out, '\n') == -1)
		return -1;
	for (i = 0; i < level; i++)
		if (buf_puts(out, "  ") == -1)
			return -1;
	return 0;
}

static int
html_write_key(struct buf *out, const struct json_string *key)
{
	struct json_value v;

	memset(&v, 0, sizeof(v));
	v.type = JSON_T_STRING;
	v.u.str = *key;
	if (json_write(&v, out) == -1)
		return -1;
	return buf_puts(out, ": ");
}

/* The emptiest value of a kind: what the skeleton writes past its bounds. */
static int
html_skel_empty(struct buf *out, enum html_kind kind)
{
	static const char *const empty[] = {
		[HTML_K_NULL] = "null",
		[HTML_K_OBJECT] = "{}",
		[HTML_K_ARRAY] = "[]",
		[HTML_K_STRING] = "\"\"",
		[HTML_K_NUMBER] = "0",
		[HTML_K_INTEGER] = "0",
		[HTML_K_BOOLEAN] = "false",
		[HTML_K_NONE] = "null",
	};

	return buf_puts(out, empty[kind]);
}

/* A number that meets the lower bound, when one is written. */
static int
html_skel_number(struct buf *out, const struct json_value *s)
{
	const struct json_value *b;

	if ((b = html_get(s, "minimum")) != NULL && b->type == JSON_T_NUMBER)
		return buf_append(out, b->u.num.text, b->u.num.len);
	b = html_get(s, "exclusiveMinimum");
	if (b != NULL && b->type == JSON_T_NUMBER && b->u.num.is_small_int &&
	    b->u.num.i < INT64_MAX)
		return buf_printf(out, "%lld", (long long)b->u.num.i + 1);
	/* Only a negative maximum excludes 0, e.g. {"maximum": -5}. */
	if ((b = html_get(s, "maximum")) != NULL && b->type == JSON_T_NUMBER &&
	    b->u.num.len > 0 && b->u.num.text[0] == '-')
		return buf_append(out, b->u.num.text, b->u.num.len);
	b = html_get(s, "exclusiveMaximum");
	if (b != NULL && b->type == JSON_T_NUMBER && b->u.num.is_small_int &&
	    b->u.num.i <= 0 && b->u.num.i > INT64_MIN)
		return buf_printf(out, "%lld", (long long)b->u.num.i - 1);
	return buf_putc(out, '0');
}

static int html_skel_value(struct html_skel *k, const struct json_value *s,
    unsigned depth, unsigned level);

/* --- the names of one `required` ------------------------------------- */

/*
 * An object's `required` strings, sorted once by name (then by place, so
 * the first of equal names comes first): "is this name required?" and
 * "did an earlier entry name it?" then cost a binary search and a flag,
 * where scanning the list for each entry and each property made 60,000
 * names cost 3 to 5 s at load.
 */
struct html_required {
	const struct json_value *items;	  /* borrowed: required's entries */
	const struct json_value **sorted; /* owned: its strings, sorted */
	bool *repeat; /* owned: per entry, an earlier entry has its name */
	size_t n;     /* strings in sorted */
};

static int
html_name_cmp(const struct json_string *a, const struct json_string *b)
{
	size_t n = a->len < b->len ? a->len : b->len;
	int c = n == 0 ? 0 : memcmp(a->ptr, b->ptr, n);

	HTML_COUNT(html_test_name_compares, 1);
	if (c != 0)
		return c;
	return a->len < b->len ? -1 : a->len > b->len;
}

static int
html_entry_cmp(const void *pa, const void *pb)
{
	const struct json_value *a = *(const struct json_value *const *)pa;
	const struct json_value *b = *(const struct json_value *const *)pb;
	int c = html_name_cmp(&a->u.str, &b->u.str);

	if (c != 0)
		return c;
	/* Entries of one array: the address gives their order. */
	return a < b ? -1 : a > b;
}

static void
html_required_free(struct html_required *r)
{
	free(r->sorted);
	free(r->repeat);
}

/* Sort req's strings (req may be NULL).  0, or -1 out of memory. */
static int
html_required_init(struct html_required *r, const struct json_value *req)
{
	size_t count = req != NULL ? req->u.arr.count : 0, i, bytes;

	memset(r, 0, sizeof(*r));
	if (count == 0)
		return 0;
	r->items = req->u.arr.items;
	if (!gpt_mul_size(count, sizeof(*r->sorted), &bytes) ||
	    (r->sorted = malloc(bytes)) == NULL ||
	    (r->repeat = calloc(count, sizeof(*r->repeat))) == NULL) {
		html_required_free(r);
		return -1;
	}
	for (i = 0; i < count; i++)
		if (r->items[i].type == JSON_T_STRING)
			r->sorted[r->n++] = &r->items[i];
	qsort(r->sorted, r->n, sizeof(*r->sorted), html_entry_cmp);
	/* {"required": ["a", "b", "a"]}: the second "a" is written once */
	for (i = 1; i < r->n; i++)
		if (html_name_cmp(&r->sorted[i - 1]->u.str,
			&r->sorted[i]->u.str) == 0)
			r->repeat[r->sorted[i] - r->items] = true;
	return 0;
}

/* Is name one of the required names? */
static bool
html_required_has(const struct html_required *r,
    const struct json_string *name)
{
	size_t lo = 0, hi = r->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = html_name_cmp(name, &r->sorted[mid]->u.str);

		if (c == 0)
			return true;
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return false;
}

static int
html_skel_member(struct html_skel *k, const struct json_string *name,
    const struct json_value *sub, unsigned depth, unsigned level,
    bool *first)
{
	if (!*first && buf_putc(k->out, ',') == -1)
		return -1;
	*first = false;
	if (html_indent(k->out, level + 1) == -1 ||
	    html_write_key(k->out, name) == -1)
		return -1;
	if (sub == NULL)
		return buf_puts(k->out, "null");
	return html_skel_value(k, sub, depth + 1, level + 1);
}

static int
html_skel_object(struct html_skel *k, const struct json_value *s,
    unsigned depth, unsigned level)
{
	const struct json_value *props = html_get(s, "properties");
	const struct json_value *req = html_get(s, "required");
	const struct json_value *extra = html_get(s, "additionalProperties");
	struct html_required names;
	bool first = true;
	size_t i, nreq;
	int rc = -1;

	if (props != NULL && props->type != JSON_T_OBJECT)
		props = NULL;
	if (req != NULL && req->type != JSON_T_ARRAY)
		req = NULL;
	if (extra != NULL && extra->type != JSON_T_OBJECT)
		extra = NULL;
	nreq = req != NULL ? req->u.arr.count : 0;
	if (html_required_init(&names, req) == -1)
		return -1;
	if (buf_putc(k->out, '{') == -1)
		goto done;
	/* Required members first, in the order the form requires them. */
	for (i = 0; i < nreq; i++) {
		const struct json_value *r = &req->u.arr.items[i];
		const struct json_value *sub;

		if (r->type != JSON_T_STRING || names.repeat[i])
			continue;
		sub = props != NULL
		    ? json_object_get(props, r->u.str.ptr, r->u.str.len)
		    : NULL;
		if (sub == NULL)
			sub = extra;
		if (html_skel_member(k, &r->u.str, sub, depth, level, &first) ==
		    -1)
			goto done;
	}
	/*
	 * Then the optional ones, unless the bounds are reached: leaving them
	 * out keeps a recursive form's skeleton short and still acceptable.
	 */
	for (i = 0; props != NULL && i < props->u.obj.count; i++) {
		const struct json_member *m = &props->u.obj.members[i];

		if (depth + 1 >= HTML_SKELETON_DEPTH || k->nodes == 0)
			break;
		if (html_required_has(&names, &m->key))
			continue;
		if (html_skel_member(k, &m->key, &m->value, depth, level,
			&first) == -1)
			goto done;
	}
	if (!first && html_indent(k->out, level) == -1)
		goto done;
	rc = buf_putc(k->out, '}');
done:
	html_required_free(&names);
	return rc;
}

static int
html_skel_array(struct html_skel *k, const struct json_value *s,
    unsigned depth, unsigned level)
{
	const struct json_value *prefix = html_get(s, "prefixItems");
	const struct json_value *items = html_get(s, "items");
	const struct json_value *min = html_get(s, "minItems");
	size_t nprefix = 0, want = 0, i;

	if (prefix != NULL && prefix->type == JSON_T_ARRAY)
		nprefix = prefix->u.arr.count;
	if (min != NULL && min->type == JSON_T_NUMBER &&
	    min->u.num.is_small_int && min->u.num.i > 0)
		want = (size_t)min->u.num.i;
	if (want < nprefix)
		want = nprefix;
	/* {"items": false} forbids items past prefixItems. */
	if (want > nprefix && (items == NULL || items->type != JSON_T_OBJECT))
		want = nprefix;
	if (want > HTML_SKELETON_ITEMS)
		want = HTML_SKELETON_ITEMS;
	if (buf_putc(k->out, '[') == -1)
		return -1;
	for (i = 0; i < want; i++) {
		const struct json_value *sub =
		    i < nprefix ? &prefix->u.arr.items[i] : items;

		if ((i > 0 && buf_putc(k->out, ',') == -1) ||
		    html_indent(k->out, level + 1) == -1 ||
		    html_skel_value(k, sub, depth + 1, level + 1) == -1)
			return -1;
	}
	if (want > 0 && html_indent(k->out, level) == -1)
		return -1;
	return buf_putc(k->out, ']');
}

/* The first alternative of anyOf, oneOf or allOf, or NULL. */
static const struct json_value *
html_first_alternative(const struct json_value *s)
{
	static const char *const keywords[] = {"anyOf", "oneOf", "allOf"};
	size_t i;

	for (i = 0; i < GPT_ARRAY_LEN(keywords); i++) {
		const struct json_value *alt = html_get(s, keywords[i]);

		if (alt != NULL && alt->type == JSON_T_ARRAY &&
		    alt->u.arr.count > 0)
			return &alt->u.arr.items[0];
	}
	return NULL;
}

/*
 * The kind of s, looking through $ref and first alternatives when s names
 * none itself; at most HTML_SKELETON_DEPTH hops, so a cycle of $refs
 * ({"$defs": {"a": {"$ref": "#/$defs/a"}}}) ends as HTML_K_NONE.
 */
static enum html_kind
html_kind_deep(struct html_skel *k, const struct json_value *s)
{
	unsigned hops;

	for (hops = 0; hops < HTML_SKELETON_DEPTH; hops++) {
		const struct json_value *v, *next = NULL;
		enum html_kind kind;

		if (s->type != JSON_T_OBJECT)
			return HTML_K_NULL;
		if ((kind = html_kind_of(s)) != HTML_K_NONE)
			return kind;
		if ((v = html_get(s, "$ref")) != NULL)
			next = html_ref(k, v);
		if (next == NULL)
			next = html_first_alternative(s);
		if (next == NULL)
			return HTML_K_NONE;
		s = next;
	}
	return HTML_K_NONE;
}

/*
 * Write a starting value for schema s.  Recursion is bounded by depth
 * (HTML_SKELETON_DEPTH, counting $ref hops and alternatives too, so
 * {"$ref": "#"} ends) and by the node budget; the form is the operator's,
 * already loaded and checked, never an actor's.
 */
static int
html_skel_value(struct html_skel *k, const struct json_value *s,
    unsigned depth, unsigned level)
{
	const struct json_value *v, *alt;
	enum html_kind kind;

	if (s->type != JSON_T_OBJECT)
		return buf_puts(k->out, "null"); /* true, false */
	/* The form's own words for the value win over its type. */
	if ((v = html_get(s, "const")) != NULL)
		return json_write(v, k->out);
	v = html_get(s, "enum");
	if (v != NULL && v->type == JSON_T_ARRAY && v->u.arr.count > 0)
		return json_write(&v->u.arr.items[0], k->out);
	if ((v = html_get(s, "default")) != NULL)
		return json_write(v, k->out);
	if (depth >= HTML_SKELETON_DEPTH || k->nodes == 0)
		return html_skel_empty(k->out, html_kind_deep(k, s));
	k->nodes--;
	if ((v = html_get(s, "$ref")) != NULL) {
		const struct json_value *target = html_ref(k, v);

		if (target != NULL)
			return html_skel_value(k, target, depth + 1, level);
	}
	kind = html_kind_of(s);
	if (kind == HTML_K_NONE && (alt = html_first_alternative(s)) != NULL)
		return html_skel_value(k, alt, depth + 1, level);
	switch (kind) {
	case HTML_K_OBJECT:
		return html_skel_object(k, s, depth, level);
	case HTML_K_ARRAY:
		return html_skel_array(k, s, depth, level);
	case HTML_K_NUMBER:
	case HTML_K_INTEGER:
		return html_skel_number(k->out, s);
	default:
		return html_skel_empty(k->out, kind);
	}
}

int
html_skeleton(const struct json_value *schema, struct buf *out)
{
	struct html_skel k;
	size_t start = out->len;

	k.root = schema;
	k.out = out;
	k.nodes = HTML_SKELETON_NODES;
	k.ref_bytes = HTML_SKELETON_REF_BYTES;
	if (html_skel_value(&k, schema, 0, 0) == -1) {
		html_rollback(out, start);
		return -1;
	}
	return 0;
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
    "<title>";

static const char html_style[] =
    "</title>\n"
    "<style>\n"
    "body{font:16px/1.5 system-ui,sans-serif;max-width:52rem;"
    "margin:1.5rem auto;padding:0 1rem;color:#1d1d1f;background:#fff}\n"
    "h1{font-size:1.35rem;margin:0 0 1rem}\n"
    "h2{font-size:1.05rem;margin:1.75rem 0 .5rem}\n"
    ".p,.content{white-space:pre-wrap;overflow-wrap:anywhere}\n"
    "ol.m{list-style:none;padding:0;margin:0}\n"
    "ol.m li{border-left:3px solid #c8c8d0;padding:.2rem .8rem;"
    "margin:.6rem 0}\n"
    ".role{font-size:.8rem;font-weight:600;text-transform:uppercase;"
    "letter-spacing:.04em;color:#55556a}\n"
    "textarea,pre{font:13px/1.45 ui-monospace,Menlo,Consolas,monospace;"
    "width:100%;box-sizing:border-box}\n"
    "textarea{min-height:16rem;padding:.6rem;border:1px solid #b8b8c4;"
    "border-radius:4px;tab-size:2}\n"
    "pre{background:#f5f5f7;padding:.7rem;border-radius:4px;overflow:auto;"
    "margin:0}\n"
    "button{font:inherit;padding:.35rem 1.2rem;margin:.5rem .5rem 0 0}\n"
    "#status{font-weight:600}\n"
    "#response:empty{display:none}\n"
    ".note{color:#55556a;font-size:.9rem}\n"
    "</style>\n"
    "</head>\n"
    "<body>\n"
    "<main>\n"
    "<h1>";

/*
 * The whole script: it never contains document bytes, only reads the
 * textarea, and sends it, as typed, to this very URL (CONTRACT "Act:
 * POST": the body must be application/json).
 */
static const char html_script[] =
    "<script>\n"
    "(function () {\n"
    "  var form = document.getElementById(\"act\");\n"
    "  var body = document.getElementById(\"body\");\n"
    "  var status = document.getElementById(\"status\");\n"
    "  var out = document.getElementById(\"response\");\n"
    "  form.addEventListener(\"submit\", function (e) {\n"
    "    e.preventDefault();\n"
    "    status.textContent = \"sending\\u2026\";\n"
    "    out.textContent = \"\";\n"
    "    fetch(location.href, {\n"
    "      method: \"POST\",\n"
    "      headers: {\"Content-Type\": \"application/json\"},\n"
    "      body: body.value,\n"
    "      cache: \"no-store\"\n"
    "    }).then(function (r) {\n"
    "      return r.text().then(function (text) {\n"
    "        status.textContent = r.status === 204 ? \"rejected (204)\"\n"
    "          : (r.status + \" \" + r.statusText).trim();\n"
    "        out.textContent = text;\n"
    "      });\n"
    "    }).catch(function (err) {\n"
    "      status.textContent = \"not sent: \" + err;\n"
    "    });\n"
    "  });\n"
    "})();\n"
    "</script>\n";

static const char html_act_head[] =
    "<section>\n"
    "<h2>Act</h2>\n"
    "<form id=\"act\">\n"
    "<label for=\"body\">The act: a JSON value that conforms to the form "
    "below.</label>\n"
    "<textarea id=\"body\" name=\"body\" spellcheck=\"false\" "
    "autocomplete=\"off\" autocapitalize=\"off\">";

static const char html_act_tail[] =
    "</textarea>\n"
    "<button type=\"submit\">Submit</button>"
    "<button type=\"reset\">Reset</button>\n"
    "</form>\n"
    "<p>Status: <output id=\"status\" for=\"body\"></output></p>\n"
    "<pre id=\"response\" aria-live=\"polite\"></pre>\n"
    "<noscript><p class=\"note\">Submitting from this page needs "
    "JavaScript; any HTTP client can POST the JSON with Content-Type: "
    "application/json.</p></noscript>\n"
    "</section>\n";

static const char html_foot[] =
    "<p class=\"note\">This page is for people.  A GET of this address "
    "without text/html in its Accept header returns the JSON document "
    "{p, m, s}; an act is a POST of a JSON body with Content-Type: "
    "application/json.  A rejected act is answered 204, with no body "
    "(422 with the reason where the address explains failures).</p>\n"
    "</main>\n";

static int
html_messages(const struct json_value *m, struct buf *out)
{
	size_t i;

	if (m == NULL || m->type != JSON_T_ARRAY || m->u.arr.count == 0)
		return 0;
	if (buf_puts(out, "<section>\n<h2>Messages</h2>\n<ol class=\"m\">\n") ==
	    -1)
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

/* Write text (trusted JSON we serialized) escaped, from scratch. */
static int
html_put_scratch(struct buf *scratch, struct buf *out)
{
	return html_escape(scratch->data != NULL ? scratch->data : "",
	    scratch->len, out);
}

int
html_page(const struct json_value *doc, struct buf *out)
{
	const struct json_value *p = html_get(doc, "p");
	const struct json_value *s = html_get(doc, "s");
	const struct json_value *m = html_get(doc, "m");
	const char *ptext = "";
	size_t plen = 0, start = out->len;
	struct buf scratch;
	int rc = -1;

	buf_init(&scratch, HTML_SCRATCH_MAX);
	if (p != NULL && p->type == JSON_T_STRING) {
		ptext = p->u.str.ptr;
		plen = p->u.str.len;
	}
	if (buf_puts(out, html_head) == -1)
		goto done;
	if (plen == 0 ? buf_puts(out, "GPT address") == -1
		      : html_escape_prefix(ptext, plen, HTML_TITLE_MAX, out) ==
		    -1)
		goto done;
	if (buf_puts(out, html_style) == -1 ||
	    buf_puts(out, "GPT address</h1>\n") == -1)
		goto done;
	if (plen > 0 && (buf_puts(out, "<p class=\"p\">") == -1 ||
			    html_escape(ptext, plen, out) == -1 ||
			    buf_puts(out, "</p>\n") == -1))
		goto done;
	if (html_messages(m, out) == -1)
		goto done;
	if (buf_puts(out, html_act_head) == -1)
		goto done;
	if (s != NULL && (html_skeleton(s, &scratch) == -1 ||
			     html_put_scratch(&scratch, out) == -1))
		goto done;
	if (buf_puts(out, html_act_tail) == -1)
		goto done;
	if (s != NULL) {
		buf_reset(&scratch);
		if (buf_puts(out, "<section>\n<h2>Form</h2>\n<pre class=\"s\">") ==
			-1 ||
		    json_write_pretty(s, 2, &scratch) == -1 ||
		    html_put_scratch(&scratch, out) == -1 ||
		    buf_puts(out, "</pre>\n</section>\n") == -1)
			goto done;
	}
	if (buf_puts(out, html_foot) == -1 ||
	    buf_puts(out, html_script) == -1 ||
	    buf_puts(out, "</body>\n</html>\n") == -1)
		goto done;
	rc = 0;
done:
	if (rc == -1)
		html_rollback(out, start);
	buf_free(&scratch);
	return rc;
}
