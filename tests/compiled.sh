#!/bin/sh
# compiled.sh: no file that the CGI user alone can write changes what an
# address serves.  The operator's precomputed representation
# (gpt.fcgi --compile DIR, DIR/form.compiled) answers CGI GETs only while
# it is owned like form.json and its stamps hold; the run-time cache under
# the CGI user's TMPDIR is off unless GPT_FORM_CACHE asks for it, so an
# entry forged by another program of that user is never read by default;
# a cache directory another local user made first neither turns the
# cache off for good nor fills the log.
#
# The CGI user and the other local user are numeric uids (setpriv), so
# the test needs root; without it the parts that need them are skipped.
. "${GPT_SRCDIR:-.}/tests/lib.sh"

FORGE=${GPT_BUILDDIR:-.}/tests/formcache_forge
CGI_UID=64101
OTHER_UID=64102
if [ "$(id -u)" -ne 0 ] || ! command -v setpriv >/dev/null 2>&1; then
	echo "compiled.sh: not root or no setpriv: the tests with a second" \
	    "local user are skipped"
	as_cgi=
	as_other=
	rooted=no
else
	as_cgi="setpriv --reuid=$CGI_UID --regid=$CGI_UID --clear-groups --"
	as_other="setpriv --reuid=$OTHER_UID --regid=$OTHER_UID --clear-groups --"
	rooted=yes
	# the CGI user reaches the addresses and its TMPDIR, as www-data does
	chmod 755 "$TEST_TMP"
fi

ROOT=$TEST_TMP/root
PUB=$TEST_TMP/pub # the CGI user's TMPDIR, shared like /tmp
mkdir -p "$ROOT/site/defs" "$PUB"
chmod 1777 "$PUB"
# An address with a warning (it has no hook): a load logs it, an answer
# from a precomputed representation does not, which tells the two apart.
cat >"$ROOT/site/form.json" <<'EOF'
{"p": "MARKER-REAL the operator's form.", "m": [], "s": {"type": "object",
 "properties": {"name": {"$ref": "https://example.com/defs/name.json"}},
 "additionalProperties": false}}
EOF
# The store (Idempotency-Keys) is one the CGI user may write, as the
# page's keys need (see the end).
mkdir -p "$TEST_TMP/store"
chmod 1777 "$TEST_TMP/store"
printf 'refs = https://example.com/defs/=defs\nstore = %s\n' \
    "$TEST_TMP/store" >"$ROOT/site/address.conf"
printf '{"type": "string"}\n' >"$ROOT/site/defs/name.json"
# Files changed within two seconds of a load are not precomputed (the
# same tick of the file system's clock could hide a second change).
sleep 3

# cgi [VAR=VALUE...]: one CGI GET of the address as the CGI user; sets
# code, $TEST_TMP/resp and $TEST_TMP/err.
cgi() {
	$as_cgi env -i GATEWAY_INTERFACE=CGI/1.1 REQUEST_METHOD=GET \
	    GPT_ROOT="$ROOT" PATH_INFO=/site TMPDIR="$PUB" \
	    GPT_LOG_TIMESTAMP=no "$@" \
	    timeout 30 "${BIN:-$GPT_FCGI}" </dev/null \
	    >"$TEST_TMP/resp" 2>"$TEST_TMP/err"
	code=$(sed -n '1s/^Status: \([0-9]*\).*/\1/p' "$TEST_TMP/resp")
}
loaded() { grep -q 'hook-missing' "$TEST_TMP/err"; }
not_loaded() { ! loaded; }
real() { grep -q MARKER-REAL "$TEST_TMP/resp" && ! grep -q MARKER-EVIL "$TEST_TMP/resp"; }
cgi GPT_FORM_CACHE=off
cp "$TEST_TMP/resp" "$TEST_TMP/want"
expect_true "the address answers 200 (got $code)" test "$code" = 200
same_as_load() { cmp -s "$TEST_TMP/resp" "$TEST_TMP/want"; }

# --- the run-time cache is off by default ------------------------------------
if [ "$rooted" = yes ]; then
	cachedir=$PUB/gpt.fcgi-cache-$CGI_UID
	# Another program of the CGI user (another site's script) asks for an
	# entry of this address where the cache used to live by default, and
	# forges it: the checksum's key is public.
	cgi GPT_FORM_CACHE="$cachedir"
	entry=$(find "$cachedir" -type f 2>/dev/null | head -n 1)
	expect_true "a cache entry can be made as the CGI user" test -n "$entry"
	[ -n "$entry" ] &&
		$as_cgi "$FORGE" "$entry" MARKER-REAL MARKER-EVIL
	expect_true "and forged by it" grep -q MARKER-EVIL "$entry"
	cgi
	expect_true "a GET by default does not serve the CGI user's forged entry" \
	    real
	expect_true "but the form itself (got $code)" same_as_load
	cgi HTTP_ACCEPT=text/html
	expect_true "nor does the page" real
	# the opt-in trusts that user, as documented
	cgi GPT_FORM_CACHE="$cachedir"
	expect_true "with GPT_FORM_CACHE set, its entries are trusted" \
	    grep -q MARKER-EVIL "$TEST_TMP/resp"
	rm -rf "$cachedir"
fi

# --- the operator's precomputed representation ---------------------------------
run_cli --check "$ROOT/site"
expect_status 0 "--check of the address"
expect_stdout_match 'form.compiled.*missing.*--compile' \
    "--check offers --compile when there is no precomputed representation"
run_cli --compile "$ROOT/site"
expect_status 0 "--compile writes the precomputed representation"
comp=$ROOT/site/form.compiled
expect_true "into the address directory, as the operator, not writable by others" \
    test -f "$comp" -a "$(stat -c %u:%a "$comp")" = "$(id -u):644"
run_cli --check "$ROOT/site"
expect_stdout_match 'form.compiled.*current' \
    "--check then says the precomputed representation is current"
cgi
expect_true "a CGI GET is answered from it (got $code)" not_loaded
expect_true "with the bytes a load gives" same_as_load
cgi HTTP_ACCEPT=text/html
expect_true "the page too" not_loaded
expect_true "the page is the operator's form" real
expect_true "and it sends Idempotency-Keys" grep -q '"keys":true' "$TEST_TMP/resp"
if [ "$rooted" = yes ]; then
	# The operator may write the store and the CGI user may not: the
	# operator's page would send keys that every act answers 503.
	chmod 755 "$TEST_TMP/store"
	cgi HTTP_ACCEPT=text/html
	expect_true "where the CGI user cannot write the store, the page is built anew" \
	    loaded
	expect_true "and sends no Idempotency-Key" \
	    sh -c "! grep -q '\"keys\":true' '$TEST_TMP/resp'"
	cgi
	expect_true "while the JSON still comes from form.compiled" not_loaded
	chmod 1777 "$TEST_TMP/store"
	cgi HTTP_ACCEPT=text/html
	expect_true "and the page again once it can" not_loaded
fi
cgi GPT_FORM_CACHE="$PUB/rt"
expect_true "before the run-time cache" not_loaded
expect_true "which stores nothing then" test -z "$(ls -A "$PUB/rt" 2>/dev/null)"
printf '{"name": "x"}' >"$TEST_TMP/act"
$as_cgi env -i GATEWAY_INTERFACE=CGI/1.1 REQUEST_METHOD=POST \
    GPT_ROOT="$ROOT" PATH_INFO=/site TMPDIR="$PUB" GPT_LOG_TIMESTAMP=no \
    CONTENT_TYPE=application/json CONTENT_LENGTH=13 \
    timeout 30 "$GPT_FCGI" <"$TEST_TMP/act" >"$TEST_TMP/resp" 2>"$TEST_TMP/err"
expect_true "an act it vouches for is judged (no hook: 502)" \
    grep -q '^Status: 502' "$TEST_TMP/resp"
expect_true "without the form's warnings again" not_loaded

if [ "$rooted" = yes ]; then
	cp -p "$comp" "$TEST_TMP/comp.orig"
	"$FORGE" "$comp" MARKER-REAL MARKER-EVIL
	chown "$CGI_UID" "$comp"
	cgi
	expect_true "a precomputed file owned by the CGI user is not used" loaded
	expect_true "and its bytes are not served" real
	chown 0 "$comp"
	chmod 666 "$comp"
	cgi
	expect_true "nor one others may write" real
	chmod 664 "$comp"
	chgrp "$CGI_UID" "$comp"
	cgi
	expect_true "nor one its group may write" real
	cp -p "$TEST_TMP/comp.orig" "$comp"
fi
cgi
expect_true "the operator's own file is used again" not_loaded

# A rewrite in place, seen in its middle: the previous version, the one
# form.compiled holds, is served until the file settles.
cp -p "$ROOT/site/form.json" "$TEST_TMP/f.orig"
head -c 40 "$TEST_TMP/f.orig" >"$ROOT/site/form.json"
cgi
expect_true "during an in-place rewrite GET serves the previous version (got $code)" \
    real
expect_true "from form.compiled, not the half-written form" not_loaded
expect_true "and says so" grep -q 'being rewritten in place' "$TEST_TMP/err"
sleep 1.2
cgi
expect_true "once it has settled, the form on disk is loaded (got $code)" \
    test "$code" = 500
cat "$TEST_TMP/f.orig" >"$ROOT/site/form.json"

# stale: an edit, a refs file, another binary
sed 's/MARKER-REAL/MARKER-NEW1/' "$ROOT/site/form.json" >"$TEST_TMP/f.new"
mv "$TEST_TMP/f.new" "$ROOT/site/form.json"
cgi
expect_true "after form.json changed, GET loads the new form" \
    grep -q MARKER-NEW1 "$TEST_TMP/resp"
expect_true "not the precomputed old one" loaded
run_cli --check "$ROOT/site"
expect_stdout_match 'form.compiled.*stale.*--compile' \
    "--check says a precomputed representation is stale and offers --compile"
sleep 3
run_cli --compile "$ROOT/site"
expect_status 0 "--compile again"
cgi
expect_true "and GET is answered from it again" not_loaded
expect_true "with the new form" grep -q MARKER-NEW1 "$TEST_TMP/resp"
cp -p "$ROOT/site/defs/name.json" "$TEST_TMP/name.orig"
printf '{"type": "string", "maxLength": 7}\n' >"$ROOT/site/defs/name.json"
touch -r "$TEST_TMP/name.orig" "$ROOT/site/defs/name.json"
cgi
expect_true "after a refs file changed, GET embeds the new one" \
    grep -q '"maxLength":7' "$TEST_TMP/resp"
printf 'max_body = 4096\n' >>"$ROOT/site/address.conf"
cgi
expect_true "after address.conf changed, GET loads" loaded
sleep 3
run_cli --compile "$ROOT/site"
cp "$GPT_FCGI" "$TEST_TMP/other.fcgi"
BIN=$TEST_TMP/other.fcgi cgi
expect_true "another binary does not take this one's file" loaded
run_cli --compile "$TEST_TMP/nowhere"
expect_status 1 "--compile of no address is refused"
mkdir -p "$ROOT/bad"
printf '{"p": "x", "m": [], "s": {"type": "strnig"}}\n' >"$ROOT/bad/form.json"
run_cli --compile "$ROOT/bad"
expect_status 1 "--compile of a form that does not load is refused"
expect_true "and writes nothing" test ! -e "$ROOT/bad/form.compiled"
run_cli --compile
expect_status 2 "--compile without a directory is a usage error"
# a damaged file is ignored (a cut copy, a byte changed)
size=$(stat -c %s "$comp")
truncate -s $((size / 2)) "$comp"
cgi
expect_true "a cut precomputed file is ignored" loaded
expect_true "and the form served" grep -q MARKER-NEW1 "$TEST_TMP/resp"

# --- a cache directory another local user made first ------------------------
if [ "$rooted" = yes ]; then
	rm -f "$comp"
	taken=$PUB/gpt.fcgi-cache-$CGI_UID
	$as_other mkdir -m 700 "$taken"
	cgi GPT_FORM_CACHE=tmp
	expect_true "GPT_FORM_CACHE=tmp with its directory taken still answers" \
	    test "$code" = 200
	expect_true "says once that the directory belongs to another user" \
	    grep -q "belongs to uid $OTHER_UID" "$TEST_TMP/err"
	cgi GPT_FORM_CACHE=tmp
	expect_true "the cache works all the same (a hit)" not_loaded
	expect_true "and the next request logs no warning about it" \
	    sh -c "! grep -q 'belongs to uid' '$TEST_TMP/err'"
	expect_true "the directory of the other user is left alone" \
	    test "$(stat -c %u "$taken")" = "$OTHER_UID" -a \
	    -z "$(ls -A "$taken")"
fi

finish
