/*
 * bench_format.c: the cost of `format`, on a form of twenty formatted
 * fields (bench/formats.schema.json: one of each common format, the
 * numeric OpenAPI ones included).
 *
 * Two generated bodies that conform to the form: one record (about
 * 600 B, the smallest body the form allows) and about 1 MB of records,
 * their values drawn from small pools of realistic text that ajv-formats
 * accepts too, so that both run every check (dates with
 * offsets and fractions, plus-tagged addresses, IPv6 with embedded IPv4,
 * URIs with queries and fragments, templates, patterns).  The driver
 * (bench_form.h) times json_parse alone against json_parse +
 * schema_validate on each body.
 *
 *   bench_format SCHEMA            the table above
 *   bench_format SCHEMA mbps SIZE  one line: median MB/s of parse +
 *                                  validate on the SIZE-byte body
 *   bench_format SCHEMA dump DIR   write DIR/small.json, DIR/large.json
 */
#include "bench_form.h"

/* Each field: its name and a pool of conforming values (JSON text). */
static const struct {
	const char *name;
	const char *values[4];
} fields[] = {
    {"at", {"\"2024-02-29T23:59:60Z\"", "\"1998-12-31T15:59:60.123-08:00\"",
               "\"2021-06-01T08:30:06.283185+02:00\"",
               "\"1963-06-19t08:30:06z\""}},
    {"day", {"\"2024-02-29\"", "\"2000-02-29\"", "\"1999-12-31\"",
                "\"2021-04-30\""}},
    {"clock", {"\"08:30:06Z\"", "\"23:20:50.52+01:00\"", "\"12:34:56-00:00\"",
                  "\"00:00:00z\""}},
    {"span", {"\"P4DT12H30M5S\"", "\"PT36H\"", "\"P1Y2M\"", "\"P2W\""}},
    {"mail",
        {"\"joe.bloggs@example.com\"", "\"first.last+tag@mail.example.net\"",
            "\"te~st@example.org\"", "\"ops_team@sub.example.co.uk\""}},
    {"host", {"\"www.example.com\"", "\"api-1.eu.example.net\"",
                 "\"localhost\"", "\"a1.b2.c3.example\""}},
    {"v4", {"\"192.168.0.1\"", "\"10.0.0.255\"", "\"127.0.0.1\"",
               "\"203.0.113.7\""}},
    {"v6", {"\"2001:db8::ff00:42:8329\"", "\"::ffff:192.0.2.128\"", "\"::1\"",
               "\"fe80:0:0:0:200:f8ff:fe21:67cf\""}},
    {"link",
        {"\"https://example.com/a/b?c=d#e\"", "\"http://[::1]:8080/status\"",
            "\"urn:isbn:0451450523\"", "\"mailto:joe@example.com\""}},
    {"ref", {"\"../schemas/a.json#/$defs/x\"", "\"#frag\"",
                "\"//cdn.example/x.js\"", "\"page?x=1\""}},
    {"id", {"\"2eb8aa08-aa98-11ea-b4aa-73b441d16380\"",
               "\"f81d4fae-7dec-11d0-a765-00a0c91e6bf6\"",
               "\"00000000-0000-0000-0000-000000000000\"",
               "\"98D80576-482E-427F-8AB2-A27E8AB2A27E\""}},
    {"tpl", {"\"https://example.com/{user}/repos{?page,per_page}\"",
                "\"{+path*}/here\"", "\"/search{?q,lang:2}\"", "\"{/list*}\""}},
    {"ptr", {"\"/a~1b/0\"", "\"\"", "\"/properties/name\"", "\"/~0tilde\""}},
    {"rel", {"\"0#\"", "\"1/foo/bar\"", "\"0/x\"", "\"2\""}},
    {"re", {"\"^[a-z]+$\"", "\"\\\\d{3}-\\\\d{4}\"", "\"(foo|bar)*baz\"",
               "\"^\\\\p{Letter}+$\""}},
    {"n32", {"2147483647", "-17", "0", "65536"}},
    {"n64", {"9223372036854775807", "-1", "1700000000000", "42"}},
    {"f32", {"3.4028235e38", "1.5", "-0.25", "1e-45"}},
    {"f64", {"1.7976931348623157e308", "2.718281828459045", "-1e-300", "0"}},
    {"blob", {"\"aGVsbG8gd29ybGQ=\"", "\"QUJD\"", "\"\"", "\"+/+/AA==\""}},
};

static void
record(struct buf *b)
{
	size_t i;

	put(b, "{");
	for (i = 0; i < GPT_ARRAY_LEN(fields); i++) {
		if (i > 0)
			put(b, ",");
		put(b, "\"");
		put(b, fields[i].name);
		put(b, "\":");
		put(b, fields[i].values[next_rand() % 4]);
	}
	put(b, "}");
}

int
main(int argc, char **argv)
{
	static const struct bench_form bf = {
	    .prog = "bench_format",
	    .form = "formats form",
	    .head = "{\"records\":[",
	    .margin = 700,
	    .item = record,
	};

	return bench_form_main(argc, argv, &bf);
}
