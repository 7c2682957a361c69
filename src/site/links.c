/*
 * links.c: a form's links checked and read, and where a relative href
 * leads (links.h).
 *
 * Owns nothing.  Refuses: a rel that is neither a relation type token nor
 * an absolute URI, an href that is no URI reference, a link over
 * LINK_BYTES_MAX bytes, more than LINKS_MAX links (the arrival schema
 * refuses those first), control characters in a title (a title goes into
 * a header field, encoded, and onto the page).
 */
#include <stdio.h>
#include <string.h>

#include "site/links.h"
#include "parser/json.h"
#include "parser/uri.h"

static const struct json_value *
links_array(const struct json_value *doc)
{
	const struct json_value *l = json_object_get(doc, "links", 5);

	return l != NULL && l->type == JSON_T_ARRAY ? l : NULL;
}

size_t
links_count(const struct json_value *doc)
{
	const struct json_value *l = links_array(doc);

	return l != NULL ? l->u.arr.count : 0;
}

static void
links_str(
    const struct json_value *o, const char *key, const char **p, size_t *len)
{
	const struct json_value *v = json_object_get(o, key, strlen(key));

	*p = "";
	*len = 0;
	if (v != NULL && v->type == JSON_T_STRING) {
		*p = v->u.str.ptr;
		*len = v->u.str.len;
	}
}

void
links_get(const struct json_value *doc, size_t i, struct link *out)
{
	const struct json_value *o = &links_array(doc)->u.arr.items[i];

	links_str(o, "rel", &out->rel, &out->rel_len);
	links_str(o, "href", &out->href, &out->href_len);
	/* a link member, RFC 8288's target attribute */
	links_str(o, "title", &out->title, &out->title_len); /* not-a-keyword */
}

bool
links_rel_ok(const char *rel, size_t len)
{
	struct uri u;
	size_t i;

	if (len == 0)
		return false;
	if (rel[0] >= 'a' && rel[0] <= 'z') {
		/* bounded by len */
		for (i = 1; i < len; i++) {
			char c = rel[i];

			if (!((c >= 'a' && c <= 'z') ||
			        (c >= '0' && c <= '9') || c == '.' || c == '-'))
				break;
		}
		if (i == len)
			return true;
	}
	/* an extension relation type: an absolute URI ("https://x/rel") */
	return uri_parse(rel, len, URI_ABSOLUTE, &u) == 0;
}

/* Does s (len bytes) hold a control character (C0 or DEL)? */
static bool
links_has_ctl(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
			return true;
	return false;
}

int
links_check(const struct json_value *doc, char *ptr, size_t ptrlen, char *why,
    size_t whylen)
{
	const struct json_value *l = links_array(doc);
	struct link k;
	struct uri u;
	size_t i;

	if (l == NULL)
		return 0;
	if (l->u.arr.count > LINKS_MAX) {
		snprintf(ptr, ptrlen, "/links");
		snprintf(why, whylen, "more than %d links", LINKS_MAX);
		return -1;
	}
	/* bounded by LINKS_MAX */
	for (i = 0; i < l->u.arr.count; i++) {
		links_get(doc, i, &k);
		if (k.rel_len + k.href_len + k.title_len > LINK_BYTES_MAX) {
			/* hits on an href of 3000 bytes */
			snprintf(ptr, ptrlen, "/links/%zu", i);
			snprintf(why, whylen,
			    "a link over %d bytes (rel, href and title)",
			    LINK_BYTES_MAX);
			return -1;
		}
		if (!links_rel_ok(k.rel, k.rel_len)) {
			/* hits on "Next Page", "", "ex:" is fine */
			snprintf(ptr, ptrlen, "/links/%zu/rel", i);
			snprintf(why, whylen,
			    "not a relation type (RFC 8288: a lowercase "
			    "token or an absolute URI)");
			return -1;
		}
		if (uri_parse(k.href, k.href_len, 0, &u) == -1) {
			/* hits on "a b", "<x>", "%zz" */
			snprintf(ptr, ptrlen, "/links/%zu/href", i);
			snprintf(why, whylen, "not a URI reference (RFC 3986)");
			return -1;
		}
		if (links_has_ctl(k.title, k.title_len)) {
			snprintf(ptr, ptrlen, "/links/%zu/title", i);
			snprintf(why, whylen, "a control character in a title");
			return -1;
		}
	}
	return 0;
}

enum links_target
links_target(const char *href, size_t len, char *name, size_t namelen)
{
	struct uri u;
	const char *p;
	size_t n;

	if (uri_parse(href, len, 0, &u) == -1 || u.has_scheme ||
	    u.has_authority)
		return LINKS_T_OUTSIDE;
	p = u.path.ptr != NULL ? u.path.ptr : "";
	n = u.path.len;
	/* "./x" and "./" are "x" and "" */
	while (n >= 2 && p[0] == '.' && p[1] == '/') {
		p += 2;
		n -= 2;
	}
	if (n == 0 || (n == 1 && p[0] == '.'))
		return LINKS_T_SELF;
	/* "/x": the web server's path, not the root's; "../x": out of it */
	if (p[0] == '/' || (n >= 2 && p[0] == '.' && p[1] == '.'))
		return LINKS_T_OUTSIDE;
	if (memchr(p, '/', n) != NULL || n >= namelen)
		return LINKS_T_NOWHERE;
	memcpy(name, p, n);
	name[n] = '\0';
	return LINKS_T_SIBLING;
}
