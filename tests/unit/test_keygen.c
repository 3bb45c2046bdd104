/* java.util.Random and the seed key generators against values derived from their definitions. */
#include "core/keygen.h"
#include "test.h"

#include <openssl/evp.h>

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

/* Expected values printed by tests/java/SeedKeyGenerators.java (the Java transcriptions of
 * the generators) for two seed/start-time pairs: the first three keys in toStringBinary and
 * the MD5 of the first 1,000,000 keys concatenated. */
static const struct {
	int64_t seed, start;
	const char *name;
	const char *first[3];
	const char *digest;
} java_expected[] = {
    {42,
     1700000000123LL,
     "md5",
     {"ae2ae31c\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x01",
      "390eea10\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x02",
      "63982bf2\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x03"},
     "b056ef5fee1861c341f8e6b423bdaaba"},
    {42,
     1700000000123LL,
     "partition:20",
     {"\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x01\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x01",
      "\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x02\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x02",
      "\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x03\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x03"},
     "eb032236233297787ed19d708921a427"},
    {42,
     1700000000123LL,
     "partition:7",
     {"\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x01\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x01",
      "\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x02\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x02",
      "\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x03\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x03"},
     "82a884b5f2067686c473ddc9f18db0f9"},
    {42,
     1700000000123LL,
     "sequential",
     {"\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x01", "\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x02",
      "\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x03"},
     "29666a851ee51a3400c207e3973ec23a"},
    {42,
     1700000000123LL,
     "hex8",
     {"b0a04f4b", "a1e7564b", "7ccfe267"},
     "63fcba97468a72bd5e3a7ba8a44c72d4"},
    {42,
     1700000000123LL,
     "salt:16",
     {"\\x08\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x01",
      "\\x01\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x02",
      "\\x04\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x03"},
     "d24fa63e9b9aa8c7a40e42fb3be46b0e"},
    {42,
     1700000000123LL,
     "salt:1000",
     {"\\x03\\xC0\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x01",
      "\\x02\\x89\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x02",
      "\\x02\\x84\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x03"},
     "586a990fe6002ba9c5df1b595a2337eb"},
    {42,
     1700000000123LL,
     "roundrobin:10",
     {"\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x01",
      "\\x01\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x02",
      "\\x02\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x03"},
     "2635813d946f23c783d7508af69e8351"},
    {42,
     1700000000123LL,
     "roundrobin:300",
     {"\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x01",
      "\\x00\\x01\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x02",
      "\\x00\\x02\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x03"},
     "74f65042c614763f8dc9dec7eb0e7116"},
    {42,
     1700000000123LL,
     "transaction",
     {"\\x0D\\xFE\\x04\\xC4\\xB4}", "\\x0CE\\x04\\xC4\\xB4\\x7F", "\\xF1+\\x04\\xC4\\xB4\\x80"},
     "ca4db6af482b6c3d269fbcd91743b76c"},
    {42,
     1700000000123LL,
     "statistics:1000",
     {"\\x00\\x00\\x00\\x00\\x055", "\\x00\\x00\\x00\\x01\\x055", "\\x00\\x00\\x00\\x02\\x055"},
     "3022d303cb809a45fea7f077b0658da6"},
    {-7,
     -5000LL,
     "md5",
     {"3bcf2b46\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x01",
      "377ef157\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x02",
      "930081c4\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x03"},
     "48475122625746da715d1c0e121cdd42"},
    {-7,
     -5000LL,
     "partition:20",
     {"\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x01\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x01",
      "\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x02\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x02",
      "\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x03\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x03"},
     "eb032236233297787ed19d708921a427"},
    {-7,
     -5000LL,
     "partition:7",
     {"\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x01\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x01",
      "\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x02\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x02",
      "\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x03\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x03"},
     "82a884b5f2067686c473ddc9f18db0f9"},
    {-7,
     -5000LL,
     "sequential",
     {"\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x01", "\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x02",
      "\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x03"},
     "29666a851ee51a3400c207e3973ec23a"},
    {-7, -5000LL, "hex8", {"4eaf82d5", "1378ef28", "9291527d"}, "0ee0e3b98fcb343430ca0bfc6a418a57"},
    {-7,
     -5000LL,
     "salt:16",
     {"\\x08\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x01",
      "\\x01\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x02",
      "\\x04\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x03"},
     "d24fa63e9b9aa8c7a40e42fb3be46b0e"},
    {-7,
     -5000LL,
     "salt:1000",
     {"\\x03\\xC0\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x01",
      "\\x02\\x89\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x02",
      "\\x02\\x84\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x03"},
     "586a990fe6002ba9c5df1b595a2337eb"},
    {-7,
     -5000LL,
     "roundrobin:10",
     {"\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x01",
      "\\x01\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x02",
      "\\x02\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x03"},
     "2635813d946f23c783d7508af69e8351"},
    {-7,
     -5000LL,
     "roundrobin:300",
     {"\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x01",
      "\\x00\\x01\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x02",
      "\\x00\\x02\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x03"},
     "74f65042c614763f8dc9dec7eb0e7116"},
    {-7,
     -5000LL,
     "transaction",
     {"\\xE6\\xC8\\x05&Hy", "\\xF2\"\\x05&H{", "%|\\x05&H}"},
     "7d6c596aa8fa0b2cbe3334c384ee416d"},
    {-7,
     -5000LL,
     "statistics:1000",
     {"\\x00\\x00\\x00\\x00\\x05\\x9F", "\\x00\\x00\\x00\\x01\\x05\\x9F",
      "\\x00\\x00\\x00\\x02\\x05\\x9F"},
     "4a5a5c36801f79cf742ad0b443bca043"},
};

static void test_keygen__every_generator_matches_its_java_transcription(void)
{
	size_t i;

	for (i = 0; i < HB_ARRAY_LEN(java_expected); i++) {
		struct hb_keygen g;
		unsigned char k[HB_KEYGEN_MAX_KEY], md[EVP_MAX_MD_SIZE];
		char hex[33];
		unsigned int mdlen = 0;
		EVP_MD_CTX *ctx = EVP_MD_CTX_new();
		long j;

		CHECK(ctx && EVP_DigestInit_ex(ctx, EVP_md5(), NULL));
		CHECK_EQ_INT(hb_keygen_init(&g, java_expected[i].name, java_expected[i].seed,
		                            java_expected[i].start, NULL),
		             0);
		for (j = 0; j < 1000000; j++) {
			size_t len = hb_keygen_next(&g, k);

			if (j < 3) {
				struct hb_buf t = HB_BUF_INIT;

				CHECK_EQ_INT(hb_tsb_append(&t, k, len), 0);
				CHECK_EQ_STR(hb_buf_str(&t), java_expected[i].first[j]);
				hb_buf_release(&t);
			}
			EVP_DigestUpdate(ctx, k, len);
		}
		EVP_DigestFinal_ex(ctx, md, &mdlen);
		EVP_MD_CTX_free(ctx);
		for (j = 0; j < 16; j++)
			snprintf(hex + 2 * j, 3, "%02x", md[j]);
		if (strcmp(hex, java_expected[i].digest))
			fprintf(stderr, "%s seed %lld: digest %s\n", java_expected[i].name,
			        (long long)java_expected[i].seed, hex);
		CHECK_EQ_STR(hex, java_expected[i].digest);
		hb_keygen_release(&g);
	}
}

static void test_keygen__skip_leaves_the_state_of_as_many_keys(void)
{
	static const char *const names[] = {"md5",         "partition:7", "sequential",
	                                    "hex8",        "salt:16",     "roundrobin:300",
	                                    "transaction", "statistics:7"};
	size_t i;

	for (i = 0; i < HB_ARRAY_LEN(names); i++) {
		struct hb_keygen a, b;
		unsigned char ka[HB_KEYGEN_MAX_KEY], kb[HB_KEYGEN_MAX_KEY];
		size_t la = 0, lb;
		int j;

		CHECK_EQ_INT(hb_keygen_init(&a, names[i], 5, 123456789, NULL), 0);
		CHECK_EQ_INT(hb_keygen_init(&b, names[i], 5, 123456789, NULL), 0);
		for (j = 0; j < 70001; j++)
			la = hb_keygen_next(&a, ka);
		hb_keygen_skip(&b, 70000);
		lb = hb_keygen_next(&b, kb);
		CHECK(la == lb && !memcmp(ka, kb, la));
		CHECK_EQ_INT(a.rnd.seed, b.rnd.seed);
	}
}

static void test_keygen__next_n_makes_the_keys_of_next_one_at_a_time(void)
{
	static const char *const names[] = {
	    "md5",       "partition:7",    "sequential",  "hex8",         "salt:16",
	    "salt:1000", "roundrobin:300", "transaction", "statistics:7", "salt:65536"};
	static const int64_t seeds[] = {0, 42, -5};
	static const size_t batches[] = {1, 3, 63, 64, 65, 200, 1000};
	size_t i, s, b;

	for (i = 0; i < HB_ARRAY_LEN(names); i++)
		for (s = 0; s < HB_ARRAY_LEN(seeds); s++) {
			struct hb_keygen a, g;
			unsigned char one[HB_KEYGEN_MAX_KEY], many[1000 * HB_KEYGEN_MAX_KEY];
			size_t w, k, bad = 0;

			CHECK_EQ_INT(
			    hb_keygen_init(&a, names[i], seeds[s], 1700000000000LL * s, NULL), 0);
			CHECK_EQ_INT(
			    hb_keygen_init(&g, names[i], seeds[s], 1700000000000LL * s, NULL), 0);
			w = hb_keygen_width(&g);
			for (b = 0; b < HB_ARRAY_LEN(batches); b++) {
				hb_keygen_next_n(&g, many, batches[b]);
				for (k = 0; k < batches[b]; k++) {
					size_t len = hb_keygen_next(&a, one);

					bad += len != w || memcmp(one, many + k * w, w);
				}
			}
			CHECK_EQ_INT(bad, 0);
			CHECK_EQ_INT(a.id, g.id);
			CHECK_EQ_INT(a.ts, g.ts);
			CHECK_EQ_INT(a.rnd.seed, g.rnd.seed);
		}
}

static void test_keygen__next_n_matches_the_java_transcriptions(void)
{
	size_t i;

	for (i = 0; i < HB_ARRAY_LEN(java_expected); i++) {
		struct hb_keygen g;
		unsigned char k[1000 * HB_KEYGEN_MAX_KEY], md[EVP_MAX_MD_SIZE];
		char hex[33];
		unsigned int mdlen = 0;
		EVP_MD_CTX *ctx = EVP_MD_CTX_new();
		size_t w;
		long j;

		CHECK(ctx && EVP_DigestInit_ex(ctx, EVP_md5(), NULL));
		CHECK_EQ_INT(hb_keygen_init(&g, java_expected[i].name, java_expected[i].seed,
		                            java_expected[i].start, NULL),
		             0);
		w = hb_keygen_width(&g);
		for (j = 0; j < 1000; j++) {
			hb_keygen_next_n(&g, k, 1000);
			EVP_DigestUpdate(ctx, k, 1000 * w);
		}
		EVP_DigestFinal_ex(ctx, md, &mdlen);
		EVP_MD_CTX_free(ctx);
		for (j = 0; j < 16; j++)
			snprintf(hex + 2 * j, 3, "%02x", md[j]);
		CHECK_EQ_STR(hex, java_expected[i].digest);
		hb_keygen_release(&g);
	}
}

/* The java.util.Random state one step before s: the LCG run backwards. */
static uint64_t lcg_back(uint64_t s)
{
	uint64_t a = 0x5DEECE66DULL, inv = a;
	int i;

	for (i = 0; i < 6; i++)
		inv *= 2 - a * inv; /* Newton's step: the inverse of a modulo 2^64 */
	return ((s - 0xB) * inv) & ((1ULL << 48) - 1);
}

static void test_keygen__md5_clock_scan_agrees_on_every_vector_unit(void)
{
	static const enum hb_md5_impl impls[] = {HB_MD5_AVX2, HB_MD5_AVX512};
	static const uint64_t lens[] = {0, 1, 31, 32, 33, 63, 64, 65, 100, 1000, 65536, 100003};
	uint64_t refused = lcg_back((uint64_t)2147483500u << 17), st;
	size_t k, l, bad = 0;
	int before;

	CHECK(hb_keygen_scan_supported(HB_MD5_SCALAR));
	/* from states a refused draw follows at every lane (before it 0 .. 69 draws), and from
	 * a few others */
	for (before = -4; before < 70; before++) {
		st = before < 0 ? (uint64_t)(before + 5) * 0x123456789ULL : refused;
		for (k = 0; before >= 0 && (int)k <= before; k++)
			st = lcg_back(st);
		for (k = 0; k < HB_ARRAY_LEN(impls); k++)
			for (l = 0; hb_keygen_scan_supported(impls[k]) && l < HB_ARRAY_LEN(lens);
			     l++) {
				struct hb_keygen_span want = {0, 0}, got = {0, 0};

				hb_keygen_scan1000_with(HB_MD5_SCALAR, &want, st, lens[l]);
				hb_keygen_scan1000_with(impls[k], &got, st, lens[l]);
				bad += want.keys != got.keys || want.clock != got.clock;
			}
	}
	CHECK_EQ_INT(bad, 0);
	/* a refused draw counts no key */
	{
		struct hb_keygen_span one = {0, 0};

		hb_keygen_scan1000_with(hb_keygen_scan_best(), &one, lcg_back(refused), 64);
		CHECK_EQ_INT(one.keys, 63);
	}
}

static void test_keygen__md5_clock_draws_rejected_by_next_int_agree_in_every_path(void)
{
	/* next(31) >= 2147483000 makes nextInt(1000) draw again (3 times in 10^7): start the
	 * generator a few draws before such a draw, at each place in a group of four and in each
	 * lane of the vector rounds (32 draws each) of a batch */
	int before, j;

	for (before = 0; before < 70; before++) {
		struct hb_keygen a, b, c;
		unsigned char one[HB_KEYGEN_MAX_KEY], many[100 * HB_KEYGEN_MAX_KEY];
		uint64_t st = lcg_back((uint64_t)2147483500u << 17);
		size_t bad = 0;

		for (j = 0; j < before; j++)
			st = lcg_back(st);
		CHECK_EQ_INT(hb_keygen_init(&a, "md5", 0, 5, NULL), 0);
		a.rnd.seed = st;
		b = a;
		c = a;
		hb_keygen_next_n(&b, many, 100);
		for (j = 0; j < 100; j++) {
			hb_keygen_next(&a, one);
			bad += memcmp(one, many + 16 * j, 16) != 0;
		}
		CHECK_EQ_INT(bad, 0);
		CHECK_EQ_INT(b.ts, a.ts);
		CHECK_EQ_INT(b.rnd.seed, a.rnd.seed);
		hb_keygen_skip(&c, 100);
		CHECK_EQ_INT(c.ts, a.ts);
		CHECK_EQ_INT(c.rnd.seed, a.rnd.seed);
		CHECK_EQ_INT(c.id, a.id);
	}
	/* the rejection really happened: the draw after it is one more step along */
	{
		struct hb_jrandom r = {lcg_back((uint64_t)2147483500u << 17)};
		struct hb_jrandom q = r;

		hb_jrandom_next_int(&r, 1000);
		hb_jrandom_next(&q, 31);
		hb_jrandom_next(&q, 31);
		CHECK_EQ_INT(r.seed, q.seed);
	}
}

static void test_keygen__md5_prefix_matches_openssl(void)
{
	struct hb_jrandom r;
	int i, j;

	hb_jrandom_init(&r, 99);
	for (i = 0; i < 20000; i++) {
		unsigned char in[8], mine[4], md[EVP_MAX_MD_SIZE];
		unsigned int mdlen = 0;

		for (j = 0; j < 8; j++)
			in[j] = (unsigned char)hb_jrandom_next(&r, 8);
		hb_md5_8_prefix(in, mine);
		CHECK(EVP_Digest(in, 8, md, &mdlen, EVP_md5(), NULL) && mdlen == 16);
		CHECK(!memcmp(mine, md, 4));
	}
}

static void test_keygen__jrandom_skip_equals_stepping(void)
{
	struct hb_jrandom a, b;
	int i;

	hb_jrandom_init(&a, 12345);
	hb_jrandom_init(&b, 12345);
	for (i = 0; i < 1000003; i++)
		hb_jrandom_next(&a, 32);
	hb_jrandom_skip(&b, 1000003);
	CHECK_EQ_INT(a.seed, b.seed);
	/* new Random(42).nextFloat() and nextDouble() as Java prints them */
	hb_jrandom_init(&a, 42);
	CHECK(hb_jrandom_next_float(&a) == 0.7275637f);
	hb_jrandom_init(&a, 42);
	CHECK(hb_jrandom_next_double(&a) == 0.7275636800328681);
}

int main(void)
{
	RUN(test_keygen__jrandom_matches_java_for_known_seeds);
	RUN(test_keygen__next_int_rejection_loop_matches_model);
	RUN(test_keygen__md5_key_follows_seed_formula);
	RUN(test_keygen__partition_sequential_and_hex8);
	RUN(test_keygen__bad_names_are_refused);
	RUN(test_keygen__every_generator_matches_its_java_transcription);
	RUN(test_keygen__skip_leaves_the_state_of_as_many_keys);
	RUN(test_keygen__next_n_makes_the_keys_of_next_one_at_a_time);
	RUN(test_keygen__next_n_matches_the_java_transcriptions);
	RUN(test_keygen__md5_clock_draws_rejected_by_next_int_agree_in_every_path);
	RUN(test_keygen__md5_clock_scan_agrees_on_every_vector_unit);
	RUN(test_keygen__md5_prefix_matches_openssl);
	RUN(test_keygen__jrandom_skip_equals_stepping);
	return TEST_DONE();
}
