/*
 * listenfd.h: the listening socket passed by a service manager, the way
 * systemd passes it (sd_listen_fds(3)), implemented here without
 * libsystemd.
 *
 * The protocol: the manager starts the process with LISTEN_PID set to the
 * process's own pid and LISTEN_FDS to the number of sockets it passes,
 * starting at fd 3 (LISTENFD_START); LISTEN_FDNAMES may name them.  A
 * LISTEN_PID that is not ours was meant for an ancestor and is ignored.
 *
 * gpt.fcgi serves one listening socket, on fd 0 where libfcgi looks for
 * it (FCGI_LISTENSOCK_FILENO): the first passed socket is moved there.
 * Further ones are closed with a warning; a passed fd that is not a
 * listening socket (a socket unit with Accept=yes) refuses the start.
 */
#ifndef GPT_LISTENFD_H
#define GPT_LISTENFD_H

#include <sys/types.h>

#include "base/common.h"

#define LISTENFD_START 3
/* More than this many passed fds is not a socket unit of ours. */
#define LISTENFD_MAX 64

/*
 * Parse LISTEN_PID and LISTEN_FDS (either may be NULL: not set) for the
 * process `self`.  Returns the number of passed fds (0: none for us), or
 * -1 when LISTEN_PID is ours and LISTEN_FDS is not a count from 0 to
 * LISTENFD_MAX in plain digits.
 */
int listenfd_count(const char *pid, const char *fds, pid_t self);

/*
 * Take the passed socket, if any: move it to fd 0 and close the others.
 * LISTEN_PID, LISTEN_FDS and LISTEN_FDNAMES are removed from the
 * environment in every case, so nothing started later (a hook, a child
 * of a hook) reads them as its own.  Returns 0 (a socket was taken, or
 * none was passed) or -1 after logging why the process must not start.
 */
int listenfd_adopt(void) GPT_MUSTCHECK;

#endif /* GPT_LISTENFD_H */
