/*
 * schema_dialect.h: the keyword registry: the JSON Schema dialects and
 * every keyword they have, as data.
 *
 * A dialect is a row set of one table (schema_dialect.c).  Each row is
 * one keyword in some dialects, and says everything a module needs to
 * know about it without spelling its name:
 *   - its name and the dialects that have it;
 *   - the semantics the compiler gives it (enum kw: one value per
 *     distinct meaning, so draft-04's boolean exclusiveMaximum and
 *     draft-06's number are two);
 *   - its vocabulary (2019-09 on: a keyword of a vocabulary the
 *     meta-schema does not list is an annotation);
 *   - the shape of its value (enum schema_kw_value);
 *   - its child edges: where its value holds subschemas (enum
 *     schema_kw_shape, what the resource scan follows) and which
 *     instance they apply to (enum schema_kw_at, what the view's edge
 *     enumeration, schema_view_edges_next, tells the tools of each edge);
 *   - the instance types it constrains (SCHEMA_KT_*; other types pass
 *     it untouched);
 *   - whether it asserts, applies subschemas, annotates or structures
 *     the document (enum schema_kw_role);
 *   - the flag the compiler sets for it on a node (SF_*, schema_int.h);
 *   - whether its subschema is a test whose verdict is not the node's
 *     (not, if, contains).
 * Adding a keyword takes a row here, its reader in schema_compile.c and
 * its check in schema_validate.c (with schema_plan.c's shortcuts when it
 * has a flag of its own); the tools see it once schema_view.c describes
 * its flag, and until then a node that has it is opaque to them (the page
 * gives it a JSON editor, the reports say "cannot tell", --unroll and
 * --strict-openai refuse it).  No module but this one and the compiler's
 * readers (schema_compile.c, schema_res.c) spells a keyword name: they
 * ask the registry (schema_kw_name, schema_kw_find), which
 * tests/keywords.sh checks.
 */
#ifndef GPT_SCHEMA_DIALECT_H
#define GPT_SCHEMA_DIALECT_H

#include "base/common.h"

enum schema_dialect {
	SCHEMA_D_DRAFT04,
	SCHEMA_D_DRAFT06,
	SCHEMA_D_DRAFT07,
	SCHEMA_D_2019_09,
	SCHEMA_D_2020_12,
	SCHEMA_D_V1,
	SCHEMA_D_COUNT
};

#define SCHEMA_D_DEFAULT SCHEMA_D_2020_12

/* Vocabularies (2019-09 and later); earlier dialects have all of them. */
enum schema_vocab {
	SCHEMA_V_CORE,
	SCHEMA_V_APPLICATOR,
	SCHEMA_V_UNEVALUATED,
	SCHEMA_V_VALIDATION,
	SCHEMA_V_METADATA,
	SCHEMA_V_FORMAT,
	SCHEMA_V_CONTENT,
	SCHEMA_V_COUNT
};
#define SCHEMA_V_ALL ((1u << SCHEMA_V_COUNT) - 1)

enum kw {
	KW_TYPE,
	KW_ENUM,
	KW_CONST,
	KW_PROPERTIES,
	KW_REQUIRED,
	KW_ADDITIONALPROPERTIES,
	KW_PATTERNPROPERTIES,
	KW_PROPERTYNAMES,
	KW_MINPROPERTIES,
	KW_MAXPROPERTIES,
	KW_ITEMS,           /* 2020-12: the items after prefixItems */
	KW_ITEMS_OLD,       /* through 2019-09: a schema, or an array */
	KW_ADDITIONALITEMS, /* through 2019-09 */
	KW_PREFIXITEMS,
	KW_MINITEMS,
	KW_MAXITEMS,
	KW_UNIQUEITEMS,
	KW_CONTAINS,
	KW_MINCONTAINS,
	KW_MAXCONTAINS,
	KW_MINLENGTH,
	KW_MAXLENGTH,
	KW_PATTERN,
	KW_MINIMUM,
	KW_MAXIMUM,
	KW_EXCLUSIVEMINIMUM,
	KW_EXCLUSIVEMAXIMUM,
	KW_XMIN_BOOL, /* draft-04: exclusiveMinimum modifies minimum */
	KW_XMAX_BOOL, /* draft-04: exclusiveMaximum modifies maximum */
	KW_MULTIPLEOF,
	KW_ANYOF,
	KW_ALLOF,
	KW_ONEOF,
	KW_NOT,
	KW_IF,
	KW_THEN,
	KW_ELSE,
	KW_DEPENDENTREQUIRED,
	KW_DEPENDENTSCHEMAS,
	KW_DEPENDENCIES, /* draft-04 to 07: either of the two above */
	KW_UNEVALPROPS,
	KW_UNEVALITEMS,
	KW_REF,
	KW_DYNAMICREF,
	KW_DYNAMICANCHOR,
	KW_RECURSIVEREF,
	KW_RECURSIVEANCHOR,
	KW_ANCHOR,
	KW_DEFS,
	KW_DEFINITIONS,
	KW_SCHEMA,
	KW_ID,     /* $id */
	KW_ID_OLD, /* draft-04: id */
	KW_VOCABULARY,
	KW_COMMENT,
	KW_TITLE,
	KW_DESCRIPTION,
	KW_DEFAULT,
	KW_EXAMPLES,
	KW_DEPRECATED,
	KW_READONLY,
	KW_WRITEONLY,
	KW_FORMAT,
	KW_CONTENTENCODING,
	KW_CONTENTMEDIATYPE,
	KW_CONTENTSCHEMA,
	/* a made-up assertion that no tool describes, in no dialect but in
	 * test builds (-DGPT_TEST): tests/check_opaque.c checks that every
	 * tool treats what it does not know as opaque */
	KW_TEST_OPAQUE,
	KW_COUNT
};

/* Where a keyword's value holds subschemas (the resource scan's map). */
enum schema_kw_shape {
	SCHEMA_KS_NONE,        /* no subschema */
	SCHEMA_KS_ONE,         /* a schema */
	SCHEMA_KS_LIST,        /* an array of schemas */
	SCHEMA_KS_MAP,         /* an object of schemas */
	SCHEMA_KS_ONE_OR_LIST, /* items through 2019-09 */
	SCHEMA_KS_DEPS, /* dependencies: an object of schemas or arrays */
};

/* Which instance a keyword's subschemas apply to. */
enum schema_kw_at {
	SCHEMA_KA_NONE,    /* no subschema, or not applied ($defs) */
	SCHEMA_KA_SAME,    /* the instance itself: allOf, $ref, if */
	SCHEMA_KA_MEMBER,  /* an object's member values: properties */
	SCHEMA_KA_NAME,    /* an object's member names: propertyNames */
	SCHEMA_KA_ITEM,    /* an array's items: items, contains */
	SCHEMA_KA_CONTENT, /* a string's decoded content: contentSchema */
};

/* The shape of a keyword's value, as its reader requires it. */
enum schema_kw_value {
	SCHEMA_KV_ANY,        /* any JSON value: const, default */
	SCHEMA_KV_BOOL,       /* uniqueItems, readOnly */
	SCHEMA_KV_STRING,     /* title, format, contentEncoding */
	SCHEMA_KV_PATTERN,    /* an ECMA-262 regular expression */
	SCHEMA_KV_URI,        /* $schema */
	SCHEMA_KV_URI_REF,    /* $ref, $id */
	SCHEMA_KV_ANCHOR,     /* $anchor, $dynamicAnchor */
	SCHEMA_KV_TYPE,       /* a type name or an array of them */
	SCHEMA_KV_COUNT,      /* a non-negative integer: minLength */
	SCHEMA_KV_NUMBER,     /* minimum */
	SCHEMA_KV_POSITIVE,   /* a number above 0: multipleOf */
	SCHEMA_KV_ARRAY,      /* enum, examples */
	SCHEMA_KV_NAMES,      /* an array of distinct strings: required */
	SCHEMA_KV_NAMES_MAP,  /* an object of such arrays: dependentRequired */
	SCHEMA_KV_SCHEMA,     /* a schema */
	SCHEMA_KV_SCHEMAS,    /* a non-empty array of schemas */
	SCHEMA_KV_SCHEMA_MAP, /* an object of schemas */
	SCHEMA_KV_ITEMS_OLD,  /* a schema or an array of schemas */
	SCHEMA_KV_DEPS,       /* an object of schemas or name arrays */
	SCHEMA_KV_VOCABS,     /* an object of booleans: $vocabulary */
};

/* What a keyword does, in the vocabularies' own terms. */
enum schema_kw_role {
	SCHEMA_KR_ASSERT,   /* judges the instance: type, minLength */
	SCHEMA_KR_APPLY,    /* applies subschemas to it: properties, $ref */
	SCHEMA_KR_ANNOTATE, /* says something, judges nothing: title */
	SCHEMA_KR_CORE,     /* names or holds schemas: $id, $defs */
};

/* Bits of schema_kw_info.types: the instance types a keyword constrains;
 * the same bits as schema_view.h's SV_TY_* ("integer" is its own bit; a
 * keyword on numbers constrains integers too). */
enum {
	SCHEMA_KT_NULL = 1u << 0,
	SCHEMA_KT_BOOLEAN = 1u << 1,
	SCHEMA_KT_OBJECT = 1u << 2,
	SCHEMA_KT_ARRAY = 1u << 3,
	SCHEMA_KT_NUMBER = 1u << 4,
	SCHEMA_KT_STRING = 1u << 5,
	SCHEMA_KT_INTEGER = 1u << 6,
	SCHEMA_KT_NUMERIC = SCHEMA_KT_NUMBER | SCHEMA_KT_INTEGER,
	SCHEMA_KT_ALL = (1u << 7) - 1,
};

/* One row of the registry: one keyword in the dialects of `dialects`. */
struct schema_kw_info {
	const char *name; /* static */
	enum kw kw;
	unsigned dialects; /* bit d: dialect d has it */
	enum schema_vocab vocab;
	enum schema_kw_value value;
	enum schema_kw_shape shape; /* its child edges */
	enum schema_kw_at at;       /* what they apply to */
	unsigned types;             /* SCHEMA_KT_* it constrains; 0: none */
	enum schema_kw_role role;
	uint64_t flag; /* the SF_* bits it sets on a node; 0: none */
	/* its subschema's verdict is not the node's (not, if, contains):
	 * cutting that subschema to false may accept more */
	bool tests;
};

/* The dialect's name (draft-04 ... v1). */
const char *schema_dialect_name(enum schema_dialect d);

/* The dialect named name ("draft-07", "2020-12", ...): 0, or -1. */
int schema_dialect_by_name(
    const char *name, size_t len, enum schema_dialect *out) GPT_MUSTCHECK;

/* The dialect whose meta-schema is uri (len bytes; with or without the
 * trailing "#", http or https as each dialect publishes it): 0, or -1. */
int schema_dialect_by_uri(
    const char *uri, size_t len, enum schema_dialect *out) GPT_MUSTCHECK;

/* The meta-schema URI of d (without "#"). */
const char *schema_dialect_uri(enum schema_dialect d);

/* The vocabulary whose URI is uri in dialect d: 0, or -1 (unknown). */
int schema_vocab_by_uri(enum schema_dialect d, const char *uri, size_t len,
    enum schema_vocab *out) GPT_MUSTCHECK;

/* The name of keyword k (k < KW_COUNT). */
const char *schema_kw_name(enum kw k);

/* The dialect whose meaning schema_kw_find gives name in a form of
 * dialect d when d has no such keyword (the first later one that has
 * it), or -1 (d has it, or no dialect lends it). */
int schema_kw_borrowed(enum schema_dialect d, const char *name, size_t len);

/* The keyword spelled name (len bytes) in dialect d, or -1 when d has no
 * such keyword. */
int schema_kw_lookup(enum schema_dialect d, const char *name, size_t len);

/* The shape of k's value and its vocabulary. */
enum schema_kw_shape schema_kw_shape(enum kw k);
enum schema_vocab schema_kw_vocab(enum kw k);

/* The row of k (k < KW_COUNT; for a keyword with a row per vocabulary,
 * the first, which differs from the others only in vocab). */
const struct schema_kw_info *schema_kw_info(enum kw k);

/* The rows, for a module that goes through every keyword: i below
 * schema_kw_rows(). */
size_t schema_kw_rows(void);
const struct schema_kw_info *schema_kw_row(size_t i);

/* The row of the keyword spelled name (len bytes) in dialect d, or NULL
 * when d has no such keyword.  A keyword of a later dialect that d lacks
 * (const, contains, if, dependentRequired, prefixItems in a draft-04
 * form) has its later row, unless it is a core keyword ($anchor,
 * $dynamicRef): a constraint the author wrote is never absent. */
const struct schema_kw_info *schema_kw_find(
    enum schema_dialect d, const char *name, size_t len);

/* Is name (len bytes) an annotation in every dialect that has it: a
 * keyword whose role is SCHEMA_KR_ANNOTATE, or an "x-" name? */
bool schema_kw_is_annotation(const char *name, size_t len);

/* A keyword of d spelled within two edits of name (a typo such as
 * "minLenght"), or NULL. */
const char *schema_kw_suggest(
    enum schema_dialect d, const char *name, size_t len);

/* The one of the n names spelled within two edits of name (len bytes),
 * the closest, or NULL: for "did you mean" beyond keywords (type names,
 * address.conf keys). */
const char *schema_name_suggest(
    const char *name, size_t len, const char *const *names, size_t n);

/* The first dialect (at or after d's family) that has a keyword spelled
 * name, for a refusal's hint, or -1. */
int schema_kw_dialect_of(const char *name, size_t len);

#endif /* GPT_SCHEMA_DIALECT_H */
