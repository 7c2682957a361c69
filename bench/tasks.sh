#!/bin/sh
# tasks.sh: what long-running acts cost behind nginx, against baselines
# measured in the same run (only same-run ratios mean anything here).
#
# nginx passes requests to a spawn-fcgi pool of PROCS gpt.fcgi processes
# serving one address with act = task; wrk loads it.  Cases, ROUNDS
# rounds of DURATION runs, CONNS connections:
#   rejected    a small act that fails the form: 204 (the baseline of
#               the 202: the same parse and validation, nothing stored)
#   task disk   a valid act: 202, its task fsynced (file and directory)
#               into the address's store on disk, its runner started
#   task tmpfs  the same with the store on /dev/shm: everything but the
#               disk's sync (what the 202 path costs the CPU)
#   form GET    the arrival document
#   task GET    a completed task's document (the baseline: form GET)
# The hook is a copy of cat, so each runner ends at once.
#
# Environment: GPT_FCGI, GPT_SRCDIR, GPT_BUILDDIR (set by make bench);
# ROUNDS (3), DURATION (1s), CONNS (4), PROCS (2).
set -u
GPT_FCGI=${GPT_FCGI:-./gpt.fcgi}
GPT_SRCDIR=${GPT_SRCDIR:-.}
. "$GPT_SRCDIR/bench/lib.sh"
ROUNDS=${ROUNDS:-3}
DURATION=${DURATION:-1s}
CONNS=${CONNS:-4}
PROCS=${PROCS:-2}
for tool in nginx spawn-fcgi wrk curl jq; do
	command -v "$tool" >/dev/null 2>&1 || {
		echo "bench/tasks.sh: $tool is not installed; skipped" >&2
		exit 0
	}
done
T=$(mktemp -d "${TMPDIR:-/tmp}/gpt-bench-tasks.XXXXXX")
SHM=$(mktemp -d /dev/shm/gpt-bench-tasks.XXXXXX)
pids=
cleanup() {
	[ -n "${KEEP:-}" ] && return 0
	for p in $pids; do kill "$p" 2>/dev/null; done
	sleep 0.3
	# runners still alive are children of init running our binary copy
	for p in $(pgrep -f "^$T/gpt.fcgi"); do kill -9 "$p" 2>/dev/null; done
	rm -rf "$T" "$SHM"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

cp "$GPT_FCGI" "$T/gpt.fcgi"
for a in disk tmpfs; do
	mkdir -p "$T/root/$a"
	cp "$GPT_SRCDIR/examples/echo/form.json" "$T/root/$a/form.json"
	cp "$(command -v cat)" "$T/root/$a/hook"
done
printf 'act = task\n' >"$T/root/disk/address.conf"
printf 'act = task\nstore = %s\n' "$SHM" >"$T/root/tmpfs/address.conf"
port=$(node -e 'const s = require("net").createServer();
    s.listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); });' 2>/dev/null ||
    echo 18734)
env -i PATH=/usr/bin:/bin GPT_ROOT="$T/root" GPT_LOG_REJECT_LIMIT=yes \
    spawn-fcgi -F "$PROCS" -P "$T/pids" -s "$T/gpt.sock" -- "$T/gpt.fcgi" \
    >/dev/null 2>>"$T/spawn.err" || exit 1
pids="$pids $(cat "$T/pids")"
cat >"$T/nginx.conf" <<EOF
daemon off;
user $(id -un) $(id -gn);
worker_processes 1;
pid $T/nginx.pid;
error_log $T/nginx-error.log;
events { worker_connections 256; }
http {
	access_log off;
	client_body_temp_path $T/body;
	fastcgi_temp_path $T/fastcgi;
	server {
		listen 127.0.0.1:$port;
		location ~ "^/gpt(?<gpt_name>/[A-Za-z0-9_-][A-Za-z0-9._-]*)\$" {
			fastcgi_pass unix:$T/gpt.sock;
			fastcgi_param REQUEST_METHOD \$request_method;
			fastcgi_param REQUEST_URI \$request_uri;
			fastcgi_param QUERY_STRING \$query_string;
			fastcgi_param CONTENT_TYPE \$content_type if_not_empty;
			fastcgi_param CONTENT_LENGTH \$content_length if_not_empty;
			fastcgi_param SCRIPT_NAME /gpt;
			fastcgi_param PATH_INFO \$gpt_name;
			fastcgi_param GPT_ROOT $T/root;
		}
	}
}
EOF
nginx -p "$T" -c "$T/nginx.conf" >"$T/nginx.out" 2>&1 &
pids="$pids $!"
base=http://127.0.0.1:$port/gpt
i=0
until curl -s -o /dev/null "$base/disk" || [ $i -ge 50 ]; do sleep 0.1; i=$((i + 1)); done

printf '{"note": ""}' >"$T/bad.json"
printf '{"note": "bench"}' >"$T/good.json"
cat >"$T/post.lua" <<'EOF'
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
local f = assert(io.open(os.getenv("BODY_FILE"), "rb"))
wrk.body = f:read("*a")
f:close()
EOF
# a completed task to GET
loc=$(curl -s -D - -o /dev/null -H 'Content-Type: application/json' \
    --data-binary "@$T/good.json" "$base/disk" | tr -d '\r' |
    sed -n 's/^Location: //p')
sleep 0.5
task=http://127.0.0.1:$port$loc
[ "$(curl -s "$task" | jq -r .status)" = completed ] || {
	echo "bench/tasks.sh: the task did not complete: $task" >&2
	curl -s -i "$task" >&2
	cat "$T/spawn.err" "$T/nginx-error.log" >&2
	exit 1
}

results=$T/results
: >"$results"
run() { # run ROUND NAME URL [BODY]
	if [ $# -ge 4 ]; then
		BODY_FILE=$4 wrk -t1 -c"$CONNS" -d"$DURATION" --latency \
		    -s "$T/post.lua" "$3" >"$T/wrk.out" 2>&1
	else
		wrk -t1 -c"$CONNS" -d"$DURATION" --latency "$3" >"$T/wrk.out" 2>&1
	fi
	rps=$(awk '/^Requests\/sec:/ { print $2 }' "$T/wrk.out")
	# the cost of a request: seconds per request, so ratios read as
	# "costs Nx"
	echo "$1 $2 $(awk -v r="${rps:-0}" 'BEGIN { printf "%.9f", (r > 0 ? 1 / r : 0) }') $rps" >>"$results"
}
r=1
while [ $r -le "$ROUNDS" ]; do
	run $r rejected "$base/disk" "$T/bad.json"
	run $r disk "$base/disk" "$T/good.json"
	run $r tmpfs "$base/tmpfs" "$T/good.json"
	run $r rejected "$base/disk" "$T/bad.json"
	run $r form "$base/disk"
	run $r taskget "$task"
	run $r taskget "$task"
	run $r form "$base/disk"
	r=$((r + 1))
done
echo "== long-running acts: nginx + $PROCS gpt.fcgi, wrk -c$CONNS -d$DURATION," \
    "$ROUNDS rounds (time per request, same-run ratios)"
awk '{ s[$2] += $4; n[$2]++ } END { for (k in s) printf "  %-10s %9.0f req/s\n", k, s[k] / n[k] }' "$results" | sort
bench_ratio "$results" "202, store on disk / rejected" disk rejected "at most 1.5x"
bench_ratio "$results" "202, store on tmpfs / rejected" tmpfs rejected "at most 1.5x"
bench_ratio "$results" "task GET / form GET" taskget form "at most 1.2x"
