/* The rotation flow as a function: lock, list, create ahead through the create flow, retire
 * managed tables past retention through hb_rest_drop_checked. */
#ifndef HB_CLI_ROTATE_H
#define HB_CLI_ROTATE_H

#include "../core/rotate.h"
#include "../rest/rest.h"
#include "../rest/snapshot.h"
#include "cli.h"
#include "splitspec.h"

#include <stddef.h>

/* One table's line: what happened to it. */
struct cli_rotate_line {
	char *name;
	const char *action; /* "created", "verified", "would create", "differs", "failed",
	                     * "dropped", "would drop", "skipped" */
	long regions, n;    /* -1 = unknown */
	const char *note;   /* or NULL */
	char *snapshot;     /* the snapshot taken before the drop, or NULL */
	char *error;        /* "failed": why (said on stderr, not in the text lines), or NULL */
};

struct cli_rotate_opts {
	struct hb_rotate_cfg cfg;
	struct hb_splitspec *ss;
	const struct cli_strlist *families, *attrs;
	const char *via, *keyspace;
	const char *sample_rows; /* sizes the --sample-previous sample, or NULL */
	double wait;
	int sample_previous, adopt, create_namespace;
	int snapshot_before_drop; /* a table is dropped only once a snapshot of it is listed */
	const struct hb_shell_channel *sh; /* the shell for those snapshots */
	const char *lock;                  /* lock file, NULL: per template and gateway */
	/* tables kept on purpose that match the template without a rotate mark: left alone
	 * as every such table is, but not warned about (--known-unmarked) */
	const struct cli_strlist *known_unmarked;
	/* called with each line as soon as it is decided (the lines are also kept) */
	void (*on_line)(const struct cli_rotate_line *l);
};

struct cli_rotate_result {
	int listed; /* the tables were listed: the lines are the run's report */
	struct cli_rotate_line *lines;
	size_t nlines, cap;
	size_t pending; /* managed tables past retention left for a later run */
	double t_list, t_sample, t_create, t_drop;
};

/*
 * Runs one rotation of o through rest (lent), printing errors and warnings on stderr;
 * returns the exit status (5 when drops are left pending or a table past retention cannot be
 * read). Release out with cli_rotate_result_release.
 */
int cli_rotate_run(struct hb_rest *rest, const struct cli_rotate_opts *o,
                   struct cli_rotate_result *out);
void cli_rotate_result_release(struct cli_rotate_result *r);

#endif
