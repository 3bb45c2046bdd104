/* Table and family name rules (HBase 2.x TableName, ColumnFamilyDescriptorBuilder). */
#include "core/tname.h"
#include "test.h"

static int ok(const char *name)
{
	struct hb_error err = {0};

	return hb_tname_parse(NULL, name, &err) == 0;
}

static void test_tname__ascii_rules_match_tablename(void)
{
	static const char *good[] = {"t",    "user",     "a-b.c_d",   "_x",    "0abc",
	                             "ns:t", "ns_1:t-2", "default:t", "T1.2-3"};
	static const char *bad[] = {
	    "",      ".t", "-t",  "t/x",       "t x",         "ns:",    ":t",     "n-s:t", "n.s:t",
	    "a:b:c", "t$", "t,x", "zookeeper", "zookeeper:t", "-ROOT-", ".META.", "t\x01"};
	size_t i;

	for (i = 0; i < HB_ARRAY_LEN(good); i++) {
		if (!ok(good[i]))
			fprintf(stderr, "rejected '%s'\n", good[i]);
		CHECK(ok(good[i]));
	}
	for (i = 0; i < HB_ARRAY_LEN(bad); i++) {
		if (ok(bad[i]))
			fprintf(stderr, "accepted '%s'\n", bad[i]);
		CHECK(!ok(bad[i]));
	}
}

static void test_tname__unicode_letters_accepted_symbols_refused(void)
{
	CHECK(ok("t\xc3\xa9st"));              /* é */
	CHECK(ok("\xe7\x94\xa8\xe6\x88\xb7")); /* 用户 */
	CHECK(ok("\xd0\xbd\xd1\x81:t"));       /* Cyrillic namespace */
	CHECK(ok("t\xd9\xa3"));                /* Arabic-Indic digit three */
	CHECK(!ok("t\xc2\xa7"));               /* § */
	CHECK(!ok("t\xe2\x80\x94x"));          /* em dash */
	CHECK(!ok("t\xe2\x82\xac"));           /* € */
	CHECK(!ok("t\xf0\x9f\x98\x80"));       /* emoji */
	CHECK(!ok("t\xff"));                   /* not UTF-8 */
	CHECK(!ok("t\xc3"));                   /* truncated sequence */
	CHECK(!ok("t\xc0\xaf"));               /* overlong '/' */
	CHECK(!ok("t\xed\xa0\x80"));           /* surrogate */
}

static void test_tname__parts_and_default_namespace(void)
{
	struct hb_tname t;
	struct hb_error err = {0};

	CHECK_EQ_INT(hb_tname_parse(&t, "ns:tab", &err), 0);
	CHECK_EQ_INT(t.ns_len, 2);
	CHECK(!memcmp(t.ns, "ns", 2));
	CHECK_EQ_INT(t.qual_len, 3);
	CHECK(t.has_ns);
	CHECK_EQ_INT(hb_tname_parse(&t, "tab", &err), 0);
	CHECK_EQ_INT(t.ns_len, 7);
	CHECK(!memcmp(t.ns, "default", 7));
	CHECK(!t.has_ns);
	CHECK(!t.too_long);
}

static void test_tname__bare_name_leaves_out_only_the_default_namespace(void)
{
	CHECK_EQ_STR(hb_tname_bare("default:events_user_clicks_20261128"),
	             "events_user_clicks_20261128");
	CHECK_EQ_STR(hb_tname_bare("events_user_clicks_20261128"), "events_user_clicks_20261128");
	CHECK_EQ_STR(hb_tname_bare("analytics:events_user_clicks_20261128"),
	             "analytics:events_user_clicks_20261128");
	/* only the whole namespace "default" is left out, not a namespace that starts so */
	CHECK_EQ_STR(hb_tname_bare("defaults:t1"), "defaults:t1");
	CHECK_EQ_STR(hb_tname_bare("default"), "default");
}

static void test_tname__bare_name_of_bytes_not_terminated(void)
{
	/* a name inside a larger buffer: its length is the only end it has */
	const char *buf = "default:events_user_clicks_20261128,5,1795910792930";
	size_t n = 35;
	const char *b = hb_tname_bare_n(buf, &n);

	CHECK(b == buf + 8);
	CHECK_EQ_INT(n, 27);
	CHECK(!memcmp(b, "events_user_clicks_20261128", n));
	n = 14;
	b = hb_tname_bare_n("analytics:ev,x", &n);
	CHECK_EQ_INT(n, 14);
	/* "default:" alone names no table: left as it is */
	n = 8;
	CHECK(hb_tname_bare_n("default:", &n) != NULL && n == 8);
}

static void test_tname__long_names_flagged_not_refused(void)
{
	char name[400];
	struct hb_tname t;
	struct hb_error err = {0};

	memset(name, 'a', 300);
	name[300] = 0;
	CHECK_EQ_INT(hb_tname_parse(&t, name, &err), 0);
	CHECK(t.too_long);
	name[255] = 0;
	CHECK_EQ_INT(hb_tname_parse(&t, name, &err), 0);
	CHECK(!t.too_long);
}

static void test_tname__create_refuses_hbase_namespace(void)
{
	struct hb_error err = {0};

	CHECK_EQ_INT(hb_tname_check_create(NULL, "hbase:meta", &err), HB_EINVAL);
	CHECK(strstr(err.msg, "system") != NULL);
	CHECK_EQ_INT(hb_tname_check_create(NULL, "hbase:t", &err), HB_EINVAL);
	CHECK_EQ_INT(hb_tname_check_create(NULL, "hbasex:t", &err), 0);
	CHECK_EQ_INT(hb_tname_parse(NULL, "hbase:meta", &err), 0);
}

static void test_tname__family_rules(void)
{
	struct hb_error err = {0};

	CHECK_EQ_INT(hb_family_check("cf", &err), 0);
	CHECK_EQ_INT(hb_family_check("info-1.x y", &err), 0);
	CHECK_EQ_INT(hb_family_check("\xc3\xa9", &err), 0);
	CHECK_EQ_INT(hb_family_check("", &err), HB_EINVAL);
	CHECK_EQ_INT(hb_family_check(".cf", &err), HB_EINVAL);
	CHECK_EQ_INT(hb_family_check("c:f", &err), HB_EINVAL);
	CHECK_EQ_INT(hb_family_check("c/f", &err), HB_EINVAL);
	CHECK_EQ_INT(hb_family_check("c\\f", &err), HB_EINVAL);
	CHECK_EQ_INT(hb_family_check("c\x7f", &err), HB_EINVAL);
	CHECK_EQ_INT(hb_family_check("c\tf", &err), HB_EINVAL);
	CHECK_EQ_INT(hb_family_check("recovered.edits", &err), HB_EINVAL);
}

int main(void)
{
	RUN(test_tname__ascii_rules_match_tablename);
	RUN(test_tname__unicode_letters_accepted_symbols_refused);
	RUN(test_tname__parts_and_default_namespace);
	RUN(test_tname__bare_name_leaves_out_only_the_default_namespace);
	RUN(test_tname__bare_name_of_bytes_not_terminated);
	RUN(test_tname__long_names_flagged_not_refused);
	RUN(test_tname__create_refuses_hbase_namespace);
	RUN(test_tname__family_rules);
	return TEST_DONE();
}
