/*
 * loop.h: the responder's loops: FastCGI connections, many at once, fed
 * to serve_request one request at a time, or one CGI request (loop.c).
 *
 * Bounds: at most LOOP_CONNS_MAX connections per process (more wait in
 * the listener's queue); the stall limits GPT_FCGI_IDLE_TIMEOUT and
 * GPT_FCGI_REQUEST_TIMEOUT (gpt.fcgi(8)); under CGI, a body left unread
 * by the answer is drained up to LOOP_CGI_DRAIN_MAX bytes and
 * LOOP_CGI_DRAIN_MS.
 */
#ifndef GPT_LOOP_H
#define GPT_LOOP_H

#include "base/common.h"

/* CGI: unread body bytes discarded after the answer, at most, and the
 * time it may take (see loop.c). */
#define LOOP_CGI_DRAIN_MAX ((size_t)16 * 1024 * 1024)
#define LOOP_CGI_DRAIN_MS 5000u
/* FastCGI: stalled connections are dropped (see loop.c and gpt.fcgi(8)):
 * GPT_FCGI_IDLE_TIMEOUT and GPT_FCGI_REQUEST_TIMEOUT, in seconds. */
#define LOOP_IDLE_TIMEOUT_DEFAULT 5u
#define LOOP_REQUEST_TIMEOUT_DEFAULT 30u
#define LOOP_TIMEOUT_MIN 1u
#define LOOP_TIMEOUT_MAX 3600u
/* FastCGI connections one process reads at once. */
#define LOOP_CONNS_MAX 64

/*
 * The responder's main: FastCGI when fd 0 is a listening socket (libfcgi's
 * test, FCGX_IsCGI), else one CGI request on stdin/stdout/environ.
 * Returns the exit status: 0 once the web server is gone (FastCGI) or the
 * request answered (CGI).
 */
int loop_main(void);

#endif /* GPT_LOOP_H */
