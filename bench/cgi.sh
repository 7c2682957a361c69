#!/bin/sh
# cgi.sh: what one CGI request costs as the form grows, with the form
# cache (src/responder/formcache.c) and without it (GPT_FORM_CACHE=off: every
# request loads and compiles the form, as before the cache).
#
# Forms from bench/cgi_form.sh: 1 property (small) and 400 described
# properties with a pattern each (large, about 59 KB served).  Cases:
#   floor       bench/cgi_floor printing the same GET answer's body
#   GET cached  gpt.fcgi as CGI, GET, the cache warm
#   GET off     the same with GPT_FORM_CACHE=off
#   act cached  a valid act (hook: exec cat), the cache vouching for the
#               form (patterns compiled at their first search, no JIT)
#   act off     the same with the cache off
#   hook        the act's hook alone (sh, then cat), the same body on its
#               stdin: what an act costs beyond gpt.fcgi's own work
# hyperfine, ROUNDS rounds of RUNS runs each, the cases in turn (the
# order reversed every other round); each ratio is taken within a round
# and the figure is the median over rounds.  GETs run without a shell
# (-N); acts need stdin, so they run under sh, whose start hyperfine
# measures and subtracts.
#
# Environment: GPT_FCGI, GPT_SRCDIR, GPT_BUILDDIR (set by make bench);
# ROUNDS (5), RUNS (100); GPT_FCGI_BEFORE, another build (an older
# gpt.fcgi) to run as the cases get-before and act-before in the same
# rounds.
set -eu
GPT_FCGI=${GPT_FCGI:-./gpt.fcgi}
GPT_SRCDIR=${GPT_SRCDIR:-.}
GPT_BUILDDIR=${GPT_BUILDDIR:-.}
ROUNDS=${ROUNDS:-5}
RUNS=${RUNS:-100}
. "$GPT_SRCDIR/bench/lib.sh"

for tool in hyperfine jq; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		echo "cgi.sh: $tool is missing: the CGI path is not measured"
		exit 0
	fi
done
FLOOR=$GPT_BUILDDIR/bench/cgi_floor
T=$(mktemp -d "${TMPDIR:-/tmp}/gpt-bench-cgi.XXXXXX")
trap 'rm -rf "$T"' EXIT

for f in small:1 large:400; do
	name=${f%:*}
	mkdir -p "$T/$name"
	sh "$GPT_SRCDIR/bench/cgi_form.sh" "${f#*:}" >"$T/$name/form.json"
	printf '#!/bin/sh\nexec cat\n' >"$T/$name/hook"
	chmod 755 "$T/$name/hook"
done
printf '{"field_0001": "AAA-11"}' >"$T/act.json"
# The cache stores only files older than two seconds (formcache.h).
sleep 3
export GATEWAY_INTERFACE=CGI/1.1 GPT_FORM_CACHE="$T/cache" \
    GPT_LOG_TIMESTAMP=no
for name in small large; do
	env REQUEST_METHOD=GET GPT_ADDRESS="$T/$name" "$GPT_FCGI" \
	    </dev/null 2>/dev/null | sed '1,/^\r$/d' >"$T/$name.body"
	if ! [ -s "$T/$name.body" ]; then
		echo "cgi.sh: gpt.fcgi gives no arrival document for $name" >&2
		exit 1
	fi
done
echo "CGI: forms of $(wc -c <"$T/small.body" | tr -d ' ') and" \
    "$(wc -c <"$T/large.body" | tr -d ' ') bytes served;" \
    "$ROUNDS rounds of $RUNS runs, $(nproc) cores"

# one ROUND NAME CASE: the median wall time (us) and user+system (us) of
# one case, appended to $T/results as "ROUND NAME/CASE WALL CPU".
one() {
	_r=$1 _n=$2 _c=$3
	_b=$GPT_FCGI
	case $_c in
	*-before) _b=$GPT_FCGI_BEFORE ;;
	esac
	case $_c in
	floor) set -- -N "$FLOOR $T/$_n.body" ;;
	get-*) set -- -N "$_b" ;;
	act-*) set -- "$_b <$T/act.json" ;;
	hook) set -- "$T/$_n/hook <$T/act.json" ;;
	esac
	case $_c in
	*-off) cache=off ;;
	*) cache=$T/cache ;;
	esac
	case $_c in
	act-*) method=POST ;;
	*) method=GET ;;
	esac
	GPT_FORM_CACHE=$cache REQUEST_METHOD=$method GPT_ADDRESS="$T/$_n" \
	    CONTENT_TYPE=application/json \
	    CONTENT_LENGTH=$(wc -c <"$T/act.json" | tr -d ' ') \
	    hyperfine --warmup 5 --runs "$RUNS" --export-json "$T/h.json" \
	    "$@" >"$T/h.out" 2>&1 || { cat "$T/h.out"; exit 1; }
	jq -r --arg r "$_r" --arg k "$_n/$_c" '.results[0] |
	    "\($r) \($k) \(.median * 1e6) \((.user + .system) * 1e6)"' \
	    "$T/h.json" >>"$T/results"
}

: >"$T/results"
cases="floor get-cached get-off act-cached act-off hook"
rev="hook act-off act-cached get-off get-cached floor"
if [ -n "${GPT_FCGI_BEFORE:-}" ]; then
	cases="$cases get-before act-before"
	rev="act-before get-before $rev"
fi
round=1
while [ "$round" -le "$ROUNDS" ]; do
	if [ $((round % 2)) -eq 1 ]; then list=$cases; else list=$rev; fi
	for name in small large; do
		for c in $list; do
			one "$round" "$name" "$c"
		done
	done
	round=$((round + 1))
done

awk "$BENCH_AWK_MED"'
{ w[$2, $1] = $3; c[$2, $1] = $4; if ($1 > R) R = $1; seen[$2] = 1 }
function medcase(k, col,   r, x, n) {
	n = 0
	for (r = 1; r <= R; r++) x[++n] = (col == "w" ? w[k, r] : c[k, r])
	return med(x, n)
}
function ratio(a, b, col,   r, x, n, s) {
	n = 0; s = ""
	for (r = 1; r <= R; r++) {
		x[++n] = col == "c" ? c[a, r] / c[b, r] : w[a, r] / w[b, r]
		s = s sprintf(" %.2f", x[n])
	}
	rs = s
	return med(x, n)
}
END {
	printf "  %-22s %9s %9s\n", "case", "wall us", "CPU us"
	nc = split("floor get-cached get-off get-before act-cached act-off act-before hook", cs, " ")
	split("small large", ns, " ")
	for (i = 1; i <= 2; i++) for (j = 1; j <= nc; j++) {
		k = ns[i] "/" cs[j]
		if (!(k in seen)) continue
		printf "  %-22s %9.0f %9.0f\n", k, medcase(k, "w"), medcase(k, "c")
	}
	print "  ratios (median of the rounds; wall unless CPU)      target"
	for (i = 1; i <= 2; i++) {
		n = ns[i]
		v = ratio(n "/get-cached", n "/floor", "w")
		printf "  %-5s GET, cache     %5.2fx (rounds:%s)  <= 2x\n", n, v, rs
		v = ratio(n "/get-cached", n "/floor", "c")
		printf "  %-5s GET, cache, CPU %5.2fx (rounds:%s)  (less swayed by load)\n", n, v, rs
		v = ratio(n "/get-off", n "/floor", "w")
		printf "  %-5s GET, cache off %5.2fx (rounds:%s)  (before)\n", n, v, rs
		if ((n "/get-before") in seen) {
			v = ratio(n "/get-before", n "/floor", "w")
			printf "  %-5s GET, before    %5.2fx (rounds:%s)  (GPT_FCGI_BEFORE)\n", n, v, rs
			v = ratio(n "/get-before", n "/floor", "c")
			printf "  %-5s GET, before, CPU %4.2fx (rounds:%s)\n", n, v, rs
		}
		v = ratio(n "/act-cached", n "/act-off", "w")
		printf "  %-5s act, cache / off %4.2fx (rounds:%s)\n", n, v, rs
		v = ratio(n "/act-cached", n "/hook", "w")
		printf "  %-5s act, cache / its hook alone %4.2fx (rounds:%s)\n", n, v, rs
		if ((n "/act-before") in seen) {
			v = ratio(n "/act-cached", n "/act-before", "w")
			printf "  %-5s act, cache / before %4.2fx (rounds:%s)\n", n, v, rs
			v = ratio(n "/act-cached", n "/act-before", "c")
			printf "  %-5s act, cache / before, CPU %4.2fx (rounds:%s)\n", n, v, rs
		}
	}
}' "$T/results"
