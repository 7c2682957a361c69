#!/bin/sh
# sample.sh: --sample [--count K] [--seed S] SCHEMA.  tests/sample.js
# samples every example form and every test form and has each value
# judged again by --validate; then determinism, variety, the forms that
# cannot be sampled, and usage.  With VECTORS=DIR (make check-vectors)
# the JSON-Schema-Test-Suite's schemas are sampled too.
. "${GPT_SRCDIR:-.}/tests/lib.sh"
src=$GPT_SRCDIR

forms=
for d in "$src"/examples/*/ "$src"/tests/data/addresses/*/; do
	[ -f "$d/form.json" ] && forms="$forms ${d%/}"
done
for f in "$src"/tests/data/validate/*/schema.json; do
	forms="$forms $f"
done
# shellcheck disable=SC2086
if node "$src/tests/sample.js" "$GPT_FCGI" "$TEST_TMP" 40 $forms \
    >"$TEST_TMP/js" 2>&1; then
	pass
else
	fail "sample.js: $(grep FAIL "$TEST_TMP/js" | head -n 5)"
fi
cat "$TEST_TMP/js"
if [ -n "${VECTORS:-}" ] && [ -d "$VECTORS/json-schema" ]; then
	set --
	for p in draft2020-12:2020-12 draft2019-09:2019-09 draft7:draft-07 \
	    draft6:draft-06 draft4:draft-04; do
		set -- "$@" "SUITE:${p#*:}:$VECTORS/json-schema/${p%%:*}"
	done
	if node "$src/tests/sample.js" "$GPT_FCGI" "$TEST_TMP" 5 "$@" \
	    >"$TEST_TMP/js" 2>&1; then
		pass
	else
		fail "sample.js, the suite: $(grep FAIL "$TEST_TMP/js" | head -n 5)"
	fi
	cat "$TEST_TMP/js"
fi

# form NAME JSON: write $TEST_TMP/NAME.json
form() { printf '%s\n' "$2" >"$TEST_TMP/$1.json"; }

form mixed '{"type": "object", "required": ["k"], "properties": {
    "k": {"anyOf": [{"type": "string", "maxLength": 3}, {"type": "integer"},
        {"type": "object", "additionalProperties": false}]},
    "e": {"enum": ["red", "green", "blue"]},
    "o": {"type": "boolean"}}, "additionalProperties": false}'
run_cli --sample --count 12 --seed 5 "$TEST_TMP/mixed.json"
expect_status 0 "--sample --count 12"
cp "$TEST_TMP/out" "$TEST_TMP/first"
expect_true "twelve values" test "$(wc -l <"$TEST_TMP/first")" -eq 12
expect_true "every anyOf branch of a member is reached" \
    sh -c "jq -s -e '[.[].k | type] | unique == [\"number\", \"object\",
        \"string\"]' '$TEST_TMP/first'"
expect_true "every enum value of an optional member is reached" \
    sh -c "jq -s -e '[.[].e | select(. != null)] | unique ==
        [\"blue\", \"green\", \"red\"]' '$TEST_TMP/first'"
expect_true "an optional member is present in some values, absent in others" \
    sh -c "jq -s -e '([.[] | select(has(\"o\"))] | length) as \$n |
        \$n > 0 and \$n < 12' '$TEST_TMP/first'"
run_cli --sample --count 12 --seed 5 "$TEST_TMP/mixed.json"
expect_true "the same seed gives the same values" \
    cmp -s "$TEST_TMP/out" "$TEST_TMP/first"
run_cli --sample --count 12 --seed 6 "$TEST_TMP/mixed.json"
expect_true "another seed gives other values" \
    sh -c "! cmp -s '$TEST_TMP/out' '$TEST_TMP/first'"
run_cli --sample "$TEST_TMP/mixed.json"
expect_true "one value by default" test "$(wc -l <"$TEST_TMP/out")" -eq 1

# an address DIR is loaded as the responder loads it: an address.conf the
# server refuses (unknown key) refuses the tools too
run_cli --sample "$src/tests/data/addresses/broken-conf"
expect_status 2 "--sample DIR with an address.conf the server refuses"
expect_stderr_match "refused: .*unknown key" "... says why, as the server does"
run_cli --sample --dialect draft-07 "$src/examples/echo"
expect_status 2 "--dialect with an address DIR (address.conf has the dialect)"

form multiple '{"type": "number", "multipleOf": 0.01, "minimum": 1,
    "exclusiveMaximum": 2}'
run_cli --sample --count 20 "$TEST_TMP/multiple.json"
expect_status 0 "a multipleOf 0.01 between bounds"

form nothing '{"not": {}}'
run_cli --sample "$TEST_TMP/nothing.json"
expect_status 1 "a form nothing passes"
expect_stderr_match 'cannot sample:.*not' "... says it cannot be sampled, and why"
printf 'false\n' >"$TEST_TMP/false.json"
run_cli --sample "$TEST_TMP/false.json"
expect_status 1 "the form false"
expect_stderr_match 'accepts nothing' "... accepts nothing"

# --refs and --annotations, read by the same reader as --validate's: a
# form whose $ref points outside is sampled with the local copy, and each
# value passes --validate with the same options
ext=$src/tests/data/validate/refs-external
refs="https://example.com/schemas/=$ext/refs"
run_cli --sample --count 8 --refs "$refs" "$ext/schema.json"
expect_status 0 "--sample --refs: a form with an external reference"
cp "$TEST_TMP/out" "$TEST_TMP/ext"
expect_true "eight values from the external form" \
    test "$(wc -l <"$TEST_TMP/ext")" -eq 8
expect_true "some value holds the referenced resource's members" \
    sh -c "jq -s -e '[.[].money.currency | select(. != null)] | length > 0' \
        '$TEST_TMP/ext'"
ok=0
while IFS= read -r v; do
	printf '%s\n' "$v" >"$TEST_TMP/v.json"
	"$GPT_FCGI" --validate --refs "$refs" "$ext/schema.json" \
	    "$TEST_TMP/v.json" 2>/dev/null || ok=1
done <"$TEST_TMP/ext"
expect_true "--validate --refs accepts every value --sample --refs gave" \
    test "$ok" -eq 0
run_cli --sample "$ext/schema.json"
expect_status 2 "--sample without --refs: the external reference refuses"
run_cli --sample --refs "https://example.com/schemas/" "$ext/schema.json"
expect_status 2 "--sample --refs without =DIR: usage"
run_cli --sample --refs "$refs" "$src/examples/echo"
expect_status 2 "--refs with an address DIR (address.conf has the refs)"

form hint '{"type": "string", "uiHint": "*a name*",
    "maxLength": 4}'
run_cli --sample "$TEST_TMP/hint.json"
expect_status 2 "--sample: an undeclared editor-hint keyword refuses the form"
expect_stderr_match 'uiHint' "... names the keyword"
run_cli --sample --count 3 --annotations uiHint,x "$TEST_TMP/hint.json"
expect_status 0 "--sample --annotations: the declared keyword is an annotation"
expect_true "three strings of at most four characters" \
    sh -c "jq -s -e 'length == 3 and all(.[]; type == \"string\" and
        length <= 4)' '$TEST_TMP/out'"
run_cli --sample --count 3 --seed 2 --annotations uiHint \
    --dialect draft-07 "$TEST_TMP/hint.json"
expect_status 0 "--sample: --annotations, --dialect and --seed in any order"

for args in "--count 0" "--count x" "--seed -1" "--count"; do
	# shellcheck disable=SC2086
	run_cli --sample $args "$TEST_TMP/mixed.json"
	expect_status 2 "--sample $args: usage"
done
run_cli --sample "$TEST_TMP/mixed.json" extra
expect_status 2 "--sample with two forms: usage"

finish
