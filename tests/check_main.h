/*
 * check_main.h: the runner every unit-test program shares.  A test file
 * defines `Suite *suite_<module>(void)` and then
 * `CHECK_MAIN(suite_<module>)`.  The exit status is 0 only when every test
 * passed; Check's summary line is printed for the test log.
 */
#ifndef GPT_CHECK_MAIN_H
#define GPT_CHECK_MAIN_H

#include <check.h>
#include <stdlib.h>
#include <sys/stat.h>

#define CHECK_MAIN(suite_fn)                                                   \
	int main(void)                                                         \
	{                                                                      \
		SRunner *sr = srunner_create(suite_fn());                      \
		int failed;                                                    \
		/* the files a test makes are an operator's: an address     \
		 * others may write is refused (address.h) */                 \
		umask(022);                                                    \
		srunner_run_all(sr, CK_NORMAL);                                \
		failed = srunner_ntests_failed(sr);                            \
		srunner_free(sr);                                              \
		return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;              \
	}

#endif /* GPT_CHECK_MAIN_H */
