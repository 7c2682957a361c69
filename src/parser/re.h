/*
 * re.h: the `pattern` keyword (and patternProperties, propertyNames'
 * pattern) on PCRE2.
 *
 * Patterns are ECMA-262 with the "u" flag, parsed by re_tree.h and
 * translated to an equivalent PCRE2 pattern (re.c says how, and what is
 * refused because PCRE2 cannot match it alike), compiled once when a form is
 * loaded, in UTF mode, JIT-compiled where available.  Matching runs under a
 * match limit and a depth limit, so every pattern finishes in bounded time on
 * every input; hitting a limit is RE_LIMIT, which the validator treats as a
 * rejection (fail closed) and logs.
 *
 * One act may run many matches (a body of 40,000 strings, each just under
 * the match limit, would take about a minute), so the validator also
 * gives each act a budget of pattern time: re_search_budget refuses to
 * start a match once RE_ACT_MS milliseconds have passed since the act's
 * first match, and answers RE_BUDGET, which rejects like RE_LIMIT.  The
 * budget is a clock (CLOCK_MONOTONIC_COARSE: read from memory the kernel
 * updates, without a system call), not a count of steps, because PCRE2
 * does not report the steps a match took: charging each match its
 * subject length would let a body of many short, slow strings through,
 * and charging it the whole match limit would refuse ordinary bodies.
 * An act's pattern time is thus at most RE_ACT_MS plus one match.  The
 * clock is wall time: on a machine so loaded that an ordinary act's
 * patterns take longer than that, the act is rejected (fail closed).
 *
 * Owns: the compiled code, released by a cleanup registered on the arena
 * given to re_compile.  Matching allocates nothing per call.
 * Not thread-safe (one shared match block per process; gpt.fcgi is
 * single-threaded).
 */
#ifndef GPT_RE_H
#define GPT_RE_H

#include "base/common.h"

struct arena;
struct re;

#define RE_MATCH_LIMIT 1000000u  /* backtracking steps per match */
#define RE_DEPTH_LIMIT 10000u    /* nested backtracking frames */
#define RE_HEAP_LIMIT_KIB 20000u /* heap for the interpreter's frames */
#define RE_ACT_MS 1000           /* pattern time per act (re_budget) */

enum re_result {
	RE_NOMATCH = 0,
	RE_MATCH = 1,
	RE_LIMIT = 2,  /* a limit was hit: treat as no match, fail closed */
	RE_ERROR = 3,  /* any other failure: treat as no match */
	RE_BUDGET = 4, /* the act's pattern time is spent: fail closed */
};

/* The pattern time of one act (see the file head); reset it with
 * re_budget_init before the act's first match. */
struct re_budget {
	bool started;     /* a match has run: deadline is set */
	int64_t deadline; /* milliseconds, on the coarse monotonic clock */
};

/*
 * When the PCRE2 work is done (re_set_mode; the process default is
 * RE_EAGER):
 *   RE_EAGER        compile and JIT-compile in re_compile: a process that
 *                   serves many acts (FastCGI, the command line);
 *   RE_CGI          compile in re_compile, JIT-compile at a pattern's
 *                   RE_JIT_AFTER-th search: one CGI act rarely matches a
 *                   pattern often enough to pay for the JIT;
 *   RE_CGI_VOUCHED  as RE_CGI, but pcre2_compile too waits for the
 *                   pattern's first search (re_compile still parses and
 *                   translates it, refusing what it refuses in every mode).
 *                   Only where this very binary is known to have compiled
 *                   the same form (formcache.h); should the deferred
 *                   compile fail all the same, every search of that
 *                   pattern is RE_ERROR: the act is rejected, never
 *                   accepted.
 * The mode applies to patterns compiled after the call.
 */
enum re_mode {
	RE_EAGER,
	RE_CGI,
	RE_CGI_VOUCHED,
};
#define RE_JIT_AFTER 16u
void re_set_mode(enum re_mode mode);

/*
 * Compile pattern (len bytes of UTF-8, ECMA-262 syntax, "u" flag).  The
 * compiled pattern lives until arena a is reset or freed.  NULL on
 * failure, with a message in errbuf (errlen bytes, NUL-terminated):
 * "invalid pattern at offset N: why" for a syntax error, "unsupported
 * pattern...: why" for valid ECMA-262 that PCRE2 cannot match exactly,
 * or "out of memory".
 */
struct re *re_compile(const char *pattern, size_t len, struct arena *a,
    char *errbuf, size_t errlen) GPT_MUSTCHECK;

/* Search (unanchored, as ECMA-262 `test`) subject (len bytes, valid UTF-8),
 * under the per-match limits only. */
enum re_result re_search(const struct re *re, const char *subject, size_t len);

/* Start an act's budget: the first re_search_budget sets the deadline.
 * Inline: every act starts one, and most never match a pattern. */
static inline void
re_budget_init(struct re_budget *b)
{
	b->started = false;
	b->deadline = 0;
}

/*
 * re_search, charged to b: RE_BUDGET (and no match is run) when RE_ACT_MS
 * have passed since b's first search, otherwise what re_search answers.
 */
enum re_result re_search_budget(
    const struct re *re, const char *subject, size_t len, struct re_budget *b);

#endif /* GPT_RE_H */
