/*
 * check_log.c: the rejection rate limit (a token bucket read through an
 * injected clock), its summary line, the level filter, and the CGI
 * timestamp.
 */
#include <regex.h>
#include <stdio.h>
#include <string.h>

#include "base/buf.h"
#include "check_main.h"
#include "base/log.h"

/* --- log_bucket_take --------------------------------------------------- */

#define STEPS_MAX 32

struct bucket_case {
	const char *name;
	struct {
		uint64_t now_ms;
		unsigned times;  /* this many takes at now_ms */
		unsigned passed; /* ... of which this many may go */
	} steps[STEPS_MAX];
	unsigned suppressed; /* the count at the end */
};

static const struct bucket_case bucket_cases[] = {
    {"a full bucket lets the burst through, then refuses",
        {{0, LOG_REJECT_BURST, LOG_REJECT_BURST}, {0, 5, 0}}, 5},
    {"one token comes back every 1000 / rate ms",
        {{0, LOG_REJECT_BURST, LOG_REJECT_BURST},
            {1000 / LOG_REJECT_RATE - 1, 1, 0}, {1000 / LOG_REJECT_RATE, 2, 1}},
        2},
    {"a long quiet refills the burst and no more",
        {{0, LOG_REJECT_BURST, LOG_REJECT_BURST},
            {3600000, LOG_REJECT_BURST + 3, LOG_REJECT_BURST}},
        3},
    {"a steady rate at the limit loses nothing",
        {{0, LOG_REJECT_BURST, LOG_REJECT_BURST}, {200, 1, 1}, {400, 1, 1},
            {600, 1, 1}, {800, 1, 1}, {1000, 1, 1}},
        0},
    {"a clock going back earns nothing",
        {{5000, LOG_REJECT_BURST, LOG_REJECT_BURST}, {100, 1, 0}, {5199, 1, 0},
            {5200, 1, 1}},
        2},
    {"a flood of 100 in one second passes burst + rate",
        {{0, 50, LOG_REJECT_BURST}, {999, 50, LOG_REJECT_RATE - 1}},
        100 - LOG_REJECT_BURST - (LOG_REJECT_RATE - 1)},
};

START_TEST(log_bucket_take_follows_the_token_bucket)
{
	const struct bucket_case *c = &bucket_cases[_i];
	struct log_bucket b;
	size_t s;

	log_bucket_init(&b, c->steps[0].now_ms);
	for (s = 0; s < STEPS_MAX && c->steps[s].times > 0; s++) {
		unsigned k, passed = 0;

		for (k = 0; k < c->steps[s].times; k++)
			passed += log_bucket_take(&b, c->steps[s].now_ms);
		ck_assert_msg(passed == c->steps[s].passed,
		    "%s: step %zu (t=%llu ms): %u of %u passed, expected %u",
		    c->name, s, (unsigned long long)c->steps[s].now_ms, passed,
		    c->steps[s].times, c->steps[s].passed);
	}
	ck_assert_msg(b.suppressed == c->suppressed,
	    "%s: %u counted as suppressed, expected %u", c->name, b.suppressed,
	    c->suppressed);
}
END_TEST

/* --- log_reject through the module's own bucket ----------------------- */

static uint64_t fake_now;
static struct buf lines;

static uint64_t
fake_clock(void)
{
	return fake_now;
}

static void
capture(void *ctx, const char *line, size_t len)
{
	(void)ctx;
	ck_assert_int_eq(buf_append(&lines, line, len), 0);
}

static void
setup(void)
{
	buf_init(&lines, 1 << 20);
	fake_now = 1000000;
	log_set_clock(fake_clock);
	log_set_sink(capture, NULL);
	log_set_level(LOG_LEVEL_ALL);
	log_set_timestamps(false);
}

static void
teardown(void)
{
	log_set_sink(NULL, NULL);
	log_set_clock(NULL);
	log_set_level(LOG_LEVEL_ALL);
	log_set_timestamps(false);
	buf_free(&lines);
}

static const char *
text(void)
{
	return buf_ptr(&lines);
}

static unsigned
count(const char *needle)
{
	const char *p = text();
	unsigned n = 0;

	while ((p = strstr(p, needle)) != NULL) {
		n++;
		p += strlen(needle);
	}
	return n;
}

START_TEST(log_reject_writes_the_burst_then_one_summary_when_it_resumes)
{
	unsigned i;

	for (i = 0; i < 100; i++)
		log_reject("act rejected at /a: #%u", i);
	ck_assert_uint_eq(
	    count("gpt.fcgi: notice: act rejected"), LOG_REJECT_BURST);
	ck_assert_uint_eq(count("suppressed"), 0);
	fake_now += 1000 / LOG_REJECT_RATE;
	log_reject("act rejected at /a: after");
	ck_assert_uint_eq(
	    count("gpt.fcgi: notice: act rejected"), LOG_REJECT_BURST + 1);
	ck_assert_msg(strstr(text(), "gpt.fcgi: notice: 90 rejection lines "
	                             "suppressed in the last 1 s\n"
	                             "gpt.fcgi: notice: act rejected at /a: "
	                             "after\n") != NULL,
	    "no summary before the line that resumed: %s", text());
}
END_TEST

START_TEST(log_reject_summary_goes_before_another_line_a_second_later)
{
	unsigned i;

	for (i = 0; i < LOG_REJECT_BURST + 7; i++)
		log_reject("act rejected at /a");
	fake_now += 999;
	log_info("an accepted act");
	ck_assert_uint_eq(count("suppressed"), 0);
	fake_now += 2001;
	log_error("a hook failed");
	ck_assert_msg(
	    strstr(text(), "gpt.fcgi: notice: 7 rejection lines "
	                   "suppressed in the last 3 s\n"
	                   "gpt.fcgi: error: a hook failed\n") != NULL,
	    "no summary before the next line: %s", text());
	/* counted once */
	fake_now += 5000;
	log_error("again");
	ck_assert_uint_eq(count("suppressed"), 1);
}
END_TEST

START_TEST(log_set_level_filters_by_class)
{
	static const struct {
		enum log_level level;
		unsigned errors, notices, infos;
	} cases[] = {
	    {LOG_LEVEL_ERRORS, 2, 0, 0},
	    {LOG_LEVEL_REJECTIONS, 2, 1, 0},
	    {LOG_LEVEL_ALL, 2, 1, 1},
	};
	size_t i;

	for (i = 0; i < GPT_ARRAY_LEN(cases); i++) {
		buf_reset(&lines);
		fake_now += 10000;
		log_set_level(cases[i].level);
		log_error("e");
		log_warn("w");
		log_reject("r");
		log_info("i");
		ck_assert_msg(count("error: e\n") + count("warning: w\n") ==
		                      cases[i].errors &&
		                  count("notice: r\n") == cases[i].notices &&
		                  count("info: i\n") == cases[i].infos,
		    "level %d wrote: %s", (int)cases[i].level, text());
	}
}
END_TEST

START_TEST(log_reject_filtered_out_spends_no_token)
{
	unsigned i;

	log_set_level(LOG_LEVEL_ERRORS);
	for (i = 0; i < 50; i++)
		log_reject("hidden");
	log_set_level(LOG_LEVEL_ALL);
	for (i = 0; i < LOG_REJECT_BURST; i++)
		log_reject("shown");
	log_error("e");
	ck_assert_uint_eq(count("notice: shown\n"), LOG_REJECT_BURST);
	ck_assert_uint_eq(count("hidden"), 0);
	ck_assert_uint_eq(count("suppressed"), 0);
}
END_TEST

START_TEST(log_set_timestamps_prefixes_rfc3339_utc)
{
	regex_t re;

	log_set_timestamps(true);
	log_info("stamped");
	log_set_timestamps(false);
	log_info("plain");
	ck_assert_int_eq(regcomp(&re,
	                     "^[0-9]{4}-[0-1][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5]"
	                     "[0-9]:[0-6][0-9]Z gpt\\.fcgi: info: stamped\n"
	                     "gpt\\.fcgi: info: plain\n$",
	                     REG_EXTENDED),
	    0);
	ck_assert_msg(
	    regexec(&re, text(), 0, NULL, 0) == 0, "lines: %s", text());
	regfree(&re);
}
END_TEST

START_TEST(log_cgi_timestamps_decides_per_server)
{
	static const struct {
		const char *setting;
		int rc;
		bool on;
	} cases[] = {
	    {NULL, 0, true},
	    {"", 0, true},
	    {"yes", 0, true},
	    {"no", 0, false},
	    {"1", -1, true},
	    {"NO", -1, true},
	};
	size_t i;

	for (i = 0; i < GPT_ARRAY_LEN(cases); i++) {
		bool on = !cases[i].on;
		int rc = log_cgi_timestamps(cases[i].setting, &on);

		ck_assert_msg(rc == cases[i].rc && on == cases[i].on,
		    "case %zu (%s): rc %d on %d", i,
		    cases[i].setting ? cases[i].setting : "NULL", rc, on);
	}
}
END_TEST

static Suite *
suite_log(void)
{
	Suite *s = suite_create("log");
	TCase *tc;

	tc = tcase_create("bucket");
	tcase_add_loop_test(tc, log_bucket_take_follows_the_token_bucket, 0,
	    (int)GPT_ARRAY_LEN(bucket_cases));
	suite_add_tcase(s, tc);
	tc = tcase_create("reject");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(
	    tc, log_reject_writes_the_burst_then_one_summary_when_it_resumes);
	tcase_add_test(
	    tc, log_reject_summary_goes_before_another_line_a_second_later);
	tcase_add_test(tc, log_set_level_filters_by_class);
	tcase_add_test(tc, log_reject_filtered_out_spends_no_token);
	tcase_add_test(tc, log_set_timestamps_prefixes_rfc3339_utc);
	suite_add_tcase(s, tc);
	tc = tcase_create("cgi");
	tcase_add_test(tc, log_cgi_timestamps_decides_per_server);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(suite_log)
