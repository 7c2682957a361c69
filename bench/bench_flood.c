/*
 * bench_flood.c: hash flooding, crafted against random bodies of the same
 * shape and size, in one run.
 *
 * Two floods of about 1 MiB each, the two the unkeyed hashes allowed:
 *   members: one object of 8-byte member names (about 87,000), parsed;
 *   unique:  one array of 8-byte strings (about 95,000), parsed and
 *            validated against {"uniqueItems": true}.
 * The crafted names fall in the first 1,024 slots of the old tables
 * (tests/flood.h: bits 10 to 17 of the old hash zero, which the old
 * 2^18-slot tables probed); the random ones are the first names of the
 * same counter.  Each body is timed ROUNDS times (CPU time), crafted and
 * random alternating, and the medians and their ratio are printed
 * (target: crafted at most 2x random).  `bench_flood N` runs N rounds
 * (odd, at most ROUNDS).  Uses only the public API, so the same file
 * measures an older libgpt.a too.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "bench_common.h"
#include "parser/json.h"
#include "schema/schema.h"
#include "../tests/flood.h"

#define ROUNDS 7

static int rounds = ROUNDS;
#define NAME_LEN 8
#define BODY_TARGET ((size_t)1 << 20)

static struct arena arena, form_arena;

/* {"<name>":0,...} or ["<name>",...] of about BODY_TARGET bytes. */
static char *
make_body(bool object, bool crafted, size_t *len)
{
	size_t per = object ? NAME_LEN + 5 : NAME_LEN + 3;
	size_t count = (BODY_TARGET - 2) / per, o = 0, i;
	uint64_t (*h)(const char *, size_t) =
	    object ? flood_old_member_hash : flood_old_string_hash;
	char *names = flood_names(h, crafted ? 10 : 0, crafted ? 18 : 0,
	    count, NAME_LEN);
	char *s = malloc(count * per + 3);

	if (names == NULL || s == NULL)
		abort();
	s[o++] = object ? '{' : '[';
	for (i = 0; i < count; i++) {
		if (i > 0)
			s[o++] = ',';
		s[o++] = '"';
		memcpy(s + o, names + i * NAME_LEN, NAME_LEN);
		o += NAME_LEN;
		s[o++] = '"';
		if (object) {
			s[o++] = ':';
			s[o++] = '0';
		}
	}
	s[o++] = object ? '}' : ']';
	*len = o;
	free(names);
	return s;
}

/* Seconds of CPU for one parse (and validation when s is not NULL). */
static double
run_once(const char *body, size_t len, const struct schema *s)
{
	const struct json_value *v;
	struct json_err err;
	struct schema_err serr;
	double t = now();

	if (json_parse(body, len, &arena, 0, &v, &err) != JSON_OK) {
		fprintf(stderr, "bench_flood: json_parse: %s\n", err.msg);
		exit(1);
	}
	if (s != NULL && schema_validate(s, v, &arena, &serr) != SCHEMA_OK) {
		fprintf(stderr, "bench_flood: rejected: %s\n", serr.reason);
		exit(1);
	}
	t = now() - t;
	arena_reset(&arena);
	return t;
}

static void
flood(const char *label, bool object, const struct schema *s)
{
	double crafted[ROUNDS], random[ROUNDS], mc, mr;
	size_t lc, lr;
	char *bc = make_body(object, true, &lc);
	char *br = make_body(object, false, &lr);
	int r;

	(void)run_once(br, lr, s); /* warm up */
	for (r = 0; r < rounds; r++) {
		crafted[r] = run_once(bc, lc, s);
		random[r] = run_once(br, lr, s);
	}
	mc = median(crafted, (size_t)rounds);
	mr = median(random, (size_t)rounds);
	printf("%-8s %8zu B %12.2f %12.2f %8.2fx\n", label, lc, mc * 1e3,
	    mr * 1e3, mc / mr);
	free(bc);
	free(br);
}

int
main(int argc, char **argv)
{
	static const char unique[] = "{\"uniqueItems\":true}";
	const struct json_value *form;
	const struct schema *s;
	struct json_err err;
	struct schema_err serr;

	if (argc > 1 && (rounds = atoi(argv[1])) < 1)
		rounds = 1;
	if (rounds > ROUNDS)
		rounds = ROUNDS;
	arena_init(&arena, (size_t)1 << 30);
	arena_init(&form_arena, (size_t)1 << 20);
	if (json_parse(unique, sizeof(unique) - 1, &form_arena, 0, &form,
		&err) != JSON_OK ||
	    schema_compile(form, &form_arena, NULL, NULL, &s, &serr) !=
		SCHEMA_OK)
		return 1;
	printf("hash flooding: crafted against random names, same size "
	       "(CPU time, median of %d alternated runs)\n",
	    rounds);
	printf("%-8s %10s %12s %12s %9s\n", "flood", "size", "crafted ms",
	    "random ms", "ratio");
	flood("members", true, NULL);
	flood("unique", false, s);
	printf("(target: crafted <= 2x random)\n");
	arena_free(&arena);
	arena_free(&form_arena);
	return 0;
}
