/*
 * cli_check.c: `gpt.fcgi --check DIR`, the operator's dry run of an
 * address: load it exactly as the responder would (address.conf, the form
 * parsed, checked as an arrival document, compiled) and say so.
 *
 * Exit 0 when the address loads, with warnings on stderr (the compiler's,
 * such as unbounded recursion; a missing or non-executable hook, since
 * such an address accepts no acts); 1 when it is refused, with the reason
 * on stderr; 2 on a usage error.
 */
#include <stdio.h>
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

int
cli_check(int argc, char **argv)
{
	char path[PATH_MAX + 8];
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
	if (addr_load(argv[1], &a, cli_check_warn, argv[1]) == -1) {
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
	return rc;
}
