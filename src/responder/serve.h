/*
 * serve.h: the flow of one request, from CGI variables to the answer (the
 * loops that feed it requests are loop.h's).
 *
 * The flow (doc/protocol.md "Arrival", "Act"): resolve the address (404), the
 * address loads (500), the method (405); GET/HEAD write precomputed bytes;
 * POST checks size, Content-Type, If-Match (412), strict parse, the form,
 * then runs the hook (200, 502, 504).  Every body rejection goes through
 * http_reject, which alone picks 204 or 422; every status is http_status's
 * for the outcome serve_request reached.
 *
 * Memory, in the three lifetimes of the design: the process (the address
 * cache, address.h); the request (an arena reset after every request,
 * holding the parsed act and the validator's scratch, its cap derived
 * from max_body so that every body of at most max_body bytes that parses
 * is parsed and validated); the hook's output (an arena of its own, its
 * cap derived from hook_max_output, so that nothing the act used can make
 * the output fail after the hook's side effect happened).  The body and
 * the hook's output are buffers kept across requests but released when a
 * rare large one made them grow past SERVE_KEEP_MAX; the FastCGI answer
 * gathers in its connection's buffer (fcgi.h).
 */
#ifndef GPT_SERVE_H
#define GPT_SERVE_H

#include "base/arena.h"
#include "base/buf.h"
#include "base/common.h"
#include "web/http.h"

/*
 * The request arena's cap for an address (serve.c serve_arena_cap):
 *   ARENA_WORST_FACTOR * ((JSON_PARSE_BYTES_PER_INPUT_BYTE +
 *       SERVE_VALIDATE_BYTES_PER_INPUT_BYTE) * max_body +
 *       JSON_PARSE_BYTES_FIXED) + SERVE_ARENA_BASE,
 * 2 * 109 * max_body + 16 MiB: 234 MiB for the default 1 MiB.  A cap, not
 * a reservation: `[1,1,...]` of 1 MiB uses 64 MiB of it, a small act
 * one block.
 *
 * The validator's scratch per byte of the act (schema_validate.c): a
 * uniqueItems check over T <= L / 2 items takes a table of 32-bit slots
 * (fewer than 4 T) and a 64-bit hash per item: 24 T = 12 per byte, and
 * gives it back before the next check; nothing else it allocates grows
 * with the act.  What grows with the form instead (the seen-member
 * bitmaps of the objects open at once, a bit per property, 128 levels at
 * most) fits in SERVE_ARENA_BASE.
 */
#define SERVE_VALIDATE_BYTES_PER_INPUT_BYTE 12
#define SERVE_ARENA_BASE ((size_t)16 * 1024 * 1024)
/* A buffer that grew past this is freed after its request. */
#define SERVE_KEEP_MAX ((size_t)4 * 1024 * 1024)

/* Reads up to n bytes of the request body: count, 0 at the end, -1. */
typedef long (*serve_read_fn)(void *ctx, void *p, size_t n);

/* What one request needs from its transport (FastCGI or CGI). */
struct serve_io {
	char *const *envp;      /* borrowed: the request's variables */
	char *const *fallback;  /* borrowed: the process environment */
	serve_read_fn read;     /* the body */
	void *read_ctx;         /* borrowed */
	struct http_writer out; /* the answer */
	bool form_cache;        /* CGI: addresses through formcache.h */
};

/* State kept across the requests of one process. */
struct serve_state {
	struct arena req;  /* owned: reset after every request */
	struct arena hook; /* owned: the hook's parsed output; reset too */
	struct buf body;   /* owned: the act's bytes */
	struct buf output; /* owned: the hook's stdout */
};

void serve_state_init(struct serve_state *st);
void serve_state_free(struct serve_state *st);

/*
 * Answer one request.  Returns the status written (for logs and tests);
 * a client gone mid-answer is logged, never fatal.  Leaves st ready for
 * the next request.
 */
int serve_request(struct serve_io *io, struct serve_state *st);

#endif /* GPT_SERVE_H */
