/*
 * jptr.c: JSON Pointer (RFC 6901): resolving $ref targets inside one
 * document, and building the bounded pointers that error reports carry.
 *
 * Resolution reads the reference once, token by token, decoding each into
 * a fixed buffer: first %XX (RFC 3986 section 2.1, only in the "#"
 * fragment form), then ~1 and ~0 (RFC 6901 section 4, in that order, so
 * "~01" is "~1").  Refused (NULL): a token longer than JPTR_TOKEN_MAX
 * bytes once decoded, a '~' not followed by 0 or 1, a '%' not followed by
 * two hex digits, an array index that is not canonical decimal ("01",
 * "-", "+1", "1e0"), and anything that names nothing.
 *
 * Building never fails: a pointer that does not fit in JPTR_MAX bytes is
 * cut and ends in "...".  Owns nothing, allocates nothing.
 */
#include <stdio.h>
#include <string.h>

#include "jptr.h"
#include "json.h"

/* Room kept at the end of a built pointer for "..." and the NUL. */
#define JPTR_ROOM (JPTR_MAX - 4)

/*
 * Decode the token at ref[*i] up to the next '/' (or len) into tok.  0 and
 * *i past the token, *tlen set; or -1 when malformed or too long.
 */
static int
token_decode(const char *ref, size_t len, size_t *i, bool percent,
    char tok[JPTR_TOKEN_MAX], size_t *tlen)
{
	size_t n = 0, j = *i;
	int hi, lo;
	char c;

	while (j < len && ref[j] != '/') {
		c = ref[j++];
		if (percent && c == '%') {
			/* "#/a%2" or "#/a%zz" */
			if (len - j < 2 ||
			    (hi = gpt_hex_value((unsigned char)ref[j])) < 0 ||
			    (lo = gpt_hex_value((unsigned char)ref[j + 1])) < 0)
				return -1;
			c = (char)(hi * 16 + lo);
			j += 2;
		}
		if (n == JPTR_TOKEN_MAX)
			return -1;
		tok[n++] = c;
	}
	*i = j;
	*tlen = 0;
	/* ~ escapes, after percent-decoding ("#/%7E1" is "~1", hence "/") */
	for (j = 0; j < n; j++) {
		c = tok[j];
		if (c == '~') {
			if (j + 1 >= n || (tok[j + 1] != '0' && tok[j + 1] != '1'))
				return -1; /* "/a~" or "/a~2" */
			c = tok[j + 1] == '0' ? '~' : '/';
			j++;
		}
		tok[(*tlen)++] = c;
	}
	return 0;
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

const struct json_value *
jptr_resolve(const struct json_value *root, const char *ref, size_t len)
{
	const struct json_value *v = root;
	char tok[JPTR_TOKEN_MAX];
	size_t i = 0, tlen, idx;
	bool percent = false;

	if (root == NULL)
		return NULL;
	if (len > 0 && ref[0] == '#') {
		percent = true;
		i = 1;
	}
	if (i == len)
		return root; /* "" or "#" */
	if (ref[i] != '/')
		return NULL; /* "#foo" (an anchor) or "a/b" */
	/* Each round consumes a '/' and its token: at most len rounds. */
	while (i < len) {
		i++; /* the '/' */
		if (token_decode(ref, len, &i, percent, tok, &tlen) != 0)
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
	}
	return v;
}

void
jptr_init(struct jptr *p)
{
	p->buf[0] = '\0';
	p->len = 0;
	p->truncated = false;
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
