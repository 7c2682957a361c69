/* check_buf.c: growable bytes that never pass their maximum. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "check_main.h"

START_TEST(buf_append_grows_and_terminates)
{
	struct buf b;
	int i;

	buf_init(&b, 1 << 20);
	for (i = 0; i < 1000; i++)
		ck_assert_int_eq(buf_append(&b, "abc", 3), 0);
	ck_assert_uint_eq(buf_len(&b), 3000);
	ck_assert_int_eq(buf_ptr(&b)[buf_len(&b)], '\0');
	ck_assert_mem_eq(buf_ptr(&b) + 2997, "abc", 3);
	buf_free(&b);
}
END_TEST

START_TEST(buf_append_refuses_past_max_and_keeps_contents)
{
	struct buf b;

	buf_init(&b, 5);
	ck_assert_int_eq(buf_append(&b, "abcd", 4), 0);
	errno = 0;
	ck_assert_int_eq(buf_append(&b, "ef", 2), -1);
	ck_assert_int_eq(errno, EMSGSIZE);
	ck_assert_uint_eq(buf_len(&b), 4);
	ck_assert_int_eq(buf_putc(&b, 'e'), 0);
	ck_assert_int_eq(buf_putc(&b, 'f'), -1);
	ck_assert_str_eq(buf_ptr(&b), "abcde");
	buf_free(&b);
}
END_TEST

/* Each appender, asked for one byte more than the room left. */
static const struct {
	const char *name;
	int which;
} over_max[] = {
    {"buf_append", 0},
    {"buf_putc", 1},
    {"buf_puts", 2},
    {"buf_printf short", 3},
    {"buf_printf long", 4},
    {"buf_reserve", 5},
};

START_TEST(every_appender_stops_exactly_at_the_max)
{
	char big[600];
	struct buf b;
	size_t max = over_max[_i].which == 4 ? 500 : 8;
	size_t fill = max - 1;
	int rc = 0;

	memset(big, 'x', sizeof(big));
	big[sizeof(big) - 1] = '\0';
	buf_init(&b, max);
	/* Fill to one byte short of the max, then ask for two. */
	ck_assert_int_eq(buf_append(&b, big, fill), 0);
	ck_assert_uint_eq(buf_room(&b), 1);
	errno = 0;
	switch (over_max[_i].which) {
	case 0:
		rc = buf_append(&b, "ab", 2);
		break;
	case 1:
		ck_assert_int_eq(buf_putc(&b, 'a'), 0);
		rc = buf_putc(&b, 'b');
		fill++;
		break;
	case 2:
		rc = buf_puts(&b, "ab");
		break;
	case 3:
		rc = buf_printf(&b, "%d", 42);
		break;
	case 4:
		rc = buf_printf(&b, "%.300s", big);
		break;
	case 5:
		rc = buf_reserve(&b, 2) == NULL ? -1 : 0;
		break;
	}
	ck_assert_msg(rc == -1, "%s passed the max", over_max[_i].name);
	ck_assert_int_eq(errno, EMSGSIZE);
	ck_assert_uint_eq(buf_len(&b), fill);
	ck_assert_int_eq(buf_ptr(&b)[fill], '\0');
	/* Exactly the room left still fits. */
	if (buf_room(&b) == 1)
		ck_assert_int_eq(buf_putc(&b, 'z'), 0);
	ck_assert_uint_eq(buf_len(&b), max);
	ck_assert_uint_le(buf_held(&b), max + 1);
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
	ck_assert_uint_eq(buf_len(&b), 3 + sizeof(big) - 1);
	ck_assert_int_eq(strncmp(buf_ptr(&b), "42-zzz", 6), 0);
	buf_free(&b);
	buf_init(&b, 10);
	ck_assert_int_eq(buf_printf(&b, "%s", big), -1);
	ck_assert_uint_eq(buf_len(&b), 0);
	buf_free(&b);
}
END_TEST

static int GPT_PRINTF(2, 3) vprintf_via(struct buf *b, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = buf_vprintf(b, fmt, ap);
	va_end(ap);
	return rc;
}

START_TEST(buf_vprintf_appends_short_and_long_output)
{
	char big[400];
	struct buf b;

	memset(big, 'q', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	buf_init(&b, 1000);
	ck_assert_int_eq(vprintf_via(&b, "<%s>", "a"), 0);
	ck_assert_int_eq(vprintf_via(&b, "%s|", big), 0);
	ck_assert_uint_eq(buf_len(&b), 3 + sizeof(big));
	ck_assert_int_eq(buf_ptr(&b)[buf_len(&b) - 1], '|');
	buf_free(&b);
}
END_TEST

START_TEST(buf_ptr_is_an_empty_string_before_the_first_append)
{
	struct buf b;

	buf_init(&b, 10);
	ck_assert_str_eq(buf_ptr(&b), "");
	ck_assert_ptr_null(buf_data(&b));
	ck_assert_uint_eq(buf_len(&b), 0);
	ck_assert_uint_eq(buf_max(&b), 10);
	ck_assert_uint_eq(buf_room(&b), 10);
	ck_assert_uint_eq(buf_held(&b), 0);
	ck_assert_int_eq(buf_puts(&b, "ab"), 0);
	ck_assert_ptr_eq(buf_data(&b), buf_ptr(&b));
	ck_assert_uint_eq(buf_room(&b), 8);
	buf_free(&b);
}
END_TEST

START_TEST(buf_reserve_and_commit_append_what_was_written)
{
	struct buf b;
	char *dst;

	buf_init(&b, 10);
	ck_assert_int_eq(buf_puts(&b, "ab"), 0);
	ck_assert_ptr_nonnull(dst = buf_reserve(&b, 8));
	memcpy(dst, "cde", 3);
	buf_commit(&b, 3);
	ck_assert_str_eq(buf_ptr(&b), "abcde");
	buf_commit(&b, 0);
	ck_assert_uint_eq(buf_len(&b), 5);
	ck_assert_ptr_null(buf_reserve(&b, 6));
	ck_assert_uint_eq(buf_len(&b), 5);
	buf_free(&b);
}
END_TEST

START_TEST(buf_trunc_gives_back_a_tail_and_refuses_to_grow)
{
	struct buf b;

	buf_init(&b, 10);
	ck_assert_int_eq(buf_puts(&b, "abcdef"), 0);
	ck_assert_int_eq(buf_trunc(&b, 2), 0);
	ck_assert_str_eq(buf_ptr(&b), "ab");
	errno = 0;
	ck_assert_int_eq(buf_trunc(&b, 3), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_str_eq(buf_ptr(&b), "ab");
	ck_assert_int_eq(buf_trunc(&b, 0), 0);
	ck_assert_str_eq(buf_ptr(&b), "");
	buf_free(&b);
	ck_assert_int_eq(buf_trunc(&b, 0), 0);
}
END_TEST

START_TEST(buf_tail_keeps_the_last_bytes_at_the_front)
{
	struct buf b;

	buf_init(&b, 10);
	ck_assert_int_eq(buf_tail(&b, 0), 0);
	ck_assert_int_eq(buf_puts(&b, "abcdef"), 0);
	ck_assert_int_eq(buf_tail(&b, 6), 0);
	ck_assert_str_eq(buf_ptr(&b), "abcdef");
	ck_assert_int_eq(buf_tail(&b, 2), 0);
	ck_assert_str_eq(buf_ptr(&b), "ef");
	errno = 0;
	ck_assert_int_eq(buf_tail(&b, 3), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_str_eq(buf_ptr(&b), "ef");
	/* The room freed at the front counts against the max again. */
	ck_assert_int_eq(buf_puts(&b, "ghijklmn"), 0);
	ck_assert_uint_eq(buf_room(&b), 0);
	ck_assert_int_eq(buf_tail(&b, 0), 0);
	ck_assert_uint_eq(buf_len(&b), 0);
	buf_free(&b);
}
END_TEST

START_TEST(buf_reset_keeps_memory_and_reset_max_changes_the_limit)
{
	struct buf b;
	const char *p;

	buf_init(&b, 100);
	ck_assert_int_eq(buf_puts(&b, "hello"), 0);
	p = buf_ptr(&b);
	buf_reset(&b);
	ck_assert_uint_eq(buf_len(&b), 0);
	ck_assert_str_eq(buf_ptr(&b), "");
	ck_assert_ptr_eq(buf_ptr(&b), p);
	ck_assert_int_eq(buf_puts(&b, "hello"), 0);
	buf_reset_max(&b, 3);
	ck_assert_uint_eq(buf_len(&b), 0);
	ck_assert_uint_eq(buf_max(&b), 3);
	ck_assert_ptr_eq(buf_ptr(&b), p);
	ck_assert_int_eq(buf_puts(&b, "abcd"), -1);
	ck_assert_int_eq(buf_puts(&b, "abc"), 0);
	buf_reset_max(&b, 50);
	ck_assert_int_eq(buf_puts(&b, "abcdefghij"), 0);
	buf_free(&b);
}
END_TEST

START_TEST(buf_free_leaves_a_reusable_buffer_with_its_max)
{
	struct buf b;

	buf_init(&b, 4);
	ck_assert_int_eq(buf_puts(&b, "abcd"), 0);
	buf_free(&b);
	ck_assert_uint_eq(buf_len(&b), 0);
	ck_assert_uint_eq(buf_held(&b), 0);
	ck_assert_ptr_null(buf_data(&b));
	ck_assert_uint_eq(buf_max(&b), 4);
	ck_assert_int_eq(buf_puts(&b, "abcde"), -1);
	ck_assert_int_eq(buf_puts(&b, "abcd"), 0);
	buf_free(&b);
}
END_TEST

START_TEST(buf_init_clamps_a_huge_max)
{
	struct buf b;

	buf_init(&b, SIZE_MAX);
	ck_assert_uint_lt(buf_max(&b), SIZE_MAX - 1);
	errno = 0;
	ck_assert_ptr_null(buf_reserve(&b, SIZE_MAX));
	ck_assert_int_eq(errno, EMSGSIZE);
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
	ck_assert_ptr_null(buf_data(&b));
	ck_assert_uint_eq(buf_len(&b), 0);
	free(p);
	buf_reset(&b);
	buf_free(&b);
}
END_TEST

/* The pad: zeros past the contents, readable (an exactly sized buffer
 * when it grows one, so a read past it is an ASan error), not counted,
 * not held to the maximum, and appends still stop at the maximum. */
START_TEST(buf_pad_zeroes_bytes_past_the_contents_beyond_the_max)
{
	static const char junk[64] = "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx";
	struct buf b;
	size_t i;

	buf_init(&b, 8);
	ck_assert_int_eq(buf_pad(&b, 16), 0); /* empty: allocates */
	for (i = 0; i < 16; i++)
		ck_assert_int_eq(buf_ptr(&b)[i], 0);
	ck_assert_uint_eq(buf_len(&b), 0);
	ck_assert_int_eq(buf_append(&b, "12345678", 8), 0);
	ck_assert_int_eq(buf_pad(&b, 16), 0); /* at the maximum */
	ck_assert_uint_eq(buf_len(&b), 8);
	ck_assert_mem_eq(buf_ptr(&b), "12345678", 8);
	for (i = 8; i < 24; i++)
		ck_assert_int_eq(buf_ptr(&b)[i], 0);
	ck_assert_uint_ge(buf_held(&b), 24);
	errno = 0;
	ck_assert_int_eq(buf_append(&b, "9", 1), -1);
	ck_assert_int_eq(errno, EMSGSIZE);
	/* bytes left past the end by a truncation are zeroed again */
	buf_free(&b);
	buf_init(&b, 1000);
	ck_assert_int_eq(buf_append(&b, junk, sizeof(junk)), 0);
	ck_assert_int_eq(buf_trunc(&b, 3), 0);
	ck_assert_int_eq(buf_pad(&b, 16), 0);
	ck_assert_mem_eq(buf_ptr(&b), "xxx", 3);
	for (i = 3; i < 19; i++)
		ck_assert_int_eq(buf_ptr(&b)[i], 0);
	ck_assert_int_eq(buf_pad(&b, 0), 0);
	ck_assert_int_eq(buf_pad(&b, SIZE_MAX), -1);
	ck_assert_int_eq(errno, ENOMEM);
	ck_assert_mem_eq(buf_ptr(&b), "xxx", 3);
	buf_free(&b);
}
END_TEST

static Suite *
suite_buf(void)
{
	Suite *s = suite_create("buf");
	TCase *tc = tcase_create("Core");
	TCase *lim = tcase_create("Limits");

	tcase_add_test(tc, buf_append_grows_and_terminates);
	tcase_add_test(tc, buf_printf_formats_long_output);
	tcase_add_test(tc, buf_vprintf_appends_short_and_long_output);
	tcase_add_test(tc, buf_ptr_is_an_empty_string_before_the_first_append);
	tcase_add_test(tc, buf_reserve_and_commit_append_what_was_written);
	tcase_add_test(tc, buf_trunc_gives_back_a_tail_and_refuses_to_grow);
	tcase_add_test(tc, buf_tail_keeps_the_last_bytes_at_the_front);
	tcase_add_test(
	    tc, buf_reset_keeps_memory_and_reset_max_changes_the_limit);
	tcase_add_test(tc, buf_free_leaves_a_reusable_buffer_with_its_max);
	tcase_add_test(tc, buf_take_hands_over_ownership);
	tcase_add_test(lim, buf_append_refuses_past_max_and_keeps_contents);
	tcase_add_loop_test(lim, every_appender_stops_exactly_at_the_max, 0,
	    (int)GPT_ARRAY_LEN(over_max));
	tcase_add_test(lim, buf_init_clamps_a_huge_max);
	tcase_add_test(
	    lim, buf_pad_zeroes_bytes_past_the_contents_beyond_the_max);
	suite_add_tcase(s, tc);
	suite_add_tcase(s, lim);
	return s;
}

CHECK_MAIN(suite_buf)
