/*
 * uri.c: RFC 3986 / RFC 3987 references.  The parser splits the text at
 * the delimiters of section 3 (the regular expression of appendix B, done
 * by hand), then checks each component against its ABNF rule; the
 * resolver is section 5.2 to the letter; the normal form is section 6.2.2.
 * All reads go through the cursor helpers below, bounded by the length.
 */
#include <string.h>

#include "parser/uri.h"
#include "base/utf8.h"

/* --- character classes (RFC 3986 section 2, appendix A) ---------------- */

static bool
is_alpha(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static bool
is_digit(unsigned char c)
{
	return c >= '0' && c <= '9';
}

static bool
is_unreserved(unsigned char c)
{
	return is_alpha(c) || is_digit(c) || c == '-' || c == '.' || c == '_' ||
	       c == '~';
}

static bool
is_sub_delim(unsigned char c)
{
	switch (c) {
	case '!':
	case '$':
	case '&':
	case '\'':
	case '(':
	case ')':
	case '*':
	case '+':
	case ',':
	case ';':
	case '=':
		return true;
	default:
		return false;
	}
}

bool
uri_is_ucschar(uint32_t cp)
{
	if ((cp >= 0xA0 && cp <= 0xD7FF) || (cp >= 0xF900 && cp <= 0xFDCF) ||
	    (cp >= 0xFDF0 && cp <= 0xFFEF))
		return true;
	/* %x10000-1FFFD ... %xE1000-EFFFD: each plane but its last two
	 * code points (the noncharacters), plane 14 from E1000 only. */
	if (cp >= 0x10000 && cp <= 0xEFFFD && (cp & 0xFFFE) != 0xFFFE)
		return cp < 0xE0000 || cp >= 0xE1000;
	return false;
}

bool
uri_is_iprivate(uint32_t cp)
{
	return (cp >= 0xE000 && cp <= 0xF8FF) ||
	       (cp >= 0xF0000 && cp <= 0xFFFFD) ||
	       (cp >= 0x100000 && cp <= 0x10FFFD);
}

/* Which ASCII characters a component allows besides unreserved and
 * pct-encoded (RFC 3986 appendix A). */
enum part_kind {
	PART_USERINFO, /* sub-delims ":" */
	PART_REGNAME,  /* sub-delims */
	PART_PATH,     /* pchar "/" = sub-delims ":" "@" "/" */
	PART_QUERY,    /* pchar "/" "?"; iprivate in IRI mode */
	PART_FRAGMENT  /* pchar "/" "?" */
};

/*
 * The ASCII characters of each component as one table lookup: bit 1
 * unreserved or sub-delims, 2 ":", 4 "@", 8 "/", 16 "?" (RFC 3986
 * appendix A); part_mask[k] holds the bits component k allows.  Bit 32
 * marks the characters of a scheme after its first (ALPHA DIGIT "+" "-"
 * "."; section 3.1).  Bytes 0x80 and up have no bit: outside ASCII each
 * caller decides (IRI mode, or a refusal).
 */
#define URI_SCHEME_CHAR 32
static const unsigned char uri_chars[256] = {
    /* 0x */ 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    /* 1x */ 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    /* 2x */ 0, 1, 0, 0, 1, 0, 1, 1, 1, 1, 1, 33, 1, 33, 33, 8,
    /* 3x */ 33, 33, 33, 33, 33, 33, 33, 33, 33, 33, 2, 1, 0, 1, 0, 16,
    /* 4x */ 4, 33, 33, 33, 33, 33, 33, 33, 33, 33, 33, 33, 33, 33, 33, 33,
    /* 5x */ 33, 33, 33, 33, 33, 33, 33, 33, 33, 33, 33, 0, 0, 0, 0, 1,
    /* 6x */ 0, 33, 33, 33, 33, 33, 33, 33, 33, 33, 33, 33, 33, 33, 33, 33,
    /* 7x */ 33, 33, 33, 33, 33, 33, 33, 33, 33, 33, 33, 0, 0, 0, 1, 0,
    /* 8x..Fx: 0 */
};

static const unsigned char part_mask[] = {
    [PART_USERINFO] = 1 | 2,
    [PART_REGNAME] = 1,
    [PART_PATH] = 1 | 2 | 4 | 8,
    [PART_QUERY] = 1 | 2 | 4 | 8 | 16,
    [PART_FRAGMENT] = 1 | 2 | 4 | 8 | 16,
};

/*
 * true when all len bytes at p are characters of component k: its ASCII
 * set, "%" HEXDIG HEXDIG, and in IRI mode ucschar (iprivate in a query).
 * Hits on "a b" (space), "%4" (short triplet), "\xc3\xa9" in URI mode.
 */
static bool
part_valid(const char *p, size_t len, enum part_kind k, unsigned flags)
{
	const unsigned char *s = (const unsigned char *)p;
	unsigned char mask = part_mask[k];
	size_t i = 0;

	while (i < len) {
		unsigned char c = s[i];

		if (uri_chars[c] & mask) {
			i++;
		} else if (c == '%') {
			if (len - i < 3 || gpt_hex_value(s[i + 1]) < 0 ||
			    gpt_hex_value(s[i + 2]) < 0)
				return false;
			i += 3;
		} else if (c < 0x80) {
			return false; /* "a b" */
		} else {
			uint32_t cp;
			size_t n;

			if (!(flags & URI_IRI))
				return false;
			n = utf8_decode(s + i, len - i, &cp);
			if (n == 0)
				return false;
			if (!uri_is_ucschar(cp) &&
			    !(k == PART_QUERY && uri_is_iprivate(cp)))
				return false;
			i += n;
		}
	}
	return true;
}

/* --- IP addresses (RFC 3986 section 3.2.2) ----------------------------- */

/*
 * Length of the dec-octet at p (1 to 3), or 0.  "0" and "255" are octets;
 * "01" (leading zero) and "256" are not: hits on "1.2.3.04".
 */
static size_t
dec_octet(const char *p, size_t len)
{
	size_t n = 0;
	unsigned v = 0;

	while (n < len && n < 3 && is_digit((unsigned char)p[n])) {
		v = v * 10 + (unsigned)(p[n] - '0');
		n++;
	}
	if (n == 0 || v > 255 || (n > 1 && p[0] == '0'))
		return 0;
	/* a fourth digit makes it no octet at all ("1234") */
	if (n < len && is_digit((unsigned char)p[n]))
		return 0;
	return n;
}

bool
uri_is_ipv4(const char *p, size_t len)
{
	size_t i = 0;
	int part;

	for (part = 0; part < 4; part++) {
		size_t n;

		if (part > 0) {
			if (i >= len || p[i] != '.')
				return false;
			i++;
		}
		n = dec_octet(p + i, len - i);
		if (n == 0)
			return false;
		i += n;
	}
	return i == len;
}

/*
 * IPv6address per RFC 3986: eight 16-bit groups, or fewer with one "::"
 * standing for at least one zero group; the last two groups may be
 * written as an IPv4address.  Hits on ":::", "1::2::3", "12345::",
 * "1:2:3:4:5:6:7:8:9", "::1.2.3", "fe80::1%eth0".
 */
bool
uri_is_ipv6(const char *p, size_t len)
{
	size_t i = 0;
	int groups = 0;
	bool elided = false;

	if (len >= 2 && p[0] == ':' && p[1] == ':') {
		elided = true;
		i = 2;
	} else if (len >= 1 && p[0] == ':') {
		return false; /* ":1::" */
	}
	while (i < len) {
		size_t n = 0;

		while (i + n < len && n < 5 &&
		       gpt_hex_value((unsigned char)p[i + n]) >= 0)
			n++;
		if (i + n < len && p[i + n] == '.') {
			/* ls32 as an IPv4address ends the address */
			if (!uri_is_ipv4(p + i, len - i))
				return false;
			groups += 2;
			break;
		}
		if (n == 0 || n > 4)
			return false;
		groups++;
		i += n;
		if (groups > 8)
			return false;
		if (i == len)
			break;
		if (p[i] != ':')
			return false;
		i++;
		if (i < len && p[i] == ':') {
			if (elided)
				return false; /* a second "::" */
			elided = true;
			i++;
		} else if (i == len) {
			return false; /* "1:" */
		}
	}
	return elided ? groups <= 7 : groups == 8;
}

/* IPvFuture = "v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" ) */
static bool
is_ipvfuture(const char *p, size_t len)
{
	size_t i = 1, hex;

	if (len < 4 || (p[0] != 'v' && p[0] != 'V'))
		return false;
	while (i < len && gpt_hex_value((unsigned char)p[i]) >= 0)
		i++;
	hex = i - 1;
	if (hex == 0 || i >= len || p[i] != '.' || i + 1 == len)
		return false;
	for (i++; i < len; i++) {
		unsigned char c = (unsigned char)p[i];

		if (!is_unreserved(c) && !is_sub_delim(c) && c != ':')
			return false;
	}
	return true;
}

/* --- parser ------------------------------------------------------------ */

/* The delimiters find_any() stops at, as bits of c - 0x20: all of them
 * lie in 0x20..0x5f. */
#define DELIM(c) ((uint64_t)1 << ((c)-0x20))
#define D_COLON DELIM(':')
#define D_SLASH DELIM('/')
#define D_QUERY DELIM('?')
#define D_HASH DELIM('#')
#define D_AT DELIM('@')
#define D_CLOSE DELIM(']')

/* The first byte at or after from that is in the set (DELIM bits), or
 * len: one table test per byte. */
static size_t
find_any(const char *p, size_t from, size_t len, uint64_t set)
{
	size_t i;

	for (i = from; i < len; i++) {
		unsigned d = (unsigned char)p[i] - 0x20u;

		if (d < 64 && ((set >> d) & 1))
			return i;
	}
	return len;
}

static int
parse_authority(const char *p, size_t len, unsigned flags, struct uri *u)
{
	size_t at, hs = 0, he;

	u->authority = (struct uri_part){p, len};
	u->has_authority = true;
	at = find_any(p, 0, len, D_AT);
	if (at < len) {
		if (!part_valid(p, at, PART_USERINFO, flags))
			return -1;
		u->userinfo = (struct uri_part){p, at};
		u->has_userinfo = true;
		hs = at + 1;
	}
	if (hs < len && p[hs] == '[') {
		size_t close = find_any(p, hs, len, D_CLOSE);

		if (close == len)
			return -1; /* hits on "http://[::1/" */
		u->host = (struct uri_part){p + hs + 1, close - hs - 1};
		if (uri_is_ipv6(u->host.ptr, u->host.len))
			u->host_type = URI_HOST_IPV6;
		else if (is_ipvfuture(u->host.ptr, u->host.len))
			u->host_type = URI_HOST_IPVFUTURE;
		else
			return -1; /* hits on "http://[fe80::1%25en0]/" */
		he = close + 1;
		if (he < len && p[he] != ':')
			return -1; /* hits on "http://[::1]x/" */
	} else {
		/* reg-name has no ":" (and no "@": the first one ended the
		 * userinfo), so the first ":" starts the port */
		he = find_any(p, hs, len, D_COLON);
		if (!part_valid(p + hs, he - hs, PART_REGNAME, flags))
			return -1; /* hits on "http://a@b@c/", "http://a b/" */
		u->host = (struct uri_part){p + hs, he - hs};
		u->host_type = uri_is_ipv4(u->host.ptr, u->host.len)
		                   ? URI_HOST_IPV4
		                   : URI_HOST_REGNAME;
	}
	if (he < len) {
		size_t i;

		/* port = *DIGIT; hits on "http://h:8o/", "http://h:1:2/" */
		for (i = he + 1; i < len; i++)
			if (!is_digit((unsigned char)p[i]))
				return -1;
		u->port = (struct uri_part){p + he + 1, len - he - 1};
		u->has_port = true;
	}
	return 0;
}

int
uri_parse(const char *p, size_t len, unsigned flags, struct uri *out)
{
	struct uri u;
	size_t i = 0, end, first;

	memset(&u, 0, sizeof(u));
	if (p == NULL)
		return -1;
	/* scheme: the text before the first ":" when no "/?#" comes first;
	 * otherwise a ":" in the first segment makes an invalid
	 * path-noscheme (hits on "1a:b", ":x") */
	first = find_any(p, 0, len, D_COLON | D_SLASH | D_QUERY | D_HASH);
	if (first < len && p[first] == ':') {
		size_t k;

		if (first == 0 || !is_alpha((unsigned char)p[0]))
			return -1;
		for (k = 1; k < first; k++)
			if (!(uri_chars[(unsigned char)p[k]] & URI_SCHEME_CHAR))
				return -1; /* hits on "ht_tp://h" */
		u.scheme = (struct uri_part){p, first};
		u.has_scheme = true;
		i = first + 1;
	} else if (flags & URI_ABSOLUTE) {
		return -1; /* hits on "//h/p", "a/b" */
	}
	if (len - i >= 2 && p[i] == '/' && p[i + 1] == '/') {
		i += 2;
		end = find_any(p, i, len, D_SLASH | D_QUERY | D_HASH);
		if (parse_authority(p + i, end - i, flags, &u) < 0)
			return -1;
		i = end;
	}
	end = find_any(p, i, len, D_QUERY | D_HASH);
	if (!part_valid(p + i, end - i, PART_PATH, flags))
		return -1; /* hits on "a b", "/%zz", "/a[b]" */
	u.path = (struct uri_part){p + i, end - i};
	i = end;
	if (i < len && p[i] == '?') {
		end = find_any(p, i + 1, len, D_HASH);
		if (!part_valid(p + i + 1, end - i - 1, PART_QUERY, flags))
			return -1; /* hits on "?a b" */
		u.query = (struct uri_part){p + i + 1, end - i - 1};
		u.has_query = true;
		i = end;
	}
	if (i < len) { /* p[i] == '#' */
		if (!part_valid(p + i + 1, len - i - 1, PART_FRAGMENT, flags))
			return -1; /* hits on "#a#b" */
		u.fragment = (struct uri_part){p + i + 1, len - i - 1};
		u.has_fragment = true;
	}
	*out = u;
	return 0;
}

/*
 * A quick yes for the commonest text: an absolute URI in plain ASCII,
 * scheme ":" ["//" reg-name [":" port]] path ["?" query] ["#" fragment],
 * with no "%", "@" or "[" and no byte 0x80 or above.  true only when
 * uri_parse would accept the text under any flags; false means "ask
 * uri_parse" (which then accepts or refuses), never "invalid".  One pass
 * and one table lookup a byte, where uri_parse splits the text first
 * and then checks each part.
 */
static bool
quick_absolute(const unsigned char *s, size_t len)
{
	unsigned mask = part_mask[PART_PATH];
	bool query = false, fragment = false;
	size_t i = 1;

	if (len == 0 || !is_alpha(s[0]))
		return false;
	while (i < len && (uri_chars[s[i]] & URI_SCHEME_CHAR))
		i++;
	if (i == len || s[i++] != ':')
		return false;
	if (len - i >= 2 && s[i] == '/' && s[i + 1] == '/') {
		/* reg-name, up to the "/", "?", "#" or ":" that ends it */
		for (i += 2; i < len && (uri_chars[s[i]] & 1); i++)
			;
		if (i < len && s[i] == ':')
			for (i++; i < len && is_digit(s[i]); i++)
				;
		if (i < len && s[i] != '/' && s[i] != '?' && s[i] != '#')
			return false;
	}
	/* the rest: a byte of the current part's set needs one lookup; only
	 * the others are looked at again, as the "?" or "#" that starts the
	 * next part, or a refusal */
	for (; i < len; i++) {
		unsigned char c = s[i];

		if (uri_chars[c] & mask)
			continue;
		if (c == '?' && !query && !fragment) {
			query = true;
			mask = part_mask[PART_QUERY];
		} else if (c == '#' && !fragment) {
			fragment = true;
			mask = part_mask[PART_FRAGMENT];
		} else {
			return false;
		}
	}
	return true;
}

bool
uri_valid(const char *p, size_t len, unsigned flags)
{
	struct uri u;

	if (p != NULL && quick_absolute((const unsigned char *)p, len))
		return true;
	return uri_parse(p, len, flags, &u) == 0;
}

/* --- resolution (RFC 3986 section 5.2) --------------------------------- */

/*
 * remove_dot_segments (section 5.2.4), in place: the output never gets
 * ahead of the input, so one buffer serves both.  Returns the new length.
 */
static size_t
remove_dot_segments(char *s, size_t len)
{
	size_t i = 0, o = 0;

#define AT(str)                                                                \
	(len - i >= sizeof(str) - 1 && memcmp(s + i, str, sizeof(str) - 1) == 0)
#define REST(str)                                                              \
	(len - i == sizeof(str) - 1 && memcmp(s + i, str, sizeof(str) - 1) == 0)
	while (i < len) {
		if (AT("../")) { /* A */
			i += 3;
		} else if (AT("./")) {
			i += 2;
		} else if (AT("/./")) { /* B */
			i += 2;
		} else if (REST("/.")) {
			s[o++] = '/';
			i = len;
		} else if (AT("/../") || REST("/..")) { /* C */
			bool last = REST("/..");

			while (o > 0 && s[o - 1] != '/')
				o--;
			if (o > 0)
				o--;
			if (last) {
				s[o++] = '/';
				i = len;
			} else {
				i += 3;
			}
		} else if (REST(".") || REST("..")) { /* D */
			i = len;
		} else { /* E: move the first segment */
			if (s[i] == '/')
				s[o++] = s[i++];
			while (i < len && s[i] != '/')
				s[o++] = s[i++];
		}
	}
#undef AT
#undef REST
	return o;
}

/*
 * After dot-segment removal, a path without an authority may start with
 * "//" ("a:/.//b" gives "//b"), which would then read as an authority:
 * put "/." in front (the path means the same, and is written as section
 * 5.2.4 leaves it open to).  Removal took at least those two bytes off,
 * so the buffer has room.
 */
static void
keep_path(char *buf, size_t pstart, size_t *o, bool authority)
{
	if (authority || *o - pstart < 2 || buf[pstart] != '/' ||
	    buf[pstart + 1] != '/')
		return;
	memmove(buf + pstart + 2, buf + pstart, *o - pstart);
	buf[pstart] = '/';
	buf[pstart + 1] = '.';
	*o += 2;
}

size_t
uri_resolve_bound(const struct uri *base, const struct uri *ref)
{
	size_t n = 8; /* ":" "//" "/" "?" "#" and a NUL */
	const struct uri_part *parts[] = {&base->scheme, &base->authority,
	    &base->path, &base->query, &ref->scheme, &ref->authority,
	    &ref->path, &ref->query, &ref->fragment};
	size_t k;

	for (k = 0; k < GPT_ARRAY_LEN(parts); k++)
		if (!gpt_add_size(n, parts[k]->len, &n))
			return 0;
	return n;
}

/* Append len bytes at src to buf at *o; the caller checked the room. */
static void
put(char *buf, size_t *o, const char *src, size_t len)
{
	if (len > 0)
		memcpy(buf + *o, src, len);
	*o += len;
}

int
uri_resolve(const struct uri *base, const struct uri *ref, char *buf,
    size_t cap, size_t *len)
{
	const struct uri *auth_from; /* whose authority T gets */
	const struct uri_part *query;
	bool has_query;
	size_t o = 0, need = uri_resolve_bound(base, ref), pstart;

	if (!base->has_scheme || need == 0 || cap < need)
		return -1;
	/* section 5.2.2, strict: the scheme is R's when it has one */
	if (ref->has_scheme) {
		put(buf, &o, ref->scheme.ptr, ref->scheme.len);
		auth_from = ref;
	} else {
		put(buf, &o, base->scheme.ptr, base->scheme.len);
		auth_from = ref->has_authority ? ref : base;
	}
	buf[o++] = ':';
	if (auth_from->has_authority) {
		buf[o++] = '/';
		buf[o++] = '/';
		put(buf, &o, auth_from->authority.ptr,
		    auth_from->authority.len);
	}
	pstart = o;
	query = &ref->query;
	has_query = ref->has_query;
	if (ref->has_scheme || ref->has_authority) {
		put(buf, &o, ref->path.ptr, ref->path.len);
		o = pstart + remove_dot_segments(buf + pstart, o - pstart);
	} else if (ref->path.len == 0) {
		put(buf, &o, base->path.ptr, base->path.len);
		if (!has_query) {
			query = &base->query;
			has_query = base->has_query;
		}
	} else if (ref->path.ptr[0] == '/') {
		put(buf, &o, ref->path.ptr, ref->path.len);
		o = pstart + remove_dot_segments(buf + pstart, o - pstart);
	} else {
		/* merge (section 5.2.3) */
		if (base->has_authority && base->path.len == 0) {
			buf[o++] = '/';
		} else {
			size_t k = base->path.len;

			while (k > 0 && base->path.ptr[k - 1] != '/')
				k--;
			put(buf, &o, base->path.ptr, k);
		}
		put(buf, &o, ref->path.ptr, ref->path.len);
		o = pstart + remove_dot_segments(buf + pstart, o - pstart);
	}
	keep_path(buf, pstart, &o, auth_from->has_authority);
	if (has_query) {
		buf[o++] = '?';
		put(buf, &o, query->ptr, query->len);
	}
	if (ref->has_fragment) {
		buf[o++] = '#';
		put(buf, &o, ref->fragment.ptr, ref->fragment.len);
	}
	*len = o;
	return 0;
}

char *
uri_resolve_arena(
    const struct uri *base, const struct uri *ref, struct arena *a, size_t *len)
{
	size_t need = uri_resolve_bound(base, ref), n;
	char *buf;

	if (!base->has_scheme || need == 0)
		return NULL;
	buf = arena_alloc(a, need);
	if (buf == NULL || uri_resolve(base, ref, buf, need, &n) < 0)
		return NULL;
	buf[n] = '\0';
	*len = n;
	return buf;
}

/* --- normal form (RFC 3986 section 6.2.2) ------------------------------ */

static unsigned char
lower(unsigned char c)
{
	return c >= 'A' && c <= 'Z' ? (unsigned char)(c - 'A' + 'a') : c;
}

/*
 * Copy a component, upper-casing percent-encoded hex, decoding triplets
 * of unreserved characters, and lower-casing the rest when fold is set
 * (a host).  The output is never longer than the input.
 */
static void
put_normal(char *buf, size_t *o, struct uri_part part, bool fold)
{
	static const char hex[] = "0123456789ABCDEF";
	size_t i = 0;

	while (i < part.len) {
		unsigned char c = (unsigned char)part.ptr[i];

		if (c == '%' && part.len - i >= 3) {
			int v =
			    gpt_hex_value((unsigned char)part.ptr[i + 1]) * 16 +
			    gpt_hex_value((unsigned char)part.ptr[i + 2]);

			if (is_unreserved((unsigned char)v)) {
				buf[(*o)++] =
				    (char)(fold ? lower((unsigned char)v)
				                : (unsigned char)v);
			} else {
				buf[(*o)++] = '%';
				buf[(*o)++] = hex[v >> 4];
				buf[(*o)++] = hex[v & 15];
			}
			i += 3;
		} else {
			buf[(*o)++] = (char)(fold ? lower(c) : c);
			i++;
		}
	}
}

int
uri_normalize(const char *p, size_t len, unsigned flags, char *buf, size_t cap,
    size_t *outlen)
{
	struct uri u;
	size_t o = 0, k, pstart;

	if (cap < len || uri_parse(p, len, flags, &u) < 0)
		return -1;
	if (u.has_scheme) {
		for (k = 0; k < u.scheme.len; k++)
			buf[o++] = (char)lower((unsigned char)u.scheme.ptr[k]);
		buf[o++] = ':';
	}
	if (u.has_authority) {
		bool literal = u.host_type == URI_HOST_IPV6 ||
		               u.host_type == URI_HOST_IPVFUTURE;

		buf[o++] = '/';
		buf[o++] = '/';
		if (u.has_userinfo) {
			put_normal(buf, &o, u.userinfo, false);
			buf[o++] = '@';
		}
		if (literal)
			buf[o++] = '[';
		put_normal(buf, &o, u.host, true);
		if (literal)
			buf[o++] = ']';
		if (u.has_port && u.port.len > 0) {
			buf[o++] = ':';
			put(buf, &o, u.port.ptr, u.port.len);
		}
	}
	pstart = o;
	put_normal(buf, &o, u.path, false);
	if (u.has_scheme) {
		o = pstart + remove_dot_segments(buf + pstart, o - pstart);
		keep_path(buf, pstart, &o, u.has_authority);
	}
	if (u.has_query) {
		buf[o++] = '?';
		put_normal(buf, &o, u.query, false);
	}
	if (u.has_fragment && u.fragment.len > 0) {
		buf[o++] = '#';
		put_normal(buf, &o, u.fragment, false);
	}
	*outlen = o;
	return 0;
}

char *
uri_normalize_arena(
    const char *p, size_t len, unsigned flags, struct arena *a, size_t *outlen)
{
	size_t cap, n;
	char *buf;

	if (!gpt_add_size(len, 1, &cap))
		return NULL;
	buf = arena_alloc(a, cap);
	if (buf == NULL || uri_normalize(p, len, flags, buf, cap, &n) < 0)
		return NULL;
	buf[n] = '\0';
	*outlen = n;
	return buf;
}
