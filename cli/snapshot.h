/* What snapshot, drop --snapshot and rotate --snapshot-before-drop share. */
#ifndef HB_CLI_SNAPSHOT_H
#define HB_CLI_SNAPSHOT_H

#include "../rest/snapshot.h"
#include "cli.h"

/* The shell channel snapshots go through: --hbase-shell, a run given --timeout + 60 s (the
 * shell is a JVM of its own). */
void cli_snapshot_channel(struct hb_shell_channel *out);

/* Says on stdout (text output, not -q) that a snapshot of table was taken and how to restore
 * it. */
void cli_snapshot_print(const char *table, const char *name);

#endif
