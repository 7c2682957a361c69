/*
 * store.c: the directory store (store.h): file names from secrets, atomic
 * durable writes, flock leases, the sweep of expired records.
 *
 * Every path is relative to the store's directory fd (openat, renameat,
 * unlinkat), opened once per use without following a symlink, so a
 * record name can never leave the directory: names are built here from
 * a kind letter and hex digits only.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/sha256.h"
#include "site/store.h"
#include "site/store_pg.h"

/*
 * The last store opened stays open for the next request of the process
 * (a FastCGI process answers many for the same address): one fstat
 * instead of an open and a close.  Its path, and the fd, or -1.
 */
static char store_kept_path[4096];
static int store_kept_fd = -1;

int
store_open(struct store *s, const char *base, const char *dir)
{
	struct stat st;
	int n;

	s->dfd = -1;
	s->cached = false;
	s->pg = false;
	s->scope[0] = '\0';
	s->lease_ms = 0;
	if (dir[0] == '/')
		n = snprintf(s->path, sizeof(s->path), "%s", dir);
	else
		n = snprintf(s->path, sizeof(s->path), "%s/%s", base, dir);
	if (n < 0 || (size_t)n >= sizeof(s->path)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	if (store_kept_fd >= 0 && strcmp(store_kept_path, s->path) == 0) {
		/* still a directory that exists (not removed since) */
		if (fstat(store_kept_fd, &st) == 0 && st.st_nlink > 0) {
			s->dfd = store_kept_fd;
			s->cached = true;
			return 0;
		}
		(void)close(store_kept_fd);
		store_kept_fd = -1;
	}
	/* bounded: a second pass only after mkdir made it */
	for (int pass = 0; pass < 2; pass++) {
		s->dfd = open(
		    s->path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (s->dfd >= 0)
			break;
		if (errno != ENOENT || pass == 1)
			return -1;
		/* hits on the first act at an address: the store is made
		 * by the user gpt.fcgi runs as, private to it */
		if (mkdir(s->path, 0700) == -1 && errno != EEXIST)
			return -1;
	}
	if (s->dfd < 0)
		return -1;
	if (store_kept_fd >= 0)
		(void)close(store_kept_fd);
	store_kept_fd = s->dfd;
	memcpy(store_kept_path, s->path, sizeof(store_kept_path));
	s->cached = true;
	return 0;
}

bool
store_usable(const char *base, const char *dir)
{
	char path[sizeof(((struct store *)0)->path)];
	struct stat st;
	char *slash;
	int n;

	if (dir[0] == '/')
		n = snprintf(path, sizeof(path), "%s", dir);
	else
		n = snprintf(path, sizeof(path), "%s/%s", base, dir);
	if (n < 0 || (size_t)n >= sizeof(path))
		return false;
	if (lstat(path, &st) == 0)
		return S_ISDIR(st.st_mode) &&
		       faccessat(AT_FDCWD, path, W_OK | X_OK, AT_EACCESS) == 0;
	if (errno != ENOENT)
		return false;
	/* missing: store_open makes it in its parent */
	while (n > 1 && path[n - 1] == '/')
		path[--n] = '\0';
	if ((slash = strrchr(path, '/')) == NULL)
		return faccessat(AT_FDCWD, ".", W_OK | X_OK, AT_EACCESS) == 0;
	*(slash == path ? slash + 1 : slash) = '\0';
	return faccessat(AT_FDCWD, path, W_OK | X_OK, AT_EACCESS) == 0;
}

int
store_open_pg(
    struct store *s, const char *conninfo, const char *scope, unsigned lease_s)
{
	size_t n = strlen(scope);

	s->dfd = -1;
	s->cached = false;
	s->pg = true;
	s->lease_ms = lease_s * 1000;
	snprintf(s->path, sizeof(s->path), "postgresql:%s", scope);
	if (n == 0 || n > STORE_SCOPE_MAX) {
		errno = EINVAL;
		return -1;
	}
	memcpy(s->scope, scope, n + 1);
	return store_pg_connect(conninfo);
}

int
store_child(struct store *s, const char *conninfo)
{
	if (!s->pg)
		return 0;
	store_pg_forget();
	return store_pg_connect(conninfo);
}

void
store_unlock(const struct store *s, int lock)
{
	if (lock < 0)
		return;
	if (s->pg && lock >= STORE_PG_HANDLE_BASE)
		store_pg_unlock(lock);
	else if (!s->pg)
		(void)close(lock);
}

bool
store_lease_held(const struct store *s, const char *name)
{
	char lock[STORE_NAME_MAX];

	if (s->pg)
		return store_pg_lease_alive(s->scope, name);
	memcpy(lock, name, STORE_NAME_MAX);
	lock[0] = STORE_LOCK;
	return store_lock_held(s, lock);
}

int
store_reap(const struct store *s, const char *name, const void *p, size_t n)
{
	if (!s->pg) {
		errno = ENOSYS;
		return -1;
	}
	return store_pg_reap(s->scope, name, p, n);
}

int
store_renew(const struct store *s, const char *name, bool *cancel)
{
	*cancel = false;
	if (!s->pg)
		return 0;
	return store_pg_renew(s->scope, name, s->lease_ms, cancel);
}

int
store_cancel(const struct store *s, const char *name)
{
	if (!s->pg) {
		errno = ENOSYS;
		return -1;
	}
	return store_pg_cancel(s->scope, name);
}

/*
 * What a task record's header says of it: 1 working, 2 a final status,
 * 0 not a task record.  "gpt-task 1 EXPIRES ID STATUS ..." (taskrec.h).
 */
static int
store_task_state(const char *p, size_t n)
{
	size_t i = 0, field = 0;

	if (n < 9 || memcmp(p, "gpt-task ", 9) != 0)
		return 0;
	/* the fifth field; bounded by the header line */
	while (i < n && i < 256 && p[i] != '\n' && field < 4)
		if (p[i++] == ' ')
			field++;
	if (field != 4)
		return 0;
	return n - i > 8 && memcmp(p + i, "working ", 8) == 0 ? 1 : 2;
}

void
store_close(struct store *s)
{
	if (s->dfd >= 0 && !s->cached)
		(void)close(s->dfd);
	s->dfd = -1;
	s->cached = false;
}

int
store_new_id(unsigned char id[STORE_ID_BYTES])
{
	size_t got = 0;

	/* bounded: getrandom returns up to 256 bytes at once, and blocks
	 * only before the pool is initialized at boot */
	while (got < STORE_ID_BYTES) {
		ssize_t n = getrandom(id + got, STORE_ID_BYTES - got, 0);

		if (n == -1 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		got += (size_t)n;
	}
	return 0;
}

void
store_id_hex(const unsigned char id[STORE_ID_BYTES], char hex[STORE_ID_HEX + 1])
{
	static const char digits[] = "0123456789abcdef";
	size_t i;

	for (i = 0; i < STORE_ID_BYTES; i++) {
		hex[2 * i] = digits[id[i] >> 4];
		hex[2 * i + 1] = digits[id[i] & 15];
	}
	hex[STORE_ID_HEX] = '\0';
}

int
store_id_parse(const char *s, size_t len, unsigned char id[STORE_ID_BYTES])
{
	unsigned bad = len != STORE_ID_HEX;
	size_t i;

	memset(id, 0, STORE_ID_BYTES);
	/* every digit is looked at, whatever comes first: the time of a
	 * malformed id is the time of a well-formed one of its length */
	for (i = 0; i < STORE_ID_HEX && i < len; i++) {
		int v = gpt_hex_value((unsigned char)s[i]);

		bad |= v < 0;
		id[i / 2] |= (unsigned char)((v & 15) << (i % 2 ? 0 : 4));
	}
	if (bad) {
		memset(id, 0, STORE_ID_BYTES);
		return -1;
	}
	return 0;
}

bool
store_same_id(const void *a, const void *b, size_t n)
{
	const volatile unsigned char *x = a, *y = b;
	unsigned char d = 0;
	size_t i;

	for (i = 0; i < n; i++)
		d |= x[i] ^ y[i];
	return d == 0;
}

void
store_name(enum store_kind kind, const void *secret, size_t n,
    char name[STORE_NAME_MAX])
{
	unsigned char h[SHA256_LEN];

	sha256(secret, n, h);
	name[0] = (char)kind;
	name[1] = '-';
	store_id_hex(h, name + 2);
}

/* Write all n bytes to fd.  0 or -1 with errno. */
static int
store_write_all(int fd, const void *p, size_t n)
{
	const char *c = p;

	while (n > 0) {
		ssize_t w = write(fd, c, n);

		if (w == -1 && errno == EINTR)
			continue;
		if (w <= 0) {
			if (w == 0)
				errno = EIO;
			return -1;
		}
		c += w;
		n -= (size_t)w;
	}
	return 0;
}

/*
 * A temporary name beside name, unique to this process and call: a
 * crash leaves at most a ".tmp-" file, which the sweep removes.
 */
static void
store_tmp_name(const char *name, char tmp[STORE_NAME_MAX + 40])
{
	static unsigned seq;

	snprintf(tmp, STORE_NAME_MAX + 40, ".tmp-%s-%ld-%u", name,
	    (long)getpid(), seq++);
}

/*
 * The record through a temporary file renamed into place, synced where
 * durable: before the rename where it may replace a record (a crash
 * leaves the old one or the new), after it for a name that is new
 * (store_put_new: one journal commit can carry both syncs).  0, or -1
 * with errno set.
 */
static int
store_put_file(const struct store *s, const char *name, const void *p, size_t n,
    bool durable, bool is_new)
{
	char tmp[STORE_NAME_MAX + 40];
	bool renamed = false;
	int fd, err;

	store_tmp_name(name, tmp);
	fd = openat(s->dfd, tmp,
	    O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd == -1)
		return -1;
	if (store_write_all(fd, p, n) == -1)
		goto fail;
	/* the whole record before its name: a reader sees all or none */
	if (is_new) {
		if (renameat(s->dfd, tmp, s->dfd, name) == -1)
			goto fail;
		renamed = true;
	}
	if (durable && fsync(fd) == -1)
		goto fail;
	if (close(fd) == -1) {
		fd = -1;
		goto fail;
	}
	fd = -1;
	if (!renamed && renameat(s->dfd, tmp, s->dfd, name) == -1)
		goto fail;
	if (durable && fsync(s->dfd) == -1) {
		/* a new name is not left behind a failed sync; a replaced
		 * record is there either way */
		if (is_new) {
			err = errno;
			(void)unlinkat(s->dfd, name, 0);
			errno = err;
		}
		return -1;
	}
	return 0;
fail:
	err = errno;
	if (fd >= 0)
		(void)close(fd);
	(void)unlinkat(s->dfd, renamed ? name : tmp, 0);
	errno = err;
	return -1;
}

int
store_put(const struct store *s, const char *name, const void *p, size_t n,
    bool durable)
{
	if (s->pg) {
		int st = store_task_state(p, n);

		/* every write is committed: durable either way */
		return store_pg_put(s->scope, name, p, n, store_expiry(p, n),
		    st == 1, st == 2, s->lease_ms);
	}
	return store_put_file(s, name, p, n, durable, false);
}

int
store_put_new(const struct store *s, const char *name, const void *p, size_t n)
{
	if (s->pg)
		return store_put(s, name, p, n, true);
	/* the file's sync commits its data, its inode and (in the same
	 * journal transaction) the rename; the directory's, portable, then
	 * has nothing left to commit where the filesystem journals */
	return store_put_file(s, name, p, n, true, true);
}

int
store_create(const struct store *s, const char *name, const void *p, size_t n)
{
	int fd, err;

	if (s->pg)
		return store_pg_create(
		    s->scope, name, p, n, store_expiry(p, n));
	fd = openat(s->dfd, name,
	    O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd == -1)
		return -1;
	if (store_write_all(fd, p, n) == -1 || fsync(fd) == -1) {
		err = errno;
		(void)close(fd);
		(void)unlinkat(s->dfd, name, 0);
		errno = err;
		return -1;
	}
	if (close(fd) == -1 || fsync(s->dfd) == -1) {
		err = errno;
		(void)unlinkat(s->dfd, name, 0);
		errno = err;
		return -1;
	}
	return 0;
}

int
store_get(const struct store *s, const char *name, struct buf *out, size_t max)
{
	int fd, err;

	if (s->pg)
		return store_pg_get(s->scope, name, out, max);
	buf_reset_max(out, max);
	fd = openat(s->dfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd == -1)
		return -1;
	/* bounded by max: each pass appends or ends */
	for (;;) {
		size_t want = buf_room(out) < 4096 ? buf_room(out) : 4096;
		char probe, *dst = want > 0 ? buf_reserve(out, want) : &probe;
		ssize_t n;

		if (dst == NULL) {
			err = errno;
			(void)close(fd);
			errno = err;
			return -1;
		}
		n = read(fd, dst, want > 0 ? want : 1);
		if (n == -1 && errno == EINTR)
			continue;
		if (n < 0 || (n > 0 && dst == &probe)) {
			/* hits on a record of more than max bytes */
			err = n < 0 ? errno : EMSGSIZE;
			(void)close(fd);
			errno = err;
			return -1;
		}
		if (n == 0)
			break;
		buf_commit(out, (size_t)n);
	}
	(void)close(fd);
	return 0;
}

int
store_remove(const struct store *s, const char *name)
{
	if (s->pg)
		return name[0] == STORE_LOCK ? 0
		                             : store_pg_remove(s->scope, name);
	if (unlinkat(s->dfd, name, 0) == -1 && errno != ENOENT)
		return -1;
	return 0;
}

int
store_lock(const struct store *s, const char *name, bool wait)
{
	int fd, err;

	if (s->pg)
		/* an act's claim never waits (the only waiting lock is the
		 * directory's) */
		return store_pg_lock(s->scope, name);
	fd = openat(
	    s->dfd, name, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd == -1)
		return -1;
	/* bounded: EINTR only retries the same wait */
	while (flock(fd, LOCK_EX | (wait ? 0 : LOCK_NB)) == -1) {
		if (errno == EINTR)
			continue;
		err = errno;
		(void)close(fd);
		errno = err;
		return -1;
	}
	return fd;
}

bool
store_lock_held(const struct store *s, const char *name)
{
	int fd = openat(s->dfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	bool held;

	if (fd == -1)
		return false;
	held = flock(fd, LOCK_EX | LOCK_NB) == -1 && errno == EWOULDBLOCK;
	(void)close(fd);
	return held;
}

/* Is this a name the store writes: kind, '-', 32 hex digits? */
static bool
store_is_record_name(const char *n, char kind)
{
	size_t i;

	if (n[0] != kind || n[1] != '-')
		return false;
	for (i = 0; i < STORE_ID_HEX; i++)
		if (gpt_hex_value((unsigned char)n[2 + i]) < 0)
			return false;
	return n[2 + STORE_ID_HEX] == '\0';
}

int64_t
store_expiry(const char *p, size_t n)
{
	int64_t v = 0;
	size_t i = 4, d = 0;

	if (n < 4 || memcmp(p, "gpt-", 4) != 0)
		return -1;
	/* the kind: lowercase letters, at most 8 */
	while (i < n && i < 12 && p[i] >= 'a' && p[i] <= 'z')
		i++;
	if (i == 4 || n - i < 3 || memcmp(p + i, " 1 ", 3) != 0)
		return -1;
	i += 3;
	while (i < n && p[i] >= '0' && p[i] <= '9' && d < 18) {
		v = v * 10 + (p[i++] - '0');
		d++;
	}
	if (d == 0 || i >= n || p[i] != ' ')
		return -1;
	return v;
}

unsigned
store_sweep(const struct store *s, int64_t now)
{
	unsigned removed = 0, seen = 0;
	struct dirent *e;
	DIR *d;
	int fd;

	if (s->pg)
		return store_pg_sweep(s->scope, now);
	fd = openat(s->dfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd == -1 || (d = fdopendir(fd)) == NULL) {
		if (fd >= 0)
			(void)close(fd);
		return 0;
	}
	/* bounded by STORE_SWEEP_MAX entries */
	while ((e = readdir(d)) != NULL && seen++ < STORE_SWEEP_MAX) {
		char head[512], lock[STORE_NAME_MAX];
		ssize_t n;
		int rfd;

		if (strncmp(e->d_name, ".tmp-", 5) == 0) {
			struct stat st;

			/* a write that crashed: older than a minute */
			if (fstatat(s->dfd, e->d_name, &st,
			        AT_SYMLINK_NOFOLLOW) == 0 &&
			    st.st_mtime + 60 < now)
				(void)unlinkat(s->dfd, e->d_name, 0);
			continue;
		}
		if (!store_is_record_name(e->d_name, STORE_TASK) &&
		    !store_is_record_name(e->d_name, STORE_KEY))
			continue;
		rfd = openat(
		    s->dfd, e->d_name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
		if (rfd == -1)
			continue;
		do
			n = read(rfd, head, sizeof(head));
		while (n == -1 && errno == EINTR);
		(void)close(rfd);
		if (n == 0 && e->d_name[0] == STORE_TASK) {
			struct stat st;

			/* a task's first write that a crash cut before its
			 * syncs (store_put_new): no one was told of it */
			if (fstatat(s->dfd, e->d_name, &st,
			        AT_SYMLINK_NOFOLLOW) == 0 &&
			    st.st_size == 0 && st.st_mtime + 60 < now)
				(void)unlinkat(s->dfd, e->d_name, 0);
			continue;
		}
		if (n <= 0)
			continue;
		int64_t exp = store_expiry(head, (size_t)n);
		if (exp < 0 || exp > now)
			continue;
		memcpy(lock, e->d_name, STORE_NAME_MAX);
		lock[0] = STORE_LOCK;
		if (store_lock_held(s, lock))
			continue;
		if (unlinkat(s->dfd, e->d_name, 0) == 0)
			removed++;
		(void)unlinkat(s->dfd, lock, 0);
	}
	(void)closedir(d);
	return removed;
}

void
store_sweep_maybe(const struct store *s)
{
	struct stat st;
	time_t now = time(NULL);
	int fd;

	if (s->pg) {
		/* per process: every host sweeps the shared table now and
		 * then, one DELETE */
		static time_t last;

		if (last + STORE_SWEEP_EVERY > now)
			return;
		last = now;
		(void)store_sweep(s, (int64_t)now);
		return;
	}
	if (fstatat(s->dfd, ".swept", &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	    st.st_mtime + STORE_SWEEP_EVERY > now)
		return;
	fd = openat(s->dfd, ".swept",
	    O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd == -1)
		return;
	(void)futimens(fd, NULL);
	(void)close(fd);
	(void)store_sweep(s, (int64_t)now);
}
