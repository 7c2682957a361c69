/*
 * check_answer.c: the answers built from a loaded address: the JSON bytes
 * are the parsed document written back, each representation has its
 * ETag, its 200 and its 304, and the 412 carries the JSON ETag; given the
 * ETag (the CGI form cache's), only the ETag and the 412 are built.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "site/address.h"
#include "responder/answer.h"
#include "check_main.h"

static char tmp[64];

static void
put(const char *rel, const char *text)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", tmp, rel);
	f = fopen(path, "w");
	ck_assert_msg(f != NULL, "cannot write %s", path);
	fputs(text, f);
	fclose(f);
}

static void
load(struct addr *a, const char *form, const char *conf)
{
	char err[ADDR_ERR_MAX];

	snprintf(tmp, sizeof(tmp), "/tmp/check_answer.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(tmp));
	put("form.json", form);
	if (conf != NULL)
		put("address.conf", conf);
	ck_assert_int_eq(addr_load(tmp, a, NULL, NULL), 0);
	ck_assert_msg(answer_build(a, err, sizeof(err)) == 0, "%s", err);
	ck_assert_ptr_eq(answer_of(a), a->derived);
}

static void
unload(struct addr *a)
{
	char cmd[128];

	addr_free(a);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp);
	ck_assert_int_eq(system(cmd), 0);
}

static const char good_form[] =
    "{\"p\": \"A test.\", \"m\": [{\"role\": \"user\", \"content\": \"hi\"}],"
    " \"s\": {\"type\": \"object\", \"required\": [\"a\"]}}";

START_TEST(answer_build_precomputes_every_answer)
{
	static const char want[] =
	    "{\"p\":\"A test.\",\"m\":[{\"role\":\"user\",\"content\":"
	    "\"hi\"}],\"s\":{\"type\":\"object\",\"required\":[\"a\"]}}";
	const struct answer_set *set;
	struct addr a;
	const char *body;

	load(&a, good_form, "type = t1\n");
	set = answer_of(&a);
	body = set->json.bytes + set->json.head_len;
	/* the compact serialization of the parsed form */
	ck_assert_uint_eq(set->json.len - set->json.head_len, strlen(want));
	ck_assert(memcmp(body, want, strlen(want)) == 0);
	ck_assert(memcmp(set->json.bytes, "Status: 200 OK\r\n", 16) == 0);
	ck_assert_ptr_nonnull(strstr(set->json.bytes, set->etag));
	ck_assert_ptr_nonnull(strstr(set->json.bytes, "GPT-Type: t1\r\n"));
	ck_assert(memcmp(set->json_304.bytes, "Status: 304", 11) == 0);
	ck_assert_uint_eq(set->json_304.len, set->json_304.head_len);
	ck_assert(memcmp(set->html.bytes,
	              "Status: 200 OK\r\n"
	              "Content-Type: text/html; charset=utf-8",
	              54) == 0);
	ck_assert_ptr_nonnull(strstr(set->html.bytes, "A test."));
	ck_assert_str_ne(set->etag, set->html_etag);
	ck_assert(memcmp(set->precondition.bytes,
	              "Status: 412 Precondition Failed\r\n", 33) == 0);
	ck_assert_ptr_nonnull(strstr(set->precondition.bytes, set->etag));
	unload(&a);
}
END_TEST

START_TEST(answer_build_explains_the_412_when_the_address_explains)
{
	const struct answer_set *set;
	struct addr a;

	load(&a, good_form, "failures = explain\n");
	set = answer_of(&a);
	ck_assert_ptr_nonnull(strstr(set->precondition.bytes,
	    "Content-Type: application/json\r\n"));
	ck_assert_ptr_nonnull(strstr(set->precondition.bytes, "\"etag\""));
	unload(&a);
}
END_TEST

START_TEST(answer_build_known_builds_only_the_etag_and_the_412)
{
	static const char *const confs[] = {NULL, "failures = explain\n"};
	char err[ADDR_ERR_MAX];
	struct answer_set full;
	const struct answer_set *set;
	struct addr a;
	size_t i;

	for (i = 0; i < GPT_ARRAY_LEN(confs); i++) {
		load(&a, good_form, confs[i]);
		full = *answer_of(&a);
		ck_assert_int_eq(
		    answer_build_known(&a, full.etag, err, sizeof(err)), 0);
		set = answer_of(&a);
		ck_assert_str_eq(set->etag, full.etag);
		/* the 412 is the one a whole build gives, byte for byte */
		ck_assert_uint_eq(set->precondition.len, full.precondition.len);
		ck_assert(memcmp(set->precondition.bytes,
		              full.precondition.bytes,
		              full.precondition.len) == 0);
		/* nothing a GET writes */
		ck_assert_ptr_null(set->json.bytes);
		ck_assert_ptr_null(set->json_304.bytes);
		ck_assert_ptr_null(set->html.bytes);
		ck_assert_uint_eq(set->html_etag[0], '\0');
		unload(&a);
	}
}
END_TEST

static Suite *
suite_answer(void)
{
	Suite *s = suite_create("answer");
	TCase *tc = tcase_create("Core");

	tcase_add_test(tc, answer_build_precomputes_every_answer);
	tcase_add_test(tc,
	    answer_build_explains_the_412_when_the_address_explains);
	tcase_add_test(tc, answer_build_known_builds_only_the_etag_and_the_412);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(suite_answer)
