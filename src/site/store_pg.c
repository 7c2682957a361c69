/*
 * store_pg.c: the PostgreSQL store (store_pg.h): one connection per
 * process, one statement per call, every parameter bound (never spliced
 * into SQL).
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "base/log.h"
#include "base/sha256.h"
#include "site/store_pg.h"

#ifdef HAVE_LIBPQ

#include <dlfcn.h>
#include <libpq-fe.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/*
 * libpq is opened when an address first needs it (dlopen), not linked:
 * every CGI request starts the binary anew, and libpq's twenty libraries
 * would be loaded by every one of them, most of which never see a
 * database.  The calls below go through these pointers.
 */
#define STORE_PG_LIBPQ "libpq.so.5"
static PGconn *(*p_PQconnectdb)(const char *);
static ConnStatusType (*p_PQstatus)(const PGconn *);
static void (*p_PQreset)(PGconn *);
static void (*p_PQfinish)(PGconn *);
static char *(*p_PQerrorMessage)(const PGconn *);
static PQnoticeProcessor (*p_PQsetNoticeProcessor)(
    PGconn *, PQnoticeProcessor, void *);
static PGresult *(*p_PQexec)(PGconn *, const char *);
static PGresult *(*p_PQexecParams)(PGconn *, const char *, int, const Oid *,
    const char *const *, const int *, const int *, int);
static ExecStatusType (*p_PQresultStatus)(const PGresult *);
static int (*p_PQntuples)(const PGresult *);
static char *(*p_PQgetvalue)(const PGresult *, int, int);
static int (*p_PQgetlength)(const PGresult *, int, int);
static char *(*p_PQcmdTuples)(PGresult *);
static void (*p_PQclear)(PGresult *);
#define PQconnectdb p_PQconnectdb
#define PQstatus p_PQstatus
#define PQreset p_PQreset
#define PQfinish p_PQfinish
#define PQerrorMessage p_PQerrorMessage
#define PQsetNoticeProcessor p_PQsetNoticeProcessor
#define PQexec p_PQexec
#define PQexecParams p_PQexecParams
#define PQresultStatus p_PQresultStatus
#define PQntuples p_PQntuples
#define PQgetvalue p_PQgetvalue
#define PQgetlength p_PQgetlength
#define PQcmdTuples p_PQcmdTuples
#define PQclear p_PQclear

/* Open libpq and find its calls, once: 0, or -1 (logged once). */
static int
pg_load(void)
{
	static int state; /* 0 not tried, 1 loaded, -1 failed */
	static const struct {
		const char *name;
		void *to; /* the pointer to set */
	} calls[] = {
	    {"PQconnectdb", &p_PQconnectdb},
	    {"PQstatus", &p_PQstatus},
	    {"PQreset", &p_PQreset},
	    {"PQfinish", &p_PQfinish},
	    {"PQerrorMessage", &p_PQerrorMessage},
	    {"PQsetNoticeProcessor", &p_PQsetNoticeProcessor},
	    {"PQexec", &p_PQexec},
	    {"PQexecParams", &p_PQexecParams},
	    {"PQresultStatus", &p_PQresultStatus},
	    {"PQntuples", &p_PQntuples},
	    {"PQgetvalue", &p_PQgetvalue},
	    {"PQgetlength", &p_PQgetlength},
	    {"PQcmdTuples", &p_PQcmdTuples},
	    {"PQclear", &p_PQclear},
	};
	void *h;
	size_t i;

	if (state != 0)
		return state == 1 ? 0 : -1;
	state = -1;
	h = dlopen(STORE_PG_LIBPQ, RTLD_NOW | RTLD_LOCAL);
	if (h == NULL) {
		/* hits where libpq5 is not installed */
		log_error("PostgreSQL store: cannot open %s: %s",
		    STORE_PG_LIBPQ, dlerror());
		return -1;
	}
	for (i = 0; i < GPT_ARRAY_LEN(calls); i++) {
		void *f = dlsym(h, calls[i].name);

		if (f == NULL) {
			log_error("PostgreSQL store: %s has no %s",
			    STORE_PG_LIBPQ, calls[i].name);
			return -1;
		}
		/* a data pointer to a function pointer of the same size
		 * (POSIX requires it of dlsym) */
		memcpy(calls[i].to, &f, sizeof(f));
	}
	state = 1;
	return 0;
}

/* Advisory locks one process holds at once, at most (an act holds one). */
#define STORE_PG_LOCKS 16
/* Bytes of a conninfo kept to compare the next call's. */
#define STORE_PG_CONNINFO_MAX 1024

static PGconn *pg_conn;
static char pg_conninfo[STORE_PG_CONNINFO_MAX];
static int64_t pg_locks[STORE_PG_LOCKS];
static bool pg_lock_used[STORE_PG_LOCKS];
static pthread_mutex_t pg_mutex = PTHREAD_MUTEX_INITIALIZER;

/* The database's clock in milliseconds, as SQL. */
#define PG_NOW_MS "(extract(epoch from clock_timestamp()) * 1000)::bigint"

static const char pg_ddl[] = "SELECT pg_advisory_xact_lock(716400022);"
                             "CREATE TABLE IF NOT EXISTS gpt_store ("
                             " scope text NOT NULL,"
                             " name text NOT NULL,"
                             " body bytea NOT NULL,"
                             " expires bigint NOT NULL,"
                             " final boolean NOT NULL DEFAULT false,"
                             " lease bigint NOT NULL DEFAULT 0,"
                             " cancel boolean NOT NULL DEFAULT false,"
                             " PRIMARY KEY (scope, name))";

bool
store_pg_available(void)
{
	return pg_load() == 0;
}

/* Log the server's words for a failed call. */
static void
pg_log(const char *what)
{
	const char *m = pg_conn != NULL ? PQerrorMessage(pg_conn) : "";
	size_t n = strlen(m);

	while (n > 0 && (m[n - 1] == '\n' || m[n - 1] == ' '))
		n--;
	log_error("PostgreSQL store: %s: %.*s", what, (int)n, m);
}

/* The process that made pg_conn: a child that inherited it never ends
 * the parent's session (it leaves by _exit, but an exit must not
 * either). */
static pid_t pg_owner;

/* At exit (a CGI request's end, a FastCGI process stopped): say goodbye
 * to the server, which otherwise logs a connection lost. */
static void
pg_at_exit(void)
{
	if (pg_conn != NULL && pg_owner == getpid())
		PQfinish(pg_conn);
	pg_conn = NULL;
}

static void
pg_quiet(void *arg, const char *message)
{
	(void)arg, (void)message;
}

int
store_pg_connect(const char *conninfo)
{
	PGresult *r;

	if (pg_load() == -1) {
		errno = ENOSYS;
		return -1;
	}
	if (pg_conn != NULL && strcmp(pg_conninfo, conninfo) == 0) {
		if (PQstatus(pg_conn) == CONNECTION_OK)
			return 0;
		/* the server restarted or the connection broke: once
		 * more, afresh (its advisory locks are gone with it) */
		PQreset(pg_conn);
		if (PQstatus(pg_conn) == CONNECTION_OK) {
			memset(pg_lock_used, 0, sizeof(pg_lock_used));
			return 0;
		}
	}
	if (strlen(conninfo) >= sizeof(pg_conninfo)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	if (pg_conn != NULL)
		PQfinish(pg_conn);
	memset(pg_lock_used, 0, sizeof(pg_lock_used));
	pg_conn = PQconnectdb(conninfo);
	pg_owner = getpid();
	{
		static bool registered;

		if (!registered && atexit(pg_at_exit) == 0)
			registered = true;
	}
	if (pg_conn == NULL || PQstatus(pg_conn) != CONNECTION_OK) {
		/* hits on a database that is down */
		pg_log("cannot connect");
		if (pg_conn != NULL)
			PQfinish(pg_conn);
		pg_conn = NULL;
		errno = ECONNREFUSED;
		return -1;
	}
	/* the server's notices (of a table that exists) are no news */
	(void)PQsetNoticeProcessor(pg_conn, pg_quiet, NULL);
	/* the table, once per connection when it is missing: a transaction
	 * of two statements (the advisory lock serializes concurrent first
	 * uses) */
	r = PQexec(pg_conn, "SELECT to_regclass('gpt_store') IS NOT NULL");
	if (PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 1 &&
	    PQgetvalue(r, 0, 0)[0] == 't') {
		PQclear(r);
		memcpy(pg_conninfo, conninfo, strlen(conninfo) + 1);
		return 0;
	}
	PQclear(r);
	r = PQexec(pg_conn, pg_ddl);
	if (PQresultStatus(r) != PGRES_COMMAND_OK &&
	    PQresultStatus(r) != PGRES_TUPLES_OK) {
		pg_log("cannot create the table gpt_store");
		PQclear(r);
		PQfinish(pg_conn);
		pg_conn = NULL;
		errno = EIO;
		return -1;
	}
	PQclear(r);
	memcpy(pg_conninfo, conninfo, strlen(conninfo) + 1);
	return 0;
}

void
store_pg_forget(void)
{
	/* leaked on purpose: PQfinish would end the parent's session */
	pg_conn = NULL;
	pg_conninfo[0] = '\0';
	memset(pg_lock_used, 0, sizeof(pg_lock_used));
}

/* Run one statement with n text parameters (body, when not NULL, is the
 * binary parameter body_at).  The result, or NULL logged (errno EIO). */
static PGresult *
pg_run(const char *what, const char *sql, int n, const char *const *v,
    int body_at, const void *body, size_t body_len, bool binary_out)
{
	int lens[8] = {0}, fmts[8] = {0};
	const char *vals[8];
	PGresult *r;
	int i;

	if (pg_conn == NULL || n > 8) {
		errno = ENOTCONN;
		return NULL;
	}
	for (i = 0; i < n; i++)
		vals[i] = v[i];
	if (body != NULL) {
		if (body_len > (size_t)0x7fffffff) {
			errno = EMSGSIZE;
			return NULL;
		}
		vals[body_at] = body;
		lens[body_at] = (int)body_len;
		fmts[body_at] = 1;
	}
	/* the runner's lease thread shares the connection, which is one
	 * conversation at a time */
	(void)pthread_mutex_lock(&pg_mutex);
	r = PQexecParams(
	    pg_conn, sql, n, NULL, vals, lens, fmts, binary_out ? 1 : 0);
	if (PQresultStatus(r) != PGRES_COMMAND_OK &&
	    PQresultStatus(r) != PGRES_TUPLES_OK) {
		pg_log(what);
		(void)pthread_mutex_unlock(&pg_mutex);
		PQclear(r);
		errno = EIO;
		return NULL;
	}
	(void)pthread_mutex_unlock(&pg_mutex);
	return r;
}

/* The number of rows a command touched. */
static long
pg_touched(PGresult *r)
{
	const char *t = PQcmdTuples(r);

	return t != NULL && t[0] != '\0' ? strtol(t, NULL, 10) : 0;
}

int
store_pg_put(const char *scope, const char *name, const void *p, size_t n,
    int64_t expires, bool working, bool final, unsigned lease_ms)
{
	char exp[24], lease[24];
	const char *v[6] = {scope, name, NULL, exp, final ? "t" : "f", lease};
	PGresult *r;

	snprintf(exp, sizeof(exp), "%lld", (long long)expires);
	snprintf(lease, sizeof(lease), "%u", working ? lease_ms : 0);
	/* a final record is never replaced: a runner that wakes after its
	 * task was taken for lost cannot bring it back */
	r = pg_run("cannot write a record",
	    "INSERT INTO gpt_store (scope, name, body, expires, final, lease)"
	    " VALUES ($1, $2, $3, $4, $5, CASE WHEN $6::bigint = 0 THEN 0"
	    " ELSE " PG_NOW_MS " + $6::bigint END)"
	    " ON CONFLICT (scope, name) DO UPDATE SET body = excluded.body,"
	    " expires = excluded.expires, final = excluded.final,"
	    " lease = excluded.lease WHERE NOT gpt_store.final",
	    6, v, 2, p, n, false);
	if (r == NULL)
		return -1;
	PQclear(r);
	return 0;
}

int
store_pg_create(const char *scope, const char *name, const void *p, size_t n,
    int64_t expires)
{
	char exp[24];
	const char *v[4] = {scope, name, NULL, exp};
	PGresult *r;
	long t;

	snprintf(exp, sizeof(exp), "%lld", (long long)expires);
	r = pg_run("cannot create a record",
	    "INSERT INTO gpt_store (scope, name, body, expires)"
	    " VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING",
	    4, v, 2, p, n, false);
	if (r == NULL)
		return -1;
	t = pg_touched(r);
	PQclear(r);
	if (t == 0) {
		errno = EEXIST;
		return -1;
	}
	return 0;
}

int
store_pg_get(const char *scope, const char *name, struct buf *out, size_t max)
{
	const char *v[2] = {scope, name};
	PGresult *r;
	size_t n;
	int rc = 0;

	buf_reset_max(out, max);
	r = pg_run("cannot read a record",
	    "SELECT body FROM gpt_store WHERE scope = $1 AND name = $2", 2, v,
	    0, NULL, 0, true);
	if (r == NULL)
		return -1;
	if (PQntuples(r) != 1) {
		PQclear(r);
		errno = ENOENT;
		return -1;
	}
	n = (size_t)PQgetlength(r, 0, 0);
	if (n > max) {
		errno = EMSGSIZE;
		rc = -1;
	} else if (buf_append(out, PQgetvalue(r, 0, 0), n) == -1)
		rc = -1;
	PQclear(r);
	return rc;
}

int
store_pg_remove(const char *scope, const char *name)
{
	const char *v[2] = {scope, name};
	PGresult *r = pg_run("cannot remove a record",
	    "DELETE FROM gpt_store WHERE scope = $1 AND name = $2", 2, v, 0,
	    NULL, 0, false);

	if (r == NULL)
		return -1;
	PQclear(r);
	return 0;
}

/* The advisory lock's key: 64 bits of SHA-256 of "scope/name". */
static int64_t
pg_lock_key(const char *scope, const char *name)
{
	unsigned char h[SHA256_LEN];
	struct buf b;
	uint64_t k = 0;
	int i;

	buf_init(&b, 4096);
	if (buf_printf(&b, "%s/%s", scope, name) == -1)
		buf_reset(&b);
	sha256(buf_ptr(&b), buf_len(&b), h);
	buf_free(&b);
	for (i = 0; i < 8; i++)
		k = k << 8 | h[i];
	return (int64_t)k;
}

int
store_pg_lock(const char *scope, const char *name)
{
	char key[24];
	const char *v[1] = {key};
	int64_t k = pg_lock_key(scope, name);
	PGresult *r;
	bool got;
	int i;

	for (i = 0; i < STORE_PG_LOCKS && pg_lock_used[i]; i++)
		;
	if (i == STORE_PG_LOCKS) {
		errno = ENOLCK;
		return -1;
	}
	snprintf(key, sizeof(key), "%lld", (long long)k);
	r = pg_run("cannot take a lock", "SELECT pg_try_advisory_lock($1)", 1,
	    v, 0, NULL, 0, false);
	if (r == NULL)
		return -1;
	got = PQntuples(r) == 1 && PQgetvalue(r, 0, 0)[0] == 't';
	PQclear(r);
	if (!got) {
		/* hits on a retry while the first act runs on any host */
		errno = EWOULDBLOCK;
		return -1;
	}
	pg_locks[i] = k;
	pg_lock_used[i] = true;
	return STORE_PG_HANDLE_BASE + i;
}

void
store_pg_unlock(int handle)
{
	int i = handle - STORE_PG_HANDLE_BASE;
	char key[24];
	const char *v[1] = {key};
	PGresult *r;

	if (i < 0 || i >= STORE_PG_LOCKS || !pg_lock_used[i])
		return;
	pg_lock_used[i] = false;
	snprintf(key, sizeof(key), "%lld", (long long)pg_locks[i]);
	r = pg_run("cannot release a lock", "SELECT pg_advisory_unlock($1)", 1,
	    v, 0, NULL, 0, false);
	if (r != NULL)
		PQclear(r);
}

bool
store_pg_lease_alive(const char *scope, const char *name)
{
	const char *v[2] = {scope, name};
	PGresult *r = pg_run("cannot read a lease",
	    "SELECT final OR lease = 0 OR lease > " PG_NOW_MS
	    " FROM gpt_store WHERE scope = $1 AND name = $2",
	    2, v, 0, NULL, 0, false);
	bool alive;

	if (r == NULL)
		/* a database that fails says nothing of the runner */
		return true;
	alive = PQntuples(r) != 1 || PQgetvalue(r, 0, 0)[0] == 't';
	PQclear(r);
	return alive;
}

int
store_pg_reap(const char *scope, const char *name, const void *p, size_t n)
{
	const char *v[3] = {scope, name, NULL};
	PGresult *r;
	long t;

	/* one statement: of two hosts that see the lease run out, one
	 * writes the record, the other touches nothing */
	r = pg_run("cannot mark a lost task",
	    "UPDATE gpt_store SET body = $3, final = true, lease = 0"
	    " WHERE scope = $1 AND name = $2 AND NOT final AND lease <> 0"
	    " AND lease <= " PG_NOW_MS,
	    3, v, 2, p, n, false);
	if (r == NULL)
		return -1;
	t = pg_touched(r);
	PQclear(r);
	return t > 0 ? 1 : 0;
}

int
store_pg_renew(
    const char *scope, const char *name, unsigned lease_ms, bool *cancel)
{
	char lease[24];
	const char *v[3] = {scope, name, lease};
	PGresult *r;

	snprintf(lease, sizeof(lease), "%u", lease_ms);
	r = pg_run("cannot renew a lease",
	    "UPDATE gpt_store SET lease = " PG_NOW_MS " + $3::bigint"
	    " WHERE scope = $1 AND name = $2 AND NOT final RETURNING cancel",
	    3, v, 0, NULL, 0, false);
	if (r == NULL)
		return -1;
	*cancel = PQntuples(r) == 1 && PQgetvalue(r, 0, 0)[0] == 't';
	PQclear(r);
	return 0;
}

int
store_pg_cancel(const char *scope, const char *name)
{
	const char *v[2] = {scope, name};
	PGresult *r = pg_run("cannot ask for a cancel",
	    "UPDATE gpt_store SET cancel = true"
	    " WHERE scope = $1 AND name = $2 AND NOT final",
	    2, v, 0, NULL, 0, false);

	if (r == NULL)
		return -1;
	PQclear(r);
	return 0;
}

unsigned
store_pg_sweep(const char *scope, int64_t now)
{
	char t[24];
	const char *v[2] = {scope, t};
	PGresult *r;
	long n;

	snprintf(t, sizeof(t), "%lld", (long long)now);
	r = pg_run("cannot sweep",
	    "DELETE FROM gpt_store WHERE scope = $1 AND expires <= $2::bigint"
	    " AND (final OR lease = 0 OR lease <= " PG_NOW_MS ")",
	    2, v, 0, NULL, 0, false);
	if (r == NULL)
		return 0;
	n = pg_touched(r);
	PQclear(r);
	return n > 0 ? (unsigned)n : 0;
}

#else /* !HAVE_LIBPQ */

bool
store_pg_available(void)
{
	return false;
}

static void
pg_quiet(void *arg, const char *message)
{
	(void)arg, (void)message;
}

int
store_pg_connect(const char *conninfo)
{
	(void)conninfo;
	log_error("PostgreSQL store: this gpt.fcgi is built without libpq");
	errno = ENOSYS;
	return -1;
}

void
store_pg_forget(void)
{
}

int
store_pg_put(const char *scope, const char *name, const void *p, size_t n,
    int64_t expires, bool working, bool final, unsigned lease_ms)
{
	(void)scope, (void)name, (void)p, (void)n, (void)expires;
	(void)working, (void) final, (void)lease_ms;
	errno = ENOSYS;
	return -1;
}

int
store_pg_create(const char *scope, const char *name, const void *p, size_t n,
    int64_t expires)
{
	(void)scope, (void)name, (void)p, (void)n, (void)expires;
	errno = ENOSYS;
	return -1;
}

int
store_pg_get(const char *scope, const char *name, struct buf *out, size_t max)
{
	(void)scope, (void)name, (void)out, (void)max;
	errno = ENOSYS;
	return -1;
}

int
store_pg_remove(const char *scope, const char *name)
{
	(void)scope, (void)name;
	errno = ENOSYS;
	return -1;
}

int
store_pg_lock(const char *scope, const char *name)
{
	(void)scope, (void)name;
	errno = ENOSYS;
	return -1;
}

void
store_pg_unlock(int handle)
{
	(void)handle;
}

bool
store_pg_lease_alive(const char *scope, const char *name)
{
	(void)scope, (void)name;
	return true;
}

int
store_pg_reap(const char *scope, const char *name, const void *p, size_t n)
{
	(void)scope, (void)name, (void)p, (void)n;
	errno = ENOSYS;
	return -1;
}

int
store_pg_renew(
    const char *scope, const char *name, unsigned lease_ms, bool *cancel)
{
	(void)scope, (void)name, (void)lease_ms;
	*cancel = false;
	errno = ENOSYS;
	return -1;
}

int
store_pg_cancel(const char *scope, const char *name)
{
	(void)scope, (void)name;
	errno = ENOSYS;
	return -1;
}

unsigned
store_pg_sweep(const char *scope, int64_t now)
{
	(void)scope, (void)now;
	return 0;
}

#endif /* HAVE_LIBPQ */
