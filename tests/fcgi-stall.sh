#!/bin/sh
# fcgi-stall.sh: peers that stall cost the others nothing.  One FastCGI
# process (spawn-fcgi on a unix socket) with GPT_FCGI_IDLE_TIMEOUT=3 and
# GPT_FCGI_REQUEST_TIMEOUT=4:
#
#   - ten connections that send nothing, then one real GET: the GET is
#     answered within 2 s (served one after another, each silent peer
#     held the process for its 3 s: 30 s);
#   - a reader that takes 64 KB a second of a 3 MB answer is cut at the
#     request's deadline (4 s), not after the whole answer (about 47 s),
#     and a GET sent meanwhile is answered;
#   - ten peers that each send a request head and trickle their body a
#     byte a second, then one real GET: answered within 2 s;
#   - after them all the process is still there and answers.
#
# Every client runs under its own bounded timer (tests/stall.pl), so a
# failure is a line, never a hang.
. "${GPT_SRCDIR:-.}/tests/lib.sh"

if ! command -v spawn-fcgi >/dev/null 2>&1; then
	# scripts/install-deps installs it: missing is an error, not a skip
	echo "fcgi-stall.sh: spawn-fcgi is required (Debian: spawn-fcgi)"
	exit 1
fi
STALL="perl $GPT_SRCDIR/tests/stall.pl"
ROOT=$TEST_TMP/root
SOCK=$TEST_TMP/stall.sock
mkdir -p "$ROOT/small" "$ROOT/big"
printf '{"p": "a small form", "m": [], "s": {"type": "object"}}\n' \
    >"$ROOT/small/form.json"
{
	printf '{"p": "'
	head -c 3000000 /dev/zero | tr '\0' p
	printf '", "m": [], "s": {"type": "object"}}'
} >"$ROOT/big/form.json"

GPT_ROOT=$ROOT GPT_FCGI_IDLE_TIMEOUT=3 GPT_FCGI_REQUEST_TIMEOUT=4 \
    spawn-fcgi -s "$SOCK" -n -- "$GPT_FCGI" 2>"$TEST_TMP/server-err" &
pid=$!
pids=
stop() {
	for p in $pids; do kill "$p" 2>/dev/null; done
	stop_pid "$pid"
	rm -rf "$TEST_TMP"
}
trap stop EXIT
i=0
while [ ! -S "$SOCK" ] && [ $i -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
if [ ! -S "$SOCK" ]; then
	echo "fcgi-stall.sh: the process did not start: $(cat "$TEST_TMP/server-err")"
	exit 1
fi

# get_within SECONDS LABEL: one GET of /small answered 200 within SECONDS.
get_within() {
	if $STALL get "$SOCK" /small "$1" >"$TEST_TMP/get" 2>&1; then pass; else
		fail "$2: $(cat "$TEST_TMP/get")"
	fi
}

get_within 2 "a GET with no one else"

# Ten silent peers, each connected before the GET.
pids=
for i in 1 2 3 4 5 6 7 8 9 10; do
	$STALL silent "$SOCK" /small 20 >/dev/null 2>&1 &
	pids="$pids $!"
done
sleep 0.5
get_within 2 "a GET behind ten silent peers"
for p in $pids; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null; done
pids=

# A slow reader of a 3 MB answer: cut at the deadline; a GET meanwhile.
$STALL slowread "$SOCK" /big 30 >"$TEST_TMP/slow" 2>&1 &
slow=$!
sleep 1
get_within 2 "a GET while a slow reader takes a 3 MB answer"
wait "$slow"
rc=$?
# cut at 4 s from its first byte: allow for a loaded machine
if [ $rc -eq 0 ] && awk '{ exit !($(NF - 1) <= 7) }' "$TEST_TMP/slow"; then pass; else
	fail "the slow reader: $(cat "$TEST_TMP/slow") (exit $rc)," \
	    "expected a cut within 7 s"
fi
expect_true "the cut is logged" \
    grep -q 'did not take the answer within 4 s' "$TEST_TMP/server-err"

# Ten peers trickling their bodies.
for i in 1 2 3 4 5 6 7 8 9 10; do
	$STALL trickle "$SOCK" /small 20 >/dev/null 2>&1 &
	pids="$pids $!"
done
sleep 0.5
get_within 2 "a GET behind ten peers trickling their bodies"
for p in $pids; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null; done
pids=

get_within 2 "a GET after them all"
if alive "$pid"; then pass; else fail "the process is gone"; fi
finish
