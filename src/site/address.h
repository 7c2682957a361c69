/*
 * address.h: which directory a request reaches, and that directory loaded
 * once: its address.conf, its form, and every answer to GET and HEAD
 * precomputed.
 *
 * Resolution (CONTRACT "An address"), first that applies:
 *  1. GPT_ADDRESS names the directory (PATH_INFO must then be empty);
 *  2. GPT_ROOT plus exactly one PATH_INFO segment "/name";
 *  3. the default, for shared hosting: the directory "<SCRIPT_FILENAME>.d"
 *     beside the binary (cgi-bin/gpt.fcgi.d/) is the address when there is
 *     no PATH_INFO, and "<SCRIPT_FILENAME>.d/name" with one segment.
 * A name matches [A-Za-z0-9_-][A-Za-z0-9._-]* (no hidden names, no "..").
 * Anything else, an encoded slash (%2F) in REQUEST_URI, a trailing slash,
 * several segments, or a name whose real path leaves its root through a
 * symlink, reaches no address (404).
 *
 * Loading: address.conf (conf.h), then form.json read with the strict
 * parser, checked against the arrival schema (p, m, s), s compiled and
 * bundled into the document.  Data only: the conf, the document, the
 * compiled form.  What a request is answered (answer.h) is built from it
 * by the caller's derive function at each load, into the address's arena:
 * all of it lives there until the address is reloaded or evicted.  The
 * command line (--check, --validate DIR) loads with this same function.
 *
 * The cache: every address looked up stays loaded while the loaded ones
 * together (their arenas and entries) fit in GPT_CACHE_BYTES bytes of the
 * process environment [ADDR_CACHE_BYTES_DEFAULT]; past it the least
 * recently used are evicted (the one in use always stays).  Finding an
 * address is one hash and one string compare, however many are loaded.
 * An address is checked against the disk at most once every
 * ADDR_RECHECK_SEC seconds (form.json and address.conf: device, inode,
 * size, mtime and ctime in ns) and reloaded when either changed.  ctime
 * moves on every write even when a tool puts mtime back (touch -d, tar,
 * rsync -t).  The stamps are taken before a file is read and compared
 * after the load; a file that moved meanwhile is read again (at most
 * ADDR_LOAD_TRIES times).  A file changed within ADDR_RACY_SEC seconds of
 * its load is read again at the next check whatever its stamps say: a
 * second change in the same tick of the file system's clock leaves them
 * all as they were.  Operators replace form.json by rename (write a new
 * file, `gpt.fcgi --check` it, mv it over): an in-place write is seen in
 * its middle by any reader.  Not thread-safe.
 */
#ifndef GPT_ADDRESS_H
#define GPT_ADDRESS_H

#include <limits.h>
#include <sys/types.h>
#include <time.h>

#include "base/arena.h"
#include "base/common.h"
#include "site/conf.h"
#include "schema/schema.h"

#define ADDR_CACHE_BYTES_DEFAULT ((size_t)64 * 1024 * 1024)
#define ADDR_RECHECK_SEC 1
#define ADDR_LOAD_TRIES 3
#define ADDR_RACY_SEC 2
#define ADDR_NAME_MAX 255                       /* bytes of a PATH_INFO name */
#define ADDR_FORM_MAX ((size_t)4 * 1024 * 1024) /* bytes of form.json */
#define ADDR_ARENA_MAX ((size_t)256 * 1024 * 1024) /* one loaded form */
#define ADDR_ERR_MAX 512
/* files a form's references read that a load remembers for its reload
 * check; past it (no form gets there: every reference reads a document
 * once) the address is reloaded at every check */
#define ADDR_FILES_MAX 1024

/* Where a request points, before anything is opened. */
struct addr_ref {
	char dir[PATH_MAX]; /* the address directory, as named */
	size_t root_len;    /* 0, or dir[0..root_len) is the root dir must
	                       stay under (GPT_ROOT and the .d default) */
	bool script_own;    /* the .d default with no name: the script's own
	                       URL, which has no form until one is created */
};

/* What names an address: the request's variables (CGI/FastCGI
 * parameters; GPT_ADDRESS and GPT_ROOT also from the process
 * environment).  Borrowed; any may be NULL. */
struct addr_query {
	const char *path_info;
	const char *request_uri;
	const char *script_filename;
	const char *gpt_address;
	const char *gpt_root;
};

/* What --check and the cache need to know about one file on disk. */
struct addr_stamp {
	bool exists;
	dev_t dev;
	ino_t ino;
	off_t size;
	struct timespec mtime;
	struct timespec ctime; /* moves on every write, chmod, touch -d */
};

struct addr_file {
	struct addr_file *next;
	const char *path; /* borrowed from the addr's arena */
	struct addr_stamp st;
};

struct addr {
	char dir[PATH_MAX]; /* the cache key: addr_ref.dir */
	size_t root_len;    /* as addr_ref */
	bool ok;            /* loaded; else err says why (answer 500) */
	bool no_form;       /* not ok because form.json does not exist */
	char err[ADDR_ERR_MAX];
	struct conf conf;
	struct arena arena;            /* owned: everything below that points */
	const struct json_value *doc;  /* borrowed from arena */
	const struct schema *schema;   /* borrowed from arena: doc's s */
	void *derived; /* borrowed from arena: what the derive function built
	                  from this load (answer.h); NULL until then */
	bool has_hook; /* an executable regular "hook" */
	struct addr_stamp form_st, conf_st; /* taken before reading */
	/* every other file the form's references read (refs directories,
	 * files beside the form), stamped before reading: a change to one
	 * reloads the address as one to form.json does */
	struct addr_file *files; /* borrowed from arena: a list */
	size_t nfiles;
	bool files_lost; /* one was not remembered: reload at every check */
	bool racy; /* a file changed within ADDR_RACY_SEC of its reading:
	              the next check reloads whatever the stamps say */
	uint64_t checked_ms; /* gpt_now_ms() at the last stat */
};

/*
 * Is name a valid address name: 1 to ADDR_NAME_MAX bytes of
 * [A-Za-z0-9_-][A-Za-z0-9._-]*?
 */
bool addr_name_ok(const char *name);

/*
 * Resolve req to a directory (see the top of this file).  0 and *ref
 * filled, or -1 (answer 404) with a static reason in *why for the log.
 * Pure: looks at nothing but req.
 */
int addr_resolve(const struct addr_query *q, struct addr_ref *ref,
    const char **why) GPT_MUSTCHECK;

/*
 * Does ref's directory exist, and stay under its root (the check
 * addr_lookup makes)?  0, or -1 (answer 404) with a static reason in *why.
 */
int addr_check(const struct addr_ref *ref, const char **why) GPT_MUSTCHECK;

/* The stamp of the file at path (lstat: a symlink is stamped as one);
 * exists is false when there is none. */
void addr_stamp(const char *path, struct addr_stamp *st);

/*
 * Load the address in dir into *a (which the caller then owns; release
 * with addr_free).  warn (may be NULL) receives the schema compiler's
 * warnings.  0 when the address loads (a->ok); -1 when it is refused, with
 * the reason in a->err: *a is then still valid to free.
 */
int addr_load(const char *dir, struct addr *a, schema_warn_fn warn,
    void *warn_ctx) GPT_MUSTCHECK;

/*
 * addr_load for --check: when problems is not NULL, the compiler goes on
 * past each refusal of the form and records every problem there (the
 * first in document order is also a->err's); problems->count is 0 when
 * the refusal is not the form's (address.conf, the arrival document).
 */
int addr_load_problems(const char *dir, struct addr *a, schema_warn_fn warn,
    void *warn_ctx, struct schema_problems *problems) GPT_MUSTCHECK;

/* Release what addr_load took.  a may then be loaded again. */
void addr_free(struct addr *a);

/*
 * What a caller builds from a loaded address, into a->arena, pointed at by
 * a->derived.  0, or -1 with the reason in err (the address is then
 * refused).
 */
typedef int (*addr_derive_fn)(struct addr *a, char *err, size_t errlen);

/*
 * The cached address for ref, loaded or reloaded as needed, derive (may
 * be NULL) run after each load: NULL when it does not exist or leaves its
 * root (answer 404; *why says which), else an address that is either ok
 * or carries its refusal in err (answer 500).  The pointer is valid until
 * the next addr_lookup or addr_cache_clear.  Out of memory gives a
 * refused address too.
 */
const struct addr *addr_lookup(const struct addr_ref *ref,
    addr_derive_fn derive, const char **why);

/*
 * Read the cache's byte budget from GPT_CACHE_BYTES (see gpt.fcgi(8)): 0,
 * or -1 after logging why when the value is malformed (the responder then
 * refuses to start).  Without this call the first lookup reads it and
 * uses the default for a malformed value.
 */
int addr_cache_configure(void) GPT_MUSTCHECK;

/* The bytes the cache holds (entries and arenas), and its entries. */
size_t addr_cache_bytes(void);
size_t addr_cache_count(void);

/* Free every cached address (at exit, and between tests); the budget is
 * read from the environment again at the next lookup. */
void addr_cache_clear(void);

#endif /* GPT_ADDRESS_H */
