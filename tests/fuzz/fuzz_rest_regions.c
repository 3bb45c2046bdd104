/* REST /T/regions bodies (the strict pull parser): hb_rest_decode_regions and the table-named
 * variant. A decoded region list has sane bounds; a refusal is HB_ESERVER with a message. */
#include "../../rest/regions.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct hb_regions rs, named;
	struct hb_error err = {0};
	size_t i;
	int rc, rc2;

	hb_regions_init(&rs);
	hb_regions_init(&named);
	rc = hb_rest_decode_regions((const char *)data, size, "GET /t/regions", &rs, &err);
	if (rc) {
		FUZZ_CHECK((rc == HB_ESERVER || rc == HB_ENOMEM) && err.msg[0]);
		FUZZ_CHECK(!rs.n);
	}
	for (i = 0; i < rs.n; i++) {
		struct hb_region_view v;
		const struct hb_region *r = hb_regions_at(&rs, i, &v);

		FUZZ_CHECK(r->start_len <= size && r->end_len <= size);
		FUZZ_CHECK(!r->server || strlen(r->server) <= size);
	}
	rc2 = hb_rest_decode_table_regions((const char *)data, size, "GET /t/regions", "t", &named,
	                                   &err);
	/* Naming the table can only refuse more bodies, never fewer. */
	FUZZ_CHECK(!rc || rc2);
	if (!rc2)
		FUZZ_CHECK(named.n == rs.n);
	hb_regions_sort(&rs);
	hb_regions_release(&rs);
	hb_regions_release(&named);
	return 0;
}
