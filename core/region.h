/* A table's regions as read from REST /T/regions, hbase:meta or Thrift2, in one shape. */
#ifndef HB_REGION_H
#define HB_REGION_H

#include "hb.h"

#include <stddef.h>
#include <stdint.h>

/* One region with its strings: as a decoder builds it, or as read from a list (a view). */
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
	/* The producer's word that name is "table,start,id[_REPL].encoded." built from this
	 * region's own start, id, replica_id and encoded (a list then keeps it without comparing
	 * it byte for byte); 0 = unknown. A list's views set it on the names they rebuild. */
	int name_canonical;
};

/*
 * A list of regions, compact because a table can have a million of them (about 60 bytes a
 * region instead of 250): each region is a fixed record; keys, names that are not the
 * canonical "table,start,id[_rep].encoded." and odd encoded names live in one byte arena;
 * a region's start shares the bytes of the previous region's equal end; a canonical name is
 * rebuilt when read and the encoded name is kept as 16 raw bytes; servers and states are
 * kept once each. Read a region with hb_regions_at; the fields below are the list's own.
 */
struct hb_region_rec;
struct hb_region_pool {
	unsigned char **v; /* entries, each a length-prefixed byte string */
	size_t n, cap;
	uint32_t *slot; /* open addressing: entry index + 1, 0 = empty */
	size_t nslot;
};

struct hb_regions {
	struct hb_region_rec *rec;
	size_t n, cap;
	unsigned char *arena;
	size_t arena_len, arena_cap;
	struct hb_region_pool locs, states;
	uint32_t prefix; /* arena offset of the table part of the first region name, 0 = none */
};

/* A region read from a list: r points into the list and into this view's own buffers, valid
 * until the list changes or the view is used again. */
#define HB_REGION_NAME_INLINE 384
struct hb_region_view {
	struct hb_region r;
	char encoded[33];
	unsigned char name[HB_REGION_NAME_INLINE + 1];
};

void hb_regions_init(struct hb_regions *rs);
/* Frees everything the list holds. */
void hb_regions_release(struct hb_regions *rs);
/* Appends a copy of r (all pointers may be NULL). HB_ENOMEM (also when the list would pass
 * 4 GiB of keys and names). */
int hb_regions_push(struct hb_regions *rs, const struct hb_region *r);
/* Region i (< rs->n) as a struct hb_region in v; returns &v->r. */
const struct hb_region *hb_regions_at(const struct hb_regions *rs, size_t i,
                                      struct hb_region_view *v);
/* Region i without its names (name and encoded NULL; rebuilding a canonical name is most of
 * the cost of a read): for the passes that use neither. */
const struct hb_region *hb_regions_at_unnamed(const struct hb_regions *rs, size_t i,
                                              struct hb_region_view *v);
/* Region i's bounds only (cheaper than hb_regions_at); the pointers are valid until the list
 * changes. */
void hb_regions_bounds(const struct hb_regions *rs, size_t i, const unsigned char **start,
                       size_t *start_len, const unsigned char **end, size_t *end_len);
/* The index of the first region whose start key is >= k, in a list sorted by start key. */
size_t hb_regions_lower_bound(const struct hb_regions *rs, const unsigned char *k, size_t n);
/* Replaces region i's state (NULL = unknown). HB_ENOMEM. */
int hb_regions_set_state(struct hb_regions *rs, size_t i, const char *state);
/* Makes region dst a copy of region src (dst <= src; for compacting a list in place). */
void hb_regions_move(struct hb_regions *rs, size_t dst, size_t src);
/* Keeps the first n regions (n <= rs->n). */
void hb_regions_truncate(struct hb_regions *rs, size_t n);
/* Sorts by start key, then end key (empty end last), then id, in place. */
void hb_regions_sort(struct hb_regions *rs);
/* Frees the strings of a region a caller built with malloc'ed fields (not a view). */
void hb_region_release(struct hb_region *r);

#endif
