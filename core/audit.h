/* hbtab audit's computations: reachability shares, region-chain integrity, drift, hot-spots. */
#ifndef HB_AUDIT_H
#define HB_AUDIT_H

#include "hb.h"
#include "key.h"
#include "keyspace.h"
#include "region.h"

#include <gmp.h>
#include <stddef.h>
#include <stdint.h>

/* Finding kinds (the exact strings of the JSON contract). */
#define HB_FIND_UNREACHABLE        "unreachable"
#define HB_FIND_HOLE               "hole"
#define HB_FIND_OVERLAP            "overlap"
#define HB_FIND_DUPLICATE          "duplicate"
#define HB_FIND_OFFLINE            "offline"
#define HB_FIND_SPLIT_PARENT       "split_parent"
#define HB_FIND_NO_SERVER          "no_server"
#define HB_FIND_DRIFT              "drift"
#define HB_FIND_HOTSPOT            "hotspot"
#define HB_FIND_META_REST_MISMATCH "meta_rest_mismatch"
#define HB_FIND_BAD_FIRST_START    "bad_first_start"
#define HB_FIND_BAD_LAST_END       "bad_last_end"
#define HB_FIND_MISSING_METADATA   "missing_metadata"
#define HB_FIND_PLACEMENT          "placement"
#define HB_FIND_DISABLED           "disabled"
#define HB_FIND_NOT_OPEN           "not_open"
#define HB_FIND_STATE_UNKNOWN      "state_unknown"

struct hb_finding {
	const char *kind; /* one of HB_FIND_* (static) */
	long region;      /* index into the audited region list, or -1 */
	char *message;    /* owned; keys in toStringBinary form */
};

struct hb_findings {
	struct hb_finding *v;
	size_t n, cap;
};

void hb_findings_init(struct hb_findings *f);
void hb_findings_release(struct hb_findings *f);
/* Appends a finding with a printf-style message. HB_ENOMEM. */
int hb_findings_add(struct hb_findings *f, const char *kind, long region, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* Appends a finding whose message is the len bytes at msg (copied). HB_ENOMEM. */
int hb_findings_add_text(struct hb_findings *f, const char *kind, long region, const char *msg,
                         size_t len);
/* Stable sort: findings with a region first (by region), then the table-wide ones. */
void hb_findings_sort(struct hb_findings *f);

/* A region is live (part of the chain HBase serves) unless offline, a split parent or a
 * replica (replica_id > 0). */
int hb_region_is_live(const struct hb_region *r);

/*
 * Findings from what hbase:meta says about availability (docs/hbase-wire.md §3, §6.3): a
 * table whose table_state (HB_TABLE_*) is known and not ENABLED gives "disabled"; unless the
 * table is DISABLED (all its regions closed), every live region whose state is known and not
 * OPEN gives "not_open" (its server is then only where it last was). table is the name shown
 * in messages. HB_ENOMEM.
 */
int hb_audit_states(struct hb_findings *out, const char *table, int table_state,
                    const struct hb_regions *rs);
/* The number of live regions of rs whose known state is not OPEN. */
size_t hb_regions_not_open(const struct hb_regions *rs);

/* What is known of a table's availability beside its regions' states. */
struct hb_table_avail {
	int table_state;     /* HB_TABLE_* or -1 when nothing could tell */
	int available;       /* Thrift2 isTableAvailable: 1 / 0, -1 when it was not asked */
	struct hb_error why; /* code != 0: table_state is unknown; msg says what was tried */
	int read_meta;       /* the regions were read from hbase:meta (1) or REST /T/regions (0) */
	struct hb_error meta_why; /* HB_SOURCE_AUTO read REST: why meta was not read (code != 0) */
};

/*
 * hb_audit_states with av's table state, then a table-wide "not_open" for an ENABLED table
 * Thrift2 calls not available, then (unknown state is never health) a "state_unknown" whose
 * message is av->why's followed by unknown_tail. HB_ENOMEM.
 */
int hb_audit_availability(struct hb_findings *out, const char *table,
                          const struct hb_table_avail *av, const struct hb_regions *rs,
                          const char *unknown_tail);

/* Regions [∅,s0) [s0,s1) ... [s(k-1),∅) from sorted split keys (ModifyRegionUtils). out must
 * be empty. HB_ENOMEM. */
int hb_audit_regions_from_splits(struct hb_regions *out, const struct hb_keys *splits);

struct hb_audit_region {
	int reachable; /* 1 / 0; -1 when no key space was given */
	double share;  /* share of the key space's keys, 0..1 (0 without a key space) */
	char *keys;    /* the exact key count in decimal; NULL without a key space */
};

/* A million regions' results in 4 bytes each: a region's share is a function of its key count
 * and evenly split tables repeat a handful of counts, so each distinct count is kept once. */
struct hb_audit {
	uint32_t *r; /* one per audited region, same indices: HB_AUDIT_REACHABLE | count + 1 (0
	              * when no key space was given); read with hb_audit_at */
	size_t n;
	struct hb_audit_region *counts; /* the distinct counts (keys owned, reachable unused) */
	size_t ncounts, counts_cap;
	char *total_keys; /* #K in decimal (prefixes for a '*' tail); NULL without a key space */
	struct hb_findings findings;
};

#define HB_AUDIT_REACHABLE 0x80000000u

void hb_audit_init(struct hb_audit *a);
/* Region i's result (keys owned by a). */
void hb_audit_at(const struct hb_audit *a, size_t i, struct hb_audit_region *out);
void hb_audit_release(struct hb_audit *a);

/*
 * Sizes a->r for rs and, when ks is not NULL, decides each region's reachability and exact
 * share of K; adds an "unreachable" finding for every unreachable live region. rs should be
 * sorted (hb_regions_sort) so that shared bounds are counted once. HB_EINVAL (key space too
 * large to evaluate), HB_ENOMEM.
 */
int hb_audit_reach(struct hb_audit *a, struct hb_keyspace *ks, const struct hb_regions *rs,
                   struct hb_error *err);

/*
 * Region-chain integrity over sorted rs: offline regions and split parents (reported as
 * such) and replicas are left out of the chain; the live chain must start and end unbounded
 * with no hole, overlap or duplicate. from_meta: flags regions without a server. REST lists
 * a replica as a second entry with the same bounds and id; such entries are not duplicates.
 */
int hb_audit_chain(struct hb_findings *out, const struct hb_regions *rs, int from_meta);

/*
 * The same two checks one region at a time, for lists too long to hold (regions in sorted
 * order, i counting from 0; findings are appended to f / out as each region is decided).
 * hb_reach_stream_next sets out->keys to a string owned by s, valid until the next call;
 * with f NULL it decides the region without making its finding. s->unreachable counts the
 * "unreachable" findings due so far, made or not. With s->decide_only set (after begin) the
 * keys are not counted: out->keys is NULL and out->share 0. With s->escape_messages set
 * (after begin) messages are made with a backslash before each '"' and '\\', as the body of
 * a JSON string: a message is printable ASCII and only its keys hold those two characters.
 * With s->keep_message set (after begin) and f NULL, the message of the region's finding is
 * left in s->msg, valid until the next call (empty when the region makes none).
 * hb_chain_stream keeps copies of the previous and covering regions' bounds only.
 */
#define HB_REACH_MEMO 4
struct hb_reach_stream {
	struct hb_keyspace *ks;
	mpz_t total, keys;
	char *total_keys; /* #K in decimal */
	struct hb_buf first, msg;
	/* The last few distinct key counts with their decimal form and share: evenly split
	 * chains repeat a handful of counts, so most regions need no conversion. */
	struct {
		mpz_t keys;
		struct hb_buf num;
		double share;
		int used;
	} memo[HB_REACH_MEMO];
	unsigned memo_next;
	/* The quoted message form of the last few keys: a region starts at the bound the one
	 * before ended at and most regions' smallest key is one and the same, so most keys of a
	 * message need no formatting. */
	struct {
		struct hb_buf key, text;
		unsigned long used; /* when last used (0 = empty): the least recent goes first */
	} quoted[HB_REACH_MEMO];
	unsigned long quoted_clock;
	size_t unreachable;
	int decide_only, escape_messages, keep_message;
	int inited;
};

int hb_reach_stream_begin(struct hb_reach_stream *s, struct hb_keyspace *ks, struct hb_error *err);
int hb_reach_stream_next(struct hb_reach_stream *s, size_t i, const struct hb_region *r,
                         struct hb_audit_region *out, struct hb_findings *f, struct hb_error *err);
void hb_reach_stream_release(struct hb_reach_stream *s);

struct hb_chain_stream {
	int from_meta;
	long prev, cover;
	uint64_t pid;
	struct hb_buf ps, pe, cs, ce, m;
};

void hb_chain_stream_init(struct hb_chain_stream *s, int from_meta);
int hb_chain_stream_next(struct hb_chain_stream *s, struct hb_findings *out, size_t i,
                         const struct hb_region *r);
/* The table-wide end of the chain: no live region, or a last region with an end key. */
int hb_chain_stream_end(struct hb_chain_stream *s, struct hb_findings *out);
void hb_chain_stream_release(struct hb_chain_stream *s);

/* Compares the live regions of two sorted lists by bounds: each region in one and not the
 * other is a "meta_rest_mismatch" (region = index in primary, -1 for one only in other). */
int hb_audit_compare(struct hb_findings *out, const struct hb_regions *primary,
                     const char *primary_name, const struct hb_regions *other,
                     const char *other_name);
/* The same with the other list's regions given one at a time, in any order (so that list is
 * never held): a bit per primary region, and copies of the bounds of other's regions that
 * match none. The findings are those of hb_audit_compare once sorted (hb_findings_sort). */
struct hb_compare {
	const struct hb_regions *primary;
	unsigned char *seen;
	struct hb_regions extra;
};
int hb_compare_begin(struct hb_compare *c, const struct hb_regions *primary);
int hb_compare_add(struct hb_compare *c, const struct hb_region *r);
int hb_compare_end(struct hb_compare *c, struct hb_findings *out, const char *primary_name,
                   const char *other_name);
void hb_compare_release(struct hb_compare *c);

/* The metadata row's qualifiers as read (NULL = absent). */
struct hb_audit_meta {
	int present; /* the row exists */
	const char *n;
	const char *keyspace;
	const char *splits;
	int require; /* a missing row is a finding (otherwise nothing to compare: no finding) */
};

/*
 * Drift between the metadata row and the table (sorted rs): stored N vs live region count,
 * stored vs given key space (canonical comparison), and for partition-style tables (first
 * field uW<P, or --partition-splits / --salt-splits stored) whether live region i starts at
 * the W-byte big-endian i (Bytes.toBytes((long) i) for W = 8). given_keyspace may be NULL.
 */
int hb_audit_drift(struct hb_findings *out, const struct hb_audit_meta *m,
                   const struct hb_regions *rs, const char *given_keyspace, struct hb_error *err);

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

/* A table's audit as the command shows it: the regions, each one's result, the findings
 * (sorted: hb_findings_sort) and, when measured, the hot-spots. */
struct hb_audit_report {
	const char *table;  /* borrowed */
	const char *source; /* "rest" or "meta" (static) */
	int read_meta;      /* the regions were read from hbase:meta (1) or REST /T/regions (0) */
	struct hb_regions rs;
	struct hb_keyspace *ks; /* owned; '*' (any row key) when any_key */
	int any_key;            /* no key space known: regions checked against any row key */
	struct hb_buf ks_canon; /* ks in canonical form (empty when any_key) */
	struct hb_audit a;
	struct hb_hotspots hot;
	int have_hot;
	double window;  /* seconds asked for between the two counter readings */
	double elapsed; /* measured between the two counter readings; 0 with one reading */
	int metadata;   /* 1 the metadata row exists, 0 it does not, -1 unknown */
	char *stored_n; /* N as the metadata row stores it (owned), NULL when it has none */
	struct hb_hot_keys *hot_keys; /* owned: the hot regions' key prefixes (core/hotkeys.h),
	                               * NULL when not decoded (no hot-spots, no key space) */
	char *stored_splits;          /* the split spec the metadata row stores (owned), or NULL */
};

void hb_audit_report_init(struct hb_audit_report *r);
void hb_audit_report_release(struct hb_audit_report *r);

#endif
