/*
 * cli_openapi.c: the form of one OpenAPI 3.x operation's JSON request
 * body, for `gpt.fcgi --init DIR --from-openapi FILE OPERATION-ID`
 * (cli_init.c writes the address).
 *
 * Only what the body reaches is carried: its schema, and every schema of
 * components/schemas that it refers to, directly or through another,
 * moved under the form's own definitions ($defs; definitions for 3.0)
 * with each reference rewritten to match.  The rest of the document
 * (info, paths, responses, security) stays out of the form: a form is
 * served to every actor, and a `refs` directory holding the whole
 * document would serve all of it.
 *
 * OpenAPI 3.1 schemas are 2020-12 (or the document's jsonSchemaDialect);
 * 3.0's are a draft-04 variant, so a 3.0 form is written as draft-04,
 * with 3.0's `nullable: true` turned into "null" among the types (the one
 * keyword of 3.0 that changes what is accepted).  OpenAPI's own keywords
 * that judge nothing (discriminator, xml, externalDocs, example) are
 * declared as the address's annotations.
 *
 * Refuses, with the reason on stderr: a file that is not JSON, not an
 * OpenAPI 3.x document, no operation with that id, no request body, a
 * body with no JSON media type or no schema, a reference outside the
 * document's components/schemas (another document, another section) or
 * to a schema the document does not have.  Bounded: the parser's depth,
 * OPENAPI_COMPONENTS_MAX schemas carried.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "base/buf.h"
#include "cli/cli.h"
#include "cli/cli_form.h"
#include "parser/json.h"
#include "parser/json_out.h"
#include "schema/schema_dialect.h"

#define OPENAPI_COMPONENTS_MAX 4096
/* operations named in the refusal for an unknown id */
#define OPENAPI_NAMED_MAX 20

static const char openapi_prefix[] = "#/components/schemas/";

/* OpenAPI's keywords of a schema object that judge nothing. */
static const char *const openapi_annotations[] = {
    "discriminator", "xml", "externalDocs", "example"};

struct openapi {
	struct arena *a;
	const struct json_value *schemas; /* components/schemas, or NULL */
	enum schema_dialect d;
	bool v30;         /* OpenAPI 3.0: nullable */
	const char *defs; /* the definitions keyword written */
	/* the components carried, in the order first reached */
	struct json_string names[OPENAPI_COMPONENTS_MAX];
	size_t nnames;
	bool ann_seen[GPT_ARRAY_LEN(openapi_annotations)];
	const char *fail; /* set once: the walk's refusal (in a) */
	struct json_out w;
	struct buf scratch; /* one reference's pointer */
};

static bool
openapi_str_is(const struct json_value *v, const char *s)
{
	return v != NULL && v->type == JSON_T_STRING &&
	       v->u.str.len == strlen(s) &&
	       memcmp(v->u.str.ptr, s, v->u.str.len) == 0;
}

static const struct json_value *
openapi_get(const struct json_value *obj, const char *key)
{
	return json_object_get(obj, key, strlen(key));
}

static void GPT_PRINTF(2, 3)
    openapi_fail(struct openapi *o, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	if (o->fail != NULL)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	o->fail = arena_strndup(o->a, msg, strlen(msg));
	if (o->fail == NULL)
		o->fail = "out of memory";
}

/* The component a reference names: its first token after the prefix,
 * unescaped (~1 is '/', ~0 is '~').  Recorded once; -1 on a refusal. */
static int
openapi_reach(struct openapi *o, const char *p, size_t n)
{
	char *name, *q;
	size_t i, len;

	for (len = 0; len < n && p[len] != '/'; len++)
		;
	if ((name = arena_alloc(o->a, len + 1)) == NULL) {
		openapi_fail(o, "out of memory");
		return -1;
	}
	for (i = 0, q = name; i < len; i++) {
		if (p[i] == '~' && i + 1 < len &&
		    (p[i + 1] == '0' || p[i + 1] == '1')) {
			*q++ = p[i + 1] == '0' ? '~' : '/';
			i++;
		} else
			*q++ = p[i];
	}
	*q = '\0';
	len = (size_t)(q - name);
	if (json_object_get(o->schemas, name, len) == NULL) {
		openapi_fail(o,
		    "the body refers to %s%.*s, which the document's "
		    "components/schemas does not have",
		    openapi_prefix, (int)len, name);
		return -1;
	}
	for (i = 0; i < o->nnames; i++)
		if (o->names[i].len == len &&
		    memcmp(o->names[i].ptr, name, len) == 0)
			return 0;
	if (o->nnames >= OPENAPI_COMPONENTS_MAX) {
		openapi_fail(o, "the body reaches more than %d schemas",
		    OPENAPI_COMPONENTS_MAX);
		return -1;
	}
	o->names[o->nnames].ptr = name;
	o->names[o->nnames].len = len;
	o->nnames++;
	return 0;
}

/* A $ref's value, rewritten into the form's definitions. */
static void
openapi_ref(struct openapi *o, const struct json_value *v)
{
	size_t np = sizeof(openapi_prefix) - 1;
	const char *p = v->u.str.ptr;
	size_t n = v->u.str.len;

	if (n <= np || memcmp(p, openapi_prefix, np) != 0) {
		/* hits on "other.json#/Pet", "#/components/requestBodies/X" */
		openapi_fail(o,
		    "the body refers to \"%.*s\", outside this document's "
		    "components/schemas: make the document self-contained "
		    "first",
		    (int)(n > 200 ? 200 : n), p);
		return;
	}
	if (openapi_reach(o, p + np, n - np) == -1)
		return;
	/* "#/$defs/" then the rest of the pointer as written; the rest is
	 * written as a JSON string whose opening quote is then dropped */
	json_out_puts(&o->w, "\"#/");
	json_out_puts(&o->w, o->defs);
	json_out_puts(&o->w, "/");
	buf_reset(&o->scratch);
	if (json_write_string(&o->scratch, p + np, n - np) == -1)
		o->w.nomem = true;
	else
		json_out_put(
		    &o->w, buf_ptr(&o->scratch) + 1, buf_len(&o->scratch) - 1);
}

static void openapi_schema(
    struct openapi *o, const struct json_value *v, bool root);

/* A keyword's value holding subschemas (the registry's shape). */
static void
openapi_children(
    struct openapi *o, enum schema_kw_shape sh, const struct json_value *v)
{
	size_t i;

	if ((sh == SCHEMA_KS_LIST || sh == SCHEMA_KS_ONE_OR_LIST) &&
	    v->type == JSON_T_ARRAY) {
		json_out_puts(&o->w, "[");
		for (i = 0; i < v->u.arr.count; i++) {
			if (i > 0)
				json_out_puts(&o->w, ",");
			openapi_schema(o, &v->u.arr.items[i], false);
		}
		json_out_puts(&o->w, "]");
	} else if ((sh == SCHEMA_KS_MAP || sh == SCHEMA_KS_DEPS) &&
	           v->type == JSON_T_OBJECT) {
		json_out_puts(&o->w, "{");
		for (i = 0; i < v->u.obj.count; i++) {
			const struct json_member *m = &v->u.obj.members[i];

			if (i > 0)
				json_out_puts(&o->w, ",");
			json_out_key(&o->w, &m->key);
			/* dependencies: an array of names is data */
			if (m->value.type == JSON_T_ARRAY)
				json_out_value(&o->w, &m->value);
			else
				openapi_schema(o, &m->value, false);
		}
		json_out_puts(&o->w, "}");
	} else if (sh == SCHEMA_KS_ONE || sh == SCHEMA_KS_ONE_OR_LIST)
		openapi_schema(o, v, false);
	else
		json_out_value(&o->w, v);
}

/* 3.0's nullable: the type with "null" added. */
static void
openapi_nullable_type(struct openapi *o, const struct json_value *t)
{
	size_t i;
	bool has = false;

	json_out_puts(&o->w, "[");
	if (t->type == JSON_T_STRING) {
		json_out_value(&o->w, t);
		has = openapi_str_is(t, "null");
	} else
		for (i = 0; i < t->u.arr.count; i++) {
			if (i > 0)
				json_out_puts(&o->w, ",");
			json_out_value(&o->w, &t->u.arr.items[i]);
			has |= openapi_str_is(&t->u.arr.items[i], "null");
		}
	if (!has)
		json_out_puts(&o->w, ",\"null\"");
	json_out_puts(&o->w, "]");
}

/* The root's $schema when it has none, and the components it reaches
 * (the list grows as each is written: a loop over it, not a recursion). */
static void
openapi_root_tail(struct openapi *o, const struct json_value *v, bool first)
{
	const char *kw = schema_kw_name(KW_SCHEMA), *uri;
	size_t i;

	if (json_object_get(v, kw, strlen(kw)) == NULL) {
		uri = schema_dialect_uri(o->d);
		json_out_puts(&o->w, first ? "" : ",");
		json_out_string(&o->w, kw, strlen(kw));
		json_out_puts(&o->w, ":");
		json_out_string(&o->w, uri, strlen(uri));
		first = false;
	}
	if (o->nnames == 0)
		return;
	json_out_puts(&o->w, first ? "" : ",");
	json_out_string(&o->w, o->defs, strlen(o->defs));
	json_out_puts(&o->w, ":{");
	for (i = 0; i < o->nnames && o->fail == NULL; i++) {
		if (i > 0)
			json_out_puts(&o->w, ",");
		json_out_key(&o->w, &o->names[i]);
		openapi_schema(o,
		    json_object_get(
		        o->schemas, o->names[i].ptr, o->names[i].len),
		    false);
	}
	json_out_puts(&o->w, "}");
}

/* One schema, written with its references rewritten; the root also gets
 * its $schema and definitions. */
static void
openapi_schema(struct openapi *o, const struct json_value *v, bool root)
{
	const struct json_value *nullable = NULL, *type;
	const char *type_kw = schema_kw_name(KW_TYPE);
	bool first = true;
	size_t i, k;

	if (v->type != JSON_T_OBJECT) {
		json_out_value(&o->w, v);
		return;
	}
	if (o->v30)
		nullable = openapi_get(v, "nullable"); /* not-a-keyword */
	type = openapi_get(v, type_kw);
	json_out_puts(&o->w, "{");
	for (i = 0; i < v->u.obj.count; i++) {
		const struct json_member *m = &v->u.obj.members[i];
		const struct schema_kw_info *row =
		    schema_kw_find(o->d, m->key.ptr, m->key.len);

		if (nullable == &m->value)
			continue;
		if (!first)
			json_out_puts(&o->w, ",");
		first = false;
		json_out_key(&o->w, &m->key);
		if (row == NULL) {
			for (k = 0; k < GPT_ARRAY_LEN(openapi_annotations); k++)
				if (m->key.len ==
				        strlen(openapi_annotations[k]) &&
				    memcmp(m->key.ptr, openapi_annotations[k],
				        m->key.len) == 0)
					o->ann_seen[k] = true;
			json_out_value(&o->w, &m->value);
		} else if (row->kw == KW_REF && m->value.type == JSON_T_STRING)
			openapi_ref(o, &m->value);
		else if (&m->value == type && nullable != NULL &&
		         nullable->type == JSON_T_TRUE &&
		         (type->type == JSON_T_STRING ||
		             type->type == JSON_T_ARRAY))
			openapi_nullable_type(o, type);
		else
			openapi_children(o, row->shape, &m->value);
	}
	if (root)
		openapi_root_tail(o, v, first);
	json_out_puts(&o->w, "}");
}

/* The operation with operationId id, and its path and method. */
static const struct json_value *
openapi_operation(const struct json_value *doc, const char *id,
    struct buf *known, size_t *nknown)
{
	static const char *const methods[] = {"get", "put", "post", "delete",
	    "options", "head", "patch", "trace"};
	const struct json_value *paths = openapi_get(doc, "paths"),
	                        *found = NULL;
	size_t i, k;

	if (paths == NULL || paths->type != JSON_T_OBJECT)
		return NULL;
	for (i = 0; i < paths->u.obj.count; i++) {
		const struct json_value *item = &paths->u.obj.members[i].value;

		for (k = 0; k < GPT_ARRAY_LEN(methods); k++) {
			const struct json_value *op =
			    openapi_get(item, methods[k]);
			const struct json_value *oid =
			    openapi_get(op, "operationId");

			if (oid == NULL || oid->type != JSON_T_STRING)
				continue;
			if (openapi_str_is(oid, id) && found == NULL)
				found = op;
			/* a list cut short by memory only names fewer */
			if (*nknown < OPENAPI_NAMED_MAX &&
			    buf_printf(known, "%s%.*s", *nknown > 0 ? ", " : "",
			        (int)oid->u.str.len, oid->u.str.ptr) == -1)
				buf_reset(known);
			(*nknown)++;
		}
	}
	return found;
}

/* requestBody, through a reference to components/requestBodies. */
static const struct json_value *
openapi_body(
    const struct json_value *doc, const struct json_value *op, const char **why)
{
	static const char rb[] = "#/components/requestBodies/";
	const struct json_value *b = openapi_get(op, "requestBody"), *r;
	const struct json_value *bodies =
	    openapi_get(openapi_get(doc, "components"), "requestBodies");
	int hops;

	for (hops = 0; b != NULL && hops < 8; hops++) {
		r = openapi_get(b, schema_kw_name(KW_REF));
		if (r == NULL)
			return b;
		if (r->type != JSON_T_STRING ||
		    r->u.str.len <= sizeof(rb) - 1 ||
		    memcmp(r->u.str.ptr, rb, sizeof(rb) - 1) != 0) {
			*why = "its requestBody refers outside "
			       "components/requestBodies";
			return NULL;
		}
		b = json_object_get(bodies, r->u.str.ptr + sizeof(rb) - 1,
		    r->u.str.len - (sizeof(rb) - 1));
	}
	*why = "it has no request body";
	return NULL;
}

/* application/json, application/json; charset=..., application/x+json */
static bool
openapi_json_type(const struct json_string *k)
{
	size_t n = k->len, i;
	const char *p = k->ptr;

	for (i = 0; i < n; i++)
		if (p[i] == ';' || p[i] == ' ')
			break;
	n = i;
	if (n == 16 && strncmp(p, "application/json", 16) == 0)
		return true;
	return n > 17 && strncmp(p, "application/", 12) == 0 &&
	       strncmp(p + n - 5, "+json", 5) == 0;
}

int
cli_openapi_form(const char *path, const char *id, struct arena *a,
    struct buf *text, struct buf *form, struct buf *annotations)
{
	const struct json_value *doc, *ver, *op, *body, *content, *media = NULL,
	                                                          *schema;
	struct openapi *o = NULL;
	struct buf known;
	const char *why = NULL;
	size_t nknown = 0, i;
	int rc = -1;

	buf_init(&known, 4096);
	if (cli_form_read_json(path, text, a, &doc, "the OpenAPI document") !=
	    0) {
		fprintf(stderr, "gpt.fcgi: --from-openapi reads JSON (convert "
		                "a YAML document first, e.g. yq -o=json)\n");
		goto out;
	}
	ver = openapi_get(doc, "openapi");
	if (ver == NULL || ver->type != JSON_T_STRING || ver->u.str.len < 2 ||
	    memcmp(ver->u.str.ptr, "3.", 2) != 0) {
		fprintf(stderr,
		    "gpt.fcgi: %s: not an OpenAPI 3.x document (its "
		    "\"openapi\" "
		    "member must be \"3.0.x\" or \"3.1.x\")\n",
		    path);
		goto out;
	}
	if ((op = openapi_operation(doc, id, &known, &nknown)) == NULL) {
		fprintf(stderr,
		    "gpt.fcgi: %s: no operation with operationId \"%s\"; "
		    "the document has %zu: %s%s\n",
		    path, id, nknown, nknown > 0 ? buf_ptr(&known) : "(none)",
		    nknown > OPENAPI_NAMED_MAX ? ", ..." : "");
		goto out;
	}
	if ((body = openapi_body(doc, op, &why)) == NULL) {
		fprintf(stderr,
		    "gpt.fcgi: operation \"%s\": %s: an address "
		    "takes a JSON body\n",
		    id, why);
		goto out;
	}
	content = openapi_get(body, "content");
	buf_reset(&known);
	for (i = 0; content != NULL && content->type == JSON_T_OBJECT &&
	            i < content->u.obj.count;
	     i++) {
		const struct json_member *m = &content->u.obj.members[i];

		if (media == NULL && openapi_json_type(&m->key))
			media = &m->value;
		if (i < OPENAPI_NAMED_MAX &&
		    buf_printf(&known, "%s%.*s", i > 0 ? ", " : "",
		        (int)m->key.len, m->key.ptr) == -1)
			break;
	}
	if (media == NULL) {
		fprintf(stderr,
		    "gpt.fcgi: operation \"%s\": its request body is not JSON "
		    "(media types: %s): an address takes application/json\n",
		    id, buf_len(&known) > 0 ? buf_ptr(&known) : "none");
		goto out;
	}
	schema = openapi_get(media, "schema");
	if (schema == NULL || schema->type != JSON_T_OBJECT) {
		fprintf(stderr,
		    "gpt.fcgi: operation \"%s\": its JSON request "
		    "body has no schema object\n",
		    id);
		goto out;
	}
	if ((o = calloc(1, sizeof(*o))) == NULL) {
		fprintf(stderr, "gpt.fcgi: out of memory\n");
		goto out;
	}
	o->a = a;
	o->w.out = form;
	buf_init(&o->scratch, CLI_INPUT_MAX);
	o->schemas = openapi_get(openapi_get(doc, "components"), "schemas");
	o->v30 = ver->u.str.len >= 3 && ver->u.str.ptr[2] == '0';
	o->d = o->v30 ? SCHEMA_D_DRAFT04 : SCHEMA_D_2020_12;
	if (!o->v30) {
		const struct json_value *jd =
		    openapi_get(doc, "jsonSchemaDialect");
		enum schema_dialect d;

		if (jd != NULL && jd->type == JSON_T_STRING &&
		    schema_dialect_by_uri(jd->u.str.ptr, jd->u.str.len, &d) ==
		        0)
			o->d = d;
	}
	o->defs =
	    schema_kw_name(o->d < SCHEMA_D_2019_09 ? KW_DEFINITIONS : KW_DEFS);
	if (json_object_get(schema, o->defs, strlen(o->defs)) != NULL) {
		fprintf(stderr,
		    "gpt.fcgi: operation \"%s\": its body schema "
		    "has its own %s, which the components would "
		    "join: not supported\n",
		    id, o->defs);
		goto out;
	}

	/* {"p": summary and description, "m": [], "s": the body} */
	json_out_puts(&o->w, "{\"p\":");
	{
		/* the operation's members, not the schema's keywords */
		const struct json_value *sum = openapi_get(op, "summary");
		const struct json_value *desc =
		    openapi_get(op, "description"); /* not-a-keyword */
		struct buf p;
		struct json_out pw = {&p, false};

		buf_init(&p, CLI_INPUT_MAX);
		if (sum != NULL && sum->type == JSON_T_STRING) {
			json_out_put(&pw, sum->u.str.ptr, sum->u.str.len);
			if (sum->u.str.len > 0 &&
			    sum->u.str.ptr[sum->u.str.len - 1] != '.')
				json_out_puts(&pw, ".");
		}
		if (desc != NULL && desc->type == JSON_T_STRING) {
			if (buf_len(&p) > 0)
				json_out_puts(&pw, "\n\n");
			json_out_put(&pw, desc->u.str.ptr, desc->u.str.len);
		}
		if (buf_len(&p) == 0) {
			json_out_puts(
			    &pw, "The request body of the operation ");
			json_out_puts(&pw, id);
			json_out_puts(&pw, ".");
		}
		json_out_string(&o->w, buf_ptr(&p), buf_len(&p));
		o->w.nomem |= pw.nomem;
		buf_free(&p);
	}
	json_out_puts(&o->w, ",\"m\":[],\"s\":");
	openapi_schema(o, schema, true);
	json_out_puts(&o->w, "}");
	if (o->fail != NULL) {
		fprintf(
		    stderr, "gpt.fcgi: operation \"%s\": %s\n", id, o->fail);
		goto out;
	}
	if (o->w.nomem) {
		fprintf(stderr, "gpt.fcgi: the form is too large\n");
		goto out;
	}
	for (i = 0; i < GPT_ARRAY_LEN(openapi_annotations); i++)
		if (o->ann_seen[i] && buf_printf(annotations, "%s%s",
		                          buf_len(annotations) > 0 ? " " : "",
		                          openapi_annotations[i]) == -1) {
			fprintf(stderr, "gpt.fcgi: out of memory\n");
			goto out;
		}
	fprintf(stderr,
	    "gpt.fcgi: read %s as OpenAPI %.*s, operation \"%s\" (%s body, "
	    "%zu schema%s of components/schemas carried)\n",
	    path, (int)ver->u.str.len, ver->u.str.ptr, id,
	    o->v30 ? "draft-04" : schema_dialect_name(o->d), o->nnames,
	    o->nnames == 1 ? "" : "s");
	rc = 0;
out:
	if (o != NULL)
		buf_free(&o->scratch);
	free(o);
	buf_free(&known);
	return rc;
}
