#!/bin/sh
# parse.sh: the parser benchmark (bench/bench_parse, built by make bench):
# json_parse against cJSON on the same bodies, and the arena's peak; with
# Debian's libsimdjson-dev installed (scripts/install-deps race), simdjson's
# DOM parser beside them as the ceiling (bench_simdjson in bench/lib.sh:
# the kernel simdjson picks for this CPU, and its AVX2 one where that is
# another).
#
#   [PARSE_CORPUS=DIR] sh bench/parse.sh
#
# PARSE_CORPUS: also race the instances of a corpus (DIR/CASE/instances.jsonl,
# each line parsed on its own), as make bench-blaze does with Blaze's.
set -eu
exe="${GPT_BUILDDIR:-.}/bench/bench_parse"
[ -x "$exe" ] || { echo "bench/parse.sh: build $exe first (make bench)" >&2; exit 2; }
. "${GPT_SRCDIR:-.}/bench/lib.sh"
bench_simdjson
echo "== parser"
"$exe"
if [ -n "${PARSE_CORPUS:-}" ]; then
	out=$(mktemp)
	trap 'rm -f "$out"' EXIT
	echo
	echo "== parser: each instance of $PARSE_CORPUS parsed on its own"
	"$exe" corpus "$PARSE_CORPUS"/*/instances.jsonl | tee "$out"
	# the geomean of each gpt/simdjson column (fields 7, 9, ...)
	awk -v kernels="${SIMDJSON_KERNELS:-}" 'NR > 1 {
		for (i = 7; i <= NF; i += 2) { r = $i; sub("x", "", r);
		    s[i] += log(r); n[i]++ } }
	    END { split(kernels, name, " ")
		for (i = 7; i in n; i += 2)
		    printf "gpt.fcgi / simdjson %s: geomean %.2fx over %d cases\n",
		        name[(i - 5) / 2], exp(s[i] / n[i]), n[i] }' "$out"
fi
