#!/bin/sh
# tasks.sh: long-running acts and Idempotency-Key through the built binary
# as a CGI program: the 202 and its Location, the task's document while
# working and once completed (progress from fd 3, the result), ETag and
# 304, HEAD, the event stream, DELETE (cancel, then 409), a runner killed
# (-9) becoming "runner lost", every 404 of a task id, 405, a store that
# cannot be written (503, the hook not run), act = either with Prefer,
# and keys: replay, another body (422), in use (409), malformed (400).
. "${GPT_SRCDIR:-.}/tests/lib.sh"

ROOT=$TEST_TMP/root
mkdir -p "$ROOT"

# make_address NAME CONF HOOK-BODY: an echo form, address.conf CONF, and a
# hook running HOOK-BODY under sh.
make_address() {
	mkdir -p "$ROOT/$1"
	cp "$GPT_SRCDIR/examples/echo/form.json" "$ROOT/$1/form.json"
	printf '%b' "$2" >"$ROOT/$1/address.conf"
	printf '#!/bin/sh\n%s\n' "$3" >"$ROOT/$1/hook"
	chmod 755 "$ROOT/$1/hook"
}

# The task hook: records its pid, says two steps on fd 3 (and a line of
# garbage), waits for the file "go" (at most 10 s), then echoes the act.
make_address slow 'act = task\ntask_poll = 1\n' '
echo $$ >pid
body=$(cat)
printf "%s\n" "{\"message\": \"step one\", \"progress\": 0.25}" >&3
printf "%s\n" "not json at all" >&3
printf "%s\n" "{\"message\": \"step two\", \"progress\": 0.5}" >&3
i=0
while [ ! -e go ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
rm -f go
echo ran >>ran
printf "{\"echo\": %s}\n" "$body"'
make_address either 'act = either\n' 'echo ran >>ran; cat'
make_address answer '' 'echo ran >>ran; sleep "$(cat delay 2>/dev/null || echo 0)"; cat'
make_address broken "act = task\nstore = form.json\n" 'echo ran >>ran; cat'

# cgi METHOD ADDRESS QUERY STDIN [VAR=VALUE...]: one request; sets code,
# $TEST_TMP/head (no CRs) and $TEST_TMP/body.
cgi() {
	_m=$1 _a=$2 _q=$3 _in=$4
	shift 4
	env -i GATEWAY_INTERFACE=CGI/1.1 REQUEST_METHOD="$_m" GPT_ROOT="$ROOT" \
	    PATH_INFO="/$_a" REQUEST_URI="/gpt/$_a${_q:+?$_q}" \
	    QUERY_STRING="$_q" "$@" timeout 30 \
	    "$GPT_FCGI" <"$_in" >"$TEST_TMP/resp" 2>>"$TEST_TMP/err"
	sed '/^\r$/q' "$TEST_TMP/resp" | tr -d '\r' >"$TEST_TMP/head"
	sed '1,/^\r$/d' "$TEST_TMP/resp" >"$TEST_TMP/body"
	code=$(sed -n '1s/^Status: \([0-9]*\).*/\1/p' "$TEST_TMP/head")
}

# act ADDRESS TEXT [VAR=VALUE...]: POST TEXT as a JSON act.
act() {
	_a=$1
	printf '%s' "$2" >"$TEST_TMP/in"
	shift 2
	cgi POST "$_a" "" "$TEST_TMP/in" CONTENT_TYPE=application/json \
	    CONTENT_LENGTH="$(wc -c <"$TEST_TMP/in" | tr -d ' ')" "$@"
}

# poll ADDRESS ID [VAR=VALUE...]: GET the task.
poll() {
	_a=$1 _i=$2
	shift 2
	cgi GET "$_a" "task=$_i" /dev/null "$@"
}

expect_code() {
	if [ "$code" = "$1" ]; then pass; else
		fail "$2: status $code, expected $1 ($(head -c 200 "$TEST_TMP/body"))"
	fi
}

expect_head() { # expect_head REGEX LABEL
	if grep -q -- "$1" "$TEST_TMP/head"; then pass; else
		fail "$2: no header matching $1 in: $(tr '\n' '|' <"$TEST_TMP/head")"
	fi
}

expect_body() { # expect_body REGEX LABEL
	if grep -q -- "$1" "$TEST_TMP/body"; then pass; else
		fail "$2: body does not match $1: $(head -c 300 "$TEST_TMP/body")"
	fi
}

field() { # field NAME: a string or number member of the body's document
	sed -n "s/.*\"$1\":\"\{0,1\}\([^\",}]*\).*/\1/p" "$TEST_TMP/body"
}

# wait_status ADDRESS ID STATUS: poll (at most 10 s) until STATUS.
wait_status() {
	_n=0
	while [ "$_n" -lt 100 ]; do
		poll "$1" "$2"
		[ "$(field status)" = "$3" ] && return 0
		sleep 0.1
		_n=$((_n + 1))
	done
	return 1
}

# Runners live on their own: at the end, end those of this test (their pid in
# the records, their binary ours), so nothing outlives it.
stop_runners() {
	for _r in "$ROOT"/*/.store/t-*; do
		[ -f "$_r" ] || continue
		_p=$(head -n 1 "$_r" | cut -d ' ' -f 8)
		case $_p in '' | 0 | *[!0-9]*) continue ;; esac
		if [ "$(readlink "/proc/$_p/exe" 2>/dev/null)" = \
		    "$(readlink -f "$GPT_FCGI")" ]; then
			kill -9 "$_p" 2>/dev/null
		fi
	done
	for _h in "$ROOT"/*/pid; do
		[ -f "$_h" ] && kill -9 "$(cat "$_h")" 2>/dev/null
	done
}
trap 'stop_runners; rm -rf "$TEST_TMP"' EXIT

# --- a task: 202, progress, completion --------------------------------
act slow '{"note": "first"}'
expect_code 202 "a task act is accepted"
loc=$(sed -n 's/^Location: //p' "$TEST_TMP/head")
id=${loc##*task=}
expect_true "Location names the address and a 32-hex id ($loc)" \
    sh -c "printf '%s' '$loc' | grep -Eq '^/gpt/slow[?]task=[0-9a-f]{32}$'"
expect_head '^Retry-After: 1$' "the 202 says when to look"
expect_head '^Content-Type: application/json' "the 202's body is JSON"
expect_body '"status":"working"' "the 202's body says working"
expect_body "\"task\":\"$id\"" "the 202's body names the task"
expect_body '"pollInterval":1000' "the 202's body gives pollInterval in ms"
"$GPT_FCGI" --parse "$TEST_TMP/body" >/dev/null 2>&1 && pass ||
	fail "the 202's body is strict JSON"
n=0
while [ ! -s "$ROOT/slow/pid" ] && [ $n -lt 100 ]; do sleep 0.1; n=$((n + 1)); done
n=0
while [ $n -lt 100 ]; do
	poll slow "$id"
	grep -q 'step two' "$TEST_TMP/body" && break
	sleep 0.1
	n=$((n + 1))
done
expect_code 200 "the task answers GET"
expect_body '"statusMessage":"step two"' "the last good fd 3 line is the statusMessage"
expect_body '"progress":0.5' "and its progress"
expect_true "a garbage fd 3 line is logged" \
    grep -q 'progress line on fd 3 ignored: not strict JSON' "$ROOT/slow/.store/runner.log" "$TEST_TMP/err"
etag=$(sed -n 's/^ETag: //p' "$TEST_TMP/head")
poll slow "$id" HTTP_IF_NONE_MATCH="$etag"
expect_code 304 "If-None-Match with the task's ETag"
cgi HEAD slow "task=$id" /dev/null
expect_code 200 "HEAD of a task"
expect_true "HEAD has no body" test ! -s "$TEST_TMP/body"
cgi POST slow "task=$id" /dev/null
expect_code 405 "POST at a task"
expect_head '^Allow: GET, HEAD, DELETE$' "the 405 says what a task allows"
touch "$ROOT/slow/go"
wait_status slow "$id" completed && pass || fail "the task completes"
expect_body '"result":{"echo": {"note": "first"}}' "the result is the hook's output"
poll slow "$id" HTTP_IF_NONE_MATCH="$etag"
expect_code 200 "a changed task no longer matches the old ETag"
cgi DELETE slow "task=$id" /dev/null
expect_code 409 "DELETE of a completed task"
expect_body '"status":"completed"' "the 409 shows the task"
expect_true "the hook ran once" test "$(wc -l <"$ROOT/slow/ran")" -eq 1

# --- the event stream -------------------------------------------------
rm -f "$ROOT/slow/pid"
act slow '{"note": "streamed"}'
id=$(sed -n 's/^Location: .*task=//p' "$TEST_TMP/head")
(sleep 1; touch "$ROOT/slow/go") &
poll slow "$id" HTTP_ACCEPT=text/event-stream
wait
expect_code 200 "an event stream"
expect_head '^Content-Type: text/event-stream' "its type"
expect_head '^X-Accel-Buffering: no' "it asks proxies not to buffer"
expect_body '^event: task$' "events are named task"
expect_body '^data: {.*"status":"working"' "an event while working"
expect_body '^data: {.*"status":"completed".*"result"' "and the last, completed"
expect_true "the stream ends after the final status" \
    test "$(grep -c '^event: task' "$TEST_TMP/body")" -ge 2

# --- cancel -----------------------------------------------------------
rm -f "$ROOT/slow/pid"
act slow '{"note": "cancel me"}'
id=$(sed -n 's/^Location: .*task=//p' "$TEST_TMP/head")
n=0
while [ ! -s "$ROOT/slow/pid" ] && [ $n -lt 100 ]; do sleep 0.1; n=$((n + 1)); done
hook=$(cat "$ROOT/slow/pid")
cgi DELETE slow "task=$id" /dev/null
expect_code 200 "DELETE of a working task"
expect_body '"status":"cancelled"' "it is cancelled"
expect_true "the hook is gone after the cancel" sh -c "! kill -0 $hook"
cgi DELETE slow "task=$id" /dev/null
expect_code 409 "DELETE of a cancelled task"
expect_true "the cancelled act never finished" test "$(wc -l <"$ROOT/slow/ran")" -eq 2

# --- a runner killed: runner lost -------------------------------------
rm -f "$ROOT/slow/pid"
act slow '{"note": "orphan"}'
id=$(sed -n 's/^Location: .*task=//p' "$TEST_TMP/head")
n=0
while [ ! -s "$ROOT/slow/pid" ] && [ $n -lt 100 ]; do sleep 0.1; n=$((n + 1)); done
rec=$(grep -l "$id" "$ROOT"/slow/.store/t-*)
runner=$(head -n 1 "$rec" | cut -d ' ' -f 8)
expect_true "the record names the runner ($runner)" \
    test "$(readlink "/proc/$runner/exe")" = "$(readlink -f "$GPT_FCGI")"
kill -9 "$runner"
n=0
while kill -0 "$runner" 2>/dev/null && [ $n -lt 50 ]; do sleep 0.1; n=$((n + 1)); done
poll slow "$id"
expect_body '"status":"failed"' "a task whose runner died is failed at once"
expect_body '"reason":"runner lost"' "with reason runner lost"
kill -9 "$(cat "$ROOT/slow/pid")" 2>/dev/null
rm -f "$ROOT/slow/pid"

# --- 404s -------------------------------------------------------------
poll slow 0123456789abcdef0123456789abcdef
expect_code 404 "an unknown task id"
poll slow xyz
expect_code 404 "a malformed task id"
poll slow ""
expect_code 404 "an empty task id"
poll answer "$id"
expect_code 404 "a task id at another address"
# An expired task: its record says so (the sweep removes it later).
act slow '{"note": "expiring"}'
id=$(sed -n 's/^Location: .*task=//p' "$TEST_TMP/head")
touch "$ROOT/slow/go"
wait_status slow "$id" completed
rec=$(grep -l "$id" "$ROOT"/slow/.store/t-*)
sed '1s/^gpt-task 1 [0-9]* /gpt-task 1 1000 /' "$rec" >"$rec.new" &&
	mv "$rec.new" "$rec"
poll slow "$id"
expect_code 404 "an expired task"
expect_true "no 404 says which kind it was" test ! -s "$TEST_TMP/body"

# --- the store cannot take the act: 503, nothing runs -------------------
act broken '{"note": "x"}'
expect_code 503 "a store that cannot be written"
expect_true "the hook did not run" test ! -e "$ROOT/broken/ran"

# --- act = either -----------------------------------------------------
act either '{"note": "now"}'
expect_code 200 "act = either answers at once without Prefer"
act either '{"note": "later"}' HTTP_PREFER='respond-async, wait=5'
expect_code 202 "act = either with Prefer: respond-async"
expect_head '^Preference-Applied: respond-async$' "says the preference was applied"
id=$(sed -n 's/^Location: .*task=//p' "$TEST_TMP/head")
wait_status either "$id" completed && pass || fail "the either task completes"
act answer '{"note": "x"}' HTTP_PREFER=respond-async
expect_code 200 "act = answer ignores Prefer"

# --- Idempotency-Key --------------------------------------------------
: >"$ROOT/answer/ran"
act answer '{"note": "pay"}' HTTP_IDEMPOTENCY_KEY=k-1
expect_code 200 "a first act with a key"
cp "$TEST_TMP/body" "$TEST_TMP/first"
act answer '{"note": "pay"}' HTTP_IDEMPOTENCY_KEY=k-1
expect_code 200 "the retry gets the same status"
expect_head '^Idempotent-Replayed: true$' "marked as replayed"
expect_true "and the same body" cmp -s "$TEST_TMP/first" "$TEST_TMP/body"
expect_true "the hook ran once for the key" test "$(wc -l <"$ROOT/answer/ran")" -eq 1
act answer '{"note": "pay twice"}' HTTP_IDEMPOTENCY_KEY=k-1
expect_code 422 "the key with another body"
act answer '{"note": "pay"}' 'HTTP_IDEMPOTENCY_KEY="k-1"'
expect_code 200 "the key as a structured-field string is the same key"
expect_head '^Idempotent-Replayed: true$' "and replays"
echo 2 >"$ROOT/answer/delay"
act answer '{"note": "slow"}' HTTP_IDEMPOTENCY_KEY=k-2 &
sleep 0.7
act answer '{"note": "slow"}' HTTP_IDEMPOTENCY_KEY=k-2
expect_code 409 "a retry while the first act runs"
wait
rm -f "$ROOT/answer/delay"
act answer '{"note": "slow"}' HTTP_IDEMPOTENCY_KEY=k-2
expect_code 200 "after it, the stored answer"
expect_head '^Idempotent-Replayed: true$' "replayed"
act answer '{"note": "x"}' HTTP_IDEMPOTENCY_KEY="$(head -c 256 /dev/zero | tr '\0' a)"
expect_code 400 "a key of 256 bytes"
act answer '{"note": "x"}' HTTP_IDEMPOTENCY_KEY="$(head -c 255 /dev/zero | tr '\0' a)"
expect_code 200 "a key of 255 bytes"
act answer '{"note": "x"}' HTTP_IDEMPOTENCY_KEY="$(printf 'a\tb')"
expect_code 400 "a key with a control byte"
act answer '{"note": "x"}' HTTP_IDEMPOTENCY_KEY=
expect_code 400 "an empty key"
act answer '{"note": ""}' HTTP_IDEMPOTENCY_KEY=k-3
expect_code 204 "a rejected act with a key is rejected"
act answer '{"note": "fine"}' HTTP_IDEMPOTENCY_KEY=k-3
expect_code 200 "a rejected act stores nothing under its key"
# A task act under a key: the retry gets the same task.
act slow '{"note": "keyed"}' HTTP_IDEMPOTENCY_KEY=t-1
expect_code 202 "a task act with a key"
loc1=$(sed -n 's/^Location: //p' "$TEST_TMP/head")
act slow '{"note": "keyed"}' HTTP_IDEMPOTENCY_KEY=t-1
expect_code 202 "its retry"
loc2=$(sed -n 's/^Location: //p' "$TEST_TMP/head")
expect_true "the retry names the same task" test "$loc1" = "$loc2"
touch "$ROOT/slow/go"
wait_status slow "${loc1##*task=}" completed

finish
