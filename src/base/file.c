/*
 * file.c: whole-file reads under a cap.  A file read by path is sized by
 * fstat first, so the destination is allocated once; one more read after
 * the expected end (into a probe byte) tells a file that grew.
 */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "base/arena.h"
#include "base/buf.h"
#include "base/file.h"

/* Set errno to e and the reason to text; -1. */
static int
file_fail(int e, char *why, size_t whylen, const char *text)
{
	snprintf(why, whylen, "%s", text);
	errno = e;
	return -1;
}

static int
file_fail_sys(char *why, size_t whylen)
{
	int e = errno;

	snprintf(why, whylen, "%s", strerror(e));
	errno = e;
	return -1;
}

/* read(2) retried on EINTR. */
static ssize_t
file_read_some(int fd, char *p, size_t n)
{
	ssize_t got;

	do
		got = read(fd, p, n);
	while (got == -1 && errno == EINTR);
	return got;
}

/* close(2) that keeps errno (the reason of the failure being reported). */
static void
file_close(int fd)
{
	int e = errno;

	close(fd);
	errno = e;
}

/* The flags every file of ours is opened with (file.h). */
#define FILE_OPEN_FLAGS                                                        \
	(O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY)

/*
 * The fd just opened (or -1 from open(2)): a regular file of at most max
 * bytes, its size in *size; else -1 (errno, why) with fd closed.
 */
static int
file_check(int fd, size_t max, size_t *size, char *why, size_t whylen)
{
	struct stat st;

	if (fd == -1) {
		/* hits on a path whose last component is a symbolic link */
		if (errno == ELOOP)
			return file_fail(ELOOP, why, whylen,
			    "a symbolic link (not followed)");
		return file_fail_sys(why, whylen);
	}
	if (fstat(fd, &st) == -1) {
		file_fail_sys(why, whylen);
		goto fail;
	}
	if (!S_ISREG(st.st_mode)) {
		/* hits on a directory or a FIFO in the file's place */
		file_fail(EINVAL, why, whylen, "not a regular file");
		goto fail;
	}
	if ((uintmax_t)st.st_size > max) {
		snprintf(why, whylen, "larger than %zu bytes", max);
		errno = EFBIG;
		goto fail;
	}
	*size = (size_t)st.st_size;
	return fd;
fail:
	file_close(fd);
	return -1;
}

/*
 * Open path as described in file.h and return its descriptor and size, or
 * -1.  A file larger than max is refused here, before anything is read.
 */
static int
file_open(const char *path, size_t max, size_t *size, char *why, size_t whylen)
{
	return file_check(open(path, FILE_OPEN_FLAGS), max, size, why, whylen);
}

int
file_open_beneath(const char *base, const char *rel, size_t rel_len, size_t max,
    size_t *size, char *why, size_t whylen)
{
	char name[FILE_COMPONENT_MAX + 1];
	size_t at = 0, seg, i;
	int dfd, fd;

	/* every component plain before any is opened; bounded by rel_len */
	if (memchr(rel, '\0', rel_len) != NULL)
		/* hits on "a\0b" */
		return file_fail(
		    EINVAL, why, whylen, "not a plain relative path");
	for (i = 0, seg = 0; i <= rel_len; i++) {
		if (i < rel_len && rel[i] != '/')
			continue;
		/* hits on "", "a//b", "../x", "./x", "x/" */
		if (i == seg || i - seg > FILE_COMPONENT_MAX ||
		    (i - seg == 1 && rel[seg] == '.') ||
		    (i - seg == 2 && rel[seg] == '.' && rel[seg + 1] == '.'))
			return file_fail(
			    EINVAL, why, whylen, "not a plain relative path");
		seg = i + 1;
	}
	dfd = open(base, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOCTTY);
	if (dfd == -1)
		return file_fail_sys(why, whylen);
	/* bounded by rel_len: each pass takes one component */
	for (;;) {
		const char *slash = memchr(rel + at, '/', rel_len - at);

		seg =
		    slash != NULL ? (size_t)(slash - (rel + at)) : rel_len - at;
		memcpy(name, rel + at, seg);
		name[seg] = '\0';
		if (slash == NULL)
			break;
		/* a directory on the way, never through a symbolic link */
		fd = openat(dfd, name,
		    O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY);
		if (fd == -1) {
			struct stat st;
			int e = errno;

			/* hits on refs/sub -> /etc: Linux says ENOTDIR or
			 * ELOOP for a link opened O_NOFOLLOW|O_DIRECTORY */
			if (e == ELOOP || (e == ENOTDIR &&
			                      fstatat(dfd, name, &st,
			                          AT_SYMLINK_NOFOLLOW) == 0 &&
			                      S_ISLNK(st.st_mode))) {
				file_close(dfd);
				return file_fail(ELOOP, why, whylen,
				    "a symbolic link on the path (not "
				    "followed)");
			}
			file_close(dfd);
			errno = e;
			return file_fail_sys(why, whylen);
		}
		close(dfd);
		dfd = fd;
		at += seg + 1;
	}
	fd = openat(dfd, name, FILE_OPEN_FLAGS);
	file_close(dfd);
	return file_check(fd, max, size, why, whylen);
}

/*
 * Read exactly size bytes of fd into p, and make sure nothing follows.
 * 0, or -1 (errno, why).
 */
static int
file_read_exact(int fd, char *p, size_t size, char *why, size_t whylen)
{
	size_t got = 0;
	ssize_t n;
	char probe;

	while (got < size) {
		if ((n = file_read_some(fd, p + got, size - got)) == -1)
			return file_fail_sys(why, whylen);
		if (n == 0)
			break;
		got += (size_t)n;
	}
	if (got == size && (n = file_read_some(fd, &probe, 1)) == -1)
		return file_fail_sys(why, whylen);
	/* hits on a file truncated or appended to between fstat and EOF */
	if (got != size || n != 0)
		return file_fail(
		    EAGAIN, why, whylen, "changed while being read");
	return 0;
}

int
file_read_buf(const char *path, struct buf *out, char *why, size_t whylen)
{
	size_t size, len = buf_len(out);
	char *dst;
	int fd;

	if ((fd = file_open(path, buf_room(out), &size, why, whylen)) == -1)
		return -1;
	if ((dst = buf_reserve(out, size)) == NULL) {
		file_fail(ENOMEM, why, whylen, "out of memory");
		file_close(fd);
		return -1;
	}
	if (file_read_exact(fd, dst, size, why, whylen) == -1) {
		file_close(fd);
		(void)buf_trunc(out, len); /* len is within out */
		return -1;
	}
	buf_commit(out, size);
	close(fd);
	return 0;
}

/* The size bytes of the open fd into a (NUL after them), closing fd; on
 * failure the arena is as it was. */
static int
file_read_opened(int fd, size_t size, struct arena *a, const char **text,
    size_t *len, char *why, size_t whylen)
{
	struct arena_mark m = arena_mark(a);
	char *p;

	if (size == SIZE_MAX || (p = arena_alloc(a, size + 1)) == NULL) {
		file_fail(ENOMEM, why, whylen, "out of memory");
		file_close(fd);
		return -1;
	}
	if (file_read_exact(fd, p, size, why, whylen) == -1) {
		int e = errno;

		close(fd);
		arena_rewind(a, m);
		errno = e;
		return -1;
	}
	close(fd);
	p[size] = '\0';
	*text = p;
	*len = size;
	return 0;
}

int
file_read_arena(const char *path, size_t max, struct arena *a,
    const char **text, size_t *len, char *why, size_t whylen)
{
	size_t size;
	int fd;

	if ((fd = file_open(path, max, &size, why, whylen)) == -1)
		return -1;
	return file_read_opened(fd, size, a, text, len, why, whylen);
}

int
file_read_beneath(const char *base, const char *rel, size_t rel_len, size_t max,
    struct arena *a, const char **text, size_t *len, char *why, size_t whylen)
{
	size_t size;
	int fd;

	if ((fd = file_open_beneath(
	         base, rel, rel_len, max, &size, why, whylen)) == -1)
		return -1;
	return file_read_opened(fd, size, a, text, len, why, whylen);
}

int
file_read_fd(int fd, struct buf *out, char *why, size_t whylen)
{
	size_t len = buf_len(out), want;
	char *dst, probe;
	ssize_t n;

	for (;;) {
		want = buf_room(out) < 65536 ? buf_room(out) : 65536;
		if (want == 0) {
			/* Full: one more byte means over the cap. */
			dst = &probe;
			want = 1;
		} else if ((dst = buf_reserve(out, want)) == NULL) {
			file_fail(ENOMEM, why, whylen, "out of memory");
			goto fail;
		}
		if ((n = file_read_some(fd, dst, want)) == -1) {
			file_fail_sys(why, whylen);
			goto fail;
		}
		if (n == 0)
			return 0;
		if (dst == &probe) {
			/* hits on more input than the cap */
			snprintf(
			    why, whylen, "larger than %zu bytes", buf_max(out));
			errno = EFBIG;
			goto fail;
		}
		buf_commit(out, (size_t)n);
	}
fail:
	(void)buf_trunc(out, len); /* len is within out: keeps errno */
	return -1;
}
