/* Thrift's TBinaryProtocol (strict): bounds-checked reading and writing of its values,
 * messages, fields, lists and maps, with nothing of HBase in it. */
#include "tbinary.h"

#include <stdint.h>
#include <string.h>

#define STRICT_VERSION 0x80010000u
#define VERSION_MASK   0xffff0000u

/* ---- reading ---- */

void hb_thrift_rd_init(struct hb_thrift_rd *r, const void *p, size_t len)
{
	r->p = p;
	r->len = len;
	r->pos = 0;
}

static int truncated(struct hb_thrift_rd *r, size_t need, struct hb_error *err)
{
	return hb_error_set(
	    err, HB_ESERVER,
	    "malformed thrift reply: truncated at byte %zu (need %zu more, %zu left)", r->pos, need,
	    r->len - r->pos);
}

static int need(struct hb_thrift_rd *r, size_t n, struct hb_error *err)
{
	if (r->len - r->pos < n)
		return truncated(r, n, err);
	return 0;
}

static uint32_t be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static int read_u8(struct hb_thrift_rd *r, unsigned *out, struct hb_error *err)
{
	if (need(r, 1, err))
		return HB_ESERVER;
	*out = r->p[r->pos++];
	return 0;
}

int hb_thrift_read_i16(struct hb_thrift_rd *r, int16_t *out, struct hb_error *err)
{
	if (need(r, 2, err))
		return HB_ESERVER;
	*out = (int16_t)(uint16_t)((unsigned)r->p[r->pos] << 8 | r->p[r->pos + 1]);
	r->pos += 2;
	return 0;
}

int hb_thrift_read_i32(struct hb_thrift_rd *r, int32_t *out, struct hb_error *err)
{
	if (need(r, 4, err))
		return HB_ESERVER;
	*out = (int32_t)be32(r->p + r->pos);
	r->pos += 4;
	return 0;
}

int hb_thrift_read_i64(struct hb_thrift_rd *r, int64_t *out, struct hb_error *err)
{
	uint64_t v;

	if (need(r, 8, err))
		return HB_ESERVER;
	v = (uint64_t)be32(r->p + r->pos) << 32 | be32(r->p + r->pos + 4);
	*out = (int64_t)v;
	r->pos += 8;
	return 0;
}

int hb_thrift_read_bool(struct hb_thrift_rd *r, int *out, struct hb_error *err)
{
	unsigned v;

	if (read_u8(r, &v, err))
		return HB_ESERVER;
	*out = v != 0;
	return 0;
}

int hb_thrift_read_binary(struct hb_thrift_rd *r, const unsigned char **p, size_t *n,
                          struct hb_error *err)
{
	int32_t len;

	if (hb_thrift_read_i32(r, &len, err))
		return HB_ESERVER;
	if (len < 0)
		return hb_error_set(err, HB_ESERVER,
		                    "malformed thrift reply: negative length %ld at byte %zu",
		                    (long)len, r->pos - 4);
	if (need(r, (size_t)len, err))
		return HB_ESERVER;
	*p = r->p + r->pos;
	*n = (size_t)len;
	r->pos += (size_t)len;
	return 0;
}

int hb_thrift_read_msg_begin(struct hb_thrift_rd *r, const unsigned char **name, size_t *name_len,
                             int *type, int32_t *seqid, struct hb_error *err)
{
	int32_t v;

	if (hb_thrift_read_i32(r, &v, err))
		return HB_ESERVER;
	if (((uint32_t)v & VERSION_MASK) != STRICT_VERSION)
		return hb_error_set(err, HB_ESERVER,
		                    "malformed thrift reply: bad protocol version 0x%08lx (not a "
		                    "strict TBinaryProtocol message)",
		                    (unsigned long)(uint32_t)v);
	*type = (int)((uint32_t)v & 0xff);
	if (hb_thrift_read_binary(r, name, name_len, err))
		return HB_ESERVER;
	return hb_thrift_read_i32(r, seqid, err);
}

int hb_thrift_read_field(struct hb_thrift_rd *r, int *type, int16_t *id, struct hb_error *err)
{
	unsigned t;

	if (read_u8(r, &t, err))
		return HB_ESERVER;
	*type = (int)t;
	*id = 0;
	if (t == HB_TT_STOP)
		return 0;
	return hb_thrift_read_i16(r, id, err);
}

/* The smallest encoded size of one value of type t (to bound container counts). */
static size_t min_size(int t)
{
	switch (t) {
	case HB_TT_BOOL:
	case HB_TT_BYTE:
	case HB_TT_STRUCT:
		return 1;
	case HB_TT_I16:
		return 2;
	case HB_TT_I32:
	case HB_TT_STRING:
		return 4;
	case HB_TT_MAP:
		return 6;
	case HB_TT_SET:
	case HB_TT_LIST:
		return 5;
	case HB_TT_DOUBLE:
	case HB_TT_I64:
		return 8;
	default:
		return 0;
	}
}

static int bad_type(struct hb_thrift_rd *r, int t, struct hb_error *err)
{
	return hb_error_set(err, HB_ESERVER, "malformed thrift reply: unknown type %d at byte %zu",
	                    t, r->pos);
}

int hb_thrift_read_list_begin(struct hb_thrift_rd *r, int *elem_type, uint32_t *count,
                              struct hb_error *err)
{
	unsigned t;
	int32_t c;

	if (read_u8(r, &t, err) || hb_thrift_read_i32(r, &c, err))
		return HB_ESERVER;
	if (!min_size((int)t))
		return bad_type(r, (int)t, err);
	if (c < 0 || (uint64_t)(uint32_t)c * min_size((int)t) > r->len - r->pos)
		return hb_error_set(err, HB_ESERVER,
		                    "malformed thrift reply: list of %ld elements does not fit in "
		                    "the %zu bytes left",
		                    (long)c, r->len - r->pos);
	*elem_type = (int)t;
	*count = (uint32_t)c;
	return 0;
}

int hb_thrift_read_map_begin(struct hb_thrift_rd *r, int *ktype, int *vtype, uint32_t *count,
                             struct hb_error *err)
{
	unsigned kt, vt;
	int32_t c;

	if (read_u8(r, &kt, err) || read_u8(r, &vt, err) || hb_thrift_read_i32(r, &c, err))
		return HB_ESERVER;
	if (!min_size((int)kt))
		return bad_type(r, (int)kt, err);
	if (!min_size((int)vt))
		return bad_type(r, (int)vt, err);
	if (c < 0 ||
	    (uint64_t)(uint32_t)c * (min_size((int)kt) + min_size((int)vt)) > r->len - r->pos)
		return hb_error_set(err, HB_ESERVER,
		                    "malformed thrift reply: map of %ld entr%s does not fit in the "
		                    "%zu bytes left",
		                    (long)c, c == 1 ? "y" : "ies", r->len - r->pos);
	*ktype = (int)kt;
	*vtype = (int)vt;
	*count = (uint32_t)c;
	return 0;
}

static int skip_depth(struct hb_thrift_rd *r, int type, int depth, struct hb_error *err)
{
	const unsigned char *p;
	size_t n;
	uint32_t c, i;
	int kt, vt, ft;
	int16_t id;

	if (depth > HB_THRIFT_MAX_DEPTH)
		return hb_error_set(err, HB_ESERVER, "malformed thrift reply: nested too deeply");
	switch (type) {
	case HB_TT_BOOL:
	case HB_TT_BYTE:
	case HB_TT_I16:
	case HB_TT_I32:
	case HB_TT_I64:
	case HB_TT_DOUBLE:
		if (need(r, min_size(type), err))
			return HB_ESERVER;
		r->pos += min_size(type);
		return 0;
	case HB_TT_STRING:
		return hb_thrift_read_binary(r, &p, &n, err);
	case HB_TT_STRUCT:
		for (;;) {
			if (hb_thrift_read_field(r, &ft, &id, err))
				return HB_ESERVER;
			if (ft == HB_TT_STOP)
				return 0;
			if (skip_depth(r, ft, depth + 1, err))
				return HB_ESERVER;
		}
	case HB_TT_MAP:
		if (hb_thrift_read_map_begin(r, &kt, &vt, &c, err))
			return HB_ESERVER;
		for (i = 0; i < c; i++)
			if (skip_depth(r, kt, depth + 1, err) || skip_depth(r, vt, depth + 1, err))
				return HB_ESERVER;
		return 0;
	case HB_TT_SET:
	case HB_TT_LIST:
		if (hb_thrift_read_list_begin(r, &kt, &c, err))
			return HB_ESERVER;
		for (i = 0; i < c; i++)
			if (skip_depth(r, kt, depth + 1, err))
				return HB_ESERVER;
		return 0;
	default:
		return bad_type(r, type, err);
	}
}

int hb_thrift_skip(struct hb_thrift_rd *r, int type, struct hb_error *err)
{
	return skip_depth(r, type, 0, err);
}

/* ---- writing ---- */

int hb_thrift_write_i16(struct hb_buf *out, int16_t v)
{
	unsigned char b[2] = {(unsigned char)((uint16_t)v >> 8), (unsigned char)v};

	return hb_buf_add(out, b, 2);
}

int hb_thrift_write_i32(struct hb_buf *out, int32_t v)
{
	uint32_t u = (uint32_t)v;
	unsigned char b[4] = {(unsigned char)(u >> 24), (unsigned char)(u >> 16),
	                      (unsigned char)(u >> 8), (unsigned char)u};

	return hb_buf_add(out, b, 4);
}

int hb_thrift_write_i64(struct hb_buf *out, int64_t v)
{
	uint64_t u = (uint64_t)v;
	int rc = hb_thrift_write_i32(out, (int32_t)(uint32_t)(u >> 32));

	return rc ? rc : hb_thrift_write_i32(out, (int32_t)(uint32_t)u);
}

int hb_thrift_write_bool(struct hb_buf *out, int v)
{
	return hb_buf_addc(out, v ? 1 : 0);
}

int hb_thrift_write_binary(struct hb_buf *out, const void *p, size_t n)
{
	int rc;

	if (n > INT32_MAX)
		return HB_EINVAL;
	rc = hb_thrift_write_i32(out, (int32_t)n);
	return rc ? rc : hb_buf_add(out, p, n);
}

int hb_thrift_write_msg_begin(struct hb_buf *out, const char *name, int type, int32_t seqid)
{
	int rc = hb_thrift_write_i32(out, (int32_t)(STRICT_VERSION | (uint32_t)type));

	if (!rc)
		rc = hb_thrift_write_binary(out, name, strlen(name));
	return rc ? rc : hb_thrift_write_i32(out, seqid);
}

int hb_thrift_write_field(struct hb_buf *out, int type, int16_t id)
{
	int rc = hb_buf_addc(out, type);

	return rc ? rc : hb_thrift_write_i16(out, id);
}

int hb_thrift_write_stop(struct hb_buf *out)
{
	return hb_buf_addc(out, HB_TT_STOP);
}

int hb_thrift_write_list_begin(struct hb_buf *out, int elem_type, uint32_t count)
{
	int rc;

	if (count > INT32_MAX)
		return HB_EINVAL;
	rc = hb_buf_addc(out, elem_type);
	return rc ? rc : hb_thrift_write_i32(out, (int32_t)count);
}

int hb_thrift_write_map_begin(struct hb_buf *out, int ktype, int vtype, uint32_t count)
{
	int rc;

	if (count > INT32_MAX)
		return HB_EINVAL;
	rc = hb_buf_addc(out, ktype);
	if (!rc)
		rc = hb_buf_addc(out, vtype);
	return rc ? rc : hb_thrift_write_i32(out, (int32_t)count);
}
