#!/bin/sh
# re-diff.sh: the pattern layer against node's RegExp ("u" flag) on a
# seeded corpus of generated patterns and strings (tests/re-diff.js says
# what is compared and which differences are documented ones).
#
# Environment: RE_DIFF_COUNT patterns (20000), RE_DIFF_SEED (fixed, so a
# failure reproduces), GPT_BUILDDIR (where tests/re_batch is).
set -u
GPT_SRCDIR=${GPT_SRCDIR:-.}
BATCH=${GPT_BUILDDIR:-.}/tests/re_batch
COUNT=${RE_DIFF_COUNT:-20000}
SEED=${RE_DIFF_SEED:-20240614}

if ! command -v node >/dev/null 2>&1; then
	echo "re-diff.sh: SKIP: node is not installed (scripts/install-deps" \
	    "installs it); the ECMA-262 differential did not run"
	exit 0
fi
if [ ! -x "$BATCH" ]; then
	echo "re-diff.sh: $BATCH is missing (make check-integration builds it)" >&2
	exit 1
fi
exec node "$GPT_SRCDIR/tests/re-diff.js" "$BATCH" "$COUNT" "$SEED"
