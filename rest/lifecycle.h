/* The table life-cycle verbs next to create and drop: enable, disable and truncate (keeping the
 * split points), through Thrift2 or the hbase shell, each idempotent and each waiting for the
 * state it asked for (docs/hbase-wire.md §8.1). */
#ifndef HB_REST_LIFECYCLE_H
#define HB_REST_LIFECYCLE_H

#include "core/hb.h"
#include "rest/rest.h"

#include <stddef.h>

struct hb_thrift2;

enum hb_lc_verb { HB_LC_ENABLE, HB_LC_DISABLE, HB_LC_TRUNCATE };

/* "enable", "disable", "truncate". */
const char *hb_lc_verb_name(enum hb_lc_verb verb);

struct hb_lc_req {
	enum hb_lc_verb verb;
	const char *table;
	/* Lent, may be NULL: asked for the table's state (isTableEnabled, isTableDisabled,
	 * isTableAvailable), and sent the verb unless use_shell. Without it the state comes
	 * from hbase:meta's table:state row over REST. */
	struct hb_thrift2 *thrift;
	int use_shell;      /* send the verb with the shell (also when thrift is set) */
	int shell_fallback; /* a Thrift2 server without the call (UNKNOWN_METHOD): use the shell */
	const char *shell;  /* the shell command line ("hbase shell -n") */
	double timeout;     /* seconds per request; the shell gets timeout + wait */
	double wait;        /* seconds to wait for the state asked for (and, after enable and
	                       truncate, for every region to be online) */
	/* truncate: the REST URL that names the state file the metadata row is kept in while it
	 * is out of the table (rest/statefile.h); NULL keeps none */
	const char *cluster;
	/* truncate: the command line that runs this truncate again, for the messages */
	const char *rerun;
};

struct hb_lc_result {
	int before, after; /* HB_TABLE_* (core/regioninfo.h) before and after, -1 when unknown */
	int changed;       /* 1 when this run sent the verb and it took effect */
	const char *via;   /* "thrift2", "shell", or "none" when nothing was sent */
	size_t regions;    /* truncate: the regions before (the same after when verified) */
	int verified;      /* truncate: every boundary read back, byte for byte, as before */
	int metadata;      /* truncate: hbtab's metadata row was written back */
	double seconds;    /* the verb and the wait */
	int recovered;     /* truncate: a metadata row an interrupted run kept in its state file
	                      was written back first */
	/* Lines for stderr (without "hbtab: warning: "), each ending in '\n', or NULL: what the
	 * run found and did that the operator should hear of even when it succeeded (a row
	 * recovered from a state file, a lost answer settled by reading the table). */
	char *warnings;
	/* A failed truncate that leaves the metadata row out of the table: lines for stderr
	 * ("hbtab: " each) with the row's cells, the state file and the command that writes it
	 * back; NULL otherwise. */
	char *kept;
};

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
