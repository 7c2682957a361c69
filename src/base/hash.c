/*
 * hash.c: SipHash-1-3 and the process key.
 *
 * SipHash, as the paper defines it: the state is four 64-bit words
 * initialised from the key and four constants ("somepseudorandomlygenerat
 * edbytes"); the message is read as little-endian 64-bit words, the last
 * one padded with zeros and carrying the length mod 256 in its top byte;
 * each word m is absorbed as v3 ^= m, c SipRounds, v0 ^= m; then v2 ^=
 * 0xff, d SipRounds, and the output is v0 ^ v1 ^ v2 ^ v3.  Here c = 1 and
 * d = 3.
 *
 * The key source is tried in order, each failure defined: getrandom(2)
 * without blocking (EINTR retried, short reads continued; EAGAIN before
 * the kernel's pool is ready, ENOSYS on old kernels, anything else: next
 * source), /dev/urandom read to the end of the key (same rules), and last
 * a key mixed from both clocks, the pid, a call counter and the addresses
 * of a stack and a static object (ASLR), logged, so that no two processes
 * share a key by default even then.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#if defined(__has_include)
#if __has_include(<sys/random.h>)
#include <sys/random.h>
#define HASH_HAVE_GETRANDOM 1
#endif
#endif

#include "base/hash.h"
#include "base/log.h"

#define SIP_C0 0x736f6d6570736575ull /* "somepseu" */
#define SIP_C1 0x646f72616e646f6dull /* "dorandom" */
#define SIP_C2 0x6c7967656e657261ull /* "lygenera" */
#define SIP_C3 0x7465646279746573ull /* "tedbytes" */

static struct hash_key process_key;
static bool process_key_ready;

static inline uint64_t
rotl(uint64_t x, unsigned b)
{
	return (x << b) | (x >> (64 - b));
}

/* One SipRound (the paper's figure 2: two ARX half-rounds). */
#define SIPROUND(v0, v1, v2, v3)                                               \
	do {                                                                   \
		v0 += v1;                                                      \
		v1 = rotl(v1, 13);                                             \
		v1 ^= v0;                                                      \
		v0 = rotl(v0, 32);                                             \
		v2 += v3;                                                      \
		v3 = rotl(v3, 16);                                             \
		v3 ^= v2;                                                      \
		v0 += v3;                                                      \
		v3 = rotl(v3, 21);                                             \
		v3 ^= v0;                                                      \
		v2 += v1;                                                      \
		v1 = rotl(v1, 17);                                             \
		v1 ^= v2;                                                      \
		v2 = rotl(v2, 32);                                             \
	} while (0)

/* The n bytes at p (n <= 8; a constant, so that the copy is one load) as
 * a little-endian word, whatever the host's order. */
static inline uint64_t
load_le(const unsigned char *p, size_t n)
{
	uint64_t w = 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	memcpy(&w, p, n);
#else
	while (n-- > 0)
		w = w << 8 | p[n];
#endif
	return w;
}

/*
 * The last 0 to 7 bytes at p as the low bytes of a word, with two
 * branches instead of one per length (names of every length alternate,
 * so a switch mispredicts): 4 to 7 bytes are two overlapping 4-byte
 * loads, 1 to 3 bytes the first, middle and last byte, which together
 * are every byte; overlapping bytes are equal, so OR-ing them is exact.
 */
static inline uint64_t
load_tail(const unsigned char *p, size_t n)
{
	if (n >= 4)
		return load_le(p, 4) | load_le(p + n - 4, 4) << (8 * (n - 4));
	if (n == 0)
		return 0;
	return (uint64_t)p[0] | (uint64_t)p[n / 2] << (8 * (n / 2)) |
	    (uint64_t)p[n - 1] << (8 * (n - 1));
}

/* Absorb the last word m (the length byte and the tail), then finalize:
 * what the one-shot and the incremental hash share. */
static inline uint64_t
sip_final(uint64_t v0, uint64_t v1, uint64_t v2, uint64_t v3, uint64_t m)
{
	v3 ^= m;
	SIPROUND(v0, v1, v2, v3);
	v0 ^= m;
	v2 ^= 0xff;
	SIPROUND(v0, v1, v2, v3);
	SIPROUND(v0, v1, v2, v3);
	SIPROUND(v0, v1, v2, v3);
	return v0 ^ v1 ^ v2 ^ v3;
}

uint64_t
hash_sip13(const struct hash_key *key, const void *p, size_t n)
{
	const unsigned char *s = p;
	uint64_t v0 = key->k0 ^ SIP_C0, v1 = key->k1 ^ SIP_C1;
	uint64_t v2 = key->k0 ^ SIP_C2, v3 = key->k1 ^ SIP_C3;
	uint64_t m;
	size_t left = n;

	for (; left >= 8; s += 8, left -= 8) {
		m = load_le(s, 8);
		v3 ^= m;
		SIPROUND(v0, v1, v2, v3);
		v0 ^= m;
	}
	m = (uint64_t)(n & 0xff) << 56 | load_tail(s, left);
	return sip_final(v0, v1, v2, v3, m);
}

/* ---- the process key ------------------------------------------------- */

/* Fill n bytes at p from a read-like source: 0, or -1 when it fails or
 * gives nothing.  EINTR is retried and short reads are continued; the
 * attempts are bounded, so a source that keeps giving 0 bytes ends it. */
static int
fill_from(int (*rd)(void *ctx, unsigned char *p, size_t n), void *ctx,
    unsigned char *p, size_t n)
{
	size_t got = 0;
	unsigned tries = 0;

	while (got < n) {
		int r;

		if (++tries > 64)
			return -1;
		r = rd(ctx, p + got, n - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		got += (size_t)r;
	}
	return 0;
}

static long
sys_getrandom(void *p, size_t n, unsigned flags)
{
#ifdef HASH_HAVE_GETRANDOM
	return (long)getrandom(p, n, flags);
#else
	(void)p;
	(void)n;
	(void)flags;
	errno = ENOSYS;
	return -1;
#endif
}

static int
rd_getrandom(void *ctx, unsigned char *p, size_t n)
{
#ifdef GRND_NONBLOCK
	/* never wait for the pool at early boot: /dev/urandom is next */
	unsigned flags = GRND_NONBLOCK;
#else
	unsigned flags = 0;
#endif
	return (int)(*(hash_rnd_fn *)ctx)(p, n, flags);
}

static int
rd_fd(void *ctx, unsigned char *p, size_t n)
{
	return (int)read(*(int *)ctx, p, n);
}

/* The last resort: not secret against a local observer, but different
 * for every process and every run. */
static void
key_from_clocks(struct hash_key *out)
{
	static unsigned long counter;
	static const struct hash_key mixer = {0x0123456789abcdefull,
	    0xfedcba9876543210ull};
	struct {
		struct timespec rt, mono;
		pid_t pid;
		unsigned long n;
		uintptr_t stack, global, code;
	} seed;

	memset(&seed, 0, sizeof(seed));
	clock_gettime(CLOCK_REALTIME, &seed.rt);
	clock_gettime(CLOCK_MONOTONIC, &seed.mono);
	seed.pid = getpid();
	seed.n = ++counter;
	seed.stack = (uintptr_t)&seed;
	seed.global = (uintptr_t)&counter;
	seed.code = (uintptr_t)&key_from_clocks;
	out->k0 = hash_sip13(&mixer, &seed, sizeof(seed));
	seed.n = ++counter;
	out->k1 = hash_sip13(&mixer, &seed, sizeof(seed));
}

/*
 * Fill *out from rnd (getrandom's signature), else the file urandom_path,
 * else the clocks.  0, 1 or 2: which source gave the key.
 */
GPT_TESTABLE int
hash_key_from(struct hash_key *out, hash_rnd_fn rnd, const char *urandom_path)
{
	unsigned char k[16];
	int fd, source = 0;

	if (fill_from(rd_getrandom, &rnd, k, sizeof(k)) == -1) {
		source = 1;
		fd = open(urandom_path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
		if (fd < 0 || fill_from(rd_fd, &fd, k, sizeof(k)) == -1)
			source = 2;
		if (fd >= 0)
			close(fd);
	}
	if (source == 2) {
		log_warn("no random source (getrandom, %s): the hash key is "
			 "taken from the clocks and the pid",
		    urandom_path);
		key_from_clocks(out);
		return 2;
	}
	memcpy(&out->k0, k, 8);
	memcpy(&out->k1, k + 8, 8);
	return source;
}

void
hash_init(void)
{
	if (process_key_ready)
		return;
	(void)hash_key_from(&process_key, sys_getrandom, "/dev/urandom");
	process_key_ready = true;
}

uint64_t
hash_bytes(const void *p, size_t n)
{
	if (!process_key_ready)
		hash_init();
	return hash_sip13(&process_key, p, n);
}

/* ---- incremental ------------------------------------------------------ */

void
hash_begin(struct hash_state *st, uint64_t domain)
{
	if (!process_key_ready)
		hash_init();
	st->v0 = (process_key.k0 ^ domain) ^ SIP_C0;
	st->v1 = process_key.k1 ^ SIP_C1;
	st->v2 = (process_key.k0 ^ domain) ^ SIP_C2;
	st->v3 = process_key.k1 ^ SIP_C3;
	st->tail = 0;
	st->len = 0;
}

static inline void
absorb(struct hash_state *st, uint64_t m)
{
	uint64_t v0 = st->v0, v1 = st->v1, v2 = st->v2, v3 = st->v3;

	v3 ^= m;
	SIPROUND(v0, v1, v2, v3);
	v0 ^= m;
	st->v0 = v0;
	st->v1 = v1;
	st->v2 = v2;
	st->v3 = v3;
}

void
hash_update(struct hash_state *st, const void *p, size_t n)
{
	const unsigned char *s = p;
	unsigned have = (unsigned)(st->len & 7);

	st->len += n;
	/* complete a partial word first */
	while (have != 0 && n > 0) {
		st->tail |= (uint64_t)*s++ << (8 * have);
		n--;
		if (++have == 8) {
			absorb(st, st->tail);
			st->tail = 0;
			have = 0;
		}
	}
	for (; n >= 8; s += 8, n -= 8)
		absorb(st, load_le(s, 8));
	if (n > 0)
		st->tail = load_tail(s, n);
}

void
hash_update_u64(struct hash_state *st, uint64_t w)
{
	unsigned char b[8];
	unsigned i;

	for (i = 0; i < 8; i++)
		b[i] = (unsigned char)(w >> (8 * i));
	hash_update(st, b, 8);
}

uint64_t
hash_end(const struct hash_state *st)
{
	uint64_t m = (uint64_t)(st->len & 0xff) << 56 | st->tail;

	return sip_final(st->v0, st->v1, st->v2, st->v3, m);
}
