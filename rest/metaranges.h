/* A large table's listing in hbase:meta read in ranges side by side (rest/metalist.c's). */
#ifndef HB_REST_METARANGES_H
#define HB_REST_METARANGES_H

#include "rest/meta.h"
#include "rest/rest.h"
#include "rest/scan.h"

/*
 * The whole listing of ms's table (spec: its scan of hbase:meta; end: the listing's end row),
 * its rows handed to hb_meta_row in meta order: 0, 1 when the first scan was the whole listing
 * (its end is still to be checked), HB_META_SEAM or HB_META_AGAIN (read it again as one scan),
 * or an error.
 */
int hb_meta_scan_ranged(struct hb_rest *c, struct hb_meta_state *ms,
                        const struct hb_scan_spec *spec, const struct hb_buf *end,
                        struct hb_error *err);

#endif
