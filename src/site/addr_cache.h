/*
 * addr_cache.h: the addresses a process keeps loaded (address.h loads
 * one), and when it loads them again.
 *
 * Every address looked up stays loaded while the loaded ones together
 * (their arenas and entries) fit in GPT_CACHE_BYTES bytes of the process
 * environment [ADDR_CACHE_BYTES_DEFAULT]; past it the least recently used
 * are evicted (the one in use always stays).  Finding an address is one
 * hash and one string compare, however many are loaded.  An address is
 * checked against the disk at most once every ADDR_RECHECK_SEC seconds
 * (its directory, and the stamps of form.json and address.conf) and
 * loaded again when a stamp moved, when it was refused (the cause may
 * have passed), or when it was racy (address.h).
 *
 * An in-place rewrite is not served half done: while form.json or
 * address.conf is the same file (device and inode) as the version served
 * and changed less than ADDR_SETTLE_MS ago, the version served stays, and
 * so it does when the new load finds the files moving under it; the
 * change is taken at the first check after it settles, whether it loads
 * or is refused.  A file renamed over (a new inode) is taken at once:
 * rename shows either file whole.  Not thread-safe.
 */
#ifndef GPT_ADDR_CACHE_H
#define GPT_ADDR_CACHE_H

#include "site/address.h"
#include "base/common.h"

#define ADDR_CACHE_BYTES_DEFAULT ((size_t)64 * 1024 * 1024)
#define ADDR_RECHECK_SEC 1
#define ADDR_SETTLE_MS 1000

/*
 * The cached address for ref, loaded or reloaded as needed, derive (may
 * be NULL) run after each load: NULL when it does not exist or leaves its
 * root (answer 404; *why says which), else an address that is either ok
 * or carries its refusal in err (answer 500).  The pointer is valid until
 * the next addr_cache_lookup or addr_cache_clear.  Out of memory gives a
 * refused address too.
 */
const struct addr *addr_cache_lookup(
    const struct addr_ref *ref, addr_derive_fn derive, const char **why);

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

/* Free every cached address and the arrival schema (at exit, and between
 * tests); the budget is read from the environment again at the next
 * lookup. */
void addr_cache_clear(void);

#endif /* GPT_ADDR_CACHE_H */
