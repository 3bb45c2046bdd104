/* Long waits reported to the progress hook: labels, nesting, counted work and sleeps. */
#include "core/activity.h"
#include "core/split.h"
#include "test.h"

static char lines[64][200];
static int nlines;

static void record(const char *line)
{
	if (nlines < 64)
		snprintf(lines[nlines++], sizeof(lines[0]), "%s", line);
}

static void reset(double delay)
{
	nlines = 0;
	hb_activity_set_hook(record);
	hb_activity_set_delay(delay);
}

static int has_prefix(const char *prefix)
{
	int i;

	for (i = 0; i < nlines; i++)
		if (!strncmp(lines[i], prefix, strlen(prefix)))
			return 1;
	return 0;
}

static void test_activity__a_tick_inside_a_wait_names_it_and_nesting_keeps_the_outer_label(void)
{
	reset(0);
	hb_activity_begin("creating table 't1' over Thrift2");
	hb_activity_begin(NULL); /* the transport's own begin */
	hb_activity_tick();
	hb_activity_end();
	hb_activity_end();
	CHECK_EQ_INT(nlines, 1);
	CHECK_EQ_STR(lines[0], "creating table 't1' over Thrift2: 0 s");
	hb_activity_begin(NULL);
	hb_activity_tick();
	hb_activity_end();
	CHECK_EQ_INT(nlines, 2);
	CHECK_EQ_STR(lines[1], "waiting for the server: 0 s");
}

static void test_activity__many_ticks_within_one_second_make_one_line(void)
{
	int i;

	reset(0);
	hb_activity_begin("reading a large body");
	for (i = 0; i < 1000; i++)
		hb_activity_tick();
	hb_activity_end();
	CHECK_EQ_INT(nlines, 1);
	CHECK_EQ_STR(lines[0], "reading a large body: 0 s");
}

static void test_activity__nothing_is_reported_outside_a_wait_or_before_the_delay(void)
{
	reset(0);
	hb_activity_tick();
	CHECK_EQ_INT(nlines, 0);
	reset(3600);
	hb_activity_begin("a short wait");
	hb_activity_tick();
	hb_activity_end();
	hb_activity_count("counting", 0, 10);
	hb_activity_count("counting", 5, 10);
	hb_activity_sleep("sleeping", 0.01);
	CHECK_EQ_INT(nlines, 0);
}

static void test_activity__a_sleep_reports_elapsed_of_total(void)
{
	reset(0);
	hb_activity_set_delay(0);
	hb_activity_sleep("the gateway answered HTTP 503; retrying", 0.3);
	CHECK(nlines >= 1);
	CHECK(has_prefix("the gateway answered HTTP 503; retrying: 0/0 s"));
}

static void test_activity__computing_a_large_split_set_reports_counted_keys(void)
{
	struct hb_split_spec spec;
	struct hb_keys ks;
	struct hb_error err = {0};

	reset(0);
	memset(&spec, 0, sizeof(spec));
	spec.algo = HB_SPLIT_HEX;
	spec.n = 200000;
	hb_keys_init(&ks);
	CHECK_EQ_INT(hb_split_compute(&ks, &spec, &err), 0);
	CHECK_EQ_INT(ks.n, 199999);
	CHECK(has_prefix("computing split keys: 0/199999"));
	CHECK(has_prefix("computing split keys: 131072/199999"));
	hb_keys_release(&ks);
}

int main(void)
{
	RUN(test_activity__a_tick_inside_a_wait_names_it_and_nesting_keeps_the_outer_label);
	RUN(test_activity__many_ticks_within_one_second_make_one_line);
	RUN(test_activity__nothing_is_reported_outside_a_wait_or_before_the_delay);
	RUN(test_activity__a_sleep_reports_elapsed_of_total);
	RUN(test_activity__computing_a_large_split_set_reports_counted_keys);
	return TEST_DONE();
}
