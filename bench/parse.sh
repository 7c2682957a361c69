#!/bin/sh
# parse.sh: the parser benchmark (bench/bench_parse, built by make bench):
# json_parse against cJSON on the same bodies, and the arena's peak.
set -eu
exe="${GPT_BUILDDIR:-.}/bench/bench_parse"
[ -x "$exe" ] || { echo "bench/parse.sh: build $exe first (make bench)" >&2; exit 2; }
echo "== parser"
"$exe"
