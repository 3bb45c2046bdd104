/* hbase:meta values: RegionInfo protobuf (hb_regioninfo_decode), TableState and region names.
 * A decoded RegionInfo, encoded again by a minimal protobuf writer here, decodes to the same
 * fields. */
#include "../../core/buf.h"
#include "../../core/regioninfo.h"
#include "fuzz.h"

static void varint(struct hb_buf *b, uint64_t v)
{
	do {
		FUZZ_CHECK(!hb_buf_addc(b, (int)((v & 0x7F) | (v > 0x7F ? 0x80 : 0))));
		v >>= 7;
	} while (v);
}

static void bytes_field(struct hb_buf *b, unsigned field, const void *p, size_t n)
{
	varint(b, (uint64_t)field << 3 | 2);
	varint(b, n);
	FUZZ_CHECK(!hb_buf_add(b, p, n));
}

static void encode(struct hb_buf *b, const struct hb_regioninfo *ri)
{
	struct hb_buf tn = HB_BUF_INIT;

	FUZZ_CHECK(!hb_buf_add(b, "PBUF", 4));
	varint(b, 1 << 3);
	varint(b, ri->region_id);
	bytes_field(&tn, 1, ri->ns, ri->ns_len);
	bytes_field(&tn, 2, ri->qualifier, ri->qualifier_len);
	bytes_field(b, 2, tn.data, tn.len);
	bytes_field(b, 3, ri->start, ri->start_len);
	bytes_field(b, 4, ri->end, ri->end_len);
	varint(b, 5 << 3);
	varint(b, (uint64_t)ri->offline);
	varint(b, 6 << 3);
	varint(b, (uint64_t)ri->split);
	varint(b, 7 << 3);
	varint(b, (uint64_t)(int64_t)ri->replica_id);
	hb_buf_release(&tn);
}

static int same(const void *a, size_t an, const void *b, size_t bn)
{
	return an == bn && (!an || !memcmp(a, b, an));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct hb_regioninfo ri, again;
	struct hb_region_name rn;
	struct hb_buf enc = HB_BUF_INIT;
	struct hb_error err = {0};
	int state, rc;

	rc = hb_regioninfo_decode(&ri, data, size, &err);
	if (rc) {
		FUZZ_CHECK((rc == HB_EINVAL || rc == HB_ENOMEM) && err.msg[0]);
	} else {
		FUZZ_CHECK(ri.start && ri.end && ri.ns && ri.qualifier);
		encode(&enc, &ri);
		rc = hb_regioninfo_decode(&again, enc.data, enc.len, &err);
		FUZZ_CHECK(!rc);
		FUZZ_CHECK(again.region_id == ri.region_id && again.offline == ri.offline &&
		           again.split == ri.split && again.replica_id == ri.replica_id);
		FUZZ_CHECK(same(again.ns, again.ns_len, ri.ns, ri.ns_len));
		FUZZ_CHECK(
		    same(again.qualifier, again.qualifier_len, ri.qualifier, ri.qualifier_len));
		FUZZ_CHECK(same(again.start, again.start_len, ri.start, ri.start_len));
		FUZZ_CHECK(same(again.end, again.end_len, ri.end, ri.end_len));
		hb_regioninfo_release(&again);
		hb_regioninfo_release(&ri);
	}
	hb_buf_release(&enc);
	rc = hb_tablestate_decode(&state, data, size, &err);
	if (!rc)
		FUZZ_CHECK(strcmp(hb_tablestate_name(state), "UNKNOWN"));
	rc = hb_region_name_parse(&rn, data, size, &err);
	if (!rc) {
		const uint8_t *end = data + size;

		FUZZ_CHECK(rn.table >= data && rn.table + rn.table_len <= end);
		FUZZ_CHECK(rn.start >= data && rn.start + rn.start_len <= end);
		FUZZ_CHECK(!rn.encoded_len ||
		           (rn.encoded >= data && rn.encoded + rn.encoded_len <= end));
		FUZZ_CHECK(rn.replica_id >= 0);
	}
	return 0;
}
