#!/bin/sh
# soak.sh: one FastCGI gpt.fcgi process serves 100,000 mixed requests
# (arrival as JSON, HEAD, the human page, 304, accepted acts, acts rejected
# for every reason, 405, 404, 412, failing hooks, an address that does not
# load), every answer's status is checked, and its resident memory must be
# flat: after a warm-up, VmRSS may not grow by more than a small margin.
#
# Environment: SOAK_COUNT (100000), SOAK_WARMUP (5000),
# SOAK_RSS_MARGIN_KB (1024), GPT_BUILDDIR (where tests/fcgi_client is).
. "${GPT_SRCDIR:-.}/tests/lib.sh"

CLIENT=${GPT_BUILDDIR:-.}/tests/fcgi_client
COUNT=${SOAK_COUNT:-100000}
WARMUP=${SOAK_WARMUP:-5000}
MARGIN_KB=${SOAK_RSS_MARGIN_KB:-1024}
root=$TEST_TMP/root
sock=$TEST_TMP/gpt.sock
server_pid=

stop_server() {
	[ -n "$server_pid" ] || return 0
	stop_pid "$server_pid"
	wait "$server_pid" 2>/dev/null
	server_pid=
}
trap 'stop_server; rm -rf "$TEST_TMP"' EXIT

rss_kb() {
	awk '/^VmRSS:/ { print $2 }' "/proc/$server_pid/status" 2>/dev/null
}

for tool in spawn-fcgi "$CLIENT"; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		echo "soak.sh: $tool is missing (make check-integration builds" \
		    "the client; scripts/install-deps installs spawn-fcgi)" >&2
		exit 1
	fi
done

# --- the addresses ---------------------------------------------------------
# ok: a small form whose hook echoes the act; fail: the hook exits 3;
# badout: the hook prints what is not JSON; broken: the form is refused.
form='{"p": "Soak address: leave a note <b>now</b>.",
 "m": [{"role": "user", "content": "Hello & welcome"}],
 "s": {"type": "object",
       "properties": {
         "name": {"type": "string", "minLength": 1, "maxLength": 40,
                  "pattern": "^[a-z]+$"},
         "qty": {"type": "integer", "minimum": 1, "maximum": 9},
         "tags": {"type": "array", "items": {"enum": ["a", "b", "c"]},
                  "uniqueItems": true}},
       "required": ["name", "qty"],
       "additionalProperties": false}}'
for a in ok fail badout broken; do
	mkdir -p "$root/$a"
	printf '%s\n' "$form" >"$root/$a/form.json"
	printf 'max_body = 65536\nhook_timeout = 5\n' >"$root/$a/address.conf"
done
printf '#!/bin/sh\nexec cat\n' >"$root/ok/hook"
printf '#!/bin/sh\ncat >/dev/null\nexit 3\n' >"$root/fail/hook"
printf '#!/bin/sh\ncat >/dev/null\necho not json\n' >"$root/badout/hook"
printf '#!/bin/sh\nexec cat\n' >"$root/broken/hook"
printf '{"p": "x", "m": [], "s": {"type": "strnig"}}\n' \
    >"$root/broken/form.json"
chmod +x "$root"/*/hook

# Bodies that do not fit on a plan line.
big=$TEST_TMP/big.json # over max_body
{ printf '{"name": "'; head -c 70000 /dev/zero | tr '\0' a; printf '"}'; } >"$big"
deep=$TEST_TMP/deep.json # deeper than the parser allows
{ head -c 1000 /dev/zero | tr '\0' '['; head -c 1000 /dev/zero | tr '\0' ']'; } >"$deep"
badutf=$TEST_TMP/badutf.json # invalid UTF-8 inside a string
printf '{"name": "te\377a", "qty": 1}' >"$badutf"

# The ETag, from one CGI run of the same binary.
etag=$(env -i REQUEST_METHOD=GET GPT_ADDRESS="$root/ok" "$GPT_FCGI" \
    </dev/null 2>/dev/null | tr -d '\r' | sed -n 's/^ETag: //Ip')
if [ -n "$etag" ]; then pass; else fail "a CGI GET gives an ETag"; fi

J=CONTENT_TYPE=application/json
ok='{"name":"tea","qty":2,"tags":["a","b"]}'
cat >"$TEST_TMP/plan" <<EOF
# arrival
expect=200 weight=3 REQUEST_METHOD=GET PATH_INFO=/ok match=Soak%20address
expect=200 REQUEST_METHOD=HEAD PATH_INFO=/ok
expect=200 REQUEST_METHOD=GET PATH_INFO=/ok HTTP_ACCEPT=text/html,*/*;q=0.8 match=<textarea
expect=304 REQUEST_METHOD=GET PATH_INFO=/ok HTTP_IF_NONE_MATCH=$etag
# accepted: the hook echoes the act
expect=200 weight=2 REQUEST_METHOD=POST PATH_INFO=/ok $J text=$ok match=$ok
expect=200 REQUEST_METHOD=POST PATH_INFO=/ok HTTP_IF_MATCH=$etag HTTP_GPT_ACTOR=soak $J text=$ok
# rejected: 204 whatever the reason
expect=204 REQUEST_METHOD=POST PATH_INFO=/ok $J text={"name":
expect=204 REQUEST_METHOD=POST PATH_INFO=/ok $J body=$big
expect=204 REQUEST_METHOD=POST PATH_INFO=/ok $J CONTENT_LENGTH=999999999 text=$ok
expect=204 REQUEST_METHOD=POST PATH_INFO=/ok CONTENT_TYPE=text/plain text=$ok
expect=204 REQUEST_METHOD=POST PATH_INFO=/ok text=$ok
expect=204 REQUEST_METHOD=POST PATH_INFO=/ok CONTENT_TYPE=application/json;%20charset=latin1 text=$ok
expect=204 REQUEST_METHOD=POST PATH_INFO=/ok $J text={"name":"tea","qty":"2"}
expect=204 REQUEST_METHOD=POST PATH_INFO=/ok $J text={"name":"tea"}
expect=204 REQUEST_METHOD=POST PATH_INFO=/ok $J text={"name":"TEA","qty":1}
expect=204 REQUEST_METHOD=POST PATH_INFO=/ok $J text={"name":"tea","qty":1,"x":0}
expect=204 REQUEST_METHOD=POST PATH_INFO=/ok $J text={"name":"tea","name":"t","qty":1}
expect=204 REQUEST_METHOD=POST PATH_INFO=/ok $J text={"name":"tea","qty":1}%20x
expect=204 REQUEST_METHOD=POST PATH_INFO=/ok $J text={"name":"tea","qty":1,"tags":["a","a"]}
expect=204 REQUEST_METHOD=POST PATH_INFO=/ok $J body=$badutf
expect=204 REQUEST_METHOD=POST PATH_INFO=/ok $J body=$deep
expect=204 REQUEST_METHOD=POST PATH_INFO=/ok $J text=
# other answers
expect=412 REQUEST_METHOD=POST PATH_INFO=/ok HTTP_IF_MATCH="0000" $J text=$ok
expect=405 REQUEST_METHOD=DELETE PATH_INFO=/ok
expect=404 REQUEST_METHOD=GET PATH_INFO=/nosuch
expect=404 REQUEST_METHOD=GET PATH_INFO=/..
expect=5xx REQUEST_METHOD=POST PATH_INFO=/fail $J text=$ok
expect=5xx REQUEST_METHOD=POST PATH_INFO=/badout $J text=$ok
expect=500 REQUEST_METHOD=GET PATH_INFO=/broken
EOF

# --- one FastCGI process ------------------------------------------------------
# A clean environment, but sanitizer settings pass (in an ASan build,
# ASAN_OPTIONS=quarantine_size_mb=0 keeps freed memory out of the RSS).
env -i PATH=/usr/bin:/bin GPT_ROOT="$root" \
    ${ASAN_OPTIONS+"ASAN_OPTIONS=$ASAN_OPTIONS"} \
    ${UBSAN_OPTIONS+"UBSAN_OPTIONS=$UBSAN_OPTIONS"} \
    spawn-fcgi -n -s "$sock" -- "$GPT_FCGI" 2>"$TEST_TMP/server.err" &
server_pid=$!
i=0
while [ ! -S "$sock" ] && [ $i -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
if [ -S "$sock" ] && kill -0 "$server_pid" 2>/dev/null; then pass; else
	fail "gpt.fcgi listens on a unix socket under spawn-fcgi"
	finish
	exit 1
fi

run_client() { # run_client COUNT LABEL
	if "$CLIENT" -s "$sock" -n "$1" -t 30 "$TEST_TMP/plan" \
	    >"$TEST_TMP/client.out" 2>"$TEST_TMP/client.err"; then
		pass
	else
		fail "$2: $(cat "$TEST_TMP/client.out") $(head -c 1500 "$TEST_TMP/client.err")"
	fi
	echo "$2: $(cat "$TEST_TMP/client.out")"
}

run_client "$WARMUP" "warm-up"
rss_warm=$(rss_kb)
run_client $((COUNT - WARMUP)) "soak"
rss_end=$(rss_kb)

if kill -0 "$server_pid" 2>/dev/null && [ -n "$rss_end" ]; then pass; else
	fail "the one gpt.fcgi process is still alive after $COUNT requests"
fi
echo "VmRSS after warm-up: ${rss_warm:-?} kB, after $COUNT requests: ${rss_end:-?} kB"
if [ -n "$rss_warm" ] && [ -n "$rss_end" ] &&
    [ "$rss_end" -le $((rss_warm + MARGIN_KB)) ]; then
	pass
else
	fail "VmRSS grew from ${rss_warm:-?} kB to ${rss_end:-?} kB (margin $MARGIN_KB kB)"
fi
if grep -q -i -E 'sanitizer|leak|abort' "$TEST_TMP/server.err"; then
	fail "the server's stderr reports trouble: $(head -c 600 "$TEST_TMP/server.err")"
else
	pass
fi

stop_server
finish
