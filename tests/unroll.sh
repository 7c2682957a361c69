#!/bin/sh
# unroll.sh: --unroll N SCHEMA.  The property (tests/unroll.js, with the
# real validator): values within N levels are judged as by the original
# form, values one level deeper are rejected; then the refusals and the
# usage errors.
. "${GPT_SRCDIR:-.}/tests/lib.sh"

if node "$GPT_SRCDIR/tests/unroll.js" "$GPT_FCGI" "$TEST_TMP" \
    >"$TEST_TMP/prop" 2>&1; then
	pass
else
	fail "unroll.js: $(grep FAIL "$TEST_TMP/prop" | head -n 5)"
fi
cat "$TEST_TMP/prop"

# form NAME JSON: write $TEST_TMP/NAME.json
form() { printf '%s\n' "$2" >"$TEST_TMP/$1.json"; }

form tree '{"$defs": {"n": {"type": "object", "properties": {"kids":
    {"type": "array", "items": {"$ref": "#/$defs/n"}}}}}, "$ref": "#/$defs/n"}'
run_cli --unroll 2 "$TEST_TMP/tree.json"
expect_status 0 "--unroll 2 of a tree"
expect_true "the tree's last level has no recursive alternative" \
    jq -e '."$defs" | (keys == ["n-1", "n-2"]) and
        .["n-2"].properties.kids.items == false and
        .["n-1"].properties.kids.items["$ref"] == "#/$defs/n-2"' \
    "$TEST_TMP/out"
echo '{"kids": [{"kids": []}]}' >"$TEST_TMP/two.json"
expect_true "the unrolled form loads and accepts two levels" \
    "$GPT_FCGI" --validate "$TEST_TMP/out" "$TEST_TMP/two.json"
cp "$TEST_TMP/out" "$TEST_TMP/tree2.json"
run_cli --unroll 2 "$TEST_TMP/tree2.json"
expect_status 0 "an unrolled form unrolls again"
expect_stderr_match 'no recursion' "... as it is, with a note"

form anyof '{"$defs": {"n": {"anyOf": [{"type": "string"},
    {"type": "array", "items": {"$ref": "#/$defs/n"}}]}}, "$ref": "#/$defs/n"}'
run_cli --unroll 1 "$TEST_TMP/anyof.json"
expect_status 0 "--unroll 1 of an anyOf"
expect_true "the branch whose items are cut stays, as an empty array" \
    jq -e '."$defs"["n-1"].anyOf[1].items == false' "$TEST_TMP/out"

form flat '{"type": "object", "properties": {"a": {"type": "string"}}}'
run_cli --unroll 3 "$TEST_TMP/flat.json"
expect_status 0 "a form without recursion"
expect_true "... is printed as it is" \
    sh -c "jq -S . '$TEST_TMP/out' | cmp -s - \
        '$(jq -S . "$TEST_TMP/flat.json" >"$TEST_TMP/flat.S"; \
            echo "$TEST_TMP/flat.S")'"

mkdir -p "$TEST_TMP/addr"
printf '{"p": "x", "m": [], "s": %s}\n' "$(cat "$TEST_TMP/tree.json")" \
    >"$TEST_TMP/addr/form.json"
run_cli --unroll 2 "$TEST_TMP/addr"
expect_status 0 "an address directory: its form"
expect_true "... unrolled" jq -e '."$defs"["n-2"]' "$TEST_TMP/out"

# refuse NAME JSON PATTERN LABEL: exit 1, stderr matches
refuse() {
	form "$1" "$2"
	run_cli --unroll 2 "$TEST_TMP/$1.json"
	expect_status 1 "$4"
	expect_stderr_match "$3" "$4: the reason"
}
refuse not '{"$defs": {"n": {"type": "object", "properties": {"a":
    {"not": {"$ref": "#/$defs/n"}}}}}, "$ref": "#/$defs/n"}' \
    '/\$defs/n/properties/a/not/\$ref: a recursive reference under not' \
    "recursion under not"
refuse anchor '{"$defs": {"n": {"$anchor": "x", "type": "array",
    "items": {"$ref": "#x"}}}, "$ref": "#/$defs/n"}' \
    'does not follow' "recursion through an anchor"
refuse inside '{"$defs": {"n": {"type": "object", "properties": {
    "a": {"$ref": "#/$defs/n"}, "b": {"type": "integer"},
    "c": {"$ref": "#/$defs/n/properties/b"}}}}, "$ref": "#/$defs/n"}' \
    'points inside a recursive definition' "a reference into a recursive definition"
refuse taken '{"$defs": {"n": {"items": {"$ref": "#/$defs/n"}},
    "n-2": {}}, "$ref": "#/$defs/n"}' \
    '/\$defs/n-2: the name' "a copy name already taken"
refuse subtree '{"properties": {"a": {"items": {"$ref": "#/properties/a"}}}}' \
    'not the root or a \$defs' "a recursive target that is no definition"

for args in "0 $TEST_TMP/tree.json" "65 $TEST_TMP/tree.json" \
    "x $TEST_TMP/tree.json" "2" "2 $TEST_TMP/tree.json extra"; do
	# shellcheck disable=SC2086
	run_cli --unroll $args
	expect_status 2 "--unroll $args: usage"
done
form refused '{"type": "strnig"}'
run_cli --unroll 2 "$TEST_TMP/refused.json"
expect_status 2 "a form the compiler refuses"

# --refs and --annotations, as --validate reads them: a form whose $ref
# points outside loads with the local copy (it has no recursion: printed
# as it is), and a declared editor-hint keyword is an annotation
ext=$GPT_SRCDIR/tests/data/validate/refs-external
run_cli --unroll --refs "https://example.com/schemas/=$ext/refs" 2 \
    "$ext/schema.json"
expect_status 0 "--unroll --refs: a form with an external reference"
expect_stdout_match 'schemas/money.json' "... printed with its reference"
run_cli --unroll 2 "$ext/schema.json"
expect_status 2 "--unroll without --refs: the external reference refuses"
form hint '{"type": "object", "uiHint": "*t*",
    "properties": {"t": {"$ref": "#"}}}'
run_cli --unroll 2 "$TEST_TMP/hint.json"
expect_status 2 "--unroll: an undeclared editor-hint keyword refuses"
run_cli --unroll --annotations uiHint 2 "$TEST_TMP/hint.json"
expect_status 0 "--unroll --annotations: the unrolled form compiles with it"

finish
