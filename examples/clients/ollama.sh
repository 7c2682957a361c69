#!/bin/sh
# ollama.sh: let a local Ollama model act at a GPT address.
#
#   ollama.sh URL [INSTRUCTION]
#
# Fetches the form at URL, asks Ollama's /api/chat for one reply with
# format = the form's s (Ollama then constrains its output to the
# schema), with p as the system message, the address's m as prior
# messages and INSTRUCTION (if given) as the last user message.  The
# reply's content is submitted unchanged to URL; prints the status and the
# address's result.  Exit: 0 accepted (200), 1 not accepted, 2 usage or a
# network failure.
#
# Environment: OLLAMA_URL (default http://127.0.0.1:11434), OLLAMA_MODEL
# (default llama3.2), GPT_ACTOR (default "ollama/<model>").  Needs curl, jq.
set -eu
OLLAMA_URL=${OLLAMA_URL:-http://127.0.0.1:11434}
OLLAMA_MODEL=${OLLAMA_MODEL:-llama3.2}
usage() {
	echo "usage: ollama.sh URL [INSTRUCTION]" >&2
	exit 2
}
[ $# -ge 1 ] && [ $# -le 2 ] || usage
case $1 in -*) usage ;; esac
url=$1
instruction=${2:-}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ollama.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# Arrival: no header is needed; ask for JSON all the same.
code=$(curl -sS --max-time 30 -H 'Accept: application/json' \
    -o "$tmp/form" -w '%{http_code}' "$url") || code=000
if [ "$code" != 200 ] || ! jq -e '.s and (.p | type == "string")' \
    "$tmp/form" >/dev/null 2>&1; then
	echo "ollama.sh: $url did not answer a GPT form" >&2
	exit 2
fi

jq --arg model "$OLLAMA_MODEL" --arg instruction "$instruction" '{
	model: $model,
	stream: false,
	format: .s,
	messages: ([{role: "system", content: .p}] + (.m // [])
	    + (if $instruction == "" then []
	       else [{role: "user", content: $instruction}] end))
}' "$tmp/form" >"$tmp/request"

if ! curl -sS --max-time 600 -H 'Content-Type: application/json' \
    --data-binary "@$tmp/request" -o "$tmp/reply" \
    "$OLLAMA_URL/api/chat"; then
	echo "ollama.sh: no answer from $OLLAMA_URL" >&2
	exit 2
fi
# The model's text, exactly: -j writes it without adding a newline.
if ! jq -j -e '.message.content | strings' "$tmp/reply" >"$tmp/act"; then
	echo "ollama.sh: unexpected reply: $(head -c 300 "$tmp/reply")" >&2
	exit 2
fi

status=$(curl -sS --max-time 60 -o "$tmp/result" -w '%{http_code}' \
    -H 'Content-Type: application/json' \
    -H "GPT-Actor: ${GPT_ACTOR:-ollama/$OLLAMA_MODEL}" \
    --data-binary "@$tmp/act" "$url") || exit 2
echo "status: $status"
cat "$tmp/result"
if [ -s "$tmp/result" ] && [ -n "$(tail -c 1 "$tmp/result")" ]; then
	echo
fi
[ "$status" = 200 ]
