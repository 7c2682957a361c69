/* check_re.c: patterns in the ECMA-262 dialect, under match limits. */
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "check_main.h"
#include "re.h"

static struct arena test_arena;

static void
setup(void)
{
	arena_init(&test_arena, 1 << 20);
}

static void
teardown(void)
{
	arena_free(&test_arena);
}

static const struct re *
compile_ok(const char *pattern)
{
	char err[256];
	const struct re *re = re_compile(pattern, strlen(pattern), &test_arena,
	    err, sizeof(err));

	ck_assert_msg(re != NULL, "/%s/ refused: %s", pattern, err);
	return re;
}

static void
expect_match(const char *pattern, const char *subject)
{
	const struct re *re = compile_ok(pattern);

	ck_assert_msg(re_search(re, subject, strlen(subject)) == RE_MATCH,
	    "/%s/ should match \"%s\"", pattern, subject);
}

static void
expect_nomatch(const char *pattern, const char *subject)
{
	const struct re *re = compile_ok(pattern);

	ck_assert_msg(re_search(re, subject, strlen(subject)) == RE_NOMATCH,
	    "/%s/ should not match \"%s\"", pattern, subject);
}

static void
expect_refused(const char *pattern)
{
	char err[256] = "untouched";

	ck_assert_msg(re_compile(pattern, strlen(pattern), &test_arena, err,
			  sizeof(err)) == NULL,
	    "/%s/ should be refused", pattern);
	ck_assert_msg(strncmp(err, "invalid pattern", 15) == 0,
	    "/%s/ refused without a message: \"%s\"", pattern, err);
}

START_TEST(re_search_is_unanchored)
{
	expect_match("a", "xxaxx");
	expect_match("^a", "abc");
	expect_nomatch("^a", "ba");
	expect_match("c$", "abc");
	expect_match("", "");
	expect_match("^$", "");
	expect_match("^[a-z]+@[a-z]+\\.org$", "me@example.org");
	expect_nomatch("^[a-z]+@[a-z]+\\.org$", "me@example.org.evil");
	expect_match("^https?://", "http://example.org/");
	expect_nomatch("^https?://", "javascript:alert(1)");
	expect_match("(ab)\\1", "xxabab");
	expect_match("^\\/x$", "/x");
}
END_TEST

START_TEST(re_dollar_and_dot_respect_ecma262_line_ends)
{
	expect_nomatch("^abc$", "abc\n");
	expect_match("^abc$", "abc");
	expect_nomatch("^.+$", "abc\n");
	expect_nomatch("^a.c$", "a\nc");
	expect_nomatch("^a.c$", "a\rc");
	expect_nomatch("^.$", "\xe2\x80\xa8"); /* U+2028 LINE SEPARATOR */
	expect_nomatch("^.$", "\xe2\x80\xa9"); /* U+2029 */
	expect_match("^.$", "\xc2\x85");	    /* U+0085 is no line end */
	expect_match("^.$", "\v");
	expect_match("^[.]$", ".");
	expect_nomatch("^[.]$", "x");
	expect_match("^\\.$", ".");
	expect_nomatch("^\\.$", "x");
	expect_match("^a.*z$", "a\xc3\xa9\xf0\x9f\x98\x80z");
}
END_TEST

START_TEST(re_works_on_code_points)
{
	expect_match("^.$", "\xf0\x9f\x98\x80"); /* one emoji: U+1F600 */
	expect_nomatch("^..$", "\xf0\x9f\x98\x80");
	expect_match("^.$", "\xc3\xa9");
	expect_match("^\\u00e9$", "\xc3\xa9");
	expect_match("^\\u00E9+$", "\xc3\xa9\xc3\xa9");
	expect_match("^\\u{1F600}$", "\xf0\x9f\x98\x80");
	expect_match("^[\\u00e0-\\u00ff]{2}$", "\xc3\xa9\xc3\xa0");
	expect_match("^\\x41$", "A");
	expect_match("^\\p{L}+$", "caf\xc3\xa9");
	expect_nomatch("^\\p{L}+$", "caf\xc3\xa9!");
	expect_match("^\xc3\xa9t\xc3\xa9$", "\xc3\xa9t\xc3\xa9");
}
END_TEST

START_TEST(re_digit_and_word_classes_are_ascii)
{
	expect_match("^\\d+$", "0123456789");
	expect_nomatch("^\\d$", "\xd9\xa3"); /* ARABIC-INDIC DIGIT THREE */
	expect_match("^\\w+$", "a_Z9");
	expect_nomatch("^\\w$", "\xc3\xa9");
	expect_match("^\\s$", "\t");
	expect_nomatch("^\\S$", " ");
	expect_match("^\\S$", "x");
}
END_TEST

START_TEST(re_white_space_is_ecma262_white_space)
{
	static const char *const spaces[] = {
	    " ", "\t", "\n", "\v", "\f", "\r",
	    "\xc2\xa0",     /* U+00A0 NO-BREAK SPACE */
	    "\xe1\x9a\x80", /* U+1680 OGHAM SPACE MARK */
	    "\xe2\x80\x80", /* U+2000 EN QUAD */
	    "\xe2\x80\x8a", /* U+200A HAIR SPACE */
	    "\xe2\x80\xa8", /* U+2028 LINE SEPARATOR */
	    "\xe2\x80\xa9", /* U+2029 PARAGRAPH SEPARATOR */
	    "\xe2\x80\xaf", /* U+202F NARROW NO-BREAK SPACE */
	    "\xe2\x81\x9f", /* U+205F MEDIUM MATHEMATICAL SPACE */
	    "\xe3\x80\x80", /* U+3000 IDEOGRAPHIC SPACE */
	    "\xef\xbb\xbf", /* U+FEFF BYTE ORDER MARK */
	};
	static const char *const others[] = {
	    "a", "\xe2\x80\x8b" /* U+200B ZERO WIDTH SPACE */, "\xc2\x85",
	};
	size_t i;

	for (i = 0; i < GPT_ARRAY_LEN(spaces); i++) {
		expect_match("^\\s$", spaces[i]);
		expect_match("^[\\s]$", spaces[i]);
		expect_match("^[x\\sy]$", spaces[i]);
		expect_nomatch("^\\S$", spaces[i]);
		expect_nomatch("^[^\\s]$", spaces[i]);
	}
	for (i = 0; i < GPT_ARRAY_LEN(others); i++) {
		expect_nomatch("^\\s$", others[i]);
		expect_match("^\\S$", others[i]);
		expect_match("^[^\\s]$", others[i]);
	}
	/* escaped backslashes and quoting are left alone */
	expect_match("^\\\\s$", "\\s");
	expect_match("^\\Q\\s\\E$", "\\s");
	expect_nomatch("^\\Q\\s\\E$", " ");
}
END_TEST

START_TEST(re_property_escapes_take_ecma262_names)
{
	expect_match("^\\p{Letter}+$", "caf\xc3\xa9");
	expect_nomatch("^\\p{Letter}+$", "caf\xc3\xa9!");
	expect_match("^\\p{L}+$", "\xce\xb1\xce\xb2");
	expect_match("^\\p{gc=Lu}$", "A");
	expect_match("^\\p{General_Category=Uppercase_Letter}$", "\xc3\x89");
	expect_nomatch("^\\p{Uppercase_Letter}$", "a");
	expect_match("^\\P{Letter}$", "1");
	expect_match("^\\p{Decimal_Number}$", "\xd9\xa3");
	expect_match("^\\p{Script=Greek}$", "\xce\xb1");
	expect_match("^[\\p{Letter}\\d]+$", "a1\xc3\xa9");
	expect_refused("\\p{No_Such_Property}");
}
END_TEST

START_TEST(re_empty_classes_and_unset_groups_follow_ecma262)
{
	expect_nomatch("[]", "a");
	expect_match("^[^]$", "\n");
	expect_match("^[^]]$", "x]"); /* "[^]" then a literal "]" */
	expect_nomatch("^[^]]$", "x");
	expect_match("^(a)|\\1b$", "b"); /* unset group: empty match */
}
END_TEST

START_TEST(re_compile_refuses_invalid_patterns_with_a_message)
{
	static const char *const bad[] = {
	    "(", "a{2,1}", "[z-a]", "\\", "(?<=a+)b", "\\C", "*a", "\xff",
	    "(?P<n>a)(?P<n>b)",
	};
	size_t i;

	for (i = 0; i < GPT_ARRAY_LEN(bad); i++)
		expect_refused(bad[i]);
}
END_TEST

START_TEST(re_search_stops_catastrophic_backtracking)
{
	const struct re *re = compile_ok("^(a+)+$");
	const struct re *re2 = compile_ok("^(a|a)*b$");
	const struct re *re3 = compile_ok("^(\\w+\\s?)*$");
	size_t n = 10000;
	char *s = malloc(n + 2);
	enum re_result r;

	ck_assert_ptr_nonnull(s);
	memset(s, 'a', n);
	s[n] = '!';
	s[n + 1] = '\0';
	/* It must simply finish; the answer is "not a match" either way. */
	r = re_search(re, s, n + 1);
	ck_assert_msg(r == RE_LIMIT || r == RE_NOMATCH, "got %d", r);
	r = re_search(re2, s, n + 1);
	ck_assert_msg(r == RE_LIMIT || r == RE_NOMATCH, "got %d", r);
	r = re_search(re3, s, n + 1);
	ck_assert_msg(r == RE_LIMIT || r == RE_NOMATCH, "got %d", r);
	ck_assert_int_eq(re_search(re, s, n), RE_MATCH);
	free(s);
}
END_TEST

/*
 * Fill s (room for 32 bytes) with "aa...a!", as many a's as ^(a+)+$ can
 * refuse under the match limit: a match that backtracks for long and
 * still answers.  Its length.
 */
static size_t
slow_subject(const struct re *re, char *s)
{
	size_t n, best = 8;

	for (n = 8; n < 30; n++) {
		memset(s, 'a', n);
		s[n] = '!';
		if (re_search(re, s, n + 1) != RE_NOMATCH)
			break;
		best = n;
	}
	memset(s, 'a', best);
	s[best] = '!';
	return best + 1;
}

START_TEST(re_budget_stops_an_act_of_many_slow_matches)
{
	const struct re *re = compile_ok("^(a+)+$");
	struct re_budget b;
	char s[32];
	size_t len = slow_subject(re, s);
	enum re_result r = RE_NOMATCH;
	unsigned i;

	re_budget_init(&b);
	/* the first search of an act always runs */
	ck_assert_int_eq(re_search_budget(re, s, len, &b), RE_NOMATCH);
	/* each search finishes under the match limit, yet the act ends:
	 * RE_ACT_MS of such searches, however many that is */
	for (i = 0; i < 1000000 && r == RE_NOMATCH; i++)
		r = re_search_budget(re, s, len, &b);
	ck_assert_msg(r == RE_BUDGET, "\"%.*s\" x %u: got %d", (int)len, s,
	    i, (int)r);
	/* spent stays spent; a new act starts afresh */
	ck_assert_int_eq(re_search_budget(re, "aaa", 3, &b), RE_BUDGET);
	re_budget_init(&b);
	ck_assert_int_eq(re_search_budget(re, "aaa", 3, &b), RE_MATCH);
	ck_assert_int_eq(re_search_budget(re, "aa!", 3, &b), RE_NOMATCH);
}
END_TEST

START_TEST(re_patterns_may_contain_nul_and_subjects_may_be_empty)
{
	char err[128];
	const struct re *re = re_compile("a\0b", 3, &test_arena, err,
	    sizeof(err));

	ck_assert_ptr_nonnull(re);
	ck_assert_int_eq(re_search(re, "xa\0by", 5), RE_MATCH);
	ck_assert_int_eq(re_search(re, "ab", 2), RE_NOMATCH);
	ck_assert_int_eq(re_search(re, NULL, 0), RE_NOMATCH);
}
END_TEST

START_TEST(re_compiled_code_lives_until_the_arena_resets)
{
	int round;

	/* Many compile/reset rounds: the cleanup frees each code (ASan
	 * would report a leak otherwise). */
	for (round = 0; round < 200; round++) {
		const struct re *re = compile_ok("^[a-f0-9]{8}$");

		ck_assert_int_eq(re_search(re, "deadbeef", 8), RE_MATCH);
		arena_reset(&test_arena);
	}
}
END_TEST

static Suite *
suite_re(void)
{
	Suite *s = suite_create("re");
	TCase *tc = tcase_create("Core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, re_search_is_unanchored);
	tcase_add_test(tc, re_dollar_and_dot_respect_ecma262_line_ends);
	tcase_add_test(tc, re_works_on_code_points);
	tcase_add_test(tc, re_digit_and_word_classes_are_ascii);
	tcase_add_test(tc, re_white_space_is_ecma262_white_space);
	tcase_add_test(tc, re_property_escapes_take_ecma262_names);
	tcase_add_test(tc, re_empty_classes_and_unset_groups_follow_ecma262);
	tcase_add_test(tc, re_compile_refuses_invalid_patterns_with_a_message);
	tcase_add_test(tc, re_search_stops_catastrophic_backtracking);
	tcase_add_test(tc, re_budget_stops_an_act_of_many_slow_matches);
	tcase_add_test(tc, re_patterns_may_contain_nul_and_subjects_may_be_empty);
	tcase_add_test(tc, re_compiled_code_lives_until_the_arena_resets);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(suite_re)
