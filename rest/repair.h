/* hbtab repair's evidence: proving regions empty, reading their loads, sampling a hot region,
 * the survey a plan is made from; its steps are rest/repair_steps.h's, included here. */
#ifndef HB_REST_REPAIR_H
#define HB_REST_REPAIR_H

#include "core/buf.h"
#include "core/hb.h"
#include "core/region.h"
#include "core/repair.h"
#include "rest/audit.h"
#include "rest/repair_steps.h"
#include "rest/rest.h"
#include "rest/tell.h"

#include <stddef.h>
#include <stdint.h>

/*
 * Whether table holds a row in [start, end) (end_len 0 = to the last row), hbtab's metadata
 * row aside: *rows = 1 or 0, or -1 when nothing proves either. Emptiness is proven by
 * stateless scans only (a failure is a 500 there; a stateful scanner ends with the same 204
 * whether its region server failed or the rows did): for printable bounds one over them, else
 * one from a printable key at or below start (its first row at or after end, or none, is the
 * proof). When that shows a row before start, a scanner over the bounds may still find a row
 * (rows 1), never prove there is none (-1).
 */
int hb_repair_range_rows(struct hb_rest *c, const char *table, const void *start, size_t start_len,
                         const void *end, size_t end_len, int *rows, struct hb_error *err);

/* ev[i].rows for every region of rs that want[i] asks for (want NULL: all), one scan each. */
int hb_repair_scan_rows(struct hb_rest *c, const char *table, const struct hb_regions *rs,
                        const unsigned char *want, struct hb_repair_ev *ev, struct hb_error *err);

/*
 * ev[i].load_empty from one /status/cluster read: 1 when region i's load shows no store file
 * and an empty memstore, 0 when it shows data, -1 when no live server reports the region
 * (matched by encoded name). HB_ENOMEM, and the status read's errors.
 */
int hb_repair_loads(struct hb_rest *c, const struct hb_regions *rs, struct hb_repair_ev *ev,
                    struct hb_error *err);

/* ev[i].merged for every region of rs whose hbase:meta row still names merge parents (a
 * scan of the table's rows in hbase:meta, family info). */
int hb_repair_merged(struct hb_rest *c, const char *table, const struct hb_regions *rs,
                     struct hb_repair_ev *ev, struct hb_error *err);

/* The median (the key at index n / 2) of up to max_rows keys sampled from [start, end) into
 * out (reset first); *found = 0 when the range holds no row to sample. */
int hb_repair_sample_median(struct hb_rest *c, const char *table, const void *start,
                            size_t start_len, const void *end, size_t end_len, size_t max_rows,
                            struct hb_buf *out, int *found, struct hb_error *err);

/* A table as repair sees it: the audit (as `audit` makes it: regions, states, reachability,
 * chain, hot-spots with hotspots set in the options) and its live chain, which plans index. */
struct hb_repair_survey {
	struct hb_audit_report audit;
	struct hb_regions live;  /* the live regions of audit.rs (no replicas), sorted */
	int readable;            /* every region's and the table's state known */
	int settled;             /* the table enabled and every live region OPEN */
	char why[HB_ERRMSG_MAX]; /* why not readable, or not settled */
};

void hb_repair_survey_init(struct hb_repair_survey *s);
void hb_repair_survey_release(struct hb_repair_survey *s);

/*
 * Reads TABLE as hb_rest_audit_table does with ao (ao->hotspots for p->split_hot; s->audit.ks
 * may hold a given key space), then gathers the evidence p needs (a scan of every unreachable
 * region; with p->empty the region loads and a scan of every region they show empty; with
 * p->split_hot a key sample of every hot region) and plans into out. A table that cannot be
 * read completely is planned from no evidence (nothing proven, nothing merged). Errors as
 * hb_rest_audit_table's.
 */
int hb_repair_survey(struct hb_repair_plan *out, struct hb_repair_survey *s, struct hb_rest *c,
                     const char *table, const struct hb_audit_opts *ao,
                     const struct hb_repair_params *p, struct hb_error *err);

/*
 * The first part of hb_repair_survey: reads TABLE as hb_rest_audit_table does with ao, fills
 * s (live chain, readable, settled) and, for a settled table, the merged / daughter flags of
 * hbase:meta into *ev (calloc'ed, one per live region, reachable set); *map (may be NULL)
 * gets the live index of every audited region (-1: not live). Free both.
 */
int hb_repair_survey_chain(struct hb_repair_survey *s, struct hb_rest *c, const char *table,
                           const struct hb_audit_opts *ao, struct hb_repair_ev **ev, long **map,
                           struct hb_error *err);

/* The buckets of the design s's audit read: the key space's partitions (given or stored),
 * else the metadata row's split spec and N (core/reshape.h). */
void hb_repair_design_buckets(struct hb_buckets *b, const struct hb_repair_survey *s);

#endif
