/* Hot keys: hot regions decoded through the key space into the prefixes they hold. */
#include "core/hotkeys.h"
#include "test.h"

#include <math.h>

static struct hb_error err;

/* Regions from split keys given as strings ("" ends the list). */
static void regions(struct hb_regions *rs, const char *const *splits)
{
	struct hb_keys k;

	hb_keys_init(&k);
	for (; **splits; splits++)
		CHECK_EQ_INT(hb_keys_push(&k, *splits, strlen(*splits)), 0);
	hb_regions_init(rs);
	CHECK_EQ_INT(hb_audit_regions_from_splits(rs, &k), 0);
	hb_keys_release(&k);
}

/* Writes per region into h (total and fair share set). */
static void writes(struct hb_hotspots *h, const uint64_t *w, size_t n)
{
	size_t i;

	hb_hotspots_init(h);
	h->r = calloc(n, sizeof(*h->r));
	h->n = n;
	for (i = 0; i < n; i++) {
		h->r[i].writes = w[i];
		h->total_writes += w[i];
	}
	h->fair_share = 1.0 / (double)n;
}

static struct hb_keyspace *ks_of(const char *spec)
{
	struct hb_keyspace *ks = NULL;

	CHECK_EQ_INT(hb_keyspace_parse(&ks, spec, &err), 0);
	return ks;
}

static void test_hotkeys__prefix_length_is_no_coarser_than_the_regions(void)
{
	struct hb_keyspace *ks = ks_of("hex{8}");
	size_t len;
	int buckets;

	CHECK_EQ_INT(hb_hot_keys_prefix_len(ks, 16, &len, &buckets, &err), 0);
	CHECK_EQ_INT(len, 1);
	CHECK_EQ_INT(buckets, 0);
	CHECK_EQ_INT(hb_hot_keys_prefix_len(ks, 17, &len, &buckets, &err), 0);
	CHECK_EQ_INT(len, 2);
	hb_keyspace_free(ks);
	ks = ks_of("u64<20 *");
	CHECK_EQ_INT(hb_hot_keys_prefix_len(ks, 3, &len, &buckets, &err), 0);
	CHECK_EQ_INT(len, 8);
	CHECK_EQ_INT(buckets, 1);
	hb_keyspace_free(ks);
}

static void test_hotkeys__one_prefix_alone_in_its_region_is_measured(void)
{
	static const char *const s[] = {"4", "8", "c", ""};
	static const uint64_t w[] = {10, 10, 900, 10};
	struct hb_keyspace *ks = ks_of("hex{8}");
	struct hb_hot_keys k;
	struct hb_hotspots h;
	struct hb_regions rs;

	regions(&rs, s);
	writes(&h, w, 4);
	hb_hot_keys_init(&k);
	CHECK_EQ_INT(hb_hot_keys_compute(&k, ks, &rs, &h, &err), 0);
	/* 4 regions: one hex character a prefix; region 2 [8, c) holds 8, 9, a, b */
	CHECK_EQ_INT(k.prefix_len, 1);
	CHECK_EQ_INT(k.regions, 1);
	CHECK_EQ_INT(k.n, 4);
	CHECK(k.v[0].len == 1 && k.v[0].prefix[0] == '8');
	CHECK(k.v[0].share > 0.2419 && k.v[0].share < 0.2420); /* 900/930 over 4 prefixes */
	CHECK_EQ_INT(k.v[0].writes, 225);
	CHECK_EQ_INT(k.v[0].measured, 0);
	CHECK(k.v[3].prefix[0] == 'b');
	hb_hot_keys_release(&k);
	hb_hotspots_release(&h);
	hb_regions_release(&rs);
	/* 16 regions: region 12 holds 'c' alone */
	{
		static const char *const s16[] = {"1", "2", "3", "4", "5", "6", "7", "8",
		                                  "9", "a", "b", "c", "d", "e", "f", ""};
		uint64_t w16[16];
		size_t i;

		for (i = 0; i < 16; i++)
			w16[i] = i == 12 ? 400 : 1;
		regions(&rs, s16);
		writes(&h, w16, 16);
		hb_hot_keys_init(&k);
		CHECK_EQ_INT(hb_hot_keys_compute(&k, ks, &rs, &h, &err), 0);
		CHECK_EQ_INT(k.n, 1);
		CHECK(k.v[0].prefix[0] == 'c');
		CHECK_EQ_INT(k.v[0].region, 12);
		CHECK_EQ_INT(k.v[0].writes, 400);
		CHECK_EQ_INT(k.v[0].measured, 1);
		CHECK(k.unlisted == 0);
		hb_hot_keys_release(&k);
		hb_hotspots_release(&h);
		hb_regions_release(&rs);
	}
	hb_keyspace_free(ks);
}

static void test_hotkeys__buckets_are_numbered_and_spanning_prefixes_merged(void)
{
	/* 4 regions over 8 one-byte buckets; regions split inside bucket 2 and 5 */
	static const char *const s[] = {"\x02m", "\x05", "\x05m", ""};
	static const uint64_t w[] = {100, 100, 10, 10};
	struct hb_keyspace *ks = ks_of("u8<8 [a-z]");
	struct hb_regions rs;
	struct hb_hotspots h;
	struct hb_hot_keys k;
	size_t i;

	regions(&rs, s);
	writes(&h, w, 4);
	hb_hot_keys_init(&k);
	CHECK_EQ_INT(hb_hot_keys_compute(&k, ks, &rs, &h, &err), 0);
	CHECK_EQ_INT(k.buckets, 1);
	CHECK_EQ_INT(k.regions, 2);
	/* region 0 [, \x02m) holds buckets 0, 1 and 12 keys of 2 (64 keys), region 1 the other
	 * 14 of bucket 2 and buckets 3, 4 (66): each took 100 of the 220 writes */
	CHECK_EQ_INT(k.n, 5);
	CHECK_EQ_INT(k.v[0].bucket, 0);
	CHECK_EQ_INT(k.v[1].bucket, 1);
	CHECK(fabs(k.v[0].share - 100.0 / 220 * 26 / 64) < 1e-12);
	for (i = 0; i < k.n; i++)
		if (k.v[i].bucket == 2) {
			/* one entry from both regions */
			CHECK_EQ_INT(k.v[i].regions, 2);
			CHECK_EQ_INT(k.v[i].measured, 0);
			CHECK(fabs(k.v[i].share - (100.0 / 220 * 12 / 64 + 100.0 / 220 * 14 / 66)) <
			      1e-12);
		}
	hb_hot_keys_release(&k);
	hb_hotspots_release(&h);
	hb_regions_release(&rs);
	hb_keyspace_free(ks);
}

static void test_hotkeys__the_recorded_design_names_its_buckets(void)
{
	char ks[48];

	CHECK_EQ_INT(hb_hot_keys_design_keyspace("--partition-splits 20", ks, sizeof(ks)), 1);
	CHECK_EQ_STR(ks, "u64<20 *");
	CHECK_EQ_INT(hb_hot_keys_design_keyspace("--salt-splits 16 --salt-width 1", ks, sizeof(ks)),
	             1);
	CHECK_EQ_STR(ks, "u8<16 *");
	CHECK_EQ_INT(
	    hb_hot_keys_design_keyspace("--salt-splits 300 --salt-width 2", ks, sizeof(ks)), 1);
	CHECK_EQ_STR(ks, "u16<300 *");
	/* more buckets than one byte holds, no number, another algorithm, nothing */
	CHECK_EQ_INT(hb_hot_keys_design_keyspace("--salt-splits 300", ks, sizeof(ks)), 0);
	CHECK_EQ_INT(hb_hot_keys_design_keyspace("--salt-splits x", ks, sizeof(ks)), 0);
	CHECK_EQ_INT(hb_hot_keys_design_keyspace("--salt-splits 16x", ks, sizeof(ks)), 0);
	CHECK_EQ_INT(hb_hot_keys_design_keyspace("--hex-splits 16", ks, sizeof(ks)), 0);
	CHECK_EQ_INT(hb_hot_keys_design_keyspace(NULL, ks, sizeof(ks)), 0);
}

int main(void)
{
	RUN(test_hotkeys__prefix_length_is_no_coarser_than_the_regions);
	RUN(test_hotkeys__one_prefix_alone_in_its_region_is_measured);
	RUN(test_hotkeys__buckets_are_numbered_and_spanning_prefixes_merged);
	RUN(test_hotkeys__the_recorded_design_names_its_buckets);
	return TEST_DONE();
}
