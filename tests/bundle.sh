#!/bin/sh
# bundle.sh: the shared-hosting tarball (make bundle) runs where the
# system's copies of its libraries cannot be loaded.  In a mount namespace
# of its own (unshare -r -m: no privilege needed, nothing outside
# changes), every shared library the plain build loads besides the C
# library's own (libfcgi, PCRE2, libidn2, libunistring) has /dev/null
# bound over it; the plain binary must then fail to start (the proof
# that they are hidden), and the unpacked bundle must answer --version,
# --check, and a CGI GET and POST, with LD_DEBUG=libs naming no library
# outside the bundle but the C library's.
#
# Environment: GPT_BUNDLE (the tarball), GPT_FCGI (the plain build),
# GPT_SRCDIR.
. "${GPT_SRCDIR:-.}/tests/lib.sh"
: "${GPT_BUNDLE:?set GPT_BUNDLE to the tarball (make check-bundle does)}"
for tool in unshare tar ldd readelf objdump; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		fail "$tool is needed (scripts/install-deps)"
		finish
	fi
done

tar -xzf "$GPT_BUNDLE" -C "$TEST_TMP"
top=$(find "$TEST_TMP" -mindepth 1 -maxdepth 1 -type d | head -n 1)
bin=$top/gpt.fcgi
glibc='^(linux-vdso|ld-linux.*|libc|libm|libdl|libpthread|librt|libresolv|libutil)\.so'

readelf -d "$bin" >"$TEST_TMP/dyn"
expect_true "the bundle's run path is \$ORIGIN/gpt.fcgi.lib (DT_RPATH)" \
    grep -q 'RPATH.*\[\$ORIGIN/gpt.fcgi.lib\]' "$TEST_TMP/dyn"
not_needed() { ! grep -q "NEEDED.*\[$1\.so" "$TEST_TMP/dyn"; }
for lib in libfcgi libpcre2-8 libidn2; do
	if not_needed "$lib"; then pass; else fail "$lib is still NEEDED"; fi
done
for m in gpt.fcgi.8 gpt-address.5; do
	expect_true "the bundle carries $m as text (gpt.fcgi.doc/$m.txt)" \
	    sh -c "grep -q '^NAME' '$top/gpt.fcgi.doc/$m.txt' &&
	        ! grep -q '^\.[A-Z][A-Z]* ' '$top/gpt.fcgi.doc/$m.txt'"
done
expect_true "the README points to the manual" \
    grep -q 'gpt.fcgi.doc/gpt-address.5.txt' "$top/README"
expect_true "the bundle's .htaccess keeps the README and the manual unserved" \
    sh -c "grep -q '^RedirectMatch 404 \"/README\\$\"' '$top/.htaccess' &&
        grep -q '^RedirectMatch 404 .*lib|doc' '$top/.htaccess'"
expect_true "the README names the glibc it needs" \
    grep -q 'glibc 2\.[0-9]* or later' "$top/README"
need=$(sed -n 's/.*glibc \(2\.[0-9]*\) or later.*/\1/p' "$top/README")
have=$(objdump -T "$bin" "$top"/gpt.fcgi.lib/* | grep -o 'GLIBC_2\.[0-9.]*' |
    sed 's/GLIBC_//' | sort -t. -k1,1n -k2,2n | tail -n 1)
expect_true "that version ($need) is the highest the files use ($have)" \
    test "$need" = "$have"

# The system files to hide: what the plain build loads, C library aside.
ldd "$GPT_FCGI" | awk '$2 == "=>" && $3 ~ /^\// { print $1, $3 }' |
    grep -Ev "$glibc" | while read -r soname path; do
	readlink -f "$path"
done | sort -u >"$TEST_TMP/hide"
expect_true "the plain build loads libraries to hide ($(wc -l <"$TEST_TMP/hide"))" \
    test -s "$TEST_TMP/hide"

# What runs inside the namespace writes files only: grep, sed and most
# tools load PCRE2 themselves, so the results are read outside.
printf '%s' '{"note": "Hello."}' >"$TEST_TMP/act"
cat >"$TEST_TMP/inside.sh" <<'EOF'
# One mount(8) for all of them, from an fstab: mount itself loads some
# of these libraries, so a second mount process would not start.
while read -r f; do
	echo "/dev/null $f none bind 0 0"
done <"$T/hide" >"$T/fstab"
mount -a -T "$T/fstab" || exit 1
"$PLAIN" --version >/dev/null 2>"$T/plain.err"
"$BIN" --version >"$T/version" 2>&1
"$BIN" --check "$TOP/gpt.fcgi.d/echo" >"$T/check" 2>&1
echo "$?" >"$T/check.rc"
env -i GATEWAY_INTERFACE=CGI/1.1 REQUEST_METHOD=GET \
    GPT_ADDRESS="$TOP/gpt.fcgi.d/echo" GPT_FORM_CACHE=off "$BIN" \
    </dev/null >"$T/get" 2>&1
env -i GATEWAY_INTERFACE=CGI/1.1 REQUEST_METHOD=POST \
    CONTENT_TYPE=application/json CONTENT_LENGTH="$LEN" PATH=/usr/bin:/bin \
    GPT_ADDRESS="$TOP/gpt.fcgi.d/echo" GPT_FORM_CACHE=off LD_DEBUG=libs \
    "$BIN" <"$T/act" >"$T/post" 2>"$T/ld"
EOF
T=$TEST_TMP PLAIN=$GPT_FCGI BIN=$bin TOP=$top \
    LEN=$(wc -c <"$TEST_TMP/act" | tr -d ' ') \
    unshare -r -m sh "$TEST_TMP/inside.sh" >"$TEST_TMP/inside.out" 2>&1
expect_true "the namespace was set up ($(head -c 200 "$TEST_TMP/inside.out"))" \
    test -s "$TEST_TMP/fstab" -a ! -s "$TEST_TMP/inside.out"
expect_true "the system's libraries are hidden: the plain build cannot start" \
    grep -q 'error while loading shared libraries' "$TEST_TMP/plain.err"
expect_true "without them the bundle answers --version" \
    grep -q '^gpt.fcgi ' "$TEST_TMP/version"
expect_true "without them --check loads the example ($(head -c 200 "$TEST_TMP/check"))" \
    test "$(cat "$TEST_TMP/check.rc")" = 0
expect_true "without them a CGI GET answers the form" \
    grep -q '^Status: 200' "$TEST_TMP/get"
get_body_parses() { sed '1,/^\r$/d' "$TEST_TMP/get" | "$GPT_FCGI" --parse; }
expect_true "and its body is strict JSON" get_body_parses
expect_true "without them a CGI POST runs the hook ($(head -c 200 "$TEST_TMP/post"))" \
    grep -q '^Status: 200' "$TEST_TMP/post"
expect_true "and answers the act" grep -q '"note": "Hello."' "$TEST_TMP/post"
# LD_DEBUG=libs: "calling init: PATH" for every library initialised.
sed -n 's/.*calling init: \(\/.*\)/\1/p' "$TEST_TMP/ld" | sort -u \
    >"$TEST_TMP/loaded"
outside=$(grep -v "^$top/gpt.fcgi.lib/" "$TEST_TMP/loaded" |
    grep -Ev '/(libc\.so\.6|ld-linux[^/]*)$' || :)
expect_true "every library loaded is the bundle's or the C library's ($outside)" \
    test -z "$outside"
expect_true "the bundle's own library was loaded from the bundle" \
    grep -q "^$top/gpt.fcgi.lib/libunistring" "$TEST_TMP/loaded"
finish
