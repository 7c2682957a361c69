/*
 * links.h: the links of a form (form.json's member "links"), as RFC 8288
 * reads them: a list of {rel, href, title}, where rel is one relation type
 * (a registered one, by its token grammar, or an absolute URI), href a URI
 * reference and title text for whoever reads it.
 *
 * Owns nothing: links borrow the loaded document's strings.  The arrival
 * schema has already checked the shape (an array of at most LINKS_MAX
 * objects with string rel and href); links_check checks what a schema
 * cannot say: the grammar of rel and href and a link's size.  Which
 * address a relative href names (links_target) is what --check and
 * --graph follow: a link is never fetched.
 */
#ifndef GPT_LINKS_H
#define GPT_LINKS_H

#include <stddef.h>

#include "base/common.h"

struct json_value;

#define LINKS_MAX 64        /* links of one form */
#define LINK_BYTES_MAX 2048 /* rel, href and title of one link, together */
#define LINKS_WHY_MAX 160
#define LINKS_PTR_MAX 48

/* One link, borrowed from the document (title_len 0 when it has none). */
struct link {
	const char *rel, *href, *title;
	size_t rel_len, href_len, title_len;
};

/*
 * Check doc's links (a document the arrival schema accepted; no links
 * member is none).  0, or -1 with the JSON Pointer of the offending value
 * ("/links/3/rel") in ptr and the reason in why.
 */
int links_check(const struct json_value *doc, char *ptr, size_t ptrlen,
    char *why, size_t whylen) GPT_MUSTCHECK;

/* How many links doc has, and the i-th of them (i < links_count). */
size_t links_count(const struct json_value *doc);
void links_get(const struct json_value *doc, size_t i, struct link *out);

/* Where a link's href leads, seen from an address under a root. */
enum links_target {
	LINKS_T_SELF,    /* "", "#x", "?q", "./": the address itself */
	LINKS_T_SIBLING, /* "name": the address name under the same root */
	LINKS_T_OUTSIDE, /* absolute, or a path out of the root: not ours */
	LINKS_T_NOWHERE, /* under the root but no address name ("a/b") */
};

/*
 * Resolve href (len bytes, a valid URI reference) against an address
 * whose URL is ROOT/name: relative references of one path segment name a
 * sibling, whose name is written to name (namelen bytes, NUL-terminated).
 */
enum links_target links_target(
    const char *href, size_t len, char *name, size_t namelen);

/* Is rel (len bytes) one relation type: reg-rel-type (RFC 8288 section
 * 3.3: a lowercase letter, then lowercase letters, digits, "." and "-")
 * or an absolute URI? */
bool links_rel_ok(const char *rel, size_t len);

#endif /* GPT_LINKS_H */
