/*
 * common.h: the few macros every module shares.
 *
 * GPT_MUSTCHECK marks a function whose result reports an error: ignoring it
 * is a compiler warning.  GPT_PRINTF lets the compiler check format strings
 * of our printf-like functions.  GPT_TESTABLE expands to `static` in
 * release builds and to nothing in test builds (-DGPT_TEST), so a unit test
 * may reach a private function without making it part of the module's API.
 */
#ifndef GPT_COMMON_H
#define GPT_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#if defined(__GNUC__) || defined(__clang__)
#define GPT_MUSTCHECK __attribute__((warn_unused_result))
#define GPT_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))
#define GPT_UNUSED __attribute__((unused))
#else
#define GPT_MUSTCHECK
#define GPT_PRINTF(fmt, args)
#define GPT_UNUSED
#endif

#ifdef GPT_TEST
#define GPT_TESTABLE
#else
#define GPT_TESTABLE static
#endif

#define GPT_ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/*
 * Checked size arithmetic: store a + b (a * b) in *out and return true, or
 * return false and leave *out untouched when the result would not fit.
 */
static inline bool
gpt_add_size(size_t a, size_t b, size_t *out)
{
	if (a > SIZE_MAX - b)
		return false;
	*out = a + b;
	return true;
}

static inline bool
gpt_mul_size(size_t a, size_t b, size_t *out)
{
	if (b != 0 && a > SIZE_MAX / b)
		return false;
	*out = a * b;
	return true;
}

/* The value of hexadecimal digit c, or -1 when c is not one. */
static inline int
gpt_hex_value(unsigned char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/*
 * A byte that must not reach a log line, a report or a terminal raw: a C0
 * control (a newline would forge a line, ESC drive the terminal) or DEL.
 * Text from a form, an act or a hook is masked with gpt_mask_controls()
 * wherever it leaves the process as a line (log_, --validate, the schema
 * reasons).  UTF-8 sequences pass untouched.
 */
static inline bool
gpt_is_control(unsigned char c)
{
	return c < 0x20 || c == 0x7f;
}

/* Replace each such byte of s[0..n) with '?', in place. */
static inline void
gpt_mask_controls(char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (gpt_is_control((unsigned char)s[i]))
			s[i] = '?';
}

/*
 * RFC 9110 section 5.6.2 tchar, the bytes of a token (a header name, a
 * media type's parts): ALPHA, DIGIT and !#$%&'*+-.^_`|~.  Here because the
 * HTTP parser and address.conf's GPT-Type check both need it, and neither
 * may include the other.
 */
static inline bool
gpt_is_tchar(unsigned char c)
{
	if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9'))
		return true;
	switch (c) {
	case '!': case '#': case '$': case '%': case '&': case '\'':
	case '*': case '+': case '-': case '.': case '^': case '_':
	case '`': case '|': case '~':
		return true;
	default:
		return false;
	}
}

/*
 * Milliseconds on the one monotonic clock of the program (timeouts, budgets,
 * rate limits, rechecks: all of them count whole milliseconds or more).
 * CLOCK_MONOTONIC_COARSE where it exists: the kernel's last tick, read
 * from memory without a system call, a few milliseconds behind at most.
 * clock_gettime cannot fail with these ids; 0 would only start a count
 * early.
 */
#ifdef CLOCK_MONOTONIC_COARSE
#define GPT_CLOCK CLOCK_MONOTONIC_COARSE
#else
#define GPT_CLOCK CLOCK_MONOTONIC
#endif

static inline uint64_t
gpt_now_ms(void)
{
	struct timespec ts;

	if (clock_gettime(GPT_CLOCK, &ts) == -1)
		return 0;
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

#endif /* GPT_COMMON_H */
