/* The buckets of a design whose row keys depend on N (partitions, salt prefixes): what the
 * recorded design or the live boundaries make, and whether a range crosses the start of one.
 * repair's --empty and reshape keep every merge inside one bucket. Pure computation. */
#ifndef HB_BUCKETS_H
#define HB_BUCKETS_H

#include "keyspace.h"
#include "region.h"

#include <stddef.h>

/*
 * The buckets of a design whose row keys depend on N: bucket k (0 <= k < parts) holds the keys
 * from k written as width big-endian bytes up to the start of bucket k + 1; bucket 0 also
 * holds every key below 1. parts 0: no buckets (any merge of adjacent regions is allowed).
 */
struct hb_buckets {
	unsigned long long parts;
	int width;        /* 1, 2 or 8 */
	const char *kind; /* "partition" or "salt" (static), NULL without buckets */
};

/*
 * The buckets the recorded design makes: a key space whose first field is uW<P (partitions
 * P, width W); else a stored split spec with --partition-splits (8-byte partitions, N of
 * them) or --salt-splits (N salt prefixes of --salt-width bytes, 1 by default). splits and
 * ks may be NULL; n is the stored N (0: unknown, then a spec alone makes no buckets).
 */
void hb_buckets_of_design(struct hb_buckets *out, const char *splits, unsigned long long n,
                          const struct hb_keyspace *ks);

/* The buckets the live boundaries themselves show when no design is recorded: 1 when the n
 * regions of rs start exactly at 1..n-1 written as 1-, 2- (salt) or 8-byte (partition)
 * big-endian numbers, with out filled; else 0. */
int hb_buckets_of_boundaries(struct hb_buckets *out, const struct hb_regions *rs);

/* 1 when the range [start, end) (end_len 0: to the table's end) holds the start of a bucket
 * strictly inside it, i.e. one region over it would hold rows of two buckets. */
int hb_buckets_crossed(const struct hb_buckets *b, const void *start, size_t start_len,
                       const void *end, size_t end_len);

#endif
