/*
 * audit.c: the report on a loaded address (audit.h), assembled from the
 * lint, the hook check and the decoder table.
 *
 * Runs at load and on the command line, never on the request path: it
 * allocates (malloc and a scratch arena) and reads the hook's first
 * bytes.
 */
#include <stdio.h>
#include <string.h>

#include "site/address.h"
#include "base/arena.h"
#include "tools/audit.h"
#include "parser/json.h"
#include "tools/decoder.h"
#include "tools/lint.h"
#include "base/log.h"
#include "tools/report.h"
#include "schema/schema_dialect.h"
#include "schema/schema_view.h"

/* Scratch for judging defaults, examples and blank values. */
#define AUDIT_SCRATCH_MAX ((size_t)64 * 1024 * 1024)
/* Warning lines one load logs at most. */
#define AUDIT_LOG_MAX 20

static void
audit_annotations_of(const struct lint_facts *f, struct report *r)
{
	struct schema_view v;
	const struct json_value *m;
	char ptr[1024];
	size_t i, k, n;

	for (i = 0; i < f->count; i++) {
		schema_view_get(f->nodes[i].n, &v);
		if (v.src == NULL || v.src->type != JSON_T_OBJECT)
			continue;
		/* the vocabulary's own annotations (the registry's, 2020-12
		 * meta-data and core's $comment): listed so the operator sees
		 * what is not enforced */
		for (k = 0; k < schema_kw_rows(); k++) {
			const struct schema_kw_info *row = schema_kw_row(k);

			if (row->role != SCHEMA_KR_ANNOTATE ||
			    (m = json_object_get(
			         v.src, row->name, strlen(row->name))) == NULL)
				continue;
			n = v.pointer_len < sizeof(ptr) - 1 ? v.pointer_len
			                                    : sizeof(ptr) - 1;
			memcpy(ptr, v.pointer, n);
			ptr[n] = '\0';
			report_annotation(r, row->name, strlen(row->name), ptr);
		}
	}
}

void
audit_address(const char *dir, const struct addr *a, const char *body,
    size_t len, bool decoders, struct report *r)
{
	struct lint_facts f;
	struct arena scratch;

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
		if (decoders)
			audit_annotations_of(&f, r);
		lint_facts_free(&f);
	}
	/* the answer's form, for the decoders only: its lint would speak of
	 * the actor's freedom, and the hook, not the actor, writes it */
	if (decoders && a->answer != NULL) {
		r->has_answer = true;
		r->answer_pass = true;
		if (lint_facts(a->answer, body, len, &f) == -1 ||
		    decoder_report(&f, r) == -1)
			r->nomem = true;
		lint_facts_free(&f);
		r->answer_pass = false;
	}
	lint_hook(dir, r);
}

void
audit_log_load(const struct addr *a, const char *body, size_t len)
{
	struct report r;
	const struct report_problem *p;
	size_t i;

	report_init(&r, a->dir);
	audit_address(a->dir, a, body, len, false, &r);
	/* a loose form may have a warning per member: the log gets the
	 * first AUDIT_LOG_MAX, --check all of them */
	for (i = 0; i < r.count && i < AUDIT_LOG_MAX; i++) {
		p = &r.problems[i];
		log_warn("%s: [%s] at \"#%s\": %s%s%s", a->dir, p->rule,
		    p->pointer, p->reason, p->fix != NULL ? "; fix: " : "",
		    p->fix != NULL ? p->fix : "");
	}
	if (r.count + r.more > AUDIT_LOG_MAX)
		log_warn("%s: and %zu more warnings (gpt.fcgi --check %s)",
		    a->dir, r.count + r.more - AUDIT_LOG_MAX, a->dir);
	report_free(&r);
}
