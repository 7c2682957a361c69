/*
 * buf.c: growable bytes under a maximum.  Growth doubles (amortized O(1)
 * appends) but never asks for more than max + 1 bytes.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"

/* Keep max + 1 (the NUL) representable. */
static size_t
buf_clamp(size_t max)
{
	return max < SIZE_MAX - 1 ? max : SIZE_MAX - 2;
}

void
buf_init(struct buf *b, size_t max)
{
	b->data_ = NULL;
	b->len_ = 0;
	b->size_ = 0;
	b->max_ = buf_clamp(max);
}

char *
buf_reserve(struct buf *b, size_t n)
{
	size_t need, size;
	char *p;

	if (n > b->max_ - b->len_) {
		errno = EMSGSIZE;
		return NULL;
	}
	need = b->len_ + n + 1;
	if (need > b->size_) {
		size = b->size_ < 256 ? 256 : b->size_;
		while (size < need)
			size = size > SIZE_MAX / 2 ? need : size * 2;
		if (size > b->max_ + 1)
			size = b->max_ + 1;
		if ((p = realloc(b->data_, size)) == NULL) {
			errno = ENOMEM;
			return NULL;
		}
		b->data_ = p;
		b->size_ = size;
	}
	return b->data_ + b->len_;
}

void
buf_commit(struct buf *b, size_t n)
{
	if (n == 0 && b->data_ == NULL)
		return;
	/* A caller that wrote past its reservation has already overrun. */
	if (b->data_ == NULL || n >= b->size_ - b->len_)
		abort();
	b->len_ += n;
	b->data_[b->len_] = '\0';
}

int
buf_pad(struct buf *b, size_t n)
{
	size_t need;
	char *p;

	if (n == 0)
		return 0;
	if (n > SIZE_MAX - b->len_) {
		errno = ENOMEM;
		return -1;
	}
	need = b->len_ + n;
	if (need > b->size_) {
		/* past max + 1 when the contents are at the maximum: the pad
		 * is not contents, and buf_reserve never grows a buffer that
		 * is already over what max admits */
		if ((p = realloc(b->data_, need)) == NULL) {
			errno = ENOMEM;
			return -1;
		}
		b->data_ = p;
		b->size_ = need;
	}
	memset(b->data_ + b->len_, 0, n);
	return 0;
}

int
buf_append(struct buf *b, const void *p, size_t n)
{
	char *dst;

	if ((dst = buf_reserve(b, n)) == NULL)
		return -1;
	if (n > 0)
		memcpy(dst, p, n);
	buf_commit(b, n);
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
buf_vprintf(struct buf *b, const char *fmt, va_list ap)
{
	va_list again;
	char small[256];
	char *dst;
	int n;

	va_copy(again, ap);
	n = vsnprintf(small, sizeof(small), fmt, ap);
	if (n < 0) {
		va_end(again);
		return -1;
	}
	if ((size_t)n < sizeof(small)) {
		va_end(again);
		return buf_append(b, small, (size_t)n);
	}
	if ((dst = buf_reserve(b, (size_t)n)) == NULL) {
		va_end(again);
		return -1;
	}
	vsnprintf(dst, (size_t)n + 1, fmt, again);
	va_end(again);
	buf_commit(b, (size_t)n);
	return 0;
}

int
buf_printf(struct buf *b, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = buf_vprintf(b, fmt, ap);
	va_end(ap);
	return rc;
}

int
buf_trunc(struct buf *b, size_t len)
{
	if (len > b->len_) {
		errno = EINVAL;
		return -1;
	}
	b->len_ = len;
	if (b->data_ != NULL)
		b->data_[len] = '\0';
	return 0;
}

int
buf_tail(struct buf *b, size_t len)
{
	if (len > b->len_) {
		errno = EINVAL;
		return -1;
	}
	if (len < b->len_) {
		memmove(b->data_, b->data_ + (b->len_ - len), len);
		b->len_ = len;
		b->data_[len] = '\0';
	}
	return 0;
}

void
buf_reset(struct buf *b)
{
	b->len_ = 0;
	if (b->data_ != NULL)
		b->data_[0] = '\0';
}

void
buf_reset_max(struct buf *b, size_t max)
{
	buf_reset(b);
	b->max_ = buf_clamp(max);
}

char *
buf_take(struct buf *b, size_t *len)
{
	char *p = b->data_;

	if (len != NULL)
		*len = b->len_;
	b->data_ = NULL;
	b->len_ = 0;
	b->size_ = 0;
	return p;
}

void
buf_free(struct buf *b)
{
	free(b->data_);
	b->data_ = NULL;
	b->len_ = 0;
	b->size_ = 0;
}
