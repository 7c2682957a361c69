# shellcheck shell=sh
# model-common.sh: the steps every model client shares, sourced by
# llama.sh, ollama.sh and openai.sh.  A client calls, in order:
#   model_begin "$@"             check URL [INSTRUCTION], fetch the form
#   model_ask ENDPOINT JQ-PATH [CURL-ARGS...]
#                                POST $tmp/request, keep the reply's text
#   model_submit ACTOR           submit the text unchanged, print the result
# Between model_begin and model_ask the client writes its model's request
# (built from $tmp/form and $instruction) to $tmp/request.

model_name=$(basename "$0")

model_usage() {
	echo "usage: $model_name URL [INSTRUCTION]" >&2
	exit 2
}

model_begin() {
	[ $# -ge 1 ] && [ $# -le 2 ] || model_usage
	case $1 in -*) model_usage ;; esac
	url=$1
	# shellcheck disable=SC2034 # read by the client that sources this
	instruction=${2:-}
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/$model_name.XXXXXX")
	trap 'rm -rf "$tmp"' EXIT

	# Arrival: no header is needed; ask for JSON all the same.
	code=$(curl -sS --max-time 30 -H 'Accept: application/json' \
	    -o "$tmp/form" -w '%{http_code}' "$url") || code=000
	if [ "$code" != 200 ] || ! jq -e '.s and (.p | type == "string")' \
	    "$tmp/form" >/dev/null 2>&1; then
		echo "$model_name: $url did not answer a GPT form" >&2
		exit 2
	fi
}

model_ask() {
	endpoint=$1
	path=$2
	shift 2
	if ! curl -sS --max-time 600 -H 'Content-Type: application/json' \
	    "$@" --data-binary "@$tmp/request" -o "$tmp/reply" "$endpoint"; then
		echo "$model_name: no answer from $endpoint" >&2
		exit 2
	fi
	# The model's text, exactly: -j writes it without adding a newline.
	if ! jq -j -e "$path | strings" "$tmp/reply" >"$tmp/act"; then
		echo "$model_name: unexpected reply: $(head -c 300 "$tmp/reply")" >&2
		exit 2
	fi
}

model_submit() {
	status=$(curl -sS --max-time 60 -o "$tmp/result" -w '%{http_code}' \
	    -H 'Content-Type: application/json' -H "GPT-Actor: $1" \
	    --data-binary "@$tmp/act" "$url") || exit 2
	echo "status: $status"
	cat "$tmp/result"
	if [ -s "$tmp/result" ] && [ -n "$(tail -c 1 "$tmp/result")" ]; then
		echo
	fi
	[ "$status" = 200 ]
}
