/*
 * report.h: the operator's report on one address (`gpt.fcgi --check`, and
 * the warnings logged when an address loads): its problems, the keywords
 * it treats as annotations, its served size, and what each constrained
 * decoder would do with its form.
 *
 * Owns: every string it holds (copies, malloc'd: the report is built on
 * the command line or at a load, never on the request path).  Keeps the
 * first REPORT_PROBLEMS_MAX problems and counts the rest.  Problems come
 * out refusals first, then warnings, each group in the order added.
 *
 * Output: report_text() for people (one line per problem, its pointer as
 * a URI fragment "#/...", then the rest: all of it on one stream),
 * report_json() for CI and editors (the shape of
 * schemas/check-report.schema.json, documented in gpt.fcgi(8)).
 */
#ifndef GPT_REPORT_H
#define GPT_REPORT_H

#include <stdio.h>

#include "base/common.h"

struct buf;

#define REPORT_PROBLEMS_MAX 1000
#define REPORT_ANNOTATIONS_MAX 64
#define REPORT_DECODERS_MAX 16
#define REPORT_SITES_MAX 200 /* refusing / ignored keywords per decoder */

enum report_severity { REPORT_REFUSAL, REPORT_WARNING };

struct report_problem {
	enum report_severity severity;
	const char *rule; /* static: the rule's id, "string-unbounded" */
	char *pointer;    /* owned: JSON Pointer ("" for the form or the
	                     address as a whole) */
	char *reason;     /* owned: plain words */
	char *fix;        /* owned, or NULL when no fix is known */
	size_t seq;       /* order added, for a stable sort */
};

/* A keyword at a place in the form, as a decoder treats it. */
struct report_site {
	char *pointer; /* owned */
	char *keyword; /* owned */
};

struct report_decoder {
	const char *id;       /* borrowed from the decoder table */
	const char *name;     /* borrowed */
	const char *verified; /* borrowed: the table's date, or NULL */
	struct report_site refused_by[REPORT_SITES_MAX];
	size_t nrefused, more_refused;
	struct report_site ignores[REPORT_SITES_MAX];
	size_t nignores, more_ignores;
};

struct report {
	char *form; /* owned: the form's path, as named */
	bool loads;
	struct report_problem *problems; /* owned: count of them */
	size_t count, more, cap;
	char *annotations[REPORT_ANNOTATIONS_MAX];   /* owned, distinct */
	char *annotation_at[REPORT_ANNOTATIONS_MAX]; /* owned: first pointer */
	size_t nannotations;
	bool has_size;
	size_t bytes, tokens;
	char etag[64];
	struct report_decoder decoders[REPORT_DECODERS_MAX];
	size_t ndecoders;
	/* the same for the form of the hook's answer (a), when it has one:
	 * whether a runtime acting next can be held to the answer's shape.
	 * report_decoder adds there while answer_pass is set. */
	bool has_answer, answer_pass;
	struct report_decoder answer_decoders[REPORT_DECODERS_MAX];
	size_t nanswer_decoders;
	bool nomem; /* an allocation failed: the report is incomplete */
};

/* An empty report for the form at path (copied). */
void report_init(struct report *r, const char *path);
void report_free(struct report *r);

/*
 * Add a problem.  rule is static; pointer, reason and fix (NULL: none)
 * are copied.  Past REPORT_PROBLEMS_MAX only counted; out of memory sets
 * r->nomem.
 */
void report_add(struct report *r, enum report_severity sev, const char *rule,
    const char *pointer, const char *reason, const char *fix);
/* report_add with a printf format for the reason. */
void report_addf(struct report *r, enum report_severity sev, const char *rule,
    const char *pointer, const char *fix, const char *fmt, ...)
    GPT_PRINTF(6, 7);

/* Record that keyword name (len bytes) is an annotation, first at
 * pointer; a name already recorded is not added again. */
void report_annotation(
    struct report *r, const char *name, size_t len, const char *pointer);

/* A decoder's entry (id, name and verified borrowed); NULL when full. */
struct report_decoder *report_decoder(
    struct report *r, const char *id, const char *name, const char *verified);
/* Record keyword at pointer as refused (refused true) or ignored. */
void report_decoder_site(struct report *r, struct report_decoder *d,
    bool refused, const char *pointer, const char *keyword);

/* Put refusals before warnings (stable). */
void report_sort(struct report *r);

/* The problems of severity sev. */
size_t report_count(const struct report *r, enum report_severity sev);

/* The report for people, to f. */
void report_text(const struct report *r, FILE *f);

/* The report as one JSON document (and a newline), appended to out.
 * 0, or -1 when out's maximum refuses. */
int report_json(const struct report *r, struct buf *out) GPT_MUSTCHECK;

#endif /* GPT_REPORT_H */
