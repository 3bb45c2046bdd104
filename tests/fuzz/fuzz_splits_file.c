/* Split files and sample files: hb_splitsfile_parse; the keys written back as toStringBinary
 * lines parse to the same keys. The first byte picks the flags. */
#include "../../core/splitsfile.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct hb_keys keys, again;
	struct hb_buf text = HB_BUF_INIT;
	struct hb_error err = {0};
	int flags;
	size_t i;

	if (!size)
		return 0;
	flags = data[0] & 1 ? HB_SPLITSFILE_SORTED : 0;
	hb_keys_init(&keys);
	hb_keys_init(&again);
	if (hb_splitsfile_parse(&keys, (const char *)data + 1, size - 1, "f", flags, &err)) {
		FUZZ_CHECK(err.code == HB_EINVAL && !strncmp(err.msg, "f", 1));
		goto done;
	}
	FUZZ_CHECK(keys.n > 0);
	for (i = 0; i < keys.n; i++) {
		size_t n, pn;
		const unsigned char *k = hb_keys_at(&keys, i, &n);

		FUZZ_CHECK(n > 0 && n <= HB_MAX_ROW_LENGTH);
		if (flags && i) {
			const unsigned char *p = hb_keys_at(&keys, i - 1, &pn);

			FUZZ_CHECK(hb_key_cmp(p, pn, k, n) < 0);
		}
		FUZZ_CHECK(!hb_tsb_append(&text, k, n) && !hb_buf_addc(&text, '\n'));
	}
	FUZZ_CHECK(!hb_splitsfile_parse(&again, text.data, text.len, "g", flags, &err));
	FUZZ_CHECK(again.n == keys.n && again.bytes.len == keys.bytes.len);
	for (i = 0; i < keys.n; i++) {
		size_t n, m;
		const unsigned char *a = hb_keys_at(&keys, i, &n), *b = hb_keys_at(&again, i, &m);

		FUZZ_CHECK(n == m && !memcmp(a, b, n));
	}
done:
	hb_keys_release(&keys);
	hb_keys_release(&again);
	hb_buf_release(&text);
	return 0;
}
