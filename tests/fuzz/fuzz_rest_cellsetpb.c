/* A row GET's or scanner batch's protobuf body (core/restpb_cells.h: one CellSet, no length in
 * front): every input ends in rows and 0, or in HB_ESERVER with a message; every view lies
 * inside the input; and a body under 64 KiB that reads whole reads whole as a stateless
 * scan's single chunk too (the same message behind its 16-bit length). */
#include "../../core/restpb_cells.h"
#include "fuzz.h"

#include <stdlib.h>
#include <string.h>

static int inside(const uint8_t *data, size_t size, const unsigned char *p, size_t n)
{
	return (n == 0) || (p >= data && n <= size && p <= data + size - n);
}

static int as_chunk(const uint8_t *data, size_t size)
{
	unsigned char *b = malloc(size + 2);
	struct hb_error err = {0};
	int rc;

	if (!b)
		return -1;
	b[0] = (unsigned char)(size >> 8);
	b[1] = (unsigned char)size;
	memcpy(b + 2, data, size);
	rc = hb_scanpb_check(b, size + 2, "GET /t/*", &err);
	free(b);
	return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct hb_scanpb_reader rd;
	const unsigned char *key;
	struct hb_error err = {0};
	size_t key_len;
	int rc;

	rc = hb_cellsetpb_reader_init(&rd, data, size, "GET /t/scanner/1", &err);
	FUZZ_CHECK(rc == 0 || (rc == HB_ESERVER && err.msg[0]));
	if (rc) {
		FUZZ_CHECK(hb_scanpb_next_row(&rd, &key, &key_len, &err) == 0);
		return 0;
	}
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
	FUZZ_CHECK(rc == 0 || (rc == HB_ESERVER && err.msg[0]));
	FUZZ_CHECK(rc || rd.pos == size);
	if (!rc && size < 65536)
		FUZZ_CHECK(as_chunk(data, size) == 0);
	return 0;
}
