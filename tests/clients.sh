#!/bin/sh
# clients.sh: the clients in examples/clients/ against a real server
# (lighttpd + FastCGI, the shipped configuration).  The model clients talk
# to a stand-in model: a small HTTP listener that records the request it
# gets and answers a canned reply in the service's own shape.  Checked:
# argument handling, the request each client builds from p, m and s, and
# that the model's value reaches the address unchanged.
. "${GPT_SRCDIR:-.}/tests/servers-common.sh"
need lighttpd
clients=$GPT_SRCDIR/examples/clients

t=$TEST_TMP/srv
mkdir -p "$t"
install_bin "$t/bin"
make_root "$t/root"
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
rm -f "$probe/ran"
run env GPT_ACTOR=act-test "$clients/act.sh" "$base/probe" "$TEST_TMP/v.json"
expect_status 0 "act.sh: a valid value"
expect_stdout_match '^status: 200$' "act.sh prints the status"
expect_true "act.sh: the result is the value's exact bytes" \
    sh -c "sed -n 2p '$TEST_TMP/out' | cmp -s - '$TEST_TMP/v.json' ||
        [ \"\$(sed -n 2p '$TEST_TMP/out')\" = \"\$(cat '$TEST_TMP/v.json')\" ]"
expect_true "act.sh: GPT-Actor reached the hook" grep -qx act-test "$probe/ran"
"$clients/act.sh" -m "$base/probe" <"$TEST_TMP/v.json" >"$TEST_TMP/out" 2>&1
status=$?
expect_status 0 "act.sh -m: value on stdin, If-Match of the fresh form"
printf '{"note": 1}' | "$clients/act.sh" "$base/probe" >"$TEST_TMP/out" 2>&1
status=$?
expect_status 1 "act.sh: an invalid value"
expect_stdout_match '^status: 204$' "act.sh prints 204"
run "$clients/act.sh" "$model/nothing-here" "$TEST_TMP/v.json"
expect_status 2 "act.sh: a URL without a form"

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

rm -f "$probe/ran"
run env LLAMA_URL="$model" LLAMA_N_PREDICT=64 "$clients/llama.sh" \
    "$base/probe" "Say hi."
check_model llama.sh /completion
r=$(last_request)
expect_true "llama.sh: json_schema is the form's s" \
    sh -c "jq -S .json_schema '$r' | cmp -s - \
        '$(jq -S .s "$probe/form.json" >"$TEST_TMP/s.S"; echo "$TEST_TMP/s.S")'"
expect_true "llama.sh: the prompt starts with p" \
    jq -e --slurpfile f "$probe/form.json" \
        '.prompt | startswith($f[0].p)' "$r"
expect_true "llama.sh: the prompt holds m and the instruction" \
    jq -e '(.prompt | contains("user: Send a greeting")) and
        (.prompt | contains("user: Say hi.")) and
        (.prompt | endswith("assistant: ")) and .n_predict == 64' "$r"
expect_true "llama.sh: GPT-Actor llama.cpp reached the hook" \
    grep -qx llama.cpp "$probe/ran"
run env LLAMA_URL="$model" LLAMA_N_PREDICT=x "$clients/llama.sh" "$base/probe"
expect_status 2 "llama.sh: LLAMA_N_PREDICT must be a number"

rm -f "$probe/ran"
run env OLLAMA_URL="$model" OLLAMA_MODEL=tiny "$clients/ollama.sh" \
    "$base/probe"
check_model ollama.sh /api/chat
r=$(last_request)
expect_true "ollama.sh: format is the form's s" \
    sh -c "jq -S .format '$r' | cmp -s - '$TEST_TMP/s.S'"
expect_true "ollama.sh: system p, then m, no instruction" \
    jq -e --slurpfile f "$probe/form.json" \
        '.model == "tiny" and .stream == false and
         .messages == [{role: "system", content: $f[0].p}] + $f[0].m' "$r"
expect_true "ollama.sh: GPT-Actor ollama/tiny reached the hook" \
    grep -qx ollama/tiny "$probe/ran"

rm -f "$probe/ran"
run env OPENAI_BASE_URL="$model/v1" OPENAI_MODEL=small \
    OPENAI_API_KEY=sk-test "$clients/openai.sh" "$base/probe" "Go."
check_model openai.sh /v1/chat/completions
r=$(last_request)
expect_true "openai.sh: response_format carries s, strict" \
    sh -c "jq -S .response_format.json_schema.schema '$r' | cmp -s - \
        '$TEST_TMP/s.S' && jq -e '.response_format.type == \"json_schema\"
        and .response_format.json_schema.strict == true and
        (.response_format.json_schema.name | length > 0)' '$r'"
expect_true "openai.sh: system p, m, then the instruction" \
    jq -e --slurpfile f "$probe/form.json" \
        '.model == "small" and .messages == [{role: "system",
         content: $f[0].p}] + $f[0].m + [{role: "user", content: "Go."}]' "$r"
expect_true "openai.sh: the key is sent as a Bearer token" \
    grep -qx 'Bearer sk-test' "${r%.json}.auth"
expect_true "openai.sh: GPT-Actor openai/small reached the hook" \
    grep -qx openai/small "$probe/ran"
run env OPENAI_BASE_URL="$model/v1" OPENAI_STRICT=maybe \
    "$clients/openai.sh" "$base/probe"
expect_status 2 "openai.sh: OPENAI_STRICT must be true or false"

# A model whose output fails the form: the address answers 204.
printf '{"note": "x", "extra": true}' >"$TEST_TMP/model/canned"
rm -f "$probe/ran"
run env OLLAMA_URL="$model" "$clients/ollama.sh" "$base/probe"
expect_status 1 "ollama.sh: a reply that fails the form is not accepted"
expect_stdout_match '^status: 204$' "ollama.sh: prints 204"
expect_true "no hook ran for it" test ! -e "$probe/ran"

finish
