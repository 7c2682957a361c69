#!/bin/sh
# corpus.sh: gpt.fcgi's validator raced over a corpus: a directory of cases,
# each CASE/schema.json with CASE/instances.jsonl (one JSON text a line).
#
#   CORPUS=DIR [PEER=COMMAND] [PEER_NAME=NAME] [OUT=DIR] [REPS=3]
#   [ROUND_S=0.2] [ROUNDS=5] sh bench/corpus.sh
#
# Each case's schema becomes an address (form.json {"p", "m": [], "s"}),
# loaded by the responder's own loader.  A form refused only for keywords
# it does not know gets a second try with `annotations =` naming them (as
# an operator would declare a vendor's keywords); one still refused is
# reported, not raced.  A form with `format` also gets a copy without it
# ("fmt-off"): a peer that does not assert formats is then compared both
# with what gpt.fcgi enforces and with the same work.  This is an option of
# the benchmark alone; gpt.fcgi itself always asserts formats.
#
# PEER, when given, is a program called as
#   PEER SCHEMA.json INSTANCES.jsonl VERDICTS-OUT ROUND_S ROUNDS
# that prints the fields bench_corpus prints (val_ns, pv_ns, ...).  The two
# sides run one after the other, the order alternating per case and per
# rep, so that a slow minute of the machine falls on both.  Without a peer
# the figures of gpt.fcgi alone are printed.
#
# Output: $OUT/raw.txt (one line per run), $OUT/verdicts/, and the table
# on stdout and in $OUT/table.txt: per case the median over the reps of
# peer_ns / gpt_ns (above 1: gpt.fcgi is faster) for validate alone and
# for parse + validate, the verdicts' agreement, then the geomeans.
set -eu
: "${CORPUS:?set CORPUS=DIR (CASE/schema.json and CASE/instances.jsonl)}"
: "${GPT_FCGI:?}" "${GPT_BUILDDIR:?}"
OUT=${OUT:-$GPT_BUILDDIR/bench/corpus-out}
REPS=${REPS:-3} ROUND_S=${ROUND_S:-0.2} ROUNDS=${ROUNDS:-5}
PEER=${PEER:-} PEER_NAME=${PEER_NAME:-peer}
BENCH=$GPT_BUILDDIR/bench/bench_corpus
[ -x "$BENCH" ] || { echo "corpus.sh: build $BENCH first (make bench-corpus)"; exit 1; }
[ -d "$CORPUS" ] || { echo "corpus.sh: no directory $CORPUS"; exit 1; }
rm -rf "$OUT/addrs" "$OUT/verdicts"
mkdir -p "$OUT/addrs" "$OUT/verdicts"

# form_json CASE SCHEMA: the arrival document around the schema's bytes.
form_json() {
	printf '{"p":"corpus case %s","m":[],"s":' "$1"
	cat "$2"
	printf '}\n'
}

# The names --check reports as unknown keywords or formats, one a line.
unknown_names() {
	"$GPT_FCGI" --check "$1" 2>&1 |
	    sed -n 's/.*unknown \(keyword\|format\) "\([^" ]*\)".*/\2/p' | sort -u
}

# make_address DIR: load DIR/form.json, or declare its unknown names; prints
# how it loads: asis, ann (names declared) or refused.
make_address() {
	if "$GPT_FCGI" --check "$1" >/dev/null 2>&1; then
		echo asis
		return
	fi
	: >"$1/names"
	i=0
	while [ $i -lt 8 ]; do
		unknown_names "$1" >"$1/new"
		cat "$1/names" "$1/new" | sort -u >"$1/all"
		cmp -s "$1/all" "$1/names" && break
		mv "$1/all" "$1/names"
		printf 'annotations = %s\n' "$(paste -sd" " "$1/names")" \
		    >"$1/address.conf"
		i=$((i + 1))
	done
	if "$GPT_FCGI" --check "$1" >/dev/null 2>&1; then echo ann; else
		rm -f "$1/address.conf"; echo refused; fi
}

# without_format IN OUT: the schema with every string-valued "format"
# member removed (the fmt-off copy).
without_format() {
	python3 - "$1" "$2" <<'EOF'
import json, sys
def strip(v):
    if isinstance(v, dict):
        return {k: strip(x) for k, x in v.items()
                if not (k == "format" and isinstance(x, str))}
    if isinstance(v, list):
        return [strip(x) for x in v]
    return v
with open(sys.argv[1]) as f:
    s = json.load(f)
with open(sys.argv[2], "w") as f:
    json.dump(strip(s), f)
EOF
}

: >"$OUT/cases.tsv"
for dir in "$CORPUS"/*/; do
	c=$(basename "$dir")
	[ -f "$dir/schema.json" ] && [ -f "$dir/instances.jsonl" ] || continue
	a=$OUT/addrs/$c
	mkdir -p "$a"
	form_json "$c" "$dir/schema.json" >"$a/form.json"
	how=$(make_address "$a")
	fo=-
	if grep -q '"format"' "$dir/schema.json" && command -v python3 >/dev/null; then
		mkdir -p "$a-fmt-off"
		without_format "$dir/schema.json" "$a-fmt-off.schema.json"
		form_json "$c" "$a-fmt-off.schema.json" >"$a-fmt-off/form.json"
		[ -f "$a/address.conf" ] && cp "$a/address.conf" "$a-fmt-off/"
		"$GPT_FCGI" --check "$a-fmt-off" >/dev/null 2>&1 && fo=$a-fmt-off
	fi
	printf '%s\t%s\t%s\n' "$c" "$how" "$fo" >>"$OUT/cases.tsv"
done

{
	echo "# $(date -u +%FT%TZ) $(uname -m) $(nproc) cpus REPS=$REPS ROUND_S=$ROUND_S ROUNDS=$ROUNDS"
	echo "# gpt.fcgi $(cd "$GPT_SRCDIR" && git rev-parse --short HEAD 2>/dev/null || echo '?') corpus $CORPUS peer ${PEER:-none}"
} >"$OUT/raw.txt"

gpt_run() { # rep case addr tag
	line=$("$BENCH" "$3" "$CORPUS/$2/instances.jsonl" \
	    "$OUT/verdicts/gpt$4-$2.txt" "$ROUND_S" "$ROUNDS" || true)
	printf '%s\t%s\tgpt%s\t%s\n' "$1" "$2" "$4" "$line" >>"$OUT/raw.txt"
}
peer_run() { # rep case
	[ -n "$PEER" ] || return 0
	line=$($PEER "$CORPUS/$2/schema.json" "$CORPUS/$2/instances.jsonl" \
	    "$OUT/verdicts/peer-$2.txt" "$ROUND_S" "$ROUNDS" || true)
	printf '%s\t%s\tpeer\t%s\n' "$1" "$2" "$line" >>"$OUT/raw.txt"
}

rep=1
while [ "$rep" -le "$REPS" ]; do
	i=0
	while IFS='	' read -r c how fo; do
		[ "$how" = refused ] && continue
		if [ $(((rep + i) % 2)) -eq 0 ]; then
			gpt_run "$rep" "$c" "$OUT/addrs/$c" ""
			[ "$fo" = - ] || gpt_run "$rep" "$c" "$fo" "-fmt-off"
			peer_run "$rep" "$c"
		else
			peer_run "$rep" "$c"
			gpt_run "$rep" "$c" "$OUT/addrs/$c" ""
			[ "$fo" = - ] || gpt_run "$rep" "$c" "$fo" "-fmt-off"
		fi
		i=$((i + 1))
	done <"$OUT/cases.tsv"
	echo "corpus.sh: rep $rep of $REPS done" >&2
	rep=$((rep + 1))
done

# The verdicts of the two sides, instance by instance (valid or not).
agree() { # case
	[ -n "$PEER" ] && [ -f "$OUT/verdicts/peer-$1.txt" ] || { echo -; return; }
	awk -F'\t' 'NR == FNR { v[$1] = $2; next }
	    ($1 in v) { n++; if ((v[$1] == "valid") == ($2 == "valid")) same++ }
	    END { printf "%d/%d\n", same, n }' \
	    "$OUT/verdicts/gpt-$1.txt" "$OUT/verdicts/peer-$1.txt"
}
: >"$OUT/agree.tsv"
while IFS='	' read -r c how fo; do
	[ "$how" = refused ] && continue
	printf '%s\t%s\n' "$c" "$(agree "$c")" >>"$OUT/agree.tsv"
done <"$OUT/cases.tsv"

awk -F'\t' -v peer="$PEER_NAME" -v haspeer="${PEER:+1}" '
function field(line, k,    n, i, f, kv) {
	n = split(line, f, " ")
	for (i = 1; i <= n; i++) {
		split(f[i], kv, "=")
		if (kv[1] == k)
			return kv[2]
	}
	return ""
}
function med(list,    n, a, i, j, t) {
	n = split(list, a, " ")
	for (i = 1; i <= n; i++)
		for (j = i + 1; j <= n; j++)
			if (a[j] + 0 < a[i] + 0) { t = a[i]; a[i] = a[j]; a[j] = t }
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
FILENAME ~ /cases.tsv$/ { how[$1] = $2; order[++ncase] = $1; next }
FILENAME ~ /agree.tsv$/ { agreement[$1] = $2; next }
/^#/ { next }
{
	rep = $1; c = $2; side = $3; line = $4
	v = field(line, "val_ns"); p = field(line, "pv_ns")
	if (v == "")
		next
	key = c SUBSEP side
	vals[key, rep] = v; pvs[key, rep] = p
	reps[rep] = 1
	if (side == "gpt") mem[c] = field(line, "mem_per_byte")
}
END {
	if (haspeer)
		printf "%-28s %-5s %10s %10s %10s %10s %8s %9s\n", "case", "load", \
		    "val(x)", "val-fo(x)", "pv(x)", "gpt val ns", "B/byte", "agree"
	else
		printf "%-28s %-5s %10s %10s %10s %8s\n", "case", "load", \
		    "val ns", "val-fo ns", "pv ns", "B/byte"
	for (k = 1; k <= ncase; k++) {
		c = order[k]
		if (how[c] == "refused") { printf "%-28s refused\n", c; nref++; continue }
		rv = rf = rp = gv = gf = gp = ""
		for (r in reps) {
			g = vals[c, "gpt", r]; q = vals[c, "peer", r]
			if (g == "") continue
			gv = gv " " g; gp = gp " " pvs[c, "gpt", r]
			f = vals[c, "gpt-fmt-off", r]
			if (f != "") gf = gf " " f
			if (q != "") {
				rv = rv " " q / g; rp = rp " " pvs[c, "peer", r] / pvs[c, "gpt", r]
				rf = rf " " q / (f != "" ? f : g)
			}
		}
		if (gv == "") { printf "%-28s no figures\n", c; continue }
		if (!haspeer) {
			printf "%-28s %-5s %10.1f %10s %10.1f %8s\n", c, how[c], \
			    med(gv), gf == "" ? "-" : sprintf("%.1f", med(gf)), med(gp), mem[c]
			continue
		}
		if (rv == "") { printf "%-28s %-5s peer gave no figures\n", c, how[c]; continue }
		a = med(rv); b = med(rf); d = med(rp)
		printf "%-28s %-5s %10.2f %10.2f %10.2f %10.1f %8s %9s\n", c, how[c], \
		    a, b, d, med(gv), mem[c], agreement[c]
		n++; lv += log(a); lf += log(b); lp += log(d)
		if (a >= 1) fv++
		if (a < minv || n == 1) { minv = a; minc = c }
	}
	if (haspeer && n > 0)
		printf "\n%d cases both ran (%d refused by gpt.fcgi): geomean %s/gpt.fcgi validate %.2fx (%.2fx with format assertion off where the form has format), parse+validate %.2fx; gpt.fcgi faster on %d of %d validate-only; slowest case %s %.2fx\n", \
		    n, nref, peer, exp(lv / n), exp(lf / n), exp(lp / n), fv, n, minc, minv
}' "$OUT/cases.tsv" "$OUT/agree.tsv" "$OUT/raw.txt" | tee "$OUT/table.txt"
