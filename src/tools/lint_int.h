/*
 * lint_int.h: what lint.c shares with lint_rules.c (private to the lint
 * module; lint.h is its interface).
 */
#ifndef GPT_LINT_INT_H
#define GPT_LINT_INT_H

#include "base/common.h"

struct lint_facts;
struct report;
struct schema_node;
struct schema_view;

#define LINT_PTR_MAX 1024

/* The view's pointer as a C string (clipped; NUL bytes as '?'). */
void lint_ptr(const struct schema_view *v, char out[LINT_PTR_MAX]);

/* A name from the form, clipped to cap - 1 bytes for a message. */
void lint_clip(char *out, size_t cap, const char *s, size_t len);

/* What the lint asks of a pattern, from its syntax tree (re_tree.h). */
struct lint_pattern {
	bool anchored;      /* every alternative between ^ and $ */
	bool ends_anchored; /* starts with ^, ends with $ (decoders ask) */
	bool bounds_length; /* anchored, no unbounded quantifier */
	bool lookaround;    /* lookaround, \b or a back-reference */
	bool has_count;     /* a {n,m} quantifier has count as n or m */
};

/* Ask pattern p (len bytes, from a compiled form) into *out. */
void lint_pattern_ask(
    const char *p, size_t len, uint32_t count, struct lint_pattern *out);

/* Are the count oneOf branches of n pairwise provably disjoint?  why
 * gets the reason in words either way. */
bool lint_oneof_disjoint(
    const struct schema_node *n, size_t count, char *why, size_t cap);

/* The bounds rules: walk the form from its root and add to r each
 * string, array and object it leaves unbounded. */
void lint_walk_report(struct lint_facts *f, struct report *r);

#endif /* GPT_LINT_INT_H */
