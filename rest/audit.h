/* A table's audit over REST: regions, states, metadata row, drift, hot-spots, placement. */
#ifndef HB_REST_AUDIT_H
#define HB_REST_AUDIT_H

#include "core/audit.h"
#include "rest/hbase.h"
#include "rest/states.h"
#include "rest/tell.h"

struct hb_audit_opts {
	int meta;                 /* regions from a scan of hbase:meta, compared with REST's */
	const char *keyspace;     /* the key space given (compared with the stored one), or NULL */
	const char *meta_family;  /* the metadata row's family, NULL = the table's first */
	const char *meta_row;     /* its row key (toStringBinary), NULL = the default */
	int require_metadata;     /* a table without a metadata row is a finding */
	int hotspots;             /* measure write hot-spots from /status/cluster */
	double window;            /* seconds between the two counter readings (0: one reading) */
	struct hb_hot_params hot; /* thresholds of the hot-spot findings */
	double placement_factor;  /* hb_audit_placement's factor */
	/* the Thrift2 server to ask when hbase:meta cannot be read (may be NULL) */
	const struct hb_thrift2_channel *thrift;
	const struct hb_tell *tell; /* warns of a comparison or placement check not made */
	/* without meta: the REST listing made from hbase:meta where it can be read
	 * (HB_SOURCE_AUTO of rest/states.h), else read from REST */
	int auto_source;
};

/*
 * Audits TABLE into r (hb_audit_report_init'ed; r->ks and r->ks_canon hold the given key space
 * when there is one, else the metadata row's stored one is used, else any row key): the
 * regions (REST, or hbase:meta with o->meta) with their states, reachability and shares, chain
 * integrity, availability, the meta/REST comparison, drift against the metadata row, hot-spots
 * and placement; r->a.findings sorted. Errors as hb_rest_regions_avail, "table 'T' is disabled"
 * when its metadata row cannot be read for that reason, HB_EINVAL for a key space too large
 * to evaluate, HB_ENOMEM and the REST client's codes.
 */
int hb_rest_audit_table(struct hb_audit_report *r, struct hb_rest *c, const char *table,
                        const struct hb_audit_opts *o, struct hb_error *err);

#endif
