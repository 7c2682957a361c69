/* check_store.c: the directory store: ids, names, atomic records, locks,
 * the sweep. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check_main.h"
#include "site/store.h"

static char tmpl[64];

static void
setup(void)
{
	snprintf(tmpl, sizeof(tmpl), "/tmp/check_store.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(tmpl));
}

static void
teardown(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpl);
	ck_assert_int_eq(system(cmd), 0);
}

START_TEST(store_new_id_gives_distinct_random_ids)
{
	unsigned char a[STORE_ID_BYTES], b[STORE_ID_BYTES];

	ck_assert_int_eq(store_new_id(a), 0);
	ck_assert_int_eq(store_new_id(b), 0);
	ck_assert(!store_same_id(a, b, STORE_ID_BYTES));
}
END_TEST

START_TEST(store_id_parse_reads_what_store_id_hex_writes)
{
	unsigned char id[STORE_ID_BYTES], back[STORE_ID_BYTES];
	char hex[STORE_ID_HEX + 1];

	ck_assert_int_eq(store_new_id(id), 0);
	store_id_hex(id, hex);
	ck_assert_uint_eq(strlen(hex), STORE_ID_HEX);
	ck_assert_int_eq(store_id_parse(hex, strlen(hex), back), 0);
	ck_assert(store_same_id(id, back, STORE_ID_BYTES));
	ck_assert_int_eq(
	    store_id_parse("00112233445566778899AABBCCDDEEFF", 32, back), 0);
	ck_assert_uint_eq(back[15], 0xff);
}
END_TEST

START_TEST(store_id_parse_rejects_malformed_ids)
{
	static const char *const bad[] = {"", "0", "xyz",
	    "0011223344556677889900112233445",   /* 31 */
	    "001122334455667788990011223344556", /* 33 */
	    "0011223344556677889900112233445g",
	    "00112233445566778899001122334 55"};
	unsigned char id[STORE_ID_BYTES];
	size_t i;

	for (i = 0; i < GPT_ARRAY_LEN(bad); i++) {
		ck_assert_msg(store_id_parse(bad[i], strlen(bad[i]), id) == -1,
		    "accepted \"%s\"", bad[i]);
		ck_assert_uint_eq(id[0] | id[15], 0);
	}
}
END_TEST

START_TEST(store_name_hides_the_secret)
{
	char name[STORE_NAME_MAX], again[STORE_NAME_MAX];

	store_name(STORE_TASK, "secret", 6, name);
	store_name(STORE_TASK, "secret", 6, again);
	ck_assert_str_eq(name, again);
	ck_assert_uint_eq(strlen(name), 2 + STORE_ID_HEX);
	ck_assert(name[0] == 't' && name[1] == '-');
	ck_assert_ptr_null(strstr(name, "secret"));
	store_name(STORE_KEY, "secret", 6, again);
	ck_assert(again[0] == 'k');
	ck_assert_str_eq(name + 1, again + 1);
}
END_TEST

START_TEST(store_open_creates_a_private_directory)
{
	struct store s;
	struct stat st;
	char path[128];

	ck_assert_int_eq(store_open(&s, tmpl, ".store"), 0);
	snprintf(path, sizeof(path), "%s/.store", tmpl);
	ck_assert_int_eq(stat(path, &st), 0);
	ck_assert_uint_eq(st.st_mode & 0777, 0700);
	store_close(&s);
	ck_assert_int_eq(store_open(&s, tmpl, ".store"), 0);
	store_close(&s);
}
END_TEST

START_TEST(store_usable_says_what_store_open_would_do_and_makes_nothing)
{
	struct store s;
	struct stat st;
	char path[128], link[128];
	int fd;

	/* missing, in a directory this process may write: store_open makes it
	 */
	ck_assert(store_usable(tmpl, ".store"));
	snprintf(path, sizeof(path), "%s/.store", tmpl);
	ck_assert_int_eq(stat(path, &st), -1);
	ck_assert_int_eq(errno, ENOENT);
	ck_assert_int_eq(store_open(&s, tmpl, ".store"), 0);
	store_close(&s);
	ck_assert(store_usable(tmpl, ".store"));
	ck_assert(store_usable("/nowhere", path)); /* absolute: base unused */
	/* in a directory that does not exist, a file, a symlink: no */
	ck_assert(!store_usable(tmpl, "missing/.store"));
	snprintf(path, sizeof(path), "%s/file", tmpl);
	ck_assert_int_ge(fd = open(path, O_CREAT | O_WRONLY, 0600), 0);
	close(fd);
	ck_assert(!store_usable(tmpl, "file"));
	snprintf(link, sizeof(link), "%s/lnk", tmpl);
	ck_assert_int_eq(symlink("/tmp", link), 0);
	ck_assert(!store_usable(tmpl, "lnk"));
}
END_TEST

START_TEST(store_open_refuses_a_symlink)
{
	struct store s;
	char link[128];

	snprintf(link, sizeof(link), "%s/lnk", tmpl);
	ck_assert_int_eq(symlink("/tmp", link), 0);
	ck_assert_int_eq(store_open(&s, tmpl, "lnk"), -1);
	ck_assert_int_eq(s.dfd, -1);
}
END_TEST

START_TEST(store_put_replaces_and_store_get_reads)
{
	struct store s;
	struct buf b;

	buf_init(&b, 1024);
	ck_assert_int_eq(store_open(&s, tmpl, "st"), 0);
	ck_assert_int_eq(store_get(&s, "t-x", &b, 1024), -1);
	ck_assert_int_eq(errno, ENOENT);
	ck_assert_int_eq(store_put(&s, "t-x", "one", 3, true), 0);
	ck_assert_int_eq(store_put(&s, "t-x", "second", 6, false), 0);
	ck_assert_int_eq(store_get(&s, "t-x", &b, 1024), 0);
	ck_assert_uint_eq(buf_len(&b), 6);
	ck_assert_int_eq(memcmp(buf_ptr(&b), "second", 6), 0);
	ck_assert_int_eq(store_get(&s, "t-x", &b, 3), -1);
	ck_assert_int_eq(errno, EMSGSIZE);
	ck_assert_int_eq(store_remove(&s, "t-x"), 0);
	ck_assert_int_eq(store_remove(&s, "t-x"), 0);
	ck_assert_int_eq(store_get(&s, "t-x", &b, 1024), -1);
	buf_free(&b);
	store_close(&s);
}
END_TEST

START_TEST(store_create_refuses_an_existing_record)
{
	struct store s;

	ck_assert_int_eq(store_open(&s, tmpl, "st"), 0);
	ck_assert_int_eq(store_create(&s, "k-a", "1", 1), 0);
	ck_assert_int_eq(store_create(&s, "k-a", "2", 1), -1);
	ck_assert_int_eq(errno, EEXIST);
	store_close(&s);
}
END_TEST

START_TEST(store_put_fails_in_a_read_only_store)
{
	struct store s;
	char path[128];

	if (geteuid() == 0)
		return; /* root writes anyway: nothing to see */
	ck_assert_int_eq(store_open(&s, tmpl, "ro"), 0);
	snprintf(path, sizeof(path), "%s/ro", tmpl);
	ck_assert_int_eq(chmod(path, 0500), 0);
	ck_assert_int_eq(store_put(&s, "t-x", "one", 3, true), -1);
	ck_assert_int_eq(errno, EACCES);
	ck_assert_int_eq(chmod(path, 0700), 0);
	store_close(&s);
}
END_TEST

START_TEST(store_lock_is_held_until_its_holder_dies)
{
	struct store s;
	int fd, p[2], ws;
	pid_t pid;
	char c;

	ck_assert_int_eq(store_open(&s, tmpl, "st"), 0);
	ck_assert(!store_lock_held(&s, "l-a"));
	ck_assert_int_eq(pipe(p), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		int lfd = store_lock(&s, "l-a", true);

		(void)write(p[1], lfd >= 0 ? "y" : "n", 1);
		pause();
		_exit(0);
	}
	ck_assert_int_eq(read(p[0], &c, 1), 1);
	ck_assert_int_eq(c, 'y');
	ck_assert(store_lock_held(&s, "l-a"));
	ck_assert_int_eq(store_lock(&s, "l-a", false), -1);
	ck_assert_int_eq(errno, EWOULDBLOCK);
	kill(pid, SIGKILL);
	ck_assert_int_eq(waitpid(pid, &ws, 0), pid);
	ck_assert(!store_lock_held(&s, "l-a"));
	fd = store_lock(&s, "l-a", false);
	ck_assert_int_ge(fd, 0);
	close(fd);
	close(p[0]);
	close(p[1]);
	store_close(&s);
}
END_TEST

START_TEST(store_expiry_reads_the_common_head)
{
	ck_assert_int_eq(store_expiry("gpt-task 1 123 x", 16), 123);
	ck_assert_int_eq(store_expiry("gpt-key 1 9 x", 13), 9);
	ck_assert_int_eq(store_expiry("gpt-key 2 9 x", 13), -1);
	ck_assert_int_eq(store_expiry("gpt-key 1 x", 11), -1);
	ck_assert_int_eq(store_expiry("junk", 4), -1);
	ck_assert_int_eq(store_expiry("gpt-", 4), -1);
}
END_TEST

START_TEST(store_sweep_removes_only_expired_records)
{
	static const char old[] = "gpt-task 1 100 rest";
	static const char young[] = "gpt-key 1 99999999999 rest";
	char told[STORE_NAME_MAX], tyoung[STORE_NAME_MAX];
	char tlock[STORE_NAME_MAX], theld[STORE_NAME_MAX];
	struct store s;
	struct buf b;
	int fd;

	buf_init(&b, 1024);
	ck_assert_int_eq(store_open(&s, tmpl, "st"), 0);
	store_name(STORE_TASK, "a", 1, told);
	store_name(STORE_KEY, "b", 1, tyoung);
	store_name(STORE_TASK, "c", 1, theld);
	ck_assert_int_eq(store_put(&s, told, old, strlen(old), false), 0);
	ck_assert_int_eq(store_put(&s, tyoung, young, strlen(young), false), 0);
	ck_assert_int_eq(store_put(&s, theld, old, strlen(old), false), 0);
	ck_assert_int_eq(store_put(&s, "other", old, strlen(old), false), 0);
	memcpy(tlock, theld, sizeof(tlock));
	tlock[0] = STORE_LOCK;
	fd = store_lock(&s, tlock, false);
	ck_assert_int_ge(fd, 0);
	/* the held one stays: its runner still lives (flock is per open
	 * file: a second open in this process cannot take it either) */
	ck_assert_uint_eq(store_sweep(&s, 1000), 1);
	ck_assert_int_eq(store_get(&s, told, &b, 1024), -1);
	ck_assert_int_eq(store_get(&s, tyoung, &b, 1024), 0);
	ck_assert_int_eq(store_get(&s, theld, &b, 1024), 0);
	ck_assert_int_eq(store_get(&s, "other", &b, 1024), 0);
	close(fd);
	ck_assert_uint_eq(store_sweep(&s, 1000), 1);
	ck_assert_int_eq(store_get(&s, theld, &b, 1024), -1);
	buf_free(&b);
	store_close(&s);
}
END_TEST

static Suite *
suite_store(void)
{
	Suite *s = suite_create("store");
	TCase *tc = tcase_create("Core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, store_new_id_gives_distinct_random_ids);
	tcase_add_test(tc, store_id_parse_reads_what_store_id_hex_writes);
	tcase_add_test(tc, store_id_parse_rejects_malformed_ids);
	tcase_add_test(tc, store_name_hides_the_secret);
	tcase_add_test(tc, store_open_creates_a_private_directory);
	tcase_add_test(
	    tc, store_usable_says_what_store_open_would_do_and_makes_nothing);
	tcase_add_test(tc, store_open_refuses_a_symlink);
	tcase_add_test(tc, store_put_replaces_and_store_get_reads);
	tcase_add_test(tc, store_create_refuses_an_existing_record);
	tcase_add_test(tc, store_put_fails_in_a_read_only_store);
	tcase_add_test(tc, store_lock_is_held_until_its_holder_dies);
	tcase_add_test(tc, store_expiry_reads_the_common_head);
	tcase_add_test(tc, store_sweep_removes_only_expired_records);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(suite_store)
