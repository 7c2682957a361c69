/*
 * schema_dialect.h: the keywords a form may use, as data.
 *
 * One row per keyword name: the enum the compiler dispatches on and the
 * name it is spelled with.  A keyword is added by one row here and its
 * reader in schema_compile.c; nothing else lists keyword names.
 */
#ifndef GPT_SCHEMA_DIALECT_H
#define GPT_SCHEMA_DIALECT_H

#include "common.h"

#define SCHEMA_2020_12 "https://json-schema.org/draft/2020-12/schema"

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
	KW_ITEMS,
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
	KW_MULTIPLEOF,
	KW_ANYOF,
	KW_ALLOF,
	KW_ONEOF,
	KW_NOT,
	KW_IF,
	KW_THEN,
	KW_ELSE,
	KW_DEPENDENTREQUIRED,
	KW_REF,
	KW_DEFS,
	KW_SCHEMA,
	KW_ID,
	KW_COMMENT,
	KW_TITLE,
	KW_DESCRIPTION,
	KW_DEFAULT,
	KW_EXAMPLES,
	KW_DEPRECATED,
	KW_READONLY,
	KW_WRITEONLY,
	KW_FORMAT,
	KW_COUNT
};


/* The name of keyword k (k < KW_COUNT). */
const char *schema_kw_name(enum kw k);

/* The keyword spelled name (len bytes), or -1 when the vocabulary has no
 * such name. */
int schema_kw_lookup(const char *name, size_t len);

#endif /* GPT_SCHEMA_DIALECT_H */
