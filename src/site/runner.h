/*
 * runner.h: the process that runs a task's hook outside the request that
 * created it (address.conf `act = task`).
 *
 * The runner lives on its own: the responder forks once and the child
 * calls setsid(), so no signal to the responder's process group or
 * session reaches it, and runs the task.  The responder does not wait
 * for it: it keeps it (hook_keep), so its own hook_run, which kills every
 * other child as a stray, leaves the runner alone, and reaps it without
 * blocking between requests (hook_reap_kept; a CGI process exits
 * instead).  A responder that exits or restarts leaves its runners to
 * init (or the nearest subreaper above it), never taking its tasks with
 * it.  The runner is a subreaper itself, so the hook runs under exactly
 * the sandbox of hook.h (environment, process group, strays killed,
 * limits), with task_timeout for its time.

 * The lease.  The responder takes the task's lock (store_lock) before it
 * forks; the runner inherits it and holds it until it has written the
 * task's final record.  The kernel drops a flock when its holder dies, so
 * a reader that finds a task "working" with its lock free knows, at once
 * and on this host, that the runner was lost (kill -9, a crash, a
 * reboot): it marks the task failed, reason "runner lost".  A task is
 * never started again, so it never runs twice.
 *
 * Under PostgreSQL (store.h) the lease is a time in the shared record
 * that a thread of the runner renews every third of task_lease; a reader
 * on any host that finds it run out marks the task failed, "runner
 * lost", in one conditional statement (so within task_lease of the
 * loss).  A DELETE on any host sets the record's cancel flag, which the
 * thread turns into the runner's SIGTERM.
 *
 * Progress: the hook's fd 3 is a pipe; each line that is a JSON object
 * with "message" (a string) and/or "progress" (a number from 0 to 1)
 * becomes the task's statusMessage and progress (the record rewritten);
 * any other line is logged (the first RUNNER_GARBAGE_LOGGED of them) and
 * ignored.
 *
 * Cancellation: SIGTERM to the runner (the responder sends it on DELETE)
 * ends the hook's whole tree and the task becomes cancelled.
 *
 * The runner's lines go to stderr when it is a file, a terminal or a
 * socket (spawn-fcgi's log, the journal); when it is a pipe (a CGI
 * program's, which a web server reads until every writer closes it),
 * to runner.log in the store instead.
 */
#ifndef GPT_RUNNER_H
#define GPT_RUNNER_H

#include "schema/schema.h"
#include "site/hook.h"
#include "site/store.h"
#include "site/taskrec.h"

/* Garbage progress lines logged per task; later ones are only counted. */
#define RUNNER_GARBAGE_LOGGED 5

struct runner_task {
	const struct store *store; /* borrowed: open */
	const char *conninfo;      /* borrowed: PostgreSQL's, or NULL */
	struct taskrec rec;        /* the record as stored at the 202 */
	struct hook_req hook;      /* borrowed strings; timeout_sec is
	                              task_timeout */
	/* borrowed: the form of the answer (address.h's a), or NULL; the
	 * runner is a fork of the responder, so the load it points into is
	 * the runner's copy, kept as long as the runner lives */
	const struct schema *answer;
};

/*
 * Start the runner for t, which holds lock_fd (the task's lock, taken
 * by the caller; -1 under PostgreSQL, where the lease is the record's):
 * 0 once the runner process exists (the lock is then its
 * own; the caller's copy is closed here); -1 with errno when the fork
 * failed (nothing runs; the caller still holds lock_fd and closes it).
 * The runner is the caller's child, kept (hook.h): the caller reaps it
 * with hook_reap_kept, and SIGCHLD must stay at its default.
 */
int runner_start(const struct runner_task *t, int lock_fd) GPT_MUSTCHECK;

/*
 * Fork twice, so that what the caller runs next outlives it and belongs
 * to init, not to the caller (no zombie, no SIGCHLD; a subreaper caller
 * stops being one across the forks).  0 in the grandchild, in a session
 * of its own: it must end with _exit; 1 in the caller once the middle
 * child has ended; -1 with errno when a fork failed (nothing runs).
 * An event stream served apart starts so.
 */
int runner_detach(void) GPT_MUSTCHECK;

/*
 * Mark a task whose runner is gone failed ("runner lost"), if its record
 * still says working once the lock is ours.  name is the task's record
 * name, lock its lock's.  Leaves the record in out (the record bytes as
 * they are after the call; unchanged when the runner lives).  0, or -1
 * when the store fails.
 */
int runner_reap_lost(const struct store *s, const char *name, const char *lock,
    struct buf *out) GPT_MUSTCHECK;

#endif /* GPT_RUNNER_H */
