#!/bin/sh
# metrics.sh: the counts (GPT_METRICS_DIR) and the JSON log lines
# (GPT_LOG_FORMAT=json), under CGI and FastCGI, against a known mix of
# requests: the numbers in the files, each log line checked by our own
# strict validator against doc/log-line.schema.json, the bad settings
# refused, a missing directory reported once and a full disk (ulimit -f)
# losing no act's answer.  node_exporter reading the files is
# tests/metrics-scrape.sh (an integration test).
. "${GPT_SRCDIR:-.}/tests/lib.sh"
CGI_FCGI=${CGI_FCGI:-cgi-fcgi}
for tool in spawn-fcgi "$CGI_FCGI"; do
	command -v "$tool" >/dev/null 2>&1 || {
		echo "metrics.sh: $tool is required (Debian: spawn-fcgi, libfcgi-bin)"
		exit 1
	}
done

ROOT=$TEST_TMP/root
mkdir "$ROOT"
cp -R "$GPT_SRCDIR/tests/data/addresses/modes" "$ROOT/modes"
chmod -R u+w "$ROOT"
chmod 755 "$ROOT/modes/hook"
M=$TEST_TMP/metrics
mkdir "$M"
SCHEMA=$GPT_SRCDIR/doc/log-line.schema.json

# cgi METHOD STDIN [VAR=VALUE...]: one CGI request to /modes; sets code.
cgi() {
	_m=$1 _in=$2
	shift 2
	env -i REQUEST_METHOD="$_m" GPT_ROOT="$ROOT" PATH_INFO=/modes \
	    SERVER_PROTOCOL=HTTP/1.1 GPT_LOG_FORMAT=json "$@" \
	    timeout 20 "$GPT_FCGI" <"$_in" >"$TEST_TMP/resp" \
	    2>>"$TEST_TMP/log"
	status=$?
	code=$(sed -n '1s/^Status: \([0-9]*\).*/\1/p' "$TEST_TMP/resp")
}

# act TEXT [VAR=VALUE...]: a POST of TEXT as JSON.
act_cgi() {
	printf '%s' "$1" >"$TEST_TMP/in"
	shift
	cgi POST "$TEST_TMP/in" CONTENT_TYPE=application/json \
	    CONTENT_LENGTH="$(wc -c <"$TEST_TMP/in" | tr -d ' ')" "$@"
}

# value FILE METRIC LABELS: the sample's value ("" when absent).
value() {
	grep -F "$2{" "$1" | grep -F "$3" | sed 's/.* //' | head -n 1
}

expect_value() { # FILE METRIC LABELS WANT LABEL
	_got=$(value "$1" "$2" "$3")
	if [ "$_got" = "$4" ]; then pass; else
		fail "$5: $2 $3 is '$_got', expected $4"
	fi
}

# the_mix RUN: the known mix, through RUN (act_cgi or act_fcgi, and the
# matching get): 3 GETs as JSON, 2 as HTML, 1 answered 304; 2 acts
# accepted (hook ok), 1 whose hook exits 3, 1 whose hook prints "hello";
# rejected: 1 by size, 1 by content type, 1 by If-Match, 1 parse, 1
# duplicate name, 2 by the form.
the_mix() {
	_act=$1 _get=$2
	$_get
	$_get
	$_get
	$_get HTTP_ACCEPT=text/html
	$_get HTTP_ACCEPT=text/html
	$_get HTTP_IF_NONE_MATCH="$etag"
	$_act '{"mode":"echo"}' HTTP_GPT_ACTOR=tester
	$_act '{"mode":"echo","note":"x"}'
	$_act '{"mode":"exit"}'
	$_act '{"mode":"notjson"}'
	$_act "{\"mode\":\"echo\",\"note\":\"$(head -c 1100 /dev/zero | tr '\0' a)\"}"
	$_act '{"mode":"echo"}' CONTENT_TYPE=text/plain
	$_act '{"mode":"echo"}' HTTP_IF_MATCH='"stale"'
	$_act '{"mode":'
	$_act '{"mode":"echo","mode":"echo"}'
	$_act '{"mode":"nope"}'
	$_act '{}'
}

# check_mix FILE WHO: the counts of one mix in FILE.
check_mix() {
	_f=$1 _w=$2
	a="address=\"$ROOT/modes\""
	expect_value "$_f" gpt_fcgi_gets_total "$a,representation=\"json\"}" 3 "$_w"
	expect_value "$_f" gpt_fcgi_gets_total "$a,representation=\"html\"}" 2 "$_w"
	expect_value "$_f" gpt_fcgi_gets_total "$a,representation=\"304\"}" 1 "$_w"
	expect_value "$_f" gpt_fcgi_acts_accepted_total "$a}" 4 "$_w"
	for c in size content_type if_match parse duplicate_name; do
		expect_value "$_f" gpt_fcgi_acts_rejected_total \
		    "$a,class=\"$c\"}" 1 "$_w"
	done
	expect_value "$_f" gpt_fcgi_acts_rejected_total "$a,class=\"form\"}" 2 "$_w"
	expect_value "$_f" gpt_fcgi_hook_outcomes_total "$a,outcome=\"ok\"}" 2 "$_w"
	expect_value "$_f" gpt_fcgi_hook_outcomes_total "$a,outcome=\"nonzero\"}" 1 "$_w"
	expect_value "$_f" gpt_fcgi_hook_outcomes_total "$a,outcome=\"bad_answer\"}" 1 "$_w"
	expect_value "$_f" gpt_fcgi_hook_outcomes_total "$a,outcome=\"timeout\"}" 0 "$_w"
	expect_value "$_f" gpt_fcgi_hook_duration_seconds_count "$a}" 4 "$_w"
	expect_value "$_f" gpt_fcgi_hook_duration_seconds_bucket \
	    "$a,le=\"+Inf\"}" 4 "$_w"
}

# check_log WHO: every line of $TEST_TMP/log is one object our own
# strict validator accepts against the documented schema.
check_log() {
	_n=0 _bad=0
	while IFS= read -r _line; do
		_n=$((_n + 1))
		printf '%s' "$_line" >"$TEST_TMP/line"
		if ! "$GPT_FCGI" --validate "$SCHEMA" "$TEST_TMP/line" \
		    >/dev/null 2>"$TEST_TMP/verr"; then
			_bad=$((_bad + 1))
			fail "$1: log line $_n: $(cat "$TEST_TMP/verr"): $_line"
		fi
	done <"$TEST_TMP/log"
	expect_true "$1: the mix logged lines ($_n)" test "$_n" -ge 12
	expect_true "$1: no line is text" test "$_bad" -eq 0
}

etag=$(env -i REQUEST_METHOD=GET GPT_ROOT="$ROOT" PATH_INFO=/modes \
    "$GPT_FCGI" 2>/dev/null | tr -d '\r' | sed -n 's/^ETag: //p')
get_cgi() { cgi GET /dev/null GPT_METRICS_DIR="$M" "$@"; }
act_cgi_m() { act_cgi "$@" GPT_METRICS_DIR="$M"; }

# --- CGI: one shared file, one locked update per request ---------------
: >"$TEST_TMP/log"
the_mix act_cgi_m get_cgi
check_mix "$M/gpt-fcgi-cgi.prom" "CGI"
expect_value "$M/gpt-fcgi-cgi.prom" gpt_fcgi_gets_total \
    'process="cgi",' 3 "CGI: the series name the process"
grep "event\":\"act_rejected\"" "$TEST_TMP/log" >"$TEST_TMP/rej"
for c in size content_type if_match parse duplicate_name form; do
	expect_true "CGI: a JSON line with reason $c" \
	    grep -q "\"reason\":\"$c\"" "$TEST_TMP/rej"
done
expect_true "CGI: the actor is in the accepted act's line" \
    grep -q '"event":"hook","reason":"ok".*"actor":"tester".*"hook_ms":[0-9]' \
    "$TEST_TMP/log"
check_log "CGI"
expect_true "CGI: no temporary file is left" \
    test "$(find "$M" -name '.*' -type f | wc -l)" -eq 0

# Concurrent CGI processes lose no count: 40 GETs, 8 at a time.
rm -f "$M/gpt-fcgi-cgi.prom"
i=0
while [ $i -lt 5 ]; do
	j=0
	while [ $j -lt 8 ]; do
		env -i REQUEST_METHOD=GET GPT_ROOT="$ROOT" PATH_INFO=/modes \
		    GPT_METRICS_DIR="$M" "$GPT_FCGI" >/dev/null 2>&1 &
		j=$((j + 1))
	done
	wait
	i=$((i + 1))
done
expect_value "$M/gpt-fcgi-cgi.prom" gpt_fcgi_gets_total \
    "representation=\"json\"}" 40 "CGI: 40 concurrent GETs"

# A file that is not ours is started anew, with a warning.
echo 'some other text' >"$M/gpt-fcgi-cgi.prom"
: >"$TEST_TMP/log"
get_cgi
expect_true "CGI: a foreign file is reported" \
    grep -q 'is not a counts file of gpt.fcgi' "$TEST_TMP/log"
expect_value "$M/gpt-fcgi-cgi.prom" gpt_fcgi_gets_total \
    "representation=\"json\"}" 1 "CGI: a foreign file started anew"

# --- bad input ---------------------------------------------------------
# A missing directory: the act is answered, the failure reported.
: >"$TEST_TMP/log"
act_cgi '{"mode":"echo"}' GPT_METRICS_DIR="$TEST_TMP/none"
expect_true "CGI: a missing directory does not cost the answer ($code)" \
    test "$code" = 200
expect_true "CGI: a missing directory is reported" \
    grep -q 'metrics: cannot create' "$TEST_TMP/log"
# A full disk: every write of a file fails (EFBIG under ulimit -f 0, as
# ENOSPC on a full disk); the act's answer is whole.  Its address's hook
# writes no file (the limit is the hook's too); the answer and the log
# go through pipes, which the limit does not reach.
mkdir "$ROOT/plain"
printf '{"p": "anything", "m": [], "s": {"type": "object"}}' \
    >"$ROOT/plain/form.json"
printf '#!/bin/sh\nexec cat\n' >"$ROOT/plain/hook"
chmod 755 "$ROOT/plain/hook"
rm -f "$M/gpt-fcgi-cgi.prom"
printf '{"note":"full"}' >"$TEST_TMP/in"
{
	env -i REQUEST_METHOD=POST GPT_ROOT="$ROOT" PATH_INFO=/plain \
	    CONTENT_TYPE=application/json CONTENT_LENGTH=15 \
	    GPT_METRICS_DIR="$M" \
	    sh -c 'ulimit -f 0 && exec "$0"' "$GPT_FCGI" <"$TEST_TMP/in" \
	    2>&1 >&3 3>&- | cat >"$TEST_TMP/log"
} 3>&1 | cat >"$TEST_TMP/resp"
expect_true "CGI: a full disk keeps the act's answer" \
    grep -q '^Status: 200' "$TEST_TMP/resp"
expect_true "CGI: ... and its body" grep -q '^{"note":"full"}$' \
    "$TEST_TMP/resp"
expect_true "CGI: a full disk is reported" \
    grep -q 'metrics: cannot write.*File too large' "$TEST_TMP/log"
expect_true "CGI: a full disk leaves no temporary file" \
    test "$(find "$M" -name '.*' -type f | wc -l)" -eq 0

# Malformed settings refuse to start, with the reason (CGI: no answer,
# the web server's 500).
for v in "metrics" "./m" "/m
x"; do
	: >"$TEST_TMP/log"
	cgi GET /dev/null GPT_METRICS_DIR="$v"
	expect_true "GPT_METRICS_DIR='$v' refuses to start" \
	    test "$status" -eq 1 -a -z "$code"
	expect_true "GPT_METRICS_DIR='$v' says why" \
	    grep -q 'GPT_METRICS_DIR=.*not an absolute path' "$TEST_TMP/log"
done
for v in JSON logfmt "json "; do
	env -i REQUEST_METHOD=GET GPT_ROOT="$ROOT" PATH_INFO=/modes \
	    GPT_LOG_FORMAT="$v" "$GPT_FCGI" >"$TEST_TMP/resp" 2>"$TEST_TMP/err"
	status=$?
	expect_true "GPT_LOG_FORMAT='$v' refuses to start" \
	    test "$status" -eq 1 -a ! -s "$TEST_TMP/resp"
	expect_true "GPT_LOG_FORMAT='$v' says why" \
	    grep -q 'GPT_LOG_FORMAT=.*not text or json' "$TEST_TMP/err"
done

# --- FastCGI: one file per process, written when idle ------------------
SOCK=$TEST_TMP/sock
FM=$TEST_TMP/fmetrics
mkdir "$FM"
GPT_ROOT=$ROOT GPT_METRICS_DIR=$FM GPT_LOG_FORMAT=json \
    spawn-fcgi -s "$SOCK" -n -- "$GPT_FCGI" 2>"$TEST_TMP/server-log" &
pid=$!
trap 'stop_pid $pid; rm -rf "$TEST_TMP"' EXIT
i=0
while [ ! -S "$SOCK" ] && [ $i -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
fcgi_req() { # METHOD STDIN VAR=VALUE...
	_m=$1 _in=$2
	shift 2
	env -i REQUEST_METHOD="$_m" PATH_INFO=/modes SERVER_PROTOCOL=HTTP/1.1 \
	    "$@" timeout 20 "$CGI_FCGI" -bind -connect "$SOCK" <"$_in" \
	    >"$TEST_TMP/resp" 2>/dev/null
	code=$(sed -n '1s/^Status: \([0-9]*\).*/\1/p' "$TEST_TMP/resp")
}
get_fcgi() { fcgi_req GET /dev/null "$@"; }
act_fcgi() {
	printf '%s' "$1" >"$TEST_TMP/in"
	shift
	fcgi_req POST "$TEST_TMP/in" CONTENT_TYPE=application/json \
	    CONTENT_LENGTH="$(wc -c <"$TEST_TMP/in" | tr -d ' ')" "$@"
}
the_mix act_fcgi get_fcgi
F=$FM/gpt-fcgi-$pid.prom
# the first request wrote at once (nothing written before); the rest are
# written once the process has been idle for the interval
i=0
while [ $i -lt 100 ] && [ "$(value "$F" gpt_fcgi_acts_rejected_total \
    'class="form"}')" != 2 ]; do
	sleep 0.1
	i=$((i + 1))
done
check_mix "$F" "FastCGI"
expect_value "$F" gpt_fcgi_gets_total "process=\"fcgi-$pid\"," 3 \
    "FastCGI: the series name the process"
cp "$TEST_TMP/server-log" "$TEST_TMP/log"
check_log "FastCGI"
stop_pid "$pid"
expect_true "FastCGI: the file is removed when the process ends" \
    test ! -e "$F"

# A missing directory: every request answered, reported once.
rm -rf "$FM"
GPT_ROOT=$ROOT GPT_METRICS_DIR=$FM \
    spawn-fcgi -s "$SOCK.2" -n -- "$GPT_FCGI" 2>"$TEST_TMP/server-log" &
pid=$!
SOCK=$SOCK.2
i=0
while [ ! -S "$SOCK" ] && [ $i -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
ok=0
i=0
while [ $i -lt 20 ]; do
	get_fcgi
	[ "$code" = 200 ] && ok=$((ok + 1))
	i=$((i + 1))
done
sleep 5.5 # past the interval: written again, and failing again
get_fcgi
expect_true "FastCGI: a missing directory costs no answer ($ok of 20)" \
    test "$ok" -eq 20
expect_true "FastCGI: a missing directory is reported once" \
    test "$(grep -c 'metrics: cannot create' "$TEST_TMP/server-log")" -eq 1
mkdir "$FM"
i=0
while [ $i -lt 80 ] && [ ! -e "$FM/gpt-fcgi-$pid.prom" ]; do
	get_fcgi
	sleep 0.1
	i=$((i + 1))
done
# The file may have been written just before the last GET was counted: the
# next write comes once the process sits idle past the interval.
want=$((21 + i))
j=0
while [ $j -lt 20 ] && [ "$(value "$FM/gpt-fcgi-$pid.prom" gpt_fcgi_gets_total \
    'representation="json"}')" != "$want" ]; do
	sleep 0.5
	j=$((j + 1))
done
expect_value "$FM/gpt-fcgi-$pid.prom" gpt_fcgi_gets_total \
    'representation="json"}' "$want" \
    "FastCGI: the counts kept while the directory was missing"
expect_true "FastCGI: writing again is said" \
    grep -q 'metrics: writing .* again' "$TEST_TMP/server-log"
stop_pid "$pid"

finish
