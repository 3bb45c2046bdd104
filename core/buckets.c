/* The buckets of a design whose row keys depend on N, and whether a range crosses one. */
#include "buckets.h"

#include "key.h"
#include "splitspec.h"

#include <string.h>

void hb_buckets_of_design(struct hb_buckets *out, const char *splits, unsigned long long n,
                          const struct hb_keyspace *ks)
{
	struct hb_splitspec_design d = {HB_SPLIT_NONE, 0, 1};
	unsigned long long parts = 0;
	int width = 0;

	memset(out, 0, sizeof(*out));
	if (ks && hb_keyspace_partitions(ks, &parts, &width)) {
		out->kind = "partition";
	} else if (n && !hb_splitspec_design(splits, &d) && d.algo == HB_SPLIT_PARTITION) {
		parts = n;
		width = 8;
		out->kind = "partition";
	} else if (n && d.algo == HB_SPLIT_SALT) {
		parts = n;
		width = d.salt_width;
		out->kind = "salt";
	}
	if (parts < 2 || width < 1 || width > 8) {
		memset(out, 0, sizeof(*out));
		return;
	}
	out->parts = parts;
	out->width = width;
}

/* The first key of bucket k: k as width big-endian bytes. */
static void bucket_key(unsigned char *out, unsigned long long k, int width)
{
	int b;

	for (b = 0; b < width; b++)
		out[b] = (unsigned char)(k >> (8 * (width - 1 - b)));
}

int hb_buckets_of_boundaries(struct hb_buckets *out, const struct hb_regions *rs)
{
	static const int widths[] = {1, 2, 8};
	size_t w, i;

	memset(out, 0, sizeof(*out));
	for (w = 0; rs->n >= 2 && w < sizeof(widths) / sizeof(widths[0]); w++) {
		int width = widths[w];

		if (width < 8 && (unsigned long long)rs->n > (1ULL << (8 * width)))
			continue;
		for (i = 1; i < rs->n; i++) {
			const unsigned char *a, *b;
			size_t al, bl;
			unsigned char want[8];

			hb_regions_bounds(rs, i, &a, &al, &b, &bl);
			bucket_key(want, i, width);
			if (al != (size_t)width || memcmp(a, want, al))
				break;
		}
		if (i == rs->n) {
			out->parts = rs->n;
			out->width = width;
			out->kind = width == 8 ? "partition" : "salt";
			return 1;
		}
	}
	return 0;
}

/* The bucket holding key x: the largest k < parts whose first key is <= x. */
static unsigned long long bucket_of(const struct hb_buckets *bk, const unsigned char *x, size_t len)
{
	unsigned long long lo = 0, hi = bk->parts - 1;
	unsigned char want[8];

	while (lo < hi) {
		unsigned long long mid = lo + (hi - lo + 1) / 2;

		bucket_key(want, mid, bk->width);
		if (hb_key_cmp(want, (size_t)bk->width, x, len) <= 0)
			lo = mid;
		else
			hi = mid - 1;
	}
	return lo;
}

int hb_buckets_crossed(const struct hb_buckets *b, const void *start, size_t start_len,
                       const void *end, size_t end_len)
{
	unsigned long long k;
	unsigned char next[8];

	if (!b || b->parts < 2)
		return 0;
	k = bucket_of(b, start, start_len);
	if (k + 1 >= b->parts)
		return 0; /* the last bucket runs to the table's end */
	if (!end_len)
		return 1;
	bucket_key(next, k + 1, b->width);
	/* the next bucket starts strictly before end: [start, end) holds its first key */
	return hb_key_cmp(next, (size_t)b->width, end, end_len) < 0;
}
