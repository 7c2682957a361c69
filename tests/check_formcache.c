/*
 * check_formcache.c: the form cache's reader on the writer's own file and
 * on files forged from it (the checksums set right again, so only the
 * reader's layout checks stand between them and a hit).  The shell test
 * tests/formcache.sh covers the cache through the binary.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "site/address.h"
#include "responder/answer.h"
#include "base/buf.h"
#include "check_main.h"
#include "base/file.h"
#include "responder/formcache.h"
#include "base/hash.h"
#include "base/log.h"

#define HEAD 32 /* magic, file length, header length, checksum */
#define TABLE (4 * 32)

static char tmp[64];
static struct addr_ref ref;
static char *live;
static size_t live_len;
static pid_t owner; /* the runner, not a test's fork, removes tmp */

static uint64_t
get64(const char *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static void
put64(char *p, uint64_t v)
{
	memcpy(p, &v, sizeof(v));
}

static void
put_file(const char *rel, const char *text)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", tmp, rel);
	f = fopen(path, "w");
	if (f == NULL || fputs(text, f) == EOF || fclose(f) != 0)
		abort();
}

/* One address and the file the writer stores for it, made once in the
 * runner's process (each test's fork inherits them). */
static void
make_live(void)
{
	char path[PATH_MAX], why[FILE_WHY_MAX];
	const char *reason;
	const struct addr *a;
	struct buf b;

	log_set_level(LOG_LEVEL_ERRORS);
	snprintf(tmp, sizeof(tmp), "/tmp/check_formcache.XXXXXX");
	if (mkdtemp(tmp) == NULL)
		abort();
	snprintf(path, sizeof(path), "%s/cache", tmp);
	if (mkdir(path, 0700) == -1 || setenv("GPT_FORM_CACHE", path, 1) != 0)
		abort();
	snprintf(ref.dir, sizeof(ref.dir), "%s/a", tmp);
	if (mkdir(ref.dir, 0700) == -1)
		abort();
	put_file("a/form.json", "{\"p\": \"A form.\", \"m\": [], \"s\": "
	                        "{\"type\": \"object\"}}\n");
	/* a file changed within ADDR_RACY_SEC is not cached */
	sleep(ADDR_RACY_SEC + 1);
	formcache_configure();
	a = formcache_lookup(
	    &ref, true, false, answer_build, answer_build_acts, &reason);
	if (a == NULL || !a->ok ||
	    formcache_path(ref.dir, path, sizeof(path)) == -1)
		abort();
	buf_init(&b, FORMCACHE_FILE_MAX);
	if (file_read_buf(path, &b, why, sizeof(why)) == -1)
		abort();
	live = buf_take(&b, &live_len);
	buf_free(&b);
}

static void
rm_live(void)
{
	char cmd[128];

	if (getpid() != owner)
		return;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp);
	if (system(cmd) != 0)
		abort();
}

/* The table's entry i, word w (0 offset, 1 length, 2 head, 3 checksum). */
static char *
entry(char *f, unsigned i, unsigned w)
{
	return f + get64(f + 16) - TABLE + i * 32 + w * 8;
}

START_TEST(the_writers_file_is_read_as_written_for_both_representations)
{
	struct answer_set hit;
	bool html;
	unsigned i;

	for (html = false;; html = true) {
		const struct answer *ans[4];

		ck_assert(
		    formcache_verify(live, live_len, ref.dir, html, &hit));
		ans[0] = &hit.json;
		ans[1] = &hit.json_304;
		ans[2] = &hit.html;
		ans[3] = &hit.html_304;
		for (i = 0; i < 4; i++) {
			ck_assert_ptr_eq(
			    ans[i]->bytes, live + get64(entry(live, i, 0)));
			ck_assert_uint_eq(
			    ans[i]->len, get64(entry(live, i, 1)));
		}
		ck_assert_uint_gt(hit.json.len, 0);
		ck_assert_uint_gt(hit.html.len, 0);
		ck_assert_int_ne(hit.etag[0], '\0');
		if (html)
			break;
	}
}
END_TEST

START_TEST(the_writers_file_is_refused_for_another_directory)
{
	struct answer_set hit;
	char other[PATH_MAX];

	snprintf(other, sizeof(other), "%s/b", tmp);
	ck_assert(!formcache_verify(live, live_len, other, false, &hit));
}
END_TEST

/* Forgeries of the writer's file: each is fixed up (length and
 * checksums right) before the reader sees it, unless raw. */
struct forgery {
	const char *what;
	bool raw;
	/* edit f (room for n + 64 bytes) and return its new length */
	size_t (*edit)(char *f, size_t n);
};

static size_t
cut_a_byte(char *f, size_t n)
{
	(void)f;
	return n - 1;
}

static size_t
flip_a_header_byte(char *f, size_t n)
{
	f[HEAD + 3] ^= 1;
	return n;
}

static size_t
flip_an_answer_byte(char *f, size_t n)
{
	f[get64(entry(f, 0, 0)) + 1] ^= 1;
	f[get64(entry(f, 2, 0)) + 1] ^= 1;
	return n;
}

static size_t
append_bytes(char *f, size_t n)
{
	memset(f + n, 'x', 16);
	return n + 16;
}

static size_t
overlap_two_answers(char *f, size_t n)
{
	/* the JSON 304 read from the JSON answer's bytes */
	put64(entry(f, 1, 0), get64(entry(f, 0, 0)));
	return n;
}

static size_t
open_a_gap(char *f, size_t n)
{
	/* the JSON answer one byte shorter: a byte no answer holds */
	put64(entry(f, 0, 1), get64(entry(f, 0, 1)) - 1);
	return n;
}

static size_t
swap_the_html_answers(char *f, size_t n)
{
	/* each answer in the other's place: the order is the writer's */
	char a[32];

	memcpy(a, entry(f, 2, 0), 32);
	memcpy(entry(f, 2, 0), entry(f, 3, 0), 32);
	memcpy(entry(f, 3, 0), a, 32);
	return n;
}

static size_t
drop_the_etags_nul(char *f, size_t n)
{
	memset(entry(f, 0, 0) - 2 * HTTP_ETAG_MAX, 'e', HTTP_ETAG_MAX);
	return n;
}

static const struct forgery forgeries[] = {
    {"a file cut short by a byte", true, cut_a_byte},
    {"a header byte changed", true, flip_a_header_byte},
    {"an answer byte changed", true, flip_an_answer_byte},
    {"bytes after the last answer", false, append_bytes},
    {"two answers on the same bytes", false, overlap_two_answers},
    {"a byte between two answers", false, open_a_gap},
    {"the answers out of the writer's order", false, swap_the_html_answers},
    {"an ETag that fills its field", false, drop_the_etags_nul},
};

START_TEST(a_forged_file_is_refused_for_both_representations)
{
	const struct forgery *t = &forgeries[_i];
	char *f = malloc(live_len + 64);
	struct answer_set hit;
	size_t n;

	ck_assert_ptr_nonnull(f);
	memcpy(f, live, live_len);
	n = t->edit(f, live_len);
	if (!t->raw)
		formcache_seal(f, n);
	ck_assert_msg(!formcache_verify(f, n, ref.dir, false, &hit),
	    "%s: accepted for JSON", t->what);
	ck_assert_msg(!formcache_verify(f, n, ref.dir, true, &hit),
	    "%s: accepted for the page", t->what);
	free(f);
}
END_TEST

static Suite *
suite_formcache(void)
{
	Suite *s = suite_create("formcache");
	TCase *tc = tcase_create("reader");

	make_live();
	owner = getpid();
	atexit(rm_live);
	tcase_add_test(
	    tc, the_writers_file_is_read_as_written_for_both_representations);
	tcase_add_test(tc, the_writers_file_is_refused_for_another_directory);
	tcase_add_loop_test(tc,
	    a_forged_file_is_refused_for_both_representations, 0,
	    (int)(sizeof(forgeries) / sizeof(forgeries[0])));
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(suite_formcache)
