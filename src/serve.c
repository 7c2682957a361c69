/*
 * serve.c: one request from CGI variables to the answer, and the loop that
 * feeds requests to it (libfcgi's FCGX_Accept_r for FastCGI; one pass over
 * stdin/stdout/environ for CGI, which libfcgi's FCGX_ layer cannot serve).
 *
 * Owns: the request arena and the buffers of struct serve_state; the
 * FCGX_Request of the loop.  libfcgi accepts and reads; the FastCGI
 * records of each answer are written here, one write(2) per answer (see
 * "FastCGI answers").  Refuses: nothing itself; every decision is http_'s
 * (statuses, negotiation) or addr_'s (which directory).
 *
 * A FastCGI process never ends because of input: a client that hangs up
 * mid-answer is logged (SIGPIPE is ignored), an out-of-memory answers 500,
 * and only a failing accept (the web server is gone) or SIGTERM/SIGUSR1
 * (between requests) ends the loop.
 *
 * Stalled connections.  The process serves one connection at a time, and
 * libfcgi reads with no timeout: a peer that sends half a record header
 * and waits would hold it for good.  Two bounds, from the process
 * environment (GPT_FCGI_IDLE_TIMEOUT, GPT_FCGI_REQUEST_TIMEOUT; see
 * gpt.fcgi(8)), drop such a connection and go on to the next:
 *
 *   idle     no byte for this long while a request is expected or read;
 *   request  the whole request (its head, the BEGIN_REQUEST and PARAMS
 *            records, and its body) read within this long.
 *
 * How, given that FCGX_Accept_r() accepts AND reads the head before it
 * returns, and that we keep to libfcgi's public API:
 *
 *  - Waiting is ours: the listening socket is made non-blocking, and the
 *    loop poll()s it (no bound: an idle process costs nothing), or polls
 *    a kept connection (FCGI_KEEP_CONN) for at most the idle time, and
 *    closes that connection when nothing comes.  accept() inside libfcgi
 *    then never blocks (EAGAIN, when a sibling of a spawn-fcgi pool took
 *    the connection, brings us back here), so no timer runs while no
 *    connection is held.  Accepted sockets do not inherit O_NONBLOCK.
 *  - The head is read by libfcgi under a one-shot timer (timer_create,
 *    SIGALRM, handler without SA_RESTART) of min(idle, request): a web
 *    server writes the head at once, so not having it then is stalling.
 *    libfcgi's read() does not retry EINTR; the handler also shuts the
 *    connection down (shutdown(2) is async-signal-safe), so a read that
 *    was not blocked at that instant meets EOF.  Either way libfcgi drops
 *    the connection and tries to accept the next.  Its close drains what
 *    the peer still sends (poll + read until quiet): a peer trickling a
 *    byte a second would hold that drain, so the handler re-arms the
 *    timer, and the next expiry interrupts the drain too (and bounds a
 *    connection libfcgi accepts on the way, with a budget of its own).
 *    Why not SO_RCVTIMEO on the listening socket: accepted AF_UNIX
 *    sockets do not inherit it (TCP ones do), and accept() itself would
 *    time out with EAGAIN, which libfcgi's OS_Accept reports as a failed
 *    accept.  Why not poll() on the accepted socket: FCGX_Accept_r does
 *    not return between the accept and the reads.
 *  - The body is read through serve_fcgx_read(), which sets SO_RCVTIMEO
 *    (the idle time) on the connection before its first read, and runs
 *    each read under the same timer, armed for what is left of the
 *    request's time.  Hits on a client sending a byte a second.
 *  - Writes: serve_writev_all() never blocks in the kernel (MSG_DONTWAIT)
 *    and waits for room in poll() for at most the idle time, so a web
 *    server that stops reading the answer cannot hold the process either.
 *
 * The timer runs only while libfcgi reads for us: not while the hook
 * runs, nor while an answer is computed, so a SIGALRM never reaches the
 * hook's waits (which retry EINTR anyway).  The handler reads the
 * connection's fd from the loop's FCGX_Request (ipcFd, a field of the
 * public struct that serve.c already reads).
 */
#include "config.h"

#include <errno.h>
#include <fastcgi.h>
#include <fcgiapp.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "address.h"
#include "formcache.h"
#include "hook.h"
#include "json.h"
#include "listenfd.h"
#include "log.h"
#include "schema.h"
#include "serve.h"

extern char **environ;

/* address.conf's hook_env entries all fit in what a hook may get. */
_Static_assert(CONF_HOOK_ENV_MAX <= HOOK_EXTRA_ENV_MAX,
    "hook_env allows more variables than hook_run passes");

/* FastCGI records (see "FastCGI answers" below). */
#define SERVE_REC_CHUNK 65528 /* content per record: <= 0xffff, 8-aligned */
#define SERVE_WIRE_DIRECT ((size_t)16 * 1024) /* written where it lies */
#define SERVE_WIRE_MAX ((size_t)64 * 1024)    /* st->wire never holds more */

void
serve_state_init(struct serve_state *st)
{
	arena_init(&st->req, SERVE_ARENA_BASE);
	arena_init(&st->hook, SERVE_ARENA_BASE);
	buf_init(&st->body, 0);
	buf_init(&st->output, 0);
	buf_init(&st->wire, SERVE_WIRE_MAX);
}

void
serve_state_free(struct serve_state *st)
{
	arena_free(&st->req);
	arena_free(&st->hook);
	buf_free(&st->body);
	buf_free(&st->output);
	buf_free(&st->wire);
}

/* Forget one request; keep memory unless a rare big act made it grow. */
static void
serve_state_reset(struct serve_state *st)
{
	arena_reset(&st->req);
	arena_reset(&st->hook);
	if (st->body.size > SERVE_KEEP_MAX)
		buf_free(&st->body);
	if (st->output.size > SERVE_KEEP_MAX)
		buf_free(&st->output);
	buf_reset(&st->body);
	buf_reset(&st->output);
}

/*
 * Room to parse any strict JSON text of at most max_len bytes, plus
 * per_byte more bytes per byte of it (the validator's scratch) and base
 * (what does not grow with the text): see SERVE_ARENA_BASE in serve.h.
 */
static size_t
serve_arena_cap(size_t max_len, size_t per_byte, size_t base)
{
	size_t cap;

	if (!gpt_mul_size(max_len, JSON_PARSE_BYTES_PER_INPUT_BYTE + per_byte,
	        &cap) ||
	    !gpt_add_size(cap, JSON_PARSE_BYTES_FIXED, &cap) ||
	    !gpt_mul_size(cap, ARENA_WORST_FACTOR, &cap) ||
	    !gpt_add_size(cap, base, &cap))
		return SIZE_MAX;
	return cap;
}

enum serve_read {
	SERVE_READ_OK,
	SERVE_READ_TOO_BIG, /* more than max_body bytes */
	SERVE_READ_SHORT,   /* EOF before CONTENT_LENGTH */
	SERVE_READ_ERROR,   /* the transport failed or memory ran out */
};

/*
 * Read the body into st->body: exactly CONTENT_LENGTH bytes when given
 * (never one more: the rest of the stream is not ours), else to EOF but
 * never more than max_body + 1 bytes (the one more tells "too big").
 */
static enum serve_read
serve_read_body(struct serve_io *io, const struct http_req *req,
    size_t max_body, struct buf *body)
{
	size_t want, limit;
	long n;

	limit = req->has_length ? req->content_length : max_body + 1;
	buf_reset(body);
	body->max = limit;
	while (body->len < limit) {
		char *dst;

		want = limit - body->len < 65536 ? limit - body->len : 65536;
		if ((dst = buf_reserve(body, want)) == NULL)
			return SERVE_READ_ERROR;
		n = io->read(io->read_ctx, dst, want);
		if (n < 0)
			return SERVE_READ_ERROR;
		if (n == 0)
			break;
		body->len += (size_t)n;
		body->data[body->len] = '\0';
	}
	if (req->has_length && body->len < req->content_length)
		return SERVE_READ_SHORT;
	if (body->len > max_body)
		return SERVE_READ_TOO_BIG;
	return SERVE_READ_OK;
}

/* Write one precomputed answer: head only for HEAD. */
static int
serve_write_answer(
    struct serve_io *io, const struct addr_answer *ans, bool head_only)
{
	return io->out.write(
	    io->out.ctx, ans->bytes, head_only ? ans->head_len : ans->len);
}

static int
serve_arrival(struct serve_io *io, const struct http_req *req,
    const struct addr *a, int *status)
{
	bool html = http_wants_html(req->accept);
	const char *etag = html ? a->html_etag : a->etag;

	/* RFC 9110 section 13.1.2: If-None-Match uses weak comparison. */
	if (req->if_none_match != NULL &&
	    http_etag_match(req->if_none_match, etag, true)) {
		*status = http_status(HTTP_O_NOT_MODIFIED);
		return serve_write_answer(
		    io, html ? &a->html_304 : &a->json_304, false);
	}
	*status = http_status(HTTP_O_ARRIVAL);
	return serve_write_answer(
	    io, html ? &a->html : &a->json, req->method == HTTP_M_HEAD);
}

static int
serve_reject(struct serve_io *io, const struct http_req *req,
    const struct addr *a, const struct http_rejection *r, int *status)
{
	*status =
	    http_status(a->conf.explain ? HTTP_O_EXPLAINED : HTTP_O_REJECTED);
	if (http_reject(&io->out, r, req->actor, a->conf.explain) == 0)
		return 0;
	if (!a->conf.explain)
		return -1;
	/* the 422 body could not be built (or the client left): try a 500 */
	*status = http_status(HTTP_O_SERVER);
	return http_reply(&io->out, HTTP_O_SERVER);
}

static int
serve_reply(struct serve_io *io, enum http_outcome o, int *status)
{
	*status = http_status(o);
	return http_reply(&io->out, o);
}

/* Run the hook and answer with its output (CONTRACT "The hook"). */
static int
serve_hook(struct serve_io *io, struct serve_state *st,
    const struct http_req *req, const struct addr *a, int *status)
{
	struct hook_req hr = {
	    .dir = a->dir,
	    .program = "./hook",
	    .address = a->dir,
	    .actor = req->actor,
	    .remote_addr = req->remote_addr,
	    .body = st->body.data,
	    .body_len = st->body.len,
	    .timeout_sec = a->conf.hook_timeout,
	    .max_output = a->conf.hook_max_output,
	    .extra_env = a->conf.hook_env,
	    .extra_env_count = a->conf.hook_env_count,
	};
	struct hook_result res;
	const struct json_value *v;
	struct json_err jerr;

	/* The web server's connection must not reach the hook (nor what it
	 * starts).  Set here, not at accept: only an act that passed the form
	 * pays for it, and F_SETFD alone suffices (FD_CLOEXEC is the only fd
	 * flag). */
	if (io->conn_fd >= 0)
		(void)fcntl(io->conn_fd, F_SETFD, FD_CLOEXEC);
	switch (hook_run(&hr, &st->output, &res)) {
	case HOOK_OK:
		break;
	case HOOK_E_TIMEOUT:
		log_error("hook of %s: %s: %s", a->dir,
		    hook_strstatus(res.status), res.reason);
		return serve_reply(io, HTTP_O_HOOK_TIMEOUT, status);
	case HOOK_E_IO:
		log_error("hook of %s: %s: %s", a->dir,
		    hook_strstatus(res.status), res.reason);
		return serve_reply(io, HTTP_O_SERVER, status);
	default:
		/* hits on no hook file, a hook without x bit, exit 1, kill -9,
		 * output over hook_max_output */
		log_error("hook of %s: %s: %s%s", a->dir,
		    hook_strstatus(res.status), res.reason,
		    a->has_hook ? ""
		                : " (this address has no executable "
		                  "hook: it accepts no acts)");
		return serve_reply(io, HTTP_O_HOOK_FAILED, status);
	}
	/* The hook's answer goes out as it is, so it must be one strict JSON
	 * value with nothing after it. */
	/* Into an arena of its own, sized from hook_max_output: the act's
	 * tree still fills the request arena, and a failure for want of room
	 * here would come after the hook's side effect. */
	st->hook.cap = serve_arena_cap(a->conf.hook_max_output, 0, 0);
	if (json_parse(st->output.data != NULL ? st->output.data : "",
	        st->output.len, &st->hook, 0, &v, &jerr) != JSON_OK) {
		/* hits on a hook printing "ok", or "{} x"; out of memory only
		 * when malloc itself fails (the cap admits any output) */
		log_error("hook of %s: output is not one strict JSON value: "
		          "byte %zu: %s",
		    a->dir, jerr.offset, jerr.msg);
		return serve_reply(io, HTTP_O_HOOK_FAILED, status);
	}
	log_info("act accepted at %s (actor \"%s\"), hook took %u ms", a->dir,
	    req->actor != NULL ? req->actor : "", res.elapsed_ms);
	*status = http_status(HTTP_O_HOOK_OK);
	return http_reply_json(&io->out, st->output.data, st->output.len);
}

/* CONTRACT "Act": size, Content-Type, If-Match, parse, form, hook. */
static int
serve_act(struct serve_io *io, struct serve_state *st,
    const struct http_req *req, const struct addr *a, int *status)
{
	struct http_rejection r = {.address = a->dir};
	const struct json_value *v;
	struct json_err jerr;
	struct schema_err serr;

	if (req->has_length &&
	    (req->bad_length || req->content_length > a->conf.max_body)) {
		/* hits on CONTENT_LENGTH=2000000, refused unread */
		r.reason = req->bad_length ? "malformed CONTENT_LENGTH"
		                           : "larger than max_body";
		return serve_reject(io, req, a, &r, status);
	}
	if (!http_is_json_type(req->content_type)) {
		/* hits on text/plain, on no Content-Type, on charset=latin1 */
		r.reason = "Content-Type is not application/json";
		return serve_reject(io, req, a, &r, status);
	}
	/* Read before If-Match: without CONTENT_LENGTH the size is known
	 * only by reading, and size comes first. */
	switch (serve_read_body(io, req, a->conf.max_body, &st->body)) {
	case SERVE_READ_OK:
		break;
	case SERVE_READ_TOO_BIG:
		/* hits on 2 MB sent without CONTENT_LENGTH */
		r.reason = "larger than max_body";
		return serve_reject(io, req, a, &r, status);
	case SERVE_READ_SHORT:
		/* hits on CONTENT_LENGTH=10 with 3 bytes sent */
		r.reason = "body shorter than CONTENT_LENGTH";
		return serve_reject(io, req, a, &r, status);
	case SERVE_READ_ERROR:
		log_error("reading the act body failed");
		return serve_reply(io, HTTP_O_SERVER, status);
	}
	/* RFC 9110 section 13.1.1: If-Match uses strong comparison.  Before
	 * the body is parsed or judged: an act written for an older form must
	 * learn that the form changed even when the new form would accept it
	 * (or refuse it), and the ETag is public, so the 412 reveals nothing
	 * about the body. */
	if (req->if_match != NULL &&
	    !http_etag_match(req->if_match, a->etag, false)) {
		/* hits on If-Match: "stale" */
		log_reject("act at %s: If-Match does not match %s (actor \"%s\")",
		    a->dir, a->etag, req->actor != NULL ? req->actor : "");
		*status = http_status(HTTP_O_PRECONDITION);
		return serve_write_answer(io, &a->precondition, false);
	}
	st->req.cap = serve_arena_cap(a->conf.max_body,
	    SERVE_VALIDATE_BYTES_PER_INPUT_BYTE, SERVE_ARENA_BASE);
	switch (json_parse(st->body.data != NULL ? st->body.data : "",
	    st->body.len, &st->req, 0, &v, &jerr)) {
	case JSON_OK:
		break;
	case JSON_E_NOMEM:
		/* only when malloc fails: the cap admits every body */
		log_error("out of memory parsing an act");
		return serve_reply(io, HTTP_O_SERVER, status);
	default:
		/* hits on "{", "{}x", {"a":{"b":1,"b":2}}, "\xff", [[[...]]] */
		r.reason = "not strict JSON";
		r.detail = jerr.msg;
		r.has_offset = true;
		r.offset = jerr.offset;
		return serve_reject(io, req, a, &r, status);
	}
	switch (schema_validate(a->schema, v, &st->req, &serr)) {
	case SCHEMA_OK:
		break;
	case SCHEMA_NOMEM:
		log_error("out of memory validating an act");
		return serve_reply(io, HTTP_O_SERVER, status);
	default:
		/* hits on {"note": ""} against minLength 1 */
		r.reason = "fails the form";
		r.detail = serr.reason;
		r.pointer = serr.pointer.buf;
		r.pointer_len = serr.pointer.len;
		r.keyword = serr.keyword;
		return serve_reject(io, req, a, &r, status);
	}
	return serve_hook(io, st, req, a, status);
}

int
serve_request(struct serve_io *io, struct serve_state *st)
{
	struct http_req req;
	struct addr_ref ref;
	const struct addr *a;
	const char *why;
	int status = 500, rc;

	http_parse_env(io->envp, io->fallback, &req);
	if (addr_resolve(&req, &ref, &why) == -1) {
		/* no address to name: what the request asked for instead */
		log_reject("no address for PATH_INFO \"%.200s\": %s",
		    req.path_info != NULL ? req.path_info : "", why);
		rc = serve_reply(io, HTTP_O_NO_ADDRESS, &status);
		goto done;
	}
	a = io->form_cache
	        ? formcache_lookup(&ref,
	              req.method == HTTP_M_GET || req.method == HTTP_M_HEAD,
	              http_wants_html(req.accept), &why)
	        : addr_lookup(&ref, &why);
	if (ref.script_own && (a == NULL || (!a->ok && a->no_form))) {
		/* hits on .../gpt.fcgi (shared hosting, the .d default) before
		 * anything was published there: not the server's failure */
		log_reject("no form at the script's own URL: create %s/form.json "
		           "to publish one there (see gpt-address(5))",
		    ref.dir);
		rc = serve_reply(io, HTTP_O_NO_ADDRESS, &status);
		goto done;
	}
	if (a == NULL) {
		log_reject("no address at %s: %s", ref.dir, why);
		rc = serve_reply(io, HTTP_O_NO_ADDRESS, &status);
		goto done;
	}
	if (!a->ok) {
		log_error("address %s refused: %s", a->dir, a->err);
		rc = serve_reply(io, HTTP_O_SERVER, &status);
		goto done;
	}
	/* From here on, lines are the address's: its `log` level filters them
	 * (reset below, so lines between requests keep the default). */
	log_set_level(a->conf.log);
	switch (req.method) {
	case HTTP_M_GET:
	case HTTP_M_HEAD:
		rc = serve_arrival(io, &req, a, &status);
		break;
	case HTTP_M_POST:
		rc = serve_act(io, st, &req, a, &status);
		break;
	default:
		rc = serve_reply(io, HTTP_O_METHOD, &status);
		break;
	}
done:
	if (rc == -1)
		log_info("the client went away before the whole answer "
		         "(status %d)",
		    status);
	log_set_level(LOG_LEVEL_ALL);
	serve_state_reset(st);
	return status;
}

/* --- transports ------------------------------------------------------- */

static uint64_t
serve_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/*
 * The watch on the connection libfcgi reads (see "Stalled connections"
 * at the top).  One per process: the loop serves one request at a time.
 */
static struct {
	FCGX_Request *req;   /* borrowed: the loop's request */
	timer_t timer;       /* SIGALRM at expiry */
	struct itimerspec again; /* re-armed with this at expiry, or zero */
	volatile sig_atomic_t fired;
} serve_watch;

/* Set by SIGTERM and SIGUSR1: end the loop once the request is done. */
static volatile sig_atomic_t serve_stop;

static void
serve_watch_expired(int sig)
{
	int saved = errno;
	int fd = serve_watch.req != NULL ? serve_watch.req->ipcFd : -1;

	(void)sig;
	serve_watch.fired = 1;
	/* Async-signal-safe, both (POSIX.1-2008 section 2.4.3).  A stale fd
	 * (libfcgi closed it but has not cleared ipcFd yet) only gets
	 * EBADF: nothing opens an fd in that window. */
	if (fd >= 0)
		(void)shutdown(fd, SHUT_RDWR);
	if (serve_watch.again.it_value.tv_sec != 0 ||
	    serve_watch.again.it_value.tv_nsec != 0)
		(void)timer_settime(serve_watch.timer, 0, &serve_watch.again,
		    NULL);
	errno = saved;
}

static void
serve_stop_requested(int sig)
{
	(void)sig;
	serve_stop = 1;
}

static struct itimerspec
serve_ms_spec(uint64_t ms)
{
	struct itimerspec its = {{0, 0}, {0, 0}};

	its.it_value.tv_sec = (time_t)(ms / 1000);
	its.it_value.tv_nsec = (long)(ms % 1000) * 1000000;
	return its;
}

/* Arm the watch for ms (> 0); again: re-arm with ms at each expiry. */
static void
serve_watch_arm(uint64_t ms, bool again)
{
	struct itimerspec its = serve_ms_spec(ms > 0 ? ms : 1);
	static const struct itimerspec none;

	serve_watch.fired = 0;
	serve_watch.again = again ? its : none;
	(void)timer_settime(serve_watch.timer, 0, &its, NULL);
}

static void
serve_watch_disarm(void)
{
	static const struct itimerspec none;

	serve_watch.again = none;
	(void)timer_settime(serve_watch.timer, 0, &none, NULL);
}

/*
 * The handlers and the timer, once per process.  SIGALRM interrupts (no
 * SA_RESTART): that is how a blocked read or poll comes back to us.
 * 0, or -1 with errno set.
 */
static int
serve_watch_init(FCGX_Request *r)
{
	struct sigevent sev;
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sigfillset(&sa.sa_mask);
	sa.sa_handler = serve_watch_expired;
	if (sigaction(SIGALRM, &sa, NULL) != 0)
		return -1;
	/* libfcgi's own handlers for these (FCGX_Init) stop accept() only;
	 * ours end the wait in poll() (never restarted), and SA_RESTART
	 * lets the request in progress finish first. */
	sa.sa_handler = serve_stop_requested;
	sa.sa_flags = SA_RESTART;
	if (sigaction(SIGTERM, &sa, NULL) != 0 ||
	    sigaction(SIGUSR1, &sa, NULL) != 0)
		return -1;
	memset(&sev, 0, sizeof(sev));
	sev.sigev_notify = SIGEV_SIGNAL;
	sev.sigev_signo = SIGALRM;
	if (timer_create(CLOCK_MONOTONIC, &sev, &serve_watch.timer) != 0)
		return -1;
	serve_watch.req = r;
	return 0;
}

/* --- FastCGI answers: records built here, one write per answer ------- */

/*
 * libfcgi's error and output streams flush from two buffers, so an answer
 * that logs a line (every rejection) costs two write(2) calls and wakes
 * the web server twice.  Here the records of one answer (STDERR and
 * STDOUT, in the order they were produced, then the closing ones) gather
 * in st->wire and leave in one write when the request ends.  A record of
 * SERVE_WIRE_DIRECT bytes or more (a large hook output) is written from
 * where it lies, after what waits, so the buffer stays small.
 *
 * libfcgi still accepts, reads the parameters and the body, and closes
 * the connection; its two writers are marked closed before FCGX_Finish_r
 * (FCGX_FClose then writes nothing), so it adds no record of its own.
 */

struct serve_wire {
	struct buf *buf; /* borrowed: st->wire */
	int fd;          /* borrowed: libfcgi's connection */
	int id;          /* the request id of every record */
	int idle_ms;     /* longest wait for room to write */
	bool had_err;    /* a STDERR record went out: end that stream too */
	bool failed;     /* a write failed: the web server is gone */
};

/*
 * Write all iov[0..n) to the connection (n <= 3), through short writes and
 * EINTR.  The socket stays blocking for libfcgi; each send here is
 * MSG_DONTWAIT, and a full socket is waited for in poll() for at most
 * w->idle_ms: a peer that stops reading fails the write.
 */
static int
serve_writev_all(const struct serve_wire *wr, struct iovec *iov, int n)
{
	/* each pass writes at least one byte, or waits at most idle_ms and
	 * fails: bounded by the bytes */
	while (n > 0) {
		struct msghdr msg;
		ssize_t w;

		memset(&msg, 0, sizeof(msg));
		msg.msg_iov = iov;
		msg.msg_iovlen = (size_t)n;
		w = sendmsg(wr->fd, &msg, MSG_DONTWAIT | MSG_NOSIGNAL);
		if (w == -1 && errno == EINTR)
			continue;
		if (w == -1 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
			struct pollfd p = {wr->fd, POLLOUT, 0};
			int rc;

			do
				rc = poll(&p, 1, wr->idle_ms);
			while (rc == -1 && errno == EINTR);
			if (rc <= 0) {
				/* hits on a peer that never reads a large
				 * answer */
				return -1;
			}
			continue;
		}
		if (w <= 0)
			return -1;
		while (n > 0 && (size_t)w >= iov->iov_len) {
			w -= (ssize_t)iov->iov_len;
			iov++;
			n--;
		}
		if (n > 0) {
			iov->iov_base = (char *)iov->iov_base + w;
			iov->iov_len -= (size_t)w;
		}
	}
	return 0;
}

static int
serve_wire_flush(struct serve_wire *w)
{
	struct iovec iov;

	if (w->failed)
		return -1;
	if (w->buf->len == 0)
		return 0;
	iov.iov_base = w->buf->data;
	iov.iov_len = w->buf->len;
	if (serve_writev_all(w, &iov, 1) == -1)
		w->failed = true;
	buf_reset(w->buf);
	return w->failed ? -1 : 0;
}

/* A record header: version, type, request id, content length, padding. */
static void
serve_wire_header(
    unsigned char h[FCGI_HEADER_LEN], int type, int id, size_t n, size_t pad)
{
	h[0] = FCGI_VERSION_1;
	h[1] = (unsigned char)type;
	h[2] = (unsigned char)((id >> 8) & 0xff);
	h[3] = (unsigned char)(id & 0xff);
	h[4] = (unsigned char)((n >> 8) & 0xff);
	h[5] = (unsigned char)(n & 0xff);
	h[6] = (unsigned char)pad;
	h[7] = 0;
}

/* One record of n <= SERVE_REC_CHUNK content bytes, padded to 8. */
static int
serve_wire_record(struct serve_wire *w, int type, const void *p, size_t n)
{
	static const unsigned char zeros[8];
	unsigned char h[FCGI_HEADER_LEN];
	size_t pad = (8 - n % 8) % 8;
	struct iovec iov[3];
	char *dst;

	if (w->failed)
		return -1;
	serve_wire_header(h, type, w->id, n, pad);
	if (n < SERVE_WIRE_DIRECT &&
	    (dst = buf_reserve(w->buf, sizeof(h) + n + pad)) != NULL) {
		memcpy(dst, h, sizeof(h));
		if (n > 0)
			memcpy(dst + sizeof(h), p, n);
		memset(dst + sizeof(h) + n, 0, pad);
		w->buf->len += sizeof(h) + n + pad;
		return w->buf->len >= SERVE_WIRE_DIRECT ? serve_wire_flush(w)
		                                        : 0;
	}
	/* large, or no memory to gather it: what waits, then this record */
	if (serve_wire_flush(w) == -1)
		return -1;
	iov[0].iov_base = h;
	iov[0].iov_len = sizeof(h);
	iov[1].iov_base = (void *)(uintptr_t)p;
	iov[1].iov_len = n;
	iov[2].iov_base = (void *)(uintptr_t)zeros;
	iov[2].iov_len = pad;
	if (serve_writev_all(w, iov, 3) == -1) {
		w->failed = true;
		return -1;
	}
	return 0;
}

/* Stream bytes as records of at most SERVE_REC_CHUNK bytes each. */
static int
serve_wire_stream(struct serve_wire *w, int type, const void *p, size_t n)
{
	const char *c = p;

	/* bounded by n: each pass takes up to SERVE_REC_CHUNK bytes */
	while (n > 0) {
		size_t k = n < SERVE_REC_CHUNK ? n : SERVE_REC_CHUNK;

		if (serve_wire_record(w, type, c, k) == -1)
			return -1;
		c += k;
		n -= k;
	}
	return 0;
}

static int
serve_wire_write(void *ctx, const void *p, size_t n)
{
	return serve_wire_stream(ctx, FCGI_STDOUT, p, n);
}

/* The log sink while a request runs: its error stream, so the line
 * reaches the web server's log; once the connection is gone, stderr. */
static void
serve_wire_log(void *ctx, const char *line, size_t len)
{
	struct serve_wire *w = ctx;

	if (!w->failed && serve_wire_stream(w, FCGI_STDERR, line, len) == 0) {
		w->had_err = true;
		return;
	}
	if (write(STDERR_FILENO, line, len) < 0)
		return;
}

/* The end of the answer (FastCGI 1.0 specification, sections 5.3 and
 * 5.5): an empty STDERR when one was sent, an empty STDOUT, END_REQUEST
 * (application status 0, request complete); then everything in one
 * write, this tail with what waits when it fits. */
static void
serve_wire_end(struct serve_wire *w)
{
	unsigned char tail[4 * FCGI_HEADER_LEN], *t = tail;
	struct iovec iov[2];
	char *dst;

	if (w->failed)
		return;
	if (w->had_err) {
		serve_wire_header(t, FCGI_STDERR, w->id, 0, 0);
		t += FCGI_HEADER_LEN;
	}
	serve_wire_header(t, FCGI_STDOUT, w->id, 0, 0);
	t += FCGI_HEADER_LEN;
	serve_wire_header(t, FCGI_END_REQUEST, w->id, FCGI_HEADER_LEN, 0);
	t += FCGI_HEADER_LEN;
	memset(t, 0, FCGI_HEADER_LEN); /* appStatus 0, reserved */
	t[4] = FCGI_REQUEST_COMPLETE;
	t += FCGI_HEADER_LEN;
	if ((dst = buf_reserve(w->buf, (size_t)(t - tail))) != NULL) {
		memcpy(dst, tail, (size_t)(t - tail));
		w->buf->len += (size_t)(t - tail);
		(void)serve_wire_flush(w);
		return;
	}
	/* no memory for 32 more bytes: the same, from two places */
	iov[0].iov_base = w->buf->data;
	iov[0].iov_len = w->buf->len;
	iov[1].iov_base = tail;
	iov[1].iov_len = (size_t)(t - tail);
	if (serve_writev_all(w, iov, 2) == -1)
		w->failed = true;
	buf_reset(w->buf);
}

/*
 * libfcgi's writers have nothing to add: the records above ended them.
 * After a failed write the connection is broken: an error on the output
 * stream makes FCGX_Finish_r close it even when the web server asked to
 * keep it.
 */
static void
serve_fcgx_writers_done(FCGX_Request *r, const struct serve_wire *w)
{
	r->out->wasFCloseCalled = 1;
	r->out->isClosed = 1;
	r->err->wasFCloseCalled = 1;
	r->err->isClosed = 1;
	if (w->failed && r->out->FCGI_errno == 0)
		r->out->FCGI_errno = EPIPE;
}

/* The body's reader: libfcgi's stream, under the request's bounds. */
struct serve_fcgx_in {
	FCGX_Stream *in;       /* borrowed: the request's */
	int fd;                /* borrowed: the connection */
	struct serve_wire *w;  /* borrowed: the answer, failed when dropped */
	bool idle_set;         /* SO_RCVTIMEO is on the connection */
	unsigned idle_sec;
	uint64_t deadline_ms;  /* the request's whole time ends here */
	unsigned request_sec;
};

/* A dropped connection gets no answer; the log line goes to stderr. */
static void
serve_fcgx_drop(struct serve_fcgx_in *rd)
{
	rd->w->failed = true;
	(void)shutdown(rd->fd, SHUT_RDWR);
}

static long
serve_fcgx_read(void *ctx, void *p, size_t n)
{
	struct serve_fcgx_in *rd = ctx;
	uint64_t now = serve_now_ms();
	int got, err;

	if (!rd->idle_set) {
		/* Each read() libfcgi makes waits at most the idle time:
		 * EAGAIN then, which ends the stream. */
		struct timeval tv = {(time_t)rd->idle_sec, 0};

		(void)setsockopt(
		    rd->fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
		rd->idle_set = true;
	}
	if (now >= rd->deadline_ms) {
		/* hits on a body trickled a byte a second */
		serve_fcgx_drop(rd);
		log_error("the web server did not send the whole request "
		          "within %u s: connection dropped",
		    rd->request_sec);
		return -1;
	}
	serve_watch_arm(rd->deadline_ms - now, false);
	got = FCGX_GetStr(p, n > INT_MAX ? INT_MAX : (int)n, rd->in);
	serve_watch_disarm();
	if (serve_watch.fired) {
		serve_fcgx_drop(rd);
		log_error("the web server did not send the whole request "
		          "within %u s: connection dropped",
		    rd->request_sec);
		return -1;
	}
	err = FCGX_GetError(rd->in);
	if (got < 0 || (got == 0 && err != 0)) {
		if (err == EAGAIN || err == EWOULDBLOCK) {
			/* hits on a body that stops half way */
			serve_fcgx_drop(rd);
			log_error("the web server sent nothing for %u s: "
			          "connection dropped",
			    rd->idle_sec);
		}
		return -1;
	}
	return got;
}

/* Bytes of the body a CGI request has read from stdin so far. */
struct serve_cgi_in {
	size_t got;
};

static long
serve_fd_read(void *ctx, void *p, size_t n)
{
	struct serve_cgi_in *in = ctx;
	ssize_t got;

	do
		got = read(STDIN_FILENO, p, n);
	while (got == -1 && errno == EINTR);
	if (got > 0)
		in->got += (size_t)got;
	return got;
}

/*
 * After the answer, read and discard what the web server still has to send
 * of the body (a 405, or a rejection decided before reading, leaves it
 * unread).  A gateway that hands the body over a socket (Apache's mod_cgid)
 * otherwise sees the connection reset when we exit with bytes unread, and
 * may lose the answer we already wrote.  Bounded by CONTENT_LENGTH and by
 * SERVE_CGI_DRAIN_MAX: a larger body is left to the web server's limits.
 */
static void
serve_cgi_drain(struct serve_cgi_in *in)
{
	struct http_req req;
	char sink[16384];
	size_t left;

	http_parse_env(environ, NULL, &req);
	if (!req.has_length || req.bad_length || req.content_length <= in->got)
		return;
	left = req.content_length - in->got;
	if (left > SERVE_CGI_DRAIN_MAX)
		return;
	while (left > 0) {
		long n = serve_fd_read(in, sink,
		    left < sizeof(sink) ? left : sizeof(sink));

		if (n <= 0)
			return;
		left -= (size_t)n;
	}
}

static int
serve_fd_write(void *ctx, const void *p, size_t n)
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
 * a CGI program's stderr does under Apache only (see log_cgi_timestamps):
 * elsewhere the lines carry their own time.  GPT_LOG_TIMESTAMP=yes|no
 * overrides (gpt.fcgi(8)).
 */
static void
serve_cgi_log(void)
{
	const char *set = http_getenv(environ, "GPT_LOG_TIMESTAMP");
	bool stamp;
	int rc;

	rc = log_cgi_timestamps(
	    set, http_getenv(environ, "SERVER_SOFTWARE"), &stamp);
	log_set_timestamps(stamp);
	if (rc == -1)
		/* hits on GPT_LOG_TIMESTAMP=1 */
		log_warn("GPT_LOG_TIMESTAMP=\"%.40s\": not yes or no; "
		         "ignored",
		    set);
}

static int
serve_cgi(struct serve_state *st)
{
	struct serve_cgi_in in = {0};
	struct serve_io io = {
	    .envp = environ,
	    .fallback = NULL,
	    .read = serve_fd_read,
	    .read_ctx = &in,
	    .out = {serve_fd_write, NULL},
	    .conn_fd = -1,
	    .form_cache = true,
	};

	if (http_getenv(environ, "REQUEST_METHOD") == NULL &&
	    isatty(STDIN_FILENO)) {
		log_error("no request: run from a web server (CGI or "
		          "FastCGI), or see --help");
		return 2;
	}
	(void)serve_request(&io, st);
	serve_cgi_drain(&in);
	return 0;
}

/*
 * The process environment does not change while the loop runs, and the
 * fallback is read for two names only (http_parse_env): keep just those
 * entries, so no request scans the whole environment for them.
 */
static void
serve_fallback_env(char *keep[3])
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
 * GPT_FCGI_REQUEST_TIMEOUT, whole seconds SERVE_TIMEOUT_MIN..MAX, digits
 * only.  Unset or empty: the default.  0, or -1 after logging why (the
 * process then refuses to start: a typo must not silently mean the
 * default).
 */
static int
serve_timeout_env(const char *name, unsigned def, unsigned *out)
{
	const char *v = getenv(name);
	unsigned long n = 0;
	size_t i;

	if (v == NULL || *v == '\0') {
		*out = def;
		return 0;
	}
	/* bounded: at most 5 digits are looked at before the range check
	 * fails */
	for (i = 0; v[i] != '\0'; i++) {
		if (v[i] < '0' || v[i] > '9' || i >= 5 ||
		    (i == 0 && v[i] == '0')) {
			/* hits on "5s", " 5", "-1", "05", "0", "1e3" */
			n = 0;
			break;
		}
		n = n * 10 + (unsigned long)(v[i] - '0');
	}
	if (n < SERVE_TIMEOUT_MIN || n > SERVE_TIMEOUT_MAX) {
		/* hits on "0", "99999", "abc" */
		log_error("%s=\"%.40s\": not a whole number of seconds from "
		          "%u to %u; not starting",
		    name, v, SERVE_TIMEOUT_MIN, SERVE_TIMEOUT_MAX);
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
serve_reject_limit_env(void)
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
 * Before the next request, with no timer running: a kept connection is
 * given the idle time to send its next request, and closed when it sends
 * none; without one, the listening socket is polled for as long as it
 * takes.  0 when FCGX_Accept_r may go (something is there, or the
 * listener's state is for accept() to report), -1 on a stop signal.
 */
static int
serve_wait(FCGX_Request *r, unsigned idle_sec)
{
	struct pollfd p;
	int rc;

	if (r->ipcFd >= 0) {
		uint64_t end = serve_now_ms() + (uint64_t)idle_sec * 1000;

		p.fd = r->ipcFd;
		p.events = POLLIN;
		/* EINTR from a stray signal: wait out what is left */
		for (;;) {
			uint64_t now = serve_now_ms();

			if (serve_stop)
				return -1;
			rc = poll(&p, 1, now < end ? (int)(end - now) : 0);
			if (rc != -1 || errno != EINTR)
				break;
		}
		if (rc != 0)
			return 0;
		/* FCGI_KEEP_CONN, then nothing: the web server reconnects
		 * when it needs to.  shutdown first, so libfcgi's close finds
		 * EOF at once instead of draining for 2 s. */
		log_info("closed a kept FastCGI connection idle for %u s",
		    idle_sec);
		(void)shutdown(r->ipcFd, SHUT_RDWR);
		FCGX_Free(r, 1);
	}
	p.fd = 0; /* FCGI_LISTENSOCK_FILENO */
	p.events = POLLIN;
	do {
		if (serve_stop)
			return -1;
		rc = poll(&p, 1, -1);
	} while (rc == -1 && errno == EINTR);
	return 0;
}

static int
serve_fastcgi(struct serve_state *st)
{
	FCGX_Request r;
	char *fallback[3];
	unsigned idle, request;
	int fl;

	if (serve_timeout_env("GPT_FCGI_IDLE_TIMEOUT",
	        SERVE_IDLE_TIMEOUT_DEFAULT, &idle) == -1 ||
	    serve_timeout_env("GPT_FCGI_REQUEST_TIMEOUT",
	        SERVE_REQUEST_TIMEOUT_DEFAULT, &request) == -1 ||
	    addr_cache_configure() == -1)
		return 1;
	if (serve_reject_limit_env() == -1)
		return 1;
	/* The listening socket must not reach a hook (nor its children);
	 * FD_CLOEXEC is the only fd flag, so no F_GETFD first. */
	(void)fcntl(0, F_SETFD, FD_CLOEXEC);
	/* Non-blocking, so that libfcgi's accept() never waits under a
	 * request's timer (see "Stalled connections" at the top). */
	if ((fl = fcntl(0, F_GETFL)) == -1 ||
	    fcntl(0, F_SETFL, fl | O_NONBLOCK) == -1) {
		log_error("cannot make the listening socket non-blocking: %s",
		    strerror(errno));
		return 1;
	}
	serve_fallback_env(fallback);
	if (FCGX_InitRequest(&r, 0, 0) != 0) {
		log_error("cannot set up the FastCGI request");
		return 1;
	}
	if (serve_watch_init(&r) == -1) {
		log_error("cannot set up the connection timer: %s",
		    strerror(errno));
		FCGX_Free(&r, 1);
		return 1;
	}
	/* Bounded by the web server: each pass answers one request or drops
	 * one stalled connection; a failing accept (the server closed the
	 * socket) or a stop signal ends the process. */
	while (serve_wait(&r, idle) == 0) {
		uint64_t start = serve_now_ms();
		uint64_t head = (uint64_t)(idle < request ? idle : request);
		int rc;

		serve_watch_arm(head * 1000, true);
		rc = FCGX_Accept_r(&r);
		serve_watch_disarm();
		if (serve_watch.fired)
			/* hits on half a record header, then silence */
			log_error("dropped a FastCGI connection that sent no "
			          "whole request head within %u s",
			    (unsigned)head);
		if (rc == -EAGAIN || rc == -EWOULDBLOCK || rc == -EINTR)
			continue; /* no request after all: wait again */
		if (rc < 0)
			break;
		{
			struct serve_wire w = {
			    .buf = &st->wire,
			    .fd = r.ipcFd,
			    .id = r.requestId,
			    .idle_ms = (int)idle * 1000,
			};
			struct serve_fcgx_in rd = {
			    .in = r.in,
			    .fd = r.ipcFd,
			    .w = &w,
			    .idle_sec = idle,
			    .deadline_ms = start + (uint64_t)request * 1000,
			    .request_sec = request,
			};
			struct serve_io io = {
			    .envp = r.envp,
			    .fallback = fallback,
			    .read = serve_fcgx_read,
			    .read_ctx = &rd,
			    .out = {serve_wire_write, &w},
			    .conn_fd = r.ipcFd,
			};

			buf_reset(&st->wire);
			log_set_sink(serve_wire_log, &w);
			(void)serve_request(&io, st);
			serve_wire_end(&w);
			log_set_sink(NULL, NULL);
			serve_fcgx_writers_done(&r, &w);
		}
		FCGX_Finish_r(&r);
	}
	serve_watch_disarm();
	serve_watch.req = NULL;
	FCGX_Free(&r, 1);
	return 0;
}

int
serve_main(void)
{
	struct serve_state st;
	int rc;

	/* A client gone mid-answer, or a hook that does not read its stdin,
	 * must cost one log line, not the process. */
	signal(SIGPIPE, SIG_IGN);
	/* hook_run reaps its own child; an inherited SIG_IGN would let the
	 * kernel reap it first. */
	signal(SIGCHLD, SIG_DFL);
	/* What a hook starts outside its process group (setsid, a double
	 * fork) comes back to us when orphaned, so hook_run can kill it
	 * (CONTRACT "The hook": killed "with all it started"). */
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
	if (FCGX_IsCGI())
		serve_cgi_log();
	/* Once per process: at the start of a FastCGI process, with each
	 * request under CGI (one process per request). */
	if (hook_runs_as_root())
		log_warn("%s", HOOK_ROOT_WARNING);
	serve_state_init(&st);
	rc = FCGX_IsCGI() ? serve_cgi(&st) : serve_fastcgi(&st);
	serve_state_free(&st);
	formcache_clear();
	addr_cache_clear();
	return rc;
}
