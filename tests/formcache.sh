#!/bin/sh
# formcache.sh: the CGI form cache (src/responder/formcache.c) through the binary
# as a CGI program.  A GET after the first is answered from the cache
# with the very bytes a load gives; an edit (even one that keeps the size
# and puts the mtime back), a changed refs file, another binary, a damaged
# or cut cache file, or a directory others may write each make it load
# again; a form that does not load is never cached and never answered
# from an older entry; acts are judged alike with the cache vouching; the
# form's warnings are logged once per version of the form.
. "${GPT_SRCDIR:-.}/tests/lib.sh"

ROOT=$TEST_TMP/root
CACHE=$TEST_TMP/cache
mkdir -p "$ROOT/plain" "$ROOT/refs/defs" "$ROOT/breaks" "$ROOT/broken" \
    "$ROOT/patterned"
cat >"$ROOT/plain/form.json" <<'EOF'
{"p": "MARKER-P the plain address", "m": [], "s": {"type": "object"}}
EOF
cat >"$ROOT/breaks/form.json" <<'EOF'
{"p": "An address whose form breaks later.", "m": [], "s": {"type": "object"}}
EOF
printf '{"p": "broken", "m": [], "s": {"type": "strnig"}}\n' \
    >"$ROOT/broken/form.json"
cat >"$ROOT/refs/form.json" <<'EOF'
{"p": "With a local reference.", "m": [],
 "s": {"$ref": "https://example.com/defs/name.json"}}
EOF
echo 'refs = https://example.com/defs/=defs' >"$ROOT/refs/address.conf"
printf '{"type": "string", "maxLength": 10}\n' >"$ROOT/refs/defs/name.json"
cat >"$ROOT/patterned/form.json" <<'EOF'
{"p": "Codes.", "m": [], "s": {"type": "object", "properties": {
 "code": {"type": "string", "pattern": "^[A-Z]{2}-[0-9]{3}$"},
 "tag": {"type": "string", "pattern": "^[a-z]+$"}}}}
EOF
printf '#!/bin/sh\nexec cat\n' >"$ROOT/patterned/hook"
chmod 755 "$ROOT/patterned/hook"
mkdir -p "$ROOT/many"
printf '%s' '{"p": "Many.", "m": [], "s": {"type": "object", "properties": {"list": {"type": "array", "items": {"type": "string", "pattern": "^[a-z]$"}}}}}' \
    >"$ROOT/many/form.json"
cp "$ROOT/patterned/hook" "$ROOT/many/hook"
mkdir -p "$ROOT/warned"
cat >"$ROOT/warned/form.json" <<'EOF2'
{"p": "MARKER-W1 a form with a warning.", "m": [], "s": {"type": "object",
 "properties": {"name": {"type": "string"}}, "additionalProperties": false}}
EOF2
cp "$ROOT/patterned/hook" "$ROOT/warned/hook"
# Files changed within two seconds of a load are never cached (the same
# tick of the file system's clock could hide a second change): let them
# age once, here.
sleep 3

# cgi METHOD NAME [VAR=VALUE...]: one CGI request, stdin from $TEST_TMP/in;
# sets code, $TEST_TMP/resp (the whole answer) and $TEST_TMP/err.
: >"$TEST_TMP/in"
cgi() {
	_m=$1 _n=$2
	shift 2
	env -i GATEWAY_INTERFACE=CGI/1.1 REQUEST_METHOD="$_m" \
	    GPT_ROOT="$ROOT" PATH_INFO="/$_n" GPT_FORM_CACHE="$CACHE" \
	    GPT_LOG_TIMESTAMP=no "$@" \
	    timeout 30 "${BIN:-$GPT_FCGI}" <"$TEST_TMP/in" \
	    >"$TEST_TMP/resp" 2>"$TEST_TMP/err"
	code=$(sed -n '1s/^Status: \([0-9]*\).*/\1/p' "$TEST_TMP/resp")
}

# uncached METHOD NAME [VAR=VALUE...]: the same request with the cache
# off, into $TEST_TMP/want.
uncached() {
	_m=$1 _n=$2
	shift 2
	env -i GATEWAY_INTERFACE=CGI/1.1 REQUEST_METHOD="$_m" \
	    GPT_ROOT="$ROOT" PATH_INFO="/$_n" GPT_FORM_CACHE=off "$@" \
	    timeout 30 "$GPT_FCGI" <"$TEST_TMP/in" >"$TEST_TMP/want" 2>/dev/null
}

stored() { grep -q 'form cache: stored' "$TEST_TMP/err"; }
not_stored() { ! stored; }
damaged() { grep -q 'damaged: ignored' "$TEST_TMP/err"; }
same_as_uncached() { cmp -s "$TEST_TMP/resp" "$TEST_TMP/want"; }
no_marker_p() { ! grep -q MARKER-P "$TEST_TMP/resp"; }
ncache() { find "$CACHE" -type f | wc -l | tr -d ' '; }

# --- a hit gives the bytes a load gives ---------------------------------
# The first request after a change, here an act, stores every answer.
printf '{}' >"$TEST_TMP/in"
cgi POST plain CONTENT_TYPE=application/json CONTENT_LENGTH=2
expect_true "an act before any GET is judged (no hook: 502, got $code)" \
    test "$code" = 502
expect_true "and stores the answers of its form" stored
: >"$TEST_TMP/in"
cgi GET plain
expect_true "the first GET is answered 200" test "$code" = 200
expect_true "from what the act stored" not_stored
expect_true "one cache file, private to the user" \
    test "$(ncache)" = 1 -a "$(stat -c %a "$CACHE")" = 700
for accept in '' 'HTTP_ACCEPT=text/html' 'HTTP_ACCEPT=application/json'; do
	cgi GET plain $accept
	expect_true "a GET ($accept) after the first loads nothing" not_stored
	uncached GET plain $accept
	expect_true "a cached GET ($accept) gives the bytes a load gives" \
	    same_as_uncached
done
cgi HEAD plain
uncached HEAD plain
expect_true "a cached HEAD gives the head a load gives" same_as_uncached
etag=$(sed -n 's/^ETag: \(.*\)\r$/\1/p' "$TEST_TMP/resp")
cgi GET plain HTTP_IF_NONE_MATCH="$etag"
expect_true "a cached GET with the ETag answers 304 (got $code)" \
    test "$code" = 304
html_etag=$(env -i GATEWAY_INTERFACE=CGI/1.1 REQUEST_METHOD=GET \
    GPT_ROOT="$ROOT" PATH_INFO=/plain HTTP_ACCEPT=text/html \
    GPT_FORM_CACHE=off "$GPT_FCGI" </dev/null 2>/dev/null |
    sed -n 's/^ETag: \(.*\)\r$/\1/p')
cgi GET plain HTTP_ACCEPT=text/html HTTP_IF_NONE_MATCH="$html_etag"
expect_true "a cached page GET with the page's ETag answers 304" \
    test "$code" = 304

# --- stale entries are never served ---------------------------------------
file=$(find "$CACHE" -type f)
ino=$(stat -c %i "$file")
cp -p "$ROOT/plain/form.json" "$TEST_TMP/plain.orig"
# the same size, in place, and the mtime put back: only ctime moved
sed 's/MARKER-P/MARKER-Q/' "$TEST_TMP/plain.orig" >"$TEST_TMP/plain.new"
cat "$TEST_TMP/plain.new" >"$ROOT/plain/form.json"
touch -r "$TEST_TMP/plain.orig" "$ROOT/plain/form.json"
cgi GET plain
expect_true "after an in-place edit with the mtime put back, GET serves the new form" \
    grep -q MARKER-Q "$TEST_TMP/resp"
expect_true "and not the old one" no_marker_p
expect_true "a form changed just now is not cached" not_stored
expect_true "the old entry stays where it was" test "$(stat -c %i "$file")" = "$ino"

# The refs files are in the key too.
cgi GET refs
expect_true "an address with refs is cached" stored
expect_true "its GET embeds the referenced file" \
    grep -q '"maxLength":10' "$TEST_TMP/resp"
cp -p "$ROOT/refs/defs/name.json" "$TEST_TMP/name.orig"
sed 's/10/20/' "$TEST_TMP/name.orig" >"$ROOT/refs/defs/name.json"
touch -r "$TEST_TMP/name.orig" "$ROOT/refs/defs/name.json"
cgi GET refs
expect_true "after a refs file changed, GET embeds the new one" \
    grep -q '"maxLength":20' "$TEST_TMP/resp"

# Another binary (another build, an upgrade) never reads this one's files.
cp "$GPT_FCGI" "$TEST_TMP/other.fcgi"
BIN=$TEST_TMP/other.fcgi cgi GET patterned
expect_true "another binary stores its own answers" stored
cgi GET patterned
expect_true "and this binary does not take them" stored

# A form that stops loading answers 500 at once, not the cached 200.
cgi GET breaks
expect_true "the address that breaks later is cached while it loads" stored
printf '{"p": "now broken", "m": [], "s": {"type": 1}}\n' \
    >"$ROOT/breaks/form.json"
cgi GET breaks
expect_true "once its form no longer loads, GET answers 500 (got $code)" \
    test "$code" = 500
n=$(ncache)
cgi GET broken
expect_true "a form that does not load answers 500 (got $code)" \
    test "$code" = 500
expect_true "and is never cached" test "$(ncache)" = "$n"

# --- damaged files are ignored ----------------------------------------------
# The plain address again, unchanged since a while: restore its old form.
cp -p "$TEST_TMP/plain.orig" "$ROOT/plain/form.json"
sleep 3
cgi GET plain
expect_true "the restored form is cached again" stored
uncached GET plain
file=$(find "$CACHE" -type f -newer "$TEST_TMP/plain.orig" -exec \
    grep -l MARKER-P {} + | head -n 1)
# one byte of the JSON body (its first MARKER-P comes before the page's)
off=$(grep -a -b -o MARKER-P "$file" | head -n 1 | cut -d: -f1)
printf 'X' | dd of="$file" bs=1 seek="$off" conv=notrunc 2>/dev/null
cgi GET plain
expect_true "a cache file with a damaged body byte is ignored" damaged
expect_true "and the answer is the load's" same_as_uncached
expect_true "and the file is written again" stored
size=$(stat -c %s "$file")
truncate -s $((size / 2)) "$file"
cgi GET plain
expect_true "a cut cache file is ignored" damaged
expect_true "and the answer is the load's, again" same_as_uncached
printf 'X' | dd of="$file" bs=1 seek=100 conv=notrunc 2>/dev/null
cgi GET plain
expect_true "a cache file with a damaged key is ignored" damaged
expect_true "and the answer is the load's, once more" same_as_uncached
[ -n "$file" ] && : >"$file"
cgi GET plain
expect_true "an empty cache file is a miss" same_as_uncached

# Entries not written for a week go when another is stored; others stay.
printf 'x' >"$CACHE/0123456789abcdef"
printf 'x' >"$CACHE/0123456789abcdee"
printf 'x' >"$CACHE/0123456789abcdef.tmp.1"
printf 'x' >"$CACHE/not-an-entry"
touch -d '8 days ago' "$CACHE/0123456789abcdef" "$CACHE/not-an-entry"
touch -d '2 hours ago' "$CACHE/0123456789abcdef.tmp.1"
touch -d '6 days ago' "$CACHE/0123456789abcdee"
rm -f "$file"
cgi GET plain
expect_true "a miss stores again" stored
expect_true "storing an entry removes one not written for a week" \
    test ! -e "$CACHE/0123456789abcdef"
expect_true "and a temporary file left for an hour" \
    test ! -e "$CACHE/0123456789abcdef.tmp.1"
expect_true "but keeps a younger entry and names not its own" \
    test -e "$CACHE/0123456789abcdee" -a -e "$CACHE/not-an-entry"
rm -f "$CACHE/0123456789abcdee" "$CACHE/not-an-entry"

# --- where the cache lives ---------------------------------------------------
chmod 777 "$CACHE"
cgi GET plain
expect_true "a cache directory others may write turns the cache off" \
    grep -q 'the form cache is off' "$TEST_TMP/err"
expect_true "and the request is answered all the same" same_as_uncached
chmod 700 "$CACHE"
cgi GET plain GPT_FORM_CACHE=relative/dir
expect_true "a relative GPT_FORM_CACHE is refused with a warning" \
    grep -q 'not an absolute path' "$TEST_TMP/err"
expect_true "and the request is answered" test "$code" = 200
env -i GATEWAY_INTERFACE=CGI/1.1 REQUEST_METHOD=GET GPT_ROOT="$ROOT" \
    PATH_INFO=/plain TMPDIR="$TEST_TMP" "$GPT_FCGI" </dev/null \
    >/dev/null 2>&1
expect_true "the default directory is gpt.fcgi-cache-UID under TMPDIR" \
    test -d "$TEST_TMP/gpt.fcgi-cache-$(id -u)"

# --- acts with the cache vouching for the form -------------------------------
cgi GET patterned
expect_true "the patterned address is cached" test "$code" = 200
for act in '{"code": "AB-123", "tag": "ok"}:200' '{"code": "AB-12"}:204' \
    '{"tag": "Nope"}:204' '{"code": "ZZ-999"}:200'; do
	printf '%s' "${act%:*}" >"$TEST_TMP/in"
	cgi POST patterned CONTENT_TYPE=application/json \
	    CONTENT_LENGTH="$(wc -c <"$TEST_TMP/in" | tr -d ' ')"
	expect_true "the act ${act%:*} answers ${act##*:} (got $code)" \
	    test "$code" = "${act##*:}"
done
expect_true "an act does not rewrite the entry that vouched for it" not_stored
# The ETag an act compares If-Match with is the entry's: the one GET gives.
: >"$TEST_TMP/in"
cgi GET patterned
petag=$(sed -n 's/^ETag: \(.*\)\r$/\1/p' "$TEST_TMP/resp")
printf '{"code": "AB-123"}' >"$TEST_TMP/in"
cgi POST patterned CONTENT_TYPE=application/json CONTENT_LENGTH=18 \
    HTTP_IF_MATCH="$petag"
expect_true "a vouched act with If-Match of GET's ETag is accepted (got $code)" \
    test "$code" = 200
cgi POST patterned CONTENT_TYPE=application/json CONTENT_LENGTH=18 \
    HTTP_IF_MATCH='"stale"'
expect_true "one with a stale If-Match answers 412 (got $code)" \
    test "$code" = 412
expect_true "naming GET's ETag" grep -qF "ETag: $petag" "$TEST_TMP/resp"
# 40 strings: more searches of one pattern than RE_JIT_AFTER
awk 'BEGIN { printf "{\"list\": ["
	for (i = 0; i < 40; i++) printf "%s\"x\"", i ? "," : ""
	printf "]}" }' >"$TEST_TMP/in"
cgi GET many
expect_true "the many address is cached" stored
cgi POST many CONTENT_TYPE=application/json \
    CONTENT_LENGTH="$(wc -c <"$TEST_TMP/in" | tr -d ' ')"
expect_true "an act matching one pattern 40 times is accepted (got $code)" \
    test "$code" = 200
printf '%s' '{"list": ["a","b","c","d","e","f","g","h","i","j","k","l","m","n","o","p","q","r","s","T"]}' \
    >"$TEST_TMP/in"
cgi POST many CONTENT_TYPE=application/json \
    CONTENT_LENGTH="$(wc -c <"$TEST_TMP/in" | tr -d ' ')"
expect_true "and one whose 20th string fails after the JIT is rejected (got $code)" \
    test "$code" = 204

# --- the form's warnings: once per version of the form ----------------------
# Each CGI request is a load; the warnings are logged by the request that
# stores the entry, not by those the entry answers or vouches for.
nwarn() { grep -c '\[string-unbounded\] at "#/properties/name"' "$TEST_TMP/err"; }
act_warned() {
	printf '{"name": "x"}' >"$TEST_TMP/in"
	cgi POST warned CONTENT_TYPE=application/json CONTENT_LENGTH=13
}
: >"$TEST_TMP/in"
cgi GET warned
expect_true "the first GET stores the entry" stored
expect_true "and logs the form's warning once (got $(nwarn))" \
    test "$(nwarn)" = 1
for i in 1 2; do
	act_warned
	expect_true "act $i after it is accepted (got $code)" test "$code" = 200
	expect_true "and logs no warning (got $(nwarn))" test "$(nwarn)" = 0
done
: >"$TEST_TMP/in"
cgi GET warned
expect_true "nor does a GET answered from the entry (got $(nwarn))" \
    test "$(nwarn)" = 0
sed 's/MARKER-W1/MARKER-W2/' "$ROOT/warned/form.json" >"$TEST_TMP/warned.new"
mv "$TEST_TMP/warned.new" "$ROOT/warned/form.json"
sleep 3
act_warned
expect_true "after an edit, the first act is accepted (got $code)" \
    test "$code" = 200
expect_true "and logs the warning again, once (got $(nwarn))" \
    test "$(nwarn)" = 1
expect_true "and stores the new version" stored
act_warned
expect_true "the next act logs none (got $(nwarn))" test "$(nwarn)" = 0
: >"$TEST_TMP/in"
cgi GET warned
expect_true "a GET then serves the new version" \
    grep -q MARKER-W2 "$TEST_TMP/resp"
expect_true "from the entry the act stored, with no warning" \
    sh -c "! grep -q 'form cache: stored' '$TEST_TMP/err' && \
    ! grep -q 'string-unbounded' '$TEST_TMP/err'"
# With the cache off nothing vouches: every load logs them, as under
# FastCGI each load does.
printf '{"name": "x"}' >"$TEST_TMP/in"
cgi POST warned CONTENT_TYPE=application/json CONTENT_LENGTH=13 \
    GPT_FORM_CACHE=off
expect_true "with the cache off an act logs them (got $(nwarn))" \
    test "$(nwarn)" = 1

finish
