#!/bin/sh
# ratelimit.sh: the shipped rate limits for real: nginx limit_req
# (examples/servers/nginx-ratelimit.conf), HAProxy stick tables
# (scale-out/haproxy-ratelimit.cfg) and Apache with mod_qos
# (apache-ratelimit.conf), each in front of one gpt.fcgi FastCGI process.
# Clients send from several loopback addresses (curl --interface):
#   127.0.0.2 floods GETs       -> some 429, at most the budget answered;
#   127.0.0.3 meanwhile sends 10 GETs and 3 acts -> every one answered;
#   127.0.0.4 floods GETs, then acts -> its acts are answered (budgets
#             apart: a form is fetched before every act);
#   127.0.0.5 floods acts       -> some 429; its GETs still answered.
# The figures of each run are printed (the README quotes them).
. "${GPT_SRCDIR:-.}/tests/servers-common.sh"
need nginx haproxy apache2 spawn-fcgi
[ -f /usr/lib/apache2/modules/mod_qos.so ] || {
	echo "FAIL: mod_qos is not installed (libapache2-mod-qos; scripts/install-deps)" >&2
	exit 1
}
set -- $(server_user)
WEBUSER=$1 WEBGROUP=$2

install_bin "$TEST_TMP/bin"
make_root "$TEST_TMP/root"
SOCK=$TEST_TMP/gpt.sock
GPT_ROOT=$TEST_TMP/root spawn-fcgi -s "$SOCK" -M 0666 -n -- \
    "$TEST_TMP/bin/gpt.fcgi" >"$TEST_TMP/fcgi.log" 2>&1 &
started $!
i=0
while [ ! -S "$SOCK" ] && [ $i -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
printf '{"note":"limited"}' >"$TEST_TMP/act"

# codes FROM N METHOD URL: N requests over one connection from the
# address FROM; prints one status a line.
codes() {
	_from=$1 _n=$2 _m=$3 _u=$4
	set --
	_i=0
	while [ $_i -lt "$_n" ]; do
		set -- "$@" -o /dev/null "$_u"
		_i=$((_i + 1))
	done
	if [ "$_m" = POST ]; then
		curl -s --max-time 30 --interface "$_from" \
		    -w '%{http_code}\n' -H 'Content-Type: application/json' \
		    --data-binary "@$TEST_TMP/act" "$@"
	else
		curl -s --max-time 30 --interface "$_from" \
		    -w '%{http_code}\n' "$@"
	fi
}
count() { grep -c "^$1\$" "$2"; } # count STATUS FILE

# limits LABEL BASE GET-BUDGET ACT-BUDGET: a client over one budget keeps
# the other
limits() {
	_l=$1 _u=$2/echo _g=$3 _a=$4
	_t=$TEST_TMP/$_l
	# 127.0.0.2 floods GETs while 127.0.0.3 keeps to its budget
	codes 127.0.0.2 60 GET "$_u" >"$_t.flood" &
	_fp=$!
	: >"$_t.other"
	for _ in 1 2 3 4 5 6 7 8 9 10; do
		codes 127.0.0.3 1 GET "$_u" >>"$_t.other"
	done
	for _ in 1 2 3; do
		codes 127.0.0.3 1 POST "$_u" >>"$_t.other"
	done
	wait $_fp
	ok=$(count 200 "$_t.flood")
	lim=$(count 429 "$_t.flood")
	echo "$_l: 127.0.0.2 flooded 60 GETs: $ok answered 200, $lim 429"
	expect_true "$_l: the GET flood gets 429 ($lim of 60)" test "$lim" -ge 20
	expect_true "$_l: the GET flood gets no more than its budget ($ok > $_g + 2)" \
	    test "$ok" -le $((_g + 2))
	expect_true "$_l: nothing but 200 and 429 ($(sort "$_t.flood" | uniq -c | tr '\n' ' '))" \
	    test $((ok + lim)) -eq 60
	o=$(count 200 "$_t.other")
	echo "$_l: 127.0.0.3 meanwhile: $o of 13 answered 200 (10 GETs, 3 acts)"
	expect_true "$_l: another address keeps every answer ($o of 13)" \
	    test "$o" -eq 13
	# 127.0.0.4: GETs spent, acts still answered
	codes 127.0.0.4 40 GET "$_u" >"$_t.g4"
	codes 127.0.0.4 3 POST "$_u" >"$_t.a4"
	expect_true "$_l: 127.0.0.4's GETs are limited" \
	    test "$(count 429 "$_t.g4")" -ge 10
	echo "$_l: 127.0.0.4 then sent 3 acts: $(count 200 "$_t.a4") answered 200"
	expect_true "$_l: ... and its acts are answered ($(tr '\n' ' ' <"$_t.a4"))" \
	    test "$(count 200 "$_t.a4")" -eq 3
	# 127.0.0.5: acts flooded, GETs still answered
	codes 127.0.0.5 20 POST "$_u" >"$_t.a5"
	codes 127.0.0.5 3 GET "$_u" >"$_t.g5"
	ok=$(count 200 "$_t.a5")
	lim=$(count 429 "$_t.a5")
	echo "$_l: 127.0.0.5 flooded 20 acts: $ok answered 200, $lim 429"
	expect_true "$_l: the act flood gets 429 ($lim of 20)" test "$lim" -ge 10
	expect_true "$_l: the act flood gets no more than its budget ($ok)" \
	    test "$ok" -le $((_a + 1))
	echo "$_l: 127.0.0.5 then sent 3 GETs: $(count 200 "$_t.g5") answered 200"
	expect_true "$_l: ... and its GETs are answered ($(tr '\n' ' ' <"$_t.g5"))" \
	    test "$(count 200 "$_t.g5")" -eq 3
}

# --- nginx limit_req ---------------------------------------------------------
T=$TEST_TMP/nginx
mkdir -p "$T"
chmod 755 "$T"
port=$(free_port)
render nginx-ratelimit.conf "$T/nginx.conf" PORT="$port" TMP="$T" \
    SOCK="$SOCK" WEBUSER="$WEBUSER" WEBGROUP="$WEBGROUP"
nginx -p "$T" -e "$T/nginx-error.log" -c "$T/nginx.conf" >"$T/out" 2>&1 &
started $!
wait_ready "http://127.0.0.1:$port/" || { cat "$T/out" >&2; exit 1; }
limits nginx "http://127.0.0.1:$port/gpt" 20 5

# --- HAProxy stick tables -----------------------------------------------------
T=$TEST_TMP/haproxy
mkdir -p "$T"
port=$(free_port)
render scale-out/haproxy-ratelimit.cfg "$T/haproxy.cfg" \
    BIND="127.0.0.1:$port" SOCK="$SOCK"
haproxy -f "$T/haproxy.cfg" -db >"$T/out" 2>&1 &
started $!
wait_ready "http://127.0.0.1:$port/" || { cat "$T/out" >&2; exit 1; }
limits haproxy "http://127.0.0.1:$port/gpt" 20 5

# --- Apache mod_qos --------------------------------------------------------------
T=$TEST_TMP/apache
mkdir -p "$T/empty"
chmod 755 "$T"
port=$(free_port)
render apache-ratelimit.conf "$T/apache.conf" PORT="$port" TMP="$T" \
    SOCK="$SOCK" USER="$WEBUSER" GROUP="$WEBGROUP"
apache2 -f "$T/apache.conf" -DFOREGROUND >"$T/out" 2>&1 &
started $!
wait_ready "http://127.0.0.1:$port/" || { cat "$T/out" "$T/apache-error.log" >&2; exit 1; }
limits apache "http://127.0.0.1:$port/gpt" 20 5

if [ "$failed" -gt 0 ]; then
	for f in "$TEST_TMP"/nginx/nginx-error.log "$TEST_TMP"/haproxy/out \
	    "$TEST_TMP"/apache/apache-error.log "$TEST_TMP/fcgi.log"; do
		echo "--- $f" >&2
		tail -n 10 "$f" >&2
	done
fi
finish
