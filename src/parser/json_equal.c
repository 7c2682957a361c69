/*
 * json_equal.c: JSON equality, a keyed hash consistent with it, and a
 * canonical encoding that orders values consistently with it, for const,
 * enum and uniqueItems (JSON Schema 2020-12, Core section 4.2.2).
 *
 * Equal means: the same type, where integers and other numbers are one
 * type; numbers equal as exact decimals (1 == 1.0 == 1e0 == 10e-1, -0 ==
 * 0); strings equal byte for byte after unescaping, hence code point for
 * code point; arrays element by element; objects with the same member
 * names and equal values, in any order.
 *
 * The hash is SipHash-1-3 under the process key (hash.h): a string hashes
 * as hash_bytes of its bytes, exactly as a member name does, so the form's
 * enum tables probe strings without building anything; the other types
 * hash in their own domains, numbers over their normalized digits and
 * exponent, arrays over their items' hashes in order, objects over the
 * sum of their members' hashes (so member order does not matter).
 *
 * Owns nothing; only json_canon allocates (from the arena given).
 * Recursion follows the values, whose nesting the parser bounds
 * (JSON_MAX_DEPTH); as a second guard it stops at JSON_EQUAL_MAX_DEPTH:
 * deeper containers compare unequal, hash to one constant per type and
 * size, and encode as unique (still consistent: equal values are equally
 * deep).
 */
#include <string.h>

#include "base/arena.h"
#include "base/dec.h"
#include "base/hash.h"
#include "parser/json.h"
#include "base/sort.h"

/* Hash domains per type, so that "1", 1 and [1] hash apart. */
enum {
	H_NULL = 0x6e756c6c,
	H_FALSE = 0x66616c73,
	H_TRUE = 0x74727565,
	H_NUMBER = 0x6e756d62,
	H_NUMTEXT = 0x6e756d74,
	H_ARRAY = 0x61727261,
	H_OBJECT = 0x6f626a65,
};

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

/*
 * A number's value in one normal form: sign, significant digits (in one
 * or two runs, as characters) and exponent, the same for every spelling
 * of one value; or, when its exponent is out of dec's range, its text
 * (text true).  buf holds the digits of a small integer.
 */
struct num_norm {
	bool neg, text;
	const char *run1, *run2;
	size_t n1, n2;
	int64_t exp;
	char buf[24];
};

static void
number_norm(const struct json_value *v, struct num_norm *nn)
{
	size_t i;
	uint64_t u;
	struct dec d;

	memset(nn, 0, sizeof(*nn));
	nn->run1 = nn->run2 = "";
	if (v->u.num.is_small_int) {
		if (v->u.num.i == 0)
			return;
		nn->neg = v->u.num.i < 0;
		u = nn->neg ? 0 - (uint64_t)v->u.num.i : (uint64_t)v->u.num.i;
		while (u % 10 == 0) {
			u /= 10;
			nn->exp++;
		}
		/* digits of u, written from the right */
		i = sizeof(nn->buf);
		while (u > 0) {
			nn->buf[--i] = (char)('0' + u % 10);
			u /= 10;
		}
		nn->run1 = nn->buf + i;
		nn->n1 = sizeof(nn->buf) - i;
		return;
	}
	if (!number_dec(v, &d)) {
		nn->text = true;
		nn->run1 = v->u.num.text;
		nn->n1 = v->u.num.len;
		return;
	}
	nn->neg = d.neg;
	nn->exp = d.exp;
	nn->run1 = d.digits;
	if (d.dot == SIZE_MAX) {
		nn->n1 = d.ndigits;
	} else {
		/* the digits straddle the '.': the runs either side of it */
		nn->n1 = d.dot;
		nn->run2 = d.digits + d.dot + 1;
		nn->n2 = d.ndigits - d.dot;
	}
}

static uint64_t
number_hash(const struct json_value *v)
{
	struct num_norm nn;
	struct hash_state st;
	unsigned char neg;

	number_norm(v, &nn);
	hash_begin(&st, nn.text ? H_NUMTEXT : H_NUMBER);
	hash_update(&st, nn.run1, nn.n1);
	hash_update(&st, nn.run2, nn.n2);
	hash_update_u64(&st, (uint64_t)nn.exp);
	neg = nn.neg ? 1 : 0;
	hash_update(&st, &neg, 1);
	return hash_end(&st);
}

/* ---- equality -------------------------------------------------------------
 */

static bool
equal_at(const struct json_value *a, const struct json_value *b, unsigned depth)
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
		       (a->u.str.len == 0 || memcmp(a->u.str.ptr, b->u.str.ptr,
		                                 a->u.str.len) == 0);
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
			const struct json_member *bm = &b->u.obj.members[i];
			/* most equal objects list their members alike: the
			 * same position first, then the lookup */
			const struct json_value *o =
			    bm->key.len == m->key.len &&
			            memcmp(bm->key.ptr, m->key.ptr,
			                m->key.len) == 0
			        ? &bm->value
			        : json_object_get(b, m->key.ptr, m->key.len);

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

/* ---- hash ------------------------------------------------------------------
 */

static uint64_t
hash_empty(uint64_t domain)
{
	struct hash_state st;

	hash_begin(&st, domain);
	return hash_end(&st);
}

/* One member's term of an object's hash: name hash hk, value hash hv,
 * combined without symmetry ({"a": "b"} and {"b": "a"} differ) and
 * finished by MurmurHash3's 64-bit mixer. */
static inline uint64_t
member_mix(uint64_t hk, uint64_t hv)
{
	uint64_t x = hk * UINT64_C(0x9E3779B97F4A7C15) + hv;

	x ^= x >> 33;
	x *= UINT64_C(0xff51afd7ed558ccd);
	x ^= x >> 33;
	x *= UINT64_C(0xc4ceb9fe1a85ec53);
	return x ^ (x >> 33);
}

static uint64_t
hash_at(const struct json_value *v, unsigned depth)
{
	struct hash_state st;
	uint64_t sum;
	size_t i;

	switch (v->type) {
	case JSON_T_NULL:
		return hash_empty(H_NULL);
	case JSON_T_FALSE:
		return hash_empty(H_FALSE);
	case JSON_T_TRUE:
		return hash_empty(H_TRUE);
	case JSON_T_NUMBER:
		return number_hash(v);
	case JSON_T_STRING:
		return hash_bytes(v->u.str.ptr, v->u.str.len);
	case JSON_T_ARRAY:
		hash_begin(&st, H_ARRAY);
		hash_update_u64(&st, v->u.arr.count);
		if (depth < JSON_EQUAL_MAX_DEPTH)
			for (i = 0; i < v->u.arr.count; i++)
				hash_update_u64(&st,
				    hash_at(&v->u.arr.items[i], depth + 1));
		return hash_end(&st);
	case JSON_T_OBJECT:
		hash_begin(&st, H_OBJECT);
		hash_update_u64(&st, v->u.obj.count);
		if (depth >= JSON_EQUAL_MAX_DEPTH)
			return hash_end(&st);
		/* A sum does not depend on member order; each term mixes two
		 * keyed hashes (of the name, of the value), so terms cannot be
		 * chosen to cancel.  The mix is a fixed bijection, not another
		 * keyed pass: its inputs are already unpredictable, and a
		 * member then costs the hashes of its name and value only. */
		sum = 0;
		for (i = 0; i < v->u.obj.count; i++) {
			const struct json_member *mb = &v->u.obj.members[i];

			sum += member_mix(hash_bytes(mb->key.ptr, mb->key.len),
			    hash_at(&mb->value, depth + 1));
		}
		hash_update_u64(&st, sum);
		return hash_end(&st);
	}
	return 0;
}

uint64_t
json_hash(const struct json_value *v)
{
	return hash_at(v, 0);
}

/* ---- canonical encoding ------------------------------------------------ */

/*
 * The encoding: a type byte, then
 *   null 'n', false 'f', true 't': nothing;
 *   number 'N': sign byte, exponent (8 bytes), digit count (8), digits;
 *     out of dec's range 'T': length (8), text;
 *   string 'S': length (8), bytes;
 *   array 'A': count (8), the items' encodings;
 *   object 'O': count (8), then per member in the order of names (by
 *     length, then bytes): name length (8), name, the value's encoding;
 *   a container past JSON_EQUAL_MAX_DEPTH 'D': its address (8), unique.
 * Every part is length-prefixed or fixed, so an encoding reads back one
 * way only: equal encodings are equal values, and the normal forms make
 * equal values encode alike.
 */

static bool
canon_add(size_t *n, size_t k)
{
	return gpt_add_size(*n, k, n);
}

/* Add the encoding's size to *n; false when it would not fit. */
static bool
canon_size(const struct json_value *v, unsigned depth, size_t *n)
{
	struct num_norm nn;
	size_t i;

	switch (v->type) {
	case JSON_T_NULL:
	case JSON_T_FALSE:
	case JSON_T_TRUE:
		return canon_add(n, 1);
	case JSON_T_NUMBER:
		number_norm(v, &nn);
		return canon_add(n, nn.text ? 9 : 18) && canon_add(n, nn.n1) &&
		       canon_add(n, nn.n2);
	case JSON_T_STRING:
		return canon_add(n, 9) && canon_add(n, v->u.str.len);
	case JSON_T_ARRAY:
		if (!canon_add(n, 9))
			return false;
		if (depth >= JSON_EQUAL_MAX_DEPTH)
			return true;
		for (i = 0; i < v->u.arr.count; i++)
			if (!canon_size(&v->u.arr.items[i], depth + 1, n))
				return false;
		return true;
	case JSON_T_OBJECT:
		if (!canon_add(n, 9))
			return false;
		if (depth >= JSON_EQUAL_MAX_DEPTH)
			return true;
		for (i = 0; i < v->u.obj.count; i++) {
			const struct json_member *m = &v->u.obj.members[i];

			if (!canon_add(n, 8) || !canon_add(n, m->key.len) ||
			    !canon_size(&m->value, depth + 1, n))
				return false;
		}
		return true;
	}
	return false;
}

/* w as 8 bytes, big-endian (so that counts order numerically). */
static unsigned char *
put_u64(unsigned char *p, uint64_t w)
{
	int i;

	for (i = 7; i >= 0; i--)
		*p++ = (unsigned char)(w >> (8 * i));
	return p;
}

static unsigned char *
put_bytes(unsigned char *p, const void *s, size_t n)
{
	if (n > 0)
		memcpy(p, s, n);
	return p + n;
}

static int
name_cmp(const struct json_string *a, const struct json_string *b)
{
	if (a->len != b->len)
		return a->len < b->len ? -1 : 1;
	return a->len == 0 ? 0 : memcmp(a->ptr, b->ptr, a->len);
}

/* Orders positions in the members at ctx by name, for sort_positions. */
static int
member_cmp(const void *ctx, uint32_t a, uint32_t b)
{
	const struct json_member *m = ctx;

	return name_cmp(&m[a].key, &m[b].key);
}

/* Write v's encoding at p: the end, or NULL when the arena refuses the
 * scratch for member orders (taken and given back per object). */
static unsigned char *
canon_write(const struct json_value *v, unsigned depth, struct arena *a,
    unsigned char *p)
{
	struct num_norm nn;
	struct arena_mark mark;
	uint32_t *order, *tmp;
	size_t i, n;

	switch (v->type) {
	case JSON_T_NULL:
		*p++ = 'n';
		return p;
	case JSON_T_FALSE:
		*p++ = 'f';
		return p;
	case JSON_T_TRUE:
		*p++ = 't';
		return p;
	case JSON_T_NUMBER:
		number_norm(v, &nn);
		if (nn.text) {
			*p++ = 'T';
			p = put_u64(p, nn.n1);
			return put_bytes(p, nn.run1, nn.n1);
		}
		*p++ = 'N';
		*p++ = nn.neg ? 1 : 0;
		p = put_u64(p, (uint64_t)nn.exp);
		p = put_u64(p, nn.n1 + nn.n2);
		p = put_bytes(p, nn.run1, nn.n1);
		return put_bytes(p, nn.run2, nn.n2);
	case JSON_T_STRING:
		*p++ = 'S';
		p = put_u64(p, v->u.str.len);
		return put_bytes(p, v->u.str.ptr, v->u.str.len);
	case JSON_T_ARRAY:
	case JSON_T_OBJECT:
		break;
	}
	if (depth >= JSON_EQUAL_MAX_DEPTH) {
		*p++ = 'D';
		return put_u64(p, (uint64_t)(uintptr_t)v);
	}
	if (v->type == JSON_T_ARRAY) {
		*p++ = 'A';
		p = put_u64(p, v->u.arr.count);
		for (i = 0; i < v->u.arr.count && p != NULL; i++)
			p = canon_write(&v->u.arr.items[i], depth + 1, a, p);
		return p;
	}
	n = v->u.obj.count;
	*p++ = 'O';
	p = put_u64(p, n);
	if (n == 0)
		return p;
	mark = arena_mark(a);
	order = arena_calloc(a, n, sizeof(*order));
	tmp = arena_calloc(a, n, sizeof(*tmp));
	if (order == NULL || tmp == NULL) {
		arena_rewind(a, mark);
		return NULL;
	}
	for (i = 0; i < n; i++)
		order[i] = (uint32_t)i;
	sort_positions(order, tmp, n, member_cmp, v->u.obj.members);
	for (i = 0; i < n && p != NULL; i++) {
		const struct json_member *m = &v->u.obj.members[order[i]];

		p = put_u64(p, m->key.len);
		p = put_bytes(p, m->key.ptr, m->key.len);
		p = canon_write(&m->value, depth + 1, a, p);
	}
	arena_rewind(a, mark);
	return p;
}

int
json_canon(const struct json_value *v, struct arena *a,
    const unsigned char **out, size_t *len)
{
	struct arena_mark mark = arena_mark(a);
	unsigned char *buf, *end;
	size_t n = 0;

	if (!canon_size(v, 0, &n))
		return -1;
	if ((buf = arena_alloc(a, n == 0 ? 1 : n)) == NULL)
		return -1;
	if ((end = canon_write(v, 0, a, buf)) == NULL) {
		arena_rewind(a, mark);
		return -1;
	}
	*out = buf;
	*len = (size_t)(end - buf);
	return 0;
}
