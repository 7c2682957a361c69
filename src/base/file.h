/*
 * file.h: read a whole file under a size cap (form.json, address.conf, a
 * $ref'd schema file, a command-line input), once, for every caller.
 *
 * Owns nothing: the bytes go into the caller's buf or arena.
 * By path: the file is opened O_NOFOLLOW | O_NONBLOCK (a symbolic link in
 * the last component is refused, and opening a FIFO does not wait for a
 * writer), must be a regular file (fstat after open, so no race with the
 * name), at most the cap by its size, and the same size when read to the
 * end: a file that grows or shrinks while read is refused rather than half
 * taken.  read() is retried on EINTR.  By descriptor (standard input): any
 * kind of file, read to EOF, refused when it passes the cap.
 *
 * Errors: -1, errno says which (the phrase for the log is in why):
 *   ENOENT  the file does not exist (callers often treat that apart)
 *   ELOOP   the path is a symbolic link
 *   EINVAL  not a regular file (a directory, FIFO, device, socket)
 *   EFBIG   larger than the cap
 *   EAGAIN  the size changed while it was read
 *   ENOMEM  out of memory; anything else: open(2), fstat(2), read(2).
 * The destination is then as it was (a buf's length, an arena's contents).
 */
#ifndef GPT_FILE_H
#define GPT_FILE_H

#include "base/common.h"

struct arena;
struct buf;

/* Room for any reason file_ writes (with the cap's digits). */
#define FILE_WHY_MAX 96

/*
 * Append the regular file at path to out; the cap is buf_max(out) minus what
 * out holds already.  why: FILE_WHY_MAX bytes, filled on failure.
 */
int file_read_buf(const char *path, struct buf *out, char *why, size_t whylen)
    GPT_MUSTCHECK;

/*
 * Read the regular file at path, at most max bytes, into a copy in a (NUL
 * after len bytes, the NUL not counted) and point *text at it.  *text and
 * *len are untouched on failure.
 */
int file_read_arena(const char *path, size_t max, struct arena *a,
    const char **text, size_t *len, char *why, size_t whylen) GPT_MUSTCHECK;

/* Append what fd gives until EOF (any kind of file) to out, under its max. */
int file_read_fd(int fd, struct buf *out, char *why, size_t whylen)
    GPT_MUSTCHECK;

#endif /* GPT_FILE_H */
