#!/bin/sh
# facts.sh: the tools agree on what they say about a form, because they
# ask one module (src/schema_facts.c) and the pattern parser, never the
# keywords' text: --check (the lint and the decoder table) and
# --strict-openai on the same forms.
. "${GPT_SRCDIR:-.}/tests/lib.sh"

# address NAME SCHEMA: an address directory whose form's s is SCHEMA
address() {
	mkdir -p "$TEST_TMP/$1"
	printf '{"p": "x", "m": [], "s": %s}\n' "$2" >"$TEST_TMP/$1/form.json"
}
# form NAME SCHEMA: a bare schema file
form() { printf '%s\n' "$2" >"$TEST_TMP/$1.json"; }

closed='"type": "object", "additionalProperties": false, "required": ["a"]'

# --- oneOf of two consts: disjoint for --check and for --strict-openai --
consts='{"oneOf": [{"const": "a"}, {"const": "b"}]}'
address consts "{$closed, \"properties\": {\"a\": $consts}}"
run_cli --check --json "$TEST_TMP/consts"
expect_status 0 "two consts: --check"
expect_true "two consts: --check says the branches are disjoint" \
    jq -e 'any(.problems[]; .rule == "oneof" and .pointer == "/properties/a" and (.reason | contains("provably disjoint (distinct const/enum values)")))' \
    "$TEST_TMP/out"
form consts "{$closed, \"properties\": {\"a\": $consts}}"
run_cli --strict-openai "$TEST_TMP/consts.json"
expect_status 0 "two consts: --strict-openai takes the form"
expect_true "two consts: --strict-openai writes anyOf" \
    jq -e '.properties.a == {"anyOf": [{"const": "a"}, {"const": "b"}]}' \
    "$TEST_TMP/out"
# and a const against a type it does not have: disjoint for both
address cnum "{$closed, \"properties\": {\"a\": {\"oneOf\": [{\"const\": \"a\"}, {\"type\": \"number\"}]}}}"
run_cli --check --json "$TEST_TMP/cnum"
expect_true "a const and a number: --check says disjoint" \
    jq -e 'any(.problems[]; .rule == "oneof" and (.reason | contains("provably disjoint (disjoint types)")))' \
    "$TEST_TMP/out"
form cnum "{$closed, \"properties\": {\"a\": {\"oneOf\": [{\"const\": \"a\"}, {\"type\": \"number\"}]}}}"
run_cli --strict-openai "$TEST_TMP/cnum.json"
expect_status 0 "a const and a number: --strict-openai takes the form"

# --- a pattern is read by the pattern parser, not scanned ------------------
# refused_by KEYWORD: the decoders that refuse the form for KEYWORD
refusers() {
	jq -r --arg k "$1" '[.decoders[] | select(any(.refused_by[]; .keyword == $k)) | .id] | join(" ")' \
	    "$TEST_TMP/out"
}
address cls "{\"type\": \"string\", \"maxLength\": 3, \"pattern\": \"^[(?=]\$\"}"
run_cli --check --json "$TEST_TMP/cls"
expect_status 0 "a class holding \"(?=\": --check"
r=$(refusers pattern)
expect_true "a class holding \"(?=\" is no lookahead: no decoder refuses its pattern (got: $r)" \
    test -z "$r"
address look "{\"type\": \"string\", \"maxLength\": 3, \"pattern\": \"^(?=a)a\$\"}"
run_cli --check --json "$TEST_TMP/look"
r=$(refusers pattern)
expect_true "a real lookahead: some decoder refuses it (got: $r)" test -n "$r"
address esc "{\"type\": \"string\", \"maxLength\": 3, \"pattern\": \"^\\\\\\\\b\$\"}"
run_cli --check --json "$TEST_TMP/esc"
r=$(refusers pattern)
expect_true "an escaped backslash then b is no word boundary (got: $r)" test -z "$r"

# --- --strict-openai reads the dialect the form was compiled in ------------
d19='"$schema": "https://json-schema.org/draft/2019-09/schema"'
form d19 "{$d19, $closed, \"properties\": {\"a\": {\"\$ref\": \"#/\$defs/s\"}},
    \"\$defs\": {\"s\": {\"type\": \"string\"}}}"
run_cli --strict-openai --dialect draft-07 "$TEST_TMP/d19.json"
expect_status 0 "a 2019-09 form under --dialect draft-07: the rewrite loads"
expect_true "the rewrite keeps \$schema" \
    jq -e '."$schema" == "https://json-schema.org/draft/2019-09/schema"' \
    "$TEST_TMP/out"
# a form that only says "draft-0" in a title is not a draft-07 form
form title "{$closed, \"title\": \"not draft-07\", \"properties\": {\"a\":
    {\"\$ref\": \"#/\$defs/s\", \"description\": \"kept\"}},
    \"\$defs\": {\"s\": {\"type\": \"string\"}}}"
run_cli --strict-openai "$TEST_TMP/title.json"
expect_status 0 "a 2020-12 form: --strict-openai"
expect_true "its \$ref siblings are kept (2020-12 applies them)" \
    jq -e '.properties.a.description == "kept"' "$TEST_TMP/out"
form d7 "{\"\$schema\": \"http://json-schema.org/draft-07/schema#\", $closed,
    \"properties\": {\"a\": {\"\$ref\": \"#/definitions/s\", \"minLength\": 2}},
    \"definitions\": {\"s\": {\"type\": \"string\"}}}"
run_cli --strict-openai "$TEST_TMP/d7.json"
expect_status 0 "a draft-07 form: --strict-openai"
expect_true "draft-07: the ignored \$ref siblings are dropped, \$schema kept" \
    jq -e '(.properties.a | has("minLength") | not) and ."$schema" == "http://json-schema.org/draft-07/schema#"' \
    "$TEST_TMP/out"

finish
