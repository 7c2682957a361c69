#!/bin/sh
# demo.sh: scripts/demo, the README's second command, works as printed:
# start it on a free port, wait until it prints its curl lines, run them,
# check what they answer, stop it with a signal and check it cleaned up.
. "${GPT_SRCDIR:-.}/tests/servers-common.sh"
need lighttpd setsid

port=$(free_port)
out=$TEST_TMP/demo.out
# Its own session and process group, so the whole demo can be stopped.
PORT=$port GPT_FCGI=$GPT_FCGI TMPDIR=$TEST_TMP \
    setsid "$GPT_SRCDIR/scripts/demo" >"$out" 2>&1 </dev/null &
demo=$!
started "$demo"

i=0
while ! grep -q 'Ctrl-C stops everything' "$out" && [ "$i" -lt 300 ]; do
	alive "$demo" || break
	sleep 0.1
	i=$((i + 1))
done
if grep -q 'Ctrl-C stops everything' "$out"; then pass; else
	fail "the demo starts and prints its instructions in 30 s"
	sed 's/^/    demo: /' "$out" >&2
fi
expect_true "the demo installs only its own group (install-deps demo)" \
    grep -q '^install-deps: demo: ' "$out"
expect_true "the demo lists the guestbook URL" \
    grep -q "^    http://127.0.0.1:$port/gpt/guestbook\$" "$out"

grep '^  curl ' "$out" >"$TEST_TMP/lines"
n=$(wc -l <"$TEST_TMP/lines")
expect_true "the demo prints three curl lines (got $n)" test "$n" -eq 3

line() { sed -n "${1}p" "$TEST_TMP/lines"; }

sh -c "$(line 1)" >"$TEST_TMP/r1" 2>&1
expect_true "line 1 fetches the guestbook form" \
    jq -e '.s.properties.name and (.p | type == "string")' "$TEST_TMP/r1"

sh -c "$(line 2)" >"$TEST_TMP/r2" 2>&1
expect_true "line 2 is an accepted act (200)" \
    grep -q '^HTTP/1.1 200' "$TEST_TMP/r2"
expect_true "line 2 answers the hook's {\"entry\": 1}" \
    grep -q '^{"entry": 1}' "$TEST_TMP/r2"

sh -c "$(line 3)" >"$TEST_TMP/r3" 2>&1
expect_true "line 3 is a rejected act (204)" \
    grep -q '^HTTP/1.1 204' "$TEST_TMP/r3"

demo_tmp=$(sed -n 's|^Logs: \(.*\)/lighttpd-error.log.*|\1|p' "$out")
expect_true "the demo works in a temporary directory ($demo_tmp)" \
    test -d "$demo_tmp"

# Ctrl-C signals the whole foreground group.  A script's background jobs
# start with SIGINT ignored (POSIX), so send TERM, which the demo traps
# the same way.
kill -TERM "-$demo"
i=0
while alive "$demo" && [ "$i" -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
expect_true "the demo stops on a signal within 10 s" sh -c "! ps -o stat= -p $demo | grep -qv Z"
expect_true "the demo removed its temporary directory" test ! -e "$demo_tmp"
n=$(curl -s --max-time 2 -o /dev/null -w '%{http_code}' \
    "http://127.0.0.1:$port/gpt/echo")
expect_true "nothing answers on the port afterwards (got $n)" test "$n" = 000


# The demo's packages (scripts/install-deps --list demo, which installs
# nothing) are a part of the whole list: the build's, and lighttpd, not
# the development tools.
deps=$GPT_SRCDIR/scripts/install-deps
"$deps" --list demo >"$TEST_TMP/deps.demo"
"$deps" --list >"$TEST_TMP/deps.all"
expect_true "the demo's list names lighttpd and the libraries" \
    sh -c "grep -qx lighttpd '$TEST_TMP/deps.demo' &&
        grep -qx libfcgi-dev '$TEST_TMP/deps.demo' &&
        grep -qx libpcre2-dev '$TEST_TMP/deps.demo' &&
        grep -qx check '$TEST_TMP/deps.demo'"
sort -u "$TEST_TMP/deps.demo" >"$TEST_TMP/deps.demo.s"
sort -u "$TEST_TMP/deps.all" >"$TEST_TMP/deps.all.s"
missing=$(comm -23 "$TEST_TMP/deps.demo.s" "$TEST_TMP/deps.all.s" | tr '\n' ' ')
expect_true "the demo's list is a subset of the whole ($missing)" \
    test -z "$missing"
for p in clang llvm wrk hyperfine nodejs apache2 nginx-light postgresql; do
	expect_true "the demo's list leaves out $p" \
	    sh -c "! grep -qx '$p' '$TEST_TMP/deps.demo'"
done
expect_true "the whole list is still the default (wrk in it)" \
    grep -qx wrk "$TEST_TMP/deps.all"
expect_true "an unknown group is refused" \
    sh -c "! '$deps' --list bogus 2>/dev/null"

finish
