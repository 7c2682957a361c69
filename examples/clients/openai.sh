#!/bin/sh
# openai.sh: let a model behind an OpenAI-compatible API act at a GPT
# address.
#
#   openai.sh [--dry-run] URL [INSTRUCTION]
#
# Fetches the form at URL, asks POST $OPENAI_BASE_URL/chat/completions for
# one reply with response_format = {type: json_schema, json_schema: {name,
# schema, strict}}, with p as the system message, the address's m as
# prior messages and INSTRUCTION (if given) as the last user message.  The
# reply's content is submitted unchanged to URL; prints the status and the
# address's result.  Exit: 0 accepted (200), 1 not accepted, 2 usage or a
# network failure.
#
# Strict mode: OpenAI's accepts only a subset of JSON Schema (every object
# closed, every property required, no oneOf, ...) and answers 400 to a
# schema outside it.  `gpt.fcgi --strict-openai` decides: when the form
# can be rewritten into that subset without changing what it accepts, the
# rewrite is sent with strict: true; otherwise the form's s is sent as it
# is with strict: false.  The script says which on stderr, with the
# keyword that keeps the form out.  The address checks the act either way.
#
# --dry-run prints the request it would send and the act it would
# submit (a value from `gpt.fcgi --sample`), and sends nothing.
#
# Environment: OPENAI_BASE_URL (default https://api.openai.com/v1),
# OPENAI_API_KEY (sent as a Bearer token when set), OPENAI_MODEL (default
# gpt-4o-mini), OPENAI_STRICT (auto, the default, as above; false: never
# strict; true: strict or exit 2), GPT_ACTOR (default "openai/<model>"),
# GPT_FCGI (default gpt.fcgi on PATH) and GPT_SEED (for --dry-run).
# Needs curl, jq.
set -eu
OPENAI_BASE_URL=${OPENAI_BASE_URL:-https://api.openai.com/v1}
OPENAI_MODEL=${OPENAI_MODEL:-gpt-4o-mini}
OPENAI_STRICT=${OPENAI_STRICT:-auto}
. "$(dirname "$0")/model-common.sh"
case $OPENAI_STRICT in auto | true | false) ;; *) model_usage ;; esac
model_begin "$@"

# Strict only when the form qualifies; the rewrite accepts what s accepts.
strict=false
cp "$tmp/s" "$tmp/schema"
if [ "$OPENAI_STRICT" != false ] && ! model_gpt_fcgi; then
	# Without gpt.fcgi nothing can tell whether the form qualifies.
	if [ "$OPENAI_STRICT" = true ]; then
		exit 2
	fi
	echo "$model_name: cannot tell whether the form is for strict" \
	    "mode: sending strict: false" >&2
elif [ "$OPENAI_STRICT" != false ]; then
	if "${GPT_FCGI:-gpt.fcgi}" --strict-openai "$tmp/s" >"$tmp/strict" \
	    2>"$tmp/strict-err"; then
		strict=true
		cp "$tmp/strict" "$tmp/schema"
		echo "$model_name: the form qualifies for strict mode:" \
		    "sending strict: true" >&2
	else
		why=$(grep 'not for OpenAI strict mode' "$tmp/strict-err" |
		    head -n 1 | sed 's/^gpt.fcgi: not for OpenAI strict mode: //')
		[ -n "$why" ] || why=$(head -n 1 "$tmp/strict-err")
		[ -n "$why" ] || why="cannot run ${GPT_FCGI:-gpt.fcgi}"
		if [ "$OPENAI_STRICT" = true ]; then
			echo "$model_name: OPENAI_STRICT=true, but the form is" \
			    "not for strict mode: $why" >&2
			exit 2
		fi
		echo "$model_name: the form is not for strict mode ($why):" \
		    "sending strict: false" >&2
	fi
fi

jq --arg model "$OPENAI_MODEL" --arg instruction "$instruction" \
    --argjson strict "$strict" --slurpfile schema "$tmp/schema" '{
	model: $model,
	messages: ([{role: "system", content: .p}] + (.m // [])
	    + (if $instruction == "" then []
	       else [{role: "user", content: $instruction}] end)),
	response_format: {type: "json_schema",
	    json_schema: {name: "act", schema: $schema[0], strict: $strict}}
}' "$tmp/form" >"$tmp/request"

# The key goes through a header file, never the command line.
: >"$tmp/auth"
if [ -n "${OPENAI_API_KEY:-}" ]; then
	printf 'Authorization: Bearer %s\n' "$OPENAI_API_KEY" >"$tmp/auth"
fi

model_ask "$OPENAI_BASE_URL/chat/completions" '.choices[0].message.content' \
    -H "@$tmp/auth"
model_submit "${GPT_ACTOR:-openai/$OPENAI_MODEL}"
