/*
 * re_tree.h: the one reader of pattern text.  An ECMA-262 pattern (the
 * "u" flag, no other flag) becomes a small syntax tree that every user of
 * patterns asks instead of scanning the text: the PCRE2 translation
 * (re.c), the `regex` format, --sample's string generator (sample_re.c)
 * and the lint (anchoring, lookaround, length bounds).
 *
 * The tree is an array of nodes linked by index (first child, next
 * sibling); node 0 is the root, an RE_TREE_ALT.  Everything a node says
 * is resolved at parse: code points (escapes and surrogate pairs
 * decoded), \p{...} names checked against ECMA-262's tables and named to
 * PCRE2, back-references to their group.
 *
 * Bounds, for patterns from untrusted form text: groups nest at most
 * RE_TREE_MAX_NEST deep (so the tree is at most about 4 * RE_TREE_MAX_NEST
 * nodes deep, and walking it recursively is bounded); the parser reads
 * each byte a bounded number of times and makes at most 3 nodes per byte
 * plus 2, from the arena it is given (or a fixed pool, for
 * re_tree_is_valid_syntax).
 *
 * Refusals: a syntax error is "invalid"; valid ECMA-262 that PCRE2 cannot
 * match alike (re.c's head lists it) is "unsupported".  Both carry a
 * static reason and the byte offset.
 */
#ifndef GPT_RE_TREE_H
#define GPT_RE_TREE_H

#include "base/common.h"

struct arena;

#define RE_TREE_MAX_NEST 200      /* groups inside groups; PCRE2 allows 250 */
#define RE_TREE_MAX_REPEAT 65535u /* PCRE2's largest {n,m} */
#define RE_TREE_MAX_NAMES 1000 /* named groups: names are compared pairwise */
#define RE_TREE_MAX_CP 0x10FFFFu
#define RE_TREE_INF UINT32_MAX  /* a repeat's max when unbounded */
#define RE_TREE_NONE UINT32_MAX /* no node */

/* The longest pattern re_tree_is_valid_syntax judges (bytes). */
#define RE_TREE_SYNTAX_MAX 4096

enum re_tree_kind {
	RE_TREE_ALT,     /* alternatives: the children are RE_TREE_SEQ */
	RE_TREE_SEQ,     /* terms in order (none: the empty alternative) */
	RE_TREE_CHAR,    /* cp; a lone surrogate only from an escape */
	RE_TREE_DOT,     /* `.`: any code point but the LineTerminators */
	RE_TREE_SET,     /* \d \w \s (set); RE_TREE_NEGATED: \D \W \S */
	RE_TREE_PROP,    /* \p{...}; RE_TREE_NEGATED: \P{...} */
	RE_TREE_CLASS,   /* [...]: children RANGE, SET, PROP; NEGATED: [^ */
	RE_TREE_RANGE,   /* in a class: lo..hi (one atom: lo == hi) */
	RE_TREE_BOL,     /* ^ */
	RE_TREE_EOL,     /* $ */
	RE_TREE_WORDB,   /* \b; NEGATED: \B (ASCII word characters) */
	RE_TREE_GROUP,   /* (...), (?<name>...): group; the child an ALT */
	RE_TREE_NCGROUP, /* (?:...): the child an ALT */
	RE_TREE_LOOK,    /* (?= (?! (?<= (?<!: BEHIND, NEGATED; child ALT */
	RE_TREE_BACKREF, /* \N, \k<name>: group; UNSET: cannot have matched */
	RE_TREE_REPEAT,  /* the child min..max times (max RE_TREE_INF) */
};

/* Node flags. */
#define RE_TREE_NEGATED 0x01u
#define RE_TREE_BEHIND 0x02u    /* LOOK: a lookbehind */
#define RE_TREE_LAZY 0x04u      /* REPEAT: "*?" */
#define RE_TREE_BRACE 0x08u     /* REPEAT: written {n,m}, not * + ? */
#define RE_TREE_UNSET 0x10u     /* BACKREF: forward, or inside its group */
#define RE_TREE_IN_LOOK 0x20u   /* inside a lookaround */
#define RE_TREE_IN_BEHIND 0x40u /* inside a lookbehind */

/* \d \w \s */
enum re_tree_set {
	RE_TREE_DIGIT,
	RE_TREE_WORD,
	RE_TREE_SPACE,
};

struct re_tree_range {
	uint32_t lo, hi;
};

struct re_tree_node {
	uint8_t kind;  /* enum re_tree_kind */
	uint8_t flags; /* RE_TREE_NEGATED ... */
	uint8_t set;   /* SET: enum re_tree_set */
	uint32_t a;    /* CHAR cp; RANGE lo; REPEAT min; GROUP, BACKREF the
	                  group (1-based) */
	uint32_t b;    /* RANGE hi; REPEAT max */
	uint32_t child, next; /* indices, RE_TREE_NONE */
	uint32_t at;          /* byte offset of the node in the pattern */
	/* PROP: "" (General_Category or binary), "sc:" or "scx:", and
	 * PCRE2's name of the property ("Assigned" is not PCRE2's: \P{Cn});
	 * static */
	const char *pkind, *pname;
};

/* A capturing group, numbered from 1 in the order of its "(". */
struct re_tree_group {
	const char *name; /* borrowed from the pattern; NULL: none */
	size_t name_len;
	size_t close_at; /* offset just past its ")" */
	bool quantified; /* inside an atom with a quantifier (not {1}) */
	bool in_behind;  /* inside a lookbehind */
};

struct re_tree {
	struct re_tree_node *nodes; /* borrowed: the arena's (or the pool) */
	size_t count;
	struct re_tree_group *groups; /* groups[i] is group i + 1 */
	size_t ngroups;
};

struct re_tree_err {
	const char *why;  /* static; NULL: no error */
	size_t at;        /* byte offset in the pattern */
	bool unsupported; /* valid ECMA-262 that PCRE2 cannot match alike */
	bool nomem;       /* the arena ran out */
};

/*
 * Parse pattern (len bytes of UTF-8) into *t, in arena a.  0; -1 with *err
 * set (the first error in the pattern; the tree is unusable).  The tree
 * lives until a is rewound, reset or freed.
 */
int re_tree_parse(const char *pattern, size_t len, struct arena *a,
    struct re_tree *t, struct re_tree_err *err) GPT_MUSTCHECK;

/*
 * Whether pattern is ECMA-262 "u"-mode syntax, by re_tree_parse into a
 * fixed pool: allocates nothing, linear in len (the `regex` format, on the
 * request path).  false for a syntax error, for a pattern longer than
 * RE_TREE_SYNTAX_MAX, and for one refused as unsupported before its parse
 * reached the end (fail closed: the rest is unread).  Not thread-safe.
 */
bool re_tree_is_valid_syntax(const char *pattern, size_t len);

/* "invalid pattern at offset N: why", "unsupported pattern at offset N:
 * why" or "out of memory", into buf (cap bytes, NUL-terminated). */
void re_tree_message(const struct re_tree_err *err, char *buf, size_t cap);

/* The ranges of \d \w or \s (ECMA-262 22.2.2.9, and WhiteSpace and
 * LineTerminator for \s), ascending; *n gets their number. */
const struct re_tree_range *re_tree_set_ranges(enum re_tree_set s, size_t *n);

/* The node i of t, or NULL for RE_TREE_NONE. */
static inline const struct re_tree_node *
re_tree_at(const struct re_tree *t, uint32_t i)
{
	return i == RE_TREE_NONE ? NULL : &t->nodes[i];
}

/* ---- what the lint and the decoder report ask ---- */

/* Every alternative starts with ^ and ends with $ ("^a|b$" is not: "xb"
 * matches). */
bool re_tree_anchored(const struct re_tree *t);

/* The first alternative starts with ^ and the last ends with $: what
 * regex-subset decoders ask of the text. */
bool re_tree_ends_anchored(const struct re_tree *t);

/* Anchored, and no unbounded quantifier outside lookarounds: the pattern
 * bounds the length of what it matches. */
bool re_tree_bounds_length(const struct re_tree *t);

/* A lookaround, a word boundary or a back-reference: what regex-subset
 * decoders leave out. */
bool re_tree_has_lookaround(const struct re_tree *t);

/* A quantifier written with braces has v as its min or max ("{3,20}"). */
bool re_tree_has_count(const struct re_tree *t, uint32_t v);

#endif /* GPT_RE_TREE_H */
