/*
 * formcache.c: the CGI form cache (see formcache.h for the two kinds of
 * file, when one is trusted and where it lives).
 *
 * Owns: the configuration (the run-time cache's directory), the bytes of
 * the last file read (the hit's answers point into them) and the address
 * handed out for a hit.  A file, in the host's byte order (the binary's
 * identity is in the key, so no other build reads it):
 *
 *   magic        "GPTFC03\n" (run-time cache) or "GPTFP02\n" (form.compiled)
 *   u64          the file's length
 *   u64          the header's length (magic included)
 *   u64          checksum of the header's bytes after this field
 *   key:         version (FC_VERSION_LEN bytes, NUL padded), the binary's
 *                stamp, u32 + bytes of the directory (run-time cache; ""
 *                in form.compiled, which is found by its directory),
 *                form.json's and address.conf's stamps, u32 count of refs
 *                entries, each u32 + bytes of its path inside the address
 *                and its stamp, then whether the page sends
 *                Idempotency-Keys (fc_put_keys)
 *   ETags:       the JSON's and the page's (HTTP_ETAG_MAX bytes each)
 *   FC_NANS answers, each u64 offset, u64 length, u64 head length,
 *                u64 checksum of its bytes
 *   the answers' bytes
 *
 * A stamp is 8 u64: exists, dev, ino, size, mtime s, ns, ctime s, ns.
 * Every read of the bytes goes through fc_take, which refuses to pass the
 * end; a file on disk is read as its header, then the answers asked for.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/file.h"
#include "base/hash.h"
#include "base/log.h"
#include "parser/re.h"
#include "responder/answer.h"
#include "responder/formcache.h"
#include "site/addr_cache.h"
#include "site/store.h"

#define FC_MAGIC_RUNTIME "GPTFC03\n"
#define FC_MAGIC_COMPILED "GPTFP02\n"
#define FC_MAGIC_LEN 8
#define FC_VERSION_LEN 32
#define FC_STAMP_WORDS 8
/* json, json_304, html, html_304: the answers a GET or HEAD writes */
#define FC_NANS 4
/* the fixed words before the key, and the answer table (4 words each) */
#define FC_HEAD (FC_MAGIC_LEN + 3 * 8)
#define FC_TABLE (FC_NANS * 4 * 8)

/* The checksum's key: fixed, since another process must verify it. */
static const struct hash_key fc_sum_key = {
    0x6770742e66636769ULL, 0x666f726d63616368ULL};

static bool fc_configured;
static bool fc_on;                   /* the run-time cache */
static char fc_base[PATH_MAX];       /* its directory, as configured */
static char fc_dir[PATH_MAX + 16];   /* the one in use (fc_dir_ok) */
static char *fc_bytes;               /* owned: the last file read */
static struct addr fc_hit;           /* its answers borrow from fc_bytes */
static struct answer_set fc_hit_set; /* fc_hit.derived */

/* --- configuration --------------------------------------------------- */

void
formcache_configure(void)
{
	const char *v = getenv("GPT_FORM_CACHE");
	const char *tmp = getenv("TMPDIR");
	int n;

	fc_configured = true;
	fc_on = false;
	/* Off unless asked for: the run-time cache trusts every program
	 * that runs as this user (formcache.h). */
	if (v == NULL || *v == '\0' || strcmp(v, "off") == 0)
		return;
	if (strcmp(v, "tmp") == 0) {
		if (tmp == NULL || tmp[0] != '/')
			tmp = "/tmp";
		n = snprintf(fc_base, sizeof(fc_base), "%s/gpt.fcgi-cache-%lu",
		    tmp, (unsigned long)geteuid());
	} else if (v[0] == '/') {
		n = snprintf(fc_base, sizeof(fc_base), "%s", v);
	} else {
		/* hits on GPT_FORM_CACHE=cache (relative) */
		log_warn("GPT_FORM_CACHE=\"%.200s\": not off, tmp or an "
		         "absolute path: the form cache is off",
		    v);
		return;
	}
	/* room for "-N" and "/<16 hex>.tmp.<pid>" after it */
	if (n < 0 || (size_t)n + 64 >= sizeof(fc_base)) {
		log_warn(
		    "GPT_FORM_CACHE: path too long: the form cache is off");
		return;
	}
	fc_on = true;
}

/*
 * Is path a directory (not a symlink) of this user that no one else may
 * write?  Made 0700 when missing.  *made: this call made it; *owner: who
 * owns what is there when it is not ours.
 */
static bool
fc_dir_usable(const char *path, bool *made, uid_t *owner)
{
	struct stat st;

	*made = mkdir(path, 0700) == 0;
	*owner = (uid_t)-1;
	if (!*made && errno != EEXIST)
		return false;
	if (lstat(path, &st) == -1)
		return false;
	*owner = st.st_uid;
	return S_ISDIR(st.st_mode) && st.st_uid == geteuid() &&
	       (st.st_mode & 022) == 0;
}

/*
 * Pick the run-time cache's directory into fc_dir: the one configured,
 * or when another user holds it (a directory someone made first in /tmp)
 * the first of "NAME-1" ... that is ours or that this call makes.  A
 * file another user could plant there would be served as our form, so
 * nothing else is used.  The choice is logged when it is made, once; when
 * none can be used, the cache is off for the request, with a warning.
 */
static bool
fc_dir_ok(void)
{
	uid_t owner, first_owner = (uid_t)-1;
	bool made;
	unsigned i;

	for (i = 0; i < FORMCACHE_DIR_TRIES; i++) {
		if (i == 0)
			snprintf(fc_dir, sizeof(fc_dir), "%s", fc_base);
		else
			snprintf(fc_dir, sizeof(fc_dir), "%s-%u", fc_base, i);
		if (fc_dir_usable(fc_dir, &made, &owner)) {
			if (i > 0 && made)
				log_warn("form cache %s belongs to uid %ld or "
				         "others may write it: using %s",
				    fc_base, (long)first_owner, fc_dir);
			return true;
		}
		if (i == 0)
			first_owner = owner;
	}
	/* hits on every name taken by another user */
	log_warn("form cache %s and the %d names after it belong to other "
	         "users or others may write them: the form cache is off",
	    fc_base, FORMCACHE_DIR_TRIES - 1);
	return false;
}

static uint64_t
fc_name_hash(const char *dir)
{
	return hash_sip13(&fc_sum_key, dir, strlen(dir));
}

int
formcache_path(const char *dir, char *out, size_t size)
{
	int n;

	if (!fc_configured)
		formcache_configure();
	if (!fc_on)
		return -1;
	if (fc_dir[0] == '\0')
		snprintf(fc_dir, sizeof(fc_dir), "%s", fc_base);
	n = snprintf(out, size, "%s/%016llx", fc_dir,
	    (unsigned long long)fc_name_hash(dir));
	return n < 0 || (size_t)n >= size ? -1 : 0;
}

/* --- stamps and the key ----------------------------------------------- */

static void
fc_stamp_words(const struct addr_stamp *st, uint64_t w[FC_STAMP_WORDS])
{
	memset(w, 0, FC_STAMP_WORDS * sizeof(w[0]));
	if (!st->exists)
		return;
	w[0] = 1;
	w[1] = (uint64_t)st->dev;
	w[2] = (uint64_t)st->ino;
	w[3] = (uint64_t)st->size;
	w[4] = (uint64_t)st->mtime.tv_sec;
	w[5] = (uint64_t)st->mtime.tv_nsec;
	w[6] = (uint64_t)st->ctime.tv_sec;
	w[7] = (uint64_t)st->ctime.tv_nsec;
}

static void
fc_stat_stamp(const struct stat *sb, struct addr_stamp *st)
{
	st->exists = true;
	st->dev = sb->st_dev;
	st->ino = sb->st_ino;
	st->size = sb->st_size;
	st->mtime = sb->st_mtim;
	st->ctime = sb->st_ctim;
}

/* The binary's identity, once per process: -1 when /proc is not there. */
static int
fc_exe_stamp(struct addr_stamp *out)
{
	static struct addr_stamp exe;
	static int state; /* 0 not yet, 1 known, -1 unknown */
	struct stat sb;

	if (state == 0) {
		state = -1;
		if (stat("/proc/self/exe", &sb) == 0) {
			memset(&exe, 0, sizeof(exe));
			fc_stat_stamp(&sb, &exe);
			state = 1;
		}
	}
	*out = exe;
	return state == 1 ? 0 : -1;
}

static int
fc_put_u32(struct buf *b, uint32_t v)
{
	return buf_append(b, &v, sizeof(v));
}

static int
fc_put_u64(struct buf *b, uint64_t v)
{
	return buf_append(b, &v, sizeof(v));
}

static int
fc_put_stamp(struct buf *b, const struct addr_stamp *st)
{
	uint64_t w[FC_STAMP_WORDS];

	fc_stamp_words(st, w);
	return buf_append(b, w, sizeof(w));
}

static int
fc_put_str(struct buf *b, const char *s)
{
	size_t n = strlen(s);

	if (n > UINT32_MAX)
		return -1;
	if (fc_put_u32(b, (uint32_t)n) == -1)
		return -1;
	return buf_append(b, s, n);
}

/* Was the file changed so close to the load that a second change in the
 * same clock tick would leave its stamp as it is (address.h)? */
static bool
fc_racy(const struct addr_stamp *st, const struct timespec *start)
{
	return st->exists && start->tv_sec - st->ctime.tv_sec <= ADDR_RACY_SEC;
}

struct fc_walk {
	struct buf *key;
	size_t count; /* entries written */
	size_t skip;  /* bytes of "DIR/" before each path's part inside */
	const struct timespec *start;
	bool refused; /* too many, too deep, racy, unreadable */
};

/* Stamp path and, for a directory, everything under it, in readdir's
 * order sorted by nothing: the key is compared by re-stating the very
 * paths it lists, never by listing again.  Each is stored by its path
 * inside the address. */
static void
fc_walk(struct fc_walk *w, const char *path, unsigned depth)
{
	struct addr_stamp st;
	struct stat sb;
	struct dirent *de;
	DIR *d;
	char sub[PATH_MAX];

	if (w->refused)
		return;
	if (depth > FORMCACHE_REFS_DEPTH || w->count >= FORMCACHE_REFS_MAX) {
		/* hits on a refs directory holding 2,000 files */
		w->refused = true;
		return;
	}
	memset(&st, 0, sizeof(st));
	if (stat(path, &sb) == 0)
		fc_stat_stamp(&sb, &st);
	if (fc_racy(&st, w->start) ||
	    fc_put_str(w->key, path + w->skip) == -1 ||
	    fc_put_stamp(w->key, &st) == -1) {
		w->refused = true;
		return;
	}
	w->count++;
	if (!st.exists || !S_ISDIR(sb.st_mode))
		return;
	if ((d = opendir(path)) == NULL) {
		w->refused = true;
		return;
	}
	/* bounded by FORMCACHE_REFS_MAX entries in all */
	while (!w->refused && (de = readdir(d)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 ||
		    strcmp(de->d_name, "..") == 0)
			continue;
		if (snprintf(sub, sizeof(sub), "%s/%s", path, de->d_name) >=
		    (int)sizeof(sub)) {
			w->refused = true;
			break;
		}
		fc_walk(w, sub, depth + 1);
	}
	closedir(d);
}

/*
 * Whether the page sends Idempotency-Keys, and on what it depends: u32 1
 * with the store's name (as address.conf gives it) and u32 the answer of
 * the process that built the page, where a directory store decides;
 * else u32 0.  The decision is the building process's (answer_keys), but
 * form.compiled is built by the operator and read by the CGI user, who
 * may be unable to make the store: a page of the operator's view would
 * send keys that every act then answers 503 (fc_keys_hold).
 */
static int
fc_put_keys(struct buf *b, const struct addr *a)
{
	const char *store;
	bool keys = answer_keys(a, &store);

	if (store == NULL)
		return fc_put_u32(b, 0);
	return fc_put_u32(b, 1) == -1 || fc_put_str(b, store) == -1 ||
	               fc_put_u32(b, keys ? 1 : 0) == -1
	           ? -1
	           : 0;
}

/*
 * The key of a loaded address into b for a file of kind: 0, or -1 when
 * it cannot be stored (no /proc, a file too recent, refs past the
 * limits).  *racy (may be NULL) says when a file too recent was why.
 */
static int
fc_key(struct buf *b, enum formcache_kind kind, const struct addr *a,
    const struct timespec *start, bool *racy)
{
	char version[FC_VERSION_LEN] = {0};
	char path[PATH_MAX];
	struct addr_stamp exe;
	struct buf refs;
	struct fc_walk w = {
	    .key = &refs, .skip = strlen(a->dir) + 1, .start = start};
	size_t i;
	int rc = -1;

	snprintf(version, sizeof(version), "%s", PACKAGE_VERSION);
	if (racy != NULL)
		*racy = a->racy || fc_racy(&a->form_st, start) ||
		        fc_racy(&a->conf_st, start);
	if (fc_exe_stamp(&exe) == -1 || a->racy ||
	    fc_racy(&a->form_st, start) || fc_racy(&a->conf_st, start))
		return -1;
	buf_init(&refs, FORMCACHE_FILE_MAX);
	for (i = 0; i < a->conf.nrefs && !w.refused; i++) {
		if (snprintf(path, sizeof(path), "%s/%s", a->dir,
		        a->conf.ref_dir[i]) >= (int)sizeof(path))
			goto done;
		fc_walk(&w, path, 0);
	}
	/* the files beside the form that its references read */
	for (const struct addr_file *f = a->files; f != NULL && !w.refused;
	     f = f->next)
		fc_walk(&w, f->path, 0);
	if (racy != NULL && w.refused)
		*racy = true; /* a refs file too recent, or past the limits */
	if (w.refused || buf_append(b, version, sizeof(version)) == -1 ||
	    fc_put_stamp(b, &exe) == -1 ||
	    fc_put_str(b, kind == FORMCACHE_KIND_RUNTIME ? a->dir : "") == -1 ||
	    fc_put_stamp(b, &a->form_st) == -1 ||
	    fc_put_stamp(b, &a->conf_st) == -1 ||
	    fc_put_u32(b, (uint32_t)w.count) == -1 ||
	    buf_append(b, buf_ptr(&refs), buf_len(&refs)) == -1 ||
	    fc_put_keys(b, a) == -1)
		goto done;
	rc = 0;
done:
	buf_free(&refs);
	return rc;
}

/* --- writing ------------------------------------------------------------ */

static uint64_t
fc_sum(const void *p, size_t n)
{
	return hash_sip13(&fc_sum_key, p, n);
}

uint64_t
formcache_sum(const void *p, size_t n)
{
	return fc_sum(p, n);
}

static uint64_t
fc_word(const char *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static void
fc_set_word(char *p, uint64_t v)
{
	memcpy(p, &v, sizeof(v));
}

void
formcache_seal(char *f, size_t n)
{
	uint64_t hlen, off, len;
	unsigned i;

	if (n < FC_HEAD)
		return;
	fc_set_word(f + 8, n);
	hlen = fc_word(f + 16);
	if (hlen < FC_HEAD || hlen > n)
		return;
	if (hlen >= FC_HEAD + FC_TABLE)
		for (i = 0; i < FC_NANS; i++) {
			char *t = f + hlen - FC_TABLE + i * 32;

			off = fc_word(t);
			len = fc_word(t + 8);
			if (off <= n && len <= n - off)
				fc_set_word(t + 24, fc_sum(f + off, len));
		}
	fc_set_word(f + 24, fc_sum(f + FC_HEAD, hlen - FC_HEAD));
}

/* The answers a hit hands out, in file order. */
static const struct answer *
fc_answer(const struct addr *a, unsigned i)
{
	const struct answer_set *set = answer_of(a);
	const struct answer *ans[FC_NANS] = {
	    &set->json, &set->json_304, &set->html, &set->html_304};

	return ans[i];
}

/* Build the whole file of kind for a into out; *racy as fc_key's. */
static int
fc_build(struct buf *out, enum formcache_kind kind, const struct addr *a,
    const struct timespec *start, bool *racy)
{
	struct buf hdr; /* the header after its checksum */
	uint64_t off;
	unsigned i;
	int rc = -1;

	buf_init(&hdr, FORMCACHE_FILE_MAX);
	if (fc_key(&hdr, kind, a, start, racy) == -1 ||
	    buf_append(&hdr, answer_of(a)->etag, HTTP_ETAG_MAX) == -1 ||
	    buf_append(&hdr, answer_of(a)->html_etag, HTTP_ETAG_MAX) == -1)
		goto done;
	off = FC_HEAD + buf_len(&hdr) + FC_TABLE;
	for (i = 0; i < FC_NANS; i++) {
		const struct answer *ans = fc_answer(a, i);

		if (fc_put_u64(&hdr, off) == -1 ||
		    fc_put_u64(&hdr, ans->len) == -1 ||
		    fc_put_u64(&hdr, ans->head_len) == -1 ||
		    fc_put_u64(&hdr, fc_sum(ans->bytes, ans->len)) == -1)
			goto done;
		off += ans->len;
		if (off > FORMCACHE_FILE_MAX)
			goto done;
	}
	if (buf_append(out,
	        kind == FORMCACHE_KIND_RUNTIME ? FC_MAGIC_RUNTIME
	                                       : FC_MAGIC_COMPILED,
	        FC_MAGIC_LEN) == -1 ||
	    fc_put_u64(out, off) == -1 ||
	    fc_put_u64(out, FC_MAGIC_LEN + 3 * 8 + buf_len(&hdr)) == -1 ||
	    fc_put_u64(out, fc_sum(buf_ptr(&hdr), buf_len(&hdr))) == -1 ||
	    buf_append(out, buf_ptr(&hdr), buf_len(&hdr)) == -1)
		goto done;
	for (i = 0; i < FC_NANS; i++)
		if (buf_append(out, fc_answer(a, i)->bytes,
		        fc_answer(a, i)->len) == -1)
			goto done;
	rc = 0;
done:
	buf_free(&hdr);
	return rc;
}

static int
fc_write_all(int fd, const char *p, size_t n)
{
	ssize_t w;

	while (n > 0) {
		w = write(fd, p, n);
		if (w == -1 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* Is name one of ours: 16 hex digits, maybe with ".tmp.PID" after? */
static bool
fc_is_entry(const char *name, bool *tmp)
{
	size_t i;

	for (i = 0; i < 16; i++)
		if (!((name[i] >= '0' && name[i] <= '9') ||
		        (name[i] >= 'a' && name[i] <= 'f')))
			return false;
	*tmp = strncmp(name + 16, ".tmp.", 5) == 0;
	return name[16] == '\0' || *tmp;
}

/*
 * Remove the entries not written for FORMCACHE_KEEP_SEC (a temporary file
 * left by a killed writer: for FORMCACHE_TMP_KEEP_SEC): those of addresses
 * that are gone would stay for ever, and a live one is stored again at its
 * next GET.  Runs when an entry is stored, which only a miss does; looks
 * at FORMCACHE_PRUNE_MAX names at most.
 */
static void
fc_prune(const struct timespec *now)
{
	struct dirent *de;
	struct stat st;
	unsigned seen = 0;
	bool tmp;
	DIR *d;

	if ((d = opendir(fc_dir)) == NULL)
		return;
	while (seen++ < FORMCACHE_PRUNE_MAX && (de = readdir(d)) != NULL) {
		if (!fc_is_entry(de->d_name, &tmp) ||
		    fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) ==
		        -1 ||
		    !S_ISREG(st.st_mode) || st.st_uid != geteuid())
			continue;
		if (now->tv_sec - st.st_mtim.tv_sec >
		    (tmp ? FORMCACHE_TMP_KEEP_SEC : FORMCACHE_KEEP_SEC))
			(void)unlinkat(dirfd(d), de->d_name, 0);
	}
	closedir(d);
}

/* Write a's answers to the run-time cache: temp file, then rename over. */
static void
fc_put(const struct addr *a, const struct timespec *start)
{
	char path[PATH_MAX], tmp[PATH_MAX + 32];
	struct buf file;
	int fd;

	if (formcache_path(a->dir, path, sizeof(path)) == -1)
		return;
	buf_init(&file, FORMCACHE_FILE_MAX);
	if (fc_build(&file, FORMCACHE_KIND_RUNTIME, a, start, NULL) == -1)
		goto done;
	snprintf(tmp, sizeof(tmp), "%s.tmp.%ld", path, (long)getpid());
	fd = open(
	    tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd == -1) {
		log_warn("form cache %s: %s", tmp, strerror(errno));
		goto done;
	}
	if (fc_write_all(fd, buf_ptr(&file), buf_len(&file)) == -1 ||
	    close(fd) == -1 || rename(tmp, path) == -1) {
		/* hits on a full disk */
		log_warn("form cache %s: %s", path, strerror(errno));
		(void)unlink(tmp);
		goto done;
	}
	log_info("form cache: stored the answers of %s in %s", a->dir, path);
	fc_prune(start);
done:
	buf_free(&file);
}

int
formcache_compile(const struct addr *a, const struct timespec *start,
    bool *again, char *err, size_t errlen)
{
	char path[PATH_MAX + 32], tmp[PATH_MAX + 64];
	struct stat form;
	struct buf file;
	bool racy = false;
	int fd = -1, rc = -1;

	snprintf(path, sizeof(path), "%s/form.json", a->dir);
	if (stat(path, &form) == -1) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	snprintf(path, sizeof(path), "%s/%s", a->dir, FORMCACHE_COMPILED_NAME);
	snprintf(tmp, sizeof(tmp), "%s.tmp.%ld", path, (long)getpid());
	buf_init(&file, FORMCACHE_FILE_MAX);
	*again = false;
	if (fc_build(&file, FORMCACHE_KIND_COMPILED, a, start, &racy) == -1) {
		*again = racy;
		/* hits on a form.json saved a second ago */
		if (racy)
			snprintf(err, errlen,
			    "a file of the address changed within %d s of the "
			    "load, or its refs directories hold more than %d "
			    "files or %d levels: not precomputed",
			    ADDR_RACY_SEC, FORMCACHE_REFS_MAX,
			    FORMCACHE_REFS_DEPTH);
		else
			snprintf(err, errlen,
			    "no /proc/self/exe, or answers over %zu bytes: not "
			    "precomputed",
			    FORMCACHE_FILE_MAX);
		goto done;
	}
	fd = open(
	    tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	/* Owned like form.json, or no CGI request will use it: root
	 * compiling another user's address gives the file to that user. */
	if (fd == -1 || fchmod(fd, 0644) == -1 ||
	    (geteuid() == 0 && form.st_uid != 0 &&
	        fchown(fd, form.st_uid, form.st_gid) == -1) ||
	    fc_write_all(fd, buf_ptr(&file), buf_len(&file)) == -1 ||
	    fsync(fd) == -1) {
		snprintf(err, errlen, "%s: %s", tmp, strerror(errno));
		goto done;
	}
	if (close(fd) == -1 || (fd = -1, rename(tmp, path) == -1)) {
		fd = -1;
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		goto done;
	}
	fd = -1;
	rc = 0;
done:
	if (fd != -1)
		close(fd);
	if (rc == -1)
		(void)unlink(tmp);
	buf_free(&file);
	return rc;
}

/* --- reading ------------------------------------------------------------- */

struct fc_in {
	const char *p; /* borrowed */
	size_t len, off;
};

/* The next n bytes, or NULL (and nothing consumed) past the end. */
static const char *
fc_take(struct fc_in *in, size_t n)
{
	const char *p;

	if (n > in->len - in->off)
		return NULL;
	p = in->p + in->off;
	in->off += n;
	return p;
}

static bool
fc_get_u64(struct fc_in *in, uint64_t *v)
{
	const char *p = fc_take(in, sizeof(*v));

	if (p != NULL)
		memcpy(v, p, sizeof(*v));
	return p != NULL;
}

static bool
fc_get_u32(struct fc_in *in, uint32_t *v)
{
	const char *p = fc_take(in, sizeof(*v));

	if (p != NULL)
		memcpy(v, p, sizeof(*v));
	return p != NULL;
}

/* Does the stored stamp equal st? */
static bool
fc_stamp_is(struct fc_in *in, const struct addr_stamp *st)
{
	uint64_t w[FC_STAMP_WORDS];
	const char *p = fc_take(in, sizeof(w));

	fc_stamp_words(st, w);
	return p != NULL && memcmp(p, w, sizeof(w)) == 0;
}

/* Is the stored string s? */
static bool
fc_str_is(struct fc_in *in, const char *s)
{
	uint32_t n;
	const char *p;

	return fc_get_u32(in, &n) && n == strlen(s) &&
	       (p = fc_take(in, n)) != NULL && memcmp(p, s, n) == 0;
}

/* The stored refs entries (paths inside dir) still carry their stamps. */
static bool
fc_refs_hold(struct fc_in *in, const char *dir)
{
	char path[PATH_MAX];
	struct addr_stamp st;
	struct stat sb;
	uint32_t count, i, n;
	size_t dl = strlen(dir);
	const char *p;

	if (!fc_get_u32(in, &count) || count > FORMCACHE_REFS_MAX ||
	    dl + 1 >= sizeof(path))
		return false;
	memcpy(path, dir, dl);
	path[dl] = '/';
	for (i = 0; i < count; i++) {
		if (!fc_get_u32(in, &n) || n >= sizeof(path) - dl - 1 ||
		    (p = fc_take(in, n)) == NULL)
			return false;
		memcpy(path + dl + 1, p, n);
		path[dl + 1 + n] = '\0';
		memset(&st, 0, sizeof(st));
		if (stat(path, &sb) == 0)
			fc_stat_stamp(&sb, &st);
		if (!fc_stamp_is(in, &st))
			return false;
	}
	return true;
}

/* The keys part of the last key read (fc_get_keys), for fc_keys_hold. */
static struct {
	bool by_store; /* a directory store decides */
	bool keys;     /* the building process's answer */
	char store[sizeof(((struct conf *)0)->store)];
} fc_keys;

/* Read the keys part of a key (fc_put_keys) into fc_keys. */
static bool
fc_get_keys(struct fc_in *in)
{
	uint32_t by_store, n, keys;
	const char *p;

	if (!fc_get_u32(in, &by_store) || by_store > 1)
		return false;
	fc_keys.by_store = by_store == 1;
	if (!fc_keys.by_store)
		return true;
	if (!fc_get_u32(in, &n) || n >= sizeof(fc_keys.store) ||
	    (p = fc_take(in, n)) == NULL || !fc_get_u32(in, &keys) || keys > 1)
		return false;
	memcpy(fc_keys.store, p, n);
	fc_keys.store[n] = '\0';
	fc_keys.keys = keys == 1;
	return true;
}

/* Would this process build the page of the last key read as it is: does
 * it see the directory store as the building process did?  Only the page
 * differs (the JSON and the acts do not depend on it). */
static bool
fc_keys_hold(const char *dir)
{
	return !fc_keys.by_store ||
	       store_usable(dir, fc_keys.store) == fc_keys.keys;
}

/* A GET may take a file whose form.json or address.conf is being
 * rewritten in place (fc_stamp_settles); fc_settled says one was. */
static bool fc_settling_ok, fc_settling_seen;

/*
 * Does the stored stamp equal st, or, for a GET, name the same file (its
 * device and inode) changed less than ADDR_SETTLE_MS ago: a rewrite in
 * place still going on, which a load would read in its middle?  The file
 * holds the version before it, which is served until the rewrite
 * settles, as a FastCGI process serves the version it has
 * (addr_cache.h).
 */
static bool
fc_stamp_settles(struct fc_in *in, const struct addr_stamp *st)
{
	uint64_t w[FC_STAMP_WORDS], stored[FC_STAMP_WORDS];
	const char *p = fc_take(in, sizeof(w));
	struct timespec now;
	int64_t age_ms;

	if (p == NULL)
		return false;
	fc_stamp_words(st, w);
	if (memcmp(p, w, sizeof(w)) == 0)
		return true;
	memcpy(stored, p, sizeof(stored));
	if (!fc_settling_ok || stored[0] != 1 || w[0] != 1 ||
	    stored[1] != w[1] || stored[2] != w[2])
		return false;
	clock_gettime(CLOCK_REALTIME, &now);
	age_ms = ((int64_t)now.tv_sec - (int64_t)st->ctime.tv_sec) * 1000 +
	         ((int64_t)now.tv_nsec - (int64_t)st->ctime.tv_nsec) / 1000000;
	if (age_ms >= ADDR_SETTLE_MS)
		return false;
	/* hits on `cat new >form.json` under way */
	fc_settling_seen = true;
	return true;
}

/* The key of a file of kind for the address directory dir against the
 * disk now. */
static bool
fc_key_holds(struct fc_in *in, enum formcache_kind kind, const char *dir)
{
	char version[FC_VERSION_LEN] = {0};
	char path[PATH_MAX + 32];
	struct addr_stamp st;
	const char *p;

	snprintf(version, sizeof(version), "%s", PACKAGE_VERSION);
	if ((p = fc_take(in, sizeof(version))) == NULL ||
	    memcmp(p, version, sizeof(version)) != 0)
		return false;
	if (fc_exe_stamp(&st) == -1 || !fc_stamp_is(in, &st) ||
	    !fc_str_is(in, kind == FORMCACHE_KIND_RUNTIME ? dir : ""))
		return false;
	snprintf(path, sizeof(path), "%s/form.json", dir);
	addr_stamp(path, &st);
	if (!fc_stamp_settles(in, &st))
		return false;
	snprintf(path, sizeof(path), "%s/address.conf", dir);
	addr_stamp(path, &st);
	return fc_stamp_settles(in, &st) && fc_refs_hold(in, dir) &&
	       fc_get_keys(in);
}

/* A file that passed its length checks but not its checksums was
 * damaged (a disk error, a crash before the data reached the disk). */
static bool fc_was_damaged;

static bool
fc_damaged(const char *path)
{
	log_warn("form cache %s: damaged: ignored", path);
	fc_was_damaged = true;
	return false;
}

/*
 * Check the header and the key of the file of kind in->p[0, in->len) of
 * the address directory dir (path names it in warnings): true when they
 * hold (in is then at the ETags and ends with the header, *hlen says
 * where).  Only the header's bytes are read.
 */
static bool
fc_header(struct fc_in *in, enum formcache_kind kind, const char *dir,
    const char *path, uint64_t *hlen)
{
	uint64_t flen, sum;
	const char *p;
	size_t got = in->len;

	in->off = 0;
	if ((p = fc_take(in, FC_MAGIC_LEN)) == NULL ||
	    memcmp(p,
	        kind == FORMCACHE_KIND_RUNTIME ? FC_MAGIC_RUNTIME
	                                       : FC_MAGIC_COMPILED,
	        FC_MAGIC_LEN) != 0 ||
	    !fc_get_u64(in, &flen) || !fc_get_u64(in, hlen) ||
	    !fc_get_u64(in, &sum))
		return false;
	if (flen != got || *hlen > got || *hlen < in->off)
		/* hits on a file cut short */
		return fc_damaged(path);
	if (fc_sum(in->p + in->off, (size_t)*hlen - in->off) != sum)
		return fc_damaged(path);
	/* from here on the header is the one written */
	in->len = (size_t)*hlen;
	/* stale: a file changed, or another binary wrote it */
	return fc_key_holds(in, kind, dir);
}

/* pread n bytes at off into p, all of them: 0, or -1 (a short file). */
static int
fc_pread_all(int fd, char *p, size_t n, off_t off)
{
	ssize_t r;

	/* bounded by n: each pass reads at least a byte */
	while (n > 0) {
		r = pread(fd, p, n, off);
		if (r == -1 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		p += r;
		n -= (size_t)r;
		off += r;
	}
	return 0;
}

/*
 * May the file open at fd (st: its fstat) be read as a file of kind for
 * dir?  The run-time cache's: this user's.  form.compiled: owned like
 * form.json (its owner, or root), and neither it nor the address
 * directory writable by group or others.
 */
static bool
fc_trusted(enum formcache_kind kind, const char *dir, const struct stat *st,
    enum formcache_state *why)
{
	char path[PATH_MAX + 32];
	struct stat form, d;

	*why = FORMCACHE_UNTRUSTED;
	if (!S_ISREG(st->st_mode))
		return false;
	if (kind == FORMCACHE_KIND_RUNTIME)
		/* hits on a file another user planted */
		return st->st_uid == geteuid();
	snprintf(path, sizeof(path), "%s/form.json", dir);
	/* hits on a form.compiled of the CGI user's, or of mode 666 */
	return lstat(path, &form) == 0 &&
	       (st->st_uid == form.st_uid || st->st_uid == 0) &&
	       (st->st_mode & ADDR_WRITABLE) == 0 && stat(dir, &d) == 0 &&
	       (d.st_mode & ADDR_WRITABLE) == 0;
}

/*
 * Open the file of kind for ref->dir (path: its name, PATH_MAX bytes),
 * check that it may be trusted, read its header into fc_bytes (sized as
 * the file, the rest unread) and check the header and the key: true when
 * they hold (in is then at the ETags, *hlen and *got say where the header
 * and the file end, and *fd stays open for fc_fill); else *why says
 * what was wrong.
 */
static bool
fc_open(enum formcache_kind kind, const char *dir, char *path, struct fc_in *in,
    uint64_t *hlen, size_t *got, int *fd, enum formcache_state *why)
{
	struct stat st;
	uint64_t h;

	free(fc_bytes);
	fc_bytes = NULL;
	*fd = -1;
	*why = FORMCACHE_MISSING;
	if (kind == FORMCACHE_KIND_RUNTIME
	        ? formcache_path(dir, path, PATH_MAX) == -1
	        : snprintf(path, PATH_MAX, "%s/%s", dir,
	              FORMCACHE_COMPILED_NAME) >= PATH_MAX)
		return false;
	*fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	if (*fd == -1) {
		/* a symlink (ELOOP) is never followed, nor trusted */
		if (errno == ELOOP)
			*why = FORMCACHE_UNTRUSTED;
		return false;
	}
	if (fstat(*fd, &st) == -1 || !fc_trusted(kind, dir, &st, why))
		goto fail;
	*why = FORMCACHE_DAMAGED;
	if (st.st_size < FC_HEAD || (uint64_t)st.st_size > FORMCACHE_FILE_MAX ||
	    (fc_bytes = malloc((size_t)st.st_size)) == NULL ||
	    fc_pread_all(*fd, fc_bytes, FC_HEAD, 0) == -1)
		goto fail;
	/* the header's length, as the file says (checked by fc_header) */
	memcpy(&h, fc_bytes + 16, sizeof(h));
	if (h < FC_HEAD || h > (uint64_t)st.st_size ||
	    fc_pread_all(
	        *fd, fc_bytes + FC_HEAD, (size_t)h - FC_HEAD, FC_HEAD) == -1)
		goto fail;
	*got = (size_t)st.st_size;
	in->p = fc_bytes;
	in->len = *got;
	fc_was_damaged = false;
	if (fc_header(in, kind, dir, path, hlen))
		return true;
	/* a damaged header has said so (fc_damaged); stale otherwise */
	*why = fc_was_damaged ? FORMCACHE_DAMAGED : FORMCACHE_STALE;
fail:
	close(*fd);
	*fd = -1;
	return false;
}

/*
 * Read from fd the answers of the representation asked for (html) where
 * the table after in->off places them (json and json_304, or html and
 * html_304: end to end), when it places them inside the file; fc_answers
 * checks them.
 */
static void
fc_fill(int fd, const struct fc_in *in, size_t got, bool html)
{
	const char *t =
	    in->p + in->off + 2 * HTTP_ETAG_MAX + (html ? 2 : 0) * 32;
	uint64_t off, len0, len1;

	if (in->len - in->off < 2 * HTTP_ETAG_MAX + FC_TABLE)
		return;
	off = fc_word(t);
	len0 = fc_word(t + 8);
	len1 = fc_word(t + 32 + 8);
	if (off > got || len0 > got - off || len1 > got - off - len0)
		return;
	(void)fc_pread_all(
	    fd, fc_bytes + off, (size_t)(len0 + len1), (off_t)off);
}

/*
 * The ETags and the answer table after a header that holds (in at the
 * ETags, the file got bytes at bytes) into set; each answer of the
 * representation asked for (html) is checked against its checksum, the
 * others are only placed.
 */
static bool
fc_answers(struct fc_in *in, const char *bytes, uint64_t hlen, size_t got,
    const char *path, bool html, struct answer_set *set)
{
	uint64_t off, len, head, asum, next = hlen;
	struct answer *ans[FC_NANS] = {
	    &set->json, &set->json_304, &set->html, &set->html_304};
	const char *p;
	unsigned i;

	/* The ETags are C strings in their fields, as the writer copies
	 * them: hits on a field with no NUL at its end. */
	if ((p = fc_take(in, HTTP_ETAG_MAX)) == NULL ||
	    p[HTTP_ETAG_MAX - 1] != '\0')
		return fc_damaged(path);
	memcpy(set->etag, p, HTTP_ETAG_MAX);
	if ((p = fc_take(in, HTTP_ETAG_MAX)) == NULL ||
	    p[HTTP_ETAG_MAX - 1] != '\0')
		return fc_damaged(path);
	memcpy(set->html_etag, p, HTTP_ETAG_MAX);
	for (i = 0; i < FC_NANS; i++) {
		if (!fc_get_u64(in, &off) || !fc_get_u64(in, &len) ||
		    !fc_get_u64(in, &head) || !fc_get_u64(in, &asum))
			return false;
		/* The writer lays the answers end to end in table order right
		 * after the header: hits on two answers on the same bytes, a
		 * byte between two, or the table's entries swapped. */
		if (off != next || len > got - off || head > len)
			return fc_damaged(path);
		next = off + len;
		ans[i]->bytes = bytes + off;
		ans[i]->len = (size_t)len;
		ans[i]->head_len = (size_t)head;
		/* only the representation asked for is read */
		if ((i >= 2) == html &&
		    fc_sum(bytes + off, (size_t)len) != asum)
			return fc_damaged(path);
	}
	/* the table ends the header, the last answer the file: hits on
	 * bytes appended to a file */
	if (in->off != in->len || next != got)
		return fc_damaged(path);
	return true;
}

bool
formcache_verify(enum formcache_kind kind, const char *bytes, size_t len,
    const char *dir, bool html, struct answer_set *set)
{
	struct fc_in in = {bytes, len, 0};
	uint64_t hlen;

	memset(set, 0, sizeof(*set));
	return fc_header(&in, kind, dir, "(verified)", &hlen) &&
	       fc_answers(&in, bytes, hlen, len, "(verified)", html, set);
}

int
formcache_build(enum formcache_kind kind, const struct addr *a,
    const struct timespec *start, struct buf *out)
{
	return fc_build(out, kind, a, start, NULL);
}

/*
 * The answers of the file of kind for ref->dir into fc_hit: true on a
 * hit.  Each answer the request may write is checked against its
 * checksum before use.
 */
static bool
fc_get(enum formcache_kind kind, const struct addr_ref *ref, bool html)
{
	char path[PATH_MAX + 32], cerr[CONF_ERR_MAX];
	enum formcache_state why;
	struct fc_in in;
	uint64_t hlen;
	size_t got;
	int fd;
	bool ok;

	fc_settling_ok = true;
	fc_settling_seen = false;
	ok = fc_open(kind, ref->dir, path, &in, &hlen, &got, &fd, &why);
	fc_settling_ok = false;
	if (ok && html && !fc_keys_hold(ref->dir)) {
		/* hits on form.compiled where the CGI user cannot make the
		 * store the operator could: its page is built anew */
		ok = false;
	}
	if (!ok)
		return false;
	if (fc_settling_seen)
		log_warn("%s: form.json or address.conf is being rewritten in "
		         "place: serving the previous version from %s until it "
		         "settles (replace them by rename instead)",
		    ref->dir, path);
	fc_fill(fd, &in, got, html);
	close(fd);
	memset(&fc_hit, 0, sizeof(fc_hit));
	memset(&fc_hit_set, 0, sizeof(fc_hit_set));
	ok = fc_answers(&in, fc_bytes, hlen, got, path, html, &fc_hit_set);
	/* a hit carries only the representation asked for (the others
	 * were not read) */
	memset(html ? &fc_hit_set.json : &fc_hit_set.html, 0,
	    sizeof(fc_hit_set.json));
	memset(html ? &fc_hit_set.json_304 : &fc_hit_set.html_304, 0,
	    sizeof(fc_hit_set.json_304));
	if (!ok)
		return false;
	/* The conf the request applies (its log level), as addr_load reads
	 * it: the stamp above says it is the file the answers came from. */
	conf_init(&fc_hit.conf);
	snprintf(path, sizeof(path), "%s/address.conf", ref->dir);
	if (conf_load(path, &fc_hit.conf, cerr, sizeof(cerr)) == -1)
		return false;
	snprintf(fc_hit.dir, sizeof(fc_hit.dir), "%s", ref->dir);
	fc_hit.root_len = ref->root_len;
	fc_hit.derived = &fc_hit_set;
	fc_hit.ok = true;
	return true;
}

enum formcache_state
formcache_compiled_state(const char *dir)
{
	char path[PATH_MAX + 32];
	enum formcache_state why;
	struct answer_set set;
	struct fc_in in;
	uint64_t hlen;
	size_t got;
	int fd;
	bool ok;

	if (!fc_open(FORMCACHE_KIND_COMPILED, dir, path, &in, &hlen, &got, &fd,
	        &why))
		return why;
	/* every byte, both representations */
	ok = fc_pread_all(fd, fc_bytes, got, 0) == 0 &&
	     formcache_verify(
	         FORMCACHE_KIND_COMPILED, fc_bytes, got, dir, false, &set) &&
	     formcache_verify(
	         FORMCACHE_KIND_COMPILED, fc_bytes, got, dir, true, &set);
	close(fd);
	free(fc_bytes);
	fc_bytes = NULL;
	return ok ? FORMCACHE_CURRENT : FORMCACHE_DAMAGED;
}

/* The file that vouches for an act's form, kept in fc_bytes while the
 * form loads: its kind, its header's length, its JSON ETag; the caller's
 * derive for a load the file turns out not to describe. */
static enum formcache_kind fc_vouch_kind;
static uint64_t fc_vouch_hlen;
static char fc_act_etag[HTTP_ETAG_MAX];
static addr_derive_fn fc_vouch_fallback;

/*
 * An act's derive when a file vouches: the ETag and the 412 from the
 * file, without writing the document again to hash it.  The key is
 * checked again now that the files are read: it held before the load
 * (the stamps taken before reading) and after it, so the bytes loaded are
 * the ones the ETag names.  A file changed in between gets the caller's
 * derive for an act (its own ETag), and nothing is stored: its patterns
 * were left for their first search (re.h), so the next request loads it
 * as a miss does.
 */
static int
fc_derive_vouched(struct addr *a, char *err, size_t errlen)
{
	struct fc_in in = {
	    fc_bytes, (size_t)fc_vouch_hlen, FC_MAGIC_LEN + 3 * 8};

	if (a->racy || !fc_key_holds(&in, fc_vouch_kind, a->dir)) {
		/* hits on form.json renamed over while the act loads it */
		return fc_vouch_fallback(a, err, errlen);
	}
	return answer_build_known(a, fc_act_etag, err, errlen);
}

/* Does a file of kind vouch for ref's form: its key holds?  Its JSON ETag
 * then goes into fc_act_etag, and its header stays in fc_bytes for
 * fc_derive_vouched. */
static bool
fc_vouches(enum formcache_kind kind, const struct addr_ref *ref)
{
	char path[PATH_MAX];
	enum formcache_state why;
	struct fc_in in;
	size_t got;
	const char *p;
	int fd;

	if (!fc_open(
	        kind, ref->dir, path, &in, &fc_vouch_hlen, &got, &fd, &why))
		return false;
	close(fd);
	if ((p = fc_take(&in, HTTP_ETAG_MAX)) == NULL) {
		free(fc_bytes);
		fc_bytes = NULL;
		return false;
	}
	memcpy(fc_act_etag, p, HTTP_ETAG_MAX);
	fc_act_etag[HTTP_ETAG_MAX - 1] = '\0';
	fc_vouch_kind = kind;
	return true;
}

const struct addr *
formcache_lookup(const struct addr_ref *ref, bool arrival, bool html,
    addr_derive_fn derive, addr_derive_fn derive_act, const char **why)
{
	struct timespec start;
	const struct addr *a;
	bool vouched = false, runtime;

	if (!fc_configured)
		formcache_configure();
	*why = NULL;
	/* One request: the JIT waits for a pattern's RE_JIT_AFTER-th
	 * search whatever the cache says (re.h). */
	re_set_mode(RE_CGI);
	/* The directory is checked as addr_cache_lookup checks it: a symlink
	 * that now leaves the root is a 404, whatever a file holds. */
	if (addr_check(ref, why) == -1)
		return addr_cache_lookup(ref, derive_act, why);
	/* The operator's file first; the run-time cache only when asked
	 * for, and only from a directory no other user may write (checked
	 * before any read). */
	if (arrival && fc_get(FORMCACHE_KIND_COMPILED, ref, html))
		return &fc_hit;
	runtime = fc_on && fc_dir_ok();
	if (arrival && runtime && fc_get(FORMCACHE_KIND_RUNTIME, ref, html))
		return &fc_hit;
	/* An act needs the compiled form; a file whose key holds says this
	 * binary compiled this very form, so its patterns wait for their
	 * first search, and its ETag is the file's. */
	if (!arrival)
		vouched = fc_vouches(FORMCACHE_KIND_COMPILED, ref) ||
		          (runtime && fc_vouches(FORMCACHE_KIND_RUNTIME, ref));
	if (vouched) {
		fc_vouch_fallback = derive_act;
		re_set_mode(RE_CGI_VOUCHED);
		a = addr_cache_lookup(ref, fc_derive_vouched, why);
		re_set_mode(RE_CGI);
		free(fc_bytes);
		fc_bytes = NULL;
		return a;
	}
	if (!runtime)
		/* nothing is stored: only a GET of the page needs the page */
		return addr_cache_lookup(
		    ref, arrival && html ? derive : derive_act, why);
	/* A miss, GET or act: the first request after a change builds every
	 * answer and stores them, so whatever comes next (a GET, or an act
	 * this entry vouches for) loads nothing for them, and derive's
	 * once-per-load work (the form's warnings) runs once per version. */
	clock_gettime(CLOCK_REALTIME, &start);
	a = addr_cache_lookup(ref, derive, why);
	if (a != NULL && a->ok)
		fc_put(a, &start);
	return a;
}

void
formcache_clear(void)
{
	free(fc_bytes);
	fc_bytes = NULL;
	memset(&fc_hit, 0, sizeof(fc_hit));
	memset(&fc_hit_set, 0, sizeof(fc_hit_set));
	fc_configured = false;
	fc_on = false;
	fc_dir[0] = '\0';
}
