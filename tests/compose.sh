#!/bin/sh
# compose.sh: a form's links and a, and --graph, through the built binary:
# every bad link and a refused with its pointer (--check), Link fields on
# GET and HEAD (title* for what is not ASCII), a hook answer too large,
# not JSON or off a (502, the reason logged, nothing of the answer sent),
# a task's result held to a, --check on one address (a relative link must
# name an address that loads) and on a root (broken links, unlinked
# addresses, cycles), and --graph over 10,000 addresses (time and memory
# are bench/graph.sh's).
. "${GPT_SRCDIR:-.}/tests/lib.sh"

ROOT=$TEST_TMP/root
mkdir -p "$ROOT"
S='{"type": "object", "additionalProperties": false, "properties": {"note": {"type": "string", "maxLength": 10}}}'
A='{"type": "object", "required": ["id"], "properties": {"id": {"type": "string"}}}'

# form NAME EXTRA: an address NAME whose form.json is p, m, s and EXTRA
# (members, with their leading comma).
form() {
	mkdir -p "$ROOT/$1"
	printf '{"p": "Address %s. More words.", "m": [], "s": %s%s}\n' \
	    "$1" "$S" "$2" >"$ROOT/$1/form.json"
}
hook() { # hook NAME BODY
	printf '#!/bin/sh\ncat >/dev/null\n%s\n' "$2" >"$ROOT/$1/hook"
	chmod 755 "$ROOT/$1/hook"
}

# refused NAME EXTRA POINTER LABEL: --check refuses the form, naming POINTER
refused() {
	rm -rf "${ROOT:?}/$1"
	form "$1" "$2"
	run_cli --check "$ROOT/$1"
	expect_status 1 "$4: refused"
	if grep -qF -- "$3" "$TEST_TMP/out"; then pass; else
		fail "$4: no $3 in: $(head -c 400 "$TEST_TMP/out")"
	fi
	rm -rf "${ROOT:?}/$1"
}

# --- bad links and a: refused with their pointer -------------------------
refused bad ', "links": {}' '"/links"' "links not an array"
refused bad ', "links": [1]' '"/links/0"' "a link not an object"
refused bad ', "links": [{"href": "x"}]' '"/links/0"' "a link without rel"
refused bad ', "links": [{"rel": "next"}]' '"/links/0"' "a link without href"
refused bad ', "links": [{"rel": 1, "href": "x"}]' '"/links/0/rel"' "a rel not a string"
refused bad ', "links": [{"rel": "next", "href": "x"}, {"rel": "next", "href": ["x"]}]' '"/links/1/href"' "an href not a string"
refused bad ', "links": [{"rel": "Next Page", "href": "x"}]' '"/links/0/rel"' "a rel that is no relation type"
refused bad ', "links": [{"rel": "next", "href": "a b"}]' '"/links/0/href"' "an href that is no URI reference"
refused bad ', "links": [{"rel": "next", "href": "x", "title": "a\nb"}]' '"/links/0/title"' "a control character in a title"
refused bad ", \"links\": [{\"rel\": \"next\", \"href\": \"x$(head -c 2100 /dev/zero | tr '\0' a)\"}]" '"/links/0"' "a link over 2 KB"
many=$(i=0; while [ $i -lt 65 ]; do printf ',{"rel": "item", "href": "x%d"}' "$i"; i=$((i + 1)); done | sed 's/^,//')
refused bad ", \"links\": [$many]" '"/links"' "65 links"
refused bad ', "a": {"type": "strnig"}' '"#/a/type"' "an a that does not compile"
refused bad ', "a": []' '"/a"' "an a that is not a schema object"

# --- Link fields, and a published -----------------------------------------
form open ", \"a\": $A, \"links\": [{\"rel\": \"next\", \"href\": \"close\", \"title\": \"Close \\\"it\\\"\"}, {\"rel\": \"https://example.org/rel/see\", \"href\": \"https://example.org/x?y=1\", \"title\": \"caf\\u00e9\"}, {\"rel\": \"self\", \"href\": \"\"}]"
hook open 'if [ -f answer ]; then cat answer; else echo "{\"id\": \"t1\"}"; fi'
form close ', "links": [{"rel": "prev", "href": "open"}]'
hook close 'echo "{}"'

# cgi METHOD NAME [VAR=VALUE...] (stdin: the body): one CGI request;
# $TEST_TMP/head (no CRs), $TEST_TMP/body, $code, stderr in $TEST_TMP/log.
cgi() {
	_m=$1 _a=$2
	shift 2
	env -i PATH="$PATH" GATEWAY_INTERFACE=CGI/1.1 REQUEST_METHOD="$_m" \
	    GPT_ROOT="$ROOT" PATH_INFO="/$_a" REQUEST_URI="/gpt/$_a" "$@" \
	    timeout 30 "$GPT_FCGI" >"$TEST_TMP/resp" 2>"$TEST_TMP/log"
	sed '/^\r$/q' "$TEST_TMP/resp" | tr -d '\r' >"$TEST_TMP/head"
	sed '1,/^\r$/d' "$TEST_TMP/resp" >"$TEST_TMP/body"
	code=$(sed -n '1s/^Status: \([0-9]*\).*/\1/p' "$TEST_TMP/head")
}
act() { # act NAME BODY [VAR=VALUE...]
	_a=$1
	printf '%s' "$2" >"$TEST_TMP/in"
	shift 2
	cgi POST "$_a" CONTENT_TYPE=application/json \
	    CONTENT_LENGTH="$(wc -c <"$TEST_TMP/in" | tr -d ' ')" "$@" \
	    <"$TEST_TMP/in"
}
expect_code() {
	if [ "$code" = "$1" ]; then pass; else
		fail "$2: status $code, expected $1 ($(head -c 200 "$TEST_TMP/body"))"
	fi
}
has_head() { # has_head LINE LABEL: the header block has exactly LINE
	if grep -qxF -- "$1" "$TEST_TMP/head"; then pass; else
		fail "$2: no '$1' in: $(tr '\n' '|' <"$TEST_TMP/head")"
	fi
}

for m in GET HEAD; do
	cgi "$m" open </dev/null
	expect_code 200 "$m open"
	has_head 'Link: <close>; rel="next"; title="Close \"it\""' "$m: a Link field, title quoted"
	has_head "Link: <https://example.org/x?y=1>; rel=\"https://example.org/rel/see\"; title*=UTF-8''caf%C3%A9" "$m: an extension rel, title* for UTF-8"
	has_head 'Link: <>; rel="self"' "$m: a link to itself, no title"
done
cgi GET open </dev/null
expect_true "GET publishes links and a as they are" \
    jq -e '(.links | length) == 3 and .a.required == ["id"]' "$TEST_TMP/body"
cgi GET open HTTP_ACCEPT=text/html </dev/null
has_head 'Link: <close>; rel="next"; title="Close \"it\""' "the page's GET has the Link fields too"

# --- the hook's answer and a ----------------------------------------------
act open '{"note": "hi"}'
expect_code 200 "an answer a accepts is sent"
expect_true "the answer as the hook wrote it" grep -q '"id": "t1"' "$TEST_TMP/body"
printf '{"id": 987654}\n' >"$ROOT/open/answer"
act open '{"note": "hi"}'
expect_code 502 "an answer off a: 502"
expect_true "the 502 carries nothing of the answer" sh -c "! grep -q 987654 '$TEST_TMP/body'"
expect_true "the log: pointer and keyword" \
    grep -q "answer fails the answer's form (a): at \"/id\": type: " "$TEST_TMP/log"
expect_true "the log: nothing of the answer" sh -c "! grep -q 987654 '$TEST_TMP/log'"
printf '{"id": "t1"} trailing\n' >"$ROOT/open/answer"
act open '{"note": "hi"}'
expect_code 502 "an answer that is not JSON: 502"
expect_true "the log says why (not JSON)" grep -q 'not one strict JSON value' "$TEST_TMP/log"
expect_true "the log: nothing of it" sh -c "! grep -q trailing '$TEST_TMP/log'"
printf 'hook_max_output = 64\n' >"$ROOT/open/address.conf"
printf '{"id": "%s"}\n' "$(head -c 100 /dev/zero | tr '\0' z)" \
    >"$ROOT/open/answer"
act open '{"note": "hi"}'
expect_code 502 "an answer over hook_max_output: 502"
expect_true "the log says why (too large)" grep -qi 'output' "$TEST_TMP/log"
expect_true "the 502 carries nothing of it" sh -c "! grep -q zzzz '$TEST_TMP/body'"
rm -f "$ROOT/open/address.conf" "$ROOT/open/answer"

# --- a task's result is held to a ---------------------------------------
form task ", \"a\": $A"
printf 'act = task\ntask_poll = 1\n' >"$ROOT/task/address.conf"
hook task 'cat ../task-answer'
wait_task() { # wait_task ID STATUS: poll (at most 10 s)
	_n=0
	while [ "$_n" -lt 100 ]; do
		cgi GET task QUERY_STRING="task=$1" REQUEST_URI="/gpt/task?task=$1" </dev/null
		grep -q "\"status\":\"$2\"" "$TEST_TMP/body" && return 0
		sleep 0.1
		_n=$((_n + 1))
	done
	return 1
}
printf '{"id": 5}\n' >"$ROOT/task-answer"
act task '{"note": "x"}'
expect_code 202 "a task act"
id=$(sed -n 's/^Location: .*task=//p' "$TEST_TMP/head")
expect_true "a task whose result is off a fails ($(head -c 300 "$TEST_TMP/body"))" wait_task "$id" failed
expect_true "its record says so" grep -q 'answer off its form' "$TEST_TMP/body"
expect_true "and keeps nothing of the result" sh -c "! grep -q '\"id\": *5' '$TEST_TMP/body'"
printf '{"id": "ok"}\n' >"$ROOT/task-answer"
act task '{"note": "y"}'
id=$(sed -n 's/^Location: .*task=//p' "$TEST_TMP/head")
expect_true "a task whose result a accepts completes" wait_task "$id" completed
expect_true "its result is kept" grep -q '"id": *"ok"' "$TEST_TMP/body"
rm -rf "${ROOT:?}/task" "$ROOT/task-answer"

# --- --check DIR: relative links must name an address that loads -------
run_cli --check "$ROOT/open"
expect_status 0 "--check: links to close, outside and itself"
form lost ', "links": [{"rel": "next", "href": "nowhere"}, {"rel": "up", "href": "a/b"}, {"rel": "up", "href": "../elsewhere"}, {"rel": "up", "href": "/abs/path"}]'
run_cli --check "$ROOT/lost"
expect_status 1 "--check: a link to no address"
expect_true "--check names the broken sibling by pointer" \
    grep -q 'refused \[link-broken\] at "#/links/0/href": "nowhere" names' "$TEST_TMP/out"
expect_true "--check refuses a path of two segments under the root" \
    grep -q 'refused \[link-broken\] at "#/links/1/href"' "$TEST_TMP/out"
expect_true "--check leaves ../ and /path alone (never fetched)" \
    sh -c "! grep -q 'links/[23]' '$TEST_TMP/err'"
run_cli --check --json "$ROOT/lost"
expect_true "--check --json: link-broken refusals" \
    jq -e '[.problems[] | select(.rule == "link-broken") | .pointer] == ["/links/0/href", "/links/1/href"]' "$TEST_TMP/out"
rm -rf "${ROOT:?}/lost"

# --- --check ROOT and --graph -------------------------------------------
form alone ''
form broken ', "links": [{"rel": "next", "href": "ghost"}]'
run_cli --check "$ROOT"
expect_status 1 "--check ROOT: a broken link refuses"
expect_true "--check ROOT: the broken link, with pointer, on stdout" \
    grep -q 'broken: refused \[link-broken\] at "#/links/0/href": "ghost" names no address' "$TEST_TMP/out"
expect_true "--check ROOT: nothing on stderr" test ! -s "$TEST_TMP/err"
expect_true "--check ROOT: an unlinked address is info" \
    grep -q 'alone: info \[address-unlinked\]' "$TEST_TMP/out"
expect_true "--check ROOT: a cycle is info" \
    grep -q 'info \[link-cycle\]: a cycle of links: close -> open -> close' "$TEST_TMP/out"
expect_true "--check ROOT: linked addresses are not unlinked" \
    sh -c "! grep -q 'close: info \[address-unlinked\]' '$TEST_TMP/out'"
run_cli --graph "$ROOT"
expect_status 0 "--graph"
cp "$TEST_TMP/out" "$TEST_TMP/graph.json"
run_cli --validate "$GPT_SRCDIR/schemas/graph.schema.json" "$TEST_TMP/graph.json"
expect_status 0 "--graph's JSON is valid against graph.schema.json"
expect_true "--graph: nodes with p's first sentence, sorted" \
    jq -e '[.nodes[] | .name] == ["alone", "broken", "close", "open"] and .nodes[3].p == "Address open."' "$TEST_TMP/graph.json"
expect_true "--graph: the ETag is GET's" \
    sh -c "cgi_etag=\$(env -i REQUEST_METHOD=HEAD GPT_ADDRESS='$ROOT/open' '$GPT_FCGI' 2>/dev/null | tr -d '\r' | sed -n 's/^ETag: //p'); jq -e --arg e \"\$cgi_etag\" '.nodes[3].etag == \$e' '$TEST_TMP/graph.json'"
expect_true "--graph: the kinds of links" \
    jq -e '[.links[] | .kind] == ["address", "address", "address", "outside", "self"] and .links[0].broken' "$TEST_TMP/graph.json"
run_cli --graph --dot "$ROOT"
expect_status 0 "--graph --dot"
expect_true "--graph --dot: a digraph with an edge per link" \
    sh -c "head -n 1 '$TEST_TMP/out' | grep -qx 'digraph gpt {' && grep -c ' -> ' '$TEST_TMP/out' | grep -qx 5"
if command -v dot >/dev/null 2>&1; then
	run_cli --graph --svg "$ROOT"
	expect_status 0 "--graph --svg through Graphviz"
	expect_true "--graph --svg: an SVG with a node per address" \
	    sh -c "grep -q '<svg' '$TEST_TMP/out' && test \$(grep -c '<title>n[0-9]*</title>' '$TEST_TMP/out') -eq 4"
else
	run_cli --graph --svg "$ROOT"
	expect_status 1 "--graph --svg without Graphviz"
	expect_true "--graph --svg says what is missing" \
	    grep -q 'needs Graphviz' "$TEST_TMP/err"
fi
run_cli --graph --bogus "$ROOT"
expect_status 2 "--graph with an unknown option"
run_cli --graph "$TEST_TMP/none"
expect_status 1 "--graph of no directory"

# --- 10,000 addresses --------------------------------------------------
BIG=$TEST_TMP/big
perl -e '
	my ($root, $n) = @ARGV;
	mkdir $root or die;
	for my $i (0 .. $n - 1) {
		my $d = sprintf("%s/a%05d", $root, $i);
		mkdir $d or die;
		open(my $f, ">", "$d/form.json") or die;
		printf $f "{\"p\": \"Address %d. Next.\", \"m\": [], \"s\": {\"type\": \"string\", \"maxLength\": 5}, \"links\": [{\"rel\": \"next\", \"href\": \"a%05d\"}]}\n", $i, ($i + 1) % $n;
		close $f;
	}' "$BIG" 10000
run_cli --graph "$BIG"
expect_status 0 "--graph over 10,000 addresses"
expect_true "--graph: 10,000 nodes and links, one cycle through them all" \
    jq -e '(.nodes | length) == 10000 and (.links | length) == 10000 and ([.problems[] | select(.rule == "link-cycle")] | length) == 1' "$TEST_TMP/out"

finish
