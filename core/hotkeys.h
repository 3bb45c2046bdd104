/* Hot keys: the key prefixes (or buckets) the hot regions hold, ranked by their share of the
 * table's writes, so a hot spot is named by the keys that take it and not only by its region. */
#ifndef HB_HOTKEYS_H
#define HB_HOTKEYS_H

#include "hotspots.h"
#include "keyspace.h"
#include "region.h"

#include <stddef.h>
#include <stdint.h>

/* Regions decoded at most (the most written first), and prefixes listed per region. */
#define HB_HOT_KEYS_MAX_REGIONS  16
#define HB_HOT_KEYS_MAX_PREFIXES 256

struct hb_hot_key {
	unsigned char *prefix; /* owned: the first prefix_len bytes of its keys */
	size_t len;
	long long bucket; /* the bucket number when the prefixes are a uW<N field's, else -1 */
	double share;     /* its attributed share of the table's writes, 0..1 */
	uint64_t writes;  /* its attributed writes (rounded) */
	long region;      /* the first decoded region holding keys of it */
	size_t regions;   /* decoded regions holding keys of it */
	int measured;     /* every decoded region holding it holds no other prefix: its writes
	                   * are the regions' own counters, not a share of them */
};

struct hb_hot_keys {
	struct hb_hot_key *v; /* ranked: largest share first, then in key order */
	size_t n, cap;
	size_t prefix_len; /* bytes of a prefix */
	int buckets;       /* the prefixes are the buckets of a uW<N first field */
	size_t regions;    /* regions decoded */
	double unlisted;   /* share of the writes of decoded regions not given to a listed prefix
	                    * (past HB_HOT_KEYS_MAX_PREFIXES, or a region holding no key of K) */
	char design[48];   /* the key space decoded through when it came from the recorded split
	                    * specification (hb_hot_keys_design_keyspace), else empty */
};

void hb_hot_keys_init(struct hb_hot_keys *k);
void hb_hot_keys_release(struct hb_hot_keys *k);

/*
 * The key space a recorded split specification (read by hb_splitspec_design) implies when it
 * names the design's buckets: N partitions give "u64<N *" (8-byte partition ids), N salt
 * buckets "u8<N *" ("u16<N *" for a 2-byte salt). Writes it into out (cap >= 48) and
 * returns 1; 0 for any other specification or NULL.
 */
int hb_hot_keys_design_keyspace(const char *splits, char *out, size_t cap);

/*
 * The prefix length that names keys no coarser than the regions: the width W of a uW<N
 * first field (the buckets), else the fewest bytes (1..8) whose distinct prefixes in K are
 * at least `regions` many. HB_EINVAL (key space too large to evaluate), HB_ENOMEM.
 */
int hb_hot_keys_prefix_len(struct hb_keyspace *ks, size_t regions, size_t *len, int *buckets,
                           struct hb_error *err);

/*
 * Decodes the hot regions of rs (sorted) through ks: the live regions with writes in h and at
 * least the fair share of them, at most HB_HOT_KEYS_MAX_REGIONS (the most written), each into
 * the prefixes of its keys (hb_hot_keys_prefix_len over the live regions). A region's writes
 * are given to its prefixes in proportion to the keys of K each holds in it (the counters are
 * per region; within one, writes are taken as spread over its keys), summed over regions,
 * and the prefixes ranked by that share. out must be initialised and empty. HB_EINVAL (key
 * space too large to evaluate), HB_ENOMEM.
 */
int hb_hot_keys_compute(struct hb_hot_keys *out, struct hb_keyspace *ks,
                        const struct hb_regions *rs, const struct hb_hotspots *h,
                        struct hb_error *err);

#endif
