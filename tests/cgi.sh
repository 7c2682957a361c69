#!/bin/sh
# cgi.sh: the built binary as a CGI program (variables in the environment,
# the body on stdin), against the addresses of tests/data/addresses: every
# status, every rejection reason (all answered by the same bytes), every
# hook failure, the hook's environment and stdin, path hygiene, the
# conditional headers, HEAD, negotiation and explain mode.
. "${GPT_SRCDIR:-.}/tests/lib.sh"

ROOT=$TEST_TMP/root
cp -R "$GPT_SRCDIR/tests/data/addresses" "$ROOT"
chmod -R u+w "$ROOT"
chmod 755 "$ROOT/modes/hook" "$ROOT/explain/hook"
chmod 644 "$ROOT/noexec/hook"
mkdir "$TEST_TMP/outside"
cp "$ROOT/nohook/form.json" "$TEST_TMP/outside/form.json"
ln -s "$TEST_TMP/outside" "$ROOT/escape"
ln -s modes "$ROOT/inside"
: >"$TEST_TMP/empty"

# cgi METHOD PATH_INFO STDIN [VAR=VALUE...]: one request; sets code and
# splits the answer into $TEST_TMP/head (no CRs) and $TEST_TMP/body.
# GPT_TEST_MARKER stands for the web server's own environment: it must
# never reach a hook.
cgi() {
	_m=$1 _p=$2 _in=$3
	shift 3
	env -i GATEWAY_INTERFACE=CGI/1.1 SERVER_PROTOCOL=HTTP/1.1 \
	    REQUEST_METHOD="$_m" GPT_ROOT="$ROOT" PATH_INFO="$_p" \
	    REQUEST_URI="/gpt$_p" REMOTE_ADDR=192.0.2.7 \
	    GPT_TEST_MARKER=leaked "$@" \
	    timeout 30 \
	    "$GPT_FCGI" <"$_in" >"$TEST_TMP/resp" 2>"$TEST_TMP/err"
	status=$?
	sed '/^\r$/q' "$TEST_TMP/resp" | tr -d '\r' >"$TEST_TMP/head"
	sed '1,/^\r$/d' "$TEST_TMP/resp" >"$TEST_TMP/body"
	code=$(sed -n '1s/^Status: \([0-9]*\).*/\1/p' "$TEST_TMP/head")
}

# post PATH_INFO FILE [VAR=VALUE...]: a JSON act with its length.
post() {
	_p=$1 _f=$2
	shift 2
	cgi POST "$_p" "$_f" CONTENT_TYPE=application/json \
	    CONTENT_LENGTH="$(wc -c <"$_f" | tr -d ' ')" "$@"
}

# body TEXT: write TEXT (printf format, no newline added) to $TEST_TMP/in.
body() {
	printf "$1" >"$TEST_TMP/in"
}

expect_code() {
	if [ "$code" = "$1" ] && [ "$status" -eq 0 ]; then pass; else
		fail "$2: status '$code' (exit $status), expected $1" \
		    "(stderr: $(head -c 300 "$TEST_TMP/err"))"
	fi
}

expect_head() {
	if grep -q -i -- "$1" "$TEST_TMP/head"; then pass; else
		fail "$2: no header matching '$1' in: $(cat "$TEST_TMP/head")"
	fi
}

expect_no_head() {
	if grep -q -i -- "$1" "$TEST_TMP/head"; then
		fail "$2: header matching '$1' present"
	else pass; fi
}

expect_empty_body() {
	if [ ! -s "$TEST_TMP/body" ]; then pass; else
		fail "$2: body not empty: $(head -c 200 "$TEST_TMP/body")"
	fi
}

expect_err() {
	if grep -q -- "$1" "$TEST_TMP/err"; then pass; else
		fail "$2: stderr does not match '$1': $(head -c 300 "$TEST_TMP/err")"
	fi
}

# expect_jq LABEL JQ-ARG...: jq -e JQ-ARG... holds for the answer's body.
expect_jq() {
	_l=$1
	shift
	if jq -e "$@" "$TEST_TMP/body" >/dev/null; then pass; else
		fail "$_l: $(head -c 300 "$TEST_TMP/body")"
	fi
}

expect_same() { # FILE1 FILE2 LABEL
	if cmp -s "$1" "$2"; then pass; else
		fail "$3: $1 and $2 differ"
	fi
}

# --- arrival ------------------------------------------------------------
cgi GET /modes "$TEST_TMP/empty"
expect_code 200 "GET"
expect_head '^Content-Type: application/json$' "GET is JSON"
expect_head '^Vary: Accept$' "GET varies on Accept"
expect_head '^ETag: "[0-9a-f]\{32\}"$' "GET has a strong ETag"
expect_head "^Content-Length: $(wc -c <"$TEST_TMP/body" | tr -d ' ')\$" \
    "Content-Length counts the body"
expect_head '^GPT-Type: test/modes$' "GPT-Type from address.conf"
etag=$(sed -n 's/^ETag: //p' "$TEST_TMP/head")
cp "$TEST_TMP/body" "$TEST_TMP/get1"
cp "$TEST_TMP/head" "$TEST_TMP/gethead1"
expect_jq "GET body is the arrival document" \
    '.p and .m and .s and .["x-extra"] == "served as it is"'

cgi GET /modes "$TEST_TMP/empty" HTTP_GPT_ACTOR=someone-else \
    HTTP_COOKIE=a=b QUERY_STRING=x=1
expect_same "$TEST_TMP/get1" "$TEST_TMP/body" \
    "GET answers the same bytes whatever actor, cookie or query"

cgi HEAD /modes "$TEST_TMP/empty"
expect_code 200 "HEAD"
expect_empty_body "HEAD" "HEAD has no body"
expect_same "$TEST_TMP/gethead1" "$TEST_TMP/head" "HEAD has GET's headers"

for inm in "$etag" "\"x\", $etag" "W/$etag" '*'; do
	cgi GET /modes "$TEST_TMP/empty" HTTP_IF_NONE_MATCH="$inm"
	expect_code 304 "If-None-Match: $inm"
	expect_empty_body "304 for $inm"
	expect_head "^ETag: $etag\$" "304 carries the ETag"
	expect_head '^Vary: Accept$' "304 carries Vary"
done
cgi GET /modes "$TEST_TMP/empty" HTTP_IF_NONE_MATCH='"other"'
expect_code 200 "If-None-Match with another ETag"

html_accept='text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8'
cgi GET /modes "$TEST_TMP/empty" HTTP_ACCEPT="$html_accept"
expect_code 200 "GET from a browser"
expect_head '^Content-Type: text/html; charset=utf-8$' "a browser gets HTML"
expect_head '^Vary: Accept$' "HTML varies on Accept"
expect_no_head "^ETag: $etag\$" "HTML has its own ETag"
if grep -q 'A test address whose hook misbehaves' "$TEST_TMP/body"; then
	pass; else fail "the page shows p"; fi
hetag=$(sed -n 's/^ETag: //p' "$TEST_TMP/head")
cgi GET /modes "$TEST_TMP/empty" HTTP_ACCEPT="$html_accept" \
    HTTP_IF_NONE_MATCH="$hetag"
expect_code 304 "If-None-Match on the page"
for acc in '*/*' 'application/json' 'text/html;q=0' 'text/*' \
    'application/json, text/html'; do
	cgi GET /modes "$TEST_TMP/empty" HTTP_ACCEPT="$acc"
	expect_head '^Content-Type: application/json$' "Accept: $acc is JSON"
done

for m in PUT DELETE OPTIONS PATCH get; do
	cgi "$m" /modes "$TEST_TMP/empty"
	expect_code 405 "method $m"
	expect_head '^Allow: GET, HEAD, POST$' "405 lists the methods"
done

# A body left unread (405 here) is read and discarded after the answer, up
# to CONTENT_LENGTH and not past it: a gateway that passes the body over a
# socket (mod_cgid) would otherwise see a reset and may lose the answer.
printf '{"a": 1}XYTAIL' >"$TEST_TMP/drain"
(
	env -i GATEWAY_INTERFACE=CGI/1.1 REQUEST_METHOD=PUT GPT_ROOT="$ROOT" \
	    PATH_INFO=/modes CONTENT_TYPE=application/json CONTENT_LENGTH=10 \
	    timeout 30 "$GPT_FCGI" >"$TEST_TMP/resp" 2>"$TEST_TMP/err"
	cat >"$TEST_TMP/rest"
) <"$TEST_TMP/drain"
if grep -q '^Status: 405' "$TEST_TMP/resp" &&
    [ "$(cat "$TEST_TMP/rest")" = TAIL ]; then pass; else
	fail "unread body: answer $(head -n 1 "$TEST_TMP/resp"), left '$(cat "$TEST_TMP/rest")'"
fi

# --- act: accepted, and the hook's view --------------------------------
# Whitespace, escapes and raw UTF-8: the hook must get these very bytes.
body '{ "mode" :"echo",\n  "note": "caf\\u00e9 \303\251 \\ud83d\\ude00" }\n'
post /modes "$TEST_TMP/in" HTTP_GPT_ACTOR=tester
expect_code 200 "an accepted act"
expect_head '^Content-Type: application/json$' "the hook's answer is JSON"
expect_same "$TEST_TMP/in" "$ROOT/modes/last-body" \
    "the hook gets the body bytes exactly"
expect_same "$TEST_TMP/in" "$TEST_TMP/body" "the hook's output is the answer"
expect_err 'actor "tester"' "the actor is logged"

body '{"mode":"env"}'
post /modes "$TEST_TMP/in" HTTP_GPT_ACTOR=tester
expect_code 200 "env mode"
env_has() {
	if grep -q -x -- "$1" "$ROOT/modes/last-env"; then pass; else
		fail "hook env lacks $1: $(tr '\n' ' ' <"$ROOT/modes/last-env")"
	fi
}
env_has 'PATH=/usr/local/bin:/usr/bin:/bin'
env_has "GPT_ADDRESS=$ROOT/modes"
env_has 'GPT_ACTOR=tester'
env_has 'CONTENT_LENGTH=14'
env_has 'REMOTE_ADDR=192.0.2.7'
if grep -q -e GPT_TEST_MARKER -e GATEWAY_INTERFACE -e GPT_ROOT \
    -e REQUEST_METHOD "$ROOT/modes/last-env"; then
	fail "the server's environment reached the hook"
else pass; fi

# If-Match: 412 when it names another ETag, accepted when it matches.
body '{"mode":"echo"}'
post /modes "$TEST_TMP/in" HTTP_IF_MATCH='"0000"'
expect_code 412 "If-Match with a stale ETag"
expect_empty_body "412"
post /modes "$TEST_TMP/in" HTTP_IF_MATCH="W/$etag"
expect_code 412 "If-Match compares strongly"
post /modes "$TEST_TMP/in" HTTP_IF_MATCH="$etag"
expect_code 200 "If-Match with the current ETag"
post /modes "$TEST_TMP/in" HTTP_IF_MATCH='*'
expect_code 200 "If-Match: *"

# If-Match is decided before the body is parsed or judged: an act written
# for the old form, sent with the old ETag, learns that the form changed
# (412 with the current ETag), even when the new form refuses the act (it
# would get 204) or the body is not even JSON.
chg=$ROOT/changing
mkdir "$chg"
printf '%s\n' '{"p": "Version one.", "m": [],' \
    ' "s": {"type": "object", "properties": {"v": {"const": 1}}}}' \
    >"$chg/form.json"
printf '#!/bin/sh\nexec cat\n' >"$chg/hook"
chmod 755 "$chg/hook"
cgi GET /changing "$TEST_TMP/empty"
old_etag=$(sed -n 's/^ETag: //p' "$TEST_TMP/head")
sed 's/one/two/; s/"const": 1/"const": 2/' "$chg/form.json" >"$chg/form.new"
mv "$chg/form.new" "$chg/form.json"
cgi GET /changing "$TEST_TMP/empty"
new_etag=$(sed -n 's/^ETag: //p' "$TEST_TMP/head")
if [ -n "$old_etag" ] && [ "$old_etag" != "$new_etag" ]; then pass; else
	fail "the changed form has a new ETag ($old_etag, $new_etag)"; fi
body '{"v":1}'
post /changing "$TEST_TMP/in" HTTP_IF_MATCH="$old_etag"
expect_code 412 "an act only the old form accepts, with the old ETag"
expect_head "^ETag: $new_etag\$" "the 412 carries the current ETag"
expect_empty_body "a silent 412"
body '{"v":1,}'
post /changing "$TEST_TMP/in" HTTP_IF_MATCH="$old_etag"
expect_code 412 "a body that is not strict JSON, with the old ETag"
body '{"v":1}'
post /changing "$TEST_TMP/in"
expect_code 204 "the same act without If-Match fails the new form"
body '{"v":2}'
post /changing "$TEST_TMP/in" HTTP_IF_MATCH="$new_etag"
expect_code 200 "the act for the new form, with its ETag"
printf 'failures = explain\n' >"$chg/address.conf"
body '{"v":1}'
post /changing "$TEST_TMP/in" HTTP_IF_MATCH="$old_etag"
expect_code 412 "explain: a stale If-Match"
expect_head "^ETag: $new_etag\$" "explain: the 412 carries the current ETag"
expect_head '^Content-Type: application/json$' "explain: the 412 is JSON"
expect_strict_json "explain: the 412 body"
expect_jq "explain: the 412 says the form changed" --arg e "$new_etag" \
    '.etag == $e and (.detail | test("form changed"))'

# --- act: rejections, all the same bytes --------------------------------
n=0
reject() { # LABEL: the last answer must be the one 204
	n=$((n + 1))
	expect_code 204 "$1"
	if [ "$n" -eq 1 ]; then
		cp "$TEST_TMP/resp" "$TEST_TMP/reject1"
	else
		expect_same "$TEST_TMP/reject1" "$TEST_TMP/resp" \
		    "$1 is byte-identical to the first rejection"
	fi
	expect_err 'act rejected' "$1 is logged"
}

head -c 2000 /dev/zero | tr '\0' ' ' >"$TEST_TMP/big"
cgi POST /modes "$TEST_TMP/big" CONTENT_TYPE=application/json \
    CONTENT_LENGTH=2000
reject "oversize by CONTENT_LENGTH"
cgi POST /modes "$TEST_TMP/big" CONTENT_TYPE=application/json
reject "oversize while reading"
body '{"mode":"echo"}'
cgi POST /modes "$TEST_TMP/in" CONTENT_TYPE=application/json \
    CONTENT_LENGTH=100
reject "a body shorter than CONTENT_LENGTH"
cgi POST /modes "$TEST_TMP/in" CONTENT_TYPE=application/json \
    CONTENT_LENGTH=1x
reject "a malformed CONTENT_LENGTH"
post /modes "$TEST_TMP/in" CONTENT_TYPE=text/plain
reject "Content-Type text/plain"
post /modes "$TEST_TMP/in" CONTENT_TYPE=
reject "an empty Content-Type"
cgi POST /modes "$TEST_TMP/in" CONTENT_LENGTH=15
reject "no Content-Type"
post /modes "$TEST_TMP/in" CONTENT_TYPE='application/json; charset=latin1'
reject "charset latin1"
post /modes "$TEST_TMP/in" \
    CONTENT_TYPE='application/x-www-form-urlencoded'
reject "an HTML form's type"
# Each line: the reason logged, then the body (a printf format).
while IFS='|' read -r why bad; do
	body "$bad"
	post /modes "$TEST_TMP/in"
	reject "body $bad"
	expect_err "act rejected at $ROOT/modes: $why" \
	    "body $bad is logged as $why, naming the address"
done <<'EOF'
not strict JSON|{"mode":"echo",}
not strict JSON.*after the value|{"mode":"echo"} x
not strict JSON|{"mode":"echo"}{}
not strict JSON.*duplicate|{"mode":"echo","deep":{"a":{"b":1,"b":2}}}
not strict JSON.*UTF-8|{"mode":"echo","note":"\377"}
not strict JSON.*UTF-8|{"mode":"echo","note":"\300\257"}
not strict JSON|
not strict JSON| 
not strict JSON.*surrogate|{"mode":"echo","note":"\\ud800"}
not strict JSON|{'mode':'echo'}
fails the form|{"mode":"nope"}
fails the form|{"mode":"echo","other":1}
fails the form|{"mode":"echo","note":""}
fails the form|[]
fails the form|null
EOF
deep=$(head -c 200 /dev/zero | tr '\0' '[')$(head -c 200 /dev/zero | tr '\0' ']')
body "{\"mode\":\"echo\",\"deep\":$deep}"
post /modes "$TEST_TMP/in"
reject "nesting deeper than the limit"
expect_err "act rejected at $ROOT/modes: not strict JSON.*deep" \
    "too deep is logged as such"
body '{"mode":"echo","note":"\\u0000"}'
post /modes "$TEST_TMP/in"
expect_code 200 "a NUL escape is legal JSON"

# A valid body in charset utf-8 and odd-cased type is accepted.
body '{"mode":"echo"}'
post /modes "$TEST_TMP/in" CONTENT_TYPE='Application/JSON; charset="UTF-8"'
expect_code 200 "application/json with charset utf-8"
cgi POST /modes "$TEST_TMP/in" CONTENT_TYPE=application/json
expect_code 200 "a body without CONTENT_LENGTH, read to EOF"

# --- hook failures ------------------------------------------------------
hookfail() { # MODE CODE
	body "{\"mode\":\"$1\"}"
	post /modes "$TEST_TMP/in"
	expect_code "$2" "hook mode $1"
	expect_empty_body "hook mode $1 leaks no detail"
	expect_err 'hook of' "hook mode $1 is logged"
}
hookfail exit 502
hookfail kill 502
hookfail sleep 504
hookfail big 502
hookfail notjson 502
hookfail trailing 502
hookfail empty 502
body '{}'
post /nohook "$TEST_TMP/in"
expect_code 502 "an address without a hook"
expect_err 'accepts no acts' "a missing hook is logged"
post /noexec "$TEST_TMP/in"
expect_code 502 "a hook that is not executable"

# --- what the hook starts outside its group dies with the act -----------
# The hook double-forks a setsid'd shell (another session, parent gone)
# that would write a marker 2 s later, then answers ({"mode":"exit"}) or
# sleeps past hook_timeout ({"mode":"timeout"}).  Neither marker may ever
# appear, and no escaped process may live once gpt.fcgi has exited.
mkdir "$ROOT/escaper"
cp "$ROOT/nohook/form.json" "$ROOT/escaper/form.json"
printf 'hook_timeout = 1\n' >"$ROOT/escaper/address.conf"
cat >"$ROOT/escaper/hook" <<'EOF'
#!/bin/sh
case $(cat) in *timeout*) m=timeout ;; *) m=exit ;; esac
setsid sh -c "sh -c 'echo \$\$ >$m.pid; sleep 2; echo late >$m.marker' \
    >/dev/null 2>&1 &"
while [ ! -s $m.pid ]; do sleep 0.05; done
[ $m = exit ] || sleep 60
echo '{}'
EOF
chmod 755 "$ROOT/escaper/hook"
body '{"mode":"exit"}'
post /escaper "$TEST_TMP/in"
expect_code 200 "a hook that leaves an escaped process behind"
body '{"mode":"timeout"}'
post /escaper "$TEST_TMP/in"
expect_code 504 "a hook that leaves an escaped process and times out"
expect_err 'timed out after 1 s: ended by SIGTERM' \
    "the timeout is logged as one, with the signal that ended it"
for m in exit timeout; do
	p=$(cat "$ROOT/escaper/$m.pid" 2>/dev/null)
	if [ -n "$p" ] && ! alive "$p"; then pass; else
		fail "$m: the escaped process ${p:-?} outlived gpt.fcgi"
		[ -z "$p" ] || kill -9 "$p" 2>/dev/null
	fi
done
sleep 2.5
for m in exit timeout; do
	if [ ! -e "$ROOT/escaper/$m.marker" ]; then pass; else
		fail "$m: the escaped process wrote its marker"
	fi
done

# --- explain mode -------------------------------------------------------
body '{"note":""}'
post /explain "$TEST_TMP/in"
expect_code 422 "explain: fails the form"
expect_strict_json "explain: fails the form"
expect_jq "explain names pointer and keyword" \
    '.pointer == "/note" and .keyword == "minLength"'
body '{"note":"a",}'
post /explain "$TEST_TMP/in"
expect_code 422 "explain: a parse error"
expect_strict_json "explain: a parse error"
expect_jq "explain gives the parse offset" '.offset == 12'
body '{"note":"ok"}'
post /explain "$TEST_TMP/in"
expect_code 200 "explain: an accepted act"
# Member names are the pointer's tokens: U+0000 in a name, and a name so
# long that the pointer's bounded buffer cuts it inside a UTF-8 sequence,
# still give a 422 our strict parser accepts, with the whole characters.
anyn=$ROOT/explain-names
mkdir "$anyn"
printf '%s\n' '{"p": "Any names, string values.", "m": [],' \
    ' "s": {"type": "object", "additionalProperties": {"type": "string"}}}' \
    >"$anyn/form.json"
printf 'failures = explain\n' >"$anyn/address.conf"
body '{"a\\u0000b": 1}'
post /explain-names "$TEST_TMP/in"
expect_code 422 "explain: a member name holding U+0000"
expect_strict_json "explain: the pointer through U+0000"
expect_jq "explain: the pointer keeps U+0000" \
    '.pointer == "/a\u0000b" and .keyword == "type"'
{
	printf '{"x'
	awk 'BEGIN { for (i = 0; i < 400; i++) printf "\342\202\254" }'
	printf '": 1}'
} >"$TEST_TMP/in"
post /explain-names "$TEST_TMP/in"
expect_code 422 "explain: a member name longer than the pointer's buffer"
expect_strict_json "explain: the cut pointer"
expect_jq "explain: the pointer is cut on a character" \
    '(.pointer | test("^/x(\u20ac)+[.][.][.]$"))'

# --- memory: every body of at most max_body bytes that parses is parsed --
# The request arena's cap comes from the parser's worst case per input
# byte (json.h), so the shapes that need the most memory per byte, at
# max_body, are parsed, validated and handed to the hook; the hook's
# output is parsed into memory of its own, so a large act cannot make a
# hook that already ran answer 502.
# items ITEM COUNT PAD: "[" ITEM ("," ITEM)* "]", spaces up to PAD bytes.
items() {
	awk -v it="$1" -v n="$2" -v pad="$3" 'BEGIN {
		printf "["; l = 1
		for (i = 0; i < n; i++) {
			if (i) { printf ","; l++ }
			printf "%s", it; l += length(it)
		}
		printf "]"; l++
		for (; l < pad; l++) printf " "
	}'
}
# members PAD: {"0":1,"1":1,...} with the shortest distinct names, up to
# PAD bytes.
members() {
	awk -v pad="$1" 'BEGIN {
		al = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
		printf "{"; l = 1
		for (k = 0; ; k++) {
			x = k; nm = ""
			do { nm = substr(al, x % 62 + 1, 1) nm; x = int(x / 62) } while (x > 0)
			if (l + length(nm) + 6 > pad) break
			if (k) { printf ","; l++ }
			printf "\"%s\":1", nm; l += length(nm) + 4
		}
		printf "}"; l++
		for (; l < pad; l++) printf " "
	}'
}
wide=$ROOT/wide
mkdir "$wide"
printf '%s\n' '{"p": "Takes any array, object or string.", "m": [],' \
    ' "s": {"type": ["array", "object", "string"]}}' >"$wide/form.json"
# The largest worst case: 524,289 items, one past a doubling of the
# parser's scratch stack (64 * 2^13), in exactly max_body bytes.
printf 'max_body = 1048579\n' >"$wide/address.conf"
printf '%s\n' '#!/bin/sh' 'n=$(wc -c | tr -d " ")' \
    'echo "{\"bytes\": $n}"' >"$wide/hook"
chmod 755 "$wide/hook"
items 1 524289 0 >"$TEST_TMP/wide-ones"
items '[]' 349526 1048579 >"$TEST_TMP/wide-empties"
items '"\\u0000"' 116508 1048579 >"$TEST_TMP/wide-nuls"
members 1048579 >"$TEST_TMP/wide-members"
{
	printf '"'
	awk 'BEGIN { for (i = 0; i < 174762; i++) printf "\\u0000" }'
	printf '"'
} >"$TEST_TMP/wide-string"
for shape in ones empties nuls members string; do
	f=$TEST_TMP/wide-$shape
	len=$(wc -c <"$f" | tr -d ' ')
	if [ "$len" -le 1048579 ] && [ "$len" -gt 1048000 ] &&
	    "$GPT_FCGI" --parse "$f" 2>/dev/null; then pass; else
		fail "the $shape body is strict JSON of max_body bytes ($len)"
	fi
	post /wide "$f"
	expect_code 200 "the $shape body of max_body bytes reaches the hook"
	if grep -q "\"bytes\": $len" "$TEST_TMP/body"; then pass; else
		fail "the hook got all of the $shape body: $(cat "$TEST_TMP/body")"
	fi
done
# uniqueItems adds the validator's table to the tree: still decided, not
# a 500.
uniq=$ROOT/wide-unique
mkdir "$uniq"
printf '%s\n' '{"p": "Distinct items.", "m": [],' \
    ' "s": {"type": "array", "uniqueItems": true}}' >"$uniq/form.json"
printf 'max_body = 1048579\nfailures = explain\n' >"$uniq/address.conf"
cp "$wide/hook" "$uniq/hook"
post /wide-unique "$TEST_TMP/wide-ones"
expect_code 422 "uniqueItems over the widest array is decided"
expect_strict_json "the uniqueItems rejection"
expect_jq "uniqueItems names its keyword" '.keyword == "uniqueItems"'
# The issue's case: a body of 524,291 bytes filled the request arena, and
# the hook's output, parsed into the same arena, answered 502 after the
# hook ran.  Here the hook prints nearly hook_max_output (1 MiB) bytes of
# the same shape.
hooked=$ROOT/wide-hook
mkdir "$hooked"
cp "$wide/form.json" "$hooked/form.json"
items 1 524287 0 >"$hooked/output.json"
printf '#!/bin/sh\ncat >/dev/null\nexec cat output.json\n' >"$hooked/hook"
chmod 755 "$hooked/hook"
items 1 262145 0 >"$TEST_TMP/half-ones"
post /wide-hook "$TEST_TMP/half-ones"
expect_code 200 "a hook printing nearly hook_max_output after a large act"
expect_same "$hooked/output.json" "$TEST_TMP/body" \
    "the large act's hook answers its output"

# --- addresses that do not load: 500, reason on stderr only -------------
for a in broken-json broken-conf broken-form not-arrival; do
	cgi GET "/$a" "$TEST_TMP/empty"
	expect_code 500 "address $a"
	expect_empty_body "address $a: no reason in the body"
	expect_err 'refused' "address $a: the reason is logged"
	body '{}'
	post "/$a" "$TEST_TMP/in"
	expect_code 500 "POST to address $a"
done

# --- which address: path hygiene ----------------------------------------
for p in /nope /.hidden /.. /../modes /modes/ //modes /modes/x / \
    /escape /mo%2Fdes "/a b"; do
	cgi GET "$p" "$TEST_TMP/empty"
	expect_code 404 "PATH_INFO $p"
	expect_empty_body "404 for $p"
done
cgi GET /modes "$TEST_TMP/empty" REQUEST_URI=/gpt/x%2fy/../modes
expect_code 404 "an encoded slash in REQUEST_URI"
cgi GET /inside "$TEST_TMP/empty"
expect_code 200 "a symlink that stays inside the root"
cgi GET "" "$TEST_TMP/empty"
expect_code 404 "GPT_ROOT without a name"
cgi GET "" "$TEST_TMP/empty" GPT_ADDRESS="$ROOT/modes"
expect_code 200 "GPT_ADDRESS names the directory"
cgi GET /modes "$TEST_TMP/empty" GPT_ADDRESS="$ROOT/modes"
expect_code 404 "a path after GPT_ADDRESS"
# The shared-hosting default: <SCRIPT_FILENAME>.d
mkdir "$TEST_TMP/cgi-bin"
cp -R "$ROOT/modes" "$TEST_TMP/cgi-bin/gpt.fcgi.d"
cp -R "$ROOT/explain" "$TEST_TMP/cgi-bin/gpt.fcgi.d/sub"
cgi GET "" "$TEST_TMP/empty" GPT_ROOT= \
    SCRIPT_FILENAME="$TEST_TMP/cgi-bin/gpt.fcgi"
expect_code 200 "the default address beside the script"
expect_head '^GPT-Type: test/modes$' "the default address is <script>.d"
cgi GET /sub "$TEST_TMP/empty" GPT_ROOT= \
    SCRIPT_FILENAME="$TEST_TMP/cgi-bin/gpt.fcgi"
expect_code 200 "a named address under <script>.d"
cgi GET /.. "$TEST_TMP/empty" GPT_ROOT= \
    SCRIPT_FILENAME="$TEST_TMP/cgi-bin/gpt.fcgi"
expect_code 404 ".. under <script>.d"
cgi GET "" "$TEST_TMP/empty" GPT_ROOT=
expect_code 404 "no way to name an address"

# A query string without '=' may reach a CGI program as arguments; it is
# still a request, never a command line.
env -i GATEWAY_INTERFACE=CGI/1.1 REQUEST_METHOD=GET GPT_ROOT="$ROOT" \
    PATH_INFO=/modes "$GPT_FCGI" --check /etc </dev/null \
    >"$TEST_TMP/resp" 2>"$TEST_TMP/err"
if head -n 1 "$TEST_TMP/resp" | grep -q '^Status: 200'; then pass; else
	fail "arguments under CGI are not a command line"
fi

# A client gone before the answer (the reader of stdout exits while the
# hook runs into its one-second timeout) costs a log line, not a SIGPIPE
# death.
body '{"mode":"sleep"}'
{
	env -i GATEWAY_INTERFACE=CGI/1.1 REQUEST_METHOD=POST GPT_ROOT="$ROOT" \
	    PATH_INFO=/modes CONTENT_TYPE=application/json CONTENT_LENGTH=16 \
	    timeout 30 "$GPT_FCGI" <"$TEST_TMP/in" 2>"$TEST_TMP/err"
	echo $? >"$TEST_TMP/rc"
} | true
status=$(cat "$TEST_TMP/rc")
expect_status 0 "an answer to a client that hung up"
expect_stderr_match 'went away' "a client that hung up is logged"

# --- --check ------------------------------------------------------------
run_cli --check "$ROOT/modes"
expect_status 0 "--check of a good address"
run_cli --check "$ROOT/nohook"
expect_status 0 "--check of an address without a hook"
expect_stdout_match 'accepts no acts' "--check warns about a missing hook"
run_cli --check "$ROOT/noexec"
expect_stdout_match 'not an executable' "--check warns about a hook's mode"
for a in broken-json broken-conf broken-form not-arrival nope; do
	run_cli --check "$ROOT/$a"
	expect_status 1 "--check of $a"
done
run_cli --check
expect_status 2 "--check without a directory"

# --- the script's own URL (shared hosting, no server variable) ----------
# .../gpt.fcgi with no name is the directory gpt.fcgi.d itself: before a
# form is published there, 404 and a line saying what to create.
sh_dir=$TEST_TMP/hosting
mkdir -p "$sh_dir"
own_get() {
	env -i GATEWAY_INTERFACE=CGI/1.1 REQUEST_METHOD=GET \
	    SCRIPT_FILENAME="$sh_dir/gpt.fcgi" SERVER_PROTOCOL=HTTP/1.1 \
	    "$GPT_FCGI" </dev/null >"$TEST_TMP/resp" 2>"$TEST_TMP/err"
	status=$?
	sed '/^\r$/q' "$TEST_TMP/resp" | tr -d '\r' >"$TEST_TMP/head"
	code=$(sed -n '1s/^Status: \([0-9]*\).*/\1/p' "$TEST_TMP/head")
}
own_get
expect_code 404 "the script's own URL without gpt.fcgi.d"
expect_err "create $sh_dir/gpt.fcgi.d/form.json" \
    "the log says what to create (no gpt.fcgi.d)"
mkdir "$sh_dir/gpt.fcgi.d"
own_get
expect_code 404 "the script's own URL with an empty gpt.fcgi.d"
expect_err "create $sh_dir/gpt.fcgi.d/form.json" \
    "the log says what to create (no form.json)"
printf '{"p": "x", "m": [], "s": {"nope": 1}}' >"$sh_dir/gpt.fcgi.d/form.json"
own_get
expect_code 500 "a broken form at the script's own URL is still 500"
cp "$ROOT/nohook/form.json" "$sh_dir/gpt.fcgi.d/form.json"
own_get
expect_code 200 "a form at the script's own URL is served"
# A named address without form.json is the operator's error: still 500.
mkdir "$sh_dir/gpt.fcgi.d/empty"
env -i GATEWAY_INTERFACE=CGI/1.1 REQUEST_METHOD=GET PATH_INFO=/empty \
    SCRIPT_FILENAME="$sh_dir/gpt.fcgi" "$GPT_FCGI" </dev/null \
    >"$TEST_TMP/resp" 2>"$TEST_TMP/err"
expect_true "a named address without form.json is 500" \
    grep -q '^Status: 500' "$TEST_TMP/resp"

# --- hook_env: the operator's variables -------------------------------------
cp -R "$ROOT/modes" "$ROOT/withenv"
rm -f "$ROOT/withenv/last-env"
cat >>"$ROOT/withenv/address.conf" <<'CONF'
hook_env = DB=/srv/data/app.sqlite
hook_env = PATH=/opt/venv/bin:/usr/bin:/bin
hook_env = GREETING=two words, = and all
CONF
body '{"mode": "env"}'
post /withenv "$TEST_TMP/in"
expect_code 200 "an act at an address with hook_env"
for v in 'DB=/srv/data/app.sqlite' 'PATH=/opt/venv/bin:/usr/bin:/bin' \
    'GREETING=two words, = and all' "GPT_ADDRESS=$ROOT/withenv" \
    'CONTENT_LENGTH=15'; do
	expect_true "hook_env: the hook gets $v" \
	    grep -qxF "$v" "$ROOT/withenv/last-env"
done
n=$(grep -c '^PATH=' "$ROOT/withenv/last-env")
expect_true "hook_env: one PATH, the operator's (got $n)" test "$n" -eq 1
# A value can come only from the file: a request header of the same name
# changes nothing.
post /withenv "$TEST_TMP/in" HTTP_DB=/etc/passwd
expect_true "hook_env: a request cannot set the value" \
    grep -qxF 'DB=/srv/data/app.sqlite' "$ROOT/withenv/last-env"
printf 'hook_env = GPT_ACTOR=root\n' >"$ROOT/withenv/address.conf"
cgi GET /withenv "$TEST_TMP/empty"
expect_code 500 "hook_env naming GPT_ACTOR refuses the address"
expect_err 'GPT_ACTOR is set by gpt.fcgi itself' \
    "the log says why hook_env refused the address"
run_cli --check "$ROOT/withenv"
expect_status 1 "--check refuses hook_env naming GPT_ACTOR"

# --- run as root ------------------------------------------------------------
# Hooks run as whoever runs gpt.fcgi: as root, the responder says so once
# (here: once per CGI request) and --check warns.  As another user,
# neither does.
rootline='hooks run as root'
if [ "$(id -u)" -eq 0 ]; then
	run_cli --check "$ROOT/modes"
	expect_status 0 "--check as root still passes"
	expect_stdout_match "checked as root; if served as root, $rootline" \
	    "--check as root warns"
	cgi GET /modes "$TEST_TMP/empty"
	expect_code 200 "a GET as root"
	n=$(grep -c "warning: $rootline" "$TEST_TMP/err")
	expect_true "a CGI request as root logs '$rootline' once (got $n)" \
	    test "$n" -eq 1
	# The same as an ordinary user (a copy it can read).
	pub=$TEST_TMP/pub
	mkdir -p "$pub"
	cp "$GPT_FCGI" "$pub/gpt.fcgi"
	cp -R "$ROOT/modes" "$pub/modes"
	chmod -R a+rX "$pub"
	chmod 755 "$TEST_TMP"
	as_nobody="setpriv --reuid=nobody --regid=nogroup --clear-groups --"
	bin=$pub/gpt.fcgi
else
	pub=$ROOT
	as_nobody=
	bin=$GPT_FCGI
fi
$as_nobody "$bin" --check "$pub/modes" >"$TEST_TMP/out" 2>"$TEST_TMP/err" </dev/null
status=$?
expect_status 0 "--check as an ordinary user"
expect_true "--check as an ordinary user does not warn about root" \
    sh -c "! grep -q 'as root' '$TEST_TMP/out' '$TEST_TMP/err'"
env -i GATEWAY_INTERFACE=CGI/1.1 REQUEST_METHOD=GET \
    GPT_ADDRESS="$pub/modes" $as_nobody "$bin" \
    </dev/null >"$TEST_TMP/resp" 2>"$TEST_TMP/err"
expect_true "a CGI request as an ordinary user is answered" \
    grep -q '^Status: 200' "$TEST_TMP/resp"
expect_true "a CGI request as an ordinary user does not mention root" \
    sh -c "! grep -q '$rootline' '$TEST_TMP/err'"


# --- the log: the address named, the CGI timestamp, the level ----------
# Lines under CGI carry an RFC 3339 UTC time whatever the server (Debian's
# Apache runs CGI under mod_cgid, which adds none; lighttpd's mod_cgi
# neither).
stamp='[0-9]\{4\}-[01][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9]:[0-6][0-9]Z'
body '{"mode":"nope"}'
post /modes "$TEST_TMP/in" SERVER_SOFTWARE=lighttpd/1.4.69
expect_err "^$stamp gpt.fcgi: notice: act rejected at $ROOT/modes: fails" \
    "under lighttpd a CGI rejection line is stamped and names the address"
post /modes "$TEST_TMP/in" SERVER_SOFTWARE='Apache/2.4.62 (Debian)'
expect_err "^$stamp gpt.fcgi: notice: act rejected at $ROOT/modes: fails" \
    "under Apache (mod_cgid adds no time) the line is stamped too"
post /modes "$TEST_TMP/in" SERVER_SOFTWARE=lighttpd GPT_LOG_TIMESTAMP=no
expect_err "^gpt.fcgi: notice: act rejected at " "GPT_LOG_TIMESTAMP=no"
post /modes "$TEST_TMP/in" SERVER_SOFTWARE=Apache GPT_LOG_TIMESTAMP=yes
expect_err "^$stamp gpt.fcgi: notice: act rejected at " \
    "GPT_LOG_TIMESTAMP=yes"
post /modes "$TEST_TMP/in" GPT_LOG_TIMESTAMP=1
expect_code 204 "a bad GPT_LOG_TIMESTAMP still answers"
expect_err 'warning: GPT_LOG_TIMESTAMP="1": not yes or no' \
    "a bad GPT_LOG_TIMESTAMP is said"
cgi GET /nosuch "$TEST_TMP/empty"
expect_err 'notice: no address at .*/nosuch: ' \
    "a 404 line names the address asked for"

# log = errors | rejections | all filters what the address logs.
for level in errors rejections all; do
	cp -R "$ROOT/modes" "$ROOT/log-$level"
	printf 'log = %s\n' "$level" >>"$ROOT/log-$level/address.conf"
	body '{"mode":"nope"}'
	post "/log-$level" "$TEST_TMP/in"
	expect_code 204 "log = $level: a rejected act"
	n=$(grep -c "act rejected at $ROOT/log-$level:" "$TEST_TMP/err")
	if [ "$level" = errors ]; then want=0; else want=1; fi
	expect_true "log = $level: $want rejection line(s) (got $n)" \
	    test "$n" -eq "$want"
	body '{"mode":"echo"}'
	post "/log-$level" "$TEST_TMP/in"
	expect_code 200 "log = $level: an accepted act"
	n=$(grep -c "info: act accepted at $ROOT/log-$level" "$TEST_TMP/err")
	if [ "$level" = all ]; then want=1; else want=0; fi
	expect_true "log = $level: $want acceptance line(s) (got $n)" \
	    test "$n" -eq "$want"
done
body '{"mode":"exit"}'
post /log-errors "$TEST_TMP/in"
expect_err 'error: hook of .*/log-errors: ' \
    "log = errors still logs a failing hook"
sed 's/^log = all$/log = verbose/' "$ROOT/log-all/address.conf" \
    >"$TEST_TMP/conf" && cp "$TEST_TMP/conf" "$ROOT/log-all/address.conf"
cgi GET /log-all "$TEST_TMP/empty"
expect_code 500 "log = verbose refuses the address"
expect_err 'log must be errors, rejections or all' "and says why"

finish
