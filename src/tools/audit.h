/*
 * audit.h: the operator's report on a loaded address, the same for
 * `gpt.fcgi --check` and for every load of an address by the responder:
 * the form's lint (lint.h), its hook, and (for --check) what each
 * constrained decoder would do with it (decoder.h).
 *
 * At a load, the warnings go to the log, once per load, each a line with
 * its rule, the schema's JSON Pointer, the reason and the fix; never to
 * an actor (GET and POST answers are built before and apart from this).
 * Under CGI, where each request is a load, the form cache calls for them
 * only when it stores an entry (formcache.h): once per version.
 */
#ifndef GPT_AUDIT_H
#define GPT_AUDIT_H

#include "base/common.h"

struct addr;
struct report;

/*
 * Fill r (report_init'ed) for the loaded address a in dir, whose published
 * JSON is body[0..len) (answer.h builds it): size, lint, hook; the
 * decoder entries too when decoders is true.  Problems that cannot be
 * judged for lack of memory set r->nomem.
 */
void audit_address(const char *dir, const struct addr *a, const char *body,
    size_t len, bool decoders, struct report *r);

/* Log the warnings of the address a just loaded, body as above (the
 * responder, once per load). */
void audit_log_load(const struct addr *a, const char *body, size_t len);

#endif /* GPT_AUDIT_H */
