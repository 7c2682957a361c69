/*
 * log.h: the only writer of diagnostics.  Each call writes one line,
 * "gpt.fcgi: <level>: <message>\n", to the current sink: stderr by default;
 * in FastCGI mode the responder points the sink at the request's error
 * stream so the line reaches the web server's error log.
 *
 * Lines are truncated at LOG_LINE_MAX bytes, and control bytes in the
 * message are written as '?' so that text taken from a request (an actor
 * name, a body) cannot forge log lines.
 */
#ifndef GPT_LOG_H
#define GPT_LOG_H

#include "common.h"

#define LOG_LINE_MAX 2048

typedef void (*log_sink_fn)(void *ctx, const char *line, size_t len);

/* Send lines to fn(ctx, ...); fn == NULL restores stderr. */
void log_set_sink(log_sink_fn fn, void *ctx);

void log_error(const char *fmt, ...) GPT_PRINTF(1, 2);
void log_warn(const char *fmt, ...) GPT_PRINTF(1, 2);
void log_info(const char *fmt, ...) GPT_PRINTF(1, 2);

#endif /* GPT_LOG_H */
