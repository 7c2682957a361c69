#!/bin/sh
# servers-tasks.sh: long-running acts through real servers: lighttpd with
# mod_cgi, lighttpd with mod_fastcgi, nginx with a spawn-fcgi pool, each
# with the shipped configuration.  For each: a 10-second hook with
# progress, polled and streamed (the stream must arrive while the task
# works, not at its end); a cancel; kill -9 of the runner mid-task, which
# ends failed ("runner lost"); and a restart of every gpt.fcgi process
# (and the web server) mid-task, after which the task still completes.
. "${GPT_SRCDIR:-.}/tests/servers-common.sh"
need lighttpd nginx spawn-fcgi

if [ "$(id -u)" -eq 0 ]; then
	users="APPUSER=daemon APPGROUP=daemon WEBUSER=www-data WEBGROUP=www-data"
else
	users="APPUSER=$(id -un) APPGROUP=$(id -gn) WEBUSER=$(id -un) WEBGROUP=$(id -gn)"
fi

# long ROOT: the task address: every act a task, a hook of 10 steps of a
# second, each said on fd 3, that echoes the act at the end.
long() {
	mkdir -p "$1/long"
	cp "$GPT_SRCDIR/examples/echo/form.json" "$1/long/form.json"
	printf 'act = task\ntask_poll = 1\n' >"$1/long/address.conf"
	cat >"$1/long/hook" <<'HOOK'
#!/bin/sh
echo $$ >"data/pid.$$"
body=$(cat)
i=1
while [ $i -le 10 ]; do
	printf '{"message": "step %d of 10", "progress": %s}\n' $i \
	    "$(echo "$i" | awk '{printf "%.1f", $1 / 10}')" >&3
	sleep 1
	i=$((i + 1))
done
printf '{"done": %s}\n' "$body"
HOOK
	chmod -R a+rX,go-w "$1/long"
	chmod 755 "$1/long/hook"
	store_for_app "$1/long"
}

# store_for_app ADDRESS: data/ for the hook to write in, and the store
# made for the user gpt.fcgi runs as (as root: daemon under spawn-fcgi,
# root under lighttpd, which may write anywhere); the address itself
# stays writable by its owner only, or it is refused.
store_for_app() {
	mkdir -p "$1/data" "$1/.store"
	chmod 777 "$1/data"
	chmod 700 "$1/.store"
	if [ "$(id -u)" -eq 0 ]; then
		chown daemon:daemon "$1/.store"
	fi
}

# task_state BASE ID: GET the task; sets $code, $state (its status) and
# $msg (its statusMessage).
task_state() {
	req GET "$1/long?task=$2"
	state=$(jq -r '.status // empty' "$TEST_TMP/b" 2>/dev/null)
	msg=$(jq -r '.statusMessage // empty' "$TEST_TMP/b" 2>/dev/null)
}

# new_task BASE: POST an act; sets $id from the Location.
new_task() {
	printf '{"note": "%s"}' "$2" >"$TEST_TMP/act.json"
	post "$1/long" "$TEST_TMP/act.json"
	id=$(header Location | sed 's/.*task=//')
}

# runner_of ROOT ID: the runner's pid, from the task's record.
runner_of() {
	grep -l "$2" "$1"/long/.store/t-* 2>/dev/null | head -n 1 |
	    xargs head -n 1 | cut -d ' ' -f 8
}

# task_checks NAME BASE ROOT RESTART: the four scenarios; RESTART is a
# command that stops and starts every gpt.fcgi process and the server.
task_checks() {
	_n=$1 _b=$2 _r=$3 _restart=$4

	# 1. polled and streamed
	new_task "$_b" polled
	expect_code 202 "$_n: a task act"
	expect_header Location "/gpt/long?task=[0-9a-f]\{32\}" "$_n: its Location"
	curl -sN --max-time 30 -H 'Accept: text/event-stream' \
	    "$_b/long?task=$id" >"$TEST_TMP/$_n.sse" 2>/dev/null &
	sse=$!
	seen=
	_i=0
	while [ $_i -lt 25 ]; do
		task_state "$_b" "$id"
		[ -n "$msg" ] && case " $seen " in *" $msg "*) ;; *) seen="$seen|$msg" ;; esac
		[ "$state" = completed ] && break
		if [ $_i -eq 4 ]; then
			cp "$TEST_TMP/$_n.sse" "$TEST_TMP/$_n.sse.early"
		fi
		sleep 1
		_i=$((_i + 1))
	done
	expect_true "$_n: the 10-second task completes ($state)" \
	    test "$state" = completed
	expect_true "$_n: the result is the hook's" \
	    jq -e '.result.done.note == "polled"' "$TEST_TMP/b"
	_k=$(printf '%s' "$seen" | tr '|' '\n' | grep -c 'step')
	expect_true "$_n: polls saw the progress move ($_k messages)" \
	    test "$_k" -ge 5
	wait "$sse"
	expect_true "$_n: the stream was flowing while the task worked" \
	    grep -q '"status":"working"' "$TEST_TMP/$_n.sse.early"
	_k=$(grep -c '^event: task' "$TEST_TMP/$_n.sse")
	expect_true "$_n: the stream carried every step ($_k events)" \
	    test "$_k" -ge 10
	expect_true "$_n: the stream ends with the completed task" \
	    sh -c "grep '^data:' '$TEST_TMP/$_n.sse' | tail -n 1 |
	        grep -q '\"status\":\"completed\"'"

	# 2. cancel
	new_task "$_b" cancelled
	sleep 1.5
	req DELETE "$_b/long?task=$id"
	expect_code 200 "$_n: DELETE of a working task"
	expect_true "$_n: it is cancelled" \
	    jq -e '.status == "cancelled"' "$TEST_TMP/b"
	_left=0
	for _p in "$_r"/long/data/pid.*; do
		[ -f "$_p" ] || continue
		kill -0 "$(cat "$_p")" 2>/dev/null && _left=$((_left + 1))
	done
	expect_true "$_n: no hook runs after the cancel ($_left)" test "$_left" -eq 0
	req DELETE "$_b/long?task=$id"
	expect_code 409 "$_n: DELETE of a cancelled task"

	# 3. kill -9 of the runner
	new_task "$_b" orphaned
	sleep 1.5
	_run=$(runner_of "$_r" "$id")
	expect_true "$_n: the record names a live runner ($_run)" \
	    kill -0 "${_run:-0}"
	kill -9 "$_run" 2>/dev/null
	sleep 0.3
	task_state "$_b" "$id"
	expect_true "$_n: a killed runner's task is failed ($state)" \
	    test "$state" = failed
	expect_true "$_n: reason runner lost" \
	    jq -e '.reason == "runner lost"' "$TEST_TMP/b"
	for _p in "$_r"/long/data/pid.*; do
		[ -f "$_p" ] && kill -9 "$(cat "$_p")" 2>/dev/null
	done

	# 4. restart every gpt.fcgi process mid-task
	new_task "$_b" restarted
	sleep 2
	$_restart
	_i=0
	while [ $_i -lt 25 ]; do
		task_state "$_b" "$id"
		[ "$state" = completed ] && break
		sleep 1
		_i=$((_i + 1))
	done
	expect_true "$_n: after a restart the task still completes ($state)" \
	    test "$state" = completed
	expect_true "$_n: with its result" \
	    jq -e '.result.done.note == "restarted"' "$TEST_TMP/b"
}

# --- lighttpd: CGI and FastCGI ------------------------------------------
# start_lighttpd NAME CONF: (re)start lighttpd in $TEST_TMP/NAME; sets
# $base, $root, $lpid.
start_lighttpd() {
	_t=$TEST_TMP/$1
	lighttpd -D -f "$_t/lighttpd.conf" >>"$_t/stdout" 2>&1 &
	lpid=$!
	started $lpid
	base=http://127.0.0.1:$port/gpt
	root=$_t/root
	wait_ready "$base/echo" || { cat "$_t"/*.log >&2; exit 1; }
}

setup_lighttpd() {
	_t=$TEST_TMP/$1
	mkdir -p "$_t"
	chmod 755 "$_t"
	install_bin "$_t/bin"
	make_root "$_t/root"
	long "$_t/root"
	port=$(free_port)
	render "$2" "$_t/lighttpd.conf" PORT="$port" ROOT="$_t/root" \
	    BIN="$_t/bin/gpt.fcgi" TMP="$_t"
	start_lighttpd "$1"
}

# restart_lighttpd: stop lighttpd (it stops the FastCGI processes it
# spawned) and start it again.
restart_lighttpd() {
	_kids=$(pgrep -P "$lpid")
	stop_pid "$lpid"
	for _k in $_kids; do stop_pid "$_k"; done
	start_lighttpd "$current"
}

current=lighttpd-cgi
setup_lighttpd "$current" lighttpd-cgi.conf
task_checks lighttpd-cgi "$base" "$root" restart_lighttpd
stop_started

current=lighttpd-fastcgi
setup_lighttpd "$current" lighttpd-fastcgi.conf
n=$(pgrep -P "$lpid" | wc -l)
expect_true "lighttpd-fastcgi: it spawned its FastCGI processes ($n)" \
    test "$n" -ge 1
task_checks lighttpd-fastcgi "$base" "$root" restart_lighttpd
stop_started

# --- nginx with a spawn-fcgi pool ---------------------------------------
_t=$TEST_TMP/nginx
mkdir -p "$_t"
chmod 755 "$_t"
install_bin "$_t/bin"
make_root "$_t/root"
long "$_t/root"
port=$(free_port)
# shellcheck disable=SC2086
render nginx-fastcgi.conf "$_t/nginx.conf" PORT="$port" ROOT="$_t/root" \
    TMP="$_t" BIN="$_t/bin/gpt.fcgi" $users
spawn=$(sed -n 's/^#   \(spawn-fcgi -F .*\)$/\1/p' "$_t/nginx.conf")
if [ "$(id -u)" -ne 0 ]; then
	spawn=$(printf '%s\n' "$spawn" | sed 's/ -[ugUG] [^ ]*//g')
fi
start_pool() {
	$spawn >>"$_t/spawn.log" 2>&1
	pool=$(cat "$_t/gpt.pid")
	# shellcheck disable=SC2086
	started $pool
}
start_pool
nginx -p "$_t" -e "$_t/nginx-error.log" -c "$_t/nginx.conf" \
    >"$_t/stdout" 2>&1 &
started $!
base=http://127.0.0.1:$port/gpt
wait_ready "$base/echo" || { cat "$_t"/*.log >&2; exit 1; }
# restart_pool: stop every gpt.fcgi process of the pool, start a new one.
restart_pool() {
	for _p in $pool; do stop_pid "$_p"; done
	_alive=0
	for _p in $pool; do alive "$_p" && _alive=$((_alive + 1)); done
	expect_true "nginx: the old pool is gone ($_alive left)" test "$_alive" -eq 0
	start_pool
}
task_checks nginx "$base" "$_t/root" restart_pool
stop_started

finish
