/*
 * sample_re.h: strings that match a pattern, for --sample (sample.h).
 *
 * The pattern is read by the one pattern parser (parser/re_tree.h) and a
 * string is written by walking its tree: literals, \d \w \s and their
 * complements, classes, `.`, groups of every kind but lookarounds,
 * alternatives (one picked), quantifiers (a count picked), ^ before
 * anything is written and $ after which nothing is.  Lookarounds, \b,
 * back-references, \P{...} and the \p{...} other than letters, upper-case
 * letters and digits are outside what it writes: -1, and sample.c lets
 * the validator judge a candidate made without the pattern.  A string
 * written is a guess that the validator checks, never a promise: a
 * negated class is met by trying printable ASCII.
 *
 * Bounds: SAMPLE_RE_STEPS nodes visited and SAMPLE_RE_BYTES written per string,
 * the tree's depth (RE_TREE_MAX_NEST groups), and out's cap.
 */
#ifndef GPT_SAMPLE_RE_H
#define GPT_SAMPLE_RE_H

#include "base/common.h"

struct arena;
struct buf;

#define SAMPLE_RE_STEPS 4096 /* nodes visited for one string */
#define SAMPLE_RE_BYTES 512  /* bytes of one string */

/* Where the choices come from: below(ctx, n) is uniform in [0, n), for
 * n > 0 (sample.c's seeded generator, so samples stay reproducible). */
struct sample_re_chance {
	uint64_t (*below)(void *ctx, uint64_t n);
	void *ctx;
};

/*
 * Append to out a string that pattern (len bytes of UTF-8, from a
 * compiled form) may match, with up to stretch more repeats for each
 * unbounded quantifier (to meet a minLength).  The tree lives in scratch
 * and is rewound before the return.  0; -1 when the pattern is outside
 * what the generator writes, or the string would be too long (out then
 * holds a partial string: the caller resets it).
 */
int sample_re_string(const char *pattern, size_t len, struct arena *scratch,
    const struct sample_re_chance *chance, unsigned stretch,
    struct buf *out) GPT_MUSTCHECK;

#endif /* GPT_SAMPLE_RE_H */
