/* java.util.Random and the seed key generators against values derived from their definitions. */
#include "core/keygen.h"
#include "test.h"

static void test_keygen__jrandom_matches_java_for_known_seeds(void)
{
	/* new Random(1).nextInt() == -1155869325, Java's best-known value */
	static const int32_t seed1_next32[] = {-1155869325, 431529176, 1761283695};
	/* new Random(0).nextInt(10) */
	static const int32_t seed0_10[] = {0, 8, 9, 7, 5, 3, 1, 1, 9, 4};
	/* new Random(42).nextInt(1000), computed from the LCG definition:
	 * seed = (42 ^ 0x5DEECE66D) mod 2^48; seed = seed * 0x5DEECE66D + 0xB mod 2^48;
	 * r = seed >>> 17; r % 1000 (no rejection for these draws) */
	static const int32_t seed42_1000[] = {130, 763, 248, 884, 970, 525, 505, 918, 519, 93};
	/* power-of-two bound uses (bound * r) >> 31: new Random(42).nextInt(16) */
	static const int32_t seed42_16[] = {11, 0, 10, 0, 4, 15, 4, 11};
	struct hb_jrandom r;
	size_t i;

	hb_jrandom_init(&r, 1);
	for (i = 0; i < HB_ARRAY_LEN(seed1_next32); i++)
		CHECK_EQ_INT(hb_jrandom_next(&r, 32), seed1_next32[i]);
	hb_jrandom_init(&r, 0);
	for (i = 0; i < HB_ARRAY_LEN(seed0_10); i++)
		CHECK_EQ_INT(hb_jrandom_next_int(&r, 10), seed0_10[i]);
	hb_jrandom_init(&r, 42);
	for (i = 0; i < HB_ARRAY_LEN(seed42_1000); i++)
		CHECK_EQ_INT(hb_jrandom_next_int(&r, 1000), seed42_1000[i]);
	hb_jrandom_init(&r, 42);
	for (i = 0; i < HB_ARRAY_LEN(seed42_16); i++)
		CHECK_EQ_INT(hb_jrandom_next_int(&r, 16), seed42_16[i]);
	CHECK_EQ_INT(hb_jrandom_next_int(&r, 0), -1);
}

/* An independent model of nextInt(bound) in 64-bit arithmetic, rejection loop included. */
static int32_t model_next_int(uint64_t *s, int32_t bound)
{
	int64_t u, rv;

	*s = (*s * 0x5DEECE66DULL + 0xB) & ((1ULL << 48) - 1);
	u = (int64_t)(*s >> 17);
	if ((bound & (bound - 1)) == 0)
		return (int32_t)(((int64_t)bound * u) >> 31);
	for (;;) {
		rv = u % bound;
		if (u - rv + (bound - 1) <= INT32_MAX)
			return (int32_t)rv;
		*s = (*s * 0x5DEECE66DULL + 0xB) & ((1ULL << 48) - 1);
		u = (int64_t)(*s >> 17);
	}
}

static void test_keygen__next_int_rejection_loop_matches_model(void)
{
	struct hb_jrandom r;
	uint64_t s;
	int i, rejected = 0;

	/* bound just over 2^30: about half of all draws are rejected */
	hb_jrandom_init(&r, -7);
	s = ((uint64_t)(int64_t)-7 ^ 0x5DEECE66DULL) & ((1ULL << 48) - 1);
	for (i = 0; i < 20000; i++) {
		uint64_t before = s;
		int32_t want = model_next_int(&s, (1 << 30) + 1);

		CHECK_EQ_INT(hb_jrandom_next_int(&r, (1 << 30) + 1), want);
		if (((before * 0x5DEECE66DULL + 0xB) & ((1ULL << 48) - 1)) != s)
			rejected++;
	}
	CHECK(rejected > 1000);
	CHECK_EQ_INT(r.seed, s);
}

static void test_keygen__md5_key_follows_seed_formula(void)
{
	struct hb_keygen g;
	unsigned char k[HB_KEYGEN_MAX_KEY];
	size_t len;

	/* seed 0: nextInt(1000) = 360, 948, 29, so ts = 360, 1308, 1337 from start 0.
	 * printf '\x00\x00\x00\x01\x00\x00\x01\x68' | md5sum -> fc9ae8cf8e61e33e... */
	CHECK_EQ_INT(hb_keygen_init(&g, "md5", 0, 0, NULL), 0);
	len = hb_keygen_next(&g, k);
	CHECK_EQ_INT(len, 16);
	CHECK(!memcmp(k, "fc9ae8cf\0\0\0\0\0\0\0\x01", 16));
	CHECK_EQ_INT(g.ts, 360);
	len = hb_keygen_next(&g, k);
	/* printf '\x00\x00\x00\x02\x00\x00\x05\x1c' | md5sum -> 2a4640e8... */
	CHECK(len == 16 && !memcmp(k, "2a4640e8\0\0\0\0\0\0\0\x02", 16));
	hb_keygen_next(&g, k);
	CHECK_EQ_INT(g.ts, 1337);
	/* low 32 bits only: start time 2^32 + 0 gives the same keys */
	hb_keygen_release(&g);
	CHECK_EQ_INT(hb_keygen_init(&g, "hash", 0, 4294967296LL, NULL), 0);
	hb_keygen_next(&g, k);
	CHECK(!memcmp(k, "fc9ae8cf", 8));
	hb_keygen_release(&g);
	hb_keygen_release(&g); /* twice is harmless */
}

static void test_keygen__partition_sequential_and_hex8(void)
{
	struct hb_keygen g;
	unsigned char k[HB_KEYGEN_MAX_KEY];
	int i;

	CHECK_EQ_INT(hb_keygen_init(&g, "partition:10", 0, 0, NULL), 0);
	for (i = 1; i <= 10; i++) {
		CHECK_EQ_INT(hb_keygen_next(&g, k), 16);
		CHECK_EQ_INT(k[7], i % 10);
		CHECK_EQ_INT(k[15], i);
	}
	CHECK_EQ_INT(hb_keygen_init(&g, "partition", 0, 0, NULL), 0);
	CHECK_EQ_INT(g.partitions, 20);
	CHECK_EQ_INT(hb_keygen_init(&g, "sequential", 0, 0, NULL), 0);
	CHECK_EQ_INT(hb_keygen_next(&g, k), 8);
	CHECK(!memcmp(k, "\0\0\0\0\0\0\0\x01", 8));
	CHECK_EQ_INT(hb_keygen_init(&g, "hex8", 42, 0, NULL), 0);
	CHECK_EQ_INT(hb_keygen_next(&g, k), 8);
	CHECK(!memcmp(k, "b0a04f4b", 8)); /* nextInt(16): 11 0 10 0 4 15 4 11 */
}

static void test_keygen__bad_names_are_refused(void)
{
	struct hb_keygen g;
	struct hb_error err = {0};

	CHECK_EQ_INT(hb_keygen_init(&g, "murmur", 0, 0, &err), HB_EINVAL);
	CHECK(strstr(err.msg, "unknown generator 'murmur'") != NULL);
	CHECK_EQ_INT(hb_keygen_init(&g, "partition:", 0, 0, &err), HB_EINVAL);
	CHECK_EQ_INT(hb_keygen_init(&g, "partition:0", 0, 0, &err), HB_EINVAL);
	CHECK_EQ_INT(hb_keygen_init(&g, "partition:x", 0, 0, &err), HB_EINVAL);
	CHECK_EQ_INT(hb_keygen_init(&g, "partitions", 0, 0, &err), HB_EINVAL);
	CHECK_EQ_INT(hb_keygen_init(&g, "partition:99999999999999999999", 0, 0, &err), HB_EINVAL);
}

int main(void)
{
	RUN(test_keygen__jrandom_matches_java_for_known_seeds);
	RUN(test_keygen__next_int_rejection_loop_matches_model);
	RUN(test_keygen__md5_key_follows_seed_formula);
	RUN(test_keygen__partition_sequential_and_hex8);
	RUN(test_keygen__bad_names_are_refused);
	return TEST_DONE();
}
