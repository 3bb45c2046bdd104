/* hbtab report's page, its later parts: the servers, a plan's boundaries before and after, and
 * simulated writes. */
#include "report_plan.h"
#include "report_sections.h"

#include "key.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

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

static void servers_svg(struct hb_rw *w, const struct server *s, size_t n, uint64_t total_writes,
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
	hb_rw_putf(
	    w,
	    "<svg id=\"servers\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\" "
	    "aria-labelledby=\"servers-title\" font-family=\"sans-serif\" font-size=\"11\">\n"
	    "<title id=\"servers-title\">Regions per server (blue) and share of the writes "
	    "(orange, the line is an even share)</title>\n",
	    HB_REPORT_MAP_X0 * 2 + HB_REPORT_MAP_W, h, HB_REPORT_MAP_X0 * 2 + HB_REPORT_MAP_W, h);
	for (i = 0; i < drawn && !w->rc; i++) {
		int y = 10 + (int)i * 24;
		double rw = 420.0 * (double)s[i].regions / (double)maxr;

		hb_rw_putf(w, "<text x=\"0\" y=\"%d\">", y + 12);
		hb_rw_esc_n(w, s[i].name, strlen(s[i].name) > 36 ? 36 : strlen(s[i].name));
		hb_rw_putf(
		    w,
		    "</text><rect x=\"260\" y=\"%d\" width=\"%.2f\" height=\"9\" fill=\"#4a78c2\">"
		    "<title>%zu regions</title></rect><text x=\"%.2f\" y=\"%d\">%zu</text>\n",
		    y, rw, s[i].regions, 264 + rw, y + 9, s[i].regions);
		if (s[i].measured && total_writes) {
			double ws = (double)s[i].writes / (double)total_writes;

			hb_rw_putf(
			    w,
			    "<rect x=\"260\" y=\"%d\" width=\"%.2f\" height=\"9\" fill=\"%s\">"
			    "<title>",
			    y + 10, 420.0 * ws / maxw, hb_report_colour[HB_RC_HOT]);
			hb_rw_pct(w, ws);
			hb_rw_put(w, " of the writes</title></rect>\n");
		}
	}
	if (total_writes && drawn)
		hb_rw_putf(w,
		           "<line x1=\"%.2f\" y1=\"4\" x2=\"%.2f\" y2=\"%d\" stroke=\"#333\" "
		           "stroke-dasharray=\"4 3\"/>\n",
		           260 + 420.0 * even / maxw, 260 + 420.0 * even / maxw,
		           10 + (int)drawn * 24);
	hb_rw_put(w, "</svg>\n");
	if (drawn < n)
		hb_rw_putf(
		    w,
		    "<p class=\"note\">The first %zu of %zu servers are drawn; the table lists "
		    "all.</p>\n",
		    drawn, n);
	(void)live;
}

void hb_report_servers_section(struct hb_rw *w, const struct hb_report_input *in)
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
	hb_rw_put(w, "<h2>Servers</h2>\n");
	if (!a->have_hot && in->measure_load) {
		hb_rw_put(w, "<p class=\"note\">Request load not measured (run with ");
		hb_rw_esc(w, in->measure_load);
		hb_rw_put(w, ").</p>\n");
	} else if (!a->have_hot) {
		hb_rw_put(w, "<p class=\"note\">Request load not measured.</p>\n");
	}
	servers_svg(w, s, n, total, live);
	hb_rw_put(w,
	          "<table id=\"server-table\"><caption>Regions and requests per server</caption>\n"
	          "<tr><th>server</th><th>regions</th><th>share of regions</th><th>writes</th>"
	          "<th>share of writes</th><th>reads</th></tr>\n");
	for (i = 0; i < n && !w->rc; i++) {
		hb_rw_put(w, "<tr><td>");
		hb_rw_esc(w, s[i].name);
		hb_rw_putf(w, "</td><td class=\"n\">%zu</td><td class=\"n\">", s[i].regions);
		hb_rw_pct(w, live ? (double)s[i].regions / (double)live : 0);
		if (s[i].measured) {
			hb_rw_putf(w, "</td><td class=\"n\">%llu</td><td class=\"n\">",
			           (unsigned long long)s[i].writes);
			hb_rw_pct(w, total ? (double)s[i].writes / (double)total : 0);
			hb_rw_putf(w, "</td><td class=\"n\">%llu</td></tr>\n",
			           (unsigned long long)s[i].reads);
		} else {
			hb_rw_put(w, "</td><td></td><td></td><td></td></tr>\n");
		}
	}
	hb_rw_put(w, "</table>\n");
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
static void ticks(struct hb_rw *w, const double *xs, size_t n, int y, const char *colour)
{
	double last = -1;
	size_t i;

	hb_rw_putf(w, "<g stroke=\"%s\" shape-rendering=\"crispEdges\">\n", colour);
	for (i = 0; i < n && !w->rc; i++) {
		double x = HB_REPORT_MAP_X0 + xs[i] * HB_REPORT_MAP_W;

		if (x - last < 1)
			continue;
		hb_rw_putf(w, "<line x1=\"%.2f\" y1=\"%d\" x2=\"%.2f\" y2=\"%d\"/>\n", x, y, x,
		           y + 30);
		last = x;
	}
	hb_rw_put(w, "</g>\n");
}

static void plan_svg(struct hb_rw *w, const struct hb_report_plan *p, const double *before,
                     size_t nb, const double *after, size_t na, const double *step_x0,
                     const double *step_x1)
{
	size_t i, rounds = 0, round = 0;
	double last = -1e9, lane;

	hb_rw_putf(
	    w,
	    "<svg id=\"plan\" width=\"%d\" height=\"150\" viewBox=\"0 0 %d 150\" role=\"img\" "
	    "aria-labelledby=\"plan-title\" font-family=\"sans-serif\" font-size=\"11\">\n"
	    "<title id=\"plan-title\">Region boundaries before (top) and after (bottom) the %s "
	    "plan, each step where it acts</title>\n",
	    HB_REPORT_MAP_X0 * 2 + HB_REPORT_MAP_W, HB_REPORT_MAP_X0 * 2 + HB_REPORT_MAP_W,
	    p->kind);
	hb_rw_putf(w,
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
		hb_rw_span_px(step_x0[i], step_x1[i] - step_x0[i], &x, &wd);
		hb_rw_putf(w,
		           "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"%s\" "
		           "fill-opacity=\"0.6\" stroke=\"#fff\"><title>step %zu: %s (%s)</title>"
		           "</rect>\n",
		           x, y, wd, lane, c, i + 1, p->steps[i].action, p->steps[i].finding);
		if (x >= last + 18 && lane >= 9) {
			hb_rw_putf(w, "<text x=\"%.2f\" y=\"%.2f\" font-size=\"%.0f\">%zu</text>\n",
			           x + 2, y + lane / 2 + (lane < 14 ? lane : 14) / 3,
			           lane < 11 ? lane : 11, i + 1);
			last = x;
		}
	}
	hb_rw_put(w, "</svg>\n");
}

static void steps_table(struct hb_rw *w, const struct hb_report_plan *p)
{
	size_t i;
	int rounds = 0;

	for (i = 0; i < p->nsteps; i++)
		rounds |= p->steps[i].round > 0;
	hb_rw_putf(w,
	           "<table id=\"steps\"><caption>Steps</caption>\n<tr><th>#</th>%s<th>action</th>"
	           "<th>finding</th><th>regions</th><th>start</th><th>end</th><th>split key</th>"
	           "<th>command</th></tr>\n",
	           rounds ? "<th>round</th>" : "");
	for (i = 0; i < p->nsteps && !w->rc; i++) {
		const struct hb_report_step *s = &p->steps[i];
		const unsigned char *a, *b, *c, *d;
		size_t al = 0, bl = 0, cl = 0, dl = 0;

		hb_rw_putf(w, "<tr><td class=\"n\">%zu</td>", i + 1);
		if (rounds)
			hb_rw_putf(w, "<td class=\"n\">%zu</td>", s->round);
		hb_rw_putf(w, "<td>%s</td><td>", s->action);
		hb_rw_esc(w, s->finding);
		hb_rw_put(w, "</td><td>");
		if (s->bounded) {
			hb_rw_putf(w, "%zu region%s of round %zu", s->takes,
			           s->takes == 1 ? "" : "s", s->round);
			hb_rw_put(w, "</td><td class=\"k\">");
			hb_rw_key_text(w, s->start, s->start_len, 0, 0);
			hb_rw_put(w, "</td><td class=\"k\">");
			hb_rw_key_text(w, s->end, s->end_len, 1, 0);
		} else if (s->n && s->first + s->n <= p->before->n) {
			hb_rw_run_name(w, s->first, s->first + s->n - 1);
			hb_regions_bounds(p->before, s->first, &a, &al, &b, &bl);
			hb_regions_bounds(p->before, s->first + s->n - 1, &c, &cl, &d, &dl);
			hb_rw_put(w, "</td><td class=\"k\">");
			hb_rw_key_text(w, a, al, 0, 0);
			hb_rw_put(w, "</td><td class=\"k\">");
			hb_rw_key_text(w, d, dl, 1, 0);
		} else {
			hb_rw_put(w, "table</td><td></td><td>");
		}
		hb_rw_put(w, "</td><td class=\"k\">");
		if (s->key)
			hb_rw_key_text(w, s->key, s->key_len, 0, 0);
		hb_rw_put(w, "</td><td class=\"k\">");
		hb_rw_esc(w, s->command);
		hb_rw_put(w, "</td></tr>\n");
	}
	hb_rw_put(w, "</table>\n");
}

static void after_table(struct hb_rw *w, const struct hb_report_plan *p, size_t max)
{
	size_t i;

	if (p->after.n + 1 > max) {
		hb_rw_putf(
		    w,
		    "<p class=\"note\">%zu regions after the plan (the list is left out above "
		    "%zu).</p>\n",
		    p->after.n + 1, max);
		return;
	}
	hb_rw_put(w, "<table id=\"after\"><caption>Regions after the plan</caption>\n<tr><th>#</th>"
	             "<th>start</th><th>end</th></tr>\n");
	for (i = 0; i <= p->after.n && !w->rc; i++) {
		size_t sl = 0, el = 0;
		const unsigned char *s = i ? hb_keys_at(&p->after, i - 1, &sl) : NULL;
		const unsigned char *e = i < p->after.n ? hb_keys_at(&p->after, i, &el) : NULL;

		hb_rw_putf(w, "<tr><td class=\"n\">%zu</td><td class=\"k\">", i);
		hb_rw_key_text(w, s, sl, 0, 0);
		hb_rw_put(w, "</td><td class=\"k\">");
		hb_rw_key_text(w, e, el, 1, 0);
		hb_rw_put(w, "</td></tr>\n");
	}
	hb_rw_put(w, "</table>\n");
}

int hb_report_plan_section(struct hb_rw *w, const struct hb_report_input *in, struct hb_error *err)
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
		hb_rw_putf(w, "<h2>Plan: %s</h2>\n<p>%zu regions before, %zu after; %zu steps",
		           p->kind, rs->n, na + 1, p->nsteps);
		if (p->deferred)
			hb_rw_putf(w, " (%zu more left for a later run)", p->deferred);
		hb_rw_put(w,
		          ". Boundaries are ticks on the key-space axis; merges are green, splits "
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

void hb_report_sim_section(struct hb_rw *w, const struct hb_report_input *in,
                           const struct hb_report_band *b, size_t nb)
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
	hb_rw_putf(
	    w, "<h2>Simulated writes</h2>\n<p>%llu writes (%s) over %zu regions; an even share is ",
	    (unsigned long long)sim->total, sim->source ? sim->source : "keys", sim->n);
	hb_rw_pct(w, even);
	hb_rw_put(w, " a region.</p>\n");
	hb_rw_putf(
	    w,
	    "<svg id=\"writes\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\" "
	    "aria-labelledby=\"writes-title\" font-family=\"sans-serif\" font-size=\"11\">\n"
	    "<title id=\"writes-title\">Share of the writes per region in key order (bars), "
	    "against an even share (dashed line)</title>\n",
	    HB_REPORT_MAP_X0 * 2 + HB_REPORT_MAP_W, h + 20, HB_REPORT_MAP_X0 * 2 + HB_REPORT_MAP_W,
	    h + 20);
	hb_rw_put(w, "<g shape-rendering=\"crispEdges\">\n");
	for (i = 0; i < nb && !w->rc; i++) {
		uint64_t wsum = 0;
		size_t j;
		double share, x = HB_REPORT_MAP_X0 + (double)i * HB_REPORT_MAP_W / (double)nb;
		double bw = (double)HB_REPORT_MAP_W / (double)nb, bh;

		for (j = b[i].first; j < b[i].first + b[i].n && j < sim->n; j++)
			wsum += sim->writes[j];
		share = sim->total ? (double)wsum / (double)sim->total / (double)b[i].n : 0;
		bh = scale > 0 ? h * share / scale : 0;
		hb_rw_putf(w,
		           "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"%s\">"
		           "<title>",
		           x, 10 + h - bh, bw > 1.5 ? bw - 0.5 : bw, bh,
		           share > even * 2 ? hb_report_colour[HB_RC_HOT] : "#4a78c2");
		hb_rw_run_name(w, b[i].first, b[i].first + b[i].n - 1);
		hb_rw_put(w, ": ");
		hb_rw_pct(w, share);
		hb_rw_put(w, b[i].n > 1 ? " of the writes a region</title></rect>\n"
		                        : " of the writes</title></rect>\n");
	}
	hb_rw_putf(w,
	           "</g>\n<line x1=\"%d\" y1=\"%.2f\" x2=\"%d\" y2=\"%.2f\" stroke=\"#333\" "
	           "stroke-dasharray=\"5 3\"/>\n<text x=\"%d\" y=\"%.2f\" text-anchor=\"end\">even "
	           "share</text>\n</svg>\n",
	           HB_REPORT_MAP_X0, 10 + h - h * even / scale, HB_REPORT_MAP_X0 + HB_REPORT_MAP_W,
	           10 + h - h * even / scale, HB_REPORT_MAP_X0 + HB_REPORT_MAP_W,
	           6 + h - h * even / scale);
	hb_rw_put(
	    w, "<table id=\"writes-table\"><caption>Writes per region</caption>\n<tr><th>regions"
	       "</th><th>writes</th><th>share a region</th><th>against an even share</th></tr>\n");
	for (i = 0; i < nb && !w->rc; i++) {
		uint64_t wsum = 0;
		size_t j;
		double share;

		for (j = b[i].first; j < b[i].first + b[i].n && j < sim->n; j++)
			wsum += sim->writes[j];
		share = sim->total ? (double)wsum / (double)sim->total / (double)b[i].n : 0;
		hb_rw_put(w, "<tr><td>");
		hb_rw_run_name(w, b[i].first, b[i].first + b[i].n - 1);
		hb_rw_putf(w, "</td><td class=\"n\">%llu</td><td class=\"n\">",
		           (unsigned long long)wsum);
		hb_rw_pct(w, share);
		hb_rw_putf(w, "</td><td class=\"n\">%.2fx</td></tr>\n",
		           even > 0 ? share / even : 0);
	}
	hb_rw_put(w, "</table>\n");
}
