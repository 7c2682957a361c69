/*
 * flood.h: names crafted against the unkeyed hashes gpt.fcgi used before
 * its tables were keyed, for the flood regression tests (check_json,
 * check_schema_validate) and the flood benchmark (bench/bench_flood).
 * Test and benchmark code only; nothing here is built into gpt.fcgi.
 *
 * The attack being reproduced: with a hash anyone can compute, names can
 * be chosen offline so that they all fall in a few slots of a table of
 * known size.  Here a name is kept when bits [lo, hi) of its old hash are
 * zero, so every kept name lands in the first 2^lo slots of any table of
 * 2^lo to 2^hi slots: linear probing then makes one cluster of all of
 * them, and n insertions cost about n^2 / 2 probes.  Each kept name costs
 * 2^(hi - lo) tries of a cheap hash.  Names are `len` characters of
 * [0-9A-Za-z] (no escapes), distinct by construction (a counter in base
 * 62).
 */
#ifndef GPT_FLOOD_H
#define GPT_FLOOD_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The parser's member hash before it was keyed: 32-bit FNV-1a with a
 * final xor-shift (the table index is its low bits). */
static inline uint64_t
flood_old_member_hash(const char *s, size_t n)
{
	uint32_t h = 2166136261u;
	size_t i;

	for (i = 0; i < n; i++) {
		h ^= (unsigned char)s[i];
		h *= 16777619u;
	}
	return h ^ (h >> 15);
}

/* json_hash of a string before it was keyed: 64-bit FNV-1a from a
 * per-type offset, then splitmix64's finalizer (uniqueItems probed its
 * low bits). */
static inline uint64_t
flood_old_string_hash(const char *s, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ull ^ 0x73747269, x;
	size_t i;

	for (i = 0; i < n; i++) {
		h ^= (unsigned char)s[i];
		h *= 0x100000001b3ull;
	}
	x = h;
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ull;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebull;
	x ^= x >> 31;
	return x;
}

/* The counter c as len base-62 digits at out (the low digit last, so
 * consecutive names differ in their last byte). */
static inline void
flood_name_of(uint64_t c, char *out, size_t len)
{
	static const char digits[] =
	    "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
	size_t i;

	for (i = len; i-- > 0;) {
		out[i] = digits[c % 62];
		c /= 62;
	}
}

/*
 * count names of len bytes each, back to back in one malloc'd block
 * (count * len bytes; the caller frees): crafted against hash when hi >
 * lo (bits [lo, hi) of hash zero), or the first count names of the
 * counter when hi <= lo (the random-looking baseline).  NULL when malloc
 * fails or the counter runs out.
 */
static inline char *
flood_names(uint64_t (*hash)(const char *, size_t), unsigned lo, unsigned hi,
    size_t count, size_t len)
{
	uint64_t mask = hi > lo ? ((((uint64_t)1) << (hi - lo)) - 1) << lo : 0;
	uint64_t c = 0, end = 1;
	char *out = malloc(count * len + 1), *p;
	size_t i, k;

	if (out == NULL)
		return NULL;
	for (k = 0; k < len && end < ((uint64_t)1 << 58); k++)
		end *= 62;
	for (i = 0; i < count; i++) {
		p = out + i * len;
		do {
			if (c >= end) {
				free(out);
				return NULL;
			}
			flood_name_of(c++, p, len);
		} while (mask != 0 && (hash(p, len) & mask) != 0);
	}
	return out;
}

#endif /* GPT_FLOOD_H */
