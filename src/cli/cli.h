/*
 * cli.h: the operator's command line (--check, --validate, --parse,
 * --init, --version, --help).  Each command returns the process exit status;
 * only main() calls exit.  Statuses follow the contract: --parse 0/1,
 * --validate 0/1/2, --check 0/1; a usage error is 2.
 */
#ifndef GPT_CLI_H
#define GPT_CLI_H

#include <stdio.h>

#include "base/common.h"

struct arena;
struct buf;

#define CLI_INPUT_MAX ((size_t)256 * 1024 * 1024) /* a file or stdin */

/* Run the command named by argv[1].  Returns the exit status. */
int cli_main(int argc, char **argv);

/*
 * Read all of path (stdin when path is NULL or "-") into out, at most
 * buf_max(out) bytes (file_read_fd: any kind of file, links followed).
 * 0, or -1 with the reason on stderr.
 */
int cli_slurp(const char *path, struct buf *out) GPT_MUSTCHECK;

/* One function per command; argv[0] is the flag itself. */
int cli_parse(int argc, char **argv);
int cli_validate(int argc, char **argv);
int cli_check(int argc, char **argv);
int cli_compile(int argc, char **argv); /* cli_compile.c */
/* What --check says of dir's precomputed representation, one line to f
 * (cli_compile.c). */
void cli_compile_report(const char *dir, FILE *f);
int cli_bundle(int argc, char **argv);
int cli_unroll(int argc, char **argv);        /* cli_unroll.c */
int cli_sample(int argc, char **argv);        /* cli_sample.c */
int cli_strict_openai(int argc, char **argv); /* cli_strict.c */
int cli_graph(int argc, char **argv);         /* cli_graph.c */

struct addr;
struct report;
/* --check ROOT, a directory of addresses (no form.json of its own): every
 * address loaded, broken links refused, addresses nothing links to and
 * link cycles as info; the graph's JSON with json (cli_graph.c).  0, or 1
 * on a refusal. */
int cli_check_root(const char *root, bool json);
/* Into r, for --check DIR: each relative link of a (loaded from dir)
 * that lands under the root but names no address that loads, refused
 * with its pointer (cli_graph.c). */
void cli_links_report(const char *dir, const struct addr *a, struct report *r);
int cli_init(int argc, char **argv); /* cli_init.c */

/*
 * The form document (compact JSON, into form) of the OpenAPI 3.x
 * operation id's JSON request body in the document at path, with the
 * components it reaches carried (cli_openapi.c); the OpenAPI keywords it
 * uses that judge nothing, space-separated, into annotations.  text and a
 * hold the document.  0, or -1 after a message on stderr.
 */
int cli_openapi_form(const char *path, const char *id, struct arena *a,
    struct buf *text, struct buf *form, struct buf *annotations) GPT_MUSTCHECK;

#endif /* GPT_CLI_H */
