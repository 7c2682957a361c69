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

finish
