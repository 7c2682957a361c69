/*
 * hook.c: spawn the hook, feed and drain it in one poll() loop, enforce the
 * output cap and the timeout, kill its process group, reap it.
 *
 * Why one poll() loop: the hook may read its stdin slowly, or not at all,
 * while it writes megabytes to stdout and stderr.  Writing the whole body
 * first and reading after would deadlock as soon as both pipes are full, so
 * stdin, stdout and stderr are all non-blocking on our side and served as
 * they become ready.  The child's ends stay blocking: hooks are ordinary
 * programs.
 *
 * Why the child is not reaped at once: the hook's pid is also its process
 * group id.  While the exited child is a zombie, no other process can get
 * that id, so kill(-pid, SIGKILL) cannot hit a stranger.  We therefore learn
 * of its exit with waitid(WNOWAIT) (woken by a pidfd where the kernel has
 * one), kill the group, and only then reap with waitpid(pid).
 *
 * Why every other child is killed too: the responder makes itself a child
 * subreaper (hook_adopt_orphans), so a process the hook started that left
 * its group (setsid(), a double fork) and lost its parent becomes our
 * child instead of init's.  The process runs one hook at a time and has
 * no other children, so once the hook has exited, every child but the
 * hook's zombie is something the hook left behind: each is SIGKILLed, with
 * the process group it leads, as soon as the hook exits or is killed, and
 * reaped once the hook's own status is in (never waitpid(-1) before: that
 * could take the hook's status).  A descendant whose parent still lives
 * is not ours yet; it becomes ours when the kill reaches that parent, so
 * the sweep repeats until waitpid(-1) says ECHILD, within
 * HOOK_STRAY_ROUNDS passes and HOOK_STRAY_MS.
 *
 * Refuses nothing in the request's strings: they are C strings and go into
 * the environment as they are.  Allocates the environment block and the
 * loop's state (both freed before returning) and grows the caller's output
 * buffer.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "site/hook.h"
#include "base/log.h"
#include "base/num.h"

#if defined(__GLIBC__)
#if __GLIBC_PREREQ(2, 34)
#define HOOK_HAVE_CLOSEFROM 1
#endif
#endif

/* Bytes moved per read(2)/write(2): the default pipe capacity. */
#define HOOK_CHUNK ((size_t)65536)

/* Without a pidfd, how often the loop looks for the child's exit. */
#define HOOK_POLL_FALLBACK_MS 10

/* Most bytes of environment: a few names plus the request's strings. */
#define HOOK_ENV_MAX ((size_t)256 * 1024)

/* five variables, the operator's, and the NULL */
#define HOOK_ENV_COUNT (7 + HOOK_EXTRA_ENV_MAX)

/* Children listed per pass over /proc/self/task/<tid>/children. */
#define HOOK_STRAYS_MAX 256

struct hook_state {
	const struct hook_req *req; /* borrowed */
	struct buf *out;            /* borrowed: the caller's */
	struct hook_result *res;    /* borrowed: the caller's */
	pid_t pid;                  /* the hook, also its process group id */
	int in_fd;                  /* owned: write end of the hook's stdin */
	int out_fd;                 /* owned: read end of its stdout */
	int err_fd;                 /* owned: read end of its stderr */
	int pid_fd;                 /* owned: pidfd of the child, or -1 */
	int prog_fd;                /* owned: read end of fd 3, or -1 */
	size_t prog_len;            /* bytes of the line in prog */
	bool prog_long;             /* the line passed the max: dropped */
	bool cancelled;             /* *req->cancel seen set */
	size_t in_off;              /* body bytes written so far */
	bool exited;                /* child exited (a zombie until reaped) */
	bool group_killed;          /* SIGKILL sent to the group */
	bool lost;                  /* reaped by someone else: pid is stale */
	bool over;                  /* more than max_output on stdout */
	bool timed_out;
	bool ran_at_timeout; /* the hook itself was running then */
	bool term_sent;      /* SIGTERM sent to the group at timeout */
	bool kill_needed;    /* still running after the grace */
	int io_errno;        /* our failure, when io_what != NULL */
	const char *io_what;
	uint64_t start_ms;
	uint64_t deadline_ms;
	size_t err_len;                    /* bytes kept in err */
	char err[HOOK_STDERR_MAX];         /* the start of its stderr */
	char prog[HOOK_PROGRESS_LINE_MAX]; /* the progress line so far */
};

const char *
hook_strstatus(enum hook_status st)
{
	switch (st) {
	case HOOK_OK:
		return "ok";
	case HOOK_E_START:
		return "cannot start";
	case HOOK_E_EXIT:
		return "non-zero exit";
	case HOOK_E_SIGNAL:
		return "killed by a signal";
	case HOOK_E_TIMEOUT:
		return "timeout";
	case HOOK_E_OUTPUT:
		return "output too large";
	case HOOK_E_IO:
		return "i/o error";
	case HOOK_E_CANCELLED:
		return "cancelled";
	}
	return "unknown";
}

static void
close_fd(int *fd)
{
	if (*fd >= 0) {
		close(*fd);
		*fd = -1;
	}
}

static void set_reason(struct hook_result *res, const char *fmt, ...)
    GPT_PRINTF(2, 3);

static void
set_reason(struct hook_result *res, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(res->reason, sizeof(res->reason), fmt, ap);
	va_end(ap);
}

static void
io_fail(struct hook_state *st, const char *what, int err)
{
	if (st->io_what == NULL) {
		st->io_what = what;
		st->io_errno = err;
	}
}

/*
 * The whitelist of doc/protocol.md, "The hook": the strings go one after the
 * other into eb, NUL-separated, and envp points into eb once it no longer
 * moves.  Nothing is taken from our own environ.
 */
static int
env_build(
    const struct hook_req *req, struct buf *eb, char *envp[HOOK_ENV_COUNT])
{
	size_t off[HOOK_ENV_COUNT];
	size_t n = 0, i;
	const char *x = req->extra_env;
	bool own_path = false;
	unsigned k;

	if (req->extra_env_count > HOOK_EXTRA_ENV_MAX)
		return -1;
	for (k = 0; k < req->extra_env_count; k++, x += strlen(x) + 1)
		if (strncmp(x, "PATH=", 5) == 0)
			own_path = true;
	if (!own_path) {
		off[n++] = buf_len(eb);
		if (buf_printf(eb, "PATH=%s", HOOK_PATH_ENV) < 0 ||
		    buf_putc(eb, '\0') < 0)
			return -1;
	}
	off[n++] = buf_len(eb);
	if (buf_printf(eb, "GPT_ADDRESS=%s",
	        req->address != NULL ? req->address : "") < 0 ||
	    buf_putc(eb, '\0') < 0)
		return -1;
	if (req->actor != NULL) {
		off[n++] = buf_len(eb);
		if (buf_printf(eb, "GPT_ACTOR=%s", req->actor) < 0 ||
		    buf_putc(eb, '\0') < 0)
			return -1;
	}
	if (req->idem_key != NULL) {
		off[n++] = buf_len(eb);
		if (buf_printf(eb, "GPT_IDEMPOTENCY_KEY=%.*s",
		        (int)req->idem_key_len, req->idem_key) < 0 ||
		    buf_putc(eb, '\0') < 0)
			return -1;
	}
	off[n++] = buf_len(eb);
	if (buf_printf(eb, "CONTENT_LENGTH=%zu", req->body_len) < 0 ||
	    buf_putc(eb, '\0') < 0)
		return -1;
	if (req->remote_addr != NULL) {
		off[n++] = buf_len(eb);
		if (buf_printf(eb, "REMOTE_ADDR=%s", req->remote_addr) < 0 ||
		    buf_putc(eb, '\0') < 0)
			return -1;
	}
	for (k = 0, x = req->extra_env; k < req->extra_env_count;
	     k++, x += strlen(x) + 1) {
		off[n++] = buf_len(eb);
		if (buf_append(eb, x, strlen(x) + 1) < 0)
			return -1;
	}
	for (i = 0; i < n; i++)
		envp[i] = buf_data(eb) + off[i];
	envp[n] = NULL;
	return 0;
}

static int
set_nonblock(int fd)
{
	int fl = fcntl(fd, F_GETFL);

	if (fl < 0 || fcntl(fd, F_SETFL, fl | O_NONBLOCK) < 0)
		return -1;
	return 0;
}

/*
 * The set of signals whose action the hook must find at SIG_DFL: all of
 * them.  sigfillset() leaves out glibc's two internal signals (32 and 33 on
 * Linux), and glibc's posix_spawn sets those to SIG_IGN in the child (it
 * must, while sharing our memory), which exec then keeps: the hook would
 * start with them ignored.  Their bits are set by hand, in the kernel's
 * layout (bit n-1 of the first word for signal n), which glibc's sigset_t
 * shares; sigaddset() refuses them.
 */
static void
all_signals(sigset_t *set)
{
	sigfillset(set);
#if defined(__GLIBC__) && defined(__linux__)
	{
		unsigned long w;

		memcpy(&w, set, sizeof(w));
		w |= 1UL << (32 - 1) | 1UL << (33 - 1);
		memcpy(set, &w, sizeof(w));
	}
#endif
}

/*
 * Start the child.  0, or -1 with res->status and res->reason set and
 * nothing left open.
 */
static int
hook_spawn(struct hook_state *st, char *const envp[])
{
	const struct hook_req *req = st->req;
	int in[2] = {-1, -1}, outp[2] = {-1, -1}, errp[2] = {-1, -1};
	int prog[2] = {-1, -1};
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t attr;
	bool fa_ok = false, attr_ok = false;
	sigset_t mask, dfl;
	char *argv[2];
	int err, rc = -1;

	/* Both ends CLOEXEC: a hook started by another request (or anything
	 * else this process spawns) must not inherit this hook's pipes. */
	if (pipe2(in, O_CLOEXEC) < 0 || pipe2(outp, O_CLOEXEC) < 0 ||
	    pipe2(errp, O_CLOEXEC) < 0 ||
	    (req->progress != NULL && pipe2(prog, O_CLOEXEC) < 0)) {
		st->res->status = HOOK_E_IO;
		set_reason(st->res, "pipe: %s", strerror(errno));
		goto out;
	}
	/* Only our ends are non-blocking; O_NONBLOCK in pipe2() would set it
	 * on the hook's ends too, and hooks expect blocking stdio. */
	if (set_nonblock(in[1]) < 0 || set_nonblock(outp[0]) < 0 ||
	    set_nonblock(errp[0]) < 0 ||
	    (prog[0] >= 0 && set_nonblock(prog[0]) < 0)) {
		st->res->status = HOOK_E_IO;
		set_reason(st->res, "fcntl: %s", strerror(errno));
		goto out;
	}

	if ((err = posix_spawn_file_actions_init(&fa)) != 0)
		goto spawn_fail;
	fa_ok = true;
	if ((err = posix_spawn_file_actions_adddup2(&fa, in[0], 0)) != 0 ||
	    (err = posix_spawn_file_actions_adddup2(&fa, outp[1], 1)) != 0 ||
	    (err = posix_spawn_file_actions_adddup2(&fa, errp[1], 2)) != 0)
		goto spawn_fail;
	if (prog[1] >= 0 &&
	    (err = posix_spawn_file_actions_adddup2(&fa, prog[1], 3)) != 0)
		goto spawn_fail;
#ifdef HOOK_HAVE_CLOSEFROM
	/* Fds opened without CLOEXEC by others (libfcgi's connection socket)
	 * would let the hook talk to the web server: close them all (but
	 * the progress pipe). */
	if ((err = posix_spawn_file_actions_addclosefrom_np(
	         &fa, prog[1] >= 0 ? 4 : 3)) != 0)
		goto spawn_fail;
#endif
	if ((err = posix_spawn_file_actions_addchdir_np(&fa, req->dir)) != 0)
		goto spawn_fail;

	if ((err = posix_spawnattr_init(&attr)) != 0)
		goto spawn_fail;
	attr_ok = true;
	/* Its own group (pgid = its pid) so the timeout reaches all it
	 * started; default actions for every signal, since SIG_IGN (our
	 * SIGPIPE) would otherwise survive exec; an empty mask. */
	sigemptyset(&mask);
	all_signals(&dfl);
	if ((err = posix_spawnattr_setflags(
	         &attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK |
	                    POSIX_SPAWN_SETSIGDEF)) != 0 ||
	    (err = posix_spawnattr_setpgroup(&attr, 0)) != 0 ||
	    (err = posix_spawnattr_setsigmask(&attr, &mask)) != 0 ||
	    (err = posix_spawnattr_setsigdefault(&attr, &dfl)) != 0)
		goto spawn_fail;

	argv[0] = (char *)(uintptr_t)req->program;
	argv[1] = NULL;
	/* glibc reports exec and chdir failures here (CLONE_VFORK), so a
	 * missing or non-executable hook never becomes a running child. */
	err = posix_spawn(&st->pid, req->program, &fa, &attr, argv, envp);
	if (err != 0) {
		st->res->status = HOOK_E_START;
		set_reason(st->res, "cannot start %s in %s: %s", req->program,
		    req->dir, strerror(err));
		goto out;
	}
	st->in_fd = in[1];
	st->out_fd = outp[0];
	st->err_fd = errp[0];
	st->prog_fd = prog[0];
	in[1] = outp[0] = errp[0] = prog[0] = -1;
	rc = 0;
	goto out;

spawn_fail:
	st->res->status = HOOK_E_IO;
	set_reason(st->res, "posix_spawn setup: %s", strerror(err));
out:
	if (attr_ok)
		posix_spawnattr_destroy(&attr);
	if (fa_ok)
		posix_spawn_file_actions_destroy(&fa);
	close_fd(&in[0]);
	close_fd(&in[1]);
	close_fd(&outp[0]);
	close_fd(&outp[1]);
	close_fd(&errp[0]);
	close_fd(&errp[1]);
	close_fd(&prog[0]);
	close_fd(&prog[1]);
	return rc;
}

/* Has the child exited?  Looks without reaping it (see the file head). */
static bool
child_exited(struct hook_state *st)
{
	siginfo_t si;

	if (st->exited)
		return true;
	memset(&si, 0, sizeof(si));
	if (waitid(P_PID, (id_t)st->pid, &si, WEXITED | WNOHANG | WNOWAIT) ==
	    0) {
		if (si.si_pid == st->pid)
			st->exited = true;
	} else if (errno == ECHILD) {
		/* Reaped behind our back (a caller that ignores SIGCHLD):
		 * its pid is free for reuse, so -pid may name a stranger's
		 * group from now on.  Never signal it again. */
		st->exited = true;
		st->lost = true;
	}
	return st->exited;
}

/* Wait at most ms for the child to exit; true when it has. */
static bool
child_wait(struct hook_state *st, unsigned ms)
{
	uint64_t end = gpt_now_ms() + ms;
	struct pollfd p;

	while (!child_exited(st)) {
		uint64_t now = gpt_now_ms();
		int wait;

		if (now >= end)
			return false;
		wait = (int)(end - now);
		if (st->pid_fd >= 0) {
			p.fd = st->pid_fd;
			p.events = POLLIN;
			(void)poll(&p, 1, wait);
		} else {
			(void)poll(NULL, 0,
			    wait < HOOK_POLL_FALLBACK_MS
			        ? wait
			        : HOOK_POLL_FALLBACK_MS);
		}
	}
	return true;
}

static void
kill_group(struct hook_state *st, int sig)
{
	/* fcgiwrap once called kill(SIGTERM, pid): the group is -pid. */
	if (!st->lost)
		(void)kill(-st->pid, sig);
	if (sig == SIGKILL)
		st->group_killed = true;
}

bool
hook_runs_as_root(void)
{
	return geteuid() == 0;
}

int
hook_adopt_orphans(void)
{
	return prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0 ? 0 : -1;
}

/*
 * A SIGCHLD set to SIG_IGN (or SA_NOCLDWAIT) lets the kernel reap our
 * children at once: a pid read from /proc could then belong to a stranger
 * by the time we signal it.  The sweep is skipped then.
 */
static bool
children_autoreaped(void)
{
	struct sigaction sa;

	if (sigaction(SIGCHLD, NULL, &sa) != 0)
		return true;
	return sa.sa_handler == SIG_IGN || (sa.sa_flags & SA_NOCLDWAIT) != 0;
}

/*
 * The children this process keeps (hook_keep): a task's runner, forked
 * once and left running.  Each is our child until reaped, so its pid
 * names no stranger while it is listed here; every reap of one goes
 * through hook_unkeep, so the list never holds a pid the kernel may have
 * given to someone else.
 */
static pid_t *hook_kept;
static size_t hook_kept_n, hook_kept_cap;

int
hook_keep_reserve(void)
{
	size_t cap;
	pid_t *p;

	if (hook_kept_n < hook_kept_cap)
		return 0;
	cap = hook_kept_cap < 16 ? 16 : hook_kept_cap * 2;
	if (cap > SIZE_MAX / sizeof(*p) ||
	    (p = realloc(hook_kept, cap * sizeof(*p))) == NULL) {
		errno = ENOMEM;
		return -1;
	}
	hook_kept = p;
	hook_kept_cap = cap;
	return 0;
}

void
hook_keep(pid_t pid)
{
	if (hook_kept_n < hook_kept_cap)
		hook_kept[hook_kept_n++] = pid;
}

void
hook_forget_kept(void)
{
	hook_kept_n = 0;
}

static bool
hook_is_kept(pid_t pid)
{
	size_t i;

	for (i = 0; i < hook_kept_n; i++)
		if (hook_kept[i] == pid)
			return true;
	return false;
}

/* A child was reaped: it is no longer kept (its pid may be reused). */
static void
hook_unkeep(pid_t pid)
{
	size_t i;

	for (i = 0; i < hook_kept_n; i++)
		if (hook_kept[i] == pid) {
			hook_kept[i] = hook_kept[--hook_kept_n];
			return;
		}
}

size_t
hook_reap_kept(void)
{
	size_t reaped = 0;
	pid_t r;

	if (hook_kept_n == 0)
		return 0;
	/* between hooks every child is kept or a stray: neither has a
	 * status anyone waits for.  Bounded by our children. */
	while ((r = waitpid(-1, NULL, WNOHANG)) > 0) {
		hook_unkeep(r);
		reaped++;
	}
	return reaped;
}

/*
 * Append the pids of one /proc/self/task/<tid>/children file to pids,
 * but kept ones (which may be many: the file is read whole).
 */
static void
strays_read_task(const char *tid, pid_t *pids, size_t *n)
{
	char path[64], text[4096];
	uint64_t v = 0;
	size_t digits = 0;
	ssize_t got, i;
	int fd;

	if (snprintf(path, sizeof(path), "/proc/self/task/%s/children", tid) >=
	    (int)sizeof(path))
		return;
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return;
	/* "123 456 ": bounded by the file (our children); a pid may span
	 * two reads, so the digits carry over */
	while (*n < HOOK_STRAYS_MAX) {
		do
			got = read(fd, text, sizeof(text));
		while (got < 0 && errno == EINTR);
		if (got <= 0)
			break;
		for (i = 0; i < got && *n < HOOK_STRAYS_MAX; i++) {
			if (text[i] >= '0' && text[i] <= '9') {
				if (digits++ < 10)
					v = v * 10 + (uint64_t)(text[i] - '0');
				continue;
			}
			if (digits > 0 && digits <= 10 && v > 1 &&
			    v <= INT_MAX && !hook_is_kept((pid_t)v))
				pids[(*n)++] = (pid_t)v;
			v = 0;
			digits = 0;
		}
	}
	close(fd);
}

/*
 * SIGKILL every child of this process but `except` and the kept ones
 * (hook_keep), and the process group each one leads.  Our children stay ours
 * (at worst zombies) until we reap them, so none of these pids can name a
 * stranger; a child's pid is also a group id only if that child made it one
 * (setsid, setpgid).  Returns how many children were found, kept ones left out.
 */
static size_t
strays_kill(pid_t except)
{
	pid_t pids[HOOK_STRAYS_MAX];
	struct dirent *e;
	size_t n = 0, i;
	DIR *d;

	if (children_autoreaped())
		return 0;
	if ((d = opendir("/proc/self/task")) == NULL)
		return 0;
	/* one entry per thread of ours: bounded by the process */
	while ((e = readdir(d)) != NULL && n < HOOK_STRAYS_MAX)
		if (e->d_name[0] != '.')
			strays_read_task(e->d_name, pids, &n);
	closedir(d);
	for (i = 0; i < n; i++) {
		if (pids[i] == except)
			continue;
		(void)kill(-pids[i], SIGKILL);
		(void)kill(pids[i], SIGKILL);
	}
	return n;
}

/*
 * After the hook is reaped: kill and reap every child left (see the file
 * head), until none is left or the bounds run out.  Returns how many were
 * reaped; *left is true when children remained at the end.
 */
static unsigned
strays_reap(bool *left)
{
	uint64_t end = gpt_now_ms() + HOOK_STRAY_MS;
	unsigned reaped = 0, round;
	size_t found = 0;
	pid_t r;

	*left = false;
	if (children_autoreaped())
		return 0;
	for (round = 0; round < HOOK_STRAY_ROUNDS; round++) {
		found = strays_kill(0);
		/* each pass reaps one zombie or stops: bounded by our
		 * children; a kept child that ended is reaped here too */
		while ((r = waitpid(-1, NULL, WNOHANG)) > 0) {
			if (hook_is_kept(r))
				hook_unkeep(r);
			else
				reaped++;
		}
		if (r < 0 && errno == ECHILD)
			return reaped;
		if (r < 0 && errno != EINTR)
			break;
		/* only kept children left, alive: nothing is ours to end */
		if (found == 0)
			return reaped;
		if (gpt_now_ms() >= end)
			break;
		/* SIGKILL is asynchronous: give the dying a moment */
		(void)poll(NULL, 0, HOOK_POLL_FALLBACK_MS);
	}
	*left = strays_kill(0) > 0;
	return reaped;
}

static void
feed_stdin(struct hook_state *st)
{
	size_t left = st->req->body_len - st->in_off;
	ssize_t n;

	if (left == 0) {
		close_fd(&st->in_fd);
		return;
	}
	n = write(st->in_fd, st->req->body + st->in_off, left);
	if (n > 0) {
		st->in_off += (size_t)n;
		if (st->in_off == st->req->body_len)
			close_fd(&st->in_fd);
		return;
	}
	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	/* EPIPE: the hook closed stdin or exited without reading it all.
	 * That is its right; what it wrote still decides the outcome. */
	close_fd(&st->in_fd);
}

static void
drain_stdout(struct hook_state *st)
{
	struct buf *out = st->out;
	size_t room = buf_room(out);
	char probe;
	char *dst;
	ssize_t n;

	if (room == 0) {
		/* Full: one more byte means the hook is over its limit. */
		dst = &probe;
		room = 1;
	} else {
		if (room > HOOK_CHUNK)
			room = HOOK_CHUNK;
		if ((dst = buf_reserve(out, room)) == NULL) {
			io_fail(st, "reading stdout", ENOMEM);
			return;
		}
	}
	n = read(st->out_fd, dst, room);
	if (n > 0) {
		if (dst == &probe) {
			st->over = true;
			return;
		}
		buf_commit(out, (size_t)n);
		return;
	}
	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n < 0)
		io_fail(st, "reading stdout", errno);
	close_fd(&st->out_fd);
}

static void
drain_stderr(struct hook_state *st)
{
	char drop[4096];
	char *dst;
	size_t room;
	ssize_t n;

	if (st->err_len < sizeof(st->err)) {
		dst = st->err + st->err_len;
		room = sizeof(st->err) - st->err_len;
	} else {
		dst = drop;
		room = sizeof(drop);
	}
	n = read(st->err_fd, dst, room);
	if (n > 0) {
		st->res->stderr_bytes += (size_t)n;
		if (dst != drop)
			st->err_len += (size_t)n;
		return;
	}
	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	/* EOF, or an error on a log-only stream: stop reading it. */
	close_fd(&st->err_fd);
}

/*
 * The progress pipe: complete lines go to req->progress as they come; a
 * line longer than HOOK_PROGRESS_LINE_MAX is reported once (NULL) and
 * skipped to its end.  What is left without a '\n' at EOF is a line too.
 */
static void
drain_progress(struct hook_state *st)
{
	char chunk[4096];
	ssize_t n;
	size_t i;

	n = read(st->prog_fd, chunk, sizeof(chunk));
	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n <= 0) {
		if (st->prog_len > 0 && !st->prog_long)
			st->req->progress(
			    st->req->progress_ctx, st->prog, st->prog_len);
		st->prog_len = 0;
		close_fd(&st->prog_fd);
		return;
	}
	for (i = 0; i < (size_t)n; i++) {
		if (chunk[i] == '\n') {
			if (!st->prog_long)
				st->req->progress(st->req->progress_ctx,
				    st->prog, st->prog_len);
			st->prog_len = 0;
			st->prog_long = false;
		} else if (st->prog_long) {
			continue;
		} else if (st->prog_len == sizeof(st->prog)) {
			/* hits on a hook writing 5000 bytes without '\n' */
			st->prog_long = true;
			st->req->progress(st->req->progress_ctx, NULL, 0);
		} else {
			st->prog[st->prog_len++] = chunk[i];
		}
	}
}

/*
 * Serve the three pipes (four with the progress pipe) until the child has
 * exited and both output pipes are at EOF, or the output is over its cap, or
 * the deadline passes, or our side fails.  Every iteration either makes
 * progress or sleeps in poll() no later than the deadline, so the loop is
 * bounded by timeout_sec.
 */
static void
pump(struct hook_state *st)
{
	struct pollfd p[5];
	int np, idx_in, idx_out, idx_err, idx_prog, wait;
	bool strays = false;
	uint64_t now;

	for (;;) {
		if (child_exited(st) && !st->group_killed) {
			/* Nothing it left behind outlives the act. */
			kill_group(st, SIGKILL);
			close_fd(&st->in_fd);
		}
		/* What left the group holds a pipe: kill it as it becomes
		 * ours (each kill may orphan more), looking every
		 * HOOK_POLL_FALLBACK_MS until the pipes close. */
		if (st->exited && !st->lost && strays_kill(st->pid) > 1)
			strays = true;
		if (st->over || st->io_what != NULL)
			return;
		if (st->req->cancel != NULL && *st->req->cancel) {
			st->cancelled = true;
			return;
		}
		if (st->exited && st->out_fd < 0 && st->err_fd < 0 &&
		    st->prog_fd < 0)
			return;
		now = gpt_now_ms();
		if (now >= st->deadline_ms) {
			st->timed_out = true;
			return;
		}
		wait = st->deadline_ms - now > INT32_MAX
		           ? INT32_MAX
		           : (int)(st->deadline_ms - now);
		/* a cancel signal that lands just before poll() is seen
		 * within this long */
		if (st->req->cancel != NULL && wait > 250)
			wait = 250;
		np = 0;
		idx_in = idx_out = idx_err = idx_prog = -1;
		if (st->in_fd >= 0) {
			p[np].fd = st->in_fd;
			p[np].events = POLLOUT;
			idx_in = np++;
		}
		if (st->out_fd >= 0) {
			p[np].fd = st->out_fd;
			p[np].events = POLLIN;
			idx_out = np++;
		}
		if (st->err_fd >= 0) {
			p[np].fd = st->err_fd;
			p[np].events = POLLIN;
			idx_err = np++;
		}
		if (st->prog_fd >= 0) {
			p[np].fd = st->prog_fd;
			p[np].events = POLLIN;
			idx_prog = np++;
		}
		if (!st->exited && st->pid_fd >= 0) {
			p[np].fd = st->pid_fd;
			p[np].events = POLLIN;
			np++;
		} else if ((!st->exited || strays) &&
		           wait > HOOK_POLL_FALLBACK_MS) {
			wait = HOOK_POLL_FALLBACK_MS;
		}
		if (poll(p, (nfds_t)np, wait) < 0) {
			if (errno == EINTR)
				continue;
			io_fail(st, "poll", errno);
			return;
		}
		if (idx_in >= 0 && p[idx_in].revents != 0)
			feed_stdin(st);
		if (idx_out >= 0 && p[idx_out].revents != 0)
			drain_stdout(st);
		if (idx_err >= 0 && p[idx_err].revents != 0)
			drain_stderr(st);
		if (idx_prog >= 0 && p[idx_prog].revents != 0)
			drain_progress(st);
	}
}

/*
 * The kept stderr, one log line per hook line.  log_ turns control bytes
 * into '?'; NUL bytes would end the %s early, so they become '?' here.
 */
static void
forward_stderr(struct hook_state *st)
{
	const char *addr = st->req->address != NULL ? st->req->address : "";
	size_t i, start = 0;

	for (i = 0; i < st->err_len; i++)
		if (st->err[i] == '\0')
			st->err[i] = '?';
	for (i = 0; i <= st->err_len; i++) {
		size_t len;

		if (i < st->err_len && st->err[i] != '\n')
			continue;
		len = i - start;
		if (len > 0 && st->err[start + len - 1] == '\r')
			len--;
		if (len > 0)
			log_warn(
			    "hook %s: %.*s", addr, (int)len, st->err + start);
		start = i + 1;
	}
	if (st->res->stderr_bytes > st->err_len)
		log_warn("hook %s: %zu more bytes of stderr dropped", addr,
		    st->res->stderr_bytes - st->err_len);
}

static void
reap(struct hook_state *st)
{
	int ws;
	pid_t r;

	do
		r = waitpid(st->pid, &ws, 0);
	while (r < 0 && errno == EINTR);
	if (r != st->pid) {
		/* ECHILD: someone else reaped it; its status is unknown. */
		if (st->io_what == NULL)
			io_fail(st, "waitpid", errno);
		return;
	}
	if (WIFEXITED(ws))
		st->res->exit_code = WEXITSTATUS(ws);
	else if (WIFSIGNALED(ws))
		st->res->signal = WTERMSIG(ws);
}

static void
decide(struct hook_state *st)
{
	const struct hook_req *req = st->req;
	struct hook_result *res = st->res;

	if (st->io_what != NULL) {
		/* hits when out of memory for the output, or SIGCHLD ignored */
		res->status = HOOK_E_IO;
		set_reason(res, "%s: %s", st->io_what, strerror(st->io_errno));
	} else if (st->cancelled) {
		/* hits on DELETE of a task while its hook runs */
		res->status = HOOK_E_CANCELLED;
		set_reason(res, "cancelled");
	} else if (st->over) {
		/* hits on a hook `exec yes` */
		res->status = HOOK_E_OUTPUT;
		set_reason(res, "wrote more than %zu bytes on stdout: killed",
		    req->max_output);
	} else if (st->ran_at_timeout) {
		/* hits on a hook `sleep 60`, `while :; do :; done`, and
		 * (KILL) on `trap '' TERM; sleep 60` */
		res->status = HOOK_E_TIMEOUT;
		if (st->kill_needed)
			set_reason(res,
			    "timed out after %u s: ignored "
			    "SIGTERM for %d ms, ended by SIGKILL",
			    req->timeout_sec, HOOK_KILL_GRACE_MS);
		else if (res->signal == SIGTERM)
			set_reason(res,
			    "timed out after %u s: ended by "
			    "SIGTERM",
			    req->timeout_sec);
		else if (res->signal != 0)
			set_reason(res,
			    "timed out after %u s: ended by "
			    "signal %d after SIGTERM",
			    req->timeout_sec, res->signal);
		else
			set_reason(res,
			    "timed out after %u s: exited with "
			    "status %d on SIGTERM",
			    req->timeout_sec, res->exit_code);
	} else if (st->timed_out) {
		/* Reached when the hook exited but what it started keeps
		 * stdout open and could not be killed: the process is not a
		 * subreaper (hook_adopt_orphans) and it left the group. */
		res->status = HOOK_E_TIMEOUT;
		set_reason(res,
		    "exited, but its stdout was still open after "
		    "%u s",
		    req->timeout_sec);
	} else if (res->signal != 0) {
		/* hits on a hook `kill -SEGV $$` */
		res->status = HOOK_E_SIGNAL;
		set_reason(res, "killed by signal %d", res->signal);
	} else if (res->exit_code != 0) {
		/* hits on a hook `exit 1` */
		res->status = HOOK_E_EXIT;
		set_reason(res, "exited with status %d", res->exit_code);
	} else {
		res->status = HOOK_OK;
	}
}

enum hook_status
hook_run(const struct hook_req *req, struct buf *out, struct hook_result *res)
{
	struct hook_state *st;
	struct buf envb;
	char *envp[HOOK_ENV_COUNT];

	memset(res, 0, sizeof(*res));
	res->exit_code = -1;
	buf_reset_max(out, req->max_output);
	buf_init(&envb, HOOK_ENV_MAX);

	/* The state carries an 8 KiB stderr buffer: off the stack, which a
	 * FastCGI worker may keep small. */
	if ((st = calloc(1, sizeof(*st))) == NULL) {
		res->status = HOOK_E_IO;
		set_reason(res, "out of memory");
		goto out;
	}
	st->req = req;
	st->out = out;
	st->res = res;
	st->in_fd = st->out_fd = st->err_fd = st->pid_fd = st->prog_fd = -1;
	st->start_ms = gpt_now_ms();
	st->deadline_ms = st->start_ms + (uint64_t)req->timeout_sec * 1000;

	if (env_build(req, &envb, envp) < 0) {
		res->status = HOOK_E_IO;
		set_reason(
		    res, "environment larger than %zu bytes", HOOK_ENV_MAX);
		goto out;
	}
	if (hook_spawn(st, envp) < 0)
		goto out;
#if defined(SYS_pidfd_open) && !defined(HOOK_NO_PIDFD)
	/* Linux >= 5.3: poll() wakes at the child's exit.  Without it the
	 * loop looks every HOOK_POLL_FALLBACK_MS (HOOK_NO_PIDFD builds that
	 * path for its test).  pidfds are CLOEXEC. */
	st->pid_fd = (int)syscall(SYS_pidfd_open, st->pid, 0);
	if (st->pid_fd < 0)
		st->pid_fd = -1;
#endif
	if (req->body_len == 0)
		close_fd(&st->in_fd);

	pump(st);

	close_fd(&st->in_fd);
	if (!st->exited && st->cancelled) {
		kill_group(st, SIGTERM);
		(void)child_wait(st, HOOK_KILL_GRACE_MS);
	} else if (!st->exited && st->timed_out) {
		/* doc/protocol.md, "The hook": killed, with all it started, at
		 * hook_timeout.  TERM first so a hook may clean up, then KILL
		 * regardless. Noted before child_wait() marks it exited, for
		 * decide(). */
		st->ran_at_timeout = true;
		st->term_sent = true;
		kill_group(st, SIGTERM);
		st->kill_needed = !child_wait(st, HOOK_KILL_GRACE_MS);
	}
	/* Always, even after a clean exit: a grandchild started in the
	 * background may still run (or have appeared since the last kill). */
	kill_group(st, SIGKILL);
	if (!st->lost)
		(void)strays_kill(st->pid);
	reap(st);
	/* Only now, with the hook's status taken: reap what it left. */
	if (!st->lost) {
		bool left;
		unsigned n = strays_reap(&left);

		if (left)
			log_warn("hook %s: processes it started are still "
			         "running after SIGKILL and %d ms",
			    req->address != NULL ? req->address : "",
			    HOOK_STRAY_MS);
		else if (n > 0)
			log_info("hook %s: killed %u processes it left "
			         "running",
			    req->address != NULL ? req->address : "", n);
	}
	close_fd(&st->out_fd);
	close_fd(&st->err_fd);
	close_fd(&st->pid_fd);
	close_fd(&st->prog_fd);
	res->elapsed_ms = (unsigned)(gpt_now_ms() - st->start_ms);
	decide(st);
	forward_stderr(st);
out:
	free(st);
	buf_free(&envb);
	return res->status;
}
