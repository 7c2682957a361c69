/*
 * bench_validate.c: what validation adds to parsing, on the reference form
 * (schemas/styled-text.schema.json).
 *
 * Two generated bodies that conform to the form, about 300 B and about
 * 1 MB: trees of text and styled spans, links with URLs (the pattern
 * keyword), non-ASCII text and escapes.  The driver (bench_form.h) prints
 * the median MB/s of json_parse alone and of json_parse + schema_validate
 * and the validation overhead (target: at most +50% over parsing alone).
 *
 *   bench_validate SCHEMA            the table above
 *   bench_validate SCHEMA mbps SIZE  one line: median MB/s of parse +
 *                                    validate on the SIZE-byte body
 *   bench_validate SCHEMA dump DIR   write DIR/small.json, DIR/large.json
 *                                    (the same bytes, for other validators)
 */
#include <stdio.h>

#include "bench_form.h"

static const char *const words[] = {
    "Hello, ",
    "world",
    " and ",
    "caf\xC3\xA9 ",
    "\\\"quoted\\\" ",
    "line\\nbreak ",
    "\xE6\x97\xA5\xE6\x9C\xAC\xE8\xAA\x9E ",
    "na\\u00efve ",
    "the quick brown fox jumps over the lazy dog. ",
    "\xF0\x9F\x98\x80 ",
};
static const char *const styles[] = {
    "plain",
    "bold",
    "italic",
    "underline",
    "strike",
    "code",
    "quote",
    "heading",
};

/* A node at depth (1 to 4): mostly text, sometimes a span of children. */
static void
node(struct buf *b, unsigned depth)
{
	unsigned k, n;

	if (depth == 4 || next_rand() % 3 != 0) {
		put(b, "\"");
		n = 1 + next_rand() % 3;
		for (k = 0; k < n; k++)
			put(b, words[next_rand() % GPT_ARRAY_LEN(words)]);
		put(b, "\"");
		return;
	}
	if (next_rand() % 4 == 0) {
		char url[96];

		snprintf(url, sizeof(url),
		    "{\"style\":\"link\",\"href\":\"https://example.org/p/"
		    "%u?q=%u\","
		    "\"children\":[",
		    next_rand() % 100000, next_rand() % 1000);
		put(b, url);
	} else {
		put(b, "{\"style\":\"");
		put(b, styles[next_rand() % GPT_ARRAY_LEN(styles)]);
		put(b, "\",\"children\":[");
	}
	n = 1 + next_rand() % 3;
	for (k = 0; k < n; k++) {
		if (k > 0)
			put(b, ",");
		node(b, depth + 1);
	}
	put(b, "]}");
}

static void
item(struct buf *b)
{
	node(b, 1);
}

int
main(int argc, char **argv)
{
	static const struct bench_form bf = {
	    .prog = "bench_validate",
	    .form = "styled-text form",
	    .head = "{\"title\":\"Benchmark\",\"nodes\":[",
	    .margin = 60,
	    .item = item,
	};

	return bench_form_main(argc, argv, &bf);
}
