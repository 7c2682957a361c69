/*
 * taskrec.h: a task's record in the store, and the JSON document its
 * resource answers.
 *
 * A record is one line of fields for the responder and the runner, then
 * the document exactly as GET serves it, so a poll reads one small file
 * and writes its bytes (no JSON parse on the poll path):
 *
 *   gpt-task 1 EXPIRES_S ID STATUS CREATED_MS UPDATED_MS PID POLL_MS\n
 *   {"task":ID,"status":STATUS,"statusMessage":...,"progress":...,
 *    "created":...,"updated":...,"expires":...,"pollInterval":MS,
 *    "result":<the hook's JSON> | "reason":CLASS}
 *
 * ID is 32 hex digits; STATUS working, completed, failed or cancelled;
 * times are UTC, RFC 3339 with milliseconds in the document.  "result"
 * comes once completed (the hook's stdout, one strict JSON value, as it
 * was written); "reason" once failed or cancelled (a class from a closed
 * list, never the hook's stderr).
 *
 * Owns nothing: the strings of a struct taskrec are borrowed.
 */
#ifndef GPT_TASKREC_H
#define GPT_TASKREC_H

#include "base/buf.h"
#include "base/common.h"
#include "site/store.h"

/* Bytes of statusMessage kept (a longer progress message is cut on a
 * character boundary). */
#define TASKREC_MESSAGE_MAX 512
/* The header line, at most. */
#define TASKREC_HEAD_MAX 160

enum taskrec_status {
	TASKREC_WORKING,
	TASKREC_COMPLETED,
	TASKREC_FAILED,
	TASKREC_CANCELLED,
};

struct taskrec {
	unsigned char id[STORE_ID_BYTES];
	enum taskrec_status status;
	int64_t created_ms, updated_ms; /* since the epoch, UTC */
	int64_t expires_s;
	long pid;            /* the runner, 0 before it started */
	unsigned poll_ms;    /* pollInterval */
	const char *message; /* borrowed: statusMessage (UTF-8), or NULL */
	size_t message_len;
	const char *progress; /* borrowed: a JSON number 0..1, or NULL */
	size_t progress_len;
	const char *reason; /* borrowed: failure class, or NULL */
	const char *result; /* borrowed: the hook's JSON, or NULL */
	size_t result_len;
};

/* What a reader needs of a record, from its header line. */
struct taskrec_head {
	unsigned char id[STORE_ID_BYTES];
	enum taskrec_status status;
	int64_t created_ms, updated_ms, expires_s;
	long pid;
	unsigned poll_ms;
	size_t doc_off; /* where the document starts */
};

/* "working", "completed", "failed", "cancelled". */
const char *taskrec_status_name(enum taskrec_status s);

/* Is the status final (completed, failed, cancelled)? */
bool taskrec_is_final(enum taskrec_status s);

/*
 * Append the record (header line and document) to out.  0, or -1 when
 * out refuses (its maximum, memory).
 */
int taskrec_format(const struct taskrec *r, struct buf *out) GPT_MUSTCHECK;

/*
 * Read the header line of a record's n bytes.  0, or -1 when it is not a
 * record this version writes (a damaged or foreign file).
 */
int taskrec_parse_head(
    const char *p, size_t n, struct taskrec_head *h) GPT_MUSTCHECK;

/* The wall clock in milliseconds since the epoch. */
int64_t taskrec_now_ms(void);

#endif /* GPT_TASKREC_H */
