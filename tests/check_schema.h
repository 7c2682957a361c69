/*
 * check_schema.h: helpers shared by the schema test programs.  Each takes
 * schema and instance as JSON text, so a table row reads like the form and
 * body it stands for, and each failure message prints them.
 */
#ifndef GPT_CHECK_SCHEMA_H
#define GPT_CHECK_SCHEMA_H

#include <stdio.h>
#include <string.h>

#include "base/arena.h"
#include "check_main.h"
#include "check_parse.h"
#include "parser/json.h"
#include "schema/schema.h"

/* Deep enough for the depth-limit tests' bodies and forms. */
#define TEST_PARSE_DEPTH 4000

struct warnings {
	int count;
	char last[256];
};

static void
collect_warning(void *ctx, const char *pointer, const char *message)
{
	struct warnings *w = ctx;

	w->count++;
	snprintf(w->last, sizeof(w->last), "%s: %s", pointer, message);
}

static const struct json_value *
parse_text(struct arena *a, const char *text)
{
	return test_parse(a, text, TEST_PARSE_DEPTH);
}

/* Compile schema, which must be accepted.  The form lives in a. */
static const struct schema *
compile_text(struct arena *a, const char *schema, struct warnings *w)
{
	const struct schema *s = NULL;
	struct schema_err err;
	enum schema_result r;

	r = schema_compile(parse_text(a, schema), a,
	    w != NULL ? collect_warning : NULL, w, &s, &err);
	ck_assert_msg(r == SCHEMA_OK, "schema %.200s refused at \"%s\": %s",
	    schema, err.pointer.buf, err.reason);
	return s;
}

/* Validate instance against schema; the result and the error record. */
GPT_UNUSED static enum schema_result
run_validate(const char *schema, const char *instance, struct schema_err *err)
{
	struct arena form, req;
	enum schema_result r;

	arena_init(&form, 64 << 20);
	arena_init(&req, 256 << 20);
	memset(err, 0, sizeof(*err));
	r = schema_validate(compile_text(&form, schema, NULL),
	    parse_text(&req, instance), &req, err);
	arena_free(&req);
	arena_free(&form);
	return r;
}

GPT_UNUSED static void
expect_valid(const char *schema, const char *instance)
{
	struct schema_err err;
	enum schema_result r = run_validate(schema, instance, &err);

	ck_assert_msg(r == SCHEMA_OK,
	    "%.200s against %.200s: rejected (%d) at \"%s\" by %s (%s)",
	    instance, schema, (int)r, err.pointer.buf,
	    err.keyword ? err.keyword : "-", err.reason);
}

/* Rejected by keyword at pointer (the instance's JSON Pointer). */
GPT_UNUSED static void
expect_invalid(const char *schema, const char *instance, const char *keyword,
    const char *pointer)
{
	struct schema_err err;
	enum schema_result r = run_validate(schema, instance, &err);

	ck_assert_msg(r == SCHEMA_INVALID,
	    "%.200s against %.200s: result %d, expected rejection by %s",
	    instance, schema, (int)r, keyword);
	ck_assert_msg(err.keyword != NULL && strcmp(err.keyword, keyword) == 0,
	    "%.200s against %.200s: rejected by %s, expected %s", instance,
	    schema, err.keyword ? err.keyword : "(null)", keyword);
	ck_assert_msg(strcmp(err.pointer.buf, pointer) == 0,
	    "%.200s against %.200s: rejected at \"%s\", expected \"%s\"",
	    instance, schema, err.pointer.buf, pointer);
}

/* Refused at compile time, at schema pointer, with reason containing
 * `reason`. */
GPT_UNUSED static void
expect_refused(const char *schema, const char *pointer, const char *reason)
{
	struct arena a;
	const struct schema *s = NULL;
	struct schema_err err;
	enum schema_result r;

	arena_init(&a, 64 << 20);
	memset(&err, 0, sizeof(err));
	r = schema_compile(parse_text(&a, schema), &a, NULL, NULL, &s, &err);
	ck_assert_msg(r == SCHEMA_REFUSED,
	    "schema %.200s: result %d, "
	    "expected refusal",
	    schema, (int)r);
	ck_assert_ptr_null(s);
	ck_assert_msg(strcmp(err.pointer.buf, pointer) == 0,
	    "schema %.200s refused at \"%s\", expected \"%s\" (%s)", schema,
	    err.pointer.buf, pointer, err.reason);
	ck_assert_msg(strstr(err.reason, reason) != NULL,
	    "schema %.200s refused for \"%s\", expected \"%s\"", schema,
	    err.reason, reason);
	arena_free(&a);
}

/* A table row: instance against schema; keyword NULL means accepted. */
struct vcase {
	const char *schema;
	const char *instance;
	const char *keyword;
	const char *pointer;
};

GPT_UNUSED static void
run_vcases(const struct vcase *t, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (t[i].keyword == NULL)
			expect_valid(t[i].schema, t[i].instance);
		else
			expect_invalid(t[i].schema, t[i].instance, t[i].keyword,
			    t[i].pointer);
	}
}

#define RUN_VCASES(t) run_vcases((t), GPT_ARRAY_LEN(t))

#endif /* GPT_CHECK_SCHEMA_H */
