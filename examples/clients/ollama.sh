#!/bin/sh
# ollama.sh: let a local Ollama model act at a GPT address.
#
#   ollama.sh [--dry-run] URL [INSTRUCTION]
#
# Fetches the form at URL, asks Ollama's /api/chat for one reply with
# format = the form's s (Ollama then constrains its output to the
# schema), with p as the system message, the address's m as prior
# messages and INSTRUCTION (if given) as the last user message.  The
# reply's content is submitted unchanged to URL; prints the status and the
# address's result.  Exit: 0 accepted (200), 1 not accepted, 2 usage or a
# network failure.
#
# --dry-run prints the request it would send and the act it would
# submit (a value from `gpt.fcgi --sample`), and sends nothing.
#
# Environment: OLLAMA_URL (default http://127.0.0.1:11434), OLLAMA_MODEL
# (default llama3.2), GPT_ACTOR (default "ollama/<model>"), GPT_FCGI and
# GPT_SEED (for --dry-run).  Needs curl, jq.
set -eu
OLLAMA_URL=${OLLAMA_URL:-http://127.0.0.1:11434}
OLLAMA_MODEL=${OLLAMA_MODEL:-llama3.2}
. "$(dirname "$0")/model-common.sh"
model_begin "$@"

jq --arg model "$OLLAMA_MODEL" --arg instruction "$instruction" '{
	model: $model,
	stream: false,
	format: .s,
	messages: ([{role: "system", content: .p}] + (.m // [])
	    + (if $instruction == "" then []
	       else [{role: "user", content: $instruction}] end))
}' "$tmp/form" >"$tmp/request"

model_ask "$OLLAMA_URL/api/chat" .message.content
model_submit "${GPT_ACTOR:-ollama/$OLLAMA_MODEL}"
