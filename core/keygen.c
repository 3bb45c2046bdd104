/* Seed row-key generators: java.util.Random, MD5 of 8 bytes, and the seeds' key designs. */
#include "keygen.h"

#include <stdlib.h>
#include <string.h>

#define JR_MULT 0x5DEECE66DULL
#define JR_ADD  0xBULL
#define JR_MASK ((1ULL << 48) - 1)

void hb_jrandom_init(struct hb_jrandom *r, int64_t seed)
{
	r->seed = ((uint64_t)seed ^ JR_MULT) & JR_MASK;
}

int32_t hb_jrandom_next(struct hb_jrandom *r, int bits)
{
	r->seed = (r->seed * JR_MULT + JR_ADD) & JR_MASK;
	/* (int)(seed >>> (48 - bits)): keep the low 32 bits as a two's-complement int. */
	return (int32_t)(uint32_t)(r->seed >> (48 - bits));
}

int32_t hb_jrandom_next_int(struct hb_jrandom *r, int32_t bound)
{
	int32_t rv, m, u;

	if (bound <= 0)
		return -1;
	rv = hb_jrandom_next(r, 31);
	m = bound - 1;
	if ((bound & m) == 0)
		return (int32_t)(((int64_t)bound * (int64_t)rv) >> 31);
	/* Java: for (u = r; u - (r = u % bound) + m < 0; u = next(31)); with int overflow. */
	for (u = rv;; u = hb_jrandom_next(r, 31)) {
		rv = u % bound;
		if ((int32_t)(uint32_t)((uint32_t)u - (uint32_t)rv + (uint32_t)m) >= 0)
			break;
	}
	return rv;
}

float hb_jrandom_next_float(struct hb_jrandom *r)
{
	return (float)hb_jrandom_next(r, 24) / (float)(1 << 24);
}

double hb_jrandom_next_double(struct hb_jrandom *r)
{
	int64_t hi = hb_jrandom_next(r, 26), lo = hb_jrandom_next(r, 27);

	return (double)((hi << 27) + lo) * 0x1.0p-53;
}

void hb_jrandom_skip(struct hb_jrandom *r, uint64_t n)
{
	/* n steps of s -> a*s + c compose to s -> A*s + C; square-and-multiply over n's bits. */
	uint64_t a = JR_MULT, c = JR_ADD, A = 1, C = 0;

	for (; n; n >>= 1) {
		if (n & 1) {
			A = (A * a) & JR_MASK;
			C = (C * a + c) & JR_MASK;
		}
		c = ((a + 1) * c) & JR_MASK;
		a = (a * a) & JR_MASK;
	}
	r->seed = (A * r->seed + C) & JR_MASK;
}

/*
 * MD5 (RFC 1321) of exactly 8 bytes: one 64-byte block whose padding is constant (0x80 after
 * the data, the bit length 64 in word 14), so only two message words vary and the zero
 * words fold away. Only the first digest word is needed; the compiler drops the last steps.
 */
#define ROTL(x, n) (((x) << (n)) | ((x) >> (32 - (n))))
#define F(x, y, z) ((z) ^ ((x) & ((y) ^ (z))))
#define G(x, y, z) ((y) ^ ((z) & ((x) ^ (y))))
#define H(x, y, z) ((x) ^ (y) ^ (z))
#define I(x, y, z) ((y) ^ ((x) | ~(z)))
#define MD5_STEP(f, a, b, c, d, t, s)                                                              \
	do {                                                                                       \
		(a) += f((b), (c), (d)) + (t);                                                     \
		(a) = ROTL((a), (s)) + (b);                                                        \
	} while (0)

void hb_md5_8_prefix(const unsigned char in[8], unsigned char out[4])
{
	uint32_t m0 =
	    (uint32_t)in[0] | (uint32_t)in[1] << 8 | (uint32_t)in[2] << 16 | (uint32_t)in[3] << 24;
	uint32_t m1 =
	    (uint32_t)in[4] | (uint32_t)in[5] << 8 | (uint32_t)in[6] << 16 | (uint32_t)in[7] << 24;
	uint32_t a = 0x67452301u, b = 0xefcdab89u, c = 0x98badcfeu, d = 0x10325476u;

	MD5_STEP(F, a, b, c, d, 0xd76aa478u + m0, 7);
	MD5_STEP(F, d, a, b, c, 0xe8c7b756u + m1, 12);
	MD5_STEP(F, c, d, a, b, 0x242070dbu + 0x80u, 17);
	MD5_STEP(F, b, c, d, a, 0xc1bdceeeu, 22);
	MD5_STEP(F, a, b, c, d, 0xf57c0fafu, 7);
	MD5_STEP(F, d, a, b, c, 0x4787c62au, 12);
	MD5_STEP(F, c, d, a, b, 0xa8304613u, 17);
	MD5_STEP(F, b, c, d, a, 0xfd469501u, 22);
	MD5_STEP(F, a, b, c, d, 0x698098d8u, 7);
	MD5_STEP(F, d, a, b, c, 0x8b44f7afu, 12);
	MD5_STEP(F, c, d, a, b, 0xffff5bb1u, 17);
	MD5_STEP(F, b, c, d, a, 0x895cd7beu, 22);
	MD5_STEP(F, a, b, c, d, 0x6b901122u, 7);
	MD5_STEP(F, d, a, b, c, 0xfd987193u, 12);
	MD5_STEP(F, c, d, a, b, 0xa679438eu + 64u, 17);
	MD5_STEP(F, b, c, d, a, 0x49b40821u, 22);
	MD5_STEP(G, a, b, c, d, 0xf61e2562u + m1, 5);
	MD5_STEP(G, d, a, b, c, 0xc040b340u, 9);
	MD5_STEP(G, c, d, a, b, 0x265e5a51u, 14);
	MD5_STEP(G, b, c, d, a, 0xe9b6c7aau + m0, 20);
	MD5_STEP(G, a, b, c, d, 0xd62f105du, 5);
	MD5_STEP(G, d, a, b, c, 0x02441453u, 9);
	MD5_STEP(G, c, d, a, b, 0xd8a1e681u, 14);
	MD5_STEP(G, b, c, d, a, 0xe7d3fbc8u, 20);
	MD5_STEP(G, a, b, c, d, 0x21e1cde6u, 5);
	MD5_STEP(G, d, a, b, c, 0xc33707d6u + 64u, 9);
	MD5_STEP(G, c, d, a, b, 0xf4d50d87u, 14);
	MD5_STEP(G, b, c, d, a, 0x455a14edu, 20);
	MD5_STEP(G, a, b, c, d, 0xa9e3e905u, 5);
	MD5_STEP(G, d, a, b, c, 0xfcefa3f8u + 0x80u, 9);
	MD5_STEP(G, c, d, a, b, 0x676f02d9u, 14);
	MD5_STEP(G, b, c, d, a, 0x8d2a4c8au, 20);
	MD5_STEP(H, a, b, c, d, 0xfffa3942u, 4);
	MD5_STEP(H, d, a, b, c, 0x8771f681u, 11);
	MD5_STEP(H, c, d, a, b, 0x6d9d6122u, 16);
	MD5_STEP(H, b, c, d, a, 0xfde5380cu + 64u, 23);
	MD5_STEP(H, a, b, c, d, 0xa4beea44u + m1, 4);
	MD5_STEP(H, d, a, b, c, 0x4bdecfa9u, 11);
	MD5_STEP(H, c, d, a, b, 0xf6bb4b60u, 16);
	MD5_STEP(H, b, c, d, a, 0xbebfbc70u, 23);
	MD5_STEP(H, a, b, c, d, 0x289b7ec6u, 4);
	MD5_STEP(H, d, a, b, c, 0xeaa127fau + m0, 11);
	MD5_STEP(H, c, d, a, b, 0xd4ef3085u, 16);
	MD5_STEP(H, b, c, d, a, 0x04881d05u, 23);
	MD5_STEP(H, a, b, c, d, 0xd9d4d039u, 4);
	MD5_STEP(H, d, a, b, c, 0xe6db99e5u, 11);
	MD5_STEP(H, c, d, a, b, 0x1fa27cf8u, 16);
	MD5_STEP(H, b, c, d, a, 0xc4ac5665u + 0x80u, 23);
	MD5_STEP(I, a, b, c, d, 0xf4292244u + m0, 6);
	MD5_STEP(I, d, a, b, c, 0x432aff97u, 10);
	MD5_STEP(I, c, d, a, b, 0xab9423a7u + 64u, 15);
	MD5_STEP(I, b, c, d, a, 0xfc93a039u, 21);
	MD5_STEP(I, a, b, c, d, 0x655b59c3u, 6);
	MD5_STEP(I, d, a, b, c, 0x8f0ccc92u, 10);
	MD5_STEP(I, c, d, a, b, 0xffeff47du, 15);
	MD5_STEP(I, b, c, d, a, 0x85845dd1u + m1, 21);
	MD5_STEP(I, a, b, c, d, 0x6fa87e4fu, 6);
	MD5_STEP(I, d, a, b, c, 0xfe2ce6e0u, 10);
	MD5_STEP(I, c, d, a, b, 0xa3014314u, 15);
	MD5_STEP(I, b, c, d, a, 0x4e0811a1u, 21);
	MD5_STEP(I, a, b, c, d, 0xf7537e82u, 6);
	MD5_STEP(I, d, a, b, c, 0xbd3af235u, 10);
	MD5_STEP(I, c, d, a, b, 0x2ad7d2bbu + 0x80u, 15);
	MD5_STEP(I, b, c, d, a, 0xeb86d391u, 21);
	a += 0x67452301u;
	(void)b;
	(void)c;
	(void)d;
	out[0] = (unsigned char)a;
	out[1] = (unsigned char)(a >> 8);
	out[2] = (unsigned char)(a >> 16);
	out[3] = (unsigned char)(a >> 24);
}

static void put_be64(unsigned char *out, int64_t v)
{
	uint64_t u = (uint64_t)v;
	int i;

	for (i = 7; i >= 0; i--, u >>= 8)
		out[i] = (unsigned char)(u & 0xFF);
}

static void put_be(unsigned char *out, uint64_t v, int width)
{
	int i;

	for (i = width - 1; i >= 0; i--, v >>= 8)
		out[i] = (unsigned char)(v & 0xFF);
}

#define GENERATORS                                                                                 \
	"md5, partition[:N], sequential, hex8, salt[:B], roundrobin[:N], transaction or "          \
	"statistics[:D]"

/* The generators by name; those with a count take it as NAME:N. */
static const struct {
	const char *name;
	enum hb_keygen_kind kind;
	const char *count; /* what N counts, NULL when the generator takes none */
	long max, def;
} generators[] = {
    {"md5", HB_KEYGEN_MD5, NULL, 0, 0},
    {"hash", HB_KEYGEN_MD5, NULL, 0, 0},
    {"sequential", HB_KEYGEN_SEQUENTIAL, NULL, 0, 0},
    {"hex8", HB_KEYGEN_HEX8, NULL, 0, 0},
    {"transaction", HB_KEYGEN_TRANSACTION, NULL, 0, 0},
    {"partition", HB_KEYGEN_PARTITION, "partition count", 100000000L, 20},
    {"salt", HB_KEYGEN_SALT, "bucket count", 65536, 16},
    {"roundrobin", HB_KEYGEN_ROUNDROBIN, "prefix count", 65536, 16},
    {"statistics", HB_KEYGEN_STATISTICS, "sequences per minute", 1000000000L, 1000},
};

/* Parses the ":N" after a generator name (p); def when absent. */
static int parse_count(const char *spec, const char *p, const char *what, long min, long max,
                       long def, long *out, struct hb_error *err)
{
	long v = 0;

	if (*p == '\0') {
		*out = def;
		return 0;
	}
	p++; /* the ':' */
	if (!*p)
		return hb_error_set(err, HB_EINVAL, "generator '%s': the %s is missing", spec,
		                    what);
	for (; *p; p++) {
		if (*p < '0' || *p > '9' || v > max)
			break;
		v = v * 10 + (*p - '0');
	}
	if (*p || v < min || v > max)
		return hb_error_set(err, HB_EINVAL,
		                    "generator '%s': the %s must be a whole number from %ld to %ld",
		                    spec, what, min, max);
	*out = v;
	return 0;
}

/* 1 when spec is name, or name:... for a generator with a count. */
static int name_is(const char *spec, const char *name, int counted)
{
	size_t n = strlen(name);

	return !strncmp(spec, name, n) && (spec[n] == '\0' || (counted && spec[n] == ':'));
}

int hb_keygen_init(struct hb_keygen *g, const char *spec, int64_t seed, int64_t start_time,
                   struct hb_error *err)
{
	size_t i;
	int rc = 0;

	memset(g, 0, sizeof(*g));
	g->id = 1;
	g->ts = start_time;
	g->partitions = 20;
	hb_jrandom_init(&g->rnd, seed);
	for (i = 0; i < HB_ARRAY_LEN(generators); i++)
		if (name_is(spec, generators[i].name, generators[i].count != NULL))
			break;
	if (i == HB_ARRAY_LEN(generators))
		return hb_error_set(err, HB_EINVAL, "unknown generator '%s' (expected %s)", spec,
		                    GENERATORS);
	g->kind = generators[i].kind;
	if (generators[i].count)
		rc = parse_count(spec, spec + strlen(generators[i].name), generators[i].count, 1,
		                 generators[i].max, generators[i].def, &g->partitions, err);
	g->width = g->partitions <= 256 ? 1 : 2;
	return rc;
}

void hb_keygen_release(struct hb_keygen *g)
{
	(void)g;
}

/* Java's Math.floorMod(x, m) for m > 0. */
static int64_t floor_mod(int64_t x, int64_t m)
{
	int64_t r = x % m;

	return r < 0 ? r + m : r;
}

#define MS_PER_DAY 86400000LL

/* currentTime += random.nextInt(bound): the time-based generators' clock. */
static void tick(struct hb_keygen *g, int32_t bound)
{
	g->ts = (int64_t)((uint64_t)g->ts + (uint64_t)hb_jrandom_next_int(&g->rnd, bound));
}

size_t hb_keygen_next(struct hb_keygen *g, unsigned char *out)
{
	static const char hex[] = "0123456789abcdef";
	int64_t id = g->id;
	unsigned char in[8], md[4];
	int i;

	g->id = (int64_t)((uint64_t)g->id + 1);
	switch (g->kind) {
	case HB_KEYGEN_MD5: {
		uint32_t lo_id = (uint32_t)(uint64_t)id, lo_ts;

		/* currentTime += random.nextInt(1000) happens before the key is made. */
		tick(g, 1000);
		lo_ts = (uint32_t)(uint64_t)g->ts;
		put_be(in, lo_id, 4);
		put_be(in + 4, lo_ts, 4);
		hb_md5_8_prefix(in, md);
		for (i = 0; i < 4; i++) {
			out[2 * i] = (unsigned char)hex[md[i] >> 4];
			out[2 * i + 1] = (unsigned char)hex[md[i] & 15];
		}
		put_be64(out + 8, id);
		return 16;
	}
	case HB_KEYGEN_PARTITION:
		put_be64(out, id % g->partitions); /* C and Java agree: the sign of the dividend */
		put_be64(out + 8, id);
		return 16;
	case HB_KEYGEN_SEQUENTIAL:
		put_be64(out, id);
		return 8;
	case HB_KEYGEN_HEX8:
		for (i = 0; i < 8; i++)
			out[i] = (unsigned char)hex[hb_jrandom_next_int(&g->rnd, 16)];
		return 8;
	case HB_KEYGEN_SALT: {
		uint32_t h;

		/* bucket = (first 4 digest bytes as an unsigned big-endian int) % B */
		put_be64(in, id);
		hb_md5_8_prefix(in, md);
		h = (uint32_t)md[0] << 24 | (uint32_t)md[1] << 16 | (uint32_t)md[2] << 8 | md[3];
		put_be(out, h % (uint32_t)g->partitions, g->width);
		put_be64(out + g->width, id);
		return (size_t)g->width + 8;
	}
	case HB_KEYGEN_ROUNDROBIN:
		/* the counter starts at 0 with id 1: prefixes 0, 1, .., N-1, 0, .. */
		put_be(out, (uint64_t)((id - 1) % g->partitions), g->width);
		put_be64(out + g->width, id);
		return (size_t)g->width + 8;
	case HB_KEYGEN_TRANSACTION: {
		int32_t hash;

		tick(g, 4);
		hash = hb_jrandom_next_int(&g->rnd, 65536);
		put_be(out, (uint64_t)hash, 2);
		put_be(out + 2, (uint64_t)floor_mod(g->ts, MS_PER_DAY), 4);
		return 6;
	}
	case HB_KEYGEN_STATISTICS: {
		/* key i (0-based): sequence i % D of minute (start minute + i / D) of the day */
		int64_t i0 = id - 1;
		int64_t minute = floor_mod(g->ts, MS_PER_DAY) / 60000 + i0 / g->partitions;

		put_be(out, (uint64_t)(i0 % g->partitions), 4);
		put_be(out + 4, (uint64_t)(minute % 1440), 2);
		return 6;
	}
	}
	HB_BUG("unknown generator kind");
	return 0;
}

void hb_keygen_skip(struct hb_keygen *g, uint64_t n)
{
	uint64_t i;

	switch (g->kind) {
	case HB_KEYGEN_MD5:
		/* the time still needs every draw: nextInt(1000) may reject and draw again */
		for (i = 0; i < n; i++)
			tick(g, 1000);
		break;
	case HB_KEYGEN_HEX8:
		/* nextInt(16) is one next(31) each: 8 per key, never rejected */
		hb_jrandom_skip(&g->rnd, 8 * n);
		break;
	case HB_KEYGEN_TRANSACTION:
		for (i = 0; i < n; i++) {
			tick(g, 4);
			hb_jrandom_skip(&g->rnd, 1);
		}
		break;
	default:
		break; /* the rest depend on the id alone */
	}
	g->id = (int64_t)((uint64_t)g->id + n);
}

int hb_keygen_fill(struct hb_keys *out, struct hb_keygen *g, long count, struct hb_error *err)
{
	unsigned char k[HB_KEYGEN_MAX_KEY];
	long i;

	if (count > 0 && hb_keys_reserve(out, (size_t)count, (size_t)count * HB_KEYGEN_MAX_KEY))
		return hb_error_set(err, HB_ENOMEM, "out of memory");
	for (i = 0; i < count; i++) {
		size_t len = hb_keygen_next(g, k);

		if (hb_keys_push(out, k, len))
			return hb_error_set(err, HB_ENOMEM, "out of memory");
	}
	return 0;
}
