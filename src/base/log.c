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
#include "base/utf8.h"

static log_sink_fn log_sink;
static void *log_sink_ctx;
static log_clock_fn log_clock;
static enum log_level log_level = LOG_LEVEL_ALL;
static bool log_stamp;
static bool log_unlimited;
static struct log_bucket log_rejects;
static bool log_rejects_ready; /* log_rejects was initialized */
static enum log_format log_format;

/* The request the lines are about (log_context_*); all borrowed. */
static struct {
	bool active;
	const char *address, *actor, *event, *reason;
	uint64_t start_ms;
	long hook_ms; /* -1: the hook did not run (yet) */
} log_ctx = {.hook_ms = -1};

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
log_cgi_timestamps(const char *setting, bool *on)
{
	/* Always, by default: no server can be told from the request to stamp
	 * a CGI program's stderr.  Debian's Apache runs CGI under mod_cgid
	 * (the event MPM), which hands the program the error log itself, and
	 * lighttpd's mod_cgi passes its own stderr (or server.breakagelog):
	 * neither adds a time.  Only mod_cgi under the prefork MPM logs each
	 * line with its own (AH01215), where ours is merely repeated. */
	*on = true;
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

int
log_format_parse(const char *setting, enum log_format *out)
{
	if (setting == NULL || *setting == '\0' || strcmp(setting, "text") == 0)
		*out = LOG_FORMAT_TEXT;
	else if (strcmp(setting, "json") == 0)
		*out = LOG_FORMAT_JSON;
	else
		/* hits on GPT_LOG_FORMAT=JSON, on GPT_LOG_FORMAT=logfmt */
		return -1;
	return 0;
}

void
log_set_format(enum log_format f)
{
	log_format = f;
}

void
log_context_begin(const char *address, const char *actor)
{
	log_ctx.active = true;
	log_ctx.address = address;
	log_ctx.actor = actor;
	log_ctx.event = NULL;
	log_ctx.reason = NULL;
	log_ctx.hook_ms = -1;
	if (log_format == LOG_FORMAT_JSON)
		log_ctx.start_ms = gpt_now_ms();
}

void
log_context_address(const char *address)
{
	log_ctx.address = address;
}

void
log_context_event(const char *event, const char *reason)
{
	log_ctx.event = event;
	log_ctx.reason = reason;
}

void
log_context_hook_ms(unsigned ms)
{
	log_ctx.hook_ms = (long)ms;
}

void
log_context_end(void)
{
	log_ctx.active = false;
	log_ctx.address = log_ctx.actor = log_ctx.event = log_ctx.reason = NULL;
	log_ctx.hook_ms = -1;
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

/*
 * s[0..n) as a JSON string at out, in at most room bytes (room >= 2):
 * UTF-8 passes, each invalid byte becomes '?', '"' and '\\' are escaped
 * and controls written \u00XX; what does not fit is cut at a character.
 * The bytes written.
 */
static size_t
log_json_string(char *out, size_t room, const char *s, size_t n)
{
	size_t o = 0, i = 0;

	out[o++] = '"';
	/* bounded by n: each pass consumes at least one byte */
	while (i < n) {
		unsigned char c = (unsigned char)s[i];
		char tmp[8];
		size_t k = 1, tn = 1;
		uint32_t cp;

		if (c == '"' || c == '\\') {
			tmp[0] = '\\';
			tmp[1] = (char)c;
			tn = 2;
		} else if (gpt_is_control(c)) {
			(void)snprintf(tmp, sizeof(tmp), "\\u%04x", c);
			tn = 6;
		} else if (c < 0x80) {
			tmp[0] = (char)c;
		} else if ((k = utf8_decode((const unsigned char *)s + i, n - i,
		                &cp)) > 0) {
			memcpy(tmp, s + i, k);
			tn = k;
		} else {
			tmp[0] = '?';
			k = 1;
		}
		if (o + tn + 1 > room)
			break;
		memcpy(out + o, tmp, tn);
		o += tn;
		i += k;
	}
	out[o++] = '"';
	return o;
}

/* A member "name":value into line at *len (room permitting). */
static void
log_json_member(char *line, size_t size, size_t *len, const char *name,
    const char *value, size_t max)
{
	int n = snprintf(line + *len, size - *len, ",\"%s\":", name);

	if (n < 0 || (size_t)n >= size - *len)
		return;
	*len += (size_t)n;
	if (value == NULL) {
		if (size - *len > 4) {
			memcpy(line + *len, "null", 4);
			*len += 4;
		}
		return;
	}
	if (size - *len < max + 2)
		max = size - *len - 2;
	*len += log_json_string(line + *len, max, value, strlen(value));
}

static void
log_json_number(
    char *line, size_t size, size_t *len, const char *name, long long v)
{
	int n =
	    v < 0 ? snprintf(line + *len, size - *len, ",\"%s\":null", name)
	          : snprintf(line + *len, size - *len, ",\"%s\":%lld", name, v);

	if (n > 0 && (size_t)n < size - *len)
		*len += (size_t)n;
}

/* The JSON object of one line (log.h), to stderr in one write(2). */
static void
log_emit_json(const char *level, const char *msg, size_t msg_len)
{
	char line[2 * LOG_LINE_MAX + 1024];
	size_t len = 0;
	struct timespec ts;
	struct tm tm;
	bool ctx = log_ctx.active;
	int n;

	if (clock_gettime(CLOCK_REALTIME, &ts) == -1 ||
	    gmtime_r(&ts.tv_sec, &tm) == NULL)
		memset(&tm, 0, sizeof(tm));
	len =
	    strftime(line, sizeof(line), "{\"time\":\"%Y-%m-%dT%H:%M:%S", &tm);
	n = snprintf(line + len, sizeof(line) - len, ".%03ldZ\"",
	    (long)(ts.tv_nsec / 1000000));
	len += n > 0 ? (size_t)n : 0;
	log_json_member(line, sizeof(line), &len, "level", level, 16);
	log_json_member(line, sizeof(line), &len, "event",
	    ctx && log_ctx.event != NULL ? log_ctx.event : "message", 32);
	log_json_member(line, sizeof(line), &len, "reason",
	    ctx ? log_ctx.reason : NULL, 32);
	log_json_member(line, sizeof(line), &len, "address",
	    ctx ? log_ctx.address : NULL, 512);
	log_json_member(
	    line, sizeof(line), &len, "actor", ctx ? log_ctx.actor : NULL, 256);
	log_json_number(line, sizeof(line), &len, "elapsed_ms",
	    ctx ? (long long)(gpt_now_ms() - log_ctx.start_ms) : -1);
	log_json_number(
	    line, sizeof(line), &len, "hook_ms", ctx ? log_ctx.hook_ms : -1);
	/* the message last, cut to what is left: the line always closes */
	if (sizeof(line) - len > 16) {
		memcpy(line + len, ",\"message\":", 11);
		len += 11;
		len += log_json_string(
		    line + len, sizeof(line) - len - 3, msg, msg_len);
	}
	line[len++] = '}';
	line[len++] = '\n';
	if (write(STDERR_FILENO, line, len) < 0)
		return;
}

static void log_emit(const char *level, const char *fmt, va_list ap)
    GPT_PRINTF(2, 0);

static void
log_emit(const char *level, const char *fmt, va_list ap)
{
	char line[LOG_LINE_MAX];
	size_t len, start = 0;
	int n;

	if (log_format == LOG_FORMAT_JSON) {
		n = vsnprintf(line, sizeof(line), fmt, ap);
		len = n < 0 ? 0 : (size_t)n;
		if (len > sizeof(line) - 1)
			len = sizeof(line) - 1;
		log_emit_json(level, line, len);
		return;
	}
	if (log_stamp) {
		/* RFC 3339 section 5.6, UTC: 2025-01-31T23:59:59Z */
		struct tm tm;
		time_t t = time(NULL);

		if (gmtime_r(&t, &tm) != NULL)
			start = strftime(
			    line, sizeof(line), "%Y-%m-%dT%H:%M:%SZ ", &tm);
	}
	n = snprintf(
	    line + start, sizeof(line) - start, "gpt.fcgi: %s: ", level);
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
	/* One write(2) per line keeps lines whole when processes share stderr.
	 */
	if (write(STDERR_FILENO, line, len) < 0)
		return;
}

static void log_line(const char *level, const char *fmt, ...) GPT_PRINTF(2, 3);

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
