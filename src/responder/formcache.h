/*
 * formcache.h: the CGI form cache.  A CGI process answers one request and
 * exits, so without help every GET would parse, check and compile the
 * form again and build its answers, though a GET only writes those
 * answers.  This module keeps them in a file, one per address, and
 * answers GET and HEAD from it while every file they came from is
 * unchanged; otherwise the address is loaded as always (addr_cache_lookup, addr_cache.h) and,
 * when it loads, its file is written for the next request.
 *
 * Keyed, never trusted: a file is used only when its key equals what the
 * disk says now: the binary's version and identity (device, inode, size,
 * mtime and ctime in ns of /proc/self/exe), the address directory as
 * named, the stamps of form.json and address.conf (address.h, taken
 * before they were read) and the stamps of every file and directory
 * under the address's refs directories.  The file must be a regular file
 * owned by the process's user in a directory of that user that no one
 * else may write (not a symlink), of the length it says, laid out as the
 * writer lays it (answers end to end, nothing after them; checked by
 * tests/fuzz_formcache.c) and pass its checksums (64-bit SipHash-1-3
 * under a fixed key, for damage, not for an adversary: the directory is
 * private).  Anything else is a miss:
 * the address loads, and its 500 or 404 is never cached.  A form whose
 * files changed within ADDR_RACY_SEC of the load (address.h: the same
 * clock tick could hide a second change) is not cached either.  Files
 * are written to a temporary name and renamed over the old one, so a
 * reader sees a whole file or the previous one.
 *
 * Where: GPT_FORM_CACHE (process environment) names the directory, or
 * "off"; by default $TMPDIR/gpt.fcgi-cache-UID (/tmp without TMPDIR),
 * created 0700.  A directory that fails the ownership checks turns the
 * cache off for the request, with a warning.  Only CGI uses it: a
 * FastCGI process keeps its addresses in memory (address.h).
 *
 * Limits: a cache file holds at most FORMCACHE_FILE_MAX bytes, a key at
 * most FORMCACHE_REFS_MAX refs entries FORMCACHE_REFS_DEPTH levels deep;
 * an address past either is served, not cached.  Storing an entry removes
 * the entries not written for FORMCACHE_KEEP_SEC.  Not thread-safe.
 */
#ifndef GPT_FORMCACHE_H
#define GPT_FORMCACHE_H

#include "site/address.h"
#include "base/common.h"

#define FORMCACHE_FILE_MAX ((size_t)64 * 1024 * 1024)
#define FORMCACHE_REFS_MAX 1024
#define FORMCACHE_REFS_DEPTH 16
/* Entries not rewritten for a week are removed when another is stored
 * (an address that is gone leaves its entry otherwise); a live address's
 * entry is then stored again by its next GET. */
#define FORMCACHE_KEEP_SEC (7 * 24 * 3600)
#define FORMCACHE_TMP_KEEP_SEC 3600
#define FORMCACHE_PRUNE_MAX 4096

/*
 * Read GPT_FORM_CACHE and pick the directory (nothing is created yet).  A
 * value that is neither "off" nor an absolute path turns the cache off
 * with a warning: a typo costs speed, never an answer.
 */
void formcache_configure(void);

/*
 * addr_cache_lookup for one CGI request.  arrival: the request is a GET or a
 * HEAD, which may be answered from the cache; html: it wants the page
 * (http_wants_html), so only the page's answers are read.  A hit gives an
 * address that is ok and carries its conf and, in answer_of (answer.h),
 * its ETags and the answers of the representation asked for (the others
 * are empty); its schema and doc are NULL.
 *
 * An act (arrival false) whose entry's key holds loads the form (it must
 * be compiled to judge the act) but builds none of GET's answers: its
 * ETag and 412 come from the entry (answer_build_known), and neither
 * derive runs, so what they do once per load (the form's warnings in the
 * log) is not done again for a form already stored.
 *
 * Any other request loads the address with derive (every answer:
 * answer_build's) and, when it is ok, stores them: the first request
 * after a change, GET or act, writes the entry.  With the cache off, an
 * act loads with derive_act instead (without the page: nothing is
 * stored).  The answer is addr_cache_lookup's (NULL with *why, or an address).
 * Valid until the next call or formcache_clear.
 */
const struct addr *formcache_lookup(const struct addr_ref *ref, bool arrival,
    bool html, addr_derive_fn derive, addr_derive_fn derive_act,
    const char **why);

/*
 * The cache file of the address directory dir, into out (size bytes): 0,
 * or -1 when the cache is off or the path does not fit.  For tests and
 * the man page's example.
 */
int formcache_path(const char *dir, char *out, size_t size) GPT_MUSTCHECK;

/*
 * The reader's checks on the len bytes at bytes as the cache file of the
 * address directory dir, against the disk now (header, checksums, key,
 * answer table): true when they hold, and set then carries the file's
 * ETags and its four answers (pointing into bytes), of which those of
 * the representation asked for (html) passed their checksums.  For the
 * unit tests and tests/fuzz_formcache.c; formcache_lookup reads through
 * the same steps.
 */
struct answer_set;
bool formcache_verify(const char *bytes, size_t len, const char *dir, bool html,
    struct answer_set *set);

/*
 * The cache file the writer stores for the loaded address a (start: when
 * its load began), appended to out: 0, or -1 when a cannot be cached.
 * For tests: a file formcache_verify accepts must be these bytes.
 */
struct buf;
int formcache_build(const struct addr *a, const struct timespec *start,
    struct buf *out) GPT_MUSTCHECK;

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
