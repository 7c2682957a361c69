#!/bin/sh
# walk.sh: walk a graph of GPT addresses from one of them, acting at each.
#
#   walk.sh [-n STEPS] [-s SEED] URL
#
# At each address: fetch the form (GET, JSON), print its first sentence
# and its links, make a value with `gpt.fcgi --sample` from its s (members
# that an earlier answer named, such as a ticket, are filled with that
# answer's value instead of a sample), act with it and print the answer.
# The next address is the first member of the answer that the form's a
# types as a uri-reference, not visited yet; without one, the first link
# whose rel is "next", not visited yet; without either the walk ends.
# References are resolved against the address's URL (RFC 3986; only the
# forms "name", "/path" and absolute URIs are needed by gpt.fcgi's roots).
# Nothing is fetched that the forms or answers do not name.
#
# A runtime instead of --sample: set GPT_WALK_FILL to a command that reads
# the arrival document on stdin and prints the value to send (llama.sh,
# ollama.sh and openai.sh print one with -n).
#
# Prints one block per step, "step N: URL", then "  p:", "  link:",
# "  sent:", "  answer:" lines.  Exit status: 0 when the walk ended on an
# answer (every act accepted), 1 when an act was not accepted, 2 for a
# usage or network failure.  Environment: GPT_FCGI (the gpt.fcgi binary,
# default "gpt.fcgi"), GPT_ACTOR (default "walk.sh"), CURL (default
# "curl").  Needs curl and jq.
set -eu
CURL=${CURL:-curl}
GPT_FCGI=${GPT_FCGI:-gpt.fcgi}
steps=20
seed=1
usage() {
	echo "usage: walk.sh [-n STEPS] [-s SEED] URL" >&2
	exit 2
}
while getopts n:s: opt; do
	case $opt in
	n) steps=$OPTARG ;;
	s) seed=$OPTARG ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 1 ] || usage
url=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# resolve BASE REF: REF against BASE, for the references a root uses.
resolve() {
	case $2 in
	*://*) printf '%s\n' "$2" ;;
	/*) printf '%s\n' "$1" | sed 's|^\([a-z][a-z0-9+.-]*://[^/]*\).*|\1|' |
	    sed "s|\$|$2|" ;;
	*) printf '%s/%s\n' "${1%/*}" "$2" ;;
	esac
}

printf '{}' >"$tmp/carry"
: >"$tmp/visited"
n=0
while [ "$n" -lt "$steps" ]; do
	n=$((n + 1))
	printf '%s\n' "$url" >>"$tmp/visited"
	echo "step $n: $url"
	code=$($CURL -s --max-time 30 -o "$tmp/doc" -w '%{http_code}' \
	    -H 'Accept: application/json' "$url") || exit 2
	if [ "$code" != 200 ]; then
		echo "  GET: status $code"
		exit 1
	fi
	jq -r '"  p: " + (.p | split(". ")[0] | rtrimstr("."))' "$tmp/doc"
	jq -r '(.links // [])[] | "  link: \(.rel) -> \(.href)" +
	    (if .title then " (\(.title))" else "" end)' "$tmp/doc"
	if [ -n "${GPT_WALK_FILL:-}" ]; then
		sh -c "$GPT_WALK_FILL" <"$tmp/doc" >"$tmp/sample"
	else
		jq .s "$tmp/doc" >"$tmp/s.json"
		"$GPT_FCGI" --sample --seed "$seed" "$tmp/s.json" >"$tmp/sample"
	fi
	# what earlier answers named fills the members of the same name
	jq -c --slurpfile c "$tmp/carry" --slurpfile d "$tmp/doc" \
	    '. as $v | ($d[0].s.properties // {} | keys) as $k |
	     reduce ($c[0] | to_entries[] | select(.key as $x |
	         $k | index($x))) as $e ($v; .[$e.key] = $e.value)' \
	    "$tmp/sample" >"$tmp/act"
	echo "  sent: $(cat "$tmp/act")"
	code=$($CURL -s --max-time 60 -o "$tmp/answer" -w '%{http_code}' \
	    -H 'Content-Type: application/json' \
	    -H "GPT-Actor: ${GPT_ACTOR:-walk.sh}" \
	    --data-binary "@$tmp/act" "$url") || exit 2
	if [ "$code" != 200 ]; then
		echo "  answer: status $code"
		exit 1
	fi
	echo "  answer: $(jq -c . "$tmp/answer")"
	jq -c --slurpfile a "$tmp/answer" '. + $a[0]' "$tmp/carry" \
	    >"$tmp/carry.new"
	mv "$tmp/carry.new" "$tmp/carry"
	# the next address: an answer member a types as uri-reference, then
	# a link of rel "next"
	next=
	for ref in $(jq -r --slurpfile a "$tmp/answer" \
	    '(.a.properties // {} | to_entries[] |
	      select(.value.format == "uri-reference") | .key) as $m |
	     $a[0][$m] // empty | strings' "$tmp/doc") \
	    $(jq -r '(.links // [])[] | select(.rel == "next") | .href' \
	    "$tmp/doc"); do
		cand=$(resolve "$url" "$ref")
		if ! grep -qxF "$cand" "$tmp/visited"; then
			next=$cand
			break
		fi
	done
	if [ -z "$next" ]; then
		echo "end: no address left to follow"
		exit 0
	fi
	url=$next
done
echo "end: $steps steps"
