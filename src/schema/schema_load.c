/*
 * schema_load.c: documents for references from local directories
 * (schema_load.h).
 *
 * Owns nothing: the text and the tree go to the form's arena.  Reads a
 * regular file beneath its directory, through no symbolic link, of at most
 * SCHEMA_REF_FILE_MAX bytes (file_read_beneath); parses strictly.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "base/arena.h"
#include "base/file.h"
#include "parser/json.h"
#include "schema/schema_load.h"

void
schema_refs_init(struct schema_refs *r)
{
	memset(r, 0, sizeof(*r));
}

int
schema_refs_add2(struct schema_refs *r, const char *prefix, size_t prefix_len,
    const char *dir, size_t dir_len)
{
	if (r->n >= SCHEMA_REFS_MAX + (size_t)r->extra || prefix_len == 0 ||
	    dir_len == 0)
		return -1;
	r->map[r->n].prefix = prefix;
	r->map[r->n].prefix_len = prefix_len;
	r->map[r->n].dir = dir;
	r->map[r->n].dir_len = dir_len;
	r->map[r->n].sub = "";
	r->map[r->n].sub_len = 0;
	r->n++;
	return 0;
}

/* The mapping past SCHEMA_REFS_MAX. */
static int
refs_extra(struct schema_refs *r, const char *prefix, const char *dir)
{
	if (r->extra)
		return -1;
	r->extra = true;
	if (schema_refs_add2(r, prefix, strlen(prefix), dir, strlen(dir)) == 0)
		return 0;
	r->extra = false;
	return -1;
}

int
schema_refs_local(struct schema_refs *r, const char *prefix, const char *dir)
{
	return refs_extra(r, prefix, dir);
}

int
schema_refs_files(struct schema_refs *r)
{
	return refs_extra(r, "file:///", "/");
}

int
schema_refs_add_beneath(struct schema_refs *r, const char *prefix,
    size_t prefix_len, const char *base, size_t base_len, const char *sub,
    size_t sub_len)
{
	if (schema_refs_add2(r, prefix, prefix_len, base, base_len) == -1)
		return -1;
	r->map[r->n - 1].sub = sub;
	r->map[r->n - 1].sub_len = sub_len;
	return 0;
}

int
schema_refs_add(struct schema_refs *r, const char *arg)
{
	const char *eq = strrchr(arg, '=');

	/* "--refs http://x/" (no directory) */
	if (eq == NULL)
		return -1;
	return schema_refs_add2(
	    r, arg, (size_t)(eq - arg), eq + 1, strlen(eq + 1));
}

/* true when rest is a relative path of plain segments. */
static bool
plain_path(const char *rest, size_t len)
{
	size_t i, seg = 0;

	if (len == 0)
		return false;
	for (i = 0; i <= len; i++) {
		if (i == len || rest[i] == '/') {
			/* "a//b", "../x", "./x" */
			if (i == seg || (i - seg == 1 && rest[seg] == '.') ||
			    (i - seg == 2 && rest[seg] == '.' &&
			        rest[seg + 1] == '.'))
				return false;
			seg = i + 1;
			continue;
		}
		if ((unsigned char)rest[i] < 0x21 || rest[i] == 0x7f ||
		    rest[i] == '%' || rest[i] == '?' || rest[i] == '#' ||
		    rest[i] == '\\')
			return false;
	}
	return true;
}

int
schema_refs_load(void *ctx, const char *uri, size_t len, struct arena *a,
    const struct json_value **out, char *msg, size_t msglen)
{
	const struct schema_refs *r = ctx;
	size_t i, best = SIZE_MAX, plen = 0, got = 0, rlen, n;
	char base[4096], path[4096], why[FILE_WHY_MAX];
	struct json_err jerr;
	const char *text;

	for (i = 0; i < r->n; i++)
		if (r->map[i].prefix_len <= len &&
		    memcmp(r->map[i].prefix, uri, r->map[i].prefix_len) == 0 &&
		    (best == SIZE_MAX || r->map[i].prefix_len > plen)) {
			best = i;
			plen = r->map[i].prefix_len;
		}
	if (best == SIZE_MAX)
		return 1;
	rlen = len - plen;
	/* "http://localhost:1234/../etc/passwd" */
	if (!plain_path(uri + plen, rlen) ||
	    r->map[best].dir_len + 1 > sizeof(base) ||
	    r->map[best].sub_len + rlen + 2 > sizeof(path)) {
		snprintf(msg, msglen,
		    "not a plain relative path under the "
		    "prefix");
		return -1;
	}
	/* base/sub/REST, read beneath base */
	memcpy(base, r->map[best].dir, r->map[best].dir_len);
	base[r->map[best].dir_len] = '\0';
	n = r->map[best].sub_len;
	memcpy(path, r->map[best].sub, n);
	if (n > 0)
		path[n++] = '/';
	memcpy(path + n, uri + plen, rlen);
	n += rlen;
	if (r->seen != NULL) {
		char full[8192 + 2];

		snprintf(full, sizeof(full), "%s%s%.*s", base,
		    base[r->map[best].dir_len - 1] == '/' ? "" : "/", (int)n,
		    path);
		r->seen(r->seen_ctx, full);
	}
	if (file_read_beneath(base, path, n, SCHEMA_REF_FILE_MAX, a, &text,
	        &got, why, sizeof(why)) == -1) {
		/* the operator's copy is missing: say where it was looked
		 * for (hits on a refs directory without that file) */
		if (errno == ENOENT)
			snprintf(msg, msglen, "no file %s%s%.*s", base,
			    base[r->map[best].dir_len - 1] == '/' ? "" : "/",
			    (int)n, path);
		else
			snprintf(msg, msglen, "%s", why);
		return -1;
	}
	if (json_parse(text, got, a, 0, out, &jerr) != JSON_OK) {
		snprintf(msg, msglen, "byte %zu: %s", jerr.offset,
		    jerr.msg != NULL ? jerr.msg : json_errstr(jerr.code));
		return -1;
	}
	return 0;
}
