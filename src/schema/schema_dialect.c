/*
 * schema_dialect.c: the keyword registry (schema_dialect.h).
 *
 * Owns only static data.  A name with no row for the dialect is not a
 * keyword of it: the compiler refuses it (fail closed), unless it is an
 * annotation the address declares or an x- name.
 */
#include <string.h>

#include "schema/schema_dialect.h"
#include "schema/schema_int.h" /* the SF_* flags of the last column */

#define D04 (1u << SCHEMA_D_DRAFT04)
#define D06 (1u << SCHEMA_D_DRAFT06)
#define D07 (1u << SCHEMA_D_DRAFT07)
#define D19 (1u << SCHEMA_D_2019_09)
#define D20 (1u << SCHEMA_D_2020_12)
#define DV1 (1u << SCHEMA_D_V1)
#define ALL (D04 | D06 | D07 | D19 | D20 | DV1)
#define FROM06 (ALL & ~D04)
#define FROM07 (FROM06 & ~D06)
#define FROM19 (FROM07 & ~D07)
#define FROM20 (FROM19 & ~D19)
#define TO07 (D04 | D06 | D07)
#define TO19 (TO07 | D19)
#ifdef GPT_TEST
#define TEST_ONLY ALL
#else
#define TEST_ONLY 0u
#endif

#define V(x) SCHEMA_V_##x
#define S(x) SCHEMA_KS_##x
#define K(x) SCHEMA_KV_##x
#define A(x) SCHEMA_KA_##x
#define T(x) SCHEMA_KT_##x
#define ASSERT SCHEMA_KR_ASSERT
#define APPLY SCHEMA_KR_APPLY
#define ANNOTATE SCHEMA_KR_ANNOTATE
#define CORE SCHEMA_KR_CORE
#define NUMS T(NUMERIC)
#define NOTYPE 0u

/* name, kw, dialects, vocabulary, value, child edges, applied to,
 * types constrained, role, flag */
static const struct schema_kw_info kw_rows[] = {
    {"type", KW_TYPE, ALL, V(VALIDATION), K(TYPE), S(NONE), A(NONE), T(ALL),
        ASSERT, SF_TYPE, false},
    {"enum", KW_ENUM, ALL, V(VALIDATION), K(ARRAY), S(NONE), A(NONE), T(ALL),
        ASSERT, SF_ENUM, false},
    {"const", KW_CONST, FROM06, V(VALIDATION), K(ANY), S(NONE), A(NONE), T(ALL),
        ASSERT, SF_CONST, false},
    {"properties", KW_PROPERTIES, ALL, V(APPLICATOR), K(SCHEMA_MAP), S(MAP),
        A(MEMBER), T(OBJECT), APPLY, SF_MEMBERS, false},
    {"required", KW_REQUIRED, ALL, V(VALIDATION), K(NAMES), S(NONE), A(NONE),
        T(OBJECT), ASSERT, SF_REQUIRED, false},
    {"additionalProperties", KW_ADDITIONALPROPERTIES, ALL, V(APPLICATOR),
        K(SCHEMA), S(ONE), A(MEMBER), T(OBJECT), APPLY, SF_MEMBERS, false},
    {"patternProperties", KW_PATTERNPROPERTIES, ALL, V(APPLICATOR),
        K(SCHEMA_MAP), S(MAP), A(MEMBER), T(OBJECT), APPLY, SF_MEMBERS, false},
    {"propertyNames", KW_PROPERTYNAMES, FROM06, V(APPLICATOR), K(SCHEMA),
        S(ONE), A(NAME), T(OBJECT), APPLY, SF_MEMBERS, false},
    {"minProperties", KW_MINPROPERTIES, ALL, V(VALIDATION), K(COUNT), S(NONE),
        A(NONE), T(OBJECT), ASSERT, SF_MINPROPS, false},
    {"maxProperties", KW_MAXPROPERTIES, ALL, V(VALIDATION), K(COUNT), S(NONE),
        A(NONE), T(OBJECT), ASSERT, SF_MAXPROPS, false},
    {"items", KW_ITEMS, FROM20, V(APPLICATOR), K(SCHEMA), S(ONE), A(ITEM),
        T(ARRAY), APPLY, SF_ITEMS, false},
    {"items", KW_ITEMS_OLD, TO19, V(APPLICATOR), K(ITEMS_OLD), S(ONE_OR_LIST),
        A(ITEM), T(ARRAY), APPLY, SF_ITEMS, false},
    {"additionalItems", KW_ADDITIONALITEMS, TO19, V(APPLICATOR), K(SCHEMA),
        S(ONE), A(ITEM), T(ARRAY), APPLY, SF_ITEMS, false},
    {"prefixItems", KW_PREFIXITEMS, FROM20, V(APPLICATOR), K(SCHEMAS), S(LIST),
        A(ITEM), T(ARRAY), APPLY, SF_ITEMS, false},
    {"minItems", KW_MINITEMS, ALL, V(VALIDATION), K(COUNT), S(NONE), A(NONE),
        T(ARRAY), ASSERT, SF_MINITEMS, false},
    {"maxItems", KW_MAXITEMS, ALL, V(VALIDATION), K(COUNT), S(NONE), A(NONE),
        T(ARRAY), ASSERT, SF_MAXITEMS, false},
    {"uniqueItems", KW_UNIQUEITEMS, ALL, V(VALIDATION), K(BOOL), S(NONE),
        A(NONE), T(ARRAY), ASSERT, SF_UNIQUE, false},
    {"contains", KW_CONTAINS, FROM06, V(APPLICATOR), K(SCHEMA), S(ONE), A(ITEM),
        T(ARRAY), APPLY, SF_CONTAINS, true},
    {"minContains", KW_MINCONTAINS, FROM19, V(VALIDATION), K(COUNT), S(NONE),
        A(NONE), T(ARRAY), ASSERT, SF_CONTAINS, false},
    {"maxContains", KW_MAXCONTAINS, FROM19, V(VALIDATION), K(COUNT), S(NONE),
        A(NONE), T(ARRAY), ASSERT, SF_CONTAINS, false},
    {"minLength", KW_MINLENGTH, ALL, V(VALIDATION), K(COUNT), S(NONE), A(NONE),
        T(STRING), ASSERT, SF_MINLENGTH, false},
    {"maxLength", KW_MAXLENGTH, ALL, V(VALIDATION), K(COUNT), S(NONE), A(NONE),
        T(STRING), ASSERT, SF_MAXLENGTH, false},
    {"pattern", KW_PATTERN, ALL, V(VALIDATION), K(PATTERN), S(NONE), A(NONE),
        T(STRING), ASSERT, SF_PATTERN, false},
    {"minimum", KW_MINIMUM, ALL, V(VALIDATION), K(NUMBER), S(NONE), A(NONE),
        NUMS, ASSERT, SF_MINIMUM, false},
    {"maximum", KW_MAXIMUM, ALL, V(VALIDATION), K(NUMBER), S(NONE), A(NONE),
        NUMS, ASSERT, SF_MAXIMUM, false},
    {"exclusiveMinimum", KW_EXCLUSIVEMINIMUM, FROM06, V(VALIDATION), K(NUMBER),
        S(NONE), A(NONE), NUMS, ASSERT, SF_XMINIMUM, false},
    {"exclusiveMaximum", KW_EXCLUSIVEMAXIMUM, FROM06, V(VALIDATION), K(NUMBER),
        S(NONE), A(NONE), NUMS, ASSERT, SF_XMAXIMUM, false},
    /* draft-04: a boolean that makes minimum (maximum) exclusive */
    {"exclusiveMinimum", KW_XMIN_BOOL, D04, V(VALIDATION), K(BOOL), S(NONE),
        A(NONE), NUMS, ASSERT, SF_XMINIMUM, false},
    {"exclusiveMaximum", KW_XMAX_BOOL, D04, V(VALIDATION), K(BOOL), S(NONE),
        A(NONE), NUMS, ASSERT, SF_XMAXIMUM, false},
    {"multipleOf", KW_MULTIPLEOF, ALL, V(VALIDATION), K(POSITIVE), S(NONE),
        A(NONE), NUMS, ASSERT, SF_MULTIPLE, false},
    {"anyOf", KW_ANYOF, ALL, V(APPLICATOR), K(SCHEMAS), S(LIST), A(SAME),
        T(ALL), APPLY, SF_ANYOF, false},
    {"allOf", KW_ALLOF, ALL, V(APPLICATOR), K(SCHEMAS), S(LIST), A(SAME),
        T(ALL), APPLY, SF_ALLOF, false},
    {"oneOf", KW_ONEOF, ALL, V(APPLICATOR), K(SCHEMAS), S(LIST), A(SAME),
        T(ALL), APPLY, SF_ONEOF, false},
    {"not", KW_NOT, ALL, V(APPLICATOR), K(SCHEMA), S(ONE), A(SAME), T(ALL),
        APPLY, SF_NOT, true},
    {"if", KW_IF, FROM07, V(APPLICATOR), K(SCHEMA), S(ONE), A(SAME), T(ALL),
        APPLY, SF_IF, true},
    {"then", KW_THEN, FROM07, V(APPLICATOR), K(SCHEMA), S(ONE), A(SAME), T(ALL),
        APPLY, SF_IF, false},
    {"else", KW_ELSE, FROM07, V(APPLICATOR), K(SCHEMA), S(ONE), A(SAME), T(ALL),
        APPLY, SF_IF, false},
    {"dependentRequired", KW_DEPENDENTREQUIRED, FROM19, V(VALIDATION),
        K(NAMES_MAP), S(NONE), A(NONE), T(OBJECT), ASSERT, SF_DEPREQ, false},
    {"dependentSchemas", KW_DEPENDENTSCHEMAS, FROM19, V(APPLICATOR),
        K(SCHEMA_MAP), S(MAP), A(SAME), T(OBJECT), APPLY, SF_DEPSCH, false},
    /* 2019-09 on, with its draft-07 meaning (the suite's optional
     * dependencies-compatibility): both halves are still constraints */
    {"dependencies", KW_DEPENDENCIES, ALL, V(APPLICATOR), K(DEPS), S(DEPS),
        A(SAME), T(OBJECT), APPLY, SF_DEPREQ | SF_DEPSCH, false},
    /* 2019-09 puts the unevaluated keywords in the applicator vocabulary,
     * 2020-12 in a vocabulary of their own; the plan marks the nodes
     * that collect what they need (SF_SPECIAL) */
    {"unevaluatedProperties", KW_UNEVALPROPS, D19, V(APPLICATOR), K(SCHEMA),
        S(ONE), A(MEMBER), T(OBJECT), APPLY, SF_SPECIAL, false},
    {"unevaluatedItems", KW_UNEVALITEMS, D19, V(APPLICATOR), K(SCHEMA), S(ONE),
        A(ITEM), T(ARRAY), APPLY, SF_SPECIAL, false},
    {"unevaluatedProperties", KW_UNEVALPROPS, FROM20, V(UNEVALUATED), K(SCHEMA),
        S(ONE), A(MEMBER), T(OBJECT), APPLY, SF_SPECIAL, false},
    {"unevaluatedItems", KW_UNEVALITEMS, FROM20, V(UNEVALUATED), K(SCHEMA),
        S(ONE), A(ITEM), T(ARRAY), APPLY, SF_SPECIAL, false},
    {"$ref", KW_REF, ALL, V(CORE), K(URI_REF), S(NONE), A(SAME), T(ALL), APPLY,
        SF_REF, false},
    {"$dynamicRef", KW_DYNAMICREF, FROM20, V(CORE), K(URI_REF), S(NONE),
        A(SAME), T(ALL), APPLY, SF_REF, false},
    {"$dynamicAnchor", KW_DYNAMICANCHOR, FROM20, V(CORE), K(ANCHOR), S(NONE),
        A(NONE), NOTYPE, CORE, 0, false},
    {"$recursiveRef", KW_RECURSIVEREF, D19, V(CORE), K(URI_REF), S(NONE),
        A(SAME), T(ALL), APPLY, SF_REF, false},
    {"$recursiveAnchor", KW_RECURSIVEANCHOR, D19, V(CORE), K(BOOL), S(NONE),
        A(NONE), NOTYPE, CORE, 0, false},
    {"$anchor", KW_ANCHOR, FROM19, V(CORE), K(ANCHOR), S(NONE), A(NONE), NOTYPE,
        CORE, 0, false},
    /* a container in every dialect: ignoring one widens nothing, and
     * draft-07 forms use it (a $ref into it resolves as into
     * definitions) */
    {"$defs", KW_DEFS, ALL, V(CORE), K(SCHEMA_MAP), S(MAP), A(NONE), NOTYPE,
        CORE, 0, false},
    /* kept by every meta-schema since, as a map of schemas */
    {"definitions", KW_DEFINITIONS, ALL, V(CORE), K(SCHEMA_MAP), S(MAP),
        A(NONE), NOTYPE, CORE, 0, false},
    {"$schema", KW_SCHEMA, ALL, V(CORE), K(URI), S(NONE), A(NONE), NOTYPE, CORE,
        0, false},
    {"$id", KW_ID, FROM06, V(CORE), K(URI_REF), S(NONE), A(NONE), NOTYPE, CORE,
        0, false},
    {"id", KW_ID_OLD, D04, V(CORE), K(URI_REF), S(NONE), A(NONE), NOTYPE, CORE,
        0, false},
    {"$vocabulary", KW_VOCABULARY, FROM19, V(CORE), K(VOCABS), S(NONE), A(NONE),
        NOTYPE, CORE, 0, false},
    /* annotations: harmless in every dialect */
    {"title", KW_TITLE, ALL, V(METADATA), K(STRING), S(NONE), A(NONE), NOTYPE,
        ANNOTATE, 0, false},
    {"description", KW_DESCRIPTION, ALL, V(METADATA), K(STRING), S(NONE),
        A(NONE), NOTYPE, ANNOTATE, 0, false},
    {"default", KW_DEFAULT, ALL, V(METADATA), K(ANY), S(NONE), A(NONE), NOTYPE,
        ANNOTATE, 0, false},
    {"examples", KW_EXAMPLES, ALL, V(METADATA), K(ARRAY), S(NONE), A(NONE),
        NOTYPE, ANNOTATE, 0, false},
    {"deprecated", KW_DEPRECATED, ALL, V(METADATA), K(BOOL), S(NONE), A(NONE),
        NOTYPE, ANNOTATE, 0, false},
    {"readOnly", KW_READONLY, ALL, V(METADATA), K(BOOL), S(NONE), A(NONE),
        NOTYPE, ANNOTATE, 0, false},
    {"writeOnly", KW_WRITEONLY, ALL, V(METADATA), K(BOOL), S(NONE), A(NONE),
        NOTYPE, ANNOTATE, 0, false},
    {"$comment", KW_COMMENT, ALL, V(CORE), K(STRING), S(NONE), A(NONE), NOTYPE,
        ANNOTATE, 0, false},
    /* enforced: a format gpt.fcgi does not check refuses the form */
    {"format", KW_FORMAT, ALL, V(FORMAT), K(STRING), S(NONE), A(NONE),
        T(STRING) | NUMS, ASSERT, SF_FORMAT | SF_NFORMAT, false},
    /* enforced too (schema_node.content), under the pattern flag */
    {"contentEncoding", KW_CONTENTENCODING, FROM07, V(CONTENT), K(STRING),
        S(NONE), A(NONE), T(STRING), ASSERT, SF_PATTERN, false},
    {"contentMediaType", KW_CONTENTMEDIATYPE, FROM07, V(CONTENT), K(STRING),
        S(NONE), A(NONE), T(STRING), ASSERT, SF_PATTERN, false},
    {"contentSchema", KW_CONTENTSCHEMA, FROM19, V(CONTENT), K(SCHEMA), S(ONE),
        A(CONTENT), T(STRING), APPLY, SF_PATTERN, false},
    /* asserts nothing, and no view describes its flag (schema_dialect.h) */
    {"testOpaque", KW_TEST_OPAQUE, TEST_ONLY, V(VALIDATION), K(ANY), S(NONE),
        A(NONE), T(ALL), ASSERT, SF_TEST_OPAQUE, false},
};

static const struct {
	const char *name;
	const char *uri; /* canonical, no "#" */
} dialects[SCHEMA_D_COUNT] = {
    [SCHEMA_D_DRAFT04] = {"draft-04", "http://json-schema.org/draft-04/schema"},
    [SCHEMA_D_DRAFT06] = {"draft-06", "http://json-schema.org/draft-06/schema"},
    [SCHEMA_D_DRAFT07] = {"draft-07", "http://json-schema.org/draft-07/schema"},
    [SCHEMA_D_2019_09] = {"2019-09",
        "https://json-schema.org/draft/2019-09/schema"},
    [SCHEMA_D_2020_12] = {"2020-12",
        "https://json-schema.org/draft/2020-12/schema"},
    [SCHEMA_D_V1] = {"v1", "https://json-schema.org/v1"},
};

/* The vocabulary URIs: the dialect's prefix + name. */
static const char *const vocab_2019[SCHEMA_V_COUNT] = {
    [SCHEMA_V_CORE] = "core",
    [SCHEMA_V_APPLICATOR] = "applicator",
    [SCHEMA_V_VALIDATION] = "validation",
    [SCHEMA_V_METADATA] = "meta-data",
    [SCHEMA_V_FORMAT] = "format",
    [SCHEMA_V_CONTENT] = "content",
};
static const char *const vocab_2020[SCHEMA_V_COUNT] = {
    [SCHEMA_V_CORE] = "core",
    [SCHEMA_V_APPLICATOR] = "applicator",
    [SCHEMA_V_UNEVALUATED] = "unevaluated",
    [SCHEMA_V_VALIDATION] = "validation",
    [SCHEMA_V_METADATA] = "meta-data",
    [SCHEMA_V_FORMAT] = "format-annotation",
    [SCHEMA_V_CONTENT] = "content",
};

static bool
eq(const char *a, size_t alen, const char *b)
{
	return strlen(b) == alen && memcmp(a, b, alen) == 0;
}

const char *
schema_dialect_name(enum schema_dialect d)
{
	return dialects[d].name;
}

const char *
schema_dialect_uri(enum schema_dialect d)
{
	return dialects[d].uri;
}

int
schema_dialect_by_name(const char *name, size_t len, enum schema_dialect *out)
{
	int d;

	for (d = 0; d < SCHEMA_D_COUNT; d++)
		if (eq(name, len, dialects[d].name)) {
			*out = (enum schema_dialect)d;
			return 0;
		}
	return -1;
}

int
schema_dialect_by_uri(const char *uri, size_t len, enum schema_dialect *out)
{
	int d;

	/* "http://json-schema.org/draft-07/schema#" and without the "#" */
	if (len > 0 && uri[len - 1] == '#')
		len--;
	for (d = 0; d < SCHEMA_D_COUNT; d++) {
		const char *u = dialects[d].uri;

		/* the drafts published under http are often written https */
		if (eq(uri, len, u) ||
		    (strncmp(u, "http:", 5) == 0 && len > 6 &&
		        memcmp(uri, "https:", 6) == 0 &&
		        eq(uri + 6, len - 6, u + 5))) {
			*out = (enum schema_dialect)d;
			return 0;
		}
	}
	return -1;
}

int
schema_vocab_by_uri(
    enum schema_dialect d, const char *uri, size_t len, enum schema_vocab *out)
{
	const char *const *names;
	const char *prefix;
	size_t plen;
	int v;

	if (d == SCHEMA_D_2019_09) {
		names = vocab_2019;
		prefix = "https://json-schema.org/draft/2019-09/vocab/";
	} else if (d == SCHEMA_D_2020_12) {
		names = vocab_2020;
		prefix = "https://json-schema.org/draft/2020-12/vocab/";
	} else {
		return -1;
	}
	plen = strlen(prefix);
	if (len <= plen || memcmp(uri, prefix, plen) != 0)
		return -1;
	/* 2020-12's format-assertion vocabulary (validation section 7.2.2),
	 * declared true or false, is the format keyword asserted, as
	 * gpt.fcgi always asserts it */
	if (d == SCHEMA_D_2020_12 &&
	    eq(uri + plen, len - plen, "format-assertion")) {
		*out = SCHEMA_V_FORMAT;
		return 0;
	}
	for (v = 0; v < SCHEMA_V_COUNT; v++)
		if (names[v] != NULL && eq(uri + plen, len - plen, names[v])) {
			*out = (enum schema_vocab)v;
			return 0;
		}
	return -1;
}

/* The first row of each kw, found once (the table is static). */
static const struct schema_kw_info *
row_of(enum kw k)
{
	static const struct schema_kw_info *first[KW_COUNT];
	static bool ready;
	size_t i;

	if (!ready) {
		for (i = GPT_ARRAY_LEN(kw_rows); i-- > 0;)
			first[kw_rows[i].kw] = &kw_rows[i];
		ready = true;
	}
	return first[k] != NULL ? first[k] : &kw_rows[0];
}

const struct schema_kw_info *
schema_kw_info(enum kw k)
{
	return row_of(k);
}

size_t
schema_kw_rows(void)
{
	return GPT_ARRAY_LEN(kw_rows);
}

const struct schema_kw_info *
schema_kw_row(size_t i)
{
	return &kw_rows[i];
}

/* The row of name in exactly dialect d, or NULL. */
static const struct schema_kw_info *
row_in(enum schema_dialect d, const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < GPT_ARRAY_LEN(kw_rows); i++)
		if ((kw_rows[i].dialects >> d & 1u) &&
		    eq(name, len, kw_rows[i].name))
			return &kw_rows[i];
	return NULL;
}

/* May a form of an earlier dialect use r with its later meaning?  The
 * assertions, applicators and annotations outside the core vocabulary
 * mean the same whatever else the form holds; the core keywords ($id,
 * $anchor, $dynamicRef, ...) decide how the form is read and stay its
 * dialect's. */
static bool
borrowable(const struct schema_kw_info *r)
{
	return r->vocab != SCHEMA_V_CORE || r->role == SCHEMA_KR_ANNOTATE;
}

int
schema_kw_borrowed(enum schema_dialect d, const char *name, size_t len)
{
	const struct schema_kw_info *r;
	int later;

	if (row_in(d, name, len) != NULL)
		return -1;
	for (later = (int)d + 1; later < SCHEMA_D_COUNT; later++)
		if ((r = row_in((enum schema_dialect)later, name, len)) != NULL)
			return borrowable(r) ? later : -1;
	return -1;
}

const struct schema_kw_info *
schema_kw_find(enum schema_dialect d, const char *name, size_t len)
{
	const struct schema_kw_info *r = row_in(d, name, len);
	int later;

	if (r != NULL)
		return r;
	/* {"$schema": "...draft-07...", "const": 1}: the later meaning */
	if ((later = schema_kw_borrowed(d, name, len)) >= 0)
		return row_in((enum schema_dialect)later, name, len);
	return NULL;
}

bool
schema_kw_is_annotation(const char *name, size_t len)
{
	size_t i;
	bool found = false;

	if (len > 2 && memcmp(name, "x-", 2) == 0)
		return true;
	for (i = 0; i < GPT_ARRAY_LEN(kw_rows); i++)
		if (eq(name, len, kw_rows[i].name)) {
			if (kw_rows[i].role != SCHEMA_KR_ANNOTATE)
				return false;
			found = true;
		}
	return found;
}

const char *
schema_kw_name(enum kw k)
{
	return row_of(k)->name;
}

enum schema_kw_shape
schema_kw_shape(enum kw k)
{
	return row_of(k)->shape;
}

enum schema_vocab
schema_kw_vocab(enum kw k)
{
	return row_of(k)->vocab;
}

int
schema_kw_lookup(enum schema_dialect d, const char *name, size_t len)
{
	const struct schema_kw_info *r = schema_kw_find(d, name, len);

	return r != NULL ? (int)r->kw : -1;
}

int
schema_kw_dialect_of(const char *name, size_t len)
{
	size_t i;
	int d;

	for (i = 0; i < GPT_ARRAY_LEN(kw_rows); i++)
		if (eq(name, len, kw_rows[i].name))
			for (d = 0; d < SCHEMA_D_COUNT; d++)
				if (kw_rows[i].dialects >> d & 1u)
					return d;
	return -1;
}

/* Edit distance (Levenshtein, adjacent swaps count one) of a and b, or
 * 3 when it is more than 2; names longer than 40 bytes are never close. */
static unsigned
distance(const char *a, size_t la, const char *b, size_t lb)
{
	unsigned row[3][42];
	size_t i, j;

	if (la > 40 || lb > 40 || (la > lb ? la - lb : lb - la) > 2)
		return 3;
	for (j = 0; j <= lb; j++)
		row[0][j] = (unsigned)j;
	for (i = 1; i <= la; i++) {
		unsigned *cur = row[i % 3], *prev = row[(i - 1) % 3],
		         *prev2 = row[(i + 1) % 3];

		cur[0] = (unsigned)i;
		for (j = 1; j <= lb; j++) {
			unsigned c = prev[j - 1] + (a[i - 1] != b[j - 1]);

			if (prev[j] + 1 < c)
				c = prev[j] + 1;
			if (cur[j - 1] + 1 < c)
				c = cur[j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
			    a[i - 2] == b[j - 1] && prev2[j - 2] + 1 < c)
				c = prev2[j - 2] + 1;
			cur[j] = c;
		}
	}
	return row[la % 3][lb] > 2 ? 3 : row[la % 3][lb];
}

const char *
schema_name_suggest(
    const char *name, size_t len, const char *const *names, size_t n)
{
	const char *best = NULL;
	unsigned bd = 3, dist;
	size_t i;

	for (i = 0; i < n; i++) {
		dist = distance(name, len, names[i], strlen(names[i]));
		if (dist < bd) {
			bd = dist;
			best = names[i];
		}
	}
	/* a 1- or 2-letter name is only ever a typo of its case */
	if (best != NULL && len <= 2 && bd > 0)
		return NULL;
	return best;
}

const char *
schema_kw_suggest(enum schema_dialect d, const char *name, size_t len)
{
	const char *best = NULL;
	unsigned bd = 3, dist;
	size_t i;

	for (i = 0; i < GPT_ARRAY_LEN(kw_rows); i++) {
		if (!(kw_rows[i].dialects >> d & 1u))
			continue;
		dist = distance(
		    name, len, kw_rows[i].name, strlen(kw_rows[i].name));
		if (dist < bd) {
			bd = dist;
			best = kw_rows[i].name;
		}
	}
	/* "id" and "if" are one edit apart: a 1- or 2-letter name is only
	 * ever a typo of its case */
	if (best != NULL && len <= 2 && bd > 0)
		return NULL;
	return best;
}
