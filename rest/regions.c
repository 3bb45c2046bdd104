/* A table's regions from GET /T/regions: JSON (pull parser) or protobuf (core/restpb_regions.h),
 * each region's name rebuilt from its keys. */
#include "rest/regions.h"
#include "core/key.h"
#include "core/regioninfo.h"
#include "core/restpb_regions.h"
#include "core/tname.h"
#include "rest/jsonhelp.h"
#include "rest/jsonpull.h"
#include "rest/resource.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * REST builds each region name with Bytes.toString(startKey), which mangles binary start keys
 * (U+FFFD, NUL). The name is a pure function of (table, start key, id) (docs/hbase-wire.md §3,
 * §6.2), so each region is handed on with the exact bytes HBase has: "table,start,id.md5hex.".
 */
struct named_regions {
	const char *asked; /* the table as asked for, which the listing must name */
	const char *table; /* as in region names; NULL: system tables keep the old format */
	hb_region_fn fn;
	hb_region_restart_fn restart; /* NULL: fn cannot start again, so the body is kept whole */
	void *ctx;
	size_t n;
	struct hb_buf name;
	struct hb_buf prev; /* the previous region's start, end and id, to pass over replicas */
};

/* A table with region replicas lists every replica of a region in /T/regions, one after the
 * other, each with the primary's start, end, id and name (RegionsResource has no replica id;
 * seen on 2.6.1 with REGION_REPLICATION 2). The region is handed on once, as meta lists it. */
static int same_bytes(const void *a, const void *b, size_t n)
{
	return !n || !memcmp(a, b, n);
}

static int same_as_previous(struct named_regions *s, const struct hb_region *r, int *same)
{
	size_t head = 2 * sizeof(size_t) + sizeof(r->id);
	size_t n = head + r->start_len + r->end_len;

	*same = s->prev.len == n && same_bytes(s->prev.data, &r->start_len, sizeof(size_t)) &&
	        same_bytes(s->prev.data + sizeof(size_t), &r->end_len, sizeof(size_t)) &&
	        same_bytes(s->prev.data + 2 * sizeof(size_t), &r->id, sizeof(r->id)) &&
	        same_bytes(s->prev.data + head, r->start, r->start_len) &&
	        same_bytes(s->prev.data + head + r->start_len, r->end, r->end_len);
	if (*same)
		return 0;
	hb_buf_reset(&s->prev);
	return hb_buf_add(&s->prev, &r->start_len, sizeof(size_t)) ||
	       hb_buf_add(&s->prev, &r->end_len, sizeof(size_t)) ||
	       hb_buf_add(&s->prev, &r->id, sizeof(r->id)) ||
	       (r->start_len && hb_buf_add(&s->prev, r->start, r->start_len)) ||
	       (r->end_len && hb_buf_add(&s->prev, r->end, r->end_len));
}

/* The encoded part of the name the gateway sent into enc, when that name is exactly the
 * prefix built (n bytes) and ".<32 lower-case hex>.": a start key that is valid UTF-8 comes
 * through Bytes.toString unchanged, and HBase took the MD5 over those very bytes (§3), so it
 * need not be taken again. 0 when the name is anything else. */
static int sent_encoded(const struct hb_region *r, const char *prefix, size_t n, char enc[33])
{
	const unsigned char *p;
	unsigned hex = 1;
	size_t k;

	if (!r->name || r->name_len != n + 34 || memcmp(r->name, prefix, n) || r->name[n] != '.' ||
	    r->name[n + 33] != '.')
		return 0;
	p = r->name + n + 1;
	for (k = 0; k < 32; k++) /* no branch on the digits */
		hex &= (p[k] - (unsigned)'0' < 10u) | (p[k] - (unsigned)'a' < 6u);
	if (!hex)
		return 0;
	memcpy(enc, p, 32);
	enc[32] = 0;
	return 1;
}

/* Appends ",<id>" (decimal). */
static int add_id(struct hb_buf *b, uint64_t id)
{
	return hb_buf_addc(b, ',') || hb_buf_add_uint(b, id);
}

static int rebuild_name(void *ctx, const struct hb_region *r, struct hb_error *err)
{
	struct named_regions *s = ctx;
	struct hb_region with = *r;
	char enc[33];
	size_t prefix;
	int same;

	if (same_as_previous(s, r, &same))
		return hb_error_set(err, HB_ENOMEM, "out of memory");
	if (same)
		return 0;
	s->n++;
	if (!s->table)
		return s->fn(s->ctx, r, err);
	hb_buf_reset(&s->name);
	if (hb_buf_adds(&s->name, s->table) || hb_buf_addc(&s->name, ',') ||
	    hb_buf_add(&s->name, r->start, r->start_len) || add_id(&s->name, r->id))
		return hb_error_set(err, HB_ENOMEM, "out of memory");
	prefix = s->name.len;
	if (!sent_encoded(r, s->name.data, prefix, enc)) {
		int rc = hb_region_encoded_name(enc, s->name.data, prefix, err);

		if (rc)
			return rc;
	}
	if (hb_buf_addc(&s->name, '.') || hb_buf_add(&s->name, enc, 32) ||
	    hb_buf_addc(&s->name, '.'))
		return hb_error_set(err, HB_ENOMEM, "out of memory");
	with.name = (unsigned char *)s->name.data;
	with.name_len = s->name.len;
	with.encoded = enc;
	with.name_canonical = r->replica_id <= 0; /* no _REPL part above */
	return s->fn(s->ctx, &with, err);
}

/* A TableInfo body, region by region (docs/hbase-wire.md §3.1); a mapped body's pages are
 * given back as the reader moves on. */
static int decode_regions_pb(const char *body, size_t blen, int mapped, const char *what,
                             const char *table, hb_region_fn fn, void *ctx, struct hb_error *err)
{
	struct hb_tableinfo_reader rd;
	struct hb_region reg;
	const char *drop = mapped ? body : NULL;
	int rc;

	hb_tableinfo_reader_init(&rd, body, blen, what, table);
	while ((rc = hb_tableinfo_next(&rd, &reg, err)) == 1) {
		if ((rc = fn(ctx, &reg, err)))
			break;
		hb_rest_drop_behind(&drop, body + rd.pos);
	}
	hb_tableinfo_reader_release(&rd);
	return rc;
}

/* A /T/regions body, protobuf (TableInfo) or JSON, each region renamed and handed on. */
static int decode_regions(void *out, const struct hb_rest_resp *r, const char *what,
                          struct hb_error *err)
{
	struct named_regions *s = out;
	size_t blen;
	const char *body = hb_rest_resp_body(r, &blen);
	int rc;

	if (hb_rest_is_protobuf(r->content_type))
		rc = decode_regions_pb(body, blen, r->map != NULL, what, s->asked, rebuild_name, s,
		                       err);
	else
		rc = hb_rest_decode_table_regions_each(body, blen, what, s->asked, r->map != NULL,
		                                       rebuild_name, s, err);
	/* Every table has a region: branch-1 RegionsResource answers 200 with none for a table
	 * that does not exist (no exists() check before the meta scan). */
	if (!rc && !s->n)
		rc = hb_error_set(err, HB_ENOTFOUND, "%s: no regions listed", what);
	return rc;
}

/* /T/regions' TableInfo read as it arrives, no copy of the body kept (core/restpb_regions.h). */
struct regions_stream {
	struct named_regions *s;
	struct hb_tableinfo_stream ts;
};

static int stream_wants(const char *content_type)
{
	return hb_rest_is_protobuf(content_type);
}

static int stream_start(void *ctx, struct hb_error *err)
{
	struct regions_stream *st = ctx;

	hb_tableinfo_stream_reset(&st->ts);
	st->s->n = 0;
	hb_buf_reset(&st->s->prev);
	return st->s->restart(st->s->ctx) ? hb_error_set(err, HB_ENOMEM, "out of memory") : 0;
}

static int stream_push(void *ctx, const char *p, size_t n, struct hb_error *err)
{
	struct regions_stream *st = ctx;

	return hb_tableinfo_stream_push(&st->ts, p, n, rebuild_name, st->s, err);
}

/* GET /T/regions (path) into s, streamed when s can start again, else kept and decoded. */
static int get_regions(struct hb_rest *c, const char *path, struct named_regions *s, long *status,
                       struct hb_error *err)
{
	struct regions_stream st;
	struct hb_rest_stream ops = {stream_wants, stream_start, stream_push, &st};
	struct hb_rest_resp r;
	char what[600];
	int rc;

	st.s = s;
	snprintf(what, sizeof(what), "GET %s", path);
	hb_tableinfo_stream_init(&st.ts, what, s->asked);
	hb_rest_resp_init(&r);
	r.spool = 1;
	r.stream = s->restart ? &ops : NULL;
	rc = hb_rest_get_protobuf(c, path, &r, what, sizeof(what), err);
	*status = r.status;
	if (!rc && r.streamed) {
		rc = hb_tableinfo_stream_end(&st.ts, rebuild_name, s, err);
		if (!rc && !s->n)
			rc = hb_error_set(err, HB_ENOTFOUND, "%s: no regions listed", what);
	} else if (!rc) {
		rc = decode_regions(s, &r, what, err);
	}
	hb_rest_resp_release(&r);
	hb_tableinfo_stream_release(&st.ts);
	return rc;
}

int hb_rest_regions_scan(struct hb_rest *c, const char *table, hb_region_fn fn, void *ctx,
                         struct hb_error *err)
{
	return hb_rest_regions_stream(c, table, fn, NULL, ctx, err);
}

int hb_rest_regions_stream(struct hb_rest *c, const char *table, hb_region_fn fn,
                           hb_region_restart_fn restart, void *ctx, struct hb_error *err)
{
	struct hb_buf path = HB_BUF_INIT;
	struct named_regions s;
	long status = 0;
	int rc;

	memset(&s, 0, sizeof(s));
	s.asked = table;
	s.fn = fn;
	s.restart = restart;
	s.ctx = ctx;
	/* TableName.getName() omits the default namespace (docs/hbase-wire.md §3). */
	if (strncmp(table, "hbase:", 6))
		s.table = hb_tname_bare(table);
	rc = hb_rest_table_path(&path, table, "/regions", err);
	/* about 120 bytes a region in protobuf, 180 in JSON */
	if (!rc)
		rc = get_regions(c, path.data, &s, &status, err);
	/* RegionsResource dereferences the location of a region that never opened: 500 (NPE). */
	if (rc == HB_ESERVER && status == 500) {
		rc = HB_ENOLOCATION;
		if (err)
			err->code = rc;
	}
	hb_buf_release(&path);
	hb_buf_release(&s.name);
	hb_buf_release(&s.prev);
	return rc;
}

int hb_rest_region_push(void *ctx, const struct hb_region *r, struct hb_error *err)
{
	return hb_regions_push(ctx, r) ? hb_error_set(err, HB_ENOMEM, "out of memory") : 0;
}

int hb_region_list_push(void *ctx, const struct hb_region *r, struct hb_error *err)
{
	return hb_rest_region_push(((struct hb_region_list *)ctx)->rs, r, err);
}

int hb_region_list_restart(void *ctx)
{
	struct hb_region_list *l = ctx;

	hb_regions_truncate(l->rs, l->n0);
	return 0;
}

int hb_rest_get_regions(struct hb_rest *c, const char *table, struct hb_regions *out,
                        struct hb_error *err)
{
	struct hb_region_list l = {out, out->n};
	int rc =
	    hb_rest_regions_stream(c, table, hb_region_list_push, hb_region_list_restart, &l, err);

	if (rc)
		hb_regions_truncate(out, l.n0);
	else
		hb_regions_sort(out);
	return rc;
}

struct region_walk {
	struct hb_jr *j;
	struct hb_buf key, sk, ek, loc, name;
	const char *json, *what;
	size_t i; /* the region's index */
	int has_s, has_e, has_loc, has_name;
	long long id;
};

/* A JSON error at the walk's position: ENOMEM stays, the rest is "not valid JSON". */
static int rw_invalid(struct region_walk *w, int rc, struct hb_error *err)
{
	return rc == HB_ENOMEM ? hb_json_oom(err) : hb_jr_invalid(w->j, w->json, w->what, err);
}

/* A value that must be a string (or null): 1 when a string is next, 0 after a null, or an
 * error (the value skipped) naming field. */
static int rw_string_next(struct region_walk *w, const char *field, struct hb_error *err)
{
	const char *what = w->what;
	int c = hb_jr_peek(w->j);

	if (c == '"')
		return 1;
	if (c == 'n')
		return hb_jr_lit(w->j, "null") ? rw_invalid(w, -1, err) : 0;
	if (hb_jr_skip(w->j, 3))
		return rw_invalid(w, -1, err);
	return HB_BAD("Region[%zu].%s is not a string", w->i, field);
}

/* startKey or endKey: base64 into sk or ek. */
static int rw_key(struct region_walk *w, int is_start, struct hb_error *err)
{
	struct hb_buf *dst = is_start ? &w->sk : &w->ek;
	const char *field = is_start ? "startKey" : "endKey", *what = w->what;
	int rc = rw_string_next(w, field, err);

	if (rc != 1)
		return rc;
	/* key is the scratch: loc may hold the location already. */
	if ((rc = hb_jr_string(w->j, &w->key)))
		return rw_invalid(w, rc, err);
	hb_buf_reset(dst);
	rc = hb_b64_decode(dst, w->key.data, w->key.len);
	if (rc == HB_ENOMEM || hb_buf_add(dst, "", 0))
		return hb_json_oom(err);
	if (rc)
		return HB_BAD("Region[%zu].%s is not valid base64", w->i, field);
	*(is_start ? &w->has_s : &w->has_e) = 1;
	return 0;
}

/* location or name, kept as text. */
static int rw_text(struct region_walk *w, int is_loc, struct hb_error *err)
{
	int rc = rw_string_next(w, is_loc ? "location" : "name", err);

	if (rc != 1)
		return rc;
	if ((rc = hb_jr_string(w->j, is_loc ? &w->loc : &w->name)))
		return rw_invalid(w, rc, err);
	*(is_loc ? &w->has_loc : &w->has_name) = 1;
	return 0;
}

/* id: a regionId is a non-negative Java long; anything else would be shown and used
 * (region names, the meta cross-check) as a different number. */
static int rw_id(struct region_walk *w, struct hb_error *err)
{
	const char *what = w->what;
	int c = hb_jr_peek(w->j), isint, rc;
	char *end;
	double d;

	if (c == '"') {
		if ((rc = hb_jr_string(w->j, &w->key)))
			return rw_invalid(w, rc, err);
		errno = 0;
		w->id = strtoll(w->key.data, &end, 10);
		if (!w->key.len || w->key.data[0] < '0' || w->key.data[0] > '9' || *end || errno)
			return HB_BAD("Region[%zu].id is not a number", w->i);
		return 0;
	}
	if (c == '-' || (c >= '0' && c <= '9')) {
		if (hb_jr_number(w->j, &d, &w->id, &isint))
			return rw_invalid(w, -1, err);
		if (!isint)
			return HB_BAD("Region[%zu].id is not an integer below 2^63", w->i);
		return w->id < 0 ? HB_BAD("Region[%zu].id is negative", w->i) : 0;
	}
	if (c == 'n')
		return hb_jr_lit(w->j, "null") ? rw_invalid(w, -1, err) : 0;
	if (hb_jr_skip(w->j, 3))
		return rw_invalid(w, -1, err);
	return HB_BAD("Region[%zu].id is not a number", w->i);
}

/* One member of a Region object (its name in w->key). */
static int rw_member(struct region_walk *w, struct hb_error *err)
{
	const char *k = w->key.data;

	if (!strcmp(k, "startKey") || !strcmp(k, "endKey"))
		return rw_key(w, k[0] == 's', err);
	if (!strcmp(k, "location") || !strcmp(k, "name"))
		return rw_text(w, k[0] == 'l', err);
	if (!strcmp(k, "id"))
		return rw_id(w, err);
	return hb_jr_skip(w->j, 3) ? rw_invalid(w, -1, err) : 0;
}

/* One Region object, handed to fn. */
static int decode_region(struct region_walk *w, hb_region_fn fn, void *ctx, struct hb_error *err)
{
	struct hb_jr *j = w->j;
	const char *what = w->what;
	struct hb_region r;
	int more, rc;

	w->has_s = w->has_e = w->has_loc = w->has_name = 0;
	w->id = 0;
	if (hb_jr_peek(j) != '{') {
		if (hb_jr_skip(j, 2))
			return rw_invalid(w, -1, err);
		return HB_BAD("Region[%zu] is not an object", w->i);
	}
	j->p++;
	more = hb_jr_peek(j) == '}' ? (j->p++, 0) : 1;
	while (more == 1) {
		if ((rc = hb_jr_string(j, &w->key)) || hb_jr_peek(j) != ':')
			return rw_invalid(w, rc, err);
		j->p++;
		if ((rc = rw_member(w, err)))
			return rc;
		more = hb_jr_next(j, '}');
	}
	if (more < 0)
		return rw_invalid(w, -1, err);
	if (!w->has_s || !w->has_e)
		return HB_BAD("Region[%zu].%s is missing", w->i, w->has_s ? "endKey" : "startKey");
	if (w->has_loc && memchr(w->loc.data, 0, w->loc.len))
		return HB_BAD("Region[%zu].location contains a NUL character", w->i);
	memset(&r, 0, sizeof(r));
	r.start = (unsigned char *)w->sk.data;
	r.start_len = w->sk.len;
	r.end = (unsigned char *)w->ek.data;
	r.end_len = w->ek.len;
	if (w->has_name) {
		r.name = (unsigned char *)w->name.data;
		r.name_len = w->name.len;
	}
	r.server = w->has_loc && w->loc.len ? w->loc.data : NULL;
	r.id = (uint64_t)w->id;
	return fn(ctx, &r, err);
}

/* The Region array (at '['), each element handed to fn. */
static int decode_region_array(struct region_walk *w, hb_region_fn fn, void *ctx,
                               struct hb_error *err)
{
	int m, rc;

	w->j->p++;
	m = hb_jr_peek(w->j) == ']' ? (w->j->p++, 0) : 1;
	while (m == 1) {
		rc = decode_region(w, fn, ctx, err);
		if (rc)
			return rc;
		w->i++;
		m = hb_jr_next(w->j, ']');
	}
	return m < 0 ? rw_invalid(w, -1, err) : 0;
}

/* The top-level name of a /T/regions body must be the table asked for. */
static int check_table_name(const struct hb_buf *got, const char *table, const char *what,
                            struct hb_error *err)
{
	size_t gn = got->len, tn = strlen(table);
	const char *g = hb_tname_bare_n(got->data, &gn);
	const char *t = hb_tname_bare_n(table, &tn);
	char shown_got[200], shown_want[200];

	if (gn == tn && !memcmp(g, t, gn))
		return 0;
	return HB_BAD("the regions are of table '%s', not of '%s'",
	              hb_json_shown(shown_got, sizeof(shown_got), got->data, got->len),
	              HB_SHOWN(shown_want, table));
}

int hb_rest_decode_regions(const char *json, size_t len, const char *what, struct hb_regions *out,
                           struct hb_error *err)
{
	return hb_rest_decode_table_regions(json, len, what, NULL, out, err);
}

int hb_rest_decode_table_regions(const char *json, size_t len, const char *what, const char *table,
                                 struct hb_regions *out, struct hb_error *err)
{
	size_t n0 = out->n;
	int rc = hb_rest_decode_table_regions_each(json, len, what, table, 0, hb_rest_region_push,
	                                           out, err);

	/* A refused body adds nothing: drop the regions read before the error. */
	if (rc)
		hb_regions_truncate(out, n0);
	return rc;
}

/* One member of the TableInfo object (its name in w->key): the table's name, checked
 * against table when given, and the Region array. */
static int table_member(struct region_walk *w, const char *table, hb_region_fn fn, void *ctx,
                        struct hb_error *err)
{
	struct hb_jr *j = w->j;
	const char *what = w->what;
	int rc;

	if (table && !strcmp(w->key.data, "name") && hb_jr_peek(j) != 'n') {
		if (hb_jr_peek(j) != '"')
			return hb_jr_skip(j, 1) ? rw_invalid(w, -1, err)
			                        : HB_BAD("name is not a string");
		if ((rc = hb_jr_string(j, &w->name)))
			return rw_invalid(w, rc, err);
		return check_table_name(&w->name, table, what, err);
	}
	if (strcmp(w->key.data, "Region") || hb_jr_peek(j) == 'n')
		return hb_jr_skip(j, 1) ? rw_invalid(w, -1, err) : 0;
	if (hb_jr_peek(j) != '[')
		return hb_jr_skip(j, 1) ? rw_invalid(w, -1, err) : HB_BAD("Region is not an array");
	return decode_region_array(w, fn, ctx, err);
}

int hb_rest_decode_table_regions_each(const char *json, size_t len, const char *what,
                                      const char *table, int mapped, hb_region_fn fn, void *ctx,
                                      struct hb_error *err)
{
	struct region_walk w = {0};
	struct hb_jr j;
	int rc = 0, more;

	if (!json || !len)
		return HB_BAD("empty body");
	/* Region names may hold U+0000 (the server builds them with Bytes.toString(startKey)). */
	if ((rc = hb_json_check_text(json, len, 1, what, err, mapped)))
		return rc;
	j.p = json;
	j.end = json + len;
	j.bad = 0;
	j.strict = 0;
	j.drop = mapped ? json : NULL;
	w.j = &j;
	w.json = json;
	w.what = what;
	if (hb_jr_peek(&j) != '{') {
		if (hb_jr_skip(&j, 0) || hb_jr_peek(&j) != -1)
			return hb_jr_invalid(&j, json, what, err);
		return HB_BAD("not a JSON object");
	}
	j.p++;
	more = hb_jr_peek(&j) == '}' ? (j.p++, 0) : 1;
	while (more == 1 && !rc) {
		if ((rc = hb_jr_string(&j, &w.key)) || hb_jr_peek(&j) != ':') {
			rc = rw_invalid(&w, rc, err);
			break;
		}
		j.p++;
		rc = table_member(&w, table, fn, ctx, err);
		if (!rc)
			more = hb_jr_next(&j, '}');
	}
	if (!rc && (more < 0 || hb_jr_peek(&j) != -1))
		rc = hb_jr_invalid(&j, json, what, err);
	hb_buf_release(&w.key);
	hb_buf_release(&w.sk);
	hb_buf_release(&w.ek);
	hb_buf_release(&w.loc);
	hb_buf_release(&w.name);
	return rc;
}
