#!/bin/sh
# llama.sh: let a model served by llama.cpp's server act at a GPT address.
#
#   llama.sh [--dry-run] URL [INSTRUCTION]
#
# Fetches the form at URL and asks llama.cpp's OpenAI-compatible POST
# /v1/chat/completions for one reply, with p as the system message, the
# address's m as prior messages and INSTRUCTION (if given) as the last
# user message (the server applies the model's chat template), and
# response_format = {type: json_schema, json_schema: {name, schema: the
# form's s}}: the server turns the schema into a grammar, so the reply
# conforms to what it enforces.  The reply's content is submitted
# unchanged to URL; prints the status and the address's result.  Exit: 0
# accepted (200), 1 not accepted, 2 usage or a network failure.
#
# --dry-run prints the request it would send and the act it would
# submit (a value from `gpt.fcgi --sample`), and sends nothing.
#
# Environment: LLAMA_URL (default http://127.0.0.1:8012: start the server
# with `llama-server --port 8012 ...`; the demo has 8080), LLAMA_MAX_TOKENS
# (default 1024), GPT_ACTOR (default "llama.cpp"), GPT_FCGI and GPT_SEED
# (for --dry-run).  Needs curl, jq.
set -eu
LLAMA_URL=${LLAMA_URL:-http://127.0.0.1:8012}
LLAMA_MAX_TOKENS=${LLAMA_MAX_TOKENS:-1024}
. "$(dirname "$0")/model-common.sh"
case $LLAMA_MAX_TOKENS in '' | *[!0-9]*) model_usage ;; esac
model_begin "$@"

jq --arg instruction "$instruction" --argjson n "$LLAMA_MAX_TOKENS" '{
	messages: ([{role: "system", content: .p}] + (.m // [])
	    + (if $instruction == "" then []
	       else [{role: "user", content: $instruction}] end)),
	response_format: {type: "json_schema",
	    json_schema: {name: "act", schema: .s}},
	max_tokens: $n,
	stream: false
}' "$tmp/form" >"$tmp/request"

model_ask "$LLAMA_URL/v1/chat/completions" '.choices[0].message.content'
model_submit "${GPT_ACTOR:-llama.cpp}"
