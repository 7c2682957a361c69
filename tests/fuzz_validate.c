/*
 * fuzz_validate.c: libFuzzer target for the form compiler and validator.
 *
 * An input is split at its first NUL byte: the bytes before are a schema,
 * the bytes after an instance (with no NUL, the schema is validated
 * against itself).  Both go through the strict parser; a schema that
 * compiles is applied to the instance twice, and the two answers must
 * agree (the first failure is deterministic).  Small arena caps make the
 * NOMEM paths run.  Checked invariants, any violation aborts: a refusal
 * carries a reason; a rejection carries a keyword, or is a limit; the
 * reported pointers end within their buffer.
 *
 * Build: configure --enable-fuzz CC=clang; run: tests/fuzz_validate
 * CORPUS (seeds in tests/data/fuzz-validate/).
 */
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "parser/json.h"
#include "schema/schema.h"

#define FUZZ_FORM_CAP ((size_t)4 << 20)
#define FUZZ_REQ_CAP ((size_t)1 << 20)
#define FUZZ_DEPTH 64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
check_err(const struct schema_err *e)
{
	/* A member name may hold U+0000: the pointer is len bytes, then NUL */
	if (e->pointer.len >= sizeof(e->pointer.buf) ||
	    e->pointer.buf[e->pointer.len] != '\0' ||
	    memchr(e->reason, '\0', sizeof(e->reason)) == NULL)
		abort();
}

static void
warn_ignore(void *ctx, const char *pointer, const char *message)
{
	(void)ctx;
	if (pointer == NULL || message == NULL)
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct arena form, req;
	const struct json_value *schema = NULL, *inst = NULL;
	const struct schema *s = NULL;
	struct schema_err e1, e2;
	struct schema_opts opts;
	struct json_err jerr;
	enum schema_result r1, r2;
	const uint8_t *nul = memchr(data, '\0', size);
	size_t slen = nul != NULL ? (size_t)(nul - data) : size;
	char *copy = malloc(size ? size : 1);

	if (copy == NULL)
		return 0;
	if (size > 0)
		memcpy(copy, data, size);
	arena_init(&form, FUZZ_FORM_CAP);
	arena_init(&req, FUZZ_REQ_CAP);
	if (json_parse(copy, slen, &form, FUZZ_DEPTH, &schema, &jerr) !=
	    JSON_OK)
		goto done;
	memset(&e1, 0, sizeof(e1));
	/* every dialect as the default, chosen by the input's length */
	memset(&opts, 0, sizeof(opts));
	opts.dialect = (int)(size % 7) - 1;
	opts.warn = warn_ignore;
	r1 = schema_compile_opts(schema, &opts, &form, &s, &e1);
	if (r1 != SCHEMA_OK) {
		if (s != NULL || (r1 != SCHEMA_REFUSED && r1 != SCHEMA_NOMEM) ||
		    e1.reason[0] == '\0')
			abort();
		check_err(&e1);
		goto done;
	}
	if (s == NULL)
		abort();
	if (nul == NULL)
		inst = schema;
	else if (json_parse(copy + slen + 1, size - slen - 1, &req, FUZZ_DEPTH,
	             &inst, &jerr) != JSON_OK)
		goto done;
	memset(&e1, 0, sizeof(e1));
	memset(&e2, 0, sizeof(e2));
	r1 = schema_validate(s, inst, &req, &e1);
	r2 = schema_validate(s, inst, &req, &e2);
	if (r1 != r2)
		abort();
	if (r1 != SCHEMA_OK) {
		if (r1 != SCHEMA_INVALID && r1 != SCHEMA_LIMIT &&
		    r1 != SCHEMA_NOMEM)
			abort();
		if (r1 == SCHEMA_INVALID && e1.keyword == NULL)
			abort();
		check_err(&e1);
		if (strcmp(e1.pointer.buf, e2.pointer.buf) != 0 ||
		    (e1.keyword != NULL) != (e2.keyword != NULL) ||
		    (e1.keyword != NULL && strcmp(e1.keyword, e2.keyword) != 0))
			abort();
	}
done:
	arena_free(&req);
	arena_free(&form);
	free(copy);
	return 0;
}
