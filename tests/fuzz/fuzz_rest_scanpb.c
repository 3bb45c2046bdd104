/* A stateless scan's protobuf body (core/restpb.h: CellSet chunks behind 16-bit lengths): every
 * input ends in rows and 0, or in HB_ESERVER / HB_EINVAL (cannot be framed) with a message;
 * hb_scanpb_check agrees with a full read, and every view lies inside the input. */
#include "../../core/restpb.h"
#include "fuzz.h"

static int inside(const uint8_t *data, size_t size, const unsigned char *p, size_t n)
{
	return (n == 0) || (p >= data && n <= size && p <= data + size - n);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct hb_scanpb_reader rd;
	const unsigned char *key;
	struct hb_error err = {0}, err2 = {0};
	size_t key_len;
	int rc, check;

	check = hb_scanpb_check(data, size, "GET /t/*", &err2);
	hb_scanpb_reader_init(&rd, data, size, "GET /t/*");
	while ((rc = hb_scanpb_next_row(&rd, &key, &key_len, &err)) == 1) {
		struct hb_pb_cell cell;

		FUZZ_CHECK(key && inside(data, size, key, key_len));
		while ((rc = hb_scanpb_next_cell(&rd, &cell, &err)) == 1) {
			FUZZ_CHECK(inside(data, size, cell.column, cell.column_len));
			FUZZ_CHECK(inside(data, size, cell.value, cell.value_len));
		}
		if (rc)
			break;
		FUZZ_CHECK(rd.pos <= size);
	}
	FUZZ_CHECK(rc == 0 || ((rc == HB_ESERVER || rc == HB_EINVAL) && err.msg[0]));
	FUZZ_CHECK(rc == check);
	FUZZ_CHECK(rc || rd.pos == size);
	return 0;
}
