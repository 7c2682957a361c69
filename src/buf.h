/*
 * buf.h: growable bytes with a hard maximum (the body being read, the hook's
 * output, serialized JSON built once at load).
 *
 * Owns: data, from malloc.  The maximum belongs to the buffer: an append
 * that would pass it fails and leaves the buffer as it was, so no caller can
 * forget the limit.  data is always NUL-terminated after len bytes (the NUL
 * is not counted and not part of the limit), for the convenience of trusted
 * callers; untrusted bytes may contain NULs, so use len.
 */
#ifndef GPT_BUF_H
#define GPT_BUF_H

#include "common.h"

struct buf {
	char *data;  /* owned; NULL until the first append */
	size_t len;  /* bytes in use */
	size_t size; /* bytes allocated, NUL included */
	size_t max;  /* len never exceeds this */
};

/* An empty buffer that will hold at most max bytes.  No allocation. */
void buf_init(struct buf *b, size_t max);

/* Append n bytes.  0, or -1 when over max or out of memory (b unchanged). */
int buf_append(struct buf *b, const void *p, size_t n) GPT_MUSTCHECK;
int buf_putc(struct buf *b, char c) GPT_MUSTCHECK;
int buf_puts(struct buf *b, const char *s) GPT_MUSTCHECK;
int buf_printf(struct buf *b, const char *fmt, ...) GPT_PRINTF(2, 3) GPT_MUSTCHECK;

/*
 * Make room for n more bytes and return where they go (the caller then adds
 * what it wrote with b->len += written).  NULL when over max or out of memory.
 */
char *buf_reserve(struct buf *b, size_t n) GPT_MUSTCHECK;

/* Forget the contents, keep the memory. */
void buf_reset(struct buf *b);

/* Hand data to the caller (who frees it) and leave b empty. */
char *buf_take(struct buf *b, size_t *len);

void buf_free(struct buf *b);

#endif /* GPT_BUF_H */
