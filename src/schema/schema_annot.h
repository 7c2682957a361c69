/*
 * schema_annot.h: the annotation keywords of real tools (VS Code's
 * markdownDescription, OpenAPI's example, ...), from the data table
 * schemas/annotations.json embedded at build time.
 *
 * Each keyword there constrains nothing by its tool's documentation, so
 * a form that writes one loads as if the address had declared it with
 * `annotations =`.  The table is read once, at the first lookup, into
 * memory of its own (never freed: the process's); a table that does not
 * parse names nothing (every such keyword then refuses, fail closed).
 */
#ifndef GPT_SCHEMA_ANNOT_H
#define GPT_SCHEMA_ANNOT_H

#include "base/common.h"

/* The embedded text of schemas/annotations.json (src/annotations_table.c,
 * generated). */
extern const char schema_annot_text[];
extern const size_t schema_annot_len;

/* The tool whose annotation keyword name (len bytes) is ("VS Code"), or
 * NULL when the table has no such keyword.  Static. */
const char *schema_annot_tool(const char *name, size_t len);

/* The i-th keyword of the table and its tool (0-based): 0, or -1 past the
 * last. */
int schema_annot_at(size_t i, const char **keyword, const char **tool);

#endif /* GPT_SCHEMA_ANNOT_H */
