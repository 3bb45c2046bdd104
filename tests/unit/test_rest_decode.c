/* Tests for the REST JSON decoders: missing, extra and mistyped fields, bad base64. */
#include "rest/cells.h"
#include "rest/meta.h"
#include "rest/regions.h"
#include "rest/schema.h"
#include "rest/status.h"
#include "test.h"

/* Region i of a list through one of a few views (each valid for the next seven calls). */
static const struct hb_region *reg(const struct hb_regions *rs, size_t i)
{
	static struct hb_region_view v[8];
	static unsigned k;

	return hb_regions_at(rs, i, &v[k++ % 8]);
}

#define D(s) s, strlen(s)

static void test_decode__regions_healthy_body(void)
{
	static const char body[] = "{\"name\":\"t1\",\"extra\":[1,2],\"Region\":["
	                           "{\"id\":1700000000000,\"startKey\":\"bQ==\",\"endKey\":\"\","
	                           "\"location\":\"rs2:16020\","
	                           "\"name\":\"t1,m,1700000000000.x.\",\"unknown\":{}},"
	                           "{\"id\":1700000000000,\"startKey\":\"\",\"endKey\":\"bQ==\","
	                           "\"location\":\"rs1:16020\","
	                           "\"name\":\"t1,,1700000000000.y.\"}]}";
	struct hb_regions rs;
	struct hb_error err = {0};

	hb_regions_init(&rs);
	CHECK_EQ_INT(hb_rest_decode_regions(D(body), "GET /t1/regions", &rs, &err), 0);
	CHECK_EQ_INT(rs.n, 2);
	hb_regions_sort(&rs);
	CHECK_EQ_INT(reg(&rs, 0)->start_len, 0);
	CHECK_EQ_INT(reg(&rs, 0)->end_len, 1);
	CHECK_EQ_STR(reg(&rs, 0)->server, "rs1:16020");
	CHECK(reg(&rs, 1)->start[0] == 'm');
	CHECK(reg(&rs, 1)->id == 1700000000000ull);
	hb_regions_release(&rs);
}

static void test_decode__regions_missing_and_mistyped_fields(void)
{
	static const struct {
		const char *body;
		const char *msg;
	} cases[] = {
	    {"{\"Region\":[{\"endKey\":\"\"}]}", "Region[0].startKey is missing"},
	    {"{\"Region\":[{\"startKey\":\"\"}]}", "Region[0].endKey is missing"},
	    {"{\"Region\":[{\"startKey\":5,\"endKey\":\"\"}]}",
	     "Region[0].startKey is not a string"},
	    {"{\"Region\":[{\"startKey\":\"%%%\",\"endKey\":\"\"}]}", "not valid base64"},
	    {"{\"Region\":[{\"startKey\":\"YQ\",\"endKey\":\"\"}]}", "not valid base64"},
	    {"{\"Region\":[{\"startKey\":\"\",\"endKey\":\"\",\"id\":\"x\"}]}",
	     "id is not a number"},
	    {"{\"Region\":[{\"startKey\":\"\",\"endKey\":\"\",\"location\":[]}]}",
	     "location is not a string"},
	    {"{\"Region\":{}}", "Region is not an array"},
	    {"{\"Region\":[7]}", "Region[0] is not an object"},
	    {"[]", "not a JSON object"},
	    {"{\"Region\":[{\"startKey\":\"\"", "invalid JSON"},
	    {"", "empty body"},
	};
	size_t i;

	for (i = 0; i < HB_ARRAY_LEN(cases); i++) {
		struct hb_regions rs;
		struct hb_error err = {0};

		hb_regions_init(&rs);
		CHECK_EQ_INT(hb_rest_decode_regions(D(cases[i].body), "GET /t/regions", &rs, &err),
		             HB_ESERVER);
		CHECK(strstr(err.msg, "malformed response from GET /t/regions: ") == err.msg);
		if (!strstr(err.msg, cases[i].msg))
			fprintf(stderr, "case %zu: %s\n", i, err.msg);
		CHECK(strstr(err.msg, cases[i].msg) != NULL);
		hb_regions_release(&rs);
	}
}

static void test_decode__regions_absent_list_is_empty_and_no_location_is_null(void)
{
	struct hb_regions rs;
	struct hb_error err = {0};

	hb_regions_init(&rs);
	CHECK_EQ_INT(hb_rest_decode_regions(D("{\"name\":\"t\"}"), "x", &rs, &err), 0);
	CHECK_EQ_INT(rs.n, 0);
	CHECK_EQ_INT(hb_rest_decode_regions(D("{\"Region\":[{\"startKey\":\"\",\"endKey\":\"\"}]}"),
	                                    "x", &rs, &err),
	             0);
	CHECK_EQ_INT(rs.n, 1);
	CHECK(reg(&rs, 0)->server == NULL);
	CHECK(reg(&rs, 0)->name == NULL);
	hb_regions_release(&rs);
}

static void test_decode__regions_pull_parser_handles_escapes_nesting_and_garbage(void)
{
	static const char ok[] =
	    " {\"x\":{\"a\":[1,-2.5e3,true,false,null,\"q\\\"\"]},\"Region\":[{\"skip\":[[{}]],"
	    "\"startKey\":\"\\u0062Q==\",\"endKey\":\"YQ\\u003d=\",\"id\":\"42\","
	    "\"location\":\"h\\u00e9:1\",\"name\":null}],\"Region2\":{}} ";
	static const char *const bad[] = {
	    "{\"Region\":[]} x",
	    "{\"Region\":[],}",
	    "{\"Region\":[{\"startKey\":\"\",}]}",
	    "{\"a\":01}",
	    "{\"a\":\"\\x\"}",
	    "{\"a\":tru}",
	    "{\"a\" 1}",
	    "{\"a\":[1 2]}",
	    "{\"a\":\"\x01\"}",
	    "{\"a\":1.}",
	    /* one string over two lines (parenthesised so it is not taken for a missing comma) */
	    ("{\"a\":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]"
	     "]"
	     "]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}"),
	};
	struct hb_regions rs;
	struct hb_error err = {0};
	size_t i;

	hb_regions_init(&rs);
	CHECK_EQ_INT(hb_rest_decode_regions(D(ok), "g", &rs, &err), 0);
	CHECK_EQ_INT(rs.n, 1);
	if (rs.n == 1) {
		CHECK(reg(&rs, 0)->start_len == 1 && reg(&rs, 0)->start[0] == 'm');
		CHECK(reg(&rs, 0)->end_len == 1 && reg(&rs, 0)->end[0] == 'a');
		CHECK_EQ_INT(reg(&rs, 0)->id, 42);
		CHECK_EQ_STR(reg(&rs, 0)->server, "h\xc3\xa9:1");
		CHECK(reg(&rs, 0)->name == NULL);
	}
	hb_regions_release(&rs);
	for (i = 0; i < HB_ARRAY_LEN(bad); i++) {
		hb_regions_init(&rs);
		CHECK_EQ_INT(hb_rest_decode_regions(D(bad[i]), "g", &rs, &err), HB_ESERVER);
		if (!strstr(err.msg, "invalid JSON"))
			fprintf(stderr, "bad case %zu: %s\n", i, err.msg);
		CHECK(strstr(err.msg, "invalid JSON") != NULL);
		hb_regions_release(&rs);
	}
}

static void test_decode__status_reads_counters_leniently(void)
{
	static const char body[] =
	    "{\"regions\":2,\"requests\":\"7\",\"averageLoad\":1.0,"
	    "\"LiveNodes\":[{\"name\":\"host1:16020\",\"startCode\":1245219839331,"
	    "\"requests\":\"oops\",\"Region\":[{\"name\":\"aGJhc2U6bWV0YSwsMQ==\","
	    "\"readRequestsCount\":11,\"writeRequestsCount\":22,\"memstoreSizeMB\":3}]}],"
	    "\"DeadNodes\":[\"host2,16020,1245219839000\"]}";
	struct hb_cluster_status st;
	struct hb_error err = {0};

	CHECK_EQ_INT(hb_rest_decode_status(D(body), "GET /status/cluster", &st, &err), 0);
	CHECK_EQ_INT(st.regions, 2);
	CHECK_EQ_INT(st.requests, 7);
	CHECK_EQ_INT(st.nlive, 1);
	CHECK_EQ_STR(st.live[0].name, "host1:16020");
	CHECK_EQ_INT(st.live[0].requests, 0);
	CHECK_EQ_INT(st.live[0].nregions, 1);
	CHECK_EQ_STR((char *)st.live[0].regions[0].name, "hbase:meta,,1");
	CHECK_EQ_INT(st.live[0].regions[0].read_requests, 11);
	CHECK_EQ_INT(st.live[0].regions[0].write_requests, 22);
	CHECK_EQ_INT(st.live[0].regions[0].memstore_size_mb, 3);
	CHECK_EQ_INT(st.ndead, 1);
	CHECK_EQ_STR(st.dead[0], "host2,16020,1245219839000");
	hb_cluster_status_release(&st);
}

static void test_decode__status_rejects_bad_names(void)
{
	struct hb_cluster_status st;
	struct hb_error err = {0};

	CHECK_EQ_INT(hb_rest_decode_status(D("{\"LiveNodes\":[{\"Region\":[]}]}"), "s", &st, &err),
	             HB_ESERVER);
	CHECK(strstr(err.msg, "LiveNodes[0].name is missing") != NULL);
	CHECK_EQ_INT(hb_rest_decode_status(
	                 D("{\"LiveNodes\":[{\"name\":\"h:1\",\"Region\":[{\"name\":\"!!\"}]}]}"),
	                 "s", &st, &err),
	             HB_ESERVER);
	CHECK(strstr(err.msg, "Region[0].name is not valid base64") != NULL);
	CHECK_EQ_INT(hb_rest_decode_status(D("{\"DeadNodes\":[1]}"), "s", &st, &err), HB_ESERVER);
	CHECK_EQ_INT(hb_rest_decode_status(D("{}"), "s", &st, &err), 0);
	CHECK_EQ_INT(st.nlive, 0);
	hb_cluster_status_release(&st);
}

static void test_decode__schema_attributes_and_families(void)
{
	static const char body[] =
	    "{\"name\":\"ns:t1\",\"MAX_FILESIZE\":\"1073741824\",\"IS_META\":false,"
	    "\"ColumnSchema\":[{\"name\":\"cf\",\"VERSIONS\":\"1\",\"BLOCKSIZE\":65536},"
	    "{\"name\":\"d\"}]}";
	struct hb_schema s;
	struct hb_error err = {0};

	hb_schema_init(&s);
	CHECK_EQ_INT(hb_rest_decode_schema(D(body), "GET /ns%3At1/schema", &s, &err), 0);
	CHECK_EQ_STR(s.table, "ns:t1");
	CHECK_EQ_STR(hb_attrs_get(&s.attrs, "MAX_FILESIZE"), "1073741824");
	CHECK_EQ_STR(hb_attrs_get(&s.attrs, "IS_META"), "false");
	CHECK_EQ_INT(s.nfamilies, 2);
	CHECK_EQ_STR(hb_attrs_get(&s.families[0].attrs, "BLOCKSIZE"), "65536");
	CHECK_EQ_STR(s.families[1].name, "d");
	hb_schema_release(&s);

	hb_schema_init(&s);
	CHECK_EQ_INT(hb_rest_decode_schema(D("{\"ColumnSchema\":[]}"), "x", &s, &err), HB_ESERVER);
	CHECK(strstr(err.msg, "table name is missing") != NULL);
	hb_schema_release(&s);
	hb_schema_init(&s);
	CHECK_EQ_INT(
	    hb_rest_decode_schema(D("{\"name\":\"t\",\"ColumnSchema\":[{\"VERSIONS\":\"1\"}]}"),
	                          "x", &s, &err),
	    HB_ESERVER);
	CHECK(strstr(err.msg, "ColumnSchema[0].name is missing") != NULL);
	hb_schema_release(&s);
	hb_schema_init(&s);
	CHECK_EQ_INT(hb_rest_decode_schema(D("{\"name\":\"t\",\"X\":{\"a\":1}}"), "x", &s, &err),
	             HB_ESERVER);
	hb_schema_release(&s);
}

static void test_decode__schema_encode_round_trips(void)
{
	struct hb_schema s, back;
	struct hb_family *f;
	struct hb_error err = {0};
	char *json = NULL;

	hb_schema_init(&s);
	hb_schema_init(&back);
	CHECK_EQ_INT(hb_schema_set_table(&s, "t\"1"), 0);
	CHECK_EQ_INT(hb_attrs_set(&s.attrs, "SPLIT_POLICY", "x.y"), 0);
	CHECK_EQ_INT(hb_schema_add_family(&s, "cf", &f), 0);
	CHECK_EQ_INT(hb_attrs_set(&f->attrs, "VERSIONS", "3"), 0);
	CHECK_EQ_INT(hb_rest_encode_schema(&s, &json, &err), 0);
	CHECK_EQ_INT(hb_rest_decode_schema(json, strlen(json), "x", &back, &err), 0);
	CHECK_EQ_STR(back.table, "t\"1");
	CHECK_EQ_STR(hb_attrs_get(&back.attrs, "SPLIT_POLICY"), "x.y");
	CHECK_EQ_INT(back.nfamilies, 1);
	CHECK_EQ_STR(hb_attrs_get(&back.families[0].attrs, "VERSIONS"), "3");
	free(json);
	hb_schema_release(&s);
	hb_schema_release(&back);
}

static void test_decode__tables_sorted_and_checked(void)
{
	struct hb_names n;
	struct hb_error err = {0};

	hb_names_init(&n);
	CHECK_EQ_INT(
	    hb_rest_decode_tables(
	        D("{\"table\":[{\"name\":\"b\"},{\"name\":\"ns:a\",\"x\":1},{\"name\":\"a\"}]}"),
	        "GET /", &n, &err),
	    0);
	CHECK_EQ_INT(n.n, 3);
	CHECK_EQ_STR(n.v[0], "a");
	CHECK_EQ_STR(n.v[1], "b");
	CHECK_EQ_STR(n.v[2], "ns:a");
	hb_names_release(&n);
	CHECK_EQ_INT(hb_rest_decode_tables(D("{}"), "GET /", &n, &err), 0);
	CHECK_EQ_INT(n.n, 0);
	CHECK_EQ_INT(hb_rest_decode_tables(D("{\"table\":[{\"name\":3}]}"), "GET /", &n, &err),
	             HB_ESERVER);
	CHECK_EQ_INT(hb_rest_decode_tables(D("{\"table\":[{}]}"), "GET /", &n, &err), HB_ESERVER);
	CHECK_EQ_INT(hb_rest_decode_tables(D("<html>"), "GET /", &n, &err), HB_ESERVER);
	hb_names_release(&n);
}

static void test_decode__versions(void)
{
	struct hb_rest_version v;
	struct hb_error err = {0};
	char *cv = NULL;

	CHECK_EQ_INT(hb_rest_decode_version(D("{\"REST\":\"0.0.3\",\"JVM\":\"x\",\"More\":1}"), "v",
	                                    &v, &err),
	             0);
	CHECK_EQ_STR(v.rest, "0.0.3");
	CHECK(v.os == NULL);
	hb_rest_version_release(&v);
	CHECK_EQ_INT(hb_rest_decode_version(D("{\"REST\":3}"), "v", &v, &err), HB_ESERVER);
	CHECK_EQ_INT(hb_rest_decode_cluster_version(D("\"2.5.8\""), "c", &cv, &err), 0);
	CHECK_EQ_STR(cv, "2.5.8");
	free(cv);
	CHECK_EQ_INT(hb_rest_decode_cluster_version(D("2.4.17\n"), "c", &cv, &err), 0);
	CHECK_EQ_STR(cv, "2.4.17");
	free(cv);
	/* StorageClusterVersionModel: the object every real gateway sends. */
	CHECK_EQ_INT(hb_rest_decode_cluster_version(D("{\"Version\":\"2.5.8\"}"), "c", &cv, &err),
	             0);
	CHECK_EQ_STR(cv, "2.5.8");
	free(cv);
	CHECK_EQ_INT(hb_rest_decode_cluster_version(D(" {\"Version\":\"2.6.1\",\"x\":1}\r\n"), "c",
	                                            &cv, &err),
	             HB_ESERVER); /* a leading space is not JSON we accept from the start */
	CHECK_EQ_INT(hb_rest_decode_cluster_version(D("{\"Version\":\"2.6.1\",\"x\":1}\r\n"), "c",
	                                            &cv, &err),
	             0);
	CHECK_EQ_STR(cv, "2.6.1");
	free(cv);
	CHECK_EQ_INT(hb_rest_decode_cluster_version(D("{\"v\":1}"), "c", &cv, &err), HB_ESERVER);
	CHECK(strstr(err.msg, "Version") != NULL);
	CHECK_EQ_INT(hb_rest_decode_cluster_version(D("{\"Version\":2}"), "c", &cv, &err),
	             HB_ESERVER);
	CHECK_EQ_INT(hb_rest_decode_cluster_version(D("{\"Version\":\"\"}"), "c", &cv, &err),
	             HB_ESERVER);
	CHECK_EQ_INT(hb_rest_decode_cluster_version(D("{\"Version\":\"2 5\"}"), "c", &cv, &err),
	             HB_ESERVER);
	CHECK_EQ_INT(hb_rest_decode_cluster_version(D("[\"2.5.8\"]"), "c", &cv, &err), HB_ESERVER);
	CHECK_EQ_INT(hb_rest_decode_cluster_version(D("2.5.8"), "c", &cv, &err), 0);
	free(cv);
	CHECK_EQ_INT(hb_rest_decode_cluster_version(D("\"\""), "c", &cv, &err), HB_ESERVER);
	CHECK_EQ_INT(hb_rest_decode_cluster_version(D("\"2.5"), "c", &cv, &err), HB_ESERVER);
}

struct collect {
	int rows, cells;
	char last_key[64];
	struct hb_row copy;
};

static int collect_row(void *ctx, struct hb_row *frag, struct hb_error *err)
{
	struct collect *c = ctx;

	(void)err;
	c->rows++;
	c->cells += (int)frag->ncells;
	snprintf(c->last_key, sizeof(c->last_key), "%.*s", (int)frag->key_len, frag->key);
	return 0;
}

static void test_decode__cellset_binary_and_errors(void)
{
	/* key "\x00\xff", column "cf:a", value "v1"; row2 without cells */
	static const char body[] =
	    "{\"Row\":[{\"key\":\"AP8=\",\"Cell\":[{\"column\":\"Y2Y6YQ==\",\"timestamp\":5,"
	    "\"$\":\"djE=\"}]},{\"key\":\"cm93Mg==\"}]}";
	struct collect c = {0};
	struct hb_error err = {0};

	CHECK_EQ_INT(hb_rest_decode_cellset(D(body), "GET /t/scanner/1", collect_row, &c, &err), 0);
	CHECK_EQ_INT(c.rows, 2);
	CHECK_EQ_INT(c.cells, 1);
	CHECK_EQ_STR(c.last_key, "row2");
	memset(&c, 0, sizeof(c));
	CHECK_EQ_INT(
	    hb_rest_decode_cellset(D("{\"Row\":[{\"Cell\":[]}]}"), "g", collect_row, &c, &err),
	    HB_ESERVER);
	CHECK(strstr(err.msg, "Row[0].key is missing") != NULL);
	CHECK_EQ_INT(
	    hb_rest_decode_cellset(D("{\"Row\":[{\"key\":\"AA==\",\"Cell\":[{\"$\":\"AA==\"}]}]}"),
	                           "g", collect_row, &c, &err),
	    HB_ESERVER);
	CHECK(strstr(err.msg, "Cell[0].column is missing") != NULL);
	CHECK_EQ_INT(hb_rest_decode_cellset(D("{\"Row\":[{\"key\":\"AA==\",\"Cell\":[{\"column\":"
	                                      "\"Y2Y6YQ==\",\"$\":\"a b\"}]}]}"),
	                                    "g", collect_row, &c, &err),
	             HB_ESERVER);
	CHECK(strstr(err.msg, "$ is not valid base64") != NULL);
	CHECK_EQ_INT(hb_rest_decode_cellset(D("{\"Row\":[{\"key\":\"AA==\",\"Cell\":[{\"column\":"
	                                      "\"Y2Y6YQ==\",\"timestamp\":\"x\"}]}]}"),
	                                    "g", collect_row, &c, &err),
	             HB_ESERVER);
	CHECK_EQ_INT(hb_rest_decode_cellset(
	                 D("{\"Row\":[{\"key\":\"cm93MQ==\",\"Cell\":[{\"column\":garbage!!"), "g",
	                 collect_row, &c, &err),
	             HB_ESERVER);
	CHECK(strstr(err.msg, "invalid JSON") != NULL);
}

/* Rows as the scanner receives them: a readable trace "key[col=value@ts,...];" per fragment,
 * fragments with the key of the previous one merged into it as rest/scan.c does across bodies. */
struct trace {
	char text[1024];
	int frags;
	int fail_at; /* fn fails on this fragment (1-based); 0 never */
	struct hb_row merged;
	int have;
};

static void trace_put(struct trace *t, const char *s, size_t n)
{
	size_t len = strlen(t->text), i;

	for (i = 0; i < n && len + 1 < sizeof(t->text); i++) {
		unsigned char c = (unsigned char)s[i];

		t->text[len++] = c >= 0x20 && c < 0x7f ? (char)c : '?';
	}
	t->text[len] = '\0';
}

static int trace_row(void *ctx, struct hb_row *frag, struct hb_error *err)
{
	struct trace *t = ctx;
	char ts[32];
	size_t i;

	if (++t->frags == t->fail_at)
		return hb_error_set(err, HB_EINVAL, "stop at fragment %d", t->frags);
	trace_put(t, (const char *)frag->key, frag->key_len);
	trace_put(t, "[", 1);
	for (i = 0; i < frag->ncells; i++) {
		const struct hb_cell *c = &frag->cells[i];

		CHECK(c->column[c->column_len] == 0 && c->value[c->value_len] == 0);
		trace_put(t, i ? "," : "", i ? 1 : 0);
		trace_put(t, (const char *)c->column, c->column_len);
		trace_put(t, "=", 1);
		trace_put(t, (const char *)c->value, c->value_len);
		snprintf(ts, sizeof(ts), "@%lld", (long long)c->timestamp);
		trace_put(t, ts, strlen(ts));
	}
	trace_put(t, "];", 2);
	return 0;
}

/* base64: "r1" cm0x, "r2" cjI=, "cf:a" Y2Y6YQ==, "cf:b" Y2Y6Yg==, "v1" djE=, "v2" djI=. */
static void test_decode__cellset_valid_batches(void)
{
	static const struct {
		const char *body, *trace;
	} cases[] = {
	    {"{\"Row\":[{\"key\":\"cjE=\",\"Cell\":[{\"column\":\"Y2Y6YQ==\",\"timestamp\":5,"
	     "\"$\":\"djE=\"},{\"column\":\"Y2Y6Yg==\",\"timestamp\":1700000000001,"
	     "\"$\":\"djI=\"}]},{\"key\":\"cjI=\",\"Cell\":[]}]}",
	     "r1[cf:a=v1@5,cf:b=v2@1700000000001];r2[];"},
	    /* members in any order, unknown members of any type, null value and Cell */
	    {"{\"x\":{\"Row\":7},\"Row\":[{\"Cell\":[{\"$\":null,\"extra\":[1,{}],\"timestamp\":"
	     "\"42\",\"column\":\"Y2Y6YQ==\"}],\"key\":\"cjE=\"},{\"Cell\":null,\"key\":\"cjI=\"}],"
	     "\"y\":true}",
	     "r1[cf:a=@42];r2[];"},
	    /* no Row at all, a null Row, an empty list */
	    {"{}", ""},
	    {"{\"Row\":null}", ""},
	    {" \r\n{\"Row\":[]}\n", ""},
	    /* escapes, exponent and negative timestamps, the first of repeated members */
	    {"{\"Row\":[{\"k\\u0065y\":\"c\\u006a\\u0045=\",\"key\":\"cjI=\",\"Cell\":[{\"column\":"
	     "\"Y2Y6YQ\\u003d\\u003d\",\"column\":5,\"timestamp\":-2e1,\"$\":\"djE\\/\"}]}]}",
	     "r1[cf:a=v1?@-20];"},
	    /* what cJSON took: a UTF-8 BOM, anything after the object */
	    {"\xEF\xBB\xBF{\"Row\":[{\"key\":\"cjE=\"}]} trailing", "r1[];"},
	};
	size_t i;

	for (i = 0; i < HB_ARRAY_LEN(cases); i++) {
		struct trace t;
		struct hb_error err = {0};

		memset(&t, 0, sizeof(t));
		CHECK_EQ_INT(hb_rest_decode_cellset(D(cases[i].body), "g", trace_row, &t, &err), 0);
		if (strcmp(t.text, cases[i].trace))
			fprintf(stderr, "case %zu: %s (%s)\n", i, t.text, err.msg);
		CHECK_EQ_STR(t.text, cases[i].trace);
	}
}

static int merge_row(void *ctx, struct hb_row *frag, struct hb_error *err)
{
	struct trace *t = ctx;
	size_t i;

	(void)err;
	if (t->have && t->merged.key_len == frag->key_len &&
	    !memcmp(t->merged.key, frag->key, frag->key_len)) {
		for (i = 0; i < frag->ncells; i++)
			CHECK_EQ_INT(hb_row_add_cell(&t->merged, frag->cells[i].column,
			                             frag->cells[i].column_len,
			                             frag->cells[i].value, frag->cells[i].value_len,
			                             frag->cells[i].timestamp),
			             0);
		return 0;
	}
	if (t->have)
		trace_row(t, &t->merged, err);
	hb_row_release(&t->merged);
	t->merged = *frag; /* take ownership, as the scanner does */
	hb_row_init(frag);
	t->have = 1;
	return 0;
}

/* A row cut by the cell limit continues in the next body; each body hands on whole fragments
 * (owned by the callback) and the scanner's merge makes one row of them. */
static void test_decode__cellset_rows_split_across_batches_merge(void)
{
	static const char b1[] = "{\"Row\":[{\"key\":\"cjE=\",\"Cell\":[{\"column\":\"Y2Y6YQ==\","
	                         "\"$\":\"djE=\"}]},{\"key\":\"cjI=\",\"Cell\":[{\"column\":"
	                         "\"Y2Y6YQ==\",\"$\":\"djE=\"}]}]}";
	static const char b2[] = "{\"Row\":[{\"key\":\"cjI=\",\"Cell\":[{\"column\":\"Y2Y6Yg==\","
	                         "\"$\":\"djI=\"}]}]}";
	struct trace t;
	struct hb_error err = {0};

	memset(&t, 0, sizeof(t));
	hb_row_init(&t.merged);
	CHECK_EQ_INT(hb_rest_decode_cellset(D(b1), "g", merge_row, &t, &err), 0);
	CHECK_EQ_INT(hb_rest_decode_cellset(D(b2), "g", merge_row, &t, &err), 0);
	trace_row(&t, &t.merged, &err);
	hb_row_release(&t.merged);
	CHECK_EQ_STR(t.text, "r1[cf:a=v1@0];r2[cf:a=v1@0,cf:b=v2@0];");
}

static void test_decode__cellset_malformed_fields(void)
{
	static const struct {
		const char *body, *msg;
	} cases[] = {
	    {"", "empty body"},
	    {"[]", "not a JSON object"},
	    {"\"Row\"", "not a JSON object"},
	    {"{\"Row\":{}}", "Row is not an array"},
	    {"{\"Row\":\"cjE=\"}", "Row is not an array"},
	    {"{\"Row\":[7]}", "Row[0] is not an object"},
	    {"{\"Row\":[{\"key\":\"cjE=\"},[]]}", "Row[1] is not an object"},
	    {"{\"Row\":[{}]}", "Row[0].key is missing"},
	    {"{\"Row\":[{\"key\":null,\"Cell\":[]}]}", "Row[0].key is missing"},
	    {"{\"Row\":[{\"key\":5}]}", "Row[0].key is not a string"},
	    {"{\"Row\":[{\"key\":[\"cjE=\"]}]}", "Row[0].key is not a string"},
	    {"{\"Row\":[{\"key\":\"cjE\"}]}", "Row[0].key is not valid base64"},
	    {"{\"Row\":[{\"key\":\"c jE=\"}]}", "Row[0].key is not valid base64"},
	    {"{\"Row\":[{\"key\":\"cjF=\"}]}", "Row[0].key is not valid base64"},
	    /* the key is checked first even when the cells come before it */
	    {"{\"Row\":[{\"Cell\":7,\"key\":\"!!!!\"}]}", "Row[0].key is not valid base64"},
	    {"{\"Row\":[{\"Cell\":7}]}", "Row[0].key is missing"},
	    {"{\"Row\":[{\"key\":\"cjE=\",\"Cell\":{}}]}", "Row[0].Cell is not an array"},
	    {"{\"Row\":[{\"Cell\":\"x\",\"key\":\"cjE=\"}]}", "Row[0].Cell is not an array"},
	    {"{\"Row\":[{\"key\":\"cjE=\",\"Cell\":[null]}]}", "Row[0].Cell[0] is not an object"},
	    {"{\"Row\":[{\"key\":\"cjE=\",\"Cell\":[{\"column\":\"Y2Y6YQ==\"},1]}]}",
	     "Row[0].Cell[1] is not an object"},
	    {"{\"Row\":[{\"key\":\"cjE=\",\"Cell\":[{\"$\":\"djE=\"}]}]}",
	     "Row[0].Cell[0].column is missing"},
	    {"{\"Row\":[{\"key\":\"cjE=\",\"Cell\":[{\"column\":true}]}]}",
	     "Row[0].Cell[0].column is not a string"},
	    {"{\"Row\":[{\"key\":\"cjE=\",\"Cell\":[{\"column\":\"Y2Y6YQ=\"}]}]}",
	     "Row[0].Cell[0].column is not valid base64"},
	    {"{\"Row\":[{\"key\":\"cjE=\",\"Cell\":[{\"column\":\"Y2Y6YQ==\",\"$\":{}}]}]}",
	     "Row[0].Cell[0].$ is not a string"},
	    {"{\"Row\":[{\"key\":\"cjE=\",\"Cell\":[{\"column\":\"Y2Y6YQ==\",\"$\":\"d\"}]}]}",
	     "Row[0].Cell[0].$ is not valid base64"},
	    {"{\"Row\":[{\"key\":\"cjE=\",\"Cell\":[{\"column\":\"Y2Y6YQ==\","
	     "\"timestamp\":\"5x\"}]}]}",
	     "Row[0].Cell[0].timestamp is not a number"},
	    {"{\"Row\":[{\"key\":\"cjE=\",\"Cell\":[{\"column\":\"Y2Y6YQ==\",\"timestamp\":[]}]}]}",
	     "Row[0].Cell[0].timestamp is not a number"},
	    {"{\"Row\":[{\"key\":\"cjE=\",\"Cell\":[{\"column\":\"Y2Y6YQ==\",\"timestamp\":1e300}]}"
	     "]}",
	     "Row[0].Cell[0].timestamp is not a number"},
	    /* column before value before timestamp, whatever the member order */
	    {"{\"Row\":[{\"key\":\"cjE=\",\"Cell\":[{\"timestamp\":\"x\",\"$\":1,"
	     "\"column\":\"!\"}]}]}",
	     "Row[0].Cell[0].column is not valid base64"},
	    {"{\"Row\":[{\"key\":\"cjE=\",\"Cell\":[{\"timestamp\":\"x\",\"$\":1,\"column\":"
	     "\"Y2Y6YQ==\"}]}]}",
	     "Row[0].Cell[0].$ is not a string"},
	    {"{\"Row\":[{\"key\":\"cjE=\",\"Cell\":[{\"column\":\"Y2Y6YQ==\"}]},{\"key\":\"cjI=\","
	     "\"Cell\":[{\"column\":\"Y2Y6YQ==\"},{\"column\":\"%\"}]}]}",
	     "Row[1].Cell[1].column is not valid base64"},
	    /* text checks come first, syntax errors anywhere before content errors */
	    {"{\"Row\":[{\"key\":\"cjE=\xff\"}]}", "invalid UTF-8 at byte 20 of 25"},
	    {"{\"Row\":[{\"key\":\"cjE=\\u0000\"}]}", "string with a NUL character"},
	    {"{\"Row\":[{\"key\":5}],\"x\":[}", "invalid JSON near byte"},
	    {"{\"Row\":[{\"key\":\"cjE=\"}] \"x\":1}", "invalid JSON near byte"},
	    {"{\"Row\":[{\"key\":\"cjE=\",}]}", "invalid JSON near byte"},
	    {"{\"Row\":[{\"key\":\"cj\\q\"}]}", "invalid JSON near byte"},
	    {"{\"Row\":[{\"key\":\"\\udc00\"}]}", "invalid JSON near byte"},
	    {"{\"Row\":[{\"key\":tru}]}", "invalid JSON near byte"},
	    {"{\"Row\":[{\"key\":\"cjE=\",\"Cell\":[{\"timestamp\":-}]}]}",
	     "invalid JSON near byte"},
	};
	size_t i;

	for (i = 0; i < HB_ARRAY_LEN(cases); i++) {
		struct trace t;
		struct hb_error err = {0};
		int rc;

		memset(&t, 0, sizeof(t));
		rc = hb_rest_decode_cellset(D(cases[i].body), "GET /t/scanner/9", trace_row, &t,
		                            &err);
		CHECK_EQ_INT(rc, HB_ESERVER);
		CHECK(strstr(err.msg, "malformed response from GET /t/scanner/9: ") == err.msg);
		if (!strstr(err.msg, cases[i].msg))
			fprintf(stderr, "case %zu: got '%s', expected '%s'\n", i, err.msg,
			        cases[i].msg);
		CHECK(strstr(err.msg, cases[i].msg) != NULL);
	}
}

/* Whole rows before a content error are handed on first (as before); a syntax error anywhere
 * hands on nothing; a callback's error stops the body. */
static void test_decode__cellset_error_order_and_callback_errors(void)
{
	static const char content[] = "{\"Row\":[{\"key\":\"cjE=\"},{\"key\":\"cjI=\",\"Cell\":"
	                              "[{\"column\":\"Y2Y6YQ==\"},{\"column\":7}]}]}";
	static const char syntax[] = "{\"Row\":[{\"key\":\"cjE=\"},{\"key\":7}],\"x\":[1,]}";
	struct trace t;
	struct hb_error err = {0};

	memset(&t, 0, sizeof(t));
	CHECK_EQ_INT(hb_rest_decode_cellset(D(content), "g", trace_row, &t, &err), HB_ESERVER);
	CHECK_EQ_STR(err.msg, "malformed response from g: Row[1].Cell[1].column is not a string");
	CHECK_EQ_STR(t.text, "r1[];");
	memset(&t, 0, sizeof(t));
	CHECK_EQ_INT(hb_rest_decode_cellset(D(syntax), "g", trace_row, &t, &err), HB_ESERVER);
	CHECK(strstr(err.msg, "invalid JSON near byte") != NULL);
	CHECK_EQ_INT(t.frags, 0);
	memset(&t, 0, sizeof(t));
	t.fail_at = 1;
	CHECK_EQ_INT(hb_rest_decode_cellset(D(content), "g", trace_row, &t, &err), HB_EINVAL);
	CHECK_EQ_STR(err.msg, "stop at fragment 1");
}

/* Every proper prefix of a valid body is refused without a crash and hands on no row. */
static void test_decode__cellset_truncated_at_every_byte_is_malformed(void)
{
	static const char body[] =
	    "{\"Row\":[{\"key\":\"cjE=\",\"Cell\":[{\"column\":\"Y2Y6YQ==\",\"timestamp\":17,"
	    "\"$\":\"dlx1\"},{\"column\":\"Y2Y6Yg==\",\"$\":null,\"timestamp\":\"1\"}]},"
	    "{\"Cell\":[],\"key\":\"c\\u006aI=\",\"x\":[true,false,null,-1.5e3,{}]}]}";
	size_t n = strlen(body), cut;
	struct trace t;
	struct hb_error err = {0};

	memset(&t, 0, sizeof(t));
	CHECK_EQ_INT(hb_rest_decode_cellset(body, n, "g", trace_row, &t, &err), 0);
	CHECK_EQ_STR(t.text, "r1[cf:a=v\\u@17,cf:b=@1];r2[];");
	for (cut = 0; cut < n; cut++) {
		char *copy = malloc(cut ? cut : 1); /* exactly cut bytes: ASan sees overreads */

		memcpy(copy, body, cut);
		memset(&t, 0, sizeof(t));
		err.msg[0] = 0;
		CHECK_EQ_INT(hb_rest_decode_cellset(copy, cut, "g", trace_row, &t, &err),
		             HB_ESERVER);
		CHECK(strstr(err.msg, "malformed response from g: ") == err.msg);
		CHECK_EQ_INT(t.frags, 0);
		free(copy);
	}
}

/* Every decoder refuses a body that is not UTF-8 (RFC 8259 §8.1): such bytes would otherwise
 * reach names and make -o json output invalid. */
static void test_decode__non_utf8_body_is_malformed(void)
{
	static const char *const bodies[] = {
	    "{\"table\":[{\"name\":\"ok\"},{\"name\":\"bad\xff\xfe\"}]}",
	    "{\"table\":[{\"name\":\"\xc0\xaf\"}]}",         /* overlong '/' */
	    "{\"table\":[{\"name\":\"\xed\xa0\x80\"}]}",     /* a surrogate */
	    "{\"table\":[{\"name\":\"\xf4\x90\x80\x80\"}]}", /* above U+10FFFF */
	    "{\"table\":[{\"name\":\"cut\xe2\x82\"}]}",
	};
	struct hb_names n;
	struct hb_schema s;
	struct hb_regions rs;
	struct hb_cluster_status st;
	struct hb_rest_version v;
	struct hb_error err = {0};
	size_t i;

	for (i = 0; i < HB_ARRAY_LEN(bodies); i++) {
		hb_names_init(&n);
		CHECK_EQ_INT(hb_rest_decode_tables(D(bodies[i]), "GET /", &n, &err), HB_ESERVER);
		CHECK(strstr(err.msg, "malformed response from GET /: invalid UTF-8 at byte") ==
		      err.msg);
		hb_names_release(&n);
	}
	hb_schema_init(&s);
	CHECK_EQ_INT(hb_rest_decode_schema(D("{\"name\":\"t1\",\"ColumnSchema\":[{\"name\":\"c\xff"
	                                     "f\"}]}"),
	                                   "GET /t1/schema", &s, &err),
	             HB_ESERVER);
	CHECK(strstr(err.msg, "invalid UTF-8") != NULL);
	hb_schema_release(&s);
	CHECK_EQ_INT(
	    hb_rest_decode_status(D("{\"LiveNodes\":[{\"name\":\"h\xff:1\"}]}"), "s", &st, &err),
	    HB_ESERVER);
	CHECK(strstr(err.msg, "invalid UTF-8") != NULL);
	CHECK_EQ_INT(hb_rest_decode_version(D("{\"REST\":\"\x80\"}"), "v", &v, &err), HB_ESERVER);
	hb_regions_init(&rs);
	CHECK_EQ_INT(hb_rest_decode_regions(D("{\"Region\":[{\"startKey\":\"\",\"endKey\":\"\","
	                                      "\"location\":\"h\xfe:1\"}]}"),
	                                    "r", &rs, &err),
	             HB_ESERVER);
	CHECK(strstr(err.msg, "invalid UTF-8") != NULL);
	hb_regions_release(&rs);
	/* Valid multi-byte text passes untouched. */
	hb_names_init(&n);
	CHECK_EQ_INT(
	    hb_rest_decode_tables(D("{\"table\":[{\"name\":\"t\xc3\xa9\xf0\x9f\x98\x80\"}]}"),
	                          "GET /", &n, &err),
	    0);
	CHECK_EQ_INT(n.n, 1);
	CHECK_EQ_STR(n.v[0], "t\xc3\xa9\xf0\x9f\x98\x80");
	hb_names_release(&n);
}

/* cJSON ends its strings at \u0000, which would cut "a\u0000b" to "a" without a word. */
static void test_decode__escaped_nul_is_refused_where_it_would_truncate(void)
{
	struct hb_names n;
	struct hb_schema s;
	struct hb_regions rs;
	struct hb_error err = {0};

	hb_names_init(&n);
	CHECK_EQ_INT(
	    hb_rest_decode_tables(D("{\"table\":[{\"name\":\"a\\u0000b\"}]}"), "GET /", &n, &err),
	    HB_ESERVER);
	CHECK(strstr(err.msg, "malformed response from GET /: string with a NUL character") ==
	      err.msg);
	CHECK_EQ_INT(n.n, 0);
	/* An escaped backslash followed by the text u0000 is not a NUL. */
	CHECK_EQ_INT(
	    hb_rest_decode_tables(D("{\"table\":[{\"name\":\"a\\\\u0000\"}]}"), "GET /", &n, &err),
	    0);
	CHECK_EQ_INT(n.n, 1);
	CHECK_EQ_STR(n.v[0], "a\\u0000");
	hb_names_release(&n);
	hb_schema_init(&s);
	CHECK_EQ_INT(hb_rest_decode_schema(D("{\"name\":\"t\",\"ColumnSchema\":[{\"name\":\"c\","
	                                     "\"METADATA\":\"x\\u0000y\"}]}"),
	                                   "GET /t/schema", &s, &err),
	             HB_ESERVER);
	CHECK(strstr(err.msg, "NUL character") != NULL);
	hb_schema_release(&s);
	/* A region name may hold U+0000 (the server builds it from the start key); a location
	 * (host:port) cannot. */
	hb_regions_init(&rs);
	CHECK_EQ_INT(hb_rest_decode_regions(D("{\"Region\":[{\"startKey\":\"AA==\",\"endKey\":\"\","
	                                      "\"name\":\"t,\\u0000,1.\"}]}"),
	                                    "r", &rs, &err),
	             0);
	CHECK_EQ_INT(rs.n, 1);
	if (rs.n == 1)
		CHECK(reg(&rs, 0)->name_len == 6 && !memcmp(reg(&rs, 0)->name, "t,\0,1.", 6));
	hb_regions_release(&rs);
	hb_regions_init(&rs);
	CHECK_EQ_INT(hb_rest_decode_regions(D("{\"Region\":[{\"startKey\":\"\",\"endKey\":\"\","
	                                      "\"location\":\"h\\u0000:1\"}]}"),
	                                    "r", &rs, &err),
	             HB_ESERVER);
	CHECK(strstr(err.msg, "Region[0].location contains a NUL character") != NULL);
	hb_regions_release(&rs);
}

/* A regionId is a non-negative Java long: -1 must not become 18446744073709551615. */
static void test_decode__region_id_must_be_a_non_negative_long(void)
{
	static const struct {
		const char *id;
		const char *msg; /* NULL: accepted */
		unsigned long long want;
	} cases[] = {
	    {"0", NULL, 0},
	    {"1700000000000", NULL, 1700000000000ull},
	    {"9223372036854775807", NULL, 9223372036854775807ull},
	    {"\"42\"", NULL, 42},
	    {"-1", "Region[0].id is negative", 0},
	    {"-9223372036854775808", "Region[0].id is negative", 0},
	    {"9223372036854775808", "Region[0].id is not an integer below 2^63", 0},
	    {"18446744073709551615", "Region[0].id is not an integer below 2^63", 0},
	    {"1e30", "Region[0].id is not an integer below 2^63", 0},
	    {"1.5", "Region[0].id is not an integer below 2^63", 0},
	    {"1e3", "Region[0].id is not an integer below 2^63", 0},
	    {"\"-1\"", "Region[0].id is not a number", 0},
	    {"\" 1\"", "Region[0].id is not a number", 0},
	    {"\"+1\"", "Region[0].id is not a number", 0},
	    {"\"9223372036854775808\"", "Region[0].id is not a number", 0},
	    {"true", "Region[0].id is not a number", 0},
	};
	size_t i;

	for (i = 0; i < HB_ARRAY_LEN(cases); i++) {
		struct hb_buf body = HB_BUF_INIT;
		struct hb_regions rs;
		struct hb_error err = {0};
		int rc;

		hb_regions_init(&rs);
		CHECK_EQ_INT(
		    hb_buf_addf(&body,
		                "{\"Region\":[{\"startKey\":\"\",\"endKey\":\"\",\"id\":%s}]}",
		                cases[i].id),
		    0);
		rc = hb_rest_decode_regions(body.data, body.len, "r", &rs, &err);
		if (cases[i].msg) {
			CHECK_EQ_INT(rc, HB_ESERVER);
			if (!strstr(err.msg, cases[i].msg))
				fprintf(stderr, "id %s: %s\n", cases[i].id, err.msg);
			CHECK(strstr(err.msg, cases[i].msg) != NULL);
		} else {
			CHECK_EQ_INT(rc, 0);
			CHECK(rs.n == 1 && reg(&rs, 0)->id == cases[i].want);
		}
		hb_regions_release(&rs);
		hb_buf_release(&body);
	}
}

/* A /t1/regions reply naming another table is not t1's layout. */
static void test_decode__regions_of_another_table_are_refused(void)
{
	static const char region[] = "\"Region\":[{\"startKey\":\"\",\"endKey\":\"\",\"id\":1}]";
	struct hb_buf body = HB_BUF_INIT;
	struct hb_regions rs;
	struct hb_error err = {0};

	hb_regions_init(&rs);
	hb_buf_addf(&body, "{\"name\":\"zzz\",%s}", region);
	CHECK_EQ_INT(
	    hb_rest_decode_table_regions(body.data, body.len, "GET /t1/regions", "t1", &rs, &err),
	    HB_ESERVER);
	CHECK_EQ_STR(err.msg, "malformed response from GET /t1/regions: the regions are of table "
	                      "'zzz', not of 't1'");
	hb_regions_release(&rs);
	/* The name after the list is checked too. */
	hb_buf_reset(&body);
	hb_buf_addf(&body, "{%s,\"name\":\"t1x\"}", region);
	CHECK_EQ_INT(hb_rest_decode_table_regions(body.data, body.len, "g", "t1", &rs, &err),
	             HB_ESERVER);
	hb_regions_release(&rs);
	/* Server text in the message is escaped for the terminal. */
	hb_buf_reset(&body);
	hb_buf_addf(&body, "{\"name\":\"a\\u001b[2J\\u0000\",%s}", region);
	CHECK_EQ_INT(hb_rest_decode_table_regions(body.data, body.len, "g", "t1", &rs, &err),
	             HB_ESERVER);
	CHECK(strstr(err.msg, "'a\\x1B[2J\\x00'") != NULL);
	hb_regions_release(&rs);
	hb_buf_reset(&body);
	hb_buf_addf(&body, "{\"name\":5,%s}", region);
	CHECK_EQ_INT(hb_rest_decode_table_regions(body.data, body.len, "g", "t1", &rs, &err),
	             HB_ESERVER);
	CHECK(strstr(err.msg, "name is not a string") != NULL);
	hb_regions_release(&rs);
	/* Same table: with or without the default namespace, or no name at all. */
	hb_buf_reset(&body);
	hb_buf_addf(&body, "{\"name\":\"t1\",%s}", region);
	CHECK_EQ_INT(
	    hb_rest_decode_table_regions(body.data, body.len, "g", "default:t1", &rs, &err), 0);
	hb_buf_reset(&body);
	hb_buf_addf(&body, "{\"name\":\"ns:t1\",%s}", region);
	CHECK_EQ_INT(hb_rest_decode_table_regions(body.data, body.len, "g", "ns:t1", &rs, &err), 0);
	CHECK_EQ_INT(hb_rest_decode_table_regions(body.data, body.len, "g", "t1", &rs, &err),
	             HB_ESERVER);
	hb_buf_reset(&body);
	hb_buf_addf(&body, "{%s}", region);
	CHECK_EQ_INT(hb_rest_decode_table_regions(body.data, body.len, "g", "t1", &rs, &err), 0);
	CHECK_EQ_INT(rs.n, 3);
	hb_regions_release(&rs);
	hb_buf_release(&body);
}

/* The location survives start and end keys that follow it in the object. */
static void test_decode__region_location_before_keys_is_kept(void)
{
	struct hb_regions rs;
	struct hb_error err = {0};

	hb_regions_init(&rs);
	CHECK_EQ_INT(hb_rest_decode_regions(D("{\"Region\":[{\"location\":\"rs1:16020\","
	                                      "\"startKey\":\"bQ==\",\"endKey\":\"eg==\"}]}"),
	                                    "r", &rs, &err),
	             0);
	CHECK_EQ_INT(rs.n, 1);
	if (rs.n == 1)
		CHECK_EQ_STR(reg(&rs, 0)->server, "rs1:16020");
	hb_regions_release(&rs);
}

/* Counters beyond int64 read as 0 (lenient) instead of an undefined conversion. */
static void test_decode__status_counters_beyond_int64_read_as_zero(void)
{
	struct hb_cluster_status st;
	struct hb_error err = {0};

	CHECK_EQ_INT(hb_rest_decode_status(D("{\"regions\":9.2233720368547758e18,"
	                                     "\"requests\":\"99999999999999999999\","
	                                     "\"LiveNodes\":[{\"name\":\"h:1\","
	                                     "\"requests\":-9223372036854775808}]}"),
	                                   "s", &st, &err),
	             0);
	CHECK_EQ_INT(st.regions, 0);
	CHECK_EQ_INT(st.requests, 0);
	CHECK(st.nlive == 1 && st.live[0].requests == INT64_MIN);
	hb_cluster_status_release(&st);
}

/* Attribute names from the server are escaped in messages. */
static void test_decode__schema_messages_escape_server_names(void)
{
	struct hb_schema s;
	struct hb_error err = {0};

	hb_schema_init(&s);
	CHECK_EQ_INT(hb_rest_decode_schema(D("{\"name\":\"t\",\"X\\u001b]0;pwn\\u0007\":[]}"), "g",
	                                   &s, &err),
	             HB_ESERVER);
	CHECK_EQ_STR(err.msg, "malformed response from g: table attribute X\\x1B]0;pwn\\x07 is not "
	                      "a string");
	hb_schema_release(&s);
}

static void test_decode__lone_surrogate_escape_keeps_the_next_character(void)
{
	/* A high surrogate not followed by a low one reads as U+FFFD; the escape after it is a
	 * character of its own, not swallowed. */
	static const char body[] = "{\"Region\":[{\"startKey\":\"\",\"endKey\":\"\","
	                           "\"location\":\"h\\ud800\\u0041:1\"}]}";
	struct hb_regions rs;
	struct hb_error err = {0};

	hb_regions_init(&rs);
	CHECK_EQ_INT(hb_rest_decode_regions(D(body), "x", &rs, &err), 0);
	CHECK_EQ_INT(rs.n, 1);
	CHECK_EQ_STR(reg(&rs, 0)->server, "h\xEF\xBF\xBD"
	                                  "A:1");
	hb_regions_release(&rs);
}

static void test_decode__refused_regions_body_appends_nothing(void)
{
	static const char body[] = "{\"Region\":[{\"startKey\":\"\",\"endKey\":\"\"},"
	                           "{\"startKey\":5}]}";
	struct hb_regions rs;
	struct hb_error err = {0};

	hb_regions_init(&rs);
	CHECK_EQ_INT(hb_rest_decode_regions(D(body), "x", &rs, &err), HB_ESERVER);
	CHECK_EQ_INT(rs.n, 0);
	hb_regions_release(&rs);
}

static void test_decode__malformed_meta_regioninfo_is_a_server_error(void)
{
	static const char key[] = "t,,1700000000000.0123456789abcdef0123456789abcdef.";
	struct hb_row row;
	struct hb_regions rs;
	struct hb_error err = {0};

	hb_row_init(&row);
	hb_regions_init(&rs);
	row.key = (unsigned char *)strdup(key);
	row.key_len = strlen(key);
	CHECK_EQ_INT(hb_row_add_cell(&row, D("info:regioninfo"), "PBUF\x08", 5, 0), 0);
	CHECK_EQ_INT(hb_meta_row_decode(&row, "t", &rs, NULL, &err), HB_ESERVER);
	CHECK(strstr(err.msg, "malformed info:regioninfo") != NULL);
	CHECK_EQ_INT(rs.n, 0);
	hb_row_release(&row);
	hb_regions_release(&rs);
}

int main(void)
{
	RUN(test_decode__regions_healthy_body);
	RUN(test_decode__regions_missing_and_mistyped_fields);
	RUN(test_decode__regions_absent_list_is_empty_and_no_location_is_null);
	RUN(test_decode__regions_pull_parser_handles_escapes_nesting_and_garbage);
	RUN(test_decode__status_reads_counters_leniently);
	RUN(test_decode__status_rejects_bad_names);
	RUN(test_decode__schema_attributes_and_families);
	RUN(test_decode__schema_encode_round_trips);
	RUN(test_decode__tables_sorted_and_checked);
	RUN(test_decode__versions);
	RUN(test_decode__cellset_binary_and_errors);
	RUN(test_decode__cellset_valid_batches);
	RUN(test_decode__cellset_rows_split_across_batches_merge);
	RUN(test_decode__cellset_malformed_fields);
	RUN(test_decode__cellset_error_order_and_callback_errors);
	RUN(test_decode__cellset_truncated_at_every_byte_is_malformed);
	RUN(test_decode__non_utf8_body_is_malformed);
	RUN(test_decode__escaped_nul_is_refused_where_it_would_truncate);
	RUN(test_decode__region_id_must_be_a_non_negative_long);
	RUN(test_decode__regions_of_another_table_are_refused);
	RUN(test_decode__region_location_before_keys_is_kept);
	RUN(test_decode__status_counters_beyond_int64_read_as_zero);
	RUN(test_decode__schema_messages_escape_server_names);
	RUN(test_decode__lone_surrogate_escape_keeps_the_next_character);
	RUN(test_decode__refused_regions_body_appends_nothing);
	RUN(test_decode__malformed_meta_regioninfo_is_a_server_error);
	return TEST_DONE();
}
