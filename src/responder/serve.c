/*
 * serve.c: one request from CGI variables to the answer: the flow of
 * doc/protocol.md "Arrival" and "Act" (serve.h).  The loops that feed requests
 * to it (FastCGI connections, one CGI request) are loop.c's.
 *
 * Owns: the request arena and the buffers of struct serve_state.
 * Refuses: nothing itself; which directory is addr_'s decision; what
 * happened (an outcome) is decided here, the status for it and its bytes
 * by http_ (http_status, and http_reject for the 204-or-422 of a
 * rejection); the GET bytes were built at load (answer.c).
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "site/addr_cache.h"
#include "site/address.h"
#include "responder/answer.h"
#include "tools/audit.h"
#include "responder/formcache.h"
#include "site/hook.h"
#include "parser/json.h"
#include "base/log.h"
#include "responder/metrics.h"
#include "schema/schema.h"
#include "responder/idem.h"
#include "responder/rootindex.h"
#include "responder/serve.h"
#include "responder/task.h"

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

	if (!gpt_mul_size(
	        max_len, JSON_PARSE_BYTES_PER_INPUT_BYTE + per_byte, &cap) ||
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
		metrics_count(METRICS_GET_304);
		return serve_write_answer(
		    io, html ? &set->html_304 : &set->json_304, false);
	}
	*o = HTTP_O_ARRIVAL;
	metrics_count(html ? METRICS_GET_HTML : METRICS_GET_JSON);
	return serve_write_answer(
	    io, html ? &set->html : &set->json, req->method == HTTP_M_HEAD);
}

static int
serve_reject(struct serve_io *io, const struct http_req *req,
    const struct addr *a, const struct http_rejection *r, enum http_outcome *o)
{
	return http_reject(&io->out, r, req->actor, a->conf.explain, o);
}

static int
serve_reply(struct serve_io *io, enum http_outcome what, enum http_outcome *o)
{
	*o = what;
	return http_reply(&io->out, what);
}

/* What the metrics call a hook that failed with st. */
static enum metrics_count
serve_hook_outcome(enum hook_status st)
{
	switch (st) {
	case HOOK_OK:
		return METRICS_HOOK_OK;
	case HOOK_E_EXIT:
		return METRICS_HOOK_NONZERO;
	case HOOK_E_TIMEOUT:
		return METRICS_HOOK_TIMEOUT;
	case HOOK_E_OUTPUT:
		return METRICS_HOOK_BAD_ANSWER;
	default:
		return METRICS_HOOK_FAILED;
	}
}

/* Run the hook and answer with its output (doc/protocol.md "The hook"). */
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
	struct idem k;

	/* a malformed key was answered 400 before the body was read */
	if (idem_header(io->envp, &k) == 0 && k.key != NULL) {
		hr.idem_key = k.key;
		hr.idem_key_len = k.key_len;
	}
	idem_release(&k);
	/* The web server's connection is CLOEXEC since its accept4 (and
	 * the listening socket since the start): no hook inherits them. */
	switch (hook_run(&hr, &st->output, &res)) {
	case HOOK_OK:
		break;
	case HOOK_E_TIMEOUT:
		metrics_hook(METRICS_HOOK_TIMEOUT, res.elapsed_ms);
		log_error("hook of %s: %s: %s", a->dir,
		    hook_strstatus(res.status), res.reason);
		return serve_reply(io, HTTP_O_HOOK_TIMEOUT, o);
	case HOOK_E_IO:
		metrics_hook(METRICS_HOOK_FAILED, res.elapsed_ms);
		log_error("hook of %s: %s: %s", a->dir,
		    hook_strstatus(res.status), res.reason);
		return serve_reply(io, HTTP_O_SERVER, o);
	default:
		/* hits on no hook file, a hook without x bit, exit 1, kill -9,
		 * output over hook_max_output */
		metrics_hook(serve_hook_outcome(res.status), res.elapsed_ms);
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
	/* With a form for the answer, room for its validation too. */
	arena_set_cap(&st->hook,
	    a->answer == NULL
	        ? serve_arena_cap(a->conf.hook_max_output, 0, 0)
	        : serve_arena_cap(a->conf.hook_max_output,
	              SERVE_VALIDATE_BYTES_PER_INPUT_BYTE, SERVE_ARENA_BASE));
	if (json_parse(buf_ptr(&st->output), buf_len(&st->output), &st->hook, 0,
	        &v, &jerr) != JSON_OK) {
		/* hits on a hook printing "ok", or "{} x"; out of memory only
		 * when malloc itself fails (the cap admits any output) */
		metrics_hook(METRICS_HOOK_BAD_ANSWER, res.elapsed_ms);
		log_error("hook of %s: output is not one strict JSON value: "
		          "byte %zu: %s",
		    a->dir, jerr.offset, jerr.msg);
		return serve_reply(io, HTTP_O_HOOK_FAILED, o);
	}
	/* a, the answer's form: an answer off it is never sent (its side
	 * effect is done, but the actor is not told what the form does not
	 * promise); the log says where and which keyword, not the value */
	if (a->answer != NULL) {
		struct schema_err serr;

		switch (schema_validate(a->answer, v, &st->hook, &serr)) {
		case SCHEMA_OK:
			break;
		case SCHEMA_NOMEM:
			metrics_hook(METRICS_HOOK_FAILED, res.elapsed_ms);
			log_error("hook of %s: out of memory checking its "
			          "answer against a",
			    a->dir);
			return serve_reply(io, HTTP_O_HOOK_FAILED, o);
		default:
			/* hits on {"ticket": 7} against a's string */
			metrics_hook(METRICS_HOOK_BAD_ANSWER, res.elapsed_ms);
			log_error("hook of %s: answer fails the answer's form "
			          "(a): at \"%s\": %s%s%s",
			    a->dir, serr.pointer.buf,
			    serr.keyword != NULL ? serr.keyword : "",
			    serr.keyword != NULL ? ": " : "", serr.reason);
			return serve_reply(io, HTTP_O_HOOK_FAILED, o);
		}
	}
	metrics_hook(METRICS_HOOK_OK, res.elapsed_ms);
	log_info("act accepted at %s (actor \"%s\"), hook took %u ms", a->dir,
	    req->actor != NULL ? req->actor : "", res.elapsed_ms);
	*o = HTTP_O_HOOK_OK;
	return http_reply_json(
	    &io->out, buf_ptr(&st->output), buf_len(&st->output));
}

/* serve_hook for task_act (task.h): the answer goes to out, which is the
 * request's writer, or a buffer that keeps it under an Idempotency-Key. */
struct serve_hook_ctx {
	struct serve_io *io;
	struct serve_state *st;
	const struct http_req *req;
	const struct addr *a;
};

static int
serve_hook_into(void *ctx, struct http_writer *out, enum http_outcome *o)
{
	struct serve_hook_ctx *h = ctx;
	struct http_writer keep = h->io->out;
	int rc;

	h->io->out = *out;
	rc = serve_hook(h->io, h->st, h->req, h->a, o);
	h->io->out = keep;
	return rc;
}

/* doc/protocol.md "Act": size, Content-Type, If-Match, parse, form, hook. */
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
		metrics_count(METRICS_REJECT_SIZE);
		return serve_reject(io, req, a, &r, o);
	}
	if (!http_is_json_type(req->content_type)) {
		/* hits on text/plain, on no Content-Type, on charset=latin1 */
		r.reason = "Content-Type is not application/json";
		metrics_count(METRICS_REJECT_CONTENT_TYPE);
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
		metrics_count(METRICS_REJECT_SIZE);
		return serve_reject(io, req, a, &r, o);
	case SERVE_READ_SHORT:
		/* hits on CONTENT_LENGTH=10 with 3 bytes sent */
		r.reason = "body shorter than CONTENT_LENGTH";
		metrics_count(METRICS_REJECT_SIZE);
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
		metrics_count(METRICS_REJECT_IF_MATCH);
		log_reject(
		    "act at %s: If-Match does not match %s (actor \"%s\")",
		    a->dir, set->etag, req->actor != NULL ? req->actor : "");
		*o = HTTP_O_PRECONDITION;
		return serve_write_answer(io, &set->precondition, false);
	}
	arena_set_cap(&st->req,
	    serve_arena_cap(a->conf.max_body,
	        SERVE_VALIDATE_BYTES_PER_INPUT_BYTE, SERVE_ARENA_BASE));
	/* the act's parse is the request's hot path: padded, it tests the
	 * room left far less often (json_parse_padded) */
	if (buf_pad(&st->body, JSON_PAD) != 0) {
		log_error("out of memory padding an act");
		return serve_reply(io, HTTP_O_SERVER, o);
	}
	switch (json_parse_padded(
	    buf_ptr(&st->body), buf_len(&st->body), &st->req, 0, &v, &jerr)) {
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
		metrics_count(jerr.code == JSON_E_DUPLICATE
		                  ? METRICS_REJECT_DUPLICATE
		                  : METRICS_REJECT_PARSE);
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
		metrics_count(METRICS_REJECT_FORM);
		return serve_reject(io, req, a, &r, o);
	}
	metrics_count(METRICS_ACT_ACCEPTED);
	{
		struct serve_hook_ctx h = {io, st, req, a};
		struct task_act_in in = {
		    io->envp, req, a, buf_ptr(&st->body), buf_len(&st->body)};

		return task_act(&in, &io->out, o, serve_hook_into, &h);
	}
}

/*
 * What the responder builds at each load of an address (addr_cache_lookup's
 * derive): its answers (answer.h), then the form's warnings in the log,
 * once per load (audit.h).  Under CGI each request is a load: the form
 * cache runs these only when it stores an entry (or cannot vouch), so
 * the warnings come once per version of the form (formcache.h).
 * serve_derive_acts leaves the page out, for a CGI act or JSON GET with
 * the cache off.
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

/*
 * A request for a root itself, which names no address: GPT_ROOT with no
 * name (or "/"), or the .d directory's own URL.  Its index when the
 * root's root.conf turns it on (rootindex.h): true, answered.  Under CGI
 * the addresses listed are loaded without their answers (nothing is kept
 * past the request); a FastCGI process keeps them as their own GETs do.
 */
static bool
serve_root_index(struct serve_io *io, const struct http_req *req,
    const char *root, enum http_outcome *o, int *rc)
{
	char dir[PATH_MAX];
	const char *pi = req->path_info;

	if (root == NULL) {
		if (pi != NULL && *pi != '\0' && strcmp(pi, "/") != 0)
			return false;
		if (req->gpt_address != NULL && *req->gpt_address != '\0')
			return false;
		if (req->gpt_root != NULL && *req->gpt_root != '\0')
			root = req->gpt_root;
		else if (req->script_filename != NULL &&
		         *req->script_filename != '\0' &&
		         (size_t)snprintf(dir, sizeof(dir), "%s.d",
		             req->script_filename) < sizeof(dir))
			root = dir;
		else
			return false;
	}
	return rootindex_serve(
	    root, req, io->form_cache ? NULL : serve_derive, &io->out, o, rc);
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
	log_context_begin(NULL, req.actor);
	q.path_info = req.path_info;
	q.request_uri = req.request_uri;
	q.script_filename = req.script_filename;
	q.gpt_address = req.gpt_address;
	q.gpt_root = req.gpt_root;
	if (addr_resolve(&q, &ref, &why) == -1) {
		if (serve_root_index(io, &req, NULL, &o, &rc))
			goto done;
		/* no address to name: what the request asked for instead */
		log_reject("no address for PATH_INFO \"%.200s\": %s",
		    req.path_info != NULL ? req.path_info : "", why);
		rc = serve_reply(io, HTTP_O_NO_ADDRESS, &o);
		goto done;
	}
	log_context_address(ref.dir);
	metrics_begin(ref.dir);
	if (io->form_cache) {
		bool arrival =
		    req.method == HTTP_M_GET || req.method == HTTP_M_HEAD;

		a = formcache_lookup(&ref, arrival, http_wants_html(req.accept),
		    serve_derive, serve_derive_acts, &why);
	} else
		a = addr_cache_lookup(&ref, serve_derive, &why);
	if (ref.script_own && (a == NULL || (!a->ok && a->no_form)) &&
	    serve_root_index(io, &req, ref.dir, &o, &rc))
		goto done;
	if (ref.script_own && (a == NULL || (!a->ok && a->no_form))) {
		/* hits on .../gpt.fcgi (shared hosting, the .d default) before
		 * anything was published there: not the server's failure */
		log_reject(
		    "no form at the script's own URL: create %s/form.json "
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
	/* long-running acts: the task resource, Idempotency-Key (task.h) */
	if (task_route(io->envp, &io->out, &req, a, &o, &rc))
		goto done;
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
	log_context_end();
	serve_state_reset(st);
	return http_status(o);
}
