/*
 * metrics.c: the per-address counts of one process, their Prometheus
 * text, and the file they go to (see metrics.h).
 *
 * Owns: the table of addresses (each entry from malloc, kept for the
 * process: an address seen once is shown until the process ends), the
 * directory setting, and the file's state (when last written, whether
 * the last write failed).
 *
 * Each series of the text is a row of metrics_series: its metric name
 * and the labels after process and address.  The same rows render the
 * file and read it back (CGI), so the two cannot disagree.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/file.h"
#include "base/log.h"
#include "responder/metrics.h"

/* The stored values of an address: the counters, then the histogram's
 * buckets (cumulative, as written: each hook adds to every bucket at or
 * above its duration, and +Inf), then its sum in milliseconds. */
enum {
	SERIES_BUCKET = METRICS_COUNT_N,
	SERIES_INF = SERIES_BUCKET + METRICS_BUCKET_N,
	SERIES_SUM,
	SERIES_COUNT, /* rendered from SERIES_INF, never stored */
	SERIES_N,
	SERIES_STORED = SERIES_COUNT
};

struct metrics_series {
	const char *name;   /* the metric name of the sample */
	const char *labels; /* after address: "" or ,key="value" */
	const char *help;   /* the family's # HELP, on its first row only */
	const char *type;   /* ... and its # TYPE */
};

#define GETS "gpt_fcgi_gets_total"
#define ACCEPTED "gpt_fcgi_acts_accepted_total"
#define REJECTED "gpt_fcgi_acts_rejected_total"
#define HOOKS "gpt_fcgi_hook_outcomes_total"
#define DURATION "gpt_fcgi_hook_duration_seconds"

static const struct metrics_series metrics_series[SERIES_N] = {
    [METRICS_GET_JSON] = {GETS, ",representation=\"json\"",
        "GET and HEAD answers by representation.", "counter"},
    [METRICS_GET_HTML] = {GETS, ",representation=\"html\"", NULL, NULL},
    [METRICS_GET_304] = {GETS, ",representation=\"304\"", NULL, NULL},
    [METRICS_ACT_ACCEPTED] = {ACCEPTED, "",
        "Acts that passed the form (the hook then runs).", "counter"},
    [METRICS_REJECT_SIZE] = {REJECTED, ",class=\"size\"",
        "Acts rejected, by class.", "counter"},
    [METRICS_REJECT_CONTENT_TYPE] = {REJECTED, ",class=\"content_type\"", NULL,
        NULL},
    [METRICS_REJECT_IF_MATCH] = {REJECTED, ",class=\"if_match\"", NULL, NULL},
    [METRICS_REJECT_PARSE] = {REJECTED, ",class=\"parse\"", NULL, NULL},
    [METRICS_REJECT_DUPLICATE] = {REJECTED, ",class=\"duplicate_name\"", NULL,
        NULL},
    [METRICS_REJECT_FORM] = {REJECTED, ",class=\"form\"", NULL, NULL},
    [METRICS_HOOK_OK] = {HOOKS, ",outcome=\"ok\"", "Hook runs, by outcome.",
        "counter"},
    [METRICS_HOOK_NONZERO] = {HOOKS, ",outcome=\"nonzero\"", NULL, NULL},
    [METRICS_HOOK_TIMEOUT] = {HOOKS, ",outcome=\"timeout\"", NULL, NULL},
    [METRICS_HOOK_BAD_ANSWER] = {HOOKS, ",outcome=\"bad_answer\"", NULL, NULL},
    [METRICS_HOOK_FAILED] = {HOOKS, ",outcome=\"failed\"", NULL, NULL},
    [SERIES_BUCKET + 0] = {DURATION "_bucket", ",le=\"0.005\"",
        "How long hooks ran, from start to exit.", "histogram"},
    [SERIES_BUCKET + 1] = {DURATION "_bucket", ",le=\"0.01\"", NULL, NULL},
    [SERIES_BUCKET + 2] = {DURATION "_bucket", ",le=\"0.025\"", NULL, NULL},
    [SERIES_BUCKET + 3] = {DURATION "_bucket", ",le=\"0.05\"", NULL, NULL},
    [SERIES_BUCKET + 4] = {DURATION "_bucket", ",le=\"0.1\"", NULL, NULL},
    [SERIES_BUCKET + 5] = {DURATION "_bucket", ",le=\"0.25\"", NULL, NULL},
    [SERIES_BUCKET + 6] = {DURATION "_bucket", ",le=\"0.5\"", NULL, NULL},
    [SERIES_BUCKET + 7] = {DURATION "_bucket", ",le=\"1\"", NULL, NULL},
    [SERIES_BUCKET + 8] = {DURATION "_bucket", ",le=\"2.5\"", NULL, NULL},
    [SERIES_BUCKET + 9] = {DURATION "_bucket", ",le=\"5\"", NULL, NULL},
    [SERIES_BUCKET + 10] = {DURATION "_bucket", ",le=\"10\"", NULL, NULL},
    [SERIES_BUCKET + 11] = {DURATION "_bucket", ",le=\"30\"", NULL, NULL},
    [SERIES_INF] = {DURATION "_bucket", ",le=\"+Inf\"", NULL, NULL},
    [SERIES_SUM] = {DURATION "_sum", "", NULL, NULL},
    [SERIES_COUNT] = {DURATION "_count", "", NULL, NULL},
};

static const unsigned metrics_bucket_ms[METRICS_BUCKET_N] = METRICS_BUCKETS_MS;

/* The series' labels name the outcomes: a new METRICS_HOOK_* without a
 * row would render as a NULL name. */
_Static_assert(METRICS_HOOK_END == METRICS_HOOK_FAILED + 1,
    "a new hook outcome needs its row in metrics_series");

struct metrics_addr {
	char *name; /* owned: the address, masked for a label (see below) */
	uint64_t v[SERIES_STORED];
};

/* Open addressing over the name's hash; twice METRICS_ADDR_MAX slots, so
 * a probe ends at an empty slot. */
#define METRICS_SLOTS (2 * METRICS_ADDR_MAX)
static struct metrics_addr *metrics_table[METRICS_SLOTS];
static unsigned metrics_used;
static struct metrics_addr metrics_other = {.name = (char *)""};
static bool metrics_other_used; /* rendered only once it counted */
static struct metrics_addr *metrics_cur;

static bool metrics_on, metrics_cgi, metrics_dirty, metrics_failing;
static uint64_t metrics_written_ms;
static char metrics_path[3200], metrics_tmp[3200], metrics_lock[3200];
static char metrics_process[32];

/* Longest label value kept; a longer address is cut (and still one). */
#define METRICS_NAME_MAX 1024

int
metrics_configure(const char *dir, bool cgi)
{
	size_t i, n;

	metrics_on = false;
	metrics_cgi = cgi;
	if (dir == NULL || *dir == '\0')
		return 0;
	n = strlen(dir);
	for (i = 0; i < n; i++)
		if (gpt_is_control((unsigned char)dir[i]))
			break;
	if (dir[0] != '/' || n > 3000 || i < n) {
		/* hits on GPT_METRICS_DIR=metrics, on a newline in it */
		log_error("GPT_METRICS_DIR=\"%.60s\": not an absolute path "
		          "of at most 3000 bytes; not starting",
		    dir);
		return -1;
	}
	if (cgi) {
		(void)snprintf(metrics_process, sizeof(metrics_process), "cgi");
		(void)snprintf(metrics_path, sizeof(metrics_path),
		    "%s/gpt-fcgi-cgi.prom", dir);
		(void)snprintf(metrics_tmp, sizeof(metrics_tmp),
		    "%s/.gpt-fcgi-cgi.prom.%ld", dir, (long)getpid());
		(void)snprintf(metrics_lock, sizeof(metrics_lock),
		    "%s/gpt-fcgi-cgi.lock", dir);
	} else {
		(void)snprintf(metrics_process, sizeof(metrics_process),
		    "fcgi-%ld", (long)getpid());
		(void)snprintf(metrics_path, sizeof(metrics_path),
		    "%s/gpt-fcgi-%ld.prom", dir, (long)getpid());
		(void)snprintf(metrics_tmp, sizeof(metrics_tmp),
		    "%s/.gpt-fcgi-%ld.prom.tmp", dir, (long)getpid());
	}
	metrics_on = true;
	metrics_written_ms = 0;
	return 0;
}

bool
metrics_enabled(void)
{
	return metrics_on;
}

/* --- the table -------------------------------------------------------- */

/*
 * A label value must be UTF-8 and its escapes are \\, \" and \n only:
 * control bytes and bytes past ASCII become '?', so what is read back is
 * what was written (a name is its key once masked).
 */
static void
metrics_mask(char *s)
{
	for (; *s != '\0'; s++)
		if (gpt_is_control((unsigned char)*s) ||
		    (unsigned char)*s >= 0x80)
			*s = '?';
}

static uint32_t
metrics_hash(const char *s, size_t n)
{
	uint32_t h = 2166136261u; /* FNV-1a */
	size_t i;

	for (i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h;
}

/* The entry of a masked name of n bytes, made if new; metrics_other when
 * the table is full or memory ran out. */
static struct metrics_addr *
metrics_find(const char *name, size_t n)
{
	uint32_t slot = metrics_hash(name, n) % METRICS_SLOTS;
	struct metrics_addr *e;

	if (n == 0) {
		metrics_other_used = true;
		return &metrics_other;
	}
	/* bounded: at most METRICS_ADDR_MAX of the slots are used */
	while ((e = metrics_table[slot]) != NULL) {
		if (strncmp(e->name, name, n) == 0 && e->name[n] == '\0')
			return e;
		slot = (slot + 1) % METRICS_SLOTS;
	}
	if (metrics_used >= METRICS_ADDR_MAX ||
	    (e = calloc(1, sizeof(*e))) == NULL) {
		metrics_other_used = true;
		return &metrics_other;
	}
	if ((e->name = malloc(n + 1)) == NULL) {
		free(e);
		metrics_other_used = true;
		return &metrics_other;
	}
	memcpy(e->name, name, n);
	e->name[n] = '\0';
	metrics_table[slot] = e;
	metrics_used++;
	return e;
}

void
metrics_begin(const char *address)
{
	char name[METRICS_NAME_MAX + 1];
	size_t n;

	if (!metrics_on || address == NULL) {
		metrics_cur = NULL;
		return;
	}
	/* the same address as the last request's, as under load: no hash */
	if (metrics_cur != NULL && strcmp(metrics_cur->name, address) == 0)
		return;
	n = strlen(address);
	if (n > METRICS_NAME_MAX)
		n = METRICS_NAME_MAX;
	memcpy(name, address, n);
	name[n] = '\0';
	metrics_mask(name);
	metrics_cur = metrics_find(name, n);
}

/* The event and reason class each count gives the request's log lines
 * (log.h, GPT_LOG_FORMAT=json). */
static const char *const metrics_event[METRICS_COUNT_N][2] = {
    [METRICS_GET_JSON] = {"arrival", NULL},
    [METRICS_GET_HTML] = {"arrival", NULL},
    [METRICS_GET_304] = {"arrival", NULL},
    [METRICS_ACT_ACCEPTED] = {"act_accepted", NULL},
    [METRICS_REJECT_SIZE] = {"act_rejected", "size"},
    [METRICS_REJECT_CONTENT_TYPE] = {"act_rejected", "content_type"},
    [METRICS_REJECT_IF_MATCH] = {"act_rejected", "if_match"},
    [METRICS_REJECT_PARSE] = {"act_rejected", "parse"},
    [METRICS_REJECT_DUPLICATE] = {"act_rejected", "duplicate_name"},
    [METRICS_REJECT_FORM] = {"act_rejected", "form"},
    [METRICS_HOOK_OK] = {"hook", "ok"},
    [METRICS_HOOK_NONZERO] = {"hook", "nonzero"},
    [METRICS_HOOK_TIMEOUT] = {"hook", "timeout"},
    [METRICS_HOOK_BAD_ANSWER] = {"hook", "bad_answer"},
    [METRICS_HOOK_FAILED] = {"hook", "failed"},
};

void
metrics_count(enum metrics_count c)
{
	if ((unsigned)c >= METRICS_COUNT_N)
		return;
	log_context_event(metrics_event[c][0], metrics_event[c][1]);
	if (metrics_cur == NULL)
		return;
	metrics_cur->v[c]++;
	metrics_dirty = true;
}

void
metrics_hook(enum metrics_count outcome, unsigned elapsed_ms)
{
	size_t b;

	log_context_hook_ms(elapsed_ms);
	metrics_count(outcome);
	if (metrics_cur == NULL)
		return;
	for (b = 0; b < METRICS_BUCKET_N; b++)
		if (elapsed_ms <= metrics_bucket_ms[b])
			metrics_cur->v[SERIES_BUCKET + b]++;
	metrics_cur->v[SERIES_INF]++;
	metrics_cur->v[SERIES_SUM] += elapsed_ms;
}

void
metrics_reset(void)
{
	size_t i;

	for (i = 0; i < METRICS_SLOTS; i++) {
		if (metrics_table[i] == NULL)
			continue;
		free(metrics_table[i]->name);
		free(metrics_table[i]);
		metrics_table[i] = NULL;
	}
	metrics_used = 0;
	memset(metrics_other.v, 0, sizeof(metrics_other.v));
	metrics_other_used = false;
	metrics_cur = NULL;
	metrics_dirty = false;
}

/* --- the text --------------------------------------------------------- */

static int
metrics_put_label(struct buf *out, const char *s)
{
	for (; *s != '\0'; s++) {
		if ((*s == '\\' || *s == '"') && buf_putc(out, '\\') == -1)
			return -1;
		if (buf_putc(out, *s) == -1)
			return -1;
	}
	return 0;
}

static int
metrics_put_sample(struct buf *out, size_t s, const struct metrics_addr *e)
{
	uint64_t v = e->v[s == SERIES_COUNT ? SERIES_INF : s];

	if (buf_printf(out, "%s{process=\"%s\",address=\"",
	        metrics_series[s].name, metrics_process) == -1 ||
	    metrics_put_label(out, e->name) == -1 ||
	    buf_printf(out, "\"%s} ", metrics_series[s].labels) == -1)
		return -1;
	if (s == SERIES_SUM)
		return buf_printf(out, "%llu.%03llu\n",
		    (unsigned long long)(v / 1000),
		    (unsigned long long)(v % 1000));
	return buf_printf(out, "%llu\n", (unsigned long long)v);
}

int
metrics_render(struct buf *out)
{
	size_t s, i;

	for (s = 0; s < SERIES_N; s++) {
		const struct metrics_series *r = &metrics_series[s];

		if (r->help != NULL) {
			const char *family =
			    s >= SERIES_BUCKET ? DURATION : r->name;

			if (buf_printf(out, "# HELP %s %s\n# TYPE %s %s\n",
			        family, r->help, family, r->type) == -1)
				return -1;
		}
		for (i = 0; i < METRICS_SLOTS; i++)
			if (metrics_table[i] != NULL &&
			    metrics_put_sample(out, s, metrics_table[i]) == -1)
				return -1;
		if (metrics_other_used &&
		    metrics_put_sample(out, s, &metrics_other) == -1)
			return -1;
	}
	return 0;
}

/* --- reading a file back (CGI) ---------------------------------------- */

/* The escaped label value at *p up to its closing quote, unescaped into
 * name (at most METRICS_NAME_MAX bytes).  Its length, or -1. */
static long
metrics_read_label(const char **p, const char *end, char *name)
{
	const char *q = *p;
	size_t n = 0;

	/* bounded by end: each pass moves q on */
	while (q < end && *q != '"') {
		char c = *q++;

		if (c == '\\') {
			if (q == end || (*q != '\\' && *q != '"'))
				return -1;
			c = *q++;
		}
		if (n >= METRICS_NAME_MAX)
			return -1;
		name[n++] = c;
	}
	if (q == end)
		return -1;
	name[n] = '\0';
	*p = q + 1;
	return (long)n;
}

/* A value as written: digits, or for SERIES_SUM digits.ddd (in ms). */
static int
metrics_read_value(const char *p, const char *end, size_t s, uint64_t *v)
{
	uint64_t n = 0;
	int digits = 0, frac = -1;

	for (; p < end; p++) {
		if (*p == '.' && s == SERIES_SUM && frac == -1 && digits > 0) {
			frac = 0;
			continue;
		}
		if (*p < '0' || *p > '9' || digits >= 19)
			return -1;
		n = n * 10 + (uint64_t)(*p - '0');
		digits++;
		if (frac >= 0)
			frac++;
	}
	if (digits == 0 || (s == SERIES_SUM ? frac != 3 : frac != -1))
		return -1;
	*v = n;
	return 0;
}

/* One sample line [p, end): apply adds it.  0, or -1 not ours. */
static int
metrics_read_line(const char *p, const char *end, bool apply)
{
	char name[METRICS_NAME_MAX + 1];
	const char *sp, *first;
	size_t s, k = 0;
	long n;
	uint64_t v;

	for (s = 0; s < SERIES_N; s++) {
		k = strlen(metrics_series[s].name);
		if ((size_t)(end - p) > k &&
		    memcmp(p, metrics_series[s].name, k) == 0 && p[k] == '{')
			break;
	}
	if (s == SERIES_N)
		return -1;
	p += k + 1;
	/* process="..." as any value: a file of ours, whichever process */
	if (end - p < 9 || memcmp(p, "process=\"", 9) != 0)
		return -1;
	p += 9;
	/* bounded by end */
	while (p < end && *p != '"')
		p++;
	if (end - p < 11 || memcmp(p, "\",address=\"", 11) != 0)
		return -1;
	p += 11;
	if ((n = metrics_read_label(&p, end, name)) < 0)
		return -1;
	/* the labels after address pick the row among its name's rows */
	sp = memchr(p, '}', (size_t)(end - p));
	if (sp == NULL || end - sp < 3 || sp[1] != ' ')
		return -1;
	/* the rows of one name are consecutive */
	first = metrics_series[s].name;
	for (; s < SERIES_N && strcmp(metrics_series[s].name, first) == 0;
	     s++) {
		k = strlen(metrics_series[s].labels);
		if ((size_t)(sp - p) == k &&
		    memcmp(p, metrics_series[s].labels, k) == 0)
			break;
	}
	if (s == SERIES_N || strcmp(metrics_series[s].name, first) != 0 ||
	    metrics_read_value(sp + 2, end, s, &v) == -1)
		return -1;
	if (apply && s != SERIES_COUNT) {
		struct metrics_addr *e;

		metrics_mask(name);
		e = metrics_find(name, (size_t)n);
		e->v[s] += v;
	}
	return 0;
}

static int
metrics_read_text(const char *text, size_t len, bool apply)
{
	const char *p = text, *end = text + len;

	/* bounded by len: each pass consumes one line */
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));

		if (nl == NULL)
			return -1; /* every line we write ends with \n */
		if (nl > p && *p != '#' &&
		    metrics_read_line(p, nl, apply) == -1)
			return -1;
		p = nl + 1;
	}
	return 0;
}

int
metrics_absorb(const char *text, size_t len)
{
	/* all or nothing: a file cut or not ours adds none of its lines */
	if (metrics_read_text(text, len, false) == -1)
		return -1;
	return metrics_read_text(text, len, true);
}

/* --- the file ----------------------------------------------------------- */

/* A failure to write: reported once, until a write works again. */
static void
metrics_failed(const char *what, const char *path, int err)
{
	if (metrics_failing)
		return;
	metrics_failing = true;
	log_warn("metrics: cannot %s %s: %s; requests are answered as ever, "
	         "and the counts are written again when it works",
	    what, path, strerror(err));
}

static void
metrics_worked(void)
{
	if (!metrics_failing)
		return;
	metrics_failing = false;
	log_info("metrics: writing %s again", metrics_path);
}

/* The rendered text, whole, to the temporary name, then renamed over the
 * file.  0, or -1 (reported). */
static int
metrics_write(void)
{
	struct buf text;
	const char *p;
	size_t left;
	int fd, err;

	buf_init(&text, SIZE_MAX);
	if (metrics_render(&text) == -1) {
		buf_free(&text);
		metrics_failed("render", metrics_path, ENOMEM);
		return -1;
	}
	fd = open(metrics_tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd == -1) {
		/* hits on a directory that does not exist or is read-only */
		metrics_failed("create", metrics_tmp, errno);
		buf_free(&text);
		return -1;
	}
	p = buf_ptr(&text);
	left = buf_len(&text);
	/* bounded: each pass writes some bytes or fails */
	while (left > 0) {
		ssize_t w = write(fd, p, left);

		if (w == -1 && errno == EINTR)
			continue;
		if (w <= 0) {
			/* hits on a full disk (ENOSPC), on ulimit -f (EFBIG) */
			err = w == 0 ? ENOSPC : errno;
			(void)close(fd);
			(void)unlink(metrics_tmp);
			buf_free(&text);
			metrics_failed("write", metrics_tmp, err);
			return -1;
		}
		p += w;
		left -= (size_t)w;
	}
	buf_free(&text);
	if (close(fd) == -1 || rename(metrics_tmp, metrics_path) == -1) {
		err = errno;
		(void)unlink(metrics_tmp);
		metrics_failed("write", metrics_path, err);
		return -1;
	}
	metrics_worked();
	return 0;
}

void
metrics_flush(void)
{
	if (!metrics_on || !metrics_dirty || metrics_cgi)
		return;
	/* a failed write keeps the counts and is tried again at the next
	 * interval, not at once */
	metrics_written_ms = gpt_now_ms();
	if (metrics_write() == 0)
		metrics_dirty = false;
}

int
metrics_idle_ms(void)
{
	uint64_t now, due;

	if (!metrics_on || !metrics_dirty || metrics_cgi)
		return -1;
	now = gpt_now_ms();
	due = metrics_written_ms + METRICS_INTERVAL_MS;
	return due > now ? (int)(due - now) : 0;
}

/* Take the CGI lock, waiting at most METRICS_LOCK_WAIT_MS.  The fd, or
 * -1 (reported). */
static int
metrics_cgi_lock(void)
{
	struct timespec pause = {0, 2 * 1000 * 1000};
	unsigned waited = 0;
	int fd;

	fd = open(metrics_lock, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (fd == -1) {
		metrics_failed("create", metrics_lock, errno);
		return -1;
	}
	/* bounded: METRICS_LOCK_WAIT_MS / 2 tries */
	while (flock(fd, LOCK_EX | LOCK_NB) == -1) {
		if (errno != EWOULDBLOCK && errno != EINTR) {
			metrics_failed("lock", metrics_lock, errno);
			(void)close(fd);
			return -1;
		}
		if (waited >= METRICS_LOCK_WAIT_MS) {
			metrics_failed("lock", metrics_lock, ETIMEDOUT);
			(void)close(fd);
			return -1;
		}
		(void)nanosleep(&pause, NULL);
		waited += 2;
	}
	return fd;
}

/* CGI: this request's counts added to the shared file, under its lock. */
static void
metrics_cgi_update(void)
{
	struct buf old;
	char why[FILE_WHY_MAX];
	int lock;

	if ((lock = metrics_cgi_lock()) == -1)
		return;
	buf_init(&old, METRICS_FILE_MAX);
	if (file_read_buf(metrics_path, &old, why, sizeof(why)) == 0) {
		if (metrics_absorb(buf_ptr(&old), buf_len(&old)) == -1)
			/* hits on a file cut short, or written by another */
			log_warn("metrics: %s is not a counts file of "
			         "gpt.fcgi; starting it anew",
			    metrics_path);
	} else if (errno != ENOENT)
		/* hits on a file larger than METRICS_FILE_MAX */
		log_warn(
		    "metrics: %s: %s; starting it anew", metrics_path, why);
	buf_free(&old);
	(void)metrics_write();
	(void)close(lock);
	metrics_dirty = false;
}

void
metrics_end(void)
{
	if (!metrics_on || !metrics_dirty)
		return;
	if (metrics_cgi) {
		metrics_cgi_update();
		return;
	}
	if (gpt_now_ms() >= metrics_written_ms + METRICS_INTERVAL_MS)
		metrics_flush();
}

void
metrics_close(void)
{
	if (!metrics_on || metrics_cgi)
		return;
	(void)unlink(metrics_path);
	(void)unlink(metrics_tmp);
}
