/*
 * loop.c: the loops that feed requests to serve_request (loop.h): many
 * FastCGI connections polled at once, or one CGI request on
 * stdin/stdout/environ.
 *
 * Owns: the FastCGI connections of the process (their fds and buffers,
 * fcgi.h) and the stop flag.  A FastCGI process never ends because of
 * input: a client that hangs up mid-answer is logged (SIGPIPE is
 * ignored), an out-of-memory answers 500, and only a failing listener
 * (the web server is gone) or SIGTERM/SIGUSR1 (once the requests begun
 * are answered) ends the loop.
 *
 * Stalled connections.  Two bounds from the process environment
 * (GPT_FCGI_IDLE_TIMEOUT, GPT_FCGI_REQUEST_TIMEOUT; see gpt.fcgi(8)) drop
 * a connection that stalls:
 *
 *   idle     no byte for this long while a request is expected or read
 *            (a kept connection between requests, too), and no room to
 *            write for this long;
 *   request  the whole request (its head, its body and its answer)
 *            within this long of its first byte; its head alone within
 *            min(idle, request), since a web server writes it at once.
 *
 * A stalled connection holds one of LOOP_CONNS_MAX slots, not the
 * process: requests are read from every connection as their bytes come
 * and served one at a time once read (loop_serve_connections).
 */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fastcgi.h>
#include <fcgiapp.h>
#include <fcntl.h>
#include <limits.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/log.h"
#include "base/num.h"
#include "responder/formcache.h"
#include "responder/loop.h"
#include "responder/metrics.h"
#include "responder/serve.h"
#include "site/addr_cache.h"
#include "site/address.h"
#include "site/hook.h"
#include "site/listenfd.h"
#include "site/runner.h"
#include "site/store_pg.h"
#include "web/fcgi.h"
#include "web/http.h"

extern char **environ;

/* --- the stop signals, the log of a connection's end ---------------- */

/* Set by SIGTERM and SIGUSR1: end the loop once the request is done. */
static volatile sig_atomic_t loop_stop;

static void
loop_stop_requested(int sig)
{
	(void)sig;
	loop_stop = 1;
}

/* Why a connection ended, in the log: the web server's stalls and
 * protocol errors are the operator's to see; a close between requests
 * is not. */
static void
loop_fcgi_ended(const struct fcgi_conn *c)
{
	unsigned idle = c->idle_ms / 1000, request = c->request_ms / 1000;

	switch (c->why) {
	case FCGI_W_NONE:
	case FCGI_W_EOF:
	case FCGI_W_STOP:
		break;
	case FCGI_W_KEPT_IDLE:
		log_info(
		    "closed a kept FastCGI connection idle for %u s", idle);
		break;
	case FCGI_W_HEAD_TIME:
		log_error("dropped a FastCGI connection that sent no whole "
		          "request head within %u s",
		    idle < request ? idle : request);
		break;
	case FCGI_W_IDLE:
		log_error("the web server sent nothing for %u s: connection "
		          "dropped",
		    idle);
		break;
	case FCGI_W_REQUEST:
		log_error("the web server did not send the whole request "
		          "within %u s: connection dropped",
		    request);
		break;
	case FCGI_W_CUT:
		log_info("the web server closed the connection in the middle "
		         "of a request");
		break;
	case FCGI_W_PROTOCOL:
		log_error("dropped a FastCGI connection: %s",
		    c->detail != NULL ? c->detail : "protocol error");
		break;
	case FCGI_W_ABORTED:
		log_info("the web server aborted the request");
		break;
	case FCGI_W_IO:
		log_info("the FastCGI connection failed: %s", strerror(c->err));
		break;
	case FCGI_W_NOMEM:
		log_error("out of memory reading a FastCGI request");
		break;
	case FCGI_W_DRAIN:
		log_info("closed a FastCGI connection: more than %zu bytes of "
		         "a body left unread",
		    (size_t)FCGI_DRAIN_MAX);
		break;
	case FCGI_W_ANSWER:
		log_error("the web server did not take the answer within %u s "
		          "of the request: connection dropped",
		    request);
		break;
	}
}

static long
loop_fcgi_read(void *ctx, void *p, size_t n)
{
	struct fcgi_conn *c = ctx;
	long k = fcgi_read_body(c, p, n);

	if (k == -1)
		loop_fcgi_ended(c);
	return k;
}

static int
loop_fcgi_write(void *ctx, const void *p, size_t n)
{
	return fcgi_write(ctx, FCGI_STDOUT, p, n);
}

/* An event stream's events go out as they are written (task.h). */
static int
loop_fcgi_push(void *ctx)
{
	return fcgi_push(ctx);
}

/* The log sink while a request runs: its error stream, so the line
 * reaches the web server's log; once the connection is gone (or the web
 * server aborted the request), stderr. */
static void
loop_fcgi_log(void *ctx, const char *line, size_t len)
{
	struct fcgi_conn *c = ctx;

	if (!c->failed && !c->aborted && fcgi_conn_is_open(c) &&
	    fcgi_write(c, FCGI_STDERR, line, len) == 0)
		return;
	if (write(STDERR_FILENO, line, len) < 0)
		return;
}

/* What a CGI request has read of stdin so far. */
struct loop_cgi_in {
	size_t got; /* bytes of the body */
	bool eof;   /* read to its end */
};

static long
loop_fd_read(void *ctx, void *p, size_t n)
{
	struct loop_cgi_in *in = ctx;
	ssize_t got;

	do
		got = read(STDIN_FILENO, p, n);
	while (got == -1 && errno == EINTR);
	if (got > 0)
		in->got += (size_t)got;
	if (got == 0)
		in->eof = true;
	return got;
}

/*
 * After the answer, read and discard what the web server still has to send
 * of the body (a 405, HEAD, or a rejection decided before reading, leaves
 * it unread).  A gateway that hands the body over a socket (Apache's
 * mod_cgid) otherwise sees the connection reset when we exit with bytes
 * unread, and may lose the answer we already wrote: the client then gets
 * an empty reply.  With CONTENT_LENGTH, what is left of it; without one
 * but with a Transfer-Encoding (a chunked request: the web server decodes
 * it and gives no CONTENT_LENGTH), up to the end of stdin, which such a
 * gateway closes after the body (RFC 3875 section 4.2 lets a script read
 * to EOF).  Bounded by LOOP_CGI_DRAIN_MAX bytes (a larger body is left to
 * the web server's limits) and LOOP_CGI_DRAIN_MS in all.
 */
static void
loop_cgi_drain(struct loop_cgi_in *in)
{
	struct http_req req;
	char sink[16384];
	size_t left;
	uint64_t until = gpt_now_ms() + LOOP_CGI_DRAIN_MS;

	http_parse_env(environ, NULL, &req);
	if (req.has_length) {
		if (req.bad_length || req.content_length <= in->got)
			return;
		left = req.content_length - in->got;
		if (left > LOOP_CGI_DRAIN_MAX)
			return;
	} else if (!in->eof &&
	           http_getenv(environ, "HTTP_TRANSFER_ENCODING") != NULL) {
		/* hits on curl -H 'Transfer-Encoding: chunked' -X PUT */
		left = LOOP_CGI_DRAIN_MAX;
	} else
		return;
	/* bounded by left bytes and by until */
	while (left > 0) {
		struct pollfd p = {STDIN_FILENO, POLLIN, 0};
		uint64_t now = gpt_now_ms();
		long n;

		if (now >= until || poll(&p, 1, (int)(until - now)) <= 0)
			return;
		n = loop_fd_read(
		    in, sink, left < sizeof(sink) ? left : sizeof(sink));
		if (n <= 0)
			return;
		left -= (size_t)n;
	}
}

static int
loop_fd_write(void *ctx, const void *p, size_t n)
{
	(void)ctx;
	while (n > 0) {
		ssize_t w = write(STDOUT_FILENO, p, n);

		if (w == -1 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p = (const char *)p + w;
		n -= (size_t)w;
	}
	return 0;
}

/*
 * A FastCGI stderr record reaches the log with the web server's stamp
 * (nginx, lighttpd's mod_fastcgi, Apache's mod_proxy_fcgi all add one);
 * a CGI program's stderr mostly does not (see log_cgi_timestamps), so CGI
 * lines carry their own time.  GPT_LOG_TIMESTAMP=yes|no overrides
 * (gpt.fcgi(8)).
 */
static void
loop_cgi_log(void)
{
	const char *set = http_getenv(environ, "GPT_LOG_TIMESTAMP");
	bool stamp;
	int rc;

	rc = log_cgi_timestamps(set, &stamp);
	log_set_timestamps(stamp);
	if (rc == -1)
		/* hits on GPT_LOG_TIMESTAMP=1 */
		log_warn("GPT_LOG_TIMESTAMP=\"%.40s\": not yes or no; "
		         "ignored",
		    set);
}

static int
loop_cgi(struct serve_state *st)
{
	struct loop_cgi_in in = {0};
	struct serve_io io = {
	    .envp = environ,
	    .fallback = NULL,
	    .read = loop_fd_read,
	    .read_ctx = &in,
	    .out = {loop_fd_write, NULL, NULL},
	    .form_cache = true,
	};

	if (http_getenv(environ, "REQUEST_METHOD") == NULL &&
	    isatty(STDIN_FILENO)) {
		log_error("no request: run from a web server (CGI or "
		          "FastCGI), or see --help");
		return 2;
	}
	(void)serve_request(&io, st);
	loop_cgi_drain(&in);
	/* The answer is complete for the web server once stdout closes:
	 * the counts' locked update comes after, and costs it nothing. */
	(void)close(STDOUT_FILENO);
	metrics_end();
	return 0;
}

/*
 * The process environment does not change while the loop runs, and the
 * fallback is read for two names only (http_parse_env): keep just those
 * entries, so no request scans the whole environment for them.
 */
static void
loop_fallback_env(char *keep[3])
{
	static const char *const names[] = {"GPT_ADDRESS=", "GPT_ROOT="};
	size_t i, j, n = 0;

	for (i = 0; i < GPT_ARRAY_LEN(names); i++) {
		/* the first entry of a name wins, as in http_getenv */
		for (j = 0; environ[j] != NULL; j++) {
			if (strncmp(environ[j], names[i], strlen(names[i])) ==
			    0) {
				keep[n++] = environ[j];
				break;
			}
		}
	}
	keep[n] = NULL;
}

/*
 * A timeout from the process environment: GPT_FCGI_IDLE_TIMEOUT or
 * GPT_FCGI_REQUEST_TIMEOUT, whole seconds LOOP_TIMEOUT_MIN..MAX, digits
 * only.  Unset or empty: the default.  0, or -1 after logging why (the
 * process then refuses to start: a typo must not silently mean the
 * default).
 */
static int
loop_timeout_env(const char *name, unsigned def, unsigned *out)
{
	const char *v = getenv(name);
	uint64_t n;

	if (v == NULL || *v == '\0') {
		*out = def;
		return 0;
	}
	/* hits on "5s", " 5", "-1", "05", "0", "1e3", "99999" */
	if (num_read_str(v, LOOP_TIMEOUT_MIN, LOOP_TIMEOUT_MAX, NUM_CANONICAL,
	        &n) != NULL) {
		log_error("%s=\"%.40s\": not a whole number of seconds from "
		          "%u to %u; not starting",
		    name, v, LOOP_TIMEOUT_MIN, LOOP_TIMEOUT_MAX);
		return -1;
	}
	*out = (unsigned)n;
	return 0;
}

/*
 * GPT_LOG_REJECT_LIMIT: "yes" (or unset, empty) rate-limits rejection
 * lines (log.h), "no" writes every one; anything else refuses to start.
 */
static int
loop_reject_limit_env(void)
{
	const char *v = getenv("GPT_LOG_REJECT_LIMIT");

	if (v == NULL || *v == '\0' || strcmp(v, "yes") == 0)
		log_set_reject_limit(true);
	else if (strcmp(v, "no") == 0)
		log_set_reject_limit(false);
	else {
		/* hits on GPT_LOG_REJECT_LIMIT=0 */
		log_error("GPT_LOG_REJECT_LIMIT=\"%.40s\": not yes or no; "
		          "not starting",
		    v);
		return -1;
	}
	return 0;
}

/*
 * FCGI_WEB_SERVER_ADDRS, as libfcgi reads it: when set, a TCP peer whose
 * address is not in the comma-separated list is refused (unix sockets
 * are not addressed).  Read once; NULL when unset.
 */
static bool
loop_peer_ok(int fd, const char *allowed)
{
	struct sockaddr_storage sa;
	socklen_t len = sizeof(sa);
	char text[INET6_ADDRSTRLEN];
	const void *bin;
	const char *p;
	size_t n;

	if (allowed == NULL)
		return true;
	if (getpeername(fd, (struct sockaddr *)&sa, &len) == -1)
		return false;
	if (sa.ss_family == AF_INET)
		bin = &((struct sockaddr_in *)&sa)->sin_addr;
	else if (sa.ss_family == AF_INET6)
		bin = &((struct sockaddr_in6 *)&sa)->sin6_addr;
	else
		return true;
	if (inet_ntop(sa.ss_family, bin, text, sizeof(text)) == NULL)
		return false;
	n = strlen(text);
	/* bounded by the list's NUL: each pass moves past one entry */
	for (p = allowed; *p != '\0';
	     p += strcspn(p, ",") + (p[strcspn(p, ",")] == ',')) {
		size_t k = strcspn(p, ",");

		if (k == n && memcmp(p, text, n) == 0)
			return true;
	}
	/* hits on FCGI_WEB_SERVER_ADDRS=10.0.0.1 and a peer at 127.0.0.1 */
	log_error("refused a FastCGI connection from %s: not in "
	          "FCGI_WEB_SERVER_ADDRS",
	    text);
	return false;
}

/*
 * The stop signals end the loop between requests: SA_RESTART lets the
 * request in progress finish, and poll() (never restarted) returns so
 * the loop sees them.  0, or -1 with errno.
 */
static int
loop_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sigfillset(&sa.sa_mask);
	sa.sa_handler = loop_stop_requested;
	sa.sa_flags = SA_RESTART;
	if (sigaction(SIGTERM, &sa, NULL) != 0 ||
	    sigaction(SIGUSR1, &sa, NULL) != 0)
		return -1;
	return 0;
}

/* --- FastCGI: many connections, one request served at a time --------- */

/* One connection of the set (loop.h), and whether its request is read. */
struct loop_conn {
	struct fcgi_conn c;
	bool ready;   /* a request to serve: fcgi_pump said so */
	uint64_t seq; /* when it became ready: served in that order */
};

/* The connections of the process: slots made when first needed and kept
 * for the next connection (their buffers with them). */
struct loop_set {
	struct loop_conn *conn[LOOP_CONNS_MAX]; /* owned */
	size_t made;
	uint64_t seq;
	unsigned idle, request;
};

static void
loop_set_free(struct loop_set *set)
{
	size_t i;

	for (i = 0; i < set->made; i++) {
		fcgi_conn_free(&set->conn[i]->c);
		free(set->conn[i]);
	}
	set->made = 0;
}

/* A closed slot for a new connection, or NULL (out of memory). */
static struct loop_conn *
loop_slot(struct loop_set *set)
{
	struct loop_conn *lc;
	size_t i;

	for (i = 0; i < set->made; i++)
		if (!fcgi_conn_is_open(&set->conn[i]->c))
			return set->conn[i];
	if (set->made == LOOP_CONNS_MAX ||
	    (lc = calloc(1, sizeof(*lc))) == NULL)
		return NULL;
	if (fcgi_conn_init(&lc->c, set->idle, set->request) == -1) {
		fcgi_conn_free(&lc->c);
		free(lc);
		return NULL;
	}
	lc->c.stop = &loop_stop;
	set->conn[set->made++] = lc;
	return lc;
}

/* Move lc on with what its socket has (fcgi_pump): never waits. */
static void
loop_pump(struct loop_set *set, struct loop_conn *lc)
{
	switch (fcgi_pump(&lc->c, FCGI_AHEAD_MAX)) {
	case FCGI_P_READY:
		if (!lc->ready) {
			lc->ready = true;
			lc->seq = ++set->seq;
		}
		break;
	case FCGI_P_CLOSED:
		lc->ready = false;
		loop_fcgi_ended(&lc->c);
		break;
	case FCGI_P_WAIT:
		break;
	}
}

/* Serve the request of lc, then finish it; a kept connection is moved on
 * at once (the next request may be read already). */
static void
loop_serve(struct loop_set *set, struct loop_conn *lc, struct serve_state *st,
    char *const *fallback)
{
	struct serve_io io = {
	    .envp = lc->c.envp,
	    .fallback = fallback,
	    .read = loop_fcgi_read,
	    .read_ctx = &lc->c,
	    .out = {loop_fcgi_write, &lc->c, loop_fcgi_push},
	};

	size_t behind = 0, i;

	/* what the socket has no room for may wait in the connection while
	 * the process budget for such answers lasts */
	for (i = 0; i < set->made; i++)
		behind += fcgi_behind_len(&set->conn[i]->c);
	lc->c.behind_ok = behind + FCGI_BEHIND_MAX <= LOOP_BEHIND_TOTAL;
	lc->ready = false;
	log_set_sink(loop_fcgi_log, &lc->c);
	(void)serve_request(&io, st);
	fcgi_end(&lc->c);
	log_set_sink(NULL, NULL);
	if (fcgi_finish(&lc->c) == -1)
		loop_fcgi_ended(&lc->c);
	else if (fcgi_conn_is_open(&lc->c) && !loop_stop)
		loop_pump(set, lc);
	metrics_end();
}

/*
 * Is the request of lc an event stream of a task (task.h)?  It holds
 * whoever serves it for up to task_stream seconds.
 */
static bool
loop_is_stream(const struct loop_conn *lc)
{
	const char *q = http_getenv(lc->c.envp, "QUERY_STRING");
	const char *m, *acc;

	/* the query first: the rest is read only for a task's URL */
	if (q == NULL || strncmp(q, "task=", 5) != 0)
		return false;
	m = http_getenv(lc->c.envp, "REQUEST_METHOD");
	acc = http_getenv(lc->c.envp, "HTTP_ACCEPT");
	return m != NULL && strcmp(m, "GET") == 0 && acc != NULL &&
	       strcasestr(acc, "text/event-stream") != NULL;
}

/*
 * Serve an event stream in a process of its own, so that the other
 * connections this process holds (accepted with it, or kept by the web
 * server) are not left waiting for the stream's end: a poll that arrived
 * with the stream would otherwise wait out the whole task.  The process
 * is forked twice around setsid, with the subreaper flag off
 * (runner_detach), so it is init's child, not ours (hook_run kills our
 * strays), and a restart of this process leaves it streaming.  It
 * closes every other connection and the listener, serves the request,
 * and ends.  This process closes its copy of the connection.  false when
 * a fork failed: the caller serves the stream itself.
 */
static bool
loop_serve_detached(struct loop_set *set, struct loop_conn *lc,
    struct serve_state *st, char *const *fallback)
{
	size_t i;
	int d = runner_detach();

	if (d == 0) {
		/* the stream's process: the parent's database session is
		 * the parent's (store_pg.h) */
		store_pg_forget();
		(void)close(FCGI_LISTENSOCK_FILENO);
		for (i = 0; i < set->made; i++)
			if (set->conn[i] != lc &&
			    fcgi_conn_is_open(&set->conn[i]->c))
				(void)close(set->conn[i]->c.fd);
		loop_serve(set, lc, st, fallback);
		_exit(0);
	}
	if (d == -1) {
		log_warn("cannot fork for an event stream: %s: served in "
		         "the process",
		    strerror(errno));
		return false;
	}
	lc->ready = false;
	fcgi_conn_close(&lc->c);
	return true;
}

/*
 * Accept what waits on the listener while there are free slots (the
 * listener is non-blocking).  With no connection open, only one: a web
 * server that sends a request at a time (each on a new connection) would
 * otherwise cost an accept4 that says EAGAIN after every request, while
 * the poll that follows the answer says as cheaply whether another waits.
 * With connections open, a burst is drained.  1 when none is known to
 * wait (EAGAIN, the one taken, or no memory for a slot), 0 when the
 * slots ran out first, -1 when the listener failed (the web server is
 * gone).
 */
static int
loop_accept(struct loop_set *set, size_t *open, const char *allowed)
{
	bool one = *open == 0;

	/* bounded by LOOP_CONNS_MAX: each pass fills a slot, or returns */
	while (*open < LOOP_CONNS_MAX) {
		struct loop_conn *lc;
		int fd = accept4(FCGI_LISTENSOCK_FILENO, NULL, NULL,
		    SOCK_NONBLOCK | SOCK_CLOEXEC);

		if (fd == -1) {
			if (errno == EINTR || errno == ECONNABORTED)
				continue;
			if (errno == EAGAIN || errno == EWOULDBLOCK)
				/* none, or a sibling of a spawn-fcgi pool
				 * took it first */
				return 1;
			/* hits on fd 0 a socket that never listened */
			return -1;
		}
		if (!loop_peer_ok(fd, allowed)) {
			(void)close(fd);
			continue;
		}
		if ((lc = loop_slot(set)) == NULL) {
			/* the connection is refused; the next one waits
			 * for the listener's poll, so the queue drains */
			log_error("out of memory for a FastCGI connection");
			(void)close(fd);
			return 1;
		}
		fcgi_conn_open(&lc->c, fd);
		lc->ready = false;
		(*open)++;
		/* a web server writes the request with the connect: read
		 * it now, before any poll */
		loop_pump(set, lc);
		if (one)
			return 1;
	}
	return 0;
}

/*
 * The connection loop.  Every connection's bytes are read as they come
 * (fcgi_pump, never waiting), so a request is served only once its head
 * and the first FCGI_AHEAD_MAX bytes of its body are in, and a peer that
 * sends nothing, half a request or a trickle of body holds a slot, not
 * the process; one poll(2) waits for all of them and the listener, until
 * the first of their deadlines.  Requests are served one at a time in the
 * order they became whole.  An answer the socket has no room for waits in
 * its connection (up to FCGI_BEHIND_MAX, LOOP_BEHIND_TOTAL for all) and
 * goes out as the reader takes it, under the idle time and the request's
 * deadline, while the others are served.  While one is served, the others
 * wait: its body past FCGI_AHEAD_MAX, its hook, and an answer past the
 * budget are bounded by the request's deadline (fcgi.h).  With every slot
 * taken, new connections wait in the listener's queue until a slot frees.
 *
 * A GET on a connection of its own costs poll, accept4, read, sendmsg
 * and close: blocking in accept4, one connection at a time, saved only
 * the poll.
 */
static int
loop_serve_connections(struct loop_set *set, struct serve_state *st,
    char *const *fallback, const char *allowed)
{
	struct pollfd pfd[LOOP_CONNS_MAX + 1];
	struct loop_conn *who[LOOP_CONNS_MAX + 1];
	bool may_accept = true; /* no EAGAIN since the last poll */

	/* bounded by the web server: each pass serves a request, accepts,
	 * or waits for bytes or a deadline; a failing listener or a stop
	 * signal ends it once the requests begun are done */
	for (;;) {
		struct loop_conn *next = NULL;
		size_t open = 0, waiting = 0, np = 0, i;
		uint64_t now, until = UINT64_MAX;
		int rc, timeout;

		/* the runners that ended since the last pass (no hook runs
		 * between requests); one that ends while this process
		 * waits stays a zombie until the next pass */
		(void)hook_reap_kept();
		for (i = 0; i < set->made; i++) {
			struct loop_conn *lc = set->conn[i];

			if (!fcgi_conn_is_open(&lc->c))
				continue;
			if (loop_stop && !lc->ready && !lc->c.started) {
				/* between requests: nothing to finish */
				fcgi_conn_close(&lc->c);
				continue;
			}
			open++;
		}
		if (loop_stop && open == 0)
			return 0;
		if (!loop_stop && may_accept && open < LOOP_CONNS_MAX) {
			rc = loop_accept(set, &open, allowed);
			if (rc == -1)
				return 0;
			may_accept = rc == 0;
		}
		for (i = 0; i < set->made; i++) {
			struct loop_conn *lc = set->conn[i];

			if (!fcgi_conn_is_open(&lc->c))
				continue;
			if (lc->ready) {
				if (next == NULL || lc->seq < next->seq)
					next = lc;
				continue;
			}
			pfd[np].fd = lc->c.fd;
			pfd[np].events =
			    fcgi_conn_writing(&lc->c) ? POLLOUT : POLLIN;
			pfd[np].revents = 0;
			who[np++] = lc;
			waiting++;
			if (fcgi_wait_end(&lc->c) < until)
				until = fcgi_wait_end(&lc->c);
		}
		if (next != NULL && waiting == 0) {
			if (!loop_is_stream(next) ||
			    !loop_serve_detached(set, next, st, fallback))
				loop_serve(set, next, st, fallback);
			continue;
		}
		if (!loop_stop && !may_accept && open < LOOP_CONNS_MAX) {
			pfd[np].fd = FCGI_LISTENSOCK_FILENO;
			pfd[np].events = POLLIN;
			pfd[np].revents = 0;
			who[np++] = NULL;
		}
		now = gpt_now_ms();
		if (next != NULL)
			timeout = 0; /* only what already came, then serve */
		else if (until == UINT64_MAX)
			timeout = -1;
		else
			timeout = until <= now            ? 0
			          : until - now > INT_MAX ? INT_MAX
			                                  : (int)(until - now);
		/* counts not yet written are due in metrics_idle_ms (metrics.h)
		 */
		if (metrics_idle_ms() >= 0 &&
		    (timeout == -1 || metrics_idle_ms() < timeout))
			timeout = metrics_idle_ms();
		if (np == 0) {
			/* hits on a stop with no connection left */
			if (next == NULL)
				return 0;
			rc = 0;
		} else
			rc = poll(pfd, (nfds_t)np, timeout);
		if (rc == 0 && metrics_idle_ms() == 0)
			metrics_flush(); /* idle, and the counts are due */
		if (rc == -1 && errno != EINTR) {
			log_error("poll on the FastCGI connections failed: %s",
			    strerror(errno));
			return 1;
		}
		now = gpt_now_ms();
		for (i = 0; rc >= 0 && i < np; i++) {
			if (who[i] == NULL) {
				if (pfd[i].revents != 0)
					may_accept = true;
				continue;
			}
			if (pfd[i].revents != 0 ||
			    now >= fcgi_wait_end(&who[i]->c))
				loop_pump(set, who[i]);
		}
		if (next != NULL)
			loop_serve(set, next, st, fallback);
	}
}

/*
 * GPT_LOG_FORMAT: "text" (or unset, empty) or "json" (log.h); anything
 * else refuses to start.
 */
static int
loop_log_format_env(void)
{
	const char *v = getenv("GPT_LOG_FORMAT");
	enum log_format f;

	if (log_format_parse(v, &f) == -1) {
		/* hits on GPT_LOG_FORMAT=JSON */
		log_error("GPT_LOG_FORMAT=\"%.40s\": not text or json; not "
		          "starting",
		    v);
		return -1;
	}
	log_set_format(f);
	return 0;
}

/*
 * FastCGI.  The protocol is ours on every connection (fcgi.c): libfcgi's
 * FCGX_Accept_r reads with no timeout and one connection at a time, and
 * its two output streams flush separately.  Measured against libfcgi's
 * public API alone (FCGX_PutStr on its streams): GET 0.92x the libfcgi
 * floor and 1.16x its CPU per request through nginx.  libfcgi still tells
 * CGI from FastCGI (FCGX_IsCGI) and gives the record layout (fastcgi.h).
 */
static int
loop_fastcgi(struct serve_state *st)
{
	struct loop_set set;
	char *fallback[3];
	const char *allowed;
	int fl, rc;

	memset(&set, 0, sizeof(set));
	if (loop_timeout_env("GPT_FCGI_IDLE_TIMEOUT", LOOP_IDLE_TIMEOUT_DEFAULT,
	        &set.idle) == -1 ||
	    loop_timeout_env("GPT_FCGI_REQUEST_TIMEOUT",
	        LOOP_REQUEST_TIMEOUT_DEFAULT, &set.request) == -1 ||
	    addr_cache_configure() == -1)
		return 1;
	if (loop_reject_limit_env() == -1)
		return 1;
	allowed = getenv("FCGI_WEB_SERVER_ADDRS");
	if (allowed != NULL && *allowed == '\0')
		allowed = NULL;
	/* The listening socket must not reach a hook (nor its children);
	 * FD_CLOEXEC is the only fd flag, so no F_GETFD first.  Non-blocking,
	 * so that accept() tells "none waiting" instead of waiting. */
	(void)fcntl(FCGI_LISTENSOCK_FILENO, F_SETFD, FD_CLOEXEC);
	if ((fl = fcntl(FCGI_LISTENSOCK_FILENO, F_GETFL)) == -1 ||
	    fcntl(FCGI_LISTENSOCK_FILENO, F_SETFL, fl | O_NONBLOCK) == -1) {
		log_error("cannot make the listening socket non-blocking: %s",
		    strerror(errno));
		return 1;
	}
	loop_fallback_env(fallback);
	if (loop_signals() == -1) {
		log_error("cannot set the stop signals: %s", strerror(errno));
		return 1;
	}
	rc = loop_serve_connections(&set, st, fallback, allowed);
	loop_set_free(&set);
	return rc;
}

int
loop_main(void)
{
	struct serve_state st;
	int rc;

	/* A client gone mid-answer, or a hook that does not read its stdin,
	 * must cost one log line, not the process. */
	signal(SIGPIPE, SIG_IGN);
	/* A file size limit (ulimit -f) must fail the counts' write with
	 * EFBIG, as a full disk does, not end the process (metrics.h). */
	signal(SIGXFSZ, SIG_IGN);
	/* hook_run reaps its own child; an inherited SIG_IGN would let the
	 * kernel reap it first. */
	signal(SIGCHLD, SIG_DFL);
	/* What a hook starts outside its process group (setsid, a double
	 * fork) comes back to us when orphaned, so hook_run can kill it
	 * (doc/protocol.md "The hook": killed "together with everything it
	 * started"). */
	if (hook_adopt_orphans() == -1)
		log_warn("cannot become a child subreaper (%s): what a hook "
		         "starts outside its process group may outlive the act",
		    strerror(errno));
	/* Before libfcgi looks at fd 0: a socket passed by systemd (or
	 * systemd-socket-activate) on fd 3 becomes the listening socket. */
	if (listenfd_adopt() == -1)
		return 1;
	if (FCGX_Init() != 0) {
		log_error("libfcgi failed to initialize");
		return 1;
	}
	if (loop_log_format_env() == -1 ||
	    metrics_configure(getenv("GPT_METRICS_DIR"), FCGX_IsCGI()) == -1)
		return 1;
	if (FCGX_IsCGI())
		loop_cgi_log();
	/* Once per process: at the start of a FastCGI process, with each
	 * request under CGI (one process per request). */
	if (hook_runs_as_root())
		log_warn("%s", HOOK_ROOT_WARNING);
	serve_state_init(&st);
	rc = FCGX_IsCGI() ? loop_cgi(&st) : loop_fastcgi(&st);
	serve_state_free(&st);
	metrics_close();
	formcache_clear();
	addr_cache_clear();
	return rc;
}
