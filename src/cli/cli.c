/*
 * cli.c: dispatch of the command line and the commands that need nothing
 * but the parser.  Commands print results to stdout, diagnostics to stderr.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "base/arena.h"
#include "base/buf.h"
#include "cli/cli.h"
#include "base/file.h"
#include "parser/json.h"
#include "config.h"

static const char cli_usage[] =
    "usage: gpt.fcgi                      serve (CGI or FastCGI, told apart"
    " automatically)\n"
    "       gpt.fcgi --check [--json] DIR report on an address; 0 it loads,"
    " 1 refused\n"
    "                                     (a DIR with no form.json is a root:"
    " its\n"
    "                                     addresses and their links)\n"
    "       gpt.fcgi --graph [--json|--dot|--svg] ROOT\n"
    "                                     the addresses under ROOT and their"
    " links\n"
    "       gpt.fcgi --compile DIR        write DIR/form.compiled, the "
    "answers CGI serves\n"
    "                                     without loading the form\n"
    "       gpt.fcgi --validate DIR-or-SCHEMA.json [BODY-FILE]\n"
    "                                     0 accepted, 1 rejected, 2 schema "
    "refused\n"
    "       gpt.fcgi --bundle SCHEMA.json print the form with its references"
    " embedded\n"
    "       gpt.fcgi --parse [FILE]       strict JSON parse; 0 ok, 1 "
    "rejected\n"
    "       gpt.fcgi --unroll N SCHEMA    the form with its recursion "
    "bounded to N levels\n"
    "       gpt.fcgi --sample [--count K] [--seed S] SCHEMA\n"
    "                                     values the form accepts\n"
    "       gpt.fcgi --strict-openai SCHEMA  the form for OpenAI strict "
    "mode, or why not\n"
    "         (--validate, --bundle, --unroll, --sample and --strict-openai"
    " take\n"
    "          --dialect NAME, --refs URI-PREFIX=DIR (repeatable) and\n"
    "          --annotations NAME,... before a SCHEMA.json; a DIR is "
    "loaded\n"
    "          as the server loads it, with its address.conf)\n"
    "       gpt.fcgi --init DIR [--schema FILE|-] [--hook python|sh]\n"
    "       gpt.fcgi --init DIR --from-openapi FILE OPERATION-ID\n"
    "                                     a new address, then --check\n"
    "       gpt.fcgi --version | --help\n";

static int
cli_version(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	printf("%s %s\n", PACKAGE_NAME, PACKAGE_VERSION);
	return 0;
}

static int
cli_help(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fputs(cli_usage, stdout);
	return 0;
}

struct cli_cmd {
	const char *flag;
	int (*run)(int argc, char **argv);
};

static const struct cli_cmd cli_cmds[] = {
    {"--version", cli_version},
    {"--help", cli_help},
    {"--parse", cli_parse},
    {"--validate", cli_validate},
    {"--check", cli_check},
    {"--compile", cli_compile},
    {"--bundle", cli_bundle},
    {"--unroll", cli_unroll},
    {"--sample", cli_sample},
    {"--strict-openai", cli_strict_openai},
    {"--graph", cli_graph},
    {"--init", cli_init},
};

int
cli_main(int argc, char **argv)
{
	size_t i;

	if (argc >= 2) {
		for (i = 0; i < GPT_ARRAY_LEN(cli_cmds); i++)
			if (strcmp(argv[1], cli_cmds[i].flag) == 0)
				return cli_cmds[i].run(argc - 1, argv + 1);
		fprintf(stderr, "gpt.fcgi: unknown option: %s\n", argv[1]);
	} else
		fputs("gpt.fcgi: no CGI request (GATEWAY_INTERFACE, "
		      "REQUEST_METHOD) and no FastCGI socket on standard "
		      "input: a web server runs it, or an operator with one of "
		      "these:\n",
		    stderr);
	fputs(cli_usage, stderr);
	return 2;
}

int
cli_slurp(const char *path, struct buf *out)
{
	char why[FILE_WHY_MAX];
	int fd = STDIN_FILENO, rc;

	if (path == NULL || strcmp(path, "-") == 0)
		path = "standard input";
	/* The operator names the file: a symbolic link (the test data has
	 * some) or a pipe (`<(...)`) is theirs to give, unlike the files an
	 * address is served from. */
	else if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1) {
		fprintf(stderr, "gpt.fcgi: %s: %s\n", path, strerror(errno));
		return -1;
	}
	if ((rc = file_read_fd(fd, out, why, sizeof(why))) == -1)
		fprintf(stderr, "gpt.fcgi: %s: %s\n", path, why);
	if (fd != STDIN_FILENO)
		close(fd);
	return rc;
}

/*
 * --parse [FILE]: the strict parser alone, on FILE or stdin.  0 accepted
 * (nothing printed), 1 rejected ("gpt.fcgi: offset N: reason" on stderr),
 * 2 for a usage error or an unreadable input.
 */
int
cli_parse(int argc, char **argv)
{
	const struct json_value *v;
	struct json_err err;
	struct arena a;
	struct buf in;
	int rc = 2;

	(void)argv;
	if (argc > 2) {
		fputs(cli_usage, stderr);
		return 2;
	}
	buf_init(&in, CLI_INPUT_MAX);
	/* The tree of a large input takes several times its size; the arena
	 * needs no cap of its own here, malloc is the limit. */
	arena_init(&a, SIZE_MAX);
	if (cli_slurp(argc == 2 ? argv[1] : NULL, &in) == -1)
		goto done;
	if (json_parse(buf_ptr(&in), buf_len(&in), &a, 0, &v, &err) !=
	    JSON_OK) {
		fprintf(
		    stderr, "gpt.fcgi: offset %zu: %s\n", err.offset, err.msg);
		rc = 1;
		goto done;
	}
	rc = 0;
done:
	arena_free(&a);
	buf_free(&in);
	return rc;
}
