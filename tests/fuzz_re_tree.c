/*
 * fuzz_re_tree.c: libFuzzer target for the pattern parser
 * (src/parser/re_tree.c) and the three readers of its tree: the PCRE2
 * translation (re_compile), --sample's string writer (sample_re) and the
 * lint's questions.
 *
 * The input is the pattern, in an exactly sized copy so a read past its
 * end is an ASan report, parsed under a small arena cap.  Beyond "no
 * crash, no hang", the target asserts:
 *   - a tree is well formed: every link is a node of the tree or none,
 *     at most 3 nodes a byte and 2 more, groups and back-references name
 *     a group, repeats and ranges are in order;
 *   - re_tree_is_valid_syntax (the fixed pool) agrees with re_tree_parse
 *     (the arena) on every pattern it judges;
 *   - re_compile refuses exactly what the parser refuses, with the same
 *     message, and otherwise fails only for PCRE2's own reasons;
 *   - the lint's answers imply each other (bounded => anchored, anchored
 *     at every alternative => at both ends).
 * Any violation aborts, which libFuzzer reports as a crash.
 *
 * Build: configure --enable-fuzz CC=clang; run: tests/fuzz_re_tree CORPUS
 * (seeds in tests/data/fuzz-re/).
 */
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "base/buf.h"
#include "parser/re.h"
#include "parser/re_tree.h"
#include "tools/sample_re.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_ARENA_CAP ((size_t)4 << 20)

static void
check_link(const struct re_tree *t, uint32_t i)
{
	if (i != RE_TREE_NONE && i >= t->count)
		abort();
}

static void
check_tree(const struct re_tree *t, size_t len)
{
	size_t i;

	if (t->count == 0 || t->count > 3 * len + 2 ||
	    t->nodes[0].kind != RE_TREE_ALT)
		abort();
	for (i = 0; i < t->count; i++) {
		const struct re_tree_node *n = &t->nodes[i];

		check_link(t, n->child);
		check_link(t, n->next);
		if (n->kind > RE_TREE_REPEAT || n->at > len)
			abort();
		if ((n->kind == RE_TREE_GROUP || n->kind == RE_TREE_BACKREF) &&
		    (n->a == 0 || n->a > t->ngroups))
			abort();
		if (n->kind == RE_TREE_REPEAT &&
		    (n->a > n->b || n->child == RE_TREE_NONE))
			abort();
		if (n->kind == RE_TREE_RANGE &&
		    (n->a > n->b || n->b > RE_TREE_MAX_CP))
			abort();
		if (n->kind == RE_TREE_PROP && n->pname == NULL)
			abort();
	}
	if (re_tree_bounds_length(t) && !re_tree_anchored(t))
		abort();
	if (re_tree_anchored(t) && !re_tree_ends_anchored(t))
		abort();
	(void)re_tree_has_lookaround(t);
	(void)re_tree_has_count(t, 3);
}

static uint64_t
fuzz_below(void *ctx, uint64_t n)
{
	uint64_t *s = ctx;

	*s = *s * 6364136223846793005ull + 1442695040888963407ull;
	return (*s >> 33) % n;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct arena a;
	struct re_tree t;
	struct re_tree_err err;
	char *p = malloc(size > 0 ? size : 1);
	char want[256], got[256];
	uint64_t seed = size;
	const struct sample_re_chance chance = {fuzz_below, &seed};
	struct buf out;
	int rc;

	if (p == NULL)
		return 0;
	memcpy(p, data, size);
	arena_init(&a, FUZZ_ARENA_CAP);
	rc = re_tree_parse(p, size, &a, &t, &err);
	if (rc == 0)
		check_tree(&t, size);
	else if (err.why == NULL)
		abort();
	if (!err.nomem && size <= RE_TREE_SYNTAX_MAX &&
	    re_tree_is_valid_syntax(p, size) != (rc == 0))
		abort();
	if (rc == 0) {
		buf_init(&out, 1 << 16);
		(void)sample_re_string(p, size, &a, &chance, 2, &out);
		buf_free(&out);
	}
	arena_reset(&a);
	if (!err.nomem) {
		re_tree_message(&err, want, sizeof(want));
		if (re_compile(p, size, &a, got, sizeof(got)) == NULL) {
			if (rc == -1 && strcmp(want, got) != 0 &&
			    strcmp(got, "out of memory") != 0)
				abort();
			if (rc == 0 &&
			    strncmp(got, "unsupported pattern", 19) != 0 &&
			    strcmp(got, "out of memory") != 0)
				abort();
		} else if (rc == -1) {
			abort();
		}
	}
	arena_free(&a);
	free(p);
	return 0;
}
