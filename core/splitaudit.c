/* The audit of a planned split set, as a stream over its key list (several passes). */
#include "splitaudit.h"

#include <stdlib.h>
#include <string.h>

void hb_split_walk_init(struct hb_split_walk *w, const struct hb_keys *keys, struct hb_keyspace *ks)
{
	memset(w, 0, sizeof(*w));
	w->keys = keys;
	w->ks = ks;
}

void hb_split_walk_release(struct hb_split_walk *w)
{
	free(w->total_keys);
	w->total_keys = NULL;
}

size_t hb_split_walk_regions(const struct hb_split_walk *w)
{
	return w->keys->n + 1;
}

/* One pass's state. */
struct pass {
	struct hb_split_walk *w;
	enum hb_walk_pass pass;
	int chain_check;
	struct hb_reach_stream reach;
	struct hb_chain_stream chain;
	struct hb_findings fc; /* the chain's findings */
	long last;             /* the last finding's region; -2 after a table-wide one */
};

/* Hands over one finding, in the order the output wants them (by region, table-wide ones
 * last: regions arrive in order, so no sort). */
static int emit(struct pass *p, const char *kind, long region, const char *msg, size_t len,
                int escaped)
{
	if ((region >= 0 && (p->last < -1 || region < p->last)) ||
	    (region < 0 && p->last >= -1 && region != -1))
		HB_BUG("streamed findings out of region order");
	p->last = region >= 0 ? region : -2;
	p->w->written++;
	return p->w->finding(p->w->ctx, kind, region, msg, len, escaped);
}

/* emit for each of the chain's findings (their messages not escaped), then empties them. */
static int emit_chain(struct pass *p)
{
	size_t i;
	int rc = 0;

	for (i = 0; !rc && i < p->fc.n; i++)
		rc = emit(p, p->fc.v[i].kind, p->fc.v[i].region, p->fc.v[i].message,
		          strlen(p->fc.v[i].message), 0);
	hb_findings_release(&p->fc);
	return rc;
}

/* Decides region i and hands over what the pass wants of it. */
static int step(struct pass *p, size_t i, struct hb_error *err)
{
	const struct hb_keys *keys = p->w->keys;
	struct hb_region g;
	struct hb_audit_region ar;
	size_t sl = 0, el = 0;
	int rc;

	memset(&g, 0, sizeof(g));
	g.start = i ? (unsigned char *)hb_keys_at(keys, i - 1, &sl) : NULL;
	g.end = i < keys->n ? (unsigned char *)hb_keys_at(keys, i, &el) : NULL;
	g.start_len = sl;
	g.end_len = el;
	rc = hb_reach_stream_next(&p->reach, i, &g, &ar, NULL, err);
	if (!rc && p->chain_check && hb_chain_stream_next(&p->chain, &p->fc, i, &g))
		rc = hb_error_set(err, HB_ENOMEM, "out of memory");
	if (!rc && p->pass == HB_WALK_ROWS)
		rc = p->w->row(p->w->ctx, i, &g, &ar);
	if (!rc && p->fc.n && p->pass == HB_WALK_COUNT) {
		p->w->chain_nf += p->fc.n;
		hb_findings_release(&p->fc);
	}
	if (!rc && p->reach.msg.len)
		rc = emit(p, HB_FIND_UNREACHABLE, (long)i, p->reach.msg.data, p->reach.msg.len,
		          p->w->escape_messages);
	if (!rc && p->fc.n)
		rc = emit_chain(p);
	return rc;
}

/* The end of the chain and the counts of the count pass. */
static int finish(struct pass *p, struct hb_error *err)
{
	if (p->chain_check && hb_chain_stream_end(&p->chain, &p->fc))
		return hb_error_set(err, HB_ENOMEM, "out of memory");
	if (p->pass != HB_WALK_COUNT)
		return p->fc.n ? emit_chain(p) : 0;
	p->w->chain_nf += p->fc.n;
	p->w->nf = p->w->chain_nf + p->reach.unreachable;
	free(p->w->total_keys);
	p->w->total_keys = p->reach.total_keys;
	p->reach.total_keys = NULL;
	return 0;
}

int hb_split_walk_pass(struct hb_split_walk *w, enum hb_walk_pass pass, struct hb_error *err)
{
	struct pass p;
	size_t i, n = hb_split_walk_regions(w);
	int rc;

	memset(&p, 0, sizeof(p));
	p.w = w;
	p.pass = pass;
	p.last = -1;
	/* Only the findings pass makes findings: reach leaves each message in reach.msg (escaped
	 * for JSON already), handed over at once. The count pass counts unreachable regions in
	 * reach and takes the (few) chain findings as they come. The findings pass counts no keys
	 * and, when the count pass had no chain finding, leaves out the chain check too: a pass
	 * over the same list decides the same. */
	p.chain_check = pass == HB_WALK_COUNT || (pass == HB_WALK_FINDINGS && w->chain_nf);
	if (pass == HB_WALK_COUNT)
		w->nf = w->chain_nf = 0;
	w->written = 0;
	hb_findings_init(&p.fc);
	hb_chain_stream_init(&p.chain, 0);
	rc = hb_reach_stream_begin(&p.reach, w->ks, err);
	p.reach.decide_only = pass == HB_WALK_FINDINGS;
	p.reach.escape_messages = pass == HB_WALK_FINDINGS && w->escape_messages;
	p.reach.keep_message = pass == HB_WALK_FINDINGS;
	for (i = 0; !rc && i < n; i++) {
		if (pass == HB_WALK_COUNT && !(i & 1023) && w->progress)
			w->progress(w->ctx, i, n);
		rc = step(&p, i, err);
	}
	if (!rc)
		rc = finish(&p, err);
	if (rc == HB_ENOMEM && !err->msg[0])
		hb_error_set(err, HB_ENOMEM, "out of memory");
	hb_reach_stream_release(&p.reach);
	hb_chain_stream_release(&p.chain);
	hb_findings_release(&p.fc);
	return rc;
}
