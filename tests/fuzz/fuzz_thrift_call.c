/* Thrift2 createTable calls, encode . decode: a call that decodes
 * (hb_thrift_decode_create_table_call) and encodes again (hb_thrift_encode_create_table)
 * decodes to a schema and split keys that encode to the same bytes. */
#include "../../core/thrift.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct hb_schema s, s2;
	struct hb_keys k, k2;
	struct hb_buf enc = HB_BUF_INIT, enc2 = HB_BUF_INIT;
	struct hb_error err = {0};
	int rc;

	hb_schema_init(&s);
	hb_schema_init(&s2);
	hb_keys_init(&k);
	hb_keys_init(&k2);
	rc = hb_thrift_decode_create_table_call(&s, &k, data, size, &err);
	if (rc) {
		FUZZ_CHECK((rc == HB_ESERVER || rc == HB_ENOMEM || rc == HB_EINVAL) && err.msg[0]);
		goto done;
	}
	rc = hb_thrift_encode_create_table(&enc, 1, &s, &k, &err);
	if (rc) { /* attributes the encoder refuses (normalization) */
		FUZZ_CHECK(rc == HB_EINVAL && err.msg[0]);
		goto done;
	}
	rc = hb_thrift_decode_create_table_call(&s2, &k2, enc.data, enc.len, &err);
	if (rc)
		fprintf(stderr, "re-encoded call does not decode: %s\n", err.msg);
	FUZZ_CHECK(!rc);
	FUZZ_CHECK(k2.n == k.n && k2.bytes.len == k.bytes.len);
	FUZZ_CHECK(!k.bytes.len || !memcmp(k.bytes.data, k2.bytes.data, k.bytes.len));
	FUZZ_CHECK(!hb_thrift_encode_create_table(&enc2, 1, &s2, &k2, &err));
	FUZZ_CHECK(enc.len == enc2.len && !memcmp(enc.data, enc2.data, enc.len));
done:
	hb_buf_release(&enc);
	hb_buf_release(&enc2);
	hb_keys_release(&k);
	hb_keys_release(&k2);
	hb_schema_release(&s);
	hb_schema_release(&s2);
	return 0;
}
