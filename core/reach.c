/* Reachability: each region's share of a row-key space's keys, and the regions no key reaches. */
#include "reach.h"

#include "vec.h"

#include <gmp.h>
#include <stdlib.h>
#include <string.h>

/* Appends key k as hb_findings_add_key would (escaped with s->escape_messages), from s's memo
 * when it was quoted lately. */
static int quote_key(struct hb_reach_stream *s, struct hb_buf *b, const void *k, size_t n)
{
	unsigned j, lru = 0;

	for (j = 0; j < HB_REACH_MEMO; j++) {
		if (s->quoted[j].used && s->quoted[j].key.len == n &&
		    (!n || !memcmp(s->quoted[j].key.data, k, n)))
			break;
		if (s->quoted[j].used < s->quoted[lru].used)
			lru = j;
	}
	if (j == HB_REACH_MEMO) {
		/* the least recently used goes: a smallest key shared by most regions stays */
		j = lru;
		s->quoted[j].used = 0;
		hb_buf_reset(&s->quoted[j].key);
		hb_buf_reset(&s->quoted[j].text);
		if (hb_buf_add(&s->quoted[j].key, k, n) ||
		    hb_findings_add_key_as(&s->quoted[j].text, k, n, s->escape_messages))
			return HB_ENOMEM;
	}
	s->quoted[j].used = ++s->quoted_clock;
	return hb_buf_add(b, s->quoted[j].text.data, s->quoted[j].text.len);
}

/* Appends "region I ['start', 'end')", the keys through memo when given. */
static int add_region_via(struct hb_buf *b, size_t i, const struct hb_region *r,
                          struct hb_reach_stream *memo)
{
	int rc = hb_buf_adds(b, "region ");

	if (!rc)
		rc = hb_buf_add_uint(b, i);
	if (!rc)
		rc = hb_buf_adds(b, " [");
	if (!rc)
		rc = memo ? quote_key(memo, b, r->start, r->start_len)
		          : hb_findings_add_key(b, r->start, r->start_len);
	if (!rc)
		rc = hb_buf_adds(b, ", ");
	if (!rc)
		rc = memo ? quote_key(memo, b, r->end, r->end_len)
		          : hb_findings_add_key(b, r->end, r->end_len);
	if (!rc)
		rc = hb_buf_addc(b, ')');
	return rc;
}

int hb_audit_regions_from_splits(struct hb_regions *out, const struct hb_keys *splits)
{
	size_t i;

	for (i = 0; i <= splits->n; i++) {
		struct hb_region r;
		size_t sl = 0, el = 0;

		memset(&r, 0, sizeof(r));
		r.start = i ? (unsigned char *)hb_keys_at(splits, i - 1, &sl) : NULL;
		r.end = i < splits->n ? (unsigned char *)hb_keys_at(splits, i, &el) : NULL;
		r.start_len = sl;
		r.end_len = el;
		if (hb_regions_push(out, &r))
			return HB_ENOMEM;
	}
	return 0;
}

void hb_audit_init(struct hb_audit *a)
{
	memset(a, 0, sizeof(*a));
	hb_findings_init(&a->findings);
}

void hb_audit_release(struct hb_audit *a)
{
	size_t i;

	for (i = 0; i < a->ncounts; i++)
		free(a->counts[i].keys);
	free(a->counts);
	free(a->r);
	free(a->total_keys);
	hb_findings_release(&a->findings);
	hb_audit_init(a);
}

int hb_reach_stream_begin(struct hb_reach_stream *s, struct hb_keyspace *ks, struct hb_error *err)
{
	int rc, j;

	memset(s, 0, sizeof(*s));
	s->ks = ks;
	mpz_init(s->total);
	mpz_init(s->keys);
	for (j = 0; j < HB_REACH_MEMO; j++)
		mpz_init(s->memo[j].keys);
	s->inited = 1;
	rc = hb_keyspace_total(ks, s->total, err);
	if (!rc) {
		s->total_keys = mpz_get_str(NULL, 10, s->total);
		if (!s->total_keys)
			rc = hb_error_set(err, HB_ENOMEM, "out of memory");
	}
	return rc;
}

void hb_reach_stream_release(struct hb_reach_stream *s)
{
	int j;

	if (s->inited) {
		mpz_clear(s->total);
		mpz_clear(s->keys);
		for (j = 0; j < HB_REACH_MEMO; j++) {
			mpz_clear(s->memo[j].keys);
			hb_buf_release(&s->memo[j].num);
			hb_buf_release(&s->quoted[j].key);
			hb_buf_release(&s->quoted[j].text);
		}
	}
	free(s->total_keys);
	hb_buf_release(&s->first);
	hb_buf_release(&s->msg);
	memset(s, 0, sizeof(*s));
}

/* Sets out->keys and out->share from s->keys, converting only counts not seen lately. */
static int reach_memo(struct hb_reach_stream *s, struct hb_audit_region *out)
{
	unsigned j;

	for (j = 0; j < HB_REACH_MEMO; j++)
		if (s->memo[j].used && !mpz_cmp(s->memo[j].keys, s->keys))
			break;
	if (j == HB_REACH_MEMO) {
		struct hb_buf *num;

		j = s->memo_next;
		s->memo_next = (s->memo_next + 1) % HB_REACH_MEMO;
		num = &s->memo[j].num;
		s->memo[j].used = 0;
		hb_buf_reset(num);
		if (hb_buf_grow(num, mpz_sizeinbase(s->keys, 10) + 2))
			return HB_ENOMEM;
		mpz_get_str(num->data, 10, s->keys);
		num->len = strlen(num->data);
		mpz_set(s->memo[j].keys, s->keys);
		s->memo[j].share = hb_mpz_ratio(s->keys, s->total);
		s->memo[j].used = 1;
	}
	out->keys = s->memo[j].num.data;
	out->share = s->memo[j].share;
	return 0;
}

int hb_reach_stream_next(struct hb_reach_stream *s, size_t i, const struct hb_region *r,
                         struct hb_audit_region *out, struct hb_findings *f, struct hb_error *err)
{
	int reach, rc;

	hb_buf_reset(&s->first);
	hb_buf_reset(&s->msg);
	rc = hb_keyspace_region(s->ks, &reach, s->decide_only ? NULL : s->keys, &s->first, r->start,
	                        r->start_len, r->end, r->end_len, err);
	if (rc)
		return rc;
	out->reachable = reach;
	out->keys = NULL;
	out->share = 0;
	if (!s->decide_only && reach_memo(s, out))
		return hb_error_set(err, HB_ENOMEM, "out of memory");
	if (reach || !hb_region_is_live(r))
		return 0;
	s->unreachable++;
	if (!f && !s->keep_message)
		return 0;
	rc = add_region_via(&s->msg, i, r, s);
	if (!rc && s->first.len) {
		rc = hb_buf_adds(&s->msg, ": no key of the key space falls in it; the smallest "
		                          "key at or after its start is ");
		if (!rc)
			rc = quote_key(s, &s->msg, s->first.data, s->first.len);
		if (!rc)
			rc = hb_buf_adds(&s->msg, ", not below its end");
	} else if (!rc) {
		rc = hb_buf_adds(&s->msg, ": no key of the key space falls in it; every key "
		                          "sorts before its start");
	}
	if (!rc && f)
		rc = hb_findings_add_buf(f, HB_FIND_UNREACHABLE, (long)i, &s->msg);
	return rc ? hb_error_set(err, HB_ENOMEM, "out of memory") : 0;
}

void hb_audit_at(const struct hb_audit *a, size_t i, struct hb_audit_region *out)
{
	uint32_t v = a->r[i];

	memset(out, 0, sizeof(*out));
	out->reachable = -1;
	if (!(v & ~HB_AUDIT_REACHABLE))
		return;
	*out = a->counts[(v & ~HB_AUDIT_REACHABLE) - 1];
	out->reachable = !!(v & HB_AUDIT_REACHABLE);
}

/* Region i's result as decided by the reach stream (keys owned by the stream): its count is
 * looked up among the last few distinct ones and kept when new. */
#define COUNTS_SEARCHED 8
static int keep_result(struct hb_audit *a, size_t i, const struct hb_audit_region *ar)
{
	size_t k;

	for (k = a->ncounts; k > 0 && k + COUNTS_SEARCHED > a->ncounts; k--)
		if (!strcmp(a->counts[k - 1].keys, ar->keys))
			break;
	if (!k) {
		if (a->ncounts >= (size_t)(HB_AUDIT_REACHABLE - 1) ||
		    HB_VEC_GROW(a->counts, a->counts_cap, a->ncounts + 1, 16))
			return HB_ENOMEM;
		a->counts[a->ncounts] = *ar;
		a->counts[a->ncounts].keys = strdup(ar->keys);
		if (!a->counts[a->ncounts].keys)
			return HB_ENOMEM;
		k = ++a->ncounts;
	}
	a->r[i] = (uint32_t)k | (ar->reachable ? HB_AUDIT_REACHABLE : 0);
	return 0;
}

int hb_audit_reach(struct hb_audit *a, struct hb_keyspace *ks, const struct hb_regions *rs,
                   struct hb_error *err)
{
	struct hb_reach_stream s;
	size_t i;
	int rc = 0;

	a->r = calloc(rs->n ? rs->n : 1, sizeof(*a->r));
	if (!a->r)
		return hb_error_set(err, HB_ENOMEM, "out of memory");
	a->n = rs->n;
	if (!ks)
		return 0;
	rc = hb_reach_stream_begin(&s, ks, err);
	if (!rc) {
		a->total_keys = s.total_keys;
		s.total_keys = NULL;
	}
	for (i = 0; !rc && i < rs->n; i++) {
		struct hb_region_view v;
		struct hb_audit_region ar;

		rc = hb_reach_stream_next(&s, i, hb_regions_at_unnamed(rs, i, &v), &ar,
		                          &a->findings, err);
		if (rc)
			break;
		if (keep_result(a, i, &ar))
			rc = hb_error_set(err, HB_ENOMEM, "out of memory");
	}
	hb_reach_stream_release(&s);
	return rc;
}
