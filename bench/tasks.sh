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
#   accepted    a valid act at an address with act = answer and the same
#               hook: 200, the hook run in the request (the 202's floor
#               without durability: the same hook, spawned and waited for)
#   form GET    the arrival document
#   task GET    a completed task's document (the baseline: form GET)
#   task pg     a valid act at an address with store_pg: 202, its task
#               committed to a PostgreSQL started here (fsync on: the
#               durability the 202 promises), its runner started
#   task GET pg a completed task's document from PostgreSQL
# (the PostgreSQL cases when the server's binaries are installed and
# gpt.fcgi is built with libpq), with each case's p99 latency.
# The hook is a copy of cat, so each runner ends at once.  Each round also
# times, with bench/sync_cost (when built), what a small record's syncs
# cost alone on the disk the store is on, and the bound they put on the
# 202: PROCS processes, each waiting for its own syncs, take at most
# PROCS / L acts a second for a sync time L.
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
	stop_pg
	rm -rf "$T" "$SHM"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

cp "$GPT_FCGI" "$T/gpt.fcgi"
for a in disk tmpfs answer; do
	mkdir -p "$T/root/$a"
	cp "$GPT_SRCDIR/examples/echo/form.json" "$T/root/$a/form.json"
	cp "$(command -v cat)" "$T/root/$a/hook"
done
# PostgreSQL, when installed: a server of its own in $T/pg on a unix
# socket, as nobody when run as root (initdb refuses root).
PGBIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
pg=
if [ -n "$PGBIN" ] && [ -x "$PGBIN/initdb" ]; then
	if [ "$(id -u)" -eq 0 ]; then
		as_pg() { runuser -u nobody -- "$@"; }
		chmod 755 "$T"
	else
		as_pg() { "$@"; }
	fi
	mkdir -p "$T/pg/data" "$T/pg/run"
	[ "$(id -u)" -eq 0 ] && chown nobody "$T/pg/data" "$T/pg/run"
	chmod 700 "$T/pg/data"
	if (cd "$T/pg" && as_pg "$PGBIN/initdb" -D "$T/pg/data" -U gpt -A trust \
	    -E UTF8 --locale=C >"$T/pg/initdb.log" 2>&1); then
		cat >>"$T/pg/data/postgresql.conf" <<EOF
listen_addresses = ''
unix_socket_directories = '$T/pg/run'
port = 5432
max_connections = 200
EOF
		if (cd "$T/pg" && as_pg "$PGBIN/pg_ctl" -D "$T/pg/data" \
		    -l "$T/pg/run/log" -w -t 30 start >/dev/null 2>&1) &&
		    "$PGBIN/createdb" -h "$T/pg/run" -p 5432 -U gpt gpt; then
			pg="host=$T/pg/run port=5432 dbname=gpt user=gpt"
		fi
	fi
fi
stop_pg() {
	[ -n "$pg" ] || return 0
	(cd "$T/pg" && as_pg "$PGBIN/pg_ctl" -D "$T/pg/data" -m immediate \
	    -w -t 20 stop >/dev/null 2>&1)
}
if [ -n "$pg" ]; then
	mkdir -p "$T/root/pg"
	cp "$GPT_SRCDIR/examples/echo/form.json" "$T/root/pg/form.json"
	cp "$(command -v cat)" "$T/root/pg/hook"
	printf 'act = task\nstore_pg = %s\n' "$pg" >"$T/root/pg/address.conf"
fi
printf 'act = task\n' >"$T/root/disk/address.conf"
printf 'act = answer\n' >"$T/root/answer/address.conf"
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

# the PostgreSQL address: a completed task to GET, or no such cases
pgtask=
if [ -n "$pg" ]; then
	loc=$(curl -s -D - -o /dev/null -H 'Content-Type: application/json' \
	    --data-binary "@$T/good.json" "$base/pg" | tr -d '\r' |
	    sed -n 's/^Location: //p')
	sleep 0.5
	if [ -n "$loc" ] && [ "$(curl -s "http://127.0.0.1:$port$loc" |
	    jq -r .status)" = completed ]; then
		pgtask=http://127.0.0.1:$port$loc
	else
		echo "bench/tasks.sh: no PostgreSQL task (gpt.fcgi without libpq?); its cases skipped" >&2
	fi
fi

SYNC_COST=${GPT_BUILDDIR:-.}/bench/sync_cost
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
	# wrk --latency: the 99th percentile, in ms
	p99=$(awk '$1 == "99%" { v = $2; u = v; sub(/[0-9.]+/, "", u);
	    sub(/[a-z]+$/, "", v); m = (u == "us" ? 0.001 : u == "s" ? 1000 : 1);
	    printf "%.3f", v * m }' "$T/wrk.out")
	# the cost of a request: seconds per request, so ratios read as
	# "costs Nx"
	echo "$1 $2 $(awk -v r="${rps:-0}" 'BEGIN { printf "%.9f", (r > 0 ? 1 / r : 0) }') $rps ${p99:-nan}" >>"$results"
}
r=1
while [ $r -le "$ROUNDS" ]; do
	run $r rejected "$base/disk" "$T/bad.json"
	run $r disk "$base/disk" "$T/good.json"
	run $r tmpfs "$base/tmpfs" "$T/good.json"
	run $r rejected "$base/disk" "$T/bad.json"
	run $r accepted "$base/answer" "$T/good.json"
	if [ -x "$SYNC_COST" ]; then
		mkdir -p "$T/sync"
		"$SYNC_COST" "$T/sync" 3 20 | while read -r k ms; do
			echo "$r sync-$k $ms nan nan" >>"$results"
		done
	fi
	run $r form "$base/disk"
	run $r taskget "$task"
	run $r taskget "$task"
	run $r form "$base/disk"
	if [ -n "$pgtask" ]; then
		run $r pg "$base/pg" "$T/good.json"
		run $r pgget "$pgtask"
	fi
	r=$((r + 1))
done
echo "== long-running acts: nginx + $PROCS gpt.fcgi, wrk -c$CONNS -d$DURATION," \
    "$ROUNDS rounds (time per request, same-run ratios)"
awk '$2 !~ /^sync-/ { s[$2] += $4; n[$2]++; if ($5 != "nan") { p[$2] += $5; pn[$2]++ } }
    END { for (k in s) printf "  %-10s %9.0f req/s   p99 %8.2f ms\n", k,
        s[k] / n[k], (pn[k] ? p[k] / pn[k] : 0) }' "$results" | sort
bench_ratio "$results" "202, store on disk / rejected" disk rejected "at most 1.5x"
bench_ratio "$results" "202, store on tmpfs / rejected" tmpfs rejected "at most 1.5x"
bench_ratio "$results" "202, store on disk / accepted" disk accepted "(none set)"
bench_ratio "$results" "202, store on tmpfs / accepted" tmpfs accepted "(none set)"
bench_ratio "$results" "accepted / rejected" accepted rejected "(none set)"
bench_ratio "$results" "task GET / form GET" taskget form "at most 1.2x"
if [ -x "$SYNC_COST" ]; then
	# column 3 of a sync case is its ms per record
	awk "$BENCH_AWK_MED"'
	$2 ~ /^sync-/ { k = substr($2, 6); v[k, ++n[k]] = $3 }
	$2 == "rejected" { rs += $4; rn++ }
	END {
		printf "  sync alone, ms per record (median of rounds; disk of %s):\n", dir
		split("none fsync file,dir rename1st", ks, " ")
		for (i = 1; i <= 4; i++) {
			k = ks[i]
			for (j = 1; j <= n[k]; j++) x[j] = v[k, j]
			m[k] = med(x, n[k])
			printf "    %-10s %7.3f ms\n", k, m[k]
		}
		L = m["rename1st"]
		if (L > 0 && rn > 0)
			printf "  sync bound of the 202: %d procs / %.3f ms = %.0f req/s at most, %.1fx the rejected act at least\n",
			    procs, L, procs * 1000 / L, (rs / rn) / (procs * 1000 / L)
	}' dir="$T" procs="$PROCS" "$results"
fi
if [ -n "$pgtask" ]; then
	bench_ratio "$results" "202, PostgreSQL / rejected" pg rejected "(none set)"
	bench_ratio "$results" "202, PostgreSQL / store on disk" pg disk "(none set)"
	bench_ratio "$results" "task GET pg / form GET" pgget form "(none set)"
fi
