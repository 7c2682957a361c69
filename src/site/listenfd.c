/*
 * listenfd.c: adopt the listening socket a service manager passed
 * (LISTEN_PID / LISTEN_FDS, sd_listen_fds(3)); see listenfd.h.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "site/listenfd.h"
#include "base/log.h"

/*
 * A decimal in plain digits, no sign, no leading zero (except "0"), at
 * most `max`: the value, or -1.  Hits on "", "+1", " 1", "01", "1x".
 */
static long
listenfd_number(const char *s, long max)
{
	long n = 0;
	size_t i;

	if (s[0] == '\0' || (s[0] == '0' && s[1] != '\0'))
		return -1;
	/* bounded: a digit past max ends the loop */
	for (i = 0; s[i] != '\0'; i++) {
		long d = s[i] - '0';

		if (s[i] < '0' || s[i] > '9' || n > (max - d) / 10)
			return -1;
		n = n * 10 + d;
	}
	return n;
}

int
listenfd_count(const char *pid, const char *fds, pid_t self)
{
	long n;

	/* sd_listen_fds(3): a LISTEN_PID other than ours was meant for the
	 * process that set it; hits on a shell started by the service */
	if (pid == NULL || listenfd_number(pid, INT_MAX) != (long)self)
		return 0;
	if (fds == NULL)
		return 0;
	n = listenfd_number(fds, LISTENFD_MAX);
	/* hits on LISTEN_FDS=-1, =two, =1000 */
	return n < 0 ? -1 : (int)n;
}

int
listenfd_adopt(void)
{
	int n, i, listening = 0;
	socklen_t len = sizeof(listening);
	const char *fds = getenv("LISTEN_FDS");

	n = listenfd_count(getenv("LISTEN_PID"), fds, getpid());
	(void)unsetenv("LISTEN_PID");
	(void)unsetenv("LISTEN_FDS");
	(void)unsetenv("LISTEN_FDNAMES");
	if (n == 0)
		return 0;
	if (n < 0) {
		log_error("LISTEN_FDS is not a count of passed sockets from 0 "
		          "to %d; not starting",
		    LISTENFD_MAX);
		return -1;
	}
	if (getsockopt(LISTENFD_START, SOL_SOCKET, SO_ACCEPTCONN, &listening,
	        &len) == -1) {
		/* hits on fd 3 not being a socket at all */
		log_error("the fd %d passed by the service manager is not a "
		          "socket: %s; not starting",
		    LISTENFD_START, strerror(errno));
		return -1;
	}
	if (!listening) {
		/* hits on a socket unit with Accept=yes: a connection */
		log_error("the fd %d passed by the service manager is a "
		          "connection, not a listening socket (Accept=yes?); "
		          "not starting",
		    LISTENFD_START);
		return -1;
	}
	if (dup2(LISTENFD_START, 0) == -1) {
		log_error("cannot move the passed socket to fd 0: %s; not "
		          "starting",
		    strerror(errno));
		return -1;
	}
	(void)close(LISTENFD_START);
	if (n > 1) {
		log_warn("the service manager passed %d sockets; only the "
		         "first is served, the others are closed",
		    n);
		for (i = 1; i < n; i++)
			(void)close(LISTENFD_START + i);
	}
	return 0;
}
