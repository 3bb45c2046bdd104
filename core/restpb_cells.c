/* CellSet as protobuf: a stateless scan's chunks behind a 16-bit length, and the one CellSet of a
 * row GET or scanner batch (docs/hbase-wire.md §1.1, §3.1). */
#include "restpb_cells.h"
#include "pb.h"
#include "regioninfo.h"
#include "restpb.h"

#include <stdint.h>
#include <string.h>

static int oom(struct hb_error *err)
{
	return hb_error_set(err, HB_ENOMEM, "out of memory");
}

/* ---- Stateless scans: CellSet chunks behind a 16-bit length ---- */

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
		if (tag == (1 << 3 | HB_PB_LEN)) {
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
		if (tag != (2 << 3 | HB_PB_LEN)) {
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
			if (tag == (2 << 3 | HB_PB_LEN) || tag == (4 << 3 | HB_PB_LEN)) {
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
			} else if (tag == (3 << 3 | HB_PB_VARINT)) {
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

#define PENDING_MAX HB_RESTPB_PENDING_MAX

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
		more = hb_pb_varint_more(p, m, &pos, &v);
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
