/*
 * address.h: which directory a request reaches, and that directory loaded
 * once: its address.conf, its form, and every answer to GET and HEAD
 * precomputed.
 *
 * Resolution (doc/protocol.md "An address"), first that applies:
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
 * parser, checked against the arrival schema (p, m, s, links, a), its
 * links checked (links.h), s and a compiled and bundled into the
 * document.  Data only: the conf, the document, the
 * compiled form.  What a request is answered (answer.h) is built from it
 * by the caller's derive function at each load, into the address's arena:
 * all of it lives there until the address is reloaded or evicted.  The
 * command line (--check, --validate DIR) loads with this same function.
 *
 * Who may write it: an address directory, form.json, address.conf, hook
 * or any file under its refs directories that its group or others may
 * write is refused at load, with the file and its mode (as sshd's
 * StrictModes): whoever may write them changes what the address serves.
 *
 * Stamps: a file is stamped (device, inode, size, mtime and ctime in ns,
 * owner and mode) before it is read and compared after the load; a file
 * that moved meanwhile is read again (at most ADDR_LOAD_TRIES times).
 * ctime moves on every write even when a tool puts mtime back (touch -d,
 * tar, rsync -t).  A file changed within ADDR_RACY_SEC seconds of its
 * load is racy: a second change in the same tick of the file system's
 * clock leaves its stamps as they were, so whoever keeps the load reads
 * it again.  Operators replace form.json by rename (write a new file,
 * `gpt.fcgi --check` it, mv it over): an in-place write is seen in its
 * middle by any reader.  Keeping loaded addresses is addr_cache.h's job.
 * Not thread-safe.
 */
#ifndef GPT_ADDRESS_H
#define GPT_ADDRESS_H

#include <limits.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>

#include "base/arena.h"
#include "base/common.h"
#include "site/conf.h"
#include "schema/schema.h"

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
#define ADDR_FILES_ARENA_MAX ((size_t)8 << 20) /* their paths and stamps */
/* The mode bits that refuse an address's file (addr_load). */
#define ADDR_WRITABLE (S_IWGRP | S_IWOTH)
/* How much of the refs directories addr_load checks for those bits: past
 * either limit the address is refused. */
#define ADDR_REFS_WALK_MAX 4096u
#define ADDR_REFS_WALK_DEPTH 16u

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
	uid_t uid;             /* the owner */
	mode_t mode;           /* type and permission bits */
};

struct addr_file {
	struct addr_file *next;
	const char *path; /* borrowed from the addr's files_arena */
	struct addr_stamp st;
};

struct addr {
	char dir[PATH_MAX]; /* the cache key: addr_ref.dir */
	size_t root_len;    /* as addr_ref */
	bool ok;            /* loaded; else err says why (answer 500) */
	bool no_form;       /* not ok because form.json does not exist */
	bool writable;      /* not ok because a file others may write */
	char err[ADDR_ERR_MAX];
	struct conf conf;
	struct arena arena;           /* owned: everything below that points */
	const struct json_value *doc; /* borrowed from arena */
	const struct schema *schema;  /* borrowed from arena: doc's s */
	/* borrowed from arena: doc's a, the form of the hook's answer, or
	 * NULL when the form has none (any JSON value is an answer) */
	const struct schema *answer;
	void *derived; /* borrowed from arena: what the derive function built
	                  from this load (answer.h); NULL until then */
	bool has_hook; /* an executable regular "hook" */
	struct addr_stamp form_st, conf_st; /* taken before reading */
	/* every other file the form's references read (refs directories,
	 * files beside the form), stamped before reading: a change to one
	 * reloads the address as one to form.json does */
	/* owned: the list below, kept when a refused load frees arena, so
	 * that fixing a file it read reloads it too */
	struct arena files_arena;
	struct addr_file *files; /* borrowed from files_arena: a list */
	size_t nfiles;
	bool files_lost; /* one was not remembered: reload at every check */
	bool racy;       /* a file changed within ADDR_RACY_SEC of its reading:
	                    the next check reloads whatever the stamps say */
	uint64_t checked_ms; /* addr_cache.h: gpt_now_ms() at the last stat */
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
 * Does ref's directory exist, and stay under its root (the check every
 * lookup makes, addr_cache.h)?  0, or -1 (answer 404) with a static reason in
 * *why.
 */
int addr_check(const struct addr_ref *ref, const char **why) GPT_MUSTCHECK;

/* The stamp of the file at path (lstat: a symlink is stamped as one);
 * exists is false when there is none. */
void addr_stamp(const char *path, struct addr_stamp *st);

/* Are x and y the same stamp (existence, device, inode, size, mtime and
 * ctime; owner and mode changes move ctime)? */
bool addr_stamp_same(const struct addr_stamp *x, const struct addr_stamp *y);

/* Do a's form.json and address.conf still carry the stamps taken before
 * they were read? */
bool addr_stamps_hold(const struct addr *a);

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

/* Free the arrival schema compiled at the first load (at exit, and
 * between tests); the next load compiles it again. */
void addr_arrival_free(void);

#endif /* GPT_ADDRESS_H */
