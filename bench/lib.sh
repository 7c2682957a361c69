# lib.sh: what the benchmark scripts share.  Source it; each function says
# what it reads.
#
# bench_cpu_ns PID...: the CPU time (ns, from the scheduler) the processes
# have spent, summed; 0 for one that is gone.  Unlike requests per second,
# it hardly moves when other work shares the machine.
bench_cpu_ns() {
	for _p in "$@"; do
		cat "/proc/$_p/schedstat" 2>/dev/null
	done | awk '{ t += $1 } END { printf "%.0f", t }'
}

# bench_cpu_per_req NS_BEFORE NS_AFTER REQUESTS: microseconds a request,
# "nan" when nothing was counted.
bench_cpu_per_req() {
	awk -v a="$1" -v b="$2" -v n="$3" 'BEGIN {
		if (n > 0 && b > a) printf "%.2f", (b - a) / n / 1000
		else printf "nan" }'
}

# The awk function med(x, k): the median of x[1..k] (sorts x).  Put it
# before an awk program that calls it: awk "$BENCH_AWK_MED"'...'.
BENCH_AWK_MED='
	function med(x, k,   i, j, t) {
		for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++)
			if (x[j] + 0 < x[i] + 0) { t = x[i]; x[i] = x[j]; x[j] = t }
		return x[int((k + 1) / 2)]
	}
'

# bench_ratio RESULTS LABEL NUM DEN TARGET [COLUMN]: RESULTS has a line a
# run, "ROUND CASE FIGURE...".  Within each round, the mean of COLUMN (3
# unless given; "nan" is left out) over case NUM's runs against case
# DEN's; prints the median of those per-round ratios, and each of them.
bench_ratio() {
	awk -v l="$2" -v n="$3" -v d="$4" -v t="$5" -v col="${6:-3}" \
	    "$BENCH_AWK_MED"'
	$2 == n && $col != "nan" { num[$1] += $col; nn[$1]++ }
	$2 == d && $col != "nan" { den[$1] += $col; dn[$1]++ }
	END {
		k = 0; s = ""
		for (r = 1; r in num; r++) if (den[r] > 0 && nn[r] > 0) {
			v[++k] = (num[r] / nn[r]) / (den[r] / dn[r])
			s = s sprintf(" %.2f", v[k])
		}
		if (!k) exit
		printf "  %-34s %5.2fx  (rounds:%s; target %s)\n", l,
		    med(v, k), s, t
	}' "$1"
}

# bench_ajv_install: for the scripts that set srcdir and builddir.  Where
# node and npm work, installs ajv and ajv-formats (pinned in bench/ajv's
# package.json) and bench/ajv/run.js into the build tree
# (bench/ajv/node_modules, never the source tree) and sets bench_ajv_dir
# to the directory that holds run.js; without node, npm or a network it
# returns 1 with the reason in bench_ajv_why.
bench_ajv_install() {
	if ! command -v node >/dev/null 2>&1 ||
	    ! command -v npm >/dev/null 2>&1; then
		bench_ajv_why="node or npm is not installed"
		return 1
	fi
	bench_ajv_dir="$builddir/bench/ajv"
	_work=$bench_ajv_dir
	mkdir -p "$_work"
	if ! [ "$_work" -ef "$srcdir/bench/ajv" ]; then
		cp "$srcdir/bench/ajv/package.json" "$srcdir/bench/ajv/run.js" \
		    "$_work/"
	fi
	if [ ! -f "$_work/node_modules/ajv/dist/2020.js" ] ||
	    [ ! -f "$_work/node_modules/ajv-formats/package.json" ]; then
		if ! (cd "$_work" && timeout 300 npm install --no-audit \
		    --no-fund --silent >/dev/null 2>&1); then
			bench_ajv_why="npm install ajv failed (offline?)"
			return 1
		fi
	fi
}

# bench_against_ajv EXE SCHEMA [RUNNER OPTION...]: for validate.sh and
# formats.sh, which set srcdir and builddir.  Installs ajv
# (bench_ajv_install), then alternates EXE's parse + validate with
# bench/ajv/run.js (given the options) three times on the very same bytes
# (EXE's small and large bodies) and prints the median of each and their
# ratio.  Without node, npm or a network it says why and ends the script
# with status 0.
bench_against_ajv() {
	_exe=$1
	_schema=$2
	shift 2
	if ! bench_ajv_install; then
		echo "skipped: $bench_ajv_why"
		exit 0
	fi
	_work=$bench_ajv_dir
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

# bench_simdjson: build simdjson's side of the parse race into the build
# tree (GPT_BUILDDIR, GPT_SRCDIR; bench/simdjson_worker.cc, with Debian's
# libsimdjson-dev: scripts/install-deps race) and export SIMDJSON_WORKER
# and SIMDJSON_KERNELS for bench/bench_parse: the kernel simdjson picks for
# this CPU and, where that is not its AVX2 one ("haswell"), that one too,
# so that the table says how much of the gap is simdjson's use of wider
# vectors.  Without simdjson, says so and exports nothing.
bench_simdjson() {
	SIMDJSON_WORKER=
	SIMDJSON_KERNELS=
	if [ -f /usr/include/simdjson.h ] && command -v "${CXX:-g++}" >/dev/null; then
		SIMDJSON_WORKER=${GPT_BUILDDIR:-.}/bench/simdjson_worker
		_src=${GPT_SRCDIR:-.}/bench/simdjson_worker.cc
		if [ ! -x "$SIMDJSON_WORKER" ] || [ "$_src" -nt "$SIMDJSON_WORKER" ]; then
			"${CXX:-g++}" -O2 -std=c++17 -o "$SIMDJSON_WORKER" "$_src" \
			    -lsimdjson || SIMDJSON_WORKER=
		fi
	fi
	if [ -z "$SIMDJSON_WORKER" ]; then
		echo "(simdjson is not installed: no parse ceiling; scripts/install-deps race)"
		return 0
	fi
	_k=$("$SIMDJSON_WORKER" --kernels)
	_pick=$(echo "$_k" | head -n 1)
	SIMDJSON_KERNELS=$_pick
	if [ "$_pick" != haswell ] && echo "$_k" | grep -qx haswell; then
		SIMDJSON_KERNELS="$_pick haswell"
	fi
	echo "(simdjson $SIMDJSON_KERNELS: the first is the kernel it picks for this CPU)"
	export SIMDJSON_WORKER SIMDJSON_KERNELS
}
