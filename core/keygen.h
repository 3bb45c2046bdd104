/* Row-key generators that reproduce the seed designs' Java programs byte for byte. */
#ifndef HB_KEYGEN_H
#define HB_KEYGEN_H

#include "hb.h"
#include "key.h"
#include "md5.h"

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
/* Random.nextFloat(): next(24) / 2^24. */
float hb_jrandom_next_float(struct hb_jrandom *r);
/* Random.nextDouble(): ((next(26) << 27) + next(27)) * 2^-53. */
double hb_jrandom_next_double(struct hb_jrandom *r);
/* Advances the generator by n calls of next(bits), in O(log n) (LCG jump). */
void hb_jrandom_skip(struct hb_jrandom *r, uint64_t n);

/* The first 4 bytes of MD5(in[0..7]) (the digest's leading 32 bits, in digest byte order). */
void hb_md5_8_prefix(const unsigned char in[8], unsigned char out[4]);

enum hb_keygen_kind {
	HB_KEYGEN_MD5,         /* seed 000 HashRowKeyGenerator: md5hex prefix ++ toBytes(id) */
	HB_KEYGEN_PARTITION,   /* seed 000 PartitionRowKeyManager: toBytes(id % N) ++ toBytes(id) */
	HB_KEYGEN_SEQUENTIAL,  /* toBytes(id): the monotonically increasing key */
	HB_KEYGEN_HEX8,        /* 8 lower-case hex characters, each Random.nextInt(16) */
	HB_KEYGEN_SALT,        /* seed 004 scheme 1: bucket(MD5(toBytes(id))) % B ++ toBytes(id) */
	HB_KEYGEN_ROUNDROBIN,  /* seed 004 scheme 2: counter % N ++ toBytes(id) */
	HB_KEYGEN_TRANSACTION, /* seed 003: 2-byte hash ++ 4-byte millisecond of the day */
	HB_KEYGEN_STATISTICS,  /* seed 003: 4-byte sequence ++ 2-byte minute of the day */
};

/* Longest key any generator produces. */
#define HB_KEYGEN_MAX_KEY 16

struct hb_keygen {
	enum hb_keygen_kind kind;
	long partitions; /* PARTITION, SALT, ROUNDROBIN: N or B; STATISTICS: sequences a minute */
	int width;       /* SALT, ROUNDROBIN: prefix bytes (1 when N <= 256, else 2) */
	int64_t id;      /* the next id (starts at 1) */
	int64_t ts;      /* MD5, TRANSACTION: the current time in ms; STATISTICS: start in ms */
	struct hb_jrandom rnd;
};

/*
 * Sets up a generator from its name: "md5" (alias "hash"), "partition[:N]", "sequential",
 * "hex8", "salt[:B]", "roundrobin[:N]", "transaction", "statistics[:D]". seed seeds
 * java.util.Random; start_time is the first currentTimeMillis of the time-based keys.
 * HB_EINVAL with a message for an unknown name or a bad number.
 */
int hb_keygen_init(struct hb_keygen *g, const char *spec, int64_t seed, int64_t start_time,
                   struct hb_error *err);
/* Releases nothing today; kept so callers pair every init with a release. */
void hb_keygen_release(struct hb_keygen *g);
/* Writes the next key into out (HB_KEYGEN_MAX_KEY bytes) and returns its length. */
size_t hb_keygen_next(struct hb_keygen *g, unsigned char *out);
/* The length of every key g makes (a generator's keys all have one length). */
size_t hb_keygen_width(const struct hb_keygen *g);
/* Writes the next n keys back to back into out (n x hb_keygen_width bytes): the keys that n
 * calls of hb_keygen_next make, with the MD5 inputs hashed many at a time (core/md5.h). */
void hb_keygen_next_n(struct hb_keygen *g, unsigned char *out, size_t n);
/* The md5 generator's next n keys as their digest prefixes, the first 4 digest bytes as a
 * big-endian number (pfx[i]); key i is hb_keygen_md5_key(pfx[i], id + i), id being g->id
 * before the call. The prefixes order as the keys' 8 hex characters do. */
void hb_keygen_md5_prefixes(struct hb_keygen *g, uint32_t *pfx, size_t n);
/* The md5 generator's key of a digest prefix and an id: hex(prefix) ++ toBytes(id). */
void hb_keygen_md5_key(unsigned char out[16], uint32_t prefix, int64_t id);
/* Moves past the next n keys without making them (no hashing): the state afterwards equals
 * that after n calls of hb_keygen_next. */
void hb_keygen_skip(struct hb_keygen *g, uint64_t n);
/*
 * Spans: the keys of a generator cut into pieces that threads make independently. Span i of
 * length len holds, for the generators whose clock draws may be redrawn (md5), the keys whose
 * clock draw is one of the draws i*len .. (i+1)*len - 1 of the generator's random stream;
 * for the others keys i*len .. (i+1)*len - 1. A span is scanned (cheaply: no hashing) for its
 * number of keys and the clock's advance over them; the sums of the spans before span i then
 * give the generator's state at span i's first key.
 */
struct hb_keygen_span {
	uint64_t keys;  /* keys in the span (or before it) */
	uint64_t clock; /* the clock's advance over them, modulo 2^64 */
};
/* Scans span i of length len (>= 1) of the generator whose key 0 is g's next key. */
void hb_keygen_span_scan(struct hb_keygen_span *out, const struct hb_keygen *g, uint64_t i,
                         uint64_t len);
/* The md5 clock's part of a span scan on a chosen vector unit: draws 1 .. n after the random
 * state seed, the accepted ones counted in out->keys and their values summed in out->clock
 * (added to what out holds); AVX-512 with IFMA's multiply-adds where the CPU has them.
 * hb_keygen_scan_supported says which units this build and CPU run; hb_keygen_scan_best is the
 * one the scans use. */
void hb_keygen_scan1000_with(enum hb_md5_impl impl, struct hb_keygen_span *out, uint64_t seed,
                             uint64_t n);
int hb_keygen_scan_supported(enum hb_md5_impl impl);
enum hb_md5_impl hb_keygen_scan_best(void);
/* Sets out to g advanced to span i's first key, with before the sums of spans 0 .. i - 1. */
void hb_keygen_span_start(struct hb_keygen *out, const struct hb_keygen *g, uint64_t i,
                          uint64_t len, const struct hb_keygen_span *before);
/* Appends count keys to out. HB_ENOMEM. */
int hb_keygen_fill(struct hb_keys *out, struct hb_keygen *g, long count, struct hb_error *err);
/* The generator names, space-separated, for help and completion. */
#define HB_KEYGEN_NAMES "md5 partition sequential hex8 salt roundrobin transaction statistics"

#endif
