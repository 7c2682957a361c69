/*
 * buf.h: growable bytes with a hard maximum (the body being read, the hook's
 * output, serialized JSON built once at load).
 *
 * Owns: data, from malloc.  The maximum belongs to the buffer (curl's dynbuf
 * "toobig"): an append that would pass it fails and leaves the buffer as it
 * was, so no caller can forget the limit.  data is always NUL-terminated
 * after len bytes (the NUL is not counted and not part of the limit), for the
 * convenience of trusted callers; untrusted bytes may contain NULs, so use
 * buf_len().
 *
 * Callers use only the functions below, never the fields: the fields are in
 * the header so a buffer can live on the stack or inside another struct.
 *
 * Errors: every function that can fail returns -1 (or NULL) and leaves the
 * buffer unchanged, with errno = EMSGSIZE when the maximum would be passed
 * and ENOMEM when malloc refuses.  Not thread-safe.
 */
#ifndef GPT_BUF_H
#define GPT_BUF_H

#include <stdarg.h>

#include "base/common.h"

/* The fields are buf.c's alone (the trailing _ makes a caller that pokes
 * one fail to compile): everyone else uses the functions below. */
struct buf {
	char *data_;  /* owned; NULL until the first append */
	size_t len_;  /* bytes in use */
	size_t size_; /* bytes allocated, NUL included */
	size_t max_;  /* len never exceeds this */
};

/* An empty buffer that will hold at most max bytes.  No allocation. */
void buf_init(struct buf *b, size_t max);

/* Append n bytes.  0, or -1 when over max or out of memory (b unchanged). */
int buf_append(struct buf *b, const void *p, size_t n) GPT_MUSTCHECK;
int buf_putc(struct buf *b, char c) GPT_MUSTCHECK;
int buf_puts(struct buf *b, const char *s) GPT_MUSTCHECK;
int buf_printf(struct buf *b, const char *fmt, ...)
    GPT_PRINTF(2, 3) GPT_MUSTCHECK;
int buf_vprintf(struct buf *b, const char *fmt, va_list ap)
    GPT_PRINTF(2, 0) GPT_MUSTCHECK;

/*
 * Make room for n more bytes and return where they go; the caller writes at
 * most n bytes there and then adds what it wrote with buf_commit().  NULL
 * when over max or out of memory (b unchanged).  The pointer is valid until
 * the next call that may grow or free b.
 */
char *buf_reserve(struct buf *b, size_t n) GPT_MUSTCHECK;

/*
 * Count n bytes written at buf_reserve()'s pointer as appended (n at most
 * what was reserved) and terminate them.
 */
void buf_commit(struct buf *b, size_t n);

/*
 * Make the n bytes after the contents (the NUL first) zeros that may be
 * read, for a reader that loads past the end in wide steps
 * (json_parse_padded).  They are not counted, nor held to the maximum,
 * and any later change to b may drop them: pad right before reading.
 * 0, or -1 with errno = ENOMEM (b unchanged but for zeros past the end).
 */
int buf_pad(struct buf *b, size_t n) GPT_MUSTCHECK;

/*
 * Drop everything after the first len bytes (give back a partial append).
 * 0, or -1 with errno = EINVAL when len is more than buf_len() (b unchanged):
 * a rollback to a length taken from buf_len() earlier cannot fail.
 */
int buf_trunc(struct buf *b, size_t len);

/*
 * Keep only the last len bytes, moved to the front (consume what was
 * handled from the head of a stream).  0, or -1 with errno = EINVAL when len
 * is more than buf_len() (b unchanged).
 */
int buf_tail(struct buf *b, size_t len) GPT_MUSTCHECK;

/* Forget the contents, keep the memory. */
void buf_reset(struct buf *b);

/*
 * Forget the contents and hold at most max bytes from now on (a buffer
 * reused for inputs with different limits), keeping the memory.
 */
void buf_reset_max(struct buf *b, size_t max);

/* Hand data to the caller (who frees it) and leave b empty. */
char *buf_take(struct buf *b, size_t *len);

/* Free the memory and leave b empty, with its maximum, ready for reuse. */
void buf_free(struct buf *b);

/* Bytes in use. */
static inline size_t
buf_len(const struct buf *b)
{
	return b->len_;
}

/* The contents, NUL-terminated; "" (never NULL) before the first append. */
static inline const char *
buf_ptr(const struct buf *b)
{
	return b->data_ != NULL ? b->data_ : "";
}

/*
 * The contents for writing in place (an env array pointing into them); NULL
 * before the first append.
 */
static inline char *
buf_data(struct buf *b)
{
	return b->data_;
}

/* The maximum, and how many bytes may still be appended. */
static inline size_t
buf_max(const struct buf *b)
{
	return b->max_;
}

static inline size_t
buf_room(const struct buf *b)
{
	return b->max_ - b->len_;
}

/* Bytes allocated (to decide whether a reused buffer keeps its memory). */
static inline size_t
buf_held(const struct buf *b)
{
	return b->size_;
}

#endif /* GPT_BUF_H */
