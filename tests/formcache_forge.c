/*
 * formcache_forge.c: what an attacker who runs as the CGI user can do to
 * a form cache file, for tests/compiled.sh: replace every occurrence of
 * OLD in FILE by NEW (the same length) and set the file's checksums right
 * again (formcache_seal: the checksum's key is in the source), in place.
 *
 *   formcache_forge FILE OLD NEW
 *
 * Exit 0 when at least one occurrence was replaced and the file written,
 * 1 otherwise.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/file.h"
#include "responder/formcache.h"

int
main(int argc, char **argv)
{
	char why[FILE_WHY_MAX], *bytes, *p;
	size_t len, n, replaced = 0;
	struct buf b;
	FILE *f;

	if (argc != 4 || strlen(argv[2]) != strlen(argv[3]) ||
	    (n = strlen(argv[2])) == 0) {
		fputs("usage: formcache_forge FILE OLD NEW (as long)\n", stderr);
		return 1;
	}
	buf_init(&b, FORMCACHE_FILE_MAX);
	if (file_read_buf(argv[1], &b, why, sizeof(why)) == -1) {
		fprintf(stderr, "formcache_forge: %s: %s\n", argv[1], why);
		return 1;
	}
	bytes = buf_take(&b, &len);
	buf_free(&b);
	/* bounded by len: each step moves past one occurrence */
	for (p = bytes; bytes != NULL && len >= n &&
	                (p = memmem(p, len - (size_t)(p - bytes), argv[2], n)) !=
	                    NULL;
	     p += n, replaced++)
		memcpy(p, argv[3], n);
	if (replaced == 0) {
		fprintf(stderr, "formcache_forge: %s: no %s\n", argv[1], argv[2]);
		free(bytes);
		return 1;
	}
	formcache_seal(bytes, len);
	/* in place: the file keeps its owner and its mode */
	if ((f = fopen(argv[1], "r+")) == NULL ||
	    fwrite(bytes, 1, len, f) != len || fclose(f) != 0) {
		perror(argv[1]);
		free(bytes);
		return 1;
	}
	free(bytes);
	return 0;
}
