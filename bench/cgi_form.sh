#!/bin/sh
# cgi_form.sh: print a generated arrival document (form.json) of N
# described string properties, each with its own pattern, for the CGI
# benchmark (bench/cgi.sh).  400 properties give about 59 KB and 400
# patterns: the large form of issue 13.
#
#   cgi_form.sh N >DIR/form.json
set -eu
n=${1:?usage: cgi_form.sh N}
awk -v n="$n" 'BEGIN {
	printf "{\"p\": \"A record of %d fields, each checked by its own pattern.\",\n", n
	printf " \"m\": [{\"role\": \"user\", \"content\": \"Fill in every field you know.\"}],\n"
	printf " \"s\": {\"type\": \"object\", \"additionalProperties\": false,\n"
	printf "  \"properties\": {\n"
	for (i = 1; i <= n; i++) {
		printf "   \"field_%04d\": {\"type\": \"string\", \"maxLength\": %d,", i, 16 + i % 48
		printf " \"description\": \"Field %d of the record, a code of %d letters.\",", i, 2 + i % 5
		printf " \"pattern\": \"^[A-Z]{%d}-[0-9]{%d}(-[a-z%d]+)?$\"}%s\n", 2 + i % 5, 1 + i % 7, i % 10, i < n ? "," : ""
	}
	printf "  }}}\n"
}'
