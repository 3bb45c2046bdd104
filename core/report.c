/* hbtab report's page: the key-space map, servers, a plan's boundaries before and after and
 * simulated writes, as inline SVG with every figure again as a table. */
#include "report.h"
#include "keyspace.h"

#include <gmp.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

const char *const hb_report_colour[HB_RC_COUNT] = {
    "#d7263d", /* unreachable: red */
    "#7b4fc9", /* not open: violet */
    "#3d3d3d", /* another chain defect: near black */
    "#f28c28", /* hot: orange */
    "#e8c547", /* drift: yellow */
    "#3a9d5d", /* reachable: green */
};

const char *const hb_report_class_name[HB_RC_COUNT] = {
    "unreachable", "not open", "chain defect", "hot", "drift", "reachable",
};

#define MAP_H     40 /* the bar's height */
#define MAP_TOP   28 /* room above it for the flagged runs' labels */
#define LABEL_GAP 14 /* pixels between two boundary labels */
#define KEY_LABEL 22 /* characters of a key shown in a label */

/* ---------------------------------------------------------------- the writer */

/* The page under construction: the first error sticks and later writes do nothing. */
struct w {
	struct hb_buf *b;
	struct hb_buf tmp;
	int rc;
};

static void put(struct w *w, const char *s)
{
	if (!w->rc)
		w->rc = hb_buf_adds(w->b, s);
}

static void putf(struct w *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void putf(struct w *w, const char *fmt, ...)
{
	va_list ap;

	if (w->rc)
		return;
	va_start(ap, fmt);
	w->rc = hb_buf_vaddf(w->b, fmt, ap);
	va_end(ap);
}

/* n bytes of text, escaped for HTML text and attribute values. */
static void esc_n(struct w *w, const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n && !w->rc; i++) {
		switch (s[i]) {
		case '&':
			put(w, "&amp;");
			break;
		case '<':
			put(w, "&lt;");
			break;
		case '>':
			put(w, "&gt;");
			break;
		case '"':
			put(w, "&quot;");
			break;
		case '\'':
			put(w, "&#39;");
			break;
		default:
			w->rc = hb_buf_addc(w->b, s[i]);
		}
	}
}

static void esc(struct w *w, const char *s)
{
	esc_n(w, s ? s : "", s ? strlen(s) : 0);
}

/* A key in toStringBinary form, escaped; at most max characters (0: all), cut before an
 * escape rather than inside one, with "..." after a cut. An empty key is unbounded: end
 * says which side. */
static void key_text(struct w *w, const unsigned char *k, size_t n, int end, size_t max)
{
	size_t len;

	if (w->rc)
		return;
	if (!n) {
		put(w, end ? "(table end)" : "(table start)");
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
		esc_n(w, w->tmp.data, cut);
		put(w, "...");
		return;
	}
	esc_n(w, w->tmp.data, len);
}

/* A share as a percentage with three significant digits. */
static void pct(struct w *w, double share)
{
	if (share <= 0)
		put(w, "0%");
	else
		putf(w, "%.3g%%", share * 100);
}

/* ---------------------------------------------------------------- classes */

static int finding_class(const char *kind)
{
	if (!strcmp(kind, HB_FIND_UNREACHABLE))
		return HB_RC_UNREACHABLE;
	if (!strcmp(kind, HB_FIND_NOT_OPEN) || !strcmp(kind, HB_FIND_OFFLINE) ||
	    !strcmp(kind, HB_FIND_SPLIT_PARENT) || !strcmp(kind, HB_FIND_NO_SERVER))
		return HB_RC_NOT_OPEN;
	if (!strcmp(kind, HB_FIND_HOTSPOT))
		return HB_RC_HOT;
	if (!strcmp(kind, HB_FIND_DRIFT))
		return HB_RC_DRIFT;
	if (!strcmp(kind, HB_FIND_PLACEMENT) || !strcmp(kind, HB_FIND_MISSING_METADATA) ||
	    !strcmp(kind, HB_FIND_DISABLED) || !strcmp(kind, HB_FIND_STATE_UNKNOWN))
		return HB_RC_OK; /* about the table, not the region */
	return HB_RC_DEFECT;
}

int hb_report_classes(unsigned char **out, const struct hb_audit_report *a)
{
	size_t i, n = a->rs.n;
	unsigned char *c = malloc(n ? n : 1);

	*out = c;
	if (!c)
		return HB_ENOMEM;
	memset(c, HB_RC_OK, n);
	for (i = 0; i < a->a.findings.n; i++) {
		const struct hb_finding *f = &a->a.findings.v[i];
		int k = finding_class(f->kind);

		if (f->region >= 0 && (size_t)f->region < n && k < c[f->region])
			c[f->region] = (unsigned char)k;
	}
	/* a region the audit decided unreachable without a finding (not live) */
	for (i = 0; i < n && i < a->a.n; i++) {
		struct hb_audit_region ar;

		hb_audit_at(&a->a, i, &ar);
		if (ar.reachable == 0 && c[i] > HB_RC_UNREACHABLE && c[i] != HB_RC_NOT_OPEN)
			c[i] = HB_RC_UNREACHABLE;
	}
	return 0;
}

/* ---------------------------------------------------------------- geometry */

/* The audit's regions on the axis: region i spans [pos[i], pos[i] + width[i]) of [0, 1]. */
struct axis {
	double *pos, *width;
	size_t n;
	int by_share; /* 0: no shares known, one equal width per live region */
};

static int axis_make(struct axis *ax, const struct hb_audit_report *a)
{
	size_t i, n = a->rs.n, live = 0;
	double sum = 0, at = 0;
	struct hb_region_view v;

	ax->n = n;
	ax->pos = malloc((n + 1) * sizeof(double));
	ax->width = malloc((n + 1) * sizeof(double));
	if (!ax->pos || !ax->width)
		return HB_ENOMEM;
	for (i = 0; i < n; i++) {
		struct hb_audit_region ar = {0};
		int is_live = hb_region_is_live(hb_regions_at_unnamed(&a->rs, i, &v));

		if (i < a->a.n)
			hb_audit_at(&a->a, i, &ar);
		ax->width[i] = is_live ? ar.share : -1;
		if (is_live) {
			sum += ar.share;
			live++;
		}
	}
	ax->by_share = sum > 0;
	for (i = 0; i < n; i++) {
		double wdt = ax->width[i] < 0 ? 0
		             : ax->by_share   ? ax->width[i] / sum
		                              : 1.0 / (double)(live ? live : 1);

		ax->pos[i] = at;
		ax->width[i] = wdt;
		at += wdt;
	}
	return 0;
}

static void axis_release(struct axis *ax)
{
	free(ax->pos);
	free(ax->width);
}

/* A span [p, p + wd) of the axis in pixels of the bar: at least HB_REPORT_MIN_W wide,
 * centred on its place, inside the bar. */
static void span_px(double p, double wd, double *x, double *wpx)
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

/* Consecutive regions drawn as one band. */
struct band {
	size_t first, n;
	int cls; /* what covers most of it */
	size_t count[HB_RC_COUNT];
};

/* Regions into bands: one each up to max, else consecutive regions until a band covers
 * 1/max of the axis or 2n/max regions. */
static int bands_make(struct band **out, size_t *nout, const struct axis *ax,
                      const unsigned char *cls, size_t max)
{
	size_t i, nb = 0, per = 2 * ((ax->n + max - 1) / max), cap = max * 2 + 2;
	struct band *b = calloc(cap, sizeof(*b));
	double cover[HB_RC_COUNT];

	*out = b;
	*nout = 0;
	if (!b)
		return HB_ENOMEM;
	memset(cover, 0, sizeof(cover));
	for (i = 0; i < ax->n; i++) {
		struct band *cur = &b[nb];
		int k, best = -1;

		if (!cur->n)
			cur->first = i;
		cur->n++;
		cur->count[cls[i]]++;
		cover[cls[i]] += ax->width[i];
		if (ax->n > max &&
		    ax->pos[i] + ax->width[i] - ax->pos[cur->first] < 1.0 / (double)max &&
		    cur->n < per && i + 1 < ax->n)
			continue;
		for (k = 0; k < HB_RC_COUNT; k++)
			if (cur->count[k] && (best < 0 || cover[k] > cover[best]))
				best = k;
		cur->cls = best;
		memset(cover, 0, sizeof(cover));
		if (++nb == cap)
			return HB_ENOMEM; /* cannot happen: bands are at least 1/max wide or per
			                     long */
	}
	*nout = nb;
	return 0;
}

/* ---------------------------------------------------------------- the page */

static const char css[] =
    "body{margin:0;padding:16px;font:14px/1.4 sans-serif;color:#222;background:#fff}"
    "h1{font-size:20px;margin:0 0 8px}h2{font-size:17px;margin:28px 0 8px}"
    "svg{display:block;margin:8px 0}"
    "table{border-collapse:collapse;margin:8px 0 16px;font-size:12px}"
    "th,td{border:1px solid #bbb;padding:2px 6px;text-align:left;vertical-align:top}"
    "td.n{text-align:right}.k{font-family:monospace;white-space:pre-wrap;word-break:break-all}"
    ".sw{display:inline-block;width:12px;height:12px;margin:0 4px 0 12px;vertical-align:-1px}"
    "caption{text-align:left;font-weight:bold;padding:2px 0}p.note{color:#555;font-size:12px}";

static void head(struct w *w, const struct hb_report_input *in)
{
	put(w, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>");
	put(w, "hbtab report: ");
	esc(w, in->subject);
	put(w, "</title>\n<style>");
	put(w, css);
	put(w, "</style>\n</head>\n<body>\n<h1>hbtab report: <span class=\"k\">");
	esc(w, in->subject);
	put(w, "</span></h1>\n");
}

static size_t class_total(const unsigned char *cls, size_t n, int k)
{
	size_t i, c = 0;

	for (i = 0; i < n; i++)
		c += cls[i] == k;
	return c;
}

static void summary(struct w *w, const struct hb_report_input *in, const unsigned char *cls)
{
	const struct hb_audit_report *a = in->audit;
	int k;

	putf(w, "<p>%s: %zu regions", in->offline ? "planned split set" : "table", a->rs.n);
	put(w, "; key space <span class=\"k\">");
	if (a->any_key || !a->ks_canon.len)
		put(w, "any row key (none given or stored)");
	else
		esc_n(w, a->ks_canon.data, a->ks_canon.len);
	putf(w, "</span>; %zu findings", a->a.findings.n);
	for (k = 0; k < HB_RC_COUNT; k++) {
		size_t c = class_total(cls, a->rs.n, k);

		if (c && k != HB_RC_OK)
			putf(w, "; %zu %s", c, hb_report_class_name[k]);
	}
	put(w, ".</p>\n<p class=\"note\">Made by ");
	esc(w, in->creator);
	if (in->when) {
		put(w, " from data read at ");
		esc(w, in->when);
	}
	if (!in->offline)
		putf(w, " (regions from %s)", a->source ? a->source : "rest");
	put(w, ".</p>\n");
}

static void legend(struct w *w)
{
	int k;

	put(w, "<p>");
	for (k = HB_RC_COUNT - 1; k >= 0; k--) {
		putf(w, "<span class=\"sw\" style=\"background:%s\"></span>", hb_report_colour[k]);
		put(w, hb_report_class_name[k]);
	}
	put(w, "</p>\n");
}

/* The label text of runs of regions: "r3" or "r3-7". */
static void run_name(struct w *w, size_t first, size_t last)
{
	if (first == last)
		putf(w, "r%zu", first);
	else
		putf(w, "r%zu-%zu", first, last);
}

/* Each flagged run (consecutive regions of one class other than reachable) at its place,
 * calling fn for each: runs are found once and used for the drawing and the table. */
typedef void (*run_fn)(struct w *w, void *ctx, size_t first, size_t last, int cls);

static void each_run(struct w *w, const unsigned char *cls, size_t n, run_fn fn, void *ctx)
{
	size_t i = 0, j;

	while (i < n && !w->rc) {
		if (cls[i] == HB_RC_OK) {
			i++;
			continue;
		}
		for (j = i; j + 1 < n && cls[j + 1] == cls[i]; j++)
			;
		fn(w, ctx, i, j, cls[i]);
		i = j + 1;
	}
}

/* Flagged runs whose drawn spans touch (same class) are drawn as one rectangle: at 100,000
 * regions a pixel can hold thousands of runs, each still listed under the map. */
struct draw_ctx {
	const struct axis *ax;
	const struct hb_audit_report *a;
	double last_label; /* x where the next label above the bar may start */
	int cls;           /* the pending rectangle's class, -1 none */
	size_t first, last, runs;
	double x0, x1;
};

static void flush_run(struct w *w, struct draw_ctx *d)
{
	if (d->cls < 0)
		return;
	putf(w,
	     "<rect class=\"flag\" x=\"%.2f\" y=\"%d\" width=\"%.2f\" height=\"%d\" fill=\"%s\">"
	     "<title>",
	     d->x0, MAP_TOP, d->x1 - d->x0, MAP_H, hb_report_colour[d->cls]);
	run_name(w, d->first, d->last);
	putf(w, ": %s", hb_report_class_name[d->cls]);
	if (d->runs > 1)
		putf(w, ", %zu runs", d->runs);
	put(w, "</title></rect>\n");
	if (d->x0 >= d->last_label) {
		size_t at;

		putf(w, "<text x=\"%.2f\" y=\"%d\" font-size=\"10\" fill=\"%s\">", d->x0,
		     MAP_TOP - 6, hb_report_colour[d->cls]);
		at = w->b->len;
		run_name(w, d->first, d->last);
		/* about 6 px a character of the 10 px font, and a gap */
		d->last_label = d->x0 + 6.0 * (double)(w->b->len - at) + 8;
		put(w, "</text>\n");
	}
	d->cls = -1;
}

static void draw_run(struct w *w, void *ctx, size_t first, size_t last, int cls)
{
	struct draw_ctx *d = ctx;
	double x, wd;

	span_px(d->ax->pos[first], d->ax->pos[last] + d->ax->width[last] - d->ax->pos[first], &x,
	        &wd);
	if (d->cls == cls && x <= d->x1 + 0.5) {
		d->last = last;
		d->runs++;
		if (x + wd > d->x1)
			d->x1 = x + wd;
		return;
	}
	flush_run(w, d);
	d->cls = cls;
	d->first = first;
	d->last = last;
	d->runs = 1;
	d->x0 = x;
	d->x1 = x + wd;
}

static void band_title(struct w *w, const struct hb_audit_report *a, const struct band *b)
{
	const unsigned char *s, *e, *s2, *e2;
	size_t sl, el, sl2, el2;

	hb_regions_bounds(&a->rs, b->first, &s, &sl, &e, &el);
	hb_regions_bounds(&a->rs, b->first + b->n - 1, &s2, &sl2, &e2, &el2);
	put(w, "<title>");
	run_name(w, b->first, b->first + b->n - 1);
	put(w, " [");
	key_text(w, s, sl, 0, 0);
	put(w, ", ");
	key_text(w, e2, el2, 1, 0);
	put(w, ")</title>");
}

/* A band's inside: the server and the share, when there is room and one region. */
static void band_inside(struct w *w, const struct hb_audit_report *a, const struct axis *ax,
                        const struct band *b, double x, double wd)
{
	struct hb_region_view v;
	const struct hb_region *r;
	size_t max = (size_t)(wd / 6.5);

	if (b->n != 1 || wd < 48)
		return;
	r = hb_regions_at_unnamed(&a->rs, b->first, &v);
	putf(w, "<text x=\"%.2f\" y=\"%d\" font-size=\"10\" fill=\"#fff\">", x + 3, MAP_TOP + 15);
	pct(w, ax->width[b->first]);
	put(w, "</text>\n");
	if (r->server && *r->server) {
		size_t len = strlen(r->server);

		putf(w, "<text x=\"%.2f\" y=\"%d\" font-size=\"10\" fill=\"#fff\">", x + 3,
		     MAP_TOP + 31);
		esc_n(w, r->server, len > max ? max : len);
		put(w, "</text>\n");
	}
}

static void map_svg(struct w *w, const struct hb_report_input *in, const struct axis *ax,
                    const unsigned char *cls, const struct band *b, size_t nb)
{
	const struct hb_audit_report *a = in->audit;
	struct draw_ctx d = {ax, a, -1e9, -1, 0, 0, 0, 0, 0};
	int height = MAP_TOP + MAP_H + 150;
	double last = -1e9;
	size_t i;

	putf(w,
	     "<svg id=\"map\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\" "
	     "aria-labelledby=\"map-title\" data-x0=\"%d\" data-w=\"%d\" data-min-w=\"%d\" "
	     "data-bar-y=\"%d\" data-bar-h=\"%d\" font-family=\"sans-serif\">\n"
	     "<title id=\"map-title\">The key space from left to right, each region a band as "
	     "wide as its share of the keys</title>\n",
	     HB_REPORT_MAP_X0 * 2 + HB_REPORT_MAP_W, height, HB_REPORT_MAP_X0 * 2 + HB_REPORT_MAP_W,
	     height, HB_REPORT_MAP_X0, HB_REPORT_MAP_W, HB_REPORT_MIN_W, MAP_TOP, MAP_H);
	putf(w,
	     "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#eee\" "
	     "shape-rendering=\"crispEdges\"/>\n<g shape-rendering=\"crispEdges\" "
	     "stroke=\"#fff\" stroke-width=\"0.5\">\n",
	     HB_REPORT_MAP_X0, MAP_TOP, HB_REPORT_MAP_W, MAP_H);
	for (i = 0; i < nb && !w->rc; i++) {
		size_t l = b[i].first + b[i].n - 1;
		double x = HB_REPORT_MAP_X0 + ax->pos[b[i].first] * HB_REPORT_MAP_W;
		double wd = (ax->pos[l] + ax->width[l] - ax->pos[b[i].first]) * HB_REPORT_MAP_W;

		if (wd <= 0)
			continue; /* drawn by its run below */
		putf(w, "<rect x=\"%.2f\" y=\"%d\" width=\"%.2f\" height=\"%d\" fill=\"%s\">", x,
		     MAP_TOP, wd, MAP_H, hb_report_colour[b[i].cls]);
		band_title(w, a, &b[i]);
		put(w, "</rect>\n");
		band_inside(w, a, ax, &b[i], x, wd);
	}
	put(w, "</g>\n<g shape-rendering=\"crispEdges\">\n");
	each_run(w, cls, ax->n, draw_run, &d);
	flush_run(w, &d);
	put(w, "</g>\n<g font-size=\"10\" fill=\"#333\">\n");
	/* the bands' start keys below the bar, where there is room */
	for (i = 0; i < nb && !w->rc; i++) {
		const unsigned char *s, *e;
		size_t sl, el;
		double x = HB_REPORT_MAP_X0 + ax->pos[b[i].first] * HB_REPORT_MAP_W;

		if (x < last + LABEL_GAP)
			continue;
		hb_regions_bounds(&a->rs, b[i].first, &s, &sl, &e, &el);
		putf(w,
		     "<line x1=\"%.2f\" y1=\"%d\" x2=\"%.2f\" y2=\"%d\" stroke=\"#333\"/>"
		     "<text x=\"%.2f\" y=\"%d\" transform=\"rotate(60 %.2f %d)\">",
		     x, MAP_TOP + MAP_H, x, MAP_TOP + MAP_H + 5, x, MAP_TOP + MAP_H + 12, x,
		     MAP_TOP + MAP_H + 12);
		key_text(w, s, sl, 0, KEY_LABEL);
		put(w, "</text>\n");
		last = x;
	}
	put(w, "</g>\n</svg>\n");
}

static void region_row(struct w *w, const struct hb_report_input *in, const struct axis *ax,
                       const unsigned char *cls, size_t i)
{
	const struct hb_audit_report *a = in->audit;
	struct hb_region_view v;
	const struct hb_region *r = hb_regions_at_unnamed(&a->rs, i, &v);

	putf(w, "<tr><td class=\"n\">%zu</td><td class=\"k\">", i);
	key_text(w, r->start, r->start_len, 0, 0);
	put(w, "</td><td class=\"k\">");
	key_text(w, r->end, r->end_len, 1, 0);
	put(w, "</td>");
	if (!in->offline) {
		put(w, "<td>");
		esc(w, r->server ? r->server : "");
		put(w, "</td><td>");
		esc(w, r->state ? r->state : "");
		put(w, "</td>");
	}
	put(w, "<td class=\"n\">");
	pct(w, ax->width[i]);
	putf(w, "</td><td>%s</td>", hb_report_class_name[cls[i]]);
	if (a->have_hot)
		putf(w, "<td class=\"n\">%llu</td>",
		     a->hot.r && i < a->hot.n ? (unsigned long long)a->hot.r[i].writes : 0ULL);
	put(w, "</tr>\n");
}

static void regions_table(struct w *w, const struct hb_report_input *in, const struct axis *ax,
                          const unsigned char *cls)
{
	size_t i;

	put(w, "<table id=\"regions\"><caption>Regions in key order</caption>\n<tr><th>#</th>"
	       "<th>start</th><th>end</th>");
	if (!in->offline)
		put(w, "<th>server</th><th>state</th>");
	put(w, "<th>share of keys</th><th>audit</th>");
	if (in->audit->have_hot)
		put(w, "<th>writes in window</th>");
	put(w, "</tr>\n");
	for (i = 0; i < ax->n && !w->rc; i++)
		region_row(w, in, ax, cls, i);
	put(w, "</table>\n");
}

static void bands_table(struct w *w, const struct hb_report_input *in, const struct axis *ax,
                        const struct band *b, size_t nb)
{
	size_t i;
	int k;

	putf(w,
	     "<p class=\"note\">%zu regions are drawn as %zu bands of consecutive regions, each in "
	     "the colour of what covers most of its keys; every region the audit flagged is drawn "
	     "at its own place on top and listed by run below.</p>\n",
	     ax->n, nb);
	put(w, "<table id=\"bands\"><caption>Bands in key order</caption>\n<tr><th>band</th>"
	       "<th>regions</th><th>start</th><th>end</th><th>share of keys</th>");
	for (k = HB_RC_COUNT - 1; k >= 0; k--)
		putf(w, "<th>%s</th>", hb_report_class_name[k]);
	put(w, "</tr>\n");
	for (i = 0; i < nb && !w->rc; i++) {
		const unsigned char *s, *e, *s2, *e2;
		size_t sl, el, sl2, el2, l = b[i].first + b[i].n - 1;

		hb_regions_bounds(&in->audit->rs, b[i].first, &s, &sl, &e, &el);
		hb_regions_bounds(&in->audit->rs, l, &s2, &sl2, &e2, &el2);
		putf(w, "<tr><td class=\"n\">%zu</td><td>", i);
		run_name(w, b[i].first, l);
		put(w, "</td><td class=\"k\">");
		key_text(w, s, sl, 0, 0);
		put(w, "</td><td class=\"k\">");
		key_text(w, e2, el2, 1, 0);
		put(w, "</td><td class=\"n\">");
		pct(w, ax->pos[l] + ax->width[l] - ax->pos[b[i].first]);
		put(w, "</td>");
		for (k = HB_RC_COUNT - 1; k >= 0; k--)
			putf(w, "<td class=\"n\">%zu</td>", b[i].count[k]);
		put(w, "</tr>\n");
	}
	put(w, "</table>\n");
}

static void run_row(struct w *w, void *ctx, size_t first, size_t last, int cls)
{
	const struct hb_audit_report *a = ctx;
	const unsigned char *s, *e, *s2, *e2;
	size_t sl, el, sl2, el2;

	hb_regions_bounds(&a->rs, first, &s, &sl, &e, &el);
	hb_regions_bounds(&a->rs, last, &s2, &sl2, &e2, &el2);
	putf(w, "<tr><td>%s</td><td>", hb_report_class_name[cls]);
	run_name(w, first, last);
	putf(w, "</td><td class=\"n\">%zu</td><td class=\"k\">", last - first + 1);
	key_text(w, s, sl, 0, 0);
	put(w, "</td><td class=\"k\">");
	key_text(w, e2, el2, 1, 0);
	put(w, "</td></tr>\n");
}

/* Above this many runs they are listed one a line in a <pre>, not as table rows: a third of
 * the bytes, so a page of 100,000 regions that alternate stays a few MiB. */
#define RUNS_TABLE_MAX 2000

static void run_line(struct w *w, void *ctx, size_t first, size_t last, int cls)
{
	const struct hb_audit_report *a = ctx;
	const unsigned char *s, *e, *s2, *e2;
	size_t sl, el, sl2, el2;

	hb_regions_bounds(&a->rs, first, &s, &sl, &e, &el);
	hb_regions_bounds(&a->rs, last, &s2, &sl2, &e2, &el2);
	putf(w, "%s ", hb_report_class_name[cls]);
	run_name(w, first, last);
	put(w, " [");
	key_text(w, s, sl, 0, 0);
	put(w, ", ");
	key_text(w, e2, el2, 1, 0);
	put(w, ")\n");
}

static void count_run(struct w *w, void *ctx, size_t first, size_t last, int cls)
{
	(void)w;
	(void)first;
	(void)last;
	(void)cls;
	++*(size_t *)ctx;
}

static void runs_table(struct w *w, const struct hb_report_input *in, const unsigned char *cls)
{
	size_t runs = 0;

	each_run(w, cls, in->audit->rs.n, count_run, &runs);
	if (!runs)
		return;
	if (runs > RUNS_TABLE_MAX) {
		putf(
		    w,
		    "<p>Flagged regions, by run of consecutive regions (%zu runs, one a line: "
		    "verdict, regions, [start, end)):</p>\n<pre id=\"flagged-list\" class=\"k\">\n",
		    runs);
		each_run(w, cls, in->audit->rs.n, run_line, (void *)in->audit);
		put(w, "</pre>\n");
		return;
	}
	put(w, "<table id=\"flagged\"><caption>Flagged regions, by run of consecutive regions"
	       "</caption>\n<tr><th>audit</th><th>regions</th><th>count</th><th>start</th>"
	       "<th>end</th></tr>\n");
	each_run(w, cls, in->audit->rs.n, run_row, (void *)in->audit);
	put(w, "</table>\n");
}

/* Findings: the table-wide ones all, those of regions up to a bound (each one's region is in
 * the runs above). */
static void findings_table(struct w *w, const struct hb_audit_report *a)
{
	size_t i, shown = 0, left = 0;

	put(w, "<h2>Findings</h2>\n");
	if (!a->a.findings.n) {
		put(w, "<p>None: every region is reachable and the chain is whole.</p>\n");
		return;
	}
	put(w, "<table id=\"findings\"><caption>Findings of the audit</caption>\n<tr><th>kind"
	       "</th><th>region</th><th>message</th></tr>\n");
	for (i = 0; i < a->a.findings.n && !w->rc; i++) {
		const struct hb_finding *f = &a->a.findings.v[i];

		if (f->region >= 0 && shown >= 2000) {
			left++;
			continue;
		}
		shown += f->region >= 0;
		put(w, "<tr><td>");
		esc(w, f->kind);
		put(w, "</td><td class=\"n\">");
		if (f->region >= 0)
			putf(w, "%ld", f->region);
		put(w, "</td><td class=\"k\">");
		esc(w, f->message);
		put(w, "</td></tr>\n");
	}
	put(w, "</table>\n");
	if (left)
		putf(w,
		     "<p class=\"note\">%zu more findings of single regions are not listed "
		     "here; their regions are in the runs above.</p>\n",
		     left);
}

/* ---------------------------------------------------------------- servers */

struct server {
	char *name;
	size_t regions;
	uint64_t writes, reads;
	int measured;
};

static int servers_count(struct server **out, size_t *nout, const struct hb_audit_report *a)
{
	struct server *s = NULL;
	size_t i, j, n = 0, cap = 0, last = 0;
	struct hb_region_view v;

	*out = NULL;
	*nout = 0;
	for (i = 0; i < a->rs.n; i++) {
		const struct hb_region *r = hb_regions_at_unnamed(&a->rs, i, &v);
		const char *name = r->server && *r->server ? r->server : NULL;

		if (!hb_region_is_live(r) || !name)
			continue;
		if (last < n && !strcmp(s[last].name, name))
			j = last;
		else
			for (j = 0; j < n && strcmp(s[j].name, name); j++)
				;
		if (j == n) {
			if (n == cap) {
				struct server *t =
				    realloc(s, (cap = cap ? cap * 2 : 16) * sizeof(*s));

				if (!t)
					goto oom;
				s = t;
			}
			memset(&s[n], 0, sizeof(s[n]));
			if (!(s[n].name = strdup(name)))
				goto oom;
			n++;
		}
		s[j].regions++;
		last = j;
	}
	for (i = 0; a->have_hot && i < a->hot.ns; i++) {
		for (j = 0; j < n && strcmp(s[j].name, a->hot.s[i].name); j++)
			;
		if (j == n)
			continue;
		s[j].writes = a->hot.s[i].writes;
		s[j].reads = a->hot.s[i].reads;
		s[j].measured = 1;
	}
	*out = s;
	*nout = n;
	return 0;
oom:
	for (j = 0; j < n; j++)
		free(s[j].name);
	free(s);
	return HB_ENOMEM;
}

#define SERVERS_DRAWN 100

static void servers_svg(struct w *w, const struct server *s, size_t n, uint64_t total_writes,
                        size_t live)
{
	size_t i, drawn = n < SERVERS_DRAWN ? n : SERVERS_DRAWN, maxr = 1;
	double even = n ? 1.0 / (double)n : 0, maxw = even * 2;
	int h = (int)drawn * 24 + 40;

	for (i = 0; i < n; i++) {
		double ws = total_writes ? (double)s[i].writes / (double)total_writes : 0;

		if (s[i].regions > maxr)
			maxr = s[i].regions;
		if (ws > maxw)
			maxw = ws;
	}
	putf(w,
	     "<svg id=\"servers\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\" "
	     "aria-labelledby=\"servers-title\" font-family=\"sans-serif\" font-size=\"11\">\n"
	     "<title id=\"servers-title\">Regions per server (blue) and share of the writes "
	     "(orange, the line is an even share)</title>\n",
	     HB_REPORT_MAP_X0 * 2 + HB_REPORT_MAP_W, h, HB_REPORT_MAP_X0 * 2 + HB_REPORT_MAP_W, h);
	for (i = 0; i < drawn && !w->rc; i++) {
		int y = 10 + (int)i * 24;
		double rw = 420.0 * (double)s[i].regions / (double)maxr;

		putf(w, "<text x=\"0\" y=\"%d\">", y + 12);
		esc_n(w, s[i].name, strlen(s[i].name) > 36 ? 36 : strlen(s[i].name));
		putf(w,
		     "</text><rect x=\"260\" y=\"%d\" width=\"%.2f\" height=\"9\" fill=\"#4a78c2\">"
		     "<title>%zu regions</title></rect><text x=\"%.2f\" y=\"%d\">%zu</text>\n",
		     y, rw, s[i].regions, 264 + rw, y + 9, s[i].regions);
		if (s[i].measured && total_writes) {
			double ws = (double)s[i].writes / (double)total_writes;

			putf(w,
			     "<rect x=\"260\" y=\"%d\" width=\"%.2f\" height=\"9\" fill=\"%s\">"
			     "<title>",
			     y + 10, 420.0 * ws / maxw, hb_report_colour[HB_RC_HOT]);
			pct(w, ws);
			put(w, " of the writes</title></rect>\n");
		}
	}
	if (total_writes && drawn)
		putf(w,
		     "<line x1=\"%.2f\" y1=\"4\" x2=\"%.2f\" y2=\"%d\" stroke=\"#333\" "
		     "stroke-dasharray=\"4 3\"/>\n",
		     260 + 420.0 * even / maxw, 260 + 420.0 * even / maxw, 10 + (int)drawn * 24);
	put(w, "</svg>\n");
	if (drawn < n)
		putf(w,
		     "<p class=\"note\">The first %zu of %zu servers are drawn; the table lists "
		     "all.</p>\n",
		     drawn, n);
	(void)live;
}

static void servers_section(struct w *w, const struct hb_report_input *in)
{
	const struct hb_audit_report *a = in->audit;
	struct server *s;
	size_t i, n, live = 0;
	uint64_t total = a->have_hot ? a->hot.total_writes : 0;

	if (in->offline)
		return;
	if (servers_count(&s, &n, a)) {
		w->rc = HB_ENOMEM;
		return;
	}
	for (i = 0; i < n; i++)
		live += s[i].regions;
	put(w, "<h2>Servers</h2>\n");
	if (!a->have_hot)
		put(w, "<p class=\"note\">Request load not measured (run with --hotspots).</p>\n");
	servers_svg(w, s, n, total, live);
	put(w, "<table id=\"server-table\"><caption>Regions and requests per server</caption>\n"
	       "<tr><th>server</th><th>regions</th><th>share of regions</th><th>writes</th>"
	       "<th>share of writes</th><th>reads</th></tr>\n");
	for (i = 0; i < n && !w->rc; i++) {
		put(w, "<tr><td>");
		esc(w, s[i].name);
		putf(w, "</td><td class=\"n\">%zu</td><td class=\"n\">", s[i].regions);
		pct(w, live ? (double)s[i].regions / (double)live : 0);
		if (s[i].measured) {
			putf(w, "</td><td class=\"n\">%llu</td><td class=\"n\">",
			     (unsigned long long)s[i].writes);
			pct(w, total ? (double)s[i].writes / (double)total : 0);
			putf(w, "</td><td class=\"n\">%llu</td></tr>\n",
			     (unsigned long long)s[i].reads);
		} else {
			put(w, "</td><td></td><td></td><td></td></tr>\n");
		}
	}
	put(w, "</table>\n");
	for (i = 0; i < n; i++)
		free(s[i].name);
	free(s);
}

/* ---------------------------------------------------------------- the plan */

void hb_report_plan_init(struct hb_report_plan *p)
{
	memset(p, 0, sizeof(*p));
	hb_keys_init(&p->after);
}

void hb_report_plan_release(struct hb_report_plan *p)
{
	hb_keys_release(&p->after);
	free(p->steps);
	memset(p, 0, sizeof(*p));
}

int hb_report_plan_after(struct hb_report_plan *p)
{
	const struct hb_regions *rs = p->before;
	unsigned char *drop = calloc(rs->n + 1, 1);
	size_t i, j;
	int rc = 0;

	if (!drop)
		return HB_ENOMEM;
	/* boundary i is region i's start (i >= 1) */
	for (i = 0; i < p->nsteps; i++)
		if (!strcmp(p->steps[i].action, "merge"))
			for (j = p->steps[i].first + 1;
			     j < p->steps[i].first + p->steps[i].n && j < rs->n; j++)
				drop[j] = 1;
	hb_keys_clear(&p->after);
	for (i = 1; !rc && i < rs->n; i++) {
		const unsigned char *s, *e;
		size_t sl, el;

		hb_regions_bounds(rs, i, &s, &sl, &e, &el);
		if (!drop[i])
			rc = hb_keys_push(&p->after, s, sl);
	}
	for (i = 0; !rc && i < p->nsteps; i++)
		if (!strcmp(p->steps[i].action, "split") && p->steps[i].key)
			rc = hb_keys_push(&p->after, p->steps[i].key, p->steps[i].key_len);
	free(drop);
	return rc ? rc : hb_keys_sort(&p->after);
}

/* Where a key lies on the axis: the share of the key space below it. */
struct keypos {
	struct hb_keyspace *ks;
	mpz_t total, below;
	int exact;
};

static double key_pos(struct keypos *kp, const unsigned char *k, size_t n, int end, double fallback,
                      struct hb_error *err, int *rc)
{
	if (!n)
		return end ? 1.0 : 0.0;
	if (!kp->exact || *rc)
		return fallback;
	*rc = hb_keyspace_count_below(kp->ks, kp->below, k, n, err);
	return *rc ? fallback : hb_mpz_ratio(kp->below, kp->total);
}

/* Ticks at the boundaries of one bar (a tick per pixel column at most). */
static void ticks(struct w *w, const double *xs, size_t n, int y, const char *colour)
{
	double last = -1;
	size_t i;

	putf(w, "<g stroke=\"%s\" shape-rendering=\"crispEdges\">\n", colour);
	for (i = 0; i < n && !w->rc; i++) {
		double x = HB_REPORT_MAP_X0 + xs[i] * HB_REPORT_MAP_W;

		if (x - last < 1)
			continue;
		putf(w, "<line x1=\"%.2f\" y1=\"%d\" x2=\"%.2f\" y2=\"%d\"/>\n", x, y, x, y + 30);
		last = x;
	}
	put(w, "</g>\n");
}

static void plan_svg(struct w *w, const struct hb_report_plan *p, const double *before, size_t nb,
                     const double *after, size_t na, const double *step_x0, const double *step_x1)
{
	size_t i, rounds = 0, round = 0;
	double last = -1e9, lane;

	putf(w,
	     "<svg id=\"plan\" width=\"%d\" height=\"150\" viewBox=\"0 0 %d 150\" role=\"img\" "
	     "aria-labelledby=\"plan-title\" font-family=\"sans-serif\" font-size=\"11\">\n"
	     "<title id=\"plan-title\">Region boundaries before (top) and after (bottom) the %s "
	     "plan, each step where it acts</title>\n",
	     HB_REPORT_MAP_X0 * 2 + HB_REPORT_MAP_W, HB_REPORT_MAP_X0 * 2 + HB_REPORT_MAP_W,
	     p->kind);
	putf(w,
	     "<text x=\"0\" y=\"34\">before</text><rect x=\"%d\" y=\"15\" width=\"%d\" "
	     "height=\"30\" fill=\"#dfe7f3\"/>\n<text x=\"0\" y=\"124\">after</text><rect "
	     "x=\"%d\" y=\"105\" width=\"%d\" height=\"30\" fill=\"#dfe7f3\"/>\n",
	     HB_REPORT_MAP_X0, HB_REPORT_MAP_W, HB_REPORT_MAP_X0, HB_REPORT_MAP_W);
	ticks(w, before, nb, 15, "#333");
	ticks(w, after, na, 105, "#333");
	/* a plan in rounds draws each round in its own lane, top to bottom */
	for (i = 0; i < p->nsteps; i++)
		rounds = p->steps[i].round > rounds ? p->steps[i].round : rounds;
	lane = 46.0 / (double)(rounds ? rounds : 1);
	for (i = 0; i < p->nsteps && !w->rc; i++) {
		const char *c = !strcmp(p->steps[i].action, "merge")   ? "#2a9d8f"
		                : !strcmp(p->steps[i].action, "split") ? "#e76f51"
		                                                       : "#999";
		size_t r = p->steps[i].round ? p->steps[i].round - 1 : 0;
		double x, wd, y = 52 + lane * (double)r;

		if (r != round) {
			round = r;
			last = -1e9;
		}
		span_px(step_x0[i], step_x1[i] - step_x0[i], &x, &wd);
		putf(w,
		     "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"%s\" "
		     "fill-opacity=\"0.6\" stroke=\"#fff\"><title>step %zu: %s (%s)</title>"
		     "</rect>\n",
		     x, y, wd, lane, c, i + 1, p->steps[i].action, p->steps[i].finding);
		if (x >= last + 18 && lane >= 9) {
			putf(w, "<text x=\"%.2f\" y=\"%.2f\" font-size=\"%.0f\">%zu</text>\n",
			     x + 2, y + lane / 2 + (lane < 14 ? lane : 14) / 3,
			     lane < 11 ? lane : 11, i + 1);
			last = x;
		}
	}
	put(w, "</svg>\n");
}

static void steps_table(struct w *w, const struct hb_report_plan *p)
{
	size_t i;
	int rounds = 0;

	for (i = 0; i < p->nsteps; i++)
		rounds |= p->steps[i].round > 0;
	putf(w,
	     "<table id=\"steps\"><caption>Steps</caption>\n<tr><th>#</th>%s<th>action</th>"
	     "<th>finding</th><th>regions</th><th>start</th><th>end</th><th>split key</th>"
	     "<th>command</th></tr>\n",
	     rounds ? "<th>round</th>" : "");
	for (i = 0; i < p->nsteps && !w->rc; i++) {
		const struct hb_report_step *s = &p->steps[i];
		const unsigned char *a, *b, *c, *d;
		size_t al = 0, bl = 0, cl = 0, dl = 0;

		putf(w, "<tr><td class=\"n\">%zu</td>", i + 1);
		if (rounds)
			putf(w, "<td class=\"n\">%zu</td>", s->round);
		putf(w, "<td>%s</td><td>", s->action);
		esc(w, s->finding);
		put(w, "</td><td>");
		if (s->bounded) {
			putf(w, "%zu region%s of round %zu", s->takes, s->takes == 1 ? "" : "s",
			     s->round);
			put(w, "</td><td class=\"k\">");
			key_text(w, s->start, s->start_len, 0, 0);
			put(w, "</td><td class=\"k\">");
			key_text(w, s->end, s->end_len, 1, 0);
		} else if (s->n && s->first + s->n <= p->before->n) {
			run_name(w, s->first, s->first + s->n - 1);
			hb_regions_bounds(p->before, s->first, &a, &al, &b, &bl);
			hb_regions_bounds(p->before, s->first + s->n - 1, &c, &cl, &d, &dl);
			put(w, "</td><td class=\"k\">");
			key_text(w, a, al, 0, 0);
			put(w, "</td><td class=\"k\">");
			key_text(w, d, dl, 1, 0);
		} else {
			put(w, "table</td><td></td><td>");
		}
		put(w, "</td><td class=\"k\">");
		if (s->key)
			key_text(w, s->key, s->key_len, 0, 0);
		put(w, "</td><td class=\"k\">");
		esc(w, s->command);
		put(w, "</td></tr>\n");
	}
	put(w, "</table>\n");
}

static void after_table(struct w *w, const struct hb_report_plan *p, size_t max)
{
	size_t i;

	if (p->after.n + 1 > max) {
		putf(w,
		     "<p class=\"note\">%zu regions after the plan (the list is left out above "
		     "%zu).</p>\n",
		     p->after.n + 1, max);
		return;
	}
	put(w, "<table id=\"after\"><caption>Regions after the plan</caption>\n<tr><th>#</th>"
	       "<th>start</th><th>end</th></tr>\n");
	for (i = 0; i <= p->after.n && !w->rc; i++) {
		size_t sl = 0, el = 0;
		const unsigned char *s = i ? hb_keys_at(&p->after, i - 1, &sl) : NULL;
		const unsigned char *e = i < p->after.n ? hb_keys_at(&p->after, i, &el) : NULL;

		putf(w, "<tr><td class=\"n\">%zu</td><td class=\"k\">", i);
		key_text(w, s, sl, 0, 0);
		put(w, "</td><td class=\"k\">");
		key_text(w, e, el, 1, 0);
		put(w, "</td></tr>\n");
	}
	put(w, "</table>\n");
}

static int plan_section(struct w *w, const struct hb_report_input *in, struct hb_error *err)
{
	const struct hb_report_plan *p = in->plan;
	const struct hb_regions *rs = p->before;
	size_t nb = rs->n ? rs->n - 1 : 0, na = p->after.n, i;
	double *xb = malloc((nb + 1) * sizeof(double)), *xa = malloc((na + 1) * sizeof(double));
	double *s0 = malloc((p->nsteps + 1) * sizeof(double));
	double *s1 = malloc((p->nsteps + 1) * sizeof(double));
	struct keypos kp;
	int rc = 0;

	kp.ks = in->audit->ks;
	kp.exact = 0;
	mpz_init(kp.total);
	mpz_init(kp.below);
	if (!xb || !xa || !s0 || !s1)
		rc = HB_ENOMEM;
	if (!rc && kp.ks && !hb_keyspace_total(kp.ks, kp.total, err))
		kp.exact = mpz_sgn(kp.total) > 0;
	for (i = 0; !rc && i < nb; i++) {
		const unsigned char *s, *e;
		size_t sl, el;

		hb_regions_bounds(rs, i + 1, &s, &sl, &e, &el);
		xb[i] = key_pos(&kp, s, sl, 0, (double)(i + 1) / (double)rs->n, err, &rc);
	}
	for (i = 0; !rc && i < na; i++) {
		size_t kl;
		const unsigned char *k = hb_keys_at(&p->after, i, &kl);

		xa[i] = key_pos(&kp, k, kl, 0, (double)(i + 1) / (double)(na + 1), err, &rc);
	}
	for (i = 0; !rc && i < p->nsteps; i++) {
		const struct hb_report_step *st = &p->steps[i];
		const unsigned char *s, *e, *s2, *e2;
		size_t sl, el, sl2, el2;

		if (!st->n || st->first + st->n > rs->n) {
			s0[i] = 0;
			s1[i] = 1;
			continue;
		}
		hb_regions_bounds(rs, st->first, &s, &sl, &e, &el);
		hb_regions_bounds(rs, st->first + st->n - 1, &s2, &sl2, &e2, &el2);
		if (st->bounded) {
			s = st->start;
			sl = st->start_len;
			e2 = st->end;
			el2 = st->end_len;
		}
		s0[i] = key_pos(&kp, s, sl, 0, (double)st->first / (double)rs->n, err, &rc);
		s1[i] =
		    key_pos(&kp, e2, el2, 1, (double)(st->first + st->n) / (double)rs->n, err, &rc);
	}
	if (!rc) {
		putf(w, "<h2>Plan: %s</h2>\n<p>%zu regions before, %zu after; %zu steps", p->kind,
		     rs->n, na + 1, p->nsteps);
		if (p->deferred)
			putf(w, " (%zu more left for a later run)", p->deferred);
		put(w, ". Boundaries are ticks on the key-space axis; merges are green, splits "
		       "red, findings reported only grey.</p>\n");
		plan_svg(w, p, xb, nb, xa, na, s0, s1);
		steps_table(w, p);
		after_table(w, p, in->max_bands ? in->max_bands : HB_REPORT_MAX_BANDS);
	}
	mpz_clear(kp.total);
	mpz_clear(kp.below);
	free(xb);
	free(xa);
	free(s0);
	free(s1);
	return rc;
}

/* ---------------------------------------------------------------- simulated writes */

static void sim_section(struct w *w, const struct hb_report_input *in, const struct band *b,
                        size_t nb)
{
	const struct hb_report_sim *sim = in->sim;
	double maxs = 0, even = sim->n ? 1.0 / (double)sim->n : 0, scale;
	size_t i;
	int h = 200;

	for (i = 0; i < nb; i++) {
		uint64_t wsum = 0;
		size_t j;

		for (j = b[i].first; j < b[i].first + b[i].n && j < sim->n; j++)
			wsum += sim->writes[j];
		if (sim->total && (double)wsum / (double)sim->total / (double)b[i].n > maxs)
			maxs = (double)wsum / (double)sim->total / (double)b[i].n;
	}
	scale = maxs > even * 2 ? maxs : even * 2;
	putf(w,
	     "<h2>Simulated writes</h2>\n<p>%llu writes (%s) over %zu regions; an even share is ",
	     (unsigned long long)sim->total, sim->source ? sim->source : "keys", sim->n);
	pct(w, even);
	put(w, " a region.</p>\n");
	putf(w,
	     "<svg id=\"writes\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\" "
	     "aria-labelledby=\"writes-title\" font-family=\"sans-serif\" font-size=\"11\">\n"
	     "<title id=\"writes-title\">Share of the writes per region in key order (bars), "
	     "against an even share (dashed line)</title>\n",
	     HB_REPORT_MAP_X0 * 2 + HB_REPORT_MAP_W, h + 20, HB_REPORT_MAP_X0 * 2 + HB_REPORT_MAP_W,
	     h + 20);
	put(w, "<g shape-rendering=\"crispEdges\">\n");
	for (i = 0; i < nb && !w->rc; i++) {
		uint64_t wsum = 0;
		size_t j;
		double share, x = HB_REPORT_MAP_X0 + (double)i * HB_REPORT_MAP_W / (double)nb;
		double bw = (double)HB_REPORT_MAP_W / (double)nb, bh;

		for (j = b[i].first; j < b[i].first + b[i].n && j < sim->n; j++)
			wsum += sim->writes[j];
		share = sim->total ? (double)wsum / (double)sim->total / (double)b[i].n : 0;
		bh = scale > 0 ? h * share / scale : 0;
		putf(w,
		     "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"%s\">"
		     "<title>",
		     x, 10 + h - bh, bw > 1.5 ? bw - 0.5 : bw, bh,
		     share > even * 2 ? hb_report_colour[HB_RC_HOT] : "#4a78c2");
		run_name(w, b[i].first, b[i].first + b[i].n - 1);
		put(w, ": ");
		pct(w, share);
		put(w, b[i].n > 1 ? " of the writes a region</title></rect>\n"
		                  : " of the writes</title></rect>\n");
	}
	putf(w,
	     "</g>\n<line x1=\"%d\" y1=\"%.2f\" x2=\"%d\" y2=\"%.2f\" stroke=\"#333\" "
	     "stroke-dasharray=\"5 3\"/>\n<text x=\"%d\" y=\"%.2f\" text-anchor=\"end\">even "
	     "share</text>\n</svg>\n",
	     HB_REPORT_MAP_X0, 10 + h - h * even / scale, HB_REPORT_MAP_X0 + HB_REPORT_MAP_W,
	     10 + h - h * even / scale, HB_REPORT_MAP_X0 + HB_REPORT_MAP_W,
	     6 + h - h * even / scale);
	put(w, "<table id=\"writes-table\"><caption>Writes per region</caption>\n<tr><th>regions"
	       "</th><th>writes</th><th>share a region</th><th>against an even share</th></tr>\n");
	for (i = 0; i < nb && !w->rc; i++) {
		uint64_t wsum = 0;
		size_t j;
		double share;

		for (j = b[i].first; j < b[i].first + b[i].n && j < sim->n; j++)
			wsum += sim->writes[j];
		share = sim->total ? (double)wsum / (double)sim->total / (double)b[i].n : 0;
		put(w, "<tr><td>");
		run_name(w, b[i].first, b[i].first + b[i].n - 1);
		putf(w, "</td><td class=\"n\">%llu</td><td class=\"n\">", (unsigned long long)wsum);
		pct(w, share);
		putf(w, "</td><td class=\"n\">%.2fx</td></tr>\n", even > 0 ? share / even : 0);
	}
	put(w, "</table>\n");
}

/* ---------------------------------------------------------------- all of it */

int hb_report_html(struct hb_buf *out, const struct hb_report_input *in, struct hb_error *err)
{
	size_t max = in->max_bands ? in->max_bands : HB_REPORT_MAX_BANDS, nb = 0;
	struct w w = {out, HB_BUF_INIT, 0};
	struct axis ax = {0};
	unsigned char *cls = NULL;
	struct band *b = NULL;

	w.rc = hb_report_classes(&cls, in->audit);
	if (!w.rc)
		w.rc = axis_make(&ax, in->audit);
	if (!w.rc)
		w.rc = bands_make(&b, &nb, &ax, cls, max);
	head(&w, in);
	summary(&w, in, cls);
	put(&w, "<h2>Key space</h2>\n");
	legend(&w);
	if (!w.rc)
		map_svg(&w, in, &ax, cls, b, nb);
	if (!ax.by_share)
		put(&w, "<p class=\"note\">No key space to measure shares: each live region is "
		        "drawn the same width.</p>\n");
	putf(&w,
	     "<p class=\"note\">Left to right the key space in HBase's key order; each band is "
	     "as wide as its share of the keys. A region narrower than %d px (an unreachable one "
	     "owns no key) is drawn %d px wide, centred on its place.</p>\n",
	     HB_REPORT_MIN_W, HB_REPORT_MIN_W);
	if (!w.rc && ax.n <= max)
		regions_table(&w, in, &ax, cls);
	else if (!w.rc)
		bands_table(&w, in, &ax, b, nb);
	if (!w.rc)
		runs_table(&w, in, cls);
	if (!w.rc)
		findings_table(&w, in->audit);
	if (!w.rc)
		servers_section(&w, in);
	if (!w.rc && in->plan)
		w.rc = plan_section(&w, in, err);
	if (!w.rc && in->sim)
		sim_section(&w, in, b, nb);
	put(&w, "</body>\n</html>\n");
	hb_buf_release(&w.tmp);
	axis_release(&ax);
	free(cls);
	free(b);
	return w.rc;
}
