/* Region-chain integrity, streamed over a sorted region list. */
#include "chain.h"

#include <stdlib.h>
#include <string.h>

void hb_chain_stream_init(struct hb_chain_stream *s, int from_meta)
{
	memset(s, 0, sizeof(*s));
	s->from_meta = from_meta;
	s->prev = s->cover = -1;
}

void hb_chain_stream_release(struct hb_chain_stream *s)
{
	hb_buf_release(&s->ps);
	hb_buf_release(&s->pe);
	hb_buf_release(&s->cs);
	hb_buf_release(&s->ce);
	hb_buf_release(&s->m);
}

/* Keeps a copy of r's bounds (and id) as the previous or covering region. */
static int keep(struct hb_buf *start, struct hb_buf *end, const struct hb_region *r)
{
	hb_buf_reset(start);
	hb_buf_reset(end);
	return hb_buf_add(start, r->start, r->start_len) || hb_buf_add(end, r->end, r->end_len);
}

#define KEPT(b) ((const unsigned char *)hb_buf_str(b)), (b)->len

/* Appends to the message unless a step failed (rc). */
#define CAT(expr)                                                                                  \
	do {                                                                                       \
		if (!rc)                                                                           \
			rc = (expr);                                                               \
	} while (0)
/* Adds the message as a finding; leaves for done: when a step failed. */
#define ADD(kind, idx)                                                                             \
	do {                                                                                       \
		if (rc || (rc = hb_findings_add_buf(out, (kind), (idx), m)))                       \
			goto done;                                                                 \
	} while (0)

/* A region the chain leaves out: a split parent or an offline region (each a finding), or a
 * replica. 1 when r is one of those, 0 when it is part of the chain, HB_ENOMEM. */
static int chain_skip(struct hb_chain_stream *s, struct hb_findings *out, size_t i,
                      const struct hb_region *r)
{
	struct hb_buf *m = &s->m;
	int rc = 0;

	if (r->split) {
		CAT(hb_findings_add_region(m, i, r));
		CAT(hb_buf_adds(m, " is a split parent left in hbase:meta (offline, split); "
		                   "its daughters serve its keys until the catalog janitor "
		                   "removes it"));
		ADD(HB_FIND_SPLIT_PARENT, (long)i);
		return 1;
	}
	if (r->offline) {
		CAT(hb_findings_add_region(m, i, r));
		CAT(hb_buf_adds(m, " is offline and serves no keys"));
		ADD(HB_FIND_OFFLINE, (long)i);
		return 1;
	}
	return r->replica_id > 0;
done:
	return HB_ENOMEM;
}

/* Defects of a live region by itself: no server (in hbase:meta), an end at or before its
 * start. HB_ENOMEM. */
static int chain_self(struct hb_chain_stream *s, struct hb_findings *out, size_t i,
                      const struct hb_region *r)
{
	struct hb_buf *m = &s->m;
	int rc = 0;

	if (s->from_meta && (!r->server || !*r->server)) {
		CAT(hb_findings_add_region(m, i, r));
		CAT(hb_buf_adds(m, " has no server (not assigned)"));
		ADD(HB_FIND_NO_SERVER, (long)i);
	}
	if (r->end_len && hb_key_cmp(r->end, r->end_len, r->start, r->start_len) <= 0) {
		CAT(hb_findings_add_region(m, i, r));
		CAT(hb_buf_adds(m, " ends at or before its start and covers no keys"));
		ADD(HB_FIND_HOLE, (long)i);
	}
done:
	return rc ? HB_ENOMEM : 0;
}

/* The first live region, which must start empty; it is the previous and covering one. */
static int chain_first(struct hb_chain_stream *s, struct hb_findings *out, size_t i,
                       const struct hb_region *r)
{
	struct hb_buf *m = &s->m;
	int rc = 0;

	if (r->start_len) {
		CAT(hb_findings_add_region(m, i, r));
		CAT(hb_buf_adds(m, " is the first region but its start key is not "
		                   "empty; keys before "));
		CAT(hb_findings_add_key(m, r->start, r->start_len));
		CAT(hb_buf_adds(m, " have no region"));
		ADD(HB_FIND_BAD_FIRST_START, (long)i);
	}
	s->prev = s->cover = (long)i;
	s->pid = r->id;
	if (keep(&s->ps, &s->pe, r) || keep(&s->cs, &s->ce, r))
		rc = HB_ENOMEM;
done:
	return rc ? HB_ENOMEM : 0;
}

/* A region with the previous one's bounds, which it replaces as the previous one: a
 * duplicate unless REST lists a replica so. 1 when r had those bounds, else 0; HB_ENOMEM. */
static int chain_duplicate(struct hb_chain_stream *s, struct hb_findings *out, size_t i,
                           const struct hb_region *r)
{
	struct hb_buf *m = &s->m;
	long dup_of = s->prev;
	uint64_t pid = s->pid;
	int rc = 0;

	if (hb_key_cmp(KEPT(&s->ps), r->start, r->start_len) ||
	    hb_key_cmp(KEPT(&s->pe), r->end, r->end_len))
		return 0;
	s->prev = (long)i;
	s->pid = r->id;
	if (!s->from_meta && pid && pid == r->id)
		return 1; /* REST lists each replica with the same bounds */
	CAT(hb_findings_add_region(m, i, r));
	CAT(hb_buf_addf(m, " duplicates region %ld (same start and end key)", dup_of));
	ADD(HB_FIND_DUPLICATE, (long)i);
	return 1;
done:
	return HB_ENOMEM;
}

/* r against the region that reaches furthest so far: an overlap, or a hole before r. */
static int chain_gap(struct hb_chain_stream *s, struct hb_findings *out, size_t i,
                     const struct hb_region *r)
{
	struct hb_buf *m = &s->m;
	int d, rc = 0;

	if (!s->ce.len) {
		CAT(hb_findings_add_region(m, i, r));
		CAT(hb_buf_addf(m, " overlaps region %ld, which runs to the end of the key space",
		                s->cover));
		ADD(HB_FIND_OVERLAP, (long)i);
		return 0;
	}
	d = hb_key_cmp(r->start, r->start_len, KEPT(&s->ce));
	if (d < 0) {
		CAT(hb_findings_add_region(m, i, r));
		CAT(hb_buf_addf(m, " overlaps region %ld, which ends at ", s->cover));
		CAT(hb_findings_add_key(m, KEPT(&s->ce)));
		ADD(HB_FIND_OVERLAP, (long)i);
	} else if (d > 0) {
		CAT(hb_buf_addf(m, "hole before region %zu: keys in [", i));
		CAT(hb_findings_add_key(m, KEPT(&s->ce)));
		CAT(hb_buf_adds(m, ", "));
		CAT(hb_findings_add_key(m, r->start, r->start_len));
		CAT(hb_buf_addf(m, ") have no region (region %ld ends there)", s->cover));
		ADD(HB_FIND_HOLE, (long)i);
	}
done:
	return rc ? HB_ENOMEM : 0;
}

int hb_chain_stream_next(struct hb_chain_stream *s, struct hb_findings *out, size_t i,
                         const struct hb_region *r)
{
	int rc;

	hb_buf_reset(&s->m);
	rc = chain_skip(s, out, i, r);
	if (!rc)
		rc = chain_self(s, out, i, r);
	if (rc)
		return rc < 0 ? HB_ENOMEM : 0;
	if (s->prev < 0)
		return chain_first(s, out, i, r);
	rc = chain_duplicate(s, out, i, r);
	if (rc)
		return rc < 0 ? HB_ENOMEM : 0;
	if (chain_gap(s, out, i, r))
		return HB_ENOMEM;
	if (hb_region_end_cmp(r->end, r->end_len, KEPT(&s->ce)) > 0) {
		s->cover = (long)i;
		if (keep(&s->cs, &s->ce, r))
			return HB_ENOMEM;
	}
	s->prev = (long)i;
	s->pid = r->id;
	return keep(&s->ps, &s->pe, r) ? HB_ENOMEM : 0;
}

int hb_chain_stream_end(struct hb_chain_stream *s, struct hb_findings *out)
{
	struct hb_buf *m = &s->m;
	int rc = 0;

	hb_buf_reset(m);
	if (s->prev < 0) {
		CAT(hb_buf_adds(m, "no live region: every key of the table is without a region"));
		ADD(HB_FIND_HOLE, -1);
	} else if (s->ce.len) {
		struct hb_region c;

		memset(&c, 0, sizeof(c));
		c.start = (unsigned char *)hb_buf_str(&s->cs);
		c.start_len = s->cs.len;
		c.end = (unsigned char *)hb_buf_str(&s->ce);
		c.end_len = s->ce.len;
		CAT(hb_findings_add_region(m, (size_t)s->cover, &c));
		CAT(hb_buf_adds(m, " is the last region but its end key is not empty; keys at "
		                   "or after "));
		CAT(hb_findings_add_key(m, c.end, c.end_len));
		CAT(hb_buf_adds(m, " have no region"));
		ADD(HB_FIND_BAD_LAST_END, s->cover);
	}
#undef ADD
#undef CAT
done:
	return rc ? HB_ENOMEM : 0;
}

int hb_audit_chain(struct hb_findings *out, const struct hb_regions *rs, int from_meta)
{
	struct hb_chain_stream s;
	size_t i;
	int rc = 0;

	hb_chain_stream_init(&s, from_meta);
	for (i = 0; !rc && i < rs->n; i++) {
		struct hb_region_view v;

		rc = hb_chain_stream_next(&s, out, i, hb_regions_at_unnamed(rs, i, &v));
	}
	if (!rc)
		rc = hb_chain_stream_end(&s, out);
	hb_chain_stream_release(&s);
	return rc;
}
