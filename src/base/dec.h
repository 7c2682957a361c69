/*
 * dec.h: exact decimal arithmetic on JSON number text, for the validator's
 * numeric keywords.  Never converts to double.
 *
 * A number is held as sign, significant digits (no leading or trailing
 * zeros; none for zero) and a power of ten: value = digits * 10^exp.  The
 * digits borrow the number's text, so a dec is cheap to make on the request
 * path and allocates nothing.
 *
 * Limits: an exponent whose magnitude is over DEC_EXP_MAX (after adjusting
 * for the digits) is refused by dec_parse (such a number is still valid
 * JSON; keywords that need its value reject it: fail closed).
 */
#ifndef GPT_DEC_H
#define GPT_DEC_H

#include "base/common.h"

#define DEC_EXP_MAX ((int64_t)1 << 40)

struct dec {
	bool neg;	    /* never true for zero */
	const char *digits; /* borrowed: the number's text; may skip a '.' */
	size_t ndigits;	    /* significant digits; 0 for zero */
	size_t dot;	    /* position of '.' to skip in digits, or SIZE_MAX */
	int64_t exp;	    /* value = digits * 10^exp */
};

/*
 * Read the JSON number text (len bytes, already valid per RFC 8259).  0 and
 * *d filled, or -1 (d untouched) when the exponent is out of range.
 */
int dec_parse(const char *text, size_t len, struct dec *d) GPT_MUSTCHECK;

/* -1, 0 or 1 as a < b, a == b, a > b, exactly. */
int dec_cmp(const struct dec *a, const struct dec *b);

/* true when d has no fractional part (1.0 and 1e2 are integers). */
bool dec_is_integer(const struct dec *d);

/* true when d is zero. */
bool dec_is_zero(const struct dec *d);

/*
 * true when value / divisor is an integer, exactly (0.3 is a multiple of
 * 0.1; 0.015 is not a multiple of 0.01).  divisor must be > 0.  Work is
 * bounded by the digits of both and log(exponent difference).
 * Returns -1 when the work would pass DEC_WORK_MAX digit operations (the
 * caller rejects: fail closed), else 1 (multiple) or 0.
 */
#define DEC_WORK_MAX ((uint64_t)1 << 32)
int dec_is_multiple(const struct dec *value, const struct dec *divisor);

/* d's i-th significant digit (0-based), '0' to '9'. */
char dec_digit(const struct dec *d, size_t i);

/*
 * The short form, for the validator's fast path: read JSON number text
 * (valid per RFC 8259) as mant * 10^exp with at most 18 significant digits
 * and |exp| at most DEC_SHORT_EXP_MAX.  true and the outputs set, or false
 * (outputs untouched) when it does not fit: the caller then uses dec_parse.
 * The sign is ignored (divisibility does not need it).  The exponent is
 * not normalized: "1.50" is 150 * 10^-2.  The exponent cap keeps the
 * validator's shortcut, which steps over the gap between two exponents,
 * short; past it dec_parse's exact work is the cheaper one.
 */
#define DEC_SHORT_EXP_MAX 400
bool dec_short(const char *text, size_t len, uint64_t *mant, int64_t *exp);

#endif /* GPT_DEC_H */
