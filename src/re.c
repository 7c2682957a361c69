/*
 * re.c: `pattern`, `patternProperties` and `propertyNames` patterns, on
 * PCRE2 (8-bit code units, UTF mode).
 *
 * JSON Schema says patterns are ECMA-262 regular expressions.  PCRE2 is
 * close to that dialect once told to be; the options below do so:
 *   PCRE2_UTF              work on code points, not bytes: `^.$` matches
 *                          one emoji, as ECMA-262 with the "u" flag does;
 *   PCRE2_DOLLAR_ENDONLY   `$` matches only at the very end, never before
 *                          a final newline (Perl's habit, not ECMA's);
 *   PCRE2_ALT_BSUX         \uHHHH is a code point and \xHH takes exactly
 *                          two hex digits, \U is a literal U;
 *   PCRE2_EXTRA_ALT_BSUX   \u{H...} too (the "u" flag's form);
 *   PCRE2_MATCH_UNSET_BACKREF  a back-reference to a group that has not
 *                          matched matches the empty string;
 *   PCRE2_ALLOW_EMPTY_CLASS  `[]` matches nothing and `[^]` anything;
 *   PCRE2_NEVER_BACKSLASH_C  \C could split a UTF-8 sequence: refused;
 *   newline ANYCRLF        CR and LF are line ends (for `^`/`$` in
 *                          (?m) and for \N).
 * Not set: PCRE2_UCP, so \d, \w and \b stay ASCII as in ECMA-262.
 *
 * Before compiling, a short pass (re_translate) rewrites what PCRE2 spells
 * differently:
 *   \s          ECMA-262's white space: ASCII white space plus U+00A0,
 *               U+1680, U+2000-U+200A, U+2028, U+2029, U+202F, U+205F,
 *               U+3000 and U+FEFF (inside a class too); \S outside a class
 *               is the complement;
 *   \p{Letter}  General_Category long names and the gc= / General_Category=
 *               forms become PCRE2's short names (\p{L}); \P likewise;
 *   .           outside a class: any code point but LF, CR, U+2028 and
 *               U+2029, ECMA-262's line terminators.
 *
 * Known differences that remain (documented in the README):
 *   - \S inside a class ("[\S\d]") is ASCII: every non-ASCII space counts
 *     as non-space there.
 *   - Lookbehind must have a bounded length; other lookbehinds refuse the
 *     form (fail closed, never a loose match).
 *   - PCRE2-only syntax is accepted (possessive quantifiers, atomic groups,
 *     \A \z, inline flags such as (?i), \Q...\E).  Such a pattern is not
 *     portable to other validators, but it is matched consistently here.
 *
 * Bounds: every match runs under RE_MATCH_LIMIT, RE_DEPTH_LIMIT and
 * RE_HEAP_LIMIT_KIB (the JIT under RE_MATCH_LIMIT and a fixed JIT stack);
 * running out is RE_LIMIT, which rejects.  A pattern such as `^(a+)+$`
 * therefore answers quickly on "aaaa...!" instead of backtracking for
 * years.  Many such matches in one act are bounded by the act's budget
 * (re_search_budget, RE_ACT_MS; see re.h for why a clock).
 *
 * Memory: PCRE2 allocates the compiled code (and the JIT its executable
 * pages) itself; the arena owns them through arena_defer.  The match
 * context, match data (one ovector pair) and JIT stack are made once per
 * process on first use, so a match allocates nothing.
 */
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "arena.h"
#include "re.h"

/* The JIT's own stack: deep enough for nested groups on 1 MB subjects. */
#define RE_JIT_STACK_START (32 * 1024)
#define RE_JIT_STACK_MAX (1024 * 1024)

#define RE_OPTIONS                                                             \
	(PCRE2_UTF | PCRE2_DOLLAR_ENDONLY | PCRE2_ALT_BSUX |                   \
	    PCRE2_MATCH_UNSET_BACKREF | PCRE2_ALLOW_EMPTY_CLASS |               \
	    PCRE2_NEVER_BACKSLASH_C)

struct re {
	pcre2_code *code; /* owned through the arena's cleanup */
	bool jit;	  /* JIT-compiled: matched by pcre2_jit_match */
};

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
	(void)pcre2_set_newline(re_cctx, PCRE2_NEWLINE_ANYCRLF);
#ifdef PCRE2_EXTRA_ALT_BSUX
	(void)pcre2_set_compile_extra_options(re_cctx, PCRE2_EXTRA_ALT_BSUX);
#endif
	if (re_mctx == NULL &&
	    (re_mctx = pcre2_match_context_create(NULL)) == NULL)
		return -1;
	(void)pcre2_set_match_limit(re_mctx, RE_MATCH_LIMIT);
	(void)pcre2_set_depth_limit(re_mctx, RE_DEPTH_LIMIT);
	(void)pcre2_set_heap_limit(re_mctx, RE_HEAP_LIMIT_KIB);
	if (re_md == NULL &&
	    (re_md = pcre2_match_data_create(1, NULL)) == NULL)
		return -1;
	/* Without a JIT stack of our own the JIT uses 32 KiB of machine
	 * stack: enough, only with less room.  Failure is not an error. */
	if (re_jit_stack == NULL)
		re_jit_stack = pcre2_jit_stack_create(RE_JIT_STACK_START,
		    RE_JIT_STACK_MAX, NULL);
	if (re_jit_stack != NULL)
		pcre2_jit_stack_assign(re_mctx, NULL, re_jit_stack);
	re_ready = true;
	return 0;
}

/* ---- ECMA-262 spellings PCRE2 lacks ---------------------------------- */

/* ECMA-262 WhiteSpace and LineTerminator (sections 12.2 and 12.3), as class
 * items. */
static const char re_space_items[] =
    "\\t\\n\\x0B\\f\\r \\u00A0\\u1680\\u2000-\\u200A\\u2028\\u2029"
    "\\u202F\\u205F\\u3000\\uFEFF";

/* ECMA-262's `.`: any code point but the LineTerminators (section 12.3). */
static const char re_dot_class[] = "[^\\n\\r\\u2028\\u2029]";

/* Unicode General_Category long names, as ECMA-262 accepts them. */
static const struct {
	const char *name;
	const char *pcre; /* PCRE2's short name */
} re_gc_names[] = {
    {"Letter", "L"}, {"Cased_Letter", "L&"}, {"Uppercase_Letter", "Lu"},
    {"Lowercase_Letter", "Ll"}, {"Titlecase_Letter", "Lt"},
    {"Modifier_Letter", "Lm"}, {"Other_Letter", "Lo"}, {"Mark", "M"},
    {"Combining_Mark", "M"}, {"Nonspacing_Mark", "Mn"},
    {"Spacing_Mark", "Mc"}, {"Enclosing_Mark", "Me"}, {"Number", "N"},
    {"Decimal_Number", "Nd"}, {"digit", "Nd"}, {"Letter_Number", "Nl"},
    {"Other_Number", "No"}, {"Punctuation", "P"}, {"punct", "P"},
    {"Connector_Punctuation", "Pc"}, {"Dash_Punctuation", "Pd"},
    {"Open_Punctuation", "Ps"}, {"Close_Punctuation", "Pe"},
    {"Initial_Punctuation", "Pi"}, {"Final_Punctuation", "Pf"},
    {"Other_Punctuation", "Po"}, {"Symbol", "S"}, {"Math_Symbol", "Sm"},
    {"Currency_Symbol", "Sc"}, {"Modifier_Symbol", "Sk"},
    {"Other_Symbol", "So"}, {"Separator", "Z"}, {"Space_Separator", "Zs"},
    {"Line_Separator", "Zl"}, {"Paragraph_Separator", "Zp"},
    {"Other", "C"}, {"Control", "Cc"}, {"cntrl", "Cc"}, {"Format", "Cf"},
    {"Surrogate", "Cs"}, {"Private_Use", "Co"}, {"Unassigned", "Cn"},
    {"LC", "L&"},
};

/* Output of re_translate: counts only while out is NULL. */
struct re_out {
	char *out;
	size_t len;
};

static void
emit(struct re_out *o, const char *p, size_t n)
{
	if (o->out != NULL)
		memcpy(o->out + o->len, p, n);
	o->len += n;
}

static bool
starts(const char *p, size_t n, const char *prefix)
{
	size_t k = strlen(prefix);

	return n >= k && memcmp(p, prefix, k) == 0;
}

/*
 * The property name of \\p{name} (n bytes) as PCRE2 spells it, in *out and
 * *outn; false to keep it as written (a short name, a script, a binary
 * property).
 */
static bool
gc_short(const char *name, size_t n, const char **out, size_t *outn)
{
	bool prefixed = false;
	size_t i;

	if (starts(name, n, "General_Category=")) {
		name += 17;
		n -= 17;
		prefixed = true;
	} else if (starts(name, n, "gc=")) {
		name += 3;
		n -= 3;
		prefixed = true;
	}
	for (i = 0; i < GPT_ARRAY_LEN(re_gc_names); i++)
		if (strlen(re_gc_names[i].name) == n &&
		    memcmp(re_gc_names[i].name, name, n) == 0) {
			*out = re_gc_names[i].pcre;
			*outn = strlen(*out);
			return true;
		}
	/* "gc=Lu": the short name PCRE2 knows */
	*out = name;
	*outn = n;
	return prefixed;
}

/*
 * Rewrite pattern (len bytes) into o (see the file head).  One pass,
 * tracking escapes, \Q...\E and whether we are inside a [class]; every
 * byte is read once, so the work is linear in len.
 */
static void
re_translate(const char *p, size_t len, struct re_out *o)
{
	bool in_class = false;
	size_t i = 0, j;

	while (i < len) {
		char c = p[i];

		if (c == '[' && !in_class) {
			in_class = true;
			emit(o, p + i, 1);
			i++;
			/* "[]" and "[^]" are whole classes (ECMA-262) */
			if (i < len && p[i] == '^') {
				emit(o, p + i, 1);
				i++;
			}
			continue;
		}
		if (c == ']' && in_class) {
			in_class = false;
			emit(o, p + i, 1);
			i++;
			continue;
		}
		if (c == '.' && !in_class) {
			/* ECMA-262's `.`: anything but a line terminator */
			emit(o, re_dot_class, sizeof(re_dot_class) - 1);
			i++;
			continue;
		}
		if (c != '\\' || i + 1 >= len) {
			emit(o, p + i, 1);
			i++;
			continue;
		}
		c = p[i + 1];
		if (c == 'Q') {
			/* \Q...\E quotes everything up to \E */
			for (j = i + 2; j + 1 < len; j++)
				if (p[j] == '\\' && p[j + 1] == 'E')
					break;
			j = j + 1 < len ? j + 2 : len;
			emit(o, p + i, j - i);
			i = j;
			continue;
		}
		if (c == 's' || (c == 'S' && !in_class)) {
			if (!in_class)
				emit(o, c == 's' ? "[" : "[^", c == 's' ? 1 : 2);
			emit(o, re_space_items, sizeof(re_space_items) - 1);
			if (!in_class)
				emit(o, "]", 1);
			i += 2;
			continue;
		}
		if ((c == 'p' || c == 'P') && i + 2 < len && p[i + 2] == '{') {
			const char *sh;
			size_t shn;

			for (j = i + 3; j < len && p[j] != '}'; j++)
				continue;
			if (j < len && gc_short(p + i + 3, j - (i + 3), &sh, &shn)) {
				emit(o, p + i, 3);
				emit(o, sh, shn);
				emit(o, "}", 1);
				i = j + 1;
				continue;
			}
		}
		/* any other escape: both bytes as they are */
		emit(o, p + i, 2);
		i += 2;
	}
}

static void
re_free(void *p)
{
	pcre2_code_free(p);
}

struct re *
re_compile(const char *pattern, size_t len, struct arena *a, char *errbuf,
    size_t errlen)
{
	struct re *re;
	pcre2_code *code;
	PCRE2_UCHAR msg[160];
	PCRE2_SIZE erroff = 0;
	int errcode = 0;
	struct re_out t = {.out = NULL, .len = 0};
	struct arena_mark mark;

	if (errlen > 0)
		errbuf[0] = '\0';
	if (re_init() == -1) {
		snprintf(errbuf, errlen, "out of memory");
		return NULL;
	}
	if ((re = arena_alloc(a, sizeof(*re))) == NULL) {
		snprintf(errbuf, errlen, "out of memory");
		return NULL;
	}
	/* The translation is needed only until pcre2_compile returns. */
	mark = arena_mark(a);
	re_translate(pattern, len, &t);
	if ((t.out = arena_alloc(a, t.len + 1)) == NULL) {
		snprintf(errbuf, errlen, "out of memory");
		return NULL;
	}
	t.len = 0;
	re_translate(pattern, len, &t);
	code = pcre2_compile((PCRE2_SPTR)t.out, t.len, RE_OPTIONS, &errcode,
	    &erroff, re_cctx);
	arena_rewind(a, mark);
	if (code == NULL) {
		/* "(?<=a+)b", "a{2,1}", "(", "\\C", invalid UTF-8; the offset
		 * counts in the translated pattern */
		if (pcre2_get_error_message(errcode, msg, sizeof(msg)) < 0)
			snprintf((char *)msg, sizeof(msg), "error %d", errcode);
		snprintf(errbuf, errlen, "invalid pattern near offset %zu: %s",
		    (size_t)erroff, (const char *)msg);
		return NULL;
	}
	if (arena_defer(a, re_free, code) == -1) {
		pcre2_code_free(code);
		snprintf(errbuf, errlen, "out of memory");
		return NULL;
	}
	/* The JIT is an optimization: without it (no support, no executable
	 * memory) the interpreter gives the same answers. */
	re->jit = pcre2_jit_compile(code, PCRE2_JIT_COMPLETE) == 0;
	re->code = code;
	return re;
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
	if (re->jit)
		rc = pcre2_jit_match(re->code, sub, len, 0, 0, re_md, re_mctx);
	else
		rc = pcre2_match(re->code, sub, len, 0, PCRE2_NO_UTF_CHECK,
		    re_md, re_mctx);
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

/* The coarse clock is enough for a budget of many milliseconds and costs
 * a read of memory the kernel keeps current. */
#ifdef CLOCK_MONOTONIC_COARSE
#define RE_CLOCK CLOCK_MONOTONIC_COARSE
#else
#define RE_CLOCK CLOCK_MONOTONIC
#endif

static int64_t
re_now_ms(void)
{
	struct timespec ts;

	/* cannot fail with a valid clock id; a zero time would only start
	 * the budget early */
	if (clock_gettime(RE_CLOCK, &ts) == -1)
		return 0;
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void
re_budget_init(struct re_budget *b)
{
	b->started = false;
	b->deadline = 0;
}

enum re_result
re_search_budget(const struct re *re, const char *subject, size_t len,
    struct re_budget *b)
{
	int64_t now = re_now_ms();

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
