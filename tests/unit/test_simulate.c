/* Routing, statistics and split-policy growth of hbtab simulate. */
#include "core/keygen.h"
#include "core/simulate.h"
#include "core/split.h"
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

/* Sampled splits and the writes routed over them, through the batched key generation, radix
 * sort and prefix routing, for several designs: the split keys and counts are the ones hbtab
 * printed for the same designs (hbtab simulate --sampled-splits N --generator G --seed S
 * --sample-size M --count C) before those paths existed. */
static const struct {
	const char *gen;
	int64_t seed;
	long sample, regions;
	uint64_t count;
	size_t nregions;
	uint64_t writes[16];
	const char *splits[16];
} designs[] = {
    {"md5",
     0,
     100000,
     10,
     300000,
     10,
     {30042, 30340, 30036, 29850, 30263, 29898, 30124, 29925, 29753, 29769},
     {"19a28c73\\x00\\x00\\x00\\x00\\x00\\x00\\x04\\xB6",
      "33a91f57\\x00\\x00\\x00\\x00\\x00\\x00:\\x0A",
      "4d579692\\x00\\x00\\x00\\x00\\x00\\x01*\\xC7",
      "6699df9e\\x00\\x00\\x00\\x00\\x00\\x01r\\xE6", "807aae0f\\x00\\x00\\x00\\x00\\x00\\x00vL",
      "99eba4ef\\x00\\x00\\x00\\x00\\x00\\x00\\xDD\\x9D",
      "b3c5bfa1\\x00\\x00\\x00\\x00\\x00\\x00\\xF5\\x90",
      "cd6d0da2\\x00\\x00\\x00\\x00\\x00\\x00Qz", "e6a6afa2\\x00\\x00\\x00\\x00\\x00\\x01ma"}},
    {"partition:20",
     0,
     40000,
     8,
     150000,
     8,
     {16000, 21500, 16000, 21500, 16000, 21500, 16000, 21500},
     {"\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x02\\x00\\x00\\x00\\x00\\x00\\x00N\"",
      "\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x05\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x05",
      "\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x07\\x00\\x00\\x00\\x00\\x00\\x00N'",
      "\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x0A\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x0A",
      "\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x0C\\x00\\x00\\x00\\x00\\x00\\x00N,",
      "\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x0F\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x0F",
      "\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x11\\x00\\x00\\x00\\x00\\x00\\x00N1"}},
    {"hex8",
     7,
     60000,
     12,
     200000,
     12,
     {16970, 16803, 16645, 16437, 16611, 16544, 16737, 16616, 16927, 16764, 16562, 16384},
     {"15c4fe0a", "2b7514e1", "40bba400", "5573a288", "6a925a80", "7fdedf8d", "952f80b0",
      "aa7e8f2a", "c0663e5d", "d5ed0c6f", "eafdf067"}},
    {"transaction",
     3,
     50000,
     10,
     150000,
     10,
     {14843, 15067, 14987, 14936, 15222, 15119, 15003, 14835, 15031, 14957},
     {"\\x19u\\x00\\x00\\xD29", "3\\x06\\x00\\x00\\xE5\\x83", "L\\x9D\\x00\\x01#2",
      "e\\xB5\\x00\\x000\\xC4", "\\x7F\\xBD\\x00\\x00\\xE7\\x01", "\\x99\\x99\\x00\\x00i:",
      "\\xB37\\x00\\x00\\x89\\xA4", "\\xCCP\\x00\\x00z\\xFF", "\\xE5\\xF0\\x00\\x00\\x0E5"}},
    {"statistics:700",
     0,
     20000,
     5,
     100000,
     5,
     {19618, 19732, 19860, 20445, 20345},
     {"\\x00\\x00\\x00\\x89\\x00\\x1B", "\\x00\\x00\\x01\\x13\\x00\\x19",
      "\\x00\\x00\\x01\\x9E\\x00\\x08", "\\x00\\x00\\x02-\\x00\\x04"}},
    {"roundrobin:300",
     0,
     20000,
     6,
     100000,
     6,
     {16416, 16683, 16634, 16367, 16948, 16952},
     {"\\x001\\x00\\x00\\x00\\x00\\x00\\x00:\\xCA", "\\x00c\\x00\\x00\\x00\\x00\\x00\\x00'\\x10",
      "\\x00\\x95\\x00\\x00\\x00\\x00\\x00\\x00\\x13V",
      "\\x00\\xC6\\x00\\x00\\x00\\x00\\x00\\x00N\\x1F",
      "\\x00\\xF9\\x00\\x00\\x00\\x00\\x00\\x00%N"}},
};

/* The same computed one key at a time: keys from hb_keygen_next, the sample sorted by qsort
 * with Bytes.compareTo and deduplicated, every base-th distinct key a split, each write routed
 * by comparing it with every split key. */
static void reference(struct hb_keys *splits, uint64_t *writes, const char *gen, int64_t seed,
                      long m, long regions, uint64_t count)
{
	struct hb_keys sample;
	struct hb_key_ref *refs;
	struct hb_keygen g;
	unsigned char k[HB_KEYGEN_MAX_KEY];
	size_t i, pos = 0, base = (size_t)(m / regions);
	uint64_t j;

	hb_keys_init(&sample);
	CHECK_EQ_INT(hb_keygen_init(&g, gen, seed, 0, NULL), 0);
	for (i = 0; i < (size_t)m; i++) {
		size_t len = hb_keygen_next(&g, k);

		CHECK_EQ_INT(hb_keys_push(&sample, k, len), 0);
	}
	refs = malloc(sample.n * sizeof(*refs));
	CHECK(refs != NULL);
	if (!refs)
		return;
	for (i = 0; i < sample.n; i++)
		refs[i].p = hb_keys_at(&sample, i, &refs[i].len);
	qsort(refs, sample.n, sizeof(*refs), hb_key_ref_cmp);
	for (i = 0; i < sample.n && splits->n < (size_t)regions - 1; i++) {
		if (i && !hb_key_ref_cmp(&refs[i - 1], &refs[i]))
			continue;
		if (pos && pos % base == 0)
			CHECK_EQ_INT(hb_keys_push(splits, refs[i].p, refs[i].len), 0);
		pos++;
	}
	free(refs);
	hb_keys_release(&sample);
	CHECK_EQ_INT(hb_keygen_init(&g, gen, seed, 0, NULL), 0);
	for (j = 0; j < count; j++) {
		size_t len = hb_keygen_next(&g, k);

		writes[brute_route(splits, k, len)]++;
	}
}

static void test_simulate__sampled_designs_give_the_splits_and_counts_of_before(void)
{
	size_t d, i;

	for (d = 0; d < HB_ARRAY_LEN(designs); d++) {
		struct hb_keys sample, splits, ref;
		struct hb_split_spec spec;
		struct hb_sim_router r;
		struct hb_keygen g;
		uint64_t writes[16] = {0}, ref_writes[16] = {0};

		hb_keys_init(&sample);
		hb_keys_init(&splits);
		hb_keys_init(&ref);
		CHECK_EQ_INT(hb_keygen_init(&g, designs[d].gen, designs[d].seed, 0, NULL), 0);
		CHECK_EQ_INT(hb_keygen_fill(&sample, &g, designs[d].sample, NULL), 0);
		memset(&spec, 0, sizeof(spec));
		spec.algo = HB_SPLIT_SAMPLED;
		spec.n = designs[d].regions;
		spec.sample = &sample;
		spec.sample_draws = designs[d].sample;
		CHECK_EQ_INT(hb_split_compute(&splits, &spec, NULL), 0);
		CHECK_EQ_INT(splits.n + 1, designs[d].nregions);
		for (i = 0; i < splits.n && i < 15; i++) {
			struct hb_buf t = HB_BUF_INIT;
			size_t len;
			const unsigned char *k = hb_keys_at(&splits, i, &len);

			CHECK_EQ_INT(hb_tsb_append(&t, k, len), 0);
			CHECK_EQ_STR(hb_buf_str(&t), designs[d].splits[i]);
			hb_buf_release(&t);
		}
		CHECK_EQ_INT(hb_keygen_init(&g, designs[d].gen, designs[d].seed, 0, NULL), 0);
		CHECK_EQ_INT(hb_sim_router_init(&r, &splits, NULL), 0);
		hb_sim_count_generated(writes, &r, &g, designs[d].count);
		hb_sim_router_release(&r);
		for (i = 0; i < designs[d].nregions; i++)
			CHECK_EQ_INT(writes[i], designs[d].writes[i]);
		reference(&ref, ref_writes, designs[d].gen, designs[d].seed, designs[d].sample,
		          designs[d].regions, designs[d].count);
		CHECK_EQ_INT(ref.n, splits.n);
		for (i = 0; i < designs[d].nregions; i++)
			CHECK_EQ_INT(ref_writes[i], writes[i]);
		hb_keys_release(&sample);
		hb_keys_release(&splits);
		hb_keys_release(&ref);
	}
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
	RUN(test_simulate__sampled_designs_give_the_splits_and_counts_of_before);
	return TEST_DONE();
}
