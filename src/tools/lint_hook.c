/*
 * lint_hook.c: what keeps an address's hook from running (lint.h): it is
 * missing, not executable, set-user-ID root, its #! line ends in CRLF, or
 * it is neither a script nor a binary.  Reads the first bytes of the
 * file, at a load or on the command line, never on the request path.
 */
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tools/lint.h"
#include "tools/report.h"

void
lint_hook(const char *dir, struct report *r)
{
	char path[PATH_MAX + 8], head[256];
	struct stat st;
	ssize_t n;
	size_t i;
	int fd;

	if (snprintf(path, sizeof(path), "%s/hook", dir) >= (int)sizeof(path))
		return;
	if (stat(path, &st) == -1) {
		report_add(r, REPORT_WARNING, "hook-missing", "",
		    "hook: missing: this address accepts no acts",
		    "create an executable file named hook in the address");
		return;
	}
	if (!S_ISREG(st.st_mode) || access(path, X_OK) == -1) {
		report_add(r, REPORT_WARNING, "hook-not-executable", "",
		    "hook: not an executable regular file: acts will fail",
		    "chmod +x hook");
		return;
	}
	if ((st.st_mode & S_ISUID) && st.st_uid == 0)
		report_add(r, REPORT_WARNING, "hook-root", "",
		    "hook: set-user-ID root: it runs as root whoever serves "
		    "the address",
		    "chmod u-s hook");
	if ((fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)) == -1)
		return;
	n = read(fd, head, sizeof(head));
	close(fd);
	if (n <= 0)
		return;
	if (n >= 4 && memcmp(head, "\177ELF", 4) == 0)
		return;
	if (n < 2 || head[0] != '#' || head[1] != '!') {
		report_add(r, REPORT_WARNING, "hook-no-interpreter", "",
		    "hook: neither a #! script nor a binary: it is run "
		    "directly, never through a shell, and cannot start",
		    "begin it with a #! line, such as #!/bin/sh");
		return;
	}
	for (i = 2; i < (size_t)n && head[i] != '\n'; i++)
		;
	if (i < (size_t)n && head[i - 1] == '\r')
		report_add(r, REPORT_WARNING, "hook-crlf", "",
		    "hook: its #! line ends in CRLF: the system looks for an "
		    "interpreter whose name ends in a carriage return, and the "
		    "hook cannot start",
		    "convert it to LF line ends (sed -i 's/\\r$//' hook)");
}
