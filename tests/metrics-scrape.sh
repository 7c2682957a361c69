#!/bin/sh
# metrics-scrape.sh: Debian's prometheus-node-exporter reads gpt.fcgi's
# counts with its textfile collector: a FastCGI process (spawn-fcgi) and
# CGI requests write into one GPT_METRICS_DIR, node_exporter serves it on
# 127.0.0.1, and its scrape, after a known mix, has the counts of both
# processes with no collector error.
. "${GPT_SRCDIR:-.}/tests/servers-common.sh"
CGI_FCGI=${CGI_FCGI:-cgi-fcgi}
need spawn-fcgi "$CGI_FCGI"
EXPORTER=${EXPORTER:-prometheus-node-exporter}
need "$EXPORTER"

ROOT=$TEST_TMP/root
make_root "$ROOT"
M=$TEST_TMP/textfile
mkdir "$M"
SOCK=$TEST_TMP/gpt.sock

GPT_ROOT=$ROOT GPT_METRICS_DIR=$M \
    spawn-fcgi -s "$SOCK" -n -- "$GPT_FCGI" 2>"$TEST_TMP/fcgi.log" &
fpid=$!
started $fpid
port=$(free_port)
"$EXPORTER" --collector.disable-defaults --collector.textfile \
    --collector.textfile.directory="$M" \
    --web.listen-address="127.0.0.1:$port" >"$TEST_TMP/exporter.log" 2>&1 &
started $!
wait_ready "http://127.0.0.1:$port/metrics" || {
	cat "$TEST_TMP/exporter.log" >&2
	exit 1
}
i=0
while [ ! -S "$SOCK" ] && [ $i -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done

fcgi() { # METHOD PATH STDIN VAR=VALUE...
	_m=$1 _p=$2 _in=$3
	shift 3
	env -i REQUEST_METHOD="$_m" PATH_INFO="$_p" SERVER_PROTOCOL=HTTP/1.1 \
	    "$@" timeout 20 "$CGI_FCGI" -bind -connect "$SOCK" <"$_in" \
	    >/dev/null 2>&1
}
cgi() { # METHOD PATH STDIN VAR=VALUE...
	_m=$1 _p=$2 _in=$3
	shift 3
	env -i REQUEST_METHOD="$_m" PATH_INFO="$_p" GPT_ROOT="$ROOT" \
	    GPT_METRICS_DIR="$M" "$@" timeout 20 "$GPT_FCGI" <"$_in" \
	    >/dev/null 2>&1
}
printf '{"note":"hello"}' >"$TEST_TMP/ok"
printf '{"note":"a","note":"b"}' >"$TEST_TMP/dup"
printf '{"note":' >"$TEST_TMP/cut"
act() { # RUN FILE
	$1 POST /probe "$2" CONTENT_TYPE=application/json \
	    CONTENT_LENGTH="$(wc -c <"$2" | tr -d ' ')"
}

# The mix: FastCGI 5 GETs (JSON), 2 accepted acts, 1 duplicate name, 1
# cut short; CGI 3 GETs (HTML), 1 accepted act, 2 duplicate names.
for _ in 1 2 3 4 5; do fcgi GET /probe /dev/null; done
act fcgi "$TEST_TMP/ok"
act fcgi "$TEST_TMP/ok"
act fcgi "$TEST_TMP/dup"
act fcgi "$TEST_TMP/cut"
for _ in 1 2 3; do cgi GET /probe /dev/null HTTP_ACCEPT=text/html; done
act cgi "$TEST_TMP/ok"
act cgi "$TEST_TMP/dup"
act cgi "$TEST_TMP/dup"

# scrape WANT SERIES...: wait (at most 12 s: the FastCGI file is written
# once the process has been idle METRICS_INTERVAL_MS) until the first
# series has WANT, then keep the scrape in $TEST_TMP/scrape.
scrape_until() {
	_want=$1 _series=$2
	_i=0
	while [ $_i -lt 60 ]; do
		curl -s --max-time 5 "http://127.0.0.1:$port/metrics" \
		    >"$TEST_TMP/scrape" || :
		[ "$(grep -F "$_series" "$TEST_TMP/scrape" | sed 's/.* //')" = \
		    "$_want" ] && return 0
		sleep 0.2
		_i=$((_i + 1))
	done
	return 0
}
expect_series() { # SERIES WANT LABEL
	_got=$(grep -v '^#' "$TEST_TMP/scrape" | grep -F "$1" | sed 's/.* //')
	if [ "$_got" = "$2" ]; then pass; else
		fail "$3: $1 is '$_got', expected $2"
	fi
}

a="address=\"$ROOT/probe\""
f="process=\"fcgi-$fpid\""
c='process="cgi"'
scrape_until 1 "gpt_fcgi_acts_rejected_total{$a,class=\"parse\",$f}"
expect_series "gpt_fcgi_gets_total{$a,$f,representation=\"json\"}" 5 \
    "node_exporter: FastCGI GETs"
expect_series "gpt_fcgi_acts_accepted_total{$a,$f}" 2 \
    "node_exporter: FastCGI acts accepted"
expect_series "gpt_fcgi_acts_rejected_total{$a,class=\"duplicate_name\",$f}" 1 \
    "node_exporter: FastCGI duplicate names"
expect_series "gpt_fcgi_acts_rejected_total{$a,class=\"parse\",$f}" 1 \
    "node_exporter: FastCGI parse rejections"
expect_series "gpt_fcgi_hook_outcomes_total{$a,outcome=\"ok\",$f}" 2 \
    "node_exporter: FastCGI hooks ok"
expect_series "gpt_fcgi_hook_duration_seconds_count{$a,$f}" 2 \
    "node_exporter: FastCGI hook histogram"
expect_series "gpt_fcgi_gets_total{$a,$c,representation=\"html\"}" 3 \
    "node_exporter: CGI GETs"
expect_series "gpt_fcgi_acts_accepted_total{$a,$c}" 1 \
    "node_exporter: CGI acts accepted"
expect_series "gpt_fcgi_acts_rejected_total{$a,class=\"duplicate_name\",$c}" 2 \
    "node_exporter: CGI duplicate names"
expect_series "gpt_fcgi_hook_duration_seconds_bucket{$a,$c,le=\"+Inf\"}" 1 \
    "node_exporter: CGI hook histogram"
expect_series 'node_textfile_scrape_error ' 0 \
    "node_exporter: the files parse (no textfile scrape error)"
if [ "$failed" -gt 0 ]; then
	grep gpt_fcgi "$TEST_TMP/scrape" | head -n 20 >&2
	cat "$TEST_TMP/exporter.log" >&2
fi

finish
