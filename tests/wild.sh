#!/bin/sh
# wild.sh: real forms from npm packages (tests/wild/packages.txt), loaded
# by gpt.fcgi and judged with their shipped examples against
# @hyperjump/json-schema (tests/wild/corpus.mjs says what is taken and
# how), and the JSON Schemas zod, TypeBox and Pydantic make of the models
# in tests/wild/models/, with instances made from them.  The packages are fetched with `npm pack` into the build tree
# (tests/wild/pkgs), each checked against its pinned integrity, never
# into the source tree; the library is the oracle's (tests/diff,
# installed by make check-diff's npm ci).  Skips (77) when npm or node
# is missing or the registry cannot be reached.
. "${GPT_SRCDIR:-.}/tests/lib.sh"

modules=${WILD_MODULES:-tests/diff/node_modules}
pkgs=tests/wild/pkgs
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
	echo "wild.sh: node or npm missing: skipped" >&2
	exit 77
fi
if [ ! -d "$modules/@hyperjump/json-schema" ]; then
	echo "wild.sh: $modules has no @hyperjump/json-schema: skipped" >&2
	exit 77
fi
mkdir -p "$pkgs"
grep -v '^#' "$GPT_SRCDIR/tests/wild/packages.txt" | grep -v '^$' |
while IFS="$(printf '\t')" read -r name version integrity; do
	stem=$(printf '%s' "$name" | sed 's|^@||; s|/|-|')-$version
	if [ ! -d "$pkgs/$stem/package" ]; then
		if ! (cd "$pkgs" && timeout 300 npm pack --silent \
		    "$name@$version" >/dev/null 2>&1); then
			echo "wild.sh: npm pack $name@$version failed (registry" \
			    "unreachable?): skipped" >&2
			exit 77
		fi
		got=$(node -e '
			const c = require("crypto"), fs = require("fs");
			process.stdout.write("sha512-" + c.createHash("sha512")
			    .update(fs.readFileSync(process.argv[1]))
			    .digest("base64"));' "$pkgs/$stem.tgz")
		if [ "$got" != "$integrity" ]; then
			echo "FAIL: $name@$version: integrity $got, pinned" \
			    "$integrity" >&2
			exit 1
		fi
		mkdir -p "$pkgs/$stem" && tar xzf "$pkgs/$stem.tgz" -C "$pkgs/$stem" &&
		    rm -f "$pkgs/$stem.tgz" || exit 1
	fi
done
rc=$?
[ "$rc" -eq 0 ] || exit "$rc"
# Pydantic's models run under the first python3 that has it (Debian's
# python3-pydantic is version 1; version 2 is read as well).
python=
for p in ${WILD_PYTHON:-python3 /usr/bin/python3}; do
	if "$p" -c 'import pydantic' >/dev/null 2>&1; then
		python=$p
		break
	fi
done
[ -n "$python" ] ||
	echo "wild.sh: no python3 with pydantic: its models are not run" >&2
node "$GPT_SRCDIR/tests/wild/corpus.mjs" --gpt="$GPT_FCGI" \
    --modules="$modules" --pkgs="$pkgs" --work="$TEST_TMP/work" \
    --models="$GPT_SRCDIR/tests/wild/models" ${python:+--python="$python"} \
    ${WILD_LIST:+--list=1}
