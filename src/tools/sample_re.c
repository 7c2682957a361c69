/*
 * sample_re.c: a string for a pattern, from its syntax tree (sample_re.h).
 */
#include <string.h>

#include "base/arena.h"
#include "base/buf.h"
#include "base/utf8.h"
#include "parser/re_tree.h"
#include "tools/sample_re.h"

/* Extra repeats of an unbounded quantifier, beyond its minimum and the
 * stretch asked. */
#define SAMPLE_RE_OPEN 3
/* Tries at a printable character outside a negated class. */
#define SAMPLE_RE_TRIES 200
/* Nodes deep: deeper patterns are left to the validator. */
#define SAMPLE_RE_DEPTH 128

struct sample_re {
	const struct re_tree *t;
	const struct sample_re_chance *chance;
	struct buf *out;
	size_t start;     /* out's length before this string */
	size_t steps;     /* terms left to write */
	unsigned stretch; /* extra repeats for open quantifiers */
	unsigned depth;
	bool ended; /* a $ was passed: nothing more may be written */
};

/* The ranges a sample draws from for one class item or atom. */
struct sample_re_set {
	uint32_t lo[16], hi[16];
	size_t n;
};

static uint64_t
sr_below(struct sample_re *r, uint64_t n)
{
	return n == 0 ? 0 : r->chance->below(r->chance->ctx, n);
}

static int
sr_add(struct sample_re_set *s, uint32_t lo, uint32_t hi)
{
	if (s->n == GPT_ARRAY_LEN(s->lo))
		return -1;
	s->lo[s->n] = lo;
	s->hi[s->n] = hi;
	s->n++;
	return 0;
}

/*
 * The ranges node n (RANGE, CHAR, DOT, SET or PROP) draws from: \d \w \s
 * their own, and for a complement or `.` one range of what they admit is
 * enough (the validator judges).  -1 for what the generator does not
 * write.
 */
static int
sr_item(const struct re_tree_node *n, struct sample_re_set *s)
{
	bool neg = n->flags & RE_TREE_NEGATED;

	switch ((enum re_tree_kind)n->kind) {
	case RE_TREE_RANGE:
		return sr_add(s, n->a, n->b);
	case RE_TREE_CHAR:
		return sr_add(s, n->a, n->a);
	case RE_TREE_DOT:
		return sr_add(s, 'a', 'z');
	case RE_TREE_SET:
		if (n->set == RE_TREE_DIGIT)
			return neg ? sr_add(s, 'a', 'z') : sr_add(s, '0', '9');
		if (n->set == RE_TREE_SPACE)
			return neg ? sr_add(s, 'a', 'z') : sr_add(s, ' ', ' ');
		if (neg)
			return sr_add(s, '-', '-');
		return sr_add(s, 'a', 'z') || sr_add(s, 'A', 'Z') ||
		               sr_add(s, '0', '9') || sr_add(s, '_', '_')
		           ? -1
		           : 0;
	case RE_TREE_PROP:
		/* \p{L}, \p{Letter}, \p{Ll}, \p{Lu}, \p{N}, \p{Nd} */
		if (neg || n->pkind[0] != '\0')
			return -1;
		if (strcmp(n->pname, "L") == 0 || strcmp(n->pname, "Ll") == 0)
			return sr_add(s, 'a', 'z');
		if (strcmp(n->pname, "Lu") == 0)
			return sr_add(s, 'A', 'Z');
		if (strcmp(n->pname, "N") == 0 || strcmp(n->pname, "Nd") == 0)
			return sr_add(s, '0', '9');
		return -1;
	default:
		return -1;
	}
}

static int
sr_put(struct sample_re *r, uint32_t cp)
{
	unsigned char u[4];

	if (r->ended)
		return -1; /* "a$b" */
	if (cp >= 0xD800 && cp <= 0xDFFF)
		cp = 'a'; /* a range across the surrogates */
	if (buf_len(r->out) - r->start > SAMPLE_RE_BYTES)
		return -1;
	return buf_append(r->out, u, utf8_encode(cp, u));
}

/* One code point of s (negated: printable ASCII outside it). */
static int
sr_draw(struct sample_re *r, const struct sample_re_set *s, bool negated)
{
	size_t i, total = 0, tries;
	uint64_t k;
	uint32_t c;

	if (negated) {
		for (tries = 0; tries < SAMPLE_RE_TRIES; tries++) {
			c = (uint32_t)(' ' + sr_below(r, 95));
			for (i = 0; i < s->n; i++)
				if (c >= s->lo[i] && c <= s->hi[i])
					break;
			if (i == s->n)
				return sr_put(r, c);
		}
		return -1;
	}
	for (i = 0; i < s->n; i++)
		total += (size_t)(s->hi[i] - s->lo[i]) + 1;
	if (total == 0)
		return -1; /* "[]" matches nothing */
	k = sr_below(r, total);
	for (i = 0; i < s->n; i++) {
		size_t w = (size_t)(s->hi[i] - s->lo[i]) + 1;

		if (k < w)
			return sr_put(r, s->lo[i] + (uint32_t)k);
		k -= w;
	}
	return -1;
}

static int sr_node(struct sample_re *r, const struct re_tree_node *n);

/* The children of a SEQ in order. */
static int
sr_seq(struct sample_re *r, const struct re_tree_node *n)
{
	const struct re_tree_node *c;

	for (c = re_tree_at(r->t, n->child); c != NULL;
	     c = re_tree_at(r->t, c->next))
		if (sr_node(r, c) == -1)
			return -1;
	return 0;
}

/* One alternative of an ALT, picked. */
static int
sr_alt(struct sample_re *r, const struct re_tree_node *n)
{
	const struct re_tree_node *c;
	uint64_t count = 0, pick;

	for (c = re_tree_at(r->t, n->child); c != NULL;
	     c = re_tree_at(r->t, c->next))
		count++;
	pick = sr_below(r, count);
	for (c = re_tree_at(r->t, n->child); pick > 0; pick--)
		c = re_tree_at(r->t, c->next);
	return sr_node(r, c);
}

static int
sr_class(struct sample_re *r, const struct re_tree_node *n)
{
	struct sample_re_set s = {.n = 0};
	const struct re_tree_node *c;

	for (c = re_tree_at(r->t, n->child); c != NULL;
	     c = re_tree_at(r->t, c->next))
		if (sr_item(c, &s) == -1)
			return -1;
	return sr_draw(r, &s, n->flags & RE_TREE_NEGATED);
}

static int
sr_repeat(struct sample_re *r, const struct re_tree_node *n)
{
	uint64_t max = n->b, times, k;

	if (n->b == RE_TREE_INF)
		max = (uint64_t)n->a + SAMPLE_RE_OPEN + r->stretch;
	times = n->a + sr_below(r, max - n->a + 1);
	for (k = 0; k < times; k++)
		if (sr_node(r, re_tree_at(r->t, n->child)) == -1)
			return -1;
	return 0;
}

static int
sr_node(struct sample_re *r, const struct re_tree_node *n)
{
	struct sample_re_set s = {.n = 0};
	int rc;

	if (r->steps-- == 0 || ++r->depth > SAMPLE_RE_DEPTH)
		return -1;
	switch ((enum re_tree_kind)n->kind) {
	case RE_TREE_ALT:
		rc = sr_alt(r, n);
		break;
	case RE_TREE_SEQ:
		rc = sr_seq(r, n);
		break;
	case RE_TREE_GROUP:
	case RE_TREE_NCGROUP:
		rc = sr_node(r, re_tree_at(r->t, n->child));
		break;
	case RE_TREE_REPEAT:
		rc = sr_repeat(r, n);
		break;
	case RE_TREE_CLASS:
		rc = sr_class(r, n);
		break;
	case RE_TREE_BOL: /* "a^b" matches nothing */
		rc = buf_len(r->out) == r->start ? 0 : -1;
		break;
	case RE_TREE_EOL:
		r->ended = true;
		rc = 0;
		break;
	case RE_TREE_CHAR:
		rc = sr_put(r, n->a);
		break;
	case RE_TREE_DOT:
	case RE_TREE_SET:
	case RE_TREE_PROP:
		rc = sr_item(n, &s) == -1 ? -1 : sr_draw(r, &s, false);
		break;
	default: /* lookarounds, \b, back-references */
		rc = -1;
		break;
	}
	r->depth--;
	return rc;
}

int
sample_re_string(const char *pattern, size_t len, struct arena *scratch,
    const struct sample_re_chance *chance, unsigned stretch, struct buf *out)
{
	struct arena_mark mark = arena_mark(scratch);
	struct re_tree t;
	struct re_tree_err err;
	struct sample_re r;
	int rc = -1;

	if (re_tree_parse(pattern, len, scratch, &t, &err) == 0) {
		r = (struct sample_re){.t = &t,
		    .chance = chance,
		    .out = out,
		    .start = buf_len(out),
		    .steps = SAMPLE_RE_STEPS,
		    .stretch = stretch};
		rc = sr_node(&r, &t.nodes[0]);
	}
	arena_rewind(scratch, mark);
	return rc;
}
