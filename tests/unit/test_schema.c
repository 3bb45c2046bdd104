/* Table schemas: column-family attribute rules and the comparison of a table with a request. */
#include "core/family.h"
#include "core/schema.h"
#include "test.h"

static void test_family__typed_values_are_validated_and_normalized(void)
{
	struct hb_schema s;
	struct hb_family *f;
	struct hb_error err = {0};
	static const char *bad[][2] = {
	    {"VERSIONS", "0"},
	    {"VERSIONS", "x"},
	    {"TTL", "-1"},
	    {"COMPRESSION", "LZMA2"},
	    {"BLOOMFILTER", "YES"},
	    {"IN_MEMORY", "1"},
	    {"BLOCKSIZE", "99999999999"},
	    {"DATA_BLOCK_ENCODING", "PREFIX_TREE"},
	    {"KEEP_DELETED_CELLS", "maybe"},
	    {"MIN_VERSIONS", "-2"},
	    {"BLOCKCACHE", ""},
	};
	size_t i;

	for (i = 0; i < HB_ARRAY_LEN(bad); i++) {
		hb_schema_init(&s);
		hb_schema_add_family(&s, "cf", &f);
		hb_attrs_set(&f->attrs, bad[i][0], bad[i][1]);
		err.msg[0] = 0;
		CHECK_EQ_INT(hb_family_normalize(f, &err), HB_EINVAL);
		CHECK(strstr(err.msg, bad[i][0]) != NULL);
		hb_schema_release(&s);
	}
	hb_schema_init(&s);
	hb_schema_add_family(&s, "cf", &f);
	hb_attrs_set(&f->attrs, "COMPRESSION", "gz");
	hb_attrs_set(&f->attrs, "BLOCKCACHE", "False");
	CHECK_EQ_INT(hb_family_normalize(f, &err), 0);
	CHECK_EQ_STR(hb_attrs_get(&f->attrs, "COMPRESSION"), "GZ");
	CHECK_EQ_STR(hb_attrs_get(&f->attrs, "BLOCKCACHE"), "false");
	hb_schema_release(&s);
}

static void test_family__forever_ttl_and_enum_case_normalize(void)
{
	struct hb_schema s;
	struct hb_family *f;
	struct hb_error err = {0};

	hb_schema_init(&s);
	hb_schema_add_family(&s, "cf", &f);
	hb_attrs_set(&f->attrs, "TTL", "forever");
	hb_attrs_set(&f->attrs, "BLOOMFILTER", "rowcol");
	hb_attrs_set(&f->attrs, "IN_MEMORY", "TRUE");
	hb_attrs_set(&f->attrs, "VERSIONS", "3");
	hb_attrs_set(&f->attrs, "MY_OWN", "Mixed Case");
	CHECK_EQ_INT(hb_family_normalize(f, &err), 0);
	CHECK_EQ_STR(hb_attrs_get(&f->attrs, "TTL"), "2147483647");
	CHECK_EQ_STR(hb_attrs_get(&f->attrs, "BLOOMFILTER"), "ROWCOL");
	CHECK_EQ_STR(hb_attrs_get(&f->attrs, "IN_MEMORY"), "true");
	CHECK_EQ_STR(hb_attrs_get(&f->attrs, "VERSIONS"), "3");
	/* an attribute without a rule passes through as given */
	CHECK_EQ_STR(hb_attrs_get(&f->attrs, "MY_OWN"), "Mixed Case");
	hb_schema_release(&s);
}

static void test_family__numbers_are_the_int_and_ttl_attributes(void)
{
	static const char *const numbers[] = {"VERSIONS", "MIN_VERSIONS", "TTL", "BLOCKSIZE",
	                                      "REPLICATION_SCOPE"};
	static const char *const others[] = {
	    "COMPRESSION",         "BLOOMFILTER",        "IN_MEMORY", "BLOCKCACHE",
	    "DATA_BLOCK_ENCODING", "KEEP_DELETED_CELLS", "MY_OWN",    "versions"};
	size_t i;

	for (i = 0; i < HB_ARRAY_LEN(numbers); i++) {
		CHECK(hb_cfattr_is_number(numbers[i]));
		CHECK(hb_cfattr_known(numbers[i]));
	}
	for (i = 0; i < HB_ARRAY_LEN(others); i++)
		CHECK(!hb_cfattr_is_number(others[i]));
	CHECK(hb_cfattr_known("COMPRESSION"));
	CHECK(!hb_cfattr_known("MY_OWN"));
	/* the rules name attributes as HBase spells them: upper case only */
	CHECK(!hb_cfattr_known("versions"));
}

/* want: families "a" (COMPRESSION=GZ) and "b", table attribute MAX_FILESIZE=1000. */
static void make_want(struct hb_schema *s)
{
	struct hb_family *f;

	hb_schema_init(s);
	hb_schema_set_table(s, "t");
	hb_schema_add_family(s, "a", &f);
	hb_attrs_set(&f->attrs, "COMPRESSION", "GZ");
	hb_schema_add_family(s, "b", NULL);
	hb_attrs_set(&s->attrs, "MAX_FILESIZE", "1000");
}

static void test_schema__compare_equal_ignores_case_of_values_and_added_attributes(void)
{
	struct hb_schema want, have;
	struct hb_family *f;
	struct hb_diff d;

	make_want(&want);
	hb_schema_init(&have);
	hb_schema_set_table(&have, "t");
	/* HBase lists families in its own order, prints gz for GZ and adds its defaults */
	hb_schema_add_family(&have, "b", &f);
	hb_attrs_set(&f->attrs, "VERSIONS", "1");
	hb_schema_add_family(&have, "a", &f);
	hb_attrs_set(&f->attrs, "COMPRESSION", "gz");
	hb_attrs_set(&f->attrs, "BLOCKCACHE", "true");
	hb_attrs_set(&have.attrs, "MAX_FILESIZE", "1000");
	hb_attrs_set(&have.attrs, "IS_META", "false");
	hb_diff_init(&d, 20);
	CHECK_EQ_INT(hb_schema_compare(&d, &want, &have), 1);
	CHECK_EQ_INT(d.n, 0);
	CHECK_EQ_STR(hb_buf_str(&d.lines), "");
	hb_diff_release(&d);
	hb_schema_release(&want);
	hb_schema_release(&have);
}

static void test_schema__compare_lists_every_difference(void)
{
	struct hb_schema want, have;
	struct hb_family *f;
	struct hb_diff d;

	make_want(&want);
	hb_schema_init(&have);
	hb_schema_set_table(&have, "t");
	hb_schema_add_family(&have, "a", &f);
	hb_attrs_set(&f->attrs, "COMPRESSION", "SNAPPY");
	hb_schema_add_family(&have, "c", NULL);
	/* table attributes are compared byte for byte */
	hb_attrs_set(&have.attrs, "MAX_FILESIZE", "1000 ");
	hb_diff_init(&d, 20);
	CHECK_EQ_INT(hb_schema_compare(&d, &want, &have), 0);
	CHECK_EQ_INT(d.n, 4);
	CHECK_EQ_STR(hb_buf_str(&d.lines),
	             "~ family 'a' COMPRESSION is 'SNAPPY', requested 'GZ'\n"
	             "- missing family 'b'\n"
	             "+ unexpected family 'c'\n"
	             "~ table attribute MAX_FILESIZE is '1000 ', requested '1000'\n");
	hb_diff_release(&d);
	hb_schema_release(&have);

	/* an attribute the table lacks reads "(unset)" */
	hb_schema_init(&have);
	hb_schema_add_family(&have, "a", NULL);
	hb_schema_add_family(&have, "b", NULL);
	hb_diff_init(&d, 20);
	CHECK_EQ_INT(hb_schema_compare(&d, &want, &have), 0);
	CHECK_EQ_STR(hb_buf_str(&d.lines),
	             "~ family 'a' COMPRESSION is '(unset)', requested 'GZ'\n"
	             "~ table attribute MAX_FILESIZE is '(unset)', requested '1000'\n");
	hb_diff_release(&d);
	hb_schema_release(&want);
	hb_schema_release(&have);
}

static void test_schema__compare_counts_differences_beyond_the_cap(void)
{
	struct hb_schema want, have;
	struct hb_diff d;
	char name[8];
	int i;

	hb_schema_init(&want);
	hb_schema_init(&have);
	for (i = 0; i < 5; i++) {
		snprintf(name, sizeof(name), "f%d", i);
		hb_schema_add_family(&want, name, NULL);
	}
	hb_diff_init(&d, 2);
	CHECK_EQ_INT(hb_schema_compare(&d, &want, &have), 0);
	CHECK_EQ_INT(d.n, 5);
	CHECK_EQ_STR(hb_buf_str(&d.lines), "- missing family 'f0'\n- missing family 'f1'\n");
	CHECK_EQ_INT(hb_diff_close(&d), 0);
	CHECK_EQ_STR(hb_buf_str(&d.lines), "- missing family 'f0'\n- missing family 'f1'\n"
	                                   "... and 3 more differences\n");
	hb_diff_release(&d);
	hb_schema_release(&want);
	hb_schema_release(&have);
}

int main(void)
{
	RUN(test_family__typed_values_are_validated_and_normalized);
	RUN(test_family__forever_ttl_and_enum_case_normalize);
	RUN(test_family__numbers_are_the_int_and_ttl_attributes);
	RUN(test_schema__compare_equal_ignores_case_of_values_and_added_attributes);
	RUN(test_schema__compare_lists_every_difference);
	RUN(test_schema__compare_counts_differences_beyond_the_cap);
	return TEST_DONE();
}
