/* GET /T/regions as protobuf (core/restpb.h, a TableInfo message): every input ends in regions
 * and 0, or in HB_ESERVER with a message; each region's views are bounded and written again by
 * a minimal encoder here, decode to the same fields. */
#include "../../core/buf.h"
#include "../../core/restpb.h"
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

static int same(const void *a, size_t an, const void *b, size_t bn)
{
	return an == bn && (!an || !memcmp(a, b, an));
}

/* The region again, alone in a TableInfo, must decode to the same fields. */
static void round_trip(const struct hb_region *r)
{
	struct hb_buf reg = HB_BUF_INIT, msg = HB_BUF_INIT;
	struct hb_tableinfo_reader rd;
	struct hb_region again;
	struct hb_error err = {0};

	if (r->name)
		bytes_field(&reg, 1, r->name, r->name_len);
	bytes_field(&reg, 2, r->start, r->start_len);
	bytes_field(&reg, 3, r->end, r->end_len);
	varint(&reg, 4 << 3);
	varint(&reg, r->id);
	if (r->server)
		bytes_field(&reg, 5, r->server, strlen(r->server));
	bytes_field(&msg, 1, "t", 1);
	bytes_field(&msg, 2, reg.data, reg.len);
	hb_tableinfo_reader_init(&rd, msg.data, msg.len, "GET /t/regions", "t");
	FUZZ_CHECK(hb_tableinfo_next(&rd, &again, &err) == 1);
	FUZZ_CHECK(same(again.start, again.start_len, r->start, r->start_len));
	FUZZ_CHECK(same(again.end, again.end_len, r->end, r->end_len));
	FUZZ_CHECK(again.id == r->id);
	FUZZ_CHECK(!again.name == !r->name);
	FUZZ_CHECK(!r->name || same(again.name, again.name_len, r->name, r->name_len));
	FUZZ_CHECK(!again.server == !r->server);
	FUZZ_CHECK(!r->server || !strcmp(again.server, r->server));
	FUZZ_CHECK(hb_tableinfo_next(&rd, &again, &err) == 0);
	hb_tableinfo_reader_release(&rd);
	hb_buf_release(&reg);
	hb_buf_release(&msg);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct hb_tableinfo_reader rd;
	struct hb_region r;
	struct hb_error err = {0};
	int rc;

	hb_tableinfo_reader_init(&rd, data, size, "GET /t/regions", size & 1 ? NULL : "t");
	while ((rc = hb_tableinfo_next(&rd, &r, &err)) == 1) {
		FUZZ_CHECK(rd.pos <= size);
		FUZZ_CHECK(r.start && r.end && r.start[r.start_len] == 0 && r.end[r.end_len] == 0);
		FUZZ_CHECK(r.id <= INT64_MAX);
		FUZZ_CHECK(!r.server ||
		           (strlen(r.server) > 0 && !memchr(r.server, 0, strlen(r.server))));
		round_trip(&r);
	}
	FUZZ_CHECK(rc == 0 || ((rc == HB_ESERVER || rc == HB_ENOMEM) && err.msg[0]));
	FUZZ_CHECK(rc || rd.pos == size);
	hb_tableinfo_reader_release(&rd);
	return 0;
}
