#!/bin/sh
# tasks-fcgi.sh: a task's event stream through one FastCGI process (the
# smallest pool) does not hold the process's other requests: a poll sent
# just after the stream is answered while the stream still runs, and the
# stream still ends with the completed task.  (A process serves the
# requests of all its connections one at a time; a stream, which lasts
# as long as its task, is served in a process of its own.)
. "${GPT_SRCDIR:-.}/tests/lib.sh"

for tool in spawn-fcgi cgi-fcgi; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		echo "tasks-fcgi.sh: $tool is required (Debian: spawn-fcgi, libfcgi-bin)"
		exit 1
	fi
done
CGI_FCGI=$(command -v cgi-fcgi)

ROOT=$TEST_TMP/root
SOCK=$TEST_TMP/gpt.sock
mkdir -p "$ROOT/long"
cp "$GPT_SRCDIR/examples/echo/form.json" "$ROOT/long/form.json"
printf 'act = task\ntask_poll = 1\n' >"$ROOT/long/address.conf"
# The hook says "waiting" on fd 3 and ends once the file go exists (at
# most 20 s).
cat >"$ROOT/long/hook" <<'HOOK'
#!/bin/sh
cat >/dev/null
printf '{"message": "waiting"}\n' >&3
i=0
while [ ! -e go ] && [ $i -lt 200 ]; do sleep 0.1; i=$((i + 1)); done
echo '{"done": true}'
HOOK
chmod 755 "$ROOT/long/hook"
: >"$TEST_TMP/empty"

GPT_ROOT=$ROOT spawn-fcgi -s "$SOCK" -n -- "$GPT_FCGI" \
    2>"$TEST_TMP/server-err" &
pid=$!
stop() {
	stop_pid "$pid"
	[ -z "${sse:-}" ] || stop_pid "$sse"
	touch "$ROOT/long/go"
	# the stream's process and the runner end with the task (20 s at
	# most); neither outlives the test's directory for long
	rm -rf "$TEST_TMP"
}
trap stop EXIT
i=0
while [ ! -S "$SOCK" ] && [ $i -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
if [ ! -S "$SOCK" ]; then
	echo "tasks-fcgi.sh: the FastCGI process did not start: $(cat "$TEST_TMP/server-err")"
	exit 1
fi

# fcgi METHOD QUERY STDIN OUT [VAR=VALUE...]: one request; OUT gets the
# answer.
fcgi() {
	_m=$1 _q=$2 _in=$3 _out=$4
	shift 4
	env -i REQUEST_METHOD="$_m" PATH_INFO=/long REQUEST_URI="/gpt/long${_q:+?$_q}" \
	    QUERY_STRING="$_q" SERVER_PROTOCOL=HTTP/1.1 REMOTE_ADDR=192.0.2.9 "$@" \
	    timeout 25 "$CGI_FCGI" -bind -connect "$SOCK" <"$_in" >"$_out" \
	    2>>"$TEST_TMP/err"
}

printf '{"note": "n"}' >"$TEST_TMP/act"
fcgi POST "" "$TEST_TMP/act" "$TEST_TMP/created" CONTENT_TYPE=application/json \
    CONTENT_LENGTH="$(wc -c <"$TEST_TMP/act" | tr -d ' ')"
expect_true "the act is a task (202)" grep -q '^Status: 202' "$TEST_TMP/created"
id=$(sed -n 's/^Location: .*task=\([0-9a-f]*\).*/\1/p' "$TEST_TMP/created" |
    tr -d '\r')
expect_true "its id ($id)" test ${#id} -eq 32

# The stream, then at once a poll.
fcgi GET "task=$id" "$TEST_TMP/empty" "$TEST_TMP/sse" \
    HTTP_ACCEPT=text/event-stream &
sse=$!
i=0
while ! grep -q '^event: task' "$TEST_TMP/sse" 2>/dev/null && [ $i -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
expect_true "the stream carries the task" grep -q '^event: task' "$TEST_TMP/sse"
# cgi-fcgi's own bound: 8 s, less than the hook's 20 s wait for go, which
# only comes after the poll.  A process that served the stream itself
# would answer the poll only when the stream ended.
env -i REQUEST_METHOD=GET PATH_INFO=/long REQUEST_URI="/gpt/long?task=$id" \
    QUERY_STRING="task=$id" SERVER_PROTOCOL=HTTP/1.1 REMOTE_ADDR=192.0.2.9 \
    timeout 8 "$CGI_FCGI" -bind -connect "$SOCK" <"$TEST_TMP/empty" \
    >"$TEST_TMP/poll" 2>>"$TEST_TMP/err"
expect_true "a poll while the stream runs is answered" \
    grep -q '^Status: 200' "$TEST_TMP/poll"
expect_true "... and says working" grep -q '"status":"working"' "$TEST_TMP/poll"
expect_true "the stream is still open" kill -0 "$sse"
touch "$ROOT/long/go"
wait "$sse"
sse=
expect_true "the stream ends with the completed task" \
    sh -c "grep '^data:' '$TEST_TMP/sse' | tail -n 1 | grep -q '\"status\":\"completed\"'"
expect_true "the FastCGI process lives" kill -0 "$pid"
# A poll after: the process serves on.
fcgi GET "task=$id" "$TEST_TMP/empty" "$TEST_TMP/poll"
expect_true "a poll after: completed" grep -q '"status":"completed"' "$TEST_TMP/poll"

finish
