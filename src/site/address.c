/*
 * address.c: resolve the address a request names and load it: its
 * address.conf, its form parsed, checked and compiled, the modes of its
 * files checked.  One job: keeping loaded addresses and reloading them is
 * addr_cache.c's.
 *
 * Owns: the arrival schema, compiled once per process; each loaded
 * address's arena (the caller's until addr_free).
 * Knows nothing of HTTP or HTML: what a request is answered is built from
 * a loaded address by the caller's derive function (answer.c), into the
 * address's arena, so it is counted and freed with it.
 * Refuses: names outside the grammar, encoded slashes, symlinks out of the
 * root (404); files others may write, forms that do not parse, are not an
 * arrival document, or whose s does not compile, and bad address.conf
 * files (500, reason in err).
 */
#include <dirent.h>
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
#include "schema/schema_dialect.h"
#include "schema/schema_load.h"
#include "site/links.h"

/* The arrival schema, compiled once for the whole process. */
static struct arena addr_arrival_arena;
static const struct schema *addr_arrival;
static bool addr_arrival_tried;
static char addr_arrival_err[ADDR_ERR_MAX];

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
addr_resolve(const struct addr_query *q, struct addr_ref *ref, const char **why)
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
	st->uid = sb.st_uid;
	st->mode = sb.st_mode;
}

bool
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
	    (f = arena_alloc(&a->files_arena, sizeof(*f))) == NULL ||
	    (copy = arena_strndup(&a->files_arena, path, strlen(path))) ==
	        NULL) {
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
	/* refs = PREFIX=DIR: DIR inside the address, through no link */
	for (i = 0; i < a->conf.nrefs; i++)
		if (schema_refs_add_beneath(&refs, a->conf.ref_prefix[i],
		        strlen(a->conf.ref_prefix[i]), a->dir, strlen(a->dir),
		        a->conf.ref_dir[i], strlen(a->conf.ref_dir[i])) == -1)
			return SCHEMA_NOMEM;
	if (schema_refs_local(&refs, SCHEMA_ADDRESS_PREFIX, a->dir) == -1)
		return SCHEMA_NOMEM;
	refs.seen = addr_file_seen;
	refs.seen_ctx = a;
	o.load = schema_refs_load;
	o.load_ctx = &refs;
	o.base_uri = SCHEMA_ADDRESS_BASE;
	return schema_compile_opts(s, &o, &a->arena, form, serr);
}

/* doc with its member s (or a) replaced by the bundled form, or doc
 * itself when nothing was embedded; NULL when the arena refuses. */
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
	    (m = arena_calloc(&a->arena, doc->u.obj.count, sizeof(*m))) == NULL)
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

/* --- who may write the address ---------------------------------------- */

/*
 * Whoever may write a file of the address changes what it serves (and
 * what its hook runs): an address that anyone but its owners may write is
 * refused, as sshd's StrictModes refuses keys.  path: -1 and the reason
 * in a when it exists and its group or others may write it (a symlink is
 * judged by what it names).
 */
static int
addr_mode_ok(struct addr *a, const char *path)
{
	struct stat st;

	if (stat(path, &st) == -1 || (st.st_mode & ADDR_WRITABLE) == 0)
		return 0;
	/* hits on a form.json of mode 664, an address directory of 777 */
	addr_fail(a,
	    "%s: writable by %s (mode %04o): an address only its owner may "
	    "write is served; fix: chmod go-w %s",
	    path, (st.st_mode & S_IWOTH) != 0 ? "others" : "its group",
	    (unsigned)(st.st_mode & 07777), path);
	a->writable = true;
	return -1;
}

struct addr_walk {
	struct addr *a;
	size_t seen; /* entries looked at */
};

/* addr_mode_ok on path and, for a directory (not through a symlink),
 * everything under it, ADDR_REFS_WALK_DEPTH levels and
 * ADDR_REFS_WALK_MAX entries at most. */
static int
addr_walk_modes(struct addr_walk *w, const char *path, unsigned depth)
{
	char sub[PATH_MAX];
	struct dirent *de;
	struct stat lst;
	int rc = 0;
	DIR *d;

	if (addr_mode_ok(w->a, path) == -1)
		return -1;
	if (++w->seen > ADDR_REFS_WALK_MAX || depth > ADDR_REFS_WALK_DEPTH) {
		/* hits on a refs directory of 100,000 files */
		addr_fail(w->a,
		    "%s: more than %u files or %u levels under "
		    "the refs directories: not checked, refused",
		    path, ADDR_REFS_WALK_MAX, ADDR_REFS_WALK_DEPTH);
		return -1;
	}
	if (lstat(path, &lst) == -1 || !S_ISDIR(lst.st_mode) ||
	    (d = opendir(path)) == NULL)
		return 0;
	/* bounded by ADDR_REFS_WALK_MAX entries in all */
	while (rc == 0 && (de = readdir(d)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 ||
		    strcmp(de->d_name, "..") == 0)
			continue;
		if (snprintf(sub, sizeof(sub), "%s/%s", path, de->d_name) >=
		    (int)sizeof(sub)) {
			addr_fail(
			    w->a, "%s: a path under it is too long", path);
			rc = -1;
		} else
			rc = addr_walk_modes(w, sub, depth + 1);
	}
	closedir(d);
	return rc;
}

/* The address directory, form.json and address.conf (before address.conf
 * is read), then the hook and the refs directories address.conf names. */
static int
addr_modes_before_conf(struct addr *a, const char *dir)
{
	char path[PATH_MAX + 32];

	if (addr_mode_ok(a, dir) == -1)
		return -1;
	snprintf(path, sizeof(path), "%s/form.json", dir);
	if (addr_mode_ok(a, path) == -1)
		return -1;
	snprintf(path, sizeof(path), "%s/address.conf", dir);
	return addr_mode_ok(a, path);
}

static int
addr_modes_after_conf(struct addr *a, const char *dir)
{
	char path[PATH_MAX + 32];
	struct addr_walk w = {a, 0};
	size_t i;

	snprintf(path, sizeof(path), "%s/hook", dir);
	if (addr_mode_ok(a, path) == -1)
		return -1;
	for (i = 0; i < a->conf.nrefs; i++) {
		if (snprintf(path, sizeof(path), "%s/%s", dir,
		        a->conf.ref_dir[i]) >= (int)sizeof(path)) {
			addr_fail(a, "%s: refs directory path too long", dir);
			return -1;
		}
		if (addr_walk_modes(&w, path, 0) == -1)
			return -1;
	}
	return 0;
}

/* Each file the form's references read from the address directory, and
 * each directory between it and the address ("defs" of defs/money.json):
 * refused as addr_mode_ok says.  A refs directory's files were walked
 * already (addr_modes_after_conf). */
static int
addr_modes_of_files(struct addr *a)
{
	const struct addr_file *f;
	char path[PATH_MAX];
	size_t dlen = strlen(a->dir);

	for (f = a->files; f != NULL; f = f->next) {
		char *slash;

		if (strncmp(f->path, a->dir, dlen) != 0 ||
		    f->path[dlen] != '/' || strlen(f->path) >= sizeof(path))
			continue;
		if (addr_mode_ok(a, f->path) == -1)
			return -1;
		snprintf(path, sizeof(path), "%s", f->path);
		while ((slash = strrchr(path, '/')) != NULL &&
		       (size_t)(slash - path) > dlen) {
			*slash = '\0';
			if (addr_mode_ok(a, path) == -1)
				return -1;
		}
	}
	return 0;
}

/* One attempt of addr_load: the stamps are taken before each file is
 * read, for addr_load to compare after. */
static int
addr_load_once(const char *dir, struct addr *a, schema_warn_fn warn,
    void *warn_ctx, struct schema_problems *problems)
{
	char path[PATH_MAX + 32], cerr[CONF_ERR_MAX];
	const struct json_value *doc, *s, *as;
	const struct schema *arrival, *form, *answer;
	char lptr[LINKS_PTR_MAX], lwhy[LINKS_WHY_MAX];
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
	arena_init(&a->files_arena, ADDR_FILES_ARENA_MAX);
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
	if (addr_modes_before_conf(a, dir) == -1)
		goto done;
	if (conf_load(path, &a->conf, cerr, sizeof(cerr)) == -1) {
		/* hits on "max_bdy = 1" (conf.c names the line) */
		addr_fail(a, "%s: %s", path, cerr);
		goto done;
	}
	if (addr_modes_after_conf(a, dir) == -1)
		goto done;
	snprintf(path, sizeof(path), "%s/form.json", dir);
	if (addr_read_form(a, path, &text, &len) == -1)
		goto done;
	if (json_parse(text, len, &a->arena, 0, &doc, &jerr) != JSON_OK) {
		size_t line, col;

		/* hits on a trailing comma or a duplicate member */
		json_line_col(text, len, jerr.offset, &line, &col);
		addr_fail(a, "%s: line %zu, column %zu (byte %zu): %s", path,
		    line, col, jerr.offset, jerr.msg);
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
		/* hits on {"p": "x", "s": {}}: name the three members */
		if (serr.pointer.len == 0 &&
		    (doc->type != JSON_T_OBJECT ||
		        (serr.keyword != NULL &&
		            strcmp(serr.keyword, schema_kw_name(KW_REQUIRED)) ==
		                0))) {
			addr_fail(a,
			    "%s: not an arrival document: it is an object of "
			    "three members, p (a string: what the address is "
			    "for), m (an array of {role, content} messages, "
			    "[] for none) and s (the form, a JSON Schema "
			    "object)%s%s%s%s",
			    path,
			    doc->type != JSON_T_OBJECT
			        ? "; this is not an object"
			        : "; missing:",
			    doc->type == JSON_T_OBJECT &&
			            json_object_get(doc, "p", 1) == NULL
			        ? " p"
			        : "",
			    doc->type == JSON_T_OBJECT &&
			            json_object_get(doc, "m", 1) == NULL
			        ? " m"
			        : "",
			    doc->type == JSON_T_OBJECT &&
			            json_object_get(doc, "s", 1) == NULL
			        ? " s"
			        : "");
			goto done;
		}
		/* hits on {"p": 1, "m": [], "s": {}} */
		addr_fail(a, "%s: not an arrival document at \"%s\": %s%s%s",
		    path, serr.pointer.buf,
		    serr.keyword != NULL ? serr.keyword : "",
		    serr.keyword != NULL ? ": " : "", serr.reason);
		goto done;
	}
	if (links_check(doc, lptr, sizeof(lptr), lwhy, sizeof(lwhy)) == -1) {
		/* hits on {"rel": "Next Page", "href": "x"} */
		addr_fail(
		    a, "%s: link refused at \"%s\": %s", path, lptr, lwhy);
		goto done;
	}
	s = json_object_get(doc, "s", 1);
	if (addr_compile(a, s, warn, warn_ctx, problems, &form, &serr) !=
	    SCHEMA_OK) {
		/* hits on {"s": {"type": "strnig"}} */
		addr_fail(a, "%s: form refused at \"#%s\": %s%s%s", path,
		    serr.pointer.buf, serr.keyword != NULL ? serr.keyword : "",
		    serr.keyword != NULL ? ": " : "", serr.reason);
		goto done;
	}
	/* a, the answer's form: the same compiler, dialect and references
	 * as s; its problems are not collected (the first refuses) */
	answer = NULL;
	if ((as = json_object_get(doc, "a", 1)) != NULL &&
	    addr_compile(a, as, warn, warn_ctx, NULL, &answer, &serr) !=
	        SCHEMA_OK) {
		/* hits on {"a": {"type": "strnig"}} */
		addr_fail(a, "%s: answer form refused at \"#/a%s\": %s%s%s",
		    path, serr.pointer.buf,
		    serr.keyword != NULL ? serr.keyword : "",
		    serr.keyword != NULL ? ": " : "", serr.reason);
		goto done;
	}
	/* the files beside the form that its references read, and the
	 * directories on their way, are the address's files too */
	if (addr_modes_of_files(a) == -1)
		goto done;
	/* GET serves the bundled form: what POST enforces, references
	 * included */
	if ((doc = addr_bundled(a, doc, s, form)) == NULL ||
	    (answer != NULL &&
	        (doc = addr_bundled(
	             a, doc, json_object_get(doc, "a", 1), answer)) == NULL)) {
		addr_fail(a, "%s: out of memory", path);
		goto done;
	}
	a->doc = doc;
	a->schema = form;
	a->answer = answer;
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
		a->answer = NULL;
	}
	return rc;
}

bool
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
		addr_fail(a,
		    "%s: form.json or address.conf changed while "
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
	arena_free(&a->files_arena);
	a->files = NULL;
	a->nfiles = 0;
	a->ok = false;
	a->doc = NULL;
	a->schema = NULL;
	a->answer = NULL;
	a->derived = NULL;
}

/* --- the directory ---------------------------------------------------- */

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

void
addr_arrival_free(void)
{
	if (addr_arrival_tried)
		arena_free(&addr_arrival_arena);
	addr_arrival = NULL;
	addr_arrival_tried = false;
}
