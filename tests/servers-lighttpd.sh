#!/bin/sh
# servers-lighttpd.sh: gpt.fcgi behind lighttpd, as CGI (mod_cgi) and as
# FastCGI (mod_fastcgi), with the configurations in examples/servers/.
. "${GPT_SRCDIR:-.}/tests/servers-common.sh"
need lighttpd

# run_lighttpd NAME CONF: start lighttpd with examples/servers/CONF in a
# state directory of its own; sets $base to its /gpt URL.
run_lighttpd() {
	_t=$TEST_TMP/$1
	mkdir -p "$_t"
	chmod 755 "$_t"
	install_bin "$_t/bin"
	make_root "$_t/root"
	port=$(free_port)
	render "$2" "$_t/lighttpd.conf" PORT="$port" ROOT="$_t/root" \
	    BIN="$_t/bin/gpt.fcgi" TMP="$_t"
	lighttpd -D -f "$_t/lighttpd.conf" >"$_t/stdout" 2>&1 &
	started $!
	base=http://127.0.0.1:$port/gpt
	root=$_t/root
	wait_ready "$base/echo" || { cat "$_t"/*.log >&2; exit 1; }
}

run_lighttpd cgi lighttpd-cgi.conf
check_gpt lighttpd-cgi "$base/probe" "$root/probe"
req GET "$base/no-such-address"
expect_code 404 "lighttpd-cgi: an unknown address"
check_guestbook_parallel lighttpd-cgi "$base/guestbook" "$root/guestbook" 20
# The guestbook at its own URL, named by GPT_ADDRESS.
req GET "${base%/gpt}/guestbook"
expect_code 200 "lighttpd-cgi: GPT_ADDRESS: GET"
cgi_get "$root/guestbook" '' >"$TEST_TMP/gb.ref"
expect_body_file "$TEST_TMP/gb.ref" "lighttpd-cgi: GPT_ADDRESS: the guestbook form"
printf '{"name": "own URL", "message": "hi"}' >"$TEST_TMP/own.json"
post "${base%/gpt}/guestbook" "$TEST_TMP/own.json"
expect_code 200 "lighttpd-cgi: GPT_ADDRESS: an act"
expect_true "lighttpd-cgi: GPT_ADDRESS: entry 21 after the 20 before" \
    jq -e '.entry == 21' "$TEST_TMP/b"
stop_started

run_lighttpd fastcgi lighttpd-fastcgi.conf
check_gpt lighttpd-fastcgi "$base/probe" "$root/probe"
req GET "$base/no-such-address"
expect_code 404 "lighttpd-fastcgi: an unknown address"
# lighttpd decodes and normalizes the path first (/probe: denied); either
# way no address answers.
req GET "$base/..%2fprobe"
expect_true "lighttpd-fastcgi: an encoded slash is refused ($code)" \
    test "${code#4}" != "$code"
check_guestbook_parallel lighttpd-fastcgi "$base/guestbook" \
    "$root/guestbook" 50
n=$(pgrep -f "^$TEST_TMP/fastcgi/bin/gpt.fcgi" | wc -l)
expect_true "lighttpd-fastcgi: two gpt.fcgi processes serve (got $n)" \
    test "$n" -eq 2
stop_started
n=$(pgrep -f "^$TEST_TMP/" | wc -l)
expect_true "lighttpd: no process left after stopping (got $n)" \
    test "$n" -eq 0

finish
