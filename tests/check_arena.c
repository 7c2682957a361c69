/* check_arena.c: the bump allocator's cap, alignment, rewind and reset. */
#include <string.h>

#include "base/arena.h"
#include "check_main.h"

START_TEST(arena_alloc_returns_aligned_distinct_memory)
{
	struct arena a;
	char *p, *q;

	arena_init(&a, 1 << 20);
	p = arena_alloc(&a, 3);
	q = arena_alloc(&a, 5);
	ck_assert_ptr_nonnull(p);
	ck_assert_ptr_nonnull(q);
	ck_assert_ptr_ne(p, q);
	ck_assert_uint_eq((uintptr_t)p % ARENA_ALIGN, 0);
	ck_assert_uint_eq((uintptr_t)q % ARENA_ALIGN, 0);
	memset(p, 'x', 3);
	memset(q, 'y', 5);
	ck_assert_int_eq(p[2], 'x');
	arena_free(&a);
}
END_TEST

START_TEST(arena_alloc_refuses_past_cap_and_stays_usable)
{
	struct arena a;

	arena_init(&a, 64 * 1024);
	ck_assert_ptr_nonnull(arena_alloc(&a, 1000));
	ck_assert_ptr_null(arena_alloc(&a, 100 * 1024));
	ck_assert_ptr_null(arena_alloc(&a, SIZE_MAX));
	ck_assert_ptr_null(arena_calloc(&a, SIZE_MAX / 2, 4));
	ck_assert_ptr_nonnull(arena_alloc(&a, 1000));
	ck_assert_uint_le(arena_held(&a), arena_cap(&a));
	arena_free(&a);
}
END_TEST

START_TEST(arena_grows_across_blocks)
{
	struct arena a;
	int i;

	arena_init(&a, 64 << 20);
	for (i = 0; i < 10000; i++) {
		char *p = arena_alloc(&a, 1000);

		ck_assert_ptr_nonnull(p);
		memset(p, i & 0xff, 1000);
	}
	ck_assert_uint_ge(arena_held(&a), 10000 * 1000);
	arena_free(&a);
	ck_assert_uint_eq(arena_held(&a), 0);
}
END_TEST

static int cleanups_run;

static void
count_cleanup(void *p)
{
	(void)p;
	cleanups_run++;
}

START_TEST(arena_rewind_gives_back_later_memory_and_runs_cleanups)
{
	struct arena a;
	struct arena_mark m;
	size_t held;
	int i;

	arena_init(&a, 64 << 20);
	ck_assert_ptr_nonnull(arena_alloc(&a, 100));
	m = arena_mark(&a);
	held = arena_held(&a);
	cleanups_run = 0;
	for (i = 0; i < 100; i++)
		ck_assert_ptr_nonnull(arena_alloc(&a, 10000));
	ck_assert_int_eq(arena_defer(&a, count_cleanup, NULL), 0);
	arena_rewind(&a, m);
	ck_assert_int_eq(cleanups_run, 1);
	ck_assert_uint_eq(arena_held(&a), held);
	arena_free(&a);
	ck_assert_int_eq(cleanups_run, 1);
}
END_TEST

START_TEST(arena_reset_settles_on_one_block_and_runs_cleanups)
{
	struct arena a;
	size_t held[4];
	int i, round;

	arena_init(&a, 64 << 20);
	cleanups_run = 0;
	for (round = 0; round < 4; round++) {
		for (i = 0; i < 50; i++)
			ck_assert_ptr_nonnull(arena_alloc(&a, 4000));
		ck_assert_int_eq(arena_defer(&a, count_cleanup, NULL), 0);
		held[round] = arena_held(&a);
		arena_reset(&a);
	}
	ck_assert_int_eq(cleanups_run, 4);
	/* The first round took several blocks; after it, one block as large
	 * as they were together serves every round and is kept. */
	ck_assert_uint_eq(held[1], held[0]);
	ck_assert_uint_eq(held[2], held[1]);
	ck_assert_uint_eq(arena_held(&a), held[1]);
	ck_assert_uint_eq(arena_peak(&a), held[0]);
	arena_free(&a);
	ck_assert_uint_eq(arena_held(&a), 0);
}
END_TEST

START_TEST(arena_strndup_copies_and_terminates)
{
	struct arena a;
	char *s;

	arena_init(&a, 1 << 20);
	s = arena_strndup(&a, "ab\0cd", 5);
	ck_assert_ptr_nonnull(s);
	ck_assert_mem_eq(s, "ab\0cd", 5);
	ck_assert_int_eq(s[5], '\0');
	arena_free(&a);
}
END_TEST

START_TEST(arena_set_cap_applies_to_the_allocations_that_follow)
{
	struct arena a;

	arena_init(&a, 64 * 1024);
	ck_assert_uint_eq(arena_cap(&a), 64 * 1024);
	ck_assert_ptr_null(arena_alloc(&a, 100 * 1024));
	arena_set_cap(&a, 256 * 1024);
	ck_assert_uint_eq(arena_cap(&a), 256 * 1024);
	ck_assert_ptr_nonnull(arena_alloc(&a, 100 * 1024));
	ck_assert_uint_ge(arena_held(&a), 100 * 1024);
	/* Lowered under what is held: the next new block is refused. */
	arena_set_cap(&a, 1024);
	ck_assert_ptr_null(arena_alloc(&a, 200 * 1024));
	arena_free(&a);
	ck_assert_ptr_nonnull(arena_alloc(&a, 512));
	arena_free(&a);
}
END_TEST

static Suite *
suite_arena(void)
{
	Suite *s = suite_create("arena");
	TCase *tc = tcase_create("Core");

	tcase_add_test(tc, arena_alloc_returns_aligned_distinct_memory);
	tcase_add_test(tc, arena_alloc_refuses_past_cap_and_stays_usable);
	tcase_add_test(tc, arena_grows_across_blocks);
	tcase_add_test(tc, arena_rewind_gives_back_later_memory_and_runs_cleanups);
	tcase_add_test(tc, arena_reset_settles_on_one_block_and_runs_cleanups);
	tcase_add_test(tc, arena_strndup_copies_and_terminates);
	tcase_add_test(tc, arena_set_cap_applies_to_the_allocations_that_follow);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(suite_arena)
