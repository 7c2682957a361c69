/*
 * task.c: the responder's side of long-running acts (task.h): an
 * accepted act stored as a task and handed to a runner, the task
 * resource, and every act's Idempotency-Key.
 *
 * Owns, for one call: the store's directory fd, a record buffer, and
 * (through idem.h) a key's claim.  An act without a key at an address
 * with `act = answer` opens nothing: today's path, unchanged.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "responder/idem.h"
#include "base/log.h"
#include "site/runner.h"
#include "site/store.h"
#include "responder/task.h"
#include "site/taskrec.h"

/* The decoy's expiry: 2286-11-20, "never" for the sweep. */
#define TASK_DECOY_EXPIRES ((int64_t)9999999999)

/* Bytes of a Location's path taken from REQUEST_URI, at most. */
#define TASK_PATH_MAX 512

/* The decoy's id: never given out (store_new_id refuses it). */
static const unsigned char task_decoy_id[STORE_ID_BYTES] = {0};
/* An id whose record never exists: looked up for a malformed id and
 * after an expired one, so every 404 makes the same calls. */
static const unsigned char task_absent_id[STORE_ID_BYTES] = {0xff, 0xff, 0xff,
    0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
    0xfe};

/* Does Prefer name respond-async (RFC 7240 section 4.1)? */
static bool
task_prefers_async(const char *prefer)
{
	static const char tok[] = "respond-async";
	const char *p = prefer;

	if (p == NULL)
		return false;
	/* bounded by the value's NUL: each pass moves past a match */
	while ((p = strcasestr(p, tok)) != NULL) {
		char before = p == prefer ? ',' : p[-1];
		char after = p[sizeof(tok) - 1];

		if ((before == ',' || before == ' ' || before == '\t' ||
		        before == ';') &&
		    (after == '\0' || after == ',' || after == ';' ||
		        after == ' ' || after == '\t'))
			return true;
		p += sizeof(tok) - 1;
	}
	return false;
}

/*
 * The task's URL: the request's path (REQUEST_URI up to '?') and
 * "?task=ID"; only "?task=ID" (a relative reference to the same path,
 * RFC 3986 section 5.2.2) when the path is unknown or unfit for a header.
 */
static void
task_location(
    const struct http_req *req, const char *hex, char *out, size_t cap)
{
	const char *u = req->request_uri;
	size_t n = 0, i;

	if (u != NULL && u[0] == '/') {
		n = strcspn(u, "?#");
		for (i = 0; i < n; i++)
			if ((unsigned char)u[i] <= 0x20 ||
			    (unsigned char)u[i] >= 0x7f)
				break;
		if (i < n || n > TASK_PATH_MAX)
			n = 0;
	}
	snprintf(out, cap, "%.*s?task=%s", (int)n, n > 0 ? u : "", hex);
}

/*
 * Open the store of address a: its directory, or PostgreSQL under its
 * store_scope (by default the address directory's last name, which is
 * the same on every host that serves the address).  0 or -1.
 */
static int
task_store(const struct addr *a, struct store *s)
{
	const char *scope = a->conf.store_scope, *slash;

	if (a->conf.store_pg[0] == '\0')
		return store_open(s, a->dir, a->conf.store);
	if (scope[0] == '\0') {
		slash = strrchr(a->dir, '/');
		scope = slash != NULL && slash[1] != '\0' ? slash + 1 : a->dir;
	}
	return store_open_pg(s, a->conf.store_pg, scope, a->conf.task_lease);
}

/* The store of address a: 0, or -1 logged (answer 503). */
static int
task_store_open(const struct addr *a, struct store *s)
{
	if (task_store(a, s) == 0)
		return 0;
	log_error("store %s of %s: %s: acts that need it are answered 503",
	    s->path, a->dir, strerror(errno));
	return -1;
}

/* The file names of the reserved ids, computed once per process. */
static void
task_fixed_names(const char **absent, const char **decoy)
{
	static char a[STORE_NAME_MAX], d[STORE_NAME_MAX];

	if (a[0] == '\0') {
		store_name(STORE_TASK, task_absent_id, STORE_ID_BYTES, a);
		store_name(STORE_TASK, task_decoy_id, STORE_ID_BYTES, d);
	}
	*absent = a;
	*decoy = d;
}

/*
 * Look up the task named by the len bytes at text: 0 with the record in
 * rec and its head in *h, or -1 (answer 404).  Every outcome makes the
 * same calls: one lookup that fails and one that reads a record (the
 * task's, or the decoy's), a header parse and a constant-time compare.
 */
static int
task_lookup(const struct store *s, const char *text, size_t len,
    struct buf *rec, struct taskrec_head *h, char name[STORE_NAME_MAX])
{
	unsigned char id[STORE_ID_BYTES];
	const char *absent, *decoy;
	bool ok = store_id_parse(text, len, id) == 0, found;
	struct buf sink;

	store_name(STORE_TASK, ok ? id : task_absent_id, STORE_ID_BYTES, name);
	task_fixed_names(&absent, &decoy);
	found = store_get(s, name, rec, STORE_RECORD_MAX) == 0;
	if (!found && store_get(s, decoy, rec, STORE_RECORD_MAX) == -1)
		buf_reset(rec);
	if (taskrec_parse_head(buf_ptr(rec), buf_len(rec), h) == -1)
		memset(h, 0, sizeof(*h));
	ok = store_same_id(h->id, id, STORE_ID_BYTES) & ok & found;
	if (ok && h->expires_s <= taskrec_now_ms() / 1000)
		ok = false;
	if (found) {
		/* the lookup that fails, as an unknown id makes it (the
		 * reserved id has no record) */
		buf_init(&sink, 1);
		if (store_get(s, absent, &sink, 1) == 0)
			ok = false;
		buf_free(&sink);
	}
	return ok ? 0 : -1;
}

/* The decoy record task_lookup reads for an unknown id (expired). */
static void
task_decoy(const struct store *s)
{
	/* the store the process made it in last: a shared store's decoy
	 * is one row for every host, made once, not once per act */
	static char made_in[sizeof(s->path)];
	struct taskrec r;
	struct stat st;
	struct buf b;
	char name[STORE_NAME_MAX];

	if (s->pg && strcmp(made_in, s->path) == 0)
		return;
	store_name(STORE_TASK, task_decoy_id, STORE_ID_BYTES, name);
	/* a directory's decoy, once made, is found by a lookup, which
	 * takes no lock on the directory (a create would) */
	if (!s->pg && fstatat(s->dfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0)
		return;
	memset(&r, 0, sizeof(r));
	r.status = TASKREC_FAILED;
	r.reason = "none";
	/* never expires, so the sweep leaves it; it matches no id, since
	 * a lookup also needs the id's own record */
	r.expires_s = TASK_DECOY_EXPIRES;
	buf_init(&b, 4096);
	if (taskrec_format(&r, &b) == 0) {
		if (store_create(s, name, buf_ptr(&b), buf_len(&b)) == -1 &&
		    errno != EEXIST)
			/* the act's own write will tell the store's state */
			log_info("store %s: no decoy record: %s", s->path,
			    strerror(errno));
		else
			memcpy(made_in, s->path, sizeof(made_in));
	}
	buf_free(&b);
}

/* A working task whose runner is gone becomes failed (runner.h). */
static int
task_check_runner(const struct store *s, const char *name, struct buf *rec,
    struct taskrec_head *h)
{
	char lock[STORE_NAME_MAX];

	if (h->status != TASKREC_WORKING)
		return 0;
	memcpy(lock, name, STORE_NAME_MAX);
	lock[0] = STORE_LOCK;
	if (store_lease_held(s, name))
		return 0;
	if (runner_reap_lost(s, name, lock, rec) == -1 ||
	    taskrec_parse_head(buf_ptr(rec), buf_len(rec), h) == -1)
		return -1;
	return 0;
}

/* Writes only the first write it gets: the head of a HEAD answer. */
struct task_head_only {
	struct http_writer *to;
	bool done;
};

static int
task_head_write(void *ctx, const void *p, size_t n)
{
	struct task_head_only *h = ctx;

	if (h->done)
		return 0;
	h->done = true;
	return h->to->write(h->to->ctx, p, n);
}

/* The document of a record, with extra headers and an ETag. */
static int
task_answer_doc(struct http_writer *out, enum http_outcome o, const char *extra,
    const struct buf *rec, const struct taskrec_head *h, bool head_only)
{
	const char *doc = buf_ptr(rec) + h->doc_off;
	size_t len = buf_len(rec) - h->doc_off;
	char etag[HTTP_ETAG_MAX], hdr[HTTP_EXTRA_MAX];
	struct task_head_only ho = {out, false};
	struct http_writer w = {task_head_write, &ho, NULL};

	http_etag(doc, len, etag);
	snprintf(hdr, sizeof(hdr), "%sETag: %s\r\nCache-Control: no-cache\r\n",
	    extra != NULL ? extra : "", etag);
	return http_reply_with(
	    head_only ? &w : out, o, hdr, "application/json", doc, len);
}

/* Write one event of a stream: the document, each line a data line. */
static int
task_event(struct http_writer *out, const char *doc, size_t len)
{
	static const char ev[] = "event: task\n";
	size_t i = 0;

	if (out->write(out->ctx, ev, sizeof(ev) - 1) == -1)
		return -1;
	/* bounded by len: each pass writes one line.  A result may hold
	 * '\r' or '\n' as JSON whitespace; either ends an SSE line, so
	 * both split it, and the client's join gives whitespace again. */
	while (i < len) {
		size_t k = 0;

		while (i + k < len && doc[i + k] != '\n' && doc[i + k] != '\r')
			k++;
		if (k > 0) {
			if (out->write(out->ctx, "data: ", 6) == -1 ||
			    out->write(out->ctx, doc + i, k) == -1 ||
			    out->write(out->ctx, "\n", 1) == -1)
				return -1;
		}
		i += k + 1;
	}
	if (out->write(out->ctx, "\n", 1) == -1)
		return -1;
	return out->flush != NULL ? out->flush(out->ctx) : 0;
}

/*
 * The event stream of a task: its document at each change, until a final
 * status, the stream's time (task_stream) or the client leaves.
 */
static int
task_stream(struct http_writer *out, const struct store *s,
    const struct addr *a, const char *name, struct buf *rec,
    struct taskrec_head *h)
{
	uint64_t start = gpt_now_ms(), last_write = start;
	uint64_t end = start + (uint64_t)a->conf.task_stream * 1000;
	struct buf sent;
	char first[64];
	int rc = 0;

	snprintf(first, sizeof(first), "retry: %u\n\n", h->poll_ms);
	if (http_reply_with(out, HTTP_O_TASK,
	        "Cache-Control: no-cache\r\nX-Accel-Buffering: no\r\n",
	        "text/event-stream", NULL, HTTP_STREAM) == -1 ||
	    out->write(out->ctx, first, strlen(first)) == -1)
		return -1;
	buf_init(&sent, STORE_RECORD_MAX);
	/* bounded by task_stream seconds: each pass sleeps one tick */
	for (;;) {
		const char *doc = buf_ptr(rec) + h->doc_off;
		size_t len = buf_len(rec) - h->doc_off;
		uint64_t now;

		if (len != buf_len(&sent) ||
		    memcmp(doc, buf_ptr(&sent), len) != 0) {
			buf_reset(&sent);
			if (buf_append(&sent, doc, len) == -1 ||
			    task_event(out, doc, len) == -1) {
				rc = -1;
				break;
			}
			last_write = gpt_now_ms();
		}
		if (taskrec_is_final(h->status))
			break;
		now = gpt_now_ms();
		if (now >= end)
			break;
		if (now - last_write >= TASK_HEARTBEAT_S * 1000) {
			if (out->write(out->ctx, ": heartbeat\n\n", 13) == -1 ||
			    (out->flush != NULL &&
			        out->flush(out->ctx) == -1)) {
				rc = -1;
				break;
			}
			last_write = now;
		}
		(void)poll(NULL, 0, TASK_STREAM_TICK_MS);
		if (store_get(s, name, rec, STORE_RECORD_MAX) == -1 ||
		    taskrec_parse_head(buf_ptr(rec), buf_len(rec), h) == -1 ||
		    task_check_runner(s, name, rec, h) == -1)
			/* removed at its expiry, or damaged: the stream
			 * ends; a GET tells the rest */
			break;
	}
	buf_free(&sent);
	return rc;
}

/* DELETE: cancel a working task (task.h). */
static int
task_cancel(struct http_writer *out, const struct store *s, const char *name,
    struct buf *rec, struct taskrec_head *h, enum http_outcome *o)
{
	uint64_t end = gpt_now_ms() + TASK_CANCEL_WAIT_MS;
	bool signalled = false;

	if (taskrec_is_final(h->status)) {
		/* hits on DELETE after the task completed */
		*o = HTTP_O_CONFLICT;
		return task_answer_doc(out, *o, NULL, rec, h, false);
	}
	/* bounded by TASK_CANCEL_WAIT_MS: each pass sleeps 20 ms */
	for (;;) {
		if (taskrec_is_final(h->status)) {
			*o = h->status == TASKREC_CANCELLED && signalled
			         ? HTTP_O_TASK
			         : HTTP_O_CONFLICT;
			return task_answer_doc(out, *o, NULL, rec, h, false);
		}
		if (!signalled && s->pg) {
			/* the runner may be on another host: its lease
			 * thread reads the flag */
			if (store_cancel(s, name) == -1) {
				*o = HTTP_O_UNAVAILABLE;
				return http_reply(out, *o);
			}
			signalled = true;
		} else if (!signalled && h->pid > 1) {
			if (kill((pid_t)h->pid, SIGTERM) == -1 &&
			    errno != ESRCH) {
				log_error(
				    "cannot signal the runner (pid %ld) of "
				    "a task in %s: %s",
				    h->pid, s->path, strerror(errno));
				*o = HTTP_O_UNAVAILABLE;
				return http_reply(out, *o);
			}
			signalled = true;
		}
		if (gpt_now_ms() >= end)
			break;
		(void)poll(NULL, 0, 20);
		if (store_get(s, name, rec, STORE_RECORD_MAX) == -1 ||
		    taskrec_parse_head(buf_ptr(rec), buf_len(rec), h) == -1 ||
		    task_check_runner(s, name, rec, h) == -1) {
			*o = HTTP_O_SERVER;
			return http_reply(out, *o);
		}
	}
	/* still ending: the status will say cancelled */
	*o = HTTP_O_TASK_ACCEPTED;
	return task_answer_doc(out, *o, NULL, rec, h, false);
}

/* The task resource: GET, HEAD, DELETE of ?task=ID. */
static int
task_resource(struct http_writer *out, const struct http_req *req,
    const struct addr *a, const char *id, size_t id_len, enum http_outcome *o)
{
	bool del =
	    req->method_name != NULL && strcmp(req->method_name, "DELETE") == 0;
	char name[STORE_NAME_MAX];
	struct taskrec_head h;
	struct store s;
	struct buf rec;
	int rc;

	if (req->method != HTTP_M_GET && req->method != HTTP_M_HEAD && !del) {
		/* hits on POST ...?task=ID */
		*o = HTTP_O_TASK_METHOD;
		return http_reply_with(
		    out, *o, "Allow: GET, HEAD, DELETE\r\n", NULL, NULL, 0);
	}
	if (task_store(a, &s) == -1) {
		/* no store: no task was ever made here (or the database
		 * is down: then 503) */
		*o = a->conf.store_pg[0] != '\0' ? HTTP_O_UNAVAILABLE
		                                 : HTTP_O_NO_ADDRESS;
		return http_reply(out, *o);
	}
	buf_init(&rec, STORE_RECORD_MAX);
	if (task_lookup(&s, id, id_len, &rec, &h, name) == -1) {
		/* hits on an unknown id, an expired one, "?task=xyz" */
		log_reject("no task %.40s at %s", id, a->dir);
		*o = HTTP_O_NO_ADDRESS;
		rc = http_reply(out, *o);
		goto done;
	}
	if (task_check_runner(&s, name, &rec, &h) == -1) {
		log_error("store %s: cannot mark a lost task: %s", s.path,
		    strerror(errno));
		*o = HTTP_O_UNAVAILABLE;
		rc = http_reply(out, *o);
		goto done;
	}
	if (del) {
		rc = task_cancel(out, &s, name, &rec, &h, o);
		goto done;
	}
	if (req->accept != NULL &&
	    strcasestr(req->accept, "text/event-stream") != NULL &&
	    req->method == HTTP_M_GET) {
		*o = HTTP_O_TASK;
		rc = task_stream(out, &s, a, name, &rec, &h);
		goto done;
	}
	if (req->if_none_match != NULL) {
		char etag[HTTP_ETAG_MAX];

		http_etag(
		    buf_ptr(&rec) + h.doc_off, buf_len(&rec) - h.doc_off, etag);
		if (http_etag_match(req->if_none_match, etag, true)) {
			struct buf b;

			buf_init(&b, 512);
			*o = HTTP_O_NOT_MODIFIED;
			rc = http_head_not_modified(&b, etag) == -1
			         ? -1
			         : out->write(
			               out->ctx, buf_ptr(&b), buf_len(&b));
			buf_free(&b);
			goto done;
		}
	}
	*o = HTTP_O_TASK;
	rc = task_answer_doc(
	    out, *o, NULL, &rec, &h, req->method == HTTP_M_HEAD);
done:
	buf_free(&rec);
	store_close(&s);
	return rc;
}

bool
task_route(char *const *envp, struct http_writer *out,
    const struct http_req *req, const struct addr *a, enum http_outcome *o,
    int *rc)
{
	const char *qs = req->query_string;
	struct idem k;

	if (qs != NULL && strncmp(qs, "task=", 5) == 0) {
		*rc =
		    task_resource(out, req, a, qs + 5, strcspn(qs + 5, "&"), o);
		return true;
	}
	if (req->method != HTTP_M_POST)
		return false;
	if (idem_header(envp, &k) == -1) {
		/* hits on a key of 256 bytes, or with a control byte */
		log_reject("malformed Idempotency-Key at %s: 400", a->dir);
		idem_release(&k);
		*o = HTTP_O_BAD_REQUEST;
		*rc = http_reply(out, *o);
		return true;
	}
	idem_release(&k);
	return false;
}

/* Store the act as a task, start its runner, answer 202 into out. */
static int
task_create(const struct task_act_in *in, const struct store *s,
    const char *key, size_t key_len, struct http_writer *out, bool preferred,
    enum http_outcome *o)
{
	const struct http_req *req = in->req;
	const struct addr *a = in->a;
	struct runner_task t;
	char name[STORE_NAME_MAX], lock[STORE_NAME_MAX];
	char hex[STORE_ID_HEX + 1], loc[TASK_PATH_MAX + 64];
	char hdr[HTTP_EXTRA_MAX];
	struct taskrec_head h;
	struct buf rec;
	int64_t now = taskrec_now_ms();
	int lock_fd, rc;

	memset(&t, 0, sizeof(t));
	t.store = s;
	t.conninfo = s->pg ? a->conf.store_pg : NULL;
	/* bounded: an all-zero or reserved id comes once in 2^127 draws */
	do
		if (store_new_id(t.rec.id) == -1) {
			log_error("getrandom: %s", strerror(errno));
			*o = HTTP_O_UNAVAILABLE;
			return http_reply(out, *o);
		}
	while (store_same_id(t.rec.id, task_decoy_id, STORE_ID_BYTES) ||
	       store_same_id(t.rec.id, task_absent_id, STORE_ID_BYTES));
	t.rec.status = TASKREC_WORKING;
	t.rec.created_ms = t.rec.updated_ms = now;
	t.rec.expires_s = now / 1000 + a->conf.task_ttl;
	t.rec.poll_ms = a->conf.task_poll * 1000;
	t.hook = (struct hook_req){
	    .dir = a->dir,
	    .program = "./hook",
	    .address = a->dir,
	    .actor = req->actor,
	    .remote_addr = req->remote_addr,
	    .body = in->body,
	    .body_len = in->body_len,
	    .timeout_sec = a->conf.task_timeout,
	    .max_output = a->conf.hook_max_output,
	    .extra_env = a->conf.hook_env,
	    .extra_env_count = a->conf.hook_env_count,
	    .idem_key = key,
	    .idem_key_len = key_len,
	};
	t.answer = a->answer;
	store_id_hex(t.rec.id, hex);
	store_name(STORE_TASK, t.rec.id, STORE_ID_BYTES, name);
	memcpy(lock, name, sizeof(lock));
	lock[0] = STORE_LOCK;
	task_decoy(s);
	buf_init(&rec, STORE_RECORD_MAX);
	/* PostgreSQL: the lease is the record's own, from its first write */
	lock_fd = -1;
	if (!s->pg && (lock_fd = store_lock(s, lock, false)) == -1)
		goto unavailable;
	if (taskrec_format(&t.rec, &rec) == -1 ||
	    store_put_new(s, name, buf_ptr(&rec), buf_len(&rec)) == -1)
		goto unavailable;
	if (runner_start(&t, lock_fd) == -1) {
		log_error("cannot start a task runner: %s", strerror(errno));
		(void)store_remove(s, name);
		goto unavailable;
	}
	lock_fd = -1;
	if (taskrec_parse_head(buf_ptr(&rec), buf_len(&rec), &h) == -1)
		goto unavailable;
	task_location(req, hex, loc, sizeof(loc));
	snprintf(hdr, sizeof(hdr), "Location: %s\r\nRetry-After: %u\r\n%s", loc,
	    a->conf.task_poll,
	    preferred ? "Preference-Applied: respond-async\r\n" : "");
	log_info("act accepted at %s (actor \"%s\") as task %.8s...", a->dir,
	    req->actor != NULL ? req->actor : "", hex);
	*o = HTTP_O_TASK_ACCEPTED;
	rc = task_answer_doc(out, *o, hdr, &rec, &h, false);
	buf_free(&rec);
	return rc;
unavailable:
	/* hits on a full disk (ENOSPC) or a store not writable: the act
	 * is refused before anything runs */
	log_error(
	    "store %s: cannot store a task: %s: 503", s->path, strerror(errno));
	if (lock_fd >= 0) {
		(void)store_remove(s, lock);
		store_unlock(s, lock_fd);
	}
	buf_free(&rec);
	*o = HTTP_O_UNAVAILABLE;
	return http_reply(out, *o);
}

int
task_act(const struct task_act_in *in, struct http_writer *out,
    enum http_outcome *o, task_answer_fn answer, void *ctx)
{
	const struct addr *a = in->a;
	bool preferred = task_prefers_async(in->req->prefer);
	bool as_task = a->conf.act == CONF_ACT_TASK ||
	               (a->conf.act == CONF_ACT_EITHER && preferred);
	struct http_writer *to = out;
	struct store s = {.dfd = -1};
	struct idem k;
	int rc;

	if (idem_header(in->envp, &k) == -1) {
		/* task_route answered it already; here for callers that
		 * skip it */
		idem_release(&k);
		*o = HTTP_O_BAD_REQUEST;
		return http_reply(out, *o);
	}
	if (k.key == NULL && !as_task) {
		idem_release(&k);
		return answer(ctx, out, o);
	}
	if (task_store_open(a, &s) == -1) {
		idem_release(&k);
		*o = HTTP_O_UNAVAILABLE;
		return http_reply(out, *o);
	}
	if (k.key != NULL) {
		rc = idem_begin(&k, &s, in->body, in->body_len, out, o);
		if (rc != 1) {
			store_close(&s);
			return rc;
		}
		/* the act's answer gathers under the key */
		to = &k.capture;
	}
	if (as_task)
		rc = task_create(in, &s, k.key, k.key_len, to, preferred, o);
	else
		rc = answer(ctx, to, o);
	if (k.key != NULL)
		rc = idem_end(&k, &s, *o, a->conf.idempotency_ttl, out);
	else
		idem_release(&k);
	store_close(&s);
	return rc;
}
