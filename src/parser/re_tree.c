/*
 * re_tree.c: ECMA-262 (2023) section 22.2 patterns, "u" flag, into the
 * syntax tree of re_tree.h.
 *
 * The grammar is read as the "u" flag reads it: Annex B's relaxations (a
 * lone "{" or "]", "\c_" in classes, octal escapes, identity escapes of
 * letters, quantified lookaheads) do not apply, and neither does
 * PCRE2-only syntax ("(?i)", "(?>", "a*+", "\A", "\Q..\E"): each is a
 * syntax error, as `new RegExp(p, "u")` throws.
 *
 * One recursive-descent pass (rt_disjunction down to rt_class_atom)
 * builds the nodes; a second step, over the back-reference nodes only,
 * resolves them to their groups (a reference may name a group that comes
 * later) and refuses what PCRE2 cannot match alike (re.c's head).
 * Recursion is bounded by RE_TREE_MAX_NEST.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "parser/re_tree.h"
#include "base/utf8.h"

/* ---- ECMA-262's sets and names --------------------------------------- */

/* \d, \w (section 22.2.2.9, no "i" flag) and \s (WhiteSpace: TAB, VT, FF,
 * ZWNBSP and Unicode's Zs; LineTerminator: LF, CR, LS, PS), ascending. */
static const struct re_tree_range rt_digit[] = {{0x30, 0x39}};
static const struct re_tree_range rt_word[] = {
    {0x30, 0x39}, {0x41, 0x5A}, {0x5F, 0x5F}, {0x61, 0x7A}};
static const struct re_tree_range rt_space[] = {{0x09, 0x0D}, {0x20, 0x20},
    {0xA0, 0xA0}, {0x1680, 0x1680}, {0x2000, 0x200A}, {0x2028, 0x2029},
    {0x202F, 0x202F}, {0x205F, 0x205F}, {0x3000, 0x3000}, {0xFEFF, 0xFEFF}};

/* General_Category values and aliases (PropertyValueAliases.txt), as
 * \p{X}, \p{gc=X} and \p{General_Category=X} take them; PCRE2's name. */
static const struct {
	const char *name;
	const char *pcre;
} rt_gc_names[] = {
    {"C", "C"},
    {"Other", "C"},
    {"Cc", "Cc"},
    {"Control", "Cc"},
    {"cntrl", "Cc"},
    {"Cf", "Cf"},
    {"Format", "Cf"},
    {"Cn", "Cn"},
    {"Unassigned", "Cn"},
    {"Co", "Co"},
    {"Private_Use", "Co"},
    {"Cs", "Cs"},
    {"Surrogate", "Cs"},
    {"L", "L"},
    {"Letter", "L"},
    {"LC", "L&"},
    {"Cased_Letter", "L&"},
    {"Ll", "Ll"},
    {"Lowercase_Letter", "Ll"},
    {"Lm", "Lm"},
    {"Modifier_Letter", "Lm"},
    {"Lo", "Lo"},
    {"Other_Letter", "Lo"},
    {"Lt", "Lt"},
    {"Titlecase_Letter", "Lt"},
    {"Lu", "Lu"},
    {"Uppercase_Letter", "Lu"},
    {"M", "M"},
    {"Mark", "M"},
    {"Combining_Mark", "M"},
    {"Mc", "Mc"},
    {"Spacing_Mark", "Mc"},
    {"Me", "Me"},
    {"Enclosing_Mark", "Me"},
    {"Mn", "Mn"},
    {"Nonspacing_Mark", "Mn"},
    {"N", "N"},
    {"Number", "N"},
    {"Nd", "Nd"},
    {"Decimal_Number", "Nd"},
    {"digit", "Nd"},
    {"Nl", "Nl"},
    {"Letter_Number", "Nl"},
    {"No", "No"},
    {"Other_Number", "No"},
    {"P", "P"},
    {"Punctuation", "P"},
    {"punct", "P"},
    {"Pc", "Pc"},
    {"Connector_Punctuation", "Pc"},
    {"Pd", "Pd"},
    {"Dash_Punctuation", "Pd"},
    {"Pe", "Pe"},
    {"Close_Punctuation", "Pe"},
    {"Pf", "Pf"},
    {"Final_Punctuation", "Pf"},
    {"Pi", "Pi"},
    {"Initial_Punctuation", "Pi"},
    {"Po", "Po"},
    {"Other_Punctuation", "Po"},
    {"Ps", "Ps"},
    {"Open_Punctuation", "Ps"},
    {"S", "S"},
    {"Symbol", "S"},
    {"Sc", "Sc"},
    {"Currency_Symbol", "Sc"},
    {"Sk", "Sk"},
    {"Modifier_Symbol", "Sk"},
    {"Sm", "Sm"},
    {"Math_Symbol", "Sm"},
    {"So", "So"},
    {"Other_Symbol", "So"},
    {"Z", "Z"},
    {"Separator", "Z"},
    {"Zl", "Zl"},
    {"Line_Separator", "Zl"},
    {"Zp", "Zp"},
    {"Paragraph_Separator", "Zp"},
    {"Zs", "Zs"},
    {"Space_Separator", "Zs"},
};

/* ECMA-262's binary properties (table-binary-unicode-properties), names
 * and aliases; PCRE2's name for each.  Assigned is \P{Cn}; NULL: PCRE2
 * 10.42 has no such property. */
static const struct {
	const char *name;
	const char *pcre;
} rt_binary_names[] = {
    {"ASCII", "ASCII"},
    {"ASCII_Hex_Digit", "ASCII_Hex_Digit"},
    {"AHex", "ASCII_Hex_Digit"},
    {"Alphabetic", "Alphabetic"},
    {"Alpha", "Alphabetic"},
    {"Any", "Any"},
    {"Assigned", "Assigned"},
    {"Bidi_Control", "Bidi_Control"},
    {"Bidi_C", "Bidi_Control"},
    {"Bidi_Mirrored", "Bidi_Mirrored"},
    {"Bidi_M", "Bidi_Mirrored"},
    {"Case_Ignorable", "Case_Ignorable"},
    {"CI", "Case_Ignorable"},
    {"Cased", "Cased"},
    {"Changes_When_Casefolded", "Changes_When_Casefolded"},
    {"CWCF", "Changes_When_Casefolded"},
    {"Changes_When_Casemapped", "Changes_When_Casemapped"},
    {"CWCM", "Changes_When_Casemapped"},
    {"Changes_When_Lowercased", "Changes_When_Lowercased"},
    {"CWL", "Changes_When_Lowercased"},
    {"Changes_When_NFKC_Casefolded", NULL},
    {"CWKCF", NULL},
    {"Changes_When_Titlecased", "Changes_When_Titlecased"},
    {"CWT", "Changes_When_Titlecased"},
    {"Changes_When_Uppercased", "Changes_When_Uppercased"},
    {"CWU", "Changes_When_Uppercased"},
    {"Dash", "Dash"},
    {"Default_Ignorable_Code_Point", "Default_Ignorable_Code_Point"},
    {"DI", "Default_Ignorable_Code_Point"},
    {"Deprecated", "Deprecated"},
    {"Dep", "Deprecated"},
    {"Diacritic", "Diacritic"},
    {"Dia", "Diacritic"},
    {"Emoji", "Emoji"},
    {"Emoji_Component", "Emoji_Component"},
    {"EComp", "Emoji_Component"},
    {"Emoji_Modifier", "Emoji_Modifier"},
    {"EMod", "Emoji_Modifier"},
    {"Emoji_Modifier_Base", "Emoji_Modifier_Base"},
    {"EBase", "Emoji_Modifier_Base"},
    {"Emoji_Presentation", "Emoji_Presentation"},
    {"EPres", "Emoji_Presentation"},
    {"Extended_Pictographic", "Extended_Pictographic"},
    {"ExtPict", "Extended_Pictographic"},
    {"Extender", "Extender"},
    {"Ext", "Extender"},
    {"Grapheme_Base", "Grapheme_Base"},
    {"Gr_Base", "Grapheme_Base"},
    {"Grapheme_Extend", "Grapheme_Extend"},
    {"Gr_Ext", "Grapheme_Extend"},
    {"Hex_Digit", "Hex_Digit"},
    {"Hex", "Hex_Digit"},
    {"IDS_Binary_Operator", "IDS_Binary_Operator"},
    {"IDSB", "IDS_Binary_Operator"},
    {"IDS_Trinary_Operator", "IDS_Trinary_Operator"},
    {"IDST", "IDS_Trinary_Operator"},
    {"ID_Continue", "ID_Continue"},
    {"IDC", "ID_Continue"},
    {"ID_Start", "ID_Start"},
    {"IDS", "ID_Start"},
    {"Ideographic", "Ideographic"},
    {"Ideo", "Ideographic"},
    {"Join_Control", "Join_Control"},
    {"Join_C", "Join_Control"},
    {"Logical_Order_Exception", "Logical_Order_Exception"},
    {"LOE", "Logical_Order_Exception"},
    {"Lowercase", "Lowercase"},
    {"Lower", "Lowercase"},
    {"Math", "Math"},
    {"Noncharacter_Code_Point", "Noncharacter_Code_Point"},
    {"NChar", "Noncharacter_Code_Point"},
    {"Pattern_Syntax", "Pattern_Syntax"},
    {"Pat_Syn", "Pattern_Syntax"},
    {"Pattern_White_Space", "Pattern_White_Space"},
    {"Pat_WS", "Pattern_White_Space"},
    {"Quotation_Mark", "Quotation_Mark"},
    {"QMark", "Quotation_Mark"},
    {"Radical", "Radical"},
    {"Regional_Indicator", "Regional_Indicator"},
    {"RI", "Regional_Indicator"},
    {"Sentence_Terminal", "Sentence_Terminal"},
    {"STerm", "Sentence_Terminal"},
    {"Soft_Dotted", "Soft_Dotted"},
    {"SD", "Soft_Dotted"},
    {"Terminal_Punctuation", "Terminal_Punctuation"},
    {"Term", "Terminal_Punctuation"},
    {"Unified_Ideograph", "Unified_Ideograph"},
    {"UIdeo", "Unified_Ideograph"},
    {"Uppercase", "Uppercase"},
    {"Upper", "Uppercase"},
    {"Variation_Selector", "Variation_Selector"},
    {"VS", "Variation_Selector"},
    {"White_Space", "White_Space"},
    {"space", "White_Space"},
    {"XID_Continue", "XID_Continue"},
    {"XIDC", "XID_Continue"},
    {"XID_Start", "XID_Start"},
    {"XIDS", "XID_Start"},
};

/* Script values and aliases of Unicode 14.0.0 (PropertyValueAliases.txt;
 * the version of PCRE2 10.42's tables), for \p{Script=X}, \p{sc=X},
 * \p{Script_Extensions=X} and \p{scx=X}; in strcmp order. */
static const char *const rt_script_names[] = {
    "Adlam",
    "Adlm",
    "Aghb",
    "Ahom",
    "Anatolian_Hieroglyphs",
    "Arab",
    "Arabic",
    "Armenian",
    "Armi",
    "Armn",
    "Avestan",
    "Avst",
    "Bali",
    "Balinese",
    "Bamu",
    "Bamum",
    "Bass",
    "Bassa_Vah",
    "Batak",
    "Batk",
    "Beng",
    "Bengali",
    "Bhaiksuki",
    "Bhks",
    "Bopo",
    "Bopomofo",
    "Brah",
    "Brahmi",
    "Brai",
    "Braille",
    "Bugi",
    "Buginese",
    "Buhd",
    "Buhid",
    "Cakm",
    "Canadian_Aboriginal",
    "Cans",
    "Cari",
    "Carian",
    "Caucasian_Albanian",
    "Chakma",
    "Cham",
    "Cher",
    "Cherokee",
    "Chorasmian",
    "Chrs",
    "Common",
    "Copt",
    "Coptic",
    "Cpmn",
    "Cprt",
    "Cuneiform",
    "Cypriot",
    "Cypro_Minoan",
    "Cyrillic",
    "Cyrl",
    "Deseret",
    "Deva",
    "Devanagari",
    "Diak",
    "Dives_Akuru",
    "Dogr",
    "Dogra",
    "Dsrt",
    "Dupl",
    "Duployan",
    "Egyp",
    "Egyptian_Hieroglyphs",
    "Elba",
    "Elbasan",
    "Elym",
    "Elymaic",
    "Ethi",
    "Ethiopic",
    "Geor",
    "Georgian",
    "Glag",
    "Glagolitic",
    "Gong",
    "Gonm",
    "Goth",
    "Gothic",
    "Gran",
    "Grantha",
    "Greek",
    "Grek",
    "Gujarati",
    "Gujr",
    "Gunjala_Gondi",
    "Gurmukhi",
    "Guru",
    "Han",
    "Hang",
    "Hangul",
    "Hani",
    "Hanifi_Rohingya",
    "Hano",
    "Hanunoo",
    "Hatr",
    "Hatran",
    "Hebr",
    "Hebrew",
    "Hira",
    "Hiragana",
    "Hluw",
    "Hmng",
    "Hmnp",
    "Hung",
    "Imperial_Aramaic",
    "Inherited",
    "Inscriptional_Pahlavi",
    "Inscriptional_Parthian",
    "Ital",
    "Java",
    "Javanese",
    "Kaithi",
    "Kali",
    "Kana",
    "Kannada",
    "Katakana",
    "Kayah_Li",
    "Khar",
    "Kharoshthi",
    "Khitan_Small_Script",
    "Khmer",
    "Khmr",
    "Khoj",
    "Khojki",
    "Khudawadi",
    "Kits",
    "Knda",
    "Kthi",
    "Lana",
    "Lao",
    "Laoo",
    "Latin",
    "Latn",
    "Lepc",
    "Lepcha",
    "Limb",
    "Limbu",
    "Lina",
    "Linb",
    "Linear_A",
    "Linear_B",
    "Lisu",
    "Lyci",
    "Lycian",
    "Lydi",
    "Lydian",
    "Mahajani",
    "Mahj",
    "Maka",
    "Makasar",
    "Malayalam",
    "Mand",
    "Mandaic",
    "Mani",
    "Manichaean",
    "Marc",
    "Marchen",
    "Masaram_Gondi",
    "Medefaidrin",
    "Medf",
    "Meetei_Mayek",
    "Mend",
    "Mende_Kikakui",
    "Merc",
    "Mero",
    "Meroitic_Cursive",
    "Meroitic_Hieroglyphs",
    "Miao",
    "Mlym",
    "Modi",
    "Mong",
    "Mongolian",
    "Mro",
    "Mroo",
    "Mtei",
    "Mult",
    "Multani",
    "Myanmar",
    "Mymr",
    "Nabataean",
    "Nand",
    "Nandinagari",
    "Narb",
    "Nbat",
    "New_Tai_Lue",
    "Newa",
    "Nko",
    "Nkoo",
    "Nshu",
    "Nushu",
    "Nyiakeng_Puachue_Hmong",
    "Ogam",
    "Ogham",
    "Ol_Chiki",
    "Olck",
    "Old_Hungarian",
    "Old_Italic",
    "Old_North_Arabian",
    "Old_Permic",
    "Old_Persian",
    "Old_Sogdian",
    "Old_South_Arabian",
    "Old_Turkic",
    "Old_Uyghur",
    "Oriya",
    "Orkh",
    "Orya",
    "Osage",
    "Osge",
    "Osma",
    "Osmanya",
    "Ougr",
    "Pahawh_Hmong",
    "Palm",
    "Palmyrene",
    "Pau_Cin_Hau",
    "Pauc",
    "Perm",
    "Phag",
    "Phags_Pa",
    "Phli",
    "Phlp",
    "Phnx",
    "Phoenician",
    "Plrd",
    "Prti",
    "Psalter_Pahlavi",
    "Qaac",
    "Qaai",
    "Rejang",
    "Rjng",
    "Rohg",
    "Runic",
    "Runr",
    "Samaritan",
    "Samr",
    "Sarb",
    "Saur",
    "Saurashtra",
    "Sgnw",
    "Sharada",
    "Shavian",
    "Shaw",
    "Shrd",
    "Sidd",
    "Siddham",
    "SignWriting",
    "Sind",
    "Sinh",
    "Sinhala",
    "Sogd",
    "Sogdian",
    "Sogo",
    "Sora",
    "Sora_Sompeng",
    "Soyo",
    "Soyombo",
    "Sund",
    "Sundanese",
    "Sylo",
    "Syloti_Nagri",
    "Syrc",
    "Syriac",
    "Tagalog",
    "Tagb",
    "Tagbanwa",
    "Tai_Le",
    "Tai_Tham",
    "Tai_Viet",
    "Takr",
    "Takri",
    "Tale",
    "Talu",
    "Tamil",
    "Taml",
    "Tang",
    "Tangsa",
    "Tangut",
    "Tavt",
    "Telu",
    "Telugu",
    "Tfng",
    "Tglg",
    "Thaa",
    "Thaana",
    "Thai",
    "Tibetan",
    "Tibt",
    "Tifinagh",
    "Tirh",
    "Tirhuta",
    "Tnsa",
    "Toto",
    "Ugar",
    "Ugaritic",
    "Unknown",
    "Vai",
    "Vaii",
    "Vith",
    "Vithkuqi",
    "Wancho",
    "Wara",
    "Warang_Citi",
    "Wcho",
    "Xpeo",
    "Xsux",
    "Yezi",
    "Yezidi",
    "Yi",
    "Yiii",
    "Zanabazar_Square",
    "Zanb",
    "Zinh",
    "Zyyy",
    "Zzzz",
};

const struct re_tree_range *
re_tree_set_ranges(enum re_tree_set s, size_t *n)
{
	switch (s) {
	case RE_TREE_DIGIT:
		*n = GPT_ARRAY_LEN(rt_digit);
		return rt_digit;
	case RE_TREE_WORD:
		*n = GPT_ARRAY_LEN(rt_word);
		return rt_word;
	default:
		*n = GPT_ARRAY_LEN(rt_space);
		return rt_space;
	}
}

/* ---- the parser -------------------------------------------------------- */

struct rt_parse {
	const unsigned char *p; /* borrowed: the pattern */
	size_t len;
	size_t pos;
	struct re_tree *t;       /* borrowed */
	struct arena *a;         /* borrowed; NULL: the pool is all there is */
	size_t node_cap;         /* room in t->nodes */
	size_t group_cap;        /* room in t->groups */
	size_t nnames;           /* named groups so far */
	unsigned depth;          /* groups open around pos */
	unsigned behind;         /* lookbehinds open around pos */
	unsigned look;           /* lookarounds open around pos */
	struct re_tree_err *err; /* borrowed */
};

static int
rt_fail(struct rt_parse *ps, size_t at, const char *why)
{
	if (ps->err->why == NULL) {
		ps->err->why = why;
		ps->err->at = at;
	}
	return -1;
}

static int
rt_refuse(struct rt_parse *ps, size_t at, const char *why)
{
	if (ps->err->why == NULL)
		ps->err->unsupported = true;
	return rt_fail(ps, at, why);
}

static int
rt_nomem(struct rt_parse *ps)
{
	if (ps->err->why == NULL)
		ps->err->nomem = true;
	return rt_fail(ps, ps->pos, "out of memory");
}

/* Double the room of *arr (cap elements of size each), from the arena:
 * -1 when there is none (no arena, or out of memory). */
static int
rt_grow(struct rt_parse *ps, void **arr, size_t *cap, size_t size)
{
	size_t ncap, bytes;
	void *n;

	if (ps->a == NULL)
		return -1;
	ncap = *cap < 16 ? 16 : *cap;
	if (!gpt_add_size(ncap, ncap, &ncap) ||
	    !gpt_mul_size(ncap, size, &bytes) ||
	    (n = arena_alloc(ps->a, bytes)) == NULL)
		return -1;
	if (*cap > 0)
		memcpy(n, *arr, *cap * size);
	*arr = n;
	*cap = ncap;
	return 0;
}

/* A new node of kind at offset at, unlinked: its index, or RE_TREE_NONE
 * (the error is set). */
static uint32_t
rt_node(struct rt_parse *ps, enum re_tree_kind kind, size_t at)
{
	struct re_tree_node *n;
	void *arr;

	if (ps->t->count == ps->node_cap) {
		arr = ps->t->nodes;
		if (ps->t->count >= RE_TREE_NONE - 1 ||
		    rt_grow(ps, &arr, &ps->node_cap, sizeof(*n)) == -1) {
			(void)rt_nomem(ps);
			return RE_TREE_NONE;
		}
		ps->t->nodes = arr;
	}
	n = &ps->t->nodes[ps->t->count];
	memset(n, 0, sizeof(*n));
	n->kind = (uint8_t)kind;
	n->child = n->next = RE_TREE_NONE;
	n->at = (uint32_t)at;
	if (ps->look > 0)
		n->flags |= RE_TREE_IN_LOOK;
	if (ps->behind > 0)
		n->flags |= RE_TREE_IN_BEHIND;
	return (uint32_t)ps->t->count++;
}

static struct re_tree_node *
rt_get(struct rt_parse *ps, uint32_t i)
{
	return &ps->t->nodes[i];
}

/* Append node c to the children of parent, whose last child is *last. */
static void
rt_link(struct rt_parse *ps, uint32_t parent, uint32_t *last, uint32_t c)
{
	if (*last == RE_TREE_NONE)
		rt_get(ps, parent)->child = c;
	else
		rt_get(ps, *last)->next = c;
	*last = c;
}

/* The byte at pos + k, or -1 past the end. */
static int
rt_peek(const struct rt_parse *ps, size_t k)
{
	if (k >= ps->len - ps->pos)
		return -1;
	return ps->p[ps->pos + k];
}

static bool
rt_eat(struct rt_parse *ps, int c)
{
	if (rt_peek(ps, 0) != c)
		return false;
	ps->pos++;
	return true;
}

/* The value of the hex digit at pos + k, or -1 (not one, or past the end). */
static int
rt_hex_at(const struct rt_parse *ps, size_t k)
{
	int c = rt_peek(ps, k);

	return c < 0 ? -1 : gpt_hex_value((unsigned char)c);
}

/* Four hex digits at pos + k, or -1. */
static int32_t
rt_hex4(const struct rt_parse *ps, size_t k)
{
	int32_t v = 0;
	int i, d;

	for (i = 0; i < 4; i++) {
		if ((d = rt_hex_at(ps, k + (size_t)i)) < 0)
			return -1;
		v = v * 16 + d;
	}
	return v;
}

static bool
rt_is_syntax(int c)
{
	return c != -1 && c != 0 && strchr("^$\\.*+?()[]{}|", c) != NULL;
}

/*
 * RegExpUnicodeEscapeSequence[+UnicodeMode] (22.2.1), pos just after the
 * "u": \uHHHH (a lead and a trail surrogate escape in a row are one code
 * point) or \u{H...} up to U+10FFFF.  The result may be a lone surrogate.
 */
static int
rt_unicode_escape(struct rt_parse *ps, uint32_t *cp)
{
	size_t at = ps->pos - 2;
	int32_t v, t;
	uint32_t w = 0;
	int d;

	if (rt_eat(ps, '{')) {
		if (rt_hex_at(ps, 0) < 0)
			return rt_fail(ps, at, "\\u{ needs hex digits");
		while ((d = rt_hex_at(ps, 0)) >= 0) {
			w = w * 16 + (uint32_t)d;
			if (w > RE_TREE_MAX_CP) /* hits on "\\u{110000}" */
				return rt_fail(
				    ps, at, "\\u{...} beyond U+10FFFF");
			ps->pos++;
		}
		if (!rt_eat(ps, '}'))
			return rt_fail(ps, at, "\\u{ without its }");
		*cp = w;
		return 0;
	}
	if ((v = rt_hex4(ps, 0)) < 0) /* hits on "\\u12" */
		return rt_fail(ps, at, "\\u needs four hex digits");
	ps->pos += 4;
	if (v >= 0xD800 && v <= 0xDBFF && rt_peek(ps, 0) == '\\' &&
	    rt_peek(ps, 1) == 'u' && (t = rt_hex4(ps, 2)) >= 0xDC00 &&
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
rt_char_escape(struct rt_parse *ps, bool in_class, uint32_t *cp)
{
	size_t at = ps->pos - 1;
	int c = rt_peek(ps, 0), d1, d2;

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
		c = rt_peek(ps, 0);
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')))
			/* hits on "\\c1", "[\\c_]" (Annex B only) */
			return rt_fail(
			    ps, at, "\\c must be followed by a letter");
		ps->pos++;
		*cp = (uint32_t)c % 32;
		return 0;
	case '0':
		if (rt_peek(ps, 0) >= '0' && rt_peek(ps, 0) <= '9')
			/* hits on "\\01": octal is Annex B only */
			return rt_fail(ps, at, "\\0 followed by a digit");
		*cp = 0;
		return 0;
	case 'x':
		d1 = rt_hex_at(ps, 0);
		d2 = rt_hex_at(ps, 1);
		if (d1 < 0 || d2 < 0) /* hits on "\\x4" */
			return rt_fail(ps, at, "\\x needs two hex digits");
		ps->pos += 2;
		*cp = (uint32_t)(d1 * 16 + d2);
		return 0;
	case 'u':
		return rt_unicode_escape(ps, cp);
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
		return rt_fail(ps, at, "\\ at the end of the pattern");
	default:
		break;
	}
	if (rt_is_syntax(c) || c == '/') {
		*cp = (uint32_t)c;
		return 0;
	}
	/* hits on "\\a", "\\z", "\\Q", "\\-": IdentityEscape takes only
	 * syntax characters and "/" in Unicode mode */
	return rt_fail(ps, at, "invalid escape");
}

static bool
rt_span_is(const unsigned char *p, size_t n, const char *s)
{
	return strlen(s) == n && memcmp(p, s, n) == 0;
}

static int
rt_cmp_script(const void *key, const void *elem)
{
	return strcmp(key, *(const char *const *)elem);
}

/*
 * \p{...} or \P{...} (UnicodePropertyValueExpression, 22.2.1), pos at the
 * "{"; fills the property fields of node x.
 */
static int
rt_property(struct rt_parse *ps, uint32_t x)
{
	size_t at = ps->pos - 2, start, eq = 0, i, nlen, vlen;
	const unsigned char *name, *value;
	char key[64];
	const char *const *sc;
	struct re_tree_node *n;
	int c;

	if (!rt_eat(ps, '{')) /* hits on "\\pL" */
		return rt_fail(ps, at, "\\p needs {name}");
	start = ps->pos;
	while ((c = rt_peek(ps, 0)) != '}') {
		if (c == '=' && eq == 0 && ps->pos > start)
			eq = ps->pos;
		else if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		             (c >= '0' && c <= '9') || c == '_'))
			/* hits on "\\p{L", "\\p{L&}", "\\p{a=b=c}" */
			return rt_fail(ps, at, "invalid property name");
		ps->pos++;
	}
	ps->pos++;
	n = rt_get(ps, x);
	n->pkind = "";
	name = ps->p + start;
	nlen = (eq != 0 ? eq : ps->pos - 1) - start;
	value = eq != 0 ? ps->p + eq + 1 : name;
	vlen = eq != 0 ? ps->pos - 1 - (eq + 1) : nlen;
	if (eq != 0 &&
	    (rt_span_is(name, nlen, "Script") || rt_span_is(name, nlen, "sc") ||
	        rt_span_is(name, nlen, "Script_Extensions") ||
	        rt_span_is(name, nlen, "scx"))) {
		if (vlen >= sizeof(key))
			return rt_fail(ps, at, "unknown script");
		memcpy(key, value, vlen);
		key[vlen] = '\0';
		sc = bsearch(key, rt_script_names,
		    GPT_ARRAY_LEN(rt_script_names), sizeof(rt_script_names[0]),
		    rt_cmp_script);
		if (sc == NULL) /* hits on "\\p{sc=Greek_}", "\\p{sc=Kawi}" */
			return rt_refuse(
			    ps, at, "unknown script (Unicode 14.0.0)");
		n->pkind = rt_span_is(name, nlen, "Script") ||
		                   rt_span_is(name, nlen, "sc")
		               ? "sc:"
		               : "scx:";
		n->pname = *sc;
		return 0;
	}
	if (eq != 0 && !rt_span_is(name, nlen, "General_Category") &&
	    !rt_span_is(name, nlen, "gc"))
		/* hits on "\\p{Block=Greek}" */
		return rt_fail(ps, at, "unknown property");
	for (i = 0; i < GPT_ARRAY_LEN(rt_gc_names); i++)
		if (rt_span_is(value, vlen, rt_gc_names[i].name)) {
			n->pname = rt_gc_names[i].pcre;
			return 0;
		}
	for (i = 0; eq == 0 && i < GPT_ARRAY_LEN(rt_binary_names); i++)
		if (rt_span_is(value, vlen, rt_binary_names[i].name)) {
			if (rt_binary_names[i].pcre == NULL)
				return rt_refuse(ps, at,
				    "a property PCRE2 10.42 does not have");
			n->pname = rt_binary_names[i].pcre;
			return 0;
		}
	/* hits on "\\p{Greek}" (a script needs sc=), "\\p{letter}" */
	return rt_fail(ps, at, "unknown property");
}

/*
 * A class escape or character escape, pos at the byte after "\\" (shared
 * by atoms and class atoms): \d \D \w \W \s \S \p \P as a SET or PROP
 * node, or a code point as a CHAR node (in_class: a RANGE of one).  *x
 * gets the node.
 */
static int
rt_escape_atom(struct rt_parse *ps, bool in_class, uint32_t *x)
{
	size_t at = ps->pos - 1;
	int c = rt_peek(ps, 0);
	struct re_tree_node *n;
	uint32_t cp;

	switch (c) {
	case 'd':
	case 'D':
	case 'w':
	case 'W':
	case 's':
	case 'S':
		if ((*x = rt_node(ps, RE_TREE_SET, at)) == RE_TREE_NONE)
			return -1;
		n = rt_get(ps, *x);
		n->set = c == 'd' || c == 'D'   ? RE_TREE_DIGIT
		         : c == 'w' || c == 'W' ? RE_TREE_WORD
		                                : RE_TREE_SPACE;
		if (c == 'D' || c == 'W' || c == 'S')
			n->flags |= RE_TREE_NEGATED;
		ps->pos++;
		return 0;
	case 'p':
	case 'P':
		if ((*x = rt_node(ps, RE_TREE_PROP, at)) == RE_TREE_NONE)
			return -1;
		if (c == 'P')
			rt_get(ps, *x)->flags |= RE_TREE_NEGATED;
		ps->pos++;
		return rt_property(ps, *x);
	default:
		if (rt_char_escape(ps, in_class, &cp) == -1)
			return -1;
		if ((*x = rt_node(ps, in_class ? RE_TREE_RANGE : RE_TREE_CHAR,
		         at)) == RE_TREE_NONE)
			return -1;
		rt_get(ps, *x)->a = cp;
		rt_get(ps, *x)->b = cp;
		return 0;
	}
}

/* One ClassAtom (22.2.1), pos at it: *x gets a RANGE of one, SET or PROP. */
static int
rt_class_atom(struct rt_parse *ps, uint32_t *x)
{
	size_t n, at = ps->pos;
	uint32_t cp;
	int c = rt_peek(ps, 0);

	if (c == '\\') {
		ps->pos++;
		c = rt_peek(ps, 0);
		if ((c >= '1' && c <= '9') || c == 'B' || c == 'k')
			/* hits on "[\\1]", "[\\B]" */
			return rt_fail(
			    ps, ps->pos - 1, "invalid escape in a class");
		return rt_escape_atom(ps, true, x);
	}
	n = utf8_decode(ps->p + ps->pos, ps->len - ps->pos, &cp);
	if (n == 0) /* hits on "[\xff]" */
		return rt_fail(ps, ps->pos, "invalid UTF-8");
	ps->pos += n;
	if ((*x = rt_node(ps, RE_TREE_RANGE, at)) == RE_TREE_NONE)
		return -1;
	rt_get(ps, *x)->a = cp;
	rt_get(ps, *x)->b = cp;
	return 0;
}

/* CharacterClass (22.2.1, NonemptyClassRanges), pos at "[". */
static int
rt_class(struct rt_parse *ps, uint32_t *x)
{
	size_t at = ps->pos;
	uint32_t last = RE_TREE_NONE, a, b;
	struct re_tree_node *na, *nb;

	if ((*x = rt_node(ps, RE_TREE_CLASS, at)) == RE_TREE_NONE)
		return -1;
	ps->pos++;
	if (rt_eat(ps, '^'))
		rt_get(ps, *x)->flags |= RE_TREE_NEGATED;
	for (;;) {
		if (rt_peek(ps, 0) == -1) /* hits on "[a" */
			return rt_fail(ps, at, "missing ] after a class");
		if (rt_eat(ps, ']'))
			break;
		if (rt_class_atom(ps, &a) == -1)
			return -1;
		if (rt_peek(ps, 0) != '-' || rt_peek(ps, 1) == ']' ||
		    rt_peek(ps, 1) == -1) {
			rt_link(ps, *x, &last, a);
			continue;
		}
		ps->pos++;
		if (rt_class_atom(ps, &b) == -1)
			return -1;
		na = rt_get(ps, a);
		nb = rt_get(ps, b);
		if (na->kind != RE_TREE_RANGE || nb->kind != RE_TREE_RANGE)
			/* hits on "[\\d-z]", "[a-\\w]" */
			return rt_fail(ps, at, "a class escape in a range");
		if (na->a > nb->a) /* hits on "[z-a]" */
			return rt_fail(ps, at, "range out of order in a class");
		na->b = nb->a;
		/* b is left unlinked: a node of the pool, in no list */
		rt_link(ps, *x, &last, a);
	}
	return 0;
}

/* GroupName (22.2.1) after "<", up to and with ">"; ASCII only. */
static int
rt_group_name(struct rt_parse *ps, const unsigned char **name, size_t *n)
{
	size_t at = ps->pos, start = ps->pos;
	int c;

	while ((c = rt_peek(ps, 0)) != '>') {
		if (c == '_' || c == '$' || (c >= 'a' && c <= 'z') ||
		    (c >= 'A' && c <= 'Z') ||
		    (c >= '0' && c <= '9' && ps->pos > start)) {
			ps->pos++;
			continue;
		}
		if (c >= 0x80 || c == '\\')
			/* hits on "(?<\xc3\xa9>a)": ID_Start is wider */
			return rt_refuse(ps, at, "a non-ASCII group name");
		/* hits on "(?<1a>x)", "(?<a", "(?<>a)" */
		return rt_fail(ps, at, "invalid group name");
	}
	if (ps->pos == start)
		return rt_fail(ps, at, "invalid group name");
	*name = ps->p + start;
	*n = ps->pos - start;
	ps->pos++;
	return 0;
}

/* AtomEscape (22.2.1) outside a class, pos at the byte after "\\".  A
 * back-reference keeps its number in a, or its name's offset and length
 * in a and b (RE_TREE_NAMED), until rt_resolve. */
#define RE_TREE_NAMED 0x80u

static int
rt_atom_escape(struct rt_parse *ps, uint32_t *x, bool *quantifiable)
{
	size_t at = ps->pos - 1, n = 0;
	const unsigned char *name;
	struct re_tree_node *nd;
	int c = rt_peek(ps, 0);

	*quantifiable = true;
	if (c == 'b' || c == 'B') {
		ps->pos++;
		if ((*x = rt_node(ps, RE_TREE_WORDB, at)) == RE_TREE_NONE)
			return -1;
		if (c == 'B')
			rt_get(ps, *x)->flags |= RE_TREE_NEGATED;
		*quantifiable = false;
		return 0;
	}
	if (c >= '1' && c <= '9') {
		while ((c = rt_peek(ps, 0)) >= '0' && c <= '9') {
			if (n <= ps->len) /* past every group: saturate */
				n = n * 10 + (size_t)(c - '0');
			ps->pos++;
		}
		if ((*x = rt_node(ps, RE_TREE_BACKREF, at)) == RE_TREE_NONE)
			return -1;
		rt_get(ps, *x)->a = n > UINT32_MAX ? UINT32_MAX : (uint32_t)n;
		return 0;
	}
	if (c == 'k') {
		ps->pos++;
		if (!rt_eat(ps, '<')) /* hits on "\\k" */
			return rt_fail(ps, at, "\\k needs <name>");
		if (rt_group_name(ps, &name, &n) == -1)
			return -1;
		if ((*x = rt_node(ps, RE_TREE_BACKREF, at)) == RE_TREE_NONE)
			return -1;
		nd = rt_get(ps, *x);
		nd->flags |= RE_TREE_NAMED;
		nd->a = (uint32_t)(name - ps->p);
		nd->b = (uint32_t)n;
		return 0;
	}
	return rt_escape_atom(ps, false, x);
}

static int rt_disjunction(struct rt_parse *ps, uint32_t *x);

/* A group or lookaround, pos at "(". */
static int
rt_group(struct rt_parse *ps, uint32_t *x, bool *quantifiable)
{
	size_t at = ps->pos, index = 0, i, n = 0;
	const unsigned char *name = NULL;
	enum re_tree_kind kind = RE_TREE_GROUP;
	unsigned flags = 0;
	struct re_tree_group *g;
	uint32_t alt;
	void *arr;

	ps->pos++;
	*quantifiable = true;
	if (rt_eat(ps, '?')) {
		kind = RE_TREE_LOOK;
		if (rt_eat(ps, ':'))
			kind = RE_TREE_NCGROUP;
		else if (rt_eat(ps, '='))
			;
		else if (rt_eat(ps, '!'))
			flags = RE_TREE_NEGATED;
		else if (rt_eat(ps, '<')) {
			if (rt_eat(ps, '='))
				flags = RE_TREE_BEHIND;
			else if (rt_eat(ps, '!'))
				flags = RE_TREE_BEHIND | RE_TREE_NEGATED;
			else if (rt_group_name(ps, &name, &n) == -1)
				return -1;
			else
				kind = RE_TREE_GROUP;
		} else /* hits on "(?i)a", "(?>a)", "(?P<n>a)", "(?#c)" */
			return rt_fail(ps, at, "invalid group");
		/* lookarounds take no quantifier in Unicode mode: "(?=a)*" */
		*quantifiable = kind != RE_TREE_LOOK;
	}
	if ((*x = rt_node(ps, kind, at)) == RE_TREE_NONE)
		return -1;
	rt_get(ps, *x)->flags |= (uint8_t)flags;
	if (kind == RE_TREE_GROUP) {
		if (ps->t->ngroups == ps->group_cap) {
			arr = ps->t->groups;
			if (rt_grow(ps, &arr, &ps->group_cap, sizeof(*g)) == -1)
				return ps->a == NULL
				           ? rt_fail(ps, at, "too many groups")
				           : rt_nomem(ps);
			ps->t->groups = arr;
		}
		index = ps->t->ngroups++;
		g = &ps->t->groups[index];
		memset(g, 0, sizeof(*g));
		g->name = (const char *)name;
		g->name_len = n;
		g->in_behind = ps->behind > 0;
		rt_get(ps, *x)->a = (uint32_t)(index + 1);
		if (name != NULL) {
			if (++ps->nnames > RE_TREE_MAX_NAMES)
				return rt_refuse(
				    ps, at, "too many named groups");
			for (i = 0; i < index; i++)
				if (ps->t->groups[i].name_len == n &&
				    ps->t->groups[i].name != NULL &&
				    memcmp(ps->t->groups[i].name, name, n) == 0)
					/* hits on "(?<a>x)|(?<a>y)" */
					return rt_fail(
					    ps, at, "duplicate group name");
		}
	}
	if (kind == RE_TREE_LOOK)
		ps->look++;
	if (flags & RE_TREE_BEHIND)
		ps->behind++;
	if (rt_disjunction(ps, &alt) == -1)
		return -1;
	rt_get(ps, *x)->child = alt;
	if (!rt_eat(ps, ')')) /* hits on "(a" */
		return rt_fail(ps, at, "missing ) after a group");
	if (flags & RE_TREE_BEHIND)
		ps->behind--;
	if (kind == RE_TREE_LOOK)
		ps->look--;
	if (kind == RE_TREE_GROUP)
		ps->t->groups[index].close_at = ps->pos;
	return 0;
}

/* A decimal number of a quantifier, saturated past RE_TREE_MAX_REPEAT. */
static bool
rt_number(struct rt_parse *ps, uint32_t *v)
{
	int c;

	if ((c = rt_peek(ps, 0)) < '0' || c > '9')
		return false;
	*v = 0;
	while ((c = rt_peek(ps, 0)) >= '0' && c <= '9') {
		if (*v <= RE_TREE_MAX_REPEAT)
			*v = *v * 10 + (uint32_t)(c - '0');
		ps->pos++;
	}
	return true;
}

/* Quantifier (22.2.1), pos at it, over atom *x (which becomes the REPEAT
 * node); the atom opened the groups from first_group on. */
static int
rt_quantifier(struct rt_parse *ps, uint32_t *x, size_t first_group)
{
	size_t at = ps->pos, i;
	uint32_t min = 0, max = 0, r;
	bool unbounded = false;
	struct re_tree_node *n;
	int c = rt_peek(ps, 0);

	ps->pos++;
	if (c == '*' || c == '+') {
		min = c == '+';
		unbounded = true;
	} else if (c == '?')
		max = 1;
	else {
		if (!rt_number(ps, &min)) /* hits on "a{", "a{,2}" */
			return rt_fail(ps, at, "incomplete quantifier");
		if (rt_eat(ps, ','))
			unbounded = !rt_number(ps, &max);
		else
			max = min;
		if (!rt_eat(ps, '}')) /* hits on "a{1", "a{1,2" */
			return rt_fail(ps, at, "incomplete quantifier");
		if (!unbounded && min > max) /* hits on "a{2,1}" */
			return rt_fail(
			    ps, at, "numbers out of order in a quantifier");
		if (min > RE_TREE_MAX_REPEAT ||
		    (!unbounded && max > RE_TREE_MAX_REPEAT))
			/* hits on "a{65536}" */
			return rt_refuse(ps, at, "a repeat count above 65535");
	}
	if ((r = rt_node(ps, RE_TREE_REPEAT, at)) == RE_TREE_NONE)
		return -1;
	n = rt_get(ps, r);
	n->a = min;
	n->b = unbounded ? RE_TREE_INF : max;
	n->child = *x;
	if (c == '{')
		n->flags |= RE_TREE_BRACE;
	if (rt_eat(ps, '?'))
		n->flags |= RE_TREE_LAZY;
	if (!(min == 1 && max == 1 && !unbounded))
		for (i = first_group; i < ps->t->ngroups; i++)
			ps->t->groups[i].quantified = true;
	*x = r;
	return 0;
}

/* Term (22.2.1): an assertion, or an atom with an optional quantifier;
 * *x gets its node. */
static int
rt_term(struct rt_parse *ps, uint32_t *x)
{
	size_t at = ps->pos, first_group = ps->t->ngroups, n;
	bool quantifiable = true;
	uint32_t cp;
	int c = rt_peek(ps, 0);

	switch (c) {
	case '^':
	case '$':
		ps->pos++;
		*x = rt_node(ps, c == '^' ? RE_TREE_BOL : RE_TREE_EOL, at);
		quantifiable = false;
		break;
	case '.':
		ps->pos++;
		*x = rt_node(ps, RE_TREE_DOT, at);
		break;
	case '(':
		if (rt_group(ps, x, &quantifiable) == -1)
			return -1;
		break;
	case '[':
		if (rt_class(ps, x) == -1)
			return -1;
		break;
	case '\\':
		ps->pos++;
		if (rt_atom_escape(ps, x, &quantifiable) == -1)
			return -1;
		break;
	case '*':
	case '+':
	case '?':
	case '{':
		/* hits on "*a", "a**", "a{2}{3}", "{" (no Annex B) */
		return rt_fail(ps, at, "nothing to repeat");
	case '}':
	case ']': /* hits on "a]", "}" */
		return rt_fail(ps, at, "a lone ] or }");
	default:
		n = utf8_decode(ps->p + ps->pos, ps->len - ps->pos, &cp);
		if (n == 0) /* hits on "\xff" */
			return rt_fail(ps, at, "invalid UTF-8");
		ps->pos += n;
		if ((*x = rt_node(ps, RE_TREE_CHAR, at)) != RE_TREE_NONE)
			rt_get(ps, *x)->a = cp;
		break;
	}
	if (*x == RE_TREE_NONE)
		return -1;
	c = rt_peek(ps, 0);
	if (c != '*' && c != '+' && c != '?' && c != '{')
		return 0;
	if (!quantifiable) /* hits on "^*", "\\b+", "(?=a)*" */
		return rt_fail(ps, ps->pos, "nothing to repeat");
	return rt_quantifier(ps, x, first_group);
}

/* Disjunction (22.2.1): alternatives of terms, up to ")" or the end; *x
 * gets the ALT node. */
static int
rt_disjunction(struct rt_parse *ps, uint32_t *x)
{
	uint32_t seq, term, last_seq = RE_TREE_NONE, last;
	int c;

	if (++ps->depth > RE_TREE_MAX_NEST) /* hits on 201 "(" */
		return rt_refuse(ps, ps->pos, "groups nested too deeply");
	if ((*x = rt_node(ps, RE_TREE_ALT, ps->pos)) == RE_TREE_NONE)
		return -1;
	for (;;) {
		if ((seq = rt_node(ps, RE_TREE_SEQ, ps->pos)) == RE_TREE_NONE)
			return -1;
		rt_link(ps, *x, &last_seq, seq);
		last = RE_TREE_NONE;
		while ((c = rt_peek(ps, 0)) != -1 && c != '|' && c != ')') {
			if (rt_term(ps, &term) == -1)
				return -1;
			rt_link(ps, seq, &last, term);
		}
		if (c != '|')
			break;
		ps->pos++;
	}
	ps->depth--;
	return 0;
}

/* Each back-reference to its group, in the order of the pattern, and
 * what PCRE2 cannot match alike refused (re.c's head). */
static int
rt_resolve(struct rt_parse *ps)
{
	struct re_tree *t = ps->t;
	const struct re_tree_group *g;
	struct re_tree_node *n;
	size_t i, k, gi;

	for (i = 0; i < t->count; i++) {
		n = &t->nodes[i];
		if (n->kind != RE_TREE_BACKREF)
			continue;
		gi = n->a;
		if (n->flags & RE_TREE_NAMED) {
			for (k = 0; k < t->ngroups; k++)
				if (t->groups[k].name != NULL &&
				    t->groups[k].name_len == n->b &&
				    memcmp(t->groups[k].name, ps->p + n->a,
				        n->b) == 0)
					break;
			if (k == t->ngroups) /* hits on "\\k<a>(?<b>x)" */
				return rt_fail(
				    ps, n->at, "\\k<name> names no group");
			gi = k + 1;
			n->flags &= (uint8_t)~RE_TREE_NAMED;
			n->b = 0;
		}
		if (gi == 0 || gi > t->ngroups) /* hits on "\\2(a)" */
			return rt_fail(
			    ps, n->at, "a back-reference to no group");
		n->a = (uint32_t)gi;
		g = &t->groups[gi - 1];
		if ((n->flags & RE_TREE_IN_BEHIND) || g->in_behind)
			/* hits on "(?<=(a)\\1)b", "(?<=(a))b\\1" */
			return rt_refuse(ps, n->at,
			    "a back-reference in or into a lookbehind "
			    "(ECMA-262 matches lookbehinds right to left)");
		if (g->quantified)
			/* hits on "^(?:(a)|b)+\\1$" */
			return rt_refuse(ps, n->at,
			    "a back-reference to a group inside a quantified "
			    "atom (ECMA-262 resets it on each repetition)");
		/* "\\1(a)", "(a\\1)": the group cannot have matched yet, so
		 * it is undefined and matches empty */
		if (g->close_at == 0 || g->close_at > n->at)
			n->flags |= RE_TREE_UNSET;
	}
	return 0;
}

static int
rt_run(struct rt_parse *ps)
{
	uint32_t root;

	if (rt_disjunction(ps, &root) == -1)
		return -1;
	if (ps->pos < ps->len) /* hits on "a)" */
		return rt_fail(ps, ps->pos, "unmatched )");
	return rt_resolve(ps);
}

int
re_tree_parse(const char *pattern, size_t len, struct arena *a,
    struct re_tree *t, struct re_tree_err *err)
{
	struct rt_parse ps;

	memset(err, 0, sizeof(*err));
	memset(t, 0, sizeof(*t));
	memset(&ps, 0, sizeof(ps));
	ps.p = (const unsigned char *)pattern;
	ps.len = len;
	ps.t = t;
	ps.a = a;
	ps.err = err;
	if (len >= RE_TREE_NONE / 4) /* offsets and indices are 32 bits */
		return rt_refuse(&ps, 0, "pattern too long");
	return rt_run(&ps);
}

bool
re_tree_is_valid_syntax(const char *pattern, size_t len)
{
	/* at most 3 nodes a byte and 2 more (re_tree.h), and a group for
	 * each "("; the process is single-threaded (re.h) */
	static struct re_tree_node nodes[3 * RE_TREE_SYNTAX_MAX + 2];
	static struct re_tree_group groups[RE_TREE_SYNTAX_MAX + 1];
	struct re_tree t;
	struct re_tree_err err;
	struct rt_parse ps;

	if (len > RE_TREE_SYNTAX_MAX)
		return false;
	memset(&err, 0, sizeof(err));
	memset(&t, 0, sizeof(t));
	memset(&ps, 0, sizeof(ps));
	t.nodes = nodes;
	t.groups = groups;
	ps.p = (const unsigned char *)pattern;
	ps.len = len;
	ps.t = &t;
	ps.node_cap = GPT_ARRAY_LEN(nodes);
	ps.group_cap = GPT_ARRAY_LEN(groups);
	ps.err = &err;
	return rt_run(&ps) == 0;
}

void
re_tree_message(const struct re_tree_err *err, char *buf, size_t cap)
{
	if (err->nomem)
		snprintf(buf, cap, "out of memory");
	else
		snprintf(buf, cap, "%s pattern at offset %zu: %s",
		    err->unsupported ? "unsupported" : "invalid", err->at,
		    err->why != NULL ? err->why : "refused");
}

/* ---- questions for the lint ------------------------------------------- */

static const struct re_tree_node *
rt_first(const struct re_tree *t, const struct re_tree_node *n)
{
	return re_tree_at(t, n->child);
}

/* Does alternative seq start with ^ (first) or end with $ (!first)? */
static bool
rt_seq_edge(const struct re_tree *t, const struct re_tree_node *seq, bool first)
{
	const struct re_tree_node *n = rt_first(t, seq), *last = NULL;

	if (n == NULL)
		return false;
	if (first)
		return n->kind == RE_TREE_BOL;
	for (; n != NULL; n = re_tree_at(t, n->next))
		last = n;
	return last->kind == RE_TREE_EOL;
}

bool
re_tree_anchored(const struct re_tree *t)
{
	const struct re_tree_node *seq;

	if (t->count == 0)
		return false;
	for (seq = rt_first(t, &t->nodes[0]); seq != NULL;
	     seq = re_tree_at(t, seq->next))
		if (!rt_seq_edge(t, seq, true) || !rt_seq_edge(t, seq, false))
			return false;
	return true;
}

bool
re_tree_ends_anchored(const struct re_tree *t)
{
	const struct re_tree_node *seq, *last = NULL;

	if (t->count == 0 || (seq = rt_first(t, &t->nodes[0])) == NULL)
		return false;
	if (!rt_seq_edge(t, seq, true))
		return false;
	for (; seq != NULL; seq = re_tree_at(t, seq->next))
		last = seq;
	return rt_seq_edge(t, last, false);
}

bool
re_tree_bounds_length(const struct re_tree *t)
{
	size_t i;

	if (!re_tree_anchored(t))
		return false;
	for (i = 0; i < t->count; i++)
		if (t->nodes[i].kind == RE_TREE_REPEAT &&
		    t->nodes[i].b == RE_TREE_INF &&
		    !(t->nodes[i].flags & RE_TREE_IN_LOOK))
			return false;
	return true;
}

bool
re_tree_has_lookaround(const struct re_tree *t)
{
	size_t i;

	for (i = 0; i < t->count; i++)
		switch (t->nodes[i].kind) {
		case RE_TREE_LOOK:
		case RE_TREE_WORDB:
		case RE_TREE_BACKREF:
			return true;
		default:
			break;
		}
	return false;
}

bool
re_tree_has_count(const struct re_tree *t, uint32_t v)
{
	size_t i;

	for (i = 0; i < t->count; i++)
		if (t->nodes[i].kind == RE_TREE_REPEAT &&
		    (t->nodes[i].flags & RE_TREE_BRACE) &&
		    (t->nodes[i].a == v || t->nodes[i].b == v))
			return true;
	return false;
}
