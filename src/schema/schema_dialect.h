/*
 * schema_dialect.h: the JSON Schema dialects and their keywords, as data.
 *
 * A dialect is a row set of one table (schema_dialect.c): each row names a
 * keyword, the dialects that have it, the semantics the compiler gives it
 * (enum kw: one value per distinct meaning, so draft-04's boolean
 * exclusiveMaximum and draft-06's number are two), the shape of its value
 * where it holds subschemas (what the resource scan walks), and the
 * vocabulary it belongs to (2019-09 on: a keyword of a vocabulary the
 * meta-schema does not list is an annotation).  Adding a keyword is one
 * row here and its reader in schema_compile.c; nothing else lists names.
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
	KW_ITEMS,	   /* 2020-12: the items after prefixItems */
	KW_ITEMS_OLD,	   /* through 2019-09: a schema, or an array */
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
	KW_ID,	   /* $id */
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
	KW_COUNT
};

/* Where a keyword's value holds subschemas (the resource scan's map). */
enum schema_kw_shape {
	SCHEMA_KS_NONE,	  /* no subschema */
	SCHEMA_KS_ONE,	  /* a schema */
	SCHEMA_KS_LIST,	  /* an array of schemas */
	SCHEMA_KS_MAP,	  /* an object of schemas */
	SCHEMA_KS_ONE_OR_LIST, /* items through 2019-09 */
	SCHEMA_KS_DEPS,	  /* dependencies: an object of schemas or arrays */
};

/* The dialect's name (draft-04 ... v1). */
const char *schema_dialect_name(enum schema_dialect d);

/* The dialect named name ("draft-07", "2020-12", ...): 0, or -1. */
int schema_dialect_by_name(const char *name, size_t len,
    enum schema_dialect *out) GPT_MUSTCHECK;

/* The dialect whose meta-schema is uri (len bytes; with or without the
 * trailing "#", http or https as each dialect publishes it): 0, or -1. */
int schema_dialect_by_uri(const char *uri, size_t len,
    enum schema_dialect *out) GPT_MUSTCHECK;

/* The meta-schema URI of d (without "#"). */
const char *schema_dialect_uri(enum schema_dialect d);

/* The vocabulary whose URI is uri in dialect d: 0, or -1 (unknown). */
int schema_vocab_by_uri(enum schema_dialect d, const char *uri, size_t len,
    enum schema_vocab *out) GPT_MUSTCHECK;

/* The name of keyword k (k < KW_COUNT). */
const char *schema_kw_name(enum kw k);

/* The keyword spelled name (len bytes) in dialect d, or -1 when d has no
 * such keyword. */
int schema_kw_lookup(enum schema_dialect d, const char *name, size_t len);

/* The shape of k's value and its vocabulary. */
enum schema_kw_shape schema_kw_shape(enum kw k);
enum schema_vocab schema_kw_vocab(enum kw k);

/* A keyword of d spelled within two edits of name (a typo such as
 * "minLenght"), or NULL. */
const char *schema_kw_suggest(enum schema_dialect d, const char *name,
    size_t len);

/* The first dialect (at or after d's family) that has a keyword spelled
 * name, for a refusal's hint, or -1. */
int schema_kw_dialect_of(const char *name, size_t len);

#endif /* GPT_SCHEMA_DIALECT_H */
