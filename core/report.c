/* hbtab report's page: the key-space map, servers, a plan's boundaries before and after and
 * simulated writes, as inline SVG with every figure again as a table. */
#include "report.h"
#include "keyspace.h"
#include "report_sections.h"
#include "reportw.h"

#include <gmp.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define MAP_H     40 /* the bar's height */
#define MAP_TOP   28 /* room above it for the flagged runs' labels */
#define LABEL_GAP 14 /* pixels between two boundary labels */
#define KEY_LABEL 22 /* characters of a key shown in a label */

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

/* Regions into bands: one each up to max, else consecutive regions until a band covers
 * 1/max of the axis or 2n/max regions. */
static int bands_make(struct hb_report_band **out, size_t *nout, const struct axis *ax,
                      const unsigned char *cls, size_t max)
{
	size_t i, nb = 0, per = 2 * ((ax->n + max - 1) / max), cap = max * 2 + 2;
	struct hb_report_band *b = calloc(cap, sizeof(*b));
	double cover[HB_RC_COUNT];

	*out = b;
	*nout = 0;
	if (!b)
		return HB_ENOMEM;
	memset(cover, 0, sizeof(cover));
	for (i = 0; i < ax->n; i++) {
		struct hb_report_band *cur = &b[nb];
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

static void head(struct hb_rw *w, const struct hb_report_input *in)
{
	hb_rw_put(w,
	          "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>");
	hb_rw_put(w, "hbtab report: ");
	hb_rw_esc(w, in->subject);
	hb_rw_put(w, "</title>\n<style>");
	hb_rw_put(w, css);
	hb_rw_put(w, "</style>\n</head>\n<body>\n<h1>hbtab report: <span class=\"k\">");
	hb_rw_esc(w, in->subject);
	hb_rw_put(w, "</span></h1>\n");
}

static size_t class_total(const unsigned char *cls, size_t n, int k)
{
	size_t i, c = 0;

	for (i = 0; i < n; i++)
		c += cls[i] == k;
	return c;
}

static void summary(struct hb_rw *w, const struct hb_report_input *in, const unsigned char *cls)
{
	const struct hb_audit_report *a = in->audit;
	int k;

	hb_rw_putf(w, "<p>%s: %zu regions", in->offline ? "planned split set" : "table", a->rs.n);
	hb_rw_put(w, "; key space <span class=\"k\">");
	if (a->any_key || !a->ks_canon.len)
		hb_rw_put(w, "any row key (none given or stored)");
	else
		hb_rw_esc_n(w, a->ks_canon.data, a->ks_canon.len);
	hb_rw_putf(w, "</span>; %zu findings", a->a.findings.n);
	for (k = 0; k < HB_RC_COUNT; k++) {
		size_t c = class_total(cls, a->rs.n, k);

		if (c && k != HB_RC_OK)
			hb_rw_putf(w, "; %zu %s", c, hb_report_class_name[k]);
	}
	hb_rw_put(w, ".</p>\n<p class=\"note\">Made by ");
	hb_rw_esc(w, in->creator);
	if (in->when) {
		hb_rw_put(w, " from data read at ");
		hb_rw_esc(w, in->when);
	}
	if (!in->offline)
		hb_rw_putf(w, " (regions from %s)", a->source ? a->source : "rest");
	hb_rw_put(w, ".</p>\n");
}

static void legend(struct hb_rw *w)
{
	int k;

	hb_rw_put(w, "<p>");
	for (k = HB_RC_COUNT - 1; k >= 0; k--) {
		hb_rw_putf(w, "<span class=\"sw\" style=\"background:%s\"></span>",
		           hb_report_colour[k]);
		hb_rw_put(w, hb_report_class_name[k]);
	}
	hb_rw_put(w, "</p>\n");
}

/* Each flagged run (consecutive regions of one class other than reachable) at its place,
 * calling fn for each: runs are found once and used for the drawing and the table. */
typedef void (*run_fn)(struct hb_rw *w, void *ctx, size_t first, size_t last, int cls);

static void each_run(struct hb_rw *w, const unsigned char *cls, size_t n, run_fn fn, void *ctx)
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

static void flush_run(struct hb_rw *w, struct draw_ctx *d)
{
	if (d->cls < 0)
		return;
	hb_rw_putf(
	    w,
	    "<rect class=\"flag\" x=\"%.2f\" y=\"%d\" width=\"%.2f\" height=\"%d\" fill=\"%s\">"
	    "<title>",
	    d->x0, MAP_TOP, d->x1 - d->x0, MAP_H, hb_report_colour[d->cls]);
	hb_rw_run_name(w, d->first, d->last);
	hb_rw_putf(w, ": %s", hb_report_class_name[d->cls]);
	if (d->runs > 1)
		hb_rw_putf(w, ", %zu runs", d->runs);
	hb_rw_put(w, "</title></rect>\n");
	if (d->x0 >= d->last_label) {
		size_t at;

		hb_rw_putf(w, "<text x=\"%.2f\" y=\"%d\" font-size=\"10\" fill=\"%s\">", d->x0,
		           MAP_TOP - 6, hb_report_colour[d->cls]);
		at = w->b->len;
		hb_rw_run_name(w, d->first, d->last);
		/* about 6 px a character of the 10 px font, and a gap */
		d->last_label = d->x0 + 6.0 * (double)(w->b->len - at) + 8;
		hb_rw_put(w, "</text>\n");
	}
	d->cls = -1;
}

static void draw_run(struct hb_rw *w, void *ctx, size_t first, size_t last, int cls)
{
	struct draw_ctx *d = ctx;
	double x, wd;

	hb_rw_span_px(d->ax->pos[first], d->ax->pos[last] + d->ax->width[last] - d->ax->pos[first],
	              &x, &wd);
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

static void band_title(struct hb_rw *w, const struct hb_audit_report *a,
                       const struct hb_report_band *b)
{
	const unsigned char *s, *e, *s2, *e2;
	size_t sl, el, sl2, el2;

	hb_regions_bounds(&a->rs, b->first, &s, &sl, &e, &el);
	hb_regions_bounds(&a->rs, b->first + b->n - 1, &s2, &sl2, &e2, &el2);
	hb_rw_put(w, "<title>");
	hb_rw_run_name(w, b->first, b->first + b->n - 1);
	hb_rw_put(w, " [");
	hb_rw_key_text(w, s, sl, 0, 0);
	hb_rw_put(w, ", ");
	hb_rw_key_text(w, e2, el2, 1, 0);
	hb_rw_put(w, ")</title>");
}

/* A band's inside: the server and the share, when there is room and one region. */
static void band_inside(struct hb_rw *w, const struct hb_audit_report *a, const struct axis *ax,
                        const struct hb_report_band *b, double x, double wd)
{
	struct hb_region_view v;
	const struct hb_region *r;
	size_t max = (size_t)(wd / 6.5);

	if (b->n != 1 || wd < 48)
		return;
	r = hb_regions_at_unnamed(&a->rs, b->first, &v);
	hb_rw_putf(w, "<text x=\"%.2f\" y=\"%d\" font-size=\"10\" fill=\"#fff\">", x + 3,
	           MAP_TOP + 15);
	hb_rw_pct(w, ax->width[b->first]);
	hb_rw_put(w, "</text>\n");
	if (r->server && *r->server) {
		size_t len = strlen(r->server);

		hb_rw_putf(w, "<text x=\"%.2f\" y=\"%d\" font-size=\"10\" fill=\"#fff\">", x + 3,
		           MAP_TOP + 31);
		hb_rw_esc_n(w, r->server, len > max ? max : len);
		hb_rw_put(w, "</text>\n");
	}
}

static void map_svg(struct hb_rw *w, const struct hb_report_input *in, const struct axis *ax,
                    const unsigned char *cls, const struct hb_report_band *b, size_t nb)
{
	const struct hb_audit_report *a = in->audit;
	struct draw_ctx d = {ax, a, -1e9, -1, 0, 0, 0, 0, 0};
	int height = MAP_TOP + MAP_H + 150;
	double last = -1e9;
	size_t i;

	hb_rw_putf(
	    w,
	    "<svg id=\"map\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\" "
	    "aria-labelledby=\"map-title\" data-x0=\"%d\" data-w=\"%d\" data-min-w=\"%d\" "
	    "data-bar-y=\"%d\" data-bar-h=\"%d\" font-family=\"sans-serif\">\n"
	    "<title id=\"map-title\">The key space from left to right, each region a band as "
	    "wide as its share of the keys</title>\n",
	    HB_REPORT_MAP_X0 * 2 + HB_REPORT_MAP_W, height, HB_REPORT_MAP_X0 * 2 + HB_REPORT_MAP_W,
	    height, HB_REPORT_MAP_X0, HB_REPORT_MAP_W, HB_REPORT_MIN_W, MAP_TOP, MAP_H);
	hb_rw_putf(w,
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
		hb_rw_putf(w, "<rect x=\"%.2f\" y=\"%d\" width=\"%.2f\" height=\"%d\" fill=\"%s\">",
		           x, MAP_TOP, wd, MAP_H, hb_report_colour[b[i].cls]);
		band_title(w, a, &b[i]);
		hb_rw_put(w, "</rect>\n");
		band_inside(w, a, ax, &b[i], x, wd);
	}
	hb_rw_put(w, "</g>\n<g shape-rendering=\"crispEdges\">\n");
	each_run(w, cls, ax->n, draw_run, &d);
	flush_run(w, &d);
	hb_rw_put(w, "</g>\n<g font-size=\"10\" fill=\"#333\">\n");
	/* the bands' start keys below the bar, where there is room */
	for (i = 0; i < nb && !w->rc; i++) {
		const unsigned char *s, *e;
		size_t sl, el;
		double x = HB_REPORT_MAP_X0 + ax->pos[b[i].first] * HB_REPORT_MAP_W;

		if (x < last + LABEL_GAP)
			continue;
		hb_regions_bounds(&a->rs, b[i].first, &s, &sl, &e, &el);
		hb_rw_putf(w,
		           "<line x1=\"%.2f\" y1=\"%d\" x2=\"%.2f\" y2=\"%d\" stroke=\"#333\"/>"
		           "<text x=\"%.2f\" y=\"%d\" transform=\"rotate(60 %.2f %d)\">",
		           x, MAP_TOP + MAP_H, x, MAP_TOP + MAP_H + 5, x, MAP_TOP + MAP_H + 12, x,
		           MAP_TOP + MAP_H + 12);
		hb_rw_key_text(w, s, sl, 0, KEY_LABEL);
		hb_rw_put(w, "</text>\n");
		last = x;
	}
	hb_rw_put(w, "</g>\n</svg>\n");
}

static void region_row(struct hb_rw *w, const struct hb_report_input *in, const struct axis *ax,
                       const unsigned char *cls, size_t i)
{
	const struct hb_audit_report *a = in->audit;
	struct hb_region_view v;
	const struct hb_region *r = hb_regions_at_unnamed(&a->rs, i, &v);

	hb_rw_putf(w, "<tr><td class=\"n\">%zu</td><td class=\"k\">", i);
	hb_rw_key_text(w, r->start, r->start_len, 0, 0);
	hb_rw_put(w, "</td><td class=\"k\">");
	hb_rw_key_text(w, r->end, r->end_len, 1, 0);
	hb_rw_put(w, "</td>");
	if (!in->offline) {
		hb_rw_put(w, "<td>");
		hb_rw_esc(w, r->server ? r->server : "");
		hb_rw_put(w, "</td><td>");
		hb_rw_esc(w, r->state ? r->state : "");
		hb_rw_put(w, "</td>");
	}
	hb_rw_put(w, "<td class=\"n\">");
	hb_rw_pct(w, ax->width[i]);
	hb_rw_putf(w, "</td><td>%s</td>", hb_report_class_name[cls[i]]);
	if (a->have_hot)
		hb_rw_putf(w, "<td class=\"n\">%llu</td>",
		           a->hot.r && i < a->hot.n ? (unsigned long long)a->hot.r[i].writes
		                                    : 0ULL);
	hb_rw_put(w, "</tr>\n");
}

static void regions_table(struct hb_rw *w, const struct hb_report_input *in, const struct axis *ax,
                          const unsigned char *cls)
{
	size_t i;

	hb_rw_put(w, "<table id=\"regions\"><caption>Regions in key order</caption>\n<tr><th>#</th>"
	             "<th>start</th><th>end</th>");
	if (!in->offline)
		hb_rw_put(w, "<th>server</th><th>state</th>");
	hb_rw_put(w, "<th>share of keys</th><th>audit</th>");
	if (in->audit->have_hot)
		hb_rw_put(w, "<th>writes in window</th>");
	hb_rw_put(w, "</tr>\n");
	for (i = 0; i < ax->n && !w->rc; i++)
		region_row(w, in, ax, cls, i);
	hb_rw_put(w, "</table>\n");
}

static void bands_table(struct hb_rw *w, const struct hb_report_input *in, const struct axis *ax,
                        const struct hb_report_band *b, size_t nb)
{
	size_t i;
	int k;

	hb_rw_putf(
	    w,
	    "<p class=\"note\">%zu regions are drawn as %zu bands of consecutive regions, each in "
	    "the colour of what covers most of its keys; every region the audit flagged is drawn "
	    "at its own place on top and listed by run below.</p>\n",
	    ax->n, nb);
	hb_rw_put(w, "<table id=\"bands\"><caption>Bands in key order</caption>\n<tr><th>band</th>"
	             "<th>regions</th><th>start</th><th>end</th><th>share of keys</th>");
	for (k = HB_RC_COUNT - 1; k >= 0; k--)
		hb_rw_putf(w, "<th>%s</th>", hb_report_class_name[k]);
	hb_rw_put(w, "</tr>\n");
	for (i = 0; i < nb && !w->rc; i++) {
		const unsigned char *s, *e, *s2, *e2;
		size_t sl, el, sl2, el2, l = b[i].first + b[i].n - 1;

		hb_regions_bounds(&in->audit->rs, b[i].first, &s, &sl, &e, &el);
		hb_regions_bounds(&in->audit->rs, l, &s2, &sl2, &e2, &el2);
		hb_rw_putf(w, "<tr><td class=\"n\">%zu</td><td>", i);
		hb_rw_run_name(w, b[i].first, l);
		hb_rw_put(w, "</td><td class=\"k\">");
		hb_rw_key_text(w, s, sl, 0, 0);
		hb_rw_put(w, "</td><td class=\"k\">");
		hb_rw_key_text(w, e2, el2, 1, 0);
		hb_rw_put(w, "</td><td class=\"n\">");
		hb_rw_pct(w, ax->pos[l] + ax->width[l] - ax->pos[b[i].first]);
		hb_rw_put(w, "</td>");
		for (k = HB_RC_COUNT - 1; k >= 0; k--)
			hb_rw_putf(w, "<td class=\"n\">%zu</td>", b[i].count[k]);
		hb_rw_put(w, "</tr>\n");
	}
	hb_rw_put(w, "</table>\n");
}

static void run_row(struct hb_rw *w, void *ctx, size_t first, size_t last, int cls)
{
	const struct hb_audit_report *a = ctx;
	const unsigned char *s, *e, *s2, *e2;
	size_t sl, el, sl2, el2;

	hb_regions_bounds(&a->rs, first, &s, &sl, &e, &el);
	hb_regions_bounds(&a->rs, last, &s2, &sl2, &e2, &el2);
	hb_rw_putf(w, "<tr><td>%s</td><td>", hb_report_class_name[cls]);
	hb_rw_run_name(w, first, last);
	hb_rw_putf(w, "</td><td class=\"n\">%zu</td><td class=\"k\">", last - first + 1);
	hb_rw_key_text(w, s, sl, 0, 0);
	hb_rw_put(w, "</td><td class=\"k\">");
	hb_rw_key_text(w, e2, el2, 1, 0);
	hb_rw_put(w, "</td></tr>\n");
}

/* Above this many runs they are listed one a line in a <pre>, not as table rows: a third of
 * the bytes, so a page of 100,000 regions that alternate stays a few MiB. */
#define RUNS_TABLE_MAX 2000

static void run_line(struct hb_rw *w, void *ctx, size_t first, size_t last, int cls)
{
	const struct hb_audit_report *a = ctx;
	const unsigned char *s, *e, *s2, *e2;
	size_t sl, el, sl2, el2;

	hb_regions_bounds(&a->rs, first, &s, &sl, &e, &el);
	hb_regions_bounds(&a->rs, last, &s2, &sl2, &e2, &el2);
	hb_rw_putf(w, "%s ", hb_report_class_name[cls]);
	hb_rw_run_name(w, first, last);
	hb_rw_put(w, " [");
	hb_rw_key_text(w, s, sl, 0, 0);
	hb_rw_put(w, ", ");
	hb_rw_key_text(w, e2, el2, 1, 0);
	hb_rw_put(w, ")\n");
}

static void count_run(struct hb_rw *w, void *ctx, size_t first, size_t last, int cls)
{
	(void)w;
	(void)first;
	(void)last;
	(void)cls;
	++*(size_t *)ctx;
}

static void runs_table(struct hb_rw *w, const struct hb_report_input *in, const unsigned char *cls)
{
	size_t runs = 0;

	each_run(w, cls, in->audit->rs.n, count_run, &runs);
	if (!runs)
		return;
	if (runs > RUNS_TABLE_MAX) {
		hb_rw_putf(
		    w,
		    "<p>Flagged regions, by run of consecutive regions (%zu runs, one a line: "
		    "verdict, regions, [start, end)):</p>\n<pre id=\"flagged-list\" class=\"k\">\n",
		    runs);
		each_run(w, cls, in->audit->rs.n, run_line, (void *)in->audit);
		hb_rw_put(w, "</pre>\n");
		return;
	}
	hb_rw_put(w, "<table id=\"flagged\"><caption>Flagged regions, by run of consecutive regions"
	             "</caption>\n<tr><th>audit</th><th>regions</th><th>count</th><th>start</th>"
	             "<th>end</th></tr>\n");
	each_run(w, cls, in->audit->rs.n, run_row, (void *)in->audit);
	hb_rw_put(w, "</table>\n");
}

/* Findings: the table-wide ones all, those of regions up to a bound (each one's region is in
 * the runs above). */
static void findings_table(struct hb_rw *w, const struct hb_audit_report *a)
{
	size_t i, shown = 0, left = 0;

	hb_rw_put(w, "<h2>Findings</h2>\n");
	if (!a->a.findings.n) {
		hb_rw_put(w, "<p>None: every region is reachable and the chain is whole.</p>\n");
		return;
	}
	hb_rw_put(w, "<table id=\"findings\"><caption>Findings of the audit</caption>\n<tr><th>kind"
	             "</th><th>region</th><th>message</th></tr>\n");
	for (i = 0; i < a->a.findings.n && !w->rc; i++) {
		const struct hb_finding *f = &a->a.findings.v[i];

		if (f->region >= 0 && shown >= 2000) {
			left++;
			continue;
		}
		shown += f->region >= 0;
		hb_rw_put(w, "<tr><td>");
		hb_rw_esc(w, f->kind);
		hb_rw_put(w, "</td><td class=\"n\">");
		if (f->region >= 0)
			hb_rw_putf(w, "%ld", f->region);
		hb_rw_put(w, "</td><td class=\"k\">");
		hb_rw_esc(w, f->message);
		hb_rw_put(w, "</td></tr>\n");
	}
	hb_rw_put(w, "</table>\n");
	if (left)
		hb_rw_putf(w,
		           "<p class=\"note\">%zu more findings of single regions are not listed "
		           "here; their regions are in the runs above.</p>\n",
		           left);
}

/* ---------------------------------------------------------------- all of it */

int hb_report_html(struct hb_buf *out, const struct hb_report_input *in, struct hb_error *err)
{
	size_t max = in->max_bands ? in->max_bands : HB_REPORT_MAX_BANDS, nb = 0;
	struct hb_rw w = {out, HB_BUF_INIT, 0};
	struct axis ax = {0};
	unsigned char *cls = NULL;
	struct hb_report_band *b = NULL;

	w.rc = hb_report_classes(&cls, in->audit);
	if (!w.rc)
		w.rc = axis_make(&ax, in->audit);
	if (!w.rc)
		w.rc = bands_make(&b, &nb, &ax, cls, max);
	head(&w, in);
	summary(&w, in, cls);
	hb_rw_put(&w, "<h2>Key space</h2>\n");
	legend(&w);
	if (!w.rc)
		map_svg(&w, in, &ax, cls, b, nb);
	if (!ax.by_share)
		hb_rw_put(&w,
		          "<p class=\"note\">No key space to measure shares: each live region is "
		          "drawn the same width.</p>\n");
	hb_rw_putf(
	    &w,
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
		hb_report_servers_section(&w, in);
	if (!w.rc && in->plan)
		w.rc = hb_report_plan_section(&w, in, err);
	if (!w.rc && in->sim)
		hb_report_sim_section(&w, in, b, nb);
	hb_rw_put(&w, "</body>\n</html>\n");
	hb_buf_release(&w.tmp);
	axis_release(&ax);
	free(cls);
	free(b);
	return w.rc;
}
