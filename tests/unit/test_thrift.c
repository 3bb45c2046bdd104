/* TBinaryProtocol encoders and decoders against docs/hbase-wire.md §8.5's worked bytes. */
#include "core/family.h"
#include "core/tbinary.h"
#include "core/thrift.h"
#include "test.h"

/* Region i of a list through one of a few views (each valid for the next seven calls). */
static const struct hb_region *reg(const struct hb_regions *rs, size_t i)
{
	static struct hb_region_view v[8];
	static unsigned k;

	return hb_regions_at(rs, i, &v[k++ % 8]);
}

#define S(lit) (const unsigned char *)(lit), sizeof(lit) - 1

static int same(const struct hb_buf *b, const unsigned char *want, size_t n)
{
	size_t i;

	if (b->len == n && !memcmp(b->data, want, n))
		return 1;
	fprintf(stderr, "got %zu bytes:", b->len);
	for (i = 0; i < b->len; i++)
		fprintf(stderr, " %02x", (unsigned char)b->data[i]);
	fprintf(stderr, "\n");
	return 0;
}

/* One field header and its value, as a server's writer would put them. */
static void field_str(struct hb_buf *b, int16_t id, const char *s, size_t n)
{
	hb_thrift_write_field(b, HB_TT_STRING, id);
	hb_thrift_write_binary(b, s, n);
}

static void field_i32(struct hb_buf *b, int16_t id, int32_t v)
{
	hb_thrift_write_field(b, HB_TT_I32, id);
	hb_thrift_write_i32(b, v);
}

/* A getTableDescriptor reply for default:t1 up to its one family's name "cf"; the caller
 * writes the family's other fields and the three closing stops. */
static void table_desc_reply_begin(struct hb_buf *b)
{
	hb_thrift_write_msg_begin(b, "getTableDescriptor", HB_TMSG_REPLY, 3);
	hb_thrift_write_field(b, HB_TT_STRUCT, 0);
	hb_thrift_write_field(b, HB_TT_STRUCT, 1);
	field_str(b, 1, "default", 7);
	field_str(b, 2, "t1", 2);
	hb_thrift_write_stop(b);
	hb_thrift_write_field(b, HB_TT_LIST, 2);
	hb_thrift_write_list_begin(b, HB_TT_STRUCT, 1);
	field_str(b, 1, "cf", 2);
}

static void field_i64(struct hb_buf *b, int16_t id, int64_t v)
{
	hb_thrift_write_field(b, HB_TT_I64, id);
	hb_thrift_write_i64(b, v);
}

static void field_bool(struct hb_buf *b, int16_t id, int v)
{
	hb_thrift_write_field(b, HB_TT_BOOL, id);
	hb_thrift_write_bool(b, v);
}

static void test_thrift__table_exists_call_matches_worked_example(void)
{
	static const char want[] = "\x80\x01\x00\x01"
	                           "\x00\x00\x00\x0b"
	                           "tableExists"
	                           "\x00\x00\x00\x01"
	                           "\x0c\x00\x01"
	                           "\x0b\x00\x01\x00\x00\x00\x07"
	                           "default"
	                           "\x0b\x00\x02\x00\x00\x00\x02"
	                           "t1"
	                           "\x00"
	                           "\x00";
	struct hb_buf b = HB_BUF_INIT;
	struct hb_error err = {0};

	CHECK_EQ_INT(hb_thrift_encode_table_call(&b, "tableExists", 1, "t1", &err), 0);
	CHECK(same(&b, S(want)));
	hb_buf_reset(&b);
	/* "default:t1" is the same table */
	CHECK_EQ_INT(hb_thrift_encode_table_call(&b, "tableExists", 1, "default:t1", &err), 0);
	CHECK(same(&b, S(want)));
	hb_buf_release(&b);
}

static void test_thrift__reply_true_decodes(void)
{
	static const char reply[] = "\x80\x01\x00\x02"
	                            "\x00\x00\x00\x0b"
	                            "tableExists"
	                            "\x00\x00\x00\x01"
	                            "\x02\x00\x00\x01"
	                            "\x00";
	struct hb_thrift_reply r;
	struct hb_error err = {0};
	int v = -1;

	hb_thrift_reply_init(&r);
	CHECK_EQ_INT(hb_thrift_reply_parse(&r, reply, sizeof(reply) - 1, "tableExists", 1, &err),
	             0);
	CHECK_EQ_INT(r.outcome, HB_TR_SUCCESS);
	CHECK_EQ_INT(hb_thrift_reply_error(&r, "tableExists", &err), 0);
	CHECK_EQ_INT(hb_thrift_reply_bool(&r, &v, &err), 0);
	CHECK_EQ_INT(v, 1);
	/* wrong seqid and wrong method are refused */
	CHECK_EQ_INT(hb_thrift_reply_parse(&r, reply, sizeof(reply) - 1, "tableExists", 2, &err),
	             HB_ESERVER);
	CHECK(strstr(err.msg, "sequence id") != NULL);
	CHECK_EQ_INT(hb_thrift_reply_parse(&r, reply, sizeof(reply) - 1, "createTable", 1, &err),
	             HB_ESERVER);
	hb_thrift_reply_release(&r);
}

static void test_thrift__create_table_tioerror_reply_decodes(void)
{
	static const char reply[] = "\x80\x01\x00\x02"
	                            "\x00\x00\x00\x0b"
	                            "createTable"
	                            "\x00\x00\x00\x05"
	                            "\x0c\x00\x01"
	                            "\x0b\x00\x01\x00\x00\x00\x04"
	                            "boom"
	                            "\x02\x00\x02\x00"
	                            "\x00"
	                            "\x00";
	struct hb_thrift_reply r;
	struct hb_error err = {0};

	hb_thrift_reply_init(&r);
	CHECK_EQ_INT(hb_thrift_reply_parse(&r, reply, sizeof(reply) - 1, "createTable", 5, &err),
	             0);
	CHECK_EQ_INT(r.outcome, HB_TR_IOERROR);
	CHECK_EQ_STR(r.message, "boom");
	CHECK_EQ_INT(r.can_retry, 0);
	CHECK_EQ_INT(hb_thrift_reply_error(&r, "createTable", &err), HB_ESERVER);
	CHECK_EQ_STR(err.msg, "thrift2 createTable: server error (TIOError, not retryable): boom");
	hb_thrift_reply_release(&r);
}

static void test_thrift__application_exception_and_illegal_argument(void)
{
	static const char exc[] = "\x80\x01\x00\x03"
	                          "\x00\x00\x00\x0b"
	                          "createTable"
	                          "\x00\x00\x00\x01"
	                          "\x0b\x00\x01\x00\x00\x00\x1c"
	                          "Internal error processing ct"
	                          "\x08\x00\x02\x00\x00\x00\x06"
	                          "\x00";
	static const char ia[] = "\x80\x01\x00\x02"
	                         "\x00\x00\x00\x0b"
	                         "createTable"
	                         "\x00\x00\x00\x01"
	                         "\x0c\x00\x02"
	                         "\x0b\x00\x01\x00\x00\x00\x03"
	                         "bad"
	                         "\x00"
	                         "\x00";
	static const char voidok[] = "\x80\x01\x00\x02"
	                             "\x00\x00\x00\x0b"
	                             "createTable"
	                             "\x00\x00\x00\x01"
	                             "\x00";
	struct hb_thrift_reply r;
	struct hb_error err = {0};

	hb_thrift_reply_init(&r);
	CHECK_EQ_INT(hb_thrift_reply_parse(&r, exc, sizeof(exc) - 1, "createTable", 1, &err), 0);
	CHECK_EQ_INT(r.outcome, HB_TR_APP_EXCEPTION);
	CHECK_EQ_INT(r.app_type, 6);
	CHECK_EQ_INT(hb_thrift_reply_error(&r, "createTable", &err), HB_ESERVER);
	CHECK_EQ_STR(err.msg, "thrift2 createTable: INTERNAL_ERROR: Internal error processing ct");
	CHECK_EQ_INT(hb_thrift_reply_parse(&r, ia, sizeof(ia) - 1, "createTable", 1, &err), 0);
	CHECK_EQ_INT(r.outcome, HB_TR_ILLEGAL_ARG);
	CHECK_EQ_STR(r.message, "bad");
	CHECK_EQ_INT(hb_thrift_reply_parse(&r, voidok, sizeof(voidok) - 1, "createTable", 1, &err),
	             0);
	CHECK_EQ_INT(r.outcome, HB_TR_VOID);
	CHECK(r.message == NULL);
	CHECK_EQ_INT(hb_thrift_reply_error(&r, "createTable", &err), 0);
	hb_thrift_reply_release(&r);
}

static void test_thrift__unknown_fields_are_skipped(void)
{
	/* result with an unknown field 9 (a map of lists) before the success bool */
	static const char reply[] = "\x80\x01\x00\x02"
	                            "\x00\x00\x00\x0b"
	                            "tableExists"
	                            "\x00\x00\x00\x07"
	                            "\x0d\x00\x09\x0b\x0f\x00\x00\x00\x01"
	                            "\x00\x00\x00\x01k"
	                            "\x08\x00\x00\x00\x02\x00\x00\x00\x01\x00\x00\x00\x02"
	                            "\x04\x00\x0a\x01\x02\x03\x04\x05\x06\x07\x08"
	                            "\x02\x00\x00\x00"
	                            "\x00";
	struct hb_thrift_reply r;
	struct hb_error err = {0};
	int v = -1;

	hb_thrift_reply_init(&r);
	CHECK_EQ_INT(hb_thrift_reply_parse(&r, reply, sizeof(reply) - 1, "tableExists", 7, &err),
	             0);
	CHECK_EQ_INT(hb_thrift_reply_bool(&r, &v, &err), 0);
	CHECK_EQ_INT(v, 0);
	hb_thrift_reply_release(&r);
}

static void test_thrift__every_truncation_is_an_error_not_a_crash(void)
{
	static const char reply[] = "\x80\x01\x00\x02"
	                            "\x00\x00\x00\x0b"
	                            "createTable"
	                            "\x00\x00\x00\x05"
	                            "\x0c\x00\x01"
	                            "\x0b\x00\x01\x00\x00\x00\x04"
	                            "boom"
	                            "\x02\x00\x02\x00"
	                            "\x00"
	                            "\x00";
	struct hb_thrift_reply r;
	struct hb_error err = {0};
	size_t n;

	hb_thrift_reply_init(&r);
	for (n = 0; n < sizeof(reply) - 1; n++) {
		/* a private copy of exactly n bytes so ASan sees any over-read */
		unsigned char *cp = malloc(n ? n : 1);

		memcpy(cp, reply, n);
		err.code = 0;
		CHECK_EQ_INT(hb_thrift_reply_parse(&r, cp, n, "createTable", 5, &err), HB_ESERVER);
		CHECK(strstr(err.msg, "malformed thrift reply") != NULL);
		free(cp);
	}
	hb_thrift_reply_release(&r);
}

static void test_thrift__huge_lengths_and_bad_types_are_refused(void)
{
	static const char huge_name[] = "\x80\x01\x00\x02\x7f\xff\xff\xff"
	                                "abc";
	static const char neg_str[] = "\x80\x01\x00\x02"
	                              "\x00\x00\x00\x0b"
	                              "createTable"
	                              "\x00\x00\x00\x05"
	                              "\x0c\x00\x01"
	                              "\x0b\x00\x01\xff\xff\xff\xfe"
	                              "\x00\x00";
	static const char huge_list[] = "\x80\x01\x00\x02"
	                                "\x00\x00\x00\x15"
	                                "getAllRegionLocations"
	                                "\x00\x00\x00\x01"
	                                "\x0f\x00\x00\x0c\x7f\xff\xff\xff"
	                                "\x00\x00";
	static const char huge_map[] = "\x80\x01\x00\x02"
	                               "\x00\x00\x00\x0b"
	                               "tableExists"
	                               "\x00\x00\x00\x01"
	                               "\x0d\x00\x05\x0b\x0b\x10\x00\x00\x00"
	                               "\x00";
	static const char bad_type[] = "\x80\x01\x00\x02"
	                               "\x00\x00\x00\x0b"
	                               "tableExists"
	                               "\x00\x00\x00\x01"
	                               "\x07\x00\x05\x00"
	                               "\x00";
	static const char not_strict[] = "\x00\x00\x00\x0b"
	                                 "tableExists"
	                                 "\x02\x00\x00\x00\x01\x00";
	static const char call_type[] = "\x80\x01\x00\x01"
	                                "\x00\x00\x00\x0b"
	                                "tableExists"
	                                "\x00\x00\x00\x01"
	                                "\x00";
	struct hb_thrift_reply r;
	struct hb_error err = {0};
	struct hb_regions regs;
	int v;

	hb_thrift_reply_init(&r);
	CHECK_EQ_INT(hb_thrift_reply_parse(&r, huge_name, sizeof(huge_name) - 1, "x", 1, &err),
	             HB_ESERVER);
	CHECK_EQ_INT(
	    hb_thrift_reply_parse(&r, neg_str, sizeof(neg_str) - 1, "createTable", 5, &err),
	    HB_ESERVER);
	CHECK(strstr(err.msg, "negative length") != NULL);
	/* the list header parses lazily: reply_parse skips field 0, which must fail */
	CHECK_EQ_INT(hb_thrift_reply_parse(&r, huge_list, sizeof(huge_list) - 1,
	                                   "getAllRegionLocations", 1, &err),
	             HB_ESERVER);
	CHECK(strstr(err.msg, "does not fit") != NULL);
	CHECK_EQ_INT(
	    hb_thrift_reply_parse(&r, huge_map, sizeof(huge_map) - 1, "tableExists", 1, &err),
	    HB_ESERVER);
	CHECK_EQ_INT(
	    hb_thrift_reply_parse(&r, bad_type, sizeof(bad_type) - 1, "tableExists", 1, &err),
	    HB_ESERVER);
	CHECK(strstr(err.msg, "unknown type 7") != NULL);
	CHECK_EQ_INT(
	    hb_thrift_reply_parse(&r, not_strict, sizeof(not_strict) - 1, "tableExists", 1, &err),
	    HB_ESERVER);
	CHECK_EQ_INT(
	    hb_thrift_reply_parse(&r, call_type, sizeof(call_type) - 1, "tableExists", 1, &err),
	    HB_ESERVER);
	/* a reply without field 0 cannot be read as bool or regions */
	{
		static const char voidok[] = "\x80\x01\x00\x02"
		                             "\x00\x00\x00\x0b"
		                             "tableExists"
		                             "\x00\x00\x00\x01"
		                             "\x00";

		CHECK_EQ_INT(
		    hb_thrift_reply_parse(&r, voidok, sizeof(voidok) - 1, "tableExists", 1, &err),
		    0);
		CHECK_EQ_INT(hb_thrift_reply_bool(&r, &v, &err), HB_ESERVER);
		hb_regions_init(&regs);
		CHECK_EQ_INT(hb_thrift_reply_regions(&r, &regs, &err), HB_ESERVER);
		hb_regions_release(&regs);
	}
	hb_thrift_reply_release(&r);
}

static void test_thrift__deep_nesting_is_bounded(void)
{
	struct hb_buf b = HB_BUF_INIT;
	struct hb_thrift_reply r;
	struct hb_error err = {0};
	int i;

	hb_thrift_write_msg_begin(&b, "tableExists", HB_TMSG_REPLY, 1);
	for (i = 0; i < 5000; i++)
		hb_thrift_write_field(&b, HB_TT_STRUCT, 9);
	for (i = 0; i < 5001; i++)
		hb_thrift_write_stop(&b);
	hb_thrift_reply_init(&r);
	CHECK_EQ_INT(hb_thrift_reply_parse(&r, b.data, b.len, "tableExists", 1, &err), HB_ESERVER);
	CHECK(strstr(err.msg, "nested") != NULL);
	hb_thrift_reply_release(&r);
	hb_buf_release(&b);
}

static void test_thrift__create_table_round_trips_with_binary_keys(void)
{
	struct hb_schema s, back;
	struct hb_keys splits, ks;
	struct hb_family *f;
	struct hb_buf b = HB_BUF_INIT;
	struct hb_error err = {0};
	static const char k0[] = "\x00\x5c\x27\x20", k1[] = "\x20\x7f\x80\xff\x27\x5c\x00";
	size_t l;
	const unsigned char *k;

	hb_schema_init(&s);
	hb_schema_init(&back);
	hb_keys_init(&splits);
	hb_keys_init(&ks);
	hb_schema_set_table(&s, "ns:t1");
	hb_schema_add_family(&s, "info", &f);
	hb_attrs_set(&f->attrs, "VERSIONS", "3");
	hb_attrs_set(&f->attrs, "COMPRESSION", "snappy");
	hb_attrs_set(&f->attrs, "BLOOMFILTER", "ROWCOL");
	hb_attrs_set(&f->attrs, "IN_MEMORY", "TRUE");
	hb_attrs_set(&f->attrs, "TTL", "FOREVER");
	hb_attrs_set(&f->attrs, "MY_ATTR", "x y");
	hb_schema_add_family(&s, "d", &f);
	hb_attrs_set(&f->attrs, "DATA_BLOCK_ENCODING", "FAST_DIFF");
	hb_attrs_set(&f->attrs, "KEEP_DELETED_CELLS", "ttl");
	hb_attrs_set(&s.attrs, "SPLIT_POLICY",
	             "org.apache.hadoop.hbase.regionserver."
	             "KeyPrefixRegionSplitPolicy");
	hb_keys_push(&splits, k0, 4);
	hb_keys_push(&splits, k1, 7);
	CHECK_EQ_INT(hb_thrift_encode_create_table(&b, 3, &s, &splits, &err), 0);
	/* starts with the strict CALL header */
	CHECK(!memcmp(b.data,
	              "\x80\x01\x00\x01\x00\x00\x00\x0b"
	              "createTable\x00\x00\x00\x03\x0c\x00\x01\x0c\x00\x01",
	              26));
	CHECK_EQ_INT(hb_thrift_decode_create_table_call(&back, &ks, b.data, b.len, &err), 0);
	CHECK_EQ_STR(back.table, "ns:t1");
	CHECK_EQ_INT(back.nfamilies, 2);
	CHECK_EQ_STR(back.families[0].name, "info");
	CHECK_EQ_STR(hb_attrs_get(&back.families[0].attrs, "VERSIONS"), "3");
	CHECK_EQ_STR(hb_attrs_get(&back.families[0].attrs, "COMPRESSION"), "SNAPPY");
	CHECK_EQ_STR(hb_attrs_get(&back.families[0].attrs, "BLOOMFILTER"), "ROWCOL");
	CHECK_EQ_STR(hb_attrs_get(&back.families[0].attrs, "IN_MEMORY"), "true");
	CHECK_EQ_STR(hb_attrs_get(&back.families[0].attrs, "TTL"), "2147483647");
	CHECK_EQ_STR(hb_attrs_get(&back.families[0].attrs, "MY_ATTR"), "x y");
	CHECK_EQ_STR(hb_attrs_get(&back.families[1].attrs, "DATA_BLOCK_ENCODING"), "FAST_DIFF");
	CHECK_EQ_STR(hb_attrs_get(&back.families[1].attrs, "KEEP_DELETED_CELLS"), "TTL");
	CHECK_EQ_STR(hb_attrs_get(&back.attrs, "SPLIT_POLICY"),
	             "org.apache.hadoop.hbase.regionserver.KeyPrefixRegionSplitPolicy");
	CHECK_EQ_INT(ks.n, 2);
	k = hb_keys_at(&ks, 0, &l);
	CHECK(l == 4 && !memcmp(k, k0, 4));
	k = hb_keys_at(&ks, 1, &l);
	CHECK(l == 7 && !memcmp(k, k1, 7));
	/* every shorter prefix of the call fails cleanly */
	for (l = 0; l < b.len; l += 7) {
		struct hb_schema tmp;
		struct hb_keys tk;

		hb_schema_init(&tmp);
		hb_keys_init(&tk);
		CHECK(hb_thrift_decode_create_table_call(&tmp, &tk, b.data, l, &err) != 0);
		hb_schema_release(&tmp);
		hb_keys_release(&tk);
	}
	hb_buf_release(&b);
	hb_schema_release(&s);
	hb_schema_release(&back);
	hb_keys_release(&splits);
	hb_keys_release(&ks);
}

static int has_bytes(const struct hb_buf *b, const void *needle, size_t n)
{
	size_t i;

	for (i = 0; i + n <= b->len; i++)
		if (!memcmp(b->data + i, needle, n))
			return 1;
	return 0;
}

static void test_thrift__lzma_travels_in_the_attribute_map_not_the_enum(void)
{
	struct hb_schema s, back;
	struct hb_family *f;
	struct hb_keys splits, ks;
	struct hb_buf b = HB_BUF_INIT;
	struct hb_error err = {0};

	hb_schema_init(&s);
	hb_schema_init(&back);
	hb_keys_init(&splits);
	hb_keys_init(&ks);
	hb_schema_set_table(&s, "t1");
	hb_schema_add_family(&s, "cf", &f);
	hb_attrs_set(&f->attrs, "COMPRESSION", "brotli");
	CHECK_EQ_INT(hb_family_normalize(f, &err), 0);
	CHECK_EQ_STR(hb_attrs_get(&f->attrs, "COMPRESSION"), "BROTLI");
	CHECK_EQ_INT(hb_thrift_encode_create_table(&b, 1, &s, &splits, &err), 0);
	/* no compressionType field (id 6, i32): "08 00 06" never follows the family name */
	CHECK(!has_bytes(&b, "\x08\x00\x06", 3));
	CHECK(has_bytes(&b,
	                "COMPRESSION\x00\x00\x00\x06"
	                "BROTLI",
	                21));
	CHECK_EQ_INT(hb_thrift_decode_create_table_call(&back, &ks, b.data, b.len, &err), 0);
	CHECK_EQ_STR(hb_attrs_get(&back.families[0].attrs, "COMPRESSION"), "BROTLI");
	hb_buf_release(&b);
	hb_schema_release(&s);
	hb_schema_release(&back);
	hb_keys_release(&splits);
	hb_keys_release(&ks);
}

static void test_thrift__region_locations_decode(void)
{
	struct hb_buf b = HB_BUF_INIT;
	struct hb_thrift_reply r;
	struct hb_regions regs;
	struct hb_error err = {0};

	/* a reply written with the writer: two THRegionLocation */
	hb_thrift_write_msg_begin(&b, "getAllRegionLocations", HB_TMSG_REPLY, 4);
	hb_thrift_write_field(&b, HB_TT_LIST, 0);
	hb_thrift_write_list_begin(&b, HB_TT_STRUCT, 2);
	for (int i = 0; i < 2; i++) {
		hb_thrift_write_field(&b, HB_TT_STRUCT, 1);
		field_str(&b, 1, "rs1", 3);
		field_i32(&b, 2, 16020);
		field_i64(&b, 3, 1700000000000LL);
		hb_thrift_write_stop(&b);
		hb_thrift_write_field(&b, HB_TT_STRUCT, 2);
		field_i64(&b, 1, 0);
		field_str(&b, 2, "t1", 2);
		field_str(&b, 3, i ? "\xff" : "", i ? 1 : 0);
		field_str(&b, 4, i ? "" : "\xff", i ? 0 : 1);
		field_bool(&b, 5, 0);
		field_i32(&b, 7, i);
		hb_thrift_write_stop(&b);
		hb_thrift_write_stop(&b);
	}
	hb_thrift_write_stop(&b);
	hb_thrift_reply_init(&r);
	hb_regions_init(&regs);
	CHECK_EQ_INT(hb_thrift_reply_parse(&r, b.data, b.len, "getAllRegionLocations", 4, &err), 0);
	CHECK_EQ_INT(hb_thrift_reply_regions(&r, &regs, &err), 0);
	CHECK_EQ_INT(regs.n, 2);
	if (regs.n == 2) {
		CHECK_EQ_STR(reg(&regs, 0)->server, "rs1:16020");
		CHECK_EQ_INT(reg(&regs, 0)->start_code, 1700000000000LL);
		CHECK_EQ_INT(reg(&regs, 0)->start_len, 0);
		CHECK(reg(&regs, 0)->end_len == 1 && reg(&regs, 0)->end[0] == 0xff);
		CHECK_EQ_INT(reg(&regs, 1)->replica_id, 1);
	}
	hb_regions_release(&regs);
	hb_thrift_reply_release(&r);
	hb_buf_release(&b);
}

static void test_thrift__other_table_calls_share_the_ttablename_argument(void)
{
	static const char *const methods[] = {"deleteTable", "disableTable", "enableTable",
	                                      "getTableDescriptor"};
	static const char tail[] = "\x00\x00\x00\x09\x0c\x00\x01"
	                           "\x0b\x00\x01\x00\x00\x00\x02ns"
	                           "\x0b\x00\x02\x00\x00\x00\x01q"
	                           "\x00\x00";
	struct hb_buf b = HB_BUF_INIT, want = HB_BUF_INIT;
	struct hb_error err = {0};
	size_t i;

	for (i = 0; i < HB_ARRAY_LEN(methods); i++) {
		hb_buf_reset(&b);
		hb_buf_reset(&want);
		CHECK_EQ_INT(hb_thrift_encode_table_call(&b, methods[i], 9, "ns:q", &err), 0);
		hb_buf_add(&want, "\x80\x01\x00\x01", 4);
		hb_thrift_write_binary(&want, methods[i], strlen(methods[i]));
		hb_buf_add(&want, tail, sizeof(tail) - 1);
		CHECK(same(&b, (const unsigned char *)want.data, want.len));
	}
	hb_buf_reset(&b);
	CHECK_EQ_INT(hb_thrift_encode_region_locations(&b, 2, "ns:q", &err), 0);
	CHECK(same(&b, S("\x80\x01\x00\x01\x00\x00\x00\x15getAllRegionLocations\x00\x00\x00\x02"
	                 "\x0b\x00\x01\x00\x00\x00\x04ns:q\x00")));
	hb_buf_release(&b);
	hb_buf_release(&want);
}

static void test_thrift__truncate_table_call_carries_preserve_splits(void)
{
	/* truncateTable(1: TTableName, 2: bool preserveSplits): the bool is field 2 */
	static const char want[] = "\x80\x01\x00\x01"
	                           "\x00\x00\x00\x0d"
	                           "truncateTable"
	                           "\x00\x00\x00\x03"
	                           "\x0c\x00\x01"
	                           "\x0b\x00\x01\x00\x00\x00\x02ns"
	                           "\x0b\x00\x02\x00\x00\x00\x01q"
	                           "\x00"
	                           "\x02\x00\x02\x01"
	                           "\x00";
	struct hb_buf b = HB_BUF_INIT;
	struct hb_error err = {0};

	CHECK_EQ_INT(hb_thrift_encode_truncate_table(&b, 3, "ns:q", 1, &err), 0);
	CHECK(same(&b, S(want)));
	hb_buf_reset(&b);
	CHECK_EQ_INT(hb_thrift_encode_truncate_table(&b, 3, "ns:q", 0, &err), 0);
	CHECK_EQ_INT((int)b.len, (int)sizeof(want) - 1);
	CHECK_EQ_INT(b.data[b.len - 2], 0);
	hb_buf_release(&b);
}

static void test_thrift__attribute_map_compression_wins_over_the_lossy_enum(void)
{
	/* ThriftUtilities.columnFamilyDescriptorFromHBase: every value in the map, and
	 * compressionAlgorithmFromHBase turns LZMA into NONE in field 6 */
	struct hb_buf b = HB_BUF_INIT;
	struct hb_thrift_reply r;
	struct hb_schema s;
	struct hb_error err = {0};

	table_desc_reply_begin(&b);
	hb_thrift_write_field(&b, HB_TT_MAP, 2);
	hb_thrift_write_map_begin(&b, HB_TT_STRING, HB_TT_STRING, 1);
	hb_thrift_write_binary(&b, "COMPRESSION", 11);
	hb_thrift_write_binary(&b, "LZMA", 4);
	field_i32(&b, 6, 2); /* NONE */
	hb_thrift_write_stop(&b);
	hb_thrift_write_stop(&b);
	hb_thrift_write_stop(&b);
	hb_thrift_reply_init(&r);
	hb_schema_init(&s);
	CHECK_EQ_INT(hb_thrift_reply_parse(&r, b.data, b.len, "getTableDescriptor", 3, &err), 0);
	CHECK_EQ_INT(hb_thrift_reply_table_desc(&r, &s, &err), 0);
	CHECK_EQ_INT(s.nfamilies, 1);
	if (s.nfamilies == 1)
		CHECK_EQ_STR(hb_attrs_get(&s.families[0].attrs, "COMPRESSION"), "LZMA");
	hb_schema_release(&s);
	hb_thrift_reply_release(&r);
	hb_buf_release(&b);
}

static void test_thrift__table_descriptor_reply_decodes_with_every_cf_field(void)
{
	struct hb_buf b = HB_BUF_INIT;
	struct hb_thrift_reply r;
	struct hb_schema s;
	struct hb_error err = {0};

	table_desc_reply_begin(&b);
	hb_thrift_write_field(&b, HB_TT_MAP, 3); /* configuration: skipped */
	hb_thrift_write_map_begin(&b, HB_TT_STRING, HB_TT_STRING, 1);
	hb_thrift_write_binary(&b, "k", 1);
	hb_thrift_write_binary(&b, "v", 1);
	field_i32(&b, 4, 65536);
	field_i32(&b, 5, 1);
	field_i32(&b, 6, 2);
	hb_thrift_write_field(&b, HB_TT_I16, 7); /* dfsReplication: skipped */
	hb_thrift_write_i16(&b, 3);
	field_i32(&b, 8, 99); /* an enum value this client does not know */
	field_bool(&b, 15, 1);
	field_bool(&b, 20, 0);
	hb_thrift_write_stop(&b);
	field_i32(&b, 4, 0); /* durability */
	hb_thrift_write_stop(&b);
	hb_thrift_write_stop(&b);
	hb_thrift_reply_init(&r);
	hb_schema_init(&s);
	CHECK_EQ_INT(hb_thrift_reply_parse(&r, b.data, b.len, "getTableDescriptor", 3, &err), 0);
	CHECK_EQ_INT(hb_thrift_reply_table_desc(&r, &s, &err), 0);
	CHECK_EQ_STR(s.table, "t1");
	CHECK_EQ_INT(s.nfamilies, 1);
	if (s.nfamilies == 1) {
		CHECK_EQ_STR(hb_attrs_get(&s.families[0].attrs, "BLOCKSIZE"), "65536");
		CHECK_EQ_STR(hb_attrs_get(&s.families[0].attrs, "BLOOMFILTER"), "ROW");
		CHECK_EQ_STR(hb_attrs_get(&s.families[0].attrs, "COMPRESSION"), "NONE");
		CHECK_EQ_STR(hb_attrs_get(&s.families[0].attrs, "DATA_BLOCK_ENCODING"), "99");
		CHECK_EQ_STR(hb_attrs_get(&s.families[0].attrs, "IN_MEMORY"), "false");
		CHECK(hb_attrs_get(&s.families[0].attrs, "k") == NULL);
	}
	hb_schema_release(&s);
	hb_thrift_reply_release(&r);
	hb_buf_release(&b);
}

/* Random byte flips and truncations of valid messages: every outcome is a clean return. */
static void test_thrift__mutated_messages_never_crash(void)
{
	struct hb_buf call = HB_BUF_INIT;
	struct hb_schema s;
	struct hb_keys ks;
	struct hb_family *f;
	struct hb_error err = {0};
	unsigned seed = 12345;
	int i, bad = 0;

	hb_schema_init(&s);
	hb_keys_init(&ks);
	hb_schema_set_table(&s, "ns:t");
	hb_schema_add_family(&s, "cf", &f);
	hb_attrs_set(&f->attrs, "VERSIONS", "2");
	hb_attrs_set(&f->attrs, "X", "y");
	hb_keys_push(&ks, "a", 1);
	hb_keys_push(&ks, "b\xff", 2);
	hb_thrift_encode_create_table(&call, 1, &s, &ks, &err);
	for (i = 0; i < 20000; i++) {
		size_t n = call.len, j;
		unsigned char *m = malloc(n);
		struct hb_schema out;
		struct hb_keys ok;
		struct hb_thrift_reply r;
		struct hb_regions rs;
		int rc, v;

		memcpy(m, call.data, n);
		for (j = 0; j < (size_t)(1 + i % 4); j++) {
			seed = seed * 1103515245u + 12345u;
			m[(seed >> 8) % n] = (unsigned char)(seed >> 20);
		}
		if (i % 3 == 0) {
			seed = seed * 1103515245u + 12345u;
			n = (seed >> 8) % (n + 1);
		}
		hb_schema_init(&out);
		hb_keys_init(&ok);
		rc = hb_thrift_decode_create_table_call(&out, &ok, m, n, &err);
		bad += rc != 0 && rc != HB_ESERVER;
		/* the same bytes as a reply, with its type forced to REPLY */
		if (n > 4)
			m[3] = 2;
		hb_thrift_reply_init(&r);
		hb_regions_init(&rs);
		rc = hb_thrift_reply_parse(&r, m, n, "createTable", 1, &err);
		bad += rc != 0 && rc != HB_ESERVER;
		if (!rc) {
			hb_thrift_reply_bool(&r, &v, &err);
			hb_thrift_reply_regions(&r, &rs, &err);
		}
		hb_regions_release(&rs);
		hb_thrift_reply_release(&r);
		hb_schema_release(&out);
		hb_keys_release(&ok);
		free(m);
	}
	CHECK_EQ_INT(bad, 0);
	hb_buf_release(&call);
	hb_schema_release(&s);
	hb_keys_release(&ks);
}

static void test_thrift__create_call_without_descriptor_is_refused(void)
{
	/* createTable(2: splitKeys = ["a"]) with no field 1: desc is required. */
	static const unsigned char call[] = {
	    0x80, 0x01, 0x00, 0x01, 0x00, 0x00, 0x00, 0x0b, 'c',  'r',  'e',  'a',  't',
	    'e',  'T',  'a',  'b',  'l',  'e',  0x00, 0x00, 0x00, 0x01, 0x0f, 0x00, 0x02,
	    0x0b, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 'a',  0x00};
	struct hb_schema s;
	struct hb_keys ks;
	struct hb_error err = {0};

	hb_schema_init(&s);
	hb_keys_init(&ks);
	CHECK_EQ_INT(hb_thrift_decode_create_table_call(&s, &ks, call, sizeof(call), &err),
	             HB_ESERVER);
	CHECK(strstr(err.msg, "without a table descriptor") != NULL);
	hb_schema_release(&s);
	hb_keys_release(&ks);
}

int main(void)
{
	RUN(test_thrift__table_exists_call_matches_worked_example);
	RUN(test_thrift__reply_true_decodes);
	RUN(test_thrift__create_table_tioerror_reply_decodes);
	RUN(test_thrift__application_exception_and_illegal_argument);
	RUN(test_thrift__unknown_fields_are_skipped);
	RUN(test_thrift__every_truncation_is_an_error_not_a_crash);
	RUN(test_thrift__huge_lengths_and_bad_types_are_refused);
	RUN(test_thrift__deep_nesting_is_bounded);
	RUN(test_thrift__create_table_round_trips_with_binary_keys);
	RUN(test_thrift__lzma_travels_in_the_attribute_map_not_the_enum);
	RUN(test_thrift__region_locations_decode);
	RUN(test_thrift__other_table_calls_share_the_ttablename_argument);
	RUN(test_thrift__truncate_table_call_carries_preserve_splits);
	RUN(test_thrift__table_descriptor_reply_decodes_with_every_cf_field);
	RUN(test_thrift__attribute_map_compression_wins_over_the_lossy_enum);
	RUN(test_thrift__mutated_messages_never_crash);
	RUN(test_thrift__create_call_without_descriptor_is_refused);
	return TEST_DONE();
}
