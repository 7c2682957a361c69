#!/bin/sh
# shared-hosting.sh: the README's recipe for shared hosting without
# suEXEC, played by three unprivileged users: the account that owns the
# address (no root: it cannot chown), the server's user that runs
# gpt.fcgi and the hook (CGI, as the host's Apache would), and another
# account of the host.  data/ made as the README says (chmod 1733) lets
# the hook keep its entries; without it the hook fails; the account
# keeps its address to itself and may remove what the hook wrote; the
# other account may neither list nor remove it.
#
# The users are numeric uids (setpriv), so the test needs root; without
# it, it says so and passes nothing off as tested.
. "${GPT_SRCDIR:-.}/tests/lib.sh"

OWNER=64106
SERVER=64107
OTHER=64108
if [ "$(id -u)" -ne 0 ] || ! command -v setpriv >/dev/null 2>&1; then
	echo "shared-hosting.sh: not root or no setpriv: skipped"
	exit 77
fi
as() { # as UID CMD...
	_u=$1
	shift
	setpriv --reuid="$_u" --regid="$_u" --clear-groups -- "$@"
}
chmod 755 "$TEST_TMP"
home=$TEST_TMP/home
mkdir -p "$home"
chown "$OWNER:$OWNER" "$home"
cp "$GPT_FCGI" "$TEST_TMP/gpt.fcgi"
chmod 755 "$TEST_TMP/gpt.fcgi"
site=$home/public_html/gpt
addr=$site/gpt.fcgi.d/guestbook

# The account publishes the guestbook, as itself (from a copy it can
# read wherever the source tree is).
cp -R "$GPT_SRCDIR/examples/guestbook" "$TEST_TMP/guestbook"
rm -rf "$TEST_TMP/guestbook/data"
# u+w: under make distcheck the source tree, and so the copy, is read-only
chmod -R u+w,a+rX "$TEST_TMP/guestbook"
as "$OWNER" sh -c "umask 022 && mkdir -p '$site/gpt.fcgi.d' &&
    cp -R '$TEST_TMP/guestbook' '$site/gpt.fcgi.d/' &&
    cp '$TEST_TMP/gpt.fcgi' '$site/gpt.fcgi'"
expect_true "the account published the address as itself" \
    test "$(stat -c %u "$addr/hook")" = "$OWNER"

# act: one guestbook act through CGI, as the server's user
act() {
	printf '{"name": "Ada", "message": "%s"}' "$1" >"$TEST_TMP/body"
	chmod 644 "$TEST_TMP/body"
	(cd "$site" && as "$SERVER" env -i PATH=/usr/bin:/bin \
	    GATEWAY_INTERFACE=CGI/1.1 REQUEST_METHOD=POST \
	    CONTENT_TYPE=application/json \
	    CONTENT_LENGTH="$(wc -c <"$TEST_TMP/body")" \
	    SCRIPT_FILENAME="$site/gpt.fcgi" PATH_INFO=/guestbook \
	    GPT_LOG_TIMESTAMP=no "$site/gpt.fcgi" \
	    <"$TEST_TMP/body" >"$TEST_TMP/resp" 2>"$TEST_TMP/err")
}

# Without the recipe: data/ cannot be made by the server's user.
act "before"
expect_true "without data/ the server's user cannot keep the entry (502)" \
    grep -q '^Status: 502' "$TEST_TMP/resp"

# The README's recipe, word for word, as the account, from public_html/gpt.
recipe=$(grep -m 1 '^    mkdir -p gpt.fcgi.d/guestbook/data && chmod 1733' \
    "$GPT_SRCDIR/README" | sed 's/^    //')
# (the README is read by root: the account runs only the line)
expect_true "the README gives the recipe" test -n "$recipe"
(cd "$site" && as "$OWNER" sh -c "$recipe")
expect_true "the account ran it without root" \
    test "$(stat -c '%u %a' "$addr/data")" = "$OWNER 1733"

act "Hello from the server's user."
expect_true "the hook, as the server's user, keeps the entry (200)" \
    sh -c "grep -q '^Status: 200' '$TEST_TMP/resp' &&
        grep -q '{\"entry\": 1}' '$TEST_TMP/resp'"
act "Again."
expect_true "... and the next (entry 2)" grep -q '{"entry": 2}' "$TEST_TMP/resp"
expect_true "the entries belong to the server's user" \
    test "$(stat -c %u "$addr/data/entries.jsonl")" = "$SERVER"
expect_true "the address itself stays the account's: the server's user cannot change the hook" \
    sh -c "! setpriv --reuid=$SERVER --regid=$SERVER --clear-groups -- \
        sh -c 'echo x >>$addr/hook' 2>/dev/null"
expect_true "... nor the form" \
    sh -c "! setpriv --reuid=$SERVER --regid=$SERVER --clear-groups -- \
        sh -c 'echo x >>$addr/form.json' 2>/dev/null"
expect_true "the account may not read the entries (the hook's umask 027)" \
    sh -c "! setpriv --reuid=$OWNER --regid=$OWNER --clear-groups -- \
        cat '$addr/data/entries.jsonl' >/dev/null 2>&1"
expect_true "another account may not list data/" \
    sh -c "! setpriv --reuid=$OTHER --regid=$OTHER --clear-groups -- \
        ls '$addr/data' >/dev/null 2>&1"
expect_true "... nor remove the entries" \
    sh -c "! setpriv --reuid=$OTHER --regid=$OTHER --clear-groups -- \
        rm -f '$addr/data/entries.jsonl' 2>/dev/null"
expect_true "... which are still there" test -s "$addr/data/entries.jsonl"
expect_true "... but may add a file (the risk the README states)" \
    setpriv --reuid="$OTHER" --regid="$OTHER" --clear-groups -- \
        sh -c "echo x >'$addr/data/other'"
as "$OWNER" sh -c "cd '$site' && '$site/gpt.fcgi' --check gpt.fcgi.d/guestbook" \
    >"$TEST_TMP/check" 2>&1
expect_true "--check, as the account, still loads the address" \
    grep -q 'gpt.fcgi.d/guestbook: ok' "$TEST_TMP/check"
expect_true "the account may remove what the hook wrote (its sticky data/)" \
    as "$OWNER" rm -f "$addr/data/entries.jsonl" "$addr/data/lock" \
        "$addr/data/other"
expect_true "... and it is gone" test ! -e "$addr/data/entries.jsonl"

finish
