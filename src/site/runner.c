/*
 * runner.c: the task runner on its own (runner.h): its fork, the
 * runner's process hygiene, the hook under hook_run, progress and the
 * final record.
 *
 * Owns, in the runner process: the lock fd (the lease), a copy of the
 * store's fd, the hook's output buffer and an arena for parsing progress
 * lines and the output.  The runner ends with _exit: nothing of the
 * responder's (its atexit handlers, libfcgi's state, buffered stdio) runs
 * twice.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/arena.h"
#include "base/dec.h"
#include "parser/json.h"
#include "base/log.h"
#include "site/runner.h"

/* Set by SIGTERM and SIGINT in the runner: cancel the hook. */
static volatile sig_atomic_t runner_cancel;

static void
runner_on_cancel(int sig)
{
	(void)sig;
	runner_cancel = 1;
}

/* The runner's state while the hook runs. */
struct runner {
	const struct store *store; /* borrowed */
	const char *address;       /* borrowed: for log lines */
	struct taskrec rec;        /* strings borrowed from the fields below */
	char name[STORE_NAME_MAX];
	struct arena scratch; /* owned: one progress line at a time */
	struct buf record;    /* owned: the record being written */
	char message[TASKREC_MESSAGE_MAX];
	char progress[32];
	unsigned garbage; /* progress lines ignored */
};

/* Write the record as r->rec says, durable or not. */
static void
runner_write(struct runner *r, bool durable)
{
	buf_reset(&r->record);
	r->rec.updated_ms = taskrec_now_ms();
	if (taskrec_format(&r->rec, &r->record) == -1 ||
	    store_put(r->store, r->name, buf_ptr(&r->record),
	        buf_len(&r->record), durable) == -1)
		log_error("task store %s: cannot write a record: %s",
		    r->store->path, strerror(errno));
}

/* Cut len bytes of UTF-8 at s to at most max bytes, on a character
 * boundary. */
static size_t
runner_cut_utf8(const char *s, size_t len, size_t max)
{
	if (len <= max)
		return len;
	len = max;
	/* back over continuation bytes (10xxxxxx) to a lead byte */
	while (len > 0 && ((unsigned char)s[len] & 0xC0) == 0x80)
		len--;
	return len;
}

static void
runner_garbage(struct runner *r, const char *why)
{
	if (r->garbage++ < RUNNER_GARBAGE_LOGGED)
		log_warn("hook %s: a progress line on fd 3 ignored: %s",
		    r->address, why);
}

/* hook_progress_fn: one line from the hook's fd 3. */
static void
runner_progress(void *ctx, const char *line, size_t len)
{
	struct runner *r = ctx;
	const struct json_value *v, *m, *p;
	struct json_err jerr;
	bool changed = false;

	if (line == NULL) {
		runner_garbage(r, "longer than 4096 bytes");
		return;
	}
	arena_reset(&r->scratch);
	if (json_parse(line, len, &r->scratch, 8, &v, &jerr) != JSON_OK) {
		/* hits on a hook `echo hello >&3` */
		runner_garbage(r, "not strict JSON");
		return;
	}
	if (v->type != JSON_T_OBJECT) {
		runner_garbage(r, "not a JSON object");
		return;
	}
	m = json_object_get(v, "message", 7);
	p = json_object_get(v, "progress", 8);
	if ((m == NULL && p == NULL) ||
	    (m != NULL && m->type != JSON_T_STRING) ||
	    (p != NULL && p->type != JSON_T_NUMBER)) {
		/* hits on {"progress": "half"} and {} */
		runner_garbage(r, "no string \"message\" nor number "
		                  "\"progress\"");
		return;
	}
	if (p != NULL) {
		struct dec d, lo, hi;

		if (dec_parse(p->u.num.text, p->u.num.len, &d) == -1 ||
		    dec_parse("0", 1, &lo) == -1 ||
		    dec_parse("1", 1, &hi) == -1 || dec_cmp(&d, &lo) < 0 ||
		    dec_cmp(&d, &hi) > 0 ||
		    p->u.num.len >= sizeof(r->progress)) {
			/* hits on {"progress": 40} */
			runner_garbage(r, "\"progress\" is not from 0 to 1");
			return;
		}
		memcpy(r->progress, p->u.num.text, p->u.num.len);
		r->rec.progress = r->progress;
		r->rec.progress_len = p->u.num.len;
		changed = true;
	}
	if (m != NULL) {
		size_t n = runner_cut_utf8(
		    m->u.str.ptr, m->u.str.len, sizeof(r->message));

		memcpy(r->message, m->u.str.ptr, n);
		r->rec.message = r->message;
		r->rec.message_len = n;
		changed = true;
	}
	if (changed)
		runner_write(r, false);
}

/* The failure class a task shows for a hook's status (never its
 * stderr: that goes to the log). */
static const char *
runner_reason(enum hook_status st)
{
	switch (st) {
	case HOOK_OK:
		return NULL;
	case HOOK_E_START:
		return "hook cannot start";
	case HOOK_E_EXIT:
		return "hook failed";
	case HOOK_E_SIGNAL:
		return "hook killed";
	case HOOK_E_TIMEOUT:
		return "timeout";
	case HOOK_E_OUTPUT:
		return "output too large";
	case HOOK_E_IO:
		return "server error";
	case HOOK_E_CANCELLED:
		return "cancelled";
	}
	return "server error";
}

/*
 * Where the runner's lines go: stderr unless it is a pipe (see
 * runner.h), then runner.log in the store.  stdin and stdout become
 * /dev/null: the web server's connection or pipe must see its end.
 */
static void
runner_stdio(const struct store *s)
{
	struct stat st;
	int fd = open("/dev/null", O_RDWR | O_CLOEXEC);

	if (fd >= 0) {
		(void)dup2(fd, STDIN_FILENO);
		(void)dup2(fd, STDOUT_FILENO);
	}
	if (fstat(STDERR_FILENO, &st) == -1 || S_ISFIFO(st.st_mode)) {
		int lfd = openat(s->dfd, "runner.log",
		    O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_CLOEXEC,
		    0600);

		(void)dup2(lfd >= 0 ? lfd : fd, STDERR_FILENO);
		if (lfd >= 0)
			(void)close(lfd);
	}
	if (fd > STDERR_FILENO)
		(void)close(fd);
}

/*
 * Close every fd but 0-2 and keep (the web server's connection, the
 * listening socket, other requests' files): they are CLOEXEC for the
 * hook, but the runner itself must not hold them open either.
 */
static void
runner_close_fds(int keep1, int keep2)
{
	int fd, max = (int)sysconf(_SC_OPEN_MAX);
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;

	if (d != NULL) {
		int self = dirfd(d);

		/* bounded by the fds open: each entry is one of them */
		while ((e = readdir(d)) != NULL) {
			fd = atoi(e->d_name);
			if (e->d_name[0] < '0' || e->d_name[0] > '9' ||
			    fd <= STDERR_FILENO || fd == keep1 || fd == keep2 ||
			    fd == self)
				continue;
			(void)close(fd);
		}
		(void)closedir(d);
		return;
	}
	/* no /proc: every possible fd, at most 65536 */
	if (max < 0 || max > 65536)
		max = 65536;
	for (fd = STDERR_FILENO + 1; fd < max; fd++)
		if (fd != keep1 && fd != keep2)
			(void)close(fd);
}

/*
 * The lease under PostgreSQL (store.h): a thread renews it every third of
 * task_lease, and carries a DELETE made on any host to the hook as the
 * SIGTERM a local DELETE would send.  It shares the store's connection
 * (store_pg.h serializes the calls) and takes no signal.
 */
struct runner_lease {
	const struct store *store; /* borrowed */
	const char *name;          /* borrowed: the task's record */
	pthread_mutex_t mu;
	pthread_cond_t cv;
	bool stop; /* under mu */
};

static void *
runner_lease_main(void *arg)
{
	struct runner_lease *l = arg;
	/* a third of the lease, and at least once a second, so that a
	 * DELETE elsewhere reaches the hook well inside its wait
	 * (TASK_CANCEL_WAIT_MS) */
	unsigned every_ms =
	    l->store->lease_ms / 3 < 1000 ? l->store->lease_ms / 3 : 1000;
	bool cancelled = false;

	(void)pthread_mutex_lock(&l->mu);
	/* bounded by the runner's life: it sets stop once the final
	 * record is written */
	while (!l->stop) {
		struct timespec until;
		bool cancel;

		(void)pthread_mutex_unlock(&l->mu);
		if (store_renew(l->store, l->name, &cancel) == -1)
			log_warn("task store %s: cannot renew a lease: the "
			         "task ends lost if this goes on",
			    l->store->path);
		else if (cancel && !cancelled) {
			/* hits on DELETE through another host */
			cancelled = true;
			(void)kill(getpid(), SIGTERM);
		}
		(void)clock_gettime(CLOCK_REALTIME, &until);
		until.tv_sec += every_ms / 1000;
		until.tv_nsec += (long)(every_ms % 1000) * 1000000L;
		if (until.tv_nsec >= 1000000000L) {
			until.tv_sec++;
			until.tv_nsec -= 1000000000L;
		}
		(void)pthread_mutex_lock(&l->mu);
		/* one wait per renewal: stop wakes it early */
		if (!l->stop)
			(void)pthread_cond_timedwait(&l->cv, &l->mu, &until);
	}
	(void)pthread_mutex_unlock(&l->mu);
	return NULL;
}

/* Start the lease thread (PostgreSQL only): true when started. */
static bool
runner_lease_start(struct runner_lease *l, pthread_t *th)
{
	sigset_t all, old;
	int e;

	(void)pthread_mutex_init(&l->mu, NULL);
	(void)pthread_cond_init(&l->cv, NULL);
	l->stop = false;
	/* the thread inherits a mask that blocks everything: SIGTERM and
	 * SIGCHLD go to the hook's loop */
	sigfillset(&all);
	(void)pthread_sigmask(SIG_BLOCK, &all, &old);
	e = pthread_create(th, NULL, runner_lease_main, l);
	(void)pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (e != 0) {
		log_error("task runner: cannot start its lease thread: %s: "
		          "the task ends lost",
		    strerror(e));
		return false;
	}
	return true;
}

static void
runner_lease_stop(struct runner_lease *l, pthread_t th)
{
	(void)pthread_mutex_lock(&l->mu);
	l->stop = true;
	(void)pthread_cond_signal(&l->cv);
	(void)pthread_mutex_unlock(&l->mu);
	(void)pthread_join(th, NULL);
}

/* The runner process: never returns. */
static void
runner_main(const struct runner_task *t, int lock_fd)
{
	struct runner r;
	struct sigaction sa;
	struct hook_req hr = t->hook;
	struct hook_result res;
	struct buf out;
	const char *reason;
	char hex[STORE_ID_HEX + 1];
	struct store st = *t->store;
	struct runner_lease lease;
	pthread_t lease_th;
	bool leased = false;

	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = runner_on_cancel;
	(void)sigaction(SIGTERM, &sa, NULL);
	(void)sigaction(SIGINT, &sa, NULL);
	sa.sa_handler = SIG_DFL;
	(void)sigaction(SIGUSR1, &sa, NULL);
	(void)sigaction(SIGCHLD, &sa, NULL);
	sa.sa_handler = SIG_IGN;
	(void)sigaction(SIGPIPE, &sa, NULL);
	(void)sigaction(SIGHUP, &sa, NULL);
	runner_close_fds(lock_fd, t->store->dfd);
	runner_stdio(t->store);
	log_set_sink(NULL, NULL);
	log_set_timestamps(true);
	if (store_child(&st, t->conninfo) == -1) {
		/* the database is gone: nothing can be written, and the
		 * lease runs out, so the task ends "runner lost" */
		log_error("task runner: cannot reach the store %s: %s", st.path,
		    strerror(errno));
		_exit(1);
	}
	/* What the hook starts outside its group comes back to the runner
	 * (hook.h); the runner's only children are its hook's. */
	if (hook_adopt_orphans() == -1)
		log_warn("task runner: cannot become a child subreaper: %s",
		    strerror(errno));

	memset(&r, 0, sizeof(r));
	r.store = &st;
	r.address = hr.address != NULL ? hr.address : "";
	r.rec = t->rec;
	r.rec.pid = (long)getpid();
	store_id_hex(r.rec.id, hex);
	store_name(STORE_TASK, r.rec.id, STORE_ID_BYTES, r.name);
	arena_init(&r.scratch, (size_t)1 << 20);
	buf_init(&r.record, STORE_RECORD_MAX);
	runner_write(&r, false);
	if (st.pg) {
		lease.store = &st;
		lease.name = r.name;
		leased = runner_lease_start(&lease, &lease_th);
	}

	hr.progress = runner_progress;
	hr.progress_ctx = &r;
	hr.cancel = &runner_cancel;
	buf_init(&out, 0);
	reason = runner_reason(hook_run(&hr, &out, &res));
	if (res.status == HOOK_OK) {
		const struct json_value *v;
		struct json_err jerr;
		size_t cap;

		arena_reset(&r.scratch);
		if (!gpt_mul_size(buf_len(&out),
		        (size_t)ARENA_WORST_FACTOR *
		            JSON_PARSE_BYTES_PER_INPUT_BYTE,
		        &cap) ||
		    !gpt_add_size(
		        cap, ARENA_WORST_FACTOR * JSON_PARSE_BYTES_FIXED, &cap))
			cap = SIZE_MAX;
		arena_set_cap(&r.scratch, cap);
		if (json_parse(buf_ptr(&out), buf_len(&out), &r.scratch, 0, &v,
		        &jerr) != JSON_OK) {
			/* hits on a hook printing "ok" */
			log_error("task %s at %s: hook output is not one "
			          "strict JSON value: byte %zu: %s",
			    hex, hr.address, jerr.offset, jerr.msg);
			reason = "output not JSON";
		} else if (t->answer != NULL) {
			/* a, the answer's form: the result stored as
			 * completed is one the form promises; the record says
			 * only that it failed, the log where and why */
			struct schema_err serr;

			arena_set_cap(&r.scratch,
			    cap > SIZE_MAX / 4 ? SIZE_MAX : cap * 4);
			switch (
			    schema_validate(t->answer, v, &r.scratch, &serr)) {
			case SCHEMA_OK:
				break;
			case SCHEMA_NOMEM:
				log_error(
				    "task %s at %s: out of memory checking "
				    "the answer against a",
				    hex, hr.address);
				reason = "answer not checked";
				break;
			default:
				/* hits on {"ticket": 7} against a's string */
				log_error(
				    "task %s at %s: answer fails the "
				    "answer's form (a): at \"%s\": %s%s%s",
				    hex, hr.address, serr.pointer.buf,
				    serr.keyword != NULL ? serr.keyword : "",
				    serr.keyword != NULL ? ": " : "",
				    serr.reason);
				reason = "answer off its form";
				break;
			}
		}
	} else {
		log_error("task %s at %s: %s: %s", hex, hr.address,
		    hook_strstatus(res.status), res.reason);
	}
	if (reason == NULL) {
		size_t n = buf_len(&out);

		/* JSON's whitespace after the value (a hook's last '\n')
		 * is no part of it, and would split an event's data line */
		while (n > 0 && (buf_ptr(&out)[n - 1] == '\n' ||
		                    buf_ptr(&out)[n - 1] == '\r' ||
		                    buf_ptr(&out)[n - 1] == ' ' ||
		                    buf_ptr(&out)[n - 1] == '\t'))
			n--;
		r.rec.status = TASKREC_COMPLETED;
		r.rec.result = buf_ptr(&out);
		r.rec.result_len = n;
		log_info("task %s at %s completed, hook took %u ms", hex,
		    hr.address, res.elapsed_ms);
	} else {
		r.rec.status = res.status == HOOK_E_CANCELLED
		                   ? TASKREC_CANCELLED
		                   : TASKREC_FAILED;
		r.rec.reason = reason;
	}
	runner_write(&r, true);
	/* Only now, with the final record on disk, does the lease end. */
	if (leased)
		runner_lease_stop(&lease, lease_th);
	store_unlock(&st, lock_fd);
	store_sweep_maybe(r.store);
	_exit(0);
}

int
runner_detach(void)
{
	pid_t mid;
	int ws, err, sub = 0;

	if (prctl(PR_GET_CHILD_SUBREAPER, &sub) == -1)
		sub = 0;
	if (sub)
		(void)prctl(PR_SET_CHILD_SUBREAPER, 0);
	mid = fork();
	if (mid == 0) {
		pid_t pid;

		(void)setsid();
		pid = fork();
		if (pid == 0) {
			/* init's child: none of ours is its own */
			hook_forget_kept();
			return 0;
		}
		_exit(pid == -1 ? 1 : 0);
	}
	err = errno;
	if (mid > 0) {
		pid_t w;

		do
			w = waitpid(mid, &ws, 0);
		while (w == -1 && errno == EINTR);
		if (w == mid && WIFEXITED(ws) && WEXITSTATUS(ws) != 0) {
			/* hits when the second fork fails (EAGAIN) */
			mid = -1;
			err = EAGAIN;
		}
	}
	if (sub)
		(void)prctl(PR_SET_CHILD_SUBREAPER, 1);
	if (mid == -1) {
		errno = err;
		return -1;
	}
	return 1;
}

int
runner_start(const struct runner_task *t, int lock_fd)
{
	pid_t pid;

	/* room to keep the child, made before it exists */
	if (hook_keep_reserve() == -1)
		return -1;
	pid = fork();
	if (pid == 0) {
		/* the responder's kept children are not the runner's */
		hook_forget_kept();
		(void)setsid();
		runner_main(t, lock_fd); /* ends with _exit */
		_exit(0);
	}
	if (pid == -1)
		return -1;
	/* hook_run's sweep leaves it alone; the loop reaps it */
	hook_keep(pid);
	store_unlock(t->store, lock_fd);
	return 0;
}

int
runner_reap_lost(
    const struct store *s, const char *name, const char *lock, struct buf *out)
{
	struct taskrec_head h;
	struct taskrec rec;
	struct buf nb;
	int fd = -1, rc = 0;

	if (s->pg)
		/* the record as the caller read it: the statement that
		 * replaces it checks the lease and the status again */
		goto locked;
	fd = store_lock(s, lock, false);
	if (fd == -1)
		/* EWOULDBLOCK: the runner lives */
		return errno == EWOULDBLOCK ? 0 : -1;
	/* Read again under the lock: the runner writes its final record
	 * before it lets the lock go. */
	if (store_get(s, name, out, STORE_RECORD_MAX) == -1) {
		(void)close(fd);
		return 0;
	}
locked:
	if (taskrec_parse_head(buf_ptr(out), buf_len(out), &h) == -1 ||
	    h.status != TASKREC_WORKING) {
		store_unlock(s, fd);
		return 0;
	}
	memset(&rec, 0, sizeof(rec));
	memcpy(rec.id, h.id, STORE_ID_BYTES);
	rec.status = TASKREC_FAILED;
	rec.created_ms = h.created_ms;
	rec.updated_ms = taskrec_now_ms();
	rec.expires_s = h.expires_s;
	rec.pid = h.pid;
	rec.poll_ms = h.poll_ms;
	rec.reason = "runner lost";
	buf_init(&nb, STORE_RECORD_MAX);
	if (taskrec_format(&rec, &nb) == -1)
		rc = -1;
	else if (s->pg) {
		int r = store_reap(s, name, buf_ptr(&nb), buf_len(&nb));

		/* 0: renewed or ended meanwhile; the record as it is now */
		if (r == -1 ||
		    (r == 0 && store_get(s, name, out, STORE_RECORD_MAX) == -1))
			rc = -1;
		if (r != 1)
			goto done;
	} else if (store_put(s, name, buf_ptr(&nb), buf_len(&nb), true) == -1)
		rc = -1;
	if (rc == 0) {
		char hex[STORE_ID_HEX + 1];

		store_id_hex(h.id, hex);
		log_error("task %s in %s: its runner (pid %ld) is gone: "
		          "failed, reason \"runner lost\"",
		    hex, s->path, h.pid);
		buf_reset(out);
		if (buf_append(out, buf_ptr(&nb), buf_len(&nb)) == -1)
			rc = -1;
	}
done:
	buf_free(&nb);
	store_unlock(s, fd);
	return rc;
}
