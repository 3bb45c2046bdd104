/* Reading protobuf's wire format: varints, skipped fields, length-delimited views. */
#include "pb.h"
#include "hb.h"

#include <stdint.h>

/* Protobuf wire types. */
#define WT_I32 5

int hb_pb_varint(const unsigned char *p, size_t n, size_t *pos, uint64_t *out)
{
	uint64_t v = 0;
	size_t i = *pos;
	int shift;

	for (shift = 0; shift < 70; shift += 7) {
		if (i >= n)
			return HB_EINVAL;
		/* The tenth byte may only carry the top bit of a 64-bit value. */
		if (shift == 63 && (p[i] & 0xFE))
			return HB_EINVAL;
		v |= (uint64_t)(p[i] & 0x7F) << shift;
		if (!(p[i++] & 0x80)) {
			*pos = i;
			*out = v;
			return 0;
		}
	}
	return HB_EINVAL;
}

int hb_pb_skip(const unsigned char *p, size_t n, size_t *pos, unsigned wt)
{
	uint64_t v;

	switch (wt) {
	case HB_PB_VARINT:
		return hb_pb_varint(p, n, pos, &v);
	case HB_PB_I64:
		if (n - *pos < 8)
			return HB_EINVAL;
		*pos += 8;
		return 0;
	case WT_I32:
		if (n - *pos < 4)
			return HB_EINVAL;
		*pos += 4;
		return 0;
	case HB_PB_LEN:
		if (hb_pb_varint(p, n, pos, &v) || v > n - *pos)
			return HB_EINVAL;
		*pos += (size_t)v;
		return 0;
	default: /* groups (3, 4) are not used by HBase's messages; 6, 7 are invalid */
		return HB_EINVAL;
	}
}

int hb_pb_len(const unsigned char *p, size_t n, size_t *pos, const unsigned char **out, size_t *len)
{
	uint64_t v;

	if (hb_pb_varint(p, n, pos, &v) || v > n - *pos)
		return HB_EINVAL;
	*out = p + *pos;
	*len = (size_t)v;
	*pos += (size_t)v;
	return 0;
}

/* A varint at *pos: 0 when whole (read, *pos moved past it), 1 when its bytes are not all
 * there yet, -1 when no more bytes could make it valid. */
int hb_pb_varint_more(const unsigned char *p, size_t n, size_t *pos, uint64_t *v)
{
	size_t i;

	if (!hb_pb_varint(p, n, pos, v))
		return 0;
	for (i = *pos; i < n && i - *pos < 10; i++)
		if (!(p[i] & 0x80))
			return -1;
	return n - *pos < 10 ? 1 : -1;
}
