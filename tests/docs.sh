#!/bin/sh
# docs.sh: the documents name what the code has.  Every address.conf key
# of src/site/conf.c is in the README's table and in gpt-address(5);
# every keyword of the registry (src/schema/schema_dialect.c) and every
# tool annotation of schemas/annotations.json is in gpt-address(5)'s
# vocabulary section; every example address, server template and client
# is named in the README, in examples/README (addresses and clients) and,
# for the addresses, in gpt-address(5)'s EXAMPLES.
. "${GPT_SRCDIR:-.}/tests/lib.sh"

S=$GPT_SRCDIR
readme=$S/README
man5=$S/doc/gpt-address.5

# --- address.conf keys ------------------------------------------------------
keys=$(sed -n '/conf_keys\[\] = {/,/^};/s/.*\] = "\([a-z_]*\)".*/\1/p' \
    "$S/src/site/conf.c")
expect_true "src/site/conf.c lists its keys (got $(echo $keys | wc -w))" \
    test "$(echo $keys | wc -w)" -ge 17
awk '/^\.SH ADDRESS.CONF/{f=1; next} f && /^\.SH/{exit} f' "$man5" \
    >"$TEST_TMP/conf.5"
for k in $keys; do
	expect_true "README's address.conf table has $k" \
	    grep -q "^    $k  " "$readme"
	expect_true "gpt-address(5) ADDRESS.CONF has $k" \
	    grep -Eq "^\.B[RI]? $k( |$)" "$TEST_TMP/conf.5"
done

# --- the vocabulary -----------------------------------------------------------
# The bold words of the section, one a line (.B and .BR lines; a / joins
# if/then/else).
awk '/^\.SS The vocabulary/{f=1; next} f && /^\.S[HS]/{exit} f' "$man5" |
    sed -n 's/^\.BR\{0,1\} //p' | tr ' /' '\n\n' | tr -d '",' |
    sort -u >"$TEST_TMP/vocab"
expect_true "gpt-address(5) has a vocabulary section" test -s "$TEST_TMP/vocab"
# rows of the registry, the test-only ones left out
sed -n 's/^ *{"\([$a-zA-Z]*\)", KW_[A-Z_0-9]*, \([A-Z0-9_]*\),.*/\1 \2/p' \
    "$S/src/schema/schema_dialect.c" | awk '$2 != "TEST_ONLY" {print $1}' |
    sort -u >"$TEST_TMP/registry"
expect_true "the registry lists keywords (got $(wc -l <"$TEST_TMP/registry"))" \
    test "$(wc -l <"$TEST_TMP/registry")" -gt 50
for k in $(cat "$TEST_TMP/registry"); do
	expect_true "gpt-address(5)'s vocabulary names $k (the registry loads it)" \
	    grep -qxF -- "$k" "$TEST_TMP/vocab"
done
for k in $(jq -r '.annotations[].keyword' "$S/schemas/annotations.json"); do
	expect_true "gpt-address(5)'s vocabulary names $k (schemas/annotations.json)" \
	    grep -qxF -- "$k" "$TEST_TMP/vocab"
done

# --- examples, templates, clients ------------------------------------------
awk '/^\.SH EXAMPLES/{f=1; next} f && /^\.SH/{exit} f' "$man5" |
    sed 's/\\-/-/g' >"$TEST_TMP/ex.5"
n=0
for d in "$S"/examples/*/; do
	[ -f "$d/form.json" ] || continue
	a=$(basename "$d")
	n=$((n + 1))
	expect_true "README lists the example $a" grep -q "^- $a: " "$readme"
	expect_true "examples/README lists $a" \
	    grep -q "^  $a/ " "$S/examples/README"
	expect_true "gpt-address(5) EXAMPLES names $a" grep -qw -- "$a" "$TEST_TMP/ex.5"
done
expect_true "there are example addresses (got $n)" test "$n" -ge 4
for f in $(cd "$S/examples/servers" && find . -type f | sed 's|^\./||'); do
	expect_true "README names the server template $f" \
	    grep -qF -- "$(basename "$f")" "$readme"
done
for f in "$S"/examples/clients/*.sh; do
	c=$(basename "$f")
	case $c in *-common.sh) continue ;; esac
	expect_true "README names the client $c" grep -qF -- "$c" "$readme"
	expect_true "examples/README names the client $c" \
	    grep -qF -- "$c" "$S/examples/README"
done

finish
