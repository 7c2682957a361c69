/*
 * check_http.c: CGI variables, Accept negotiation, ETag lists, the act's
 * Content-Type, the status map, and the bytes of every kind of answer.
 */
#include <string.h>

#include "base/arena.h"
#include "base/buf.h"
#include "check_main.h"
#include "web/http.h"
#include "parser/jptr.h"
#include "parser/json.h"
#include "base/log.h"

/* --- http_parse_env --------------------------------------------------- */

START_TEST(http_parse_env_reads_the_request_variables)
{
	char *env[] = {"REQUEST_METHOD=POST", "HTTP_ACCEPT=text/html",
	    "HTTP_IF_NONE_MATCH=\"a\"", "HTTP_IF_MATCH=*",
	    "CONTENT_TYPE=application/json", "HTTP_GPT_ACTOR=model-x",
	    "REMOTE_ADDR=127.0.0.1", "PATH_INFO=/echo", "REQUEST_URI=/g/echo",
	    "SCRIPT_FILENAME=/srv/gpt.fcgi", "CONTENT_LENGTH=42",
	    "GPT_ROOT=/srv/addresses", NULL};
	struct http_req r;

	http_parse_env(env, NULL, &r);
	ck_assert_int_eq(r.method, HTTP_M_POST);
	ck_assert_str_eq(r.method_name, "POST");
	ck_assert_str_eq(r.accept, "text/html");
	ck_assert_str_eq(r.if_none_match, "\"a\"");
	ck_assert_str_eq(r.if_match, "*");
	ck_assert_str_eq(r.content_type, "application/json");
	ck_assert_str_eq(r.actor, "model-x");
	ck_assert_str_eq(r.remote_addr, "127.0.0.1");
	ck_assert_str_eq(r.path_info, "/echo");
	ck_assert_str_eq(r.request_uri, "/g/echo");
	ck_assert_str_eq(r.script_filename, "/srv/gpt.fcgi");
	ck_assert_str_eq(r.gpt_root, "/srv/addresses");
	ck_assert_ptr_null(r.gpt_address);
	ck_assert(r.has_length && !r.bad_length);
	ck_assert_uint_eq(r.content_length, 42);
}
END_TEST

START_TEST(http_parse_env_maps_methods)
{
	static const struct {
		const char *var;
		enum http_method m;
	} cases[] = {
	    {"REQUEST_METHOD=GET", HTTP_M_GET},
	    {"REQUEST_METHOD=HEAD", HTTP_M_HEAD},
	    {"REQUEST_METHOD=POST", HTTP_M_POST},
	    {"REQUEST_METHOD=PUT", HTTP_M_OTHER},
	    {"REQUEST_METHOD=get", HTTP_M_OTHER},
	    {"REQUEST_METHOD=", HTTP_M_OTHER},
	    {"NOT_A_METHOD=GET", HTTP_M_OTHER},
	};
	size_t i;

	for (i = 0; i < GPT_ARRAY_LEN(cases); i++) {
		char *env[] = {(char *)(uintptr_t)cases[i].var, NULL};
		struct http_req r;

		http_parse_env(env, NULL, &r);
		ck_assert_msg(r.method == cases[i].m, "%s gave %d",
		    cases[i].var, (int)r.method);
	}
}
END_TEST

/* Names are whole: a longer or shorter name, or a bare entry, is not one
 * of ours; the first of two entries with one name wins (as http_getenv). */
START_TEST(http_parse_env_matches_whole_names_and_keeps_the_first)
{
	char *env[] = {"PATH_INFOX=/wrong", "PATH_INF=/wrong", "PATH_INFO",
	    "HTTP_ACCEPT_LANGUAGE=de", "HTTP_IF_MATCH_X=\"no\"",
	    "CONTENT_LENGTH=7", "PATH_INFO=/right", "PATH_INFO=/second",
	    "HTTP_ACCEPT=text/html", "HTTP_ACCEPT=application/json",
	    "CONTENT_LENGTH=x", "=/empty-name", NULL};
	struct http_req r;

	http_parse_env(env, NULL, &r);
	ck_assert_str_eq(r.path_info, "/right");
	ck_assert_str_eq(r.accept, "text/html");
	ck_assert_ptr_null(r.if_match);
	ck_assert_ptr_null(r.method_name);
	ck_assert_int_eq(r.method, HTTP_M_OTHER);
	ck_assert(r.has_length && !r.bad_length);
	ck_assert_uint_eq(r.content_length, 7);
	ck_assert_str_eq(http_getenv(env, "PATH_INFO"), r.path_info);
}
END_TEST

START_TEST(http_parse_env_takes_gpt_variables_from_the_fallback)
{
	char *env[] = {"REQUEST_METHOD=GET", "PATH_INFO=/a", NULL};
	char *proc[] = {"GPT_ADDRESS=/srv/one", "GPT_ROOT=/srv/root",
	    "PATH_INFO=/from-process", "HTTP_GPT_ACTOR=forged", NULL};
	char *env2[] = {"GPT_ADDRESS=/srv/two", NULL};
	struct http_req r;

	http_parse_env(env, proc, &r);
	ck_assert_str_eq(r.gpt_address, "/srv/one");
	ck_assert_str_eq(r.gpt_root, "/srv/root");
	ck_assert_str_eq(r.path_info, "/a");
	ck_assert_ptr_null(r.actor);
	http_parse_env(env2, proc, &r);
	ck_assert_str_eq(r.gpt_address, "/srv/two");
	ck_assert_ptr_null(r.path_info);
}
END_TEST

START_TEST(http_parse_env_checks_content_length)
{
	static const struct {
		const char *var;
		bool has, bad;
		size_t len;
	} cases[] = {
	    {"CONTENT_LENGTH=0", true, false, 0},
	    {"CONTENT_LENGTH=1048576", true, false, 1048576},
	    {"CONTENT_LENGTH=", false, false, 0},
	    {"CONTENT_LENGTH=12a", true, true, 0},
	    {"CONTENT_LENGTH=-1", true, true, 0},
	    {"CONTENT_LENGTH= 5", true, true, 0},
	    {"CONTENT_LENGTH=1e3", true, true, 0},
	    {"CONTENT_LENGTH=999999999999999999999999999", true, true, 0},
	    {"OTHER=1", false, false, 0},
	};
	size_t i;

	for (i = 0; i < GPT_ARRAY_LEN(cases); i++) {
		char *env[] = {(char *)(uintptr_t)cases[i].var, NULL};
		struct http_req r;

		http_parse_env(env, NULL, &r);
		ck_assert_msg(r.has_length == cases[i].has &&
		                  r.bad_length == cases[i].bad &&
		                  r.content_length == cases[i].len,
		    "%s: has %d bad %d len %zu", cases[i].var, r.has_length,
		    r.bad_length, r.content_length);
	}
}
END_TEST

/* --- http_wants_html -------------------------------------------------- */

static void
expect_html(const char *accept)
{
	ck_assert_msg(
	    http_wants_html(accept), "Accept \"%s\" chose JSON", accept);
}

static void
expect_json(const char *accept)
{
	ck_assert_msg(!http_wants_html(accept), "Accept \"%s\" chose HTML",
	    accept != NULL ? accept : "(none)");
}

START_TEST(http_wants_html_follows_the_documented_rule)
{
	static const char *const html[] = {
	    "text/html",
	    "TEXT/HTML",
	    "text/html;q=0.1",
	    "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
	    "text/html, application/json;q=0.9",
	    "application/json;q=0.5, text/html;q=0.6",
	    "text/html;level=1;q=1.0, */*",
	    "text/html ; q=1 , */*;q=0.1",
	    "text/html, application/*",
	    "text/html;q=\"0.5\"x, text/html",
	};
	static const char *const json[] = {
	    "",
	    "*/*",
	    "application/json",
	    "text/*",
	    "text/*, */*",
	    "text/plain",
	    "text/html;q=0",
	    "text/html;q=0.000",
	    "text/html;q=0, */*",
	    "application/json, text/html",
	    "text/html;q=0.5, application/json",
	    "text/html;q=0.5, */*",
	    "application/json;q=0.9, text/html;q=0.8",
	    "text/htmlx",
	    "text/html;q=2",
	    "text/html;q=0.1234",
	    "text/html;q",
	    "text/html foo",
	    "html",
	    "/html",
	    ",,,",
	};
	size_t i;

	expect_json(NULL);
	for (i = 0; i < GPT_ARRAY_LEN(html); i++)
		expect_html(html[i]);
	for (i = 0; i < GPT_ARRAY_LEN(json); i++)
		expect_json(json[i]);
}
END_TEST

/* --- http_etag_match -------------------------------------------------- */

static void
expect_match(const char *list, bool weak)
{
	ck_assert_msg(http_etag_match(list, "\"abc\"", weak),
	    "\"%s\" (%s) did not match \"abc\"", list,
	    weak ? "weak" : "strong");
}

static void
expect_match_fail(const char *list, bool weak)
{
	ck_assert_msg(!http_etag_match(list, "\"abc\"", weak),
	    "\"%s\" (%s) matched \"abc\"", list != NULL ? list : "(none)",
	    weak ? "weak" : "strong");
}

START_TEST(http_etag_match_follows_rfc_9110)
{
	static const char *const both[] = {
	    "\"abc\"",
	    "*",
	    " * ",
	    "\"x\", \"abc\"",
	    "\"x\",\"abc\" ",
	    ", \"abc\"",
	};
	static const char *const weak_only[] = {
	    "W/\"abc\"",
	    "\"x\", W/\"abc\"",
	};
	static const char *const neither[] = {
	    "",
	    "\"ab\"",
	    "\"abcd\"",
	    "abc",
	    "W/abc",
	    "\"abc",
	    "w/\"abc\"",
	    "\"x\" \"abc\"",
	    "junk, \"abc\"",
	    "*, \"x\"",
	    "\"ABC\"",
	};
	size_t i;

	expect_match_fail(NULL, true);
	for (i = 0; i < GPT_ARRAY_LEN(both); i++) {
		expect_match(both[i], true);
		expect_match(both[i], false);
	}
	for (i = 0; i < GPT_ARRAY_LEN(weak_only); i++) {
		expect_match(weak_only[i], true);
		expect_match_fail(weak_only[i], false);
	}
	for (i = 0; i < GPT_ARRAY_LEN(neither); i++) {
		expect_match_fail(neither[i], true);
		expect_match_fail(neither[i], false);
	}
}
END_TEST

/* --- http_is_json_type ------------------------------------------------ */

START_TEST(http_is_json_type_accepts_only_json_in_utf8)
{
	static const char *const yes[] = {
	    "application/json",
	    "Application/JSON",
	    "application/json; charset=utf-8",
	    "application/json;charset=UTF-8",
	    "application/json ; Charset=\"utf-8\"",
	    "application/json;",
	    " application/json ",
	};
	static const char *const no[] = {
	    "",
	    "text/plain",
	    "application/x-www-form-urlencoded",
	    "multipart/form-data; boundary=x",
	    "application/jsonx",
	    "application/json-patch+json",
	    "application/ld+json",
	    "application/json; charset=latin1",
	    "application/json; charset=utf-16",
	    "application/json; charset=\"utf-8",
	    "application/json; charset=",
	    "application/json; version=1",
	    "application/json; charset=utf-8; charset=utf-8",
	    "application/json; charset=utf-8; x=y",
	    "application/json x",
	    "application / json",
	    "application",
	};
	size_t i;

	ck_assert(!http_is_json_type(NULL));
	for (i = 0; i < GPT_ARRAY_LEN(yes); i++)
		ck_assert_msg(
		    http_is_json_type(yes[i]), "refused \"%s\"", yes[i]);
	for (i = 0; i < GPT_ARRAY_LEN(no); i++)
		ck_assert_msg(
		    !http_is_json_type(no[i]), "accepted \"%s\"", no[i]);
}
END_TEST

/* --- http_status ------------------------------------------------------ */

START_TEST(http_status_maps_every_outcome)
{
	static const struct {
		enum http_outcome o;
		int status;
	} cases[] = {
	    {HTTP_O_ARRIVAL, 200},
	    {HTTP_O_NOT_MODIFIED, 304},
	    {HTTP_O_REJECTED, 204},
	    {HTTP_O_EXPLAINED, 422},
	    {HTTP_O_PRECONDITION, 412},
	    {HTTP_O_METHOD, 405},
	    {HTTP_O_NO_ADDRESS, 404},
	    {HTTP_O_SERVER, 500},
	    {HTTP_O_HOOK_OK, 200},
	    {HTTP_O_HOOK_FAILED, 502},
	    {HTTP_O_HOOK_TIMEOUT, 504},
	};
	size_t i;

	for (i = 0; i < GPT_ARRAY_LEN(cases); i++) {
		ck_assert_int_eq(http_status(cases[i].o), cases[i].status);
		ck_assert_str_ne(http_status_text(cases[i].status), "");
	}
	ck_assert_str_eq(http_status_text(422), "Unprocessable Content");
}
END_TEST

/* --- writers ---------------------------------------------------------- */

static void
expect_reply(enum http_outcome o, const char *want)
{
	struct http_writer w;
	struct buf b;

	buf_init(&b, 4096);
	http_writer_buf(&w, &b);
	ck_assert_int_eq(http_reply(&w, o), 0);
	ck_assert_msg(buf_len(&b) == strlen(want) &&
	                  memcmp(buf_ptr(&b), want, buf_len(&b)) == 0,
	    "outcome %d wrote \"%s\", expected \"%s\"", (int)o, buf_ptr(&b),
	    want);
	buf_free(&b);
}

START_TEST(http_reply_writes_answers_without_body)
{
	expect_reply(HTTP_O_REJECTED, "Status: 204 No Content\r\n\r\n");
	expect_reply(HTTP_O_METHOD, "Status: 405 Method Not Allowed\r\n"
	                            "Allow: GET, HEAD, POST\r\n"
	                            "Content-Length: 0\r\n\r\n");
	expect_reply(HTTP_O_NO_ADDRESS,
	    "Status: 404 Not Found\r\nContent-Length: 0\r\n\r\n");
	expect_reply(HTTP_O_PRECONDITION,
	    "Status: 412 Precondition Failed\r\nContent-Length: 0\r\n\r\n");
	expect_reply(HTTP_O_SERVER,
	    "Status: 500 Internal Server Error\r\nContent-Length: 0\r\n\r\n");
	expect_reply(HTTP_O_HOOK_FAILED,
	    "Status: 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n");
	expect_reply(HTTP_O_HOOK_TIMEOUT,
	    "Status: 504 Gateway Timeout\r\nContent-Length: 0\r\n\r\n");
}
END_TEST

START_TEST(http_reject_is_the_same_204_whatever_the_reason)
{
	static const struct http_rejection rs[] = {
	    {.reason = "larger than max_body"},
	    {.reason = "not strict JSON",
	        .detail = "trailing bytes",
	        .has_offset = true,
	        .offset = 3},
	    {.reason = "fails the form",
	        .detail = "too short",
	        .pointer = "/note",
	        .keyword = "minLength"},
	    {0},
	};
	enum http_outcome o;
	struct http_writer w;
	struct buf b;
	size_t i;

	buf_init(&b, 4096);
	http_writer_buf(&w, &b);
	for (i = 0; i < GPT_ARRAY_LEN(rs); i++) {
		buf_reset(&b);
		ck_assert_int_eq(
		    http_reject(&w, &rs[i], "actor\nforged", false, &o), 0);
		ck_assert_str_eq(buf_ptr(&b), "Status: 204 No Content\r\n\r\n");
		ck_assert_int_eq(o, HTTP_O_REJECTED);
	}
	buf_free(&b);
}
END_TEST

static void
capture_line(void *ctx, const char *line, size_t len)
{
	ck_assert_int_eq(buf_append(ctx, line, len), 0);
}

/* The one log line of a rejection names every known part, in order. */
START_TEST(http_reject_logs_one_line_with_the_reason)
{
	static const struct {
		struct http_rejection r;
		const char *actor;
		const char *line;
	} cases[] = {
	    {{.reason = "larger than max_body"}, NULL,
	        "gpt.fcgi: notice: act rejected: larger than max_body "
	        "(actor \"\")\n"},
	    {{.reason = "not strict JSON",
	         .detail = "bytes after the value",
	         .has_offset = true,
	         .offset = 1234567},
	        "a",
	        "gpt.fcgi: notice: act rejected: not strict JSON: at byte "
	        "1234567: bytes after the value (actor \"a\")\n"},
	    {{.reason = "not strict JSON", .has_offset = true, .offset = 0},
	        "b",
	        "gpt.fcgi: notice: act rejected: not strict JSON: at byte 0 "
	        "(actor \"b\")\n"},
	    {{.reason = "fails the form",
	         .detail = "too short",
	         .pointer = "/note",
	         .keyword = "minLength"},
	        "x\ny",
	        "gpt.fcgi: notice: act rejected: fails the form: at "
	        "\"/note\": minLength: too short (actor \"x?y\")\n"},
	    {{0}, NULL,
	        "gpt.fcgi: notice: act rejected: rejected (actor \"\")\n"},
	    {{.address = "/srv/gpt/guestbook", .reason = "fails the form"}, "c",
	        "gpt.fcgi: notice: act rejected at /srv/gpt/guestbook: fails "
	        "the form (actor \"c\")\n"},
	};
	enum http_outcome o;
	struct http_writer w;
	struct buf out, log;
	size_t i;

	buf_init(&out, 4096);
	buf_init(&log, 4096);
	http_writer_buf(&w, &out);
	log_set_sink(capture_line, &log);
	for (i = 0; i < GPT_ARRAY_LEN(cases); i++) {
		buf_reset(&log);
		ck_assert_int_eq(
		    http_reject(&w, &cases[i].r, cases[i].actor, false, &o), 0);
		ck_assert_msg(strcmp(buf_ptr(&log), cases[i].line) == 0,
		    "case %zu logged \"%s\", expected \"%s\"", i, buf_ptr(&log),
		    cases[i].line);
	}
	log_set_sink(NULL, NULL);
	buf_free(&out);
	buf_free(&log);
}
END_TEST

/*
 * The body of the answer in b (after the blank line), parsed with our own
 * strict parser into a: every explain body must pass it.
 */
static const struct json_value *
strict_body(const struct buf *b, struct arena *a)
{
	const struct json_value *v = NULL;
	const char *body;
	struct json_err e;

	ck_assert_uint_gt(buf_len(b), 0);
	body = strstr(buf_ptr(b), "\r\n\r\n");
	ck_assert_ptr_nonnull(body);
	body += 4;
	ck_assert_msg(json_parse(body, buf_len(b) - (size_t)(body - buf_ptr(b)),
	                  a, 0, &v, &e) == JSON_OK,
	    "explain body is not strict JSON (%s at %zu): %.300s", e.msg,
	    e.offset, body);
	ck_assert_int_eq(v->type, JSON_T_OBJECT);
	return v;
}

/* The string member name of the parsed body o, or NULL. */
static const struct json_string *
member_string(const struct json_value *o, const char *name)
{
	const struct json_value *m = json_object_get(o, name, strlen(name));

	if (m == NULL)
		return NULL;
	ck_assert_int_eq(m->type, JSON_T_STRING);
	return &m->u.str;
}

static void
expect_member(const struct json_value *o, const char *name, const char *want,
    size_t want_len)
{
	const struct json_string *s = member_string(o, name);

	ck_assert_msg(s != NULL, "no member %s", name);
	ck_assert_msg(s->len == want_len && memcmp(s->ptr, want, want_len) == 0,
	    "member %s is \"%.*s\" (%zu bytes), expected %zu bytes", name,
	    (int)s->len, s->ptr, s->len, want_len);
}

START_TEST(http_reject_explains_with_a_422_json_body)
{
	struct http_rejection r = {.reason = "fails the form",
	    .detail = "shorter than minLength",
	    .pointer = "/note",
	    .keyword = "minLength"};
	struct http_rejection p = {.reason = "not strict JSON",
	    .detail = "bytes after the value",
	    .has_offset = true,
	    .offset = 2};
	const struct json_value *v, *off;
	enum http_outcome o;
	struct http_writer w;
	struct arena a;
	struct buf b;

	arena_init(&a, (size_t)1 << 20);
	buf_init(&b, 16384);
	http_writer_buf(&w, &b);
	ck_assert_int_eq(http_reject(&w, &r, NULL, true, &o), 0);
	ck_assert_int_eq(o, HTTP_O_EXPLAINED);
	ck_assert_ptr_nonnull(
	    strstr(buf_ptr(&b), "Status: 422 Unprocessable Content\r\n"
	                        "Content-Type: application/json\r\n"));
	v = strict_body(&b, &a);
	expect_member(v, "error", "fails the form", 14);
	expect_member(v, "pointer", "/note", 5);
	expect_member(v, "keyword", "minLength", 9);
	ck_assert_ptr_null(json_object_get(v, "offset", 6));
	buf_reset(&b);
	ck_assert_int_eq(http_reject(&w, &p, "x", true, &o), 0);
	v = strict_body(&b, &a);
	off = json_object_get(v, "offset", 6);
	ck_assert_ptr_nonnull(off);
	ck_assert(off->u.num.is_small_int && off->u.num.i == 2);
	ck_assert_ptr_null(json_object_get(v, "pointer", 7));
	buf_free(&b);
	arena_free(&a);
}
END_TEST

/*
 * A pointer is bytes of member names: any code point, U+0000 and control
 * characters included, and a bounded buffer may cut it inside a UTF-8
 * sequence.  The 422 body stays strict JSON and carries every whole
 * character: escaped where RFC 8259 asks, a cut sequence left out.
 */
/* A 422 body over HTTP_EXPLAIN_MAX cannot be built: the answer is a 500,
 * and the outcome says so (the caller's status comes from it). */
START_TEST(http_reject_answers_500_when_the_explanation_does_not_fit)
{
	static char detail[HTTP_EXPLAIN_MAX + 16];
	struct http_rejection r = {.reason = "fails the form"};
	enum http_outcome o;
	struct http_writer w;
	struct buf b;

	memset(detail, 'x', sizeof(detail) - 1);
	r.detail = detail;
	buf_init(&b, 4096);
	http_writer_buf(&w, &b);
	ck_assert_int_eq(http_reject(&w, &r, NULL, true, &o), 0);
	ck_assert_int_eq(o, HTTP_O_SERVER);
	ck_assert_str_eq(buf_ptr(&b),
	    "Status: 500 Internal Server Error\r\nContent-Length: 0\r\n\r\n");
	buf_free(&b);
}
END_TEST

START_TEST(http_reject_escapes_every_pointer_and_cuts_on_a_character)
{
	static const struct {
		const char *ptr;
		size_t len;
		const char *want; /* the pointer the body must give back */
		size_t want_len;
	} cases[] = {
	    {"/a\0b", 4, "/a\0b", 4},
	    {"/\0", 2, "/\0", 2},
	    {"/q\"b\\s", 6, "/q\"b\\s", 6},
	    {"/\x01\x1f\n\t\x7f", 6, "/\x01\x1f\n\t\x7f", 6},
	    {"/caf\xc3\xa9/\xe2\x82\xac/\xf0\x9f\x98\x80", 15,
	        "/caf\xc3\xa9/\xe2\x82\xac/\xf0\x9f\x98\x80", 15},
	    /* cut after two of the three bytes of U+20AC, then "..." */
	    {"/x\xe2\x82...", 7, "/x...", 5},
	    /* cut after the lead byte of a four-byte sequence */
	    {"/x\xf0...", 6, "/x...", 5},
	    {"/\x80\xbf", 3, "/", 1},
	};
	struct http_rejection r = {
	    .reason = "fails the form", .keyword = "const"};
	enum http_outcome o;
	struct http_writer w;
	struct arena a;
	struct buf b;
	size_t i;

	arena_init(&a, (size_t)1 << 20);
	buf_init(&b, 16384);
	http_writer_buf(&w, &b);
	for (i = 0; i < GPT_ARRAY_LEN(cases); i++) {
		buf_reset(&b);
		r.pointer = cases[i].ptr;
		r.pointer_len = cases[i].len;
		ck_assert_int_eq(http_reject(&w, &r, NULL, true, &o), 0);
		expect_member(strict_body(&b, &a), "pointer", cases[i].want,
		    cases[i].want_len);
	}
	buf_free(&b);
	arena_free(&a);
}
END_TEST

/* The longest pointer jptr builds, made of three-byte characters that
 * JPTR_MAX cuts in the middle of one, gives a strict body. */
START_TEST(http_reject_explains_a_cut_jptr_pointer)
{
	char token[3 * 400];
	struct http_rejection r = {.reason = "fails the form"};
	const struct json_string *got;
	enum http_outcome o;
	struct http_writer w;
	struct jptr ptr;
	struct arena a;
	struct buf b;
	size_t i;

	for (i = 0; i < sizeof(token); i += 3)
		memcpy(token + i, "\xe2\x82\xac", 3);
	jptr_init(&ptr);
	jptr_push(&ptr, "a\0b", 3);
	jptr_push(&ptr, token, sizeof(token));
	ck_assert(ptr.truncated);
	arena_init(&a, (size_t)1 << 20);
	buf_init(&b, 16384);
	http_writer_buf(&w, &b);
	r.pointer = ptr.buf;
	r.pointer_len = ptr.len;
	ck_assert_int_eq(http_reject(&w, &r, NULL, true, &o), 0);
	got = member_string(strict_body(&b, &a), "pointer");
	ck_assert_ptr_nonnull(got);
	ck_assert_uint_ge(got->len, 5 + 3);
	ck_assert(memcmp(got->ptr, "/a\0b/", 5) == 0);
	ck_assert(memcmp(got->ptr + got->len - 3, "...", 3) == 0);
	ck_assert_uint_eq((got->len - 5 - 3) % 3, 0);
	buf_free(&b);
	arena_free(&a);
}
END_TEST

START_TEST(http_head_precondition_carries_the_current_etag)
{
	const struct json_value *v;
	struct arena a;
	struct buf b;

	arena_init(&a, (size_t)1 << 20);
	buf_init(&b, 16384);
	ck_assert_int_eq(http_head_precondition(&b, "\"e1\"", false), 0);
	ck_assert_str_eq(buf_ptr(&b), "Status: 412 Precondition Failed\r\n"
	                              "ETag: \"e1\"\r\n"
	                              "Content-Length: 0\r\n"
	                              "\r\n");
	buf_reset(&b);
	ck_assert_int_eq(http_head_precondition(&b, "\"e1\"", true), 0);
	ck_assert_ptr_nonnull(
	    strstr(buf_ptr(&b), "Status: 412 Precondition Failed\r\n"
	                        "ETag: \"e1\"\r\n"
	                        "Content-Type: application/json\r\n"));
	v = strict_body(&b, &a);
	expect_member(v, "etag", "\"e1\"", 4);
	ck_assert_ptr_nonnull(
	    strstr(member_string(v, "detail")->ptr, "the form changed"));
	buf_free(&b);
	arena_free(&a);
}
END_TEST

START_TEST(http_link_field_quotes_or_encodes_the_title)
{
	static const char cafe[] = "caf\xc3\xa9 \"x\"";
	struct buf b;

	buf_init(&b, 4096);
	ck_assert_int_eq(
	    http_link_field(&b, "close", 5, "related", 7, "Say \"no\" \\", 10),
	    0);
	ck_assert_str_eq(buf_ptr(&b), "Link: <close>; rel=\"related\"; "
	                              "title=\"Say \\\"no\\\" \\\\\"\r\n");
	buf_reset(&b);
	ck_assert_int_eq(http_link_field(&b, "", 0, "self", 4, NULL, 0), 0);
	ck_assert_str_eq(buf_ptr(&b), "Link: <>; rel=\"self\"\r\n");
	buf_reset(&b);
	/* not printable ASCII: RFC 8187, every byte outside attr-char
	 * percent-encoded, the quote and the space too */
	ck_assert_int_eq(http_link_field(&b, "https://e.org/", 14,
	                     "https://e.org/rel", 17, cafe, sizeof(cafe) - 1),
	    0);
	ck_assert_str_eq(buf_ptr(&b),
	    "Link: <https://e.org/>; rel=\"https://e.org/rel\"; "
	    "title*=UTF-8''caf%C3%A9%20%22x%22\r\n");
	buf_reset(&b);
	ck_assert_int_eq(http_head_ok(&b, "application/json", "\"e\"", 0, "",
	                     NULL, "Link: <x>; rel=\"next\"\r\n"),
	    0);
	ck_assert_ptr_nonnull(
	    strstr(buf_ptr(&b), "nosniff\r\nLink: <x>; rel=\"next\"\r\n\r\n"));
	buf_free(&b);
}
END_TEST

START_TEST(http_head_blocks_carry_the_documented_headers)
{
	struct buf b;

	buf_init(&b, 4096);
	ck_assert_int_eq(http_head_ok(&b, "application/json", "\"e\"", 12,
	                     "chat", NULL, NULL),
	    0);
	ck_assert_str_eq(buf_ptr(&b), "Status: 200 OK\r\n"
	                              "Content-Type: application/json\r\n"
	                              "Vary: Accept\r\n"
	                              "ETag: \"e\"\r\n"
	                              "Content-Length: 12\r\n"
	                              "X-Content-Type-Options: nosniff\r\n"
	                              "GPT-Type: chat\r\n"
	                              "\r\n");
	buf_reset(&b);
	ck_assert_int_eq(http_head_ok(&b, "text/html; charset=utf-8", "\"h\"",
	                     0, "", "default-src 'none'", NULL),
	    0);
	ck_assert_ptr_null(strstr(buf_ptr(&b), "GPT-Type"));
	ck_assert_ptr_nonnull(strstr(buf_ptr(&b), "Content-Length: 0\r\n"));
	ck_assert_ptr_nonnull(strstr(buf_ptr(&b),
	    "\r\nContent-Security-Policy: default-src 'none'\r\n\r\n"));
	buf_reset(&b);
	ck_assert_int_eq(http_head_not_modified(&b, "\"e\""), 0);
	ck_assert_str_eq(buf_ptr(&b), "Status: 304 Not Modified\r\n"
	                              "ETag: \"e\"\r\n"
	                              "Vary: Accept\r\n"
	                              "\r\n");
	buf_free(&b);
}
END_TEST

START_TEST(http_reply_json_sends_the_body_as_it_is)
{
	struct http_writer w;
	struct buf b;

	buf_init(&b, 4096);
	http_writer_buf(&w, &b);
	ck_assert_int_eq(http_reply_json(&w, "{ \"a\" : 1 }\n", 12), 0);
	ck_assert_str_eq(buf_ptr(&b), "Status: 200 OK\r\n"
	                              "Content-Type: application/json\r\n"
	                              "Content-Length: 12\r\n"
	                              "X-Content-Type-Options: nosniff\r\n"
	                              "\r\n"
	                              "{ \"a\" : 1 }\n");
	buf_free(&b);
}
END_TEST

START_TEST(http_writer_failure_is_reported)
{
	struct http_writer w;
	struct buf b;

	buf_init(&b, 10); /* too small for any answer */
	http_writer_buf(&w, &b);
	ck_assert_int_eq(http_reply(&w, HTTP_O_SERVER), -1);
	ck_assert_int_eq(http_reply_json(&w, "{}", 2), -1);
	buf_free(&b);
}
END_TEST

START_TEST(http_etag_is_strong_stable_and_content_bound)
{
	char a[HTTP_ETAG_MAX], b[HTTP_ETAG_MAX], c[HTTP_ETAG_MAX];

	http_etag("{\"p\":\"x\"}", 9, a);
	http_etag("{\"p\":\"x\"}", 9, b);
	http_etag("{\"p\":\"y\"}", 9, c);
	ck_assert_uint_eq(strlen(a), 34);
	ck_assert_int_eq(a[0], '"');
	ck_assert_int_eq(a[33], '"');
	ck_assert_str_eq(a, b);
	ck_assert_str_ne(a, c);
	http_etag("", 0, c);
	ck_assert_str_ne(a, c);
	ck_assert(http_etag_match(a, a, false));
}
END_TEST

static Suite *
suite_http(void)
{
	Suite *s = suite_create("http");
	TCase *tc;

	tc = tcase_create("http_parse_env");
	tcase_add_test(tc, http_parse_env_reads_the_request_variables);
	tcase_add_test(tc, http_parse_env_maps_methods);
	tcase_add_test(
	    tc, http_parse_env_matches_whole_names_and_keeps_the_first);
	tcase_add_test(
	    tc, http_parse_env_takes_gpt_variables_from_the_fallback);
	tcase_add_test(tc, http_parse_env_checks_content_length);
	suite_add_tcase(s, tc);
	tc = tcase_create("http_wants_html");
	tcase_add_test(tc, http_wants_html_follows_the_documented_rule);
	suite_add_tcase(s, tc);
	tc = tcase_create("http_etag_match");
	tcase_add_test(tc, http_etag_match_follows_rfc_9110);
	suite_add_tcase(s, tc);
	tc = tcase_create("http_is_json_type");
	tcase_add_test(tc, http_is_json_type_accepts_only_json_in_utf8);
	suite_add_tcase(s, tc);
	tc = tcase_create("http_status");
	tcase_add_test(tc, http_status_maps_every_outcome);
	suite_add_tcase(s, tc);
	tc = tcase_create("writers");
	tcase_add_test(tc, http_reply_writes_answers_without_body);
	tcase_add_test(tc, http_reject_is_the_same_204_whatever_the_reason);
	tcase_add_test(tc, http_reject_explains_with_a_422_json_body);
	tcase_add_test(
	    tc, http_reject_answers_500_when_the_explanation_does_not_fit);
	tcase_add_test(
	    tc, http_reject_escapes_every_pointer_and_cuts_on_a_character);
	tcase_add_test(tc, http_reject_explains_a_cut_jptr_pointer);
	tcase_add_test(tc, http_head_precondition_carries_the_current_etag);
	tcase_add_test(tc, http_reject_logs_one_line_with_the_reason);
	tcase_add_test(tc, http_head_blocks_carry_the_documented_headers);
	tcase_add_test(tc, http_reply_json_sends_the_body_as_it_is);
	tcase_add_test(tc, http_writer_failure_is_reported);
	tcase_add_test(tc, http_etag_is_strong_stable_and_content_bound);
	tcase_add_test(tc, http_link_field_quotes_or_encodes_the_title);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(suite_http)
