/*
 * check_hook.c: the hook runner against real processes.  Each test writes
 * its hooks (small /bin/sh scripts) into a fresh directory, runs them
 * through hook_run() and looks at the outcome, the bytes, the log lines
 * and what is left of the processes afterwards.  Every wait is bounded:
 * by the hook's own timeout, by the polling functions below, and by the
 * tcase timeout.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check_main.h"
#include "site/hook.h"
#include "base/log.h"

#define ADDRESS "test-address"
#define MB ((size_t)1 << 20)

static char root[PATH_MAX]; /* one per tcase, removed by its teardown */
static char dir[PATH_MAX];  /* one per test, under root */
static struct buf out;
static struct buf logged;
static struct hook_result res;

/* --- fixtures ------------------------------------------------------- */

static void
make_root(void)
{
	const char *tmp = getenv("TMPDIR");

	int n = snprintf(root, sizeof(root), "%s/check_hook.XXXXXX",
	    tmp != NULL && *tmp != '\0' ? tmp : "/tmp");

	ck_assert(n > 0 && (size_t)n < sizeof(root));
	ck_assert_ptr_nonnull(mkdtemp(root));
}

static int
rm_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static void
remove_root(void)
{
	(void)nftw(root, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static void
log_to_buf(void *ctx, const char *line, size_t len)
{
	(void)ctx;
	ck_assert_int_eq(buf_append(&logged, line, len), 0);
}

/* Runs in the test's own process (Check forks one per test). */
static void
setup(void)
{
	int n;

	/* The responder ignores SIGPIPE and becomes a child subreaper at
	 * start; hook.h requires the one and relies on the other. */
	signal(SIGPIPE, SIG_IGN);
	ck_assert_int_eq(hook_adopt_orphans(), 0);
	n = snprintf(dir, sizeof(dir), "%s/addr.XXXXXX", root);
	ck_assert(n > 0 && (size_t)n < sizeof(dir));
	ck_assert_ptr_nonnull(mkdtemp(dir));
	buf_init(&out, 0);
	buf_init(&logged, 1 << 20);
	log_set_sink(log_to_buf, NULL);
}

static void
teardown(void)
{
	log_set_sink(NULL, NULL);
	buf_free(&out);
	buf_free(&logged);
}

/* --- common steps --------------------------------------------------- */

/* path = dir/name, refusing truncation. */
static void
in_dir(char *path, size_t size, const char *name)
{
	int n = snprintf(path, size, "%s/%s", dir, name);

	ck_assert(n > 0 && (size_t)n < size);
}

/* Write dir/name: "#!/bin/sh" and the script, mode 0755. */
static void
write_script(const char *name, const char *script)
{
	char path[PATH_MAX];
	FILE *f;

	in_dir(path, sizeof(path), name);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fprintf(f, "#!/bin/sh\n%s\n", script);
	ck_assert_int_eq(fclose(f), 0);
	ck_assert_int_eq(chmod(path, 0755), 0);
}

static struct hook_req
request(const char *program, const char *body, size_t len)
{
	struct hook_req req;

	memset(&req, 0, sizeof(req));
	req.dir = dir;
	req.program = program;
	req.address = ADDRESS;
	req.body = body;
	req.body_len = len;
	req.timeout_sec = 20;
	req.max_output = 16 * MB;
	return req;
}

/* Run the script as ./hook with the body; the status. */
static enum hook_status
run_script(const char *script, const char *body, size_t len,
    unsigned timeout_sec, size_t max_output)
{
	struct hook_req req = request("./hook", body, len);

	write_script("hook", script);
	req.timeout_sec = timeout_sec;
	req.max_output = max_output;
	return hook_run(&req, &out, &res);
}

/* The script succeeds and writes exactly want (want_len bytes). */
static void
expect_run(const char *script, const char *body, size_t len, const char *want,
    size_t want_len)
{
	enum hook_status st = run_script(script, body, len, 20, 16 * MB);

	ck_assert_msg(st == HOOK_OK, "hook `%s`: %s (%s)", script,
	    hook_strstatus(st), res.reason);
	ck_assert_msg(res.exit_code == 0 && res.reason[0] == '\0',
	    "hook `%s`: exit %d, reason \"%s\"", script, res.exit_code,
	    res.reason);
	ck_assert_msg(buf_len(&out) == want_len,
	    "hook `%s`: %zu bytes, want %zu", script, buf_len(&out), want_len);
	ck_assert_msg(
	    want_len == 0 || memcmp(buf_ptr(&out), want, want_len) == 0,
	    "hook `%s`: output \"%.*s\"", script,
	    buf_len(&out) > 200 ? 200 : (int)buf_len(&out), buf_ptr(&out));
}

/* The script fails with the given status and a reason for the log. */
static void
expect_run_fail(const char *script, const char *body, size_t len,
    unsigned timeout_sec, size_t max_output, enum hook_status want)
{
	enum hook_status st =
	    run_script(script, body, len, timeout_sec, max_output);

	ck_assert_msg(st == want, "hook `%s`: %s (%s), want %s", script,
	    hook_strstatus(st), res.reason, hook_strstatus(want));
	ck_assert_msg(
	    res.status == st, "hook `%s`: res.status differs", script);
	ck_assert_msg(res.reason[0] != '\0', "hook `%s`: no reason", script);
}

static char *
read_file(const char *name, size_t *len)
{
	char path[PATH_MAX];
	struct buf b;
	char chunk[4096];
	size_t n;
	FILE *f;

	in_dir(path, sizeof(path), name);
	f = fopen(path, "r");
	ck_assert_msg(f != NULL, "cannot open %s", path);
	buf_init(&b, 16 * MB);
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		ck_assert_int_eq(buf_append(&b, chunk, n), 0);
	fclose(f);
	if (buf_data(&b) == NULL)
		ck_assert_int_eq(buf_append(&b, "", 0), 0);
	return buf_take(&b, len);
}

static pid_t
read_pid(const char *name)
{
	char *s = read_file(name, NULL);
	long pid = strtol(s, NULL, 10);

	free(s);
	ck_assert_msg(pid > 1, "%s holds no pid", name);
	return (pid_t)pid;
}

/*
 * Is pid dead?  Not our child, so it is reaped by whoever adopted it: a
 * zombie counts as dead.  SIGKILL is asynchronous, so look for up to 5 s.
 */
static bool
pid_dead(pid_t pid)
{
	char path[64], stat[512];
	int i;

	snprintf(path, sizeof(path), "/proc/%ld/stat", (long)pid);
	for (i = 0; i < 500; i++) {
		FILE *f = fopen(path, "r");
		char *p;
		size_t n;

		if (f == NULL)
			return true;
		n = fread(stat, 1, sizeof(stat) - 1, f);
		fclose(f);
		stat[n] = '\0';
		p = strrchr(stat, ')');
		if (p == NULL || (p[1] == ' ' && (p[2] == 'Z' || p[2] == 'X')))
			return true;
		usleep(10000);
	}
	return false;
}

static size_t
count_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	size_t n = 0;

	ck_assert_ptr_nonnull(d);
	while ((e = readdir(d)) != NULL)
		if (e->d_name[0] != '.')
			n++;
	closedir(d);
	return n - 1; /* the DIR's own fd */
}

static char *
pattern_bytes(size_t len)
{
	char *p = malloc(len);
	size_t i;

	ck_assert_ptr_nonnull(p);
	for (i = 0; i < len; i++)
		p[i] = (char)((i * 131 + i / 7) & 0xff);
	return p;
}

/* --- hook_run: output and stdin ------------------------------------- */

START_TEST(hook_run_returns_ok_and_exact_output_on_exit_0)
{
	static const struct {
		const char *script, *want;
		size_t len;
	} cases[] = {
	    {"printf '{\"ok\":true}'", "{\"ok\":true}", 11},
	    {"echo '[1, 2]'", "[1, 2]\n", 7},
	    {"printf 'a\\000b'", "a\0b", 3},
	    {"exit 0", "", 0},
	};
	size_t i;

	for (i = 0; i < GPT_ARRAY_LEN(cases); i++)
		expect_run(
		    cases[i].script, "{}", 2, cases[i].want, cases[i].len);
}
END_TEST

START_TEST(hook_run_delivers_body_bytes_exactly)
{
	static const struct {
		const char *body;
		size_t len;
	} cases[] = {
	    {"", 0},
	    {"{}", 2},
	    {"{\"a\":\"\\u0000\"}\n", 15},
	    {"a\0b\0\0c", 6},
	    {"\xff\xfe\r\n\x7f", 5},
	};
	char *all = pattern_bytes(70000);
	size_t i;

	for (i = 0; i < GPT_ARRAY_LEN(cases); i++)
		expect_run("exec cat", cases[i].body, cases[i].len,
		    cases[i].body, cases[i].len);
	/* Larger than one pipe buffer. */
	expect_run("exec cat", all, 70000, all, 70000);
	free(all);
}
END_TEST

START_TEST(hook_run_moves_5mb_each_way_without_deadlock)
{
	size_t len = 5 * MB;
	char *body = pattern_bytes(len);
	char want[64];
	int n;

	/* cat: reads and writes at once. */
	expect_run("exec cat", body, len, body, len);

	/* All of stdout first, then stdin: deadlocks unless both are served
	 * together (its 5 MB fill our pipe while we still write the body). */
	n = snprintf(want, sizeof(want), "%zu\n", len);
	ck_assert_int_eq(run_script("head -c 5242880 /dev/zero; wc -c", body,
	                     len, 20, 16 * MB),
	    HOOK_OK);
	ck_assert_uint_eq(buf_len(&out), len + (size_t)n);
	ck_assert_mem_eq(buf_ptr(&out) + len, want, (size_t)n);
	ck_assert_int_eq(buf_ptr(&out)[0], 0);
	ck_assert_int_eq(buf_ptr(&out)[len - 1], 0);
	free(body);
}
END_TEST

START_TEST(hook_run_succeeds_when_hook_ignores_a_large_body)
{
	size_t len = 5 * MB;
	char *body = pattern_bytes(len);

	expect_run("echo '{}'", body, len, "{}\n", 3);
	expect_run("exec 0<&-; echo '{}'; sleep 0.2", body, len, "{}\n", 3);
	free(body);
}
END_TEST

START_TEST(hook_run_passes_content_length)
{
	expect_run("printf %s \"$CONTENT_LENGTH\"", "12345", 5, "5", 1);
	expect_run("printf %s \"$CONTENT_LENGTH\"", NULL, 0, "0", 1);
}
END_TEST

/* --- hook_run: failures --------------------------------------------- */

START_TEST(hook_run_reports_non_zero_exit)
{
	static const int codes[] = {1, 2, 3, 127, 255};
	char script[64];
	size_t i;

	for (i = 0; i < GPT_ARRAY_LEN(codes); i++) {
		snprintf(
		    script, sizeof(script), "echo '{}'; exit %d", codes[i]);
		expect_run_fail(script, "{}", 2, 20, MB, HOOK_E_EXIT);
		ck_assert_int_eq(res.exit_code, codes[i]);
		ck_assert_int_eq(res.signal, 0);
	}
}
END_TEST

START_TEST(hook_run_reports_death_by_signal)
{
	static const struct {
		const char *script;
		int sig;
	} cases[] = {
	    {"kill -KILL $$", SIGKILL},
	    {"kill -TERM $$", SIGTERM},
	    {"kill -USR1 $$", SIGUSR1},
	    {"kill -SEGV $$", SIGSEGV},
	    /* Default SIGPIPE although we ignore it: not inherited. */
	    {"kill -PIPE $$", SIGPIPE},
	};
	size_t i;

	for (i = 0; i < GPT_ARRAY_LEN(cases); i++) {
		expect_run_fail(
		    cases[i].script, "{}", 2, 20, MB, HOOK_E_SIGNAL);
		ck_assert_int_eq(res.signal, cases[i].sig);
		ck_assert_int_eq(res.exit_code, -1);
	}
}
END_TEST

START_TEST(hook_run_refuses_output_over_max)
{
	expect_run_fail(
	    "head -c 1001 /dev/zero", "{}", 2, 20, 1000, HOOK_E_OUTPUT);
	expect_run_fail(
	    "head -c 1000 /dev/zero; echo", "{}", 2, 20, 1000, HOOK_E_OUTPUT);
	expect_run_fail("echo x", "{}", 2, 20, 0, HOOK_E_OUTPUT);
	/* An endless writer is killed, not waited for. */
	expect_run_fail("exec yes", "{}", 2, 20, MB, HOOK_E_OUTPUT);
	ck_assert_uint_eq(buf_len(&out), MB);
	/* Exactly max is fine. */
	ck_assert_int_eq(
	    run_script("head -c 1000 /dev/zero", "{}", 2, 20, 1000), HOOK_OK);
	ck_assert_uint_eq(buf_len(&out), 1000);
}
END_TEST

START_TEST(hook_run_reports_hooks_that_cannot_start)
{
	char path[PATH_MAX];
	struct hook_req req;
	static const char *const programs[] = {
	    "./missing",
	    "./not-executable",
	    "./bad-interpreter",
	    "./a-directory",
	    "/nonexistent/hook",
	};
	size_t i;
	int fd;

	in_dir(path, sizeof(path), "not-executable");
	fd = open(path, O_WRONLY | O_CREAT, 0644);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, "#!/bin/sh\necho '{}'\n", 20), 20);
	close(fd);
	in_dir(path, sizeof(path), "bad-interpreter");
	fd = open(path, O_WRONLY | O_CREAT, 0755);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, "#!/nonexistent/sh\n", 18), 18);
	close(fd);
	in_dir(path, sizeof(path), "a-directory");
	ck_assert_int_eq(mkdir(path, 0755), 0);

	for (i = 0; i < GPT_ARRAY_LEN(programs); i++) {
		req = request(programs[i], "{}", 2);
		ck_assert_msg(hook_run(&req, &out, &res) == HOOK_E_START,
		    "program %s: %s (%s)", programs[i],
		    hook_strstatus(res.status), res.reason);
		ck_assert_msg(strstr(res.reason, programs[i]) != NULL,
		    "program %s: reason \"%s\"", programs[i], res.reason);
	}
	/* A missing working directory, too. */
	write_script("hook", "echo '{}'");
	req = request("./hook", "{}", 2);
	in_dir(path, sizeof(path), "gone");
	req.dir = path;
	ck_assert_int_eq(hook_run(&req, &out, &res), HOOK_E_START);
}
END_TEST

/* --- hook_run: timeout and the process group ------------------------- */

START_TEST(hook_run_kills_a_slow_hook_and_its_grandchild_at_timeout)
{
	static const struct {
		const char *script, *reason;
	} cases[] = {
	    /* A child in the background, the hook asleep. */
	    {"sleep 60 & echo $! > gc.pid; sleep 60",
	        "timed out after 1 s: ended by SIGTERM"},
	    /* Both ignore SIGTERM: SIGKILL follows the grace. */
	    {"trap '' TERM; sleep 60 & echo $! > gc.pid; sleep 60",
	        "timed out after 1 s: ignored SIGTERM for 200 ms, ended by "
	        "SIGKILL"},
	    /* Busy, never sleeping. */
	    {"sleep 60 & echo $! > gc.pid; while :; do :; done",
	        "timed out after 1 s: ended by SIGTERM"},
	    /* It cleans up on SIGTERM and exits 0: still a timeout. */
	    {"trap 'exit 0' TERM; sleep 60 & echo $! > gc.pid; "
	     "while :; do :; done",
	        "timed out after 1 s: exited with status 0 on SIGTERM"},
	};
	size_t i;

	for (i = 0; i < GPT_ARRAY_LEN(cases); i++) {
		pid_t gc;

		expect_run_fail(
		    cases[i].script, "{}", 2, 1, MB, HOOK_E_TIMEOUT);
		ck_assert_uint_ge(res.elapsed_ms, 1000);
		ck_assert_msg(strcmp(res.reason, cases[i].reason) == 0,
		    "hook `%s`: reason \"%s\", want \"%s\"", cases[i].script,
		    res.reason, cases[i].reason);
		gc = read_pid("gc.pid");
		ck_assert_msg(pid_dead(gc), "hook `%s`: grandchild %ld lives",
		    cases[i].script, (long)gc);
	}
}
END_TEST

START_TEST(hook_run_kills_what_a_finished_hook_left_running)
{
	static const char *const scripts[] = {
	    "sleep 60 >/dev/null 2>&1 & echo $! > gc.pid; echo '{}'",
	    /* This one also holds our stdout pipe open. */
	    "sleep 60 & echo $! > gc.pid; echo '{}'",
	};
	size_t i;

	for (i = 0; i < GPT_ARRAY_LEN(scripts); i++) {
		pid_t gc;

		expect_run(scripts[i], "{}", 2, "{}\n", 3);
		gc = read_pid("gc.pid");
		ck_assert_msg(pid_dead(gc), "hook `%s`: grandchild %ld lives",
		    scripts[i], (long)gc);
	}
}
END_TEST

/* No child of ours is left: every stray was killed and reaped. */
static void
expect_no_children(const char *what)
{
	pid_t r;

	errno = 0;
	r = waitpid(-1, NULL, WNOHANG);
	ck_assert_msg(r == -1 && errno == ECHILD,
	    "%s: a child is left (waitpid gives %ld)", what, (long)r);
}

/* Wait past the moment the escaped process would have written marker
 * (2 s after it started, so 3 s after the hook did). */
static void
expect_no_marker(const char *what)
{
	char path[PATH_MAX];

	if (res.elapsed_ms < 3000)
		usleep((3000 - res.elapsed_ms) * 1000);
	in_dir(path, sizeof(path), "marker");
	ck_assert_msg(access(path, F_OK) != 0, "%s: the marker appeared", what);
}

/*
 * Double fork and setsid: the inner shell is in another session, its
 * parent is gone, so neither the group kill nor the hook's exit reaches
 * it.  It writes its pid, sleeps 2 s (a child of its own), then would
 * write the marker.  The pid arrives whole, by rename, in a gc.pid the
 * script removed first: else a later script could read an earlier one's
 * pid, exit at once, and have its grandchild killed between creating
 * gc.pid and writing it.
 */
#define ESCAPE(redirect)                                                       \
	"rm -f gc.pid; "                                                       \
	"setsid sh -c 'sh -c \"echo \\$\\$ > gc.new; mv gc.new gc.pid; "       \
	"sleep 2; echo late > marker\" " redirect " &'; "                      \
	"while [ ! -s gc.pid ]; do sleep 0.05; done; "

/* After the act: the escaped grandchild is dead, no child is left, and
 * its late write never happened. */
static void
expect_escape_gone(const char *script)
{
	pid_t gc = read_pid("gc.pid");

	ck_assert_msg(
	    pid_dead(gc), "hook `%s`: escaped %ld lives", script, (long)gc);
	expect_no_children(script);
	expect_no_marker(script);
}

START_TEST(hook_run_kills_what_escaped_the_group_when_the_hook_exits)
{
	static const char *const scripts[] = {
	    /* It lets go of our pipes. */
	    ESCAPE(">/dev/null 2>&1") "echo '{}'",
	    /* It holds stdout open: killed, so the pipe closes at once. */
	    ESCAPE("") "echo '{}'",
	};
	size_t i;

	for (i = 0; i < GPT_ARRAY_LEN(scripts); i++) {
		expect_run(scripts[i], "{}", 2, "{}\n", 3);
		expect_escape_gone(scripts[i]);
	}
}
END_TEST

START_TEST(hook_run_kills_what_escaped_the_group_at_timeout)
{
	static const char *const scripts[] = {
	    ESCAPE(">/dev/null 2>&1") "sleep 60",
	    ESCAPE("") "while :; do :; done",
	};
	size_t i;

	for (i = 0; i < GPT_ARRAY_LEN(scripts); i++) {
		expect_run_fail(scripts[i], "{}", 2, 1, MB, HOOK_E_TIMEOUT);
		ck_assert_str_eq(
		    res.reason, "timed out after 1 s: ended by SIGTERM");
		expect_escape_gone(scripts[i]);
	}
}
END_TEST

START_TEST(hook_run_times_out_on_an_escaped_child_when_not_a_subreaper)
{
	pid_t gc;

	/* Without the subreaper the escaped process is init's: we cannot
	 * kill it, but we do not wait past the timeout for its pipe. */
	ck_assert_int_eq(prctl(PR_SET_CHILD_SUBREAPER, 0, 0, 0, 0), 0);
	expect_run_fail("rm -f gc.pid; "
	                "setsid sh -c 'echo $$ > gc.new; mv gc.new gc.pid; "
	                "exec sleep 5' & "
	                "while [ ! -s gc.pid ]; do sleep 0.05; done; echo '{}'",
	    "{}", 2, 1, MB, HOOK_E_TIMEOUT);
	ck_assert_int_eq(res.exit_code, 0);
	ck_assert_str_eq(
	    res.reason, "exited, but its stdout was still open after 1 s");
	gc = read_pid("gc.pid");
	ck_assert_int_eq(kill(gc, SIGKILL), 0);
}
END_TEST

START_TEST(hook_run_starts_the_hook_in_its_own_process_group)
{
	long pid, ppid, pgrp;
	char state;
	char *p;

	/* exec keeps the hook's pid: /proc/self/stat is the hook's own. */
	ck_assert_int_eq(
	    run_script("exec cat /proc/self/stat", NULL, 0, 20, MB), HOOK_OK);
	pid = strtol(buf_ptr(&out), NULL, 10);
	p = strrchr(buf_ptr(&out), ')');
	ck_assert_ptr_nonnull(p);
	ck_assert_int_eq(sscanf(p + 1, " %c %ld %ld", &state, &ppid, &pgrp), 3);
	ck_assert_int_eq(ppid, (long)getpid());
	ck_assert_int_eq(pgrp, pid);
	ck_assert_int_ne(pgrp, (long)getpgrp());
}
END_TEST

/* --- hook_run: what the hook sees ------------------------------------ */

struct env_case {
	const char *actor, *remote;
	const char *want;  /* sorted "NAME=value\n" lines */
	const char *extra; /* hook_env strings, NUL-separated, or NULL */
	unsigned extra_count;
};

static void
expect_env(const struct env_case *c)
{
	struct hook_req req = request("/usr/bin/env", "{\"a\":1}", 7);
	struct buf sorted;
	char *lines[16], *save = NULL, *line, *copy;
	size_t n = 0, i, j;

	req.actor = c->actor;
	req.remote_addr = c->remote;
	req.extra_env = c->extra;
	req.extra_env_count = c->extra_count;
	ck_assert_int_eq(hook_run(&req, &out, &res), HOOK_OK);
	copy = strdup(buf_ptr(&out));
	ck_assert_ptr_nonnull(copy);
	for (line = strtok_r(copy, "\n", &save); line != NULL && n < 16;
	     line = strtok_r(NULL, "\n", &save))
		lines[n++] = line;
	for (i = 1; i < n; i++)
		for (j = i; j > 0 && strcmp(lines[j - 1], lines[j]) > 0; j--) {
			char *t = lines[j];

			lines[j] = lines[j - 1];
			lines[j - 1] = t;
		}
	buf_init(&sorted, MB);
	for (i = 0; i < n; i++)
		ck_assert_int_eq(buf_printf(&sorted, "%s\n", lines[i]), 0);
	ck_assert_msg(strcmp(buf_ptr(&sorted), c->want) == 0,
	    "actor %s, remote %s: environment\n%s\nwant\n%s",
	    c->actor ? c->actor : "(none)", c->remote ? c->remote : "(none)",
	    buf_ptr(&sorted), c->want);
	buf_free(&sorted);
	free(copy);
}

START_TEST(hook_run_gives_only_the_whitelisted_environment)
{
	static const struct env_case cases[] = {
	    {NULL, NULL,
	        "CONTENT_LENGTH=7\nGPT_ADDRESS=" ADDRESS "\nPATH=" HOOK_PATH_ENV
	        "\n",
	        NULL, 0},
	    {"alice", "127.0.0.1",
	        "CONTENT_LENGTH=7\nGPT_ACTOR=alice\nGPT_ADDRESS=" ADDRESS
	        "\nPATH=" HOOK_PATH_ENV "\nREMOTE_ADDR=127.0.0.1\n",
	        NULL, 0},
	    {"", "::1",
	        "CONTENT_LENGTH=7\nGPT_ACTOR=\nGPT_ADDRESS=" ADDRESS
	        "\nPATH=" HOOK_PATH_ENV "\nREMOTE_ADDR=::1\n",
	        NULL, 0},
	};
	size_t i;

	/* Markers in our environment that must not leak. */
	ck_assert_int_eq(setenv("GPT_LEAK_MARKER", "1", 1), 0);
	ck_assert_int_eq(setenv("PATH", "/leaked/bin:/usr/bin:/bin", 1), 0);
	ck_assert_int_eq(setenv("GPT_ACTOR", "mallory", 1), 0);
	for (i = 0; i < GPT_ARRAY_LEN(cases); i++)
		expect_env(&cases[i]);
}
END_TEST

/* The act's Idempotency-Key, as sent (its length, not a NUL, ends it:
 * an RFC 8941 string's closing quote is not part of the key). */
START_TEST(hook_run_gives_the_idempotency_key)
{
	struct hook_req req = request("/usr/bin/env", "{\"a\":1}", 7);
	static const char key[] = "order-17\"";

	req.idem_key = key;
	req.idem_key_len = sizeof(key) - 2;
	ck_assert_int_eq(hook_run(&req, &out, &res), HOOK_OK);
	ck_assert_ptr_nonnull(
	    strstr(buf_ptr(&out), "\nGPT_IDEMPOTENCY_KEY=order-17\n"));
}
END_TEST

START_TEST(hook_run_adds_the_operators_variables)
{
	static const struct env_case cases[] = {
	    {NULL, NULL,
	        "CONTENT_LENGTH=7\nDB=/srv/"
	        "db.sqlite\nEMPTY=\nGPT_ADDRESS=" ADDRESS
	        "\nPATH=" HOOK_PATH_ENV "\n",
	        "DB=/srv/db.sqlite\0EMPTY=", 2},
	    /* PATH given by the operator replaces the fixed one */
	    {"alice", NULL,
	        "CONTENT_LENGTH=7\nGPT_ACTOR=alice\nGPT_ADDRESS=" ADDRESS
	        "\nPATH=/opt/venv/bin:/usr/bin:/bin\nVENV=/opt/venv\n",
	        "PATH=/opt/venv/bin:/usr/bin:/bin\0VENV=/opt/venv", 2},
	    /* a name that merely starts with PATH is not PATH */
	    {NULL, NULL,
	        "CONTENT_LENGTH=7\nGPT_ADDRESS=" ADDRESS "\nPATH=" HOOK_PATH_ENV
	        "\nPATHS=x\n",
	        "PATHS=x", 1},
	};
	size_t i;

	ck_assert_int_eq(setenv("GPT_LEAK_MARKER", "1", 1), 0);
	for (i = 0; i < GPT_ARRAY_LEN(cases); i++)
		expect_env(&cases[i]);
}
END_TEST

START_TEST(hook_run_works_in_the_address_directory)
{
	char real[PATH_MAX], want[PATH_MAX + 1];
	int n;

	ck_assert_ptr_nonnull(realpath(dir, real));
	n = snprintf(want, sizeof(want), "%s\n", real);
	ck_assert(n > 0 && (size_t)n < sizeof(want));
	expect_run("pwd -P", NULL, 0, want, (size_t)n);
	/* A relative program is found in that directory, not in ours. */
	ck_assert_int_eq(chdir("/"), 0);
	expect_run("pwd -P", NULL, 0, want, (size_t)n);
}
END_TEST

START_TEST(hook_run_gives_default_signals_empty_mask_and_only_fds_0_to_2)
{
	sigset_t block;
	int fd;

	/* Blocked and ignored here: the hook must see neither. */
	sigemptyset(&block);
	sigaddset(&block, SIGUSR1);
	ck_assert_int_eq(sigprocmask(SIG_BLOCK, &block, NULL), 0);
	signal(SIGUSR2, SIG_IGN);
	expect_run("exec grep -E '^Sig(Blk|Ign)' /proc/self/status", NULL, 0,
	    "SigBlk:\t0000000000000000\nSigIgn:\t0000000000000000\n", 50);

	/* An fd opened without CLOEXEC (as libfcgi's socket is). */
	fd = open("/dev/null", O_RDONLY);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(dup2(fd, 57), 57);
	close(fd);
	expect_run("cd /proc/self/fd && for f in *; do [ $f -ne 57 ] || "
	           "echo leaked; done; echo done",
	    NULL, 0, "done\n", 5);
	close(57);
}
END_TEST

START_TEST(hook_run_forwards_stderr_to_the_log_line_by_line)
{
	char *big;
	char script[128];

	expect_run("echo one >&2; printf 'two\\r\\n\\nthree' >&2; echo '{}'",
	    NULL, 0, "{}\n", 3);
	ck_assert_str_eq(buf_ptr(&logged),
	    "gpt.fcgi: warning: hook " ADDRESS ": one\n"
	    "gpt.fcgi: warning: hook " ADDRESS ": two\n"
	    "gpt.fcgi: warning: hook " ADDRESS ": three\n");
	ck_assert_uint_eq(res.stderr_bytes, 15);

	/* Control bytes cannot forge log lines; NUL does not cut a line. */
	buf_reset(&logged);
	expect_run("printf 'a\\033b\\000c\\n' >&2", NULL, 0, "", 0);
	ck_assert_str_eq(
	    buf_ptr(&logged), "gpt.fcgi: warning: hook " ADDRESS ": a?b?c\n");

	/* stderr is also forwarded when the hook fails. */
	buf_reset(&logged);
	expect_run_fail("echo why >&2; exit 1", NULL, 0, 20, MB, HOOK_E_EXIT);
	ck_assert_str_eq(
	    buf_ptr(&logged), "gpt.fcgi: warning: hook " ADDRESS ": why\n");

	/* Beyond HOOK_STDERR_MAX it is counted and dropped, not logged. */
	buf_reset(&logged);
	snprintf(script, sizeof(script),
	    "head -c %zu /dev/zero | tr '\\000' x >&2; echo '{}'",
	    (size_t)1 << 20);
	expect_run(script, NULL, 0, "{}\n", 3);
	ck_assert_uint_eq(res.stderr_bytes, (size_t)1 << 20);
	big = strstr(buf_ptr(&logged), "more bytes of stderr dropped");
	ck_assert_ptr_nonnull(big);
	ck_assert_uint_lt(buf_len(&logged), HOOK_STDERR_MAX + 2 * LOG_LINE_MAX);
}
END_TEST

/* --- hook_run: many runs in one process ------------------------------ */

START_TEST(hook_run_leaks_no_fd_and_no_zombie_over_many_runs)
{
	size_t before, after;
	int i;

	write_script("ok", "cat");
	write_script("fail", "echo no >&2; exit 1");
	write_script("big", "exec yes");
	write_script("bg", "sleep 60 & echo '{}'");
	(void)run_script("exit 0", NULL, 0, 20, MB); /* warm up */
	before = count_fds();
	for (i = 0; i < 200; i++) {
		static const char *const progs[] = {
		    "./ok", "./fail", "./big", "./bg", "./missing"};
		static const enum hook_status want[] = {
		    HOOK_OK, HOOK_E_EXIT, HOOK_E_OUTPUT, HOOK_OK, HOOK_E_START};
		size_t k = (size_t)i % GPT_ARRAY_LEN(progs);
		struct hook_req req = request(progs[k], "{\"n\":1}", 7);

		req.max_output = 4096;
		ck_assert_msg(hook_run(&req, &out, &res) == want[k],
		    "run %d of %s: %s (%s)", i, progs[k],
		    hook_strstatus(res.status), res.reason);
	}
	after = count_fds();
	ck_assert_uint_eq(after, before);
	/* Every child was reaped: none is left for anyone to wait for. */
	errno = 0;
	ck_assert_int_eq(waitpid(-1, NULL, WNOHANG), -1);
	ck_assert_int_eq(errno, ECHILD);
}
END_TEST

START_TEST(hook_run_fails_safely_when_sigchld_is_ignored)
{
	/* The kernel reaps the hook itself: no exit status, so no OK. */
	signal(SIGCHLD, SIG_IGN);
	expect_run_fail("echo '{}'", "{}", 2, 20, MB, HOOK_E_IO);
	signal(SIGCHLD, SIG_DFL);
	expect_run("echo '{}'", "{}", 2, "{}\n", 3);
}
END_TEST

/* --- hook_strstatus -------------------------------------------------- */

START_TEST(hook_strstatus_names_every_status_distinctly)
{
	static const enum hook_status all[] = {HOOK_OK, HOOK_E_START,
	    HOOK_E_EXIT, HOOK_E_SIGNAL, HOOK_E_TIMEOUT, HOOK_E_OUTPUT,
	    HOOK_E_IO};
	size_t i, j;

	for (i = 0; i < GPT_ARRAY_LEN(all); i++) {
		ck_assert_ptr_nonnull(hook_strstatus(all[i]));
		for (j = 0; j < i; j++)
			ck_assert_str_ne(
			    hook_strstatus(all[i]), hook_strstatus(all[j]));
	}
}
END_TEST

static Suite *
suite_hook(void)
{
	Suite *s = suite_create("hook");
	TCase *run = tcase_create("hook_run");
	TCase *str = tcase_create("hook_strstatus");

	tcase_set_timeout(run, 60);
	tcase_add_unchecked_fixture(run, make_root, remove_root);
	tcase_add_checked_fixture(run, setup, teardown);
	tcase_add_test(run, hook_run_returns_ok_and_exact_output_on_exit_0);
	tcase_add_test(run, hook_run_delivers_body_bytes_exactly);
	tcase_add_test(run, hook_run_moves_5mb_each_way_without_deadlock);
	tcase_add_test(run, hook_run_succeeds_when_hook_ignores_a_large_body);
	tcase_add_test(run, hook_run_passes_content_length);
	tcase_add_test(run, hook_run_reports_non_zero_exit);
	tcase_add_test(run, hook_run_reports_death_by_signal);
	tcase_add_test(run, hook_run_refuses_output_over_max);
	tcase_add_test(run, hook_run_reports_hooks_that_cannot_start);
	tcase_add_test(
	    run, hook_run_kills_a_slow_hook_and_its_grandchild_at_timeout);
	tcase_add_test(run, hook_run_kills_what_a_finished_hook_left_running);
	tcase_add_test(
	    run, hook_run_kills_what_escaped_the_group_when_the_hook_exits);
	tcase_add_test(run, hook_run_kills_what_escaped_the_group_at_timeout);
	tcase_add_test(
	    run, hook_run_times_out_on_an_escaped_child_when_not_a_subreaper);
	tcase_add_test(run, hook_run_starts_the_hook_in_its_own_process_group);
	tcase_add_test(run, hook_run_gives_only_the_whitelisted_environment);
	tcase_add_test(run, hook_run_adds_the_operators_variables);
	tcase_add_test(run, hook_run_gives_the_idempotency_key);
	tcase_add_test(run, hook_run_works_in_the_address_directory);
	tcase_add_test(
	    run, hook_run_gives_default_signals_empty_mask_and_only_fds_0_to_2);
	tcase_add_test(run, hook_run_forwards_stderr_to_the_log_line_by_line);
	tcase_add_test(run, hook_run_leaks_no_fd_and_no_zombie_over_many_runs);
	tcase_add_test(run, hook_run_fails_safely_when_sigchld_is_ignored);
	suite_add_tcase(s, run);
	tcase_add_test(str, hook_strstatus_names_every_status_distinctly);
	suite_add_tcase(s, str);
	return s;
}

CHECK_MAIN(suite_hook)
