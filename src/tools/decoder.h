/*
 * decoder.h: what each constrained-decoding runtime would do with a form:
 * refuse it, and which of its keywords it would ignore (so that gpt.fcgi,
 * not the decoder, is the only enforcement of those: the act can still be
 * rejected for them).
 *
 * The knowledge is data, schemas/decoders.json, embedded at build time:
 * per decoder a list of rules (keyword, conditions, effect, source and the
 * date it was checked).  This module only evaluates the table, the same
 * way for every decoder, over the facts lint.h computes; it knows no
 * decoder by name.
 */
#ifndef GPT_DECODER_H
#define GPT_DECODER_H

#include "base/common.h"

struct lint_facts;
struct report;

/* The embedded table (schemas/decoders.json), decoder_table_len bytes. */
extern const char decoder_table_text[];
extern const size_t decoder_table_len;

/*
 * Parse and check the table (once per process; later calls return the
 * first result).  0, or -1 with a reason in msg (the table is malformed:
 * a bug caught by the unit tests).
 */
int decoder_load(char *msg, size_t msglen) GPT_MUSTCHECK;

/*
 * Load the table text (len bytes) instead of the embedded one, for the
 * tests; replaces any table loaded.  0 or -1 as decoder_load.
 */
int decoder_load_text(
    const char *text, size_t len, char *msg, size_t msglen) GPT_MUSTCHECK;

/* Add one entry per decoder of the table to r for the form f. 0, or -1
 * when the table does not load. */
int decoder_report(const struct lint_facts *f, struct report *r) GPT_MUSTCHECK;

/* Release the parsed table (at exit, between tests). */
void decoder_unload(void);

#endif /* GPT_DECODER_H */
