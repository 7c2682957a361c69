#!/bin/sh
# vectors-schema.sh: the official JSON Schema test suite (draft 2020-12)
# through `gpt.fcgi --validate`.
#
# For each file $VECTORS/json-schema/draft2020-12/*.json and each group in
# it, the group's schema and each test's data go to temporary files, and
# `gpt.fcgi --validate SCHEMA DATA` must answer as the suite says: exit 0
# for valid, 1 for invalid.  Exit 2 (schema refused) is allowed only for a
# group listed in tests/data/schema-suite-refusals.txt, with the reason:
# the group uses something outside the form vocabulary of the contract,
# and such a form must be refused, never validated loosely.  A listed group
# that is not refused is a failure too, so the list stays exact.
#
# A test listed in tests/data/schema-suite-deviations.txt must get the
# opposite answer, for the reason given there (format is asserted where the
# suite expects an annotation); a listed test answered as the suite says
# is a failure, so that list stays exact too.
#
# A false accept (valid: false, exit 0) is always a failure.  Prints a
# table per file and a total, then "N passed, N failed".
. "${GPT_SRCDIR:-.}/tests/lib.sh"

if [ -z "${VECTORS:-}" ] || [ ! -d "$VECTORS/json-schema/draft2020-12" ]; then
	echo "vectors-schema.sh: set VECTORS to a directory holding" \
	    "json-schema/draft2020-12/" >&2
	exit 2
fi
suite=$VECTORS/json-schema/draft2020-12
refusals=$GPT_SRCDIR/tests/data/schema-suite-refusals.txt
deviations=$GPT_SRCDIR/tests/data/schema-suite-deviations.txt

# "file<TAB>description" of every listed group, comments dropped.
grep -v '^#' "$refusals" | grep -v '^$' | cut -f1,2 >"$TEST_TMP/listed"

# "file<TAB>group<TAB>test" of every deviation.
grep -v '^#' "$deviations" | grep -v '^$' | cut -f1,2,3 >"$TEST_TMP/deviant"

# deviates FILE GROUP TEST: true when the test's answer is inverted.
deviates() {
	printf '%s\t%s\t%s\n' "$1" "$2" "$3" | grep -Fxq -f - "$TEST_TMP/deviant"
}

# listed FILE DESCRIPTION: true when the group may be refused.
listed() {
	printf '%s\t%s\n' "$1" "$2" | grep -Fxq -f - "$TEST_TMP/listed"
}

tab=$(printf '\t')
tc=0 tr=0 tw=0
printf '%-32s %8s %8s %8s\n' file correct refused wrong
for f in "$suite"/*.json; do
	name=$(basename "$f")
	correct=0 refused=0 wrong=0
	# One line per group ("S", description, schema) followed by one line
	# per test ("T", validity, data, description); compact JSON holds no
	# raw tab or newline.  The data is re-serialized by jq: no number in
	# the suite changes value that way (1.0 may become 1, still equal).
	jq -r '.[] | "S\t\(.description)\t\(.schema | tojson)",
	    (.tests[] | "T\t\(.valid)\t\(.data | tojson)\t\(.description)")' \
	    "$f" >"$TEST_TMP/lines"
	desc= may_refuse=no group_refused=0 group_ran=0
	end_group() {
		if [ "$group_refused" -gt 0 ] && [ "$group_ran" -gt 0 ]; then
			failed=$((failed + 1))
			echo "FAIL: $name: $desc: schema refused for some data" \
			    "only" >&2
		fi
	}
	while IFS="$tab" read -r kind a b c; do
		if [ "$kind" = S ]; then
			end_group
			desc=$a
			printf '%s\n' "$b" >"$TEST_TMP/schema.json"
			may_refuse=no group_refused=0 group_ran=0
			listed "$name" "$desc" && may_refuse=yes
			continue
		fi
		valid=$a tdesc=$c deviant=no
		if deviates "$name" "$desc" "$tdesc"; then
			deviant=yes
			if [ "$valid" = true ]; then valid=false; else valid=true; fi
		fi
		printf '%s\n' "$b" >"$TEST_TMP/data.json"
		timeout 10 "$GPT_FCGI" --validate "$TEST_TMP/schema.json" \
		    "$TEST_TMP/data.json" >/dev/null 2>"$TEST_TMP/err" </dev/null
		status=$?
		where="$name: $desc: $tdesc"
		case "$status:$valid" in
		0:true | 1:false)
			group_ran=$((group_ran + 1))
			if [ "$may_refuse" = yes ]; then
				wrong=$((wrong + 1))
				fail "$where: listed as refused, but the schema" \
				    "was accepted"
			else
				correct=$((correct + 1))
				pass
			fi
			;;
		0:false | 1:true)
			wrong=$((wrong + 1))
			if [ "$deviant" = yes ]; then
				fail "$where: listed as a deviation, but" \
				    "answered as the suite says"
			elif [ "$valid" = false ]; then
				fail "$where: false accept"
			else
				fail "$where: valid data rejected:" \
				    "$(head -c 200 "$TEST_TMP/err")"
			fi
			;;
		2:*)
			group_refused=$((group_refused + 1))
			if [ "$may_refuse" = yes ]; then
				refused=$((refused + 1))
				pass
			else
				wrong=$((wrong + 1))
				fail "$where: schema refused but not listed:" \
				    "$(head -c 200 "$TEST_TMP/err")"
			fi
			;;
		*)
			wrong=$((wrong + 1))
			fail "$where: exit $status (timeout or crash)"
			;;
		esac
	done <"$TEST_TMP/lines"
	end_group
	printf '%-32s %8d %8d %8d\n' "$name" "$correct" "$refused" "$wrong"
	tc=$((tc + correct)) tr=$((tr + refused)) tw=$((tw + wrong))
done
printf '%-32s %8d %8d %8d\n' total "$tc" "$tr" "$tw"

# Every listed group must exist in the suite (no stale entries).
grep -v '^#' "$refusals" | grep -v '^$' | while IFS="$(printf '\t')" read -r \
    lf ld _; do
	if [ ! -f "$suite/$lf" ] ||
	    ! jq -e --arg d "$ld" 'any(.[]; .description == $d)' \
		"$suite/$lf" >/dev/null; then
		echo "FAIL: listed group not in the suite: $lf: $ld" >&2
		echo x
	fi
done >"$TEST_TMP/stale"
grep -v '^#' "$deviations" | grep -v '^$' | while IFS="$(printf '\t')" read -r \
    lf ld lt _; do
	if [ ! -f "$suite/$lf" ] ||
	    ! jq -e --arg d "$ld" --arg t "$lt" 'any(.[]; .description == $d and
		any(.tests[]; .description == $t))' "$suite/$lf" >/dev/null; then
		echo "FAIL: listed deviation not in the suite: $lf: $ld: $lt" >&2
		echo x
	fi
done >>"$TEST_TMP/stale"
stale=$(wc -l <"$TEST_TMP/stale")
failed=$((failed + stale))
finish
