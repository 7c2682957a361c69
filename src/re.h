/*
 * re.h: the `pattern` keyword (and patternProperties, propertyNames'
 * pattern) on PCRE2.
 *
 * Patterns are compiled once, when a form is loaded, in UTF mode with
 * options that bring PCRE2 close to ECMA-262 (see the dialect notes in
 * re.c and the man page), JIT-compiled where available.  Matching runs
 * under a match limit and a depth limit, so every pattern finishes in
 * bounded time on every input; hitting a limit is RE_LIMIT, which the
 * validator treats as a rejection (fail closed) and logs.
 *
 * Owns: the compiled code, released by a cleanup registered on the arena
 * given to re_compile.  Matching allocates nothing per call.
 * Not thread-safe (one shared match block per process; gpt.fcgi is
 * single-threaded).
 */
#ifndef GPT_RE_H
#define GPT_RE_H

#include "common.h"

struct arena;
struct re;

#define RE_MATCH_LIMIT 1000000u	 /* backtracking steps per match */
#define RE_DEPTH_LIMIT 10000u	 /* nested backtracking frames */
#define RE_HEAP_LIMIT_KIB 20000u /* heap for the interpreter's frames */

enum re_result {
	RE_NOMATCH = 0,
	RE_MATCH = 1,
	RE_LIMIT = 2, /* a limit was hit: treat as no match, fail closed */
	RE_ERROR = 3, /* any other failure: treat as no match */
};

/*
 * Compile pattern (len bytes of UTF-8, ECMA-262 syntax).  The compiled
 * pattern lives until arena a is reset or freed.  NULL on failure, with a
 * message in errbuf (errlen bytes, NUL-terminated).
 */
struct re *re_compile(const char *pattern, size_t len, struct arena *a,
    char *errbuf, size_t errlen) GPT_MUSTCHECK;

/* Search (unanchored, as ECMA-262 `test`) subject (len bytes, valid UTF-8). */
enum re_result re_search(const struct re *re, const char *subject, size_t len);

#endif /* GPT_RE_H */
