/*
 * check_metrics.c: the counts per address, their Prometheus text, the
 * read-back of a file (CGI's update), the GPT_METRICS_DIR check, and the
 * file written atomically, or reported once when it cannot be.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/buf.h"
#include "check_main.h"
#include "base/file.h"
#include "responder/metrics.h"

static char *
render(void)
{
	struct buf b;
	size_t len;
	char *s;

	buf_init(&b, SIZE_MAX);
	ck_assert_int_eq(metrics_render(&b), 0);
	s = buf_take(&b, &len);
	return s != NULL ? s : strdup("");
}

static void
setup(void)
{
	metrics_reset();
	ck_assert_int_eq(metrics_configure("/nonexistent/metrics", true), 0);
}

static void
teardown(void)
{
	metrics_reset();
	(void)metrics_configure(NULL, false);
}

START_TEST(metrics_count_adds_per_address_and_class)
{
	char *t;

	metrics_begin("/srv/gpt/a");
	metrics_count(METRICS_GET_JSON);
	metrics_count(METRICS_GET_JSON);
	metrics_count(METRICS_GET_304);
	metrics_begin("/srv/gpt/b");
	metrics_count(METRICS_REJECT_DUPLICATE);
	metrics_count(METRICS_ACT_ACCEPTED);
	metrics_hook(METRICS_HOOK_OK, 7);
	t = render();
	ck_assert_ptr_nonnull(strstr(t,
	    "gpt_fcgi_gets_total{process=\"cgi\",address=\"/srv/gpt/a\","
	    "representation=\"json\"} 2\n"));
	ck_assert_ptr_nonnull(strstr(t,
	    "gpt_fcgi_gets_total{process=\"cgi\",address=\"/srv/gpt/a\","
	    "representation=\"304\"} 1\n"));
	ck_assert_ptr_nonnull(strstr(t,
	    "gpt_fcgi_gets_total{process=\"cgi\",address=\"/srv/gpt/b\","
	    "representation=\"json\"} 0\n"));
	ck_assert_ptr_nonnull(strstr(t,
	    "gpt_fcgi_acts_rejected_total{process=\"cgi\",address=\"/srv/gpt/"
	    "b\",class=\"duplicate_name\"} 1\n"));
	ck_assert_ptr_nonnull(strstr(t,
	    "gpt_fcgi_hook_outcomes_total{process=\"cgi\",address=\"/srv/gpt/"
	    "b\",outcome=\"ok\"} 1\n"));
	/* 7 ms: above the 5 ms bucket, in the 10 ms one and every later */
	ck_assert_ptr_nonnull(strstr(t,
	    "gpt_fcgi_hook_duration_seconds_bucket{process=\"cgi\",address=\"/"
	    "srv/gpt/b\",le=\"0.005\"} 0\n"));
	ck_assert_ptr_nonnull(strstr(t,
	    "gpt_fcgi_hook_duration_seconds_bucket{process=\"cgi\",address=\"/"
	    "srv/gpt/b\",le=\"0.01\"} 1\n"));
	ck_assert_ptr_nonnull(strstr(t,
	    "gpt_fcgi_hook_duration_seconds_bucket{process=\"cgi\",address=\"/"
	    "srv/gpt/b\",le=\"+Inf\"} 1\n"));
	ck_assert_ptr_nonnull(strstr(t,
	    "gpt_fcgi_hook_duration_seconds_sum{process=\"cgi\",address=\"/"
	    "srv/gpt/b\"} 0.007\n"));
	ck_assert_ptr_nonnull(strstr(t,
	    "gpt_fcgi_hook_duration_seconds_count{process=\"cgi\",address=\"/"
	    "srv/gpt/b\"} 1\n"));
	/* each family's HELP and TYPE once, before its samples */
	ck_assert_ptr_nonnull(
	    strstr(t, "# TYPE gpt_fcgi_hook_duration_seconds histogram\n"));
	ck_assert_ptr_null(strstr(strstr(t, "# TYPE gpt_fcgi_gets_total") + 1,
	    "# TYPE gpt_fcgi_gets_total"));
	free(t);
}
END_TEST

START_TEST(metrics_nothing_counted_without_a_directory)
{
	char *t;

	ck_assert_int_eq(metrics_configure(NULL, true), 0);
	ck_assert(!metrics_enabled());
	metrics_begin("/srv/gpt/a");
	metrics_count(METRICS_GET_JSON);
	t = render();
	ck_assert_ptr_null(strstr(t, "/srv/gpt/a"));
	free(t);
}
END_TEST

START_TEST(metrics_absorb_adds_a_file_written_before)
{
	char *first, *second;

	metrics_begin("/srv/gpt/a \"quoted\" \\ back");
	metrics_count(METRICS_REJECT_FORM);
	metrics_hook(METRICS_HOOK_TIMEOUT, 10000);
	first = render();
	/* the next CGI process: its own count, plus the file */
	metrics_reset();
	metrics_begin("/srv/gpt/a \"quoted\" \\ back");
	metrics_count(METRICS_REJECT_FORM);
	ck_assert_int_eq(metrics_absorb(first, strlen(first)), 0);
	second = render();
	ck_assert_ptr_nonnull(strstr(second, "class=\"form\"} 2\n"));
	ck_assert_ptr_nonnull(
	    strstr(second, "address=\"/srv/gpt/a \\\"quoted\\\" \\\\ "
	                   "back\",outcome=\"timeout\"}"
	                   " 1\n"));
	ck_assert_ptr_nonnull(
	    strstr(second, "_sum{process=\"cgi\","
	                   "address=\"/srv/gpt/a \\\"quoted\\\""
	                   " \\\\ back\"} 10.000\n"));
	/* read back twice over, everything doubles but the first count */
	free(first);
	free(second);
}
END_TEST

static const char *const not_ours[] = {
    "gpt_fcgi_gets_total{process=\"cgi\",address=\"/a\",representation="
    "\"json\"} 1", /* no newline at the end: cut short */
    "other_metric{process=\"cgi\",address=\"/a\"} 1\n",
    "gpt_fcgi_gets_total{address=\"/a\",representation=\"json\"} 1\n",
    "gpt_fcgi_gets_total{process=\"cgi\",address=\"/a\",representation="
    "\"xml\"} 1\n",
    "gpt_fcgi_gets_total{process=\"cgi\",address=\"/a\",representation="
    "\"json\"} -1\n",
    "gpt_fcgi_gets_total{process=\"cgi\",address=\"/a\",representation="
    "\"json\"} 1.5\n",
    "gpt_fcgi_gets_total{process=\"cgi\",address=\"/a\",representation="
    "\"json\"} 99999999999999999999\n",
    "gpt_fcgi_gets_total{process=\"cgi\",address=\"/a\\n\",representation="
    "\"json\"} 1\n",
    "gpt_fcgi_hook_duration_seconds_sum{process=\"cgi\",address=\"/a\"} "
    "1.5\n",
    "gpt_fcgi_gets_total{process=\"cgi\",address=\"/a,representation="
    "\"json\"} 1\n",
};

START_TEST(metrics_absorb_refuses_what_it_did_not_write_and_adds_nothing)
{
	char text[512];
	char *t;

	(void)snprintf(text, sizeof(text),
	    "gpt_fcgi_gets_total{process=\"cgi\",address=\"/b\","
	    "representation=\"json\"} 5\n%s",
	    not_ours[_i]);
	ck_assert_int_eq(metrics_absorb(text, strlen(text)), -1);
	t = render();
	ck_assert_ptr_null(strstr(t, "address=\"/b\""));
	free(t);
}
END_TEST

START_TEST(metrics_configure_refuses_a_relative_or_control_path)
{
	ck_assert_int_eq(metrics_configure("metrics", false), -1);
	ck_assert_int_eq(metrics_configure("/var/lib/m\netrics", false), -1);
	ck_assert_int_eq(metrics_configure("", false), 0);
	ck_assert(!metrics_enabled());
	ck_assert_int_eq(metrics_configure("/var/lib/metrics", false), 0);
	ck_assert(metrics_enabled());
}
END_TEST

START_TEST(metrics_mask_keeps_a_label_one_line_of_ascii)
{
	char *t;

	metrics_begin("/srv/\n\xc3\xa9t\xc3\xa9");
	metrics_count(METRICS_GET_HTML);
	t = render();
	ck_assert_ptr_nonnull(strstr(t, "address=\"/srv/???t??\""));
	free(t);
}
END_TEST

/* FastCGI: the file appears whole under its name, counts and all. */
START_TEST(metrics_flush_writes_the_file_atomically)
{
	char dir[] = "/tmp/check_metrics.XXXXXX", path[256];
	struct buf b;
	char why[128];
	int fd;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	ck_assert_int_eq(metrics_configure(dir, false), 0);
	metrics_begin("/srv/gpt/a");
	metrics_count(METRICS_GET_JSON);
	ck_assert_int_eq(metrics_idle_ms(), 0); /* never written: due now */
	metrics_flush();
	ck_assert_int_eq(metrics_idle_ms(), -1);
	(void)snprintf(
	    path, sizeof(path), "%s/gpt-fcgi-%ld.prom", dir, (long)getpid());
	fd = open(path, O_RDONLY);
	ck_assert_int_ge(fd, 0);
	buf_init(&b, 1 << 20);
	ck_assert_int_eq(file_read_fd(fd, &b, why, sizeof(why)), 0);
	(void)close(fd);
	ck_assert_ptr_nonnull(
	    strstr(buf_ptr(&b), "representation=\"json\"} 1\n"));
	buf_free(&b);
	/* counted again within the interval: due later, not now */
	metrics_count(METRICS_GET_JSON);
	ck_assert_int_gt(metrics_idle_ms(), 0);
	metrics_close();
	ck_assert_int_eq(access(path, F_OK), -1);
	ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

/* A directory that is not there: the write fails, the counts stay. */
START_TEST(metrics_flush_into_a_missing_directory_keeps_the_counts)
{
	char *t;

	ck_assert_int_eq(metrics_configure("/nonexistent/metrics", false), 0);
	metrics_begin("/srv/gpt/a");
	metrics_count(METRICS_GET_JSON);
	metrics_flush();
	metrics_flush();
	ck_assert_int_ge(metrics_idle_ms(), 0); /* still to be written */
	t = render();
	ck_assert_ptr_nonnull(strstr(t, "representation=\"json\"} 1\n"));
	free(t);
}
END_TEST

static Suite *
suite_metrics(void)
{
	Suite *s = suite_create("metrics");
	TCase *tc;

	tc = tcase_create("count");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, metrics_count_adds_per_address_and_class);
	tcase_add_test(tc, metrics_nothing_counted_without_a_directory);
	tcase_add_test(tc, metrics_mask_keeps_a_label_one_line_of_ascii);
	suite_add_tcase(s, tc);
	tc = tcase_create("absorb");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, metrics_absorb_adds_a_file_written_before);
	tcase_add_loop_test(tc,
	    metrics_absorb_refuses_what_it_did_not_write_and_adds_nothing, 0,
	    (int)GPT_ARRAY_LEN(not_ours));
	suite_add_tcase(s, tc);
	tc = tcase_create("file");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(
	    tc, metrics_configure_refuses_a_relative_or_control_path);
	tcase_add_test(tc, metrics_flush_writes_the_file_atomically);
	tcase_add_test(
	    tc, metrics_flush_into_a_missing_directory_keeps_the_counts);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(suite_metrics)
