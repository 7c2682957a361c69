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
	if [ -f "$dir/refused" ]; then
		run_cli_in /dev/null --validate "$schema" -
		expect_status 2 "$name: the schema is refused"
		expect_stderr_fixed "$dir/refused" "$name: refusal reason"
		continue
	fi
	for f in "$dir"/pass/*.json; do
		[ -f "$f" ] || continue
		run_cli --validate "$schema" "$f"
		expect_status 0 "$name: accepts $(basename "$f")"
	done
	for f in "$dir"/fail/*.json; do
		[ -f "$f" ] || continue
		run_cli --validate "$schema" "$f"
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
expect_stderr_match '^gpt.fcgi: rejected at /name: minLength' \
    "the rejection names pointer and keyword"

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
expect_stderr_match 'no member "s"' "the missing s is named"

# Usage.
run_cli --validate
expect_status 2 "--validate without arguments is a usage error"
run_cli --validate a b c
expect_status 2 "--validate with three arguments is a usage error"

finish
