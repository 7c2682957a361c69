/*
 * log.h: the only writer of diagnostics.  Each call writes one line,
 * "gpt.fcgi: <level>: <message>\n", to the current sink: stderr by default;
 * in FastCGI mode the responder points the sink at the request's error
 * stream so the line reaches the web server's error log.
 *
 * Levels, the word after "gpt.fcgi: " (under nginx every line lands at
 * [error], so this word is what to filter on):
 *   error, warning  the operator must act (log_error, log_warn);
 *   notice          a request refused: a rejected act, a 412, a 404
 *                   (log_reject); rate-limited, see below;
 *   info            everything else: accepted acts, connection events.
 * What is written is filtered by the level set with log_set_level (an
 * address's `log` key in address.conf): errors (error and warning lines),
 * rejections (also notice), all (also info).
 *
 * Rejection lines are rate-limited per process with a token bucket of
 * LOG_REJECT_BURST lines refilled at LOG_REJECT_RATE a second, so a flood
 * of refused requests is not a flood of log writes: a line over the limit
 * is counted and costs nothing else, and the count goes out as one notice
 * line, "N rejection lines suppressed in the last S s", before the next
 * rejection line that is written, or before any other line once a second
 * has passed since the first one suppressed.
 *
 * Under CGI the web server may not stamp the lines it takes from stderr;
 * log_set_timestamps(true) prefixes each line with its RFC 3339 UTC time.
 *
 * GPT_LOG_FORMAT=json (log_set_format) writes each line instead as one
 * JSON object, always with the same members in the same order:
 *   {"time":"2026-01-31T23:59:59.123Z","level":"notice",
 *    "event":"act_rejected","reason":"form","address":"/srv/gpt/a",
 *    "actor":"bot","elapsed_ms":1,"hook_ms":null,"message":"..."}
 * event and reason come from what the request counted (responder/metrics.h:
 * arrival, act_accepted, act_rejected with its class, hook with its
 * outcome), "message" for any other line; address, actor and elapsed_ms
 * (since the request began) are the request's, null between requests;
 * hook_ms once the hook ran.  JSON lines go to the process's stderr
 * always, never into a FastCGI stream, where the web server would wrap
 * them in its own text.  Strings are valid UTF-8 (other bytes become
 * '?') with controls escaped.  The rejection limit applies the same.
 *
 * Lines are truncated at LOG_LINE_MAX bytes, and control bytes in the
 * message are written as '?' so that text taken from a request (an actor
 * name, a body) cannot forge log lines.  Not thread-safe: one process
 * serves one request at a time.
 */
#ifndef GPT_LOG_H
#define GPT_LOG_H

#include "base/common.h"

#define LOG_LINE_MAX 2048
#define LOG_REJECT_RATE 5   /* rejection lines a second, on average */
#define LOG_REJECT_BURST 10 /* ... and at most this many at once */

typedef void (*log_sink_fn)(void *ctx, const char *line, size_t len);
/* Milliseconds from any fixed point, never going back. */
typedef uint64_t (*log_clock_fn)(void);

/* What an address logs (address.conf `log`); LOG_LEVEL_ALL by default. */
enum log_level {
	LOG_LEVEL_ERRORS,
	LOG_LEVEL_REJECTIONS,
	LOG_LEVEL_ALL,
};

/*
 * A token bucket in thousandths of a line.  log_bucket_take() is true when
 * a line may go now (and takes its token), false when it is over the
 * limit (and counts it in suppressed, since_ms marking the first).
 */
struct log_bucket {
	uint64_t last_ms; /* when milli was last brought up to date */
	uint32_t milli;   /* tokens x 1000, at most LOG_REJECT_BURST x 1000 */
	unsigned suppressed; /* lines refused since the last summary */
	uint64_t since_ms;   /* when the first of them was refused */
};

/* A full bucket at now_ms. */
void log_bucket_init(struct log_bucket *b, uint64_t now_ms);
bool log_bucket_take(struct log_bucket *b, uint64_t now_ms);

/* Send lines to fn(ctx, ...); fn == NULL restores stderr. */
void log_set_sink(log_sink_fn fn, void *ctx);
/* The clock of the rate limit; NULL restores gpt_now_ms() (for tests).
 * Setting it refills the bucket and drops any pending count. */
void log_set_clock(log_clock_fn fn);
void log_set_level(enum log_level level);
/* Whether rejection lines are rate-limited (true, the default); the
 * GPT_LOG_REJECT_LIMIT=no of gpt.fcgi(8) turns it off. */
void log_set_reject_limit(bool on);
void log_set_timestamps(bool on);

enum log_format {
	LOG_FORMAT_TEXT,
	LOG_FORMAT_JSON,
};

/* GPT_LOG_FORMAT: NULL, "" or "text", or "json".  0, or -1 for anything
 * else (the caller refuses to start). */
int log_format_parse(const char *setting, enum log_format *out);
void log_set_format(enum log_format f);

/*
 * The request the lines are about (JSON lines carry it): address and
 * actor are borrowed until log_context_end (either may be NULL).  The
 * event and reason (static strings) and the hook's duration are set as
 * the request goes (responder/metrics.c does, as it counts).
 */
void log_context_begin(const char *address, const char *actor);
/* The address, once the request names one (borrowed, as above). */
void log_context_address(const char *address);
void log_context_event(const char *event, const char *reason);
void log_context_hook_ms(unsigned ms);
void log_context_end(void);

/*
 * Whether CGI lines get a timestamp: setting is the GPT_LOG_TIMESTAMP
 * variable ("yes", "no", or NULL/"" for yes: a CGI program cannot tell
 * whether its server stamps its stderr, and most do not).  -1 for any
 * other setting (*on is then yes).
 */
int log_cgi_timestamps(const char *setting, bool *on);

void log_error(const char *fmt, ...) GPT_PRINTF(1, 2);
void log_warn(const char *fmt, ...) GPT_PRINTF(1, 2);
void log_info(const char *fmt, ...) GPT_PRINTF(1, 2);

/*
 * A rejection line: written at level notice if the level lets rejections
 * through and the rate limit has a token; else dropped before it is
 * formatted (and counted, when the limit dropped it).
 */
void log_reject(const char *fmt, ...) GPT_PRINTF(1, 2);

#endif /* GPT_LOG_H */
