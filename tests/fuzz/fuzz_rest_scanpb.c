/* A stateless scan's protobuf body (core/restpb_cells.h: CellSet chunks behind 16-bit lengths):
 * every input ends in rows and 0, or in HB_ESERVER / HB_EINVAL (cannot be framed) with a message;
 * hb_scanpb_check agrees with a full read, and every view lies inside the input. The same input
 * read as it arrives (hb_scanpb_stream), in pieces of a size its first byte sets, hands on the
 * same rows and cells and ends with the same code and message. */
#include "../../core/restpb_cells.h"
#include "fuzz.h"

#include <string.h>

static int inside(const uint8_t *data, size_t size, const unsigned char *p, size_t n)
{
	return (n == 0) || (p >= data && n <= size && p <= data + size - n);
}

/* Rows and cells as a running sum of their sizes. */
static int sum_row(void *ctx, struct hb_scanpb_reader *rd, const unsigned char *key, size_t key_len,
                   struct hb_error *err)
{
	size_t *sum = ctx;
	struct hb_pb_cell cell;
	int rc;

	(void)key;
	*sum = *sum * 31 + key_len + 1;
	while ((rc = hb_scanpb_next_cell(rd, &cell, err)) == 1)
		*sum = *sum * 31 + cell.column_len * 7 + cell.value_len;
	return rc;
}

static int streamed(const uint8_t *data, size_t size, size_t *sum, struct hb_error *err)
{
	struct hb_scanpb_stream ss;
	size_t piece = size ? 1 + data[0] % 61 : 1, at;
	int rc = 0;

	*sum = 0;
	hb_scanpb_stream_init(&ss, "GET /t/*");
	for (at = 0; !rc && at < size; at += piece)
		rc = hb_scanpb_stream_push(&ss, data + at, at + piece > size ? size - at : piece,
		                           sum_row, sum, err);
	if (!rc)
		rc = hb_scanpb_stream_end(&ss, sum_row, sum, err);
	hb_scanpb_stream_release(&ss);
	return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct hb_error serr = {0};
	size_t ssum, wsum = 0;
	int src = streamed(data, size, &ssum, &serr);
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
		wsum = wsum * 31 + key_len + 1;
		while ((rc = hb_scanpb_next_cell(&rd, &cell, &err)) == 1) {
			FUZZ_CHECK(inside(data, size, cell.column, cell.column_len));
			FUZZ_CHECK(inside(data, size, cell.value, cell.value_len));
			wsum = wsum * 31 + cell.column_len * 7 + cell.value_len;
		}
		if (rc)
			break;
		FUZZ_CHECK(rd.pos <= size);
	}
	FUZZ_CHECK(rc == 0 || ((rc == HB_ESERVER || rc == HB_EINVAL) && err.msg[0]));
	FUZZ_CHECK(rc == check);
	FUZZ_CHECK(rc || rd.pos == size);
	FUZZ_CHECK(src == rc && ssum == wsum && !strcmp(serr.msg, rc ? err.msg : ""));
	return 0;
}
