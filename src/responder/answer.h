/*
 * answer.h: an address's precomputed answers, built once per load by the
 * layer that owns HTTP: the arrival document's bytes (json_write of the
 * parsed, bundled document: what is published is what is enforced), the
 * human page (html_page), a strong ETag for each, and complete CGI answers
 * for 200, HEAD and 304 of both, and the 412 of a stale If-Match.
 *
 * They live in the address's arena (address.h) and go with it at reload
 * or eviction: answer_build is the cache's derive function, so the cache
 * counts them against its budget.  GET and HEAD write these bytes and
 * allocate nothing.
 */
#ifndef GPT_ANSWER_H
#define GPT_ANSWER_H

#include "base/common.h"
#include "web/http.h"

struct addr;

/* One precomputed answer: head_len bytes of CGI header, then the body. */
struct answer {
	const char *bytes; /* borrowed from the address's arena */
	size_t len;        /* head and body */
	size_t head_len;   /* HEAD writes only these */
};

/* Everything GET, HEAD and a stale If-Match answer for one address. */
struct answer_set {
	char etag[HTTP_ETAG_MAX];      /* of the JSON bytes */
	char html_etag[HTTP_ETAG_MAX]; /* of the page bytes */
	struct answer json;            /* 200 application/json */
	struct answer json_304;
	struct answer html; /* 200 text/html */
	struct answer html_304;
	struct answer precondition; /* 412 with the JSON ETag */
};

/*
 * Build a's answers (a loaded, ok address) into its arena and point
 * a->derived at them.  0, or -1 with the reason in err (errlen bytes):
 * out of memory, or the arena's cap.
 */
int answer_build(struct addr *a, char *err, size_t errlen) GPT_MUSTCHECK;

/*
 * As answer_build without the human page (its html and html_304 stay
 * empty): what an act needs (the JSON ETag, the 412), for a CGI process
 * that answers one act and exits (formcache.c).
 */
int answer_build_acts(struct addr *a, char *err, size_t errlen) GPT_MUSTCHECK;

/*
 * What an act needs when the JSON's ETag is already known (the CGI form
 * cache holds it beside the bytes it names, formcache.h): etag and the
 * 412 naming it, and nothing else (json, json_304 and the page stay
 * empty): the document is not written.  0, or -1 with the reason in err.
 */
int answer_build_known(
    struct addr *a, const char *etag, char *err, size_t errlen) GPT_MUSTCHECK;

/*
 * Does a's page send an Idempotency-Key with each act?  Where the answer
 * depends on the process (a directory store, which a process of another
 * user may be unable to make or write), *store (may be NULL) names it as
 * address.conf does, relative to a->dir or absolute, so that a file
 * built by one user can be checked by another (formcache.c); else NULL.
 */
bool answer_keys(const struct addr *a, const char **store);

/* The answers built for a, or NULL when none were. */
const struct answer_set *answer_of(const struct addr *a);

#endif /* GPT_ANSWER_H */
