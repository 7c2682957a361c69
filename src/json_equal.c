/*
 * json_equal.c: JSON equality and a hash consistent with it, for const,
 * enum and uniqueItems (JSON Schema 2020-12, Core section 4.2.2).
 *
 * Equal means: the same type, where integers and other numbers are one
 * type; numbers equal as exact decimals (1 == 1.0 == 1e0 == 10e-1, -0 ==
 * 0); strings equal byte for byte after unescaping, hence code point for
 * code point; arrays element by element; objects with the same member
 * names and equal values, in any order.
 *
 * Owns nothing, allocates nothing.  Recursion follows the values, whose
 * nesting the parser bounds (JSON_MAX_DEPTH); as a second guard it stops
 * at JSON_EQUAL_MAX_DEPTH: deeper containers compare unequal and hash to
 * one constant (still consistent: equal values are equally deep).
 */
#include <string.h>

#include "dec.h"
#include "json.h"

#define FNV_OFFSET 0xcbf29ce484222325ull
#define FNV_PRIME 0x100000001b3ull

/* Per-type seeds, so that "1", 1 and [1] hash apart. */
enum {
	H_NULL = 0x6e756c6c,
	H_FALSE = 0x66616c73,
	H_TRUE = 0x74727565,
	H_NUMBER = 0x6e756d62,
	H_STRING = 0x73747269,
	H_ARRAY = 0x61727261,
	H_OBJECT = 0x6f626a65,
};

/* splitmix64's finalizer: every input bit reaches every output bit. */
static uint64_t
mix(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ull;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebull;
	x ^= x >> 31;
	return x;
}

static uint64_t
fnv(uint64_t h, const void *p, size_t n)
{
	const unsigned char *s = p;
	size_t i;

	for (i = 0; i < n; i++) {
		h ^= s[i];
		h *= FNV_PRIME;
	}
	return h;
}

/* ---- numbers ------------------------------------------------------------ */

/*
 * A number's value as a dec, or false when its exponent is out of dec's
 * range ("1e99999999999999"): such numbers are then equal only to the same
 * text, which still makes equality reflexive and the hash consistent.
 */
static bool
number_dec(const struct json_value *v, struct dec *d)
{
	return dec_parse(v->u.num.text, v->u.num.len, d) == 0;
}

static bool
number_equal(const struct json_value *a, const struct json_value *b)
{
	struct dec da, db;
	bool oka, okb;

	if (a->u.num.is_small_int && b->u.num.is_small_int)
		return a->u.num.i == b->u.num.i;
	oka = number_dec(a, &da);
	okb = number_dec(b, &db);
	if (oka && okb)
		return dec_cmp(&da, &db) == 0;
	return !oka && !okb && a->u.num.len == b->u.num.len &&
	    memcmp(a->u.num.text, b->u.num.text, a->u.num.len) == 0;
}

/* The hash of sign, significant digits (as characters, given in one or two
 * runs) and exponent: the same for every spelling of one value. */
static uint64_t
hash_normal(bool neg, const char *run1, size_t n1, const char *run2,
    size_t n2, int64_t exp)
{
	uint64_t h = FNV_OFFSET ^ H_NUMBER;

	h = fnv(h, run1, n1);
	h = fnv(h, run2, n2);
	h ^= mix((uint64_t)exp) + (neg ? 1 : 0);
	return mix(h);
}

static uint64_t
number_hash(const struct json_value *v)
{
	char buf[24];
	size_t n = 0, i;
	uint64_t u;
	int64_t exp = 0;
	struct dec d;

	if (v->u.num.is_small_int) {
		if (v->u.num.i == 0)
			return hash_normal(false, "", 0, "", 0, 0);
		u = v->u.num.i < 0 ? 0 - (uint64_t)v->u.num.i
				   : (uint64_t)v->u.num.i;
		while (u % 10 == 0) {
			u /= 10;
			exp++;
		}
		/* digits of u, written from the right */
		i = sizeof(buf);
		while (u > 0) {
			buf[--i] = (char)('0' + u % 10);
			u /= 10;
		}
		n = sizeof(buf) - i;
		return hash_normal(v->u.num.i < 0, buf + i, n, "", 0, exp);
	}
	if (!number_dec(v, &d))
		return mix(fnv(FNV_OFFSET, v->u.num.text, v->u.num.len));
	if (d.dot == SIZE_MAX)
		return hash_normal(d.neg, d.digits, d.ndigits, d.digits, 0,
		    d.exp);
	/* the digits straddle the '.': hash the runs either side of it */
	return hash_normal(d.neg, d.digits, d.dot, d.digits + d.dot + 1,
	    d.ndigits - d.dot, d.exp);
}

/* ---- equality ------------------------------------------------------------- */

static bool
equal_at(const struct json_value *a, const struct json_value *b,
    unsigned depth)
{
	size_t i;

	if (a->type != b->type)
		return false;
	switch (a->type) {
	case JSON_T_NULL:
	case JSON_T_FALSE:
	case JSON_T_TRUE:
		return true;
	case JSON_T_NUMBER:
		return number_equal(a, b);
	case JSON_T_STRING:
		return a->u.str.len == b->u.str.len &&
		    (a->u.str.len == 0 ||
			memcmp(a->u.str.ptr, b->u.str.ptr, a->u.str.len) == 0);
	case JSON_T_ARRAY:
		if (a->u.arr.count != b->u.arr.count)
			return false;
		if (depth >= JSON_EQUAL_MAX_DEPTH)
			return false;
		for (i = 0; i < a->u.arr.count; i++)
			if (!equal_at(&a->u.arr.items[i], &b->u.arr.items[i],
				depth + 1))
				return false;
		return true;
	case JSON_T_OBJECT:
		if (a->u.obj.count != b->u.obj.count)
			return false;
		if (depth >= JSON_EQUAL_MAX_DEPTH)
			return false;
		/* Member names are unique (the parser refuses duplicates), so
		 * equal counts and every name of a found in b with an equal
		 * value is the same member set. */
		for (i = 0; i < a->u.obj.count; i++) {
			const struct json_member *m = &a->u.obj.members[i];
			const struct json_value *o =
			    json_object_get(b, m->key.ptr, m->key.len);

			if (o == NULL || !equal_at(&m->value, o, depth + 1))
				return false;
		}
		return true;
	}
	return false;
}

bool
json_equal(const struct json_value *a, const struct json_value *b)
{
	return equal_at(a, b, 0);
}

/* ---- hash ------------------------------------------------------------------ */

static uint64_t
hash_at(const struct json_value *v, unsigned depth)
{
	uint64_t h, sum;
	size_t i;

	switch (v->type) {
	case JSON_T_NULL:
		return mix(H_NULL);
	case JSON_T_FALSE:
		return mix(H_FALSE);
	case JSON_T_TRUE:
		return mix(H_TRUE);
	case JSON_T_NUMBER:
		return number_hash(v);
	case JSON_T_STRING:
		return mix(fnv(FNV_OFFSET ^ H_STRING, v->u.str.ptr,
		    v->u.str.len));
	case JSON_T_ARRAY:
		h = mix(H_ARRAY ^ v->u.arr.count);
		if (depth >= JSON_EQUAL_MAX_DEPTH)
			return h;
		for (i = 0; i < v->u.arr.count; i++)
			h = mix(h * FNV_PRIME + hash_at(&v->u.arr.items[i],
			    depth + 1));
		return h;
	case JSON_T_OBJECT:
		h = mix(H_OBJECT ^ v->u.obj.count);
		if (depth >= JSON_EQUAL_MAX_DEPTH)
			return h;
		/* A sum does not depend on member order. */
		sum = 0;
		for (i = 0; i < v->u.obj.count; i++) {
			const struct json_member *m = &v->u.obj.members[i];
			uint64_t hk = fnv(FNV_OFFSET, m->key.ptr, m->key.len);

			sum += mix(hk ^ (hash_at(&m->value, depth + 1) *
			    FNV_PRIME));
		}
		return mix(h + sum);
	}
	return 0;
}

uint64_t
json_hash(const struct json_value *v)
{
	return hash_at(v, 0);
}
