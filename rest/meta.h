/* hbase:meta's rows for one table: region and table-state rows decoded, the listing checked. */
#ifndef HB_REST_META_H
#define HB_REST_META_H

#include "core/key.h"
#include "core/regioninfo.h"
#include "rest/cells.h"
#include "rest/regions.h"
#include "rest/rest.h"
#include "rest/scan.h"

#include <stddef.h>

/* Reads TABLE's table:state row in hbase:meta into *state (HB_TABLE_*), -1 when there is none
 * (a missing table, or 1.x meta where the state lives in ZooKeeper). */
int hb_rest_table_state(struct hb_rest *c, const char *table, int *state, struct hb_error *err);
/* The scan of TABLE's rows in hbase:meta, [TABLE, TABLE" ,,") (docs/hbase-wire.md §6.1), with
 * the columns cols, 1000 cells a batch, one version: spec filled, its keys held in start and
 * end (initialised buffers the caller releases). HB_ENOMEM. */
int hb_rest_meta_table_spec(struct hb_scan_spec *spec, struct hb_buf *start, struct hb_buf *end,
                            const char *table, const char *const *cols, struct hb_error *err);

/* Called with each region row of a meta scan, decoded (r and its strings are valid during the
 * call only), in meta's key order; a non-zero return stops the scan with it. */
typedef hb_region_fn hb_meta_region_fn;

/* One hbase:meta row of a scan for table: a region row of table ("table,start,id.enc.") with
 * an info:regioninfo cell is appended to out; the table's state row sets *state (-1 when
 * undecodable; state may be NULL); other rows are skipped. HB_ESERVER for a malformed
 * RegionInfo, HB_ENOMEM. */
int hb_meta_row_decode(const struct hb_row *row, const char *table, struct hb_regions *out,
                       int *state, struct hb_error *err);

struct hb_meta_state {
	const char *table;
	size_t table_len;
	hb_meta_region_fn fn; /* called with each region row, decoded */
	void *ctx;
	int *state;
	struct hb_error *err;
	/* Only info:state was asked: a region is its row key and state (no RegionInfo), and
	 * the table's last region is known by its name (NULL: unknown). */
	int states_only;
	const unsigned char *last_name;
	size_t last_name_len;
	/* the ParseFilter text the scan is asked with (NULL: none); with one, a listing that does
	 * not end with last_name proves nothing and is not checked further */
	const char *filter;
	/* The last region row seen (NULL tracker: not kept), for the short-listing check. */
	struct hb_buf *last_key;
	int last_end_empty;
	size_t regions;
	/* A listing read in ranges (NULL: one scan): where the region rows handed on so far
	 * cover the table up to (the greatest end key of a region that is neither offline nor
	 * split; cover_inf: the empty one), and whether the next such row must start there
	 * (seam: the first row of another scan, opened at another instant). */
	struct hb_buf *cover;
	int cover_set, cover_inf, seam;
	int broken; /* a seam failed: the rest of the rows are passed over */
};

/* A range's first region does not start where the rows before it end: hbase:meta changed
 * between the ranges' reads (or the table has a hole or overlap there); the listing is read
 * again as one scan. HB_META_AGAIN: read again as one scan, for another reason. */
#define HB_META_SEAM  3
#define HB_META_AGAIN 4

/* The decoding and checks of a listing's rows, for rest/metalist.c and rest/metaranges.c. */
int hb_meta_cover(struct hb_meta_state *ms, const struct hb_regioninfo *ri);
int hb_meta_table_region(const struct hb_meta_state *ms, const struct hb_row *row,
                         struct hb_region_name *rn);
int hb_meta_row(void *ctx, const struct hb_row *row, struct hb_error *err);
int hb_meta_rows_before(struct hb_rest *c, const struct hb_meta_state *ms, const struct hb_buf *end,
                        struct hb_error *err);
int hb_meta_check_listing(struct hb_rest *c, const struct hb_meta_state *ms,
                          const struct hb_buf *end, struct hb_error *err);

#endif
