/*
 * answer.c: an address's precomputed answers (see answer.h).
 *
 * Owns nothing of its own: everything is built in a buf, then copied into
 * the address's arena, which the address cache frees with the load it
 * was built from.  Refuses nothing; fails only when memory runs out.
 */
#include <stdio.h>
#include <string.h>

#include "site/address.h"
#include "site/store.h"
#include "responder/answer.h"
#include "base/buf.h"
#include "web/html.h"
#include "parser/json.h"
#include "site/links.h"

/* Copy a built answer into the arena. */
static int
answer_keep(
    struct addr *a, struct answer *ans, const struct buf *b, size_t head_len)
{
	char *p;

	if ((p = arena_alloc(&a->arena, buf_len(b))) == NULL)
		return -1;
	memcpy(p, buf_ptr(b), buf_len(b));
	ans->bytes = p;
	ans->len = buf_len(b);
	ans->head_len = head_len;
	return 0;
}

/*
 * The Link field lines of a's links (RFC 8288), in document order, into
 * out, up to HTTP_LINK_FIELDS_MAX bytes: the links past it are in the
 * document only (--check says so).  0, or -1 when memory runs out.
 */
static int
answer_links(const struct addr *a, struct buf *out)
{
	size_t i, n = links_count(a->doc), keep;
	struct link k;

	/* bounded by LINKS_MAX */
	for (i = 0; i < n; i++) {
		keep = buf_len(out);
		links_get(a->doc, i, &k);
		if (http_link_field(out, k.href, k.href_len, k.rel, k.rel_len,
		        k.title, k.title_len) == -1)
			return -1;
		if (buf_len(out) >= HTTP_LINK_FIELDS_MAX) {
			(void)buf_trunc(out, keep);
			break;
		}
	}
	return 0;
}

/* Build head + body for one representation, and its 304. */
static int
answer_pair(struct addr *a, const char *ctype, const char *csp,
    const struct buf *body, char *etag, struct answer *ok, struct answer *nm)
{
	struct buf b, link;
	size_t head;
	int rc = -1;

	buf_init(&b, buf_len(body) + 4096);
	buf_init(&link, HTTP_LINK_FIELDS_MAX + LINK_BYTES_MAX * 4);
	http_etag(buf_ptr(body), buf_len(body), etag);
	if (answer_links(a, &link) == -1 ||
	    http_head_ok(&b, ctype, etag, buf_len(body), a->conf.type, csp,
	        buf_len(&link) > 0 ? buf_ptr(&link) : NULL) == -1)
		goto done;
	head = buf_len(&b);
	if (buf_append(&b, buf_ptr(body), buf_len(body)) == -1 ||
	    answer_keep(a, ok, &b, head) == -1)
		goto done;
	buf_reset(&b);
	if (http_head_not_modified(&b, etag) == -1 ||
	    answer_keep(a, nm, &b, buf_len(&b)) == -1)
		goto done;
	rc = 0;
done:
	buf_free(&b);
	buf_free(&link);
	return rc;
}

/* The 412 of a stale If-Match, naming the JSON ETag set->etag. */
static int
answer_precondition(struct addr *a, struct answer_set *set, struct buf *b)
{
	buf_reset(b);
	if (http_head_precondition(b, set->etag, a->conf.explain) == -1)
		return -1;
	return answer_keep(a, &set->precondition, b, buf_len(b));
}

/* The address's name: dir's last segment (trailing slashes left out),
 * in out, or NULL when it does not fit. */
static const char *
answer_name(const char *dir, char *out, size_t size)
{
	size_t end = strlen(dir), start;

	while (end > 1 && dir[end - 1] == '/')
		end--;
	for (start = end; start > 0 && dir[start - 1] != '/'; start--)
		;
	if (end - start == 0 || end - start >= size)
		return NULL;
	memcpy(out, dir + start, end - start);
	out[end - start] = '\0';
	return out;
}

/* The answers of a; the page too when page is set. */
static int
answer_make(struct addr *a, bool page, char *err, size_t errlen)
{
	struct answer_set *set;
	struct html_opts po;
	char name[ADDR_NAME_MAX + 1];
	struct buf body;
	int rc = -1;

	buf_init(&body, ADDR_ARENA_MAX);
	if ((set = arena_calloc(&a->arena, 1, sizeof(*set))) == NULL) {
		snprintf(err, errlen, "out of memory");
		goto done;
	}
	/* The published bytes are the parsed value written back: GET shows
	 * exactly the value the validator enforces. */
	if (json_write(a->doc, &body) == -1 ||
	    answer_pair(a, "application/json", NULL, &body, set->etag,
	        &set->json, &set->json_304) == -1) {
		snprintf(err, errlen, "out of memory");
		goto done;
	}
	if (answer_precondition(a, set, &body) == -1) {
		snprintf(err, errlen, "out of memory");
		goto done;
	}
	buf_reset(&body);
	po.type = a->conf.type;
	po.etag = set->etag;
	po.name = answer_name(a->dir, name, sizeof(name));
	po.max_body = a->conf.max_body;
	po.answer = a->answer;
	po.keys = answer_keys(a, NULL);
	if (page &&
	    (html_page(a->doc, a->schema, &po, &body) == -1 ||
	        answer_pair(a, "text/html; charset=utf-8", html_csp(), &body,
	            set->html_etag, &set->html, &set->html_304) == -1)) {
		snprintf(err, errlen, "out of memory building the page");
		goto done;
	}
	a->derived = set;
	rc = 0;
done:
	buf_free(&body);
	return rc;
}

bool
answer_keys(const struct addr *a, const char **store)
{
	if (store != NULL)
		*store = NULL;
	/* a task address needs its store for the task itself, and a
	 * PostgreSQL store is checked when it is first used, not here */
	if (a->conf.act != CONF_ACT_ANSWER || a->conf.store_pg[0] != '\0')
		return true;
	/* a key needs the store: where this process cannot make it, an act
	 * with one would be a 503, so the page sends none there */
	if (store != NULL)
		*store = a->conf.store;
	return store_usable(a->dir, a->conf.store);
}

int
answer_build(struct addr *a, char *err, size_t errlen)
{
	return answer_make(a, true, err, errlen);
}

int
answer_build_acts(struct addr *a, char *err, size_t errlen)
{
	return answer_make(a, false, err, errlen);
}

int
answer_build_known(struct addr *a, const char *etag, char *err, size_t errlen)
{
	struct answer_set *set;
	struct buf b;
	int rc = -1;

	buf_init(&b, 4096);
	if ((set = arena_calloc(&a->arena, 1, sizeof(*set))) == NULL ||
	    snprintf(set->etag, sizeof(set->etag), "%s", etag) >=
	        (int)sizeof(set->etag) ||
	    answer_precondition(a, set, &b) == -1) {
		snprintf(err, errlen, "out of memory");
		goto done;
	}
	a->derived = set;
	rc = 0;
done:
	buf_free(&b);
	return rc;
}

const struct answer_set *
answer_of(const struct addr *a)
{
	return a->derived;
}
