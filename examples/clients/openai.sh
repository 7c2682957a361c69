#!/bin/sh
# openai.sh: let a model behind an OpenAI-compatible API act at a GPT
# address.
#
#   openai.sh URL [INSTRUCTION]
#
# Fetches the form at URL, asks POST $OPENAI_BASE_URL/chat/completions for
# one reply with response_format = {type: json_schema, json_schema: {name,
# schema: the form's s, strict: true}}, with p as the system message, the
# address's m as prior messages and INSTRUCTION (if given) as the last
# user message.  The reply's content is submitted unchanged to URL;
# prints the status and the address's result.  Exit: 0 accepted (200),
# 1 not accepted, 2 usage or a network failure.
#
# Strict mode accepts a subset of JSON Schema on some services (OpenAI's
# wants every property listed in required); OPENAI_STRICT=false sends
# strict: false.  The address checks the act either way.
#
# Environment: OPENAI_BASE_URL (default https://api.openai.com/v1),
# OPENAI_API_KEY (sent as a Bearer token when set), OPENAI_MODEL (default
# gpt-4o-mini), OPENAI_STRICT (default true), GPT_ACTOR (default
# "openai/<model>").  Needs curl, jq.
set -eu
OPENAI_BASE_URL=${OPENAI_BASE_URL:-https://api.openai.com/v1}
OPENAI_MODEL=${OPENAI_MODEL:-gpt-4o-mini}
OPENAI_STRICT=${OPENAI_STRICT:-true}
usage() {
	echo "usage: openai.sh URL [INSTRUCTION]" >&2
	exit 2
}
[ $# -ge 1 ] && [ $# -le 2 ] || usage
case $1 in -*) usage ;; esac
case $OPENAI_STRICT in true | false) ;; *) usage ;; esac
url=$1
instruction=${2:-}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/openai.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# Arrival: no header is needed; ask for JSON all the same.
code=$(curl -sS --max-time 30 -H 'Accept: application/json' \
    -o "$tmp/form" -w '%{http_code}' "$url") || code=000
if [ "$code" != 200 ] || ! jq -e '.s and (.p | type == "string")' \
    "$tmp/form" >/dev/null 2>&1; then
	echo "openai.sh: $url did not answer a GPT form" >&2
	exit 2
fi

jq --arg model "$OPENAI_MODEL" --arg instruction "$instruction" \
    --argjson strict "$OPENAI_STRICT" '{
	model: $model,
	messages: ([{role: "system", content: .p}] + (.m // [])
	    + (if $instruction == "" then []
	       else [{role: "user", content: $instruction}] end)),
	response_format: {type: "json_schema",
	    json_schema: {name: "act", schema: .s, strict: $strict}}
}' "$tmp/form" >"$tmp/request"

# The key goes through a header file, never the command line.
: >"$tmp/auth"
if [ -n "${OPENAI_API_KEY:-}" ]; then
	printf 'Authorization: Bearer %s\n' "$OPENAI_API_KEY" >"$tmp/auth"
fi
if ! curl -sS --max-time 600 -H 'Content-Type: application/json' \
    -H "@$tmp/auth" --data-binary "@$tmp/request" -o "$tmp/reply" \
    "$OPENAI_BASE_URL/chat/completions"; then
	echo "openai.sh: no answer from $OPENAI_BASE_URL" >&2
	exit 2
fi
# The model's text, exactly: -j writes it without adding a newline.
if ! jq -j -e '.choices[0].message.content | strings' "$tmp/reply" \
    >"$tmp/act"; then
	echo "openai.sh: unexpected reply: $(head -c 300 "$tmp/reply")" >&2
	exit 2
fi

status=$(curl -sS --max-time 60 -o "$tmp/result" -w '%{http_code}' \
    -H 'Content-Type: application/json' \
    -H "GPT-Actor: ${GPT_ACTOR:-openai/$OPENAI_MODEL}" \
    --data-binary "@$tmp/act" "$url") || exit 2
echo "status: $status"
cat "$tmp/result"
if [ -s "$tmp/result" ] && [ -n "$(tail -c 1 "$tmp/result")" ]; then
	echo
fi
[ "$status" = 200 ]
