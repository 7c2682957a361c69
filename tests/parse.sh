#!/bin/sh
# parse.sh: gpt.fcgi --parse over tests/data/parse/: every y_*.json is
# accepted (exit 0), every n_*.json rejected (exit 1, with the offset and
# reason on stderr); then stdin mode and usage errors (exit 2).
. "${GPT_SRCDIR:-.}/tests/lib.sh"

data="$GPT_SRCDIR/tests/data/parse"

for f in "$data"/y_*.json; do
	run_cli --parse "$f"
	expect_status 0 "accepts $(basename "$f")"
done

for f in "$data"/n_*.json; do
	run_cli --parse "$f"
	expect_status 1 "rejects $(basename "$f")"
	expect_stderr_match '^gpt.fcgi: offset [0-9][0-9]*: ' \
	    "$(basename "$f") names the offset"
done

# The offset and reason of one known rejection, exactly.
run_cli --parse "$data/n_duplicate_key.json"
expect_stderr_match '^gpt.fcgi: offset 9: duplicate member name$' \
    "a duplicate is reported at its name"

# Standard input, without FILE and with "-".
run_cli_in "$data/y_act_body.json" --parse
expect_status 0 "accepts a body on stdin"
run_cli_in "$data/n_two_values.json" --parse -
expect_status 1 "rejects a body on stdin (-)"
expect_stderr_match '^gpt.fcgi: offset 2: ' "stdin rejection names the offset"
printf '' >"$TEST_TMP/empty"
run_cli_in "$TEST_TMP/empty" --parse
expect_status 1 "rejects empty stdin"

# Accepted output is silent.
run_cli --parse "$data/y_act_body.json"
if [ -s "$TEST_TMP/out" ] || [ -s "$TEST_TMP/err" ]; then
	fail "an accepted body prints nothing"
else
	pass
fi

# Usage errors and unreadable files: 2.
run_cli --parse "$data/y_empty_object.json" extra
expect_status 2 "two files are a usage error"
expect_stderr_match 'usage:' "a usage error prints usage"
run_cli --parse "$TEST_TMP/no-such-file.json"
expect_status 2 "a missing file"
run_cli --parse "$TEST_TMP"
expect_status 2 "a directory"

# Deep nesting is a clean rejection, not a crash.
awk 'BEGIN { for (i = 0; i < 100000; i++) printf "[" }' >"$TEST_TMP/deep"
run_cli --parse "$TEST_TMP/deep"
expect_status 1 "100,000 '[' are rejected"
expect_stderr_match 'offset 128: nested too deeply' "at the 129th '['"

finish
