/*
 * dec.c: exact decimals read from JSON number text, for minimum, maximum,
 * exclusiveMinimum, exclusiveMaximum, multipleOf and JSON equality.
 *
 * A number is never converted to double: 0.1 + 0.2 style rounding would
 * let `multipleOf: 0.01` reject 19.99 or accept 0.015, and integers past
 * 2^53 would compare equal to their neighbours.  Instead a number is its
 * significant digits (borrowed from the text) and a power of ten.
 *
 * Owns nothing; allocates nothing.  dec_is_multiple() keeps a divisor of
 * at most DEC_BIG_DIGITS significant digits in fixed stack buffers and
 * counts its digit operations against DEC_WORK_MAX; past either it answers
 * -1 so that the validator rejects (fail closed).
 */
#include <string.h>

#include "base/dec.h"

/* Exponent text past this magnitude is refused without further reading of
 * its value: no JSON text is long enough for its digits to bring such an
 * exponent back under DEC_EXP_MAX. */
#define DEC_EXP_TEXT_MAX ((int64_t)1 << 61)

/* Divisors of multipleOf with more significant digits are refused. */
#define DEC_LIMB_BASE 1000000000u /* 9 decimal digits per limb */
#define DEC_LIMB_DIGITS 9
#define DEC_BIG_LIMBS 256
#define DEC_BIG_DIGITS (DEC_BIG_LIMBS * DEC_LIMB_DIGITS)

static bool
is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/*
 * Grammar (RFC 8259 section 6): -? int frac? exp?, already checked by the
 * parser; this reader still never reads past len and refuses what it does
 * not understand.
 */
int
dec_parse(const char *text, size_t len, struct dec *d)
{
	size_t i = 0, first = SIZE_MAX, last = SIZE_MAX, dot = SIZE_MAX;
	size_t nfrac = 0, sig_end, trailing = 0, n;
	int64_t e = 0, exp;
	bool neg = false, eneg = false, any = false;

	if (len >= ((size_t)1 << 40))
		return -1; /* no body is that large; keeps the sums below exact */
	if (i < len && text[i] == '-') {
		neg = true;
		i++;
	}
	/* Mantissa: remember the first and last non-zero digit. */
	for (; i < len; i++) {
		char c = text[i];

		if (c == '.') {
			if (dot != SIZE_MAX)
				return -1; /* "1.2.3" */
			dot = i;
			continue;
		}
		if (!is_digit(c))
			break;
		any = true;
		if (dot != SIZE_MAX)
			nfrac++;
		if (c != '0') {
			if (first == SIZE_MAX)
				first = i;
			last = i;
		}
	}
	if (!any)
		return -1; /* "-" or "." */
	if (i < len) {
		if (text[i] != 'e' && text[i] != 'E')
			return -1; /* "12x" */
		i++;
		if (i < len && (text[i] == '+' || text[i] == '-')) {
			eneg = text[i] == '-';
			i++;
		}
		if (i >= len)
			return -1; /* "1e" */
		for (; i < len; i++) {
			if (!is_digit(text[i]))
				return -1; /* "1e5x" */
			/* "1e99999999999999999999": stop before overflow;
			 * refused below unless the number is zero. */
			if (e <= DEC_EXP_TEXT_MAX / 10)
				e = e * 10 + (text[i] - '0');
			else
				e = DEC_EXP_TEXT_MAX + 1;
		}
		if (eneg)
			e = -e;
	}
	if (first == SIZE_MAX) {
		/* Zero, whatever its exponent: "0e99999999999999999999". */
		d->neg = false;
		d->digits = text;
		d->ndigits = 0;
		d->dot = SIZE_MAX;
		d->exp = 0;
		return 0;
	}
	if (e > DEC_EXP_TEXT_MAX || e < -DEC_EXP_TEXT_MAX)
		return -1;
	/* Digits between first and last, the dot excluded. */
	n = last - first + 1;
	if (dot != SIZE_MAX && dot > first && dot < last)
		n--;
	/* value = mantissa * 10^(e - nfrac); the digits after `last` (not
	 * counting the dot) are trailing zeros dropped into the exponent. */
	sig_end = last + 1;
	for (i = sig_end; i < len && (is_digit(text[i]) || text[i] == '.'); i++)
		if (text[i] != '.')
			trailing++;
	exp = e - (int64_t)nfrac + (int64_t)trailing;
	if (exp > DEC_EXP_MAX || exp < -DEC_EXP_MAX)
		return -1; /* "1e1099511627777" */
	d->neg = neg;
	d->digits = text + first;
	d->ndigits = n;
	d->dot = (dot != SIZE_MAX && dot > first && dot < last) ? dot - first
								 : SIZE_MAX;
	d->exp = exp;
	return 0;
}

char
dec_digit(const struct dec *d, size_t i)
{
	if (d->dot != SIZE_MAX && i >= d->dot)
		i++;
	return d->digits[i];
}

bool
dec_is_zero(const struct dec *d)
{
	return d->ndigits == 0;
}

bool
dec_is_integer(const struct dec *d)
{
	/* The last digit is not zero, so a negative exponent always leaves a
	 * fraction: 1.5 is 15e-1, 1.0 is 1e0. */
	return d->ndigits == 0 || d->exp >= 0;
}

/* Compare |a| and |b|, both non-zero. */
static int
cmp_magnitude(const struct dec *a, const struct dec *b)
{
	/* The leading digit's power of ten decides first. */
	int64_t ta = (int64_t)a->ndigits + a->exp;
	int64_t tb = (int64_t)b->ndigits + b->exp;
	size_t i, n;

	if (ta != tb)
		return ta < tb ? -1 : 1;
	n = a->ndigits < b->ndigits ? a->ndigits : b->ndigits;
	for (i = 0; i < n; i++) {
		char ca = dec_digit(a, i), cb = dec_digit(b, i);

		if (ca != cb)
			return ca < cb ? -1 : 1;
	}
	/* Equal prefixes: the longer one has a non-zero digit more. */
	if (a->ndigits != b->ndigits)
		return a->ndigits < b->ndigits ? -1 : 1;
	return 0;
}

int
dec_cmp(const struct dec *a, const struct dec *b)
{
	int sa = a->ndigits == 0 ? 0 : a->neg ? -1 : 1;
	int sb = b->ndigits == 0 ? 0 : b->neg ? -1 : 1;
	int m;

	if (sa != sb)
		return sa < sb ? -1 : 1;
	if (sa == 0)
		return 0;
	m = cmp_magnitude(a, b);
	return sa < 0 ? -m : m;
}

/* ---- multipleOf with a small divisor (below 10^9) ---------------------- */

static uint64_t
powmod_small(uint64_t base, uint64_t e, uint64_t m)
{
	uint64_t r = 1 % m;

	base %= m;
	while (e > 0) {
		if (e & 1)
			r = r * base % m; /* both < 10^9: the product fits */
		base = base * base % m;
		e >>= 1;
	}
	return r;
}

static int
multiple_small(const struct dec *v, uint64_t b, uint64_t e)
{
	uint64_t r = 0;
	size_t i;

	if (v->ndigits > DEC_WORK_MAX)
		return -1;
	for (i = 0; i < v->ndigits; i++)
		r = (r * 10 + (uint64_t)(dec_digit(v, i) - '0')) % b;
	return r * powmod_small(10, e, b) % b == 0;
}

/* ---- multipleOf with a large divisor: base 10^9 limbs, little end first */

struct big {
	uint32_t limb[DEC_BIG_LIMBS];
	size_t n; /* limbs in use; 0 for zero */
};

struct modctx {
	const struct big *m; /* the divisor */
	uint64_t work;	     /* limb operations so far */
	bool over;	     /* work passed DEC_WORK_MAX */
};

static void
big_trim(struct big *x)
{
	while (x->n > 0 && x->limb[x->n - 1] == 0)
		x->n--;
}

static int
big_cmp(const struct big *x, const struct big *y)
{
	size_t i;

	if (x->n != y->n)
		return x->n < y->n ? -1 : 1;
	for (i = x->n; i-- > 0;)
		if (x->limb[i] != y->limb[i])
			return x->limb[i] < y->limb[i] ? -1 : 1;
	return 0;
}

/* x -= y, with x >= y. */
static void
big_sub(struct big *x, const struct big *y)
{
	int64_t borrow = 0;
	size_t i;

	for (i = 0; i < x->n; i++) {
		int64_t t = (int64_t)x->limb[i] - borrow -
		    (i < y->n ? (int64_t)y->limb[i] : 0);

		borrow = t < 0;
		if (t < 0)
			t += DEC_LIMB_BASE;
		x->limb[i] = (uint32_t)t;
	}
	big_trim(x);
}

/*
 * r = (r * 10 + digit) mod m, with r < m on entry.  r * 10 + digit < 10m,
 * so at most nine subtractions bring it back under m.  r has room for one
 * limb more than m.
 */
static void
mod_push_digit(struct big *r, unsigned digit, struct modctx *c)
{
	uint64_t carry = digit;
	size_t i;

	c->work += (uint64_t)(r->n + 1) * 10;
	if (c->work > DEC_WORK_MAX) {
		c->over = true;
		return;
	}
	for (i = 0; i < r->n; i++) {
		uint64_t t = (uint64_t)r->limb[i] * 10 + carry;

		r->limb[i] = (uint32_t)(t % DEC_LIMB_BASE);
		carry = t / DEC_LIMB_BASE;
	}
	if (carry > 0)
		r->limb[r->n++] = (uint32_t)carry;
	while (big_cmp(r, c->m) >= 0)
		big_sub(r, c->m);
}

/* r = x * y mod m, by Horner over y's decimal digits, most significant
 * first: r = r * 10 + x * digit, reduced each step. */
static void
mod_mul(struct big *r, const struct big *x, const struct big *y,
    struct modctx *c)
{
	struct big acc = {.n = 0};
	size_t i;
	int k;

	for (i = y->n; i-- > 0 && !c->over;) {
		uint32_t limb = y->limb[i];
		uint32_t div = DEC_LIMB_BASE / 10;

		for (k = 0; k < DEC_LIMB_DIGITS && !c->over; k++) {
			unsigned digit = limb / div % 10;
			unsigned j;

			div /= 10;
			mod_push_digit(&acc, 0, c);
			/* acc += x * digit, as digit additions of x. */
			for (j = 0; j < digit && !c->over; j++) {
				uint64_t carry = 0;
				size_t l, n = acc.n > x->n ? acc.n : x->n;

				c->work += n + 1;
				for (l = 0; l < n; l++) {
					uint64_t t = carry +
					    (l < acc.n ? acc.limb[l] : 0) +
					    (l < x->n ? x->limb[l] : 0);

					acc.limb[l] = (uint32_t)(t %
					    DEC_LIMB_BASE);
					carry = t / DEC_LIMB_BASE;
				}
				acc.n = n;
				if (carry > 0)
					acc.limb[acc.n++] = (uint32_t)carry;
				if (big_cmp(&acc, c->m) >= 0)
					big_sub(&acc, c->m);
			}
		}
	}
	*r = acc;
}

/* Load d's digits as an integer (its exponent ignored). */
static void
big_from_dec(struct big *x, const struct dec *d)
{
	size_t i, pos;

	memset(x->limb, 0, sizeof(x->limb));
	for (i = 0; i < d->ndigits; i++) {
		/* digit i from the right is at position ndigits-1-i */
		unsigned digit = (unsigned)(dec_digit(d, d->ndigits - 1 - i) -
		    '0');
		uint32_t mul = 1;
		unsigned k;

		pos = i / DEC_LIMB_DIGITS;
		for (k = 0; k < i % DEC_LIMB_DIGITS; k++)
			mul *= 10;
		x->limb[pos] += digit * mul;
	}
	x->n = (d->ndigits + DEC_LIMB_DIGITS - 1) / DEC_LIMB_DIGITS;
	big_trim(x);
}

static int
multiple_big(const struct dec *v, const struct dec *divisor, uint64_t e)
{
	struct big m, r = {.n = 0}, p = {.n = 0}, base = {.n = 0};
	struct modctx c = {.m = &m, .work = 0, .over = false};
	size_t i;
	int bit;

	if (divisor->ndigits > DEC_BIG_DIGITS - DEC_LIMB_DIGITS)
		return -1; /* a 3000-digit multipleOf: refuse, fail closed */
	big_from_dec(&m, divisor);
	/* r = A mod B */
	for (i = 0; i < v->ndigits && !c.over; i++)
		mod_push_digit(&r, (unsigned)(dec_digit(v, i) - '0'), &c);
	if (r.n == 0)
		return c.over ? -1 : 1;
	/* p = 10^e mod B, square and multiply from the top bit. */
	mod_push_digit(&p, 1, &c);
	mod_push_digit(&base, 1, &c);
	mod_push_digit(&base, 0, &c);
	for (bit = 63; bit > 0 && ((e >> bit) & 1) == 0; bit--)
		continue;
	for (; bit >= 0 && !c.over; bit--) {
		mod_mul(&p, &p, &p, &c);
		if ((e >> bit) & 1)
			mod_mul(&p, &p, &base, &c);
	}
	mod_mul(&r, &r, &p, &c);
	if (c.over)
		return -1;
	return r.n == 0;
}

/*
 * value = A * 10^ea, divisor = B * 10^eb, A and B without trailing zeros.
 * With e = ea - eb >= 0, value / divisor = A * 10^e / B: an integer iff
 * (A mod B) * (10^e mod B) is 0 mod B.  With e < 0 it is A / (B * 10^-e),
 * which needs 10 | A: never true, since A's last digit is not zero.
 */
int
dec_is_multiple(const struct dec *value, const struct dec *divisor)
{
	uint64_t b = 0, e;
	size_t i;

	if (divisor->ndigits == 0 || divisor->neg)
		return -1; /* multipleOf 0 or -1: the compiler refuses these */
	if (value->ndigits == 0)
		return 1;
	if (value->exp < divisor->exp)
		return 0; /* 0.015 / 0.01 */
	e = (uint64_t)(value->exp - divisor->exp);
	if (divisor->ndigits <= 9) {
		for (i = 0; i < divisor->ndigits; i++)
			b = b * 10 + (uint64_t)(dec_digit(divisor, i) - '0');
		return multiple_small(value, b, e);
	}
	return multiple_big(value, divisor, e);
}

bool
dec_short(const char *t, size_t len, uint64_t *mant, int64_t *exp)
{
	uint64_t m = 0;
	int64_t e = 0, x = 0;
	unsigned nd = 0;
	size_t i = 0;
	bool xneg = false;

	if (i < len && t[i] == '-')
		i++;
	for (; i < len && t[i] >= '0' && t[i] <= '9'; i++) {
		if (m == 0 && t[i] == '0')
			continue;
		if (++nd > 18)
			return false;
		m = m * 10 + (uint64_t)(t[i] - '0');
	}
	if (i < len && t[i] == '.')
		for (i++; i < len && t[i] >= '0' && t[i] <= '9'; i++) {
			e--;
			if (m == 0 && t[i] == '0')
				continue;
			if (++nd > 18)
				return false;
			m = m * 10 + (uint64_t)(t[i] - '0');
		}
	if (i < len && (t[i] == 'e' || t[i] == 'E')) {
		i++;
		if (i < len && (t[i] == '+' || t[i] == '-'))
			xneg = t[i++] == '-';
		for (; i < len && t[i] >= '0' && t[i] <= '9'; i++)
			if ((x = x * 10 + (t[i] - '0')) > DEC_SHORT_EXP_MAX)
				return false;
		e += xneg ? -x : x;
	}
	if (e > DEC_SHORT_EXP_MAX || e < -DEC_SHORT_EXP_MAX)
		return false;
	*mant = m;
	*exp = e;
	return true;
}
