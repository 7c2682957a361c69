/*
 * fuzz_task.c: libFuzzer target for what a request gives the long-running
 * acts: the task id of ?task= (store_id_parse), the Idempotency-Key header
 * (idem_header), and what a damaged store file gives a reader
 * (taskrec_parse_head, store_expiry).
 *
 * Checks: an id that parses is 32 hex digits and writes back the same in
 * lowercase; a key that is accepted is 1 to IDEM_KEY_MAX bytes inside the
 * header, without control bytes; a header that parses points inside the
 * input.  Any violation aborts.
 *
 * Build: configure --enable-fuzz CC=clang; run: tests/fuzz_task CORPUS.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "responder/idem.h"
#include "site/store.h"
#include "site/taskrec.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned char id[STORE_ID_BYTES];
	char hex[STORE_ID_HEX + 1], *env;
	struct taskrec_head h;
	struct idem k;
	char *envp[2];
	size_t i;

	if (store_id_parse((const char *)data, size, id) == 0) {
		if (size != STORE_ID_HEX)
			abort();
		store_id_hex(id, hex);
		for (i = 0; i < STORE_ID_HEX; i++)
			if (hex[i] != tolower(data[i]))
				abort();
	}
	if (taskrec_parse_head((const char *)data, size, &h) == 0 &&
	    h.doc_off > size)
		abort();
	(void)store_expiry((const char *)data, size);

	/* the header as a CGI variable: up to the first NUL */
	env = malloc(size + 22);
	if (env == NULL)
		return 0;
	memcpy(env, "HTTP_IDEMPOTENCY_KEY=", 21);
	memcpy(env + 21, data, size);
	env[21 + size] = '\0';
	envp[0] = env;
	envp[1] = NULL;
	if (idem_header(envp, &k) == 0 && k.key != NULL) {
		if (k.key_len == 0 || k.key_len > IDEM_KEY_MAX ||
		    k.key < env + 21 || k.key + k.key_len > env + 21 + size)
			abort();
		for (i = 0; i < k.key_len; i++)
			if ((unsigned char)k.key[i] < 0x20 || k.key[i] == 0x7f)
				abort();
	}
	idem_release(&k);
	free(env);
	return 0;
}
