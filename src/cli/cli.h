/*
 * cli.h: the operator's command line (--check, --validate, --parse,
 * --version, --help).  Each command returns the process exit status; only
 * main() calls exit.  Statuses follow the contract: --parse 0/1,
 * --validate 0/1/2, --check 0/1; a usage error is 2.
 */
#ifndef GPT_CLI_H
#define GPT_CLI_H

#include "base/common.h"

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
int cli_bundle(int argc, char **argv);
int cli_unroll(int argc, char **argv); /* cli_unroll.c */
int cli_sample(int argc, char **argv); /* cli_sample.c */
int cli_strict_openai(int argc, char **argv); /* cli_strict.c */

#endif /* GPT_CLI_H */
