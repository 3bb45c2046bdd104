/* Hot keys: a hot region's range decoded through the key space into the prefixes it holds. */
#include "hotkeys.h"

#include "key.h"
#include "splitspec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Distinct prefixes counted at most while choosing a prefix length. */
#define PREFIX_COUNT_CAP 65536

void hb_hot_keys_init(struct hb_hot_keys *k)
{
	memset(k, 0, sizeof(*k));
}

void hb_hot_keys_release(struct hb_hot_keys *k)
{
	size_t i;

	for (i = 0; i < k->n; i++)
		free(k->v[i].prefix);
	free(k->v);
	hb_hot_keys_init(k);
}

/* The smallest string above every string that starts with p (len bytes) into out: p with its
 * last byte below 0xFF raised by one and what follows dropped. 0 when there is none (p is all
 * 0xFF bytes: unbounded above). */
static int prefix_next(struct hb_buf *out, const unsigned char *p, size_t len)
{
	while (len && p[len - 1] == 0xFF)
		len--;
	hb_buf_reset(out);
	if (!len)
		return 0;
	if (hb_buf_add(out, p, len))
		return -1;
	((unsigned char *)out->data)[len - 1]++;
	return 1;
}

/* Counts the keys of K in [lo, hi) into out (hi_len 0 with !hi_bounded: to the end). */
static int count_range(struct hb_keyspace *ks, mpz_t out, mpz_t tmp, const void *lo, size_t lo_len,
                       const void *hi, size_t hi_len, int hi_bounded, struct hb_error *err)
{
	int rc = hi_bounded ? hb_keyspace_count_below(ks, out, hi, hi_len, err)
	                    : hb_keyspace_total(ks, out, err);

	if (!rc)
		rc = hb_keyspace_count_below(ks, tmp, lo, lo_len, err);
	if (!rc)
		mpz_sub(out, out, tmp);
	return rc;
}

int hb_hot_keys_design_keyspace(const char *splits, char *out, size_t cap)
{
	struct hb_splitspec_design d;

	if (hb_splitspec_design(splits, &d) || d.n <= 1)
		return 0;
	if (d.algo == HB_SPLIT_PARTITION) {
		snprintf(out, cap, "u64<%llu *", d.n);
		return 1;
	}
	if (d.algo != HB_SPLIT_SALT || d.n > (d.salt_width == 2 ? 65536ULL : 256ULL))
		return 0;
	snprintf(out, cap, "u%d<%llu *", d.salt_width == 2 ? 16 : 8, d.n);
	return 1;
}

int hb_hot_keys_prefix_len(struct hb_keyspace *ks, size_t regions, size_t *len, int *buckets,
                           struct hb_error *err)
{
	unsigned long long n;
	struct hb_buf s = HB_BUF_INIT, k = HB_BUF_INIT;
	int w, rc = 0;

	*buckets = 0;
	if (hb_keyspace_partitions(ks, &n, &w)) {
		*len = (size_t)w;
		*buckets = 1;
		return 0;
	}
	for (*len = 1; !rc && *len < 8; ++*len) {
		size_t count = 0;
		int found = 1, more = 1;

		hb_buf_reset(&s);
		while (!rc && more && count < regions && count < PREFIX_COUNT_CAP) {
			hb_buf_reset(&k);
			rc = hb_keyspace_first_at_or_after(ks, &k, &found, s.data, s.len, err);
			if (rc || !found)
				break;
			count++;
			more = prefix_next(&s, (const unsigned char *)k.data,
			                   k.len < *len ? k.len : *len);
			if (more < 0)
				rc = hb_error_set(err, HB_ENOMEM, "out of memory");
		}
		if (rc || count >= regions || count >= PREFIX_COUNT_CAP)
			break;
	}
	hb_buf_release(&s);
	hb_buf_release(&k);
	return rc;
}

/* Region indices to decode: live, with writes, at least the fair share; the most written
 * HB_HOT_KEYS_MAX_REGIONS, returned in key order. */
static size_t pick_regions(const struct hb_regions *rs, const struct hb_hotspots *h, size_t *idx)
{
	size_t i, j, n = 0;

	for (i = 0; i < rs->n && i < h->n; i++) {
		struct hb_region_view v;

		if (!h->r[i].writes || hb_hotspots_share(h, i) + 1e-12 < h->fair_share ||
		    !hb_region_is_live(hb_regions_at_unnamed(rs, i, &v)))
			continue;
		if (n == HB_HOT_KEYS_MAX_REGIONS) {
			size_t low = 0;

			for (j = 1; j < n; j++)
				if (h->r[idx[j]].writes < h->r[idx[low]].writes)
					low = j;
			if (h->r[idx[low]].writes >= h->r[i].writes)
				continue;
			memmove(idx + low, idx + low + 1, (n - low - 1) * sizeof(*idx));
			n--;
		}
		idx[n++] = i;
	}
	return n;
}

static int add_key(struct hb_hot_keys *out, const unsigned char *p, size_t len, double share,
                   uint64_t writes, size_t region)
{
	struct hb_hot_key *e;

	if (out->n == out->cap) {
		size_t cap = out->cap ? 2 * out->cap : 16;
		void *v = realloc(out->v, cap * sizeof(*out->v));

		if (!v)
			return HB_ENOMEM;
		out->v = v;
		out->cap = cap;
	}
	e = &out->v[out->n];
	memset(e, 0, sizeof(*e));
	e->prefix = malloc(len ? len : 1);
	if (!e->prefix)
		return HB_ENOMEM;
	memcpy(e->prefix, p, len);
	e->len = len;
	e->bucket = -1;
	e->share = share;
	e->writes = writes;
	e->region = (long)region;
	e->regions = 1;
	out->n++;
	return 0;
}

/* The work buffers of one decoding. */
struct walk {
	struct hb_keyspace *ks;
	mpz_t total, part, tmp;
	struct hb_buf s, k, next;
};

/* Region i's prefixes into out, each with its part of the region's writes. */
static int decode_region(struct hb_hot_keys *out, struct walk *w, const struct hb_regions *rs,
                         const struct hb_hotspots *h, size_t i, struct hb_error *err)
{
	const unsigned char *st, *en;
	size_t sl, el, first = out->n, listed = 0;
	double share = hb_hotspots_share(h, i), given = 0;
	int rc, found;

	hb_regions_bounds(rs, i, &st, &sl, &en, &el);
	rc = count_range(w->ks, w->total, w->tmp, st, sl, en, el, el > 0, err);
	if (rc)
		return rc;
	if (!mpz_sgn(w->total)) {
		out->unlisted += share;
		return 0;
	}
	hb_buf_reset(&w->s);
	if (hb_buf_add(&w->s, st, sl))
		return HB_ENOMEM;
	for (;;) {
		size_t pl;
		int more;

		hb_buf_reset(&w->k);
		rc = hb_keyspace_first_at_or_after(w->ks, &w->k, &found, w->s.data, w->s.len, err);
		if (rc || !found || (el && hb_key_cmp(w->k.data, w->k.len, en, el) >= 0))
			break;
		if (listed == HB_HOT_KEYS_MAX_PREFIXES)
			break;
		pl = w->k.len < out->prefix_len ? w->k.len : out->prefix_len;
		more = prefix_next(&w->next, (const unsigned char *)w->k.data, pl);
		if (more < 0)
			return HB_ENOMEM;
		/* the prefix's keys in the region: [max(start, prefix), min(end, next)) */
		{
			const unsigned char *lo = (const unsigned char *)w->k.data;
			const unsigned char *hi = (const unsigned char *)w->next.data;
			size_t lol = pl, hil = w->next.len;
			int bounded = more > 0;
			double frac;

			if (hb_key_cmp(lo, lol, st, sl) < 0)
				lo = st, lol = sl;
			if (el && (!bounded || hb_key_cmp(hi, hil, en, el) > 0))
				hi = en, hil = el, bounded = 1;
			rc = count_range(w->ks, w->part, w->tmp, lo, lol, hi, hil, bounded, err);
			if (rc)
				return rc;
			frac = hb_mpz_ratio(w->part, w->total);
			given += frac;
			rc = add_key(out, (const unsigned char *)w->k.data, pl, share * frac,
			             (uint64_t)((double)h->r[i].writes * frac + 0.5), i);
			if (rc)
				return rc;
		}
		listed++;
		if (more <= 0 || (el && hb_key_cmp(w->next.data, w->next.len, en, el) >= 0))
			break;
		hb_buf_reset(&w->s);
		if (hb_buf_add(&w->s, w->next.data, w->next.len))
			return HB_ENOMEM;
	}
	if (rc)
		return rc;
	if (out->n - first == 1)
		out->v[first].measured = 1;
	if (given < 1)
		out->unlisted += share * (1 - given);
	return 0;
}

static int by_prefix(const void *a, const void *b)
{
	const struct hb_hot_key *x = a, *y = b;
	int d = hb_key_cmp(x->prefix, x->len, y->prefix, y->len);

	return d ? d : (x->region > y->region) - (x->region < y->region);
}

static int by_share(const void *a, const void *b)
{
	const struct hb_hot_key *x = a, *y = b;

	if (x->share != y->share)
		return x->share < y->share ? 1 : -1;
	return hb_key_cmp(x->prefix, x->len, y->prefix, y->len);
}

/* One entry per prefix (a prefix held by several regions summed; measured only when every
 * part was), ranked, buckets numbered. */
static void merge_and_rank(struct hb_hot_keys *out)
{
	size_t i, n = 0;

	qsort(out->v, out->n, sizeof(*out->v), by_prefix);
	for (i = 0; i < out->n; i++) {
		struct hb_hot_key *e = &out->v[i];

		if (n && !hb_key_cmp(out->v[n - 1].prefix, out->v[n - 1].len, e->prefix, e->len)) {
			struct hb_hot_key *m = &out->v[n - 1];

			m->share += e->share;
			m->writes += e->writes;
			m->regions++;
			m->measured = m->measured && e->measured;
			free(e->prefix);
			continue;
		}
		out->v[n++] = *e;
	}
	out->n = n;
	for (i = 0; i < n && out->buckets; i++) {
		struct hb_hot_key *e = &out->v[i];
		unsigned long long b = 0;
		size_t j;

		for (j = 0; j < e->len && e->len == out->prefix_len && e->len <= 8; j++)
			b = b << 8 | e->prefix[j];
		e->bucket =
		    e->len == out->prefix_len && b <= 0x7FFFFFFFFFFFFFFFULL ? (long long)b : -1;
	}
	qsort(out->v, out->n, sizeof(*out->v), by_share);
}

int hb_hot_keys_compute(struct hb_hot_keys *out, struct hb_keyspace *ks,
                        const struct hb_regions *rs, const struct hb_hotspots *h,
                        struct hb_error *err)
{
	size_t idx[HB_HOT_KEYS_MAX_REGIONS], live = 0, i, n;
	struct walk w;
	int rc;

	for (i = 0; i < rs->n; i++) {
		struct hb_region_view v;

		live += hb_region_is_live(hb_regions_at_unnamed(rs, i, &v)) != 0;
	}
	rc = hb_hot_keys_prefix_len(ks, live ? live : 1, &out->prefix_len, &out->buckets, err);
	if (rc)
		return rc;
	n = pick_regions(rs, h, idx);
	memset(&w, 0, sizeof(w));
	w.ks = ks;
	mpz_inits(w.total, w.part, w.tmp, NULL);
	for (i = 0; !rc && i < n; i++)
		rc = decode_region(out, &w, rs, h, idx[i], err);
	mpz_clears(w.total, w.part, w.tmp, NULL);
	hb_buf_release(&w.s);
	hb_buf_release(&w.k);
	hb_buf_release(&w.next);
	if (rc == HB_ENOMEM && !err->msg[0])
		hb_error_set(err, HB_ENOMEM, "out of memory");
	if (rc)
		return rc;
	out->regions = n;
	merge_and_rank(out);
	return 0;
}
