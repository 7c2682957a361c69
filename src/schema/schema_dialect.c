/*
 * schema_dialect.c: the dialect table (schema_dialect.h).
 *
 * Owns only static data.  A name with no row for the dialect is not a
 * keyword of it: the compiler refuses it (fail closed), unless it is an
 * annotation the address declares or an x- name.
 */
#include <string.h>

#include "schema/schema_dialect.h"

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

#define V(x) SCHEMA_V_##x
#define S(x) SCHEMA_KS_##x

static const struct kw_row {
	const char *name;
	enum kw kw;
	unsigned dialects;
	enum schema_kw_shape shape;
	enum schema_vocab vocab;
} kw_rows[] = {
    {"type", KW_TYPE, ALL, S(NONE), V(VALIDATION)},
    {"enum", KW_ENUM, ALL, S(NONE), V(VALIDATION)},
    {"const", KW_CONST, FROM06, S(NONE), V(VALIDATION)},
    {"properties", KW_PROPERTIES, ALL, S(MAP), V(APPLICATOR)},
    {"required", KW_REQUIRED, ALL, S(NONE), V(VALIDATION)},
    {"additionalProperties", KW_ADDITIONALPROPERTIES, ALL, S(ONE),
        V(APPLICATOR)},
    {"patternProperties", KW_PATTERNPROPERTIES, ALL, S(MAP), V(APPLICATOR)},
    {"propertyNames", KW_PROPERTYNAMES, FROM06, S(ONE), V(APPLICATOR)},
    {"minProperties", KW_MINPROPERTIES, ALL, S(NONE), V(VALIDATION)},
    {"maxProperties", KW_MAXPROPERTIES, ALL, S(NONE), V(VALIDATION)},
    {"items", KW_ITEMS, FROM20, S(ONE), V(APPLICATOR)},
    {"items", KW_ITEMS_OLD, TO19, S(ONE_OR_LIST), V(APPLICATOR)},
    {"additionalItems", KW_ADDITIONALITEMS, TO19, S(ONE), V(APPLICATOR)},
    {"prefixItems", KW_PREFIXITEMS, FROM20, S(LIST), V(APPLICATOR)},
    {"minItems", KW_MINITEMS, ALL, S(NONE), V(VALIDATION)},
    {"maxItems", KW_MAXITEMS, ALL, S(NONE), V(VALIDATION)},
    {"uniqueItems", KW_UNIQUEITEMS, ALL, S(NONE), V(VALIDATION)},
    {"contains", KW_CONTAINS, FROM06, S(ONE), V(APPLICATOR)},
    {"minContains", KW_MINCONTAINS, FROM19, S(NONE), V(VALIDATION)},
    {"maxContains", KW_MAXCONTAINS, FROM19, S(NONE), V(VALIDATION)},
    {"minLength", KW_MINLENGTH, ALL, S(NONE), V(VALIDATION)},
    {"maxLength", KW_MAXLENGTH, ALL, S(NONE), V(VALIDATION)},
    {"pattern", KW_PATTERN, ALL, S(NONE), V(VALIDATION)},
    {"minimum", KW_MINIMUM, ALL, S(NONE), V(VALIDATION)},
    {"maximum", KW_MAXIMUM, ALL, S(NONE), V(VALIDATION)},
    {"exclusiveMinimum", KW_EXCLUSIVEMINIMUM, FROM06, S(NONE),
        V(VALIDATION)},
    {"exclusiveMaximum", KW_EXCLUSIVEMAXIMUM, FROM06, S(NONE),
        V(VALIDATION)},
    {"exclusiveMinimum", KW_XMIN_BOOL, D04, S(NONE), V(VALIDATION)},
    {"exclusiveMaximum", KW_XMAX_BOOL, D04, S(NONE), V(VALIDATION)},
    {"multipleOf", KW_MULTIPLEOF, ALL, S(NONE), V(VALIDATION)},
    {"anyOf", KW_ANYOF, ALL, S(LIST), V(APPLICATOR)},
    {"allOf", KW_ALLOF, ALL, S(LIST), V(APPLICATOR)},
    {"oneOf", KW_ONEOF, ALL, S(LIST), V(APPLICATOR)},
    {"not", KW_NOT, ALL, S(ONE), V(APPLICATOR)},
    {"if", KW_IF, FROM07, S(ONE), V(APPLICATOR)},
    {"then", KW_THEN, FROM07, S(ONE), V(APPLICATOR)},
    {"else", KW_ELSE, FROM07, S(ONE), V(APPLICATOR)},
    {"dependentRequired", KW_DEPENDENTREQUIRED, FROM19, S(NONE),
        V(VALIDATION)},
    {"dependentSchemas", KW_DEPENDENTSCHEMAS, FROM19, S(MAP), V(APPLICATOR)},
    {"dependencies", KW_DEPENDENCIES, TO07, S(DEPS), V(APPLICATOR)},
    /* 2019-09 puts the unevaluated keywords in the applicator vocabulary,
     * 2020-12 in a vocabulary of their own */
    {"unevaluatedProperties", KW_UNEVALPROPS, D19, S(ONE), V(APPLICATOR)},
    {"unevaluatedItems", KW_UNEVALITEMS, D19, S(ONE), V(APPLICATOR)},
    {"unevaluatedProperties", KW_UNEVALPROPS, FROM20, S(ONE),
        V(UNEVALUATED)},
    {"unevaluatedItems", KW_UNEVALITEMS, FROM20, S(ONE), V(UNEVALUATED)},
    {"$ref", KW_REF, ALL, S(NONE), V(CORE)},
    {"$dynamicRef", KW_DYNAMICREF, FROM20, S(NONE), V(CORE)},
    {"$dynamicAnchor", KW_DYNAMICANCHOR, FROM20, S(NONE), V(CORE)},
    {"$recursiveRef", KW_RECURSIVEREF, D19, S(NONE), V(CORE)},
    {"$recursiveAnchor", KW_RECURSIVEANCHOR, D19, S(NONE), V(CORE)},
    {"$anchor", KW_ANCHOR, FROM19, S(NONE), V(CORE)},
    {"$defs", KW_DEFS, FROM19, S(MAP), V(CORE)},
    /* kept by every meta-schema since, as a map of schemas */
    {"definitions", KW_DEFINITIONS, ALL, S(MAP), V(CORE)},
    {"$schema", KW_SCHEMA, ALL, S(NONE), V(CORE)},
    {"$id", KW_ID, FROM06, S(NONE), V(CORE)},
    {"id", KW_ID_OLD, D04, S(NONE), V(CORE)},
    {"$vocabulary", KW_VOCABULARY, FROM19, S(NONE), V(CORE)},
    /* annotations: harmless in every dialect */
    {"$comment", KW_COMMENT, ALL, S(NONE), V(CORE)},
    {"title", KW_TITLE, ALL, S(NONE), V(METADATA)},
    {"description", KW_DESCRIPTION, ALL, S(NONE), V(METADATA)},
    {"default", KW_DEFAULT, ALL, S(NONE), V(METADATA)},
    {"examples", KW_EXAMPLES, ALL, S(NONE), V(METADATA)},
    {"deprecated", KW_DEPRECATED, ALL, S(NONE), V(METADATA)},
    {"readOnly", KW_READONLY, ALL, S(NONE), V(METADATA)},
    {"writeOnly", KW_WRITEONLY, ALL, S(NONE), V(METADATA)},
    {"format", KW_FORMAT, ALL, S(NONE), V(FORMAT)},
    {"contentEncoding", KW_CONTENTENCODING, FROM07, S(NONE), V(CONTENT)},
    {"contentMediaType", KW_CONTENTMEDIATYPE, FROM07, S(NONE), V(CONTENT)},
    {"contentSchema", KW_CONTENTSCHEMA, FROM19, S(ONE), V(CONTENT)},
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
schema_vocab_by_uri(enum schema_dialect d, const char *uri, size_t len,
    enum schema_vocab *out)
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
	for (v = 0; v < SCHEMA_V_COUNT; v++)
		if (names[v] != NULL && eq(uri + plen, len - plen, names[v])) {
			*out = (enum schema_vocab)v;
			return 0;
		}
	return -1;
}

static const struct kw_row *
row_of(enum kw k)
{
	size_t i;

	for (i = 0; i < GPT_ARRAY_LEN(kw_rows); i++)
		if (kw_rows[i].kw == k)
			return &kw_rows[i];
	return &kw_rows[0]; /* not reached: every kw has a row */
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
	size_t i;

	for (i = 0; i < GPT_ARRAY_LEN(kw_rows); i++)
		if ((kw_rows[i].dialects >> d & 1u) &&
		    eq(name, len, kw_rows[i].name))
			return (int)kw_rows[i].kw;
	return -1;
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
schema_kw_suggest(enum schema_dialect d, const char *name, size_t len)
{
	const char *best = NULL;
	unsigned bd = 3, dist;
	size_t i;

	for (i = 0; i < GPT_ARRAY_LEN(kw_rows); i++) {
		if (!(kw_rows[i].dialects >> d & 1u))
			continue;
		dist = distance(name, len, kw_rows[i].name,
		    strlen(kw_rows[i].name));
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
