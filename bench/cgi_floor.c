/*
 * cgi_floor.c: the least a CGI program can do, the floor the CGI part of
 * the responder benchmark measures gpt.fcgi against: read one file and
 * print it behind the headers gpt.fcgi sends on GET.
 *
 *   cgi_floor FILE
 */
#include "config.h"

#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

int
main(int argc, char **argv)
{
	static char body[1 << 20];
	char head[512];
	ssize_t n;
	int fd, hlen;

	if (argc != 2 || (fd = open(argv[1], O_RDONLY)) == -1)
		return 2;
	if ((n = read(fd, body, sizeof(body))) < 0)
		return 1;
	close(fd);
	hlen = snprintf(head, sizeof(head),
	    "Status: 200 OK\r\nContent-Type: application/json\r\n"
	    "Vary: Accept\r\nETag: \"0123456789abcdef0123456789abcdef\"\r\n"
	    "Content-Length: %zd\r\nX-Content-Type-Options: nosniff\r\n\r\n",
	    n);
	if (write(STDOUT_FILENO, head, (size_t)hlen) != hlen ||
	    write(STDOUT_FILENO, body, (size_t)n) != n)
		return 1;
	return 0;
}
