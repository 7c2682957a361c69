#!/bin/sh
# package.sh: the Debian package, end to end, on this machine.
#
# Builds gpt-fcgi_*.deb with dpkg-buildpackage -us -uc -b from a copy of
# the source tree (inside the build tree), lints it (no lintian error or
# warning), installs it with apt, and runs an address through the
# packaged socket unit and each packaged snippet:
#   - the socket unit: systemd-socket-activate listens where
#     gpt-fcgi@default.socket says (systemd is not PID 1 here) and runs
#     the service's ExecStart as its User=, with its EnvironmentFile= and
#     the hardening a mount namespace can reproduce (ProtectSystem=strict
#     with ReadWritePaths= and StateDirectory=, PrivateTmp=, ProtectHome=,
#     NoNewPrivileges=, an empty CapabilityBoundingSet=, PrivateDevices=,
#     ProtectProc=invisible, ProtectKernelTunables=, ProtectKernelLogs=,
#     ProtectControlGroups=, UMask=); the hook
#     reports what it could do; systemd-analyze verify checks the units;
#   - the same units under a real systemd: systemd-nspawn boots this OS
#     (volatile root), its systemd listens on the socket, nginx sends an
#     act, and the hook's probe (tests/package-probe.c) shows each system
#     call filter refusing what it forbids (skipped, saying why, when the
#     container does not boot);
#   - nginx with snippets/gpt-fcgi.conf, lighttpd with
#     conf-available/50-gpt-fcgi.conf, Apache with
#     conf-available/gpt-fcgi.conf, each started as a plain process on
#     127.0.0.1 with its workers as www-data, the socket's group.
# Then an upgrade (the same package with a higher version) keeps the
# operator's configuration and addresses; purge removes every file of
# the package and nothing of the operator's; a second install and purge
# leaves no /srv/gpt it created.
#
# It changes the machine's /usr, /etc and /srv: it runs as root only,
# refuses to start if gpt-fcgi is installed already or /usr/bin/gpt.fcgi
# exists, and purges the package (and removes what it added) at exit,
# whatever happened.  DEB_BUILD_OPTIONS=nocheck unless PACKAGE_CHECK=yes
# (the unit tests already ran in this build).
. "${GPT_SRCDIR:-.}/tests/servers-common.sh"
need dpkg-buildpackage lintian apt-get systemd-socket-activate \
    systemd-analyze setpriv unshare nginx lighttpd apache2 dpkg-deb \
    systemd-nspawn gcc

if [ "$(id -u)" -ne 0 ]; then
	echo "FAIL: package.sh installs a package: run it as root" >&2
	exit 1
fi
if dpkg-query -W -f='${Status}' gpt-fcgi 2>/dev/null | grep -q 'installed'; then
	echo "FAIL: gpt-fcgi is installed already: this test will not touch it" >&2
	exit 1
fi
if [ -e /usr/bin/gpt.fcgi ] || [ -e /run/gpt-fcgi ]; then
	echo "FAIL: /usr/bin/gpt.fcgi or /run/gpt-fcgi exists: not ours to replace" >&2
	exit 1
fi
srv_existed=false
[ -e /srv/gpt ] && srv_existed=true
ADDR=pkgtest-$$
KEEP=pkgkeep-$$

# stop_nspawn: halt the container (nspawn turns SIGTERM into a clean
# shutdown), 30 s at most, then kill nspawn.
nspawn=
stop_nspawn() {
	[ -n "$nspawn" ] || return 0
	kill "$nspawn" 2>/dev/null
	_i=0
	while alive "$nspawn" && [ "$_i" -lt 300 ]; do
		sleep 0.1
		_i=$((_i + 1))
	done
	alive "$nspawn" && kill -9 "$nspawn" 2>/dev/null
	nspawn=
}

# Whatever happens: stop what we started, purge, remove what we added.
cleanup() {
	stop_started
	stop_nspawn
	rm -rf "/srv/gpt/$ADDR" "/srv/gpt/$KEEP" /etc/gpt-fcgi/other-$$.conf
	if dpkg-query -W -f='${Status}' gpt-fcgi 2>/dev/null |
	    grep -q -v 'not-installed'; then
		DEBIAN_FRONTEND=noninteractive apt-get purge -y -qq gpt-fcgi \
		    >/dev/null 2>&1 || dpkg --purge gpt-fcgi >/dev/null 2>&1
	fi
	rmdir /etc/gpt-fcgi 2>/dev/null
	$srv_existed || rmdir /srv/gpt 2>/dev/null
	rm -rf /run/gpt-fcgi
	rm -rf "$TEST_TMP" "${PKG:-}"
}
trap cleanup EXIT

# --- build --------------------------------------------------------------
PKG=$(mktemp -d "${GPT_BUILDDIR:-.}/package.XXXXXX")
PKG=$(cd "$PKG" && pwd)
mkdir "$PKG/src"
if git -C "$GPT_SRCDIR" rev-parse --git-dir >/dev/null 2>&1; then
	# the tree as it is (committed or not), without what git ignores
	(cd "$GPT_SRCDIR" && git ls-files -z --cached --others \
	    --exclude-standard | tar -c --null -T -) | tar -x -C "$PKG/src"
else
	(cd "$GPT_SRCDIR" && tar -c --exclude='./build*' .) |
	    tar -x -C "$PKG/src"
fi
opts=nocheck
[ "${PACKAGE_CHECK:-}" = yes ] && opts=
if ! (cd "$PKG/src" && DEB_BUILD_OPTIONS=$opts \
    dpkg-buildpackage -us -uc -b >"$PKG/build.log" 2>&1); then
	tail -n 40 "$PKG/build.log" >&2
	echo "FAIL: dpkg-buildpackage" >&2
	exit 1
fi
pass
DEB=$(ls "$PKG"/gpt-fcgi_*_*.deb)
expect_true "build: one gpt-fcgi .deb" test -f "$DEB"

# --- lint -----------------------------------------------------------------
lintian --fail-on error,warning "$PKG"/gpt-fcgi_*.changes \
    >"$TEST_TMP/lintian" 2>&1
lint=$?
if [ $lint -eq 0 ] && ! grep -q '^[EW]: ' "$TEST_TMP/lintian"; then pass; else
	fail "lintian: $(grep '^[EW]: ' "$TEST_TMP/lintian" | head -n 10)"
fi

dpkg-deb -c "$DEB" | awk '{print $6}' | sed 's|^\./|/|' |
    grep -v '/$' >"$TEST_TMP/files"
for f in /usr/bin/gpt.fcgi /usr/share/man/man8/gpt.fcgi.8.gz \
    /usr/share/man/man5/gpt-address.5.gz \
    /usr/share/doc/gpt-fcgi/examples/echo/form.json \
    /etc/lighttpd/conf-available/50-gpt-fcgi.conf \
    /etc/apache2/conf-available/gpt-fcgi.conf \
    /etc/nginx/snippets/gpt-fcgi.conf /etc/gpt-fcgi/default.conf \
    /lib/systemd/system/gpt-fcgi@.socket \
    /lib/systemd/system/gpt-fcgi@.service \
    /usr/lib/sysusers.d/gpt-fcgi.conf; do
	expect_true "package: ships $f" grep -qx "$f" "$TEST_TMP/files"
done
expect_true "package: nothing in /srv (the administrator's)" \
    test "$(grep -c '^/srv' "$TEST_TMP/files")" -eq 0

# --- install ------------------------------------------------------------
apt_install() { # DEB: apt, as the README says
	(cd "$(dirname "$1")" && DEBIAN_FRONTEND=noninteractive \
	    apt-get install -y -qq "./$(basename "$1")") \
	    >"$TEST_TMP/apt.log" 2>&1
}
if apt_install "$DEB"; then pass; else
	fail "apt install: $(tail -n 5 "$TEST_TMP/apt.log")"
	exit 1
fi
expect_true "install: /usr/bin/gpt.fcgi runs" /usr/bin/gpt.fcgi --version
expect_true "install: the system user _gpt-fcgi" getent passwd _gpt-fcgi
expect_true "install: /srv/gpt exists" test -d /srv/gpt
$srv_existed || expect_true "install: /srv/gpt has no address" \
    test -z "$(ls -A /srv/gpt)"
expect_true "install: man gpt.fcgi" test -s /usr/share/man/man8/gpt.fcgi.8.gz
for u in gpt-fcgi@default.socket gpt-fcgi@default.service; do
	if systemd-analyze verify "$u" >"$TEST_TMP/verify" 2>&1; then pass
	else fail "systemd-analyze verify $u: $(head -c 400 "$TEST_TMP/verify")"; fi
done

# unit KEY: the value of KEY in the installed units (instance "default").
unit() {
	sed -n "s/^$1=//p" /lib/systemd/system/gpt-fcgi@.socket \
	    /lib/systemd/system/gpt-fcgi@.service | head -n 1 |
	    sed 's/%i/default/g'
}
SOCK=$(unit ListenStream)
USER_=$(unit User)
GROUP_=$(unit Group)
expect_true "unit: the socket is under /run/gpt-fcgi ($SOCK)" \
    test "$SOCK" = /run/gpt-fcgi/default.sock
expect_true "unit: runs as _gpt-fcgi" test "$USER_" = _gpt-fcgi
for o in NoNewPrivileges=yes PrivateTmp=yes ProtectSystem=strict \
    ProtectHome=yes PrivateDevices=yes 'CapabilityBoundingSet=' \
    ProtectProc=invisible ProtectKernelTunables=yes ProtectKernelLogs=yes \
    ProtectControlGroups=yes UMask=0022; do
	expect_true "unit: $o" grep -qx "$o" /lib/systemd/system/gpt-fcgi@.service
done

# The address: a hook that reports what the hardening lets it do.  Its
# data/ is the service user's (README: never the address itself).
A=/srv/gpt/$ADDR
mkdir -p "$A/data"
cp /usr/share/doc/gpt-fcgi/examples/echo/form.json "$A/form.json"
cat >"$A/hook" <<'HOOK'
#!/bin/sh
# What a hook under the packaged unit can do, as JSON.
yes_no() { if "$@" 2>/dev/null; then printf true; else printf false; fi; }
data=$(yes_no sh -c 'echo x >>data/ran')
tmp=$(yes_no sh -c 'echo x >/tmp/gpt-pkgtest && test -f /tmp/gpt-pkgtest')
etc=$(yes_no sh -c 'echo x >/etc/gpt-pkgtest-write')
usr=$(yes_no sh -c 'echo x >/usr/gpt-pkgtest-write')
null=$(yes_no sh -c 'echo x >/dev/null && test -z "$(head -c 1 /dev/null)"')
rand=$(yes_no sh -c 'test "$(head -c 8 /dev/urandom | wc -c)" -eq 8')
self=$(yes_no test -r /proc/self/status)
pid1=$(yes_no test -e /proc/1)
disk=$(yes_no sh -c 'ls /dev | grep -Eq "^(sd|vd|nvme|xvd|loop|mem$|kmsg$)"')
perl=$(yes_no perl -e 'exit 0')
mask=$(umask)
probe=null
[ -x ./probe ] && probe=$(./probe data)
input=$(cat)
printf '{"user":"%s","data":%s,"tmp":%s,"etc":%s,"usr":%s,' \
    "$(id -un)" "$data" "$tmp" "$etc" "$usr"
printf '"null":%s,"random":%s,"self":%s,"pid1":%s,"disk":%s,"perl":%s,' \
    "$null" "$rand" "$self" "$pid1" "$disk" "$perl"
printf '"umask":"%s","probe":%s,"act":%s}\n' "$mask" "$probe" "$input"
HOOK
chmod 755 "$A/hook"
chmod -R a+rX "$A"
chown "$USER_:$GROUP_" "$A/data"

# --- the socket unit, as systemd would run it ------------------------------
# Its environment: the EnvironmentFile's assignments.
set --
while IFS= read -r line; do
	case $line in '' | '#'*) continue ;; esac
	set -- "$@" -E "$line"
done </etc/gpt-fcgi/default.conf
mkdir -p "$(dirname "$SOCK")"
chmod 755 "$(dirname "$SOCK")"
mkdir -p /var/lib/gpt-fcgi
chown "$USER_:$GROUP_" /var/lib/gpt-fcgi
# ProtectSystem=strict: everything read-only but the ReadWritePaths and
# the StateDirectory; PrivateTmp: an empty /tmp of its own; ProtectHome:
# /root and /home hidden; then the user, no new privileges, no
# capabilities.
# (The writable paths are mounts of their own first, so that the
# read-only bind over their parent, recursive, keeps them writable.)
# PrivateDevices: a /dev of its own with only the pseudo-devices (null,
# zero, full, random, urandom, tty); ProtectProc=invisible: a /proc that
# shows no process of another user; ProtectKernelTunables: /proc/sys and
# /sys read-only; ProtectKernelLogs: no /proc/kmsg (nor /dev/kmsg);
# ProtectControlGroups: /sys/fs/cgroup read-only; UMask=0022.  The rest
# of the unit's options are system call filters that only systemd
# installs (RestrictNamespaces, RestrictRealtime, RestrictSUIDSGID,
# LockPersonality, RestrictAddressFamilies, SystemCallArchitectures,
# ProtectClock, ProtectHostname, ProtectKernelModules): the unit file's
# comment says why a hook needs none of what they forbid.
mkdir -p "$TEST_TMP/hostdev"
HARDEN='set -e
mount --bind /dev "$2"
mount -t tmpfs -o mode=0755,nosuid,noexec tmpfs /dev
for n in null zero full random urandom tty; do
	: >"/dev/$n"
	mount --bind "$2/$n" "/dev/$n"
done
mkdir /dev/shm
mount -t tmpfs -o mode=1777,nosuid,nodev tmpfs /dev/shm
ln -s /proc/self/fd /dev/fd
ln -s /proc/self/fd/0 /dev/stdin
ln -s /proc/self/fd/1 /dev/stdout
ln -s /proc/self/fd/2 /dev/stderr
umount -l "$2"
mount -t proc -o hidepid=invisible,nosuid,nodev,noexec proc /proc
mount --bind /proc/sys /proc/sys
mount -o remount,bind,ro /proc/sys
mount --bind /dev/null /proc/kmsg
mount --rbind /sys /sys
mount -o remount,bind,ro /sys
for d in /sys/fs/cgroup /sys/fs/cgroup/*; do
	if mountpoint -q "$d"; then mount -o remount,bind,ro "$d"; fi
done
umask 022
mount --bind /srv/gpt /srv/gpt
mount --bind /var/lib/gpt-fcgi /var/lib/gpt-fcgi
for d in /usr /etc /var /srv /opt /boot; do
	[ -d "$d" ] || continue
	mount --rbind "$d" "$d"
	mount -o remount,bind,ro "$d"
done
mount -t tmpfs -o mode=1777 tmpfs /tmp
mount -t tmpfs -o mode=1777 tmpfs /var/tmp
mount -t tmpfs -o mode=0755,ro tmpfs /root
[ -d /home ] && mount -t tmpfs -o mode=0755,ro tmpfs /home
exec setpriv --reuid="$0" --regid="$1" --init-groups --no-new-privs \
    --bounding-set=-all /usr/bin/gpt.fcgi'
systemd-socket-activate -l "$SOCK" "$@" \
    unshare -m --propagation private sh -c "$HARDEN" "$USER_" "$GROUP_" \
    "$TEST_TMP/hostdev" \
    >"$TEST_TMP/unit.log" 2>&1 &
started $!
i=0
while [ ! -S "$SOCK" ] && [ $i -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
# SocketUser=, SocketGroup=, SocketMode=
chown "$(unit SocketUser):$(unit SocketGroup)" "$SOCK"
chmod "$(unit SocketMode)" "$SOCK"
expect_true "unit: the socket is listening" test -S "$SOCK"

printf '{"note":"packaged"}' >"$TEST_TMP/act"
# through LABEL BASE: GET the address, send an act, check the hook ran
# under the unit's hardening.
through() {
	req GET "$2/$ADDR"
	expect_code 200 "$1: GET /gpt/$ADDR"
	expect_body_match '"note"' "$1: the form is served"
	post "$2/$ADDR" "$TEST_TMP/act" -H "GPT-Actor: $1"
	expect_code 200 "$1: the act"
	cp "$TEST_TMP/b" "$TEST_TMP/act-$1"
	expect_body_match '"act":{"note":"packaged"}' "$1: the hook's answer"
	expect_body_match "\"user\":\"$USER_\"" "$1: the hook runs as $USER_"
	expect_body_match '"data":true' "$1: the hook writes in its data/"
	expect_body_match '"tmp":true' "$1: the hook has a /tmp"
	expect_body_match '"etc":false,"usr":false' \
	    "$1: /etc and /usr are read-only to the hook"
	expect_body_match '"null":true,"random":true,"self":true' \
	    "$1: the hook has /dev/null, /dev/urandom and its own /proc"
	expect_body_match '"pid1":false,"disk":false' \
	    "$1: no other user's process, no disk or kernel log device"
	expect_body_match '"perl":true,"umask":"0022"' \
	    "$1: an interpreter runs; umask 0022"
	req GET "$2/no-such-address"
	expect_code 404 "$1: no such address"
}

# --- nginx with the packaged snippet --------------------------------------
# start_nginx DIR: nginx on a free $port with the snippet, its files in DIR.
start_nginx() {
	mkdir -p "$1"
	port=$(free_port)
	cat >"$1/nginx.conf" <<EOF
daemon off;
user www-data www-data;
worker_processes 1;
pid $1/nginx.pid;
error_log $1/error.log;
events { worker_connections 64; }
http {
	access_log $1/access.log;
	client_body_temp_path $1/body;
	fastcgi_temp_path $1/fastcgi;
	proxy_temp_path $1/proxy;
	scgi_temp_path $1/scgi;
	uwsgi_temp_path $1/uwsgi;
	server {
		listen 127.0.0.1:$port;
		include /etc/nginx/snippets/gpt-fcgi.conf;
	}
}
EOF
	nginx -p "$1" -e "$1/error.log" -c "$1/nginx.conf" >"$1/out" 2>&1 &
	started $!
}
start_nginx "$TEST_TMP/nginx"
wait_ready "http://127.0.0.1:$port/" && through nginx "http://127.0.0.1:$port/gpt"

# --- lighttpd with the packaged conf-available file ----------------------
T=$TEST_TMP/lighttpd
mkdir -p "$T/docs"
port=$(free_port)
cat >"$T/lighttpd.conf" <<EOF
server.modules = ("mod_access")
server.bind = "127.0.0.1"
server.port = $port
server.username = "www-data"
server.groupname = "www-data"
server.document-root = "$T/docs"
server.errorlog = "$T/error.log"
server.upload-dirs = ("$T")
include "/etc/lighttpd/conf-available/10-fastcgi.conf"
include "/etc/lighttpd/conf-available/50-gpt-fcgi.conf"
EOF
chown -R www-data "$T"
lighttpd -D -f "$T/lighttpd.conf" >"$T/out" 2>&1 &
started $!
wait_ready "http://127.0.0.1:$port/" && through lighttpd "http://127.0.0.1:$port/gpt"

# --- Apache with the packaged conf-available file ------------------------
T=$TEST_TMP/apache
mkdir -p "$T/docs"
port=$(free_port)
M=/usr/lib/apache2/modules
cat >"$T/apache.conf" <<EOF
ServerRoot "$T"
ServerName 127.0.0.1
Listen 127.0.0.1:$port
PidFile "$T/apache.pid"
DefaultRuntimeDir "$T"
Mutex file:$T default
ErrorLog "$T/error.log"
LogLevel warn
User www-data
Group www-data
LoadModule mpm_event_module $M/mod_mpm_event.so
LoadModule authz_core_module $M/mod_authz_core.so
LoadModule proxy_module $M/mod_proxy.so
LoadModule proxy_fcgi_module $M/mod_proxy_fcgi.so
DocumentRoot "$T/docs"
Include /etc/apache2/conf-available/gpt-fcgi.conf
EOF
apache2 -f "$T/apache.conf" -DFOREGROUND >"$T/out" 2>&1 &
started $!
wait_ready "http://127.0.0.1:$port/" && through apache "http://127.0.0.1:$port/gpt"
if [ "$failed" -gt 0 ]; then
	for f in "$TEST_TMP"/*/error.log "$TEST_TMP/unit.log"; do
		echo "--- $f" >&2
		tail -n 15 "$f" >&2
	done
fi
stop_started

# --- the units under a real systemd -----------------------------------------
# systemd-nspawn boots this machine's own OS (its /usr read-only, a
# volatile root; /etc/passwd, /etc/group and /etc/gpt-fcgi from here, so
# the users and the socket's group are the same; /srv/gpt and
# /run/gpt-fcgi bound, so nginx here reaches the socket the container's
# systemd listens on).  The container keeps CAP_SYS_TIME and
# CAP_SYS_MODULE, so that nspawn's own filter does not forbid what the
# unit must.  The hook runs tests/package-probe.c's probe, which tries
# what each system call filter forbids; the same probe run here, outside
# the unit, as the same user and as root, must get further.
if gcc -O2 -o "$A/probe" "$GPT_SRCDIR/tests/package-probe.c"; then pass
else fail "the probe builds"; fi
chmod 755 "$A/probe"
setpriv --reuid="$USER_" --regid="$GROUP_" --init-groups \
    sh -c "cd '$A' && ./probe data" >"$TEST_TMP/probe-user"
(cd "$A" && ./probe data) >"$TEST_TMP/probe-root"
M=gpt-pkg-$$
nspawn_log=$TEST_TMP/nspawn.log
rm -f "$SOCK"
systemd-nspawn --quiet --volatile=yes --directory=/ --machine="$M" \
    --register=no --keep-unit --capability=CAP_SYS_TIME,CAP_SYS_MODULE \
    --bind-ro=/etc/passwd --bind-ro=/etc/group --bind-ro=/etc/gpt-fcgi \
    --bind=/srv/gpt --bind=/run/gpt-fcgi \
    --boot systemd.firstboot=off systemd.unit=basic.target \
    systemd.wants=gpt-fcgi@default.socket \
    </dev/null >"$nspawn_log" 2>&1 &
nspawn=$!
i=0
while [ ! -S "$SOCK" ] && alive "$nspawn" && [ $i -lt 300 ]; do
	sleep 0.1
	i=$((i + 1))
done
if [ ! -S "$SOCK" ]; then
	stop_nspawn
	echo "SKIP: the units under a real systemd: systemd-nspawn did" \
	    "not boot this OS to its socket in 30 s:" >&2
	sed 's/\x1b\[[0-9;]*m//g' "$nspawn_log" | tail -n 8 >&2
else
	expect_true "systemd: the socket unit listens on $SOCK" test -S "$SOCK"
	T=$TEST_TMP/nginx-systemd
	start_nginx "$T"
	wait_ready "http://127.0.0.1:$port/" &&
	    through systemd "http://127.0.0.1:$port/gpt"
	# each filter: refused under the unit, further outside it
	probe=$(sed -n 's/.*"probe":\({[^}]*}\).*/\1/p' "$TEST_TMP/act-systemd")
	printf '%s\n' "${probe:-null}" >"$TEST_TMP/probe-unit"
	under() { jq -r ".$1" "$TEST_TMP/probe-unit"; }
	outside() { jq -r ".$2" "$TEST_TMP/probe-$1"; }
	for c in "userns RestrictNamespaces EPERM user" \
	    "suid RestrictSUIDSGID EPERM user" \
	    "personality LockPersonality EPERM user" \
	    "netlink RestrictAddressFamilies EAFNOSUPPORT user" \
	    "packet RestrictAddressFamilies EAFNOSUPPORT root" \
	    "clock ProtectClock EPERM user" \
	    "module ProtectKernelModules EPERM root" \
	    "realtime RestrictRealtime EPERM root" \
	    "hostname ProtectHostname EPERM root" \
	    "i386 SystemCallArchitectures SYS user"; do
		set -- $c
		u=$(under "$1")
		o=$(outside "$4" "$1")
		expect_true "systemd: $2 forbids $1 ($u under the unit, $o outside as $4)" \
		    sh -c "test '$u' = '$3' && test '$o' != '$3'"
	done
	if [ "$failed" -gt 0 ]; then
		echo "--- $T/error.log" >&2
		tail -n 15 "$T/error.log" >&2
		echo "--- the container" >&2
		sed 's/\x1b\[[0-9;]*m//g' "$nspawn_log" | tail -n 20 >&2
	fi
	stop_started
	stop_nspawn
fi
rm -f "$A/probe"

# --- upgrade: the operator's configuration and addresses stay ------------
echo 'GPT_LOG_FORMAT=json # the operator' >>/etc/gpt-fcgi/default.conf
echo 'GPT_ROOT=/srv/gpt' >/etc/gpt-fcgi/other-$$.conf
mkdir -p "/srv/gpt/$KEEP"
cp "$A/form.json" "/srv/gpt/$KEEP/form.json"
rm -rf "$A"
dpkg-deb -R "$DEB" "$PKG/next"
sed -i 's/^Version: \(.*\)$/Version: \1+upgrade1/' "$PKG/next/DEBIAN/control"
dpkg-deb -b "$PKG/next" "$PKG/next.deb" >/dev/null
if apt_install "$PKG/next.deb"; then pass; else
	fail "upgrade: $(tail -n 5 "$TEST_TMP/apt.log")"
fi
expect_true "upgrade: the new version is installed" \
    sh -c "dpkg-query -W -f='\${Version}' gpt-fcgi | grep -q upgrade1"
expect_true "upgrade: the operator's change to default.conf is kept" \
    grep -q '# the operator' /etc/gpt-fcgi/default.conf
expect_true "upgrade: the operator's configuration is kept" \
    test -f /etc/gpt-fcgi/other-$$.conf
expect_true "upgrade: the operator's address is kept" \
    test -f "/srv/gpt/$KEEP/form.json"

# --- purge: the package's files go, the operator's stay -------------------
# (a2enconf's link, as the operator makes it, must not be left dangling)
mkdir -p /etc/apache2/conf-enabled
ln -sf ../conf-available/gpt-fcgi.conf /etc/apache2/conf-enabled/gpt-fcgi.conf
purge() {
	DEBIAN_FRONTEND=noninteractive apt-get purge -y -qq gpt-fcgi \
	    >"$TEST_TMP/apt.log" 2>&1
}
if purge; then pass; else fail "purge: $(tail -n 5 "$TEST_TMP/apt.log")"; fi
left=
while read -r f; do
	[ -e "$f" ] && left="$left $f"
done <"$TEST_TMP/files"
expect_true "purge: no file of the package remains:$left" test -z "$left"
expect_true "purge: /var/lib/gpt-fcgi is gone" test ! -e /var/lib/gpt-fcgi
expect_true "purge: no dangling a2enconf link" \
    test ! -L /etc/apache2/conf-enabled/gpt-fcgi.conf
expect_true "purge: the operator's configuration stays" \
    test -f /etc/gpt-fcgi/other-$$.conf
expect_true "purge: the operator's address stays" \
    test -f "/srv/gpt/$KEEP/form.json"
expect_true "purge: no gpt.fcgi on PATH" sh -c '! command -v gpt.fcgi'

# --- a second install and purge: /srv/gpt, created and empty, goes ----------
rm -rf "/srv/gpt/$KEEP" /etc/gpt-fcgi/other-$$.conf
rmdir /etc/gpt-fcgi 2>/dev/null
$srv_existed || rmdir /srv/gpt
if apt_install "$DEB"; then pass; else
	fail "second install: $(tail -n 5 "$TEST_TMP/apt.log")"
fi
if purge; then pass; else fail "second purge: $(tail -n 5 "$TEST_TMP/apt.log")"; fi
$srv_existed || expect_true "purge: the /srv/gpt the package made is gone" \
    test ! -e /srv/gpt
expect_true "purge: /etc/gpt-fcgi is gone" test ! -e /etc/gpt-fcgi
expect_true "purge: the package is not installed" \
    sh -c "! dpkg-query -W -f='\${Status}' gpt-fcgi 2>/dev/null | grep -q installed"

finish
