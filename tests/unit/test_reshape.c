/* reshape's planner: rounds of splits and merges from one split design to another, the region
 * count kept in its bounds, and the bucket guard. */
#include "core/key.h"
#include "core/repair.h"
#include "core/reshape.h"
#include "core/split.h"
#include "test.h"

static struct hb_error err;

static void keys_of(struct hb_keys *keys, enum hb_split_algo algo, long n)
{
	struct hb_split_spec sp;

	memset(&sp, 0, sizeof(sp));
	sp.algo = algo;
	sp.n = n;
	sp.salt_width = 1;
	hb_keys_init(keys);
	CHECK_EQ_INT(hb_split_compute(keys, &sp, &err), 0);
}

/* A table's regions from its split keys, encoded names numbered from base. */
static void from_splits(struct hb_regions *rs, const struct hb_keys *keys, size_t base)
{
	size_t i;

	hb_regions_init(rs);
	for (i = 0; i <= keys->n; i++) {
		struct hb_region r;
		char enc[33];
		size_t sl = 0, el = 0;

		memset(&r, 0, sizeof(r));
		snprintf(enc, sizeof(enc), "%032zx", i + base);
		r.start = i ? (unsigned char *)hb_keys_at(keys, i - 1, &sl) : NULL;
		r.end = i < keys->n ? (unsigned char *)hb_keys_at(keys, i, &el) : NULL;
		r.start_len = sl;
		r.end_len = el;
		r.encoded = enc;
		r.id = 1;
		CHECK_EQ_INT(hb_regions_push(rs, &r), 0);
	}
}

/* The boundaries after the plan's round-1 steps, as HBase leaves them. */
static void apply_now(struct hb_keys *out, const struct hb_regions *rs,
                      const struct hb_repair_plan *p)
{
	unsigned char *drop = calloc(rs->n + 1, 1);
	size_t i, j;

	hb_keys_init(out);
	for (i = 0; i < p->n; i++)
		if (p->v[i].action == HB_REPAIR_MERGE)
			for (j = p->v[i].first + 1; j < p->v[i].first + p->v[i].n; j++)
				drop[j] = 1;
	for (i = 1; i < rs->n; i++) {
		const unsigned char *s, *e;
		size_t sl, el;

		if (drop[i])
			continue;
		hb_regions_bounds(rs, i, &s, &sl, &e, &el);
		CHECK_EQ_INT(hb_keys_push(out, s, sl), 0);
	}
	for (i = 0; i < p->n; i++)
		if (p->v[i].action == HB_REPAIR_SPLIT)
			CHECK_EQ_INT(hb_keys_push(out, p->v[i].split.data, p->v[i].split.len), 0);
	CHECK_EQ_INT(hb_keys_sort(out), 0);
	free(drop);
}

static int same_keys(const struct hb_keys *a, const struct hb_keys *b)
{
	size_t i;

	if (a->n != b->n)
		return 0;
	for (i = 0; i < a->n; i++) {
		size_t al, bl;
		const unsigned char *x = hb_keys_at(a, i, &al), *y = hb_keys_at(b, i, &bl);

		if (hb_key_cmp(x, al, y, bl))
			return 0;
	}
	return 1;
}

/* Runs the plan round after round, as --apply does (each round's regions clear before the
 * next plan), checking every count against the bounds; returns the rounds it took. */
static size_t reshape(long from_n, long to_n, enum hb_split_algo algo)
{
	struct hb_keys cur, target;
	struct hb_reshape_params p = {HB_RESHAPE_MARGIN, (size_t)from_n, NULL};
	size_t rounds = 0, foreseen = 0, lo = (size_t)(from_n < to_n ? from_n : to_n),
	       hi = (size_t)(from_n > to_n ? from_n : to_n) + HB_RESHAPE_MARGIN;

	keys_of(&cur, algo, from_n);
	keys_of(&target, algo, to_n);
	for (;;) {
		struct hb_regions rs;
		struct hb_reshape_plan plan;
		struct hb_keys next;
		size_t i, count;

		from_splits(&rs, &cur, 0x100 * (rounds + 1));
		hb_reshape_plan_init(&plan);
		CHECK_EQ_INT(hb_reshape_plan(&plan, "ns:t", &rs, NULL, &target, &p), 0);
		CHECK(!plan.stuck);
		CHECK(plan.low >= lo);
		CHECK(plan.peak <= hi);
		if (!rounds)
			foreseen = plan.rounds;
		count = rs.n;
		for (i = 0; i < plan.now.n; i++) {
			const struct hb_repair_step *s = &plan.now.v[i];

			CHECK(s->action != HB_REPAIR_REPORT);
			count = s->action == HB_REPAIR_SPLIT ? count + 1 : count - (s->n - 1);
			CHECK_EQ_INT((long)plan.after_now[i], (long)count);
			CHECK(count >= lo && count <= hi);
			if (s->action == HB_REPAIR_MERGE)
				CHECK(!strncmp(s->command, "merge_region '", 14));
			else
				CHECK(!strncmp(s->command, "split '", 7));
		}
		if (!plan.now.steps) {
			CHECK(same_keys(&cur, &target));
			CHECK_EQ_INT(plan.rounds, 0);
			hb_reshape_plan_release(&plan);
			hb_regions_release(&rs);
			break;
		}
		apply_now(&next, &rs, &plan.now);
		hb_keys_release(&cur);
		cur = next;
		hb_reshape_plan_release(&plan);
		hb_regions_release(&rs);
		rounds++;
		CHECK(rounds < 50);
		if (rounds >= 50)
			break;
	}
	CHECK_EQ_INT((long)rounds, (long)foreseen);
	hb_keys_release(&cur);
	hb_keys_release(&target);
	return rounds;
}

static void test_reshape__hex_10_to_16_to_6_reaches_the_target_within_the_count_bounds(void)
{
	CHECK(reshape(10, 16, HB_SPLIT_HEX) > 0);
	CHECK(reshape(16, 6, HB_SPLIT_HEX) > 0);
	CHECK(reshape(10, 6, HB_SPLIT_HEX) > 0);
	CHECK(reshape(6, 64, HB_SPLIT_HEX) > 0);
	CHECK(reshape(64, 3, HB_SPLIT_HEX) > 0);
	CHECK(reshape(7, 8, HB_SPLIT_DECIMAL) > 0);
	CHECK(reshape(3, 2, HB_SPLIT_UNIFORM) > 0);
}

static void test_reshape__a_table_that_matches_has_no_step(void)
{
	CHECK_EQ_INT(reshape(16, 16, HB_SPLIT_HEX), 0);
	/* 8 to 16: every old boundary is a new one, only splits */
	CHECK(reshape(8, 16, HB_SPLIT_HEX) > 0);
}

static void test_reshape__held_regions_are_reported_blocked_with_what_clears_them(void)
{
	struct hb_keys cur, target;
	struct hb_regions rs;
	struct hb_reshape_plan plan;
	struct hb_reshape_params p = {HB_RESHAPE_MARGIN, 0, NULL};
	struct hb_repair_ev *ev;
	size_t i, blocked = 0;

	keys_of(&cur, HB_SPLIT_HEX, 10);
	keys_of(&target, HB_SPLIT_HEX, 16);
	from_splits(&rs, &cur, 0x10);
	ev = calloc(rs.n, sizeof(*ev));
	for (i = 0; i < rs.n; i++)
		ev[i].daughter = 1;
	hb_reshape_plan_init(&plan);
	CHECK_EQ_INT(hb_reshape_plan(&plan, "ns:t", &rs, ev, &target, &p), 0);
	CHECK_EQ_INT((long)plan.now.steps, 0);
	for (i = 0; i < plan.now.n; i++) {
		CHECK_EQ_STR(plan.now.v[i].finding, HB_RESHAPE_BLOCKED);
		CHECK(strstr(plan.now.v[i].command, "major_compact '") == plan.now.v[i].command);
		CHECK(strstr(plan.now.v[i].command, "catalogjanitor_run") != NULL);
		blocked++;
	}
	CHECK(blocked > 0);
	/* foreseen as clear afterwards: the later rounds reach the target */
	CHECK(plan.nlater > 0);
	CHECK(!plan.stuck);
	hb_reshape_plan_release(&plan);
	hb_regions_release(&rs);
	hb_keys_release(&cur);
	hb_keys_release(&target);
	free(ev);
}

static void test_reshape__bucket_guard_knows_where_buckets_start(void)
{
	struct hb_buckets b;

	hb_buckets_of_design(&b, "--salt-splits 16 --salt-width 1", 16, NULL);
	CHECK_EQ_INT((long)b.parts, 16);
	CHECK_EQ_INT(b.width, 1);
	CHECK_EQ_STR(b.kind, "salt");
	/* [\x03, \x04) is bucket 3; [\x03, \x05) holds the start of bucket 4 */
	CHECK(!hb_buckets_crossed(&b, "\x03", 1, "\x04", 1));
	CHECK(hb_buckets_crossed(&b, "\x03", 1, "\x05", 1));
	CHECK(!hb_buckets_crossed(&b, "\x03\x10", 2, "\x03\x20", 2));
	CHECK(hb_buckets_crossed(&b, "", 0, "\x01\x00", 2));
	CHECK(!hb_buckets_crossed(&b, "", 0, "\x01", 1));
	CHECK(!hb_buckets_crossed(&b, "\x0f", 1, "", 0));
	CHECK(hb_buckets_crossed(&b, "\x0e\xff", 2, "", 0));
	hb_buckets_of_design(&b, "--partition-splits 4", 4, NULL);
	CHECK_EQ_INT(b.width, 8);
	CHECK(hb_buckets_crossed(&b, "", 0, "\x00\x00\x00\x00\x00\x00\x00\x01\x00", 9));
	hb_buckets_of_design(&b, "--hex-splits 16", 16, NULL);
	CHECK_EQ_INT((long)b.parts, 0);
	CHECK(!hb_buckets_crossed(&b, "", 0, "", 0));
}

/* A salted table (16 one-byte buckets, two regions each) reshaped to hex boundaries would
 * need merges across buckets: none is planned, each is reported and the plan is stuck. */
static void test_reshape__no_merge_across_a_bucket_boundary_is_ever_planned(void)
{
	struct hb_keys cur, target;
	struct hb_regions rs;
	struct hb_reshape_plan plan;
	struct hb_buckets b;
	struct hb_reshape_params p = {HB_RESHAPE_MARGIN, 0, NULL};
	size_t i, reported = 0;

	hb_keys_init(&cur);
	for (i = 1; i < 16; i++) {
		unsigned char k[2] = {(unsigned char)i, 0x80};

		CHECK_EQ_INT(hb_keys_push(&cur, k, 1), 0);
		CHECK_EQ_INT(hb_keys_push(&cur, k, 2), 0);
	}
	CHECK_EQ_INT(hb_keys_sort(&cur), 0);
	hb_buckets_of_design(&b, "--salt-splits 16", 16, NULL);
	p.buckets = &b;
	/* target: 4 regions at \x04, \x08, \x0c: merges of whole buckets only */
	hb_keys_init(&target);
	CHECK_EQ_INT(hb_keys_push(&target, "\x04", 1), 0);
	CHECK_EQ_INT(hb_keys_push(&target, "\x08", 1), 0);
	CHECK_EQ_INT(hb_keys_push(&target, "\x0c", 1), 0);
	from_splits(&rs, &cur, 0x20);
	hb_reshape_plan_init(&plan);
	CHECK_EQ_INT(hb_reshape_plan(&plan, "ns:salted", &rs, NULL, &target, &p), 0);
	CHECK(plan.stuck);
	for (i = 0; i < plan.now.n; i++) {
		const struct hb_repair_step *s = &plan.now.v[i];
		const unsigned char *a, *x, *y, *e;
		size_t al, xl, yl, el;

		hb_regions_bounds(&rs, s->first, &a, &al, &x, &xl);
		hb_regions_bounds(&rs, s->first + s->n - 1, &y, &yl, &e, &el);
		if (s->action == HB_REPAIR_MERGE)
			CHECK(!hb_buckets_crossed(&b, a, al, e, el));
		if (!strcmp(s->finding, HB_RESHAPE_BUCKET)) {
			CHECK(hb_buckets_crossed(&b, a, al, e, el));
			CHECK(strstr(s->message, "never merged") != NULL);
			reported++;
		}
	}
	CHECK(reported > 0);
	for (i = 0; i < plan.nlater; i++)
		if (plan.later[i].action == HB_REPAIR_MERGE)
			CHECK(!hb_buckets_crossed(&b, plan.later[i].start.data,
			                          plan.later[i].start.len, plan.later[i].end.data,
			                          plan.later[i].end.len));
	hb_reshape_plan_release(&plan);
	hb_regions_release(&rs);
	hb_keys_release(&cur);
	hb_keys_release(&target);
}

static void test_reshape__salt_and_partition_boundaries_are_recognised_without_a_record(void)
{
	struct hb_keys k;
	struct hb_regions rs;
	struct hb_buckets b;

	keys_of(&k, HB_SPLIT_SALT, 8);
	from_splits(&rs, &k, 0x40);
	CHECK_EQ_INT(hb_buckets_of_boundaries(&b, &rs), 1);
	CHECK_EQ_INT((long)b.parts, 8);
	CHECK_EQ_INT(b.width, 1);
	CHECK_EQ_STR(b.kind, "salt");
	hb_regions_release(&rs);
	hb_keys_release(&k);
	keys_of(&k, HB_SPLIT_PARTITION, 20);
	from_splits(&rs, &k, 0x40);
	CHECK_EQ_INT(hb_buckets_of_boundaries(&b, &rs), 1);
	CHECK_EQ_INT((long)b.parts, 20);
	CHECK_EQ_INT(b.width, 8);
	CHECK_EQ_STR(b.kind, "partition");
	hb_regions_release(&rs);
	hb_keys_release(&k);
	keys_of(&k, HB_SPLIT_HEX, 16);
	from_splits(&rs, &k, 0x40);
	CHECK_EQ_INT(hb_buckets_of_boundaries(&b, &rs), 0);
	CHECK_EQ_INT((long)b.parts, 0);
	hb_regions_release(&rs);
	hb_keys_release(&k);
}

int main(void)
{
	RUN(test_reshape__hex_10_to_16_to_6_reaches_the_target_within_the_count_bounds);
	RUN(test_reshape__a_table_that_matches_has_no_step);
	RUN(test_reshape__held_regions_are_reported_blocked_with_what_clears_them);
	RUN(test_reshape__bucket_guard_knows_where_buckets_start);
	RUN(test_reshape__no_merge_across_a_bucket_boundary_is_ever_planned);
	RUN(test_reshape__salt_and_partition_boundaries_are_recognised_without_a_record);
	return TEST_DONE();
}
