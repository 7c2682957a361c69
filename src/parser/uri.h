/*
 * uri.h: URI and IRI references (RFC 3986, RFC 3987): a strict parser,
 * reference resolution (RFC 3986 section 5.2) and a normalized form for
 * comparing identifiers such as `$id` values.
 *
 * The parser follows the collected ABNF of RFC 3986 appendix A (and, in IRI
 * mode, RFC 3987 section 2.2) exactly: nothing is repaired or guessed.  It
 * refuses what the grammar refuses, among them a space, a bare `%`, a `[`
 * outside an IP literal, an IPv6 zone id (`[fe80::1%25eth0]`, RFC 6874 is
 * not part of RFC 3986), a `:` in the first segment of a relative
 * reference, and, in URI mode, every byte above 0x7f.  In IRI mode the
 * input must be valid UTF-8, and only the ucschar (and, in the query,
 * iprivate) code points are allowed beyond ASCII.
 *
 * Components are (pointer, length) slices into the caller's text, so a
 * parsed `struct uri` borrows the text and must not outlive it.  Nothing
 * here allocates, except the *_arena functions, which allocate exactly one
 * block from the arena they are given.
 */
#ifndef GPT_URI_H
#define GPT_URI_H

#include "base/arena.h"
#include "base/common.h"

/* Flags of uri_parse(). */
#define URI_IRI 0x1u      /* RFC 3987: allow ucschar and iprivate */
#define URI_ABSOLUTE 0x2u /* require a scheme ("URI", not "URI-reference") */

/* What the host of an authority is (RFC 3986 section 3.2.2). */
enum uri_host {
	URI_HOST_NONE = 0, /* no authority */
	URI_HOST_REGNAME,  /* reg-name (possibly empty: "file:///x") */
	URI_HOST_IPV4,     /* IPv4address, which is also a valid reg-name */
	URI_HOST_IPV6,     /* "[" IPv6address "]" */
	URI_HOST_IPVFUTURE /* "[v1.x]" */
};

/* A borrowed slice of the parsed text. */
struct uri_part {
	const char *ptr; /* borrowed; NULL when the component is absent */
	size_t len;
};

/*
 * The components of RFC 3986 section 3.  The has_ flags tell an absent
 * component from an empty one ("http://h?" has an empty query, "http://h"
 * none).  The path is always present, possibly empty.  For an IP literal,
 * host holds the address without its brackets.
 */
struct uri {
	struct uri_part scheme;
	struct uri_part authority; /* userinfo@host:port, without "//" */
	struct uri_part userinfo;
	struct uri_part host;
	struct uri_part port;
	struct uri_part path;
	struct uri_part query;
	struct uri_part fragment;
	enum uri_host host_type;
	bool has_scheme;
	bool has_authority;
	bool has_userinfo;
	bool has_port;
	bool has_query;
	bool has_fragment;
};

/*
 * Parse the len bytes at p as a URI-reference (or, with URI_ABSOLUTE, as a
 * URI: scheme required, fragment allowed); URI_IRI selects the IRI
 * grammar.  Returns 0 and fills *out, or -1 and leaves *out untouched.
 */
int uri_parse(
    const char *p, size_t len, unsigned flags, struct uri *out) GPT_MUSTCHECK;

/* uri_parse's answer alone (0 as true), with a quick path for the
 * commonest text (plain ASCII scheme://host/path): the format checks. */
bool uri_valid(const char *p, size_t len, unsigned flags);

/* true when the len bytes at p are an IPv4address (RFC 3986 3.2.2:
 * dotted decimal, each octet 0-255 without leading zeros). */
bool uri_is_ipv4(const char *p, size_t len);

/* true when the len bytes at p are an IPv6address (RFC 3986 3.2.2, RFC 4291
 * 2.2): hex groups, at most one "::", an optional trailing IPv4address; no
 * zone id, no brackets. */
bool uri_is_ipv6(const char *p, size_t len);

/* RFC 3987 section 2.2: ucschar (allowed beyond ASCII in an IRI) and
 * iprivate (allowed in an IRI's query only). */
bool uri_is_ucschar(uint32_t cp);
bool uri_is_iprivate(uint32_t cp);

/*
 * The number of bytes uri_resolve() needs at most for these two
 * references, or 0 when the sum does not fit a size_t.
 */
size_t uri_resolve_bound(const struct uri *base, const struct uri *ref);

/*
 * Resolve ref against base (RFC 3986 section 5.2.2, strict: a reference
 * with a scheme is taken as it is, after dot-segment removal), and write
 * the recomposed target (section 5.3) into buf.  base must have a scheme;
 * its fragment is ignored.  cap must be at least uri_resolve_bound(): the
 * path is merged and cleaned in place.  Returns 0 and stores the length in
 * *len (no NUL is written), or -1 (base without scheme, cap too small),
 * with *len untouched.
 */
int uri_resolve(const struct uri *base, const struct uri *ref, char *buf,
    size_t cap, size_t *len) GPT_MUSTCHECK;

/* As uri_resolve(), into one block from a; NUL-terminated.  NULL when the
 * base has no scheme or the arena is exhausted. */
char *uri_resolve_arena(const struct uri *base, const struct uri *ref,
    struct arena *a, size_t *len) GPT_MUSTCHECK;

/*
 * The normalized comparison form of the reference at p (RFC 3986 section
 * 6.2.2, plus two rules for matching identifiers): scheme and host in
 * lower case (the hex of an IP literal too), percent-encoded triplets in
 * upper case, and those that encode an unreserved character decoded; dot
 * segments removed from the path of a reference with a scheme; the ":"
 * of an empty port dropped; an empty fragment ("x#") the same as none.
 * Two references name the same resource for `$id` matching exactly when
 * their forms are byte-equal.  The form is never longer than the input,
 * so cap >= len is enough.  Returns 0 and stores the length in *outlen,
 * or -1 (not a reference under flags, cap too small).
 */
int uri_normalize(const char *p, size_t len, unsigned flags, char *buf,
    size_t cap, size_t *outlen) GPT_MUSTCHECK;

/* As uri_normalize(), into one block from a; NUL-terminated. */
char *uri_normalize_arena(const char *p, size_t len, unsigned flags,
    struct arena *a, size_t *outlen) GPT_MUSTCHECK;

#endif /* GPT_URI_H */
