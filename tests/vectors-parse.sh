#!/bin/sh
# vectors-parse.sh: gpt.fcgi --parse against the JSONTestSuite parsing
# vectors in $VECTORS/json-parsing/ (run by make check-vectors VECTORS=DIR).
#   y_*  accepted (exit 0), except the duplicate-member cases below, which
#        our rule rejects on purpose;
#   n_*  rejected (exit 1);
#   i_*  the verdict recorded in tests/data/parse/i-verdicts.txt (a file
#        missing from that table is a failure).
# Exit codes above 1, signals and runs over 10 s (timeout) are failures.
. "${GPT_SRCDIR:-.}/tests/lib.sh"

dir="${VECTORS:?set VECTORS=DIR}/json-parsing"
verdicts="$GPT_SRCDIR/tests/data/parse/i-verdicts.txt"
[ -d "$dir" ] || { echo "vectors-parse: no $dir" >&2; exit 2; }

# y_ files rejected by design: a duplicate member name at any depth.
by_design="y_object_duplicated_key.json y_object_duplicated_key_and_value.json"

y_ok=0 y_bad=0 n_ok=0 n_bad=0 i_ok=0 i_bad=0

# judge FILE WANT: run the parser on FILE; 0 when its exit status is WANT.
judge() {
	timeout 10 "$GPT_FCGI" --parse "$1" >/dev/null 2>"$TEST_TMP/err"
	got=$?
	if [ "$got" -eq "$2" ]; then
		pass
		return 0
	fi
	case $got in
	124) why="timed out" ;;
	0 | 1) why="exit $got" ;;
	*) why="crashed or failed (exit $got)" ;;
	esac
	fail "$(basename "$1"): $why, expected exit $2"
	return 1
}

for f in "$dir"/y_*.json; do
	name=$(basename "$f")
	want=0
	case " $by_design " in *" $name "*) want=1 ;; esac
	if judge "$f" "$want"; then y_ok=$((y_ok + 1)); else y_bad=$((y_bad + 1)); fi
done

for f in "$dir"/n_*.json; do
	if judge "$f" 1; then n_ok=$((n_ok + 1)); else n_bad=$((n_bad + 1)); fi
done

for f in "$dir"/i_*.json; do
	name=$(basename "$f")
	verdict=$(awk -v n="$name" '$1 == n { print $2 }' "$verdicts")
	case $verdict in
	accept) want=0 ;;
	reject) want=1 ;;
	*)
		fail "$name: no verdict in i-verdicts.txt"
		i_bad=$((i_bad + 1))
		continue
		;;
	esac
	if judge "$f" "$want"; then i_ok=$((i_ok + 1)); else i_bad=$((i_bad + 1)); fi
done

echo "y_ (accept; 2 duplicate-member files rejected by design): $y_ok correct, $y_bad wrong"
echo "n_ (reject): $n_ok correct, $n_bad wrong"
echo "judged y_ + n_: $((y_ok + n_ok)) of $((y_ok + y_bad + n_ok + n_bad)) correct"
echo "i_ (verdicts from i-verdicts.txt): $i_ok as recorded, $i_bad not"
finish
