/*
 * json.h: the strict JSON parser (RFC 8259) for untrusted bytes, the
 * immutable tree it builds, JSON equality, and a compact serializer.
 *
 * Strict means: the RFC 8259 grammar exactly (no comments, trailing commas,
 * leading zeros, NaN, '+', raw control characters; whitespace is only
 * space, tab, LF, CR); nothing but whitespace after the value; a duplicate
 * member name at any depth (compared after unescaping) is an error; UTF-8
 * validated everywhere (see utf8.h); unpaired \u surrogates rejected.
 *
 * Owns nothing: every node lives in the arena the caller passes.  Strings in
 * the tree may point into the input, so the input must outlive the tree.
 * The parser never recurses; depth is bounded by the caller's max_depth.
 */
#ifndef GPT_JSON_H
#define GPT_JSON_H

#include <string.h>

#include "base/common.h"

struct arena;
struct buf;

/* Default nesting limit: `[` or `{` opened and not closed at one time. */
#define JSON_MAX_DEPTH 128

/*
 * The most arena bytes json_parse asks for (arena_alloc requests, each
 * rounded up to 16) per byte of input, plus JSON_PARSE_BYTES_FIXED once,
 * whatever the input; the arena's own slack (ARENA_WORST_FACTOR) comes on
 * top.  A caller that sizes its arena from these never sees JSON_E_NOMEM
 * for an input that parses.  Derived from json.c on LP64 (sizeof value 32,
 * member 72); change it with json.c's allocation (tests/check_json.c
 * parses the densest input of each kind under it):
 *  - Children: each level of nesting writes the children of its
 *    containers into chunks where they stay (json.c).  A chunk is full
 *    when the next one is made, and then holds distinct children, so
 *    the next, at most twice it plus 2, is under 2 * N + 2 slots for the
 *    level's N children; the full chunks hold the N children once and
 *    the moved ones again: a container moved to a new chunk fills it
 *    before it moves again, and the new chunk is over twice what it
 *    moved, so its moves add up to under twice its children, 2 * N for
 *    the level.  The first chunk, 4 slots, is the last when it is the
 *    only one (4 * N); else the previous one held at least 4 children,
 *    and 2 * N + 2 <= 2.5 * N.  (The root's level's first chunk may
 *    be bigger: counted in the fixed part.)  5.5 * N
 * slots in all, each chunk (4 slots and up, so at most one a 4 children)
 * rounded up by at most 15 bytes: 4 bytes a child.
 *  - Items: an array item takes at least 2 bytes (its first byte and the
 *    ',' or ']' after it), so an input of L bytes has T <= L / 2 items:
 *    (5.5 * 32 + 4) / 2 = 90 bytes per input byte: `[1,1,...]`.
 *  - Members: a member takes at least 5 bytes (`"":0` and a separator):
 *    5.5 * 72 + 4 in chunks, and the name index of objects over 128
 *    members (32-bit slots at most half full and a 32-bit hash for each
 *    half of them, rebuilt doubling: 6 bytes a slot, under 64 bytes per
 *    member) make 464 / 5 < 93 per byte; the two share the input's
 *    bytes, so the worst is either.
 *  - Strings with an escape are unescaped into a copy no longer than
 *    their text, rounded up by at most 15 per string of at least 4 bytes
 *    ("\n" and a separator make 5): under 4 bytes per input byte, on top.
 *  - Fixed: the container stack (16 frames on the C stack, then 32, 64
 *    and 128 of 232 bytes in the arena, doubling: 51 KiB), the first
 *    chunk of the root's level (one kind: its one container is an
 *    array or an object), up to 128 slots (9 KiB), and the root: under
 *    64 KiB at the default depth.
 * 93 + 4 = 97.  The bound is loose (each term at its worst at once):
 * tests/check_json.c parses the densest input of each kind, and the
 * deepest, under it.
 */
#define JSON_PARSE_BYTES_PER_INPUT_BYTE 97
#define JSON_PARSE_BYTES_FIXED ((size_t)64 * 1024)

enum json_type {
	JSON_T_NULL,
	JSON_T_FALSE,
	JSON_T_TRUE,
	JSON_T_NUMBER,
	JSON_T_STRING,
	JSON_T_ARRAY,
	JSON_T_OBJECT,
};

/* Unescaped UTF-8; may contain NUL bytes; not NUL-terminated. */
struct json_string {
	const char *ptr; /* borrowed: the input or the arena */
	size_t len;      /* bytes */
	size_t cps;      /* code points (for minLength/maxLength) */
};

struct json_member;

/*
 * A node.  Containers list their children in document order in one
 * contiguous array (never NULL, even when count is 0).
 */
struct json_value {
	enum json_type type;
	union {
		struct {
			const char *text; /* borrowed: exactly as written */
			/* bytes of text: the parser refuses a longer number
			 * (JSON_E_TOO_BIG), so that a value takes 32 bytes */
			uint32_t len;
			/* true when text is an integer without fraction or
			 * exponent that fits in int64_t, which is then in i */
			bool is_small_int;
			int64_t i;
		} num;
		struct json_string str;
		struct {
			struct json_value *items; /* arena; count values */
			size_t count;
		} arr;
		struct {
			struct json_member *members; /* arena; document order */
			size_t count;
			const void *index; /* arena; private lookup index */
		} obj;
	} u;
};

struct json_member {
	struct json_string key;
	/* json_name_words(key.ptr, key.len): with key.len, the whole name
	 * when it is at most 16 bytes long, so that a lookup by name (the
	 * validator's) compares words and never reads the name's bytes,
	 * which lie in the input, away from the tree */
	uint64_t key_wa, key_wb;
	struct json_value value;
};

/* Two words of a name (len bytes at p), read from its own bytes only:
 * up to 16 bytes, its bytes 0-7 and 8-15, zero past len; longer, its
 * first and last 8 (names alike at the start, "x-vendor-thing-a" and
 * "x-vendor-thing-b", mostly differ at the end).  With len they are the
 * whole name up to 16 bytes.  (The parser takes them with one 16-byte
 * load where it can, json.c.) */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
/* The n bytes at p (n <= 8) as a little-endian word, zero above: loads
 * of the name's own bytes only (overlapping ones from n = 5 on, whose
 * shared bytes are the same), never bytes stored into a buffer and read
 * back as a word, which stalls the load on most cores. */
static inline uint64_t
json_name_word(const unsigned char *p, size_t n)
{
	uint32_t lo, hi;

	if (n >= 4) {
		memcpy(&lo, p, 4);
		memcpy(&hi, p + n - 4, 4);
		return lo | (uint64_t)hi << (8 * (n - 4));
	}
	if (n == 0)
		return 0;
	return p[0] | (uint64_t)p[n >> 1] << (8 * (n >> 1)) |
	       (uint64_t)p[n - 1] << (8 * (n - 1));
}

static inline void
json_name_words(const char *p, size_t len, uint64_t *a, uint64_t *b)
{
	const unsigned char *u = (const unsigned char *)p;

	if (len < 8) {
		*a = json_name_word(u, len);
		*b = 0;
		return;
	}
	memcpy(a, u, 8);
	if (len > 16)
		memcpy(b, u + len - 8, 8);
	else
		*b = json_name_word(u + 8, len - 8);
}
#else
static inline void
json_name_words(const char *p, size_t len, uint64_t *a, uint64_t *b)
{
	unsigned char w[16] = {0};

	if (len > 0)
		memcpy(w, p, len < 16 ? len : 16);
	memcpy(a, w, 8);
	memcpy(b, len > 16 ? p + len - 8 : (const char *)w + 8, 8);
}
#endif

/* Set m's name to the len bytes at p (cps code points), its words too:
 * for members made outside the parser. */
static inline void
json_member_name(struct json_member *m, const char *p, size_t len, size_t cps)
{
	m->key.ptr = p;
	m->key.len = len;
	m->key.cps = cps;
	json_name_words(p, len, &m->key_wa, &m->key_wb);
}

/* The closed list of reasons a parse fails. */
enum json_errcode {
	JSON_OK = 0,
	JSON_E_EMPTY,     /* no value: empty or whitespace only */
	JSON_E_SYNTAX,    /* a byte the grammar does not allow here */
	JSON_E_TRAILING,  /* bytes after the value */
	JSON_E_DEPTH,     /* nesting deeper than max_depth */
	JSON_E_DUPLICATE, /* a member name repeated in one object */
	JSON_E_UTF8,      /* invalid UTF-8 */
	JSON_E_ESCAPE,    /* bad escape sequence */
	JSON_E_SURROGATE, /* unpaired \u surrogate */
	JSON_E_CONTROL,   /* raw control character in a string */
	JSON_E_NUMBER,    /* malformed number */
	JSON_E_TRUNCATED, /* input ended inside a value */
	JSON_E_TOO_BIG,   /* a size would overflow */
	JSON_E_NOMEM,     /* the arena refused */
};

/* What went wrong and where.  msg is static; offset counts bytes. */
struct json_err {
	enum json_errcode code;
	const char *msg;
	size_t offset;
};

/*
 * Parse len bytes at in (not NUL-terminated; never read past len) into a
 * tree allocated in a, nesting at most max_depth containers (0 means
 * JSON_MAX_DEPTH).  On JSON_OK, *out is the root.  On failure *out is
 * untouched, *err is filled, and the partial tree stays in the arena
 * (rewind or reset it).  Reentrant; no global state.
 */
enum json_errcode json_parse(const char *in, size_t len, struct arena *a,
    unsigned max_depth, const struct json_value **out,
    struct json_err *err) GPT_MUSTCHECK;

/*
 * The bytes json_parse_padded may read past len: in[len] must be 0 and
 * in[len + 1] to in[len + JSON_PAD - 1] readable (buf_pad makes a buffer
 * so).  The request's body is read into such a buffer.
 */
#define JSON_PAD 16

/*
 * json_parse, the same answer for every input (tree, error code, message
 * and offset), on an input followed by JSON_PAD bytes as above: it reads
 * them, and in exchange tests the room left far less often (1.1x on
 * real bodies, doc/bench.md).  The pad is not part of the input: a NUL
 * inside the len bytes is refused as everywhere.
 */
enum json_errcode json_parse_padded(const char *in, size_t len, struct arena *a,
    unsigned max_depth, const struct json_value **out,
    struct json_err *err) GPT_MUSTCHECK;

/* Member named key (len bytes) of obj, or NULL (also when obj is not an
 * object).  A short scan for small objects; for large ones at most
 * 128 probes of the keyed table, or O(log n) comparisons (json.c). */
const struct json_value *json_object_get(
    const struct json_value *obj, const char *key, size_t key_len);

/*
 * JSON equality as JSON Schema 2020-12 defines it: same type (integers and
 * other numbers are one type), numbers equal as exact decimal values
 * (1 == 1.0 == 1e0), strings equal as code points, arrays element-wise,
 * objects with the same member names and equal values in any order.
 */
bool json_equal(const struct json_value *a, const struct json_value *b);

/* json_equal and json_hash follow containers this deep at most; deeper
 * ones compare unequal (the parser never builds such trees). */
#define JSON_EQUAL_MAX_DEPTH 1024

/*
 * A 64-bit hash consistent with json_equal: equal values hash equal
 * (numbers by their exact value, objects whatever their member order), for
 * uniqueItems and enum tables.  Keyed per process (hash.h), so values
 * cannot be chosen offline to collide; a string hashes as
 * hash_bytes(ptr, len).  Values differ from process to process.
 */
uint64_t json_hash(const struct json_value *v);

/*
 * v's canonical encoding, in *out (len bytes, in arena a): two values are
 * json_equal exactly when their encodings are the same bytes, so ordering
 * encodings bytewise is a total order consistent with json_equal (for the
 * sort uniqueItems falls back to).  Objects are encoded with members in
 * name order, O(m log m) per object of m members; a value takes at most
 * 18 bytes more than its text (json_equal.c).  0, or -1 when the arena
 * refuses or the size would overflow (*out untouched).
 */
int json_canon(const struct json_value *v, struct arena *a,
    const unsigned char **out, size_t *len) GPT_MUSTCHECK;

/*
 * Append the compact serialization of v to out: no whitespace, numbers as
 * written, strings with '"', '\\' and control characters escaped (short
 * escapes where they exist, else \u00XX), all else raw UTF-8; members in
 * document order.  0, or -1 when out's max or memory refuses or v nests
 * deeper than 1024 containers; out is then as it was.  Parsing the output
 * gives back an equal tree (the same bytes once serialized again).
 */
int json_write(const struct json_value *v, struct buf *out) GPT_MUSTCHECK;

/*
 * Append the n bytes at s to out as a JSON string (RFC 8259 section 7),
 * escaped as json_write escapes strings: the one JSON string writer of
 * gpt.fcgi.  A byte that starts no valid UTF-8 sequence is dropped (a
 * bounded buffer may have cut a name inside one).  0, or -1 when out's max
 * or memory refuses; out is then as it was.
 */
int json_write_string(struct buf *out, const char *s, size_t n) GPT_MUSTCHECK;

/* As json_write, indented by `indent` spaces per level, for people. */
int json_write_pretty(
    const struct json_value *v, unsigned indent, struct buf *out) GPT_MUSTCHECK;

/* "null", "boolean", "number", "string", "array" or "object". */
const char *json_type_name(enum json_type t);

/*
 * Where byte offset of the len bytes at text is, for people: its line
 * (1 up, counting LF) and column (1 up, in characters: UTF-8 lead
 * bytes since the line began).  An offset past len counts to len.
 */
void json_line_col(
    const char *text, size_t len, size_t offset, size_t *line, size_t *col);

/* A fixed English phrase for code. */
const char *json_errstr(enum json_errcode code);

#ifdef GPT_TEST
/* Test builds of json.c: every slot or tree node the member index looks
 * at and every name the duplicate check of a small object compares, and
 * a replacement for the index's keyed hash (NULL: the keyed hash). */
extern uint64_t json_index_probes;
extern uint64_t (*json_test_key_hash)(const char *s, size_t n);
/* The signature the duplicate check of a small object gives the name of
 * n bytes at s (names sharing one cost it comparisons). */
unsigned json_test_name_sig(const char *s, size_t n);
/* true: the string scanner takes its portable paths only (no SSE2). */
extern bool json_test_portable;
#endif

#endif /* GPT_JSON_H */
