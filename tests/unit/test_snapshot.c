/* Snapshot names and the answer hbtab's line of Ruby prints in the hbase shell. */
#include "rest/snapshot.h"
#include "test.h"

#include <string.h>

/* A run of the 2.4.17 shell (-n) against 2.6.1 as it printed it with JRuby's native support
 * off (the formatter then takes a terminal's 80 columns): echoed prompts, the echoed line of
 * Ruby (its "\t" written as two characters: not an answer), the answer, the time padded. */
static const char ANSWER[] =
    "hbase:001:0> snapshot 'ns:events_user_clicks_20261128', "
    "'ns-events_user_clicks_20261128-20261128T185003Z'\n"
    "Took 1.2880 seconds                                                             \n"
    "hbase:002:0> hbtab_name = 'ns-events_user_clicks_20261128-20261128T185003Z'; hbtab_list = "
    "@shell.admin.list_snapshot(java.util.regex.Pattern.quote(hbtab_name)).select { |x| "
    "x.getName == hbtab_name }; hbtab_list.each { |x| puts "
    "\"HBTAB-SNAPSHOT\\t#{x.getName}\\t#{x.getTableNameAsString}\" }; puts "
    "\"HBTAB-SNAPSHOTS\\t#{hbtab_list.size}\"\n"
    "HBTAB-SNAPSHOT\tns-events_user_clicks_20261128-20261128T185003Z\tns:events_user_clicks_"
    "20261128\n"
    "HBTAB-SNAPSHOT\tother.snap.v2\tt2\r\n"
    "HBTAB-SNAPSHOTS\t2\n"
    "hbase:003:0> exit\n";

static void test_snapshot__answer_reads_each_marked_line_whole(void)
{
	struct hb_snapshots l;
	struct hb_error err = {0};
	int listed = 0;

	hb_snapshots_init(&l);
	CHECK_EQ_INT(hb_snapshot_parse_answer(&l, ANSWER, strlen(ANSWER), &listed, &err), 0);
	CHECK_EQ_INT(listed, 1);
	CHECK_EQ_INT(l.n, 2);
	/* a name of 47 characters: no column cuts it */
	CHECK_EQ_STR(l.v[0].name, "ns-events_user_clicks_20261128-20261128T185003Z");
	CHECK_EQ_STR(l.v[0].table, "ns:events_user_clicks_20261128");
	CHECK_EQ_STR(l.v[1].name, "other.snap.v2");
	CHECK_EQ_STR(l.v[1].table, "t2");
	hb_snapshots_release(&l);
}

static void test_snapshot__answer_after_a_time_on_the_same_line_is_read(void)
{
	static const char text[] = "Took 0.0357 secondsHBTAB-SNAPSHOT\tt-20261128T185000Z\tt\n"
	                           "Took 0.01 seconds   HBTAB-SNAPSHOTS\t1\n";
	struct hb_snapshots l;
	struct hb_error err = {0};
	int listed = 0;

	hb_snapshots_init(&l);
	CHECK_EQ_INT(hb_snapshot_parse_answer(&l, text, strlen(text), &listed, &err), 0);
	CHECK_EQ_INT(listed, 1);
	CHECK_EQ_INT(l.n, 1);
	CHECK_EQ_STR(l.v[0].name, "t-20261128T185000Z");
	hb_snapshots_release(&l);
}

static void test_snapshot__empty_answer_is_told_from_none_and_from_a_cut_one(void)
{
	static const char empty[] = "Took 0.01 seconds\nHBTAB-SNAPSHOTS\t0\n";
	static const char none[] = "Took 0.9983 secondsERROR Java::X: boom\n";
	/* the human listing of any release is not an answer */
	static const char human[] = "SNAPSHOT  TABLE + CREATION TIME + TTL(Sec)\n"
	                            " t-20261128T185000Z t (2026-11-28 18:50:00 +0000) FOREVER\n"
	                            "1 row(s)\n";
	/* a count that does not count the rows: the answer was cut */
	static const char cut[] = "HBTAB-SNAPSHOT\ta\tt\nHBTAB-SNAPSHOTS\t2\n";
	static const char nocount[] = "HBTAB-SNAPSHOT\ta\tt\n";
	struct hb_snapshots l;
	struct hb_error err = {0};
	int listed = 0;

	hb_snapshots_init(&l);
	CHECK_EQ_INT(hb_snapshot_parse_answer(&l, empty, strlen(empty), &listed, &err), 0);
	CHECK_EQ_INT(listed, 1);
	CHECK_EQ_INT(l.n, 0);
	CHECK_EQ_INT(hb_snapshot_parse_answer(&l, none, strlen(none), &listed, &err), 0);
	CHECK_EQ_INT(listed, 0);
	CHECK_EQ_INT(hb_snapshot_parse_answer(&l, human, strlen(human), &listed, &err), 0);
	CHECK_EQ_INT(listed, 0);
	CHECK_EQ_INT(l.n, 0);
	CHECK_EQ_INT(hb_snapshot_parse_answer(&l, cut, strlen(cut), &listed, &err), 0);
	CHECK_EQ_INT(listed, 0);
	hb_snapshots_release(&l);
	hb_snapshots_init(&l);
	CHECK_EQ_INT(hb_snapshot_parse_answer(&l, nocount, strlen(nocount), &listed, &err), 0);
	CHECK_EQ_INT(listed, 0);
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
	RUN(test_snapshot__answer_reads_each_marked_line_whole);
	RUN(test_snapshot__answer_after_a_time_on_the_same_line_is_read);
	RUN(test_snapshot__empty_answer_is_told_from_none_and_from_a_cut_one);
	RUN(test_snapshot__default_name_maps_the_namespace_and_uses_utc);
	RUN(test_snapshot__names_hbase_refuses_are_refused);
	return TEST_DONE();
}
