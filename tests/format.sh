#!/bin/sh
# format.sh: every C file of the tree (gpt.fcgi.c, src/, tests/, bench/)
# is formatted as the shipped .clang-format says, by clang-format 14 (the
# version it was written for: other versions place some breaks
# differently).  A file that is not is named, with the command that
# formats it.  Skipped (exit 77) where clang-format 14 is not installed
# (scripts/install-deps installs it).
top=${GPT_SRCDIR:-.}
cf=${CLANG_FORMAT:-clang-format}

if ! command -v "$cf" >/dev/null 2>&1; then
	echo "format.sh: SKIP: $cf is not installed (scripts/install-deps" \
	    "installs clang-format)"
	exit 77
fi
version=$("$cf" --version 2>/dev/null |
    sed -n 's/.*clang-format version \([0-9][0-9]*\)\..*/\1/p')
if [ "$version" != 14 ]; then
	echo "format.sh: SKIP: $cf is version ${version:-unknown}, not 14"
	exit 77
fi

bad=0
cd "$top" || exit 1
for f in gpt.fcgi.c src/*/*.c src/*/*.h tests/*.c tests/*.h tests/*/*.c \
    bench/*.c bench/*.h; do
	[ -f "$f" ] || continue
	if ! "$cf" --style=file --dry-run -Werror "$f" >/dev/null 2>&1; then
		echo "format.sh: $f is not formatted as .clang-format says;" \
		    "fix: clang-format -i $f (or make fmt)"
		bad=$((bad + 1))
	fi
done
if [ "$bad" -gt 0 ]; then
	echo "format.sh: $bad files to format"
	exit 1
fi
echo "format.sh: every C file is formatted"
