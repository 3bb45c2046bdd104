/* hbtab repair over the wire: emptiness proofs, region loads, samples, the survey; its shell steps
 * are rest/repair_steps.c's. */
#include "rest/repair.h"

#include "core/activity.h"
#include "core/key.h"
#include "core/metarow.h"
#include "core/regioninfo.h"
#include "core/reshape.h"
#include "core/tname.h"
#include "rest/audit.h"
#include "rest/hbase.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- evidence */

#define ROW_FOUND 1 /* the scan callback's stop: a row was seen */

/* Whether row is hbtab's own metadata row, which is not data: a merge carries it along. */
static int metadata_row(const struct hb_row *row)
{
	return row->key_len == strlen(HB_METAROW_ROW) &&
	       !memcmp(row->key, HB_METAROW_ROW, row->key_len);
}

static int first_row(void *ctx, const struct hb_row *row, struct hb_error *err)
{
	int *rows = ctx;

	(void)err;
	if (metadata_row(row))
		return 0;
	*rows = 1;
	return ROW_FOUND;
}

/* The first data row's key, kept in the buffer ctx. */
static int first_key(void *ctx, const struct hb_row *row, struct hb_error *err)
{
	(void)err;
	if (metadata_row(row))
		return 0;
	return hb_buf_add(ctx, row->key, row->key_len) ? HB_ENOMEM : ROW_FOUND;
}

static int printable(unsigned char c)
{
	return c >= 0x20 && c <= 0x7e;
}

/* A key of printable bytes only (what a stateless scan's startrow can say) at or below key:
 * its printable prefix, followed, when the first other byte is above '~', by '~'s (a longer
 * run sorts closer below the key). */
static int printable_floor(struct hb_buf *out, const unsigned char *k, size_t n)
{
	size_t i;

	for (i = 0; i < n && printable(k[i]); i++)
		;
	if (hb_buf_add(out, k, i))
		return HB_ENOMEM;
	for (n = i < n && k[i] > 0x7e ? 32 : 0; n; n--)
		if (hb_buf_addc(out, '~'))
			return HB_ENOMEM;
	return 0;
}

/*
 * A proof over a stateless scan, for bounds that one cannot carry (docs/hbase-merge-split.md
 * §6): the first data row at or after a printable key at or below start. None, or one at or
 * after end, proves [start, end) empty; one inside it proves rows; one before start proves
 * nothing (*rows stays -1).
 */
static int floor_proof(struct hb_rest *c, const char *table, const unsigned char *start,
                       size_t start_len, const unsigned char *end, size_t end_len, int *rows,
                       struct hb_error *err)
{
	struct hb_buf lo = HB_BUF_INIT, key = HB_BUF_INIT;
	struct hb_scan_spec spec;
	int rc;

	*rows = -1;
	if (printable_floor(&lo, start, start_len)) {
		hb_buf_release(&lo);
		return hb_error_set(err, HB_ENOMEM, "out of memory");
	}
	memset(&spec, 0, sizeof(spec));
	spec.start = lo.len ? lo.data : NULL;
	spec.start_len = lo.len;
	spec.batch = 2;
	spec.max_versions = 1;
	spec.limit = 2; /* one answer of one chunk: a failure is a 500, never a short 200 */
	rc = hb_rest_scan(c, table, &spec, first_key, &key, err);
	if (rc == ROW_FOUND || !rc) {
		int found = rc == ROW_FOUND;

		rc = 0;
		if (!found || (end_len && hb_key_cmp(key.data, key.len, end, end_len) >= 0))
			*rows = 0;
		else if (hb_key_cmp(key.data, key.len, start, start_len) >= 0)
			*rows = 1;
	} else if (rc == HB_ENOMEM) {
		rc = hb_error_set(err, HB_ENOMEM, "out of memory");
	}
	hb_buf_release(&lo);
	hb_buf_release(&key);
	return rc;
}

int hb_repair_range_rows(struct hb_rest *c, const char *table, const void *start, size_t start_len,
                         const void *end, size_t end_len, int *rows, struct hb_error *err)
{
	struct hb_scan_spec spec;
	size_t i;
	int rc, binary = 0;

	for (i = 0; i < start_len; i++)
		binary |= !printable(((const unsigned char *)start)[i]);
	for (i = 0; i < end_len; i++)
		binary |= !printable(((const unsigned char *)end)[i]);
	memset(&spec, 0, sizeof(spec));
	spec.start = start_len ? start : NULL;
	spec.start_len = start_len;
	spec.end = end_len ? end : NULL;
	spec.end_len = end_len;
	spec.batch = 2;
	spec.max_versions = 1;
	spec.limit = 2; /* one row of data even when the metadata row comes first */
	*rows = 0;
	if (!binary) {
		/* printable bounds: a stateless scan, whose failure is a 500 */
		rc = hb_rest_scan(c, table, &spec, first_row, rows, err);
		return rc == ROW_FOUND ? 0 : rc;
	}
	rc = floor_proof(c, table, start, start_len, end, end_len, rows, err);
	if (rc || *rows >= 0)
		return rc;
	/* a stateful scanner over the exact bounds: a row it hands over is a row, but its end
	 * (204) is also what a failed region server gives, so it proves no emptiness */
	rc = hb_rest_scan(c, table, &spec, first_row, rows, err);
	if (rc != ROW_FOUND && !rc)
		*rows = -1;
	return rc == ROW_FOUND ? 0 : rc;
}

int hb_repair_scan_rows(struct hb_rest *c, const char *table, const struct hb_regions *rs,
                        const unsigned char *want, struct hb_repair_ev *ev, struct hb_error *err)
{
	size_t i;
	int rc = 0;

	for (i = 0; !rc && i < rs->n; i++) {
		const unsigned char *s, *e;
		size_t sl, el;

		if (want && !want[i])
			continue;
		hb_regions_bounds(rs, i, &s, &sl, &e, &el);
		hb_activity_count("proving regions empty", i, rs->n);
		rc = hb_repair_range_rows(c, table, s, sl, e, el, &ev[i].rows, err);
	}
	return rc;
}

/* The encoded name at the end of a full region name "table,start,id[_rep].ENCODED.", or NULL. */
static const unsigned char *encoded_of(const unsigned char *name, size_t n)
{
	if (n < 34 || name[n - 1] != '.' || name[n - 34] != '.')
		return NULL;
	return name + n - 33;
}

struct enc_idx {
	const char *enc;
	size_t i;
};

static int enc_cmp(const void *a, const void *b)
{
	return strcmp(((const struct enc_idx *)a)->enc, ((const struct enc_idx *)b)->enc);
}

/* The encoded names of rs's regions (views[i] holds region i), sorted for bsearch. */
static size_t enc_index(struct enc_idx *idx, const struct hb_regions *rs,
                        struct hb_region_view *views)
{
	size_t i, n = 0;

	for (i = 0; i < rs->n; i++) {
		const struct hb_region *g = hb_regions_at(rs, i, &views[i]);

		if (g->encoded) {
			idx[n].enc = g->encoded;
			idx[n++].i = i;
		}
	}
	qsort(idx, n, sizeof(*idx), enc_cmp);
	return n;
}

/* The index of the region whose encoded name ends the full region name (len bytes), or -1. */
static long enc_find(const struct enc_idx *idx, size_t n, const unsigned char *name, size_t len)
{
	const unsigned char *e = encoded_of(name, len);
	struct enc_idx key;
	const struct enc_idx *hit;
	char enc[33];

	if (!e)
		return -1;
	memcpy(enc, e, 32);
	enc[32] = 0;
	key.enc = enc;
	hit = bsearch(&key, idx, n, sizeof(*idx), enc_cmp);
	return hit ? (long)hit->i : -1;
}

struct merged_ctx {
	struct enc_idx *idx;
	size_t n;
	struct hb_repair_ev *ev;
	const struct hb_regions *rs;
};

/* The index of the live region with this start key and region id, or -1 (the list is sorted
 * by start key). */
static long live_find(const struct hb_regions *rs, const unsigned char *start, size_t start_len,
                      uint64_t id)
{
	size_t lo;

	for (lo = hb_regions_lower_bound(rs, start, start_len); lo < rs->n; lo++) {
		const unsigned char *s, *e;
		size_t sl, el;
		struct hb_region_view v;

		hb_regions_bounds(rs, lo, &s, &sl, &e, &el);
		if (hb_key_cmp(s, sl, start, start_len))
			break;
		if (hb_regions_at(rs, lo, &v)->id == id)
			return (long)lo;
	}
	return -1;
}

/* A split parent's row (info:splitA/splitB, each a RegionInfo): its daughters, as long as the
 * row is there, may still hold references to its files (CatalogJanitor deletes the row only
 * once neither does). A value that does not decode names nothing. */
static void split_row(struct merged_ctx *m, const struct hb_row *row)
{
	long d[2] = {-1, -1};
	size_t k;

	for (k = 0; k < row->ncells; k++) {
		const struct hb_cell *c = &row->cells[k];
		struct hb_regioninfo ri;
		struct hb_error e = {0};
		int which;

		if (c->column_len == 11 && !memcmp(c->column, "info:splitA", 11))
			which = 0;
		else if (c->column_len == 11 && !memcmp(c->column, "info:splitB", 11))
			which = 1;
		else
			continue;
		hb_regioninfo_init(&ri);
		if (!hb_regioninfo_decode(&ri, c->value, c->value_len, &e) && !ri.replica_id)
			d[which] = live_find(m->rs, ri.start, ri.start_len, ri.region_id);
		hb_regioninfo_release(&ri);
	}
	for (k = 0; k < 2; k++)
		if (d[k] >= 0) {
			m->ev[d[k]].daughter = 1;
			m->ev[d[k]].sibling = d[1 - k] >= 0 ? (size_t)d[1 - k] + 1 : 0;
		}
}

/* A meta row with merge qualifiers (info:merge0000... from 2.3, info:mergeA/B before), or a
 * split parent's row. */
static int merged_row(void *ctx, const struct hb_row *row, struct hb_error *err)
{
	struct merged_ctx *m = ctx;
	long i = enc_find(m->idx, m->n, row->key, row->key_len);
	size_t k;

	(void)err;
	split_row(m, row);
	for (k = 0; i >= 0 && k < row->ncells; k++)
		if (row->cells[k].column_len > 10 &&
		    !memcmp(row->cells[k].column, "info:merge", 10))
			m->ev[i].merged = 1;
	return 0;
}

int hb_repair_merged(struct hb_rest *c, const char *table, const struct hb_regions *rs,
                     struct hb_repair_ev *ev, struct hb_error *err)
{
	static const char *const cols[] = {"info", NULL};
	const char *name = hb_tname_bare(table);
	struct hb_buf start = HB_BUF_INIT, end = HB_BUF_INIT;
	struct hb_region_view *views = calloc(rs->n ? rs->n : 1, sizeof(*views));
	struct hb_scan_spec spec;
	struct merged_ctx m;
	int rc;

	m.ev = ev;
	m.rs = rs;
	m.idx = calloc(rs->n ? rs->n : 1, sizeof(*m.idx));
	/* every region row, as hb_rest_meta_scan reads them */
	if (!views || !m.idx) {
		rc = hb_error_set(err, HB_ENOMEM, "out of memory");
		goto done;
	}
	rc = hb_rest_meta_table_spec(&spec, &start, &end, name, cols, err);
	if (rc)
		goto done;
	m.n = enc_index(m.idx, rs, views);
	rc = hb_rest_scan(c, "hbase:meta", &spec, merged_row, &m, err);
done:
	free(views);
	free(m.idx);
	hb_buf_release(&start);
	hb_buf_release(&end);
	return rc;
}

struct load_ctx {
	struct enc_idx *idx;
	size_t n;
	struct hb_repair_ev *ev;
};

static int on_load(void *ctx, const struct hb_node *node, const struct hb_region_load *l,
                   struct hb_error *err)
{
	struct load_ctx *m = ctx;
	long i = enc_find(m->idx, m->n, l->name, l->name_len);

	(void)node;
	(void)err;
	if (i >= 0)
		m->ev[i].load_empty = l->storefiles == 0 && l->memstore_size_mb == 0;
	return 0;
}

int hb_repair_loads(struct hb_rest *c, const struct hb_regions *rs, struct hb_repair_ev *ev,
                    struct hb_error *err)
{
	struct hb_cluster_status st;
	struct load_ctx m;
	struct hb_region_view *views = NULL;
	size_t i;
	int rc;

	memset(&st, 0, sizeof(st));
	m.ev = ev;
	m.idx = calloc(rs->n ? rs->n : 1, sizeof(*m.idx));
	views = calloc(rs->n ? rs->n : 1, sizeof(*views));
	if (!m.idx || !views) {
		rc = hb_error_set(err, HB_ENOMEM, "out of memory");
		goto done;
	}
	for (i = 0; i < rs->n; i++)
		ev[i].load_empty = -1;
	m.n = enc_index(m.idx, rs, views);
	rc = hb_rest_get_status_each(c, &st, on_load, &m, err);
done:
	hb_cluster_status_release(&st);
	free(m.idx);
	free(views);
	return rc;
}

int hb_repair_sample_median(struct hb_rest *c, const char *table, const void *start,
                            size_t start_len, const void *end, size_t end_len, size_t max_rows,
                            struct hb_buf *out, int *found, struct hb_error *err)
{
	struct hb_keys keys;
	int rc;

	hb_keys_init(&keys);
	hb_buf_reset(out);
	*found = 0;
	/* a fixed seed: the same rows give the same split key, run after run */
	rc = hb_rest_sample_range(c, table, start, start_len, end, end_len, max_rows,
	                          0x5eed5eed5eedull, &keys, err);
	if (!rc && keys.n) {
		size_t kl;
		const unsigned char *k = hb_keys_at(&keys, keys.n / 2, &kl);

		if (hb_buf_add(out, k, kl))
			rc = hb_error_set(err, HB_ENOMEM, "out of memory");
		else
			*found = 1;
	}
	hb_keys_release(&keys);
	return rc;
}

/* ---------------------------------------------------------------- survey */

#define SAMPLE_ROWS 1000

void hb_repair_survey_init(struct hb_repair_survey *s)
{
	memset(s, 0, sizeof(*s));
	hb_audit_report_init(&s->audit);
	hb_regions_init(&s->live);
}

void hb_repair_survey_release(struct hb_repair_survey *s)
{
	hb_audit_report_release(&s->audit);
	hb_regions_release(&s->live);
}

/* Whether the audit has a finding of kind. */
static const struct hb_finding *finding_of(const struct hb_findings *f, const char *kind)
{
	size_t i;

	for (i = 0; i < f->n; i++)
		if (!strcmp(f->v[i].kind, kind))
			return &f->v[i];
	return NULL;
}

/* The live chain of s->audit.rs into s->live, with each one's reachability in ev and the
 * index in the live chain of every audited region in map (-1: not live). */
static int live_chain(struct hb_repair_survey *s, struct hb_repair_ev *ev, long *map)
{
	const struct hb_regions *all = &s->audit.rs;
	size_t i;

	for (i = 0; i < all->n; i++) {
		struct hb_region_view v;
		const struct hb_region *g = hb_regions_at(all, i, &v);
		struct hb_audit_region ar;

		map[i] = -1;
		if (!hb_region_is_live(g))
			continue;
		hb_audit_at(&s->audit.a, i, &ar);
		map[i] = (long)s->live.n;
		ev[s->live.n].reachable = ar.reachable;
		ev[s->live.n].rows = -1;
		ev[s->live.n].load_empty = -1;
		if (hb_regions_push(&s->live, g))
			return HB_ENOMEM;
	}
	return 0;
}

/* A key sample's median for every hot region (audit hot-spot findings), kept in medians. */
static int hot_medians(struct hb_rest *c, const char *table, struct hb_repair_survey *s,
                       const long *map, struct hb_repair_ev *ev, struct hb_buf *medians,
                       struct hb_error *err)
{
	const struct hb_findings *f = &s->audit.a.findings;
	size_t i;
	int rc = 0;

	for (i = 0; !rc && i < f->n; i++) {
		const unsigned char *a, *b;
		size_t al, bl;
		long k = f->v[i].region;
		int found = 0;

		if (strcmp(f->v[i].kind, HB_FIND_HOTSPOT) || k < 0 || (size_t)k >= s->audit.rs.n ||
		    map[k] < 0 || ev[map[k]].hot)
			continue;
		k = map[k];
		ev[k].hot = 1;
		hb_regions_bounds(&s->live, (size_t)k, &a, &al, &b, &bl);
		rc = hb_repair_sample_median(c, table, a, al, b, bl, SAMPLE_ROWS, &medians[k],
		                             &found, err);
		if (!rc && found) {
			ev[k].split = (const unsigned char *)medians[k].data;
			ev[k].split_len = medians[k].len;
		}
	}
	return rc;
}

/* The table's split restriction from its schema (the table values the master reads first); a
 * schema that cannot be read leaves none, and a split HBase moves then shows where it went
 * (hb_repair_run accepts a boundary inside the region). The strings stay in schema. */
static int read_restriction(struct hb_rest *c, const char *table, struct hb_schema *schema,
                            struct hb_split_restriction *r, struct hb_error *err)
{
	struct hb_error e = {0};
	int rc = hb_rest_get_schema(c, table, schema, &e);

	memset(r, 0, sizeof(*r));
	if (rc == HB_ENOMEM)
		return hb_error_set(err, HB_ENOMEM, "out of memory");
	if (!rc)
		hb_split_restriction_read(
		    r, hb_attrs_get(&schema->attrs, HB_SPLIT_RESTRICTION_TYPE),
		    hb_attrs_get(&schema->attrs, HB_SPLIT_RESTRICTION_PREFIX_LENGTH),
		    hb_attrs_get(&schema->attrs, HB_SPLIT_RESTRICTION_DELIMITER));
	return 0;
}

int hb_repair_survey_chain(struct hb_repair_survey *s, struct hb_rest *c, const char *table,
                           const struct hb_audit_opts *ao, struct hb_repair_ev **ev_out,
                           long **map_out, struct hb_error *err)
{
	const struct hb_finding *f;
	struct hb_repair_ev *ev = NULL;
	long *map = NULL;
	size_t n;
	int rc;

	*ev_out = NULL;
	if (map_out)
		*map_out = NULL;
	rc = hb_rest_audit_table(&s->audit, c, table, ao, err);
	if (rc)
		return rc;
	n = s->audit.rs.n ? s->audit.rs.n : 1;
	ev = calloc(n, sizeof(*ev));
	map = calloc(n, sizeof(*map));
	if (!ev || !map || live_chain(s, ev, map)) {
		free(ev);
		free(map);
		return hb_error_set(err, HB_ENOMEM, "out of memory");
	}
	f = finding_of(&s->audit.a.findings, HB_FIND_STATE_UNKNOWN);
	s->readable = !f;
	if (f)
		snprintf(s->why, sizeof(s->why), "%s", f->message);
	f = finding_of(&s->audit.a.findings, HB_FIND_DISABLED);
	if (!f)
		f = finding_of(&s->audit.a.findings, HB_FIND_NOT_OPEN);
	s->settled = s->readable && !f;
	if (s->readable && f)
		snprintf(s->why, sizeof(s->why), "%s", f->message);
	/* a meta that cannot be read this way leaves the flags clear: a merge HBase refuses
	 * then fails with its own message */
	if (s->settled && hb_repair_merged(c, table, &s->live, ev, err) == HB_ENOMEM) {
		free(ev);
		free(map);
		return HB_ENOMEM;
	}
	memset(err, 0, sizeof(*err));
	*ev_out = ev;
	if (map_out)
		*map_out = map;
	else
		free(map);
	return 0;
}

int hb_repair_survey(struct hb_repair_plan *out, struct hb_repair_survey *s, struct hb_rest *c,
                     const char *table, const struct hb_audit_opts *ao,
                     const struct hb_repair_params *p, struct hb_error *err)
{
	struct hb_repair_params pp = *p;
	struct hb_buckets buckets;
	struct hb_schema schema;
	struct hb_repair_ev *ev = NULL;
	struct hb_buf *medians = NULL;
	unsigned char *want = NULL;
	long *map = NULL;
	size_t i, n;
	int rc;

	hb_schema_init(&schema);
	rc = hb_repair_survey_chain(s, c, table, ao, &ev, &map, err);
	if (rc)
		return rc;
	n = s->audit.rs.n ? s->audit.rs.n : 1;
	want = calloc(n, 1);
	medians = calloc(n, sizeof(*medians));
	if (!want || !medians) {
		rc = hb_error_set(err, HB_ENOMEM, "out of memory");
		goto done;
	}
	/* nothing is proven from a table that cannot be read completely or is in transition
	 * (a disabled table's rows cannot be read; a closing region's may move) */
	if (!s->settled)
		goto plan;
	for (i = 0; i < s->live.n; i++)
		want[i] = !ev[i].reachable;
	if (p->empty) {
		rc = hb_repair_loads(c, &s->live, ev, err);
		for (i = 0; !rc && i < s->live.n; i++)
			want[i] |= ev[i].load_empty == 1;
	}
	if (!rc)
		rc = hb_repair_scan_rows(c, table, &s->live, want, ev, err);
	if (!rc && p->split_hot)
		rc = hot_medians(c, table, s, map, ev, medians, err);
	if (!rc && p->split_hot)
		rc = read_restriction(c, table, &schema, &pp.restriction, err);
plan:
	/* the recorded design's buckets (or the given key space's partitions): no merge
	 * across them */
	hb_repair_design_buckets(&buckets, s);
	if (buckets.parts)
		pp.buckets = &buckets;
	if (!rc && hb_repair_plan(out, table, &s->live, ev, &s->audit.a.findings, &pp))
		rc = hb_error_set(err, HB_ENOMEM, "out of memory");
done:
	hb_schema_release(&schema);
	for (i = 0; medians && i < s->live.n; i++)
		hb_buf_release(&medians[i]);
	free(medians);
	free(ev);
	free(want);
	free(map);
	return rc;
}

void hb_repair_design_buckets(struct hb_buckets *b, const struct hb_repair_survey *s)
{
	long stored = 0;

	if (!s->audit.stored_n ||
	    hb_metarow_parse_n(s->audit.stored_n, strlen(s->audit.stored_n), &stored))
		stored = 0;
	hb_buckets_of_design(b, s->audit.stored_splits, (unsigned long long)stored,
	                     s->audit.any_key ? NULL : s->audit.ks);
}
