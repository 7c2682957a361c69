#!/bin/sh
# heap.sh: memory per input byte on a corpus, gpt.fcgi against a peer and
# simdjson's DOM parser, measured the same way on every side: the peak of
# live heap bytes (bench/heap_peak.c, preloaded) of one run of each side's
# loop, which keeps every instance parsed at once, divided by the bytes of
# the instances.  Every peak includes the instance text itself (1 byte a
# byte); gpt.fcgi's and the peer's, the compiled form too (simdjson only
# parses); gpt.fcgi's line also gives the arena bytes its trees hold
# (mem_per_byte, the tree alone).
#
#   CORPUS=DIR [PEER=COMMAND] [SIMDJSON_WORKER=PROGRAM] sh bench/heap.sh
#   (make bench-blaze runs it; SIMDJSON_WORKER: bench_simdjson in lib.sh)
set -eu
: "${CORPUS:?}" "${GPT_BUILDDIR:?}" "${GPT_SRCDIR:?}"
PEER=${PEER:-}
OUT=${OUT:-$GPT_BUILDDIR/bench/heap-out}
mkdir -p "$OUT"
so=$OUT/heap_peak.so
"${CC:-cc}" -O2 -shared -fPIC -o "$so" "$GPT_SRCDIR/bench/heap_peak.c"
addrs=${ADDRS:-$GPT_BUILDDIR/bench/blaze-out/addrs}
printf '%-28s %10s %10s %10s %10s %10s\n' case bytes gpt-tree gpt-heap \
    peer-heap simd-heap
for dir in "$CORPUS"/*/; do
	c=$(basename "$dir")
	[ -d "$addrs/$c" ] || continue
	bytes=$(wc -c <"$dir/instances.jsonl")
	g=$(LD_PRELOAD=$so "$GPT_BUILDDIR/bench/bench_corpus" "$addrs/$c" \
	    "$dir/instances.jsonl" "$OUT/v" 0.001 1 2>&1 || true)
	tree=$(echo "$g" | sed -n 's/.*mem_per_byte=\([0-9.]*\).*/\1/p')
	gh=$(echo "$g" | sed -n 's/.*heap_peak=\([0-9]*\).*/\1/p' | tail -n 1)
	ph=-
	if [ -n "$PEER" ]; then
		ph=$(LD_PRELOAD=$so $PEER "$dir/schema.json" \
		    "$dir/instances.jsonl" "$OUT/v" 0.001 1 2>&1 |
		    sed -n 's/.*heap_peak=\([0-9]*\).*/\1/p' | tail -n 1)
	fi
	sh=-
	if [ -n "${SIMDJSON_WORKER:-}" ]; then
		sh=$(LD_PRELOAD=$so "$SIMDJSON_WORKER" --hold \
		    "$dir/instances.jsonl" 2>&1 |
		    sed -n 's/.*heap_peak=\([0-9]*\).*/\1/p' | tail -n 1)
	fi
	[ -n "$tree" ] && [ -n "$gh" ] || continue
	awk -v c="$c" -v b="$bytes" -v t="$tree" -v g="$gh" -v p="${ph:--}" \
	    -v s="${sh:--}" '
	    function per(x) { return x == "-" || x == "" ? "-" : sprintf("%.2f", x / b) }
	    BEGIN { printf "%-28s %10d %10.2f %10.2f %10s %10s\n", c, b, t, g / b,
	        per(p), per(s) }'
done | tee "$OUT/table.txt"
