/*
 * fuzz_fcgi.c: libFuzzer target for the FastCGI reader and writer (fcgi.c).
 *
 * Each input is what a web server sends on one connection, written into a
 * socketpair whose sending side is then shut, so every read ends at EOF
 * and no wait reaches the idle time.  The connection is served as the
 * responder serves it (heads, bodies, an answer of one STDOUT and one
 * STDERR record, the end, the drain) until it is closed.  Checks: at most
 * one request per BEGIN_REQUEST of the input, every request's variables
 * are "NAME=value" strings, body reads never give more than asked, and
 * the connection ends (no loop).  Any violation aborts.
 *
 * Build: configure --enable-fuzz CC=clang; run: tests/fuzz_fcgi CORPUS
 * (seeds in tests/data/fuzz-fcgi/).
 */
#include <fastcgi.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "web/fcgi.h"

#define FUZZ_INPUT_MAX ((size_t)32 * 1024) /* fits a socket's buffer */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fcgi_conn c;
	unsigned char body[1000];
	size_t requests = 0, i;
	int fd[2];

	if (size > FUZZ_INPUT_MAX)
		return 0;
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, fd) != 0 ||
	    fcntl(fd[0], F_SETFL, O_NONBLOCK) != 0 ||
	    fcgi_conn_init(&c, 1, 2) != 0)
		abort();
	if (size > 0 && write(fd[1], data, size) != (ssize_t)size)
		abort();
	shutdown(fd[1], SHUT_WR);
	fcgi_conn_open(&c, fd[0]);
	/* bounded: each request consumes a BEGIN_REQUEST of the input */
	while (fcgi_conn_is_open(&c)) {
		long k;

		if (fcgi_read_head(&c) == -1)
			break;
		if (++requests > size / 16 + 1)
			abort(); /* more requests than the input can hold */
		for (i = 0; c.envp[i] != NULL; i++)
			if (strchr(c.envp[i], '=') == NULL)
				abort();
		while ((k = fcgi_read_body(&c, body, sizeof(body))) > 0)
			if ((size_t)k > sizeof(body))
				abort();
		(void)fcgi_write(&c, FCGI_STDERR, "line\n", 5);
		(void)fcgi_write(&c, FCGI_STDOUT, "Status: 204\r\n\r\n", 15);
		fcgi_end(&c);
		(void)fcgi_finish(&c);
	}
	fcgi_conn_free(&c);
	close(fd[1]);
	return 0;
}
