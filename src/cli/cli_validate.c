/*
 * cli_validate.c: `gpt.fcgi --validate DIR-or-SCHEMA.json [BODY-FILE]`,
 * the validator on the command line, for operators and tests.
 *
 * The schema comes from a file, or from the address DIR loaded by the
 * responder's own loader (addr_load: address.conf, the arrival document,
 * the form compiled as the address says), so a form the server would
 * refuse is refused here too; the body from BODY-FILE or stdin.  A
 * refused form is reported with every problem the compiler found, in
 * document order, as --check does.
 * Both are read with the strict parser.  Exit status (the contract's):
 * 0 accepted; 1 rejected (the body does not parse, or fails the form:
 * stderr names the instance pointer and keyword); 2 the schema is
 * refused, or a usage or input error.  Schema pointers in messages are
 * relative to the schema (to `s` for an address).
 *
 * Options before the schema: --dialect NAME (the dialect when the form
 * has no $schema), --refs URI-PREFIX=DIR (repeatable: local copies of
 * referenced resources), --annotations NAME,... (keywords to accept as
 * annotations).  `--bundle [options] SCHEMA` prints the bundled form.
 */
#include <stdio.h>
#include <string.h>

#include "base/arena.h"
#include "base/buf.h"
#include "cli/cli.h"
#include "cli/cli_form.h"
#include "parser/jptr.h"
#include "parser/json.h"
#include "schema/schema.h"

/* Memory for the body: freed at exit of the command. */
#define CLI_ARENA_CAP (SIZE_MAX / 4)

static int run_validate(int argc, char **argv, bool bundle);

int
cli_validate(int argc, char **argv)
{
	return run_validate(argc, argv, false);
}

int
cli_bundle(int argc, char **argv)
{
	return run_validate(argc, argv, true);
}

static int
run_validate(int argc, char **argv, bool bundle)
{
	struct cli_form f;
	struct arena body_arena;
	struct buf body_buf;
	const struct json_value *body;
	struct schema_err err;
	int i = 1, status = 2;

	cli_form_init(&f);
	f.warnings = true;
	arena_init(&body_arena, CLI_ARENA_CAP);
	buf_init(&body_buf, CLI_INPUT_MAX);
	if (cli_form_opt(&f, argc, argv, &i) == -1)
		goto done;
	/* hits on "--validate --dialect" (no NAME), "--bundle --ref x s" */
	if (argc - i < 1 || argc - i > (bundle ? 1 : 2) ||
	    strncmp(argv[i], "--", 2) == 0) {
		fputs("usage: gpt.fcgi --validate|--bundle " CLI_FORM_OPTS_USAGE
		      " DIR-or-SCHEMA.json [BODY-FILE]\n",
		    stderr);
		goto done;
	}
	if (cli_form_load(&f, argv[i]) == -1)
		goto done;

	if (bundle) {
		/* an address's s is bundled already (what it serves) */
		const struct json_value *b = f.addr.schema != NULL
		                                 ? f.schema
		                                 : schema_bundle(f.form, &f.a);

		if (b == NULL) {
			fprintf(stderr, "gpt.fcgi: out of memory\n");
			goto done;
		}
		status = cli_form_print(b) == 0 ? 0 : 2;
		goto done;
	}
	switch (cli_form_read_json(argc - i == 2 ? argv[i + 1] : NULL,
	    &body_buf, &body_arena, &body, "body")) {
	case 0:
		break;
	case -2:
		/* Not strict JSON: rejected, as an act's body would be. */
		status = 1;
		goto done;
	default:
		goto done; /* unreadable: an input error */
	}
	switch (schema_validate(f.form, body, &body_arena, &err)) {
	case SCHEMA_OK:
		status = 0;
		break;
	default:
		fputs("gpt.fcgi: rejected at ", stderr);
		cli_form_put_where(&err.pointer);
		/* the operator's convention (doc/internals.md): at POINTER:
		 * KEYWORD: REASON, as --strict-openai and --unroll write */
		fprintf(stderr, ": %s%s%s\n",
		    err.keyword != NULL ? err.keyword : "",
		    err.keyword != NULL && err.reason[0] != '\0' ? ": " : "",
		    err.reason[0] != '\0' ? err.reason : "a limit");
		status = 1;
		break;
	}
done:
	buf_free(&body_buf);
	arena_free(&body_arena);
	cli_form_free(&f);
	return status;
}
