/* Parses key-per-line toStringBinary text (split files and key samples) with line-numbered errors.
 */
#include "splitsfile.h"
#include "split.h"

#include <string.h>

static const char *short_tsb(struct hb_buf *b, const void *k, size_t n)
{
	hb_buf_reset(b);
	if (hb_tsb_append_quoted(b, k, n > 100 ? 100 : n))
		return "?";
	if (n > 100)
		hb_buf_adds(b, "...");
	return hb_buf_str(b);
}

int hb_splitsfile_parse(struct hb_keys *out, const char *text, size_t len, const char *name,
                        int flags, struct hb_error *err)
{
	struct hb_buf key = HB_BUF_INIT, m1 = HB_BUF_INIT;
	size_t pos = 0, line = 0, first = out->n;
	int rc = 0;

	while (pos < len) {
		const char *p = text + pos, *nl = memchr(p, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - p) : len - pos;
		struct hb_error perr = {0};

		line++;
		pos += n + (nl ? 1 : 0);
		if (n && p[n - 1] == '\r')
			n--;
		if (n == 0) {
			rc = hb_error_set(err, HB_EINVAL,
			                  "%s:%zu: empty line (HBase rejects an empty split key)",
			                  name, line);
			break;
		}
		hb_buf_reset(&key);
		rc = hb_tbb_parse(&key, p, n, &perr);
		if (rc) {
			if (rc == HB_ENOMEM)
				rc = hb_error_set(err, HB_ENOMEM, "out of memory");
			else
				rc = hb_error_set(err, HB_EINVAL, "%s:%zu: %s", name, line,
				                  perr.msg);
			break;
		}
		if (key.len > HB_MAX_ROW_LENGTH) {
			rc = hb_error_set(
			    err, HB_EINVAL,
			    "%s:%zu: key is %zu bytes long, more than HBase's maximum row "
			    "length %d",
			    name, line, key.len, (int)HB_MAX_ROW_LENGTH);
			break;
		}
		if ((flags & HB_SPLITSFILE_SPLITS) &&
		    out->n - first >= (size_t)HB_SPLIT_MAX_REGIONS - 1) {
			rc = hb_error_set(
			    err, HB_EINVAL,
			    "%s:%zu: more than %ld split keys: at most %ld regions are "
			    "supported, as for every split source",
			    name, line, HB_SPLIT_MAX_REGIONS - 1, HB_SPLIT_MAX_REGIONS);
			break;
		}
		if ((flags & HB_SPLITSFILE_SORTED) && out->n > first) {
			size_t plen;
			const unsigned char *prev = hb_keys_at(out, out->n - 1, &plen);

			if (hb_key_cmp(prev, plen, key.data, key.len) >= 0) {
				rc = hb_error_set(
				    err, HB_EINVAL,
				    "%s:%zu: key '%s' is not greater than the key on line "
				    "%zu",
				    name, line, short_tsb(&m1, key.data, key.len), line - 1);
				break;
			}
		}
		if (hb_keys_push(out, key.data ? key.data : "", key.len)) {
			rc = hb_error_set(err, HB_ENOMEM, "out of memory");
			break;
		}
	}
	if (!rc && out->n == first)
		rc = hb_error_set(err, HB_EINVAL, "%s: no keys in the file", name);
	hb_buf_release(&key);
	hb_buf_release(&m1);
	return rc;
}
