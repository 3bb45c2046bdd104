/* /status/cluster bodies: hb_rest_decode_status. */
#include "../../rest/status.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct hb_cluster_status st;
	struct hb_error err = {0};
	size_t i;
	int rc;

	memset(&st, 0, sizeof(st));
	rc = hb_rest_decode_status((const char *)data, size, "GET /status/cluster", &st, &err);
	if (rc) {
		FUZZ_CHECK((rc == HB_ESERVER || rc == HB_ENOMEM) && err.msg[0]);
	} else {
		for (i = 0; i < st.nlive; i++)
			FUZZ_CHECK(st.live[i].name && (!st.live[i].nregions || st.live[i].regions));
		for (i = 0; i < st.ndead; i++)
			FUZZ_CHECK(st.dead[i]);
	}
	hb_cluster_status_release(&st);
	return 0;
}
