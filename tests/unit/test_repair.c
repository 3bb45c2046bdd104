/* repair's planner: merges of unreachable and empty regions, splits of hot ones. */
#include "core/audit.h"
#include "core/keyspace.h"
#include "core/repair.h"
#include "core/reshape.h"
#include "core/split.h"
#include "test.h"

static struct hb_error err;

/* A table's regions from its split keys, each with an encoded name "e<i>" padded to 32. */
static void from_splits(struct hb_regions *rs, const struct hb_keys *keys)
{
	size_t i;

	hb_regions_init(rs);
	for (i = 0; i <= keys->n; i++) {
		struct hb_region r;
		char enc[33];
		size_t sl = 0, el = 0;

		memset(&r, 0, sizeof(r));
		snprintf(enc, sizeof(enc), "%032zx", i + 0xe0);
		r.start = i ? (unsigned char *)hb_keys_at(keys, i - 1, &sl) : NULL;
		r.end = i < keys->n ? (unsigned char *)hb_keys_at(keys, i, &el) : NULL;
		r.start_len = sl;
		r.end_len = el;
		r.encoded = enc;
		r.id = 1;
		hb_regions_push(rs, &r);
	}
}

/* The seed design: createTable(desc, "0000000000000000", "ffffffffffffffff", 10). */
static void seed_keys(struct hb_keys *keys)
{
	struct hb_split_spec sp;

	memset(&sp, 0, sizeof(sp));
	sp.algo = HB_SPLIT_RANGE;
	sp.n = 10;
	sp.start = (const unsigned char *)"0000000000000000";
	sp.start_len = 16;
	sp.end = (const unsigned char *)"ffffffffffffffff";
	sp.end_len = 16;
	hb_keys_init(keys);
	CHECK_EQ_INT(hb_split_compute(keys, &sp, &err), 0);
}

/* Evidence from the audit's own reachability decision; every region proven empty. */
static struct hb_repair_ev *evidence(const struct hb_regions *rs, const char *keyspace)
{
	struct hb_keyspace *ks = NULL;
	struct hb_audit a;
	struct hb_repair_ev *ev = calloc(rs->n, sizeof(*ev));
	size_t i;

	hb_audit_init(&a);
	CHECK_EQ_INT(hb_keyspace_parse(&ks, keyspace, &err), 0);
	CHECK_EQ_INT(hb_audit_reach(&a, ks, rs, &err), 0);
	for (i = 0; i < rs->n; i++) {
		struct hb_audit_region ar;

		hb_audit_at(&a, i, &ar);
		ev[i].reachable = ar.reachable;
		ev[i].rows = 0;
		ev[i].load_empty = -1;
	}
	hb_audit_release(&a);
	hb_keyspace_free(ks);
	return ev;
}

/* Applies the plan's merges and splits to rs as HBase would: the boundaries left. */
static void apply(struct hb_keys *out, const struct hb_regions *rs, const struct hb_repair_plan *p)
{
	unsigned char *drop = calloc(rs->n + 1, 1); /* drop[i]: region i's start goes */
	size_t i, j;

	hb_keys_init(out);
	for (i = 0; i < p->n; i++)
		if (p->v[i].action == HB_REPAIR_MERGE)
			for (j = p->v[i].first + 1; j < p->v[i].first + p->v[i].n; j++)
				drop[j] = 1;
	for (i = 1; i < rs->n; i++) {
		const unsigned char *s, *e;
		size_t sl, el;

		hb_regions_bounds(rs, i, &s, &sl, &e, &el);
		if (!drop[i])
			hb_keys_push(out, s, sl);
	}
	for (i = 0; i < p->n; i++)
		if (p->v[i].action == HB_REPAIR_SPLIT)
			hb_keys_push(out, p->v[i].split.data, p->v[i].split.len);
	hb_keys_sort(out);
	free(drop);
}

static const struct hb_repair_params defaults = {0,   1, 0, 10, {HB_SPLIT_RESTRICT_NONE, 0, NULL},
                                                 NULL};

static void test_repair__seed_design_merges_regions_0_and_3_to_7_keeping_reachable_bounds(void)
{
	struct hb_keys keys, after;
	struct hb_regions rs;
	struct hb_repair_plan p;
	struct hb_repair_ev *ev;
	size_t i, k = 0;

	seed_keys(&keys);
	from_splits(&rs, &keys);
	ev = evidence(&rs, "hex{16}");
	/* regions 0 and 3-7 are the unreachable ones */
	for (i = 0; i < rs.n; i++)
		CHECK_EQ_INT(ev[i].reachable, !(i == 0 || (i >= 3 && i <= 7)));
	hb_repair_plan_init(&p);
	CHECK_EQ_INT(hb_repair_plan(&p, "t", &rs, ev, NULL, &defaults), 0);
	CHECK_EQ_INT(p.n, 2);
	CHECK_EQ_INT(p.steps, 2);
	/* region 0 has no reachable region before it: it goes to region 1 */
	CHECK_EQ_STR(p.v[0].finding, HB_REPAIR_UNREACHABLE);
	CHECK_EQ_INT(p.v[0].action, HB_REPAIR_MERGE);
	CHECK_EQ_INT(p.v[0].first, 0);
	CHECK_EQ_INT(p.v[0].n, 2);
	CHECK_EQ_STR(p.v[0].command, "merge_region '000000000000000000000000000000e0', "
	                             "'000000000000000000000000000000e1'");
	/* regions 3-7 go to region 2, before them, in one merge of six regions */
	CHECK_EQ_INT(p.v[1].first, 2);
	CHECK_EQ_INT(p.v[1].n, 6);
	CHECK(strstr(p.v[1].command, "'000000000000000000000000000000e2', "
	                             "'000000000000000000000000000000e3'") != NULL);
	CHECK(strstr(p.v[1].command, "'000000000000000000000000000000e7'") != NULL);
	CHECK(strstr(p.v[1].command, "e8'") == NULL);
	CHECK(strstr(p.v[1].command, "force") == NULL && strstr(p.v[1].command, "true") == NULL);
	/* afterwards the boundaries are exactly the starts of the reachable regions but the
	 * first, byte for byte */
	apply(&after, &rs, &p);
	CHECK_EQ_INT(after.n, 3);
	for (i = 1; i < rs.n; i++) {
		const unsigned char *s, *e, *got;
		size_t sl, el, gl;

		if (!ev[i].reachable || i == 1)
			continue;
		hb_regions_bounds(&rs, i, &s, &sl, &e, &el);
		got = k < after.n ? hb_keys_at(&after, k, &gl) : NULL;
		CHECK(got && gl == sl && !memcmp(got, s, sl));
		k++;
	}
	hb_keys_release(&after);
	hb_repair_plan_release(&p);
	free(ev);
	hb_regions_release(&rs);
	hb_keys_release(&keys);
}

/* Any two keys of the key space share a region after the merges exactly when they did
 * before: checked on the keys at every boundary of the seed design and next to them. */
static void test_repair__merges_keep_which_keys_share_a_region(void)
{
	struct hb_keys keys, after;
	struct hb_regions rs;
	struct hb_repair_plan p;
	struct hb_repair_ev *ev;
	static const char *const probe[] = {
	    "0000000000000000", "6fffffffffffffff", "7000000000000000", "9fffffffffffffff",
	    "a000000000000000", "fffffffffffffffe", "ffffffffffffffff", "3abc000000000000"};
	size_t i, j;

	seed_keys(&keys);
	from_splits(&rs, &keys);
	ev = evidence(&rs, "hex{16}");
	hb_repair_plan_init(&p);
	CHECK_EQ_INT(hb_repair_plan(&p, "t", &rs, ev, NULL, &defaults), 0);
	apply(&after, &rs, &p);
	for (i = 0; i < HB_ARRAY_LEN(probe); i++)
		for (j = 0; j < HB_ARRAY_LEN(probe); j++) {
			size_t bi = hb_keys_lower_bound(&keys, probe[i], 16),
			       bj = hb_keys_lower_bound(&keys, probe[j], 16),
			       ai = hb_keys_lower_bound(&after, probe[i], 16),
			       aj = hb_keys_lower_bound(&after, probe[j], 16);
			size_t l;

			/* lower_bound counts keys < k; a key equal to a boundary starts there */
			if (bi < keys.n && !memcmp(hb_keys_at(&keys, bi, &l), probe[i], 16))
				bi++;
			if (bj < keys.n && !memcmp(hb_keys_at(&keys, bj, &l), probe[j], 16))
				bj++;
			if (ai < after.n && !memcmp(hb_keys_at(&after, ai, &l), probe[i], 16))
				ai++;
			if (aj < after.n && !memcmp(hb_keys_at(&after, aj, &l), probe[j], 16))
				aj++;
			CHECK_EQ_INT(bi == bj, ai == aj);
		}
	hb_keys_release(&after);
	hb_repair_plan_release(&p);
	free(ev);
	hb_regions_release(&rs);
	hb_keys_release(&keys);
}

static void test_repair__unreachable_region_with_rows_is_reported_not_merged(void)
{
	struct hb_keys keys;
	struct hb_regions rs;
	struct hb_repair_plan p;
	struct hb_repair_ev *ev;
	size_t i;

	seed_keys(&keys);
	from_splits(&rs, &keys);
	ev = evidence(&rs, "hex{16}");
	ev[5].rows = 1; /* a row outside the key space */
	hb_repair_plan_init(&p);
	CHECK_EQ_INT(hb_repair_plan(&p, "t", &rs, ev, NULL, &defaults), 0);
	/* 0 -> 1; 3,4 -> 2; 6,7 -> 8 (after the region with rows); 5 reported */
	CHECK_EQ_INT(p.steps, 3);
	for (i = 0; i < p.n; i++) {
		if (p.v[i].action == HB_REPAIR_REPORT) {
			CHECK_EQ_STR(p.v[i].finding, HB_REPAIR_NOT_EMPTY);
			CHECK_EQ_INT(p.v[i].first, 5);
			continue;
		}
		CHECK(p.v[i].first > 5 || p.v[i].first + p.v[i].n <= 5);
	}
	CHECK_EQ_INT(p.v[1].first, 2);
	CHECK_EQ_INT(p.v[1].n, 3);
	/* region 8 takes 6 and 7 from its left: [6, 7, 8] in key order */
	CHECK_EQ_INT(p.v[2].first, 6);
	CHECK_EQ_INT(p.v[2].n, 3);
	hb_repair_plan_release(&p);
	free(ev);
	hb_regions_release(&rs);
	hb_keys_release(&keys);
}

static void test_repair__unscanned_unreachable_region_is_never_merged(void)
{
	struct hb_keys keys;
	struct hb_regions rs;
	struct hb_repair_plan p;
	struct hb_repair_ev *ev;

	seed_keys(&keys);
	from_splits(&rs, &keys);
	ev = evidence(&rs, "hex{16}");
	ev[0].rows = -1;
	hb_repair_plan_init(&p);
	CHECK_EQ_INT(hb_repair_plan(&p, "t", &rs, ev, NULL, &defaults), 0);
	CHECK_EQ_INT(p.steps, 1);
	CHECK_EQ_INT(p.n, 2);
	CHECK_EQ_INT(p.v[0].first, 2);
	CHECK_EQ_INT(p.v[1].action, HB_REPAIR_REPORT);
	CHECK_EQ_INT(p.v[1].first, 0);
	hb_repair_plan_release(&p);
	free(ev);
	hb_regions_release(&rs);
	hb_keys_release(&keys);
}

static void test_repair__a_healthy_table_needs_no_step(void)
{
	struct hb_keys keys;
	struct hb_regions rs;
	struct hb_repair_plan p;
	struct hb_repair_ev *ev;

	seed_keys(&keys);
	from_splits(&rs, &keys);
	ev = evidence(&rs, "*");
	hb_repair_plan_init(&p);
	CHECK_EQ_INT(hb_repair_plan(&p, "t", &rs, ev, NULL, &defaults), 0);
	CHECK_EQ_INT(p.n, 0);
	hb_repair_plan_release(&p);
	free(ev);
	hb_regions_release(&rs);
	hb_keys_release(&keys);
}

static void test_repair__max_steps_defers_the_rest(void)
{
	struct hb_keys keys;
	struct hb_regions rs;
	struct hb_repair_plan p;
	struct hb_repair_ev *ev;
	struct hb_repair_params one = {0, 1, 0, 1, {HB_SPLIT_RESTRICT_NONE, 0, NULL}, NULL};

	seed_keys(&keys);
	from_splits(&rs, &keys);
	ev = evidence(&rs, "hex{16}");
	hb_repair_plan_init(&p);
	CHECK_EQ_INT(hb_repair_plan(&p, "t", &rs, ev, NULL, &one), 0);
	CHECK_EQ_INT(p.steps, 1);
	CHECK_EQ_INT(p.deferred, 1);
	CHECK_EQ_INT(p.v[0].first, 0);
	hb_repair_plan_release(&p);
	free(ev);
	hb_regions_release(&rs);
	hb_keys_release(&keys);
}

static void test_repair__empty_runs_merge_but_never_below_min_regions(void)
{
	struct hb_keys keys;
	struct hb_regions rs;
	struct hb_repair_plan p;
	struct hb_repair_ev *ev;
	struct hb_repair_params e = {1, 1, 0, 10, {HB_SPLIT_RESTRICT_NONE, 0, NULL}, NULL};
	size_t i;

	seed_keys(&keys);
	from_splits(&rs, &keys);
	ev = evidence(&rs, "*");
	for (i = 0; i < rs.n; i++)
		ev[i].load_empty = 1;
	ev[4].load_empty = 0; /* region 4 holds data */
	ev[4].rows = 1;
	hb_repair_plan_init(&p);
	CHECK_EQ_INT(hb_repair_plan(&p, "t", &rs, ev, NULL, &e), 0);
	CHECK_EQ_INT(p.steps, 2);
	CHECK_EQ_INT(p.v[0].first, 0);
	CHECK_EQ_INT(p.v[0].n, 4);
	CHECK_EQ_INT(p.v[1].first, 5);
	CHECK_EQ_INT(p.v[1].n, 5);
	hb_repair_plan_release(&p);

	/* 10 regions, at least 7 kept: one merge of 4 regions (3 fewer) */
	e.min_regions = 7;
	hb_repair_plan_init(&p);
	CHECK_EQ_INT(hb_repair_plan(&p, "t", &rs, ev, NULL, &e), 0);
	CHECK_EQ_INT(p.steps, 1);
	CHECK_EQ_INT(p.v[0].n, 4);
	hb_repair_plan_release(&p);

	/* a region that a load says holds data, or a scan found a row in, stays apart */
	ev[1].load_empty = 0;
	ev[7].rows = -1;
	e.min_regions = 1;
	hb_repair_plan_init(&p);
	CHECK_EQ_INT(hb_repair_plan(&p, "t", &rs, ev, NULL, &e), 0);
	for (i = 0; i < p.n; i++)
		CHECK(p.v[i].first > 7 || p.v[i].first + p.v[i].n <= 7);
	for (i = 0; i < p.n; i++)
		CHECK(p.v[i].first > 1 || p.v[i].first + p.v[i].n <= 1);
	hb_repair_plan_release(&p);
	free(ev);
	hb_regions_release(&rs);
	hb_keys_release(&keys);
}

static void test_repair__hot_region_splits_strictly_inside(void)
{
	struct hb_keys keys;
	struct hb_regions rs;
	struct hb_repair_plan p;
	struct hb_repair_ev *ev;
	struct hb_repair_params h = {0, 1, 1, 10, {HB_SPLIT_RESTRICT_NONE, 0, NULL}, NULL};
	const unsigned char *s, *e;
	size_t sl, el;

	hb_keys_init(&keys);
	hb_keys_push(&keys, "4", 1);
	hb_keys_push(&keys, "8", 1);
	from_splits(&rs, &keys);
	ev = evidence(&rs, "*");
	ev[1].hot = 1;
	ev[1].split = (const unsigned char *)"6\x9f#\"";
	ev[1].split_len = 4;
	hb_repair_plan_init(&p);
	CHECK_EQ_INT(hb_repair_plan(&p, "t", &rs, ev, NULL, &h), 0);
	CHECK_EQ_INT(p.n, 1);
	CHECK_EQ_INT(p.v[0].action, HB_REPAIR_SPLIT);
	CHECK_EQ_STR(p.v[0].finding, HB_REPAIR_HOT);
	/* to_java_bytes takes the Ruby string's bytes: escapes in a double-quoted string */
	CHECK_EQ_STR(p.v[0].command,
	             "split '000000000000000000000000000000e1', \"6\\x9F\\x23\\x22\"");
	hb_regions_bounds(&rs, 1, &s, &sl, &e, &el);
	CHECK(hb_key_cmp(p.v[0].split.data, p.v[0].split.len, s, sl) > 0);
	CHECK(hb_key_cmp(p.v[0].split.data, p.v[0].split.len, e, el) < 0);
	hb_repair_plan_release(&p);

	/* a key equal to the start, or past the end, is no split key */
	ev[1].split = (const unsigned char *)"4";
	ev[1].split_len = 1;
	hb_repair_plan_init(&p);
	CHECK_EQ_INT(hb_repair_plan(&p, "t", &rs, ev, NULL, &h), 0);
	CHECK_EQ_INT(p.steps, 0);
	CHECK_EQ_STR(p.v[0].finding, HB_REPAIR_HOT_NO_KEY);
	hb_repair_plan_release(&p);
	ev[1].split = (const unsigned char *)"8";
	hb_repair_plan_init(&p);
	CHECK_EQ_INT(hb_repair_plan(&p, "t", &rs, ev, NULL, &h), 0);
	CHECK_EQ_INT(p.steps, 0);
	hb_repair_plan_release(&p);
	free(ev);
	hb_regions_release(&rs);
	hb_keys_release(&keys);
}

static void test_repair__split_restriction_reads_and_cuts_as_hbase_does(void)
{
	struct hb_split_restriction r;

	hb_split_restriction_read(&r, "KeyPrefix", "2", NULL);
	CHECK_EQ_INT(r.kind, HB_SPLIT_RESTRICT_KEY_PREFIX);
	CHECK_EQ_INT(hb_split_restricted_len(&r, "mb1", 3), 2);
	CHECK_EQ_INT(hb_split_restricted_len(&r, "m", 1), 1);
	/* Integer.parseInt, and a length of 0 or less is no restriction */
	hb_split_restriction_read(&r, "KeyPrefix", "+3", NULL);
	CHECK_EQ_INT(r.prefix_length, 3);
	hb_split_restriction_read(&r, "KeyPrefix", "0", NULL);
	CHECK_EQ_INT(r.kind, HB_SPLIT_RESTRICT_NONE);
	hb_split_restriction_read(&r, "KeyPrefix", "-2", NULL);
	CHECK_EQ_INT(r.kind, HB_SPLIT_RESTRICT_NONE);
	hb_split_restriction_read(&r, "KeyPrefix", "2x", NULL);
	CHECK_EQ_INT(r.kind, HB_SPLIT_RESTRICT_NONE);
	hb_split_restriction_read(&r, "KeyPrefix", "99999999999", NULL);
	CHECK_EQ_INT(r.kind, HB_SPLIT_RESTRICT_NONE);
	hb_split_restriction_read(&r, "KeyPrefix", NULL, NULL);
	CHECK_EQ_INT(r.kind, HB_SPLIT_RESTRICT_NONE);
	/* the bytes before the first delimiter; without one, the key as it is */
	hb_split_restriction_read(&r, "DelimitedKeyPrefix", NULL, "__");
	CHECK_EQ_INT(r.kind, HB_SPLIT_RESTRICT_DELIMITED);
	CHECK_EQ_INT(hb_split_restricted_len(&r, "ab__c__d", 8), 2);
	CHECK_EQ_INT(hb_split_restricted_len(&r, "ab_c", 4), 4);
	hb_split_restriction_read(&r, "DelimitedKeyPrefix", NULL, "");
	CHECK_EQ_INT(r.kind, HB_SPLIT_RESTRICT_NONE);
	hb_split_restriction_read(&r, "keyprefix", "2", NULL);
	CHECK_EQ_INT(r.kind, HB_SPLIT_RESTRICT_NONE);
	hb_split_restriction_read(&r, "None", "2", NULL);
	CHECK_EQ_INT(r.kind, HB_SPLIT_RESTRICT_NONE);
}

static void test_repair__hot_region_splits_where_the_restriction_cuts_the_key(void)
{
	struct hb_keys keys;
	struct hb_regions rs;
	struct hb_repair_plan p;
	struct hb_repair_ev *ev;
	struct hb_repair_params h = {0, 1, 1, 10, {HB_SPLIT_RESTRICT_KEY_PREFIX, 2, NULL}, NULL};

	hb_keys_init(&keys);
	hb_keys_push(&keys, "ma", 2);
	hb_keys_push(&keys, "mz", 2);
	from_splits(&rs, &keys);
	ev = evidence(&rs, "*");
	ev[1].hot = 1;
	ev[1].split = (const unsigned char *)"mb1";
	ev[1].split_len = 3;
	hb_repair_plan_init(&p);
	CHECK_EQ_INT(hb_repair_plan(&p, "t", &rs, ev, NULL, &h), 0);
	CHECK_EQ_INT(p.steps, 1);
	CHECK_EQ_STR(p.v[0].command, "split '000000000000000000000000000000e1', \"mb\"");
	CHECK_EQ_INT(p.v[0].split.len, 2);
	CHECK(strstr(p.v[0].message, "KeyPrefix, prefix_length 2") != NULL);
	hb_repair_plan_release(&p);

	/* cut to the region's start: HBase refuses it, so the plan does */
	ev[1].split = (const unsigned char *)"ma7";
	hb_repair_plan_init(&p);
	CHECK_EQ_INT(hb_repair_plan(&p, "t", &rs, ev, NULL, &h), 0);
	CHECK_EQ_INT(p.steps, 0);
	CHECK_EQ_STR(p.v[0].finding, HB_REPAIR_HOT_NO_KEY);
	CHECK(strstr(p.v[0].message, "cuts the sampled key 'ma7' to 'ma'") != NULL);
	hb_repair_plan_release(&p);
	free(ev);
	hb_regions_release(&rs);
	hb_keys_release(&keys);
}

static void test_repair__split_daughters_block_their_merge_with_both_compactions(void)
{
	struct hb_keys keys;
	struct hb_regions rs;
	struct hb_repair_plan p;
	struct hb_repair_ev *ev;
	size_t i;

	hb_keys_init(&keys);
	hb_keys_push(&keys, "b", 1);
	hb_keys_push(&keys, "e", 1);
	hb_keys_push(&keys, "h", 1);
	from_splits(&rs, &keys);
	ev = evidence(&rs, "[gh] *");
	/* regions 1 and 2 are the daughters of a split whose parent's row is still in meta */
	ev[1].daughter = ev[2].daughter = 1;
	ev[1].sibling = 3;
	ev[2].sibling = 2;
	hb_repair_plan_init(&p);
	CHECK_EQ_INT(hb_repair_plan(&p, "t", &rs, ev, NULL, &defaults), 0);
	CHECK_EQ_INT(p.steps, 0);
	CHECK_EQ_INT(p.n, 2);
	for (i = 0; i < p.n; i++) {
		CHECK_EQ_STR(p.v[i].finding, HB_REPAIR_BLOCKED);
		CHECK_EQ_STR(p.v[i].command, "major_compact '000000000000000000000000000000e1'; "
		                             "major_compact '000000000000000000000000000000e2'");
		CHECK(strstr(p.v[i].message, "catalogjanitor_run") != NULL);
	}
	/* region 0 waits on the lower daughter, which waits on itself */
	CHECK_EQ_INT(p.v[0].first, 0);
	CHECK_EQ_INT(p.v[1].first, 1);
	hb_repair_plan_release(&p);
	free(ev);
	hb_regions_release(&rs);
	hb_keys_release(&keys);
}

static void test_repair__holes_are_reported_with_the_hbck2_command(void)
{
	struct hb_keys keys;
	struct hb_regions rs;
	struct hb_repair_plan p;
	struct hb_repair_ev *ev;
	struct hb_findings f;

	hb_keys_init(&keys);
	hb_keys_push(&keys, "4", 1);
	from_splits(&rs, &keys);
	ev = evidence(&rs, "*");
	hb_findings_init(&f);
	hb_findings_add(&f, HB_FIND_HOLE, 1, "hole between '4' and '5'");
	hb_repair_plan_init(&p);
	CHECK_EQ_INT(hb_repair_plan(&p, "t", &rs, ev, &f, &defaults), 0);
	CHECK_EQ_INT(p.n, 1);
	CHECK_EQ_INT(p.steps, 0);
	CHECK_EQ_STR(p.v[0].finding, HB_FIND_HOLE);
	CHECK(strstr(p.v[0].command, "fixMeta") != NULL);
	hb_repair_plan_release(&p);
	hb_findings_release(&f);
	free(ev);
	hb_regions_release(&rs);
	hb_keys_release(&keys);
}

static void test_repair__a_recently_merged_neighbour_blocks_the_merge_until_compacted(void)
{
	struct hb_keys keys;
	struct hb_regions rs;
	struct hb_repair_plan p;
	struct hb_repair_ev *ev;
	size_t i, blocked = 0;

	seed_keys(&keys);
	from_splits(&rs, &keys);
	ev = evidence(&rs, "hex{16}");
	ev[2].merged = 1; /* 3-7 cannot go to region 2 ... */
	hb_repair_plan_init(&p);
	CHECK_EQ_INT(hb_repair_plan(&p, "t", &rs, ev, NULL, &defaults), 0);
	/* ... so they go to region 8, after them */
	CHECK_EQ_INT(p.steps, 2);
	CHECK_EQ_INT(p.v[1].first, 3);
	CHECK_EQ_INT(p.v[1].n, 6);
	hb_repair_plan_release(&p);
	ev[8].merged = 1; /* and not there either: reported with the compaction to run */
	hb_repair_plan_init(&p);
	CHECK_EQ_INT(hb_repair_plan(&p, "t", &rs, ev, NULL, &defaults), 0);
	CHECK_EQ_INT(p.steps, 1);
	for (i = 0; i < p.n; i++)
		if (p.v[i].action == HB_REPAIR_REPORT) {
			blocked++;
			CHECK_EQ_STR(p.v[i].finding, HB_REPAIR_BLOCKED);
			CHECK_EQ_INT(p.v[i].first, 3);
			CHECK_EQ_INT(p.v[i].n, 5);
			CHECK_EQ_STR(p.v[i].command,
			             "major_compact '000000000000000000000000000000e2'");
		}
	CHECK_EQ_INT(blocked, 1);
	hb_repair_plan_release(&p);
	free(ev);
	hb_regions_release(&rs);
	hb_keys_release(&keys);
}

/* A salted design (8 one-byte buckets, two regions each, every region empty): --empty merges
 * the two regions of each bucket and never regions of two buckets. */
static void test_repair__empty_runs_never_merge_across_a_salt_bucket(void)
{
	struct hb_keys keys;
	struct hb_regions rs;
	struct hb_repair_plan p;
	struct hb_repair_ev *ev;
	struct hb_buckets b;
	struct hb_repair_params e = {1, 1, 0, 100, {HB_SPLIT_RESTRICT_NONE, 0, NULL}, NULL};
	size_t i;

	hb_keys_init(&keys);
	for (i = 0; i < 8; i++) {
		unsigned char k[2] = {(unsigned char)i, 0x80};

		if (i)
			CHECK_EQ_INT(hb_keys_push(&keys, k, 1), 0);
		CHECK_EQ_INT(hb_keys_push(&keys, k, 2), 0);
	}
	from_splits(&rs, &keys);
	ev = evidence(&rs, "*");
	for (i = 0; i < rs.n; i++)
		ev[i].load_empty = 1;
	/* without the design's buckets: one merge of all 16 regions */
	hb_repair_plan_init(&p);
	CHECK_EQ_INT(hb_repair_plan(&p, "t", &rs, ev, NULL, &e), 0);
	CHECK_EQ_INT(p.steps, 1);
	CHECK_EQ_INT(p.v[0].n, 16);
	hb_repair_plan_release(&p);
	hb_buckets_of_design(&b, "--salt-splits 8 --salt-width 1", 8, NULL);
	e.buckets = &b;
	hb_repair_plan_init(&p);
	CHECK_EQ_INT(hb_repair_plan(&p, "t", &rs, ev, NULL, &e), 0);
	CHECK_EQ_INT(p.steps, 8);
	for (i = 0; i < p.n; i++) {
		const unsigned char *s, *x, *y, *end;
		size_t sl, xl, yl, el;

		CHECK_EQ_INT(p.v[i].first, 2 * i);
		CHECK_EQ_INT(p.v[i].n, 2);
		hb_regions_bounds(&rs, p.v[i].first, &s, &sl, &x, &xl);
		hb_regions_bounds(&rs, p.v[i].first + 1, &y, &yl, &end, &el);
		CHECK(!hb_buckets_crossed(&b, s, sl, end, el));
	}
	hb_repair_plan_release(&p);
	hb_regions_release(&rs);
	hb_keys_release(&keys);
	free(ev);
}

/* Key space u8<4 hex{2}: region [\x01g, \x020) holds no key and spans the start of
 * partition 2; merged into either neighbour it would span two partitions: reported. */
static void test_repair__unreachable_region_over_a_partition_start_is_not_merged(void)
{
	struct hb_keys keys;
	struct hb_regions rs;
	struct hb_repair_plan p;
	struct hb_repair_ev *ev;
	struct hb_buckets b;
	struct hb_keyspace *ks = NULL;
	struct hb_repair_params d = {0, 1, 0, 10, {HB_SPLIT_RESTRICT_NONE, 0, NULL}, NULL};

	hb_keys_init(&keys);
	CHECK_EQ_INT(hb_keys_push(&keys, "\x01", 1), 0);
	CHECK_EQ_INT(hb_keys_push(&keys, "\x01g", 2), 0);
	CHECK_EQ_INT(hb_keys_push(&keys,
	                          "\x02"
	                          "0",
	                          2),
	             0);
	from_splits(&rs, &keys);
	ev = evidence(&rs, "u8<4 hex{2}");
	CHECK_EQ_INT(ev[2].reachable, 0);
	hb_repair_plan_init(&p);
	CHECK_EQ_INT(hb_repair_plan(&p, "t", &rs, ev, NULL, &d), 0);
	CHECK_EQ_INT(p.steps, 1); /* without the design's partitions: into region 1 */
	hb_repair_plan_release(&p);
	CHECK_EQ_INT(hb_keyspace_parse(&ks, "u8<4 hex{2}", &err), 0);
	hb_buckets_of_design(&b, NULL, 0, ks);
	CHECK_EQ_INT((long)b.parts, 4);
	d.buckets = &b;
	hb_repair_plan_init(&p);
	CHECK_EQ_INT(hb_repair_plan(&p, "t", &rs, ev, NULL, &d), 0);
	CHECK_EQ_INT(p.steps, 0);
	CHECK_EQ_INT(p.n, 1);
	CHECK_EQ_STR(p.v[0].finding, HB_REPAIR_BUCKET);
	CHECK_EQ_INT(p.v[0].first, 2);
	CHECK(strstr(p.v[0].message, "two partition buckets") != NULL);
	hb_repair_plan_release(&p);
	hb_keyspace_free(ks);
	hb_regions_release(&rs);
	hb_keys_release(&keys);
	free(ev);
}

int main(void)
{
	RUN(test_repair__seed_design_merges_regions_0_and_3_to_7_keeping_reachable_bounds);
	RUN(test_repair__merges_keep_which_keys_share_a_region);
	RUN(test_repair__unreachable_region_with_rows_is_reported_not_merged);
	RUN(test_repair__unscanned_unreachable_region_is_never_merged);
	RUN(test_repair__a_healthy_table_needs_no_step);
	RUN(test_repair__max_steps_defers_the_rest);
	RUN(test_repair__empty_runs_merge_but_never_below_min_regions);
	RUN(test_repair__empty_runs_never_merge_across_a_salt_bucket);
	RUN(test_repair__unreachable_region_over_a_partition_start_is_not_merged);
	RUN(test_repair__hot_region_splits_strictly_inside);
	RUN(test_repair__split_restriction_reads_and_cuts_as_hbase_does);
	RUN(test_repair__hot_region_splits_where_the_restriction_cuts_the_key);
	RUN(test_repair__split_daughters_block_their_merge_with_both_compactions);
	RUN(test_repair__holes_are_reported_with_the_hbck2_command);
	RUN(test_repair__a_recently_merged_neighbour_blocks_the_merge_until_compacted);
	return TEST_DONE();
}
