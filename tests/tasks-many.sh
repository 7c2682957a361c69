#!/bin/sh
# tasks-many.sh: 1,000 tasks at once on one host, through nginx and a
# spawn-fcgi pool of 4 (the shipped configuration): every act is answered
# 202, every task completes with its own result, none is lost or run
# twice, and memory stays bounded (the runners' proportional set size at
# the peak, the pool's resident size before and after).  Prints the
# figures.  COUNT (1000) tasks, each hook HOLD (25) seconds: longer than
# the 1,000 fsynced submissions take on a slow disk, so all run at once.
. "${GPT_SRCDIR:-.}/tests/servers-common.sh"
need nginx spawn-fcgi node
COUNT=${COUNT:-1000}
HOLD=${HOLD:-25}

if [ "$(id -u)" -eq 0 ]; then
	users="APPUSER=daemon APPGROUP=daemon WEBUSER=www-data WEBGROUP=www-data"
else
	users="APPUSER=$(id -un) APPGROUP=$(id -gn) WEBUSER=$(id -un) WEBGROUP=$(id -gn)"
fi
_t=$TEST_TMP/many
mkdir -p "$_t"
chmod 755 "$_t"
install_bin "$_t/bin"
make_root "$_t/root"
mkdir -p "$_t/root/many"
cp "$GPT_SRCDIR/examples/echo/form.json" "$_t/root/many/form.json"
printf 'act = task\ntask_poll = 1\n' >"$_t/root/many/address.conf"
printf '#!/bin/sh\nbody=$(cat)\necho x >>data/ran\nsleep %s\nprintf "%%s" "$body"\n' \
    "$HOLD" >"$_t/root/many/hook"
chmod -R a+rX,go-w "$_t/root/many"
chmod 755 "$_t/root/many/hook"
# the hook writes in data/; the store is the user's gpt.fcgi runs as
mkdir -p "$_t/root/many/data" "$_t/root/many/.store"
chmod 777 "$_t/root/many/data"
chmod 700 "$_t/root/many/.store"
if [ "$(id -u)" -eq 0 ]; then
	chown daemon:daemon "$_t/root/many/.store"
fi
port=$(free_port)
# shellcheck disable=SC2086
render nginx-fastcgi.conf "$_t/nginx.conf" PORT="$port" ROOT="$_t/root" \
    TMP="$_t" BIN="$_t/bin/gpt.fcgi" $users
spawn=$(sed -n 's/^#   \(spawn-fcgi -F .*\)$/\1/p' "$_t/nginx.conf")
if [ "$(id -u)" -ne 0 ]; then
	spawn=$(printf '%s\n' "$spawn" | sed 's/ -[ugUG] [^ ]*//g')
fi
$spawn >"$_t/spawn.log" 2>&1
pool=$(cat "$_t/gpt.pid")
# shellcheck disable=SC2086
started $pool
nginx -p "$_t" -e "$_t/nginx-error.log" -c "$_t/nginx.conf" \
    >"$_t/stdout" 2>&1 &
started $!
base=http://127.0.0.1:$port/gpt
wait_ready "$base/echo" || { cat "$_t"/*.log >&2; exit 1; }

# rss PIDS: resident KiB, summed.
rss() {
	_s=0
	for _p in "$@"; do
		_k=$(awk '/^VmRSS:/ { print $2 }' "/proc/$_p/status" 2>/dev/null)
		_s=$((_s + ${_k:-0}))
	done
	echo "$_s"
}
# shellcheck disable=SC2086
pool_before=$(rss $pool)

# The runners' memory at the peak: their Pss (shared pages counted once
# overall), sampled while the tasks run.
(
	peak=0 most=0
	end=$(($(date +%s) + HOLD + 60))
	while [ "$(date +%s)" -lt "$end" ] && [ ! -e "$_t/done" ]; do
		s=0 n=0
		for p in $(pgrep -f "^$_t/bin/gpt.fcgi"); do
			case " $pool " in *" $p "*) continue ;; esac
			k=$(awk '/^Pss:/ { print $2 }' "/proc/$p/smaps_rollup" 2>/dev/null)
			s=$((s + ${k:-0}))
			n=$((n + 1))
		done
		[ "$s" -gt "$peak" ] && peak=$s
		[ "$n" -gt "$most" ] && most=$n
		sleep 0.5
	done
	echo "$peak $most" >"$_t/peak"
) &
sampler=$!

cat >"$TEST_TMP/many.js" <<'JS'
// Send COUNT acts at once (128 connections), then poll every task until
// it ends; print one JSON line of figures.
const http = require("http");
const [base, count] = [process.argv[2], +process.argv[3]];
const agent = new http.Agent({keepAlive: true, maxSockets: 128});
const u = new URL(base);
function request(method, path, body) {
	return new Promise((resolve) => {
		const req = http.request({host: u.hostname, port: u.port, path,
		    method, agent, headers: body ? {"Content-Type":
		    "application/json", "Content-Length": Buffer.byteLength(body)}
		    : {}}, (res) => {
			const c = [];
			res.on("data", (d) => c.push(d));
			res.on("end", () => resolve({status: res.statusCode,
			    headers: res.headers, body: Buffer.concat(c).toString()}));
		});
		req.on("error", (e) => resolve({status: 0, error: String(e)}));
		req.setTimeout(60000, () => req.destroy(new Error("timeout")));
		if (body) req.write(body);
		req.end();
	});
}
(async () => {
	const t0 = Date.now();
	const acts = await Promise.all([...Array(count).keys()].map((i) =>
	    request("POST", u.pathname, JSON.stringify({note: "task " + i}))));
	const t1 = Date.now();
	const accepted = acts.filter((r) => r.status === 202);
	const want = new Map();
	acts.forEach((r, i) => { if (r.status === 202) want.set(r.headers.location, "task " + i); });
	const done = new Map();
	const deadline = Date.now() + 120000;
	while (done.size < want.size && Date.now() < deadline) {
		await new Promise((r) => setTimeout(r, 1000));
		const left = [...want.keys()].filter((l) => !done.has(l));
		const got = await Promise.all(left.map((l) => request("GET", l)));
		got.forEach((r, k) => {
			if (r.status !== 200) return;
			const d = JSON.parse(r.body);
			if (d.status !== "working") done.set(left[k], d);
		});
	}
	const t2 = Date.now();
	let completed = 0, right = 0;
	const reasons = {};
	for (const [l, d] of done) {
		if (d.status === "completed") completed++;
		else reasons[d.status + ": " + d.reason] =
		    (reasons[d.status + ": " + d.reason] || 0) + 1;
		if (d.result && d.result.note === want.get(l)) right++;
	}
	const ids = new Set([...want.keys()]);
	console.log(JSON.stringify({sent: count, accepted: accepted.length,
	    distinct: ids.size, ended: done.size, completed, right, reasons,
	    submit_ms: t1 - t0, all_done_ms: t2 - t0}));
	agent.destroy();
})();
JS
node "$TEST_TMP/many.js" "$base/many" "$COUNT" >"$TEST_TMP/many.out" 2>&1
touch "$_t/done"
wait "$sampler"
# shellcheck disable=SC2086
pool_after=$(rss $pool)
cat "$TEST_TMP/many.out"
read -r peak most <"$_t/peak"
echo "tasks-many: runners at once: $most, their Pss at the peak: $peak KiB" \
    "($((peak / (most > 0 ? most : 1))) KiB each); pool RSS $pool_before KiB" \
    "before, $pool_after KiB after"
jqv() { jq -r ".$1" "$TEST_TMP/many.out" 2>/dev/null; }
expect_true "tasks-many: every act answered 202 ($(jqv accepted) of $COUNT)" \
    test "$(jqv accepted)" = "$COUNT"
expect_true "tasks-many: every task has its own id ($(jqv distinct))" \
    test "$(jqv distinct)" = "$COUNT"
expect_true "tasks-many: every task completed ($(jqv completed))" \
    test "$(jqv completed)" = "$COUNT"
expect_true "tasks-many: each with its own result ($(jqv right))" \
    test "$(jqv right)" = "$COUNT"
ran=$(wc -l <"$_t/root/many/data/ran")
expect_true "tasks-many: each hook ran once ($ran runs)" test "$ran" -eq "$COUNT"
expect_true "tasks-many: the tasks ran at once (at most $most runners seen)" \
    test "$most" -ge $((COUNT / 2))
expect_true "tasks-many: the pool did not grow past 2x ($pool_before -> $pool_after KiB)" \
    test "$pool_after" -le $((pool_before * 2 + 4096))
expect_true "tasks-many: runners take under 2 MiB each at the peak" \
    test "$peak" -le $((most * 2048 + 1))
left=$(pgrep -f "^$_t/bin/gpt.fcgi" | wc -l)
expect_true "tasks-many: only the pool is left ($left processes)" \
    test "$left" -eq "$(echo $pool | wc -w)"
stop_started
finish
