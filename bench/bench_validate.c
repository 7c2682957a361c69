/*
 * bench_validate.c: what validation adds to parsing, on the reference form
 * (schemas/styled-text.schema.json).
 *
 * Two generated bodies that conform to the form, about 300 B and about
 * 1 MB: trees of text and styled spans, links with URLs (the pattern
 * keyword), non-ASCII text and escapes.  For each body, ROUNDS rounds; a
 * round times json_parse alone and json_parse + schema_validate over the
 * same number of iterations, alternating which goes first.  Prints the
 * median MB/s of each and the validation overhead (target: at most +50%
 * over parsing alone).  Times are CPU time of the process, so that other
 * load on the machine disturbs the ratio less.
 *
 *   bench_validate SCHEMA            the table above
 *   bench_validate SCHEMA mbps SIZE  one line: median MB/s of parse +
 *                                    validate on the SIZE-byte body
 *   bench_validate SCHEMA dump DIR   write DIR/small.json, DIR/large.json
 *                                    (the same bytes, for other validators)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "arena.h"
#include "bench_common.h"
#include "buf.h"
#include "cli.h"
#include "json.h"
#include "schema.h"

#define ROUNDS 9
#define ROUND_SECONDS 0.15
#define SMALL 300
#define LARGE ((size_t)1 << 20)

static const char *const words[] = {
    "Hello, ", "world", " and ", "caf\xC3\xA9 ", "\\\"quoted\\\" ",
    "line\\nbreak ", "\xE6\x97\xA5\xE6\x9C\xAC\xE8\xAA\x9E ", "na\\u00efve ",
    "the quick brown fox jumps over the lazy dog. ", "\xF0\x9F\x98\x80 ",
};
static const char *const styles[] = {
    "plain", "bold", "italic", "underline", "strike", "code", "quote",
    "heading",
};

/* A node at depth (1 to 4): mostly text, sometimes a span of children. */
static void
node(struct buf *b, unsigned depth)
{
	unsigned k, n;

	if (depth == 4 || next_rand() % 3 != 0) {
		put(b, "\"");
		n = 1 + next_rand() % 3;
		for (k = 0; k < n; k++)
			put(b, words[next_rand() % GPT_ARRAY_LEN(words)]);
		put(b, "\"");
		return;
	}
	if (next_rand() % 4 == 0) {
		char url[96];

		snprintf(url, sizeof(url),
		    "{\"style\":\"link\",\"href\":\"https://example.org/p/%u?q=%u\","
		    "\"children\":[",
		    next_rand() % 100000, next_rand() % 1000);
		put(b, url);
	} else {
		put(b, "{\"style\":\"");
		put(b, styles[next_rand() % GPT_ARRAY_LEN(styles)]);
		put(b, "\",\"children\":[");
	}
	n = 1 + next_rand() % 3;
	for (k = 0; k < n; k++) {
		if (k > 0)
			put(b, ",");
		node(b, depth + 1);
	}
	put(b, "]}");
}

/* A document of about `target` bytes. */
static char *
make_body(size_t target, size_t *len)
{
	struct buf b;
	bool first = true;

	rng = BENCH_RAND_SEED; /* the same bytes for a size, whatever ran before */
	buf_init(&b, (size_t)64 << 20);
	put(&b, "{\"title\":\"Benchmark\",\"nodes\":[");
	while (b.len + 60 < target || first) {
		if (!first)
			put(&b, ",");
		node(&b, 1);
		first = false;
	}
	put(&b, "]}");
	return buf_take(&b, len);
}

static struct arena req;
static const struct schema *form;

static void
run(const char *body, size_t len, unsigned iters, bool validate)
{
	const struct json_value *v;
	struct json_err err;
	struct schema_err serr;
	unsigned i;

	for (i = 0; i < iters; i++) {
		if (json_parse(body, len, &req, 0, &v, &err) != JSON_OK) {
			fprintf(stderr, "json_parse: %s at %zu\n", err.msg,
			    err.offset);
			exit(1);
		}
		if (validate && schema_validate(form, v, &req, &serr) !=
		    SCHEMA_OK) {
			fprintf(stderr, "the body fails the form at %s: %s\n",
			    serr.pointer.buf, serr.reason);
			exit(1);
		}
		arena_reset(&req);
	}
}

/* Iterations for a round of about ROUND_SECONDS of parse + validate. */
static unsigned
calibrate(const char *body, size_t len)
{
	unsigned iters = 1;
	double t;

	for (;;) {
		t = now();
		run(body, len, iters, true);
		if ((t = now() - t) > ROUND_SECONDS / 4 || iters > (1u << 28))
			break;
		iters *= 2;
	}
	return (unsigned)(iters * (ROUND_SECONDS / t)) + 1;
}

/* MB/s of one batch of iters parses (and validations) of body. */
static double
batch_mbps(const char *body, size_t len, unsigned iters, bool validate)
{
	double t = now();

	run(body, len, iters, validate);
	return (double)len * iters / 1e6 / (now() - t);
}

static void
bench_body(const char *label, size_t target)
{
	double parse[ROUNDS], both[ROUNDS], mp, mb;
	unsigned iters, r;
	size_t len;
	char *body = make_body(target, &len);

	iters = calibrate(body, len);
	for (r = 0; r < ROUNDS; r++) {
		/* Which goes first alternates, so a drift of the machine's
		 * speed within a round favours neither. */
		if (r % 2 == 0) {
			parse[r] = batch_mbps(body, len, iters, false);
			both[r] = batch_mbps(body, len, iters, true);
		} else {
			both[r] = batch_mbps(body, len, iters, true);
			parse[r] = batch_mbps(body, len, iters, false);
		}
	}
	mp = median(parse, ROUNDS);
	mb = median(both, ROUNDS);
	/* Time per byte: validation adds (1/both - 1/parse) to 1/parse. */
	printf("%-6s %8zu B %12.1f %14.1f %+9.0f%%\n", label, len, mp, mb,
	    (mp / mb - 1) * 100);
	free(body);
}

static double
median_mbps(size_t target)
{
	double both[ROUNDS];
	unsigned iters, r;
	size_t len;
	char *body = make_body(target, &len);

	iters = calibrate(body, len);
	for (r = 0; r < ROUNDS; r++)
		both[r] = batch_mbps(body, len, iters, true);
	free(body);
	return median(both, ROUNDS);
}

static int
dump(const char *dir)
{
	static const struct {
		const char *name;
		size_t target;
	} bodies[] = {{"small.json", SMALL}, {"large.json", LARGE}};
	char path[4096];
	size_t i, len;

	for (i = 0; i < GPT_ARRAY_LEN(bodies); i++) {
		char *body = make_body(bodies[i].target, &len);
		FILE *f;

		snprintf(path, sizeof(path), "%s/%s", dir, bodies[i].name);
		if ((f = fopen(path, "wb")) == NULL ||
		    fwrite(body, 1, len, f) != len || fclose(f) != 0) {
			perror(path);
			return 1;
		}
		free(body);
	}
	return 0;
}

/* Parse and compile the form at path into a (process lifetime). */
static int
load_form(const char *path, struct arena *a)
{
	struct buf text;
	const struct json_value *root;
	struct json_err err;
	struct schema_err serr;
	char *bytes;
	size_t len;

	buf_init(&text, (size_t)1 << 20);
	if (cli_slurp(path, &text) == -1)
		return -1;
	bytes = buf_take(&text, &len);
	if (bytes == NULL || json_parse(bytes, len, a, 0, &root, &err) !=
	    JSON_OK) {
		fprintf(stderr, "%s: not strict JSON\n", path);
		return -1;
	}
	if (schema_compile(root, a, NULL, NULL, &form, &serr) != SCHEMA_OK) {
		fprintf(stderr, "%s: refused at %s: %s\n", path,
		    serr.pointer.buf, serr.reason);
		return -1;
	}
	return 0; /* bytes stay allocated: the form borrows its strings */
}

int
main(int argc, char **argv)
{
	struct arena form_arena;
	int rc = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: bench_validate SCHEMA [mbps SIZE | "
				"dump DIR]\n");
		return 2;
	}
	arena_init(&form_arena, (size_t)64 << 20);
	arena_init(&req, (size_t)1 << 30);
	if (load_form(argv[1], &form_arena) == -1)
		return 1;
	if (argc == 4 && strcmp(argv[2], "dump") == 0) {
		rc = dump(argv[3]);
	} else if (argc == 4 && strcmp(argv[2], "mbps") == 0) {
		printf("%.1f\n", median_mbps(strtoul(argv[3], NULL, 10)));
	} else {
		printf("json_parse alone vs json_parse + schema_validate "
		       "(styled-text form; median of %d interleaved rounds)\n",
		    ROUNDS);
		printf("%-6s %10s %12s %14s %10s\n", "body", "size",
		    "parse MB/s", "+validate MB/s", "overhead");
		bench_body("small", SMALL);
		bench_body("large", LARGE);
	}
	arena_free(&req);
	arena_free(&form_arena);
	return rc;
}
