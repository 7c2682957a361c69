#!/bin/sh
# browser.sh: the human page in a real browser.  gpt.fcgi serves every
# example address and the test forms of tests/data/page/ behind lighttpd
# (FastCGI, two processes, examples/servers/lighttpd-fastcgi.conf) on
# 127.0.0.1; each address's hook records the body it received.  Here: the
# page is the same bytes from every process and every load, and its
# Content-Security-Policy names its script and style; then
# tests/browser/browser.mjs drives Debian's chromium (puppeteer-core, the
# system browser, never a downloaded one) and runs axe-core in the page.
#
# Environment (make check-browser sets them):
#   GPT_BROWSER_MODULES  node_modules with puppeteer-core and axe-core
#   GPT_BROWSER_OUT      where the screenshots go
#   CHROMIUM             the browser (default: chromium on PATH)
. "${GPT_SRCDIR:-.}/tests/servers-common.sh"
need lighttpd chromium cmp

modules=${GPT_BROWSER_MODULES:?set GPT_BROWSER_MODULES (make check-browser does)}
out=${GPT_BROWSER_OUT:-$TEST_TMP/shots}
mkdir -p "$out"

# The root: each address's form and address.conf, and a hook that keeps
# the body it was given (the bytes the browser sent, as received) and
# answers {"received": N}; a test form's own hook, where it has one.
root=$TEST_TMP/root
mkdir -p "$root"
addresses=
examples=
for dir in "$GPT_SRCDIR"/examples/*/ "$GPT_SRCDIR"/tests/data/page/*/; do
	[ -f "$dir/form.json" ] || continue
	name=$(basename "$dir")
	mkdir -p "$root/$name"
	cp "$dir/form.json" "$root/$name/"
	[ -f "$dir/address.conf" ] && cp "$dir/address.conf" "$root/$name/"
	cat >"$root/$name/hook" <<'HOOK'
#!/bin/sh
cat >received.tmp && mv received.tmp received
printf '{"received": %s, "note": "kept as sent"}\n' "$(wc -c <received)"
HOOK
	case $dir in
	*/tests/data/page/*) [ -f "$dir/hook" ] && cp "$dir/hook" "$root/$name/" ;;
	esac
	chmod 755 "$root/$name/hook"
	# gpt.fcgi runs as the caller here, who owns the directory
	chmod 755 "$root/$name"
	addresses="$addresses $name"
	case $dir in
	*/examples/*) examples="$examples $name" ;;
	esac
done
chmod -R a+rX "$root"

t=$TEST_TMP/lighttpd
mkdir -p "$t"
chmod 755 "$t"
install_bin "$t/bin"
port=$(free_port)
render lighttpd-fastcgi.conf "$t/lighttpd.conf" PORT="$port" ROOT="$root" \
    BIN="$t/bin/gpt.fcgi" TMP="$t"
lighttpd -D -f "$t/lighttpd.conf" >"$t/stdout" 2>&1 &
started $!
base=http://127.0.0.1:$port/gpt
wait_ready "$base/echo" || { cat "$t"/*.log >&2; exit 1; }

# Precomputed: the page from CGI processes (each a load of its own) and
# from both FastCGI processes, again and again, is one sequence of bytes.
for a in $addresses; do
	# (as root, each load warns that hooks would run as root)
	cgi_get "$root/$a" text/html >"$TEST_TMP/$a.cgi1" 2>/dev/null
	cgi_get "$root/$a" text/html >"$TEST_TMP/$a.cgi2" 2>/dev/null
	expect_true "$a: two loads give the same page" \
	    cmp "$TEST_TMP/$a.cgi1" "$TEST_TMP/$a.cgi2"
	same=true
	for i in 1 2 3 4 5 6; do
		req GET "$base/$a" -H 'Accept: text/html'
		cmp -s "$TEST_TMP/b" "$TEST_TMP/$a.cgi1" || same=false
	done
	expect_true "$a: six GETs from two processes give the CGI bytes" $same
	expect_header Content-Security-Policy "^default-src 'none'; script-src 'sha256-" \
	    "$a: the page carries its Content-Security-Policy"
	printf '%s %s\n' "$a" "$(wc -c <"$TEST_TMP/$a.cgi1")" >>"$out/sizes.txt.tmp"
done
mv "$out/sizes.txt.tmp" "$out/sizes.txt"

node "$GPT_SRCDIR/tests/browser/browser.mjs" --base="$base" --root="$root" \
    --modules="$modules" --out="$out" \
    --chromium="${CHROMIUM:-$(command -v chromium)}" \
    --addresses="$addresses" --examples="$examples" >"$TEST_TMP/browser.out" 2>&1
rc=$?
cat "$TEST_TMP/browser.out"
line=$(grep -E '^browser: [0-9]+ passed, [0-9]+ failed$' "$TEST_TMP/browser.out" | tail -n 1)
if [ -z "$line" ]; then
	fail "browser.mjs ended without its summary (exit $rc)"
else
	set -- $line
	passed=$((passed + $2))
	failed=$((failed + $4))
	[ "$rc" -eq 0 ] || [ "$4" -gt 0 ] || fail "browser.mjs exited $rc"
fi
stop_started
finish
