/*
 * fcgi_client.c: a small FastCGI client that plays a web server for the
 * soak test and the benchmarks.  It speaks the FastCGI 1.0 record protocol
 * (responder role) over a unix socket, sends `count` requests taken in
 * rotation from a plan of request templates, and checks each answer's
 * status (and optionally a string in its body).
 *
 *   fcgi_client -s SOCKET [-n COUNT] [-k] [-t SECONDS] [-d] PLAN
 *
 * PLAN has one request per line ('#' starts a comment line).  A line is
 * space-separated NAME=VALUE words, VALUE %XX-decoded.  Lower-case names
 * steer the client; the rest are FastCGI parameters sent as they are:
 *   expect=204      the status the answer must carry (required); "5xx"
 *                   accepts any status of that class
 *   body=FILE       send FILE as stdin       text=VALUE  send VALUE
 *   match=VALUE     the answer's body must contain VALUE
 *   weight=N        send this template N times per rotation (default 1)
 * CONTENT_LENGTH is added from the body unless the line sets it.
 *
 * -k keeps one connection for many requests (FCGI_KEEP_CONN); without it
 * each request opens its own, as nginx does by default.  Every wait is
 * bounded by -t (default 30 s).  -d prints each answer of the first
 * rotation.  Prints "N requests, N failed, S s, R req/s"; exit 0 when
 * none failed, 1 when some did, 2 on a usage or plan error.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/common.h"

#define FC_VERSION 1
#define FC_BEGIN_REQUEST 1
#define FC_END_REQUEST 3
#define FC_PARAMS 4
#define FC_STDIN 5
#define FC_STDOUT 6
#define FC_STDERR 7
#define FC_RESPONDER 1
#define FC_KEEP_CONN 1
#define FC_REQUEST_COMPLETE 0

#define FC_RECORD_MAX 65535
#define FC_ANSWER_MAX ((size_t)64 * 1024 * 1024)
#define FC_TEMPLATES_MAX 256
#define FC_FAILS_SHOWN 10

struct fc_template {
	int line;
	char expect[4];		/* "204" or "5xx" */
	char *match;		/* owned, or NULL */
	size_t match_len;
	struct buf records;	/* BEGIN_REQUEST .. empty STDIN: ready bytes */
	unsigned weight;
};

struct fc_answer {
	struct buf out; /* STDOUT stream */
	size_t err_bytes;
	int app_status;
	int protocol_status;
	bool ended;
};

static int fc_timeout_ms = 30000;

/* %XX-decode s in place; returns the decoded length, or -1 ("%zz"). */
static long
fc_unescape(char *s)
{
	size_t i, o = 0;

	for (i = 0; s[i] != '\0'; i++) {
		if (s[i] == '%') {
			int hi = gpt_hex_value((unsigned char)s[i + 1]), lo;

			if (hi < 0 ||
			    (lo = gpt_hex_value((unsigned char)s[i + 2])) < 0)
				return -1;
			s[o++] = (char)(hi * 16 + lo);
			i += 2;
		} else {
			s[o++] = s[i];
		}
	}
	s[o] = '\0';
	return (long)o;
}

static int
fc_header(struct buf *b, int type, size_t len)
{
	unsigned char h[8];

	h[0] = FC_VERSION;
	h[1] = (unsigned char)type;
	h[2] = 0;
	h[3] = 1; /* request id 1: one request per connection at a time */
	h[4] = (unsigned char)(len >> 8);
	h[5] = (unsigned char)len;
	h[6] = 0; /* no padding */
	h[7] = 0;
	return buf_append(b, h, sizeof(h));
}

/* Append records of one stream (params or stdin), then its empty record. */
static int
fc_stream(struct buf *b, int type, const char *p, size_t len)
{
	while (len > 0) {
		size_t n = len < FC_RECORD_MAX ? len : FC_RECORD_MAX;

		if (fc_header(b, type, n) == -1 || buf_append(b, p, n) == -1)
			return -1;
		p += n;
		len -= n;
	}
	return fc_header(b, type, 0);
}

static int
fc_param_len(struct buf *b, size_t n)
{
	unsigned char l[4];

	if (n < 128)
		return buf_putc(b, (char)n);
	l[0] = (unsigned char)((n >> 24) | 0x80);
	l[1] = (unsigned char)(n >> 16);
	l[2] = (unsigned char)(n >> 8);
	l[3] = (unsigned char)n;
	return buf_append(b, l, 4);
}

static int
fc_param(struct buf *b, const char *name, const char *value, size_t vlen)
{
	size_t nlen = strlen(name);

	if (fc_param_len(b, nlen) == -1 || fc_param_len(b, vlen) == -1 ||
	    buf_append(b, name, nlen) == -1 || buf_append(b, value, vlen) == -1)
		return -1;
	return 0;
}

static int
fc_slurp(const char *path, struct buf *out)
{
	FILE *f = fopen(path, "rb");
	char chunk[65536];
	size_t n;
	int rc = 0;

	if (f == NULL) {
		fprintf(stderr, "fcgi_client: %s: %s\n", path, strerror(errno));
		return -1;
	}
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		if (buf_append(out, chunk, n) == -1) {
			rc = -1;
			break;
		}
	if (ferror(f))
		rc = -1;
	fclose(f);
	return rc;
}

/* Turn one plan line into ready records.  0, or -1 with a message. */
static int
fc_template_parse(char *line, int lineno, struct fc_template *t)
{
	struct buf params, body;
	bool has_length = false, has_body = false;
	char *save = NULL, *word;
	int rc = -1;

	memset(t, 0, sizeof(*t));
	t->line = lineno;
	t->weight = 1;
	buf_init(&t->records, FC_ANSWER_MAX);
	buf_init(&params, FC_ANSWER_MAX);
	buf_init(&body, FC_ANSWER_MAX);
	for (word = strtok_r(line, " \t", &save); word != NULL;
	     word = strtok_r(NULL, " \t", &save)) {
		char *eq = strchr(word, '=');
		long vlen;

		if (eq == NULL || eq == word) {
			fprintf(stderr, "plan line %d: not NAME=VALUE: %s\n",
			    lineno, word);
			goto done;
		}
		*eq++ = '\0';
		if ((vlen = fc_unescape(eq)) < 0) {
			fprintf(stderr, "plan line %d: bad %%XX in %s\n",
			    lineno, word);
			goto done;
		}
		if (strcmp(word, "expect") == 0) {
			if (strlen(eq) != 3) {
				fprintf(stderr, "plan line %d: expect=NNN\n",
				    lineno);
				goto done;
			}
			memcpy(t->expect, eq, 4);
		} else if (strcmp(word, "body") == 0) {
			if (fc_slurp(eq, &body) == -1)
				goto done;
			has_body = true;
		} else if (strcmp(word, "text") == 0) {
			if (buf_append(&body, eq, (size_t)vlen) == -1)
				goto done;
			has_body = true;
		} else if (strcmp(word, "match") == 0) {
			free(t->match);
			if ((t->match = malloc((size_t)vlen + 1)) == NULL)
				goto done;
			memcpy(t->match, eq, (size_t)vlen + 1);
			t->match_len = (size_t)vlen;
		} else if (strcmp(word, "weight") == 0) {
			t->weight = (unsigned)strtoul(eq, NULL, 10);
			if (t->weight == 0 || t->weight > 10000) {
				fprintf(stderr, "plan line %d: weight 1..10000\n",
				    lineno);
				goto done;
			}
		} else {
			if (strcmp(word, "CONTENT_LENGTH") == 0)
				has_length = true;
			if (fc_param(&params, word, eq, (size_t)vlen) == -1)
				goto done;
		}
	}
	if (t->expect[0] == '\0') {
		fprintf(stderr, "plan line %d: no expect=\n", lineno);
		goto done;
	}
	if (has_body && !has_length) {
		char len[32];

		snprintf(len, sizeof(len), "%zu", buf_len(&body));
		if (fc_param(&params, "CONTENT_LENGTH", len, strlen(len)) == -1)
			goto done;
	}
	if (fc_header(&t->records, FC_BEGIN_REQUEST, 8) == -1 ||
	    buf_append(&t->records, "\0\1\0\0\0\0\0\0", 8) == -1 ||
	    fc_stream(&t->records, FC_PARAMS, buf_ptr(&params),
	        buf_len(&params)) == -1 ||
	    fc_stream(&t->records, FC_STDIN, buf_ptr(&body), buf_len(&body)) ==
	        -1)
		goto done;
	rc = 0;
done:
	buf_free(&params);
	buf_free(&body);
	return rc;
}

static int
fc_plan_load(const char *path, struct fc_template *ts, size_t *count)
{
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0, n = 0;
	int lineno = 0, rc = -1;

	if (f == NULL) {
		fprintf(stderr, "fcgi_client: %s: %s\n", path, strerror(errno));
		return -1;
	}
	while (getline(&line, &cap, f) != -1) {
		char *p = line;

		lineno++;
		p[strcspn(p, "\r\n")] = '\0';
		p += strspn(p, " \t");
		if (*p == '\0' || *p == '#')
			continue;
		if (n == FC_TEMPLATES_MAX) {
			fprintf(stderr, "plan: more than %d templates\n",
			    FC_TEMPLATES_MAX);
			goto done;
		}
		if (fc_template_parse(p, lineno, &ts[n]) == -1)
			goto done;
		n++;
	}
	if (n == 0) {
		fprintf(stderr, "plan %s: no request\n", path);
		goto done;
	}
	*count = n;
	rc = 0;
done:
	free(line);
	fclose(f);
	return rc;
}

static int
fc_connect(const char *path)
{
	struct sockaddr_un sun;
	int fd;

	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	if (strlen(path) >= sizeof(sun.sun_path)) {
		fprintf(stderr, "fcgi_client: socket path too long\n");
		return -1;
	}
	strcpy(sun.sun_path, path);
	if ((fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0)) == -1)
		return -1;
	if (connect(fd, (struct sockaddr *)&sun, sizeof(sun)) == -1 ||
	    fcntl(fd, F_SETFL, O_NONBLOCK) == -1) {
		fprintf(stderr, "fcgi_client: connect %s: %s\n", path,
		    strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}

/*
 * Take whole records out of in (bytes read so far) into a.  Returns the
 * number of bytes consumed; sets a->ended at FCGI_END_REQUEST.
 */
static size_t
fc_records(const unsigned char *in, size_t len, struct fc_answer *a,
    bool *bad)
{
	size_t used = 0;

	while (len - used >= 8) {
		const unsigned char *h = in + used;
		size_t clen = ((size_t)h[4] << 8) | h[5];
		size_t total = 8 + clen + h[6];

		if (h[0] != FC_VERSION) {
			*bad = true;
			return used;
		}
		if (len - used < total)
			break;
		if (h[1] == FC_STDOUT) {
			if (buf_append(&a->out, h + 8, clen) == -1)
				*bad = true;
		} else if (h[1] == FC_STDERR) {
			a->err_bytes += clen;
		} else if (h[1] == FC_END_REQUEST && clen >= 8) {
			a->app_status = (int)(((unsigned)h[8] << 24) |
			    ((unsigned)h[9] << 16) | ((unsigned)h[10] << 8) |
			    h[11]);
			a->protocol_status = h[12];
			a->ended = true;
		}
		used += total;
		if (a->ended)
			break;
	}
	return used;
}

/*
 * Send one request's records on fd and read its answer, both at once so a
 * server that answers before reading all of a large body (an oversize
 * CONTENT_LENGTH) cannot deadlock us.  0 when an END_REQUEST arrived.
 */
static int
fc_exchange(int fd, const struct buf *req, struct fc_answer *a,
    struct buf *in)
{
	size_t sent = 0;
	bool writing = true, bad = false;

	buf_reset(in);
	while (!a->ended && !bad) {
		struct pollfd pfd = {fd, POLLIN, 0};
		int r;

		if (writing)
			pfd.events |= POLLOUT;
		r = poll(&pfd, 1, fc_timeout_ms);
		if (r == -1 && errno == EINTR)
			continue;
		if (r <= 0) {
			fprintf(stderr, "fcgi_client: no answer within %d ms\n",
			    fc_timeout_ms);
			return -1;
		}
		if (writing && (pfd.revents & (POLLOUT | POLLERR))) {
			ssize_t n = send(fd, buf_ptr(req) + sent,
			    buf_len(req) - sent, MSG_NOSIGNAL);

			if (n > 0)
				sent += (size_t)n;
			else if (n == -1 && errno != EAGAIN && errno != EINTR)
				writing = false; /* the server stopped reading */
			if (sent == buf_len(req))
				writing = false;
		}
		if (pfd.revents & (POLLIN | POLLHUP | POLLERR)) {
			char *dst = buf_reserve(in, 65536);
			ssize_t n;
			size_t used;

			if (dst == NULL)
				return -1;
			n = recv(fd, dst, 65536, 0);
			if (n == 0)
				break; /* closed without END_REQUEST */
			if (n == -1) {
				if (errno == EAGAIN || errno == EINTR)
					continue;
				break;
			}
			buf_commit(in, (size_t)n);
			used = fc_records((const unsigned char *)buf_ptr(in),
			    buf_len(in), a, &bad);
			if (buf_tail(in, buf_len(in) - used) == -1)
				return -1;
		}
	}
	return a->ended && !bad ? 0 : -1;
}

/* The status of a CGI answer: its Status header, else 200. */
static int
fc_status(const struct buf *out)
{
	const char *p = buf_ptr(out);
	const char *end = p + buf_len(out);

	while (p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		size_t n = eol != NULL ? (size_t)(eol - p) : (size_t)(end - p);

		if (n > 0 && p[n - 1] == '\r')
			n--;
		if (n == 0)
			break;
		if (n > 7 && strncasecmp(p, "Status:", 7) == 0)
			return atoi(p + 7);
		if (eol == NULL)
			break;
		p = eol + 1;
	}
	return 200;
}

static const char *
fc_body(const struct buf *out, size_t *len)
{
	const char *p = buf_ptr(out);
	const char *b = memmem(p, buf_len(out), "\r\n\r\n", 4);

	if (b != NULL) {
		b += 4;
	} else if ((b = memmem(p, buf_len(out), "\n\n", 2)) != NULL) {
		b += 2;
	} else {
		*len = 0;
		return p + buf_len(out);
	}
	*len = buf_len(out) - (size_t)(b - p);
	return b;
}

static bool
fc_status_ok(const char expect[4], int status)
{
	char got[16];

	snprintf(got, sizeof(got), "%03d", status);
	if (strlen(got) != 3)
		return false;
	return got[0] == expect[0] &&
	    (expect[1] == 'x' || got[1] == expect[1]) &&
	    (expect[2] == 'x' || got[2] == expect[2]);
}

static double
fc_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void
fc_usage(void)
{
	fputs("usage: fcgi_client -s SOCKET [-n COUNT] [-k] [-t SECONDS] [-d] "
	      "PLAN\n",
	    stderr);
	exit(2);
}

int
main(int argc, char **argv)
{
	static struct fc_template ts[FC_TEMPLATES_MAX];
	const char *sock = NULL;
	unsigned long count = 0, i, failed = 0, order_len = 0;
	size_t nt = 0, t;
	unsigned *order = NULL;
	bool keep = false, dump = false;
	struct fc_answer a;
	struct buf in;
	double start, secs;
	unsigned r;
	int fd = -1, c;

	while ((c = getopt(argc, argv, "s:n:kt:d")) != -1) {
		switch (c) {
		case 's':
			sock = optarg;
			break;
		case 'n':
			count = strtoul(optarg, NULL, 10);
			break;
		case 'k':
			keep = true;
			break;
		case 't':
			fc_timeout_ms = atoi(optarg) * 1000;
			if (fc_timeout_ms <= 0 || fc_timeout_ms > 600000)
				fc_usage();
			break;
		case 'd':
			dump = true;
			break;
		default:
			fc_usage();
		}
	}
	if (sock == NULL || optind + 1 != argc)
		fc_usage();
	signal(SIGPIPE, SIG_IGN);
	if (fc_plan_load(argv[optind], ts, &nt) == -1)
		return 2;
	for (t = 0; t < nt; t++)
		order_len += ts[t].weight;
	if (count == 0)
		count = order_len;
	if ((order = calloc(order_len, sizeof(*order))) == NULL)
		return 2;
	/* Interleave: rotation r sends each template whose weight is > r. */
	for (r = 0, i = 0; i < order_len; r++)
		for (t = 0; t < nt && i < order_len; t++)
			if (ts[t].weight > r)
				order[i++] = (unsigned)t;
	buf_init(&in, FC_ANSWER_MAX);
	memset(&a, 0, sizeof(a));
	buf_init(&a.out, FC_ANSWER_MAX);
	start = fc_now();
	for (i = 0; i < count; i++) {
		struct fc_template *tp = &ts[order[i % order_len]];
		const char *body;
		size_t blen;
		int status;
		bool ok;

		if (fd == -1 && (fd = fc_connect(sock)) == -1)
			return 2;
		buf_reset(&a.out);
		a.ended = false;
		a.err_bytes = 0;
		/* The keep-connection flag sits in BEGIN_REQUEST's body. */
		buf_data(&tp->records)[10] = keep ? FC_KEEP_CONN : 0;
		ok = fc_exchange(fd, &tp->records, &a, &in) == 0 &&
		    a.protocol_status == FC_REQUEST_COMPLETE;
		status = fc_status(&a.out);
		body = fc_body(&a.out, &blen);
		if (ok && !fc_status_ok(tp->expect, status))
			ok = false;
		if (ok && tp->match != NULL &&
		    memmem(body, blen, tp->match, tp->match_len) == NULL)
			ok = false;
		if (dump && i < order_len)
			printf("--- plan line %d: status %d\n%.*s\n", tp->line,
			    status, (int)buf_len(&a.out), buf_ptr(&a.out));
		if (!ok) {
			if (failed < FC_FAILS_SHOWN)
				fprintf(stderr,
				    "FAIL: request %lu (plan line %d): status "
				    "%d, expected %s%s%s%s\n",
				    i, tp->line, status, tp->expect,
				    a.ended ? "" : ", no END_REQUEST",
				    tp->match != NULL ? ", body must hold " : "",
				    tp->match != NULL ? tp->match : "");
			failed++;
		}
		if (!keep || !ok) {
			close(fd);
			fd = -1;
		}
	}
	secs = fc_now() - start;
	if (fd != -1)
		close(fd);
	printf("%lu requests, %lu failed, %.2f s, %.0f req/s\n", count, failed,
	    secs, secs > 0 ? (double)count / secs : 0.0);
	buf_free(&in);
	buf_free(&a.out);
	for (t = 0; t < nt; t++) {
		buf_free(&ts[t].records);
		free(ts[t].match);
	}
	free(order);
	return failed == 0 ? 0 : 1;
}
