/*
 * format.h: the `format` names gpt.fcgi enforces, one checker each.
 *
 * Every name of the JSON Schema 2020-12 / v1 format vocabulary, plus
 * OpenAPI's int32, int64, float, double, byte, binary and password, is
 * asserted (the contract makes `format` a constraint: a form that says
 * "email" and accepted anything would widen what the operator published).
 * Each checker decides one value exactly as the RFC its name points to
 * says; format.c names the section beside each rule and the README lists
 * what each covers.
 *
 * A checker takes the value's bytes, (pointer, length), valid UTF-8 for a
 * string (the JSON parser saw to it) or the JSON number text for a
 * number, and answers true (conforms) or false.  It never reads past the
 * length, keeps no state, and uses no backtracking regex.  Checkers
 * allocate nothing, with one bounded exception: the IDN checks hand each
 * non-ASCII or "xn--" label (at most 255 bytes) to libidn2, which mallocs and
 * frees inside the call.
 */
#ifndef GPT_FORMAT_H
#define GPT_FORMAT_H

#include "base/common.h"
#include "parser/re_tree.h"

/* What a format name applies to; every other instance type passes. */
enum format_applies {
	FORMAT_STRINGS, /* the 2020-12 names, byte, binary, password */
	FORMAT_NUMBERS  /* int32, int64, float, double */
};

/* true when the value conforms. */
typedef bool (*format_check_fn)(const char *p, size_t len);

struct format {
	const char *name;
	/* NULL for the names that are annotations by definition (binary
	 * and password: any string) */
	format_check_fn check;
	enum format_applies applies;
	/* FORMAT_NUMBERS: every integer in [imin, imax] conforms (int32's
	 * range; all of int64 for the others), so the planner may accept
	 * such a number without calling check */
	int64_t imin, imax;
};

/* The longest accepted `regex` value, in bytes (re_tree_is_valid_syntax). */
#define FORMAT_REGEX_MAX RE_TREE_SYNTAX_MAX

/*
 * The format called name (len bytes), or NULL when gpt.fcgi does not
 * know it (the compiler then refuses the form).  The entry is static.
 */
const struct format *format_lookup(const char *name, size_t len);

/* The i-th known format (0-based), or NULL past the last: for --check and
 * the page's controls. */
const struct format *format_at(size_t i);

#endif /* GPT_FORMAT_H */
