/*
 * jptr.h: JSON Pointer (RFC 6901) for $ref resolution and error reports.
 *
 * Resolution accepts the URI-fragment form used by $ref ("#", "#/a/b":
 * the fragment is percent-decoded first, then split on '/' and each token
 * ~1/~0-unescaped, RFC 6901 section 6) and the plain form ("/a/b").
 * Building appends escaped tokens to a fixed-size buffer; a pointer that
 * does not fit is cut and ends in "..." (reports stay bounded).
 */
#ifndef GPT_JPTR_H
#define GPT_JPTR_H

#include "base/common.h"

struct json_value;

#define JPTR_MAX 512 /* bytes of a reported pointer, NUL included */
#define JPTR_TOKEN_MAX 1024 /* bytes of one decoded token in jptr_resolve */

/*
 * The value that ref (len bytes) points to inside root, or NULL when it is
 * malformed (bad escape, bad percent-encoding, array index with a leading
 * zero or '-', a token over JPTR_TOKEN_MAX bytes) or names nothing.  ref is "#..." or "/...", or "" for root.
 */
const struct json_value *jptr_resolve(const struct json_value *root,
    const char *ref, size_t len);

/* A bounded pointer under construction. */
struct jptr {
	char buf[JPTR_MAX];
	size_t len;	/* bytes in buf, NUL excluded */
	bool truncated; /* some token did not fit */
};

/*
 * Set *p to the JSON Pointer that the URI fragment reference ref (len
 * bytes, "#" then the fragment) stands for: the fragment percent-decoded
 * (RFC 6901 section 6), its ~0 and ~1 escapes kept, cut with "..." past
 * JPTR_MAX like a built pointer.  0; or -1, *p untouched, when ref does
 * not start with '#', a '%' lacks two hex digits after it, or a '~' a 0 or
 * 1.  A pointer is then empty ("#") or starts with '/'; anything else
 * ("#anchor", "#%41") is a name, not a pointer.
 */
int jptr_from_fragment(struct jptr *p, const char *ref, size_t len)
    GPT_MUSTCHECK;

void jptr_init(struct jptr *p);

/* Append "/" + token escaped (~ as ~0, / as ~1).  Returns the previous
 * length, for jptr_pop. */
size_t jptr_push(struct jptr *p, const char *token, size_t len);

/* Append "/" + decimal index. */
size_t jptr_push_index(struct jptr *p, size_t index);

/* Cut back to a length returned by push. */
void jptr_pop(struct jptr *p, size_t len);

#endif /* GPT_JPTR_H */
