/* Generated keys made by spans in any order, and the sample made sorted by threads, against the
 * keys one generator makes in sequence. */
#include "core/keypar.h"
#include "core/keysample.h"
#include "test.h"

static const char *const designs[] = {"md5",      "transaction",  "hex8",       "partition:7",
                                      "salt:300", "roundrobin:5", "sequential", "statistics:7"};

/* Seed 340's java.util.Random refuses its draw 2786 for nextInt(1000): the md5 clock draws
 * again there, so spans of draws and spans of keys part ways. */
#define REDRAW_SEED 340

static unsigned char *sequence(const char *design, uint64_t n, size_t *w)
{
	struct hb_keygen g;
	unsigned char *out;

	CHECK_EQ_INT(hb_keygen_init(&g, design, REDRAW_SEED, 1700000000000LL, NULL), 0);
	*w = hb_keygen_width(&g);
	out = malloc(n * *w + 1);
	hb_keygen_next_n(&g, out, n);
	return out;
}

static void test_keypar__spans_made_backwards_give_the_sequence(void)
{
	static const uint64_t lens[] = {1, 7, 100, 1393, 2786, 2787, 5000};
	const uint64_t count = 10000;
	size_t d, l, w;

	for (d = 0; d < HB_ARRAY_LEN(designs); d++)
		for (l = 0; l < HB_ARRAY_LEN(lens); l++) {
			struct hb_keygen g, at;
			struct hb_keygen_span before[10002], own;
			unsigned char *want = sequence(designs[d], count, &w);
			unsigned char *got = calloc(count, w);
			uint64_t n = 0, i;

			hb_keygen_init(&g, designs[d], REDRAW_SEED, 1700000000000LL, NULL);
			before[0] = (struct hb_keygen_span){0, 0};
			for (n = 0; before[n].keys < count; n++) {
				hb_keygen_span_scan(&own, &g, n, lens[l]);
				before[n + 1].keys = before[n].keys + own.keys;
				before[n + 1].clock = before[n].clock + own.clock;
			}
			for (i = n; i-- > 0;) {
				uint64_t end =
				    before[i + 1].keys < count ? before[i + 1].keys : count;

				hb_keygen_span_start(&at, &g, i, lens[l], &before[i]);
				hb_keygen_next_n(&at, got + before[i].keys * w,
				                 (size_t)(end - before[i].keys));
			}
			if (memcmp(got, want, count * w))
				fprintf(stderr, "%s, spans of %llu\n", designs[d],
				        (unsigned long long)lens[l]);
			CHECK(!memcmp(got, want, count * w));
			free(want);
			free(got);
		}
}

static void test_keypar__a_redrawn_clock_draw_makes_no_key(void)
{
	struct hb_keygen g;
	struct hb_keygen_span own;

	CHECK_EQ_INT(hb_keygen_init(&g, "md5", REDRAW_SEED, 0, NULL), 0);
	hb_keygen_span_scan(&own, &g, 0, 2786);
	CHECK_EQ_INT(own.keys, 2786);
	hb_keygen_span_scan(&own, &g, 0, 2787);
	CHECK_EQ_INT(own.keys, 2786);
	hb_keygen_span_scan(&own, &g, 2, 1393);
	CHECK_EQ_INT(own.keys, 1392);
}

static void test_keypar__plans_for_threads_give_the_sequence(void)
{
	const uint64_t count = 150000; /* 3 spans */
	size_t d, w, threads;

	for (d = 0; d < HB_ARRAY_LEN(designs); d++)
		for (threads = 1; threads <= 3; threads += 2) {
			struct hb_keyplan p;
			struct hb_keyplan_cursor fwd, back;
			unsigned char *want = sequence(designs[d], count, &w);
			unsigned char *got = calloc(count, w), *got2 = calloc(count, w);
			struct hb_keygen g;
			uint64_t t, first, n;

			hb_keygen_init(&g, designs[d], REDRAW_SEED, 1700000000000LL, NULL);
			CHECK_EQ_INT(hb_keyplan_init(&p, &g, count, threads, NULL), 0);
			hb_keyplan_cursor_init(&fwd, &p);
			for (t = 0; t < p.spans; t++) {
				n = hb_keyplan_seek(&fwd, &p, t, &first);
				hb_keygen_next_n(&fwd.g, got + first * w, (size_t)n);
			}
			/* one cursor a span, last first (only plans with sums can jump) */
			for (t = p.spans; p.before && t-- > 0;) {
				hb_keyplan_cursor_init(&back, &p);
				n = hb_keyplan_seek(&back, &p, t, &first);
				hb_keygen_next_n(&back.g, got2 + first * w, (size_t)n);
			}
			CHECK(!memcmp(got, want, count * w));
			CHECK(!p.before || !memcmp(got2, want, count * w));
			hb_keyplan_release(&p);
			free(want);
			free(got);
			free(got2);
		}
}

/* Where hb_keygen_run's tasks put the keys they make: at their index, the generator's id less
 * the first key's. */
struct run_out {
	unsigned char *got;
	size_t w;
	int64_t id0;
	uint64_t made[4];
};

static void run_task(void *ctx, size_t w, struct hb_keygen *g, uint64_t n)
{
	struct run_out *o = ctx;

	hb_keygen_next_n(g, o->got + (uint64_t)(g->id - o->id0) * o->w, (size_t)n);
	o->made[w] += n;
}

static void test_keypar__runs_taken_in_halves_give_the_sequence(void)
{
	const uint64_t count = 200000; /* 12 runs of 16384 keys: halves are taken */
	size_t d, threads;

	for (d = 0; d < HB_ARRAY_LEN(designs); d++)
		for (threads = 1; threads <= 4; threads++) {
			struct run_out o = {0};
			unsigned char *want = sequence(designs[d], count, &o.w);
			struct hb_keygen g;

			o.got = calloc(count, o.w);
			hb_keygen_init(&g, designs[d], REDRAW_SEED, 1700000000000LL, NULL);
			o.id0 = g.id;
			CHECK_EQ_INT(
			    hb_keygen_run(&g, count, threads, run_task, &o, NULL, NULL, NULL), 0);
			CHECK(!memcmp(o.got, want, count * o.w));
			CHECK_EQ_INT(o.made[0] + o.made[1] + o.made[2] + o.made[3], count);
			free(want);
			free(o.got);
		}
}

static size_t cmp_w;

static int cmp_fixed(const void *a, const void *b)
{
	return memcmp(a, b, cmp_w);
}

/* Key i of ks from index first on is w bytes at (i - first) * w past key first. */
static void check_layout(const struct hb_keys *ks, size_t first, size_t w)
{
	size_t i, len, bad = 0;
	const unsigned char *k0 = hb_keys_at(ks, first, &len);

	for (i = first; i < ks->n; i++)
		bad += hb_keys_at(ks, i, &len) != k0 + (i - first) * w || len != w;
	CHECK_EQ_INT(bad, 0);
}

/* 1 when no two neighbours of the n sorted keys of w bytes are equal. */
static int distinct(const unsigned char *k, uint64_t n, size_t w)
{
	uint64_t i;

	for (i = 1; i < n; i++)
		if (!memcmp(k + (i - 1) * w, k + i * w, w))
			return 0;
	return 1;
}

static void test_keypar__sorted_sample_is_the_sequence_sorted(void)
{
	static const uint64_t counts[] = {1, 2, 1000, 140000};
	static const size_t threads[] = {1, 2, 3, 8};
	size_t d, c, t, w;

	for (d = 0; d < HB_ARRAY_LEN(designs); d++)
		for (c = 0; c < HB_ARRAY_LEN(counts); c++) {
			unsigned char *want = sequence(designs[d], counts[c], &w);

			cmp_w = w;
			qsort(want, counts[c], w, cmp_fixed);
			for (t = 0; t < HB_ARRAY_LEN(threads); t++) {
				struct hb_keys ks;
				struct hb_keygen g;

				hb_keys_init(&ks);
				hb_keygen_init(&g, designs[d], REDRAW_SEED, 1700000000000LL, NULL);
				CHECK_EQ_INT(
				    hb_keygen_sample_sorted(&ks, &g, counts[c], threads[t], NULL),
				    0);
				CHECK_EQ_INT(ks.n, counts[c]);
				CHECK(ks.bytes.len == counts[c] * w &&
				      !memcmp(ks.bytes.data, want, counts[c] * w));
				check_layout(&ks, 0, w);
				/* marked ordered exactly when no two keys are equal */
				CHECK_EQ_INT(ks.ordered, distinct(want, counts[c], w) ? ks.n : 0);
				hb_keys_release(&ks);
			}
			free(want);
		}
}

static void test_keypar__sample_after_other_keys_keeps_them_and_claims_no_order(void)
{
	struct hb_keys ks;
	struct hb_keygen g;
	size_t len;
	const unsigned char *k;

	hb_keys_init(&ks);
	CHECK_EQ_INT(hb_keys_push(&ks, "abc", 3), 0);
	hb_keygen_init(&g, "md5", REDRAW_SEED, 1700000000000LL, NULL);
	CHECK_EQ_INT(hb_keygen_sample_sorted(&ks, &g, 70000, 2, NULL), 0);
	CHECK_EQ_INT(ks.n, 70001);
	k = hb_keys_at(&ks, 0, &len);
	CHECK(len == 3 && !memcmp(k, "abc", 3));
	check_layout(&ks, 1, 16);
	CHECK_EQ_INT(ks.ordered, 0);
	hb_keys_release(&ks);
}

/* The keys of g's next n keys sorted, of ranks 0, step, 2 step, .. among the distinct ones. */
static unsigned char *every_step(const struct hb_keygen *g0, uint64_t n, uint64_t step,
                                 uint64_t *picks, uint64_t *ndistinct)
{
	struct hb_keygen g = *g0;
	size_t w = hb_keygen_width(&g);
	unsigned char *all = malloc(n * w + 1), *out = malloc(n * w + 1);
	uint64_t i, d = 0;

	hb_keygen_next_n(&g, all, (size_t)n);
	cmp_w = w;
	qsort(all, n, w, cmp_fixed);
	*picks = 0;
	for (i = 0; i < n; i++) {
		if (i && !memcmp(all + (i - 1) * w, all + i * w, w))
			continue;
		if (d++ % step == 0)
			memcpy(out + (*picks)++ * w, all + i * w, w);
	}
	*ndistinct = d;
	free(all);
	return out;
}

static void check_quantiles(const struct hb_keygen *g, uint64_t count, uint64_t step,
                            size_t threads)
{
	struct hb_keys ks;
	uint64_t picks, d, got_d = 0;
	size_t w = hb_keygen_width(g);
	unsigned char *want = every_step(g, count, step, &picks, &d);

	hb_keys_init(&ks);
	CHECK_EQ_INT(hb_keygen_sample_quantiles(&ks, &got_d, g, count, step, threads, NULL), 0);
	CHECK_EQ_INT(got_d, d);
	CHECK_EQ_INT(ks.n, picks);
	CHECK_EQ_INT(ks.ordered, ks.n);
	CHECK(ks.bytes.len == picks * w && !memcmp(ks.bytes.data, want, picks * w));
	hb_keys_release(&ks);
	free(want);
}

static void test_keypar__quantiles_are_every_step_th_distinct_key_sorted(void)
{
	static const uint64_t counts[] = {1, 2, 1000, 140000};
	static const uint64_t steps[] = {1, 7, 100, 14000, 140000};
	static const size_t threads[] = {1, 2, 3};
	size_t d, c, s, t;

	for (d = 0; d < HB_ARRAY_LEN(designs); d++)
		for (c = 0; c < HB_ARRAY_LEN(counts); c++)
			for (s = 0; s < HB_ARRAY_LEN(steps); s++)
				for (t = 0; t < HB_ARRAY_LEN(threads); t++) {
					struct hb_keygen g;

					hb_keygen_init(&g, designs[d], REDRAW_SEED, 1700000000000LL,
					               NULL);
					check_quantiles(&g, counts[c], steps[s], threads[t]);
				}
}

/* md5 keys end in their 8-byte id: ids past 2^32, and negative ones (bytes 0xFF..), order
 * as those bytes do. */
static void test_keypar__md5_quantiles_order_ids_as_bytes(void)
{
	static const int64_t ids[] = {4294967296LL - 50000, -50000, INT64_MAX - 60000};
	size_t i, t;

	for (i = 0; i < HB_ARRAY_LEN(ids); i++)
		for (t = 1; t <= 2; t++) {
			struct hb_keygen g;

			hb_keygen_init(&g, "md5", REDRAW_SEED, 1700000000000LL, NULL);
			g.id = ids[i];
			check_quantiles(&g, 100000, 9999, t);
		}
}

static void test_keypar__md5_prefixes_make_the_keys(void)
{
	struct hb_keygen g, h;
	unsigned char want[1000 * 16], k[16];
	uint32_t p[1000];
	size_t i, bad = 0;

	hb_keygen_init(&g, "md5", REDRAW_SEED, 1700000000000LL, NULL);
	h = g;
	hb_keygen_next_n(&g, want, 1000);
	hb_keygen_md5_prefixes(&h, p, 1000);
	CHECK(g.id == h.id && g.ts == h.ts && g.rnd.seed == h.rnd.seed);
	for (i = 0; i < 1000; i++) {
		hb_keygen_md5_key(k, p[i], 1 + (int64_t)i);
		bad += memcmp(k, want + 16 * i, 16) != 0;
	}
	CHECK_EQ_INT(bad, 0);
}

int main(void)
{
	RUN(test_keypar__quantiles_are_every_step_th_distinct_key_sorted);
	RUN(test_keypar__md5_quantiles_order_ids_as_bytes);
	RUN(test_keypar__md5_prefixes_make_the_keys);
	RUN(test_keypar__a_redrawn_clock_draw_makes_no_key);
	RUN(test_keypar__spans_made_backwards_give_the_sequence);
	RUN(test_keypar__plans_for_threads_give_the_sequence);
	RUN(test_keypar__runs_taken_in_halves_give_the_sequence);
	RUN(test_keypar__sorted_sample_is_the_sequence_sorted);
	RUN(test_keypar__sample_after_other_keys_keeps_them_and_claims_no_order);
	return TEST_DONE();
}
