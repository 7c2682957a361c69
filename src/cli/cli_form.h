/*
 * cli_form.h: what the operator tools (--validate, --bundle, --unroll,
 * --sample, --strict-openai) share: one reader of the options that say
 * how a schema file is compiled (--dialect, --refs, --annotations), one
 * loader of a form from an address directory (the responder's own
 * addr_load) or a schema file (the strict parser, then the responder's
 * compiler with those options), and printing JSON for people.
 *
 * Everything lives in the caller's struct cli_form and its arena; one
 * cli_form_free releases it.  Diagnostics go to stderr, prefixed
 * "gpt.fcgi: ".  Limits: CLI_FORM_ANNOTATIONS_MAX names, 4 KiB of them;
 * SCHEMA_REFS_MAX --refs.
 */
#ifndef GPT_CLI_FORM_H
#define GPT_CLI_FORM_H

#include "site/address.h"
#include "base/arena.h"
#include "base/buf.h"
#include "base/common.h"
#include "schema/schema.h"
#include "schema/schema_load.h"

struct jptr;
struct json_value;

/* Keyword names --annotations may declare. */
#define CLI_FORM_ANNOTATIONS_MAX 64

/* The usage words of the options cli_form_opt reads. */
#define CLI_FORM_OPTS_USAGE                                                    \
	"[--dialect NAME] [--refs URI-PREFIX=DIR]... [--annotations NAME,...]"

struct cli_form {
	struct arena a;  /* the tree, the compiled form */
	struct buf text; /* the file's bytes (the tree borrows) */
	const struct json_value *schema; /* borrowed from a */
	const struct schema *form;       /* compiled; in a */
	const char *path;                /* borrowed: argv */
	struct addr addr; /* an address DIR, loaded as the responder does */
	bool warnings;    /* print the compiler's warnings (--validate) */
	bool opts;        /* an option was given (not for an address DIR) */
	/* a schema file's compiler options: dialect (-1: none given),
	 * load over refs, annotations over ann; warn is the tool's */
	struct schema_opts o;
	struct schema_refs refs;
	const char *ann[CLI_FORM_ANNOTATIONS_MAX];
	char ann_buf[4096];
};

/* Set f up empty (no allocation): call before cli_form_opt. */
void cli_form_init(struct cli_form *f);

/*
 * Read the options every tool takes (--dialect NAME, --refs
 * URI-PREFIX=DIR, --annotations NAME,...) from argv[*i...], advancing *i
 * past them; stops at the first other argument.  0, or -1 after a
 * message on stderr.
 */
int cli_form_opt(
    struct cli_form *f, int argc, char **argv, int *i) GPT_MUSTCHECK;

/*
 * Load and compile path (a directory: the address, as the responder
 * loads it; else a schema file, with f's options).  0; or -1, with every
 * problem on stderr (unreadable, not strict JSON, no s, each refusal of
 * the compiler in document order, options given for an address).
 */
int cli_form_load(struct cli_form *f, const char *path) GPT_MUSTCHECK;

/*
 * Read and strict-parse path (stdin when NULL) into b and a; what names
 * the file in messages.  0, or -1 when it cannot be read, -2 when it
 * does not parse (both reported on stderr).
 */
int cli_form_read_json(const char *path, struct buf *b, struct arena *a,
    const struct json_value **out, const char *what) GPT_MUSTCHECK;

/*
 * Compile v (in f's arena) with f's options.  0 and *out; -1 with
 * *reason (static or in the arena) and pointer set.  warn, if not NULL,
 * is called for each compiler warning.
 */
int cli_form_compile(struct cli_form *f, const struct json_value *v,
    void (*warn)(void *, const char *, const char *), void *warn_ctx,
    const struct schema **out, char *reason, size_t reasonlen) GPT_MUSTCHECK;

/* p's bytes on stderr, control characters as '?' (a member name may
 * hold a newline: a form or body cannot forge lines). */
void cli_form_put_pointer(const struct jptr *p);

/* As cli_form_put_pointer, with "the root" for the empty pointer. */
void cli_form_put_where(const struct jptr *p);

/* Print v indented by two spaces, then a newline, to stdout.  0 or -1. */
int cli_form_print(const struct json_value *v) GPT_MUSTCHECK;

void cli_form_free(struct cli_form *f);

#endif /* GPT_CLI_FORM_H */
