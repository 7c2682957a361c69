#!/bin/sh
# init.sh: gpt.fcgi --init, the scaffold of a new address: the form it
# writes from each shape of input (none, a bare JSON Schema as Pydantic
# and zod write them, an MCP tool definition or tools/list answer, an
# OpenAI function tool, a whole form, stdin), --from-openapi carrying only
# what the operation's body reaches, a clear refusal for every bad input
# (with nothing left behind), and the result loaded by --check and
# served an act through CGI.
. "${GPT_SRCDIR:-.}/tests/lib.sh"

D=$GPT_SRCDIR/tests/data/init
W=$TEST_TMP/w
mkdir "$W"
: >"$TEST_TMP/empty"

# cgi_act DIR FILE: POST FILE to the address DIR as a CGI request; the
# answer's status in $code, its body in $TEST_TMP/body.
cgi_act() {
	env -i GATEWAY_INTERFACE=CGI/1.1 SERVER_PROTOCOL=HTTP/1.1 \
	    REQUEST_METHOD=POST GPT_ADDRESS="$1" PATH_INFO= \
	    REQUEST_URI=/gpt CONTENT_TYPE=application/json \
	    CONTENT_LENGTH="$(wc -c <"$2" | tr -d ' ')" \
	    PATH=/usr/local/bin:/usr/bin:/bin \
	    timeout 30 "$GPT_FCGI" <"$2" >"$TEST_TMP/resp" 2>"$TEST_TMP/cgi-err"
	code=$(sed -n '1s/^Status: \([0-9]*\).*/\1/p' "$TEST_TMP/resp" | tr -d '\r')
	sed '1,/^\r$/d' "$TEST_TMP/resp" >"$TEST_TMP/body"
}

expect_file_match() { # FILE PATTERN LABEL
	if grep -q -- "$2" "$1"; then pass; else
		fail "$3: $1 does not match $2"
	fi
}

expect_file_no_match() { # FILE PATTERN LABEL
	if grep -q -- "$2" "$1"; then fail "$3: $1 matches $2"; else pass; fi
}

# --- no --schema: the starter form, loaded and served ------------------
run_cli --init "$W/start"
expect_status 0 "--init with no schema"
expect_stdout_match "wrote $W/start/form.json" "--init says what it wrote"
expect_stdout_match "$W/start: ok" "--init runs --check"
expect_true "the hook is executable" test -x "$W/start/hook"
expect_true "form.json is 0644" test "$(stat -c %a "$W/start/form.json")" = 644
expect_true "the directory is 0755" test "$(stat -c %a "$W/start")" = 755
run_cli --check "$W/start"
expect_status 0 "the starter address loads"
run_cli --parse "$W/start/form.json"
expect_status 0 "form.json is strict JSON"
printf '{"note":"hi"}' >"$TEST_TMP/act"
cgi_act "$W/start" "$TEST_TMP/act"
expect_true "a CGI act against the starter answers 200 (got $code: $(cat "$TEST_TMP/cgi-err"))" test "$code" = 200
expect_true "the sh hook answers what it received ($(cat "$TEST_TMP/body"))" \
    grep -q '"received":{"note":"hi"}' "$TEST_TMP/body"
printf '{"note":""}' >"$TEST_TMP/bad"
cgi_act "$W/start" "$TEST_TMP/bad"
expect_true "an act the starter refuses is not 200 (got $code)" test "$code" != 200

# --- a umask that would make the files group-writable -----------------
(umask 002 && "$GPT_FCGI" --init "$W/umask" >/dev/null 2>&1)
expect_true "umask 002: the address still loads" "$GPT_FCGI" --check "$W/umask"

# --- --hook python -------------------------------------------------------
if command -v python3 >/dev/null 2>&1; then
	run_cli --init "$W/py" --hook python
	expect_status 0 "--hook python"
	expect_true "the python hook starts with its interpreter" \
	    grep -q '^#!/usr/bin/env python3' "$W/py/hook"
	cgi_act "$W/py" "$TEST_TMP/act"
	expect_true "a CGI act against the python hook answers 200 (got $code)" test "$code" = 200
	expect_true "the python hook answers what it received" \
	    grep -q '"received": {"note": "hi"}' "$TEST_TMP/body"
else
	fail "python3 is required for --hook python"
fi
run_cli --init "$W/perl" --hook perl
expect_status 2 "--hook perl is a usage error"
expect_stderr_match "python or --hook sh" "--hook perl names the choices"
expect_true "--hook perl wrote nothing" test ! -e "$W/perl"

# --- each shape of --schema ---------------------------------------------
run_cli --init "$W/pyd" --schema "$D/pydantic.json"
expect_status 0 "a Pydantic model_json_schema"
expect_stderr_match "without \$schema" "a bare schema is said to be one"
expect_file_match "$W/pyd/form.json" '"p": "A shirt order."' "p from the schema's description"
printf '{"name":"Ann","size":"m"}' >"$TEST_TMP/act"
cgi_act "$W/pyd" "$TEST_TMP/act"
expect_true "an act against the Pydantic form answers 200 (got $code)" test "$code" = 200
printf '{"name":"Ann","size":"xl"}' >"$TEST_TMP/act"
cgi_act "$W/pyd" "$TEST_TMP/act"
expect_true "the Pydantic form's enum is enforced (got $code)" test "$code" != 200

run_cli --init "$W/zod" --schema "$D/zod.json"
expect_status 0 "zod's JSON Schema"
expect_stderr_match 'its \$schema kept' "zod's \$schema is kept"
expect_file_match "$W/zod/form.json" 'draft-07' "the draft-07 \$schema stays"

run_cli --init "$W/mcp" --schema "$D/mcp-tools.json"
expect_status 0 "an MCP tools/list answer with one tool"
expect_stderr_match "MCP tool definition" "the MCP shape is recognized"
expect_file_match "$W/mcp/form.json" '"p": "Get the current weather for a city."' "p from the tool's description"
expect_file_match "$W/mcp/form.json" '"city"' "s from the tool's inputSchema"
expect_file_no_match "$W/mcp/form.json" 'jsonrpc' "the JSON-RPC envelope stays out"

run_cli_in "$D/mcp-tools.json" --init "$W/stdin" --schema -
expect_status 0 "--schema - reads stdin"
expect_stderr_match "standard input" "stdin is named"
expect_true "the form from stdin equals the one from the file" \
    cmp -s "$W/stdin/form.json" "$W/mcp/form.json"

printf '{"type":"function","function":{"name":"f","description":"Call f.","parameters":{"type":"object","properties":{"x":{"type":"boolean"}}}}}' >"$TEST_TMP/openai.json"
run_cli --init "$W/oai" --schema "$TEST_TMP/openai.json"
expect_status 0 "an OpenAI function tool"
expect_stderr_match "OpenAI function tool" "the OpenAI shape is recognized"
expect_file_match "$W/oai/form.json" '"p": "Call f."' "p from the function's description"

run_cli --init "$W/form" --schema "$GPT_SRCDIR/examples/echo/form.json"
expect_status 0 "a whole form document"
expect_stderr_match "a form document" "a form document is recognized"
expect_file_match "$W/form/form.json" '"role": "user"' "a form document's m is kept"

# --- refusals: each clear, nothing written -------------------------------
run_cli --init "$W/two" --schema "$D/mcp-two.json"
expect_status 1 "two MCP tools"
expect_stderr_match "2 tools.* alpha beta" "two tools: both named"
expect_true "two tools: nothing written" test ! -e "$W/two"

run_cli --init "$W/oa" --schema "$D/petstore-3.1.json"
expect_status 1 "an OpenAPI document given to --schema"
expect_stderr_match "use --from-openapi" "an OpenAPI document names --from-openapi"

printf '[1]' >"$TEST_TMP/arr.json"
run_cli --init "$W/arr" --schema "$TEST_TMP/arr.json"
expect_status 1 "an array is no schema"
expect_stderr_match "not an object (array)" "an array is named"

printf '{"type":' >"$TEST_TMP/broken.json"
run_cli --init "$W/broken" --schema "$TEST_TMP/broken.json"
expect_status 1 "a schema that is not JSON"
expect_stderr_match "offset" "a broken schema says where"
expect_true "a broken schema: nothing written" test ! -e "$W/broken"

run_cli --init "$W/none" --schema "$TEST_TMP/no-such.json"
expect_status 1 "a missing schema file"
expect_stderr_match "no-such.json" "a missing schema file is named"

mkdir "$W/full"
: >"$W/full/keep"
run_cli --init "$W/full"
expect_status 1 "a directory that holds files"
expect_stderr_match "already holds files" "a full directory is refused"
expect_true "the full directory is untouched" test "$(ls "$W/full")" = keep
mkdir "$W/emptydir"
run_cli --init "$W/emptydir"
expect_status 0 "an empty directory is used"
: >"$W/plainfile"
run_cli --init "$W/plainfile"
expect_status 1 "a file in the way"
expect_stderr_match "not a directory" "a file in the way is named"
run_cli --init
expect_status 2 "--init with no DIR"

# --- --from-openapi ------------------------------------------------------
run_cli --init "$W/pets" --from-openapi "$D/petstore-3.1.json" createPet
expect_status 0 "--from-openapi createPet (3.1, body through requestBodies)"
expect_stderr_match "4 schemas of components/schemas carried" "the four schemas reached are carried"
f=$W/pets/form.json
expect_file_no_match "$f" 'INFO-MARKER' "info stays out of the form"
expect_file_no_match "$f" 'RESPONSES-MARKER' "responses stay out"
expect_file_no_match "$f" 'UNUSED' "schemas the body does not reach stay out"
expect_file_no_match "$f" 'components' "no reference is left into components"
expect_file_match "$f" '"\$ref": "#/\$defs/Tag~1Name"' "an escaped name keeps its escape"
expect_file_match "$f" '"\$ref": "#/\$defs/Owner/properties/name"' "a pointer into a component keeps its path"
expect_file_match "$f" '"p": "Add a pet to the store.' "p from the summary and description"
expect_file_match "$W/pets/address.conf" '^annotations = discriminator example$' \
    "OpenAPI's keywords that judge nothing are declared"
run_cli --check "$W/pets"
expect_status 0 "the OpenAPI address loads"
expect_stdout_match "string-unbounded" "--check reports on the carried components"
printf '{"name":"Rex","kind":"dog","tags":["good"]}' >"$TEST_TMP/act"
cgi_act "$W/pets" "$TEST_TMP/act"
expect_true "an act against the OpenAPI form answers 200 (got $code: $(cat "$TEST_TMP/cgi-err"))" test "$code" = 200
printf '{"name":"Rex","kind":"cow"}' >"$TEST_TMP/act"
cgi_act "$W/pets" "$TEST_TMP/act"
expect_true "the carried enum is enforced (got $code)" test "$code" != 200
printf '{"name":"Rex","kind":"dog","tags":["Bad!"]}' >"$TEST_TMP/act"
cgi_act "$W/pets" "$TEST_TMP/act"
expect_true "a reference through an escaped name is enforced (got $code)" test "$code" != 200

run_cli --init "$W/orders" --from-openapi "$D/orders-3.0.json" placeOrder
expect_status 0 "--from-openapi placeOrder (3.0)"
f=$W/orders/form.json
expect_file_match "$f" 'draft-04' "a 3.0 body is draft-04"
expect_file_match "$f" '"#/definitions/Order"' "3.0: the components under definitions"
expect_file_no_match "$f" 'nullable' "3.0: nullable is rewritten"
printf '{"quantity":1,"note":null,"parent":{"quantity":2}}' >"$TEST_TMP/act"
cgi_act "$W/orders" "$TEST_TMP/act"
expect_true "3.0: null is accepted where nullable said so (got $code)" test "$code" = 200
printf '{"quantity":0}' >"$TEST_TMP/act"
cgi_act "$W/orders" "$TEST_TMP/act"
expect_true "3.0: the boolean exclusiveMinimum is enforced (got $code)" test "$code" != 200

run_cli --init "$W/x1" --from-openapi "$D/petstore-3.1.json" nosuchOp
expect_status 1 "an unknown operation"
expect_stderr_match 'no operation with operationId "nosuchOp"; the document has 4: listPets, createPet' \
    "an unknown operation lists the known ones"
expect_true "an unknown operation: nothing written" test ! -e "$W/x1"
run_cli --init "$W/x2" --from-openapi "$D/petstore-3.1.json" uploadPhoto
expect_status 1 "a body that is not JSON"
expect_stderr_match "not JSON (media types: image/png)" "a non-JSON body names its media types"
run_cli --init "$W/x3" --from-openapi "$D/petstore-3.1.json" deletePet
expect_status 1 "an operation with no body"
expect_stderr_match "no request body" "no body is named"
run_cli --init "$W/x4" --from-openapi "$D/orders-3.0.json" external
expect_status 1 "a reference to another document"
expect_stderr_match 'refers to "common.json#/Thing"' "the outside reference is named"
run_cli --init "$W/x5" --from-openapi "$D/orders-3.0.json" dangling
expect_status 1 "a reference to a missing component"
expect_stderr_match "components/schemas/Missing, which" "the missing component is named"
printf 'openapi: 3.1.0\n' >"$TEST_TMP/api.yaml"
run_cli --init "$W/x6" --from-openapi "$TEST_TMP/api.yaml" op
expect_status 1 "a YAML document"
expect_stderr_match "reads JSON" "YAML is refused with a way out"
printf '{"swagger":"2.0","paths":{}}' >"$TEST_TMP/sw.json"
run_cli --init "$W/x7" --from-openapi "$TEST_TMP/sw.json" op
expect_status 1 "a Swagger 2.0 document"
expect_stderr_match "not an OpenAPI 3.x document" "Swagger 2.0 is refused"
run_cli --init "$W/x8" --schema "$D/zod.json" --from-openapi "$D/orders-3.0.json" placeOrder
expect_status 2 "--schema with --from-openapi"
for x in x1 x2 x3 x4 x5 x6 x7 x8; do
	expect_true "$x: nothing written" test ! -e "$W/$x"
done

finish
