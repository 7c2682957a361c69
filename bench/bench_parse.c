/*
 * bench_parse.c: throughput of json_parse against cJSON on the same bytes.
 * gpt's side is json_parse_padded, the act's parse on the request path,
 * on a copy followed by JSON_PAD zeros (padded_copy).
 *
 * Three generated bodies, about 300 B, 20 KB and 1 MiB: records with nested
 * objects and arrays, strings with escapes and non-ASCII text, integers and
 * decimals.  Each parser runs in its own process (its own heap, as in a
 * real program).  For each body, ROUNDS rounds; a round alternates short
 * batches of json_parse (parse, then arena_reset) and of
 * cJSON_ParseWithLength + cJSON_Delete on the same bytes, and sums each
 * one's time.  Reports the median MB/s of each and their ratio, then the
 * arena's peak for the 1 MiB body.
 *
 * With SIMDJSON_WORKER naming bench/simdjson_worker (bench/parse.sh builds
 * it where simdjson is installed), simdjson's DOM parser runs beside them
 * as the ceiling: the same body from a file, the same batches, its own
 * process, and the ratio gpt/simdjson is printed too.  SIMDJSON_KERNELS
 * names the kernels of simdjson's to race, a worker each (unset: the one
 * it picks for this CPU): it has one for AVX-512, one for AVX2 and older
 * ones, and picks the newest the CPU runs.  simdjson checks less (no
 * duplicate names) and keeps its parser's memory between parses.
 *
 * The machine's speed varies from minute to minute, so only the ratio
 * (measured in one run, interleaved) is meaningful.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "base/arena.h"
#include "bench_common.h"
#include "base/buf.h"
#include "parser/json.h"

#define ROUNDS 9
#define ROUND_SECONDS 0.25
#define BATCH_SECONDS 0.01

static const char *names[] = {"Ada Lovelace", "Zo\xC3\xAB \\\"Z\\\" Martin",
    "\xE5\xB1\xB1\xE7\x94\xB0 \xE5\xA4\xAA\xE9\x83\x8E",
    "Jos\\u00e9 Garc\xC3\xAD\x61", "Bj\xC3\xB6rk Gu\xC3\xB0mundsd\xC3\xB3ttir",
    "Grace Hopper"};
static const char *cities[] = {"Z\xC3\xBCrich", "S\xC3\xA3o Paulo",
    "\xD0\x9C\xD0\xBE\xD1\x81\xD0\xBA\xD0\xB2\xD0\xB0", "Paris", "Lagos"};

/* One record, about 300 bytes. */
static void
record(struct buf *b, unsigned id)
{
	char tmp[160];
	unsigned k, n = 1 + next_rand() % 3;

	snprintf(tmp, sizeof(tmp),
	    "{\"id\":%u,\"name\":\"%s\",\"score\":%u.%02u,\"active\":%s,", id,
	    names[next_rand() % 6], next_rand() % 1000, next_rand() % 100,
	    next_rand() % 2 ? "true" : "false");
	put(b, tmp);
	snprintf(tmp, sizeof(tmp),
	    "\"address\":{\"street\":\"%u Main St\",\"city\":\"%s\","
	    "\"zip\":\"%05u\"},",
	    next_rand() % 999, cities[next_rand() % 5], next_rand() % 99999);
	put(b, tmp);
	put(b, "\"tags\":[\"alpha\",\"b\xC3\xA9ta\",\"line\\nbreak\"],"
	       "\"history\":[");
	for (k = 0; k < n; k++) {
		snprintf(tmp, sizeof(tmp),
		    "%s{\"t\":%u,\"v\":-%u.%u,\"ok\":null}", k ? "," : "",
		    1700000000u + next_rand() % 100000, next_rand() % 100,
		    next_rand() % 1000);
		put(b, tmp);
	}
	put(b, "]}");
}

/* A body of about `target` bytes: one record, or a page of them. */
static char *
make_body(size_t target, size_t *len)
{
	struct buf b;
	unsigned id = 1;

	buf_init(&b, (size_t)64 << 20);
	if (target < 1000) {
		record(&b, id);
	} else {
		put(&b, "{\"page\":1,\"total\":12345,\"items\":[");
		while (buf_len(&b) + 400 < target) {
			if (id > 1)
				put(&b, ",");
			record(&b, id++);
		}
		put(&b, "]}");
	}
	return buf_take(&b, len);
}

/* CPU time of this process: other work on the machine (this one has two
 * cores shared with builds and tests) then slows the clock much less. */
static struct arena arena;
/* true: the body is JSON Lines (bench_parse corpus), each non-empty line
 * parsed on its own, the arena reset after each */
static bool lines_mode;
/* The body's non-empty lines, found before the workers start, so that a
 * batch times only the parses (the simdjson worker splits its lines up
 * front too). */
struct line {
	size_t at, n;
};
static struct line *lines;
static size_t nlines, caplines;

static void
split_lines(const char *body, size_t len)
{
	size_t at = 0, n;

	nlines = 0;
	while (at < len) {
		const char *nl = memchr(body + at, '\n', len - at);

		n = nl != NULL ? (size_t)(nl - body) - at : len - at;
		if (n > 0 && nlines == caplines) {
			caplines = caplines ? 2 * caplines : 1024;
			lines = realloc(lines, caplines * sizeof(*lines));
			if (lines == NULL) {
				perror("bench_parse");
				exit(1);
			}
		}
		if (n > 0) {
			lines[nlines].at = at;
			lines[nlines++].n = n;
		}
		at += n + 1;
	}
}

/*
 * The bytes json_parse_padded reads, as the request path gives them (a
 * body read into a buffer with JSON_PAD zeros after it): a copy of body
 * with the pad after it and, in lines mode, a NUL in place of each line's
 * newline, so that each line too ends in a NUL with 15 bytes readable
 * after it.  simdjson parses a padded copy too.
 */
static char *
padded_copy(const char *body, size_t len)
{
	char *p = malloc(len + JSON_PAD);

	if (p == NULL) {
		perror("bench_parse");
		exit(1);
	}
	memcpy(p, body, len);
	memset(p + len, 0, JSON_PAD);
	for (size_t k = 0; lines_mode && k < nlines; k++)
		p[lines[k].at + lines[k].n] = '\0';
	return p;
}

static void
run_lines(const char *body)
{
	const struct json_value *v;
	struct json_err err;

	for (size_t k = 0; k < nlines; k++) {
		if (json_parse_padded(body + lines[k].at, lines[k].n, &arena, 0,
		        &v, &err) != JSON_OK) {
			fprintf(stderr, "json_parse: %s at line offset %zu\n",
			    err.msg, lines[k].at);
			exit(1);
		}
		arena_reset(&arena);
	}
}

static void
run_gpt(const char *body, size_t len, unsigned iters)
{
	const struct json_value *v;
	struct json_err err;
	unsigned i;

	for (i = 0; i < iters; i++) {
		if (lines_mode) {
			run_lines(body);
			continue;
		}
		if (json_parse_padded(body, len, &arena, 0, &v, &err) !=
		    JSON_OK) {
			fprintf(stderr, "json_parse: %s at %zu\n", err.msg,
			    err.offset);
			exit(1);
		}
		arena_reset(&arena);
	}
}

static void
run_cjson(const char *body, size_t len, unsigned iters)
{
	unsigned i;

	for (i = 0; i < iters; i++) {
		if (lines_mode) {
			for (size_t k = 0; k < nlines; k++) {
				cJSON *c = cJSON_ParseWithLength(
				    body + lines[k].at, lines[k].n);

				if (c != NULL)
					cJSON_Delete(c);
			}
			continue;
		}
		cJSON *c = cJSON_ParseWithLength(body, len);

		if (c == NULL) {
			fprintf(stderr, "cJSON refused the body\n");
			exit(1);
		}
		cJSON_Delete(c);
	}
}

/*
 * A parser in its own process, running batches on request.  Each parser
 * keeps its own heap, as in a real program: cJSON's freed nodes do not
 * slow the arena's next large malloc (malloc_consolidate), nor does the
 * arena's memory change cJSON's.
 */
struct worker {
	pid_t pid;
	int cmd;    /* parent writes a batch size; 0 ends the worker */
	int result; /* worker answers the batch's seconds */
};

static void
worker_start(struct worker *w, bool gpt, const char *body, size_t len)
{
	int c[2], r[2];
	unsigned n;
	double t;

	if (pipe(c) == -1 || pipe(r) == -1 || (w->pid = fork()) == -1) {
		perror("bench_parse");
		exit(1);
	}
	if (w->pid == 0) {
		close(c[1]);
		close(r[0]);
		if (gpt)
			body = padded_copy(body, len);
		while (read(c[0], &n, sizeof(n)) == sizeof(n) && n > 0) {
			t = now();
			if (gpt)
				run_gpt(body, len, n);
			else
				run_cjson(body, len, n);
			t = now() - t;
			if (write(r[1], &t, sizeof(t)) != sizeof(t))
				_exit(1);
		}
		_exit(0);
	}
	close(c[0]);
	close(r[1]);
	w->cmd = c[1];
	w->result = r[0];
}

/* The simdjson workers to race: their kernels (NULL: the one simdjson
 * picks), from SIMDJSON_KERNELS. */
#define SIMD_MAX 4
static const char *simd_prog;
static char *simd_kernel[SIMD_MAX];
static unsigned nsimd;

static void
simd_setup(void)
{
	const char *k = getenv("SIMDJSON_KERNELS");
	char *list, *save = NULL, *tok;

	simd_prog = getenv("SIMDJSON_WORKER");
	if (simd_prog == NULL || *simd_prog == '\0') {
		simd_prog = NULL;
		return;
	}
	if (k == NULL || *k == '\0') {
		nsimd = 1;
		return;
	}
	if ((list = strdup(k)) == NULL) {
		perror("bench_parse");
		exit(1);
	}
	for (tok = strtok_r(list, " ", &save); tok != NULL && nsimd < SIMD_MAX;
	     tok = strtok_r(NULL, " ", &save))
		simd_kernel[nsimd++] = tok;
}

/* The simdjson worker: exec'd with the body in a file, on the same pipes,
 * with `kernel` (or simdjson's own choice when NULL). */
static void
worker_exec(struct worker *w, const char *prog, const char *kernel,
    const char *body, size_t len)
{
	char path[] = "/tmp/bench_parse.XXXXXX";
	int c[2], r[2], fd = mkstemp(path);

	if (fd == -1 || write(fd, body, len) != (ssize_t)len ||
	    close(fd) == -1 || pipe(c) == -1 || pipe(r) == -1 ||
	    (w->pid = fork()) == -1) {
		perror("bench_parse");
		exit(1);
	}
	if (w->pid == 0) {
		if (dup2(c[0], 0) == -1 || dup2(r[1], 1) == -1)
			_exit(1);
		close(c[1]);
		close(r[0]);
		/* [--kernel K] [--lines] PATH: a NULL after PATH ends the
		 * list where --lines is not given */
		const char *a1 = lines_mode ? "--lines" : path;
		const char *a2 = lines_mode ? path : NULL;

		if (kernel != NULL)
			execl(prog, prog, "--kernel", kernel, a1, a2,
			    (char *)NULL);
		else
			execl(prog, prog, a1, a2, (char *)NULL);
		_exit(127);
	}
	close(c[0]);
	close(r[1]);
	w->cmd = c[1];
	w->result = r[0];
	/* the worker has the file open once it answers its first batch */
	double t;
	unsigned one = 1;
	if (write(w->cmd, &one, sizeof(one)) != sizeof(one) ||
	    read(w->result, &t, sizeof(t)) != sizeof(t)) {
		fprintf(stderr, "bench_parse: %s failed\n", prog);
		exit(1);
	}
	unlink(path);
}

static double
worker_run(struct worker *w, unsigned n)
{
	double t;

	if (write(w->cmd, &n, sizeof(n)) != sizeof(n) ||
	    read(w->result, &t, sizeof(t)) != sizeof(t)) {
		fprintf(stderr, "bench_parse: worker failed\n");
		exit(1);
	}
	return t;
}

static void
worker_stop(struct worker *w)
{
	unsigned zero = 0;

	if (write(w->cmd, &zero, sizeof(zero)) != sizeof(zero))
		kill(w->pid, SIGTERM);
	close(w->cmd);
	close(w->result);
	waitpid(w->pid, NULL, 0);
}

static void
bench_bytes(const char *label, char *body, size_t len)
{
	double gpt[ROUNDS], cj[ROUNDS], sj[SIMD_MAX][ROUNDS], t, tg, tc,
	    ts[SIMD_MAX], mb, mg, mc;
	unsigned batch = 1, batches, r, k, s;
	struct worker wg, wc, ws[SIMD_MAX];

	if (lines_mode)
		split_lines(body, len);
	worker_start(&wg, true, body, len);
	worker_start(&wc, false, body, len);
	for (s = 0; s < nsimd; s++)
		worker_exec(&ws[s], simd_prog, simd_kernel[s], body, len);
	/* A batch: enough iterations for about BATCH_SECONDS of cJSON. */
	for (;;) {
		t = worker_run(&wc, batch);
		if (t > BATCH_SECONDS || batch > (1u << 28))
			break;
		batch *= 2;
	}
	(void)worker_run(&wg, batch); /* warm up */
	batches = (unsigned)(ROUND_SECONDS / t) + 1;
	mb = (double)len * batch * batches / 1e6;
	/* Batches of the parsers alternate, so all see the same load from
	 * whatever else runs on the machine. */
	for (r = 0; r < ROUNDS; r++) {
		tg = tc = 0;
		for (s = 0; s < nsimd; s++)
			ts[s] = 0;
		for (k = 0; k < batches; k++) {
			tg += worker_run(&wg, batch);
			tc += worker_run(&wc, batch);
			for (s = 0; s < nsimd; s++)
				ts[s] += worker_run(&ws[s], batch);
		}
		gpt[r] = mb / tg;
		cj[r] = mb / tc;
		for (s = 0; s < nsimd; s++)
			sj[s][r] = mb / ts[s];
	}
	worker_stop(&wg);
	worker_stop(&wc);
	mg = median(gpt, ROUNDS);
	mc = median(cj, ROUNDS);
	printf("%-24s %8zu %10.1f %10.1f %7.2fx", label, len, mg, mc, mg / mc);
	for (s = 0; s < nsimd; s++) {
		double ms;

		worker_stop(&ws[s]);
		ms = median(sj[s], ROUNDS);
		printf(" %10.1f %10.2fx", ms, mg / ms);
	}
	printf("\n");
	free(body);
}

/* The header of the table: the simdjson columns named by kernel. */
static void
header(const char *first)
{
	printf("%-24s %8s %10s %10s %8s", first, "bytes", "gpt MB/s",
	    "cJSON MB/s", "ratio");
	for (unsigned s = 0; s < nsimd; s++) {
		const char *k = simd_kernel[s];
		char ratio[32];

		snprintf(
		    ratio, sizeof(ratio), "gpt/%.7s", k != NULL ? k : "simd");
		printf(" %10.10s %11s", k != NULL ? k : "simdjson", ratio);
	}
	printf("\n");
}

static void
bench_body(const char *label, size_t target)
{
	size_t len;
	char *body = make_body(target, &len);

	bench_bytes(label, body, len);
}

/* The arena's high-water mark for one parse of a 1 MiB body. */
static void
peak_memory(void)
{
	struct arena a;
	const struct json_value *v;
	struct json_err err;
	size_t len;
	char *body = make_body((size_t)1 << 20, &len);

	arena_init(&a, (size_t)1 << 30);
	if (json_parse(body, len, &a, 0, &v, &err) != JSON_OK)
		exit(1);
	printf("arena peak parsing a %zu-byte body: %.2f MiB "
	       "(%.1fx the body; target <= 8 MiB)\n",
	    len, (double)arena_peak(&a) / (1 << 20),
	    (double)arena_peak(&a) / (double)len);
	arena_free(&a);
	free(body);
}

/*
 * bench_parse corpus FILE...: each file is JSON Lines (a corpus's
 * instances.jsonl); the lines json_parse accepts are raced one parse a
 * line, under the file's folder name.
 */
static void
bench_corpus(int argc, char **argv)
{
	const struct json_value *v;
	struct json_err err;

	lines_mode = true;
	for (int f = 0; f < argc; f++) {
		FILE *fp = fopen(argv[f], "r");
		struct buf b;
		char *line = NULL, label[32];
		size_t cap = 0, len;
		ssize_t n;
		const char *end, *beg;

		if (fp == NULL) {
			perror(argv[f]);
			exit(1);
		}
		buf_init(&b, (size_t)256 << 20);
		while ((n = getline(&line, &cap, fp)) > 0) {
			if (line[n - 1] == '\n')
				n--;
			if (n == 0 || json_parse(line, (size_t)n, &arena, 0, &v,
			                  &err) != JSON_OK) {
				arena_reset(&arena);
				continue;
			}
			arena_reset(&arena);
			if (buf_append(&b, line, (size_t)n) != 0 ||
			    buf_append(&b, "\n", 1) != 0)
				exit(1);
		}
		free(line);
		fclose(fp);
		/* the label: the file's folder */
		end = strrchr(argv[f], '/');
		end = end != NULL ? end : argv[f];
		for (beg = end; beg > argv[f] && beg[-1] != '/'; beg--)
			;
		snprintf(label, sizeof(label), "%.*s", (int)(end - beg), beg);
		char *body = buf_take(&b, &len);
		bench_bytes(label[0] ? label : argv[f], body, len);
	}
}

int
main(int argc, char **argv)
{
	arena_init(&arena, (size_t)1 << 30);
	simd_setup();
	if (argc >= 2 && strcmp(argv[1], "corpus") == 0) {
		header("case");
		bench_corpus(argc - 2, argv + 2);
		free(lines);
		arena_free(&arena);
		return 0;
	}
	/* bench_parse profile gpt|cjson [N]: one parser alone on the 1 MiB
	 * body, N times (default 2000), for perf or callgrind. */
	if (argc >= 3 && strcmp(argv[1], "profile") == 0) {
		size_t len;
		char *body = make_body((size_t)1 << 20, &len);
		unsigned n = argc > 3 ? (unsigned)atoi(argv[3]) : 2000;

		if (strcmp(argv[2], "cjson") == 0) {
			run_cjson(body, len, n);
		} else {
			char *padded = padded_copy(body, len);

			run_gpt(padded, len, n);
			free(padded);
		}
		free(body);
		arena_free(&arena);
		return 0;
	}
	printf("json_parse vs cJSON %s (parse + free; CPU time, median of %d "
	       "interleaved rounds)\n",
	    cJSON_Version(), ROUNDS);
	header("body");
	bench_body("small", 300);
	bench_body("medium", 20 * 1000);
	bench_body("large", (size_t)1 << 20);
	peak_memory();
	arena_free(&arena);
	return 0;
}
