/*
 * check_fcgi.c: the FastCGI protocol on one connection, driven over a
 * socketpair: the test writes the web server's records on one end, the
 * module reads and answers on the other.
 */
#include <errno.h>
#include <fastcgi.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check_main.h"
#include "web/fcgi.h"

/* The web server's side: records built into a buffer, then written. */
struct peer {
	unsigned char b[1 << 16];
	size_t n;
};

static void
rec(struct peer *p, int type, int id, const void *c, size_t n, size_t pad)
{
	unsigned char *h = p->b + p->n;

	ck_assert(p->n + 8 + n + pad <= sizeof(p->b));
	h[0] = FCGI_VERSION_1;
	h[1] = (unsigned char)type;
	h[2] = (unsigned char)(id >> 8);
	h[3] = (unsigned char)id;
	h[4] = (unsigned char)(n >> 8);
	h[5] = (unsigned char)n;
	h[6] = (unsigned char)pad;
	h[7] = 0;
	if (n > 0)
		memcpy(h + 8, c, n);
	memset(h + 8 + n, 0, pad);
	p->n += 8 + n + pad;
}

static void
begin(struct peer *p, int id, int role, int flags)
{
	unsigned char b[8] = {(unsigned char)(role >> 8), (unsigned char)role,
	    (unsigned char)flags};

	rec(p, FCGI_BEGIN_REQUEST, id, b, sizeof(b), 0);
}

/* One name-value pair, with 4-byte lengths when long4. */
static size_t
nv(unsigned char *o, const char *n, const char *v, bool long4)
{
	size_t nl = strlen(n), vl = strlen(v), k = 0;

	if (long4) {
		o[k++] = 0x80;
		o[k++] = 0;
		o[k++] = (unsigned char)(nl >> 8);
		o[k++] = (unsigned char)nl;
		o[k++] = 0x80;
		o[k++] = 0;
		o[k++] = (unsigned char)(vl >> 8);
		o[k++] = (unsigned char)vl;
	} else {
		o[k++] = (unsigned char)nl;
		o[k++] = (unsigned char)vl;
	}
	memcpy(o + k, n, nl);
	memcpy(o + k + nl, v, vl);
	return k + nl + vl;
}

/* A GET head: BEGIN, PARAMS (REQUEST_METHOD, PATH_INFO), end of PARAMS. */
static void
get_head(struct peer *p, int id, int flags)
{
	unsigned char b[256];
	size_t k = 0;

	begin(p, id, FCGI_RESPONDER, flags);
	k += nv(b + k, "REQUEST_METHOD", "GET", false);
	k += nv(b + k, "PATH_INFO", "/note", true);
	rec(p, FCGI_PARAMS, id, b, k, 3);
	rec(p, FCGI_PARAMS, id, NULL, 0, 0);
}

struct pair {
	int srv, cli;
};

static void
pair_open(struct pair *sp, struct fcgi_conn *c, unsigned idle)
{
	int fd[2];

	ck_assert_int_eq(socketpair(AF_UNIX, SOCK_STREAM, 0, fd), 0);
	ck_assert_int_eq(fcntl(fd[0], F_SETFL, O_NONBLOCK), 0);
	sp->srv = fd[0];
	sp->cli = fd[1];
	ck_assert_int_eq(fcgi_conn_init(c, idle, idle * 2), 0);
	fcgi_conn_open(c, sp->srv);
}

static void
pair_close(struct pair *sp, struct fcgi_conn *c)
{
	fcgi_conn_free(c);
	close(sp->cli);
}

/* Write n bytes, in pieces of step bytes (0: at once). */
static void
send_all(int fd, const void *b, size_t n, size_t step)
{
	const unsigned char *p = b;

	while (n > 0) {
		size_t k = step == 0 || step > n ? n : step;

		ck_assert_int_eq(write(fd, p, k), (ssize_t)k);
		p += k;
		n -= k;
	}
}

/* The peer's records at once, then the head read whole from them. */
static void
send_head(struct pair *sp, struct fcgi_conn *c, const struct peer *p)
{
	send_all(sp->cli, p->b, p->n, 0);
	ck_assert_int_eq(fcgi_read_head(c), 0);
}

/* What the module wrote, up to n bytes, waiting at most 2 s. */
static size_t
recv_some(int fd, unsigned char *b, size_t n)
{
	struct pollfd p = {fd, POLLIN, 0};
	size_t got = 0;

	while (got < n && poll(&p, 1, got == 0 ? 2000 : 50) == 1) {
		ssize_t k = read(fd, b + got, n - got);

		if (k <= 0)
			break;
		got += (size_t)k;
	}
	return got;
}

static const char *
env_of(const struct fcgi_conn *c, const char *name)
{
	size_t n = strlen(name), i;

	for (i = 0; c->envp[i] != NULL; i++)
		if (strncmp(c->envp[i], name, n) == 0 && c->envp[i][n] == '=')
			return c->envp[i] + n + 1;
	return NULL;
}

/* The head arrives whole or a byte at a time: the same variables. */
static const size_t head_steps[] = {0, 1, 3, 8, 9};

START_TEST(fcgi_read_head_takes_the_params_in_any_pieces)
{
	struct fcgi_conn c;
	struct pair sp;
	struct peer p = {.n = 0};
	char body[16];

	pair_open(&sp, &c, 2);
	get_head(&p, 1, 0);
	rec(&p, FCGI_STDIN, 1, NULL, 0, 0);
	send_all(sp.cli, p.b, p.n, head_steps[_i]);
	ck_assert_int_eq(fcgi_read_head(&c), 0);
	ck_assert_str_eq(env_of(&c, "REQUEST_METHOD"), "GET");
	ck_assert_str_eq(env_of(&c, "PATH_INFO"), "/note");
	ck_assert_int_eq(c.id, 1);
	ck_assert(!c.keep);
	ck_assert_int_eq(fcgi_read_body(&c, body, sizeof(body)), 0);
	pair_close(&sp, &c);
}
END_TEST

/* Names that no lookup could find are skipped; a NUL ends a value. */
START_TEST(fcgi_read_head_skips_odd_names_and_cuts_a_value_at_nul)
{
	static const unsigned char pairs[] = {
	    3,
	    1,
	    'A',
	    '=',
	    'B',
	    'x', /* a name holding '=' */
	    0,
	    1,
	    'y', /* an empty name */
	    2,
	    1,
	    'C',
	    0,
	    'z', /* a name holding NUL */
	    14,
	    6,
	    'R',
	    'E',
	    'Q',
	    'U',
	    'E',
	    'S',
	    'T',
	    '_',
	    'M',
	    'E',
	    'T',
	    'H',
	    'O',
	    'D',
	    'G',
	    'E',
	    'T',
	    0,
	    'd',
	    'S', /* a value holding NUL */
	    9,
	    5,
	    'P',
	    'A',
	    'T',
	    'H',
	    '_',
	    'I',
	    'N',
	    'F',
	    'O',
	    '/',
	    'n',
	    'o',
	    't',
	    'e',
	};
	struct fcgi_conn c;
	struct pair sp;
	struct peer p = {.n = 0};

	pair_open(&sp, &c, 2);
	begin(&p, 1, FCGI_RESPONDER, 0);
	rec(&p, FCGI_PARAMS, 1, pairs, sizeof(pairs), 0);
	rec(&p, FCGI_PARAMS, 1, NULL, 0, 0);
	send_head(&sp, &c, &p);
	ck_assert_str_eq(c.envp[0], "REQUEST_METHOD=GET");
	ck_assert_str_eq(c.envp[1], "PATH_INFO=/note");
	ck_assert_ptr_null(c.envp[2]);
	pair_close(&sp, &c);
}
END_TEST

START_TEST(fcgi_read_body_gives_stdin_across_records_and_skips_others)
{
	struct fcgi_conn c;
	struct pair sp;
	struct peer p = {.n = 0};
	char body[64];
	size_t got = 0;
	long k;

	pair_open(&sp, &c, 2);
	get_head(&p, 1, 0);
	rec(&p, FCGI_STDIN, 1, "{\"a\":", 5, 3);
	rec(&p, FCGI_STDIN, 7, "other", 5, 0); /* another id: skipped */
	rec(&p, FCGI_DATA, 1, "data", 4, 0);   /* not a responder's */
	rec(&p, FCGI_STDIN, 1, "1}", 2, 6);
	rec(&p, FCGI_STDIN, 1, NULL, 0, 0);
	send_head(&sp, &c, &p);
	/* a small buffer: the body comes in several reads */
	while ((k = fcgi_read_body(&c, body + got, 3)) > 0)
		got += (size_t)k;
	ck_assert_int_eq(k, 0);
	ck_assert_uint_eq(got, 7);
	ck_assert_mem_eq(body, "{\"a\":1}", 7);
	pair_close(&sp, &c);
}
END_TEST

/* Record bytes the web server sends that the module refuses. */
static void
bad_version(struct peer *p)
{
	get_head(p, 1, 0);
	p->b[0] = 2;
}

static void
bad_begin(struct peer *p)
{
	rec(p, FCGI_BEGIN_REQUEST, 1, "\0\1\0\0", 4, 0);
}

static void
begin_id_zero(struct peer *p)
{
	begin(p, 0, FCGI_RESPONDER, 0);
}

static void
stdin_first(struct peer *p)
{
	begin(p, 1, FCGI_RESPONDER, 0);
	rec(p, FCGI_STDIN, 1, "x", 1, 0);
}

static void
pair_overruns(struct peer *p)
{
	unsigned char b[4] = {10, 200, 'A', 'B'};

	begin(p, 1, FCGI_RESPONDER, 0);
	rec(p, FCGI_PARAMS, 1, b, sizeof(b), 0);
	rec(p, FCGI_PARAMS, 1, NULL, 0, 0);
}

static void
long_length_cut(struct peer *p)
{
	unsigned char b[3] = {0x80, 0, 0};

	begin(p, 1, FCGI_RESPONDER, 0);
	rec(p, FCGI_PARAMS, 1, b, sizeof(b), 0);
	rec(p, FCGI_PARAMS, 1, NULL, 0, 0);
}

static void
begun_twice(struct peer *p)
{
	begin(p, 1, FCGI_RESPONDER, 0);
	begin(p, 1, FCGI_RESPONDER, 0);
}

static const struct {
	const char *what;
	void (*make)(struct peer *);
	enum fcgi_why why;
} refusals[] = {
    {"version 2", bad_version, FCGI_W_PROTOCOL},
    {"a BEGIN_REQUEST of 4 bytes", bad_begin, FCGI_W_PROTOCOL},
    {"a BEGIN_REQUEST with id 0", begin_id_zero, FCGI_W_PROTOCOL},
    {"STDIN before the end of PARAMS", stdin_first, FCGI_W_PROTOCOL},
    {"a pair longer than its stream", pair_overruns, FCGI_W_PROTOCOL},
    {"a 4-byte length cut", long_length_cut, FCGI_W_PROTOCOL},
    {"one request begun twice", begun_twice, FCGI_W_PROTOCOL},
};

START_TEST(fcgi_read_head_drops_a_connection_that_breaks_the_protocol)
{
	struct fcgi_conn c;
	struct pair sp;
	struct peer p = {.n = 0};

	pair_open(&sp, &c, 1);
	refusals[_i].make(&p);
	send_all(sp.cli, p.b, p.n, 0);
	ck_assert_msg(
	    fcgi_read_head(&c) == -1, "%s: accepted", refusals[_i].what);
	ck_assert_msg(c.why == refusals[_i].why, "%s: why %d, expected %d",
	    refusals[_i].what, (int)c.why, (int)refusals[_i].why);
	ck_assert(!fcgi_conn_is_open(&c));
	pair_close(&sp, &c);
}
END_TEST

START_TEST(fcgi_read_head_drops_params_over_the_cap)
{
	struct fcgi_conn c;
	struct pair sp;
	static struct peer p;
	static unsigned char chunk[60000];
	size_t sent = 0;
	pid_t pid;

	pair_open(&sp, &c, 2);
	p.n = 0;
	begin(&p, 1, FCGI_RESPONDER, 0);
	send_all(sp.cli, p.b, p.n, 0);
	/* a child writes PARAMS records until the module stops reading */
	if ((pid = fork()) == 0) {
		signal(SIGPIPE, SIG_IGN);
		close(sp.srv);
		p.n = 0;
		rec(&p, FCGI_PARAMS, 1, chunk, sizeof(chunk), 0);
		while (sent <= 2 * FCGI_PARAMS_MAX &&
		       write(sp.cli, p.b, p.n) == (ssize_t)p.n)
			sent += p.n;
		_exit(0);
	}
	ck_assert_int_eq(fcgi_read_head(&c), -1);
	ck_assert_int_eq(c.why, FCGI_W_PROTOCOL);
	ck_assert_str_eq(c.detail, "PARAMS too large");
	close(sp.cli);
	sp.cli = -1;
	waitpid(pid, NULL, 0);
	fcgi_conn_free(&c);
}
END_TEST

START_TEST(fcgi_finish_closes_when_the_unread_body_is_over_the_cap)
{
	struct fcgi_conn c;
	struct pair sp;
	static struct peer p;
	static unsigned char chunk[60000];
	size_t sent = 0;
	pid_t pid;

	pair_open(&sp, &c, 2);
	p.n = 0;
	get_head(&p, 1, FCGI_KEEP_CONN);
	send_head(&sp, &c, &p);
	/* a child sends a body the answer did not read, past the cap */
	if ((pid = fork()) == 0) {
		signal(SIGPIPE, SIG_IGN);
		close(sp.srv);
		p.n = 0;
		rec(&p, FCGI_STDIN, 1, chunk, sizeof(chunk), 0);
		while (sent <= 2 * FCGI_DRAIN_MAX &&
		       write(sp.cli, p.b, p.n) == (ssize_t)p.n)
			sent += p.n;
		_exit(0);
	}
	fcgi_end(&c);
	ck_assert_int_eq(fcgi_finish(&c), -1);
	ck_assert_int_eq(c.why, FCGI_W_DRAIN);
	ck_assert(!fcgi_conn_is_open(&c));
	close(sp.cli);
	waitpid(pid, NULL, 0);
	fcgi_conn_free(&c);
}
END_TEST

START_TEST(fcgi_answers_get_values_and_unknown_management_types)
{
	struct fcgi_conn c;
	struct pair sp;
	struct peer p = {.n = 0};
	unsigned char q[64], out[256];
	size_t k = 0, n;

	pair_open(&sp, &c, 2);
	k += nv(q + k, FCGI_MAX_CONNS, "", false);
	k += nv(q + k, "FCGI_UNHEARD_OF", "", false);
	k += nv(q + k, FCGI_MPXS_CONNS, "", false);
	rec(&p, FCGI_GET_VALUES, 0, q, k, 0);
	rec(&p, 42, 0, NULL, 0, 0);
	get_head(&p, 1, 0);
	send_head(&sp, &c, &p);
	n = recv_some(sp.cli, out, sizeof(out));
	/* GET_VALUES_RESULT: FCGI_MAX_CONNS=1, FCGI_MPXS_CONNS=0 */
	ck_assert_uint_ge(n, 8);
	ck_assert_int_eq(out[1], FCGI_GET_VALUES_RESULT);
	ck_assert_uint_eq(
	    (size_t)(out[4] << 8 | out[5]), 2 + 14 + 1 + 2 + 15 + 1);
	ck_assert_mem_eq(out + 8, "\016\001FCGI_MAX_CONNS1", 17);
	ck_assert_mem_eq(out + 8 + 17, "\017\001FCGI_MPXS_CONNS0", 18);
	/* then UNKNOWN_TYPE for type 42, after 5 bytes of padding */
	k = 8 + 35 + 5;
	ck_assert_uint_ge(n, k + 16);
	ck_assert_int_eq(out[k + 1], FCGI_UNKNOWN_TYPE);
	ck_assert_int_eq(out[k + 8], 42);
	pair_close(&sp, &c);
}
END_TEST

/* The END_REQUEST at out[0..16): its id and protocol status. */
static void
expect_end(const unsigned char *out, int id, int ps)
{
	ck_assert_int_eq(out[1], FCGI_END_REQUEST);
	ck_assert_int_eq(out[2] << 8 | out[3], id);
	ck_assert_int_eq(out[8 + 4], ps);
}

START_TEST(fcgi_refuses_other_roles_and_a_second_request_at_once)
{
	struct fcgi_conn c;
	struct pair sp;
	struct peer p = {.n = 0};
	unsigned char out[64];

	pair_open(&sp, &c, 2);
	begin(&p, 3, FCGI_AUTHORIZER, 0);
	begin(&p, 1, FCGI_RESPONDER, 0);
	begin(&p, 2, FCGI_RESPONDER, 0); /* while 1 is open */
	rec(&p, FCGI_PARAMS, 1, "\001\001AB", 4, 4);
	rec(&p, FCGI_PARAMS, 1, NULL, 0, 0);
	send_head(&sp, &c, &p);
	ck_assert_int_eq(c.id, 1);
	ck_assert_str_eq(env_of(&c, "A"), "B");
	ck_assert_uint_eq(recv_some(sp.cli, out, 32), 32);
	expect_end(out, 3, FCGI_UNKNOWN_ROLE);
	expect_end(out + 16, 2, FCGI_CANT_MPX_CONN);
	pair_close(&sp, &c);
}
END_TEST

START_TEST(fcgi_end_writes_the_whole_answer_at_once)
{
	struct fcgi_conn c;
	struct pair sp;
	struct peer p = {.n = 0};
	unsigned char out[256];
	size_t n;

	pair_open(&sp, &c, 2);
	get_head(&p, 5, 0);
	rec(&p, FCGI_STDIN, 5, NULL, 0, 0);
	send_head(&sp, &c, &p);
	ck_assert_int_eq(fcgi_write(&c, FCGI_STDERR, "why\n", 4), 0);
	ck_assert_int_eq(
	    fcgi_write(&c, FCGI_STDOUT, "Status: 204\r\n\r\n", 15), 0);
	/* nothing leaves before the end */
	ck_assert_uint_eq(buf_len(&c.wire), 8 + 8 + 8 + 16);
	fcgi_end(&c);
	ck_assert_uint_eq(buf_len(&c.wire), 0);
	n = recv_some(sp.cli, out, sizeof(out));
	/* STDERR "why\n", STDOUT, empty STDERR, empty STDOUT, END_REQUEST */
	ck_assert_uint_eq(n, 16 + 24 + 8 + 8 + 16);
	ck_assert_int_eq(out[1], FCGI_STDERR);
	ck_assert_mem_eq(out + 8, "why\n", 4);
	ck_assert_int_eq(out[16 + 1], FCGI_STDOUT);
	ck_assert_int_eq(out[40 + 1], FCGI_STDERR);
	ck_assert_int_eq(out[40 + 5], 0);
	ck_assert_int_eq(out[48 + 1], FCGI_STDOUT);
	ck_assert_int_eq(out[48 + 5], 0);
	expect_end(out + 56, 5, FCGI_REQUEST_COMPLETE);
	ck_assert_int_eq(fcgi_finish(&c), 0);
	ck_assert(!fcgi_conn_is_open(&c)); /* not kept: closed */
	pair_close(&sp, &c);
}
END_TEST

START_TEST(fcgi_finish_drains_the_body_and_keeps_the_connection)
{
	struct fcgi_conn c;
	struct pair sp;
	struct peer p = {.n = 0};
	unsigned char out[256];

	pair_open(&sp, &c, 1);
	get_head(&p, 1, FCGI_KEEP_CONN);
	rec(&p, FCGI_STDIN, 1, "unread body", 11, 5);
	rec(&p, FCGI_STDIN, 1, NULL, 0, 0);
	get_head(&p, 2, FCGI_KEEP_CONN);
	send_head(&sp, &c, &p);
	ck_assert(c.keep);
	fcgi_end(&c);
	ck_assert_int_eq(fcgi_finish(&c), 0);
	ck_assert(fcgi_conn_is_open(&c));
	/* the next request, past the first's unread body */
	ck_assert_int_eq(fcgi_read_head(&c), 0);
	ck_assert_int_eq(c.id, 2);
	/* the first answer: the empty STDOUT and END_REQUEST */
	ck_assert_uint_eq(recv_some(sp.cli, out, sizeof(out)), 8 + 16);
	expect_end(out + 8, 1, FCGI_REQUEST_COMPLETE);
	pair_close(&sp, &c);
}
END_TEST

START_TEST(fcgi_read_body_stops_at_abort_and_the_answer_is_only_its_end)
{
	struct fcgi_conn c;
	struct pair sp;
	struct peer p = {.n = 0};
	unsigned char out[256];
	char body[16];

	pair_open(&sp, &c, 2);
	get_head(&p, 4, FCGI_KEEP_CONN);
	rec(&p, FCGI_STDIN, 4, "abc", 3, 5);
	rec(&p, FCGI_ABORT_REQUEST, 4, NULL, 0, 0);
	send_head(&sp, &c, &p);
	ck_assert_int_eq(fcgi_read_body(&c, body, sizeof(body)), 3);
	ck_assert_int_eq(fcgi_read_body(&c, body, sizeof(body)), -1);
	ck_assert_int_eq(c.why, FCGI_W_ABORTED);
	ck_assert_int_eq(fcgi_write(&c, FCGI_STDOUT, "lost", 4), 0);
	fcgi_end(&c);
	ck_assert_uint_eq(recv_some(sp.cli, out, sizeof(out)), 16);
	expect_end(out, 4, FCGI_REQUEST_COMPLETE);
	pair_close(&sp, &c);
}
END_TEST

/* Stalls, with an idle time of 1 s (and a request time of 2 s). */
START_TEST(fcgi_read_head_drops_half_a_header_after_the_idle_time)
{
	struct fcgi_conn c;
	struct pair sp;

	pair_open(&sp, &c, 1);
	send_all(sp.cli, "\001\001\000", 3, 0);
	ck_assert_int_eq(fcgi_read_head(&c), -1);
	ck_assert_int_eq(c.why, FCGI_W_HEAD_TIME);
	pair_close(&sp, &c);
}
END_TEST

START_TEST(fcgi_read_body_drops_a_trickle_at_the_request_time)
{
	struct fcgi_conn c;
	struct pair sp;
	struct peer p = {.n = 0};
	char body[16];
	long k = 0;
	int i;

	pair_open(&sp, &c, 1);
	get_head(&p, 1, 0);
	rec(&p, FCGI_STDIN, 1, "xxxxxxxxxx", 10, 0);
	p.n -= 10; /* the header of 10 bytes, the bytes to trickle */
	send_head(&sp, &c, &p);
	/* a byte every 0.5 s: never idle for 1 s, but over 2 s in all */
	for (i = 0; i < 10; i++) {
		send_all(sp.cli, "x", 1, 0);
		if ((k = fcgi_read_body(&c, body, sizeof(body))) != 1)
			break;
		usleep(500 * 1000);
	}
	ck_assert_int_eq(k, -1);
	ck_assert_int_eq(c.why, FCGI_W_REQUEST);
	pair_close(&sp, &c);
}
END_TEST

START_TEST(fcgi_read_head_closes_a_kept_connection_quiet_for_the_idle_time)
{
	struct fcgi_conn c;
	struct pair sp;
	struct peer p = {.n = 0};

	pair_open(&sp, &c, 1);
	get_head(&p, 1, FCGI_KEEP_CONN);
	rec(&p, FCGI_STDIN, 1, NULL, 0, 0);
	send_head(&sp, &c, &p);
	fcgi_end(&c);
	ck_assert_int_eq(fcgi_finish(&c), 0);
	ck_assert_int_eq(fcgi_read_head(&c), -1);
	ck_assert_int_eq(c.why, FCGI_W_KEPT_IDLE);
	pair_close(&sp, &c);
}
END_TEST

START_TEST(fcgi_read_head_ends_quietly_at_eof_between_requests)
{
	struct fcgi_conn c;
	struct pair sp;

	pair_open(&sp, &c, 1);
	shutdown(sp.cli, SHUT_WR);
	ck_assert_int_eq(fcgi_read_head(&c), -1);
	ck_assert_int_eq(c.why, FCGI_W_EOF);
	pair_close(&sp, &c);
}
END_TEST

static Suite *
suite_fcgi(void)
{
	Suite *s = suite_create("fcgi");
	TCase *tc = tcase_create("Core");
	TCase *lim = tcase_create("Limits");

	tcase_add_loop_test(tc, fcgi_read_head_takes_the_params_in_any_pieces,
	    0, (int)GPT_ARRAY_LEN(head_steps));
	tcase_add_test(
	    tc, fcgi_read_head_skips_odd_names_and_cuts_a_value_at_nul);
	tcase_add_test(
	    tc, fcgi_read_body_gives_stdin_across_records_and_skips_others);
	tcase_add_loop_test(tc,
	    fcgi_read_head_drops_a_connection_that_breaks_the_protocol, 0,
	    (int)GPT_ARRAY_LEN(refusals));
	tcase_add_test(
	    tc, fcgi_answers_get_values_and_unknown_management_types);
	tcase_add_test(
	    tc, fcgi_refuses_other_roles_and_a_second_request_at_once);
	tcase_add_test(tc, fcgi_end_writes_the_whole_answer_at_once);
	tcase_add_test(
	    tc, fcgi_finish_drains_the_body_and_keeps_the_connection);
	tcase_add_test(
	    tc, fcgi_read_body_stops_at_abort_and_the_answer_is_only_its_end);
	tcase_add_test(tc, fcgi_read_head_ends_quietly_at_eof_between_requests);
	suite_add_tcase(s, tc);
	tcase_set_timeout(lim, 20);
	tcase_add_test(lim, fcgi_read_head_drops_params_over_the_cap);
	tcase_add_test(
	    lim, fcgi_finish_closes_when_the_unread_body_is_over_the_cap);
	tcase_add_test(
	    lim, fcgi_read_head_drops_half_a_header_after_the_idle_time);
	tcase_add_test(lim, fcgi_read_body_drops_a_trickle_at_the_request_time);
	tcase_add_test(lim,
	    fcgi_read_head_closes_a_kept_connection_quiet_for_the_idle_time);
	suite_add_tcase(s, lim);
	return s;
}

CHECK_MAIN(suite_fcgi)
