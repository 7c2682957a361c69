/*
 * bench_format.c: the cost of `format`, on a form of twenty formatted
 * fields (bench/formats.schema.json: one of each common format, the
 * numeric OpenAPI ones included).
 *
 * Two generated bodies that conform to the form: one record (about
 * 600 B, the smallest body the form allows) and about 1 MB of records,
 * their values drawn from small pools of realistic text that ajv-formats
 * accepts too, so that both run every check (dates with
 * offsets and fractions, plus-tagged addresses, IPv6 with embedded IPv4,
 * URIs with queries and fragments, templates, patterns).  For each body,
 * ROUNDS rounds timing json_parse alone and json_parse + schema_validate
 * over the same iterations, alternating which goes first.  CPU time.
 *
 *   bench_format SCHEMA            the table above
 *   bench_format SCHEMA mbps SIZE  one line: median MB/s of parse +
 *                                  validate on the SIZE-byte body
 *   bench_format SCHEMA dump DIR   write DIR/small.json, DIR/large.json
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

/* Each field: its name and a pool of conforming values (JSON text). */
static const struct {
	const char *name;
	const char *values[4];
} fields[] = {
    {"at", {"\"2024-02-29T23:59:60Z\"", "\"1998-12-31T15:59:60.123-08:00\"",
        "\"2021-06-01T08:30:06.283185+02:00\"", "\"1963-06-19t08:30:06z\""}},
    {"day", {"\"2024-02-29\"", "\"2000-02-29\"", "\"1999-12-31\"",
        "\"2021-04-30\""}},
    {"clock", {"\"08:30:06Z\"", "\"23:20:50.52+01:00\"", "\"12:34:56-00:00\"",
        "\"00:00:00z\""}},
    {"span", {"\"P4DT12H30M5S\"", "\"PT36H\"", "\"P1Y2M\"", "\"P2W\""}},
    {"mail", {"\"joe.bloggs@example.com\"", "\"first.last+tag@mail.example.net\"",
        "\"te~st@example.org\"", "\"ops_team@sub.example.co.uk\""}},
    {"host", {"\"www.example.com\"", "\"api-1.eu.example.net\"",
        "\"localhost\"", "\"a1.b2.c3.example\""}},
    {"v4", {"\"192.168.0.1\"", "\"10.0.0.255\"", "\"127.0.0.1\"",
        "\"203.0.113.7\""}},
    {"v6", {"\"2001:db8::ff00:42:8329\"", "\"::ffff:192.0.2.128\"", "\"::1\"",
        "\"fe80:0:0:0:200:f8ff:fe21:67cf\""}},
    {"link", {"\"https://example.com/a/b?c=d#e\"",
        "\"http://[::1]:8080/status\"", "\"urn:isbn:0451450523\"",
        "\"mailto:joe@example.com\""}},
    {"ref", {"\"../schemas/a.json#/$defs/x\"", "\"#frag\"", "\"//cdn.example/x.js\"",
        "\"page?x=1\""}},
    {"id", {"\"2eb8aa08-aa98-11ea-b4aa-73b441d16380\"",
        "\"f81d4fae-7dec-11d0-a765-00a0c91e6bf6\"",
        "\"00000000-0000-0000-0000-000000000000\"",
        "\"98D80576-482E-427F-8AB2-A27E8AB2A27E\""}},
    {"tpl", {"\"https://example.com/{user}/repos{?page,per_page}\"",
        "\"{+path*}/here\"", "\"/search{?q,lang:2}\"", "\"{/list*}\""}},
    {"ptr", {"\"/a~1b/0\"", "\"\"", "\"/properties/name\"", "\"/~0tilde\""}},
    {"rel", {"\"0#\"", "\"1/foo/bar\"", "\"0/x\"", "\"2\""}},
    {"re", {"\"^[a-z]+$\"", "\"\\\\d{3}-\\\\d{4}\"", "\"(foo|bar)*baz\"",
        "\"^\\\\p{Letter}+$\""}},
    {"n32", {"2147483647", "-17", "0", "65536"}},
    {"n64", {"9223372036854775807", "-1", "1700000000000", "42"}},
    {"f32", {"3.4028235e38", "1.5", "-0.25", "1e-45"}},
    {"f64", {"1.7976931348623157e308", "2.718281828459045", "-1e-300", "0"}},
    {"blob", {"\"aGVsbG8gd29ybGQ=\"", "\"QUJD\"", "\"\"", "\"+/+/AA==\""}},
};

static void
record(struct buf *b)
{
	size_t i;

	put(b, "{");
	for (i = 0; i < GPT_ARRAY_LEN(fields); i++) {
		if (i > 0)
			put(b, ",");
		put(b, "\"");
		put(b, fields[i].name);
		put(b, "\":");
		put(b, fields[i].values[next_rand() % 4]);
	}
	put(b, "}");
}

/* A document of about `target` bytes (at least one record). */
static char *
make_body(size_t target, size_t *len)
{
	struct buf b;
	bool first = true;

	rng = BENCH_RAND_SEED; /* the same bytes for a size, whatever ran before */
	buf_init(&b, (size_t)64 << 20);
	put(&b, "{\"records\":[");
	while (b.len + 700 < target || first) {
		if (!first)
			put(&b, ",");
		record(&b);
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
		fprintf(stderr, "usage: bench_format SCHEMA [mbps SIZE | "
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
		       "(formats form; median of %d interleaved rounds)\n",
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
