/*
 * sync_cost.c: what making a small new record durable costs on the disk
 * of a directory, by the order of its syscalls, in alternating rounds
 * (bench/tasks.sh prints it beside the 202's cost).
 *
 *   sync_cost DIR [ROUNDS [WRITES]]
 *
 * Each case writes WRITES records of about 200 bytes (a task's record at
 * its 202) into DIR under fresh names and removes them afterwards; the
 * cases take turns, ROUNDS times, and each prints its median time per
 * record (ms):
 *   none        write, rename: no sync (the page cache only)
 *   fsync       write, fsync, rename: one sync, the file's, no directory
 *   file,dir    write, fsync, rename, fsync the directory: two syncs,
 *               two journal commits (what store_put does to replace a
 *               record)
 *   rename1st   write, rename, fsync the file, fsync the directory: the
 *               same two syncs, ordered so that the file's one commits
 *               the rename too (what a task's first record does)
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum { C_NONE, C_FSYNC, C_TWO, C_RENAME1ST, C_N };

static const char *const case_name[C_N] = {
    "none", "fsync", "file,dir", "rename1st"};

static double
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void
die(const char *what)
{
	perror(what);
	exit(1);
}

/* One record under a fresh name, as case c orders its syscalls. */
static void
one(int dfd, int c, unsigned seq, const char *rec, size_t n)
{
	char tmp[64], name[64];
	int fd;

	snprintf(tmp, sizeof(tmp), ".tmp-bench-%ld-%u", (long)getpid(), seq);
	snprintf(name, sizeof(name), "t-bench-%ld-%u", (long)getpid(), seq);
	fd = openat(dfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd == -1)
		die("openat");
	if (write(fd, rec, n) != (ssize_t)n)
		die("write");
	if ((c == C_FSYNC || c == C_TWO) && fsync(fd) == -1)
		die("fsync");
	if (c != C_RENAME1ST && close(fd) == -1)
		die("close");
	if (renameat(dfd, tmp, dfd, name) == -1)
		die("renameat");
	if (c == C_RENAME1ST && (fsync(fd) == -1 || close(fd) == -1))
		die("fsync");
	if ((c == C_TWO || c == C_RENAME1ST) && fsync(dfd) == -1)
		die("fsync dir");
}

static int
cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

int
main(int argc, char **argv)
{
	unsigned rounds = argc > 2 ? (unsigned)atoi(argv[2]) : 5;
	unsigned writes = argc > 3 ? (unsigned)atoi(argv[3]) : 20;
	double *t[C_N];
	char rec[200];
	unsigned r, i, seq = 0;
	int dfd, c;

	if (argc < 2 || rounds == 0 || writes == 0) {
		fprintf(stderr, "usage: sync_cost DIR [ROUNDS [WRITES]]\n");
		return 2;
	}
	dfd = open(argv[1], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd == -1)
		die(argv[1]);
	memset(rec, 'x', sizeof(rec));
	for (c = 0; c < C_N; c++)
		if ((t[c] = calloc(rounds, sizeof(double))) == NULL)
			die("calloc");
	for (r = 0; r < rounds; r++)
		for (c = 0; c < C_N; c++) {
			/* the cases take turns, each starting where the
			 * order of the last round left off */
			int k = (c + (int)r) % C_N;
			unsigned first = seq;
			double t0 = now_ms();

			for (i = 0; i < writes; i++)
				one(dfd, k, seq++, rec, sizeof(rec));
			t[k][r] = (now_ms() - t0) / writes;
			for (i = first; i < seq; i++) {
				char name[64];

				snprintf(name, sizeof(name), "t-bench-%ld-%u",
				    (long)getpid(), i);
				(void)unlinkat(dfd, name, 0);
			}
		}
	for (c = 0; c < C_N; c++) {
		qsort(t[c], rounds, sizeof(double), cmp);
		printf("%s %.3f\n", case_name[c], t[c][rounds / 2]);
	}
	return 0;
}
