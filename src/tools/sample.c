/*
 * sample.c: the value generator (sample.h).
 *
 * A candidate is written as JSON text, top down.  At each schema the
 * generator first gathers the schemas that apply in place (the node,
 * its $ref target, its allOf branches, one anyOf and one oneOf branch,
 * then/else) into a list of parts, then makes one value that tries to
 * satisfy all of them: the types they share, the tightest bounds, the
 * members of every part.  What it cannot see (not, if, undescribed
 * nodes) it leaves to the validator: sample_next keeps a candidate only
 * when schema_validate accepts it.  Strings for a pattern come from
 * sample_re.c, which walks the pattern's syntax tree.
 *
 * Variety without chance: each node counts its visits; the count picks
 * the anyOf/oneOf branch and the enum value in turn, and whether each
 * optional member is present (alternately), so a handful of values
 * already covers every branch and member.  The rest (lengths, numbers,
 * letters) comes from a seeded splitmix64.
 *
 * Bounds: SAMPLE_MAX_DEPTH nested values, SAMPLE_PARTS parts per value,
 * SAMPLE_STEPS generator steps per candidate, SAMPLE_MAX_STRING code
 * points per string; every buffer has its cap.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "base/buf.h"
#include "base/num.h"
#include "parser/json.h"
#include "parser/json_out.h"
#include "tools/sample.h"
#include "schema/format.h"
#include "tools/sample_re.h"
#include "schema/schema.h"
#include "schema/schema_dialect.h"
#include "schema/schema_facts.h"
#include "schema/schema_view.h"
#include "base/utf8.h"

#define SAMPLE_PARTS 32
#define SAMPLE_EXP_MAX 100000 /* |exponent| of a multipleOf sampled */
#define SAMPLE_STEPS 200000
#define SAMPLE_MEMBERS 1024 /* members one generated object names */
#define SAMPLE_TEXT_MAX ((size_t)1 << 20) /* bytes of one candidate */

struct sample_gen {
	const struct schema *form;
	uint64_t rng;
	struct arena scratch; /* parsed candidates; reset per try */
	uint64_t *visits;     /* by node id (schema_view_id), malloc'd */
	size_t nvisits;       /* the form's node count */
	struct buf text;      /* the candidate */
	unsigned depth;
	size_t steps;
	unsigned attempt;  /* the try: shifts the branch choices */
	struct json_out w; /* its nomem: any allocation refused */
	/* the first schema the generator could not describe */
	char opaque[JPTR_MAX];
	const char *opaque_why;
};

/* ----- chance and counting ------------------------------------------------ */

/* splitmix64 (Steele, Lea, Flood 2014): small, seeded, portable. */
static uint64_t
rnd(struct sample_gen *g)
{
	uint64_t z = (g->rng += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* uniform in [0, n) (n > 0) */
static uint64_t
rnd_below(struct sample_gen *g, uint64_t n)
{
	return n == 0 ? 0 : rnd(g) % n;
}

/* How often n was visited before (then counts this visit). */
static uint64_t
visit(struct sample_gen *g, const struct schema_node *n)
{
	size_t k = schema_view_id(n);

	/* the static true and false schemas have no id and no choices */
	return k < g->nvisits ? g->visits[k]++ : 0;
}

/* Note the first schema that is generated blind. */
static void
opaque(struct sample_gen *g, const struct schema_view *v, const char *why)
{
	size_t len;

	if (g->opaque_why != NULL)
		return;
	g->opaque_why = why;
	len = v->pointer_len < sizeof(g->opaque) - 1 ? v->pointer_len
	                                             : sizeof(g->opaque) - 1;
	if (v->pointer != NULL)
		memcpy(g->opaque, v->pointer, len);
	else
		len = 0;
	g->opaque[len] = '\0';
}

/* ----- output --------------------------------------------------------------
 */

/* ----- the parts of one value ------------------------------------------- */

struct parts {
	const struct schema_node *n[SAMPLE_PARTS];
	struct schema_view v[SAMPLE_PARTS];
	uint64_t c[SAMPLE_PARTS]; /* the visit count */
	size_t count;
	bool impossible; /* a part is false */
};

static void
gather(struct sample_gen *g, struct parts *p, const struct schema_node *n,
    unsigned depth)
{
	struct schema_view *v;
	struct schema_view_edges it;
	struct schema_view_edge e;
	uint64_t c;
	size_t i;

	if (p->count == SAMPLE_PARTS || depth > SAMPLE_MAX_DEPTH) {
		p->impossible = true;
		return;
	}
	for (i = 0; i < p->count; i++)
		if (p->n[i] == n && n != NULL)
			return; /* the same schema twice: once is enough */
	v = &p->v[p->count];
	schema_view_get(n, v);
	if (v->kind == SV_TRUE)
		return;
	if (v->kind == SV_FALSE) {
		p->impossible = true;
		return;
	}
	/* the visits advance with every try too, so a failed candidate is
	 * followed by one with the next choices */
	c = visit(g, n);
	p->c[p->count] = c;
	p->n[p->count++] = n;
	if (v->undescribed)
		opaque(g, v, "a constraint the generator cannot read");
	if (v->not_ != NULL)
		opaque(g, v, schema_kw_name(KW_NOT));
	/* the in-place edges: $ref, a dynamic reference's static target,
	 * every allOf branch, one anyOf and one oneOf branch in turn, if
	 * with one of its outcomes (if comes after the others: the parts
	 * keep that order) */
	schema_view_edges_init(&it, n, SV_EDGES_VIEW);
	while (schema_view_edges_next(&it, &e)) {
		switch (e.kw) {
		case KW_DYNAMICREF:
			if (v->dyn == SV_DYN_DYNAMIC)
				opaque(g, v, "a dynamic reference");
			gather(g, p, e.to, depth + 1);
			break;
		case KW_REF:
		case KW_ALLOF:
			gather(g, p, e.to, depth + 1);
			break;
		case KW_ANYOF:
			if (e.index == c % v->nany_of)
				gather(g, p, e.to, depth + 1);
			break;
		case KW_ONEOF:
			if (e.index == c % v->none_of)
				gather(g, p, e.to, depth + 1);
			break;
		case KW_IF:
			/* if and its two outcomes: a choice between edges,
			 * not a walk; in turn, a value made to match if,
			 * with then, or one with else, hoping it misses if
			 * (the validator tells) */
			opaque(g, v, schema_kw_name(KW_IF));
			if ((c & 1) == 0) {
				gather(g, p, e.to, depth + 1);
				if (v->then_ != NULL)
					gather(g, p, v->then_, depth + 1);
			} else if (v->else_ != NULL) {
				gather(g, p, v->else_, depth + 1);
			}
			break;
		default: /* then and else with if; the values inside: gen */
			break;
		}
	}
}

static int gen(
    struct sample_gen *g, const struct schema_node *const *ns, size_t count);

/* ----- strings ------------------------------------------------------------ */

/* sample_re's chance: the generator's own, so samples stay seeded. */
static uint64_t
gen_below(void *ctx, uint64_t n)
{
	return rnd_below(ctx, n);
}

/* A string matching pattern into out (raw bytes); -1 outside what
 * sample_re writes. */
static int
gen_pattern(struct sample_gen *g, const char *p, size_t len, struct buf *out,
    unsigned stretch)
{
	const struct sample_re_chance chance = {gen_below, g};

	return sample_re_string(p, len, &g->scratch, &chance, stretch, out);
}

/* Values of the string formats, varied by n. */
static int
gen_format(struct sample_gen *g, const char *f, struct buf *out)
{
	unsigned a = (unsigned)rnd_below(g, 28) + 1;
	unsigned b = (unsigned)rnd_below(g, 12) + 1;
	unsigned h = (unsigned)rnd_below(g, 24);
	unsigned m = (unsigned)rnd_below(g, 60);
	unsigned k = (unsigned)rnd_below(g, 1000);

	if (strcmp(f, "date-time") == 0)
		return buf_printf(out, "20%02u-%02u-%02uT%02u:%02u:%02uZ",
		    k % 100, b, a, h, m, (m * 7) % 60);
	if (strcmp(f, "date") == 0)
		return buf_printf(out, "20%02u-%02u-%02u", k % 100, b, a);
	if (strcmp(f, "time") == 0)
		return buf_printf(out, "%02u:%02u:%02uZ", h, m, (m * 7) % 60);
	if (strcmp(f, "duration") == 0)
		return buf_printf(out, "P%uDT%uH", a, h);
	if (strcmp(f, "email") == 0 || strcmp(f, "idn-email") == 0)
		return buf_printf(out, "user%u@example.org", k);
	if (strcmp(f, "hostname") == 0 || strcmp(f, "idn-hostname") == 0)
		return buf_printf(out, "host%u.example.org", k);
	if (strcmp(f, "ipv4") == 0)
		return buf_printf(out, "192.0.2.%u", k % 256);
	if (strcmp(f, "ipv6") == 0)
		return buf_printf(out, "2001:db8::%x", k);
	if (strcmp(f, "uri") == 0 || strcmp(f, "iri") == 0)
		return buf_printf(out, "https://example.org/p%u", k);
	if (strcmp(f, "uri-reference") == 0 || strcmp(f, "iri-reference") == 0)
		return buf_printf(out, "/p%u", k);
	if (strcmp(f, "uri-template") == 0)
		return buf_printf(out, "/p/{id%u}", k);
	if (strcmp(f, "uuid") == 0)
		return buf_printf(out, "%08x-%04x-4%03x-8%03x-%012llx",
		    (unsigned)rnd(g), (unsigned)rnd(g) & 0xffff,
		    (unsigned)rnd(g) & 0xfff, (unsigned)rnd(g) & 0xfff,
		    (unsigned long long)(rnd(g) & 0xffffffffffffull));
	if (strcmp(f, "json-pointer") == 0)
		return buf_printf(out, "/a/%u", k);
	if (strcmp(f, "relative-json-pointer") == 0)
		return buf_printf(out, "%u/a", k % 3);
	if (strcmp(f, "regex") == 0)
		return buf_printf(out, "^a%u$", k);
	if (strcmp(f, "byte") == 0)
		return buf_puts(out, k & 1 ? "aGVsbG8=" : "");
	/* the format table's example (http-date, media-range, ...), else
	 * any string (binary, password, commonmark, ...) */
	{
		const struct format *fm = format_lookup(f, strlen(f));

		if (fm != NULL && fm->example != NULL)
			return buf_puts(out, fm->example);
	}
	return 1;
}

static const char *const sample_words[] = {"a", "note", "x", "hello", "gpt",
    "value", "ok", "text", "z9", "caf\xc3\xa9"};

/* base64 (RFC 4648 section 4; section 5 when url) of in into out. */
static int
base64(const struct buf *in, bool url, struct buf *out)
{
	static const char std[] =
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	static const char safe[] =
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
	const char *t = url ? safe : std;
	const unsigned char *p = (const unsigned char *)buf_ptr(in);
	size_t i;

	for (i = 0; i + 2 < buf_len(in); i += 3)
		if (buf_putc(out, t[p[i] >> 2]) ||
		    buf_putc(out, t[((p[i] & 3) << 4) | (p[i + 1] >> 4)]) ||
		    buf_putc(
		        out, t[((p[i + 1] & 15) << 2) | (p[i + 2] >> 6)]) ||
		    buf_putc(out, t[p[i + 2] & 63]))
			return -1;
	if (buf_len(in) - i == 1)
		return buf_putc(out, t[p[i] >> 2]) ||
		               buf_putc(out, t[(p[i] & 3) << 4]) ||
		               buf_puts(out, "==")
		           ? -1
		           : 0;
	if (buf_len(in) - i == 2)
		return buf_putc(out, t[p[i] >> 2]) ||
		               buf_putc(out,
		                   t[((p[i] & 3) << 4) | (p[i + 1] >> 4)]) ||
		               buf_putc(out, t[(p[i + 1] & 15) << 2]) ||
		               buf_putc(out, '=')
		           ? -1
		           : 0;
	return 0;
}

/* The raw bytes of a string the parts may accept. */
static int
gen_string_raw(struct sample_gen *g, const struct parts *p, struct buf *out)
{
	size_t i, min = 0, max = SIZE_MAX, n, target;
	const struct schema_view *pat = NULL, *fmt = NULL, *content = NULL;

	for (i = 0; i < p->count; i++) {
		const struct schema_view *v = &p->v[i];

		if (v->min_length > min)
			min = v->min_length;
		if (v->max_length < max)
			max = v->max_length;
		if (v->pattern != NULL && pat == NULL)
			pat = v;
		if (v->format != NULL && fmt == NULL)
			fmt = v;
		if ((v->content_encoding || v->content_json) && content == NULL)
			content = v;
	}
	if (min > max)
		return -1;
	if (content != NULL) {
		struct buf inner, enc;
		int rc = 0;

		/* the inner value is generated where the candidate goes,
		 * then moved out */
		if (content->content_schema != NULL) {
			size_t at = buf_len(&g->text);

			if (gen(g, &content->content_schema, 1) == -1)
				return -1;
			buf_init(&inner, SAMPLE_TEXT_MAX);
			if (buf_append(&inner, buf_ptr(&g->text) + at,
			        buf_len(&g->text) - at) == -1 ||
			    buf_trunc(&g->text, at) == -1)
				rc = -1;
		} else {
			buf_init(&inner, SAMPLE_TEXT_MAX);
			rc = buf_printf(
			    &inner, "{\"n\":%u}", (unsigned)rnd_below(g, 100));
		}
		if (rc == 0 && content->content_encoding != NULL) {
			buf_init(&enc, SAMPLE_TEXT_MAX);
			rc = base64(&inner,
			    strcmp(content->content_encoding, "base64url") == 0,
			    &enc);
			if (rc == 0 &&
			    buf_append(out, buf_ptr(&enc), buf_len(&enc)) == -1)
				rc = -1;
			buf_free(&enc);
		} else if (rc == 0) {
			rc = buf_append(out, buf_ptr(&inner), buf_len(&inner));
		}
		buf_free(&inner);
		return rc;
	}
	if (pat != NULL) {
		/* a few draws, longer ones when minLength asks, until the
		 * lengths fit; the validator has the last word */
		unsigned k, stretch = min > 64 ? 64 : (unsigned)min;

		for (k = 0; k < 16; k++) {
			size_t cps;

			buf_reset(out);
			if (gen_pattern(g, pat->pattern, pat->pattern_len, out,
			        k < 8 ? stretch / 2 : stretch) == -1)
				break;
			cps = utf8_count(
			    (const unsigned char *)buf_ptr(out), buf_len(out));
			if (cps >= min && cps <= max)
				return 0;
		}
		if (k < 16) {
			opaque(g, pat,
			    "a pattern outside the generator's regex subset");
			buf_reset(out);
		} else {
			return 0;
		}
	}
	if (fmt != NULL) {
		int rc = gen_format(g, fmt->format, out);

		if (rc <= 0)
			return rc;
	}
	/* letters: a few words, then padded or cut to the lengths */
	target = min + (size_t)rnd_below(g, 9);
	if (target > max)
		target = max;
	if (target > SAMPLE_MAX_STRING && target > min)
		target = min > SAMPLE_MAX_STRING ? min : SAMPLE_MAX_STRING;
	n = 0;
	while (n < target) {
		const char *w =
		    sample_words[rnd_below(g, GPT_ARRAY_LEN(sample_words))];
		size_t wl = utf8_count((const unsigned char *)w, strlen(w));

		if (n + wl > target) {
			if (buf_putc(out, (char)('a' + rnd_below(g, 26))))
				return -1;
			n++;
			continue;
		}
		if (buf_puts(out, w) == -1)
			return -1;
		n += wl;
	}
	return 0;
}

static int
gen_string(struct sample_gen *g, const struct parts *p)
{
	struct buf s;
	int rc;

	buf_init(&s, SAMPLE_TEXT_MAX);
	rc = gen_string_raw(g, p, &s);
	if (rc == 0)
		json_out_string(&g->w, buf_ptr(&s), buf_len(&s));
	buf_free(&s);
	return rc;
}

/* ----- numbers ------------------------------------------------------------ */

static bool
num_of(const struct schema_view_num *n, double *out)
{
	char tmp[64];

	if (n->text == NULL || n->len >= sizeof(tmp))
		return false;
	memcpy(tmp, n->text, n->len);
	tmp[n->len] = '\0';
	*out = strtod(tmp, NULL);
	return isfinite(*out);
}

/* A number (an integer when integer) the parts may accept: chosen with
 * doubles, as a candidate; the validator judges it exactly. */
static int
gen_number(struct sample_gen *g, const struct parts *p, bool integer)
{
	double lo = -HUGE_VAL, hi = HUGE_VAL, x, m = 0;
	const struct schema_view_num *mtext = NULL, *edge = NULL;
	size_t i;
	char out[64];

	for (i = 0; i < p->count; i++) {
		const struct schema_view *v = &p->v[i];

		if (num_of(&v->minimum, &x) && x > lo)
			lo = x, edge = &v->minimum;
		if (num_of(&v->xminimum, &x) && x >= lo)
			lo = integer ? floor(x) + 1 : x + 0.25, edge = NULL;
		if (num_of(&v->maximum, &x) && x < hi)
			hi = x;
		if (num_of(&v->xmaximum, &x) && x <= hi)
			hi = integer ? ceil(x) - 1 : x - 0.25;
		if (v->multiple_of.text != NULL && mtext == NULL &&
		    num_of(&v->multiple_of, &m) && m > 0)
			mtext = &v->multiple_of;
		if (v->nformat != NULL) {
			/* int32, uint8, ...: the integers the format's row
			 * accepts without a call */
			const struct format *f =
			    format_lookup(v->nformat, strlen(v->nformat));

			if (f != NULL && f->imin > INT64_MIN &&
			    (double)f->imin > lo)
				lo = (double)f->imin;
			if (f != NULL && f->imax < INT64_MAX &&
			    (double)f->imax < hi)
				hi = (double)f->imax;
		}
	}
	if (integer) {
		lo = ceil(lo);
		hi = floor(hi);
	}
	if (lo > hi)
		return -1;
	/* sometimes the bound itself, exactly as written */
	if (edge != NULL && mtext == NULL && rnd_below(g, 4) == 0 &&
	    (!integer || edge->len < 20)) {
		json_out_put(&g->w, edge->text, edge->len);
		return 0;
	}
	if (isinf(lo) && isinf(hi))
		lo = -20, hi = 100;
	else if (isinf(lo))
		lo = hi - 100;
	else if (isinf(hi))
		hi = lo + 100;
	if (hi - lo > 1000)
		hi = lo + 1000;
	if (mtext != NULL) {
		/* k * multipleOf, written as k times the text's digits with
		 * its exponent ("0.25" is 25e-2: k * 25 e-2), so the value
		 * is exact whatever a double makes of it */
		double kmin = ceil(lo / m), kmax = floor(hi / m), span;
		char digits[32];
		size_t j, d = 0;
		long exp = 0;
		bool point = false;
		long long k;

		for (j = 0; j < mtext->len; j++) {
			char ch = mtext->text[j];

			if (ch == 'e' || ch == 'E') {
				const char *t = mtext->text + j + 1;
				size_t tl = mtext->len - j - 1;
				bool neg = tl > 0 && t[0] == '-';
				uint64_t e;

				if (tl > 0 && (t[0] == '-' || t[0] == '+'))
					t++, tl--;
				/* "1e999999": no double holds its multiples */
				if (num_read(t, tl, 0, SAMPLE_EXP_MAX, 0, &e) !=
				    NULL)
					return -1;
				exp += neg ? -(long)e : (long)e;
				break;
			}
			if (ch == '.') {
				point = true;
				continue;
			}
			if (d == sizeof(digits) - 1)
				return -1;
			digits[d++] = ch;
			if (point)
				exp--;
		}
		digits[d] = '\0';
		if (kmin > kmax || kmax - kmin > 1e15 || d > 15 ||
		    fabs(kmin) > 1e15)
			return -1;
		/* 0 is a multiple of every number: an integer even when
		 * multipleOf is not one */
		if (lo <= 0 && hi >= 0 && (integer || rnd_below(g, 4) == 0)) {
			json_out_puts(&g->w, "0");
			return 0;
		}
		span = kmax - kmin + 1;
		k = (long long)kmin +
		    (long long)rnd_below(g, span > 50 ? 50 : (uint64_t)span);
		snprintf(out, sizeof(out), "%.0Lfe%ld",
		    (long double)k * strtold(digits, NULL), exp);
		json_out_puts(&g->w, out);
		return 0;
	}
	x = lo + (hi - lo) * (double)rnd_below(g, 10001) / 10000.0;
	if (integer || rnd_below(g, 3) == 0) {
		x = floor(x);
		if (x < lo)
			x += 1;
		snprintf(out, sizeof(out), "%.0f", x);
	} else {
		snprintf(out, sizeof(out), "%.2f", x);
	}
	json_out_puts(&g->w, out);
	return 0;
}

/* ----- arrays --------------------------------------------------------------
 */

static int
gen_array(struct sample_gen *g, const struct parts *p)
{
	size_t i, min = 0, max = SIZE_MAX, count, nprefix = 0,
	          want_contains = 0;
	const struct schema_node *prefix_of[SAMPLE_PARTS];
	size_t nprefix_of = 0;
	const struct schema_node *items[SAMPLE_PARTS], *contains[SAMPLE_PARTS];
	size_t nitems = 0, ncontains = 0;
	bool closed = false;

	for (i = 0; i < p->count; i++) {
		const struct schema_view *v = &p->v[i];

		if (v->min_items > min)
			min = v->min_items;
		if (v->max_items < max)
			max = v->max_items;
		if (v->nprefix > 0)
			prefix_of[nprefix_of++] = p->n[i];
		if (v->nprefix > nprefix)
			nprefix = v->nprefix;
		if (v->items != NULL) {
			struct schema_view iv;

			schema_view_get(v->items, &iv);
			if (iv.kind == SV_FALSE)
				closed = true;
			else
				items[nitems++] = v->items;
		}
		if (v->contains != NULL && v->max_contains > 0) {
			contains[ncontains++] = v->contains;
			if (v->min_contains > want_contains)
				want_contains = v->min_contains;
		}
	}
	if (closed && max > nprefix)
		max = nprefix;
	if (min > max)
		return -1;
	count = min + (g->depth >= SAMPLE_SOFT_DEPTH ? 0 : rnd_below(g, 4));
	if (count < want_contains)
		count = want_contains;
	if (count > max)
		count = max;
	if (count > min + 8 && count > want_contains)
		count = min > want_contains ? min : want_contains;
	json_out_put(&g->w, "[", 1);
	for (i = 0; i < count; i++) {
		const struct schema_node *ns[SAMPLE_PARTS + 1];
		size_t k = 0, j;

		if (i > 0)
			json_out_put(&g->w, ",", 1);
		if (i < nprefix) {
			/* position i of every part's prefix that reaches it,
			 * else that part's items */
			for (j = 0; j < nprefix_of; j++) {
				struct schema_view pv;

				schema_view_get(prefix_of[j], &pv);
				if (i < pv.nprefix)
					ns[k++] =
					    schema_view_prefix(prefix_of[j], i);
				else if (pv.items != NULL)
					ns[k++] = pv.items;
			}
		} else {
			for (j = 0; j < nitems; j++)
				ns[k++] = items[j];
			if (i - nprefix < want_contains)
				for (j = 0; j < ncontains && k < SAMPLE_PARTS;
				     j++)
					ns[k++] = contains[j];
		}
		if (gen(g, ns, k) == -1)
			return -1;
	}
	json_out_put(&g->w, "]", 1);
	return 0;
}

/* ----- objects ------------------------------------------------------------ */

struct member {
	const char *name;
	size_t len;
	const struct schema_node *sub[4];
	size_t nsub;
	bool required, include, forbidden;
};

static struct member *
member_of(struct member *ms, size_t *n, const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < *n; i++)
		if (ms[i].len == len && memcmp(ms[i].name, name, len) == 0)
			return &ms[i];
	if (*n == SAMPLE_MEMBERS)
		return NULL;
	memset(&ms[*n], 0, sizeof(ms[*n]));
	ms[*n].name = name;
	ms[*n].len = len;
	return &ms[(*n)++];
}

static int
gen_object(struct sample_gen *g, const struct parts *p)
{
	struct member *ms;
	size_t nm = 0, i, j, k, min = 0, max = SIZE_MAX, present = 0, wrote = 0;
	const struct schema_node *additional = NULL, *names = NULL;
	bool closed = false;
	uint64_t c = 0, mix;
	struct buf name;
	int rc = -1;

	buf_init(&name, 4096);
	if ((ms = calloc(SAMPLE_MEMBERS, sizeof(*ms))) == NULL) {
		g->w.nomem = true;
		return -1;
	}
	for (i = 0; i < p->count; i++) {
		const struct schema_view *v = &p->v[i];

		if (v->min_props > min)
			min = v->min_props;
		if (v->max_props < max)
			max = v->max_props;
		if (v->additional != NULL) {
			struct schema_view av;

			schema_view_get(v->additional, &av);
			if (av.kind == SV_FALSE)
				closed = true;
			else if (additional == NULL)
				additional = v->additional;
		}
		if (v->unevaluated_props != NULL) {
			struct schema_view uv;

			schema_view_get(v->unevaluated_props, &uv);
			closed = closed || uv.kind == SV_FALSE;
		}
		if (v->names != NULL && names == NULL)
			names = v->names;
		for (j = 0; j < v->nprops; j++) {
			struct schema_view_prop pr;
			struct member *m;

			schema_view_prop(p->n[i], j, &pr);
			if ((m = member_of(ms, &nm, pr.name, pr.len)) == NULL)
				goto done;
			m->required = m->required || pr.required;
			if (pr.sub != NULL && m->nsub < 4) {
				struct schema_view sv;

				schema_view_get(pr.sub, &sv);
				if (sv.kind == SV_FALSE)
					m->forbidden = true;
				m->sub[m->nsub++] = pr.sub;
			}
		}
	}
	c = p->c[0];
	/* which members: every required one; optional ones alternately */
	/* each optional member is present at one of two visits in a row
	 * (2k and 2k + 1), and which one varies from pair to pair and
	 * member to member, so every combination comes up */
	{
		uint64_t z =
		    (c >> 1) * 0x9e3779b97f4a7c15ull + 0x632be59bd9b4e019ull;

		z = (z ^ (z >> 29)) * 0xbf58476d1ce4e5b9ull;
		mix = z ^ (z >> 32);
	}
	for (i = 0; i < nm; i++) {
		ms[i].include =
		    ms[i].required ||
		    (!ms[i].forbidden && g->depth < SAMPLE_SOFT_DEPTH &&
		        (((c ^ (mix >> (i % 64))) & 1) == 0));
		if (ms[i].include)
			present++;
	}
	/* dependentRequired: the names a present member needs */
	for (k = 0; k < 2; k++)
		for (i = 0; i < p->count; i++)
			for (j = 0; j < p->v[i].ndepreq; j++) {
				struct schema_view_depreq d;
				struct member *m;
				size_t q;

				schema_view_depreq(p->n[i], j, &d);
				m = member_of(ms, &nm, d.name, d.len);
				if (m == NULL || !m->include)
					continue;
				for (q = 0; q < d.nneed; q++) {
					const char *nn;
					size_t nl;
					struct member *need;

					schema_view_depreq_need(
					    p->n[i], j, q, &nn, &nl);
					need = member_of(ms, &nm, nn, nl);
					if (need != NULL && !need->include) {
						need->include = true;
						present++;
					}
				}
			}
	/* too many: drop optional ones; too few: add optional, then extra */
	for (i = nm; i-- > 0 && present > max;)
		if (ms[i].include && !ms[i].required) {
			ms[i].include = false;
			present--;
		}
	for (i = 0; i < nm && present < min; i++)
		if (!ms[i].include && !ms[i].forbidden) {
			ms[i].include = true;
			present++;
		}
	json_out_put(&g->w, "{", 1);
	for (i = 0; i < nm; i++) {
		const struct schema_node *ns[4];
		size_t q;

		if (!ms[i].include)
			continue;
		if (wrote++ > 0)
			json_out_put(&g->w, ",", 1);
		json_out_string(&g->w, ms[i].name, ms[i].len);
		json_out_put(&g->w, ":", 1);
		for (q = 0; q < ms[i].nsub; q++)
			ns[q] = ms[i].sub[q];
		if (ms[i].nsub == 0 && additional != NULL)
			ns[q++] = additional;
		if (gen(g, ns, q) == -1)
			goto done;
	}
	/* patternProperties: one member now and then */
	for (i = 0; i < p->count && present < max; i++) {
		const struct schema_view *v = &p->v[i];

		for (j = 0; j < v->npprops && present < max; j++) {
			struct schema_view_pprop pp;

			if (((c + j) & 1) != 0 && present >= min)
				continue;
			size_t before = nm;

			schema_view_pprop(p->n[i], j, &pp);
			buf_reset(&name);
			if (gen_pattern(g, pp.pattern, pp.len, &name, 0) ==
			        -1 ||
			    member_of(ms, &nm, buf_ptr(&name),
			        buf_len(&name)) == NULL ||
			    nm == before)
				continue;
			/* a fresh name: keep it (member_of added it) */
			ms[nm - 1].name = arena_strndup(
			    &g->scratch, buf_ptr(&name), buf_len(&name));
			if (ms[nm - 1].name == NULL)
				goto done;
			ms[nm - 1].include = true;
			if (wrote++ > 0)
				json_out_put(&g->w, ",", 1);
			json_out_string(&g->w, ms[nm - 1].name, buf_len(&name));
			json_out_put(&g->w, ":", 1);
			if (gen(g, &pp.sub, 1) == -1)
				goto done;
			present++;
		}
	}
	/* extra members while min asks for more (an open object) */
	for (k = 0; present < min && !closed && k < SAMPLE_MEMBERS; k++) {
		struct parts np;

		buf_reset(&name);
		if (names != NULL) {
			memset(&np, 0, sizeof(np));
			gather(g, &np, names, 0);
			if (np.impossible ||
			    gen_string_raw(g, &np, &name) == -1)
				goto done;
		} else if (buf_printf(&name, "k%zu", k) == -1) {
			goto done;
		}
		size_t before = nm;

		if (member_of(ms, &nm, buf_ptr(&name), buf_len(&name)) ==
		        NULL ||
		    nm == before)
			continue;
		ms[nm - 1].name =
		    arena_strndup(&g->scratch, buf_ptr(&name), buf_len(&name));
		if (ms[nm - 1].name == NULL)
			goto done;
		if (wrote++ > 0)
			json_out_put(&g->w, ",", 1);
		json_out_string(&g->w, ms[nm - 1].name, buf_len(&name));
		json_out_put(&g->w, ":", 1);
		if (gen(g, &additional, additional != NULL ? 1 : 0) == -1)
			goto done;
		present++;
	}
	json_out_put(&g->w, "}", 1);
	rc = present >= min ? 0 : -1;
done:
	buf_free(&name);
	free(ms);
	return rc;
}

/* ----- one value ---------------------------------------------------------- */

/* A small value of any JSON type. */
static void
gen_any(struct sample_gen *g, unsigned types)
{
	static const unsigned order[] = {SV_TY_STRING, SV_TY_INTEGER,
	    SV_TY_BOOLEAN, SV_TY_NULL, SV_TY_NUMBER, SV_TY_ARRAY, SV_TY_OBJECT};
	unsigned pick[7], n = 0, i;

	for (i = 0; i < 7; i++)
		if (types & order[i])
			pick[n++] = order[i];
	switch (n == 0 ? SV_TY_NULL : pick[rnd_below(g, n)]) {
	case SV_TY_STRING: {
		const char *w = sample_words[rnd_below(g, 6)];

		json_out_string(&g->w, w, strlen(w));
	} break;
	case SV_TY_INTEGER: {
		char t[24];

		snprintf(t, sizeof(t), "%u", (unsigned)rnd_below(g, 100));
		json_out_puts(&g->w, t);
		break;
	}
	case SV_TY_NUMBER:
		json_out_puts(&g->w, "1.5");
		break;
	case SV_TY_BOOLEAN:
		json_out_puts(&g->w, rnd_below(g, 2) ? "true" : "false");
		break;
	case SV_TY_ARRAY:
		json_out_puts(&g->w, "[]");
		break;
	case SV_TY_OBJECT:
		json_out_puts(&g->w, "{}");
		break;
	default:
		json_out_puts(&g->w, "null");
		break;
	}
}

/* One value for the schemas ns (all apply); count 0: any value. */
static int
gen(struct sample_gen *g, const struct schema_node *const *ns, size_t count)
{
	struct parts *p;
	unsigned types = SV_TY_ALL, typed = SV_TY_ALL, choices[7], nchoice = 0;
	unsigned ty;
	size_t i, at = buf_len(&g->text);
	int rc = -1;
	static const unsigned order[] = {SV_TY_OBJECT, SV_TY_ARRAY,
	    SV_TY_STRING, SV_TY_INTEGER, SV_TY_NUMBER, SV_TY_BOOLEAN,
	    SV_TY_NULL};

	if (g->w.nomem || ++g->steps > SAMPLE_STEPS ||
	    g->depth >= SAMPLE_MAX_DEPTH)
		return -1;
	if ((p = calloc(1, sizeof(*p))) == NULL) {
		g->w.nomem = true;
		return -1;
	}
	g->depth++;
	for (i = 0; i < count; i++)
		gather(g, p, ns[i], 0);
	if (p->impossible)
		goto done;
	if (p->count == 0) {
		gen_any(g, SV_TY_ALL);
		rc = 0;
		goto done;
	}
	/* const, then enum: the first that says one */
	for (i = 0; i < p->count; i++)
		if (p->v[i].const_value != NULL) {
			json_out_value(&g->w, p->v[i].const_value);
			rc = 0;
			goto done;
		}
	for (i = 0; i < p->count; i++)
		if (p->v[i].nenums > 0) {
			json_out_value(
			    &g->w, schema_view_enum(p->n[i],
			               (size_t)(p->c[i] % p->v[i].nenums)));
			rc = 0;
			goto done;
		}
	for (i = 0; i < p->count; i++) {
		unsigned t = schema_facts_concerns(&p->v[i]);

		/* a number part admits integers */
		if (t & SV_TY_NUMBER)
			t |= SV_TY_INTEGER;
		types &= t;
		if (p->v[i].typed)
			typed &= p->v[i].types & SV_TY_NUMBER
			             ? p->v[i].types | SV_TY_INTEGER
			             : p->v[i].types;
	}
	/* the types the keywords are about first; every type `type` admits
	 * on every fourth try ({"properties": ...} accepts a string) */
	if (types == 0 || g->attempt % 4 == 3)
		types = typed;
	for (i = 0; i < 7; i++)
		if (types & order[i])
			choices[nchoice++] = order[i];
	if (nchoice == 0)
		goto done;
	/* the type in turn, so each is reached */
	ty = choices[p->c[0] % nchoice];
	switch (ty) {
	case SV_TY_OBJECT:
		rc = gen_object(g, p);
		break;
	case SV_TY_ARRAY:
		rc = gen_array(g, p);
		break;
	case SV_TY_STRING:
		rc = gen_string(g, p);
		break;
	case SV_TY_INTEGER:
		rc = gen_number(g, p, true);
		break;
	case SV_TY_NUMBER:
		rc = gen_number(g, p, false);
		break;
	case SV_TY_BOOLEAN:
		json_out_puts(&g->w, rnd_below(g, 2) ? "true" : "false");
		rc = 0;
		break;
	default:
		json_out_puts(&g->w, "null");
		rc = 0;
		break;
	}
done:
	g->depth--;
	/* a failed candidate leaves nothing behind */
	if (rc == -1 && !g->w.nomem && buf_len(&g->text) >= at)
		buf_trunc(&g->text, at);
	free(p);
	return rc;
}

/* ----- the API --------------------------------------------------------------
 */

struct sample_gen *
sample_new(const struct schema *form, uint64_t seed)
{
	struct sample_gen *g = calloc(1, sizeof(*g));

	if (g == NULL)
		return NULL;
	g->form = form;
	g->rng = seed;
	g->nvisits = schema_view_count(form);
	if ((g->visits = calloc(g->nvisits + 1, sizeof(*g->visits))) == NULL) {
		free(g);
		return NULL;
	}
	arena_init(&g->scratch, SIZE_MAX / 4);
	buf_init(&g->text, SAMPLE_TEXT_MAX);
	g->w.out = &g->text;
	return g;
}

int
sample_next(struct sample_gen *g, struct buf *out, struct sample_err *err)
{
	const struct schema_node *root = schema_view_root(g->form);
	struct schema_view rv;
	struct schema_err verr;
	unsigned t;
	bool failed_validation = false;

	memset(err, 0, sizeof(*err));
	memset(&verr, 0, sizeof(verr));
	schema_view_get(root, &rv);
	if (rv.kind == SV_FALSE) {
		snprintf(err->reason, sizeof(err->reason),
		    "the form accepts nothing");
		return -1;
	}
	g->opaque_why = NULL;
	for (t = 0; t < SAMPLE_TRIES; t++) {
		const struct json_value *v;
		struct json_err jerr;

		g->attempt = t;
		g->steps = 0;
		g->depth = 0;
		buf_reset(&g->text);
		arena_reset(&g->scratch);
		if (gen(g, &root, 1) == -1 || g->w.nomem) {
			if (g->w.nomem)
				return -2;
			continue;
		}
		if (json_parse(buf_ptr(&g->text), buf_len(&g->text),
		        &g->scratch, 0, &v, &jerr) != JSON_OK)
			continue; /* nested past the parser's depth */
		switch (schema_validate(g->form, v, &g->scratch, &verr)) {
		case SCHEMA_OK:
			if (buf_append(out, buf_ptr(&g->text),
			        buf_len(&g->text)) == -1)
				return -2;
			return 0;
		case SCHEMA_NOMEM:
			return -2;
		default:
			failed_validation = true;
			break;
		}
	}
	if (g->opaque_why != NULL) {
		snprintf(err->reason, sizeof(err->reason),
		    "no value found in %d tries: the schema at %.100s has %s, "
		    "which the generator leaves to the validator",
		    SAMPLE_TRIES, g->opaque[0] != '\0' ? g->opaque : "(root)",
		    g->opaque_why);
		snprintf(err->pointer, sizeof(err->pointer), "%s", g->opaque);
	} else if (failed_validation) {
		snprintf(err->reason, sizeof(err->reason),
		    "no value found in %d tries: the last candidate was "
		    "rejected at %.*s: %s%s%.*s",
		    SAMPLE_TRIES,
		    (int)(verr.pointer.len > 100 ? 100 : verr.pointer.len),
		    verr.pointer.buf, verr.keyword != NULL ? verr.keyword : "",
		    verr.keyword != NULL ? ": " : "",
		    (int)(strlen(verr.reason) > 60 ? 60 : strlen(verr.reason)),
		    verr.reason);
		snprintf(err->pointer, sizeof(err->pointer), "%.*s",
		    (int)verr.pointer.len, verr.pointer.buf);
	} else {
		snprintf(err->reason, sizeof(err->reason),
		    "no value found in %d tries: the constraints contradict "
		    "each other, or need values nested past %d levels",
		    SAMPLE_TRIES, SAMPLE_MAX_DEPTH);
	}
	return -1;
}

void
sample_free(struct sample_gen *g)
{
	if (g == NULL)
		return;
	free(g->visits);
	buf_free(&g->text);
	arena_free(&g->scratch);
	free(g);
}
