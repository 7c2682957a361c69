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
. "$(dirname "$0")/model-common.sh"
case $LLAMA_N_PREDICT in '' | *[!0-9]*) model_usage ;; esac
model_begin "$@"

jq --arg instruction "$instruction" --argjson n "$LLAMA_N_PREDICT" '{
	prompt: ([.p, ""] + [(.m // [])[] | "\(.role): \(.content)"]
	    + (if $instruction == "" then [] else ["user: \($instruction)"] end)
	    + ["assistant: "] | join("\n")),
	json_schema: .s,
	n_predict: $n,
	stream: false
}' "$tmp/form" >"$tmp/request"

model_ask "$LLAMA_URL/completion" .content
model_submit "${GPT_ACTOR:-llama.cpp}"
