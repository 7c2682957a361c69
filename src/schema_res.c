/*
 * schema_res.c: the URI layer of the compiler: which schema a $ref names.
 *
 * Owns nothing beyond the form arena.  A $ref is resolved after the
 * structural walk, from the compiler's work list, so a long chain of
 * references never deepens the C stack.
 *
 * Refuses: a $ref that names nothing in the document.
 */
#include <string.h>

#include "jptr.h"
#include "json.h"
#include "schema_cc.h"

#define refuse schema_cc_refuse
#define ptr_set schema_cc_ptr_set
#define compile_value schema_cc_value

#define REF_LOCAL "$ref must be a local JSON Pointer (\"#\" or \"#/...\")"

/* ----- $ref resolution ------------------------------------------------ */

/*
 * Each pending $ref, in turn: its fragment percent-decoded into the JSON
 * Pointer it stands for (RFC 6901 section 6: "#/$defs/x%2Fnot" is
 * /$defs/x/not, $defs.x.not; "#/$defs/x~1not" is $defs["x/not"]), the
 * value it names, compiled (once: compile_value memoizes).  Reading a
 * reference costs its length, so the whole work list costs the form's.
 */
int
schema_res_resolve(struct cctx *c)
{
	while (c->pending != NULL) {
		struct pending *p = c->pending;
		const struct json_value *target;
		const struct schema_node *n;
		struct jptr place;
		char ref[SCHEMA_CLIP_MAX + 1];

		c->pending = p->next;
		ptr_set(&c->ptr, p->where, p->where_len);
		schema_clip(ref, p->ref, p->len);
		/* {"$ref": "#/$defs/a%zz"}, {"$ref": "#/a~2"} */
		if (jptr_from_fragment(&place, p->ref, p->len) == -1)
			return refuse(c, "$ref",
			           "$ref has a malformed escape (a %% takes "
			           "two hex digits, a ~ takes 0 or 1): \"%s\"",
			           ref),
			       -1;
		/* {"$ref": "#anchor"}, {"$ref": "#%41"} */
		if (place.len > 0 && place.buf[0] != '/')
			return refuse(c, "$ref", REF_LOCAL), -1;
		target = jptr_resolve(c->root, p->ref, p->len);
		/* {"$ref": "#/$defs/missing"}, {"$ref": "#/items/01"} */
		if (target == NULL)
			return refuse(c, "$ref",
			           "$ref names nothing in the "
			           "document: \"%s\"",
			           ref),
			       -1;
		/* The target's own place, for messages about it. */
		c->ptr = place;
		c->depth = 0;
		if ((n = compile_value(c, target)) == NULL)
			return -1;
		p->node->ref = n;
	}
	return 0;
}
