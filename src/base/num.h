/*
 * num.h: the one reader of whole numbers written in decimal text, in the
 * spirit of OpenBSD's strtonum(3): the range is part of the call, and a
 * failure is a reason in words, not an errno.
 *
 * Every text-to-number parse of gpt.fcgi (address.conf values, the CGI
 * and FastCGI variables, the environment, command-line arguments, counts
 * in forms and descriptions) goes through num_read, so "12a", " 5", "+5",
 * "-1", "1e3" and "" are refused alike everywhere.  The exact decimals of
 * JSON numbers are dec.h's, and the fixed-width digit fields of formats
 * (a date's "2024") are read by their grammar in format.c.
 */
#ifndef GPT_NUM_H
#define GPT_NUM_H

#include "base/common.h"

/* num_read flags */
#define NUM_CANONICAL 0x1u /* refuse a leading zero ("05"; "0" is fine) */

/*
 * The number text (len bytes, no NUL needed: one or more ASCII digits,
 * nothing else) into *out when it lies in [min, max]: NULL.  Otherwise a
 * static reason, and *out is left untouched: "not a number" (empty, or a
 * byte that is not a digit), "a leading zero" (NUM_CANONICAL), "too
 * small", "too large".  Reads each byte once; never overflows.
 */
const char *num_read(const char *text, size_t len, uint64_t min, uint64_t max,
    unsigned flags, uint64_t *out) GPT_MUSTCHECK;

/* num_read of a NUL-terminated text. */
const char *num_read_str(const char *text, uint64_t min, uint64_t max,
    unsigned flags, uint64_t *out) GPT_MUSTCHECK;

#endif /* GPT_NUM_H */
