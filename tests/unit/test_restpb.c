/* Tests for the REST gateway's TableInfo protobuf decoder (docs/hbase-wire.md §3.1). */
#include "core/restpb.h"
#include "test.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* GET /pbt/regions with Accept: application/x-protobuf from HBase 2.6.1's REST gateway (a mini
 * cluster), table pbt split at "g", "m\x00\xff", "t". */
static const unsigned char real_261[] = {
    0x0a, 0x03, 0x70, 0x62, 0x74, 0x12, 0x53, 0x0a, 0x34, 0x70, 0x62, 0x74, 0x2c, 0x2c, 0x31, 0x37,
    0x39, 0x35, 0x36, 0x37, 0x38, 0x35, 0x34, 0x34, 0x30, 0x32, 0x30, 0x2e, 0x65, 0x66, 0x34, 0x65,
    0x39, 0x34, 0x34, 0x35, 0x31, 0x63, 0x31, 0x63, 0x62, 0x35, 0x30, 0x66, 0x64, 0x35, 0x34, 0x30,
    0x61, 0x37, 0x39, 0x34, 0x35, 0x63, 0x35, 0x38, 0x37, 0x66, 0x38, 0x64, 0x2e, 0x12, 0x00, 0x1a,
    0x01, 0x67, 0x20, 0x94, 0xc1, 0xa0, 0xb6, 0xa1, 0x34, 0x2a, 0x0f, 0x6c, 0x6f, 0x63, 0x61, 0x6c,
    0x68, 0x6f, 0x73, 0x74, 0x3a, 0x33, 0x37, 0x36, 0x36, 0x31, 0x12, 0x57, 0x0a, 0x35, 0x70, 0x62,
    0x74, 0x2c, 0x67, 0x2c, 0x31, 0x37, 0x39, 0x35, 0x36, 0x37, 0x38, 0x35, 0x34, 0x34, 0x30, 0x32,
    0x30, 0x2e, 0x36, 0x30, 0x61, 0x38, 0x35, 0x36, 0x30, 0x64, 0x62, 0x38, 0x65, 0x30, 0x31, 0x36,
    0x66, 0x65, 0x37, 0x31, 0x61, 0x64, 0x35, 0x64, 0x35, 0x32, 0x61, 0x62, 0x32, 0x34, 0x35, 0x37,
    0x30, 0x38, 0x2e, 0x12, 0x01, 0x67, 0x1a, 0x03, 0x6d, 0x00, 0xff, 0x20, 0x94, 0xc1, 0xa0, 0xb6,
    0xa1, 0x34, 0x2a, 0x0f, 0x6c, 0x6f, 0x63, 0x61, 0x6c, 0x68, 0x6f, 0x73, 0x74, 0x3a, 0x34, 0x36,
    0x36, 0x38, 0x39, 0x12, 0x5b, 0x0a, 0x39, 0x70, 0x62, 0x74, 0x2c, 0x6d, 0x00, 0xef, 0xbf, 0xbd,
    0x2c, 0x31, 0x37, 0x39, 0x35, 0x36, 0x37, 0x38, 0x35, 0x34, 0x34, 0x30, 0x32, 0x30, 0x2e, 0x65,
    0x36, 0x35, 0x30, 0x36, 0x66, 0x62, 0x37, 0x35, 0x37, 0x36, 0x33, 0x37, 0x35, 0x33, 0x63, 0x63,
    0x36, 0x61, 0x35, 0x66, 0x38, 0x35, 0x34, 0x31, 0x66, 0x32, 0x64, 0x63, 0x38, 0x62, 0x34, 0x2e,
    0x12, 0x03, 0x6d, 0x00, 0xff, 0x1a, 0x01, 0x74, 0x20, 0x94, 0xc1, 0xa0, 0xb6, 0xa1, 0x34, 0x2a,
    0x0f, 0x6c, 0x6f, 0x63, 0x61, 0x6c, 0x68, 0x6f, 0x73, 0x74, 0x3a, 0x33, 0x37, 0x36, 0x36, 0x31,
    0x12, 0x54, 0x0a, 0x35, 0x70, 0x62, 0x74, 0x2c, 0x74, 0x2c, 0x31, 0x37, 0x39, 0x35, 0x36, 0x37,
    0x38, 0x35, 0x34, 0x34, 0x30, 0x32, 0x30, 0x2e, 0x33, 0x65, 0x33, 0x65, 0x64, 0x30, 0x37, 0x33,
    0x32, 0x31, 0x35, 0x33, 0x64, 0x62, 0x62, 0x32, 0x63, 0x36, 0x64, 0x37, 0x62, 0x36, 0x36, 0x39,
    0x38, 0x34, 0x36, 0x37, 0x39, 0x35, 0x61, 0x39, 0x2e, 0x12, 0x01, 0x74, 0x1a, 0x00, 0x20, 0x94,
    0xc1, 0xa0, 0xb6, 0xa1, 0x34, 0x2a, 0x0f, 0x6c, 0x6f, 0x63, 0x61, 0x6c, 0x68, 0x6f, 0x73, 0x74,
    0x3a, 0x34, 0x34, 0x32, 0x38, 0x37};

static int decode_all(const void *p, size_t n, const char *table, size_t *count,
                      struct hb_region *last, char *last_loc, struct hb_error *err)
{
	struct hb_tableinfo_reader rd;
	struct hb_region r;
	int rc;

	*count = 0;
	hb_tableinfo_reader_init(&rd, p, n, "GET /pbt/regions", table);
	while ((rc = hb_tableinfo_next(&rd, &r, err)) == 1) {
		(*count)++;
		if (last)
			*last = r;
		if (last_loc)
			snprintf(last_loc, 64, "%s", r.server ? r.server : "(none)");
	}
	hb_tableinfo_reader_release(&rd);
	return rc;
}

static void test_restpb__real_gateway_answer_decodes(void)
{
	struct hb_tableinfo_reader rd;
	struct hb_region r;
	struct hb_error err = {0};
	static const char *const starts[] = {"", "g", "m\x00\xff", "t"};
	static const size_t start_lens[] = {0, 1, 3, 1};
	size_t i;

	hb_tableinfo_reader_init(&rd, real_261, sizeof(real_261), "GET /pbt/regions", "pbt");
	for (i = 0; i < 4; i++) {
		CHECK_EQ_INT(hb_tableinfo_next(&rd, &r, &err), 1);
		CHECK_EQ_INT(r.start_len, start_lens[i]);
		CHECK(!r.start_len || !memcmp(r.start, starts[i], r.start_len));
		CHECK_EQ_INT(r.end_len, i == 3 ? 0 : start_lens[i + 1]);
		CHECK(r.id == UINT64_C(1795678544020));
		CHECK(r.server && !strncmp(r.server, "localhost:", 10));
		CHECK(r.name && r.name_len > 40 && !memcmp(r.name, "pbt,", 4));
	}
	CHECK_EQ_INT(hb_tableinfo_next(&rd, &r, &err), 0);
	CHECK_EQ_INT(rd.pos, sizeof(real_261));
	hb_tableinfo_reader_release(&rd);
}

static void test_restpb__default_namespace_matches_either_way(void)
{
	struct hb_error err = {0};
	size_t n;

	CHECK_EQ_INT(decode_all(real_261, sizeof(real_261), "default:pbt", &n, NULL, NULL, &err),
	             0);
	CHECK_EQ_INT(n, 4);
	CHECK_EQ_INT(decode_all(real_261, sizeof(real_261), NULL, &n, NULL, NULL, &err), 0);
	CHECK_EQ_INT(n, 4);
}

static void test_restpb__another_table_is_refused(void)
{
	struct hb_error err = {0};
	size_t n;

	CHECK_EQ_INT(decode_all(real_261, sizeof(real_261), "other", &n, NULL, NULL, &err),
	             HB_ESERVER);
	CHECK_EQ_STR(err.msg, "malformed response from GET /pbt/regions: the regions are of table "
	                      "'pbt', not of 'other'");
	CHECK_EQ_INT(n, 0);
}

static void test_restpb__empty_body_is_an_error(void)
{
	struct hb_error err = {0};
	size_t n;

	CHECK_EQ_INT(decode_all("", 0, "pbt", &n, NULL, NULL, &err), HB_ESERVER);
	CHECK_EQ_STR(err.msg, "malformed response from GET /pbt/regions: empty body");
}

/* Every cut of the body either fails with a message or (at a message boundary) ends cleanly
 * with fewer regions: protobuf has no end mark, HTTP framing tells a whole body. */
static void test_restpb__every_truncation_fails_or_stops_at_a_boundary(void)
{
	size_t cut, n;

	for (cut = 1; cut < sizeof(real_261); cut++) {
		struct hb_error err = {0};
		int rc = decode_all(real_261, cut, "pbt", &n, NULL, NULL, &err);

		if (rc) {
			CHECK_EQ_INT(rc, HB_ESERVER);
			CHECK(!strncmp(err.msg, "malformed response from GET /pbt/regions: ", 42));
		} else {
			CHECK(n < 4);
		}
	}
}

static void test_restpb__missing_keys_negative_id_and_nul_location(void)
{
	/* name "t"; one Region with only a name: startKey missing */
	static const unsigned char no_start[] = {0x0a, 0x01, 't', 0x12, 0x03, 0x0a, 0x01, 'x'};
	/* Region with start, end and id -1 (ten-byte varint) */
	static const unsigned char neg_id[] = {0x0a, 0x01, 't',  0x12, 0x0f, 0x12, 0x00,
	                                       0x1a, 0x00, 0x20, 0xff, 0xff, 0xff, 0xff,
	                                       0xff, 0xff, 0xff, 0xff, 0xff, 0x01};
	/* Region with start, end and location "a\0b" */
	static const unsigned char nul_loc[] = {0x0a, 0x01, 't',  0x12, 0x09, 0x12, 0x00,
	                                        0x1a, 0x00, 0x2a, 0x03, 'a',  0x00, 'b'};
	/* Region as a varint (wrong wire type) */
	static const unsigned char wrong_wt[] = {0x0a, 0x01, 't', 0x10, 0x01};
	/* an unknown top-level field (7, varint) and a Region with an unknown field 9 and no
	 * location: skipped, no server */
	static const unsigned char unknown[] = {0x38, 0x05, 0x0a, 0x01, 't', 0x12, 0x07,
	                                        0x12, 0x00, 0x1a, 0x01, 'z', 0x48, 0x01};
	struct hb_error err = {0};
	struct hb_region last;
	char loc[64];
	size_t n;

	CHECK_EQ_INT(decode_all(no_start, sizeof(no_start), "t", &n, NULL, NULL, &err), HB_ESERVER);
	CHECK_EQ_STR(err.msg, "malformed response from GET /pbt/regions: Region[0].startKey is "
	                      "missing");
	CHECK_EQ_INT(decode_all(neg_id, sizeof(neg_id), "t", &n, NULL, NULL, &err), HB_ESERVER);
	CHECK_EQ_STR(err.msg, "malformed response from GET /pbt/regions: Region[0].id is negative");
	CHECK_EQ_INT(decode_all(nul_loc, sizeof(nul_loc), "t", &n, NULL, NULL, &err), HB_ESERVER);
	CHECK_EQ_STR(err.msg, "malformed response from GET /pbt/regions: Region[0].location "
	                      "contains a NUL character");
	CHECK_EQ_INT(decode_all(wrong_wt, sizeof(wrong_wt), "t", &n, NULL, NULL, &err), HB_ESERVER);
	CHECK_EQ_STR(err.msg, "malformed response from GET /pbt/regions: Region is not "
	                      "length-delimited (byte 3)");
	CHECK_EQ_INT(decode_all(unknown, sizeof(unknown), "t", &n, &last, loc, &err), 0);
	CHECK_EQ_INT(n, 1);
	CHECK_EQ_STR(loc, "(none)");
	CHECK(last.id == 0);
}

static void test_restpb__random_mutations_never_crash(void)
{
	unsigned char buf[sizeof(real_261)];
	uint64_t x = 88172645463325252ULL;
	int round;

	for (round = 0; round < 20000; round++) {
		struct hb_error err = {0};
		size_t n, len = sizeof(buf);
		int k, rc;

		memcpy(buf, real_261, sizeof(buf));
		for (k = 0; k < 4; k++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			buf[x % sizeof(buf)] = (unsigned char)(x >> 32);
		}
		len = (size_t)(x >> 40) % (sizeof(buf) + 1);
		rc = decode_all(buf, len, "pbt", &n, NULL, NULL, &err);
		CHECK(rc == 0 || rc == HB_ESERVER);
	}
}

int main(void)
{
	RUN(test_restpb__real_gateway_answer_decodes);
	RUN(test_restpb__default_namespace_matches_either_way);
	RUN(test_restpb__another_table_is_refused);
	RUN(test_restpb__empty_body_is_an_error);
	RUN(test_restpb__every_truncation_fails_or_stops_at_a_boundary);
	RUN(test_restpb__missing_keys_negative_id_and_nul_location);
	RUN(test_restpb__random_mutations_never_crash);
	return TEST_DONE();
}
