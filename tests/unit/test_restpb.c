/* Tests for the REST gateway's protobuf decoders: TableInfo, a stateless scan's CellSet
 * chunks (docs/hbase-wire.md §3.1) and StorageClusterStatus (§1.1). */
#include "core/restpb_cells.h"
#include "core/restpb_regions.h"
#include "core/restpb_status.h"
#include "test.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
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

/* What a stream hands on: each region's start key and id, one after the other. */
static int note_region(void *ctx, const struct hb_region *r, struct hb_error *err)
{
	char *seen = ctx;
	size_t n = strlen(seen);

	(void)err;
	snprintf(seen + n, 512 - n, "[%.*s]%llu ", (int)r->start_len, (const char *)r->start,
	         (unsigned long long)r->id);
	return 0;
}

/* The body in pieces of `piece` bytes (the last one shorter), cut after `len` bytes. */
static int stream_pieces(size_t len, size_t piece, char *seen, struct hb_error *err)
{
	struct hb_tableinfo_stream ts;
	size_t at;
	int rc = 0;

	seen[0] = 0;
	hb_tableinfo_stream_init(&ts, "GET /pbt/regions", "pbt");
	for (at = 0; !rc && at < len; at += piece)
		rc = hb_tableinfo_stream_push(&ts, real_261 + at,
		                              at + piece > len ? len - at : piece, note_region,
		                              seen, err);
	if (!rc)
		rc = hb_tableinfo_stream_end(&ts, note_region, seen, err);
	hb_tableinfo_stream_release(&ts);
	return rc;
}

static void test_restpb__read_as_it_arrives_in_pieces_of_any_size(void)
{
	char whole[512], seen[512];
	struct hb_error err = {0};
	size_t piece;

	CHECK_EQ_INT(stream_pieces(sizeof(real_261), sizeof(real_261), whole, &err), 0);
	CHECK(strstr(whole, "[t]1795678544020 ") != NULL);
	for (piece = 1; piece <= sizeof(real_261); piece++) {
		CHECK_EQ_INT(stream_pieces(sizeof(real_261), piece, seen, &err), 0);
		CHECK(!strcmp(seen, whole));
	}
	/* the rest after the last whole field is not kept as it grows */
	{
		struct hb_tableinfo_stream ts;

		hb_tableinfo_stream_init(&ts, "GET /pbt/regions", "pbt");
		CHECK_EQ_INT(hb_tableinfo_stream_push(&ts, real_261, 100, note_region, seen, &err),
		             0);
		CHECK(ts.pend.len < 100 && ts.seen + ts.pend.len == 100);
		hb_tableinfo_stream_release(&ts);
	}
}

static void test_restpb__a_cut_stream_is_malformed_where_the_body_was_cut(void)
{
	char seen[512];
	size_t cut;

	for (cut = 0; cut < sizeof(real_261); cut++) {
		struct hb_error err = {0};
		int rc = stream_pieces(cut, 7, seen, &err);

		if (rc) {
			CHECK_EQ_INT(rc, HB_ESERVER);
			CHECK(!strncmp(err.msg, "malformed response from GET /pbt/regions: ", 42));
		} else {
			/* a cut between two fields reads as a shorter list, as a whole body would
			 */
			CHECK(hb_tableinfo_whole(real_261, cut) == cut);
		}
	}
	/* a field that can never be whole is said to be malformed, not waited for */
	{
		struct hb_tableinfo_stream ts;
		struct hb_error err = {0};
		static unsigned char big[HB_TABLEINFO_PENDING_MAX + 64];

		big[0] = 0x12; /* Region, length 0xffffffff: far past the body */
		memset(big + 1, 0xff, 4);
		big[5] = 0x0f;
		hb_tableinfo_stream_init(&ts, "GET /pbt/regions", "pbt");
		CHECK_EQ_INT(
		    hb_tableinfo_stream_push(&ts, big, sizeof(big), note_region, seen, &err),
		    HB_ESERVER);
		hb_tableinfo_stream_release(&ts);
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

/* GET /hbase:meta/\*?startrow=pbt,,&endrow=pbt%20,,&maxversions=1&column=info:regioninfo&
 * column=info:server&column=info:serverstartcode with Accept: application/x-protobuf from the
 * same gateway: one chunk (4 rows, fewer than the fetch size of 10) behind its length 03 37. */
static const unsigned char real_261_scan[] = {
    0x03, 0x37, 0x0a, 0xc8, 0x01, 0x0a, 0x34, 0x70, 0x62, 0x74, 0x2c, 0x2c, 0x31, 0x37, 0x39, 0x35,
    0x36, 0x37, 0x38, 0x35, 0x34, 0x34, 0x30, 0x32, 0x30, 0x2e, 0x65, 0x66, 0x34, 0x65, 0x39, 0x34,
    0x34, 0x35, 0x31, 0x63, 0x31, 0x63, 0x62, 0x35, 0x30, 0x66, 0x64, 0x35, 0x34, 0x30, 0x61, 0x37,
    0x39, 0x34, 0x35, 0x63, 0x35, 0x38, 0x37, 0x66, 0x38, 0x64, 0x2e, 0x12, 0x40, 0x12, 0x0f, 0x69,
    0x6e, 0x66, 0x6f, 0x3a, 0x72, 0x65, 0x67, 0x69, 0x6f, 0x6e, 0x69, 0x6e, 0x66, 0x6f, 0x18, 0xa2,
    0xdb, 0xa0, 0xb6, 0xa1, 0x34, 0x22, 0x26, 0x50, 0x42, 0x55, 0x46, 0x08, 0x94, 0xc1, 0xa0, 0xb6,
    0xa1, 0x34, 0x12, 0x0e, 0x0a, 0x07, 0x64, 0x65, 0x66, 0x61, 0x75, 0x6c, 0x74, 0x12, 0x03, 0x70,
    0x62, 0x74, 0x1a, 0x00, 0x22, 0x01, 0x67, 0x28, 0x00, 0x30, 0x00, 0x38, 0x00, 0x12, 0x25, 0x12,
    0x0b, 0x69, 0x6e, 0x66, 0x6f, 0x3a, 0x73, 0x65, 0x72, 0x76, 0x65, 0x72, 0x18, 0xa2, 0xdb, 0xa0,
    0xb6, 0xa1, 0x34, 0x22, 0x0f, 0x6c, 0x6f, 0x63, 0x61, 0x6c, 0x68, 0x6f, 0x73, 0x74, 0x3a, 0x33,
    0x37, 0x36, 0x36, 0x31, 0x12, 0x27, 0x12, 0x14, 0x69, 0x6e, 0x66, 0x6f, 0x3a, 0x73, 0x65, 0x72,
    0x76, 0x65, 0x72, 0x73, 0x74, 0x61, 0x72, 0x74, 0x63, 0x6f, 0x64, 0x65, 0x18, 0xa2, 0xdb, 0xa0,
    0xb6, 0xa1, 0x34, 0x22, 0x08, 0x00, 0x00, 0x01, 0xa2, 0x16, 0xc7, 0x55, 0x57, 0x0a, 0xcc, 0x01,
    0x0a, 0x35, 0x70, 0x62, 0x74, 0x2c, 0x67, 0x2c, 0x31, 0x37, 0x39, 0x35, 0x36, 0x37, 0x38, 0x35,
    0x34, 0x34, 0x30, 0x32, 0x30, 0x2e, 0x36, 0x30, 0x61, 0x38, 0x35, 0x36, 0x30, 0x64, 0x62, 0x38,
    0x65, 0x30, 0x31, 0x36, 0x66, 0x65, 0x37, 0x31, 0x61, 0x64, 0x35, 0x64, 0x35, 0x32, 0x61, 0x62,
    0x32, 0x34, 0x35, 0x37, 0x30, 0x38, 0x2e, 0x12, 0x43, 0x12, 0x0f, 0x69, 0x6e, 0x66, 0x6f, 0x3a,
    0x72, 0x65, 0x67, 0x69, 0x6f, 0x6e, 0x69, 0x6e, 0x66, 0x6f, 0x18, 0xf8, 0xd7, 0xa0, 0xb6, 0xa1,
    0x34, 0x22, 0x29, 0x50, 0x42, 0x55, 0x46, 0x08, 0x94, 0xc1, 0xa0, 0xb6, 0xa1, 0x34, 0x12, 0x0e,
    0x0a, 0x07, 0x64, 0x65, 0x66, 0x61, 0x75, 0x6c, 0x74, 0x12, 0x03, 0x70, 0x62, 0x74, 0x1a, 0x01,
    0x67, 0x22, 0x03, 0x6d, 0x00, 0xff, 0x28, 0x00, 0x30, 0x00, 0x38, 0x00, 0x12, 0x25, 0x12, 0x0b,
    0x69, 0x6e, 0x66, 0x6f, 0x3a, 0x73, 0x65, 0x72, 0x76, 0x65, 0x72, 0x18, 0xf8, 0xd7, 0xa0, 0xb6,
    0xa1, 0x34, 0x22, 0x0f, 0x6c, 0x6f, 0x63, 0x61, 0x6c, 0x68, 0x6f, 0x73, 0x74, 0x3a, 0x34, 0x36,
    0x36, 0x38, 0x39, 0x12, 0x27, 0x12, 0x14, 0x69, 0x6e, 0x66, 0x6f, 0x3a, 0x73, 0x65, 0x72, 0x76,
    0x65, 0x72, 0x73, 0x74, 0x61, 0x72, 0x74, 0x63, 0x6f, 0x64, 0x65, 0x18, 0xf8, 0xd7, 0xa0, 0xb6,
    0xa1, 0x34, 0x22, 0x08, 0x00, 0x00, 0x01, 0xa2, 0x16, 0xc7, 0x4f, 0x4a, 0x0a, 0xce, 0x01, 0x0a,
    0x37, 0x70, 0x62, 0x74, 0x2c, 0x6d, 0x00, 0xff, 0x2c, 0x31, 0x37, 0x39, 0x35, 0x36, 0x37, 0x38,
    0x35, 0x34, 0x34, 0x30, 0x32, 0x30, 0x2e, 0x65, 0x36, 0x35, 0x30, 0x36, 0x66, 0x62, 0x37, 0x35,
    0x37, 0x36, 0x33, 0x37, 0x35, 0x33, 0x63, 0x63, 0x36, 0x61, 0x35, 0x66, 0x38, 0x35, 0x34, 0x31,
    0x66, 0x32, 0x64, 0x63, 0x38, 0x62, 0x34, 0x2e, 0x12, 0x43, 0x12, 0x0f, 0x69, 0x6e, 0x66, 0x6f,
    0x3a, 0x72, 0x65, 0x67, 0x69, 0x6f, 0x6e, 0x69, 0x6e, 0x66, 0x6f, 0x18, 0xac, 0xdb, 0xa0, 0xb6,
    0xa1, 0x34, 0x22, 0x29, 0x50, 0x42, 0x55, 0x46, 0x08, 0x94, 0xc1, 0xa0, 0xb6, 0xa1, 0x34, 0x12,
    0x0e, 0x0a, 0x07, 0x64, 0x65, 0x66, 0x61, 0x75, 0x6c, 0x74, 0x12, 0x03, 0x70, 0x62, 0x74, 0x1a,
    0x03, 0x6d, 0x00, 0xff, 0x22, 0x01, 0x74, 0x28, 0x00, 0x30, 0x00, 0x38, 0x00, 0x12, 0x25, 0x12,
    0x0b, 0x69, 0x6e, 0x66, 0x6f, 0x3a, 0x73, 0x65, 0x72, 0x76, 0x65, 0x72, 0x18, 0xac, 0xdb, 0xa0,
    0xb6, 0xa1, 0x34, 0x22, 0x0f, 0x6c, 0x6f, 0x63, 0x61, 0x6c, 0x68, 0x6f, 0x73, 0x74, 0x3a, 0x33,
    0x37, 0x36, 0x36, 0x31, 0x12, 0x27, 0x12, 0x14, 0x69, 0x6e, 0x66, 0x6f, 0x3a, 0x73, 0x65, 0x72,
    0x76, 0x65, 0x72, 0x73, 0x74, 0x61, 0x72, 0x74, 0x63, 0x6f, 0x64, 0x65, 0x18, 0xac, 0xdb, 0xa0,
    0xb6, 0xa1, 0x34, 0x22, 0x08, 0x00, 0x00, 0x01, 0xa2, 0x16, 0xc7, 0x55, 0x57, 0x0a, 0xc9, 0x01,
    0x0a, 0x35, 0x70, 0x62, 0x74, 0x2c, 0x74, 0x2c, 0x31, 0x37, 0x39, 0x35, 0x36, 0x37, 0x38, 0x35,
    0x34, 0x34, 0x30, 0x32, 0x30, 0x2e, 0x33, 0x65, 0x33, 0x65, 0x64, 0x30, 0x37, 0x33, 0x32, 0x31,
    0x35, 0x33, 0x64, 0x62, 0x62, 0x32, 0x63, 0x36, 0x64, 0x37, 0x62, 0x36, 0x36, 0x39, 0x38, 0x34,
    0x36, 0x37, 0x39, 0x35, 0x61, 0x39, 0x2e, 0x12, 0x40, 0x12, 0x0f, 0x69, 0x6e, 0x66, 0x6f, 0x3a,
    0x72, 0x65, 0x67, 0x69, 0x6f, 0x6e, 0x69, 0x6e, 0x66, 0x6f, 0x18, 0xff, 0xda, 0xa0, 0xb6, 0xa1,
    0x34, 0x22, 0x26, 0x50, 0x42, 0x55, 0x46, 0x08, 0x94, 0xc1, 0xa0, 0xb6, 0xa1, 0x34, 0x12, 0x0e,
    0x0a, 0x07, 0x64, 0x65, 0x66, 0x61, 0x75, 0x6c, 0x74, 0x12, 0x03, 0x70, 0x62, 0x74, 0x1a, 0x01,
    0x74, 0x22, 0x00, 0x28, 0x00, 0x30, 0x00, 0x38, 0x00, 0x12, 0x25, 0x12, 0x0b, 0x69, 0x6e, 0x66,
    0x6f, 0x3a, 0x73, 0x65, 0x72, 0x76, 0x65, 0x72, 0x18, 0xff, 0xda, 0xa0, 0xb6, 0xa1, 0x34, 0x22,
    0x0f, 0x6c, 0x6f, 0x63, 0x61, 0x6c, 0x68, 0x6f, 0x73, 0x74, 0x3a, 0x34, 0x34, 0x32, 0x38, 0x37,
    0x12, 0x27, 0x12, 0x14, 0x69, 0x6e, 0x66, 0x6f, 0x3a, 0x73, 0x65, 0x72, 0x76, 0x65, 0x72, 0x73,
    0x74, 0x61, 0x72, 0x74, 0x63, 0x6f, 0x64, 0x65, 0x18, 0xff, 0xda, 0xa0, 0xb6, 0xa1, 0x34, 0x22,
    0x08, 0x00, 0x00, 0x01, 0xa2, 0x16, 0xc7, 0x53, 0x04};

static void test_scanpb__real_gateway_stateless_scan_decodes(void)
{
	struct hb_scanpb_reader rd;
	const unsigned char *key;
	size_t key_len, rows = 0, cells = 0;
	struct hb_pb_cell cell;
	struct hb_error err = {0};
	int rc;

	CHECK_EQ_INT(hb_scanpb_check(real_261_scan, sizeof(real_261_scan), "GET /scan", &err), 0);
	hb_scanpb_reader_init(&rd, real_261_scan, sizeof(real_261_scan), "GET /scan");
	while ((rc = hb_scanpb_next_row(&rd, &key, &key_len, &err)) == 1) {
		CHECK(key_len > 4 && !memcmp(key, "pbt,", 4));
		while ((rc = hb_scanpb_next_cell(&rd, &cell, &err)) == 1) {
			CHECK(cell.column_len > 5 && !memcmp(cell.column, "info:", 5));
			CHECK(cell.timestamp > 0);
			if (cell.column_len == 15 && !memcmp(cell.column, "info:regioninfo", 15))
				CHECK(cell.value_len > 4 && !memcmp(cell.value, "PBUF", 4));
			cells++;
		}
		CHECK_EQ_INT(rc, 0);
		rows++;
	}
	CHECK_EQ_INT(rc, 0);
	CHECK_EQ_INT(rows, 4);
	CHECK_EQ_INT(cells, 12);
}

/* A CellSet of n one-cell rows with pad-byte values, behind a length as HBase writes it. */
static void chunk(struct hb_buf *b, int first_row, int n, size_t pad)
{
	struct hb_buf m = HB_BUF_INIT, row = HB_BUF_INIT, cell = HB_BUF_INIT;
	int i;

	for (i = 0; i < n; i++) {
		char key[16];
		size_t k = (size_t)snprintf(key, sizeof(key), "r%05d", first_row + i);

		hb_buf_reset(&cell);
		CHECK(!hb_buf_add(&cell,
		                  "\x12\x04"
		                  "cf:q\x18\x01\x22",
		                  9));
		/* the value's length as a varint */
		if (pad < 128)
			CHECK(!hb_buf_addc(&cell, (int)pad));
		else
			CHECK(!hb_buf_addc(&cell, (int)(pad & 0x7F) | 0x80) &&
			      !hb_buf_addc(&cell, (int)(pad >> 7)));
		while (cell.len < 9 + (pad < 128 ? 1 : 2) + pad)
			CHECK(!hb_buf_addc(&cell, 'v'));
		hb_buf_reset(&row);
		CHECK(!hb_buf_addc(&row, 0x0a) && !hb_buf_addc(&row, (int)k) &&
		      !hb_buf_add(&row, key, k) && !hb_buf_addc(&row, 0x12));
		if (cell.len < 128)
			CHECK(!hb_buf_addc(&row, (int)cell.len));
		else
			CHECK(!hb_buf_addc(&row, (int)(cell.len & 0x7F) | 0x80) &&
			      !hb_buf_addc(&row, (int)(cell.len >> 7)));
		CHECK(!hb_buf_add(&row, cell.data, cell.len));
		CHECK(!hb_buf_addc(&m, 0x0a));
		if (row.len < 128)
			CHECK(!hb_buf_addc(&m, (int)row.len));
		else
			CHECK(!hb_buf_addc(&m, (int)(row.len & 0x7F) | 0x80) &&
			      !hb_buf_addc(&m, (int)(row.len >> 7)));
		CHECK(!hb_buf_add(&m, row.data, row.len));
	}
	/* Bytes.toBytes((short) length): the low 16 bits, big-endian */
	CHECK(!hb_buf_addc(b, (int)((m.len >> 8) & 0xFF)) && !hb_buf_addc(b, (int)(m.len & 0xFF)));
	CHECK(!hb_buf_add(b, m.data, m.len));
	hb_buf_release(&m);
	hb_buf_release(&row);
	hb_buf_release(&cell);
}

static size_t count_rows(const struct hb_buf *b, int *rc, struct hb_error *err)
{
	struct hb_scanpb_reader rd;
	const unsigned char *key;
	size_t key_len, n = 0;
	struct hb_pb_cell cell;

	hb_scanpb_reader_init(&rd, b->data, b->len, "GET /scan");
	while ((*rc = hb_scanpb_next_row(&rd, &key, &key_len, err)) == 1) {
		char want[16];

		snprintf(want, sizeof(want), "r%05zu", n);
		CHECK(key_len == strlen(want) && !memcmp(key, want, key_len));
		while ((*rc = hb_scanpb_next_cell(&rd, &cell, err)) == 1)
			CHECK(cell.column_len == 4 && !memcmp(cell.column, "cf:q", 4));
		if (*rc)
			break;
		n++;
	}
	return n;
}

static void test_scanpb__chunks_and_a_wrapped_length_are_framed(void)
{
	struct hb_buf b = HB_BUF_INIT;
	struct hb_error err = {0};
	size_t n;
	int rc;

	/* three chunks of 10, 10 and 3 rows */
	chunk(&b, 0, 10, 20);
	chunk(&b, 10, 10, 20);
	chunk(&b, 20, 3, 20);
	n = count_rows(&b, &rc, &err);
	CHECK_EQ_INT(rc, 0);
	CHECK_EQ_INT(n, 23);
	/* a chunk of about 100 KB: its length wrapped, still one way to frame it */
	hb_buf_reset(&b);
	chunk(&b, 0, 10, 10000);
	chunk(&b, 10, 2, 10000);
	n = count_rows(&b, &rc, &err);
	CHECK_EQ_INT(rc, 0);
	CHECK_EQ_INT(n, 12);
	CHECK_EQ_INT(hb_scanpb_check(b.data, b.len, "GET /scan", &err), 0);
	hb_buf_release(&b);
}

static void test_scanpb__bad_lengths_and_rows_are_malformed(void)
{
	struct hb_buf b = HB_BUF_INIT;
	struct hb_error err = {0};
	size_t cut;
	int rc;

	chunk(&b, 0, 3, 20);
	b.data[1]++; /* the length no longer ends on a Row */
	count_rows(&b, &rc, &err);
	CHECK_EQ_INT(rc, HB_ESERVER);
	CHECK(strstr(err.msg, "malformed response from GET /scan: chunk at byte 0 does not end"));
	b.data[1]--;
	for (cut = 1; cut < b.len; cut++) {
		struct hb_buf c = HB_BUF_INIT;

		CHECK(!hb_buf_add(&c, b.data, cut));
		count_rows(&c, &rc, &err);
		CHECK(rc == HB_ESERVER);
		hb_buf_release(&c);
	}
	hb_buf_release(&b);
}

/* A row GET's or scanner batch's body: one CellSet, no length in front. */
static size_t count_cellset_rows(const void *p, size_t n, int *rc, struct hb_error *err)
{
	struct hb_scanpb_reader rd;
	const unsigned char *key;
	size_t key_len, rows = 0;
	struct hb_pb_cell cell;

	if ((*rc = hb_cellsetpb_reader_init(&rd, p, n, "GET /t/scanner/1", err)))
		return 0;
	while ((*rc = hb_scanpb_next_row(&rd, &key, &key_len, err)) == 1) {
		char want[16];

		snprintf(want, sizeof(want), "r%05zu", rows);
		CHECK(key_len == strlen(want) && !memcmp(key, want, key_len));
		while ((*rc = hb_scanpb_next_cell(&rd, &cell, err)) == 1)
			CHECK(cell.column_len == 4 && !memcmp(cell.column, "cf:q", 4) &&
			      cell.timestamp == 1 && cell.value_len == 20);
		if (*rc)
			break;
		rows++;
	}
	return rows;
}

static void test_cellsetpb__one_message_without_a_length_decodes(void)
{
	struct hb_buf b = HB_BUF_INIT;
	struct hb_error err = {0};
	int rc;

	chunk(&b, 0, 7, 20);
	CHECK_EQ_INT(count_cellset_rows(b.data + 2, b.len - 2, &rc, &err), 7);
	CHECK_EQ_INT(rc, 0);
	/* a body of 64 KiB and more needs no framing: it is the whole message */
	{
		struct hb_buf big = HB_BUF_INIT;
		struct hb_scanpb_reader rd;
		const unsigned char *key;
		size_t key_len, rows = 0;

		chunk(&big, 0, 12, 10000);
		CHECK_EQ_INT(
		    hb_cellsetpb_reader_init(&rd, big.data + 2, big.len - 2, "GET /r", &err), 0);
		while (hb_scanpb_next_row(&rd, &key, &key_len, &err) == 1)
			rows++;
		CHECK_EQ_INT(rows, 12);
		hb_buf_release(&big);
	}
	hb_buf_release(&b);
}

static void test_cellsetpb__empty_cut_and_foreign_bodies_are_malformed(void)
{
	struct hb_buf b = HB_BUF_INIT;
	struct hb_error err = {0};
	size_t cut;
	int rc;

	count_cellset_rows("", 0, &rc, &err);
	CHECK_EQ_INT(rc, HB_ESERVER);
	CHECK(strstr(err.msg, "malformed response from GET /t/scanner/1: empty body"));
	chunk(&b, 0, 3, 20);
	/* with its stateless-scan length in front it is not a CellSet */
	count_cellset_rows(b.data, b.len, &rc, &err);
	CHECK_EQ_INT(rc, HB_ESERVER);
	CHECK(strstr(err.msg, "the field at byte 0 is not a Row"));
	/* JSON is not protobuf */
	count_cellset_rows("{\"Row\":[]}", 10, &rc, &err);
	CHECK_EQ_INT(rc, HB_ESERVER);
	/* every cut inside a Row is refused before a row is handed on; a cut between two
	 * Rows is a shorter, valid message (protobuf has no end mark) */
	for (cut = 1; cut < b.len - 2; cut++) {
		struct hb_scanpb_reader rd;
		size_t at = 0, ends = 0;

		while (at < cut) {
			at += 2 + (unsigned char)b.data[2 + at + 1];
			ends += at == cut;
		}
		rc = hb_cellsetpb_reader_init(&rd, b.data + 2, cut, "GET /r", &err);
		CHECK_EQ_INT(rc, ends ? 0 : HB_ESERVER);
		if (rc)
			CHECK(strstr(err.msg, "truncated Row at byte"));
	}
	hb_buf_release(&b);
}

/* ---- StorageClusterStatus ---- */

static void pb_varint(struct hb_buf *b, uint64_t v)
{
	do {
		unsigned char c = (unsigned char)(v & 0x7f);

		v >>= 7;
		hb_buf_addc(b, (char)(c | (v ? 0x80 : 0)));
	} while (v);
}

static void pb_int(struct hb_buf *b, unsigned field, int64_t v)
{
	pb_varint(b, field << 3);
	pb_varint(b, (uint64_t)v);
}

static void pb_bytes(struct hb_buf *b, unsigned field, const void *p, size_t n)
{
	pb_varint(b, field << 3 | 2);
	pb_varint(b, n);
	hb_buf_add(b, p, n);
}

/* A Region as StorageClusterStatusModel writes it: every field, in number order. */
static void status_region(struct hb_buf *node, const char *name, int64_t reads, int64_t writes)
{
	struct hb_buf r = HB_BUF_INIT;
	unsigned f;

	pb_bytes(&r, 1, name, strlen(name));
	for (f = 2; f <= 13; f++)
		pb_int(&r, f, f == 7 ? reads : f == 8 ? writes : f == 2 ? 1 : 0);
	pb_bytes(node, 6, r.data, r.len);
	hb_buf_release(&r);
}

static void status_node(struct hb_buf *b, const char *name, int64_t start_code, int regions)
{
	struct hb_buf n = HB_BUF_INIT;
	char rn[64];
	int i;

	pb_bytes(&n, 1, name, strlen(name));
	pb_int(&n, 2, start_code);
	pb_int(&n, 3, 7);
	pb_int(&n, 4, 128);
	pb_int(&n, 5, 1024);
	for (i = 0; i < regions; i++) {
		snprintf(rn, sizeof(rn), "t,%c,1.%032d.", 'a' + i, i);
		status_region(&n, rn, 10 * i, -1); /* a negative int64: ten bytes */
	}
	pb_bytes(b, 1, n.data, n.len);
	hb_buf_release(&n);
}

/* Two live nodes (2 and 0 regions), a dead one, then the summary. */
static void status_body(struct hb_buf *b)
{
	static const unsigned char avg[] = {0x29, 0, 0, 0, 0, 0, 0, 0xf0, 0x3f}; /* 1.0 */

	status_node(b, "rs1:16020", 1700000000001, 2);
	status_node(b, "rs2:16020", 1700000000002, 0);
	pb_bytes(b, 2, "rs3,16020,17", 12);
	pb_int(b, 3, 2);
	pb_int(b, 4, 14);
	hb_buf_add(b, avg, sizeof(avg));
}

/* Reads a whole body: nodes, regions, dead names (counted), the last region's counters. */
static int status_all(const void *p, size_t n, size_t *nodes, size_t *regions, size_t *dead,
                      struct hb_statuspb_region *last, struct hb_statuspb_reader *rd,
                      struct hb_error *err)
{
	struct hb_statuspb_node node;
	const unsigned char *d;
	size_t dl;
	int rc;

	*nodes = *regions = *dead = 0;
	hb_statuspb_reader_init(rd, p, n, "GET /status/cluster");
	while ((rc = hb_statuspb_next(rd, &node, &d, &dl, err)) > 0) {
		if (rc == HB_STATUSPB_DEAD) {
			(*dead)++;
			continue;
		}
		(*nodes)++;
		while ((rc = hb_statuspb_next_region(rd, last, err)) == 1)
			(*regions)++;
		if (rc)
			return rc;
	}
	return rc;
}

/* GET /status/cluster with Accept: application/x-protobuf from HBase 2.6.1's REST gateway (a
 * mini cluster of three region servers): hbase:meta, hbase:namespace and table pbt's four
 * regions, two on each server; no dead server. */
static const unsigned char real_261_status[] = {
    0x0a, 0xa1, 0x01, 0x0a, 0x0f, 0x6c, 0x6f, 0x63, 0x61, 0x6c, 0x68, 0x6f, 0x73, 0x74, 0x3a, 0x33,
    0x38, 0x37, 0x39, 0x39, 0x10, 0xb4, 0x91, 0xc4, 0xba, 0xa1, 0x34, 0x18, 0x1a, 0x20, 0xb4, 0x01,
    0x28, 0xd5, 0x0a, 0x32, 0x27, 0x0a, 0x0d, 0x68, 0x62, 0x61, 0x73, 0x65, 0x3a, 0x6d, 0x65, 0x74,
    0x61, 0x2c, 0x2c, 0x31, 0x10, 0x03, 0x18, 0x00, 0x20, 0x00, 0x28, 0x01, 0x30, 0x00, 0x38, 0x11,
    0x40, 0x13, 0x48, 0x00, 0x50, 0x00, 0x58, 0x00, 0x60, 0x00, 0x68, 0x00, 0x32, 0x56, 0x0a, 0x3c,
    0x70, 0x62, 0x74, 0x2c, 0x34, 0x30, 0x30, 0x30, 0x30, 0x30, 0x30, 0x30, 0x2c, 0x31, 0x37, 0x39,
    0x35, 0x36, 0x38, 0x37, 0x35, 0x33, 0x35, 0x30, 0x35, 0x38, 0x2e, 0x65, 0x34, 0x38, 0x32, 0x33,
    0x35, 0x35, 0x39, 0x35, 0x64, 0x32, 0x33, 0x39, 0x30, 0x64, 0x34, 0x35, 0x63, 0x31, 0x39, 0x36,
    0x30, 0x36, 0x66, 0x31, 0x39, 0x61, 0x62, 0x32, 0x30, 0x31, 0x32, 0x2e, 0x10, 0x01, 0x18, 0x00,
    0x20, 0x00, 0x28, 0x00, 0x30, 0x00, 0x38, 0x00, 0x40, 0x00, 0x48, 0x00, 0x50, 0x00, 0x58, 0x00,
    0x60, 0x00, 0x68, 0x00, 0x0a, 0xd4, 0x01, 0x0a, 0x0f, 0x6c, 0x6f, 0x63, 0x61, 0x6c, 0x68, 0x6f,
    0x73, 0x74, 0x3a, 0x34, 0x33, 0x39, 0x33, 0x39, 0x10, 0xb3, 0x92, 0xc4, 0xba, 0xa1, 0x34, 0x18,
    0x07, 0x20, 0xb4, 0x01, 0x28, 0xd5, 0x0a, 0x32, 0x5a, 0x0a, 0x40, 0x68, 0x62, 0x61, 0x73, 0x65,
    0x3a, 0x6e, 0x61, 0x6d, 0x65, 0x73, 0x70, 0x61, 0x63, 0x65, 0x2c, 0x2c, 0x31, 0x37, 0x39, 0x35,
    0x36, 0x38, 0x37, 0x35, 0x32, 0x33, 0x32, 0x33, 0x39, 0x2e, 0x63, 0x33, 0x63, 0x64, 0x30, 0x32,
    0x65, 0x35, 0x62, 0x61, 0x32, 0x62, 0x62, 0x30, 0x35, 0x32, 0x31, 0x37, 0x33, 0x30, 0x63, 0x64,
    0x39, 0x38, 0x36, 0x65, 0x34, 0x66, 0x65, 0x32, 0x35, 0x33, 0x2e, 0x10, 0x01, 0x18, 0x00, 0x20,
    0x00, 0x28, 0x01, 0x30, 0x00, 0x38, 0x06, 0x40, 0x02, 0x48, 0x00, 0x50, 0x00, 0x58, 0x00, 0x60,
    0x00, 0x68, 0x00, 0x32, 0x56, 0x0a, 0x3c, 0x70, 0x62, 0x74, 0x2c, 0x38, 0x30, 0x30, 0x30, 0x30,
    0x30, 0x30, 0x30, 0x2c, 0x31, 0x37, 0x39, 0x35, 0x36, 0x38, 0x37, 0x35, 0x33, 0x35, 0x30, 0x35,
    0x38, 0x2e, 0x39, 0x38, 0x31, 0x39, 0x38, 0x32, 0x36, 0x66, 0x39, 0x61, 0x30, 0x66, 0x37, 0x36,
    0x61, 0x62, 0x65, 0x36, 0x30, 0x62, 0x38, 0x38, 0x31, 0x64, 0x61, 0x38, 0x66, 0x30, 0x65, 0x63,
    0x39, 0x39, 0x2e, 0x10, 0x01, 0x18, 0x00, 0x20, 0x00, 0x28, 0x00, 0x30, 0x00, 0x38, 0x00, 0x40,
    0x00, 0x48, 0x00, 0x50, 0x00, 0x58, 0x00, 0x60, 0x00, 0x68, 0x00, 0x0a, 0xc8, 0x01, 0x0a, 0x0f,
    0x6c, 0x6f, 0x63, 0x61, 0x6c, 0x68, 0x6f, 0x73, 0x74, 0x3a, 0x34, 0x34, 0x36, 0x39, 0x33, 0x10,
    0xf1, 0x91, 0xc4, 0xba, 0xa1, 0x34, 0x18, 0x01, 0x20, 0xb8, 0x01, 0x28, 0xd5, 0x0a, 0x32, 0x4e,
    0x0a, 0x34, 0x70, 0x62, 0x74, 0x2c, 0x2c, 0x31, 0x37, 0x39, 0x35, 0x36, 0x38, 0x37, 0x35, 0x33,
    0x35, 0x30, 0x35, 0x38, 0x2e, 0x64, 0x35, 0x65, 0x35, 0x37, 0x31, 0x33, 0x33, 0x63, 0x34, 0x38,
    0x64, 0x31, 0x65, 0x32, 0x32, 0x63, 0x63, 0x61, 0x38, 0x32, 0x33, 0x62, 0x64, 0x36, 0x33, 0x65,
    0x39, 0x63, 0x30, 0x61, 0x61, 0x2e, 0x10, 0x01, 0x18, 0x00, 0x20, 0x00, 0x28, 0x00, 0x30, 0x00,
    0x38, 0x00, 0x40, 0x00, 0x48, 0x00, 0x50, 0x00, 0x58, 0x00, 0x60, 0x00, 0x68, 0x00, 0x32, 0x56,
    0x0a, 0x3c, 0x70, 0x62, 0x74, 0x2c, 0x63, 0x30, 0x30, 0x30, 0x30, 0x30, 0x30, 0x30, 0x2c, 0x31,
    0x37, 0x39, 0x35, 0x36, 0x38, 0x37, 0x35, 0x33, 0x35, 0x30, 0x35, 0x38, 0x2e, 0x66, 0x30, 0x31,
    0x64, 0x35, 0x39, 0x39, 0x33, 0x37, 0x63, 0x39, 0x62, 0x38, 0x33, 0x32, 0x30, 0x34, 0x35, 0x34,
    0x38, 0x66, 0x32, 0x30, 0x32, 0x64, 0x64, 0x39, 0x31, 0x37, 0x34, 0x63, 0x38, 0x2e, 0x10, 0x01,
    0x18, 0x00, 0x20, 0x00, 0x28, 0x00, 0x30, 0x00, 0x38, 0x01, 0x40, 0x00, 0x48, 0x00, 0x50, 0x00,
    0x58, 0x00, 0x60, 0x00, 0x68, 0x00, 0x18, 0x06, 0x20, 0x2d, 0x29, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x40};

static void test_statuspb__real_gateway_answer_decodes(void)
{
	struct hb_statuspb_reader rd;
	struct hb_statuspb_node node;
	struct hb_statuspb_region reg;
	struct hb_error err = {0};
	const unsigned char *d;
	size_t dl, regions = 0, nodes = 0;
	int rc, system = 0;

	hb_statuspb_reader_init(&rd, real_261_status, sizeof(real_261_status),
	                        "GET /status/cluster");
	while ((rc = hb_statuspb_next(&rd, &node, &d, &dl, &err)) == HB_STATUSPB_NODE) {
		CHECK(node.name_len > 10 && !memcmp(node.name, "localhost:", 10));
		CHECK(node.start_code > 1700000000000 && node.max_heap_mb > 0);
		nodes++;
		while ((rc = hb_statuspb_next_region(&rd, &reg, &err)) == 1) {
			if (reg.name_len >= 13 && !memcmp(reg.name, "hbase:", 6))
				system++;
			else if (reg.name_len > 4 && !memcmp(reg.name, "pbt,", 4))
				regions++;
			CHECK(reg.stores >= 1);
		}
		CHECK_EQ_INT(rc, 0);
	}
	CHECK_EQ_INT(rc, 0);
	CHECK_EQ_INT((int)nodes, 3);
	CHECK_EQ_INT((int)regions, 4);
	CHECK_EQ_INT(system, 2);
	CHECK_EQ_INT(rd.regions, 6);
	CHECK(rd.average_load == 2.0);
	CHECK(rd.pos == sizeof(real_261_status));
}

static void test_statuspb__nodes_regions_dead_and_summary_decode(void)
{
	struct hb_buf b = HB_BUF_INIT;
	struct hb_statuspb_reader rd;
	struct hb_statuspb_node node;
	struct hb_statuspb_region reg;
	struct hb_error err = {0};
	const unsigned char *d;
	size_t dl, nodes, regions, dead;

	status_body(&b);
	hb_statuspb_reader_init(&rd, b.data, b.len, "GET /status/cluster");
	CHECK_EQ_INT(hb_statuspb_next(&rd, &node, &d, &dl, &err), HB_STATUSPB_NODE);
	CHECK(node.name_len == 9 && !memcmp(node.name, "rs1:16020", 9));
	CHECK(node.start_code == 1700000000001 && node.requests == 7);
	CHECK(node.heap_mb == 128 && node.max_heap_mb == 1024);
	CHECK_EQ_INT(hb_statuspb_next_region(&rd, &reg, &err), 1);
	CHECK(reg.name_len == 39 && !memcmp(reg.name, "t,a,1.", 6));
	CHECK(reg.stores == 1 && reg.read_requests == 0 && reg.write_requests == -1);
	CHECK_EQ_INT(hb_statuspb_next_region(&rd, &reg, &err), 1);
	CHECK(reg.read_requests == 10);
	CHECK_EQ_INT(hb_statuspb_next_region(&rd, &reg, &err), 0);
	CHECK_EQ_INT(hb_statuspb_next(&rd, &node, &d, &dl, &err), HB_STATUSPB_NODE);
	CHECK(node.name_len == 9 && !memcmp(node.name, "rs2:16020", 9));
	CHECK_EQ_INT(hb_statuspb_next_region(&rd, &reg, &err), 0);
	CHECK_EQ_INT(hb_statuspb_next(&rd, &node, &d, &dl, &err), HB_STATUSPB_DEAD);
	CHECK(dl == 12 && !memcmp(d, "rs3,16020,17", 12));
	CHECK_EQ_INT(hb_statuspb_next(&rd, &node, &d, &dl, &err), 0);
	CHECK(rd.regions == 2 && rd.requests == 14 && rd.average_load == 1.0);
	/* regions not read are passed over by the next node */
	CHECK_EQ_INT(status_all(b.data, b.len, &nodes, &regions, &dead, &reg, &rd, &err), 0);
	CHECK(nodes == 2 && regions == 2 && dead == 1);
	hb_buf_release(&b);
}

static void test_statuspb__every_truncation_fails_or_stops_at_a_boundary(void)
{
	struct hb_buf b = HB_BUF_INIT;
	struct hb_statuspb_reader rd;
	struct hb_statuspb_region reg;
	size_t cut, nodes, regions, dead;

	status_body(&b);
	for (cut = 0; cut < b.len; cut++) {
		struct hb_error err = {0};
		int rc = status_all(b.data, cut, &nodes, &regions, &dead, &reg, &rd, &err);

		if (rc) {
			CHECK_EQ_INT(rc, HB_ESERVER);
			CHECK(
			    !strncmp(err.msg, "malformed response from GET /status/cluster: ", 45));
		} else {
			/* a cut between two fields is a shorter message: never the whole one */
			CHECK(nodes + dead < 3 || rd.average_load != 1.0);
		}
	}
	hb_buf_release(&b);
}

static void test_statuspb__missing_names_nul_and_wrong_types_are_malformed(void)
{
	/* a Node without its name */
	static const unsigned char no_name[] = {0x0a, 0x02, 0x10, 0x01};
	/* a Node named "a\0b" */
	static const unsigned char nul_name[] = {0x0a, 0x05, 0x0a, 0x03, 'a', 0x00, 'b'};
	/* a Region without its name */
	static const unsigned char no_rname[] = {0x0a, 0x07, 0x0a, 0x01, 'a',
	                                         0x32, 0x02, 0x10, 0x01};
	/* LiveNodes as a varint */
	static const unsigned char wrong_wt[] = {0x08, 0x01};
	/* averageLoad cut short */
	static const unsigned char short_avg[] = {0x29, 0, 0, 0};
	/* a Region with a counter field 14 (a later release's) and a length-delimited field 15:
	 * both passed over */
	static const unsigned char later[] = {0x0a, 0x0e, 0x0a, 0x01, 'a',  0x32, 0x09, 0x0a,
	                                      0x01, 'r',  0x70, 0x05, 0x7a, 0x01, 'x',  0x38};
	struct hb_statuspb_reader rd;
	struct hb_statuspb_region reg;
	struct hb_error err = {0};
	size_t nodes, regions, dead;

	CHECK_EQ_INT(status_all(no_name, sizeof(no_name), &nodes, &regions, &dead, &reg, &rd, &err),
	             HB_ESERVER);
	CHECK_EQ_STR(err.msg, "malformed response from GET /status/cluster: LiveNodes[0].name is "
	                      "missing");
	CHECK_EQ_INT(
	    status_all(nul_name, sizeof(nul_name), &nodes, &regions, &dead, &reg, &rd, &err),
	    HB_ESERVER);
	CHECK_EQ_STR(err.msg, "malformed response from GET /status/cluster: LiveNodes[0].name "
	                      "contains a NUL character");
	CHECK_EQ_INT(
	    status_all(no_rname, sizeof(no_rname), &nodes, &regions, &dead, &reg, &rd, &err),
	    HB_ESERVER);
	CHECK_EQ_STR(err.msg, "malformed response from GET /status/cluster: "
	                      "LiveNodes[0].Region[0].name is missing");
	CHECK_EQ_INT(
	    status_all(wrong_wt, sizeof(wrong_wt), &nodes, &regions, &dead, &reg, &rd, &err),
	    HB_ESERVER);
	CHECK_EQ_STR(err.msg, "malformed response from GET /status/cluster: LiveNodes is not "
	                      "length-delimited (byte 0)");
	CHECK_EQ_INT(
	    status_all(short_avg, sizeof(short_avg), &nodes, &regions, &dead, &reg, &rd, &err),
	    HB_ESERVER);
	/* the last byte is a field 7 tag without its value: a truncated Region */
	CHECK_EQ_INT(status_all(later, sizeof(later), &nodes, &regions, &dead, &reg, &rd, &err),
	             HB_ESERVER);
	CHECK_EQ_INT(status_all(later, sizeof(later) - 1, &nodes, &regions, &dead, &reg, &rd, &err),
	             HB_ESERVER);
}

static void test_statuspb__unknown_fields_are_passed_over(void)
{
	struct hb_buf b = HB_BUF_INIT, n = HB_BUF_INIT, r = HB_BUF_INIT;
	struct hb_statuspb_reader rd;
	struct hb_statuspb_region reg;
	struct hb_error err = {0};
	size_t nodes, regions, dead;

	pb_bytes(&r, 1, "r", 1);
	pb_int(&r, 14, 5);        /* a counter a later release may add */
	pb_bytes(&r, 15, "x", 1); /* and something length-delimited */
	pb_int(&r, 8, 3);
	pb_bytes(&n, 1, "a:1", 3);
	pb_int(&n, 9, 1);
	pb_bytes(&n, 6, r.data, r.len);
	pb_bytes(&b, 1, n.data, n.len);
	pb_int(&b, 9, 1);
	CHECK_EQ_INT(status_all(b.data, b.len, &nodes, &regions, &dead, &reg, &rd, &err), 0);
	CHECK(nodes == 1 && regions == 1 && dead == 0 && reg.write_requests == 3);
	hb_buf_release(&b);
	hb_buf_release(&n);
	hb_buf_release(&r);
}

/* ---- bodies read as they arrive: pieces of every size and cuts at every byte ---- */

/* What a scan hands on, as text: each row's key length and first byte, its cells' columns'
 * lengths and values' lengths; then the code and the message. */
struct trace {
	char s[16384];
};

static void trace_add(struct trace *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void trace_add(struct trace *t, const char *fmt, ...)
{
	size_t n = strlen(t->s);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(t->s + n, sizeof(t->s) - n, fmt, ap);
	va_end(ap);
}

static int trace_row(void *ctx, struct hb_scanpb_reader *rd, const unsigned char *key,
                     size_t key_len, struct hb_error *err)
{
	struct trace *t = ctx;
	struct hb_pb_cell cell;
	int rc;

	trace_add(t, "[%.*s]", (int)(key_len > 8 ? 8 : key_len), (const char *)key);
	while ((rc = hb_scanpb_next_cell(rd, &cell, err)) == 1)
		trace_add(t, "%zu:%zu,", cell.column_len, cell.value_len);
	return rc;
}

/* The n bytes at p read whole by hb_scanpb_next_row / hb_scanpb_next_cell. */
static void scan_whole(const void *p, size_t n, struct trace *t)
{
	struct hb_scanpb_reader rd;
	struct hb_error err = {0};
	const unsigned char *key;
	size_t key_len;
	int rc;

	t->s[0] = 0;
	hb_scanpb_reader_init(&rd, p, n, "GET /scan");
	while ((rc = hb_scanpb_next_row(&rd, &key, &key_len, &err)) == 1)
		if ((rc = trace_row(t, &rd, key, key_len, &err)))
			break;
	trace_add(t, " rc=%d %s", rc, rc ? err.msg : "");
}

/* The same bytes pushed in pieces of `piece` bytes, then the end. */
static void scan_pieces(const unsigned char *p, size_t n, size_t piece, struct trace *t)
{
	struct hb_scanpb_stream ss;
	struct hb_error err = {0};
	size_t at;
	int rc = 0;

	t->s[0] = 0;
	hb_scanpb_stream_init(&ss, "GET /scan");
	for (at = 0; !rc && at < n; at += piece)
		rc = hb_scanpb_stream_push(&ss, p + at, at + piece > n ? n - at : piece, trace_row,
		                           t, &err);
	if (!rc)
		rc = hb_scanpb_stream_end(&ss, trace_row, t, &err);
	trace_add(t, " rc=%d %s", rc, rc ? err.msg : "");
	hb_scanpb_stream_release(&ss);
}

/* Every piece size up to max_piece (and the whole), and every cut read in pieces of 7: the
 * stream hands on what the whole reader does, in order, and fails with the same message. */
static void scan_stream_matches_whole(const unsigned char *p, size_t n, size_t max_piece,
                                      size_t cut_step)
{
	static struct trace want, got;
	size_t piece, cut;

	scan_whole(p, n, &want);
	for (piece = 1; piece <= n && piece <= max_piece; piece++) {
		scan_pieces(p, n, piece, &got);
		CHECK_EQ_STR(got.s, want.s);
	}
	scan_pieces(p, n, n ? n : 1, &got);
	CHECK_EQ_STR(got.s, want.s);
	for (cut = 0; cut < n; cut += cut_step) {
		scan_whole(p, cut, &want);
		scan_pieces(p, cut, 7, &got);
		CHECK_EQ_STR(got.s, want.s);
	}
}

static void test_scanpb__read_as_it_arrives_hands_on_what_the_whole_body_gives(void)
{
	struct hb_buf b = HB_BUF_INIT;
	static struct trace t;

	scan_stream_matches_whole(real_261_scan, sizeof(real_261_scan), sizeof(real_261_scan), 1);
	scan_pieces(real_261_scan, sizeof(real_261_scan), 5, &t);
	CHECK(strstr(t.s, " rc=0 ") != NULL && strstr(t.s, "[pbt,t,17]") != NULL);
	/* three chunks, and an empty one between them */
	chunk(&b, 0, 10, 20);
	CHECK(!hb_buf_add(&b, "\x00\x00", 2));
	chunk(&b, 10, 10, 20);
	chunk(&b, 20, 3, 20);
	scan_stream_matches_whole((const unsigned char *)b.data, b.len, b.len, 1);
	/* malformed: a length that ends on no Row */
	b.data[1]++;
	scan_stream_matches_whole((const unsigned char *)b.data, b.len, 64, 1);
	hb_buf_release(&b);
	/* a chunk of about 100 KB: its length wrapped, one way to frame it */
	chunk(&b, 0, 10, 10000);
	chunk(&b, 10, 2, 10000);
	scan_stream_matches_whole((const unsigned char *)b.data, b.len, 300, 997);
	scan_pieces((const unsigned char *)b.data, b.len, 16384, &t);
	CHECK(strstr(t.s, " rc=0 ") != NULL);
	hb_buf_release(&b);
}

/* A chunk's rows are handed on once its framing is settled: only that chunk and the bytes the
 * walk read past it are kept. */
static void test_scanpb__a_stream_keeps_only_the_chunk_being_framed(void)
{
	struct hb_buf b = HB_BUF_INIT;
	struct hb_scanpb_stream ss;
	struct hb_error err = {0};
	static struct trace t;
	size_t first, at;

	chunk(&b, 0, 10, 20);
	first = b.len;
	for (at = 1; at < 30; at++)
		chunk(&b, (int)(at * 10), 10, 20);
	t.s[0] = 0;
	hb_scanpb_stream_init(&ss, "GET /scan");
	for (at = 0; at < b.len; at += 100) {
		CHECK_EQ_INT(hb_scanpb_stream_push(&ss, b.data + at,
		                                   at + 100 > b.len ? b.len - at : 100, trace_row,
		                                   &t, &err),
		             0);
		CHECK(ss.pend.len <= first + 100);
	}
	CHECK_EQ_INT(hb_scanpb_stream_end(&ss, trace_row, &t, &err), 0);
	CHECK_EQ_INT(ss.rows, 300);
	hb_scanpb_stream_release(&ss);
	hb_buf_release(&b);
}

/* What a status stream hands on, as text. */
static int trace_node(void *ctx, const struct hb_statuspb_node *n, struct hb_error *err)
{
	(void)err;
	trace_add(ctx, "N%zu<%.*s> ", n->index, (int)n->name_len, (const char *)n->name);
	return 0;
}

static int trace_sregion(void *ctx, const struct hb_statuspb_node *n,
                         const struct hb_statuspb_region *r, struct hb_error *err)
{
	(void)err;
	/* the node's fields as they stand when the region is handed on */
	trace_add(ctx, "R%zu<%.*s>%lld/%lld %lld/%lld/%lld/%lld ", n->index,
	          (int)(r->name_len > 12 ? 12 : r->name_len), (const char *)r->name,
	          (long long)r->read_requests, (long long)r->write_requests,
	          (long long)n->start_code, (long long)n->requests, (long long)n->heap_mb,
	          (long long)n->max_heap_mb);
	return 0;
}

static int trace_dead(void *ctx, const unsigned char *name, size_t len, struct hb_error *err)
{
	(void)err;
	trace_add(ctx, "D<%.*s> ", (int)len, (const char *)name);
	return 0;
}

/* The bytes pushed in pieces: the regions and dead names handed on, each node as it stands at
 * its end, the summary, the code. */
static int status_pieces(const unsigned char *p, size_t n, size_t piece, struct trace *t,
                         struct hb_error *err)
{
	struct hb_statuspb_fns fns = {trace_node, trace_sregion, trace_dead, t};
	struct hb_statuspb_stream ss;
	size_t at;
	int rc = 0;

	t->s[0] = 0;
	hb_statuspb_stream_init(&ss, "GET /status/cluster", &fns);
	for (at = 0; !rc && at < n; at += piece)
		rc = hb_statuspb_stream_push(&ss, p + at, at + piece > n ? n - at : piece, err);
	if (!rc)
		rc = hb_statuspb_stream_end(&ss, err);
	if (!rc)
		trace_add(t, "S%lld/%lld/%g", (long long)ss.regions, (long long)ss.requests,
		          ss.average_load);
	hb_statuspb_stream_release(&ss);
	return rc;
}

/* The same bytes read whole with the reader, traced the same way. */
static int status_whole(const unsigned char *p, size_t n, struct trace *t, struct hb_error *err)
{
	struct hb_statuspb_reader rd;
	struct hb_statuspb_node node;
	struct hb_statuspb_region reg;
	const unsigned char *d;
	size_t dl;
	int rc;

	t->s[0] = 0;
	hb_statuspb_reader_init(&rd, p, n, "GET /status/cluster");
	while ((rc = hb_statuspb_next(&rd, &node, &d, &dl, err)) > 0) {
		if (rc == HB_STATUSPB_DEAD) {
			trace_dead(t, d, dl, err);
			continue;
		}
		trace_node(t, &node, err);
		while ((rc = hb_statuspb_next_region(&rd, &reg, err)) == 1)
			trace_sregion(t, &node, &reg, err);
		if (rc)
			return rc;
		trace_node(t, &node, err);
	}
	if (!rc)
		trace_add(t, "S%lld/%lld/%g", (long long)rd.regions, (long long)rd.requests,
		          rd.average_load);
	return rc;
}

/* Pieces of every size give what the whole body gives; every cut fails where the whole
 * reader fails and otherwise reads what it reads. */
static void status_stream_matches_whole(const unsigned char *p, size_t n)
{
	static struct trace want, got;
	size_t piece, cut;
	struct hb_error err = {0};

	CHECK_EQ_INT(status_whole(p, n, &want, &err), 0);
	for (piece = 1; piece <= n; piece++) {
		CHECK_EQ_INT(status_pieces(p, n, piece, &got, &err), 0);
		CHECK_EQ_STR(got.s, want.s);
	}
	for (cut = 0; cut < n; cut++) {
		struct hb_error e1 = {0}, e2 = {0};
		int w = status_whole(p, cut, &want, &e1), g = status_pieces(p, cut, 7, &got, &e2);

		CHECK_EQ_INT(g, w);
		if (!w)
			CHECK_EQ_STR(got.s, want.s);
		else
			CHECK(
			    !strncmp(e2.msg, "malformed response from GET /status/cluster: ", 45));
	}
}

static void test_statuspb__read_as_it_arrives_hands_on_what_the_whole_body_gives(void)
{
	struct hb_buf b = HB_BUF_INIT;
	static struct trace t;
	struct hb_error err = {0};

	status_stream_matches_whole(real_261_status, sizeof(real_261_status));
	CHECK_EQ_INT(status_pieces(real_261_status, sizeof(real_261_status), 3, &t, &err), 0);
	CHECK(strstr(t.s, "S6/") != NULL && strstr(t.s, "R2<pbt,") != NULL);
	status_body(&b);
	status_stream_matches_whole((const unsigned char *)b.data, b.len);
	hb_buf_release(&b);
}

/* Regions before their node's name are held until it comes, then handed on in order with it;
 * a node's regions are not waited for: each is handed on when its bytes are there. */
static void test_statuspb__regions_before_the_name_are_held_until_it_comes(void)
{
	struct hb_buf b = HB_BUF_INIT, n = HB_BUF_INIT;
	static struct trace t;
	struct hb_error err = {0};
	size_t half;

	status_region(&n, "t,a,1.r1", 1, 2);
	status_region(&n, "t,b,1.r2", 3, 4);
	pb_int(&n, 2, 99);
	pb_bytes(&n, 1, "late:1", 6);
	status_region(&n, "t,c,1.r3", 5, 6);
	pb_bytes(&b, 1, n.data, n.len);
	status_stream_matches_whole((const unsigned char *)b.data, b.len);
	CHECK_EQ_INT(status_pieces((const unsigned char *)b.data, b.len, 1, &t, &err), 0);
	CHECK_EQ_STR(t.s, "N0<late:1> R0<t,a,1.r1>1/2 99/0/0/0 R0<t,b,1.r2>3/4 99/0/0/0 "
	                  "R0<t,c,1.r3>5/6 99/0/0/0 N0<late:1> S0/0/0");
	/* a node of many regions: the first ones come before the node is whole */
	hb_buf_reset(&b);
	status_node(&b, "rs1:16020", 1, 50);
	half = b.len / 2;
	{
		struct hb_statuspb_fns fns = {trace_node, trace_sregion, trace_dead, &t};
		struct hb_statuspb_stream ss;

		t.s[0] = 0;
		hb_statuspb_stream_init(&ss, "GET /status/cluster", &fns);
		CHECK_EQ_INT(hb_statuspb_stream_push(&ss, b.data, half, &err), 0);
		CHECK(strstr(t.s, "R0<t,") != NULL);
		CHECK(ss.pend.len < 200);
		CHECK_EQ_INT(hb_statuspb_stream_push(&ss, b.data + half, b.len - half, &err), 0);
		CHECK_EQ_INT(hb_statuspb_stream_end(&ss, &err), 0);
		hb_statuspb_stream_release(&ss);
	}
	hb_buf_release(&b);
	hb_buf_release(&n);
}

int main(void)
{
	RUN(test_restpb__real_gateway_answer_decodes);
	RUN(test_restpb__default_namespace_matches_either_way);
	RUN(test_restpb__another_table_is_refused);
	RUN(test_restpb__empty_body_is_an_error);
	RUN(test_restpb__every_truncation_fails_or_stops_at_a_boundary);
	RUN(test_restpb__read_as_it_arrives_in_pieces_of_any_size);
	RUN(test_restpb__a_cut_stream_is_malformed_where_the_body_was_cut);
	RUN(test_restpb__missing_keys_negative_id_and_nul_location);
	RUN(test_restpb__random_mutations_never_crash);
	RUN(test_scanpb__real_gateway_stateless_scan_decodes);
	RUN(test_scanpb__chunks_and_a_wrapped_length_are_framed);
	RUN(test_scanpb__bad_lengths_and_rows_are_malformed);
	RUN(test_cellsetpb__one_message_without_a_length_decodes);
	RUN(test_cellsetpb__empty_cut_and_foreign_bodies_are_malformed);
	RUN(test_statuspb__real_gateway_answer_decodes);
	RUN(test_statuspb__nodes_regions_dead_and_summary_decode);
	RUN(test_statuspb__every_truncation_fails_or_stops_at_a_boundary);
	RUN(test_statuspb__missing_names_nul_and_wrong_types_are_malformed);
	RUN(test_statuspb__unknown_fields_are_passed_over);
	RUN(test_scanpb__read_as_it_arrives_hands_on_what_the_whole_body_gives);
	RUN(test_scanpb__a_stream_keeps_only_the_chunk_being_framed);
	RUN(test_statuspb__read_as_it_arrives_hands_on_what_the_whole_body_gives);
	RUN(test_statuspb__regions_before_the_name_are_held_until_it_comes);
	return TEST_DONE();
}
