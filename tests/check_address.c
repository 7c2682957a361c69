/*
 * check_address.c: address names, resolution from CGI variables, path
 * hygiene (symlinks out of the root), load errors, files others may
 * write, and what a load gives.  check_addr_cache.c tests the cache.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "schema/schema_load.h"
#include "site/address.h"
#include "responder/answer.h"
#include "check_main.h"
#include "parser/json.h"

static const char good_form[] =
    "{\"p\": \"A test.\", \"m\": [{\"role\": \"user\", \"content\": \"hi\"}],"
    " \"s\": {\"type\": \"object\", \"required\": [\"a\"]}}";

static char tmp[64];

static void
make_tmp(void)
{
	snprintf(tmp, sizeof(tmp), "/tmp/check_address.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(tmp));
}

static void
rm_tmp(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp);
	ck_assert_int_eq(system(cmd), 0);
	addr_arrival_free();
}

/* Write text to tmp/rel (creating tmp/dir-of-rel as needed). */
static void
put(const char *rel, const char *text)
{
	char path[PATH_MAX], *slash;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", tmp, rel);
	for (slash = path + strlen(tmp) + 1;
	     (slash = strchr(slash, '/')) != NULL; slash++) {
		*slash = '\0';
		mkdir(path, 0755);
		*slash = '/';
	}
	f = fopen(path, "w");
	ck_assert_msg(f != NULL, "cannot write %s", path);
	fputs(text, f);
	fclose(f);
}

/* The member p of a loaded address's document. */
static const char *
doc_p(const struct addr *a)
{
	const struct json_value *p = json_object_get(a->doc, "p", 1);
	static char text[64];

	ck_assert_ptr_nonnull(p);
	ck_assert_uint_lt(p->u.str.len, sizeof(text));
	memcpy(text, p->u.str.ptr, p->u.str.len);
	text[p->u.str.len] = '\0';
	return text;
}

/* --- addr_name_ok ----------------------------------------------------- */

START_TEST(addr_name_ok_follows_the_grammar)
{
	static const char *const yes[] = {
	    "a",
	    "echo",
	    "Echo_2",
	    "-x",
	    "_",
	    "a.b",
	    "a..b",
	    "v1.0-rc",
	};
	static const char *const no[] = {
	    "",
	    ".",
	    "..",
	    ".hidden",
	    "a/b",
	    "a b",
	    "a%2Fb",
	    "caf\xc3\xa9",
	    "a\\b",
	    "a:b",
	    "a\nb",
	};
	char longname[ADDR_NAME_MAX + 2];
	size_t i;

	for (i = 0; i < GPT_ARRAY_LEN(yes); i++)
		ck_assert_msg(addr_name_ok(yes[i]), "refused \"%s\"", yes[i]);
	for (i = 0; i < GPT_ARRAY_LEN(no); i++)
		ck_assert_msg(!addr_name_ok(no[i]), "accepted \"%s\"", no[i]);
	memset(longname, 'a', sizeof(longname));
	longname[ADDR_NAME_MAX] = '\0';
	ck_assert(addr_name_ok(longname));
	longname[ADDR_NAME_MAX] = 'a';
	longname[ADDR_NAME_MAX + 1] = '\0';
	ck_assert(!addr_name_ok(longname));
}
END_TEST

/* --- addr_resolve ----------------------------------------------------- */

static void
expect_resolve(const struct addr_query *r, const char *dir, size_t root_len)
{
	struct addr_ref ref;
	const char *why;

	ck_assert_msg(addr_resolve(r, &ref, &why) == 0,
	    "PATH_INFO \"%s\" refused: %s", r->path_info ? r->path_info : "",
	    why);
	ck_assert_str_eq(ref.dir, dir);
	ck_assert_uint_eq(ref.root_len, root_len);
}

static void
expect_resolve_fail(const struct addr_query *r)
{
	struct addr_ref ref;
	const char *why = NULL;

	ck_assert_msg(addr_resolve(r, &ref, &why) == -1,
	    "PATH_INFO \"%s\" (URI \"%s\") resolved to %s",
	    r->path_info ? r->path_info : "",
	    r->request_uri ? r->request_uri : "", ref.dir);
	ck_assert_ptr_nonnull(why);
}

START_TEST(addr_resolve_prefers_gpt_address_then_root_then_default)
{
	struct addr_query r = {0};

	r.gpt_address = "/srv/one";
	r.gpt_root = "/srv/root";
	r.script_filename = "/cgi-bin/gpt.fcgi";
	expect_resolve(&r, "/srv/one", 0);
	r.path_info = "";
	expect_resolve(&r, "/srv/one", 0);
	r.path_info = "/x";
	expect_resolve_fail(&r);
	r.gpt_address = "";
	expect_resolve(&r, "/srv/root/x", 9);
	r.path_info = NULL;
	expect_resolve_fail(&r);
	r.gpt_root = NULL;
	expect_resolve(&r, "/cgi-bin/gpt.fcgi.d", 0);
	r.path_info = "/echo";
	expect_resolve(&r, "/cgi-bin/gpt.fcgi.d/echo", 19);
	r.script_filename = NULL;
	expect_resolve_fail(&r);
}
END_TEST

START_TEST(addr_resolve_refuses_unclean_paths)
{
	static const char *const bad[] = {
	    "/",
	    "//echo",
	    "/echo/",
	    "/a/b",
	    "/..",
	    "/../echo",
	    "/.hidden",
	    "echo",
	    "/a%2Fb",
	    "/a%2fb",
	    "/.",
	    "/a b",
	};
	struct addr_query r = {0};
	size_t i;

	r.gpt_root = "/srv/root";
	for (i = 0; i < GPT_ARRAY_LEN(bad); i++) {
		r.path_info = bad[i];
		expect_resolve_fail(&r);
	}
	r.path_info = "/echo";
	r.request_uri = "/gpt/x%2F..%2fecho";
	expect_resolve_fail(&r);
	r.request_uri = "/gpt/echo?a=%20&next=%2Fhome";
	expect_resolve(&r, "/srv/root/echo", 9);
	r.request_uri = "/gpt/x%2f?q";
	expect_resolve_fail(&r);
}
END_TEST

/* The joined directory fills PATH_MAX - 1 bytes at most, never cut. */
START_TEST(addr_resolve_refuses_a_directory_past_path_max)
{
	static char name[PATH_MAX + 2];
	struct addr_query r = {0};
	size_t n;

	memset(name, 'a', sizeof(name) - 1);
	name[0] = '/';
	/* GPT_ADDRESS alone: PATH_MAX - 1 bytes fit, PATH_MAX do not */
	name[PATH_MAX - 1] = '\0';
	r.gpt_address = name;
	expect_resolve(&r, name, 0);
	name[PATH_MAX - 1] = 'a';
	name[PATH_MAX] = '\0';
	expect_resolve_fail(&r);
	/* GPT_ROOT + "/x": the root's length plus two */
	r.gpt_address = NULL;
	r.path_info = "/x";
	n = PATH_MAX - 3;
	name[n] = '\0';
	r.gpt_root = name;
	{
		struct addr_ref ref;
		const char *why;

		ck_assert_int_eq(addr_resolve(&r, &ref, &why), 0);
		ck_assert_uint_eq(strlen(ref.dir), PATH_MAX - 1);
		ck_assert_uint_eq(ref.root_len, n);
		ck_assert(memcmp(ref.dir + n, "/x", 3) == 0);
	}
	r.path_info = "/xy";
	expect_resolve_fail(&r);
	/* the shared-hosting default: SCRIPT_FILENAME + ".d" */
	r.gpt_root = NULL;
	r.path_info = NULL;
	r.script_filename = name;
	name[n] = 'a';
	name[PATH_MAX - 2] = '\0';
	expect_resolve_fail(&r);
	name[PATH_MAX - 3] = '\0';
	{
		struct addr_ref ref;
		const char *why;

		ck_assert_int_eq(addr_resolve(&r, &ref, &why), 0);
		ck_assert_uint_eq(strlen(ref.dir), PATH_MAX - 1);
	}
}
END_TEST

/* --- addr_load -------------------------------------------------------- */

static void
expect_load_fail(const char *form, const char *conf, const char *why)
{
	char dir[PATH_MAX];
	struct addr a;

	make_tmp();
	if (form != NULL)
		put("form.json", form);
	if (conf != NULL)
		put("address.conf", conf);
	snprintf(dir, sizeof(dir), "%s", tmp);
	ck_assert_msg(addr_load(dir, &a, NULL, NULL) == -1,
	    "form %s with conf %s loaded", form ? form : "(none)",
	    conf ? conf : "(none)");
	ck_assert(!a.ok);
	ck_assert_msg(strstr(a.err, why) != NULL,
	    "form %s: reason \"%s\", expected \"%s\"", form ? form : "(none)",
	    a.err, why);
	addr_free(&a);
	rm_tmp();
}

START_TEST(addr_load_refuses_bad_addresses)
{
	expect_load_fail(NULL, NULL, "form.json");
	expect_load_fail("{\"p\": \"x\", \"m\": [], \"s\": {},}", NULL, "byte");
	expect_load_fail(
	    "{\"p\": \"x\", \"p\": \"y\", \"m\": [], \"s\": {}}", NULL, "byte");
	expect_load_fail("{\"p\": 1, \"m\": [], \"s\": {}}", NULL,
	    "not an arrival document");
	expect_load_fail(
	    "{\"p\": \"x\", \"m\": [{\"role\": \"u\"}], \"s\": {}}", NULL,
	    "not an arrival document");
	expect_load_fail(
	    "{\"p\": \"x\", \"m\": []}", NULL, "not an arrival document");
	expect_load_fail("[]", NULL, "not an arrival document");
	expect_load_fail(
	    "{\"p\": \"x\", \"m\": [], \"s\": {\"type\": \"strnig\"}}", NULL,
	    "form refused");
	expect_load_fail(
	    "{\"p\": \"x\", \"m\": [], \"s\": {\"minLength\": -1}}", NULL,
	    "form refused");
	expect_load_fail(
	    "{\"p\": \"x\", \"m\": [], \"s\": {\"frobnicate\": 1}}", NULL,
	    "form refused");
	expect_load_fail(good_form, "max_bdy = 1\n", "unknown key");
	expect_load_fail(good_form, "max_body = 0\n",
	    "max_body must be a whole number of bytes from 1");
}
END_TEST

START_TEST(addr_load_refuses_a_symlinked_form)
{
	char dir[PATH_MAX], target[PATH_MAX], link[PATH_MAX];
	struct addr a;

	make_tmp();
	put("real.json", good_form);
	snprintf(target, sizeof(target), "%s/real.json", tmp);
	snprintf(link, sizeof(link), "%s/form.json", tmp);
	ck_assert_int_eq(symlink(target, link), 0);
	snprintf(dir, sizeof(dir), "%s", tmp);
	ck_assert_int_eq(addr_load(dir, &a, NULL, NULL), -1);
	addr_free(&a);
	rm_tmp();
}
END_TEST

/*
 * refs = PREFIX=DIR reads files inside the address only: a DIR that is a
 * symbolic link, or a link to a directory anywhere below it, is not
 * followed (the form is refused), though the file it leads to is a good
 * schema; the same files in place load.  Only a link as the last
 * component was refused before.
 */
START_TEST(addr_load_follows_no_symlink_in_a_refs_path)
{
	static const char form[] =
	    "{\"p\": \"x\", \"m\": [], \"s\": {\"$ref\": "
	    "\"https://example.com/s/sub/def.json\"}}";
	static const char conf[] = "refs = https://example.com/s/=schemas\n";
	static const char def[] = "{\"type\": \"integer\"}";
	char dir[PATH_MAX], target[PATH_MAX], link[PATH_MAX];
	char outside[128], cmd[160];
	struct addr a;
	int step;

	for (step = 0; step < 3; step++) {
		make_tmp();
		snprintf(outside, sizeof(outside), "%s.out", tmp);
		ck_assert_int_eq(mkdir(outside, 0755), 0);
		put("form.json", form);
		put("address.conf", conf);
		if (step == 0) {
			/* in place */
			put("schemas/sub/def.json", def);
		} else if (step == 1) {
			/* schemas/sub -> a directory outside the address */
			put("schemas/keep", "");
			snprintf(
			    target, sizeof(target), "%s/def.json", outside);
			{
				FILE *f = fopen(target, "w");

				ck_assert_ptr_nonnull(f);
				fputs(def, f);
				fclose(f);
			}
			snprintf(link, sizeof(link), "%s/schemas/sub", tmp);
			ck_assert_int_eq(symlink(outside, link), 0);
		} else {
			/* schemas itself -> outside, holding sub/def.json */
			snprintf(target, sizeof(target), "%s/sub", outside);
			ck_assert_int_eq(mkdir(target, 0755), 0);
			snprintf(
			    target, sizeof(target), "%s/sub/def.json", outside);
			{
				FILE *f = fopen(target, "w");

				ck_assert_ptr_nonnull(f);
				fputs(def, f);
				fclose(f);
			}
			snprintf(link, sizeof(link), "%s/schemas", tmp);
			ck_assert_int_eq(symlink(outside, link), 0);
		}
		snprintf(dir, sizeof(dir), "%s", tmp);
		if (step == 0) {
			ck_assert_int_eq(addr_load(dir, &a, NULL, NULL), 0);
			ck_assert(a.ok);
		} else {
			ck_assert_int_eq(addr_load(dir, &a, NULL, NULL), -1);
			ck_assert_msg(strstr(a.err, "symbolic link") != NULL,
			    "step %d: %s", step, a.err);
		}
		addr_free(&a);
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", outside);
		ck_assert_int_eq(system(cmd), 0);
		rm_tmp();
	}
}
END_TEST

START_TEST(addr_load_gives_the_conf_the_document_and_the_form)
{
	char dir[PATH_MAX];
	struct addr a;

	make_tmp();
	put("form.json", good_form);
	put("address.conf", "type = t1\n");
	snprintf(dir, sizeof(dir), "%s", tmp);
	ck_assert_int_eq(addr_load(dir, &a, NULL, NULL), 0);
	ck_assert(a.ok);
	ck_assert(!a.has_hook);
	ck_assert_str_eq(a.conf.type, "t1");
	ck_assert_str_eq(doc_p(&a), "A test.");
	ck_assert_ptr_nonnull(a.schema);
	/* data only: what a request is answered is the caller's to build */
	ck_assert_ptr_null(a.derived);
	addr_free(&a);
	rm_tmp();
}
END_TEST

START_TEST(addr_load_notices_an_executable_hook)
{
	char dir[PATH_MAX], hook[PATH_MAX];
	struct addr a;

	make_tmp();
	put("form.json", good_form);
	put("hook", "#!/bin/sh\ncat\n");
	snprintf(dir, sizeof(dir), "%s", tmp);
	snprintf(hook, sizeof(hook), "%s/hook", tmp);
	ck_assert_int_eq(addr_load(dir, &a, NULL, NULL), 0);
	ck_assert(!a.has_hook);
	addr_free(&a);
	ck_assert_int_eq(chmod(hook, 0755), 0);
	ck_assert_int_eq(addr_load(dir, &a, NULL, NULL), 0);
	ck_assert(a.has_hook);
	addr_free(&a);
	rm_tmp();
}
END_TEST

static const char rel_form[] =
    "{\"p\": \"x\", \"m\": [], \"s\": {\"properties\": {\"price\": "
    "{\"$ref\": \"defs/money.json\"}}, \"required\": [\"price\"]}}";

/* The files beside the form: relative references load them from the
 * address directory, and everything is bundled into the served form. */
START_TEST(addr_load_reads_relative_references_beside_the_form)
{
	char dir[PATH_MAX];
	const struct json_value *s, *defs;
	struct addr a;

	make_tmp();
	put("form.json", rel_form);
	put("defs/money.json",
	    "{\"properties\": {\"currency\": {\"$ref\": "
	    "\"../common.json#/$defs/cur\"}}, \"required\": [\"currency\"]}");
	put("common.json", "{\"$defs\": {\"cur\": {\"enum\": [\"EUR\"]}}}");
	snprintf(dir, sizeof(dir), "%s", tmp);
	ck_assert_int_eq(addr_load(dir, &a, NULL, NULL), 0);
	ck_assert_msg(a.ok, "%s", a.err);
	/* both files stamped for the reload check */
	ck_assert_uint_eq(a.nfiles, 2);
	s = json_object_get(a.doc, "s", 1);
	ck_assert_ptr_nonnull(s);
	defs = json_object_get(s, "$defs", 5);
	ck_assert_ptr_nonnull(defs);
	ck_assert_ptr_nonnull(
	    json_object_get(defs, SCHEMA_ADDRESS_PREFIX "common.json",
	        strlen(SCHEMA_ADDRESS_PREFIX "common.json")));
	ck_assert_ptr_nonnull(json_object_get(s, "$id", 3));
	addr_free(&a);
	rm_tmp();
}
END_TEST

/* Nothing above the address directory is read, and no symbolic link is
 * followed out of it, on the way or at the end. */
START_TEST(addr_load_reads_nothing_above_the_address)
{
	char dir[PATH_MAX], target[PATH_MAX], link[PATH_MAX];
	struct addr a;

	make_tmp();
	put("outside/money.json", "{}");
	put("outside/common.json", "{}");
	put("addr/form.json", "{\"p\": \"x\", \"m\": [], \"s\": {\"$ref\": "
	                      "\"../outside/money.json\"}}");
	snprintf(dir, sizeof(dir), "%s/addr", tmp);
	ck_assert_int_eq(addr_load(dir, &a, NULL, NULL), -1);
	ck_assert_ptr_nonnull(strstr(a.err, "names nothing"));
	addr_free(&a);
	/* defs -> ../outside: a directory that is a symbolic link */
	put("addr/form.json", rel_form);
	snprintf(target, sizeof(target), "%s/outside", tmp);
	snprintf(link, sizeof(link), "%s/addr/defs", tmp);
	ck_assert_int_eq(symlink(target, link), 0);
	ck_assert_int_eq(addr_load(dir, &a, NULL, NULL), -1);
	ck_assert_msg(strstr(a.err, "symbolic link") != NULL, "%s", a.err);
	addr_free(&a);
	/* defs/money.json -> ../outside/money.json: the file itself */
	ck_assert_int_eq(unlink(link), 0);
	put("addr/defs/x", "");
	snprintf(target, sizeof(target), "%s/outside/money.json", tmp);
	snprintf(link, sizeof(link), "%s/addr/defs/money.json", tmp);
	ck_assert_int_eq(symlink(target, link), 0);
	ck_assert_int_eq(addr_load(dir, &a, NULL, NULL), -1);
	ck_assert_msg(strstr(a.err, "symbolic link") != NULL, "%s", a.err);
	addr_free(&a);
	rm_tmp();
}
END_TEST

/* A form rewritten while it is being loaded (here: from inside the load,
 * by the compiler's warning callback) is read again, and the address is
 * the new form, not a mix of both. */
static void
rewrite_once(void *ctx, const char *where, const char *msg)
{
	int *calls = ctx;

	(void)where;
	(void)msg;
	if ((*calls)++ == 0)
		put("form.json", good_form);
}

START_TEST(addr_load_reads_again_a_form_changed_while_read)
{
	char dir[PATH_MAX];
	struct addr a;
	int calls = 0;

	make_tmp();
	/* a recursive form: the compiler warns, in the middle of the load */
	put("form.json", "{\"p\": \"Recursive, being replaced.\", \"m\": [],"
	                 " \"s\": {\"type\": \"array\","
	                 " \"items\": {\"$ref\": \"#\"}}}");
	snprintf(dir, sizeof(dir), "%s", tmp);
	ck_assert_int_eq(addr_load(dir, &a, rewrite_once, &calls), 0);
	ck_assert_int_eq(calls, 1);
	ck_assert(a.ok);
	ck_assert_str_eq(doc_p(&a), "A test.");
	addr_free(&a);
	rm_tmp();
}
END_TEST

/* A file of the address that its group or others may write refuses it,
 * with the file and its mode (as sshd's StrictModes): the directory,
 * form.json, address.conf, the hook, and anything under a refs
 * directory. */
START_TEST(addr_load_refuses_files_others_may_write)
{
	static const char *const files[] = {"", "form.json", "address.conf",
	    "hook", "defs", "defs/name.json", "defs/sub/unused.json"};
	static const mode_t bits[] = {S_IWGRP, S_IWOTH};
	char dir[PATH_MAX], path[PATH_MAX];
	struct addr a;
	struct stat st;
	size_t i, j;

	make_tmp();
	put("form.json", "{\"p\": \"x\", \"m\": [], \"s\": "
	                 "{\"$ref\": \"https://example.com/defs/name.json\"}}");
	put("address.conf", "refs = https://example.com/defs/=defs\n");
	put("defs/name.json", "{\"type\": \"string\"}");
	put("defs/sub/unused.json", "{}");
	put("hook", "#!/bin/sh\nexec cat\n");
	snprintf(dir, sizeof(dir), "%s", tmp);
	snprintf(path, sizeof(path), "%s/hook", tmp);
	ck_assert_int_eq(chmod(path, 0755), 0);
	ck_assert_int_eq(addr_load(dir, &a, NULL, NULL), 0);
	ck_assert(!a.writable);
	addr_free(&a);
	for (i = 0; i < GPT_ARRAY_LEN(files); i++) {
		for (j = 0; j < GPT_ARRAY_LEN(bits); j++) {
			snprintf(path, sizeof(path), "%s%s%s", tmp,
			    files[i][0] != '\0' ? "/" : "", files[i]);
			ck_assert_int_eq(stat(path, &st), 0);
			ck_assert_int_eq(
			    chmod(path, (st.st_mode & 07777) | bits[j]), 0);
			ck_assert_int_eq(addr_load(dir, &a, NULL, NULL), -1);
			ck_assert_msg(
			    a.writable && !a.ok, "%s: %s", path, a.err);
			ck_assert_msg(
			    strstr(a.err, path) != NULL &&
			        strstr(a.err, bits[j] == S_IWGRP
			                          ? "writable by its group"
			                          : "writable by others") !=
			            NULL &&
			        strstr(a.err, "chmod go-w") != NULL,
			    "%s", a.err);
			addr_free(&a);
			ck_assert_int_eq(chmod(path, st.st_mode & 07777), 0);
		}
	}
	ck_assert_int_eq(addr_load(dir, &a, NULL, NULL), 0);
	addr_free(&a);
	rm_tmp();
}
END_TEST

static Suite *
suite_address(void)
{
	Suite *s = suite_create("address");
	TCase *tc;

	tc = tcase_create("addr_name_ok");
	tcase_add_test(tc, addr_name_ok_follows_the_grammar);
	suite_add_tcase(s, tc);
	tc = tcase_create("addr_resolve");
	tcase_add_test(
	    tc, addr_resolve_prefers_gpt_address_then_root_then_default);
	tcase_add_test(tc, addr_resolve_refuses_unclean_paths);
	tcase_add_test(tc, addr_resolve_refuses_a_directory_past_path_max);
	suite_add_tcase(s, tc);
	tc = tcase_create("addr_load");
	tcase_add_test(tc, addr_load_refuses_bad_addresses);
	tcase_add_test(tc, addr_load_refuses_a_symlinked_form);
	tcase_add_test(tc, addr_load_follows_no_symlink_in_a_refs_path);
	tcase_add_test(tc, addr_load_gives_the_conf_the_document_and_the_form);
	tcase_add_test(tc, addr_load_notices_an_executable_hook);
	tcase_add_test(tc, addr_load_refuses_files_others_may_write);
	tcase_add_test(tc, addr_load_reads_again_a_form_changed_while_read);
	tcase_add_test(tc, addr_load_reads_relative_references_beside_the_form);
	tcase_add_test(tc, addr_load_reads_nothing_above_the_address);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(suite_address)
