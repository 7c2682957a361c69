/*
 * re.c: `pattern`, `patternProperties` and `propertyNames` patterns, on
 * PCRE2 (8-bit code units, UTF mode).
 *
 * JSON Schema says patterns are ECMA-262 regular expressions; we read them
 * as ECMA-262 (2023) section 22.2 with the "u" flag and no other flag:
 * Annex B's relaxations (a lone "{" or "]", "\c_" in classes, octal
 * escapes, identity escapes of letters, quantified lookaheads) do not
 * apply in that mode, and neither does PCRE2-only syntax ("(?i)", "(?>",
 * "a*+", "\A", "\Q..\E"): each is a syntax error, which refuses the form,
 * as `new RegExp(p, "u")` throws.
 *
 * A recursive-descent parser of that grammar (re_disjunction down to
 * re_class_atom) writes a PCRE2 pattern that means the same, spelling
 * everything out so that no PCRE2 default leaks through:
 *   - literals other than ASCII letters and digits become \x{H}; \uHHHH
 *     pairs that form a surrogate pair are one code point; a lone
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
 *   - non-ASCII group names; more than RE_MAX_NAMES named groups;
 *   - \p{Changes_When_NFKC_Casefolded}, which PCRE2 10.42 lacks.
 * \p{...} answers from PCRE2's Unicode tables (14.0.0 in PCRE2 10.42),
 * which may be older than the ECMA-262 implementation compared with: a
 * character assigned later is Unassigned (Cn) here, and a script added
 * later is refused as an unknown name.
 *
 * Bounds: the parser nests at most RE_MAX_NEST groups and reads each byte
 * a bounded number of times in each of its three passes (collect the
 * groups, measure the translation, write it).  Every match runs under
 * RE_MATCH_LIMIT, RE_DEPTH_LIMIT and RE_HEAP_LIMIT_KIB (the JIT under
 * RE_MATCH_LIMIT and a fixed JIT stack); running out is RE_LIMIT, which
 * rejects.  A pattern such as `^(a+)+$` therefore answers quickly on
 * "aaaa...!" instead of backtracking for years.  Many such matches in one
 * act are bounded by the act's budget (re_search_budget, RE_ACT_MS; see
 * re.h for why a clock).
 *
 * Memory: PCRE2 allocates the compiled code (and the JIT its executable
 * pages) itself; the arena owns them through arena_defer.  The group
 * table and the translation live in the arena only until pcre2_compile
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
#include "base/utf8.h"

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
	    PCRE2_NEVER_BACKSLASH_C | PCRE2_NEVER_UCP | PCRE2_NO_AUTO_POSSESS | \
	    PCRE2_NO_START_OPTIMIZE)

#define RE_MAX_NEST 200	  /* groups inside groups; PCRE2 allows 250 */
#define RE_MAX_REPEAT 65535u /* PCRE2's largest {n,m} */
#define RE_MAX_NAMES 1000 /* named groups: names are compared pairwise */
#define RE_MAX_CP 0x10FFFFu

/* The code lives behind a pointer: under RE_CGI_VOUCHED it is made at
 * the first search of a pattern handed out as const. */
struct re_code {
	pcre2_code *code; /* owned through the arena's cleanup; NULL until
	                     made, under RE_CGI_VOUCHED */
	bool jit;	  /* JIT-compiled: matched by pcre2_jit_match */
	bool failed;	  /* a deferred compile failed: every search errs */
	unsigned searches; /* before the JIT, under the RE_CGI modes */
	const char *text; /* borrowed from the arena: the translation, kept
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

/* ---- ECMA-262's sets and names --------------------------------------- */

struct re_range {
	uint32_t lo, hi;
};

/* \d, \w (section 22.2.2.9, no "i" flag) and \s (WhiteSpace: TAB, VT, FF,
 * ZWNBSP and Unicode's Zs; LineTerminator: LF, CR, LS, PS), ascending. */
static const struct re_range re_digit[] = {{0x30, 0x39}};
static const struct re_range re_word[] = {
    {0x30, 0x39}, {0x41, 0x5A}, {0x5F, 0x5F}, {0x61, 0x7A}};
static const struct re_range re_space[] = {
    {0x09, 0x0D}, {0x20, 0x20}, {0xA0, 0xA0}, {0x1680, 0x1680},
    {0x2000, 0x200A}, {0x2028, 0x2029}, {0x202F, 0x202F}, {0x205F, 0x205F},
    {0x3000, 0x3000}, {0xFEFF, 0xFEFF}};

/* ECMA-262's `.`: any code point but the LineTerminators (section 12.3). */
static const char re_dot_class[] = "[^\\n\\r\\x{2028}\\x{2029}]";
/* `[^]` and the like: every code point a UTF-8 subject can hold. */
static const char re_any_class[] = "[\\x{0}-\\x{D7FF}\\x{E000}-\\x{10FFFF}]";
/* `[]`, a lone surrogate: a group (so it can be quantified) that fails. */
static const char re_never[] = "(?:(?!))";

/* General_Category values and aliases (PropertyValueAliases.txt), as
 * \p{X}, \p{gc=X} and \p{General_Category=X} take them; PCRE2's name. */
static const struct {
	const char *name;
	const char *pcre;
} re_gc_names[] = {
    {"C", "C"}, {"Other", "C"}, {"Cc", "Cc"}, {"Control", "Cc"},
    {"cntrl", "Cc"}, {"Cf", "Cf"}, {"Format", "Cf"}, {"Cn", "Cn"},
    {"Unassigned", "Cn"}, {"Co", "Co"}, {"Private_Use", "Co"},
    {"Cs", "Cs"}, {"Surrogate", "Cs"}, {"L", "L"}, {"Letter", "L"},
    {"LC", "L&"}, {"Cased_Letter", "L&"}, {"Ll", "Ll"},
    {"Lowercase_Letter", "Ll"}, {"Lm", "Lm"}, {"Modifier_Letter", "Lm"},
    {"Lo", "Lo"}, {"Other_Letter", "Lo"}, {"Lt", "Lt"},
    {"Titlecase_Letter", "Lt"}, {"Lu", "Lu"}, {"Uppercase_Letter", "Lu"},
    {"M", "M"}, {"Mark", "M"}, {"Combining_Mark", "M"}, {"Mc", "Mc"},
    {"Spacing_Mark", "Mc"}, {"Me", "Me"}, {"Enclosing_Mark", "Me"},
    {"Mn", "Mn"}, {"Nonspacing_Mark", "Mn"}, {"N", "N"}, {"Number", "N"},
    {"Nd", "Nd"}, {"Decimal_Number", "Nd"}, {"digit", "Nd"}, {"Nl", "Nl"},
    {"Letter_Number", "Nl"}, {"No", "No"}, {"Other_Number", "No"},
    {"P", "P"}, {"Punctuation", "P"}, {"punct", "P"}, {"Pc", "Pc"},
    {"Connector_Punctuation", "Pc"}, {"Pd", "Pd"},
    {"Dash_Punctuation", "Pd"}, {"Pe", "Pe"}, {"Close_Punctuation", "Pe"},
    {"Pf", "Pf"}, {"Final_Punctuation", "Pf"}, {"Pi", "Pi"},
    {"Initial_Punctuation", "Pi"}, {"Po", "Po"},
    {"Other_Punctuation", "Po"}, {"Ps", "Ps"}, {"Open_Punctuation", "Ps"},
    {"S", "S"}, {"Symbol", "S"}, {"Sc", "Sc"}, {"Currency_Symbol", "Sc"},
    {"Sk", "Sk"}, {"Modifier_Symbol", "Sk"}, {"Sm", "Sm"},
    {"Math_Symbol", "Sm"}, {"So", "So"}, {"Other_Symbol", "So"},
    {"Z", "Z"}, {"Separator", "Z"}, {"Zl", "Zl"}, {"Line_Separator", "Zl"},
    {"Zp", "Zp"}, {"Paragraph_Separator", "Zp"}, {"Zs", "Zs"},
    {"Space_Separator", "Zs"},
};

/* ECMA-262's binary properties (table-binary-unicode-properties), names
 * and aliases; PCRE2's name for each.  Assigned is \P{Cn}; NULL: PCRE2
 * 10.42 has no such property. */
static const struct {
	const char *name;
	const char *pcre;
} re_binary_names[] = {
    {"ASCII", "ASCII"}, {"ASCII_Hex_Digit", "ASCII_Hex_Digit"},
    {"AHex", "ASCII_Hex_Digit"}, {"Alphabetic", "Alphabetic"},
    {"Alpha", "Alphabetic"}, {"Any", "Any"}, {"Assigned", "Assigned"},
    {"Bidi_Control", "Bidi_Control"}, {"Bidi_C", "Bidi_Control"},
    {"Bidi_Mirrored", "Bidi_Mirrored"}, {"Bidi_M", "Bidi_Mirrored"},
    {"Case_Ignorable", "Case_Ignorable"}, {"CI", "Case_Ignorable"},
    {"Cased", "Cased"},
    {"Changes_When_Casefolded", "Changes_When_Casefolded"},
    {"CWCF", "Changes_When_Casefolded"},
    {"Changes_When_Casemapped", "Changes_When_Casemapped"},
    {"CWCM", "Changes_When_Casemapped"},
    {"Changes_When_Lowercased", "Changes_When_Lowercased"},
    {"CWL", "Changes_When_Lowercased"},
    {"Changes_When_NFKC_Casefolded", NULL}, {"CWKCF", NULL},
    {"Changes_When_Titlecased", "Changes_When_Titlecased"},
    {"CWT", "Changes_When_Titlecased"},
    {"Changes_When_Uppercased", "Changes_When_Uppercased"},
    {"CWU", "Changes_When_Uppercased"}, {"Dash", "Dash"},
    {"Default_Ignorable_Code_Point", "Default_Ignorable_Code_Point"},
    {"DI", "Default_Ignorable_Code_Point"}, {"Deprecated", "Deprecated"},
    {"Dep", "Deprecated"}, {"Diacritic", "Diacritic"},
    {"Dia", "Diacritic"}, {"Emoji", "Emoji"},
    {"Emoji_Component", "Emoji_Component"}, {"EComp", "Emoji_Component"},
    {"Emoji_Modifier", "Emoji_Modifier"}, {"EMod", "Emoji_Modifier"},
    {"Emoji_Modifier_Base", "Emoji_Modifier_Base"},
    {"EBase", "Emoji_Modifier_Base"},
    {"Emoji_Presentation", "Emoji_Presentation"},
    {"EPres", "Emoji_Presentation"},
    {"Extended_Pictographic", "Extended_Pictographic"},
    {"ExtPict", "Extended_Pictographic"}, {"Extender", "Extender"},
    {"Ext", "Extender"}, {"Grapheme_Base", "Grapheme_Base"},
    {"Gr_Base", "Grapheme_Base"}, {"Grapheme_Extend", "Grapheme_Extend"},
    {"Gr_Ext", "Grapheme_Extend"}, {"Hex_Digit", "Hex_Digit"},
    {"Hex", "Hex_Digit"}, {"IDS_Binary_Operator", "IDS_Binary_Operator"},
    {"IDSB", "IDS_Binary_Operator"},
    {"IDS_Trinary_Operator", "IDS_Trinary_Operator"},
    {"IDST", "IDS_Trinary_Operator"}, {"ID_Continue", "ID_Continue"},
    {"IDC", "ID_Continue"}, {"ID_Start", "ID_Start"}, {"IDS", "ID_Start"},
    {"Ideographic", "Ideographic"}, {"Ideo", "Ideographic"},
    {"Join_Control", "Join_Control"}, {"Join_C", "Join_Control"},
    {"Logical_Order_Exception", "Logical_Order_Exception"},
    {"LOE", "Logical_Order_Exception"}, {"Lowercase", "Lowercase"},
    {"Lower", "Lowercase"}, {"Math", "Math"},
    {"Noncharacter_Code_Point", "Noncharacter_Code_Point"},
    {"NChar", "Noncharacter_Code_Point"},
    {"Pattern_Syntax", "Pattern_Syntax"}, {"Pat_Syn", "Pattern_Syntax"},
    {"Pattern_White_Space", "Pattern_White_Space"},
    {"Pat_WS", "Pattern_White_Space"}, {"Quotation_Mark", "Quotation_Mark"},
    {"QMark", "Quotation_Mark"}, {"Radical", "Radical"},
    {"Regional_Indicator", "Regional_Indicator"},
    {"RI", "Regional_Indicator"}, {"Sentence_Terminal", "Sentence_Terminal"},
    {"STerm", "Sentence_Terminal"}, {"Soft_Dotted", "Soft_Dotted"},
    {"SD", "Soft_Dotted"}, {"Terminal_Punctuation", "Terminal_Punctuation"},
    {"Term", "Terminal_Punctuation"},
    {"Unified_Ideograph", "Unified_Ideograph"},
    {"UIdeo", "Unified_Ideograph"}, {"Uppercase", "Uppercase"},
    {"Upper", "Uppercase"}, {"Variation_Selector", "Variation_Selector"},
    {"VS", "Variation_Selector"}, {"White_Space", "White_Space"},
    {"space", "White_Space"}, {"XID_Continue", "XID_Continue"},
    {"XIDC", "XID_Continue"}, {"XID_Start", "XID_Start"},
    {"XIDS", "XID_Start"},
};

/* Script values and aliases of Unicode 14.0.0 (PropertyValueAliases.txt;
 * the version of PCRE2 10.42's tables), for \p{Script=X}, \p{sc=X},
 * \p{Script_Extensions=X} and \p{scx=X}; in strcmp order. */
static const char *const re_script_names[] = {
    "Adlam", "Adlm", "Aghb", "Ahom", "Anatolian_Hieroglyphs", "Arab",
    "Arabic", "Armenian", "Armi", "Armn", "Avestan", "Avst", "Bali",
    "Balinese", "Bamu", "Bamum", "Bass", "Bassa_Vah", "Batak", "Batk", "Beng",
    "Bengali", "Bhaiksuki", "Bhks", "Bopo", "Bopomofo", "Brah", "Brahmi",
    "Brai", "Braille", "Bugi", "Buginese", "Buhd", "Buhid", "Cakm",
    "Canadian_Aboriginal", "Cans", "Cari", "Carian", "Caucasian_Albanian",
    "Chakma", "Cham", "Cher", "Cherokee", "Chorasmian", "Chrs", "Common",
    "Copt", "Coptic", "Cpmn", "Cprt", "Cuneiform", "Cypriot", "Cypro_Minoan",
    "Cyrillic", "Cyrl", "Deseret", "Deva", "Devanagari", "Diak",
    "Dives_Akuru", "Dogr", "Dogra", "Dsrt", "Dupl", "Duployan", "Egyp",
    "Egyptian_Hieroglyphs", "Elba", "Elbasan", "Elym", "Elymaic", "Ethi",
    "Ethiopic", "Geor", "Georgian", "Glag", "Glagolitic", "Gong", "Gonm",
    "Goth", "Gothic", "Gran", "Grantha", "Greek", "Grek", "Gujarati", "Gujr",
    "Gunjala_Gondi", "Gurmukhi", "Guru", "Han", "Hang", "Hangul", "Hani",
    "Hanifi_Rohingya", "Hano", "Hanunoo", "Hatr", "Hatran", "Hebr", "Hebrew",
    "Hira", "Hiragana", "Hluw", "Hmng", "Hmnp", "Hung", "Imperial_Aramaic",
    "Inherited", "Inscriptional_Pahlavi", "Inscriptional_Parthian", "Ital",
    "Java", "Javanese", "Kaithi", "Kali", "Kana", "Kannada", "Katakana",
    "Kayah_Li", "Khar", "Kharoshthi", "Khitan_Small_Script", "Khmer", "Khmr",
    "Khoj", "Khojki", "Khudawadi", "Kits", "Knda", "Kthi", "Lana", "Lao",
    "Laoo", "Latin", "Latn", "Lepc", "Lepcha", "Limb", "Limbu", "Lina",
    "Linb", "Linear_A", "Linear_B", "Lisu", "Lyci", "Lycian", "Lydi",
    "Lydian", "Mahajani", "Mahj", "Maka", "Makasar", "Malayalam", "Mand",
    "Mandaic", "Mani", "Manichaean", "Marc", "Marchen", "Masaram_Gondi",
    "Medefaidrin", "Medf", "Meetei_Mayek", "Mend", "Mende_Kikakui", "Merc",
    "Mero", "Meroitic_Cursive", "Meroitic_Hieroglyphs", "Miao", "Mlym",
    "Modi", "Mong", "Mongolian", "Mro", "Mroo", "Mtei", "Mult", "Multani",
    "Myanmar", "Mymr", "Nabataean", "Nand", "Nandinagari", "Narb", "Nbat",
    "New_Tai_Lue", "Newa", "Nko", "Nkoo", "Nshu", "Nushu",
    "Nyiakeng_Puachue_Hmong", "Ogam", "Ogham", "Ol_Chiki", "Olck",
    "Old_Hungarian", "Old_Italic", "Old_North_Arabian", "Old_Permic",
    "Old_Persian", "Old_Sogdian", "Old_South_Arabian", "Old_Turkic",
    "Old_Uyghur", "Oriya", "Orkh", "Orya", "Osage", "Osge", "Osma", "Osmanya",
    "Ougr", "Pahawh_Hmong", "Palm", "Palmyrene", "Pau_Cin_Hau", "Pauc",
    "Perm", "Phag", "Phags_Pa", "Phli", "Phlp", "Phnx", "Phoenician", "Plrd",
    "Prti", "Psalter_Pahlavi", "Qaac", "Qaai", "Rejang", "Rjng", "Rohg",
    "Runic", "Runr", "Samaritan", "Samr", "Sarb", "Saur", "Saurashtra",
    "Sgnw", "Sharada", "Shavian", "Shaw", "Shrd", "Sidd", "Siddham",
    "SignWriting", "Sind", "Sinh", "Sinhala", "Sogd", "Sogdian", "Sogo",
    "Sora", "Sora_Sompeng", "Soyo", "Soyombo", "Sund", "Sundanese", "Sylo",
    "Syloti_Nagri", "Syrc", "Syriac", "Tagalog", "Tagb", "Tagbanwa", "Tai_Le",
    "Tai_Tham", "Tai_Viet", "Takr", "Takri", "Tale", "Talu", "Tamil", "Taml",
    "Tang", "Tangsa", "Tangut", "Tavt", "Telu", "Telugu", "Tfng", "Tglg",
    "Thaa", "Thaana", "Thai", "Tibetan", "Tibt", "Tifinagh", "Tirh",
    "Tirhuta", "Tnsa", "Toto", "Ugar", "Ugaritic", "Unknown", "Vai", "Vaii",
    "Vith", "Vithkuqi", "Wancho", "Wara", "Warang_Citi", "Wcho", "Xpeo",
    "Xsux", "Yezi", "Yezidi", "Yi", "Yiii", "Zanabazar_Square", "Zanb",
    "Zinh", "Zyyy", "Zzzz",
};

/* ---- the translation's output ----------------------------------------- */

/* Counts only while out is NULL; max is the longest it ever was (a class
 * that turns out empty is taken back, see re_class). */
struct re_out {
	char *out; /* borrowed: cap bytes, or NULL */
	size_t cap;
	size_t len;
	size_t max;
	bool overflow;
	/* syntax only (re_is_valid_syntax): nothing is written or
	 * measured, so the emitters return at once */
	bool discard;
};

static void
re_emit(struct re_out *o, const char *p, size_t n)
{
	size_t end;

	if (o->discard)
		return;
	if (!gpt_add_size(o->len, n, &end) ||
	    (o->out != NULL && end > o->cap)) {
		o->overflow = true;
		return;
	}
	if (o->out != NULL && n > 0)
		memcpy(o->out + o->len, p, n);
	o->len = end;
	if (end > o->max)
		o->max = end;
}

/* Insert s at offset at (at most o->len), after what was emitted. */
static void
re_insert(struct re_out *o, size_t at, const char *s)
{
	size_t n = strlen(s), tail = o->len - at;

	re_emit(o, s, n); /* grows by n, or marks the overflow */
	if (o->overflow || o->out == NULL)
		return;
	memmove(o->out + at + n, o->out + at, tail);
	memcpy(o->out + at, s, n);
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

	if (o->discard)
		return;
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

/* The class items for lo..hi without the surrogates (no UTF-8 subject
 * holds one); false when nothing is left ("[\uD800-\uDFFF]"). */
static bool
re_emit_range(struct re_out *o, uint32_t lo, uint32_t hi)
{
	bool any = false;
	uint32_t part[2][2] = {{lo, hi < 0xD7FF ? hi : 0xD7FF},
	    {lo > 0xE000 ? lo : 0xE000, hi}};
	int i;

	for (i = 0; i < 2; i++) {
		if (part[i][0] > part[i][1])
			continue;
		re_emit_cp(o, part[i][0]);
		if (part[i][1] != part[i][0]) {
			re_emit(o, "-", 1);
			re_emit_cp(o, part[i][1]);
		}
		any = true;
	}
	return any;
}

/* Class items for set (n ascending ranges), or for its complement. */
static void
re_emit_set(struct re_out *o, const struct re_range *set, size_t n,
    bool complement)
{
	uint32_t next = 0;
	size_t i;

	if (o->discard)
		return;
	if (!complement) {
		for (i = 0; i < n; i++)
			(void)re_emit_range(o, set[i].lo, set[i].hi);
		return;
	}
	for (i = 0; i < n; i++) {
		if (set[i].lo > next)
			(void)re_emit_range(o, next, set[i].lo - 1);
		next = set[i].hi + 1;
	}
	if (next <= RE_MAX_CP)
		(void)re_emit_range(o, next, RE_MAX_CP);
}

/* ---- the parser -------------------------------------------------------- */

/* A capturing group, as the first pass finds it. */
struct re_group {
	const unsigned char *name; /* borrowed from the pattern; NULL: none */
	size_t name_len;
	bool quantified; /* inside an atom with a quantifier (not {1}) */
	bool in_behind;	 /* inside a lookbehind */
	bool closed;	 /* its ")" has been read, in this pass */
};

struct re_parse {
	const unsigned char *p; /* borrowed: the pattern */
	size_t len;
	size_t pos;
	struct re_out *o;	  /* borrowed */
	struct re_group *groups;  /* borrowed: room for ngroups_max */
	size_t ngroups_max;	  /* '(' in the pattern: at least the groups */
	size_t ngroups;		  /* groups opened so far in this pass */
	size_t total;		  /* all groups (known after the first pass) */
	size_t nnames;		  /* named groups so far */
	bool first;		  /* the first pass: references unresolved */
	bool backrefs;		  /* the first pass met a back-reference */
	unsigned depth;		  /* groups open around pos */
	unsigned behind;	  /* lookbehinds open around pos */
	const char *err;	  /* static: why the pattern is refused */
	size_t err_at;		  /* byte offset in the pattern */
	bool unsupported;	  /* valid ECMA-262 we cannot match exactly */
	unsigned features;	  /* RE_F_*: what the pattern uses */
};

/* What one class atom is: a code point, one of \d \w \s (or their
 * complements), or a property escape. */
struct re_atom {
	enum { RE_A_CP, RE_A_SET, RE_A_PROP } kind;
	uint32_t cp;
	const struct re_range *set;
	size_t nset;
	bool complement;  /* \D \W \S, or \P */
	const char *pkind; /* "", "sc:" or "scx:" */
	const char *pname; /* PCRE2's name; "Assigned" is \P{Cn} */
	size_t pname_len;
};

static int
re_fail(struct re_parse *ps, size_t at, const char *why)
{
	if (ps->err == NULL) {
		ps->err = why;
		ps->err_at = at;
	}
	return -1;
}

static int
re_refuse(struct re_parse *ps, size_t at, const char *why)
{
	if (ps->err == NULL)
		ps->unsupported = true;
	return re_fail(ps, at, why);
}

/* The byte at pos + k, or -1 past the end. */
static int
re_peek(const struct re_parse *ps, size_t k)
{
	if (k >= ps->len - ps->pos)
		return -1;
	return ps->p[ps->pos + k];
}

static bool
re_eat(struct re_parse *ps, int c)
{
	if (re_peek(ps, 0) != c)
		return false;
	ps->pos++;
	return true;
}

/* The value of the hex digit at pos + k, or -1 (not one, or past the end). */
static int
re_hex_at(const struct re_parse *ps, size_t k)
{
	int c = re_peek(ps, k);

	return c < 0 ? -1 : gpt_hex_value((unsigned char)c);
}

/* Four hex digits at pos + k, or -1. */
static int32_t
re_hex4(const struct re_parse *ps, size_t k)
{
	int32_t v = 0;
	int i, d;

	for (i = 0; i < 4; i++) {
		if ((d = re_hex_at(ps, k + (size_t)i)) < 0)
			return -1;
		v = v * 16 + d;
	}
	return v;
}

static bool
re_is_syntax(int c)
{
	return c != -1 && c != 0 && strchr("^$\\.*+?()[]{}|", c) != NULL;
}

/*
 * RegExpUnicodeEscapeSequence[+UnicodeMode] (22.2.1), pos just after the
 * "u": \uHHHH (a lead and a trail surrogate escape in a row are one code
 * point) or \u{H...} up to U+10FFFF.  The result may be a lone surrogate.
 */
static int
re_unicode_escape(struct re_parse *ps, uint32_t *cp)
{
	size_t at = ps->pos - 2;
	int32_t v, t;
	uint32_t w = 0;
	int d;

	if (re_eat(ps, '{')) {
		if (re_hex_at(ps, 0) < 0)
			return re_fail(ps, at, "\\u{ needs hex digits");
		while ((d = re_hex_at(ps, 0)) >= 0) {
			w = w * 16 + (uint32_t)d;
			if (w > RE_MAX_CP) /* hits on "\\u{110000}" */
				return re_fail(ps, at,
				    "\\u{...} beyond U+10FFFF");
			ps->pos++;
		}
		if (!re_eat(ps, '}'))
			return re_fail(ps, at, "\\u{ without its }");
		*cp = w;
		return 0;
	}
	if ((v = re_hex4(ps, 0)) < 0) /* hits on "\\u12" */
		return re_fail(ps, at, "\\u needs four hex digits");
	ps->pos += 4;
	if (v >= 0xD800 && v <= 0xDBFF && re_peek(ps, 0) == '\\' &&
	    re_peek(ps, 1) == 'u' && (t = re_hex4(ps, 2)) >= 0xDC00 &&
	    t <= 0xDFFF) {
		/* "\uD83D\uDE00" is U+1F600 */
		ps->pos += 6;
		*cp = 0x10000 + (((uint32_t)v - 0xD800) << 10) +
		    ((uint32_t)t - 0xDC00);
		return 0;
	}
	*cp = (uint32_t)v;
	return 0;
}

/*
 * CharacterEscape[+UnicodeMode] (22.2.1), pos at the byte after "\\";
 * in_class also takes \b (U+0008) and \- (ClassEscape).
 */
static int
re_char_escape(struct re_parse *ps, bool in_class, uint32_t *cp)
{
	size_t at = ps->pos - 1;
	int c = re_peek(ps, 0), d1, d2;

	ps->pos++;
	switch (c) {
	case 'f':
		*cp = 0x0C;
		return 0;
	case 'n':
		*cp = 0x0A;
		return 0;
	case 'r':
		*cp = 0x0D;
		return 0;
	case 't':
		*cp = 0x09;
		return 0;
	case 'v': /* U+000B, not PCRE2's vertical space class */
		*cp = 0x0B;
		return 0;
	case 'c':
		c = re_peek(ps, 0);
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')))
			/* hits on "\\c1", "[\\c_]" (Annex B only) */
			return re_fail(ps, at, "\\c must be followed by a letter");
		ps->pos++;
		*cp = (uint32_t)c % 32;
		return 0;
	case '0':
		if (re_peek(ps, 0) >= '0' && re_peek(ps, 0) <= '9')
			/* hits on "\\01": octal is Annex B only */
			return re_fail(ps, at, "\\0 followed by a digit");
		*cp = 0;
		return 0;
	case 'x':
		d1 = re_hex_at(ps, 0);
		d2 = re_hex_at(ps, 1);
		if (d1 < 0 || d2 < 0) /* hits on "\\x4" */
			return re_fail(ps, at, "\\x needs two hex digits");
		ps->pos += 2;
		*cp = (uint32_t)(d1 * 16 + d2);
		return 0;
	case 'u':
		return re_unicode_escape(ps, cp);
	case 'b':
		if (in_class) {
			*cp = 0x08;
			return 0;
		}
		break;
	case '-':
		if (in_class) {
			*cp = '-';
			return 0;
		}
		break;
	case -1: /* hits on "a\\" */
		return re_fail(ps, at, "\\ at the end of the pattern");
	default:
		break;
	}
	if (re_is_syntax(c) || c == '/') {
		*cp = (uint32_t)c;
		return 0;
	}
	/* hits on "\\a", "\\z", "\\Q", "\\-": IdentityEscape takes only
	 * syntax characters and "/" in Unicode mode */
	return re_fail(ps, at, "invalid escape");
}

static bool
re_span_is(const unsigned char *p, size_t n, const char *s)
{
	return strlen(s) == n && memcmp(p, s, n) == 0;
}

static int
re_cmp_script(const void *key, const void *elem)
{
	return strcmp(key, *(const char *const *)elem);
}

/*
 * \p{...} or \P{...} (UnicodePropertyValueExpression, 22.2.1), pos at the
 * "{"; fills the property fields of a.
 */
static int
re_property(struct re_parse *ps, bool negated, struct re_atom *a)
{
	size_t at = ps->pos - 2, start, eq = 0, i, nlen, vlen;
	const unsigned char *name, *value;
	char key[64];
	const char *const *sc;
	int c;

	if (!re_eat(ps, '{')) /* hits on "\\pL" */
		return re_fail(ps, at, "\\p needs {name}");
	start = ps->pos;
	while ((c = re_peek(ps, 0)) != '}') {
		if (c == '=' && eq == 0 && ps->pos > start)
			eq = ps->pos;
		else if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			       (c >= '0' && c <= '9') || c == '_'))
			/* hits on "\\p{L", "\\p{L&}", "\\p{a=b=c}" */
			return re_fail(ps, at, "invalid property name");
		ps->pos++;
	}
	ps->pos++;
	a->kind = RE_A_PROP;
	a->complement = negated;
	a->pkind = "";
	name = ps->p + start;
	nlen = (eq != 0 ? eq : ps->pos - 1) - start;
	value = eq != 0 ? ps->p + eq + 1 : name;
	vlen = eq != 0 ? ps->pos - 1 - (eq + 1) : nlen;
	if (eq != 0 && (re_span_is(name, nlen, "Script") ||
			   re_span_is(name, nlen, "sc") ||
			   re_span_is(name, nlen, "Script_Extensions") ||
			   re_span_is(name, nlen, "scx"))) {
		if (vlen >= sizeof(key))
			return re_fail(ps, at, "unknown script");
		memcpy(key, value, vlen);
		key[vlen] = '\0';
		sc = bsearch(key, re_script_names,
		    GPT_ARRAY_LEN(re_script_names), sizeof(re_script_names[0]),
		    re_cmp_script);
		if (sc == NULL) /* hits on "\\p{sc=Greek_}", "\\p{sc=Kawi}" */
			return re_refuse(ps, at,
			    "unknown script (Unicode 14.0.0)");
		a->pkind = re_span_is(name, nlen, "Script") ||
			re_span_is(name, nlen, "sc") ?
		    "sc:" :
		    "scx:";
		a->pname = *sc;
		a->pname_len = strlen(*sc);
		return 0;
	}
	if (eq != 0 && !re_span_is(name, nlen, "General_Category") &&
	    !re_span_is(name, nlen, "gc"))
		/* hits on "\\p{Block=Greek}" */
		return re_fail(ps, at, "unknown property");
	for (i = 0; i < GPT_ARRAY_LEN(re_gc_names); i++)
		if (re_span_is(value, vlen, re_gc_names[i].name)) {
			a->pname = re_gc_names[i].pcre;
			a->pname_len = strlen(a->pname);
			return 0;
		}
	for (i = 0; eq == 0 && i < GPT_ARRAY_LEN(re_binary_names); i++)
		if (re_span_is(value, vlen, re_binary_names[i].name)) {
			if (re_binary_names[i].pcre == NULL)
				return re_refuse(ps, at,
				    "a property PCRE2 10.42 does not have");
			a->pname = re_binary_names[i].pcre;
			a->pname_len = strlen(a->pname);
			return 0;
		}
	/* hits on "\\p{Greek}" (a script needs sc=), "\\p{letter}" */
	return re_fail(ps, at, "unknown property");
}

/* Emit a property atom (in a class or not). */
static void
re_emit_prop(struct re_out *o, const struct re_atom *a)
{
	if (strcmp(a->pname, "Assigned") == 0) {
		/* not in PCRE2: every code point but the unassigned ones */
		re_emits(o, a->complement ? "\\p{Cn}" : "\\P{Cn}");
		return;
	}
	re_emits(o, a->complement ? "\\P{" : "\\p{");
	re_emits(o, a->pkind);
	re_emit(o, a->pname, a->pname_len);
	re_emit(o, "}", 1);
}

/*
 * A class escape or character escape, pos at the byte after "\\" (shared
 * by atoms and class atoms): \d \D \w \W \s \S \p \P, or a code point.
 */
static int
re_escape_atom(struct re_parse *ps, bool in_class, struct re_atom *a)
{
	int c = re_peek(ps, 0);

	a->kind = RE_A_SET;
	a->complement = c == 'D' || c == 'W' || c == 'S';
	switch (c) {
	case 'd':
	case 'D':
		a->set = re_digit;
		a->nset = GPT_ARRAY_LEN(re_digit);
		ps->pos++;
		return 0;
	case 'w':
	case 'W':
		a->set = re_word;
		a->nset = GPT_ARRAY_LEN(re_word);
		ps->pos++;
		return 0;
	case 's':
	case 'S':
		a->set = re_space;
		a->nset = GPT_ARRAY_LEN(re_space);
		ps->pos++;
		return 0;
	case 'p':
	case 'P':
		ps->pos++;
		return re_property(ps, c == 'P', a);
	default:
		a->kind = RE_A_CP;
		return re_char_escape(ps, in_class, &a->cp);
	}
}

/* One ClassAtom (22.2.1), pos at it. */
static int
re_class_atom(struct re_parse *ps, struct re_atom *a)
{
	size_t n;
	int c = re_peek(ps, 0);

	if (c == '\\') {
		ps->pos++;
		c = re_peek(ps, 0);
		if ((c >= '1' && c <= '9') || c == 'B' || c == 'k')
			/* hits on "[\\1]", "[\\B]" */
			return re_fail(ps, ps->pos - 1,
			    "invalid escape in a class");
		return re_escape_atom(ps, true, a);
	}
	a->kind = RE_A_CP;
	n = utf8_decode(ps->p + ps->pos, ps->len - ps->pos, &a->cp);
	if (n == 0) /* hits on "[\xff]" */
		return re_fail(ps, ps->pos, "invalid UTF-8");
	ps->pos += n;
	return 0;
}

/* Emit a class atom inside a class; false when it adds nothing. */
static bool
re_emit_class_atom(struct re_out *o, const struct re_atom *a)
{
	switch (a->kind) {
	case RE_A_CP:
		return re_emit_range(o, a->cp, a->cp);
	case RE_A_SET:
		re_emit_set(o, a->set, a->nset, a->complement);
		return true;
	default:
		re_emit_prop(o, a);
		return true;
	}
}

/*
 * CharacterClass (22.2.1, NonemptyClassRanges), pos at "[".  Emitted as
 * a PCRE2 class of explicit items; an empty one as re_never, a negated
 * empty one as re_any_class.
 */
static int
re_class(struct re_parse *ps)
{
	size_t at = ps->pos, start = ps->o->len;
	bool negated, any = false;
	struct re_atom a, b;

	ps->pos++;
	negated = re_eat(ps, '^');
	re_emits(ps->o, negated ? "[^" : "[");
	for (;;) {
		if (re_peek(ps, 0) == -1) /* hits on "[a" */
			return re_fail(ps, at, "missing ] after a class");
		if (re_eat(ps, ']'))
			break;
		if (re_class_atom(ps, &a) == -1)
			return -1;
		if (re_peek(ps, 0) != '-' || re_peek(ps, 1) == ']' ||
		    re_peek(ps, 1) == -1) {
			any |= re_emit_class_atom(ps->o, &a);
			continue;
		}
		ps->pos++;
		if (re_class_atom(ps, &b) == -1)
			return -1;
		if (a.kind != RE_A_CP || b.kind != RE_A_CP)
			/* hits on "[\\d-z]", "[a-\\w]" */
			return re_fail(ps, at, "a class escape in a range");
		if (a.cp > b.cp) /* hits on "[z-a]" */
			return re_fail(ps, at, "range out of order in a class");
		any |= re_emit_range(ps->o, a.cp, b.cp);
	}
	if (!any) {
		ps->o->len = start;
		re_emits(ps->o, negated ? re_any_class : re_never);
	} else
		re_emit(ps->o, "]", 1);
	return 0;
}

/* An atom \d \w \s or their complements, outside a class. */
static void
re_emit_set_atom(struct re_out *o, const struct re_atom *a)
{
	re_emits(o, a->complement ? "[^" : "[");
	re_emit_set(o, a->set, a->nset, false);
	re_emit(o, "]", 1);
}

/* A back-reference to group n (1-based), at offset at. */
static int
re_backref(struct re_parse *ps, size_t at, size_t n)
{
	const struct re_group *g;
	char b[32];
	int len;

	if (ps->first) {
		ps->backrefs = true;
		return 0;
	}
	if (n == 0 || n > ps->total) /* hits on "\\2(a)" */
		return re_fail(ps, at, "a back-reference to no group");
	g = &ps->groups[n - 1];
	if (ps->behind > 0 || g->in_behind)
		/* hits on "(?<=(a)\\1)b", "(?<=(a))b\\1" */
		return re_refuse(ps, at,
		    "a back-reference in or into a lookbehind (ECMA-262 "
		    "matches lookbehinds right to left)");
	if (g->quantified)
		/* hits on "^(?:(a)|b)+\\1$" */
		return re_refuse(ps, at,
		    "a back-reference to a group inside a quantified atom "
		    "(ECMA-262 resets it on each repetition)");
	if (!g->closed) {
		/* "\\1(a)", "(a\\1)": the group cannot have matched yet,
		 * so it is undefined and matches empty */
		re_emits(ps->o, "(?:)");
		return 0;
	}
	len = snprintf(b, sizeof(b), "(?:\\g{%zu})", n);
	re_emit(ps->o, b, (size_t)len);
	return 0;
}

/* GroupName (22.2.1) after "<", up to and with ">"; ASCII only. */
static int
re_group_name(struct re_parse *ps, const unsigned char **name, size_t *n)
{
	size_t at = ps->pos, start = ps->pos;
	int c;

	while ((c = re_peek(ps, 0)) != '>') {
		if (c == '_' || c == '$' || (c >= 'a' && c <= 'z') ||
		    (c >= 'A' && c <= 'Z') ||
		    (c >= '0' && c <= '9' && ps->pos > start)) {
			ps->pos++;
			continue;
		}
		if (c >= 0x80 || c == '\\')
			/* hits on "(?<\xc3\xa9>a)": ID_Start is wider */
			return re_refuse(ps, at, "a non-ASCII group name");
		/* hits on "(?<1a>x)", "(?<a", "(?<>a)" */
		return re_fail(ps, at, "invalid group name");
	}
	if (ps->pos == start)
		return re_fail(ps, at, "invalid group name");
	*name = ps->p + start;
	*n = ps->pos - start;
	ps->pos++;
	return 0;
}

/* AtomEscape (22.2.1) outside a class, pos at the byte after "\\". */
static int
re_atom_escape(struct re_parse *ps, bool *quantifiable)
{
	size_t at = ps->pos - 1, n = 0, i;
	const unsigned char *name;
	struct re_atom a;
	int c = re_peek(ps, 0);

	*quantifiable = true;
	if (c == 'b' || c == 'B') {
		/* ASCII word characters: PCRE2 without UCP */
		ps->features |= RE_F_WORD_BOUNDARY;
		ps->pos++;
		re_emits(ps->o, c == 'b' ? "\\b" : "\\B");
		*quantifiable = false;
		return 0;
	}
	if (c >= '1' && c <= '9') {
		ps->features |= RE_F_BACKREF;
		while ((c = re_peek(ps, 0)) >= '0' && c <= '9') {
			if (n <= ps->len) /* past every group: saturate */
				n = n * 10 + (size_t)(c - '0');
			ps->pos++;
		}
		return re_backref(ps, at, n);
	}
	if (c == 'k') {
		ps->features |= RE_F_BACKREF;
		ps->pos++;
		if (!re_eat(ps, '<')) /* hits on "\\k" */
			return re_fail(ps, at, "\\k needs <name>");
		if (re_group_name(ps, &name, &n) == -1)
			return -1;
		if (ps->first) {
			ps->backrefs = true;
			return 0;
		}
		for (i = 0; i < ps->total; i++)
			if (ps->groups[i].name != NULL &&
			    ps->groups[i].name_len == n &&
			    memcmp(ps->groups[i].name, name, n) == 0)
				return re_backref(ps, at, i + 1);
		/* hits on "\\k<a>(?<b>x)" */
		return re_fail(ps, at, "\\k<name> names no group");
	}
	if (re_escape_atom(ps, false, &a) == -1)
		return -1;
	if (a.kind == RE_A_SET)
		re_emit_set_atom(ps->o, &a);
	else if (a.kind == RE_A_PROP)
		re_emit_prop(ps->o, &a);
	else if (re_is_surrogate(a.cp))
		re_emits(ps->o, re_never); /* no UTF-8 subject holds one */
	else
		re_emit_cp(ps->o, a.cp);
	return 0;
}

static int re_disjunction(struct re_parse *ps);

/* A group or lookaround, pos at "(". */
static int
re_group(struct re_parse *ps, bool *quantifiable)
{
	size_t at = ps->pos, index = 0, i, n = 0;
	const unsigned char *name = NULL;
	bool capture = true, behind = false;
	const char *open = "(";

	ps->pos++;
	*quantifiable = true;
	if (re_eat(ps, '?')) {
		capture = false;
		if (re_eat(ps, ':'))
			open = "(?:";
		else if (re_eat(ps, '='))
			open = "(?=";
		else if (re_eat(ps, '!'))
			open = "(?!";
		else if (re_eat(ps, '<')) {
			behind = true;
			if (re_eat(ps, '='))
				open = "(?<=";
			else if (re_eat(ps, '!'))
				open = "(?<!";
			else if (re_group_name(ps, &name, &n) == -1)
				return -1;
			else {
				behind = false;
				capture = true;
			}
		} else /* hits on "(?i)a", "(?>a)", "(?P<n>a)", "(?#c)" */
			return re_fail(ps, at, "invalid group");
		if (strcmp(open, "(?:") != 0 && !capture)
			ps->features |= RE_F_LOOKAROUND;
		/* lookarounds take no quantifier in Unicode mode: "(?=a)*" */
		*quantifiable = capture || strcmp(open, "(?:") == 0;
	}
	if (capture) {
		if (ps->ngroups >= ps->ngroups_max)
			return re_fail(ps, at, "too many groups");
		index = ps->ngroups++;
		if (ps->first) {
			struct re_group *g = &ps->groups[index];

			g->name = name;
			g->name_len = n;
			g->in_behind = ps->behind > 0;
			if (name != NULL) {
				if (++ps->nnames > RE_MAX_NAMES)
					return re_refuse(ps, at,
					    "too many named groups");
				for (i = 0; i < index; i++)
					if (ps->groups[i].name_len == n &&
					    ps->groups[i].name != NULL &&
					    memcmp(ps->groups[i].name, name,
						n) == 0)
						/* hits on "(?<a>x)|(?<a>y)" */
						return re_fail(ps, at,
						    "duplicate group name");
			}
		}
	}
	re_emits(ps->o, open);
	if (behind)
		ps->behind++;
	if (re_disjunction(ps) == -1)
		return -1;
	if (!re_eat(ps, ')')) /* hits on "(a" */
		return re_fail(ps, at, "missing ) after a group");
	if (behind)
		ps->behind--;
	re_emit(ps->o, ")", 1);
	if (capture)
		ps->groups[index].closed = true;
	return 0;
}

/* A decimal number of a quantifier, saturated past RE_MAX_REPEAT. */
static bool
re_number(struct re_parse *ps, uint32_t *v)
{
	int c;

	if ((c = re_peek(ps, 0)) < '0' || c > '9')
		return false;
	*v = 0;
	while ((c = re_peek(ps, 0)) >= '0' && c <= '9') {
		if (*v <= RE_MAX_REPEAT)
			*v = *v * 10 + (uint32_t)(c - '0');
		ps->pos++;
	}
	return true;
}

/* Quantifier (22.2.1), pos at it; the atom opened groups from first_group
 * on and its translation starts at offset atom_at of the output. */
static int
re_quantifier(struct re_parse *ps, size_t first_group, size_t atom_at)
{
	size_t at = ps->pos, i;
	uint32_t min = 0, max = 0;
	bool unbounded = false;
	char b[32];
	int c = re_peek(ps, 0), n;

	ps->pos++;
	if (c == '*' || c == '+') {
		min = c == '+';
		unbounded = true;
	} else if (c == '?')
		max = 1;
	else {
		if (!re_number(ps, &min)) /* hits on "a{", "a{,2}" */
			return re_fail(ps, at, "incomplete quantifier");
		if (re_eat(ps, ','))
			unbounded = !re_number(ps, &max);
		else
			max = min;
		if (!re_eat(ps, '}')) /* hits on "a{1", "a{1,2" */
			return re_fail(ps, at, "incomplete quantifier");
		if (!unbounded && min > max) /* hits on "a{2,1}" */
			return re_fail(ps, at,
			    "numbers out of order in a quantifier");
		if (min > RE_MAX_REPEAT || (!unbounded && max > RE_MAX_REPEAT))
			/* hits on "a{65536}" */
			return re_refuse(ps, at,
			    "a repeat count above 65535");
	}
	if (c == '{' && max == 0 && !unbounded && ps->behind == 0) {
		/* X{0} as (?:(?!)X)?: the same (X never runs, its groups
		 * stay unset), but 10.42 takes "(?:Z|^a){0}$" for anchored
		 * and fails it on " " */
		re_insert(ps->o, atom_at, "(?:(?!)");
		re_emit(ps->o, ")?", 2);
		(void)re_eat(ps, '?');
	} else if (c == '{' && ps->o->discard) {
		/* syntax only: the text is never used */
	} else if (c == '{') {
		if (unbounded)
			n = snprintf(b, sizeof(b), "{%u,}", (unsigned)min);
		else if (min == max)
			n = snprintf(b, sizeof(b), "{%u}", (unsigned)min);
		else
			n = snprintf(b, sizeof(b), "{%u,%u}", (unsigned)min,
			    (unsigned)max);
		re_emit(ps->o, b, (size_t)n);
	} else
		re_emit(ps->o, (const char *)ps->p + at, 1);
	if (re_eat(ps, '?')) /* lazy */
		re_emit(ps->o, "?", 1);
	if (ps->first && !(min == 1 && max == 1 && !unbounded))
		for (i = first_group; i < ps->ngroups; i++)
			ps->groups[i].quantified = true;
	return 0;
}

/* Term (22.2.1): an assertion, or an atom with an optional quantifier. */
static int
re_term(struct re_parse *ps)
{
	size_t at = ps->pos, first_group = ps->ngroups, atom_at = ps->o->len, n;
	bool quantifiable = true;
	uint32_t cp;
	int c = re_peek(ps, 0);

	switch (c) {
	case '^':
	case '$':
		ps->pos++;
		re_emit(ps->o, (const char *)ps->p + at, 1);
		quantifiable = false;
		break;
	case '.':
		ps->pos++;
		re_emits(ps->o, re_dot_class);
		break;
	case '(':
		if (re_group(ps, &quantifiable) == -1)
			return -1;
		break;
	case '[':
		if (re_class(ps) == -1)
			return -1;
		break;
	case '\\':
		ps->pos++;
		if (re_atom_escape(ps, &quantifiable) == -1)
			return -1;
		break;
	case '*':
	case '+':
	case '?':
	case '{':
		/* hits on "*a", "a**", "a{2}{3}", "{" (no Annex B) */
		return re_fail(ps, at, "nothing to repeat");
	case '}':
	case ']': /* hits on "a]", "}" */
		return re_fail(ps, at, "a lone ] or }");
	default:
		n = utf8_decode(ps->p + ps->pos, ps->len - ps->pos, &cp);
		if (n == 0) /* hits on "\xff" */
			return re_fail(ps, at, "invalid UTF-8");
		ps->pos += n;
		re_emit_cp(ps->o, cp);
		break;
	}
	c = re_peek(ps, 0);
	if (c != '*' && c != '+' && c != '?' && c != '{')
		return 0;
	if (!quantifiable) /* hits on "^*", "\\b+", "(?=a)*" */
		return re_fail(ps, ps->pos, "nothing to repeat");
	return re_quantifier(ps, first_group, atom_at);
}

/* Disjunction (22.2.1): alternatives of terms, up to ")" or the end. */
static int
re_disjunction(struct re_parse *ps)
{
	int c;

	if (++ps->depth > RE_MAX_NEST) /* hits on 201 "(" */
		return re_refuse(ps, ps->pos, "groups nested too deeply");
	for (;;) {
		while ((c = re_peek(ps, 0)) != -1 && c != '|' && c != ')')
			if (re_term(ps) == -1)
				return -1;
		if (c != '|')
			break;
		ps->pos++;
		re_emit(ps->o, "|", 1);
	}
	ps->depth--;
	return 0;
}

/* One pass over the whole pattern (see the file head). */
static int
re_pass(struct re_parse *ps, struct re_out *o, bool first)
{
	size_t i;

	ps->o = o;
	ps->first = first;
	ps->pos = 0;
	ps->ngroups = 0;
	ps->nnames = 0;
	ps->depth = 0;
	ps->behind = 0;
	for (i = 0; i < ps->ngroups_max; i++)
		ps->groups[i].closed = false;
	if (re_disjunction(ps) == -1)
		return -1;
	if (ps->pos < ps->len) /* hits on "a)" */
		return re_fail(ps, ps->pos, "unmatched )");
	if (o->overflow)
		return re_refuse(ps, 0, "pattern too long");
	return 0;
}

/* The error for a refused pattern, in errbuf. */
static void
re_message(const struct re_parse *ps, char *errbuf, size_t errlen)
{
	snprintf(errbuf, errlen, "%s pattern at offset %zu: %s",
	    ps->unsupported ? "unsupported" : "invalid", ps->err_at, ps->err);
}

/*
 * The PCRE2 translation of pattern into *out (the arena's) and *outlen:
 * 0, or -1 with the reason in errbuf.
 */
static int
re_translate(const char *pattern, size_t len, struct arena *a, char **out,
    size_t *outlen, char *errbuf, size_t errlen)
{
	struct re_parse ps;
	struct re_out o = {.out = NULL};
	size_t i, n = 0;

	memset(&ps, 0, sizeof(ps));
	ps.p = (const unsigned char *)pattern;
	ps.len = len;
	for (i = 0; i < len; i++)
		n += pattern[i] == '(';
	ps.ngroups_max = n;
	if ((ps.groups = arena_calloc(a, n + 1, sizeof(*ps.groups))) == NULL) {
		snprintf(errbuf, errlen, "out of memory");
		return -1;
	}
	/* collect the groups; measure; write */
	if (re_pass(&ps, &o, true) == -1)
		goto fail;
	ps.total = ps.ngroups;
	o = (struct re_out){.out = NULL};
	if (re_pass(&ps, &o, false) == -1)
		goto fail;
	n = o.max;
	if (!gpt_add_size(n, 1, &n) || (*out = arena_alloc(a, n)) == NULL) {
		snprintf(errbuf, errlen, "out of memory");
		return -1;
	}
	o = (struct re_out){.out = *out, .cap = n - 1};
	if (re_pass(&ps, &o, false) == -1)
		goto fail;
	(*out)[o.len] = '\0';
	*outlen = o.len;
	return 0;
fail:
	re_message(&ps, errbuf, errlen);
	return -1;
}

/* re_is_valid_syntax, and what the pattern uses in *features. */
static bool
re_syntax(const char *pattern, size_t len, unsigned *features)
{
	/* room for the groups of the longest pattern judged; the process is
	 * single-threaded (see the file head) */
	static struct re_group groups[RE_SYNTAX_MAX + 1];
	struct re_parse ps;
	struct re_out o = {.out = NULL, .discard = true};
	size_t i, n = 0;

	if (len > RE_SYNTAX_MAX)
		return false;
	for (i = 0; i < len; i++)
		n += pattern[i] == '(';
	memset(groups, 0, (n + 1) * sizeof(groups[0]));
	memset(&ps, 0, sizeof(ps));
	ps.p = (const unsigned char *)pattern;
	ps.len = len;
	ps.ngroups_max = n;
	ps.groups = groups;
	/* the two passes of re_translate, writing nothing: the second
	 * resolves the back-references the first collected the groups for,
	 * and differs from it in nothing else, so without them one pass
	 * decides */
	if (re_pass(&ps, &o, true) == -1)
		return false;
	*features = ps.features;
	if (!ps.backrefs)
		return true;
	ps.total = ps.ngroups;
	o = (struct re_out){.out = NULL, .discard = true};
	return re_pass(&ps, &o, false) == 0;
}

bool
re_is_valid_syntax(const char *pattern, size_t len)
{
	unsigned features;

	return re_syntax(pattern, len, &features);
}

int
re_syntax_features(const char *pattern, size_t len, unsigned *out)
{
	unsigned features = 0;

	if (!re_syntax(pattern, len, &features))
		return -1;
	*out = features;
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

	code = pcre2_compile((PCRE2_SPTR)t, tlen, RE_OPTIONS, &errcode,
	    &erroff, re_cctx);
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
	if (!c->jit && re_mode_now != RE_EAGER &&
	    ++c->searches == RE_JIT_AFTER)
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
		rc = pcre2_match(c->code, sub, len, 0, PCRE2_NO_UTF_CHECK,
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
