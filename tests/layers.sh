#!/bin/sh
# layers.sh: the layering of src/LAYERS holds: every file of src/ (and
# gpt.fcgi.c) is in a layer and in that layer's folder, includes only
# headers of its own layer and of the layers it uses, each named by its
# folder, private headers only where they are allowed, and no two modules
# include each other;
# and no file touches a field libfcgi's fcgiapp.h calls private (the
# FastCGI protocol is fcgi.c's, libfcgi only tells CGI from FastCGI).
. "${GPT_SRCDIR:-.}/tests/lib.sh"

src=$GPT_SRCDIR/src
layers=$src/LAYERS

# One line per include: FILE<TAB>HEADER ("x/y.h" ours, <x.h> a system
# one), FILE as its path under src/ ("schema/schema.c"; gpt.fcgi.c alone).
for f in "$src"/*/*.c "$src"/*/*.h "$GPT_SRCDIR/gpt.fcgi.c"; do
	case $f in "$src"/*) rel=${f#"$src"/} ;; *) rel=gpt.fcgi.c ;; esac
	sed -n 's/^[ \t]*#[ \t]*include[ \t]*\(["<][^">]*[">]\).*/\1/p' "$f" |
	    while read -r h; do
		printf '%s\t%s\n' "$rel" "$h"
	    done
done >"$TEST_TMP/includes"
(cd "$src" && find . -type f \( -name '*.c' -o -name '*.h' \); echo gpt.fcgi.c) |
    sed 's|^\./||' >"$TEST_TMP/files"

awk -v layers="$layers" '
function stem(f) { sub(/^.*\//, "", f); sub(/\.[ch]$/, "", f); return f }
function folder(f) { if (f !~ /\//) return "main"; sub(/\/.*$/, "", f); return f }
BEGIN {
	FS = "\t"
	while ((getline line <layers) > 0) {
		if (line ~ /^#/ || line ~ /^[ \t]*$/)
			continue
		if (line ~ /^layer /) {
			sub(/^layer /, "", line)
			split(line, lu, ":")
			cur = lu[1]
			uses[cur] = " " cur " " lu[2] " "
			continue
		}
		if (line ~ /^private /) {
			sub(/^private /, "", line)
			n = index(line, ":")
			priv[substr(line, 1, n - 1)] = substr(line, n + 1)
			continue
		}
		n = split(line, ms, /[ \t]+/)
		for (i = 1; i <= n; i++)
			if (ms[i] != "")
				layer[ms[i]] = cur
	}
	bad = 0
}
# allowed(STEM, LIST): is STEM named in LIST (words, a trailing * a prefix)?
function allowed(s, list,    w, n, i, p) {
	n = split(list, w, /[ \t]+/)
	for (i = 1; i <= n; i++) {
		if (w[i] == "")
			continue
		if (w[i] ~ /\*$/) {
			p = substr(w[i], 1, length(w[i]) - 1)
			if (substr(s, 1, length(p)) == p)
				return 1
		} else if (w[i] == s)
			return 1
	}
	return 0
}
FILENAME ~ /files$/ {
	s = stem($1)
	if (!(s in layer)) {
		print "layers.sh: src/" $1 " is in no layer of src/LAYERS"
		bad = 1
	} else if (folder($1) != layer[s]) {
		print "layers.sh: src/" $1 " is in layer " layer[s] \
		    ", so it belongs in src/" layer[s] "/"
		bad = 1
	}
	next
}
{
	f = $1; h = $2; s = stem(f); l = layer[s]
	if (h ~ /^</) {
		if ((h in priv) && !allowed(s, priv[h])) {
			print "layers.sh: " f " includes " h ", private to" priv[h]
			bad = 1
		}
		next
	}
	gsub(/"/, "", h)
	if (h == "config.h" || l == "")
		next
	if ((h in priv) && !allowed(s, priv[h])) {
		print "layers.sh: " f " includes " h ", private to" priv[h]
		bad = 1
	}
	t = stem(h)
	if (!(t in layer)) {
		print "layers.sh: " f " includes " h ", which is in no layer"
		bad = 1
	} else if (h != layer[t] "/" t ".h") {
		print "layers.sh: " f " includes \"" h "\"; name it by its layer: \"" \
		    layer[t] "/" t ".h\""
		bad = 1
	} else if (index(uses[l], " " layer[t] " ") == 0) {
		print "layers.sh: " f " (layer " l ") includes " h \
		    " (layer " layer[t] "), which " l " does not use"
		bad = 1
	}
	if (t != s)
		inc[s, t] = f
}
END {
	for (k in inc) {
		split(k, p, SUBSEP)
		# the compiler context and the resolver still call each
		# other: the one cycle left, until the context has a module
		if (p[1] "," p[2] == "schema_cc,schema_res")
			continue
		if (p[1] < p[2] && ((p[2], p[1]) in inc)) {
			print "layers.sh: " inc[k] " and " inc[p[2], p[1]] \
			    " include each other'"'"'s headers (a cycle between " \
			    p[1] " and " p[2] ")"
			bad = 1
		}
	}
	exit bad
}' "$TEST_TMP/files" "$TEST_TMP/includes" >"$TEST_TMP/out"
if [ $? -eq 0 ]; then pass; else
	fail "the layering of src/LAYERS is broken:
$(cat "$TEST_TMP/out")"
fi

# The fields below "Don't rely on anything below here" in FCGX_Request and
# every field of FCGX_Stream are libfcgi's private state.
private='wasFCloseCalled|isClosed|FCGI_errno|rdNext|wrNext|stopUnget'
private="$private|isReader|fillBuffProc|emptyBuffProc|paramsPtr|ipcFd"
private="$private|isBeingServed|keepConnection|appStatus|nWriters"
private="$private|listen_sock|detached"
if grep -nwE "$private" "$src"/*/*.c "$src"/*/*.h "$GPT_SRCDIR/gpt.fcgi.c" \
    "$GPT_SRCDIR"/bench/*.c "$GPT_SRCDIR"/tests/*.c >"$TEST_TMP/out"; then
	fail "libfcgi's private fields are used:
$(cat "$TEST_TMP/out")"
else
	pass
fi
finish
