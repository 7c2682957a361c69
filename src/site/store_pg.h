/*
 * store_pg.h: the PostgreSQL side of store.h (address.conf `store_pg`):
 * the same records in one table that every host behind a balancer
 * shares, so that any host answers for any task and key.
 *
 * The table (created on first use, under an advisory lock):
 *
 *   gpt_store(scope, name, body, expires, final, lease, cancel)
 *
 * scope is the address's store_scope (the same on every host), name the
 * record's name (store.h), body its bytes.  expires is the record's
 * expiry (seconds); final is true for a task in a final status, whose
 * record is never written again; lease is when a working task's runner
 * is taken for lost (milliseconds, the database's clock, so the hosts'
 * clocks need not agree); cancel asks the runner, wherever it runs, to
 * end its hook (DELETE through any host).
 *
 * Durable: every write is one statement in its own transaction, committed
 * (synchronous_commit as the server has it) before the call returns.
 *
 * Locks (an Idempotency-Key's claim) are session advisory locks of the
 * process's connection: the server drops them when the connection ends,
 * so a process or host that dies frees its claims.
 *
 * Owns: one connection per process (its calls serialized by a mutex:
 * the runner's lease thread shares it) (kept for the next call with the same
 * conninfo), and the advisory locks it holds.  Built only with libpq
 * (HAVE_LIBPQ), which is opened at run time; without it (or without
 * libpq.so.5 installed), store_pg_available() is false and the rest
 * fails with ENOSYS.
 */
#ifndef GPT_STORE_PG_H
#define GPT_STORE_PG_H

#include "base/buf.h"
#include "base/common.h"

/* Is this gpt.fcgi built with the PostgreSQL store? */
bool store_pg_available(void);

/* The process's connection to conninfo, made (and the table created) when
 * there is none: 0, or -1 with errno (logged with the server's words). */
int store_pg_connect(const char *conninfo) GPT_MUSTCHECK;

/* In a child after fork: forget the parent's connection without a word
 * to the server (the socket is the parent's), and its locks.  The next
 * store_pg_connect makes the child's own. */
void store_pg_forget(void);

/*
 * Write the record: insert it, or replace it unless the stored one is
 * final.  working: a task still working, whose lease starts (or is
 * renewed) for lease_ms; final: a task's final record.
 */
int store_pg_put(const char *scope, const char *name, const void *p, size_t n,
    int64_t expires, bool working, bool final, unsigned lease_ms) GPT_MUSTCHECK;

/* Insert the record only when none exists: -1 with EEXIST then. */
int store_pg_create(const char *scope, const char *name, const void *p,
    size_t n, int64_t expires) GPT_MUSTCHECK;

/* Read the record into out (at most max bytes): -1 with ENOENT when
 * none, EMSGSIZE when larger. */
int store_pg_get(const char *scope, const char *name, struct buf *out,
    size_t max) GPT_MUSTCHECK;

int store_pg_remove(const char *scope, const char *name);

/* Take the advisory lock of (scope, name), without waiting: a handle
 * (at least STORE_PG_HANDLE_BASE), or -1 with EWOULDBLOCK when another
 * session holds it. */
#define STORE_PG_HANDLE_BASE (1 << 24)
int store_pg_lock(const char *scope, const char *name);
void store_pg_unlock(int handle);

/* Is the task's lease still running (a working task whose runner renewed
 * it in time)?  A record that is not working counts as alive: nothing
 * to reap. */
bool store_pg_lease_alive(const char *scope, const char *name);

/* Replace a working task's record whose lease ran out with the n bytes
 * at p (a final record).  1 replaced, 0 not (alive, or no longer
 * working), -1 on failure. */
int store_pg_reap(
    const char *scope, const char *name, const void *p, size_t n) GPT_MUSTCHECK;

/* Renew a working task's lease for lease_ms; *cancel set when a DELETE
 * asked for it.  0, or -1. */
int store_pg_renew(const char *scope, const char *name, unsigned lease_ms,
    bool *cancel) GPT_MUSTCHECK;

/* Ask a working task's runner to cancel.  0, or -1. */
int store_pg_cancel(const char *scope, const char *name) GPT_MUSTCHECK;

/* Remove the scope's records expired at now (seconds), except working
 * tasks whose lease runs.  The number removed. */
unsigned store_pg_sweep(const char *scope, int64_t now);

#endif /* GPT_STORE_PG_H */
