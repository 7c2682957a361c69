/*
 * address.c: resolve the address a request names, load it once, keep it
 * in a small cache, and reload it when its files change.
 *
 * Owns: the cache (a hash table of entries under a byte budget, see
 * below) and each entry's arena; the arrival schema, compiled once per
 * process.  The request path
 * costs one clock read (no system call), and at most once a second per
 * address two stat calls and two realpath calls; everything GET answers
 * was built at load.
 * Knows nothing of HTTP or HTML: what a request is answered is built from
 * a loaded address by the caller's derive function (answer.c), into the
 * address's arena, so it is counted and freed with it.
 * Refuses: names outside the grammar, encoded slashes, symlinks out of the
 * root (404); forms that do not parse, are not an arrival document, or
 * whose s does not compile, and bad address.conf files (500, reason in
 * err).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "site/address.h"
#include "base/file.h"
#include "parser/json.h"
#include "base/log.h"
#include "schema/schema_load.h"

/* The arrival schema, compiled once for the whole process. */
static struct arena addr_arrival_arena;
static const struct schema *addr_arrival;
static bool addr_arrival_tried;
static char addr_arrival_err[ADDR_ERR_MAX];


/*
 * The cache: entries in a hash table by directory (chained), and on a list
 * from the most to the least recently used.  Every entry counts its own
 * size and its arena's blocks; after each lookup the least recently used
 * are evicted until the total fits the budget (the one just looked up
 * always stays).  All of it is process memory (malloc), outside any
 * request.
 */
struct addr_entry {
	struct addr a;              /* first: lookups hand out &e->a */
	struct addr_entry *chain;   /* borrowed: next in the same bucket */
	struct addr_entry *newer;   /* borrowed: LRU list */
	struct addr_entry *older;   /* borrowed */
	uint64_t hash;              /* of a.dir */
	size_t bytes;               /* counted against the budget */
};

static struct addr_entry **addr_buckets; /* owned: addr_nbuckets heads */
static size_t addr_nbuckets;             /* a power of two, or 0 */
static size_t addr_count;                /* entries */
static size_t addr_bytes;                /* their bytes together */
static size_t addr_budget;               /* 0 until read from the env */
static struct addr_entry *addr_newest, *addr_oldest; /* owned: every entry */
/* What a lookup answers when memory for an entry runs out (a 500). */
static struct addr addr_nomem;

bool
addr_name_ok(const char *name)
{
	size_t i;

	/* hits on "", ".hidden", "..", "a/b", "a b", "caf\xc3\xa9" */
	for (i = 0; name[i] != '\0'; i++) {
		unsigned char c = (unsigned char)name[i];
		bool alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		             (c >= '0' && c <= '9') || c == '_' || c == '-';

		if (i >= ADDR_NAME_MAX)
			return false;
		if (!alnum && !(i > 0 && c == '.'))
			return false;
	}
	return i > 0;
}

/*
 * An encoded slash, "%2F" or "%2f", in the path of the request target (the
 * query, after '?', names no directory and may hold anything).
 */
static bool
addr_has_encoded_slash(const char *uri)
{
	const char *p;

	if (uri == NULL)
		return false;
	/* bounded by the NUL or the first ? */
	for (p = uri; *p != '\0' && *p != '?'; p++)
		if (p[0] == '%' && p[1] == '2' && (p[2] == 'f' || p[2] == 'F'))
			return true;
	return false;
}

/* ref->dir = a b c, or -1 when it does not fit. */
static int
addr_join(struct addr_ref *ref, const char *a, const char *b, const char *c)
{
	size_t la = strlen(a), lb = strlen(b), lc = strlen(c);

	/* hits on a GPT_ROOT of PATH_MAX bytes */
	if (la >= sizeof(ref->dir) || lb >= sizeof(ref->dir) - la ||
	    lc >= sizeof(ref->dir) - la - lb)
		return -1;
	memcpy(ref->dir, a, la);
	memcpy(ref->dir + la, b, lb);
	memcpy(ref->dir + la + lb, c, lc + 1);
	return 0;
}

int
addr_resolve(const struct addr_query *q, struct addr_ref *ref,
    const char **why)
{
	const char *pi = q->path_info, *name = NULL, *root;
	bool has_pi = pi != NULL && *pi != '\0';

	*why = NULL;
	if (addr_has_encoded_slash(q->request_uri) ||
	    addr_has_encoded_slash(pi)) {
		*why = "encoded slash in the request path";
		return -1;
	}
	if (has_pi) {
		/* hits on "name", "/", "/a/b", "/a/", "//a", "/..", "/.x" */
		if (pi[0] != '/' || !addr_name_ok(pi + 1)) {
			*why = "path is not one valid address name";
			return -1;
		}
		name = pi + 1;
	}
	ref->root_len = 0;
	ref->script_own = false;
	if (q->gpt_address != NULL && *q->gpt_address != '\0') {
		if (has_pi) {
			/* GPT_ADDRESS names one address; "/x" after it names
			 * nothing */
			*why = "path after a GPT_ADDRESS address";
			return -1;
		}
		if (addr_join(ref, q->gpt_address, "", "") == -1)
			goto toolong;
		return 0;
	}
	if (q->gpt_root != NULL && *q->gpt_root != '\0') {
		root = q->gpt_root;
		if (!has_pi) {
			*why = "no address name under GPT_ROOT";
			return -1;
		}
		if (addr_join(ref, root, "/", name) == -1)
			goto toolong;
		ref->root_len = strlen(root);
		return 0;
	}
	if (q->script_filename == NULL || *q->script_filename == '\0') {
		*why = "no GPT_ADDRESS, GPT_ROOT or SCRIPT_FILENAME";
		return -1;
	}
	if (!has_pi) {
		if (addr_join(ref, q->script_filename, ".d", "") == -1)
			goto toolong;
		ref->script_own = true;
		return 0;
	}
	if (addr_join(ref, q->script_filename, ".d/", name) == -1)
		goto toolong;
	ref->root_len = strlen(q->script_filename) + 2;
	return 0;
toolong:
	*why = "address path too long";
	return -1;
}

/* --- loading ---------------------------------------------------------- */

static void GPT_PRINTF(2, 3) addr_fail(struct addr *a, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(a->err, sizeof(a->err), fmt, ap);
	va_end(ap);
	a->ok = false;
	a->no_form = false;
}

void
addr_stamp(const char *path, struct addr_stamp *st)
{
	struct stat sb;

	memset(st, 0, sizeof(*st));
	if (lstat(path, &sb) == -1)
		return;
	st->exists = true;
	st->dev = sb.st_dev;
	st->ino = sb.st_ino;
	st->size = sb.st_size;
	st->mtime = sb.st_mtim;
	st->ctime = sb.st_ctim;
}

static bool
addr_stamp_same(const struct addr_stamp *x, const struct addr_stamp *y)
{
	return x->exists == y->exists && x->dev == y->dev && x->ino == y->ino &&
	       x->size == y->size && x->mtime.tv_sec == y->mtime.tv_sec &&
	       x->mtime.tv_nsec == y->mtime.tv_nsec &&
	       x->ctime.tv_sec == y->ctime.tv_sec &&
	       x->ctime.tv_nsec == y->ctime.tv_nsec;
}

/* Is the file's last change so recent that a change in the same clock
 * tick could follow unseen (the stamp would not move)? */
static bool
addr_stamp_racy(const struct addr_stamp *st, const struct timespec *now)
{
	return st->exists && now->tv_sec - st->ctime.tv_sec <= ADDR_RACY_SEC;
}

/* Compile the embedded arrival schema once; NULL with the reason kept. */
static const struct schema *
addr_arrival_schema(void)
{
	const struct json_value *v;
	struct json_err jerr;
	struct schema_err serr;

	if (addr_arrival_tried)
		return addr_arrival;
	addr_arrival_tried = true;
	arena_init(&addr_arrival_arena, ADDR_ARENA_MAX);
	if (json_parse(schema_arrival_text, schema_arrival_len,
	        &addr_arrival_arena, 0, &v, &jerr) != JSON_OK) {
		snprintf(addr_arrival_err, sizeof(addr_arrival_err),
		    "arrival schema: byte %zu: %s", jerr.offset, jerr.msg);
		return NULL;
	}
	if (schema_compile(v, &addr_arrival_arena, NULL, NULL, &addr_arrival,
	        &serr) != SCHEMA_OK) {
		snprintf(addr_arrival_err, sizeof(addr_arrival_err),
		    "arrival schema: %s", serr.reason);
		addr_arrival = NULL;
	}
	return addr_arrival;
}

/* Read path (a regular file, not a symlink, at most ADDR_FORM_MAX bytes)
 * into the arena. */
static int
addr_read_form(struct addr *a, const char *path, const char **text, size_t *len)
{
	char why[FILE_WHY_MAX];

	if (file_read_arena(path, ADDR_FORM_MAX, &a->arena, text, len, why,
	        sizeof(why)) == 0)
		return 0;
	/* hits on no form.json, form.json a directory or a FIFO, a file
	 * over 4 MB, one rewritten while read */
	addr_fail(a, "%s: %s", path, why);
	a->no_form = errno == ENOENT;
	return -1;
}

/* schema_refs_seen_fn: stamp path before it is read, into a's list (a
 * file that cannot be remembered only loses its reload check; the
 * arena's refusal shows again at the compile that follows). */
static void
addr_file_seen(void *ctx, const char *path)
{
	struct addr *a = ctx;
	struct addr_file *f;
	char *copy;

	if (a->nfiles >= ADDR_FILES_MAX ||
	    (f = arena_alloc(&a->arena, sizeof(*f))) == NULL ||
	    (copy = arena_strndup(&a->arena, path, strlen(path))) == NULL) {
		a->files_lost = true;
		return;
	}
	f->path = copy;
	addr_stamp(path, &f->st);
	f->next = a->files;
	a->files = f;
	a->nfiles++;
}

/* Do the files the references read still carry their stamps? */
static bool
addr_files_hold(const struct addr *a)
{
	const struct addr_file *f;
	struct addr_stamp st;

	for (f = a->files; f != NULL; f = f->next) {
		addr_stamp(f->path, &st);
		if (!addr_stamp_same(&st, &f->st))
			return false;
	}
	return true;
}

/* Compile the form s with the address's dialect, annotations and refs
 * (address.conf; refs directories inside the address), its base URI
 * SCHEMA_ADDRESS_BASE and the files beside it (relative references, read
 * from the address directory with no symbolic link followed). */
static enum schema_result
addr_compile(struct addr *a, const struct json_value *s, schema_warn_fn warn,
    void *warn_ctx, struct schema_problems *problems,
    const struct schema **form, struct schema_err *serr)
{
	struct schema_opts o;
	struct schema_refs refs;
	char *dirs[CONF_REFS_MAX];
	size_t i;

	memset(&o, 0, sizeof(o));
	o.dialect = a->conf.dialect;
	o.annotations = a->conf.annotation;
	o.nannotations = a->conf.nannotations;
	o.warn = warn;
	o.warn_ctx = warn_ctx;
	/* only --check asks for warnings: it also lists the annotations */
	o.notes = warn != NULL;
	/* NULL for the responder: the first problem refuses the form */
	o.problems = problems;
	schema_refs_init(&refs);
	for (i = 0; i < a->conf.nrefs; i++) {
		size_t n = strlen(a->dir) + strlen(a->conf.ref_dir[i]) + 2;

		if ((dirs[i] = arena_alloc(&a->arena, n)) == NULL)
			return SCHEMA_NOMEM;
		snprintf(dirs[i], n, "%s/%s", a->dir, a->conf.ref_dir[i]);
		if (schema_refs_add2(&refs, a->conf.ref_prefix[i],
		        strlen(a->conf.ref_prefix[i]), dirs[i],
		        strlen(dirs[i])) == -1)
			return SCHEMA_NOMEM;
	}
	if (schema_refs_local(&refs, SCHEMA_ADDRESS_PREFIX, a->dir) == -1)
		return SCHEMA_NOMEM;
	refs.seen = addr_file_seen;
	refs.seen_ctx = a;
	o.load = schema_refs_load;
	o.load_ctx = &refs;
	o.base_uri = SCHEMA_ADDRESS_BASE;
	return schema_compile_opts(s, &o, &a->arena, form, serr);
}

/* doc with its member s replaced by the bundled form, or doc itself when
 * nothing was embedded; NULL when the arena refuses. */
static const struct json_value *
addr_bundled(struct addr *a, const struct json_value *doc,
    const struct json_value *s, const struct schema *form)
{
	const struct json_value *b = schema_bundle(form, &a->arena);
	struct json_value *copy;
	struct json_member *m;
	size_t i;

	if (b == s)
		return doc;
	if ((copy = arena_alloc(&a->arena, sizeof(*copy))) == NULL ||
	    (m = arena_calloc(&a->arena, doc->u.obj.count, sizeof(*m))) ==
	        NULL)
		return NULL;
	*copy = *doc;
	for (i = 0; i < doc->u.obj.count; i++) {
		m[i] = doc->u.obj.members[i];
		if (&doc->u.obj.members[i].value == s)
			m[i].value = *b;
	}
	copy->u.obj.members = m;
	copy->u.obj.index = NULL;
	return copy;
}

/* One attempt of addr_load: the stamps are taken before each file is
 * read, for addr_load to compare after. */
static int
addr_load_once(const char *dir, struct addr *a, schema_warn_fn warn,
    void *warn_ctx, struct schema_problems *problems)
{
	char path[PATH_MAX + 32], cerr[CONF_ERR_MAX];
	const struct json_value *doc, *s;
	const struct schema *arrival, *form;
	struct json_err jerr;
	struct schema_err serr;
	struct arena scratch;
	struct stat hst;
	const char *text = NULL;
	size_t len = 0;
	int rc = -1;

	memset(a, 0, sizeof(*a));
	if (problems != NULL)
		schema_problems_init(problems);
	arena_init(&a->arena, ADDR_ARENA_MAX);
	arena_init(&scratch, ADDR_ARENA_MAX);
	conf_init(&a->conf);
	if (snprintf(a->dir, sizeof(a->dir), "%s", dir) >=
	    (int)sizeof(a->dir)) {
		addr_fail(a, "address path too long");
		goto done;
	}
	/* Both stamps first: a load that stops at address.conf compares
	 * form.json's too. */
	snprintf(path, sizeof(path), "%s/form.json", dir);
	addr_stamp(path, &a->form_st);
	snprintf(path, sizeof(path), "%s/address.conf", dir);
	addr_stamp(path, &a->conf_st);
	if (conf_load(path, &a->conf, cerr, sizeof(cerr)) == -1) {
		/* hits on "max_bdy = 1" (conf.c names the line) */
		addr_fail(a, "%s: %s", path, cerr);
		goto done;
	}
	snprintf(path, sizeof(path), "%s/form.json", dir);
	if (addr_read_form(a, path, &text, &len) == -1)
		goto done;
	if (json_parse(text, len, &a->arena, 0, &doc, &jerr) != JSON_OK) {
		/* hits on a trailing comma or a duplicate member */
		addr_fail(a, "%s: byte %zu: %s", path, jerr.offset, jerr.msg);
		goto done;
	}
	if ((arrival = addr_arrival_schema()) == NULL) {
		addr_fail(a, "%s", addr_arrival_err);
		goto done;
	}
	switch (schema_validate(arrival, doc, &scratch, &serr)) {
	case SCHEMA_OK:
		break;
	case SCHEMA_NOMEM:
		addr_fail(a, "%s: out of memory", path);
		goto done;
	default:
		/* hits on {"p": 1, "m": [], "s": {}} */
		addr_fail(a, "%s: not an arrival document: %s at \"%s\" (%s)",
		    path, serr.reason, serr.pointer.buf,
		    serr.keyword != NULL ? serr.keyword : "?");
		goto done;
	}
	s = json_object_get(doc, "s", 1);
	if (addr_compile(a, s, warn, warn_ctx, problems, &form, &serr) !=
	    SCHEMA_OK) {
		/* hits on {"s": {"type": "strnig"}} */
		addr_fail(a, "%s: form refused at \"#%s\": %s%s%s", path,
		    serr.pointer.buf, serr.reason,
		    serr.keyword != NULL ? ", keyword " : "",
		    serr.keyword != NULL ? serr.keyword : "");
		goto done;
	}
	/* GET serves the bundled form: what POST enforces, references
	 * included */
	if ((doc = addr_bundled(a, doc, s, form)) == NULL) {
		addr_fail(a, "%s: out of memory", path);
		goto done;
	}
	a->doc = doc;
	a->schema = form;
	snprintf(path, sizeof(path), "%s/hook", dir);
	a->has_hook = stat(path, &hst) == 0 && S_ISREG(hst.st_mode) &&
	              access(path, X_OK) == 0;
	a->ok = true;
	rc = 0;
done:
	arena_free(&scratch);
	if (rc == -1) {
		/* a refused address keeps its reason, not its memory */
		arena_free(&a->arena);
		a->doc = NULL;
		a->schema = NULL;
	}
	return rc;
}

/* Do the files still carry the stamps taken before they were read? */
static bool
addr_stamps_hold(const struct addr *a)
{
	char path[PATH_MAX + 32];
	struct addr_stamp st;

	snprintf(path, sizeof(path), "%s/address.conf", a->dir);
	addr_stamp(path, &st);
	if (!addr_stamp_same(&st, &a->conf_st))
		return false;
	snprintf(path, sizeof(path), "%s/form.json", a->dir);
	addr_stamp(path, &st);
	return addr_stamp_same(&st, &a->form_st) && addr_files_hold(a);
}

int
addr_load(const char *dir, struct addr *a, schema_warn_fn warn, void *warn_ctx)
{
	return addr_load_problems(dir, a, warn, warn_ctx, NULL);
}

int
addr_load_problems(const char *dir, struct addr *a, schema_warn_fn warn,
    void *warn_ctx, struct schema_problems *problems)
{
	struct timespec now;
	unsigned try;
	int rc;

	/* A file rewritten in place while it was read may have given half of
	 * the old bytes and half of the new: read again, a few times at most
	 * (an editor saves once; a file that keeps changing is refused until
	 * the next check). */
	for (try = 0; try < ADDR_LOAD_TRIES; try++) {
		rc = addr_load_once(dir, a, warn, warn_ctx, problems);
		if (strlen(dir) >= sizeof(a->dir) || addr_stamps_hold(a))
			break;
		addr_free(a);
		rc = -1;
		addr_fail(a, "%s: form.json or address.conf changed while "
		             "being read, %u times",
		    dir, ADDR_LOAD_TRIES);
	}
	/* Racy: a change within the same tick of the file system's clock as
	 * the one just read would leave every stamp as it is; check again by
	 * reading, not by stamps, until the files are older than that. */
	clock_gettime(CLOCK_REALTIME, &now);
	a->racy = addr_stamp_racy(&a->form_st, &now) ||
	          addr_stamp_racy(&a->conf_st, &now) || a->files_lost;
	for (const struct addr_file *f = a->files; f != NULL && !a->racy;
	     f = f->next)
		a->racy = addr_stamp_racy(&f->st, &now);
	return rc;
}

void
addr_free(struct addr *a)
{
	arena_free(&a->arena);
	a->ok = false;
	a->doc = NULL;
	a->schema = NULL;
	a->derived = NULL;
}

/* --- the cache -------------------------------------------------------- */

/*
 * Does dir exist as a directory, and (when root_len > 0) does its real
 * path stay under the root's?  -1 with why otherwise.
 */
static int
addr_check_dir(const char *dir, size_t root_len, const char **why)
{
	char root[PATH_MAX], rroot[PATH_MAX], rdir[PATH_MAX];
	struct stat st;
	size_t n;

	if (stat(dir, &st) == -1 || !S_ISDIR(st.st_mode)) {
		*why = "no such address directory";
		return -1;
	}
	if (root_len == 0)
		return 0;
	if (root_len >= sizeof(root)) {
		*why = "address path too long";
		return -1;
	}
	memcpy(root, dir, root_len);
	root[root_len] = '\0';
	if (realpath(root, rroot) == NULL || realpath(dir, rdir) == NULL) {
		*why = "address path does not resolve";
		return -1;
	}
	n = strlen(rroot);
	if (n == 1)
		n = 0; /* the root is "/": every real path is under it */
	/* hits on root/evil -> /etc: its real path is not under the root,
	 * and on root/self -> . : the root itself is no address */
	if (strncmp(rdir, rroot, n) != 0 || rdir[n] != '/' ||
	    rdir[n + 1] == '\0') {
		*why = "address leaves its root through a symlink";
		return -1;
	}
	return 0;
}

int
addr_check(const struct addr_ref *ref, const char **why)
{
	return addr_check_dir(ref->dir, ref->root_len, why);
}

static bool
addr_due(uint64_t last_ms, uint64_t now_ms)
{
	return now_ms - last_ms >= (uint64_t)ADDR_RECHECK_SEC * 1000;
}

static bool
addr_changed(const struct addr *a)
{
	char path[PATH_MAX + 32];
	struct addr_stamp st;

	snprintf(path, sizeof(path), "%s/form.json", a->dir);
	addr_stamp(path, &st);
	if (!addr_stamp_same(&st, &a->form_st))
		return true;
	snprintf(path, sizeof(path), "%s/address.conf", a->dir);
	addr_stamp(path, &st);
	return !addr_stamp_same(&st, &a->conf_st) || !addr_files_hold(a);
}

/* FNV-1a over the directory: the names are the operator's directories
 * that exist (a missing one never enters), so no key is needed. */
static uint64_t
addr_hash(const char *dir)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (; *dir != '\0'; dir++)
		h = (h ^ (unsigned char)*dir) * 0x100000001b3ULL;
	return h;
}

/*
 * GPT_CACHE_BYTES from the process environment: decimal bytes with an
 * optional K, M or G (binary multiples).  Unset or empty: the default.
 * Sets addr_budget and returns 0, or logs why and returns -1 with
 * addr_budget at the default (the responder then refuses to start, as
 * for its timeouts: a typo must not silently mean the default).
 */
static int
addr_cache_budget_env(void)
{
	const char *v;
	char *end;
	unsigned long long n;
	size_t mul = 1, bytes;

	addr_budget = ADDR_CACHE_BYTES_DEFAULT;
	if ((v = getenv("GPT_CACHE_BYTES")) == NULL || *v == '\0')
		return 0;
	errno = 0;
	n = strtoull(v, &end, 10);
	if (*end == 'K' || *end == 'M' || *end == 'G') {
		mul = *end == 'K' ? 1024 : *end == 'M' ? 1024 * 1024
		                                      : 1024 * 1024 * 1024;
		end++;
	}
	/* hits on "64MB", "-1", "0", "" after a digit-less "x" */
	if (errno != 0 || end == v || *end != '\0' || v[0] < '0' ||
	    v[0] > '9' || n == 0 || n > SIZE_MAX ||
	    !gpt_mul_size((size_t)n, mul, &bytes)) {
		log_error("GPT_CACHE_BYTES=\"%.40s\": not a size in bytes "
		          "(such as 67108864 or 64M); not starting",
		    v);
		return -1;
	}
	addr_budget = bytes;
	return 0;
}

int
addr_cache_configure(void)
{
	return addr_cache_budget_env();
}

/* The budget, read from the environment at first use when the responder
 * did not call addr_cache_configure (the command line, tests). */
static size_t
addr_cache_budget(void)
{
	if (addr_budget == 0)
		(void)addr_cache_budget_env();
	return addr_budget;
}

static void
addr_lru_unlink(struct addr_entry *e)
{
	if (e->newer != NULL)
		e->newer->older = e->older;
	else
		addr_newest = e->older;
	if (e->older != NULL)
		e->older->newer = e->newer;
	else
		addr_oldest = e->newer;
	e->newer = e->older = NULL;
}

static void
addr_lru_push(struct addr_entry *e)
{
	e->older = addr_newest;
	e->newer = NULL;
	if (addr_newest != NULL)
		addr_newest->newer = e;
	addr_newest = e;
	if (addr_oldest == NULL)
		addr_oldest = e;
}

/* Count what e holds now (after a load) against the budget. */
static void
addr_account(struct addr_entry *e)
{
	addr_bytes -= e->bytes;
	e->bytes = sizeof(*e) + e->a.arena.held;
	addr_bytes += e->bytes;
}

static void
addr_evict(struct addr_entry *e)
{
	struct addr_entry **pp = &addr_buckets[e->hash & (addr_nbuckets - 1)];

	/* bounded by the chain: entries in one bucket */
	while (*pp != e)
		pp = &(*pp)->chain;
	*pp = e->chain;
	addr_lru_unlink(e);
	addr_bytes -= e->bytes;
	addr_count--;
	addr_free(&e->a);
	free(e);
}

/* Double the bucket table (or make its first); -1 when out of memory, the
 * table then as it was. */
static int
addr_grow_buckets(void)
{
	size_t n = addr_nbuckets == 0 ? 64 : addr_nbuckets * 2, i;
	struct addr_entry **nb, *e, *next;

	if (n > SIZE_MAX / sizeof(*nb) || (nb = calloc(n, sizeof(*nb))) == NULL)
		return -1;
	for (i = 0; i < addr_nbuckets; i++) {
		for (e = addr_buckets[i]; e != NULL; e = next) {
			next = e->chain;
			e->chain = nb[e->hash & (n - 1)];
			nb[e->hash & (n - 1)] = e;
		}
	}
	free(addr_buckets);
	addr_buckets = nb;
	addr_nbuckets = n;
	return 0;
}

static struct addr_entry *
addr_find(const char *dir, uint64_t h)
{
	struct addr_entry *e;

	if (addr_nbuckets == 0)
		return NULL;
	for (e = addr_buckets[h & (addr_nbuckets - 1)]; e != NULL; e = e->chain)
		if (e->hash == h && strcmp(e->a.dir, dir) == 0)
			return e;
	return NULL;
}

/* A new entry, in the table and newest on the list, not loaded. */
static struct addr_entry *
addr_insert(uint64_t h)
{
	struct addr_entry *e;
	size_t b;

	if ((addr_count >= addr_nbuckets && addr_grow_buckets() == -1) ||
	    (e = calloc(1, sizeof(*e))) == NULL)
		return NULL;
	e->hash = h;
	b = h & (addr_nbuckets - 1);
	e->chain = addr_buckets[b];
	addr_buckets[b] = e;
	addr_lru_push(e);
	addr_count++;
	return e;
}

/* Load (or reload) e from ref, then what derive builds from it; a
 * refusal is kept in e->a.err. */
static void
addr_fill(struct addr_entry *e, const struct addr_ref *ref,
    addr_derive_fn derive, uint64_t now_ms)
{
	struct addr *a = &e->a;
	char why[ADDR_ERR_MAX];

	/* the caller logs a refusal at each request; derive builds what
	 * it needs from a load (and logs the form's warnings once) */
	if (addr_load(ref->dir, a, NULL, NULL) == -1 && a->err[0] == '\0')
		snprintf(a->err, sizeof(a->err), "refused");
	if (a->ok && derive != NULL && derive(a, why, sizeof(why)) == -1) {
		/* hits on a page past the arena's cap */
		addr_free(a);
		addr_fail(a, "%s/form.json: %s", ref->dir, why);
	}
	/* the cache key, whatever addr_load left there */
	snprintf(a->dir, sizeof(a->dir), "%s", ref->dir);
	a->root_len = ref->root_len;
	a->checked_ms = now_ms;
	addr_account(e);
}

/* Evict the least recently used until the budget holds; keep keep. */
static void
addr_trim(const struct addr_entry *keep)
{
	size_t budget = addr_cache_budget();

	/* bounded by addr_count: each pass evicts one */
	while (addr_bytes > budget && addr_oldest != NULL &&
	       addr_oldest != keep)
		addr_evict(addr_oldest);
}

const struct addr *
addr_lookup(const struct addr_ref *ref, addr_derive_fn derive,
    const char **why)
{
	uint64_t now;
	struct addr_entry *e;
	uint64_t h = addr_hash(ref->dir);

	*why = NULL;
	/* the program's one clock (common.h), coarse: no system call */
	now = gpt_now_ms();
	if ((e = addr_find(ref->dir, h)) != NULL) {
		if (e != addr_newest) {
			addr_lru_unlink(e);
			addr_lru_push(e);
		}
		if (!addr_due(e->a.checked_ms, now))
			return &e->a;
		e->a.checked_ms = now;
		if (addr_check_dir(ref->dir, ref->root_len, why) == -1) {
			/* the directory went away, or now leaves its root */
			addr_evict(e);
			return NULL;
		}
		/* a refused address is retried at every check: its cause may
		 * have been passing (out of memory); a racy one is read again
		 * whatever its stamps say */
		if (e->a.ok && !e->a.racy && !addr_changed(&e->a))
			return &e->a;
		addr_free(&e->a);
	} else {
		if (addr_check_dir(ref->dir, ref->root_len, why) == -1)
			return NULL;
		if ((e = addr_insert(h)) == NULL) {
			memset(&addr_nomem, 0, sizeof(addr_nomem));
			snprintf(addr_nomem.dir, sizeof(addr_nomem.dir), "%s",
			    ref->dir);
			snprintf(addr_nomem.err, sizeof(addr_nomem.err),
			    "out of memory for the address cache");
			return &addr_nomem;
		}
	}
	addr_fill(e, ref, derive, now);
	addr_trim(e);
	return &e->a;
}

size_t
addr_cache_bytes(void)
{
	return addr_bytes;
}

size_t
addr_cache_count(void)
{
	return addr_count;
}

void
addr_cache_clear(void)
{
	/* bounded by addr_count: each pass evicts one */
	while (addr_oldest != NULL)
		addr_evict(addr_oldest);
	free(addr_buckets);
	addr_buckets = NULL;
	addr_nbuckets = 0;
	addr_budget = 0;
	if (addr_arrival_tried)
		arena_free(&addr_arrival_arena);
	addr_arrival = NULL;
	addr_arrival_tried = false;
}
