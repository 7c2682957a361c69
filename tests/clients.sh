#!/bin/sh
# clients.sh: the clients in examples/clients/ against a real server
# (lighttpd + FastCGI, the shipped configuration).  The model clients talk
# to a stand-in model: a small HTTP listener that records the request it
# gets and answers a canned reply in the service's own shape.  Checked:
# argument handling, the request each client builds from p, m and s, and
# that the model's value reaches the address unchanged; each client's
# --dry-run (the same request, printed, and a --sample act, nothing sent);
# openai.sh's strict mode, decided by --strict-openai.
. "${GPT_SRCDIR:-.}/tests/servers-common.sh"
need lighttpd
clients=$GPT_SRCDIR/examples/clients

t=$TEST_TMP/srv
mkdir -p "$t"
install_bin "$t/bin"
make_root "$t/root"
# an address whose form qualifies for OpenAI's strict mode
mkdir -p "$t/root/strictok"
cp "$t/root/probe/hook" "$t/root/strictok/hook"
cat >"$t/root/strictok/form.json" <<'EOF'
{"p": "Pick a size.", "m": [], "s": {"$schema":
    "https://json-schema.org/draft/2020-12/schema", "type": "object",
    "additionalProperties": false, "required": ["size", "n"],
    "properties": {"size": {"enum": ["s", "m", "l"], "default": "m"},
        "n": {"type": "integer", "minimum": 1, "maximum": 9}}}}
EOF
chmod -R a+rX "$t/root/strictok"
mkdir -p "$t/root/strictok/data"
chmod 777 "$t/root/strictok/data"
# a long-running address: every act a task of about a second; its store
# is the user's gpt.fcgi runs as (lighttpd runs it as the caller)
mkdir -p "$t/root/later/data" "$t/root/later/.store"
cp "$t/root/probe/form.json" "$t/root/later/form.json"
printf 'act = task
task_poll = 1
' >"$t/root/later/address.conf"
printf '%s
' '#!/bin/sh' 'echo ran >>data/ran' \
    'printf "{\"message\": \"working\", \"progress\": 0.5}
" >&3' \
    'sleep 1' 'exec cat' >"$t/root/later/hook"
chmod -R a+rX "$t/root/later"
chmod 755 "$t/root/later/hook"
chmod 777 "$t/root/later/data"
chmod 700 "$t/root/later/.store"
port=$(free_port)
render lighttpd-fastcgi.conf "$t/lighttpd.conf" PORT="$port" \
    ROOT="$t/root" BIN="$t/bin/gpt.fcgi" TMP="$t"
lighttpd -D -f "$t/lighttpd.conf" >"$t/stdout" 2>&1 &
started $!
base=http://127.0.0.1:$port/gpt
probe=$t/root/probe
wait_ready "$base/echo" || exit 1

# The stand-in model.  Each request is saved as req-N.json (its body) and
# req-N.path; the reply carries CANNED (the bytes of file canned) where the
# service puts the model's text.
cat >"$TEST_TMP/model.js" <<'JS'
const http = require("http"), fs = require("fs");
const dir = process.argv[2];
let n = 0;
const srv = http.createServer((req, res) => {
	const chunks = [];
	req.on("data", (c) => chunks.push(c));
	req.on("end", () => {
		n++;
		fs.writeFileSync(`${dir}/req-${n}.json`, Buffer.concat(chunks));
		fs.writeFileSync(`${dir}/req-${n}.path`, req.url);
		fs.writeFileSync(`${dir}/req-${n}.auth`,
		    req.headers["authorization"] || "");
		let text = "";
		try {
			text = fs.readFileSync(`${dir}/canned`, "utf8");
		} catch (e) {
		}
		let body;
		if (req.url === "/completion")
			body = {content: text, stop: true};
		else if (req.url === "/api/chat")
			body = {model: "m", message: {role: "assistant",
			    content: text}, done: true};
		else if (req.url === "/v1/chat/completions")
			body = {choices: [{index: 0, message: {role: "assistant",
			    content: text}, finish_reason: "stop"}]};
		else {
			res.writeHead(404);
			res.end();
			return;
		}
		res.writeHead(200, {"Content-Type": "application/json"});
		res.end(JSON.stringify(body));
	});
});
srv.listen(0, "127.0.0.1", () =>
    fs.writeFileSync(`${dir}/port`, String(srv.address().port)));
JS
mkdir -p "$TEST_TMP/model"
node "$TEST_TMP/model.js" "$TEST_TMP/model" &
started $!
i=0
while [ ! -s "$TEST_TMP/model/port" ] && [ "$i" -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
model=http://127.0.0.1:$(cat "$TEST_TMP/model/port")

# run CMD...: run a client; keeps status, stdout and stderr.
run() {
	"$@" >"$TEST_TMP/out" 2>"$TEST_TMP/err" </dev/null
	status=$?
}
# last_request: the stand-in's newest saved request (body file).
last_request() {
	ls -t "$TEST_TMP"/model/req-*.json 2>/dev/null | head -n 1
}
# form_S: the probe's form, keys sorted, for comparisons.
jq -S . "$probe/form.json" >"$TEST_TMP/form.S"

# --- act.sh ---------------------------------------------------------------
for args in '' "$base/probe $TEST_TMP/a $TEST_TMP/b" '-x'; do
	# shellcheck disable=SC2086
	run "$clients/act.sh" $args
	expect_status 2 "act.sh $args: usage"
	expect_stderr_match 'usage:' "act.sh $args: prints usage"
done
printf '{ "note" : "from act.sh" }' >"$TEST_TMP/v.json"
rm -f "$probe/data/ran"
run env GPT_ACTOR=act-test "$clients/act.sh" "$base/probe" "$TEST_TMP/v.json"
expect_status 0 "act.sh: a valid value"
expect_stdout_match '^status: 200$' "act.sh prints the status"
expect_true "act.sh: the result is the value's exact bytes" \
    sh -c "sed -n 2p '$TEST_TMP/out' | cmp -s - '$TEST_TMP/v.json' ||
        [ \"\$(sed -n 2p '$TEST_TMP/out')\" = \"\$(cat '$TEST_TMP/v.json')\" ]"
expect_true "act.sh: GPT-Actor reached the hook" grep -qx act-test "$probe/data/ran"
"$clients/act.sh" -m "$base/probe" <"$TEST_TMP/v.json" >"$TEST_TMP/out" 2>&1
status=$?
expect_status 0 "act.sh -m: value on stdin, If-Match of the fresh form"
printf '{"note": 1}' | "$clients/act.sh" "$base/probe" >"$TEST_TMP/out" 2>&1
status=$?
expect_status 1 "act.sh: an invalid value"
expect_stdout_match '^status: 204$' "act.sh prints 204"
run "$clients/act.sh" "$model/nothing-here" "$TEST_TMP/v.json"
expect_status 2 "act.sh: a URL without a form"
# Every act carries an Idempotency-Key: the same key again replays.
rm -f "$probe/data/ran"
run env GPT_IDEMPOTENCY_KEY=act-test-key "$clients/act.sh" "$base/probe" "$TEST_TMP/v.json"
expect_status 0 "act.sh: an act with a key"
run env GPT_IDEMPOTENCY_KEY=act-test-key "$clients/act.sh" "$base/probe" "$TEST_TMP/v.json"
expect_status 0 "act.sh: its retry with the same key"
expect_true "act.sh: the hook ran once for the key" \
    test "$(wc -l <"$probe/data/ran")" -eq 1
# A 202 is followed to the task's end.
run "$clients/act.sh" "$base/later" "$TEST_TMP/v.json"
expect_status 0 "act.sh: a task that completes"
expect_stdout_match '^status: 202$' "act.sh: the act became a task"
expect_stdout_match "^task: http://127.0.0.1:$port/gpt/later?task=[0-9a-f]*$" \
    "act.sh: it names the task's URL"
expect_stdout_match '^task status: completed$' "act.sh: it waited for the end"
expect_stdout_match '"from act.sh"' "act.sh: and prints the task's result"
expect_true "act.sh: the task's hook ran once" \
    test "$(wc -l <"$t/root/later/data/ran")" -eq 1

# --- the model clients ------------------------------------------------------
printf '{"note": "from the model", "tags": ["m"]}' >"$TEST_TMP/model/canned"

# check_model NAME PATH: the last request went to PATH, the act reached
# the probe unchanged, with the client's GPT-Actor.
check_model() {
	_r=$(last_request)
	expect_true "$1: called the model at $2" \
	    grep -qx "$2" "${_r%.json}.path"
	expect_status 0 "$1: the act is accepted"
	expect_stdout_match '^status: 200$' "$1: prints the status"
	expect_true "$1: the address got the model's bytes unchanged" \
	    sh -c "[ \"\$(sed -n 2p '$TEST_TMP/out')\" = \
	        \"\$(cat '$TEST_TMP/model/canned')\" ]"
}

for c in llama.sh ollama.sh openai.sh; do
	run "$clients/$c"
	expect_status 2 "$c without URL: usage"
	run "$clients/$c" -h
	expect_status 2 "$c -h: usage"
	run "$clients/$c" "$base/probe" "one" "two"
	expect_status 2 "$c with three arguments: usage"
done

rm -f "$probe/data/ran"
run env LLAMA_URL="$model" LLAMA_MAX_TOKENS=64 "$clients/llama.sh" \
    "$base/probe" "Say hi."
check_model llama.sh /v1/chat/completions
r=$(last_request)
cp "$r" "$TEST_TMP/llama-request"
jq -S .s "$probe/form.json" >"$TEST_TMP/s.S"
expect_true "llama.sh: the OpenAI-compatible chat endpoint, response_format json_schema with the form's s" \
    sh -c "jq -S .response_format.json_schema.schema '$r' | cmp -s - \
        '$TEST_TMP/s.S' && jq -e '.response_format.type == \"json_schema\"
        and (.response_format.json_schema.name | length > 0) and
        (has(\"prompt\") | not)' '$r'"
expect_true "llama.sh: system p, m, then the instruction, as chat messages" \
    jq -e --slurpfile f "$probe/form.json" \
        '.messages == [{role: "system", content: $f[0].p}] + $f[0].m +
         [{role: "user", content: "Say hi."}] and .max_tokens == 64 and
         .stream == false' "$r"
expect_true "llama.sh: GPT-Actor llama.cpp reached the hook" \
    grep -qx llama.cpp "$probe/data/ran"
run env LLAMA_URL="$model" LLAMA_MAX_TOKENS=x "$clients/llama.sh" "$base/probe"
expect_status 2 "llama.sh: LLAMA_MAX_TOKENS must be a number"

rm -f "$probe/data/ran"
run env OLLAMA_URL="$model" OLLAMA_MODEL=tiny "$clients/ollama.sh" \
    "$base/probe"
check_model ollama.sh /api/chat
r=$(last_request)
cp "$r" "$TEST_TMP/ollama-request"
expect_true "ollama.sh: format is the form's s" \
    sh -c "jq -S .format '$r' | cmp -s - '$TEST_TMP/s.S'"
expect_true "ollama.sh: system p, then m, no instruction" \
    jq -e --slurpfile f "$probe/form.json" \
        '.model == "tiny" and .stream == false and
         .messages == [{role: "system", content: $f[0].p}] + $f[0].m' "$r"
expect_true "ollama.sh: GPT-Actor ollama/tiny reached the hook" \
    grep -qx ollama/tiny "$probe/data/ran"

rm -f "$probe/data/ran"
run env OPENAI_BASE_URL="$model/v1" OPENAI_MODEL=small \
    OPENAI_API_KEY=sk-test "$clients/openai.sh" "$base/probe" "Go."
check_model openai.sh /v1/chat/completions
r=$(last_request)
cp "$r" "$TEST_TMP/openai-request"
expect_true "openai.sh: a form strict mode refuses goes as it is, strict: false" \
    sh -c "jq -S .response_format.json_schema.schema '$r' | cmp -s - \
        '$TEST_TMP/s.S' && jq -e '.response_format.type == \"json_schema\"
        and .response_format.json_schema.strict == false and
        (.response_format.json_schema.name | length > 0)' '$r'"
expect_stderr_match 'not for strict mode (at /properties/tags: required.*strict: false' \
    "openai.sh says why strict is off, with the pointer and keyword"
expect_true "openai.sh: system p, m, then the instruction" \
    jq -e --slurpfile f "$probe/form.json" \
        '.model == "small" and .messages == [{role: "system",
         content: $f[0].p}] + $f[0].m + [{role: "user", content: "Go."}]' "$r"
expect_true "openai.sh: the key is sent as a Bearer token" \
    grep -qx 'Bearer sk-test' "${r%.json}.auth"
expect_true "openai.sh: GPT-Actor openai/small reached the hook" \
    grep -qx openai/small "$probe/data/ran"
run env OPENAI_BASE_URL="$model/v1" OPENAI_STRICT=maybe \
    "$clients/openai.sh" "$base/probe"
expect_status 2 "openai.sh: OPENAI_STRICT must be auto, true or false"
run env OPENAI_BASE_URL="$model/v1" OPENAI_STRICT=true \
    "$clients/openai.sh" "$base/probe"
expect_status 2 "openai.sh: OPENAI_STRICT=true and a form that does not qualify"
expect_stderr_match 'not for strict mode: at /properties/tags' \
    "... says which keyword prevents it"

# A form that qualifies: the rewrite, strict: true.
printf '{"size": "l", "n": 2}' >"$TEST_TMP/model/canned"
run env OPENAI_BASE_URL="$model/v1" "$clients/openai.sh" "$base/strictok"
expect_status 0 "openai.sh: a strict form's act is accepted"
expect_stderr_match 'qualifies for strict mode: sending strict: true' \
    "openai.sh says strict is on"
r=$(last_request)
jq .s "$t/root/strictok/form.json" >"$TEST_TMP/strict-s.json"
"$GPT_FCGI" --strict-openai "$TEST_TMP/strict-s.json" 2>/dev/null |
    jq -S . >"$TEST_TMP/strict-rewrite.S"
expect_true "openai.sh: strict: true with --strict-openai's rewrite" \
    sh -c "jq -S .response_format.json_schema.schema '$r' | cmp -s - \
        '$TEST_TMP/strict-rewrite.S' && jq -e \
        '.response_format.json_schema.strict == true and
         (.response_format.json_schema.schema.properties.size |
          has(\"default\") | not)' '$r'"
run env OPENAI_BASE_URL="$model/v1" OPENAI_STRICT=false "$clients/openai.sh" \
    "$base/strictok"
r=$(last_request)
expect_true "openai.sh: OPENAI_STRICT=false sends the form as it is" \
    jq -e --slurpfile s "$TEST_TMP/strict-s.json" \
        '.response_format.json_schema.strict == false and
         .response_format.json_schema.schema == $s[0]' "$r"

# --- dry runs: the request printed, a --sample act, nothing sent ----------
# body_of FILE: the request body the dry run printed (after the
# "request:" headers and a blank line, up to the blank line before "act:")
body_of() {
	awk '/^request: /{h=1; next} h==1 && /^$/{h=2; next}
	    h==2 && /^$/{exit} h==2{print}' "$1"
}
count_requests() { ls "$TEST_TMP"/model/req-*.json 2>/dev/null | wc -l; }
jq .s "$probe/form.json" >"$TEST_TMP/probe-s.json"
"$GPT_FCGI" --sample --seed 1 "$TEST_TMP/probe-s.json" |
    tr -d '\n' >"$TEST_TMP/sample-act"
for c in llama ollama openai; do
	case $c in
	llama) set -- env LLAMA_URL="$model" LLAMA_MAX_TOKENS=64 \
	    "$clients/llama.sh" --dry-run "$base/probe" "Say hi."
	    endpoint="$model/v1/chat/completions" sent=$TEST_TMP/llama-request
	    actor=llama.cpp ;;
	ollama) set -- env OLLAMA_URL="$model" OLLAMA_MODEL=tiny \
	    "$clients/ollama.sh" --dry-run "$base/probe"
	    endpoint="$model/api/chat" sent=$TEST_TMP/ollama-request
	    actor=ollama/tiny ;;
	openai) set -- env OPENAI_BASE_URL="$model/v1" OPENAI_MODEL=small \
	    OPENAI_API_KEY=sk-test "$clients/openai.sh" --dry-run \
	    "$base/probe" "Go."
	    endpoint="$model/v1/chat/completions" sent=$TEST_TMP/openai-request
	    actor=openai/small ;;
	esac
	before=$(count_requests)
	rm -f "$probe/data/ran"
	run "$@"
	expect_status 0 "$c.sh --dry-run"
	expect_stdout_match "^request: POST $endpoint\$" \
	    "$c.sh --dry-run prints the model's endpoint"
	expect_stdout_match '^Content-Type: application/json$' \
	    "$c.sh --dry-run prints the request's headers"
	body_of "$TEST_TMP/out" >"$TEST_TMP/dry-body"
	expect_true "$c.sh --dry-run prints the exact request body it sends" \
	    cmp -s "$TEST_TMP/dry-body" "$sent"
	expect_stdout_match "^act: POST $base/probe\$" \
	    "$c.sh --dry-run prints where the act would go"
	expect_stdout_match "^GPT-Actor: $actor\$" "$c.sh --dry-run: the act's GPT-Actor"
	expect_true "$c.sh --dry-run: the act is --sample's value of the form" \
	    sh -c "tail -n 1 '$TEST_TMP/out' | tr -d '\n' |
	        cmp -s - '$TEST_TMP/sample-act'"
	tail -n 1 "$TEST_TMP/out" >"$TEST_TMP/dry-act"
	expect_true "$c.sh --dry-run: the act passes the form" \
	    "$GPT_FCGI" --validate "$TEST_TMP/probe-s.json" "$TEST_TMP/dry-act"
	expect_true "$c.sh --dry-run sends nothing to the model" \
	    test "$(count_requests)" -eq "$before"
	expect_true "$c.sh --dry-run submits nothing" test ! -e "$probe/data/ran"
done
expect_stdout_match '^Authorization: (hidden)$' \
    "openai.sh --dry-run shows the key's header without the key"
expect_true "openai.sh --dry-run never prints the key" \
    sh -c "! grep -q sk-test '$TEST_TMP/out'"
run env GPT_SEED=9 "$clients/llama.sh" --dry-run "$base/probe"
expect_stdout_match '^request: POST http://127.0.0.1:8012/v1/chat/completions$' \
    "llama.sh's default server is 127.0.0.1:8012"
demo_port=$(sed -n 's/^PORT=\${PORT:-\([0-9]*\)}$/\1/p' "$GPT_SRCDIR/scripts/demo")
expect_true "... not the demo's default port ($demo_port)" \
    test -n "$demo_port" -a "$demo_port" != 8012
run env GPT_FCGI=/nonexistent "$clients/ollama.sh" --dry-run "$base/probe"
expect_status 1 "a dry run without gpt.fcgi to sample the form"
expect_stderr_match '^ollama.sh: /nonexistent not found' \
    "... says so, naming the binary it looked for"
run env GPT_FCGI=/nonexistent OPENAI_BASE_URL="$model/v1" "$clients/openai.sh" \
    --dry-run "$base/strictok"
expect_stderr_match '^openai.sh: /nonexistent not found (install it with make install' \
    "openai.sh without gpt.fcgi names the missing binary"
expect_true "... and does not blame the form" \
    sh -c "! grep -q 'not for strict mode' '$TEST_TMP/err'"
run env GPT_FCGI=/nonexistent OPENAI_BASE_URL="$model/v1" OPENAI_STRICT=true \
    "$clients/openai.sh" "$base/strictok"
expect_status 2 "openai.sh: OPENAI_STRICT=true without gpt.fcgi"
expect_stderr_match "/nonexistent not found" "... names the missing binary"

# A model whose output fails the form: the address answers 204.
printf '{"note": "x", "extra": true}' >"$TEST_TMP/model/canned"
rm -f "$probe/data/ran"
run env OLLAMA_URL="$model" "$clients/ollama.sh" "$base/probe"
expect_status 1 "ollama.sh: a reply that fails the form is not accepted"
expect_stdout_match '^status: 204$' "ollama.sh: prints 204"
expect_true "no hook ran for it" test ! -e "$probe/data/ran"

finish
