/*
 * json_write.c: the serializer (compact and indented) for trees built by
 * json_parse.
 *
 * Owns nothing; appends to the caller's buf, whose maximum bounds the
 * output.  No recursion and no allocation besides the buf: the walk keeps
 * its own stack of JSON_WRITE_MAX_DEPTH frames on the C stack, and a tree
 * nested deeper than that is refused (-1) rather than overflowing it.
 *
 * Output: numbers exactly as written, members in document order, strings
 * with '"', '\\' and control characters escaped (short escapes \b \f \n \r
 * \t where they exist, else \u00XX) and every other byte as it is (the tree
 * holds valid UTF-8 only; '/' stays unescaped).  So parsing the output
 * gives back the same tree.
 */
#include <errno.h>
#include <string.h>

#include "base/buf.h"
#include "parser/json.h"

/* Deepest tree written; json_parse's default limit is far below it. */
#define JSON_WRITE_MAX_DEPTH 1024

/* One container being written: which one, and its next child. */
struct json_wframe {
	const struct json_value *v; /* borrowed */
	size_t next;
};

static const char json_hex[] = "0123456789abcdef";

/* Append the escape for c: a quote, a backslash or a control byte. */
static int
put_escaped(struct buf *out, unsigned char c)
{
	char e[6] = {'\\', 'u', '0', '0', 0, 0};

	switch (c) {
	case '"':
		return buf_append(out, "\\\"", 2);
	case '\\':
		return buf_append(out, "\\\\", 2);
	case '\b':
		return buf_append(out, "\\b", 2);
	case '\f':
		return buf_append(out, "\\f", 2);
	case '\n':
		return buf_append(out, "\\n", 2);
	case '\r':
		return buf_append(out, "\\r", 2);
	case '\t':
		return buf_append(out, "\\t", 2);
	default:
		e[4] = json_hex[c >> 4];
		e[5] = json_hex[c & 0xF];
		return buf_append(out, e, 6);
	}
}

static int
put_string(struct buf *out, const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0, run;

	if (buf_putc(out, '"') == -1)
		return -1;
	while (i < n) {
		/* Copy the longest run that needs no escape in one append. */
		for (run = i; run < n && u[run] >= 0x20 && u[run] != '"' &&
		     u[run] != '\\';
		     run++)
			;
		if (run > i && buf_append(out, s + i, run - i) == -1)
			return -1;
		if ((i = run) < n) {
			if (put_escaped(out, u[i]) == -1)
				return -1;
			i++;
		}
	}
	return buf_putc(out, '"');
}

/* A newline and depth * indent spaces (nothing when indent is 0). */
static int
put_indent(struct buf *out, unsigned indent, size_t depth)
{
	size_t n, i;
	char *dst;

	if (indent == 0)
		return 0;
	if (!gpt_mul_size(depth, indent, &n) || !gpt_add_size(n, 1, &n) ||
	    (dst = buf_reserve(out, n)) == NULL)
		return -1;
	dst[0] = '\n';
	for (i = 1; i < n; i++)
		dst[i] = ' ';
	buf_commit(out, n);
	return 0;
}

/* A scalar, or the opening bracket of a container. */
static int
put_open(struct buf *out, const struct json_value *v)
{
	switch (v->type) {
	case JSON_T_NULL:
		return buf_append(out, "null", 4);
	case JSON_T_FALSE:
		return buf_append(out, "false", 5);
	case JSON_T_TRUE:
		return buf_append(out, "true", 4);
	case JSON_T_NUMBER:
		return buf_append(out, v->u.num.text, v->u.num.len);
	case JSON_T_STRING:
		return put_string(out, v->u.str.ptr, v->u.str.len);
	case JSON_T_ARRAY:
		return buf_putc(out, '[');
	case JSON_T_OBJECT:
		return buf_putc(out, '{');
	}
	return -1;
}

static bool
is_container(const struct json_value *v)
{
	return v->type == JSON_T_ARRAY || v->type == JSON_T_OBJECT;
}

static size_t
child_count(const struct json_value *v)
{
	return v->type == JSON_T_ARRAY ? v->u.arr.count : v->u.obj.count;
}

/*
 * Walk v depth first with an explicit stack.  Each frame is a container
 * whose opening bracket is written; `next` is its next child to write.
 */
static int
write_value(const struct json_value *v, unsigned indent, struct buf *out)
{
	struct json_wframe st[JSON_WRITE_MAX_DEPTH];
	size_t depth = 0;
	const struct json_value *c, *top;
	size_t i;

	if (put_open(out, v) == -1)
		return -1;
	if (!is_container(v))
		return 0;
	st[depth].v = v;
	st[depth++].next = 0;
	while (depth > 0) {
		top = st[depth - 1].v;
		i = st[depth - 1].next;
		if (i == child_count(top)) {
			depth--;
			if (i > 0 && put_indent(out, indent, depth) == -1)
				return -1;
			if (buf_putc(out, top->type == JSON_T_ARRAY ? ']' : '}') ==
			    -1)
				return -1;
			continue;
		}
		st[depth - 1].next = i + 1;
		if (i > 0 && buf_putc(out, ',') == -1)
			return -1;
		if (put_indent(out, indent, depth) == -1)
			return -1;
		if (top->type == JSON_T_ARRAY) {
			c = &top->u.arr.items[i];
		} else {
			const struct json_member *m = &top->u.obj.members[i];

			if (put_string(out, m->key.ptr, m->key.len) == -1 ||
			    buf_append(out, ": ", indent > 0 ? 2 : 1) == -1)
				return -1;
			c = &m->value;
		}
		if (put_open(out, c) == -1)
			return -1;
		if (is_container(c)) {
			if (depth == JSON_WRITE_MAX_DEPTH)
				return -1;
			st[depth].v = c;
			st[depth++].next = 0;
		}
	}
	return 0;
}

/* On failure, take back what was appended: out is as it was. */
static int
write_or_undo(const struct json_value *v, unsigned indent, struct buf *out)
{
	size_t len = buf_len(out);
	int saved;

	if (write_value(v, indent, out) == 0)
		return 0;
	/* Keep the reason (EMSGSIZE or ENOMEM) across the undo. */
	saved = errno;
	(void)buf_trunc(out, len); /* len is within out: cannot fail */
	errno = saved;
	return -1;
}

int
json_write(const struct json_value *v, struct buf *out)
{
	return write_or_undo(v, 0, out);
}

int
json_write_pretty(const struct json_value *v, unsigned indent, struct buf *out)
{
	return write_or_undo(v, indent, out);
}
