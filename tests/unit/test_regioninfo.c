/* Tests for the hbase:meta decoders: PBUF RegionInfo, TableState, region names. */
#include "core/regioninfo.h"
#include "test.h"

#include <stdint.h>

/* docs/hbase-wire.md §6.4: table t1, start "", end "m", id 1700000000000. */
static const unsigned char example[] = {0x50, 0x42, 0x55, 0x46, 0x08, 0x80, 0xd0, 0x95, 0xff, 0xbc,
                                        0x31, 0x12, 0x0d, 0x0a, 0x07, 'd',  'e',  'f',  'a',  'u',
                                        'l',  't',  0x12, 0x02, 't',  '1',  0x1a, 0x00, 0x22, 0x01,
                                        'm',  0x28, 0x00, 0x30, 0x00, 0x38, 0x00};

static void test_regioninfo__wire_doc_example_decodes(void)
{
	struct hb_regioninfo ri;
	struct hb_error err = {0};

	CHECK_EQ_INT(hb_regioninfo_decode(&ri, example, sizeof(example), &err), 0);
	CHECK(ri.region_id == UINT64_C(1700000000000));
	CHECK_EQ_STR((char *)ri.ns, "default");
	CHECK_EQ_STR((char *)ri.qualifier, "t1");
	CHECK_EQ_INT(ri.start_len, 0);
	CHECK_EQ_INT(ri.end_len, 1);
	CHECK(ri.end && ri.end[0] == 'm');
	CHECK_EQ_INT(ri.offline, 0);
	CHECK_EQ_INT(ri.split, 0);
	CHECK_EQ_INT(ri.replica_id, 0);
	hb_regioninfo_release(&ri);
}

static void test_regioninfo__split_parent_flags_and_unknown_fields(void)
{
	/* offline=1 split=1, plus unknown fields 9 (varint), 10 (len), 11 (fixed64), 12 (fixed32)
	 * and a field 8 (region_encoded_name, 2.2.3+), which is not trusted: skipped like the
	 * others. */
	static const unsigned char v[] = {
	    'P',  'B',  'U',  'F',  0x08, 0x05, 0x12, 0x0a, 0x0a, 0x02, 'n',  's',  0x12, 0x04,
	    'q',  'u',  'a',  'l',  0x1a, 0x01, 0x00, 0x22, 0x01, 0xff, 0x28, 0x01, 0x30, 0x01,
	    0x38, 0x02, 0x48, 0x96, 0x01, 0x52, 0x03, 'x',  'y',  'z',  0x59, 1,    2,    3,
	    4,    5,    6,    7,    8,    0x65, 1,    2,    3,    4,    0x42, 0x02, 'a',  'b'};
	struct hb_regioninfo ri;
	struct hb_error err = {0};

	CHECK_EQ_INT(hb_regioninfo_decode(&ri, v, sizeof(v), &err), 0);
	CHECK_EQ_INT(ri.region_id, 5);
	CHECK_EQ_STR((char *)ri.ns, "ns");
	CHECK_EQ_STR((char *)ri.qualifier, "qual");
	CHECK_EQ_INT(ri.start_len, 1);
	CHECK(ri.start && ri.start[0] == 0);
	CHECK(ri.end && ri.end[0] == 0xff);
	CHECK_EQ_INT(ri.offline, 1);
	CHECK_EQ_INT(ri.split, 1);
	CHECK_EQ_INT(ri.replica_id, 2);
	hb_regioninfo_release(&ri);
}

static void test_regioninfo__missing_magic_is_an_error(void)
{
	struct hb_regioninfo ri;
	struct hb_error err = {0};

	CHECK_EQ_INT(hb_regioninfo_decode(&ri, example + 4, sizeof(example) - 4, &err), HB_EINVAL);
	CHECK(strstr(err.msg, "PBUF") != NULL);
	CHECK_EQ_INT(hb_regioninfo_decode(&ri, "PBU", 3, &err), HB_EINVAL);
	CHECK_EQ_INT(hb_regioninfo_decode(&ri, "", 0, &err), HB_EINVAL);
}

static void test_regioninfo__every_truncation_is_an_error(void)
{
	struct hb_regioninfo ri;
	struct hb_error err = {0};
	size_t n;
	int ok = 0;

	/* Cutting the example anywhere inside a field must fail; cutting between fields after
	 * the table name leaves a valid (shorter) message. */
	for (n = 0; n < sizeof(example); n++) {
		int rc = hb_regioninfo_decode(&ri, example, n, &err);

		if (rc == 0) {
			ok++;
			hb_regioninfo_release(&ri);
		}
	}
	/* Valid prefixes end after: table name (26), start (28), end (31), offline (33),
	 * split (35). */
	CHECK_EQ_INT(ok, 5);
}

static void test_regioninfo__overlong_and_truncated_varints(void)
{
	static const unsigned char overlong[] = {'P',  'B',  'U',  'F',  0x08, 0xff, 0xff, 0xff,
	                                         0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01};
	static const unsigned char tenth_too_big[] = {
	    'P', 'B', 'U', 'F', 0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02};
	static const unsigned char trunc[] = {'P', 'B', 'U', 'F', 0x08, 0x80, 0x80};
	static const unsigned char len_past_end[] = {'P',  'B',  'U',  'F',  0x08,
	                                             0x01, 0x12, 0x7f, 0x0a, 0x00};
	static const unsigned char huge_len[] = {'P',  'B',  'U',  'F',  0x08, 0x01,
	                                         0x12, 0xff, 0xff, 0xff, 0xff, 0xff,
	                                         0xff, 0xff, 0xff, 0xff, 0x01};
	static const unsigned char no_table[] = {'P', 'B', 'U', 'F', 0x08, 0x01};
	static const unsigned char wrong_wire_type[] = {'P', 'B', 'U', 'F', 0x0a, 0x01, 0x00};
	static const unsigned char group[] = {'P', 'B', 'U', 'F', 0x4b, 0x4c};
	static const unsigned char field0[] = {'P', 'B', 'U', 'F', 0x00, 0x00};
	struct hb_regioninfo ri;
	struct hb_error err = {0};
	uint64_t v;
	size_t pos = 0;
	static const unsigned char max64[] = {0xff, 0xff, 0xff, 0xff, 0xff,
	                                      0xff, 0xff, 0xff, 0xff, 0x01};

	CHECK_EQ_INT(hb_regioninfo_decode(&ri, overlong, sizeof(overlong), &err), HB_EINVAL);
	CHECK_EQ_INT(hb_regioninfo_decode(&ri, tenth_too_big, sizeof(tenth_too_big), &err),
	             HB_EINVAL);
	CHECK_EQ_INT(hb_regioninfo_decode(&ri, trunc, sizeof(trunc), &err), HB_EINVAL);
	CHECK_EQ_INT(hb_regioninfo_decode(&ri, len_past_end, sizeof(len_past_end), &err),
	             HB_EINVAL);
	CHECK_EQ_INT(hb_regioninfo_decode(&ri, huge_len, sizeof(huge_len), &err), HB_EINVAL);
	CHECK_EQ_INT(hb_regioninfo_decode(&ri, no_table, sizeof(no_table), &err), HB_EINVAL);
	CHECK(strstr(err.msg, "table_name") != NULL);
	CHECK_EQ_INT(hb_regioninfo_decode(&ri, wrong_wire_type, sizeof(wrong_wire_type), &err),
	             HB_EINVAL);
	CHECK_EQ_INT(hb_regioninfo_decode(&ri, group, sizeof(group), &err), HB_EINVAL);
	CHECK_EQ_INT(hb_regioninfo_decode(&ri, field0, sizeof(field0), &err), HB_EINVAL);
	CHECK_EQ_INT(hb_pb_varint(max64, sizeof(max64), &pos, &v), 0);
	CHECK(v == UINT64_MAX);
	CHECK_EQ_INT(pos, 10);
}

/* xorshift so the fuzz run is reproducible. */
static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static uint64_t rng(void)
{
	return t_xorshift(&rng_state);
}

static void test_regioninfo__random_mutations_never_crash(void)
{
	unsigned char buf[96];
	int i, decoded = 0, rejected = 0;

	for (i = 0; i < 200000; i++) {
		struct hb_regioninfo ri;
		struct hb_error err = {0};
		size_t n = sizeof(example), k, muts = 1 + rng() % 4;
		int rc;

		memcpy(buf, example, n);
		for (k = 0; k < muts; k++) {
			switch (rng() % 4) {
			case 0: /* flip a byte */
				if (n)
					buf[rng() % n] = (unsigned char)rng();
				break;
			case 1: /* truncate */
				n = rng() % (n + 1);
				break;
			case 2: /* insert a random byte */
				if (n < sizeof(buf)) {
					size_t at = rng() % (n + 1);

					memmove(buf + at + 1, buf + at, n - at);
					buf[at] = (unsigned char)rng();
					n++;
				}
				break;
			default: /* set a continuation bit */
				if (n)
					buf[rng() % n] |= 0x80;
			}
		}
		rc = hb_regioninfo_decode(&ri, buf, n, &err);
		if (rc == 0) {
			decoded++;
			/* Whatever decodes must be self-consistent. */
			CHECK(ri.ns && ri.qualifier && ri.start && ri.end);
			hb_regioninfo_release(&ri);
		} else {
			rejected++;
			CHECK_EQ_INT(rc, HB_EINVAL);
			CHECK(err.msg[0] != '\0');
		}
	}
	CHECK(decoded > 0);
	CHECK(rejected > 0);
}

static void test_tablestate__states_and_garbage(void)
{
	struct hb_error err = {0};
	int st = -1;

	CHECK_EQ_INT(hb_tablestate_decode(&st, "\x08\x00", 2, &err), 0);
	CHECK_EQ_INT(st, HB_TABLE_ENABLED);
	CHECK_EQ_INT(hb_tablestate_decode(&st, "\x08\x01", 2, &err), 0);
	CHECK_EQ_STR(hb_tablestate_name(st), "DISABLED");
	CHECK_EQ_INT(hb_tablestate_decode(&st, "\x08\x03\x10\x05", 4, &err), 0);
	CHECK_EQ_INT(st, HB_TABLE_ENABLING);
	CHECK_EQ_INT(hb_tablestate_decode(&st, "", 0, &err), HB_EINVAL);
	CHECK_EQ_INT(hb_tablestate_decode(&st, "\x08", 1, &err), HB_EINVAL);
	CHECK_EQ_INT(hb_tablestate_decode(&st, "\x08\x09", 2, &err), HB_EINVAL);
	CHECK_EQ_INT(hb_tablestate_decode(&st, "PBUF\x08\x00", 6, &err), HB_EINVAL);
}

static void test_region_name__parses_new_format_with_commas_in_start_key(void)
{
	static const char row[] = "ns:t1,a,b,1700000000000_0001.43ae7364b4a555b93267937f9bc49ec1.";
	struct hb_region_name rn;
	struct hb_error err = {0};

	CHECK_EQ_INT(hb_region_name_parse(&rn, row, sizeof(row) - 1, &err), 0);
	CHECK_EQ_INT(rn.table_len, 5);
	CHECK(!memcmp(rn.table, "ns:t1", 5));
	CHECK_EQ_INT(rn.start_len, 3);
	CHECK(!memcmp(rn.start, "a,b", 3));
	CHECK(rn.id == UINT64_C(1700000000000));
	CHECK_EQ_INT(rn.replica_id, 1);
	CHECK_EQ_INT(rn.encoded_len, 32);
	CHECK_EQ_INT(hb_region_name_parse(&rn, "hbase:meta,,1", 13, &err), 0);
	CHECK_EQ_INT(rn.encoded_len, 0);
	CHECK_EQ_INT(rn.id, 1);
	CHECK_EQ_INT(hb_region_name_parse(&rn, "t1", 2, &err), HB_EINVAL);
	CHECK_EQ_INT(hb_region_name_parse(&rn, "t1,", 3, &err), HB_EINVAL);
	CHECK_EQ_INT(hb_region_name_parse(&rn, "t1,,x.", 6, &err), HB_EINVAL);
	CHECK_EQ_INT(hb_region_name_parse(&rn, "t1,,12.abc", 10, &err), HB_EINVAL);
}

static void test_region_name__old_format_encoded_name_is_jenkins_hash(void)
{
	char enc[12];

	/* The first meta region's well-known encoded name. */
	hb_region_encoded_name_old(enc, "hbase:meta,,1", 13);
	CHECK_EQ_STR(enc, "1588230740");
	CHECK_EQ_INT(hb_jenkins_hash("", 0, 0), (long)0xdeadbeefu);
}

static void test_region_name__encoded_name_is_md5_hex(void)
{
	char enc[33];

	CHECK_EQ_INT(hb_region_encoded_name(enc, "t1,,1700000000000", 17, NULL), 0);
	CHECK_EQ_STR(enc, "43ae7364b4a555b93267937f9bc49ec1");
}

static void test_be64__decodes_and_checks_length(void)
{
	int64_t v = 0;

	CHECK_EQ_INT(hb_be64_decode(&v, "\x00\x00\x01\x8b\xcf\xe5\x68\x00", 8), 0);
	CHECK(v == INT64_C(1700000000000));
	CHECK_EQ_INT(hb_be64_decode(&v, "\x00\x01", 2), HB_EINVAL);
}

int main(void)
{
	RUN(test_regioninfo__wire_doc_example_decodes);
	RUN(test_regioninfo__split_parent_flags_and_unknown_fields);
	RUN(test_regioninfo__missing_magic_is_an_error);
	RUN(test_regioninfo__every_truncation_is_an_error);
	RUN(test_regioninfo__overlong_and_truncated_varints);
	RUN(test_regioninfo__random_mutations_never_crash);
	RUN(test_tablestate__states_and_garbage);
	RUN(test_region_name__parses_new_format_with_commas_in_start_key);
	RUN(test_region_name__encoded_name_is_md5_hex);
	RUN(test_region_name__old_format_encoded_name_is_jenkins_hash);
	RUN(test_be64__decodes_and_checks_length);
	return TEST_DONE();
}
