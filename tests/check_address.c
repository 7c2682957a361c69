/*
 * check_address.c: address names, resolution from CGI variables, path
 * hygiene (symlinks out of the root), load errors, what a load gives, and
 * the cache: reload when a file changes (seen through the answers the
 * responder derives, answer.h), eviction under its budget.
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
	addr_cache_clear();
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
	expect_load_fail(good_form, "max_body = 0\n", "bad value");
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

/* --- addr_lookup ------------------------------------------------------ */

static const struct addr *
lookup(const char *name, const char **why)
{
	struct addr_ref ref;

	snprintf(ref.dir, sizeof(ref.dir), "%s/root/%s", tmp, name);
	ref.root_len = strlen(tmp) + 5;
	return addr_lookup(&ref, answer_build, why);
}

START_TEST(addr_lookup_refuses_a_symlink_out_of_the_root)
{
	char target[PATH_MAX], link[PATH_MAX];
	const char *why;
	const struct addr *a;

	make_tmp();
	put("root/in/form.json", good_form);
	put("out/form.json", good_form);
	snprintf(target, sizeof(target), "%s/out", tmp);
	snprintf(link, sizeof(link), "%s/root/escape", tmp);
	ck_assert_int_eq(symlink(target, link), 0);
	snprintf(link, sizeof(link), "%s/root/alias", tmp);
	ck_assert_int_eq(symlink("in", link), 0);
	snprintf(link, sizeof(link), "%s/root/self", tmp);
	ck_assert_int_eq(symlink(".", link), 0);
	ck_assert_ptr_null(lookup("escape", &why));
	ck_assert_ptr_nonnull(strstr(why, "leaves its root"));
	ck_assert_ptr_null(lookup("self", &why));
	ck_assert_ptr_null(lookup("missing", &why));
	a = lookup("in", &why);
	ck_assert_ptr_nonnull(a);
	ck_assert(a->ok);
	a = lookup("alias", &why);
	ck_assert_ptr_nonnull(a);
	ck_assert(a->ok);
	rm_tmp();
}
END_TEST

START_TEST(addr_lookup_caches_and_reloads_on_change)
{
	char etag[HTTP_ETAG_MAX];
	const struct addr *a;
	const char *why;

	make_tmp();
	put("root/x/form.json", good_form);
	a = lookup("x", &why);
	ck_assert_ptr_nonnull(a);
	ck_assert(a->ok);
	memcpy(etag, answer_of(a)->etag, sizeof(etag));
	ck_assert_ptr_eq(lookup("x", &why), a);
	/* A change is seen after the recheck interval, not before. */
	put("root/x/form.json",
	    "{\"p\": \"Changed.\", \"m\": [], \"s\": {\"type\": \"object\"}}");
	ck_assert_str_eq(answer_of(lookup("x", &why))->etag, etag);
	usleep(ADDR_RECHECK_SEC * 1000000 + 100000);
	a = lookup("x", &why);
	ck_assert(a->ok);
	ck_assert_str_ne(answer_of(a)->etag, etag);
	/* Broken: 500 until fixed. */
	put("root/x/form.json", "{\"p\": ");
	usleep(ADDR_RECHECK_SEC * 1000000 + 100000);
	a = lookup("x", &why);
	ck_assert(!a->ok);
	ck_assert_ptr_nonnull(strstr(a->err, "byte"));
	put("root/x/form.json", good_form);
	usleep(ADDR_RECHECK_SEC * 1000000 + 100000);
	a = lookup("x", &why);
	ck_assert(a->ok);
	ck_assert_str_eq(answer_of(a)->etag, etag);
	/* address.conf counts too. */
	put("root/x/address.conf", "type = new\n");
	usleep(ADDR_RECHECK_SEC * 1000000 + 100000);
	ck_assert_str_eq(lookup("x", &why)->conf.type, "new");
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
	ck_assert_ptr_nonnull(json_object_get(defs,
	    SCHEMA_ADDRESS_PREFIX "common.json",
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
	put("addr/form.json",
	    "{\"p\": \"x\", \"m\": [], \"s\": {\"$ref\": "
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

/* A change to a file the form references reloads the address. */
START_TEST(addr_lookup_reloads_when_a_referenced_file_changes)
{
	const struct addr *a;
	const char *why;

	make_tmp();
	put("root/x/form.json", rel_form);
	put("root/x/defs/money.json", "{\"type\": \"string\"}");
	a = lookup("x", &why);
	ck_assert_ptr_nonnull(a);
	ck_assert_msg(a->ok, "%s", a->err);
	put("root/x/defs/money.json", "{\"type\": \"strnig\"}");
	usleep(ADDR_RECHECK_SEC * 1000000 + 100000);
	a = lookup("x", &why);
	ck_assert(!a->ok);
	ck_assert_ptr_nonnull(strstr(a->err, "form refused"));
	rm_tmp();
}
END_TEST

/* Past the byte budget (GPT_CACHE_BYTES), the least recently used goes. */
START_TEST(addr_lookup_evicts_the_least_recently_used_past_the_budget)
{
	char name[32], budget[32];
	const struct addr *first, *a;
	const char *why;
	size_t one;
	int i;

	make_tmp();
	for (i = 0; i < 4; i++) {
		snprintf(name, sizeof(name), "root/a%d/form.json", i);
		put(name, good_form);
	}
	ck_assert_ptr_nonnull(lookup("a0", &why));
	one = addr_cache_bytes();
	ck_assert_uint_gt(one, 0);
	addr_cache_clear();
	/* room for three such addresses, not four */
	snprintf(budget, sizeof(budget), "%zu", one * 3 + one / 2);
	ck_assert_int_eq(setenv("GPT_CACHE_BYTES", budget, 1), 0);
	first = lookup("a0", &why);
	ck_assert_ptr_nonnull(first);
	ck_assert_ptr_nonnull(lookup("a1", &why));
	ck_assert_ptr_nonnull(lookup("a2", &why));
	ck_assert_uint_eq(addr_cache_count(), 3);
	ck_assert_ptr_eq(lookup("a0", &why), first); /* a1 is now oldest */
	a = lookup("a3", &why);
	ck_assert_ptr_nonnull(a);
	ck_assert(a->ok);
	ck_assert_uint_eq(addr_cache_count(), 3);
	ck_assert_uint_le(addr_cache_bytes(), one * 3 + one / 2);
	ck_assert_ptr_eq(lookup("a0", &why), first);
	ck_assert_str_eq(a->dir + strlen(a->dir) - 3, "/a3");
	/* A budget smaller than one address keeps the one in use. */
	addr_cache_clear();
	ck_assert_int_eq(setenv("GPT_CACHE_BYTES", "1K", 1), 0);
	ck_assert(lookup("a0", &why)->ok);
	ck_assert(lookup("a1", &why)->ok);
	ck_assert_uint_eq(addr_cache_count(), 1);
	/* A malformed budget is the default (and logged) for a lookup
	 * without addr_cache_configure, which refuses it. */
	addr_cache_clear();
	ck_assert_int_eq(setenv("GPT_CACHE_BYTES", "64MB", 1), 0);
	ck_assert_int_eq(addr_cache_configure(), -1);
	addr_cache_clear();
	for (i = 0; i < 4; i++) {
		snprintf(name, sizeof(name), "a%d", i);
		ck_assert(lookup(name, &why)->ok);
	}
	ck_assert_uint_eq(addr_cache_count(), 4);
	ck_assert_int_eq(unsetenv("GPT_CACHE_BYTES"), 0);
	rm_tmp();
}
END_TEST

/* The thrash: 17 addresses (and 100) under one root, looked up in
 * turn, all stay loaded with the default budget: none is reloaded. */
START_TEST(addr_lookup_keeps_a_hundred_small_addresses)
{
	const struct addr *seen[100];
	char name[32];
	const char *why;
	int i, round;

	make_tmp();
	for (i = 0; i < 100; i++) {
		snprintf(name, sizeof(name), "root/a%d/form.json", i);
		put(name, good_form);
	}
	for (round = 0; round < 3; round++) {
		for (i = 0; i < 100; i++) {
			const struct addr *a;

			snprintf(name, sizeof(name), "a%d", i);
			a = lookup(name, &why);
			ck_assert_ptr_nonnull(a);
			ck_assert(a->ok);
			if (round == 0)
				seen[i] = a;
			ck_assert_ptr_eq(a, seen[i]);
		}
	}
	ck_assert_uint_eq(addr_cache_count(), 100);
	ck_assert_uint_le(addr_cache_bytes(), ADDR_CACHE_BYTES_DEFAULT);
	rm_tmp();
}
END_TEST

/*
 * A same-size rewrite in place whose mtime is put back (touch -d, tar,
 * rsync -t; or a clock too coarse to move it) changes only ctime: the
 * address is reloaded all the same.
 */
START_TEST(addr_lookup_reloads_a_rewrite_that_kept_size_and_mtime)
{
	static const char other_form[] =
	    "{\"p\": \"B test.\", \"m\": [{\"role\": \"user\", \"content\": \"hi\"}],"
	    " \"s\": {\"type\": \"object\", \"required\": [\"b\"]}}";
	char etag[HTTP_ETAG_MAX], path[PATH_MAX];
	struct timespec times[2];
	const struct addr *a;
	struct stat st;
	const char *why;

	ck_assert_uint_eq(sizeof(other_form), sizeof(good_form));
	make_tmp();
	put("root/x/form.json", good_form);
	snprintf(path, sizeof(path), "%s/root/x/form.json", tmp);
	ck_assert_int_eq(stat(path, &st), 0);
	/* older than the racy window, so only the stamps can tell */
	usleep((ADDR_RACY_SEC + 1) * 1000000 + 100000);
	a = lookup("x", &why);
	ck_assert_ptr_nonnull(a);
	ck_assert(a->ok && !a->racy);
	memcpy(etag, answer_of(a)->etag, sizeof(etag));
	put("root/x/form.json", other_form);
	times[0] = st.st_atim;
	times[1] = st.st_mtim;
	ck_assert_int_eq(utimensat(AT_FDCWD, path, times, 0), 0);
	ck_assert_int_eq(stat(path, &st), 0);
	ck_assert_int_eq(st.st_mtim.tv_sec, a->form_st.mtime.tv_sec);
	ck_assert_int_eq(st.st_mtim.tv_nsec, a->form_st.mtime.tv_nsec);
	usleep(ADDR_RECHECK_SEC * 1000000 + 100000);
	a = lookup("x", &why);
	ck_assert(a->ok);
	ck_assert_str_ne(answer_of(a)->etag, etag);
	ck_assert_ptr_nonnull(strstr(answer_of(a)->json.bytes, "B test."));
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
	tcase_add_test(tc, addr_load_gives_the_conf_the_document_and_the_form);
	tcase_add_test(tc, addr_load_notices_an_executable_hook);
	tcase_add_test(tc, addr_load_reads_again_a_form_changed_while_read);
	suite_add_tcase(s, tc);
	tc = tcase_create("addr_lookup");
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, addr_lookup_refuses_a_symlink_out_of_the_root);
	tcase_add_test(tc, addr_lookup_caches_and_reloads_on_change);
	tcase_add_test(tc, addr_load_reads_relative_references_beside_the_form);
	tcase_add_test(tc, addr_load_reads_nothing_above_the_address);
	tcase_add_test(tc, addr_lookup_reloads_when_a_referenced_file_changes);
	tcase_add_test(
	    tc, addr_lookup_evicts_the_least_recently_used_past_the_budget);
	tcase_add_test(tc, addr_lookup_keeps_a_hundred_small_addresses);
	tcase_add_test(
	    tc, addr_lookup_reloads_a_rewrite_that_kept_size_and_mtime);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(suite_address)
