#!/bin/sh
# act.sh: act at a GPT address with a value you already have.
#
#   act.sh [-m] URL [FILE]
#
# Fetches the form at URL (the arrival: GET, JSON), reads the value from
# FILE or standard input, submits it unchanged (the same bytes) as
# application/json, and prints the status and the result.  Exit status:
# 0 accepted (200), 1 not accepted (204 or any other status), 2 usage or
# a network failure.
#
#   -m   send If-Match with the form's ETag, so the act is refused (412)
#        if the form changed since it was fetched
#
# Environment: GPT_ACTOR (sent as GPT-Actor, default "act.sh"), CURL
# (default "curl").  Needs curl and jq.
set -eu
CURL=${CURL:-curl}
usage() {
	echo "usage: act.sh [-m] URL [FILE]" >&2
	exit 2
}
match=
while getopts m opt; do
	case $opt in
	m) match=1 ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] && [ $# -le 2 ] || usage
url=$1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/act.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# Arrival: no header is needed; ask for JSON all the same.
code=$($CURL -sS --max-time 30 -H 'Accept: application/json' \
    -D "$tmp/h" -o "$tmp/form" -w '%{http_code}' "$url") || code=000
if [ "$code" != 200 ] || ! jq -e '(.s | type == "object" or type == "boolean") and
    (.p | type == "string")' "$tmp/form" >/dev/null 2>&1; then
	echo "act.sh: $url did not answer a GPT form" >&2
	exit 2
fi
etag=$(tr -d '\r' <"$tmp/h" | sed -n 's/^[Ee][Tt][Aa][Gg]: *//p' | tail -n 1)

# The value, byte for byte: never re-serialized.
if [ $# -eq 2 ] && [ "$2" != - ]; then
	cp "$2" "$tmp/act"
else
	cat >"$tmp/act"
fi

set -- -H 'Content-Type: application/json' \
    -H "GPT-Actor: ${GPT_ACTOR:-act.sh}"
if [ -n "$match" ] && [ -n "$etag" ]; then
	set -- "$@" -H "If-Match: $etag"
fi
if ! status=$($CURL -sS --max-time 60 -o "$tmp/result" -w '%{http_code}' \
    "$@" --data-binary "@$tmp/act" "$url"); then
	echo "act.sh: cannot submit to $url" >&2
	exit 2
fi
echo "status: $status"
cat "$tmp/result"
if [ -s "$tmp/result" ] && [ -n "$(tail -c 1 "$tmp/result")" ]; then
	echo
fi
[ "$status" = 200 ]
