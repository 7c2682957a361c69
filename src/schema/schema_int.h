/*
 * schema_int.h: the compiled form, shared by schema_compile.c (which builds
 * it, once, at load) and schema_validate.c (which only walks it).
 *
 * Everything the request path needs is decided here ahead of time: which
 * keywords a node carries (one flag word, tested with masks per instance
 * type), the accepted types as a bit mask, numeric bounds as parsed
 * decimals, lengths as size_t, compiled patterns, a hashed table of the
 * member names a node mentions, and $ref already resolved to a node.
 * Member names and enum values are hashed with the process's keyed hash
 * (hash.h), the same one the parser's index uses.
 * Nothing in this file is visible outside the schema_ modules.
 */
#ifndef GPT_SCHEMA_INT_H
#define GPT_SCHEMA_INT_H

#include <string.h>

#include "base/common.h"
#include "base/dec.h"
#include "base/hash.h"
#include "schema/schema.h"
#include "schema/schema_anchor.h"

struct json_value;
struct re;
struct format;

/* Enums this long get a hashed table of their values. */
#define SCHEMA_ENUM_TABLE_MIN 4
/* Bits of schema_node.types; "integer" is its own bit. */
enum {
	SCHEMA_TY_NULL = 1u << 0,
	SCHEMA_TY_BOOLEAN = 1u << 1,
	SCHEMA_TY_OBJECT = 1u << 2,
	SCHEMA_TY_ARRAY = 1u << 3,
	SCHEMA_TY_NUMBER = 1u << 4,
	SCHEMA_TY_STRING = 1u << 5,
	SCHEMA_TY_INTEGER = 1u << 6,
};

/* Bits of schema_node.flags: which constraining keywords are present.  64
 * bits, so that a keyword added later has a bit of its own (bits 32 and up
 * are free): schema_view.c describes an explicit list of them, and a bit
 * outside that list makes the node opaque to the tools. */
#define SF_TYPE (UINT64_C(1) << 0)
#define SF_ENUM (UINT64_C(1) << 1)
#define SF_CONST (UINT64_C(1) << 2)
/* numbers */
#define SF_MINIMUM (UINT64_C(1) << 3)
#define SF_MAXIMUM (UINT64_C(1) << 4)
#define SF_XMINIMUM (UINT64_C(1) << 5)
#define SF_XMAXIMUM (UINT64_C(1) << 6)
#define SF_MULTIPLE (UINT64_C(1) << 7)
/* strings */
#define SF_MINLENGTH (UINT64_C(1) << 8)
#define SF_MAXLENGTH (UINT64_C(1) << 9)
#define SF_PATTERN                                                             \
	(UINT64_C(1) << 10) /* pattern, and/or content* (see content) */
/* arrays */
#define SF_MINITEMS (UINT64_C(1) << 11)
#define SF_MAXITEMS (UINT64_C(1) << 12)
#define SF_ITEMS (UINT64_C(1) << 13) /* items and/or prefixItems */
#define SF_CONTAINS (UINT64_C(1) << 14)
#define SF_UNIQUE (UINT64_C(1) << 15)
/* objects */
#define SF_MINPROPS (UINT64_C(1) << 16)
#define SF_MAXPROPS (UINT64_C(1) << 17)
#define SF_MEMBERS (UINT64_C(1) << 18) /* a walk over members is needed */
#define SF_REQUIRED (UINT64_C(1) << 19)
#define SF_DEPREQ (UINT64_C(1) << 20)
/* in place */
#define SF_REF (UINT64_C(1) << 21)
#define SF_ALLOF (UINT64_C(1) << 22)
#define SF_ANYOF (UINT64_C(1) << 23)
#define SF_ONEOF (UINT64_C(1) << 24)
#define SF_NOT (UINT64_C(1) << 25)
#define SF_IF (UINT64_C(1) << 26)
/* the schema false: only ever in schema_node.need */
#define SF_FALSE (UINT64_C(1) << 27)
/* format: a string checker, a number checker (format.h) */
#define SF_FORMAT (UINT64_C(1) << 28)
#define SF_NFORMAT (UINT64_C(1) << 29)
/* objects: dependentSchemas (in place, on an object) */
#define SF_DEPSCH (UINT64_C(1) << 30)
/* need only, for objects and arrays: the node keeps the dynamic
 * scope (schema_node.scoped: the form uses $dynamicRef or
 * $recursiveRef) or reports what it evaluated
 * (schema_node.collect: it lies in place under unevaluated*, or
 * holds one) */
#define SF_SPECIAL (UINT64_C(1) << 31)
/* the made-up keyword of test builds (KW_TEST_OPAQUE): a bit no tool
 * describes */
#define SF_TEST_OPAQUE (UINT64_C(1) << 32)
/* need only, for objects: the member walk has propertyNames,
 * patternProperties or dependentRequired to apply.  Without it, a need
 * of nothing but SF_MEMBERS and SF_REQUIRED ({"properties": {...},
 * "required": [...], "additionalProperties": false}) takes a lean walk
 * of its own, told by this one word. */
#define SF_MEMBERS_FULL (UINT64_C(1) << 33)
/* need only, for objects, on a node with no other bit than SF_MEMBERS and
 * SF_REQUIRED: its names have a table by length (schema_ph.by_len), and
 * each of its subschemas (properties, additionalProperties) accepts some
 * scalar at once (schema_node.accepts or its ranges), so that an object's
 * walk mostly applies none and runs as a leaf first. */
#define SF_MEMBERS_LEAF (UINT64_C(1) << 34)

#define SF_NUMBER_MASK                                                         \
	(SF_MINIMUM | SF_MAXIMUM | SF_XMINIMUM | SF_XMAXIMUM | SF_MULTIPLE |   \
	    SF_NFORMAT)
#define SF_LENGTH_MASK (SF_MINLENGTH | SF_MAXLENGTH)
#define SF_STRING_MASK (SF_LENGTH_MASK | SF_PATTERN | SF_FORMAT)
#define SF_ARRAY_MASK                                                          \
	(SF_MINITEMS | SF_MAXITEMS | SF_ITEMS | SF_CONTAINS | SF_UNIQUE)
#define SF_OBJECT_MASK                                                         \
	(SF_MINPROPS | SF_MAXPROPS | SF_MEMBERS | SF_REQUIRED | SF_DEPREQ |    \
	    SF_DEPSCH)
#define SF_INPLACE_MASK                                                        \
	(SF_REF | SF_ALLOF | SF_ANYOF | SF_ONEOF | SF_NOT | SF_IF)

/* The instance types (enum json_type, JSON_T_NULL to JSON_T_OBJECT): the
 * length of schema_node.need. */
#define SCHEMA_NJSON_TYPES 7

enum schema_kind {
	SCHEMA_K_FALSE, /* the schema false: rejects everything */
	SCHEMA_K_TRUE,  /* the schema true, or {}: accepts everything */
	SCHEMA_K_NODE,  /* an object schema with at least one constraint */
};

/* A numeric bound: the exact decimal, plus shortcuts for the common
 * cases that need no digit-by-digit work. */
struct schema_num {
	struct dec d;               /* borrows the schema's number text */
	const struct json_value *v; /* borrowed: the keyword's value */
	bool is_small; /* the bound is an integer that fits in int64 */
	int64_t i;
	bool is_short; /* |value| = mant * 10^exp, mant < 10^18 */
	uint64_t mant;
	int64_t exp;
};

/* A member name a node mentions (properties, required, dependentRequired):
 * one slot each, so a walk over an instance object marks what it saw. */
struct schema_slot {
	const char *name; /* borrowed: the schema's string */
	size_t len;
	uint64_t hash; /* hash_bytes(name, len) */
	/* json_name_words(name, len): with len, the whole name when it
	 * is at most 16 bytes long, so a lookup compares two words and
	 * never reads the schema's string */
	uint64_t wa, wb;
	const struct schema_node *sub; /* properties[name], or NULL */
	bool required;                 /* named by required */
};

/* true when the len bytes at a and b are equal.  Inline, with no byte
 * loop past 3 bytes: member names are mostly 4 to 16 bytes long. */
static inline bool
schema_key_eq(const char *a, const char *b, size_t len)
{
	uint64_t x, y;
	uint32_t u, v;

	if (len >= 8) {
		for (; len > 8; a += 8, b += 8, len -= 8) {
			memcpy(&x, a, 8);
			memcpy(&y, b, 8);
			if (x != y)
				return false;
		}
		/* the last 8 bytes, overlapping what was compared */
		memcpy(&x, a + len - 8, 8);
		memcpy(&y, b + len - 8, 8);
		return x == y;
	}
	if (len >= 4) {
		memcpy(&u, a, 4);
		memcpy(&v, b, 4);
		if (u != v)
			return false;
		memcpy(&u, a + len - 4, 4);
		memcpy(&v, b + len - 4, 4);
		return u == v;
	}
	return len == 0 || (a[0] == b[0] && a[len / 2] == b[len / 2] &&
	                       a[len - 1] == b[len - 1]);
}

/*
 * A perfect hash of a fixed set of member names, found at load
 * (schema_plan.c, schema_ph_build): schema_ph_slot maps any name to one
 * entry of tab, and no two names of the set share an entry, so a lookup
 * is one probe and one comparison, whatever the name.  Nothing here needs
 * to be secret: a body cannot make a lookup probe twice.  tab is NULL
 * when no such function was found (more than SCHEMA_PH_MAX names, or two
 * names alike in length and in their first and last 8 bytes); the keyed
 * table is then used.
 */
struct schema_ph {
	/* SCHEMA_PH_LENS entries when no two names have the same length
	 * modulo SCHEMA_PH_LENS (most small objects' properties): the slot
	 * + 1 of the name of each, 0 none.  Then the name's length alone is
	 * the function, and tab is NULL. */
	const uint8_t *by_len;
	const uint16_t *tab; /* 1 << (64 - shift) entries: slot + 1, 0 none */
	uint64_t m1, m2;     /* the multipliers found */
	unsigned shift;
};

/* The entries of schema_ph.by_len. */
#define SCHEMA_PH_LENS 64

/* The most names a perfect hash is searched for. */
#define SCHEMA_PH_MAX 256

/* The entry of tab a name of len bytes, whose words are a and b, maps to
 * under ph. */
static inline uint32_t
schema_ph_slot(const struct schema_ph *ph, uint64_t a, uint64_t b, size_t len)
{
	return (uint32_t)(((a ^ len) * ph->m1 + b * ph->m2) >> ph->shift);
}

/* true when slot s is the name of len bytes at p whose words are a, b. */
static inline bool
schema_slot_is(const struct schema_slot *s, const char *p, size_t len,
    uint64_t a, uint64_t b)
{
	return s->len == len && s->wa == a && s->wb == b &&
	       (len <= 16 || schema_key_eq(s->name, p, len));
}

/* A set of member names, looked up as schema_node's slots are. */
struct schema_names {
	const struct schema_slot *slots; /* n entries (sub unused) */
	uint32_t n;
	const uint32_t *table; /* open addressing: slot + 1, 0 = empty */
	uint32_t mask;         /* table size - 1 */
	uint64_t lens, firsts; /* as schema_node.slot_lens, slot_firsts */
	struct schema_ph ph;   /* the perfect hash of the names, if found */
};

struct schema_pprop {
	const struct re *re; /* owned by the form arena */
	const char *src;     /* borrowed: the pattern's text (schema_view) */
	size_t src_len;
	const struct schema_node *sub;
};

/* dependentRequired: when slot `trigger` is present, so must `need` be. */
struct schema_depreq {
	uint32_t trigger;
	uint32_t count;
	const uint32_t *need; /* slot indices */
};

/* dependentSchemas: when member `name` is present, sub applies. */
struct schema_depsch {
	const char *name; /* borrowed */
	size_t len;
	const struct schema_node *sub;
};

/* A $dynamicAnchor of a resource, by name. */
struct schema_dynanchor {
	const char *name; /* borrowed */
	size_t len;
	const struct schema_node *node;
};

/* A schema resource, as the dynamic scope sees it: its dynamic anchors
 * (in an array, and by name: name -> struct schema_dynanchor), and
 * whether its root says "$recursiveAnchor": true (2019-09). */
struct schema_resource {
	const struct schema_dynanchor *anchors;
	uint32_t nanchors;
	struct anchor_index by_name;
	bool recursive;
	const struct schema_node *root;
};

/* contentEncoding (RFC 4648 sections 4 and 5). */
enum schema_enc { SCHEMA_ENC_NONE, SCHEMA_ENC_BASE64, SCHEMA_ENC_BASE64URL };

/* How a node's dynamic reference is resolved at validation time. */
enum schema_dyn {
	SCHEMA_DYN_NONE,      /* no dynamic reference */
	SCHEMA_DYN_STATIC,    /* like $ref: dref is the target */
	SCHEMA_DYN_ANCHOR,    /* $dynamicRef: outermost anchor `dyn_name` */
	SCHEMA_DYN_RECURSIVE, /* $recursiveRef: outermost recursive root */
};

struct schema_enum {
	const struct json_value *value; /* borrowed: the schema */
	uint64_t hash;                  /* json_hash(value) */
	/* a string value's bytes, so that a scan reads one array; len is
	 * SIZE_MAX for the other types */
	const char *str; /* borrowed */
	size_t len;
};

/*
 * A gate of a branch of anyOf or oneOf (schema_plan.c, from
 * schema_facts_gate): every object the branch accepts has the member
 * name with one of vals, so an object without it, or with another value,
 * fails the branch, which is then not applied.  A oneOf of "op": "and",
 * "op": "not", ... costs a member lookup per branch, not a descent.
 */
struct schema_gate {
	const char *name; /* borrowed from the form; may hold U+0000 */
	size_t len;
	const struct json_value *const *vals; /* borrowed from the form */
	size_t nvals;
};

struct schema_node {
	/*
	 * need[t]: the SF_* bits that can reject, or must look inside, an
	 * instance of JSON type t (enum json_type); 0 when every instance of
	 * that type is accepted at once.  SF_TYPE is there only when `type`
	 * does not admit t outright (numbers under "integer" included), the
	 * other keywords only for the types they apply to, SF_FALSE for the
	 * schema false.  Decided once by the compiler, so the validator
	 * reads one word per value instead of testing keyword by keyword.
	 */
	uint64_t need[SCHEMA_NJSON_TYPES];
	/* bit t set: `type` does not rule out JSON type t (anyOf and oneOf
	 * skip a branch whose bit is clear without applying it) */
	uint32_t admits;
	/*
	 * Answers the validator may give without applying the node, each
	 * the answer applying it would give (same result, same report):
	 * bit t of accepts set, every instance of JSON type t is accepted
	 * (need[t] is 0, or the in-place keywords lead only to such nodes);
	 * a string of accept_min to accept_max code points is accepted
	 * ({"type": "string", "maxLength": 80}, or an anyOf whose first
	 * branch admitting strings is that); accept_min > accept_max when
	 * there is no such range.
	 */
	uint32_t accepts;
	size_t accept_min, accept_max;
	/* likewise an integer number that fits int64 (is_small_int) with
	 * (uint64_t)i - accept_ilo below accept_ispan ({"type": "integer",
	 * "minimum": 0}); span 0 (a zeroed node) when there is no range */
	uint64_t accept_ilo, accept_ispan;
	enum schema_kind kind;
	uint64_t flags; /* SF_* */
	unsigned types; /* SCHEMA_TY_* when SF_TYPE */
	/* draft-04's integer: a number written without fraction or exponent
	 * (draft-04 core 3.5), so 1.0 is none; later dialects take 1.0 */
	bool integer_text;

	/* objects: the fields a member walk reads, next to need[] and the
	 * shortcuts, so that visiting an object node touches few cache
	 * lines (the node is over a kilobyte) */
	size_t min_props, max_props;
	const struct schema_slot *slots; /* nslots entries */
	uint32_t nslots;
	const uint32_t *table; /* open addressing: slot + 1, 0 = empty */
	uint32_t table_mask;   /* table size - 1 */
	/* a quick "not a slot" before hashing: bit (len % 64) of every
	 * slot name's length, bit (first byte % 64) of every first byte
	 * (bit 0 also for the empty name) */
	uint64_t slot_lens, slot_firsts;
	struct schema_ph slot_ph; /* the perfect hash of the slot names */
	const uint32_t *required; /* slot indices */
	uint32_t nrequired;
	const struct schema_depreq *depreq;
	uint32_t ndepreq;
	const struct schema_pprop *pprops;
	uint32_t npprops;
	const struct schema_node *additional; /* NULL: any */
	const struct schema_node *names;      /* propertyNames, NULL: any */
	bool additional_all; /* additionalProperties present, even true */

	/* enum / const */
	const struct schema_enum *enums;
	size_t nenums;
	/* every value of enum by json_hash (hash_bytes for strings), open
	 * addressing: entry index + 1, 0 = empty; NULL when enum is short.
	 * Fixed at load: no lookup probes more than enum_maxprobe slots. */
	const uint32_t *enum_table;
	uint32_t enum_mask;
	uint32_t enum_maxprobe;
	const struct json_value *const_value; /* borrowed */

	/* strings: code points (0 and SIZE_MAX when absent) */
	size_t min_length, max_length;
	const struct re *pattern; /* NULL when SF_PATTERN is content only */
	/* contentEncoding / contentMediaType / contentSchema, enforced:
	 * content is false when the node has none of them */
	bool content;
	enum schema_enc enc;
	bool content_json; /* contentMediaType application/json */
	const struct schema_node *content_schema; /* NULL: any */
	/* format (SF_FORMAT on strings, SF_NFORMAT on numbers) */
	const struct format *format; /* borrowed: format.c's table */

	/* arrays */
	size_t min_items, max_items;
	const struct schema_node *const *prefix; /* prefixItems */
	size_t nprefix;
	const struct schema_node *items; /* after the prefix; NULL: any */
	uint8_t prefix_kw, items_kw;     /* their enum kw, for reports */
	bool items_all;      /* items (or additionalItems) present, even true */
	bool contains_marks; /* 2020-12 on: contains evaluates items */
	const struct schema_node *contains;
	size_t min_contains, max_contains; /* 1 and SIZE_MAX by default */

	/* objects (the rest) */
	const struct schema_depsch *depsch;
	uint32_t ndepsch;
	/* unevaluatedProperties / unevaluatedItems (collect), or NULL */
	const struct schema_node *uneval_props, *uneval_items;
	/*
	 * unevaluatedProperties decided at load (SF_SPECIAL, not collect):
	 * the node reaches in place only $ref and allOf, and neither it nor
	 * they have patternProperties or conditional applicators, so what
	 * they evaluate is known before any instance is seen: the names of
	 * their `properties` (uneval_names), or every member (uneval_all:
	 * one has additionalProperties or an unevaluatedProperties of its
	 * own).  The walk then applies them plainly and looks each member
	 * up once, as ajv's generated code does.
	 */
	bool uneval_static, uneval_all;
	struct schema_names uneval_names;

	/* in place */
	const struct schema_node *ref; /* $ref, or NULL (SF_REF for dyn) */
	enum schema_dyn dyn;
	const struct schema_node *dref; /* the static target of dyn */
	const char *dyn_name;           /* borrowed: the anchor's name */
	size_t dyn_len;
	uint64_t dyn_hash;                 /* anchor_hash(dyn_name, dyn_len) */
	const struct schema_resource *res; /* the node's resource */
	bool scoped;  /* SF_SPECIAL: enter res into the dynamic scope */
	bool collect; /* SF_SPECIAL: report what it evaluated */
	const struct schema_node *const *all_of;
	const struct schema_node *const *any_of;
	const struct schema_node *const *one_of;
	size_t nall_of, nany_of, none_of;
	/* the plan proved no value passes two of one_of (schema_facts.h):
	 * the first that passes settles it, as in anyOf */
	bool one_of_disjoint;
	/* each branch's gate or NULL, by index; NULL when none has one */
	const struct schema_gate *const *any_gates, *const *one_gates;
	const struct schema_node *not_;
	const struct schema_node *if_, *then_,
	    *else_; /* then/else may be NULL */

	/* numbers: last, as the largest and least used fields, so that the
	 * others of a node share fewer cache lines */
	struct schema_num minimum, maximum, xminimum, xmaximum, multiple;
};

struct schema {
	const struct schema_node *root;
	/* where schema_validate starts: root, or what root is an alias of
	 * (schema_plan.c, skip_refs) */
	const struct schema_node *entry;
	/* every object schema compiled, in document order (schema_view) */
	const struct schema_node *const *nodes;
	size_t nnodes;
	bool dynamic; /* every node keeps the dynamic scope (scoped) */
	const struct json_value *bundle; /* the served form (--bundle) */
};

/* The longest name a message quotes, in bytes. */
#define SCHEMA_CLIP_MAX 64

/*
 * Copy at most SCHEMA_CLIP_MAX bytes of s (len bytes) into out (which
 * holds SCHEMA_CLIP_MAX + 1), NUL-terminated, control characters (U+0000
 * included) as '?': a name from a form or a body, quoted in a message.
 */
void schema_clip(char *out, const char *s, size_t len);

#ifdef GPT_TEST
/* Test builds of schema_validate.c: every enum entry, uniqueItems slot
 * or sort comparison looked at, and a replacement for uniqueItems' item
 * hash (NULL: json_hash). */
extern uint64_t schema_test_probes;
extern uint64_t (*schema_test_item_hash)(const struct json_value *v);
/* Test builds: objects and arrays walked by the collecting walk (what
 * uneval_static spares). */
extern uint64_t schema_test_collects;
/* Test builds: member names hashed with the keyed hash by a lookup
 * (what a perfect hash of the form's names spares). */
extern uint64_t schema_test_name_hashes;
#endif

#endif /* GPT_SCHEMA_INT_H */
