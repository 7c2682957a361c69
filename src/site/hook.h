/*
 * hook.h: run an address's hook executable once for an accepted act.
 *
 * Owns: for the duration of one hook_run(), the child process, its process
 * group, three pipes and (on Linux >= 5.3) a pidfd.  All of them are
 * released before hook_run() returns, whatever the outcome: no fd, no
 * zombie and no memory outlives the call, so a FastCGI process may call it
 * forever.
 *
 * The hook is started directly (posix_spawn, never a shell), in its own
 * process group, with the address directory as working directory, the body
 * bytes on stdin exactly, an empty signal mask and default signal actions,
 * no fd but 0, 1 and 2 (and 3, the progress pipe, when req->progress is
 * set), and only this environment (doc/protocol.md, "The
 * hook"):
 *
 *	PATH=HOOK_PATH_ENV
 *	GPT_ADDRESS=<req->address>
 *	GPT_ACTOR=<req->actor>          only when req->actor != NULL
 *	CONTENT_LENGTH=<req->body_len>
 *	REMOTE_ADDR=<req->remote_addr>  only when req->remote_addr != NULL
 *	NAME=value                      each of req->extra_env, after them
 *
 * The extra variables are the operator's (address.conf hook_env), checked
 * by the caller: names unique, none of the names above except PATH, which
 * then replaces HOOK_PATH_ENV.
 *
 * Limits: stdout is captured up to max_output bytes (one more byte kills the
 * hook: HOOK_E_OUTPUT); at timeout_sec the whole process group gets
 * SIGTERM, HOOK_KILL_GRACE_MS later SIGKILL.  When the hook exits by
 * itself, whatever it left running in its group is SIGKILLed, so a
 * background grandchild does not outlive the act.  A process that leaves
 * the group (setsid(), setpgid(), a double fork) is caught too once the
 * caller is a child subreaper (hook_adopt_orphans()): when the hook ends
 * or is killed, every other child of the calling process is SIGKILLed
 * with the group it leads and reaped, repeatedly, until none is left
 * (bounded by HOOK_STRAY_ROUNDS and HOOK_STRAY_MS).
 *
 * stderr: the first HOOK_STDERR_MAX bytes are forwarded to log_warn(), one
 * log line per hook line, prefixed "hook <address>: "; the rest is read and
 * dropped, and a last line says how many bytes were dropped.
 *
 * Process-wide requirements on the caller: SIGPIPE is ignored (a hook that
 * exits without reading its stdin must not kill us), and SIGCHLD is not
 * ignored (that would reap the hook behind our back: its exit status is
 * then unknown, and hook_run() answers HOOK_E_IO; the sweep of strays is
 * then skipped, since their pids could be reused).  hook_run() takes its
 * own child's status with waitpid(pid) first; only then does it reap
 * others with waitpid(-1).  The caller must have no children of its own
 * besides the hooks it runs and the ones it keeps (hook_keep: a task's
 * runner): hook_run() kills all the others.  Not thread-safe against
 * other threads forking.
 */
#ifndef GPT_HOOK_H
#define GPT_HOOK_H

#include <signal.h>
#include <sys/types.h>

#include "base/buf.h"
#include "base/common.h"

/* The fixed PATH every hook gets: no directory of the server's choosing. */
#define HOOK_PATH_ENV "/usr/local/bin:/usr/bin:/bin"

/* Operator-set variables a hook may get (address.conf hook_env). */
#define HOOK_EXTRA_ENV_MAX 16

/* Bytes of the hook's stderr forwarded to the log; the rest is dropped. */
#define HOOK_STDERR_MAX ((size_t)8192)

/* Between SIGTERM and SIGKILL at the timeout. */
#define HOOK_KILL_GRACE_MS 200

/* Killing and reaping what the hook left: passes and time, at most. */
#define HOOK_STRAY_ROUNDS 100
#define HOOK_STRAY_MS 1000

/* A line on the progress fd (fd 3) longer than this is dropped. */
#define HOOK_PROGRESS_LINE_MAX ((size_t)4096)

/* Size of hook_result.reason, NUL included. */
#define HOOK_REASON_MAX 256

enum hook_status {
	HOOK_OK,       /* exited 0 within time and output limits */
	HOOK_E_START,  /* could not be started: missing, not executable, bad dir
	                */
	HOOK_E_EXIT,   /* exited with a non-zero status */
	HOOK_E_SIGNAL, /* killed by a signal it did not get from us */
	HOOK_E_TIMEOUT,  /* still running (or holding its stdout) at timeout_sec
	                  */
	HOOK_E_OUTPUT,   /* wrote more than max_output bytes on stdout */
	HOOK_E_IO,       /* our side failed: pipe, poll, read, out of memory */
	HOOK_E_CANCELLED /* *req->cancel was set: ended as at the timeout */
};

/*
 * Each line the hook writes on fd 3 (without its '\n'), or line NULL for
 * a line longer than HOOK_PROGRESS_LINE_MAX (dropped).
 */
typedef void (*hook_progress_fn)(void *ctx, const char *line, size_t len);

struct hook_req {
	const char *dir;         /* borrowed: the hook's working directory */
	const char *program;     /* borrowed: run with argv {program, NULL};
	                            a relative path is resolved in dir, so
	                            pass "./hook" or an absolute path */
	const char *address;     /* borrowed: GPT_ADDRESS and the log prefix */
	const char *actor;       /* borrowed: GPT_ACTOR, or NULL: not set */
	const char *remote_addr; /* borrowed: REMOTE_ADDR, or NULL: not set */
	const char *body;        /* borrowed: stdin bytes (NULs allowed);
	                            may be NULL when body_len is 0 */
	size_t body_len;
	unsigned timeout_sec;     /* hook_timeout; 0 kills the hook at once */
	size_t max_output;        /* hook_max_output, bytes of stdout */
	const char *extra_env;    /* borrowed: extra_env_count "NAME=value"
	                             strings, each NUL-terminated, one after
	                             the other; NULL when none */
	unsigned extra_env_count; /* at most HOOK_EXTRA_ENV_MAX */
	/* borrowed, or NULL: the act's Idempotency-Key, which the hook
	 * gets as GPT_IDEMPOTENCY_KEY (a hook whose effect lives outside
	 * gpt.fcgi, a database row, keeps it with the effect, so a retry
	 * after a host died between the two is still stored once) */
	const char *idem_key;
	size_t idem_key_len;
	/* Long-running acts (runner.h); NULL for an answer act, and the
	 * hook then has no fd 3. */
	hook_progress_fn progress; /* fd 3 is a pipe read into it */
	void *progress_ctx;        /* borrowed */
	/* borrowed, or NULL: when it becomes non-zero (a signal handler
	 * sets it) the hook's group gets SIGTERM then SIGKILL, as at the
	 * timeout, and the status is HOOK_E_CANCELLED */
	volatile sig_atomic_t *cancel;
};

struct hook_result {
	enum hook_status status;
	int exit_code;       /* exit status when it exited, else -1 */
	int signal;          /* signal that ended it, else 0 */
	unsigned elapsed_ms; /* from spawn to reaping */
	size_t stderr_bytes; /* bytes it wrote on stderr, dropped included */
	char reason[HOOK_REASON_MAX]; /* one line for the log; "" when OK */
};

/*
 * Run req->program as described at the top of this file and wait for it
 * (bounded by req->timeout_sec plus the kill grace).
 *
 * out: a buffer the caller owns, initialized with buf_init() (its memory is
 * kept across calls).  hook_run() empties it, sets its maximum to
 * req->max_output (buf_reset_max), and appends the hook's stdout.  Only
 * with HOOK_OK is out the hook's complete output; on failure it holds
 * whatever was read and must not be sent.  Checking that it is one strict JSON
 * value is the caller's job.
 *
 * res: always filled.  Returns res->status: HOOK_OK only when the hook
 * exited 0, wrote at most max_output bytes and finished before the timeout.
 */
enum hook_status hook_run(const struct hook_req *req, struct buf *out,
    struct hook_result *res) GPT_MUSTCHECK;

/*
 * Make the calling process a child subreaper (Linux prctl
 * PR_SET_CHILD_SUBREAPER): orphaned descendants of its hooks come back to
 * it instead of init, so hook_run() can kill them.  Call once at start;
 * children spawned later do not inherit it.  0, or -1 with errno set.
 */
int hook_adopt_orphans(void) GPT_MUSTCHECK;

/*
 * Children the caller keeps (a task's runner, forked once): hook_run()'s
 * sweep of strays leaves them alone, and the caller reaps them without
 * waiting (hook_reap_kept) between hooks.  hook_keep_reserve, before the
 * fork, makes room for one more (0, or -1 with errno ENOMEM), so that
 * hook_keep(pid), after it, cannot fail.  hook_forget_kept, in a new
 * child: its parent's children are not its own.
 */
int hook_keep_reserve(void) GPT_MUSTCHECK;
void hook_keep(pid_t pid);
void hook_forget_kept(void);

/*
 * Reap the kept children that have ended, never waiting (waitpid(-1,
 * WNOHANG): call it only while no hook runs, so no status anyone waits
 * for is taken).  Nothing at all while none is kept.  How many were
 * reaped.
 */
size_t hook_reap_kept(void);

/*
 * True when hooks started now would run as root (the effective uid is 0):
 * gpt.fcgi never changes user, so a hook runs as whoever runs the
 * responder.  HOOK_ROOT_WARNING is the line the responder logs once at
 * start and --check prints, so an operator meets the same words in both.
 */
bool hook_runs_as_root(void);
#define HOOK_ROOT_WARNING                                                      \
	"hooks run as root: run gpt.fcgi as a dedicated user (spawn-fcgi "     \
	"-u, User= in the systemd unit, the web server's user for CGI)"

/* A static name for a status ("ok", "timeout", ...); never NULL. */
const char *hook_strstatus(enum hook_status st);

#endif /* GPT_HOOK_H */
