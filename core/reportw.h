/* The report page's writer: private to core/report*.c. */
#ifndef HB_REPORTW_H
#define HB_REPORTW_H

#include "buf.h"

#include <stddef.h>
#include <stdint.h>

/* The page under construction: the first error sticks and later writes do nothing. */
struct hb_rw {
	struct hb_buf *b;
	struct hb_buf tmp;
	int rc;
};

/* Appends s / printf-style text (nothing once a write failed). */
void hb_rw_put(struct hb_rw *w, const char *s);
void hb_rw_putf(struct hb_rw *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Appends n bytes of s / s, escaped for HTML text and attributes. */
void hb_rw_esc_n(struct hb_rw *w, const char *s, size_t n);
void hb_rw_esc(struct hb_rw *w, const char *s);
/* Appends key k in toStringBinary form, escaped, at most max characters (0: all) with "..."
 * after a cut; an empty key is unbounded, end says which side. */
void hb_rw_key_text(struct hb_rw *w, const unsigned char *k, size_t n, int end, size_t max);
/* Appends a share as a percentage with three significant digits. */
void hb_rw_pct(struct hb_rw *w, double share);
/* The label text of runs of regions: "r3" or "r3-7". */
void hb_rw_run_name(struct hb_rw *w, size_t first, size_t last);
/* A span [p, p + wd) of the axis in pixels of the bar: at least HB_REPORT_MIN_W wide,
 * centred on its place, inside the bar. */
void hb_rw_span_px(double p, double wd, double *x, double *wpx);

#endif
