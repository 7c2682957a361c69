/*
 * cli_form.c: the options, loading, compiling and printing of a form for
 * the operator tools (cli_form.h).  The form is read with the strict
 * parser and compiled by schema_compile_opts, an address by addr_load, as
 * the responder loads them, so a tool never works on a form the
 * responder would refuse.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "cli/cli_form.h"
#include "parser/jptr.h"
#include "parser/json.h"

/* Memory for one run: everything is freed when the command returns. */
#define CLI_FORM_ARENA_CAP (SIZE_MAX / 4)

void
cli_form_init(struct cli_form *f)
{
	memset(f, 0, sizeof(*f));
	arena_init(&f->a, CLI_FORM_ARENA_CAP);
	buf_init(&f->text, CLI_INPUT_MAX);
	f->o.dialect = -1;
	schema_refs_init(&f->refs);
}

/* --annotations a,b: each name into f->ann.  0, or -1 (too many, too
 * long: hits on --annotations with 65 names). */
static int
cli_form_annotations(struct cli_form *f, const char *arg)
{
	char *p, *save = NULL;

	if (strlen(arg) >= sizeof(f->ann_buf))
		return -1;
	strcpy(f->ann_buf, arg);
	f->o.nannotations = 0;
	for (p = strtok_r(f->ann_buf, ",", &save); p != NULL;
	     p = strtok_r(NULL, ",", &save)) {
		if (f->o.nannotations >= CLI_FORM_ANNOTATIONS_MAX)
			return -1;
		f->ann[f->o.nannotations++] = p;
	}
	f->o.annotations = f->ann;
	return 0;
}

int
cli_form_opt(struct cli_form *f, int argc, char **argv, int *i)
{
	for (; *i + 1 < argc; *i += 2) {
		const char *opt = argv[*i], *arg = argv[*i + 1];

		if (strcmp(opt, "--dialect") == 0) {
			/* --dialect draft-3 */
			if ((f->o.dialect = schema_dialect_named(arg)) < 0) {
				fprintf(stderr,
				    "gpt.fcgi: unknown dialect %s (draft-04, "
				    "draft-06, draft-07, 2019-09, 2020-12, "
				    "v1)\n",
				    arg);
				return -1;
			}
		} else if (strcmp(opt, "--refs") == 0) {
			/* --refs https://example.com/ (no =DIR) */
			if (schema_refs_add(&f->refs, arg) == -1) {
				fprintf(stderr,
				    "gpt.fcgi: --refs wants URI-PREFIX=DIR "
				    "(at most %d)\n",
				    SCHEMA_REFS_MAX);
				return -1;
			}
			f->o.load = schema_refs_load;
			f->o.load_ctx = &f->refs;
		} else if (strcmp(opt, "--annotations") == 0) {
			if (cli_form_annotations(f, arg) == -1) {
				fprintf(stderr,
				    "gpt.fcgi: --annotations wants NAME,... "
				    "(at most %d names, %zu bytes)\n",
				    CLI_FORM_ANNOTATIONS_MAX,
				    sizeof(f->ann_buf) - 1);
				return -1;
			}
		} else {
			break;
		}
		f->opts = true;
	}
	return 0;
}

void
cli_form_put_pointer(const struct jptr *p)
{
	size_t i;

	for (i = 0; i < p->len; i++)
		fputc(
		    gpt_is_control((unsigned char)p->buf[i]) ? '?' : p->buf[i],
		    stderr);
}

void
cli_form_put_where(const struct jptr *p)
{
	cli_form_put_pointer(p);
	if (p->len == 0)
		fputs("the root", stderr);
}

static void
cli_form_warning(void *ctx, const char *pointer, const char *message)
{
	struct jptr p;

	(void)ctx;
	/* a keyword the dialect makes an annotation, an x- one, or one the
	 * operator declared is what the author meant: no warning (--check
	 * lists them, with where each is first used) */
	if (strstr(message, "\" is an annotation") != NULL)
		return;
	jptr_init(&p);
	p.len = strlen(pointer) < sizeof(p.buf) ? strlen(pointer)
	                                        : sizeof(p.buf) - 1;
	memcpy(p.buf, pointer, p.len);
	fputs("gpt.fcgi: warning: schema at ", stderr);
	cli_form_put_pointer(&p);
	fprintf(stderr, ": %s\n", message);
}

/* Each problem of a refused form, one line each, in document order. */
static void
cli_form_problems(const char *path, const struct schema_problems *ps)
{
	size_t i;

	for (i = 0; i < ps->count; i++) {
		fprintf(stderr, "gpt.fcgi: %s: schema refused at ", path);
		cli_form_put_pointer(&ps->list[i].err.pointer);
		fprintf(stderr, ": %s\n", ps->list[i].err.reason);
	}
	if (ps->more > 0)
		fprintf(stderr, "gpt.fcgi: %s: and %zu more problems\n", path,
		    ps->more);
}

int
cli_form_read_json(const char *path, struct buf *b, struct arena *a,
    const struct json_value **out, const char *what)
{
	struct json_err jerr;

	if (cli_slurp(path, b) == -1)
		return -1;
	if (json_parse(buf_ptr(b), buf_len(b), a, 0, out, &jerr) != JSON_OK) {
		size_t line, col;

		json_line_col(buf_ptr(b), buf_len(b), jerr.offset, &line, &col);
		fprintf(stderr,
		    "gpt.fcgi: %s %s: line %zu, column %zu (offset %zu): %s\n",
		    what, path == NULL ? "(standard input)" : path, line, col,
		    jerr.offset,
		    jerr.msg != NULL ? jerr.msg : json_errstr(jerr.code));
		return -2;
	}
	return 0;
}

int
cli_form_compile(struct cli_form *f, const struct json_value *v,
    void (*warn)(void *, const char *, const char *), void *warn_ctx,
    const struct schema **out, char *reason, size_t reasonlen)
{
	struct schema_opts o = f->o;
	struct schema_err err;

	o.warn = warn;
	o.warn_ctx = warn_ctx;
	o.problems = NULL;
	switch (schema_compile_opts(v, &o, &f->a, out, &err)) {
	case SCHEMA_OK:
		return 0;
	case SCHEMA_NOMEM:
		snprintf(reason, reasonlen, "out of memory");
		return -1;
	default:
		/* the pointer may hold any byte: keep it printable */
		snprintf(reason, reasonlen, "refused at %.*s: %s",
		    (int)err.pointer.len, err.pointer.buf, err.reason);
		gpt_mask_controls(reason, strlen(reason));
		return -1;
	}
}

/*
 * DIR: the address exactly as the responder loads it (address.h: its
 * address.conf, the arrival document, the form compiled with the
 * address's dialect, refs and annotations), so what a tool takes is what
 * the server serves.  0, or -1 after printing every problem.
 */
static int
cli_form_address(
    struct cli_form *f, const char *dir, struct schema_problems *ps)
{
	char path[PATH_MAX + 16];

	if (f->opts) {
		/* hits on --dialect draft-07 DIR: the address's own
		 * address.conf says that, as the server reads it */
		fprintf(stderr,
		    "gpt.fcgi: %s: an address takes its dialect, refs and "
		    "annotations from its address.conf, not from options\n",
		    dir);
		return -1;
	}
	if (addr_load_problems(dir, &f->addr,
	        f->warnings ? cli_form_warning : NULL, NULL, ps) == 0) {
		f->schema = json_object_get(f->addr.doc, "s", 1);
		f->form = f->addr.schema;
		return 0;
	}
	if (ps->count > 0) {
		snprintf(path, sizeof(path), "%s/form.json", dir);
		cli_form_problems(path, ps);
	}
	/* not the form's (address.conf, the arrival document, the file), or
	 * after its problems the arena refused */
	if (ps->count == 0 ||
	    strstr(f->addr.err, ps->list[0].err.reason) == NULL)
		fprintf(
		    stderr, "gpt.fcgi: %s: refused: %s\n", dir, f->addr.err);
	return -1;
}

/* "file://" and the real path of the file at path, in f's arena, or NULL
 * (no such file, or a path with a byte a URI path does not take as
 * itself: a space, "%", "#", "?", beyond ASCII). */
static const char *
cli_form_file_uri(struct cli_form *f, const char *path)
{
	char real[PATH_MAX], *uri;
	size_t i, n;

	if (path == NULL || realpath(path, real) == NULL)
		return NULL;
	for (i = 0; real[i] != '\0'; i++) {
		unsigned char c = (unsigned char)real[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		        (c >= '0' && c <= '9') ||
		        strchr("-._~/!$&'()*+,;=:@", c) != NULL))
			return NULL;
	}
	n = strlen(real) + 8;
	if ((uri = arena_alloc(&f->a, n)) == NULL)
		return NULL;
	snprintf(uri, n, "file://%s", real);
	return uri;
}

/* A schema file, compiled with f's options.  0, or -1 after printing
 * every problem. */
static int
cli_form_file(struct cli_form *f, const char *path, struct schema_problems *ps)
{
	struct schema_opts o = f->o;
	struct schema_err err;

	if (cli_form_read_json(path, &f->text, &f->a, &f->schema, "schema") !=
	    0)
		return -1;
	/* the file's location is its base URI: its relative references and
	 * a relative $id resolve against it, and read the files named */
	if ((o.base_uri = cli_form_file_uri(f, path)) != NULL &&
	    schema_refs_files(&f->refs) == 0) {
		o.load = schema_refs_load;
		o.load_ctx = &f->refs;
	}
	o.warn = f->warnings ? cli_form_warning : NULL;
	o.warn_ctx = NULL;
	o.problems = ps;
	switch (schema_compile_opts(f->schema, &o, &f->a, &f->form, &err)) {
	case SCHEMA_OK:
		return 0;
	case SCHEMA_NOMEM:
		fprintf(stderr, "gpt.fcgi: %s: out of memory\n", path);
		return -1;
	default:
		/* every problem, as --check prints them */
		if (ps->count > 0) {
			cli_form_problems(path, ps);
		} else {
			fprintf(
			    stderr, "gpt.fcgi: %s: schema refused at ", path);
			cli_form_put_pointer(&err.pointer);
			fprintf(stderr, ": %s\n", err.reason);
		}
		return -1;
	}
}

int
cli_form_load(struct cli_form *f, const char *path)
{
	struct schema_problems *ps;
	struct stat st;
	int rc;

	f->path = path;
	if ((ps = calloc(1, sizeof(*ps))) == NULL) {
		fprintf(stderr, "gpt.fcgi: out of memory\n");
		return -1;
	}
	schema_problems_init(ps);
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
		rc = cli_form_address(f, path, ps);
	else
		rc = cli_form_file(f, path, ps);
	free(ps);
	return rc;
}

int
cli_form_print(const struct json_value *v)
{
	struct buf out;
	int rc = -1;

	buf_init(&out, CLI_INPUT_MAX);
	if (json_write_pretty(v, 2, &out) == 0 && buf_putc(&out, '\n') == 0 &&
	    fwrite(buf_ptr(&out), 1, buf_len(&out), stdout) == buf_len(&out))
		rc = 0;
	else
		fprintf(stderr, "gpt.fcgi: cannot print the result\n");
	buf_free(&out);
	return rc;
}

void
cli_form_free(struct cli_form *f)
{
	buf_free(&f->text);
	arena_free(&f->a);
	addr_free(&f->addr);
}
