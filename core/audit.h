/* hbtab audit's own checks (region states, availability, the meta/REST comparison) and the
 * report that gathers every analysis; each analysis has its header, included here. */
#ifndef HB_AUDIT_H
#define HB_AUDIT_H

#include "chain.h"
#include "drift.h"
#include "findings.h"
#include "hb.h"
#include "hotspots.h"
#include "key.h"
#include "keyspace.h"
#include "reach.h"
#include "region.h"

#include <gmp.h>
#include <stddef.h>
#include <stdint.h>

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
