#!/bin/sh
# flood.sh: the hash-flooding benchmark (bench/bench_flood, built by make
# bench): crafted against random 1 MiB bodies for the parser's member
# index and for uniqueItems, ratio in the same run (target <= 2x).
set -eu
exe="${GPT_BUILDDIR:-.}/bench/bench_flood"
[ -x "$exe" ] || { echo "bench/flood.sh: build $exe first (make bench)" >&2; exit 2; }
echo "== hash flooding"
"$exe"
