/* hbtab reshape's planner: from a table's live region boundaries to the ones a split
 * specification computes, through splits at exact keys and merges of adjacent regions, and
 * the guard that keeps every merge inside one bucket of a design whose row keys depend on N.
 * Pure computation. */
#ifndef HB_RESHAPE_H
#define HB_RESHAPE_H

#include "buckets.h"
#include "buf.h"
#include "hb.h"
#include "key.h"
#include "keyspace.h"
#include "region.h"
#include "repair.h"

#include <stddef.h>

/* Finding kinds of a reshape plan's entries (strings of the JSON output). */
#define HB_RESHAPE_SPLIT   "reshape_split"   /* a target boundary inside a region */
#define HB_RESHAPE_MERGE   "reshape_merge"   /* regions between two target boundaries */
#define HB_RESHAPE_BLOCKED "reshape_blocked" /* a region HBase refuses to change for now */
#define HB_RESHAPE_BUCKET  HB_REPAIR_BUCKET  /* a merge the design's buckets forbid */

/* How far above the larger of the old and the new region count a plan may go. */
#define HB_RESHAPE_MARGIN 2

/* A step of a later round: regions that do not exist yet are named by their bounds. */
struct hb_reshape_later {
	size_t round;                 /* 2, 3, ... */
	enum hb_repair_action action; /* MERGE or SPLIT */
	struct hb_buf start, end;     /* the bounds of the region(s) the step takes */
	size_t n;                     /* MERGE: how many regions */
	struct hb_buf split;          /* SPLIT: the key */
	size_t regions_after;         /* the table's region count after the step */
};

struct hb_reshape_params {
	size_t margin; /* HB_RESHAPE_MARGIN */
	size_t old_n;  /* the region count the reshape started from (the recorded N), so that a
	                * plan made again halfway keeps the same bounds; 0: the live count */
	const struct hb_buckets *buckets; /* the design's (NULL: none) */
};

struct hb_reshape_plan {
	/* the steps that can run now, on the live regions (round 1, the first index into the
	 * live list), and the reports (blocked regions, refused merges) */
	struct hb_repair_plan now;
	size_t *after_now; /* the region count after each entry of now (REPORT: the same) */
	struct hb_reshape_later *later; /* the rounds after, as the plan foresees them */
	size_t nlater, cap;
	size_t from, to;  /* region counts: live, and what the spec makes */
	size_t upper;     /* max(old_n, to) + margin */
	size_t low, peak; /* the fewest and most regions over the whole sequence */
	size_t rounds;    /* rounds foreseen (0: nothing to do) */
	int stuck;        /* 1 when the sequence cannot reach the target (a refused merge) */
};

void hb_reshape_plan_init(struct hb_reshape_plan *p);
void hb_reshape_plan_release(struct hb_reshape_plan *p);

/*
 * Plans moving the sorted live chain rs (every region with its encoded name) to the regions
 * the sorted, distinct split keys target make. ev[i] holds region i's merged / daughter flags
 * (the other fields are not read; NULL: none held). Rounds: in each, a region takes part in
 * at most one step (HBase refuses to change a region that was merged or split until its
 * references are compacted away): a region holding target keys strictly inside is split at
 * the middle one of them; a run of regions lying between two consecutive target boundaries
 * (or the table's ends), holding no target key inside, is merged into one. A round's merges
 * come before its splits, and a split is left for a later round while it would take the
 * region count above max(old_n, to) + margin, unless nothing else can move. Round 1 is on the
 * live regions (p->now, with shell commands; a held region is reported blocked with what
 * clears it); later rounds are foreseen (p->later) as if each round's regions were clear. A
 * merge that would hold rows of two of p->buckets' buckets is never planned: reported, and
 * the plan is stuck. table names the table in commands. HB_ENOMEM.
 */
int hb_reshape_plan(struct hb_reshape_plan *out, const char *table, const struct hb_regions *rs,
                    const struct hb_repair_ev *ev, const struct hb_keys *target,
                    const struct hb_reshape_params *p);

#endif
