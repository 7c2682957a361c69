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
. "$(dirname "$0")/model-common.sh"
case $OPENAI_STRICT in true | false) ;; *) model_usage ;; esac
model_begin "$@"

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

model_ask "$OPENAI_BASE_URL/chat/completions" '.choices[0].message.content' \
    -H "@$tmp/auth"
model_submit "${GPT_ACTOR:-openai/$OPENAI_MODEL}"
