/* A table's regions against the split keys it was designed with: the chain from the empty key
 * to the empty key, byte-for-byte boundary comparison, and the differences listed. */
#ifndef HB_BOUNDS_H
#define HB_BOUNDS_H

#include "diff.h"
#include "key.h"
#include "region.h"

/* Drops replicas (the same start and end as the region before) from a sorted list. */
void hb_bounds_dedupe_replicas(struct hb_regions *rs);
/* 1 when the sorted regions form one chain from the empty key to the empty key. */
int hb_bounds_chain_complete(const struct hb_regions *rs);
/* 1 when the sorted regions are exactly [∅,s0) [s0,s1) ... [s(k-1),∅) for sorted splits. */
int hb_bounds_equal(const struct hb_regions *rs, const struct hb_keys *splits);
/*
 * Adds to d what differs between the sorted regions and the sorted splits: a count line,
 * "- missing boundary 'K'", "+ unexpected boundary 'K'" (keys as toStringBinary) and a line
 * when the chain has holes or overlaps; closes d. HB_ENOMEM.
 */
int hb_bounds_diff(struct hb_diff *d, const struct hb_regions *rs, const struct hb_keys *splits);

#endif
