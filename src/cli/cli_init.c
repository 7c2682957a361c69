/*
 * cli_init.c: `gpt.fcgi --init DIR [--schema FILE|-] [--hook python|sh]
 * [--from-openapi FILE OPERATION-ID]`: a new address to start from.
 * Writes DIR/form.json, DIR/hook (an example that answers with what it
 * was sent) and DIR/address.conf (every key, commented, at its default),
 * then runs --check on DIR, whose status it returns.
 *
 * The form's s comes from, first that applies: --from-openapi (an
 * operation's JSON request body, cli_openapi.c); --schema, whose shape is
 * recognized and said on stderr:
 *   - a whole form document ({p, m, s}): written as it is;
 *   - an MCP tool definition ({name, description, inputSchema}), or a
 *     tools/list result (its "tools", or a JSON-RPC answer's
 *     result.tools) holding exactly one;
 *   - an OpenAI function tool ({type: function, function: {name,
 *     description, parameters}}, or the function object alone);
 *   - an OpenAPI document: refused, naming --from-openapi;
 *   - else a bare JSON Schema object (Pydantic's model_json_schema, zod's
 *     JSON Schema, any other), with p from its description or title;
 * with neither, a one-field starter form.
 *
 * Refuses before writing anything: a DIR that exists and is not an empty
 * directory, an input that is not JSON or holds no schema object, an
 * unknown --hook.  Files are created exclusively (O_EXCL) with the modes
 * an address needs (0644, the hook 0755, the directory 0755; an address
 * others may write is refused at load); a failure after the first file
 * removes what this run created.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/arena.h"
#include "base/buf.h"
#include "cli/cli.h"
#include "cli/cli_form.h"
#include "parser/json.h"
#include "parser/json_out.h"
#include "schema/schema_dialect.h"

#define INIT_ARENA_CAP (SIZE_MAX / 4)
#define INIT_TOOLS_NAMED 20

static const char init_usage[] =
    "usage: gpt.fcgi --init DIR [--schema FILE|-] [--hook python|sh]\n"
    "       gpt.fcgi --init DIR --from-openapi FILE OPERATION-ID "
    "[--hook python|sh]\n";

static const char init_hook_sh[] =
    "#!/bin/sh\n"
    "# hook: run for every act the form accepts, in the address directory,\n"
    "# with the act on stdin (strictly parsed and validated already).  Its\n"
    "# stdout, one JSON value, is the answer; a non-zero exit answers 502.\n"
    "# GPT_ACTOR names the sender when the web server passes it.\n"
    "# This example answers with what it was sent: replace it.\n"
    "set -eu\n"
    "printf '{\"received\":'\n"
    "cat\n"
    "printf '}\\n'\n";

static const char init_hook_python[] =
    "#!/usr/bin/env python3\n"
    "# hook: run for every act the form accepts, in the address directory,\n"
    "# with the act on stdin (strictly parsed and validated already).  Its\n"
    "# stdout, one JSON value, is the answer; a non-zero exit answers 502.\n"
    "# GPT_ACTOR names the sender when the web server passes it.\n"
    "# This example answers with what it was sent: replace it.\n"
    "import json\n"
    "import os\n"
    "import sys\n"
    "\n"
    "act = json.load(sys.stdin)\n"
    "json.dump({\"received\": act, \"actor\": os.environ.get(\"GPT_ACTOR\", "
    "\"\")},\n"
    "          sys.stdout)\n"
    "sys.stdout.write(\"\\n\")\n";

struct init {
	const char *dir;
	bool made_dir;
	const char *made[3]; /* files created, for the cleanup */
	size_t nmade;
	struct arena a;
	struct buf text;  /* the input's bytes */
	struct buf form;  /* the form document, compact */
	struct buf ann;   /* annotations = ... */
	struct buf path;  /* scratch */
	const char *said; /* what the input was read as */
};

static const struct json_value *
init_get(const struct json_value *obj, const char *key)
{
	return json_object_get(obj, key, strlen(key));
}

static bool
init_is_object(const struct json_value *v)
{
	return v != NULL && v->type == JSON_T_OBJECT;
}

/* {"p": p, "m": [], "s": s} into in->form. */
static void
init_wrap(struct init *in, const struct json_value *p, const char *p_default,
    const struct json_value *s)
{
	struct json_out w = {&in->form, false};

	json_out_puts(&w, "{\"p\":");
	if (p != NULL && p->type == JSON_T_STRING && p->u.str.len > 0)
		json_out_value(&w, p);
	else
		json_out_string(&w, p_default, strlen(p_default));
	json_out_puts(&w, ",\"m\":[],\"s\":");
	json_out_value(&w, s);
	json_out_puts(&w, "}");
}

/* The starter form: one short note. */
static int
init_starter(struct init *in)
{
	return buf_printf(&in->form,
	    "{\"p\":\"Describe here what this address is for and what an act "
	    "should hold.\",\"m\":[],\"s\":{\"%s\":\"%s\",\"%s\":\"object\","
	    "\"%s\":false,\"%s\":[\"note\"],\"%s\":{\"note\":{\"%s\":\"A "
	    "short note.\",\"%s\":\"string\",\"%s\":1,\"%s\":280}}}}",
	    schema_kw_name(KW_SCHEMA), schema_dialect_uri(SCHEMA_D_2020_12),
	    schema_kw_name(KW_TYPE), schema_kw_name(KW_ADDITIONALPROPERTIES),
	    schema_kw_name(KW_REQUIRED), schema_kw_name(KW_PROPERTIES),
	    schema_kw_name(KW_DESCRIPTION), schema_kw_name(KW_TYPE),
	    schema_kw_name(KW_MINLENGTH), schema_kw_name(KW_MAXLENGTH));
}

/* An MCP tools/list: the one tool, or NULL after naming them. */
static const struct json_value *
init_one_tool(const struct json_value *tools, const char *path)
{
	size_t i;

	if (tools->u.arr.count == 1)
		return &tools->u.arr.items[0];
	fprintf(stderr,
	    "gpt.fcgi: %s: a list of %zu tools; an address is one of them:",
	    path, tools->u.arr.count);
	for (i = 0; i < tools->u.arr.count && i < INIT_TOOLS_NAMED; i++) {
		const struct json_value *n =
		    init_get(&tools->u.arr.items[i], "name");

		if (n != NULL && n->type == JSON_T_STRING)
			fprintf(
			    stderr, " %.*s", (int)n->u.str.len, n->u.str.ptr);
	}
	fprintf(stderr, " (give one tool's definition, e.g. jq '.tools[0]')\n");
	return NULL;
}

/* Recognize the shape of v (see the top of this file) and wrap it.
 * 0, or -1 after a message. */
static int
init_from_value(struct init *in, const struct json_value *v, const char *path)
{
	const struct json_value *tools, *t, *fn, *desc;
	const char *title = schema_kw_name(KW_TITLE);

	if (!init_is_object(v)) {
		fprintf(stderr,
		    "gpt.fcgi: %s: not an object (%s): a form's s is a JSON "
		    "Schema object\n",
		    path, json_type_name(v->type));
		return -1;
	}
	if (init_get(v, "openapi") != NULL || init_get(v, "swagger") != NULL) {
		fprintf(stderr,
		    "gpt.fcgi: %s: an OpenAPI document: use --from-openapi %s "
		    "OPERATION-ID\n",
		    path, path);
		return -1;
	}
	if (init_is_object(init_get(v, "s")) && init_get(v, "p") != NULL) {
		if (json_write(v, &in->form) == -1)
			return -1;
		in->said = "a form document (p, m, s)";
		return 0;
	}
	tools = init_get(v, "tools");
	if (tools == NULL)
		tools = init_get(init_get(v, "result"), "tools");
	if (tools != NULL && tools->type == JSON_T_ARRAY) {
		if ((v = init_one_tool(tools, path)) == NULL)
			return -1;
		if (!init_is_object(v)) {
			fprintf(stderr,
			    "gpt.fcgi: %s: the tool is not an object\n", path);
			return -1;
		}
	}
	if (init_is_object(t = init_get(v, "inputSchema"))) {
		desc = init_get(v, "description"); /* not-a-keyword */
		init_wrap(in, desc != NULL ? desc : init_get(v, title),
		    "Describe here what this tool is for.", t);
		in->said = "an MCP tool definition (its inputSchema)";
		return 0;
	}
	fn = init_is_object(init_get(v, "function")) ? init_get(v, "function")
	                                             : v;
	if (init_is_object(t = init_get(fn, "parameters")) &&
	    init_get(fn, "name") != NULL) {
		init_wrap(in, init_get(fn, "description"), /* not-a-keyword */
		    "Describe here what this function is for.", t);
		in->said = "an OpenAI function tool (its parameters)";
		return 0;
	}
	if (tools != NULL) {
		fprintf(stderr,
		    "gpt.fcgi: %s: the tool has no inputSchema object\n", path);
		return -1;
	}
	desc = init_get(v, schema_kw_name(KW_DESCRIPTION));
	if (desc == NULL || desc->type != JSON_T_STRING)
		desc = init_get(v, title);
	init_wrap(in, desc,
	    "Describe here what this address is for and what an act should "
	    "hold.",
	    v);
	in->said = init_get(v, schema_kw_name(KW_SCHEMA)) != NULL
	               ? "a JSON Schema (its $schema kept)"
	               : "a JSON Schema without $schema (read as 2020-12, as "
	                 "Pydantic and MCP mean it)";
	return 0;
}

/* DIR must not exist, or be an empty directory. */
static int
init_dir(struct init *in)
{
	struct stat st;
	struct dirent *e;
	DIR *d;

	if (mkdir(in->dir, 0755) == 0) {
		in->made_dir = true;
		/* the umask may have taken bits we need, never given more */
		if (chmod(in->dir, 0755) == -1) {
			fprintf(stderr, "gpt.fcgi: %s: %s\n", in->dir,
			    strerror(errno));
			return -1;
		}
		return 0;
	}
	if (errno != EEXIST) {
		fprintf(stderr, "gpt.fcgi: cannot create %s: %s\n", in->dir,
		    strerror(errno));
		return -1;
	}
	if (lstat(in->dir, &st) == -1 || !S_ISDIR(st.st_mode)) {
		fprintf(stderr, "gpt.fcgi: %s exists and is not a directory\n",
		    in->dir);
		return -1;
	}
	if ((d = opendir(in->dir)) == NULL) {
		fprintf(stderr, "gpt.fcgi: %s: %s\n", in->dir, strerror(errno));
		return -1;
	}
	while ((e = readdir(d)) != NULL)
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
			break;
	closedir(d);
	if (e != NULL) {
		fprintf(stderr,
		    "gpt.fcgi: %s already holds files: --init writes a new "
		    "address into a new or empty directory\n",
		    in->dir);
		return -1;
	}
	return 0;
}

/* Create DIR/name exclusively with mode, holding n bytes of p. */
static int
init_write(
    struct init *in, const char *name, mode_t mode, const char *p, size_t n)
{
	const char *path;
	ssize_t w;
	size_t done = 0;
	int fd;

	buf_reset(&in->path);
	if (buf_printf(&in->path, "%s/%s", in->dir, name) == -1 ||
	    (path = arena_strndup(
	         &in->a, buf_ptr(&in->path), buf_len(&in->path))) == NULL) {
		fprintf(stderr, "gpt.fcgi: out of memory\n");
		return -1;
	}
	if ((fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)) ==
	    -1) {
		fprintf(stderr, "gpt.fcgi: cannot create %s: %s\n", path,
		    strerror(errno));
		return -1;
	}
	in->made[in->nmade++] = path;
	while (done < n) {
		w = write(fd, p + done, n - done);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			break;
		done += (size_t)w;
	}
	if (done < n || fchmod(fd, mode) == -1 || close(fd) == -1) {
		fprintf(stderr, "gpt.fcgi: cannot write %s: %s\n", path,
		    strerror(errno));
		return -1;
	}
	printf("wrote %s\n", path);
	return 0;
}

/* Remove what this run created. */
static void
init_undo(struct init *in)
{
	while (in->nmade > 0)
		(void)unlink(in->made[--in->nmade]);
	if (in->made_dir)
		(void)rmdir(in->dir);
}

/* address.conf: every key at its default, commented. */
static int
init_conf(struct init *in)
{
	struct buf c;
	int rc = -1;

	buf_init(&c, 65536);
	if (buf_puts(&c,
	        "# address.conf: this address's knobs (gpt-address(5)).  Each "
	        "key\n"
	        "# is shown at its default; remove the # to change one.\n"
	        "#max_body = 1048576\n"
	        "#hook_timeout = 10\n"
	        "#hook_max_output = 1048576\n"
	        "#type =\n"
	        "#failures = silent\n"
	        "#log = all\n"
	        "#hook_env = NAME=value\n"
	        "#dialect = 2020-12\n"
	        "#refs = URI-PREFIX=DIR\n"
	        "#act = answer\n") == -1 ||
	    (buf_len(&in->ann) > 0
	            ? buf_printf(&c,
	                  "# keywords the form uses that judge nothing\n"
	                  "annotations = %s\n",
	                  buf_ptr(&in->ann))
	            : buf_puts(&c, "#annotations = NAME ...\n")) == -1)
		fprintf(stderr, "gpt.fcgi: out of memory\n");
	else
		rc = init_write(
		    in, "address.conf", 0644, buf_ptr(&c), buf_len(&c));
	buf_free(&c);
	return rc;
}

int
cli_init(int argc, char **argv)
{
	const char *schema_path = NULL, *oa_path = NULL, *oa_id = NULL;
	const char *hook = init_hook_sh, *hook_name = "sh";
	const struct json_value *v;
	struct init in;
	struct buf pretty;
	char *check[3], *dir_arg;
	int i, rc = 1;

	if (argc < 2 || strncmp(argv[1], "--", 2) == 0) {
		fputs(init_usage, stderr);
		return 2;
	}
	memset(&in, 0, sizeof(in));
	in.dir = dir_arg = argv[1];
	for (i = 2; i < argc; i++) {
		if (strcmp(argv[i], "--schema") == 0 && i + 1 < argc)
			schema_path = argv[++i];
		else if (strcmp(argv[i], "--hook") == 0 && i + 1 < argc) {
			hook_name = argv[++i];
			if (strcmp(hook_name, "python") == 0)
				hook = init_hook_python;
			else if (strcmp(hook_name, "sh") == 0)
				hook = init_hook_sh;
			else {
				fprintf(stderr,
				    "gpt.fcgi: --hook python or --hook sh, not "
				    "%s\n",
				    hook_name);
				return 2;
			}
		} else if (strcmp(argv[i], "--from-openapi") == 0 &&
		           i + 2 < argc) {
			oa_path = argv[++i];
			oa_id = argv[++i];
		} else {
			fprintf(stderr, "gpt.fcgi: --init: unexpected %s\n",
			    argv[i]);
			fputs(init_usage, stderr);
			return 2;
		}
	}
	if (schema_path != NULL && oa_path != NULL) {
		fprintf(stderr,
		    "gpt.fcgi: --init takes --schema or --from-openapi, not "
		    "both\n");
		return 2;
	}
	arena_init(&in.a, INIT_ARENA_CAP);
	buf_init(&in.text, CLI_INPUT_MAX);
	buf_init(&in.form, CLI_INPUT_MAX);
	buf_init(&in.ann, 4096);
	buf_init(&in.path, PATH_MAX + 64);
	buf_init(&pretty, CLI_INPUT_MAX);
	/* everything is read and built before the first file is written */
	if (oa_path != NULL) {
		if (cli_openapi_form(oa_path, oa_id, &in.a, &in.text, &in.form,
		        &in.ann) == -1)
			goto out;
		in.said = NULL;
	} else if (schema_path != NULL) {
		if (cli_form_read_json(
		        strcmp(schema_path, "-") == 0 ? NULL : schema_path,
		        &in.text, &in.a, &v, "schema") != 0 ||
		    init_from_value(&in, v,
		        strcmp(schema_path, "-") == 0 ? "standard input"
		                                      : schema_path) == -1)
			goto out;
	} else if (init_starter(&in) == -1)
		goto out;
	if (schema_path != NULL)
		fprintf(stderr, "gpt.fcgi: read %s as %s\n",
		    strcmp(schema_path, "-") == 0 ? "standard input"
		                                  : schema_path,
		    in.said);
	/* for people: indented, as the examples are */
	if (json_parse(buf_ptr(&in.form), buf_len(&in.form), &in.a, 0, &v,
	        &(struct json_err){0}) != JSON_OK ||
	    json_write_pretty(v, 2, &pretty) == -1 ||
	    buf_putc(&pretty, '\n') == -1) {
		fprintf(stderr, "gpt.fcgi: cannot build the form\n");
		goto out;
	}
	if (init_dir(&in) == -1)
		goto out;
	if (init_write(&in, "form.json", 0644, buf_ptr(&pretty),
	        buf_len(&pretty)) == -1 ||
	    init_write(&in, "hook", 0755, hook, strlen(hook)) == -1 ||
	    init_conf(&in) == -1) {
		init_undo(&in);
		goto out;
	}
	printf("hook: the %s example; gpt.fcgi --check %s follows\n", hook_name,
	    in.dir);
	fflush(stdout);
	check[0] = "--check";
	check[1] = dir_arg;
	check[2] = NULL;
	rc = cli_check(2, check);
out:
	buf_free(&pretty);
	buf_free(&in.path);
	buf_free(&in.ann);
	buf_free(&in.form);
	buf_free(&in.text);
	arena_free(&in.a);
	return rc;
}
