/*
 * store.h: the durable state of an address's long-running acts and
 * idempotency keys: one directory (address.conf `store`, by default
 * `.store` inside the address), one small file per record.
 *
 * Owns: the directory fd of a struct store (store_open .. store_close),
 * and the fds store_lock returns (the caller closes them).  Nothing else
 * lives past a call.
 *
 * Names.  A record is found by a file name derived from its secret (a task
 * id, an Idempotency-Key): a kind letter, '-', and the first 32 hex digits
 * of SHA-256 of the secret.  The secret itself is never a file name, so a
 * directory listing or a lookup's timing tells nothing of it; the record
 * repeats the id, and readers compare it in constant time
 * (store_same_id).
 *
 * Writes are atomic and, when asked, durable: the bytes go to a temporary
 * file in the same directory, which is fsynced, renamed over the record,
 * and the directory fsynced (store_put).  A reader sees the old record or
 * the new one, never a part.  A full or unwritable store fails the write
 * with errno set (ENOSPC, EDQUOT, EACCES, EROFS): the caller answers 503
 * before anything runs.
 *
 * Locks are flock(2) locks on a per-record lock file: the kernel drops
 * them when the process holding them dies (kill -9, a crash), which is
 * how a task's runner proves it is alive (runner.h).
 *
 * PostgreSQL (address.conf `store_pg`, store_open_pg): the same records,
 * by the same names, in a table every host shares (store_pg.h), under
 * the address's store_scope.  Locks are then the server's advisory
 * locks, dropped when the holder's connection ends; a task's runner
 * proves it is alive by a lease it renews (store_renew), which a reader
 * on any host judges (store_lease_held) and ends (store_reap).
 */
#ifndef GPT_STORE_H
#define GPT_STORE_H

#include "base/buf.h"
#include "base/common.h"

/* A task id: 128 bits from getrandom(2), written as 32 lowercase hex. */
#define STORE_ID_BYTES 16
#define STORE_ID_HEX (2 * STORE_ID_BYTES)
/* A record's file name: kind, '-', 32 hex digits, NUL. */
#define STORE_NAME_MAX 40
/* The largest record read back (a task's result is at most
 * hook_max_output bytes; the rest is small). */
#define STORE_RECORD_MAX ((size_t)1 << 31)
/* Entries looked at by one sweep of expired records, at most. */
#define STORE_SWEEP_MAX 4096
/* Default directory, relative to the address (address.conf `store`). */
#define STORE_DIR_DEFAULT ".store"

enum store_kind {
	STORE_TASK = 't', /* a task record (taskrec.h) */
	STORE_LOCK = 'l', /* a task runner's lock */
	STORE_KEY = 'k',  /* an Idempotency-Key's record (idem.h) */
};

/* A store_scope, at most (bytes). */
#define STORE_SCOPE_MAX 128

struct store {
	int dfd;         /* owned unless cached: the directory, or -1 */
	bool cached;     /* dfd is the process's kept one (see store_open) */
	char path[4096]; /* for log lines */
	/* PostgreSQL: the records are in the process's connection
	 * (store_pg.h) under scope; dfd is -1 */
	bool pg;
	char scope[STORE_SCOPE_MAX + 1];
	unsigned lease_ms; /* a runner's lease (task_lease) */
};

/*
 * Open (creating it, mode 0700, when missing) the store directory dir;
 * a relative dir is taken inside base (the address directory).  0, or
 * -1 with errno set and s->dfd -1.  The process keeps the last store
 * open for the next call with the same path (checked with one fstat):
 * store_close leaves that one open.
 */
int store_open(
    struct store *s, const char *base, const char *dir) GPT_MUSTCHECK;
void store_close(struct store *s);

/* Could store_open open dir (as it takes it) now: a directory that this
 * process may write, or a missing one in a directory it may write (store_open
 * would make it).  Asked at load, so that the page sends Idempotency-Key
 * only where keys can be kept; it changes nothing. */
bool store_usable(const char *base, const char *dir);

/*
 * Open the PostgreSQL store of conninfo under scope, a runner's lease
 * lease_s seconds: 0, or -1 with errno (the server's words logged).
 */
int store_open_pg(struct store *s, const char *conninfo, const char *scope,
    unsigned lease_s) GPT_MUSTCHECK;

/* In a runner after fork: a connection of its own (PostgreSQL); nothing
 * for a directory.  0 or -1. */
int store_child(struct store *s, const char *conninfo) GPT_MUSTCHECK;

/* Release a lock store_lock returned (close its fd, or its advisory
 * lock).  -1 is no lock. */
void store_unlock(const struct store *s, int lock);

/*
 * Is the runner of the working task whose record is name alive?  The
 * directory: its lock file's flock is held.  PostgreSQL: its lease has
 * not run out.
 */
bool store_lease_held(const struct store *s, const char *name);

/*
 * PostgreSQL: replace the working task name, whose lease ran out, with
 * the final record of n bytes at p, in one statement.  1 replaced, 0 not
 * (renewed meanwhile, or ended), -1 on failure.
 */
int store_reap(const struct store *s, const char *name, const void *p,
    size_t n) GPT_MUSTCHECK;

/* PostgreSQL: renew the lease of the working task name; *cancel set when a
 * DELETE on any host asked to cancel it.  0 or -1. */
int store_renew(
    const struct store *s, const char *name, bool *cancel) GPT_MUSTCHECK;

/* PostgreSQL: ask the runner of the task name, on whatever host, to
 * cancel it.  0 or -1. */
int store_cancel(const struct store *s, const char *name) GPT_MUSTCHECK;

/* 16 random bytes from getrandom(2).  0, or -1 with errno. */
int store_new_id(unsigned char id[STORE_ID_BYTES]) GPT_MUSTCHECK;

/* Write id as 32 lowercase hex digits and a NUL. */
void store_id_hex(
    const unsigned char id[STORE_ID_BYTES], char hex[STORE_ID_HEX + 1]);

/*
 * Read a task id: exactly 32 hex digits (either case) in the len bytes at
 * s.  0, or -1 (hits on "", 31 digits, "zz..."): id then all zero.  The
 * time taken depends on len only.
 */
int store_id_parse(const char *s, size_t len, unsigned char id[STORE_ID_BYTES]);

/* Are a and b the same n bytes?  Constant time in n. */
bool store_same_id(const void *a, const void *b, size_t n);

/* The file name of the record of kind for the secret's n bytes. */
void store_name(enum store_kind kind, const void *secret, size_t n,
    char name[STORE_NAME_MAX]);

/*
 * Replace (or create) the record name with the n bytes at p, atomically;
 * with durable, fsynced with its directory before returning.  0, or -1
 * with errno set and the old record (if any) in place.
 */
int store_put(const struct store *s, const char *name, const void *p, size_t n,
    bool durable) GPT_MUSTCHECK;

/*
 * store_put, durable, for a record name that does not exist yet (a new
 * task's, under a fresh random id): the same two syncs, ordered so that
 * one journal commit can carry them.  The bytes go to a temporary file,
 * which is renamed into place before the file and then the directory
 * are fsynced; on a journaling filesystem (ext4, XFS) the file's sync
 * commits the rename too, and the directory's finds it committed.  Both
 * syncs are still made, so the record is durable on return on any
 * filesystem.  Readers still see the whole record or none; a crash
 * before the return may leave the name with an empty record (a task no
 * one was told of), which the sweep removes.  0, or -1 with errno set
 * and no record.
 */
int store_put_new(const struct store *s, const char *name, const void *p,
    size_t n) GPT_MUSTCHECK;

/*
 * Create the record name with the n bytes at p only when it does not
 * exist (O_EXCL, then durable as store_put).  0; -1 with errno EEXIST
 * when it exists, another errno when the store fails.
 */
int store_create(const struct store *s, const char *name, const void *p,
    size_t n) GPT_MUSTCHECK;

/*
 * Read the record name into out (emptied first, at most max bytes).  0;
 * -1 with errno ENOENT when there is none, EMSGSIZE when larger, another
 * errno when reading fails.
 */
int store_get(const struct store *s, const char *name, struct buf *out,
    size_t max) GPT_MUSTCHECK;

/* Remove the record name; a missing one is not an error.  0 or -1. */
int store_remove(const struct store *s, const char *name);

/*
 * Take the flock of the lock file name (created when missing), waiting
 * for it when wait, else failing with EWOULDBLOCK when another process
 * holds it.  The fd (CLOEXEC; closing it releases the lock), or -1.
 */
int store_lock(const struct store *s, const char *name, bool wait);

/*
 * Is the lock name held by a live process?  True when its flock cannot
 * be taken now; false when it is free (it is then released at once) or
 * the file is missing.
 */
bool store_lock_held(const struct store *s, const char *name);

/*
 * Every record starts "gpt-KIND 1 EXPIRES_S " (KIND task or key; EXPIRES_S
 * seconds since the epoch).  The expiry of a record's first n bytes, or
 * -1 when they do not start so (a damaged or foreign file: left alone).
 */
int64_t store_expiry(const char *p, size_t n);

/*
 * Remove every record of the store whose expiry is at or before now
 * (seconds since the epoch), with its lock file, unless the lock is held,
 * and the leftovers of writes a crash cut (a temporary file, or an empty
 * task record, a minute old).
 * At most STORE_SWEEP_MAX entries are looked at.  Returns the number
 * removed.
 */
unsigned store_sweep(const struct store *s, int64_t now);

/* Between two sweeps of a store, at least (seconds). */
#define STORE_SWEEP_EVERY 60

/*
 * store_sweep, when the last one (by any process: the mtime of the
 * store's ".swept" file) is STORE_SWEEP_EVERY seconds old or more.  The
 * cost otherwise: one fstatat.
 */
void store_sweep_maybe(const struct store *s);

#endif /* GPT_STORE_H */
