/* The rotation on the command line: the lock against overlapping runs, then the flow
 * (rest/rotate_flow.h) with create's flow, the split spec and the messages of the command
 * line. */
#ifndef HB_CLI_ROTATE_H
#define HB_CLI_ROTATE_H

#include "../rest/rest.h"
#include "../rest/rotate_flow.h"
#include "../rest/snapshot.h"
#include "cli.h"
#include "splitspec.h"

struct cli_rotate_opts {
	struct hb_rotate_opts flow; /* cfg, spec, sample and drop options of the flow */
	const struct cli_strlist *families, *attrs;
	const char *via, *keyspace;
	double wait;
	int adopt, create_namespace;
	const struct hb_shell_channel *sh; /* the shell for --snapshot-before-drop */
	const char *lock;                  /* lock file, NULL: per template and gateway */
	/* tables --known-unmarked names (the profile's join them) */
	const struct cli_strlist *known_unmarked;
	/* called with each line as soon as it is decided (the lines are also kept) */
	void (*on_line)(const struct hb_rotate_line *l);
};

/*
 * Runs one rotation of o through rest (lent), printing errors and warnings on stderr;
 * returns the exit status (5 when drops are left pending or a table past retention cannot be
 * read, or another run holds the lock: then out->listed is 0). Release out with
 * hb_rotate_result_release.
 */
int cli_rotate_run(struct hb_rest *rest, const struct cli_rotate_opts *o,
                   struct hb_rotate_result *out);

#endif
