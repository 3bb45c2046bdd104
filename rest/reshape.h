/* hbtab reshape over the wire: the table read as repair reads it, the plan of core/reshape.c,
 * its rounds run through the hbase shell with repair's steps, the blocked regions cleared,
 * until the table has the target's boundaries. */
#ifndef HB_REST_RESHAPE_H
#define HB_REST_RESHAPE_H

#include "core/key.h"
#include "core/reshape.h"
#include "rest/repair.h"

#include <stddef.h>

/*
 * Reads TABLE (hb_repair_survey_chain: regions, states, merged and split-daughter flags) into
 * s and plans the move to target's boundaries into out with p (p->buckets: when NULL, the
 * recorded design's). Errors as hb_rest_audit_table's.
 */
int hb_reshape_survey(struct hb_reshape_plan *out, struct hb_repair_survey *s, struct hb_rest *c,
                      const char *table, const struct hb_audit_opts *ao,
                      const struct hb_keys *target, const struct hb_reshape_params *p,
                      struct hb_error *err);

/* Called as the run goes: what it does next, in words (a round, a clearing, a wait). */
typedef void (*hb_reshape_note_fn)(void *ctx, const char *what);

struct hb_reshape_run {
	struct hb_repair_apply a; /* table, shell, timeout, wait, log, tell (batch, verb set) */
	size_t max_steps;         /* merges and splits this run carries out at most */
	hb_reshape_note_fn note;
	void *ctx;
	size_t done;   /* steps carried out */
	size_t rounds; /* rounds of steps run */
	size_t clears; /* shell runs that cleared blocked regions */
	int capped;    /* stopped at max_steps with steps left */
};

/*
 * Carries the reshape out: reads and plans the table again before every round (so a run
 * that was interrupted goes on from the table as it now is), runs the round's steps in one
 * shell run and waits until each shows in REST's list and hbase:meta has every region OPEN.
 * When only blocked regions are left, runs their clearing commands (major_compact, then
 * catalogjanitor_run, again while they stay blocked) up to r->a.wait seconds; a step HBase
 * refuses for references clears its regions the same way. Ends when the plan has no entry
 * (0; s and out hold the last read and plan), at r->max_steps (0, r->capped), or on a
 * failure: HB_ESAFETY for a plan that would merge across buckets or a table that does not
 * settle, HB_ESERVER for blocked regions that stay blocked, and the step's errors.
 */
int hb_reshape_apply(struct hb_rest *c, struct hb_reshape_run *r, const struct hb_audit_opts *ao,
                     const struct hb_keys *target, const struct hb_reshape_params *p,
                     struct hb_reshape_plan *out, struct hb_repair_survey *s, struct hb_error *err);

#endif
