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
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "address.h"
#include "arena.h"
#include "buf.h"
#include "cli.h"
#include "jptr.h"
#include "json.h"
#include "schema.h"
#include "schema_load.h"

/* Keyword names --annotations may declare. */
#define CLI_ANNOTATIONS_MAX 64

struct cli_schema_opts {
	struct schema_opts o;
	struct schema_refs refs;
	const char *ann[CLI_ANNOTATIONS_MAX];
	char ann_buf[4096];
};

/* Memory for one run: everything is freed at exit of the command. */
#define CLI_ARENA_CAP (SIZE_MAX / 4)

/* The pointer's len bytes (a member name may hold U+0000 or a newline),
 * with control characters as '?', so a form or body cannot forge lines. */
static void
print_pointer(const struct jptr *p)
{
	size_t i;

	for (i = 0; i < p->len; i++)
		fputc(gpt_is_control((unsigned char)p->buf[i]) ? '?' : p->buf[i],
		    stderr);
}

static void
print_warning(void *ctx, const char *pointer, const char *message)
{
	struct jptr p;

	(void)ctx;
	jptr_init(&p);
	p.len = strlen(pointer) < sizeof(p.buf) ? strlen(pointer)
	                                        : sizeof(p.buf) - 1;
	memcpy(p.buf, pointer, p.len);
	fputs("gpt.fcgi: warning: schema at ", stderr);
	print_pointer(&p);
	fprintf(stderr, ": %s\n", message);
}

/* Read and strict-parse path (stdin when NULL).  0, or -1 when it cannot
 * be read, -2 when it does not parse (both reported on stderr). */
static int
load_json(const char *path, struct buf *b, struct arena *a,
    const struct json_value **out, const char *what)
{
	struct json_err jerr;

	if (cli_slurp(path, b) == -1)
		return -1;
	if (json_parse(buf_ptr(b), buf_len(b), a, 0, out, &jerr) != JSON_OK) {
		fprintf(stderr, "gpt.fcgi: %s %s: offset %zu: %s\n", what,
		    path == NULL ? "(standard input)" : path, jerr.offset,
		    jerr.msg != NULL ? jerr.msg : json_errstr(jerr.code));
		return -2;
	}
	return 0;
}

/*
 * Read the options at argv[1..] into co; the index of the first argument
 * that is not an option, or -1 after a usage message.
 */
static int
read_opts(int argc, char **argv, struct cli_schema_opts *co)
{
	int i;

	memset(co, 0, sizeof(*co));
	co->o.dialect = -1;
	co->o.warn = print_warning;
	schema_refs_init(&co->refs);
	for (i = 1; i < argc && strncmp(argv[i], "--", 2) == 0; i += 2) {
		const char *arg = i + 1 < argc ? argv[i + 1] : NULL;

		if (arg == NULL)
			goto usage;
		if (strcmp(argv[i], "--dialect") == 0) {
			/* --dialect draft-3 */
			if ((co->o.dialect = schema_dialect_named(arg)) < 0) {
				fprintf(stderr,
				    "gpt.fcgi: unknown dialect %s (draft-04, "
				    "draft-06, draft-07, 2019-09, 2020-12, "
				    "v1)\n",
				    arg);
				return -1;
			}
		} else if (strcmp(argv[i], "--refs") == 0) {
			if (schema_refs_add(&co->refs, arg) == -1) {
				fprintf(stderr,
				    "gpt.fcgi: --refs wants URI-PREFIX=DIR "
				    "(at most %d)\n",
				    SCHEMA_REFS_MAX);
				return -1;
			}
			co->o.load = schema_refs_load;
			co->o.load_ctx = &co->refs;
		} else if (strcmp(argv[i], "--annotations") == 0) {
			char *p, *save = NULL;

			if (strlen(arg) >= sizeof(co->ann_buf))
				goto usage;
			strcpy(co->ann_buf, arg);
			for (p = strtok_r(co->ann_buf, ",", &save); p != NULL;
			     p = strtok_r(NULL, ",", &save)) {
				if (co->o.nannotations >= CLI_ANNOTATIONS_MAX)
					goto usage;
				co->ann[co->o.nannotations++] = p;
			}
			co->o.annotations = co->ann;
		} else {
			goto usage;
		}
	}
	return i;
usage:
	fputs("usage: gpt.fcgi --validate|--bundle [--dialect NAME] "
	      "[--refs URI-PREFIX=DIR]... [--annotations NAME,...] "
	      "DIR-or-SCHEMA.json [BODY-FILE]\n",
	    stderr);
	return -1;
}

/* Each problem of a refused form, one line each, in document order. */
static void
print_problems(const char *path, const struct schema_problems *ps)
{
	size_t i;

	for (i = 0; i < ps->count; i++) {
		fprintf(stderr, "gpt.fcgi: %s: schema refused at ", path);
		print_pointer(&ps->list[i].err.pointer);
		fprintf(stderr, ": %s\n", ps->list[i].err.reason);
	}
	if (ps->more > 0)
		fprintf(stderr, "gpt.fcgi: %s: and %zu more problems\n", path,
		    ps->more);
}

/*
 * DIR: load the address exactly as the responder does (address.h: its
 * address.conf, the arrival document, the form compiled with the
 * address's dialect, refs and annotations), so what is accepted here is
 * what the server serves.  0 and *a loaded, or -1 after printing every
 * problem (*a is then still to be freed).
 */
static int
load_address(const char *dir, struct addr *a, struct schema_problems *ps)
{
	if (addr_load_problems(dir, a, print_warning, NULL, ps) == 0)
		return 0;
	if (ps->count > 0) {
		char path[PATH_MAX + 16];

		snprintf(path, sizeof(path), "%s/form.json", dir);
		print_problems(path, ps);
	}
	/* not the form's (address.conf, the arrival document, the file), or
	 * after its problems the arena refused */
	if (ps->count == 0 || strstr(a->err, ps->list[0].err.reason) == NULL)
		fprintf(stderr, "gpt.fcgi: %s: refused: %s\n", dir, a->err);
	return -1;
}

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
	struct cli_schema_opts co;
	int first;
	struct arena form_arena, body_arena;
	struct buf schema_buf, body_buf;
	const struct json_value *doc, *body;
	const struct schema *form;
	struct schema_problems *problems;
	struct schema_err err;
	const char *schema_path;
	struct addr a;
	struct stat st;
	int status = 2;
	bool dir = false;

	memset(&a, 0, sizeof(a));
	arena_init(&form_arena, CLI_ARENA_CAP);
	arena_init(&body_arena, CLI_ARENA_CAP);
	buf_init(&schema_buf, CLI_INPUT_MAX);
	buf_init(&body_buf, CLI_INPUT_MAX);
	if ((problems = calloc(1, sizeof(*problems))) == NULL) {
		fprintf(stderr, "gpt.fcgi: out of memory\n");
		goto done;
	}
	if ((first = read_opts(argc, argv, &co)) < 0)
		goto done;
	argc -= first - 1;
	argv += first - 1;
	if (argc < 2 || argc > (bundle ? 2 : 3)) {
		fputs("usage: gpt.fcgi --validate|--bundle [--dialect NAME] "
		      "[--refs URI-PREFIX=DIR]... [--annotations NAME,...] "
		      "DIR-or-SCHEMA.json [BODY-FILE]\n",
		    stderr);
		goto done;
	}
	schema_path = argv[1];
	dir = stat(argv[1], &st) == 0 && S_ISDIR(st.st_mode);
	if (dir) {
		if (first > 1) {
			/* hits on --dialect draft-07 DIR: the address's own
			 * address.conf says that, as the server reads it */
			fprintf(stderr,
			    "gpt.fcgi: %s: an address takes its dialect, refs "
			    "and annotations from its address.conf, not from "
			    "options\n",
			    argv[1]);
			goto done;
		}
		if (load_address(argv[1], &a, problems) == -1)
			goto done;
		form = a.schema;
		doc = json_object_get(a.doc, "s", 1);
	} else {
		if (load_json(schema_path, &schema_buf, &form_arena, &doc,
		        "schema") != 0)
			goto done;
		co.o.problems = problems;
		switch (schema_compile_opts(
		    doc, &co.o, &form_arena, &form, &err)) {
		case SCHEMA_OK:
			break;
		case SCHEMA_NOMEM:
			fprintf(stderr, "gpt.fcgi: %s: out of memory\n",
			    schema_path);
			goto done;
		default:
			/* every problem, as --check prints them */
			if (problems->count > 0)
				print_problems(schema_path, problems);
			else {
				fprintf(stderr,
				    "gpt.fcgi: %s: schema refused at ",
				    schema_path);
				print_pointer(&err.pointer);
				fprintf(stderr, ": %s\n", err.reason);
			}
			goto done;
		}
	}

	if (bundle) {
		struct buf out;

		buf_init(&out, CLI_INPUT_MAX);
		/* an address's s is bundled already (what it serves) */
		if (json_write_pretty(dir ? doc : schema_bundle(form, &form_arena),
		        2, &out) == -1) {
			fprintf(stderr, "gpt.fcgi: out of memory\n");
			buf_free(&out);
			goto done;
		}
		fwrite(buf_ptr(&out), 1, buf_len(&out), stdout);
		fputc('\n', stdout);
		buf_free(&out);
		status = 0;
		goto done;
	}
	switch (load_json(argc == 3 ? argv[2] : NULL, &body_buf, &body_arena,
	    &body, "body")) {
	case 0:
		break;
	case -2:
		/* Not strict JSON: rejected, as an act's body would be. */
		status = 1;
		goto done;
	default:
		goto done; /* unreadable: an input error */
	}
	switch (schema_validate(form, body, &body_arena, &err)) {
	case SCHEMA_OK:
		status = 0;
		break;
	default:
		fputs("gpt.fcgi: rejected at ", stderr);
		print_pointer(&err.pointer);
		fprintf(stderr, ": %s%s%s%s\n",
		    err.keyword != NULL ? err.keyword : "limit",
		    err.reason[0] != '\0' ? " (" : "", err.reason,
		    err.reason[0] != '\0' ? ")" : "");
		status = 1;
		break;
	}
done:
	addr_free(&a);
	free(problems);
	buf_free(&body_buf);
	buf_free(&schema_buf);
	arena_free(&body_arena);
	arena_free(&form_arena);
	return status;
}
