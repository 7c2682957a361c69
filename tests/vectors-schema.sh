#!/bin/sh
# vectors-schema.sh: the official JSON Schema test suite, every dialect,
# through `gpt.fcgi --validate`.
#
# For each dialect directory ($VECTORS/json-schema/draft4 ... v1), each
# file and each group in it, the group's schema and each test's data go
# to temporary files, and `gpt.fcgi --validate --dialect D --refs
# http://localhost:1234/=$VECTORS/json-schema/remotes SCHEMA DATA` must
# answer as the suite says: exit 0 for valid, 1 for invalid.
#
# Lists in tests/data keep the exceptions exact (a listed entry that
# does not happen is a failure too):
#  - schema-suite-refusals.txt, when present: groups whose schema is
#    refused (exit 2), with the reason (something not implemented must
#    refuse the form, never be validated loosely); today every group's
#    schema compiles, and the file is gone;
#  - schema-suite-deviations.txt: single tests answered otherwise than
#    the suite says, on purpose, with the reason (format and content*
#    are asserted where the suite expects an annotation only).
#
# Prints a table per dialect and a total, then "N passed, N failed".
. "${GPT_SRCDIR:-.}/tests/lib.sh"

if [ -z "${VECTORS:-}" ] || [ ! -d "$VECTORS/json-schema/remotes" ]; then
	echo "vectors-schema.sh: set VECTORS to a directory holding" \
	    "json-schema/{draft4,...,v1,remotes}/" >&2
	exit 2
fi
root=$VECTORS/json-schema
remotes=$root/remotes
refusals=$GPT_SRCDIR/tests/data/schema-suite-refusals.txt
deviations=$GPT_SRCDIR/tests/data/schema-suite-deviations.txt

# "dir/file<TAB>description" of every listed group, comments dropped;
# "dir/file<TAB>group<TAB>test" of every listed deviation.
: >"$TEST_TMP/listed"
[ -f "$refusals" ] &&
    grep -v '^#' "$refusals" | grep -v '^$' | cut -f1,2 >"$TEST_TMP/listed"
grep -v '^#' "$deviations" | grep -v '^$' | cut -f1,2,3 >"$TEST_TMP/devs"
: >"$TEST_TMP/seen-devs"

# listed FILE DESCRIPTION: true when the group may be refused.
listed() {
	printf '%s\t%s\n' "$1" "$2" | grep -Fxq -f - "$TEST_TMP/listed"
}

# deviation FILE GROUP TEST: true when the test is answered otherwise.
deviation() {
	printf '%s\t%s\t%s\n' "$1" "$2" "$3" | grep -Fxq -f - "$TEST_TMP/devs"
}

tab=$(printf '\t')
tc=0 tr=0 tw=0
printf '%-14s %8s %8s %8s\n' dialect correct refused wrong
for pair in draft4:draft-04 draft6:draft-06 draft7:draft-07 \
    draft2019-09:2019-09 draft2020-12:2020-12 v1:v1; do
dir=${pair%%:*} dialect=${pair#*:}
suite=$root/$dir
dc=0 dr=0 dw=0
for f in "$suite"/*.json; do
	name=$dir/$(basename "$f")
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
		valid=$a tdesc=$c
		printf '%s\n' "$b" >"$TEST_TMP/data.json"
		timeout 10 "$GPT_FCGI" --validate --dialect "$dialect" \
		    --refs "http://localhost:1234/=$remotes" \
		    "$TEST_TMP/schema.json" "$TEST_TMP/data.json" \
		    >/dev/null 2>"$TEST_TMP/err" </dev/null
		status=$?
		where="$name: $desc: $tdesc"
		if deviation "$name" "$desc" "$tdesc"; then
			printf '%s\t%s\t%s\n' "$name" "$desc" "$tdesc" \
			    >>"$TEST_TMP/seen-devs"
			# the opposite answer, on purpose
			case "$status:$valid" in
			0:false | 1:true) status=x ;;
			0:true) status=1 ;;
			1:false) status=0 ;;
			esac
			[ "$status" = x ] && status=$([ "$valid" = true ] &&
			    echo 0 || echo 1)
		fi
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
		0:false)
			wrong=$((wrong + 1))
			fail "$where: false accept"
			;;
		1:true)
			wrong=$((wrong + 1))
			fail "$where: valid data rejected:" \
			    "$(head -c 200 "$TEST_TMP/err")"
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
	dc=$((dc + correct)) dr=$((dr + refused)) dw=$((dw + wrong))
done
printf '%-14s %8d %8d %8d\n' "$dialect" "$dc" "$dr" "$dw"
tc=$((tc + dc)) tr=$((tr + dr)) tw=$((tw + dw))
done
printf '%-14s %8d %8d %8d\n' total "$tc" "$tr" "$tw"

# Every listed deviation must have happened (the list stays exact).
sort "$TEST_TMP/devs" >"$TEST_TMP/devs.sorted"
sort "$TEST_TMP/seen-devs" >"$TEST_TMP/seen.sorted"
comm -23 "$TEST_TMP/devs.sorted" "$TEST_TMP/seen.sorted" | while read -r l; do
	echo "FAIL: listed deviation not in the suite: $l" >&2
	echo x
done >"$TEST_TMP/stale-devs"
failed=$((failed + $(wc -l <"$TEST_TMP/stale-devs")))

# Every listed group must exist in the suite (no stale entries).
cat "$TEST_TMP/listed" | while IFS="$(printf '\t')" read -r lf ld; do
	if [ ! -f "$root/$lf" ] ||
	    ! jq -e --arg d "$ld" 'any(.[]; .description == $d)' \
		"$root/$lf" >/dev/null; then
		echo "FAIL: listed group not in the suite: $lf: $ld" >&2
		echo x
	fi
done >"$TEST_TMP/stale"
stale=$(wc -l <"$TEST_TMP/stale")
failed=$((failed + stale))
finish
