/* The DDL channels' texts from the schema model: --family / --attr rules, the hbase shell
 * script, the SPLITS_FILE lines and the JSON plan of '--via print'. */
#include "core/ddlscript.h"
#include "test.h"

/* A schema built from --family / --attr values as create parses them; 0 when all parse. */
static int build(struct hb_schema *s, const char *table, const char *const *fams, size_t nf,
                 const char *const *attrs, size_t na, struct hb_error *err)
{
	size_t i;
	int rc = hb_schema_set_table(s, table);

	for (i = 0; !rc && i < nf; i++)
		rc = hb_ddlscript_add_family(s, fams[i], "--family", err);
	for (i = 0; !rc && i < na; i++)
		rc = hb_ddlscript_add_attr(s, attrs[i], "--attr", err);
	return rc;
}

static void push(struct hb_keys *k, const char *s, size_t n)
{
	CHECK(!hb_keys_push(k, s, n));
}

static void test_ddlscript__shell_script_quotes_keys_families_and_metadata(void)
{
	static const char *const fams[] = {"f:versions=3,foo=b\\x", "g"};
	static const char *const attrs[] = {"X=it's", "MAX_FILESIZE=100"};
	struct hb_error err = {0};
	struct hb_schema s;
	struct hb_keys k;
	struct hb_buf out = HB_BUF_INIT;

	hb_schema_init(&s);
	hb_keys_init(&k);
	CHECK(!build(&s, "ns:t1", fams, 2, attrs, 2, &err));
	push(&k, " a b", 4);
	push(&k, "k'q", 3);
	push(&k, "z\xff ", 3);
	CHECK(!hb_ddlscript_shell_script(&out, &s, &k, NULL));
	CHECK_EQ_STR(hb_buf_str(&out),
	             "# hbtab create: one table, verified afterwards over REST\n"
	             "create 'ns:t1',\n"
	             "  {NAME => 'f', VERSIONS => 3, METADATA => {'foo' => 'b\\\\x'}},\n"
	             "  {NAME => 'g'},\n"
	             "  {METADATA => {'X' => 'it\\'s', 'MAX_FILESIZE' => '100'},\n"
	             "   SPLITS => [\n"
	             "    '\\x20a b',\n"
	             "    'k\\x27q',\n"
	             "    'z\\xFF\\x20'\n"
	             "  ]}\n"
	             "exit\n");
	hb_buf_reset(&out);
	CHECK(!hb_ddlscript_splits_file(&out, &k));
	CHECK_EQ_STR(hb_buf_str(&out), "\\x20a b\nk'q\nz\\xFF\\x20\n");
	hb_buf_release(&out);
	hb_keys_release(&k);
	hb_schema_release(&s);
}

static void test_ddlscript__one_region_has_no_splits_clause_and_file_path_replaces_list(void)
{
	static const char *const fams[] = {"cf"};
	struct hb_error err = {0};
	struct hb_schema s;
	struct hb_keys k;
	struct hb_buf out = HB_BUF_INIT;

	hb_schema_init(&s);
	hb_keys_init(&k);
	CHECK(!build(&s, "t", fams, 1, NULL, 0, &err));
	CHECK(!hb_ddlscript_shell_script(&out, &s, &k, NULL));
	CHECK_EQ_STR(hb_buf_str(&out), "# hbtab create: one table, verified afterwards over REST\n"
	                               "create 't',\n  {NAME => 'cf'}\nexit\n");
	hb_buf_reset(&out);
	push(&k, "m", 1);
	CHECK(!hb_ddlscript_shell_script(&out, &s, &k, "/tmp/it's.txt"));
	CHECK_EQ_STR(hb_buf_str(&out), "# hbtab create: one table, verified afterwards over REST\n"
	                               "create 't',\n  {NAME => 'cf'},\n"
	                               "  {SPLITS_FILE => '/tmp/it\\'s.txt'}\nexit\n");
	hb_buf_release(&out);
	hb_keys_release(&k);
	hb_schema_release(&s);
}

static void test_ddlscript__json_plan_escapes_as_the_json_output_does(void)
{
	static const char *const fams[] = {"f:versions=3,foo=\"b\\"};
	static const char *const attrs[] = {"X=\xc3\xa9", "Y=a\xc2\x85z"};
	struct hb_error err = {0};
	struct hb_schema s;
	struct hb_keys k;
	struct hb_buf out = HB_BUF_INIT;

	hb_schema_init(&s);
	hb_keys_init(&k);
	CHECK(!build(&s, "ns:t1", fams, 1, attrs, 2, &err));
	push(&k, " a b", 4);
	push(&k, "z\xff ", 3);
	CHECK(!hb_ddlscript_json_plan(&out, &s, &k));
	CHECK_EQ_STR(hb_buf_str(&out),
	             "{\"table\":\"ns:t1\",\"created\":false,\"verified\":false,\"via\":\"print\","
	             "\"families\":[{\"name\":\"f\",\"attrs\":{\"VERSIONS\":\"3\",\"foo\":"
	             "\"\\\"b\\\\\"}}],\"attrs\":{\"X\":\"\xc3\xa9\",\"Y\":\"a\\u0085z\"},"
	             "\"regions\":3,\"splits\":[{\"key\":\" a b\",\"base64\":\"IGEgYg==\"},"
	             "{\"key\":\"z\\\\xFF \",\"base64\":\"ev8g\"}]}\n");
	hb_buf_release(&out);
	hb_keys_release(&k);
	hb_schema_release(&s);
}

/* The message of add(spec) naming it as what, on a schema holding family "dup", or "" when it
 * parsed. */
static const char *parse_error(int (*add)(struct hb_schema *, const char *, const char *,
                                          struct hb_error *),
                               const char *spec, const char *what, struct hb_error *err)
{
	struct hb_schema s;
	int rc;

	hb_schema_init(&s);
	err->msg[0] = 0;
	rc = hb_schema_set_table(&s, "t");
	if (!rc)
		rc = hb_ddlscript_add_family(&s, "dup", NULL, err);
	if (!rc)
		rc = add(&s, spec, what, err);
	hb_schema_release(&s);
	return rc ? err->msg : "";
}

static const char *family_error(const char *spec, struct hb_error *err)
{
	return parse_error(hb_ddlscript_add_family, spec, "--family", err);
}

static const char *attr_error(const char *spec, struct hb_error *err)
{
	return parse_error(hb_ddlscript_add_attr, spec, "--attr", err);
}

static void test_ddlscript__family_values_refused_with_the_reason(void)
{
	struct hb_error err = {0};

	CHECK_EQ_STR(family_error("info,VERSIONS=3", &err),
	             "invalid --family 'info,VERSIONS=3': attributes follow a ':' (did you mean "
	             "'info:VERSIONS=3'?)");
	CHECK_EQ_STR(family_error("dup", &err), "family 'dup' is given twice");
	CHECK_EQ_STR(family_error("f:VERSIONS", &err),
	             "invalid --family 'f:VERSIONS': expected NAME:ATTR=VALUE,... but got "
	             "'VERSIONS'");
	CHECK_EQ_STR(family_error("f:name=x", &err),
	             "invalid --family 'f:name=x': attribute 'NAME' cannot be set here");
	CHECK_EQ_STR(family_error("f:a=1,a=2", &err),
	             "invalid --family 'f:a=1,a=2': 'a' given twice");
	CHECK_EQ_STR(family_error("f:x=\x01", &err),
	             "invalid family attribute value: control character \\x01 at byte 0");
	CHECK_EQ_STR(family_error("f:blocksize=4096,bloomfilter=row", &err), "");
	/* named in words when the caller gives no name for the spec */
	CHECK_EQ_STR(parse_error(hb_ddlscript_add_family, "f:VERSIONS", NULL, &err),
	             "invalid family 'f:VERSIONS': expected NAME:ATTR=VALUE,... but got "
	             "'VERSIONS'");
}

static void test_ddlscript__table_attributes_checked_as_hbase_parses_them(void)
{
	struct hb_error err = {0};

	CHECK_EQ_STR(attr_error("SPLITS=a", &err),
	             "invalid --attr 'SPLITS=a': 'SPLITS' is not a table attribute (use the "
	             "split-specification flags)");
	CHECK_EQ_STR(attr_error("MAX_FILESIZE=-1", &err),
	             "invalid --attr 'MAX_FILESIZE=-1': MAX_FILESIZE must be a whole number from "
	             "1 to 9223372036854775807");
	CHECK_EQ_STR(attr_error("READONLY=yes", &err),
	             "invalid --attr 'READONLY=yes': READONLY must be true or false");
	CHECK_EQ_STR(attr_error("SPLIT_POLICY=a..b", &err),
	             "invalid --attr 'SPLIT_POLICY=a..b': SPLIT_POLICY must be a Java class name");
	CHECK_EQ_STR(attr_error("X=\xff", &err),
	             "invalid table attribute value: not UTF-8 at byte 0");
	CHECK_EQ_STR(attr_error("noequals", &err), "invalid --attr 'noequals': expected KEY=VALUE");
	CHECK_EQ_STR(attr_error("DURABILITY=ASYNC_WAL", &err), "");
	CHECK_EQ_STR(parse_error(hb_ddlscript_add_attr, "READONLY=yes", NULL, &err),
	             "invalid table attribute 'READONLY=yes': READONLY must be true or false");
}

static void test_ddlscript__ruby_string_escapes_quote_and_backslash(void)
{
	struct hb_buf out = HB_BUF_INIT;

	CHECK(!hb_ddlscript_ruby_str(&out, "a'b\\c"));
	CHECK_EQ_STR(hb_buf_str(&out), "'a\\'b\\\\c'");
	hb_buf_release(&out);
}

int main(void)
{
	RUN(test_ddlscript__shell_script_quotes_keys_families_and_metadata);
	RUN(test_ddlscript__one_region_has_no_splits_clause_and_file_path_replaces_list);
	RUN(test_ddlscript__json_plan_escapes_as_the_json_output_does);
	RUN(test_ddlscript__family_values_refused_with_the_reason);
	RUN(test_ddlscript__table_attributes_checked_as_hbase_parses_them);
	RUN(test_ddlscript__ruby_string_escapes_quote_and_backslash);
	return TEST_DONE();
}
