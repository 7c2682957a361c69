#!/bin/sh
# parse.sh: the parser benchmark (bench/bench_parse, built by make bench):
# json_parse against cJSON on the same bodies, and the arena's peak; with
# Debian's libsimdjson-dev installed (scripts/install-deps race), simdjson's
# DOM parser beside them as the ceiling (bench/simdjson_worker.cc, built
# here into the build tree).
set -eu
exe="${GPT_BUILDDIR:-.}/bench/bench_parse"
[ -x "$exe" ] || { echo "bench/parse.sh: build $exe first (make bench)" >&2; exit 2; }
worker=
if [ -f /usr/include/simdjson.h ] && command -v "${CXX:-g++}" >/dev/null; then
	worker=${GPT_BUILDDIR:-.}/bench/simdjson_worker
	src=${GPT_SRCDIR:-.}/bench/simdjson_worker.cc
	if [ ! -x "$worker" ] || [ "$src" -nt "$worker" ]; then
		"${CXX:-g++}" -O2 -std=c++17 -o "$worker" "$src" -lsimdjson ||
		    worker=
	fi
fi
[ -n "$worker" ] || echo "(simdjson is not installed: no parse ceiling; scripts/install-deps race)"
echo "== parser"
SIMDJSON_WORKER=$worker "$exe"
