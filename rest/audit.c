/* A table's audit over REST: the reads it needs and the findings core/audit.c makes of them. */
#include "rest/audit.h"
#include "core/activity.h"
#include "core/clock.h"
#include "core/hotkeys.h"
#include "core/key.h"
#include "core/regioninfo.h"
#include "core/tname.h"
#include "rest/metarow.h"

#include <stdlib.h>
#include <string.h>

/* The metadata row's qualifiers as NUL-terminated copies (NULL = absent). */
struct meta_values {
	int present;
	char *n, *keyspace, *splits;
};

static void meta_values_release(struct meta_values *m)
{
	free(m->n);
	free(m->keyspace);
	free(m->splits);
	memset(m, 0, sizeof(*m));
}

/* Reads the metadata row (family: the given one, else the table's first). */
static int read_metadata(struct hb_rest *c, const char *table, const struct hb_audit_opts *o,
                         struct meta_values *out, struct hb_error *err)
{
	struct hb_metarow m;
	struct hb_row cells;
	int found = 0, rc;

	hb_row_init(&cells);
	rc = hb_metarow_locate(&m, c, table, o->meta_family, o->meta_row, err);
	if (!rc)
		rc = hb_metarow_read(c, &m, &cells, &found, err);
	if (!rc) {
		out->present = found;
		if (found &&
		    (hb_metarow_cell_text(&out->n, hb_metarow_cell(&m, &cells, HB_METAROW_N)) ||
		     hb_metarow_cell_text(&out->keyspace,
		                          hb_metarow_cell(&m, &cells, HB_METAROW_KEYSPACE)) ||
		     hb_metarow_cell_text(&out->splits,
		                          hb_metarow_cell(&m, &cells, HB_METAROW_SPLITS))))
			rc = hb_error_set(err, HB_ENOMEM, "out of memory");
	}
	hb_row_release(&cells);
	hb_metarow_release(&m);
	return rc;
}

/* The key space regions are checked against: the given one, else the stored one (an
 * unparsable stored key space is reported as drift), else any row key. */
static int resolve_keyspace(struct hb_audit_report *r, const char *stored, struct hb_error *err)
{
	if (!r->ks && stored && stored[0]) {
		struct hb_error kerr = {0};

		if (!hb_keyspace_parse(&r->ks, stored, &kerr) &&
		    hb_keyspace_format(&r->ks_canon, r->ks))
			return hb_error_set(err, HB_ENOMEM, "out of memory");
	}
	if (!r->ks) {
		/* Without a key space, a region is still unreachable when no row key at all
		 * fits in it (an empty range, or [start, start\x00) style slivers). */
		if (hb_keyspace_parse(&r->ks, "*", err))
			return hb_error_set(err, HB_ENOMEM, "out of memory");
		r->any_key = 1;
	}
	return 0;
}

/* Past this many regions the comparison with REST's list is not made: the gateway builds
 * /T/regions through a location cache that copies itself at every insert (docs/hbase-wire.md
 * §6.7): on real 2.6.1 about 10 s at 100,000 regions, 47 s at 250,000, no answer in 120 s at
 * 1,000,000. */
#define COMPARE_REST_MAX 100000

static int compare_region(void *ctx, const struct hb_region *g, struct hb_error *err)
{
	return hb_compare_add(ctx, g) ? hb_error_set(err, HB_ENOMEM, "out of memory") : 0;
}

/* Meta's regions against REST's, compared as REST's list is read, never held beside meta's
 * (a failed REST read is only warned about). HB_ENOMEM. */
static int compare_rest(struct hb_audit_report *r, struct hb_rest *c, const struct hb_audit_opts *o)
{
	struct hb_error oerr = {0};
	struct hb_compare cmp;
	int rc = hb_compare_begin(&cmp, &r->rs);

	if (!rc) {
		rc = hb_rest_regions_scan(c, r->table, compare_region, &cmp, &oerr);
		if (rc && rc != HB_ENOMEM)
			hb_tell_warn(o->tell, "cannot compare with REST /regions: %s", oerr.msg);
		else if (!rc)
			rc = hb_compare_end(&cmp, &r->a.findings, "hbase:meta", "REST /regions");
		rc = rc == HB_ENOMEM ? rc : 0;
	}
	hb_compare_release(&cmp);
	return rc;
}

/* Matches each region load of a status read to the audited regions as it is read. */
struct load_match {
	struct hb_region_counts *counts;
	const struct hb_regions *rs;
	const char *table;
	int t1;
};

static int match_load(void *ctx, const struct hb_node *node, const struct hb_region_load *rl,
                      struct hb_error *err)
{
	struct load_match *m = ctx;
	struct hb_audit_load l;

	(void)err;
	l.name = rl->name;
	l.name_len = rl->name_len;
	l.server = node->name; /* kept by the status until the counts are used */
	l.reads = rl->read_requests > 0 ? (uint64_t)rl->read_requests : 0;
	l.writes = rl->write_requests > 0 ? (uint64_t)rl->write_requests : 0;
	if (hb_audit_match_load(m->counts, m->rs, m->table, &l, m->t1))
		return hb_error_set(err, HB_ENOMEM, "out of memory");
	return 0;
}

/* The counters of two readings of /status/cluster (one with no window) into s0 and s1, each
 * region's counters matched to the audited regions as the reading streams: a cluster's
 * million region loads are never held (the counts borrow the server names of s0 and s1). */
static int read_counts(struct hb_audit_report *r, struct hb_rest *c, struct load_match *m,
                       struct hb_cluster_status *s0, struct hb_cluster_status *s1,
                       struct hb_error *err)
{
	double t0 = 0;
	int rc;

	if (r->window > 0) {
		m->t1 = 0;
		rc = hb_rest_get_status_each(c, s0, match_load, m, err);
		if (rc)
			return rc;
		t0 = hb_now();
		hb_activity_sleep("measuring writes", r->window);
	}
	m->t1 = 1;
	rc = hb_rest_get_status_each(c, s1, match_load, m, err);
	/* the writes counted are those between the two readings, however long they took */
	if (!rc)
		r->elapsed = r->window > 0 ? hb_now() - t0 : 0;
	return rc;
}

/* Write shares from the counters of the window. */
static int hotspots(struct hb_audit_report *r, struct hb_rest *c, const struct hb_hot_params *p,
                    struct hb_error *err)
{
	struct hb_cluster_status s0, s1;
	struct hb_region_counts counts;
	struct load_match m;
	int rc;

	memset(&s0, 0, sizeof(s0));
	memset(&s1, 0, sizeof(s1));
	m.counts = &counts;
	m.rs = &r->rs;
	m.table = hb_tname_bare(r->table); /* region names leave out the default namespace */
	rc = hb_region_counts_init(&counts, r->rs.n, r->window > 0);
	if (rc)
		rc = hb_error_set(err, HB_ENOMEM, "out of memory");
	else
		rc = read_counts(r, c, &m, &s0, &s1, err);
	/* the counts at t1 become the window's requests in r->hot: no second copy is made */
	if (!rc &&
	    hb_audit_hotspots(&r->hot, &r->a.findings, &r->rs, &counts, r->ks ? &r->a : NULL, p))
		rc = hb_error_set(err, HB_ENOMEM, "out of memory");
	if (!rc)
		r->have_hot = 1;
	hb_region_counts_release(&counts);
	hb_cluster_status_release(&s0);
	hb_cluster_status_release(&s1);
	return rc;
}

/* The hot regions' ranges decoded through the key space, else through the buckets the
 * recorded split specification names (splits, may be NULL), into the prefixes they hold (a key
 * space too large to evaluate is only warned about: the hot regions stand). HB_ENOMEM. */
static int hot_keys(struct hb_audit_report *r, const struct hb_audit_opts *o, const char *splits)
{
	struct hb_keyspace *ks = r->any_key ? NULL : r->ks, *own = NULL;
	struct hb_error kerr = {0};
	char design[48] = "";
	int rc;

	if (!r->have_hot || !r->hot.total_writes)
		return 0;
	if (!ks && hb_hot_keys_design_keyspace(splits, design, sizeof(design)) &&
	    hb_keyspace_parse(&own, design, &kerr) == HB_ENOMEM)
		return HB_ENOMEM;
	if (!ks && !(ks = own))
		return 0;
	r->hot_keys = malloc(sizeof(*r->hot_keys));
	rc = r->hot_keys ? 0 : HB_ENOMEM;
	if (!rc) {
		hb_hot_keys_init(r->hot_keys);
		rc = hb_hot_keys_compute(r->hot_keys, ks, &r->rs, &r->hot, &kerr);
		memcpy(r->hot_keys->design, design, sizeof(design));
	}
	if (rc && r->hot_keys) {
		hb_hot_keys_release(r->hot_keys);
		free(r->hot_keys);
		r->hot_keys = NULL;
	}
	if (rc && rc != HB_ENOMEM)
		hb_tell_warn(o->tell, "cannot name the hot keys: %s", kerr.msg);
	hb_keyspace_free(own);
	return rc == HB_ENOMEM ? rc : 0;
}

/* Regions per live server against an even spread (a failed status read is only warned
 * about: placement is advice, the audit's other findings stand). HB_ENOMEM. */
static int placement(struct hb_audit_report *r, struct hb_rest *c, const struct hb_audit_opts *o)
{
	struct hb_cluster_status st;
	struct hb_error err = {0};
	const char **names;
	size_t i;
	int rc;

	memset(&st, 0, sizeof(st));
	if (hb_rest_get_status_nodes(c, &st, &err)) {
		hb_tell_warn(o->tell, "cannot check region placement: %s", err.msg);
		hb_cluster_status_release(&st);
		return 0;
	}
	names = calloc(st.nlive ? st.nlive : 1, sizeof(*names));
	if (!names) {
		hb_cluster_status_release(&st);
		return HB_ENOMEM;
	}
	for (i = 0; i < st.nlive; i++)
		names[i] = st.live[i].name ? st.live[i].name : "";
	rc = hb_audit_placement(&r->a.findings, &r->rs, names, st.nlive, o->placement_factor);
	free(names);
	hb_cluster_status_release(&st);
	return rc;
}

/* Reachability, chain and availability findings of the regions read. */
static int check_regions(struct hb_audit_report *r, struct hb_rest *c,
                         const struct hb_audit_opts *o, const struct hb_table_avail *av,
                         const struct meta_values *md, struct hb_error *err)
{
	int rc = hb_audit_reach(&r->a, r->ks, &r->rs, err);

	if (rc == HB_EINVAL)
		hb_error_prefix(err, rc, "keyspace '%s'", hb_buf_str(&r->ks_canon));
	if (!rc)
		rc = hb_audit_chain(&r->a.findings, &r->rs, o->meta);
	/* Unknown state is never health: REST lists a disabled table's regions with their last
	 * servers, and answers its row reads with 404 as if the metadata row were missing. */
	if (!rc)
		rc =
		    hb_audit_availability(&r->a.findings, r->table, av, &r->rs,
		                          md->present ? ""
		                                      : "; the table may be disabled, which would "
		                                        "also hide its metadata row and stored key "
		                                        "space");
	if (!rc && o->meta && r->rs.n > COMPARE_REST_MAX)
		hb_tell_warn(
		    o->tell,
		    "not compared with REST /regions: table '%s' has %zu regions, and past "
		    "%d the gateway's /regions answer costs it minutes (its cost grows "
		    "with the square of the regions) or never comes",
		    r->table, r->rs.n, COMPARE_REST_MAX);
	else if (!rc && o->meta)
		rc = compare_rest(r, c, o);
	return rc;
}

/* Drift between the metadata row and the table (not checked for a disabled table, or when
 * whether the row exists is unknown). */
static int check_design(struct hb_audit_report *r, const struct hb_audit_opts *o, int disabled,
                        const struct hb_table_avail *av, const struct meta_values *md,
                        struct hb_error *err)
{
	struct hb_audit_meta am;

	r->metadata = md->present ? 1 : av->why.code ? -1 : 0;
	if (disabled || r->metadata < 0)
		return 0;
	am.present = md->present;
	am.require = o->require_metadata;
	am.n = md->n;
	am.keyspace = md->keyspace && md->keyspace[0] ? md->keyspace : NULL;
	am.splits = md->splits;
	return hb_audit_drift(&r->a.findings, &am, &r->rs, o->keyspace, err);
}

int hb_rest_audit_table(struct hb_audit_report *r, struct hb_rest *c, const char *table,
                        const struct hb_audit_opts *o, struct hb_error *err)
{
	struct meta_values md = {0};
	struct hb_table_avail av;
	int disabled, rc;

	r->table = table;
	r->window = o->window;
	r->source = o->meta ? "meta" : "rest";
	rc = hb_rest_regions_avail(c, table,
	                           o->meta          ? HB_SOURCE_META
	                           : o->auto_source ? HB_SOURCE_AUTO
	                                            : HB_SOURCE_REST,
	                           o->thrift, &r->rs, &av, err);
	r->read_meta = av.read_meta;
	if (!rc && o->auto_source && !o->meta && av.read_meta)
		hb_tell_verbose(o->tell, "regions of table '%s' read from hbase:meta", table);
	else if (!rc && o->auto_source && !o->meta)
		hb_tell_verbose(o->tell,
		                "regions of table '%s' read from REST /T/regions (hbase:meta "
		                "not read: %s)",
		                table, av.meta_why.msg);
	if (rc)
		return rc;
	hb_regions_sort(&r->rs);
	/* A disabled table cannot be read (TableNotEnabledException): no metadata row. */
	disabled = av.table_state == HB_TABLE_DISABLED || av.table_state == HB_TABLE_DISABLING;
	if (!disabled) {
		rc = read_metadata(c, table, o, &md, err);
		if (rc == HB_ESERVER)
			hb_rest_explain_disabled(c, table, err);
	}
	if (!rc)
		rc = resolve_keyspace(r, md.keyspace, err);
	if (!rc)
		rc = check_regions(r, c, o, &av, &md, err);
	if (!rc)
		rc = check_design(r, o, disabled, &av, &md, err);
	if (!rc && o->hotspots)
		rc = hotspots(r, c, &o->hot, err);
	if (!rc && o->hotspots && hot_keys(r, o, md.splits))
		rc = hb_error_set(err, HB_ENOMEM, "out of memory");
	if (!rc && placement(r, c, o))
		rc = hb_error_set(err, HB_ENOMEM, "out of memory");
	if (!rc)
		hb_findings_sort(&r->a.findings);
	if (rc == HB_ENOMEM && !err->msg[0])
		hb_error_set(err, HB_ENOMEM, "out of memory");
	r->stored_n = md.n; /* for the report (--prom-file) */
	md.n = NULL;
	r->stored_splits = md.splits; /* the design's buckets (repair, reshape) */
	md.splits = NULL;
	meta_values_release(&md);
	return rc;
}
