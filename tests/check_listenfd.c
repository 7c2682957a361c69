/* check_listenfd.c: LISTEN_PID / LISTEN_FDS as sd_listen_fds(3) reads them. */
#include <stdlib.h>

#include "check_main.h"
#include "site/listenfd.h"

static const struct {
	const char *pid, *fds;
	int want;
} count_cases[] = {
    {"4242", "1", 1},
    {"4242", "3", 3},
    {"4242", "0", 0},
    {"4242", "64", 64},
    {NULL, "1", 0},       /* no LISTEN_PID: nothing is ours */
    {"4243", "1", 0},     /* another process's sockets */
    {"04242", "1", 0},    /* not our pid in plain digits */
    {"4242x", "1", 0},
    {"", "1", 0},
    {"99999999999999999999", "1", 0},
    {"4242", NULL, 0},
    {"4242", "65", -1},   /* past LISTENFD_MAX */
    {"4242", "-1", -1},
    {"4242", "two", -1},
    {"4242", "", -1},
    {"4242", "01", -1},
    {"4242", " 1", -1},
};

START_TEST(listenfd_count_takes_only_what_names_this_process)
{
	int got = listenfd_count(count_cases[_i].pid, count_cases[_i].fds,
	    4242);

	ck_assert_msg(got == count_cases[_i].want,
	    "LISTEN_PID=%s LISTEN_FDS=%s for pid 4242: %d, expected %d",
	    count_cases[_i].pid ? count_cases[_i].pid : "(unset)",
	    count_cases[_i].fds ? count_cases[_i].fds : "(unset)", got,
	    count_cases[_i].want);
}
END_TEST

START_TEST(listenfd_adopt_unsets_the_variables_when_not_ours)
{
	ck_assert_int_eq(setenv("LISTEN_PID", "1", 1), 0);
	ck_assert_int_eq(setenv("LISTEN_FDS", "1", 1), 0);
	ck_assert_int_eq(setenv("LISTEN_FDNAMES", "gpt", 1), 0);
	ck_assert_int_eq(listenfd_adopt(), 0);
	ck_assert_ptr_null(getenv("LISTEN_PID"));
	ck_assert_ptr_null(getenv("LISTEN_FDS"));
	ck_assert_ptr_null(getenv("LISTEN_FDNAMES"));
}
END_TEST

static Suite *
suite_listenfd(void)
{
	Suite *s = suite_create("listenfd");
	TCase *tc = tcase_create("Core");

	tcase_add_loop_test(tc,
	    listenfd_count_takes_only_what_names_this_process, 0,
	    (int)(sizeof(count_cases) / sizeof(count_cases[0])));
	tcase_add_test(tc, listenfd_adopt_unsets_the_variables_when_not_ours);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(suite_listenfd)
