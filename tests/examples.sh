#!/bin/sh
# examples.sh: every address under examples/ loads (gpt.fcgi --check), its
# form follows the draft's advice, and its hook does what its form says,
# through whole CGI requests to gpt.fcgi.  The addresses are copied first:
# hooks write (guestbook's data/), the source tree stays clean.
. "${GPT_SRCDIR:-.}/tests/lib.sh"

ex=$GPT_SRCDIR/examples
cp -R "$ex" "$TEST_TMP/ex"
rm -rf "$TEST_TMP"/ex/*/data

# The draft's advice for a form ("The Form Is the Attack Surface", and
# "anyOf rather than oneOf"), as one jq program over every subschema of s:
# prints one line per subschema that breaks it.
lint='
def sub: recurse(if type == "object" then
    (.properties // {} | .[]), (.["$defs"] // {} | .[]),
    (.patternProperties // {} | .[]), (.prefixItems // [] | .[]),
    (.anyOf // [] | .[]), (.allOf // [] | .[]), (.oneOf // [] | .[]),
    ((.items, .additionalProperties, .not, .if, .then, .else,
      .contains, .propertyNames) | select(type == "object"))
    else empty end);
def has_type($t): (.type == $t) or ((.type | type) == "array" and
    (.type | index($t)) != null);
.s | sub | select(type == "object") |
  if has_type("object") and .additionalProperties != false then
    "an open object: \(tojson | .[0:80])"
  elif has_type("string") and (has("maxLength") or has("enum") or
      has("const") | not) then "an unbounded string: \(tojson | .[0:80])"
  elif has_type("array") and (has("maxItems") | not) then
    "an unbounded array: \(tojson | .[0:80])"
  elif has("oneOf") then "oneOf (use anyOf): \(tojson | .[0:80])"
  elif has("format") then "format: \(tojson | .[0:80])"
  else empty end'

# cgi_post DIR FILE [ACTOR]: POST FILE to the address DIR through gpt.fcgi
# as a CGI program.  Sets $code (the Status) and the body in $TEST_TMP/b.
cgi_post() {
	_len=$(wc -c <"$2")
	env -i PATH="$PATH" REQUEST_METHOD=POST GPT_ADDRESS="$1" \
	    CONTENT_TYPE=application/json CONTENT_LENGTH="$_len" \
	    ${3:+HTTP_GPT_ACTOR="$3"} REMOTE_ADDR=127.0.0.1 \
	    "$GPT_FCGI" <"$2" >"$TEST_TMP/resp" 2>"$TEST_TMP/err"
	code=$(sed -n 's/^Status: \([0-9][0-9][0-9]\).*/\1/p' "$TEST_TMP/resp" |
	    head -n 1)
	[ -n "$code" ] || code=200
	perl -0777 -pe 's/\A.*?\r?\n\r?\n//s' "$TEST_TMP/resp" >"$TEST_TMP/b"
}

expect_code() {
	if [ "$code" = "$1" ]; then pass; else
		fail "$2: status $code, expected $1 ($(head -c 300 "$TEST_TMP/err"))"
	fi
}

expect_true() { # expect_true LABEL CMD...
	_el=$1
	shift
	if "$@" >/dev/null 2>&1; then pass; else fail "$_el"; fi
}

# The support desk is a root of several addresses: each is checked as the
# others, and the root as a whole (its links name addresses that load).
run_cli --check "$TEST_TMP/ex/support-desk"
expect_status 0 "support-desk: gpt.fcgi --check of the root"
for dir in "$TEST_TMP"/ex/*/ "$TEST_TMP"/ex/support-desk/*/; do
	dir=${dir%/}
	name=$(basename "$dir")
	[ -f "$dir/form.json" ] || continue
	run_cli --check "$dir"
	expect_status 0 "$name: gpt.fcgi --check"
	run_cli --validate "$GPT_SRCDIR/schemas/arrival.schema.json" \
	    "$dir/form.json"
	expect_status 0 "$name: form.json is an arrival document"
	bad=$(jq -r "$lint" "$dir/form.json")
	expect_true "$name: the form is closed and bounded: $bad" test -z "$bad"
	expect_true "$name: the hook is executable" test -x "$dir/hook"
	expect_true "$name: p says what to do" \
	    jq -e '.p | length > 40' "$dir/form.json"
	# Every example act shown to the actor in m is accepted by the form.
	jq -c '.m[] | select(.role == "assistant") | .content' \
	    "$dir/form.json" | while read -r c; do
		printf '%s' "$c" | jq -j 'fromjson | tojson' >"$TEST_TMP/m.json"
		if "$GPT_FCGI" --validate "$dir" "$TEST_TMP/m.json" \
		    >/dev/null 2>&1; then
			echo pass
		else
			echo "fail $name: the example act in m fails the form: $c"
		fi
	done >"$TEST_TMP/m.out"
	while read -r r; do
		case $r in pass) pass ;; *) fail "${r#fail }" ;; esac
	done <"$TEST_TMP/m.out"
done

# echo: the accepted bytes come back as they were sent, whitespace and all.
printf '{ "note" : "caf\\u00e9 <b>", "tags": ["a", "b-2"] }' >"$TEST_TMP/e.json"
cgi_post "$TEST_TMP/ex/echo" "$TEST_TMP/e.json"
expect_code 200 "echo: a valid act"
expect_true "echo: answers the act's exact bytes" \
    cmp -s "$TEST_TMP/b" "$TEST_TMP/e.json"
printf '{"note": "x", "tags": ["a", "a"]}' >"$TEST_TMP/e.json"
cgi_post "$TEST_TMP/ex/echo" "$TEST_TMP/e.json"
expect_code 204 "echo: repeated tags fail the form"
printf '{"note": "x", "extra": 1}' >"$TEST_TMP/e.json"
cgi_post "$TEST_TMP/ex/echo" "$TEST_TMP/e.json"
expect_code 204 "echo: an unknown member fails the form"

# guestbook: one entry per act, numbered, with the actor; bounded fields.
gb=$TEST_TMP/ex/guestbook
printf '{"name": "Ada\\nLovelace", "message": "Hi </td>", "mood": "happy"}' \
    >"$TEST_TMP/g.json"
cgi_post "$gb" "$TEST_TMP/g.json" "tester/1"
expect_code 200 "guestbook: a valid act"
expect_true "guestbook: answers {\"entry\": 1}" \
    jq -e '. == {"entry": 1}' "$TEST_TMP/b"
expect_true "guestbook: the entry keeps name, message, mood and actor" \
    jq -e '.entry == 1 and .name == "Ada\nLovelace" and
        .message == "Hi </td>" and .mood == "happy" and
        .actor == "tester/1"' "$gb/data/entries.jsonl"
expect_true "guestbook: a newline in a name stays inside one line" \
    test "$(wc -l <"$gb/data/entries.jsonl")" -eq 1
for bad in '{"name": "", "message": "x"}' '{"name": "a", "message": "x", "mood": "angry"}' \
    '{"name": "a"}' "{\"name\": \"$(printf '%041d' 0)\", \"message\": \"x\"}"; do
	printf '%s' "$bad" >"$TEST_TMP/g.json"
	cgi_post "$gb" "$TEST_TMP/g.json"
	expect_code 204 "guestbook: $bad fails the form"
done
expect_true "guestbook: rejected acts write nothing" \
    test "$(wc -l <"$gb/data/entries.jsonl")" -eq 1

# 50 acts at once: none lost, numbers 2..51 each once.  This is about
# the lock, not the clock: on a loaded machine 50 hooks at once can take
# longer than the shipped 10 s, so this copy of the address waits longer.
sed 's/^hook_timeout = .*/hook_timeout = 120/' \
    "$GPT_SRCDIR/examples/guestbook/address.conf" >"$gb/address.conf"
i=1
while [ "$i" -le 50 ]; do
	printf '{"name": "guest %d", "message": "visit"}' "$i" >"$TEST_TMP/p$i.json"
	env -i PATH="$PATH" REQUEST_METHOD=POST GPT_ADDRESS="$gb" \
	    CONTENT_TYPE=application/json \
	    CONTENT_LENGTH="$(wc -c <"$TEST_TMP/p$i.json")" \
	    "$GPT_FCGI" <"$TEST_TMP/p$i.json" >"$TEST_TMP/p$i.out" 2>&1 &
	i=$((i + 1))
done
wait
lines=$(wc -l <"$gb/data/entries.jsonl")
expect_true "guestbook: 50 parallel acts, 51 entries (got $lines)" \
    test "$lines" -eq 51
expect_true "guestbook: entry numbers are 1..51, each once" \
    test "$(jq -r .entry "$gb/data/entries.jsonl" | sort -n | uniq |
        awk 'NR == $1 { c++ } END { print c + 0 }')" -eq 51
expect_true "guestbook: each of the 50 answers has its own number" \
    test "$(cat "$TEST_TMP"/p*.out | grep -o '"entry": [0-9]*' | sort -u |
        wc -l)" -eq 50

# styled-text: the form is the reference schema, the same value.
st=$TEST_TMP/ex/styled-text
jq -S .s "$st/form.json" >"$TEST_TMP/st.form"
jq -S . "$GPT_SRCDIR/schemas/styled-text.schema.json" >"$TEST_TMP/st.schema"
expect_true "styled-text: s is schemas/styled-text.schema.json" \
    cmp -s "$TEST_TMP/st.form" "$TEST_TMP/st.schema"

# st_render ACT EXPECTED-HTML: the act is accepted and renders to exactly
# EXPECTED-HTML.
st_render() {
	printf '%s' "$1" >"$TEST_TMP/s.json"
	cgi_post "$st" "$TEST_TMP/s.json"
	expect_code 200 "styled-text: $1"
	_got=$(jq -r .html "$TEST_TMP/b" 2>/dev/null)
	if [ "$_got" = "$2" ]; then pass; else
		fail "styled-text: $1 renders '$_got', expected '$2'"
	fi
}
st_render '{"nodes": ["plain & <simple>"]}' 'plain &amp; &lt;simple&gt;'
st_render '{"title": "T\"i'"'"'t<le>", "nodes": []}' \
    '<h1>T&quot;i&apos;t&lt;le&gt;</h1>'
st_render '{"nodes": [{"style": "bold", "children": ["b", {"style": "italic", "children": [{"style": "code", "children": ["<x>"]}]}]}]}' \
    '<strong>b<em><code>&lt;x&gt;</code></em></strong>'
st_render '{"nodes": [{"style": "link", "href": "https://example.org/?a=1&b=\"2\"", "children": ["l"]}]}' \
    '<a href="https://example.org/?a=1&amp;b=&quot;2&quot;" rel="nofollow noopener noreferrer">l</a>'
st_render '{"nodes": [{"style": "plain", "children": ["p"]}, {"style": "underline", "children": ["u"]}, {"style": "strike", "children": ["s"]}, {"style": "quote", "children": ["q"]}, {"style": "heading", "children": ["h"]}]}' \
    'p<u>u</u><s>s</s><q>q</q><h2>h</h2>'
# A link without an href renders its children alone; an href on another
# style is ignored.
st_render '{"nodes": [{"style": "link", "children": ["x"]}]}' 'x'
st_render '{"nodes": [{"style": "bold", "href": "https://example.org/", "children": ["b"]}]}' \
    '<strong>b</strong>'
# The form refuses what the renderer must never see; the renderer is safe
# on it anyway (run directly, as if the form were weaker).
for bad in '{"nodes": [{"style": "link", "href": "javascript:alert(1)", "children": ["x"]}]}' \
    '{"nodes": [{"style": "blink", "children": ["x"]}]}' \
    '{"nodes": [{"style": "bold", "children": [{"style": "bold", "children": [{"style": "bold", "children": [{"style": "bold", "children": ["too deep"]}]}]}]}]}' \
    '{"nodes": ["x"], "script": "<script>"}'; do
	printf '%s' "$bad" >"$TEST_TMP/s.json"
	cgi_post "$st" "$TEST_TMP/s.json"
	expect_code 204 "styled-text: the form refuses $bad"
done
st_direct() { # st_direct ACT EXPECTED-HTML: the hook alone
	_got=$(cd "$st" && printf '%s' "$1" | ./hook | jq -r .html)
	if [ "$_got" = "$2" ]; then pass; else
		fail "styled-text hook: $1 renders '$_got', expected '$2'"
	fi
}
st_direct '{"nodes": [{"style": "link", "href": "javascript:alert(1)", "children": ["x"]}]}' 'x'
st_direct '{"nodes": [{"style": "link", "href": "https://a.example/\"onmouseover=x", "children": ["x"]}]}' \
    '<a href="https://a.example/&quot;onmouseover=x" rel="nofollow noopener noreferrer">x</a>'
st_direct '{"nodes": [{"style": "script", "children": ["<script>"]}, 5, null, {"style": "bold", "children": "x"}]}' \
    '&lt;script&gt;<strong></strong>'

# The man pages format without a single groff warning.
for m in "$GPT_SRCDIR"/doc/gpt.fcgi.8 "$GPT_SRCDIR"/doc/gpt-address.5; do
	LC_ALL=C.UTF-8 groff -man -Tutf8 -ww -z "$m" >"$TEST_TMP/groff" 2>&1
	expect_true "$(basename "$m"): groff -man -ww is silent: $(head -c 300 "$TEST_TMP/groff")" \
	    test ! -s "$TEST_TMP/groff"
done

finish
