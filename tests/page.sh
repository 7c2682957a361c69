#!/bin/sh
# page.sh: the human page's script (src/web/page/page.js) on its own, in
# node, as the page gpt.fcgi serves carries it:
#   - tests/page/unit.mjs: its JSON reader, its exact decimals, its check
#     (the words, where they go, whether it is sure) and its shapes;
#   - tests/page/diff.mjs: its check against --validate over --sample
#     values and their one-mistake mutations, on every example and test
#     form: 0 disagreements wherever the page says accept or reject;
#   - ESLint, pinned by tests/page/package-lock.json, installed by npm ci
#     into the build tree (tests/page-lint/node_modules) on the first run.
#
# Environment: PAGE_DIFF_COUNT values sampled per form (20), PAGE_DIFF_SEED
# (fixed, so a failure reproduces), GPT_BUILDDIR (the build tree).
. "${GPT_SRCDIR:-.}/tests/lib.sh"
src=$GPT_SRCDIR
build=${GPT_BUILDDIR:-.}

if ! command -v node >/dev/null 2>&1; then
	echo "page.sh: SKIP: node is not installed (scripts/install-deps" \
	    "installs it); the page's script was not tested"
	exit 77
fi

if node "$src/tests/page/unit.mjs" --gpt="$GPT_FCGI" --tmp="$TEST_TMP" \
    --srcdir="$src" >"$TEST_TMP/unit" 2>&1; then
	pass
else
	fail "unit.mjs: $(grep -E 'FAIL|Error' "$TEST_TMP/unit" | head -n 5)"
fi
cat "$TEST_TMP/unit"

forms=
for d in "$src"/examples/*/ "$src"/tests/data/page/*/ \
    "$src"/tests/data/validate/*/; do
	if [ -f "$d/form.json" ]; then
		forms="$forms ${d%/}"
	elif [ -f "$d/schema.json" ]; then
		forms="$forms ${d}schema.json"
	fi
done
mkdir -p "$TEST_TMP/diff"
# shellcheck disable=SC2086
if node "$src/tests/page/diff.mjs" --gpt="$GPT_FCGI" --tmp="$TEST_TMP/diff" \
    --count="${PAGE_DIFF_COUNT:-20}" --seed="${PAGE_DIFF_SEED:-20261202}" \
    $forms >"$TEST_TMP/diff.out" 2>&1; then
	pass
else
	fail "diff.mjs: $(grep FAIL "$TEST_TMP/diff.out" | head -n 5)"
fi
cat "$TEST_TMP/diff.out"
# the differential judged something: most texts, not a handful
set -- $(sed -n 's/^page-diff: [0-9]* forms, \([0-9]*\) texts, \([0-9]*\) judged.*/\1 \2/p' "$TEST_TMP/diff.out")
if [ $# -eq 2 ] && [ "$2" -ge 1000 ] && [ $(($2 * 10)) -ge $(($1 * 7)) ]; then
	pass
else
	fail "diff.mjs judged too little: $*"
fi

# the linter, pinned, in a folder of the build tree of its own (never a
# source folder, even in an in-tree build); its config lints the script
# copied beside it (ESLint reads no file outside its config's folder)
lint=$build/tests/page-lint
mkdir -p "$lint"
if [ ! -f "$lint/node_modules/.installed" ] ||
    ! cmp -s "$src/tests/page/package-lock.json" "$lint/package-lock.json"; then
	cp "$src/tests/page/package.json" "$src/tests/page/package-lock.json" \
	    "$lint/"
	if (cd "$lint" && npm ci --no-audit --no-fund >npm.log 2>&1); then
		touch "$lint/node_modules/.installed"
	else
		fail "npm ci of the pinned ESLint failed: $(tail -n 3 "$lint/npm.log")"
	fi
fi
if [ -f "$lint/node_modules/.installed" ]; then
	cp "$src/tests/page/eslint.config.mjs" "$lint/"
	cp "$src/src/web/page/page.js" "$lint/page.js"
	if (cd "$lint" && ./node_modules/.bin/eslint --max-warnings 0 \
	    --config eslint.config.mjs page.js) >"$TEST_TMP/lint" 2>&1; then
		pass
		echo "page.sh: ESLint $("$lint/node_modules/.bin/eslint" --version) finds nothing in page.js"
	else
		fail "ESLint: $(head -n 20 "$TEST_TMP/lint")"
	fi
fi
finish
