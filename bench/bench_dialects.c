/*
 * bench_dialects.c: validation on two forms of the dialects people
 * publish, and the compile time of a real-world-sized form.
 *
 *   openapi  bench/openapi.schema.json (2020-12): OpenAPI 3.1 components
 *            composed with allOf and closed with unevaluatedProperties:
 *            false, so every object tracks what its allOf evaluated.
 *   draft07  bench/draft07.schema.json (draft-07): definitions reached
 *            through $ref, closed with additionalProperties: false.
 *
 * For each, two generated bodies that conform to the form, about 300 B
 * and about 1 MB (pages of orders; batches of events).  The driver
 * (bench_form.h) times json_parse alone against json_parse +
 * schema_validate on each: the median of ROUNDS interleaved rounds of
 * each, and the overhead of validation.  CPU time of the process, so that
 * other load on the machine disturbs the figures less.
 *
 *   bench_dialects FORM SCHEMA            the table above
 *   bench_dialects FORM SCHEMA mbps SIZE  one line: median MB/s of parse +
 *                                         validate on the SIZE-byte body
 *   bench_dialects FORM SCHEMA dump DIR   write DIR/small.json and
 *                                         DIR/large.json (the same bytes,
 *                                         for other validators)
 *   bench_dialects bigform FILE           write the compile benchmark's
 *                                         form (about 500 KB, draft-07)
 *   bench_dialects compile SCHEMA         one line: median ms of
 *                                         json_parse, then of
 *                                         schema_compile from the parsed
 *                                         JSON (COMPILE_RUNS runs each)
 *
 * Benchmark code only; nothing here is built into gpt.fcgi.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_form.h"

#define COMPILE_RUNS 15
#define BIGFORM ((size_t)500 * 1000)

/* ----- generated text --------------------------------------------------- */

static void putf(struct buf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void
putf(struct buf *b, const char *fmt, ...)
{
	char s[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(s, sizeof(s), fmt, ap);
	va_end(ap);
	put(b, s);
}

/* n characters of [A-Za-z0-9] */
static void
put_alnum(struct buf *b, unsigned n)
{
	static const char an[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	                         "abcdefghijklmnopqrstuvwxyz0123456789";
	char s[64];
	unsigned i;

	for (i = 0; i < n && i < sizeof(s) - 1; i++)
		s[i] = an[next_rand() % (sizeof(an) - 1)];
	s[i] = '\0';
	put(b, s);
}

#define PICK(pool) (pool)[next_rand() % GPT_ARRAY_LEN(pool)]

static const char *const names[] = {"Ana Lima", "Jonas Berg",
    "Chlo\xC3\xA9 Martin", "\xE7\x94\xB0\xE4\xB8\xAD \xE5\xA4\xAA\xE9\x83\x8E",
    "Priya Natarajan", "Ole Hansen", "Maria \\\"Mia\\\" Rossi"};
static const char *const cities[] = {
    "Paris", "Berlin", "Osaka", "Oslo", "S\xC3\xA3o Paulo", "Chennai"};
static const char *const currencies[] = {"EUR", "USD", "GBP", "JPY", "CHF"};
static const char *const statuses[] = {
    "pending", "paid", "shipped", "cancelled"};

/* Set for the small body: one order as lean as the form allows, about
 * 300 B (one line item, no labels, no contact details). */
static bool lean;

/* One object that starts as a Resource: "id", "created", maybe labels. */
static void
resource(struct buf *b, const char *prefix)
{
	putf(b, "{\"id\":\"%s_", prefix);
	put_alnum(b, 8 + next_rand() % 8);
	putf(b, "\",\"created\":%u", 1700000000u + next_rand() % 50000000u);
	if (!lean && next_rand() % 4 == 0)
		putf(b,
		    ",\"labels\":{\"channel\":\"web\",\"campaign\":\"c%u\"}",
		    next_rand() % 100);
}

static void
money(struct buf *b)
{
	putf(b, "{\"amount\":%u,\"currency\":\"%s\"}", next_rand() % 100000,
	    PICK(currencies));
}

/* openapi: one Order, a Resource with a Customer and line items. */
static void
order(struct buf *b)
{
	unsigned i, n = lean ? 1 : 1 + next_rand() % 3;

	resource(b, "ord");
	putf(b, ",\"status\":\"%s\",\"customer\":", PICK(statuses));
	resource(b, "cus");
	putf(b, ",\"name\":\"%s\"", PICK(names));
	if (!lean && next_rand() % 2 == 0)
		putf(
		    b, ",\"email\":\"user%u@example.com\"", next_rand() % 1000);
	if (!lean && next_rand() % 2 == 0)
		putf(b,
		    ",\"address\":{\"line1\":\"%u Main Street\","
		    "\"city\":\"%s\",\"postcode\":\"%05u\","
		    "\"country\":\"FR\"}",
		    1 + next_rand() % 200, PICK(cities), next_rand() % 100000);
	put(b, "},\"items\":[");
	for (i = 0; i < n; i++) {
		if (i > 0)
			put(b, ",");
		resource(b, "li");
		putf(b, ",\"sku\":\"ABC-%04u\",\"quantity\":%u,\"price\":",
		    next_rand() % 10000, 1 + next_rand() % 9);
		money(b);
		put(b, "}");
	}
	put(b, "],\"total\":");
	money(b);
	put(b, "}");
}

static const char *const kinds[] = {"view", "click", "search", "purchase"};
static const char *const roles[] = {"guest", "member", "admin"};
static const char *const tags[] = {
    "mobile", "beta", "eu-west", "a/b:7", "returning", "caf\xC3\xA9"};

/* draft07: one event. */
static void
event(struct buf *b)
{
	unsigned i, n;

	putf(b,
	    "{\"id\":\"%08x-%04x\",\"at\":%u%03u,\"kind\":\"%s\","
	    "\"user\":{\"id\":\"%08x-%04x\",\"name\":\"%s\"",
	    next_rand(), next_rand() & 0xffff,
	    1700000000u + next_rand() % 5000000, next_rand() % 1000,
	    PICK(kinds), next_rand(), next_rand() & 0xffff, PICK(names));
	if (next_rand() % 2 == 0)
		putf(b, ",\"role\":\"%s\"", PICK(roles));
	put(b, "}");
	if (next_rand() % 2 == 0)
		putf(b, ",\"where\":{\"lat\":%d.%04u,\"lon\":%d.%04u}",
		    (int)(next_rand() % 179) - 89, next_rand() % 10000,
		    (int)(next_rand() % 359) - 179, next_rand() % 10000);
	if ((n = next_rand() % 4) > 0) {
		put(b, ",\"tags\":[");
		for (i = 0; i < n; i++)
			putf(b, "%s\"%s\"", i > 0 ? "," : "", PICK(tags));
		put(b, "]");
	}
	if (next_rand() % 3 == 0)
		putf(b, ",\"value\":%u.%02u", next_rand() % 1000,
		    next_rand() % 100);
	put(b, "}");
}

static void
sized(size_t target)
{
	lean = target <= SMALL;
}

/* The two forms' bodies, for the driver (bench_form.h). */
static const struct {
	const char *name;
	struct bench_form bf;
} forms[] = {
    {"openapi", {.prog = "bench_dialects",
                    .form = "openapi form",
                    .head = "{\"next\":null,\"orders\":[",
                    .margin = 200,
                    .item = order,
                    .sized = sized}},
    {"draft07", {.prog = "bench_dialects",
                    .form = "draft07 form",
                    .head = "{\"source\":\"web-frontend\",\"events\":[",
                    .margin = 60,
                    .item = event,
                    .sized = sized}},
};

/* ----- the compile benchmark ------------------------------------------- */

static int
write_file(const char *path, const char *bytes, size_t len)
{
	FILE *f;

	if ((f = fopen(path, "wb")) == NULL ||
	    fwrite(bytes, 1, len, f) != len || fclose(f) != 0) {
		perror(path);
		return -1;
	}
	return 0;
}

/* Read and parse the JSON at path into a (process lifetime). */
static const struct json_value *
load_json(const char *path, struct arena *a, char **bytes, size_t *len)
{
	struct buf text;
	const struct json_value *root;
	struct json_err err;

	buf_init(&text, (size_t)16 << 20);
	if (cli_slurp(path, &text) == -1)
		return NULL;
	*bytes = buf_take(&text, len);
	if (*bytes == NULL ||
	    json_parse(*bytes, *len, a, 0, &root, &err) != JSON_OK) {
		fprintf(stderr, "%s: not strict JSON\n", path);
		return NULL;
	}
	return root; /* bytes stay allocated: the tree borrows its strings */
}

static int
compile_or_say(const char *path, const struct json_value *root, struct arena *a,
    const struct schema **out)
{
	struct schema_err serr;

	if (schema_compile(root, a, NULL, NULL, out, &serr) != SCHEMA_OK) {
		fprintf(stderr, "%s: refused at %s: %s\n", path,
		    serr.pointer.buf, serr.reason);
		return -1;
	}
	return 0;
}

static const char *const nouns[] = {"Account", "Address", "Invoice", "Shipment",
    "Product", "Price", "Tax", "Discount", "Warehouse", "Carrier", "Payment",
    "Refund", "Customer", "Contact", "Policy", "Quota", "Region", "Volume",
    "Snapshot", "Listener", "Route", "Certificate", "Secret", "Job", "Trigger",
    "Queue", "Topic", "Subscription", "Endpoint", "Role"};
static const char *const parts[] = {"Spec", "Status", "Ref", "Config",
    "Summary", "Detail", "Rule", "Limit", "Option", "Entry"};
static const char *const fields[] = {"name", "displayName", "description",
    "kind", "version", "createdAt", "updatedAt", "owner", "region", "zone",
    "priority", "weight", "enabled", "labels", "selector", "timeoutSeconds",
    "retries", "maxSize", "minSize", "protocol", "port", "host", "path",
    "email", "phone", "currency", "amount", "rate", "country", "locale",
    "reason", "message", "state", "phase", "tier", "policyId", "parentId"};
static const char *const patterns[] = {"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$",
    "^[A-Z]{2}$", "^\\\\+?[0-9 ()-]{7,20}$", "^[0-9]+(\\\\.[0-9]+){2}$",
    "^arn:[a-z-]+:[a-z0-9-]+:[a-z0-9-]*:[0-9]{12}:.+$",
    "^[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\\\\.[A-Za-z]{2,}$", "^(/[^/]+)+/?$",
    "^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-"
    "[0-9a-f]{12}$",
    "^[A-Z][A-Za-z0-9_]{0,63}$", "^[0-9]{4}-[0-9]{2}$",
    "^([01][0-9]|2[0-3]):[0-5][0-9]$", "^[a-z]{2}(-[A-Z]{2})?$"};
static const char *const words[] = {"the", "resource", "value", "used", "when",
    "set", "by", "the server", "of this", "object", "must be", "unique",
    "within", "its", "namespace", "and", "is", "read-only", "defaults to",
    "the region", "in seconds", "see the guide"};
static const char *const enum_words[] = {"ACTIVE", "INACTIVE", "PENDING",
    "FAILED", "DELETING", "CREATING", "UPDATING", "UNKNOWN", "tcp", "udp",
    "http", "https", "grpc", "small", "medium", "large", "xlarge", "daily",
    "weekly", "monthly", "low", "normal", "high", "critical", "alpha", "beta",
    "ga", "deprecated", "retired", "none"};

static void
description(struct buf *b)
{
	unsigned i, n = 6 + next_rand() % 14;

	put(b, "\"description\":\"");
	for (i = 0; i < n; i++)
		putf(b, "%s%s", i > 0 ? " " : "", PICK(words));
	put(b, ".\"");
}

static void
def_name(struct buf *b, unsigned i)
{
	putf(b, "%s%s%u", nouns[i % GPT_ARRAY_LEN(nouns)],
	    parts[(i / GPT_ARRAY_LEN(nouns)) % GPT_ARRAY_LEN(parts)],
	    (unsigned)(i / (GPT_ARRAY_LEN(nouns) * GPT_ARRAY_LEN(parts))));
}

/* A reference from definition `from` (from == ndefs: the root) to one
 * defined before it, as a generated schema's higher types use lower ones,
 * or now and then to itself (a tree: recursion). */
static void
ref_to(struct buf *b, unsigned from, unsigned ndefs)
{
	unsigned to;

	if (from == ndefs)
		to = ndefs - 1 - next_rand() % (ndefs < 50 ? ndefs : 50);
	else if (from == 0 || next_rand() % 20 == 0)
		to = from;
	else
		to = next_rand() % from;
	put(b, "{\"$ref\":\"#/definitions/");
	def_name(b, to);
	put(b, "\"}");
}

/* One property's schema, of a kind a generated OpenAPI or CRD schema has. */
static void
property(struct buf *b, unsigned from)
{
	unsigned i, n;

	switch (next_rand() % 10) {
	case 0:
	case 1:
		put(b, "{\"type\":\"string\",");
		description(b);
		putf(b, ",\"maxLength\":%u", 16u << (next_rand() % 6));
		if (next_rand() % 2 == 0)
			putf(b, ",\"pattern\":\"%s\"", PICK(patterns));
		put(b, "}");
		break;
	case 2:
		putf(b, "{\"type\":\"integer\",\"minimum\":%u,\"maximum\":%u,",
		    next_rand() % 2, 100u + next_rand() % 100000);
		description(b);
		put(b, "}");
		break;
	case 3:
		put(b, "{\"type\":\"boolean\",\"default\":false,");
		description(b);
		put(b, "}");
		break;
	case 4:
		put(b, "{\"type\":\"string\",\"enum\":[");
		n = 2 + next_rand() % 12;
		for (i = 0; i < n; i++)
			putf(b, "%s\"%s%u\"", i > 0 ? "," : "",
			    PICK(enum_words), i);
		put(b, "],");
		description(b);
		put(b, "}");
		break;
	case 5:
	case 6:
		ref_to(b, from, from + 1);
		break;
	case 7:
		put(b, "{\"type\":\"array\",\"maxItems\":100,\"items\":");
		ref_to(b, from, from + 1);
		put(b, ",");
		description(b);
		put(b, "}");
		break;
	case 8:
		put(b, "{\"type\":\"array\",\"uniqueItems\":true,\"items\":"
		       "{\"type\":\"string\",\"minLength\":1}}");
		break;
	default:
		put(b, "{\"oneOf\":[");
		ref_to(b, from, from + 1);
		put(b, ",");
		ref_to(b, from, from + 1);
		put(b, "]}");
		break;
	}
}

/* A draft-07 form of about BIGFORM bytes: definitions of objects with
 * described properties, enums, patterns, bounds and references between
 * them (cycles included), as large generated API schemas are. */
static int
bigform(const char *path)
{
	unsigned ndefs = 0, i, j, n;
	size_t len;
	struct buf b;
	char *text;
	int rc;

	/* Each definition is about 1.2 KB; find the count first. */
	for (;;) {
		buf_init(&b, (size_t)16 << 20);
		rng = BENCH_RAND_SEED;
		ndefs = ndefs == 0 ? 300 : ndefs + 10;
		put(&b,
		    "{\"$schema\":\"http://json-schema.org/draft-07/schema#\","
		    "\"$id\":\"https://api.example/schemas/bundle.json\","
		    "\"title\":\"Generated API bundle\",\"type\":\"object\","
		    "\"properties\":{");
		for (i = 0; i < 20; i++) {
			putf(&b, "%s\"%s%u\":", i > 0 ? "," : "", PICK(fields),
			    i);
			ref_to(&b, ndefs, ndefs);
		}
		put(&b, "},\"additionalProperties\":false,\"definitions\":{");
		for (i = 0; i < ndefs; i++) {
			if (i > 0)
				put(&b, ",");
			put(&b, "\"");
			def_name(&b, i);
			put(&b, "\":{\"type\":\"object\",\"title\":\"");
			def_name(&b, i);
			put(&b, "\",");
			description(&b);
			put(&b, ",\"required\":[\"");
			put(&b, fields[0]);
			put(&b, "\"],\"properties\":{");
			n = 4 + next_rand() % 12;
			putf(&b, "\"%s\":{\"type\":\"string\"}", fields[0]);
			for (j = 1; j < n; j++) {
				putf(&b, ",\"%s\":",
				    fields[1 +
				           (j * 7 + i) %
				               (GPT_ARRAY_LEN(fields) - 1)]);
				property(&b, i);
			}
			putf(&b, "},\"additionalProperties\":%s}",
			    next_rand() % 4 == 0 ? "true" : "false");
		}
		put(&b, "}}");
		if (buf_len(&b) >= BIGFORM)
			break;
		buf_free(&b);
	}
	text = buf_take(&b, &len);
	rc = write_file(path, text, len);
	free(text);
	return rc == -1;
}

static double
ms_since(double t)
{
	return (now() - t) * 1e3;
}

static int
bench_compile(const char *path)
{
	struct arena doc, a;
	const struct json_value *root;
	const struct schema *s;
	double parse[COMPILE_RUNS], comp[COMPILE_RUNS], t;
	char *bytes;
	size_t len;
	unsigned r;

	arena_init(&doc, (size_t)256 << 20);
	arena_init(&a, (size_t)256 << 20);
	if ((root = load_json(path, &doc, &bytes, &len)) == NULL)
		return 1;
	for (r = 0; r < COMPILE_RUNS; r++) {
		const struct json_value *v;
		struct json_err err;

		t = now();
		if (json_parse(bytes, len, &a, 0, &v, &err) != JSON_OK)
			return 1;
		parse[r] = ms_since(t);
		arena_reset(&a);
		t = now();
		if (compile_or_say(path, root, &a, &s) == -1)
			return 1;
		comp[r] = ms_since(t);
		arena_reset(&a);
	}
	printf("%zu %.3f %.3f\n", len, median(parse, COMPILE_RUNS),
	    median(comp, COMPILE_RUNS));
	arena_free(&a);
	arena_free(&doc);
	free(bytes);
	return 0;
}

int
main(int argc, char **argv)
{
	size_t i;

	if (argc == 3 && strcmp(argv[1], "bigform") == 0)
		return bigform(argv[2]);
	if (argc == 3 && strcmp(argv[1], "compile") == 0)
		return bench_compile(argv[2]);
	/* FORM, then the driver's own arguments (SCHEMA and the rest). */
	for (i = 0; argc >= 3 && i < GPT_ARRAY_LEN(forms); i++)
		if (strcmp(argv[1], forms[i].name) == 0)
			return bench_form_main(
			    argc - 1, argv + 1, &forms[i].bf);
	fprintf(stderr, "usage: bench_dialects openapi|draft07 SCHEMA "
	                "[mbps SIZE | dump DIR]\n"
	                "       bench_dialects bigform FILE\n"
	                "       bench_dialects compile SCHEMA\n");
	return 2;
}
