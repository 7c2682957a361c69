#!/bin/sh
# actor.sh: a real constrained decoder as the actor (tests/actor/actor.cjs):
# xgrammar compiles every example form and every test form the compiler
# loads, a seeded random actor over a byte-level vocabulary walks each
# grammar, and every value it produces, every --sample value and every
# json-schema-faker value is POSTed to a real server: lighttpd and
# gpt.fcgi over FastCGI on 127.0.0.1, one address per form (a hook that
# echoes, failures = explain).  Prints, per form, the values produced,
# accepted and rejected-as-explained.
#
# ACTOR_MODULES: the node_modules directory `make check-actor` installed
# the pinned packages into (tests/actor/package-lock.json).
# ACTOR_VALUES (default 40): values per form from each source;
# ACTOR_SEED (default 20261201): the random actor's and faker's seed.
. "${GPT_SRCDIR:-.}/tests/servers-common.sh"
need lighttpd
: "${ACTOR_MODULES:?set ACTOR_MODULES (make check-actor does)}"
src=$GPT_SRCDIR

t=$TEST_TMP/srv
mkdir -p "$t/root" "$t/work"
install_bin "$t/bin"

# address NAME SCHEMA-FILE: an address serving that form
address() {
	_d=$t/root/$1
	mkdir -p "$_d"
	jq -n --slurpfile s "$2" '{p: "Act.", m: [], s: $s[0]}' >"$_d/form.json"
	printf 'failures = explain\nmax_body = 1048576\n' >"$_d/address.conf"
	printf '#!/bin/sh\nexec cat\n' >"$_d/hook"
	chmod 755 "$_d/hook"
	if "$GPT_FCGI" --check "$_d" >/dev/null 2>&1; then
		printf '%s\t%s\n' "$1" "$_d" >>"$t/list"
	else
		rm -rf "$_d" # a form the compiler refuses: not an address
	fi
}
: >"$t/list"
for d in "$src"/examples/*/ "$src"/tests/data/addresses/*/; do
	[ -f "$d/form.json" ] || continue
	jq -e .s "$d/form.json" >"$t/work/s.json" 2>/dev/null || continue
	address "$(basename "$d")" "$t/work/s.json"
done
# Three test forms read their form as neither the decoder nor the
# reference library does, by design (gpt.fcgi enforces a later dialect's
# keywords in an earlier form, keywords beside $ref in draft-07, and a
# relative $id): they are judged by tests/validate.sh, not here.
for f in "$src"/tests/data/validate/*/schema.json; do
	n=$(basename "$(dirname "$f")")
	case $n in
	later-keywords-draft04 | ref-siblings-draft07 | typebox-recursive) continue ;;
	esac
	address "test-$n" "$f"
done
chmod -R a+rX "$t/root"

port=$(free_port)
render lighttpd-fastcgi.conf "$t/lighttpd.conf" PORT="$port" \
    ROOT="$t/root" BIN="$t/bin/gpt.fcgi" TMP="$t"
lighttpd -D -f "$t/lighttpd.conf" >"$t/stdout" 2>&1 &
started $!
base=http://127.0.0.1:$port/gpt
wait_ready "$base/$(head -n 1 "$t/list" | cut -f1)" || exit 1

# At most ten minutes for the whole run (every request has its own
# 20-second limit too).
if timeout 600 node "$src/tests/actor/actor.cjs" --gpt-fcgi "$GPT_FCGI" \
    --modules "$ACTOR_MODULES" --base "$base" --list "$t/list" \
    --values "${ACTOR_VALUES:-40}" --seed "${ACTOR_SEED:-20261201}" \
    --tmp "$t/work" >"$t/report" 2>&1; then
	pass
else
	fail "actor.cjs: $(grep FAIL "$t/report" | head -n 5)"
fi
cat "$t/report"
expect_true "every form of the list was reported" \
    test "$(grep -acE '^[^ ]+: xgrammar (produced|refuses)' "$t/report")" -eq "$(wc -l <"$t/list")"
finish
