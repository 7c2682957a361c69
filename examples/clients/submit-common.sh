# submit-common.sh: how every client here submits an act, sourced by
# act.sh and model-common.sh.
#
#   gpt_submit URL ACT-FILE RESULT-FILE [CURL-ARGS...]
#
# POSTs the bytes of ACT-FILE as application/json with an Idempotency-Key
# (GPT_IDEMPOTENCY_KEY, or a fresh random UUID), and resends the same
# bytes with the same key, up to 3 times, when the network fails, so a
# lost answer never makes the act happen twice.  A 202 (a long-running
# act, gpt-address(5)) is followed: its Location is polled every
# pollInterval milliseconds (at most GPT_TASK_WAIT seconds, default 3600)
# until the task is no longer working; the final document is then in
# RESULT-FILE, and a completed task's "result" in RESULT-FILE.result.
# Sets $status (the act's HTTP status, 000 when the network failed) and
# $task_status (completed, failed, cancelled, or empty for no task).
# Prints "status: N" and, for a task, "task: URL" and "task status: S".
# Needs curl, jq and /proc/sys/kernel/random/uuid or od.

gpt_new_key() {
	if [ -r /proc/sys/kernel/random/uuid ]; then
		cat /proc/sys/kernel/random/uuid
	else
		od -An -N16 -tx1 /dev/urandom | tr -d ' \n'
	fi
}

# gpt_resolve BASE REF: REF (a Location) against the URL BASE.
gpt_resolve() {
	case $2 in
	http://* | https://*) printf '%s\n' "$2" ;;
	//*) printf '%s\n' "${1%%//*}$2" ;;
	/*) printf '%s\n' "$(printf '%s' "$1" | sed 's|^\([a-z]*://[^/]*\).*|\1|')$2" ;;
	\?*) printf '%s\n' "${1%%\?*}$2" ;;
	*) printf '%s\n' "${1%/*}/$2" ;;
	esac
}

gpt_submit() {
	_url=$1 _act=$2 _res=$3
	shift 3
	_key=${GPT_IDEMPOTENCY_KEY:-$(gpt_new_key)}
	_try=1
	task_status=
	# bounded: 3 tries
	while :; do
		status=$(curl -sS --max-time 60 -o "$_res" -D "$_res.head" \
		    -w '%{http_code}' -H 'Content-Type: application/json' \
		    -H "Idempotency-Key: $_key" "$@" \
		    --data-binary "@$_act" "$_url") || status=000
		[ "$status" != 000 ] || [ "$_try" -ge 3 ] && break
		echo "retrying with the same Idempotency-Key" >&2
		_try=$((_try + 1))
		sleep 1
	done
	echo "status: $status"
	[ "$status" = 202 ] || return 0
	_loc=$(tr -d '\r' <"$_res.head" |
	    sed -n 's/^[Ll][Oo][Cc][Aa][Tt][Ii][Oo][Nn]: *//p' | tail -n 1)
	[ -n "$_loc" ] || return 0
	_task=$(gpt_resolve "$_url" "$_loc")
	echo "task: $_task"
	_end=$(($(date +%s) + ${GPT_TASK_WAIT:-3600}))
	task_status=$(jq -r '.status // empty' "$_res" 2>/dev/null)
	# bounded by GPT_TASK_WAIT
	while [ "$task_status" = working ] && [ "$(date +%s)" -lt "$_end" ]; do
		_ms=$(jq -r '.pollInterval // 2000' "$_res" 2>/dev/null)
		case $_ms in '' | *[!0-9]*) _ms=2000 ;; esac
		sleep "$(awk "BEGIN {print $_ms / 1000}")"
		curl -sS --max-time 60 -o "$_res.new" "$_task" &&
		    jq -e .status "$_res.new" >/dev/null 2>&1 &&
		    mv "$_res.new" "$_res"
		task_status=$(jq -r '.status // empty' "$_res" 2>/dev/null)
	done
	echo "task status: $task_status"
	if [ "$task_status" = completed ]; then
		jq -c .result "$_res" >"$_res.result"
	fi
}
