#!/bin/sh
# responder.sh: how fast gpt.fcgi answers behind a real web server, against
# floors and a baseline measured in the same run (this machine's speed
# swings from minute to minute, so only same-run ratios mean anything).
#
# nginx (an ordinary process, its files in a temp dir) passes requests to
# FastCGI processes started by spawn-fcgi on unix sockets; wrk loads them.
# Cases, in ROUNDS rounds of DURATION runs; each comparison runs A B B A:
#   static        nginx serving the arrival document's bytes as a file
#   gpt cached GET  nginx with the arrival cache of
#                 examples/servers/nginx-cache.conf (its own nginx process)
#                 in front of gpt.fcgi, GET of the form: all but a few
#                 requests a second are cache hits.  Measured with the
#                 access log off, as the static baseline has it, and
#                 (context) with the buffered access log as shipped
#   floor GET     bench/floor (libfcgi, precomputed bytes), GET
#   gpt GET       gpt.fcgi, GET (the same bytes)
#   floor POST    bench/floor draining the rejected act's body, writing
#                 the line gpt.fcgi logs for it to the error stream, 204
#                 (both then read and write the same bytes, until
#                 gpt.fcgi's rate limit of rejection lines, 10 then 5 a
#                 second, leaves its line out: a line it drops costs no
#                 write, so this floor is then the harder one)
#   gpt rejected  gpt.fcgi, a small act that fails the form: 204
#   floor POST silent  the same without the log line (context: what the
#                 line costs the web server)
#   gpt accepted  gpt.fcgi, a small act and a 200 KB act; the hook is a
#                 copy of cat (stdin to stdout)
#   fastify       fastify + ajv, the same acts and the same hook (wrk
#                 straight to node, no nginx in between)
# The floor and gpt.fcgi are also compared without nginx (direct_*): the
# FastCGI client of the soak test sends DIRECT_COUNT requests one at a time.
# Each run also records the CPU time the FastCGI processes spent per
# request (/proc/PID/schedstat), which other work on the machine sways
# much less than requests per second.
# Then the system calls per request of each application (strace -c), and
# the CGI path: one GET through gpt.fcgi run as a CGI program against
# bench/cgi_floor printing the same bytes (hyperfine, many runs).
#
# Environment: GPT_FCGI, GPT_SRCDIR, GPT_BUILDDIR (set by make bench);
# ROUNDS (7), DURATION (2s), CONNS (16), PROCS (FastCGI processes per
# application, 2), DIRECT_COUNT (10000), STRACE_COUNT (2000), CGI_ROUNDS
# (10) of CGI_RUNS (100) runs.
set -u
GPT_FCGI=${GPT_FCGI:-./gpt.fcgi}
GPT_SRCDIR=${GPT_SRCDIR:-.}
GPT_BUILDDIR=${GPT_BUILDDIR:-.}
. "$GPT_SRCDIR/bench/lib.sh"
ROUNDS=${ROUNDS:-7}
DURATION=${DURATION:-2s}
CONNS=${CONNS:-16}
PROCS=${PROCS:-2}
CGI_RUNS=${CGI_RUNS:-100}
CGI_ROUNDS=${CGI_ROUNDS:-10}
DIRECT_COUNT=${DIRECT_COUNT:-10000}
STRACE_COUNT=${STRACE_COUNT:-2000}
CLIENT=$GPT_BUILDDIR/tests/fcgi_client

for tool in nginx spawn-fcgi wrk curl jq; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		echo "responder.sh: $tool is missing (scripts/install-deps)" >&2
		exit 1
	fi
done
for prog in "$GPT_FCGI" "$GPT_BUILDDIR/bench/floor" \
    "$GPT_BUILDDIR/bench/cgi_floor" "$CLIENT"; do
	if [ ! -x "$prog" ]; then
		echo "responder.sh: $prog is not built (run make bench)" >&2
		exit 1
	fi
done

T=$(mktemp -d "${TMPDIR:-/tmp}/gpt-bench.XXXXXX")
pids=
cleanup() {
	for p in $pids; do
		kill "$p" 2>/dev/null
	done
	for p in $pids; do
		i=0
		while kill -0 "$p" 2>/dev/null && [ $i -lt 50 ]; do
			sleep 0.1
			i=$((i + 1))
		done
		kill -9 "$p" 2>/dev/null
	done
	rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

free_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])' 2>/dev/null ||
	    echo $((20000 + $$ % 20000))
}

wait_for() { # wait_for TEST ARG: up to 10 s
	i=0
	while ! test "$1" "$2" && [ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	test "$1" "$2"
}

# --- the address -------------------------------------------------------------
addr=$T/addr
mkdir -p "$addr"
cat >"$addr/form.json" <<'EOF'
{"p": "Leave a note for the team. Say who you are and what it is about.",
 "m": [{"role": "user", "content": "How do I leave a note?"},
       {"role": "assistant", "content": "POST a JSON object with your name, a topic and the text."}],
 "s": {"type": "object",
       "properties": {
         "name": {"type": "string", "minLength": 1, "maxLength": 80},
         "topic": {"enum": ["question", "idea", "bug", "thanks"]},
         "text": {"type": "string", "maxLength": 300000},
         "urgent": {"type": "boolean"},
         "tags": {"type": "array", "items": {"type": "string", "pattern": "^[a-z]+$"},
                  "maxItems": 8, "uniqueItems": true}},
       "required": ["name", "topic", "text"],
       "additionalProperties": false}}
EOF
cp "$(command -v cat)" "$addr/hook"
printf 'max_body = 1048576\n' >"$addr/address.conf"

# The arrival bytes, as gpt.fcgi serves them (its CGI answer, headers cut).
env -i REQUEST_METHOD=GET GPT_ADDRESS="$addr" "$GPT_FCGI" </dev/null |
    sed '1,/^\r*$/d' >"$T/doc.json"
if [ ! -s "$T/doc.json" ]; then
	echo "responder.sh: gpt.fcgi gives no arrival document as CGI" >&2
	exit 1
fi

printf '{"name":"Ada","topic":"idea","text":"Benchmarks should report ratios.","urgent":false,"tags":["bench","fcgi"]}' \
    >"$T/small.json"
printf '{"name":"Ada","topic":"bug","text":"' >"$T/large.json"
head -c 200000 /dev/zero | tr '\0' x >>"$T/large.json"
printf '"}' >>"$T/large.json"
printf '{"name":"Ada","topic":"rant","text":"This topic is not in the enum."}' \
    >"$T/reject.json"
# The line gpt.fcgi logs when it rejects that act (its CGI stderr is the
# same line its FastCGI error stream carries, without the time CGI lines
# get): the floor writes it too.
env -i REQUEST_METHOD=POST CONTENT_TYPE=application/json \
    CONTENT_LENGTH="$(wc -c <"$T/reject.json" | tr -d ' ')" \
    GPT_ADDRESS="$addr" GPT_LOG_TIMESTAMP=no "$GPT_FCGI" <"$T/reject.json" \
    >/dev/null 2>"$T/reject.err"
# (a CGI request also logs what its load warns about, once per load in a
# FastCGI process: that hooks run as root, the form's lint; not the line
# of the rejection)
grep 'act rejected' "$T/reject.err" >"$T/reject.line" || :
if ! grep -q 'act rejected' "$T/reject.line" ||
    [ "$(wc -l <"$T/reject.line")" -ne 1 ]; then
	echo "responder.sh: gpt.fcgi does not log one rejection line" >&2
	exit 1
fi

cat >"$T/post.lua" <<'EOF'
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
local f = assert(io.open(os.getenv("BODY_FILE"), "rb"))
wrk.body = f:read("*a")
f:close()
EOF

# --- servers -------------------------------------------------------------------
spawn() { # spawn SOCKET GPT_ADDRESS PROGRAM ARGS...: PROCS FastCGI processes
	_sock=$1
	_addr=$2
	shift 2
	env -i PATH=/usr/bin:/bin GPT_ADDRESS="$_addr" \
	    spawn-fcgi -F "$PROCS" -P "$T/pids.$$" -s "$_sock" -- "$@" \
	    >/dev/null 2>>"$T/spawn.err" || return 1
	spawned=$(cat "$T/pids.$$")
	pids="$pids $spawned"
	rm -f "$T/pids.$$"
}
# The cache template names the address by GPT_ROOT and PATH_INFO, which
# a GPT_ADDRESS in the environment would override: its gpt.fcgi processes
# (the same program, as many) have an empty one and a copy of the address
# under a root of their own (a symlink leaving the root is refused).
for d in cache cache_logged; do
	mkdir -p "$T/$d/root"
	cp -R "$addr" "$T/$d/root/note"
done
spawn "$T/floor.sock" "$addr" "$GPT_BUILDDIR/bench/floor" "$T/doc.json" \
    "$T/reject.line" &&
    floor_pids=$spawned &&
    spawn "$T/gpt.sock" "$addr" "$GPT_FCGI" && gpt_pids=$spawned &&
    spawn "$T/cache/gpt.sock" "" "$GPT_FCGI" && cached_pids=$spawned &&
    spawn "$T/cache_logged/gpt.sock" "" "$GPT_FCGI" &&
    cached_logged_pids=$spawned || {
	echo "responder.sh: spawn-fcgi failed: $(cat "$T/spawn.err")" >&2
	exit 1
}

port=$(free_port)
mkdir -p "$T/nginx"
# As root, nginx's worker would drop to nobody, who cannot enter the
# private temp dir: keep it the same user.
user_line=
[ "$(id -u)" -eq 0 ] && user_line="user root;"
cat >"$T/nginx.conf" <<EOF
$user_line
worker_processes 1;
error_log $T/nginx/error.log;
pid $T/nginx/nginx.pid;
events { worker_connections 1024; }
http {
	access_log off;
	client_body_temp_path $T/nginx/body;
	fastcgi_temp_path $T/nginx/fastcgi;
	proxy_temp_path $T/nginx/proxy;
	scgi_temp_path $T/nginx/scgi;
	uwsgi_temp_path $T/nginx/uwsgi;
	client_max_body_size 2m;
	client_body_buffer_size 1m;
	server {
		listen 127.0.0.1:$port;
		location = /static {
			default_type application/json;
			alias $T/doc.json;
		}
		location = /floor {
			include /etc/nginx/fastcgi_params;
			fastcgi_pass unix:$T/floor.sock;
		}
		location = /floor_silent {
			include /etc/nginx/fastcgi_params;
			fastcgi_param FLOOR_SILENT 1;
			fastcgi_pass unix:$T/floor.sock;
		}
		location = /gpt {
			include /etc/nginx/fastcgi_params;
			fastcgi_pass unix:$T/gpt.sock;
		}
	}
}
EOF
nginx -p "$T/nginx" -c "$T/nginx.conf" -g 'daemon off;' 2>>"$T/nginx/error.log" &
pids="$pids $!"

# The shipped cache configuration, its placeholders filled as
# tests/servers-nginx.sh fills them for a user who is not root (it says
# daemon off itself): nginx's worker stays this user, for the reason
# above.  DIR "cache" has the access log off, like the static baseline;
# "cache_logged" is as shipped.
start_cache() { # start_cache DIR PORT
	sed -e "s|@PORT@|$2|g" -e "s|@ROOT@|$T/$1/root|g" \
	    -e "s|@TMP@|$T/$1|g" -e "s|@WEBUSER@|$(id -un)|g" \
	    -e "s|@WEBGROUP@|$(id -gn)|g" \
	    "$GPT_SRCDIR/examples/servers/nginx-cache.conf" >"$T/$1/nginx.conf"
	[ "$1" = cache ] &&
	    sed -i 's|^\taccess_log .*|\taccess_log off;|' "$T/$1/nginx.conf"
	if grep -n '@[A-Z]*@' "$T/$1/nginx.conf" >&2; then
		echo "responder.sh: nginx-cache.conf: placeholders left" >&2
		exit 1
	fi
	nginx -p "$T/$1" -e "$T/$1/nginx-error.log" -c "$T/$1/nginx.conf" \
	    >"$T/$1/nginx.out" 2>&1 &
	pids="$pids $!"
}
cache_port=$(free_port)
start_cache cache "$cache_port"
cache_logged_port=$(free_port)
start_cache cache_logged "$cache_logged_port"

fastify_port=
fdir=$GPT_BUILDDIR/bench/fastify
mkdir -p "$fdir"
cp "$GPT_SRCDIR/bench/fastify/package.json" "$GPT_SRCDIR/bench/fastify/server.js" "$fdir/"
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
	echo "responder.sh: node or npm is missing: the fastify baseline is skipped"
elif ! [ -d "$fdir/node_modules/fastify" ] &&
    ! (cd "$fdir" && timeout 300 npm install --no-audit --no-fund \
	--loglevel=error >"$T/npm.log" 2>&1); then
	echo "responder.sh: npm install failed: the fastify baseline is skipped"
	tail -n 5 "$T/npm.log"
else
	fastify_port=$(free_port)
	node "$fdir/server.js" "$addr" "$fastify_port" 2>"$T/node.err" &
	pids="$pids $!"
fi

base=http://127.0.0.1:$port
cached=http://127.0.0.1:$cache_port/gpt/note
cached_logged=http://127.0.0.1:$cache_logged_port/gpt/note
for url in "$base/static" "$cached" "$cached_logged"; do
	i=0
	until curl -fsS -o /dev/null "$url" 2>/dev/null || [ $i -ge 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
done
if [ -n "$fastify_port" ]; then
	i=0
	until curl -fsS -o /dev/null "http://127.0.0.1:$fastify_port/" 2>/dev/null ||
	    [ $i -ge 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
fi

# --- cases ----------------------------------------------------------------------
# name|url|body file or -|expected status
cases="static|$base/static|-|200
gpt_cached_get|$cached|-|200
gpt_cached_logged|$cached_logged|-|200
floor_get|$base/floor|-|200
gpt_get|$base/gpt|-|200
floor_post|$base/floor|$T/reject.json|204
gpt_rejected|$base/gpt|$T/reject.json|204
floor_post_silent|$base/floor_silent|$T/reject.json|204
gpt_accepted|$base/gpt|$T/small.json|200
gpt_accepted_200k|$base/gpt|$T/large.json|200"
if [ -n "$fastify_port" ]; then
	cases="$cases
fastify_accepted|http://127.0.0.1:$fastify_port/|$T/small.json|200
fastify_accepted_200k|http://127.0.0.1:$fastify_port/|$T/large.json|200"
fi

# Each case must give its status (and, when 200, the same bytes as GET or
# the act echoed) before it is timed.
bad=0
echo "$cases" | while IFS='|' read -r name url body want; do
	if [ "$body" = - ]; then
		got=$(curl -sS -o "$T/check.out" -w '%{http_code}' "$url")
	else
		got=$(curl -sS -o "$T/check.out" -w '%{http_code}' \
		    -H 'Content-Type: application/json' --data-binary "@$body" "$url")
	fi
	if [ "$got" != "$want" ]; then
		echo "responder.sh: $name answers $got, expected $want" >&2
		exit 1
	fi
	if [ "$want" = 200 ] && [ "$body" != - ] && ! cmp -s "$T/check.out" "$body"; then
		echo "responder.sh: $name does not answer the hook's output" >&2
		exit 1
	fi
done || bad=1
# The cached cases time hits of the very bytes gpt.fcgi serves.
for url in "$cached" "$cached_logged"; do
	[ $bad -eq 0 ] || break
	curl -sS -o "$T/check.out" -D "$T/check.hdr" "$url"
	if ! grep -qi '^X-Cache: HIT' "$T/check.hdr" ||
	    ! cmp -s "$T/check.out" "$T/doc.json"; then
		echo "responder.sh: $url is no cache hit of the form" >&2
		bad=1
	fi
done
if [ $bad -ne 0 ]; then
	tail -n 5 "$T/nginx/error.log" "$T"/cache*/nginx-error.log "$T"/cache*/nginx.out \
	    "$T/node.err" 2>/dev/null >&2
	exit 1
fi

to_ms() { # wrk's "1.23ms" / "456.00us" / "1.02s" -> milliseconds
	awk -v v="$1" 'BEGIN {
		if (v ~ /us$/) { sub(/us$/, "", v); printf "%.3f", v / 1000 }
		else if (v ~ /ms$/) { sub(/ms$/, "", v); printf "%.3f", v }
		else if (v ~ /s$/) { sub(/s$/, "", v); printf "%.3f", v * 1000 }
		else printf "nan" }'
}

results=$T/results
: >"$results"
echo "$cases" >"$T/cases"

# CPU time (bench_cpu_ns): only the FastCGI processes count (not nginx,
# not a hook).
app_pids() { # app_pids CASE: the FastCGI processes that serve it
	case $1 in
	gpt_cached_logged) echo "$cached_logged_pids" ;;
	gpt_cached_*) echo "$cached_pids" ;;
	floor_* | direct_floor_*) echo "$floor_pids" ;;
	gpt_* | direct_gpt_*) echo "$gpt_pids" ;;
	esac
}
run_case() { # run_case ROUND NAME: one wrk run, one line in $results
	line=$(grep "^$2|" "$T/cases") || return 0
	url=$(echo "$line" | cut -d'|' -f2)
	body=$(echo "$line" | cut -d'|' -f3)
	apps=$(app_pids "$2")
	# shellcheck disable=SC2086
	c0=$(bench_cpu_ns $apps)
	if [ "$body" = - ]; then
		wrk -t1 -c"$CONNS" -d"$DURATION" --latency "$url" >"$T/wrk.out" 2>&1
	else
		BODY_FILE=$body wrk -t1 -c"$CONNS" -d"$DURATION" --latency \
		    -s "$T/post.lua" "$url" >"$T/wrk.out" 2>&1
	fi
	rps=$(awk '/^Requests\/sec:/ { print $2 }' "$T/wrk.out")
	p50=$(to_ms "$(awk '$1 == "50%" { print $2 }' "$T/wrk.out")")
	p99=$(to_ms "$(awk '$1 == "99%" { print $2 }' "$T/wrk.out")")
	# shellcheck disable=SC2086
	c1=$(bench_cpu_ns $apps)
	errs=$(awk '/Non-2xx|Socket errors/ { print }' "$T/wrk.out" | tr '\n' ' ')
	n=$(awk '/ requests in / { print $1 }' "$T/wrk.out")
	cpu=nan
	[ -n "$apps" ] && cpu=$(bench_cpu_per_req "$c0" "$c1" "${n:-0}")
	echo "$1 $2 ${rps:-0} $p50 $p99 $cpu" >>"$results"
	printf '  round %d  %-22s %10s req/s  p50 %8s ms  p99 %8s ms  CPU %6s us/req %s\n' \
	    "$1" "$2" "${rps:-0}" "$p50" "$p99" "$cpu" "$errs"
}

# Each comparison is a pair (baseline, gpt.fcgi) run A B B A within a
# round, so a drift of the machine's speed during the round cancels out.
pairs="static:gpt_cached_get floor_get:gpt_get floor_post:gpt_rejected"
[ -n "$fastify_port" ] &&
    pairs="$pairs fastify_accepted:gpt_accepted fastify_accepted_200k:gpt_accepted_200k"
echo "responder: wrk -t1 -c$CONNS -d$DURATION, $ROUNDS rounds of A B B A pairs," \
    "$PROCS FastCGI processes per application, $(nproc) cores"
# The same comparisons without nginx: tests/fcgi_client plays the web
# server, one request at a time, a new connection each (as nginx does).
printf 'expect=200 REQUEST_METHOD=GET\n' >"$T/get.plan"
printf 'expect=204 REQUEST_METHOD=POST CONTENT_TYPE=application/json body=%s\n' \
    "$T/reject.json" >"$T/reject.plan"
run_direct() { # run_direct ROUND NAME SOCKET PLAN
	apps=$(app_pids "$2")
	# shellcheck disable=SC2086
	c0=$(bench_cpu_ns $apps)
	if "$CLIENT" -s "$3" -n "$DIRECT_COUNT" "$4" >"$T/direct.out" 2>&1; then
		rps=$(awk '/ req\/s$/ { print $(NF - 1) }' "$T/direct.out")
	else
		rps=0
		head -n 3 "$T/direct.out"
	fi
	# shellcheck disable=SC2086
	c1=$(bench_cpu_ns $apps)
	cpu=$(bench_cpu_per_req "$c0" "$c1" "$DIRECT_COUNT")
	echo "$1 $2 ${rps:-0} nan nan $cpu" >>"$results"
	printf '  round %d  %-22s %10s req/s  (%s one at a time)  CPU %6s us/req\n' \
	    "$1" "$2" "${rps:-0}" "$DIRECT_COUNT" "$cpu"
}

round=1
while [ $round -le "$ROUNDS" ]; do
	run_case $round floor_post_silent
	run_case $round gpt_cached_logged
	for pair in $pairs; do
		run_case $round "${pair%%:*}"
		run_case $round "${pair##*:}"
		run_case $round "${pair##*:}"
		run_case $round "${pair%%:*}"
	done
	for what in get:get.plan post:reject.plan; do
		plan=$T/${what#*:}
		fl=direct_floor_${what%%:*}
		gp=direct_gpt_${what%%:*}
		run_direct $round "$fl" "$T/floor.sock" "$plan"
		run_direct $round "$gp" "$T/gpt.sock" "$plan"
		run_direct $round "$gp" "$T/gpt.sock" "$plan"
		run_direct $round "$fl" "$T/floor.sock" "$plan"
	done
	round=$((round + 1))
done

# --- summary: medians over runs, ratios within each round -------------------
echo
echo "responder summary (median of all runs):"
printf '  %-22s %10s %10s %10s %11s\n' case "req/s" "p50 ms" "p99 ms" "CPU us/req"
for name in $(awk '!seen[$2]++ { print $2 }' "$results"); do
	awk -v n="$name" "$BENCH_AWK_MED"'
	$2 == n { r[++k] = $3; a[k] = $4; b[k] = $5; c[k] = $6 }
	END { if (k) printf "  %-22s %10.0f %10.3f %10.3f %11.2f\n", n, med(r, k), med(a, k), med(b, k), med(c, k) }' "$results"
done

ratio() { # ratio LABEL NUM DEN TARGET [COLUMN]: see bench_ratio
	bench_ratio "$results" "$@"
}
echo
echo "responder ratios (req/s, within each round):"
ratio "gpt GET / floor GET" gpt_get floor_get ">= 0.95x"
ratio "gpt rejected POST / floor POST" gpt_rejected floor_post ">= 0.95x"
ratio "gpt cached GET / nginx static" gpt_cached_get static ">= 0.8x"
ratio "gpt cached GET logged / static" gpt_cached_logged static "context"
ratio "floor GET / nginx static" floor_get static "context"
ratio "gpt rejected / floor POST silent" gpt_rejected floor_post_silent "context"
ratio "direct: gpt GET / floor GET" direct_gpt_get direct_floor_get ">= 0.95x"
ratio "direct: gpt rejected / floor POST" direct_gpt_post direct_floor_post ">= 0.95x"
ratio "gpt accepted / fastify+ajv" gpt_accepted fastify_accepted ">= 2x"
ratio "gpt accepted 200K / fastify+ajv" gpt_accepted_200k fastify_accepted_200k ">= 2x"
echo
echo "responder CPU per request of the FastCGI processes (gpt.fcgi / floor; 1/0.95 = 1.05):"
ratio "GET via nginx" gpt_get floor_get "<= 1.05x" 6
ratio "rejected POST via nginx" gpt_rejected floor_post "<= 1.05x" 6
ratio "GET direct" direct_gpt_get direct_floor_get "<= 1.05x" 6
ratio "rejected POST direct" direct_gpt_post direct_floor_post "<= 1.05x" 6

# --- system calls per request ------------------------------------------------------
# strace -c on one FastCGI process of each application while the client
# sends STRACE_COUNT requests of one kind: the calls per request (the
# process's own; the hook's are not counted).
echo
if command -v strace >/dev/null 2>&1; then
	echo "responder system calls per request (strace -c, $STRACE_COUNT requests each):"
	for what in get:get.plan post:reject.plan; do
		for app in floor gpt; do
			pargs=
			for p in $(app_pids "${app}_x"); do
				pargs="$pargs -p $p"
			done
			# shellcheck disable=SC2086
			timeout 120 strace -c -f $pargs -o "$T/strace.out" 2>/dev/null &
			spid=$!
			sleep 0.5
			"$CLIENT" -s "$T/$app.sock" -n "$STRACE_COUNT" \
			    "$T/${what#*:}" >/dev/null 2>&1
			sleep 0.2
			kill -INT "$spid" 2>/dev/null
			wait "$spid" 2>/dev/null
			# calls are the 4th column; a row with errors (EAGAIN)
			# has one field more, before the name
			awk -v n="$STRACE_COUNT" -v l="$app ${what%%:*}" '
			$NF ~ /^[a-z_0-9]+$/ && $4 ~ /^[0-9]+$/ && $NF != "total" {
				c[$NF] = $4 / n; t += $4 / n }
			END { s = ""; for (k in c) if (c[k] >= 0.01) s = s sprintf(" %s %.2f", k, c[k])
				printf "  %-12s %5.2f:%s\n", l, t, s }' "$T/strace.out"
		done
	done
else
	echo "responder.sh: strace is missing: system calls are not counted"
fi

# --- the CGI path -----------------------------------------------------------------
# Rounds of hyperfine, alternating which command goes first, each round a
# ratio of medians; the figure is the median of those ratios.
echo
if command -v hyperfine >/dev/null 2>&1; then
	export REQUEST_METHOD=GET GPT_ADDRESS="$addr"
	floor_cmd="$GPT_BUILDDIR/bench/cgi_floor $T/doc.json"
	: >"$T/cgi.ratios"
	round=1
	while [ $round -le "$CGI_ROUNDS" ]; do
		if [ $((round % 2)) -eq 1 ]; then
			set -- "$floor_cmd" "$GPT_FCGI"
		else
			set -- "$GPT_FCGI" "$floor_cmd"
		fi
		if ! hyperfine -N --warmup 10 --runs "$CGI_RUNS" --export-json \
		    "$T/cgi.json" "$1" "$2" >"$T/hyperfine.out" 2>&1; then
			cat "$T/hyperfine.out"
			break
		fi
		jq -r --arg g "$GPT_FCGI" '(.results | map(select(.command == $g)))[0] as $a |
		    (.results | map(select(.command != $g)))[0] as $b |
		    "\($a.median * 1e6) \($b.median * 1e6) \($a.median / $b.median) \(($a.user + $a.system) / ($b.user + $b.system))"' \
		    "$T/cgi.json" >>"$T/cgi.ratios"
		round=$((round + 1))
	done
	awk -v runs="$CGI_RUNS" "$BENCH_AWK_MED"'
	{ g[NR] = $1; f[NR] = $2; r[NR] = $3; c[NR] = $4; s = s sprintf(" %.2f", $3) }
	END { if (!NR) exit
		printf "responder CGI GET (%d rounds of %d runs each, medians):\n", NR, runs
		printf "  gpt.fcgi as CGI %8.0f us\n  cgi_floor       %8.0f us\n", med(g, NR), med(f, NR)
		printf "  gpt.fcgi / cgi_floor, wall %5.2fx  (rounds:%s; target <= 1.5x)\n", med(r, NR), s
		printf "  gpt.fcgi / cgi_floor, CPU  %5.2fx  (user+system; less swayed by load)\n", med(c, NR)
	}' "$T/cgi.ratios"
else
	echo "responder.sh: hyperfine is missing: the CGI path is not measured"
fi
