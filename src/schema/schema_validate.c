/*
 * schema_validate.c: walk a compiled form over an instance (the act body).
 *
 * Owns nothing.  Allocates nothing on the common path: the instance
 * pointer of a failure is kept as a fixed array of (key or index) frames
 * pushed on the way down and turned into text only when a failure is
 * reported; a member-name bitmap lives on the stack for up to 256 names.
 * Only uniqueItems on long arrays and bitmaps for larger forms take memory,
 * from the scratch arena, given back before returning.
 *
 * uniqueItems, whatever the items: up to UNIQUE_PAIRWISE_MAX items are
 * compared pairwise; longer arrays go through a table keyed by json_hash
 * (keyed per process, so items cannot be chosen offline to collide) where
 * no item may probe more than UNIQUE_PROBE_MAX slots; an array where one
 * would (the key leaked, or chance: about 1e-17 per item) is sorted
 * instead by the canonical encodings of its items (json_canon), O(n log n)
 * comparisons, and neighbours compared.  Either way the answer and the
 * report are the same: the first item equal to an earlier one.  The enum
 * tables are the compiler's, fixed at load, probed by the same hash.
 *
 * Limits (fail closed): SCHEMA_MAX_DEPTH nested subschema applications,
 * SCHEMA_MAX_STEPS applications per act, the pattern engine's limits per
 * match and its time budget per act (re_search_budget), the decimal work
 * limit of multipleOf, numbers whose exponent dec_parse refuses (only
 * where a numeric keyword needs their value).  Hitting any of them ends
 * validation with SCHEMA_LIMIT, even under `not` or `anyOf`: an undecided
 * branch must never turn into an acceptance.
 *
 * Keywords are checked in a fixed order (type, enum, const, the keywords
 * of the instance's type, then $ref, allOf, anyOf, oneOf, not, if), so the
 * first failure reported is the same on every run.  The compiler's
 * shortcuts (schema_int.h: need, admits, accepts) skip only work whose
 * outcome is already known to be acceptance, so they change no answer and
 * no report.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>

#include "base/arena.h"
#include "base/dec.h"
#include "schema/format.h"
#include "parser/jptr.h"
#include "parser/json.h"
#include "parser/re.h"
#include "schema/schema_view.h"
#include "schema/schema.h"
#include "schema/schema_int.h"
#include "base/sort.h"

/* Arrays up to this long are checked for uniqueness pairwise: cheaper
 * than hashing every item when there are few. */
#define UNIQUE_PAIRWISE_MAX 16
/* The longest probe of uniqueItems' table before the array is sorted. */
#define UNIQUE_PROBE_MAX 128

#ifdef GPT_TEST
uint64_t schema_test_probes;
uint64_t (*schema_test_item_hash)(const struct json_value *v);
uint64_t schema_test_collects;
uint64_t schema_test_name_hashes;
#define PROBED() (schema_test_probes++)
#define COLLECTED() (schema_test_collects++)
#define NAME_HASHED() (schema_test_name_hashes++)
#else
#define PROBED() ((void)0)
#define COLLECTED() ((void)0)
#define NAME_HASHED() ((void)0)
#endif
/* Member-name slots whose seen-bits fit on the stack. */
#define SEEN_LOCAL_WORDS 4

struct vframe {
	const char *key; /* borrowed: member name, or NULL for an index */
	size_t n;        /* key length, or the index */
};

/* What an object's members or an array's items a subschema evaluated
 * (2020-12 section 11: the annotations unevaluated* reads): bit i for
 * member or item i, or all. */
struct eval {
	uint64_t *bits; /* scratch; NULL when the value is empty */
	bool all;
};

struct vctx {
	struct arena *scratch;
	/* set only right before an in-place application from a node that
	 * collects (schema_node.collect): where the callee records what it
	 * evaluated; the callee takes it at once */
	struct eval *ev;
	unsigned nscope; /* the dynamic scope, outermost first */
	const struct schema_resource *scope[SCHEMA_MAX_DEPTH + 1];
	struct schema_err *err;
	uint32_t steps;
	unsigned depth;
	unsigned quiet; /* > 0 inside anyOf/oneOf/not/if/contains branches */
	struct re_budget re_budget; /* the act's pattern time */
	size_t nframes;
	struct vframe frames[SCHEMA_MAX_DEPTH + 1];
};

static inline void
eval_mark(struct eval *ev, size_t i)
{
	if (!ev->all)
		ev->bits[i / 64] |= (uint64_t)1 << (i % 64);
}

/* ----- reporting ------------------------------------------------------ */

/* Reports no keyword makes: the step limit's (no keyword), and the one of
 * a form that is `false` at its root (named as that schema is). */
#define KW_NONE KW_COUNT
#define KW_ROOT_FALSE ((enum kw)(KW_COUNT + 1))

static void report(struct vctx *x, enum kw keyword, const char *fmt, ...)
    GPT_PRINTF(3, 4);

static void
report(struct vctx *x, enum kw keyword, const char *fmt, ...)
{
	va_list ap;
	size_t i;

	/* the name only now: the walk carries the keyword's id */
	if (keyword < KW_COUNT)
		x->err->keyword = schema_kw_name(keyword);
	else
		x->err->keyword = keyword == KW_ROOT_FALSE ? "false" : NULL;
	jptr_init(&x->err->pointer);
	for (i = 0; i < x->nframes; i++) {
		if (x->frames[i].key != NULL)
			jptr_push(
			    &x->err->pointer, x->frames[i].key, x->frames[i].n);
		else
			jptr_push_index(&x->err->pointer, x->frames[i].n);
	}
	va_start(ap, fmt);
	vsnprintf(x->err->reason, sizeof(x->err->reason), fmt, ap);
	va_end(ap);
	gpt_mask_controls(x->err->reason, strlen(x->err->reason));
}

/* A keyword rejects the instance.  Inside a branch whose failure may not
 * matter (anyOf, not, ...) nothing is written: reports cost only when
 * they are the answer. */
#define FAIL(x, kw, ...)                                                       \
	((x)->quiet == 0 ? (report((x), (kw), __VA_ARGS__), SCHEMA_INVALID)    \
	                 : SCHEMA_INVALID)

/* A limit ends validation, reported even inside branches. */
#define STOP(x, rc, kw, ...) (report((x), (kw), __VA_ARGS__), (rc))

/* A type failure in words: "expected a string or null, got a number".
 * Only on the failing path, so the words cost nothing when values pass. */
static enum schema_result
type_fail(struct vctx *x, unsigned types, const struct json_value *v)
{
	static const struct {
		unsigned bit;
		const char *words;
	} names[] = {
	    {SCHEMA_TY_OBJECT, "an object"},
	    {SCHEMA_TY_ARRAY, "an array"},
	    {SCHEMA_TY_STRING, "a string"},
	    {SCHEMA_TY_INTEGER, "an integer"},
	    {SCHEMA_TY_NUMBER, "a number"},
	    {SCHEMA_TY_BOOLEAN, "a boolean"},
	    {SCHEMA_TY_NULL, "null"},
	};
	char want[128];
	size_t i, k = 0, len = 0;
	const char *got;

	if (x->quiet != 0)
		return SCHEMA_INVALID;
	want[0] = '\0';
	for (i = 0; i < GPT_ARRAY_LEN(names); i++) {
		if (!(types & names[i].bit) ||
		    (names[i].bit == SCHEMA_TY_INTEGER &&
		        (types & SCHEMA_TY_NUMBER)))
			continue;
		len += (size_t)snprintf(want + len, sizeof(want) - len, "%s%s",
		    k == 0 ? "" : " or ", names[i].words);
		if (len >= sizeof(want))
			break;
		k++;
	}
	switch (v->type) {
	case JSON_T_NULL:
		got = "null";
		break;
	case JSON_T_TRUE:
	case JSON_T_FALSE:
		got = "a boolean";
		break;
	case JSON_T_NUMBER:
		got = (types & SCHEMA_TY_INTEGER) ? "a number with a fraction"
		                                  : "a number";
		break;
	case JSON_T_STRING:
		got = "a string";
		break;
	case JSON_T_ARRAY:
		got = "an array";
		break;
	default:
		got = "an object";
		break;
	}
	return FAIL(x, KW_TYPE, "expected %s, got %s", want, got);
}

/* check() is the body of apply_slow(), kept apart for reading; one call
 * per instance value instead of two. */
#if defined(__GNUC__) || defined(__clang__)
#define VALIDATE_INLINE __attribute__((always_inline)) inline
#define VALIDATE_NOINLINE __attribute__((noinline))
#else
#define VALIDATE_INLINE inline
#define VALIDATE_NOINLINE
#endif

static VALIDATE_INLINE enum schema_result check(struct vctx *x,
    const struct schema_node *n, const struct json_value *v, uint64_t need);
static VALIDATE_NOINLINE enum schema_result check_special(struct vctx *x,
    const struct schema_node *n, const struct json_value *v, uint64_t need);
static VALIDATE_INLINE enum schema_result check_members(struct vctx *x,
    const struct schema_node *n, const struct json_value *v, uint64_t *seen,
    struct eval *ev, bool plain);
static VALIDATE_INLINE enum schema_result check_array(struct vctx *x,
    const struct schema_node *n, const struct json_value *v, struct eval *ev);
/* How far members_settle got: the first member it could not settle (end
 * when it settled all), that member's slot (UINT32_MAX: none) and the
 * subschema to apply to it, and the required names met before it. */
struct settled {
	const struct json_member *m;
	const struct schema_node *sub;
	uint32_t k, nreq;
};

static VALIDATE_INLINE struct settled members_settle(
    const struct schema_node *n, const struct json_member *m,
    const struct json_member *end);
static bool enum_has(const struct schema_node *n, const struct json_value *v);
static VALIDATE_INLINE bool enum_string_has(
    const struct schema_node *n, const struct json_string *str);

/* JSON equality with the common cases inline: values of different types,
 * literals, and strings (byte-equal is code-point-equal in valid UTF-8). */
static inline bool
fast_equal(const struct json_value *a, const struct json_value *b)
{
	if (a->type != b->type)
		return false;
	switch (a->type) {
	case JSON_T_STRING:
		return a->u.str.len == b->u.str.len &&
		       schema_key_eq(a->u.str.ptr, b->u.str.ptr, a->u.str.len);
	case JSON_T_NULL:
	case JSON_T_TRUE:
	case JSON_T_FALSE:
		return true;
	default:
		return json_equal(a, b);
	}
}

/* What an application past apply()'s shortcuts runs (apply_slow): the
 * general check, or, for a node whose need[] for v holds nothing else,
 * one walk alone. */
enum walk {
	WALK_CHECK,
	/* need holds nothing but SF_MEMBERS, SF_REQUIRED and
	 * SF_MEMBERS_LEAF (only objects need these bits, so v is one;
	 * SF_MEMBERS_FULL is not there):
	 * {"properties": {...}, "required": [...],
	 * "additionalProperties": false} */
	WALK_MEMBERS,
	/* need is SF_ITEMS (v is an array): {"type": "array", "items":
	 * {...}} */
	WALK_ITEMS,
};

/* check(), or one walk alone (a constant at each call site), one level
 * down: the limits every application passes. */
static VALIDATE_INLINE enum schema_result
descend(struct vctx *x, const struct schema_node *sub,
    const struct json_value *v, enum kw kw, uint64_t need, enum walk walk)
{
	enum schema_result r;

	/* {"$defs": {"t": {"items": {"$ref": "#/$defs/t"}}}} against
	 * [[[[... 600 levels ...]]]] (when the parser allows that depth) */
	if (x->depth >= SCHEMA_MAX_DEPTH)
		return STOP(x, SCHEMA_LIMIT, kw, "deeper than %d subschemas",
		    SCHEMA_MAX_DEPTH);
	/* A form whose recursion fans out ({"anyOf": [{"$ref": "#/..."},
	 * ...]} nested) against a deep body: exponential without a budget. */
	if (++x->steps > SCHEMA_MAX_STEPS)
		return STOP(x, SCHEMA_LIMIT, KW_NONE,
		    "more than %u subschema applications", SCHEMA_MAX_STEPS);
	x->depth++;
	switch (walk) {
	case WALK_MEMBERS:
		r = check_members(x, sub, v, NULL, NULL, true);
		break;
	case WALK_ITEMS:
		r = check_array(x, sub, v, NULL);
		break;
	default:
		r = check(x, sub, v, need);
		break;
	}
	x->depth--;
	return r;
}

/* The walks, each a function of its own, so that it pays for none of the
 * registers and stack of the general check. */
static VALIDATE_NOINLINE enum schema_result
apply_members(struct vctx *x, const struct schema_node *sub,
    const struct json_value *v, enum kw kw)
{
	return descend(x, sub, v, kw, 0, WALK_MEMBERS);
}

/* A member walk whose every subschema has shortcuts for some scalar
 * (SF_MEMBERS_LEAF: {"properties": {"name": {"type": "string"}, "port":
 * {"type": "integer", "minimum": 1}}}) mostly settles its object with no
 * subschema to apply.  That takes no call, so it runs here, in a function
 * with none of the walk's set-up, stack or limits to count; anything else
 * (a member to apply, a required name short, a limit to report) is the
 * full walk's, from the first member. */
static VALIDATE_NOINLINE enum schema_result
apply_members_leaf(struct vctx *x, const struct schema_node *sub,
    const struct json_value *v, enum kw kw)
{
	const struct json_member *end = v->u.obj.members + v->u.obj.count;
	struct settled st = members_settle(sub, v->u.obj.members, end);

	if (st.m != end || st.nreq < sub->nrequired ||
	    x->depth >= SCHEMA_MAX_DEPTH || x->steps >= SCHEMA_MAX_STEPS)
		return apply_members(x, sub, v, kw);
	x->steps++;
	return SCHEMA_OK;
}

static VALIDATE_NOINLINE enum schema_result
apply_items(struct vctx *x, const struct schema_node *sub,
    const struct json_value *v, enum kw kw)
{
	return descend(x, sub, v, kw, 0, WALK_ITEMS);
}

/* apply() past its shortcuts, any other node. */
static VALIDATE_NOINLINE enum schema_result
apply_check(struct vctx *x, const struct schema_node *sub,
    const struct json_value *v, enum kw kw, uint64_t need)
{
	if (need & SF_FALSE)
		return FAIL(x, kw, "the schema false accepts nothing");
	/* {"enum": ["plain", "bold", ...]} holding a string: one probe of
	 * the table and no descent (a miss takes the path below, which
	 * reports it) */
	if (need == SF_ENUM && v->type == JSON_T_STRING &&
	    enum_string_has(sub, &v->u.str))
		return SCHEMA_OK;
	/* {"type": "string", "format": "date"} holding a date: the checker
	 * and no descent (a failure takes the path below, which reports) */
	if (need == SF_FORMAT && sub->format->check(v->u.str.ptr, v->u.str.len))
		return SCHEMA_OK;
	return descend(x, sub, v, kw, need, WALK_CHECK);
}

/* apply() past its shortcuts: one of the three above, by one word of the
 * node.  Each is a tail call, so the choice costs no frame. */
static VALIDATE_NOINLINE enum schema_result
apply_slow(struct vctx *x, const struct schema_node *sub,
    const struct json_value *v, enum kw kw)
{
	uint64_t need = sub->need[v->type];

	if (need != 0 && (need & ~(uint64_t)(SF_MEMBERS | SF_REQUIRED |
	                                     SF_MEMBERS_LEAF)) == 0)
		return (need & SF_MEMBERS_LEAF)
		           ? apply_members_leaf(x, sub, v, kw)
		           : apply_members(x, sub, v, kw);
	if (need == SF_ITEMS)
		return apply_items(x, sub, v, kw);
	return apply_check(x, sub, v, kw, need);
}

/* true when sub's shortcuts (schema_int.h) accept v without applying sub:
 * `true`, {"type": "string"} against a string, {"minimum": 0} against a
 * string, a string of the right length against {"type": "string",
 * "maxLength": 80} or an anyOf led by it, 7 against {"type": "integer",
 * "minimum": 0}. */
static inline bool
accepted(const struct schema_node *sub, const struct json_value *v)
{
	return ((sub->accepts >> v->type) & 1u) ||
	       (v->type == JSON_T_STRING && v->u.str.cps >= sub->accept_min &&
	           v->u.str.cps <= sub->accept_max) ||
	       (v->type == JSON_T_NUMBER && v->u.num.is_small_int &&
	           (uint64_t)v->u.num.i - sub->accept_ilo < sub->accept_ispan);
}

/* Apply sub to v in place; kw names the keyword when sub is `false`.
 * Inline, so that what the shortcuts accept costs no call; anything
 * else, failures included, takes apply_slow, which decides and reports. */
static VALIDATE_INLINE enum schema_result
apply(struct vctx *x, const struct schema_node *sub, const struct json_value *v,
    enum kw kw)
{
	if (accepted(sub, v))
		return SCHEMA_OK;
	return apply_slow(x, sub, v, kw);
}

/* apply() to member key (len bytes) of the current value: the key is
 * pushed for the instance pointer only when sub has to be applied. */
static VALIDATE_INLINE enum schema_result
apply_key(struct vctx *x, const struct schema_node *sub,
    const struct json_value *v, const char *key, size_t len, enum kw kw)
{
	enum schema_result r;

	if (accepted(sub, v))
		return SCHEMA_OK;
	x->frames[x->nframes].key = key;
	x->frames[x->nframes].n = len;
	x->nframes++;
	r = apply_slow(x, sub, v, kw);
	x->nframes--;
	return r;
}

/* apply() to item i of the current value, likewise. */
static VALIDATE_INLINE enum schema_result
apply_index(struct vctx *x, const struct schema_node *sub,
    const struct json_value *v, size_t i, enum kw kw)
{
	enum schema_result r;

	if (accepted(sub, v))
		return SCHEMA_OK;
	x->frames[x->nframes].key = NULL;
	x->frames[x->nframes].n = i;
	x->nframes++;
	r = apply_slow(x, sub, v, kw);
	x->nframes--;
	return r;
}

/* ----- numbers -------------------------------------------------------- */

/*
 * multipleOf on two short decimals, v = m1 * 10^e1 and d = m2 * 10^e2
 * (m2 > 0): 1 when v / d is an integer, 0 when not, -1 when the exponents
 * lie too far apart for this shortcut (the caller then asks dec, whose
 * work grows with the logarithm of the gap, not the gap).  Exact: only
 * remainders below 10^19 are ever formed.
 */
static int
short_multiple(uint64_t m1, int64_t e1, uint64_t m2, int64_t e2)
{
	static const uint64_t pow10[19] = {1u, 10u, 100u, 1000u, 10000u,
	    100000u, 1000000u, 10000000u, 100000000u, 1000000000u, 10000000000u,
	    100000000000u, 1000000000000u, 10000000000000u, 100000000000000u,
	    1000000000000000u, 10000000000000000u, 100000000000000000u,
	    1000000000000000000u};
	int64_t k = e1 - e2;
	uint64_t r;

	if (m1 == 0)
		return 1;
	if (k >= 0) {
		/* multipleOf 0.01, 1e-3, 1: any v with no finer digits */
		if (m2 == 1)
			return 1;
		/* 1e399 against {"multipleOf": 3}: leave it to dec */
		if (k > 18)
			return -1;
		/* m1 * 10^k mod m2, one decimal shift at a time */
		for (r = m1 % m2; k > 0 && r != 0; k--)
			r = (r * 10) % m2;
		return r == 0;
	}
	/* 0 < m1 < 10^18 has no divisor 10^19 or more */
	if (-k > 18 || m1 % pow10[-k] != 0)
		return 0;
	return (m1 / pow10[-k]) % m2 == 0;
}

/* -1, 0, 1 as m1 * 10^e1 <, ==, > m2 * 10^e2 (magnitudes). */
static int
short_cmp_abs(uint64_t m1, int64_t e1, uint64_t m2, int64_t e2)
{
	int flip = 1;
	uint64_t t;
	int64_t k;

	if (m1 == 0 || m2 == 0)
		return (m1 != 0) - (m2 != 0);
	if (e1 < e2) {
		t = m1, m1 = m2, m2 = t;
		k = e1, e1 = e2, e2 = k;
		flip = -1;
	}
	/* now e1 >= e2: compare m1 * 10^(e1-e2) with m2 < 10^18 */
	for (k = e1 - e2; k > 0; k--) {
		if (m1 >= m2)
			return flip;
		m1 *= 10; /* m1 < m2 < 10^18: no overflow */
	}
	return flip * ((m1 > m2) - (m1 < m2));
}

/* v's value, parsed at most once per node visit: the short form when it
 * fits, the exact decimal otherwise. */
struct lazy_dec {
	bool done;
	int shortened; /* -1 not tried, 0 does not fit, 1 mant/exp set */
	bool neg;
	uint64_t mant;
	int64_t exp;
	struct dec d;
};

static bool
need_short(const struct json_value *v, struct lazy_dec *ld)
{
	if (ld->shortened < 0) {
		ld->shortened =
		    dec_short(v->u.num.text, v->u.num.len, &ld->mant, &ld->exp);
		ld->neg = v->u.num.text[0] == '-' && ld->mant != 0;
	}
	return ld->shortened == 1;
}

static int
need_dec(const struct json_value *v, struct lazy_dec *ld)
{
	if (!ld->done) {
		if (dec_parse(v->u.num.text, v->u.num.len, &ld->d) == -1)
			return -1;
		ld->done = true;
	}
	return 0;
}

/* -1, 0, 1 as v <, ==, > b; -2 when v's exponent is out of range. */
static int
num_cmp(
    const struct json_value *v, struct lazy_dec *ld, const struct schema_num *b)
{
	if (v->u.num.is_small_int && b->is_small)
		return (v->u.num.i > b->i) - (v->u.num.i < b->i);
	if (b->is_short && need_short(v, ld)) {
		bool bneg = b->d.neg;

		if (ld->neg != bneg)
			return ld->neg ? -1 : 1;
		return (bneg ? -1 : 1) *
		       short_cmp_abs(ld->mant, ld->exp, b->mant, b->exp);
	}
	if (need_dec(v, ld) == -1)
		return -2;
	return dec_cmp(&ld->d, &b->d);
}

static bool
is_integer(const struct json_value *v, struct lazy_dec *ld, bool *range)
{
	*range = true;
	if (v->u.num.is_small_int)
		return true;
	if (need_dec(v, ld) == -1) {
		*range = false;
		return false;
	}
	return dec_is_integer(&ld->d);
}

/* draft-04 core 3.5: "integer: a JSON number without a fraction or
 * exponent part": 10 is one, 1.0 and 1e1 are not. */
static bool
is_integer_text(const struct json_value *v)
{
	size_t i;

	for (i = 0; i < v->u.num.len; i++)
		if (v->u.num.text[i] == '.' || v->u.num.text[i] == 'e' ||
		    v->u.num.text[i] == 'E')
			return false;
	return true;
}

static enum schema_result
check_number(struct vctx *x, const struct schema_node *n,
    const struct json_value *v, struct lazy_dec *ld)
{
	static const struct {
		unsigned flag;
		size_t off;
		enum kw kw;
		int bad1, bad2; /* comparisons that reject */
	} bounds[] = {
	    {SF_MINIMUM, offsetof(struct schema_node, minimum), KW_MINIMUM, -1,
	        -1},
	    {SF_XMINIMUM, offsetof(struct schema_node, xminimum),
	        KW_EXCLUSIVEMINIMUM, -1, 0},
	    {SF_MAXIMUM, offsetof(struct schema_node, maximum), KW_MAXIMUM, 1,
	        1},
	    {SF_XMAXIMUM, offsetof(struct schema_node, xmaximum),
	        KW_EXCLUSIVEMAXIMUM, 1, 0},
	};
	size_t i;

	for (i = 0; i < GPT_ARRAY_LEN(bounds); i++) {
		const struct schema_num *b;
		int cmp;

		if (!(n->flags & bounds[i].flag))
			continue;
		b = (const struct schema_num *)(const void *)((const char *)n +
		                                              bounds[i].off);
		cmp = num_cmp(v, ld, b);
		/* 1e99999999999999 against {"minimum": 0} */
		if (cmp == -2)
			return STOP(x, SCHEMA_LIMIT, bounds[i].kw,
			    "number out of range");
		if (cmp == bounds[i].bad1 || cmp == bounds[i].bad2)
			return FAIL(x, bounds[i].kw, "out of bounds");
	}
	if (n->flags & SF_MULTIPLE) {
		const struct schema_num *m = &n->multiple;
		int r = -1;

		if (v->u.num.is_small_int && m->is_small)
			r = v->u.num.i % m->i == 0;
		else if (m->is_short && need_short(v, ld))
			r = short_multiple(ld->mant, ld->exp, m->mant, m->exp);
		if (r == -1) {
			if (need_dec(v, ld) == -1)
				return STOP(x, SCHEMA_LIMIT, KW_MULTIPLEOF,
				    "number out of range");
			/* 1e999999999 against {"multipleOf": 0.0000007} */
			if ((r = dec_is_multiple(&ld->d, &m->d)) == -1)
				return STOP(x, SCHEMA_LIMIT, KW_MULTIPLEOF,
				    "too much work to decide");
		}
		if (r == 0)
			return FAIL(x, KW_MULTIPLEOF, "not a multiple");
	}
	/* 2147483648 against {"format": "int32"} */
	if ((n->flags & SF_NFORMAT) &&
	    !n->format->ncheck(v->u.num.text, v->u.num.len))
		return FAIL(x, KW_FORMAT, "not a valid %s", n->format->name);
	return SCHEMA_OK;
}

/* ----- strings -------------------------------------------------------- */

static enum schema_result check_content(
    struct vctx *x, const struct schema_node *n, const struct json_value *v);
static enum schema_result check_pattern(
    struct vctx *x, const struct schema_node *n, const struct json_value *v);

static enum schema_result
check_string(
    struct vctx *x, const struct schema_node *n, const struct json_value *v)
{
	if ((n->flags & SF_MINLENGTH) && v->u.str.cps < n->min_length)
		return FAIL(x, KW_MINLENGTH, "shorter than %zu characters",
		    n->min_length);
	if ((n->flags & SF_MAXLENGTH) && v->u.str.cps > n->max_length)
		return FAIL(x, KW_MAXLENGTH, "longer than %zu characters",
		    n->max_length);
	if ((n->flags & SF_PATTERN) && n->pattern != NULL) {
		enum schema_result r = check_pattern(x, n, v);

		if (r != SCHEMA_OK)
			return r;
	}
	/* "2024-02-30" against {"format": "date"} */
	if ((n->flags & SF_FORMAT) &&
	    !n->format->check(v->u.str.ptr, v->u.str.len))
		return FAIL(x, KW_FORMAT, "not a valid %s", n->format->name);
	if ((n->flags & SF_PATTERN) && n->content)
		return check_content(x, n, v);
	return SCHEMA_OK;
}

/* pattern, when SF_PATTERN is set: the part of check_string that a
 * content-only node skips. */
static enum schema_result
check_pattern(
    struct vctx *x, const struct schema_node *n, const struct json_value *v)
{
	switch (re_search_budget(
	    n->pattern, v->u.str.ptr, v->u.str.len, &x->re_budget)) {
	case RE_MATCH:
		return SCHEMA_OK;
	case RE_NOMATCH:
		return FAIL(x, KW_PATTERN, "does not match");
	case RE_BUDGET:
		return STOP(x, SCHEMA_LIMIT, KW_PATTERN,
		    "pattern time of the act spent");
	default:
		/* "aaaa...!" against {"pattern": "^(a+)+$"} */
		return STOP(
		    x, SCHEMA_LIMIT, KW_PATTERN, "pattern match limit reached");
	}
}

/* The value of a base64 (RFC 4648 section 4) or base64url (section 5)
 * digit, or -1. */
static int
b64_digit(unsigned char ch, bool url)
{
	if (ch >= 'A' && ch <= 'Z')
		return ch - 'A';
	if (ch >= 'a' && ch <= 'z')
		return ch - 'a' + 26;
	if (ch >= '0' && ch <= '9')
		return ch - '0' + 52;
	if (ch == (url ? '-' : '+'))
		return 62;
	if (ch == (url ? '_' : '/'))
		return 63;
	return -1;
}

/*
 * Decode s (len bytes) into out (room for len * 3 / 4 bytes): canonical
 * RFC 4648, padding required for base64 and optional for base64url, no
 * whitespace, zero pad bits (section 3.5).  The decoded length, or -1.
 */
static ssize_t
b64_decode(const char *s, size_t len, bool url, unsigned char *out)
{
	size_t i, o = 0, pad = 0, n;
	uint32_t acc = 0;

	while (pad < 2 && len > pad && s[len - 1 - pad] == '=')
		pad++;
	n = len - pad;
	/* "abc" (base64 without its padding), "a===" */
	if ((!url || pad > 0) && len % 4 != 0)
		return -1;
	if (n % 4 == 1)
		return -1;
	for (i = 0; i < n; i++) {
		int d = b64_digit((unsigned char)s[i], url);

		/* "%%%", "ab\ncd" */
		if (d < 0)
			return -1;
		acc = acc << 6 | (uint32_t)d;
		if (i % 4 == 3) {
			out[o++] = (unsigned char)(acc >> 16);
			out[o++] = (unsigned char)(acc >> 8);
			out[o++] = (unsigned char)acc;
			acc = 0;
		}
	}
	if (n % 4 == 2) {
		if (acc & 0xf)
			return -1;
		out[o++] = (unsigned char)(acc >> 4);
	} else if (n % 4 == 3) {
		if (acc & 0x3)
			return -1;
		out[o++] = (unsigned char)(acc >> 10);
		out[o++] = (unsigned char)(acc >> 2);
	}
	return (ssize_t)o;
}

/* contentEncoding, contentMediaType, contentSchema, enforced: the string
 * decodes, the result parses as strict JSON, the document validates. */
static enum schema_result
check_content(
    struct vctx *x, const struct schema_node *n, const struct json_value *v)
{
	struct arena_mark mark = arena_mark(x->scratch);
	const char *text = v->u.str.ptr;
	size_t len = v->u.str.len;
	enum schema_result r = SCHEMA_OK;

	if (n->enc != SCHEMA_ENC_NONE) {
		unsigned char *buf = arena_alloc(x->scratch, len / 4 * 3 + 3);
		ssize_t got;

		if (buf == NULL)
			return STOP(x, SCHEMA_NOMEM, KW_CONTENTENCODING,
			    "out of memory");
		got =
		    b64_decode(text, len, n->enc == SCHEMA_ENC_BASE64URL, buf);
		if (got < 0) {
			arena_rewind(x->scratch, mark);
			return FAIL(x, KW_CONTENTENCODING, "not %s",
			    n->enc == SCHEMA_ENC_BASE64URL ? "base64url"
			                                   : "base64");
		}
		text = (const char *)buf;
		len = (size_t)got;
	}
	if (n->content_json) {
		const struct json_value *doc;
		struct json_err jerr;

		x->steps += (uint32_t)(len / 4096); /* the parse, in budget */
		if (json_parse(text, len, x->scratch, 0, &doc, &jerr) !=
		    JSON_OK) {
			arena_rewind(x->scratch, mark);
			if (jerr.code == JSON_E_NOMEM)
				return STOP(x, SCHEMA_NOMEM,
				    KW_CONTENTMEDIATYPE, "out of memory");
			return FAIL(x, KW_CONTENTMEDIATYPE,
			    "not a JSON document (offset %zu: %s)", jerr.offset,
			    jerr.msg != NULL ? jerr.msg : "");
		}
		/* the document is validated where the string is */
		if (n->content_schema != NULL)
			r = apply(x, n->content_schema, doc, KW_CONTENTSCHEMA);
	}
	arena_rewind(x->scratch, mark);
	return r;
}

/* ----- arrays --------------------------------------------------------- */

static inline uint64_t
item_hash(const struct json_value *v)
{
#ifdef GPT_TEST
	if (schema_test_item_hash != NULL)
		return schema_test_item_hash(v);
#endif
	return json_hash(v);
}

/* An item's canonical encoding, for the sort. */
struct ukey {
	const unsigned char *p;
	size_t n;
};

static int
ukey_cmp(const struct ukey *a, const struct ukey *b)
{
	size_t n = a->n < b->n ? a->n : b->n;
	int c = memcmp(a->p, b->p, n);

	PROBED();
	if (c != 0)
		return c;
	return a->n < b->n ? -1 : a->n > b->n;
}

/* Orders positions in the keys at ctx, for sort_positions. */
static int
ukey_pos_cmp(const void *ctx, uint32_t a, uint32_t b)
{
	const struct ukey *key = ctx;

	return ukey_cmp(&key[a], &key[b]);
}

/*
 * uniqueItems by sorting: item positions ordered by canonical encoding
 * (sort_positions is stable, so equal items stay in document order),
 * then the first item equal to an earlier one is the smallest second
 * member of a run of equal encodings.
 */
static VALIDATE_NOINLINE enum schema_result
unique_sorted(struct vctx *x, const struct json_value *v)
{
	const struct json_value *it = v->u.arr.items;
	size_t count = v->u.arr.count, i;
	size_t best = SIZE_MAX, first = 0;
	struct arena_mark mark = arena_mark(x->scratch);
	struct ukey *key;
	uint32_t *order, *tmp;

	key = arena_calloc(x->scratch, count, sizeof(*key));
	order = arena_calloc(x->scratch, count, sizeof(*order));
	tmp = arena_calloc(x->scratch, count, sizeof(*tmp));
	if (key == NULL || order == NULL || tmp == NULL)
		goto nomem;
	for (i = 0; i < count; i++) {
		if (json_canon(&it[i], x->scratch, &key[i].p, &key[i].n) == -1)
			goto nomem;
		order[i] = (uint32_t)i;
	}
	sort_positions(order, tmp, count, ukey_pos_cmp, key);
	for (i = 1; i < count; i++) {
		if (ukey_cmp(&key[order[i - 1]], &key[order[i]]) != 0) {
			continue;
		}
		/* order[i - 1] starts its run when the one before differs */
		if ((i == 1 || ukey_cmp(&key[order[i - 2]],
		                   &key[order[i - 1]]) != 0) &&
		    order[i] < best) {
			best = order[i];
			first = order[i - 1];
		}
	}
	arena_rewind(x->scratch, mark);
	if (best != SIZE_MAX)
		return FAIL(x, KW_UNIQUEITEMS, "items %zu and %zu are equal",
		    first, best);
	return SCHEMA_OK;
nomem:
	arena_rewind(x->scratch, mark);
	return STOP(x, SCHEMA_NOMEM, KW_UNIQUEITEMS, "out of memory");
}

static VALIDATE_NOINLINE enum schema_result
check_unique(struct vctx *x, const struct json_value *v)
{
	const struct json_value *it = v->u.arr.items;
	size_t count = v->u.arr.count, i, j, size = 1;
	struct arena_mark mark;
	uint32_t *table;
	uint64_t *hash;

	if (count <= UNIQUE_PAIRWISE_MAX) {
		for (i = 1; i < count; i++)
			for (j = 0; j < i; j++)
				if (fast_equal(&it[i], &it[j]))
					return FAIL(x, KW_UNIQUEITEMS,
					    "items %zu and %zu are equal", j,
					    i);
		return SCHEMA_OK;
	}
	/* Hash buckets, JSON equality within a bucket: linear expected,
	 * at most UNIQUE_PROBE_MAX probes per item. */
	while (size < 2 * count)
		size *= 2;
	mark = arena_mark(x->scratch);
	table = arena_calloc(x->scratch, size, sizeof(*table));
	hash = arena_alloc(x->scratch, count * sizeof(*hash));
	if (table == NULL || hash == NULL || count >= UINT32_MAX) {
		arena_rewind(x->scratch, mark);
		return STOP(x, SCHEMA_NOMEM, KW_UNIQUEITEMS, "out of memory");
	}
	for (i = 0; i < count; i++) {
		size_t b;
		uint32_t k, probes = 0;

		hash[i] = item_hash(&it[i]);
		b = (size_t)hash[i] & (size - 1);
		while ((k = table[b]) != 0) {
			PROBED();
			if (hash[k - 1] == hash[i] &&
			    fast_equal(&it[k - 1], &it[i])) {
				arena_rewind(x->scratch, mark);
				return FAIL(x, KW_UNIQUEITEMS,
				    "items %u and %zu are equal",
				    (unsigned)(k - 1), i);
			}
			if (++probes >= UNIQUE_PROBE_MAX) {
				/* hits on items that all take one slot (a
				 * known key) */
				arena_rewind(x->scratch, mark);
				return unique_sorted(x, v);
			}
			b = (b + 1) & (size - 1);
		}
		PROBED();
		table[b] = (uint32_t)i + 1;
	}
	arena_rewind(x->scratch, mark);
	return SCHEMA_OK;
}

static VALIDATE_INLINE enum schema_result
check_array(struct vctx *x, const struct schema_node *n,
    const struct json_value *v, struct eval *ev)
{
	size_t count = v->u.arr.count, i;
	enum schema_result r;

	if ((n->flags & SF_MINITEMS) && count < n->min_items)
		return FAIL(
		    x, KW_MINITEMS, "fewer than %zu items", n->min_items);
	if ((n->flags & SF_MAXITEMS) && count > n->max_items)
		return FAIL(
		    x, KW_MAXITEMS, "more than %zu items", n->max_items);
	if (n->flags & SF_ITEMS) {
		/* 2020-12: prefixItems by position, then items for the rest */
		for (i = 0; i < count && i < n->nprefix; i++) {
			if ((r = apply_index(x, n->prefix[i],
			         &v->u.arr.items[i], i, n->prefix_kw)) !=
			    SCHEMA_OK)
				return r;
			if (ev != NULL)
				eval_mark(ev, i);
		}
		if (n->items != NULL)
			for (; i < count; i++)
				if ((r = apply_index(x, n->items,
				         &v->u.arr.items[i], i, n->items_kw)) !=
				    SCHEMA_OK)
					return r;
		if (ev != NULL && n->items_all && count > n->nprefix)
			ev->all = true;
	}
	if ((n->flags & SF_CONTAINS) &&
	    (n->min_contains > 0 || n->max_contains != SIZE_MAX ||
	        (ev != NULL && n->contains_marks))) {
		size_t found = 0;

		x->quiet++;
		for (i = 0; i < count; i++) {
			r = apply_index(
			    x, n->contains, &v->u.arr.items[i], i, KW_CONTAINS);
			if (r > SCHEMA_INVALID) {
				x->quiet--;
				return r;
			}
			if (r == SCHEMA_OK && ev != NULL && n->contains_marks)
				eval_mark(ev, i);
			/* every match is an annotation when collecting */
			if (ev != NULL && n->contains_marks)
				found += r == SCHEMA_OK;
			else if (r == SCHEMA_OK && ++found >= n->min_contains &&
			         n->max_contains == SIZE_MAX)
				break;
			else if (found > n->max_contains)
				break;
		}
		x->quiet--;
		if (found < n->min_contains)
			return FAIL(x,
			    n->min_contains == 1 ? KW_CONTAINS : KW_MINCONTAINS,
			    "fewer than %zu items match contains",
			    n->min_contains);
		if (found > n->max_contains)
			return FAIL(x, KW_MAXCONTAINS,
			    "more than %zu items match contains",
			    n->max_contains);
	}
	if (n->flags & SF_UNIQUE)
		return check_unique(x, v);
	return SCHEMA_OK;
}

/* ----- objects -------------------------------------------------------- */

/* The entry of slots named as member m, or UINT32_MAX, when no two
 * names have the same length modulo SCHEMA_PH_LENS (by_len, the table
 * of schema_ph): the one slot of the member's length, if any, and one
 * comparison of the name's two words, as the parser keeps them (with
 * its length, the whole of a name up to 16 bytes, compared without
 * reading the name's bytes or the schema's).  No guess to miss when the
 * members come in another order than the form's. */
static VALIDATE_INLINE uint32_t
by_len_find(const struct schema_slot *slots, const uint8_t *by_len,
    const struct json_member *m)
{
	uint32_t k = by_len[m->key.len % SCHEMA_PH_LENS];

	if (k == 0 || !schema_slot_is(&slots[k - 1], m->key.ptr, m->key.len,
	                  m->key_wa, m->key_wb))
		return UINT32_MAX;
	return k - 1;
}

/*
 * A plain member walk of n (no propertyNames, patternProperties or
 * dependentRequired; n's names by length, or none) over the members m to
 * end, as far as it needs to apply no subschema: each member is one whose
 * value its subschema's shortcuts accept, or one the form does not name
 * (with no additionalProperties, or one whose shortcuts accept the
 * value).  Most objects are settled so.  The loop makes no call, so the
 * compiler keeps all it reads in registers.
 */
static VALIDATE_INLINE struct settled
members_settle(const struct schema_node *n, const struct json_member *m,
    const struct json_member *end)
{
	const uint8_t *by_len = n->slot_ph.by_len;
	const struct schema_slot *slots = n->slots;
	const struct schema_node *additional = n->additional;
	struct settled st = {m, NULL, UINT32_MAX, 0};

	for (; st.m < end; st.m++) {
		st.k = by_len != NULL ? by_len_find(slots, by_len, st.m)
		                      : UINT32_MAX;
		st.sub = st.k != UINT32_MAX && slots[st.k].sub != NULL
		             ? slots[st.k].sub
		             : additional;
		if (st.sub != NULL && !accepted(st.sub, &st.m->value))
			break;
		if (st.k != UINT32_MAX)
			st.nreq += slots[st.k].required;
	}
	return st;
}

/* The entry of slots named key, or UINT32_MAX, by the hashed table and
 * the length and first-byte bits of a schema_names (or of a node's own
 * slots).  guess is tried first: instances usually list members in the
 * order the form names them. */
static VALIDATE_INLINE uint32_t
names_find(const struct schema_slot *slots, uint32_t nslots,
    const uint32_t *table, uint32_t mask, uint64_t lens, uint64_t firsts,
    const struct schema_ph *ph, const struct json_member *m, uint32_t guess)
{
	/* the name's two words, as by_len_find compares them */
	const struct json_string *key = &m->key;
	const uint64_t a = m->key_wa, b = m->key_wb;
	uint64_t h;
	uint32_t i, k;

	if (ph->by_len != NULL)
		return by_len_find(slots, ph->by_len, m);
	/* A length no slot has settles a member without reading its name:
	 * the instance's text is the memory a validation misses in, and a
	 * loose form's instances carry many members it does not name. */
	if (!((lens >> (key->len % 64)) & 1))
		return UINT32_MAX;
	if (guess < nslots &&
	    schema_slot_is(&slots[guess], key->ptr, key->len, a, b))
		return guess;
	/* A member another allOf branch names is usually no slot here:
	 * most such names differ in first byte from every slot, which a bit
	 * test tells before a keyed hash of the name. */
	if (!((firsts >> (key->len > 0 ? (unsigned char)key->ptr[0] % 64 : 0)) &
	        1))
		return UINT32_MAX;
	/* the names' perfect hash: one entry, one comparison */
	if (ph->tab != NULL) {
		k = ph->tab[schema_ph_slot(ph, a, b, key->len)];
		if (k != 0 &&
		    schema_slot_is(&slots[k - 1], key->ptr, key->len, a, b))
			return k - 1;
		return UINT32_MAX;
	}
	/* an optional member left out: the one after the guess */
	if (guess + 1 < nslots &&
	    schema_slot_is(&slots[guess + 1], key->ptr, key->len, a, b))
		return guess + 1;
	NAME_HASHED();
	h = hash_bytes(key->ptr, key->len);
	i = (uint32_t)h & mask;
	while ((k = table[i]) != 0) {
		const struct schema_slot *s = &slots[k - 1];

		if (s->hash == h && s->len == key->len &&
		    schema_key_eq(s->name, key->ptr, key->len))
			return k - 1;
		i = (i + 1) & mask;
	}
	return UINT32_MAX;
}

/* The slot of n named as member m, or UINT32_MAX. */
static VALIDATE_INLINE uint32_t
slot_find(
    const struct schema_node *n, const struct json_member *m, uint32_t guess)
{
	return names_find(n->slots, n->nslots, n->table, n->table_mask,
	    n->slot_lens, n->slot_firsts, &n->slot_ph, m, guess);
}

#define SEEN(seen, k) (((seen)[(k) / 64] >> ((k) % 64)) & 1u)

/* The first name of n's required that v lacks (n->nrequired > 0 and
 * fewer of them seen), found by looking each up in v: the walk counts
 * the required names it meets and keeps no bitmap unless
 * dependentRequired needs one, so only a failure pays for the search. */
static VALIDATE_NOINLINE const struct schema_slot *
first_missing(const struct schema_node *n, const struct json_value *v,
    const uint64_t *seen)
{
	uint32_t p;

	for (p = 0; p < n->nrequired; p++) {
		const struct schema_slot *s = &n->slots[n->required[p]];

		if (seen != NULL ? !SEEN(seen, n->required[p])
		                 : json_object_get(v, s->name, s->len) == NULL)
			return s;
	}
	return NULL;
}

/* seen: NULL, or (dependentRequired) a bitmap of the slots met.  plain
 * (a constant at each call site): no SF_MEMBERS_FULL, and seen and ev
 * are NULL, so the compiler drops what such a walk never does. */
static VALIDATE_INLINE enum schema_result
check_members(struct vctx *x, const struct schema_node *n,
    const struct json_value *v, uint64_t *seen, struct eval *ev, bool plain)
{
	/* read once: the calls below may not change the node, but the
	 * compiler cannot know it */
	const struct schema_node *names = plain ? NULL : n->names,
	                         *additional = n->additional;
	const struct schema_slot *slots = n->slots;
	const uint32_t nslots = n->nslots, npprops = plain ? 0 : n->npprops,
	               ndepreq = plain ? 0 : n->ndepreq;
	const struct json_member *m = v->u.obj.members,
	                         *end = m + v->u.obj.count;
	uint32_t p, guess = 0, nreq = 0;
	enum schema_result r;

	if (plain && (n->slot_ph.by_len != NULL || nslots == 0)) {
		/* The members the shortcuts settle, and the subschema of the
		 * first they do not, applied here; the loop below goes on
		 * from the next. */
		struct settled st = members_settle(n, m, end);

		nreq = st.nreq;
		m = st.m;
		if (m < end) {
			bool named =
			    st.k != UINT32_MAX && slots[st.k].sub != NULL;

			if ((r = apply_key(x, st.sub, &m->value, m->key.ptr,
			         m->key.len,
			         named ? KW_PROPERTIES
			               : KW_ADDITIONALPROPERTIES)) != SCHEMA_OK)
				return r;
			if (st.k != UINT32_MAX) {
				nreq += slots[st.k].required;
				guess = st.k + 1;
			}
			m++;
		}
	}
	for (; m < end; m++) {
		bool matched = false;

		if (names != NULL) {
			struct json_value name;

			name.type = JSON_T_STRING;
			name.u.str = m->key;
			if ((r = apply_key(x, names, &name, m->key.ptr,
			         m->key.len, KW_PROPERTYNAMES)) != SCHEMA_OK)
				return r;
		}
		if (nslots > 0) {
			uint32_t k = slot_find(n, m, guess);

			if (k != UINT32_MAX) {
				guess = k + 1;
				if (seen != NULL)
					seen[k / 64] |= (uint64_t)1 << (k % 64);
				nreq += slots[k].required;
				if (slots[k].sub != NULL) {
					matched = true;
					if ((r = apply_key(x, slots[k].sub,
					         &m->value, m->key.ptr,
					         m->key.len, KW_PROPERTIES)) !=
					    SCHEMA_OK)
						return r;
				}
			}
		}
		for (p = 0; p < npprops; p++) {
			x->steps++;
			switch (re_search_budget(n->pprops[p].re, m->key.ptr,
			    m->key.len, &x->re_budget)) {
			case RE_MATCH:
				matched = true;
				if ((r = apply_key(x, n->pprops[p].sub,
				         &m->value, m->key.ptr, m->key.len,
				         KW_PATTERNPROPERTIES)) != SCHEMA_OK)
					return r;
				break;
			case RE_NOMATCH:
				break;
			case RE_BUDGET:
				return STOP(x, SCHEMA_LIMIT,
				    KW_PATTERNPROPERTIES,
				    "pattern time of the act spent");
			default:
				return STOP(x, SCHEMA_LIMIT,
				    KW_PATTERNPROPERTIES,
				    "pattern match limit reached");
			}
		}
		/* 2020-12: only members neither properties nor
		 * patternProperties named */
		if (!matched && additional != NULL &&
		    (r = apply_key(x, additional, &m->value, m->key.ptr,
		         m->key.len, KW_ADDITIONALPROPERTIES)) != SCHEMA_OK)
			return r;
		if (ev != NULL && (matched || n->additional_all))
			eval_mark(ev, (size_t)(m - v->u.obj.members));
	}
	/* Each required name counted once as seen (no duplicate members in
	 * a strictly parsed object): all present unless the count is short. */
	if (nreq < n->nrequired) {
		const struct schema_slot *s;
		char name[SCHEMA_CLIP_MAX + 1];

		if (x->quiet > 0)
			return SCHEMA_INVALID;
		if ((s = first_missing(n, v, seen)) != NULL) {
			schema_clip(name, s->name, s->len);
			return FAIL(x, KW_REQUIRED, "missing \"%s\"", name);
		}
	}
	for (p = 0; p < ndepreq; p++) {
		const struct schema_depreq *d = &n->depreq[p];
		uint32_t j;

		if (!SEEN(seen, d->trigger))
			continue;
		for (j = 0; j < d->count; j++)
			if (!SEEN(seen, d->need[j])) {
				const struct schema_slot *s =
				    &n->slots[d->need[j]];
				char name[SCHEMA_CLIP_MAX + 1];

				if (x->quiet > 0)
					return SCHEMA_INVALID;
				schema_clip(name, s->name, s->len);
				return FAIL(x, KW_DEPENDENTREQUIRED,
				    "missing \"%s\"", name);
			}
	}
	return SCHEMA_OK;
}

static enum schema_result check_depsch(struct vctx *x,
    const struct schema_node *n, const struct json_value *v, struct eval *ev);

static VALIDATE_INLINE enum schema_result
check_object(struct vctx *x, const struct schema_node *n,
    const struct json_value *v, struct eval *ev)
{
	uint64_t local[SEEN_LOCAL_WORDS], *seen = NULL;
	size_t words;
	struct arena_mark mark;
	enum schema_result r;

	if ((n->flags & SF_MINPROPS) && v->u.obj.count < n->min_props)
		return FAIL(x, KW_MINPROPERTIES, "fewer than %zu members",
		    n->min_props);
	if ((n->flags & SF_MAXPROPS) && v->u.obj.count > n->max_props)
		return FAIL(
		    x, KW_MAXPROPERTIES, "more than %zu members", n->max_props);
	if (n->flags & SF_DEPSCH) {
		if ((r = check_depsch(x, n, v, ev)) != SCHEMA_OK)
			return r;
	}
	if (!(n->flags & (SF_MEMBERS | SF_REQUIRED | SF_DEPREQ)))
		return SCHEMA_OK;
	/* one call site, so check_members is inlined once; only
	 * dependentRequired reads a bitmap of the slots met */
	if (n->ndepreq > 0) {
		words = ((size_t)n->nslots + 63) / 64;
		seen = local;
		if (words <= SEEN_LOCAL_WORDS)
			memset(local, 0, sizeof(local));
		else if ((mark = arena_mark(x->scratch),
		             seen = arena_calloc(
		                 x->scratch, words, sizeof(*seen))) == NULL)
			return STOP(
			    x, SCHEMA_NOMEM, KW_PROPERTIES, "out of memory");
	}
	r = check_members(x, n, v, seen, ev, false);
	if (seen != NULL && seen != local)
		arena_rewind(x->scratch, mark);
	return r;
}

/* ----- in place ------------------------------------------------------- */

/* false when sub's `type` rules v out: an anyOf/oneOf branch then fails
 * without being applied (a tagged union such as [string, {object}]). */
static inline bool
type_admits(const struct schema_node *sub, const struct json_value *v)
{
	return (sub->admits >> v->type) & 1u;
}

/* Is branch i known to fail v by its gate (schema_int.h)?  Only an
 * object is judged: a gate says nothing of other values. */
static VALIDATE_INLINE bool
gate_shut(struct vctx *x, const struct schema_gate *const *gates, size_t i,
    const struct json_value *v)
{
	const struct schema_gate *g;
	const struct json_value *m;
	size_t k;

	if (gates == NULL || (g = gates[i]) == NULL || v->type != JSON_T_OBJECT)
		return false;
	x->steps++;
	if ((m = json_object_get(v, g->name, g->len)) == NULL)
		return true;
	/* bounded by SCHEMA_FACTS_VALS_MAX */
	for (k = 0; k < g->nvals; k++)
		if (fast_equal(g->vals[k], m))
			return false;
	return true;
}

static VALIDATE_INLINE enum schema_result
check_any_of(
    struct vctx *x, const struct schema_node *n, const struct json_value *v)
{
	enum schema_result r = SCHEMA_INVALID;
	size_t i;

	x->quiet++;
	for (i = 0; i < n->nany_of; i++) {
		if (!type_admits(n->any_of[i], v) ||
		    gate_shut(x, n->any_gates, i, v))
			continue;
		r = apply(x, n->any_of[i], v, KW_ANYOF);
		if (r != SCHEMA_INVALID)
			break;
	}
	x->quiet--;
	if (r == SCHEMA_INVALID)
		return FAIL(x, KW_ANYOF, "matches none of anyOf");
	return r;
}

/* Where a dynamic reference leads in the current dynamic scope
 * (2020-12 section 8.2.3.2; 2019-09 section 8.2.4.2.2): the outermost
 * resource with a $dynamicAnchor of that name, the outermost recursive
 * root, or the static target. */
static const struct schema_node *
dyn_target(struct vctx *x, const struct schema_node *n)
{
	unsigned i;

	/* the work counts against SCHEMA_MAX_STEPS: a resource of the scope
	 * each, and the slots each index looked at */
	x->steps += x->nscope;
	if (n->dyn == SCHEMA_DYN_ANCHOR) {
		const struct schema_dynanchor *an = NULL;
		uint64_t probes = 0;

		for (i = 0; i < x->nscope && an == NULL; i++)
			an = anchor_index_get(&x->scope[i]->by_name,
			    n->dyn_name, n->dyn_len, n->dyn_hash, &probes);
		/* saturated: the next application stops at the budget */
		x->steps = probes > SCHEMA_MAX_STEPS
		               ? SCHEMA_MAX_STEPS
		               : x->steps + (uint32_t)probes;
		if (an != NULL)
			return an->node;
	} else if (n->dyn == SCHEMA_DYN_RECURSIVE) {
		for (i = 0; i < x->nscope; i++)
			if (x->scope[i]->recursive && x->scope[i]->root != NULL)
				return x->scope[i]->root;
	}
	return n->dref;
}

/* $ref, then $dynamicRef / $recursiveRef; ev as in check_collect. */
static enum schema_result
check_refs_ev(struct vctx *x, const struct schema_node *n,
    const struct json_value *v, struct eval *ev)
{
	enum schema_result r;

	if (n->ref != NULL) {
		x->ev = ev;
		r = apply(x, n->ref, v, KW_REF);
		x->ev = NULL;
		if (r != SCHEMA_OK)
			return r;
	}
	if (n->dyn != SCHEMA_DYN_NONE) {
		const struct schema_node *t = dyn_target(x, n);

		/* v1: {"$dynamicRef": "#items"} with no such anchor in the
		 * dynamic scope */
		if (t == NULL)
			return FAIL(x, KW_DYNAMICREF,
			    "no $dynamicAnchor of that name in scope");
		x->ev = ev;
		r = apply(x, t, v,
		    n->dyn == SCHEMA_DYN_RECURSIVE ? KW_RECURSIVEREF
		                                   : KW_DYNAMICREF);
		x->ev = NULL;
		if (r != SCHEMA_OK)
			return r;
	}
	return SCHEMA_OK;
}

static enum schema_result
check_refs(
    struct vctx *x, const struct schema_node *n, const struct json_value *v)
{
	if (n->dyn == SCHEMA_DYN_NONE)
		return apply(x, n->ref, v, KW_REF);
	return check_refs_ev(x, n, v, NULL);
}

static enum schema_result apply_branch(struct vctx *x,
    const struct schema_node *sub, const struct json_value *v, enum kw kw,
    struct eval *ev);

/* not: the subschema must fail; its annotations are dropped, so both
 * walks apply it plainly (quiet: its failure is no report). */
static enum schema_result
check_not(
    struct vctx *x, const struct schema_node *n, const struct json_value *v)
{
	enum schema_result r;

	x->quiet++;
	r = apply(x, n->not_, v, KW_NOT);
	x->quiet--;
	if (r > SCHEMA_INVALID)
		return r;
	if (r == SCHEMA_OK)
		return FAIL(x, KW_NOT, "matches the schema under not");
	return SCHEMA_OK;
}

/* oneOf: exactly one branch passes; stops at the second.  ev as in
 * apply_branch (NULL: nothing recorded). */
static enum schema_result
check_one_of(struct vctx *x, const struct schema_node *n,
    const struct json_value *v, struct eval *ev)
{
	enum schema_result r;
	size_t i, ok, enough = n->one_of_disjoint ? 1 : 2;

	x->quiet++;
	for (i = 0, ok = 0; i < n->none_of && ok < enough; i++) {
		if (!type_admits(n->one_of[i], v) ||
		    gate_shut(x, n->one_gates, i, v))
			continue;
		r = apply_branch(x, n->one_of[i], v, KW_ONEOF, ev);
		if (r > SCHEMA_INVALID) {
			x->quiet--;
			return r;
		}
		ok += r == SCHEMA_OK;
	}
	x->quiet--;
	if (ok != 1)
		/* hits on {"oneOf": [{}, {}]} (both pass) */
		return FAIL(x, KW_ONEOF,
		    ok == 0 ? "matches none of oneOf"
		            : "matches more than one of oneOf");
	return SCHEMA_OK;
}

static enum schema_result
check_inplace(
    struct vctx *x, const struct schema_node *n, const struct json_value *v)
{
	enum schema_result r;
	size_t i;

	if ((n->flags & SF_REF) && (r = check_refs(x, n, v)) != SCHEMA_OK)
		return r;
	if (n->flags & SF_ALLOF)
		for (i = 0; i < n->nall_of; i++)
			if ((r = apply(x, n->all_of[i], v, KW_ALLOF)) !=
			    SCHEMA_OK)
				return r;
	if ((n->flags & SF_ANYOF) && (r = check_any_of(x, n, v)) != SCHEMA_OK)
		return r;
	if ((n->flags & SF_ONEOF) &&
	    (r = check_one_of(x, n, v, NULL)) != SCHEMA_OK)
		return r;
	if ((n->flags & SF_NOT) && (r = check_not(x, n, v)) != SCHEMA_OK)
		return r;
	if (n->flags & SF_IF) {
		x->quiet++;
		r = apply(x, n->if_, v, KW_IF);
		x->quiet--;
		if (r > SCHEMA_INVALID)
			return r;
		if (r == SCHEMA_OK && n->then_ != NULL)
			return apply(x, n->then_, v, KW_THEN);
		if (r == SCHEMA_INVALID && n->else_ != NULL)
			return apply(x, n->else_, v, KW_ELSE);
	}
	return SCHEMA_OK;
}

/* ----- one node ------------------------------------------------------- */

/* A string in n's enum table (n->enum_table not NULL): probes stop at
 * the longest the compiler saw, so a miss costs no more than a hit. */
static VALIDATE_INLINE bool
enum_table_has(const struct schema_node *n, const struct json_string *str)
{
	uint64_t h;
	uint32_t b, k, probes = 0;

	h = hash_bytes(str->ptr, str->len);
	b = (uint32_t)h & n->enum_mask;
	while ((k = n->enum_table[b]) != 0 && probes++ < n->enum_maxprobe) {
		const struct schema_enum *e = &n->enums[k - 1];

		PROBED();
		if (e->hash == h && e->len == str->len &&
		    schema_key_eq(e->str, str->ptr, str->len))
			return true;
		b = (b + 1) & n->enum_mask;
	}
	return false;
}

/* Enums up to this long are scanned for a string: comparing lengths is
 * cheaper than the keyed hash of the string the table needs. */
#define ENUM_SCAN_MAX 8

/* A string in n's enum. */
static VALIDATE_INLINE bool
enum_string_has(const struct schema_node *n, const struct json_string *str)
{
	size_t i;

	if (n->enum_table != NULL && n->nenums > ENUM_SCAN_MAX)
		return enum_table_has(n, str);
	/* a value of another type has len SIZE_MAX: never equal */
	for (i = 0; i < n->nenums; i++) {
		const struct schema_enum *e = &n->enums[i];

		PROBED();
		if (e->len == str->len &&
		    schema_key_eq(e->str, str->ptr, str->len))
			return true;
	}
	return false;
}

static bool
enum_has(const struct schema_node *n, const struct json_value *v)
{
	uint64_t h;
	uint32_t b, k, probes = 0;
	size_t i;

	if (n->enum_table == NULL) {
		for (i = 0; i < n->nenums; i++) {
			PROBED();
			if (fast_equal(n->enums[i].value, v))
				return true;
		}
		return false;
	}
	if (v->type == JSON_T_STRING)
		return enum_string_has(n, &v->u.str);
	/* {"enum": [1, 2, ..., 20000]} holding 19999: one probe */
	h = json_hash(v);
	b = (uint32_t)h & n->enum_mask;
	while ((k = n->enum_table[b]) != 0 && probes++ < n->enum_maxprobe) {
		PROBED();
		if (n->enums[k - 1].hash == h &&
		    fast_equal(n->enums[k - 1].value, v))
			return true;
		b = (b + 1) & n->enum_mask;
	}
	return false;
}

static VALIDATE_INLINE enum schema_result
check(struct vctx *x, const struct schema_node *n, const struct json_value *v,
    uint64_t flags)
{
	struct lazy_dec ld;
	enum schema_result r;

	/* {"anyOf": [{"$ref": "#/$defs/text"}, {"$ref": "#/$defs/span"}]}:
	 * nothing else to test (the order below is unchanged) */
	if (flags == SF_ANYOF)
		return check_any_of(x, n, v);
	/* dynamic scope, annotations: only forms that use them */
	if (flags & SF_SPECIAL)
		return check_special(x, n, v, flags);
	ld.done = false; /* not `= {0}`: this runs for every value */
	ld.shortened = -1;
	/* set only when `type` does not list v's type */
	if (flags & SF_TYPE) {
		bool range = true;

		if (!(v->type == JSON_T_NUMBER &&
		        (n->types & SCHEMA_TY_INTEGER) &&
		        (n->integer_text ? is_integer_text(v)
		                         : is_integer(v, &ld, &range)))) {
			/* 1e99999999999999 against {"type": "integer"} */
			if (!range)
				return STOP(x, SCHEMA_LIMIT, KW_TYPE,
				    "number out of range");
			return type_fail(x, n->types, v);
		}
	}
	if ((flags & SF_ENUM) && !enum_has(n, v))
		return FAIL(x, KW_ENUM, "not one of the enum values");
	if ((flags & SF_CONST) && !fast_equal(n->const_value, v))
		return FAIL(x, KW_CONST, "not the const value");
	/* need[] holds the keywords of v's own type only: at most one of
	 * these masks is set, and no switch on the type is needed */
	if (flags & SF_OBJECT_MASK) {
		if ((r = check_object(x, n, v, NULL)) != SCHEMA_OK)
			return r;
	} else if (flags & SF_ARRAY_MASK) {
		if ((r = check_array(x, n, v, NULL)) != SCHEMA_OK)
			return r;
	} else if (flags & SF_STRING_MASK) {
		if ((r = check_string(x, n, v)) != SCHEMA_OK)
			return r;
	} else if (flags & SF_NUMBER_MASK) {
		if ((r = check_number(x, n, v, &ld)) != SCHEMA_OK)
			return r;
	}
	if (flags & SF_INPLACE_MASK)
		return check_inplace(x, n, v);
	return SCHEMA_OK;
}

/* ----- annotations and the dynamic scope ----------------------------- */

/* A fresh record for v's members or items.  0, or -1 (no memory). */
static int
eval_init(struct vctx *x, struct eval *ev, const struct json_value *v)
{
	size_t count =
	    v->type == JSON_T_OBJECT ? v->u.obj.count : v->u.arr.count;

	ev->all = false;
	ev->bits = NULL;
	if (count > 0 && (ev->bits = arena_calloc(x->scratch, (count + 63) / 64,
	                      sizeof(*ev->bits))) == NULL)
		return -1;
	return 0;
}

static void
eval_merge(struct eval *to, const struct eval *from, const struct json_value *v)
{
	size_t count =
	           v->type == JSON_T_OBJECT ? v->u.obj.count : v->u.arr.count,
	       i;

	if (to->all)
		return;
	if (from->all) {
		to->all = true;
		return;
	}
	for (i = 0; i < (count + 63) / 64; i++)
		to->bits[i] |= from->bits[i];
}

static bool
eval_has(const struct eval *ev, size_t i)
{
	return ev->all || ((ev->bits[i / 64] >> (i % 64)) & 1u);
}

/* dependentSchemas: each schema whose member is present applies to the
 * object in place. */
static enum schema_result
check_depsch(struct vctx *x, const struct schema_node *n,
    const struct json_value *v, struct eval *ev)
{
	enum schema_result r;
	uint32_t k;
	size_t i;

	for (k = 0; k < n->ndepsch; k++) {
		const struct schema_depsch *d = &n->depsch[k];

		for (i = 0; i < v->u.obj.count; i++)
			if (v->u.obj.members[i].key.len == d->len &&
			    memcmp(v->u.obj.members[i].key.ptr, d->name,
			        d->len) == 0)
				break;
		x->steps += (uint32_t)(i / 64); /* the search, in budget */
		if (i == v->u.obj.count)
			continue;
		x->ev = ev;
		r = apply(x, d->sub, v, KW_DEPENDENTSCHEMAS);
		x->ev = NULL;
		if (r != SCHEMA_OK)
			return r;
	}
	return SCHEMA_OK;
}

/* One branch of anyOf / oneOf / if, applied with its own record (merged
 * into ev when it passes: a failed branch's annotations are dropped). */
static enum schema_result
apply_branch(struct vctx *x, const struct schema_node *sub,
    const struct json_value *v, enum kw kw, struct eval *ev)
{
	struct arena_mark mark = arena_mark(x->scratch);
	struct eval t;
	enum schema_result r;

	if (ev == NULL)
		return apply(x, sub, v, kw);
	if (eval_init(x, &t, v) == -1)
		return STOP(x, SCHEMA_NOMEM, kw, "out of memory");
	x->ev = &t;
	r = apply(x, sub, v, kw);
	x->ev = NULL;
	if (r == SCHEMA_OK)
		eval_merge(ev, &t, v);
	arena_rewind(x->scratch, mark);
	return r;
}

/* check_inplace, recording into ev what the in-place subschemas
 * evaluated: every branch of anyOf and oneOf is tried (not only up to the
 * first match), if counts when it passes, not never does. */
static enum schema_result
check_inplace_ev(struct vctx *x, const struct schema_node *n,
    const struct json_value *v, struct eval *ev)
{
	enum schema_result r;
	size_t i, ok;

	if ((n->flags & SF_REF) &&
	    (r = check_refs_ev(x, n, v, ev)) != SCHEMA_OK)
		return r;
	if (n->flags & SF_ALLOF)
		for (i = 0; i < n->nall_of; i++) {
			x->ev = ev;
			r = apply(x, n->all_of[i], v, KW_ALLOF);
			x->ev = NULL;
			if (r != SCHEMA_OK)
				return r;
		}
	if (n->flags & SF_ANYOF) {
		x->quiet++;
		for (i = 0, ok = 0; i < n->nany_of; i++) {
			if (!type_admits(n->any_of[i], v) ||
			    gate_shut(x, n->any_gates, i, v))
				continue;
			r = apply_branch(x, n->any_of[i], v, KW_ANYOF, ev);
			if (r > SCHEMA_INVALID) {
				x->quiet--;
				return r;
			}
			ok += r == SCHEMA_OK;
		}
		x->quiet--;
		if (ok == 0)
			return FAIL(x, KW_ANYOF, "matches none of anyOf");
	}
	if ((n->flags & SF_ONEOF) &&
	    (r = check_one_of(x, n, v, ev)) != SCHEMA_OK)
		return r;
	if ((n->flags & SF_NOT) && (r = check_not(x, n, v)) != SCHEMA_OK)
		return r;
	if (n->if_ != NULL) {
		x->quiet++;
		r = apply_branch(x, n->if_, v, KW_IF, ev);
		x->quiet--;
		if (r > SCHEMA_INVALID)
			return r;
		if (r == SCHEMA_OK && n->then_ != NULL) {
			x->ev = ev;
			r = apply(x, n->then_, v, KW_THEN);
			x->ev = NULL;
			return r;
		}
		if (r == SCHEMA_INVALID && n->else_ != NULL) {
			x->ev = ev;
			r = apply(x, n->else_, v, KW_ELSE);
			x->ev = NULL;
			return r;
		}
	}
	return SCHEMA_OK;
}

/* unevaluatedProperties / unevaluatedItems: the members or items no
 * other keyword of this node (in place, through its subschemas)
 * evaluated. */
static enum schema_result
check_uneval(struct vctx *x, const struct schema_node *n,
    const struct json_value *v, const struct eval *ev)
{
	enum schema_result r;
	size_t i;

	if (v->type == JSON_T_OBJECT && n->uneval_props != NULL)
		for (i = 0; i < v->u.obj.count && !ev->all; i++) {
			const struct json_member *m = &v->u.obj.members[i];

			if (!eval_has(ev, i) &&
			    (r = apply_key(x, n->uneval_props, &m->value,
			         m->key.ptr, m->key.len, KW_UNEVALPROPS)) !=
			        SCHEMA_OK)
				return r;
		}
	if (v->type == JSON_T_ARRAY && n->uneval_items != NULL)
		for (i = 0; i < v->u.arr.count && !ev->all; i++)
			if (!eval_has(ev, i) &&
			    (r = apply_index(x, n->uneval_items,
			         &v->u.arr.items[i], i, KW_UNEVALITEMS)) !=
			        SCHEMA_OK)
				return r;
	return SCHEMA_OK;
}

/* unevaluatedProperties decided at load (uneval_static): after the
 * node's other keywords passed, the members none of the names evaluated
 * (the same members, in the same order, as check_uneval finds). */
static enum schema_result
check_uneval_static(
    struct vctx *x, const struct schema_node *n, const struct json_value *v)
{
	const struct schema_names *u = &n->uneval_names;
	enum schema_result r;
	uint32_t guess = 0, k;
	size_t i;

	if (n->uneval_all)
		return SCHEMA_OK;
	for (i = 0; i < v->u.obj.count; i++) {
		const struct json_member *m = &v->u.obj.members[i];

		k = names_find(u->slots, u->n, u->table, u->mask, u->lens,
		    u->firsts, &u->ph, m, guess);
		if (k != UINT32_MAX) {
			guess = k + 1;
			continue;
		}
		/* {"id": "x", "extra": 1} against an OpenAPI component
		 * closed by unevaluatedProperties: false */
		if ((r = apply_key(x, n->uneval_props, &m->value, m->key.ptr,
		         m->key.len, KW_UNEVALPROPS)) != SCHEMA_OK)
			return r;
	}
	return SCHEMA_OK;
}

/* A node an unevaluated* keyword depends on (collect), against an
 * object or array: the same keywords as check(), recording what they
 * evaluate into the caller's record (x->ev) or, when the node has its
 * own unevaluated* keyword, into one of its own first. */
static enum schema_result
check_collect(struct vctx *x, const struct schema_node *n,
    const struct json_value *v, uint64_t flags)
{
	struct eval *in = x->ev, local, *ev = in;
	struct arena_mark mark = arena_mark(x->scratch);
	enum schema_result r;
	bool own = (v->type == JSON_T_OBJECT ? n->uneval_props
	                                     : n->uneval_items) != NULL;

	COLLECTED();
	x->ev = NULL;
	if (own) {
		if (eval_init(x, &local, v) == -1)
			return STOP(
			    x, SCHEMA_NOMEM, KW_UNEVALPROPS, "out of memory");
		ev = &local;
	}
	r = check(x, n, v, flags & (SF_TYPE | SF_ENUM | SF_CONST | SF_FALSE));
	if (r == SCHEMA_OK && (flags & SF_OBJECT_MASK))
		r = check_object(x, n, v, ev);
	if (r == SCHEMA_OK && (flags & SF_ARRAY_MASK))
		r = check_array(x, n, v, ev);
	if (r == SCHEMA_OK)
		r = check_inplace_ev(x, n, v, ev);
	if (r == SCHEMA_OK && own)
		r = check_uneval(x, n, v, ev);
	/* unevaluated* evaluated whatever was left */
	if (r == SCHEMA_OK && in != NULL && ev == &local)
		in->all = true;
	arena_rewind(x->scratch, mark);
	return r;
}

/* The dynamic scope (scoped: entering n's resource) and annotations
 * (collect), around the usual check: SF_SPECIAL. */
static VALIDATE_NOINLINE enum schema_result
check_special(struct vctx *x, const struct schema_node *n,
    const struct json_value *v, uint64_t flags)
{
	enum schema_result r;
	bool pushed = false;

	/* at most one push per application level: nscope <= depth */
	if (n->scoped && n->res != NULL &&
	    (x->nscope == 0 || x->scope[x->nscope - 1] != n->res) &&
	    x->nscope <= SCHEMA_MAX_DEPTH) {
		x->scope[x->nscope++] = n->res;
		pushed = true;
	}
	flags &= ~SF_SPECIAL;
	if (n->collect &&
	    (v->type == JSON_T_OBJECT || v->type == JSON_T_ARRAY)) {
		r = check_collect(x, n, v, flags);
	} else {
		r = check(x, n, v, flags);
		if (r == SCHEMA_OK && n->uneval_static &&
		    v->type == JSON_T_OBJECT)
			r = check_uneval_static(x, n, v);
	}
	if (pushed)
		x->nscope--;
	return r;
}

enum schema_result
schema_validate(const struct schema *s, const struct json_value *instance,
    struct arena *scratch, struct schema_err *err)
{
	return schema_view_validate(
	    s, s->entry != NULL ? s->entry : s->root, instance, scratch, err);
}

enum schema_result
schema_view_validate(const struct schema *s, const struct schema_node *n,
    const struct json_value *instance, struct arena *scratch,
    struct schema_err *err)
{
	struct vctx x;

	(void)s;
	x.scratch = scratch;
	x.err = err;
	x.steps = 0;
	x.depth = 0;
	x.quiet = 0;
	x.nframes = 0;
	x.ev = NULL;
	x.nscope = 0;
	re_budget_init(&x.re_budget);
	return apply(&x, n, instance, KW_ROOT_FALSE);
}
