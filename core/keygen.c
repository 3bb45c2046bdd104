/* Seed row-key generators: java.util.Random, MD5 of 8 bytes, and the seeds' key designs. */
#include "keygen.h"

#include "md5.h"

#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#endif

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

/* Random.nextInt(bound); static inline so that a constant bound's division becomes a
 * multiplication in the key loops. */
static inline int32_t next_int(struct hb_jrandom *r, int32_t bound)
{
	int32_t rv, m, u;

	if (bound <= 0)
		return -1;
	r->seed = (r->seed * JR_MULT + JR_ADD) & JR_MASK;
	rv = (int32_t)(uint32_t)(r->seed >> 17);
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

int32_t hb_jrandom_next_int(struct hb_jrandom *r, int32_t bound)
{
	return next_int(r, bound);
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

void hb_md5_8_prefix(const unsigned char in[8], unsigned char out[4])
{
	uint32_t m0 =
	    (uint32_t)in[0] | (uint32_t)in[1] << 8 | (uint32_t)in[2] << 16 | (uint32_t)in[3] << 24;
	uint32_t m1 =
	    (uint32_t)in[4] | (uint32_t)in[5] << 8 | (uint32_t)in[6] << 16 | (uint32_t)in[7] << 24;
	uint32_t a = hb_md5_8_word(m0, m1);

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
static inline void tick(struct hb_keygen *g, int32_t bound)
{
	g->ts = (int64_t)((uint64_t)g->ts + (uint64_t)next_int(&g->rnd, bound));
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

/* nextInt(1000) draws again when next(31) is at least 2^31 - 2^31 % 1000. */
#define REJECT_1000 2147483000u

/*
 * n ticks of the md5 generator's clock, currentTime += nextInt(1000), with the low 32 bits of
 * each new time in lo (when lo is not NULL). One tick after another waits for the previous
 * draw's multiplication; here four draws are made at once from the first one's state through
 * the LCG's 1- to 4-step maps, so their multiplications overlap. A group holding a draw that
 * Java would reject (about 3 in 10^7) is done again one tick at a time.
 */
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
/* Ticks made by AVX-512 at a time: four vectors of eight draws from one state. */
#define TICK_LANES 32
/* x / 1000 for x < 2^32 is (x * V512_DIV1000) >> 38 */
#define V512_DIV1000 274877907ULL

/* The LCG's 1- to TICK_LANES-step maps s -> tick_a[k] * s + tick_c[k] (k = 0: one step): the
 * multiplier and increment composed k + 1 times modulo 2^48, as the loops below build them. */
static const uint64_t tick_a[TICK_LANES] = {
    0x0005DEECE66DULL, 0xBB20B4600A69ULL, 0xD498BD0AC4B5ULL, 0x32EB772C5F11ULL, 0x6E00FCF9C03DULL,
    0x45D73749A7F9ULL, 0x37BC7ED23B05ULL, 0x75489F259F21ULL, 0xA139E068670DULL, 0x121F9F058E89ULL,
    0x53BCE7B8C655ULL, 0x199C3838D031ULL, 0x6BE66668AADDULL, 0x7415CDCF4E19ULL, 0x0B838E7AB6A5ULL,
    0x6DC260740241ULL, 0xEE96BD575BADULL, 0x1CB4A40B76A9ULL, 0x011117495BF5ULL, 0xB05B0EB64551ULL,
    0xE0B62A8E497DULL, 0x662319D79839ULL, 0xC808761B0645ULL, 0x35692EBFA961ULL, 0xDA405D34444DULL,
    0x560F619A42C9ULL, 0x844A05FB0595ULL, 0x230D6E413E71ULL, 0x6E471E0D1C1DULL, 0x784FA3930659ULL,
    0x31A6C559A9E5ULL, 0xFAC6CAED1481ULL,
};
static const uint64_t tick_c[TICK_LANES] = {
    0x00000000000BULL, 0x0040942DE6BAULL, 0x0AA8544E593DULL, 0x2D3873C4CD04ULL, 0x5D5692ACE2BFULL,
    0x17617168255EULL, 0x17A0D1925D11ULL, 0x7CBA449AE648ULL, 0x86D91B38BCB3ULL, 0x7455BFB52A42ULL,
    0x3BB194F24A25ULL, 0xD4CF89E2CFCCULL, 0xEE85F453C1E7ULL, 0x916C5AD31966ULL, 0x8E5C32BB7479ULL,
    0x0D0352014D90ULL, 0xC45D76FD665BULL, 0x04D799BE56CAULL, 0x409AA63C700DULL, 0x4C56A6636394ULL,
    0xE04048385E0FULL, 0x88141C55866EULL, 0xEB96389910E1ULL, 0x83F34BC255D8ULL, 0xCF784DFE9D03ULL,
    0x303C4F3D8C52ULL, 0xE2E580DE6AF5ULL, 0x9213C2A7A85CULL, 0x13A77F755737ULL, 0xD0B5CA058C76ULL,
    0xFC21D156D249ULL, 0x1E4C4C311F20ULL,
};

/* The nextInt(1000) values of the eight draws whose states are st (meaningless for a draw
 * nextInt refuses); the mask of the refused ones in *refused. */
__attribute__((target("avx512f,avx512dq"))) static inline __m512i tick_values(__m512i st,
                                                                              __mmask8 *refused)
{
	__m512i u = _mm512_srli_epi64(st, 17);
	__m512i q =
	    _mm512_srli_epi64(_mm512_mul_epu32(u, _mm512_set1_epi64((long long)V512_DIV1000)), 38);

	*refused = _mm512_cmpge_epu64_mask(u, _mm512_set1_epi64(REJECT_1000));
	return _mm512_sub_epi64(u, _mm512_mul_epu32(q, _mm512_set1_epi64(1000)));
}

/* 16 32-bit lanes summed from the first: lane k holds lanes 0 .. k's sum. */
__attribute__((target("avx512f"))) static inline __m512i prefix16(__m512i v)
{
	const __m512i z = _mm512_setzero_si512();

	v = _mm512_add_epi32(v, _mm512_alignr_epi32(v, z, 15));
	v = _mm512_add_epi32(v, _mm512_alignr_epi32(v, z, 14));
	v = _mm512_add_epi32(v, _mm512_alignr_epi32(v, z, 12));
	return _mm512_add_epi32(v, _mm512_alignr_epi32(v, z, 8));
}

/* ticks1000's rounds of TICK_LANES ticks, until fewer are left or a round holds a refused draw:
 * the new times' low 32 bits to lo; returns the ticks made, g moved past them. */
__attribute__((target("avx512f,avx512dq"))) static uint64_t
ticks1000_avx512(struct hb_keygen *g, uint64_t n, uint32_t *lo)
{
	uint64_t s = g->rnd.seed, t = (uint64_t)g->ts, i = 0;
	__m512i va[4], vc[4], v[4], h0, h1;
	const __m512i m48 = _mm512_set1_epi64((long long)JR_MASK);
	__mmask8 r0, r1, r2, r3;
	int k;

	for (k = 0; k < 4; k++) {
		va[k] = _mm512_loadu_si512(tick_a + 8 * k);
		vc[k] = _mm512_loadu_si512(tick_c + 8 * k);
	}
	for (; i + TICK_LANES <= n; i += TICK_LANES) {
		const __m512i vs = _mm512_set1_epi64((long long)s);

		for (k = 0; k < 4; k++)
			v[k] = _mm512_and_si512(
			    _mm512_add_epi64(_mm512_mullo_epi64(va[k], vs), vc[k]), m48);
		v[0] = tick_values(v[0], &r0);
		v[1] = tick_values(v[1], &r1);
		v[2] = tick_values(v[2], &r2);
		v[3] = tick_values(v[3], &r3);
		if (r0 | r1 | r2 | r3)
			break; /* a draw drawn again: this round one tick at a time */
		/* the values fit in 32 bits: sixteen a vector, summed from the round's first */
		h0 =
		    prefix16(_mm512_inserti64x4(_mm512_castsi256_si512(_mm512_cvtepi64_epi32(v[0])),
		                                _mm512_cvtepi64_epi32(v[1]), 1));
		h1 =
		    prefix16(_mm512_inserti64x4(_mm512_castsi256_si512(_mm512_cvtepi64_epi32(v[2])),
		                                _mm512_cvtepi64_epi32(v[3]), 1));
		h0 = _mm512_add_epi32(h0, _mm512_set1_epi32((int)(uint32_t)t));
		_mm512_storeu_si512(lo + i, h0);
		/* the second sixteen go on from the first's last time */
		h1 = _mm512_add_epi32(h1, _mm512_permutexvar_epi32(_mm512_set1_epi32(15), h0));
		_mm512_storeu_si512(lo + i + 16, h1);
		t += (uint64_t)_mm512_reduce_add_epi64(
		    _mm512_add_epi64(_mm512_add_epi64(v[0], v[1]), _mm512_add_epi64(v[2], v[3])));
		s = (tick_a[TICK_LANES - 1] * s + tick_c[TICK_LANES - 1]) & JR_MASK;
	}
	g->rnd.seed = s;
	g->ts = (int64_t)t;
	return i;
}
#endif

static void ticks1000(struct hb_keygen *g, uint64_t n, uint32_t *lo)
{
	uint64_t a[4], c[4], s, t, i = 0;
	int k;

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
	if (lo && n >= TICK_LANES && hb_keygen_scan_supported(HB_MD5_AVX512)) {
		i = ticks1000_avx512(g, n, lo);
		lo += i;
		n -= i;
		i = 0;
	}
#endif
	s = g->rnd.seed;
	t = (uint64_t)g->ts;

	a[0] = JR_MULT;
	c[0] = JR_ADD;
	for (k = 1; k < 4; k++) {
		a[k] = (a[k - 1] * JR_MULT) & JR_MASK;
		c[k] = (c[k - 1] * JR_MULT + JR_ADD) & JR_MASK;
	}
	for (; i + 4 <= n; i += 4) {
		uint64_t s0 = (a[0] * s + c[0]) & JR_MASK, s1 = (a[1] * s + c[1]) & JR_MASK;
		uint64_t s2 = (a[2] * s + c[2]) & JR_MASK, s3 = (a[3] * s + c[3]) & JR_MASK;
		uint32_t u0 = (uint32_t)(s0 >> 17), u1 = (uint32_t)(s1 >> 17);
		uint32_t u2 = (uint32_t)(s2 >> 17), u3 = (uint32_t)(s3 >> 17);

		if (u0 >= REJECT_1000 || u1 >= REJECT_1000 || u2 >= REJECT_1000 ||
		    u3 >= REJECT_1000) {
			g->rnd.seed = s;
			g->ts = (int64_t)t;
			for (k = 0; k < 4; k++) {
				tick(g, 1000);
				if (lo)
					lo[i + (uint64_t)k] = (uint32_t)(uint64_t)g->ts;
			}
			s = g->rnd.seed;
			t = (uint64_t)g->ts;
			continue;
		}
		t += u0 % 1000;
		if (lo)
			lo[i] = (uint32_t)t;
		t += u1 % 1000;
		if (lo)
			lo[i + 1] = (uint32_t)t;
		t += u2 % 1000;
		if (lo)
			lo[i + 2] = (uint32_t)t;
		t += u3 % 1000;
		if (lo)
			lo[i + 3] = (uint32_t)t;
		s = s3;
	}
	g->rnd.seed = s;
	g->ts = (int64_t)t;
	for (; i < n; i++) {
		tick(g, 1000);
		if (lo)
			lo[i] = (uint32_t)(uint64_t)g->ts;
	}
}

size_t hb_keygen_width(const struct hb_keygen *g)
{
	switch (g->kind) {
	case HB_KEYGEN_MD5:
	case HB_KEYGEN_PARTITION:
		return 16;
	case HB_KEYGEN_SEQUENTIAL:
	case HB_KEYGEN_HEX8:
		return 8;
	case HB_KEYGEN_SALT:
	case HB_KEYGEN_ROUNDROBIN:
		return (size_t)g->width + 8;
	case HB_KEYGEN_TRANSACTION:
	case HB_KEYGEN_STATISTICS:
		return 6;
	}
	HB_BUG("unknown generator kind");
	return 0;
}

/* Messages hashed together: a few vectors' worth, on the stack. */
#define MD5_BATCH 64

/* The 32-bit word whose little-endian bytes are v's big-endian bytes (Bytes.toBytes(int)). */
static uint32_t be_word(uint32_t v)
{
	return v >> 24 | (v >> 8 & 0xFF00u) | (v << 8 & 0xFF0000u) | v << 24;
}

/* Stores v's bytes lowest first: one 8-byte store where the host is little-endian. */
static void store_le64(unsigned char *out, uint64_t v)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	memcpy(out, &v, 8);
#else
	int i;

	for (i = 0; i < 8; i++)
		out[i] = (unsigned char)(v >> (8 * i));
#endif
}

/* Bytes.toBytes(long) with one store: v's bytes highest first. */
static void store_be64(unsigned char *out, uint64_t v)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ &&                        \
    (defined(__GNUC__) || defined(__clang__))
	v = __builtin_bswap64(v);
	memcpy(out, &v, 8);
#else
	put_be(out, v, 8);
#endif
}

/* The 8 lower-case hex digits of digest bytes 0-3 (a's little-endian bytes), high nibble
 * first: all eight computed at once in one 64-bit word. */
static void hex8_of(unsigned char *out, uint32_t a)
{
	uint64_t t = a, x;

	t = (t | t << 16) & 0x0000FFFF0000FFFFULL;
	t = (t | t << 8) & 0x00FF00FF00FF00FFULL; /* byte i in the low half of 16-bit slot i */
	x = (t >> 4 & 0x000F000F000F000FULL) | (t & 0x000F000F000F000FULL) << 8;
	/* each byte a nibble v: '0' + v, and 'a' - '0' - 10 more when v >= 10 */
	x += 0x3030303030303030ULL +
	     ((x + 0x0606060606060606ULL) >> 4 & 0x0101010101010101ULL) * 0x27;
	store_le64(out, x);
}

/* The leading digest words of the next m <= MD5_BATCH keys' MD5 inputs (md5 and salt), g moved
 * past them. */
static void digest_words(struct hb_keygen *g, uint32_t *h, size_t m)
{
	uint32_t m0[MD5_BATCH], m1[MD5_BATCH];
	int64_t id0 = g->id;
	size_t i;

	if (g->kind == HB_KEYGEN_MD5) {
		/* MD5(toBytes((int)id) ++ toBytes((int)time)), the time ticked first */
		ticks1000(g, m, m1);
		for (i = 0; i < m; i++) {
			m0[i] = be_word((uint32_t)((uint64_t)id0 + i));
			m1[i] = be_word(m1[i]);
		}
	} else {
		/* MD5(toBytes(id)) */
		for (i = 0; i < m; i++) {
			uint64_t id = (uint64_t)id0 + i;

			m0[i] = be_word((uint32_t)(id >> 32));
			m1[i] = be_word((uint32_t)id);
		}
	}
	g->id = (int64_t)((uint64_t)id0 + m);
	hb_md5_8_words(h, m0, m1, m);
}

void hb_keygen_md5_prefixes(struct hb_keygen *g, uint32_t *pfx, size_t n)
{
	size_t i, m;

	for (; n; n -= m, pfx += m) {
		m = n < MD5_BATCH ? n : MD5_BATCH;
		digest_words(g, pfx, m);
		for (i = 0; i < m; i++)
			pfx[i] = be_word(pfx[i]);
	}
}

void hb_keygen_md5_key(unsigned char out[16], uint32_t prefix, int64_t id)
{
	hex8_of(out, be_word(prefix));
	store_be64(out + 8, (uint64_t)id);
}

void hb_keygen_next_n(struct hb_keygen *g, unsigned char *out, size_t n)
{
	uint32_t h[MD5_BATCH];
	size_t w = hb_keygen_width(g), i, m;
	int64_t id0;

	if (g->kind != HB_KEYGEN_MD5 && g->kind != HB_KEYGEN_SALT) {
		for (i = 0; i < n; i++)
			hb_keygen_next(g, out + i * w);
		return;
	}
	for (; n; n -= m) {
		m = n < MD5_BATCH ? n : MD5_BATCH;
		id0 = g->id;
		digest_words(g, h, m);
		for (i = 0; i < m; i++, out += w) {
			int64_t id = (int64_t)((uint64_t)id0 + i);

			if (g->kind == HB_KEYGEN_MD5) {
				hex8_of(out, h[i]);
				store_be64(out + 8, (uint64_t)id);
			} else {
				put_be(out, be_word(h[i]) % (uint32_t)g->partitions, g->width);
				store_be64(out + g->width, (uint64_t)id);
			}
		}
	}
}

void hb_keygen_skip(struct hb_keygen *g, uint64_t n)
{
	uint64_t i;

	switch (g->kind) {
	case HB_KEYGEN_MD5:
		/* the time still needs every draw: nextInt(1000) may reject and draw again */
		ticks1000(g, n, NULL);
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

/* The LCG state after n steps from seed. */
static uint64_t jump(uint64_t seed, uint64_t n)
{
	struct hb_jrandom r = {seed};

	hb_jrandom_skip(&r, n);
	return r.seed;
}

/* Draws scanned at once: independent steps from one state, through the LCG's 1- to
 * SCAN_LANES-step maps, that a vector unit takes side by side. */
#define SCAN_LANES 16

/* Draws 0 .. n - 1 after s as nextInt(1000) would take them: the accepted ones counted, their
 * values summed. Inlined into each instruction set's copy below. */
static inline __attribute__((always_inline)) void scan1000_body(struct hb_keygen_span *out,
                                                                uint64_t s, uint64_t n)
{
	uint64_t a[SCAN_LANES], c[SCAN_LANES], i = 0;
	int k;

	a[0] = JR_MULT;
	c[0] = JR_ADD;
	for (k = 1; k < SCAN_LANES; k++) {
		a[k] = (a[k - 1] * JR_MULT) & JR_MASK;
		c[k] = (c[k - 1] * JR_MULT + JR_ADD) & JR_MASK;
	}
	for (; i + SCAN_LANES <= n; i += SCAN_LANES) {
		uint32_t u[SCAN_LANES], keys = 0, sum = 0;

		for (k = 0; k < SCAN_LANES; k++)
			u[k] = (uint32_t)(((a[k] * s + c[k]) & JR_MASK) >> 17);
		s = (a[SCAN_LANES - 1] * s + c[SCAN_LANES - 1]) & JR_MASK;
		for (k = 0; k < SCAN_LANES; k++) {
			uint32_t ok = u[k] < REJECT_1000;

			keys += ok;
			sum += ok ? u[k] % 1000 : 0;
		}
		out->keys += keys;
		out->clock += sum;
	}
	for (; i < n; i++) {
		uint32_t u;

		s = (s * JR_MULT + JR_ADD) & JR_MASK;
		u = (uint32_t)(s >> 17);
		out->keys += u < REJECT_1000;
		out->clock += u < REJECT_1000 ? u % 1000 : 0;
	}
}

static void scan1000_plain(struct hb_keygen_span *out, uint64_t s, uint64_t n)
{
	scan1000_body(out, s, n);
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
__attribute__((target("avx2"))) static void scan1000_avx2(struct hb_keygen_span *out, uint64_t s,
                                                          uint64_t n)
{
	scan1000_body(out, s, n);
}
#endif

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
/* Draws scanned by AVX-512 at a time: four vectors of eight consecutive draws, each lane a state
 * of its own stepped V512_DRAWS draws ahead, so that no step waits on another. */
#define V512_DRAWS 32

/* The first V512_DRAWS draws' states after s into lane, and the V512_DRAWS-step map in *a, *c. */
static void v512_lanes(uint64_t *lane, uint64_t s, uint64_t *a, uint64_t *c)
{
	int k;

	*a = 1;
	*c = 0;
	for (k = 0; k < V512_DRAWS; k++) {
		lane[k] = s = (s * JR_MULT + JR_ADD) & JR_MASK; /* draw k's state */
		*a = (*a * JR_MULT) & JR_MASK;
		*c = (*c * JR_MULT + JR_ADD) & JR_MASK;
	}
}

/* The lanes' sums into out, then draws i .. n - 1 one by one from draw i's state s. */
static void v512_finish(struct hb_keygen_span *out, const uint64_t *sums, const uint64_t *sumq,
                        uint64_t refused, uint64_t s, uint64_t i, uint64_t n)
{
	int k;

	for (k = 0; k < 8; k++)
		out->clock += sums[k] - 1000 * sumq[k];
	out->keys += i - refused;
	for (; i < n; i++, s = (s * JR_MULT + JR_ADD) & JR_MASK) {
		uint32_t u = (uint32_t)(s >> 17);

		out->keys += u < REJECT_1000;
		out->clock += u < REJECT_1000 ? u % 1000 : 0;
	}
}

/* The same sums as scan1000_body: a nextInt(1000) value is u - 1000 * (u / 1000), so the lanes
 * sum the accepted u and u / 1000 and the span's clock is the difference. */
__attribute__((target("avx512f,avx512dq"))) static void scan1000_avx512(struct hb_keygen_span *out,
                                                                        uint64_t s, uint64_t n)
{
	uint64_t lane[V512_DRAWS], a, c, i = 0, sums[8], sumq[8], refused = 0;
	__m512i st[4], su[4], sq[4];
	const __m512i m48 = _mm512_set1_epi64((long long)JR_MASK);
	const __m512i div = _mm512_set1_epi64((long long)V512_DIV1000);
	const __m512i rej = _mm512_set1_epi64(REJECT_1000);
	__m512i va, vc;
	int k;

	v512_lanes(lane, s, &a, &c);
	va = _mm512_set1_epi64((long long)a);
	vc = _mm512_set1_epi64((long long)c);
	for (k = 0; k < 4; k++) {
		st[k] = _mm512_loadu_si512(lane + 8 * k);
		su[k] = sq[k] = _mm512_setzero_si512();
	}
	for (; i + V512_DRAWS <= n; i += V512_DRAWS)
		for (k = 0; k < 4; k++) {
			__m512i u = _mm512_srli_epi64(st[k], 17);
			__m512i q = _mm512_srli_epi64(_mm512_mul_epu32(u, div), 38);
			__mmask8 ok = _mm512_cmplt_epu64_mask(u, rej);

			su[k] = _mm512_mask_add_epi64(su[k], ok, su[k], u);
			sq[k] = _mm512_mask_add_epi64(sq[k], ok, sq[k], q);
			if (ok != 0xFF)
				refused += 8 - (uint64_t)__builtin_popcount(ok);
			st[k] = _mm512_and_si512(
			    _mm512_add_epi64(_mm512_mullo_epi64(st[k], va), vc), m48);
		}
	_mm512_storeu_si512(
	    sums, _mm512_add_epi64(_mm512_add_epi64(su[0], su[1]), _mm512_add_epi64(su[2], su[3])));
	_mm512_storeu_si512(
	    sumq, _mm512_add_epi64(_mm512_add_epi64(sq[0], sq[1]), _mm512_add_epi64(sq[2], sq[3])));
	_mm512_storeu_si512(lane, st[0]);
	v512_finish(out, sums, sumq, refused, lane[0], i, n);
}

/* x / 1000 for x < 2^31 is the high half of x * V512_IFMA_DIV1000 in 52-bit arithmetic
 * (the error, below x * 2^-52, never reaches the next whole number) */
#define V512_IFMA_DIV1000 4503599627371ULL

/* scan1000_avx512 with the 52-bit multiply-adds of AVX-512 IFMA: a state's step and a draw's
 * quotient by 1000 are one instruction each (the 48-bit states and 31-bit draws fit in 52
 * bits), a third less work a draw. */
__attribute__((target("avx512f,avx512dq,avx512ifma"))) static void
scan1000_ifma(struct hb_keygen_span *out, uint64_t s, uint64_t n)
{
	uint64_t lane[V512_DRAWS], a, c, i = 0, sums[8], sumq[8], refused = 0;
	__m512i st[4], su[4], sq[4];
	const __m512i m48 = _mm512_set1_epi64((long long)JR_MASK);
	const __m512i div = _mm512_set1_epi64((long long)V512_IFMA_DIV1000);
	const __m512i rej = _mm512_set1_epi64(REJECT_1000);
	const __m512i zero = _mm512_setzero_si512();
	__m512i va, vc;
	int k;

	v512_lanes(lane, s, &a, &c);
	va = _mm512_set1_epi64((long long)a);
	vc = _mm512_set1_epi64((long long)c);
	for (k = 0; k < 4; k++) {
		st[k] = _mm512_loadu_si512(lane + 8 * k);
		su[k] = sq[k] = zero;
	}
	for (; i + V512_DRAWS <= n; i += V512_DRAWS)
		for (k = 0; k < 4; k++) {
			__m512i u = _mm512_srli_epi64(st[k], 17);
			__m512i q = _mm512_madd52hi_epu64(zero, u, div);
			__mmask8 ok = _mm512_cmplt_epu64_mask(u, rej);

			su[k] = _mm512_mask_add_epi64(su[k], ok, su[k], u);
			sq[k] = _mm512_mask_add_epi64(sq[k], ok, sq[k], q);
			if (ok != 0xFF)
				refused += 8 - (uint64_t)__builtin_popcount(ok);
			/* (c + a * s) mod 2^48: a * s's low 52 bits hold its low 48 */
			st[k] = _mm512_and_si512(_mm512_madd52lo_epu64(vc, st[k], va), m48);
		}
	_mm512_storeu_si512(
	    sums, _mm512_add_epi64(_mm512_add_epi64(su[0], su[1]), _mm512_add_epi64(su[2], su[3])));
	_mm512_storeu_si512(
	    sumq, _mm512_add_epi64(_mm512_add_epi64(sq[0], sq[1]), _mm512_add_epi64(sq[2], sq[3])));
	_mm512_storeu_si512(lane, st[0]);
	v512_finish(out, sums, sumq, refused, lane[0], i, n);
}
#endif

void hb_keygen_scan1000_with(enum hb_md5_impl impl, struct hb_keygen_span *out, uint64_t seed,
                             uint64_t n)
{
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
	if (impl == HB_MD5_AVX512) {
		if (__builtin_cpu_supports("avx512ifma"))
			scan1000_ifma(out, seed, n);
		else
			scan1000_avx512(out, seed, n);
		return;
	}
	if (impl == HB_MD5_AVX2) {
		scan1000_avx2(out, seed, n);
		return;
	}
#endif
	(void)impl;
	scan1000_plain(out, seed, n);
}

static void scan1000(struct hb_keygen_span *out, uint64_t s, uint64_t n)
{
	hb_keygen_scan1000_with(hb_keygen_scan_best(), out, s, n);
}

int hb_keygen_scan_supported(enum hb_md5_impl impl)
{
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
	if (impl == HB_MD5_AVX512)
		return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq");
	if (impl == HB_MD5_AVX2)
		return __builtin_cpu_supports("avx2");
#endif
	return impl == HB_MD5_SCALAR;
}

enum hb_md5_impl hb_keygen_scan_best(void)
{
	return hb_keygen_scan_supported(HB_MD5_AVX512) ? HB_MD5_AVX512
	       : hb_keygen_scan_supported(HB_MD5_AVX2) ? HB_MD5_AVX2
	                                               : HB_MD5_SCALAR;
}

void hb_keygen_span_scan(struct hb_keygen_span *out, const struct hb_keygen *g, uint64_t i,
                         uint64_t len)
{
	uint64_t s, j;

	out->keys = len;
	out->clock = 0;
	if (g->kind == HB_KEYGEN_MD5) {
		/* a key's clock draw may be refused and drawn again: count the accepted ones */
		out->keys = 0;
		scan1000(out, jump(g->rnd.seed, i * len), len);
	} else if (g->kind == HB_KEYGEN_TRANSACTION) {
		/* two draws a key, neither ever refused (powers of two): nextInt(4), then the hash
		 */
		s = jump(g->rnd.seed, 2 * i * len);
		for (j = 0; j < len; j++) {
			s = (s * JR_MULT + JR_ADD) & JR_MASK;
			out->clock += (s >> 17) >> 29;
			s = (s * JR_MULT + JR_ADD) & JR_MASK;
		}
	}
}

void hb_keygen_span_start(struct hb_keygen *out, const struct hb_keygen *g, uint64_t i,
                          uint64_t len, const struct hb_keygen_span *before)
{
	*out = *g;
	if (g->kind != HB_KEYGEN_MD5 && g->kind != HB_KEYGEN_TRANSACTION) {
		hb_keygen_skip(out, before->keys); /* the state follows from the id alone */
		return;
	}
	out->rnd.seed = jump(g->rnd.seed, g->kind == HB_KEYGEN_MD5 ? i * len : 2 * before->keys);
	out->ts = (int64_t)((uint64_t)g->ts + before->clock);
	out->id = (int64_t)((uint64_t)g->id + before->keys);
}

int hb_keygen_fill(struct hb_keys *out, struct hb_keygen *g, long count, struct hb_error *err)
{
	unsigned char *dst;

	if (count <= 0)
		return 0;
	dst = hb_keys_push_fixed(out, (size_t)count, hb_keygen_width(g));
	if (!dst)
		return hb_error_set(err, HB_ENOMEM, "out of memory");
	hb_keygen_next_n(g, dst, (size_t)count);
	return 0;
}
