/*
 * fcgid_limit.c: mod_fcgid's body limit against max_body (fcgid_limit.h).
 * Reads a handful of Apache's files, each up to FCGID_FILE_MAX bytes, at
 * --check only.
 */
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "tools/fcgid_limit.h"
#include "tools/report.h"

#define FCGID_FILE_MAX (256u * 1024u)
#define FCGID_FILES_MAX 64u
#define FCGID_DIRECTIVE "FcgidMaxRequestLen"

static bool
fcgid_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

int
fcgid_limit_scan(const char *text, size_t len, unsigned long long *out)
{
	size_t i = 0, dl = strlen(FCGID_DIRECTIVE);
	unsigned long long best = 0;

	*out = 0;
	while (i < len) {
		size_t end = i, j;
		unsigned long long v = 0;

		while (end < len && text[end] != '\n')
			end++;
		j = i;
		while (j < end && fcgid_blank(text[j]))
			j++;
		if (end - j > dl &&
		    strncasecmp(text + j, FCGID_DIRECTIVE, dl) == 0 &&
		    fcgid_blank(text[j + dl])) {
			j += dl;
			while (j < end && fcgid_blank(text[j]))
				j++;
			if (j == end || text[j] < '0' || text[j] > '9')
				/* hits on "FcgidMaxRequestLen 1M" */
				return -1;
			for (; j < end && text[j] >= '0' && text[j] <= '9';
			     j++) {
				if (v > (ULLONG_MAX - 9) / 10)
					return -1;
				v = v * 10 + (unsigned)(text[j] - '0');
			}
			while (j < end && fcgid_blank(text[j]))
				j++;
			if (j != end)
				return -1;
			if (v > best)
				best = v;
		}
		i = end + 1;
	}
	*out = best;
	return 0;
}

/* Scan one file into *best; the number of files read goes up by one. */
static void
fcgid_scan_file(
    const char *path, unsigned long long *best, bool *bad, unsigned *files)
{
	FILE *f;
	char *text;
	size_t n;
	unsigned long long v;

	if (*files >= FCGID_FILES_MAX)
		return;
	(*files)++;
	if ((f = fopen(path, "re")) == NULL)
		return;
	if ((text = malloc(FCGID_FILE_MAX)) == NULL) {
		fclose(f);
		return;
	}
	n = fread(text, 1, FCGID_FILE_MAX, f);
	fclose(f);
	if (fcgid_limit_scan(text, n, &v) == -1)
		*bad = true;
	else if (v > *best)
		*best = v;
	free(text);
}

/* Every *.conf (sites: every file) of confdir/sub. */
static void
fcgid_scan_dir(const char *confdir, const char *sub, bool conf_only,
    unsigned long long *best, bool *bad, unsigned *files)
{
	char path[PATH_MAX];
	struct dirent *e;
	DIR *d;

	if (snprintf(path, sizeof(path), "%s/%s", confdir, sub) >=
	    (int)sizeof(path))
		return;
	if ((d = opendir(path)) == NULL)
		return;
	while ((e = readdir(d)) != NULL && *files < FCGID_FILES_MAX) {
		size_t l = strlen(e->d_name);
		char file[PATH_MAX];

		if (e->d_name[0] == '.')
			continue;
		if (conf_only &&
		    (l < 5 || strcmp(e->d_name + l - 5, ".conf") != 0))
			continue;
		if (snprintf(file, sizeof(file), "%s/%s", path, e->d_name) >=
		    (int)sizeof(file))
			continue;
		fcgid_scan_file(file, best, bad, files);
	}
	closedir(d);
}

/* Whether dir is NAME.fcgi.d or in one: the address of a program in a
 * cgi-bin (SCRIPT_FILENAME.d), which Debian's Apache runs under mod_fcgid. */
static bool
fcgid_cgibin_address(const char *dir)
{
	char real[PATH_MAX], *slash;
	size_t l;
	int k;

	if (realpath(dir, real) == NULL)
		return false;
	for (k = 0; k < 2; k++) {
		l = strlen(real);
		if (l >= 7 && strcmp(real + l - 7, ".fcgi.d") == 0)
			return true;
		if ((slash = strrchr(real, '/')) == NULL || slash == real)
			return false;
		*slash = '\0';
	}
	return false;
}

void
fcgid_limit_check(const char *dir, size_t max_body, struct report *r)
{
	const char *confdir = getenv("GPT_APACHE_CONFDIR");
	char path[PATH_MAX];
	unsigned long long best = 0, limit;
	unsigned files = 0;
	bool bad = false;
	struct stat st;

	if (confdir == NULL || *confdir == '\0')
		confdir = "/etc/apache2";
	if (!fcgid_cgibin_address(dir))
		return;
	if (snprintf(path, sizeof(path), "%s/mods-enabled/fcgid.load",
	        confdir) >= (int)sizeof(path) ||
	    stat(path, &st) == -1)
		return;
	if (snprintf(path, sizeof(path), "%s/apache2.conf", confdir) <
	    (int)sizeof(path))
		fcgid_scan_file(path, &best, &bad, &files);
	fcgid_scan_dir(confdir, "mods-enabled", true, &best, &bad, &files);
	fcgid_scan_dir(confdir, "conf-enabled", true, &best, &bad, &files);
	fcgid_scan_dir(confdir, "sites-enabled", false, &best, &bad, &files);
	if (bad)
		report_addf(r, REPORT_WARNING, "fcgid-max-request-len", "",
		    "set FcgidMaxRequestLen to a number of bytes",
		    "%s enables mod_fcgid and a FcgidMaxRequestLen there is "
		    "not a number of bytes: its limit on acts is unknown",
		    confdir);
	limit = best != 0 ? best : FCGID_MAX_REQUEST_LEN_DEFAULT;
	if ((unsigned long long)max_body <= limit)
		return;
	{
		char fix[160];

		snprintf(fix, sizeof(fix),
		    "FcgidMaxRequestLen %zu in %s/mods-available/fcgid.conf, "
		    "or a max_body of at most %llu",
		    max_body, confdir, limit);
		report_addf(r, REPORT_WARNING, "fcgid-max-request-len", "", fix,
		    "max_body %zu is above mod_fcgid's FcgidMaxRequestLen "
		    "%llu (%s; %s enables mod_fcgid, which Debian's Apache "
		    "runs *.fcgi in a cgi-bin with): a larger act gets 500 "
		    "from Apache before gpt.fcgi sees it",
		    max_body, limit, best != 0 ? "set there" : "its default",
		    confdir);
	}
}
