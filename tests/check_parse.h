/*
 * check_parse.h: parse a trusted test text (a form, a body, an expected
 * value written in a test) into an arena.  The test fails, naming the text
 * and the parser's reason, if it is not strict JSON.
 */
#ifndef GPT_CHECK_PARSE_H
#define GPT_CHECK_PARSE_H

#include <check.h>
#include <string.h>

#include "base/arena.h"
#include "base/common.h"
#include "parser/json.h"

/* depth: as json_parse's max_depth (0 for the default). */
GPT_UNUSED static const struct json_value *
test_parse(struct arena *a, const char *text, unsigned depth)
{
	const struct json_value *v = NULL;
	struct json_err e;

	ck_assert_msg(
	    json_parse(text, strlen(text), a, depth, &v, &e) == JSON_OK,
	    "test input does not parse (%s at %zu): %.200s", e.msg, e.offset,
	    text);
	return v;
}

#endif /* GPT_CHECK_PARSE_H */
