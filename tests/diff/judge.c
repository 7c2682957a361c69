/*
 * judge.c: the validator's side of the differential run (tests/diff/).
 * It reads a stream of lines, each a tag, a space and one JSON text, and
 * answers each line with one line, in order:
 *
 *   D <name>       the default dialect from now on (draft-04 ... v1, as
 *                  an address's dialect or --dialect sets it): the one a
 *                  schema without $schema is read in; "ok", or "refused
 *                  dialect" for an unknown name.  Before any D line a
 *                  schema without $schema is 2020-12.
 *   S <schema>     compile it (the current schema from now on), the way a
 *                  form is compiled: "ok", or "refused <pointer>: <why>"
 *   I <instance>   validate it against the current schema: "1" accepted,
 *                  "0 <pointer>: <keyword>" rejected, "L <pointer>" a
 *                  limit was hit (rejected, fail closed), "P" it does not
 *                  parse, "-" no schema compiled
 *
 * The name after D is a bare word, not a JSON text.  Every text goes through
 * the strict parser, as an act's body does, so numbers keep the decimals
 * written.  One process judges thousands of pairs: the harness (diff.mjs) pipes
 * whole batches through it.  Exit 0 at end of input, 2 on a malformed line or a
 * failure to allocate.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "base/arena.h"
#include "parser/jptr.h"
#include "parser/json.h"
#include "schema/schema.h"

/* Inputs are the harness's own, small; the arenas only bound runaway. */
#define JUDGE_ARENA_CAP ((size_t)1 << 30)

/* The pointer's bytes with controls as '?', so one answer is one line. */
static void
judge_pointer(const struct jptr *p)
{
	size_t i;

	for (i = 0; i < p->len; i++)
		putchar((unsigned char)p->buf[i] < 0x20 || p->buf[i] == 0x7f
		            ? '?'
		            : p->buf[i]);
}

/* "D draft-07": the dialect a schema without $schema is read in. */
static int
judge_dialect(const char *name, size_t len, int *dialect)
{
	char buf[32];
	int d;

	if (len >= sizeof(buf)) {
		puts("refused dialect");
		return 0;
	}
	memcpy(buf, name, len);
	buf[len] = '\0';
	if ((d = schema_dialect_named(buf)) < 0) {
		puts("refused dialect");
		return 0;
	}
	*dialect = d;
	puts("ok");
	return 0;
}

static int
judge_schema(const char *text, size_t len, int dialect, struct arena *fa,
    const struct schema **form)
{
	struct schema_opts o;
	const struct json_value *doc;
	struct json_err jerr;
	struct schema_err err;

	arena_reset(fa);
	*form = NULL;
	/* The tree borrows its strings from the text, and the form outlives
	 * the line buffer: keep a copy beside it. */
	if ((text = arena_strndup(fa, text, len)) == NULL)
		return -1;
	if (json_parse(text, len, fa, 0, &doc, &jerr) != JSON_OK) {
		printf("refused (parse) offset %zu: %s\n", jerr.offset,
		    jerr.msg != NULL ? jerr.msg : json_errstr(jerr.code));
		return 0;
	}
	memset(&o, 0, sizeof(o));
	o.dialect = dialect;
	switch (schema_compile_opts(doc, &o, fa, form, &err)) {
	case SCHEMA_OK:
		puts("ok");
		return 0;
	case SCHEMA_NOMEM:
		return -1;
	default:
		*form = NULL;
		fputs("refused ", stdout);
		judge_pointer(&err.pointer);
		printf(": %s\n", err.reason);
		return 0;
	}
}

static int
judge_instance(
    const char *text, size_t len, struct arena *ia, const struct schema *form)
{
	const struct json_value *v;
	struct json_err jerr;
	struct schema_err err;
	enum schema_result r;

	if (form == NULL) {
		puts("-");
		return 0;
	}
	arena_reset(ia);
	if (json_parse(text, len, ia, 0, &v, &jerr) != JSON_OK) {
		puts("P");
		return 0;
	}
	memset(&err, 0, sizeof(err));
	r = schema_validate(form, v, ia, &err);
	switch (r) {
	case SCHEMA_OK:
		puts("1");
		return 0;
	case SCHEMA_INVALID:
		fputs("0 ", stdout);
		judge_pointer(&err.pointer);
		printf(": %s\n", err.keyword != NULL ? err.keyword : "?");
		return 0;
	case SCHEMA_LIMIT:
		fputs("L ", stdout);
		judge_pointer(&err.pointer);
		putchar('\n');
		return 0;
	default:
		return -1;
	}
}

int
main(void)
{
	struct arena fa, ia;
	const struct schema *form = NULL;
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	int dialect = -1;
	int rc = 0;

	arena_init(&fa, JUDGE_ARENA_CAP);
	arena_init(&ia, JUDGE_ARENA_CAP);
	while (rc == 0 && (n = getline(&line, &cap, stdin)) != -1) {
		size_t len = (size_t)n;

		if (len > 0 && line[len - 1] == '\n')
			len--;
		/* "X <json>": anything shorter is not a line of ours */
		if (len < 3 || line[1] != ' ') {
			fprintf(stderr, "judge: malformed line\n");
			rc = 2;
			break;
		}
		if (line[0] == 'D')
			rc = judge_dialect(line + 2, len - 2, &dialect);
		else if (line[0] == 'S')
			rc = judge_schema(
			    line + 2, len - 2, dialect, &fa, &form);
		else if (line[0] == 'I')
			rc = judge_instance(line + 2, len - 2, &ia, form);
		else {
			fprintf(stderr, "judge: unknown tag '%c'\n", line[0]);
			rc = 2;
		}
		if (rc == -1) {
			fprintf(stderr, "judge: out of memory\n");
			rc = 2;
		}
	}
	free(line);
	arena_free(&ia);
	arena_free(&fa);
	if (fflush(stdout) == EOF)
		rc = 2;
	return rc;
}
