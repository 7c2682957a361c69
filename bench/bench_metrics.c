/*
 * bench_metrics.c: the counting a FastCGI GET does (metrics_begin of the
 * same address as the last request, one metrics_count, metrics_end
 * deciding that no write is due), alone, in nanoseconds per request:
 * bench/metrics.sh sets it against the CPU time of a whole GET.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "responder/metrics.h"

int
main(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : "/nonexistent";
	long n = 20000000, i;
	struct timespec a, b;
	double ns;

	if (metrics_configure(dir, false) == -1)
		return 2;
	metrics_begin("/srv/gpt/echo");
	metrics_count(METRICS_GET_JSON);
	metrics_flush();
	clock_gettime(CLOCK_MONOTONIC, &a);
	for (i = 0; i < n; i++) {
		metrics_begin("/srv/gpt/echo");
		metrics_count(METRICS_GET_JSON);
		metrics_end();
	}
	clock_gettime(CLOCK_MONOTONIC, &b);
	ns = ((double)(b.tv_sec - a.tv_sec) * 1e9 +
	         (double)(b.tv_nsec - a.tv_nsec)) /
	     (double)n;
	printf("%.1f\n", ns);
	metrics_close();
	return 0;
}
