/*
 * schema_load.h: local copies of the resources a form refers to, found by
 * URI prefix (--refs URI-PREFIX=DIR, address.conf `refs`).
 *
 * A reference to PREFIX + REST reads DIR/REST.  REST must be a relative
 * path of plain segments: no "..", ".", empty segment, query, fragment,
 * percent sign or byte below 0x21, so a reference can never leave DIR.
 * Nothing is ever fetched from the network.  The files beside a form (its
 * address directory, schema_refs_local) are read with no symbolic link
 * followed on the way either.
 */
#ifndef GPT_SCHEMA_LOAD_H
#define GPT_SCHEMA_LOAD_H

#include "base/common.h"

struct arena;
struct json_value;

#define SCHEMA_REFS_MAX 16		      /* prefixes */
#define SCHEMA_REF_FILE_MAX ((size_t)16 << 20) /* bytes of one document */

/* Told the path of each file schema_refs_load is about to read (before
 * it reads, so a stamp taken then shows any later change), whether or
 * not it exists. */
typedef void (*schema_refs_seen_fn)(void *ctx, const char *path);

struct schema_refs {
	size_t n;
	struct {
		const char *prefix; /* borrowed: argv or the conf */
		size_t prefix_len;
		const char *dir; /* borrowed */
		size_t dir_len;
		/* no symbolic link followed below dir (file_read_arena_under):
		 * the files beside a form, in its address directory */
		bool confined;
	} map[SCHEMA_REFS_MAX + 1];
	schema_refs_seen_fn seen; /* or NULL */
	void *seen_ctx;
};

/* The form's own location when it is an address's form.json, as a base
 * URI: relative references and a relative $id resolve against it, and
 * what they name under SCHEMA_ADDRESS_PREFIX is read from the address
 * directory (schema_refs_local).  "../x.json" resolves above the prefix
 * and so names nothing. */
#define SCHEMA_ADDRESS_PREFIX "gpt-address:/address/"
#define SCHEMA_ADDRESS_BASE SCHEMA_ADDRESS_PREFIX "form.json"

void schema_refs_init(struct schema_refs *r);

/* Add "URI-PREFIX=DIR" (arg is borrowed and must outlive r).  0, or -1
 * when it has no '=', an empty side, or the table is full. */
int schema_refs_add(struct schema_refs *r, const char *arg) GPT_MUSTCHECK;

/* Add prefix -> dir (both borrowed).  0, or -1 when the table is full. */
int schema_refs_add2(struct schema_refs *r, const char *prefix,
    size_t prefix_len, const char *dir, size_t dir_len) GPT_MUSTCHECK;

/* Map prefix to dir (both borrowed) with no symbolic link followed below
 * dir: the files beside a form.  One such mapping besides the
 * SCHEMA_REFS_MAX of schema_refs_add2.  0, or -1 when it is taken. */
int schema_refs_local(struct schema_refs *r, const char *prefix,
    const char *dir) GPT_MUSTCHECK;

/* Map "file:///" to "/": a schema file the operator names on the command
 * line has its file: URI as base, and its relative references read the
 * files they name, in any directory (the operator named the file).  Takes
 * the slot schema_refs_local would.  0, or -1 when it is taken. */
int schema_refs_files(struct schema_refs *r) GPT_MUSTCHECK;

/* A schema_load_fn over the struct schema_refs at ctx: the longest
 * matching prefix wins. */
int schema_refs_load(void *ctx, const char *uri, size_t len, struct arena *a,
    const struct json_value **out, char *msg, size_t msglen);

#endif /* GPT_SCHEMA_LOAD_H */
