/*
 * task.h: long-running acts in the responder: the act that becomes a
 * task (202), the task resource (GET, HEAD, DELETE, an event stream),
 * and Idempotency-Key on every act (idem.h).
 *
 * The protocol (gpt-address(5) "Long-running acts", README):
 *
 *   POST an act at an address with `act = task` (or `act = either` and
 *   `Prefer: respond-async`): once the act is valid and its task stored
 *   durably, 202 Accepted, Location: <the address's URL>?task=ID,
 *   Retry-After: task_poll, and the task's document as the body.
 *
 *   GET <Location>: 200 with the document (ETag; If-None-Match 304;
 *   Cache-Control: no-cache); with Accept: text/event-stream, events
 *   "task" carrying the document at each change until a final status,
 *   ": heartbeat" comments every TASK_HEARTBEAT_S, for task_stream
 *   seconds at most.
 *
 *   DELETE <Location>: cancels a working task (its hook's whole tree
 *   ends): 200 and the document once cancelled, 202 if it is still
 *   ending after TASK_CANCEL_WAIT_MS; 409 and the document when the task
 *   had already ended.
 *
 *   An unknown, expired or malformed id: 404, by one path of equal work
 *   (a lookup of a decoy record when there is no record).  Other
 *   methods at a task: 405, Allow: GET, HEAD, DELETE.
 *
 * The runner is runner.h's; the records are taskrec.h's in store.h's
 * directory.  Owns nothing past a call.
 */
#ifndef GPT_TASK_H
#define GPT_TASK_H

#include "site/address.h"
#include "web/http.h"

/* Between heartbeats of an event stream, and between its looks at the
 * record. */
#define TASK_HEARTBEAT_S 15
#define TASK_STREAM_TICK_MS 100
/* DELETE waits this long for the runner to end the hook. */
#define TASK_CANCEL_WAIT_MS 3000

/* An accepted act, as the responder's flow has it. */
struct task_act_in {
	char *const *envp;          /* borrowed: the request's variables */
	const struct http_req *req; /* borrowed */
	const struct addr *a;       /* borrowed */
	const char *body;           /* borrowed: the act's bytes */
	size_t body_len;
};

/* How the responder answers an accepted act itself (runs the hook),
 * writing to out. */
typedef int (*task_answer_fn)(
    void *ctx, struct http_writer *out, enum http_outcome *o);

/*
 * Before the method's own flow, for a loaded address: answer the task
 * resource (QUERY_STRING "task=..."), or a POST whose Idempotency-Key is
 * malformed (400).  true when answered (*o and *rc set: rc 0, or -1 when
 * the client went away); false to go on with the form's flow.
 */
bool task_route(char *const *envp, struct http_writer *out,
    const struct http_req *req, const struct addr *a, enum http_outcome *o,
    int *rc);

/*
 * An accepted act: under its Idempotency-Key when it has one, as a task
 * when the address and the act ask for one, else answered by
 * answer(ctx, ...) (the hook, now).  0, or -1 when the client went away.
 */
int task_act(const struct task_act_in *in, struct http_writer *out,
    enum http_outcome *o, task_answer_fn answer, void *ctx);

#endif /* GPT_TASK_H */
