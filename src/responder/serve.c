/*
 * serve.c: one request from CGI variables to the answer, and the loops
 * that feed requests to it: FastCGI connections (the protocol is fcgi.c's;
 * here, accepting them and the order of a request's work) and one CGI
 * request on stdin/stdout/environ.
 *
 * Owns: the request arena and the buffers of struct serve_state; the one
 * FastCGI connection of the process.  Refuses: nothing itself; which
 * directory is addr_'s decision; what happened (an outcome) is decided
 * here, the status for it and its bytes by http_ (http_status, and
 * http_reject for the 204-or-422 of a rejection); the GET bytes were built
 * at load (answer.c).
 *
 * A FastCGI process never ends because of input: a client that hangs up
 * mid-answer is logged (SIGPIPE is ignored), an out-of-memory answers 500,
 * and only a failing listener (the web server is gone) or SIGTERM/SIGUSR1
 * (between requests) ends the loop.
 *
 * Stalled connections.  The process serves one connection at a time, so
 * a peer that sends half a record and waits would hold it for good.  Two
 * bounds from the process environment (GPT_FCGI_IDLE_TIMEOUT,
 * GPT_FCGI_REQUEST_TIMEOUT; see gpt.fcgi(8)) drop such a connection and go
 * on to the next:
 *
 *   idle     no byte for this long while a request is expected or read
 *            (a kept connection between requests, too);
 *   request  the whole request (its head and its body) read within this
 *            long; its head alone within min(idle, request), since a web
 *            server writes it at once.
 *
 * Both are deadlines checked by fcgi.c when a read would block: it then
 * polls for what is left, and never otherwise, so an answer costs no
 * system call for its bounds (a GET: accept4, read, sendmsg, close).
 * Writes wait for room in poll() for at most the idle time.
 */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fastcgi.h>
#include <fcgiapp.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "site/addr_cache.h"
#include "site/address.h"
#include "responder/answer.h"
#include "tools/audit.h"
#include "web/fcgi.h"
#include "responder/formcache.h"
#include "site/hook.h"
#include "parser/json.h"
#include "site/listenfd.h"
#include "base/log.h"
#include "schema/schema.h"
#include "responder/serve.h"

extern char **environ;

/* address.conf's hook_env entries all fit in what a hook may get. */
_Static_assert(CONF_HOOK_ENV_MAX <= HOOK_EXTRA_ENV_MAX,
    "hook_env allows more variables than hook_run passes");

void
serve_state_init(struct serve_state *st)
{
	arena_init(&st->req, SERVE_ARENA_BASE);
	arena_init(&st->hook, SERVE_ARENA_BASE);
	buf_init(&st->body, 0);
	buf_init(&st->output, 0);
}

void
serve_state_free(struct serve_state *st)
{
	arena_free(&st->req);
	arena_free(&st->hook);
	buf_free(&st->body);
	buf_free(&st->output);
}

/* Forget one request; keep memory unless a rare big act made it grow. */
static void
serve_state_reset(struct serve_state *st)
{
	arena_reset(&st->req);
	arena_reset(&st->hook);
	if (buf_held(&st->body) > SERVE_KEEP_MAX)
		buf_free(&st->body);
	if (buf_held(&st->output) > SERVE_KEEP_MAX)
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
	buf_reset_max(body, limit);
	while (buf_len(body) < limit) {
		char *dst;

		want = buf_room(body) < 65536 ? buf_room(body) : 65536;
		if ((dst = buf_reserve(body, want)) == NULL)
			return SERVE_READ_ERROR;
		n = io->read(io->read_ctx, dst, want);
		if (n < 0)
			return SERVE_READ_ERROR;
		if (n == 0)
			break;
		buf_commit(body, (size_t)n);
	}
	if (req->has_length && buf_len(body) < req->content_length)
		return SERVE_READ_SHORT;
	if (buf_len(body) > max_body)
		return SERVE_READ_TOO_BIG;
	return SERVE_READ_OK;
}

/* Write one precomputed answer: head only for HEAD. */
static int
serve_write_answer(
    struct serve_io *io, const struct answer *ans, bool head_only)
{
	return io->out.write(
	    io->out.ctx, ans->bytes, head_only ? ans->head_len : ans->len);
}

static int
serve_arrival(struct serve_io *io, const struct http_req *req,
    const struct answer_set *set, enum http_outcome *o)
{
	bool html = http_wants_html(req->accept);
	const char *etag = html ? set->html_etag : set->etag;

	/* RFC 9110 section 13.1.2: If-None-Match uses weak comparison. */
	if (req->if_none_match != NULL &&
	    http_etag_match(req->if_none_match, etag, true)) {
		*o = HTTP_O_NOT_MODIFIED;
		return serve_write_answer(
		    io, html ? &set->html_304 : &set->json_304, false);
	}
	*o = HTTP_O_ARRIVAL;
	return serve_write_answer(
	    io, html ? &set->html : &set->json, req->method == HTTP_M_HEAD);
}

static int
serve_reject(struct serve_io *io, const struct http_req *req,
    const struct addr *a, const struct http_rejection *r,
    enum http_outcome *o)
{
	return http_reject(&io->out, r, req->actor, a->conf.explain, o);
}

static int
serve_reply(struct serve_io *io, enum http_outcome what, enum http_outcome *o)
{
	*o = what;
	return http_reply(&io->out, what);
}

/* Run the hook and answer with its output (CONTRACT "The hook"). */
static int
serve_hook(struct serve_io *io, struct serve_state *st,
    const struct http_req *req, const struct addr *a, enum http_outcome *o)
{
	struct hook_req hr = {
	    .dir = a->dir,
	    .program = "./hook",
	    .address = a->dir,
	    .actor = req->actor,
	    .remote_addr = req->remote_addr,
	    .body = buf_ptr(&st->body),
	    .body_len = buf_len(&st->body),
	    .timeout_sec = a->conf.hook_timeout,
	    .max_output = a->conf.hook_max_output,
	    .extra_env = a->conf.hook_env,
	    .extra_env_count = a->conf.hook_env_count,
	};
	struct hook_result res;
	const struct json_value *v;
	struct json_err jerr;

	/* The web server's connection is CLOEXEC since its accept4 (and
	 * the listening socket since the start): no hook inherits them. */
	switch (hook_run(&hr, &st->output, &res)) {
	case HOOK_OK:
		break;
	case HOOK_E_TIMEOUT:
		log_error("hook of %s: %s: %s", a->dir,
		    hook_strstatus(res.status), res.reason);
		return serve_reply(io, HTTP_O_HOOK_TIMEOUT, o);
	case HOOK_E_IO:
		log_error("hook of %s: %s: %s", a->dir,
		    hook_strstatus(res.status), res.reason);
		return serve_reply(io, HTTP_O_SERVER, o);
	default:
		/* hits on no hook file, a hook without x bit, exit 1, kill -9,
		 * output over hook_max_output */
		log_error("hook of %s: %s: %s%s", a->dir,
		    hook_strstatus(res.status), res.reason,
		    a->has_hook ? ""
		                : " (this address has no executable "
		                  "hook: it accepts no acts)");
		return serve_reply(io, HTTP_O_HOOK_FAILED, o);
	}
	/* The hook's answer goes out as it is, so it must be one strict JSON
	 * value with nothing after it. */
	/* Into an arena of its own, sized from hook_max_output: the act's
	 * tree still fills the request arena, and a failure for want of room
	 * here would come after the hook's side effect. */
	st->hook.cap = serve_arena_cap(a->conf.hook_max_output, 0, 0);
	if (json_parse(buf_ptr(&st->output), buf_len(&st->output), &st->hook,
	        0, &v, &jerr) != JSON_OK) {
		/* hits on a hook printing "ok", or "{} x"; out of memory only
		 * when malloc itself fails (the cap admits any output) */
		log_error("hook of %s: output is not one strict JSON value: "
		          "byte %zu: %s",
		    a->dir, jerr.offset, jerr.msg);
		return serve_reply(io, HTTP_O_HOOK_FAILED, o);
	}
	log_info("act accepted at %s (actor \"%s\"), hook took %u ms", a->dir,
	    req->actor != NULL ? req->actor : "", res.elapsed_ms);
	*o = HTTP_O_HOOK_OK;
	return http_reply_json(
	    &io->out, buf_ptr(&st->output), buf_len(&st->output));
}

/* CONTRACT "Act": size, Content-Type, If-Match, parse, form, hook. */
static int
serve_act(struct serve_io *io, struct serve_state *st,
    const struct http_req *req, const struct addr *a, enum http_outcome *o)
{
	const struct answer_set *set = answer_of(a);
	struct http_rejection r = {.address = a->dir};
	const struct json_value *v;
	struct json_err jerr;
	struct schema_err serr;

	if (req->has_length &&
	    (req->bad_length || req->content_length > a->conf.max_body)) {
		/* hits on CONTENT_LENGTH=2000000, refused unread */
		r.reason = req->bad_length ? "malformed CONTENT_LENGTH"
		                           : "larger than max_body";
		return serve_reject(io, req, a, &r, o);
	}
	if (!http_is_json_type(req->content_type)) {
		/* hits on text/plain, on no Content-Type, on charset=latin1 */
		r.reason = "Content-Type is not application/json";
		return serve_reject(io, req, a, &r, o);
	}
	/* Read before If-Match: without CONTENT_LENGTH the size is known
	 * only by reading, and size comes first. */
	switch (serve_read_body(io, req, a->conf.max_body, &st->body)) {
	case SERVE_READ_OK:
		break;
	case SERVE_READ_TOO_BIG:
		/* hits on 2 MB sent without CONTENT_LENGTH */
		r.reason = "larger than max_body";
		return serve_reject(io, req, a, &r, o);
	case SERVE_READ_SHORT:
		/* hits on CONTENT_LENGTH=10 with 3 bytes sent */
		r.reason = "body shorter than CONTENT_LENGTH";
		return serve_reject(io, req, a, &r, o);
	case SERVE_READ_ERROR:
		log_error("reading the act body failed");
		return serve_reply(io, HTTP_O_SERVER, o);
	}
	/* RFC 9110 section 13.1.1: If-Match uses strong comparison.  Before
	 * the body is parsed or judged: an act written for an older form must
	 * learn that the form changed even when the new form would accept it
	 * (or refuse it), and the ETag is public, so the 412 reveals nothing
	 * about the body. */
	if (req->if_match != NULL &&
	    !http_etag_match(req->if_match, set->etag, false)) {
		/* hits on If-Match: "stale" */
		log_reject("act at %s: If-Match does not match %s (actor \"%s\")",
		    a->dir, set->etag, req->actor != NULL ? req->actor : "");
		*o = HTTP_O_PRECONDITION;
		return serve_write_answer(io, &set->precondition, false);
	}
	st->req.cap = serve_arena_cap(a->conf.max_body,
	    SERVE_VALIDATE_BYTES_PER_INPUT_BYTE, SERVE_ARENA_BASE);
	switch (json_parse(buf_ptr(&st->body), buf_len(&st->body), &st->req, 0,
	    &v, &jerr)) {
	case JSON_OK:
		break;
	case JSON_E_NOMEM:
		/* only when malloc fails: the cap admits every body */
		log_error("out of memory parsing an act");
		return serve_reply(io, HTTP_O_SERVER, o);
	default:
		/* hits on "{", "{}x", {"a":{"b":1,"b":2}}, "\xff", [[[...]]] */
		r.reason = "not strict JSON";
		r.detail = jerr.msg;
		r.has_offset = true;
		r.offset = jerr.offset;
		return serve_reject(io, req, a, &r, o);
	}
	switch (schema_validate(a->schema, v, &st->req, &serr)) {
	case SCHEMA_OK:
		break;
	case SCHEMA_NOMEM:
		log_error("out of memory validating an act");
		return serve_reply(io, HTTP_O_SERVER, o);
	default:
		/* hits on {"note": ""} against minLength 1 */
		r.reason = "fails the form";
		r.detail = serr.reason;
		r.pointer = serr.pointer.buf;
		r.pointer_len = serr.pointer.len;
		r.keyword = serr.keyword;
		return serve_reject(io, req, a, &r, o);
	}
	return serve_hook(io, st, req, a, o);
}

/*
 * What the responder builds at each load of an address (addr_cache_lookup's
 * derive): its answers (answer.h), then the form's warnings in the log,
 * once per load (audit.h).  Under CGI each request is a load: the form
 * cache runs these only when it stores an entry (or cannot vouch), so
 * the warnings come once per version of the form (formcache.h).
 * serve_derive_acts leaves the page out, for a CGI act with the cache off.
 */
static int
serve_derive_with(struct addr *a, bool page, char *err, size_t errlen)
{
	const struct answer_set *set;

	if ((page ? answer_build(a, err, errlen)
	          : answer_build_acts(a, err, errlen)) == -1)
		return -1;
	set = answer_of(a);
	audit_log_load(a, set->json.bytes + set->json.head_len,
	    set->json.len - set->json.head_len);
	return 0;
}

static int
serve_derive(struct addr *a, char *err, size_t errlen)
{
	return serve_derive_with(a, true, err, errlen);
}

static int
serve_derive_acts(struct addr *a, char *err, size_t errlen)
{
	return serve_derive_with(a, false, err, errlen);
}

int
serve_request(struct serve_io *io, struct serve_state *st)
{
	struct http_req req;
	struct addr_query q;
	struct addr_ref ref;
	const struct addr *a;
	const char *why;
	enum http_outcome o = HTTP_O_SERVER;
	int rc;

	http_parse_env(io->envp, io->fallback, &req);
	q.path_info = req.path_info;
	q.request_uri = req.request_uri;
	q.script_filename = req.script_filename;
	q.gpt_address = req.gpt_address;
	q.gpt_root = req.gpt_root;
	if (addr_resolve(&q, &ref, &why) == -1) {
		/* no address to name: what the request asked for instead */
		log_reject("no address for PATH_INFO \"%.200s\": %s",
		    req.path_info != NULL ? req.path_info : "", why);
		rc = serve_reply(io, HTTP_O_NO_ADDRESS, &o);
		goto done;
	}
	if (io->form_cache) {
		bool arrival =
		    req.method == HTTP_M_GET || req.method == HTTP_M_HEAD;

		a = formcache_lookup(&ref, arrival, http_wants_html(req.accept),
		    serve_derive, serve_derive_acts, &why);
	} else
		a = addr_cache_lookup(&ref, serve_derive, &why);
	if (ref.script_own && (a == NULL || (!a->ok && a->no_form))) {
		/* hits on .../gpt.fcgi (shared hosting, the .d default) before
		 * anything was published there: not the server's failure */
		log_reject("no form at the script's own URL: create %s/form.json "
		           "to publish one there (see gpt-address(5))",
		    ref.dir);
		rc = serve_reply(io, HTTP_O_NO_ADDRESS, &o);
		goto done;
	}
	if (a == NULL) {
		log_reject("no address at %s: %s", ref.dir, why);
		rc = serve_reply(io, HTTP_O_NO_ADDRESS, &o);
		goto done;
	}
	if (!a->ok || answer_of(a) == NULL) {
		log_error("address %s refused: %s", a->dir, a->err);
		rc = serve_reply(io, HTTP_O_SERVER, &o);
		goto done;
	}
	/* From here on, lines are the address's: its `log` level filters them
	 * (reset below, so lines between requests keep the default). */
	log_set_level(a->conf.log);
	switch (req.method) {
	case HTTP_M_GET:
	case HTTP_M_HEAD:
		rc = serve_arrival(io, &req, answer_of(a), &o);
		break;
	case HTTP_M_POST:
		rc = serve_act(io, st, &req, a, &o);
		break;
	default:
		rc = serve_reply(io, HTTP_O_METHOD, &o);
		break;
	}
done:
	if (rc == -1)
		log_info("the client went away before the whole answer "
		         "(status %d)",
		    http_status(o));
	log_set_level(LOG_LEVEL_ALL);
	serve_state_reset(st);
	return http_status(o);
}

/* --- FastCGI: the connection is ours (fcgi.h) ------------------------- */

/* Set by SIGTERM and SIGUSR1: end the loop once the request is done. */
static volatile sig_atomic_t serve_stop;

static void
serve_stop_requested(int sig)
{
	(void)sig;
	serve_stop = 1;
}

/* Why a connection ended, in the log: the web server's stalls and
 * protocol errors are the operator's to see; a close between requests
 * is not. */
static void
serve_fcgi_ended(const struct fcgi_conn *c)
{
	unsigned idle = c->idle_ms / 1000, request = c->request_ms / 1000;

	switch (c->why) {
	case FCGI_W_NONE:
	case FCGI_W_EOF:
	case FCGI_W_STOP:
		break;
	case FCGI_W_KEPT_IDLE:
		log_info("closed a kept FastCGI connection idle for %u s",
		    idle);
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
	}
}

static long
serve_fcgi_read(void *ctx, void *p, size_t n)
{
	struct fcgi_conn *c = ctx;
	long k = fcgi_read_body(c, p, n);

	if (k == -1)
		serve_fcgi_ended(c);
	return k;
}

static int
serve_fcgi_write(void *ctx, const void *p, size_t n)
{
	return fcgi_write(ctx, FCGI_STDOUT, p, n);
}

/* The log sink while a request runs: its error stream, so the line
 * reaches the web server's log; once the connection is gone (or the web
 * server aborted the request), stderr. */
static void
serve_fcgi_log(void *ctx, const char *line, size_t len)
{
	struct fcgi_conn *c = ctx;

	if (!c->failed && !c->aborted && fcgi_conn_is_open(c) &&
	    fcgi_write(c, FCGI_STDERR, line, len) == 0)
		return;
	if (write(STDERR_FILENO, line, len) < 0)
		return;
}

/* What a CGI request has read of stdin so far. */
struct serve_cgi_in {
	size_t got; /* bytes of the body */
	bool eof;   /* read to its end */
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
 * to EOF).  Bounded by SERVE_CGI_DRAIN_MAX bytes (a larger body is left to
 * the web server's limits) and SERVE_CGI_DRAIN_MS in all.
 */
static void
serve_cgi_drain(struct serve_cgi_in *in)
{
	struct http_req req;
	char sink[16384];
	size_t left;
	uint64_t until = gpt_now_ms() + SERVE_CGI_DRAIN_MS;

	http_parse_env(environ, NULL, &req);
	if (req.has_length) {
		if (req.bad_length || req.content_length <= in->got)
			return;
		left = req.content_length - in->got;
		if (left > SERVE_CGI_DRAIN_MAX)
			return;
	} else if (!in->eof &&
	           http_getenv(environ, "HTTP_TRANSFER_ENCODING") != NULL) {
		/* hits on curl -H 'Transfer-Encoding: chunked' -X PUT */
		left = SERVE_CGI_DRAIN_MAX;
	} else
		return;
	/* bounded by left bytes and by until */
	while (left > 0) {
		struct pollfd p = {STDIN_FILENO, POLLIN, 0};
		uint64_t now = gpt_now_ms();
		long n;

		if (now >= until || poll(&p, 1, (int)(until - now)) <= 0)
			return;
		n = serve_fd_read(
		    in, sink, left < sizeof(sink) ? left : sizeof(sink));
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
 * FCGI_WEB_SERVER_ADDRS, as libfcgi reads it: when set, a TCP peer whose
 * address is not in the comma-separated list is refused (unix sockets
 * are not addressed).  Read once; NULL when unset.
 */
static bool
serve_peer_ok(int fd, const char *allowed)
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
	for (p = allowed; *p != '\0'; p += strcspn(p, ",") + (p[strcspn(p, ",")] == ',')) {
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
 * The next connection: accept first (under load one is waiting), and
 * poll the listener only when none is.  The fd (non-blocking, CLOEXEC:
 * no hook inherits it), or -1 on a stop signal or when the listener
 * fails (the web server is gone).
 */
static int
serve_accept(void)
{
	/* bounded by the web server: each pass accepts, or waits */
	for (;;) {
		struct pollfd p = {FCGI_LISTENSOCK_FILENO, POLLIN, 0};
		int fd;

		if (serve_stop)
			return -1;
		fd = accept4(FCGI_LISTENSOCK_FILENO, NULL, NULL,
		    SOCK_NONBLOCK | SOCK_CLOEXEC);
		if (fd >= 0)
			return fd;
		if (errno == EINTR || errno == ECONNABORTED)
			continue;
		if (errno != EAGAIN && errno != EWOULDBLOCK)
			/* hits on fd 0 a socket that never listened */
			return -1;
		/* a sibling of a spawn-fcgi pool may take it first: then
		 * EAGAIN again, and back here */
		if (poll(&p, 1, -1) == -1 && errno != EINTR)
			return -1;
	}
}

/*
 * The stop signals end the loop between requests: SA_RESTART lets the
 * request in progress finish, and poll() (never restarted) returns so
 * the loop sees them.  0, or -1 with errno.
 */
static int
serve_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sigfillset(&sa.sa_mask);
	sa.sa_handler = serve_stop_requested;
	sa.sa_flags = SA_RESTART;
	if (sigaction(SIGTERM, &sa, NULL) != 0 ||
	    sigaction(SIGUSR1, &sa, NULL) != 0)
		return -1;
	return 0;
}

/*
 * FastCGI.  The protocol is ours on every connection (fcgi.c): libfcgi's
 * FCGX_Accept_r reads with no timeout, and its two output streams flush
 * separately, so with it the idle and request bounds needed a timer
 * around its reads and the one-write answer needed the private fields of
 * its streams set to silence its writers (tests/layers.sh now refuses any
 * use of them).
 * Measured against libfcgi's public API alone (FCGX_PutStr on its
 * streams, the same timer): GET 0.92x the libfcgi floor and 1.16x its CPU
 * per request through nginx, against 5 system calls a GET here (accept4,
 * read, sendmsg, close, and a poll only when nothing waits).  libfcgi
 * still tells CGI from FastCGI (FCGX_IsCGI) and gives the record layout
 * (fastcgi.h).
 */
static int
serve_fastcgi(struct serve_state *st)
{
	struct fcgi_conn c;
	char *fallback[3];
	const char *allowed;
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
	serve_fallback_env(fallback);
	if (serve_signals() == -1) {
		log_error("cannot set the stop signals: %s", strerror(errno));
		return 1;
	}
	if (fcgi_conn_init(&c, idle, request) == -1) {
		log_error("out of memory for the FastCGI connection");
		fcgi_conn_free(&c);
		return 1;
	}
	c.stop = &serve_stop;
	/* Bounded by the web server: each pass answers one request or ends
	 * one connection; a failing listener or a stop signal ends the
	 * process. */
	while (!serve_stop) {
		struct serve_io io = {
		    .fallback = fallback,
		    .read = serve_fcgi_read,
		    .read_ctx = &c,
		    .out = {serve_fcgi_write, &c},
		};

		if (!fcgi_conn_is_open(&c)) {
			int fd = serve_accept();

			if (fd == -1)
				break;
			if (!serve_peer_ok(fd, allowed)) {
				(void)close(fd);
				continue;
			}
			fcgi_conn_open(&c, fd);
		}
		if (fcgi_read_head(&c) == -1) {
			serve_fcgi_ended(&c);
			continue;
		}
		io.envp = c.envp;
		log_set_sink(serve_fcgi_log, &c);
		(void)serve_request(&io, st);
		fcgi_end(&c);
		log_set_sink(NULL, NULL);
		if (fcgi_finish(&c) == -1)
			serve_fcgi_ended(&c);
	}
	fcgi_conn_free(&c);
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
