/*
 * bench_load.c: what loading a form costs (addr_load: parse, arrival
 * check, compile, the GET bytes and the human page), on forms shaped to
 * find superlinear work at load, against parsing the same bytes alone;
 * and what the responder's audit of a load (its lint and hook check,
 * audit.h) adds, against the load.
 *
 * A load that is linear in the form costs a small multiple of its parse;
 * a quadratic step shows as a ratio that grows with the form.  Each form
 * is written to a temporary address directory; the figure is the median
 * CPU time of ROUNDS loads (one load when a single one takes over
 * SLOW_SECONDS, so the quadratic cases of older code still finish).
 *
 *   bench_load          the table
 *   bench_load SCALE    every size times SCALE (e.g. 0.1 for a quick look;
 *                       past about 1.5 a form outgrows ADDR_FORM_MAX)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "site/address.h"
#include "responder/answer.h"
#include "base/arena.h"
#include "tools/audit.h"
#include "bench_common.h"
#include "base/buf.h"
#include "parser/json.h"
#include "base/log.h"

#define ROUNDS 5
#define SLOW_SECONDS 1.0

/* {"p": ..., "m": [], "s": */
static void
head(struct buf *b)
{
	put(b, "{\"p\":\"load bench\",\"m\":[],\"s\":");
}

static void
names(struct buf *b, size_t from, size_t to, const char *after)
{
	char name[64];
	size_t i;

	for (i = from; i < to; i++) {
		snprintf(name, sizeof(name), "%s\"n%zu\"%s",
		    i > from ? "," : "", i, after);
		put(b, name);
	}
}

/* `required` names, none of them under properties. */
static void
form_required(struct buf *b, size_t n)
{
	head(b);
	put(b, "{\"type\":\"object\",\"required\":[");
	names(b, 0, n, "");
	put(b, "]}}");
}

/* Every name both required and a property. */
static void
form_required_properties(struct buf *b, size_t n)
{
	head(b);
	put(b, "{\"type\":\"object\",\"required\":[");
	names(b, 0, n, "");
	put(b, "],\"properties\":{");
	names(b, 0, n, ":{\"type\":\"string\"}");
	put(b, "}}}");
}

/* Half required, the other half optional properties of schema true (which
 * cost the page's skeleton no node of its budget). */
static void
form_required_optional(struct buf *b, size_t n)
{
	head(b);
	put(b, "{\"type\":\"object\",\"required\":[");
	names(b, 0, n / 2, "");
	put(b, "],\"properties\":{");
	names(b, n / 2, n, ":true");
	put(b, "}}}");
}

/* The same names as properties only: no required, nothing to match. */
static void
form_properties(struct buf *b, size_t n)
{
	head(b);
	put(b, "{\"type\":\"object\",\"properties\":{");
	names(b, 0, n, ":true");
	put(b, "}}}");
}

/* $defs d0 -> d1 -> ... -> dn, each nothing but a $ref. */
static void
form_ref_chain(struct buf *b, size_t n)
{
	char def[96];
	size_t i;

	head(b);
	put(b, "{\"$ref\":\"#/$defs/d0\",\"$defs\":{");
	for (i = 0; i < n; i++) {
		snprintf(def, sizeof(def),
		    "\"d%zu\":{\"$ref\":\"#/$defs/d%zu\"},", i, i + 1);
		put(b, def);
	}
	snprintf(def, sizeof(def), "\"d%zu\":{\"type\":\"string\"}}}}", n);
	put(b, def);
}

/*
 * n required names that only additionalProperties describes, a $ref into
 * a chain of 14 definitions nested 8 deep under 1,000-byte names: each
 * member's starting value on the page looks through up to 12 refs of 8 KB.
 */
static void
form_long_refs(struct buf *b, size_t n)
{
	char long_name[1001], tail[64];
	struct buf path;
	size_t i, k;

	memset(long_name, 'x', 1000);
	long_name[1000] = '\0';
	buf_init(&path, 1 << 20);
	put(&path, "#");
	for (k = 0; k < 8; k++) {
		put(&path, "/$defs/");
		put(&path, long_name);
	}
	head(b);
	put(b, "{\"type\":\"object\",\"required\":[");
	names(b, 0, n, "");
	put(b, "],\"additionalProperties\":{\"$ref\":\"");
	put(b, buf_ptr(&path));
	put(b, "/$defs/c0\"},\"$defs\":");
	for (k = 0; k < 8; k++) {
		put(b, "{\"");
		put(b, long_name);
		put(b, "\":{\"$defs\":");
	}
	put(b, "{");
	for (i = 0; i < 14; i++) {
		snprintf(tail, sizeof(tail), "\"c%zu\":{\"$ref\":\"", i);
		put(b, tail);
		put(b, buf_ptr(&path));
		snprintf(tail, sizeof(tail), "/$defs/c%zu\"},", i + 1);
		put(b, tail);
	}
	put(b, "\"c14\":{\"type\":\"string\"}}");
	for (k = 0; k < 8; k++)
		put(b, "}}");
	put(b, "}}");
	buf_free(&path);
}

static const struct {
	const char *name;
	void (*make)(struct buf *, size_t);
	size_t n;
} cases[] = {
    {"properties only (linear)", form_properties, 60000},
    {"required names", form_required, 60000},
    {"required = properties", form_required_properties, 60000},
    {"required + optional", form_required_optional, 60000},
    {"$ref chain", form_ref_chain, 50000},
    {"long $ref paths", form_long_refs, 50000},
};

static void
write_form(const char *dir, const struct buf *b)
{
	char path[600];
	FILE *f;

	snprintf(path, sizeof(path), "%s/form.json", dir);
	if ((f = fopen(path, "w")) == NULL ||
	    fwrite(buf_ptr(b), 1, buf_len(b), f) != buf_len(b) ||
	    fclose(f) != 0) {
		perror(path);
		exit(2);
	}
}

/* The audit's lines go nowhere: the figure is its work, not the log's. */
static void
null_sink(void *ctx, const char *line, size_t len)
{
	(void)ctx;
	(void)line;
	(void)len;
}

/* CPU seconds of one load of dir, or -1 when the form is refused; *audit
 * the seconds of the warnings a responder's load adds (audit.h). */
static double
load_once(const char *dir, double *audit)
{
	char err[ADDR_ERR_MAX];
	const struct answer_set *set;
	struct addr a;
	double t0 = now(), t;

	/* the responder's whole load: the address, then its answers */
	if (addr_load(dir, &a, NULL, NULL) == -1 ||
	    answer_build(&a, err, sizeof(err)) == -1) {
		fprintf(stderr, "bench_load: %s\n", a.ok ? err : a.err);
		addr_free(&a);
		return -1;
	}
	t = now() - t0;
	t0 = now();
	log_set_sink(null_sink, NULL);
	set = answer_of(&a);
	audit_log_load(&a, set->json.bytes + set->json.head_len,
	    set->json.len - set->json.head_len);
	log_set_sink(NULL, NULL);
	*audit = now() - t0;
	addr_free(&a);
	return t;
}

static double
parse_once(const struct buf *b)
{
	const struct json_value *v;
	struct json_err err;
	struct arena a;
	double t0, t;

	arena_init(&a, (size_t)1 << 30);
	t0 = now();
	if (json_parse(buf_ptr(b), buf_len(b), &a, 0, &v, &err) != JSON_OK)
		abort();
	t = now() - t0;
	arena_free(&a);
	return t;
}

int
main(int argc, char **argv)
{
	const char *tmp = getenv("TMPDIR");
	char dir[512], path[600];
	double scale = argc > 1 ? atof(argv[1]) : 1.0;
	double load[ROUNDS], parse[ROUNDS], audit[ROUNDS];
	size_t i, r, n;
	int rc = 0;

	snprintf(dir, sizeof(dir), "%s/gpt-bench-load.XXXXXX",
	    tmp != NULL && *tmp != '\0' ? tmp : "/tmp");
	if (scale <= 0 || mkdtemp(dir) == NULL) {
		fprintf(stderr, "usage: bench_load [SCALE > 0]\n");
		return 2;
	}
	printf("%-26s %8s %9s %10s %10s %9s %10s %11s\n", "form", "n",
	    "bytes", "parse ms", "load ms", "load/parse", "audit ms",
	    "audit/load");
	for (i = 0; i < GPT_ARRAY_LEN(cases) && rc == 0; i++) {
		struct buf b;
		size_t rounds = ROUNDS;

		n = (size_t)((double)cases[i].n * scale);
		buf_init(&b, (size_t)64 << 20);
		cases[i].make(&b, n < 1 ? 1 : n);
		write_form(dir, &b);
		for (r = 0; r < rounds; r++) {
			parse[r] = parse_once(&b);
			if ((load[r] = load_once(dir, &audit[r])) < 0) {
				rc = 2;
				break;
			}
			if (r == 0 && load[0] > SLOW_SECONDS)
				rounds = 1;
		}
		if (rc != 0) {
			buf_free(&b);
			break;
		}
		printf("%-26s %8zu %9zu %10.2f %10.2f %9.1fx %10.2f %10.2fx\n",
		    cases[i].name, n, buf_len(&b), median(parse, rounds) * 1e3,
		    median(load, rounds) * 1e3,
		    median(load, rounds) / median(parse, rounds),
		    median(audit, rounds) * 1e3,
		    median(audit, rounds) / median(load, rounds));
		fflush(stdout);
		buf_free(&b);
	}
	snprintf(path, sizeof(path), "%s/form.json", dir);
	unlink(path);
	rmdir(dir);
	if (rc == 0)
		printf("(CPU time, median of %d loads, or 1 when a load takes "
		       "over %.0f s)\n",
		    ROUNDS, SLOW_SECONDS);
	return rc;
}
