/* Every pre-split algorithm hbtab offers, computed exactly as HBase computes it
 * (docs/hbase-keys.md). */
#ifndef HB_SPLIT_H
#define HB_SPLIT_H

#include "hb.h"
#include "key.h"

enum hb_split_algo {
	HB_SPLIT_NONE = 0,
	HB_SPLIT_HEX,       /* RegionSplitter HexStringSplit (§6.1) */
	HB_SPLIT_DECIMAL,   /* RegionSplitter DecimalStringSplit (§6.1) */
	HB_SPLIT_UNIFORM,   /* RegionSplitter UniformSplit (§6.2) */
	HB_SPLIT_RANGE,     /* Admin.createTable(desc, start, end, n) (§4) */
	HB_SPLIT_BOOK_HEX,  /* the reference guide's getHexSplits (§7.1) */
	HB_SPLIT_PARTITION, /* 8-byte big-endian longs 1..n-1 (§7.3) */
	HB_SPLIT_SALT,      /* bucket prefixes 1..n-1, big-endian, salt_width bytes */
	HB_SPLIT_SAMPLED,   /* quantiles of a sorted, de-duplicated sample (§7.2) */
	HB_SPLIT_FILE,      /* keys given one per line (already parsed into sample) */
};

/* How messages name a spec's parameters: the caller's words for them (the command line gives
 * its option names); a spec without names gets plain words ("the last row"). */
struct hb_split_names {
	const char *first, *last, *start, *end, *salt_width;
	const char *algo[HB_SPLIT_FILE + 1]; /* by enum hb_split_algo */
};

/* Largest N hbtab accepts for any algorithm (regions). */
#define HB_SPLIT_MAX_REGIONS 10000000L

struct hb_split_spec {
	enum hb_split_algo algo;
	long n; /* number of regions; n - 1 split keys */
	/* HEX / DECIMAL: row strings as typed (NULL = the algorithm's default). */
	const char *first, *last;
	/* RANGE: raw bytes. BOOK_HEX: hex text in start/end (NUL-terminated).
	 * UNIFORM: first/last row bytes (NULL = the defaults: empty and 0xFF x8). */
	const unsigned char *start, *end;
	size_t start_len, end_len;
	int salt_width; /* SALT: 1 or 2 */
	/* SAMPLED: the sample keys in any order; FILE: the keys from the file. */
	const struct hb_keys *sample;
	long sample_draws; /* SAMPLED: S, the number of keys drawn (base = S / n) */
	/* SAMPLED: when sample_step is not 0, the sample was thinned where it was made: it holds
	 * the distinct keys of ranks 0, step, 2 step, .. (in order) of a sample of
	 * sample_distinct distinct keys, and the step must be base. */
	uint64_t sample_step, sample_distinct;
	const struct hb_split_names *names; /* how messages name the parameters, or NULL */
};

/*
 * Computes the split keys (n - 1 of them, strictly increasing) into out, which must be
 * empty. HB_EINVAL with a message naming the broken precondition (n out of range, n larger
 * than the key range, first >= last, non-hex digits, ...); HB_ENOMEM.
 */
int hb_split_compute(struct hb_keys *out, const struct hb_split_spec *spec, struct hb_error *err);

/* Bytes.split(a, b, inclusive, num): num + 2 keys, endpoints included (§3). */
int hb_bytes_split(struct hb_keys *out, const unsigned char *a, size_t alen, const unsigned char *b,
                   size_t blen, int inclusive, long num, struct hb_error *err);

/*
 * RegionSplitter's two-argument split(start, end), the rolling-split midpoint, for HEX,
 * DECIMAL (rows are number text, empty = 0; (s + e) / 2 padded to the width of spec->last;
 * with hbase_29472 the end gets +1 when it equals the last row) and UNIFORM
 * (Bytes.split(start, end, 1)[1]). Appends the key to out. HB_EINVAL, HB_ENOMEM.
 */
int hb_split_midpoint(struct hb_buf *out, const struct hb_split_spec *spec, const void *start,
                      size_t slen, const void *end, size_t elen, int hbase_29472,
                      struct hb_error *err);

/*
 * RegionSplitter's split(start, end, numSplits, inclusive), the multi-mapper helper, for HEX,
 * DECIMAL and UNIFORM (empty rows mean the spec's first / last row). Appends numSplits - 1
 * keys, or numSplits + 1 with the two ends when inclusive. HB_EINVAL, HB_ENOMEM.
 */
int hb_split_between(struct hb_keys *out, const struct hb_split_spec *spec, const void *start,
                     size_t slen, const void *end, size_t elen, long num_splits, int inclusive,
                     struct hb_error *err);

/* HBase's createTable split-key check (§5) on keys as given: no empty key, no duplicates
 * after sorting. HB_EINVAL with HBase's message. */
int hb_split_verify(const struct hb_keys *keys, struct hb_error *err);

#endif
