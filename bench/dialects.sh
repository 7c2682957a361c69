#!/bin/sh
# dialects.sh: the dialects benchmark (bench/bench_dialects, built by make
# bench).
#
# 1. Validation on bench/openapi.schema.json (2020-12: allOf composition
#    closed by unevaluatedProperties: false) and bench/draft07.schema.json
#    (draft-07: definitions through $ref), about 300 B and 1 MB bodies:
#    json_parse alone against json_parse + schema_validate, then, where
#    node and npm work, against JSON.parse + ajv in the same dialect
#    (ajv/dist/2020; ajv's default draft-07 class) on the very same bytes,
#    alternated three times; medians compared (targets: at least 2x ajv
#    on the first, 3x on the second).
# 2. Compile time: a generated draft-07 form of about 500 KB (many
#    definitions, described properties, enums, patterns, references),
#    schema_compile from the parsed JSON against ajv's compile of the same
#    parsed schema, in ms, medians, alternated three times.
# ajv is installed into the build tree (bench/ajv/node_modules, by lib.sh's
# bench_ajv_install; bench/ajv/run.js runs it); without node, npm or a
# network the ajv parts are skipped with a message.
set -eu
srcdir=${GPT_SRCDIR:-.}
builddir=${GPT_BUILDDIR:-.}
. "$srcdir/bench/lib.sh"
exe="$builddir/bench/bench_dialects"
[ -x "$exe" ] || {
	echo "bench/dialects.sh: build $exe first (make bench)" >&2
	exit 2
}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gpt-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
"$exe" bigform "$tmp/big.schema.json"

for f in openapi draft07; do
	echo "== $f form"
	"$exe" $f "$srcdir/bench/$f.schema.json"
	echo
done

ajv=yes
if ! bench_ajv_install; then
	echo "ajv: skipped: $bench_ajv_why"
	ajv=
fi
work="$builddir/bench/ajv" # bench_ajv_dir, where ajv is installed

if [ -n "$ajv" ]; then
	echo "== against ajv (JSON.parse + ajv in the form's dialect)"
	printf '%-8s %-6s %10s %12s %12s %8s %s\n' form body size \
	    "gpt MB/s" "ajv MB/s" ratio target
	for f in openapi draft07; do
		schema="$srcdir/bench/$f.schema.json"
		opt=
		target=2
		if [ $f = draft07 ]; then
			opt=--draft-07
			target=3
		fi
		mkdir -p "$tmp/$f"
		"$exe" $f "$schema" dump "$tmp/$f"
		small=$(wc -c <"$tmp/$f/small.json")
		large=$(wc -c <"$tmp/$f/large.json")
		# Three alternations: ours, then ajv, on both bodies.
		for round in 1 2 3; do
			echo "small $("$exe" $f "$schema" mbps "$small")" \
			    >>"$tmp/$f/gpt"
			echo "large $("$exe" $f "$schema" mbps "$large")" \
			    >>"$tmp/$f/gpt"
			node "$work/run.js" $opt "$schema" \
			    "$tmp/$f/small.json" "$tmp/$f/large.json" |
			    sed -e "s|^$tmp/$f/\\(.*\\)\\.json|\\1|" \
			    >>"$tmp/$f/ajv"
		done
		for b in small large; do
			g=$(bench_median $b "$tmp/$f/gpt")
			a=$(bench_median $b "$tmp/$f/ajv")
			size=$small
			[ $b = large ] && size=$large
			awk -v f=$f -v b=$b -v s="$size" -v g="$g" -v a="$a" \
			    -v t=$target 'BEGIN {
				printf "%-8s %-6s %8d B %12.1f %12.1f %7.2fx >= %dx\n",
				    f, b, s, g, a, g / a, t }'
		done
	done
	echo "(parse + validate, median of 3 alternated runs of 9 rounds each)"
	echo
fi

echo "== compile time of a $(wc -c <"$tmp/big.schema.json")-byte draft-07 form"
for round in 1 2 3; do
	"$exe" compile "$tmp/big.schema.json" |
	    awk '{ print "parse", $2; print "compile", $3 }' >>"$tmp/compile"
	[ -z "$ajv" ] || echo "ajv $(node "$work/run.js" --draft-07 \
	    --compile 15 "$tmp/big.schema.json")" >>"$tmp/compile"
done
p=$(bench_median parse "$tmp/compile")
c=$(bench_median compile "$tmp/compile")
printf '%-34s %10.2f ms\n' "json_parse" "$p"
printf '%-34s %10.2f ms\n' "schema_compile (parsed JSON)" "$c"
if [ -n "$ajv" ]; then
	a=$(bench_median ajv "$tmp/compile")
	printf '%-34s %10.2f ms\n' "ajv compile (parsed schema)" "$a"
	awk -v c="$c" -v a="$a" 'BEGIN {
		printf "%-34s %10.2fx\n", "ratio (ajv / schema_compile)", a / c }'
fi
echo "(CPU ms, median of 15 runs, median of 3 alternated rounds)"
