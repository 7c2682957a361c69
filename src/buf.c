/*
 * buf.c: growable bytes under a maximum.  Growth doubles (amortized O(1)
 * appends) but never asks for more than max + 1 bytes.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"

void
buf_init(struct buf *b, size_t max)
{
	b->data = NULL;
	b->len = 0;
	b->size = 0;
	b->max = max < SIZE_MAX - 1 ? max : SIZE_MAX - 2;
}

char *
buf_reserve(struct buf *b, size_t n)
{
	size_t need, size;
	char *p;

	if (n > b->max - b->len)
		return NULL;
	need = b->len + n + 1;
	if (need > b->size) {
		size = b->size < 256 ? 256 : b->size;
		while (size < need)
			size = size > SIZE_MAX / 2 ? need : size * 2;
		if (size > b->max + 1)
			size = b->max + 1;
		if ((p = realloc(b->data, size)) == NULL)
			return NULL;
		b->data = p;
		b->size = size;
	}
	return b->data + b->len;
}

int
buf_append(struct buf *b, const void *p, size_t n)
{
	char *dst;

	if ((dst = buf_reserve(b, n)) == NULL)
		return -1;
	if (n > 0)
		memcpy(dst, p, n);
	b->len += n;
	b->data[b->len] = '\0';
	return 0;
}

int
buf_putc(struct buf *b, char c)
{
	return buf_append(b, &c, 1);
}

int
buf_puts(struct buf *b, const char *s)
{
	return buf_append(b, s, strlen(s));
}

int
buf_printf(struct buf *b, const char *fmt, ...)
{
	va_list ap;
	char small[256];
	char *dst;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(small, sizeof(small), fmt, ap);
	va_end(ap);
	if (n < 0)
		return -1;
	if ((size_t)n < sizeof(small))
		return buf_append(b, small, (size_t)n);
	if ((dst = buf_reserve(b, (size_t)n)) == NULL)
		return -1;
	va_start(ap, fmt);
	vsnprintf(dst, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
	return 0;
}

void
buf_reset(struct buf *b)
{
	b->len = 0;
	if (b->data != NULL)
		b->data[0] = '\0';
}

char *
buf_take(struct buf *b, size_t *len)
{
	char *p = b->data;

	if (len != NULL)
		*len = b->len;
	b->data = NULL;
	b->len = 0;
	b->size = 0;
	return p;
}

void
buf_free(struct buf *b)
{
	free(b->data);
	b->data = NULL;
	b->len = 0;
	b->size = 0;
}
