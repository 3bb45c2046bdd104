/* Where a table's load lands: counters matched to regions by name, hot-spots, placement. */
#include "hotspots.h"

#include "regioninfo.h"
#include "vec.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Splits a region name "table,start,id[_rep].enc." into its parts. 0 when malformed. */
static int parse_region_name(const unsigned char *p, size_t n, const unsigned char **table,
                             size_t *tlen, const unsigned char **start, size_t *slen, uint64_t *id,
                             int *replica)
{
	size_t first, lastc, j;

	for (first = 0; first < n && p[first] != ','; first++)
		;
	if (first == n)
		return 0;
	for (lastc = n; lastc > first + 1 && p[lastc - 1] != ','; lastc--)
		;
	if (lastc <= first + 1)
		return 0;
	lastc--; /* index of the last comma */
	*table = p;
	*tlen = first;
	*start = p + first + 1;
	*slen = lastc - first - 1;
	*id = 0;
	*replica = 0;
	for (j = lastc + 1; j < n && p[j] >= '0' && p[j] <= '9'; j++)
		*id = *id * 10 + (uint64_t)(p[j] - '0');
	if (j < n && p[j] == '_')
		*replica = 1;
	return 1;
}

int hb_region_counts_init(struct hb_region_counts *c, size_t n, int two_readings)
{
	size_t cap = n ? n : 1, i;

	memset(c, 0, sizeof(*c));
	c->n = n;
	c->t1 = malloc(cap * sizeof(*c->t1));
	c->t0 = two_readings ? malloc(cap * sizeof(*c->t0)) : NULL;
	c->server = calloc(cap, sizeof(*c->server));
	if (!c->t1 || (two_readings && !c->t0) || !c->server)
		return HB_ENOMEM;
	for (i = 0; i < n; i++) {
		c->t1[i].writes = c->t1[i].reads = HB_NO_LOAD;
		if (c->t0)
			c->t0[i] = c->t1[i];
	}
	return 0;
}

void hb_region_counts_release(struct hb_region_counts *c)
{
	free(c->t0);
	free(c->t1);
	free(c->server);
	free(c->servers);
	memset(c, 0, sizeof(*c));
}

/* 1 + the index of server name srv in c->servers, added when new; 0 for NULL. A status lists
 * a server's loads together, so the previous load's server is tried first. HB_ENOMEM. */
static int counts_server(struct hb_region_counts *c, const char *srv, uint32_t *out)
{
	size_t k;

	*out = 0;
	if (!srv)
		return 0;
	if (c->last_server < c->nservers && c->servers[c->last_server] == srv) {
		*out = (uint32_t)c->last_server + 1;
		return 0;
	}
	for (k = 0; k < c->nservers && strcmp(c->servers[k], srv); k++)
		;
	if (k == c->nservers) {
		if (k >= UINT32_MAX - 1 || HB_VEC_GROW(c->servers, c->servers_cap, k + 1, 8))
			return HB_ENOMEM;
		c->servers[c->nservers++] = srv;
	}
	c->last_server = k;
	*out = (uint32_t)k + 1;
	return 0;
}

int hb_audit_match_load(struct hb_region_counts *counts, const struct hb_regions *rs,
                        const char *table, const struct hb_audit_load *l, int t1)
{
	size_t tl = strlen(table), j;
	const unsigned char *tp, *sp;
	size_t tn, sn;
	uint64_t id;
	int rep;

	if (!l->name || !parse_region_name(l->name, l->name_len, &tp, &tn, &sp, &sn, &id, &rep) ||
	    rep || tn != tl || memcmp(tp, table, tl))
		return 0;
	if (counts->n != rs->n || (!t1 && !counts->t0))
		HB_BUG("counts not sized for these regions and readings");
	for (j = hb_regions_lower_bound(rs, sp, sn); j < rs->n; j++) {
		struct hb_region_view v;
		const struct hb_region *r = hb_regions_at_unnamed(rs, j, &v);
		struct hb_hot_region *c = t1 ? &counts->t1[j] : &counts->t0[j];
		uint32_t srv;

		if (hb_key_cmp(r->start, r->start_len, sp, sn))
			break;
		if (r->replica_id > 0 || (r->id && id && r->id != id))
			continue;
		c->reads = l->reads;
		c->writes = l->writes;
		if (counts_server(counts, l->server, &srv))
			return HB_ENOMEM;
		if (t1 || !counts->server[j])
			counts->server[j] = srv;
		return 0;
	}
	return 0;
}

int hb_audit_match_loads(struct hb_region_counts *out, const struct hb_regions *rs,
                         const char *table, const struct hb_audit_load *l0, size_t n0,
                         const struct hb_audit_load *l1, size_t n1)
{
	size_t i;
	int rc = hb_region_counts_init(out, rs->n, 1);

	for (i = 0; !rc && i < n0; i++)
		rc = hb_audit_match_load(out, rs, table, &l0[i], 0);
	for (i = 0; !rc && i < n1; i++)
		rc = hb_audit_match_load(out, rs, table, &l1[i], 1);
	return rc;
}

void hb_hotspots_init(struct hb_hotspots *h)
{
	memset(h, 0, sizeof(*h));
	h->sequential_region = -1;
}

double hb_hotspots_share(const struct hb_hotspots *h, size_t i)
{
	return h->total_writes ? (double)h->r[i].writes / (double)h->total_writes : 0;
}

void hb_hotspots_release(struct hb_hotspots *h)
{
	size_t i;

	for (i = 0; i < h->ns; i++)
		free(h->s[i].name);
	free(h->s);
	free(h->r);
	hb_hotspots_init(h);
}

/* Region h's requests in the window, worked out in place from its counters at t1 (h) and at
 * t0 (NULL with one reading). */
static void window_delta(struct hb_hot_region *h, const struct hb_hot_region *t0)
{
	if (h->writes == HB_NO_LOAD) {
		h->writes = h->reads = 0;
		return;
	}
	if (!t0 || t0->writes == HB_NO_LOAD)
		return; /* a new region: all of its requests are in the window */
	/* a counter below its value at t0 restarted when its region reopened */
	if (h->writes >= t0->writes)
		h->writes -= t0->writes;
	if (h->reads >= t0->reads)
		h->reads -= t0->reads;
}

/* The index in out->s of server srv, added when new. HB_ENOMEM. */
static int hot_server_find(struct hb_hotspots *out, size_t *scap, const char *srv, size_t *k)
{
	for (*k = 0; *k < out->ns && strcmp(out->s[*k].name, srv); (*k)++)
		;
	if (*k < out->ns)
		return 0;
	if (HB_VEC_GROW(out->s, *scap, out->ns + 1, 8))
		return HB_ENOMEM;
	memset(&out->s[*k], 0, sizeof(out->s[*k]));
	out->s[*k].name = strdup(srv);
	if (!out->s[*k].name)
		return HB_ENOMEM;
	out->ns++;
	return 0;
}

/* Where the writes went, and where each server of the counts is in out->s. */
struct hot_tally {
	size_t live;
	long last_live;  /* the last live region, or -1 */
	long end_region; /* the last reachable live region (the last live one), or -1 */
	size_t scap;
	size_t *slot; /* per counts server: 1 + its index in out->s, 0 until it is added */
};

/* Adds live region i's requests h to its server: where the counts saw it, else where rs
 * lists it (none: nowhere). HB_ENOMEM. */
static int hot_server_add(struct hb_hotspots *out, struct hot_tally *t,
                          const struct hb_region_counts *counts, size_t i, const char *listed,
                          const struct hb_hot_region *h)
{
	uint32_t c = counts->server[i];
	size_t k;

	if (c && t->slot[c - 1]) {
		k = t->slot[c - 1] - 1;
	} else {
		const char *srv = c ? counts->servers[c - 1] : listed;

		if (!srv)
			return 0;
		if (hot_server_find(out, &t->scap, srv, &k))
			return HB_ENOMEM;
		if (c)
			t->slot[c - 1] = k + 1;
	}
	out->s[k].writes += h->writes;
	out->s[k].reads += h->reads;
	out->s[k].regions++;
	return 0;
}

/* Each live region's requests in the window (out->r, the counts at t1 turned into them in
 * place), summed per server and in all. HB_ENOMEM. */
static int hot_count(struct hb_hotspots *out, struct hot_tally *t, const struct hb_regions *rs,
                     const struct hb_region_counts *counts, const struct hb_audit *reach)
{
	struct hb_region_view v;
	size_t i;

	t->live = 0;
	t->last_live = t->end_region = -1;
	for (i = 0; i < rs->n; i++) {
		const struct hb_region *r = hb_regions_at_unnamed(rs, i, &v);
		struct hb_hot_region *h = &out->r[i];
		struct hb_audit_region ar;

		if (!hb_region_is_live(r)) {
			h->writes = h->reads = 0;
			continue;
		}
		t->live++;
		t->last_live = (long)i;
		if (reach)
			hb_audit_at(reach, i, &ar);
		if (!reach || ar.reachable != 0)
			t->end_region = (long)i;
		window_delta(h, counts->t0 ? &counts->t0[i] : NULL);
		out->total_writes += h->writes;
		out->total_reads += h->reads;
		if (hot_server_add(out, t, counts, i, r->server, h))
			return HB_ENOMEM;
	}
	if (t->end_region < 0)
		t->end_region = t->last_live;
	return 0;
}

/* The sequential-key pattern: (nearly) all writes go to the region at the end. */
static int hot_sequential(struct hb_hotspots *out, struct hb_findings *f, struct hb_buf *m,
                          const struct hb_regions *rs, const struct hot_tally *t,
                          const struct hb_hot_params *p)
{
	struct hb_region_view v;
	long e = t->end_region;

	if (t->live < 2 || e < 0 || out->total_writes < p->min_writes ||
	    hb_hotspots_share(out, (size_t)e) < p->sequential)
		return 0;
	out->sequential_region = e;
	return hb_findings_add_region(m, (size_t)e, hb_regions_at_unnamed(rs, (size_t)e, &v)) ||
	       hb_buf_addf(m,
	                   " takes %.1f%% of the table's writes (%llu of %llu) and is "
	                   "the %s region: sequential row keys (timestamps, counters, "
	                   "monotonically increasing ids); salt or hash the key prefix",
	                   100.0 * hb_hotspots_share(out, (size_t)e),
	                   (unsigned long long)out->r[e].writes,
	                   (unsigned long long)out->total_writes,
	                   e == t->last_live ? "last" : "last reachable") ||
	       hb_findings_add_buf(f, HB_FIND_HOTSPOT, e, m);
}

/* Live regions above factor x their fair share of the writes, and servers likewise. */
static int hot_over_share(const struct hb_hotspots *out, struct hb_findings *f, struct hb_buf *m,
                          const struct hb_regions *rs, size_t live, const struct hb_hot_params *p)
{
	struct hb_region_view v;
	size_t i;
	int rc = 0;

	for (i = 0; !rc && i < rs->n; i++) {
		const struct hb_hot_region *h = &out->r[i];
		double share = hb_hotspots_share(out, i);

		if (!hb_region_is_live(hb_regions_at_unnamed(rs, i, &v)) ||
		    (long)i == out->sequential_region || live < 2 || h->writes < p->min_writes ||
		    share <= p->factor * out->fair_share)
			continue;
		rc = hb_findings_add_region(m, i, &v.r) ||
		     hb_buf_addf(m,
		                 " takes %.1f%% of the table's writes (%llu of %llu), %.1f "
		                 "times its fair share of %.1f%%",
		                 100.0 * share, (unsigned long long)h->writes,
		                 (unsigned long long)out->total_writes, share / out->fair_share,
		                 100.0 * out->fair_share) ||
		     hb_findings_add_buf(f, HB_FIND_HOTSPOT, (long)i, m);
	}
	for (i = 0; !rc && out->ns >= 2 && i < out->ns; i++) {
		const struct hb_hot_server *s = &out->s[i];
		double fair = 1.0 / (double)out->ns;

		if (s->writes >= p->min_writes && s->write_share > p->factor * fair)
			rc =
			    hb_findings_add(f, HB_FIND_HOTSPOT, -1,
			                    "server %s takes %.1f%% of the table's writes over %zu "
			                    "regions, %.1f times its fair share of %.1f%%",
			                    s->name, 100.0 * s->write_share, s->regions,
			                    s->write_share / fair, 100.0 * fair);
	}
	return rc;
}

int hb_audit_hotspots(struct hb_hotspots *out, struct hb_findings *f, const struct hb_regions *rs,
                      struct hb_region_counts *counts, const struct hb_audit *reach,
                      const struct hb_hot_params *p)
{
	struct hb_buf m = HB_BUF_INIT;
	struct hot_tally t = {0};
	size_t i;
	int rc;

	if (counts->n != rs->n)
		HB_BUG("counts not sized for these regions");
	hb_hotspots_init(out);
	out->r = counts->t1;
	out->n = rs->n;
	counts->t1 = NULL;
	t.slot = calloc(counts->nservers ? counts->nservers : 1, sizeof(*t.slot));
	if (!out->r || !t.slot || hot_count(out, &t, rs, counts, reach)) {
		free(t.slot);
		return HB_ENOMEM;
	}
	free(t.slot);
	out->fair_share = t.live ? 1.0 / (double)t.live : 0.0;
	for (i = 0; i < out->ns; i++)
		out->s[i].write_share =
		    out->total_writes ? (double)out->s[i].writes / (double)out->total_writes : 0;
	if (!out->total_writes)
		return 0;
	rc = hot_sequential(out, f, &m, rs, &t, p);
	if (!rc)
		rc = hot_over_share(out, f, &m, rs, t.live, p);
	hb_buf_release(&m);
	return rc ? HB_ENOMEM : 0;
}

int hb_audit_placement(struct hb_findings *out, const struct hb_regions *rs,
                       const char *const *names, size_t n, double factor)
{
	size_t *count, i, j, total = 0;
	double limit;
	int rc = 0;

	if (!n)
		return 0;
	count = calloc(n, sizeof(*count));
	if (!count)
		return HB_ENOMEM;
	for (i = 0; i < rs->n; i++) {
		struct hb_region_view v;
		const struct hb_region *r = hb_regions_at_unnamed(rs, i, &v);

		if (!hb_region_is_live(r) || !r->server)
			continue;
		for (j = 0; j < n; j++)
			if (!strcmp(names[j], r->server)) {
				count[j]++;
				total++;
				break;
			}
	}
	limit = ceil(factor * (double)total / (double)n);
	for (j = 0; !rc && j < n; j++)
		if ((double)count[j] > limit)
			rc = hb_findings_add(
			    out, HB_FIND_PLACEMENT, -1,
			    "server %s holds %zu of the table's %zu regions; an even "
			    "spread over %zu live servers is %.1f (the balancer counts "
			    "regions of all tables, not this table's load)",
			    names[j], count[j], total, n, (double)total / (double)n);
	free(count);
	return rc;
}
