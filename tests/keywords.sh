#!/bin/sh
# keywords.sh: the keyword registry (src/schema/schema_dialect.c) is the one
# list of JSON Schema keyword names.  Outside it and the compiler's
# readers (schema_compile.c, schema_res.c), no code of src/ spells a
# keyword as a string literal: a module asks the registry
# (schema_kw_name, schema_kw_find) instead.  Comments may quote keywords.
# A line that needs a keyword's spelling for another reason (a name that
# merely looks like one) carries the marker "not-a-keyword" on it.
#
# The modules listed in PENDING still spell keywords (their conversion is
# not done); each may not spell more than the count given, so the list can
# only shrink.
. "${GPT_SRCDIR:-.}/tests/lib.sh"

src=$GPT_SRCDIR/src
registry=$src/schema/schema_dialect.c
ALLOWED='schema/schema_dialect.c schema/schema_compile.c schema/schema_res.c'
PENDING='web/page/page.js:3'

names=$(sed -n 's/^ *{"\([$a-zA-Z]*\)", KW_.*/\1/p' "$registry" | sort -u)
expect_true "the registry lists keywords (got $(echo "$names" | wc -l))" \
    test "$(echo "$names" | wc -l)" -gt 50
pat=$(printf '%s\n' $names | sed 's/\$/\\$/g' | paste -sd'|' -)

# count FILE: keyword literals in FILE's code, comments left out
count() {
	awk '
	{
		line = $0
		if (line ~ /not-a-keyword/) next
		out = ""
		while (length(line) > 0) {
			if (incomment) {
				i = index(line, "*/")
				if (i == 0) { line = ""; break }
				line = substr(line, i + 2); incomment = 0
				continue
			}
			i = index(line, "/*"); j = index(line, "//")
			if (j > 0 && (i == 0 || j < i)) {
				out = out substr(line, 1, j - 1); line = ""; break
			}
			if (i == 0) { out = out line; line = ""; break }
			out = out substr(line, 1, i - 1)
			line = substr(line, i + 2); incomment = 1
		}
		print out
	}' "$1" | grep -oE "\"($pat)\"" | wc -l
}

checked=0
for f in $(cd "$src" && find . -name '*.c' -o -name '*.h' -o -name '*.js' | sed 's|^\./||' | sort); do
	case " $ALLOWED " in *" $f "*) continue ;; esac
	n=$(count "$src/$f")
	max=0
	for p in $PENDING; do
		[ "${p%%:*}" = "$f" ] && max=${p#*:}
	done
	checked=$((checked + 1))
	if [ "$n" -le "$max" ]; then pass; else
		fail "$f spells $n keyword names (at most $max): ask the registry"
		awk '!/not-a-keyword/' "$src/$f" | grep -nE "\"($pat)\"" | head -n 5 >&2
	fi
done
expect_true "files checked ($checked)" test "$checked" -gt 50
finish
