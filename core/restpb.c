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
		return BAD("truncated chunk length at byte %zu", r->base + r->pos);
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
		return BAD("chunk at byte %zu does not end where its length (%u) says",
		           r->base + r->pos, low);
	if (fits > 1)
		return hb_error_set(err, HB_EINVAL,
		                    "malformed response from %s: the chunk at byte %zu cannot be "
		                    "framed (64 KiB or more: its 16-bit length wrapped)",
		                    r->what, r->base + r->pos);
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
		return BAD("truncated Row at byte %zu", r->base + r->pos);
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

/* A varint at *pos: 0 when whole (read, *pos moved past it), 1 when its bytes are not all
 * there yet, -1 when no more bytes could make it valid. */
static int varint_more(const unsigned char *p, size_t n, size_t *pos, uint64_t *v)
{
	size_t i;

	if (!hb_pb_varint(p, n, pos, v))
		return 0;
	for (i = *pos; i < n && i - *pos < 10; i++)
		if (!(p[i] & 0x80))
			return -1;
	return n - *pos < 10 ? 1 : -1;
}

/* The longest rest a stream keeps waiting for a field to be whole; past it the field is read
 * as it is, to say why it is malformed (no field HBase writes comes near). */
#define PENDING_MAX HB_TABLEINFO_PENDING_MAX

void hb_scanpb_stream_init(struct hb_scanpb_stream *s, const char *what)
{
	memset(s, 0, sizeof(*s));
	s->what = what;
	hb_buf_init(&s->pend, 0);
}

void hb_scanpb_stream_release(struct hb_scanpb_stream *s)
{
	hb_buf_release(&s->pend);
}

void hb_scanpb_stream_reset(struct hb_scanpb_stream *s)
{
	hb_buf_reset(&s->pend);
	s->seen = s->rows = 0;
	s->walking = s->checking = 0;
}

/*
 * Advances the walk over the chunk whose length field is at p[0] (frame_chunk's walk, which
 * has the whole body), over the m bytes there are; final: no more will come. Returns 1 when
 * the walk has stopped (its outcome is s->fits and s->found), 0 when it waits for bytes.
 */
static int scan_walk(struct hb_scanpb_stream *s, const unsigned char *p, size_t m, int final)
{
	unsigned low = (unsigned)p[0] << 8 | p[1];

	if (!s->walking) {
		s->walking = 1;
		s->at = 2;
		s->fits = s->found = 0;
		s->checking = low == 0; /* an empty CellSet */
		s->check = 2;
	}
	for (;;) {
		size_t pos, vl;
		uint64_t v;
		int more;

		if (s->checking) {
			/* an end that agrees with the length, followed by the body's end or a
			 * chunk: chunk_opens needs the three bytes after it */
			if (m - s->check < 3 && !final)
				return 0;
			if (m - s->check >= 3 ? p[s->check + 2] == 0x0a : s->check == m) {
				s->found = s->check;
				s->fits++;
			}
			s->checking = 0;
		}
		if (s->at >= m)
			return final;
		if (p[s->at] != 0x0a)
			return 1;
		pos = s->at + 1;
		more = varint_more(p, m, &pos, &v);
		if (more < 0)
			return 1;
		if (more > 0 || v > m - pos) {
			if (final)
				return 1;
			/* a Row longer than any HBase writes: frame what there is */
			if (m - s->at <= PENDING_MAX)
				return 0;
			return 1;
		}
		vl = (size_t)v;
		s->at = pos + vl;
		if (((s->at - 2) & 0xFFFF) == low) {
			s->checking = 1;
			s->check = s->at;
		}
	}
}

/* Reads the chunks whose framing is settled among the m bytes at p (the body from s->seen
 * on), handing their rows to fn; *used: the bytes of the chunks read. */
static int scan_step(struct hb_scanpb_stream *s, const unsigned char *p, size_t m, int final,
                     size_t *used, hb_scanpb_row_fn fn, void *ctx, struct hb_error *err)
{
	size_t off = 0;

	*used = 0;
	while (off < m) {
		struct hb_scanpb_reader rd;
		const unsigned char *key;
		size_t key_len;
		int rc;

		if (m - off < 2) {
			if (!final)
				break;
			return hb_error_malformed(
			    err, s->what, "truncated chunk length at byte %zu", s->seen + off);
		}
		if (!scan_walk(s, p + off, m - off, final))
			break;
		s->walking = 0;
		if (!s->fits)
			return hb_error_malformed(err, s->what,
			                          "chunk at byte %zu does not end where its length "
			                          "(%u) says",
			                          s->seen + off,
			                          (unsigned)p[off] << 8 | p[off + 1]);
		if (s->fits > 1)
			return hb_error_set(
			    err, HB_EINVAL,
			    "malformed response from %s: the chunk at byte %zu cannot "
			    "be framed (64 KiB or more: its 16-bit length wrapped)",
			    s->what, s->seen + off);
		hb_scanpb_reader_init(&rd, p + off, s->found, s->what);
		rd.pos = 2;
		rd.chunk_end = s->found;
		rd.rows = s->rows;
		rd.base = s->seen + off;
		while ((rc = hb_scanpb_next_row(&rd, &key, &key_len, err)) == 1) {
			if ((rc = fn(ctx, &rd, key, key_len, err)))
				break;
		}
		s->rows = rd.rows;
		if (rc)
			return rc;
		off += s->found;
		*used = off;
	}
	return 0;
}

/* Reads the m bytes at p after the pending ones, keeping what is not read yet. */
static int scan_feed(struct hb_scanpb_stream *s, const void *p, size_t m, int final,
                     hb_scanpb_row_fn fn, void *ctx, struct hb_error *err)
{
	size_t used;
	int rc;

	if (!s->pend.len) {
		/* read in place; only the rest is copied */
		if ((rc = scan_step(s, p, m, final, &used, fn, ctx, err)))
			return rc;
		s->seen += used;
		if (used < m && hb_buf_add(&s->pend, (const char *)p + used, m - used))
			return oom(err);
		return 0;
	}
	if (m && hb_buf_add(&s->pend, p, m))
		return oom(err);
	if ((rc = scan_step(s, (const unsigned char *)s->pend.data, s->pend.len, final, &used, fn,
	                    ctx, err)))
		return rc;
	memmove(s->pend.data, s->pend.data + used, s->pend.len - used);
	s->pend.len -= used;
	s->seen += used;
	return 0;
}

int hb_scanpb_stream_push(struct hb_scanpb_stream *s, const void *p, size_t n, hb_scanpb_row_fn fn,
                          void *ctx, struct hb_error *err)
{
	return n ? scan_feed(s, p, n, 0, fn, ctx, err) : 0;
}

int hb_scanpb_stream_end(struct hb_scanpb_stream *s, hb_scanpb_row_fn fn, void *ctx,
                         struct hb_error *err)
{
	return scan_feed(s, "", 0, 1, fn, ctx, err);
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

		if (wt != WT_I64 || n - *pos < 8)
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
			if (wt != WT_LEN || hb_pb_len(p, n, &pos, &out->name, &out->name_len))
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

	if ((more = varint_more(p, m, &q, &tag))) {
		if (more > 0 && !hard)
			return 1;
		return BAD("LiveNodes[%zu] is truncated", i);
	}
	field = (unsigned)(tag >> 3);
	wt = (unsigned)(tag & 7);
	if (field == 1 || field == 6) {
		if (wt != WT_LEN)
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
			    (wt == WT_LEN || wt == WT_I64 || wt == 5 ||
			     (wt == WT_VARINT && varint_more(p, m, &t, &x) > 0)))
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

	if ((more = varint_more(p, m, &q, &tag))) {
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
	} else if (wt != WT_LEN) {
		return BAD("%s is not length-delimited (byte %zu)",
		           field == 1 ? "LiveNodes" : "DeadNodes", at);
	} else if (field == 1) {
		if ((more = varint_more(p, m, &q, &len))) {
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
