#!/bin/sh
# servers-nginx.sh: gpt.fcgi as a FastCGI pool started by spawn-fcgi on a
# unix socket, behind nginx: one process, a pool of four, and the short
# fastcgi_cache in front, with the configurations in examples/servers/.
. "${GPT_SRCDIR:-.}/tests/servers-common.sh"
need nginx spawn-fcgi

# The users of the shipped commands: as root, gpt.fcgi and its hooks run
# as a dedicated user (daemon stands in for one) and nginx's workers as
# www-data, the socket's group; otherwise both run as the caller, and the
# shipped commands are run without -u/-g/-U/-G, as their comment says.
if [ "$(id -u)" -eq 0 ]; then
	users="APPUSER=daemon APPGROUP=daemon WEBUSER=www-data WEBGROUP=www-data"
	CGI_USER=daemon # the reference CGI runs (servers-common.sh)
else
	users="APPUSER=$(id -un) APPGROUP=$(id -gn) WEBUSER=$(id -un) WEBGROUP=$(id -gn)"
fi

# shipped_spawn RENDERED N: the Nth spawn-fcgi command of the rendered
# nginx-fastcgi.conf, as its comment gives it.
shipped_spawn() {
	_c=$(sed -n 's/^#   \(spawn-fcgi .*\)$/\1/p' "$1" | sed -n "$2p")
	if [ "$(id -u)" -ne 0 ]; then
		_c=$(printf '%s\n' "$_c" | sed 's/ -[ugUG] [^ ]*//g')
	fi
	printf '%s\n' "$_c"
}

# run_nginx NAME CONF FORKS: start gpt.fcgi with the shipped spawn-fcgi
# command (one process, or the -F 4 pool), then nginx with
# examples/servers/CONF; sets $base and $root.
run_nginx() {
	_t=$TEST_TMP/$1
	mkdir -p "$_t"
	chmod 755 "$_t"
	install_bin "$_t/bin"
	make_root "$_t/root"
	port=$(free_port)
	# shellcheck disable=SC2086
	render "$2" "$_t/nginx.conf" PORT="$port" ROOT="$_t/root" TMP="$_t" \
	    BIN="$_t/bin/gpt.fcgi" $users
	# shellcheck disable=SC2086
	render nginx-fastcgi.conf "$_t/commands" PORT="$port" \
	    ROOT="$_t/root" TMP="$_t" BIN="$_t/bin/gpt.fcgi" $users
	if [ "$3" -eq 1 ]; then
		# -n: spawn-fcgi execs the application, so $! is gpt.fcgi.
		# shellcheck disable=SC2046
		set -- $(shipped_spawn "$_t/commands" 1)
		expect_true "nginx: the first shipped command stays in the foreground" \
		    test "$2" = -n
		"$@" >"$_t/spawn.log" 2>&1 &
		started $!
	else
		# shellcheck disable=SC2046
		set -- $(shipped_spawn "$_t/commands" 2)
		expect_true "nginx: the second shipped command is a pool of 4" \
		    test "$2 $3" = "-F 4"
		"$@" >"$_t/spawn.log" 2>&1
		started $(cat "$_t/gpt.pid")
	fi
	nginx -p "$_t" -e "$_t/nginx-error.log" -c "$_t/nginx.conf" \
	    >"$_t/stdout" 2>&1 &
	started $!
	base=http://127.0.0.1:$port/gpt
	root=$_t/root
	wait_ready "$base/echo" || { cat "$_t"/*.log >&2; exit 1; }
}

run_nginx single nginx-fastcgi.conf 1
check_gpt nginx "$base/probe" "$root/probe"
ls -l "$TEST_TMP/single/gpt.sock" >"$TEST_TMP/sock.ls"
expect_true "nginx: the socket is 0660 ($(cat "$TEST_TMP/sock.ls"))" \
    grep -q '^srw-rw---- ' "$TEST_TMP/sock.ls"
if [ "$(id -u)" -eq 0 ]; then
	expect_true "nginx: the socket belongs to nginx's group" \
	    test "$(stat -c %G "$TEST_TMP/single/gpt.sock")" = www-data
	n=$(ps -o user= -p "$(pgrep -f "^$TEST_TMP/single/bin/gpt.fcgi")")
	expect_true "nginx: gpt.fcgi runs as the dedicated user ($n), not root" \
	    test "$n" = daemon
fi
req GET "$base/no-such-address"
expect_code 404 "nginx: an unknown address"
req GET "$base/a/b"
expect_code 404 "nginx: two segments never reach gpt.fcgi"
check_guestbook_parallel nginx "$base/guestbook" "$root/guestbook" 30
# Over client_max_body_size: nginx refuses before gpt.fcgi reads a byte.
rm -f "$root/probe/data/ran"
head -c 1100000 /dev/zero | tr '\0' ' ' >"$TEST_TMP/huge.json"
post "$base/probe" "$TEST_TMP/huge.json"
expect_code 413 "nginx: a body over client_max_body_size"
expect_true "nginx: no hook for a body over 1m" test ! -e "$root/probe/data/ran"
stop_started

run_nginx pool nginx-fastcgi.conf 4
n=$(grep -c . "$TEST_TMP/pool/gpt.pid")
expect_true "nginx-pool: spawn-fcgi started 4 processes (got $n)" \
    test "$n" -eq 4
check_gpt nginx-pool "$base/probe" "$root/probe"
check_guestbook_parallel nginx-pool "$base/guestbook" "$root/guestbook" 50
stop_started

run_nginx cache nginx-cache.conf 1
check_gpt nginx-cache "$base/probe" "$root/probe"
form=$root/probe/form.json
# Cached: the second GET of each representation is a hit, and JSON and
# HTML never answer for each other.
req GET "$base/echo"
cp "$TEST_TMP/b" "$TEST_TMP/echo.json"
req GET "$base/echo"
expect_header X-Cache 'HIT' "nginx-cache: a second GET is a cache hit"
expect_body_file "$TEST_TMP/echo.json" "nginx-cache: the hit has the bytes"
req GET "$base/echo" -H 'Accept: text/html'
expect_header Content-Type '^text/html' "nginx-cache: HTML after JSON"
cp "$TEST_TMP/b" "$TEST_TMP/echo.html"
req GET "$base/echo" -H 'Accept: text/html'
expect_header Content-Type '^text/html' "nginx-cache: HTML hit is HTML"
expect_body_file "$TEST_TMP/echo.html" "nginx-cache: the HTML hit's bytes"
req GET "$base/echo" -H 'Accept: text/html;q=0, */*'
expect_header Content-Type '^application/json' \
    "nginx-cache: text/html;q=0 gets JSON, not the cached HTML"
req GET "$base/echo"
expect_header Content-Type '^application/json' "nginx-cache: JSON after HTML"
req HEAD "$base/echo"
expect_code 200 "nginx-cache: HEAD"
req GET "$base/echo"
expect_body_file "$TEST_TMP/echo.json" "nginx-cache: GET after HEAD has a body"
# POST is never answered from the cache: every act reaches the hook.
rm -f "$root/probe/data/ran"
printf '{"note": "one"}' >"$TEST_TMP/one.json"
post "$base/probe" "$TEST_TMP/one.json" -H 'GPT-Actor: a1'
post "$base/probe" "$TEST_TMP/one.json" -H 'GPT-Actor: a2'
expect_code 200 "nginx-cache: a repeated act"
expect_true "nginx-cache: both acts ran the hook" \
    test "$(cat "$root/probe/data/ran" 2>/dev/null | tr '\n' ' ')" = "a1 a2 "
# A form edit shows within the validity (1 s) + gpt.fcgi's recheck (1 s)
# + a margin.
req GET "$base/probe"
req GET "$base/probe"
expect_header X-Cache 'HIT' "nginx-cache: the probe form is cached"
jq '.p = "Edited form."' "$form" >"$form.new" && mv "$form.new" "$form"
chmod a+r "$form"
sleep 3.5
req GET "$base/probe"
expect_body_match '"Edited form\."' "nginx-cache: the edit shows after 3.5 s"
req GET "$base/probe" -H 'Accept: text/html'
expect_body_match 'Edited form\.' "nginx-cache: the edit shows in HTML too"
# A form that no longer loads is not hidden by the cache: once the entry
# expired, a request alone reaches gpt.fcgi and gets its 500.
req GET "$base/probe"
expect_header X-Cache 'HIT' "nginx-cache: the edited form is cached"
cp "$form" "$TEST_TMP/form.good"
printf '{"p": "broken", "m": [], "s": {"type": "object", "nope": 1}}' >"$form"
chmod a+r "$form"
sleep 3.5
req GET "$base/probe"
expect_code 500 "nginx-cache: a broken form answers 500 after the validity"
cp "$TEST_TMP/form.good" "$form"
stop_started
n=$(pgrep -f "^$TEST_TMP/" | wc -l)
expect_true "nginx: no process left after stopping (got $n)" test "$n" -eq 0

finish
