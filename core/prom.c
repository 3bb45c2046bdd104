/* Prometheus text exposition 0.0.4: a run's report as gauges, escaping, and reading a sample. */
#include "prom.h"
#include "key.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int hb_prom_success(int status)
{
	return status == 0 || status == 1;
}

/* [a-zA-Z_:][a-zA-Z0-9_:]* for metric names (colons = 1), [a-zA-Z_][a-zA-Z0-9_]* for labels. */
static size_t name_len(const char *s, size_t n, int colons)
{
	size_t i;

	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
		         (colons && c == ':') || (i && c >= '0' && c <= '9');

		if (!ok)
			break;
	}
	return i;
}

static void check_name(const char *s, int colons)
{
	/* Names come from the code, never from input: a bad one is a bug. */
	if (!s || !*s || name_len(s, strlen(s), colons) != strlen(s) || !strncmp(s, "__", 2))
		HB_BUG("invalid Prometheus metric or label name");
}

int hb_prom_escape_label(struct hb_buf *out, const char *s, size_t n)
{
	size_t i = 0;
	int rc = 0;

	while (!rc && i < n) {
		size_t len = hb_utf8_len(s + i, n - i);

		if (!len) {
			rc = hb_buf_adds(out, "\xEF\xBF\xBD"); /* U+FFFD */
			i++;
		} else if (s[i] == '\\') {
			rc = hb_buf_adds(out, "\\\\");
			i++;
		} else if (s[i] == '"') {
			rc = hb_buf_adds(out, "\\\"");
			i++;
		} else if (s[i] == '\n') {
			rc = hb_buf_adds(out, "\\n");
			i++;
		} else {
			rc = hb_buf_add(out, s + i, len);
			i += len;
		}
	}
	return rc ? HB_ENOMEM : 0;
}

int hb_prom_escape_help(struct hb_buf *out, const char *s)
{
	int rc = 0;

	for (; !rc && *s; s++)
		rc = *s == '\\'   ? hb_buf_adds(out, "\\\\")
		     : *s == '\n' ? hb_buf_adds(out, "\\n")
		                  : hb_buf_addc(out, *s);
	return rc ? HB_ENOMEM : 0;
}

int hb_prom_value(struct hb_buf *out, double v)
{
	char tmp[40];
	int prec;

	if (isnan(v))
		return hb_buf_adds(out, "NaN") ? HB_ENOMEM : 0;
	if (isinf(v))
		return hb_buf_adds(out, v > 0 ? "+Inf" : "-Inf") ? HB_ENOMEM : 0;
	if (v == floor(v) && fabs(v) < 9007199254740992.0)
		return hb_buf_addf(out, "%.0f", v == 0 ? 0.0 : v) ? HB_ENOMEM : 0;
	for (prec = 1; prec < 17; prec++) {
		snprintf(tmp, sizeof(tmp), "%.*g", prec, v);
		if (strtod(tmp, NULL) == v)
			break;
	}
	if (prec == 17)
		snprintf(tmp, sizeof(tmp), "%.17g", v);
	return hb_buf_adds(out, tmp) ? HB_ENOMEM : 0;
}

static int family(struct hb_buf *b, const char *name, const char *help)
{
	check_name(name, 1);
	return hb_buf_addf(b, "# HELP %s ", name) || hb_prom_escape_help(b, help) ||
	       hb_buf_addf(b, "\n# TYPE %s gauge\n", name);
}

/* name{[command="C",]<subject_label>="S"[,kind="K"]} value */
static int sample(struct hb_buf *b, const char *name, const struct hb_prom_report *r,
                  int with_command, const char *kind, double v)
{
	const char *subj = r->subject ? r->subject : "";
	int rc = hb_buf_adds(b, name) || hb_buf_addc(b, '{');

	if (!rc && with_command)
		rc = hb_buf_adds(b, "command=\"") ||
		     hb_prom_escape_label(b, r->command, strlen(r->command)) ||
		     hb_buf_adds(b, "\",");
	if (!rc)
		rc = hb_buf_addf(b, "%s=\"", r->subject_label) ||
		     hb_prom_escape_label(b, subj, strlen(subj)) || hb_buf_addc(b, '"');
	if (!rc && kind)
		rc = hb_buf_adds(b, ",kind=\"") || hb_prom_escape_label(b, kind, strlen(kind)) ||
		     hb_buf_addc(b, '"');
	if (!rc)
		rc = hb_buf_adds(b, "} ") || hb_prom_value(b, v) || hb_buf_addc(b, '\n');
	return rc;
}

int hb_prom_report(struct hb_buf *out, const struct hb_prom_report *r)
{
	int ok = hb_prom_success(r->status), rc;
	double last = ok ? r->now : r->last_success;
	size_t i;

	check_name(r->subject_label, 0);
	if (!r->command)
		HB_BUG("a Prometheus report without a command");
	rc = family(out, "hbtab_last_run_success",
	            "Whether hbtab's last run of the command completed (1: exit status 0 or 1, "
	            "findings included) or failed (0).") ||
	     sample(out, "hbtab_last_run_success", r, 1, NULL, ok ? 1 : 0) ||
	     family(out, "hbtab_last_run_exit_status", "Exit status of hbtab's last run.") ||
	     sample(out, "hbtab_last_run_exit_status", r, 1, NULL, r->status) ||
	     family(out, "hbtab_last_run_timestamp_seconds",
	            "When hbtab's last run ended, in seconds since the epoch.") ||
	     sample(out, "hbtab_last_run_timestamp_seconds", r, 1, NULL, r->now);
	if (!rc && last >= 0)
		rc =
		    family(out, HB_PROM_LAST_SUCCESS,
		           "When hbtab's last successful run ended, in seconds since the epoch.") ||
		    sample(out, HB_PROM_LAST_SUCCESS, r, 1, NULL, last);
	if (!rc && r->kinds_metric && r->nkinds) {
		rc = family(out, r->kinds_metric, r->kinds_help ? r->kinds_help : "");
		for (i = 0; !rc && i < r->nkinds; i++)
			rc =
			    sample(out, r->kinds_metric, r, 0, r->kinds[i].kind, r->kinds[i].value);
	}
	for (i = 0; !rc && i < r->ngauges; i++) {
		const struct hb_prom_gauge *g = &r->gauges[i];

		if (isnan(g->value))
			continue;
		rc = family(out, g->name, g->help ? g->help : "") ||
		     sample(out, g->name, r, 0, NULL, g->value);
	}
	return rc ? HB_ENOMEM : 0;
}

/* ---------------------------------------------------------------- reading a sample back */

static const char *skip_blank(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	return p;
}

/* Reads a quoted label value at *pp (after the opening quote) into v, unescaped; *pp ends
 * after the closing quote. -1 when malformed or out of memory. */
static int read_value(const char **pp, const char *end, struct hb_buf *v)
{
	const char *p = *pp;

	hb_buf_reset(v);
	if (hb_buf_add(v, "", 0))
		return -1;
	while (p < end && *p != '"') {
		char c = *p++;

		if (c == '\\') {
			if (p >= end)
				return -1;
			c = *p++;
			c = c == 'n' ? '\n' : c; /* \\ and \" stand for themselves */
		}
		if (hb_buf_addc(v, c))
			return -1;
	}
	if (p >= end)
		return -1;
	*pp = p + 1;
	return 0;
}

/* Whether the line [p, end) is a sample of name with exactly the given labels; its value in
 * *out when it is. */
static int line_matches(const char *p, const char *end, const char *name, const char *const *labels,
                        size_t nlabels, struct hb_buf *v, double *out)
{
	size_t len = name_len(p, (size_t)(end - p), 1), matched = 0, seen = 0, i;
	unsigned long used = 0; /* the given labels already matched: a repeated name counts once */
	char num[64];
	char *stop;

	if (!len || len != strlen(name) || memcmp(p, name, len) || nlabels > 32)
		return 0;
	p = skip_blank(p + len, end);
	if (p < end && *p == '{') {
		p = skip_blank(p + 1, end);
		while (p < end && *p != '}') {
			const char *ln = p;
			size_t ll = name_len(p, (size_t)(end - p), 0);

			if (!ll)
				return 0;
			p = skip_blank(p + ll, end);
			if (p >= end || *p != '=')
				return 0;
			p = skip_blank(p + 1, end);
			if (p >= end || *p != '"')
				return 0;
			p++;
			if (read_value(&p, end, v))
				return 0;
			seen++;
			for (i = 0; i < nlabels; i++)
				if (!(used >> i & 1) && strlen(labels[2 * i]) == ll &&
				    !memcmp(labels[2 * i], ln, ll) &&
				    v->len == strlen(labels[2 * i + 1]) &&
				    !memcmp(v->data, labels[2 * i + 1], v->len)) {
					used |= 1ul << i;
					matched++;
					break;
				}
			p = skip_blank(p, end);
			if (p < end && *p == ',')
				p = skip_blank(p + 1, end);
		}
		if (p >= end)
			return 0;
		p++;
	}
	if (seen != nlabels || matched != nlabels)
		return 0;
	p = skip_blank(p, end);
	len = 0;
	while (p + len < end && p[len] != ' ' && p[len] != '\t' && p[len] != '\r')
		len++;
	if (!len || len >= sizeof(num))
		return 0;
	memcpy(num, p, len);
	num[len] = 0;
	*out = strtod(num, &stop);
	return *stop == 0;
}

int hb_prom_find(const char *text, size_t n, const char *name, const char *const *labels,
                 size_t nlabels, double *out)
{
	const char *p = text, *end = text + n;
	struct hb_buf v = HB_BUF_INIT;
	int found = 0;

	while (!found && p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		const char *line = skip_blank(p, eol ? eol : end);

		if (line < (eol ? eol : end) && *line != '#')
			found = line_matches(line, eol ? eol : end, name, labels, nlabels, &v, out);
		p = eol ? eol + 1 : end;
	}
	hb_buf_release(&v);
	return found ? 0 : HB_ENOTFOUND;
}
