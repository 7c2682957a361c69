#!/bin/sh
# servers-apache.sh: gpt.fcgi under Apache 2.4, as CGI configured by
# .htaccess alone (the shared-hosting case: the address is found by the
# <script>.d rule, no server variable), and under mod_fcgid, with the
# configurations in examples/servers/.
. "${GPT_SRCDIR:-.}/tests/servers-common.sh"
need apache2 setsid
set -- $(server_user)
user=$1
group=$2
CGI_USER=$user # the reference CGI runs (servers-common.sh)

# run_apache: start apache2 in the foreground with the configuration
# rendered in $_t/apache.conf.
run_apache() {
	# A session of its own: at shutdown Apache signals its whole
	# process group, which would otherwise include this script.
	setsid apache2 -DFOREGROUND -d "$_t" -f "$_t/apache.conf" \
	    >"$_t/stdout" 2>&1 &
	started $!
}

# check_no_trace LABEL URL: TRACE is refused by the server (TraceEnable
# off), so a header sent is never echoed back.
check_no_trace() {
	req TRACE "$2" -H 'X-Trace-Probe: secret-in-a-header'
	expect_code 405 "$1: TRACE is refused"
	expect_true "$1: and echoes no header back" \
	    sh -c "! grep -q secret-in-a-header '$TEST_TMP/b'"
}

# CGI in a directory set up by .htaccess.
_t=$TEST_TMP/cgi
mkdir -p "$_t/docs/gpt"
chmod -R 755 "$_t"
install_bin "$_t/docs/gpt"
cp "$SERVERS_DIR/apache-htaccess" "$_t/docs/gpt/.htaccess"
make_root "$_t/docs/gpt/gpt.fcgi.d"
port=$(free_port)
render apache-cgi.conf "$_t/apache.conf" PORT="$port" DOCS="$_t/docs" \
    TMP="$_t" USER="$user" GROUP="$group"
run_apache
base=http://127.0.0.1:$port/gpt/gpt.fcgi
root=$_t/docs/gpt/gpt.fcgi.d
wait_ready "$base/echo" || { cat "$_t"/*.log >&2; exit 1; }
check_gpt apache-cgi "$base/probe" "$root/probe"
req GET "$base/no-such-address"
expect_code 404 "apache-cgi: an unknown address"
check_no_trace apache-cgi "$base/probe"
# The script's own URL: no gpt.fcgi.d/form.json yet, so 404 (not 500)
# and a line in Apache's error log saying what to create.
req GET "$base"
expect_code 404 "apache-cgi: .../gpt.fcgi before a form is published there"
expect_true "apache-cgi: the error log says to create gpt.fcgi.d/form.json" \
    grep -q "create $root/form.json" "$_t/apache-error.log"
# mod_cgid hands the program the error log itself: the line's own time is
# the only one it has.
expect_true "apache-cgi: under mod_cgid the line carries its own time" \
    grep -q "[0-9]\{4\}-[01][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9]:[0-6][0-9]Z gpt.fcgi: .*create $root/form.json" \
    "$_t/apache-error.log"
for f in probe/form.json probe/hook guestbook/hook ''; do
	req GET "http://127.0.0.1:$port/gpt/gpt.fcgi.d/$f"
	expect_code 404 "apache-cgi: gpt.fcgi.d/$f is never served as a file"
done
req GET "http://127.0.0.1:$port/gpt/.htaccess"
expect_code 403 "apache-cgi: .htaccess is never served"
# The bundle's README and manual beside gpt.fcgi, as it unpacks them.
mkdir -p "$_t/docs/gpt/gpt.fcgi.doc"
echo "the bundle's README" >"$_t/docs/gpt/README"
echo "the manual" >"$_t/docs/gpt/gpt.fcgi.doc/gpt.fcgi.8.txt"
chmod -R a+rX "$_t/docs/gpt"
for f in README gpt.fcgi.doc/gpt.fcgi.8.txt gpt.fcgi.doc/; do
	req GET "http://127.0.0.1:$port/gpt/$f"
	expect_code 404 "apache-cgi: the bundle's $f is never served"
done
# The short URLs of the .htaccess (mod_rewrite): /gpt/NAME, no gpt.fcgi.
short=http://127.0.0.1:$port/gpt
check_gpt apache-short "$short/probe" "$root/probe"
req GET "$short/no-such-address"
expect_code 404 "apache-short: an unknown address"
for p in .hidden a/b gpt.fcgi.d gpt.fcgi.d/probe/form.json gpt.fcgi.lib \
    gpt.fcgi.lib/libx.so; do
	req GET "$short/$p"
	expect_code 404 "apache-short: /gpt/$p reaches no address and no file"
done
req GET "$short/gpt.fcgi/echo"
expect_code 200 "apache-short: the long URL still works beside the short one"
# A chunked body (no Content-Length, so no CONTENT_LENGTH: mod_cgid hands
# the body over its socket) left unread by the answer: the answer must
# still reach the client, whole, instead of an empty reply when Apache
# finds the socket reset.
head -c 900000 /dev/zero | tr '\0' x >"$TEST_TMP/chunked"
req PUT "$base/probe" -H 'Transfer-Encoding: chunked' \
    --data-binary "@$TEST_TMP/chunked"
expect_code 405 "apache-cgi: a chunked PUT"
expect_header Allow 'GET, HEAD, POST' "apache-cgi: a chunked PUT's Allow"
post "$base/probe" "$TEST_TMP/chunked" -H 'Transfer-Encoding: chunked'
expect_code 204 "apache-cgi: a chunked act over max_body"
# curl sends a body with HEAD under -X HEAD only, and then waits for the
# answer's body that HEAD never has: its time limit ends it (exit 28),
# after the status and headers arrived.
curl -s --max-time 3 -o /dev/null -D "$TEST_TMP/h0" -X HEAD \
    -H 'Transfer-Encoding: chunked' --data-binary "@$TEST_TMP/chunked" \
    "$base/probe"
tr -d '\r' <"$TEST_TMP/h0" >"$TEST_TMP/h"
code=$(sed -n '1s/^HTTP[^ ]* \([0-9]*\).*/\1/p' "$TEST_TMP/h")
expect_code 200 "apache-cgi: HEAD with a chunked body"
expect_header ETag '"' "apache-cgi: HEAD with a chunked body has its ETag"
printf '{"note": "chunked"}' >"$TEST_TMP/chunked-act"
post "$base/probe" "$TEST_TMP/chunked-act" -H 'Transfer-Encoding: chunked'
expect_code 200 "apache-cgi: a small chunked act is read to its end"
check_guestbook_parallel apache-short "$short/guestbook" "$root/guestbook" 10
check_guestbook_parallel apache-cgi "$base/guestbook" "$root/guestbook" 20
stop_started

# mod_fcgid.
_t=$TEST_TMP/fcgid
mkdir -p "$_t/fcgid" "$_t/empty"
chmod -R 755 "$_t"
chown "$user:$group" "$_t/fcgid"
install_bin "$_t/bin"
make_root "$_t/root"
port=$(free_port)
render apache-fcgid.conf "$_t/apache.conf" PORT="$port" ROOT="$_t/root" \
    BIN="$_t/bin/gpt.fcgi" TMP="$_t" USER="$user" GROUP="$group"
run_apache
base=http://127.0.0.1:$port/gpt
root=$_t/root
wait_ready "$base/echo" || { cat "$_t"/*.log >&2; exit 1; }
check_gpt apache-fcgid "$base/probe" "$root/probe"
req GET "$base/no-such-address"
expect_code 404 "apache-fcgid: an unknown address"
check_no_trace apache-fcgid "$base/probe"
check_guestbook_parallel apache-fcgid "$base/guestbook" "$root/guestbook" 30
stop_started
n=$(pgrep -f "^$TEST_TMP/" | wc -l)
expect_true "apache: no process left after stopping (got $n)" test "$n" -eq 0

finish
