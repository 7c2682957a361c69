#!/bin/sh
# compose.sh: what a form's a costs an accepted act, and what --graph
# costs a root.
#
# Acts: one gpt.fcgi under spawn-fcgi on a unix socket; tests/fcgi_client
# sends COUNT accepted acts a run, one at a time, to one of two addresses
# with the same s and the same hook (a copy of cat: the answer is the
# act): "plain" has no a, "typed" has the support desk's close form as
# a (a pattern and a bounded string, as the example checks its answers),
# so each act's answer is parsed and validated once more.  Hook included:
# the figure is the whole act, as an actor sees it.  ROUNDS rounds of
# A B B A; the ratio typed / plain is taken within each round.
#
# Graph: gpt.fcgi --graph over roots of 1,000 and 10,000 generated
# addresses (each links to the next): seconds and peak RSS, and the
# growth per address between the two.
#
# Environment: GPT_FCGI, GPT_SRCDIR, GPT_BUILDDIR (set by make bench);
# ROUNDS (5), COUNT (2000).
set -u
GPT_FCGI=${GPT_FCGI:-./gpt.fcgi}
GPT_SRCDIR=${GPT_SRCDIR:-.}
GPT_BUILDDIR=${GPT_BUILDDIR:-.}
. "$GPT_SRCDIR/bench/lib.sh"
ROUNDS=${ROUNDS:-5}
COUNT=${COUNT:-2000}
CLIENT=$GPT_BUILDDIR/tests/fcgi_client

for tool in spawn-fcgi perl; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		echo "compose.sh: $tool is missing (scripts/install-deps)" >&2
		exit 1
	fi
done
for prog in "$GPT_FCGI" "$CLIENT"; do
	if [ ! -x "$prog" ]; then
		echo "compose.sh: $prog is not built (run make bench)" >&2
		exit 1
	fi
done

T=$(mktemp -d "${TMPDIR:-/tmp}/gpt-bench-compose.XXXXXX")
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
umask 022

desk=$GPT_SRCDIR/examples/support-desk/close/form.json
for n in plain typed; do
	mkdir -p "$T/root/$n"
	cp "$(command -v cat)" "$T/root/$n/hook"
done
jq 'del(.a, .links)' "$desk" >"$T/root/plain/form.json"
# a: the form of the act itself (the hook echoes it), as strict as s
jq '.a = .s | del(.links)' "$desk" >"$T/root/typed/form.json"
printf '{"ticket": "ticket-12", "resolution": "The printer was replaced and tested."}' \
    >"$T/act.json"
for n in plain typed; do
	echo "expect=200 match=ticket-12 REQUEST_METHOD=POST PATH_INFO=/$n REQUEST_URI=/gpt/$n CONTENT_TYPE=application/json body=$T/act.json" \
	    >"$T/plan.$n"
done

env -i PATH=/usr/bin:/bin GPT_ROOT="$T/root" \
    spawn-fcgi -P "$T/pid" -s "$T/gpt.sock" -- "$GPT_FCGI" \
    >/dev/null 2>"$T/spawn.err" || {
	echo "compose.sh: spawn-fcgi failed: $(cat "$T/spawn.err")" >&2
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
run() { # run ROUND NAME
	c0=$(bench_cpu_ns "$pid")
	if "$CLIENT" -s "$T/gpt.sock" -k -n "$COUNT" "$T/plan.$2" \
	    >"$T/out" 2>&1; then
		rps=$(awk '/ req\/s$/ { print $(NF - 1) }' "$T/out")
	else
		rps=0
		head -n 3 "$T/out" >&2
	fi
	c1=$(bench_cpu_ns "$pid")
	cpu=$(bench_cpu_per_req "$c0" "$c1" "$COUNT")
	# ms an act, the hook included
	ms=$(awk -v r="${rps:-0}" 'BEGIN { if (r > 0) printf "%.3f", 1000 / r; else print "nan" }')
	echo "$1 $2 $ms $cpu ${rps:-0}" >>"$results"
	printf '  round %d  %-6s %8s req/s  %7s ms/act  gpt.fcgi CPU %6s us/act\n' \
	    "$1" "$2" "${rps:-0}" "$ms" "$cpu"
}

echo "compose: $COUNT accepted acts a run, one at a time (hook: cat)," \
    "one FastCGI process, $ROUNDS rounds of A B B A"
sleep 3 # past the racy window (address.h)
run 0 plain >/dev/null
run 0 typed >/dev/null
: >"$results"
round=1
while [ "$round" -le "$ROUNDS" ]; do
	run "$round" plain
	run "$round" typed
	run "$round" typed
	run "$round" plain
	round=$((round + 1))
done
echo
echo "compose ratios (within each round):"
bench_ratio "$results" "time an act, typed / plain" typed plain "<= 1.10x" 3
bench_ratio "$results" "gpt.fcgi CPU an act, typed / plain" typed plain "(context)" 4

# --- --graph ------------------------------------------------------------
gen() { # gen DIR N
	perl -e '
	my ($root, $n) = @ARGV;
	mkdir $root or die;
	for my $i (0 .. $n - 1) {
		my $d = sprintf("%s/a%05d", $root, $i);
		mkdir $d or die;
		open(my $f, ">", "$d/form.json") or die;
		printf $f "{\"p\": \"Address %d. Next.\", \"m\": [], \"s\": {\"type\": \"object\", \"additionalProperties\": false, \"properties\": {\"note\": {\"type\": \"string\", \"maxLength\": 100}}}, \"links\": [{\"rel\": \"next\", \"href\": \"a%05d\", \"title\": \"The next one\"}]}\n", $i, ($i + 1) % $n;
		close $f;
	}' "$1" "$2"
}
echo
echo "graph: gpt.fcgi --graph over generated roots (each address links to the next)"
for n in 1000 10000; do
	gen "$T/g$n" "$n"
	/usr/bin/time -f "%e %M" -o "$T/time.$n" "$GPT_FCGI" --graph \
	    "$T/g$n" >"$T/graph.$n"
	printf '  %6d addresses: %6s s, peak RSS %7s KB, output %9s bytes\n' \
	    "$n" "$(cut -d ' ' -f 1 "$T/time.$n")" \
	    "$(cut -d ' ' -f 2 "$T/time.$n")" "$(wc -c <"$T/graph.$n")"
	rm -rf "$T/g$n"
done
awk 'FNR == 1 { split($0, x, " "); t[++k] = x[1]; m[k] = x[2] }
END { printf "  growth: %.2f KB of RSS per address from 1,000 to 10,000 (%.1fx the time for 10x the addresses)\n",
    (m[2] - m[1]) / 9000, (t[1] > 0 ? t[2] / t[1] : 0) }' "$T/time.1000" "$T/time.10000"
