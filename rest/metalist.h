/* hbase:meta's listing of a table's regions, their states and the table's state. */
#ifndef HB_REST_METALIST_H
#define HB_REST_METALIST_H

#include "rest/meta.h"
#include "rest/regions.h"
#include "rest/rest.h"

#include <stddef.h>

/*
 * Scans hbase:meta from "T,," to "T ,," (batch by batch, with the client's progress callback)
 * into an initialised list in key order, with encoded name, id, server, state and the
 * offline/split flags. The table-state row is skipped; *state_out (may be NULL) receives the
 * TableState (HB_TABLE_* from core/regioninfo.h) or -1 when there was no state row. A large
 * table's rows are read in ranges side by side; a listing whose ranges do not meet at a seam
 * (hbase:meta changed between their reads) is read again as one scan: the list is always
 * one view of hbase:meta.
 */
int hb_rest_meta_regions(struct hb_rest *c, const char *table, struct hb_regions *out,
                         int *state_out, struct hb_error *err);

/* hb_rest_meta_regions one region at a time: nothing is kept, and (fn cannot start again)
 * the listing is one scan, never read in ranges. */
int hb_rest_meta_scan(struct hb_rest *c, const char *table, hb_meta_region_fn fn, void *ctx,
                      int *state_out, struct hb_error *err);
/* hb_rest_meta_scan for an fn that restart (called with ctx) empties of what it was given:
 * a large table's listing may then be read in ranges and, to stay one view of hbase:meta,
 * read again from its start (as hb_rest_meta_regions). */
int hb_rest_meta_scan_restart(struct hb_rest *c, const char *table, hb_meta_region_fn fn,
                              hb_region_restart_fn restart, void *ctx, int *state_out,
                              struct hb_error *err);
/*
 * hb_rest_meta_scan asking meta for info:state alone: each region row is handed on with its
 * name, encoded name, start key, id and replica id as the name holds them, and its state (no
 * end key, server or flags); for joining states onto regions read from REST. last_name (may
 * be NULL) names the table's last region: a listing that ends with it is whole, any other is
 * checked as hb_rest_meta_scan's is.
 */
int hb_rest_meta_states(struct hb_rest *c, const char *table, const void *last_name,
                        size_t last_name_len, hb_meta_region_fn fn, void *ctx, int *state_out,
                        struct hb_error *err);
/*
 * hb_rest_meta_states asking only for the region rows whose info:state is not OPEN, those
 * without one (handed on with a NULL state) and the row of last_name (docs/hbase-wire.md
 * §6.5): a row not handed on had OPEN when meta was read. Returns 1, having handed on what it
 * read, when that answer proves nothing (no usable last_name, or the row of last_name was not
 * in it: the listing may be short or the last region changed), and HB_ESERVER when the
 * gateway refused the filter; then hb_rest_meta_states is the way to ask.
 */
int hb_rest_meta_states_not_open(struct hb_rest *c, const char *table, const void *last_name,
                                 size_t last_name_len, hb_meta_region_fn fn, void *ctx,
                                 int *state_out, struct hb_error *err);

#endif
