/* Audit findings: the list, its order, and the quoting of keys and regions in messages. */
#include "findings.h"

#include "vec.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void hb_findings_init(struct hb_findings *f)
{
	f->v = NULL;
	f->n = f->cap = 0;
}

void hb_findings_release(struct hb_findings *f)
{
	size_t i;

	for (i = 0; i < f->n; i++)
		free(f->v[i].message);
	free(f->v);
	hb_findings_init(f);
}

int hb_findings_add(struct hb_findings *f, const char *kind, long region, const char *fmt, ...)
{
	struct hb_buf b = HB_BUF_INIT;
	va_list ap;
	int rc;

	if (HB_VEC_GROW(f->v, f->cap, f->n + 1, 16))
		return HB_ENOMEM;
	va_start(ap, fmt);
	rc = hb_buf_vaddf(&b, fmt, ap);
	va_end(ap);
	if (rc) {
		hb_buf_release(&b);
		return HB_ENOMEM;
	}
	f->v[f->n].kind = kind;
	f->v[f->n].region = region;
	f->v[f->n].message = hb_buf_detach(&b, NULL);
	f->n++;
	return 0;
}

int hb_findings_add_text(struct hb_findings *f, const char *kind, long region, const char *msg,
                         size_t len)
{
	char *m;

	if (HB_VEC_GROW(f->v, f->cap, f->n + 1, 16))
		return HB_ENOMEM;
	m = malloc(len + 1);
	if (!m)
		return HB_ENOMEM;
	memcpy(m, msg, len);
	m[len] = 0;
	f->v[f->n].kind = kind;
	f->v[f->n].region = region;
	f->v[f->n].message = m;
	f->n++;
	return 0;
}

static int finding_cmp(const struct hb_finding *a, const struct hb_finding *b)
{
	if ((a->region < 0) != (b->region < 0))
		return a->region < 0 ? 1 : -1;
	return a->region < b->region ? -1 : a->region > b->region;
}

void hb_findings_sort(struct hb_findings *f)
{
	size_t i, j;

	/* Insertion sort keeps equal keys in order; merge via a temporary when large. */
	if (f->n > 64) {
		struct hb_finding *tmp = malloc(f->n * sizeof(*tmp));
		size_t w;

		if (tmp) {
			for (w = 1; w < f->n; w *= 2) {
				size_t lo;

				for (lo = 0; lo < f->n; lo += 2 * w) {
					size_t mid = lo + w < f->n ? lo + w : f->n;
					size_t hi = lo + 2 * w < f->n ? lo + 2 * w : f->n;
					size_t a = lo, b = mid, o = lo;

					while (a < mid && b < hi)
						tmp[o++] = finding_cmp(&f->v[b], &f->v[a]) < 0
						               ? f->v[b++]
						               : f->v[a++];
					while (a < mid)
						tmp[o++] = f->v[a++];
					while (b < hi)
						tmp[o++] = f->v[b++];
				}
				memcpy(f->v, tmp, f->n * sizeof(*tmp));
			}
			free(tmp);
			return;
		}
	}
	for (i = 1; i < f->n; i++) {
		struct hb_finding x = f->v[i];

		for (j = i; j > 0 && finding_cmp(&x, &f->v[j - 1]) < 0; j--)
			f->v[j] = f->v[j - 1];
		f->v[j] = x;
	}
}

int hb_region_is_live(const struct hb_region *r)
{
	return !r->offline && !r->split && r->replica_id == 0;
}

int hb_findings_add_key_as(struct hb_buf *b, const unsigned char *k, size_t n, int escaped)
{
	int rc = hb_buf_addc(b, '\'');

	if (!rc)
		rc = escaped
		         ? hb_tsb_append_escaped(
		               b, k, n > HB_FINDINGS_KEY_SHOW_MAX ? HB_FINDINGS_KEY_SHOW_MAX : n, 1)
		         : hb_tsb_append_quoted(
		               b, k, n > HB_FINDINGS_KEY_SHOW_MAX ? HB_FINDINGS_KEY_SHOW_MAX : n);
	if (!rc && n > HB_FINDINGS_KEY_SHOW_MAX)
		rc = hb_buf_adds(b, "...");
	if (!rc)
		rc = hb_buf_addc(b, '\'');
	return rc;
}

int hb_findings_add_key(struct hb_buf *b, const unsigned char *k, size_t n)
{
	return hb_findings_add_key_as(b, k, n, 0);
}

int hb_findings_add_region(struct hb_buf *b, size_t i, const struct hb_region *r)
{
	int rc = hb_buf_adds(b, "region ");

	if (!rc)
		rc = hb_buf_add_uint(b, i);
	if (!rc)
		rc = hb_buf_adds(b, " [");
	if (!rc)
		rc = hb_findings_add_key(b, r->start, r->start_len);
	if (!rc)
		rc = hb_buf_adds(b, ", ");
	if (!rc)
		rc = hb_findings_add_key(b, r->end, r->end_len);
	if (!rc)
		rc = hb_buf_addc(b, ')');
	return rc;
}

int hb_findings_add_buf(struct hb_findings *f, const char *kind, long region, struct hb_buf *b)
{
	int rc = hb_findings_add_text(f, kind, region, hb_buf_str(b), b->len);

	hb_buf_reset(b);
	return rc;
}

int hb_region_end_cmp(const unsigned char *a, size_t alen, const unsigned char *b, size_t blen)
{
	if (!alen || !blen)
		return (alen == 0) - (blen == 0);
	return hb_key_cmp(a, alen, b, blen);
}

int hb_region_bounds_cmp(const unsigned char *as, size_t asl, const unsigned char *ae, size_t ael,
                         const unsigned char *bs, size_t bsl, const unsigned char *be, size_t bel)
{
	int d = hb_key_cmp(as, asl, bs, bsl);

	return d ? d : hb_region_end_cmp(ae, ael, be, bel);
}

/* Whether regions i and j of rs have the same bounds. */
static int same_bounds(const struct hb_regions *rs, size_t i, size_t j)
{
	const unsigned char *as, *ae, *bs, *be;
	size_t asl, ael, bsl, bel;

	hb_regions_bounds(rs, i, &as, &asl, &ae, &ael);
	hb_regions_bounds(rs, j, &bs, &bsl, &be, &bel);
	return !hb_region_bounds_cmp(as, asl, ae, ael, bs, bsl, be, bel);
}

size_t hb_regions_next_live(const struct hb_regions *rs, size_t i, long *last)
{
	for (; i < rs->n; i++) {
		struct hb_region_view v;

		if (!hb_region_is_live(hb_regions_at_unnamed(rs, i, &v)))
			continue;
		if (*last >= 0 && same_bounds(rs, (size_t)*last, i))
			continue;
		*last = (long)i;
		return i;
	}
	return rs->n;
}
