/*
 * rootindex.c: the index of a root for people (rootindex.h).
 *
 * Owns nothing past one request: the names read, the body and the head
 * are buffers freed before it returns.  Refuses: nothing itself; what is
 * not listed (hidden or invalid names, directories that are no address,
 * addresses that do not load) is left out, and a root.conf that does not
 * parse turns the index off with an error in the log.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/log.h"
#include "parser/json.h"
#include "responder/rootindex.h"
#include "site/addr_cache.h"
#include "site/conf.h"
#include "web/html.h"

/* The page has no script and no style: nothing to allow. */
static const char rootindex_csp[] =
    "default-src 'none'; base-uri 'none'; form-action 'none'; "
    "frame-ancestors 'none'";

static int
rootindex_cmp(const void *x, const void *y)
{
	return strcmp(*(const char *const *)x, *(const char *const *)y);
}

/* The names of root's entries that may be addresses, sorted: at most
 * ROOTINDEX_SCAN_MAX entries read.  The count, or -1. */
static long
rootindex_names(const char *root, struct buf *store, const char ***names)
{
	struct dirent *e;
	size_t n = 0, i, scanned = 0, *off;
	DIR *d;

	*names = NULL;
	if ((d = opendir(root)) == NULL)
		return -1;
	if ((off = calloc(ROOTINDEX_SCAN_MAX, sizeof(*off))) == NULL) {
		closedir(d);
		return -1;
	}
	while (scanned < ROOTINDEX_SCAN_MAX && (e = readdir(d)) != NULL) {
		scanned++;
		/* hits on ".", "..", ".staging", "a b" */
		if (!addr_name_ok(e->d_name) ||
		    (e->d_type != DT_DIR && e->d_type != DT_LNK &&
		        e->d_type != DT_UNKNOWN))
			continue;
		off[n] = buf_len(store);
		if (buf_append(store, e->d_name, strlen(e->d_name) + 1) == -1)
			break;
		n++;
	}
	closedir(d);
	if (n > 0 && (*names = calloc(n, sizeof(**names))) == NULL) {
		free(off);
		return -1;
	}
	for (i = 0; i < n; i++)
		(*names)[i] = buf_ptr(store) + off[i];
	free(off);
	if (n > 0)
		qsort(*names, n, sizeof(**names), rootindex_cmp);
	return (long)n;
}

/* The first sentence of p: up to a '.', '!' or '?' followed by a blank
 * or the end, or the first line; at most ROOTINDEX_SUMMARY_MAX bytes,
 * cut on a character.  Its length; *cut when shortened by the cap. */
static size_t
rootindex_sentence(const char *p, size_t len, bool *cut)
{
	size_t i;

	*cut = false;
	for (i = 0; i < len && i < ROOTINDEX_SUMMARY_MAX; i++) {
		if (p[i] == '\n')
			return i;
		if ((p[i] == '.' || p[i] == '!' || p[i] == '?') &&
		    (i + 1 == len || p[i + 1] == ' ' || p[i + 1] == '\n'))
			return i + 1;
	}
	if (i == len)
		return len;
	*cut = true;
	while (i > 0 && ((unsigned char)p[i] & 0xC0) == 0x80)
		i--;
	return i;
}

struct rootindex_out {
	struct buf json, html;
	size_t listed;
	bool truncated, nomem;
};

/* One address into both bodies: the JSON member and the page's item. */
static void
rootindex_put(struct rootindex_out *x, const char *href, const char *name,
    const char *sum, size_t sumlen, bool cut)
{
	struct buf *j = &x->json, *h = &x->html;

	if (x->nomem)
		return;
	/* the ellipsis goes inside the summary's closing quote */
	if ((x->listed > 0 && buf_putc(j, ',') == -1) ||
	    buf_puts(j, "{\"name\":") == -1 ||
	    json_write_string(j, name, strlen(name)) == -1 ||
	    buf_puts(j, ",\"href\":") == -1 ||
	    json_write_string(j, href, strlen(href)) == -1 ||
	    buf_puts(j, ",\"summary\":") == -1 ||
	    json_write_string(j, sum, sumlen) == -1 ||
	    (cut && (buf_trunc(j, buf_len(j) - 1) == -1 ||
	                buf_puts(j, "\xe2\x80\xa6\"") == -1)) ||
	    buf_putc(j, '}') == -1)
		x->nomem = true;
	if (x->nomem || buf_puts(h, "<li><a href=\"") == -1 ||
	    html_escape(href, strlen(href), h) == -1 ||
	    buf_puts(h, "\">") == -1 ||
	    html_escape(name, strlen(name), h) == -1 ||
	    buf_puts(h, "</a>") == -1 ||
	    (sumlen > 0 && (buf_puts(h, " \xe2\x80\x94 ") == -1 ||
	                       html_escape(sum, sumlen, h) == -1 ||
	                       (cut && buf_puts(h, "\xe2\x80\xa6") == -1))) ||
	    buf_puts(h, "</li>\n") == -1)
		x->nomem = true;
	x->listed++;
}

/* Where the root was asked for, to which each name is joined: the path
 * of REQUEST_URI (no query), with a slash at its end. */
static int
rootindex_base(const struct http_req *req, struct buf *base)
{
	const char *u = req->request_uri;
	size_t n = 0;

	if (u != NULL)
		while (u[n] != '\0' && u[n] != '?' && u[n] != '#')
			n++;
	if (buf_append(base, u != NULL ? u : "", n) == -1)
		return -1;
	if (n == 0 || u[n - 1] != '/')
		return buf_putc(base, '/');
	return 0;
}

/* Write one of the two bodies with its head, or a 304. */
static int
rootindex_write(const struct http_req *req, const struct buf *body,
    const char *ctype, const char *csp, struct http_writer *out,
    enum http_outcome *o)
{
	char etag[HTTP_ETAG_MAX];
	struct buf head;
	int rc;

	http_etag(buf_ptr(body), buf_len(body), etag);
	buf_init(&head, 4096);
	if (req->if_none_match != NULL &&
	    http_etag_match(req->if_none_match, etag, true)) {
		*o = HTTP_O_NOT_MODIFIED;
		rc = http_head_not_modified(&head, etag) == -1
		         ? -1
		         : out->write(out->ctx, buf_ptr(&head), buf_len(&head));
		buf_free(&head);
		return rc;
	}
	*o = HTTP_O_ARRIVAL;
	if (http_head_ok(&head, ctype, etag, buf_len(body), NULL, csp, NULL) ==
	    -1) {
		buf_free(&head);
		*o = HTTP_O_SERVER;
		return http_reply(out, HTTP_O_SERVER);
	}
	rc = out->write(out->ctx, buf_ptr(&head), buf_len(&head));
	if (rc == 0 && req->method != HTTP_M_HEAD)
		rc = out->write(out->ctx, buf_ptr(body), buf_len(body));
	buf_free(&head);
	return rc;
}

bool
rootindex_serve(const char *root, const struct http_req *req,
    addr_derive_fn derive, struct http_writer *out, enum http_outcome *o,
    int *rc)
{
	char err[CONF_ERR_MAX + PATH_MAX];
	struct rootindex_out x;
	struct conf_root rc_conf;
	struct buf path, store, base, *body;
	const char **names = NULL;
	long n = 0;
	size_t i;
	bool html;

	if (req->method != HTTP_M_GET && req->method != HTTP_M_HEAD)
		return false;
	buf_init(&path, PATH_MAX);
	if (buf_printf(&path, "%s/%s", root, CONF_ROOT_FILE) == -1) {
		buf_free(&path);
		return false;
	}
	if (conf_root_load(buf_ptr(&path), &rc_conf, err, sizeof(err)) == -1) {
		/* hits on "index = maybe" */
		log_error("%s refused, so the root lists nothing: %s",
		    buf_ptr(&path), err);
		buf_free(&path);
		return false;
	}
	if (!rc_conf.index) {
		buf_free(&path);
		return false;
	}
	memset(&x, 0, sizeof(x));
	buf_init(&x.json, (size_t)4 << 20);
	buf_init(&x.html, (size_t)4 << 20);
	buf_init(&store, (size_t)ROOTINDEX_SCAN_MAX * (ADDR_NAME_MAX + 1));
	buf_init(&base, PATH_MAX);
	if (rootindex_base(req, &base) == -1 ||
	    (n = rootindex_names(root, &store, &names)) < 0)
		x.nomem = true;
	else if (buf_puts(&x.json, "{\"addresses\":[") == -1 ||
	         buf_puts(&x.html,
	             "<!DOCTYPE html>\n<html lang=\"en\"><head><meta "
	             "charset=\"utf-8\"><meta name=\"viewport\" "
	             "content=\"width=device-width, initial-scale=1\">"
	             "<title>Addresses</title></head>\n<body><h1>Addresses"
	             "</h1>\n<ul>\n") == -1)
		x.nomem = true;
	for (i = 0; !x.nomem && names != NULL && i < (size_t)n; i++) {
		struct addr_ref ref;
		const struct addr *a;
		const struct json_value *p;
		const char *why, *sum = "";
		size_t baselen = buf_len(&base), sumlen = 0;
		bool cut = false;

		if (x.listed == ROOTINDEX_MAX) {
			x.truncated = true;
			break;
		}
		memset(&ref, 0, sizeof(ref));
		if ((size_t)snprintf(ref.dir, sizeof(ref.dir), "%s/%s", root,
		        names[i]) >= sizeof(ref.dir))
			continue;
		ref.root_len = strlen(root);
		a = addr_cache_lookup(&ref, derive, &why);
		/* hits on a directory without form.json, a refused form */
		if (a == NULL || !a->ok || a->doc == NULL)
			continue;
		p = json_object_get(a->doc, "p", 1);
		if (p != NULL && p->type == JSON_T_STRING) {
			sum = p->u.str.ptr;
			sumlen = rootindex_sentence(sum, p->u.str.len, &cut);
		}
		if (buf_puts(&base, names[i]) == -1) {
			x.nomem = true;
			break;
		}
		rootindex_put(&x, buf_ptr(&base), names[i], sum, sumlen, cut);
		(void)buf_trunc(&base, baselen);
	}
	if (!x.nomem &&
	    (buf_printf(&x.json, "],\"truncated\":%s}",
	         x.truncated ? "true" : "false") == -1 ||
	        buf_printf(&x.html, "</ul>\n%s</body></html>\n",
	            x.listed == 0 ? "<p>No address is listed here.</p>\n"
	            : x.truncated ? "<p>The list stops here: there are "
	                            "more.</p>\n"
	                          : "") == -1))
		x.nomem = true;
	html = http_wants_html(req->accept);
	body = html ? &x.html : &x.json;
	if (x.nomem) {
		log_error("the index of %s could not be built", root);
		*o = HTTP_O_SERVER;
		*rc = http_reply(out, HTTP_O_SERVER);
	} else
		*rc = rootindex_write(req, body,
		    html ? "text/html; charset=utf-8" : "application/json",
		    html ? rootindex_csp : NULL, out, o);
	free(names);
	buf_free(&base);
	buf_free(&store);
	buf_free(&x.html);
	buf_free(&x.json);
	buf_free(&path);
	return true;
}
