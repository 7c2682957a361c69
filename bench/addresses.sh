#!/bin/sh
# addresses.sh: what many addresses under one root cost one FastCGI
# process.  A client cycling through N addresses (17, just past the old
# 16-entry cache, and 100) against the same client asking one address,
# all GETs of the same small form, one FastCGI process (spawn-fcgi on a
# unix socket), tests/fcgi_client playing the web server one request at a
# time.  With every address kept loaded (the cache is sized in bytes,
# GPT_CACHE_BYTES), the ratio stays near 1; an address reloaded at every
# request shows as a ratio far below it.  Each round runs one A B B A
# for each N; the figure is the median of the per-round ratios.
#
# Environment: GPT_FCGI, GPT_SRCDIR, GPT_BUILDDIR (set by make bench);
# ROUNDS (5), COUNT (20000 requests a run).
set -u
GPT_FCGI=${GPT_FCGI:-./gpt.fcgi}
GPT_SRCDIR=${GPT_SRCDIR:-.}
GPT_BUILDDIR=${GPT_BUILDDIR:-.}
. "$GPT_SRCDIR/bench/lib.sh"
ROUNDS=${ROUNDS:-5}
COUNT=${COUNT:-20000}
CLIENT=$GPT_BUILDDIR/tests/fcgi_client

if ! command -v spawn-fcgi >/dev/null 2>&1; then
	echo "addresses.sh: spawn-fcgi is missing (scripts/install-deps)" >&2
	exit 1
fi
for prog in "$GPT_FCGI" "$CLIENT"; do
	if [ ! -x "$prog" ]; then
		echo "addresses.sh: $prog is not built (run make bench)" >&2
		exit 1
	fi
done

T=$(mktemp -d "${TMPDIR:-/tmp}/gpt-bench-addr.XXXXXX")
pid=
cleanup() {
	if [ -n "$pid" ]; then
		kill "$pid" 2>/dev/null
		i=0
		while kill -0 "$pid" 2>/dev/null && [ $i -lt 50 ]; do
			sleep 0.1
			i=$((i + 1))
		done
		kill -9 "$pid" 2>/dev/null
	fi
	rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

mkdir -p "$T/root/a000"
cat >"$T/root/a000/form.json" <<'EOF'
{"p": "Leave a note for the team. Say who you are and what it is about.",
 "m": [{"role": "user", "content": "How do I leave a note?"}],
 "s": {"type": "object",
       "properties": {"name": {"type": "string", "minLength": 1},
                      "topic": {"enum": ["question", "idea", "bug"]},
                      "text": {"type": "string", "maxLength": 10000}},
       "required": ["name", "topic", "text"],
       "additionalProperties": false}}
EOF
i=1
while [ $i -lt 100 ]; do
	cp -R "$T/root/a000" "$T/root/$(printf 'a%03d' $i)"
	i=$((i + 1))
done
plan() { # plan N: GETs of a000 .. a(N-1), in turn
	i=0
	while [ $i -lt "$1" ]; do
		n=$(printf 'a%03d' $i)
		echo "expect=200 REQUEST_METHOD=GET PATH_INFO=/$n REQUEST_URI=/gpt/$n"
		i=$((i + 1))
	done >"$T/plan.$1"
}
plan 1
plan 17
plan 100

env -i PATH=/usr/bin:/bin GPT_ROOT="$T/root" \
    spawn-fcgi -P "$T/pid" -s "$T/gpt.sock" -- "$GPT_FCGI" \
    >/dev/null 2>"$T/spawn.err" || {
	echo "addresses.sh: spawn-fcgi failed: $(cat "$T/spawn.err")" >&2
	exit 1
}
pid=$(cat "$T/pid")
i=0
while [ ! -S "$T/gpt.sock" ] && [ $i -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done

results=$T/results
: >"$results"
run() { # run ROUND N: one client run over plan N
	c0=$(bench_cpu_ns "$pid")
	if "$CLIENT" -s "$T/gpt.sock" -n "$COUNT" "$T/plan.$2" >"$T/out" 2>&1; then
		rps=$(awk '/ req\/s$/ { print $(NF - 1) }' "$T/out")
	else
		rps=0
		head -n 3 "$T/out" >&2
	fi
	c1=$(bench_cpu_ns "$pid")
	cpu=$(bench_cpu_per_req "$c0" "$c1" "$COUNT")
	echo "$1 n$2 ${rps:-0} $cpu" >>"$results"
	printf '  round %d  %3d address(es) in turn %10s req/s  CPU %6s us/req\n' \
	    "$1" "$2" "${rps:-0}" "$cpu"
}

echo "addresses: $COUNT GETs a run, one at a time, one FastCGI process," \
    "$ROUNDS rounds of A B B A"
# The forms were just written: past the racy window (address.h) first,
# then every address loaded once.
sleep 3
run 0 100 >/dev/null
: >"$results"
round=1
while [ $round -le "$ROUNDS" ]; do
	for n in 17 100; do
		run $round 1
		run $round $n
		run $round $n
		run $round 1
	done
	round=$((round + 1))
done

echo
echo "addresses summary (median of runs):"
printf '  %-28s %10s %11s\n' case "req/s" "CPU us/req"
for n in 1 17 100; do
	awk -v n="n$n" "$BENCH_AWK_MED"'
	$2 == n { r[++k] = $3; c[k] = $4 }
	END { if (k) printf "  %-28s %10.0f %11.2f\n", substr(n, 2) " address(es) in turn", med(r, k), med(c, k) }' "$results"
done
ratio() { # ratio LABEL N COLUMN TARGET: N addresses against one
	bench_ratio "$results" "$1" "n$2" n1 "$4" "$3"
}
echo
echo "addresses ratios (within each round):"
ratio "req/s, 17 addresses / one" 17 3 ">= 0.9x"
ratio "req/s, 100 addresses / one" 100 3 ">= 0.9x"
ratio "CPU/req, 17 addresses / one" 17 4 "<= 1.1x"
ratio "CPU/req, 100 addresses / one" 100 4 "<= 1.1x"
