/*
 * http.c: CGI variables in, CGI answers out; the only place that maps an
 * outcome to a status (http_status) and the only one that writes a status
 * line (http_status_line), for the answers built at load and per request.
 *
 * Owns nothing across calls.  Header values come from the client, so every
 * parser here walks a NUL-terminated string once, forward, with no
 * backtracking and no allocation; a malformed value is refused (Accept
 * ranges are skipped, an ETag list stops matching, a Content-Type
 * refuses).  The explain bodies (422, and 412 in explain mode) are written
 * here, every string escaped by json_write_string: a pointer may hold any
 * code point of a member name, U+0000 included, and may have been cut by
 * its bounded buffer in the middle of a UTF-8 sequence.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/buf.h"
#include "parser/json.h"
#include "web/http.h"
#include "base/log.h"
#include "base/num.h"
#include "base/utf8.h"

const char *
http_getenv(char *const *envp, const char *name)
{
	size_t n = strlen(name), i;

	if (envp == NULL)
		return NULL;
	/* bounded by the array's NULL; fcgi.c's envp and environ both end
	 * so */
	for (i = 0; envp[i] != NULL; i++)
		if (strncmp(envp[i], name, n) == 0 && envp[i][n] == '=')
			return envp[i] + n + 1;
	return NULL;
}

/* CONTENT_LENGTH: RFC 3875 section 4.1.2, 1*digit. */
static void
http_parse_length(const char *s, struct http_req *req)
{
	uint64_t v;

	req->has_length = s != NULL && *s != '\0';
	req->bad_length = false;
	req->content_length = 0;
	if (!req->has_length)
		return;
	/* hits on "12a", "-1", " 5", "1e3" */
	if (num_read_str(s, 0, SIZE_MAX, 0, &v) != NULL) {
		req->bad_length = true;
		return;
	}
	req->content_length = (size_t)v;
}

/*
 * Where the variable named e[0..n) goes in req (length, the CONTENT_LENGTH
 * text), or NULL when http_parse_env does not read it.  A switch on the
 * name's length, then the few names of that length: a web server sends
 * twenty or more variables, and most are settled by their length alone.
 */
static const char **
http_slot(struct http_req *req, const char **length, const char *e, size_t n)
{
#define HTTP_IS(lit) (memcmp(e, lit, sizeof(lit) - 1) == 0)
	switch (n) {
	case 8:
		return HTTP_IS("GPT_ROOT") ? &req->gpt_root : NULL;
	case 9:
		return HTTP_IS("PATH_INFO") ? &req->path_info : NULL;
	case 11:
		if (HTTP_IS("HTTP_ACCEPT"))
			return &req->accept;
		if (HTTP_IS("REMOTE_ADDR"))
			return &req->remote_addr;
		if (HTTP_IS("REQUEST_URI"))
			return &req->request_uri;
		if (HTTP_IS("HTTP_PREFER"))
			return &req->prefer;
		return HTTP_IS("GPT_ADDRESS") ? &req->gpt_address : NULL;
	case 12:
		if (HTTP_IS("CONTENT_TYPE"))
			return &req->content_type;
		return HTTP_IS("QUERY_STRING") ? &req->query_string : NULL;
	case 13:
		return HTTP_IS("HTTP_IF_MATCH") ? &req->if_match : NULL;
	case 14:
		if (HTTP_IS("REQUEST_METHOD"))
			return &req->method_name;
		if (HTTP_IS("CONTENT_LENGTH"))
			return length;
		return HTTP_IS("HTTP_GPT_ACTOR") ? &req->actor : NULL;
	case 15:
		return HTTP_IS("SCRIPT_FILENAME") ? &req->script_filename
		                                  : NULL;
	case 18:
		return HTTP_IS("HTTP_IF_NONE_MATCH") ? &req->if_none_match
		                                     : NULL;
	}
	return NULL;
#undef HTTP_IS
}

void
http_parse_env(char *const *envp, char *const *fallback, struct http_req *req)
{
	const char *m, *length = NULL;
	size_t i;

	memset(req, 0, sizeof(*req));
	/* One pass over the request's variables; the first entry of a name
	 * wins, as in http_getenv.  Bounded by the array's NULL. */
	for (i = 0; envp != NULL && envp[i] != NULL; i++) {
		const char *e = envp[i], *eq = strchr(e, '=');
		const char **slot;

		if (eq == NULL)
			continue; /* hits on an entry "NAME" alone */
		slot = http_slot(req, &length, e, (size_t)(eq - e));
		if (slot != NULL && *slot == NULL)
			*slot = eq + 1;
	}
	m = req->method_name;
	if (m == NULL)
		req->method = HTTP_M_OTHER;
	else if (strcmp(m, "GET") == 0)
		req->method = HTTP_M_GET;
	else if (strcmp(m, "HEAD") == 0)
		req->method = HTTP_M_HEAD;
	else if (strcmp(m, "POST") == 0)
		req->method = HTTP_M_POST;
	else
		req->method = HTTP_M_OTHER;
	if (req->gpt_address == NULL)
		req->gpt_address = http_getenv(fallback, "GPT_ADDRESS");
	if (req->gpt_root == NULL)
		req->gpt_root = http_getenv(fallback, "GPT_ROOT");
	http_parse_length(length, req);
}

/* --- small lexers over header values (RFC 9110 section 5.6) ---------- */

static bool
http_is_ows(char c)
{
	return c == ' ' || c == '\t';
}

static const char *
http_skip_ows(const char *p)
{
	while (http_is_ows(*p))
		p++;
	return p;
}

/* A token at p: its length (0 when none). */
static size_t
http_token(const char *p)
{
	size_t n = 0;

	while (gpt_is_tchar((unsigned char)p[n]))
		n++;
	return n;
}

/* A quoted-string at p (p[0] == '"'): its length with both quotes, 0 when
 * unterminated.  Escapes are skipped over, not decoded. */
static size_t
http_quoted(const char *p)
{
	size_t n = 1;

	for (;;) {
		if (p[n] == '\0')
			return 0; /* hits on `charset="utf-8` */
		if (p[n] == '\\') {
			if (p[n + 1] == '\0')
				return 0;
			n += 2;
			continue;
		}
		if (p[n] == '"')
			return n + 1;
		n++;
	}
}

static bool
http_token_is(const char *p, size_t n, const char *lit)
{
	return strlen(lit) == n && strncasecmp(p, lit, n) == 0;
}

/*
 * A q value ("1", "1.000", "0.5"): thousandths in *q.  -1 on a malformed
 * one (hits on "q=2", "q=0.1234", "q=.5").
 */
static int
http_qvalue(const char *p, size_t n, int *q)
{
	int v, scale = 100;
	size_t i;

	if (n == 0 || (p[0] != '0' && p[0] != '1'))
		return -1;
	v = (p[0] - '0') * 1000;
	if (n == 1) {
		*q = v;
		return 0;
	}
	if (p[1] != '.' || n > 5)
		return -1;
	for (i = 2; i < n; i++) {
		if (p[i] < '0' || p[i] > '9')
			return -1;
		v += (p[i] - '0') * scale;
		scale /= 10;
	}
	if (v > 1000)
		return -1; /* hits on "q=1.5" */
	*q = v;
	return 0;
}

/* Specificity of a media range for one type: 0 no match, 1 * / *,
 * 2 type / *, 3 type/subtype. */
static int
http_range_matches(const char *t, size_t tn, const char *s, size_t sn,
    const char *type, const char *sub)
{
	if (tn == 1 && t[0] == '*' && sn == 1 && s[0] == '*')
		return 1;
	if (!http_token_is(t, tn, type))
		return 0;
	if (sn == 1 && s[0] == '*')
		return 2;
	return http_token_is(s, sn, sub) ? 3 : 0;
}

bool
http_wants_html(const char *accept)
{
	int html_spec = 0, html_q = 0, json_spec = 0, json_q = 0;
	const char *p = accept;

	if (accept == NULL)
		return false;
	/* One pass over the ranges; each step consumes at least one byte. */
	while (*p != '\0') {
		const char *t, *s;
		size_t tn, sn;
		int q = 1000, hs, js;
		bool bad = false;

		p = http_skip_ows(p);
		if (*p == ',') {
			p++;
			continue;
		}
		t = p;
		tn = http_token(p);
		p += tn;
		s = p;
		sn = 0;
		if (tn > 0 && *p == '/') {
			s = ++p;
			sn = http_token(p);
			p += sn;
		}
		if (tn == 0 || sn == 0)
			bad = true; /* hits on "text", "/html", "{}" */
		for (;;) {
			const char *name;
			size_t nn, vn;

			p = http_skip_ows(p);
			if (*p != ';')
				break;
			p = http_skip_ows(p + 1);
			name = p;
			nn = http_token(p);
			p += nn;
			if (nn == 0 || *p != '=') {
				bad = true; /* hits on "text/html;q" */
				break;
			}
			p++;
			if (*p == '"') {
				if ((vn = http_quoted(p)) == 0) {
					bad = true;
					break;
				}
			} else
				vn = http_token(p);
			if (http_token_is(name, nn, "q") &&
			    http_qvalue(p, vn, &q) == -1)
				bad = true;
			p += vn;
		}
		p = http_skip_ows(p);
		if (*p != ',' && *p != '\0') {
			/* hits on "text/html foo": skip to the next range */
			bad = true;
			while (*p != ',' && *p != '\0')
				p++;
		}
		if (bad)
			continue;
		hs = http_range_matches(t, tn, s, sn, "text", "html");
		js = http_range_matches(t, tn, s, sn, "application", "json");
		/* The most specific range decides; among equals, the first. */
		if (hs > html_spec) {
			html_spec = hs;
			html_q = q;
		}
		if (js > json_spec) {
			json_spec = js;
			json_q = q;
		}
	}
	if (html_spec != 3 || html_q == 0)
		return false;
	if (html_q > json_q)
		return true;
	return html_q == json_q && json_spec != 3;
}

bool
http_etag_match(const char *list, const char *etag, bool weak)
{
	const char *p = list;
	size_t elen = strlen(etag);

	if (list == NULL)
		return false;
	p = http_skip_ows(p);
	if (*p == '*')
		return *http_skip_ows(p + 1) == '\0';
	while (*p != '\0') {
		bool is_weak = false;
		size_t n;

		p = http_skip_ows(p);
		if (*p == ',') {
			p++;
			continue;
		}
		if (*p == '\0')
			break;
		if (p[0] == 'W' && p[1] == '/') {
			is_weak = true;
			p += 2;
		}
		/* entity-tag = [ W/ ] DQUOTE *etagc DQUOTE; no escapes */
		if (*p != '"')
			return false; /* hits on `abc`, `W/abc` */
		n = 1;
		while (p[n] != '"' && p[n] != '\0')
			n++;
		if (p[n] != '"')
			return false; /* hits on `"abc` */
		n++;
		if ((weak || !is_weak) && n == elen && memcmp(p, etag, n) == 0)
			return true;
		p = http_skip_ows(p + n);
		if (*p != ',' && *p != '\0')
			return false; /* hits on `"a" "b"` */
	}
	return false;
}

bool
http_is_json_type(const char *ct)
{
	const char *p = ct;
	size_t n;
	bool charset = false;

	if (ct == NULL)
		return false; /* hits on a POST without Content-Type */
	p = http_skip_ows(p);
	n = http_token(p);
	if (!http_token_is(p, n, "application"))
		return false; /* hits on "text/plain" */
	p += n;
	if (*p++ != '/')
		return false;
	n = http_token(p);
	if (!http_token_is(p, n, "json"))
		return false; /* hits on "application/jsonx" */
	p += n;
	for (;;) {
		const char *name, *v;
		size_t nn, vn;

		p = http_skip_ows(p);
		if (*p == '\0')
			return true;
		if (*p != ';')
			return false; /* hits on "application/json x" */
		p = http_skip_ows(p + 1);
		if (*p == '\0')
			return true; /* "application/json;" is allowed */
		name = p;
		nn = http_token(p);
		p += nn;
		if (!http_token_is(name, nn, "charset") || *p != '=' || charset)
			return false; /* hits on "application/json; v=1" */
		charset = true;
		p++;
		if (*p == '"') {
			if ((vn = http_quoted(p)) == 0)
				return false;
			v = p + 1;
			n = vn - 2;
		} else {
			vn = http_token(p);
			v = p;
			n = vn;
		}
		if (!http_token_is(v, n, "utf-8"))
			return false; /* hits on "charset=latin1" */
		p += vn;
	}
}

/* --- statuses and answers --------------------------------------------- */

int
http_status(enum http_outcome o)
{
	switch (o) {
	case HTTP_O_ARRIVAL:
		return 200;
	case HTTP_O_NOT_MODIFIED:
		return 304;
	/* The draft: "On failure, the server SHOULD return 204 with no body".
	 */
	case HTTP_O_REJECTED:
		return 204;
	case HTTP_O_EXPLAINED:
		return 422;
	case HTTP_O_PRECONDITION:
		return 412;
	case HTTP_O_METHOD:
		return 405;
	case HTTP_O_NO_ADDRESS:
		return 404;
	case HTTP_O_SERVER:
		return 500;
	case HTTP_O_HOOK_OK:
		return 200;
	/* The hook is the upstream the gateway failed to get an answer from. */
	case HTTP_O_HOOK_FAILED:
		return 502;
	case HTTP_O_HOOK_TIMEOUT:
		return 504;
	case HTTP_O_TASK_ACCEPTED:
		return 202;
	case HTTP_O_TASK:
		return 200;
	case HTTP_O_BAD_REQUEST:
		return 400;
	case HTTP_O_CONFLICT:
		return 409;
	case HTTP_O_KEY_REUSED:
		return 422;
	case HTTP_O_UNAVAILABLE:
		return 503;
	case HTTP_O_TASK_METHOD:
		return 405;
	}
	return 500;
}

const char *
http_status_text(int status)
{
	switch (status) {
	case 200:
		return "OK";
	case 202:
		return "Accepted";
	case 400:
		return "Bad Request";
	case 409:
		return "Conflict";
	case 503:
		return "Service Unavailable";
	case 204:
		return "No Content";
	case 304:
		return "Not Modified";
	case 404:
		return "Not Found";
	case 405:
		return "Method Not Allowed";
	case 412:
		return "Precondition Failed";
	case 422:
		return "Unprocessable Content";
	case 500:
		return "Internal Server Error";
	case 502:
		return "Bad Gateway";
	case 504:
		return "Gateway Timeout";
	}
	return "Internal Server Error";
}

/*
 * The one place a status is written: "Status: 204 No Content\r\n" for o
 * into line, its length returned.  Every answer, precomputed or not,
 * starts with it.
 */
static size_t
http_status_line(enum http_outcome o, char line[HTTP_STATUS_LINE_MAX])
{
	int status = http_status(o);
	int n = snprintf(line, HTTP_STATUS_LINE_MAX, "Status: %d %s\r\n",
	    status, http_status_text(status));

	/* the longest reason phrase fits: HTTP_STATUS_LINE_MAX is 64 */
	return n > 0 && n < HTTP_STATUS_LINE_MAX ? (size_t)n : 0;
}

/* Append the status line of o to out. */
static int
http_put_status(struct buf *out, enum http_outcome o)
{
	char line[HTTP_STATUS_LINE_MAX];
	size_t n = http_status_line(o, line);

	return n == 0 ? -1 : buf_append(out, line, n);
}

static int
http_buf_write(void *ctx, const void *p, size_t n)
{
	return buf_append(ctx, p, n);
}

void
http_writer_buf(struct http_writer *w, struct buf *b)
{
	w->write = http_buf_write;
	w->ctx = b;
	w->flush = NULL;
}

int
http_head_ok(struct buf *out, const char *ctype, const char *etag,
    size_t body_len, const char *gpt_type, const char *csp, const char *extra)
{
	if (http_put_status(out, HTTP_O_ARRIVAL) == -1 ||
	    buf_printf(out,
	        "Content-Type: %s\r\n"
	        "Vary: Accept\r\n"
	        "ETag: %s\r\n"
	        "Content-Length: %zu\r\n"
	        "X-Content-Type-Options: nosniff\r\n",
	        ctype, etag, body_len) == -1)
		return -1;
	if (gpt_type != NULL && *gpt_type != '\0' &&
	    buf_printf(out, "GPT-Type: %s\r\n", gpt_type) == -1)
		return -1;
	if (csp != NULL &&
	    buf_printf(out, "Content-Security-Policy: %s\r\n", csp) == -1)
		return -1;
	if (extra != NULL && buf_puts(out, extra) == -1)
		return -1;
	return buf_puts(out, "\r\n");
}

/* RFC 8187's attr-char: ALPHA / DIGIT / "!#$&+-.^_`|~" */
static bool
http_attr_char(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || strchr("!#$&+-.^_`|~", c) != NULL;
}

int
http_link_field(struct buf *out, const char *href, size_t href_len,
    const char *rel, size_t rel_len, const char *title, size_t title_len)
{
	bool plain = true;
	size_t i;

	if (buf_printf(out, "Link: <%.*s>; rel=\"%.*s\"", (int)href_len, href,
	        (int)rel_len, rel) == -1)
		return -1;
	if (title_len == 0)
		return buf_puts(out, "\r\n");
	for (i = 0; i < title_len; i++)
		if ((unsigned char)title[i] < 0x20 ||
		    (unsigned char)title[i] > 0x7e)
			plain = false;
	if (plain) {
		if (buf_puts(out, "; title=\"") == -1)
			return -1;
		/* bounded by title_len; '"' and '\\' as quoted-pairs */
		for (i = 0; i < title_len; i++)
			if (((title[i] == '"' || title[i] == '\\') &&
			        buf_putc(out, '\\') == -1) ||
			    buf_putc(out, title[i]) == -1)
				return -1;
		return buf_puts(out, "\"\r\n");
	}
	if (buf_puts(out, "; title*=UTF-8''") == -1)
		return -1;
	for (i = 0; i < title_len; i++) {
		unsigned char c = (unsigned char)title[i];

		if ((c != '\0' && http_attr_char(c)
		            ? buf_putc(out, (char)c)
		            : buf_printf(out, "%%%02X", c)) == -1)
			return -1;
	}
	return buf_puts(out, "\r\n");
}

int
http_head_not_modified(struct buf *out, const char *etag)
{
	if (http_put_status(out, HTTP_O_NOT_MODIFIED) == -1)
		return -1;
	return buf_printf(out,
	    "ETag: %s\r\n"
	    "Vary: Accept\r\n"
	    "\r\n",
	    etag);
}

int
http_reply(struct http_writer *w, enum http_outcome o)
{
	char head[HTTP_STATUS_LINE_MAX + 64];
	size_t n = http_status_line(o, head);

	if (n == 0)
		return -1;
	/* RFC 9110 section 15.3.5: a 204 has no body and no Content-Length,
	 * so every rejection is the same few bytes. */
	if (o == HTTP_O_METHOD) {
		memcpy(head + n, "Allow: GET, HEAD, POST\r\n", 24);
		n += 24;
	}
	if (o != HTTP_O_REJECTED) {
		memcpy(head + n, "Content-Length: 0\r\n", 19);
		n += 19;
	}
	memcpy(head + n, "\r\n", 2);
	return w->write(w->ctx, head, n + 2);
}

int
http_reply_with(struct http_writer *w, enum http_outcome o, const char *extra,
    const char *ctype, const char *body, size_t len)
{
	char head[HTTP_STATUS_LINE_MAX + HTTP_EXTRA_MAX + 256];
	size_t k = http_status_line(o, head), ex;
	int n;

	ex = extra != NULL ? strlen(extra) : 0;
	if (k == 0 || ex > HTTP_EXTRA_MAX)
		return -1;
	memcpy(head + k, extra != NULL ? extra : "", ex);
	k += ex;
	if (ctype == NULL)
		n = snprintf(
		    head + k, sizeof(head) - k, "Content-Length: 0\r\n\r\n");
	else if (len == HTTP_STREAM)
		n = snprintf(head + k, sizeof(head) - k,
		    "Content-Type: %s\r\n"
		    "X-Content-Type-Options: nosniff\r\n"
		    "\r\n",
		    ctype);
	else
		n = snprintf(head + k, sizeof(head) - k,
		    "Content-Type: %s\r\n"
		    "Content-Length: %zu\r\n"
		    "X-Content-Type-Options: nosniff\r\n"
		    "\r\n",
		    ctype, len);
	if (n < 0 || (size_t)n >= sizeof(head) - k)
		return -1;
	if (w->write(w->ctx, head, k + (size_t)n) == -1)
		return -1;
	return ctype != NULL && len != HTTP_STREAM && len > 0
	           ? w->write(w->ctx, body, len)
	           : 0;
}

int
http_reply_json(struct http_writer *w, const char *body, size_t len)
{
	char head[HTTP_STATUS_LINE_MAX + 160];
	size_t k = http_status_line(HTTP_O_HOOK_OK, head);
	int n;

	if (k == 0)
		return -1;
	n = snprintf(head + k, sizeof(head) - k,
	    "Content-Type: application/json\r\n"
	    "Content-Length: %zu\r\n"
	    "X-Content-Type-Options: nosniff\r\n"
	    "\r\n",
	    len);
	if (n < 0 || (size_t)n >= sizeof(head) - k)
		return -1;
	if (w->write(w->ctx, head, k + (size_t)n) == -1)
		return -1;
	return len > 0 ? w->write(w->ctx, body, len) : 0;
}

/* Append ,"name":"value" (or {"name":... first). */
static int
http_json_member(struct buf *b, const char *name, const char *v, size_t n)
{
	if (buf_putc(b, buf_len(b) == 0 ? '{' : ',') == -1 ||
	    json_write_string(b, name, strlen(name)) == -1 ||
	    buf_putc(b, ':') == -1)
		return -1;
	return json_write_string(b, v, n);
}

/* The 422 body: {"error", "detail", "pointer", "keyword", "offset"}. */
static int
http_explain_body(const struct http_rejection *r, struct buf *b)
{
	const char *reason = r->reason != NULL ? r->reason : "rejected";

	if (http_json_member(b, "error", reason, strlen(reason)) == -1)
		return -1;
	if (r->detail != NULL &&
	    http_json_member(b, "detail", r->detail, strlen(r->detail)) == -1)
		return -1;
	if (r->pointer != NULL &&
	    http_json_member(b, "pointer", r->pointer,
	        r->pointer_len > 0 ? r->pointer_len : strlen(r->pointer)) == -1)
		return -1;
	if (r->keyword != NULL && http_json_member(b, "keyword", r->keyword,
	                              strlen(r->keyword)) == -1)
		return -1;
	if (r->has_offset && buf_printf(b, ",\"offset\":%zu", r->offset) == -1)
		return -1;
	return buf_putc(b, '}');
}

/* Append s to the NUL-terminated line of *n bytes in cap; what does not
 * fit is dropped (log_ cuts lines at LOG_LINE_MAX anyway). */
static void
http_line_add(char *line, size_t cap, size_t *n, const char *s)
{
	size_t k = strlen(s);

	if (k > cap - 1 - *n)
		k = cap - 1 - *n;
	memcpy(line + *n, s, k);
	*n += k;
	line[*n] = '\0';
}

/* As http_line_add for k bytes that may hold NUL (a pointer): each
 * control byte shows as '?' (gpt_is_control, the mask log_ applies too),
 * and a UTF-8 sequence
 * cut by the pointer's buffer is left out (as in json_write_string). */
static void
http_line_add_n(char *line, size_t cap, size_t *n, const char *s, size_t k)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0, c;
	uint32_t cp;

	/* bounded by k: each pass consumes at least one byte */
	while (i < k && *n < cap - 1) {
		if (u[i] < 0x80) {
			line[(*n)++] = gpt_is_control(u[i]) ? '?' : (char)u[i];
			i++;
			continue;
		}
		if ((c = utf8_decode(u + i, k - i, &cp)) == 0) {
			i++;
			continue;
		}
		if (c > cap - 1 - *n)
			break;
		memcpy(line + *n, u + i, c);
		*n += c;
		i += c;
	}
	line[*n] = '\0';
}

/* The decimal digits of v. */
static void
http_line_add_size(char *line, size_t cap, size_t *n, size_t v)
{
	char digits[24];
	size_t i = sizeof(digits) - 1;

	digits[i] = '\0';
	do {
		digits[--i] = (char)('0' + v % 10);
		v /= 10;
	} while (v > 0 && i > 0);
	http_line_add(line, cap, n, digits + i);
}

int
http_reject(struct http_writer *w, const struct http_rejection *r,
    const char *actor, bool explain, enum http_outcome *o)
{
	char head[HTTP_STATUS_LINE_MAX + 160], line[LOG_LINE_MAX];
	struct buf body;
	size_t n = 0, k;
	int hn, rc = -1;

	/* The log line is assembled by copying, not formatted: a rejection
	 * costs its one line and the constant 204, nothing more. */
	line[0] = '\0';
	if (r->address != NULL) {
		http_line_add(line, sizeof(line), &n, " at ");
		http_line_add(line, sizeof(line), &n, r->address);
	}
	/* doc/internals.md "Error texts": the subject and its reason class,
	 * then the place as `at POINTER: KEYWORD: DETAIL` */
	http_line_add(line, sizeof(line), &n, ": ");
	http_line_add(
	    line, sizeof(line), &n, r->reason != NULL ? r->reason : "rejected");
	if (r->has_offset) {
		http_line_add(line, sizeof(line), &n, ": at byte ");
		http_line_add_size(line, sizeof(line), &n, r->offset);
	}
	if (r->pointer != NULL) {
		http_line_add(line, sizeof(line), &n, ": at \"");
		http_line_add_n(line, sizeof(line), &n, r->pointer,
		    r->pointer_len > 0 ? r->pointer_len : strlen(r->pointer));
		http_line_add(line, sizeof(line), &n, "\"");
	}
	if (r->keyword != NULL) {
		http_line_add(line, sizeof(line), &n, ": ");
		http_line_add(line, sizeof(line), &n, r->keyword);
	}
	if (r->detail != NULL) {
		http_line_add(line, sizeof(line), &n, ": ");
		http_line_add(line, sizeof(line), &n, r->detail);
	}
	http_line_add(line, sizeof(line), &n, " (actor \"");
	http_line_add(line, sizeof(line), &n, actor != NULL ? actor : "");
	http_line_add(line, sizeof(line), &n, "\")");
	log_reject("act rejected%s", line);
	/* doc/protocol.md "Act": the same 204 whatever the reason, or with
	 * failures = explain a 422 that names it */
	*o = explain ? HTTP_O_EXPLAINED : HTTP_O_REJECTED;
	if (!explain)
		return http_reply(w, HTTP_O_REJECTED);
	buf_init(&body, HTTP_EXPLAIN_MAX);
	if (http_explain_body(r, &body) == -1 ||
	    (k = http_status_line(HTTP_O_EXPLAINED, head)) == 0)
		goto fail;
	hn = snprintf(head + k, sizeof(head) - k,
	    "Content-Type: application/json\r\n"
	    "Content-Length: %zu\r\n"
	    "\r\n",
	    buf_len(&body));
	if (hn < 0 || (size_t)hn >= sizeof(head) - k)
		goto fail;
	if (w->write(w->ctx, head, k + (size_t)hn) == -1 ||
	    w->write(w->ctx, buf_ptr(&body), buf_len(&body)) == -1)
		goto done; /* the client left: nothing more to say */
	rc = 0;
	goto done;
fail:
	/* the 422 body could not be built: a 500 instead */
	*o = HTTP_O_SERVER;
	rc = http_reply(w, HTTP_O_SERVER);
done:
	buf_free(&body);
	return rc;
}

int
http_head_precondition(struct buf *out, const char *etag, bool explain)
{
	static const char what[] = "the form changed since this ETag: GET "
	                           "it again, then act on the new form";
	struct buf body;
	int rc = -1;

	if (!explain)
		return http_put_status(out, HTTP_O_PRECONDITION) == -1
		           ? -1
		           : buf_printf(out,
		                 "ETag: %s\r\n"
		                 "Content-Length: 0\r\n"
		                 "\r\n",
		                 etag);
	buf_init(&body, HTTP_EXPLAIN_MAX);
	if (http_json_member(&body, "error", "If-Match does not match",
	        sizeof("If-Match does not match") - 1) == -1 ||
	    http_json_member(&body, "detail", what, sizeof(what) - 1) == -1 ||
	    http_json_member(&body, "etag", etag, strlen(etag)) == -1 ||
	    buf_putc(&body, '}') == -1)
		goto done;
	if (http_put_status(out, HTTP_O_PRECONDITION) == -1 ||
	    buf_printf(out,
	        "ETag: %s\r\n"
	        "Content-Type: application/json\r\n"
	        "Content-Length: %zu\r\n"
	        "\r\n",
	        etag, buf_len(&body)) == -1 ||
	    buf_append(out, buf_ptr(&body), buf_len(&body)) == -1)
		goto done;
	rc = 0;
done:
	buf_free(&body);
	return rc;
}

void
http_etag(const void *p, size_t len, char out[HTTP_ETAG_MAX])
{
	const unsigned char *s = p;
	uint64_t a = 0xcbf29ce484222325ULL, b = 0x84222325cbf29ce4ULL;
	size_t i;

	/* FNV-1a forward, and a second FNV-1a with another basis over the
	 * bytes backward, then the length mixed into both. */
	for (i = 0; i < len; i++) {
		a = (a ^ s[i]) * 0x100000001b3ULL;
		b = (b ^ s[len - 1 - i]) * 0x100000001b3ULL;
	}
	a ^= (uint64_t)len;
	b = (b ^ (uint64_t)len) * 0x9e3779b97f4a7c15ULL;
	snprintf(out, HTTP_ETAG_MAX, "\"%016llx%016llx\"",
	    (unsigned long long)a, (unsigned long long)b);
}
