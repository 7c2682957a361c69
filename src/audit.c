/*
 * audit.c: the report on a loaded address (audit.h), assembled from the
 * lint, the hook check and the decoder table.
 *
 * Runs at load and on the command line, never on the request path: it
 * allocates (malloc and a scratch arena) and reads the hook's first
 * bytes.
 */
#include <stdio.h>

#include "address.h"
#include "arena.h"
#include "audit.h"
#include "decoder.h"
#include "lint.h"
#include "log.h"
#include "report.h"

/* Scratch for judging defaults, examples and blank values. */
#define AUDIT_SCRATCH_MAX ((size_t)64 * 1024 * 1024)

void
audit_address(const char *dir, const struct addr *a, bool decoders,
    struct report *r)
{
	struct lint_facts f;
	struct arena scratch;
	const char *body = a->json.bytes + a->json.head_len;
	size_t len = a->json.len - a->json.head_len;

	r->has_size = true;
	r->bytes = len;
	r->tokens = lint_tokens(body, len);
	if (lint_facts(a->schema, body, len, &f) == -1) {
		r->nomem = true;
	} else {
		arena_init(&scratch, AUDIT_SCRATCH_MAX);
		lint_check(&f, &scratch, r);
		arena_free(&scratch);
		if (decoders && decoder_report(&f, r) == -1)
			r->nomem = true;
		lint_facts_free(&f);
	}
	lint_hook(dir, r);
}

void
audit_log_load(const struct addr *a)
{
	struct report r;
	const struct report_problem *p;
	size_t i;

	report_init(&r, a->dir);
	audit_address(a->dir, a, false, &r);
	for (i = 0; i < r.count; i++) {
		p = &r.problems[i];
		log_warn("%s: [%s] at \"#%s\": %s%s%s", a->dir, p->rule,
		    p->pointer, p->reason, p->fix != NULL ? "; fix: " : "",
		    p->fix != NULL ? p->fix : "");
	}
	if (r.more > 0)
		log_warn("%s: and %zu more warnings (gpt.fcgi --check %s)",
		    a->dir, r.more, a->dir);
	report_free(&r);
}
