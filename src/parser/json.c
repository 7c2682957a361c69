/*
 * json.c: the strict RFC 8259 parser for untrusted bytes, member lookup,
 * and the names of types and errors.
 *
 * Owns nothing: the tree, the level chunks and the lookup indexes live
 * in the caller's arena; no malloc, no global state, no recursion.
 *
 * How it works: one loop over the input (parse_loop) with an explicit stack
 * of open containers, one frame per level of nesting.  Each level keeps two
 * chunks in the arena (values for arrays, members for objects) where the
 * children of its containers are written one container after another, and
 * stay: a closed container's children are the run of its level's chunk from
 * its first, so the finished tree has no per-node allocations and nothing is
 * copied when a container closes.  A full chunk is followed by one twice its
 * size (up to JSON_CHUNK_MAX_BYTES, and always twice the open container's
 * children so far, which move into it to stay contiguous); the full chunk
 * keeps the children of the closed containers it holds.  A level's first
 * chunk is sized so that moves are rare where children are many
 * (level_first).  Strings without escapes point into the input (zero
 * copy); strings with escapes are unescaped into the arena.  Numbers
 * keep their text.
 *
 * Limits: nesting (max_depth), the arena's cap, and 2^30 members per
 * object (the index stores 32-bit positions).  Every byte access checks the
 * length first; the input need not be NUL-terminated.
 *
 * Member index, and its worst case whatever the names: objects of up to
 * JSON_SMALL_OBJECT members are checked for duplicates by 8-bit name
 * signatures (a 256-bit filter of them, then a scan of the equal ones) and
 * at most JSON_LINEAR_COMPARES name comparisons, and searched linearly; bigger
 * ones, and those whose names spend the comparisons, get an open-addressing
 * table (at most half full, linear probing) hashed with the keyed SipHash of
 * hash.h, so names cannot be chosen offline to collide.  No insertion may take
 * more than JSON_PROBE_MAX probes: one that would (the key leaked, or a chance
 * of about 1e-17 per name) moves that object to an AA tree ordered by (length,
 * bytes), O(log n) comparisons per name from then on.  So an object of n names
 * costs at most JSON_PROBE_MAX probes per insertion (rebuilds on growth
 * re-insert fewer than 2n names) or 2 log2(n + 1) comparisons per name, and a
 * lookup the same; with random keys about 2 probes per name.  Comparisons read
 * the names, so the time is bounded by the name bytes times that factor.
 *
 * Refuses everything RFC 8259 does not allow, plus (by our rule) duplicate
 * member names, invalid UTF-8 and unpaired \u surrogates (section 8.2 leaves
 * them to the implementation).
 */
#include <string.h>

#include "base/arena.h"
#include "base/hash.h"
#include "parser/json.h"
#include "base/utf8.h"

/* Objects up to this many members are searched linearly, and checked for
 * duplicate names by signatures and comparisons (at most
 * JSON_LINEAR_COMPARES of them per object); bigger ones, and those whose
 * names spend the comparisons, get a hash index, so 10,000 members cost
 * 10,000 probes, not 50 million. */
#define JSON_SMALL_OBJECT 128
/* sig_matches reads a small object's signatures 16 at a time, 64 to a
 * mask. */
_Static_assert(JSON_SMALL_OBJECT % 64 == 0,
    "the signatures of a small object fill whole 64-bit masks");
#define JSON_LINEAR_COMPARES 64

/* The index stores 32-bit positions in a table twice the member count. */
#define JSON_MAX_MEMBERS ((size_t)1 << 30)

/* A level's first chunk (elements), and the size past which its chunks
 * stop doubling (a chunk is still made big enough for its container's
 * children): a level's unused tail stays under that size.  The root's
 * children take a first chunk of one element per JSON_CHUNK_FIRST_BYTES
 * bytes of input left, up to JSON_CHUNK_FIRST_MAX (level_first). */
#define JSON_CHUNK_MIN 4
#define JSON_CHUNK_MAX_BYTES ((size_t)64 * 1024)
/* a member takes 5 bytes at least, and about 17 to 120 in real bodies */
#define JSON_CHUNK_FIRST_BYTES 16
/* 128 members (9 KiB) fit the arena's first block (16 KiB): a bigger
 * first request would size that block, and every block after it, to
 * itself (arena.c) */
#define JSON_CHUNK_FIRST_MAX 128
/* The first capacity of the container stack (on the C stack). */
#define JSON_FRAMES_MIN 16

/* The longest probe sequence an insertion into a member table may take;
 * past it the object moves to a tree.  Random keys: the longest in a
 * million-name object is about 50. */
#define JSON_PROBE_MAX 128
/* An AA tree of 2^30 nodes is at most 2 log2(n + 1) = 60 levels deep. */
#define JSON_TREE_MAX_HEIGHT 64

/* A tree node, by member position: children as position + 1, 0 = none. */
struct json_tnode {
	uint32_t left, right;
	uint32_t level; /* AA level: 1 for leaves */
};

/*
 * A member index.  Hash mode (tree == NULL): open addressing over member
 * positions, slot[] holds position + 1, 0 is empty, at most half full;
 * no name took more than maxprobe probes to place, so a lookup stops
 * there.  Each name is hashed once: hash[] keeps it by position, so a
 * rebuild on growth re-places names without hashing them again, and a
 * probe compares hashes before names.  Tree mode: the AA tree over the
 * positions, slot[] and hash[] unused.
 */
struct json_index {
	uint32_t mask;
	uint32_t maxprobe;
	struct json_tnode *tree; /* arena; tcap nodes */
	uint32_t root;           /* position + 1, 0 = empty */
	uint32_t tcap;
	uint32_t *hash; /* arena; key_hash by position, hcap entries */
	uint32_t hcap;
	uint32_t slot[];
};
/* One open container. */
struct json_frame {
	struct json_index *ix; /* arena; NULL for arrays and small objects */
	size_t first;          /* its first child in its level's chunk */
	/* small objects: bit key_sig set for each signature met */
	uint64_t seen[4];
	uint32_t compares; /* small objects: name comparisons left */
	bool is_object;
	/* The level's chunks: the children of the containers at this depth,
	 * one container after another, where they stay (arena).  Kept when
	 * the container closes, for the next one at this depth. */
	struct json_value *items;
	size_t nitems, capitems;
	struct json_member *mems;
	size_t nmems, capmems;
	/* small objects: key_sig of each member so far, by position (last:
	 * the fields above, read for every child, share cache lines) */
	unsigned char sig[JSON_SMALL_OBJECT];
};

/* The cursor and the parser's working state. */
struct json_parser {
	const unsigned char *in; /* borrowed: the caller's bytes */
	size_t len;
	size_t pos;                /* the slow string path's cursor */
	struct arena *a;           /* borrowed */
	struct json_err *err;      /* borrowed */
	struct json_frame *frames; /* the open containers, and the levels */
	size_t depth, capframes;
	size_t levels; /* frames whose chunks are set up */
	size_t max_depth;
};

/* The loop is compiled twice (parse_exact, parse_padded): the compiler
 * would then call some helpers it inlines into one copy, so those that
 * each member or value runs are inlined by force. */
#if defined(__GNUC__) || defined(__clang__)
#define JSON_NOINLINE __attribute__((noinline))
#define JSON_INLINE __attribute__((always_inline)) inline
#else
#define JSON_NOINLINE
#define JSON_INLINE inline
#endif

/* Empty containers point here rather than at NULL, so callers may pass
 * items/members to memcpy or loops without a special case. */
static struct json_value json_no_items[1];
static struct json_member json_no_members[1];

/*
 * Bytes that may appear raw in a string and need no attention: printable
 * ASCII except '"' and '\\'.  0 marks a control character (< 0x20, refused
 * raw), the quote, the backslash and every byte >= 0x80 (a UTF-8 lead or
 * continuation byte, checked by utf8_decode).
 */
static const unsigned char json_plain[256] = {
    /*       0 1 2 3 4 5 6 7 8 9 A B C D E F */
    /* 0x */ 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    /* 1x */ 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    /* 2x */ 1, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, /* 0x22 '"' */
    /* 3x */ 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    /* 4x */ 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    /* 5x */ 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1, /* 0x5C '\\' */
    /* 6x */ 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    /* 7x */ 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    /* 8x..Fx: 0 (UTF-8) */
};

/*
 * Where the first byte needing attention in a string (see json_plain) lies
 * among the 8 at s: 0 to 7, or 8 when there is none.  A word at a time:
 * the classic "has a zero byte" test (x - 0x01..) & ~x & 0x80.., applied to
 * w ^ '"' and w ^ '\\'; w - 0x20.. sets the high bit of a byte below 0x20
 * (and of bytes 0xA0 and up, special anyway), and w's own high bits flag
 * 0x80 and up.  False positives lie only above a true one (borrows run
 * upward), so the lowest flagged byte is exact.  Little-endian only;
 * elsewhere the table does the work byte by byte.
 */
#if defined(__GNUC__) && defined(__BYTE_ORDER__) &&                            \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define JSON_SWAR 1
static inline unsigned
plain_run8(const unsigned char *s)
{
	const uint64_t ones = UINT64_C(0x0101010101010101);
	const uint64_t high = UINT64_C(0x8080808080808080);
	uint64_t w, q, b, t;

	memcpy(&w, s, sizeof(w));
	q = w ^ (ones * '"');
	b = w ^ (ones * '\\');
	t = (((q - ones) & ~q) | ((b - ones) & ~b) | (w - ones * 0x20) | w) &
	    high;
	return t == 0 ? 8 : (unsigned)__builtin_ctzll(t) >> 3;
}
#endif

/*
 * The same for the 16 bytes at s, with SSE2: a byte equal to '"' or '\\',
 * or below 0x20 as a signed byte (the controls, and 0x80 and up, which are
 * negative), is flagged; the lowest flag is the answer.
 */
#if defined(__SSE2__) && defined(__GNUC__)
#include <emmintrin.h>
#define JSON_SSE2 1
/* The flags of the 16 bytes at s as a bit mask (bit k for byte k), and
 * in *quote those of the bytes that are '"'. */
static inline unsigned
plain_mask16(const unsigned char *s, unsigned *quote)
{
	__m128i w = _mm_loadu_si128((const __m128i *)(const void *)s);
	__m128i q = _mm_cmpeq_epi8(w, _mm_set1_epi8('"'));
	__m128i f = _mm_or_si128(
	    _mm_or_si128(q, _mm_cmpeq_epi8(w, _mm_set1_epi8('\\'))),
	    _mm_cmplt_epi8(w, _mm_set1_epi8(0x20)));

	*quote = (unsigned)_mm_movemask_epi8(q);
	return (unsigned)_mm_movemask_epi8(f);
}

static inline unsigned
plain_run16(const unsigned char *s)
{
	unsigned q, m = plain_mask16(s, &q);

	return m == 0 ? 16 : (unsigned)__builtin_ctz(m);
}
#endif

#ifdef GPT_TEST
bool json_test_portable;
#define JSON_PORTABLE_NOW json_test_portable
#else
#define JSON_PORTABLE_NOW false
#endif

/*
 * json_name_words of the name the parser returned (n bytes at text), for
 * its member.  When 16 bytes from the name's start lie in the input (the
 * name was not unescaped into a copy, and the input goes on), one load
 * and a mask of its length, with no branch on the length: names of 4 to
 * 16 bytes are most, and which of them comes next is anybody's guess (a
 * longer name takes its last 8 bytes too).  Elsewhere (and on 32-bit
 * x86, which has no move of a register's low 64 bits), json_name_words.
 */
static JSON_INLINE void
name_words(const unsigned char *in, size_t len, const unsigned char *text,
    size_t n, uint64_t *a, uint64_t *b)
{
#if defined(JSON_SSE2) && defined(__x86_64__)
	uintptr_t at = (uintptr_t)text - (uintptr_t)in;

	if (!JSON_PORTABLE_NOW && at < len && len - at >= 16) {
		const __m128i iota = _mm_setr_epi8(
		    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
		__m128i w =
		    _mm_loadu_si128((const __m128i *)(const void *)text);
		__m128i keep = _mm_cmpgt_epi8(
		    _mm_set1_epi8((char)(n < 16 ? n : 16)), iota);
		__m128i words = _mm_and_si128(w, keep);

		/* from the register: a store of the 16 bytes and a load of
		 * its upper half stalls the load on some cores */
		*a = (uint64_t)_mm_cvtsi128_si64(words);
		if (n > 16)
			memcpy(b, text + n - 8, 8);
		else
			*b = (uint64_t)_mm_cvtsi128_si64(
			    _mm_unpackhi_epi64(words, words));
		return;
	}
#else
	(void)in;
	(void)len;
#endif
	json_name_words((const char *)text, n, a, b);
}

/* --- errors ------------------------------------------------------------- */

static enum json_errcode
fail(struct json_parser *p, enum json_errcode code, size_t offset,
    const char *msg)
{
	p->err->code = code;
	p->err->msg = msg != NULL ? msg : json_errstr(code);
	p->err->offset = offset;
	return code;
}

/* --- byte access ---------------------------------------------------------- */

/*
 * The hot functions below work on locals (in, len, pos) rather than on the
 * parser struct, so the compiler keeps them in registers: a store into the
 * tree cannot then force a reload of the cursor.  Every index is checked
 * against len before the byte is read.
 */

/* RFC 8259 section 2: whitespace is space, tab, LF and CR, nothing else
 * (a form feed or a NUL between tokens is a syntax error). */
static inline bool
is_ws(unsigned char c)
{
	return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

/* The position of the first byte at or after pos that is not whitespace
 * (len at the end). */
static inline size_t
ws(const unsigned char *in, size_t len, size_t pos, const bool padded)
{
	/* padded: the NUL at len is not whitespace and ends the loop */
	while (padded || pos < len) {
		unsigned char c = in[pos];

		/* Most tokens follow another at once: one compare. */
		if (c > ' ' || !is_ws(c))
			break;
		pos++;
	}
	return pos;
}

static inline bool
is_digit(unsigned char c)
{
	return c >= '0' && c <= '9';
}

/*
 * The position of the first byte at or after i that is not a digit (len
 * at the end): eight bytes a step on little-endian GCC/clang builds.  A
 * byte b is a digit when b & 0xF0 == 0x30 and (b + 6) & 0xF0 == 0x30; the
 * bytewise add carries into the next byte only from a byte of 0xFA and
 * up, which the first test flags already, so the lowest flag is exact.
 */
static inline size_t
digit_run(const unsigned char *in, size_t len, size_t i, const bool padded)
{
#ifdef JSON_SWAR
	const uint64_t hi = UINT64_C(0xF0F0F0F0F0F0F0F0);
	const uint64_t d3 = UINT64_C(0x3030303030303030);
	uint64_t w, t;

	/* padded: the NUL at len ends the run, and a word read at len or
	 * before it ends within the pad */
	while (padded || len - i >= 8) {
		memcpy(&w, in + i, sizeof(w));
		t = ((w & hi) ^ d3) |
		    (((w + UINT64_C(0x0606060606060606)) & hi) ^ d3);
		if (t != 0)
			return i + ((unsigned)__builtin_ctzll(t) >> 3);
		i += 8;
	}
#endif
	while ((padded || i < len) && is_digit(in[i]))
		i++;
	return i;
}

/* The value of the eight ASCII digits at s (checked by digit_run), with
 * three multiplies instead of eight dependent ones (little-endian: the
 * first digit is the lowest byte).  Elsewhere, a loop. */
static inline uint64_t
eight_digits(const unsigned char *s)
{
#ifdef JSON_SWAR
	uint64_t w;

	memcpy(&w, s, sizeof(w));
	w = (w & UINT64_C(0x0F0F0F0F0F0F0F0F)) * 2561 >> 8;
	w = (w & UINT64_C(0x00FF00FF00FF00FF)) * 6553601 >> 16;
	return (w & UINT64_C(0x0000FFFF0000FFFF)) * UINT64_C(42949672960001) >>
	       32;
#else
	uint64_t u = 0;

	for (unsigned k = 0; k < 8; k++)
		u = u * 10 + (uint64_t)(s[k] - '0');
	return u;
#endif
}

/* --- hashing (duplicate detection and json_object_get share it) ----------- */

#ifdef GPT_TEST
uint64_t json_index_probes;
uint64_t (*json_test_key_hash)(const char *s, size_t n);
#define PROBED() (json_index_probes++)
#else
#define PROBED() ((void)0)
#endif

static inline uint32_t
key_hash(const char *s, size_t n)
{
#ifdef GPT_TEST
	if (json_test_key_hash != NULL)
		return (uint32_t)json_test_key_hash(s, n);
#endif
	return (uint32_t)hash_bytes(s, n);
}

/* An 8-bit signature of a name from its words (json_name_words) and
 * length, for a quick "certainly new" among the few names of a small
 * object: a multiplicative mix, so that names alike but for one byte
 * (the commonest kind in a form: "maxlen", "maxerr") get unrelated
 * signatures.  It need not be keyed: names chosen to share one spend the
 * object's comparisons and move it to the keyed index (check_member). */
static inline unsigned
key_sig(uint64_t wa, uint64_t wb, size_t n)
{
	uint64_t h = (wa ^ (wb * UINT64_C(0x9E3779B97F4A7C15)) ^ n) *
	             UINT64_C(0xC2B2AE3D27D4EB4F);

	return (unsigned)(h >> 56);
}

#ifdef GPT_TEST
unsigned
json_test_name_sig(const char *s, size_t n)
{
	uint64_t wa, wb;

	json_name_words(s, n, &wa, &wb);
	return key_sig(wa, wb, n);
}
#endif

/* Whether member k has the name of n bytes at s whose words are wa, wb:
 * up to 16 bytes the words and length are the whole name, so no byte of
 * either is read; longer, the words are its first and last 8 bytes, and
 * only the bytes between are compared. */
static inline bool
key_eq_words(const struct json_member *k, const unsigned char *s, size_t n,
    uint64_t wa, uint64_t wb)
{
	if (k->key.len != n || k->key_wa != wa || k->key_wb != wb)
		return false;
	return n <= 16 || memcmp(k->key.ptr + 8, s + 8, n - 16) == 0;
}

static inline bool
key_eq(const struct json_string *k, const char *s, size_t n)
{
	/* Names in one object mostly differ in length or first byte. */
	return k->len == n &&
	       (n == 0 || (k->ptr[0] == s[0] && memcmp(k->ptr, s, n) == 0));
}

/* --- the container stack and the levels' chunks
 * ----------------------------------------------------------- */

/*
 * A copy of the arena array old (*cap elements of `size` bytes, `used` of
 * them in use) with twice the capacity (at least min), or NULL on overflow
 * or when the arena refuses (old and *cap are then unchanged).  The old
 * array is abandoned to the arena: the total waste stays below the final
 * size.
 */
static void *
grow(struct arena *a, const void *old, size_t *cap, size_t used, size_t size,
    size_t min)
{
	size_t ncap, bytes;
	void *n;

	if (*cap == 0)
		ncap = min;
	else if (!gpt_mul_size(*cap, 2, &ncap))
		return NULL;
	if (!gpt_mul_size(ncap, size, &bytes))
		return NULL;
	if ((n = arena_alloc(a, bytes)) == NULL)
		return NULL;
	if (used > 0)
		memcpy(n, old, used * size);
	*cap = ncap;
	return n;
}

/*
 * The size of a level's first chunk, made for the child at pos of the
 * innermost container.  A body is mostly one object or array of tens or
 * hundreds of children: for the root's, a chunk sized from the input left
 * (one slot per JSON_CHUNK_FIRST_BYTES) holds most of them, without the
 * moves of a chunk growing from 4 (4, 10, 22, 46, ...).  Deeper, 4: a
 * level per 2 bytes of input must not take more than a few slots, and a
 * list's containers after its first find their level's chunk grown.
 * (With a slot per 8 bytes, and the next level sized from the input too,
 * most slots went unused: the corpus's instances held in one arena took
 * 8 to 38 bytes a byte, where they take 6.6 to 18.9 so, at the same
 * speed or better.)
 */
static inline size_t
level_first(const struct json_parser *p, size_t pos)
{
	size_t left = (p->len - pos) / JSON_CHUNK_FIRST_BYTES;

	if (p->depth > 1 || left < JSON_CHUNK_MIN)
		return JSON_CHUNK_MIN;
	return left < JSON_CHUNK_FIRST_MAX ? left : JSON_CHUNK_FIRST_MAX;
}

/*
 * Room for one more child of the open container of level f, whose
 * chunk (chunk, *used of *cap elements of `size` bytes) is full: a new
 * chunk, `first` elements when the level has none yet, else twice the
 * last up to JSON_CHUNK_MAX_BYTES, and at least twice the container's
 * children so far, which move to its start (they must stay contiguous);
 * the older children of the level stay where they are.  The new chunk (*used
 * and *cap updated), or NULL when the arena refuses or the size would overflow
 * (nothing changed).
 */
static JSON_NOINLINE void *
level_grow(struct arena *a, struct json_frame *f, const void *chunk,
    size_t *used, size_t *cap, size_t size, size_t first)
{
	size_t k = *used - f->first, ncap, bytes;
	void *n;

	if ((ncap = *cap) == 0)
		ncap = first;
	else if (ncap <= JSON_CHUNK_MAX_BYTES / size / 2)
		ncap *= 2;
	if (ncap / 2 < k + 1 && !gpt_mul_size(k + 1, 2, &ncap))
		return NULL;
	if (!gpt_mul_size(ncap, size, &bytes) ||
	    (n = arena_alloc(a, bytes)) == NULL)
		return NULL;
	if (k > 0)
		memcpy(n, (const char *)chunk + f->first * size, k * size);
	*used = k;
	*cap = ncap;
	f->first = 0;
	return n;
}

/*
 * Whether the innermost open array f has a slot for one more item in its
 * level's chunk, where it stays: the item is then written in place at
 * f->items[f->nitems++] (building a value on the C stack and copying it
 * would cost a store-forwarding stall per value).  false when the arena
 * refuses (the error is set).  The caller takes the slot, so that the
 * common case is one compare and no test of a returned pointer.
 */
static inline bool
array_room(struct json_parser *p, struct json_frame *f, size_t pos)
{
	struct json_value *n;

	if (f->nitems < f->capitems)
		return true;
	if ((n = level_grow(p->a, f, f->items, &f->nitems, &f->capitems,
	         sizeof(*n), level_first(p, pos))) == NULL) {
		fail(p, JSON_E_NOMEM, pos, NULL);
		return false;
	}
	f->items = n;
	return true;
}

/* --- objects: member names and their index ----------------------------------
 */

/* The order of the tree: by length, then bytes. */
static inline int
key_cmp(const char *s, size_t n, const struct json_string *k)
{
	if (n != k->len)
		return n < k->len ? -1 : 1;
	return n == 0 ? 0 : memcmp(s, k->ptr, n);
}

/* AA tree rotations (Andersson 1993) on node x (position + 1); each
 * returns the node now at x's place. */
static uint32_t
tree_skew(struct json_tnode *t, uint32_t x)
{
	uint32_t l = t[x - 1].left;

	if (l == 0 || t[l - 1].level != t[x - 1].level)
		return x;
	t[x - 1].left = t[l - 1].right;
	t[l - 1].right = x;
	return l;
}

static uint32_t
tree_split(struct json_tnode *t, uint32_t x)
{
	uint32_t r = t[x - 1].right;

	if (r == 0 || t[r - 1].right == 0 ||
	    t[t[r - 1].right - 1].level != t[x - 1].level)
		return x;
	t[x - 1].right = t[r - 1].left;
	t[r - 1].left = x;
	t[r - 1].level++;
	return r;
}

/*
 * Insert member position idx (ix->tcap > idx) unless a member with its
 * name is in the tree already: true when one is (a duplicate).  No
 * recursion: the path down is kept, then rebalanced bottom-up.
 */
static bool
tree_insert(struct json_index *ix, const struct json_member *m, uint32_t idx)
{
	struct json_tnode *t = ix->tree;
	const struct json_string *k = &m[idx].key;
	uint32_t path[JSON_TREE_MAX_HEIGHT], cur = ix->root, top, up;
	size_t d = 0, i;
	int c = 0;

	while (cur != 0) {
		PROBED();
		if ((c = key_cmp(k->ptr, k->len, &m[cur - 1].key)) == 0)
			return true;
		path[d++] = cur;
		cur = c < 0 ? t[cur - 1].left : t[cur - 1].right;
	}
	t[idx].left = t[idx].right = 0;
	t[idx].level = 1;
	if (d == 0) {
		ix->root = idx + 1;
		return false;
	}
	if (c < 0)
		t[path[d - 1] - 1].left = idx + 1;
	else
		t[path[d - 1] - 1].right = idx + 1;
	for (i = d; i-- > 0;) {
		top = tree_split(t, tree_skew(t, path[i]));
		if (i == 0) {
			ix->root = top;
		} else if (top != path[i]) {
			up = path[i - 1];
			if (t[up - 1].left == path[i])
				t[up - 1].left = top;
			else
				t[up - 1].right = top;
		}
	}
	return false;
}

/* Room in ix's tree for positions below need.  0, or -1 when the arena
 * refuses (the tree is then unchanged). */
static int
tree_reserve(struct arena *a, struct json_index *ix, size_t need)
{
	struct json_tnode *t;
	size_t cap = ix->tcap < 16 ? 16 : ix->tcap, bytes;

	if (need <= ix->tcap)
		return 0;
	while (cap < need)
		cap *= 2;
	if (cap > JSON_MAX_MEMBERS)
		cap = JSON_MAX_MEMBERS;
	if (!gpt_mul_size(cap, sizeof(*t), &bytes) ||
	    (t = arena_alloc(a, bytes)) == NULL)
		return -1;
	if (ix->tcap > 0)
		memcpy(t, ix->tree, ix->tcap * sizeof(*t));
	ix->tree = t;
	ix->tcap = (uint32_t)cap;
	return 0;
}

/* A tree index of the n members at m (distinct names), with room for
 * `need`.  NULL when the arena refuses. */
static struct json_index *
tree_build(struct arena *a, const struct json_member *m, size_t n, size_t need)
{
	struct json_index *ix;
	size_t i;

	if ((ix = arena_alloc(a, sizeof(*ix))) == NULL)
		return NULL;
	memset(ix, 0, sizeof(*ix));
	if (tree_reserve(a, ix, need) == -1)
		return NULL;
	for (i = 0; i < n; i++)
		(void)tree_insert(ix, m, (uint32_t)i);
	return ix;
}

/*
 * Find the member named (s, n), whose key_hash is h, in a hash-mode ix,
 * or the empty slot where it would go.  The slot's index in *at and true
 * when found; false with *at the empty slot (*probes: the slots that
 * placing it there takes), or with *at = UINT32_MAX when more than limit
 * probes would be needed.
 */
static bool
table_probe(const struct json_index *ix, const struct json_member *m,
    const char *s, size_t n, uint32_t h, uint32_t limit, uint32_t *at,
    uint32_t *probes)
{
	uint32_t b = h & ix->mask, seen = 0, k;

	while ((k = ix->slot[b]) != 0) {
		PROBED();
		if (ix->hash[k - 1] == h && key_eq(&m[k - 1].key, s, n)) {
			*at = b;
			return true;
		}
		if (++seen >= limit) {
			*at = UINT32_MAX;
			return false;
		}
		b = (b + 1) & ix->mask;
	}
	PROBED();
	*at = b;
	*probes = seen + 1;
	return false;
}

/* Place member position idx at the empty slot `at` that took `probes`. */
static inline void
table_place(struct json_index *ix, uint32_t at, uint32_t probes, uint32_t idx)
{
	if (probes > ix->maxprobe)
		ix->maxprobe = probes;
	ix->slot[at] = idx + 1;
}

/* Place member position idx (name unique in ix, hash[idx] set) in the
 * hash-mode ix: false when it would take more than JSON_PROBE_MAX
 * probes. */
static bool
table_put(struct json_index *ix, const struct json_member *m, uint32_t idx)
{
	uint32_t at, probes = 0;

	(void)table_probe(ix, m, m[idx].key.ptr, m[idx].key.len, ix->hash[idx],
	    JSON_PROBE_MAX, &at, &probes);
	if (at == UINT32_MAX)
		return false;
	table_place(ix, at, probes, idx);
	return true;
}

/*
 * A new index for the n members at m (distinct names) with room for at
 * least `need` entries: a table at half load, or the tree when a name
 * would take more than JSON_PROBE_MAX probes.  old, the hash-mode index
 * it replaces (or NULL), lends the names' hashes.  NULL when the arena
 * refuses.
 */
static struct json_index *
index_build(struct arena *a, const struct json_member *m, size_t n, size_t need,
    const struct json_index *old)
{
	struct json_index *ix;
	struct arena_mark mark = arena_mark(a);
	size_t cap = 32, bytes, i;
	uint32_t *hash;

	while (cap < need * 2)
		cap *= 2;
	/* hash[] holds every position the table can take before the next
	 * rebuild: cap / 2 */
	if (!gpt_mul_size(cap, sizeof(uint32_t), &bytes) ||
	    !gpt_add_size(bytes, sizeof(*ix), &bytes) ||
	    (ix = arena_alloc(a, bytes)) == NULL ||
	    (hash = arena_alloc(a, cap / 2 * sizeof(uint32_t))) == NULL)
		return NULL;
	memset(ix, 0, sizeof(*ix));
	ix->mask = (uint32_t)(cap - 1);
	ix->hash = hash;
	ix->hcap = (uint32_t)(cap / 2);
	memset(ix->slot, 0, cap * sizeof(uint32_t));
	for (i = 0; i < n; i++) {
		hash[i] = old != NULL ? old->hash[i]
		                      : key_hash(m[i].key.ptr, m[i].key.len);
		if (!table_put(ix, m, (uint32_t)i)) {
			/* the table is dropped: give its memory back */
			arena_rewind(a, mark);
			return tree_build(a, m, n, need);
		}
	}
	return ix;
}

/*
 * Admit member position idx (the newest) to *ixp, which has room for it
 * in hash mode: 1 when an earlier member has its name, 0 when added, -1
 * when the arena refuses.  An insertion past JSON_PROBE_MAX moves the
 * object to the tree (*ixp replaced).
 */
static int
index_add(struct arena *a, struct json_index **ixp, const struct json_member *m,
    uint32_t idx)
{
	struct json_index *ix = *ixp;
	const struct json_string *k = &m[idx].key;
	uint32_t at, probes = 0;

	if (ix->tree == NULL) {
		/* idx < hcap: the caller rebuilt a table at half load */
		ix->hash[idx] = key_hash(k->ptr, k->len);
		if (table_probe(ix, m, k->ptr, k->len, ix->hash[idx],
		        JSON_PROBE_MAX, &at, &probes))
			return 1;
		if (at != UINT32_MAX) {
			table_place(ix, at, probes, idx);
			return 0;
		}
		/* hits on names that all take one slot (a known key) */
		if ((ix = tree_build(a, m, idx, (size_t)idx + 1)) == NULL)
			return -1;
		*ixp = ix;
	}
	if (tree_reserve(a, ix, (size_t)idx + 1) == -1)
		return -1;
	return tree_insert(ix, m, idx) ? 1 : 0;
}

/* Position of the member named (s, n) among m via ix, or -1. */
static long long
index_find(const struct json_index *ix, const struct json_member *m,
    const char *s, size_t n)
{
	uint32_t at, probes, cur;
	int c;

	if (ix->tree == NULL)
		return table_probe(ix, m, s, n, key_hash(s, n), ix->maxprobe,
		           &at, &probes)
		           ? (long long)ix->slot[at] - 1
		           : -1;
	for (cur = ix->root; cur != 0;) {
		PROBED();
		if ((c = key_cmp(s, n, &m[cur - 1].key)) == 0)
			return (long long)cur - 1;
		cur = c < 0 ? ix->tree[cur - 1].left : ix->tree[cur - 1].right;
	}
	return -1;
}

/*
 * The same for a member of the innermost open object f, taken at
 * f->mems[f->nmems++], for parse_name to write the name into in place.
 */
static inline bool
member_room(struct json_parser *p, struct json_frame *f, size_t pos)
{
	struct json_member *m;

	if (f->nmems < f->capmems)
		return true;
	if ((m = level_grow(p->a, f, f->mems, &f->nmems, &f->capmems,
	         sizeof(*m), level_first(p, pos))) == NULL) {
		fail(p, JSON_E_NOMEM, pos, NULL);
		return false;
	}
	f->mems = m;
	return true;
}

/* Bit i set for each i < n (at most 64) where sig[i] is s: sixteen
 * signatures a compare with SSE2 (bytes of sig[] at n and past are
 * masked off, whatever they hold), else one at a time. */
static inline uint64_t
sig_matches(const unsigned char *sig, size_t n, unsigned s)
{
	uint64_t mask = 0;
	size_t i = 0;

#ifdef JSON_SSE2
	if (!JSON_PORTABLE_NOW) {
		const __m128i want = _mm_set1_epi8((char)s);

		for (; i < n; i += 16)
			mask |= (uint64_t)(unsigned)_mm_movemask_epi8(
			            _mm_cmpeq_epi8(want,
			                _mm_loadu_si128((
			                    const __m128i *)(const void *)(sig +
			                                                   i))))
			        << i;
		return n >= 64 ? mask : mask & (((uint64_t)1 << n) - 1);
	}
#endif
	for (; i < n; i++)
		if (sig[i] == s)
			mask |= (uint64_t)1 << i;
	return mask;
}

static enum json_errcode member_indexed(struct json_parser *p,
    struct json_frame *f, const struct json_member *m, size_t n,
    size_t key_off);

/*
 * Admit the newest member of the innermost open object f (its name
 * already parsed, and also at kp, kn bytes) after checking that no
 * earlier member has the same unescaped name.  key_off is where the name
 * starts, for the error.
 */
static JSON_INLINE enum json_errcode
check_member(struct json_parser *p, struct json_frame *f,
    const unsigned char *kp, size_t kn, uint64_t wa, uint64_t wb,
    size_t key_off)
{
	const struct json_member *m = f->mems + f->first;
	size_t n = f->nmems - 1 - f->first;

	if (f->ix == NULL && n < JSON_SMALL_OBJECT) {
		/* Names whose signatures differ differ: most new names need
		 * no comparison at all (256 bits of filter: an object of 20
		 * names sends under one new name in ten on), and the rest
		 * only with the names of the same signature, found 16 at a
		 * time. */
		unsigned sig = key_sig(wa, wb, kn);
		uint64_t bit = (uint64_t)1 << (sig & 63), same;

		f->sig[n] = (unsigned char)sig;
		if ((f->seen[sig >> 6] & bit) == 0) {
			f->seen[sig >> 6] |= bit;
			return JSON_OK;
		}
		/* names chosen to share signatures spend the comparisons: the
		 * object then takes the index, so the names cost at most
		 * what hashing them does plus JSON_LINEAR_COMPARES
		 * comparisons */
		for (size_t at = 0; at < n; at += 64)
			for (same = sig_matches(
			         f->sig + at, n - at < 64 ? n - at : 64, sig);
			     same != 0; same &= same - 1) {
				if (f->compares == 0)
					return member_indexed(
					    p, f, m, n, key_off);
				f->compares--;
				PROBED();
				/* hits on {"a":1,"a":2} and
				 * {"a":1,"\u0061":2} */
				if (key_eq_words(
				        &m[at +
				            (unsigned)__builtin_ctzll(same)],
				        kp, kn, wa, wb))
					return fail(
					    p, JSON_E_DUPLICATE, key_off, NULL);
			}
		return JSON_OK;
	}
	return member_indexed(p, f, m, n, key_off);
}

/* check_member past the small objects: through the index (kept out of
 * line, so the parser's loop stays small). */
static JSON_NOINLINE enum json_errcode
member_indexed(struct json_parser *p, struct json_frame *f,
    const struct json_member *m, size_t n, size_t key_off)
{
	if (n >= JSON_MAX_MEMBERS) /* a 5 GB body of distinct names */
		return fail(p, JSON_E_TOO_BIG, key_off, "too many members");
	if (f->ix == NULL ||
	    (f->ix->tree == NULL && (n + 1) * 2 > (size_t)f->ix->mask + 1)) {
		if ((f->ix = index_build(p->a, m, n, n + 1, f->ix)) == NULL)
			return fail(p, JSON_E_NOMEM, key_off, NULL);
	}
	switch (index_add(p->a, &f->ix, m, (uint32_t)n)) {
	case 0:
		return JSON_OK;
	case 1:
		/* hits on a 10,000-member object whose last name is its
		 * first */
		return fail(p, JSON_E_DUPLICATE, key_off, NULL);
	default:
		return fail(p, JSON_E_NOMEM, key_off, NULL);
	}
}

/* --- strings
 * ------------------------------------------------------------------ */

/*
 * The four hex digits at in[i..i+3] as *u.  0; -1 with *bad at the first
 * non-hex byte; -2 when the input ends first.
 */
static int
hex4(const unsigned char *in, size_t len, size_t i, uint32_t *u, size_t *bad)
{
	uint32_t v = 0;
	size_t k;
	int d;

	for (k = 0; k < 4; k++) {
		if (i + k >= len)
			return -2;
		if ((d = gpt_hex_value(in[i + k])) < 0) {
			*bad = i + k;
			return -1;
		}
		v = v << 4 | (uint32_t)d;
	}
	*u = v;
	return 0;
}

/*
 * Check the escape whose backslash is at in[i]: set *next past it (a
 * surrogate pair counts as one escape) and *cp to the code point.
 */
static enum json_errcode
check_escape(struct json_parser *p, size_t i, size_t *next, uint32_t *cp)
{
	const unsigned char *in = p->in;
	size_t len = p->len, bad = 0;
	uint32_t u, lo;
	int r;

	if (i + 1 >= len)
		return fail(
		    p, JSON_E_TRUNCATED, len, "input ends inside a string");
	switch (in[i + 1]) {
	case '"':
	case '\\':
	case '/':
	case 'b':
	case 'f':
	case 'n':
	case 'r':
	case 't':
		*next = i + 2;
		*cp = in[i + 1];
		return JSON_OK;
	case 'u':
		break;
	default:
		/* hits on "\x41", "\'", "\U0041", "\a" */
		return fail(p, JSON_E_ESCAPE, i + 1, "unknown escape");
	}
	if ((r = hex4(in, len, i + 2, &u, &bad)) == -2)
		return fail(
		    p, JSON_E_TRUNCATED, len, "input ends inside a string");
	if (r == -1) /* hits on "\u12G4" and "\u00" followed by '"' */
		return fail(p, JSON_E_ESCAPE, bad, "\\u needs four hex digits");
	if (u >= 0xDC00 && u <= 0xDFFF) /* hits on "\udc00" */
		return fail(p, JSON_E_SURROGATE, i, "lone low surrogate");
	if (u < 0xD800 || u > 0xDBFF) {
		*next = i + 6;
		*cp = u;
		return JSON_OK;
	}
	/* A high surrogate must be followed at once by an escaped low one. */
	if (i + 6 >= len)
		return fail(
		    p, JSON_E_TRUNCATED, len, "input ends inside a string");
	if (in[i + 6] != '\\' || i + 7 >= len || in[i + 7] != 'u')
		/* hits on "\ud800" and "\ud800x" */
		return fail(p, JSON_E_SURROGATE, i, "lone high surrogate");
	if ((r = hex4(in, len, i + 8, &lo, &bad)) == -2)
		return fail(
		    p, JSON_E_TRUNCATED, len, "input ends inside a string");
	if (r == -1)
		return fail(p, JSON_E_ESCAPE, bad, "\\u needs four hex digits");
	if (lo < 0xDC00 || lo > 0xDFFF) /* hits on "\ud800\u0041" */
		return fail(
		    p, JSON_E_SURROGATE, i, "high surrogate without low");
	*next = i + 12;
	*cp = 0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00);
	return JSON_OK;
}

/*
 * Unescape in[from..to), already checked by parse_string, into out, which
 * has room for to - from bytes (every escape is longer than its UTF-8).
 * Returns the bytes written.
 */
static size_t
unescape(const unsigned char *in, size_t from, size_t to, char *out)
{
	size_t i = from, o = 0, run;
	uint32_t u, lo;

	while (i < to) {
		/* a long text with an escape or two ("...\n"): the C
		 * library's memchr goes a vector at a time */
		const void *bs = memchr(in + i, '\\', to - i);

		run =
		    bs != NULL ? (size_t)((const unsigned char *)bs - in) : to;
		memcpy(out + o, in + i, run - i);
		o += run - i;
		if ((i = run) >= to)
			break;
		switch (in[i + 1]) {
		case 'b':
			out[o++] = '\b';
			break;
		case 'f':
			out[o++] = '\f';
			break;
		case 'n':
			out[o++] = '\n';
			break;
		case 'r':
			out[o++] = '\r';
			break;
		case 't':
			out[o++] = '\t';
			break;
		case 'u':
			u = (uint32_t)(gpt_hex_value(in[i + 2]) << 12 |
			               gpt_hex_value(in[i + 3]) << 8 |
			               gpt_hex_value(in[i + 4]) << 4 |
			               gpt_hex_value(in[i + 5]));
			if (u >= 0xD800 && u <= 0xDBFF) {
				lo = (uint32_t)(gpt_hex_value(in[i + 8]) << 12 |
				                gpt_hex_value(in[i + 9]) << 8 |
				                gpt_hex_value(in[i + 10]) << 4 |
				                gpt_hex_value(in[i + 11]));
				u = 0x10000 + ((u - 0xD800) << 10) +
				    (lo - 0xDC00);
				i += 6;
			}
			o += utf8_encode(u, (unsigned char *)out + o);
			i += 6;
			continue;
		default: /* '"', '\\', '/' stand for themselves */
			out[o++] = (char)in[i + 1];
			break;
		}
		i += 2;
	}
	return o;
}

/* Up to the first byte of in[i..len) that is not plain (see json_plain):
 * sixteen bytes a step where SSE2 is there (every x86-64), else eight,
 * then one table lookup a byte.  Test builds can turn the vector step off
 * (json_test_portable), so the word and byte paths are tested too. */
static inline size_t
plain_run(const unsigned char *in, size_t len, size_t i)
{
#ifdef JSON_SSE2
	if (!JSON_PORTABLE_NOW)
		while (len - i >= 16) {
			unsigned k16 = plain_run16(in + i);

			i += k16;
			if (k16 < 16)
				return i;
		}
#endif
#ifdef JSON_SWAR
	while (len - i >= 8) {
		unsigned k8 = plain_run8(in + i);

		i += k8;
		if (k8 < 8)
			return i;
	}
#endif
	while (i < len && json_plain[in[i]])
		i++;
	return i;
}

/*
 * The rest of a string that holds something besides plain ASCII: in[start]
 * is its first byte, in[i] the first byte that is not plain, cps the code
 * points before it.  As parse_string.
 */
static JSON_NOINLINE enum json_errcode
parse_string_slow(struct json_parser *p, struct json_string *s, size_t start,
    size_t i, size_t cps)
{
	const unsigned char *in = p->in;
	size_t len = p->len, run, k;
	bool escaped = false;
	enum json_errcode rc;
	uint32_t cp;
	char *out;

	for (;;) {
		if (i >= len) /* hits on "abc */
			return fail(p, JSON_E_TRUNCATED, len,
			    "input ends inside a string");
		if (in[i] == '"')
			break;
		if (in[i] == '\\') {
			if ((rc = check_escape(p, i, &i, &cp)) != JSON_OK)
				return rc;
			escaped = true;
			cps++;
		} else if (in[i] < 0x20) {
			/* hits on a raw tab or LF inside "a b" */
			return fail(p, JSON_E_CONTROL, i,
			    "raw control character in string");
		} else if (in[i] >= 0xC2 && in[i] <= 0xDF && i + 1 < len &&
		           (in[i + 1] & 0xC0) == 0x80) {
			/* a 2-byte sequence (U+0080..U+07FF), the commonest
			 * outside ASCII: no call needed */
			i += 2;
			cps++;
		} else if (in[i] >= 0xE1 && in[i] <= 0xEF && in[i] != 0xED &&
		           i + 2 < len && (in[i + 1] & 0xC0) == 0x80 &&
		           (in[i + 2] & 0xC0) == 0x80) {
			/* a 3-byte sequence whose lead admits any continuation
			 * (E0 may be overlong, ED a surrogate: utf8_decode) */
			i += 3;
			cps++;
		} else {
			/* hits on C0 80, ED A0 80, F4 90 80 80, a lone 80, and
			 * E2 82 at the end of the input */
			if ((k = utf8_decode(in + i, len - i, &cp)) == 0)
				return fail(p, JSON_E_UTF8, i, NULL);
			i += k;
			cps++;
		}
		/* text outside ASCII is mostly runs of such sequences, with
		 * few plain bytes between: the vector step only where the
		 * next byte is plain */
		if (i < len && json_plain[in[i]]) {
			run = i;
			i = plain_run(in, len, i);
			cps += i - run;
		}
	}
	p->pos = i + 1;
	s->cps = cps;
	if (!escaped) {
		s->ptr = (const char *)in + start;
		s->len = i - start;
		return JSON_OK;
	}
	if ((out = arena_alloc(p->a, i - start)) == NULL)
		return fail(p, JSON_E_NOMEM, start - 1, NULL);
	s->len = unescape(in, start, i, out);
	s->ptr = out;
	return JSON_OK;
}

/*
 * The string whose opening quote is at *pos.  On success *pos is past the
 * closing quote and *s holds the unescaped bytes: borrowed from the input
 * when there was no escape, else a copy in the arena; *text and *n are
 * them too, in registers once this is inlined (a member name's check
 * reads them there rather than load back what was just stored).  Plain
 * ASCII up to the closing quote is the common case and stays inline;
 * anything else goes to parse_string_slow.  padded: the input is
 * followed by JSON_PAD bytes, the first NUL (json_parse_padded), so the
 * 16-byte steps need no test of the room left: the NUL is not plain and
 * stops them, and the load that finds it reads no further than the pad.
 */
static JSON_INLINE enum json_errcode
parse_string(struct json_parser *p, const unsigned char *in, size_t len,
    size_t *pos, struct json_string *s, const unsigned char **text, size_t *n,
    const bool padded)
{
	size_t start = *pos + 1, i = start;
	enum json_errcode rc;
	bool closed;

#ifdef JSON_SSE2
	/* Most strings are plain ASCII shorter than 16 bytes: one step finds
	 * the first byte needing attention and whether it is the closing
	 * quote, from the masks, without reading the byte back. */
	if (!JSON_PORTABLE_NOW && (padded || len - i >= 16)) {
		unsigned m, q;

		while ((m = plain_mask16(in + i, &q)) == 0 &&
		       (padded || len - i >= 32))
			i += 16;
		if (m != 0) {
			i += (unsigned)__builtin_ctz(m);
			closed = (m & (0u - m) & q) != 0;
		} else {
			i = plain_run(in, len, i + 16);
			closed = i < len && in[i] == '"';
		}
	} else
#endif
	{
		i = plain_run(in, len, i);
		closed = i < len && in[i] == '"';
	}
	if (closed) {
		s->ptr = (const char *)in + start;
		s->len = i - start;
		s->cps = i - start;
		*text = in + start;
		*n = i - start;
		*pos = i + 1;
		return JSON_OK;
	}
	p->pos = *pos;
	if ((rc = parse_string_slow(p, s, start, i, i - start)) != JSON_OK)
		return rc;
	*text = (const unsigned char *)s->ptr;
	*n = s->len;
	*pos = p->pos;
	return JSON_OK;
}

/*
 * A member name: parse_string into m->key, then its words into m->key_wa
 * and m->key_wb (and *wa, *wb, *text, *n, for check_member).  Most names
 * are plain ASCII under 16 bytes: then the one 16-byte load that finds
 * the closing quote also gives the words, masked to the name's length,
 * with no second load and no branch on the length.
 */
static JSON_INLINE enum json_errcode
parse_name(struct json_parser *p, const unsigned char *in, size_t len,
    size_t *pos, struct json_member *m, const unsigned char **text, size_t *n,
    uint64_t *wa, uint64_t *wb, const bool padded)
{
	enum json_errcode rc;

#if defined(JSON_SSE2) && defined(__x86_64__)
	size_t start = *pos + 1;

	if (!JSON_PORTABLE_NOW && (padded || len - start >= 16)) {
		/* bytes 0..k-1 of the load at json_keep + 16 - k are 0xFF.
		 * The flags are plain_mask16's and the words name_words',
		 * spelled out here on purpose: through those helpers the
		 * loop took 1% to 3% more instructions (registers spilled)
		 * and ran 0.93x to 1.01x. */
		static const unsigned char json_keep[32] = {0xFF, 0xFF, 0xFF,
		    0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
		    0xFF, 0xFF, 0xFF};
		__m128i w = _mm_loadu_si128(
		    (const __m128i *)(const void *)(in + start));
		__m128i q = _mm_cmpeq_epi8(w, _mm_set1_epi8('"'));
		unsigned f = (unsigned)_mm_movemask_epi8(_mm_or_si128(
		    _mm_or_si128(q, _mm_cmpeq_epi8(w, _mm_set1_epi8('\\'))),
		    _mm_cmplt_epi8(w, _mm_set1_epi8(0x20))));

		if ((f & (0u - f) & (unsigned)_mm_movemask_epi8(q)) != 0) {
			unsigned k = (unsigned)__builtin_ctz(f);
			__m128i words = _mm_and_si128(
			    w, _mm_loadu_si128(
			           (const __m128i *)(const void *)(json_keep +
			                                           16 - k)));

			*wa = (uint64_t)_mm_cvtsi128_si64(words);
			*wb = (uint64_t)_mm_cvtsi128_si64(
			    _mm_unpackhi_epi64(words, words));
			m->key.ptr = (const char *)in + start;
			m->key.len = k;
			m->key.cps = k;
			m->key_wa = *wa;
			m->key_wb = *wb;
			*text = in + start;
			*n = k;
			*pos = start + k + 1;
			return JSON_OK;
		}
	}
#endif
	if ((rc = parse_string(p, in, len, pos, &m->key, text, n, padded)) !=
	    JSON_OK)
		return rc;
	name_words(in, len, *text, *n, wa, wb);
	m->key_wa = *wa;
	m->key_wb = *wb;
	return JSON_OK;
}

/* --- numbers and literals
 * ------------------------------------------------------ */

/*
 * RFC 8259 section 6: -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?
 * The text is kept as written; plain integers that fit int64_t also get i.
 */
static JSON_INLINE enum json_errcode
parse_number(struct json_parser *p, const unsigned char *in, size_t len,
    size_t *pos, struct json_value *v, const bool padded)
{
	size_t start = *pos, i = start, digits;
	bool neg = false, plain = true;
	uint64_t u = 0;

	/* padded: the NUL at len is not a digit, '.', 'e' or a sign, so
	 * each test below meets it where the input ends, and the paths it
	 * then takes ask whether it is the end (truncated) before calling
	 * the byte wrong */
	if (in[i] == '-') {
		neg = true;
		i++;
	}
	if (!padded && i >= len) /* hits on "-" */
		goto truncated;
	if (in[i] == '0') {
		i++;
		/* hits on 01 and -00 */
		if ((padded || i < len) && is_digit(in[i]))
			return fail(p, JSON_E_NUMBER, i, "leading zero");
	} else if (is_digit(in[i])) {
		/* Find the run first (eight bytes a step), then accumulate
		 * eight digits a multiply; u wraps (harmlessly, it is
		 * unsigned) past 19 digits, and is used only up to 19. */
		size_t end = digit_run(in, len, i + 1, padded);

		u = (uint64_t)(in[i++] - '0');
		for (; end - i >= 8; i += 8)
			u = u * 100000000 + eight_digits(in + i);
		while (i < end)
			u = u * 10 + (uint64_t)(in[i++] - '0');
	} else if (i >= len) { /* padded: the NUL after "-" */
		goto truncated;
	} else { /* hits on -x, -.5, -Infinity */
		return fail(p, JSON_E_NUMBER, i, "digit expected after '-'");
	}
	digits = i - start - neg;
	if ((padded || i < len) && in[i] == '.') {
		plain = false;
		if (++i >= len) /* hits on 1. */
			goto truncated;
		if (!is_digit(in[i])) /* hits on 1.e5 and 1.] */
			return fail(
			    p, JSON_E_NUMBER, i, "digit expected after '.'");
		i = digit_run(in, len, i + 1, padded);
	}
	if ((padded || i < len) && (in[i] == 'e' || in[i] == 'E')) {
		plain = false;
		i++;
		if ((padded || i < len) && (in[i] == '+' || in[i] == '-'))
			i++;
		if (i >= len) /* hits on 1e and 1e+ */
			goto truncated;
		if (!is_digit(in[i])) /* hits on 1e] and 1E+x */
			return fail(
			    p, JSON_E_NUMBER, i, "digit expected in exponent");
		i = digit_run(in, len, i + 1, padded);
	}
	/* a number of 4 GiB: its length would not fit the node */
	if (i - start > UINT32_MAX)
		return fail(p, JSON_E_TOO_BIG, start, "number too long");
	v->type = JSON_T_NUMBER;
	v->u.num.text = (const char *)in + start;
	v->u.num.len = (uint32_t)(i - start);
	v->u.num.is_small_int = false;
	v->u.num.i = 0;
	/* 19 digits always fit uint64_t; int64_t is checked below. */
	if (plain && digits <= 19) {
		if (!neg && u <= (uint64_t)INT64_MAX) {
			v->u.num.is_small_int = true;
			v->u.num.i = (int64_t)u;
		} else if (neg && u <= (uint64_t)INT64_MAX + 1) {
			v->u.num.is_small_int = true;
			v->u.num.i = u == (uint64_t)INT64_MAX + 1 ? INT64_MIN
			                                          : -(int64_t)u;
		}
	}
	*pos = i;
	return JSON_OK;
truncated:
	return fail(p, JSON_E_TRUNCATED, len, "input ends inside a number");
}

/* One of true, false, null, spelled exactly (case matters), at *pos. */
static inline enum json_errcode
parse_literal(struct json_parser *p, const unsigned char *in, size_t len,
    size_t *pos, enum json_type t, struct json_value *v, const bool padded)
{
	static const char *const words[] = {[JSON_T_NULL] = "null",
	    [JSON_T_FALSE] = "false",
	    [JSON_T_TRUE] = "true"};
	const char *word = words[t];
	size_t n = t == JSON_T_FALSE ? 5 : 4, k;
	uint32_t got, want;

	/* one compare of four bytes (and false's 'e'), not a memcmp
	 * (padded: the five bytes at *pos lie within the input and the pad,
	 * and where the input ends first the NUL differs from the word) */
	if (padded || len - *pos >= n) {
		memcpy(&want, word, 4);
		memcpy(&got, in + *pos, 4);
		if (got == want && (n == 4 || in[*pos + 4] == 'e')) {
			*pos += n;
			v->type = t;
			return JSON_OK;
		}
	}
	/* Not the word: find the first byte that differs, for the error. */
	for (k = 0; *pos + k < len; k++)
		if (in[*pos + k] != (unsigned char)word[k])
			/* hits on nul, True, fals3 */
			return fail(
			    p, JSON_E_SYNTAX, *pos + k, "invalid literal");
	/* hits on tru */
	return fail(p, JSON_E_TRUNCATED, len, "input ends inside a literal");
}

/* What the byte where a value must start begins, from json_starts: a
 * dense switch on it is one jump through a table, where a switch on the
 * byte itself spans '"' to '{' and compiles to a tree of range tests
 * before the jump. */
enum json_start {
	JSON_START_BAD,
	JSON_START_STRING,
	JSON_START_OBJECT,
	JSON_START_ARRAY,
	JSON_START_TRUE,
	JSON_START_FALSE,
	JSON_START_NULL,
	JSON_START_NUMBER,
};

static const unsigned char json_starts[256] = {
    ['"'] = JSON_START_STRING,
    ['{'] = JSON_START_OBJECT,
    ['['] = JSON_START_ARRAY,
    ['t'] = JSON_START_TRUE,
    ['f'] = JSON_START_FALSE,
    ['n'] = JSON_START_NULL,
    ['-'] = JSON_START_NUMBER,
    ['0'] = JSON_START_NUMBER,
    ['1'] = JSON_START_NUMBER,
    ['2'] = JSON_START_NUMBER,
    ['3'] = JSON_START_NUMBER,
    ['4'] = JSON_START_NUMBER,
    ['5'] = JSON_START_NUMBER,
    ['6'] = JSON_START_NUMBER,
    ['7'] = JSON_START_NUMBER,
    ['8'] = JSON_START_NUMBER,
    ['9'] = JSON_START_NUMBER,
};

/* Where the value just parsed lies, which decides what may follow it. */
enum json_ctx {
	JSON_CTX_ROOT,
	JSON_CTX_ARRAY,
	JSON_CTX_OBJECT,
};

/* --- containers
 * ------------------------------------------------------------------ */

/* open_container past its common case: the depth at its limit, or the
 * container stack full (every level below depth is then set up: levels
 * == depth).  Out of line, so that the common case saves no registers. */
static JSON_NOINLINE bool
frames_room(struct json_parser *p, size_t pos)
{
	struct json_frame *f;

	if (p->depth >= p->max_depth) { /* hits on 129 '[' with the default */
		fail(p, JSON_E_DEPTH, pos, NULL);
		return false;
	}
	if ((f = grow(p->a, p->frames, &p->capframes, p->levels, sizeof(*f),
	         JSON_FRAMES_MIN)) == NULL) {
		fail(p, JSON_E_NOMEM, pos, NULL);
		return false;
	}
	p->frames = f;
	return true;
}

/* Open an array or object whose bracket is at pos: its frame, the
 * innermost, or NULL (the error is set). */
static inline struct json_frame *
open_container(struct json_parser *p, bool is_object, size_t pos)
{
	struct json_frame *f;

	if ((p->depth >= p->max_depth || p->depth == p->capframes) &&
	    !frames_room(p, pos))
		return NULL;
	f = &p->frames[p->depth];
	if (p->depth++ == p->levels) {
		f->items = NULL;
		f->mems = NULL;
		f->nitems = f->capitems = f->nmems = f->capmems = 0;
		p->levels++;
	}
	f->is_object = is_object;
	if (is_object) {
		f->ix = NULL;
		memset(f->seen, 0, sizeof(f->seen));
		f->compares = JSON_LINEAR_COMPARES;
		f->first = f->nmems;
	} else {
		f->first = f->nitems;
	}
	return f;
}

/*
 * Close the innermost container: its children are already where they
 * stay, the run of its level's chunk from its first; describe it in the
 * slot reserved for it before it opened (the root, the last item or the
 * pending member of the parent).  Where that slot lies; *fp, its frame,
 * becomes the parent's (NULL at the root).
 */
static inline enum json_ctx
close_container(
    struct json_parser *p, struct json_frame **fp, struct json_value *root)
{
	struct json_frame *f = *fp, *up = NULL;
	struct json_value *v;
	enum json_ctx ctx;

	p->depth--;
	if (p->depth == 0) {
		v = root;
		ctx = JSON_CTX_ROOT;
	} else if ((up = f - 1)->is_object) {
		v = &up->mems[up->nmems - 1].value;
		ctx = JSON_CTX_OBJECT;
	} else {
		v = &up->items[up->nitems - 1];
		ctx = JSON_CTX_ARRAY;
	}
	if (f->is_object) {
		size_t n = f->nmems - f->first;

		v->type = JSON_T_OBJECT;
		v->u.obj.members = n > 0 ? f->mems + f->first : json_no_members;
		v->u.obj.count = n;
		v->u.obj.index = f->ix; /* NULL: searched linearly */
	} else {
		size_t n = f->nitems - f->first;

		v->type = JSON_T_ARRAY;
		v->u.arr.items = n > 0 ? f->items + f->first : json_no_items;
		v->u.arr.count = n;
	}
	*fp = up;
	return ctx;
}

/* --- the loop
 * --------------------------------------------------------------------- */

/*
 * The grammar as a state machine over explicit stacks.  Labels:
 *   value:    a value must start here (after '[', ',' in an array, ':'),
 *             to be written at v
 *   done:     a value is complete; ctx says where it lies
 *   next_obj: after a member's value: ',' or '}'
 *   next_arr: after an item: ',' or ']'
 *   close:    the closing bracket of the innermost container
 *   key:      a member name must start here (after '{' or ',')
 * Whitespace is looked for only where the byte the grammar expects is
 * not there: most bodies are written without it, and then no token pays
 * for a skip that finds nothing.  ctx lives in a register rather than be
 * read back from the innermost frame after each value.
 *
 * padded (a constant: the loop is compiled once each way): in[len] is a
 * NUL and JSON_PAD bytes past len may be read (json_parse_padded).  Then
 * a byte test needs no test of the room left before it: at the end of
 * the input it meets the NUL, which is none of the bytes it looks for,
 * and only the path it then takes asks whether the input has ended, to
 * give the same error and offset as without the pad.  That is a compare
 * and a branch fewer for each byte the grammar expects (eight a member).
 */
static JSON_INLINE enum json_errcode
parse_loop(struct json_parser *p, struct json_value *root, const bool padded)
{
	const unsigned char *in = p->in;
	const size_t len = p->len;
	size_t pos, key_off, n;
	uint64_t wa, wb;
	const unsigned char *text;
	struct json_value *v;
	struct json_member *m;
	struct json_frame *f = NULL; /* the innermost open container's */
	enum json_errcode rc;
	enum json_ctx ctx = JSON_CTX_ROOT;
	unsigned char c;

	pos = ws(in, len, 0, padded);
	if (pos >= len) /* hits on "" and " \n\t" */
		return fail(p, JSON_E_EMPTY, pos, NULL);
	v = root;
value:
	/* v is where this value goes: the root, an array slot, a member.
	 * Whitespace and nothing else that may start here is below '!';
	 * skipped before the switch, whose one jump then sees values only
	 * (", " between items would otherwise send every other jump
	 * elsewhere, and it would mispredict). */
	if ((padded || pos < len) && in[pos] <= ' ')
		pos = ws(in, len, pos, padded);
	if (!padded && pos >= len)
		goto no_value;
	switch ((enum json_start)json_starts[in[pos]]) {
	case JSON_START_STRING:
		v->type = JSON_T_STRING;
		rc = parse_string(
		    p, in, len, &pos, &v->u.str, &text, &n, padded);
		break;
	case JSON_START_OBJECT:
		if ((f = open_container(p, true, pos)) == NULL)
			return p->err->code;
		ctx = JSON_CTX_OBJECT;
		pos++;
		if ((padded || pos < len) && in[pos] == '"')
			goto key;
		pos = ws(in, len, pos, padded);
		if (pos < len && in[pos] == '}')
			goto close;
		goto key;
	case JSON_START_ARRAY:
		if ((f = open_container(p, false, pos)) == NULL)
			return p->err->code;
		ctx = JSON_CTX_ARRAY;
		pos = ws(in, len, pos + 1, padded);
		if (pos < len && in[pos] == ']')
			goto close;
		if (!array_room(p, f, pos))
			return p->err->code;
		v = &f->items[f->nitems++];
		goto value;
	case JSON_START_TRUE:
		rc = parse_literal(p, in, len, &pos, JSON_T_TRUE, v, padded);
		break;
	case JSON_START_FALSE:
		rc = parse_literal(p, in, len, &pos, JSON_T_FALSE, v, padded);
		break;
	case JSON_START_NULL:
		rc = parse_literal(p, in, len, &pos, JSON_T_NULL, v, padded);
		break;
	case JSON_START_NUMBER:
		rc = parse_number(p, in, len, &pos, v, padded);
		break;
#if defined(__GNUC__) || defined(__clang__)
	default: /* json_starts holds the cases above only: no range test */
		__builtin_unreachable();
#else
	default:
#endif
	case JSON_START_BAD:
		if (pos >= len) /* padded: the NUL after the input */
			goto no_value;
		/* hits on [1,] {"a":'b'} +1 .5 NaN // and a byte >= 0x80 */
		return fail(p, JSON_E_SYNTAX, pos, "a value cannot start here");
	}
	if (rc != JSON_OK)
		return rc;
done:
	if (ctx == JSON_CTX_OBJECT)
		goto next_obj;
	if (ctx == JSON_CTX_ARRAY)
		goto next_arr;
	pos = ws(in, len, pos, padded);
	if (pos < len) /* hits on {} x, {}{}, 1 2 */
		return fail(p, JSON_E_TRAILING, pos, NULL);
	return JSON_OK;
next_obj:
	if (padded || pos < len) {
		c = in[pos];
		if (c == ',') {
			pos++;
			goto key;
		}
		if (c == '}')
			goto close;
		if (is_ws(c)) {
			pos = ws(in, len, pos, padded);
			goto next_obj;
		}
		if (pos < len) /* hits on {"a":1 "b":2} and {"a":1] */
			return fail(
			    p, JSON_E_SYNTAX, pos, "expected ',' or '}'");
	}
	/* hits on {"a":1 */
	return fail(p, JSON_E_TRUNCATED, pos, "input ends inside a container");
next_arr:
	if (padded || pos < len) {
		c = in[pos];
		if (c == ',') {
			if (!array_room(p, f, ++pos))
				return p->err->code;
			v = &f->items[f->nitems++];
			goto value;
		}
		if (c == ']')
			goto close;
		if (is_ws(c)) {
			pos = ws(in, len, pos, padded);
			goto next_arr;
		}
		if (pos < len) /* hits on [1 2] and [1} */
			return fail(
			    p, JSON_E_SYNTAX, pos, "expected ',' or ']'");
	}
	/* hits on [1 */
	return fail(p, JSON_E_TRUNCATED, pos, "input ends inside a container");
close:
	ctx = close_container(p, &f, root);
	pos++;
	goto done;
key:
	if ((!padded && pos >= len) || in[pos] != '"') {
		/* ", " is how many bodies are written: two compares rather
		 * than the whitespace loop (padded: in[pos] is a space, so
		 * pos + 1 is at most len) */
		if ((padded || len - pos >= 2) && in[pos] == ' ' &&
		    in[pos + 1] == '"') {
			pos++;
			goto name;
		}
		pos = ws(in, len, pos, padded);
		if (pos >= len) /* hits on { and {"a":1, */
			return fail(p, JSON_E_TRUNCATED, pos,
			    "input ends where a member name should start");
		if (in[pos] != '"') /* hits on {,} {a:1} {'a':1} {"a":1,} */
			return fail(
			    p, JSON_E_SYNTAX, pos, "member name expected");
	}
name:
	key_off = pos;
	if (!member_room(p, f, pos))
		return p->err->code;
	m = &f->mems[f->nmems++];
	if ((rc = parse_name(
	         p, in, len, &pos, m, &text, &n, &wa, &wb, padded)) != JSON_OK)
		return rc;
	if ((rc = check_member(p, f, text, n, wa, wb, key_off)) != JSON_OK)
		return rc;
	if ((!padded && pos >= len) || in[pos] != ':') {
		pos = ws(in, len, pos, padded);
		if (pos >= len) /* hits on {"a" */
			return fail(p, JSON_E_TRUNCATED, pos,
			    "input ends after a member name");
		if (in[pos] != ':') /* hits on {"a" 1} and {"a",1} */
			return fail(p, JSON_E_SYNTAX, pos,
			    "expected ':' after member name");
	}
	pos++;
	if ((padded || pos < len) && in[pos] == ' ') /* ": " */
		pos++;
	v = &m->value;
	goto value;
no_value: /* hits on [1, and {"a": */
	return fail(
	    p, JSON_E_TRUNCATED, pos, "input ends where a value should start");
}

/* The loop compiled each way, each out of line, so that neither's
 * registers are the other's. */
static JSON_NOINLINE enum json_errcode
parse_exact(struct json_parser *p, struct json_value *root)
{
	return parse_loop(p, root, false);
}

static JSON_NOINLINE enum json_errcode
parse_padded(struct json_parser *p, struct json_value *root)
{
	return parse_loop(p, root, true);
}

static enum json_errcode
parse_top(const char *in, size_t len, struct arena *a, unsigned max_depth,
    const struct json_value **out, struct json_err *err, bool padded)
{
	struct json_parser p;
	struct json_value v, *root;
	enum json_errcode rc;

	/* The container stack starts on the C stack: most bodies nest less
	 * than JSON_FRAMES_MIN deep and put none of it in the arena. */
	struct json_frame frames0[JSON_FRAMES_MIN];

	memset(&p, 0, sizeof(p));
	p.frames = frames0;
	p.capframes = JSON_FRAMES_MIN;
	p.in = (const unsigned char *)in;
	p.len = in != NULL ? len : 0;
	p.a = a;
	p.err = err;
	p.max_depth = max_depth == 0 ? JSON_MAX_DEPTH : max_depth;
	rc = padded && in != NULL ? parse_padded(&p, &v) : parse_exact(&p, &v);
	if (rc != JSON_OK)
		return rc;
	if ((root = arena_alloc(a, sizeof(*root))) == NULL)
		return fail(&p, JSON_E_NOMEM, p.len, NULL);
	*root = v;
	*out = root;
	err->code = JSON_OK;
	err->msg = json_errstr(JSON_OK);
	err->offset = p.len;
	return JSON_OK;
}

enum json_errcode
json_parse(const char *in, size_t len, struct arena *a, unsigned max_depth,
    const struct json_value **out, struct json_err *err)
{
	return parse_top(in, len, a, max_depth, out, err, false);
}

enum json_errcode
json_parse_padded(const char *in, size_t len, struct arena *a,
    unsigned max_depth, const struct json_value **out, struct json_err *err)
{
	return parse_top(in, len, a, max_depth, out, err, true);
}

/* --- lookup and names
 * ------------------------------------------------------------ */

const struct json_value *
json_object_get(const struct json_value *obj, const char *key, size_t key_len)
{
	const struct json_member *m;
	long long at;
	size_t i;

	if (obj == NULL || obj->type != JSON_T_OBJECT)
		return NULL;
	m = obj->u.obj.members;
	if (obj->u.obj.index != NULL) {
		at = index_find(obj->u.obj.index, m, key, key_len);
		return at >= 0 ? &m[at].value : NULL;
	}
	for (i = 0; i < obj->u.obj.count; i++)
		if (key_eq(&m[i].key, key, key_len))
			return &m[i].value;
	return NULL;
}

const char *
json_type_name(enum json_type t)
{
	switch (t) {
	case JSON_T_NULL:
		return "null";
	case JSON_T_FALSE:
	case JSON_T_TRUE:
		return "boolean";
	case JSON_T_NUMBER:
		return "number";
	case JSON_T_STRING:
		return "string";
	case JSON_T_ARRAY:
		return "array";
	case JSON_T_OBJECT:
		return "object";
	}
	return "unknown";
}

const char *
json_errstr(enum json_errcode code)
{
	switch (code) {
	case JSON_OK:
		return "no error";
	case JSON_E_EMPTY:
		return "no value (empty input)";
	case JSON_E_SYNTAX:
		return "syntax error";
	case JSON_E_TRAILING:
		return "bytes after the value";
	case JSON_E_DEPTH:
		return "nested too deeply";
	case JSON_E_DUPLICATE:
		return "duplicate member name";
	case JSON_E_UTF8:
		return "invalid UTF-8";
	case JSON_E_ESCAPE:
		return "invalid escape";
	case JSON_E_SURROGATE:
		return "unpaired surrogate escape";
	case JSON_E_CONTROL:
		return "raw control character in string";
	case JSON_E_NUMBER:
		return "malformed number";
	case JSON_E_TRUNCATED:
		return "input ends inside a value";
	case JSON_E_TOO_BIG:
		return "too big";
	case JSON_E_NOMEM:
		return "out of memory";
	}
	return "unknown error";
}

void
json_line_col(
    const char *text, size_t len, size_t offset, size_t *line, size_t *col)
{
	size_t i;

	*line = 1;
	*col = 1;
	if (offset > len)
		offset = len;
	for (i = 0; i < offset; i++) {
		if (text[i] == '\n') {
			(*line)++;
			*col = 1;
		} else if (((unsigned char)text[i] & 0xC0) != 0x80)
			(*col)++;
	}
}
