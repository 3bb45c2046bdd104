/* GET / (table list) bodies: hb_rest_decode_tables. */
#include "../../rest/schema.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct hb_names names;
	struct hb_error err = {0};
	size_t i;
	int rc;

	hb_names_init(&names);
	rc = hb_rest_decode_tables((const char *)data, size, "GET /", &names, &err);
	if (rc)
		FUZZ_CHECK((rc == HB_ESERVER || rc == HB_ENOMEM) && err.msg[0]);
	for (i = 0; i < names.n; i++)
		FUZZ_CHECK(names.v[i] && strlen(names.v[i]) <= size);
	hb_names_release(&names);
	return 0;
}
