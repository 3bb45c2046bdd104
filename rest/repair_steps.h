/* hbtab repair's steps (rest/repair_steps.c): a plan's shell script, carried out through the
 * hbase shell, each step awaited until it settles. */
#ifndef HB_REST_REPAIR_STEPS_H
#define HB_REST_REPAIR_STEPS_H

#include "core/buf.h"
#include "core/hb.h"
#include "core/region.h"
#include "core/repair.h"
#include "rest/rest.h"
#include "rest/tell.h"

#include <stddef.h>

/* The hbase shell script of a plan's steps (MERGE, SPLIT), one command a line, with a
 * comment line before each naming its finding and regions, then "exit". */
int hb_repair_script(struct hb_buf *out, const char *table, const struct hb_regions *rs,
                     const struct hb_repair_plan *p);

/* Called as apply goes: step (index into the plan) began (done 0) or ended (done 1, rc its
 * outcome, err its message when rc != 0). */
typedef void (*hb_repair_log_fn)(void *ctx, const struct hb_repair_plan *p, size_t step, int done,
                                 int rc, const struct hb_error *err);

struct hb_repair_apply {
	const char *table;
	const char *shell; /* the shell command line, e.g. "hbase shell -n" */
	double timeout;    /* seconds for one step's shell run */
	double wait;       /* seconds for a step's result to show and every region to be OPEN */
	hb_repair_log_fn log;
	void *ctx;
	const struct hb_tell *tell; /* a shell killed at its timeout whose step took effect */
	size_t done;                /* steps carried out */
	int batch;                  /* all steps in one shell run (they take disjoint regions),
	                             * then each result awaited; a failure ends the run */
	const char *verb;           /* the activity's verb ("reshaping"), NULL: "repairing" */
};

/*
 * Carries out the plan's steps in order, each through its own shell run, then waits until
 * REST lists the step's result (the merged region's bounds, the split key as a boundary)
 * and hbase:meta shows every live region OPEN. Stops at the first step that fails: the
 * rest was planned on a layout that is no longer known (a rerun plans again). A shell
 * killed at its timeout is judged by the region list as well: a step whose result shows is
 * done (a->tell warns of the hang). HB_ESERVER (the shell's error, or the result never
 * showed), HB_ENET (killed at the timeout, the result never showed), HB_EINVAL (shell not
 * found), HB_ENOMEM.
 */
int hb_repair_run(struct hb_rest *c, struct hb_repair_apply *a, const struct hb_regions *rs,
                  const struct hb_repair_plan *p, struct hb_error *err);

/* Runs script (commands, one a line; "exit" is added) through a->shell, judged as a step is:
 * an ERROR line fails it, a shell killed at its timeout is warned of. what names it in
 * messages. HB_ESERVER, HB_ENET, HB_EINVAL, HB_ENOMEM. */
int hb_repair_shell_script(const struct hb_repair_apply *a, const char *script, const char *what,
                           struct hb_error *err);

#endif
