/*
 * schema_facts.h: the facts about a compiled form that every tool asks
 * alike: which instance types a schema concerns, whether two alternatives
 * can both accept a value, what a pattern uses.
 *
 * One module, so that the --check report (lint), the decoder table,
 * --strict-openai and --sample cannot disagree: a oneOf whose branches
 * are provably disjoint here is so for all of them.  Everything
 * is decided from the view (schema_view.h), never from the keywords'
 * text; a fact that cannot be established is answered "not proved",
 * never guessed.  A constraint the view does not describe only narrows a
 * schema, so a disjointness proved on what it does describe still holds.
 *
 * Allocates nothing; bounded: $ref chains are followed at most
 * SCHEMA_FACTS_HOPS deep, SCHEMA_FACTS_DISC_MAX members are tried as a
 * discriminator, SCHEMA_FACTS_ONEOF_MAX branches compared pairwise.
 */
#ifndef GPT_SCHEMA_FACTS_H
#define GPT_SCHEMA_FACTS_H

#include "base/common.h"

struct schema_node;
struct json_value;
struct schema_view;

#define SCHEMA_FACTS_HOPS 32         /* $ref hops followed */
#define SCHEMA_FACTS_DISC_MAX 32     /* members tried as a discriminator */
#define SCHEMA_FACTS_ONEOF_MAX 64    /* branches compared pairwise */
#define SCHEMA_FACTS_VALS_MAX 64     /* enum values compared */
#define SCHEMA_FACTS_GATE_DEPTH 4    /* allOf/anyOf/oneOf levels looked into */
#define SCHEMA_FACTS_GATE_NODES 1024 /* nodes looked at for one gate */

/*
 * The instance types (SV_TY_*) a value of node n may have and still be
 * accepted, as far as `type`, const and enum (through $ref chains) say;
 * integer widened to number, since the two overlap.  0: nothing is
 * accepted (false).  NULL counts as true (every type).
 */
unsigned schema_facts_types(const struct schema_node *n);

/*
 * The instance types (SV_TY_*) the schema whose view is v is about:
 * `type`'s when it has one, else those its keywords constrain (an object
 * for properties or minProperties, a string for pattern or format, ...),
 * every type when none of them says.  What --sample picks a value's type
 * from.
 */
unsigned schema_facts_concerns(const struct schema_view *v);

/* The instance type (SV_TY_*) of the JSON value v; a number is
 * SV_TY_NUMBER | SV_TY_INTEGER. */
unsigned schema_facts_type_of(const struct json_value *v);

/*
 * Are the oneOf branches of n pairwise disjoint for the values n's own
 * types let reach them (so anyOf accepts the same values)?  Two branches
 * are disjoint when they share no type, no const/enum value, or, where
 * both accept objects alone, a member both require with distinct values
 * or disjoint types (a discriminator).  why (cap bytes) gets the last
 * proof in words, or what could not be proved ("more than 64 branches").
 * true for a node with fewer than two branches.
 */
bool schema_facts_oneof_disjoint(
    const struct schema_node *n, char *why, size_t cap);

/*
 * A gate of n, for a validator choosing among alternatives: a required
 * member of n (found in n, its $ref chain, or the first branch of the
 * oneOf or anyOf it is made of) and the values every object n accepts
 * has there: its name in *name, *len (the form's bytes), the values in
 * out[0..*nout) (at most max; the form's, as long-lived as n).  An
 * object without that member, or with another value, fails n; nothing is
 * said of a value that is not an object.  The values are those of a
 * const or enum of the member's schema, through $ref chains, any part of
 * an allOf, and every branch of an anyOf or oneOf (their union),
 * SCHEMA_FACTS_GATE_DEPTH levels deep; the search looks at
 * SCHEMA_FACTS_GATE_NODES nodes at most.  false when none is proved.
 */
bool schema_facts_gate(const struct schema_node *n, const char **name,
    size_t *len, const struct json_value **out, size_t max, size_t *nout);

#endif /* GPT_SCHEMA_FACTS_H */
