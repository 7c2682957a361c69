#!/bin/sh
# metrics.sh: what counting costs (GPT_METRICS_DIR), same run, same
# binary, the counts on and off:
#   FastCGI GET  two gpt.fcgi processes (spawn-fcgi), one counting into a
#                directory, one not; the FastCGI client of the soak test
#                sends COUNT GETs over one kept connection to each, in
#                ROUNDS rounds of A B B A; the ratio is of the CPU time
#                per request of the process (/proc/PID/schedstat), which
#                other work on the machine sways less than req/s;
#   CGI GET      one GET as a CGI program, with and without the locked
#                update of the shared file (hyperfine, many runs).
#   counting     the counting of a GET alone (bench/bench_metrics.c),
#                against the CPU per GET above.
# Environment: GPT_FCGI, GPT_SRCDIR, GPT_BUILDDIR (set by make bench);
# COUNT (default 20000), ROUNDS (default 3), SWAP (see below).
set -eu
GPT_FCGI=${GPT_FCGI:-./gpt.fcgi}
GPT_SRCDIR=${GPT_SRCDIR:-.}
GPT_BUILDDIR=${GPT_BUILDDIR:-.}
COUNT=${COUNT:-20000}
ROUNDS=${ROUNDS:-3}
CLIENT=$GPT_BUILDDIR/tests/fcgi_client
[ -x "$CLIENT" ] || make -C "$GPT_BUILDDIR" tests/fcgi_client >/dev/null
T=$(mktemp -d "${TMPDIR:-/tmp}/gpt-bench-metrics.XXXXXX")
pids=
trap 'for p in $pids; do kill "$p" 2>/dev/null; done; rm -rf "$T"' EXIT
mkdir -p "$T/root" "$T/metrics"
cp -R "$GPT_SRCDIR/examples/echo" "$T/root/echo"

GPT_ROOT=$T/root spawn-fcgi -s "$T/off.sock" -n -- "$GPT_FCGI" \
    2>/dev/null &
off=$!
# SWAP=yes: the counting process is started first (the order of the
# two processes is then the other way round, to see what the order alone
# weighs)
if [ "${SWAP:-}" = yes ]; then
	kill "$off"
	GPT_ROOT=$T/root GPT_METRICS_DIR=$T/metrics \
	    spawn-fcgi -s "$T/on.sock" -n -- "$GPT_FCGI" 2>/dev/null &
	on=$!
	rm -f "$T/off.sock"
	GPT_ROOT=$T/root spawn-fcgi -s "$T/off.sock" -n -- "$GPT_FCGI" \
	    2>/dev/null &
	off=$!
else
	GPT_ROOT=$T/root GPT_METRICS_DIR=$T/metrics \
	    spawn-fcgi -s "$T/on.sock" -n -- "$GPT_FCGI" 2>/dev/null &
	on=$!
fi
pids="$off $on"
i=0
while { [ ! -S "$T/off.sock" ] || [ ! -S "$T/on.sock" ]; } && [ $i -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
echo "REQUEST_METHOD=GET PATH_INFO=/echo SERVER_PROTOCOL=HTTP/1.1 expect=200" \
    >"$T/plan"

cpu_ns() { cut -d' ' -f1 "/proc/$1/schedstat"; }
# run NAME PID SOCK: COUNT GETs; adds the CPU ns per request to NAME's sum
run() {
	_b=$(cpu_ns "$2")
	"$CLIENT" -s "$3" -n "$COUNT" -k "$T/plan" >"$T/out" 2>&1 || {
		cat "$T/out" >&2
		exit 1
	}
	_a=$(cpu_ns "$2")
	echo $(((_a - _b) / COUNT)) >>"$T/$1"
}
: >"$T/off" && : >"$T/on"
r=0
while [ $r -lt "$ROUNDS" ]; do
	run off "$off" "$T/off.sock"
	run on "$on" "$T/on.sock"
	run on "$on" "$T/on.sock"
	run off "$off" "$T/off.sock"
	r=$((r + 1))
done
sum() { awk '{ s += $1 } END { print s / NR }' "$1"; }
a=$(sum "$T/off")
b=$(sum "$T/on")
echo "metrics: FastCGI GET, CPU per request: $a ns without counts," \
    "$b ns with (ratio $(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.3f", b / a }'))" \
    "over $((ROUNDS * 2)) runs of $COUNT each"
ls "$T/metrics"/*.prom >/dev/null
# The counting alone, per GET, against the CPU of a whole GET: two
# processes differ by more than 2% on a shared machine whatever they do
# (an A/A run of this script, both without counts, has shown 30%), so
# the bound is read from the counting's own cost.
${CC:-cc} -O2 -I"$GPT_SRCDIR/src" -I"$GPT_BUILDDIR" -o "$T/bench_metrics" \
    "$GPT_SRCDIR/bench/bench_metrics.c" "$GPT_BUILDDIR/libgpt.a"
c=$("$T/bench_metrics" "$T/metrics")
echo "metrics: the counting of one GET alone: $c ns, $(awk -v c="$c" -v a="$a" \
    'BEGIN { printf "%.2f%%", 100 * c / a }') of a GET's CPU here"

if command -v hyperfine >/dev/null 2>&1; then
	cat >"$T/cgi" <<EOF
#!/bin/sh
exec env -i REQUEST_METHOD=GET GPT_ROOT=$T/root PATH_INFO=/echo \
    "\$@" "$GPT_FCGI" </dev/null >/dev/null 2>&1
EOF
	chmod 755 "$T/cgi"
	hyperfine -N -w 20 -r 300 "$T/cgi" \
	    "$T/cgi GPT_METRICS_DIR=$T/metrics" \
	    --export-markdown "$T/cgi.md" >/dev/null 2>&1 || :
	echo "metrics: CGI GET without and with the locked update:"
	cat "$T/cgi.md"
fi
