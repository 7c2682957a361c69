/*
 * schema_dialect.c: the keyword table (schema_dialect.h).
 *
 * Owns only static data.  A name not in the table is not a keyword: the
 * compiler refuses it (fail closed).
 */
#include <string.h>

#include "schema_dialect.h"

/* The whole vocabulary: a name not in this table refuses the form. */
static const char *const kw_names[KW_COUNT] = {
    [KW_TYPE] = "type",
    [KW_ENUM] = "enum",
    [KW_CONST] = "const",
    [KW_PROPERTIES] = "properties",
    [KW_REQUIRED] = "required",
    [KW_ADDITIONALPROPERTIES] = "additionalProperties",
    [KW_PATTERNPROPERTIES] = "patternProperties",
    [KW_PROPERTYNAMES] = "propertyNames",
    [KW_MINPROPERTIES] = "minProperties",
    [KW_MAXPROPERTIES] = "maxProperties",
    [KW_ITEMS] = "items",
    [KW_PREFIXITEMS] = "prefixItems",
    [KW_MINITEMS] = "minItems",
    [KW_MAXITEMS] = "maxItems",
    [KW_UNIQUEITEMS] = "uniqueItems",
    [KW_CONTAINS] = "contains",
    [KW_MINCONTAINS] = "minContains",
    [KW_MAXCONTAINS] = "maxContains",
    [KW_MINLENGTH] = "minLength",
    [KW_MAXLENGTH] = "maxLength",
    [KW_PATTERN] = "pattern",
    [KW_MINIMUM] = "minimum",
    [KW_MAXIMUM] = "maximum",
    [KW_EXCLUSIVEMINIMUM] = "exclusiveMinimum",
    [KW_EXCLUSIVEMAXIMUM] = "exclusiveMaximum",
    [KW_MULTIPLEOF] = "multipleOf",
    [KW_ANYOF] = "anyOf",
    [KW_ALLOF] = "allOf",
    [KW_ONEOF] = "oneOf",
    [KW_NOT] = "not",
    [KW_IF] = "if",
    [KW_THEN] = "then",
    [KW_ELSE] = "else",
    [KW_DEPENDENTREQUIRED] = "dependentRequired",
    [KW_REF] = "$ref",
    [KW_DEFS] = "$defs",
    [KW_SCHEMA] = "$schema",
    [KW_ID] = "$id",
    [KW_COMMENT] = "$comment",
    [KW_TITLE] = "title",
    [KW_DESCRIPTION] = "description",
    [KW_DEFAULT] = "default",
    [KW_EXAMPLES] = "examples",
    [KW_DEPRECATED] = "deprecated",
    [KW_READONLY] = "readOnly",
    [KW_WRITEONLY] = "writeOnly",
    [KW_FORMAT] = "format",
};

const char *
schema_kw_name(enum kw k)
{
	return kw_names[k];
}

int
schema_kw_lookup(const char *name, size_t len)
{
	int i;

	for (i = 0; i < KW_COUNT; i++)
		if (strlen(kw_names[i]) == len &&
		    memcmp(kw_names[i], name, len) == 0)
			return i;
	return -1;
}
