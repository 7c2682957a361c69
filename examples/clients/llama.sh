#!/bin/sh
# llama.sh: let a model served by llama.cpp's server act at a GPT address.
#
#   llama.sh URL [INSTRUCTION]
#
# Fetches the form at URL and asks llama.cpp's POST /completion for one
# completion with json_schema = the form's s (the server turns it into a
# grammar, so the output conforms).  The prompt is p, then the address's
# m as "role: content" lines, then INSTRUCTION (if given) as a user line,
# then "assistant:".  The completion is submitted unchanged to URL; prints
# the status and the address's result.  Exit: 0 accepted (200), 1 not
# accepted, 2 usage or a network failure.
#
# Environment: LLAMA_URL (default http://127.0.0.1:8080), LLAMA_N_PREDICT
# (tokens, default 1024), GPT_ACTOR (default "llama.cpp").  Needs curl, jq.
set -eu
LLAMA_URL=${LLAMA_URL:-http://127.0.0.1:8080}
LLAMA_N_PREDICT=${LLAMA_N_PREDICT:-1024}
usage() {
	echo "usage: llama.sh URL [INSTRUCTION]" >&2
	exit 2
}
[ $# -ge 1 ] && [ $# -le 2 ] || usage
case $1 in -*) usage ;; esac
case $LLAMA_N_PREDICT in '' | *[!0-9]*) usage ;; esac
url=$1
instruction=${2:-}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/llama.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# Arrival: no header is needed; ask for JSON all the same.
code=$(curl -sS --max-time 30 -H 'Accept: application/json' \
    -o "$tmp/form" -w '%{http_code}' "$url") || code=000
if [ "$code" != 200 ] || ! jq -e '.s and (.p | type == "string")' \
    "$tmp/form" >/dev/null 2>&1; then
	echo "llama.sh: $url did not answer a GPT form" >&2
	exit 2
fi

jq --arg instruction "$instruction" --argjson n "$LLAMA_N_PREDICT" '{
	prompt: ([.p, ""] + [(.m // [])[] | "\(.role): \(.content)"]
	    + (if $instruction == "" then [] else ["user: \($instruction)"] end)
	    + ["assistant: "] | join("\n")),
	json_schema: .s,
	n_predict: $n,
	stream: false
}' "$tmp/form" >"$tmp/request"

if ! curl -sS --max-time 600 -H 'Content-Type: application/json' \
    --data-binary "@$tmp/request" -o "$tmp/reply" \
    "$LLAMA_URL/completion"; then
	echo "llama.sh: no answer from $LLAMA_URL" >&2
	exit 2
fi
# The model's text, exactly: -j writes it without adding a newline.
if ! jq -j -e '.content | strings' "$tmp/reply" >"$tmp/act"; then
	echo "llama.sh: unexpected reply: $(head -c 300 "$tmp/reply")" >&2
	exit 2
fi

status=$(curl -sS --max-time 60 -o "$tmp/result" -w '%{http_code}' \
    -H 'Content-Type: application/json' \
    -H "GPT-Actor: ${GPT_ACTOR:-llama.cpp}" \
    --data-binary "@$tmp/act" "$url") || exit 2
echo "status: $status"
cat "$tmp/result"
if [ -s "$tmp/result" ] && [ -n "$(tail -c 1 "$tmp/result")" ]; then
	echo
fi
[ "$status" = 200 ]
