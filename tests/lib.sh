# lib.sh: helpers for the shell tests.  Source it, call the checks, end with
# `finish`, which prints "N passed, N failed" and sets the exit status.
set -u
# the files a test makes are an operator's: an address others may write
# is refused (gpt-address(5))
umask 022
GPT_FCGI=${GPT_FCGI:-./gpt.fcgi}
GPT_SRCDIR=${GPT_SRCDIR:-.}
TEST_TMP=$(mktemp -d "${TMPDIR:-/tmp}/gpt-test.XXXXXX")
trap 'rm -rf "$TEST_TMP"' EXIT
passed=0
failed=0

pass() { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); echo "FAIL: $*" >&2; }

expect_true() { # expect_true LABEL CMD...
	_el=$1
	shift
	if "$@" >/dev/null 2>&1; then pass; else fail "$_el"; fi
}

# run_cli ARGS...: run the binary, keep status, stdout, stderr.
run_cli() {
	"$GPT_FCGI" "$@" >"$TEST_TMP/out" 2>"$TEST_TMP/err" </dev/null
	status=$?
}

# run_cli_in FILE ARGS...: the same with stdin from FILE.
run_cli_in() {
	_in=$1
	shift
	"$GPT_FCGI" "$@" >"$TEST_TMP/out" 2>"$TEST_TMP/err" <"$_in"
	status=$?
}

expect_status() {
	if [ "$status" -eq "$1" ]; then pass; else
		fail "$2: exit $status, expected $1 (stderr: $(head -c 300 "$TEST_TMP/err"))"
	fi
}

expect_stdout_match() {
	if grep -q -- "$1" "$TEST_TMP/out"; then pass; else
		fail "$2: stdout does not match $1"
	fi
}

expect_stderr_match() {
	if grep -q -- "$1" "$TEST_TMP/err"; then pass; else
		fail "$2: stderr does not match $1"
	fi
}

# expect_strict_json LABEL: the answer's body ($TEST_TMP/body, as cgi.sh
# and fcgi.sh split it) passes our own strict parser.
expect_strict_json() {
	if "$GPT_FCGI" --parse "$TEST_TMP/body" 2>"$TEST_TMP/parse-err"; then
		pass; else
		fail "$1: the body is not strict JSON ($(cat "$TEST_TMP/parse-err")):" \
		    "$(head -c 300 "$TEST_TMP/body")"
	fi
}

# alive PID: true while PID runs (a zombie counts as gone).  The state is
# the first field after the command name's closing parenthesis.
alive() {
	_st=$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null) || return 1
	case $_st in "" | Z*) return 1 ;; esac
	return 0
}

# stop_pid PID: TERM, wait at most 5 s, then KILL.
stop_pid() {
	kill "$1" 2>/dev/null || return 0
	_i=0
	while alive "$1" && [ "$_i" -lt 50 ]; do
		sleep 0.1
		_i=$((_i + 1))
	done
	if alive "$1"; then
		kill -9 "$1" 2>/dev/null
	fi
	return 0
}

finish() {
	echo "$passed passed, $failed failed"
	[ "$failed" -eq 0 ]
}
