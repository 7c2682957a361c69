#!/bin/sh
# fcgi.sh: the same binary as a real FastCGI application (spawn-fcgi on a
# unix socket, requests sent with cgi-fcgi): many requests to one process
# share nothing, a changed form is reloaded, bad input never ends the
# process, and the hook never sees the process environment.
. "${GPT_SRCDIR:-.}/tests/lib.sh"

for tool in spawn-fcgi cgi-fcgi; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		# A missing tool is an error, not a skip: scripts/install-deps
		# installs both.
		echo "fcgi.sh: $tool is required (Debian: spawn-fcgi, libfcgi-bin)"
		exit 1
	fi
done
CGI_FCGI=$(command -v cgi-fcgi)

ROOT=$TEST_TMP/root
SOCK=$TEST_TMP/gpt.sock
cp -R "$GPT_SRCDIR/tests/data/addresses" "$ROOT"
chmod -R u+w "$ROOT"
chmod 755 "$ROOT/modes/hook" "$ROOT/explain/hook"
: >"$TEST_TMP/empty"

# The process environment carries GPT_ROOT (as spawn-fcgi's would) and a
# marker that must never reach a hook; every rejection line is written
# (the rate limit has its own process below).  In a sanitizer build, freed memory
# waits in a quarantine that would look like growth: turn it off.
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=0"
export ASAN_OPTIONS
GPT_ROOT=$ROOT GPT_TEST_MARKER=leaked GPT_LOG_REJECT_LIMIT=no \
    spawn-fcgi -s "$SOCK" -n -- "$GPT_FCGI" 2>"$TEST_TMP/server-err" &
pid=$!
pid2=
pid3=
stop() {
	stop_pid "$pid"
	[ -z "$pid2" ] || stop_pid "$pid2"
	[ -z "$pid3" ] || stop_pid "$pid3"
	rm -rf "$TEST_TMP"
}
trap stop EXIT
i=0
while [ ! -S "$SOCK" ] && [ $i -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
if [ ! -S "$SOCK" ]; then
	echo "fcgi.sh: the FastCGI process did not start: $(cat "$TEST_TMP/server-err")"
	exit 1
fi

# fcgi METHOD PATH_INFO STDIN [VAR=VALUE...]: one request to the process.
fcgi() {
	_m=$1 _p=$2 _in=$3
	shift 3
	env -i REQUEST_METHOD="$_m" PATH_INFO="$_p" REQUEST_URI="/gpt$_p" \
	    SERVER_PROTOCOL=HTTP/1.1 REMOTE_ADDR=192.0.2.9 "$@" \
	    timeout 20 "$CGI_FCGI" -bind -connect "$SOCK" <"$_in" \
	    >"$TEST_TMP/resp" 2>"$TEST_TMP/err"
	sed '/^\r$/q' "$TEST_TMP/resp" | tr -d '\r' >"$TEST_TMP/head"
	sed '1,/^\r$/d' "$TEST_TMP/resp" >"$TEST_TMP/body"
	code=$(sed -n '1s/^Status: \([0-9]*\).*/\1/p' "$TEST_TMP/head")
}

post() { # PATH_INFO TEXT [VAR=VALUE...]
	_p=$1
	printf "$2" >"$TEST_TMP/in"
	shift 2
	fcgi POST "$_p" "$TEST_TMP/in" CONTENT_TYPE=application/json \
	    CONTENT_LENGTH="$(wc -c <"$TEST_TMP/in" | tr -d ' ')" "$@"
}

expect_code() {
	if [ "$code" = "$1" ]; then pass; else
		fail "$2: status '$code', expected $1 (stderr: $(head -c 300 "$TEST_TMP/err"))"
	fi
}

expect_alive() {
	if kill -0 "$pid" 2>/dev/null; then pass; else
		fail "$1: the FastCGI process $pid is gone"
	fi
}

fcgi GET /modes "$TEST_TMP/empty"
expect_code 200 "GET"
cp "$TEST_TMP/body" "$TEST_TMP/get1"
etag=$(sed -n 's/^ETag: //p' "$TEST_TMP/head")
fcgi GET /modes "$TEST_TMP/empty" HTTP_GPT_ACTOR=other HTTP_COOKIE=x=y
expect_code 200 "GET again, another actor"
if cmp -s "$TEST_TMP/get1" "$TEST_TMP/body"; then pass; else
	fail "GET answers the same bytes to every request"; fi
fcgi HEAD /modes "$TEST_TMP/empty"
expect_code 200 "HEAD"
if [ ! -s "$TEST_TMP/body" ]; then pass; else fail "HEAD has a body"; fi
fcgi GET /modes "$TEST_TMP/empty" HTTP_IF_NONE_MATCH="$etag"
expect_code 304 "If-None-Match"
fcgi DELETE /modes "$TEST_TMP/empty"
expect_code 405 "DELETE"
fcgi GET /.. "$TEST_TMP/empty"
expect_code 404 "PATH_INFO /.."
fcgi GET "" "$TEST_TMP/empty" GPT_ADDRESS="$ROOT/explain"
expect_code 200 "GPT_ADDRESS as a request parameter"
if grep -q 'failures are explained' "$TEST_TMP/body"; then pass; else
	fail "the request's GPT_ADDRESS wins over the process GPT_ROOT"; fi

# State isolation: rejections and acceptances in turn, other actors.
for round in 1 2 3; do
	post /modes '{"mode":"echo",}' HTTP_GPT_ACTOR=a$round
	expect_code 204 "round $round: a bad body"
	if grep -q "act rejected.*actor \"a$round\"" "$TEST_TMP/err"; then
		pass; else
		fail "round $round: the rejection reaches the web server's log"
	fi
	post /modes '{"mode":"echo","note":"n'$round'"}' HTTP_GPT_ACTOR=b$round
	expect_code 200 "round $round: then a good one"
	if grep -q "\"note\":\"n$round\"" "$TEST_TMP/body"; then pass; else
		fail "round $round: the answer is this act's: $(cat "$TEST_TMP/body")"
	fi
	post /modes '{"mode":"nope"}'
	expect_code 204 "round $round: a body failing the form"
	post /explain '{"note":""}'
	expect_code 422 "round $round: explain at another address"
	expect_strict_json "round $round: the 422 body"
	post /modes '{"mode":"echo"}' HTTP_IF_MATCH='"stale"'
	expect_code 412 "round $round: a stale If-Match"
done

# The hook's environment: nothing of the process's.
post /modes '{"mode":"env"}' HTTP_GPT_ACTOR=tester
expect_code 200 "env mode"
if grep -q -e GPT_TEST_MARKER -e GPT_ROOT -e REQUEST_METHOD \
    "$ROOT/modes/last-env"; then
	fail "the process environment reached the hook"
else pass; fi
if grep -q -x 'GPT_ACTOR=tester' "$ROOT/modes/last-env"; then pass; else
	fail "the hook gets GPT_ACTOR"; fi

# Bad input of every kind, then the process still answers.
for m in exit kill sleep big notjson trailing empty; do
	post /modes "{\"mode\":\"$m\"}"
	case $m in sleep) want=504 ;; *) want=502 ;; esac
	expect_code $want "hook mode $m"
done
head -c 5000 /dev/zero | tr '\0' '[' >"$TEST_TMP/deep"
fcgi POST /modes "$TEST_TMP/deep" CONTENT_TYPE=application/json \
    CONTENT_LENGTH=5000
expect_code 204 "an oversize body"
fcgi POST /modes "$TEST_TMP/deep" CONTENT_TYPE=application/json \
    CONTENT_LENGTH=999999999999
expect_code 204 "a huge CONTENT_LENGTH"
post /modes '{"mode":"echo","note":"\377"}'
expect_code 204 "invalid UTF-8"
post /modes '{"mode":"echo"}' CONTENT_TYPE=text/plain
expect_code 204 "text/plain"
fcgi GET /broken-json "$TEST_TMP/empty"
expect_code 500 "a broken address"
post /nohook '{}'
expect_code 502 "an address without a hook"
post /modes '{"mode":"echo"}'
expect_code 200 "a good act after all that"
expect_alive "after every bad input"

# Reload: edit the form, wait past the recheck interval, see the new bytes.
form=$ROOT/modes/form.json
cp "$form" "$TEST_TMP/form.orig"
sed 's/pick a mode/choose a mode/' "$TEST_TMP/form.orig" >"$form"
sleep 1.2
fcgi GET /modes "$TEST_TMP/empty"
expect_code 200 "GET after an edit"
if grep -q 'choose a mode' "$TEST_TMP/body"; then pass; else
	fail "the edited form is served"; fi
printf '{"p": "broken",' >"$form"
sleep 1.2
fcgi GET /modes "$TEST_TMP/empty"
expect_code 500 "GET after the form broke"
post /modes '{"mode":"echo"}'
expect_code 500 "POST after the form broke"
cp "$TEST_TMP/form.orig" "$form"
sleep 1.2
fcgi GET /modes "$TEST_TMP/empty"
expect_code 200 "GET after the form was fixed"
if cmp -s "$TEST_TMP/get1" "$TEST_TMP/body"; then pass; else
	fail "the fixed form gives the first bytes again"; fi
# A same-size rewrite in place whose mtime is put back (touch -d, tar,
# rsync -t) still changes ctime: it is reloaded.  (Operators replace the
# form by rename; this is the path of tools that do not.)
mtime=$(stat -c %y "$form")
sed 's/pick a mode/pick a MODE/' "$TEST_TMP/form.orig" >"$TEST_TMP/form.same"
cat "$TEST_TMP/form.same" >"$form"
touch -d "$mtime" "$form"
if [ "$(stat -c %y "$form")" = "$mtime" ] &&
    [ "$(wc -c <"$form")" = "$(wc -c <"$TEST_TMP/form.orig")" ]; then pass; else
	fail "the rewrite keeps size and mtime"; fi
sleep 1.2
fcgi GET /modes "$TEST_TMP/empty"
if [ "$code" = 200 ] && grep -q 'pick a MODE' "$TEST_TMP/body"; then pass; else
	fail "a rewrite that kept size and mtime is reloaded (status '$code')"; fi
cp "$TEST_TMP/form.orig" "$form"
sleep 1.2
fcgi GET /modes "$TEST_TMP/empty"
if cmp -s "$TEST_TMP/get1" "$TEST_TMP/body"; then pass; else
	fail "the form put back gives the first bytes again"; fi

# Memory stays flat: many requests do not grow the process.
rss() { sed -n 's/^VmRSS:[^0-9]*\([0-9]*\).*/\1/p' "/proc/$pid/status"; }
for i in $(seq 1 30); do post /modes '{"mode":"echo"}' >/dev/null; done
rss1=$(rss)
for i in $(seq 1 100); do
	post /modes '{"mode":"echo","note":"x"}'
	post /modes '{"mode":"echo",}'
done
rss2=$(rss)
if [ "$rss2" -le $((rss1 + 1024)) ]; then pass; else
	fail "memory grew from ${rss1} kB to ${rss2} kB over 200 requests"
fi
expect_alive "at the end"

# The answer's records, checked by a client of our own over one kept
# connection (FCGI_KEEP_CONN, as lighttpd and Apache's mod_proxy_fcgi keep
# it): every answer is STDERR records (when it logs), STDOUT records, an
# empty STDERR after any STDERR, an empty STDOUT, then END_REQUEST, all
# with the request's id; nothing follows END_REQUEST but the next answer,
# and the connection serves request after request.
cat >"$TEST_TMP/keep.pl" <<'EOF'
use strict;
use warnings;
use Socket;
my ($path, @reqs) = @ARGV;
$SIG{ALRM} = sub { print "timeout\n"; exit 1 };
alarm 20;
socket(my $s, PF_UNIX, SOCK_STREAM, 0) or die "socket: $!";
connect($s, pack_sockaddr_un($path)) or die "connect: $!";
binmode $s;
sub rec {
	my ($type, $id, $c) = @_;
	my $pad = (8 - length($c) % 8) % 8;
	return pack('CCnnCC', 1, $type, $id, length $c, $pad, 0) . $c . ("\0" x $pad);
}
sub len { my $n = length shift; return $n < 128 ? pack('C', $n) : pack('N', $n | 0x80000000) }
sub nv { my ($n, $v) = @_; return len($n) . len($v) . $n . $v }
sub readn {
	my $n = shift;
	my $b = '';
	while (length $b < $n) {
		my $got = sysread($s, $b, $n - length $b, length $b);
		return $b if !$got;
	}
	return $b;
}
my $i = 0;
for my $r (@reqs) {
	my ($m, $pi, $body) = split /\|/, $r, 3;
	my $id = ++$i;
	my $p = nv('REQUEST_METHOD', $m) . nv('PATH_INFO', $pi)
	    . nv('REQUEST_URI', "/gpt$pi") . nv('SERVER_PROTOCOL', 'HTTP/1.1');
	$p .= nv('CONTENT_TYPE', 'application/json')
	    . nv('CONTENT_LENGTH', length $body) if $m eq 'POST';
	my $out = rec(1, $id, pack('nCx5', 1, 1)) . rec(4, $id, $p) . rec(4, $id, '')
	    . ($m eq 'POST' && length $body ? rec(5, $id, $body) : '') . rec(5, $id, '');
	syswrite($s, $out) == length $out or die "write: $!";
	my ($stdout, $stderr, $seq) = ('', '', '');
	for (;;) {
		my $h = readn(8);
		if (length $h < 8) { print "request $id: connection closed early\n"; exit 1 }
		my ($v, $type, $rid, $clen, $pad) = unpack('CCnnC', $h);
		my $c = substr(readn($clen + $pad), 0, $clen);
		if ($v != 1 || $rid != $id) { print "request $id: record v$v id $rid\n"; exit 1 }
		if ($type == 6) { $seq .= $clen ? 'O' : 'o'; $stdout .= $c }
		elsif ($type == 7) { $seq .= $clen ? 'E' : 'e'; $stderr .= $c }
		elsif ($type == 3) { $seq .= 'X'; last }
		else { $seq .= "?$type" }
	}
	$seq =~ s/O+/O/g;
	$seq =~ s/E+/E/g;
	my ($status) = $stdout =~ /^Status: (\d+)/;
	my $log = $stderr =~ /(act \w+)/ ? $1 : '-';
	if (defined $ENV{KEEP_LOG}) {
		open(my $f, '>>', $ENV{KEEP_LOG}) or die "$ENV{KEEP_LOG}: $!";
		print $f $stderr;
		close $f;
	}
	my $blen = length($stdout) - (index($stdout, "\r\n\r\n") + 4);
	print "request $id: ", $status // '?', " $seq $log $blen\n";
}
shutdown($s, 1);
my $rest = readn(1);
print length $rest ? "bytes after the last answer\n" : "clean end\n";
EOF
get_len=$(wc -c <"$TEST_TMP/get1" | tr -d ' ')
echo_act='{"mode":"echo","note":"k"}'
timeout 30 perl "$TEST_TMP/keep.pl" "$SOCK" 'POST|/modes|{"mode":"nope"}' \
    'GET|/modes|' "POST|/modes|$echo_act" \
    'POST|/explain|{"note":""}' 'GET|/modes|' >"$TEST_TMP/keep.out" 2>&1
explain_len=$(sed -n 's/^request 4: 422 EOeoX act rejected \([1-9][0-9]*\)$/\1/p' \
    "$TEST_TMP/keep.out")
printf '%s\n' "request 1: 204 EOeoX act rejected 0" \
    "request 2: 200 OoX - $get_len" \
    "request 3: 200 EOeoX act accepted ${#echo_act}" \
    "request 4: 422 EOeoX act rejected ${explain_len:-?}" \
    "request 5: 200 OoX - $get_len" "clean end" >"$TEST_TMP/keep.want"
if cmp -s "$TEST_TMP/keep.want" "$TEST_TMP/keep.out"; then pass; else
	fail "answers over one kept connection: $(cat "$TEST_TMP/keep.out")"
fi
expect_alive "after a kept connection"

# Rejection lines are rate-limited per process (a burst of 10, then 5 a
# second; gpt.fcgi(8)): 100 rejected acts in a fresh process, one kept
# connection, write the burst (and what the time taken earned) and no
# STDERR record for the rest; the next line written, a second later, is
# preceded by one summary, and the lines and the counts add up to 101.
SOCK3=$TEST_TMP/limit.sock
GPT_ROOT=$ROOT spawn-fcgi -s "$SOCK3" -n -- "$GPT_FCGI" \
    2>"$TEST_TMP/limit-err" &
pid3=$!
i=0
while [ ! -S "$SOCK3" ] && [ $i -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
set --
i=0
while [ $i -lt 100 ]; do
	set -- "$@" 'POST|/modes|{"mode":"nope"}'
	i=$((i + 1))
done
: >"$TEST_TMP/limit.log"
t0=$(date +%s)
KEEP_LOG=$TEST_TMP/limit.log timeout 30 perl "$TEST_TMP/keep.pl" "$SOCK3" \
    "$@" >"$TEST_TMP/limit.out" 2>&1
t1=$(date +%s)
n204=$(grep -c '^request [0-9]*: 204 ' "$TEST_TMP/limit.out")
nerr=$(grep -c '^request [0-9]*: 204 EOeoX' "$TEST_TMP/limit.out")
lines=$(grep -c 'notice: act rejected at ' "$TEST_TMP/limit.log")
max=$((10 + 5 * (t1 - t0 + 1)))
expect_true "a burst of 100 rejected acts: all answered 204 (got $n204)" \
    test "$n204" -eq 100
expect_true "a burst of 100: at most $max rejection lines (got $lines)" \
    test "$lines" -ge 10 -a "$lines" -le "$max"
expect_true "a burst of 100: no STDERR record for a suppressed line" \
    test "$nerr" -eq "$lines"
expect_true "a burst of 100: no summary yet" \
    sh -c "! grep -q 'suppressed' '$TEST_TMP/limit.log'"
sleep 1.2
timeout 30 env KEEP_LOG="$TEST_TMP/limit.log" perl "$TEST_TMP/keep.pl" \
    "$SOCK3" 'POST|/modes|{"mode":"nope"}' >"$TEST_TMP/limit.out" 2>&1
lines=$(grep -c 'notice: act rejected at ' "$TEST_TMP/limit.log")
nsum=$(grep -c '^gpt.fcgi: notice: [0-9]* rejection lines suppressed in the last [0-9]* s$' \
    "$TEST_TMP/limit.log")
supp=$(sed -n 's/^gpt.fcgi: notice: \([0-9]*\) rejection lines suppressed.*/\1/p' \
    "$TEST_TMP/limit.log" | awk '{ s += $1 } END { print s + 0 }')
expect_true "after a second: one summary line (got $nsum)" test "$nsum" -eq 1
expect_true "lines written ($lines) and suppressed ($supp) add up to 101" \
    test $((lines + supp)) -eq 101
expect_true "the summary comes right before the line that resumed" \
    sh -c "tail -n 2 '$TEST_TMP/limit.log' | head -n 1 | grep -q suppressed"
stop_pid "$pid3"
pid3=

# Answers larger than one FastCGI record (65535 bytes): a large form's GET
# and a large act echoed by its hook arrive whole, byte for byte what the
# same binary answers as CGI.
mkdir "$ROOT/large"
{
	printf '{"p": "'
	head -c 150000 /dev/zero | tr '\0' p
	printf '", "m": [], "s": {"type": "object", "properties": '
	printf '{"t": {"type": "string"}, "fds": {"const": true}}}}'
} >"$ROOT/large/form.json"
printf 'max_body = 400000\nhook_max_output = 400000\n' \
    >"$ROOT/large/address.conf"
# The hook echoes the act, or counts the sockets it holds (the web
# server's connection must not reach it).
cat >"$ROOT/large/hook" <<'EOF'
#!/bin/sh
body=$(cat)
case $body in
*'"fds"'*) printf '{"sockets": %d}\n' "$(ls -l /proc/self/fd | grep -c socket)" ;;
*) printf '%s' "$body" ;;
esac
EOF
chmod 755 "$ROOT/large/hook"
env -i REQUEST_METHOD=GET GPT_ADDRESS="$ROOT/large" "$GPT_FCGI" \
    </dev/null >"$TEST_TMP/large.cgi" 2>/dev/null
fcgi GET /large "$TEST_TMP/empty"
if [ "$code" = 200 ] && cmp -s "$TEST_TMP/large.cgi" "$TEST_TMP/resp"; then
	pass
else
	fail "a 150 KB GET over FastCGI: status '$code'," \
	    "$(wc -c <"$TEST_TMP/resp") bytes, CGI gives $(wc -c <"$TEST_TMP/large.cgi")"
fi
{
	printf '{"t": "'
	head -c 200000 /dev/zero | tr '\0' t
	printf '"}'
} >"$TEST_TMP/large.act"
fcgi POST /large "$TEST_TMP/large.act" CONTENT_TYPE=application/json \
    CONTENT_LENGTH="$(wc -c <"$TEST_TMP/large.act" | tr -d ' ')"
if [ "$code" = 200 ] && cmp -s "$TEST_TMP/large.act" "$TEST_TMP/body"; then
	pass
else
	fail "a 200 KB act echoed over FastCGI: status '$code'," \
	    "$(wc -c <"$TEST_TMP/body") bytes"
fi
post /large '{"fds": true}'
if [ "$code" = 200 ] && grep -q '"sockets": 0' "$TEST_TMP/body"; then pass; else
	fail "the hook holds no socket: status '$code', $(cat "$TEST_TMP/body")"
fi

# Stalled connections (GPT_FCGI_IDLE_TIMEOUT 2 s, GPT_FCGI_REQUEST_TIMEOUT
# 4 s, on a process of their own): one client keeps its connection
# (FCGI_KEEP_CONN) after an answer and goes quiet, one sends half a record
# header and waits, one sends nothing, one sends a request head and
# trickles its body a byte every half second.  Each must be dropped by the
# process (the client sees EOF before its own limit), and a GET sent after
# them all must be answered: one process serves one connection at a time,
# so it is answered only if every stalled one was dropped.
cat >"$TEST_TMP/stall.pl" <<'EOF'
use strict;
use warnings;
use Socket;
use Time::HiRes qw(time);
my ($role, $path) = @ARGV;
my $t0 = time;
$SIG{ALRM} = sub { printf "%s: no answer, still open after %.1f s\n", $role, time - $t0; exit 1 };
alarm 25;
$SIG{PIPE} = 'IGNORE';
socket(my $s, PF_UNIX, SOCK_STREAM, 0) or die "socket: $!";
connect($s, pack_sockaddr_un($path)) or die "connect: $!";
binmode $s;
sub rec {
	my ($type, $c) = @_;
	return pack('CCnnCC', 1, $type, 1, length $c, 0, 0) . $c;
}
sub nv { my ($n, $v) = @_; return pack('CC', length $n, length $v) . $n . $v }
sub head {
	my ($m, $keep, @p) = @_;
	my $p = nv('REQUEST_METHOD', $m) . nv('PATH_INFO', '/modes')
	    . nv('REQUEST_URI', '/gpt/modes') . nv('SERVER_PROTOCOL', 'HTTP/1.1');
	$p .= nv(shift @p, shift @p) while @p;
	return rec(1, pack('nCx5', 1, $keep)) . rec(4, $p) . rec(4, '');
}
# Read to EOF or END_REQUEST: 'eof', or the answer's status.
sub answer {
	my $out = '';
	for (;;) {
		my $h = '';
		while (length $h < 8) {
			my $n = sysread($s, $h, 8 - length $h, length $h);
			return 'eof' if !$n;
		}
		my ($v, $type, $id, $len, $pad) = unpack('CCnnC', $h);
		my $c = '';
		while (length $c < $len + $pad) {
			my $n = sysread($s, $c, $len + $pad - length $c, length $c);
			return 'eof' if !$n;
		}
		$out .= substr($c, 0, $len) if $type == 6;
		return $out =~ /^Status: (\d+)/ ? $1 : '?' if $type == 3;
	}
}
sub closed { print "$role: closed by the process\n"; exit 0 }
if ($role eq 'half') {
	syswrite($s, "\x01\x01\x00");
	closed() if answer() eq 'eof';
} elsif ($role eq 'silent') {
	closed() if answer() eq 'eof';
} elsif ($role eq 'trickle') {
	my $body = '{"mode":"echo","note":"trickled, byte by byte"}';
	syswrite($s, head('POST', 0, 'CONTENT_TYPE', 'application/json',
	    'CONTENT_LENGTH', length $body)
	    . pack('CCnnCC', 1, 5, 1, length $body, 0, 0));
	for my $i (0 .. length($body) - 1) {
		my $rin = '';
		vec($rin, fileno $s, 1) = 1;
		closed() if select(my $r = $rin, undef, undef, 0.5) &&
		    answer() eq 'eof';
		closed() if !defined syswrite($s, substr($body, $i, 1));
	}
	print "trickle: the whole body went through\n";
	exit 1;
} elsif ($role eq 'keep') {
	syswrite($s, head('GET', 1) . rec(5, ''));
	my $st = answer();
	if ($st ne '200') { print "keep: first answer $st\n"; exit 1 }
	closed() if answer() eq 'eof';
} elsif ($role eq 'get') {
	syswrite($s, head('GET', 0) . rec(5, ''));
	my $st = answer();
	print "get: answered $st\n";
	exit($st eq '200' ? 0 : 1);
}
print "$role: bytes where EOF was expected\n";
exit 1;
EOF
SOCK2=$TEST_TMP/stall.sock
GPT_ROOT=$ROOT GPT_FCGI_IDLE_TIMEOUT=2 GPT_FCGI_REQUEST_TIMEOUT=4 \
    spawn-fcgi -s "$SOCK2" -n -- "$GPT_FCGI" 2>"$TEST_TMP/stall-err" &
pid2=$!
i=0
while [ ! -S "$SOCK2" ] && [ $i -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
# In accept order: each client connects once the one before is queued.
for role in keep half silent trickle get; do
	timeout 30 perl "$TEST_TMP/stall.pl" $role "$SOCK2" \
	    >"$TEST_TMP/stall.$role" 2>&1 &
	eval "spid_$role=\$!"
	sleep 0.3
done
for role in keep half silent trickle get; do
	eval "wait \$spid_$role"
	rc=$?
	case $role in get) want="get: answered 200" ;;
	*) want="$role: closed by the process" ;; esac
	if [ $rc -eq 0 ] && [ "$(cat "$TEST_TMP/stall.$role")" = "$want" ]; then
		pass
	else
		fail "stalled connections: $(cat "$TEST_TMP/stall.$role")" \
		    "(exit $rc), expected '$want'"
	fi
done
for line in 'closed a kept FastCGI connection idle for 2 s' \
    'dropped a FastCGI connection that sent no whole request head within 2 s' \
    'did not send the whole request within 4 s'; do
	if grep -q "$line" "$TEST_TMP/stall-err"; then pass; else
		fail "stalled connections: no log line '$line':" \
		    "$(head -c 600 "$TEST_TMP/stall-err")"
	fi
done
if kill -0 "$pid2" 2>/dev/null; then pass; else
	fail "the process is gone after stalled connections"; fi
stop_pid "$pid2"

# FCGI_WEB_SERVER_ADDRS, as libfcgi reads it: a TCP peer not in the list
# is refused (the connection closed, a line logged), one in it answered.
tcp_port=$(perl -MIO::Socket::INET -e 'print IO::Socket::INET->new(Listen => 1, LocalAddr => "127.0.0.1:0")->sockport')
for allowed in 192.0.2.1 192.0.2.1,127.0.0.1; do
	GPT_ROOT=$ROOT FCGI_WEB_SERVER_ADDRS=$allowed \
	    spawn-fcgi -a 127.0.0.1 -p "$tcp_port" -n -- "$GPT_FCGI" \
	    2>"$TEST_TMP/tcp-err" &
	pid3=$!
	i=0
	while ! perl -MIO::Socket::INET -e 'exit !IO::Socket::INET->new("127.0.0.1:'"$tcp_port"'")' 2>/dev/null &&
	    [ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	env -i REQUEST_METHOD=GET PATH_INFO=/modes REQUEST_URI=/gpt/modes \
	    timeout 20 "$CGI_FCGI" -bind -connect "127.0.0.1:$tcp_port" \
	    <"$TEST_TMP/empty" >"$TEST_TMP/resp" 2>"$TEST_TMP/err"
	code=$(sed -n '1s/^Status: \([0-9]*\).*/\1/p' "$TEST_TMP/resp")
	case $allowed in
	*127.0.0.1) expect_code 200 "FCGI_WEB_SERVER_ADDRS=$allowed: answered" ;;
	*)
		expect_true "FCGI_WEB_SERVER_ADDRS=$allowed: refused (status '$code')" \
		    test -z "$code"
		expect_true "FCGI_WEB_SERVER_ADDRS=$allowed: the refusal logged" \
		    grep -q 'not in FCGI_WEB_SERVER_ADDRS' "$TEST_TMP/tcp-err"
		;;
	esac
	stop_pid "$pid3"
	pid3=
done

# refuses_to_start VAR REASON VALUE...: with VAR=VALUE in its environment,
# gpt.fcgi on a listening socket exits 1 at once, saying "VAR=... REASON".
refuses_to_start() {
	_var=$1
	_why=$2
	shift 2
	for _v in "$@"; do
		env "$_var=$_v" timeout 10 perl -e 'use Socket;
		socket(my $s, PF_UNIX, SOCK_STREAM, 0) or die "socket: $!";
		bind($s, pack_sockaddr_un(shift)) or die "bind: $!";
		listen($s, 5) or die "listen: $!";
		open(STDIN, "<&", $s) or die "dup: $!"; exec @ARGV or die' \
		    "$TEST_TMP/bad.sock" "$GPT_FCGI" 2>"$TEST_TMP/err"
		status=$?
		rm -f "$TEST_TMP/bad.sock"
		if [ "$status" -eq 1 ] &&
		    grep -q "$_var=.*$_why" "$TEST_TMP/err"; then pass; else
			fail "$_var='$_v': exit $status," \
			    "$(head -c 300 "$TEST_TMP/err")"
		fi
	done
}

# A bad timeout refuses to start, with the reason.
refuses_to_start GPT_FCGI_IDLE_TIMEOUT 'not a whole number of seconds' \
    0 5s " 5" 05 -1 3601 99999999999
# So does a malformed cache budget.
refuses_to_start GPT_CACHE_BYTES 'not a size in bytes' \
    64MB 0 -1 x 99999999999999999999G

# As root, the process said once, at start, that its hooks run as root
# (it has answered many requests by now); as anyone else it said nothing.
n=$(grep -c 'warning: hooks run as root' "$TEST_TMP/server-err")
if [ "$(id -u)" -eq 0 ]; then want=1; else want=0; fi
expect_true "'hooks run as root' logged $want time(s) by the process (got $n)" \
    test "$n" -eq "$want"

# A load logs the address's warnings (gpt.fcgi --check's) once: the first
# request loads it, the next is served from the cache and logs nothing,
# a changed form is a new load.
cp -R "$ROOT/nohook" "$ROOT/lintonce"
fcgi GET /lintonce "$TEST_TMP/empty"
expect_code 200 "an address with a warning is served"
expect_true "its load logs the warning" grep -q '\[hook-missing\]' "$TEST_TMP/err"
expect_true "the answer does not carry it" \
    sh -c "! grep -q 'hook-missing' '$TEST_TMP/resp'"
fcgi GET /lintonce "$TEST_TMP/empty"
expect_true "the next request, no load, logs nothing of it" \
    sh -c "! grep -q 'hook-missing' '$TEST_TMP/err'"
for i in 1 2; do
	post /lintonce '{}'
	expect_true "act $i on the loaded address logs nothing of it" \
	    sh -c "! grep -q 'hook-missing' '$TEST_TMP/err'"
done
# (an edit in place is taken once it has settled: addr_cache.h)
printf ' ' >>"$ROOT/lintonce/form.json"
sleep 1.2
fcgi GET /lintonce "$TEST_TMP/empty"
expect_true "a reload logs it again" grep -q '\[hook-missing\]' "$TEST_TMP/err"

# A process whose web server is gone (accept fails: here fd 0 is a socket
# that never listened) exits cleanly instead of spinning.
timeout 10 perl -e 'use Socket;
	socket(my $s, PF_UNIX, SOCK_STREAM, 0) or die "socket: $!";
	open(STDIN, "<&", $s) or die "dup: $!"; exec @ARGV or die' \
    "$GPT_FCGI" 2>"$TEST_TMP/err"
status=$?
if [ "$status" -eq 0 ]; then pass; else
	fail "a failing accept ends the process with $status, expected 0"
fi

finish
