/*
 * html.h: the human page, the representation a browser gets when it asks
 * for text/html (CONTRACT "Arrival": p and m shown, a JSON editor and a
 * submit button, the act sent as application/json).
 *
 * The page is computed once, when the form is loaded, from the arrival
 * document that GET serves; every text/html GET then answers those bytes.
 * Every string taken from the document is HTML-escaped; no JSON is ever
 * embedded in a <script>: the act skeleton lives, escaped, in the
 * <textarea>, and the inline script only reads the textarea's value.  The
 * page loads nothing from elsewhere and talks only to its own URL.
 */
#ifndef GPT_HTML_H
#define GPT_HTML_H

#include "common.h"

struct buf;
struct json_value;

#define HTML_TITLE_MAX 80      /* code points of p shown in <title> */
#define HTML_SKELETON_DEPTH 12 /* schema levels the act skeleton descends */
#define HTML_SKELETON_ITEMS 8  /* array items the skeleton fills for minItems */
/* $ref text the skeleton resolves, in all: past it, refs are not followed */
#define HTML_SKELETON_REF_BYTES ((size_t)8 << 20)

#ifdef GPT_TEST
/* Work counters of a test build (tests/check_html builds html.c with
 * -DGPT_TEST): name comparisons made matching `required`, and $ref bytes
 * resolved.  Tests bound load work by them, never by a clock. */
extern size_t html_test_name_compares;
extern size_t html_test_ref_bytes;
#endif

/*
 * Append to out a complete UTF-8 HTML5 page for doc, the arrival document
 * {p, m, s, ...} (already strictly parsed and checked: p a string, m an
 * array of {role, content}, s a schema; a member of another shape is left
 * out of the page rather than refused).  0 on success; -1 when out's
 * maximum or memory refuses, and out is then left as it was.
 */
int html_page(const struct json_value *doc, struct buf *out) GPT_MUSTCHECK;

/*
 * Append to out a JSON text that a person can start an act from, built from
 * the form schema: an object lists its properties (required ones first, in
 * the order of `required`, then the others in document order); a string is
 * "", a number its minimum or 0, a boolean false, an array its prefixItems
 * and minItems items (at most HTML_SKELETON_ITEMS) or []; const, then the
 * first enum value, then default win over the type; $ref (within schema),
 * anyOf, oneOf and allOf follow their first alternative.  The walk stops at
 * HTML_SKELETON_DEPTH, where the emptiest value of the type is written, so
 * a recursive form ends; once HTML_SKELETON_REF_BYTES of $ref text have
 * been resolved, further $refs are not followed (the rest of the schema
 * speaks, or null).  Indented by two spaces per level.  0, or -1 when out
 * refuses or memory runs out (out then left as it was).
 */
int html_skeleton(const struct json_value *schema, struct buf *out)
    GPT_MUSTCHECK;

/*
 * Append len bytes of UTF-8 text at s to out, HTML-escaped for element
 * content and quoted attribute values: & < > " ' become character
 * references; control characters other than tab, LF and CR, and any byte
 * that does not start a valid UTF-8 sequence, become U+FFFD, so the
 * output is always valid UTF-8 and valid HTML text.  0, or -1 when out
 * refuses (out then left as it was).
 */
int html_escape(const char *s, size_t len, struct buf *out) GPT_MUSTCHECK;

#endif /* GPT_HTML_H */
