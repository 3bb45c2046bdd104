/* Scanner CellSet bodies (cJSON): hb_rest_decode_cellset. Every fragment it hands over has a
 * key and cells with columns; a refusal is HB_ESERVER with a message. */
#include "../../rest/cells.h"
#include "fuzz.h"

struct seen {
	size_t rows, cells, size;
};

static int on_row(void *ctx, struct hb_row *frag, struct hb_error *err)
{
	struct seen *s = ctx;
	size_t i;

	(void)err;
	s->rows++;
	FUZZ_CHECK(frag->key_len <= s->size);
	for (i = 0; i < frag->ncells; i++) {
		FUZZ_CHECK(frag->cells[i].column && frag->cells[i].column_len <= s->size);
		FUZZ_CHECK(frag->cells[i].value_len <= s->size);
		s->cells++;
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct seen s = {0, 0, size};
	struct hb_error err = {0};
	int rc;

	rc = hb_rest_decode_cellset((const char *)data, size, "GET /t/scanner/1", on_row, &s, &err);
	if (rc)
		FUZZ_CHECK((rc == HB_ESERVER || rc == HB_ENOMEM) && err.msg[0]);
	return 0;
}
