/*
 * re_batch.c: the pattern layer on many patterns and strings at once, for
 * the differential test (tests/re-diff.sh) that compares it with an
 * ECMA-262 engine.
 *
 * Reads from stdin, until its end, records of
 *     P <n>\n<n bytes of pattern>\n S <k>\n
 * followed by k strings, each
 *     <n>\n<n bytes of UTF-8>\n
 * and writes one line per record: "C " (compiled) or "R <reason> "
 * (refused), then one character per string: 1 match, 0 no match, L a
 * limit was hit, E another error.  A malformed record ends the run with
 * status 2.  Trusted input (the test's own corpus); every length is
 * checked against what is left.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "parser/re.h"

struct batch {
	const char *p; /* borrowed: the whole input */
	size_t len;
	size_t pos;
};

/* "<tag><n>\n" (tag may be empty) at the cursor: n, or -1. */
static int
batch_count(struct batch *b, const char *tag, size_t *n)
{
	size_t k = strlen(tag);
	char *end;
	unsigned long long v;

	if (b->len - b->pos < k || memcmp(b->p + b->pos, tag, k) != 0)
		return -1;
	b->pos += k;
	if (b->pos >= b->len || b->p[b->pos] < '0' || b->p[b->pos] > '9')
		return -1;
	v = strtoull(b->p + b->pos, &end, 10);
	if (end >= b->p + b->len || *end != '\n')
		return -1;
	b->pos = (size_t)(end + 1 - b->p);
	*n = (size_t)v;
	return 0;
}

/* n bytes and a newline at the cursor, into *s. */
static int
batch_bytes(struct batch *b, size_t n, const char **s)
{
	if (b->len - b->pos < n || b->len - b->pos - n < 1 ||
	    b->p[b->pos + n] != '\n')
		return -1;
	*s = b->p + b->pos;
	b->pos += n + 1;
	return 0;
}

static char *
read_all(FILE *f, size_t *len)
{
	size_t cap = 1 << 16, n = 0, r;
	char *p = malloc(cap), *q;

	while (p != NULL && (r = fread(p + n, 1, cap - n, f)) > 0) {
		n += r;
		if (n == cap) {
			q = realloc(p, cap * 2);
			if (q == NULL)
				free(p);
			p = q;
			cap *= 2;
		}
	}
	*len = n;
	return p;
}

int
main(void)
{
	struct batch b = {.pos = 0};
	struct arena a;
	char *in, err[256];
	const char *pat, *s;
	size_t plen, k, i, slen;
	const struct re *re;
	static const char verdict[] = "01LEL";

	if ((in = read_all(stdin, &b.len)) == NULL)
		return 2;
	b.p = in;
	arena_init(&a, (size_t)64 << 20);
	while (b.pos < b.len) {
		if (batch_count(&b, "P ", &plen) == -1 ||
		    batch_bytes(&b, plen, &pat) == -1 ||
		    batch_count(&b, "S ", &k) == -1) {
			fprintf(stderr, "re_batch: bad record at %zu\n", b.pos);
			return 2;
		}
		re = re_compile(pat, plen, &a, err, sizeof(err));
		if (re == NULL) {
			for (i = 0; err[i] != '\0'; i++)
				if (err[i] == '\n')
					err[i] = ' ';
			printf("R %s ", err);
		} else
			fputs("C ", stdout);
		for (i = 0; i < k; i++) {
			if (batch_count(&b, "", &slen) == -1 ||
			    batch_bytes(&b, slen, &s) == -1) {
				fprintf(stderr, "re_batch: bad string at %zu\n",
				    b.pos);
				return 2;
			}
			if (re != NULL)
				putchar(verdict[re_search(re, s, slen)]);
		}
		putchar('\n');
		arena_reset(&a);
	}
	arena_free(&a);
	free(in);
	return fflush(stdout) == 0 ? 0 : 1;
}
