/*
 * cli_compile.c: `gpt.fcgi --compile DIR`, the operator's precomputed
 * representation of an address (formcache.h): load it exactly as the
 * responder would, build its answers, and write DIR/form.compiled, from
 * which a CGI request answers GET and HEAD without loading the form while
 * the files it came from are unchanged.  Run it as form.json's owner (or
 * root, which gives the file to that owner), with the binary the web
 * server runs: a file written by another binary is stale for this one.
 *
 * Also what --check says of that file (cli_compile_report).
 *
 * Exit 0 when the file is written, 1 when the address is refused or the
 * file cannot be written, 2 on a usage error.
 */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/log.h"
#include "cli/cli.h"
#include "responder/answer.h"
#include "responder/formcache.h"
#include "site/address.h"

/* One load and one write: 0, 1 refused or not written, or -1 when a file
 * changed too recently (the caller waits and tries again). */
static int
cli_compile_once(const char *dir, bool last)
{
	char err[ADDR_ERR_MAX];
	struct timespec start;
	struct addr a;
	bool again;
	int rc = 1;

	clock_gettime(CLOCK_REALTIME, &start);
	if (addr_load(dir, &a, NULL, NULL) == -1) {
		/* hits on a form that does not compile */
		log_error("%s: refused: %s", dir, a.err);
		goto done;
	}
	if (answer_build(&a, err, sizeof(err)) == -1) {
		log_error("%s: refused: %s", dir, err);
		goto done;
	}
	if (formcache_compile(&a, &start, &again, err, sizeof(err)) == -1) {
		if (again && !last) {
			rc = -1;
			goto done;
		}
		log_error("%s: %s", dir, err);
		goto done;
	}
	rc = 0;
done:
	addr_free(&a);
	return rc;
}

int
cli_compile(int argc, char **argv)
{
	struct stat st;
	const char *dir;
	unsigned try;
	int rc;

	if (argc != 2 || strncmp(argv[1], "--", 2) == 0) {
		fputs("usage: gpt.fcgi --compile DIR\n", stderr);
		return 2;
	}
	dir = argv[1];
	if (stat(dir, &st) == -1 || !S_ISDIR(st.st_mode)) {
		log_error("%s: not an address directory", dir);
		return 1;
	}
	/* A form saved a moment ago could change again in the same tick of
	 * the clock unseen by its stamps (address.h): wait that out. */
	for (try = 0;; try++) {
		rc = cli_compile_once(dir, try > ADDR_RACY_SEC + 1);
		if (rc != -1)
			break;
		sleep(1);
	}
	if (rc != 0)
		return rc;
	if (formcache_compiled_state(dir) != FORMCACHE_CURRENT) {
		/* hits on root's file for an address whose form.json it
		 * gave away meanwhile */
		cli_compile_report(dir, stderr);
		return 1;
	}
	printf("%s/%s: written; CGI answers GET and HEAD from it while "
	       "form.json, address.conf and the refs files stay as they are\n",
	    dir, FORMCACHE_COMPILED_NAME);
	return 0;
}

void
cli_compile_report(const char *dir, FILE *f)
{
	static const char *const what[] = {
	    [FORMCACHE_CURRENT] = "current: CGI answers GET and HEAD from it",
	    [FORMCACHE_MISSING] = "missing",
	    [FORMCACHE_STALE] = "stale (a file of the address changed, or "
	                        "another binary wrote it)",
	    [FORMCACHE_UNTRUSTED] = "not used: it is not owned like "
	                            "form.json, or its group or others may "
	                            "write it",
	    [FORMCACHE_DAMAGED] = "damaged"};
	enum formcache_state s = formcache_compiled_state(dir);

	fprintf(f, "%s: precomputed representation %s/%s: %s", dir, dir,
	    FORMCACHE_COMPILED_NAME, what[s]);
	if (s != FORMCACHE_CURRENT)
		fprintf(f,
		    "; run gpt.fcgi --compile %s (as form.json's owner, with "
		    "the binary the web server runs) so that CGI answers GET "
		    "without loading the form",
		    dir);
	fputc('\n', f);
}
