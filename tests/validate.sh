#!/bin/sh
# validate.sh: gpt.fcgi --validate over tests/data/validate/<case>/.
#
# A case holds schema.json (or form.json, whose member s is the schema:
# the case directory is then passed as an address), and pass/*.json
# (exit 0) and fail/*.json (exit 1) bodies.  fail/NAME.expect, when
# present, is a fixed string stderr must contain.  A case with a file
# `refused` must be refused (exit 2) with that string on stderr.
# Then the command line itself: stdin, usage and input errors.
. "${GPT_SRCDIR:-.}/tests/lib.sh"

data="$GPT_SRCDIR/tests/data/validate"

# expect_stderr_fixed FILE NAME: stderr contains FILE's first line.
expect_stderr_fixed() {
	want=$(head -n 1 "$1")
	if grep -qF -- "$want" "$TEST_TMP/err"; then pass; else
		fail "$2: stderr lacks '$want' (got: $(head -c 300 "$TEST_TMP/err"))"
	fi
}

for dir in "$data"/*/; do
	dir=${dir%/}
	name=$(basename "$dir")
	if [ -f "$dir/form.json" ]; then
		schema=$dir
	else
		schema=$dir/schema.json
	fi
	# args: options before the schema (--dialect, --refs ...), with
	# @DIR@ for the case's directory; words without blanks
	opts=
	[ -f "$dir/args" ] && opts=$(sed "s|@DIR@|$dir|g" "$dir/args")
	if [ -f "$dir/refused" ]; then
		# shellcheck disable=SC2086
		run_cli_in /dev/null --validate $opts "$schema" -
		expect_status 2 "$name: the schema is refused"
		expect_stderr_fixed "$dir/refused" "$name: refusal reason"
		continue
	fi
	for f in "$dir"/pass/*.json; do
		[ -f "$f" ] || continue
		# shellcheck disable=SC2086
		run_cli --validate $opts "$schema" "$f"
		expect_status 0 "$name: accepts $(basename "$f")"
	done
	for f in "$dir"/fail/*.json; do
		[ -f "$f" ] || continue
		# shellcheck disable=SC2086
		run_cli --validate $opts "$schema" "$f"
		expect_status 1 "$name: rejects $(basename "$f")"
		if [ -f "${f%.json}.expect" ]; then
			expect_stderr_fixed "${f%.json}.expect" \
			    "$name: $(basename "$f") message"
		fi
	done
done

# The body on standard input, without BODY-FILE and with "-".
run_cli_in "$data/person/pass/full.json" --validate "$data/person/schema.json"
expect_status 0 "a body on stdin is accepted"
run_cli_in "$data/person/fail/empty-name.json" --validate \
    "$data/person/schema.json" -
expect_status 1 "a body on stdin (-) is rejected"
expect_stderr_match '^gpt.fcgi: rejected at /name: minLength: shorter than 1 characters$' \
    "the rejection names pointer, keyword and reason, as the other refusals of the command line do"

# Acceptance is silent.
run_cli --validate "$data/person/schema.json" "$data/person/pass/full.json"
if [ -s "$TEST_TMP/out" ] || [ -s "$TEST_TMP/err" ]; then
	fail "an accepted body prints nothing"
else
	pass
fi

# A body that is not strict JSON is rejected (1) with its offset.
printf '{"name": "x",}' >"$TEST_TMP/bad.json"
run_cli --validate "$data/person/schema.json" "$TEST_TMP/bad.json"
expect_status 1 "an unparsable body is rejected"
expect_stderr_match 'offset 13' "the parse failure names its offset"
printf '' >"$TEST_TMP/empty.json"
run_cli --validate "$data/person/schema.json" "$TEST_TMP/empty.json"
expect_status 1 "an empty body is rejected"

# A schema that is not strict JSON, or not there: 2.
printf '{"type": "string",}' >"$TEST_TMP/bad-schema.json"
run_cli --validate "$TEST_TMP/bad-schema.json" "$data/money/pass/cents.json"
expect_status 2 "an unparsable schema is an error"
run_cli --validate "$TEST_TMP/no-such.json" "$data/money/pass/cents.json"
expect_status 2 "a missing schema file is an error"
run_cli --validate "$data/money/schema.json" "$TEST_TMP/no-such-body.json"
expect_status 2 "a missing body file is an error"
mkdir "$TEST_TMP/no-form"
run_cli --validate "$TEST_TMP/no-form" "$data/money/pass/cents.json"
expect_status 2 "a directory without form.json is an error"
printf '{"p": "", "m": []}' >"$TEST_TMP/no-form/form.json"
run_cli --validate "$TEST_TMP/no-form" "$data/money/pass/cents.json"
expect_status 2 "a form.json without s is an error"
expect_stderr_match 'not an arrival document: it is an object of three members, p (.*), m (.*) and s (.*); missing: s$' \
    "the missing s is named with the three members, as the server names it"

# Usage.
run_cli --validate
expect_status 2 "--validate without arguments is a usage error"
run_cli --validate a b c
expect_status 2 "--validate with three arguments is a usage error"

# --bundle embeds what --refs provides: the bundle alone enforces the same.
ext=$data/refs-external
run_cli --bundle --refs "https://example.com/schemas/=$ext/refs" \
    "$ext/schema.json"
expect_status 0 "--bundle prints the bundled form"
cp "$TEST_TMP/out" "$TEST_TMP/bundle.json"
run_cli --validate "$TEST_TMP/bundle.json" "$ext/pass/ok.json"
expect_status 0 "the bundle accepts what the form with --refs accepts"
run_cli --validate "$TEST_TMP/bundle.json" "$ext/fail/currency.json"
expect_status 1 "the bundle rejects what the form with --refs rejects"
run_cli --validate "$ext/schema.json" "$ext/pass/ok.json"
expect_status 2 "without --refs the external reference refuses the form"

# --annotations declares a tool's keyword; x- names need no declaration.
printf '{"uiHint":"*x*","x-order":1,"type":"string"}\n' \
    >"$TEST_TMP/ann.json"
printf '"s"\n' >"$TEST_TMP/s.json"
run_cli --validate "$TEST_TMP/ann.json" "$TEST_TMP/s.json"
expect_status 2 "an undeclared annotation refuses the form"
expect_stderr_match 'annotations = NAME' "the refusal says how to declare it"
run_cli --validate --annotations uiHint,foo \
    "$TEST_TMP/ann.json" "$TEST_TMP/s.json"
expect_status 0 "a declared annotation is accepted"
# The annotation keywords of real tools (schemas/annotations.json) need no
# declaration; --check names each and its tool.
printf '{"type":"string","markdownDescription":"*x*","enumDescriptions":[],"tsType":"string","example":"a","externalDocs":{},"$default":{"$source":"argv"}}\n' \
    >"$TEST_TMP/known.json"
run_cli --validate "$TEST_TMP/known.json" "$TEST_TMP/s.json"
expect_status 0 "known tool annotations load without annotations ="
printf '{"discriminator":{"propertyName":"k"},"oneOf":[{"properties":{"k":{"const":"a"}}}]}\n' \
    >"$TEST_TMP/disc.json"
run_cli --validate "$TEST_TMP/disc.json" "$TEST_TMP/s.json"
expect_status 2 "discriminator refuses the form"
expect_stderr_match 'Pydantic v1 writes it beside oneOf.*annotations = discriminator' \
    "the refusal gives Pydantic v1's discriminator a fix"
printf '{"nullable":true}\n' >"$TEST_TMP/nullable.json"
run_cli --validate "$TEST_TMP/nullable.json" "$TEST_TMP/s.json"
expect_status 2 "nullable refuses the form"
expect_stderr_match '\[T, "null"\]' "the refusal gives nullable its fix"

# --dialect: the dialect of a form without $schema.
# A core keyword of a later dialect is no keyword of an earlier one
# ($anchor decides how the form is read); const is borrowed (warned).
printf '{"$anchor":"a"}\n' >"$TEST_TMP/defs.json"
run_cli --validate --dialect draft-07 "$TEST_TMP/defs.json" "$TEST_TMP/s.json"
expect_status 2 "\$anchor is refused under draft-07"
expect_stderr_match 'not part of draft-07' "the refusal names the dialect"
run_cli --validate --dialect 2019-09 "$TEST_TMP/defs.json" "$TEST_TMP/s.json"
expect_status 0 "\$anchor is accepted under 2019-09"
printf '{"const":"s"}\n' >"$TEST_TMP/const.json"
run_cli --validate --dialect draft-04 "$TEST_TMP/const.json" "$TEST_TMP/s.json"
expect_status 0 "const under draft-04 is enforced with its draft-06 meaning"
expect_stderr_match 'not a draft-04 keyword: enforced with its draft-06 meaning' \
    "the warning names the keyword and both dialects"
run_cli --validate --dialect draft-03 "$TEST_TMP/defs.json" "$TEST_TMP/s.json"
expect_status 2 "an unknown --dialect is a usage error"

# An address: address.conf's dialect, refs (inside the address) and
# annotations reach the compiler, and GET serves the bundle.
addr=$TEST_TMP/addr
mkdir -p "$addr/refs"
cp "$ext/refs/money.json" "$addr/refs/"
printf 'dialect = 2019-09\nrefs = https://example.com/schemas/=refs\n' \
    >"$addr/address.conf"
printf 'annotations = markdownDescription\n' >>"$addr/address.conf"
printf '{"p":"Pay","m":[],"s":{"type":"object","markdownDescription":"m",' \
    >"$addr/form.json"
printf '"properties":{"money":{"$ref":"https://example.com/schemas/' \
    >>"$addr/form.json"
printf 'money.json"}},"unevaluatedProperties":false}}\n' >>"$addr/form.json"
run_cli --check "$addr"
expect_status 0 "an address with dialect, refs and annotations loads"
expect_stdout_match 'markdownDescription" is an annotation' \
    "--check lists the keywords it treats as annotations"
printf 'dialect = 2019-09\n' >"$addr/address.conf"
run_cli --check "$addr"
expect_status 1 "without its refs and annotations the address is refused"

# --check reports every problem of a form, in document order, each with
# its pointer, reason and fix; exit 1.  The responder still stops at the
# first (the address is refused either way).
chk=$TEST_TMP/problems
mkdir -p "$chk"
printf '{"p":"x","m":[],"s":{"required":"a","properties":{"x":' \
    >"$chk/form.json"
printf '{"minLength":-1}},"minLenght":1}}\n' >>"$chk/form.json"
run_cli --check "$chk"
expect_status 1 "a form with three problems is refused"
grep -o 'refused \[form-refused\] at "#[^"]*"' "$TEST_TMP/out" | tr '\n' ' ' \
    >"$TEST_TMP/where"
expect_true "--check lists the three problems in document order" \
    grep -qx 'refused \[form-refused\] at "#/required" refused \[form-refused\] at "#/properties/x/minLength" refused \[form-refused\] at "#/minLenght" ' \
    "$TEST_TMP/where"
expect_stdout_match 'did you mean minLength?' "each problem keeps its fix"
expect_stdout_match 'minLength: minLength must be a non-negative integer' \
    "each problem keeps its reason and keyword"
# Past SCHEMA_PROBLEMS_MAX (100) the rest is counted.
{
	printf '{"p":"x","m":[],"s":{"properties":{'
	i=0
	while [ $i -lt 150 ]; do
		[ $i -gt 0 ] && printf ','
		printf '"p%d":{"minLength":-1}' $i
		i=$((i + 1))
	done
	printf '}}}\n'
} >"$chk/form.json"
run_cli --check "$chk"
expect_status 1 "a form with 150 problems is refused"
expect_true "--check prints the first 100 problems" \
    test "$(grep -c 'refused \[form-refused\]' "$TEST_TMP/out")" -eq 100
expect_stdout_match 'and 50 more problems' "then how many more"

# format: a name declared with annotations is an annotation; an unknown
# name still refuses the form.
printf '{"type":"string","format":"color-hex"}\n' >"$TEST_TMP/fmt.json"
run_cli --validate "$TEST_TMP/fmt.json" "$TEST_TMP/s.json"
expect_status 2 "an unknown format name refuses the form"
expect_stderr_match 'unknown format "color-hex"' "the refusal names it"
run_cli --validate --annotations color-hex "$TEST_TMP/fmt.json" \
    "$TEST_TMP/s.json"
expect_status 0 "a declared format name asserts nothing"
printf '{"p":"x","m":[],"s":{"type":"string","format":"color-hex"}}\n' \
    >"$chk/form.json"
run_cli --check "$chk"
expect_status 1 "--check refuses an undeclared format name"
printf 'annotations = color-hex\n' >"$chk/address.conf"
run_cli --check "$chk"
expect_status 0 "--check loads a form whose format name is declared"
expect_stdout_match 'format "color-hex" is an annotation' \
    "--check lists the format it treats as an annotation"

# --validate DIR loads the address as the server does: a directory the
# server answers 500 for is refused here too (exit 2), never accepted.
# Each case: a form.json, an address.conf (or "-"), a part of the reason.
printf '{"ok": true}' >"$TEST_TMP/any.json"
i=0
while IFS='|' read -r form conf why; do
	i=$((i + 1))
	d=$TEST_TMP/served$i
	mkdir -p "$d"
	printf '%s\n' "$form" >"$d/form.json"
	[ "$conf" = - ] || printf '%s\n' "$conf" >"$d/address.conf"
	code=$(env -i REQUEST_METHOD=GET GPT_ADDRESS="$d" "$GPT_FCGI" \
	    </dev/null 2>/dev/null | sed -n '1s/^Status: \([0-9]*\).*/\1/p')
	expect_true "served$i: the server answers 500 (got '$code')" \
	    test "$code" = 500
	run_cli --validate "$d" "$TEST_TMP/any.json"
	expect_status 2 "served$i: --validate refuses what the server refuses"
	expect_stderr_match "$why" "served$i: the reason is the server's"
done <<'EOF'
{"p": 1, "m": [], "s": {}}|-|not an arrival document
{"m": [], "s": {}}|-|and s (the form, a JSON Schema object); missing: p
{"p": "x", "m": [], "s": {}}|max_bdy = 1|address.conf
{"p": "x", "m": [], "s": {"type": "object"}}|dialect = nope|address.conf
EOF
# What the address's address.conf says applies (here its annotations),
# and options cannot override it.
d=$TEST_TMP/conf-applies
mkdir -p "$d"
printf '{"p": "x", "m": [], "s": {"type": "string", "format": "color-hex"}}\n' \
    >"$d/form.json"
printf '"red"' >"$TEST_TMP/red.json"
run_cli --validate "$d" "$TEST_TMP/red.json"
expect_status 2 "an undeclared format name refuses the address"
printf 'annotations = color-hex\n' >"$d/address.conf"
run_cli --validate "$d" "$TEST_TMP/red.json"
expect_status 0 "the address's annotations apply to --validate DIR"
run_cli --validate --annotations color-hex "$d" "$TEST_TMP/red.json"
expect_status 2 "options with an address DIR are a usage error"
expect_stderr_match 'from its address.conf' "the usage error says why"

# Every problem of a refused form, in document order, not only the first
# (as --check lists them): for a schema file and for an address.
printf '{"properties": {"a": {"minLenght": 1}, "b": {"type": "strnig"}, "c": {"maxItem": 2}}}\n' \
    >"$TEST_TMP/three.json"
d=$TEST_TMP/three
mkdir -p "$d"
printf '{"p": "x", "m": [], "s": ' >"$d/form.json"
cat "$TEST_TMP/three.json" >>"$d/form.json"
printf '}\n' >>"$d/form.json"
for target in "$TEST_TMP/three.json" "$d"; do
	run_cli --validate "$target" "$TEST_TMP/any.json"
	expect_status 2 "$(basename "$target"): refused"
	n=$(grep -c 'schema refused at' "$TEST_TMP/err")
	expect_true "$(basename "$target"): three problems reported (got $n)" \
	    test "$n" -eq 3
	order=$(sed -n 's/.*schema refused at \/properties\/\([a-c]\).*/\1/p' \
	    "$TEST_TMP/err" | tr -d '\n')
	expect_true "$(basename "$target"): in document order (got '$order')" \
	    test "$order" = abc
done

finish
