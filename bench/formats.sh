#!/bin/sh
# formats.sh: the formats benchmark (bench/bench_format, built by make
# bench) on bench/formats.schema.json, twenty formatted fields per record.
#
# 1. json_parse alone against json_parse + schema_validate, interleaved.
# 2. Where node and npm work: JSON.parse + ajv's compiled 2020-12 validator
#    with ajv-formats ("full" mode) on the very same bytes, alternated with
#    ours three times; the median of each is compared (target: at least 3x
#    ajv's throughput).  ajv and ajv-formats, pinned in bench/ajv's
#    package.json, are installed into the build tree; without network or
#    npm this part is skipped with a message.
set -eu
srcdir=${GPT_SRCDIR:-.}
builddir=${GPT_BUILDDIR:-.}
exe="$builddir/bench/bench_format"
schema="$srcdir/bench/formats.schema.json"
[ -x "$exe" ] || {
	echo "bench/formats.sh: build $exe first (make bench)" >&2
	exit 2
}

echo "== formats"
"$exe" "$schema"

echo
echo "== formats against ajv (JSON.parse + ajv/dist/2020 + ajv-formats full)"
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
	echo "skipped: node or npm is not installed"
	exit 0
fi
work="$builddir/bench/ajv"
mkdir -p "$work"
if ! [ "$work" -ef "$srcdir/bench/ajv" ]; then
	cp "$srcdir/bench/ajv/package.json" "$srcdir/bench/ajv/run.js" "$work/"
fi
if [ ! -f "$work/node_modules/ajv/dist/2020.js" ] ||
    [ ! -f "$work/node_modules/ajv-formats/package.json" ]; then
	if ! (cd "$work" && timeout 300 npm install --no-audit --no-fund \
	    --silent >/dev/null 2>&1); then
		echo "skipped: npm install ajv failed (offline?)"
		exit 0
	fi
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gpt-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
"$exe" "$schema" dump "$tmp"
small=$(wc -c <"$tmp/small.json")
large=$(wc -c <"$tmp/large.json")

# Three alternations: ours, then ajv, on both bodies.
for round in 1 2 3; do
	echo "small $("$exe" "$schema" mbps "$small")" >>"$tmp/gpt"
	echo "large $("$exe" "$schema" mbps "$large")" >>"$tmp/gpt"
	node "$work/run.js" --formats "$schema" "$tmp/small.json" "$tmp/large.json" |
	    sed -e "s|^$tmp/\\(.*\\)\\.json|\\1|" >>"$tmp/ajv"
done

median() { # median BODY FILE: the middle of the three figures
	awk -v b="$1" '$1 == b { print $2 }' "$2" | sort -g | sed -n 2p
}
printf '%-6s %10s %12s %12s %8s\n' body size "gpt MB/s" "ajv MB/s" ratio
for b in small large; do
	g=$(median "$b" "$tmp/gpt")
	a=$(median "$b" "$tmp/ajv")
	size=$small
	[ "$b" = large ] && size=$large
	awk -v b="$b" -v s="$size" -v g="$g" -v a="$a" \
	    'BEGIN { printf "%-6s %8d B %12.1f %12.1f %7.2fx\n", b, s, g, a, g / a }'
done
echo "(parse + validate, median of 3 alternated runs of 9 rounds each;" \
    "target >= 3x)"
