/*
 * fuzz_http.c: libFuzzer target for http.c's readers of client bytes:
 * the CGI variables as a web server passes them (http_parse_env), Accept
 * (http_wants_html), If-Match and If-None-Match lists
 * (http_etag_match), Content-Type (http_is_json_type) and
 * CONTENT_LENGTH.
 *
 * The input is split at newlines into the values of REQUEST_METHOD,
 * HTTP_ACCEPT, HTTP_IF_MATCH, HTTP_IF_NONE_MATCH, CONTENT_TYPE,
 * CONTENT_LENGTH and a candidate ETag, in that order (an environment
 * cannot hold NUL, so a NUL ends its value); each variable is an exactly
 * sized copy, so a read past its end is an ASan report.  Beyond "no
 * crash, no hang", the target asserts what the RFCs imply:
 *   - a list that matches an ETag strongly matches it weakly too, and
 *     "*" matches every ETag;
 *   - an accepted Content-Type begins with "application/json", in any
 *     case, after optional whitespace;
 *   - a CONTENT_LENGTH read is the decimal its text says; one refused is
 *     not a run of digits that fits a size_t.
 * Any violation aborts, which libFuzzer reports as a crash.
 *
 * Build: configure --enable-fuzz CC=clang; run: tests/fuzz_http CORPUS
 * (seeds in tests/data/fuzz-http/).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "web/http.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const names[] = {"REQUEST_METHOD", "HTTP_ACCEPT",
    "HTTP_IF_MATCH", "HTTP_IF_NONE_MATCH", "CONTENT_TYPE", "CONTENT_LENGTH"};
#define NVARS (sizeof(names) / sizeof(names[0]))

/* "NAME=value" of exactly the right size; value is n bytes, up to a NUL. */
static char *
var(const char *name, const uint8_t *v, size_t n)
{
	const uint8_t *nul = memchr(v, '\0', n);
	size_t k = strlen(name), len;
	char *s;

	if (nul != NULL)
		n = (size_t)(nul - v);
	len = k + 1 + n + 1;
	if ((s = malloc(len)) == NULL)
		abort();
	memcpy(s, name, k);
	s[k] = '=';
	memcpy(s + k + 1, v, n);
	s[len - 1] = '\0';
	return s;
}

/* Does text say the whole number v, digits only (leading zeros too)? */
static bool
says(const char *text, size_t v)
{
	char want[32];
	size_t n;

	while (text[0] == '0' && text[1] != '\0')
		text++;
	n = (size_t)snprintf(want, sizeof(want), "%zu", v);
	return strlen(text) == n && memcmp(text, want, n) == 0;
}

static bool
digits_that_fit(const char *s)
{
	size_t v = 0;

	if (*s == '\0')
		return false;
	for (; *s != '\0'; s++) {
		if (*s < '0' || *s > '9' || v > (SIZE_MAX - 9) / 10 ||
		    v * 10 > SIZE_MAX - (size_t)(*s - '0'))
			return false;
		v = v * 10 + (size_t)(*s - '0');
	}
	return true;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *env[NVARS + 1], *etag = NULL;
	const uint8_t *p = data, *end = data + size, *nl;
	const char *ct;
	struct http_req req;
	size_t i, nenv = 0;
	char quoted[64];

	for (i = 0; i <= NVARS && p <= end; i++) {
		nl = memchr(p, '\n', (size_t)(end - p));
		if (nl == NULL)
			nl = end;
		if (i < NVARS)
			env[nenv++] = var(names[i], p, (size_t)(nl - p));
		else
			etag = var("E", p, (size_t)(nl - p));
		p = nl + 1;
	}
	env[nenv] = NULL;
	http_parse_env(env, NULL, &req);

	(void)http_wants_html(req.accept);

	/* the candidate ETag as it is, and as a quoted strong one */
	snprintf(
	    quoted, sizeof(quoted), "\"%.40s\"", etag != NULL ? etag + 2 : "");
	if (http_etag_match(req.if_match, quoted, false) &&
	    !http_etag_match(req.if_match, quoted, true))
		abort();
	if (http_etag_match(req.if_none_match, quoted, false) &&
	    !http_etag_match(req.if_none_match, quoted, true))
		abort();
	if (etag != NULL)
		(void)http_etag_match(req.if_none_match, etag + 2, true);
	if (!http_etag_match("*", quoted, false) ||
	    !http_etag_match(" * ", quoted, true))
		abort();

	ct = req.content_type;
	if (http_is_json_type(ct)) {
		while (*ct == ' ' || *ct == '\t')
			ct++;
		if (strncasecmp(ct, "application/json", 16) != 0)
			abort();
	}

	if (req.has_length) {
		const char *text = http_getenv(env, "CONTENT_LENGTH");

		if (text == NULL)
			abort();
		if (!req.bad_length && !says(text, req.content_length))
			abort();
		if (req.bad_length && digits_that_fit(text))
			abort();
	}

	for (i = 0; i < nenv; i++)
		free(env[i]);
	free(etag);
	return 0;
}
