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

finish
