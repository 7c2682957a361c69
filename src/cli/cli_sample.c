/*
 * cli_sample.c: `gpt.fcgi --sample [--count K] [--seed S] SCHEMA`, values
 * the form accepts (sample.h), one compact JSON text a line, for an
 * operator trying a form and for the clients' dry runs.
 *
 * Each value printed has passed the validator.  Exit 0: K values
 * printed; 1: the form cannot be sampled (the values found so far are
 * printed, the reason is on stderr); 2: usage, or the form does not load.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "cli/cli.h"
#include "cli/cli_form.h"
#include "tools/sample.h"

#define CLI_SAMPLE_COUNT_MAX 100000

/* An unsigned decimal in [lo, hi] (--count 0x10, --seed -1). */
static int
read_num(const char *s, unsigned long long lo, unsigned long long hi,
    unsigned long long *out)
{
	char *end;

	if (s[0] < '0' || s[0] > '9')
		return -1;
	*out = strtoull(s, &end, 10);
	return *end == '\0' && *out >= lo && *out <= hi ? 0 : -1;
}

int
cli_sample(int argc, char **argv)
{
	struct cli_form f;
	struct sample_gen *g = NULL;
	struct sample_err err;
	struct buf out;
	unsigned long long count = 1, seed = 1, k;
	int i = 1, status = 2;

	cli_form_init(&f);
	buf_init(&out, CLI_INPUT_MAX);
	for (;;) {
		int before = i;

		if (cli_form_opt(&f, argc, argv, &i) == -1)
			goto done;
		if (i + 1 < argc && strcmp(argv[i], "--count") == 0) {
			if (read_num(argv[i + 1], 1, CLI_SAMPLE_COUNT_MAX,
			        &count) == -1)
				goto usage;
			i += 2;
		} else if (i + 1 < argc && strcmp(argv[i], "--seed") == 0) {
			if (read_num(argv[i + 1], 0, UINT64_MAX, &seed) == -1)
				goto usage;
			i += 2;
		}
		if (i == before)
			break;
	}
	if (argc - i != 1 || strncmp(argv[i], "--", 2) == 0)
		goto usage;
	if (cli_form_load(&f, argv[i]) == -1)
		goto done;
	if ((g = sample_new(f.form, seed)) == NULL)
		goto nomem;
	for (k = 0; k < count; k++) {
		buf_reset(&out);
		switch (sample_next(g, &out, &err)) {
		case 0:
			break;
		case -1:
			fprintf(stderr, "gpt.fcgi: %s: cannot sample: %s\n",
			    f.path, err.reason);
			status = 1;
			goto done;
		default:
			goto nomem;
		}
		fwrite(buf_ptr(&out), 1, buf_len(&out), stdout);
		fputc('\n', stdout);
	}
	status = fflush(stdout) == 0 ? 0 : 2;
	goto done;
nomem:
	fprintf(stderr, "gpt.fcgi: out of memory\n");
	goto done;
usage:
	fputs("usage: gpt.fcgi --sample [--count K] [--seed "
	      "S] " CLI_FORM_OPTS_USAGE " DIR-or-SCHEMA.json\n",
	    stderr);
done:
	sample_free(g);
	buf_free(&out);
	cli_form_free(&f);
	return status;
}
