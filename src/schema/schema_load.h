/*
 * schema_load.h: local copies of the resources a form refers to, found by
 * URI prefix (--refs URI-PREFIX=DIR, address.conf `refs`).
 *
 * A reference to PREFIX + REST reads DIR/REST.  REST must be a relative
 * path of plain segments: no "..", ".", empty segment, query, fragment,
 * percent sign or byte below 0x21, so a reference can never leave DIR;
 * and no component below DIR is followed through a symbolic link
 * (file_read_beneath).  An address's DIR is SUB inside the address
 * directory (schema_refs_add_beneath), so no component of SUB is either.
 * Nothing is ever fetched from the network.
 */
#ifndef GPT_SCHEMA_LOAD_H
#define GPT_SCHEMA_LOAD_H

#include "base/common.h"

struct arena;
struct json_value;

#define SCHEMA_REFS_MAX 16                     /* prefixes */
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
		const char *dir; /* borrowed: links in it are followed */
		size_t dir_len;
		const char *sub; /* borrowed: "" or a path beneath dir */
		size_t sub_len;
	} map[SCHEMA_REFS_MAX + 1];
	/* the one mapping past SCHEMA_REFS_MAX is taken (schema_refs_local,
	 * schema_refs_files) */
	bool extra;
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

/* Add prefix -> base/sub (all borrowed): sub (a relative path of plain
 * segments) is inside base, and no link in it is followed.  0, or -1 when
 * the table is full. */
int schema_refs_add_beneath(struct schema_refs *r, const char *prefix,
    size_t prefix_len, const char *base, size_t base_len, const char *sub,
    size_t sub_len) GPT_MUSTCHECK;

/* Map prefix to dir (both borrowed, dir read beneath as every DIR is):
 * the files beside a form, in its address directory.  The one mapping
 * besides the SCHEMA_REFS_MAX of schema_refs_add2.  0, or -1 when it is
 * taken. */
int schema_refs_local(
    struct schema_refs *r, const char *prefix, const char *dir) GPT_MUSTCHECK;

/* Map "file:///" to "/": a schema file the operator names on the command
 * line has its file: URI (its real path) as base, and its relative
 * references read the files they name, in any directory (the operator
 * named the file).  Takes the slot schema_refs_local would.  0, or -1
 * when it is taken. */
int schema_refs_files(struct schema_refs *r) GPT_MUSTCHECK;

/* A schema_load_fn over the struct schema_refs at ctx: the longest
 * matching prefix wins.  1 when no prefix matches; a prefix that matches
 * but whose file is missing is -1, msg naming the path looked for. */
int schema_refs_load(void *ctx, const char *uri, size_t len, struct arena *a,
    const struct json_value **out, char *msg, size_t msglen);

#endif /* GPT_SCHEMA_LOAD_H */
