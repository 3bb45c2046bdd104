/* Snapshot names and the hbase shell's list_snapshots output, as 2.4.17 prints it. */
#include "rest/snapshot.h"
#include "test.h"

#include <string.h>

/* A run of the 2.4.17 shell (-n, no terminal) against 2.6.1: echoed prompts, the listing,
 * the time and the return value. */
static const char LISTING[] = "hbase:001:0> snapshot 'ns:t1', 'ns-t1-20261126T093500Z'\n"
                              "Took 1.4416 seconds\n"
                              "hbase:002:0> list_snapshots '^ns-t1-20261126T093500Z$'\n"
                              "SNAPSHOT  TABLE + CREATION TIME\n"
                              " ns-t1-20261126T093500Z ns:t1 (2026-11-26 09:40:38 +0000)\n"
                              " other.snap t2 (2026-11-26 09:41:00 +0000)\n"
                              "2 row(s)\n"
                              "Took 0.0349 seconds\n"
                              "=> [\"ns-t1-20261126T093500Z\", \"other.snap\"]\n"
                              " not a row after the footer t9 (x)\n";

static void test_snapshot__list_reads_each_row_between_header_and_footer(void)
{
	struct hb_snapshots l;
	struct hb_error err = {0};
	int listed = 0;

	hb_snapshots_init(&l);
	CHECK_EQ_INT(hb_snapshot_parse_list(&l, LISTING, strlen(LISTING), &listed, &err), 0);
	CHECK_EQ_INT(listed, 1);
	CHECK_EQ_INT(l.n, 2);
	CHECK_EQ_STR(l.v[0].name, "ns-t1-20261126T093500Z");
	CHECK_EQ_STR(l.v[0].table, "ns:t1");
	CHECK_EQ_STR(l.v[1].name, "other.snap");
	CHECK_EQ_STR(l.v[1].table, "t2");
	hb_snapshots_release(&l);
}

static void test_snapshot__empty_listing_is_told_from_no_listing(void)
{
	static const char empty[] =
	    "SNAPSHOT  TABLE + CREATION TIME\n0 row(s)\nTook 0.01 seconds\n";
	static const char none[] = "Took 0.9983 secondsERROR Java::X: boom\n";
	struct hb_snapshots l;
	struct hb_error err = {0};
	int listed = 0;

	hb_snapshots_init(&l);
	CHECK_EQ_INT(hb_snapshot_parse_list(&l, empty, strlen(empty), &listed, &err), 0);
	CHECK_EQ_INT(listed, 1);
	CHECK_EQ_INT(l.n, 0);
	CHECK_EQ_INT(hb_snapshot_parse_list(&l, none, strlen(none), &listed, &err), 0);
	CHECK_EQ_INT(listed, 0);
	CHECK_EQ_INT(l.n, 0);
	hb_snapshots_release(&l);
}

static void test_snapshot__default_name_maps_the_namespace_and_uses_utc(void)
{
	char name[HB_SNAPSHOT_NAME_MAX];
	struct hb_error err = {0};

	CHECK_EQ_INT(hb_snapshot_default_name(name, sizeof(name), "ns:ev_1", 1795685700), 0);
	CHECK_EQ_STR(name, "ns-ev_1-20261126T093500Z");
	CHECK_EQ_INT(hb_snapshot_check_name(name, &err), 0);
	CHECK_EQ_INT(hb_snapshot_default_name(name, sizeof(name), "default:t", 0), 0);
	CHECK_EQ_STR(name, "t-19700101T000000Z");
	CHECK_EQ_INT(hb_snapshot_default_name(name, 8, "t", 0), HB_EINVAL);
}

static void test_snapshot__names_hbase_refuses_are_refused(void)
{
	struct hb_error err = {0};

	CHECK_EQ_INT(hb_snapshot_check_name("a.b-c_9", &err), 0);
	CHECK_EQ_INT(hb_snapshot_check_name("bad:name", &err), HB_EINVAL);
	CHECK_EQ_INT(hb_snapshot_check_name(".hidden", &err), HB_EINVAL);
	CHECK_EQ_INT(hb_snapshot_check_name("-x", &err), HB_EINVAL);
	CHECK_EQ_INT(hb_snapshot_check_name("", &err), HB_EINVAL);
	CHECK_EQ_INT(hb_snapshot_check_name("a b", &err), HB_EINVAL);
}

int main(void)
{
	RUN(test_snapshot__list_reads_each_row_between_header_and_footer);
	RUN(test_snapshot__empty_listing_is_told_from_no_listing);
	RUN(test_snapshot__default_name_maps_the_namespace_and_uses_utc);
	RUN(test_snapshot__names_hbase_refuses_are_refused);
	return TEST_DONE();
}
