/*
 * formcache.h: the CGI form cache.  A CGI process answers one request and
 * exits, so without help every GET would parse, check and compile the
 * form again and build its answers, though a GET only writes those
 * answers.  This module keeps them in a file and answers GET and HEAD
 * from it while every file they came from is unchanged; otherwise the
 * address is loaded as always (addr_cache_lookup, addr_cache.h).
 *
 * The rule: no file that the CGI user alone can write may change what an
 * address serves.  So there are two kinds of file:
 *
 *  - the precomputed representation, DIR/form.compiled, written by the
 *    operator (`gpt.fcgi --compile DIR`, formcache_compile) into the
 *    address directory beside form.json, never by a request.  It is used
 *    only when it is a regular file (not a symlink) owned like form.json
 *    (form.json's owner, or root) that neither its group nor others may
 *    write, in an address directory that neither its group nor others may
 *    write (address.h refuses such an address anyway), and when its key
 *    holds.  Whoever may write it may write form.json too.
 *  - the run-time cache, off unless GPT_FORM_CACHE (process environment)
 *    asks for it: "tmp" for $TMPDIR/gpt.fcgi-cache-UID (/tmp without
 *    TMPDIR), or an absolute directory.  A request that loads the address
 *    stores its answers there, one file per address.  It trusts every
 *    program that runs as the CGI user: any of them can rewrite an entry
 *    (the checksum below is no secret).  Its directory must belong to the
 *    user and be writable by no one else (made 0700 when missing); when
 *    another user holds the name, up to FORMCACHE_DIR_TRIES - 1 names
 *    after it ("NAME-1", ...) are tried and the one taken is said once,
 *    when it is made; when none can be used the cache is off for the
 *    request, with a warning.
 *
 * Keyed, never trusted on its own: a file is used only when its key
 * equals what the disk says now: the binary's version and identity
 * (device, inode, size, mtime and ctime in ns of /proc/self/exe), for the
 * run-time cache the address directory as named, the stamps of form.json
 * and address.conf (address.h, taken before they were read) and the
 * stamps of every file and directory under the address's refs
 * directories (by their paths inside the address).  It must be of the
 * length it says, laid out as the writer lays it (answers end to end,
 * nothing after them; checked by tests/fuzz_formcache.c) and pass its
 * checksums (64-bit SipHash-1-3 under a fixed key, for damage, not for an
 * adversary).  Anything else is a miss: the address loads, and its 500
 * or 404 is never stored.  A form whose files changed within
 * ADDR_RACY_SEC of the load (address.h: the same clock tick could hide a
 * second change) is not stored either (--compile waits that out).  Files
 * are written to a temporary name and renamed over the old one, so a
 * reader sees a whole file or the previous one.  A GET reads the header
 * and the answers of the representation it writes, not the others.
 *
 * An in-place rewrite is not served half done: a GET takes a file whose
 * key differs only in form.json's or address.conf's stamp when that file
 * is the same one (device and inode) and changed less than
 * ADDR_SETTLE_MS ago (addr_cache.h), so the version before the rewrite is
 * served until it settles, with a warning.
 *
 * Limits: a file holds at most FORMCACHE_FILE_MAX bytes, a key at most
 * FORMCACHE_REFS_MAX refs entries FORMCACHE_REFS_DEPTH levels deep; an
 * address past either is served, not stored.  Storing a run-time entry
 * removes the entries not written for FORMCACHE_KEEP_SEC.  Only CGI
 * reads these files: a FastCGI process keeps its addresses in memory
 * (addr_cache.h).  Not thread-safe.
 */
#ifndef GPT_FORMCACHE_H
#define GPT_FORMCACHE_H

#include "base/common.h"
#include "site/address.h"

#define FORMCACHE_FILE_MAX ((size_t)64 * 1024 * 1024)
#define FORMCACHE_REFS_MAX 1024
#define FORMCACHE_REFS_DEPTH 16
#define FORMCACHE_DIR_TRIES 8
/* The precomputed representation's name in the address directory. */
#define FORMCACHE_COMPILED_NAME "form.compiled"
/* Entries not rewritten for a week are removed when another is stored
 * (an address that is gone leaves its entry otherwise); a live address's
 * entry is then stored again by its next GET. */
#define FORMCACHE_KEEP_SEC (7 * 24 * 3600)
#define FORMCACHE_TMP_KEEP_SEC 3600
#define FORMCACHE_PRUNE_MAX 4096

/* The two kinds of file (the top of this file). */
enum formcache_kind { FORMCACHE_KIND_RUNTIME, FORMCACHE_KIND_COMPILED };

/*
 * Read GPT_FORM_CACHE and pick the run-time cache's directory (nothing is
 * created yet).  A value that is neither "off", "tmp" nor an absolute
 * path leaves it off with a warning: a typo costs speed, never an answer.
 */
void formcache_configure(void);

/*
 * addr_cache_lookup for one CGI request.  arrival: the request is a GET
 * or a HEAD, which may be answered from a file; html: it wants the page
 * (http_wants_html), so only the page's answers are read.  A hit gives an
 * address that is ok and carries its conf and, in answer_of (answer.h),
 * its ETags and the answers of the representation asked for (the others
 * are empty); its schema and doc are NULL.
 *
 * An act (arrival false) whose file's key holds loads the form (it must
 * be compiled to judge the act) but builds none of GET's answers: its
 * ETag and 412 come from the file (answer_build_known), and neither
 * derive runs, so what they do once per load (the form's warnings in the
 * log) is not done again for a form already stored.
 *
 * Any other request loads the address with derive (every answer:
 * answer_build's) and, when it is ok and the run-time cache is on, stores
 * them: the first request after a change, GET or act, writes the entry.
 * With the run-time cache off, an act or a GET of the JSON loads with
 * derive_act instead (without the page, which nothing stores and nothing
 * of that request reads: its hashing and the page's build were a third
 * of an uncached JSON GET).  The answer is
 * addr_cache_lookup's (NULL with *why, or an address).  Valid until the
 * next call or formcache_clear.
 */
const struct addr *formcache_lookup(const struct addr_ref *ref, bool arrival,
    bool html, addr_derive_fn derive, addr_derive_fn derive_act,
    const char **why);

/*
 * The run-time cache file of the address directory dir, into out (size
 * bytes): 0, or -1 when that cache is off or the path does not fit.  For
 * tests and the man page's example; the directory is the one the last
 * lookup used.
 */
int formcache_path(const char *dir, char *out, size_t size) GPT_MUSTCHECK;

/*
 * Write the precomputed representation of the loaded address a (its
 * answers built: answer_build; start: when its load began) into
 * a->dir/form.compiled, owned by form.json's owner when run as root,
 * mode 0644: 0, or -1 with the reason in err (errlen bytes); *again then
 * says whether loading again later may succeed (a file changed within
 * ADDR_RACY_SEC of the load).
 */
int formcache_compile(const struct addr *a, const struct timespec *start,
    bool *again, char *err, size_t errlen) GPT_MUSTCHECK;

/* What --check says of an address's precomputed representation. */
enum formcache_state {
	FORMCACHE_CURRENT,   /* a CGI GET is answered from it */
	FORMCACHE_MISSING,   /* there is none */
	FORMCACHE_STALE,     /* its key no longer holds: a file changed, or
	                        another binary wrote it */
	FORMCACHE_UNTRUSTED, /* not owned like form.json, or others may write
	                        it or the directory */
	FORMCACHE_DAMAGED    /* not laid out as written, or a checksum fails */
};

/* The state of dir's precomputed representation, judged as a CGI request
 * judges it (both representations read). */
enum formcache_state formcache_compiled_state(const char *dir);

/*
 * The reader's checks on the len bytes at bytes as a file of kind for the
 * address directory dir, against the disk now (header, checksums, key,
 * answer table): true when they hold, and set then carries the file's
 * ETags and its four answers (pointing into bytes), of which those of
 * the representation asked for (html) passed their checksums.  For the
 * unit tests and tests/fuzz_formcache.c; formcache_lookup reads through
 * the same steps.
 */
struct answer_set;
bool formcache_verify(enum formcache_kind kind, const char *bytes, size_t len,
    const char *dir, bool html, struct answer_set *set);

/*
 * The file of kind the writer stores for the loaded address a (start:
 * when its load began), appended to out: 0, or -1 when a cannot be
 * stored.  For tests: a file formcache_verify accepts must be these
 * bytes.
 */
struct buf;
int formcache_build(enum formcache_kind kind, const struct addr *a,
    const struct timespec *start, struct buf *out) GPT_MUSTCHECK;

/*
 * For tests and the fuzz target, which forge files: the checksum the
 * file uses, and a forged file's length word and every checksum set
 * where its own header and table place them (bounds checked: a word that
 * points outside is left as it is).
 */
uint64_t formcache_sum(const void *p, size_t n);
void formcache_seal(char *bytes, size_t len);

/* Free what the last hit holds and forget the configuration. */
void formcache_clear(void);

#endif /* GPT_FORMCACHE_H */
