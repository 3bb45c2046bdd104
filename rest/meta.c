/* hbase:meta's rows: region rows and the table-state row decoded, a listing's end and seams
 * checked. */
#include "rest/meta.h"
#include "core/key.h"
#include "core/regioninfo.h"
#include "core/tname.h"
#include "rest/cells.h"
#include "rest/regions.h"
#include "rest/resource.h"
#include "rest/row.h"
#include "rest/scan.h"

#include <string.h>

/* ---- hbase:meta ---- */

/* Whether a region row continues the ranges' cover where the scan before it stopped, and the
 * cover taken on past it. 0, HB_META_SEAM or HB_ENOMEM. */
int hb_meta_cover(struct hb_meta_state *ms, const struct hb_regioninfo *ri)
{
	if (ri->offline || ri->split || ri->replica_id > 0)
		return 0; /* not a region /T/regions or a client's locator lists */
	if (ms->seam) {
		ms->seam = 0;
		if (ms->cover_set &&
		    (ms->cover_inf ||
		     hb_key_cmp(ri->start, ri->start_len, (const unsigned char *)ms->cover->data,
		                ms->cover->len)))
			return HB_META_SEAM;
	}
	if (ms->cover_inf)
		return 0;
	if (!ri->end_len) {
		ms->cover_inf = 1;
	} else if (!ms->cover_set ||
	           hb_key_cmp(ri->end, ri->end_len, (const unsigned char *)ms->cover->data,
	                      ms->cover->len) > 0) {
		hb_buf_reset(ms->cover);
		if (hb_buf_add(ms->cover, ri->end, ri->end_len))
			return HB_ENOMEM;
	}
	ms->cover_set = 1;
	return 0;
}

/* The region a meta row's info:regioninfo describes into reg (ri holds its keys): 1 when the
 * row has none (HBase's own visitor skips such rows too), HB_ESERVER when it is malformed. */
static int region_from_info(const struct hb_row *row, struct hb_regioninfo *ri,
                            struct hb_region *reg, struct hb_error *err)
{
	const struct hb_cell *c = hb_row_cell(row, "info:regioninfo");
	struct hb_buf tsb = HB_BUF_INIT;
	int rc;

	if (!c)
		return 1;
	if ((rc = hb_regioninfo_decode(ri, c->value, c->value_len, err))) {
		hb_tsb_append_quoted(&tsb, row->key, row->key_len);
		if (err)
			err->code = HB_ESERVER; /* the server's data, not the user's input */
		rc = hb_error_prefix(err, HB_ESERVER,
		                     "malformed info:regioninfo in hbase:meta row '%s'",
		                     hb_buf_str(&tsb));
		hb_buf_release(&tsb);
		return rc;
	}
	reg->start = ri->start;
	reg->start_len = ri->start_len;
	reg->end = ri->end;
	reg->end_len = ri->end_len;
	reg->id = ri->region_id;
	reg->replica_id = ri->replica_id;
	reg->offline = ri->offline;
	reg->split = ri->split;
	return 0;
}

/* The 2.x table-state row "<table>" (family table): its TableState into *ms->state. */
static void table_state_row(struct hb_meta_state *ms, const struct hb_row *row)
{
	const struct hb_cell *c = hb_row_cell(row, "table:state");

	if (c && ms->state && row->key_len == ms->table_len &&
	    !memcmp(row->key, ms->table, row->key_len) &&
	    hb_tablestate_decode(ms->state, c->value, c->value_len, NULL))
		*ms->state = -1;
}

/* rn gets the name of a region row of ms's table: 0, or 1 for any other row (the state row,
 * another table's row: the range is by the meta comparator). */
int hb_meta_table_region(const struct hb_meta_state *ms, const struct hb_row *row,
                         struct hb_region_name *rn)
{
	return !memchr(row->key, ',', row->key_len) ||
	       hb_region_name_parse(rn, row->key, row->key_len, NULL) ||
	       rn->table_len != ms->table_len || memcmp(rn->table, ms->table, rn->table_len);
}

int hb_meta_row(void *ctx, const struct hb_row *row, struct hb_error *err)
{
	struct hb_meta_state *ms = ctx;
	const struct hb_cell *c;
	struct hb_regioninfo ri;
	struct hb_region_name rn;
	struct hb_region reg;
	char enc[33];
	int rc;

	if (ms->broken)
		return 0;
	if (!memchr(row->key, ',', row->key_len)) {
		table_state_row(ms, row);
		return 0;
	}
	if (hb_meta_table_region(ms, row, &rn))
		return 0;
	memset(&reg, 0, sizeof(reg));
	hb_regioninfo_init(&ri);
	if (ms->states_only) {
		/* the start key and id as the name holds them (§6.2) */
		reg.start = row->key + (rn.start - row->key);
		reg.start_len = rn.start_len;
		reg.id = rn.id;
		reg.replica_id = rn.replica_id;
	} else if ((rc = region_from_info(row, &ri, &reg, err))) {
		return rc > 0 ? 0 : rc;
	} else if (ms->cover && (rc = hb_meta_cover(ms, &ri))) {
		/* the rest of the answer is read, not broken off (a broken answer leaves the
		 * gateway's scanner open), and passed over */
		hb_regioninfo_release(&ri);
		ms->broken = 1;
		return rc == HB_ENOMEM ? hb_error_set(err, rc, "out of memory") : 0;
	}
	reg.name = row->key;
	reg.name_len = row->key_len;
	/* Derive the encoded name from the row key as RegionInfo.encodeRegionName does; HBase
	 * 2.3+ ignores RegionInfo's optional field 8 the same way (docs/hbase-versions.md). */
	if (rn.encoded_len == 32) {
		memcpy(enc, rn.encoded, 32);
		enc[32] = '\0';
	} else {
		/* Old-format name (no ".md5." suffix): the Jenkins hash of the whole name. */
		hb_region_encoded_name_old(enc, row->key, row->key_len);
	}
	reg.encoded = enc;
	c = hb_row_cell(row, "info:server");
	if (c && c->value_len && !memchr(c->value, 0, c->value_len))
		reg.server = (char *)c->value;
	c = hb_row_cell(row, "info:serverstartcode");
	if (c)
		hb_be64_decode(&reg.start_code, c->value, c->value_len);
	c = hb_row_cell(row, "info:state");
	if (c && c->value_len && !memchr(c->value, 0, c->value_len))
		reg.state = (char *)c->value;
	rc = ms->fn(ms->ctx, &reg, err);
	ms->regions++;
	/* a row read for its state alone says nothing of its end key but its name does; a split
	 * parent keeps its old end key until the janitor removes it, and its daughters sort after
	 * it: the parent of the last region ends nothing */
	ms->last_end_empty = ms->states_only ? ms->last_name && row->key_len == ms->last_name_len &&
	                                           !memcmp(row->key, ms->last_name, row->key_len)
	                                     : ri.end_len == 0 && !ri.split;
	if (!rc && ms->last_key) {
		hb_buf_reset(ms->last_key);
		if (hb_buf_add(ms->last_key, row->key, row->key_len))
			rc = hb_error_set(err, HB_ENOMEM, "out of memory");
	}
	hb_regioninfo_release(&ri);
	return rc;
}

/* A region row of the table after the listing's end: the listing was short. */
static int region_row_after(void *ctx, const struct hb_row *row, struct hb_error *err)
{
	const struct hb_meta_state *ms = ctx;
	struct hb_region_name rn;

	(void)err;
	return !hb_meta_table_region(ms, row, &rn);
}

/* Whether hbase:meta holds a region row of the table between the last row the listing handed
 * on (or the table's start, when none) and end: 1 when it does, 0, or the scan's error. */
int hb_meta_rows_before(struct hb_rest *c, const struct hb_meta_state *ms, const struct hb_buf *end,
                        struct hb_error *err)
{
	static const char *const cols[] = {"info:regioninfo", NULL};
	struct hb_buf start = HB_BUF_INIT;
	struct hb_scan_spec spec;
	int rc;

	/* After the last row seen, or from the first region row. A region name ends in '.' and
	 * nothing but a name with control bytes after it sorts between it and the name and a
	 * space, which a stateless scan can start from; a name that is not printable is
	 * followed by its key and a 0 byte, which only a scanner can carry. */
	if (ms->regions
	        ? hb_buf_add(&start, ms->last_key->data, ms->last_key->len) ||
	              hb_buf_addc(&start,
	                          hb_rest_url_safe(ms->last_key->data, ms->last_key->len) ? ' ' : 0)
	        : hb_buf_add(&start, ms->table, ms->table_len) || hb_buf_adds(&start, ","))
		return hb_error_set(err, HB_ENOMEM, "out of memory");
	memset(&spec, 0, sizeof(spec));
	spec.start = start.data;
	spec.start_len = start.len;
	spec.end = end->data;
	spec.end_len = end->len;
	spec.columns = cols;
	spec.batch = 1000;
	spec.max_versions = 1;
	rc = hb_rest_scan(c, "hbase:meta", &spec, region_row_after, (void *)ms, err);
	hb_buf_release(&start);
	return rc;
}

/*
 * A stateless scan that fails part-way can still end as a 200 with valid JSON: HBase streams
 * the rows and Jackson closes the open arrays when the iterator throws (docs/hbase-wire.md
 * §5). A complete listing ends with the table's last region, whose end key is empty; when
 * this one does not, hbase:meta is asked whether any region row follows the last one seen.
 */
int hb_meta_check_listing(struct hb_rest *c, const struct hb_meta_state *ms,
                          const struct hb_buf *end, struct hb_error *err)
{
	int rc;

	if (ms->regions && ms->last_end_empty)
		return 0;
	rc = hb_meta_rows_before(c, ms, end, err);
	if (rc == 1) {
		struct hb_buf tsb = HB_BUF_INIT;

		if (ms->regions &&
		    (hb_buf_adds(&tsb, "row '") ||
		     hb_tsb_append_quoted(&tsb, ms->last_key->data, ms->last_key->len) ||
		     hb_buf_adds(&tsb, "'")))
			rc = HB_ENOMEM;
		rc = hb_error_set(err, rc == HB_ENOMEM ? HB_ENOMEM : HB_ESERVER,
		                  "hbase:meta's listing of table '%s' ended early (after %s): the "
		                  "gateway's scan failed part-way; nothing was concluded from it",
		                  ms->table, ms->regions ? hb_buf_str(&tsb) : "its state row");
		hb_buf_release(&tsb);
	}
	return rc;
}

int hb_meta_row_decode(const struct hb_row *row, const char *table, struct hb_regions *out,
                       int *state, struct hb_error *err)
{
	struct hb_meta_state ms;

	memset(&ms, 0, sizeof(ms)); /* one row: no ranges, no seams, no short-listing check */
	ms.table = table;
	ms.table_len = strlen(table);
	ms.fn = hb_rest_region_push;
	ms.ctx = out;
	ms.state = state;
	ms.err = err;
	return hb_meta_row(&ms, row, err);
}

int hb_rest_table_state(struct hb_rest *c, const char *table, int *state, struct hb_error *err)
{
	static const char *const cols[] = {"table:state", NULL};
	struct hb_row row;
	const struct hb_cell *cell;
	int found = 0, rc;

	*state = -1;
	table = hb_tname_bare(table); /* the state row is keyed by TableName.getNameAsString() */
	hb_row_init(&row);
	rc = hb_rest_get_row(c, "hbase:meta", table, strlen(table), cols, &row, &found, err);
	if (!rc && found && (cell = hb_row_cell(&row, "table:state")) &&
	    hb_tablestate_decode(state, cell->value, cell->value_len, err))
		rc = hb_error_set(err, HB_ESERVER, "hbase:meta row '%s': malformed table:state",
		                  table);
	hb_row_release(&row);
	return rc;
}

int hb_rest_meta_table_spec(struct hb_scan_spec *spec, struct hb_buf *start, struct hb_buf *end,
                            const char *table, const char *const *cols, struct hb_error *err)
{
	if (hb_buf_adds(start, table) || hb_buf_adds(end, table) || hb_buf_adds(end, " ,,"))
		return hb_error_set(err, HB_ENOMEM, "out of memory");
	memset(spec, 0, sizeof(*spec));
	spec->start = start->data;
	spec->start_len = start->len;
	spec->end = end->data;
	spec->end_len = end->len;
	spec->columns = cols;
	spec->batch = 1000;
	spec->max_versions = 1;
	return 0;
}
