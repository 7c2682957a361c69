/*
 * format.c: one checker per `format` name and the table that names them.
 *
 * Each checker is a hand-written recognizer of its RFC's ABNF: a cursor
 * over (pointer, length) moving forward only, so work is linear in the
 * value and nothing backtracks.  Adding a name is one row in `formats`.
 *
 * What libidn2 decides and what is decided here (README, "Formats"):
 *   libidn2 (idn2_register_u8, RFC 5891 section 4 registration checks)
 *   takes each non-ASCII label and each "xn--" label: NFC, the IDNA2008
 *   code point classes (RFC 5892: PVALID, DISALLOWED, UNASSIGNED), the
 *   CONTEXTJ and CONTEXTO rules (RFC 5892 appendix A), no leading
 *   combining mark, no "--" in positions 3-4, the Bidi rule within a label
 *   (RFC 5893), and that an A-label decodes to such a U-label.
 *   Here: the label and name length limits (63 octets per A-label, 253 per
 *   name), RFC 1123 LDH labels, the refusal of reserved LDH labels
 *   ("ab--cd", RFC 5890 section 2.3.1), and RFC 5893's rule across labels:
 *   in a domain with a right-to-left label, an ASCII label must not begin
 *   with a digit (Bidi rule 1).  A label counts as right-to-left when it
 *   has a code point of a right-to-left script block (Hebrew, Arabic,
 *   Syriac, Thaana, NKo, Samaritan, Mandaic and their presentation forms,
 *   and the right-to-left planes of the SMP): no bidi class table is
 *   carried, and none of those blocks holds letters of left-to-right
 *   scripts.
 */
#include <string.h>

#include <idn2.h>

#include "base/arena.h"
#include "base/dec.h"
#include "schema/format.h"
#include "parser/re_tree.h"
#include "parser/uri.h"
#include "base/utf8.h"

/* --- bytes ------------------------------------------------------------- */

static bool
is_digit(unsigned char c)
{
	return c >= '0' && c <= '9';
}

static bool
is_alpha(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static bool
is_hex(unsigned char c)
{
	return gpt_hex_value(c) >= 0;
}

/*
 * Character classes for the loops that test every byte of a value: one
 * table lookup instead of a chain of comparisons.  Bits: FC_HEX (HEXDIG),
 * FC_ATEXT (RFC 5322 3.2.3 atext), FC_LDH (RFC 1123 letter, digit or
 * hyphen); nothing at or above 0x80.
 */
enum { FC_HEX = 0x04, FC_ATEXT = 0x08, FC_LDH = 0x10 };

static const unsigned char fclass[256] = {
    /*       0  1  2  3  4  5  6  7  8  9  A  B  C  D  E  F */
    /* 0x */ 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    /* 1x */ 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    /* 2x */ 0, 8, 0, 8, 8, 8, 8, 8, 0, 0, 8, 8, 0, 24, 0, 8,
    /* 3x */ 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 0, 0, 0, 8, 0, 8,
    /* 4x */ 0, 28, 28, 28, 28, 28, 28, 24, 24, 24, 24, 24, 24, 24, 24, 24,
    /* 5x */ 24, 24, 24, 24, 24, 24, 24, 24, 24, 24, 24, 0, 0, 0, 8, 8,
    /* 6x */ 8, 28, 28, 28, 28, 28, 28, 24, 24, 24, 24, 24, 24, 24, 24, 24,
    /* 7x */ 24, 24, 24, 24, 24, 24, 24, 24, 24, 24, 24, 8, 8, 8, 8, 0,
    /* 8x..Fx: 0 */
};

/* The classes every one of the len bytes at p has (FC_* bits), and in
 * *high whether one of them is 0x80 or above. */
static unsigned
classes_of(const char *p, size_t len, bool *high)
{
	unsigned all = FC_HEX | FC_ATEXT | FC_LDH;
	unsigned char any = 0;
	size_t i;

	for (i = 0; i < len; i++) {
		all &= fclass[(unsigned char)p[i]];
		any |= (unsigned char)p[i];
	}
	*high = (any & 0x80) != 0;
	return all;
}

static unsigned char
lower(unsigned char c)
{
	return c >= 'A' && c <= 'Z' ? (unsigned char)(c - 'A' + 'a') : c;
}

/* The value of the n ASCII digits at p (n <= 4), or -1. */
static int
digits(const char *p, size_t n)
{
	int v = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		if (!is_digit((unsigned char)p[i]))
			return -1;
		v = v * 10 + (p[i] - '0');
	}
	return v;
}

/* --- RFC 3339: date, time, date-time ----------------------------------- */

static bool
is_leap_year(int y)
{
	return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

/*
 * full-date = date-fullyear "-" date-month "-" date-mday (section 5.6),
 * with mday bounded by month and year (section 5.7).  Hits on
 * "1900-02-29" (1900 is no leap year), "2021-04-31", "2021-1-01".
 */
static bool
check_date(const char *p, size_t len)
{
	static const int mdays[12] = {
	    31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
	int y, m, d;

	if (len != 10 || p[4] != '-' || p[7] != '-')
		return false;
	y = digits(p, 4);
	m = digits(p + 5, 2);
	d = digits(p + 8, 2);
	if (y < 0 || m < 1 || m > 12 || d < 1 || d > mdays[m - 1])
		return false;
	return !(m == 2 && d == 29 && !is_leap_year(y));
}

/*
 * full-time = partial-time time-offset (section 5.6):
 * HH ":" MM ":" SS [ "." 1*DIGIT ] ( "Z" / ( "+" / "-" ) HH ":" MM ).
 * "T" and "Z" may be lower case (section 5.6, NOTE).  Second 60 is a leap
 * second only at 23:59 UTC once the offset is taken off (section 5.7):
 * "23:59:60Z" and "15:59:60-08:00" conform, "23:59:60+01:00" does not.
 * Hits on "24:00:00Z", "12:00:00" (no offset), "08:30:06+0130".
 */
static bool
check_time(const char *p, size_t len)
{
	int h, m, s, oh = 0, om = 0, sign = 0, utc;
	size_t i = 8;

	if (len < 9 || p[2] != ':' || p[5] != ':')
		return false;
	h = digits(p, 2);
	m = digits(p + 3, 2);
	s = digits(p + 6, 2);
	if (h < 0 || h > 23 || m < 0 || m > 59 || s < 0 || s > 60)
		return false;
	if (p[i] == '.') {
		size_t start = ++i;

		while (i < len && is_digit((unsigned char)p[i]))
			i++;
		if (i == start)
			return false; /* "12:00:00.Z" */
	}
	if (i >= len)
		return false;
	if (p[i] == 'Z' || p[i] == 'z') {
		if (i + 1 != len)
			return false; /* "01:02:03Z+00:30" */
	} else if (p[i] == '+' || p[i] == '-') {
		sign = p[i] == '+' ? 1 : -1;
		if (len - i != 6 || p[i + 3] != ':')
			return false;
		oh = digits(p + i + 1, 2);
		om = digits(p + i + 4, 2);
		if (oh < 0 || oh > 23 || om < 0 || om > 59)
			return false; /* "01:02:03+24:00" */
	} else {
		return false; /* "08:30:06 PST" */
	}
	if (s == 60) {
		utc = h * 60 + m - sign * (oh * 60 + om);
		utc = ((utc % 1440) + 1440) % 1440;
		if (utc != 23 * 60 + 59)
			return false; /* "22:59:60Z" */
	}
	return true;
}

/* date-time = full-date "T" full-time.  Hits on "2024-02-29 12:00:00Z". */
static bool
check_date_time(const char *p, size_t len)
{
	if (len < 11 || (p[10] != 'T' && p[10] != 't'))
		return false;
	return check_date(p, 10) && check_time(p + 11, len - 11);
}

/*
 * duration (appendix A):
 *   duration = "P" (dur-date / dur-time / dur-week)
 *   dur-date = (dur-day / dur-month / dur-year) [dur-time]
 *   dur-time = "T" (dur-hour / dur-minute / dur-second)
 * and each unit may be followed only by the next smaller one: Y M D,
 * H M S, with no gap ("P1Y2D" and "PT1H2S" do not conform).  W stands
 * alone.  Digits only: no sign, fraction or exponent.
 */
static bool
dur_units(const char *p, size_t len, size_t *i, const char *units)
{
	int next = -1; /* the index in units the last element had */
	int count = 0;

	while (*i < len && p[*i] != 'T') {
		size_t start = *i;
		const char *u;

		while (*i < len && is_digit((unsigned char)p[*i]))
			(*i)++;
		/* "P1", "P-1D", "PT0.5S" */
		if (*i == start || *i == len)
			return false;
		u = strchr(units, p[*i]);
		if (p[*i] == '\0' || u == NULL)
			return false; /* "P2S", "PT1D" */
		if (next >= 0 && (int)(u - units) != next + 1)
			return false; /* "P2D1Y", "P1Y2D" */
		next = (int)(u - units);
		(*i)++;
		count++;
	}
	return count > 0;
}

static bool
check_duration(const char *p, size_t len)
{
	size_t i = 1;

	if (len < 3 || p[0] != 'P')
		return false;
	if (p[len - 1] == 'W') {
		/* dur-week = 1*DIGIT "W"; hits on "P1Y2W", "P1WT1H" */
		for (i = 1; i < len - 1; i++)
			if (!is_digit((unsigned char)p[i]))
				return false;
		return true;
	}
	if (p[1] != 'T' && !dur_units(p, len, &i, "YMD"))
		return false;
	if (i == len)
		return true;
	i++; /* "T" */
	/* "P1YT", "PT" */
	if (!dur_units(p, len, &i, "HMS"))
		return false;
	return i == len; /* "PT1HT1M" */
}

/* --- hostnames (RFC 1123, RFC 5890-5893) -------------------------------- */

/* The longest name in its A-label form (RFC 1034 3.1: 255 octets on the
 * wire, so 253 in text without the final dot). */
#define HOST_NAME_MAX_TEXT 253
#define HOST_LABEL_MAX 63
/* The longest U-label accepted, in UTF-8 bytes (its A-label is at most 63
 * octets, and no code point of a valid U-label takes more than 4 bytes
 * while costing less than one octet of punycode). */
#define HOST_ULABEL_MAX 252

/*
 * An RFC 1123 section 2.1 label: letters, digits and hyphens, 1 to 63 of
 * them, not starting or ending with a hyphen; a reserved LDH label (a
 * hyphen in both positions 3 and 4, RFC 5890 section 2.3.1) only as an
 * A-label ("xn--"), which the caller checks.  Hits on "-a", "a-", "a_b",
 * and on 64 letters.
 */
static bool
ldh_label(const char *p, size_t len)
{
	bool high;

	if (len == 0 || len > HOST_LABEL_MAX || p[0] == '-' ||
	    p[len - 1] == '-')
		return false;
	return (classes_of(p, len, &high) & FC_LDH) != 0;
}

static bool
is_rldh(const char *p, size_t len)
{
	return len >= 4 && p[2] == '-' && p[3] == '-';
}

static bool
is_xn(const char *p, size_t len)
{
	return is_rldh(p, len) && lower((unsigned char)p[0]) == 'x' &&
	       lower((unsigned char)p[1]) == 'n';
}

/* A code point of a right-to-left script block (see the file head). */
static bool
is_rtl(uint32_t cp)
{
	return (cp >= 0x0590 && cp <= 0x08FF) ||
	       (cp >= 0xFB1D && cp <= 0xFDFF) ||
	       (cp >= 0xFE70 && cp <= 0xFEFF) ||
	       (cp >= 0x10800 && cp <= 0x10FFF) ||
	       (cp >= 0x1E800 && cp <= 0x1EFFF);
}

/*
 * What RFC 5893's Bidi rule 4 needs of a label: whether it has a
 * right-to-left code point, a European number (EN) and an Arabic number
 * (AN), by the Bidi_Class values of DerivedBidiClass.txt for the code
 * points an IDNA2008 label can hold (EN: ASCII and Extended Arabic-Indic
 * digits, and the superscripts, fullwidth and mathematical digits that
 * other rules refuse anyway; AN: Arabic-Indic digits and separators, the
 * Arabic number signs, Hanifi Rohingya digits, Rumi numerals).
 */
enum { BIDI_RTL = 1, BIDI_EN = 2, BIDI_AN = 4 };

static unsigned
bidi_class_bits(uint32_t cp)
{
	unsigned bits = is_rtl(cp) ? BIDI_RTL : 0;

	if ((cp >= '0' && cp <= '9') || (cp >= 0x06F0 && cp <= 0x06F9) ||
	    cp == 0x00B2 || cp == 0x00B3 || cp == 0x00B9 || cp == 0x2070 ||
	    (cp >= 0x2074 && cp <= 0x2079) || (cp >= 0x2080 && cp <= 0x2089) ||
	    (cp >= 0x2488 && cp <= 0x249B) || (cp >= 0xFF10 && cp <= 0xFF19) ||
	    (cp >= 0x1D7CE && cp <= 0x1D7FF) ||
	    (cp >= 0x1F100 && cp <= 0x1F10A) ||
	    (cp >= 0x1FBF0 && cp <= 0x1FBF9))
		bits |= BIDI_EN;
	if ((cp >= 0x0600 && cp <= 0x0605) || (cp >= 0x0660 && cp <= 0x0669) ||
	    cp == 0x066B || cp == 0x066C || cp == 0x06DD || cp == 0x0890 ||
	    cp == 0x0891 || cp == 0x08E2 || (cp >= 0x10D30 && cp <= 0x10D39) ||
	    (cp >= 0x10E60 && cp <= 0x10E7E))
		bits |= BIDI_AN | BIDI_RTL;
	return bits;
}

/* RFC 5893 section 2, rule 4: "In an RTL label, if an EN is present, no
 * AN may be present, and vice versa" ("\xd8\xa7\xd9\xa1" "1"). */
static bool
bidi_rule4(unsigned seen)
{
	return !((seen & BIDI_RTL) && (seen & BIDI_EN) && (seen & BIDI_AN));
}

/*
 * RFC 3492 punycode, decoding only as far as needed to see the label's
 * bidi classes (BIDI_* bits in *seen; validity is libidn2's).  false
 * when the text does not decode.
 */
static bool
puny_bidi(const char *p, size_t len, unsigned *seen)
{
	enum { BASE = 36, TMIN = 1, TMAX = 26, SKEW = 38, DAMP = 700 };
	uint32_t n = 128, i = 0, bias = 72, out = 0;
	size_t b = 0, k, in;
	bool first = true;

	*seen = 0;
	for (k = 0; k < len; k++)
		if (p[k] == '-')
			b = k;
	for (k = 0; k < b; k++)
		*seen |= bidi_class_bits((unsigned char)p[k]);
	out = (uint32_t)b;
	in = b > 0 ? b + 1 : 0;
	while (in < len) {
		uint32_t oldi = i, w = 1, t, delta;
		uint32_t kk;

		for (kk = BASE;; kk += BASE) {
			unsigned char c;
			uint32_t digit;

			if (in >= len)
				return false;
			c = lower((unsigned char)p[in++]);
			if (c >= 'a' && c <= 'z')
				digit = c - 'a';
			else if (c >= '0' && c <= '9')
				digit = c - '0' + 26;
			else
				return false;
			if (digit > (UINT32_MAX - i) / w)
				return false;
			i += digit * w;
			t = kk <= bias          ? TMIN
			    : kk >= bias + TMAX ? TMAX
			                        : kk - bias;
			if (digit < t)
				break;
			if (w > UINT32_MAX / (BASE - t))
				return false;
			w *= BASE - t;
		}
		/* adapt (section 6.1) */
		delta = first ? (i - oldi) / DAMP : (i - oldi) / 2;
		first = false;
		delta += delta / (out + 1);
		for (kk = 0; delta > ((BASE - TMIN) * TMAX) / 2; kk += BASE)
			delta /= BASE - TMIN;
		bias = kk + (BASE - TMIN + 1) * delta / (delta + SKEW);
		if (i / (out + 1) > UINT32_MAX - n)
			return false;
		n += i / (out + 1);
		i %= out + 1;
		if (n > 0x10FFFF)
			return false;
		*seen |= bidi_class_bits(n);
		out++;
		i++;
	}
	return true;
}

/*
 * One label of an internationalized name (idn set) or of a host name:
 * its A-label length goes to *alen, and *rtl tells a right-to-left label.
 */
static bool
host_label(const char *p, size_t len, bool idn, size_t *alen, bool *rtl)
{
	char buf[HOST_ULABEL_MAX + 1];
	uint8_t *out = NULL;
	bool ascii, high;
	unsigned cls = classes_of(p, len, &high), seen = 0;
	size_t i;
	int rc;

	*rtl = false;
	ascii = !high;
	if (ascii && !is_xn(p, len)) {
		/* ldh_label, from the classes already read */
		*alen = len;
		return len > 0 && len <= HOST_LABEL_MAX && p[0] != '-' &&
		       p[len - 1] != '-' && (cls & FC_LDH) && !is_rldh(p, len);
	}
	/* "caf\xc3\xa9.example" as a hostname: ASCII only */
	if (!ascii && !idn)
		return false;
	if (len == 0 || len > HOST_ULABEL_MAX ||
	    (ascii && len > HOST_LABEL_MAX))
		return false;
	for (i = 0; i < len; i++)
		buf[i] = ascii ? (char)lower((unsigned char)p[i]) : p[i];
	buf[len] = '\0';
	if (ascii) {
		/* an A-label must decode to a valid U-label (RFC 5891 5.4):
		 * "xn--X" (bad punycode), "XN--aa---o47jg78q" ("--" in 3-4) */
		if (!ldh_label(buf, len) || !puny_bidi(buf + 4, len - 4, &seen))
			return false;
		rc = idn2_register_u8(NULL, (const uint8_t *)buf, &out, 0);
	} else {
		const unsigned char *s = (const unsigned char *)p;
		uint32_t cp;
		size_t n;

		for (i = 0; i < len; i += n) {
			n = utf8_decode(s + i, len - i, &cp);
			if (n == 0)
				return false;
			seen |= bidi_class_bits(cp);
		}
		/* no IDN2_NFC_INPUT: a U-label must already be in NFC */
		rc = idn2_register_u8((const uint8_t *)buf, NULL, &out, 0);
	}
	if (rc != IDN2_OK || out == NULL) {
		idn2_free(out);
		return false;
	}
	*rtl = (seen & BIDI_RTL) != 0;
	if (!bidi_rule4(seen)) {
		idn2_free(out);
		return false;
	}
	*alen = strlen((const char *)out);
	idn2_free(out);
	return *alen <= HOST_LABEL_MAX;
}

/*
 * The end of the label that starts at p + i: the next label separator's
 * offset (its length in *seplen), or len.  A host name separates labels
 * by "."; an internationalized one also by U+3002 IDEOGRAPHIC FULL STOP,
 * U+FF0E FULLWIDTH FULL STOP and U+FF61 HALFWIDTH IDEOGRAPHIC FULL STOP
 * (RFC 3490 section 3.1, UTS #46 section 4: "a\xe3\x80\x82b").
 */
static size_t
label_end(const char *p, size_t i, size_t len, bool idn, size_t *seplen)
{
	const unsigned char *s = (const unsigned char *)p;

	for (; i < len; i++) {
		if (s[i] == '.') {
			*seplen = 1;
			return i;
		}
		if (idn && i + 2 < len &&
		    ((s[i] == 0xE3 && s[i + 1] == 0x80 && s[i + 2] == 0x82) ||
		        (s[i] == 0xEF && s[i + 1] == 0xBC &&
		            s[i + 2] == 0x8E) ||
		        (s[i] == 0xEF && s[i + 1] == 0xBD &&
		            s[i + 2] == 0xA1))) {
			*seplen = 3;
			return i;
		}
	}
	*seplen = 0;
	return len;
}

/* A host name: labels separated by "." (and the ideographic full stops
 * when idn; no empty label, so no final dot), at most 253 octets in
 * A-label form.  Hits on "", ".", "a..b". */
static bool
host_name(const char *p, size_t len, bool idn)
{
	size_t i = 0, total = 0;
	bool bidi = false, digit_start = false;

	if (len == 0)
		return false;
	for (;;) {
		size_t seplen;
		size_t end = label_end(p, i, len, idn, &seplen), alen = 0;
		bool rtl;

		if (!host_label(p + i, end - i, idn, &alen, &rtl))
			return false;
		if (rtl)
			bidi = true;
		if (is_digit((unsigned char)p[i]))
			digit_start = true;
		total += alen + (i > 0);
		if (total > HOST_NAME_MAX_TEXT)
			return false;
		if (seplen == 0)
			break;
		i = end + seplen;
	}
	/* RFC 5893 section 2, rule 1, for every label of a bidi domain:
	 * "1a.\xd7\x90\xd7\x91" */
	return !(bidi && digit_start);
}

static bool
check_hostname(const char *p, size_t len)
{
	return host_name(p, len, false);
}

static bool
check_idn_hostname(const char *p, size_t len)
{
	return host_name(p, len, true);
}

/* --- email (RFC 5321 section 4.1.2, RFC 5322, RFC 6531 section 3.3) --- */

#define EMAIL_LOCAL_MAX 64   /* RFC 5321 4.5.3.1.1 */
#define EMAIL_DOMAIN_MAX 255 /* RFC 5321 4.5.3.1.2 */

/* atext (RFC 5322 3.2.3) */
static bool
is_atext(unsigned char c)
{
	return (fclass[c] & FC_ATEXT) != 0;
}

/*
 * Local-part = Dot-string / Quoted-string.  Dot-string = Atom *("."
 * Atom); Quoted-string = DQUOTE *(qtextSMTP / "\" %d32-126) DQUOTE.  With
 * RFC 6531 (idn set) both take UTF8-non-ascii as well.  Hits on ".a",
 * "a.", "a..b", "a b", "\"a\\\x01\"".
 */
static bool
email_local(const char *p, size_t len, bool idn)
{
	const unsigned char *s = (const unsigned char *)p;
	size_t i;

	if (len == 0 || len > EMAIL_LOCAL_MAX)
		return false;
	if (s[0] == '"') {
		if (len < 2 || s[len - 1] != '"')
			return false;
		for (i = 1; i < len - 1; i++) {
			if (s[i] == '\\') {
				if (i + 1 >= len - 1 || s[i + 1] < 32 ||
				    s[i + 1] > 126)
					return false;
				i++;
			} else if (s[i] >= 0x80) {
				if (!idn)
					return false;
			} else if (s[i] < 32 || s[i] > 126 || s[i] == '"') {
				return false;
			}
		}
		return true;
	}
	for (i = 0; i < len; i++) {
		if (s[i] == '.') {
			if (i == 0 || i == len - 1 || s[i - 1] == '.')
				return false;
		} else if (s[i] >= 0x80) {
			if (!idn)
				return false;
		} else if (!is_atext(s[i])) {
			return false;
		}
	}
	return true;
}

/*
 * address-literal = "[" ( IPv4-address-literal / IPv6-address-literal /
 * General-address-literal ) "]".  Hits on "[127.0.0.300]", "[::1]"
 * (IPv6 needs its tag), "[x:]".
 */
static bool
email_literal(const char *p, size_t len)
{
	size_t i, colon;

	if (len < 3 || p[0] != '[' || p[len - 1] != ']')
		return false;
	p++;
	len -= 2;
	if (uri_is_ipv4(p, len))
		return true;
	for (colon = 0; colon < len && p[colon] != ':'; colon++)
		;
	if (colon == len || colon == 0)
		return false;
	if (colon == 4 && lower((unsigned char)p[0]) == 'i' &&
	    lower((unsigned char)p[1]) == 'p' &&
	    lower((unsigned char)p[2]) == 'v' && p[3] == '6')
		return uri_is_ipv6(p + 5, len - 5);
	/* Standardized-tag = Ldh-str; dcontent = %d33-90 / %d94-126 */
	if (!ldh_label(p, colon) || colon + 1 == len)
		return false;
	for (i = colon + 1; i < len; i++) {
		unsigned char c = (unsigned char)p[i];

		if (c < 33 || c > 126 || (c >= 91 && c <= 93))
			return false;
	}
	return true;
}

static bool
email(const char *p, size_t len, bool idn)
{
	const char *at = NULL;
	size_t i, dlen;
	bool quoted = false;

	/* the last "@" outside a quoted local part ends it; without a
	 * quote, simply the last "@" */
	if (memchr(p, '"', len) == NULL) {
		for (i = len; i > 0 && at == NULL; i--)
			if (p[i - 1] == '@')
				at = p + i - 1;
	} else {
		for (i = 0; i < len; i++) {
			if (p[i] == '"')
				quoted = !quoted;
			else if (p[i] == '\\' && quoted)
				i++;
			else if (p[i] == '@' && !quoted)
				at = p + i;
		}
	}
	if (at == NULL)
		return false; /* "2962" */
	dlen = len - (size_t)(at - p) - 1;
	if (!email_local(p, (size_t)(at - p), idn) || dlen == 0 ||
	    dlen > EMAIL_DOMAIN_MAX)
		return false;
	if (at[1] == '[')
		return email_literal(at + 1, dlen);
	return host_name(at + 1, dlen, idn);
}

static bool
check_email(const char *p, size_t len)
{
	return email(p, len, false);
}

static bool
check_idn_email(const char *p, size_t len)
{
	return email(p, len, true);
}

/* --- IP addresses ------------------------------------------------------ */

/* RFC 2673 3.2 dotted-quad, without leading zeros: "1.2.3.04" refused. */
static bool
check_ipv4(const char *p, size_t len)
{
	return uri_is_ipv4(p, len);
}

/* RFC 4291 2.2 text forms, no zone id: "fe80::1%eth0" refused. */
static bool
check_ipv6(const char *p, size_t len)
{
	return uri_is_ipv6(p, len);
}

/* --- URIs and IRIs (RFC 3986, RFC 3987) --------------------------------- */

static bool
check_uri(const char *p, size_t len)
{
	return uri_valid(p, len, URI_ABSOLUTE);
}

static bool
check_uri_reference(const char *p, size_t len)
{
	return uri_valid(p, len, 0);
}

static bool
check_iri(const char *p, size_t len)
{
	return uri_valid(p, len, URI_IRI | URI_ABSOLUTE);
}

static bool
check_iri_reference(const char *p, size_t len)
{
	return uri_valid(p, len, URI_IRI);
}

/* --- uuid (RFC 9562 section 4) ------------------------------------------ */

/* 8-4-4-4-12 hex digits, either case; every version and variant (the
 * Nil and Max UUIDs included).  Hits on "2eb8aa08aa984b28a4a4-ad5a3aa6c7f",
 * "2eb8aa08-aa98-4b28-a4a4-ad5a3aa6c7fg". */
static bool
check_uuid(const char *p, size_t len)
{
	/* the five groups of hex digits: where each starts, how long */
	static const unsigned char group[5][2] = {
	    {0, 8}, {9, 4}, {14, 4}, {19, 4}, {24, 12}};
	unsigned all = FC_HEX;
	size_t g, i;

	if (len != 36 || p[8] != '-' || p[13] != '-' || p[18] != '-' ||
	    p[23] != '-')
		return false;
	for (g = 0; g < 5; g++)
		for (i = group[g][0]; i < (size_t)group[g][0] + group[g][1];
		     i++)
			all &= fclass[(unsigned char)p[i]];
	return all != 0;
}

/* --- uri-template (RFC 6570 section 2) ------------------------------------ */

/* varchar = ALPHA / DIGIT / "_" / pct-encoded; its length at p, or 0. */
static size_t
varchar(const char *p, size_t len)
{
	unsigned char c;

	if (len == 0)
		return 0;
	c = (unsigned char)p[0];
	if (is_alpha(c) || is_digit(c) || c == '_')
		return 1;
	if (c == '%' && len >= 3 && is_hex((unsigned char)p[1]) &&
	    is_hex((unsigned char)p[2]))
		return 3;
	return 0;
}

/*
 * expression = "{" [ operator ] variable-list "}" from just after "{" to
 * just before "}" (len bytes).  varspec = varname [ ":" max-length / "*" ],
 * varname = varchar *( ["."] varchar ), max-length = 1-9999 without a
 * leading zero.  Hits on "{}", "{a,}", "{a..b}", "{a:0}", "{a:10000}",
 * "{a*:3}", "{ a}".
 */
static bool
template_expr(const char *p, size_t len)
{
	size_t i = 0;

	if (len > 0 && strchr("+#./;?&=,!@|", p[0]) != NULL && p[0] != '\0')
		i = 1;
	for (;;) {
		size_t n = varchar(p + i, len - i);

		if (n == 0)
			return false;
		i += n;
		for (;;) {
			size_t j = i < len && p[i] == '.' ? i + 1 : i;

			n = varchar(p + j, len - j);
			if (n == 0) {
				if (j != i)
					return false; /* "{a.}", "{a..b}" */
				break;
			}
			i = j + n;
		}
		if (i < len && p[i] == '*') {
			i++;
		} else if (i < len && p[i] == ':') {
			size_t start = ++i;

			if (i >= len || p[i] < '1' || p[i] > '9')
				return false;
			while (i < len && is_digit((unsigned char)p[i]) &&
			       i - start < 4)
				i++;
		}
		if (i == len)
			return true;
		if (p[i] != ',')
			return false;
		i++;
	}
}

/*
 * URI-Template = *( literals / expression ).  literals: any character
 * but CTL, SP, DQUOTE, "%" (except in pct-encoded), "<", ">", "\", "^",
 * "`", "{", "|", "}", and beyond ASCII only ucschar and iprivate
 * (checked as an IRI query would be).  The apostrophe is a literal: RFC
 * 6570's ABNF leaves %x27 out, and its verified erratum 6937 puts it back
 * (%x26-3B), as the RFC's own example "'{var}'" needs.  Hits on "{a",
 * "a}", "%zz", "a b".
 */
static bool
check_uri_template(const char *p, size_t len)
{
	const unsigned char *s = (const unsigned char *)p;
	size_t i = 0;

	while (i < len) {
		unsigned char c = s[i];

		if (c == '{') {
			const char *close = memchr(p + i + 1, '}', len - i - 1);
			size_t end;

			if (close == NULL)
				return false;
			end = (size_t)(close - p);
			if (!template_expr(p + i + 1, end - i - 1))
				return false;
			i = end + 1;
		} else if (c == '%') {
			if (varchar(p + i, len - i) != 3)
				return false;
			i += 3;
		} else if (c >= 0x80) {
			uint32_t cp;
			size_t n = utf8_decode(s + i, len - i, &cp);

			/* "\xc2\x80" (U+0080 is no ucschar) */
			if (n == 0 ||
			    !(uri_is_ucschar(cp) || uri_is_iprivate(cp)))
				return false;
			i += n;
		} else {
			switch (c) {
			case '"':
			case '<':
			case '>':
			case '\\':
			case '^':
			case '`':
			case '|':
			case '}':
				return false;
			default:
				if (c <= 0x20 || c == 0x7f)
					return false;
			}
			i++;
		}
	}
	return true;
}

/* --- JSON pointers ---------------------------------------------------- */

/* RFC 6901 section 3: "" or ( "/" *( unescaped / "~0" / "~1" ) )*.
 * Hits on "a", "/~", "/~2". */
static bool
check_json_pointer(const char *p, size_t len)
{
	size_t i;

	if (len > 0 && p[0] != '/')
		return false;
	for (i = 0; i < len; i++)
		if (p[i] == '~' &&
		    (i + 1 >= len || (p[i + 1] != '0' && p[i + 1] != '1')))
			return false;
	return true;
}

/* non-negative-integer = "0" / %x31-39 *DIGIT; its length, or 0. */
static size_t
nonneg_int(const char *p, size_t len)
{
	size_t i = 0;

	if (len == 0 || !is_digit((unsigned char)p[0]))
		return 0;
	if (p[0] == '0')
		return 1;
	while (i < len && is_digit((unsigned char)p[i]))
		i++;
	return i;
}

/*
 * relative-json-pointer (draft-bhutton-relative-json-pointer-00 section
 * 3): non-negative-integer [ index-manipulation ] ( "#" / json-pointer ),
 * index-manipulation = ( "+" / "-" ) non-negative-integer.  Hits on
 * "/a" (no prefix), "01/a", "0##", "-1/a", "0+", "0-01", "1#/a".
 */
static bool
check_relative_json_pointer(const char *p, size_t len)
{
	size_t i = nonneg_int(p, len), n;

	if (i == 0)
		return false;
	if (i < len && (p[i] == '+' || p[i] == '-')) {
		n = nonneg_int(p + i + 1, len - i - 1);
		if (n == 0)
			return false;
		i += 1 + n;
	}
	if (i < len && p[i] == '#')
		return i + 1 == len;
	if (i < len && is_digit((unsigned char)p[i]))
		return false; /* "01" */
	return check_json_pointer(p + i, len - i);
}

/* --- regex (ECMA-262, by the pattern parser) --------------------------- */

/* ECMA-262 syntax by the validator's own pattern parser, without
 * compiling (see re_tree_is_valid_syntax).  Hits on "^(abc]", "a{2,1}". */
static bool
check_regex(const char *p, size_t len)
{
	return re_tree_is_valid_syntax(p, len);
}

/* --- OpenAPI ---------------------------------------------------------- */

/*
 * A bound of the numeric formats, parsed once from its decimal text on
 * first use (the text of DBL_LIMIT has 309 digits: parsing it per value
 * would cost more than the comparison).  Single-threaded, as the process.
 */
struct bound {
	const char *text;
	struct dec d;
	bool ready;
};

static const struct dec *
bound_dec(struct bound *b)
{
	if (!b->ready) {
		if (dec_parse(b->text, strlen(b->text), &b->d) == -1)
			return NULL; /* never: the texts are in range */
		b->ready = true;
	}
	return &b->d;
}

/* JSON number text p written as a plain integer of at most 18 digits,
 * as *v: the common case, which needs no decimal. */
static bool
small_int(const char *p, size_t len, int64_t *v)
{
	size_t i = p[0] == '-';
	int64_t n = 0;

	if (len == 0 || len - i == 0 || len - i > 18)
		return false;
	for (; i < len; i++) {
		if (!is_digit((unsigned char)p[i]))
			return false; /* "1.5", "1e3" */
		n = n * 10 + (p[i] - '0');
	}
	*v = p[0] == '-' ? -n : n;
	return true;
}

/* The JSON number text p is an integer in [lo, hi] (exact decimals). */
static bool
int_in(const char *p, size_t len, struct bound *lo, struct bound *hi)
{
	const struct dec *dlo = bound_dec(lo), *dhi = bound_dec(hi);
	struct dec v;

	if (dlo == NULL || dhi == NULL || dec_parse(p, len, &v) == -1)
		return false; /* 1e99999999999999: out of every range */
	if (!dec_is_integer(&v))
		return false; /* 1.5 */
	return dec_cmp(&v, dlo) >= 0 && dec_cmp(&v, dhi) <= 0;
}

/* Hits on 2147483648, -2147483649, 1.5. */
static bool
check_int32(const char *p, size_t len)
{
	static struct bound lo = {"-2147483648", {0}, false},
	                    hi = {"2147483647", {0}, false};
	int64_t v;

	if (small_int(p, len, &v))
		return v >= INT32_MIN && v <= INT32_MAX;
	return int_in(p, len, &lo, &hi);
}

static bool
check_int64(const char *p, size_t len)
{
	static struct bound lo = {"-9223372036854775808", {0}, false},
	                    hi = {"9223372036854775807", {0}, false};
	int64_t v;

	if (small_int(p, len, &v))
		return true;
	return int_in(p, len, &lo, &hi);
}

/*
 * IEEE 754 binary32 and binary64, "finite and within the type's range":
 * the value must convert to a finite float (double), so |x| must be
 * below the overflow threshold, the largest finite value plus half its
 * last place: (2 - 2^-24) * 2^127 and (2 - 2^-53) * 2^1023, exactly.  At
 * or above it, round-to-nearest gives infinity (IEEE 754 section 7.4).
 * The largest finite float as programs print it, 3.4028235e38, is thus a
 * float, as it must be; 3.4028236e38 and 1.8e308 are not.
 */
#define FLT_LIMIT_TEXT "340282356779733661637539395458142568448"
#define DBL_LIMIT_TEXT                                                         \
	"17976931348623158079372897140530341507993413271003782693617377898044" \
	"49682927647509466490179775872070963302864166928879109465555478519404" \
	"02630657488671505820681908902000708383676273854845817711531764475730" \
	"27006985557136695962284291481986083493647529271907416844436551070434" \
	"2711559699508093042880177904174497792"

/*
 * The decimal exponent of the first significant digit of JSON number
 * text p (|value| in [10^e, 10^(e+1))) as *e, or *zero when the value is
 * 0: false when p is no plain JSON number or its exponent has more than
 * 9 digits (the caller then asks dec).
 */
static bool
lead_exp(const char *p, size_t len, long *e, bool *zero)
{
	size_t i = len > 0 && p[0] == '-', start = i, f;
	long lead = 0, x = 0;
	bool found = false, xneg = false;
	unsigned nx = 0;

	while (i < len && is_digit((unsigned char)p[i])) {
		if (!found && p[i] != '0') {
			found = true;
			lead =
			    (long)i; /* fixed below, once the length is known */
		}
		i++;
	}
	if (i == start)
		return false;
	if (found)
		lead = (long)(i - 1) - lead;
	if (i < len && p[i] == '.') {
		for (f = ++i; i < len && is_digit((unsigned char)p[i]); i++)
			if (!found && p[i] != '0') {
				found = true;
				lead = -(long)(i - f + 1);
			}
		if (i == f)
			return false;
	}
	if (i < len && (p[i] == 'e' || p[i] == 'E')) {
		if (++i < len && (p[i] == '+' || p[i] == '-'))
			xneg = p[i++] == '-';
		for (; i < len && is_digit((unsigned char)p[i]); i++) {
			if (++nx > 9)
				return false; /* 1e99999999999: dec decides */
			x = x * 10 + (p[i] - '0');
		}
		if (nx == 0)
			return false;
	}
	if (i != len)
		return false;
	*zero = !found;
	*e = lead + (xneg ? -x : x);
	return true;
}

/*
 * |p| < limit for JSON number text p whose first significant digit has
 * the limit's decade (the limit is an integer, its text its digits):
 * the significant digits of both compared in turn, exactly.
 */
static bool
digits_below(const char *p, size_t len, const char *limit)
{
	size_t i = 0, k = 0, n = strlen(limit);

	/* skip the sign and the zeros before the first significant digit */
	while (i < len && (p[i] == '-' || p[i] == '0' || p[i] == '.'))
		i++;
	for (; i < len && p[i] != 'e' && p[i] != 'E'; i++) {
		if (p[i] == '.')
			continue;
		if (k == n)
			break; /* more digits than the limit has */
		if (p[i] != limit[k])
			return p[i] < limit[k];
		k++;
	}
	if (k < n) {
		/* p's digits end: below unless the limit's rest is zeros */
		for (; k < n; k++)
			if (limit[k] != '0')
				return true;
		return false;
	}
	/* equal so far: above when a further digit of p is not 0 */
	for (; i < len && p[i] != 'e' && p[i] != 'E'; i++)
		if (p[i] != '.' && p[i] != '0')
			return false;
	return false; /* equal: not strictly below */
}

/* The JSON number text p is strictly inside (-limit, limit), where
 * 10^elimit <= limit < 10^(elimit + 1): a value of another decade is
 * decided by its decade, one of that decade digit by digit. */
static bool
num_below(const char *p, size_t len, struct bound *limit, long elimit)
{
	const struct dec *lim;
	struct dec v;
	long e;
	bool zero;

	if (lead_exp(p, len, &e, &zero)) {
		if (zero || e != elimit)
			return zero || e < elimit; /* 1.5, 1e-45; 1e39 */
		/* 3.4028235e38, 3.4028236e38 */
		return digits_below(p, len, limit->text);
	}
	lim = bound_dec(limit);

	if (lim == NULL || dec_parse(p, len, &v) == -1)
		return false; /* 1e99999999999999 */
	v.neg = false;
	return dec_cmp(&v, lim) < 0;
}

static bool
check_float(const char *p, size_t len)
{
	static struct bound limit = {FLT_LIMIT_TEXT, {0}, false};

	return num_below(p, len, &limit, 38);
}

static bool
check_double(const char *p, size_t len)
{
	static struct bound limit = {DBL_LIMIT_TEXT, {0}, false};

	return num_below(p, len, &limit, 308);
}

/*
 * base64 text (RFC 4648): the alphabet of section 4 (url false) or of
 * section 5 (url true), "=" padding to a multiple of 4 (required unless
 * pad_optional), and the pad bits after the last octet zero (section
 * 3.5) unless any_pad_bits.  Hits on "QQ" (padding required), "QR=="
 * (pad bits), "Q===", "QQ=A", "QQ==QQ==", "Q" (no octet ends there).
 */
static bool
b64_text(
    const char *p, size_t len, bool url, bool pad_optional, bool any_pad_bits)
{
	size_t i, n, pad = 0;
	int last = 0;

	while (pad < 2 && len > pad && p[len - 1 - pad] == '=')
		pad++;
	n = len - pad;
	if (pad > 0 || !pad_optional) {
		if (len % 4 != 0)
			return false;
	} else if (n % 4 == 1) {
		return false;
	}
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)p[i];

		if (c >= 'A' && c <= 'Z')
			last = c - 'A';
		else if (c >= 'a' && c <= 'z')
			last = c - 'a' + 26;
		else if (is_digit(c))
			last = c - '0' + 52;
		else if (c == (url ? '-' : '+'))
			last = 62;
		else if (c == (url ? '_' : '/'))
			last = 63;
		else
			return false;
	}
	if (any_pad_bits)
		return true;
	/* the bits after the last octet: 4 after 2 digits, 2 after 3 */
	if (n % 4 == 2)
		return (last & 0xF) == 0;
	if (n % 4 == 3)
		return (last & 0x3) == 0;
	return true;
}

/* byte: RFC 4648 section 4 base64, padded, pad bits zero (one text per
 * octet string, section 3.5). */
static bool
check_byte(const char *p, size_t len)
{
	return b64_text(p, len, false, false, false);
}

/* --- the OpenAPI Format Registry (spec.openapis.org/registry/format) ---- */

/* base64url: RFC 4648 section 5, the url-safe alphabet; the padding may
 * be left out (section 5: "the pad character ... can be avoided"), as
 * contentEncoding base64url reads it; pad bits zero.  Hits on "+/",
 * "QR", "Q". */
static bool
check_base64url(const char *p, size_t len)
{
	return b64_text(p, len, true, true, false);
}

/* char: "a single character", one Unicode code point.  Hits on "", "ab". */
static bool
check_char(const char *p, size_t len)
{
	uint32_t cp;

	return len > 0 &&
	       utf8_decode((const unsigned char *)p, len, &cp) == len;
}

/*
 * date-time-local (registry, after TOML 1.0's Local Date-Time): full-date
 * "T" partial-time of RFC 3339 5.6, no offset; TOML lets a space stand
 * for the "T".  A leap second (:60) is taken at any minute, since the
 * offset that would place it is not written.  Hits on
 * "2024-02-30T00:00:00", "2024-01-01T00:00:00Z", "2024-01-01T24:00:00".
 */
static bool
check_date_time_local(const char *p, size_t len)
{
	size_t i = 19;

	if (len < 19 || (p[10] != 'T' && p[10] != 't' && p[10] != ' '))
		return false;
	if (!check_date(p, 10) || p[13] != ':' || p[16] != ':' ||
	    digits(p + 11, 2) < 0 || digits(p + 11, 2) > 23 ||
	    digits(p + 14, 2) < 0 || digits(p + 14, 2) > 59 ||
	    digits(p + 17, 2) < 0 || digits(p + 17, 2) > 60)
		return false;
	if (i < len && p[i] == '.') {
		size_t start = ++i;

		while (i < len && is_digit((unsigned char)p[i]))
			i++;
		if (i == start)
			return false; /* "2024-01-01T00:00:00." */
	}
	return i == len;
}

/*
 * A decimal number's text as ISO/IEC 9075-2 (SQL) writes a signed numeric
 * literal: [ "+" / "-" ] ( digits [ "." [ digits ] ] / "." digits )
 * [ ( "E" / "e" ) [ "+" / "-" ] digits ], a superset of JSON's number.
 * What it scans: the decades of its first and last significant digits
 * (1.50e3: 3 and 2), or zero; wild when the exponent has more than 9
 * digits (no finite format holds such a value, unless it is zero).
 */
struct numtext {
	bool zero, wild;
	long lead, last;
};

static bool
num_scan(const char *p, size_t len, struct numtext *t)
{
	size_t i = 0, istart, iend, fstart = 0, fend = 0, k;
	long x = 0;
	unsigned nx = 0;
	bool xneg = false, found = false;

	memset(t, 0, sizeof(*t));
	if (i < len && (p[i] == '-' || p[i] == '+'))
		i++;
	istart = i;
	while (i < len && is_digit((unsigned char)p[i]))
		i++;
	iend = i;
	if (i < len && p[i] == '.') {
		fstart = ++i;
		while (i < len && is_digit((unsigned char)p[i]))
			i++;
		fend = i;
	}
	if (iend == istart && fend == fstart)
		return false; /* "", "-", ".", "e5" */
	if (i < len && (p[i] == 'e' || p[i] == 'E')) {
		if (++i < len && (p[i] == '+' || p[i] == '-'))
			xneg = p[i++] == '-';
		for (; i < len && is_digit((unsigned char)p[i]); i++)
			if (++nx <= 9)
				x = x * 10 + (p[i] - '0');
		if (nx == 0)
			return false; /* "1e" */
	}
	if (i != len)
		return false; /* "1.2.3", "1 " */
	for (k = istart; k < iend; k++)
		if (p[k] != '0') {
			if (!found)
				t->lead = (long)(iend - k) - 1;
			found = true;
			t->last = (long)(iend - k) - 1;
		}
	for (k = fstart; k < fend; k++)
		if (p[k] != '0') {
			if (!found)
				t->lead = -(long)(k - fstart + 1);
			found = true;
			t->last = -(long)(k - fstart + 1);
		}
	t->zero = !found;
	t->wild = nx > 9 && found;
	if (xneg)
		x = -x;
	t->lead += x;
	t->last += x;
	return true;
}

/* decimal (strings): "a fixed or floating point decimal number" (the
 * registry, after ISO/IEC 9075-2): the text num_scan reads.  Every JSON
 * number is one, so numbers pass.  Hits on "", "1,5", "0x10", "1e",
 * "NaN". */
static bool
check_decimal(const char *p, size_t len)
{
	struct numtext t;

	return num_scan(p, len, &t);
}

/*
 * decimal128: IEEE 754-2008's 128-bit decimal, 34 significant digits and
 * exponents from -6143 to 6144, so exactly the values c * 10^q with c of
 * at most 34 digits and q in [-6176, 6111]: at most 34 digits from the
 * first significant to the last, the last at or above 10^-6176, the first
 * at or below 10^6144.  A string may also be "NaN", "INF" or "-INF" (the
 * registry).  Hits on 35 significant digits, 1e6145, 1e-6177.
 */
static bool
decimal128_value(const struct numtext *t)
{
	if (t->zero)
		return true;
	return !t->wild && t->lead - t->last + 1 <= 34 && t->last >= -6176 &&
	       t->lead <= 6144;
}

static bool
check_decimal128(const char *p, size_t len)
{
	struct numtext t;

	if ((len == 3 && memcmp(p, "NaN", 3) == 0) ||
	    (len == 3 && memcmp(p, "INF", 3) == 0) ||
	    (len == 4 && memcmp(p, "-INF", 4) == 0))
		return true;
	return num_scan(p, len, &t) && decimal128_value(&t);
}

static bool
check_decimal128_number(const char *p, size_t len)
{
	struct numtext t;

	return num_scan(p, len, &t) && decimal128_value(&t);
}

/*
 * The integer formats: an integer (1.0 and 1e2 are) in the range the
 * registry gives each, on the exact decimal.  Their strings (int64 and
 * uint64) are the integer's JSON text: an optional "-", then "0" or a
 * digit 1-9 and more digits ("+1", "01", "1.0" and " 1" are not).
 */
static bool
int_text_in(const char *p, size_t len, int64_t lo, int64_t hi,
    struct bound *blo, struct bound *bhi)
{
	int64_t v;

	if (small_int(p, len, &v))
		return v >= lo && v <= hi;
	return int_in(p, len, blo, bhi);
}

#define GPT_INT_FORMAT(fn, lo, hi, lotext, hitext)                             \
	static bool fn(const char *p, size_t len)                              \
	{                                                                      \
		static struct bound blo = {lotext, {0}, false},                \
		                    bhi = {hitext, {0}, false};                \
		return int_text_in(p, len, lo, hi, &blo, &bhi);                \
	}

GPT_INT_FORMAT(check_int8, -128, 127, "-128", "127")
GPT_INT_FORMAT(check_int16, -32768, 32767, "-32768", "32767")
GPT_INT_FORMAT(check_uint8, 0, 255, "0", "255")
GPT_INT_FORMAT(check_uint16, 0, 65535, "0", "65535")
GPT_INT_FORMAT(check_uint32, 0, 4294967295LL, "0", "4294967295")
/* small_int reads at most 18 digits, all below the upper bound */
GPT_INT_FORMAT(check_uint64, 0, INT64_MAX, "0", "18446744073709551615")
/* -(2^53)+1 to (2^53)-1: the registry's range */
GPT_INT_FORMAT(check_double_int, -9007199254740991LL, 9007199254740991LL,
    "-9007199254740991", "9007199254740991")

/* An integer's JSON text.  Hits on "", "-", "+1", "01", "1.0", "1e3". */
static bool
is_int_text(const char *p, size_t len)
{
	size_t i = len > 0 && p[0] == '-';

	if (i == len || (p[i] == '0' && len - i > 1))
		return false;
	for (; i < len; i++)
		if (!is_digit((unsigned char)p[i]))
			return false;
	return true;
}

static bool
check_int64_string(const char *p, size_t len)
{
	return is_int_text(p, len) && check_int64(p, len);
}

static bool
check_uint64_string(const char *p, size_t len)
{
	return is_int_text(p, len) && check_uint64(p, len);
}

/*
 * http-date: RFC 7231 section 7.1.1.1 (RFC 9110 5.6.7), HTTP-date =
 * IMF-fixdate / rfc850-date / asctime-date, which a recipient must all
 * accept: "Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37
 * GMT", "Sun Nov  6 08:49:37 1994".  Names are case-sensitive; the day
 * exists in its month, the day name is that date's (for a two-digit year,
 * in 19xx or 20xx), and second 60 only at 23:59 (GMT is UTC).  Hits on
 * "Mon, 06 Nov 1994 08:49:37 GMT" (a Sunday), "Sun, 6 Nov 1994 08:49:37
 * GMT", "Sun, 06 Nov 1994 08:49:37 UTC", "sun, 06 Nov 1994 08:49:37 GMT".
 */
static const char *const http_days[7] = {"Sunday", "Monday", "Tuesday",
    "Wednesday", "Thursday", "Friday", "Saturday"};
static const char *const http_months[12] = {"Jan", "Feb", "Mar", "Apr", "May",
    "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};

/* 0 for Sunday (Sakamoto's method, proleptic Gregorian). */
static int
weekday(int y, int m, int d)
{
	static const int t[12] = {0, 3, 2, 5, 0, 3, 5, 1, 4, 6, 2, 4};

	if (m < 3)
		y--;
	return (y + y / 4 - y / 100 + y / 400 + t[m - 1] + d) % 7;
}

/* The month named by the 3 bytes at p (1-12), or 0. */
static int
http_month(const char *p)
{
	int m;

	for (m = 0; m < 12; m++)
		if (memcmp(p, http_months[m], 3) == 0)
			return m + 1;
	return 0;
}

/* The day whose (full, or 3-letter when !full) name starts p: 0-6 and its
 * length in *n, or -1. */
static int
http_day(const char *p, size_t len, bool full, size_t *n)
{
	int d;

	for (d = 0; d < 7; d++) {
		size_t l = full ? strlen(http_days[d]) : 3;

		if (len >= l && memcmp(p, http_days[d], l) == 0) {
			*n = l;
			return d;
		}
	}
	return -1;
}

/* time-of-day = hour ":" minute ":" second, 00:00:00 to 23:59:60. */
static bool
http_time(const char *p)
{
	int h = digits(p, 2), m = digits(p + 3, 2), s = digits(p + 6, 2);

	if (p[2] != ':' || p[5] != ':' || h < 0 || h > 23 || m < 0 || m > 59 ||
	    s < 0 || s > 60)
		return false;
	return s < 60 || (h == 23 && m == 59);
}

static bool
http_date_ok(int wd, int y, int m, int d)
{
	static const int mdays[12] = {
	    31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};

	if (m < 1 || d < 1 || d > mdays[m - 1] ||
	    (m == 2 && d == 29 && !is_leap_year(y)))
		return false;
	return weekday(y, m, d) == wd;
}

static bool
check_http_date(const char *p, size_t len)
{
	size_t n = 0;
	int wd, y, m, d;

	if (len == 29 && (wd = http_day(p, len, false, &n)) >= 0 &&
	    p[3] == ',') {
		/* IMF-fixdate: "Sun, 06 Nov 1994 08:49:37 GMT" */
		if (p[4] != ' ' || p[7] != ' ' || p[11] != ' ' ||
		    p[16] != ' ' || p[25] != ' ' || memcmp(p + 26, "GMT", 3))
			return false;
		d = digits(p + 5, 2);
		m = http_month(p + 8);
		y = digits(p + 12, 4);
		return d >= 0 && y >= 0 && http_time(p + 17) &&
		       http_date_ok(wd, y, m, d);
	}
	if (len == 24 && (wd = http_day(p, len, false, &n)) >= 0 &&
	    p[3] == ' ') {
		/* asctime-date: "Sun Nov  6 08:49:37 1994" */
		if (p[7] != ' ' || p[10] != ' ' || p[19] != ' ')
			return false;
		m = http_month(p + 4);
		d = p[8] == ' ' ? digits(p + 9, 1) : digits(p + 8, 2);
		y = digits(p + 20, 4);
		return d >= 0 && y >= 0 && http_time(p + 11) &&
		       http_date_ok(wd, y, m, d);
	}
	if ((wd = http_day(p, len, true, &n)) >= 0 && len == n + 24 &&
	    p[n] == ',') {
		/* rfc850-date: "Sunday, 06-Nov-94 08:49:37 GMT" */
		const char *q = p + n + 1;

		if (q[0] != ' ' || q[3] != '-' || q[7] != '-' || q[10] != ' ' ||
		    q[19] != ' ' || memcmp(q + 20, "GMT", 3))
			return false;
		d = digits(q + 1, 2);
		m = http_month(q + 4);
		y = digits(q + 8, 2);
		return d >= 0 && y >= 0 && http_time(q + 11) &&
		       (http_date_ok(wd, 1900 + y, m, d) ||
		           http_date_ok(wd, 2000 + y, m, d));
	}
	return false;
}

/* tchar (RFC 9110 5.6.2): "!#$%&'*+-.^_`|~", DIGIT, ALPHA. */
static bool
is_tchar(unsigned char c)
{
	return is_alpha(c) || is_digit(c) ||
	       (c != '\0' && strchr("!#$%&'*+-.^_`|~", c) != NULL);
}

/* token = 1*tchar at p + *i, advancing *i; false when there is none. */
static bool
http_token(const char *p, size_t len, size_t *i)
{
	size_t start = *i;

	while (*i < len && is_tchar((unsigned char)p[*i]))
		(*i)++;
	return *i > start;
}

/* quoted-string = DQUOTE *( qdtext / quoted-pair ) DQUOTE (RFC 9110
 * 5.6.4); qdtext and quoted-pair take obs-text (any byte from 0x80). */
static bool
http_quoted(const char *p, size_t len, size_t *i)
{
	if (*i >= len || p[*i] != '"')
		return false;
	for ((*i)++; *i < len; (*i)++) {
		unsigned char c = (unsigned char)p[*i];

		if (c == '"') {
			(*i)++;
			return true;
		}
		if (c == '\\') {
			if (++(*i) >= len)
				return false;
			c = (unsigned char)p[*i];
			if (c != '\t' && (c < 0x20 || c == 0x7f))
				return false;
		} else if (c != '\t' && (c < 0x20 || c == 0x7f)) {
			return false; /* "\n" inside */
		}
	}
	return false; /* no closing quote */
}

/*
 * media-range (RFC 9110 12.5.1) = ( "*" "/" "*" / type "/" "*" / type
 * "/" subtype ) parameters, parameters = *( OWS ";" OWS [ parameter ] ),
 * parameter = token "=" ( token / quoted-string ).  Hits on "text",
 * "text/", "text/html ", "text/html;charset", "text/html; a=\"b",
 * "text /html".
 */
static bool
check_media_range(const char *p, size_t len)
{
	size_t i = 0;

	if (!http_token(p, len, &i) || i >= len || p[i++] != '/' ||
	    !http_token(p, len, &i))
		return false;
	for (;;) {
		size_t j = i;

		while (j < len && (p[j] == ' ' || p[j] == '\t'))
			j++;
		if (j >= len || p[j] != ';')
			break;
		i = j + 1;
		while (i < len && (p[i] == ' ' || p[i] == '\t'))
			i++;
		if (i < len && is_tchar((unsigned char)p[i])) {
			if (!http_token(p, len, &i) || i >= len ||
			    p[i++] != '=')
				return false;
			if (i < len && p[i] == '"') {
				if (!http_quoted(p, len, &i))
					return false;
			} else if (!http_token(p, len, &i)) {
				return false;
			}
		}
	}
	return i == len;
}

/*
 * RFC 8941 bare items.  sf-binary = ":" *base64 ":" (section 3.3.5),
 * decoded as section 4.2.7 parses it: RFC 4648 section 4 base64, where
 * missing padding and non-zero pad bits are not failures.  Hits on "",
 * ":", ":QQ", ":Q-==:", ":Q:".
 */
static bool
check_sf_binary(const char *p, size_t len)
{
	return len >= 2 && p[0] == ':' && p[len - 1] == ':' &&
	       b64_text(p + 1, len - 2, false, true, true);
}

/* sf-boolean = "?" ( "0" / "1" ) (section 3.3.6). */
static bool
check_sf_boolean(const char *p, size_t len)
{
	return len == 2 && p[0] == '?' && (p[1] == '0' || p[1] == '1');
}

/* sf-string = DQUOTE *chr DQUOTE, chr = %x20-21 / %x23-5B / %x5D-7E /
 * "\" ( DQUOTE / "\" ) (section 3.3.3).  Hits on "abc", "\"a\\n\"",
 * "\"\t\"", "\"caf\xc3\xa9\"". */
static bool
check_sf_string(const char *p, size_t len)
{
	size_t i;

	if (len < 2 || p[0] != '"' || p[len - 1] != '"')
		return false;
	for (i = 1; i < len - 1; i++) {
		unsigned char c = (unsigned char)p[i];

		if (c == '\\') {
			if (i + 1 >= len - 1 ||
			    (p[i + 1] != '"' && p[i + 1] != '\\'))
				return false;
			i++;
		} else if (c < 0x20 || c > 0x7e || c == '"') {
			return false;
		}
	}
	return true;
}

/* sf-token = ( ALPHA / "*" ) *( tchar / ":" / "/" ) (section 3.3.4).
 * Hits on "", "1a", "a b", "a\"". */
static bool
check_sf_token(const char *p, size_t len)
{
	size_t i;

	if (len == 0 || !(is_alpha((unsigned char)p[0]) || p[0] == '*'))
		return false;
	for (i = 1; i < len; i++)
		if (!is_tchar((unsigned char)p[i]) && p[i] != ':' &&
		    p[i] != '/')
			return false;
	return true;
}

/* sf-integer on a number (section 3.3.1): an integer of at most 15
 * digits, -999999999999999 to 999999999999999.  Hits on 1e15, 0.5. */
static bool
check_sf_integer(const char *p, size_t len)
{
	struct numtext t;

	if (!num_scan(p, len, &t))
		return false;
	return t.zero || (!t.wild && t.last >= 0 && t.lead <= 14);
}

/* sf-decimal on a number (section 3.3.2): at most 12 integer digits and
 * at most 3 fractional ones.  Hits on 1e12, 0.0001, 1.2345. */
static bool
check_sf_decimal(const char *p, size_t len)
{
	struct numtext t;

	if (!num_scan(p, len, &t))
		return false;
	return t.zero || (!t.wild && t.last >= -3 && t.lead <= 11);
}

/* --- zod's string formats -----------------------------------------------

zod (v4) writes a format name beside the pattern of each of its string
checks (z.toJSONSchema); its definitions are the expressions of its
source, packages/zod/src/v4/core/regexes.ts, and the checks in
packages/zod/src/v4/core/checks.ts.  Each checker below decides what that
expression decides, on the characters it names. */

/* The number text at p (len bytes) is a decimal integer at most max,
 * without a leading zero ("0" is one): a CIDR prefix length. */
static bool
prefix_len(const char *p, size_t len, unsigned max)
{
	unsigned v = 0;
	size_t i;

	if (len == 0 || len > 3 || (len > 1 && p[0] == '0'))
		return false;
	for (i = 0; i < len; i++) {
		if (!is_digit((unsigned char)p[i]))
			return false;
		v = v * 10 + (unsigned)(p[i] - '0');
	}
	return v <= max;
}

/* cidrv4, cidrv6: an address, "/", a prefix length without a leading zero
 * (0-32, 0-128): RFC 4632 3.1 and RFC 4291 2.3's prefix notation.  Hits on
 * "10.0.0.0/8", "10.0.0.0/33", "10.0.0.0/08", "::/0". */
static bool
cidr(const char *p, size_t len, bool v6)
{
	const char *slash = memchr(p, '/', len);
	size_t n;

	if (slash == NULL)
		return false;
	n = (size_t)(slash - p);
	if (!(v6 ? uri_is_ipv6(p, n) : uri_is_ipv4(p, n)))
		return false;
	return prefix_len(slash + 1, len - n - 1, v6 ? 128 : 32);
}

static bool
check_cidrv4(const char *p, size_t len)
{
	return cidr(p, len, false);
}

static bool
check_cidrv6(const char *p, size_t len)
{
	return cidr(p, len, true);
}

/* base64 (zod's z.base64()): RFC 4648 4, padded to a multiple of 4, the
 * empty string included; pad bits are not checked (zod decodes with
 * atob, which ignores them).  Hits on "aGk=", "aGl=", "aGk". */
static bool
check_zod_base64(const char *p, size_t len)
{
	return b64_text(p, len, false, false, true);
}

/* The character classes zod's expressions use. */
enum zclass {
	Z_LOWER_ALNUM, /* [0-9a-z] */
	Z_HEX,         /* [0-9a-fA-F] */
	Z_NANOID,      /* [a-zA-Z0-9_-] */
	Z_ALNUM,       /* [A-Za-z0-9] */
	Z_XID,         /* [0-9a-vA-V] */
	Z_CROCKFORD,   /* [0-9A-HJKMNP-TV-Za-hjkmnp-tv-z]: no I L O U */
	Z_NOT_UPPER,   /* [^A-Z] */
	Z_NOT_LOWER    /* [^a-z] */
};

static bool
in_zclass(unsigned char c, enum zclass k)
{
	bool lo = c >= 'a' && c <= 'z', up = c >= 'A' && c <= 'Z';
	bool dig = is_digit(c);

	switch (k) {
	case Z_LOWER_ALNUM:
		return lo || dig;
	case Z_HEX:
		return dig || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
	case Z_NANOID:
		return lo || up || dig || c == '_' || c == '-';
	case Z_ALNUM:
		return lo || up || dig;
	case Z_XID:
		return dig || (c >= 'a' && c <= 'v') || (c >= 'A' && c <= 'V');
	case Z_CROCKFORD: {
		unsigned char u = up ? c : (unsigned char)(c - 'a' + 'A');

		if (dig)
			return true;
		return (lo || up) && u != 'I' && u != 'L' && u != 'O' &&
		       u != 'U';
	}
	case Z_NOT_UPPER:
		return !up;
	case Z_NOT_LOWER:
		return !lo;
	}
	return false;
}

/* Every byte of p[from, len) in the class (a multi-byte UTF-8 character
 * is in [^A-Z] and [^a-z] byte by byte, and in no other class). */
static bool
all_in(const char *p, size_t from, size_t len, enum zclass k)
{
	size_t i;

	for (i = from; i < len; i++)
		if (!in_zclass((unsigned char)p[i], k))
			return false;
	return true;
}

/* cuid: ^[cC][0-9a-z]{6,}$.  Hits on "cjld2cjxh0000qzrmn831i7rn", "c123". */
static bool
check_cuid(const char *p, size_t len)
{
	return len >= 7 && (p[0] == 'c' || p[0] == 'C') &&
	       all_in(p, 1, len, Z_LOWER_ALNUM);
}

/* cuid2: ^[0-9a-z]+$.  Hits on "", "A". */
static bool
check_cuid2(const char *p, size_t len)
{
	return len > 0 && all_in(p, 0, len, Z_LOWER_ALNUM);
}

/* ulid: ^[0-7][0-9A-HJKMNP-TV-Za-hjkmnp-tv-z]{25}$ (Crockford's base32,
 * 128 bits).  Hits on "8" first, an "I", 25 characters. */
static bool
check_ulid(const char *p, size_t len)
{
	return len == 26 && p[0] >= '0' && p[0] <= '7' &&
	       all_in(p, 1, len, Z_CROCKFORD);
}

/* nanoid: ^[a-zA-Z0-9_-]{21}$.  Hits on 20 characters, a "+". */
static bool
check_nanoid(const char *p, size_t len)
{
	return len == 21 && all_in(p, 0, len, Z_NANOID);
}

/* ksuid: ^[A-Za-z0-9]{27}$. */
static bool
check_ksuid(const char *p, size_t len)
{
	return len == 27 && all_in(p, 0, len, Z_ALNUM);
}

/* xid: ^[0-9a-vA-V]{20}$.  Hits on a "w". */
static bool
check_xid(const char *p, size_t len)
{
	return len == 20 && all_in(p, 0, len, Z_XID);
}

/* hex: ^[0-9a-fA-F]*$, the empty string included.  Hits on "g". */
static bool
check_hex(const char *p, size_t len)
{
	return all_in(p, 0, len, Z_HEX);
}

/* e164: ^\+[1-9]\d{6,14}$ (ITU-T E.164's at most 15 digits, zod's at
 * least 7).  Hits on "+0123456", "+123456", "+1234567890123456". */
static bool
check_e164(const char *p, size_t len)
{
	size_t i;

	if (len < 8 || len > 16 || p[0] != '+' || p[1] < '1' || p[1] > '9')
		return false;
	for (i = 2; i < len; i++)
		if (!is_digit((unsigned char)p[i]))
			return false;
	return true;
}

/* lowercase: ^[^A-Z]*$; uppercase: ^[^a-z]*$ (ASCII letters only, as
 * zod's expressions are written). */
static bool
check_lowercase(const char *p, size_t len)
{
	return all_in(p, 0, len, Z_NOT_UPPER);
}

static bool
check_uppercase(const char *p, size_t len)
{
	return all_in(p, 0, len, Z_NOT_LOWER);
}

/* --- the table --------------------------------------------------------

One row per name: its checkers for strings and numbers (NULL: every value
of that type conforms), the types it applies to, the integers a numeric
checker accepts without a call, where the name is defined, an example. */

static const struct format formats[] = {
    {"date-time", check_date_time, NULL, FORMAT_STRINGS, 0, 0,
        "RFC 3339 5.6 date-time", "2024-01-01T00:00:00Z"},
    {"date", check_date, NULL, FORMAT_STRINGS, 0, 0, "RFC 3339 5.6 full-date",
        "2024-01-01"},
    {"time", check_time, NULL, FORMAT_STRINGS, 0, 0, "RFC 3339 5.6 full-time",
        "12:00:00Z"},
    {"duration", check_duration, NULL, FORMAT_STRINGS, 0, 0,
        "RFC 3339 appendix A duration", "P1D"},
    {"email", check_email, NULL, FORMAT_STRINGS, 0, 0, "RFC 5321 4.1.2 Mailbox",
        "a@example.org"},
    {"idn-email", check_idn_email, NULL, FORMAT_STRINGS, 0, 0,
        "RFC 6531 3.3 Mailbox", "a@example.org"},
    {"hostname", check_hostname, NULL, FORMAT_STRINGS, 0, 0, "RFC 1123 2.1",
        "example.org"},
    {"idn-hostname", check_idn_hostname, NULL, FORMAT_STRINGS, 0, 0,
        "RFC 5890 2.3.2.3 IDN", "example.org"},
    {"ipv4", check_ipv4, NULL, FORMAT_STRINGS, 0, 0, "RFC 2673 3.2 dotted-quad",
        "192.0.2.1"},
    {"ipv6", check_ipv6, NULL, FORMAT_STRINGS, 0, 0, "RFC 4291 2.2",
        "2001:db8::1"},
    {"uri", check_uri, NULL, FORMAT_STRINGS, 0, 0, "RFC 3986 3 URI",
        "https://example.org/"},
    {"uri-reference", check_uri_reference, NULL, FORMAT_STRINGS, 0, 0,
        "RFC 3986 4.1 URI-reference", "/a"},
    {"iri", check_iri, NULL, FORMAT_STRINGS, 0, 0, "RFC 3987 2.2 IRI",
        "https://example.org/"},
    {"iri-reference", check_iri_reference, NULL, FORMAT_STRINGS, 0, 0,
        "RFC 3987 2.2 IRI-reference", "/a"},
    {"uuid", check_uuid, NULL, FORMAT_STRINGS, 0, 0, "RFC 9562 4",
        "00000000-0000-4000-8000-000000000000"},
    {"uri-template", check_uri_template, NULL, FORMAT_STRINGS, 0, 0,
        "RFC 6570 2 and its errata", "/a/{b}"},
    {"json-pointer", check_json_pointer, NULL, FORMAT_STRINGS, 0, 0,
        "RFC 6901 3", "/a"},
    {"relative-json-pointer", check_relative_json_pointer, NULL, FORMAT_STRINGS,
        0, 0, "draft-bhutton-relative-json-pointer-00 3", "0/a"},
    {"regex", check_regex, NULL, FORMAT_STRINGS, 0, 0,
        "ECMA-262 22.2.1 Pattern, u flag", "^a$"},
    {"int32", NULL, check_int32, FORMAT_NUMBERS, INT32_MIN, INT32_MAX,
        "OpenAPI Format Registry int32", "0"},
    {"int64", check_int64_string, check_int64, FORMAT_STRINGS | FORMAT_NUMBERS,
        INT64_MIN, INT64_MAX,
        "OpenAPI Format Registry int64 (numbers and strings)", "0"},
    {"float", NULL, check_float, FORMAT_NUMBERS, INT64_MIN, INT64_MAX,
        "OpenAPI Format Registry float, IEEE 754 binary32", "0"},
    {"double", NULL, check_double, FORMAT_NUMBERS, INT64_MIN, INT64_MAX,
        "OpenAPI Format Registry double, IEEE 754 binary64", "0"},
    {"byte", check_byte, NULL, FORMAT_STRINGS, 0, 0,
        "OpenAPI Format Registry byte, RFC 4648 4", "aGk="},
    {"binary", NULL, NULL, FORMAT_STRINGS, 0, 0,
        "OpenAPI Format Registry binary: any octets, an annotation", NULL},
    {"password", NULL, NULL, FORMAT_STRINGS, 0, 0,
        "OpenAPI Format Registry password: a hint to hide the input, an "
        "annotation",
        NULL},
    {"base64url", check_base64url, NULL, FORMAT_STRINGS, 0, 0,
        "OpenAPI Format Registry base64url, RFC 4648 5", "aGk"},
    {"char", check_char, NULL, FORMAT_STRINGS, 0, 0,
        "OpenAPI Format Registry char: one character", "a"},
    {"commonmark", NULL, NULL, FORMAT_STRINGS, 0, 0,
        "OpenAPI Format Registry commonmark: CommonMark text (any string is), "
        "an annotation",
        NULL},
    {"date-time-local", check_date_time_local, NULL, FORMAT_STRINGS, 0, 0,
        "OpenAPI Format Registry date-time-local, TOML 1.0 Local Date-Time",
        "2024-01-01T00:00:00"},
    {"decimal", check_decimal, NULL, FORMAT_STRINGS | FORMAT_NUMBERS, 0, 0,
        "OpenAPI Format Registry decimal, ISO/IEC 9075-2 numeric literal",
        "1.5"},
    {"decimal128", check_decimal128, check_decimal128_number,
        FORMAT_STRINGS | FORMAT_NUMBERS, INT64_MIN, INT64_MAX,
        "OpenAPI Format Registry decimal128, IEEE 754-2008 decimal128", "1.5"},
    {"double-int", NULL, check_double_int, FORMAT_NUMBERS, -9007199254740991LL,
        9007199254740991LL, "OpenAPI Format Registry double-int", "0"},
    {"html", NULL, NULL, FORMAT_STRINGS, 0, 0,
        "OpenAPI Format Registry html: HTML text (any string is), an "
        "annotation",
        NULL},
    {"http-date", check_http_date, NULL, FORMAT_STRINGS, 0, 0,
        "OpenAPI Format Registry http-date, RFC 7231 7.1.1.1 HTTP-date",
        "Sun, 06 Nov 1994 08:49:37 GMT"},
    {"int8", NULL, check_int8, FORMAT_NUMBERS, -128, 127,
        "OpenAPI Format Registry int8", "0"},
    {"int16", NULL, check_int16, FORMAT_NUMBERS, -32768, 32767,
        "OpenAPI Format Registry int16", "0"},
    {"media-range", check_media_range, NULL, FORMAT_STRINGS, 0, 0,
        "OpenAPI Format Registry media-range, RFC 9110 12.5.1", "text/plain"},
    {"sf-binary", check_sf_binary, NULL, FORMAT_STRINGS, 0, 0,
        "OpenAPI Format Registry sf-binary, RFC 8941 3.3.5", "::"},
    {"sf-boolean", check_sf_boolean, NULL, FORMAT_STRINGS, 0, 0,
        "OpenAPI Format Registry sf-boolean, RFC 8941 3.3.6", "?1"},
    {"sf-decimal", NULL, check_sf_decimal, FORMAT_NUMBERS, -999999999999,
        999999999999, "OpenAPI Format Registry sf-decimal, RFC 8941 3.3.2",
        "0"},
    {"sf-integer", NULL, check_sf_integer, FORMAT_NUMBERS, -999999999999999,
        999999999999999, "OpenAPI Format Registry sf-integer, RFC 8941 3.3.1",
        "0"},
    {"sf-string", check_sf_string, NULL, FORMAT_STRINGS, 0, 0,
        "OpenAPI Format Registry sf-string, RFC 8941 3.3.3", "\"a\""},
    {"sf-token", check_sf_token, NULL, FORMAT_STRINGS, 0, 0,
        "OpenAPI Format Registry sf-token, RFC 8941 3.3.4", "a"},
    {"uint8", NULL, check_uint8, FORMAT_NUMBERS, 0, 255,
        "OpenAPI Format Registry uint8", "0"},
    {"uint16", NULL, check_uint16, FORMAT_NUMBERS, 0, 65535,
        "OpenAPI Format Registry uint16", "0"},
    {"uint32", NULL, check_uint32, FORMAT_NUMBERS, 0, 4294967295LL,
        "OpenAPI Format Registry uint32", "0"},
    {"uint64", check_uint64_string, check_uint64,
        FORMAT_STRINGS | FORMAT_NUMBERS, 0, INT64_MAX,
        "OpenAPI Format Registry uint64 (numbers and strings)", "0"},
    {"int-or-string", NULL, check_int32, FORMAT_STRINGS | FORMAT_NUMBERS,
        INT32_MIN, INT32_MAX,
        "Kubernetes k8s.io/apimachinery/pkg/util/intstr IntOrString: an int32 "
        "or any string",
        NULL},
    {"unix-time", NULL, check_int64, FORMAT_NUMBERS, INT64_MIN, INT64_MAX,
        "Stripe's OpenAPI description (github.com/stripe/openapi): integer "
        "seconds since the Unix epoch, an int64",
        "0"},
    {"base64", check_zod_base64, NULL, FORMAT_STRINGS, 0, 0,
        "zod z.base64(): RFC 4648 4, padded, pad bits not checked", "aGk="},
    {"cidrv4", check_cidrv4, NULL, FORMAT_STRINGS, 0, 0,
        "zod z.cidrv4(): dotted-quad \"/\" 0-32 (RFC 4632 3.1)", "10.0.0.0/8"},
    {"cidrv6", check_cidrv6, NULL, FORMAT_STRINGS, 0, 0,
        "zod z.cidrv6(): RFC 4291 2.3 address \"/\" 0-128", "2001:db8::/32"},
    {"cuid", check_cuid, NULL, FORMAT_STRINGS, 0, 0,
        "zod z.cuid(): ^[cC][0-9a-z]{6,}$", "cjld2cjxh0000qzrmn831i7rn"},
    {"cuid2", check_cuid2, NULL, FORMAT_STRINGS, 0, 0,
        "zod z.cuid2(): ^[0-9a-z]+$", "tz4a98xxat96iws9zmbrgj3a"},
    {"ulid", check_ulid, NULL, FORMAT_STRINGS, 0, 0,
        "zod z.ulid(): ^[0-7][0-9A-HJKMNP-TV-Za-hjkmnp-tv-z]{25}$",
        "01ARZ3NDEKTSV4RRFFQ69G5FAV"},
    {"nanoid", check_nanoid, NULL, FORMAT_STRINGS, 0, 0,
        "zod z.nanoid(): ^[a-zA-Z0-9_-]{21}$", "V1StGXR8_Z5jdHi6B-myT"},
    {"ksuid", check_ksuid, NULL, FORMAT_STRINGS, 0, 0,
        "zod z.ksuid(): ^[A-Za-z0-9]{27}$", "0ujsswThIGTUYm2K8FjOOfXtY1K"},
    {"xid", check_xid, NULL, FORMAT_STRINGS, 0, 0,
        "zod z.xid(): ^[0-9a-vA-V]{20}$", "9m4e2mr0ui3e8a215n4g"},
    {"hex", check_hex, NULL, FORMAT_STRINGS, 0, 0,
        "zod z.hex(): ^[0-9a-fA-F]*$", "0a"},
    {"e164", check_e164, NULL, FORMAT_STRINGS, 0, 0,
        "zod z.e164(): ^\\+[1-9]\\d{6,14}$ (ITU-T E.164)", "+15551234567"},
    {"lowercase", check_lowercase, NULL, FORMAT_STRINGS, 0, 0,
        "zod .lowercase(): ^[^A-Z]*$", "a"},
    {"uppercase", check_uppercase, NULL, FORMAT_STRINGS, 0, 0,
        "zod .uppercase(): ^[^a-z]*$", "A"},
    {"starts_with", NULL, NULL, FORMAT_STRINGS, 0, 0,
        "zod .startsWith(s): the prefix is only in the pattern zod writes "
        "beside it (^s.*), an annotation",
        NULL},
    {"ends_with", NULL, NULL, FORMAT_STRINGS, 0, 0,
        "zod .endsWith(s): the suffix is only in the pattern zod writes "
        "beside it (.*s$), an annotation",
        NULL},
    {"includes", NULL, NULL, FORMAT_STRINGS, 0, 0,
        "zod .includes(s): the text is only in the pattern zod writes beside "
        "it, an annotation",
        NULL},
};

const struct format *
format_lookup(const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < GPT_ARRAY_LEN(formats); i++)
		if (strlen(formats[i].name) == len &&
		    memcmp(formats[i].name, name, len) == 0)
			return &formats[i];
	return NULL;
}

const struct format *
format_at(size_t i)
{
	return i < GPT_ARRAY_LEN(formats) ? &formats[i] : NULL;
}
