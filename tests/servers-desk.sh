#!/bin/sh
# servers-desk.sh: the support desk of examples/support-desk behind
# lighttpd (FastCGI) and nginx (spawn-fcgi), with the configurations in
# examples/servers/: examples/clients/walk.sh from open to a closed
# ticket; the Link fields of GET and HEAD, read by curl -D and parsed by
# tests/link-parse.js, are the form's links; a hook made to answer off
# its form (a) gets 502, logged with pointer and keyword and nothing of
# the answer sent; gpt.fcgi --graph of the root, after the walk, checked
# against schemas/graph.schema.json by gpt.fcgi --validate, and as DOT.
. "${GPT_SRCDIR:-.}/tests/servers-common.sh"
need lighttpd nginx spawn-fcgi node

if [ "$(id -u)" -eq 0 ]; then
	users="APPUSER=daemon APPGROUP=daemon WEBUSER=www-data WEBGROUP=www-data"
else
	users="APPUSER=$(id -un) APPGROUP=$(id -gn) WEBUSER=$(id -un) WEBGROUP=$(id -gn)"
fi

# desk_root DIR: the example addresses, the desk's open and close, and
# "offform": close's form with a hook whose answer breaks a (a number
# where a names a string).  open's hook makes addresses in the root.
desk_root() {
	make_root "$1"
	cp -R "$GPT_SRCDIR/examples/support-desk/open" \
	    "$GPT_SRCDIR/examples/support-desk/close" "$1/"
	mkdir -p "$1/offform"
	cp "$GPT_SRCDIR/examples/support-desk/close/form.json" "$1/offform/"
	cat >"$1/offform/hook" <<'HOOK'
#!/bin/sh
cat >/dev/null
echo '{"ticket": 4242, "status": "closed", "comments": 0}'
HOOK
	chmod -R a+rX,go-w "$1/open" "$1/close" "$1/offform"
	chmod 755 "$1/offform/hook"
	rm -rf "$1/open/data" "$1/close/data"
	mkdir -p "$1/open/data"
	chmod 777 "$1/open/data"
	# the root itself takes the tickets open makes (the hook's user)
	chmod 777 "$1"
}

# check_desk LABEL BASE ROOT LOGDIR
check_desk() {
	_l=$1 _b=$2 _r=$3 _logs=$4

	# Link fields on GET and HEAD: the form's links, parsed on their own
	jq -c '[.links[] | {href, rel, title}]' "$_r/open/form.json" \
	    >"$TEST_TMP/links.want"
	for _m in GET HEAD; do
		req "$_m" "$_b/open"
		expect_code 200 "$_l: $_m open"
		node "$GPT_SRCDIR/tests/link-parse.js" <"$TEST_TMP/h0" |
		    jq -c '[.[] | {href, rel, title}]' >"$TEST_TMP/links.got"
		expect_true "$_l: $_m's Link fields are the form's links ($(cat "$TEST_TMP/links.got"))" \
		    cmp -s "$TEST_TMP/links.want" "$TEST_TMP/links.got"
	done
	req GET "$_b/open"
	expect_true "$_l: GET publishes a, the answer's form" \
	    jq -e '.a.properties.comment.format == "uri-reference"' \
	    "$TEST_TMP/b"

	# the walk: open, the ticket's own address, close
	GPT_FCGI=$GPT_FCGI GPT_ACTOR="walker/$_l" \
	    timeout 120 sh "$GPT_SRCDIR/examples/clients/walk.sh" "$_b/open" \
	    >"$TEST_TMP/walk.out" 2>&1
	expect_true "$_l: the walk ends well ($(tail -n 3 "$TEST_TMP/walk.out" | tr '\n' '|'))" \
	    test $? -eq 0
	expect_true "$_l: the walk went open, ticket-1, close" \
	    sh -c "grep '^step ' '$TEST_TMP/walk.out' | sed 's|.*/||' | tr '\n' ' ' | grep -qx 'open ticket-1 close '"
	expect_true "$_l: the last answer closes ticket-1" \
	    grep -q '^  answer: {"ticket":"ticket-1","status":"closed","comments":1}$' \
	    "$TEST_TMP/walk.out"
	expect_true "$_l: ticket-1 is closed on disk" \
	    jq -e '.status == "closed" and .comments == 1' \
	    "$_r/ticket-1/data/state.json"
	req GET "$_b/ticket-1"
	expect_code 200 "$_l: the ticket's own address is served"
	expect_true "$_l: the ticket's form names it" \
	    jq -e '.a.properties.ticket.const == "ticket-1"' "$TEST_TMP/b"
	printf '{"text": "after closing"}' >"$TEST_TMP/c.json"
	post "$_b/ticket-1" "$TEST_TMP/c.json"
	expect_code 502 "$_l: a closed ticket takes no comment"

	# an answer off its form: 502, logged, nothing of it sent
	printf '{"ticket": "ticket-1", "resolution": "off form"}' \
	    >"$TEST_TMP/off.json"
	post "$_b/offform" "$TEST_TMP/off.json"
	expect_code 502 "$_l: an answer off a is never sent"
	expect_true "$_l: the 502 carries nothing of the answer" \
	    sh -c "! grep -q 4242 '$TEST_TMP/b'"
	_n=0
	while [ "$_n" -lt 50 ] && ! cat "$_logs"/* 2>/dev/null |
	    grep -q "offform: answer fails the answer's form (a): at \"/ticket\": type: "; do
		sleep 0.1
		_n=$((_n + 1))
	done
	expect_true "$_l: the log says pointer and keyword" \
	    sh -c "cat '$_logs'/* 2>/dev/null | grep -q 'offform: answer fails the answer.s form (a): at \"/ticket\": type: '"
	expect_true "$_l: the log has nothing of the answer" \
	    sh -c "! cat '$_logs'/* 2>/dev/null | grep -q 4242"

	# the graph of the root, the ticket in it
	"$GPT_FCGI" --graph "$_r" >"$TEST_TMP/graph.json" 2>/dev/null
	expect_true "$_l: --graph exits 0" test $? -eq 0
	expect_true "$_l: --graph output is valid against graph.schema.json" \
	    "$GPT_FCGI" --validate "$GPT_SRCDIR/schemas/graph.schema.json" \
	    "$TEST_TMP/graph.json"
	expect_true "$_l: --graph: ticket-1 links to close and open" \
	    jq -e '[.links[] | select(.from == "ticket-1") | .to] == ["close", "open"]' \
	    "$TEST_TMP/graph.json"
	expect_true "$_l: --graph: nodes carry p's first sentence and the ETag" \
	    jq -e --arg e "$(curl -s -D - -o /dev/null "$_b/open" | tr -d '\r' | sed -n 's/^ETag: //Ip')" \
	    '.nodes[] | select(.name == "open") | .p == "Support desk: open a ticket." and .etag == $e' \
	    "$TEST_TMP/graph.json"
	"$GPT_FCGI" --graph --dot "$_r" >"$TEST_TMP/graph.dot"
	expect_true "$_l: --graph --dot: an edge per link" \
	    grep -q '^  n[0-9]* -> n[0-9]* \[label="related"\];$' \
	    "$TEST_TMP/graph.dot"
	if command -v dot >/dev/null 2>&1; then
		"$GPT_FCGI" --graph --svg "$_r" >"$TEST_TMP/graph.svg"
		expect_true "$_l: --graph --svg renders through dot" \
		    grep -q '<svg' "$TEST_TMP/graph.svg"
	fi
}

# lighttpd, FastCGI
_t=$TEST_TMP/lighttpd
mkdir -p "$_t"
chmod 755 "$_t"
install_bin "$_t/bin"
desk_root "$_t/root"
port=$(free_port)
render lighttpd-fastcgi.conf "$_t/lighttpd.conf" PORT="$port" \
    ROOT="$_t/root" BIN="$_t/bin/gpt.fcgi" TMP="$_t"
lighttpd -D -f "$_t/lighttpd.conf" >"$_t/stdout" 2>&1 &
started $!
wait_ready "http://127.0.0.1:$port/gpt/echo" || { cat "$_t"/*.log >&2; exit 1; }
check_desk lighttpd "http://127.0.0.1:$port/gpt" "$_t/root" "$_t"
stop_started

# nginx, one gpt.fcgi under spawn-fcgi (the first shipped command)
_t=$TEST_TMP/nginx
mkdir -p "$_t"
chmod 755 "$_t"
install_bin "$_t/bin"
desk_root "$_t/root"
port=$(free_port)
# shellcheck disable=SC2086
render nginx-fastcgi.conf "$_t/nginx.conf" PORT="$port" ROOT="$_t/root" \
    TMP="$_t" BIN="$_t/bin/gpt.fcgi" $users
_c=$(sed -n 's/^#   \(spawn-fcgi .*\)$/\1/p' "$_t/nginx.conf" | sed -n 1p)
if [ "$(id -u)" -ne 0 ]; then
	_c=$(printf '%s\n' "$_c" | sed 's/ -[ugUG] [^ ]*//g')
fi
# shellcheck disable=SC2086
set -- $_c
"$@" >"$_t/spawn.log" 2>&1 &
started $!
nginx -p "$_t" -e "$_t/nginx-error.log" -c "$_t/nginx.conf" \
    >"$_t/stdout" 2>&1 &
started $!
wait_ready "http://127.0.0.1:$port/gpt/echo" || { cat "$_t"/*.log >&2; exit 1; }
check_desk nginx "http://127.0.0.1:$port/gpt" "$_t/root" "$_t"
stop_started

finish
