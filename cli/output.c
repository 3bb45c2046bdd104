/* Text tables (aligned on a terminal, tab-separated when piped) and JSON output helpers. */
#include "output.h"
#include "../core/audit.h"
#include "../core/jsonstr.h"
#include "../core/key.h"
#include "../core/vec.h"
#include "cli.h"
#include "progress.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int cli_stdout_tty(void)
{
	static int cached = -1;

	if (cached < 0)
		cached = isatty(STDOUT_FILENO);
	return cached;
}

const char *cli_color(const char *sgr)
{
	return cli_g.color ? sgr : "";
}

int cli_table_init(struct cli_table *t, size_t ncols, const char *const *headers)
{
	size_t i;

	memset(t, 0, sizeof(*t));
	t->ncols = ncols;
	t->headers = (const char **)headers;
	t->width = calloc(ncols, sizeof(*t->width));
	if (!t->width)
		return HB_ENOMEM;
	for (i = 0; i < ncols; i++)
		t->width[i] = strlen(headers[i]);
	return 0;
}

void cli_table_release(struct cli_table *t)
{
	size_t i;

	for (i = 0; t->cells && i < t->ncells; i++)
		free(t->cells[i]);
	free(t->cells);
	free(t->width);
	memset(t, 0, sizeof(*t));
}

/* Display width: UTF-8 continuation bytes do not count. */
static size_t display_width(const char *s)
{
	size_t w = 0;

	for (; *s; s++)
		if (((unsigned char)*s & 0xC0) != 0x80)
			w++;
	return w;
}

/* Whether the valid UTF-8 sequence at p (l bytes) is a C1 control (U+0080..U+009F). */
static int is_c1(const unsigned char *p, size_t l)
{
	return l == 2 && p[0] == 0xC2 && p[1] < 0xA0;
}

/*
 * Appends s for a terminal: one row per line whatever the data holds (tab, newline and CR as
 * \t \n \r), and no byte that a terminal would act on (other C0 controls such as ESC, DEL,
 * C1 controls) nor invalid UTF-8: those as toStringBinary's \xHH per byte.
 */
static int add_terminal_safe(struct hb_buf *b, const char *s)
{
	static const char hex[] = "0123456789ABCDEF";
	const unsigned char *p = (const unsigned char *)s;
	size_t n = strlen(s), i = 0, l, k;
	int rc = 0;

	while (!rc && i < n) {
		unsigned char c = p[i];

		if (c == '\t' || c == '\n' || c == '\r') {
			char esc[2] = {'\\', c == '\t' ? 't' : c == '\n' ? 'n' : 'r'};

			rc = hb_buf_add(b, esc, 2);
			i++;
		} else if (c >= 0x20 && c < 0x7F) {
			rc = hb_buf_addc(b, (char)c);
			i++;
		} else if (c >= 0x80 && (l = hb_utf8_len(p + i, n - i)) > 0 && !is_c1(p + i, l)) {
			rc = hb_buf_add(b, p + i, l);
			i += l;
		} else {
			/* A C0/C1 control or DEL (every byte of it), or one byte of bad UTF-8. */
			l = c >= 0x80 ? hb_utf8_len(p + i, n - i) : 0;
			if (!l)
				l = 1;
			for (k = 0; !rc && k < l; k++) {
				char esc[4] = {'\\', 'x', hex[p[i + k] >> 4], hex[p[i + k] & 15]};

				rc = hb_buf_add(b, esc, 4);
			}
			i += l;
		}
	}
	return rc;
}

/* The length of s's first run of printable ASCII bytes (shown on a terminal as they are). */
static size_t plain_prefix(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0;

	while (p[i] - 0x20u < 0x5Fu)
		i++;
	return i;
}

/* Keeps cell s (n bytes, terminal-safe, its display width w) or, streaming, prints it. */
static int table_take(struct cli_table *t, const char *s, size_t n, size_t w)
{
	char *cell;

	if (t->stream) {
		if (!t->ncells)
			cli_progress_done();
		fwrite(s, 1, n, stdout);
		putchar(++t->ncells % t->ncols ? '\t' : '\n');
		return 0;
	}
	if (HB_VEC_GROW(t->cells, t->cap, t->ncells + 1, 64) || !(cell = malloc(n + 1)))
		return HB_ENOMEM;
	memcpy(cell, s, n + 1);
	if (w > t->width[t->ncells % t->ncols])
		t->width[t->ncells % t->ncols] = w;
	t->cells[t->ncells++] = cell;
	return 0;
}

int cli_table_add(struct cli_table *t, const char *s)
{
	struct hb_buf b = HB_BUF_INIT;
	size_t n;
	int rc;

	if (!s)
		s = "-";
	n = plain_prefix(s);
	if (!s[n]) /* the usual cell: nothing to escape */
		return table_take(t, s, n, n);
	if (add_terminal_safe(&b, s) || hb_buf_add(&b, "", 0)) {
		hb_buf_release(&b);
		return HB_ENOMEM;
	}
	rc = table_take(t, b.data, b.len, display_width(b.data));
	hb_buf_release(&b);
	return rc;
}

int cli_table_addf(struct cli_table *t, const char *fmt, ...)
{
	struct hb_buf b = HB_BUF_INIT;
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = hb_buf_vaddf(&b, fmt, ap);
	va_end(ap);
	if (!rc)
		rc = cli_table_add(t, hb_buf_str(&b));
	hb_buf_release(&b);
	return rc;
}

static void print_row(const struct cli_table *t, const char *const *cells, int tsv)
{
	size_t i;

	for (i = 0; i < t->ncols; i++) {
		const char *s = cells[i];

		if (tsv) {
			fputs(s, stdout);
			putchar(i + 1 < t->ncols ? '\t' : '\n');
		} else if (i + 1 < t->ncols) {
			size_t w = display_width(s);

			fputs(s, stdout);
			for (; w < t->width[i] + 2; w++)
				putchar(' ');
		} else {
			puts(s);
		}
	}
}

void cli_table_stream(struct cli_table *t)
{
	t->stream = !cli_stdout_tty() && !t->ncells;
}

int cli_table_print(const struct cli_table *t, int force_tsv)
{
	int tsv = force_tsv || !cli_stdout_tty();
	size_t r;

	cli_progress_done();
	if (t->stream)
		return ferror(stdout) ? HB_EINVAL : 0;
	if (!tsv)
		print_row(t, t->headers, 0);
	for (r = 0; r + t->ncols <= t->ncells; r += t->ncols)
		print_row(t, (const char *const *)t->cells + r, tsv);
	return ferror(stdout) ? HB_EINVAL : 0;
}

/*
 * cJSON copies string bytes through unchecked, so a server string that is not UTF-8 would make
 * the document invalid JSON, and it leaves DEL and C1 controls raw for the terminal. Outside
 * strings its output is ASCII, so each such byte is inside a string and can be replaced there:
 * a byte of bad UTF-8 by \ufffd, DEL and C1 controls by their \u00XX escape.
 */
static int json_text_safe(struct hb_buf *out, const char *s)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *p = (const unsigned char *)s;
	size_t n = strlen(s), i = 0, from = 0, l;
	int rc = 0;

	while (!rc && i < n) {
		unsigned cp;

		if (p[i] < 0x7F) {
			i++;
			continue;
		}
		l = p[i] == 0x7F ? 1 : hb_utf8_len(p + i, n - i);
		if (l > 1 && !is_c1(p + i, l)) {
			i += l;
			continue;
		}
		rc = hb_buf_add(out, p + from, i - from);
		if (!rc && !l) {
			rc = hb_buf_adds(out, "\\ufffd");
			l = 1;
		} else if (!rc) {
			char esc[6] = {'\\', 'u', '0', '0', 0, 0};

			cp = l == 1 ? 0x7F : (unsigned)(p[i + 1] & 0x3F) | 0x80;
			esc[4] = hex[cp >> 4];
			esc[5] = hex[cp & 15];
			rc = hb_buf_add(out, esc, 6);
		}
		i += l;
		from = i;
	}
	return rc ? rc : hb_buf_add(out, p + from, n - from);
}

int cli_json_print(const cJSON *root)
{
	char *s = cli_stdout_tty() ? cJSON_Print(root) : cJSON_PrintUnformatted(root);
	struct hb_buf b = HB_BUF_INIT;
	int rc;

	cli_progress_done();
	if (!s)
		return HB_ENOMEM;
	rc = json_text_safe(&b, s);
	cJSON_free(s);
	if (!rc)
		rc = hb_buf_addc(&b, '\n');
	if (!rc)
		rc = cli_write_stdout(b.data, b.len);
	hb_buf_release(&b);
	return rc;
}

const char *cli_num(char *out, double v)
{
	int prec;

	if (!isfinite(v)) {
		memcpy(out, "null", 5);
		return out;
	}
	/* A shorter text that reads back as v would also be what 15 digits print (%g drops
	 * trailing zeros), so the first precision that reads back is the shortest. */
	for (prec = 15; prec < 17; prec++) {
		snprintf(out, CLI_NUM_MAX, "%.*g", prec, v);
		if (strtod(out, NULL) == v)
			return out;
	}
	snprintf(out, CLI_NUM_MAX, "%.17g", v);
	return out;
}

int cli_json_str(struct hb_buf *out, const char *s, size_t n)
{
	return hb_json_str(out, s, n);
}

cJSON *cli_json_add_str(cJSON *obj, const char *key, const char *s)
{
	if (!obj)
		return NULL;
	if (!s)
		return cJSON_AddNullToObject(obj, key);
	return cJSON_AddStringToObject(obj, key, s);
}

cJSON *cli_json_add_tsb(cJSON *obj, const char *key, const void *k, size_t n)
{
	struct hb_buf b = HB_BUF_INIT;
	cJSON *r = NULL;

	if (obj && !hb_tsb_append(&b, k, n) && !hb_buf_add(&b, "", 0))
		r = cJSON_AddStringToObject(obj, key, b.data);
	hb_buf_release(&b);
	return r;
}

int cli_json_strz(struct hb_buf *out, const char *s)
{
	return s ? cli_json_str(out, s, strlen(s)) : hb_buf_adds(out, "null");
}

int cli_json_tsb(struct hb_buf *out, const void *k, size_t n, struct hb_buf *tmp)
{
	(void)tmp;
	/* toStringBinary output is printable ASCII, so its JSON string only escapes '"' and the
	 * backslash of each \\xHH */
	return hb_buf_addc(out, '"') || hb_tsb_append_escaped(out, k, n, 0) || hb_buf_addc(out, '"')
	           ? HB_ENOMEM
	           : 0;
}

int cli_stream_flush(struct hb_buf *b, int force)
{
	int rc = 0;

	if (b->len >= (1u << 16) || (force && b->len)) {
		rc = cli_write_stdout(b->data, b->len);
		hb_buf_reset(b);
	}
	return rc;
}

int cli_json_finding(struct hb_buf *b, int first, const char *kind, long region, const char *msg,
                     size_t len, int escaped)
{
	int rc =
	    hb_buf_adds(b, first ? "{\"kind\":\"" : ",{\"kind\":\"") || hb_buf_adds(b, kind) ||
	    hb_buf_adds(b, "\",\"region\":") ||
	    (region < 0 ? hb_buf_adds(b, "null") : hb_buf_add_uint(b, (unsigned long long)region));

	if (!rc && escaped)
		rc = hb_buf_adds(b, ",\"message\":\"") || hb_buf_add(b, msg, len) ||
		     hb_buf_adds(b, "\"}");
	else if (!rc)
		rc = hb_buf_adds(b, ",\"message\":") || cli_json_str(b, msg, len) ||
		     hb_buf_addc(b, '}');
	return rc ? HB_ENOMEM : 0;
}

int cli_json_findings(struct hb_buf *b, const struct hb_findings *f)
{
	size_t i;

	if (hb_buf_adds(b, "\"findings\":["))
		return HB_ENOMEM;
	for (i = 0; i < f->n; i++)
		if (cli_json_finding(b, !i, f->v[i].kind, f->v[i].region, f->v[i].message,
		                     strlen(f->v[i].message), 0))
			return HB_ENOMEM;
	return hb_buf_addc(b, ']') ? HB_ENOMEM : 0;
}

int cli_text_finding(struct hb_buf *b, const char *kind, const char *msg, size_t len)
{
	return hb_buf_adds(b, cli_color(CLI_RED)) || hb_buf_adds(b, kind) ||
	               hb_buf_adds(b, cli_color(CLI_RESET)) || hb_buf_add(b, ": ", 2) ||
	               hb_buf_add(b, msg, len) || hb_buf_addc(b, '\n')
	           ? HB_ENOMEM
	           : 0;
}
