/*
 * conf.h: an address's address.conf, the operator's few knobs.
 *
 * The file is strict `key = value` lines; `#` starts a comment line; blank
 * lines are ignored.  An unknown key, a key given twice, a value out of
 * range or a line of any other shape refuses the whole file, and with it
 * the address (doc/protocol.md "An address"): a typo must not fall back to a
 * default silently.  A missing file means every default.
 */
#ifndef GPT_CONF_H
#define GPT_CONF_H

#include "base/common.h"
#include "base/log.h"

/* Defaults (doc/protocol.md "An address") and the ranges a value must lie
 * in. */
#define CONF_MAX_BODY_DEFAULT ((size_t)1048576)
#define CONF_MAX_BODY_MIN ((size_t)1)
#define CONF_MAX_BODY_MAX ((size_t)1 << 30)
#define CONF_HOOK_TIMEOUT_DEFAULT 10u
#define CONF_HOOK_TIMEOUT_MIN 1u
#define CONF_HOOK_TIMEOUT_MAX 3600u
#define CONF_HOOK_MAX_OUTPUT_DEFAULT ((size_t)1048576)
#define CONF_HOOK_MAX_OUTPUT_MIN ((size_t)1)
#define CONF_HOOK_MAX_OUTPUT_MAX ((size_t)1 << 30)
/* `type` is a header value: 1 to CONF_TYPE_MAX bytes of an RFC 9110 token
 * ("!#$%&'*+-.^_`|~", digits, letters) plus '/', so "chat/v1" works. */
#define CONF_TYPE_MAX 64
/*
 * hook_env = NAME=value, repeatable: variables the operator gives every
 * hook of the address, fixed in the file (never from a request).  NAME is
 * [A-Za-z_][A-Za-z0-9_]*, at most CONF_HOOK_ENV_NAME_MAX bytes, once per
 * file; the value is the rest of the line (blanks around it dropped, no
 * control characters, may be empty).  Refused names: GPT_* (the
 * protocol's), CONTENT_LENGTH and REMOTE_ADDR (the request's).  PATH is
 * allowed and then replaces the fixed one (HOOK_PATH_ENV).  At most
 * CONF_HOOK_ENV_MAX entries (the hook's HOOK_EXTRA_ENV_MAX) and
 * CONF_HOOK_ENV_BYTES bytes of "NAME=value" strings with their NULs.
 */
#define CONF_HOOK_ENV_MAX 16
#define CONF_HOOK_ENV_NAME_MAX 64
#define CONF_HOOK_ENV_BYTES 4096
/* The whole file; a longer one is refused rather than read in part. */
#define CONF_FILE_MAX ((size_t)64 * 1024)
#define CONF_ERR_MAX 400 /* room for several problems */

/* `annotations = NAME ...`: at most this many names, this many bytes. */
#define CONF_ANNOTATIONS_MAX 32
#define CONF_ANNOTATIONS_BYTES 1024
/* `refs = URI-PREFIX=DIR ...`: at most this many pairs, this many bytes. */
#define CONF_REFS_MAX 8
#define CONF_REFS_BYTES 2048

/*
 * Long-running acts and idempotency keys (gpt-address(5) "Long-running
 * acts"): act = answer | task | either [answer]; task_timeout seconds
 * [3600]; task_ttl seconds [86400], more than task_timeout, so a task
 * always outlives its run; task_poll seconds [2], the pollInterval and
 * Retry-After; task_stream seconds [300], the most one event stream
 * lasts; idempotency_ttl seconds [86400]; store DIR [.store], relative to
 * the address or absolute, CONF_STORE_MAX bytes at most; store_pg
 * CONNINFO [none]: the PostgreSQL store instead (libpq's connection
 * string, CONF_STORE_PG_MAX bytes); store_scope NAME [the address
 * directory's last name]: the address's records in that store, the same
 * on every host; task_lease seconds [10]: how long a runner lost goes
 * unnoticed under PostgreSQL (it renews its lease every third of it).
 */
enum conf_act {
	CONF_ACT_ANSWER, /* the hook's answer in the act's response */
	CONF_ACT_TASK,   /* every act becomes a task: 202 */
	CONF_ACT_EITHER, /* a task when the act asks: Prefer: respond-async */
};
#define CONF_TASK_TIMEOUT_DEFAULT 3600u
#define CONF_TASK_TIMEOUT_MAX (7u * 86400u)
#define CONF_TASK_TTL_DEFAULT 86400u
#define CONF_TTL_MIN 60u
#define CONF_TTL_MAX (366u * 86400u)
#define CONF_TASK_POLL_DEFAULT 2u
#define CONF_TASK_POLL_MAX 3600u
#define CONF_TASK_STREAM_DEFAULT 300u
#define CONF_TASK_STREAM_MAX 3600u
#define CONF_IDEMPOTENCY_TTL_DEFAULT 86400u
#define CONF_STORE_MAX 255
#define CONF_STORE_PG_MAX 1023
#define CONF_STORE_SCOPE_MAX 128
#define CONF_TASK_LEASE_DEFAULT 10u
#define CONF_TASK_LEASE_MIN 3u
#define CONF_TASK_LEASE_MAX 600u

struct conf {
	size_t max_body;              /* bytes of an act body */
	unsigned hook_timeout;        /* seconds */
	size_t hook_max_output;       /* bytes of hook stdout */
	char type[CONF_TYPE_MAX + 1]; /* GPT-Type value; "" when not set */
	bool explain;       /* failures = explain: 422 with the reason */
	enum log_level log; /* log = errors | rejections | all [all] */
	/* hook_env: hook_env_count "NAME=value" strings, each ending in a
	 * NUL, one after the other, in the file's order */
	char hook_env[CONF_HOOK_ENV_BYTES];
	size_t hook_env_len; /* bytes used in hook_env */
	unsigned hook_env_count;
	/* dialect = NAME: the form's dialect when it has no $schema
	 * (schema_dialect_named), or -1 (2020-12) */
	int dialect;
	/* annotations = NAME ...: keywords the form uses for tools only;
	 * annotation[i] points into ann_text */
	char ann_text[CONF_ANNOTATIONS_BYTES];
	const char *annotation[CONF_ANNOTATIONS_MAX];
	size_t nannotations;
	/* refs = URI-PREFIX=DIR ...: local copies of referenced resources,
	 * DIR relative to the address; pointers into refs_text */
	char refs_text[CONF_REFS_BYTES];
	const char *ref_prefix[CONF_REFS_MAX], *ref_dir[CONF_REFS_MAX];
	size_t nrefs;
	/* long-running acts and idempotency keys (see above) */
	enum conf_act act;
	unsigned task_timeout, task_ttl, task_poll, task_stream;
	unsigned idempotency_ttl;
	char store[CONF_STORE_MAX + 1];
	char store_pg[CONF_STORE_PG_MAX + 1];       /* "": the directory */
	char store_scope[CONF_STORE_SCOPE_MAX + 1]; /* "": the default */
	unsigned task_lease;
};

/* A struct conf holds pointers into itself: copy it with conf_copy. */
void conf_copy(struct conf *to, const struct conf *from);

/* Fill c with every default. */
void conf_init(struct conf *c);

/*
 * Parse len bytes of address.conf text into *out.  0 on success; -1 with
 * every problem of the file in err (errlen bytes, NUL included; "; "
 * between them, as many as fit), each with its line, what the key wants
 * (a number's range and unit) and a close key for an unknown one ("line
 * 3: unknown key 'max_bdy': did you mean max_body?"), and *out untouched.
 */
int conf_parse(const char *text, size_t len, struct conf *out, char *err,
    size_t errlen) GPT_MUSTCHECK;

/*
 * Read and parse the file at path (not following a symlink).  A missing
 * file leaves every default in *out and returns 0.  -1 with the reason in
 * err when the file cannot be read or is refused; *out is then untouched.
 */
int conf_load(
    const char *path, struct conf *out, char *err, size_t errlen) GPT_MUSTCHECK;

/*
 * root.conf: the knobs of a root (a GPT_ROOT directory, or the .d
 * directory beside the binary), read at each GET of the root itself, in
 * the same strict `key = value` shape.  One key:
 *   index = yes | no [no]: GET of the root lists its addresses
 *   (rootindex.h); off unless asked, as a public root may not want to be
 *   listed.
 * A missing file means every default.
 */
#define CONF_ROOT_FILE "root.conf"
struct conf_root {
	bool index;
};

/* As conf_parse, for root.conf. */
int conf_root_parse(const char *text, size_t len, struct conf_root *out,
    char *err, size_t errlen) GPT_MUSTCHECK;

/* As conf_load, for root.conf. */
int conf_root_load(const char *path, struct conf_root *out, char *err,
    size_t errlen) GPT_MUSTCHECK;

#endif /* GPT_CONF_H */
