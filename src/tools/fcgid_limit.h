/*
 * fcgid_limit.h: --check's look at the body limit Apache's mod_fcgid puts
 * in front of an address.  Debian's stock cgi-bin hands every *.fcgi to
 * mod_fcgid (its fcgid.conf: AddHandler fcgid-script .fcgi), whose
 * FcgidMaxRequestLen is 131072 bytes unless configured: an act larger
 * than that gets a 500 from Apache before gpt.fcgi reads it, however
 * large max_body is.  Only --check reads the web server's configuration;
 * the responder never does.
 */
#ifndef GPT_FCGID_LIMIT_H
#define GPT_FCGID_LIMIT_H

#include "base/common.h"

struct report;

/* mod_fcgid's FcgidMaxRequestLen when no configuration sets it. */
#define FCGID_MAX_REQUEST_LEN_DEFAULT 131072u

/*
 * The largest FcgidMaxRequestLen set in text[0..len) (an Apache
 * configuration file: directives are case-insensitive, # starts a comment
 * line), in *out; 0 when none is set, -1 (and *out 0) for a value that
 * is not a number of bytes.  Bounded by len.
 */
int fcgid_limit_scan(const char *text, size_t len, unsigned long long *out);

/*
 * Warn in r when the address dir is reached the cgi-bin way (it is, or
 * is in, a directory named *.fcgi.d beside its program), mod_fcgid is
 * enabled in Apache's configuration directory (GPT_APACHE_CONFDIR, else
 * /etc/apache2, when readable) and max_body is above the largest
 * FcgidMaxRequestLen the configuration sets (or the default).
 */
void fcgid_limit_check(const char *dir, size_t max_body, struct report *r);

#endif /* GPT_FCGID_LIMIT_H */
