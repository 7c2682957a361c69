#!/bin/sh
# check.sh: gpt.fcgi --check, the operator's report: every example form's
# report in text and JSON (the JSON judged by schemas/check-report.schema.json
# with gpt.fcgi's own validator), refusals before warnings, the lint and
# the decoder entries, and the warnings a load logs (once, never in an
# answer).
. "${GPT_SRCDIR:-.}/tests/lib.sh"

REPORT_SCHEMA=$GPT_SRCDIR/schemas/check-report.schema.json
DECODERS='openai-strict anthropic-strict llama.cpp xgrammar llguidance outlines'

# expect_report LABEL: $TEST_TMP/out is a report of the documented shape.
expect_report() {
	if "$GPT_FCGI" --validate "$REPORT_SCHEMA" "$TEST_TMP/out" \
	    >/dev/null 2>"$TEST_TMP/verr"; then pass; else
		fail "$1: not a report of the documented shape: $(cat "$TEST_TMP/verr")"
	fi
}

# --- every example form ------------------------------------------------
for dir in "$GPT_SRCDIR"/examples/*/; do
	dir=${dir%/}
	name=$(basename "$dir")
	[ -f "$dir/form.json" ] || continue
	run_cli --check "$dir"
	expect_status 0 "$name: --check"
	expect_stdout_match 'constrained decoders' "$name: the text names the decoders"
	for d in $DECODERS; do
		expect_stdout_match "^  $d (" "$name: the text has a row for $d"
	done
	nwarn=$(grep -c ': warning: ' "$TEST_TMP/out")
	expect_true "$name: the text report is all on stdout" test ! -s "$TEST_TMP/err"
	run_cli --check --json "$dir"
	expect_status 0 "$name: --check --json"
	expect_report "$name: --check --json"
	expect_true "$name: --json: loads, 6 decoders, a size" \
	    jq -e '.loads and (.decoders | length == 6) and .size.bytes > 0 and .size.tokens > 0' \
	    "$TEST_TMP/out"
	n=$(jq '.problems | length' "$TEST_TMP/out")
	expect_true "$name: text and JSON list the same problems ($nwarn, $n)" \
	    test "$nwarn" -eq "$n"
	expect_true "$name: --json prints nothing on stderr" test ! -s "$TEST_TMP/err"
done

# --- a refused form: every problem, refusals first -------------------------
bad=$TEST_TMP/bad
mkdir -p "$bad"
printf '{"p":"x","m":[],"s":{"required":"a","properties":{"x":' >"$bad/form.json"
printf '{"type":"string","minLength":-1}},"minLenght":1}}\n' >>"$bad/form.json"
run_cli --check --json "$bad"
expect_status 1 "a refused form: --check --json exits 1"
expect_report "a refused form"
expect_true "a refused form: loads is false" jq -e '.loads == false' "$TEST_TMP/out"
expect_true "a refused form: three refusals, in document order" \
    jq -e '[.problems[] | select(.severity == "refusal") | .pointer] == ["/required", "/properties/x/minLength", "/minLenght"]' \
    "$TEST_TMP/out"
expect_true "a refused form: the misspelt keyword's fix" \
    jq -e '.problems[2].fix == "did you mean minLength?" and (.problems[2].reason | startswith("unknown keyword"))' \
    "$TEST_TMP/out"
expect_true "a refused form: the missing hook is reported too, after the refusals" \
    jq -e '.problems[-1].severity == "warning" and ([.problems[] | .rule] | index("hook-missing")) != null' \
    "$TEST_TMP/out"
expect_true "a refused form: no refusal follows a warning" \
    jq -e '[.problems[] | .severity] | . == sort_by(. != "refusal")' "$TEST_TMP/out"
run_cli --check "$bad"
expect_status 1 "a refused form: --check exits 1"
expect_stdout_match 'refused \[form-refused\] at "#/minLenght": unknown keyword "minLenght"; fix: did you mean minLength?' \
    "the text gives reason and fix on one line"
printf 'max_bdy = 1\n' >"$bad/address.conf"
run_cli --check --json "$bad"
expect_status 1 "a bad address.conf refuses the address"
expect_true "the address.conf refusal has its own rule" \
    jq -e '.problems[0].rule == "address-refused" and (.problems[0].reason | contains("max_bdy"))' \
    "$TEST_TMP/out"

# --- the lint and the decoders on a loose form --------------------------------
loose=$TEST_TMP/loose
mkdir -p "$loose"
cat >"$loose/form.json" <<'FORM'
{"p": "Say something.", "m": [],
 "s": {"type": "object",
       "properties": {
         "name": {"type": "string", "description": "at most 20 characters"},
         "kind": {"oneOf": [{"type": "string", "maxLength": 4}, {"type": "integer"}]}},
       "required": ["name", "kind"]}}
FORM
run_cli --check --json "$loose"
expect_status 0 "a loose form loads"
expect_report "a loose form"
for rp in 'object-open ' 'string-unbounded /properties/name' \
    'description-constraint /properties/name' 'oneof /properties/kind' \
    'hook-missing '; do
	rule=${rp%% *}
	ptr=${rp#* }
	expect_true "the loose form: $rule at \"$ptr\"" \
	    jq -e --arg r "$rule" --arg p "$ptr" \
	    'any(.problems[]; .rule == $r and .pointer == $p and .fix != null)' \
	    "$TEST_TMP/out"
done
expect_true "the loose form: oneOf's branches are disjoint, anyOf is equivalent" \
    jq -e 'any(.problems[]; .rule == "oneof" and (.reason | contains("provably disjoint (disjoint types)")))' \
    "$TEST_TMP/out"
expect_true "OpenAI strict refuses it, for oneOf and the open object" \
    jq -e '.decoders[] | select(.id == "openai-strict") | .refuses and any(.refused_by[]; .keyword == "oneOf" and .pointer == "/properties/kind") and any(.refused_by[]; .keyword == "additionalProperties" and .pointer == "")' \
    "$TEST_TMP/out"
expect_true "xgrammar takes it and ignores oneOf" \
    jq -e '.decoders[] | select(.id == "xgrammar") | (.refuses | not) and any(.ignores[]; .keyword == "oneOf")' \
    "$TEST_TMP/out"

# --- usage ------------------------------------------------------------------
run_cli --check --json
expect_status 2 "--check --json without a directory"
run_cli --check --jsn "$loose"
expect_status 2 "--check with an unknown option"

# --- a load logs the warnings, once, and answers as ever ---------------------
env -i GATEWAY_INTERFACE=CGI/1.1 REQUEST_METHOD=GET GPT_ADDRESS="$loose" \
    "$GPT_FCGI" </dev/null >"$TEST_TMP/resp" 2>"$TEST_TMP/err"
expect_true "a GET of the loose form answers 200" grep -q '^Status: 200' "$TEST_TMP/resp"
n=$(grep -c '\[string-unbounded\] at "#/properties/name"' "$TEST_TMP/err")
expect_true "the load logs the warning once (got $n)" test "$n" -eq 1
expect_true "the load logs the fix with it" \
    grep -q 'string-unbounded.*; fix: add "maxLength"' "$TEST_TMP/err"
expect_true "the answer carries no warning" \
    sh -c "! grep -q 'unbounded\|maxLength\": N' '$TEST_TMP/resp'"

# --- mod_fcgid's FcgidMaxRequestLen in front of a cgi-bin address -------------
# An Apache configuration directory as Debian lays it out, mod_fcgid
# enabled with its stock fcgid.conf (no FcgidMaxRequestLen: 131072 bytes).
apache=$TEST_TMP/apache2
mkdir -p "$apache/mods-enabled" "$apache/conf-enabled" "$apache/sites-enabled"
echo 'LoadModule fcgid_module /usr/lib/apache2/modules/mod_fcgid.so' \
    >"$apache/mods-enabled/fcgid.load"
printf '%s\n' '<IfModule mod_fcgid.c>' '  FcgidConnectTimeout 20' \
    '  <IfModule mod_mime.c>' '    AddHandler fcgid-script .fcgi' \
    '  </IfModule>' '</IfModule>' >"$apache/mods-enabled/fcgid.conf"
cgibin=$TEST_TMP/cgi-bin/gpt.fcgi.d/echo
mkdir -p "$cgibin"
cp "$GPT_SRCDIR/examples/echo/form.json" "$GPT_SRCDIR/examples/echo/hook" "$cgibin/"
# fcgid_check DIR: --check with the test's Apache; its whole text (the
# warnings may be on either stream) in $TEST_TMP/out.
fcgid_check() {
	GPT_APACHE_CONFDIR=$apache "$GPT_FCGI" --check "$1" \
	    >"$TEST_TMP/out" 2>"$TEST_TMP/err" </dev/null
	status=$?
	cat "$TEST_TMP/err" >>"$TEST_TMP/out"
}
fcgid_check "$cgibin"
expect_status 0 "a cgi-bin address behind mod_fcgid loads"
expect_stdout_match 'fcgid-max-request-len.*max_body 1048576 is above mod_fcgid.s FcgidMaxRequestLen 131072 (its default' \
    "--check warns that the default max_body is above mod_fcgid's default limit"
expect_stdout_match 'fix: FcgidMaxRequestLen 1048576 in .*mods-available/fcgid.conf, or a max_body of at most 131072' \
    "... with the fix"
printf 'max_body = 131072\n' >"$cgibin/address.conf"
fcgid_check "$cgibin"
expect_true "a max_body within the limit is not warned about" \
    sh -c "! grep -q fcgid-max-request-len '$TEST_TMP/out'"
rm "$cgibin/address.conf"
printf '<VirtualHost *:80>\n  fcgidmaxrequestlen 2097152\n</VirtualHost>\n' \
    >"$apache/sites-enabled/000-default.conf"
fcgid_check "$cgibin"
expect_true "a FcgidMaxRequestLen raised in a site is seen (any case)" \
    sh -c "! grep -q fcgid-max-request-len '$TEST_TMP/out'"
printf '  FcgidMaxRequestLen 1M\n' >"$apache/conf-enabled/bad.conf"
fcgid_check "$cgibin"
expect_stdout_match 'FcgidMaxRequestLen there is not a number of bytes' \
    "a FcgidMaxRequestLen that is no number is said"
rm "$apache/conf-enabled/bad.conf" "$apache/sites-enabled/000-default.conf"
fcgid_check "$GPT_SRCDIR/examples/echo"
expect_true "an address outside a *.fcgi.d directory is not judged by it" \
    sh -c "! grep -q fcgid-max-request-len '$TEST_TMP/out'"
rm "$apache/mods-enabled/fcgid.load"
fcgid_check "$cgibin"
expect_true "without mod_fcgid enabled nothing is said" \
    sh -c "! grep -q fcgid-max-request-len '$TEST_TMP/out'"

finish
