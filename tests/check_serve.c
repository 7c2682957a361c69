/*
 * check_serve.c: the flow of one request (serve_request, src/responder/
 * serve.c), in process: the CGI variables and the body go in, the whole
 * answer comes out into a buf.  Each row is one request to one address
 * in a temporary root, in the order doc/protocol.md gives ("Arrival",
 * "Act"): the address (404), the method (405), the arrival (200, 304),
 * then for an act its size, Content-Type, If-Match, parse, form and hook.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/buf.h"
#include "check_main.h"
#include "responder/serve.h"

static const char form[] =
    "{\"p\": \"Leave a note.\", \"m\": [], \"s\": {\"type\": \"object\", "
    "\"additionalProperties\": false, \"required\": [\"note\"], "
    "\"properties\": {\"note\": {\"type\": \"string\", \"maxLength\": 8}}}}";

static char root[64];

static void
put(const char *rel, const char *text, mode_t mode)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	f = fopen(path, "w");
	ck_assert_msg(f != NULL, "cannot write %s", path);
	fputs(text, f);
	fclose(f);
	ck_assert_int_eq(chmod(path, mode), 0);
}

static void
setup(void)
{
	char path[256];

	umask(022);
	snprintf(root, sizeof(root), "/tmp/check_serve.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(root));
	ck_assert_int_eq(chmod(root, 0755), 0);
	snprintf(path, sizeof(path), "%s/note", root);
	ck_assert_int_eq(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/dev", root);
	ck_assert_int_eq(mkdir(path, 0755), 0);
	put("note/form.json", form, 0644);
	put("note/hook",
	    "#!/bin/sh\ncat >/dev/null\necho '{\"stored\": true}'\n", 0755);
	put("dev/form.json", form, 0644);
	put("dev/address.conf", "failures = explain\nmax_body = 64\n", 0644);
}

static void
teardown(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	ck_assert_int_eq(system(cmd), 0);
}

/* The body, read as a web server hands it over. */
struct body {
	const char *p;
	size_t len, at;
};

static long
body_read(void *ctx, void *p, size_t n)
{
	struct body *b = ctx;
	size_t k = b->len - b->at < n ? b->len - b->at : n;

	memcpy(p, b->p + b->at, k);
	b->at += k;
	return (long)k;
}

struct request {
	const char *method, *address, *ctype, *length, *if_match, *inm, *accept,
	    *body;
};

/* The whole answer to r, into out; the status it wrote. */
static int
answer(const struct request *r, struct buf *out)
{
	char vars[9][320], *env[10];
	struct serve_state st;
	struct serve_io io;
	struct body b = {r->body != NULL ? r->body : "", 0, 0};
	size_t n = 0;
	int status;

	b.len = strlen(b.p);
	snprintf(vars[n++], sizeof(vars[0]), "REQUEST_METHOD=%s", r->method);
	snprintf(vars[n++], sizeof(vars[0]), "GPT_ROOT=%s", root);
	snprintf(vars[n++], sizeof(vars[0]), "PATH_INFO=/%s", r->address);
	if (r->ctype != NULL)
		snprintf(
		    vars[n++], sizeof(vars[0]), "CONTENT_TYPE=%s", r->ctype);
	if (r->body != NULL || r->length != NULL)
		snprintf(vars[n++], sizeof(vars[0]), "CONTENT_LENGTH=%s",
		    r->length != NULL ? r->length : "");
	if (r->body != NULL && r->length == NULL)
		snprintf(
		    vars[n - 1], sizeof(vars[0]), "CONTENT_LENGTH=%zu", b.len);
	if (r->if_match != NULL)
		snprintf(vars[n++], sizeof(vars[0]), "HTTP_IF_MATCH=%s",
		    r->if_match);
	if (r->inm != NULL)
		snprintf(vars[n++], sizeof(vars[0]), "HTTP_IF_NONE_MATCH=%s",
		    r->inm);
	if (r->accept != NULL)
		snprintf(
		    vars[n++], sizeof(vars[0]), "HTTP_ACCEPT=%s", r->accept);
	for (size_t i = 0; i < n; i++)
		env[i] = vars[i];
	env[n] = NULL;
	memset(&io, 0, sizeof(io));
	io.envp = env;
	io.read = body_read;
	io.read_ctx = &b;
	http_writer_buf(&io.out, out);
	serve_state_init(&st);
	status = serve_request(&io, &st);
	serve_state_free(&st);
	ck_assert_int_eq(buf_putc(out, '\0'), 0);
	return status;
}

/* The ETag of the note address's arrival, quoted, into etag. */
static void
etag_of_note(char *etag, size_t cap)
{
	const struct request get = {.method = "GET", .address = "note"};
	struct buf out;
	const char *h, *e;

	buf_init(&out, 1 << 20);
	ck_assert_int_eq(answer(&get, &out), 200);
	h = strstr(buf_ptr(&out), "ETag: ");
	ck_assert_ptr_nonnull(h);
	h += 6;
	e = strstr(h, "\r\n");
	ck_assert_ptr_nonnull(e);
	ck_assert_uint_lt((size_t)(e - h), cap);
	memcpy(etag, h, (size_t)(e - h));
	etag[e - h] = '\0';
	buf_free(&out);
}

static const struct {
	struct request r;
	int status;      /* 500: any 5xx */
	const char *has; /* in the answer, or NULL */
} flows[] = {
    /* the address, then the method */
    {{"GET", "none", 0, 0, 0, 0, 0, 0}, 404, NULL},
    {{"GET", "..", 0, 0, 0, 0, 0, 0}, 404, NULL},
    {{"PUT", "note", 0, 0, 0, 0, 0, 0}, 405, "Allow: GET, HEAD, POST"},
    /* the arrival: the form's bytes, or the page */
    {{"GET", "note", 0, 0, 0, 0, 0, 0}, 200, "Leave a note."},
    {{"HEAD", "note", 0, 0, 0, 0, 0, 0}, 200, "Vary: Accept"},
    {{"GET", "note", 0, 0, 0, 0, "text/html", 0}, 200, "text/html"},
    {{"GET", "note", 0, 0, 0, "\"stale\"", 0, 0}, 200, NULL},
    /* an act: accepted, the hook answers */
    {{"POST", "note", "application/json", 0, 0, 0, 0, "{\"note\": \"hi\"}"},
        200, "{\"stored\": true}"},
    /* every rejection of the body is the same 204 */
    {{"POST", "note", "application/json", 0, 0, 0, 0,
         "{\"note\": \"far too long\"}"},
        204, NULL},
    {{"POST", "note", "text/plain", 0, 0, 0, 0, "{\"note\": \"hi\"}"}, 204,
        NULL},
    {{"POST", "note", "application/json", 0, 0, 0, 0,
         "{\"note\": \"a\", \"note\": \"b\"}"},
        204, NULL},
    {{"POST", "note", "application/json", "12a", 0, 0, 0, "{}"}, 204, NULL},
    /* If-Match comes before the parse: junk is never read */
    {{"POST", "note", "application/json", 0, "\"stale\"", 0, 0, "junk"}, 412,
        "ETag: \""},
    /* failures = explain says which check came first: size before type,
     * type before the parse, the parse before the form */
    {{"POST", "dev", "text/plain", 0, 0, 0, 0,
         "{\"note\": \"0123456789012345678901234567890123456789"
         "01234567890123456789\"}"},
        422, "max_body"},
    {{"POST", "dev", "text/plain", 0, 0, 0, 0, "junk"}, 422, "Content-Type"},
    {{"POST", "dev", "application/json", 0, 0, 0, 0, "junk"}, 422,
        "\"offset\""},
    {{"POST", "dev", "application/json", 0, 0, 0, 0, "{\"note\": 1}"}, 422,
        "\"pointer\":\"/note\""},
    /* no hook: the act is the server's failure, not the actor's */
    {{"POST", "dev", "application/json", 0, 0, 0, 0, "{\"note\": \"hi\"}"}, 500,
        NULL},
};

START_TEST(serve_request_answers_each_step_of_the_flow)
{
	struct buf out;
	char line[32];
	int status;

	buf_init(&out, 1 << 20);
	status = answer(&flows[_i].r, &out);
	if (flows[_i].status == 500)
		ck_assert_msg(status >= 500 && status <= 599, "%s /%s: %d",
		    flows[_i].r.method, flows[_i].r.address, status);
	else
		ck_assert_msg(status == flows[_i].status,
		    "%s /%s: %d, expected %d: \"%.200s\"", flows[_i].r.method,
		    flows[_i].r.address, status, flows[_i].status,
		    buf_ptr(&out));
	/* the CGI answer says the same status first */
	snprintf(line, sizeof(line), "Status: %d ", status);
	ck_assert_msg(strncmp(buf_ptr(&out), line, strlen(line)) == 0,
	    "%s /%s: \"%.60s\"", flows[_i].r.method, flows[_i].r.address,
	    buf_ptr(&out));
	if (flows[_i].has != NULL)
		ck_assert_msg(strstr(buf_ptr(&out), flows[_i].has) != NULL,
		    "%s /%s: \"%.400s\" lacks \"%s\"", flows[_i].r.method,
		    flows[_i].r.address, buf_ptr(&out), flows[_i].has);
	buf_free(&out);
}
END_TEST

START_TEST(serve_request_answers_304_and_412_by_the_current_etag)
{
	char etag[64];
	struct request r = {.method = "GET", .address = "note"};
	struct buf out;

	etag_of_note(etag, sizeof(etag));
	buf_init(&out, 1 << 20);
	r.inm = etag;
	ck_assert_int_eq(answer(&r, &out), 304);
	buf_reset(&out);
	/* the current ETag lets the act through to the hook */
	r = (struct request){.method = "POST",
	    .address = "note",
	    .ctype = "application/json",
	    .if_match = etag,
	    .body = "{\"note\": \"hi\"}"};
	ck_assert_int_eq(answer(&r, &out), 200);
	ck_assert_ptr_nonnull(strstr(buf_ptr(&out), "{\"stored\": true}"));
	buf_free(&out);
}
END_TEST

static Suite *
suite_serve(void)
{
	Suite *s = suite_create("serve");
	TCase *tc = tcase_create("Core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 30);
	tcase_add_loop_test(tc, serve_request_answers_each_step_of_the_flow, 0,
	    (int)(sizeof(flows) / sizeof(flows[0])));
	tcase_add_test(
	    tc, serve_request_answers_304_and_412_by_the_current_etag);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(suite_serve)
