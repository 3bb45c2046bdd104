/* The rotation's calls to HBase: listing, marks, the previous table's sample, an existing
 * table's boundaries, a checked drop. */
#include "rest/rotate.h"
#include "core/region.h"
#include "rest/hbase.h"
#include "rest/metarow.h"

#include <stdio.h>
#include <string.h>

int hb_rest_rotate_list(struct hb_rest *rest, const struct hb_rotate_cfg *c,
                        struct hb_rotate_plan *plan, struct hb_error *err)
{
	struct hb_names names;
	int rc;

	hb_names_init(&names);
	rc = hb_rest_list_tables(rest, &names, err);
	if (!rc)
		rc = hb_rotate_plan_init(plan, c, names.v, names.n, err);
	hb_names_release(&names);
	return rc;
}

int hb_rest_rotate_read_mark(struct hb_rest *rest, const char *tmpl, struct hb_rotate_table *t,
                             int *gone, struct hb_error *err)
{
	struct hb_metarow_mark mk;
	int rc = hb_metarow_read_mark(rest, t->name, tmpl, 1, &mk, err);

	t->managed = mk.managed;
	t->n = mk.n;
	t->disabled = mk.disabled;
	*gone = mk.gone;
	return rc;
}

int hb_rest_rotate_sample_previous(struct hb_rest *rest, struct hb_rotate_plan *plan,
                                   const char *tmpl, const struct hb_stamp *cur, size_t rows,
                                   struct hb_keys *out, char *from, size_t cap,
                                   struct hb_error *err)
{
	size_t i;
	int rc = 0;

	for (i = plan->ntables; i-- > 0;) {
		struct hb_rotate_table *f = &plan->tables[i];
		struct hb_keys keys;
		int gone = 0;

		if (hb_stamp_cmp(&f->stamp, cur) >= 0)
			continue;
		if (f->managed < 0 && (rc = hb_rest_rotate_read_mark(rest, tmpl, f, &gone, err)))
			return rc;
		if (!f->managed)
			continue;
		hb_keys_init(&keys);
		rc = hb_rest_sample_keys(rest, f->name, rows, 0x5EEDu, &keys, err);
		if (rc == HB_ENOTFOUND) {
			hb_keys_release(&keys);
			rc = 0;
			continue;
		}
		if (rc) {
			hb_keys_release(&keys);
			return rc;
		}
		if (keys.n) {
			hb_keys_release(out);
			*out = keys;
			snprintf(from, cap, "%s", f->name);
			return 1;
		}
		hb_keys_release(&keys);
		break; /* the newest managed table is empty: fall back to the spec */
	}
	return 0;
}

int hb_rest_rotate_existing_bounds(struct hb_rest *rest, const char *table, struct hb_keys *keys,
                                   struct hb_error *err)
{
	struct hb_regions rs;
	size_t i;
	int rc;

	hb_regions_init(&rs);
	rc = hb_rest_get_regions(rest, table, &rs, err);
	if (!rc) {
		hb_regions_sort(&rs);
		for (i = 0; i + 1 < rs.n && !rc; i++) {
			const unsigned char *rs_start, *e;
			size_t sl, el;

			hb_regions_bounds(&rs, i, &rs_start, &sl, &e, &el);
			rc = hb_keys_push(keys, e, el);
		}
	}
	hb_regions_release(&rs);
	return rc;
}

int hb_rest_rotate_drop(struct hb_rest *rest, const char *tmpl, const char *name,
                        const struct hb_shell_channel *sh, const char *what,
                        struct hb_drop_out *out, char *snapshot, struct hb_error *err)
{
	struct hb_drop_req req = {name, tmpl, NULL, NULL, 0};
	struct hb_snapshot_before snap;
	int rc = 0;

	memset(&snap, 0, sizeof(snap));
	snap.sh = sh;
	if (sh) {
		rc = hb_snapshot_channel_check(sh, what, err);
		req.before = hb_snapshot_before_drop;
		req.before_ctx = &snap;
	}
	/* the mark is read again right before the drop: the table may have been replaced */
	if (!rc)
		rc = hb_rest_drop_checked(rest, &req, out, err);
	snprintf(snapshot, HB_SNAPSHOT_NAME_MAX, "%s", snap.name);
	return rc;
}
