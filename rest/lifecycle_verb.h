/* One life-cycle verb (rest/lifecycle_verb.c): the request, the verb sent through Thrift2 or the
 * hbase shell, the table's state and regions read and waited for. */
#ifndef HB_REST_LIFECYCLE_VERB_H
#define HB_REST_LIFECYCLE_VERB_H

#include "core/hb.h"
#include "core/region.h"
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

/* For rest/lifecycle.c: the table's state read (Thrift2 or hbase:meta), its regions read, the
 * state (and every region online) waited for, the verb sent through its channel. */
int hb_lc_read_state(struct hb_rest *rest, const struct hb_lc_req *q, int *state,
                     struct hb_error *err);
int hb_lc_read_regions(struct hb_rest *rest, const char *table, struct hb_regions *rs,
                       struct hb_error *err);
int hb_lc_wait_for(struct hb_rest *rest, const struct hb_lc_req *q, int target, int need_online,
                   double started, struct hb_regions *rs, int *state, struct hb_error *err);
int hb_lc_wait_settled(struct hb_rest *rest, const struct hb_lc_req *q, double started, int *state,
                       struct hb_error *err);
int hb_lc_send_verb(struct hb_rest *rest, const struct hb_lc_req *q, enum hb_lc_verb verb,
                    int target, struct hb_lc_result *out, int *raced, int *unclear,
                    struct hb_error *hint, struct hb_error *err);

#endif
