/*
 * rootindex.h: the index of a root, for people (gpt-address(5) "The
 * index"): a GET of the root itself (GPT_ROOT with no name, or the .d
 * directory beside the binary when it holds no form) lists the addresses
 * under it, each with the first sentence of its p, as JSON
 * (schemas/index.schema.json) or, for a browser, as a page: the same
 * negotiation as an address's GET (Vary: Accept, an ETag, 304, HEAD).
 *
 * Off unless the root's root.conf says `index = yes` (conf.h): a public
 * root may not want to be listed.  Bounded: at most ROOTINDEX_SCAN_MAX
 * directory entries read, ROOTINDEX_MAX addresses listed (the answer then
 * says "truncated"); hidden names, names outside the address grammar, and
 * addresses that do not load are left out.  Built at each request (the
 * addresses listed come from the address cache, loaded as a GET of each
 * would load them): nothing of it is kept.
 */
#ifndef GPT_ROOTINDEX_H
#define GPT_ROOTINDEX_H

#include "base/common.h"
#include "site/address.h"
#include "web/http.h"

#define ROOTINDEX_MAX 200
#define ROOTINDEX_SCAN_MAX 4096
/* bytes of a summary, cut on a character boundary */
#define ROOTINDEX_SUMMARY_MAX 300

/*
 * Answer req, a request for the root directory root, with the index when
 * the root's root.conf turns it on and req is a GET or HEAD: true, with
 * *o the outcome and *rc the writer's 0 or -1.  false when the index is
 * off (or root.conf is refused, which is logged): the caller answers as
 * it would without an index.  derive is run on each address loaded, as
 * for its own GET.
 */
bool rootindex_serve(const char *root, const struct http_req *req,
    addr_derive_fn derive, struct http_writer *out, enum http_outcome *o,
    int *rc);

#endif /* GPT_ROOTINDEX_H */
