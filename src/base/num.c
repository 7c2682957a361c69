/*
 * num.c: decimal whole numbers from text (num.h).
 */
#include <string.h>

#include "base/num.h"

const char *
num_read(const char *text, size_t len, uint64_t min, uint64_t max,
    unsigned flags, uint64_t *out)
{
	uint64_t v = 0, d;
	bool big = false;
	size_t i;

	if (len == 0) /* hits on "" */
		return "not a number";
	for (i = 0; i < len; i++) {
		if (text[i] < '0' || text[i] > '9') /* "12a", " 5", "-1" */
			return "not a number";
		d = (uint64_t)(text[i] - '0');
		/* saturate: the rest is still read, so "99...9x" is not a
		 * number rather than too large */
		if (v > (UINT64_MAX - d) / 10)
			big = true;
		else
			v = v * 10 + d;
	}
	if ((flags & NUM_CANONICAL) && len > 1 && text[0] == '0')
		return "a leading zero"; /* hits on "05" */
	if (big || v > max)
		return "too large";
	if (v < min)
		return "too small";
	*out = v;
	return NULL;
}

const char *
num_read_str(
    const char *text, uint64_t min, uint64_t max, unsigned flags, uint64_t *out)
{
	return num_read(text, strlen(text), min, max, flags, out);
}
