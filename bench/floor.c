/*
 * floor.c: the least a FastCGI responder can do, the floor the responder
 * benchmark measures gpt.fcgi against.  It reads its files at start (the
 * bytes gpt.fcgi serves on GET, and the line gpt.fcgi logs when it rejects
 * the benchmark's act), then, for every request: a POST has its body
 * drained, the line written to the request's error stream (the contract
 * wants the reason of every rejection in the web server's log) and is
 * answered 204; anything else gets the file's bytes behind the same
 * headers gpt.fcgi sends.  No parsing, no validation, no address: only
 * libfcgi and the loop.  A request carrying FLOOR_SILENT (any value) is
 * answered without the line, to show what the log line costs.
 *
 *   floor FILE [LINE-FILE]   (run under spawn-fcgi)
 */
#include "config.h"

#include <fcgiapp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FLOOR_FILE_MAX ((size_t)16 * 1024 * 1024)

static char *
floor_slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *p;
	size_t n;

	if (f == NULL || (p = malloc(FLOOR_FILE_MAX)) == NULL) {
		perror(path);
		exit(1);
	}
	n = fread(p, 1, FLOOR_FILE_MAX, f);
	fclose(f);
	*len = n;
	return p;
}

int
main(int argc, char **argv)
{
	static const char no_content[] = "Status: 204 No Content\r\n\r\n";
	FCGX_Request req;
	char *body, *answer, *line = NULL, drain[65536];
	size_t blen, llen = 0;
	int alen;

	if (argc != 2 && argc != 3) {
		fputs("usage: floor FILE [LINE-FILE]\n", stderr);
		return 2;
	}
	body = floor_slurp(argv[1], &blen);
	if (argc == 3)
		line = floor_slurp(argv[2], &llen);
	if ((answer = malloc(blen + 512)) == NULL)
		return 1;
	alen = snprintf(answer, 512,
	    "Status: 200 OK\r\nContent-Type: application/json\r\n"
	    "Vary: Accept\r\nETag: \"0123456789abcdef0123456789abcdef\"\r\n"
	    "Content-Length: %zu\r\nX-Content-Type-Options: nosniff\r\n\r\n",
	    blen);
	memcpy(answer + alen, body, blen);
	alen += (int)blen;
	if (FCGX_Init() != 0 || FCGX_InitRequest(&req, 0, 0) != 0)
		return 1;
	while (FCGX_Accept_r(&req) >= 0) {
		const char *m = FCGX_GetParam("REQUEST_METHOD", req.envp);

		if (m != NULL && strcmp(m, "POST") == 0) {
			while (FCGX_GetStr(drain, sizeof(drain), req.in) > 0)
				;
			if (llen > 0 &&
			    FCGX_GetParam("FLOOR_SILENT", req.envp) == NULL)
				FCGX_PutStr(line, (int)llen, req.err);
			FCGX_PutStr(
			    no_content, sizeof(no_content) - 1, req.out);
		} else {
			FCGX_PutStr(answer, alen, req.out);
		}
		FCGX_Finish_r(&req);
	}
	return 0;
}
