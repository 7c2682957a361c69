/*
 * fuzz_format.c: libFuzzer target for every format checker and for the
 * URI layer under them.
 *
 * The first byte picks the format (modulo the table's length), the rest
 * is the value, in an exactly sized copy so a read past its end is an
 * ASan report.  A string format gets the value only when it is valid
 * UTF-8 (the checkers' precondition: the JSON parser guarantees it); a
 * number format only when the value is JSON number text.  Beyond "no
 * crash, no hang", the target asserts what the RFCs imply between names:
 * a uri is a uri-reference, an iri and an iri-reference; a hostname is
 * an idn-hostname; an email is an idn-email; a date-time is a date, "T"
 * and a time.  For a valid IRI reference, the normal form must parse,
 * be no longer than the input, and be its own normal form; resolving it
 * against a fixed base must give a reference that parses.  Any violation
 * aborts, which libFuzzer reports as a crash.
 *
 * Build: configure --enable-fuzz CC=clang; run: tests/fuzz_format CORPUS
 * (seeds in tests/data/fuzz-format/).
 */
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "schema/format.h"
#include "parser/json.h"
#include "parser/uri.h"
#include "base/utf8.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static size_t nformats;

static bool
is(const char *name, const char *p, size_t len)
{
	return format_lookup(name, strlen(name))->check(p, len);
}

static void
check_implications(const struct format *f, const char *p, size_t len)
{
	bool ok = f->check(p, len);

	if (!ok)
		return;
	if (strcmp(f->name, "uri") == 0 &&
	    !(is("uri-reference", p, len) && is("iri", p, len) &&
	        is("iri-reference", p, len)))
		abort();
	if (strcmp(f->name, "iri") == 0 && !is("iri-reference", p, len))
		abort();
	if (strcmp(f->name, "uri-reference") == 0 &&
	    !is("iri-reference", p, len))
		abort();
	if (strcmp(f->name, "hostname") == 0 && !is("idn-hostname", p, len))
		abort();
	if (strcmp(f->name, "email") == 0 && !is("idn-email", p, len))
		abort();
	if (strcmp(f->name, "date-time") == 0 &&
	    !(len > 11 && is("date", p, 10) && is("time", p + 11, len - 11)))
		abort();
}

static void
check_uri_layer(const char *p, size_t len)
{
	static const char base_text[] = "http://a/b/c/d;p?q";
	struct uri base, ref, again;
	char *norm, *norm2, *res;
	size_t n, n2, rn;
	struct arena a;

	static const unsigned flags[] = {
	    0, URI_ABSOLUTE, URI_IRI, URI_IRI | URI_ABSOLUTE};
	size_t k;

	/* the format checks' quick path answers as the parser does */
	for (k = 0; k < sizeof(flags) / sizeof(flags[0]); k++)
		if (uri_valid(p, len, flags[k]) !=
		    (uri_parse(p, len, flags[k], &again) == 0))
			abort();
	if (uri_parse(p, len, URI_IRI, &ref) != 0)
		return;
	arena_init(&a, (size_t)1 << 20);
	norm = uri_normalize_arena(p, len, URI_IRI, &a, &n);
	if (norm == NULL || n > len || uri_parse(norm, n, URI_IRI, &again) != 0)
		abort();
	norm2 = uri_normalize_arena(norm, n, URI_IRI, &a, &n2);
	if (norm2 == NULL || n2 != n || memcmp(norm, norm2, n) != 0)
		abort();
	if (uri_parse(base_text, sizeof(base_text) - 1, URI_ABSOLUTE, &base) !=
	    0)
		abort();
	res = uri_resolve_arena(&base, &ref, &a, &rn);
	if (res == NULL || uri_parse(res, rn, URI_IRI, &again) != 0 ||
	    !again.has_scheme)
		abort();
	arena_free(&a);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct format *f;
	char *copy;
	size_t len;

	if (nformats == 0)
		while (format_at(nformats) != NULL)
			nformats++;
	if (size == 0)
		return 0;
	f = format_at(data[0] % nformats);
	len = size - 1;
	if ((copy = malloc(len > 0 ? len : 1)) == NULL)
		return 0;
	memcpy(copy, data + 1, len);
	if ((f->applies & FORMAT_STRINGS) &&
	    utf8_validate((const unsigned char *)copy, len, NULL, NULL)) {
		if (f->check != NULL)
			check_implications(f, copy, len);
		check_uri_layer(copy, len);
	}
	if ((f->applies & FORMAT_NUMBERS) && f->ncheck != NULL) {
		struct arena a;
		const struct json_value *v;
		struct json_err err;

		arena_init(&a, (size_t)1 << 16);
		if (json_parse(copy, len, &a, 4, &v, &err) == JSON_OK &&
		    v->type == JSON_T_NUMBER)
			(void)f->ncheck(v->u.num.text, v->u.num.len);
		arena_free(&a);
	}
	free(copy);
	return 0;
}
