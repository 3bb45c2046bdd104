/* What a finished hbase shell run of a create means (rest/ddl.h): the ERROR line decides, the
 * exit status is only a hint, and a table that appears after a bare failure is ours. */
#include "rest/ddl.h"
#include "test.h"

static int outcome(const char *out, const char *errtext, int exited, int status, int sig,
                   int timed_out, int *race, struct hb_error *err)
{
	struct hb_shell_result r;
	int rc;

	hb_shell_result_init(&r);
	r.exited = exited;
	r.status = status;
	r.signal = sig;
	r.timed_out = timed_out;
	CHECK(!hb_buf_adds(&r.out, out));
	CHECK(!hb_buf_adds(&r.err, errtext));
	*race = 0;
	err->code = 0;
	err->msg[0] = 0;
	rc = hb_ddl_shell_outcome("t1", &r, 70, race, err);
	hb_shell_result_release(&r);
	return rc;
}

static void test_ddl__clean_run_is_success_whatever_it_printed(void)
{
	struct hb_error err;
	int race;

	CHECK_EQ_INT(outcome("Created table t1\nTook 1.2 seconds\n", "", 1, 0, 0, 0, &race, &err),
	             0);
	CHECK_EQ_INT(race, 0);
}

static void test_ddl__error_line_names_the_exception_and_may_be_a_race(void)
{
	struct hb_error err;
	int race;

	/* HBase's 2.4.17 shell ends a command's time without a newline before its error */
	CHECK_EQ_INT(outcome("Took 0.5186 secondsERROR RuntimeError: Table already exists: t1!\n",
	                     "", 1, 1, 0, 0, &race, &err),
	             HB_ESERVER);
	CHECK_EQ_INT(race, HB_DDL_RACE_OTHER);
	CHECK_EQ_STR(err.msg,
	             "shell create 't1' failed (RuntimeError, exit 1): Table already exists: t1!");
	CHECK_EQ_INT(outcome("", "ERROR: Table already exists: t1!\n", 1, 0, 0, 0, &race, &err),
	             HB_ESERVER);
	CHECK_EQ_INT(race, HB_DDL_RACE_OTHER);
	CHECK_EQ_STR(err.msg, "shell create 't1' failed (exit 0): Table already exists: t1!");
}

static void test_ddl__timeout_or_bare_exit_status_leaves_the_table_ours(void)
{
	struct hb_error err;
	int race;

	CHECK_EQ_INT(outcome("", "", 0, 0, 9, 1, &race, &err), HB_ENET);
	CHECK_EQ_INT(race, HB_DDL_RACE_OURS);
	CHECK_EQ_STR(err.msg, "shell create 't1' timed out after 70 s and was killed (some hbase "
	                      "shells hang after the script ends)");
	CHECK_EQ_INT(outcome("Created table t1\n", "", 1, 1, 0, 0, &race, &err), HB_ESERVER);
	CHECK_EQ_INT(race, HB_DDL_RACE_OURS);
	CHECK_EQ_STR(err.msg, "shell create 't1' failed (exit 1): Created table t1");
}

static void test_ddl__killed_by_a_signal_may_be_anyone(void)
{
	struct hb_error err;
	int race;

	CHECK_EQ_INT(outcome("", "", 0, 0, 15, 0, &race, &err), HB_ESERVER);
	CHECK_EQ_INT(race, HB_DDL_RACE_OTHER);
	CHECK_EQ_STR(err.msg, "shell create 't1' failed (signal 15): (no output)");
}

int main(void)
{
	RUN(test_ddl__clean_run_is_success_whatever_it_printed);
	RUN(test_ddl__error_line_names_the_exception_and_may_be_a_race);
	RUN(test_ddl__timeout_or_bare_exit_status_leaves_the_table_ours);
	RUN(test_ddl__killed_by_a_signal_may_be_anyone);
	return TEST_DONE();
}
