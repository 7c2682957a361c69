/* check_file.c: whole-file reads that refuse what they must not take. */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/arena.h"
#include "base/buf.h"
#include "check_main.h"
#include "base/file.h"

static char dir[256];

static void
make_dir(void)
{
	const char *tmp = getenv("TMPDIR");
	int n = snprintf(dir, sizeof(dir), "%s/check_file.XXXXXX",
	    tmp != NULL && *tmp != '\0' ? tmp : "/tmp");

	ck_assert(n > 0 && (size_t)n < sizeof(dir));
	ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void
in_dir(char *path, size_t size, const char *name)
{
	int n = snprintf(path, size, "%s/%s", dir, name);

	ck_assert(n > 0 && (size_t)n < size);
}

static void
write_file(const char *name, size_t n)
{
	char path[300];
	FILE *f;
	size_t i;

	in_dir(path, sizeof(path), name);
	ck_assert_ptr_nonnull(f = fopen(path, "w"));
	for (i = 0; i < n; i++)
		fputc('a' + (int)(i % 26), f);
	ck_assert_int_eq(fclose(f), 0);
}

static void
setup(void)
{
	char path[300], target[300];

	make_dir();
	write_file("ten", 10);
	write_file("empty", 0);
	in_dir(path, sizeof(path), "link");
	in_dir(target, sizeof(target), "ten");
	ck_assert_int_eq(symlink(target, path), 0);
	in_dir(path, sizeof(path), "fifo");
	ck_assert_int_eq(mkfifo(path, 0600), 0);
	in_dir(path, sizeof(path), "sub");
	ck_assert_int_eq(mkdir(path, 0700), 0);
}

static void
teardown(void)
{
	static const char *names[] = {"ten", "empty", "link", "fifo", "sub"};
	char path[300];
	size_t i;

	for (i = 0; i < GPT_ARRAY_LEN(names); i++) {
		in_dir(path, sizeof(path), names[i]);
		remove(path);
	}
	rmdir(dir);
}

/* What a read by path gives: the bytes, or the errno it fails with. */
static const struct {
	const char *name; /* under dir, or absolute */
	size_t max;
	int err; /* 0: read, 10 bytes ("ten") or none ("empty") */
	size_t len;
} by_path[] = {
	{"ten", 10, 0, 10},
	{"ten", 1000, 0, 10},
	{"empty", 0, 0, 0},
	{"ten", 9, EFBIG, 0},	 /* one byte over the cap */
	{"link", 1000, ELOOP, 0}, /* a symbolic link to "ten" */
	{"fifo", 1000, EINVAL, 0}, /* and the open does not wait */
	{"sub", 1000, EINVAL, 0},
	{"missing", 1000, ENOENT, 0},
	/* Size 0 by fstat, but content: what a growing file looks like. */
	{"/proc/self/status", 1 << 20, EAGAIN, 0},
};

static void
path_of(char *path, size_t size, const char *name)
{
	if (name[0] == '/')
		snprintf(path, size, "%s", name);
	else
		in_dir(path, size, name);
}

START_TEST(file_read_buf_takes_only_a_whole_regular_file_under_the_cap)
{
	char path[300], why[FILE_WHY_MAX];
	struct buf b;
	int rc;

	path_of(path, sizeof(path), by_path[_i].name);
	/* Something already in the buffer: the cap counts it, and a
	 * failure leaves it as it was. */
	buf_init(&b, by_path[_i].max + 2);
	ck_assert_int_eq(buf_puts(&b, "<>"), 0);
	errno = 0;
	why[0] = '\0';
	rc = file_read_buf(path, &b, why, sizeof(why));
	if (by_path[_i].err != 0) {
		ck_assert_msg(rc == -1, "%s was read", by_path[_i].name);
		ck_assert_int_eq(errno, by_path[_i].err);
		ck_assert_msg(why[0] != '\0', "no reason given");
		ck_assert_str_eq(buf_ptr(&b), "<>");
	} else {
		ck_assert_msg(rc == 0, "%s: %s", by_path[_i].name, why);
		ck_assert_uint_eq(buf_len(&b), 2 + by_path[_i].len);
		ck_assert_mem_eq(buf_ptr(&b), "<>abcdefghij",
		    2 + by_path[_i].len);
		ck_assert_int_eq(buf_ptr(&b)[buf_len(&b)], '\0');
	}
	buf_free(&b);
}
END_TEST

START_TEST(file_read_arena_takes_only_a_whole_regular_file_under_the_cap)
{
	char path[300], why[FILE_WHY_MAX];
	const char *text = "untouched";
	size_t len = 12345;
	struct arena a;
	int rc;

	path_of(path, sizeof(path), by_path[_i].name);
	arena_init(&a, 1 << 22);
	errno = 0;
	rc = file_read_arena(path, by_path[_i].max, &a, &text, &len, why,
	    sizeof(why));
	if (by_path[_i].err != 0) {
		ck_assert_msg(rc == -1, "%s was read", by_path[_i].name);
		ck_assert_int_eq(errno, by_path[_i].err);
		ck_assert_str_eq(text, "untouched");
		ck_assert_uint_eq(len, 12345);
		/* Nothing is left behind in the arena but empty blocks. */
	} else {
		ck_assert_msg(rc == 0, "%s: %s", by_path[_i].name, why);
		ck_assert_uint_eq(len, by_path[_i].len);
		ck_assert_mem_eq(text, "abcdefghij", len);
		ck_assert_int_eq(text[len], '\0');
	}
	arena_free(&a);
}
END_TEST

START_TEST(file_read_buf_says_the_cap_in_its_reason)
{
	char path[300], why[FILE_WHY_MAX];
	struct buf b;

	in_dir(path, sizeof(path), "ten");
	buf_init(&b, 9);
	ck_assert_int_eq(file_read_buf(path, &b, why, sizeof(why)), -1);
	ck_assert_str_eq(why, "larger than 9 bytes");
	in_dir(path, sizeof(path), "link");
	ck_assert_int_eq(file_read_buf(path, &b, why, sizeof(why)), -1);
	ck_assert_str_eq(why, "a symbolic link (not followed)");
	in_dir(path, sizeof(path), "fifo");
	ck_assert_int_eq(file_read_buf(path, &b, why, sizeof(why)), -1);
	ck_assert_str_eq(why, "not a regular file");
	buf_free(&b);
}
END_TEST

/* A pipe holding n bytes, its write end closed: the read end. */
static int
pipe_of(size_t n)
{
	char chunk[4096];
	int fds[2];
	size_t put;

	ck_assert(n <= 60000); /* fits in a pipe without a reader */
	memset(chunk, 'p', sizeof(chunk));
	ck_assert_int_eq(pipe(fds), 0);
	for (put = 0; put < n;) {
		size_t k = n - put < sizeof(chunk) ? n - put : sizeof(chunk);
		ssize_t w = write(fds[1], chunk, k);

		ck_assert_int_gt(w, 0);
		put += (size_t)w;
	}
	close(fds[1]);
	return fds[0];
}

static const struct {
	size_t n, max;
	int err;
} by_fd[] = {
	{0, 0, 0},
	{0, 10, 0},
	{10, 10, 0},	/* exactly the cap */
	{50000, 50000, 0},
	{11, 10, EFBIG}, /* one byte over */
	{50000, 100, EFBIG},
};

START_TEST(file_read_fd_reads_a_pipe_to_its_end_under_the_cap)
{
	char why[FILE_WHY_MAX];
	int fd = pipe_of(by_fd[_i].n), rc;
	struct buf b;

	buf_init(&b, by_fd[_i].max);
	errno = 0;
	rc = file_read_fd(fd, &b, why, sizeof(why));
	close(fd);
	if (by_fd[_i].err != 0) {
		ck_assert_int_eq(rc, -1);
		ck_assert_int_eq(errno, by_fd[_i].err);
		ck_assert_uint_eq(buf_len(&b), 0);
	} else {
		ck_assert_msg(rc == 0, "%zu bytes: %s", by_fd[_i].n, why);
		ck_assert_uint_eq(buf_len(&b), by_fd[_i].n);
	}
	buf_free(&b);
}
END_TEST

START_TEST(file_read_fd_reports_a_read_error)
{
	char why[FILE_WHY_MAX];
	struct buf b;
	int fd;

	/* A directory opens, but read(2) refuses it with EISDIR. */
	ck_assert_int_ge(fd = open(dir, O_RDONLY | O_DIRECTORY), 0);
	buf_init(&b, 100);
	errno = 0;
	ck_assert_int_eq(file_read_fd(fd, &b, why, sizeof(why)), -1);
	ck_assert_int_eq(errno, EISDIR);
	close(fd);
	buf_free(&b);
}
END_TEST

static Suite *
suite_file(void)
{
	Suite *s = suite_create("file");
	TCase *tc = tcase_create("Core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_loop_test(tc,
	    file_read_buf_takes_only_a_whole_regular_file_under_the_cap, 0,
	    (int)GPT_ARRAY_LEN(by_path));
	tcase_add_loop_test(tc,
	    file_read_arena_takes_only_a_whole_regular_file_under_the_cap, 0,
	    (int)GPT_ARRAY_LEN(by_path));
	tcase_add_test(tc, file_read_buf_says_the_cap_in_its_reason);
	tcase_add_loop_test(tc,
	    file_read_fd_reads_a_pipe_to_its_end_under_the_cap, 0,
	    (int)GPT_ARRAY_LEN(by_fd));
	tcase_add_test(tc, file_read_fd_reports_a_read_error);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(suite_file)
