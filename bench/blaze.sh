#!/bin/sh
# blaze.sh: gpt.fcgi's validator raced against Blaze (a C++ JSON Schema
# validator that compiles schemas ahead of time) on Blaze's own end-to-end
# corpus of real schemas with real instances, through bench/corpus.sh; then
# the memory each side holds per byte of the instances (bench/heap.sh), and
# the parse alone of the same instances against simdjson's DOM parser
# (bench/parse.sh).
#
#   [BLAZE_PEER=DIR] [REPS=3] make bench-blaze
#
# BLAZE_PEER (default: ../shared/peers/blaze beside the source tree) holds
# Blaze's source as blaze-src.tar.xz, its side of the loop (blaze_e2e.cc,
# the same fields as bench/bench_corpus.c prints) and the CMakeLists.txt
# that builds it.  Nothing of it enters gpt.fcgi: it is unpacked and built
# in the build tree, once, with clang 19 and libc++ (Blaze needs C++23;
# scripts/install-deps race installs them; the source ships without the
# test library of its core, which the build is told to leave out).
# Without the directory this prints why and exits 0.
set -eu
: "${GPT_SRCDIR:?}" "${GPT_BUILDDIR:?}"
peer=${BLAZE_PEER:-$GPT_SRCDIR/../shared/peers/blaze}
if [ ! -f "$peer/blaze-src.tar.xz" ] || [ ! -f "$peer/CMakeLists.txt" ]; then
	echo "bench-blaze: skipped: no Blaze source at $peer (set BLAZE_PEER=DIR)"
	exit 0
fi
peer=$(cd "$peer" && pwd)
for t in cmake clang-19 clang++-19; do
	command -v "$t" >/dev/null || {
		echo "bench-blaze: skipped: $t is missing (scripts/install-deps race)"
		exit 0
	}
done
work=$GPT_BUILDDIR/bench/blaze
mkdir -p "$work"
if [ ! -f "$work/src/CMakeLists.txt" ]; then
	rm -rf "$work/src"
	mkdir -p "$work/src"
	tar -xJf "$peer/blaze-src.tar.xz" -C "$work/src"
fi
if [ ! -x "$work/build/blaze_e2e" ]; then
	echo "bench-blaze: building Blaze (once; several minutes)" >&2
	CC=clang-19 CXX=clang++-19 cmake -S "$peer" -B "$work/build" \
	    -DBLAZE_SRC="$work/src" -DCMAKE_BUILD_TYPE=Release \
	    -DSOURCEMETA_CORE_LANG_TEST=OFF \
	    -DCMAKE_CXX_FLAGS=-stdlib=libc++ \
	    -DCMAKE_EXE_LINKER_FLAGS=-stdlib=libc++ >"$work/cmake.log" 2>&1 || {
		tail -n 30 "$work/cmake.log"; exit 1; }
	cmake --build "$work/build" -j"${JOBS:-2}" --target blaze_e2e \
	    >>"$work/cmake.log" 2>&1 || { tail -n 30 "$work/cmake.log"; exit 1; }
fi
CORPUS=$work/src/benchmark/e2e PEER=$work/build/blaze_e2e PEER_NAME=blaze \
    OUT=$GPT_BUILDDIR/bench/blaze-out sh "$GPT_SRCDIR/bench/corpus.sh"
# Memory per input byte, every side measured alike (bench/heap.sh), with
# simdjson's DOM parser where it is installed (bench_simdjson).
. "$GPT_SRCDIR/bench/lib.sh"
echo
bench_simdjson
echo "== memory: heap peak per byte of instances (each side keeps every instance parsed)"
CORPUS=$work/src/benchmark/e2e PEER=$work/build/blaze_e2e \
    ADDRS=$GPT_BUILDDIR/bench/blaze-out/addrs \
    OUT=$GPT_BUILDDIR/bench/heap-out sh "$GPT_SRCDIR/bench/heap.sh"
# The parse alone against simdjson's DOM parser: the generated bodies,
# then the corpus's instances (bench/parse.sh).
echo
PARSE_CORPUS=$work/src/benchmark/e2e exec sh "$GPT_SRCDIR/bench/parse.sh"
