/* Write-distribution simulation: routing keys to regions, region statistics, and region
 * growth under HBase's split policies (memstore flushes, thresholds, middle-key splits). */
#ifndef HB_SIMULATE_H
#define HB_SIMULATE_H

#include "hb.h"
#include "key.h"
#include "keygen.h"

#include <stddef.h>
#include <stdint.h>

/* Routes row keys to the regions that fixed split keys make (k keys, k + 1 regions). */
struct hb_sim_router {
	const struct hb_keys *splits; /* borrowed; sorted and distinct */
	uint64_t *pfx;                /* each split key's first 8 bytes, big-endian, 0-padded */
	uint32_t *top; /* [t]: split keys whose prefix is below t << 48 (t = 0 .. 65536) */
	size_t n;
};

/* Prepares r over splits (kept borrowed, must outlive r). HB_ENOMEM. */
int hb_sim_router_init(struct hb_sim_router *r, const struct hb_keys *splits, struct hb_error *err);
void hb_sim_router_release(struct hb_sim_router *r);
/* The region holding key k: the number of split keys <= k (0 .. n). */
size_t hb_sim_route(const struct hb_sim_router *r, const void *k, size_t len);

/* Makes the next n keys of g and adds one to counts[region] for each. */
void hb_sim_count_generated(uint64_t *counts, const struct hb_sim_router *r, struct hb_keygen *g,
                            uint64_t n);

/* Summary of per-region write counts. */
struct hb_sim_stats {
	uint64_t total, min, max;
	size_t argmin, argmax;
	double mean, skew,
	    cv; /* skew = max / mean; cv = population stddev / mean (0 if no writes) */
};
void hb_sim_stats(struct hb_sim_stats *out, const uint64_t *counts, size_t n);

/* Draws count writes over regions whose probabilities are prob[0..n-1] (summing to 1), with
 * java.util.Random(seed).nextDouble() per write: the region distribution of uniform draws. */
void hb_sim_draw(uint64_t *counts, const double *prob, size_t n, uint64_t count, int64_t seed);

/* ---- split policies ---- */

enum hb_sim_policy {
	HB_POLICY_DISABLED,
	HB_POLICY_CONSTANT,
	HB_POLICY_INCREASING,
	HB_POLICY_STEPPING,
	HB_POLICY_KEYPREFIX,
	HB_POLICY_DELIMITED,
};

/* HBase's defaults: hbase.hregion.memstore.flush.size, hbase.hregion.max.filesize, jitter. */
#define HB_SIM_DEFAULT_FLUSH_SIZE   134217728ULL
#define HB_SIM_DEFAULT_MAX_FILESIZE 10737418240ULL
#define HB_SIM_DEFAULT_JITTER       0.25
#define HB_SIM_DEFAULT_ROW_SIZE     1024ULL

struct hb_sim_config {
	enum hb_sim_policy policy;
	long prefix_len;         /* KEYPREFIX */
	unsigned char delim[64]; /* DELIMITED */
	size_t delim_len;
	uint64_t row_size;     /* bytes each write adds */
	uint64_t flush_size;   /* memstore flush size */
	uint64_t max_filesize; /* desired max file size before jitter */
	double jitter;         /* hbase.hregion.max.filesize.jitter */
	int64_t seed;          /* seeds the jitter draws and the middle-key samples */
	size_t servers;        /* >= 1 */
};

/* Parses "stepping", "increasing", "constant", "keyprefix:L", "delimited:D", "disabled" into
 * cfg->policy (and prefix_len / delim). HB_EINVAL with a message. */
int hb_sim_policy_parse(struct hb_sim_config *cfg, const char *spec, struct hb_error *err);
/* A size in bytes: a whole number with an optional binary suffix K, M, G or T (KiB = 1024,
 * "B", "iB" may follow) from min to max; HB_EINVAL naming the setting `what`. */
int hb_sim_parse_size(const char *s, const char *what, uint64_t min, uint64_t max, uint64_t *out,
                      struct hb_error *err);
/* How messages name the sizes of hb_sim_config_parse: the caller's words for them (the
 * command line gives its option names); NULL: plain words ("the row size"). */
struct hb_sim_names {
	const char *row_size, *flush_size, *max_filesize;
};

/* The settings, unset ones NULL: HBase's defaults, then the policy (a policy needs policy
 * set) and the row size, the memstore flush size and the largest store file size within the
 * limits HBase's TableDescriptorChecker enforces. HB_EINVAL with a message naming the setting
 * as names says. */
int hb_sim_config_parse(struct hb_sim_config *cfg, const char *policy, const char *row_size,
                        const char *flush_size, const char *max_filesize,
                        const struct hb_sim_names *names, struct hb_error *err);
/* The policy's name as the command line spells it (without its parameter). */
const char *hb_sim_policy_name(enum hb_sim_policy p);

/* The size a store must exceed for a region to split: the policy's rule for `count` regions
 * of the table on the region's server, with desired the region's jittered max file size and
 * initial = 2 x flush size. UINT64_MAX for DISABLED. */
uint64_t hb_sim_threshold(enum hb_sim_policy p, long count, uint64_t desired, uint64_t initial);
/* desired after HBase's jitter for a draw u in [0,1) (ConstantSizeRegionSplitPolicy). */
uint64_t hb_sim_jittered(uint64_t desired, double jitter, float u);
/* Applies the key-prefix or delimiter restriction to a split point (in place); returns the
 * new length. */
size_t hb_sim_restrict(const struct hb_sim_config *cfg, unsigned char *point, size_t len);

struct hb_sim_region {
	unsigned char *start, *end; /* owned; NULL with length 0 = unbounded */
	size_t start_len, end_len;
	size_t server;
	uint64_t writes;     /* writes received since the region opened */
	uint64_t store;      /* bytes in store files */
	uint64_t memstore;   /* bytes not yet flushed */
	uint64_t desired;    /* jittered max file size */
	uint64_t opened_at;  /* writes before the region opened (0 for the initial regions) */
	uint64_t last_write; /* 1-based index of its last write, 0 if none */
	uint64_t seen;       /* keys the middle-key sample stands for */
	size_t nsample;
	unsigned char *sample; /* HB_SIM_SAMPLE slots of HB_SIM_SLOT bytes; length byte first */
};

#define HB_SIM_SAMPLE 128
#define HB_SIM_SLOT   64 /* 1 length byte + up to 63 key bytes */

struct hb_sim_split {
	uint64_t after_writes, after_bytes; /* totals when the split happened */
	uint64_t parent_writes;             /* writes the parent took since it opened, on server */
	size_t region;                      /* index of the parent at that time */
	size_t server;
	uint64_t size, threshold; /* the store size that exceeded the threshold */
	long count;               /* table regions on the server then */
	unsigned char key[HB_SIM_SLOT];
	size_t key_len;
};

struct hb_sim {
	struct hb_sim_config cfg;
	struct hb_sim_region *regions;
	size_t nregions, cap;
	struct hb_sim_split *splits;
	size_t nsplits, splits_cap;
	size_t *per_server; /* regions per server */
	uint64_t writes, bytes;
	uint64_t refused;       /* split points refused (at the start key or outside the region) */
	uint64_t rng;           /* sample replacement state */
	struct hb_jrandom jrnd; /* jitter draws, one per region opened */
};

/* Starts a simulation with the regions that splits make, region i placed on server
 * server_of[i] (or i % cfg->servers when server_of is NULL). HB_ENOMEM, HB_EINVAL. */
int hb_sim_init(struct hb_sim *s, const struct hb_keys *splits, const size_t *server_of,
                const struct hb_sim_config *cfg, struct hb_error *err);
void hb_sim_release(struct hb_sim *s);
/* One write of key k: memstore growth, flush, split check, split. HB_ENOMEM. */
int hb_sim_write(struct hb_sim *s, const void *k, size_t len, struct hb_error *err);

#endif
