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
. "$srcdir/bench/lib.sh"
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
bench_against_ajv "$exe" "$schema" --formats
