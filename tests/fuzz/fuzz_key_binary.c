/* toBytesBinary keys: hb_tbb_parse on any text; round trips with toStringBinary both ways. */
#include "../../core/key.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct hb_buf bytes = HB_BUF_INIT, text = HB_BUF_INIT, again = HB_BUF_INIT;
	struct hb_buf b64 = HB_BUF_INIT, raw = HB_BUF_INIT;
	struct hb_error err = {0};

	/* The input as raw key bytes: toBytesBinary(toStringBinary(k)) == k. */
	FUZZ_CHECK(!hb_tsb_append(&text, data, size));
	FUZZ_CHECK(!hb_tbb_parse(&again, text.data ? text.data : "", text.len, &err));
	FUZZ_CHECK(again.len == size && (!size || !memcmp(again.data, data, size)));
	/* ... and base64 decode(encode(k)) == k. */
	FUZZ_CHECK(!hb_b64_encode(&b64, data, size));
	FUZZ_CHECK(!hb_b64_decode(&raw, b64.data ? b64.data : "", b64.len));
	FUZZ_CHECK(raw.len == size && (!size || !memcmp(raw.data, data, size)));

	/* The input as text typed by a user: toStringBinary of the parsed key is canonical. */
	if (!hb_tbb_parse(&bytes, (const char *)data, size, &err)) {
		hb_buf_reset(&text);
		hb_buf_reset(&again);
		FUZZ_CHECK(!hb_tsb_append(&text, bytes.data, bytes.len));
		FUZZ_CHECK(!hb_tbb_parse(&again, text.data ? text.data : "", text.len, &err));
		FUZZ_CHECK(again.len == bytes.len &&
		           (!bytes.len || !memcmp(again.data, bytes.data, bytes.len)));
	} else {
		FUZZ_CHECK(err.code == HB_EINVAL && err.msg[0]);
	}
	/* The input as base64 text: a decoded value re-encodes to text of the same length
	 * that decodes to it again (padding bits need not be zero, so the text may differ). */
	hb_buf_reset(&raw);
	hb_buf_reset(&b64);
	hb_buf_reset(&again);
	if (!hb_b64_decode(&raw, (const char *)data, size)) {
		FUZZ_CHECK(!hb_b64_encode(&b64, raw.data, raw.len));
		FUZZ_CHECK(b64.len == size);
		FUZZ_CHECK(!hb_b64_decode(&again, b64.data ? b64.data : "", b64.len));
		FUZZ_CHECK(again.len == raw.len &&
		           (!raw.len || !memcmp(again.data, raw.data, raw.len)));
	}
	hb_buf_release(&bytes);
	hb_buf_release(&text);
	hb_buf_release(&again);
	hb_buf_release(&b64);
	hb_buf_release(&raw);
	return 0;
}
