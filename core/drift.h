/* Design drift: a table's regions against the design its metadata row records (N, key space,
 * partitions). */
#ifndef HB_DRIFT_H
#define HB_DRIFT_H

#include "findings.h"
#include "region.h"

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
 * field uW<P, or a partition or salt split spec recorded) whether live region i starts at
 * the W-byte big-endian i (Bytes.toBytes((long) i) for W = 8). given_keyspace may be NULL.
 */
int hb_audit_drift(struct hb_findings *out, const struct hb_audit_meta *m,
                   const struct hb_regions *rs, const char *given_keyspace, struct hb_error *err);

#endif
