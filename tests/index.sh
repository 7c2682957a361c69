#!/bin/sh
# index.sh: a root's index for people (gpt-address(5) "The index"),
# through CGI and a real FastCGI process: off without root.conf, on with
# `index = yes`, as JSON (judged against schemas/index.schema.json) and
# as a page by negotiation, with ETag, 304 and HEAD; hidden names and
# addresses that do not load left out; the first sentence of each p; the
# cap on addresses listed; a bad root.conf refused with a log line; the
# .d default's own URL.
. "${GPT_SRCDIR:-.}/tests/lib.sh"

for tool in spawn-fcgi cgi-fcgi; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		echo "index.sh: $tool is required (Debian: spawn-fcgi, libfcgi-bin)"
		exit 1
	fi
done
ELL=$(printf '\342\200\246')
DASH=$(printf '\342\200\224')
SCHEMA=$GPT_SRCDIR/schemas/index.schema.json
ROOT=$TEST_TMP/root
mkdir "$ROOT"
: >"$TEST_TMP/empty"

# form NAME P: an address NAME whose p is P
form() {
	mkdir -p "$ROOT/$1"
	printf '{"p": "%s", "m": [], "s": {"type": "object"}}\n' "$2" >"$ROOT/$1/form.json"
}
form note 'Leave a note. It is kept for a day.'
form ask 'What is due? Say it here.'
form lines 'First line\nSecond line. More.'
form long "$(printf 'x%.0s' $(seq 1 400))"
form '.hidden' 'Never listed.'
mkdir "$ROOT/noform" "$ROOT/broken"
printf '{"p": "Broken.", "m": [], "s": {"type": "strin"}}\n' >"$ROOT/broken/form.json"
form 'amp' 'Fish <&> chips.'

split() { # the answer in $TEST_TMP/resp into head, body, code
	sed '/^\r$/q' "$TEST_TMP/resp" | tr -d '\r' >"$TEST_TMP/head"
	sed '1,/^\r$/d' "$TEST_TMP/resp" >"$TEST_TMP/body"
	code=$(sed -n '1s/^Status: \([0-9]*\).*/\1/p' "$TEST_TMP/head")
}

# cgi METHOD PATH_INFO [VAR=VALUE...]
cgi() {
	_m=$1 _p=$2
	shift 2
	env -i GATEWAY_INTERFACE=CGI/1.1 SERVER_PROTOCOL=HTTP/1.1 \
	    REQUEST_METHOD="$_m" GPT_ROOT="$ROOT" PATH_INFO="$_p" \
	    REQUEST_URI="/gpt$_p" "$@" timeout 30 "$GPT_FCGI" \
	    <"$TEST_TMP/empty" >"$TEST_TMP/resp" 2>"$TEST_TMP/err"
	split
}

expect_code() {
	if [ "$code" = "$1" ]; then pass; else
		fail "$2: status '$code', expected $1 ($(head -c 300 "$TEST_TMP/err"))"
	fi
}
expect_body() {
	if grep -q -- "$1" "$TEST_TMP/body"; then pass; else
		fail "$2: body does not match '$1': $(head -c 400 "$TEST_TMP/body")"
	fi
}
expect_no_body() {
	if grep -q -- "$1" "$TEST_TMP/body"; then
		fail "$2: body matches '$1'"
	else pass; fi
}
expect_head() {
	if grep -q -i -- "$1" "$TEST_TMP/head"; then pass; else
		fail "$2: no header '$1' in: $(cat "$TEST_TMP/head")"
	fi
}
expect_schema() {
	if "$GPT_FCGI" --validate "$SCHEMA" "$TEST_TMP/body" >/dev/null 2>"$TEST_TMP/verr"; then
		pass
	else
		fail "$1: the index is not what schemas/index.schema.json says: $(cat "$TEST_TMP/verr")"
	fi
}

# the JSON and page checks, run against CGI and FastCGI ($1 names it)
check_index() {
	t=$1
	$t GET ""
	expect_code 200 "$t: GET of the root with index = yes"
	expect_head '^Content-Type: application/json' "$t: JSON by default"
	expect_head '^Vary: Accept' "$t: negotiated"
	expect_strict_json "$t: the index"
	expect_schema "$t: the index"
	expect_body '"addresses":\[{"name":"amp","href":"/gpt/amp"' "$t: in name order, href from the request's path"
	expect_body '"name":"note","href":"/gpt/note","summary":"Leave a note."}' "$t: the first sentence of p"
	expect_body '"summary":"What is due?"' "$t: a question ends a sentence"
	expect_body '"summary":"First line"' "$t: the first line ends one"
	expect_body "\"summary\":\"x*$ELL\"" "$t: a long p is cut with an ellipsis"
	expect_no_body 'hidden' "$t: a hidden name is not listed"
	expect_no_body 'noform' "$t: a directory without form.json is not listed"
	expect_no_body 'broken' "$t: an address that does not load is not listed"
	expect_body '"truncated":false' "$t: not truncated"
	etag=$(sed -n 's/^ETag: //p' "$TEST_TMP/head")
	$t GET "" HTTP_IF_NONE_MATCH="$etag"
	expect_code 304 "$t: If-None-Match with the index's ETag"
	$t HEAD ""
	expect_code 200 "$t: HEAD of the root"
	if [ -s "$TEST_TMP/body" ]; then fail "$t: HEAD has a body"; else pass; fi
	$t GET "/" HTTP_ACCEPT='text/html,application/xhtml+xml'
	expect_code 200 "$t: the page at the root with a slash"
	expect_head '^Content-Type: text/html' "$t: a page for a browser"
	expect_head "^Content-Security-Policy: default-src 'none'" "$t: the page allows nothing"
	expect_body "<li><a href=\"/gpt/note\">note</a> $DASH Leave a note.</li>" "$t: the page lists an address"
	expect_body 'Fish &lt;&amp;&gt; chips.' "$t: the page escapes p"
	$t POST ""
	expect_code 404 "$t: POST at the root is still no address"
	$t GET /note
	expect_code 200 "$t: an address still answers"
}

# --- CGI ---------------------------------------------------------------
cgi GET ""
expect_code 404 "no root.conf: the root lists nothing"
printf '# the index\nindex = no\n' >"$ROOT/root.conf"
cgi GET ""
expect_code 404 "index = no: the root lists nothing"
printf 'index = maybe\n' >"$ROOT/root.conf"
cgi GET ""
expect_code 404 "a bad root.conf: nothing listed"
expect_true "a bad root.conf is logged with its reason" \
    grep -q "root.conf refused.*yes or no, not 'maybe'" "$TEST_TMP/err"
printf 'indexes = yes\n' >"$ROOT/root.conf"
cgi GET ""
expect_true "an unknown root.conf key is named" \
    grep -q "unknown key 'indexes'" "$TEST_TMP/err"
printf 'index = yes\n' >"$ROOT/root.conf"
check_index cgi

# the .d default: the directory beside the binary, at the script's URL
mkdir -p "$TEST_TMP/cgi-bin/gpt.fcgi.d/hello"
cp "$ROOT/note/form.json" "$TEST_TMP/cgi-bin/gpt.fcgi.d/hello/"
printf 'index = yes\n' >"$TEST_TMP/cgi-bin/gpt.fcgi.d/root.conf"
env -i GATEWAY_INTERFACE=CGI/1.1 REQUEST_METHOD=GET \
    SCRIPT_FILENAME="$TEST_TMP/cgi-bin/gpt.fcgi" REQUEST_URI=/cgi-bin/gpt.fcgi \
    timeout 30 "$GPT_FCGI" <"$TEST_TMP/empty" >"$TEST_TMP/resp" 2>"$TEST_TMP/err"
split
expect_code 200 "the .d default: the script's own URL lists its addresses"
expect_body '"href":"/cgi-bin/gpt.fcgi/hello"' "the .d default: href under the script's URL"
# once the .d directory holds a form of its own, its URL is that address
printf '{"p": "The own form.", "m": [], "s": {"type": "object"}}\n' \
    >"$TEST_TMP/cgi-bin/gpt.fcgi.d/form.json"
env -i GATEWAY_INTERFACE=CGI/1.1 REQUEST_METHOD=GET \
    SCRIPT_FILENAME="$TEST_TMP/cgi-bin/gpt.fcgi" REQUEST_URI=/cgi-bin/gpt.fcgi \
    timeout 30 "$GPT_FCGI" <"$TEST_TMP/empty" >"$TEST_TMP/resp" 2>"$TEST_TMP/err"
split
expect_code 200 "the .d default with its own form.json"
expect_body '"p":"The own form."' "the .d directory's own form wins over its index"

# the cap: 205 addresses, 200 listed
for i in $(seq 100 304); do form "a$i" "Address $i."; done
cgi GET ""
expect_code 200 "a root of 211 addresses"
expect_schema "the capped index"
expect_body '"truncated":true' "past the cap: truncated"
n=$(grep -o '"name":' "$TEST_TMP/body" | wc -l)
expect_true "at most 200 listed (got $n)" test "$n" -eq 200
cgi GET "" HTTP_ACCEPT=text/html
expect_body 'there are more' "the page says there are more"
for i in $(seq 100 304); do rm -rf "$ROOT/a$i"; done

# --- FastCGI -----------------------------------------------------------
SOCK=$TEST_TMP/gpt.sock
GPT_ROOT=$ROOT spawn-fcgi -s "$SOCK" -n -- "$GPT_FCGI" 2>"$TEST_TMP/server-err" &
pid=$!
trap 'stop_pid "$pid"; rm -rf "$TEST_TMP"' EXIT
i=0
while [ ! -S "$SOCK" ] && [ $i -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
CGI_FCGI=$(command -v cgi-fcgi)
fcgi() {
	_m=$1 _p=$2
	shift 2
	env -i REQUEST_METHOD="$_m" PATH_INFO="$_p" REQUEST_URI="/gpt$_p" \
	    SERVER_PROTOCOL=HTTP/1.1 "$@" \
	    timeout 20 "$CGI_FCGI" -bind -connect "$SOCK" <"$TEST_TMP/empty" \
	    >"$TEST_TMP/resp" 2>"$TEST_TMP/err"
	split
}
check_index fcgi
# a form fixed after the first index is listed at the next
printf '{"p": "Fixed now.", "m": [], "s": {"type": "string"}}\n' >"$ROOT/broken/form.json.new"
mv "$ROOT/broken/form.json.new" "$ROOT/broken/form.json"
sleep 1.2
fcgi GET ""
expect_body '"name":"broken","href":"/gpt/broken","summary":"Fixed now."' "fcgi: a fixed address joins the index"
rm "$ROOT/root.conf"
fcgi GET ""
expect_code 404 "fcgi: root.conf removed: the root lists nothing"
expect_true "the FastCGI process is still alive" alive "$pid"

finish
