/*
 * jptr.c: JSON Pointer (RFC 6901): resolving $ref targets inside one
 * document, and building the bounded pointers that error reports carry.
 *
 * Resolution reads the reference once, byte by byte: in the "#" fragment
 * form the fragment is percent-decoded first (RFC 6901 section 6: the
 * fragment is a URI's, RFC 3986 section 2.1), so "%2F" separates tokens
 * like '/', and each token of the decoded pointer is then unescaped, ~1
 * and ~0 (RFC 6901 section 4, in that order, so "~01" is "~1"), into a
 * fixed buffer.  Refused (NULL): a token longer than JPTR_TOKEN_MAX bytes
 * once decoded, a '~' not followed by 0 or 1, a '%' not followed by two
 * hex digits, an array index that is not canonical decimal ("01", "-",
 * "+1", "1e0"), and anything that names nothing.
 *
 * Building never fails: a pointer that does not fit in JPTR_MAX bytes is
 * cut and ends in "...".  Owns nothing, allocates nothing.
 */
#include <stdio.h>
#include <string.h>

#include "parser/jptr.h"
#include "parser/json.h"

/* Room kept at the end of a built pointer for "..." and the NUL. */
#define JPTR_ROOM (JPTR_MAX - 4)

/*
 * A reference read byte by byte as the JSON Pointer it stands for.  In the
 * "#" fragment form the whole fragment is percent-decoded first (RFC 6901
 * section 6, RFC 3986 section 2.1), and only then split on '/' and
 * unescaped: "#/$defs/x%2Fnot" is /$defs/x/not, and "%25" is a '%' that is
 * not decoded again.  The plain form ("/a/b") is read as it is.
 */
struct jptr_src {
	const char *ref; /* borrowed */
	size_t len, i;
	bool percent;
};

static void
src_init(struct jptr_src *s, const char *ref, size_t len)
{
	s->ref = ref;
	s->len = len;
	s->i = 0;
	s->percent = len > 0 && ref[0] == '#';
	if (s->percent)
		s->i = 1;
}

/* 1 and *c the next byte of the pointer, 0 at its end, or -1 when a '%'
 * is not followed by two hex digits. */
static int
src_next(struct jptr_src *s, char *c)
{
	int hi, lo;

	if (s->i == s->len)
		return 0;
	*c = s->ref[s->i++];
	if (!s->percent || *c != '%')
		return 1;
	/* "#/a%2", "#/a%zz", "#/a%%41" */
	if (s->len - s->i < 2 ||
	    (hi = gpt_hex_value((unsigned char)s->ref[s->i])) < 0 ||
	    (lo = gpt_hex_value((unsigned char)s->ref[s->i + 1])) < 0)
		return -1;
	*c = (char)(hi * 16 + lo);
	s->i += 2;
	return 1;
}

/*
 * Read the next token of s (up to a '/' of the decoded pointer, or its
 * end) into tok, ~1 and ~0 unescaped (RFC 6901 section 4, in that order,
 * so "~01" is "~1"; after percent-decoding, so "%7E1" is "~1", hence "/").
 * 1 when a '/' follows (another token comes), 0 at the end; -1 when
 * malformed or longer than JPTR_TOKEN_MAX bytes.
 */
static int
token_decode(struct jptr_src *s, char tok[JPTR_TOKEN_MAX], size_t *tlen)
{
	size_t n = 0;
	bool tilde = false;
	int rc;
	char c;

	while ((rc = src_next(s, &c)) == 1 && (c != '/' || tilde)) {
		if (tilde) {
			/* "/a~2", "/a~/b" */
			if (c != '0' && c != '1')
				return -1;
			c = c == '0' ? '~' : '/';
			tilde = false;
		} else if (c == '~') {
			tilde = true;
			continue;
		}
		if (n == JPTR_TOKEN_MAX)
			return -1;
		tok[n++] = c;
	}
	/* "/a~" */
	if (rc == -1 || tilde)
		return -1;
	*tlen = n;
	return rc;
}

/* A canonical array index (RFC 6901 section 4: "0" or no leading zero)
 * below count, in *out; false otherwise ("01", "-", "1x", too large). */
static bool
index_parse(const char *tok, size_t n, size_t count, size_t *out)
{
	size_t v = 0, k;

	if (n == 0 || (n > 1 && tok[0] == '0'))
		return false;
	for (k = 0; k < n; k++) {
		if (tok[k] < '0' || tok[k] > '9')
			return false;
		v = v * 10 + (size_t)(tok[k] - '0');
		if (v >= count)
			return false; /* also stops before any overflow */
	}
	*out = v;
	return true;
}

/* Mark p cut: "..." after what fits, at most JPTR_ROOM bytes before it. */
static void
cut(struct jptr *p)
{
	if (p->len > JPTR_ROOM)
		p->len = JPTR_ROOM;
	memcpy(p->buf + p->len, "...", 4);
	p->len += 3;
	p->truncated = true;
}

const struct json_value *
jptr_resolve(const struct json_value *root, const char *ref, size_t len)
{
	const struct json_value *v = root;
	char tok[JPTR_TOKEN_MAX];
	struct jptr_src s;
	size_t tlen, idx;
	int more;
	char c;

	if (root == NULL)
		return NULL;
	src_init(&s, ref, len);
	if ((more = src_next(&s, &c)) != 1)
		return more == 0 ? root : NULL; /* "" or "#"; "#%zz" */
	if (c != '/')
		return NULL; /* "#foo" (an anchor) or "a/b" */
	/* Each round consumes a '/' and its token: at most len rounds. */
	do {
		if ((more = token_decode(&s, tok, &tlen)) == -1)
			return NULL;
		switch (v->type) {
		case JSON_T_OBJECT:
			v = json_object_get(v, tok, tlen);
			break;
		case JSON_T_ARRAY:
			if (!index_parse(tok, tlen, v->u.arr.count, &idx))
				return NULL; /* "/items/01", "/items/-" */
			v = &v->u.arr.items[idx];
			break;
		default:
			return NULL; /* "/minimum/x": a scalar has no members */
		}
		if (v == NULL)
			return NULL;
	} while (more == 1);
	return v;
}

int
jptr_from_fragment(struct jptr *p, const char *ref, size_t len)
{
	struct jptr_src s;
	struct jptr out;
	bool tilde = false;
	int rc;
	char c;

	/* "other.json#/a", "" */
	if (len == 0 || ref[0] != '#')
		return -1;
	jptr_init(&out);
	src_init(&s, ref, len);
	while ((rc = src_next(&s, &c)) == 1) {
		/* "#/a~2", "#/a~" below: what jptr_resolve refuses too */
		if (tilde && c != '0' && c != '1')
			return -1;
		tilde = !tilde && c == '~';
		if (out.truncated)
			continue; /* cut: only checking what is left */
		/* An escape is kept whole: a '~' only with room for its 0/1. */
		if (out.len + (tilde ? 2 : 1) > JPTR_ROOM) {
			cut(&out);
			continue;
		}
		out.buf[out.len++] = c;
	}
	if (rc == -1 || tilde)
		return -1;
	if (!out.truncated)
		out.buf[out.len] = '\0';
	*p = out;
	return 0;
}

void
jptr_init(struct jptr *p)
{
	p->buf[0] = '\0';
	p->len = 0;
	p->truncated = false;
}

size_t
jptr_push(struct jptr *p, const char *token, size_t len)
{
	size_t prev = p->len, k;

	if (p->truncated)
		return prev; /* nothing more fits; pop(prev) is a no-op */
	if (p->len >= JPTR_ROOM) {
		cut(p);
		return prev;
	}
	p->buf[p->len++] = '/';
	for (k = 0; k < len; k++) {
		char c = token[k];
		size_t need = (c == '~' || c == '/') ? 2 : 1;

		if (p->len + need > JPTR_ROOM) {
			cut(p);
			return prev;
		}
		if (need == 2) {
			p->buf[p->len++] = '~';
			p->buf[p->len++] = c == '~' ? '0' : '1';
		} else {
			p->buf[p->len++] = c;
		}
	}
	p->buf[p->len] = '\0';
	return prev;
}

size_t
jptr_push_index(struct jptr *p, size_t index)
{
	char num[24];
	int n = snprintf(num, sizeof(num), "%zu", index);

	return jptr_push(p, num, (size_t)n);
}

void
jptr_pop(struct jptr *p, size_t len)
{
	/* Pushes are undone in reverse order, and a cut is always the last
	 * thing in the buffer: cutting back removes it. */
	if (len < p->len) {
		p->len = len;
		p->buf[len] = '\0';
		p->truncated = false;
	}
}
