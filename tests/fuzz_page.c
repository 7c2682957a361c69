/*
 * fuzz_page.c: libFuzzer target for the human page (html.c) over any
 * arrival document.
 *
 * The input goes through the strict parser; an object is an arrival
 * document, and its s, when it compiles, is the form (otherwise the page
 * offers the JSON editor only, as it does for a form without s).  The
 * page must then be built (the buffer's cap is far above what a small
 * input can need), and every page must hold, whatever the document said:
 * it is valid UTF-8; markup that ends a raw text element or opens a
 * comment ("<script", "</script", "<style", "</style", "<!--", matched
 * without regard to case as HTML 5 sec. 13.2.5 does) occurs only as the
 * page's own two scripts and one style sheet; the data block holds no
 * '<', '>', '&', U+2028 or U+2029 and is JSON text; the script and the
 * style sheet are exactly the embedded ones (html_csp names their hashes).
 * Any violation aborts, which libFuzzer reports as a crash.
 *
 * Build: configure --enable-fuzz CC=clang; run: tests/fuzz_page CORPUS
 * (seeds in tests/data/fuzz-page/).
 */
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "base/buf.h"
#include "web/html.h"
#include "parser/json.h"
#include "schema/schema.h"
#include "base/utf8.h"

#define FUZZ_FORM_CAP ((size_t)4 << 20)
#define FUZZ_PAGE_CAP ((size_t)64 << 20)
#define FUZZ_DEPTH 64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char data_open[] =
    "<script type=\"application/json\" id=\"gpt-form\">";

static int
lower(int c)
{
	return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}

/* Occurrences of the lower-case ASCII needle in p[0, len), any case. */
static size_t
count_ci(const char *p, size_t len, const char *needle)
{
	size_t n = strlen(needle), i, j, count = 0;

	for (i = 0; i + n <= len; i++) {
		for (j = 0;
		     j < n && lower((unsigned char)p[i + j]) == needle[j]; j++)
			;
		if (j == n)
			count++;
	}
	return count;
}

static const char *
find(const char *p, size_t len, const char *needle, size_t n)
{
	size_t i;

	for (i = 0; i + n <= len; i++)
		if (memcmp(p + i, needle, n) == 0)
			return p + i;
	return NULL;
}

static void
check_page(const char *p, size_t len)
{
	const char *d, *end, *js;
	size_t dlen;
	struct arena a;
	const struct json_value *v;
	struct json_err err;

	if (!utf8_validate((const unsigned char *)p, len, NULL, NULL))
		abort();
	if (count_ci(p, len, "<script") != 2 ||
	    count_ci(p, len, "</script") != 2 ||
	    count_ci(p, len, "<style") != 1 ||
	    count_ci(p, len, "</style") != 1 || count_ci(p, len, "<!--") != 0)
		abort();
	/* the data block: from its own opening tag to the next end tag */
	if ((d = find(p, len, data_open, sizeof(data_open) - 1)) == NULL)
		abort();
	d += sizeof(data_open) - 1;
	if ((end = find(d, len - (size_t)(d - p), "</script>", 9)) == NULL)
		abort();
	dlen = (size_t)(end - d);
	if (memchr(d, '<', dlen) != NULL || memchr(d, '>', dlen) != NULL ||
	    memchr(d, '&', dlen) != NULL ||
	    find(d, dlen, "\xE2\x80\xA8", 3) != NULL ||
	    find(d, dlen, "\xE2\x80\xA9", 3) != NULL)
		abort();
	arena_init(&a, FUZZ_PAGE_CAP);
	if (json_parse(d, dlen, &a, 256, &v, &err) != JSON_OK)
		abort();
	arena_free(&a);
	/* then the script, the embedded bytes and nothing else */
	js = end + 9;
	if ((size_t)(p + len - js) < 9 + html_page_js_len ||
	    memcmp(js, "\n<script>", 9) != 0 ||
	    memcmp(js + 9, html_page_js, html_page_js_len) != 0 ||
	    strcmp(js + 9 + html_page_js_len,
	        "</script>\n</body>\n</html>\n") != 0)
		abort();
	/* and the style sheet */
	if ((d = find(p, len, "<style>", 7)) == NULL ||
	    (size_t)(p + len - d) < 7 + html_page_css_len + 8 ||
	    memcmp(d + 7, html_page_css, html_page_css_len) != 0 ||
	    memcmp(d + 7 + html_page_css_len, "</style>", 8) != 0)
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct arena form;
	const struct json_value *doc, *s;
	const struct schema *compiled = NULL;
	struct schema_err serr;
	struct json_err jerr;
	struct html_opts o = {"x-</script><!--\xE2\x80\xA8", "\"e</script>\"",
	    "n-</script>\xE2\x80\xA9", 1024, true, NULL};
	struct buf page;
	char *copy = malloc(size ? size : 1);

	if (copy == NULL)
		return 0;
	if (size > 0)
		memcpy(copy, data, size);
	arena_init(&form, FUZZ_FORM_CAP);
	buf_init(&page, FUZZ_PAGE_CAP);
	if (json_parse(copy, size, &form, FUZZ_DEPTH, &doc, &jerr) != JSON_OK ||
	    doc->type != JSON_T_OBJECT)
		goto done;
	s = json_object_get(doc, "s", 1);
	if (s != NULL &&
	    schema_compile(s, &form, NULL, NULL, &compiled, &serr) != SCHEMA_OK)
		compiled = NULL;
	/* the input's length picks the options: with and without them */
	if (html_page(doc, compiled, size % 2 ? &o : NULL, &page) != 0)
		abort();
	/* buf keeps a NUL after its bytes (buf.h) */
	check_page(buf_ptr(&page), buf_len(&page));
done:
	buf_free(&page);
	arena_free(&form);
	free(copy);
	return 0;
}
