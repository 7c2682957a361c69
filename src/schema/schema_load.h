/*
 * schema_load.h: local copies of the resources a form refers to, found by
 * URI prefix (--refs URI-PREFIX=DIR, address.conf `refs`).
 *
 * A reference to PREFIX + REST reads DIR/REST.  REST must be a relative
 * path of plain segments: no "..", ".", empty segment, query, fragment,
 * percent sign or byte below 0x21, so a reference can never leave DIR.
 * Nothing is ever fetched from the network.
 */
#ifndef GPT_SCHEMA_LOAD_H
#define GPT_SCHEMA_LOAD_H

#include "base/common.h"

struct arena;
struct json_value;

#define SCHEMA_REFS_MAX 16		      /* prefixes */
#define SCHEMA_REF_FILE_MAX ((size_t)16 << 20) /* bytes of one document */

struct schema_refs {
	size_t n;
	struct {
		const char *prefix; /* borrowed: argv or the conf */
		size_t prefix_len;
		const char *dir; /* borrowed */
		size_t dir_len;
	} map[SCHEMA_REFS_MAX];
};

void schema_refs_init(struct schema_refs *r);

/* Add "URI-PREFIX=DIR" (arg is borrowed and must outlive r).  0, or -1
 * when it has no '=', an empty side, or the table is full. */
int schema_refs_add(struct schema_refs *r, const char *arg) GPT_MUSTCHECK;

/* Add prefix -> dir (both borrowed).  0, or -1 when the table is full. */
int schema_refs_add2(struct schema_refs *r, const char *prefix,
    size_t prefix_len, const char *dir, size_t dir_len) GPT_MUSTCHECK;

/* A schema_load_fn over the struct schema_refs at ctx: the longest
 * matching prefix wins. */
int schema_refs_load(void *ctx, const char *uri, size_t len, struct arena *a,
    const struct json_value **out, char *msg, size_t msglen);

#endif /* GPT_SCHEMA_LOAD_H */
