/*
 * log.c: filter, rate-limit, format, sanitize and emit one diagnostic line.
 *
 * Owns the process's logging state (sink, level, clock, the rejection
 * bucket); see log.h for the levels and the limit.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/log.h"

static log_sink_fn log_sink;
static void *log_sink_ctx;
static log_clock_fn log_clock;
static enum log_level log_level = LOG_LEVEL_ALL;
static bool log_stamp;
static bool log_unlimited;
static struct log_bucket log_rejects;
static bool log_rejects_ready; /* log_rejects was initialized */

void
log_set_sink(log_sink_fn fn, void *ctx)
{
	log_sink = fn;
	log_sink_ctx = ctx;
}

static uint64_t
log_now_ms(void)
{
	return log_clock != NULL ? log_clock() : gpt_now_ms();
}

void
log_set_clock(log_clock_fn fn)
{
	log_clock = fn;
	log_bucket_init(&log_rejects, log_now_ms());
	log_rejects_ready = true;
}

void
log_set_level(enum log_level level)
{
	log_level = level;
}

void
log_set_reject_limit(bool on)
{
	log_unlimited = !on;
}

void
log_set_timestamps(bool on)
{
	log_stamp = on;
}

int
log_cgi_timestamps(const char *setting, const char *server_software, bool *on)
{
	/* Apache's mod_cgi and mod_cgid log each stderr line of the program
	 * with their own time and client prefix (AH01215); lighttpd's mod_cgi
	 * passes the program its own stderr (or server.breakagelog)
	 * unstamped. */
	*on = server_software == NULL ||
	      strncmp(server_software, "Apache", 6) != 0;
	if (setting == NULL || *setting == '\0')
		return 0;
	if (strcmp(setting, "yes") == 0) {
		*on = true;
		return 0;
	}
	if (strcmp(setting, "no") == 0) {
		*on = false;
		return 0;
	}
	/* hits on GPT_LOG_TIMESTAMP=1 */
	return -1;
}

/* --- the rejection bucket --------------------------------------------- */

#define LOG_BUCKET_FULL ((uint32_t)LOG_REJECT_BURST * 1000)

void
log_bucket_init(struct log_bucket *b, uint64_t now_ms)
{
	b->last_ms = now_ms;
	b->milli = LOG_BUCKET_FULL;
	b->suppressed = 0;
	b->since_ms = now_ms;
}

/* Add what the time since last_ms earned: LOG_REJECT_RATE tokens a second
 * are LOG_REJECT_RATE thousandths a millisecond. */
static void
log_bucket_refill(struct log_bucket *b, uint64_t now_ms)
{
	uint64_t dt;

	if (now_ms <= b->last_ms)
		return;
	dt = now_ms - b->last_ms;
	b->last_ms = now_ms;
	/* checked: dt is capped before the product, which then fits */
	if (dt >= LOG_BUCKET_FULL / LOG_REJECT_RATE + 1) {
		b->milli = LOG_BUCKET_FULL;
		return;
	}
	b->milli += (uint32_t)dt * LOG_REJECT_RATE;
	if (b->milli > LOG_BUCKET_FULL)
		b->milli = LOG_BUCKET_FULL;
}

bool
log_bucket_take(struct log_bucket *b, uint64_t now_ms)
{
	log_bucket_refill(b, now_ms);
	if (b->milli >= 1000) {
		b->milli -= 1000;
		return true;
	}
	if (b->suppressed == 0)
		b->since_ms = now_ms;
	if (b->suppressed < UINT32_MAX)
		b->suppressed++;
	return false;
}

static struct log_bucket *
log_bucket(uint64_t now_ms)
{
	if (!log_rejects_ready) {
		log_bucket_init(&log_rejects, now_ms);
		log_rejects_ready = true;
	}
	return &log_rejects;
}

/* --- lines ------------------------------------------------------------ */

static void log_emit(const char *level, const char *fmt, va_list ap)
    GPT_PRINTF(2, 0);

static void
log_emit(const char *level, const char *fmt, va_list ap)
{
	char line[LOG_LINE_MAX];
	size_t len, start = 0;
	int n;

	if (log_stamp) {
		/* RFC 3339 section 5.6, UTC: 2025-01-31T23:59:59Z */
		struct tm tm;
		time_t t = time(NULL);

		if (gmtime_r(&t, &tm) != NULL)
			start = strftime(line, sizeof(line),
			    "%Y-%m-%dT%H:%M:%SZ ", &tm);
	}
	n = snprintf(line + start, sizeof(line) - start, "gpt.fcgi: %s: ",
	    level);
	start += n > 0 ? (size_t)n : 0;
	n = vsnprintf(line + start, sizeof(line) - start - 1, fmt, ap);
	if (n < 0)
		n = 0;
	len = start + (size_t)n;
	if (len > sizeof(line) - 2)
		len = sizeof(line) - 2;
	gpt_mask_controls(line + start, len - start);
	line[len++] = '\n';
	line[len] = '\0';
	if (log_sink != NULL) {
		log_sink(log_sink_ctx, line, len);
		return;
	}
	/* One write(2) per line keeps lines whole when processes share stderr. */
	if (write(STDERR_FILENO, line, len) < 0)
		return;
}

static void log_line(const char *level, const char *fmt, ...)
    GPT_PRINTF(2, 3);

static void
log_line(const char *level, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_emit(level, fmt, ap);
	va_end(ap);
}

/* The count of suppressed rejection lines, if any, as one line; with
 * due, only once a second has passed since the first of them. */
static void
log_summary(bool due)
{
	struct log_bucket *b;
	uint64_t now, s;

	if (!log_rejects_ready || log_rejects.suppressed == 0)
		return;
	now = log_now_ms();
	b = log_bucket(now);
	if (due && now - b->since_ms < 1000)
		return;
	s = now > b->since_ms ? (now - b->since_ms + 999) / 1000 : 1;
	log_line("notice", "%u rejection lines suppressed in the last %llu s",
	    b->suppressed, (unsigned long long)(s > 0 ? s : 1));
	b->suppressed = 0;
}

#define LOG_FN(name, level, min)                                               \
	void name(const char *fmt, ...)                                        \
	{                                                                      \
		va_list ap;                                                    \
		log_summary(true);                                             \
		if (log_level < (min))                                         \
			return;                                                \
		va_start(ap, fmt);                                             \
		log_emit(level, fmt, ap);                                      \
		va_end(ap);                                                    \
	}

LOG_FN(log_error, "error", LOG_LEVEL_ERRORS)
LOG_FN(log_warn, "warning", LOG_LEVEL_ERRORS)
LOG_FN(log_info, "info", LOG_LEVEL_ALL)

void
log_reject(const char *fmt, ...)
{
	va_list ap;

	if (log_level < LOG_LEVEL_REJECTIONS)
		return;
	if (!log_unlimited) {
		uint64_t now = log_now_ms();

		if (!log_bucket_take(log_bucket(now), now))
			return;
	}
	log_summary(false);
	va_start(ap, fmt);
	log_emit("notice", fmt, ap);
	va_end(ap);
}
