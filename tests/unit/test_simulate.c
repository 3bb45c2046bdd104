/* Routing, statistics and split-policy growth of hbtab simulate. */
#include "core/keygen.h"
#include "core/simulate.h"
#include "test.h"

#define MiB (1ULL << 20)
#define GiB (1ULL << 30)

static size_t brute_route(const struct hb_keys *splits, const unsigned char *k, size_t len)
{
	size_t i, r = 0;

	for (i = 0; i < splits->n; i++) {
		size_t sl;
		const unsigned char *s = hb_keys_at(splits, i, &sl);

		if (hb_key_cmp(s, sl, k, len) <= 0)
			r = i + 1;
	}
	return r;
}

static void random_key(struct hb_jrandom *r, unsigned char *k, size_t *len)
{
	size_t i;

	/* short keys over a small alphabet so prefixes, equal keys and lengths all collide */
	*len = 1 + (size_t)hb_jrandom_next_int(r, 11);
	for (i = 0; i < *len; i++)
		k[i] = (unsigned char)"\x00\x01"
		                      "ab\xff"[hb_jrandom_next_int(r, 5)];
}

static void test_simulate__routing_matches_brute_force(void)
{
	struct hb_jrandom r;
	int round;

	hb_jrandom_init(&r, 2024);
	for (round = 0; round < 40; round++) {
		struct hb_keys splits;
		struct hb_sim_router router;
		unsigned char k[16];
		size_t len, i;
		int nsplit = hb_jrandom_next_int(&r, 30), j;

		hb_keys_init(&splits);
		for (j = 0; j < nsplit; j++) {
			random_key(&r, k, &len);
			CHECK_EQ_INT(hb_keys_push(&splits, k, len), 0);
		}
		CHECK_EQ_INT(hb_keys_sort(&splits), 0);
		/* drop duplicates: split keys are distinct */
		{
			struct hb_keys u;

			hb_keys_init(&u);
			for (i = 0; i < splits.n; i++) {
				size_t l1, l0 = 0;
				const unsigned char *a = hb_keys_at(&splits, i, &l1);
				const unsigned char *b = i ? hb_keys_at(&splits, i - 1, &l0) : NULL;

				if (!i || hb_key_cmp(a, l1, b, l0))
					CHECK_EQ_INT(hb_keys_push(&u, a, l1), 0);
			}
			hb_keys_release(&splits);
			splits = u;
		}
		CHECK_EQ_INT(hb_sim_router_init(&router, &splits, NULL), 0);
		for (j = 0; j < 2000; j++) {
			random_key(&r, k, &len);
			CHECK_EQ_INT(hb_sim_route(&router, k, len), brute_route(&splits, k, len));
		}
		/* every split key itself starts its region */
		for (i = 0; i < splits.n; i++) {
			const unsigned char *s = hb_keys_at(&splits, i, &len);

			CHECK_EQ_INT(hb_sim_route(&router, s, len), i + 1);
		}
		hb_sim_router_release(&router);
		hb_keys_release(&splits);
	}
}

static void test_simulate__stats_skew_and_cv(void)
{
	static const uint64_t c[] = {10, 20, 30, 40};
	struct hb_sim_stats st;

	hb_sim_stats(&st, c, 4);
	CHECK_EQ_INT(st.total, 100);
	CHECK_EQ_INT(st.min, 10);
	CHECK_EQ_INT(st.max, 40);
	CHECK_EQ_INT(st.argmax, 3);
	CHECK(st.skew > 1.5999 && st.skew < 1.6001); /* 40 / 25 */
	CHECK(st.cv > 0.4471 && st.cv < 0.4473);     /* sqrt(125) / 25 */
}

static void test_simulate__increasing_thresholds_are_256m_2g_6_75g_then_10g(void)
{
	uint64_t initial = 2 * HB_SIM_DEFAULT_FLUSH_SIZE, desired = HB_SIM_DEFAULT_MAX_FILESIZE;

	CHECK_EQ_INT(initial, 256 * MiB);
	CHECK_EQ_INT(hb_sim_threshold(HB_POLICY_INCREASING, 1, desired, initial), 256 * MiB);
	CHECK_EQ_INT(hb_sim_threshold(HB_POLICY_INCREASING, 2, desired, initial), 2 * GiB);
	CHECK_EQ_INT(hb_sim_threshold(HB_POLICY_INCREASING, 3, desired, initial),
	             27 * 256 * MiB); /* 6.75 GiB */
	CHECK_EQ_INT(hb_sim_threshold(HB_POLICY_INCREASING, 4, desired, initial), 10 * GiB);
	CHECK_EQ_INT(hb_sim_threshold(HB_POLICY_INCREASING, 100, desired, initial), 10 * GiB);
	/* no region counted, or more than 100: the max file size */
	CHECK_EQ_INT(hb_sim_threshold(HB_POLICY_INCREASING, 0, desired, initial), desired);
	CHECK_EQ_INT(hb_sim_threshold(HB_POLICY_INCREASING, 101, 5 * MiB, initial), 5 * MiB);
	/* key-prefix and delimited policies decide when to split as increasing does */
	CHECK_EQ_INT(hb_sim_threshold(HB_POLICY_KEYPREFIX, 2, desired, initial), 2 * GiB);
	CHECK_EQ_INT(hb_sim_threshold(HB_POLICY_DELIMITED, 3, desired, initial), 27 * 256 * MiB);
}

static void test_simulate__stepping_is_256m_for_one_region_then_10g(void)
{
	uint64_t initial = 256 * MiB, desired = 10 * GiB;

	CHECK_EQ_INT(hb_sim_threshold(HB_POLICY_STEPPING, 1, desired, initial), 256 * MiB);
	CHECK_EQ_INT(hb_sim_threshold(HB_POLICY_STEPPING, 2, desired, initial), 10 * GiB);
	CHECK_EQ_INT(hb_sim_threshold(HB_POLICY_STEPPING, 0, desired, initial), 10 * GiB);
	CHECK_EQ_INT(hb_sim_threshold(HB_POLICY_STEPPING, 50, desired, initial), 10 * GiB);
	CHECK_EQ_INT(hb_sim_threshold(HB_POLICY_CONSTANT, 1, desired, initial), 10 * GiB);
	CHECK(hb_sim_threshold(HB_POLICY_DISABLED, 1, desired, initial) == UINT64_MAX);
}

static void test_simulate__jitter_spans_plus_minus_an_eighth(void)
{
	uint64_t d = 10 * GiB;

	CHECK_EQ_INT(hb_sim_jittered(d, 0.25, 0.5f), d);
	CHECK_EQ_INT(hb_sim_jittered(d, 0.25, 0.0f), d - d / 8);
	CHECK(hb_sim_jittered(d, 0.25, 0.9999999f) <= d + d / 8);
	CHECK(hb_sim_jittered(d, 0.25, 0.9999999f) > d + d / 8 - 4096);
	/* a positive jitter that would overflow a Java long gives Long.MAX_VALUE */
	CHECK_EQ_INT(hb_sim_jittered((uint64_t)INT64_MAX - 10, 0.25, 0.9f), INT64_MAX);
}

static void test_simulate__policy_names_and_bad_parameters(void)
{
	struct hb_sim_config c;
	struct hb_error err = {0};

	memset(&c, 0, sizeof(c));
	CHECK_EQ_INT(hb_sim_policy_parse(&c, "keyprefix:4", &err), 0);
	CHECK_EQ_INT(c.policy, HB_POLICY_KEYPREFIX);
	CHECK_EQ_INT(c.prefix_len, 4);
	CHECK_EQ_INT(hb_sim_policy_parse(&c, "delimited:\\x00", &err), 0);
	CHECK_EQ_INT(c.policy, HB_POLICY_DELIMITED);
	CHECK(c.delim_len == 1 && c.delim[0] == 0);
	CHECK_EQ_INT(hb_sim_policy_parse(&c, "stepping", &err), 0);
	CHECK_EQ_INT(c.policy, HB_POLICY_STEPPING);
	CHECK_EQ_INT(hb_sim_policy_parse(&c, "keyprefix:0", &err), HB_EINVAL);
	CHECK_EQ_INT(hb_sim_policy_parse(&c, "keyprefix:", &err), HB_EINVAL);
	CHECK_EQ_INT(hb_sim_policy_parse(&c, "keyprefix", &err), HB_EINVAL);
	CHECK_EQ_INT(hb_sim_policy_parse(&c, "delimited:", &err), HB_EINVAL);
	CHECK_EQ_INT(hb_sim_policy_parse(&c, "busy", &err), HB_EINVAL);
	CHECK(strstr(err.msg, "unknown policy 'busy'") != NULL);
}

static struct hb_sim_config small_config(enum hb_sim_policy p)
{
	struct hb_sim_config c;

	memset(&c, 0, sizeof(c));
	c.policy = p;
	c.row_size = 1024;
	c.flush_size = 1 * MiB;
	c.max_filesize = 16 * MiB;
	c.jitter = HB_SIM_DEFAULT_JITTER;
	c.seed = 7;
	c.servers = 1;
	return c;
}

static void test_simulate__sequential_keys_write_only_into_the_last_region(void)
{
	struct hb_sim_config c = small_config(HB_POLICY_STEPPING);
	struct hb_keys none;
	struct hb_keygen g;
	struct hb_sim s;
	unsigned char k[HB_KEYGEN_MAX_KEY];
	size_t i, last_splits = 0;
	long w;

	hb_keys_init(&none);
	CHECK_EQ_INT(hb_sim_init(&s, &none, NULL, &c, NULL), 0);
	CHECK_EQ_INT(hb_keygen_init(&g, "sequential", 0, 0, NULL), 0);
	for (w = 0; w < 300000; w++) {
		size_t len = hb_keygen_next(&g, k);

		CHECK_EQ_INT(hb_sim_write(&s, k, len, NULL), 0);
		if (s.nsplits != last_splits) {
			/* after every split, only the newest (last) region has open writes */
			last_splits = s.nsplits;
			for (i = 0; i + 1 < s.nregions; i++)
				CHECK(s.regions[i].last_write < (uint64_t)w + 1 ||
				      s.regions[i].writes == 0);
		}
	}
	CHECK(s.nsplits >= 5);
	for (i = 0; i + 1 < s.nregions; i++)
		CHECK_EQ_INT(s.regions[i].writes, 0);
	CHECK(s.regions[s.nregions - 1].writes > 0);
	/* the first split came at 2 x flush size (one region on the server), later ones at the
	 * jittered max file size */
	CHECK(s.splits[0].threshold == 2 * MiB);
	CHECK(s.splits[1].threshold >= 14 * MiB && s.splits[1].threshold <= 18 * MiB);
	hb_sim_release(&s);
}

static void test_simulate__key_prefix_never_splits_a_prefix(void)
{
	struct hb_sim_config c = small_config(HB_POLICY_KEYPREFIX);
	struct hb_keys none;
	struct hb_sim s;
	struct hb_jrandom r;
	size_t i;
	long w;

	c.prefix_len = 2;
	hb_keys_init(&none);
	CHECK_EQ_INT(hb_sim_init(&s, &none, NULL, &c, NULL), 0);
	hb_jrandom_init(&r, 3);
	/* 2-byte prefixes (64 of them, a few very heavy) followed by a random tail */
	for (w = 0; w < 400000; w++) {
		unsigned char k[10];
		int p = hb_jrandom_next_int(&r, 4) ? hb_jrandom_next_int(&r, 4)
		                                   : hb_jrandom_next_int(&r, 64);

		k[0] = (unsigned char)(p >> 3);
		k[1] = (unsigned char)(p & 7);
		for (i = 2; i < 10; i++)
			k[i] = (unsigned char)hb_jrandom_next(&r, 8);
		CHECK_EQ_INT(hb_sim_write(&s, k, 10, NULL), 0);
	}
	CHECK(s.nsplits >= 3);
	for (i = 0; i < s.nsplits; i++)
		CHECK(s.splits[i].key_len <= 2);
	/* each prefix (with any tail) lives in exactly one region */
	for (i = 0; i < 64; i++) {
		unsigned char lo[10] = {(unsigned char)(i >> 3), (unsigned char)(i & 7)};
		unsigned char hi[10] = {(unsigned char)(i >> 3),
		                        (unsigned char)(i & 7),
		                        0xff,
		                        0xff,
		                        0xff,
		                        0xff,
		                        0xff,
		                        0xff,
		                        0xff,
		                        0xff};
		size_t a, b, j;

		for (a = 0, j = 0; j < s.nregions; j++)
			if (hb_key_cmp(s.regions[j].start, s.regions[j].start_len, lo, 2) <= 0)
				a = j;
		for (b = 0, j = 0; j < s.nregions; j++)
			if (hb_key_cmp(s.regions[j].start, s.regions[j].start_len, hi, 10) <= 0)
				b = j;
		CHECK_EQ_INT(a, b);
	}
	/* the heavy prefixes could not be cut further: their split points were refused */
	CHECK(s.refused > 0);
	hb_sim_release(&s);
}

static void test_simulate__partition_hotspot_returns_after_splits(void)
{
	/* seed 004: partition keys on partition splits; once a partition's region splits, its
	 * writes (growing ids) all go to the partition's last daughter, so each partition is
	 * a sequential hot-spot again and the other daughters go cold */
	struct hb_sim_config c = small_config(HB_POLICY_INCREASING);
	struct hb_keys splits;
	struct hb_keygen g;
	struct hb_sim s;
	unsigned char k[HB_KEYGEN_MAX_KEY];
	size_t i, hot = 0;
	uint64_t tail;
	long w, count = 400000;

	c.servers = 3;
	hb_keys_init(&splits);
	for (i = 1; i < 10; i++) {
		unsigned char b[8] = {0, 0, 0, 0, 0, 0, 0, (unsigned char)i};

		CHECK_EQ_INT(hb_keys_push(&splits, b, 8), 0);
	}
	CHECK_EQ_INT(hb_sim_init(&s, &splits, NULL, &c, NULL), 0);
	CHECK_EQ_INT(hb_keygen_init(&g, "partition:10", 0, 0, NULL), 0);
	for (w = 0; w < count; w++) {
		size_t len = hb_keygen_next(&g, k);

		CHECK_EQ_INT(hb_sim_write(&s, k, len, NULL), 0);
	}
	CHECK(s.nsplits >= 10);
	CHECK(s.nregions > 10);
	tail = (uint64_t)count - (uint64_t)count / 10;
	for (i = 0; i < s.nregions; i++) {
		const struct hb_sim_region *r = &s.regions[i];
		int last_of_partition;

		if (r->last_write <= tail)
			continue; /* cold */
		hot++;
		/* a hot region is the last one of its partition: the next region (if any)
		 * starts a new partition, i.e. its start key is exactly 8 bytes */
		last_of_partition = i + 1 == s.nregions || s.regions[i + 1].start_len == 8;
		CHECK(last_of_partition);
	}
	CHECK_EQ_INT(hot, 10);
	hb_sim_release(&s);
	hb_keys_release(&splits);
}

static void test_simulate__draws_follow_probabilities_and_skip_empty_regions(void)
{
	static const double prob[] = {0.5, 0.0, 0.25, 0.25};
	uint64_t c[4] = {0}, again[4] = {0};

	hb_sim_draw(c, prob, 4, 100000, 1);
	hb_sim_draw(again, prob, 4, 100000, 1);
	CHECK(!memcmp(c, again, sizeof(c)));
	CHECK_EQ_INT(c[1], 0);
	CHECK_EQ_INT(c[0] + c[2] + c[3], 100000);
	CHECK(c[0] > 49000 && c[0] < 51000);
	CHECK(c[2] > 24000 && c[2] < 26000);
}

int main(void)
{
	RUN(test_simulate__routing_matches_brute_force);
	RUN(test_simulate__stats_skew_and_cv);
	RUN(test_simulate__increasing_thresholds_are_256m_2g_6_75g_then_10g);
	RUN(test_simulate__stepping_is_256m_for_one_region_then_10g);
	RUN(test_simulate__jitter_spans_plus_minus_an_eighth);
	RUN(test_simulate__policy_names_and_bad_parameters);
	RUN(test_simulate__sequential_keys_write_only_into_the_last_region);
	RUN(test_simulate__key_prefix_never_splits_a_prefix);
	RUN(test_simulate__partition_hotspot_returns_after_splits);
	RUN(test_simulate__draws_follow_probabilities_and_skip_empty_regions);
	return TEST_DONE();
}
