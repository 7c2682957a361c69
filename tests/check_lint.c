/*
 * check_lint.c: each rule of the form's lint firing on a form that breaks
 * the draft's advice, and silent on the form that follows it; the hook
 * checks on real files.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check_schema.h"
#include "tools/lint.h"
#include "tools/report.h"

/* Lint schema (served as its own text); the report's problems. */
static void
lint_text(const char *schema, const char *served, struct report *r)
{
	struct arena a, scratch;
	struct lint_facts f;
	const struct schema *s;

	arena_init(&a, 16 << 20);
	arena_init(&scratch, 16 << 20);
	s = compile_text(&a, schema, NULL);
	report_init(r, "form");
	ck_assert_int_eq(lint_facts(s, served != NULL ? served : schema,
	                     strlen(served != NULL ? served : schema), &f),
	    0);
	lint_check(&f, &scratch, r);
	lint_facts_free(&f);
	arena_free(&scratch);
	arena_free(&a);
}

/* The problem of rule in r, or NULL. */
static const struct report_problem *
find_rule(const struct report *r, const char *rule)
{
	size_t i;

	for (i = 0; i < r->count; i++)
		if (strcmp(r->problems[i].rule, rule) == 0)
			return &r->problems[i];
	return NULL;
}

struct lint_case {
	const char *schema;
	const char *rule;
	bool fires;
	const char *pointer; /* where it fires, or NULL */
	const char *says;    /* words of the reason, or NULL */
};

#define CLOSED "\"additionalProperties\": false"

static const struct lint_case lint_cases[] = {
    /* oneof: disjoint branches get "anyOf is equivalent" */
    {"{\"oneOf\": [{\"type\": \"string\", \"maxLength\": 3}, "
     "{\"type\": \"integer\"}]}",
        "oneof", true, "", "provably disjoint (disjoint types)"},
    {"{\"oneOf\": [{\"type\": \"object\", " CLOSED ", \"required\": "
     "[\"k\"], \"properties\": {\"k\": {\"const\": \"a\"}}}, {\"type\": "
     "\"object\", " CLOSED ", \"required\": [\"k\"], \"properties\": "
     "{\"k\": {\"const\": \"b\"}}}]}",
        "oneof", true, "", "distinct values of the required member \"k\""},
    {"{\"oneOf\": [{\"enum\": [1, 2]}, {\"enum\": [3]}]}", "oneof", true, "",
        "distinct const/enum values"},
    /* a member tells objects apart, not 5, which both branches take */
    {"{\"oneOf\": [{\"required\": [\"k\"], \"properties\": {\"k\": "
     "{\"const\": \"a\"}}}, {\"required\": [\"k\"], \"properties\": "
     "{\"k\": {\"const\": \"b\"}}}]}",
        "oneof", true, "", "not provably disjoint"},
    /* ... unless the node holding them takes objects alone */
    {"{\"type\": \"object\", " CLOSED ", \"oneOf\": [{\"required\": "
     "[\"k\"], \"properties\": {\"k\": {\"const\": \"a\"}}}, "
     "{\"required\": [\"k\"], \"properties\": {\"k\": {\"const\": "
     "\"b\"}}}]}",
        "oneof", true, "", "distinct values of the required member \"k\""},
    {"{\"oneOf\": [{\"type\": \"object\", " CLOSED ", \"required\": "
     "[\"k\"], \"properties\": {\"k\": {\"type\": \"string\", "
     "\"maxLength\": 2}}}, {\"type\": \"object\", " CLOSED ", "
     "\"required\": [\"k\"], \"properties\": {\"k\": {\"type\": "
     "\"boolean\"}}}]}",
        "oneof", true, "", "disjoint types of the required member \"k\""},
    {"{\"oneOf\": [{\"type\": \"object\", " CLOSED ", \"required\": "
     "[\"k\"], \"properties\": {\"k\": {\"const\": \"a\"}}}, "
     "{\"type\": \"object\", " CLOSED ", \"properties\": {\"k\": "
     "{\"const\": \"b\"}}}]}",
        "oneof", true, "", "not provably disjoint"},
    {"{\"type\": \"string\", \"oneOf\": [{\"maxLength\": 3}, "
     "{\"pattern\": \"^a\"}]}",
        "oneof", true, "", "not provably disjoint"},
    {"{\"oneOf\": [{\"type\": \"number\"}, {\"type\": \"integer\"}]}", "oneof",
        true, "", "not provably disjoint"},
    {"{\"anyOf\": [{\"type\": \"integer\"}, {\"type\": \"boolean\"}]}", "oneof",
        false, NULL, NULL},
    /* string-unbounded */
    {"{\"type\": \"string\"}", "string-unbounded", true, "", NULL},
    {"{\"type\": \"string\", \"pattern\": \"^[a-z]+$\"}", "string-unbounded",
        true, "", NULL},
    {"{\"type\": \"string\", \"maxLength\": 5}", "string-unbounded", false,
        NULL, NULL},
    {"{\"type\": \"string\", \"pattern\": \"^[a-z]{1,8}$\"}",
        "string-unbounded", false, NULL, NULL},
    /* asked of the tree: a "+" in a class is a character, an unbounded
     * lookahead consumes nothing, a "{2,}" is unbounded */
    {"{\"type\": \"string\", \"pattern\": \"^[+*a-z]{1,8}$\"}",
        "string-unbounded", false, NULL, NULL},
    {"{\"type\": \"string\", \"pattern\": \"^(?=.*x)[a-z]{1,8}$\"}",
        "string-unbounded", false, NULL, NULL},
    {"{\"type\": \"string\", \"pattern\": \"^a{2,}$\"}", "string-unbounded",
        true, "", NULL},
    {"{\"type\": \"string\", \"enum\": [\"a\", \"b\"]}", "string-unbounded",
        false, NULL, NULL},
    {"{\"type\": \"string\", \"format\": \"date\"}", "string-unbounded", false,
        NULL, NULL},
    {"{\"allOf\": [{\"type\": \"string\"}, {\"maxLength\": 3}]}",
        "string-unbounded", false, NULL, NULL},
    {"{\"maxLength\": 3, \"anyOf\": [{\"type\": \"string\"}, "
     "{\"type\": \"null\"}]}",
        "string-unbounded", false, NULL, NULL},
    {"{\"type\": \"string\", \"anyOf\": [{\"maxLength\": 3}, "
     "{\"minLength\": 9}]}",
        "string-unbounded", true, "", NULL},
    {"{\"type\": \"object\", " CLOSED ", \"properties\": {\"a\": "
     "{\"$ref\": \"#/$defs/s\"}}, \"$defs\": {\"s\": {\"type\": "
     "\"string\"}}}",
        "string-unbounded", true, "/$defs/s", NULL},
    /* array-unbounded */
    {"{\"type\": \"array\", \"items\": {\"type\": \"integer\"}}",
        "array-unbounded", true, "", NULL},
    {"{\"type\": \"array\", \"maxItems\": 4}", "array-unbounded", false, NULL,
        NULL},
    {"{\"type\": \"array\", \"prefixItems\": [{\"type\": \"integer\"}], "
     "\"items\": false}",
        "array-unbounded", false, NULL, NULL},
    /* object-open */
    {"{\"type\": \"object\"}", "object-open", true, "", NULL},
    {"{\"properties\": {\"a\": {\"type\": \"null\"}}}", "object-open", true, "",
        NULL},
    {"{\"type\": \"object\", " CLOSED "}", "object-open", false, NULL, NULL},
    {"{\"type\": \"object\", \"allOf\": [{\"properties\": {\"a\": "
     "{\"type\": \"null\"}}}], \"unevaluatedProperties\": false}",
        "object-open", false, NULL, NULL},
    {"{\"type\": \"object\", " CLOSED ", \"properties\": {\"a\": {\"type\": "
     "\"integer\"}}, \"if\": {\"properties\": {\"a\": {\"const\": 1}}}, "
     "\"then\": {\"required\": [\"a\"]}}",
        "object-open", false, NULL, NULL},
    /* recursion-unbounded */
    {"{\"$ref\": \"#/$defs/n\", \"$defs\": {\"n\": {\"type\": "
     "\"object\", " CLOSED
     ", \"properties\": {\"c\": {\"$ref\": \"#/$defs/n\"}}}}}",
        "recursion-unbounded", true, "/$defs/n", NULL},
    {"{\"$ref\": \"#/$defs/n\", \"$defs\": {\"n\": {\"type\": "
     "\"object\", " CLOSED
     ", \"properties\": {\"c\": {\"$ref\": \"#/$defs/m\"}}}, "
     "\"m\": {\"type\": \"null\"}}}",
        "recursion-unbounded", false, NULL, NULL},
    /* description-constraint */
    {"{\"type\": \"string\", \"description\": \"a name, at most 20 "
     "characters\"}",
        "description-constraint", true, "", "20 characters"},
    {"{\"type\": \"array\", \"maxItems\": 3, \"description\": \"up to 5 "
     "tags\"}",
        "description-constraint", true, "", "5 tags"},
    {"{\"type\": \"string\", \"maxLength\": 9, \"description\": "
     "\"lowercase letters only\"}",
        "description-constraint", true, "", "lowercase"},
    {"{\"type\": \"string\", \"maxLength\": 20, \"description\": \"a name, "
     "at most 20 characters\"}",
        "description-constraint", false, NULL, NULL},
    {"{\"type\": \"string\", \"maxLength\": 9, \"pattern\": \"^[a-z]+$\", "
     "\"description\": \"lowercase letters only\"}",
        "description-constraint", false, NULL, NULL},
    {"{\"type\": \"integer\", \"description\": \"how many of the 3 "
     "colours\"}",
        "description-constraint", false, NULL, NULL},
    /* a count the pattern's quantifier states, not any digit of it */
    {"{\"type\": \"string\", \"pattern\": \"^[a-z]{3,20}$\", "
     "\"description\": \"3 to 20 characters\"}",
        "description-constraint", false, NULL, NULL},
    {"{\"type\": \"string\", \"pattern\": \"^[0-5]{2}$\", "
     "\"description\": \"at most 5 characters\"}",
        "description-constraint", true, "", "5 characters"},
    /* pattern-unanchored */
    {"{\"type\": \"string\", \"maxLength\": 9, \"pattern\": \"abc\"}",
        "pattern-unanchored", true, "", "\"abc\""},
    /* a control byte of the form, DEL too, is masked in the message */
    {"{\"type\": \"string\", \"maxLength\": 9, \"pattern\": "
     "\"a\\u007fb\\u0001\"}",
        "pattern-unanchored", true, "", "\"a?b?\""},
    {"{\"type\": \"string\", \"maxLength\": 9, \"pattern\": \"^a|b$\"}",
        "pattern-unanchored", true, "", NULL},
    {"{\"type\": \"string\", \"maxLength\": 9, \"pattern\": \"^a\\\\$\"}",
        "pattern-unanchored", true, "", NULL},
    {"{\"type\": \"string\", \"maxLength\": 9, \"pattern\": "
     "\"^(?:a|b)$\"}",
        "pattern-unanchored", false, NULL, NULL},
    {"{\"type\": \"string\", \"maxLength\": 9, \"pattern\": "
     "\"^a$|^b$\"}",
        "pattern-unanchored", false, NULL, NULL},
    {"{\"type\": \"string\", \"maxLength\": 9, \"pattern\": "
     "\"^[|]b$\"}",
        "pattern-unanchored", false, NULL, NULL},
    /* default-invalid, example-invalid: the real validator */
    {"{\"type\": \"string\", \"maxLength\": 3, \"default\": \"toolong\"}",
        "default-invalid", true, "", "maxLength"},
    {"{\"type\": \"string\", \"maxLength\": 3, \"default\": \"ok\"}",
        "default-invalid", false, NULL, NULL},
    {"{\"type\": \"integer\", \"examples\": [1, 2.5]}", "example-invalid", true,
        "", "example 1"},
    {"{\"type\": \"integer\", \"examples\": [1, 2]}", "example-invalid", false,
        NULL, NULL},
    /* optional-empty */
    {"{\"type\": \"object\", " CLOSED ", \"properties\": {\"n\": "
     "{\"type\": \"string\", \"minLength\": 1, \"maxLength\": 5}}}",
        "optional-empty", true, "/properties/n", "minLength"},
    {"{\"type\": \"object\", " CLOSED ", \"properties\": {\"t\": "
     "{\"type\": \"array\", \"minItems\": 1, \"maxItems\": 5}}}",
        "optional-empty", true, "/properties/t", "minItems"},
    {"{\"type\": \"object\", " CLOSED ", \"required\": [\"n\"], "
     "\"properties\": {\"n\": {\"type\": \"string\", \"minLength\": 1, "
     "\"maxLength\": 5}}}",
        "optional-empty", false, NULL, NULL},
    {"{\"type\": \"object\", " CLOSED ", \"properties\": {\"n\": "
     "{\"type\": \"string\", \"maxLength\": 5}}}",
        "optional-empty", false, NULL, NULL},
    /* a choice, a boolean or a number is never sent blank */
    {"{\"type\": \"object\", " CLOSED ", \"properties\": {\"n\": "
     "{\"type\": \"string\", \"enum\": [\"a\", \"b\"]}}}",
        "optional-empty", false, NULL, NULL},
    {"{\"type\": \"object\", " CLOSED ", \"properties\": {\"n\": "
     "{\"type\": \"string\", \"const\": \"a\"}}}",
        "optional-empty", false, NULL, NULL},
    {"{\"type\": \"object\", " CLOSED ", \"properties\": {\"n\": "
     "{\"type\": [\"string\", \"integer\"], \"minLength\": 1, "
     "\"maxLength\": 4}}}",
        "optional-empty", false, NULL, NULL},
};

START_TEST(each_rule_fires_on_its_form_and_not_on_the_fixed_one)
{
	const struct lint_case *c = &lint_cases[_i];
	const struct report_problem *p;
	struct report r;

	lint_text(c->schema, NULL, &r);
	p = find_rule(&r, c->rule);
	ck_assert_msg((p != NULL) == c->fires, "%s %s on %s", c->rule,
	    c->fires ? "does not fire" : "fires", c->schema);
	if (p != NULL && c->pointer != NULL)
		ck_assert_msg(strcmp(p->pointer, c->pointer) == 0,
		    "%s at \"%s\", expected \"%s\" on %s", c->rule, p->pointer,
		    c->pointer, c->schema);
	if (p != NULL && c->says != NULL)
		ck_assert_msg(strstr(p->reason, c->says) != NULL,
		    "%s says \"%s\", not \"%s\"", c->rule, p->reason, c->says);
	if (p != NULL)
		ck_assert_msg(p->fix != NULL, "%s has no fix", c->rule);
	report_free(&r);
}
END_TEST

START_TEST(form_size_fires_past_the_token_budget)
{
	struct report r;
	size_t n = 40000, i;
	char *big = malloc(n + 1);

	ck_assert_ptr_nonnull(big);
	for (i = 0; i < n; i++)
		big[i] = i % 2 == 0 ? 'a' : ',';
	big[n] = '\0';
	lint_text("{\"type\": \"integer\"}", big, &r);
	ck_assert_ptr_nonnull(find_rule(&r, "form-size"));
	report_free(&r);
	lint_text("{\"type\": \"integer\"}", NULL, &r);
	ck_assert_ptr_null(find_rule(&r, "form-size"));
	report_free(&r);
	free(big);
}
END_TEST

START_TEST(tokens_are_estimated_from_the_text)
{
	/* letters four to a token, digits three, punctuation two */
	ck_assert_uint_eq(lint_tokens("abcdefgh", 8), 2);
	ck_assert_uint_eq(lint_tokens("123456", 6), 2);
	ck_assert_uint_eq(lint_tokens("{\"", 2), 1);
	ck_assert_uint_eq(lint_tokens("a b", 3), 2);
	ck_assert_uint_eq(lint_tokens("", 0), 0);
}
END_TEST

/* A hook with these bytes and mode in a fresh directory; the rules that
 * fire, as "rule rule ". */
static void
hook_rules(const char *bytes, mode_t mode, char *out, size_t cap)
{
	char dir[] = "/tmp/lint-hook-XXXXXX", path[64];
	struct report r;
	size_t i;
	int fd;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/hook", dir);
	if (bytes != NULL) {
		fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		ck_assert_int_ge(fd, 0);
		ck_assert_int_eq(
		    write(fd, bytes, strlen(bytes)), (ssize_t)strlen(bytes));
		close(fd);
		ck_assert_int_eq(chmod(path, mode), 0);
	}
	report_init(&r, dir);
	lint_hook(dir, &r);
	out[0] = '\0';
	for (i = 0; i < r.count; i++) {
		strncat(out, r.problems[i].rule, cap - strlen(out) - 1);
		strncat(out, " ", cap - strlen(out) - 1);
	}
	report_free(&r);
	unlink(path);
	rmdir(dir);
}

START_TEST(hook_checks_name_what_keeps_acts_from_running)
{
	char got[256];

	hook_rules(NULL, 0, got, sizeof(got));
	ck_assert_str_eq(got, "hook-missing ");
	hook_rules("#!/bin/sh\nexit 0\n", 0644, got, sizeof(got));
	ck_assert_str_eq(got, "hook-not-executable ");
	hook_rules("#!/bin/sh\r\nexit 0\r\n", 0755, got, sizeof(got));
	ck_assert_str_eq(got, "hook-crlf ");
	hook_rules("echo hi\n", 0755, got, sizeof(got));
	ck_assert_str_eq(got, "hook-no-interpreter ");
	hook_rules("#!/bin/sh\nexit 0\n", 0755, got, sizeof(got));
	ck_assert_str_eq(got, "");
	/* set-user-ID root: only root can make such a file */
	if (geteuid() == 0) {
		hook_rules("#!/bin/sh\nexit 0\n", 04755, got, sizeof(got));
		ck_assert_str_eq(got, "hook-root ");
	}
}
END_TEST

static Suite *
suite_lint(void)
{
	Suite *s = suite_create("lint");
	TCase *k = tcase_create("Core");

	tcase_add_loop_test(k,
	    each_rule_fires_on_its_form_and_not_on_the_fixed_one, 0,
	    (int)GPT_ARRAY_LEN(lint_cases));
	tcase_add_test(k, form_size_fires_past_the_token_budget);
	tcase_add_test(k, tokens_are_estimated_from_the_text);
	tcase_add_test(k, hook_checks_name_what_keeps_acts_from_running);
	suite_add_tcase(s, k);
	return s;
}

CHECK_MAIN(suite_lint)
