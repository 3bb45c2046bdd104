/* hb_error_denied: HBase's AccessDeniedException texts, as the secure real cluster sends them,
 * become one plain "permission denied" sentence naming the user, the action and the scope. */
#include "core/hb.h"
#include "test.h"

/* The REST gateway's 403 body for a DELETE /T/schema by a user with READ only. */
static const char rest_body[] =
    "Forbidden\r\n"
    "org.apache.hadoop.hbase.security.AccessDeniedException: "
    "org.apache.hadoop.hbase.security.AccessDeniedException: Insufficient permissions "
    "(user=reader, scope=events:user_clicks_20261128, "
    "params=[table=events:user_clicks_20261128,],action=CREATE)\n"
    "\tat org.apache.hadoop.hbase.security.access.AccessChecker.requirePermission("
    "AccessChecker.java:273)\r\n";

static void test_denied__the_gateways_403_body_names_user_action_and_table(void)
{
	char out[400];

	CHECK_EQ_INT(hb_error_denied(out, sizeof(out), rest_body), 1);
	CHECK_EQ_STR(out, "permission denied: HBase refused user 'reader' the CREATE permission on "
	                  "table 'events:user_clicks_20261128' (the AccessController: an HBase "
	                  "admin can grant it)");
}

static void test_denied__a_thrift2_createtable_refusal_names_the_namespace(void)
{
	char out[400];
	const char *msg = "org.apache.hadoop.hbase.security.AccessDeniedException: Insufficient "
	                  "permissions (user=reader, scope=events, params=[namespace=events,"
	                  "table=events:reader_try,family=cf],action=CREATE)\n\tat ...";

	CHECK_EQ_INT(hb_error_denied(out, sizeof(out), msg), 1);
	CHECK(strstr(out, "user 'reader' the CREATE permission on namespace 'events' (") != NULL);
}

static void test_denied__the_global_wording_and_an_unknown_one(void)
{
	char out[400];

	CHECK_EQ_INT(hb_error_denied(out, sizeof(out),
	                             "org.apache.hadoop.hbase.security.AccessDeniedException: "
	                             "Insufficient permissions for user 'reader' (global, "
	                             "action=ADMIN)"),
	             1);
	CHECK(strstr(out, "user 'reader' the ADMIN permission on the whole cluster (global)") !=
	      NULL);
	CHECK_EQ_INT(hb_error_denied(out, sizeof(out),
	                             "org.apache.hadoop.hbase.security.AccessDeniedException: "
	                             "org.apache.hadoop.hbase.security.AccessDeniedException: "
	                             "Read-only mode\n\tat x"),
	             1);
	CHECK_EQ_STR(out, "permission denied: Read-only mode");
}

static void test_denied__other_errors_are_left_alone(void)
{
	char out[16] = "untouched";

	CHECK_EQ_INT(hb_error_denied(out, sizeof(out), "Forbidden\r\n"), 0);
	CHECK_EQ_INT(
	    hb_error_denied(out, sizeof(out), "org.apache.hadoop.hbase.TableExistsException: t"),
	    0);
	CHECK_EQ_INT(hb_error_denied(out, sizeof(out), NULL), 0);
	CHECK_EQ_STR(out, "untouched");
}

int main(void)
{
	RUN(test_denied__the_gateways_403_body_names_user_action_and_table);
	RUN(test_denied__a_thrift2_createtable_refusal_names_the_namespace);
	RUN(test_denied__the_global_wording_and_an_unknown_one);
	RUN(test_denied__other_errors_are_left_alone);
	return TEST_DONE();
}
