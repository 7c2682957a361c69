#!/bin/sh
# load.sh: the load benchmark (bench/bench_load, built by make bench): a
# form's whole load (parse, compile, GET bytes, human page) against parsing
# it alone, on forms shaped to expose superlinear work at load.
set -eu
exe="${GPT_BUILDDIR:-.}/bench/bench_load"
[ -x "$exe" ] || {
	echo "bench/load.sh: build $exe first (make bench)" >&2
	exit 2
}
echo "== form load"
"$exe" "$@"
