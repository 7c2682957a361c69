/*
 * bench_corpus.c: gpt.fcgi's validator over one case of a corpus: a form
 * and a file of instances, one JSON text a line.  The loop other
 * validators are raced with (bench/corpus.sh): every instance is parsed
 * once, then validated again and again, alone and with its parse.
 *
 *   bench_corpus ADDR INSTANCES.jsonl VERDICTS-OUT [ROUND_S [ROUNDS]]
 *
 * ADDR is an address directory, loaded by the responder's own loader
 * (addr_load): the form is exactly what a server would enforce.  A form
 * that is refused prints refused=1 and its reason, and exits 3.
 *
 * Prints one line of key=value fields (the peers' programs print the same
 * fields, so one summary reads both):
 *   n, parse_fail, valid, invalid, limit   one verdict per non-empty line
 *   load_ns      addr_load of the directory, median of 5
 *   val_ns       validate alone (instances parsed before), per instance,
 *                median of ROUNDS rounds of at least ROUND_S seconds;
 *                val_min, val_max the fastest and slowest round
 *   pv_ns        parse and validate per instance (what an act costs the
 *                responder once its body is read); pv_min, pv_max
 *   mem_per_byte the arena bytes the parse of the instances holds at its
 *                peak, per byte of instance text (all of them at once:
 *                the tree a request keeps while it is validated)
 * Time is this process's CPU clock, so other work on the machine slows it
 * less.  The two modes alternate round by round.
 * VERDICTS-OUT gets one line per instance: index, verdict (valid, invalid,
 * limit, parse-error), keyword, instance pointer, reason.
 * Benchmark code only; nothing here is built into gpt.fcgi.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_common.h"

#include "base/arena.h"
#include "base/file.h"
#include "parser/json.h"
#include "schema/schema.h"
#include "site/address.h"

#define ROUNDS_MAX 64
#define LOADS 5

struct instance {
	const char *text; /* borrowed from the file's bytes */
	size_t len;
	const struct json_value *value; /* NULL: it does not parse */
};

static const struct schema *form;
static struct instance *inst;
static size_t ninst, nparsed;
static struct arena scratch; /* validate alone: reset after each */
static struct arena request; /* parse and validate: reset after each */
static volatile size_t sink; /* keeps the loops' results alive */

static void
pass_validate(void)
{
	struct schema_err err;

	for (size_t i = 0; i < ninst; i++) {
		if (inst[i].value == NULL)
			continue;
		sink += schema_validate(form, inst[i].value, &scratch, &err);
		arena_reset(&scratch);
	}
}

static void
pass_parse_validate(void)
{
	const struct json_value *v;
	struct json_err jerr;
	struct schema_err err;

	for (size_t i = 0; i < ninst; i++) {
		if (inst[i].value == NULL)
			continue;
		if (json_parse(inst[i].text, inst[i].len, &request, 0, &v,
		        &jerr) == JSON_OK)
			sink += schema_validate(form, v, &request, &err);
		arena_reset(&request);
	}
}

/* How many passes make a round of at least round_s seconds. */
static unsigned
calibrate(void (*pass)(void), double round_s)
{
	unsigned n = 1;

	for (;;) {
		double t = now();
		for (unsigned k = 0; k < n; k++)
			pass();
		double dt = now() - t;
		if (dt >= round_s / 4 || n >= 1u << 24)
			return dt <= 0 ? n : (unsigned)(n * round_s / dt) + 1;
		n *= 2;
	}
}

/* One round of n passes: nanoseconds per parsed instance. */
static double
round_ns(void (*pass)(void), unsigned n)
{
	double t = now();

	for (unsigned k = 0; k < n; k++)
		pass();
	return (now() - t) * 1e9 / ((double)n * (double)nparsed);
}

static const char *
verdict_name(enum schema_result r)
{
	switch (r) {
	case SCHEMA_OK:
		return "valid";
	case SCHEMA_INVALID:
		return "invalid";
	default:
		return "limit";
	}
}

static double
range(const double *x, size_t n, int want_max)
{
	double r = x[0];

	for (size_t i = 1; i < n; i++)
		if (want_max ? x[i] > r : x[i] < r)
			r = x[i];
	return r;
}

int
main(int argc, char **argv)
{
	if (argc < 4) {
		fprintf(stderr, "usage: bench_corpus ADDR INSTANCES.jsonl "
		                "VERDICTS-OUT [ROUND_S [ROUNDS]]\n");
		return 2;
	}
	double round_s = argc > 4 ? atof(argv[4]) : 0.2;
	unsigned rounds = argc > 5 ? (unsigned)atoi(argv[5]) : 5;
	if (rounds == 0 || rounds > ROUNDS_MAX || !(round_s > 0)) {
		fprintf(stderr, "bench_corpus: ROUND_S > 0, 1 <= ROUNDS <= %d\n",
		    ROUNDS_MAX);
		return 2;
	}

	/* The load, LOADS times; the last one is kept. */
	static struct addr a;
	double loads[LOADS];
	for (int k = 0; k < LOADS; k++) {
		if (k > 0)
			addr_free(&a);
		double t = now();
		if (addr_load(argv[1], &a, NULL, NULL) == -1) {
			printf("refused=1 reason=\"%s\"\n", a.err);
			return 3;
		}
		loads[k] = (now() - t) * 1e9;
	}
	form = a.schema;

	static struct buf text;
	char why[FILE_WHY_MAX];
	buf_init(&text, (size_t)1 << 32);
	if (file_read_buf(argv[2], &text, why, sizeof(why)) == -1) {
		fprintf(stderr, "bench_corpus: %s: %s\n", argv[2], why);
		return 2;
	}
	FILE *out = fopen(argv[3], "w");
	if (out == NULL) {
		perror(argv[3]);
		return 2;
	}

	/* Every instance parsed once, into one arena that keeps them all. */
	static struct arena trees;
	arena_init(&trees, (size_t)1 << 34);
	arena_init(&scratch, (size_t)1 << 30);
	arena_init(&request, (size_t)1 << 30);
	const char *p = buf_ptr(&text), *end = p + buf_len(&text);
	size_t cap = 1024, nfail = 0, nvalid = 0, nlimit = 0, bytes = 0;
	inst = malloc(cap * sizeof(*inst));
	if (inst == NULL)
		abort();
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *e = nl != NULL ? nl : end;
		if (e > p) {
			if (ninst == cap) {
				cap *= 2;
				inst = realloc(inst, cap * sizeof(*inst));
				if (inst == NULL)
					abort();
			}
			struct instance *in = &inst[ninst];
			struct json_err jerr;
			in->text = p;
			in->len = (size_t)(e - p);
			in->value = NULL;
			bytes += in->len;
			if (json_parse(p, in->len, &trees, 0, &in->value, &jerr) !=
			    JSON_OK) {
				in->value = NULL;
				nfail++;
				fprintf(out, "%zu\tparse-error\t-\t-\t%s\n", ninst,
				    jerr.msg);
			} else {
				struct schema_err err;
				enum schema_result r =
				    schema_validate(form, in->value, &scratch, &err);
				arena_reset(&scratch);
				nparsed++;
				nvalid += r == SCHEMA_OK;
				nlimit += r != SCHEMA_OK && r != SCHEMA_INVALID;
				fprintf(out, "%zu\t%s\t%s\t%s\t%s\n", ninst,
				    verdict_name(r),
				    r == SCHEMA_OK ? "-" : err.keyword,
				    r == SCHEMA_OK ? "-" : err.pointer.buf,
				    r == SCHEMA_OK ? "-" : err.reason);
			}
			ninst++;
		}
		p = e + 1;
	}
	fclose(out);
	double mem = bytes ? (double)arena_peak(&trees) / (double)bytes : 0;
	if (nparsed == 0) {
		printf("refused=0 n=%zu parse_fail=%zu valid=0 invalid=0 limit=0 "
		       "load_ns=%.0f\n",
		    ninst, nfail, median(loads, LOADS));
		return 0;
	}

	unsigned vn = calibrate(pass_validate, round_s);
	unsigned pn = calibrate(pass_parse_validate, round_s);
	double val[ROUNDS_MAX], pv[ROUNDS_MAX], vs[ROUNDS_MAX], ps[ROUNDS_MAX];
	for (unsigned r = 0; r < rounds; r++) {
		if (r % 2 == 0) {
			val[r] = round_ns(pass_validate, vn);
			pv[r] = round_ns(pass_parse_validate, pn);
		} else {
			pv[r] = round_ns(pass_parse_validate, pn);
			val[r] = round_ns(pass_validate, vn);
		}
	}
	memcpy(vs, val, rounds * sizeof(*val));
	memcpy(ps, pv, rounds * sizeof(*pv));
	printf("refused=0 n=%zu parse_fail=%zu valid=%zu invalid=%zu limit=%zu "
	       "load_ns=%.0f val_ns=%.1f val_min=%.1f val_max=%.1f "
	       "pv_ns=%.1f pv_min=%.1f pv_max=%.1f mem_per_byte=%.2f\n",
	    ninst, nfail, nvalid, nparsed - nvalid - nlimit, nlimit,
	    median(loads, LOADS), median(vs, rounds), range(val, rounds, 0),
	    range(val, rounds, 1), median(ps, rounds), range(pv, rounds, 0),
	    range(pv, rounds, 1), mem);
	return 0;
}
