# servers-common.sh: what the tests/servers-*.sh scripts share.  Source it
# after setting nothing; it sources lib.sh.
#
# Each test starts real web servers as ordinary processes on 127.0.0.1
# (a free port) with every file they write (pid files, logs, sockets,
# buffers, caches) under $TEST_TMP, drives them with curl under a time
# limit, and stops exactly the processes it started when it exits.  The
# server configurations are the ones shipped in examples/servers/, with
# their @PLACEHOLDERS@ replaced by sed, so the shipped files are the
# tested files.
. "${GPT_SRCDIR:-.}/tests/lib.sh"

SERVERS_DIR=$GPT_SRCDIR/examples/servers
started_pids=

# Servers running as root hand requests to unprivileged workers (nginx:
# nobody, Apache: www-data); they must be able to enter the state
# directory and read the binary, forms and hooks in it.
chmod 755 "$TEST_TMP"

# started PID...: remember processes to stop at exit (or by stop_started).
started() {
	started_pids="$started_pids $*"
}

# stop_started: stop every remembered process, newest first, then any
# process still running from a binary under $TEST_TMP (FastCGI children
# that a server or spawn-fcgi started on our behalf).
stop_started() {
	_rev=
	for _p in $started_pids; do _rev="$_p $_rev"; done
	for _p in $_rev; do stop_pid "$_p"; done
	started_pids=
	for _p in $(pgrep -f "^$TEST_TMP/" 2>/dev/null); do
		stop_pid "$_p"
	done
}

trap 'stop_started; rm -rf "$TEST_TMP"' EXIT
trap 'exit 130' INT TERM

# need CMD...: fail the whole test when a program is missing
# (scripts/install-deps installs them); never skip silently.
need() {
	for _c in "$@"; do
		if ! command -v "$_c" >/dev/null 2>&1; then
			echo "FAIL: $_c is not installed (run scripts/install-deps)" >&2
			exit 1
		fi
	done
}
need curl jq node ps pgrep perl

# free_port: print a TCP port on 127.0.0.1 that was free a moment ago.
free_port() {
	node -e 'const s = require("net").createServer();
	    s.listen(0, "127.0.0.1", () => {
	        console.log(s.address().port); s.close(); });'
}

# server_user: print "USER GROUP" for servers that refuse to serve as root.
server_user() {
	if [ "$(id -u)" -eq 0 ]; then
		echo "www-data www-data"
	else
		echo "$(id -un) $(id -gn)"
	fi
}

# render SRC DST [NAME=VALUE...]: copy the shipped configuration SRC
# (a file name in examples/servers/) to DST with each @NAME@ replaced.
render() {
	_src=$SERVERS_DIR/$1
	_dst=$2
	shift 2
	cp "$_src" "$_dst.tmp"
	for _kv in "$@"; do
		_k=${_kv%%=*}
		_v=${_kv#*=}
		sed -i "s|@$_k@|$_v|g" "$_dst.tmp"
	done
	if grep -n '@[A-Z]*@' "$_dst.tmp" >&2; then
		echo "FAIL: $1: placeholders left" >&2
		exit 1
	fi
	mv "$_dst.tmp" "$_dst"
}

# install_bin DIR: copy the binary under test into DIR (readable by the
# server's user wherever the build tree is).
install_bin() {
	mkdir -p "$1"
	cp "$GPT_FCGI" "$1/gpt.fcgi"
	chmod 755 "$1" "$1/gpt.fcgi"
}

# make_root DIR: the example addresses, plus "probe": the echo form with a
# hook that appends $GPT_ACTOR to the file data/ran before echoing the act,
# and max_body = 512.  Hooks may write in probe/data/ and guestbook/data/.
make_root() {
	mkdir -p "$1"
	for _a in "$GPT_SRCDIR"/examples/*/; do
		[ -f "$_a/form.json" ] || continue
		cp -R "$_a" "$1/"
	done
	mkdir -p "$1/probe"
	cp "$GPT_SRCDIR/examples/echo/form.json" "$1/probe/form.json"
	printf 'max_body = 512\n' >"$1/probe/address.conf"
	cat >"$1/probe/hook" <<'HOOK'
#!/bin/sh
printf '%s\n' "${GPT_ACTOR:-}" >>data/ran
exec cat
HOOK
	# no group or other write: an address others may write is refused
	chmod -R a+rX,go-w "$1"
	chmod 755 "$1/probe/hook"
	# the hooks write in data/, not in the address: an address others
	# may write is refused (the servers run them as another user)
	mkdir -p "$1/probe/data" "$1/guestbook/data"
	chmod 777 "$1/probe/data" "$1/guestbook/data"
}

# wait_ready URL: wait (at most 10 s) until something answers at URL.
wait_ready() {
	_i=0
	while [ "$_i" -lt 100 ]; do
		_c=$(curl -s --max-time 2 -o /dev/null -w '%{http_code}' "$1") ||
		    _c=000
		[ "$_c" != 000 ] && return 0
		sleep 0.1
		_i=$((_i + 1))
	done
	echo "FAIL: nothing answers at $1 after 10 s" >&2
	return 1
}

# req METHOD URL [CURL-ARGS...]: one request.  Sets $code; the headers
# (CR removed) land in $TEST_TMP/h, the body in $TEST_TMP/b.
req() {
	_m=$1
	_u=$2
	shift 2
	if [ "$_m" = HEAD ]; then
		set -- --head "$@"
	else
		set -- -X "$_m" "$@"
	fi
	rm -f "$TEST_TMP/b" "$TEST_TMP/h0"
	code=$(curl -s --max-time 10 -o "$TEST_TMP/b" -D "$TEST_TMP/h0" \
	    -w '%{http_code}' "$@" "$_u") || code=000
	touch "$TEST_TMP/b" "$TEST_TMP/h0"
	tr -d '\r' <"$TEST_TMP/h0" >"$TEST_TMP/h"
}

# post URL FILE [CURL-ARGS...]: POST FILE's bytes as application/json.
post() {
	_u=$1
	_f=$2
	shift 2
	req POST "$_u" -H 'Content-Type: application/json' \
	    --data-binary "@$_f" "$@"
}

# header NAME: the value of the last response's header NAME.
header() {
	grep -i "^$1:" "$TEST_TMP/h" | tail -n 1 | sed 's/^[^:]*: *//'
}

expect_code() {
	if [ "$code" = "$1" ]; then pass; else
		fail "$2: status $code, expected $1"
	fi
}

expect_header() { # expect_header NAME REGEX LABEL
	if header "$1" | grep -q -i -- "$2"; then pass; else
		fail "$3: $1 is '$(header "$1")', expected $2"
	fi
}

expect_body_file() { # expect_body_file FILE LABEL: body bytes == FILE's
	if cmp -s "$TEST_TMP/b" "$1"; then pass; else
		fail "$2: body differs from $1: $(head -c 200 "$TEST_TMP/b")"
	fi
}

expect_body_empty() {
	if [ ! -s "$TEST_TMP/b" ]; then pass; else
		fail "$1: body not empty: $(head -c 200 "$TEST_TMP/b")"
	fi
}

expect_body_match() { # expect_body_match REGEX LABEL
	if grep -q -- "$1" "$TEST_TMP/b"; then pass; else
		fail "$2: body does not match $1: $(head -c 200 "$TEST_TMP/b")"
	fi
}

# cgi_get DIR ACCEPT: the body gpt.fcgi itself answers, as a CGI program
# without any web server, to a GET of the address DIR.  Its log lines go
# to $TEST_TMP/cgi.err, which check_gpt judges: as root the one expected
# line is the warning that hooks run as root, said once per test below.
# As root with CGI_USER set (the user the server runs gpt.fcgi as), the
# reference runs as that user: the page depends on the process's rights
# (it sends Idempotency-Keys only where the process can keep them).
cgi_get() {
	_as=
	if [ -n "${CGI_USER:-}" ] && [ "$(id -u)" -eq 0 ]; then
		_as="setpriv --reuid=$(id -u "$CGI_USER") --regid=$(id -g "$CGI_USER") --clear-groups"
	fi
	env -i PATH="$PATH" REQUEST_METHOD=GET GPT_ADDRESS="$1" \
	    HTTP_ACCEPT="$2" $_as "$GPT_FCGI" </dev/null 2>"$TEST_TMP/cgi.err" |
	    perl -0777 -pe 's/\A.*?\r?\n\r?\n//s'
}
cgi_root_said=

# cgi_log LABEL: the reference CGI run logged nothing unexpected.
cgi_log() {
	if [ "$(id -u)" -eq 0 ] && [ -z "$cgi_root_said" ] &&
	    grep -q 'warning: hooks run as root' "$TEST_TMP/cgi.err"; then
		cgi_root_said=1
		echo "(expected: the reference CGI runs are root's, and say" \
		    "\"hooks run as root\"; kept out of this output)"
	fi
	if grep -v 'warning: hooks run as root' "$TEST_TMP/cgi.err" |
	    grep -q .; then
		fail "$1: the reference CGI run logs only the expected:" \
		    "$(head -c 300 "$TEST_TMP/cgi.err")"
	else
		pass
	fi
}

# check_gpt LABEL URL DIR: the contract's answers at URL, a real server's
# way to the probe address whose directory is DIR.
check_gpt() {
	_l=$1
	_url=$2
	_dir=$3
	_ref=$TEST_TMP/ref.json
	cgi_get "$_dir" '' >"$_ref"
	cgi_log "$_l: reference GET"
	cgi_get "$_dir" 'text/html' >"$TEST_TMP/ref.html"
	cgi_log "$_l: reference page"

	req GET "$_url"
	expect_code 200 "$_l: GET"
	expect_header Content-Type '^application/json' "$_l: GET type"
	expect_header Vary 'Accept' "$_l: GET Vary"
	expect_body_file "$_ref" "$_l: GET gives the CGI bytes"
	jq -S . "$_dir/form.json" >"$TEST_TMP/form.S"
	jq -S . "$TEST_TMP/b" >"$TEST_TMP/b.S" 2>/dev/null
	expect_true "$_l: GET serves the form.json value" \
	    cmp -s "$TEST_TMP/b.S" "$TEST_TMP/form.S"
	_etag=$(header ETag)
	expect_true "$_l: GET has a strong ETag ($_etag)" \
	    sh -c "echo '$_etag' | grep -q '^\"[^\"]*\"\$'"

	req HEAD "$_url"
	expect_code 200 "$_l: HEAD"
	expect_header Content-Type '^application/json' "$_l: HEAD type"
	expect_header ETag "^$_etag\$" "$_l: HEAD ETag"

	req GET "$_url" -H "If-None-Match: $_etag"
	expect_code 304 "$_l: If-None-Match"
	expect_body_empty "$_l: 304"

	req GET "$_url" -H 'Accept: text/html,application/xhtml+xml;q=0.9,*/*;q=0.8'
	expect_code 200 "$_l: GET text/html"
	expect_header Content-Type '^text/html' "$_l: HTML type"
	expect_body_file "$TEST_TMP/ref.html" "$_l: HTML gives the CGI bytes"
	expect_body_match 'Echo\. This address' "$_l: HTML shows p"

	rm -f "$_dir/data/ran"
	printf '{"note": "hello from %s", "tags": ["a-b"]}' "$_l" \
	    >"$TEST_TMP/act.json"
	post "$_url" "$TEST_TMP/act.json" -H "GPT-Actor: tester/$_l"
	expect_code 200 "$_l: a valid act"
	expect_header Content-Type '^application/json' "$_l: act type"
	expect_body_file "$TEST_TMP/act.json" "$_l: the hook's answer"
	expect_true "$_l: the hook saw GPT-Actor" \
	    grep -qx "tester/$_l" "$_dir/data/ran"

	rm -f "$_dir/data/ran"
	printf '{"note": 5}' >"$TEST_TMP/bad.json"
	post "$_url" "$TEST_TMP/bad.json"
	expect_code 204 "$_l: an act that fails the form"
	expect_body_empty "$_l: 204"
	expect_true "$_l: no hook for an invalid act" test ! -e "$_dir/data/ran"

	printf '{"note": "too big"%600s}' '' >"$TEST_TMP/big.json"
	post "$_url" "$TEST_TMP/big.json"
	expect_code 204 "$_l: an act over max_body"
	expect_true "$_l: no hook for an oversize act" test ! -e "$_dir/data/ran"

	req POST "$_url" -H 'Content-Type: text/plain' \
	    --data-binary "@$TEST_TMP/act.json"
	expect_code 204 "$_l: text/plain act"
	expect_true "$_l: no hook for text/plain" test ! -e "$_dir/data/ran"

	req PUT "$_url" -H 'Content-Type: application/json' \
	    --data-binary "@$TEST_TMP/act.json"
	expect_code 405 "$_l: PUT"
	expect_header Allow 'GET, HEAD, POST' "$_l: 405 Allow"
}

# check_guestbook_parallel LABEL URL DIR N: N acts at once, each counted
# once, numbers 1..N.
check_guestbook_parallel() {
	_l=$1
	_url=$2
	_dir=$3
	_n=$4
	# an empty book; data/ stays, the one place its hook may write
	rm -rf "$_dir/data"/*
	_pids=
	_i=1
	while [ "$_i" -le "$_n" ]; do
		printf '{"name": "guest %d", "message": "visit %d"}' \
		    "$_i" "$_i" >"$TEST_TMP/gb$_i.json"
		curl -s --max-time 30 -o "$TEST_TMP/gb$_i.out" \
		    -w '%{http_code}' -H 'Content-Type: application/json' \
		    --data-binary "@$TEST_TMP/gb$_i.json" "$_url" \
		    >"$TEST_TMP/gb$_i.code" &
		_pids="$_pids $!"
		_i=$((_i + 1))
	done
	# Only the curls: a bare wait would wait for the servers too.
	# shellcheck disable=SC2086
	wait $_pids
	_ok=$(awk '$0 == "200"' "$TEST_TMP"/gb*.code | wc -l)
	expect_true "$_l: $_n parallel acts answered 200 (got $_ok)" \
	    test "$_ok" -eq "$_n"
	_lines=$(wc -l <"$_dir/data/entries.jsonl" 2>/dev/null || echo 0)
	expect_true "$_l: $_n entries written (got $_lines)" \
	    test "$_lines" -eq "$_n"
	_uniq=$(jq -r .entry "$_dir/data/entries.jsonl" | sort -un |
	    awk -v n="$_n" 'NR == $1 { c++ } END { print c + 0 }')
	expect_true "$_l: entry numbers are 1..$_n (got $_uniq in place)" \
	    test "$_uniq" -eq "$_n"
	_ans=$(cat "$TEST_TMP"/gb*.out | jq -s 'map(.entry) | unique | length')
	expect_true "$_l: $_n distinct numbers answered (got $_ans)" \
	    test "$_ans" -eq "$_n"
	rm -f "$TEST_TMP"/gb*
}
