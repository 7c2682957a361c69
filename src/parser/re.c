/*
 * re.c: `pattern`, `patternProperties` and `propertyNames` patterns, on
 * PCRE2 (8-bit code units, UTF mode).
 *
 * JSON Schema says patterns are ECMA-262 regular expressions; re_tree.c
 * reads them (the "u" flag, no other flag) into a syntax tree, and this
 * file writes from the tree a PCRE2 pattern that means the same,
 * spelling everything out so that no PCRE2 default leaks through:
 *   - literals other than ASCII letters and digits become \x{H}; a lone
 *     surrogate (\uD800, \u{DC00}) can never occur in a valid UTF-8
 *     subject, so it matches nothing (and is left out of classes);
 *   - \d \w \s and their complements, and `.`, become explicit classes
 *     of ECMA-262's sets (ASCII digits and word characters; WhiteSpace
 *     and LineTerminator, sections 12.2 and 12.3), inside classes too;
 *     \v is U+000B, not PCRE2's vertical space class;
 *   - `[]` becomes a group that never matches and `[^]` the class of
 *     every code point (PCRE2's empty class fails under a quantifier);
 *   - a back-reference becomes (?:\g{N}) (the group keeps PCRE2's JIT
 *     from failing a quantified reference to an unset group), or the
 *     empty group when the group cannot have matched yet (a forward
 *     reference, or one inside its own group); named groups become
 *     numbered ones;
 *   - \p{...} takes exactly ECMA-262's names (table-binary-unicode-
 *     properties, General_Category and Script values) and names them to
 *     PCRE2 so that its loose matching cannot pick another property.
 * `^` and `$` keep their meaning: no multiline flag, and `$` only at the
 * very end (PCRE2_DOLLAR_ENDONLY).  \b is ASCII, as PCRE2 without UCP.
 *
 * What PCRE2 cannot do exactly is refused ("unsupported pattern"), never
 * answered differently:
 *   - a back-reference to a group inside a quantified atom: ECMA-262
 *     resets its captures on each repetition and fails empty repetitions
 *     (RepeatMatcher), PCRE2 keeps the last capture;
 *   - back-references inside a lookbehind, or to a group inside one:
 *     ECMA-262 matches lookbehinds right to left;
 *   - a lookbehind whose alternatives are not each of fixed length
 *     (PCRE2 10.42's limit);
 *   - repeat counts above 65535 (PCRE2's limit);
 *   - non-ASCII group names; more than RE_TREE_MAX_NAMES named groups;
 *   - \p{Changes_When_NFKC_Casefolded}, which PCRE2 10.42 lacks.
 * \p{...} answers from PCRE2's Unicode tables (14.0.0 in PCRE2 10.42),
 * which may be older than the ECMA-262 implementation compared with: a
 * character assigned later is Unassigned (Cn) here, and a script added
 * later is refused as an unknown name.
 *
 * Bounds: the tree nests at most RE_TREE_MAX_NEST groups (re_tree.h); the
 * translation walks it twice (measure, write), recursing at most as deep
 * as it nests.  Every match runs under
 * RE_MATCH_LIMIT, RE_DEPTH_LIMIT and RE_HEAP_LIMIT_KIB (the JIT under
 * RE_MATCH_LIMIT and a fixed JIT stack); running out is RE_LIMIT, which
 * rejects.  A pattern such as `^(a+)+$` therefore answers quickly on
 * "aaaa...!" instead of backtracking for years.  Many such matches in one
 * act are bounded by the act's budget (re_search_budget, RE_ACT_MS; see
 * re.h for why a clock).
 *
 * Memory: PCRE2 allocates the compiled code (and the JIT its executable
 * pages) itself; the arena owns them through arena_defer.  The tree
 * and the translation live in the arena only until pcre2_compile
 * returns.  The match context, match data (one ovector pair) and JIT
 * stack are made once per process on first use, so a match allocates
 * nothing.
 */
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/arena.h"
#include "parser/re.h"
#include "parser/re_tree.h"

/* The JIT's own stack: deep enough for nested groups on 1 MB subjects. */
#define RE_JIT_STACK_START (32 * 1024)
#define RE_JIT_STACK_MAX (1024 * 1024)

/* PCRE2_MATCH_UNSET_BACKREF: a reference to a group that did not take
 * part (another alternative: "(a)|\1b") matches empty, as in ECMA-262.
 * PCRE2_NO_AUTO_POSSESS: 10.42's auto-possessification takes "\P{M}?"
 * before "\P{P}" for disjoint and fails "\P{M}?\P{P}" on "a".
 * PCRE2_NO_START_OPTIMIZE: with it, 10.42's JIT fails "(?:a|)x*?a" on "a".
 * Both found by tests/re-diff.sh; exact answers come before speed. */
#define RE_OPTIONS                                                             \
	(PCRE2_UTF | PCRE2_DOLLAR_ENDONLY | PCRE2_MATCH_UNSET_BACKREF |        \
	    PCRE2_NEVER_BACKSLASH_C | PCRE2_NEVER_UCP |                        \
	    PCRE2_NO_AUTO_POSSESS | PCRE2_NO_START_OPTIMIZE)

/* The code lives behind a pointer: under RE_CGI_VOUCHED it is made at
 * the first search of a pattern handed out as const. */
struct re_code {
	pcre2_code *code;  /* owned through the arena's cleanup; NULL until
	                      made, under RE_CGI_VOUCHED */
	bool jit;          /* JIT-compiled: matched by pcre2_jit_match */
	bool failed;       /* a deferred compile failed: every search errs */
	unsigned searches; /* before the JIT, under the RE_CGI modes */
	const char *text;  /* borrowed from the arena: the translation, kept
	                      for a deferred compile */
	size_t tlen;
};

struct re {
	struct re_code *c; /* borrowed from the arena */
};

static enum re_mode re_mode_now = RE_EAGER;

/* Process-wide, made once (see the file head). */
static pcre2_compile_context *re_cctx;
static pcre2_match_context *re_mctx;
static pcre2_match_data *re_md;
static pcre2_jit_stack *re_jit_stack; /* NULL: the JIT's default stack */
static bool re_ready;

/* 0, or -1 when PCRE2 could not allocate its contexts (retried later). */
static int
re_init(void)
{
	if (re_ready)
		return 0;
	if (re_cctx == NULL &&
	    (re_cctx = pcre2_compile_context_create(NULL)) == NULL)
		return -1;
	if (re_mctx == NULL &&
	    (re_mctx = pcre2_match_context_create(NULL)) == NULL)
		return -1;
	(void)pcre2_set_match_limit(re_mctx, RE_MATCH_LIMIT);
	(void)pcre2_set_depth_limit(re_mctx, RE_DEPTH_LIMIT);
	(void)pcre2_set_heap_limit(re_mctx, RE_HEAP_LIMIT_KIB);
	if (re_md == NULL && (re_md = pcre2_match_data_create(1, NULL)) == NULL)
		return -1;
	/* Without a JIT stack of our own the JIT uses 32 KiB of machine
	 * stack: enough, only with less room.  Failure is not an error. */
	if (re_jit_stack == NULL)
		re_jit_stack = pcre2_jit_stack_create(
		    RE_JIT_STACK_START, RE_JIT_STACK_MAX, NULL);
	if (re_jit_stack != NULL)
		pcre2_jit_stack_assign(re_mctx, NULL, re_jit_stack);
	re_ready = true;
	return 0;
}

/* ---- ECMA-262's sets, as PCRE2 classes --------------------------------- */

/* ECMA-262's `.`: any code point but the LineTerminators (section 12.3). */
static const char re_dot_class[] = "[^\\n\\r\\x{2028}\\x{2029}]";
/* `[^]` and the like: every code point a UTF-8 subject can hold. */
static const char re_any_class[] = "[\\x{0}-\\x{D7FF}\\x{E000}-\\x{10FFFF}]";
/* `[]`, a lone surrogate: a group (so it can be quantified) that fails. */
static const char re_never[] = "(?:(?!))";

/* ---- the translation's output ----------------------------------------- */

/* Counts only while out is NULL (the measuring walk). */
struct re_out {
	char *out; /* borrowed: cap bytes, or NULL */
	size_t cap;
	size_t len;
	bool overflow;
};

static void
re_emit(struct re_out *o, const char *p, size_t n)
{
	size_t end;

	if (!gpt_add_size(o->len, n, &end) ||
	    (o->out != NULL && end > o->cap)) {
		o->overflow = true;
		return;
	}
	if (o->out != NULL && n > 0)
		memcpy(o->out + o->len, p, n);
	o->len = end;
}

static void
re_emits(struct re_out *o, const char *s)
{
	re_emit(o, s, strlen(s));
}

/* One code point, not a surrogate, as PCRE2 reads it in or out of a
 * class: ASCII letters and digits as they are, all else \x{H}. */
static void
re_emit_cp(struct re_out *o, uint32_t cp)
{
	char b[16];
	int n;

	if ((cp >= '0' && cp <= '9') || (cp >= 'A' && cp <= 'Z') ||
	    (cp >= 'a' && cp <= 'z')) {
		b[0] = (char)cp;
		n = 1;
	} else
		n = snprintf(b, sizeof(b), "\\x{%X}", (unsigned)cp);
	re_emit(o, b, (size_t)n);
}

static bool
re_is_surrogate(uint32_t cp)
{
	return cp >= 0xD800 && cp <= 0xDFFF;
}

/* Whether lo..hi holds a code point that is not a surrogate (no UTF-8
 * subject holds one): "[\uD800-\uDFFF]" does not. */
static bool
re_range_adds(uint32_t lo, uint32_t hi)
{
	return lo < 0xD800 || hi > 0xDFFF;
}

/* The class items for lo..hi without the surrogates. */
static void
re_emit_range(struct re_out *o, uint32_t lo, uint32_t hi)
{
	uint32_t part[2][2] = {
	    {lo, hi < 0xD7FF ? hi : 0xD7FF}, {lo > 0xE000 ? lo : 0xE000, hi}};
	int i;

	for (i = 0; i < 2; i++) {
		if (part[i][0] > part[i][1])
			continue;
		re_emit_cp(o, part[i][0]);
		if (part[i][1] != part[i][0]) {
			re_emit(o, "-", 1);
			re_emit_cp(o, part[i][1]);
		}
	}
}

/* Class items for \d \w or \s, or for its complement. */
static void
re_emit_set(struct re_out *o, enum re_tree_set which, bool complement)
{
	size_t n, i;
	const struct re_tree_range *set = re_tree_set_ranges(which, &n);
	uint32_t next = 0;

	if (!complement) {
		for (i = 0; i < n; i++)
			re_emit_range(o, set[i].lo, set[i].hi);
		return;
	}
	for (i = 0; i < n; i++) {
		if (set[i].lo > next)
			re_emit_range(o, next, set[i].lo - 1);
		next = set[i].hi + 1;
	}
	if (next <= RE_TREE_MAX_CP)
		re_emit_range(o, next, RE_TREE_MAX_CP);
}

/* A property atom (in a class or not). */
static void
re_emit_prop(struct re_out *o, const struct re_tree_node *n)
{
	bool complement = n->flags & RE_TREE_NEGATED;

	if (strcmp(n->pname, "Assigned") == 0) {
		/* not in PCRE2: every code point but the unassigned ones */
		re_emits(o, complement ? "\\p{Cn}" : "\\P{Cn}");
		return;
	}
	re_emits(o, complement ? "\\P{" : "\\p{");
	re_emits(o, n->pkind);
	re_emits(o, n->pname);
	re_emit(o, "}", 1);
}

/* ---- the translation ---------------------------------------------------- */

static void re_emit_node(
    struct re_out *o, const struct re_tree *t, const struct re_tree_node *n);

/* The children of n, with sep between them (NULL: none). */
static void
re_emit_children(struct re_out *o, const struct re_tree *t,
    const struct re_tree_node *n, const char *sep)
{
	const struct re_tree_node *c;

	for (c = re_tree_at(t, n->child); c != NULL;
	     c = re_tree_at(t, c->next)) {
		if (sep != NULL && c != re_tree_at(t, n->child))
			re_emits(o, sep);
		re_emit_node(o, t, c);
	}
}

/* A class as PCRE2 class of explicit items; one that holds nothing a
 * UTF-8 subject can as re_never (negated: re_any_class). */
static void
re_emit_class(
    struct re_out *o, const struct re_tree *t, const struct re_tree_node *n)
{
	bool negated = n->flags & RE_TREE_NEGATED, any = false;
	const struct re_tree_node *c;

	for (c = re_tree_at(t, n->child); c != NULL; c = re_tree_at(t, c->next))
		any |= c->kind != RE_TREE_RANGE || re_range_adds(c->a, c->b);
	if (!any) {
		re_emits(o, negated ? re_any_class : re_never);
		return;
	}
	re_emits(o, negated ? "[^" : "[");
	for (c = re_tree_at(t, n->child); c != NULL;
	     c = re_tree_at(t, c->next)) {
		if (c->kind == RE_TREE_RANGE)
			re_emit_range(o, c->a, c->b);
		else if (c->kind == RE_TREE_SET)
			re_emit_set(o, (enum re_tree_set)c->set,
			    c->flags & RE_TREE_NEGATED);
		else
			re_emit_prop(o, c);
	}
	re_emit(o, "]", 1);
}

static void
re_emit_repeat(
    struct re_out *o, const struct re_tree *t, const struct re_tree_node *n)
{
	char b[32];
	int len;

	if ((n->flags & RE_TREE_BRACE) && n->b == 0 &&
	    !(n->flags & RE_TREE_IN_BEHIND)) {
		/* X{0} as (?:(?!)X)?: the same (X never runs, its groups
		 * stay unset), but 10.42 takes "(?:Z|^a){0}$" for anchored
		 * and fails it on " " */
		re_emits(o, "(?:(?!)");
		re_emit_node(o, t, re_tree_at(t, n->child));
		re_emit(o, ")?", 2);
		return;
	}
	re_emit_node(o, t, re_tree_at(t, n->child));
	if (!(n->flags & RE_TREE_BRACE))
		re_emits(o, n->b != RE_TREE_INF ? "?" : n->a == 0 ? "*" : "+");
	else {
		if (n->b == RE_TREE_INF)
			len = snprintf(b, sizeof(b), "{%u,}", (unsigned)n->a);
		else if (n->a == n->b)
			len = snprintf(b, sizeof(b), "{%u}", (unsigned)n->a);
		else
			len = snprintf(b, sizeof(b), "{%u,%u}", (unsigned)n->a,
			    (unsigned)n->b);
		re_emit(o, b, (size_t)len);
	}
	if (n->flags & RE_TREE_LAZY)
		re_emit(o, "?", 1);
}

/* The PCRE2 text of node n (see the file head for each rule). */
static void
re_emit_node(
    struct re_out *o, const struct re_tree *t, const struct re_tree_node *n)
{
	bool negated = n->flags & RE_TREE_NEGATED;
	char b[32];
	int len;

	switch ((enum re_tree_kind)n->kind) {
	case RE_TREE_ALT:
		re_emit_children(o, t, n, "|");
		break;
	case RE_TREE_SEQ:
		re_emit_children(o, t, n, NULL);
		break;
	case RE_TREE_CHAR:
		if (re_is_surrogate(n->a))
			re_emits(o, re_never); /* no UTF-8 subject holds one */
		else
			re_emit_cp(o, n->a);
		break;
	case RE_TREE_DOT:
		re_emits(o, re_dot_class);
		break;
	case RE_TREE_SET:
		re_emits(o, negated ? "[^" : "[");
		re_emit_set(o, (enum re_tree_set)n->set, false);
		re_emit(o, "]", 1);
		break;
	case RE_TREE_PROP:
		re_emit_prop(o, n);
		break;
	case RE_TREE_CLASS:
		re_emit_class(o, t, n);
		break;
	case RE_TREE_RANGE: /* only inside a class */
		break;
	case RE_TREE_BOL:
		re_emit(o, "^", 1);
		break;
	case RE_TREE_EOL:
		re_emit(o, "$", 1);
		break;
	case RE_TREE_WORDB: /* ASCII word characters: PCRE2 without UCP */
		re_emits(o, negated ? "\\B" : "\\b");
		break;
	case RE_TREE_GROUP: /* named groups become numbered ones */
	case RE_TREE_NCGROUP:
	case RE_TREE_LOOK:
		re_emits(o, n->kind == RE_TREE_GROUP     ? "("
		            : n->kind == RE_TREE_NCGROUP ? "(?:"
		            : !(n->flags & RE_TREE_BEHIND)
		                ? (negated ? "(?!" : "(?=")
		                : (negated ? "(?<!" : "(?<="));
		re_emit_node(o, t, re_tree_at(t, n->child));
		re_emit(o, ")", 1);
		break;
	case RE_TREE_BACKREF:
		if (n->flags & RE_TREE_UNSET) {
			re_emits(o, "(?:)"); /* undefined: matches empty */
			break;
		}
		len = snprintf(b, sizeof(b), "(?:\\g{%u})", (unsigned)n->a);
		re_emit(o, b, (size_t)len);
		break;
	case RE_TREE_REPEAT:
		re_emit_repeat(o, t, n);
		break;
	}
}

/*
 * The PCRE2 translation of pattern into *out (the arena's) and *outlen:
 * 0, or -1 with the reason in errbuf.  The tree is left in the arena.
 */
static int
re_translate(const char *pattern, size_t len, struct arena *a, char **out,
    size_t *outlen, char *errbuf, size_t errlen)
{
	struct re_tree t;
	struct re_tree_err err;
	struct re_out o = {.out = NULL};
	size_t n;

	if (re_tree_parse(pattern, len, a, &t, &err) == -1) {
		re_tree_message(&err, errbuf, errlen);
		return -1;
	}
	/* measure; write */
	re_emit_node(&o, &t, &t.nodes[0]);
	if (o.overflow || !gpt_add_size(o.len, 1, &n)) {
		snprintf(errbuf, errlen,
		    "unsupported pattern at offset 0: pattern too long");
		return -1;
	}
	if ((*out = arena_alloc(a, n)) == NULL) {
		snprintf(errbuf, errlen, "out of memory");
		return -1;
	}
	o = (struct re_out){.out = *out, .cap = n - 1};
	re_emit_node(&o, &t, &t.nodes[0]);
	(*out)[o.len] = '\0';
	*outlen = o.len;
	return 0;
}

void
re_set_mode(enum re_mode mode)
{
	re_mode_now = mode;
}

/* Release a pattern's code, made at load or at its first search. */
static void
re_free_code(void *p)
{
	struct re_code *c = p;

	if (c->code != NULL)
		pcre2_code_free(c->code);
	c->code = NULL;
}

/* pcre2_compile of a translation: NULL with the reason in errbuf. */
static pcre2_code *
re_pcre2(const char *t, size_t tlen, char *errbuf, size_t errlen)
{
	pcre2_code *code;
	PCRE2_UCHAR msg[160];
	PCRE2_SIZE erroff = 0;
	int errcode = 0;

	code = pcre2_compile(
	    (PCRE2_SPTR)t, tlen, RE_OPTIONS, &errcode, &erroff, re_cctx);
	if (code == NULL) {
		/* valid ECMA-262 that PCRE2 cannot take: "(?<=a+)b" (a
		 * lookbehind of unbounded length); the offset would count in
		 * the translation, so it is not given */
		if (pcre2_get_error_message(errcode, msg, sizeof(msg)) < 0)
			snprintf((char *)msg, sizeof(msg), "error %d", errcode);
		snprintf(errbuf, errlen, "unsupported pattern: PCRE2: %s",
		    (const char *)msg);
	}
	return code;
}

struct re *
re_compile(const char *pattern, size_t len, struct arena *a, char *errbuf,
    size_t errlen)
{
	struct re *re;
	struct re_code *c;
	char *t;
	size_t tlen;
	struct arena_mark mark;

	if (errlen > 0)
		errbuf[0] = '\0';
	if (re_init() == -1) {
		snprintf(errbuf, errlen, "out of memory");
		return NULL;
	}
	if ((re = arena_alloc(a, sizeof(*re))) == NULL ||
	    (c = arena_calloc(a, 1, sizeof(*c))) == NULL ||
	    arena_defer(a, re_free_code, c) == -1) {
		snprintf(errbuf, errlen, "out of memory");
		return NULL;
	}
	re->c = c;
	/* The translation is needed only until pcre2_compile returns,
	 * unless that is deferred to the first search. */
	mark = arena_mark(a);
	if (re_translate(pattern, len, a, &t, &tlen, errbuf, errlen) == -1) {
		arena_rewind(a, mark);
		return NULL;
	}
	if (re_mode_now == RE_CGI_VOUCHED) {
		c->text = t;
		c->tlen = tlen;
		return re;
	}
	c->code = re_pcre2(t, tlen, errbuf, errlen);
	arena_rewind(a, mark);
	if (c->code == NULL)
		return NULL;
	/* The JIT is an optimization: without it (no support, no executable
	 * memory) the interpreter gives the same answers.  Under CGI it waits
	 * for a pattern's RE_JIT_AFTER-th search: one act rarely matches a
	 * pattern often enough to pay for compiling it twice. */
	if (re_mode_now == RE_EAGER)
		c->jit = pcre2_jit_compile(c->code, PCRE2_JIT_COMPLETE) == 0;
	return re;
}

/* The code of a pattern whose compile was deferred, or that waits for
 * the JIT: false when it cannot be made (the search then errs). */
static bool
re_ready_code(struct re_code *c)
{
	char err[200];

	if (c->failed)
		return false;
	if (c->code == NULL) {
		/* the form cache vouched that this binary compiled this form;
		 * a failure now is out of memory, or the vouching was wrong:
		 * fail closed */
		if ((c->code = re_pcre2(c->text, c->tlen, err, sizeof(err))) ==
		    NULL) {
			c->failed = true;
			return false;
		}
	}
	if (!c->jit && re_mode_now != RE_EAGER && ++c->searches == RE_JIT_AFTER)
		c->jit = pcre2_jit_compile(c->code, PCRE2_JIT_COMPLETE) == 0;
	return true;
}

enum re_result
re_search(const struct re *re, const char *subject, size_t len)
{
	PCRE2_SPTR sub = (PCRE2_SPTR)(len > 0 ? subject : "");
	int rc;

	/* re_init succeeded: re_compile made re.  The parser validated the
	 * subject's UTF-8, so neither path checks it again; the JIT's own
	 * entry skips pcre2_match's argument checks and honours the match
	 * limit and JIT stack of re_mctx all the same. */
	const struct re_code *c = re->c;

	if ((c->code == NULL || (!c->jit && re_mode_now != RE_EAGER)) &&
	    !re_ready_code(re->c))
		return RE_ERROR;
	if (c->jit)
		rc = pcre2_jit_match(c->code, sub, len, 0, 0, re_md, re_mctx);
	else
		rc = pcre2_match(
		    c->code, sub, len, 0, PCRE2_NO_UTF_CHECK, re_md, re_mctx);
	if (rc >= 0)
		return RE_MATCH;
	switch (rc) {
	case PCRE2_ERROR_NOMATCH:
		return RE_NOMATCH;
	case PCRE2_ERROR_MATCHLIMIT:
	case PCRE2_ERROR_DEPTHLIMIT:
	case PCRE2_ERROR_HEAPLIMIT:
	case PCRE2_ERROR_JIT_STACKLIMIT:
	case PCRE2_ERROR_NOMEMORY:
		return RE_LIMIT; /* "^(a+)+$" on "aaaa...a!" */
	default:
		return RE_ERROR;
	}
}

enum re_result
re_search_budget(
    const struct re *re, const char *subject, size_t len, struct re_budget *b)
{
	/* The coarse clock is enough for a budget of many milliseconds. */
	int64_t now = (int64_t)gpt_now_ms();

	if (!b->started) {
		b->started = true;
		b->deadline = now + RE_ACT_MS;
	} else if (now > b->deadline) {
		/* a body of 40,000 strings "aaaaaaaaaaaaaaaaaa!" against
		 * {"items": {"not": {"pattern": "^(a+)+$"}}} */
		return RE_BUDGET;
	}
	return re_search(re, subject, len);
}
