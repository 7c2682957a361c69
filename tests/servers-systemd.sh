#!/bin/sh
# servers-systemd.sh: the shipped systemd units (examples/servers/systemd/)
# run as systemd would run them: the socket unit's ListenStream opened by
# systemd-socket-activate, which passes it the systemd way (LISTEN_FDS,
# LISTEN_PID, fd 3), the service's ExecStart, Environment= and User=/
# Group= applied as written (setpriv for the user, as systemd does for
# User=), and FastCGI requests sent to the socket with tests/fcgi_client.
# Only the paths are replaced (the binary, GPT_ROOT, the socket); a User=
# that does not exist on this machine is played by "daemon".
. "${GPT_SRCDIR:-.}/tests/servers-common.sh"
need systemd-socket-activate setpriv
CLIENT=${GPT_BUILDDIR:-.}/tests/fcgi_client
UNITS=$SERVERS_DIR/systemd
[ -x "$CLIENT" ] || { echo "FAIL: $CLIENT is not built (make check-integration builds it)" >&2; exit 1; }

t=$TEST_TMP/systemd
mkdir -p "$t"
chmod 755 "$t"
install_bin "$t/bin"
make_root "$t/root"
# "whoami": the echo form; its hook records who it runs as and what it
# was given, then echoes the act.
mkdir -p "$t/root/whoami"
cp "$GPT_SRCDIR/examples/echo/form.json" "$t/root/whoami/"
cat >"$t/root/whoami/hook" <<'HOOK'
#!/bin/sh
{ id -un; env; } >data/seen
exec cat
HOOK
chmod 755 "$t/root/whoami/hook"
mkdir -p "$t/root/whoami/data"
chmod 777 "$t/root/whoami/data"
chmod a+r "$t/root/whoami/form.json"

# The units, with only their paths replaced.
for u in gpt.fcgi.socket gpt.fcgi.service; do
	sed -e "s|/usr/local/bin/gpt.fcgi|$t/bin/gpt.fcgi|g" \
	    -e "s|/srv/gpt|$t/root|g" \
	    -e "s|/run/gpt.fcgi.sock|$t/gpt.sock|g" "$UNITS/$u" >"$t/$u"
done
# key FILE NAME: the values of NAME= in the unit FILE, one a line.
key() { sed -n "s/^$2=//p" "$t/$1"; }

sock=$(key gpt.fcgi.socket ListenStream)
exec_start=$(key gpt.fcgi.service ExecStart)
user=$(key gpt.fcgi.service User)
group=$(key gpt.fcgi.service Group)
expect_true "systemd: the socket unit listens on the templated path ($sock)" \
    test "$sock" = "$t/gpt.sock"
expect_true "systemd: ExecStart is the binary alone ($exec_start)" \
    test "$exec_start" = "$t/bin/gpt.fcgi"
expect_true "systemd: the service names a user that is not root ($user)" \
    test -n "$user" -a "$user" != root
expect_true "systemd: the service restarts on failure" \
    test "$(key gpt.fcgi.service Restart)" = on-failure
expect_true "systemd: the service requires its socket" \
    test "$(key gpt.fcgi.service Requires)" = gpt.fcgi.socket
expect_true "systemd: one listening socket, not one per connection" \
    test "$(key gpt.fcgi.socket Accept)" = no
expect_true "systemd: the socket is for its owner and group only" \
    test "$(key gpt.fcgi.socket SocketMode)" = 0660
expect_true "systemd: the socket's group is the web server's" \
    test -n "$(key gpt.fcgi.socket SocketGroup)"

# Environment= lines become -E (systemd-socket-activate passes only
# those, LISTEN_* and a few of its own).
envargs=
for kv in $(key gpt.fcgi.service Environment); do
	envargs="$envargs -E $kv"
done
# User=/Group=: applied by setpriv after the socket is open, as systemd
# applies them after opening the socket unit's socket.
asuser=
if [ "$(id -u)" -eq 0 ]; then
	id "$user" >/dev/null 2>&1 || user=daemon
	getent group "$group" >/dev/null 2>&1 || group=daemon
	asuser="setpriv --reuid=$user --regid=$group --init-groups --"
else
	user=$(id -un)
fi

# start_units [ACTIVATE-ARGS...]: systemd-socket-activate on the unit's
# socket, running the unit's command.
start_units() {
	rm -f "$sock"
	# shellcheck disable=SC2086
	systemd-socket-activate "$@" -l "$sock" $envargs -E GPT_TEST_MARKER=leaked \
	    $asuser $exec_start >"$t/out" 2>"$t/err" </dev/null &
	started $!
	_i=0
	while [ ! -S "$sock" ] && [ "$_i" -lt 100 ]; do
		sleep 0.1
		_i=$((_i + 1))
	done
}

start_units
J=CONTENT_TYPE=application/json
cat >"$t/plan" <<PLAN
expect=200 REQUEST_METHOD=GET PATH_INFO=/echo match=Echo.
expect=200 REQUEST_METHOD=POST PATH_INFO=/whoami $J text={"note":"hi"} match={"note":"hi"}
expect=204 REQUEST_METHOD=POST PATH_INFO=/whoami $J text={"note":""}
PLAN
if "$CLIENT" -s "$sock" -n 30 -t 20 "$t/plan" >"$t/client" 2>&1; then
	pass
else
	fail "systemd: requests through the passed socket: $(cat "$t/client") $(cat "$t/err")"
fi
expect_true "systemd: the hook ran as the unit's user ($user)" \
    test "$(head -n 1 "$t/root/whoami/data/seen" 2>/dev/null)" = "$user"
expect_true "systemd: the hook sees no LISTEN_ variable" \
    sh -c "! grep -q '^LISTEN_' '$t/root/whoami/data/seen'"
expect_true "systemd: the hook sees no variable of the process" \
    sh -c "! grep -q GPT_TEST_MARKER '$t/root/whoami/data/seen'"
n=$(pgrep -f "^$t/bin/gpt.fcgi" | wc -l)
expect_true "systemd: one process served them all (got $n)" test "$n" -eq 1
stop_started

# Accept=yes would pass a connection, not a listener: refused at start.
start_units --accept
"$CLIENT" -s "$sock" -n 1 -t 5 "$t/plan" >"$t/client" 2>&1
i=0
while ! grep -q 'not a listening socket' "$t/err" && [ "$i" -lt 50 ]; do
	sleep 0.1
	i=$((i + 1))
done
expect_true "systemd: a passed connection is refused with a reason" \
    grep -q 'is a connection, not a listening socket' "$t/err"
stop_started

finish
