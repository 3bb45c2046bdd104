/* hbase:meta rows as a scan of table "t" returns them: hb_meta_row_decode. Input: the row key
 * and then each cell's column and value, every one as a 2-byte big-endian length and bytes.
 * A region row it keeps has a 32-char encoded name; a refusal is HB_ESERVER (server data). */
#include "../../rest/cells.h"
#include "../../rest/meta.h"
#include "fuzz.h"

/* The next length-prefixed item at *pos, or 0 when the input is used up. */
static int item(const uint8_t *data, size_t size, size_t *pos, const uint8_t **p, size_t *n)
{
	if (size - *pos < 2)
		return 0;
	*n = (size_t)data[*pos] << 8 | data[*pos + 1];
	*pos += 2;
	if (*n > size - *pos)
		*n = size - *pos;
	*p = data + *pos;
	*pos += *n;
	return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct hb_row row;
	struct hb_regions rs;
	struct hb_error err = {0};
	const uint8_t *key, *col, *val;
	size_t pos = 0, klen, clen, vlen, i;
	int state = -2, rc;

	if (!item(data, size, &pos, &key, &klen))
		return 0;
	hb_row_init(&row);
	hb_regions_init(&rs);
	row.key = malloc(klen + 1);
	FUZZ_CHECK(row.key);
	memcpy(row.key, key, klen);
	row.key[klen] = 0;
	row.key_len = klen;
	while (item(data, size, &pos, &col, &clen)) {
		if (!item(data, size, &pos, &val, &vlen))
			vlen = 0, val = data;
		FUZZ_CHECK(!hb_row_add_cell(&row, col, clen, val, vlen, 0));
	}
	rc = hb_meta_row_decode(&row, "t", &rs, &state, &err);
	if (rc) {
		if (rc != HB_ESERVER && rc != HB_ENOMEM)
			fprintf(stderr, "meta row refused with %d: %s\n", rc, err.msg);
		FUZZ_CHECK((rc == HB_ESERVER || rc == HB_ENOMEM) && err.msg[0]);
		FUZZ_CHECK(!rs.n);
	}
	for (i = 0; i < rs.n; i++) {
		struct hb_region_view v;
		const struct hb_region *r = hb_regions_at(&rs, i, &v);

		FUZZ_CHECK(r->encoded && r->name_len == klen);
		FUZZ_CHECK(r->name && !memcmp(r->name, key, klen));
	}
	if (state != -2)
		FUZZ_CHECK(state >= -1 && state <= 3 && !rs.n);
	hb_row_release(&row);
	hb_regions_release(&rs);
	return 0;
}
