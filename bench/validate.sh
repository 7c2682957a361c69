#!/bin/sh
# validate.sh: the validator benchmark (bench/bench_validate, built by make
# bench) on the reference form, schemas/styled-text.schema.json.
#
# 1. json_parse alone against json_parse + schema_validate, interleaved
#    (target: validation adds at most 50% to parsing).
# 2. Where node and npm work: JSON.parse + ajv's compiled 2020-12 validator
#    on the very same bytes, alternated with ours three times; the median of
#    each is compared (target: at least 3x ajv's throughput).  ajv is
#    installed into the build tree (bench/ajv/node_modules); without network
#    or npm this part is skipped with a message.
set -eu
srcdir=${GPT_SRCDIR:-.}
builddir=${GPT_BUILDDIR:-.}
. "$srcdir/bench/lib.sh"
exe="$builddir/bench/bench_validate"
schema="$srcdir/schemas/styled-text.schema.json"
[ -x "$exe" ] || {
	echo "bench/validate.sh: build $exe first (make bench)" >&2
	exit 2
}

echo "== validator"
"$exe" "$schema"

echo
echo "== validator against ajv (JSON.parse + ajv/dist/2020)"
bench_against_ajv "$exe" "$schema"
