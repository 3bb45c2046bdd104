/* Decoders for hbase:meta values: PBUF RegionInfo, raw TableState, region row keys. */
#include "regioninfo.h"
#include "cryptoload.h"

#include <inttypes.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Protobuf wire types. */
#define WT_I32 5

void hb_regioninfo_init(struct hb_regioninfo *ri)
{
	memset(ri, 0, sizeof(*ri));
}

void hb_regioninfo_release(struct hb_regioninfo *ri)
{
	free(ri->ns);
	free(ri->qualifier);
	free(ri->start);
	free(ri->end);
	hb_regioninfo_init(ri);
}

static int dup_view(unsigned char **dst, size_t *dst_len, const unsigned char *p, size_t n)
{
	unsigned char *c = malloc(n + 1);

	if (!c)
		return HB_ENOMEM;
	if (n)
		memcpy(c, p, n);
	c[n] = 0;
	free(*dst);
	*dst = c;
	if (dst_len)
		*dst_len = n;
	return 0;
}

static int decode_table_name(struct hb_regioninfo *ri, const unsigned char *p, size_t n,
                             struct hb_error *err)
{
	size_t pos = 0;
	int have_ns = 0, have_q = 0;

	while (pos < n) {
		uint64_t tag;
		const unsigned char *v;
		size_t vl;

		if (hb_pb_varint(p, n, &pos, &tag))
			return hb_error_set(err, HB_EINVAL, "bad field tag in TableName");
		if ((tag >> 3) == 1 || (tag >> 3) == 2) {
			if ((tag & 7) != HB_PB_LEN || hb_pb_len(p, n, &pos, &v, &vl))
				return hb_error_set(err, HB_EINVAL, "bad TableName field %u",
				                    (unsigned)(tag >> 3));
			if ((tag >> 3) == 1) {
				if (dup_view(&ri->ns, &ri->ns_len, v, vl))
					return hb_error_set(err, HB_ENOMEM, "out of memory");
				have_ns = 1;
			} else {
				if (dup_view(&ri->qualifier, &ri->qualifier_len, v, vl))
					return hb_error_set(err, HB_ENOMEM, "out of memory");
				have_q = 1;
			}
		} else if ((tag >> 3) == 0 || hb_pb_skip(p, n, &pos, (unsigned)(tag & 7))) {
			return hb_error_set(err, HB_EINVAL, "bad field in TableName");
		}
	}
	if (!have_ns || !have_q)
		return hb_error_set(err, HB_EINVAL, "TableName without %s",
		                    have_ns ? "qualifier" : "namespace");
	return 0;
}

int hb_regioninfo_decode(struct hb_regioninfo *out, const void *data, size_t n,
                         struct hb_error *err)
{
	const unsigned char *p = data;
	size_t pos = 4;
	int rc;

	hb_regioninfo_init(out);
	if (n < 4 || memcmp(p, "PBUF", 4))
		return hb_error_set(err, HB_EINVAL, "RegionInfo without PBUF magic");
	while (pos < n) {
		uint64_t tag, v;
		unsigned field, wt;
		const unsigned char *view;
		size_t vl;

		if (hb_pb_varint(p, n, &pos, &tag)) {
			rc = hb_error_set(err, HB_EINVAL, "truncated field tag at byte %zu", pos);
			goto fail;
		}
		field = (unsigned)(tag >> 3);
		wt = (unsigned)(tag & 7);
		if (field == 0 || tag >> 32) {
			rc = hb_error_set(err, HB_EINVAL, "invalid field number at byte %zu", pos);
			goto fail;
		}
		if (field == 1 || (field >= 5 && field <= 7)) {
			if (wt != HB_PB_VARINT || hb_pb_varint(p, n, &pos, &v)) {
				rc = hb_error_set(err, HB_EINVAL,
				                  "bad varint field %u in RegionInfo", field);
				goto fail;
			}
			if (field == 1) {
				out->region_id = v;
				out->has_region_id = 1;
			} else if (field == 5) {
				out->offline = v != 0;
			} else if (field == 6) {
				out->split = v != 0;
			} else {
				out->replica_id = (int)(int32_t)v;
			}
		} else if (field >= 2 && field <= 4) {
			if (wt != HB_PB_LEN || hb_pb_len(p, n, &pos, &view, &vl)) {
				rc = hb_error_set(err, HB_EINVAL,
				                  "bad length-delimited field %u in RegionInfo",
				                  field);
				goto fail;
			}
			if (field == 2) {
				rc = decode_table_name(out, view, vl, err);
				if (rc)
					goto fail;
				out->has_table = 1;
			} else if (dup_view(field == 3 ? &out->start : &out->end,
			                    field == 3 ? &out->start_len : &out->end_len, view,
			                    vl)) {
				rc = hb_error_set(err, HB_ENOMEM, "out of memory");
				goto fail;
			}
		} else if (hb_pb_skip(p, n, &pos, wt)) {
			rc = hb_error_set(err, HB_EINVAL, "bad unknown field %u (wire type %u)",
			                  field, wt);
			goto fail;
		}
	}
	if (!out->has_region_id || !out->has_table) {
		rc = hb_error_set(err, HB_EINVAL, "RegionInfo without %s",
		                  out->has_region_id ? "table_name" : "region_id");
		goto fail;
	}
	if ((!out->start && dup_view(&out->start, &out->start_len, p, 0)) ||
	    (!out->end && dup_view(&out->end, &out->end_len, p, 0))) {
		rc = hb_error_set(err, HB_ENOMEM, "out of memory");
		goto fail;
	}
	return 0;
fail:
	hb_regioninfo_release(out);
	return rc;
}

int hb_tablestate_decode(int *state, const void *data, size_t n, struct hb_error *err)
{
	const unsigned char *p = data;
	size_t pos = 0;
	int have = 0;

	while (pos < n) {
		uint64_t tag, v;

		if (hb_pb_varint(p, n, &pos, &tag) || (tag >> 3) == 0)
			return hb_error_set(err, HB_EINVAL, "malformed TableState");
		if (tag == 8) {
			if (hb_pb_varint(p, n, &pos, &v) || v > 3)
				return hb_error_set(err, HB_EINVAL, "malformed TableState state");
			*state = (int)v;
			have = 1;
		} else if (hb_pb_skip(p, n, &pos, (unsigned)(tag & 7))) {
			return hb_error_set(err, HB_EINVAL, "malformed TableState");
		}
	}
	if (!have)
		return hb_error_set(err, HB_EINVAL, "TableState without state");
	return 0;
}

const char *hb_tablestate_name(int state)
{
	static const char *const names[] = {"ENABLED", "DISABLED", "DISABLING", "ENABLING",
	                                    "ENABLING or DISABLING"};

	return state >= 0 && state < 5 ? names[state] : "UNKNOWN";
}

int hb_be64_decode(int64_t *out, const void *data, size_t n)
{
	const unsigned char *p = data;
	uint64_t v = 0;
	size_t i;

	if (n != 8)
		return HB_EINVAL;
	for (i = 0; i < 8; i++)
		v = v << 8 | p[i];
	*out = (int64_t)v;
	return 0;
}

int hb_region_name_parse(struct hb_region_name *out, const void *row, size_t n,
                         struct hb_error *err)
{
	const unsigned char *p = row, *first, *last, *q, *idend;
	uint64_t id = 0;
	size_t i;
	int rep = 0;

	memset(out, 0, sizeof(*out));
	first = memchr(p, ',', n);
	if (!first)
		return hb_error_set(err, HB_EINVAL, "region name without ','");
	/* The id follows the last ',' and runs to '.' (new format) or the end (old format). */
	last = NULL;
	for (i = n; i > (size_t)(first - p); i--)
		if (p[i - 1] == ',') {
			last = p + i - 1;
			break;
		}
	if (!last || last == first)
		return hb_error_set(err, HB_EINVAL, "region name without start key separator");
	q = last + 1;
	idend = q;
	while (idend < p + n && *idend >= '0' && *idend <= '9') {
		if (id > (UINT64_MAX - 9) / 10)
			return hb_error_set(err, HB_EINVAL, "region id too large");
		id = id * 10 + (uint64_t)(*idend - '0');
		idend++;
	}
	if (idend == q)
		return hb_error_set(err, HB_EINVAL, "region name without region id");
	if (idend < p + n && *idend == '_') {
		const unsigned char *h = idend + 1;

		for (i = 0; i < 4; i++) {
			int c = h + i < p + n ? h[i] : -1, d;

			if (c >= '0' && c <= '9')
				d = c - '0';
			else if (c >= 'A' && c <= 'F')
				d = c - 'A' + 10;
			else if (c >= 'a' && c <= 'f')
				d = c - 'a' + 10;
			else
				return hb_error_set(err, HB_EINVAL,
				                    "bad replica id in region name");
			rep = rep * 16 + d;
		}
		idend = h + 4;
	}
	if (idend < p + n) {
		/* ".encoded." */
		const unsigned char *e = idend + 1;

		if (*idend != '.' || p[n - 1] != '.' || (size_t)(p + n - e) < 1)
			return hb_error_set(err, HB_EINVAL, "bad encoded name in region name");
		out->encoded = e;
		out->encoded_len = (size_t)(p + n - 1 - e);
	}
	out->table = p;
	out->table_len = (size_t)(first - p);
	out->start = first + 1;
	out->start_len = (size_t)(last - first - 1);
	out->id = id;
	out->replica_id = rep;
	return 0;
}

/* hbase-common JenkinsHash.hash(key, 0): Bob Jenkins' lookup3 over little-endian bytes. */
static uint32_t rotl32(uint32_t v, int k)
{
	return v << k | v >> (32 - k);
}

static uint32_t le32(const unsigned char *k)
{
	return k[0] | (uint32_t)k[1] << 8 | (uint32_t)k[2] << 16 | (uint32_t)k[3] << 24;
}

static void mix(uint32_t *a, uint32_t *b, uint32_t *c)
{
	static const int rot[6] = {4, 6, 8, 16, 19, 4};
	uint32_t *v[3] = {a, b, c};
	int i;

	/* x -= z; x ^= rotl(z, r); z += y, rotating the roles (a,c,b) -> (b,a,c) -> (c,b,a) */
	for (i = 0; i < 6; i++) {
		uint32_t *x = v[i % 3], *z = v[(i + 2) % 3], *y = v[(i + 1) % 3];

		*x -= *z;
		*x ^= rotl32(*z, rot[i]);
		*z += *y;
	}
}

static void final(uint32_t *a, uint32_t *b, uint32_t *c)
{
	static const int rot[7] = {14, 11, 25, 16, 4, 14, 24};
	uint32_t *v[3] = {c, a, b};
	int i;

	/* x ^= y; x -= rotl(y, r) with (x, y) = (c,b), (a,c), (b,a), (c,b), ... */
	for (i = 0; i < 7; i++) {
		uint32_t *x = v[i % 3], *y = v[(i + 2) % 3];

		*x ^= *y;
		*x -= rotl32(*y, rot[i]);
	}
}

uint32_t hb_jenkins_hash(const void *data, size_t n, uint32_t initval)
{
	const unsigned char *k = data;
	uint32_t a, b, c;

	a = b = c = 0xdeadbeefu + (uint32_t)n + initval;
	while (n > 12) {
		a += le32(k);
		b += le32(k + 4);
		c += le32(k + 8);
		mix(&a, &b, &c);
		k += 12;
		n -= 12;
	}
	if (!n)
		return c;
	{
		unsigned char last[12] = {0};

		memcpy(last, k, n); /* the tail's missing bytes add nothing */
		a += le32(last);
		b += le32(last + 4);
		c += le32(last + 8);
	}
	final(&a, &b, &c);
	return c;
}

void hb_region_encoded_name_old(char out[12], const void *name, size_t n)
{
	int32_t h = (int32_t)hb_jenkins_hash(name, n, 0);

	/* Java's Math.abs keeps Integer.MIN_VALUE negative. */
	if (h == INT32_MIN)
		snprintf(out, 12, "%" PRId32, h);
	else
		snprintf(out, 12, "%" PRId32, h < 0 ? -h : h);
}

void hb_region_encoded_hex(char out[33], const unsigned char md[16])
{
	static const char hex[] = "0123456789abcdef";
	int i;

	for (i = 0; i < 16; i++) {
		out[2 * i] = hex[md[i] >> 4];
		out[2 * i + 1] = hex[md[i] & 15];
	}
	out[32] = '\0';
}

int hb_region_encoded_name(char out[33], const void *prefix, size_t n, struct hb_error *err)
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int mdlen = 0;

	if (!hb_libcrypto_ready())
		return hb_error_set(
		    err, HB_ENOMEM,
		    "cannot compute a region's encoded name: %s could not be loaded",
		    hb_libcrypto_name());
	if (!EVP_Digest(prefix, n, md, &mdlen, EVP_md5(), NULL) || mdlen != 16)
		HB_BUG("MD5 digest failed");
	hb_region_encoded_hex(out, md);
	return 0;
}
