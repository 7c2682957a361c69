/*
 * bench_form.h: the driver the form benchmarks share (bench_validate on
 * the reference form, bench_format on the formats form, bench_dialects on
 * its two dialects' forms).  A benchmark
 * describes its body (the opening text and one generated item) in a
 * struct bench_form and hands it to bench_form_main(), which loads the
 * form, builds the bodies, and times json_parse alone against json_parse +
 * schema_validate: for each body, ROUNDS rounds over the same number of
 * iterations, alternating which goes first; CPU time of the process.
 *
 *   PROG SCHEMA            a table: median MB/s of each, and the overhead
 *   PROG SCHEMA mbps SIZE  one line: median MB/s of parse + validate on
 *                          the SIZE-byte body
 *   PROG SCHEMA dump DIR   write DIR/small.json, DIR/large.json (the same
 *                          bytes, for other validators)
 *
 * Its functions are static, like bench_common.h's: the item generator and
 * the driver (which reseeds before each body) draw from the same rng.
 * Include it once, from the benchmark's own .c.  Benchmark code only;
 * nothing here is built into gpt.fcgi.
 */
#ifndef GPT_BENCH_FORM_H
#define GPT_BENCH_FORM_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "bench_common.h"
#include "base/buf.h"
#include "cli/cli.h"
#include "parser/json.h"
#include "schema/schema.h"

#define ROUNDS 9
#define ROUND_SECONDS 0.15
#define SMALL 300
#define LARGE ((size_t)1 << 20)

/* What differs between the form benchmarks. */
struct bench_form {
	const char *prog; /* the program's name, for its usage line */
	const char *form; /* the form's name, for the table's heading */
	/* The body is head, then items separated by commas, then "]}":
	 * items are added while the body is more than margin bytes short of
	 * the target (one item at least). */
	const char *head;
	size_t margin;
	void (*item)(struct buf *b);
	/* If set, told each body's target before its first item (a generator
	 * may make the small body leaner than the items of the large one). */
	void (*sized)(size_t target);
};

/* A document of about `target` bytes (at least one item). */
static char *
bench_form_body(const struct bench_form *bf, size_t target, size_t *len)
{
	struct buf b;
	bool first = true;

	/* The same bytes for a size, whatever ran before. */
	rng = BENCH_RAND_SEED;
	if (bf->sized != NULL)
		bf->sized(target);
	buf_init(&b, (size_t)64 << 20);
	put(&b, bf->head);
	while (buf_len(&b) + bf->margin < target || first) {
		if (!first)
			put(&b, ",");
		bf->item(&b);
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
bench_body(const struct bench_form *bf, const char *label, size_t target)
{
	double parse[ROUNDS], both[ROUNDS], mp, mb;
	unsigned iters, r;
	size_t len;
	char *body = bench_form_body(bf, target, &len);

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
median_mbps(const struct bench_form *bf, size_t target)
{
	double both[ROUNDS];
	unsigned iters, r;
	size_t len;
	char *body = bench_form_body(bf, target, &len);

	iters = calibrate(body, len);
	for (r = 0; r < ROUNDS; r++)
		both[r] = batch_mbps(body, len, iters, true);
	free(body);
	return median(both, ROUNDS);
}

static int
dump(const struct bench_form *bf, const char *dir)
{
	static const struct {
		const char *name;
		size_t target;
	} bodies[] = {{"small.json", SMALL}, {"large.json", LARGE}};
	char path[4096];
	size_t i, len;

	for (i = 0; i < GPT_ARRAY_LEN(bodies); i++) {
		char *body = bench_form_body(bf, bodies[i].target, &len);
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

/* Parse and compile the form at path into a; its bytes into *bytes, for
 * the caller to free once the form is done with. */
static int
load_form(const char *path, struct arena *a, char **bytes)
{
	struct buf text;
	const struct json_value *root;
	struct json_err err;
	struct schema_err serr;
	size_t len;

	buf_init(&text, (size_t)1 << 20);
	if (cli_slurp(path, &text) == -1)
		return -1;
	*bytes = buf_take(&text, &len);
	if (*bytes == NULL || json_parse(*bytes, len, a, 0, &root, &err) !=
	    JSON_OK) {
		fprintf(stderr, "%s: not strict JSON\n", path);
		return -1;
	}
	if (schema_compile(root, a, NULL, NULL, &form, &serr) != SCHEMA_OK) {
		fprintf(stderr, "%s: refused at %s: %s\n", path,
		    serr.pointer.buf, serr.reason);
		return -1;
	}
	return 0; /* *bytes stay allocated: the form borrows its strings */
}

/* The benchmark's main(): the three uses in the header comment. */
static int
bench_form_main(int argc, char **argv, const struct bench_form *bf)
{
	struct arena form_arena;
	char *bytes = NULL;
	int rc = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: %s SCHEMA [mbps SIZE | dump DIR]\n",
		    bf->prog);
		return 2;
	}
	arena_init(&form_arena, (size_t)64 << 20);
	arena_init(&req, (size_t)1 << 30);
	if (load_form(argv[1], &form_arena, &bytes) == -1)
		return 1;
	if (argc == 4 && strcmp(argv[2], "dump") == 0) {
		rc = dump(bf, argv[3]);
	} else if (argc == 4 && strcmp(argv[2], "mbps") == 0) {
		printf("%.1f\n", median_mbps(bf, strtoul(argv[3], NULL, 10)));
	} else {
		printf("json_parse alone vs json_parse + schema_validate "
		       "(%s; median of %d interleaved rounds)\n",
		    bf->form, ROUNDS);
		printf("%-6s %10s %12s %14s %10s\n", "body", "size",
		    "parse MB/s", "+validate MB/s", "overhead");
		bench_body(bf, "small", SMALL);
		bench_body(bf, "large", LARGE);
	}
	arena_free(&req);
	arena_free(&form_arena);
	free(bytes);
	return rc;
}

#endif /* GPT_BENCH_FORM_H */
