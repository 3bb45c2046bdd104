/* What a failed hbase shell step says (rest/shellrun.h): the shell's ERROR line or the
 * exception's message, in the forms HBase's shells print them, never a stack frame or the
 * chatter of the JVM and the terminal probe; and what a create's loser is told. */
#include "rest/ddl.h"
#include "rest/shellrun.h"
#include "test.h"

#include <string.h>

static void result(struct hb_shell_result *r, const char *out, const char *errtext, int status)
{
	hb_shell_result_init(r);
	r->exited = 1;
	r->status = status;
	CHECK(!hb_buf_adds(&r->out, out));
	CHECK(!hb_buf_adds(&r->err, errtext));
}

static enum hb_shell_end judge(const char *out, const char *errtext, int status,
                               struct hb_error *err)
{
	struct hb_shell_result r;
	enum hb_shell_end end;

	result(&r, out, errtext, status);
	memset(err, 0, sizeof(*err));
	end = hb_shell_judge(&r, "create 'events_user_clicks_20261128'", 70, err);
	hb_shell_result_release(&r);
	return end;
}

/* 2.4.17 when JRuby's native support is off: the formatter writes for an 80-column terminal,
 * so the failed command's time is padded before its ERROR; jline's probe of the terminal
 * leaves stty's complaint on stderr (both seen on the real shell). */
static const char PADDED_OUT[] =
    "hbase:001:0> create 'events_user_clicks_20261128', 'cf'\n"
    "Took 0.9500 seconds                                                             ERROR "
    "RuntimeError: Table already exists: events_user_clicks_20261128!\n";
static const char PADDED_ERR[] =
    "Picked up JAVA_TOOL_OPTIONS: -Djruby.native.enabled=false\n"
    "log4j:WARN No appenders could be found for logger (org.apache.htrace.core.Sampler$Builder).\n"
    "stty: 'standard input': Inappropriate ioctl for device\n";

static void test_shellrun__padded_time_before_the_error_is_skipped(void)
{
	struct hb_error err;

	CHECK_EQ_INT(judge(PADDED_OUT, PADDED_ERR, 1, &err), HB_SHELL_ERROR);
	CHECK_EQ_STR(err.msg, "shell create 'events_user_clicks_20261128' failed (RuntimeError, "
	                      "exit 1): Table already exists: events_user_clicks_20261128!");
}

/* 2.4.17 naming a Java exception (seen against 2.6.1): the class is the constant path JRuby
 * gives it, the message the Java exception's. */
static void test_shellrun__java_exception_class_and_message_are_told_apart(void)
{
	static const char out[] =
	    "Took 1.0419 seconds                                                             ERROR "
	    "Java::OrgApacheHadoopHbaseIpc::RemoteWithExtrasException: "
	    "org.apache.hadoop.hbase.snapshot.SnapshotExistsException: Snapshot 'evt.v1' already "
	    "stored on the filesystem.\n"
	    "\tat org.apache.hadoop.hbase.master.snapshot.SnapshotManager.takeSnapshot("
	    "SnapshotManager.java:703)\n";
	struct hb_error err;

	CHECK_EQ_INT(judge(out, "java exception\n", 1, &err), HB_SHELL_ERROR);
	CHECK_EQ_STR(err.msg, "shell create 'events_user_clicks_20261128' failed "
	                      "(Java::OrgApacheHadoopHbaseIpc::RemoteWithExtrasException, exit 1): "
	                      "org.apache.hadoop.hbase.snapshot.SnapshotExistsException: Snapshot "
	                      "'evt.v1' already stored on the filesystem.");
}

/* 2.0-2.3 with -n: the command raises, load() does not rescue, JRuby reports it on stderr
 * (its TraceType Format.JRUBY: "Class: message", then "  METHOD at FILE:LINE" frames). */
static void test_shellrun__jruby_report_of_an_unrescued_error_is_the_error(void)
{
	static const char out[] = "Took 0.6123 seconds";
	static const char errtext[] =
	    "stty: 'standard input': Inappropriate ioctl for device\n"
	    "RuntimeError: Table already exists: events_user_clicks_20261128!\n"
	    "  translate_hbase_exceptions at /usr/lib/hbase/lib/ruby/shell/commands.rb:148\n"
	    "                      create at /usr/lib/hbase/lib/ruby/shell/commands/create.rb:67\n"
	    "                      <main> at /tmp/hbtab-create-abc123.rb:2\n"
	    "                        load at org/jruby/RubyKernel.java:1009\n"
	    "                      <main> at /usr/lib/hbase/bin/hirb.rb:186\n";
	static const char java[] =
	    "Java::OrgApacheHadoopHbaseIpc::RemoteWithExtrasException: "
	    "org.apache.hadoop.hbase.snapshot.SnapshotCreationException: Table 't9' doesn't exist, "
	    "can't take snapshot.\n"
	    "\tat "
	    "org.apache.hadoop.hbase.master.snapshot.SnapshotManager.sanityCheckBeforeSnapshot("
	    "SnapshotManager.java:843)\n"
	    "  <main> at /tmp/hbtab-snapshot-abc123.rb:1\n";
	struct hb_error err;

	CHECK_EQ_INT(judge(out, errtext, 1, &err), HB_SHELL_ERROR);
	CHECK_EQ_STR(err.msg, "shell create 'events_user_clicks_20261128' failed (exit 1): "
	                      "RuntimeError: Table already exists: events_user_clicks_20261128!");
	CHECK_EQ_INT(judge("", java, 1, &err), HB_SHELL_ERROR);
	CHECK(strstr(err.msg, "(exit 1): Java::OrgApacheHadoopHbaseIpc::RemoteWithExtrasException: "
	                      "org.apache.hadoop.hbase.snapshot.SnapshotCreationException: Table "
	                      "'t9' doesn't exist") != NULL);
	/* a "Class: text" line with no frame after it is not a report */
	CHECK_EQ_INT(judge("Note: nothing failed\n", "", 0, &err), HB_SHELL_CLEAN);
}

/* 2.4.17 when a second IRB started after a script without "exit" cannot read stdin: the last
 * line is a stack frame, the message is the line heading it (seen on the real shell). */
static void test_shellrun__bare_failure_quotes_the_message_not_a_frame_or_noise(void)
{
	static const char frames[] = "stty: 'standard input': Inappropriate ioctl for device\n"
	                             "NotImplementedError: fstat unimplemented unsupported or "
	                             "native support failed to load\n"
	                             "  initialize at org/jruby/RubyIO.java:1015\n"
	                             "  initialize at uri:classloader:/irb/hirb.rb:50\n"
	                             "      <main> at classpath:/jar-bootstrap.rb:223\n";
	static const char noise_only[] = "log4j:WARN Please initialize the log4j system properly.\n"
	                                 "stty: 'standard input': Inappropriate ioctl for device\n";
	struct hb_error err;

	CHECK_EQ_INT(judge("hbase:001:0> list\n", frames, 1, &err), HB_SHELL_ERROR);
	CHECK(strstr(err.msg, "NotImplementedError: fstat unimplemented") != NULL);
	CHECK(strstr(err.msg, "jar-bootstrap") == NULL);
	/* nothing but noise on stderr: stdout's last meaningful line, not stty's */
	CHECK_EQ_INT(judge("hbase:001:0> create 't'\nCreated table t\nTook 1.0 seconds\n"
	                   "hbase:002:0> \n",
	                   noise_only, 1, &err),
	             HB_SHELL_FAILED);
	CHECK_EQ_STR(err.msg, "shell create 'events_user_clicks_20261128' failed (exit 1): "
	                      "Created table t");
	CHECK_EQ_INT(judge("", noise_only, 1, &err), HB_SHELL_FAILED);
	CHECK_EQ_STR(err.msg,
	             "shell create 'events_user_clicks_20261128' failed (exit 1): (no output)");
}

/* The create race's loser, as each release prints it: never "ours". */
static void test_shellrun__create_loser_is_told_the_table_is_not_its_own(void)
{
	struct hb_shell_result r;
	struct hb_error err = {0};
	int race = 0;

	result(&r, PADDED_OUT, PADDED_ERR, 1);
	CHECK_EQ_INT(hb_ddl_shell_outcome("events_user_clicks_20261128", &r, 70, &race, &err),
	             HB_ESERVER);
	CHECK_EQ_INT(race, HB_DDL_RACE_OTHER);
	hb_shell_result_release(&r);
	race = 0;
	result(&r, "Took 0.6123 seconds",
	       "RuntimeError: Table already exists: events_user_clicks_20261128!\n"
	       "  <main> at /tmp/hbtab-create-abc123.rb:2\n",
	       1);
	CHECK_EQ_INT(hb_ddl_shell_outcome("events_user_clicks_20261128", &r, 70, &race, &err),
	             HB_ESERVER);
	CHECK_EQ_INT(race, HB_DDL_RACE_OTHER);
	hb_shell_result_release(&r);
}

int main(void)
{
	RUN(test_shellrun__padded_time_before_the_error_is_skipped);
	RUN(test_shellrun__java_exception_class_and_message_are_told_apart);
	RUN(test_shellrun__jruby_report_of_an_unrescued_error_is_the_error);
	RUN(test_shellrun__bare_failure_quotes_the_message_not_a_frame_or_noise);
	RUN(test_shellrun__create_loser_is_told_the_table_is_not_its_own);
	return TEST_DONE();
}
