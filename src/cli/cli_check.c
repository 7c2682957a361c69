/*
 * cli_check.c: `gpt.fcgi --check [--json] DIR`, the operator's report on
 * an address: load it exactly as the responder would (address.conf, the
 * form parsed, checked as an arrival document, compiled), then report
 * every problem in one run, refusals first, then warnings, each with its
 * JSON Pointer, reason and fix (report.h); the annotations; the served
 * size; what each constrained decoder would do with the form (decoder.h).
 *
 * Text: the whole report on stdout, problems first (one line each, as
 * the log words them), so that one redirection keeps all of it.  --json: the
 * whole report as one JSON document on stdout (gpt.fcgi(8) documents its
 * shape), nothing on stderr.
 *
 * Exit 0 when the address loads, whatever its warnings; 1 when it is
 * refused; 2 on a usage error.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <limits.h>
#include <sys/stat.h>

#include "site/address.h"
#include "responder/answer.h"
#include "tools/audit.h"
#include "tools/fcgid_limit.h"
#include "base/buf.h"
#include "cli/cli.h"
#include "site/hook.h"
#include "tools/lint.h"
#include "base/log.h"
#include "tools/report.h"

/* The compiler's notes and warnings, into the report. */
static void
cli_check_warn(void *ctx, const char *schema_pointer, const char *message)
{
	static const char note[] = "\" is an annotation (not enforced)";
	static const char fmt[] = "format \"";
	static const char beside[] = "keywords beside $ref are ignored";
	struct report *r = ctx;
	const char *q, *end;
	char name[128];

	end = strstr(message, note);
	if (end != NULL && strncmp(message, fmt, sizeof(fmt) - 1) == 0) {
		/* format "color-hex" is an annotation */
		q = message + sizeof(fmt) - 1;
		snprintf(name, sizeof(name), "format:%.*s", (int)(end - q), q);
		report_annotation(r, name, strlen(name), schema_pointer);
		return;
	}
	if (end != NULL && message[0] == '"') {
		report_annotation(r, message + 1, (size_t)(end - message - 1),
		    schema_pointer);
		return;
	}
	/* the lint says it with its fix (recursion-unbounded) */
	if (strncmp(message, "unbounded recursion", 19) == 0)
		return;
	if (strncmp(message, beside, sizeof(beside) - 1) == 0) {
		report_add(r, REPORT_WARNING, "ref-siblings-ignored",
		    schema_pointer,
		    "keywords beside $ref are ignored in this dialect",
		    "wrap them in allOf with the $ref to apply them");
		return;
	}
	report_add(
	    r, REPORT_WARNING, "compiler", schema_pointer, message, NULL);
}

/*
 * Split a compiler refusal into its reason and its fix, where the
 * compiler wrote one: "...: did you mean minLength?", "...: write
 * \"type\": [T, \"null\"] instead", "... (set $schema, ...)".
 */
static void
cli_check_refusal(struct report *r, const struct schema_err *e)
{
	static const char *const marks[] = {": did you mean ", ": write ",
	    " (set $schema", " (an annotation must"};
	char reason[SCHEMA_REASON_MAX + 64], fix[SCHEMA_REASON_MAX];
	const char *m = NULL, *at;
	size_t i, n;

	for (i = 0; i < GPT_ARRAY_LEN(marks) && m == NULL; i++)
		if ((at = strstr(e->reason, marks[i])) != NULL)
			m = at;
	n = m != NULL ? (size_t)(m - e->reason) : strlen(e->reason);
	snprintf(reason, sizeof(reason), "%s%s%.*s",
	    e->keyword != NULL ? e->keyword : "",
	    e->keyword != NULL ? ": " : "", (int)n, e->reason);
	if (m != NULL) {
		/* the mark's words, without ": " or " (" and a final ")" */
		m += 2;
		snprintf(fix, sizeof(fix), "%s", m);
		n = strlen(fix);
		if (n > 0 && fix[n - 1] == ')')
			fix[n - 1] = '\0';
	}
	report_add(r, REPORT_REFUSAL, "form-refused", e->pointer.buf, reason,
	    m != NULL ? fix : NULL);
}

int
cli_check(int argc, char **argv)
{
	struct schema_problems *problems = NULL;
	const struct answer_set *set;
	char err[ADDR_ERR_MAX];
	const char *dir;
	struct report r;
	struct addr a;
	struct stat st;
	struct buf out;
	bool json = false;
	size_t i;
	int rc = 1;

	if (argc == 3 && strcmp(argv[1], "--json") == 0)
		json = true;
	/* hits on "--check --json" with no directory, "--check --jsn d" */
	if ((argc != 2 && !json) ||
	    (argc == 2 && strncmp(argv[1], "--", 2) == 0)) {
		fputs("usage: gpt.fcgi --check [--json] DIR\n", stderr);
		return 2;
	}
	dir = argv[argc - 1];
	report_init(&r, dir);
	memset(&a, 0, sizeof(a));
	if (stat(dir, &st) == -1 || !S_ISDIR(st.st_mode)) {
		report_add(&r, REPORT_REFUSAL, "address-refused", "",
		    "not a directory", "name an address directory");
		goto out;
	}
	{
		char fpath[PATH_MAX + 16];
		struct stat fst;

		/* no form.json: a root, whose addresses are reported on */
		snprintf(fpath, sizeof(fpath), "%s/form.json", dir);
		if (lstat(fpath, &fst) == -1) {
			report_free(&r);
			return cli_check_root(dir, json);
		}
	}
	if ((problems = calloc(1, sizeof(*problems))) == NULL) {
		r.nomem = true;
		goto out;
	}
	if (addr_load_problems(dir, &a, cli_check_warn, &r, problems) == -1) {
		for (i = 0; i < problems->count; i++)
			cli_check_refusal(&r, &problems->list[i].err);
		r.more += problems->more;
		/* not the form's (hits on address.conf's "max_bdy = 1"), or
		 * after its problems the arena refused */
		if (problems->count == 0 ||
		    strstr(a.err, problems->list[0].err.reason) == NULL)
			report_add(&r, REPORT_REFUSAL, "address-refused", "",
			    a.err, NULL);
		lint_hook(dir, &r);
		goto out;
	}
	/* what the responder builds from it: its answers (the ETag, and the
	 * published bytes the report measures) */
	if (answer_build(&a, err, sizeof(err)) == -1) {
		report_add(
		    &r, REPORT_REFUSAL, "address-refused", "", err, NULL);
		goto out;
	}
	set = answer_of(&a);
	r.loads = true;
	snprintf(r.etag, sizeof(r.etag), "%s", set->etag);
	audit_address(dir, &a, set->json.bytes + set->json.head_len,
	    set->json.len - set->json.head_len, true, &r);
	fcgid_limit_check(dir, a.conf.max_body, &r);
	/* links under the same root name addresses that load */
	cli_links_report(dir, &a, &r);
	rc = report_count(&r, REPORT_REFUSAL) > 0 ? 1 : 0;
out:
	/* Checked as root: the responder may well be run the same way. */
	if (hook_runs_as_root())
		report_add(&r, REPORT_WARNING, "hook-root", "",
		    "checked as root; if served as root, " HOOK_ROOT_WARNING,
		    "serve the address as a dedicated user");
	report_sort(&r);
	if (json) {
		buf_init(&out, CLI_INPUT_MAX);
		if (report_json(&r, &out) == -1) {
			log_error("%s: out of memory", dir);
			rc = 1;
		} else {
			fwrite(buf_ptr(&out), 1, buf_len(&out), stdout);
		}
		buf_free(&out);
	} else {
		report_text(&r, stdout);
		/* what CGI would answer GET from, and how to make it */
		if (rc == 0)
			cli_compile_report(dir, stdout);
	}
	addr_free(&a);
	free(problems);
	report_free(&r);
	return rc;
}
