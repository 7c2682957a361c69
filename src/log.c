/*
 * log.c: format, sanitize and emit one diagnostic line.
 */
#include <stdarg.h>
#include <stdio.h>
#include <unistd.h>

#include "log.h"

static log_sink_fn log_sink;
static void *log_sink_ctx;

void
log_set_sink(log_sink_fn fn, void *ctx)
{
	log_sink = fn;
	log_sink_ctx = ctx;
}

static void log_emit(const char *level, const char *fmt, va_list ap)
    GPT_PRINTF(2, 0);

static void
log_emit(const char *level, const char *fmt, va_list ap)
{
	char line[LOG_LINE_MAX];
	size_t len, i, start;
	int n;

	n = snprintf(line, sizeof(line), "gpt.fcgi: %s: ", level);
	start = n > 0 ? (size_t)n : 0;
	n = vsnprintf(line + start, sizeof(line) - start - 1, fmt, ap);
	if (n < 0)
		n = 0;
	len = start + (size_t)n;
	if (len > sizeof(line) - 2)
		len = sizeof(line) - 2;
	for (i = start; i < len; i++) {
		unsigned char c = (unsigned char)line[i];

		if (c < 0x20 || c == 0x7f)
			line[i] = '?';
	}
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

#define LOG_FN(name, level)                                                    \
	void name(const char *fmt, ...)                                        \
	{                                                                      \
		va_list ap;                                                    \
		va_start(ap, fmt);                                             \
		log_emit(level, fmt, ap);                                      \
		va_end(ap);                                                    \
	}

LOG_FN(log_error, "error")
LOG_FN(log_warn, "warning")
LOG_FN(log_info, "info")
