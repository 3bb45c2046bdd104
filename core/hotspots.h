/* Where a table's load lands: regions' counters matched by name, hot-spots, placement on the
 * servers. */
#ifndef HB_HOTSPOTS_H
#define HB_HOTSPOTS_H

#include "findings.h"
#include "reach.h"
#include "region.h"

#include <stddef.h>
#include <stdint.h>

/* The default margin of hb_audit_placement: the balancer's own slop (seed 004 §5.5). */
#define HB_PLACEMENT_FACTOR_DEFAULT 1.2
/*
 * Placement of the table's live regions on the live servers (names[0..n-1]): HBase's
 * balancer evens out region counts over all tables, not this table's regions or writes, so
 * one table can pile up on a few servers. Adds a "placement" finding for each server holding
 * more than ceil(factor x live regions / n) of them (the upper edge of the balancer's
 * [floor(avg x (1 - slop)), ceil(avg x (1 + slop))] band with factor = 1 + slop). Regions
 * without a server or on a server not in names are not counted. HB_ENOMEM.
 */
int hb_audit_placement(struct hb_findings *out, const struct hb_regions *rs,
                       const char *const *names, size_t n, double factor);
/* One region's counters from /status/cluster (LiveNodes[].Region[]). */
struct hb_audit_load {
	const unsigned char *name; /* full region name bytes: table,start,id[_rep].encoded. */
	size_t name_len;
	const char *server; /* the live node's host:port */
	uint64_t reads, writes;
};

/* A region's requests: its counters as read, or those in the window (counter resets: the
 * value after reset; 0 for a region that is not live). Its share of the writes in the
 * window is hb_hotspots_share. */
struct hb_hot_region {
	uint64_t writes, reads;
};

/* A counter never read: HBase's counters are signed 64-bit, so loads stay below it. */
#define HB_NO_LOAD UINT64_MAX

/*
 * Counters at the two instants, matched to the n audited regions, as arrays of n entries
 * (about 20 bytes a region with one reading, 36 with two): t0[i] and t1[i] hold region i's
 * counters at each instant, both HB_NO_LOAD until a load is matched (t0 is NULL with one
 * reading); server[i] is 1 + the index in servers of its server at t1 (else t0), 0 for none.
 * servers are the distinct names seen, borrowed from the loads.
 */
struct hb_region_counts {
	struct hb_hot_region *t0, *t1;
	uint32_t *server;
	const char **servers;
	size_t nservers, servers_cap;
	size_t n;
	size_t last_server; /* where the previous load's server was found (loads come by server) */
};

/* Sizes c for n regions with no load matched; t0 only when two_readings. Released with
 * hb_region_counts_release (also after a failure). HB_ENOMEM. */
int hb_region_counts_init(struct hb_region_counts *c, size_t n, int two_readings);
void hb_region_counts_release(struct hb_region_counts *c);

/*
 * Matches loads (t0 and t1; either may be empty) to the sorted regions of table by the start
 * key and region id parsed from each region name; replicas' loads are ignored. Initialises
 * out for rs->n regions and two readings (release it also after a failure). HB_ENOMEM.
 */
int hb_audit_match_loads(struct hb_region_counts *out, const struct hb_regions *rs,
                         const char *table, const struct hb_audit_load *l0, size_t n0,
                         const struct hb_audit_load *l1, size_t n1);
/* The same one load at a time, as a status read streams them (counts from
 * hb_region_counts_init, with t0 for loads at t0; all the loads at t0 before those at t1): no
 * load list is held. l->server must outlive counts. HB_ENOMEM. */
int hb_audit_match_load(struct hb_region_counts *counts, const struct hb_regions *rs,
                        const char *table, const struct hb_audit_load *l, int t1);

struct hb_hot_params {
	double factor;       /* flag a region above factor x its fair share (default 2.0) */
	uint64_t min_writes; /* ... and with at least this many writes in the window (100) */
	double sequential;   /* name the sequential-key pattern at this share (0.9) */
};

#define HB_HOT_PARAMS_DEFAULT                                                                      \
	{                                                                                          \
		2.0, 100, 0.9                                                                      \
	}

struct hb_hot_server {
	char *name;
	uint64_t writes, reads;
	size_t regions;
	double write_share;
};

struct hb_hotspots {
	struct hb_hot_region *r; /* rs->n entries: each region's requests in the window */
	size_t n;
	struct hb_hot_server *s;
	size_t ns;
	uint64_t total_writes, total_reads;
	double fair_share;      /* 1 / live regions */
	long sequential_region; /* the region that takes the sequential writes, or -1 */
};

void hb_hotspots_init(struct hb_hotspots *h);
/* Region i's share of the live regions' writes, 0..1. */
double hb_hotspots_share(const struct hb_hotspots *h, size_t i);
void hb_hotspots_release(struct hb_hotspots *h);

/*
 * Write shares per live region and per server over the window. Flags (as "hotspot"
 * findings) live regions whose share exceeds factor x fair share with >= min_writes writes,
 * and the sequential-key pattern when >= sequential of all writes go to the last live region
 * (or the last reachable one when reach, the audit of rs's reachability, is given). The
 * window's requests are worked out in counts->t1, which becomes out->r (counts->t1 is NULL
 * after the call, whatever its result: no second copy of a million regions' counters is
 * made); the caller still releases counts. HB_ENOMEM.
 */
int hb_audit_hotspots(struct hb_hotspots *out, struct hb_findings *f, const struct hb_regions *rs,
                      struct hb_region_counts *counts, const struct hb_audit *reach,
                      const struct hb_hot_params *p);

#endif
