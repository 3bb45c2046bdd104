/* The rotation's calls to HBase: the listing planned, a table's rotate mark, a sample of the
 * newest managed table before a period, an existing table's boundaries, a managed table
 * dropped after a fresh check (a snapshot first when asked). The plan's decisions are
 * core/rotate.c's. */
#ifndef HB_REST_ROTATE_H
#define HB_REST_ROTATE_H

#include "core/hb.h"
#include "core/key.h"
#include "core/rotate.h"
#include "rest/drop.h"
#include "rest/rest.h"
#include "rest/snapshot.h"

#include <stddef.h>

/* Lists the tables and plans the run of c into plan (hb_rotate_plan_init). REST codes,
 * HB_ENOMEM. */
int hb_rest_rotate_list(struct hb_rest *rest, const struct hb_rotate_cfg *c,
                        struct hb_rotate_plan *plan, struct hb_error *err);

/* Reads t's rotate mark for tmpl (its metadata row) into t; *gone when it no longer exists. */
int hb_rest_rotate_read_mark(struct hb_rest *rest, const char *tmpl, struct hb_rotate_table *t,
                             int *gone, struct hb_error *err);

/*
 * Up to rows row keys sampled from the newest managed table of plan stamped before cur (its
 * mark read where not yet known) into out (initialised, empty) and its name into from (cap
 * bytes): 1 when sampled; 0 when there is none, or that table is gone or empty (then the
 * spec is used).
 */
int hb_rest_rotate_sample_previous(struct hb_rest *rest, struct hb_rotate_plan *plan,
                                   const char *tmpl, const struct hb_stamp *cur, size_t rows,
                                   struct hb_keys *out, char *from, size_t cap,
                                   struct hb_error *err);

/* The split keys of existing table (its regions' end keys, in order) appended to keys. */
int hb_rest_rotate_existing_bounds(struct hb_rest *rest, const char *table, struct hb_keys *keys,
                                   struct hb_error *err);

/*
 * Drops managed table name after a fresh read of its mark for tmpl (hb_rest_drop_checked);
 * with sh, only once a snapshot of it is listed (its name into snapshot, HB_SNAPSHOT_NAME_MAX
 * bytes; empty when none was taken), the channel checked first for what (the message's
 * subject). Codes of hb_snapshot_channel_check and hb_rest_drop_checked.
 */
int hb_rest_rotate_drop(struct hb_rest *rest, const char *tmpl, const char *name,
                        const struct hb_shell_channel *sh, const char *what,
                        struct hb_drop_out *out, char *snapshot, struct hb_error *err);

#endif
