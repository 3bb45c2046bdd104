/* hbase:meta's listing of a table's regions: one scan, or a large table's rows in ranges read side
 * by side (rest/metaranges.c). */
#include "rest/metalist.h"
#include "core/key.h"
#include "core/regioninfo.h"
#include "core/restpb_cells.h"
#include "rest/cells.h"
#include "rest/meta.h"
#include "rest/metaranges.h"
#include "rest/regions.h"
#include "rest/resource.h"
#include "rest/rest_priv.h"
#include "rest/row.h"
#include "rest/scan.h"

#include <string.h>

static int meta_regions_scan(struct hb_rest *c, const char *table, hb_meta_region_fn fn,
                             hb_region_restart_fn restart, void *ctx, int *state_out,
                             struct hb_error *err);

int hb_rest_meta_regions(struct hb_rest *c, const char *table, struct hb_regions *out,
                         int *state_out, struct hb_error *err)
{
	struct hb_region_list l = {out, out->n};
	int rc = meta_regions_scan(c, table, hb_region_list_push, hb_region_list_restart, &l,
	                           state_out, err);

	if (rc)
		hb_regions_truncate(out, l.n0);
	else
		hb_regions_sort(out);
	return rc;
}

/*
 * The region rows of TABLE in hbase:meta with the columns cols, each handed to fn, then the
 * table-state row. Only the info family is named: 1.x meta has no "table" family, and naming
 * it fails the scan. how says what a row holds (states_only, last_name). With restart (which
 * empties what fn was given), a large table's listing may be read in ranges.
 */
static int meta_scan(struct hb_rest *c, const char *table, const char *const *cols,
                     const struct hb_meta_state *how, hb_meta_region_fn fn,
                     hb_region_restart_fn restart, void *ctx, int *state_out, struct hb_error *err)
{
	struct hb_buf start = HB_BUF_INIT, end = HB_BUF_INIT, last = HB_BUF_INIT,
	              cover = HB_BUF_INIT;
	struct hb_scan_spec spec;
	struct hb_meta_state ms;
	int rc, state = -1, idle = -1, check;

	/* [table, table" ,,") takes the state row and every region row */
	rc = hb_rest_meta_table_spec(&spec, &start, &end, table, cols, err);
	if (rc)
		goto done;
	spec.lang_filter = how->filter;
	memset(&ms, 0, sizeof(ms));
	ms.table = table;
	ms.table_len = strlen(table);
	ms.fn = fn;
	ms.ctx = ctx;
	ms.state = &state;
	ms.err = err;
	ms.states_only = how->states_only;
	ms.last_name = how->last_name;
	ms.last_name_len = how->last_name_len;
	ms.filter = how->filter;
	ms.last_key = &last;
	if (how->filter || how->states_only || !restart) {
		rc = hb_rest_scan(c, "hbase:meta", &spec, hb_meta_row, &ms, err);
	} else {
		/* a listing's scans stream a row per region: at a million regions one takes
		 * minutes, so --timeout bounds the gateway's silence there, not the whole scan */
		idle = hb_rest_idle_timeout(c, 1);
		ms.cover = &cover;
		rc = hb_meta_scan_ranged(c, &ms, &spec, &end, err);
		ms.cover = NULL;
		check = rc != 0;
		if (rc == HB_META_SEAM || rc == HB_META_AGAIN) {
			/* the ranges did not read one hbase:meta: one scan, one read point */
			if (rc == HB_META_SEAM)
				hb_rest_tracef(
				    c,
				    "hbase:meta's listing of table '%s' in ranges is not one "
				    "view of it (it changed between the ranges' reads, or the "
				    "table has a hole or an overlap at a seam): read again as "
				    "one scan",
				    table);
			if (restart(ctx)) {
				rc = hb_error_set(err, HB_ENOMEM, "out of memory");
				goto done;
			}
			hb_buf_reset(&last);
			ms.regions = 0;
			ms.last_end_empty = 0;
			ms.broken = 0;
			rc = hb_rest_scan(c, "hbase:meta", &spec, hb_meta_row, &ms, err);
		} else if (rc == 1) {
			rc = 0; /* one scan: its end is checked below */
		}
		hb_rest_idle_timeout(c, idle);
		idle = -1;
		if (!rc && !check)
			goto state_row; /* every boundary and the end were checked */
	}
	if (!rc && how->filter && !(ms.regions && ms.last_end_empty))
		rc = 1;
	else if (!rc)
		rc = hb_meta_check_listing(c, &ms, &end, err);
state_row:
	if (!rc && state_out) {
		/* The 2.x table-state row "<table>" (table:state); 1.x has none (ZooKeeper). */
		struct hb_row srow;
		int found = 0;

		hb_row_init(&srow);
		rc = hb_rest_get_row(c, "hbase:meta", table, strlen(table), NULL, &srow, &found,
		                     err);
		if (!rc && found)
			hb_meta_row(&ms, &srow, err);
		hb_row_release(&srow);
	}
done:
	if (idle >= 0)
		hb_rest_idle_timeout(c, idle);
	if (state_out)
		*state_out = state;
	hb_buf_release(&start);
	hb_buf_release(&end);
	hb_buf_release(&last);
	hb_buf_release(&cover);
	return rc;
}

/* what a region is made of: its RegionInfo, where it is open and its state */
static const char *const region_cols[] = {"info:regioninfo", "info:server", "info:serverstartcode",
                                          "info:state", NULL};

static int meta_regions_scan(struct hb_rest *c, const char *table, hb_meta_region_fn fn,
                             hb_region_restart_fn restart, void *ctx, int *state_out,
                             struct hb_error *err)
{
	struct hb_meta_state how;

	memset(&how, 0, sizeof(how));
	return meta_scan(c, table, region_cols, &how, fn, restart, ctx, state_out, err);
}

int hb_rest_meta_scan(struct hb_rest *c, const char *table, hb_meta_region_fn fn, void *ctx,
                      int *state_out, struct hb_error *err)
{
	return meta_regions_scan(c, table, fn, NULL, ctx, state_out, err);
}

int hb_rest_meta_scan_restart(struct hb_rest *c, const char *table, hb_meta_region_fn fn,
                              hb_region_restart_fn restart, void *ctx, int *state_out,
                              struct hb_error *err)
{
	return meta_regions_scan(c, table, fn, restart, ctx, state_out, err);
}

int hb_rest_meta_states(struct hb_rest *c, const char *table, const void *last_name,
                        size_t last_name_len, hb_meta_region_fn fn, void *ctx, int *state_out,
                        struct hb_error *err)
{
	static const char *const cols[] = {"info:state", NULL};
	struct hb_meta_state how;

	memset(&how, 0, sizeof(how));
	how.states_only = 1;
	how.last_name = last_name;
	how.last_name_len = last_name_len;
	return meta_scan(c, table, cols, &how, fn, NULL, ctx, state_out, err);
}

/* The filter of hb_rest_meta_states_not_open into f: 0, or 1 when last_name cannot be put in
 * one (the gateway reads the text as UTF-8 and a quote would need escaping). */
static int not_open_filter(struct hb_buf *f, const unsigned char *last_name, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (last_name[i] < 0x20 || last_name[i] > 0x7e || last_name[i] == '\'')
			return 1;
	if (hb_buf_adds(f, "SingleColumnValueFilter('info','state',!=,'binary:OPEN',false,true)"
	                   " OR RowFilter(=,'binary:") ||
	    hb_buf_add(f, last_name, n) || hb_buf_adds(f, "')"))
		return HB_ENOMEM;
	return 0;
}

int hb_rest_meta_states_not_open(struct hb_rest *c, const char *table, const void *last_name,
                                 size_t last_name_len, hb_meta_region_fn fn, void *ctx,
                                 int *state_out, struct hb_error *err)
{
	/* a row whose state is missing still has its RegionInfo, so it is in the answer */
	static const char *const cols[] = {"info:regioninfo", "info:state", NULL};
	struct hb_buf filter = HB_BUF_INIT;
	struct hb_meta_state how;
	int rc;

	if (!last_name || !last_name_len)
		return 1;
	rc = not_open_filter(&filter, last_name, last_name_len);
	if (rc)
		return rc == HB_ENOMEM ? hb_error_set(err, rc, "out of memory") : rc;
	memset(&how, 0, sizeof(how));
	how.states_only = 1;
	how.last_name = last_name;
	how.last_name_len = last_name_len;
	how.filter = filter.data;
	rc = meta_scan(c, table, cols, &how, fn, NULL, ctx, state_out, err);
	hb_buf_release(&filter);
	return rc;
}
