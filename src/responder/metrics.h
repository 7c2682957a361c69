/*
 * metrics.h: what each process counts per address, and the file it keeps
 * them in for node_exporter's textfile collector (GPT_METRICS_DIR).
 *
 * Counted, per address (its directory): GETs and HEADs by representation
 * (JSON, HTML, 304); acts accepted (they passed the form); acts rejected
 * by class; hook outcomes; a histogram of hook durations.  The responder
 * names the address once per request (metrics_begin) and then counts
 * what happened (metrics_count, metrics_hook); counting is an increment
 * in a table owned by this module, nothing else.
 *
 * The file, Prometheus text format 0.0.4, is written whole to a temporary
 * name and renamed, so the collector never reads half of it:
 *   FastCGI  one file per process, gpt-fcgi-PID.prom, written at most
 *            every METRICS_INTERVAL_MS while requests come, and once
 *            that long after the last one (metrics_idle_ms gives the
 *            accept loop its poll timeout); removed when the process
 *            ends cleanly.
 *   CGI      one file, gpt-fcgi-cgi.prom, shared by every CGI process:
 *            each request reads it, adds its counts and renames a new
 *            one in, under an flock of gpt-fcgi-cgi.lock held for that
 *            update only, waited for at most METRICS_LOCK_WAIT_MS.
 * Each series carries process="fcgi-PID" or process="cgi", so the files
 * of several processes never give the collector the same series twice.
 *
 * Failures (a directory missing or unwritable, a full disk, a lock never
 * got) cost the counts of that write only, never a request: they are
 * reported once per process with the reason, and once more when writing
 * works again; the answer was written before (CGI: stdout is closed
 * first).  Not thread-safe: one process serves one request at a time.
 */
#ifndef GPT_METRICS_H
#define GPT_METRICS_H

#include "base/common.h"

#define METRICS_INTERVAL_MS 5000
#define METRICS_LOCK_WAIT_MS 200
/* Addresses counted per process; more are counted under address="". */
#define METRICS_ADDR_MAX 1024
/* A CGI counts file larger than this is not read back (started anew). */
#define METRICS_FILE_MAX ((size_t)4 * 1024 * 1024)

/* What one request adds to.  Counters of one family are consecutive. */
enum metrics_count {
	/* gpt_fcgi_gets_total{representation=} */
	METRICS_GET_JSON,
	METRICS_GET_HTML,
	METRICS_GET_304,
	/* gpt_fcgi_acts_accepted_total: passed the form, the hook runs */
	METRICS_ACT_ACCEPTED,
	/* gpt_fcgi_acts_rejected_total{class=} */
	METRICS_REJECT_SIZE,         /* max_body, CONTENT_LENGTH */
	METRICS_REJECT_CONTENT_TYPE, /* not application/json */
	METRICS_REJECT_IF_MATCH,     /* 412 */
	METRICS_REJECT_PARSE,        /* not strict JSON */
	METRICS_REJECT_DUPLICATE,    /* a member name twice */
	METRICS_REJECT_FORM,         /* fails the form */
	/* gpt_fcgi_hook_outcomes_total{outcome=}: new outcomes go before
	 * METRICS_HOOK_END, with their label in metrics.c's table */
	METRICS_HOOK_OK,
	METRICS_HOOK_NONZERO,    /* exited with a status other than 0 */
	METRICS_HOOK_TIMEOUT,    /* ran past hook_timeout */
	METRICS_HOOK_BAD_ANSWER, /* output over hook_max_output or not JSON */
	METRICS_HOOK_FAILED,     /* cannot start, killed, our side failed */
	METRICS_HOOK_END,
	METRICS_COUNT_N = METRICS_HOOK_END
};

/* gpt_fcgi_hook_duration_seconds: the upper bounds of its buckets, in
 * milliseconds (a +Inf bucket follows). */
#define METRICS_BUCKETS_MS                                                     \
	{                                                                      \
		5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10000, 30000   \
	}
#define METRICS_BUCKET_N 12

/*
 * GPT_METRICS_DIR: NULL or "" counts nothing; otherwise an absolute path
 * of at most 3000 bytes without control characters (its existence is
 * checked at the first write, and reported there).  cgi picks the shared
 * file.  0, or -1 after logging why (the process then refuses to start).
 */
int metrics_configure(const char *dir, bool cgi);
bool metrics_enabled(void);

/* The address this request counts for (borrowed, may be NULL for none:
 * then nothing is counted until the next metrics_begin). */
void metrics_begin(const char *address);
void metrics_count(enum metrics_count c);
/* A hook outcome (METRICS_HOOK_*) and its duration. */
void metrics_hook(enum metrics_count outcome, unsigned elapsed_ms);
/* After the request's answer: CGI writes the shared file now; FastCGI
 * writes its own when METRICS_INTERVAL_MS has passed since the last. */
void metrics_end(void);

/* The accept loop's poll timeout: -1 when every count is written, else
 * the milliseconds until the next write is due (0: now). */
int metrics_idle_ms(void);
/* Write now if anything changed (the accept loop, when idle_ms ran out). */
void metrics_flush(void);
/* The process ends: FastCGI removes its file. */
void metrics_close(void);

/*
 * The text of the counts held (for the tests and the file); appends to
 * out.  0, or -1 when out is full.
 */
struct buf;
int metrics_render(struct buf *out);
/* Add the counts of a file this module wrote (CGI's read-back).  0, or
 * -1 when a line is not one of ours (nothing of the bad line added). */
int metrics_absorb(const char *text, size_t len);
/* Forget every count (tests). */
void metrics_reset(void);

#endif /* GPT_METRICS_H */
