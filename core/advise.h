/* hbtab advise's rule: how many regions (N) a table should have, with every input and cost. */
#ifndef HB_ADVISE_H
#define HB_ADVISE_H

#include "hb.h"
#include "key.h"

#include <stddef.h>
#include <stdint.h>

/* Regions per live server the rule asks for by default. */
#define HB_ADVISE_PER_SERVER 2
/* A region starts at this fraction of the size HBase splits it at: it can double first. */
#define HB_ADVISE_FILL 0.5

/* Why N is below what the rule wanted. */
enum hb_advise_bound {
	HB_ADVISE_UNBOUND,
	HB_ADVISE_BOUND_SPEC,    /* the split specification cannot make more regions */
	HB_ADVISE_BOUND_BUCKETS, /* the key space's first field has no more buckets */
};

struct hb_advise_in {
	uint64_t servers;    /* live region servers, >= 1 */
	uint64_t size;       /* the table's store size in bytes (store files + memstores) */
	uint64_t split_size; /* the region size the cluster splits at (MAX_FILESIZE), >= 1 */
	uint64_t per_server; /* regions per server wanted (K), >= 1 */
	uint64_t n_max;      /* the most regions the split specification can make, 0 = no limit */
	uint64_t buckets;    /* the key space's buckets (a uW<N first field's N), 0 = none */
};

/*
 * The rule. A region is a unit of parallelism and of size: every live server should hold K of
 * the table's regions (one more server's worth of regions to hand out when a server is lost,
 * and K scanners per server for a full scan), and no region should start above half the size
 * HBase splits it at. So
 *     N = max(servers x K, ceil(size / (split size x 1/2)))
 * rounded up to a multiple of the servers (the balancer then gives every server the same
 * count), then at most what the split specification can make and at most the buckets of a
 * bucketed key space (more regions than buckets hold no key).
 */
struct hb_advise {
	uint64_t target;    /* target region size: split size x HB_ADVISE_FILL */
	uint64_t n_servers; /* servers x K */
	uint64_t n_size;    /* ceil(size / target), at least 1 */
	uint64_t n_wanted;  /* max of the two, rounded up to a multiple of servers */
	uint64_t n;         /* the recommendation */
	enum hb_advise_bound bound;
	int size_decides; /* n_size > n_servers: the size, not the servers, sets N */
};

/* Applies the rule. HB_EINVAL when servers, split_size or per_server is 0, or N overflows. */
int hb_advise_compute(struct hb_advise *out, const struct hb_advise_in *in, struct hb_error *err);

/* What N regions cost on a cluster: regions per server, each region's size, how full that is
 * of the split size, and a full-table scan's scanners (one region scanner per region, as
 * HBase's client and TableInputFormat open them; the most any server serves at once). */
struct hb_advise_cost {
	uint64_t n;
	double per_server;
	uint64_t region_size;
	double split_fill;
	uint64_t scanners, scanners_per_server;
};

void hb_advise_cost(struct hb_advise_cost *out, uint64_t n, uint64_t servers, uint64_t size,
                    uint64_t split_size);

/*
 * The skew of a key sample over the regions that split keys make: the most keys any region
 * gets over the mean (1 = even; N = all in one region), from simulate's router. 0 when the
 * sample is empty. HB_ENOMEM.
 */
int hb_advise_skew(double *skew, const struct hb_keys *splits, const struct hb_keys *sample,
                   struct hb_error *err);

/* The same for count keys drawn uniformly from key space spec (java.util.Random(seed)).
 * HB_EINVAL for a bad spec (message "WHAT 'SPEC': ...", hb_simrun_keyspace), HB_ENOMEM. */
int hb_advise_skew_keyspace(double *skew, const struct hb_keys *splits, const char *spec,
                            const char *what, uint64_t count, int64_t seed, struct hb_error *err);

#endif
