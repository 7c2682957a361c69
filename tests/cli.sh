#!/bin/sh
# cli.sh: the command line's flags and exit statuses.
. "${GPT_SRCDIR:-.}/tests/lib.sh"

run_cli --version
expect_status 0 "--version"
expect_stdout_match '^gpt.fcgi [0-9]' "--version prints the name and version"

run_cli --help
expect_status 0 "--help"
expect_stdout_match 'usage:' "--help prints usage"

run_cli --no-such-flag
expect_status 2 "an unknown flag"
expect_stderr_match 'usage:' "an unknown flag prints usage on stderr"

# no arguments and no web server: the usage, not a 404
env -i "$GPT_FCGI" >"$TEST_TMP/out" 2>"$TEST_TMP/err" </dev/null
status=$?
expect_status 2 "no arguments, no CGI environment"
expect_stderr_match 'no CGI request' "no arguments: says why"
expect_stderr_match 'usage:' "no arguments: prints usage"
if [ -s "$TEST_TMP/out" ]; then fail "no arguments: nothing on stdout"; else pass; fi
# with REQUEST_METHOD it is still a CGI request
env -i REQUEST_METHOD=GET GPT_ADDRESS="$TEST_TMP/none" "$GPT_FCGI" \
    >"$TEST_TMP/out" 2>"$TEST_TMP/err" </dev/null
expect_stdout_match '^Status: 404' "REQUEST_METHOD alone: served as CGI"

# --unroll --form: the whole form.json, and the recursion warning says so
mkdir "$TEST_TMP/rec"
cat >"$TEST_TMP/rec/form.json" <<'JSON'
{"p": "A tree.", "m": [{"role": "user", "content": "x"}], "s": {"$defs": {"node": {"type": "object", "additionalProperties": false, "properties": {"kids": {"type": "array", "maxItems": 3, "items": {"$ref": "#/$defs/node"}}}}}, "$ref": "#/$defs/node"}}
JSON
run_cli --check "$TEST_TMP/rec"
expect_status 0 "a recursive form loads"
expect_stdout_match 'recursion-unbounded.*gpt.fcgi --unroll --form N DIR' \
    "the recursion warning names --unroll --form"
run_cli --unroll --form 2 "$TEST_TMP/rec"
expect_status 0 "--unroll --form 2 DIR"
expect_stdout_match '"p": "A tree."' "--unroll --form keeps p"
expect_stdout_match '"role": "user"' "--unroll --form keeps m"
mkdir "$TEST_TMP/rec2"
cp "$TEST_TMP/out" "$TEST_TMP/rec2/form.json"
run_cli --check "$TEST_TMP/rec2"
expect_status 0 "the unrolled form.json loads"
if grep -q recursion-unbounded "$TEST_TMP/out"; then
	fail "the unrolled form.json still recurses"
else pass; fi
run_cli --unroll --form 2 "$TEST_TMP/rec/form.json"
expect_status 2 "--unroll --form wants a directory"
expect_stderr_match 'takes an address directory' "--unroll --form on a file says why"

# messages an operator can act on
m=$TEST_TMP/msg
mkdir "$m"
printf '{"p": "x",\n "m": [],\n "s": {"type": "object",}}\n' >"$m/form.json"
run_cli --check "$m"
expect_status 1 "a form.json that does not parse"
expect_stdout_match 'form.json: line 3, column 25 (byte 45): member name expected' "a syntax error gives line and column"
printf '{"p": "x", "s": {}}\n' >"$m/form.json"
run_cli --check "$m"
expect_stdout_match 'three members, p (.*), m (.*) and s (.*); missing: m$' "a missing m names the three members"
printf '{"p": "x", "m": [], "s": {"type": "strnig"}}\n' >"$m/form.json"
run_cli --check "$m"
expect_stdout_match 'type: unknown type name "strnig"; fix: did you mean string?' "a misspelt type name gets its close one"
printf '{"type": "object"}' >"$TEST_TMP/obj.json"
printf '[1]' >"$TEST_TMP/arr.json"
run_cli --validate "$TEST_TMP/obj.json" "$TEST_TMP/arr.json"
expect_status 1 "an array against an object form"
expect_stderr_match 'rejected at the root: type: expected an object, got an array$' \
    "a type failure names what was expected, at the root"
printf '{"$ref": "http://example.com/s/missing.json"}' >"$TEST_TMP/ref.json"
mkdir "$TEST_TMP/copies"
run_cli --validate --refs "http://example.com/s/=$TEST_TMP/copies" "$TEST_TMP/ref.json" "$TEST_TMP/arr.json"
expect_status 2 "a reference to a missing local copy"
expect_stderr_match "no file $TEST_TMP/copies/missing.json" "a missing --refs file names the path looked for"

# declared annotations (and x-, and the dialect's own) are not warned about
printf '{"type": "object", "markdownDescription": "m", "x-note": 1, "properties": {"c": {"type": "string", "format": "color-hex", "description": "d"}}}' >"$TEST_TMP/ann.json"
printf '{"c": "#fff"}' >"$TEST_TMP/ann-body.json"
run_cli --validate --annotations markdownDescription,color-hex "$TEST_TMP/ann.json" "$TEST_TMP/ann-body.json"
expect_status 0 "a form with declared annotations"
if [ -s "$TEST_TMP/err" ]; then fail "declared annotations are warned about: $(cat "$TEST_TMP/err")"; else pass; fi

finish
