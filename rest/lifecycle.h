/* The table life-cycle verbs next to create and drop: enable, disable and truncate (keeping the
 * split points), through Thrift2 or the hbase shell, each idempotent and each waiting for the
 * state it asked for (docs/hbase-wire.md §8.1). */
#ifndef HB_REST_LIFECYCLE_H
#define HB_REST_LIFECYCLE_H

#include "core/hb.h"
#include "rest/lifecycle_verb.h"
#include "rest/rest.h"

#include <stddef.h>

/* Frees what hb_lc_run put in out (warnings, kept). */
void hb_lc_result_release(struct hb_lc_result *out);

/*
 * Runs req through rest (lent). The table must exist (HB_ENOTFOUND "table 'T' not found"). A
 * table already in the state asked for is left alone (changed 0); a table changing state is
 * waited for first. truncate disables the table when it is enabled, truncates it keeping its
 * split points (HBase's truncate_preserve; the table is enabled afterwards), waits for every
 * region to be online and compares the boundaries with those read before: HB_EFINDING when
 * they differ, HB_ESAFETY (nothing sent) when the regions before did not form one chain.
 * hbtab's metadata row (HB_METAROW_ROW), read before, is written back once they match
 * (retried, and read back). While it is out of the table it is kept in a state file
 * (req->cluster, rest/statefile.h), and the exit hook of a signal or --deadline prints it
 * (core/interrupt.h's note); a run that finds such a file writes the row back first when the
 * table has none. A lost or unclear answer to the truncate (a timeout, a reset, a TIOError
 * other than a refusal) is settled by waiting for the table and reading its regions: new
 * regions mean it took effect. HB_ESERVER when the state was not reached within req->wait
 * or the channel failed; HB_ENET; HB_EINVAL (a shell that cannot be run, a state file that
 * cannot be written or read: nothing is truncated then). out is filled as far as the run
 * got; release it with hb_lc_result_release.
 */
int hb_lc_run(struct hb_rest *rest, const struct hb_lc_req *req, struct hb_lc_result *out,
              struct hb_error *err);

#endif
