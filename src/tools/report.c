/*
 * report.c: the operator's report (report.h): a list of problems, the
 * annotations, the size and the decoder entries, and its two renderings.
 *
 * Nothing here judges a form; lint.c, decoder.c and cli_check.c fill the
 * report.  Strings taken from a form are valid UTF-8 (the strict parser
 * saw them) but may hold control bytes: the JSON rendering escapes them,
 * and the text rendering masks them as '?' (gpt_mask_controls).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "parser/json.h"
#include "base/log.h"
#include "tools/report.h"

static char *
report_dup(struct report *r, const char *s)
{
	char *p;
	size_t n;

	if (s == NULL)
		return NULL;
	n = strlen(s);
	if ((p = malloc(n + 1)) == NULL) {
		r->nomem = true;
		return NULL;
	}
	memcpy(p, s, n + 1);
	return p;
}

void
report_init(struct report *r, const char *path)
{
	memset(r, 0, sizeof(*r));
	r->form = report_dup(r, path);
}

static void
report_free_decoders(struct report_decoder *list, size_t n)
{
	size_t i, k;

	for (i = 0; i < n; i++) {
		for (k = 0; k < list[i].nrefused; k++) {
			free(list[i].refused_by[k].pointer);
			free(list[i].refused_by[k].keyword);
		}
		for (k = 0; k < list[i].nignores; k++) {
			free(list[i].ignores[k].pointer);
			free(list[i].ignores[k].keyword);
		}
	}
}

void
report_free(struct report *r)
{
	size_t i;

	for (i = 0; i < r->count; i++) {
		free(r->problems[i].pointer);
		free(r->problems[i].reason);
		free(r->problems[i].fix);
	}
	free(r->problems);
	for (i = 0; i < r->nannotations; i++) {
		free(r->annotations[i]);
		free(r->annotation_at[i]);
	}
	report_free_decoders(r->decoders, r->ndecoders);
	report_free_decoders(r->answer_decoders, r->nanswer_decoders);
	free(r->form);
	memset(r, 0, sizeof(*r));
}

void
report_add(struct report *r, enum report_severity sev, const char *rule,
    const char *pointer, const char *reason, const char *fix)
{
	struct report_problem *p;

	if (r->count >= REPORT_PROBLEMS_MAX) {
		r->more++;
		return;
	}
	if (r->count == r->cap) {
		size_t cap = r->cap == 0 ? 16 : r->cap * 2;
		struct report_problem *np;

		/* cap <= 2 * REPORT_PROBLEMS_MAX: no overflow */
		if ((np = realloc(r->problems, cap * sizeof(*np))) == NULL) {
			r->nomem = true;
			return;
		}
		r->problems = np;
		r->cap = cap;
	}
	p = &r->problems[r->count];
	p->severity = sev;
	p->rule = rule;
	p->seq = r->count;
	p->pointer = report_dup(r, pointer != NULL ? pointer : "");
	p->reason = report_dup(r, reason);
	p->fix = report_dup(r, fix);
	if (p->pointer == NULL || p->reason == NULL ||
	    (fix != NULL && p->fix == NULL)) {
		free(p->pointer);
		free(p->reason);
		free(p->fix);
		return;
	}
	r->count++;
}

void
report_addf(struct report *r, enum report_severity sev, const char *rule,
    const char *pointer, const char *fix, const char *fmt, ...)
{
	char reason[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(reason, sizeof(reason), fmt, ap);
	va_end(ap);
	report_add(r, sev, rule, pointer, reason, fix);
}

void
report_annotation(
    struct report *r, const char *name, size_t len, const char *pointer)
{
	size_t i;
	char *p;

	for (i = 0; i < r->nannotations; i++)
		if (strlen(r->annotations[i]) == len &&
		    memcmp(r->annotations[i], name, len) == 0)
			return;
	if (r->nannotations >= REPORT_ANNOTATIONS_MAX)
		return;
	if ((p = malloc(len + 1)) == NULL) {
		r->nomem = true;
		return;
	}
	memcpy(p, name, len);
	p[len] = '\0';
	r->annotations[r->nannotations] = p;
	r->annotation_at[r->nannotations] = report_dup(r, pointer);
	r->nannotations++;
}

struct report_decoder *
report_decoder(
    struct report *r, const char *id, const char *name, const char *verified)
{
	struct report_decoder *list =
	    r->answer_pass ? r->answer_decoders : r->decoders;
	size_t *n = r->answer_pass ? &r->nanswer_decoders : &r->ndecoders;
	struct report_decoder *d;

	if (*n >= REPORT_DECODERS_MAX)
		return NULL;
	d = &list[(*n)++];
	memset(d, 0, sizeof(*d));
	d->id = id;
	d->name = name;
	d->verified = verified;
	return d;
}

void
report_decoder_site(struct report *r, struct report_decoder *d, bool refused,
    const char *pointer, const char *keyword)
{
	struct report_site *list = refused ? d->refused_by : d->ignores;
	size_t *n = refused ? &d->nrefused : &d->nignores;
	size_t *more = refused ? &d->more_refused : &d->more_ignores;
	size_t i;

	/* one entry per place and keyword (a rule may match twice) */
	for (i = 0; i < *n; i++)
		if (strcmp(list[i].keyword, keyword) == 0 &&
		    strcmp(list[i].pointer, pointer) == 0)
			return;
	if (*n >= REPORT_SITES_MAX) {
		(*more)++;
		return;
	}
	if ((list[*n].pointer = report_dup(r, pointer)) == NULL)
		return;
	if ((list[*n].keyword = report_dup(r, keyword)) == NULL) {
		free(list[*n].pointer);
		return;
	}
	(*n)++;
}

static int
report_cmp(const void *a, const void *b)
{
	const struct report_problem *x = a, *y = b;

	if (x->severity != y->severity)
		return x->severity == REPORT_REFUSAL ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

void
report_sort(struct report *r)
{
	if (r->count > 1)
		qsort(r->problems, r->count, sizeof(*r->problems), report_cmp);
}

size_t
report_count(const struct report *r, enum report_severity sev)
{
	size_t i, n = 0;

	for (i = 0; i < r->count; i++)
		n += r->problems[i].severity == sev;
	return n;
}

/* --- text ------------------------------------------------------------- */

static void
report_text_sites(FILE *f, const char *what, const struct report_site *s,
    size_t n, size_t more)
{
	size_t i;

	fprintf(f, "    %s:", what);
	if (n == 0)
		fputs(" nothing", f);
	for (i = 0; i < n; i++)
		fprintf(f, "%s %s at \"#%s\"", i > 0 ? "," : "", s[i].keyword,
		    s[i].pointer);
	if (more > 0)
		fprintf(f, ", and %zu more", more);
	fputc('\n', f);
}

/* One problem line to f, as the log would write it (the level's word,
 * control characters masked), without the log's time stamp. */
static void GPT_PRINTF(3, 4)
    report_line(FILE *f, const char *level, const char *fmt, ...)
{
	char line[4096];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	gpt_mask_controls(line, strlen(line));
	fprintf(f, "gpt.fcgi: %s: %s\n", level, line);
}

static void
report_text_decoders(FILE *f, const struct report_decoder *list, size_t n)
{
	const struct report_decoder *d;
	size_t i;

	for (i = 0; i < n; i++) {
		d = &list[i];
		fprintf(f, "  %s (%s; table verified %s): %s\n", d->id, d->name,
		    d->verified != NULL ? d->verified : "never",
		    d->nrefused > 0 ? "refuses the form" : "accepts the form");
		if (d->nrefused > 0)
			report_text_sites(f, "refused by", d->refused_by,
			    d->nrefused, d->more_refused);
		report_text_sites(
		    f, "ignores", d->ignores, d->nignores, d->more_ignores);
	}
}

void
report_text(const struct report *r, FILE *f)
{
	const struct report_problem *p;
	size_t i;

	/* every line of the report on f: one stream to read or redirect */
	for (i = 0; i < r->count; i++) {
		p = &r->problems[i];
		if (p->severity == REPORT_REFUSAL && p->pointer[0] == '\0' &&
		    strcmp(p->rule, "address-refused") == 0)
			report_line(f, "error", "%s: refused [%s]: %s%s%s",
			    r->form, p->rule, p->reason,
			    p->fix != NULL ? "; fix: " : "",
			    p->fix != NULL ? p->fix : "");
		else if (p->severity == REPORT_REFUSAL)
			report_line(f, "error",
			    "%s: refused [%s] at \"#%s\": %s%s%s", r->form,
			    p->rule, p->pointer, p->reason,
			    p->fix != NULL ? "; fix: " : "",
			    p->fix != NULL ? p->fix : "");
		else if (p->pointer[0] == '\0' &&
		         (strncmp(p->rule, "hook-", 5) == 0 ||
		             strncmp(p->rule, "address-", 8) == 0))
			/* about the address, not a place in the form */
			report_line(f, "warning", "%s: [%s] %s%s%s", r->form,
			    p->rule, p->reason, p->fix != NULL ? "; fix: " : "",
			    p->fix != NULL ? p->fix : "");
		else
			report_line(f, "warning", "%s: [%s] at \"#%s\": %s%s%s",
			    r->form, p->rule, p->pointer, p->reason,
			    p->fix != NULL ? "; fix: " : "",
			    p->fix != NULL ? p->fix : "");
	}
	if (r->more > 0)
		report_line(
		    f, "error", "%s: and %zu more problems", r->form, r->more);
	if (r->nomem)
		report_line(f, "error",
		    "%s: out of memory: this report is incomplete", r->form);
	if (!r->loads)
		return;
	fprintf(f, "%s: ok, %zu bytes (about %zu tokens), ETag %s\n", r->form,
	    r->bytes, r->tokens, r->etag);
	fprintf(f, "%s: %zu refusals, %zu warnings\n", r->form,
	    report_count(r, REPORT_REFUSAL), report_count(r, REPORT_WARNING));
	for (i = 0; i < r->nannotations; i++) {
		const char *a = r->annotations[i];
		bool fmt = strncmp(a, "format:", 7) == 0;

		/* "format:NAME": a format name declared as an annotation */
		fprintf(f,
		    "%s: %s\"%s\" is an annotation (not enforced), "
		    "first at \"#%s\"\n",
		    r->form, fmt ? "format " : "", fmt ? a + 7 : a,
		    r->annotation_at[i] != NULL ? r->annotation_at[i] : "");
	}
	if (r->ndecoders > 0)
		fprintf(f,
		    "%s: constrained decoders (gpt.fcgi enforces every "
		    "keyword whatever they do):\n",
		    r->form);
	report_text_decoders(f, r->decoders, r->ndecoders);
	if (r->has_answer && r->nanswer_decoders > 0)
		fprintf(f,
		    "%s: the answer's form (a), held to by a runtime acting "
		    "next (gpt.fcgi enforces it on the hook's answer):\n",
		    r->form);
	if (r->has_answer)
		report_text_decoders(
		    f, r->answer_decoders, r->nanswer_decoders);
}

/* --- JSON ------------------------------------------------------------- */

/* s (NUL-terminated, or NULL: null) as a JSON string. */
static int
report_json_str(struct buf *out, const char *s)
{
	if (s == NULL)
		return buf_puts(out, "null");
	return json_write_string(out, s, strlen(s));
}

static int
report_json_sites(
    struct buf *out, const char *name, const struct report_site *s, size_t n)
{
	size_t i;

	if (buf_printf(out, ",\"%s\":[", name) == -1)
		return -1;
	for (i = 0; i < n; i++) {
		if ((i > 0 && buf_putc(out, ',') == -1) ||
		    buf_puts(out, "{\"pointer\":") == -1 ||
		    report_json_str(out, s[i].pointer) == -1 ||
		    buf_puts(out, ",\"keyword\":") == -1 ||
		    report_json_str(out, s[i].keyword) == -1 ||
		    buf_putc(out, '}') == -1)
			return -1;
	}
	return buf_putc(out, ']');
}

static int report_json_decoders(
    struct buf *out, const struct report_decoder *list, size_t n);

int
report_json(const struct report *r, struct buf *out)
{
	const struct report_problem *p;
	size_t i;

	if (buf_puts(out, "{\"form\":") == -1 ||
	    report_json_str(out, r->form) == -1 ||
	    buf_printf(out, ",\"loads\":%s,\"problems\":[",
	        r->loads ? "true" : "false") == -1)
		return -1;
	for (i = 0; i < r->count; i++) {
		p = &r->problems[i];
		if ((i > 0 && buf_putc(out, ',') == -1) ||
		    buf_printf(out, "{\"severity\":\"%s\",\"rule\":",
		        p->severity == REPORT_REFUSAL ? "refusal"
		                                      : "warning") == -1 ||
		    report_json_str(out, p->rule) == -1 ||
		    buf_puts(out, ",\"pointer\":") == -1 ||
		    report_json_str(out, p->pointer) == -1 ||
		    buf_puts(out, ",\"reason\":") == -1 ||
		    report_json_str(out, p->reason) == -1 ||
		    buf_puts(out, ",\"fix\":") == -1 ||
		    report_json_str(out, p->fix) == -1 ||
		    buf_putc(out, '}') == -1)
			return -1;
	}
	if (buf_printf(out, "],\"more\":%zu,\"complete\":%s,\"annotations\":[",
	        r->more, r->nomem ? "false" : "true") == -1)
		return -1;
	for (i = 0; i < r->nannotations; i++)
		if ((i > 0 && buf_putc(out, ',') == -1) ||
		    report_json_str(out, r->annotations[i]) == -1)
			return -1;
	if (buf_putc(out, ']') == -1)
		return -1;
	if (r->has_size &&
	    buf_printf(out, ",\"size\":{\"bytes\":%zu,\"tokens\":%zu}",
	        r->bytes, r->tokens) == -1)
		return -1;
	if (buf_puts(out, ",\"decoders\":") == -1 ||
	    report_json_decoders(out, r->decoders, r->ndecoders) == -1)
		return -1;
	if (r->has_answer && (buf_puts(out, ",\"answer_decoders\":") == -1 ||
	                         report_json_decoders(out, r->answer_decoders,
	                             r->nanswer_decoders) == -1))
		return -1;
	return buf_puts(out, "}\n");
}

static int
report_json_decoders(
    struct buf *out, const struct report_decoder *list, size_t n)
{
	const struct report_decoder *d;
	size_t i;

	if (buf_putc(out, '[') == -1)
		return -1;
	for (i = 0; i < n; i++) {
		d = &list[i];
		if ((i > 0 && buf_putc(out, ',') == -1) ||
		    buf_puts(out, "{\"id\":") == -1 ||
		    report_json_str(out, d->id) == -1 ||
		    buf_puts(out, ",\"name\":") == -1 ||
		    report_json_str(out, d->name) == -1 ||
		    buf_puts(out, ",\"verified\":") == -1 ||
		    report_json_str(out, d->verified) == -1 ||
		    buf_printf(out, ",\"refuses\":%s",
		        d->nrefused > 0 ? "true" : "false") == -1 ||
		    report_json_sites(
		        out, "refused_by", d->refused_by, d->nrefused) == -1 ||
		    report_json_sites(
		        out, "ignores", d->ignores, d->nignores) == -1 ||
		    buf_putc(out, '}') == -1)
			return -1;
	}
	return buf_putc(out, ']');
}
