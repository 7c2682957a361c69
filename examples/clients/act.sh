#!/bin/sh
# act.sh: act at a GPT address with a value you already have.
#
#   act.sh [-m] URL [FILE]
#
# Fetches the form at URL (the arrival: GET, JSON), reads the value from
# FILE or standard input, submits it unchanged (the same bytes) as
# application/json, and prints the status and the result.  Exit status:
# 0 accepted (200, or a task that completed), 1 not accepted (204, any
# other status, a task failed or cancelled), 2 usage or a network
# failure.  Every act carries an Idempotency-Key (GPT_IDEMPOTENCY_KEY, or
# a fresh one), resent with the same bytes when the network fails; a 202
# is followed to the task's end (submit-common.sh).
#
#   -m   send If-Match with the form's ETag, so the act is refused (412)
#        if the form changed since it was fetched
#
# Environment: GPT_ACTOR (sent as GPT-Actor, default "act.sh"),
# GPT_IDEMPOTENCY_KEY, GPT_TASK_WAIT (seconds, default 3600), CURL
# (default "curl").  Needs curl and jq.
set -eu
. "$(dirname "$0")/submit-common.sh"
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
gpt_submit "$url" "$tmp/act" "$tmp/result" "$@"
if [ "$status" = 000 ]; then
	echo "act.sh: cannot submit to $url" >&2
	exit 2
fi
if [ -n "$task_status" ]; then
	[ -s "$tmp/result.result" ] && cat "$tmp/result.result" ||
	    cat "$tmp/result"
	[ "$task_status" = completed ]
	exit
fi
cat "$tmp/result"
if [ -s "$tmp/result" ] && [ -n "$(tail -c 1 "$tmp/result")" ]; then
	echo
fi
[ "$status" = 200 ]
