/* check_uri.c: RFC 3986/3987 parsing, reference resolution, normal form. */
#include <stdio.h>
#include <string.h>

#include "check_main.h"
#include "parser/uri.h"

static struct uri
parse_ok(const char *s, unsigned flags)
{
	struct uri u;

	ck_assert_msg(uri_parse(s, strlen(s), flags, &u) == 0,
	    "\"%s\" should parse (flags %u)", s, flags);
	/* the format checks' quick path gives the same answer */
	ck_assert_msg(uri_valid(s, strlen(s), flags),
	    "\"%s\" should be valid (flags %u)", s, flags);
	return u;
}

static void
expect_valid(const char *s, unsigned flags)
{
	(void)parse_ok(s, flags);
}

static void
expect_invalid(const char *s, unsigned flags)
{
	struct uri u;

	ck_assert_msg(uri_parse(s, strlen(s), flags, &u) != 0,
	    "\"%s\" should be refused (flags %u)", s, flags);
	ck_assert_msg(!uri_valid(s, strlen(s), flags),
	    "\"%s\" should be invalid (flags %u)", s, flags);
}

/* A slice equals the C string want (NULL: absent). */
static void
expect_part(struct uri_part part, const char *want, const char *what)
{
	if (want == NULL) {
		ck_assert_msg(part.ptr == NULL, "%s should be absent", what);
		return;
	}
	ck_assert_msg(part.ptr != NULL && part.len == strlen(want) &&
	                  memcmp(part.ptr, want, part.len) == 0,
	    "%s is \"%.*s\", want \"%s\"", what, (int)part.len,
	    part.ptr ? part.ptr : "", want);
}

START_TEST(uri_parse_splits_the_components)
{
	struct uri u = parse_ok("foo://user:pw@example.com:8042/over/there"
	                        "?name=ferret#nose",
	    URI_ABSOLUTE);

	expect_part(u.scheme, "foo", "scheme");
	expect_part(u.authority, "user:pw@example.com:8042", "authority");
	expect_part(u.userinfo, "user:pw", "userinfo");
	expect_part(u.host, "example.com", "host");
	expect_part(u.port, "8042", "port");
	expect_part(u.path, "/over/there", "path");
	expect_part(u.query, "name=ferret", "query");
	expect_part(u.fragment, "nose", "fragment");
	ck_assert(u.has_scheme && u.has_authority && u.has_userinfo &&
	          u.has_port && u.has_query && u.has_fragment);
	ck_assert_int_eq(u.host_type, URI_HOST_REGNAME);

	u = parse_ok("urn:example:animal:ferret:nose", URI_ABSOLUTE);
	expect_part(u.scheme, "urn", "scheme");
	expect_part(u.path, "example:animal:ferret:nose", "path");
	ck_assert(!u.has_authority && !u.has_query && !u.has_fragment);

	u = parse_ok("http://[::1]:80/", 0);
	expect_part(u.host, "::1", "host");
	expect_part(u.port, "80", "port");
	ck_assert_int_eq(u.host_type, URI_HOST_IPV6);

	u = parse_ok("http://192.0.2.16/", 0);
	ck_assert_int_eq(u.host_type, URI_HOST_IPV4);
	u = parse_ok("http://1.2.3.04/", 0); /* a reg-name, not an address */
	ck_assert_int_eq(u.host_type, URI_HOST_REGNAME);
	u = parse_ok("http://[v7.a:b]/", 0);
	ck_assert_int_eq(u.host_type, URI_HOST_IPVFUTURE);
}
END_TEST

START_TEST(uri_parse_tells_empty_from_absent)
{
	struct uri u = parse_ok("http://h?#", 0);

	ck_assert(u.has_query && u.query.len == 0);
	ck_assert(u.has_fragment && u.fragment.len == 0);
	ck_assert_uint_eq(u.path.len, 0);
	u = parse_ok("http://h", 0);
	ck_assert(!u.has_query && !u.has_fragment);
	u = parse_ok("file:///etc/x", 0);
	ck_assert(u.has_authority && u.host.len == 0);
	expect_part(u.path, "/etc/x", "path");
	u = parse_ok("http://h:/", 0);
	ck_assert(u.has_port && u.port.len == 0);
	u = parse_ok("", 0);
	ck_assert(!u.has_scheme && u.path.len == 0);
}
END_TEST

/* Valid URI-references (RFC 3986 appendix A). */
static const char *const valid_refs[] = {
    "http://example.com/",
    "http://[::1]:80/",
    "http://[2001:db8::7]/c=GB?objectClass?one",
    "http://[::ffff:1.2.3.4]/",
    "http://[1:2:3:4:5:6:7:8]/",
    "http://[1:2:3:4:5:6:7::]/",
    "http://[::2:3:4:5:6:7:8]/",
    "http://[1::8]/",
    "http://[1:2:3:4:5:6:1.2.3.4]/",
    "http://[V1F.x:y!]/",
    "ldap://[2001:db8::7]/c=GB?objectClass?one",
    "mailto:John.Doe@example.com",
    "news:comp.infosystems.www.servers.unix",
    "tel:+1-816-555-1212",
    "telnet://192.0.2.16:80/",
    "urn:oasis:names:specification:docbook:dtd:xml:4.1.2",
    "http://a/b%20c/%7Euser",
    "http://user:p%41ss@h/",
    "http://h/a;b=c/d@e:f?g/h?i#j/k?l",
    "http://h/!$&'()*+,;=",
    "a+b-c.d:x",
    "//example.com",
    "/abs/path",
    "rel/path",
    "./a:b",
    "?q",
    "#f",
    "",
    "#",
    "http://h#",
    "http:",
    "http://",
    "http://h:",
    "http://1.2.3.4.5/",
};

/* Refused: each breaks one rule of appendix A. */
static const char *const invalid_refs[] = {
    "http://exa mple.com/",        /* space */
    "http://h/a b",                /* space in the path */
    "http://h/%",                  /* bare percent */
    "http://h/%4",                 /* short triplet */
    "http://h/%zz",                /* not hex */
    "http://h/a[b]",               /* gen-delims outside a literal */
    "http://[::1/",                /* unclosed literal */
    "http://[::1]x/",              /* junk after the literal */
    "http://[fe80::1%25eth0]/",    /* zone id (RFC 6874) */
    "http://[fe80::1%eth0]/",      /* zone id, raw */
    "http://[::1::2]/",            /* two "::" */
    "http://[1:2:3:4:5:6:7:8:9]/", /* nine groups */
    "http://[1:2:3:4:5:6:7]/",     /* seven groups, no "::" */
    "http://[12345::]/",           /* five hex digits */
    "http://[::1.2.3]/",           /* short IPv4 tail */
    "http://[::1.2.3.4.5]/",       /* long IPv4 tail */
    "http://[1.2.3.4]/",           /* IPv4 inside brackets */
    "http://[v.x]/",               /* IPvFuture without a version */
    "http://[v1.]/",               /* IPvFuture without a body */
    "http://[]/",                  /* empty literal */
    "http://h:8o/",                /* port not digits */
    "http://h:1:2/",               /* two ports */
    "http://a@b@c/",               /* "@" in the host */
    "ht_tp://h/",                  /* "_" in the scheme */
    "1http://h/",                  /* scheme starting with a digit */
    ":x",                          /* empty scheme */
    "1a:b",                        /* ":" in the first relative segment */
    "a\\b",                        /* backslash */
    "http://h/#a#b",               /* "#" in the fragment */
    "http://h/\x7f",               /* DEL */
    "http://h/\xc3\xa9",           /* non-ASCII in URI mode */
    "http://h/^",                  /* "^" is no URI character */
    "http://h/`",
    "http://h/{x}",
    "http://h/\"",
    "http://h/<>",
};

START_TEST(uri_parse_accepts_rfc3986_references)
{
	size_t i;

	for (i = 0; i < GPT_ARRAY_LEN(valid_refs); i++)
		expect_valid(valid_refs[i], 0);
}
END_TEST

START_TEST(uri_parse_refuses_what_the_grammar_refuses)
{
	size_t i;

	for (i = 0; i < GPT_ARRAY_LEN(invalid_refs); i++)
		expect_invalid(invalid_refs[i], 0);
}
END_TEST

START_TEST(uri_parse_absolute_requires_a_scheme)
{
	expect_valid("http://h/p#frag", URI_ABSOLUTE);
	expect_valid("urn:x", URI_ABSOLUTE);
	expect_invalid("//h/p", URI_ABSOLUTE);
	expect_invalid("/p", URI_ABSOLUTE);
	expect_invalid("p", URI_ABSOLUTE);
	expect_invalid("#f", URI_ABSOLUTE);
	expect_invalid("", URI_ABSOLUTE);
}
END_TEST

START_TEST(uri_parse_iri_mode_allows_ucschar_only)
{
	/* RFC 3987 section 2.2 */
	expect_valid("http://\xc3\xa9x.example/caf\xc3\xa9", URI_IRI);
	expect_valid("http://h/\xe6\x97\xa5\xe6\x9c\xac", URI_IRI);
	expect_valid("http://h/\xf0\x90\x80\x80", URI_IRI); /* U+10000 */
	expect_valid("http://h/?\xee\x80\x80", URI_IRI);    /* iprivate query */
	expect_invalid("http://h/\xee\x80\x80", URI_IRI);   /* not in path */
	expect_invalid("http://h/#\xee\x80\x80", URI_IRI);  /* not in frag */
	expect_invalid("http://h/\xc2\x80", URI_IRI);       /* U+0080 (C1) */
	expect_invalid("http://h/\xef\xbf\xbe", URI_IRI);   /* U+FFFE */
	expect_invalid("http://h/\xf0\x9f\xbf\xbf", URI_IRI); /* U+1FFFF */
	expect_invalid("http://h/\xef\xb7\x90", URI_IRI);     /* U+FDD0 */
	expect_invalid("http://h/\xc3", URI_IRI);             /* truncated */
	expect_invalid("http://h/\xed\xa0\x80", URI_IRI);     /* surrogate */
	expect_invalid("http://h/a b", URI_IRI);
	expect_invalid("http://[\xc3\xa9]/", URI_IRI); /* literals stay ASCII */
	expect_valid("\xc3\xa9t\xc3\xa9", URI_IRI);
	expect_invalid("\xc3\xa9t\xc3\xa9", 0);
}
END_TEST

/*
 * uri_valid's quick path may only say yes where uri_parse does: random
 * texts over the characters the grammar treats specially (a fixed seed,
 * so a failure repeats), each checked under every flag combination.
 */
START_TEST(uri_valid_agrees_with_uri_parse_on_random_texts)
{
	static const char alphabet[] = "ab1+-.:/?#@%[]!$'*,;= _~\\"
	                               "\x80\xc3\xa9";
	static const unsigned flags[] = {
	    0, URI_ABSOLUTE, URI_IRI, URI_IRI | URI_ABSOLUTE};
	uint64_t seed = 0x9e3779b97f4a7c15u;
	char text[24];
	size_t k, i, n, f;

	for (k = 0; k < 200000; k++) {
		seed = seed * 6364136223846793005u + 1442695040888963407u;
		n = (size_t)(seed >> 59) + 1; /* 1 to 32 bytes, capped */
		if (n > sizeof(text))
			n = sizeof(text);
		for (i = 0; i < n; i++) {
			seed =
			    seed * 6364136223846793005u + 1442695040888963407u;
			text[i] =
			    alphabet[(seed >> 33) % (sizeof(alphabet) - 1)];
		}
		/* most random texts fail early: start half of them with a
		 * scheme and an authority so the later parts are reached */
		if (k % 2 == 0 && n > 8)
			memcpy(text, "ht+p://h", 8);
		for (f = 0; f < GPT_ARRAY_LEN(flags); f++) {
			struct uri u;
			bool parsed = uri_parse(text, n, flags[f], &u) == 0;

			ck_assert_msg(uri_valid(text, n, flags[f]) == parsed,
			    "\"%.*s\": uri_valid %d, uri_parse %d (flags %u)",
			    (int)n, text, !parsed, parsed, flags[f]);
		}
	}
}
END_TEST

START_TEST(uri_is_ipv4_refuses_leading_zeros_and_big_octets)
{
	ck_assert(uri_is_ipv4("0.0.0.0", 7));
	ck_assert(uri_is_ipv4("255.255.255.255", 15));
	ck_assert(!uri_is_ipv4("256.0.0.0", 9));
	ck_assert(!uri_is_ipv4("1.2.3.04", 8));
	ck_assert(!uri_is_ipv4("01.2.3.4", 8));
	ck_assert(!uri_is_ipv4("1.2.3", 5));
	ck_assert(!uri_is_ipv4("1.2.3.4.", 8));
	ck_assert(!uri_is_ipv4("1.2.3.1234", 10));
	ck_assert(!uri_is_ipv4("", 0));
}
END_TEST

START_TEST(uri_is_ipv6_follows_rfc4291_text_forms)
{
	static const char *const ok[] = {"::", "::1", "1::", "1::2",
	    "2001:db8::ff00:42:8329", "::ffff:1.2.3.4", "1:2:3:4:5:6:7:8",
	    "1:2:3:4:5:6::8", "::2:3:4:5:6:7:8", "1:2:3:4:5:6:1.2.3.4",
	    "ABCD:ef01::", "::1.2.3.4"};
	static const char *const bad[] = {"", ":", ":::", "1:", ":1", "1::2::3",
	    "12345::", "1:2:3:4:5:6:7:8:9", "1:2:3:4:5:6:7", "::1.2.3",
	    "1:2:3:4:5:6:7:1.2.3.4", "::ffff:1.2.3.04", "fe80::1%eth0", "[::1]",
	    "::g", "1:2:3:4:5:6:7:8::", "::1:2:3:4:5:6:7:8",
	    "1.2.3.4::", "::1.2.3.4:1"};
	size_t i;

	for (i = 0; i < GPT_ARRAY_LEN(ok); i++)
		ck_assert_msg(
		    uri_is_ipv6(ok[i], strlen(ok[i])), "\"%s\" is IPv6", ok[i]);
	for (i = 0; i < GPT_ARRAY_LEN(bad); i++)
		ck_assert_msg(!uri_is_ipv6(bad[i], strlen(bad[i])),
		    "\"%s\" is not IPv6", bad[i]);
}
END_TEST

/* RFC 3986 section 5.4: every example, against one base. */
static const char rfc_base[] = "http://a/b/c/d;p?q";
static const char *const rfc_examples[][2] = {
    /* 5.4.1 normal */
    {"g:h", "g:h"}, {"g", "http://a/b/c/g"}, {"./g", "http://a/b/c/g"},
    {"g/", "http://a/b/c/g/"}, {"/g", "http://a/g"}, {"//g", "http://g"},
    {"?y", "http://a/b/c/d;p?y"}, {"g?y", "http://a/b/c/g?y"},
    {"#s", "http://a/b/c/d;p?q#s"}, {"g#s", "http://a/b/c/g#s"},
    {"g?y#s", "http://a/b/c/g?y#s"}, {";x", "http://a/b/c/;x"},
    {"g;x", "http://a/b/c/g;x"}, {"g;x?y#s", "http://a/b/c/g;x?y#s"},
    {"", "http://a/b/c/d;p?q"}, {".", "http://a/b/c/"}, {"./", "http://a/b/c/"},
    {"..", "http://a/b/"}, {"../", "http://a/b/"}, {"../g", "http://a/b/g"},
    {"../..", "http://a/"}, {"../../", "http://a/"}, {"../../g", "http://a/g"},
    /* 5.4.2 abnormal */
    {"../../../g", "http://a/g"}, {"../../../../g", "http://a/g"},
    {"/./g", "http://a/g"}, {"/../g", "http://a/g"}, {"g.", "http://a/b/c/g."},
    {".g", "http://a/b/c/.g"}, {"g..", "http://a/b/c/g.."},
    {"..g", "http://a/b/c/..g"}, {"./../g", "http://a/b/g"},
    {"./g/.", "http://a/b/c/g/"}, {"g/./h", "http://a/b/c/g/h"},
    {"g/../h", "http://a/b/c/h"}, {"g;x=1/./y", "http://a/b/c/g;x=1/y"},
    {"g;x=1/../y", "http://a/b/c/y"}, {"g?y/./x", "http://a/b/c/g?y/./x"},
    {"g?y/../x", "http://a/b/c/g?y/../x"}, {"g#s/./x", "http://a/b/c/g#s/./x"},
    {"g#s/../x", "http://a/b/c/g#s/../x"},
    {"http:g", "http:g"}, /* strict parser */
};

static void
expect_resolve(const char *base, const char *ref, const char *want)
{
	struct uri b = parse_ok(base, URI_ABSOLUTE), r = parse_ok(ref, 0);
	char buf[256];
	size_t n = 0;

	ck_assert(uri_resolve_bound(&b, &r) <= sizeof(buf));
	ck_assert_msg(uri_resolve(&b, &r, buf, sizeof(buf), &n) == 0,
	    "\"%s\" against \"%s\" does not resolve", ref, base);
	ck_assert_msg(n == strlen(want) && memcmp(buf, want, n) == 0,
	    "\"%s\" against \"%s\" gives \"%.*s\", want \"%s\"", ref, base,
	    (int)n, buf, want);
}

START_TEST(uri_resolve_gives_every_rfc3986_example)
{
	size_t i;

	for (i = 0; i < GPT_ARRAY_LEN(rfc_examples); i++)
		expect_resolve(
		    rfc_base, rfc_examples[i][0], rfc_examples[i][1]);
}
END_TEST

START_TEST(uri_resolve_handles_ids_of_real_schemas)
{
	expect_resolve("http://example.com/root.json", "#foo",
	    "http://example.com/root.json#foo");
	expect_resolve("http://example.com/root.json", "nested.json",
	    "http://example.com/nested.json");
	expect_resolve(
	    "http://example.com", "a.json", "http://example.com/a.json");
	expect_resolve("https://example.com/schemas/a/b.json", "../c.json",
	    "https://example.com/schemas/c.json");
	expect_resolve("urn:uuid:deadbeef-1234-ffff-ffff-4321feebdaed", "#/x",
	    "urn:uuid:deadbeef-1234-ffff-ffff-4321feebdaed#/x");
	expect_resolve("http://localhost:1234/draft2020-12/tree", "node",
	    "http://localhost:1234/draft2020-12/node");
	expect_resolve("http://a/b#frag", "", "http://a/b"); /* 5.2.2 */
	expect_resolve("tag:x,2024:a/b", "c", "tag:x,2024:a/c");
	/* a path that would read as an authority keeps a "/." */
	expect_resolve("a:b", "/.//c", "a:/.//c");
	expect_resolve("a:/x/y", "..//c", "a:/.//c");
	expect_resolve("http://h/x", "/.//c", "http://h//c");
}
END_TEST

START_TEST(uri_resolve_refuses_a_relative_base_and_a_small_buffer)
{
	struct uri b = parse_ok("/relative/base", 0), r = parse_ok("g", 0);
	struct uri ab = parse_ok("http://a/b/c/d;p?q", 0);
	struct arena a;
	char buf[64];
	size_t n = 7;
	char *s;

	ck_assert_int_eq(uri_resolve(&b, &r, buf, sizeof(buf), &n), -1);
	ck_assert_uint_eq(n, 7);
	ck_assert_int_eq(uri_resolve(&ab, &r, buf, 4, &n), -1);
	ck_assert_uint_eq(n, 7);
	arena_init(&a, 1 << 16);
	s = uri_resolve_arena(&ab, &r, &a, &n);
	ck_assert_str_eq(s, "http://a/b/c/g");
	ck_assert_uint_eq(n, 14);
	ck_assert_ptr_null(uri_resolve_arena(&b, &r, &a, &n));
	arena_free(&a);
}
END_TEST

static void
expect_normal(const char *in, const char *want)
{
	char buf[256];
	size_t n = 0;

	ck_assert_msg(
	    uri_normalize(in, strlen(in), URI_IRI, buf, sizeof(buf), &n) == 0,
	    "\"%s\" does not normalize", in);
	ck_assert_msg(n == strlen(want) && memcmp(buf, want, n) == 0,
	    "\"%s\" normalizes to \"%.*s\", want \"%s\"", in, (int)n, buf,
	    want);
	ck_assert(n <= strlen(in));
}

START_TEST(uri_normalize_makes_equal_ids_byte_equal)
{
	expect_normal("HTTP://Example.COM/a", "http://example.com/a");
	expect_normal("http://example.com/a%2fb", "http://example.com/a%2Fb");
	expect_normal("http://example.com/%7Euser", "http://example.com/~user");
	expect_normal(
	    "http://example.com/a/./b/../c", "http://example.com/a/c");
	expect_normal("http://example.com/x#", "http://example.com/x");
	expect_normal("http://example.com/x#Frag", "http://example.com/x#Frag");
	expect_normal("http://[::A]:/", "http://[::a]/");
	expect_normal("http://U%73er@H/", "http://User@h/");
	expect_normal("../a/./b", "../a/./b");         /* relative: path kept */
	expect_normal("urn:UUID:ABC", "urn:UUID:ABC"); /* path case kept */
	expect_normal("#", "");
	expect_normal("httpM:/.//P0//a/./b/.", "httpm:/.//P0//a/b/");
}
END_TEST

START_TEST(uri_normalize_refuses_invalid_text_and_small_buffers)
{
	char buf[8];
	size_t n;
	struct arena a;
	char *s;

	ck_assert_int_eq(uri_normalize("a b", 3, 0, buf, sizeof(buf), &n), -1);
	ck_assert_int_eq(uri_normalize("http://h/", 9, 0, buf, 4, &n), -1);
	arena_init(&a, 1 << 16);
	s = uri_normalize_arena("HTTP://H/#", 10, 0, &a, &n);
	ck_assert_str_eq(s, "http://h/");
	arena_free(&a);
}
END_TEST

static Suite *
suite_uri(void)
{
	Suite *s = suite_create("uri");
	TCase *tc = tcase_create("parse");

	tcase_add_test(tc, uri_parse_splits_the_components);
	tcase_add_test(tc, uri_parse_tells_empty_from_absent);
	tcase_add_test(tc, uri_parse_accepts_rfc3986_references);
	tcase_add_test(tc, uri_parse_refuses_what_the_grammar_refuses);
	tcase_add_test(tc, uri_parse_absolute_requires_a_scheme);
	tcase_add_test(tc, uri_parse_iri_mode_allows_ucschar_only);
	tcase_add_test(tc, uri_valid_agrees_with_uri_parse_on_random_texts);
	tcase_add_test(tc, uri_is_ipv4_refuses_leading_zeros_and_big_octets);
	tcase_add_test(tc, uri_is_ipv6_follows_rfc4291_text_forms);
	suite_add_tcase(s, tc);
	tc = tcase_create("resolve");
	tcase_add_test(tc, uri_resolve_gives_every_rfc3986_example);
	tcase_add_test(tc, uri_resolve_handles_ids_of_real_schemas);
	tcase_add_test(
	    tc, uri_resolve_refuses_a_relative_base_and_a_small_buffer);
	suite_add_tcase(s, tc);
	tc = tcase_create("normalize");
	tcase_add_test(tc, uri_normalize_makes_equal_ids_byte_equal);
	tcase_add_test(
	    tc, uri_normalize_refuses_invalid_text_and_small_buffers);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(suite_uri)
