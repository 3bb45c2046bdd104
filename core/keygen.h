/* Row-key generators that reproduce the seed designs' Java programs byte for byte. */
#ifndef HB_KEYGEN_H
#define HB_KEYGEN_H

#include "hb.h"
#include "key.h"

#include <stdint.h>

/* java.util.Random: the 48-bit linear congruential generator, bit for bit. */
struct hb_jrandom {
	uint64_t seed;
};

/* new Random(seed): scrambles the seed with 0x5DEECE66D. */
void hb_jrandom_init(struct hb_jrandom *r, int64_t seed);
/* Random.next(bits) for 1 <= bits <= 32, as a Java int. */
int32_t hb_jrandom_next(struct hb_jrandom *r, int bits);
/* Random.nextInt(bound) for bound > 0, with Java's rejection loop; -1 for bound <= 0. */
int32_t hb_jrandom_next_int(struct hb_jrandom *r, int32_t bound);

enum hb_keygen_kind {
	HB_KEYGEN_MD5,        /* seed 000 HashRowKeyGenerator: md5hex prefix ++ toBytes(id) */
	HB_KEYGEN_PARTITION,  /* seed 000 PartitionRowKeyManager: toBytes(id % N) ++ toBytes(id) */
	HB_KEYGEN_SEQUENTIAL, /* toBytes(id): the monotonically increasing key */
	HB_KEYGEN_HEX8,       /* 8 lower-case hex characters, each Random.nextInt(16) */
};

/* Longest key any generator produces. */
#define HB_KEYGEN_MAX_KEY 16

struct hb_keygen {
	enum hb_keygen_kind kind;
	long partitions; /* PARTITION: N (default 20) */
	int64_t id;      /* the next id (starts at 1) */
	int64_t ts;      /* MD5: the current time in ms */
	struct hb_jrandom rnd;
	void *md; /* MD5: the reused digest context (EVP_MD_CTX) */
};

/*
 * Sets up a generator from its name: "md5" (alias "hash"), "partition[:N]", "sequential",
 * "hex8". seed seeds java.util.Random; start_time is the md5 generator's first
 * currentTimeMillis. g must be fresh or released; release it with hb_keygen_release.
 * HB_EINVAL with a message for an unknown name or a bad N, HB_ENOMEM.
 */
int hb_keygen_init(struct hb_keygen *g, const char *spec, int64_t seed, int64_t start_time,
		   struct hb_error *err);
/* Frees the generator's digest context; the generator must be set up again before reuse. */
void hb_keygen_release(struct hb_keygen *g);
/* Writes the next key into out (HB_KEYGEN_MAX_KEY bytes) and returns its length. */
size_t hb_keygen_next(struct hb_keygen *g, unsigned char *out);
/* Appends count keys to out. HB_ENOMEM. */
int hb_keygen_fill(struct hb_keys *out, struct hb_keygen *g, long count, struct hb_error *err);
/* The generator names, space-separated, for help and completion. */
#define HB_KEYGEN_NAMES "md5 partition sequential hex8"

#endif
