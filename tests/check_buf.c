/* check_buf.c: growable bytes that never pass their maximum. */
#include <string.h>

#include "buf.h"
#include "check_main.h"

START_TEST(buf_append_grows_and_terminates)
{
	struct buf b;
	int i;

	buf_init(&b, 1 << 20);
	for (i = 0; i < 1000; i++)
		ck_assert_int_eq(buf_append(&b, "abc", 3), 0);
	ck_assert_uint_eq(b.len, 3000);
	ck_assert_int_eq(b.data[b.len], '\0');
	ck_assert_mem_eq(b.data + 2997, "abc", 3);
	buf_free(&b);
}
END_TEST

START_TEST(buf_append_refuses_past_max_and_keeps_contents)
{
	struct buf b;

	buf_init(&b, 5);
	ck_assert_int_eq(buf_append(&b, "abcd", 4), 0);
	ck_assert_int_eq(buf_append(&b, "ef", 2), -1);
	ck_assert_uint_eq(b.len, 4);
	ck_assert_int_eq(buf_putc(&b, 'e'), 0);
	ck_assert_int_eq(buf_putc(&b, 'f'), -1);
	ck_assert_str_eq(b.data, "abcde");
	buf_free(&b);
}
END_TEST

START_TEST(buf_printf_formats_long_output)
{
	struct buf b;
	char big[1000];

	memset(big, 'z', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	buf_init(&b, 1 << 20);
	ck_assert_int_eq(buf_printf(&b, "%d-%s", 42, big), 0);
	ck_assert_uint_eq(b.len, 3 + sizeof(big) - 1);
	ck_assert_int_eq(strncmp(b.data, "42-zzz", 6), 0);
	buf_free(&b);
	buf_init(&b, 10);
	ck_assert_int_eq(buf_printf(&b, "%s", big), -1);
	ck_assert_uint_eq(b.len, 0);
	buf_free(&b);
}
END_TEST

START_TEST(buf_take_hands_over_ownership)
{
	struct buf b;
	size_t len;
	char *p;

	buf_init(&b, 100);
	ck_assert_int_eq(buf_puts(&b, "hello"), 0);
	p = buf_take(&b, &len);
	ck_assert_uint_eq(len, 5);
	ck_assert_str_eq(p, "hello");
	ck_assert_ptr_null(b.data);
	ck_assert_uint_eq(b.len, 0);
	free(p);
	buf_reset(&b);
	buf_free(&b);
}
END_TEST

static Suite *
suite_buf(void)
{
	Suite *s = suite_create("buf");
	TCase *tc = tcase_create("Core");

	tcase_add_test(tc, buf_append_grows_and_terminates);
	tcase_add_test(tc, buf_append_refuses_past_max_and_keeps_contents);
	tcase_add_test(tc, buf_printf_formats_long_output);
	tcase_add_test(tc, buf_take_hands_over_ownership);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(suite_buf)
