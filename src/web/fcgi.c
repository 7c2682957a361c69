/*
 * fcgi.c: the FastCGI protocol on one connection (see fcgi.h).
 *
 * Owns: each connection's fd, its read-ahead buffer, the request's PARAMS
 * and the variables decoded from them, and the answer's buffer.  Refuses
 * what fcgi.h lists; a refusal closes the connection and is reported in
 * c->why, never by ending the process.
 *
 * The reader is a state machine over a byte stream (header, content,
 * padding), fed from the read-ahead buffer, so a record may arrive in any
 * number of pieces and none is held whole: PARAMS content goes to its
 * capped stream, STDIN content straight to the caller, BEGIN_REQUEST and
 * GET_VALUES content (at most 0xffff bytes) to a small buffer.  A read is
 * tried first; only when it would block does poll(2) wait, for what is
 * left of the idle time or the request's deadline, whichever comes first.
 */
#include <errno.h>
#include <limits.h>
#include <fastcgi.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include "web/fcgi.h"

enum { FCGI_S_HEAD, FCGI_S_CONTENT, FCGI_S_PAD };

/* What fcgi_step reads for. */
enum fcgi_goal { FCGI_G_HEAD, FCGI_G_BODY };

int
fcgi_conn_init(struct fcgi_conn *c, unsigned idle_sec, unsigned request_sec)
{
	memset(c, 0, sizeof(*c));
	c->fd = -1;
	c->idle_ms = idle_sec * 1000;
	c->request_ms = request_sec * 1000;
	if ((c->in = malloc(FCGI_IN_MAX)) == NULL)
		return -1;
	buf_init(&c->rec, FCGI_MAX_LENGTH);
	buf_init(&c->params, FCGI_PARAMS_MAX);
	/* each pair becomes "name=value" and a NUL: one byte more than its
	 * two lengths took, at least one length byte each */
	buf_init(&c->env, FCGI_PARAMS_MAX);
	buf_init(&c->wire, FCGI_WIRE_MAX);
	return 0;
}

void
fcgi_conn_free(struct fcgi_conn *c)
{
	fcgi_conn_close(c);
	free(c->in);
	c->in = NULL;
	buf_free(&c->rec);
	buf_free(&c->params);
	buf_free(&c->env);
	buf_free(&c->wire);
	free(c->envp);
	c->envp = NULL;
	c->envp_cap = 0;
}

/* Forget the request (not the stream: a kept connection goes on). */
static void
fcgi_request_reset(struct fcgi_conn *c)
{
	c->id = 0;
	c->keep = false;
	c->head_ready = false;
	c->stdin_done = false;
	c->aborted = false;
	c->started = false;
	c->drained = 0;
	c->had_err = false;
	buf_reset(&c->params);
	buf_reset(&c->wire);
}

void
fcgi_conn_open(struct fcgi_conn *c, int fd)
{
	c->fd = fd;
	c->served = false;
	c->in_pos = c->in_len = 0;
	c->state = FCGI_S_HEAD;
	c->hdr_got = 0;
	c->failed = false;
	c->why = FCGI_W_NONE;
	c->detail = NULL;
	c->err = 0;
	fcgi_request_reset(c);
}

bool
fcgi_conn_is_open(const struct fcgi_conn *c)
{
	return c->fd >= 0;
}

void
fcgi_conn_close(struct fcgi_conn *c)
{
	if (c->fd >= 0)
		(void)close(c->fd);
	c->fd = -1;
	c->in_pos = c->in_len = 0;
	fcgi_request_reset(c);
}

/* Drop the connection for why; -1 for the caller to return. */
static int
fcgi_drop(struct fcgi_conn *c, enum fcgi_why why, const char *detail)
{
	c->why = why;
	c->detail = detail;
	c->failed = true;
	fcgi_conn_close(c);
	return -1;
}

/* --- writing ------------------------------------------------------------- */

/*
 * Write all iov[0..n) (n <= 3) through short writes and EINTR; a full
 * socket is waited for in poll() for at most the idle time, so a web
 * server that stops reading fails the write instead of holding us.
 */
static int
fcgi_writev_all(struct fcgi_conn *c, struct iovec *iov, int n)
{
	/* each pass writes at least one byte, or waits at most idle_ms and
	 * fails: bounded by the bytes */
	while (n > 0) {
		struct msghdr msg;
		ssize_t w;

		memset(&msg, 0, sizeof(msg));
		msg.msg_iov = iov;
		msg.msg_iovlen = (size_t)n;
		w = sendmsg(c->fd, &msg, MSG_NOSIGNAL);
		if (w == -1 && errno == EINTR)
			continue;
		if (w == -1 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
			struct pollfd p = {c->fd, POLLOUT, 0};
			int rc;

			do
				rc = poll(&p, 1, (int)c->idle_ms);
			while (rc == -1 && errno == EINTR);
			if (rc <= 0)
				/* hits on a peer that never reads a large
				 * answer */
				return -1;
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
fcgi_flush(struct fcgi_conn *c)
{
	struct iovec iov;

	if (c->failed)
		return -1;
	if (buf_len(&c->wire) == 0)
		return 0;
	iov.iov_base = buf_data(&c->wire);
	iov.iov_len = buf_len(&c->wire);
	if (fcgi_writev_all(c, &iov, 1) == -1)
		c->failed = true;
	buf_reset(&c->wire);
	return c->failed ? -1 : 0;
}

/* A record header: version, type, request id, content length, padding. */
static void
fcgi_header(
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

/* One record of n <= FCGI_REC_CHUNK content bytes, padded to 8. */
static int
fcgi_record(struct fcgi_conn *c, int type, int id, const void *p, size_t n)
{
	static const unsigned char zeros[8];
	unsigned char h[FCGI_HEADER_LEN];
	size_t pad = (8 - n % 8) % 8;
	struct iovec iov[3];
	char *dst;

	if (c->failed)
		return -1;
	fcgi_header(h, type, id, n, pad);
	if (n < FCGI_WIRE_DIRECT &&
	    (dst = buf_reserve(&c->wire, sizeof(h) + n + pad)) != NULL) {
		memcpy(dst, h, sizeof(h));
		if (n > 0)
			memcpy(dst + sizeof(h), p, n);
		memset(dst + sizeof(h) + n, 0, pad);
		buf_commit(&c->wire, sizeof(h) + n + pad);
		return buf_len(&c->wire) >= FCGI_WIRE_DIRECT ? fcgi_flush(c)
		                                             : 0;
	}
	/* large, or no memory to gather it: what waits, then this record */
	if (fcgi_flush(c) == -1)
		return -1;
	iov[0].iov_base = h;
	iov[0].iov_len = sizeof(h);
	iov[1].iov_base = (void *)(uintptr_t)p;
	iov[1].iov_len = n;
	iov[2].iov_base = (void *)(uintptr_t)zeros;
	iov[2].iov_len = pad;
	if (fcgi_writev_all(c, iov, 3) == -1) {
		c->failed = true;
		return -1;
	}
	return 0;
}

int
fcgi_write(struct fcgi_conn *c, int type, const void *p, size_t n)
{
	const char *s = p;

	if (c->aborted)
		return 0; /* nobody waits for it any more */
	/* bounded by n: each pass takes up to FCGI_REC_CHUNK bytes */
	while (n > 0) {
		size_t k = n < FCGI_REC_CHUNK ? n : FCGI_REC_CHUNK;

		if (fcgi_record(c, type, c->id, s, k) == -1)
			return -1;
		if (type == FCGI_STDERR)
			c->had_err = true;
		s += k;
		n -= k;
	}
	return 0;
}

/* END_REQUEST for id with protocolStatus ps (section 5.5). */
static int
fcgi_end_record(struct fcgi_conn *c, int id, int ps)
{
	unsigned char body[8] = {0, 0, 0, 0, (unsigned char)ps, 0, 0, 0};

	return fcgi_record(c, FCGI_END_REQUEST, id, body, sizeof(body));
}

void
fcgi_end(struct fcgi_conn *c)
{
	/* the end of each stream (sections 5.3) and of the request, after
	 * what waits: one write in all */
	if (!c->aborted) {
		if (c->had_err)
			(void)fcgi_record(c, FCGI_STDERR, c->id, NULL, 0);
		(void)fcgi_record(c, FCGI_STDOUT, c->id, NULL, 0);
	}
	(void)fcgi_end_record(c, c->id, FCGI_REQUEST_COMPLETE);
	(void)fcgi_flush(c);
}

/* A management answer or a refusal of a request: written at once. */
static int
fcgi_reply(struct fcgi_conn *c, int type, int id, const void *p, size_t n)
{
	if (fcgi_record(c, type, id, p, n) == -1 || fcgi_flush(c) == -1)
		return fcgi_drop(c, FCGI_W_IO, NULL);
	return 0;
}

/* END_REQUEST for a request we refuse or end early, written at once. */
static int
fcgi_reply_end(struct fcgi_conn *c, int id, int ps)
{
	if (fcgi_end_record(c, id, ps) == -1 || fcgi_flush(c) == -1)
		return fcgi_drop(c, FCGI_W_IO, NULL);
	return 0;
}

/* --- reading ------------------------------------------------------------- */

/* A name-value length (section 3.4): 1 byte, or 4 with the top bit set. */
static int
fcgi_nv_len(const unsigned char *p, size_t n, size_t *at, size_t *len)
{
	if (*at >= n)
		return -1;
	if (p[*at] < 0x80) {
		*len = p[(*at)++];
		return 0;
	}
	if (n - *at < 4)
		return -1; /* hits on a 4-byte length cut by the stream's end */
	*len = ((size_t)(p[*at] & 0x7f) << 24) | ((size_t)p[*at + 1] << 16) |
	       ((size_t)p[*at + 2] << 8) | p[*at + 3];
	*at += 4;
	return 0;
}

/*
 * Decode the PARAMS stream into "NAME=value" strings and c->envp.  A name
 * that holds '=' or NUL is skipped (no variable could be looked up by
 * it); a NUL in a value ends it.  0, or -1 with c->detail.
 */
static int
fcgi_params_decode(struct fcgi_conn *c)
{
	const unsigned char *p = (const unsigned char *)buf_ptr(&c->params);
	size_t n = buf_len(&c->params), at = 0, count = 0, i, off;

	buf_reset(&c->env);
	/* bounded by n: each pair consumes at least two bytes */
	while (at < n) {
		const unsigned char *nul;
		size_t nl, vl;

		if (fcgi_nv_len(p, n, &at, &nl) == -1 ||
		    fcgi_nv_len(p, n, &at, &vl) == -1 || nl > n - at ||
		    vl > n - at - nl) {
			/* hits on a pair whose lengths overrun the stream */
			c->detail = "a PARAMS pair overruns its stream";
			return -1;
		}
		if (nl == 0 || memchr(p + at, '=', nl) != NULL ||
		    memchr(p + at, '\0', nl) != NULL) {
			at += nl + vl; /* hits on a name "A=B" */
			continue;
		}
		if (++count > FCGI_PARAMS_COUNT_MAX) {
			c->detail = "more PARAMS pairs than we take";
			return -1;
		}
		/* a NUL in the value ends it here, as it would in any C
		 * string: then the strings below are found by their NULs
		 * (hits on REQUEST_METHOD "GET\0x") */
		nul = memchr(p + at + nl, '\0', vl);
		if (buf_append(&c->env, p + at, nl) == -1 ||
		    buf_append(&c->env, "=", 1) == -1 ||
		    buf_append(&c->env, p + at + nl,
		        nul != NULL ? (size_t)(nul - (p + at + nl)) : vl) == -1 ||
		    buf_append(&c->env, "", 1) == -1) {
			c->detail = "PARAMS too large";
			return -1;
		}
		at += nl + vl;
	}
	if (count + 1 > c->envp_cap) {
		char **e = realloc(c->envp, (count + 1) * sizeof(*e));

		if (e == NULL) {
			c->detail = "out of memory for PARAMS";
			return -1;
		}
		c->envp = e;
		c->envp_cap = count + 1;
	}
	/* the strings are in place now: point at each */
	for (i = 0, off = 0; i < count; i++) {
		c->envp[i] = buf_data(&c->env) + off;
		off += strlen(c->envp[i]) + 1;
	}
	c->envp[count] = NULL;
	return 0;
}

/* GET_VALUES (section 4.1): the values we know, in GET_VALUES_RESULT. */
static int
fcgi_get_values(struct fcgi_conn *c)
{
	static const struct {
		const char *name, *value;
	} known[] = {
	    {FCGI_MAX_CONNS, "1"},
	    {FCGI_MAX_REQS, "1"},
	    {FCGI_MPXS_CONNS, "0"},
	};
	const unsigned char *p = (const unsigned char *)buf_ptr(&c->rec);
	size_t n = buf_len(&c->rec), at = 0, i;
	unsigned char out[128];
	size_t o = 0;

	/* bounded by n: each pair consumes at least two bytes */
	while (at < n) {
		size_t nl, vl;

		if (fcgi_nv_len(p, n, &at, &nl) == -1 ||
		    fcgi_nv_len(p, n, &at, &vl) == -1 || nl > n - at ||
		    vl > n - at - nl)
			break; /* hits on a malformed query: answer what came */
		for (i = 0; i < GPT_ARRAY_LEN(known); i++) {
			size_t kl = strlen(known[i].name);

			if (kl == nl && memcmp(p + at, known[i].name, nl) == 0 &&
			    o + 2 + kl + 1 <= sizeof(out)) {
				out[o++] = (unsigned char)kl;
				out[o++] = 1;
				memcpy(out + o, known[i].name, kl);
				o += kl;
				out[o++] = (unsigned char)known[i].value[0];
			}
		}
		at += nl + vl;
	}
	return fcgi_reply(c, FCGI_GET_VALUES_RESULT, 0, out, o);
}

/* A whole record has been read (its content consumed): act on it. */
static int
fcgi_record_done(struct fcgi_conn *c)
{
	const unsigned char *b = (const unsigned char *)buf_ptr(&c->rec);

	switch (c->rtype) {
	case FCGI_BEGIN_REQUEST: {
		int role, flags;

		if (c->rid == 0 || buf_len(&c->rec) != 8)
			/* hits on a BEGIN_REQUEST of 4 bytes */
			return fcgi_drop(c, FCGI_W_PROTOCOL,
			    "a malformed BEGIN_REQUEST");
		role = (b[0] << 8) | b[1];
		flags = b[2];
		if (c->id != 0)
			/* hits on a second request on the connection before
			 * the first ended (section 6.1: no multiplexing) */
			return c->rid == c->id ? fcgi_drop(c, FCGI_W_PROTOCOL,
			                             "a request begun twice")
			                       : fcgi_reply_end(c, c->rid,
			                             FCGI_CANT_MPX_CONN);
		if (role != FCGI_RESPONDER)
			/* hits on an AUTHORIZER request */
			return fcgi_reply_end(c, c->rid, FCGI_UNKNOWN_ROLE);
		c->id = c->rid;
		c->keep = (flags & FCGI_KEEP_CONN) != 0;
		return 0;
	}
	case FCGI_PARAMS:
		if (c->rid != c->id || c->id == 0 || c->head_ready)
			return 0; /* not ours, or after its end: skipped */
		if (c->rlen > 0)
			return 0;
		if (fcgi_params_decode(c) == -1)
			return fcgi_drop(c, FCGI_W_PROTOCOL, c->detail);
		c->head_ready = true;
		return 0;
	case FCGI_STDIN:
		if (c->rid != c->id || c->id == 0)
			return 0;
		if (!c->head_ready)
			/* hits on STDIN right after BEGIN_REQUEST */
			return fcgi_drop(c, FCGI_W_PROTOCOL,
			    "STDIN before the end of PARAMS");
		if (c->rlen == 0)
			c->stdin_done = true;
		return 0;
	case FCGI_ABORT_REQUEST:
		if (c->rid == c->id && c->id != 0)
			c->aborted = true;
		return 0;
	case FCGI_GET_VALUES:
		if (c->rid != 0)
			return 0;
		return fcgi_get_values(c);
	default:
		if (c->rid == 0) {
			/* hits on a management record of type 42 */
			unsigned char u[8] = {(unsigned char)c->rtype};

			return fcgi_reply(c, FCGI_UNKNOWN_TYPE, 0, u, sizeof(u));
		}
		return 0; /* FCGI_DATA and the like: not a responder's */
	}
}

/*
 * Consume read-ahead bytes toward goal: for FCGI_G_HEAD until the PARAMS
 * of a request ended; for FCGI_G_BODY, STDIN bytes into out[*got..n) until
 * it is full or the STDIN ended.  1 when there, 0 when the bytes ran out
 * first, -1 when the connection was dropped.
 */
static int
fcgi_step(struct fcgi_conn *c, enum fcgi_goal goal, unsigned char *out,
    size_t n, size_t *got)
{
	/* bounded by the read-ahead bytes: each pass consumes at least one,
	 * or ends a record whose remaining length is 0 */
	for (;;) {
		const unsigned char *p = c->in + c->in_pos;
		size_t avail = c->in_len - c->in_pos, k;

		if (goal == FCGI_G_HEAD && c->head_ready)
			return 1;
		if (goal == FCGI_G_BODY &&
		    (c->stdin_done || c->aborted || (*got == n && n > 0)))
			return 1;
		if (c->state == FCGI_S_HEAD) {
			if (avail == 0)
				return 0;
			k = 8 - c->hdr_got < avail ? 8 - c->hdr_got : avail;
			memcpy(c->hdr + c->hdr_got, p, k);
			c->hdr_got += k;
			c->in_pos += k;
			c->started = true;
			if (c->hdr_got < 8)
				continue;
			c->hdr_got = 0;
			if (c->hdr[0] != FCGI_VERSION_1)
				/* hits on an HTTP request sent to the socket */
				return fcgi_drop(c, FCGI_W_PROTOCOL,
				    "not a FastCGI 1 record");
			c->rtype = c->hdr[1];
			c->rid = (c->hdr[2] << 8) | c->hdr[3];
			c->rlen = c->clen = ((size_t)c->hdr[4] << 8) | c->hdr[5];
			c->plen = c->hdr[6];
			c->state = FCGI_S_CONTENT;
			buf_reset(&c->rec);
			continue;
		}
		if (c->state == FCGI_S_CONTENT) {
			if (c->clen > 0) {
				bool mine = c->rid == c->id && c->id != 0;

				if (avail == 0)
					return 0;
				k = c->clen < avail ? c->clen : avail;
				if (c->rtype == FCGI_STDIN && mine &&
				    c->head_ready && !c->stdin_done) {
					if (goal != FCGI_G_BODY)
						return 1; /* the body's, later */
					if (k > n - *got)
						k = n - *got;
					if (out != NULL)
						memcpy(out + *got, p, k);
					*got += k;
				} else if (c->rtype == FCGI_PARAMS && mine &&
				           !c->head_ready) {
					if (buf_append(&c->params, p, k) == -1)
						/* hits on 2 MB of PARAMS */
						return fcgi_drop(c,
						    FCGI_W_PROTOCOL,
						    "PARAMS too large");
				} else if ((c->rtype == FCGI_BEGIN_REQUEST ||
				               (c->rtype == FCGI_GET_VALUES &&
				                   c->rid == 0)) &&
				           buf_append(&c->rec, p, k) == -1)
					return fcgi_drop(c, FCGI_W_NOMEM, NULL);
				c->in_pos += k;
				c->clen -= k;
				if (c->clen > 0)
					continue;
			}
			c->state = c->plen > 0 ? FCGI_S_PAD : FCGI_S_HEAD;
			if (fcgi_record_done(c) == -1)
				return -1;
			continue;
		}
		/* padding */
		if (avail == 0)
			return 0;
		k = c->plen < avail ? c->plen : avail;
		c->in_pos += k;
		c->plen -= k;
		if (c->plen == 0)
			c->state = FCGI_S_HEAD;
	}
}

/*
 * More bytes into the read-ahead buffer (only when it is used up): try
 * the read, and only when it would block wait in poll() until until_ms.
 * 1 bytes came, 0 EOF, -1 error (c->err), -2 until_ms passed, -3 a stop
 * signal while no request was begun.
 */
static int
fcgi_fill(struct fcgi_conn *c, uint64_t until_ms)
{
	c->in_pos = c->in_len = 0;
	/* each pass reads, or waits and then reads; bounded by until_ms */
	for (;;) {
		ssize_t r = read(c->fd, c->in, FCGI_IN_MAX);
		struct pollfd pf = {c->fd, POLLIN, 0};
		uint64_t now;
		int rc;

		if (r > 0) {
			c->in_len = (size_t)r;
			return 1;
		}
		if (r == 0)
			return 0;
		if (errno == EINTR)
			continue;
		if (errno != EAGAIN && errno != EWOULDBLOCK) {
			c->err = errno;
			return -1;
		}
		if ((now = gpt_now_ms()) >= until_ms)
			return -2;
		rc = poll(&pf, 1, (int)(until_ms - now));
		if (rc == 0)
			return -2;
		if (rc == -1 && errno == EINTR && !c->started &&
		    c->stop != NULL && *c->stop)
			return -3; /* a stop signal between requests */
		if (rc == -1 && errno != EINTR) {
			c->err = errno;
			return -1;
		}
	}
}

/* The end of the current wait: idle time from now, within the deadline. */
static uint64_t
fcgi_wait_until(const struct fcgi_conn *c, uint64_t deadline)
{
	uint64_t idle = gpt_now_ms() + c->idle_ms;

	return idle < deadline ? idle : deadline;
}

int
fcgi_read_head(struct fcgi_conn *c)
{
	uint64_t head_end = 0;
	size_t got = 0;
	bool kept = c->served;
	int rc;

	if (c->fd < 0)
		return -1;
	fcgi_request_reset(c);
	c->started = c->in_pos < c->in_len;
	/* bounded: each pass consumes bytes or waits, and every wait ends at
	 * the idle time or the head's deadline */
	for (;;) {
		if ((rc = fcgi_step(c, FCGI_G_HEAD, NULL, 0, &got)) == -1)
			return -1;
		if (rc == 1) {
			if (head_end == 0)
				c->deadline_ms = gpt_now_ms() + c->request_ms;
			return 0;
		}
		if (c->aborted) {
			/* aborted before its head ended: done with it */
			if (fcgi_reply_end(c, c->id, FCGI_REQUEST_COMPLETE) ==
			    -1)
				return -1;
			fcgi_request_reset(c);
		}
		if (!c->started && kept) {
			/* between requests on a kept connection: the idle
			 * time for the next request's first byte */
			rc = fcgi_fill(c, gpt_now_ms() + c->idle_ms);
		} else {
			if (head_end == 0) {
				/* a web server writes the head at once: not
				 * having it within min(idle, request) of its
				 * first byte (or of the accept) is stalling */
				uint64_t now = gpt_now_ms();

				head_end = now + (c->idle_ms < c->request_ms
				                         ? c->idle_ms
				                         : c->request_ms);
				c->deadline_ms = now + c->request_ms;
			}
			rc = fcgi_fill(c, head_end);
		}
		if (rc == 1)
			continue;
		if (rc == -3) {
			c->why = FCGI_W_STOP;
			fcgi_conn_close(c);
			return -1;
		}
		if (rc == 0 && !c->started) {
			c->why = FCGI_W_EOF; /* the web server closed it */
			fcgi_conn_close(c);
			return -1;
		}
		if (rc == -2 && !c->started && kept)
			return fcgi_drop(c, FCGI_W_KEPT_IDLE, NULL);
		if (rc == -2)
			/* hits on half a record header, then silence */
			return fcgi_drop(c, FCGI_W_HEAD_TIME, NULL);
		return fcgi_drop(c, rc == 0 ? FCGI_W_CUT : FCGI_W_IO, NULL);
	}
}

long
fcgi_read_body(struct fcgi_conn *c, void *p, size_t n)
{
	size_t got = 0;
	int rc;

	if (c->fd < 0)
		return -1;
	if (n > LONG_MAX)
		n = LONG_MAX;
	/* bounded: each pass consumes bytes, or waits until the idle time
	 * or the deadline */
	for (;;) {
		uint64_t until;

		if ((rc = fcgi_step(c, FCGI_G_BODY, p, n, &got)) == -1)
			return -1;
		if (got > 0)
			return (long)got;
		if (c->aborted) {
			/* hits on ABORT_REQUEST while the body is read */
			c->why = FCGI_W_ABORTED;
			return -1;
		}
		if (rc == 1)
			return 0;
		if (gpt_now_ms() >= c->deadline_ms)
			/* hits on a body trickled a byte a second */
			return fcgi_drop(c, FCGI_W_REQUEST, NULL);
		until = fcgi_wait_until(c, c->deadline_ms);
		rc = fcgi_fill(c, until);
		if (rc == 1)
			continue;
		if (rc == -2)
			return fcgi_drop(c,
			    until >= c->deadline_ms ? FCGI_W_REQUEST
			                            : FCGI_W_IDLE,
			    NULL);
		/* hits on a body that stops half way, the peer gone */
		return fcgi_drop(c, rc == 0 ? FCGI_W_CUT : FCGI_W_IO, NULL);
	}
}

int
fcgi_finish(struct fcgi_conn *c)
{
	unsigned char sink[16384];

	if (c->fd < 0)
		return 0;
	if (c->failed) {
		fcgi_conn_close(c);
		return 0;
	}
	/* bounded by FCGI_DRAIN_MAX and the request's deadline */
	while (!c->stdin_done && !c->aborted) {
		long k = fcgi_read_body(c, sink, sizeof(sink));

		if (k == -1)
			return -1; /* dropped: a stall, or the peer gone */
		if (k == 0)
			break;
		c->drained += (size_t)k;
		if (c->drained > FCGI_DRAIN_MAX)
			/* hits on a 100 MB body answered 204 unread */
			return fcgi_drop(c, FCGI_W_DRAIN, NULL);
	}
	if (!c->keep) {
		fcgi_conn_close(c);
		return 0;
	}
	/* kept: the next fcgi_read_head waits the idle time for it */
	fcgi_request_reset(c);
	c->served = true;
	return 0;
}
