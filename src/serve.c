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
 * and only a failing accept (the web server is gone) ends the loop.
 */
#include <errno.h>
#include <fastcgi.h>
#include <fcgiapp.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include "address.h"
#include "hook.h"
#include "json.h"
#include "log.h"
#include "schema.h"
#include "serve.h"

extern char **environ;

/* FastCGI records (see "FastCGI answers" below). */
#define SERVE_REC_CHUNK 65528 /* content per record: <= 0xffff, 8-aligned */
#define SERVE_WIRE_DIRECT ((size_t)16 * 1024) /* written where it lies */
#define SERVE_WIRE_MAX ((size_t)64 * 1024)    /* st->wire never holds more */

void
serve_state_init(struct serve_state *st)
{
	arena_init(&st->req, SERVE_ARENA_BASE);
	buf_init(&st->body, 0);
	buf_init(&st->output, 0);
	buf_init(&st->wire, SERVE_WIRE_MAX);
}

void
serve_state_free(struct serve_state *st)
{
	arena_free(&st->req);
	buf_free(&st->body);
	buf_free(&st->output);
	buf_free(&st->wire);
}

/* Forget one request; keep memory unless a rare big act made it grow. */
static void
serve_state_reset(struct serve_state *st)
{
	arena_reset(&st->req);
	if (st->body.size > SERVE_KEEP_MAX)
		buf_free(&st->body);
	if (st->output.size > SERVE_KEEP_MAX)
		buf_free(&st->output);
	buf_reset(&st->body);
	buf_reset(&st->output);
}

/* The request's parsing room: SERVE_TREE_FACTOR times the largest body. */
static size_t
serve_arena_cap(size_t max_body)
{
	size_t cap;

	if (!gpt_mul_size(max_body, SERVE_TREE_FACTOR, &cap) ||
	    !gpt_add_size(cap, SERVE_ARENA_BASE, &cap))
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
	if (json_parse(st->output.data != NULL ? st->output.data : "",
	        st->output.len, &st->req, 0, &v, &jerr) != JSON_OK) {
		/* hits on a hook printing "ok", or "{} x" */
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

/* CONTRACT "Act": size, Content-Type, parse, form, If-Match, hook. */
static int
serve_act(struct serve_io *io, struct serve_state *st,
    const struct http_req *req, const struct addr *a, int *status)
{
	struct http_rejection r = {0};
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
	st->req.cap = serve_arena_cap(a->conf.max_body);
	switch (json_parse(st->body.data != NULL ? st->body.data : "",
	    st->body.len, &st->req, 0, &v, &jerr)) {
	case JSON_OK:
		break;
	case JSON_E_NOMEM:
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
		r.keyword = serr.keyword;
		return serve_reject(io, req, a, &r, status);
	}
	/* RFC 9110 section 13.1.1: If-Match uses strong comparison. */
	if (req->if_match != NULL &&
	    !http_etag_match(req->if_match, a->etag, false)) {
		log_info("act at %s: If-Match does not match %s (actor \"%s\")",
		    a->dir, a->etag, req->actor != NULL ? req->actor : "");
		return serve_reply(io, HTTP_O_PRECONDITION, status);
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
		log_info("no address: %s", why);
		rc = serve_reply(io, HTTP_O_NO_ADDRESS, &status);
		goto done;
	}
	if ((a = addr_lookup(&ref, &why)) == NULL) {
		log_info("no address at %s: %s", ref.dir, why);
		rc = serve_reply(io, HTTP_O_NO_ADDRESS, &status);
		goto done;
	}
	if (!a->ok) {
		log_error("address %s refused: %s", a->dir, a->err);
		rc = serve_reply(io, HTTP_O_SERVER, &status);
		goto done;
	}
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
	serve_state_reset(st);
	return status;
}

/* --- transports ------------------------------------------------------- */

static long
serve_fcgx_read(void *ctx, void *p, size_t n)
{
	FCGX_Stream *in = ctx;
	int got;

	got = FCGX_GetStr(p, n > INT_MAX ? INT_MAX : (int)n, in);
	if (got < 0 || (got == 0 && FCGX_GetError(in) != 0))
		return -1;
	return got;
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
	bool had_err;    /* a STDERR record went out: end that stream too */
	bool failed;     /* a write failed: the web server is gone */
};

/* Write all iov[0..n) to fd (n <= 3), through short writes and EINTR. */
static int
serve_writev_all(int fd, struct iovec *iov, int n)
{
	/* each pass writes at least one byte or fails: bounded by the bytes */
	while (n > 0) {
		ssize_t w = writev(fd, iov, n);

		if (w == -1 && errno == EINTR)
			continue;
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
	if (serve_writev_all(w->fd, &iov, 1) == -1)
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
	if (serve_writev_all(w->fd, iov, 3) == -1) {
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
	if (serve_writev_all(w->fd, iov, 2) == -1)
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

static int
serve_fastcgi(struct serve_state *st)
{
	FCGX_Request r;
	char *fallback[3];

	/* The listening socket must not reach a hook (nor its children);
	 * FD_CLOEXEC is the only fd flag, so no F_GETFD first. */
	(void)fcntl(0, F_SETFD, FD_CLOEXEC);
	serve_fallback_env(fallback);
	if (FCGX_InitRequest(&r, 0, 0) != 0) {
		log_error("cannot set up the FastCGI request");
		return 1;
	}
	/* Bounded by the web server: each pass answers one request, and a
	 * failing accept (the server closed the socket) ends the process. */
	while (FCGX_Accept_r(&r) >= 0) {
		struct serve_wire w = {
		    .buf = &st->wire,
		    .fd = r.ipcFd,
		    .id = r.requestId,
		};
		struct serve_io io = {
		    .envp = r.envp,
		    .fallback = fallback,
		    .read = serve_fcgx_read,
		    .read_ctx = r.in,
		    .out = {serve_wire_write, &w},
		    .conn_fd = r.ipcFd,
		};

		buf_reset(&st->wire);
		log_set_sink(serve_wire_log, &w);
		(void)serve_request(&io, st);
		serve_wire_end(&w);
		log_set_sink(NULL, NULL);
		serve_fcgx_writers_done(&r, &w);
		FCGX_Finish_r(&r);
	}
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
	if (FCGX_Init() != 0) {
		log_error("libfcgi failed to initialize");
		return 1;
	}
	serve_state_init(&st);
	rc = FCGX_IsCGI() ? serve_cgi(&st) : serve_fastcgi(&st);
	serve_state_free(&st);
	addr_cache_clear();
	return rc;
}
