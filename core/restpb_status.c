/* /status/cluster as protobuf: StorageClusterStatus, read whole or as it arrives
 * (docs/hbase-wire.md §4.1). */
#include "restpb_status.h"
#include "pb.h"
#include "regioninfo.h"
#include "restpb.h"

#include <stdint.h>
#include <string.h>

static int oom(struct hb_error *err)
{
	return hb_error_set(err, HB_ENOMEM, "out of memory");
}

#define BAD(...)    hb_error_malformed(err, r->what, __VA_ARGS__)
#define PENDING_MAX HB_RESTPB_PENDING_MAX

/* ---- /status/cluster: StorageClusterStatus ---- */

void hb_statuspb_reader_init(struct hb_statuspb_reader *r, const void *p, size_t n,
                             const char *what)
{
	memset(r, 0, sizeof(*r));
	r->p = p;
	r->n = n;
	r->what = what;
}

const unsigned char *hb_statuspb_at(const struct hb_statuspb_reader *r)
{
	return r->node ? r->node + r->node_pos : r->p + r->pos;
}

/* A varint field's value into *out as the Java int32 or int64 it was (a negative int32 is
 * written sign-extended to 64 bits). */
static int pb_int(const unsigned char *p, size_t n, size_t *pos, unsigned wt, int64_t *out)
{
	uint64_t v;

	if (wt != HB_PB_VARINT || hb_pb_varint(p, n, pos, &v))
		return -1;
	*out = (int64_t)v;
	return 0;
}

/* A Node's fields but its regions: name 1 (required), startCode 2, requests 3, heapSizeMB 4,
 * maxHeapSizeMB 5; regions (6) are skipped here and read by hb_statuspb_next_region. */
static int status_node(struct hb_statuspb_reader *r, const unsigned char *p, size_t n,
                       struct hb_statuspb_node *out, struct hb_error *err)
{
	size_t pos = 0, i = r->nodes;
	int has_name = 0;

	memset(out, 0, sizeof(*out));
	out->index = i;
	while (pos < n) {
		uint64_t tag;
		unsigned field, wt;
		int64_t *dst = NULL;

		if (hb_pb_varint(p, n, &pos, &tag))
			return BAD("LiveNodes[%zu] is truncated", i);
		field = (unsigned)(tag >> 3);
		wt = (unsigned)(tag & 7);
		if (field == 1) {
			if (wt != HB_PB_LEN || hb_pb_len(p, n, &pos, &out->name, &out->name_len))
				return BAD("LiveNodes[%zu].name is not a string", i);
			if (memchr(out->name, 0, out->name_len))
				return BAD("LiveNodes[%zu].name contains a NUL character", i);
			has_name = 1;
			continue;
		}
		dst = field == 2   ? &out->start_code
		      : field == 3 ? &out->requests
		      : field == 4 ? &out->heap_mb
		      : field == 5 ? &out->max_heap_mb
		                   : NULL;
		if (dst ? pb_int(p, n, &pos, wt, dst)
		        : !field || (field == 6 && wt != HB_PB_LEN) || hb_pb_skip(p, n, &pos, wt))
			return BAD("LiveNodes[%zu] holds an invalid field", i);
	}
	if (!has_name)
		return BAD("LiveNodes[%zu].name is missing", i);
	return 0;
}

/* The summary fields at *pos: regions 3 (int32), requests 4 (int64), averageLoad 5 (double);
 * other fields passed over. -1 when the field is malformed or cut. */
static int summary_field(const unsigned char *p, size_t n, size_t *pos, unsigned field, unsigned wt,
                         int64_t *regions, int64_t *requests, double *average_load)
{
	if (field == 3 || field == 4)
		return pb_int(p, n, pos, wt, field == 3 ? regions : requests);
	if (field == 5) {
		uint64_t bits = 0;
		int k;

		if (wt != HB_PB_I64 || n - *pos < 8)
			return -1;
		for (k = 7; k >= 0; k--)
			bits = bits << 8 | p[*pos + (size_t)k];
		*pos += 8;
		memcpy(average_load, &bits, sizeof(bits));
		return 0;
	}
	return !field || hb_pb_skip(p, n, pos, wt) ? -1 : 0;
}

static int status_summary(struct hb_statuspb_reader *r, unsigned field, unsigned wt)
{
	return summary_field(r->p, r->n, &r->pos, field, wt, &r->regions, &r->requests,
	                     &r->average_load);
}

int hb_statuspb_next(struct hb_statuspb_reader *r, struct hb_statuspb_node *node,
                     const unsigned char **dead, size_t *dead_len, struct hb_error *err)
{
	r->node = NULL;
	while (r->pos < r->n) {
		uint64_t tag;
		unsigned field, wt;
		const unsigned char *v;
		size_t vl, at = r->pos;
		int rc;

		if (hb_pb_varint(r->p, r->n, &r->pos, &tag))
			return BAD("truncated or invalid protobuf at byte %zu", at);
		field = (unsigned)(tag >> 3);
		wt = (unsigned)(tag & 7);
		if (field != 1 && field != 2) {
			if (status_summary(r, field, wt))
				return BAD("truncated or invalid protobuf at byte %zu", at);
			continue;
		}
		if (wt != HB_PB_LEN)
			return BAD("%s is not length-delimited (byte %zu)",
			           field == 1 ? "LiveNodes" : "DeadNodes", at);
		if (hb_pb_len(r->p, r->n, &r->pos, &v, &vl))
			return BAD("truncated protobuf at byte %zu", at);
		if (field == 2) {
			if (memchr(v, 0, vl))
				return BAD("DeadNodes[%zu] contains a NUL character", r->dead);
			*dead = v;
			*dead_len = vl;
			r->dead++;
			return HB_STATUSPB_DEAD;
		}
		if ((rc = status_node(r, v, vl, node, err)))
			return rc;
		r->node = v;
		r->node_len = vl;
		r->node_pos = 0;
		r->node_regions = 0;
		r->nodes++;
		return HB_STATUSPB_NODE;
	}
	return 0;
}

/* One Region: name 1 (required bytes), stores 2, storefiles 3, storefileSizeMB 4,
 * memStoreSizeMB 5, readRequestsCount 7, writeRequestsCount 8; the other counters skipped. */
static int region_fields(const char *what, size_t i, size_t k, const unsigned char *p, size_t n,
                         struct hb_statuspb_region *out, struct hb_error *err)
{
	size_t pos = 0;
	int has_name = 0;

	memset(out, 0, sizeof(*out));
	while (pos < n) {
		uint64_t tag;
		unsigned field, wt;
		int64_t *dst;

		if (hb_pb_varint(p, n, &pos, &tag))
			return hb_error_malformed(err, what,
			                          "LiveNodes[%zu].Region[%zu] is truncated", i, k);
		field = (unsigned)(tag >> 3);
		wt = (unsigned)(tag & 7);
		if (field == 1) {
			if (wt != HB_PB_LEN || hb_pb_len(p, n, &pos, &out->name, &out->name_len))
				return hb_error_malformed(
				    err, what, "LiveNodes[%zu].Region[%zu].name is not bytes", i,
				    k);
			has_name = 1;
			continue;
		}
		dst = field == 2   ? &out->stores
		      : field == 3 ? &out->storefiles
		      : field == 4 ? &out->storefile_size_mb
		      : field == 5 ? &out->memstore_size_mb
		      : field == 7 ? &out->read_requests
		      : field == 8 ? &out->write_requests
		                   : NULL;
		if (dst ? pb_int(p, n, &pos, wt, dst) : !field || hb_pb_skip(p, n, &pos, wt))
			return hb_error_malformed(
			    err, what, "LiveNodes[%zu].Region[%zu] holds an invalid field", i, k);
	}
	if (!has_name)
		return hb_error_malformed(err, what, "LiveNodes[%zu].Region[%zu].name is missing",
		                          i, k);
	return 0;
}

static int status_region(struct hb_statuspb_reader *r, const unsigned char *p, size_t n,
                         struct hb_statuspb_region *out, struct hb_error *err)
{
	return region_fields(r->what, r->nodes - 1, r->node_regions, p, n, out, err);
}

int hb_statuspb_next_region(struct hb_statuspb_reader *r, struct hb_statuspb_region *out,
                            struct hb_error *err)
{
	while (r->node && r->node_pos < r->node_len) {
		uint64_t tag;
		const unsigned char *v;
		size_t vl;
		int rc;

		/* the Node was walked by status_node: its fields are whole */
		hb_pb_varint(r->node, r->node_len, &r->node_pos, &tag);
		if (tag != (6 << 3 | HB_PB_LEN)) {
			hb_pb_skip(r->node, r->node_len, &r->node_pos, (unsigned)(tag & 7));
			continue;
		}
		hb_pb_len(r->node, r->node_len, &r->node_pos, &v, &vl);
		if ((rc = status_region(r, v, vl, out, err)))
			return rc;
		r->node_regions++;
		return 1;
	}
	return 0;
}

/* ---- /status/cluster read as it arrives ---- */

#undef BAD
#define BAD(...) hb_error_malformed(err, s->what, __VA_ARGS__)

void hb_statuspb_stream_init(struct hb_statuspb_stream *s, const char *what,
                             const struct hb_statuspb_fns *fns)
{
	memset(s, 0, sizeof(*s));
	s->what = what;
	s->fns = fns;
	hb_buf_init(&s->pend, 0);
	hb_buf_init(&s->name, 0);
	hb_buf_init(&s->held, 0);
}

void hb_statuspb_stream_release(struct hb_statuspb_stream *s)
{
	hb_buf_release(&s->pend);
	hb_buf_release(&s->name);
	hb_buf_release(&s->held);
}

void hb_statuspb_stream_reset(struct hb_statuspb_stream *s)
{
	hb_buf_reset(&s->pend);
	hb_buf_reset(&s->held);
	s->seen = s->nodes = s->dead = 0;
	s->regions = s->requests = 0;
	s->average_load = 0;
	s->in_node = 0;
}

/* One Region of the current node (its name is known) handed on. */
static int stream_region(struct hb_statuspb_stream *s, const unsigned char *v, size_t vl,
                         struct hb_error *err)
{
	struct hb_statuspb_region reg;
	int rc;

	if ((rc = region_fields(s->what, s->nodes, s->node_regions, v, vl, &reg, err)))
		return rc;
	s->node_regions++;
	return s->fns->region ? s->fns->region(s->fns->ctx, &s->node, &reg, err) : 0;
}

/* The node's name: noted, said, and the regions held until it came handed on. */
static int stream_name(struct hb_statuspb_stream *s, const unsigned char *v, size_t vl,
                       struct hb_error *err)
{
	size_t pos = 0;
	int rc;

	hb_buf_reset(&s->name);
	if (hb_buf_add(&s->name, v, vl) || hb_buf_add(&s->name, "", 0))
		return oom(err);
	s->node.name = (const unsigned char *)s->name.data;
	s->node.name_len = vl;
	s->has_name = 1;
	if (s->fns->node && (rc = s->fns->node(s->fns->ctx, &s->node, err)))
		return rc;
	while (pos < s->held.len) {
		const unsigned char *r;
		size_t rl;

		/* held as their length then their bytes, all whole */
		hb_pb_len((const unsigned char *)s->held.data, s->held.len, &pos, &r, &rl);
		if ((rc = stream_region(s, r, rl, err)))
			return rc;
	}
	hb_buf_reset(&s->held);
	return 0;
}

/* A Region before its node's name: kept, behind its length. */
static int hold_region(struct hb_statuspb_stream *s, const unsigned char *v, size_t vl,
                       struct hb_error *err)
{
	unsigned char len[10];
	size_t k = 0, x = vl;

	do {
		len[k++] = (unsigned char)((x & 0x7F) | (x > 0x7F ? 0x80 : 0));
		x >>= 7;
	} while (x);
	return hb_buf_add(&s->held, len, k) || hb_buf_add(&s->held, v, vl) ? oom(err) : 0;
}

/* One field of the current node at p[*pos], the node's bytes from there being limit long and
 * the m - *pos bytes there are of them; hard: no more of them will come. 1 when the field's
 * bytes are not all there yet. The checks are status_node's and status_region's. */
static int node_field(struct hb_statuspb_stream *s, const unsigned char *p, size_t m, size_t *pos,
                      int hard, struct hb_error *err)
{
	size_t q = *pos, i = s->nodes, vl;
	const unsigned char *v;
	unsigned field, wt;
	uint64_t tag;
	int64_t *dst;
	int rc, more;

	if ((more = hb_pb_varint_more(p, m, &q, &tag))) {
		if (more > 0 && !hard)
			return 1;
		return BAD("LiveNodes[%zu] is truncated", i);
	}
	field = (unsigned)(tag >> 3);
	wt = (unsigned)(tag & 7);
	if (field == 1 || field == 6) {
		if (wt != HB_PB_LEN)
			return field == 1 ? BAD("LiveNodes[%zu].name is not a string", i)
			                  : BAD("LiveNodes[%zu] holds an invalid field", i);
		if (hb_pb_len(p, m, &q, &v, &vl)) {
			if (!hard)
				return 1;
			return field == 1 ? BAD("LiveNodes[%zu].name is not a string", i)
			                  : BAD("LiveNodes[%zu] holds an invalid field", i);
		}
		if (field == 1 && memchr(v, 0, vl))
			return BAD("LiveNodes[%zu].name contains a NUL character", i);
		rc = field == 1    ? stream_name(s, v, vl, err)
		     : s->has_name ? stream_region(s, v, vl, err)
		                   : hold_region(s, v, vl, err);
		if (rc)
			return rc;
	} else {
		dst = field == 2   ? &s->node.start_code
		      : field == 3 ? &s->node.requests
		      : field == 4 ? &s->node.heap_mb
		      : field == 5 ? &s->node.max_heap_mb
		                   : NULL;
		if (dst ? pb_int(p, m, &q, wt, dst) : !field || hb_pb_skip(p, m, &q, wt)) {
			/* a wire type that is wrong, a varint no byte can mend: invalid now */
			size_t t = q;
			uint64_t x;

			if (!hard && field &&
			    (wt == HB_PB_LEN || wt == HB_PB_I64 || wt == 5 ||
			     (wt == HB_PB_VARINT && hb_pb_varint_more(p, m, &t, &x) > 0)))
				return 1;
			return BAD("LiveNodes[%zu] holds an invalid field", i);
		}
	}
	s->node_left -= q - *pos;
	*pos = q;
	return 0;
}

/* The current node's end: its name must have come. */
static int node_end(struct hb_statuspb_stream *s, struct hb_error *err)
{
	int rc;

	if (!s->has_name)
		return BAD("LiveNodes[%zu].name is missing", s->nodes);
	if (s->fns->node && (rc = s->fns->node(s->fns->ctx, &s->node, err)))
		return rc;
	s->in_node = 0;
	s->nodes++;
	return 0;
}

/* A top-level field at p[*pos] of the m bytes there are: a node is entered once its tag and
 * length are read; the others are read whole. 1 when the field's bytes are not all there. */
static int top_field(struct hb_statuspb_stream *s, const unsigned char *p, size_t m, size_t *pos,
                     int hard, struct hb_error *err)
{
	size_t q = *pos, at = s->seen + *pos, vl;
	const unsigned char *v;
	unsigned field, wt;
	uint64_t tag, len;
	int rc, more;

	if ((more = hb_pb_varint_more(p, m, &q, &tag))) {
		if (more > 0 && !hard)
			return 1;
		return BAD("truncated or invalid protobuf at byte %zu", at);
	}
	field = (unsigned)(tag >> 3);
	wt = (unsigned)(tag & 7);
	if (field != 1 && field != 2) {
		if (summary_field(p, m, &q, field, wt, &s->regions, &s->requests,
		                  &s->average_load)) {
			if (!hard)
				return 1;
			return BAD("truncated or invalid protobuf at byte %zu", at);
		}
	} else if (wt != HB_PB_LEN) {
		return BAD("%s is not length-delimited (byte %zu)",
		           field == 1 ? "LiveNodes" : "DeadNodes", at);
	} else if (field == 1) {
		if ((more = hb_pb_varint_more(p, m, &q, &len))) {
			if (more > 0 && !hard)
				return 1;
			return BAD("truncated protobuf at byte %zu", at);
		}
		if (len > SIZE_MAX / 2)
			return BAD("truncated protobuf at byte %zu", at);
		s->in_node = 1;
		s->node_left = (size_t)len;
		s->node_at = at;
		s->node_regions = 0;
		s->has_name = 0;
		memset(&s->node, 0, sizeof(s->node));
		s->node.index = s->nodes;
		hb_buf_reset(&s->held);
	} else {
		if (hb_pb_len(p, m, &q, &v, &vl)) {
			if (!hard)
				return 1;
			return BAD("truncated protobuf at byte %zu", at);
		}
		if (memchr(v, 0, vl))
			return BAD("DeadNodes[%zu] contains a NUL character", s->dead);
		if (s->fns->dead && (rc = s->fns->dead(s->fns->ctx, v, vl, err)))
			return rc;
		s->dead++;
	}
	*pos = q;
	return 0;
}

/* Reads the whole fields among the m bytes at p (the body from s->seen on); *used: how many
 * bytes they took. final: the body ends after them. */
static int status_step(struct hb_statuspb_stream *s, const unsigned char *p, size_t m, int final,
                       size_t *used, struct hb_error *err)
{
	size_t pos = 0;
	int rc = 0;

	for (;;) {
		if (s->in_node && !s->node_left) {
			if ((rc = node_end(s, err)))
				break;
			continue;
		}
		if (pos == m)
			break;
		if (s->in_node) {
			size_t w = m - pos < s->node_left ? m - pos : s->node_left;

			/* the body ends inside the node: its length is past the end */
			if (final && w < s->node_left)
				return BAD("truncated protobuf at byte %zu", s->node_at);
			rc = node_field(s, p, pos + w, &pos,
			                w == s->node_left || m - pos > PENDING_MAX, err);
		} else {
			rc = top_field(s, p, m, &pos, final || m - pos > PENDING_MAX, err);
		}
		if (rc)
			break;
	}
	*used = pos;
	return rc > 0 ? 0 : rc;
}

static int status_feed(struct hb_statuspb_stream *s, const void *p, size_t m, int final,
                       struct hb_error *err)
{
	size_t used;
	int rc;

	if (!s->pend.len) {
		if ((rc = status_step(s, p, m, final, &used, err)))
			return rc;
		s->seen += used;
		if (used < m && hb_buf_add(&s->pend, (const char *)p + used, m - used))
			return oom(err);
		return 0;
	}
	if (m && hb_buf_add(&s->pend, p, m))
		return oom(err);
	if ((rc = status_step(s, (const unsigned char *)s->pend.data, s->pend.len, final, &used,
	                      err)))
		return rc;
	memmove(s->pend.data, s->pend.data + used, s->pend.len - used);
	s->pend.len -= used;
	s->seen += used;
	return 0;
}

int hb_statuspb_stream_push(struct hb_statuspb_stream *s, const void *p, size_t n,
                            struct hb_error *err)
{
	return n ? status_feed(s, p, n, 0, err) : 0;
}

int hb_statuspb_stream_end(struct hb_statuspb_stream *s, struct hb_error *err)
{
	int rc = status_feed(s, "", 0, 1, err);

	if (!rc && s->in_node) /* a node whose length runs past the body's end */
		rc = BAD("truncated protobuf at byte %zu", s->node_at);
	if (!rc && s->pend.len)
		rc = BAD("truncated or invalid protobuf at byte %zu", s->seen);
	return rc;
}
