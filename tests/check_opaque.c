/*
 * check_opaque.c: the safety net of the view fires.  Built with
 * src/schema/schema_dialect.c again under -DGPT_TEST, where the registry's
 * made-up keyword "testOpaque" is a keyword of every dialect: the compiler
 * reads it and sets a flag no tool describes.  Every tool must then treat
 * its schema as opaque: the page hands it to a JSON editor, the lint and
 * the decoder report name it, --unroll and --strict-openai refuse it with
 * its pointer.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include "base/buf.h"
#include "check_schema.h"
#include "cli/cli.h"
#include "schema/schema_dialect.h"
#include "schema/schema_view.h"
#include "tools/decoder.h"
#include "tools/lint.h"
#include "tools/report.h"
#include "web/html.h"

/* The form: member a carries the made-up keyword. */
#define FORM_WITH(kw)                                                          \
	"{\"type\": \"object\", \"additionalProperties\": false, "             \
	"\"required\": [\"a\"], \"properties\": {\"a\": {\"type\": "           \
	"\"string\", \"maxLength\": 3" kw "}}}"
#define OPAQUE FORM_WITH(", \"testOpaque\": 1")
#define PLAIN FORM_WITH("")

/* The node of /properties/a in the compiled form. */
struct find_a {
	const struct schema_node *n;
};

static int
find_a(void *ctx, const struct schema_node *n)
{
	struct find_a *f = ctx;
	struct schema_view v;

	schema_view_get(n, &v);
	if (v.pointer_len == 13 && memcmp(v.pointer, "/properties/a", 13) == 0)
		f->n = n;
	return 0;
}

START_TEST(the_registry_has_the_made_up_keyword_in_test_builds)
{
	const struct schema_kw_info *r =
	    schema_kw_find(SCHEMA_D_2020_12, "testOpaque", 10);

	ck_assert_ptr_nonnull(r);
	ck_assert_int_eq(r->kw, KW_TEST_OPAQUE);
	ck_assert(!schema_view_describes(KW_TEST_OPAQUE));
	ck_assert(schema_view_describes(KW_MAXLENGTH));
}
END_TEST

START_TEST(the_view_marks_the_schema_undescribed_and_names_the_keyword)
{
	struct arena a;
	struct find_a f = {NULL};
	struct schema_view v;
	const char *name;
	size_t len;

	arena_init(&a, 16 << 20);
	(void)schema_view_each(compile_text(&a, OPAQUE, NULL), find_a, &f);
	ck_assert_ptr_nonnull(f.n);
	schema_view_get(f.n, &v);
	ck_assert(v.undescribed);
	ck_assert_uint_ne(schema_view_opaque(f.n, 0, &name, &len), SIZE_MAX);
	ck_assert_int_eq((int)len, 10);
	ck_assert(memcmp(name, "testOpaque", 10) == 0);
	/* what it does describe stays */
	ck_assert_uint_eq(v.max_length, 3);
	f.n = NULL;
	(void)schema_view_each(compile_text(&a, PLAIN, NULL), find_a, &f);
	schema_view_get(f.n, &v);
	ck_assert(!v.undescribed);
	ck_assert_uint_eq(schema_view_opaque(f.n, 0, &name, &len), SIZE_MAX);
	arena_free(&a);
}
END_TEST

/* How many times the page of schema says "JSON editor here" (a node's
 * "x-opaque"). */
static size_t
page_opaque_count(const char *schema)
{
	struct arena a;
	struct buf doc, page;
	const struct schema *s;
	const char *p, *end;
	size_t n = 0;

	arena_init(&a, 16 << 20);
	buf_init(&doc, 1 << 20);
	buf_init(&page, 8 << 20);
	ck_assert_int_eq(
	    buf_printf(&doc, "{\"p\": \"\", \"m\": [], \"s\": %s}", schema), 0);
	s = compile_text(&a, schema, NULL);
	ck_assert_int_eq(
	    html_page(parse_text(&a, buf_ptr(&doc)), s, NULL, &page), 0);
	p = buf_ptr(&page);
	end = p + buf_len(&page);
	for (; p + 12 <= end; p++)
		n += memcmp(p, "\"x-opaque\":[", 12) == 0;
	buf_free(&page);
	buf_free(&doc);
	arena_free(&a);
	return n;
}

START_TEST(the_page_hands_the_schema_to_a_json_editor)
{
	ck_assert_uint_eq(page_opaque_count(PLAIN), 0);
	ck_assert_uint_eq(page_opaque_count(OPAQUE), 1);
}
END_TEST

static bool
has_site(
    const struct report_site *s, size_t n, const char *pointer, const char *kw)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strcmp(s[i].pointer, pointer) == 0 &&
		    strcmp(s[i].keyword, kw) == 0)
			return true;
	return false;
}

START_TEST(the_lint_and_the_decoder_report_name_it)
{
	struct arena a, scratch;
	struct lint_facts f;
	struct report r;
	const struct schema *s;
	size_t i, named = 0, decoders = 0;

	arena_init(&a, 16 << 20);
	arena_init(&scratch, 16 << 20);
	s = compile_text(&a, OPAQUE, NULL);
	report_init(&r, "form");
	ck_assert_int_eq(lint_facts(s, OPAQUE, strlen(OPAQUE), &f), 0);
	lint_check(&f, &scratch, &r);
	ck_assert_int_eq(decoder_report(&f, &r), 0);
	for (i = 0; i < r.count; i++)
		if (strcmp(r.problems[i].rule, "keyword-opaque") == 0) {
			ck_assert_str_eq(
			    r.problems[i].pointer, "/properties/a");
			ck_assert_ptr_nonnull(
			    strstr(r.problems[i].reason, "\"testOpaque\""));
			named++;
		}
	ck_assert_uint_eq(named, 1);
	/* every decoder either refuses it or leaves it to gpt.fcgi */
	for (i = 0; i < r.ndecoders; i++) {
		const struct report_decoder *d = &r.decoders[i];

		ck_assert_msg(has_site(d->refused_by, d->nrefused,
		                  "/properties/a", "testOpaque") ||
		                  has_site(d->ignores, d->nignores,
		                      "/properties/a", "testOpaque"),
		    "%s does not name testOpaque", d->id);
		decoders++;
	}
	ck_assert_uint_gt(decoders, 0);
	lint_facts_free(&f);
	report_free(&r);
	/* and the plain form has no such warning */
	s = compile_text(&a, PLAIN, NULL);
	report_init(&r, "form");
	ck_assert_int_eq(lint_facts(s, PLAIN, strlen(PLAIN), &f), 0);
	lint_check(&f, &scratch, &r);
	for (i = 0; i < r.count; i++)
		ck_assert_str_ne(r.problems[i].rule, "keyword-opaque");
	lint_facts_free(&f);
	report_free(&r);
	arena_free(&scratch);
	arena_free(&a);
}
END_TEST

/* Run cmd (argv, with the form's file last) with stderr in a file; its
 * status, and stderr's text in err (cap bytes). */
static int
run_tool(char **argv, int argc, const char *form, char *err, size_t cap)
{
	char dir[] = "/tmp/check_opaque.XXXXXX", path[64], errpath[64];
	FILE *f;
	int status, saved, fd;
	size_t n;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/form.json", dir);
	snprintf(errpath, sizeof(errpath), "%s/err", dir);
	ck_assert_ptr_nonnull(f = fopen(path, "w"));
	fputs(form, f);
	fclose(f);
	argv[argc - 1] = path;
	fflush(stderr);
	fflush(stdout);
	saved = dup(2);
	ck_assert_int_ge(
	    fd = open(errpath, O_WRONLY | O_CREAT | O_TRUNC, 0600), 0);
	dup2(fd, 2);
	close(fd);
	status = argv[0][2] == 'u' ? cli_unroll(argc, argv)
	                           : cli_strict_openai(argc, argv);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	ck_assert_ptr_nonnull(f = fopen(errpath, "r"));
	n = fread(err, 1, cap - 1, f);
	err[n] = '\0';
	fclose(f);
	unlink(errpath);
	unlink(path);
	rmdir(dir);
	return status;
}

START_TEST(unroll_and_strict_openai_refuse_it_with_its_pointer)
{
	char err[4096];
	char *unroll[] = {"--unroll", "2", NULL};
	char *strict[] = {"--strict-openai", NULL};

	ck_assert_int_eq(run_tool(unroll, 3, OPAQUE, err, sizeof(err)), 1);
	ck_assert_msg(
	    strstr(err, "cannot unroll at /properties/a/testOpaque") != NULL,
	    "%s", err);
	ck_assert_int_eq(run_tool(strict, 2, OPAQUE, err, sizeof(err)), 1);
	ck_assert_msg(strstr(err, "at /properties/a/testOpaque: testOpaque: a "
	                          "keyword the tools do not describe") != NULL,
	    "%s", err);
	/* the same form without it: strict mode takes it */
	ck_assert_int_eq(run_tool(unroll, 3, PLAIN, err, sizeof(err)), 0);
	ck_assert_int_eq(run_tool(strict, 2, PLAIN, err, sizeof(err)), 0);
}
END_TEST

static Suite *
suite_opaque(void)
{
	Suite *s = suite_create("opaque");
	TCase *k = tcase_create("Core");

	tcase_add_test(k, the_registry_has_the_made_up_keyword_in_test_builds);
	tcase_add_test(
	    k, the_view_marks_the_schema_undescribed_and_names_the_keyword);
	tcase_add_test(k, the_page_hands_the_schema_to_a_json_editor);
	tcase_add_test(k, the_lint_and_the_decoder_report_name_it);
	tcase_add_test(k, unroll_and_strict_openai_refuse_it_with_its_pointer);
	suite_add_tcase(s, k);
	return s;
}

CHECK_MAIN(suite_opaque)
