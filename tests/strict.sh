#!/bin/sh
# strict.sh: --strict-openai SCHEMA.  The rewrite accepts what the form
# accepts (tests/strict.js, with the real validator); then each obstacle
# is named with its pointer and keyword, and usage.
. "${GPT_SRCDIR:-.}/tests/lib.sh"

if node "$GPT_SRCDIR/tests/strict.js" "$GPT_FCGI" "$TEST_TMP" \
    >"$TEST_TMP/js" 2>&1; then
	pass
else
	fail "strict.js: $(grep FAIL "$TEST_TMP/js" | head -n 5)"
fi
cat "$TEST_TMP/js"

form() { printf '%s\n' "$2" >"$TEST_TMP/$1.json"; }

form ok '{"$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object", "additionalProperties": false, "required": ["a"],
    "properties": {"a": {"oneOf": [{"type": "string"}, {"type": "null"}],
        "default": null, "x-ui": "text"}}}'
run_cli --strict-openai "$TEST_TMP/ok.json"
expect_status 0 "a form strict mode can take"
expect_true "the rewrite: anyOf for a disjoint oneOf, annotations gone, \$schema kept" \
    jq -e '.properties.a == {"anyOf": [{"type": "string"},
        {"type": "null"}]} and ."$schema" == "https://json-schema.org/draft/2020-12/schema"' "$TEST_TMP/out"
expect_stderr_match 'strict rewrite at /properties/a/oneOf: oneOf of disjoint' \
    "each rewrite is told on stderr"

# obstacle NAME JSON PATTERN LABEL: exit 1, stderr names it
obstacle() {
	form "$1" "$2"
	run_cli --strict-openai "$TEST_TMP/$1.json"
	expect_status 1 "$4"
	expect_stderr_match "$3" "$4: pointer and keyword"
	# every obstacle comes with what to change
	if grep 'not for OpenAI strict mode' "$TEST_TMP/err" | grep -qv '; fix: .'; then
		fail "$4: an obstacle without its fix: $(grep -v '; fix: ' "$TEST_TMP/err" | head -n 1)"
	else pass; fi
}
closed='"type": "object", "additionalProperties": false'
obstacle optional "{$closed, \"properties\": {\"a\": {\"type\": \"string\"}}}" \
    'at /properties/a: required: an optional member' "an optional member"
obstacle open '{"type": "object", "required": ["a"],
    "properties": {"a": {"type": "string"}}}' \
    'at the root: additionalProperties: must be false' "an open object"
obstacle overlap "{$closed, \"required\": [\"a\"], \"properties\": {\"a\":
    {\"oneOf\": [{\"type\": \"string\"}, {\"type\": \"string\",
    \"maxLength\": 2}]}}}" \
    'at /properties/a/oneOf: oneOf: .*not provably disjoint' \
    "a oneOf whose branches overlap"
obstacle format "{$closed, \"required\": [\"u\"], \"properties\": {\"u\":
    {\"type\": \"string\", \"format\": \"uri\"}}}" \
    'at /properties/u/format: format' "a format strict mode lacks"
obstacle pprops "{$closed, \"properties\": {}, \"patternProperties\":
    {\"^x\": {\"type\": \"string\"}}}" \
    'at /patternProperties: patternProperties: not supported' \
    "patternProperties"
obstacle unique "{$closed, \"required\": [\"t\"], \"properties\": {\"t\":
    {\"type\": \"array\", \"items\": {\"type\": \"string\"},
    \"uniqueItems\": true}}}" \
    'at /properties/t/uniqueItems: uniqueItems' "uniqueItems"
obstacle rootany '{"anyOf": [{"type": "object", "additionalProperties": false,
    "properties": {}}]}' \
    'at the root: anyOf: not allowed at the root' "anyOf at the root"
obstacle rootstring '{"type": "string"}' \
    'at the root: type: the root must be an object' "a root that is no object"
obstacle untyped "{$closed, \"required\": [\"a\"], \"properties\": {\"a\": {}}}" \
    'at /properties/a: type: missing' "a member of any value"
obstacle boolean "{$closed, \"required\": [\"a\"], \"properties\": {\"a\": true}}" \
    'at /properties/a: true: a boolean schema' "a boolean subschema"
obstacle tuple "{\"\$schema\": \"http://json-schema.org/draft-07/schema#\",
    $closed, \"required\": [\"t\"], \"properties\": {\"t\": {\"type\": \"array\",
    \"items\": [{\"type\": \"string\"}]}}}" \
    'at /properties/t/items: items: an array of schemas' "a draft-07 tuple"
big=$(seq 1 1001 | paste -sd, -)
obstacle enum "{$closed, \"required\": [\"e\"], \"properties\": {\"e\":
    {\"enum\": [$big]}}}" \
    'at /properties/e/enum: enum: more than 1000 values' "a long enum"
deep='{"type": "string"}'
for i in 1 2 3 4 5 6 7 8 9 10 11; do
	deep="{$closed, \"required\": [\"d\"], \"properties\": {\"d\": $deep}}"
done
obstacle deep "$deep" 'properties: more than 10 levels' "eleven nested objects"
form two "{$closed, \"properties\": {\"a\": {\"type\": \"string\"},
    \"b\": {\"not\": {}}}}"
run_cli --strict-openai "$TEST_TMP/two.json"
expect_true "every obstacle is named, not only the first" \
    test "$(grep -c 'not for OpenAI strict mode' "$TEST_TMP/err")" -ge 3

run_cli --strict-openai
expect_status 2 "--strict-openai without a form"
run_cli --strict-openai "$TEST_TMP/ok.json" extra
expect_status 2 "--strict-openai with two"

# --refs and --annotations, as --validate reads them
ext=$GPT_SRCDIR/tests/data/validate/refs-external
run_cli --strict-openai --refs "https://example.com/schemas/=$ext/refs" \
    "$ext/schema.json"
expect_status 1 "--strict-openai --refs: the external form loads, and is judged"
expect_stderr_match 'obstacles to OpenAI strict mode' "... with its obstacles"
run_cli --strict-openai "$ext/schema.json"
expect_status 2 "--strict-openai without --refs: the form does not load"
printf '%s\n' '{"type": "object", "uiHint": "*o*",
    "properties": {"a": {"type": "string"}}, "required": ["a"],
    "additionalProperties": false}' >"$TEST_TMP/hint.json"
run_cli --strict-openai "$TEST_TMP/hint.json"
expect_status 2 "--strict-openai: an undeclared editor-hint keyword refuses"
run_cli --strict-openai --annotations uiHint "$TEST_TMP/hint.json"
expect_status 1 "--strict-openai --annotations: the form loads and is judged"
expect_stderr_match 'uiHint: not supported by strict mode' \
    "... strict mode has no such keyword"

finish
