/*
 * addr_cache.c: the addresses a process keeps loaded (see addr_cache.h
 * for the budget, the checks and the in-place rewrites).
 *
 * Owns: the entries (a hash table by directory, chained, and a list from
 * the most to the least recently used) and each entry's loaded address.
 * Every entry counts its own size and its address's arena; after each
 * lookup the least recently used are evicted until the total fits the
 * budget (the one just looked up always stays).  All of it is process
 * memory (malloc), outside any request.  The request path costs one
 * clock read (no system call), and at most once a second per address two
 * stat calls and two realpath calls.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "site/addr_cache.h"
#include "base/log.h"

struct addr_entry {
	struct addr *a;           /* owned: what lookups hand out */
	struct addr_entry *chain; /* borrowed: next in the same bucket */
	struct addr_entry *newer; /* borrowed: LRU list */
	struct addr_entry *older; /* borrowed */
	uint64_t hash;            /* of a->dir */
	size_t bytes;             /* counted against the budget */
};

static struct addr_entry **addr_buckets; /* owned: addr_nbuckets heads */
static size_t addr_nbuckets;             /* a power of two, or 0 */
static size_t addr_count;                /* entries */
static size_t addr_bytes;                /* their bytes together */
static size_t addr_budget;               /* 0 until read from the env */
static struct addr_entry *addr_newest, *addr_oldest; /* owned: every entry */
/* What a lookup answers when memory for an entry runs out (a 500). */
static struct addr addr_nomem;

static bool
addr_due(uint64_t last_ms, uint64_t now_ms)
{
	return now_ms - last_ms >= (uint64_t)ADDR_RECHECK_SEC * 1000;
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
		mul = *end == 'K'   ? 1024
		      : *end == 'M' ? 1024 * 1024
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
	e->bytes = sizeof(*e) + sizeof(*e->a) + e->a->arena.held;
	addr_bytes += e->bytes;
}

static void
addr_drop(struct addr *a)
{
	if (a == NULL)
		return;
	addr_free(a);
	free(a);
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
	addr_drop(e->a);
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
		if (e->hash == h && strcmp(e->a->dir, dir) == 0)
			return e;
	return NULL;
}

/* A new entry holding a (owned from now), in the table and newest on the
 * list. */
static struct addr_entry *
addr_insert(uint64_t h, struct addr *a)
{
	struct addr_entry *e;
	size_t b;

	if ((addr_count >= addr_nbuckets && addr_grow_buckets() == -1) ||
	    (e = calloc(1, sizeof(*e))) == NULL)
		return NULL;
	e->hash = h;
	e->a = a;
	b = h & (addr_nbuckets - 1);
	e->chain = addr_buckets[b];
	addr_buckets[b] = e;
	addr_lru_push(e);
	addr_count++;
	addr_account(e);
	return e;
}

/* ref's address loaded, then what derive builds from it, into a new
 * struct (a refusal is kept in its err); NULL when out of memory. */
static struct addr *
addr_fill(const struct addr_ref *ref, addr_derive_fn derive, uint64_t now_ms)
{
	struct addr *a = calloc(1, sizeof(*a));
	char why[ADDR_ERR_MAX];

	if (a == NULL)
		return NULL;
	/* the caller logs a refusal at each request; derive builds what
	 * it needs from a load (and logs the form's warnings once) */
	if (addr_load(ref->dir, a, NULL, NULL) == -1 && a->err[0] == '\0')
		snprintf(a->err, sizeof(a->err), "refused");
	if (a->ok && derive != NULL && derive(a, why, sizeof(why)) == -1) {
		/* hits on a page past the arena's cap */
		addr_free(a);
		snprintf(a->err, sizeof(a->err), "%.300s/form.json: %.180s",
		    ref->dir, why);
	}
	/* the cache key, whatever addr_load left there */
	snprintf(a->dir, sizeof(a->dir), "%s", ref->dir);
	a->root_len = ref->root_len;
	a->checked_ms = now_ms;
	return a;
}

/* Evict the least recently used until the budget holds; keep keep. */
static void
addr_trim(const struct addr_entry *keep)
{
	size_t budget = addr_cache_budget();

	/* bounded by addr_count: each pass evicts one */
	while (
	    addr_bytes > budget && addr_oldest != NULL && addr_oldest != keep)
		addr_evict(addr_oldest);
}

/* Is now is the same file as served, changed in place less than
 * ADDR_SETTLE_MS before now_ts? */
static bool
addr_in_place(const struct addr_stamp *served, const struct addr_stamp *now,
    const struct timespec *now_ts)
{
	int64_t age_ms;

	if (!served->exists || !now->exists || served->dev != now->dev ||
	    served->ino != now->ino || addr_stamp_same(served, now))
		return false;
	age_ms =
	    ((int64_t)now_ts->tv_sec - (int64_t)now->ctime.tv_sec) * 1000 +
	    ((int64_t)now_ts->tv_nsec - (int64_t)now->ctime.tv_nsec) / 1000000;
	return age_ms < ADDR_SETTLE_MS;
}

/*
 * Is a file of the version served (ok) being rewritten in place: the same
 * file, changed just now, by its stamps now (form and conf)?
 */
static bool
addr_unsettled(const struct addr *served, const struct addr_stamp *form,
    const struct addr_stamp *conf)
{
	struct timespec now;

	if (!served->ok)
		return false;
	clock_gettime(CLOCK_REALTIME, &now);
	return addr_in_place(&served->form_st, form, &now) ||
	       addr_in_place(&served->conf_st, conf, &now);
}

/* The stamps of dir's form.json and address.conf now. */
static void
addr_stamps_now(
    const char *dir, struct addr_stamp *form, struct addr_stamp *conf)
{
	char path[PATH_MAX + 32];

	snprintf(path, sizeof(path), "%s/form.json", dir);
	addr_stamp(path, form);
	snprintf(path, sizeof(path), "%s/address.conf", dir);
	addr_stamp(path, conf);
}

static void
addr_keep_served(const struct addr *served)
{
	/* once per check while it lasts: at most one line a second */
	log_warn("%s: form.json or address.conf is being rewritten in place: "
	         "serving the previous version until it settles (replace "
	         "them by rename instead)",
	    served->dir);
}

/*
 * Load e's address again (its check found a change, a refusal or a racy
 * load), unless a file of the version served is being rewritten in
 * place: that version stays until the file settles.
 */
static void
addr_reload(struct addr_entry *e, const struct addr_ref *ref,
    addr_derive_fn derive, uint64_t now_ms)
{
	struct addr_stamp form, conf;
	struct addr *next;

	addr_stamps_now(ref->dir, &form, &conf);
	if (addr_unsettled(e->a, &form, &conf)) {
		/* hits on a form.json cut to half by `cat new >form.json` */
		addr_keep_served(e->a);
		return;
	}
	if ((next = addr_fill(ref, derive, now_ms)) == NULL) {
		snprintf(e->a->err, sizeof(e->a->err),
		    "out of memory for the address cache");
		addr_free(e->a);
		return;
	}
	/* The files may have moved while they were read: the load read them
	 * again, and a refusal from files still moving in place is not the
	 * new version either. */
	if (!next->ok && addr_unsettled(e->a, &next->form_st, &next->conf_st)) {
		addr_keep_served(e->a);
		addr_drop(next);
		return;
	}
	addr_drop(e->a);
	e->a = next;
	addr_account(e);
}

const struct addr *
addr_cache_lookup(
    const struct addr_ref *ref, addr_derive_fn derive, const char **why)
{
	uint64_t now;
	struct addr_entry *e;
	struct addr *a;
	uint64_t h = addr_hash(ref->dir);

	*why = NULL;
	/* the program's one clock (common.h), coarse: no system call */
	now = gpt_now_ms();
	if ((e = addr_find(ref->dir, h)) != NULL) {
		if (e != addr_newest) {
			addr_lru_unlink(e);
			addr_lru_push(e);
		}
		if (!addr_due(e->a->checked_ms, now))
			return e->a;
		e->a->checked_ms = now;
		if (addr_check(ref, why) == -1) {
			/* the directory went away, or now leaves its root */
			addr_evict(e);
			return NULL;
		}
		/* a refused address is retried at every check: its cause may
		 * have been passing (out of memory); a racy one is read again
		 * whatever its stamps say */
		if (e->a->ok && !e->a->racy && addr_stamps_hold(e->a))
			return e->a;
		addr_reload(e, ref, derive, now);
	} else {
		if (addr_check(ref, why) == -1)
			return NULL;
		if ((a = addr_fill(ref, derive, now)) == NULL ||
		    (e = addr_insert(h, a)) == NULL) {
			addr_drop(a);
			memset(&addr_nomem, 0, sizeof(addr_nomem));
			snprintf(addr_nomem.dir, sizeof(addr_nomem.dir), "%s",
			    ref->dir);
			snprintf(addr_nomem.err, sizeof(addr_nomem.err),
			    "out of memory for the address cache");
			return &addr_nomem;
		}
	}
	addr_trim(e);
	return e->a;
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
	addr_arrival_free();
}
