/*
 * fuzz_formcache.c: libFuzzer target for the form cache's reader.
 *
 * At start the target makes an address in a temporary directory (a form,
 * an address.conf with a refs directory), waits out ADDR_RACY_SEC, and
 * lets formcache_lookup load it and write its cache file: the live file,
 * whose key holds.  Each input is then a cache file handed to
 * formcache_verify for that address, both representations, in an exactly
 * sized copy (a read past its end is an ASan report).  The first byte
 * picks how the rest becomes the file (modulo 3):
 *   0  the bytes as they are (the checks before the checksums);
 *   1  the bytes with their length, answer checksums and header checksum
 *      set right where the bytes place them (the checks behind them);
 *   2  as 1, with the live key spliced in after the first 32 bytes (the
 *      ETags, the answer table and the answers).
 * A file that is accepted must be the very bytes the writer
 * (formcache_build) stores for this address with the ETags and answers
 * the reader found, but for the checksums of the representation not
 * asked for, which the reader leaves unread; the answers it hands out
 * lie within the file.  Any violation aborts.
 *
 * GPT_FUZZ_SEEDS=DIR writes the seeds made of the live file into DIR
 * (tests/data/fuzz-formcache/ holds them; their key is stale elsewhere,
 * mode 2 replaces it).
 *
 * Build: configure --enable-fuzz CC=clang; run: tests/fuzz_formcache
 * CORPUS (seeds in tests/data/fuzz-formcache/).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "site/address.h"
#include "responder/answer.h"
#include "base/buf.h"
#include "base/file.h"
#include "responder/formcache.h"
#include "base/hash.h"
#include "base/log.h"

#define FC_HEAD 32 /* magic, file length, header length, checksum */
#define FC_TABLE (4 * 32)

int LLVMFuzzerInitialize(int *argc, char ***argv);

/* The reader's warnings, one per damaged file, are not the news here. */
static void
quiet(void *ctx, const char *line, size_t len)
{
	(void)ctx;
	(void)line;
	(void)len;
}
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct addr_ref ref;
static const struct addr *loaded;
static char *live;
static size_t live_len, key_len;

static void
put_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (f == NULL || fputs(text, f) == EOF || fclose(f) != 0)
		abort();
}

static uint64_t
get64(const char *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static void
put64(char *p, uint64_t v)
{
	memcpy(p, &v, sizeof(v));
}

static void
write_seed(
    const char *dir, const char *name, char mode, const char *p, size_t n)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if ((f = fopen(path, "wb")) == NULL || fputc(mode, f) == EOF ||
	    fwrite(p, 1, n, f) != n || fclose(f) != 0)
		abort();
}

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	char root[] = "/tmp/gpt-fuzz-formcache-XXXXXX";
	char path[PATH_MAX + 64], why[FILE_WHY_MAX];
	const char *reason, *seeds = getenv("GPT_FUZZ_SEEDS");
	struct buf b;
	uint64_t hlen;

	(void)argc;
	(void)argv;
	log_set_sink(quiet, NULL);
	if (mkdtemp(root) == NULL)
		abort();
	snprintf(path, sizeof(path), "%s/cache", root);
	if (mkdir(path, 0700) == -1 || setenv("GPT_FORM_CACHE", path, 1) != 0)
		abort();
	snprintf(ref.dir, sizeof(ref.dir), "%s/a", root);
	snprintf(path, sizeof(path), "%s/a/defs", root);
	if (mkdir(ref.dir, 0700) == -1 || mkdir(path, 0700) == -1)
		abort();
	snprintf(path, sizeof(path), "%s/a/form.json", root);
	put_file(path, "{\"p\": \"A form.\", \"m\": [], \"s\": {\"type\": "
	               "\"object\", \"properties\": {\"n\": {\"$ref\": "
	               "\"https://example.com/defs/name.json\"}}}}\n");
	snprintf(path, sizeof(path), "%s/a/address.conf", root);
	put_file(path, "refs = https://example.com/defs/=defs\n");
	snprintf(path, sizeof(path), "%s/a/defs/name.json", root);
	put_file(path, "{\"type\": \"string\", \"maxLength\": 10}\n");
	/* a file changed within ADDR_RACY_SEC is not cached */
	sleep(ADDR_RACY_SEC + 1);
	formcache_configure();
	loaded = formcache_lookup(
	    &ref, true, false, answer_build, answer_build_acts, &reason);
	if (loaded == NULL || !loaded->ok ||
	    formcache_path(ref.dir, path, sizeof(path)) == -1)
		abort();
	buf_init(&b, FORMCACHE_FILE_MAX);
	if (file_read_buf(path, &b, why, sizeof(why)) == -1)
		abort();
	live = buf_take(&b, &live_len);
	if (live == NULL || live_len < FC_HEAD)
		abort();
	hlen = get64(live + 16);
	key_len = (size_t)hlen - FC_HEAD - 2 * HTTP_ETAG_MAX - FC_TABLE;
	if (seeds != NULL) {
		write_seed(seeds, "live-raw", 0, live, live_len);
		write_seed(seeds, "live-fixed", 1, live, live_len);
		/* mode 2: the file without its key */
		buf_reset(&b);
		if (buf_append(&b, live, FC_HEAD) == -1 ||
		    buf_append(&b, live + FC_HEAD + key_len,
		        live_len - FC_HEAD - key_len) == -1)
			abort();
		write_seed(seeds, "live-spliced", 2, buf_ptr(&b), buf_len(&b));
	}
	buf_free(&b);
	return 0;
}

static void
check_accepted(const char *f, size_t n, const struct answer_set *hit, bool html)
{
	const struct answer *ans[4] = {
	    &hit->json, &hit->json_304, &hit->html, &hit->html_304};
	struct addr again = *loaded;
	struct answer_set set = *answer_of(loaded);
	struct timespec now;
	struct buf b;
	uint64_t hlen = get64(f + 16);
	unsigned i;

	for (i = 0; i < 4; i++)
		if (ans[i]->bytes < f || ans[i]->len > n ||
		    ans[i]->bytes - f > (ptrdiff_t)(n - ans[i]->len) ||
		    ans[i]->head_len > ans[i]->len)
			abort();
	memcpy(set.etag, hit->etag, HTTP_ETAG_MAX);
	memcpy(set.html_etag, hit->html_etag, HTTP_ETAG_MAX);
	set.json = hit->json;
	set.json_304 = hit->json_304;
	set.html = hit->html;
	set.html_304 = hit->html_304;
	again.derived = &set;
	clock_gettime(CLOCK_REALTIME, &now);
	buf_init(&b, FORMCACHE_FILE_MAX);
	if (formcache_build(&again, &now, &b) == -1 || buf_len(&b) != n ||
	    hlen < FC_HEAD + FC_TABLE || hlen > n)
		abort();
	/* the checksums the reader does not read are taken as they are */
	for (i = html ? 0 : 2; i < (html ? 2u : 4u); i++) {
		size_t at = (size_t)hlen - FC_TABLE + i * 32 + 24;

		memcpy(buf_data(&b) + at, f + at, 8);
	}
	/* which leaves the header's own checksum to differ only then */
	put64(buf_data(&b) + 24,
	    formcache_sum(buf_data(&b) + FC_HEAD, (size_t)hlen - FC_HEAD));
	if (memcmp(buf_ptr(&b), f, n) != 0)
		abort();
	buf_free(&b);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct answer_set hit;
	size_t n;
	char *f;
	int mode;
	bool html;

	if (size == 0)
		return 0;
	mode = data[0] % 3;
	data++;
	size--;
	n = size;
	if (mode == 2 && size >= FC_HEAD)
		n = size + key_len;
	if ((f = malloc(n > 0 ? n : 1)) == NULL)
		return 0;
	if (mode == 2 && size >= FC_HEAD) {
		memcpy(f, data, FC_HEAD);
		memcpy(f + FC_HEAD, live + FC_HEAD, key_len);
		memcpy(f + FC_HEAD + key_len, data + FC_HEAD, size - FC_HEAD);
	} else if (size > 0)
		memcpy(f, data, size);
	if (mode != 0)
		formcache_seal(f, n);
	for (html = false;; html = true) {
		if (formcache_verify(f, n, ref.dir, html, &hit))
			check_accepted(f, n, &hit, html);
		if (html)
			break;
	}
	free(f);
	return 0;
}
