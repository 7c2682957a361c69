/*
 * cli_check.c: `gpt.fcgi --check DIR`, the operator's dry run of an
 * address: load it exactly as the responder would (address.conf, the form
 * parsed, checked as an arrival document, compiled) and say so.
 *
 * Exit 0 when the address loads, with warnings on stderr (the compiler's,
 * such as unbounded recursion; a missing or non-executable hook, since
 * such an address accepts no acts); 1 when it is refused, with the reason
 * on stderr: every problem of the form, one line each in document order
 * (the first SCHEMA_PROBLEMS_MAX, then how many more), not only the first;
 * 2 on a usage error.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "address.h"
#include "cli.h"
#include "hook.h"
#include "log.h"

static void
cli_check_warn(void *ctx, const char *schema_pointer, const char *message)
{
	const char *dir = ctx;

	log_warn("%s: form at \"#%s\": %s", dir, schema_pointer, message);
}

/* Each problem of the form, as the responder's log would name the
 * first. */
static void
cli_check_problems(const char *dir, const struct schema_problems *ps)
{
	const struct schema_err *e;
	size_t i;

	for (i = 0; i < ps->count; i++) {
		e = &ps->list[i].err;
		log_error("%s: refused: %s/form.json: form refused at \"#%s\": "
		          "%s%s%s",
		    dir, dir, e->pointer.buf, e->reason,
		    e->keyword != NULL ? ", keyword " : "",
		    e->keyword != NULL ? e->keyword : "");
	}
	if (ps->more > 0)
		log_error("%s: and %zu more problems", dir, ps->more);
}

int
cli_check(int argc, char **argv)
{
	char path[PATH_MAX + 8];
	struct schema_problems *problems;
	struct addr a;
	struct stat st;
	int rc = 1;

	if (argc != 2) {
		fputs("usage: gpt.fcgi --check DIR\n", stderr);
		return 2;
	}
	if (stat(argv[1], &st) == -1 || !S_ISDIR(st.st_mode)) {
		log_error("%s: not a directory", argv[1]);
		return 1;
	}
	if ((problems = calloc(1, sizeof(*problems))) == NULL) {
		log_error("%s: out of memory", argv[1]);
		return 1;
	}
	if (addr_load_problems(argv[1], &a, cli_check_warn, argv[1],
	        problems) == -1) {
		cli_check_problems(argv[1], problems);
		/* not the form's (hits on address.conf's "max_bdy = 1"), or
		 * after its problems the arena refused */
		if (problems->count == 0 ||
		    strstr(a.err, problems->list[0].err.reason) == NULL)
			log_error("%s: refused: %s", argv[1], a.err);
		goto done;
	}
	if (!a.has_hook) {
		snprintf(path, sizeof(path), "%s/hook", argv[1]);
		log_warn("%s: %s", path,
		    access(path, F_OK) == 0
		        ? "not an executable regular file: acts will fail"
		        : "missing: this address accepts no acts");
	}
	/* Checked as root: the responder may well be run the same way. */
	if (hook_runs_as_root())
		log_warn("%s: checked as root; if served as root, %s", argv[1],
		    HOOK_ROOT_WARNING);
	printf("%s: ok, %zu bytes, ETag %s\n", argv[1],
	    a.json.len - a.json.head_len, a.etag);
	rc = 0;
done:
	addr_free(&a);
	free(problems);
	return rc;
}
