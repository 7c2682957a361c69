/*
 * schema_annot.c: the annotation keywords of real tools (schema_annot.h).
 *
 * Owns the parsed table: one arena for the process, filled at the first
 * lookup (a form's load, never a request) and kept.
 */
#include <string.h>

#include "base/arena.h"
#include "parser/json.h"
#include "schema/schema_annot.h"

#define ANNOT_ARENA_MAX ((size_t)1 << 20)
#define ANNOT_MAX 256

static struct arena annot_arena;
static bool annot_tried;
static size_t annot_n;
static struct {
	const char *keyword, *tool; /* borrowed from annot_arena */
	size_t len;
} annot[ANNOT_MAX];

/* A string member of row as a NUL-terminated copy, or NULL. */
static const char *
annot_str(const struct json_value *row, const char *name)
{
	const struct json_value *v = json_object_get(row, name, strlen(name));

	if (v == NULL || v->type != JSON_T_STRING || v->u.str.len == 0)
		return NULL;
	return arena_strndup(&annot_arena, v->u.str.ptr, v->u.str.len);
}

static void
annot_load(void)
{
	const struct json_value *doc, *rows;
	struct json_err err;
	size_t i;

	annot_tried = true;
	arena_init(&annot_arena, ANNOT_ARENA_MAX);
	if (json_parse(schema_annot_text, schema_annot_len, &annot_arena, 0,
	        &doc, &err) != JSON_OK ||
	    (rows = json_object_get(doc, "annotations", 11)) == NULL ||
	    rows->type != JSON_T_ARRAY)
		return;
	for (i = 0; i < rows->u.arr.count && annot_n < ANNOT_MAX; i++) {
		const struct json_value *row = &rows->u.arr.items[i];
		const char *k, *t;

		if (row->type != JSON_T_OBJECT ||
		    (k = annot_str(row, "keyword")) == NULL ||
		    (t = annot_str(row, "tool")) == NULL)
			continue;
		annot[annot_n].keyword = k;
		annot[annot_n].tool = t;
		annot[annot_n].len = strlen(k);
		annot_n++;
	}
}

const char *
schema_annot_tool(const char *name, size_t len)
{
	size_t i;

	if (!annot_tried)
		annot_load();
	for (i = 0; i < annot_n; i++)
		if (annot[i].len == len &&
		    memcmp(annot[i].keyword, name, len) == 0)
			return annot[i].tool;
	return NULL;
}

int
schema_annot_at(size_t i, const char **keyword, const char **tool)
{
	if (!annot_tried)
		annot_load();
	if (i >= annot_n)
		return -1;
	*keyword = annot[i].keyword;
	*tool = annot[i].tool;
	return 0;
}
