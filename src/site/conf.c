/*
 * conf.c: read address.conf strictly.
 *
 * Owns nothing beyond one call.  Limits: CONF_FILE_MAX bytes.  Refuses
 * (the whole file): unknown keys, duplicate keys, values out of range, NUL
 * bytes, lines that are not `key = value`, comments after a value.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "base/buf.h"
#include "site/conf.h"
#include "base/file.h"
#include "base/num.h"
#include "schema/schema.h"
#include "schema/schema_dialect.h"
#include "site/store_pg.h"

enum conf_key {
	CONF_K_MAX_BODY,
	CONF_K_HOOK_TIMEOUT,
	CONF_K_HOOK_MAX_OUTPUT,
	CONF_K_TYPE,
	CONF_K_FAILURES,
	CONF_K_HOOK_ENV,
	CONF_K_DIALECT,
	CONF_K_ANNOTATIONS,
	CONF_K_REFS,
	CONF_K_LOG,
	CONF_K_ACT,
	CONF_K_TASK_TIMEOUT,
	CONF_K_TASK_TTL,
	CONF_K_TASK_POLL,
	CONF_K_TASK_STREAM,
	CONF_K_IDEMPOTENCY_TTL,
	CONF_K_STORE,
	CONF_K_STORE_PG,
	CONF_K_STORE_SCOPE,
	CONF_K_TASK_LEASE,
};

static const char *const conf_keys[] = {
    [CONF_K_MAX_BODY] = "max_body",
    [CONF_K_HOOK_TIMEOUT] = "hook_timeout",
    [CONF_K_HOOK_MAX_OUTPUT] = "hook_max_output",
    [CONF_K_TYPE] = "type", /* not-a-keyword: the address.conf key */
    [CONF_K_FAILURES] = "failures",
    [CONF_K_HOOK_ENV] = "hook_env",
    [CONF_K_DIALECT] = "dialect",
    [CONF_K_ANNOTATIONS] = "annotations",
    [CONF_K_REFS] = "refs",
    [CONF_K_LOG] = "log",
    [CONF_K_ACT] = "act",
    [CONF_K_TASK_TIMEOUT] = "task_timeout",
    [CONF_K_TASK_TTL] = "task_ttl",
    [CONF_K_TASK_POLL] = "task_poll",
    [CONF_K_TASK_STREAM] = "task_stream",
    [CONF_K_IDEMPOTENCY_TTL] = "idempotency_ttl",
    [CONF_K_STORE] = "store",
    [CONF_K_STORE_PG] = "store_pg",
    [CONF_K_STORE_SCOPE] = "store_scope",
    [CONF_K_TASK_LEASE] = "task_lease",
};

/* Add one problem to err: every problem of a file is listed, "; "
 * between them, as far as err holds them. */
static void GPT_PRINTF(4, 5)
    conf_fail(char *err, size_t errlen, unsigned line, const char *fmt, ...)
{
	va_list ap;
	size_t at;
	int n;

	if (err == NULL || errlen == 0)
		return;
	at = strnlen(err, errlen - 1);
	n = snprintf(
	    err + at, errlen - at, "%sline %u: ", at > 0 ? "; " : "", line);
	if (n < 0 || (size_t)n >= errlen - at)
		return;
	at += (size_t)n;
	va_start(ap, fmt);
	vsnprintf(err + at, errlen - at, fmt, ap);
	va_end(ap);
}

static bool
conf_is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

/* A decimal number without sign in [min, max], strtonum-style. */
static int
conf_number(const char *p, size_t len, size_t min, size_t max, size_t *out)
{
	uint64_t v;

	/* hits on "max_body = " (empty), "-1", "1e6", "0x10" */
	if (num_read(p, len, min, max, 0, &v) != NULL)
		return -1;
	*out = (size_t)v;
	return 0;
}

/* RFC 9110 tchar, plus '/' for values like "chat/v1". */
static bool
conf_is_type_char(unsigned char c)
{
	return gpt_is_tchar(c) || c == '/';
}

/*
 * hook_env = NAME=value (see conf.h): append "NAME=value\0" to c->hook_env.
 */
static int
conf_hook_env(struct conf *c, const char *v, size_t len, char *err,
    size_t errlen, unsigned line)
{
	static const char *const refused[] = {"CONTENT_LENGTH", "REMOTE_ADDR"};
	const char *eq = memchr(v, '=', len), *p;
	size_t nlen, i, off;
	unsigned k;

	nlen = eq != NULL ? (size_t)(eq - v) : 0;
	/* hits on "hook_env = DB", "hook_env = =x", "hook_env = 1X=y",
	 * "hook_env = DB = x" (the name would end in a blank) */
	for (i = 0; i < nlen; i++)
		if (!((v[i] >= 'A' && v[i] <= 'Z') ||
		        (v[i] >= 'a' && v[i] <= 'z') || v[i] == '_' ||
		        (i > 0 && v[i] >= '0' && v[i] <= '9')))
			break;
	if (nlen == 0 || i < nlen || nlen > CONF_HOOK_ENV_NAME_MAX) {
		conf_fail(err, errlen, line,
		    "hook_env must be NAME=value, NAME letters, digits and _ "
		    "(at most %d)",
		    CONF_HOOK_ENV_NAME_MAX);
		return -1;
	}
	for (i = nlen + 1; i < len; i++)
		if (gpt_is_control((unsigned char)v[i])) {
			/* hits on a tab inside the value */
			conf_fail(err, errlen, line,
			    "hook_env: control character in the value of %.*s",
			    (int)nlen, v);
			return -1;
		}
	/* The protocol's and the request's names are the hook's contract
	 * (doc/protocol.md "The hook"); hits on "hook_env = GPT_ACTOR=root" */
	for (k = 0; k < GPT_ARRAY_LEN(refused); k++)
		if (strlen(refused[k]) == nlen &&
		    memcmp(refused[k], v, nlen) == 0)
			break;
	if (k < GPT_ARRAY_LEN(refused) ||
	    (nlen >= 4 && memcmp(v, "GPT_", 4) == 0)) {
		conf_fail(err, errlen, line,
		    "hook_env: %.*s is set by gpt.fcgi itself", (int)nlen, v);
		return -1;
	}
	/* bounded: at most CONF_HOOK_ENV_MAX entries to compare */
	for (k = 0, p = c->hook_env; k < c->hook_env_count;
	     k++, p += strlen(p) + 1)
		if (strncmp(p, v, nlen) == 0 && p[nlen] == '=') {
			/* hits on "hook_env = DB=a" then "hook_env = DB=b" */
			conf_fail(err, errlen, line,
			    "hook_env: %.*s given twice", (int)nlen, v);
			return -1;
		}
	off = c->hook_env_len;
	if (c->hook_env_count == CONF_HOOK_ENV_MAX ||
	    len + 1 > sizeof(c->hook_env) - off) {
		conf_fail(err, errlen, line,
		    "hook_env: more than %d variables or %d bytes",
		    CONF_HOOK_ENV_MAX, CONF_HOOK_ENV_BYTES);
		return -1;
	}
	memcpy(c->hook_env + off, v, len);
	c->hook_env[off + len] = '\0';
	c->hook_env_len = off + len + 1;
	c->hook_env_count++;
	return 0;
}
static bool conf_plain_path(const char *p, size_t len);
static int conf_words(const char *v, size_t len, char *text, size_t cap,
    const char **word, size_t max);

/* log = errors | rejections | all: what the address logs (log.h). */
static int
conf_log(struct conf *c, const char *v, size_t len, char *err, size_t errlen,
    unsigned line)
{
	static const char *const names[] = {
	    [LOG_LEVEL_ERRORS] = "errors",
	    [LOG_LEVEL_REJECTIONS] = "rejections",
	    [LOG_LEVEL_ALL] = "all",
	};
	size_t i;

	for (i = 0; i < GPT_ARRAY_LEN(names); i++)
		if (strlen(names[i]) == len && memcmp(names[i], v, len) == 0) {
			c->log = (enum log_level)i;
			return 0;
		}
	/* hits on "log = debug", "log = Errors", "log = " */
	conf_fail(err, errlen, line, "log must be errors, rejections or all");
	return -1;
}

static int
conf_value(struct conf *c, enum conf_key k, const char *v, size_t len,
    char *err, size_t errlen, unsigned line)
{
	size_t n, i;

	switch (k) {
	case CONF_K_MAX_BODY:
		if (conf_number(v, len, CONF_MAX_BODY_MIN, CONF_MAX_BODY_MAX,
		        &c->max_body) == -1)
			goto range;
		return 0;
	case CONF_K_HOOK_TIMEOUT:
		if (conf_number(v, len, CONF_HOOK_TIMEOUT_MIN,
		        CONF_HOOK_TIMEOUT_MAX, &n) == -1)
			goto range;
		c->hook_timeout = (unsigned)n;
		return 0;
	case CONF_K_HOOK_MAX_OUTPUT:
		if (conf_number(v, len, CONF_HOOK_MAX_OUTPUT_MIN,
		        CONF_HOOK_MAX_OUTPUT_MAX, &c->hook_max_output) == -1)
			goto range;
		return 0;
	case CONF_K_TYPE:
		/* hits on "type = a b" and "type = caf\xc3\xa9" */
		if (len == 0 || len > CONF_TYPE_MAX) {
			conf_fail(err, errlen, line,
			    "type must be 1 to %d bytes", CONF_TYPE_MAX);
			return -1;
		}
		for (i = 0; i < len; i++)
			if (!conf_is_type_char((unsigned char)v[i])) {
				conf_fail(err, errlen, line,
				    "type must be a header token");
				return -1;
			}
		memcpy(c->type, v, len);
		c->type[len] = '\0';
		return 0;
	case CONF_K_DIALECT: {
		char name[16];

		/* hits on "dialect = draft-03" */
		if (len == 0 || len >= sizeof(name) ||
		    (memcpy(name, v, len), name[len] = '\0',
		        (c->dialect = schema_dialect_named(name)) < 0)) {
			conf_fail(err, errlen, line,
			    "dialect must be draft-04, draft-06, draft-07, "
			    "2019-09, 2020-12 or v1");
			return -1;
		}
		return 0;
	}
	case CONF_K_ANNOTATIONS: {
		int nw = conf_words(v, len, c->ann_text, sizeof(c->ann_text),
		    c->annotation, CONF_ANNOTATIONS_MAX);

		/* hits on "annotations =" and on 33 names */
		if (nw <= 0) {
			conf_fail(err, errlen, line,
			    "annotations must be 1 to %d keyword names",
			    CONF_ANNOTATIONS_MAX);
			return -1;
		}
		c->nannotations = (size_t)nw;
		return 0;
	}
	case CONF_K_REFS: {
		const char *w[CONF_REFS_MAX];
		int nw = conf_words(v, len, c->refs_text, sizeof(c->refs_text),
		    w, CONF_REFS_MAX);
		int w2;

		if (nw <= 0) {
			conf_fail(err, errlen, line,
			    "refs must be 1 to %d URI-PREFIX=DIR pairs",
			    CONF_REFS_MAX);
			return -1;
		}
		for (w2 = 0; w2 < nw; w2++) {
			char *eq = strrchr(w[w2], '=');

			/* hits on "refs = https://x/" and "refs = x=../up" */
			if (eq == NULL || eq == w[w2] ||
			    !conf_plain_path(eq + 1, strlen(eq + 1))) {
				conf_fail(err, errlen, line,
				    "refs wants URI-PREFIX=DIR, DIR a "
				    "relative path inside the address");
				return -1;
			}
			*eq = '\0';
			c->ref_prefix[w2] = w[w2];
			c->ref_dir[w2] = eq + 1;
		}
		c->nrefs = (size_t)nw;
		return 0;
	}
	case CONF_K_FAILURES:
		if (len == 6 && memcmp(v, "silent", 6) == 0)
			c->explain = false;
		else if (len == 7 && memcmp(v, "explain", 7) == 0)
			c->explain = true;
		else {
			/* hits on "failures = verbose" */
			conf_fail(err, errlen, line,
			    "failures must be silent or explain");
			return -1;
		}
		return 0;
	case CONF_K_HOOK_ENV:
		return conf_hook_env(c, v, len, err, errlen, line);
	case CONF_K_LOG:
		return conf_log(c, v, len, err, errlen, line);
	case CONF_K_ACT:
		if (len == 6 && memcmp(v, "answer", 6) == 0)
			c->act = CONF_ACT_ANSWER;
		else if (len == 4 && memcmp(v, "task", 4) == 0)
			c->act = CONF_ACT_TASK;
		else if (len == 6 && memcmp(v, "either", 6) == 0)
			c->act = CONF_ACT_EITHER;
		else {
			/* hits on "act = async" */
			conf_fail(err, errlen, line,
			    "act must be answer, task or either");
			return -1;
		}
		return 0;
	case CONF_K_TASK_TIMEOUT:
		if (conf_number(v, len, 1, CONF_TASK_TIMEOUT_MAX, &n) == -1)
			goto range;
		c->task_timeout = (unsigned)n;
		return 0;
	case CONF_K_TASK_TTL:
	case CONF_K_IDEMPOTENCY_TTL:
		if (conf_number(v, len, CONF_TTL_MIN, CONF_TTL_MAX, &n) == -1)
			goto range;
		*(k == CONF_K_TASK_TTL ? &c->task_ttl : &c->idempotency_ttl) =
		    (unsigned)n;
		return 0;
	case CONF_K_TASK_POLL:
		if (conf_number(v, len, 1, CONF_TASK_POLL_MAX, &n) == -1)
			goto range;
		c->task_poll = (unsigned)n;
		return 0;
	case CONF_K_TASK_STREAM:
		if (conf_number(v, len, 1, CONF_TASK_STREAM_MAX, &n) == -1)
			goto range;
		c->task_stream = (unsigned)n;
		return 0;
	case CONF_K_STORE:
		/* hits on "store = ", on "store = a/../../b" */
		if (len == 0 || len > CONF_STORE_MAX ||
		    (v[0] != '/' && !conf_plain_path(v, len)) ||
		    (v[0] == '/' &&
		        (len == 1 || !conf_plain_path(v + 1, len - 1)))) {
			conf_fail(err, errlen, line,
			    "store must be a directory: a plain relative path "
			    "inside the address, or an absolute one, at most "
			    "%d bytes",
			    CONF_STORE_MAX);
			return -1;
		}
		memcpy(c->store, v, len);
		c->store[len] = '\0';
		return 0;
	case CONF_K_STORE_PG:
		/* hits on "store_pg = " and on a build without libpq */
		if (len == 0 || len > CONF_STORE_PG_MAX) {
			conf_fail(err, errlen, line,
			    "store_pg must be a libpq connection string of 1 "
			    "to %d bytes",
			    CONF_STORE_PG_MAX);
			return -1;
		}
		if (!store_pg_available()) {
			conf_fail(err, errlen, line,
			    "store_pg: this gpt.fcgi is built without "
			    "PostgreSQL (configure --with-libpq), or "
			    "libpq.so.5 is not installed");
			return -1;
		}
		memcpy(c->store_pg, v, len);
		c->store_pg[len] = '\0';
		return 0;
	case CONF_K_STORE_SCOPE:
		for (i = 0; i < len; i++)
			if (!gpt_is_tchar((unsigned char)v[i]))
				break;
		/* hits on "store_scope = a b" */
		if (len == 0 || len > CONF_STORE_SCOPE_MAX || i < len) {
			conf_fail(err, errlen, line,
			    "store_scope must be 1 to %d token characters "
			    "(RFC 9110 tchar)",
			    CONF_STORE_SCOPE_MAX);
			return -1;
		}
		memcpy(c->store_scope, v, len);
		c->store_scope[len] = '\0';
		return 0;
	case CONF_K_TASK_LEASE:
		if (conf_number(v, len, CONF_TASK_LEASE_MIN,
		        CONF_TASK_LEASE_MAX, &n) == -1)
			goto range;
		c->task_lease = (unsigned)n;
		return 0;
	}
	return -1;
range : {
	/* each number's range and unit (conf.h), and what was given */
	size_t lo = 1, hi = 0;
	const char *unit = "seconds";

	switch (k) {
	case CONF_K_MAX_BODY:
		lo = CONF_MAX_BODY_MIN, hi = CONF_MAX_BODY_MAX, unit = "bytes";
		break;
	case CONF_K_HOOK_MAX_OUTPUT:
		lo = CONF_HOOK_MAX_OUTPUT_MIN, hi = CONF_HOOK_MAX_OUTPUT_MAX;
		unit = "bytes";
		break;
	case CONF_K_HOOK_TIMEOUT:
		lo = CONF_HOOK_TIMEOUT_MIN, hi = CONF_HOOK_TIMEOUT_MAX;
		break;
	case CONF_K_TASK_TIMEOUT:
		hi = CONF_TASK_TIMEOUT_MAX;
		break;
	case CONF_K_TASK_TTL:
	case CONF_K_IDEMPOTENCY_TTL:
		lo = CONF_TTL_MIN, hi = CONF_TTL_MAX;
		break;
	case CONF_K_TASK_POLL:
		hi = CONF_TASK_POLL_MAX;
		break;
	case CONF_K_TASK_LEASE:
		lo = CONF_TASK_LEASE_MIN, hi = CONF_TASK_LEASE_MAX;
		break;
	default:
		hi = CONF_TASK_STREAM_MAX;
		break;
	}
	/* hits on "max_body = 1MB", "hook_timeout = 0" */
	conf_fail(err, errlen, line,
	    "%s must be a whole number of %s from %zu to %zu, not '%.*s'",
	    conf_keys[k], unit, lo, hi, (int)(len > 40 ? 40 : len), v);
	return -1;
}
}

void
conf_init(struct conf *c)
{
	c->max_body = CONF_MAX_BODY_DEFAULT;
	c->hook_timeout = CONF_HOOK_TIMEOUT_DEFAULT;
	c->hook_max_output = CONF_HOOK_MAX_OUTPUT_DEFAULT;
	c->type[0] = '\0';
	c->explain = false;
	c->log = LOG_LEVEL_ALL;
	c->hook_env[0] = '\0';
	c->hook_env_len = 0;
	c->hook_env_count = 0;
	c->dialect = -1;
	c->nannotations = 0;
	c->nrefs = 0;
	c->act = CONF_ACT_ANSWER;
	c->task_timeout = CONF_TASK_TIMEOUT_DEFAULT;
	c->task_ttl = CONF_TASK_TTL_DEFAULT;
	c->task_poll = CONF_TASK_POLL_DEFAULT;
	c->task_stream = CONF_TASK_STREAM_DEFAULT;
	c->idempotency_ttl = CONF_IDEMPOTENCY_TTL_DEFAULT;
	memcpy(c->store, ".store", sizeof(".store"));
	c->store_pg[0] = '\0';
	c->store_scope[0] = '\0';
	c->task_lease = CONF_TASK_LEASE_DEFAULT;
}

void
conf_copy(struct conf *to, const struct conf *from)
{
	size_t i;

	*to = *from;
	for (i = 0; i < from->nannotations; i++)
		to->annotation[i] =
		    to->ann_text + (from->annotation[i] - from->ann_text);
	for (i = 0; i < from->nrefs; i++) {
		to->ref_prefix[i] =
		    to->refs_text + (from->ref_prefix[i] - from->refs_text);
		to->ref_dir[i] =
		    to->refs_text + (from->ref_dir[i] - from->refs_text);
	}
}

/* true when the len bytes at p are a plain relative path: segments of
 * printable bytes, none empty, "." or "..". */
static bool
conf_plain_path(const char *p, size_t len)
{
	size_t i, seg = 0;

	if (len == 0 || p[0] == '/')
		return false;
	for (i = 0; i <= len; i++) {
		if (i == len || p[i] == '/') {
			/* "a//b", "./a", "a/../../b" */
			if (i == seg || (i - seg == 1 && p[seg] == '.') ||
			    (i - seg == 2 && p[seg] == '.' &&
			        p[seg + 1] == '.'))
				return false;
			seg = i + 1;
		} else if ((unsigned char)p[i] <= 0x20 || p[i] == 0x7f) {
			return false;
		}
	}
	return true;
}

/*
 * Split v (len bytes) at blanks into NUL-terminated words copied to text
 * (cap bytes); word[i] points at each, at most max.  The count, or -1
 * when they do not fit.
 */
static int
conf_words(const char *v, size_t len, char *text, size_t cap, const char **word,
    size_t max)
{
	size_t i = 0, o = 0, n = 0;

	while (i < len) {
		while (i < len && conf_is_blank(v[i]))
			i++;
		if (i == len)
			break;
		if (n == max)
			return -1;
		word[n++] = text + o;
		while (i < len && !conf_is_blank(v[i])) {
			if (o + 2 > cap)
				return -1;
			text[o++] = v[i++];
		}
		text[o++] = '\0';
	}
	return (int)n;
}

/* The next "key = value" line of text from *pos, blank lines and
 * comments skipped; both files share this one reading of a line.  1 with
 * the key (lower-case letters and '_') and the value (blanks trimmed),
 * 0 at the end, -1 on a line of another shape; *line counts lines read. */
static int
conf_line_next(const char *text, size_t len, size_t *pos, unsigned *line,
    const char **key, size_t *klen, const char **val, size_t *vlen)
{
	while (*pos < len) {
		const char *l = text + *pos, *nl;
		size_t ll, i = 0;

		nl = memchr(l, '\n', len - *pos);
		ll = nl != NULL ? (size_t)(nl - l) : len - *pos;
		*pos += ll + (nl != NULL);
		(*line)++;
		while (i < ll && conf_is_blank(l[i]))
			i++;
		if (i == ll || l[i] == '#')
			continue;
		*key = l + i;
		while (i < ll && ((l[i] >= 'a' && l[i] <= 'z') || l[i] == '_'))
			i++;
		*klen = (size_t)(l + i - *key);
		while (i < ll && conf_is_blank(l[i]))
			i++;
		if (*klen == 0 || i == ll || l[i] != '=')
			return -1;
		i++;
		while (i < ll && conf_is_blank(l[i]))
			i++;
		*val = l + i;
		*vlen = ll - i;
		while (*vlen > 0 && conf_is_blank((*val)[*vlen - 1]))
			(*vlen)--;
		return 1;
	}
	return 0;
}

int
conf_parse(
    const char *text, size_t len, struct conf *out, char *err, size_t errlen)
{
	struct conf c;
	bool seen[GPT_ARRAY_LEN(conf_keys)] = {false}, bad = false;
	size_t pos = 0;
	unsigned line = 0;

	if (err != NULL && errlen > 0)
		err[0] = '\0';
	conf_init(&c);
	if (memchr(text, '\0', len) != NULL) {
		/* hits on a file holding a NUL byte */
		conf_fail(err, errlen, 0, "NUL byte in file");
		return -1;
	}
	for (;;) {
		const char *k, *v;
		size_t klen, vlen, ki;
		int got = conf_line_next(
		    text, len, &pos, &line, &k, &klen, &v, &vlen);

		if (got == 0)
			break;
		if (got == -1) {
			/* hits on "max_body 10" and "Max_Body = 1" */
			conf_fail(err, errlen, line, "expected key = value");
			bad = true;
			continue;
		}
		for (ki = 0; ki < GPT_ARRAY_LEN(conf_keys); ki++)
			if (strlen(conf_keys[ki]) == klen &&
			    memcmp(conf_keys[ki], k, klen) == 0)
				break;
		if (ki == GPT_ARRAY_LEN(conf_keys)) {
			const char *close = schema_name_suggest(
			    k, klen, conf_keys, GPT_ARRAY_LEN(conf_keys));

			/* hits on "max_bdy = 1" */
			conf_fail(err, errlen, line, "unknown key '%.*s'%s%s%s",
			    (int)klen, k,
			    close != NULL ? ": did you mean " : "",
			    close != NULL ? close : "",
			    close != NULL ? "?" : "");
			bad = true;
			continue;
		}
		if (seen[ki] && ki != CONF_K_HOOK_ENV) {
			/* hits on "type = a" given twice (hook_env repeats:
			 * one variable a line) */
			conf_fail(err, errlen, line, "duplicate key '%s'",
			    conf_keys[ki]);
			bad = true;
			continue;
		}
		seen[ki] = true;
		if (conf_value(&c, (enum conf_key)ki, v, vlen, err, errlen,
		        line) == -1)
			bad = true;
	}
	if (c.task_ttl <= c.task_timeout) {
		/* hits on "task_timeout = 3600" with "task_ttl = 600": the
		 * task would be gone before its result */
		conf_fail(err, errlen, line,
		    "task_ttl (%u s) must be more than task_timeout (%u s)",
		    c.task_ttl, c.task_timeout);
		bad = true;
	}
	if (bad)
		return -1;
	conf_copy(out, &c);
	return 0;
}

int
conf_load(const char *path, struct conf *out, char *err, size_t errlen)
{
	char why[FILE_WHY_MAX];
	struct buf text;
	int rc = -1;

	buf_init(&text, CONF_FILE_MAX);
	if (file_read_buf(path, &text, why, sizeof(why)) == -1) {
		if (errno == ENOENT) {
			conf_init(out);
			return 0;
		}
		/* hits on address.conf being a directory, a FIFO or a link */
		snprintf(err, errlen, "%s: %s", path, why);
		goto done;
	}
	if (conf_parse(buf_ptr(&text), buf_len(&text), out, err, errlen) == -1)
		goto done;
	rc = 0;
done:
	buf_free(&text);
	return rc;
}

/* --- root.conf ----------------------------------------------------- */

int
conf_root_parse(const char *text, size_t len, struct conf_root *out, char *err,
    size_t errlen)
{
	struct conf_root c = {false};
	bool seen = false;
	size_t pos = 0;
	unsigned line = 0;

	if (err != NULL && errlen > 0)
		err[0] = '\0';
	if (memchr(text, '\0', len) != NULL) {
		conf_fail(err, errlen, 0, "NUL byte in file");
		return -1;
	}
	for (;;) {
		const char *k, *v;
		size_t klen, vlen;
		int got = conf_line_next(
		    text, len, &pos, &line, &k, &klen, &v, &vlen);

		if (got == 0)
			break;
		if (got == -1) {
			conf_fail(err, errlen, line, "expected key = value");
			return -1;
		}
		if (klen != 5 || memcmp(k, "index", 5) != 0) {
			/* hits on "indexes = yes" */
			conf_fail(err, errlen, line,
			    "unknown key '%.*s' (root.conf has one key: index)",
			    (int)klen, k);
			return -1;
		}
		if (seen) {
			conf_fail(err, errlen, line, "duplicate key 'index'");
			return -1;
		}
		seen = true;
		if (vlen == 3 && memcmp(v, "yes", 3) == 0)
			c.index = true;
		else if (vlen == 2 && memcmp(v, "no", 2) == 0)
			c.index = false;
		else {
			conf_fail(err, errlen, line,
			    "index wants yes or no, not '%.*s'",
			    (int)(vlen > 40 ? 40 : vlen), v);
			return -1;
		}
	}
	*out = c;
	return 0;
}

int
conf_root_load(
    const char *path, struct conf_root *out, char *err, size_t errlen)
{
	char why[FILE_WHY_MAX];
	struct buf text;
	int rc = -1;

	buf_init(&text, CONF_FILE_MAX);
	if (file_read_buf(path, &text, why, sizeof(why)) == -1) {
		if (errno == ENOENT) {
			out->index = false;
			rc = 0;
		} else
			snprintf(err, errlen, "%s: %s", path, why);
		goto done;
	}
	if (conf_root_parse(buf_ptr(&text), buf_len(&text), out, err, errlen) ==
	    -1)
		goto done;
	rc = 0;
done:
	buf_free(&text);
	return rc;
}
