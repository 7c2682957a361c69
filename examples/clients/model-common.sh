# shellcheck shell=sh
# model-common.sh: the steps every model client shares, sourced by
# llama.sh, ollama.sh and openai.sh.  A client calls, in order:
#   model_begin "$@"             check [--dry-run] URL [INSTRUCTION], fetch
#                                the form ($tmp/form, its s in $tmp/s)
#   model_ask ENDPOINT JQ-PATH [CURL-ARGS...]
#                                POST $tmp/request, keep the reply's text
#   model_submit ACTOR           submit the text unchanged (with an
#                                Idempotency-Key; a 202 followed to the
#                                task's end: submit-common.sh), print the
#                                result
# Between model_begin and model_ask the client writes its model's request
# (built from $tmp/form and $instruction) to $tmp/request.
#
# --dry-run: nothing is sent to the model or to the address.  model_ask
# prints the request it would send (method, URL, the headers it sets, the
# body's exact bytes), and model_submit the act it would submit: a value
# of the form from `gpt.fcgi --sample` (GPT_FCGI names the binary,
# default gpt.fcgi on PATH; GPT_SEED the seed, default 1), standing for
# the model's reply.  A header that carries a secret is shown without it.

model_name=$(basename "$0")
. "$(dirname "$0")/submit-common.sh"

model_usage() {
	echo "usage: $model_name [--dry-run] URL [INSTRUCTION]" >&2
	exit 2
}

# model_gpt_fcgi: true when the gpt.fcgi these clients run is there;
# otherwise say so, naming it, so that its absence is never taken for a
# fault of the form.
model_gpt_fcgi() {
	command -v "${GPT_FCGI:-gpt.fcgi}" >/dev/null 2>&1 && return 0
	echo "$model_name: ${GPT_FCGI:-gpt.fcgi} not found (install it with" \
	    "make install and put its bin/ on PATH, or name it with" \
	    "GPT_FCGI=PATH)" >&2
	return 1
}

model_begin() {
	dry_run=
	if [ "${1:-}" = --dry-run ]; then
		dry_run=1
		shift
	fi
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
	jq .s "$tmp/form" >"$tmp/s"
}

model_ask() {
	endpoint=$1
	path=$2
	shift 2
	if [ -n "$dry_run" ]; then
		_shown="Content-Type: application/json"
		# the client's -H arguments, files read, secrets hidden
		while [ $# -ge 2 ]; do
			if [ "$1" = -H ]; then
				case $2 in
				@*) _f=${2#@}
				    [ -s "$_f" ] && _shown="$_shown
$(sed 's/^\([Aa]uthorization:\) .*/\1 (hidden)/' "$_f")" ;;
				*) _shown="$_shown
$2" ;;
				esac
			fi
			shift 2
		done
		echo "request: POST $endpoint"
		echo "$_shown"
		echo
		cat "$tmp/request"
		[ -n "$(tail -c 1 "$tmp/request")" ] && echo
		echo
		# The act stands for the model's reply: a value of the form.
		model_gpt_fcgi || exit 1
		if ! "${GPT_FCGI:-gpt.fcgi}" --sample --seed "${GPT_SEED:-1}" \
		    "$tmp/s" >"$tmp/sample" 2>"$tmp/sample-err"; then
			echo "$model_name: no act to show: $(cat "$tmp/sample-err")" >&2
			exit 1
		fi
		# the value's bytes, without --sample's line end
		printf '%s' "$(cat "$tmp/sample")" >"$tmp/act"
		return 0
	fi
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
	if [ -n "$dry_run" ]; then
		echo "act: POST $url"
		echo "Content-Type: application/json"
		echo "GPT-Actor: $1"
		echo
		cat "$tmp/act"
		echo
		exit 0
	fi
	gpt_submit "$url" "$tmp/act" "$tmp/result" -H "GPT-Actor: $1"
	[ "$status" != 000 ] || exit 2
	if [ -n "$task_status" ]; then
		[ -s "$tmp/result.result" ] && cat "$tmp/result.result" ||
		    cat "$tmp/result"
		[ "$task_status" = completed ]
		return
	fi
	cat "$tmp/result"
	if [ -s "$tmp/result" ] && [ -n "$(tail -c 1 "$tmp/result")" ]; then
		echo
	fi
	[ "$status" = 200 ]
}
