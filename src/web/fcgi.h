/*
 * fcgi.h: the FastCGI 1.0 protocol on one connection, the responder's
 * side, one request at a time (the FastCGI specification, "FastCGI
 * Specification" 1.0, sections 3 to 6).
 *
 * In: BEGIN_REQUEST (role RESPONDER), PARAMS (name-value pairs, section
 * 3.4), STDIN, ABORT_REQUEST, and the management records GET_VALUES (we
 * are one connection, one request: FCGI_MAX_CONNS 1, FCGI_MAX_REQS 1,
 * FCGI_MPXS_CONNS 0) and any other type with request id 0 (answered
 * UNKNOWN_TYPE).  A second BEGIN_REQUEST while one is open is answered
 * END_REQUEST CANT_MPX_CONN, another role UNKNOWN_ROLE; records of other
 * request ids are skipped (section 3.3).  Out: STDOUT and STDERR records
 * gathered in one buffer and written with the END_REQUEST in one write(2)
 * per answer (records of FCGI_WIRE_DIRECT bytes or more go out from where
 * they lie, so the buffer stays small).
 *
 * Bounds: bytes are read ahead into a fixed FCGI_IN_MAX buffer and
 * consumed as a stream, so no record needs to be held whole; a PARAMS
 * stream holds at most FCGI_PARAMS_MAX bytes and FCGI_PARAMS_COUNT_MAX
 * pairs; a body left unread after the answer is drained up to
 * FCGI_DRAIN_MAX bytes, else the connection is closed.  Every wait is a
 * poll(2) that happens only when a read would block, for at most the idle
 * time and never past the request's deadline (the time from the first
 * byte of a request to the end of its body): no timer, no signal.
 *
 * Refuses (drops the connection, fcgi_why says why; never ends the
 * process): a version other than 1, a BEGIN_REQUEST of another length or
 * with request id 0, STDIN before the end of PARAMS, PARAMS over the
 * bounds or with a pair that overruns the stream, EOF in the middle of a
 * request, and the two timeouts.
 *
 * No libfcgi here: its fastcgi.h gives the record layout's constants.
 */
#ifndef GPT_FCGI_H
#define GPT_FCGI_H

#include <signal.h>
#include <stdint.h>

#include "base/buf.h"
#include "base/common.h"

#define FCGI_IN_MAX ((size_t)64 * 1024) /* read ahead, bytes */
#define FCGI_PARAMS_MAX ((size_t)1024 * 1024)
#define FCGI_PARAMS_COUNT_MAX 4096
#define FCGI_DRAIN_MAX ((size_t)16 * 1024 * 1024)
#define FCGI_REC_CHUNK 65528 /* content per record: <= 0xffff, 8-aligned */
#define FCGI_WIRE_DIRECT ((size_t)16 * 1024) /* written where it lies */
#define FCGI_WIRE_MAX ((size_t)64 * 1024)    /* the answer buffer, at most */

/* Why a connection was dropped or closed. */
enum fcgi_why {
	FCGI_W_NONE,
	FCGI_W_EOF,       /* the web server closed it between requests */
	FCGI_W_KEPT_IDLE, /* a kept connection sent no request for idle s */
	FCGI_W_HEAD_TIME, /* no whole request head within min(idle, request) */
	FCGI_W_IDLE,      /* nothing for idle s in the middle of a request */
	FCGI_W_REQUEST,   /* the request not whole within request s */
	FCGI_W_CUT,       /* EOF in the middle of a request */
	FCGI_W_PROTOCOL,  /* a record we refuse; fcgi_conn.detail says which */
	FCGI_W_ABORTED,   /* ABORT_REQUEST: the web server gave up */
	FCGI_W_IO,        /* read or write failed (errno in fcgi_conn.err) */
	FCGI_W_NOMEM,
	FCGI_W_DRAIN,     /* the unread body was over FCGI_DRAIN_MAX */
	FCGI_W_STOP,      /* *stop was set while waiting between requests */
};

/* One connection and the request on it; see fcgi_conn_init. */
struct fcgi_conn {
	int fd;               /* owned: the connection, -1 when none */
	const volatile sig_atomic_t *stop; /* borrowed, may be NULL: when set,
	                         a wait between requests ends (a signal
	                         interrupts the poll) */
	unsigned idle_ms;     /* longest wait for a byte or for room */
	unsigned request_ms;  /* a request's whole time */
	/* the stream reader */
	unsigned char *in;    /* owned: FCGI_IN_MAX bytes */
	size_t in_pos, in_len;
	int state;            /* header, content, padding */
	unsigned char hdr[8]; /* the header being read */
	size_t hdr_got;
	int rtype, rid;       /* the record being read */
	size_t rlen, clen, plen; /* its content length, content and padding
	                            left */
	struct buf rec;       /* owned: BEGIN_REQUEST or GET_VALUES content */
	/* the request */
	int id;               /* 0: none begun */
	bool keep;            /* FCGI_KEEP_CONN */
	bool head_ready;      /* PARAMS ended: envp is the request's */
	bool stdin_done;      /* the empty STDIN came */
	bool aborted;         /* ABORT_REQUEST came */
	bool started;         /* a byte of this request came */
	bool served;          /* a request was answered on this kept
	                         connection */
	uint64_t deadline_ms; /* the request's time ends here */
	size_t drained;
	struct buf params;    /* owned: the PARAMS stream */
	struct buf env;       /* owned: "NAME=value" strings, NUL-separated */
	char **envp;          /* owned: into env, NULL-terminated */
	size_t envp_cap;
	/* the answer */
	struct buf wire;      /* owned: records not yet written */
	bool had_err;         /* a STDERR record went out: end that stream */
	bool failed;          /* a write failed: the web server is gone */
	/* why the connection ended */
	enum fcgi_why why;
	const char *detail;   /* static: for FCGI_W_PROTOCOL */
	int err;              /* errno for FCGI_W_IO */
};

/* A connection with no fd yet; idle_sec and request_sec bound its waits.
 * 0, or -1 out of memory. */
int fcgi_conn_init(struct fcgi_conn *c, unsigned idle_sec,
    unsigned request_sec) GPT_MUSTCHECK;
void fcgi_conn_free(struct fcgi_conn *c);

/* Take fd (an accepted connection, O_NONBLOCK, CLOEXEC); a new stream. */
void fcgi_conn_open(struct fcgi_conn *c, int fd);

/* Is a connection open? */
bool fcgi_conn_is_open(const struct fcgi_conn *c);

/* Close the connection (what it read ahead is forgotten). */
void fcgi_conn_close(struct fcgi_conn *c);

/*
 * Read up to the end of the next request's PARAMS: 0 with c->envp the
 * request's variables (borrowed until fcgi_finish), else the connection
 * is closed and c->why says why (FCGI_W_EOF and FCGI_W_KEPT_IDLE end a
 * connection with no request begun: nothing to log as an error).
 */
int fcgi_read_head(struct fcgi_conn *c) GPT_MUSTCHECK;

/*
 * Up to n bytes of the request's STDIN into p: the count, 0 at its end,
 * -1 when the connection is to be dropped (c->why; the answer is then not
 * written, and fcgi_finish closes).
 */
long fcgi_read_body(struct fcgi_conn *c, void *p, size_t n);

/*
 * Append n bytes to the answer as records of type (FCGI_STDOUT or
 * FCGI_STDERR).  0, or -1 when the connection failed (the bytes are lost;
 * after ABORT_REQUEST they are dropped and 0 is returned).
 */
int fcgi_write(struct fcgi_conn *c, int type, const void *p, size_t n);

/*
 * End the answer: the empty STDERR (when one was sent) and STDOUT, then
 * END_REQUEST (section 5.5, request complete), with everything gathered,
 * in one write.
 */
void fcgi_end(struct fcgi_conn *c);

/*
 * After fcgi_end: read and discard what is left of the body (bounded), so
 * that a kept connection is at the next request and a closed one loses
 * no answer to a reset; then close unless the web server keeps the
 * connection and it is still sound.  0, or -1 when the connection was
 * dropped while draining (c->why says why: a stall, FCGI_W_DRAIN).
 */
int fcgi_finish(struct fcgi_conn *c);

#endif /* GPT_FCGI_H */
