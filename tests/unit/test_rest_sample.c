/* The sampler's scanner filter: ScannerModel's FilterModel JSON, as HBase's REST reads it. */
#include "rest/sample.h"
#include "test.h"

#include <string.h>

static void test_rest_sample__filter_at_chance_one_has_no_random_row_filter(void)
{
	struct hb_buf b = HB_BUF_INIT;

	CHECK_EQ_INT(hb_rest_sample_filter(&b, 1.0), 0);
	CHECK_EQ_STR(hb_buf_str(&b),
	             "{\"type\":\"FilterList\",\"op\":\"MUST_PASS_ALL\",\"filters\":["
	             "{\"type\":\"FirstKeyOnlyFilter\"},{\"type\":\"KeyOnlyFilter\"}]}");
	hb_buf_release(&b);
}

static void test_rest_sample__filter_below_one_leads_with_random_row_filter(void)
{
	struct hb_buf b = HB_BUF_INIT;

	CHECK_EQ_INT(hb_rest_sample_filter(&b, 0.25), 0);
	CHECK_EQ_STR(
	    hb_buf_str(&b),
	    "{\"type\":\"FilterList\",\"op\":\"MUST_PASS_ALL\",\"filters\":["
	    "{\"type\":\"RandomRowFilter\",\"chance\":0.25},{\"type\":\"FirstKeyOnlyFilter\"},"
	    "{\"type\":\"KeyOnlyFilter\"}]}");
	hb_buf_release(&b);
}

int main(void)
{
	RUN(test_rest_sample__filter_at_chance_one_has_no_random_row_filter);
	RUN(test_rest_sample__filter_below_one_leads_with_random_row_filter);
	return TEST_DONE();
}
