/*
 * html.h: the human page, the representation a browser gets when it asks
 * for text/html (doc/protocol.md "Arrival": p and m shown, controls to compose
 * the act, a JSON editor and a submit button, the act sent as
 * application/json).
 *
 * The page is computed once, when the form is loaded, from the arrival
 * document and the compiled form (read through schema_view.h, never the
 * raw keywords): every text/html GET then answers those bytes.  It is one
 * document with its style sheet and script inline (src/web/page/page.css and
 * page.js, embedded at build time, the same bytes for every form), a
 * static readable part (the heading, p, m, the form as JSON Schema) and a
 * compact description of the form (keyed by JSON Schema's names) as an
 * inert <script type="application/json"> block, from which the script
 * builds a control per value and checks an act before it is sent.  The page
 * loads nothing from elsewhere and talks only to its own URL; html_csp() is the
 * Content-Security-Policy that allows exactly its script and style, by hash,
 * and nothing else.
 *
 * Every string taken from the document goes through html_escape() in the
 * markup, or through the description's escaping (no '<', '>', '&', U+2028
 * or U+2029 left raw) in the data block; nothing of the document is ever
 * written into the script or the style sheet.
 */
#ifndef GPT_HTML_H
#define GPT_HTML_H

#include "base/common.h"

struct buf;
struct json_value;
struct schema;

#define HTML_TITLE_MAX 80 /* code points of the title shown in <title> */

/* What the page shows beside the document and the form. */
struct html_opts {
	const char *type; /* address.conf's type (a heading without a title),
	                     or NULL */
	const char *etag; /* the JSON representation's ETag, sent back as
	                     If-Match with each act, or NULL */
	const char *name; /* the address's name (its directory's), the
	                     heading without a title, or NULL */
	size_t max_body;  /* address.conf's max_body (0: not told) */
	bool keys;        /* the address keeps Idempotency-Keys: the page
	                     sends one with each act */
	/* the form of the answer (the document's a) compiled, or NULL: its
	 * description goes in a second data block, so that the page offers
	 * the addresses an accepted answer names where a types them */
	const struct schema *answer;
};

/*
 * Append to out a complete UTF-8 HTML5 page for doc, the arrival document
 * {p, m, s, ...} (already strictly parsed and checked: p a string, m an
 * array of {role, content}, s a schema; a member of another shape is left
 * out of the page rather than refused), whose s compiled to form (NULL: the
 * page offers a JSON editor only).  o may be NULL.  Work and output are
 * linear in the document and the form.  0 on success; -1 when out's
 * maximum or memory refuses, and out is then left as it was.
 */
int html_page(const struct json_value *doc, const struct schema *form,
    const struct html_opts *o, struct buf *out) GPT_MUSTCHECK;

/*
 * The value of the page's Content-Security-Policy header (the same for
 * every page: the script and the style sheet never vary): default-src
 * 'none', the script and the style allowed by their SHA-256, connections
 * and form submissions to the page's own origin only, no framing, no
 * base URI.  Computed on the first call (at load), a static string after.
 */
const char *html_csp(void);

/* The page's script and style sheet, exactly as embedded (for tests). */
extern const char html_page_js[];
extern const size_t html_page_js_len;
extern const char html_page_css[];
extern const size_t html_page_css_len;

/*
 * Append len bytes of UTF-8 text at s to out, HTML-escaped for element
 * content and quoted attribute values: & < > " ' become character
 * references; control characters other than tab, LF and CR, and any byte
 * that does not start a valid UTF-8 sequence, become U+FFFD, so the
 * output is always valid UTF-8 and valid HTML text.  0, or -1 when out
 * refuses (out then left as it was).
 */
int html_escape(const char *s, size_t len, struct buf *out) GPT_MUSTCHECK;

/*
 * Append the JSON text of len bytes at s to out so that it can sit in a
 * <script type="application/json"> block: '<', '>' and '&' become \u003c,
 * \u003e and \u0026 (so neither "</script" nor "<!--" can appear), U+2028
 * and U+2029 become \u2028 and \u2029.  s must be JSON text (those
 * characters then occur only inside strings, where the escapes mean the
 * same).  0, or -1 when out refuses (out then left as it was).
 */
int html_json_script(const char *s, size_t len, struct buf *out) GPT_MUSTCHECK;

#endif /* GPT_HTML_H */
