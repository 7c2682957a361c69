/*
 * fuzz_json.c: libFuzzer target for the strict parser and the serializer.
 *
 * Each input is parsed from an exactly sized copy under a small arena cap
 * (so the NOMEM paths run too) and a low depth limit, and again by
 * json_parse_padded from a copy followed by exactly JSON_PAD zeros: the
 * two must give the same code, message and offset, or trees that
 * serialize alike.  A rejection must name a code and an offset within
 * the input.  An accepted tree must
 * hold no duplicate names and answer json_object_get for each member; it
 * is serialized, the output parsed again and serialized again: the two
 * serializations must be the same bytes, and the second parse must accept.
 * Any violation aborts, which libFuzzer reports as a crash.
 *
 * Build: configure --enable-fuzz CC=clang; run: tests/fuzz_json CORPUS
 * (seeds in tests/data/fuzz-json/).
 */
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "base/buf.h"
#include "parser/json.h"

#define FUZZ_ARENA_CAP ((size_t)256 * 1024)
#define FUZZ_DEPTH 64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/*
 * The accepted tree, checked the slow way: no object holds two equal
 * names (pairwise comparison), and json_object_get finds every member
 * (the hash index of large objects included).  Recursion is fine here:
 * the tree is at most FUZZ_DEPTH deep.
 */
static void
check_tree(const struct json_value *v)
{
	size_t i, j;

	if (v->type == JSON_T_ARRAY) {
		for (i = 0; i < v->u.arr.count; i++)
			check_tree(&v->u.arr.items[i]);
		return;
	}
	if (v->type != JSON_T_OBJECT)
		return;
	for (i = 0; i < v->u.obj.count; i++) {
		const struct json_string *k = &v->u.obj.members[i].key;

		for (j = 0; j < i; j++) {
			const struct json_string *o = &v->u.obj.members[j].key;

			if (o->len == k->len &&
			    memcmp(o->ptr, k->ptr, k->len) == 0)
				abort();
		}
		if (json_object_get(v, k->ptr, k->len) !=
		    &v->u.obj.members[i].value)
			abort();
		check_tree(&v->u.obj.members[i].value);
	}
}

/* Serialize v (compact, or indented when indent > 0) into a fresh buf. */
static void
write_or_abort(const struct json_value *v, unsigned indent, struct buf *b)
{
	buf_init(b, (size_t)64 << 20);
	if ((indent ? json_write_pretty(v, indent, b) : json_write(v, b)) != 0)
		abort();
}

/* json_parse_padded's answer must be json_parse's: rc and err, and v,
 * the tree json_parse built, when it accepted. */
static void
same_when_padded(const uint8_t *data, size_t size, enum json_errcode rc,
    const struct json_err *err, const struct json_value *v)
{
	char *padded = calloc(1, size + JSON_PAD);
	const struct json_value *w = NULL;
	struct json_err perr;
	struct arena a;
	struct buf b1, b2;

	if (padded == NULL)
		return;
	if (size > 0)
		memcpy(padded, data, size);
	arena_init(&a, FUZZ_ARENA_CAP);
	if (json_parse_padded(padded, size, &a, FUZZ_DEPTH, &w, &perr) != rc ||
	    perr.code != err->code || perr.offset != err->offset ||
	    strcmp(perr.msg, err->msg) != 0)
		abort();
	if (rc == JSON_OK) {
		write_or_abort(v, 0, &b1);
		write_or_abort(w, 0, &b2);
		if (buf_len(&b1) != buf_len(&b2) ||
		    memcmp(buf_ptr(&b1), buf_ptr(&b2), buf_len(&b1)) != 0)
			abort();
		buf_free(&b2);
		buf_free(&b1);
	} else if (w != NULL) {
		abort();
	}
	arena_free(&a);
	free(padded);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct arena a, a2;
	const struct json_value *v = NULL, *w = NULL;
	struct json_err err;
	struct buf b1, b2, bp;
	char *copy = malloc(size ? size : 1);

	if (copy == NULL)
		return 0;
	if (size > 0)
		memcpy(copy, data, size);
	arena_init(&a, FUZZ_ARENA_CAP);
	arena_init(&a2, (size_t)64 << 20);
	if (json_parse(copy, size, &a, FUZZ_DEPTH, &v, &err) != JSON_OK) {
		if (v != NULL || err.code == JSON_OK || err.msg == NULL ||
		    err.offset > size)
			abort();
		same_when_padded(data, size, err.code, &err, NULL);
		goto done;
	}
	same_when_padded(data, size, JSON_OK, &err, v);
	if (v == NULL || err.code != JSON_OK)
		abort();
	check_tree(v);
	write_or_abort(v, 0, &b1);
	if (json_parse(buf_ptr(&b1), buf_len(&b1), &a2, FUZZ_DEPTH, &w, &err) !=
	    JSON_OK)
		abort();
	write_or_abort(w, 0, &b2);
	if (buf_len(&b1) != buf_len(&b2) ||
	    memcmp(buf_ptr(&b1), buf_ptr(&b2), buf_len(&b1)) != 0)
		abort();
	/* The indented form must say the same thing. */
	write_or_abort(v, 2, &bp);
	arena_reset(&a2);
	if (json_parse(buf_ptr(&bp), buf_len(&bp), &a2, FUZZ_DEPTH, &w, &err) !=
	    JSON_OK)
		abort();
	buf_reset(&b2);
	if (json_write(w, &b2) != 0 || buf_len(&b1) != buf_len(&b2) ||
	    memcmp(buf_ptr(&b1), buf_ptr(&b2), buf_len(&b1)) != 0)
		abort();
	buf_free(&bp);
	buf_free(&b2);
	buf_free(&b1);
done:
	arena_free(&a2);
	arena_free(&a);
	free(copy);
	return 0;
}
