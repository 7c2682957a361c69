/*
 * cli_form.c: loading, compiling and printing a form for the operator
 * tools (cli_form.h).  The form is read with the strict parser and
 * compiled by schema_compile_opts, as an address loads it, so a tool
 * never works on a form the responder would refuse.
 */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "cli_form.h"
#include "json.h"
#include "schema.h"

/* Memory for one run: everything is freed when the command returns. */
#define CLI_FORM_ARENA_CAP (SIZE_MAX / 4)

void
cli_form_init(struct cli_form *f)
{
	memset(f, 0, sizeof(*f));
	arena_init(&f->a, CLI_FORM_ARENA_CAP);
	buf_init(&f->text, CLI_INPUT_MAX);
	f->dialect = -1;
}

int
cli_form_opt(struct cli_form *f, int argc, char **argv, int *i)
{
	while (*i + 1 < argc && strcmp(argv[*i], "--dialect") == 0) {
		/* --dialect draft-3 */
		if ((f->dialect = schema_dialect_named(argv[*i + 1])) < 0) {
			fprintf(stderr,
			    "gpt.fcgi: unknown dialect %s (draft-04, draft-06, "
			    "draft-07, 2019-09, 2020-12, v1)\n",
			    argv[*i + 1]);
			return -1;
		}
		*i += 2;
	}
	return 0;
}

int
cli_form_compile(struct cli_form *f, const struct json_value *v,
    void (*warn)(void *, const char *, const char *), void *warn_ctx,
    const struct schema **out, char *reason, size_t reasonlen)
{
	struct schema_opts o;
	struct schema_err err;

	memset(&o, 0, sizeof(o));
	o.dialect = f->dialect;
	o.warn = warn;
	o.warn_ctx = warn_ctx;
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
		for (char *p = reason; *p != '\0'; p++)
			if ((unsigned char)*p < 0x20 || *p == 0x7f)
				*p = '?';
		return -1;
	}
}

int
cli_form_load(struct cli_form *f, const char *path)
{
	const struct json_value *doc;
	struct json_err jerr;
	struct stat st;
	char reason[SCHEMA_REASON_MAX + JPTR_MAX + 32];

	f->path = path;
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
		/* an address: the responder's own loader (its address.conf,
		 * the arrival document, its dialect, refs and annotations),
		 * so a tool never works on a form the server answers 500 for */
		if (f->dialect >= 0) {
			fprintf(stderr,
			    "gpt.fcgi: %s: an address's dialect comes from its "
			    "address.conf; --dialect is for a schema file\n",
			    path);
			return -1;
		}
		if (addr_load(path, &f->addr, NULL, NULL) == -1) {
			fprintf(stderr, "gpt.fcgi: %s: refused: %s\n", path,
			    f->addr.err);
			return -1;
		}
		f->schema = json_object_get(f->addr.doc, "s", 1);
		f->form = f->addr.schema;
		return 0;
	}
	if (cli_slurp(path, &f->text) == -1)
		return -1;
	if (json_parse(buf_ptr(&f->text), buf_len(&f->text), &f->a, 0, &doc,
	        &jerr) != JSON_OK) {
		fprintf(stderr, "gpt.fcgi: %s: offset %zu: %s\n", path,
		    jerr.offset,
		    jerr.msg != NULL ? jerr.msg : json_errstr(jerr.code));
		return -1;
	}
	f->schema = doc;
	if (cli_form_compile(f, f->schema, NULL, NULL, &f->form, reason,
	        sizeof(reason)) == -1) {
		fprintf(stderr, "gpt.fcgi: %s: schema %s\n", path, reason);
		return -1;
	}
	return 0;
}

int
cli_form_print(const struct json_value *v)
{
	struct buf out;
	int rc = -1;

	buf_init(&out, CLI_INPUT_MAX);
	if (json_write_pretty(v, 2, &out) == 0 && buf_putc(&out, '\n') == 0 &&
	    fwrite(out.data, 1, out.len, stdout) == out.len)
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
