/*
 * gpt.fcgi: make a web server speak GPT.
 *
 * main() picks the mode: with arguments, the operator's command line;
 * without, a responder for the web server (CGI or FastCGI, told apart the
 * way libfcgi does).  Nothing else lives here.
 *
 * A CGI request (GATEWAY_INTERFACE set) is always served, arguments or
 * not: RFC 3875 section 4.4 lets a server pass a query string without '='
 * as arguments, and "?--check+/etc" must not reach the command line.
 *
 * Without arguments and with no web server in sight (no CGI variable, no
 * socket passed by systemd, no socket on stdin, which is how a FastCGI
 * server starts us), an operator typed `gpt.fcgi` at a shell: the usage
 * tells them more than a 404 would.
 */
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "responder/loop.h"

/*
 * A process started with fd 0, 1 or 2 closed would hand that number to the
 * next open(): a form file or a hook pipe would then double as stdout or
 * stderr.  Fill the gaps with /dev/null first (as OpenBSD daemons do).
 */
static void
ensure_std_fds(void)
{
	int fd;

	while ((fd = open("/dev/null", O_RDWR)) >= 0 && fd <= 2)
		;
	if (fd > 2)
		close(fd);
	else if (fd < 0)
		_exit(70);
}

static bool
no_web_server(void)
{
	struct stat st;

	if (getenv("GATEWAY_INTERFACE") != NULL ||
	    getenv("REQUEST_METHOD") != NULL || getenv("LISTEN_FDS") != NULL)
		return false;
	return fstat(STDIN_FILENO, &st) == -1 || !S_ISSOCK(st.st_mode);
}

int
main(int argc, char **argv)
{
	ensure_std_fds();
	if ((argc > 1 && getenv("GATEWAY_INTERFACE") == NULL) ||
	    (argc <= 1 && no_web_server()))
		return cli_main(argc, argv);
	return loop_main();
}
