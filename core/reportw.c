/* The report page's writer: text, escaping, keys, shares and spans into the page. */
#include "reportw.h"
#include "report_model.h"

#include "key.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void hb_rw_put(struct hb_rw *w, const char *s)
{
	if (!w->rc)
		w->rc = hb_buf_adds(w->b, s);
}

void hb_rw_putf(struct hb_rw *w, const char *fmt, ...)
{
	va_list ap;

	if (w->rc)
		return;
	va_start(ap, fmt);
	w->rc = hb_buf_vaddf(w->b, fmt, ap);
	va_end(ap);
}

/* n bytes of text, escaped for HTML text and attribute values. */
void hb_rw_esc_n(struct hb_rw *w, const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n && !w->rc; i++) {
		switch (s[i]) {
		case '&':
			hb_rw_put(w, "&amp;");
			break;
		case '<':
			hb_rw_put(w, "&lt;");
			break;
		case '>':
			hb_rw_put(w, "&gt;");
			break;
		case '"':
			hb_rw_put(w, "&quot;");
			break;
		case '\'':
			hb_rw_put(w, "&#39;");
			break;
		default:
			w->rc = hb_buf_addc(w->b, s[i]);
		}
	}
}

void hb_rw_esc(struct hb_rw *w, const char *s)
{
	hb_rw_esc_n(w, s ? s : "", s ? strlen(s) : 0);
}

/* A key in toStringBinary form, escaped; at most max characters (0: all), cut before an
 * escape rather than inside one, with "..." after a cut. An empty key is unbounded: end
 * says which side. */
void hb_rw_key_text(struct hb_rw *w, const unsigned char *k, size_t n, int end, size_t max)
{
	size_t len;

	if (w->rc)
		return;
	if (!n) {
		hb_rw_put(w, end ? "(table end)" : "(table start)");
		return;
	}
	hb_buf_reset(&w->tmp);
	w->rc = hb_tsb_append(&w->tmp, k, n);
	if (w->rc)
		return;
	len = w->tmp.len;
	if (max && len > max) {
		size_t cut = max, j;

		for (j = cut >= 3 ? cut - 3 : 0; j < cut; j++)
			if (w->tmp.data[j] == '\\')
				cut = j;
		hb_rw_esc_n(w, w->tmp.data, cut);
		hb_rw_put(w, "...");
		return;
	}
	hb_rw_esc_n(w, w->tmp.data, len);
}

/* A share as a percentage with three significant digits. */
void hb_rw_pct(struct hb_rw *w, double share)
{
	if (share <= 0)
		hb_rw_put(w, "0%");
	else
		hb_rw_putf(w, "%.3g%%", share * 100);
}

/* The label text of runs of regions: "r3" or "r3-7". */
void hb_rw_run_name(struct hb_rw *w, size_t first, size_t last)
{
	if (first == last)
		hb_rw_putf(w, "r%zu", first);
	else
		hb_rw_putf(w, "r%zu-%zu", first, last);
}

/* A span [p, p + wd) of the axis in pixels of the bar: at least HB_REPORT_MIN_W wide,
 * centred on its place, inside the bar. */
void hb_rw_span_px(double p, double wd, double *x, double *wpx)
{
	double x0 = p * HB_REPORT_MAP_W, w0 = wd * HB_REPORT_MAP_W;

	if (w0 < HB_REPORT_MIN_W) {
		x0 = x0 + w0 / 2 - HB_REPORT_MIN_W / 2.0;
		w0 = HB_REPORT_MIN_W;
	}
	if (x0 < 0)
		x0 = 0;
	if (x0 + w0 > HB_REPORT_MAP_W)
		x0 = HB_REPORT_MAP_W - w0;
	*x = x0 + HB_REPORT_MAP_X0;
	*wpx = w0;
}
