/* Building the REST client from the global settings; progress display; table-name arguments. */
#ifndef HB_CLI_REST_CLI_H
#define HB_CLI_REST_CLI_H

#include "../core/hb.h"
#include "../rest/rest.h"
#include "../rest/tell.h"
#include "progress.h"

#include <stddef.h>

/*
 * Creates the REST client from cli_g: the password only from HBTAB_PASSWORD or the user's
 * ~/.netrc entry for the host (--user without either is HB_EINVAL), -v traces to stderr with
 * secrets redacted, and a progress indicator on a terminal unless --no-progress or -q. On failure
 * err is filled (print with cli_fail).
 */
int cli_rest_open(struct hb_rest **out, struct hb_error *err);

struct hb_thrift2;
/* Creates the Thrift2 client for --thrift with the same settings, password rules and
 * warnings as the REST client; timeout in seconds per request. */
int cli_thrift2_open(struct hb_thrift2 **out, double timeout, struct hb_error *err);

/*
 * Reads TABLE's regions into the initialised rs from REST /T/regions, or with meta from a
 * scan of hbase:meta (*state gets its TableState or -1), then clears the progress line.
 * A missing table prints "table 'T' not found[ in hbase:meta]" and returns CLI_EXIT_SERVER, as
 * does a region REST cannot locate (with the way to see why); other failures return a negative
 * HB_E* code with err filled.
 */
int cli_rest_regions(struct hb_rest *c, const char *table, int meta, struct hb_regions *rs,
                     int *state, struct hb_error *err);
/* cli_status for a command that read TABLE's regions (hb_rest_table_regions): HB_ENOLOCATION
 * names the way to see why. Returns the exit status. */
int cli_regions_status(const char *table, int rc, struct hb_error *err, size_t findings);

/* hb_rest_region_states with the Thrift2 server of --thrift (cli_thrift2_channel), the progress
 * line cleared, and a warning printed when nothing could tell the table's state. HB_ENOMEM. */
int cli_rest_states(struct hb_rest *c, const char *table, struct hb_regions *rs, int *table_state,
                    int *available, struct hb_error *err);
/* The --thrift server as a value for the flows below (rest/channel.h): its client settings,
 * its credentials found once; or why there is none ("no --thrift server to ask instead", or
 * why its login cannot be made), said where a flow would have asked it. */
const struct hb_thrift2_channel *cli_thrift2_channel(void);
/* Where rest/ flows send what the operator should read: cli_warn, and cli_verbose for -v. */
extern const struct hb_tell cli_tell;

/* After a read of TABLE failed with HB_ESERVER (a disabled table answers 503 to scans) or found
 * nothing (HB_EFINDING: its row GETs answer 404): when hbase:meta says TABLE is disabled, err
 * becomes "table 'T' is disabled" (HB_ESERVER) and 1 is returned, else 0. */
int cli_explain_disabled(struct hb_rest *c, const char *table, struct hb_error *err);

/* Validates a TABLE argument (docs/hbase-keys.md §10) before any request; prints
 * "hbtab: invalid table name ..." and returns HB_EINVAL on failure. */
int cli_check_table(const char *cmd, const char *name);

#endif
