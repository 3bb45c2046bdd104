/* /T/schema bodies: hb_rest_decode_schema; a decoded schema encodes (hb_rest_encode_schema)
 * to JSON that decodes to a schema encoding to the same JSON. */
#include "../../core/schema.h"
#include "../../rest/schema.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct hb_schema s, s2;
	struct hb_error err = {0};
	char *json = NULL, *json2 = NULL;
	int rc;

	hb_schema_init(&s);
	hb_schema_init(&s2);
	rc = hb_rest_decode_schema((const char *)data, size, "GET /t/schema", &s, &err);
	if (rc) {
		FUZZ_CHECK((rc == HB_ESERVER || rc == HB_ENOMEM || rc == HB_ENOTFOUND) &&
		           err.msg[0]);
		goto done;
	}
	FUZZ_CHECK(!hb_rest_encode_schema(&s, &json, &err));
	rc = hb_rest_decode_schema(json, strlen(json), "re-encoded", &s2, &err);
	if (rc)
		fprintf(stderr, "re-encoded schema %s does not decode: %s\n", json, err.msg);
	FUZZ_CHECK(!rc);
	FUZZ_CHECK(!hb_rest_encode_schema(&s2, &json2, &err));
	FUZZ_CHECK(!strcmp(json, json2));
done:
	free(json);
	free(json2);
	hb_schema_release(&s);
	hb_schema_release(&s2);
	return 0;
}
