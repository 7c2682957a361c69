/*
 * http.h: the HTTP side of the responder, without libfcgi: CGI variables
 * to a request record, Accept negotiation, ETag lists, the act's
 * Content-Type, the CGI header blocks, the one place that maps an outcome
 * to a status (http_status) and the one that writes a status line (every
 * answer below starts with it).
 *
 * Everything here is pure (no I/O but the writer and one log line per
 * rejection), so the unit tests drive it with an envp array and a buf.
 * Answers are CGI responses ("Status: 204 No Content\r\n..."): the web
 * server turns them into HTTP (under FastCGI they travel in STDOUT
 * records, fcgi.h).
 */
#ifndef GPT_HTTP_H
#define GPT_HTTP_H

#include "base/common.h"

struct buf;

/* Bytes of a quoted ETag, NUL included: '"' + 32 hex digits + '"'. */
#define HTTP_ETAG_MAX 40

enum http_method {
	HTTP_M_GET,
	HTTP_M_HEAD,
	HTTP_M_POST,
	HTTP_M_OTHER, /* anything else, or REQUEST_METHOD missing: 405 */
};

/*
 * One request's CGI variables.  Every string is borrowed from the envp
 * given to http_parse_env (or the fallback), NULL when the variable is
 * absent.
 */
struct http_req {
	enum http_method method;
	const char *method_name;     /* REQUEST_METHOD */
	const char *accept;          /* HTTP_ACCEPT */
	const char *if_none_match;   /* HTTP_IF_NONE_MATCH */
	const char *if_match;        /* HTTP_IF_MATCH */
	const char *content_type;    /* CONTENT_TYPE */
	const char *actor;           /* HTTP_GPT_ACTOR */
	const char *remote_addr;     /* REMOTE_ADDR */
	const char *path_info;       /* PATH_INFO */
	const char *request_uri;     /* REQUEST_URI */
	const char *script_filename; /* SCRIPT_FILENAME */
	const char *gpt_address;     /* GPT_ADDRESS, request then fallback */
	const char *gpt_root;        /* GPT_ROOT, request then fallback */
	const char *query_string;    /* QUERY_STRING */
	const char *prefer;          /* HTTP_PREFER */
	bool has_length;             /* CONTENT_LENGTH present, not empty */
	bool bad_length;             /* ... but not a decimal that fits */
	size_t content_length;       /* valid when has_length && !bad_length */
};

/*
 * Fill *req from envp ("NAME=value" strings, NULL-terminated).  GPT_ADDRESS
 * and GPT_ROOT, when not in envp, are taken from fallback (the process
 * environment; may be NULL), so both a web server's fastcgi_param and
 * spawn-fcgi's environment work.  Request variables (PATH_INFO, ...) never
 * come from the fallback: they describe one request.  Never fails.
 */
void http_parse_env(
    char *const *envp, char *const *fallback, struct http_req *req);

/* The value of name in envp, or NULL. */
const char *http_getenv(char *const *envp, const char *name);

/*
 * Does this Accept header choose the human page?  RFC 9110 section 12.5.1:
 * each media range's q (default 1, q=0 excludes); a type takes the q of
 * the most specific range that matches it.  HTML is chosen when text/html
 * itself is named with q > 0 and its q is above application/json's, or
 * equal to it while application/json is not named (it then comes from
 * application/ * or * / *).  text/ * and * / * alone never choose HTML: the
 * draft gives the JSON to every request whose Accept does not include
 * text/html.  NULL (no Accept) chooses JSON.
 */
bool http_wants_html(const char *accept);

/*
 * Does the If-None-Match / If-Match value list match etag (a quoted strong
 * ETag, '"..."')?  "*" matches.  weak == true is RFC 9110's weak
 * comparison (W/ ignored on both sides; If-None-Match), false the strong
 * one (a W/ entry never matches; If-Match).  A malformed list matches
 * nothing from the first bad entry on.
 */
bool http_etag_match(const char *list, const char *etag, bool weak);

/*
 * Is this CONTENT_TYPE an act's?  "application/json", type and subtype
 * case-insensitive, with at most one parameter, charset=utf-8 (name and
 * value case-insensitive, value optionally quoted).  NULL, another type,
 * another charset or any other parameter refuses (doc/protocol.md "Act").
 */
bool http_is_json_type(const char *content_type);

/* Everything the responder can answer; http_status picks the status. */
enum http_outcome {
	HTTP_O_ARRIVAL,      /* GET/HEAD: the document or the page */
	HTTP_O_NOT_MODIFIED, /* If-None-Match matched */
	HTTP_O_REJECTED,     /* any body rejection (failures = silent) */
	HTTP_O_EXPLAINED,    /* any body rejection (failures = explain) */
	HTTP_O_PRECONDITION, /* If-Match did not match */
	HTTP_O_METHOD,       /* not GET, HEAD or POST */
	HTTP_O_NO_ADDRESS,   /* the request names no address */
	HTTP_O_SERVER,       /* the address does not load, out of memory */
	HTTP_O_HOOK_OK,      /* the hook answered */
	HTTP_O_HOOK_FAILED,  /* missing, not executable, exit, signal, output */
	HTTP_O_HOOK_TIMEOUT, /* the hook ran past hook_timeout */
	/* long-running acts and idempotency keys (task.h, idem.h) */
	HTTP_O_TASK_ACCEPTED, /* 202: the act became a task */
	HTTP_O_TASK,          /* 200: a task's document or event stream */
	HTTP_O_BAD_REQUEST,   /* 400: a malformed Idempotency-Key */
	HTTP_O_CONFLICT,      /* 409: key in use, DELETE of a final task */
	HTTP_O_KEY_REUSED,    /* 422: a key sent again with another body */
	HTTP_O_UNAVAILABLE,   /* 503: the store cannot take the act */
	HTTP_O_TASK_METHOD,   /* 405 at a task: Allow: GET, HEAD, DELETE */
};

/* The status for an outcome: 200 304 204 422 412 405 404 500 200 502 504,
 * then 202 200 400 409 422 503 405. */
int http_status(enum http_outcome o);

/* "OK", "No Content", ... for a status http_status can return. */
const char *http_status_text(int status);

/* Bytes of a status line, "Status: 504 Gateway Timeout\r\n" and a NUL. */
#define HTTP_STATUS_LINE_MAX 64

/* Where answers go: FastCGI records, stdout, or a buf in the tests. */
typedef int (*http_write_fn)(void *ctx, const void *p, size_t n);

struct http_writer {
	http_write_fn write; /* 0, or -1 when the client is gone */
	void *ctx;           /* borrowed */
	/* NULL when every write goes out at once (CGI); else sends what
	 * write gathered (FastCGI), for an event stream: 0 or -1 */
	int (*flush)(void *ctx);
};

/* Point w at b: every write appends to it. */
void http_writer_buf(struct http_writer *w, struct buf *b);

/*
 * Append to out the header block of a 200 with a body of body_len bytes:
 * Status, Content-Type ctype, Vary: Accept, ETag etag, Content-Length,
 * X-Content-Type-Options: nosniff, GPT-Type gpt_type (when not NULL nor
 * ""), Content-Security-Policy csp (when not NULL: the human page's, see
 * html_csp()), the header lines of extra (when not NULL: complete lines,
 * each ending in CRLF, such as http_link_field's), then the empty line.
 * Built once at load.  0, or -1 when out refuses (out then left as it was
 * or longer; discard it).
 */
int http_head_ok(struct buf *out, const char *ctype, const char *etag,
    size_t body_len, const char *gpt_type, const char *csp,
    const char *extra) GPT_MUSTCHECK;

/* The Link field lines of one answer stop short of this many bytes: a
 * header block must fit the web server's buffer for it (nginx's
 * fastcgi_buffer_size is 4 KiB by default).  The links left out are
 * still in the document. */
#define HTTP_LINK_FIELDS_MAX 3072

/*
 * Append one Link header field line (RFC 8288 section 3) to out:
 * `Link: <href>; rel="rel"` and, when title_len > 0, `; title="..."` (a
 * quoted-string, for printable ASCII) or `; title*=UTF-8''...` (RFC 8187,
 * percent-encoded, for anything else).  href must be a URI reference and
 * rel a relation type (links.h checks both at load).  0, or -1 as
 * http_head_ok.
 */
int http_link_field(struct buf *out, const char *href, size_t href_len,
    const char *rel, size_t rel_len, const char *title,
    size_t title_len) GPT_MUSTCHECK;

/* The 304 block for etag: Status, ETag, Vary: Accept.  As http_head_ok. */
int http_head_not_modified(struct buf *out, const char *etag) GPT_MUSTCHECK;

/*
 * Write an answer without a body for o: 204 (HTTP_O_REJECTED), 412, 405
 * (with Allow: GET, HEAD, POST), 404, 500, 502, 504.  The bytes depend on
 * o alone.  0, or -1 when the writer fails.
 */
int http_reply(struct http_writer *w, enum http_outcome o) GPT_MUSTCHECK;

/*
 * Write the answer for o with extra header lines (each ending in "\r\n";
 * NULL for none, at most HTTP_EXTRA_MAX bytes) and, when ctype is not
 * NULL, a body of len bytes of that type; len HTTP_STREAM means a body
 * that follows in later writes, without Content-Length (an event
 * stream).  Without ctype, Content-Length: 0.  0, or -1 when the writer
 * fails or extra is too long.
 */
#define HTTP_EXTRA_MAX ((size_t)1024)
#define HTTP_STREAM SIZE_MAX
int http_reply_with(struct http_writer *w, enum http_outcome o,
    const char *extra, const char *ctype, const char *body,
    size_t len) GPT_MUSTCHECK;

/* Write a 200 application/json answer with body as it is (hook output). */
int http_reply_json(
    struct http_writer *w, const char *body, size_t len) GPT_MUSTCHECK;

/* Why a body was rejected; strings borrowed, any may be NULL. */
struct http_rejection {
	const char *address; /* the address's directory, for the log line */
	const char *reason;  /* short English phrase: "not strict JSON" */
	const char *detail;  /* the parser's or validator's message */
	const char *pointer; /* JSON Pointer of the failing value */
	size_t pointer_len;  /* its bytes (a member name may hold U+0000);
	                        0: up to its NUL */
	const char *keyword; /* the failing keyword */
	bool has_offset;     /* a parse error: offset is its byte */
	size_t offset;
};

/* Bytes of an explain body (422, 412) at most: a pointer of JPTR_MAX
 * bytes escaped (6 per control byte) and the short phrases around it. */
#define HTTP_EXPLAIN_MAX ((size_t)8 * 1024)

/*
 * The one path of every body rejection (doc/protocol.md "Act"): log one
 * rejection line (log_reject: rate-limited, filtered by the address's
 * level) naming the address, the reason and the actor (log_ sanitizes
 * them), then answer.  explain ==
 * false: the same 204 whatever the reason.  explain == true: 422 with
 * {"error", "detail", "pointer", "keyword", "offset"} (those known),
 * every string valid UTF-8 escaped as RFC 8259 asks (a pointer cut by its
 * bounded buffer ends on a whole character); when that body cannot be
 * built, 500 instead.  *o is set to the outcome answered (HTTP_O_REJECTED,
 * HTTP_O_EXPLAINED or HTTP_O_SERVER): the choice is made here only.  0,
 * or -1 when the writer fails.
 */
int http_reject(struct http_writer *w, const struct http_rejection *r,
    const char *actor, bool explain, enum http_outcome *o) GPT_MUSTCHECK;

/*
 * Append to out the whole 412 answer for an If-Match that does not match
 * (doc/protocol.md "Act"): Status, the current ETag etag, and no body; with
 * explain, a JSON body {"error", "detail", "etag"} saying that the form
 * changed.  Built once at load.  0, or -1 as http_head_ok.
 */
int http_head_precondition(
    struct buf *out, const char *etag, bool explain) GPT_MUSTCHECK;

/*
 * A strong ETag for len bytes: '"' + 32 lowercase hex digits + '"' (two
 * independent 64-bit FNV-1a hashes), into out (HTTP_ETAG_MAX bytes).
 * Not a secret and not collision-proof against an attacker; the operator
 * writes the form.
 */
void http_etag(const void *p, size_t len, char out[HTTP_ETAG_MAX]);

#endif /* GPT_HTTP_H */
