/* Decoders of the REST gateway's protobuf bodies: TableInfo, CellSet chunks, a whole CellSet
 * and StorageClusterStatus (docs/hbase-wire.md §1.1, §3.1, §4.1). */
#include "restpb.h"
#include "key.h"
#include "regioninfo.h"

#include <string.h>

#define WT_VARINT 0
#define WT_I64    1
#define WT_LEN    2

#define BAD(...) hb_error_malformed(err, r->what, __VA_ARGS__)

static int oom(struct hb_error *err)
{
	return hb_error_set(err, HB_ENOMEM, "out of memory");
}

void hb_tableinfo_reader_init(struct hb_tableinfo_reader *r, const void *p, size_t n,
                              const char *what, const char *table)
{
	memset(r, 0, sizeof(*r));
	r->p = p;
	r->n = n;
	r->what = what;
	r->table = table;
	hb_buf_init(&r->start, 0);
	hb_buf_init(&r->end, 0);
	hb_buf_init(&r->loc, 0);
	hb_buf_init(&r->name, 0);
}

void hb_tableinfo_reader_release(struct hb_tableinfo_reader *r)
{
	hb_buf_release(&r->start);
	hb_buf_release(&r->end);
	hb_buf_release(&r->loc);
	hb_buf_release(&r->name);
}

/* "ns:t" as HBase names it: the default namespace is left out. */
static const void *unqualified(const void *t, size_t *n)
{
	if (*n > 8 && !memcmp(t, "default:", 8)) {
		*n -= 8;
		return (const char *)t + 8;
	}
	return t;
}

/* The message's name field must be the table asked for. */
static int check_table(struct hb_tableinfo_reader *r, const unsigned char *v, size_t vl,
                       struct hb_error *err)
{
	size_t gn = vl, tn = strlen(r->table);
	const void *g = unqualified(v, &gn), *t = unqualified(r->table, &tn);
	struct hb_buf got = HB_BUF_INIT, want = HB_BUF_INIT;
	int rc;

	if (gn == tn && (!gn || !memcmp(g, t, gn)))
		return 0;
	if (hb_tsb_append(&got, v, vl) || hb_buf_add(&got, "", 0) ||
	    hb_tsb_append(&want, r->table, strlen(r->table)) || hb_buf_add(&want, "", 0))
		rc = oom(err);
	else
		rc = BAD("the regions are of table '%.199s', not of '%.199s'", got.data, want.data);
	hb_buf_release(&got);
	hb_buf_release(&want);
	return rc;
}

static int set(struct hb_buf *b, const unsigned char *v, size_t vl)
{
	hb_buf_reset(b);
	return hb_buf_add(b, v, vl) || hb_buf_add(b, "", 0);
}

/* One TableInfo.Region: name 1, startKey 2, endKey 3, id 4 (int64), location 5. */
static int decode_region(struct hb_tableinfo_reader *r, const unsigned char *p, size_t n,
                         struct hb_region *out, struct hb_error *err)
{
	size_t pos = 0, i = r->i;
	int has_s = 0, has_e = 0, has_loc = 0, has_name = 0;
	uint64_t id = 0;

	while (pos < n) {
		uint64_t tag;
		unsigned field, wt;
		const unsigned char *v;
		size_t vl;

		if (hb_pb_varint(p, n, &pos, &tag))
			return BAD("Region[%zu] is truncated", i);
		field = (unsigned)(tag >> 3);
		wt = (unsigned)(tag & 7);
		if (field >= 1 && field <= 5 && field != 4) {
			static const char *const names[] = {"",       "name", "startKey",
			                                    "endKey", "",     "location"};
			int *has = field == 1   ? &has_name
			           : field == 2 ? &has_s
			           : field == 3 ? &has_e
			                        : &has_loc;
			struct hb_buf *dst = field == 1   ? &r->name
			                     : field == 2 ? &r->start
			                     : field == 3 ? &r->end
			                                  : &r->loc;

			if (wt != WT_LEN)
				return BAD("Region[%zu].%s is not length-delimited", i,
				           names[field]);
			if (hb_pb_len(p, n, &pos, &v, &vl))
				return BAD("Region[%zu] is truncated", i);
			if (set(dst, v, vl))
				return oom(err);
			*has = 1;
		} else if (field == 4) {
			if (wt != WT_VARINT)
				return BAD("Region[%zu].id is not a varint", i);
			if (hb_pb_varint(p, n, &pos, &id))
				return BAD("Region[%zu] is truncated", i);
			/* A regionId is a non-negative Java long (int64: negative is 10 bytes). */
			if (id > INT64_MAX)
				return BAD("Region[%zu].id is negative", i);
		} else if (!field || hb_pb_skip(p, n, &pos, wt)) {
			return BAD("Region[%zu] holds an invalid field", i);
		}
	}
	/* HBase always sets both keys, empty for the table's first and last bounds. */
	if (!has_s || !has_e)
		return BAD("Region[%zu].%s is missing", i, has_s ? "endKey" : "startKey");
	if (has_loc && memchr(r->loc.data, 0, r->loc.len))
		return BAD("Region[%zu].location contains a NUL character", i);
	memset(out, 0, sizeof(*out));
	out->start = (unsigned char *)r->start.data;
	out->start_len = r->start.len;
	out->end = (unsigned char *)r->end.data;
	out->end_len = r->end.len;
	if (has_name) {
		out->name = (unsigned char *)r->name.data;
		out->name_len = r->name.len;
	}
	out->server = has_loc && r->loc.len ? r->loc.data : NULL;
	out->id = id;
	return 0;
}

int hb_tableinfo_next(struct hb_tableinfo_reader *r, struct hb_region *out, struct hb_error *err)
{
	/* HBase always writes the required name first, so an empty body is not its answer. */
	if (!r->n)
		return BAD("empty body");
	while (r->pos < r->n) {
		uint64_t tag;
		unsigned field, wt;
		const unsigned char *v;
		size_t vl, at = r->pos;
		int rc;

		if (hb_pb_varint(r->p, r->n, &r->pos, &tag))
			return BAD("truncated or invalid protobuf at byte %zu", r->base + at);
		field = (unsigned)(tag >> 3);
		wt = (unsigned)(tag & 7);
		if (field == 1 || field == 2) {
			if (wt != WT_LEN)
				return BAD("%s is not length-delimited (byte %zu)",
				           field == 1 ? "name" : "Region", r->base + at);
			if (hb_pb_len(r->p, r->n, &r->pos, &v, &vl))
				return BAD("truncated protobuf at byte %zu", r->base + at);
			if (field == 1) {
				if (r->table && (rc = check_table(r, v, vl, err)))
					return rc;
				continue;
			}
			if ((rc = decode_region(r, v, vl, out, err)))
				return rc;
			r->i++;
			return 1;
		}
		if (!field || hb_pb_skip(r->p, r->n, &r->pos, wt))
			return BAD("truncated or invalid protobuf at byte %zu", r->base + at);
	}
	return 0;
}

size_t hb_tableinfo_whole(const void *p, size_t n)
{
	size_t pos = 0, whole = 0;
	uint64_t tag;

	while (pos < n && !hb_pb_varint(p, n, &pos, &tag) &&
	       !hb_pb_skip(p, n, &pos, (unsigned)(tag & 7)) && tag >> 3)
		whole = pos;
	return whole;
}

void hb_tableinfo_stream_init(struct hb_tableinfo_stream *s, const char *what, const char *table)
{
	hb_tableinfo_reader_init(&s->rd, NULL, 0, what, table);
	hb_buf_init(&s->pend, 0);
	s->seen = 0;
}

void hb_tableinfo_stream_release(struct hb_tableinfo_stream *s)
{
	hb_tableinfo_reader_release(&s->rd);
	hb_buf_release(&s->pend);
}

void hb_tableinfo_stream_reset(struct hb_tableinfo_stream *s)
{
	hb_buf_reset(&s->pend);
	s->seen = 0;
	s->rd.i = 0;
}

/* Reads the n bytes at p (whole fields, or whatever is left at the end) as the body's bytes
 * from s->seen on. */
static int stream_read(struct hb_tableinfo_stream *s, const void *p, size_t n, hb_tableinfo_fn fn,
                       void *ctx, struct hb_error *err)
{
	struct hb_region reg;
	int rc;

	s->rd.p = p;
	s->rd.n = n;
	s->rd.pos = 0;
	s->rd.base = s->seen;
	while ((rc = hb_tableinfo_next(&s->rd, &reg, err)) == 1)
		if ((rc = fn(ctx, &reg, err)))
			break;
	s->rd.p = NULL;
	s->rd.n = 0;
	return rc;
}

int hb_tableinfo_stream_push(struct hb_tableinfo_stream *s, const void *p, size_t n,
                             hb_tableinfo_fn fn, void *ctx, struct hb_error *err)
{
	size_t whole;
	int rc;

	if (hb_buf_add(&s->pend, p, n))
		return oom(err);
	whole = hb_tableinfo_whole(s->pend.data, s->pend.len);
	if (!whole)
		return s->pend.len > HB_TABLEINFO_PENDING_MAX
		           ? stream_read(s, s->pend.data, s->pend.len, fn, ctx, err)
		           : 0;
	if ((rc = stream_read(s, s->pend.data, whole, fn, ctx, err)))
		return rc;
	memmove(s->pend.data, s->pend.data + whole, s->pend.len - whole);
	s->pend.len -= whole;
	s->seen += whole;
	return 0;
}

int hb_tableinfo_stream_end(struct hb_tableinfo_stream *s, hb_tableinfo_fn fn, void *ctx,
                            struct hb_error *err)
{
	/* nothing at all: the reader's "empty body" */
	if (!s->pend.len && !s->seen)
		return stream_read(s, "", 0, fn, ctx, err);
	return s->pend.len ? stream_read(s, s->pend.data, s->pend.len, fn, ctx, err) : 0;
}

/* ---- Stateless scans: CellSet chunks behind a 16-bit length ---- */

#undef BAD
#define BAD(...) hb_error_malformed(err, r->what, __VA_ARGS__)

void hb_scanpb_reader_init(struct hb_scanpb_reader *r, const void *p, size_t n, const char *what)
{
	memset(r, 0, sizeof(*r));
	r->p = p;
	r->n = n;
	r->what = what;
}

/* Whether [at, at + 3) could open a chunk: a length then a CellSet's first Row field (tag
 * 0x0a). ProtobufStreamingOutput writes a chunk only for a non-empty batch of rows. */
static int chunk_opens(const unsigned char *p, size_t n, size_t at)
{
	return n - at >= 3 && p[at + 2] == 0x0a;
}

/* Finds the end of the chunk whose length field is at *pos (so *pos + 2 starts its CellSet):
 * walks its Row fields and keeps each end that agrees with the 16-bit length and is followed
 * by the body's end or another chunk. */
static int frame_chunk(struct hb_scanpb_reader *r, struct hb_error *err)
{
	size_t start = r->pos + 2, at = start, found = 0, fits = 0;
	unsigned low;

	if (r->n - r->pos < 2)
		return BAD("truncated chunk length at byte %zu", r->pos);
	low = (unsigned)r->p[r->pos] << 8 | r->p[r->pos + 1];
	if (low == 0 && (r->n == start || chunk_opens(r->p, r->n, start))) {
		found = start; /* an empty CellSet (a batch of no rows) */
		fits++;
	}
	while (at < r->n && r->p[at] == 0x0a) {
		const unsigned char *v;
		size_t vl;

		at++;
		if (hb_pb_len(r->p, r->n, &at, &v, &vl))
			break;
		if (((at - start) & 0xFFFF) == low && (at == r->n || chunk_opens(r->p, r->n, at))) {
			found = at;
			fits++;
		}
	}
	if (!fits)
		return BAD("chunk at byte %zu does not end where its length (%u) says", r->pos,
		           low);
	if (fits > 1)
		return hb_error_set(err, HB_EINVAL,
		                    "malformed response from %s: the chunk at byte %zu cannot be "
		                    "framed (64 KiB or more: its 16-bit length wrapped)",
		                    r->what, r->pos);
	r->pos = start;
	r->chunk_end = found;
	return 0;
}

int hb_cellsetpb_reader_init(struct hb_scanpb_reader *r, const void *p, size_t n, const char *what,
                             struct hb_error *err)
{
	size_t at = 0;

	hb_scanpb_reader_init(r, p, n, what);
	/* HBase answers 204 (a scanner) or 404 (a row) where there is no row: a 200 has one */
	if (!n)
		return BAD("empty body");
	while (at < n) {
		const unsigned char *v;
		size_t vl, field = at;

		if (r->p[at] != 0x0a) {
			r->n = 0;
			return BAD("the field at byte %zu is not a Row", field);
		}
		at++;
		if (hb_pb_len(r->p, n, &at, &v, &vl)) {
			r->n = 0;
			return BAD("truncated Row at byte %zu", field);
		}
	}
	r->chunk_end = n; /* one chunk: the whole body */
	return 0;
}

int hb_scanpb_next_row(struct hb_scanpb_reader *r, const unsigned char **key, size_t *key_len,
                       struct hb_error *err)
{
	const unsigned char *row;
	size_t row_len, pos = 0;
	int has_key = 0;
	int rc;

	while (r->pos == r->chunk_end) {
		if (r->pos == r->n)
			return 0;
		if ((rc = frame_chunk(r, err)))
			return rc;
	}
	/* frame_chunk saw Row fields (tag 0x0a, a length in bounds) up to chunk_end */
	r->pos++;
	if (hb_pb_len(r->p, r->chunk_end, &r->pos, &row, &row_len))
		return BAD("truncated Row at byte %zu", r->pos);
	*key = NULL;
	*key_len = 0;
	while (pos < row_len) {
		uint64_t tag;
		const unsigned char *v;
		size_t vl;

		if (hb_pb_varint(row, row_len, &pos, &tag))
			return BAD("Row[%zu] is truncated", r->rows);
		if (tag == (1 << 3 | WT_LEN)) {
			if (hb_pb_len(row, row_len, &pos, &v, &vl))
				return BAD("Row[%zu] is truncated", r->rows);
			*key = v;
			*key_len = vl;
			has_key = 1;
		} else if (!(tag >> 3) || hb_pb_skip(row, row_len, &pos, (unsigned)(tag & 7))) {
			return BAD("Row[%zu] holds an invalid field", r->rows);
		}
	}
	if (!has_key)
		return BAD("Row[%zu].key is missing", r->rows);
	if (!*key)
		*key = (const unsigned char *)"";
	r->row = row;
	r->row_len = row_len;
	r->row_pos = 0;
	r->rows++;
	return 1;
}

int hb_scanpb_next_cell(struct hb_scanpb_reader *r, struct hb_pb_cell *out, struct hb_error *err)
{
	size_t i = r->rows ? r->rows - 1 : 0;

	while (r->row && r->row_pos < r->row_len) {
		uint64_t tag;
		const unsigned char *c;
		size_t cl, pos = 0;
		int has_col = 0;

		/* the Row was checked by hb_scanpb_next_row: its fields are whole */
		hb_pb_varint(r->row, r->row_len, &r->row_pos, &tag);
		if (tag != (2 << 3 | WT_LEN)) {
			hb_pb_skip(r->row, r->row_len, &r->row_pos, (unsigned)(tag & 7));
			continue;
		}
		hb_pb_len(r->row, r->row_len, &r->row_pos, &c, &cl);
		memset(out, 0, sizeof(*out));
		out->column = out->value = (const unsigned char *)"";
		while (pos < cl) {
			const unsigned char *v;
			size_t vl;
			uint64_t t;

			if (hb_pb_varint(c, cl, &pos, &tag))
				return BAD("Row[%zu] has a truncated Cell", i);
			if (tag == (2 << 3 | WT_LEN) || tag == (4 << 3 | WT_LEN)) {
				if (hb_pb_len(c, cl, &pos, &v, &vl))
					return BAD("Row[%zu] has a truncated Cell", i);
				if (tag >> 3 == 2) {
					out->column = v;
					out->column_len = vl;
					has_col = 1;
				} else {
					out->value = v;
					out->value_len = vl;
				}
			} else if (tag == (3 << 3 | WT_VARINT)) {
				if (hb_pb_varint(c, cl, &pos, &t))
					return BAD("Row[%zu] has a truncated Cell", i);
				out->timestamp = (int64_t)t;
			} else if (!(tag >> 3) || hb_pb_skip(c, cl, &pos, (unsigned)(tag & 7))) {
				return BAD("Row[%zu] has a Cell with an invalid field", i);
			}
		}
		if (!has_col)
			return BAD("Row[%zu] has a Cell without a column", i);
		return 1;
	}
	return 0;
}

int hb_scanpb_check(const void *p, size_t n, const char *what, struct hb_error *err)
{
	struct hb_scanpb_reader rd;
	const unsigned char *key;
	size_t key_len;
	int rc;

	hb_scanpb_reader_init(&rd, p, n, what);
	while ((rc = hb_scanpb_next_row(&rd, &key, &key_len, err)) == 1) {
		struct hb_pb_cell cell;

		while ((rc = hb_scanpb_next_cell(&rd, &cell, err)) == 1)
			;
		if (rc)
			return rc;
	}
	return rc;
}

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

	if (wt != WT_VARINT || hb_pb_varint(p, n, pos, &v))
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
	while (pos < n) {
		uint64_t tag;
		unsigned field, wt;
		int64_t *dst = NULL;

		if (hb_pb_varint(p, n, &pos, &tag))
			return BAD("LiveNodes[%zu] is truncated", i);
		field = (unsigned)(tag >> 3);
		wt = (unsigned)(tag & 7);
		if (field == 1) {
			if (wt != WT_LEN || hb_pb_len(p, n, &pos, &out->name, &out->name_len))
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
		        : !field || (field == 6 && wt != WT_LEN) || hb_pb_skip(p, n, &pos, wt))
			return BAD("LiveNodes[%zu] holds an invalid field", i);
	}
	if (!has_name)
		return BAD("LiveNodes[%zu].name is missing", i);
	return 0;
}

/* The summary fields: regions 3 (int32), requests 4 (int64), averageLoad 5 (double). */
static int status_summary(struct hb_statuspb_reader *r, unsigned field, unsigned wt)
{
	if (field == 3 || field == 4)
		return pb_int(r->p, r->n, &r->pos, wt, field == 3 ? &r->regions : &r->requests);
	if (field == 5) {
		uint64_t bits = 0;
		int k;

		if (wt != WT_I64 || r->n - r->pos < 8)
			return -1;
		for (k = 7; k >= 0; k--)
			bits = bits << 8 | r->p[r->pos + (size_t)k];
		r->pos += 8;
		memcpy(&r->average_load, &bits, sizeof(bits));
		return 0;
	}
	return !field || hb_pb_skip(r->p, r->n, &r->pos, wt) ? -1 : 0;
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
		if (wt != WT_LEN)
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
static int status_region(struct hb_statuspb_reader *r, const unsigned char *p, size_t n,
                         struct hb_statuspb_region *out, struct hb_error *err)
{
	size_t pos = 0, i = r->nodes - 1, k = r->node_regions;
	int has_name = 0;

	memset(out, 0, sizeof(*out));
	while (pos < n) {
		uint64_t tag;
		unsigned field, wt;
		int64_t *dst;

		if (hb_pb_varint(p, n, &pos, &tag))
			return BAD("LiveNodes[%zu].Region[%zu] is truncated", i, k);
		field = (unsigned)(tag >> 3);
		wt = (unsigned)(tag & 7);
		if (field == 1) {
			if (wt != WT_LEN || hb_pb_len(p, n, &pos, &out->name, &out->name_len))
				return BAD("LiveNodes[%zu].Region[%zu].name is not bytes", i, k);
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
			return BAD("LiveNodes[%zu].Region[%zu] holds an invalid field", i, k);
	}
	if (!has_name)
		return BAD("LiveNodes[%zu].Region[%zu].name is missing", i, k);
	return 0;
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
		if (tag != (6 << 3 | WT_LEN)) {
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
