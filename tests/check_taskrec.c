/* check_taskrec.c: a task's record: its header line and document. */
#include <stdio.h>
#include <string.h>

#include "check_main.h"
#include "site/taskrec.h"

static struct taskrec
sample(void)
{
	struct taskrec r;

	memset(&r, 0, sizeof(r));
	memset(r.id, 0xab, sizeof(r.id));
	r.status = TASKREC_WORKING;
	r.created_ms = 1764633600123; /* 2025-12-02T00:00:00.123Z */
	r.updated_ms = 1764633601000;
	r.expires_s = 1764720000;
	r.pid = 4242;
	r.poll_ms = 2000;
	return r;
}

START_TEST(taskrec_format_writes_the_head_and_the_document)
{
	struct taskrec r = sample();
	struct taskrec_head h;
	struct buf b;
	const char *doc;

	buf_init(&b, 4096);
	r.message = "half \"way\"";
	r.message_len = strlen(r.message);
	r.progress = "0.5";
	r.progress_len = 3;
	ck_assert_int_eq(taskrec_format(&r, &b), 0);
	ck_assert_int_eq(taskrec_parse_head(buf_ptr(&b), buf_len(&b), &h), 0);
	ck_assert_int_eq(h.status, TASKREC_WORKING);
	ck_assert(memcmp(h.id, r.id, sizeof(r.id)) == 0);
	ck_assert_int_eq(h.created_ms, r.created_ms);
	ck_assert_int_eq(h.expires_s, r.expires_s);
	ck_assert_int_eq(h.pid, 4242);
	ck_assert_uint_eq(h.poll_ms, 2000);
	doc = buf_ptr(&b) + h.doc_off;
	ck_assert_str_eq(doc,
	    "{\"task\":\"abababababababababababababababab\","
	    "\"status\":\"working\",\"statusMessage\":\"half \\\"way\\\"\","
	    "\"progress\":0.5,\"created\":\"2025-12-02T00:00:00.123Z\","
	    "\"updated\":\"2025-12-02T00:00:01.000Z\","
	    "\"expires\":\"2025-12-03T00:00:00.000Z\","
	    "\"pollInterval\":2000}\n");
	ck_assert_int_eq(store_expiry(buf_ptr(&b), buf_len(&b)), r.expires_s);
	buf_free(&b);
}
END_TEST

START_TEST(taskrec_format_gives_result_once_completed_and_reason_once_failed)
{
	struct taskrec r = sample();
	struct buf b;

	buf_init(&b, 4096);
	r.status = TASKREC_COMPLETED;
	r.result = "{\"ok\": [1, 2]}";
	r.result_len = strlen(r.result);
	ck_assert_int_eq(taskrec_format(&r, &b), 0);
	ck_assert_ptr_nonnull(
	    strstr(buf_ptr(&b), ",\"result\":{\"ok\": [1, 2]}}"));
	ck_assert_ptr_nonnull(strstr(buf_ptr(&b), "\"status\":\"completed\""));
	buf_reset(&b);
	r.status = TASKREC_FAILED;
	r.reason = "runner lost";
	ck_assert_int_eq(taskrec_format(&r, &b), 0);
	ck_assert_ptr_null(strstr(buf_ptr(&b), "result"));
	ck_assert_ptr_nonnull(
	    strstr(buf_ptr(&b), ",\"reason\":\"runner lost\"}"));
	buf_free(&b);
}
END_TEST

START_TEST(taskrec_parse_head_refuses_damaged_records)
{
	static const char *const bad[] = {
	    "",
	    "gpt-task 1 1",
	    "gpt-task 2 1 abababababababababababababababab working 1 1 1 1\n",
	    "gpt-task 1 1 abababababababababababababababab sleeping 1 1 1 1\n",
	    "gpt-task 1 1 ababababababababababababababab working 1 1 1 1\n",
	    "gpt-task 1 1 abababababababababababababababab working -1 1 1 1\n",
	    "gpt-task 1 1 abababababababababababababababab working 1 1 1 1",
	    "gpt-task 1 1 abababababababababababababababab working 1 1 1 "
	    "99999999999\n",
	};
	struct taskrec_head h;
	size_t i;

	for (i = 0; i < GPT_ARRAY_LEN(bad); i++)
		ck_assert_msg(
		    taskrec_parse_head(bad[i], strlen(bad[i]), &h) == -1,
		    "accepted \"%s\"", bad[i]);
}
END_TEST

START_TEST(taskrec_status_names_are_the_protocols)
{
	ck_assert_str_eq(taskrec_status_name(TASKREC_WORKING), "working");
	ck_assert_str_eq(taskrec_status_name(TASKREC_COMPLETED), "completed");
	ck_assert_str_eq(taskrec_status_name(TASKREC_FAILED), "failed");
	ck_assert_str_eq(taskrec_status_name(TASKREC_CANCELLED), "cancelled");
	ck_assert(!taskrec_is_final(TASKREC_WORKING));
	ck_assert(taskrec_is_final(TASKREC_CANCELLED));
}
END_TEST

static Suite *
suite_taskrec(void)
{
	Suite *s = suite_create("taskrec");
	TCase *tc = tcase_create("Core");

	tcase_add_test(tc, taskrec_format_writes_the_head_and_the_document);
	tcase_add_test(tc,
	    taskrec_format_gives_result_once_completed_and_reason_once_failed);
	tcase_add_test(tc, taskrec_parse_head_refuses_damaged_records);
	tcase_add_test(tc, taskrec_status_names_are_the_protocols);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(suite_taskrec)
