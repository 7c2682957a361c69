/*
 * taskrec.c: a task's record, written and read (taskrec.h).
 *
 * The header is fields separated by one space, digits only where numbers
 * go: read with a cursor that refuses anything else, so a damaged file
 * is "not a record" (404 to a reader), never a wrong one.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "parser/json_out.h"
#include "site/taskrec.h"

static const char *const taskrec_names[] = {
    [TASKREC_WORKING] = "working",
    [TASKREC_COMPLETED] = "completed",
    [TASKREC_FAILED] = "failed",
    [TASKREC_CANCELLED] = "cancelled",
};

const char *
taskrec_status_name(enum taskrec_status s)
{
	return (size_t)s < GPT_ARRAY_LEN(taskrec_names) ? taskrec_names[s]
	                                                : "failed";
}

bool
taskrec_is_final(enum taskrec_status s)
{
	return s != TASKREC_WORKING;
}

int64_t
taskrec_now_ms(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_REALTIME, &ts) == -1)
		return 0;
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* "2026-12-02T00:31:05.123Z" for ms since the epoch. */
static void
taskrec_time(int64_t ms, char out[64])
{
	time_t t = (time_t)(ms / 1000);
	struct tm tm;

	if (gmtime_r(&t, &tm) == NULL)
		memset(&tm, 0, sizeof(tm));
	snprintf(out, 64, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ",
	    tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min,
	    tm.tm_sec, (int)(ms % 1000));
}

int
taskrec_format(const struct taskrec *r, struct buf *out)
{
	struct json_out w = {out, false};
	char hex[STORE_ID_HEX + 1], t[64];

	store_id_hex(r->id, hex);
	if (buf_printf(out, "gpt-task 1 %lld %s %s %lld %lld %ld %u\n",
	        (long long)r->expires_s, hex, taskrec_status_name(r->status),
	        (long long)r->created_ms, (long long)r->updated_ms, r->pid,
	        r->poll_ms) == -1)
		return -1;
	json_out_puts(&w, "{\"task\":\"");
	json_out_puts(&w, hex);
	json_out_puts(&w, "\",\"status\":\"");
	json_out_puts(&w, taskrec_status_name(r->status));
	json_out_puts(&w, "\"");
	if (r->message != NULL) {
		json_out_puts(&w, ",\"statusMessage\":");
		json_out_string(&w, r->message, r->message_len);
	}
	if (r->progress != NULL) {
		json_out_puts(&w, ",\"progress\":");
		json_out_put(&w, r->progress, r->progress_len);
	}
	taskrec_time(r->created_ms, t);
	json_out_puts(&w, ",\"created\":\"");
	json_out_puts(&w, t);
	taskrec_time(r->updated_ms, t);
	json_out_puts(&w, "\",\"updated\":\"");
	json_out_puts(&w, t);
	taskrec_time(r->expires_s * 1000, t);
	json_out_puts(&w, "\",\"expires\":\"");
	json_out_puts(&w, t);
	json_out_puts(&w, "\"");
	if (buf_printf(out, ",\"pollInterval\":%u", r->poll_ms) == -1)
		return -1;
	if (r->status == TASKREC_COMPLETED && r->result != NULL) {
		json_out_puts(&w, ",\"result\":");
		json_out_put(&w, r->result, r->result_len);
	} else if (r->reason != NULL) {
		json_out_puts(&w, ",\"reason\":");
		json_out_string(&w, r->reason, strlen(r->reason));
	}
	json_out_puts(&w, "}\n");
	return w.nomem ? -1 : 0;
}

struct taskrec_cur {
	const char *p;
	size_t n, i;
};

/* Take the exact word w and one space. */
static bool
taskrec_word(struct taskrec_cur *c, const char *w)
{
	size_t k = strlen(w);

	if (c->n - c->i < k + 1 || memcmp(c->p + c->i, w, k) != 0 ||
	    c->p[c->i + k] != ' ')
		return false;
	c->i += k + 1;
	return true;
}

/* A decimal of 1 to 18 digits, then the separator sep. */
static bool
taskrec_num(struct taskrec_cur *c, char sep, int64_t *out)
{
	int64_t v = 0;
	size_t d = 0;

	while (
	    c->i < c->n && c->p[c->i] >= '0' && c->p[c->i] <= '9' && d < 18) {
		v = v * 10 + (c->p[c->i] - '0');
		c->i++;
		d++;
	}
	if (d == 0 || c->i >= c->n || c->p[c->i] != sep)
		return false;
	c->i++;
	*out = v;
	return true;
}

int
taskrec_parse_head(const char *p, size_t n, struct taskrec_head *h)
{
	struct taskrec_cur c = {
	    p, n < TASKREC_HEAD_MAX ? n : TASKREC_HEAD_MAX, 0};
	int64_t pid, poll;
	size_t k;

	if (!taskrec_word(&c, "gpt-task") || !taskrec_word(&c, "1") ||
	    !taskrec_num(&c, ' ', &h->expires_s))
		return -1;
	if (c.n - c.i < STORE_ID_HEX + 1 ||
	    store_id_parse(c.p + c.i, STORE_ID_HEX, h->id) == -1 ||
	    c.p[c.i + STORE_ID_HEX] != ' ')
		return -1;
	c.i += STORE_ID_HEX + 1;
	for (k = 0; k < GPT_ARRAY_LEN(taskrec_names); k++)
		if (taskrec_word(&c, taskrec_names[k]))
			break;
	if (k == GPT_ARRAY_LEN(taskrec_names))
		return -1;
	h->status = (enum taskrec_status)k;
	if (!taskrec_num(&c, ' ', &h->created_ms) ||
	    !taskrec_num(&c, ' ', &h->updated_ms) ||
	    !taskrec_num(&c, ' ', &pid) || !taskrec_num(&c, '\n', &poll) ||
	    poll > UINT32_MAX)
		return -1;
	h->pid = (long)pid;
	h->poll_ms = (unsigned)poll;
	h->doc_off = c.i;
	return 0;
}
