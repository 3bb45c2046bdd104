/* Region boundaries verified against the designed split keys. */
#include "bounds.h"

#include <stdlib.h>

void hb_bounds_dedupe_replicas(struct hb_regions *rs)
{
	size_t i, o = 0;

	for (i = 0; i < rs->n; i++) {
		if (o &&
		    !hb_key_cmp(rs->v[o - 1].start, rs->v[o - 1].start_len, rs->v[i].start,
		                rs->v[i].start_len) &&
		    !hb_key_cmp(rs->v[o - 1].end, rs->v[o - 1].end_len, rs->v[i].end,
		                rs->v[i].end_len)) {
			hb_region_release(&rs->v[i]);
			continue;
		}
		rs->v[o++] = rs->v[i];
	}
	rs->n = o;
}

int hb_bounds_chain_complete(const struct hb_regions *rs)
{
	size_t i;

	if (!rs->n || rs->v[0].start_len || rs->v[rs->n - 1].end_len)
		return 0;
	for (i = 0; i + 1 < rs->n; i++)
		if (!rs->v[i].end_len || hb_key_cmp(rs->v[i].end, rs->v[i].end_len,
		                                    rs->v[i + 1].start, rs->v[i + 1].start_len))
			return 0;
	return 1;
}

int hb_bounds_equal(const struct hb_regions *rs, const struct hb_keys *splits)
{
	size_t i;

	if (rs->n != splits->n + 1 || !hb_bounds_chain_complete(rs))
		return 0;
	for (i = 0; i < splits->n; i++) {
		size_t kl;
		const unsigned char *k = hb_keys_at(splits, i, &kl);

		if (hb_key_cmp(rs->v[i].end, rs->v[i].end_len, k, kl))
			return 0;
	}
	return 1;
}

static int cmp_end_ptr(const void *a, const void *b)
{
	const struct hb_region *ra = *(const struct hb_region *const *)a;
	const struct hb_region *rb = *(const struct hb_region *const *)b;

	return hb_key_cmp(ra->end, ra->end_len, rb->end, rb->end_len);
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
	const struct hb_region **ends;
	size_t i, j, ne = 0;
	int rc;

	rc = hb_diff_line(d, "planned %zu region%s, found %zu", splits->n + 1, splits->n ? "s" : "",
	                  rs->n);
	ends = calloc(rs->n ? rs->n : 1, sizeof(*ends));
	if (!ends)
		return HB_ENOMEM;
	for (i = 0; i < rs->n; i++)
		if (rs->v[i].end_len)
			ends[ne++] = &rs->v[i];
	qsort(ends, ne, sizeof(*ends), cmp_end_ptr);
	for (i = 0, j = 0; !rc && (i < splits->n || j < ne);) {
		size_t kl = 0;
		const unsigned char *k = i < splits->n ? hb_keys_at(splits, i, &kl) : NULL;
		int c = !k ? 1 : j >= ne ? -1 : hb_key_cmp(k, kl, ends[j]->end, ends[j]->end_len);

		if (c == 0) {
			i++;
			j++;
		} else if (c < 0) {
			rc = key_line(d, &t, "- missing boundary", k, kl);
			i++;
		} else {
			rc = key_line(d, &t, "+ unexpected boundary", ends[j]->end,
			              ends[j]->end_len);
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
