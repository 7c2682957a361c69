# lib.sh: what the benchmarks that compare with ajv share (validate.sh,
# formats.sh).  Source it after setting srcdir and builddir.
#
# bench_against_ajv EXE SCHEMA [RUNNER OPTION...]: where node and npm work,
# installs ajv and ajv-formats (pinned in bench/ajv's package.json) into
# the build tree (bench/ajv/node_modules, never the source tree), then
# alternates EXE's parse + validate with bench/ajv/run.js (given the
# options) three times on the very same bytes (EXE's small and large
# bodies) and prints the median of each and their ratio.  Without node,
# npm or a network it says why and ends the script with status 0.
bench_against_ajv() {
	_exe=$1
	_schema=$2
	shift 2
	if ! command -v node >/dev/null 2>&1 ||
	    ! command -v npm >/dev/null 2>&1; then
		echo "skipped: node or npm is not installed"
		exit 0
	fi
	_work="$builddir/bench/ajv"
	mkdir -p "$_work"
	if ! [ "$_work" -ef "$srcdir/bench/ajv" ]; then
		cp "$srcdir/bench/ajv/package.json" "$srcdir/bench/ajv/run.js" \
		    "$_work/"
	fi
	if [ ! -f "$_work/node_modules/ajv/dist/2020.js" ] ||
	    [ ! -f "$_work/node_modules/ajv-formats/package.json" ]; then
		if ! (cd "$_work" && timeout 300 npm install --no-audit \
		    --no-fund --silent >/dev/null 2>&1); then
			echo "skipped: npm install ajv failed (offline?)"
			exit 0
		fi
	fi
	_tmp=$(mktemp -d "${TMPDIR:-/tmp}/gpt-bench.XXXXXX")
	trap 'rm -rf "$_tmp"' EXIT
	"$_exe" "$_schema" dump "$_tmp"
	_small=$(wc -c <"$_tmp/small.json")
	_large=$(wc -c <"$_tmp/large.json")

	# Three alternations: ours, then ajv, on both bodies.
	for _round in 1 2 3; do
		echo "small $("$_exe" "$_schema" mbps "$_small")" >>"$_tmp/gpt"
		echo "large $("$_exe" "$_schema" mbps "$_large")" >>"$_tmp/gpt"
		node "$_work/run.js" "$@" "$_schema" "$_tmp/small.json" \
		    "$_tmp/large.json" |
		    sed -e "s|^$_tmp/\\(.*\\)\\.json|\\1|" >>"$_tmp/ajv"
	done

	printf '%-6s %10s %12s %12s %8s\n' body size "gpt MB/s" "ajv MB/s" \
	    ratio
	for _b in small large; do
		_g=$(bench_median "$_b" "$_tmp/gpt")
		_a=$(bench_median "$_b" "$_tmp/ajv")
		_size=$_small
		[ "$_b" = large ] && _size=$_large
		awk -v b="$_b" -v s="$_size" -v g="$_g" -v a="$_a" 'BEGIN {
			printf "%-6s %8d B %12.1f %12.1f %7.2fx\n", b, s, g, a,
			    g / a
		}'
	done
	echo "(parse + validate, median of 3 alternated runs of 9 rounds" \
	    "each; target >= 3x)"
}

bench_median() { # bench_median BODY FILE: the middle of the three figures
	awk -v b="$1" '$1 == b { print $2 }' "$2" | sort -g | sed -n 2p
}
