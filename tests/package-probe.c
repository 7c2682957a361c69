/* package-probe: tries what each of gpt-fcgi@.service's system call filters
 * forbids and prints, as one JSON object, "OK" or the errno's name (or
 * the signal that ended the try) for each.  Each try runs in a child of
 * its own, so that none changes the next.  The clock, hostname and
 * module calls pass a bad pointer or descriptor: reaching the kernel
 * gives EFAULT or EBADF, and nothing is ever set or loaded. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/personality.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const char *dir = "/tmp";

static int
try(const char *what)
{
	if (!strcmp(what, "userns"))
		return unshare(CLONE_NEWUSER);
	if (!strcmp(what, "realtime")) {
		struct sched_param p = {.sched_priority = 1};
		return sched_setscheduler(0, SCHED_FIFO, &p);
	}
	if (!strcmp(what, "suid")) {
		char f[4096];
		snprintf(f, sizeof f, "%s/probe-suid.%d", dir, (int)getpid());
		int fd = open(f, O_CREAT | O_WRONLY, 0755);
		if (fd < 0)
			return -1;
		int r = fchmod(fd, 04755);
		int e = errno;
		close(fd);
		unlink(f);
		errno = e;
		return r;
	}
	if (!strcmp(what, "personality"))
		return personality(PER_LINUX32) < 0 ? -1 : 0;
	if (!strcmp(what, "netlink"))
		return socket(AF_NETLINK, SOCK_RAW, 0) < 0 ? -1 : 0;
	if (!strcmp(what, "packet"))
		return socket(AF_PACKET, SOCK_RAW, 0) < 0 ? -1 : 0;
	if (!strcmp(what, "clock"))
		return (int)syscall(SYS_clock_settime, CLOCK_REALTIME, NULL);
	if (!strcmp(what, "hostname"))
		return (int)syscall(SYS_sethostname, NULL, 1);
	if (!strcmp(what, "module"))
		return (int)syscall(SYS_finit_module, -1, "", 0);
	if (!strcmp(what, "i386")) {
#if defined(__x86_64__)
		long r; /* getpid through the 32-bit entry */
		__asm__ volatile("int $0x80" : "=a"(r) : "a"(20L) : "memory");
		if (r < 0) {
			errno = (int)-r;
			return -1;
		}
		return 0;
#else
		errno = ENOSYS;
		return -1;
#endif
	}
	errno = EINVAL;
	return -1;
}

int
main(int argc, char **argv)
{
	static const char *const all[] = {"userns", "realtime", "suid",
	    "personality", "netlink", "packet", "clock", "hostname", "module",
	    "i386"};
	if (argc > 1)
		dir = argv[1];
	printf("{");
	for (size_t i = 0; i < sizeof all / sizeof *all; i++) {
		fflush(stdout);
		pid_t pid = fork();
		if (pid == 0)
			_exit(try(all[i]) == 0 ? 0 : errno & 0xff);
		int st = 0;
		const char *r = "fork";
		if (pid > 0 && waitpid(pid, &st, 0) == pid) {
			if (WIFSIGNALED(st))
				r = sigabbrev_np(WTERMSIG(st));
			else if (WEXITSTATUS(st) == 0)
				r = "OK";
			else
				r = strerrorname_np(WEXITSTATUS(st));
		}
		printf("%s\"%s\":\"%s\"", i ? "," : "", all[i], r ? r : "?");
	}
	printf("}\n");
	return 0;
}
