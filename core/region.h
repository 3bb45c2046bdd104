/* A table's regions as read from REST /T/regions, hbase:meta or Thrift2, in one shape. */
#ifndef HB_REGION_H
#define HB_REGION_H

#include "hb.h"

#include <stddef.h>
#include <stdint.h>

struct hb_region {
	unsigned char *start; /* raw start key; empty = unbounded below */
	size_t start_len;
	unsigned char *end; /* raw end key; empty = unbounded above */
	size_t end_len;
	unsigned char *name; /* region name bytes (table,start,id.encoded.), may be NULL */
	size_t name_len;
	char *encoded;      /* 32 lower-case hex chars, or NULL when unknown */
	char *server;       /* "host:port", NULL when the region has no server */
	char *state;        /* meta info:state (OPEN, CLOSED, ...), NULL when unknown */
	uint64_t id;        /* region id (creation time in ms) */
	int64_t start_code; /* server start code, 0 when unknown */
	int replica_id;
	int offline; /* meta flags; REST never reports these */
	int split;
	int packed; /* the strings share one allocation at start (hb_region_copy) */
};

struct hb_regions {
	struct hb_region *v;
	size_t n, cap;
};

void hb_regions_init(struct hb_regions *rs);
/* Frees every region's strings and the array. */
void hb_regions_release(struct hb_regions *rs);
/* Appends a deep copy of r (all pointers may be NULL). HB_ENOMEM. */
int hb_regions_push(struct hb_regions *rs, const struct hb_region *r);
/* Sorts by start key, then end key (empty end last), then id. */
void hb_regions_sort(struct hb_regions *rs);
/* Frees the strings of one region (not the struct). */
void hb_region_release(struct hb_region *r);
/* Deep-copies r into *out with all its strings in one allocation (out->packed = 1; a field
 * of such a copy is replaced by making a new copy). HB_ENOMEM. */
int hb_region_copy(struct hb_region *out, const struct hb_region *r);

#endif
