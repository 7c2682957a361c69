/*
 * json_out.h: a JSON text built in pieces by the operator tools' rewrites
 * (--unroll, --strict-openai) and the sampler, with one sticky failure
 * flag: once an append is refused (the buf's maximum, or memory) every
 * later piece is skipped and nomem says so, so a walk checks once at the
 * end instead of after every piece.
 *
 * Owns nothing: out is the caller's buf.  Not thread-safe per writer.
 */
#ifndef GPT_JSON_OUT_H
#define GPT_JSON_OUT_H

#include <stdbool.h>
#include <stddef.h>

struct buf;
struct json_string;
struct json_value;

struct json_out {
	struct buf *out; /* borrowed */
	bool nomem;      /* an append was refused: the text is cut */
};

/* Append n bytes of p. */
void json_out_put(struct json_out *w, const void *p, size_t n);

/* Append the C string s. */
void json_out_puts(struct json_out *w, const char *s);

/* Append v, compact (json_write). */
void json_out_value(struct json_out *w, const struct json_value *v);

/* Append the JSON string of the len bytes at s (valid UTF-8). */
void json_out_string(struct json_out *w, const char *s, size_t len);

/* Append k as a member name, then ':'. */
void json_out_key(struct json_out *w, const struct json_string *k);

#endif /* GPT_JSON_OUT_H */
