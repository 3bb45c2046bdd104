/* Snapshots through the hbase shell (neither REST nor Thrift2 has a snapshot call): taking one,
 * proving it exists by asking for it, and the rule "a table leaves only after its snapshot". */
#ifndef HB_REST_SNAPSHOT_H
#define HB_REST_SNAPSHOT_H

#include "core/hb.h"

#include <stddef.h>
#include <time.h>

/* Longest snapshot name hbtab makes or takes (bytes, NUL included). */
#define HB_SNAPSHOT_NAME_MAX 256

/* The shell channel: its command line (--hbase-shell) and how long one run may take. */
struct hb_shell_channel {
	const char *command;
	double timeout;
};

/*
 * 0 when the channel's command can run (its argv[0] is found); otherwise HB_ESAFETY saying
 * why snapshots cannot be taken (what names the refused action, e.g. "drop 't1'").
 */
int hb_snapshot_channel_check(const struct hb_shell_channel *sh, const char *what,
                              struct hb_error *err);

/* Checks a snapshot name as HBase does (a table qualifier: [a-zA-Z_0-9-.], not starting with
 * '.' or '-'). HB_EINVAL with the reason. */
int hb_snapshot_check_name(const char *name, struct hb_error *err);

/* The default name of a snapshot of table taken at t: the table (':' as '-'), '-', and t in
 * UTC as YYYYMMDDTHHMMSSZ. HB_EINVAL when it does not fit in size bytes. */
int hb_snapshot_default_name(char *out, size_t size, const char *table, time_t t);

/* One snapshot as the shell's answer names it. */
struct hb_snapshot {
	char *name, *table;
};

struct hb_snapshots {
	struct hb_snapshot *v;
	size_t n, cap;
};

void hb_snapshots_init(struct hb_snapshots *s);
void hb_snapshots_release(struct hb_snapshots *s);

/*
 * Reads the answer hbtab's own line of Ruby prints in the shell (not list_snapshots' table,
 * whose layout depends on the release and the terminal): "HBTAB-SNAPSHOT<TAB>NAME<TAB>TABLE"
 * per snapshot, then "HBTAB-SNAPSHOTS<TAB>COUNT", each marker possibly after other output on
 * its line. Other lines are skipped. *listed = 1 only when the count line was seen and counts
 * the rows read (an empty answer is then told from a run that never answered, or one cut
 * short). HB_ENOMEM.
 */
int hb_snapshot_parse_answer(struct hb_snapshots *out, const char *text, size_t len, int *listed,
                             struct hb_error *err);

/*
 * Takes snapshot name of table through the shell and asks the shell's Admin for it in the
 * same run: 0 only when the answer shows name for table. HB_ESERVER (the shell's error, or
 * no such line), HB_ENET (the run timed out), HB_EINVAL (the shell cannot be started), HB_ENOMEM.
 */
int hb_snapshot_take(const struct hb_shell_channel *sh, const char *table, const char *name,
                     struct hb_error *err);

/* A drop's "before" step (rest/drop.h): a snapshot of the table, named by default at the
 * moment it is taken (name gets it), proven by listing before the table may go. */
struct hb_snapshot_before {
	const struct hb_shell_channel *sh;
	char name[HB_SNAPSHOT_NAME_MAX];
};
int hb_snapshot_before_drop(void *ctx, const char *table, struct hb_error *err);

#endif
