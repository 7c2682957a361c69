/*
 * json_out.c: the sticky JSON text writer (json_out.h).
 */
#include <string.h>

#include "base/buf.h"
#include "parser/json.h"
#include "parser/json_out.h"

void
json_out_put(struct json_out *w, const void *p, size_t n)
{
	if (!w->nomem && buf_append(w->out, p, n) == -1)
		w->nomem = true;
}

void
json_out_puts(struct json_out *w, const char *s)
{
	json_out_put(w, s, strlen(s));
}

void
json_out_value(struct json_out *w, const struct json_value *v)
{
	if (!w->nomem && json_write(v, w->out) == -1)
		w->nomem = true;
}

void
json_out_string(struct json_out *w, const char *s, size_t len)
{
	struct json_value v;

	memset(&v, 0, sizeof(v));
	v.type = JSON_T_STRING;
	v.u.str.ptr = len == 0 ? "" : s;
	v.u.str.len = len;
	json_out_value(w, &v);
}

void
json_out_key(struct json_out *w, const struct json_string *k)
{
	json_out_string(w, k->ptr, k->len);
	json_out_put(w, ":", 1);
}
