/* GET /T/regions as protobuf (core/restpb_regions.h, a TableInfo message): every input ends in
 * regions and 0, or in HB_ESERVER with a message; each region's views are bounded and written again
 * by a minimal encoder here, decode to the same fields. The same input read as it arrives, in
 * pieces of a size its first byte sets, hands on as many regions and ends the same way. */
#include "../../core/buf.h"
#include "../../core/restpb_regions.h"
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

static int count_region(void *ctx, const struct hb_region *r, struct hb_error *err)
{
	(void)r;
	(void)err;
	++*(size_t *)ctx;
	return 0;
}

/* The input in pieces: returns the reader's code, *count the regions handed on. */
static int streamed(const uint8_t *data, size_t size, size_t *count)
{
	struct hb_tableinfo_stream ts;
	struct hb_error err = {0};
	size_t piece = size ? 1 + data[0] % 61 : 1, at;
	int rc = 0;

	*count = 0;
	hb_tableinfo_stream_init(&ts, "GET /t/regions", size & 1 ? NULL : "t");
	for (at = 0; !rc && at < size; at += piece)
		rc = hb_tableinfo_stream_push(&ts, data + at, at + piece > size ? size - at : piece,
		                              count_region, count, &err);
	if (!rc)
		rc = hb_tableinfo_stream_end(&ts, count_region, count, &err);
	FUZZ_CHECK(!rc || err.msg[0]);
	hb_tableinfo_stream_release(&ts);
	return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct hb_tableinfo_reader rd;
	struct hb_region r;
	struct hb_error err = {0};
	size_t n = 0, sn;
	int rc, src = streamed(data, size, &sn);

	hb_tableinfo_reader_init(&rd, data, size, "GET /t/regions", size & 1 ? NULL : "t");
	while ((rc = hb_tableinfo_next(&rd, &r, &err)) == 1) {
		FUZZ_CHECK(rd.pos <= size);
		FUZZ_CHECK(r.start && r.end && r.start[r.start_len] == 0 && r.end[r.end_len] == 0);
		FUZZ_CHECK(r.id <= INT64_MAX);
		FUZZ_CHECK(!r.server ||
		           (strlen(r.server) > 0 && !memchr(r.server, 0, strlen(r.server))));
		round_trip(&r);
		n++;
	}
	FUZZ_CHECK(rc == 0 || ((rc == HB_ESERVER || rc == HB_ENOMEM) && err.msg[0]));
	FUZZ_CHECK(rc || rd.pos == size);
	FUZZ_CHECK(sn == n && !src == !rc);
	hb_tableinfo_reader_release(&rd);
	return 0;
}
