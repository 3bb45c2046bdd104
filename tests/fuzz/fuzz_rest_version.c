/* /version/rest and /version/cluster bodies: hb_rest_decode_version and
 * hb_rest_decode_cluster_version. */
#include "../../rest/status.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct hb_rest_version v;
	struct hb_error err = {0};
	char *cv = NULL;
	int rc;

	memset(&v, 0, sizeof(v));
	rc = hb_rest_decode_version((const char *)data, size, "GET /version/rest", &v, &err);
	if (rc)
		FUZZ_CHECK((rc == HB_ESERVER || rc == HB_ENOMEM) && err.msg[0]);
	hb_rest_version_release(&v);
	rc = hb_rest_decode_cluster_version((const char *)data, size, "GET /version/cluster", &cv,
	                                    &err);
	if (rc)
		FUZZ_CHECK((rc == HB_ESERVER || rc == HB_ENOMEM) && err.msg[0]);
	else
		FUZZ_CHECK(cv && strlen(cv) <= size);
	free(cv);
	return 0;
}
