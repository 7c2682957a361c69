/*
 * cli_form.h: what the operator tools (--unroll, --sample, --strict-openai)
 * share: reading a form from an address directory (its form.json's `s`)
 * or a schema file, compiling it with the responder's compiler, and
 * printing JSON for people.
 *
 * Everything lives in the caller's struct cli_form and its arena; one
 * cli_form_free releases it.  Diagnostics go to stderr, prefixed
 * "gpt.fcgi: ".
 */
#ifndef GPT_CLI_FORM_H
#define GPT_CLI_FORM_H

#include "address.h"
#include "arena.h"
#include "buf.h"
#include "common.h"

struct json_value;
struct schema;

struct cli_form {
	struct arena a;  /* the tree, the compiled form */
	struct buf text; /* the file's bytes (the tree borrows) */
	const struct json_value *schema; /* borrowed from a */
	const struct schema *form;       /* compiled; in a */
	int dialect;                     /* --dialect, or -1 */
	const char *path;                /* borrowed: argv */
	struct addr addr; /* an address DIR, loaded as the responder does */
};

/*
 * Read the options every tool takes (--dialect NAME) from argv[*i...],
 * advancing *i past them.  0, or -1 after a message on stderr.
 */
int cli_form_opt(
    struct cli_form *f, int argc, char **argv, int *i) GPT_MUSTCHECK;

/* Set f up empty (no allocation): call before cli_form_opt. */
void cli_form_init(struct cli_form *f);

/*
 * Load and compile path (a directory: its form.json's member s; else a
 * schema file).  0; or -1, with the reason on stderr (unreadable, not
 * strict JSON, no s, refused by the compiler).
 */
int cli_form_load(struct cli_form *f, const char *path) GPT_MUSTCHECK;

/*
 * Compile v (in f's arena) with f's options.  0 and *out; -1 with
 * *reason (static or in the arena) and pointer set.  warn, if not NULL,
 * is called for each compiler warning.
 */
int cli_form_compile(struct cli_form *f, const struct json_value *v,
    void (*warn)(void *, const char *, const char *), void *warn_ctx,
    const struct schema **out, char *reason, size_t reasonlen) GPT_MUSTCHECK;

/* Print v indented by two spaces, then a newline, to stdout.  0 or -1. */
int cli_form_print(const struct json_value *v) GPT_MUSTCHECK;

void cli_form_free(struct cli_form *f);

#endif /* GPT_CLI_FORM_H */
