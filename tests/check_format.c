/*
 * check_format.c: every format checker at the boundaries its RFC draws,
 * valid and invalid side by side, then `format` in compiled forms.
 */
#include <stdio.h>
#include <string.h>

#include "check_schema.h"
#include "schema/format.h"

struct fcase {
	const char *format;
	const char *value;
	bool ok;
	bool number; /* the value is a JSON number's text */
};

/* a string (or, for a name that applies to numbers only, a number) */
#define Y(f, v)                                                                \
	{                                                                      \
		f, v, true, false                                              \
	}
#define N(f, v)                                                                \
	{                                                                      \
		f, v, false, false                                             \
	}
/* a number, for the names that apply to both */
#define YNUM(f, v)                                                             \
	{                                                                      \
		f, v, true, true                                               \
	}
#define NNUM(f, v)                                                             \
	{                                                                      \
		f, v, false, true                                              \
	}

static void
run_fcases(const struct fcase *t, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		const struct format *f =
		    format_lookup(t[i].format, strlen(t[i].format));
		format_check_fn fn = NULL;

		if (f != NULL)
			fn = t[i].number || f->check == NULL ? f->ncheck
			                                     : f->check;
		ck_assert_msg(fn != NULL, "no checker for %s", t[i].format);
		ck_assert_msg(fn(t[i].value, strlen(t[i].value)) == t[i].ok,
		    "%s \"%s\" should be %s", t[i].format, t[i].value,
		    t[i].ok ? "valid" : "invalid");
	}
}

#define RUN_FCASES(t) run_fcases((t), GPT_ARRAY_LEN(t))

START_TEST(date_follows_rfc3339_calendar)
{
	static const struct fcase t[] = {
	    Y("date", "2024-02-29"),
	    N("date", "2023-02-29"),
	    Y("date", "2000-02-29"),
	    N("date", "1900-02-29"),
	    Y("date", "2023-02-28"),
	    N("date", "2023-02-30"),
	    Y("date", "2021-04-30"),
	    N("date", "2021-04-31"),
	    Y("date", "2021-12-31"),
	    N("date", "2021-12-32"),
	    Y("date", "0000-01-01"),
	    N("date", "2021-13-01"),
	    Y("date", "2021-01-01"),
	    N("date", "2021-00-01"),
	    N("date", "2021-01-00"),
	    N("date", "2021-1-01"),
	    N("date", "20210-01-01"),
	    N("date", "2021/01/01"),
	    N("date", "2021-01-01T00:00:00Z"),
	    N("date", "1\xe0\xa7\xa8"
	              "21-01-01"),
	    N("date", ""),
	    N("date", "2021-01-01\n"),
	};

	RUN_FCASES(t);
}
END_TEST

START_TEST(time_puts_leap_seconds_at_2359_utc)
{
	static const struct fcase t[] = {
	    Y("time", "08:30:06Z"),
	    N("time", "08:30:06"),
	    Y("time", "23:59:60Z"),
	    N("time", "22:59:60Z"),
	    N("time", "23:58:60Z"),
	    Y("time", "23:59:60+00:00"),
	    Y("time", "15:59:60-08:00"),
	    N("time", "23:59:60-08:00"),
	    Y("time", "01:29:60+01:30"),
	    N("time", "23:59:60+01:00"),
	    Y("time", "00:29:60-23:30"),
	    Y("time", "23:29:60+23:30"),
	    N("time", "23:59:61Z"),
	    N("time", "00:00:61Z"),
	    Y("time", "23:59:59Z"),
	    N("time", "24:00:00Z"),
	    N("time", "00:60:00Z"),
	    Y("time", "12:34:56-00:00"),
	    Y("time", "08:30:06z"),
	    Y("time", "23:20:50.52Z"),
	    N("time", "23:20:50.Z"),
	    N("time", "08:30:06+0130"),
	    N("time", "08:30:06+01"),
	    N("time", "01:02:03+24:00"),
	    N("time", "01:02:03+00:60"),
	    N("time", "01:02:03Z+00:30"),
	    N("time", "08:30:06 PST"),
	    N("time", "01:01:01,1111"),
	    N("time", "8:3:6Z"),
	    N("time", "08:30:06Z\n"),
	};

	RUN_FCASES(t);
}
END_TEST

START_TEST(date_time_joins_both_with_t)
{
	static const struct fcase t[] = {
	    Y("date-time", "1963-06-19T08:30:06.283185Z"),
	    N("date-time", "1963-06-19 08:30:06Z"),
	    Y("date-time", "1963-06-19t08:30:06z"),
	    N("date-time", "1963-06-19T08:30:06"),
	    Y("date-time", "1998-12-31T23:59:60Z"),
	    Y("date-time", "1998-12-31T15:59:60.123-08:00"),
	    N("date-time", "1998-12-31T23:59:60+01:00"),
	    Y("date-time", "2024-02-29T00:00:00+14:00"),
	    N("date-time", "1900-02-29T00:00:00Z"),
	    N("date-time", "2021-04-31T00:00:00Z"),
	    N("date-time", "1990-02-31T15:59:59.123-08:00"),
	    N("date-time", "2013-350T01:01:01"),
	    N("date-time", "2021-01-01T"),
	};

	RUN_FCASES(t);
}
END_TEST

START_TEST(duration_follows_appendix_a)
{
	static const struct fcase t[] = {
	    Y("duration", "P4DT12H30M5S"),
	    N("duration", "PT1D"),
	    Y("duration", "P1Y2M3DT4H5M6S"),
	    N("duration", "P"),
	    Y("duration", "P1Y2M"),
	    N("duration", "P1Y2D"),
	    Y("duration", "P1M2D"),
	    N("duration", "P2D1Y"),
	    Y("duration", "PT1H2M"),
	    N("duration", "PT1H2S"),
	    Y("duration", "PT1M2S"),
	    N("duration", "PT"),
	    Y("duration", "P2W"),
	    N("duration", "P1Y2W"),
	    N("duration", "P1WT1H"),
	    N("duration", "P1YT"),
	    Y("duration", "P01D"),
	    N("duration", "PT0.5S"),
	    Y("duration", "PT36H"),
	    N("duration", "P1D2H"),
	    N("duration", "P2S"),
	    N("duration", "-P1D"),
	    N("duration", "P1"),
	    N("duration", "p1d"),
	    N("duration", "P1D2T3H"),
	    N("duration", "PT1HT1M"),
	    N("duration", "P1D\n"),
	    N("duration", ""),
	};

	RUN_FCASES(t);
}
END_TEST

START_TEST(email_follows_rfc5321_mailbox)
{
	static const struct fcase t[] = {
	    Y("email", "joe.bloggs@example.com"),
	    N("email", "2962"),
	    Y("email", "\"a b\"@example.com"),
	    N("email", "a b@example.com"),
	    Y("email", "\"joe..bloggs\"@example.com"),
	    N("email", "joe..bloggs@example.com"),
	    N("email", ".joe@example.com"),
	    N("email", "joe.@example.com"),
	    Y("email", "te~st@example.com"),
	    Y("email", "~test@example.com"),
	    Y("email", "test~@example.com"),
	    Y("email", "a+tag@example.com"),
	    Y("email", "joe@localhost"),
	    N("email", "joe@"),
	    N("email", "@example.com"),
	    N("email", "joe@example..com"),
	    N("email", "joe.bloggs@invalid=domain.com"),
	    N("email", "joe@-example.com"),
	    Y("email", "joe.bloggs@[127.0.0.1]"),
	    N("email", "joe.bloggs@[127.0.0.300]"),
	    Y("email", "joe.bloggs@[IPv6:::1]"),
	    N("email", "joe@[::1]"),
	    Y("email", "joe@[x-tag:abc]"),
	    N("email", "joe@[x-tag:]"),
	    Y("email", "\"\\\"\"@example.com"),
	    N("email", "\"\"\"@example.com"),
	    N("email", "\"a\\\"@example.com"),
	    Y("email", "\"a@b\"@example.com"),
	    N("email", "caf\xc3\xa9@example.com"),
	    N("email", "joe@caf\xc3\xa9.example"),
	    Y("email",
	        "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
	        "aaaa@example.com"),
	    N("email",
	        "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
	        "aaaaa@example.com"),
	};

	RUN_FCASES(t);
}
END_TEST

START_TEST(idn_email_adds_utf8_per_rfc6531)
{
	static const struct fcase t[] = {
	    Y("idn-email", "\xec\x8b\xa4\xeb\xa1\x80@\xec\x8b\xa4\xeb\xa1\x80."
	                   "\xed\x85\x8c\xec\x8a\xa4\xed\x8a\xb8"),
	    N("idn-email", "2962"), Y("idn-email", "joe.bloggs@example.com"),
	    Y("idn-email", "caf\xc3\xa9@example.com"),
	    Y("idn-email", "\"caf\xc3\xa9 b\"@example.com"),
	    N("idn-email", "caf\xc3\xa9@-x.example"),
	    N("idn-email", "a@\xc3\x89.example"), /* upper case: DISALLOWED */
	};

	RUN_FCASES(t);
}
END_TEST

START_TEST(hostname_follows_rfc1123_and_checks_a_labels)
{
	static const struct fcase t[] = {
	    Y("hostname", "www.example.com"), N("hostname", ""),
	    Y("hostname", "xn--4gbwdl.xn--wgbh1c"), N("hostname", "xn--X"),
	    N("hostname", "XN--aa---o47jg78q"), N("hostname", "ab--cd"),
	    Y("hostname", "1host"), N("hostname", "-hostname"),
	    Y("hostname", "host-name"), N("hostname", "hostname-"),
	    N("hostname", "host_name"), N("hostname", "_hostname"),
	    Y("hostname", "abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyz"
	                  "abcdefghijk.com"),
	    N("hostname", "abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyz"
	                  "abcdefghijkl.com"),
	    N("hostname", "."), N("hostname", "a..b"), N("hostname", "a."),
	    N("hostname", ".a"), N("hostname", "caf\xc3\xa9.example"),
	    Y("hostname", "XN--FSQU00A.example"),
	    N("hostname", "xn--abc"), /* decodes to a DISALLOWED point */
	};

	RUN_FCASES(t);
}
END_TEST

START_TEST(hostname_bounds_the_whole_name)
{
	char name[300];
	size_t i;
	const struct format *f = format_lookup("hostname", 8);

	/* 63 + 1 + 63 + 1 + 63 + 1 + 61 = 253 octets: the longest name */
	memset(name, 'a', sizeof(name));
	for (i = 63; i < 200; i += 64)
		name[i] = '.';
	ck_assert(f->check(name, 253));
	ck_assert(!f->check(name, 254));
}
END_TEST

START_TEST(idn_hostname_follows_idna2008)
{
	static const struct fcase t[] = {
	    Y("idn-hostname", "\xec\x8b\xa4\xeb\xa1\x80.\xed\x85\x8c\xec\x8a"
	                      "\xa4\xed\x8a\xb8"),
	    Y("idn-hostname", "www.example.com"),
	    Y("idn-hostname", "\xe5\xae\x9e\xe4\xbe\x8b.test"),
	    N("idn-hostname", "\xe3\x80\xae"),       /* U+302E DISALLOWED */
	    N("idn-hostname", "\xc3\x89x.example"),  /* upper case */
	    N("idn-hostname", "e\xcc\x81x.example"), /* not NFC */
	    N("idn-hostname", "\xcc\x81x.example"),  /* leading combining */
	    Y("idn-hostname", "l\xc2\xb7l"),         /* CONTEXTO middle dot */
	    N("idn-hostname", "a\xc2\xb7l"), N("idn-hostname", "\xc2\xb7l"),
	    N("idn-hostname", "a\xe2\x80\x8d"), /* CONTEXTJ ZWJ */
	    Y("idn-hostname", "\xe0\xa4\x95\xe0\xa5\x8d\xe2\x80\x8d"),
	    Y("idn-hostname", "\xd7\x90\xd7\x91"),    /* Hebrew, RTL */
	    N("idn-hostname", "1\xd7\x90"),           /* bidi rule 1 */
	    N("idn-hostname", "1a.\xd7\x90\xd7\x91"), /* bidi across labels */
	    Y("idn-hostname", "a1.\xd7\x90\xd7\x91"),
	    Y("idn-hostname", "1a.example"),
	    N("idn-hostname", "1a.xn--4dbc"), /* the A-label of the above */
	    Y("idn-hostname", "xn--fsqu00a.test"), N("idn-hostname", "xn--X"),
	    N("idn-hostname", "XN--aa---o47jg78q"), N("idn-hostname", "ab--cd"),
	    N("idn-hostname", ""), N("idn-hostname", "a..b"),
	    N("idn-hostname", "-a"), N("idn-hostname", "a_b"),
	    N("idn-hostname", "\xe3\x80\x82"), /* U+3002 alone */
	};

	RUN_FCASES(t);
}
END_TEST

START_TEST(ip_addresses_follow_rfc2673_and_rfc4291)
{
	static const struct fcase t[] = {
	    Y("ipv4", "192.168.0.1"),
	    N("ipv4", "1.2.3.04"),
	    Y("ipv4", "255.255.255.255"),
	    N("ipv4", "256.255.255.255"),
	    Y("ipv4", "0.0.0.0"),
	    N("ipv4", "1.2.3"),
	    N("ipv4", "1.2.3.4.5"),
	    N("ipv4", "0x7f000001"),
	    N("ipv4", "2130706433"),
	    N("ipv4", "1\xe0\xa7\xa8"
	              "7.0.0.1"),
	    N("ipv4", "192.168.1.0/24"),
	    N("ipv4", "1.2.3.4\n"),
	    Y("ipv6", "::1"),
	    N("ipv6", "12345::"),
	    Y("ipv6", "::ffff:1.2.3.4"),
	    N("ipv6", "::ffff:1.2.3.04"),
	    Y("ipv6", "::"),
	    N("ipv6", ":::"),
	    Y("ipv6", "1:2:3:4:5:6:7:8"),
	    N("ipv6", "1:2:3:4:5:6:7:8:9"),
	    Y("ipv6", "1::8"),
	    N("ipv6", "1::2::3"),
	    Y("ipv6", "1:2:3:4:5:6:1.2.3.4"),
	    N("ipv6", "1:2:3:4:5:6:7:1.2.3.4"),
	    N("ipv6", "fe80::1%eth0"),
	    N("ipv6", "fe80::1%25eth0"),
	    N("ipv6", "[::1]"),
	    N("ipv6", " ::1"),
	    N("ipv6", "::1 "),
	    Y("ipv6", "ABCD:EF01:2345:6789:ABCD:EF01:2345:6789"),
	    N("ipv6", "::1/64"),
	    N("ipv6", "1:"),
	    N("ipv6", ":1"),
	};

	RUN_FCASES(t);
}
END_TEST

START_TEST(uris_and_iris_go_through_the_rfc3986_parser)
{
	static const struct fcase t[] = {
	    Y("uri", "http://[::1]:80/"),
	    N("uri", "http://[::1]x/"),
	    Y("uri", "http://foo.bar/?baz=qux#quux"),
	    N("uri", "//foo.bar/"),
	    Y("uri", "urn:isbn:0451450523"),
	    N("uri", "abc"),
	    Y("uri", "mailto:joe@example.com"),
	    N("uri", "/abc"),
	    N("uri", "http:// shouldfail.com"),
	    N("uri", "\\\\WINDOWS\\x"),
	    N("uri", "https://[fe80::1%25en0]/"),
	    N("uri", "ht,tp://x"),
	    N("uri", "http://\xc3\xa9.example/"),
	    Y("uri-reference", "//foo.bar/?baz=qux#quux"),
	    Y("uri-reference", "/abc"),
	    Y("uri-reference", "#fragment"),
	    Y("uri-reference", ""),
	    N("uri-reference", "#frag#ment"),
	    N("uri-reference", "\\\\WINDOWS\\fileshare"),
	    N("uri-reference", "1a:b"),
	    Y("iri",
	        "http://\xc6\x92\xc3\xb8\xc3\xb8.\xc3\x9f\xc3\xa5r/?\xe2\x88"
	        "\x82\xc3\xa9\xc5\x93=\xcf\x80\xc3\xae\xc3\xb8#\xe2\x88\x82"
	        "\xc3\xa9\xc3\xb8"),
	    N("iri", "/abc"),
	    N("iri", "http://2001:0db8:85a3::/"),
	    Y("iri", "http://[2001:db8::1]/"),
	    Y("iri-reference", "\xc3\xa9t\xc3\xa9"),
	    N("iri-reference", "a b"),
	    N("iri-reference", "#\xe2\x80\x8b\xe2\x80\x8c x"),
	};

	RUN_FCASES(t);
}
END_TEST

START_TEST(uuid_follows_rfc9562_text)
{
	static const struct fcase t[] = {
	    Y("uuid", "2EB8AA08-AA98-11EA-B4AA-73B441D16380"),
	    Y("uuid", "2eb8aa08-aa98-11ea-b4aa-73b441d16380"),
	    Y("uuid", "00000000-0000-0000-0000-000000000000"),
	    Y("uuid", "ffffffff-ffff-ffff-ffff-ffffffffffff"),
	    Y("uuid", "98d80576-482e-f27d-8ab2-a27e8ab2a27e"),
	    N("uuid", "2eb8aa08-aa98-11ea-b4aa-73b441d1638"),
	    N("uuid", "2eb8aa08-aa98-11ea-73b441d16380"),
	    N("uuid", "2eb8aa08-aa98-11ea-b4ga-73b441d16380"),
	    N("uuid", "2eb8aa08aa9811eab4aa73b441d16380"),
	    N("uuid", "2eb8aa08aa98-11ea-b4aa-73b441d163800"),
	    N("uuid", "{2eb8aa08-aa98-11ea-b4aa-73b441d16380}"),
	};

	RUN_FCASES(t);
}
END_TEST

START_TEST(uri_template_follows_rfc6570_level_4)
{
	static const struct fcase t[] = {
	    Y("uri-template", "http://example.com/dictionary/{term:1}/{term}"),
	    N("uri-template", "http://example.com/dictionary/{term:1}/{term"),
	    Y("uri-template", "{+var*}"),
	    N("uri-template", "{+var**}"),
	    Y("uri-template", "{#a,b.c,d:9999}"),
	    N("uri-template", "{a:10000}"),
	    N("uri-template", "{a:0}"),
	    N("uri-template", "{a*:3}"),
	    Y("uri-template", "{/list*,path:4}"),
	    N("uri-template", "{}"),
	    Y("uri-template", "{;x,y}{?q}{&r}{.s}"),
	    N("uri-template", "{a,}"),
	    Y("uri-template", "{var%41}"),
	    N("uri-template", "{var%4}"),
	    N("uri-template", "{a..b}"),
	    N("uri-template", "{a.}"),
	    N("uri-template", "{ a}"),
	    N("uri-template", "a}"),
	    N("uri-template", "a b"),
	    N("uri-template", "a%zz"),
	    Y("uri-template", "/caf\xc3\xa9/{x}"),
	    N("uri-template", "a\"b"),
	    Y("uri-template", "dictionary"),
	    Y("uri-template", ""),
	    N("uri-template", "{x{y}}"),
	    N("uri-template", "\xc2\x80"),
	    /* RFC 6570 erratum 6937: the apostrophe is a literal */
	    Y("uri-template", "a'b"),
	    Y("uri-template", "'{var}'"),
	    Y("uri-template", "/reports(period='{period}')"),
	    N("uri-template", "a`b"),
	};

	RUN_FCASES(t);
}
END_TEST

START_TEST(json_pointers_follow_rfc6901_and_the_relative_draft)
{
	static const struct fcase t[] = {
	    Y("json-pointer", "/a~1b"),
	    N("json-pointer", "/a~2b"),
	    Y("json-pointer", ""),
	    N("json-pointer", "a"),
	    Y("json-pointer", "/"),
	    N("json-pointer", "/~"),
	    Y("json-pointer", "/foo/0/~0~1"),
	    N("json-pointer", "#/foo"),
	    Y("json-pointer", "/ /%25/\xc3\xa9"),
	    Y("relative-json-pointer", "0#"),
	    N("relative-json-pointer", "0##"),
	    Y("relative-json-pointer", "1"),
	    N("relative-json-pointer", ""),
	    Y("relative-json-pointer", "0/foo/bar"),
	    N("relative-json-pointer", "/foo/bar"),
	    Y("relative-json-pointer", "120/foo"),
	    N("relative-json-pointer", "01/a"),
	    N("relative-json-pointer", "01#"),
	    Y("relative-json-pointer", "100"),
	    Y("relative-json-pointer", "0+1/foo"),
	    N("relative-json-pointer", "0+"),
	    Y("relative-json-pointer", "0-1#"),
	    N("relative-json-pointer", "0-01"),
	    N("relative-json-pointer", "0++1"),
	    N("relative-json-pointer", "-1/a"),
	    N("relative-json-pointer", "+1/a"),
	    N("relative-json-pointer", "1#/a"),
	    N("relative-json-pointer", "1foo"),
	    N("relative-json-pointer", "0/~2"),
	    Y("relative-json-pointer", "0//"),
	};

	RUN_FCASES(t);
}
END_TEST

START_TEST(regex_is_judged_by_the_pattern_parser)
{
	static const struct fcase t[] = {
	    Y("regex", "^[a-z]+$"),
	    N("regex", "^(abc]"),
	    Y("regex", "\\p{Letter}"),
	    Y("regex", "(?<=a+)b"),
	    /* valid, but refused as unsupported before the end: closed */
	    N("regex", "^(?:(a)|b)+\\1$"),
	    N("regex", "a\\u{110000}"),
	    N("regex", "a**"),
	    Y("regex", ""),
	    N("regex", "a{2,1}"),
	    Y("regex", "(a)\\1"),
	    N("regex", "["),
	    /* back-references are resolved by a second pass */
	    N("regex", "\\2(a)"),
	    Y("regex", "\\1(a)"),
	    N("regex", "\\k<a>(?<b>x)"),
	    Y("regex", "(?<a>x)\\k<a>"),
	    N("regex", "(?<=(a)\\1)b"),
	    N("regex", "(a)\\k<a>"),
	    /* what the syntax check writes nothing for */
	    Y("regex", "\\d{3}-\\d{4,}x{1,2}"),
	    Y("regex", "[\\uD800-\\uDFFF]"),
	    Y("regex", "[^\\s\\W]\\u00e9\\p{Script=Greek}"),
	};

	RUN_FCASES(t);
}
END_TEST

START_TEST(openapi_numbers_use_exact_decimals)
{
	static const struct fcase t[] = {
	    Y("int32", "2147483647"),
	    N("int32", "2147483648"),
	    Y("int32", "-2147483648"),
	    N("int32", "-2147483649"),
	    Y("int32", "2147483647.0"),
	    N("int32", "1.5"),
	    Y("int32", "2.147483647e9"),
	    N("int32", "2.147483648e9"),
	    Y("int64", "9223372036854775807"),
	    N("int64", "9223372036854775808"),
	    Y("int64", "-9223372036854775808"),
	    N("int64", "-9223372036854775809"),
	    N("int64", "1e19"),
	    N("int64", "1e99999999999999"),
	    Y("float", "3.4028235e38"),
	    N("float", "3.4028236e38"),
	    Y("float", "3.4028234663852886e38"),
	    N("float", "-3.5e38"),
	    Y("float", "340282356779733661637539395458142568447.9"),
	    N("float", "340282356779733661637539395458142568448"),
	    Y("float", "-340282346638528859811704183484516925440"),
	    Y("float", "1e-50"),
	    Y("float", "0"),
	    Y("double", "1.7976931348623157e308"),
	    Y("double", "1.7976931348623158e308"), /* rounds to DBL_MAX */
	    N("double", "1.7976931348623159e308"), /* rounds to infinity */
	    Y("double", "-1.7976931348623157e308"),
	    N("double", "1e309"),
	    Y("double", "5e-324"),
	    /* the decades around each limit, as the quick test sees them */
	    Y("float", "9.999e37"),
	    Y("float", "99999999999999999999999999999999999999"),
	    N("float", "1e39"),
	    N("float", "-0.00001e44"),
	    Y("float", "0.0001e41"),
	    Y("float", "-0.000"),
	    Y("float", "0e999"),
	    N("float", "1e+39"),
	    Y("double", "9e307"),
	    N("double", "10e308"),
	    N("double", "2e308"),
	    Y("double", "0.1e309"),
	    Y("double", "1e-99999"),
	    /* within the limit's decade: digit by digit */
	    N("float", "340282356779733661637539395458142568448.000"),
	    Y("float", "340282356779733661637539395458142568447.99999999"),
	    N("float", "3.40282356779733661637539395458142568448e38"),
	    N("float", "34028235677973366163753939545814256844.8e1"),
	    Y("float", "3.402823567797336616375393954581425684479e38"),
	    N("float", "3.4028235677973366163753939545814256844800001e38"),
	    Y("float", "-3.4028235e38"),
	    N("float", "0.34028236e39"),
	    Y("double", "1.797693134862315807937289714053034150799341327100378"
	                "2693617377898044e308"),
	    N("double", "-1.8e308"),
	    Y("double", "1.79e308"),
	    Y("int32", "-0"),
	    Y("int32", "999999999000000000e-9"),
	    N("int32", "999999999999999999"),
	    Y("int64", "999999999999999999"),
	    Y("int64", "-999999999999999999"),
	    N("int64", "1.5"),
	};

	RUN_FCASES(t);
}
END_TEST

START_TEST(byte_is_padded_canonical_base64)
{
	static const struct fcase t[] = {
	    Y("byte", ""),
	    N("byte", "QQ"),
	    Y("byte", "QQ=="),
	    N("byte", "QR=="),
	    Y("byte", "QUI="),
	    N("byte", "QUJ="),
	    Y("byte", "QUJD"),
	    N("byte", "Q==="),
	    Y("byte", "+/+/"),
	    N("byte", "-_-_"),
	    N("byte", "QQ=A"),
	    N("byte", "QQ==QQ=="),
	    N("byte", "QU JD"),
	    N("byte", "===="),
	};

	RUN_FCASES(t);
}
END_TEST

START_TEST(format_lookup_knows_every_name_and_only_those)
{
	static const char *const names[] = {"date-time", "date", "time",
	    "duration", "email", "idn-email", "hostname", "idn-hostname",
	    "ipv4", "ipv6", "uri", "uri-reference", "iri", "iri-reference",
	    "uuid", "uri-template", "json-pointer", "relative-json-pointer",
	    "regex", "int32", "int64", "float", "double", "byte", "binary",
	    "password", "base64url", "char", "commonmark", "date-time-local",
	    "decimal", "decimal128", "double-int", "html", "http-date", "int8",
	    "int16", "media-range", "sf-binary", "sf-boolean", "sf-decimal",
	    "sf-integer", "sf-string", "sf-token", "uint8", "uint16", "uint32",
	    "uint64", "int-or-string", "unix-time", "base64", "cidrv4",
	    "cidrv6", "cuid", "cuid2", "ulid", "nanoid", "ksuid", "xid", "hex",
	    "e164", "lowercase", "uppercase", "starts_with", "ends_with",
	    "includes"};
	size_t i;

	for (i = 0; i < GPT_ARRAY_LEN(names); i++)
		ck_assert_msg(format_lookup(names[i], strlen(names[i])) != NULL,
		    "%s is unknown", names[i]);
	ck_assert_ptr_null(format_lookup("e-mail", 6));
	ck_assert_ptr_null(format_lookup("Email", 5));
	ck_assert_ptr_null(format_lookup("date-tim", 8));
	ck_assert_ptr_null(format_lookup("", 0));
	ck_assert_ptr_null(format_lookup("binary", 5));
	ck_assert_ptr_null(format_at(GPT_ARRAY_LEN(names)));
	ck_assert_ptr_nonnull(format_at(GPT_ARRAY_LEN(names) - 1));
	ck_assert_ptr_null(format_lookup("binary", 6)->check);
	ck_assert_ptr_null(format_lookup("password", 8)->check);
	ck_assert_int_eq(format_lookup("int32", 5)->applies, FORMAT_NUMBERS);
	ck_assert_int_eq(format_lookup("byte", 4)->applies, FORMAT_STRINGS);
	ck_assert_int_eq(format_lookup("int64", 5)->applies,
	    FORMAT_STRINGS | FORMAT_NUMBERS);
	for (i = 0; format_at(i) != NULL; i++) {
		const struct format *f = format_at(i);

		ck_assert_msg(f->ref != NULL && f->ref[0] != '\0',
		    "%s has no reference", f->name);
		if (f->example != NULL && f->check != NULL)
			ck_assert_msg(f->check(f->example, strlen(f->example)),
			    "%s's example does not conform", f->name);
	}
	/* the content kinds are annotations: any string */
	ck_assert_ptr_null(format_lookup("commonmark", 10)->check);
	ck_assert_ptr_null(format_lookup("html", 4)->check);
}
END_TEST

START_TEST(idn_names_take_ideographic_stops_and_bidi_rule_4)
{
	static const struct fcase t[] = {
	    /* RFC 3490 3.1: U+3002, U+FF0E, U+FF61 separate labels */
	    Y("idn-hostname", "a\xe3\x80\x82"
	                      "b"),
	    Y("idn-hostname", "a\xef\xbc\x8e"
	                      "b"),
	    Y("idn-hostname", "a\xef\xbd\xa1"
	                      "b"),
	    N("idn-hostname", "a\xe3\x80\x82"),
	    N("idn-hostname", "\xe3\x80\x82"
	                      "a"),
	    N("idn-hostname", "a\xe3\x80\x82\xe3\x80\x82"
	                      "b"),
	    N("hostname", "a\xe3\x80\x82"
	                  "b"),
	    Y("idn-email", "x@a\xe3\x80\x82"
	                   "b"),
	    /* RFC 5893 rule 4: EN and AN never together in an RTL label */
	    N("idn-hostname", "\xd8\xa7\xd9\xa1"
	                      "1"),
	    Y("idn-hostname", "\xd8\xa7\xd9\xa1"),
	    Y("idn-hostname", "\xd8\xa7"
	                      "1"),
	    N("idn-hostname", "xn--1-ymc8o"),
	    Y("idn-hostname", "xn--mgb0j"),
	    N("idn-email", "x@\xd8\xa7\xd9\xa1"
	                   "1"),
	};

	RUN_FCASES(t);
}
END_TEST

START_TEST(registry_integers_have_their_ranges)
{
	static const struct fcase t[] = {
	    Y("int8", "127"),
	    N("int8", "128"),
	    Y("int8", "-128"),
	    N("int8", "-129"),
	    Y("int8", "1.0"),
	    N("int8", "1.5"),
	    Y("int16", "32767"),
	    N("int16", "32768"),
	    Y("int16", "-32768"),
	    N("int16", "-32769"),
	    Y("uint8", "255"),
	    N("uint8", "256"),
	    Y("uint8", "0"),
	    N("uint8", "-1"),
	    Y("uint16", "65535"),
	    N("uint16", "65536"),
	    Y("uint32", "4294967295"),
	    N("uint32", "4294967296"),
	    N("uint32", "-1"),
	    YNUM("uint64", "18446744073709551615"),
	    NNUM("uint64", "18446744073709551616"),
	    NNUM("uint64", "-1"),
	    YNUM("uint64", "1.8446744073709551615e19"),
	    Y("uint64", "18446744073709551615"),
	    N("uint64", "-1"),
	    N("uint64", "18446744073709551616"),
	    N("uint64", "01"),
	    N("uint64", "+1"),
	    N("uint64", "1.0"),
	    N("uint64", ""),
	    Y("int64", "-9223372036854775808"),
	    N("int64", "9223372036854775808"),
	    N("int64", " 1"),
	    N("int64", "1e3"),
	    Y("int64", "-0"),
	    YNUM("int64", "1e3"),
	    NNUM("int64", "9223372036854775808"),
	    Y("double-int", "9007199254740991"),
	    N("double-int", "9007199254740992"),
	    Y("double-int", "-9007199254740991"),
	    N("double-int", "-9007199254740992"),
	    N("double-int", "0.5"),
	    Y("sf-integer", "999999999999999"),
	    N("sf-integer", "1000000000000000"),
	    Y("sf-integer", "-999999999999999"),
	    N("sf-integer", "0.5"),
	    Y("sf-integer", "1e14"),
	    N("sf-integer", "1e15"),
	    Y("sf-decimal", "999999999999.999"),
	    N("sf-decimal", "1000000000000"),
	    Y("sf-decimal", "-1.5"),
	    N("sf-decimal", "1.2345"),
	    Y("sf-decimal", "1.2340"),
	    Y("sf-decimal", "0"),
	    Y("int-or-string", "2147483647"),
	    N("int-or-string", "2147483648"),
	    N("int-or-string", "1.5"),
	    Y("unix-time", "1700000000"),
	    N("unix-time", "1700000000.5"),
	    N("unix-time", "9223372036854775808"),
	};

	RUN_FCASES(t);
	/* int-or-string takes any string (IntOrString's StrVal) */
	ck_assert_ptr_null(format_lookup("int-or-string", 13)->check);
	ck_assert_ptr_nonnull(format_lookup("int-or-string", 13)->ncheck);
}
END_TEST

/* zod's names, as its regexes.ts decides them (each refused before). */
START_TEST(zod_formats_follow_its_expressions)
{
	static const struct fcase t[] = {
	    Y("base64", ""),
	    Y("base64", "aGk="),
	    Y("base64", "aGl="),
	    N("base64", "aGk"),
	    N("base64", "aG-="),
	    Y("cidrv4", "10.0.0.0/8"),
	    Y("cidrv4", "0.0.0.0/0"),
	    Y("cidrv4", "1.2.3.4/32"),
	    N("cidrv4", "1.2.3.4/33"),
	    N("cidrv4", "1.2.3.4/08"),
	    N("cidrv4", "1.2.3.4"),
	    N("cidrv4", "1.2.3/8"),
	    N("cidrv4", "1.2.3.4/"),
	    Y("cidrv6", "2001:db8::/32"),
	    Y("cidrv6", "::/128"),
	    N("cidrv6", "::/129"),
	    N("cidrv6", "1.2.3.4/8"),
	    Y("cuid", "cjld2cjxh0000qzrmn831i7rn"),
	    Y("cuid", "C123456"),
	    N("cuid", "c12345"),
	    N("cuid", "d1234567"),
	    N("cuid", "c123456A"),
	    Y("cuid2", "tz4a98xxat96iws9zmbrgj3a"),
	    N("cuid2", ""),
	    N("cuid2", "tZ4"),
	    Y("ulid", "01ARZ3NDEKTSV4RRFFQ69G5FAV"),
	    Y("ulid", "7zzzzzzzzzzzzzzzzzzzzzzzzz"),
	    N("ulid", "81ARZ3NDEKTSV4RRFFQ69G5FAV"),
	    N("ulid", "01ARZ3NDEKTSV4RRFFQ69G5FAI"),
	    N("ulid", "01ARZ3NDEKTSV4RRFFQ69G5FA"),
	    Y("nanoid", "V1StGXR8_Z5jdHi6B-myT"),
	    N("nanoid", "V1StGXR8_Z5jdHi6B-my"),
	    N("nanoid", "V1StGXR8_Z5jdHi6B-my+"),
	    Y("ksuid", "0ujsswThIGTUYm2K8FjOOfXtY1K"),
	    N("ksuid", "0ujsswThIGTUYm2K8FjOOfXtY1-"),
	    Y("xid", "9m4e2mr0ui3e8a215n4g"),
	    N("xid", "9m4e2mr0ui3e8a215n4w"),
	    Y("hex", ""),
	    Y("hex", "0aF9"),
	    N("hex", "0x1"),
	    Y("e164", "+15551234567"),
	    Y("e164", "+1234567"),
	    N("e164", "+123456"),
	    N("e164", "+0123456789"),
	    N("e164", "+1234567890123456"),
	    N("e164", "15551234567"),
	    Y("lowercase", "abc-1 \xc3\x89"),
	    N("lowercase", "aBc"),
	    Y("uppercase", "ABC-1"),
	    N("uppercase", "ABc"),
	};

	RUN_FCASES(t);
	/* the prefix, suffix or text is only in zod's pattern beside them */
	ck_assert_ptr_null(format_lookup("starts_with", 11)->check);
	ck_assert_ptr_null(format_lookup("ends_with", 9)->check);
	ck_assert_ptr_null(format_lookup("includes", 8)->check);
}
END_TEST

START_TEST(registry_decimals_are_exact)
{
	static const struct fcase t[] = {
	    Y("decimal", "1"),
	    Y("decimal", "-1.5"),
	    Y("decimal", "+1.5"),
	    Y("decimal", "5."),
	    Y("decimal", ".5"),
	    Y("decimal", "1E-3"),
	    Y("decimal", "007"),
	    N("decimal", ""),
	    N("decimal", "."),
	    N("decimal", "1,5"),
	    N("decimal", "0x10"),
	    N("decimal", "1e"),
	    N("decimal", "NaN"),
	    N("decimal", " 1"),
	    N("decimal", "1.2.3"),
	    Y("decimal128", "NaN"),
	    Y("decimal128", "INF"),
	    Y("decimal128", "-INF"),
	    N("decimal128", "inf"),
	    Y("decimal128", "1234567890123456789012345678901234"),
	    N("decimal128", "12345678901234567890123456789012345"),
	    Y("decimal128", "12345678901234567890123456789012340000"),
	    Y("decimal128", "9.999999999999999999999999999999999e6144"),
	    N("decimal128", "1e6145"),
	    Y("decimal128", "1e-6176"),
	    N("decimal128", "1e-6177"),
	    Y("decimal128", "0e-99999999999"),
	    N("decimal128", "1e99999999999"),
	    YNUM("decimal128", "1.5"),
	    NNUM("decimal128", "1e6145"),
	    NNUM("decimal128", "1.00000000000000000000000000000000001"),
	};

	RUN_FCASES(t);
	/* every JSON number is a decimal */
	ck_assert_ptr_null(format_lookup("decimal", 7)->ncheck);
}
END_TEST

START_TEST(registry_text_formats_follow_their_rfcs)
{
	static const struct fcase t[] = {
	    Y("base64url", ""),
	    Y("base64url", "aGk"),
	    Y("base64url", "aGk="),
	    Y("base64url", "-_-_"),
	    N("base64url", "+/+/"),
	    N("base64url", "aGl"),
	    N("base64url", "a"),
	    N("base64url", "aG=k"),
	    Y("char", "a"),
	    Y("char", "\xf0\x9f\x98\x80"),
	    N("char", ""),
	    N("char", "ab"),
	    N("char", "\xc3\xa9"
	              "e"),
	    Y("date-time-local", "2024-02-29T12:30:00"),
	    Y("date-time-local", "2024-02-29 12:30:00.123"),
	    Y("date-time-local", "2024-02-29t12:30:60"),
	    N("date-time-local", "2023-02-29T12:30:00"),
	    N("date-time-local", "2024-01-01T12:30:00Z"),
	    N("date-time-local", "2024-01-01T12:30:00+01:00"),
	    N("date-time-local", "2024-01-01T24:00:00"),
	    N("date-time-local", "2024-01-01T12:30"),
	    N("date-time-local", "2024-01-01T12:30:00."),
	    Y("http-date", "Sun, 06 Nov 1994 08:49:37 GMT"),
	    Y("http-date", "Sunday, 06-Nov-94 08:49:37 GMT"),
	    Y("http-date", "Sun Nov  6 08:49:37 1994"),
	    Y("http-date", "Wed, 31 Dec 2008 23:59:60 GMT"),
	    N("http-date", "Mon, 06 Nov 1994 08:49:37 GMT"),
	    N("http-date", "Sun, 6 Nov 1994 08:49:37 GMT"),
	    N("http-date", "Sun, 06 Nov 1994 08:49:37 UTC"),
	    N("http-date", "sun, 06 Nov 1994 08:49:37 GMT"),
	    N("http-date", "Sun, 06 nov 1994 08:49:37 GMT"),
	    N("http-date", "Thu, 31 Apr 2008 08:49:37 GMT"),
	    N("http-date", "Wed, 31 Dec 2008 22:59:60 GMT"),
	    N("http-date", "Sun Nov 06 08:49:37 1994 "),
	    N("http-date", "Sunday, 06-Nov-1994 08:49:37 GMT"),
	    Y("media-range", "text/html"),
	    Y("media-range", "*/*"),
	    Y("media-range", "text/*"),
	    Y("media-range", "text/html;charset=utf-8"),
	    Y("media-range", "text/html ; q=0.5;level=\"a \\\"b\\\"\""),
	    Y("media-range", "text/html;"),
	    Y("media-range", "a/b;;c=d"),
	    N("media-range", "text"),
	    N("media-range", "text/"),
	    N("media-range", "text/html "),
	    N("media-range", "text/html;charset"),
	    N("media-range", "text/html; a=\"b"),
	    N("media-range", "text /html"),
	    N("media-range", "text/html;a=b c"),
	    Y("sf-binary", "::"),
	    Y("sf-binary", ":aGk=:"),
	    Y("sf-binary", ":aGk:"),
	    Y("sf-binary", ":aGl=:"),
	    N("sf-binary", ""),
	    N("sf-binary", ":"),
	    N("sf-binary", ":aGk="),
	    N("sf-binary", ":a-k=:"),
	    N("sf-binary", ":a:"),
	    Y("sf-boolean", "?0"),
	    Y("sf-boolean", "?1"),
	    N("sf-boolean", "?2"),
	    N("sf-boolean", "1"),
	    N("sf-boolean", "?10"),
	    Y("sf-string", "\"\""),
	    Y("sf-string", "\"a \\\" \\\\ b\""),
	    N("sf-string", "abc"),
	    N("sf-string", "\"a\\n\""),
	    N("sf-string", "\"\t\""),
	    N("sf-string", "\"caf\xc3\xa9\""),
	    N("sf-string", "\""),
	    N("sf-string", "\"a\\\""),
	    Y("sf-token", "a"),
	    Y("sf-token", "*foo:bar/baz!#"),
	    N("sf-token", ""),
	    N("sf-token", "1a"),
	    N("sf-token", "a b"),
	    N("sf-token", "a\""),
	};

	RUN_FCASES(t);
}
END_TEST

/* ----- format in compiled forms ----------------------------------------- */

START_TEST(validate_asserts_format_on_strings_only)
{
	static const struct vcase t[] = {
	    {"{\"format\":\"date\"}", "\"2024-02-29\"", NULL, NULL},
	    {"{\"format\":\"date\"}", "\"2023-02-29\"", "format", ""},
	    {"{\"format\":\"date\"}", "12", NULL, NULL},
	    {"{\"format\":\"date\"}", "null", NULL, NULL},
	    {"{\"format\":\"email\"}", "{}", NULL, NULL},
	    {"{\"format\":\"email\"}", "[]", NULL, NULL},
	    {"{\"format\":\"email\"}", "false", NULL, NULL},
	    {"{\"properties\":{\"a\":{\"format\":\"email\"}}}",
	        "{\"a\":\"\\\"a b\\\"@example.com\"}", NULL, NULL},
	    {"{\"properties\":{\"a\":{\"format\":\"email\"}}}",
	        "{\"a\":\"a b@example.com\"}", "format", "/a"},
	    {"{\"items\":{\"format\":\"ipv4\"}}", "[\"1.2.3.4\",\"1.2.3.04\"]",
	        "format", "/1"},
	    {"{\"type\":\"string\",\"maxLength\":40,\"format\":\"uuid\"}",
	        "\"x\"", "format", ""},
	    {"{\"format\":\"binary\"}", "\"\\u0000anything\"", NULL, NULL},
	    {"{\"format\":\"password\"}", "\"\"", NULL, NULL},
	    {"{\"anyOf\":[{\"format\":\"ipv4\"},{\"format\":\"ipv6\"}]}",
	        "\"::1\"", NULL, NULL},
	    {"{\"anyOf\":[{\"format\":\"ipv4\"},{\"format\":\"ipv6\"}]}",
	        "\"1.2.3\"", "anyOf", ""},
	};

	RUN_VCASES(t);
}
END_TEST

START_TEST(validate_asserts_openapi_formats_on_numbers_only)
{
	static const struct vcase t[] = {
	    {"{\"format\":\"int32\"}", "2147483647", NULL, NULL},
	    {"{\"format\":\"int32\"}", "2147483648", "format", ""},
	    {"{\"format\":\"int32\"}", "\"2147483648\"", NULL, NULL},
	    {"{\"type\":\"integer\",\"format\":\"int64\"}",
	        "-9223372036854775809", "format", ""},
	    {"{\"format\":\"double\"}", "1e309", "format", ""},
	    {"{\"format\":\"float\"}", "1.5", NULL, NULL},
	    {"{\"format\":\"byte\"}", "12", NULL, NULL},
	    {"{\"format\":\"byte\"}", "\"QQ\"", "format", ""},
	};

	RUN_VCASES(t);
}
END_TEST

START_TEST(compile_refuses_unknown_format_names)
{
	expect_refused("{\"format\":\"e-mail\"}", "/format", "unknown format");
	expect_refused("{\"items\":{\"format\":\"Date\"}}", "/items/format",
	    "unknown format \"Date\"");
	expect_refused("{\"format\":1}", "/format", "string");
	expect_refused("{\"format\":null}", "/format", "string");
}
END_TEST

static Suite *
suite_format(void)
{
	Suite *s = suite_create("format");
	TCase *tc = tcase_create("checkers");

	tcase_add_test(tc, date_follows_rfc3339_calendar);
	tcase_add_test(tc, time_puts_leap_seconds_at_2359_utc);
	tcase_add_test(tc, date_time_joins_both_with_t);
	tcase_add_test(tc, duration_follows_appendix_a);
	tcase_add_test(tc, email_follows_rfc5321_mailbox);
	tcase_add_test(tc, idn_email_adds_utf8_per_rfc6531);
	tcase_add_test(tc, hostname_follows_rfc1123_and_checks_a_labels);
	tcase_add_test(tc, hostname_bounds_the_whole_name);
	tcase_add_test(tc, idn_hostname_follows_idna2008);
	tcase_add_test(tc, ip_addresses_follow_rfc2673_and_rfc4291);
	tcase_add_test(tc, uris_and_iris_go_through_the_rfc3986_parser);
	tcase_add_test(tc, uuid_follows_rfc9562_text);
	tcase_add_test(tc, uri_template_follows_rfc6570_level_4);
	tcase_add_test(tc, json_pointers_follow_rfc6901_and_the_relative_draft);
	tcase_add_test(tc, regex_is_judged_by_the_pattern_parser);
	tcase_add_test(tc, openapi_numbers_use_exact_decimals);
	tcase_add_test(tc, byte_is_padded_canonical_base64);
	tcase_add_test(tc, format_lookup_knows_every_name_and_only_those);
	tcase_add_test(tc, idn_names_take_ideographic_stops_and_bidi_rule_4);
	tcase_add_test(tc, registry_integers_have_their_ranges);
	tcase_add_test(tc, registry_decimals_are_exact);
	tcase_add_test(tc, zod_formats_follow_its_expressions);
	tcase_add_test(tc, registry_text_formats_follow_their_rfcs);
	suite_add_tcase(s, tc);
	tc = tcase_create("schema");
	tcase_add_test(tc, validate_asserts_format_on_strings_only);
	tcase_add_test(tc, validate_asserts_openapi_formats_on_numbers_only);
	tcase_add_test(tc, compile_refuses_unknown_format_names);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(suite_format)
