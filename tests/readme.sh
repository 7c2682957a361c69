#!/bin/sh
# readme.sh: the README, followed as a new operator follows it, top to
# bottom, in a copy of the checkout and a home directory of its own.
#
# tests/readme.py reads the commands out of the README itself, so this
# test fails as soon as the README and the code part: "Your first
# address" (the build in place and make install into ~/.local, the form,
# the hook, --check and the CGI transcripts compared with what they
# print, lighttpd from the installed template and the curl lines), then
# "The two commands" after that build and in either order (scripts/test
# as `scripts/test --build-only`, since the whole of it is the suite this
# test belongs to; scripts/demo as tests/demo.sh runs it), and the rename
# recipe as written, with an editor that asks the server for the staging
# copy while it exists.
#
# As root the reader is an unprivileged user (setpriv, a numeric uid),
# as an operator is.  Three builds of the tree: a few minutes.
. "${GPT_SRCDIR:-.}/tests/servers-common.sh"
need lighttpd setsid python3 make tar

READER_UID=64103
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null 2>&1; then
	as_reader="setpriv --reuid=$READER_UID --regid=$READER_UID --clear-groups --"
else
	as_reader=
fi

H=$TEST_TMP/home
TREE=$TEST_TMP/home/gpt.fcgi
OUT=$TEST_TMP/out
mkdir -p "$TREE" "$OUT" "$H/tmp"
# The checkout as a clone has it: the files git knows (changes included,
# what .gitignore names left out); a tree without git, as it is, without
# its builds.
if git -C "$GPT_SRCDIR" rev-parse --git-dir >/dev/null 2>&1; then
	(cd "$GPT_SRCDIR" && git ls-files -z -co --exclude-standard |
	    tar --null -T - --ignore-failed-read -cf -) | tar -C "$TREE" -xf -
else
	(cd "$GPT_SRCDIR" && tar --exclude='./build*' -cf - .) |
	    tar -C "$TREE" -xf -
fi
expect_true "the copy of the checkout has no build in it" \
    test ! -e "$TREE/config.status" -a ! -e "$TREE/build"
port=$(free_port)
python3 "$GPT_SRCDIR/tests/readme.py" "$GPT_SRCDIR/README" "$port" "$H" "$OUT" ||
    { fail "the README's commands can be read"; finish; exit 1; }
[ -n "$as_reader" ] && chown -R "$READER_UID:$READER_UID" "$H" "$OUT"

# reader CMD...: run CMD as the reader, in the checkout, with the
# environment a login gives (HOME, a plain PATH), bounded in time.
# reader_exec is the same in place of the shell: `reader_exec CMD &`
# leaves $! the pid of timeout, which passes a TERM on to CMD.
reader_exec() {
	cd "$TREE" && exec env -i HOME="$H" USER=reader LOGNAME=reader \
	    PATH=/usr/local/bin:/usr/bin:/bin TMPDIR="$H/tmp" \
	    READ_OUT="$OUT" JOBS=2 $as_reader timeout 900 "$@"
}
reader() {
	(reader_exec "$@")
}

# --- "Your first address", top to bottom ---------------------------------
reader sh "$OUT/session.sh" >"$OUT/session.log" 2>&1
lpid=$(cat "$OUT/lighttpd.pid" 2>/dev/null) && started "$lpid"
if [ -e "$OUT/failed" ]; then
	fail "README \"Your first address\": \`$(cat "$OUT/failed")\` fails"
	tail -n 30 "$OUT/session.log" | sed 's/^/    /' >&2
else
	pass
fi
if python3 "$GPT_SRCDIR/tests/readme.py" --check "$OUT" >"$OUT/check" 2>&1; then
	pass
else
	fail "README \"Your first address\": the transcripts print what it shows"
	cat "$OUT/check" >&2
fi
expect_true "the installed gpt.fcgi is on the reader's PATH (~/.local/bin)" \
    test -x "$H/.local/bin/gpt.fcgi"
expect_true "the lighttpd configuration was written whole (no placeholder)" \
    sh -c "test -s '$H/gpt-run/lighttpd.conf' &&
        ! grep -q '@[A-Z]*@' '$H/gpt-run/lighttpd.conf'"
expect_true "the hook stored the note" \
    grep -q 'The build is green' "$H/gpt/note/data/notes.jsonl"

# --- the rename recipe, as written -----------------------------------------
# The editor (EDITOR FILE) asks the server for the staging copy while it
# exists, then raises maxLength: the copy must never be an address.
cat >"$OUT/editor" <<EOF
#!/bin/sh
d=\$(basename "\$(dirname "\$1")")
curl -s --max-time 5 -o /dev/null -w '%{http_code}' \\
    "http://127.0.0.1:$port/gpt/\$d" >"$OUT/staged-code"
echo "\$d" >"$OUT/staged-name"
sed -i 's/"maxLength": 200/"maxLength": 300/' "\$1"
EOF
chmod 755 "$OUT/editor"
reader env EDITOR="$OUT/editor" PATH="$H/.local/bin:/usr/bin:/bin" \
    sh -e "$OUT/rename.sh" >"$OUT/rename.log" 2>&1
st=$?
expect_true "the rename recipe runs as written ($(tail -n 1 "$OUT/rename.log"))" \
    test "$st" -eq 0
staged=$(cat "$OUT/staged-name" 2>/dev/null)
expect_true "the recipe's staging copy ($staged) is no address while it exists (got $(cat "$OUT/staged-code" 2>/dev/null))" \
    test "$(cat "$OUT/staged-code" 2>/dev/null)" = 404
i=0
until curl -s --max-time 2 "http://127.0.0.1:$port/gpt/note" |
    grep -q '"maxLength":300' || [ "$i" -ge 50 ]; do
	sleep 0.1
	i=$((i + 1))
done
expect_true "after the recipe the address serves the edited form" \
    sh -c "curl -s --max-time 2 http://127.0.0.1:$port/gpt/note |
        grep -q '\"maxLength\":300'"
code=$(curl -s --max-time 2 -o /dev/null -w '%{http_code}' \
    "http://127.0.0.1:$port/gpt/$staged")
expect_true "... and the staging name answers 404 after it (got $code)" \
    test "$code" = 404
expect_true "... and the staging copy is gone" test ! -e "$H/gpt/$staged"
[ -n "${lpid:-}" ] && stop_pid "$lpid"

# --- "The two commands", after that build and in either order -----------
grep -qx 'scripts/test' "$OUT/two" && grep -qx 'scripts/demo' "$OUT/two"
expect_true "\"The two commands\" are scripts/test and scripts/demo" test $? -eq 0

# demo LABEL: scripts/demo starts, serves the guestbook, stops on TERM
# (sent to timeout, which passes it on).
demo() {
	dport=$(free_port)
	rm -f "$OUT/demo.out"
	reader_exec env PORT="$dport" scripts/demo >"$OUT/demo.out" 2>&1 \
	    </dev/null &
	dpid=$!
	started "$dpid"
	i=0
	while ! grep -qs 'Ctrl-C stops everything' "$OUT/demo.out" &&
	    [ "$i" -lt 1800 ]; do
		alive "$dpid" || break
		sleep 0.1
		i=$((i + 1))
	done
	if grep -qs 'Ctrl-C stops everything' "$OUT/demo.out"; then pass; else
		fail "$1: scripts/demo starts"
		tail -n 20 "$OUT/demo.out" | sed 's/^/    demo: /' >&2
	fi
	c=$(curl -s --max-time 5 -o /dev/null -w '%{http_code}' \
	    "http://127.0.0.1:$dport/gpt/guestbook")
	expect_true "$1: scripts/demo serves the guestbook (got $c)" test "$c" = 200
	stop_pid "$dpid"
	c=$(curl -s --max-time 2 -o /dev/null -w '%{http_code}' \
	    "http://127.0.0.1:$dport/gpt/guestbook")
	expect_true "$1: scripts/demo stopped on TERM (got $c)" test "$c" = 000
}

# buildtest LABEL: scripts/test's builds pass (the tests are this suite).
buildtest() {
	reader scripts/test --build-only >"$OUT/test.out" 2>&1
	st=$?
	if [ "$st" -eq 0 ] && [ -x "$TREE/build/gpt.fcgi" ]; then pass; else
		fail "$1: scripts/test builds"
		tail -n 20 "$OUT/test.out" | sed 's/^/    test: /' >&2
	fi
}

demo "after the build in place"
expect_true "... with the build in place (no build/ made beside it)" \
    test ! -e "$TREE/build"
buildtest "after the build in place and scripts/demo"
expect_true "... which made the checkout clean first" \
    sh -c "test ! -e '$TREE/config.status' && grep -q 'make distclean' '$OUT/test.out'"
expect_true "... and printed the configure line that restores it" \
    grep -q "to restore it: ./configure '*--prefix=$H/.local" "$OUT/test.out"
demo "after scripts/test"

# The build in place again, beside build/: each command still works, and
# scripts/test keeps its hands off a build in place whose gpt.fcgi runs.
reader sh -c ". '$OUT/build.sh'" >"$OUT/build2.log" 2>&1
st=$?
expect_true "the README's build in place works after scripts/test" test "$st" -eq 0
demo "after the build in place, beside build/"
# A CGI request of the build in place that waits for its body (the fifo
# stays open until the test closes it).
mkfifo "$OUT/fifo"
[ -n "$as_reader" ] && chown "$READER_UID" "$OUT/fifo"
reader_exec sh -c "CONTENT_LENGTH=10 REQUEST_METHOD=POST \
    CONTENT_TYPE=application/json GPT_ADDRESS='$H/gpt/note' \
    exec ./gpt.fcgi <'$OUT/fifo'" >/dev/null 2>&1 &
waiter=$!
exec 7>"$OUT/fifo"
running() {
	for p in /proc/[0-9]*; do
		[ "$(readlink "$p/exe" 2>/dev/null)" = "$TREE/gpt.fcgi" ] && return 0
	done
	return 1
}
i=0
while ! running && [ "$i" -lt 50 ]; do
	sleep 0.1
	i=$((i + 1))
done
reader scripts/test --build-only >"$OUT/test2.out" 2>&1
st=$?
expect_true "scripts/test stops while the build in place runs (exit $st)" \
    sh -c "test $st -ne 0 && grep -q 'gpt.fcgi is running (pid' '$OUT/test2.out'"
expect_true "... and leaves the build in place as it was" \
    test -e "$TREE/config.status" -a -x "$TREE/gpt.fcgi"
exec 7>&- # the request's body ends short: it answers and exits
wait "$waiter"
stop_started

finish
