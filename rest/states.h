/* A table's regions with what hbase:meta (or Thrift2) says of their availability. */
#ifndef HB_REST_STATES_H
#define HB_REST_STATES_H

#include "core/audit.h"
#include "core/hb.h"
#include "core/region.h"
#include "rest/channel.h"
#include "rest/hbase.h"
#include "rest/thrift2.h"

/* Where a listing comes from: REST /T/regions (its regions, joined with hbase:meta's states),
 * hbase:meta itself (every region row, with the flags only meta has), or (AUTO) the
 * /T/regions listing made from hbase:meta when the caller may read it (the same regions,
 * servers and states, docs/hbase-wire.md §6.7), else from REST. */
#define HB_SOURCE_REST 0
#define HB_SOURCE_META 1
#define HB_SOURCE_AUTO 2

/*
 * Reads TABLE's regions into the initialised rs from REST /T/regions (sorted by start), or
 * with meta from a scan of hbase:meta (*state gets its TableState or -1; state may be NULL
 * without meta). HB_ENOTFOUND "table 'T' not found[ in hbase:meta]" for a missing table;
 * HB_ENOLOCATION when REST cannot list a region that never opened; other HB_E* codes.
 */
int hb_rest_table_regions(struct hb_rest *c, const char *table, int meta, struct hb_regions *rs,
                          int *state, struct hb_error *err);

/*
 * Learns whether TABLE is enabled and which of rs's regions are OPEN (regions read from REST,
 * which shows the last server of a closed region as if it were online): hbase:meta's
 * table:state and info:state joined onto rs (sorted by start) by region name while meta is
 * scanned; when meta cannot be read, Thrift2 isTableEnabled / isTableDisabled /
 * isTableAvailable through a client made from thrift (may be NULL; only then). av->table_state is
 * HB_TABLE_* or -1 with av->why saying what was tried and how it failed. HB_ENOMEM only.
 */
int hb_rest_region_states(struct hb_rest *c, const char *table, struct hb_regions *rs,
                          const struct hb_thrift2_channel *thrift, struct hb_table_avail *av,
                          struct hb_error *err);

/* hb_rest_table_regions, then for a REST list hb_rest_region_states (a meta list carries its
 * states and TableState already); meta is an HB_SOURCE_*, and av->read_meta says which was
 * read. Errors as those two. */
int hb_rest_regions_avail(struct hb_rest *c, const char *table, int meta,
                          const struct hb_thrift2_channel *thrift, struct hb_regions *rs,
                          struct hb_table_avail *av, struct hb_error *err);

/* hb_rest_regions_avail with its findings (hb_audit_availability) appended to the initialised
 * f: the regions command's listing. */
int hb_rest_regions_checked(struct hb_rest *c, const char *table, int meta,
                            const struct hb_thrift2_channel *thrift, struct hb_regions *rs,
                            struct hb_table_avail *av, struct hb_findings *f, struct hb_error *err);

/* After a read of TABLE failed with HB_ESERVER (a disabled table answers 503 to scans) or found
 * nothing (HB_EFINDING: its row GETs answer 404): when hbase:meta says TABLE is disabled, err
 * becomes "table 'T' is disabled" (HB_ESERVER) and 1 is returned, else 0. */
int hb_rest_explain_disabled(struct hb_rest *c, const char *table, struct hb_error *err);

#endif
