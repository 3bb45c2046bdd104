/* Regions against the designed split keys: replicas, the chain, byte-for-byte boundaries and
 * the listed differences. */
#include "core/bounds.h"
#include "test.h"

static struct hb_error err;

/* Regions from "start|end" pairs in toStringBinary ("" = unbounded), sorted. */
static void build(struct hb_regions *rs, const char *const (*d)[2], size_t n)
{
	size_t i;

	hb_regions_init(rs);
	for (i = 0; i < n; i++) {
		struct hb_buf s = HB_BUF_INIT, e = HB_BUF_INIT;
		struct hb_region r;

		memset(&r, 0, sizeof(r));
		hb_tbb_parse(&s, d[i][0], strlen(d[i][0]), &err);
		hb_tbb_parse(&e, d[i][1], strlen(d[i][1]), &err);
		r.start = (unsigned char *)s.data;
		r.start_len = s.len;
		r.end = (unsigned char *)e.data;
		r.end_len = e.len;
		r.id = i;
		hb_regions_push(rs, &r);
		hb_buf_release(&s);
		hb_buf_release(&e);
	}
	hb_regions_sort(rs);
}

static void keys(struct hb_keys *ks, const char *const *k, size_t n)
{
	size_t i;

	hb_keys_init(ks);
	for (i = 0; i < n; i++) {
		struct hb_buf b = HB_BUF_INIT;

		hb_tbb_parse(&b, k[i], strlen(k[i]), &err);
		hb_keys_push(ks, b.data, b.len);
		hb_buf_release(&b);
	}
}

static const char *const plan_k[] = {"\\x00", "b", "c\\xFF"};
static const char *const plan_r[][2] = {
    {"", "\\x00"}, {"\\x00", "b"}, {"b", "c\\xFF"}, {"c\\xFF", ""}};

static void test_bounds__the_planned_regions_are_equal_byte_for_byte(void)
{
	struct hb_regions rs;
	struct hb_keys ks;
	struct hb_diff d;

	build(&rs, plan_r, 4);
	keys(&ks, plan_k, 3);
	CHECK(hb_bounds_chain_complete(&rs));
	CHECK(hb_bounds_equal(&rs, &ks));
	hb_diff_init(&d, 20);
	CHECK_EQ_INT(hb_bounds_diff(&d, &rs, &ks), 0);
	/* only the count line: no boundary differs */
	CHECK_EQ_STR(hb_buf_str(&d.lines), "planned 4 regions, found 4\n");
	hb_diff_release(&d);
	hb_regions_release(&rs);
	hb_keys_release(&ks);
}

static void test_bounds__one_byte_off_is_a_missing_and_an_unexpected_boundary(void)
{
	static const char *const r[][2] = {
	    {"", "\\x00"}, {"\\x00", "b"}, {"b", "c\\xFE"}, {"c\\xFE", ""}};
	struct hb_regions rs;
	struct hb_keys ks;
	struct hb_diff d;

	build(&rs, r, 4);
	keys(&ks, plan_k, 3);
	CHECK(hb_bounds_chain_complete(&rs));
	CHECK(!hb_bounds_equal(&rs, &ks));
	hb_diff_init(&d, 20);
	CHECK_EQ_INT(hb_bounds_diff(&d, &rs, &ks), 0);
	CHECK_EQ_STR(hb_buf_str(&d.lines), "planned 4 regions, found 4\n"
	                                   "+ unexpected boundary 'c\\xFE'\n"
	                                   "- missing boundary 'c\\xFF'\n");
	hb_diff_release(&d);
	hb_regions_release(&rs);
	hb_keys_release(&ks);
}

static void test_bounds__a_hole_or_an_open_end_breaks_the_chain(void)
{
	static const char *const hole[][2] = {{"", "\\x00"}, {"b", "c\\xFF"}, {"c\\xFF", ""}};
	static const char *const open_end[][2] = {{"", "\\x00"}, {"\\x00", "b"}};
	static const char *const late_start[][2] = {{"a", ""}};
	static const char *const empty_mid[][2] = {{"", ""}, {"", ""}};
	struct hb_regions rs;
	struct hb_keys ks;
	struct hb_diff d;

	keys(&ks, plan_k, 3);
	build(&rs, hole, 3);
	CHECK(!hb_bounds_chain_complete(&rs));
	CHECK(!hb_bounds_equal(&rs, &ks));
	hb_diff_init(&d, 20);
	CHECK_EQ_INT(hb_bounds_diff(&d, &rs, &ks), 0);
	CHECK_EQ_STR(
	    hb_buf_str(&d.lines),
	    "planned 4 regions, found 3\n"
	    "- missing boundary 'b'\n"
	    "the region chain has holes or overlaps (regions offline or in transition?)\n");
	hb_diff_release(&d);
	hb_regions_release(&rs);
	build(&rs, open_end, 2);
	CHECK(!hb_bounds_chain_complete(&rs));
	hb_regions_release(&rs);
	build(&rs, late_start, 1);
	CHECK(!hb_bounds_chain_complete(&rs));
	hb_regions_release(&rs);
	/* two whole-table regions: the first ends at the empty key before the end */
	build(&rs, empty_mid, 2);
	CHECK(!hb_bounds_chain_complete(&rs));
	hb_regions_release(&rs);
	hb_regions_init(&rs);
	CHECK(!hb_bounds_chain_complete(&rs));
	hb_keys_release(&ks);
}

static void test_bounds__one_region_is_the_plan_without_split_keys(void)
{
	static const char *const whole[][2] = {{"", ""}};
	struct hb_regions rs;
	struct hb_keys none, ks;
	struct hb_diff d;

	build(&rs, whole, 1);
	hb_keys_init(&none);
	keys(&ks, plan_k, 1);
	CHECK(hb_bounds_chain_complete(&rs));
	CHECK(hb_bounds_equal(&rs, &none));
	CHECK(!hb_bounds_equal(&rs, &ks));
	hb_diff_init(&d, 20);
	CHECK_EQ_INT(hb_bounds_diff(&d, &rs, &none), 0);
	CHECK_EQ_STR(hb_buf_str(&d.lines), "planned 1 region, found 1\n");
	hb_diff_release(&d);
	hb_regions_release(&rs);
	hb_keys_release(&none);
	hb_keys_release(&ks);
}

static void test_bounds__replicas_are_dropped_before_the_chain_is_read(void)
{
	static const char *const r[][2] = {{"", "\\x00"},   {"", "\\x00"},   {"\\x00", "b"},
	                                   {"b", "c\\xFF"}, {"b", "c\\xFF"}, {"c\\xFF", ""}};
	struct hb_regions rs;
	struct hb_keys ks;

	build(&rs, r, 6);
	keys(&ks, plan_k, 3);
	/* a replica overlaps its primary */
	CHECK(!hb_bounds_chain_complete(&rs));
	hb_bounds_dedupe_replicas(&rs);
	CHECK_EQ_INT(rs.n, 4);
	CHECK(hb_bounds_equal(&rs, &ks));
	hb_regions_release(&rs);
	hb_keys_release(&ks);
}

static void test_bounds__a_long_diff_is_capped_and_counted(void)
{
	static const char *const whole[][2] = {{"", ""}};
	static const char *const many[] = {"1", "2", "3", "4", "5"};
	struct hb_regions rs;
	struct hb_keys ks;
	struct hb_diff d;

	build(&rs, whole, 1);
	keys(&ks, many, 5);
	hb_diff_init(&d, 3);
	CHECK_EQ_INT(hb_bounds_diff(&d, &rs, &ks), 0);
	CHECK_EQ_INT(d.n, 6);
	CHECK_EQ_STR(hb_buf_str(&d.lines), "planned 6 regions, found 1\n"
	                                   "- missing boundary '1'\n"
	                                   "- missing boundary '2'\n"
	                                   "... and 3 more differences\n");
	hb_diff_release(&d);
	hb_regions_release(&rs);
	hb_keys_release(&ks);
}

int main(void)
{
	RUN(test_bounds__the_planned_regions_are_equal_byte_for_byte);
	RUN(test_bounds__one_byte_off_is_a_missing_and_an_unexpected_boundary);
	RUN(test_bounds__a_hole_or_an_open_end_breaks_the_chain);
	RUN(test_bounds__one_region_is_the_plan_without_split_keys);
	RUN(test_bounds__replicas_are_dropped_before_the_chain_is_read);
	RUN(test_bounds__a_long_diff_is_capped_and_counted);
	return TEST_DONE();
}
