/* Region boundaries verified against the designed split keys. */
#include "bounds.h"

#include <stdlib.h>

void hb_bounds_dedupe_replicas(struct hb_regions *rs)
{
	size_t i, o = 0;

	for (i = 0; i < rs->n; i++) {
		const unsigned char *ps, *pe, *s, *e;
		size_t psl, pel, sl, el;

		hb_regions_bounds(rs, i, &s, &sl, &e, &el);
		if (o) {
			hb_regions_bounds(rs, o - 1, &ps, &psl, &pe, &pel);
			if (!hb_key_cmp(ps, psl, s, sl) && !hb_key_cmp(pe, pel, e, el))
				continue;
		}
		hb_regions_move(rs, o++, i);
	}
	hb_regions_truncate(rs, o);
}

int hb_bounds_chain_complete(const struct hb_regions *rs)
{
	const unsigned char *s, *e, *ns, *ne;
	size_t i, sl, el, nsl, nel;

	if (!rs->n)
		return 0;
	hb_regions_bounds(rs, 0, &s, &sl, &e, &el);
	if (sl)
		return 0;
	for (i = 0; i + 1 < rs->n; i++) {
		hb_regions_bounds(rs, i + 1, &ns, &nsl, &ne, &nel);
		if (!el || hb_key_cmp(e, el, ns, nsl))
			return 0;
		e = ne;
		el = nel;
	}
	return !el;
}

int hb_bounds_equal(const struct hb_regions *rs, const struct hb_keys *splits)
{
	size_t i;

	if (rs->n != splits->n + 1 || !hb_bounds_chain_complete(rs))
		return 0;
	for (i = 0; i < splits->n; i++) {
		size_t kl, sl, el;
		const unsigned char *k = hb_keys_at(splits, i, &kl), *s, *e;

		hb_regions_bounds(rs, i, &s, &sl, &e, &el);
		if (hb_key_cmp(e, el, k, kl))
			return 0;
	}
	return 1;
}

/* Adds "WHAT 'K'" with K as toStringBinary. */
static int key_line(struct hb_diff *d, struct hb_buf *t, const char *what, const void *k, size_t kl)
{
	hb_buf_reset(t);
	if (hb_tsb_append(t, k, kl))
		return HB_ENOMEM;
	return hb_diff_line(d, "%s '%s'", what, hb_buf_str(t));
}

int hb_bounds_diff(struct hb_diff *d, const struct hb_regions *rs, const struct hb_keys *splits)
{
	struct hb_buf t = HB_BUF_INIT;
	struct hb_key_ref *ends;
	size_t i, j, ne = 0;
	int rc;

	rc = hb_diff_line(d, "planned %zu region%s, found %zu", splits->n + 1, splits->n ? "s" : "",
	                  rs->n);
	ends = calloc(rs->n ? rs->n : 1, sizeof(*ends));
	if (!ends)
		return HB_ENOMEM;
	for (i = 0; i < rs->n; i++) {
		const unsigned char *s;
		size_t sl;

		hb_regions_bounds(rs, i, &s, &sl, &ends[ne].p, &ends[ne].len);
		if (ends[ne].len)
			ne++;
	}
	qsort(ends, ne, sizeof(*ends), hb_key_ref_cmp);
	for (i = 0, j = 0; !rc && (i < splits->n || j < ne);) {
		size_t kl = 0;
		const unsigned char *k = i < splits->n ? hb_keys_at(splits, i, &kl) : NULL;
		int c = !k ? 1 : j >= ne ? -1 : hb_key_cmp(k, kl, ends[j].p, ends[j].len);

		if (c == 0) {
			i++;
			j++;
		} else if (c < 0) {
			rc = key_line(d, &t, "- missing boundary", k, kl);
			i++;
		} else {
			rc = key_line(d, &t, "+ unexpected boundary", ends[j].p, ends[j].len);
			j++;
		}
	}
	if (!rc && !hb_bounds_chain_complete(rs))
		rc = hb_diff_line(d, "the region chain has holes or overlaps (regions offline or "
		                     "in transition?)");
	if (!rc)
		rc = hb_diff_close(d);
	free(ends);
	hb_buf_release(&t);
	return rc;
}
