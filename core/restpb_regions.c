/* GET /T/regions as protobuf: the TableInfo message, read whole or as it arrives
 * (docs/hbase-wire.md §3.1). */
#include "restpb_regions.h"
#include "key.h"
#include "pb.h"
#include "regioninfo.h"
#include "tname.h"

#include <stdint.h>
#include <string.h>

static int oom(struct hb_error *err)
{
	return hb_error_set(err, HB_ENOMEM, "out of memory");
}

#define BAD(...) hb_error_malformed(err, r->what, __VA_ARGS__)

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

/* The message's name field must be the table asked for. */
static int check_table(struct hb_tableinfo_reader *r, const unsigned char *v, size_t vl,
                       struct hb_error *err)
{
	size_t gn = vl, tn = strlen(r->table);
	const void *g = hb_tname_bare_n((const char *)v, &gn);
	const void *t = hb_tname_bare_n(r->table, &tn);
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

			if (wt != HB_PB_LEN)
				return BAD("Region[%zu].%s is not length-delimited", i,
				           names[field]);
			if (hb_pb_len(p, n, &pos, &v, &vl))
				return BAD("Region[%zu] is truncated", i);
			if (set(dst, v, vl))
				return oom(err);
			*has = 1;
		} else if (field == 4) {
			if (wt != HB_PB_VARINT)
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
			if (wt != HB_PB_LEN)
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
