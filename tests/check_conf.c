/* check_conf.c: address.conf: defaults, each key, and every refusal. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_main.h"
#include "site/conf.h"

static struct conf
expect_conf(const char *text)
{
	struct conf c;
	char err[CONF_ERR_MAX] = "";

	ck_assert_msg(conf_parse(text, strlen(text), &c, err, sizeof(err)) == 0,
	    "conf_parse refused \"%s\": %s", text, err);
	return c;
}

static void
expect_conf_fail(const char *text, const char *why)
{
	struct conf c;
	char err[CONF_ERR_MAX] = "";

	conf_init(&c);
	c.max_body = 7;
	ck_assert_msg(
	    conf_parse(text, strlen(text), &c, err, sizeof(err)) == -1,
	    "conf_parse accepted \"%s\"", text);
	ck_assert_msg(strstr(err, why) != NULL,
	    "conf_parse(\"%s\") said \"%s\", expected \"%s\"", text, err, why);
	ck_assert_msg(c.max_body == 7, "conf_parse(\"%s\") changed *out", text);
}

START_TEST(conf_init_gives_the_documented_defaults)
{
	struct conf c;

	conf_init(&c);
	ck_assert_uint_eq(c.max_body, 1048576);
	ck_assert_uint_eq(c.hook_timeout, 10);
	ck_assert_uint_eq(c.hook_max_output, 1048576);
	ck_assert_str_eq(c.type, "");
	ck_assert(!c.explain);
}
END_TEST

START_TEST(conf_parse_reads_every_key)
{
	struct conf c = expect_conf("# an address under development\n"
	                            "\n"
	                            "max_body = 2048\n"
	                            "  hook_timeout=3  \n"
	                            "hook_max_output\t=\t100\n"
	                            "type = chat/v1\n"
	                            "failures = explain\r\n");

	ck_assert_uint_eq(c.max_body, 2048);
	ck_assert_uint_eq(c.hook_timeout, 3);
	ck_assert_uint_eq(c.hook_max_output, 100);
	ck_assert_str_eq(c.type, "chat/v1");
	ck_assert(c.explain);
}
END_TEST

START_TEST(conf_parse_keeps_defaults_for_absent_keys)
{
	struct conf c = expect_conf("failures = silent");

	ck_assert_uint_eq(c.max_body, CONF_MAX_BODY_DEFAULT);
	ck_assert(!c.explain);
	c = expect_conf("");
	ck_assert_uint_eq(c.hook_timeout, CONF_HOOK_TIMEOUT_DEFAULT);
}
END_TEST

START_TEST(conf_parse_accepts_range_ends)
{
	ck_assert_uint_eq(expect_conf("max_body = 1").max_body, 1);
	ck_assert_uint_eq(
	    expect_conf("max_body = 1073741824").max_body, CONF_MAX_BODY_MAX);
	ck_assert_uint_eq(
	    expect_conf("hook_timeout = 3600").hook_timeout, 3600);
}
END_TEST

START_TEST(conf_parse_refuses_bad_files)
{
	static const struct {
		const char *text, *why;
	} cases[] = {
	    {"max_bdy = 1\n", "unknown key 'max_bdy'"},
	    {"Max_Body = 1\n", "expected key = value"},
	    {"max_body 10\n", "expected key = value"},
	    {"= 10\n", "expected key = value"},
	    {"type = a\ntype = b\n", "line 2: duplicate key"},
	    /* every problem is listed, an unknown key with its close one */
	    {"max_bdy = 1\nlog = debug\n", "line 1: unknown key 'max_bdy': did "
	                                   "you mean max_body?; line 2: "
	                                   "log must be errors"},
	    {"max_body = 1MB\n", "not '1MB'"},
	    {"max_body = 0\n", "max_body must be a whole number of bytes from "
	                       "1 to 1073741824"},
	    {"max_body = -1\n", "max_body must be a whole number of bytes from "
	                        "1 to 1073741824"},
	    {"max_body = 1e6\n", "max_body must be a whole number of bytes "
	                         "from 1 to 1073741824"},
	    {"max_body = 0x10\n", "max_body must be a whole number of bytes "
	                          "from 1 to 1073741824"},
	    {"max_body =\n", "max_body must be a whole number of bytes from 1 "
	                     "to 1073741824"},
	    {"max_body = 1073741825\n", "max_body must be a whole number of "
	                                "bytes from 1 to 1073741824"},
	    {"max_body = 99999999999999999999999\n", "from 1 to 1073741824"},
	    {"max_body = 10 # comment\n", "max_body must be a whole number of "
	                                  "bytes from 1 to 1073741824"},
	    {"hook_timeout = 0\n", "hook_timeout must be a whole number of "
	                           "seconds from 1 to 3600"},
	    {"hook_timeout = 3601\n", "hook_timeout must be a whole number of "
	                              "seconds from 1 to 3600"},
	    {"hook_max_output = 0\n",
	        "hook_max_output must be a whole number of bytes from 1"},
	    {"failures = verbose\n", "silent or explain"},
	    {"failures = Explain\n", "silent or explain"},
	    {"type = a b\n", "header token"},
	    {"type = caf\xc3\xa9\n", "header token"},
	    {"type = a\"b\n", "header token"},
	    {"type =\n", "type must be"},
	    {"type = "
	     "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
	     "aaaaa\n",
	        "type must be"},
	    {"# ok\nfailures = explain\nnonsense\n", "line 3"},
	};
	size_t i;

	for (i = 0; i < GPT_ARRAY_LEN(cases); i++)
		expect_conf_fail(cases[i].text, cases[i].why);
}
END_TEST

START_TEST(conf_parse_refuses_a_nul_byte)
{
	struct conf c;
	char err[CONF_ERR_MAX];

	ck_assert_int_eq(
	    conf_parse("type = a\0b\n", 11, &c, err, sizeof(err)), -1);
	ck_assert_ptr_nonnull(strstr(err, "NUL"));
}
END_TEST

START_TEST(conf_parse_reads_the_schema_keys)
{
	static const char text[] =
	    "dialect = draft-07\n"
	    "annotations = markdownDescription  x-order\tdefaultSnippets\n"
	    "refs = https://example.com/schemas/=refs http://h/=a/b\n";
	struct conf c;
	char err[CONF_ERR_MAX] = "";

	ck_assert_int_eq(
	    conf_parse(text, strlen(text), &c, err, sizeof(err)), 0);
	ck_assert_int_eq(c.dialect, 2); /* draft-04, draft-06, draft-07 */
	ck_assert_uint_eq(c.nannotations, 3);
	ck_assert_str_eq(c.annotation[0], "markdownDescription");
	ck_assert_str_eq(c.annotation[2], "defaultSnippets");
	ck_assert_uint_eq(c.nrefs, 2);
	ck_assert_str_eq(c.ref_prefix[0], "https://example.com/schemas/");
	ck_assert_str_eq(c.ref_dir[0], "refs");
	ck_assert_str_eq(c.ref_dir[1], "a/b");
	conf_init(&c);
	ck_assert_int_eq(c.dialect, -1);
	ck_assert_uint_eq(c.nannotations, 0);
	ck_assert_uint_eq(c.nrefs, 0);
}
END_TEST

START_TEST(conf_parse_refuses_bad_schema_keys)
{
	expect_conf_fail("dialect = draft-03\n", "dialect must be");
	expect_conf_fail("dialect =\n", "dialect must be");
	expect_conf_fail("annotations =\n", "annotations must be");
	expect_conf_fail("refs = https://x/\n", "URI-PREFIX=DIR");
	expect_conf_fail("refs = https://x/=../up\n", "inside the address");
	expect_conf_fail("refs = https://x/=/etc\n", "inside the address");
	expect_conf_fail("refs = =dir\n", "URI-PREFIX=DIR");
}
END_TEST

START_TEST(conf_root_parse_reads_index)
{
	struct conf_root r = {true};
	char err[CONF_ERR_MAX];

	ck_assert_int_eq(conf_root_parse("", 0, &r, err, sizeof(err)), 0);
	ck_assert(!r.index);
	ck_assert_int_eq(
	    conf_root_parse("# x\nindex = yes\n", 16, &r, err, sizeof(err)), 0);
	ck_assert(r.index);
	ck_assert_int_eq(
	    conf_root_parse("index = on\n", 11, &r, err, sizeof(err)), -1);
	ck_assert_ptr_nonnull(strstr(err, "yes or no, not 'on'"));
	ck_assert_int_eq(conf_root_parse("index = no\nindex = no\n", 22, &r,
	                     err, sizeof(err)),
	    -1);
	ck_assert_ptr_nonnull(strstr(err, "line 2: duplicate key"));
	ck_assert_int_eq(
	    conf_root_parse("max_body = 1\n", 13, &r, err, sizeof(err)), -1);
	ck_assert_ptr_nonnull(strstr(err, "unknown key 'max_body'"));
}
END_TEST

START_TEST(conf_load_of_a_missing_file_gives_defaults)
{
	struct conf c;
	char err[CONF_ERR_MAX];

	c.max_body = 3;
	ck_assert_int_eq(
	    conf_load("/nonexistent/address.conf", &c, err, sizeof(err)), 0);
	ck_assert_uint_eq(c.max_body, CONF_MAX_BODY_DEFAULT);
}
END_TEST

START_TEST(conf_load_reads_a_file_and_refuses_a_symlink)
{
	char dir[] = "/tmp/check_conf.XXXXXX", path[64], link[64];
	char err[CONF_ERR_MAX];
	struct conf c;
	FILE *f;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/address.conf", dir);
	snprintf(link, sizeof(link), "%s/link.conf", dir);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs("max_body = 99\n", f);
	fclose(f);
	ck_assert_int_eq(conf_load(path, &c, err, sizeof(err)), 0);
	ck_assert_uint_eq(c.max_body, 99);
	ck_assert_int_eq(symlink(path, link), 0);
	ck_assert_int_eq(conf_load(link, &c, err, sizeof(err)), -1);
	ck_assert_int_eq(conf_load(dir, &c, err, sizeof(err)), -1);
	unlink(link);
	unlink(path);
	rmdir(dir);
}
END_TEST

/* The hook_env strings of c, as "NAME=value;" each, for comparison. */
static void
hook_env_text(const struct conf *c, char *out, size_t outlen)
{
	const char *p = c->hook_env;
	size_t used = 0;
	unsigned k;

	out[0] = '\0';
	for (k = 0; k < c->hook_env_count; k++, p += strlen(p) + 1) {
		int n = snprintf(out + used, outlen - used, "%s;", p);

		ck_assert(n >= 0 && (size_t)n < outlen - used);
		used += (size_t)n;
	}
}

START_TEST(conf_parse_reads_hook_env_in_order)
{
	static const struct {
		const char *text, *want;
	} cases[] = {
	    {"hook_env = DB=/srv/db.sqlite\n", "DB=/srv/db.sqlite;"},
	    {"hook_env=A=1\nhook_env = b_2 = x\n", NULL},
	    {"hook_env = A=1\nmax_body = 9\nhook_env = _B=two words \n",
	        "A=1;_B=two words;"},
	    {"hook_env = EMPTY=\n", "EMPTY=;"},
	    {"hook_env = URL=postgres://u@h/db?x=1\n",
	        "URL=postgres://u@h/db?x=1;"},
	    {"hook_env = PATH=/opt/venv/bin:/usr/bin:/bin\n",
	        "PATH=/opt/venv/bin:/usr/bin:/bin;"},
	    {"max_body = 9\n", ""},
	};
	char got[CONF_HOOK_ENV_BYTES * 2];
	size_t i;

	for (i = 0; i < GPT_ARRAY_LEN(cases); i++) {
		struct conf c;

		if (cases[i].want == NULL) {
			/* "b_2 = x": a blank before '=' is not a name */
			expect_conf_fail(cases[i].text, "NAME=value");
			continue;
		}
		c = expect_conf(cases[i].text);
		hook_env_text(&c, got, sizeof(got));
		ck_assert_msg(strcmp(got, cases[i].want) == 0,
		    "\"%s\": hook_env %s, expected %s", cases[i].text, got,
		    cases[i].want);
	}
}
END_TEST

START_TEST(conf_parse_refuses_bad_hook_env)
{
	static const struct {
		const char *text, *why;
	} cases[] = {
	    {"hook_env = DB\n", "NAME=value"},
	    {"hook_env = =x\n", "NAME=value"},
	    {"hook_env = 1DB=x\n", "NAME=value"},
	    {"hook_env = D-B=x\n", "NAME=value"},
	    {"hook_env =\n", "NAME=value"},
	    {"hook_env = DB=a\tb\n", "control character"},
	    {"hook_env = GPT_ACTOR=root\n", "set by gpt.fcgi"},
	    {"hook_env = GPT_ADDRESS=/etc\n", "set by gpt.fcgi"},
	    {"hook_env = GPT_ANYTHING=1\n", "set by gpt.fcgi"},
	    {"hook_env = CONTENT_LENGTH=0\n", "set by gpt.fcgi"},
	    {"hook_env = REMOTE_ADDR=10.0.0.1\n", "set by gpt.fcgi"},
	    {"hook_env = DB=a\nhook_env = DB=b\n", "DB given twice"},
	    {"hook_env = D=a\nhook_env = DB=b\nhook_env = D=c\n",
	        "D given twice"},
	};
	char text[8192], why[64];
	size_t i, used = 0;
	int n;

	for (i = 0; i < GPT_ARRAY_LEN(cases); i++)
		expect_conf_fail(cases[i].text, cases[i].why);
	/* A name of 65 bytes. */
	n = snprintf(text, sizeof(text), "hook_env = %065d=x\n", 0);
	ck_assert(n > 0);
	text[11] = 'N';
	expect_conf_fail(text, "NAME=value");
	/* One variable more than CONF_HOOK_ENV_MAX. */
	for (i = 0; i <= CONF_HOOK_ENV_MAX; i++) {
		n = snprintf(
		    text + used, sizeof(text) - used, "hook_env = V%zu=x\n", i);
		ck_assert(n > 0);
		used += (size_t)n;
	}
	snprintf(why, sizeof(why), "more than %d variables", CONF_HOOK_ENV_MAX);
	expect_conf_fail(text, why);
	/* Exactly CONF_HOOK_ENV_MAX is fine. */
	text[used - strlen("hook_env = V16=x\n")] = '\0';
	ck_assert_uint_eq(expect_conf(text).hook_env_count, CONF_HOOK_ENV_MAX);
	/* Past CONF_HOOK_ENV_BYTES with few variables. */
	used = (size_t)snprintf(text, sizeof(text), "hook_env = A=");
	memset(text + used, 'a', 3000);
	used += 3000;
	used += (size_t)snprintf(
	    text + used, sizeof(text) - used, "\nhook_env = B=");
	memset(text + used, 'b', 3000);
	used += 3000;
	text[used++] = '\n';
	text[used] = '\0';
	expect_conf_fail(text, "bytes");
}
END_TEST

START_TEST(conf_parse_reads_each_log_level)
{
	static const struct {
		const char *text;
		enum log_level level;
	} cases[] = {
	    {"", LOG_LEVEL_ALL},
	    {"log = errors\n", LOG_LEVEL_ERRORS},
	    {"log=rejections", LOG_LEVEL_REJECTIONS},
	    {"  log\t=  all  \r\n", LOG_LEVEL_ALL},
	};
	size_t i;

	for (i = 0; i < GPT_ARRAY_LEN(cases); i++) {
		struct conf c = expect_conf(cases[i].text);

		ck_assert_msg(c.log == cases[i].level, "\"%s\" gave level %d",
		    cases[i].text, (int)c.log);
	}
}
END_TEST

START_TEST(conf_parse_refuses_bad_log_levels)
{
	static const struct {
		const char *text, *why;
	} cases[] = {
	    {"log = debug\n", "log must be errors, rejections or all"},
	    {"log = Errors\n", "log must be"},
	    {"log = \n", "log must be"},
	    {"log = errors all\n", "log must be"},
	    {"log = error\n", "log must be"},
	    {"log = errors\nlog = all\n", "line 2: duplicate key 'log'"},
	    {"logs = all\n", "unknown key 'logs'"},
	};
	size_t i;

	for (i = 0; i < GPT_ARRAY_LEN(cases); i++)
		expect_conf_fail(cases[i].text, cases[i].why);
}
END_TEST

/* The shared store's keys: store_pg (only in a build with libpq),
 * store_scope and task_lease. */
START_TEST(conf_parse_reads_the_shared_store_keys)
{
	struct conf c;

	conf_init(&c);
	ck_assert_str_eq(c.store_pg, "");
	ck_assert_str_eq(c.store_scope, "");
	ck_assert_uint_eq(c.task_lease, CONF_TASK_LEASE_DEFAULT);
	c = expect_conf("store_scope = ledger-v2\ntask_lease = 3\n");
	ck_assert_str_eq(c.store_scope, "ledger-v2");
	ck_assert_uint_eq(c.task_lease, 3);
	c = expect_conf("task_lease = 600\n");
	ck_assert_uint_eq(c.task_lease, 600);
	expect_conf_fail("task_lease = 2\n",
	    "task_lease must be a whole number of seconds from 3 to 600");
	expect_conf_fail("task_lease = 601\n",
	    "task_lease must be a whole number of seconds from 3 to 600");
	expect_conf_fail("store_scope = a b\n", "store_scope must be");
	expect_conf_fail("store_scope =\n", "store_scope must be");
	expect_conf_fail("store_pg =\n", "store_pg must be");
#ifdef HAVE_LIBPQ
	c = expect_conf("store_pg = host=/run/postgresql dbname=gpt\n");
	ck_assert_str_eq(c.store_pg, "host=/run/postgresql dbname=gpt");
#else
	expect_conf_fail("store_pg = dbname=gpt\n", "built without");
#endif
}
END_TEST

static Suite *
suite_conf(void)
{
	Suite *s = suite_create("conf");
	TCase *tc;

	tc = tcase_create("conf_init");
	tcase_add_test(tc, conf_init_gives_the_documented_defaults);
	suite_add_tcase(s, tc);
	tc = tcase_create("conf_parse");
	tcase_add_test(tc, conf_parse_reads_every_key);
	tcase_add_test(tc, conf_parse_keeps_defaults_for_absent_keys);
	tcase_add_test(tc, conf_parse_accepts_range_ends);
	tcase_add_test(tc, conf_parse_refuses_bad_files);
	tcase_add_test(tc, conf_parse_reads_the_shared_store_keys);
	tcase_add_test(tc, conf_parse_refuses_a_nul_byte);
	tcase_add_test(tc, conf_parse_reads_hook_env_in_order);
	tcase_add_test(tc, conf_parse_refuses_bad_hook_env);
	tcase_add_test(tc, conf_parse_reads_the_schema_keys);
	tcase_add_test(tc, conf_parse_refuses_bad_schema_keys);
	tcase_add_test(tc, conf_parse_reads_each_log_level);
	tcase_add_test(tc, conf_parse_refuses_bad_log_levels);
	suite_add_tcase(s, tc);
	tc = tcase_create("conf_load");
	tcase_add_test(tc, conf_root_parse_reads_index);
	tcase_add_test(tc, conf_load_of_a_missing_file_gives_defaults);
	tcase_add_test(tc, conf_load_reads_a_file_and_refuses_a_symlink);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(suite_conf)
