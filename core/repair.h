/* hbtab repair's planner: from a table's regions and the evidence about each (reachability,
 * proven emptiness, hot-spots) to the shell steps that fix the layout. Pure computation. */
#ifndef HB_REPAIR_H
#define HB_REPAIR_H

#include "audit.h"
#include "buf.h"
#include "hb.h"
#include "region.h"

#include <stddef.h>

struct hb_buckets;

/* Finding kinds of a plan's entries (strings of the JSON output). */
#define HB_REPAIR_UNREACHABLE  "unreachable"           /* merged into a reachable neighbour */
#define HB_REPAIR_NOT_EMPTY    "unreachable_not_empty" /* holds rows: reported, never merged */
#define HB_REPAIR_UNPROVEN     "unreachable_unproven"  /* not scanned: never merged */
#define HB_REPAIR_NO_NEIGHBOUR "unreachable_isolated"  /* no reachable neighbour to merge into */
#define HB_REPAIR_EMPTY        "empty"                 /* --empty: a run of regions with no data */
#define HB_REPAIR_HOT          "hotspot"               /* --split-hot: split at a sampled key */
#define HB_REPAIR_HOT_NO_KEY   "hotspot_no_split_key"  /* no sampled key strictly inside */
#define HB_REPAIR_BLOCKED      "merge_blocked"         /* merged or split recently: held */
#define HB_REPAIR_BUCKET       "merge_across_bucket"   /* a merge would span two buckets */

/* What hbtab knows about region i of the sorted live chain (same index as the region list). */
struct hb_repair_ev {
	int reachable;  /* 1 or 0 (the audit's decision) */
	int rows;       /* 1 a scan of the range found a row (the metadata row aside), 0 it found
	                 * none, -1 not scanned */
	int load_empty; /* 1 the region load shows no store file and an empty memstore, 0 it shows
	                 * data, -1 unknown */
	int hot;        /* 1 an audit hot-spot finding names the region */
	int merged;     /* 1 its hbase:meta row still names merge parents (info:merge*): HBase
	                 * refuses to merge it again until a compaction drops its references
	                 * and the CatalogJanitor clears the row */
	int daughter;   /* 1 a split parent's hbase:meta row still names it (info:splitA/B): it may
	                 * still hold references to the parent's files, and HBase refuses to merge
	                 * or split it until a compaction drops them; the CatalogJanitor removes
	                 * the parent's row only once neither daughter holds any */
	size_t sibling; /* daughter: 1 + the index of the other daughter when it is live, else 0 */
	const unsigned char *split; /* hot: the median of a key sample drawn from the region, or
	                             * NULL (no sample); borrowed */
	size_t split_len;
};

/* A table's split restriction (2.6.1 hbase-server regionserver/RegionSplitRestriction.java):
 * the master cuts a split point given by a user to a prefix of it before splitting. */
#define HB_SPLIT_RESTRICTION_TYPE "hbase.regionserver.region.split_restriction.type"
#define HB_SPLIT_RESTRICTION_PREFIX_LENGTH                                                         \
	"hbase.regionserver.region.split_restriction.prefix_length"
#define HB_SPLIT_RESTRICTION_DELIMITER "hbase.regionserver.region.split_restriction.delimiter"

enum hb_split_restriction_kind {
	HB_SPLIT_RESTRICT_NONE,
	HB_SPLIT_RESTRICT_KEY_PREFIX, /* the first prefix_length bytes */
	HB_SPLIT_RESTRICT_DELIMITED,  /* the bytes before the first delimiter */
};

struct hb_split_restriction {
	enum hb_split_restriction_kind kind;
	size_t prefix_length;  /* KEY_PREFIX, > 0 */
	const char *delimiter; /* DELIMITED: non-empty, borrowed */
};

/* The restriction the table values type, prefix_length and delimiter (each may be NULL) make,
 * as HBase reads them: an unknown type, a prefix length that is not a positive int or an
 * empty delimiter is no restriction. */
void hb_split_restriction_read(struct hb_split_restriction *r, const char *type,
                               const char *prefix_length, const char *delimiter);
/* The length of the prefix of key (n bytes) HBase splits at instead of key (n when none). */
size_t hb_split_restricted_len(const struct hb_split_restriction *r, const void *key, size_t n);

struct hb_repair_params {
	int empty;          /* merge runs of regions proven empty (--empty) */
	size_t min_regions; /* --empty never leaves fewer live regions than this (>= 1) */
	int split_hot;      /* split hot regions at their sampled median (--split-hot) */
	size_t max_steps;   /* at most this many steps (MERGE/SPLIT) in the plan; the rest are
	                     * counted in plan->deferred */
	struct hb_split_restriction restriction; /* the table's, from its schema (zero: none) */
	/* the buckets of a design whose row keys depend on N (core/reshape.h), or NULL: --empty
	 * never merges regions of two buckets */
	const struct hb_buckets *buckets;
};

enum hb_repair_action {
	HB_REPAIR_MERGE,  /* merge_region of regions [first, first + n), adjacent, in key order */
	HB_REPAIR_SPLIT,  /* split of region first at split */
	HB_REPAIR_REPORT, /* nothing hbtab runs: a finding with the operator's command, if any */
};

struct hb_repair_step {
	const char *finding; /* HB_REPAIR_* or an audit finding kind (HB_FIND_HOLE, ...); static */
	enum hb_repair_action action;
	size_t first, n;     /* regions [first, first + n) of the list (n = 0: table-wide) */
	struct hb_buf split; /* HB_REPAIR_SPLIT: the split key's bytes */
	char *command;       /* the hbase shell command (MERGE, SPLIT), the operator's command
	                      * (REPORT), or NULL; owned */
	char *message;       /* why, in words, keys in toStringBinary; owned */
};

struct hb_repair_plan {
	struct hb_repair_step *v;
	size_t n, cap;
	size_t steps;    /* entries that are MERGE or SPLIT */
	size_t deferred; /* MERGE/SPLIT steps left out by max_steps */
};

void hb_repair_plan_init(struct hb_repair_plan *p);
void hb_repair_plan_release(struct hb_repair_plan *p);

/*
 * Plans the repair of the sorted live chain rs (offline regions, split parents and replicas
 * left out by the caller; every region has its encoded name) with ev[i] for region i:
 * - each run of unreachable regions, proven empty (rows == 0), is merged into a reachable
 *   neighbour: the one before it, else (at the start of the table, or after a region that
 *   holds rows) the one after it, so every key of the key space keeps exactly the keys it
 *   shared a region with. A reachable region takes the runs on both its sides in one merge
 *   (a region just merged cannot merge again before its references are compacted away).
 *   Unreachable regions that hold rows, or were not scanned, are reported and never merged;
 *   a run that no neighbour can take within one of p->buckets' buckets is reported
 *   (HB_REPAIR_BUCKET);
 * - with p->empty, runs of two or more adjacent regions proven empty (load_empty == 1 and
 *   rows == 0) not already in a step are merged into one, never below p->min_regions and
 *   never over the start of one of p->buckets' buckets;
 * - with p->split_hot, each hot region not already in a step is split at its sampled key,
 *   cut as p->restriction says HBase will cut it, when that key lies strictly inside it (a
 *   key equal to the start is refused by HBase), else reported.
 * audit holds the chain findings (hole, overlap, ...) reported with the HBCK2 command; it
 * may be NULL. table names the table in commands. out must be initialised. HB_ENOMEM.
 */
int hb_repair_plan(struct hb_repair_plan *out, const char *table, const struct hb_regions *rs,
                   const struct hb_repair_ev *ev, const struct hb_findings *audit,
                   const struct hb_repair_params *p);

/* Appends to p a MERGE step of regions [first, first + n) of rs (merge_region of their encoded
 * names, in key order), its message "WHY: merge regions ...". HB_ENOMEM. */
int hb_repair_merge_step(struct hb_repair_plan *p, const struct hb_regions *rs, const char *finding,
                         size_t first, size_t n, const char *why);
/* Appends a SPLIT step of region i of rs at key (split 'ENCODED', "KEY"), its message
 * "WHY: split region i [start, end) at 'KEY'". HB_ENOMEM. */
int hb_repair_split_step(struct hb_repair_plan *p, const struct hb_regions *rs, const char *finding,
                         size_t i, const void *key, size_t kl, const char *why);
/* Appends a REPORT entry with copies of command (may be NULL) and message. HB_ENOMEM. */
int hb_repair_report_step(struct hb_repair_plan *p, const char *finding, size_t first, size_t n,
                          const char *command, const char *message);

/* Appends key as the body of a Ruby double-quoted string: bytes outside [A-Za-z0-9 _.,:/=+-]
 * as \xHH (upper case), so the shell's to_java_bytes gives back the exact bytes. HB_ENOMEM. */
int hb_repair_ruby_key(struct hb_buf *out, const void *key, size_t n);

#endif
