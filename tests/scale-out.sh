#!/bin/sh
# scale-out.sh: the shipped scale-out configuration for real.  HAProxy
# (examples/servers/scale-out/haproxy.cfg) in front of two hosts, each
# nginx (scale-out/nginx-host.conf) with its own pool of gpt.fcgi
# processes (spawn-fcgi) and its own copy of examples/ledger, whose hook
# stores every act in one PostgreSQL started here (initdb into the
# temporary directory, a unix socket only, as an unprivileged user when
# run as root).  Checks:
#   - GET: both hosts give the same bytes and the same ETag, though their
#     form.json files differ in inode, mtime and layout;
#   - 1,000 concurrent acts through the balancer: 1,000 rows, each answer's
#     id the row of its act, no duplicate, no loss;
#   - a form roll-out, one host first: a stale If-Match gets 412 with the
#     new ETag, never a 200 under the other form;
#   - 1,000 acts with one host killed halfway (SIGKILL to its nginx, pool
#     and hooks): every 200 names a stored row, no act is stored twice,
#     an act is stored without a 200 only when its answer was lost with
#     the host, and retrying every act that got no 200 with its
#     Idempotency-Key leaves exactly 1,000 rows (the keys in PostgreSQL,
#     address.conf store_pg, so the surviving host sees the dead one's);
#   - tasks (act = task, store_pg): created through one host, polled
#     (progress moving) and cancelled through the other; completed
#     through one, its result read through the other; a runner killed
#     (-9) on one host is reported "runner lost" through the other within
#     task_lease; a key sent to both hosts at once makes one task;
#   - the SQLite default on one host under concurrent acts: no lost entry.
. "${GPT_SRCDIR:-.}/tests/servers-common.sh"
need haproxy nginx spawn-fcgi runuser
PY=/usr/bin/python3
if ! "$PY" -c 'import psycopg2, sqlite3' 2>/dev/null; then
	echo "FAIL: $PY with psycopg2 is missing (run scripts/install-deps)" >&2
	exit 1
fi
# Debian keeps initdb and pg_ctl off PATH, under the server's version.
PGBIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
if [ -z "$PGBIN" ] || [ ! -x "$PGBIN/initdb" ]; then
	echo "FAIL: PostgreSQL is not installed (run scripts/install-deps)" >&2
	exit 1
fi
N=1000

# As root, the database, the pools and so the hooks run as nobody; the
# web servers' workers are nobody too.
if [ "$(id -u)" -eq 0 ]; then
	as_user() { runuser -u nobody -- "$@"; }
	spawn_user="-u nobody -g nogroup -U nobody -G nogroup"
	run_user=nobody
else
	as_user() { "$@"; }
	spawn_user=
	run_user=$(id -un)
fi

# --- PostgreSQL --------------------------------------------------------
pg=$TEST_TMP/pg
mkdir -p "$pg/data" "$pg/run"
chown "$run_user" "$pg/data" "$pg/run"
chmod 700 "$pg/data" "$pg/run"
(cd "$pg" && as_user "$PGBIN/initdb" -D "$pg/data" -U ledger -A trust \
    -E UTF8 --locale=C --no-sync >"$pg/initdb.log" 2>&1) || {
	cat "$pg/initdb.log" >&2
	exit 1
}
# No TCP at all; the socket only for its owner (root passes anyway).
# fsync off: here hosts die, never the database.
cat >>"$pg/data/postgresql.conf" <<EOF
listen_addresses = ''
unix_socket_directories = '$pg/run'
unix_socket_permissions = 0700
port = 5432
fsync = off
max_connections = 100
EOF
(cd "$pg" && as_user "$PGBIN/pg_ctl" -D "$pg/data" -l "$pg/run/log" -w -t 30 \
    start >"$pg/pg_ctl.log" 2>&1) || {
	cat "$pg/pg_ctl.log" "$pg/run/log" >&2
	exit 1
}
pg_pid=$(head -n 1 "$pg/data/postmaster.pid")
started "$pg_pid"
stop_pg() {
	(cd "$pg" && as_user "$PGBIN/pg_ctl" -D "$pg/data" -m fast -w -t 20 \
	    stop >/dev/null 2>&1)
	stop_pid "$pg_pid"
}
sql() {
	"$PGBIN/psql" -X -q -h "$pg/run" -p 5432 -U ledger -d ledger -At \
	    -c "$1"
}
"$PGBIN/createdb" -h "$pg/run" -p 5432 -U ledger ledger ||
    { fail "createdb ledger"; exit 1; }
dsn="host=$pg/run port=5432 dbname=ledger user=ledger"

# make_slow DIR: an address of tasks in the shared database (the echo
# form; store_scope slow on both hosts, a lease of 3 s).  Its hook says
# "started" on fd 3, then "halfway" once $GO/NOTE.half exists, and ends
# once $GO/NOTE.done exists (at most 30 s), answering {"done": NOTE}.
GO=$TEST_TMP/go
mkdir -p "$GO"
chmod 777 "$GO"
make_slow() {
	mkdir -p "$1"
	cp "$GPT_SRCDIR/examples/echo/form.json" "$1/form.json"
	cat >"$1/address.conf" <<EOF
act = task
task_poll = 1
task_lease = 3
store_pg = $dsn
store_scope = slow
hook_env = GO=$GO
EOF
	cat >"$1/hook" <<'EOF'
#!/bin/sh
note=$(sed 's/.*"note": *"\([a-z0-9-]*\)".*/\1/')
echo $$ >"$GO/$note.pid"
printf '{"message": "started", "progress": 0.1}\n' >&3
i=0
while [ ! -e "$GO/$note.half" ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
printf '{"message": "halfway", "progress": 0.5}\n' >&3
while [ ! -e "$GO/$note.done" ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
printf '{"done": "%s"}\n' "$note"
EOF
	chmod 755 "$1/hook"
}

# --- two hosts ------------------------------------------------------------
# host_start NAME: a host's state directory, its copy of the ledger
# address (hook_env pointing it at the shared database), its pool of 4 and its
# nginx with the shipped nginx-host.conf.  Sets port_NAME.
host_start() {
	_t=$TEST_TMP/$1
	mkdir -p "$_t/root"
	chmod 755 "$_t" "$_t/root"
	install_bin "$_t/bin"
	cp -R "$GPT_SRCDIR/examples/ledger" "$_t/root/ledger"
	rm -rf "$_t/root/ledger/data"
	printf '# the shared database, for the rows and for the keys\nhook_env = LEDGER_DSN=%s\nstore_pg = %s\n' \
	    "$dsn" "$dsn" >>"$_t/root/ledger/address.conf"
	make_slow "$_t/root/slow"
	chmod -R a+rX "$_t/root"
	_port=$(free_port)
	eval "port_$1=$_port"
	render scale-out/nginx-host.conf "$_t/nginx.conf" \
	    LISTEN="127.0.0.1:$_port" BALANCER=127.0.0.1 \
	    ROOT="$_t/root" TMP="$_t"
	# shellcheck disable=SC2086
	spawn-fcgi -F 4 -P "$_t/gpt.pid" -s "$_t/gpt.sock" $spawn_user \
	    -M 0660 -- "$_t/bin/gpt.fcgi" >"$_t/spawn.log" 2>&1 ||
	    { cat "$_t/spawn.log" >&2; exit 1; }
	started $(cat "$_t/gpt.pid")
	nginx -p "$_t" -e "$_t/nginx-error.log" -c "$_t/nginx.conf" \
	    >"$_t/stdout" 2>&1 &
	started $!
	echo $! >"$_t/nginx.pid.master"
	# a host is killed on purpose below: not a job the shell would
	# report as "Killed" (started still stops it)
	disown $! 2>/dev/null || :
	wait_ready "http://127.0.0.1:$_port/gpt/ledger" ||
	    { cat "$_t"/*.log >&2; exit 1; }
}
host_start h1
host_start h2
h1=http://127.0.0.1:$port_h1/gpt
h2=http://127.0.0.1:$port_h2/gpt
# The SQLite default, on h1 only: the same address without hook_env.
cp -R "$TEST_TMP/h1/root/ledger" "$TEST_TMP/h1/root/ledger-local"
cp "$GPT_SRCDIR/examples/ledger/address.conf" \
    "$TEST_TMP/h1/root/ledger-local/address.conf"
chown "$run_user" "$TEST_TMP/h1/root/ledger-local"

# --- the balancer ---------------------------------------------------------
lb_port=$(free_port)
render scale-out/haproxy.cfg "$TEST_TMP/haproxy.cfg" \
    BIND="127.0.0.1:$lb_port" HOST1="127.0.0.1:$port_h1" \
    HOST2="127.0.0.1:$port_h2" CHECK=/gpt/ledger TMP="$TEST_TMP"
haproxy -db -f "$TEST_TMP/haproxy.cfg" >"$TEST_TMP/haproxy.log" 2>&1 &
started $!
lb=http://127.0.0.1:$lb_port/gpt
wait_ready "$lb/ledger" || { cat "$TEST_TMP/haproxy.log" >&2; exit 1; }
# Both hosts in rotation: each answered through the balancer (10 s).
_i=0
seen1=0
seen2=0
while [ "$_i" -lt 100 ]; do
	req GET "$lb/ledger"
	case $(header X-Backend) in
	h1) seen1=1 ;;
	h2) seen2=1 ;;
	esac
	[ "$seen1$seen2" = 11 ] && break
	sleep 0.1
	_i=$((_i + 1))
done
expect_true "the balancer reaches both hosts" test "$seen1$seen2" = 11

# --- GET: same bytes, same ETag, from either host -------------------------
# Different files for the same form: h2's is laid out anew (another
# inode, other whitespace) and dated a year back.
f2=$TEST_TMP/h2/root/ledger/form.json
jq . "$f2" >"$f2.new" && mv "$f2.new" "$f2"
touch -d '-1 year' "$f2"
chmod a+r "$f2"
sleep 2.5 # the 1 s recheck, and the 2 s rule for a file just changed
for rep in json html; do
	acc=
	[ "$rep" = html ] && acc='text/html'
	req GET "$h1/ledger" ${acc:+-H "Accept: $acc"}
	cp "$TEST_TMP/b" "$TEST_TMP/h1.$rep"
	e1=$(header ETag)
	req GET "$h2/ledger" ${acc:+-H "Accept: $acc"}
	cp "$TEST_TMP/b" "$TEST_TMP/h2.$rep"
	e2=$(header ETag)
	expect_true "GET $rep: the hosts serve the same bytes" \
	    cmp -s "$TEST_TMP/h1.$rep" "$TEST_TMP/h2.$rep"
	expect_true "GET $rep: the hosts give the same ETag ($e1, $e2)" \
	    test -n "$e1" -a "$e1" = "$e2"
	# Through the balancer, from each host in turn.
	bad=0
	for _j in 1 2 3 4 5 6; do
		req GET "$lb/ledger" ${acc:+-H "Accept: $acc"}
		cmp -s "$TEST_TMP/b" "$TEST_TMP/h1.$rep" || bad=$((bad + 1))
		[ "$(header ETag)" = "$e1" ] || bad=$((bad + 1))
	done
	expect_true "GET $rep through the balancer: 6 answers, all the same ($bad off)" \
	    test "$bad" -eq 0
done
req GET "$h1/ledger"
etag0=$(header ETag)

# --- the client -----------------------------------------------------------
# client.py URL N CONC PREFIX OUT [KILL_AT PIDFILE CWD] [--only FILE]:
# N acts, CONC at a time, each a new connection; act i is
# {"who": "client", "what": "PREFIX act i", "cents": ...}, sent with
# Idempotency-Key: PREFIX-i.  One JSON line per act in OUT: i, ref (the
# key), status (0: no HTTP answer), the answer, X-Backend, replayed
# (Idempotent-Replayed, or the hook's "replayed").  When the KILL_AT-th answer is in, SIGKILL the pids in PIDFILE,
# then every process whose working directory is under CWD (the hooks).
# --only FILE: send only the acts whose numbers FILE lists.
cat >"$TEST_TMP/client.py" <<'PY'
import http.client, json, os, signal, sys, threading, urllib.parse
args = sys.argv[1:]
only = None
if "--only" in args:
    k = args.index("--only")
    only = [int(x) for x in open(args[k + 1]).read().split()]
    del args[k:k + 2]
url, n, conc, prefix, out = args[:5]
kill_at = int(args[5]) if len(args) > 5 else 0
u = urllib.parse.urlsplit(url)
todo = only if only is not None else list(range(1, int(n) + 1))
lock = threading.Lock()
state = {"next": 0, "answered": 0, "killed": False}
results = []

def kill_host():
    for p in open(args[6]).read().split():
        try: os.kill(int(p), signal.SIGKILL)
        except ProcessLookupError: pass
    for p in os.listdir("/proc"):
        if not p.isdigit(): continue
        try: cwd = os.readlink("/proc/%s/cwd" % p)
        except OSError: continue
        if cwd.startswith(args[7]):
            try: os.kill(int(p), signal.SIGKILL)
            except ProcessLookupError: pass

def one(i):
    key = "%s-%05d" % (prefix, i)
    act = {"who": "client", "what": "%s act %d" % (prefix, i),
           "cents": 100 + i % 900}
    rec = {"i": i, "ref": key, "status": 0}
    try:
        c = http.client.HTTPConnection(u.hostname, u.port, timeout=30)
        c.request("POST", u.path, json.dumps(act),
                  {"Content-Type": "application/json", "Connection": "close",
                   "Idempotency-Key": key})
        r = c.getresponse()
        body = r.read()
        rec["status"] = r.status
        rec["backend"] = r.getheader("X-Backend")
        if r.status == 200:
            rec["answer"] = json.loads(body)
            rec["replayed"] = bool(
                r.getheader("Idempotent-Replayed") == "true" or
                rec["answer"].get("replayed"))
        c.close()
    except Exception as e:
        rec["error"] = type(e).__name__
    return rec

def worker():
    while True:
        with lock:
            if state["next"] >= len(todo): return
            i = todo[state["next"]]
            state["next"] += 1
        rec = one(i)
        with lock:
            results.append(rec)
            state["answered"] += 1
            fire = kill_at and state["answered"] >= kill_at and not state["killed"]
            if fire:
                state["killed"] = True
                kill_host()

ts = [threading.Thread(target=worker) for _ in range(int(conc))]
for t in ts: t.start()
for t in ts: t.join()
with open(out, "w") as f:
    for r in sorted(results, key=lambda r: r["i"]):
        f.write(json.dumps(r) + "\n")
PY
# client ...: client.py, bounded (180 s: 1,000 Python hooks on two busy
# cores), saying how long it took.
client() {
	_c0=$(date +%s)
	timeout 180 "$PY" "$TEST_TMP/client.py" "$@"
	_crc=$?
	echo "client $4: $(($(date +%s) - _c0)) s (exit $_crc)"
	return $_crc
}

# rows PREFIX: "ref id" of every stored row of a run, sorted.
rows() {
	sql "SELECT ref || ' ' || id FROM entries WHERE ref LIKE '$1-%'" | sort
}
# answered OUT: "ref id" of every 200 in a client's output, sorted.
answered() {
	jq -r 'select(.status == 200) | "\(.ref) \(.answer.id)"' "$1" | sort
}

# --- 1,000 concurrent acts --------------------------------------------------
client "$lb/ledger" "$N" 16 r1 "$TEST_TMP/r1.out"
ok=$(jq -s 'map(select(.status == 200)) | length' "$TEST_TMP/r1.out")
expect_true "r1: $N acts, $N answered 200 (got $ok)" test "$ok" -eq "$N"
expect_true "r1: no act answered as a replay" \
    test "$(jq -s 'map(select(.replayed)) | length' \
        "$TEST_TMP/r1.out")" -eq 0
by=$(jq -r .backend "$TEST_TMP/r1.out" | sort | uniq -c | tr -s ' \n' ' ')
expect_true "r1: both hosts took acts ($by)" \
    sh -c "echo '$by' | grep -q ' h1 ' && echo '$by' | grep -q ' h2'"
n=$(sql "SELECT count(*) FROM entries WHERE ref LIKE 'r1-%'")
expect_true "r1: $N rows stored (got $n)" test "$n" = "$N"
d=$(sql "SELECT count(DISTINCT what) FROM entries WHERE ref LIKE 'r1-%'")
expect_true "r1: no act stored twice ($d distinct of $n)" test "$d" = "$N"
rows r1 >"$TEST_TMP/r1.rows"
answered "$TEST_TMP/r1.out" >"$TEST_TMP/r1.ans"
expect_true "r1: every answer's id is its act's row, and only those" \
    cmp -s "$TEST_TMP/r1.rows" "$TEST_TMP/r1.ans"
hosts=$(sql "SELECT count(DISTINCT address) FROM entries WHERE ref LIKE 'r1-%'")
expect_true "r1: the rows came from both hosts' hooks ($hosts)" \
    test "$hosts" = 2

# --- a form roll-out, h2 first ------------------------------------------------
# The new form lowers the maximum amount: an act of 50.00 is valid under
# the old form only.  Replaced by rename, as the README says.
roll() { # roll HOST: move the new form over HOST's form.json
	_f=$TEST_TMP/$1/root/ledger/form.json
	jq '.p += " Amounts are at most 10.00." |
	    .s.properties.cents.maximum = 1000' "$_f" >"$_f.new"
	chmod a+r "$_f.new"
	mv "$_f.new" "$_f"
	# Each process of the pool looks at form.json at most once a second,
	# on its own: a second after the rename, all of them hold the new
	# form (before, one host's processes may differ, each judging If-Match
	# by the form it holds).
	sleep 1.5
}
wait_etag() { # wait_etag URL NOT-ETAG: at most 10 s until the ETag moves
	_i=0
	while [ "$_i" -lt 100 ]; do
		req GET "$1"
		[ "$code" = 200 ] && [ "$(header ETag)" != "$2" ] && return 0
		sleep 0.1
		_i=$((_i + 1))
	done
	return 1
}
roll h2
expect_true "roll-out: h2 serves the new form within 10 s" \
    wait_etag "$h2/ledger" "$etag0"
etag1=$(header ETag)
req GET "$h1/ledger"
expect_true "roll-out: h1 still serves the old ETag" \
    test "$(header ETag)" = "$etag0"
printf '{"who": "late", "what": "fifty", "cents": 5000}' >"$TEST_TMP/big.json"
post "$h2/ledger" "$TEST_TMP/big.json" -H "If-Match: $etag0" \
    -H 'Idempotency-Key: roll-a-0001'
expect_code 412 "roll-out: the old ETag at h2"
expect_header ETag "^$etag1\$" "roll-out: the 412 names h2's new ETag"
post "$h2/ledger" "$TEST_TMP/big.json" -H 'Idempotency-Key: roll-a-0001'
expect_code 204 "roll-out: without If-Match, h2 judges by the new form"
printf '{"who": "early", "what": "five", "cents": 500}' >"$TEST_TMP/small.json"
post "$h1/ledger" "$TEST_TMP/small.json" -H "If-Match: $etag1" \
    -H 'Idempotency-Key: roll-b-0001'
expect_code 412 "roll-out: the new ETag at h1"
expect_header ETag "^$etag0\$" "roll-out: the 412 names h1's old ETag"
n=$(sql "SELECT count(*) FROM entries WHERE ref LIKE 'roll-%'")
expect_true "roll-out: nothing stored for a 412 or a 204 (got $n)" \
    test "$n" -eq 0
# Through the balancer: an actor that fetched the old form posts an act
# only the old form accepts, with If-Match.  h1 stores it; h2 answers 412
# and stores nothing.
bad=0
n412=0
n200=0
for _j in 1 2 3 4 5 6 7 8 9 10; do
	printf '{"who": "actor", "what": "lb %d", "cents": 5000}' "$_j" \
	    >"$TEST_TMP/lb.json"
	post "$lb/ledger" "$TEST_TMP/lb.json" -H "If-Match: $etag0" \
	    -H "Idempotency-Key: roll-lb-$(printf %04d "$_j")"
	stored=$(sql "SELECT count(*) FROM entries WHERE ref = 'roll-lb-$(printf %04d "$_j")'")
	case $(header X-Backend):$code:$stored in
	h1:200:1) n200=$((n200 + 1)) ;;
	h2:412:0)
		n412=$((n412 + 1))
		[ "$(header ETag)" = "$etag1" ] || bad=$((bad + 1))
		;;
	*) bad=$((bad + 1)); echo "roll-out: $(header X-Backend) $code $stored" >&2 ;;
	esac
done
expect_true "roll-out through the balancer: h1 200, h2 412 with the new ETag ($n200, $n412, $bad off)" \
    test "$bad" -eq 0 -a "$n200" -gt 0 -a "$n412" -gt 0
roll h1
expect_true "roll-out: h1 serves the new form within 10 s" \
    wait_etag "$h1/ledger" "$etag0"
expect_true "roll-out done: both hosts give the new ETag" \
    test "$(header ETag)" = "$etag1"
cp "$TEST_TMP/b" "$TEST_TMP/new.h1"
req GET "$h2/ledger"
expect_true "roll-out done: both hosts serve the same bytes" \
    cmp -s "$TEST_TMP/b" "$TEST_TMP/new.h1"

# --- tasks through both hosts ---------------------------------------------------
# task_act HOST-URL NOTE [CURL-ARGS...]: an act at slow; sets $tid.
task_act() {
	_u=$1
	printf '{"note": "%s"}' "$2" >"$TEST_TMP/t.json"
	shift 2
	post "$_u/slow" "$TEST_TMP/t.json" "$@"
	tid=$(jq -r '.task // empty' "$TEST_TMP/b" 2>/dev/null)
}
# task_get HOST-URL ID: GET the task; sets $st (its status).
task_get() {
	req GET "$1/slow?task=$2"
	st=$(jq -r '.status // empty' "$TEST_TMP/b" 2>/dev/null)
}
# task_wait HOST-URL ID FIELD VALUE: at most 15 s until FIELD is VALUE.
task_wait() {
	_i=0
	while [ "$_i" -lt 150 ]; do
		task_get "$1" "$2"
		[ "$(jq -r ".$3 // empty" "$TEST_TMP/b" 2>/dev/null)" = "$4" ] &&
		    return 0
		sleep 0.1
		_i=$((_i + 1))
	done
	return 1
}
task_act "$h1" t-one
expect_code 202 "task: created through h1"
expect_header Location "^/gpt/slow?task=$tid\$" "task: the 202 names it"
expect_true "task: polled through h2, it says started" \
    task_wait "$h2" "$tid" statusMessage started
expect_true "task: polled through h2, it is working ($st)" test "$st" = working
touch "$GO/t-one.half"
expect_true "task: polled through h2, the progress moved" \
    task_wait "$h2" "$tid" statusMessage halfway
etag=$(header ETag)
req GET "$h1/slow?task=$tid" -H "If-None-Match: $etag"
expect_code 304 "task: h1 gives the ETag h2 gave"
hook_pid=$(cat "$GO/t-one.pid")
req DELETE "$h2/slow?task=$tid"
expect_code 200 "task: cancelled through h2"
expect_body_match '"status":"cancelled"' "task: the DELETE's document says cancelled"
task_get "$h1" "$tid"
expect_true "task: through h1 too, cancelled ($st)" test "$st" = cancelled
expect_true "task: the hook on h1 ended" sh -c "! kill -0 $hook_pid 2>/dev/null"
req DELETE "$h1/slow?task=$tid"
expect_code 409 "task: a second DELETE, through h1: 409"

task_act "$h2" t-two
expect_code 202 "task: another created through h2"
t2=$tid
# streamed through h1 (a process of its own there, with its own database
# session) while it works
curl -sN --max-time 30 -H 'Accept: text/event-stream' \
    "$h1/slow?task=$t2" >"$TEST_TMP/t2.sse" 2>/dev/null &
sse=$!
expect_true "task: h2's task streamed through h1" \
    task_wait "$h1" "$t2" statusMessage started
_i=0
while ! grep -q '"statusMessage":"started"' "$TEST_TMP/t2.sse" &&
    [ "$_i" -lt 100 ]; do
	sleep 0.1
	_i=$((_i + 1))
done
expect_true "task: the stream through h1 carries it while it works" \
    grep -q '"status":"working"' "$TEST_TMP/t2.sse"
touch "$GO/t-two.half" "$GO/t-two.done"
wait "$sse"
expect_true "task: the stream through h1 ends with the completed task" \
    sh -c "grep '^data:' '$TEST_TMP/t2.sse' | tail -n 1 |
        grep -q '\"status\":\"completed\"'"
expect_true "task: completed, read through h1" \
    task_wait "$h1" "$t2" status completed
expect_true "task: its result through h1" \
    test "$(jq -c .result "$TEST_TMP/b")" = '{"done":"t-two"}'
req DELETE "$h1/slow?task=$t2"
expect_code 409 "task: DELETE of a completed task: 409"
req GET "$h1/slow?task=$(echo "$t2" | tr 0-9a-f 1-9a-f0)"
expect_code 404 "task: an unknown id: 404"

# A runner killed (-9) on h1: through h2, "runner lost" within the
# lease (3 s and a renewal), never "working" after.
task_act "$h1" t-three
t3=$tid
expect_true "task: the third is started" \
    task_wait "$h2" "$t3" statusMessage started
hook_pid=$(cat "$GO/t-three.pid")
runner=$(ps -o ppid= -p "$hook_pid" | tr -d ' ')
expect_true "task: its runner is h1's gpt.fcgi ($runner)" \
    sh -c "readlink /proc/$runner/exe | grep -q '^$TEST_TMP/h1/'"
kill -9 "$runner"
# The lease (3 s) was renewed at the kill at the latest, so it has run
# out 4 s after: the first poll from then on, through either host, finds
# it failed (the database's clock judges, not this one's speed).
sleep 4
task_get "$h2" "$t3"
expect_true "task: through h2, the first poll after the lease: failed ($st)" \
    test "$st" = failed
expect_true "task: ... reason \"runner lost\"" \
    test "$(jq -r .reason "$TEST_TMP/b")" = "runner lost"
task_get "$h1" "$t3"
expect_true "task: ... and so through h1 ($st)" test "$st" = failed
kill "$hook_pid" 2>/dev/null
touch "$GO/t-three.half" "$GO/t-three.done"

# One key sent to both hosts at once: one task; the other answer is the
# same 202 replayed, or 409 while the first is being stored.
tasks() {
	sql "SELECT count(*) FROM gpt_store WHERE scope = 'slow' AND name LIKE 't-%'"
}
n0=$(tasks)
printf '{"note": "t-key"}' >"$TEST_TMP/t.json"
: >"$TEST_TMP/k.codes"
_w=
for _h in "$h1" "$h2"; do
	curl -s --max-time 10 -o /dev/null -w '%{http_code}\n' \
	    -H 'Content-Type: application/json' -H 'Idempotency-Key: t-key-1' \
	    --data-binary "@$TEST_TMP/t.json" "$_h/slow" >>"$TEST_TMP/k.codes" &
	_w="$_w $!"
done
# shellcheck disable=SC2086
wait $_w
touch "$GO/t-key.half" "$GO/t-key.done"
task_act "$h1" t-key -H 'Idempotency-Key: t-key-1'
expect_code 202 "task with a key: a retry through h1 answers 202"
expect_header Idempotent-Replayed true "task with a key: ... replayed"
ka=$tid
task_act "$h2" t-key -H 'Idempotency-Key: t-key-1'
expect_true "task with a key: through h2, the same task ($tid)" \
    test -n "$tid" -a "$tid" = "$ka"
n1=$(tasks)
codes=$(sort "$TEST_TMP/k.codes" | tr '\n' ' ')
expect_true "task with a key: both hosts at once made one task ($n0, $n1)" \
    test $((n1 - n0)) -eq 1
expect_true "task with a key: ... answered 202 and 202 or 409 ($codes)" \
    sh -c "echo '$codes' | grep -Eq '^(202 202|202 409) \$'"
expect_true "task with a key: it completes" \
    task_wait "$h2" "$ka" status completed
task_act "$h2" t-other -H 'Idempotency-Key: t-key-1'
expect_code 422 "task with a key: another body under the key, through h2: 422"

# --- 1,000 acts, h2 killed halfway ---------------------------------------------
{ cat "$TEST_TMP/h2/gpt.pid"; echo; cat "$TEST_TMP/h2/nginx.pid.master"; } \
    >"$TEST_TMP/h2.pids"
pgrep -P "$(cat "$TEST_TMP/h2/nginx.pid.master")" >>"$TEST_TMP/h2.pids"
client "$lb/ledger" "$N" 16 r2 "$TEST_TMP/r2.out" $((N / 2)) \
    "$TEST_TMP/h2.pids" "$TEST_TMP/h2/"
expect_true "r2: h2 is gone" \
    test "$(curl -s -o /dev/null -w '%{http_code}' "$h2/ledger")" = 000
got=$(wc -l <"$TEST_TMP/r2.out")
expect_true "r2: the client has an outcome for each of $N acts ($got)" \
    test "$got" -eq "$N"
ok=$(jq -s 'map(select(.status == 200)) | length' "$TEST_TMP/r2.out")
lost=$(jq -s 'map(select(.status != 200)) | length' "$TEST_TMP/r2.out")
kinds=$(jq -r 'select(.status != 200) | "\(.status)\(.error // "")"' \
    "$TEST_TMP/r2.out" | sort | uniq -c | tr -s ' \n' ' ')
echo "r2: $ok answered 200, $lost not ($kinds)"
expect_true "r2: the kill caught acts in flight ($lost without a 200)" \
    test "$lost" -gt 0
# A 503 is the balancer's own when it took the surviving host for down
# too (its check waits behind the acts on busy cores): no host saw that
# act, and it carries no X-Backend.
expect_true "r2: an act without a 200 got a 502, the balancer's 503 or no answer ($kinds)" \
    test "$(jq -s 'map(select(.status != 200 and .status != 502 and
        .status != 0 and (.status != 503 or .backend != null))) | length' \
        "$TEST_TMP/r2.out")" -eq 0
expect_true "r2: the balancer sent no act twice (no replayed answer)" \
    test "$(jq -s 'map(select(.replayed)) | length' \
        "$TEST_TMP/r2.out")" -eq 0
rows r2 >"$TEST_TMP/r2.rows"
answered "$TEST_TMP/r2.out" >"$TEST_TMP/r2.ans"
missing=$(comm -13 "$TEST_TMP/r2.rows" "$TEST_TMP/r2.ans" | wc -l)
expect_true "r2: every 200's id is its act's row ($missing missing)" \
    test "$missing" -eq 0
# Rows without a 200: acts the killed host committed whose answer died
# with it (the hook commits, then prints).  Each must be an act that got
# no 200, and must come from h2.
comm -23 "$TEST_TMP/r2.rows" "$TEST_TMP/r2.ans" | cut -d' ' -f1 \
    >"$TEST_TMP/r2.extra"
jq -r 'select(.status != 200) | .ref' "$TEST_TMP/r2.out" | sort \
    >"$TEST_TMP/r2.no200"
extra=$(wc -l <"$TEST_TMP/r2.extra")
stray=$(comm -23 "$TEST_TMP/r2.extra" "$TEST_TMP/r2.no200" | wc -l)
expect_true "r2: each row without a 200 is an act that got none ($stray not)" \
    test "$stray" -eq 0
if [ "$extra" -gt 0 ]; then
	w=$(sed "s/.*/'&'/" "$TEST_TMP/r2.extra" | paste -sd, -)
	from=$(sql "SELECT DISTINCT address FROM entries WHERE ref IN ($w)")
	expect_true "r2: stored without an answer only on the killed host ($from)" \
	    test "$from" = "$TEST_TMP/h2/root/ledger"
fi
echo "r2: $extra acts stored whose answer was lost with h2"
# The actor retries each act that got no 200, with the same key.
jq -r 'select(.status != 200) | .i' "$TEST_TMP/r2.out" >"$TEST_TMP/r2.retry"
client "$lb/ledger" "$N" 8 r2 "$TEST_TMP/r2b.out" --only "$TEST_TMP/r2.retry"
ok2=$(jq -s 'map(select(.status == 200 and .backend == "h1")) | length' \
    "$TEST_TMP/r2b.out")
expect_true "r2: every retry answered 200 by h1 ($ok2 of $lost)" \
    test "$ok2" -eq "$lost"
rep=$(jq -s 'map(select(.replayed)) | length' "$TEST_TMP/r2b.out")
expect_true "r2: exactly the acts stored without an answer replay ($rep, $extra)" \
    test "$rep" -eq "$extra"
n=$(sql "SELECT count(*) FROM entries WHERE ref LIKE 'r2-%'")
expect_true "r2: after the retries, $N rows (got $n)" test "$n" = "$N"
d=$(sql "SELECT count(DISTINCT what) FROM entries WHERE ref LIKE 'r2-%'")
expect_true "r2: no act stored twice ($d distinct)" test "$d" = "$N"
rows r2 >"$TEST_TMP/r2.rows"
cat "$TEST_TMP/r2.ans" >"$TEST_TMP/r2.all"
answered "$TEST_TMP/r2b.out" >>"$TEST_TMP/r2.all"
sort -o "$TEST_TMP/r2.all" "$TEST_TMP/r2.all"
expect_true "r2: every act's answered id is its row" \
    cmp -s "$TEST_TMP/r2.rows" "$TEST_TMP/r2.all"

# --- the SQLite default, one host ------------------------------------------------
client "$h1/ledger-local" 100 16 lite "$TEST_TMP/lite.out"
ok=$(jq -s 'map(select(.status == 200)) | length' "$TEST_TMP/lite.out")
expect_true "sqlite: 100 concurrent acts answered 200 (got $ok)" \
    test "$ok" -eq 100
if [ "$ok" -ne 100 ]; then
	# what the others got, and what the host said about them
	jq -c 'select(.status != 200)' "$TEST_TMP/lite.out" >&2
	grep -v 'act accepted' "$TEST_TMP/h1/nginx-error.log" | tail -n 20 >&2
fi
"$PY" -c 'import sqlite3, sys
for r in sqlite3.connect(sys.argv[1]).execute("SELECT ref, id FROM entries"):
    print(r[0], r[1])' "$TEST_TMP/h1/root/ledger-local/data/ledger.sqlite3" |
    sort >"$TEST_TMP/lite.rows"
answered "$TEST_TMP/lite.out" >"$TEST_TMP/lite.ans"
n=$(wc -l <"$TEST_TMP/lite.rows")
expect_true "sqlite: 100 rows, none lost (got $n)" test "$n" -eq 100
expect_true "sqlite: every answer's id is its act's row" \
    cmp -s "$TEST_TMP/lite.rows" "$TEST_TMP/lite.ans"
n=$(sql "SELECT count(*) FROM entries WHERE ref LIKE 'lite-%'")
expect_true "sqlite: nothing went to PostgreSQL ($n)" test "$n" -eq 0

# --- stop ------------------------------------------------------------------------
# Hooks still running (none should be) are ours: their working directory
# is under $TEST_TMP.  Wait for them (at most 10 s), then stop the rest.
_i=0
while [ "$_i" -lt 100 ]; do
	h=0
	for _p in $(pgrep -f '^/usr/bin/python3 ./hook$'); do
		case $(readlink "/proc/$_p/cwd" 2>/dev/null) in
		"$TEST_TMP"/*) h=$((h + 1)) ;;
		esac
	done
	[ "$h" -eq 0 ] && break
	sleep 0.1
	_i=$((_i + 1))
done
expect_true "no hook left running ($h)" test "$h" -eq 0
stop_pg
stop_started
n=$(pgrep -f "^$TEST_TMP/" | wc -l)
expect_true "no process left after stopping (got $n)" test "$n" -eq 0
expect_true "PostgreSQL stopped" test ! -e "$pg/data/postmaster.pid"

finish
