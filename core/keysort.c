/* hb_keys_order: an LSD radix sort on each key's 8-byte big-endian window, recursing into runs
 * of equal windows at the next 8 bytes (a multikey radix sort). */
#include "keysort.h"

#include <stdlib.h>
#include <string.h>

/* Runs this short are sorted by comparing whole keys (cheaper than eight counting passes). */
#define SMALL 48

struct ctx {
	const struct hb_keys *ks;
	uint32_t *idx, *tidx; /* the order being built; scratch of the same size */
	uint64_t *pfx, *tpfx; /* each position's window; scratch */
	size_t hist[8][256];  /* one level's byte counts, reused by the levels below it */
};

/* Bytes o .. o + 7 of key k as a big-endian number, 0 past the key's end. */
static inline uint64_t window(const unsigned char *k, size_t len, size_t o)
{
	uint64_t v = 0;
	size_t i;

	if (len >= o + 8) {
		k += o;
		return (uint64_t)k[0] << 56 | (uint64_t)k[1] << 48 | (uint64_t)k[2] << 40 |
		       (uint64_t)k[3] << 32 | (uint64_t)k[4] << 24 | (uint64_t)k[5] << 16 |
		       (uint64_t)k[6] << 8 | k[7];
	}
	for (i = o; i < o + 8; i++)
		v = v << 8 | (i < len ? k[i] : 0);
	return v;
}

static int cmp_at(const struct hb_keys *ks, uint32_t a, uint32_t b)
{
	size_t al, bl;
	const unsigned char *x = hb_keys_at(ks, a, &al), *y = hb_keys_at(ks, b, &bl);

	return hb_key_cmp(x, al, y, bl);
}

static void insertion(const struct hb_keys *ks, uint32_t *v, size_t n)
{
	size_t i, j;

	for (i = 1; i < n; i++) {
		uint32_t t = v[i];

		for (j = i; j > 0 && cmp_at(ks, v[j - 1], t) > 0; j--)
			v[j] = v[j - 1];
		v[j] = t;
	}
}

/* Sorts positions at .. at + n - 1 by their windows (pfx), carrying idx along. */
static void radix(struct ctx *c, size_t at, size_t n)
{
	uint64_t *p = c->pfx + at, *tp = c->tpfx + at;
	uint32_t *x = c->idx + at, *tx = c->tidx + at;
	size_t i, d;

	memset(c->hist, 0, sizeof(c->hist));
	for (i = 0; i < n; i++)
		for (d = 0; d < 8; d++)
			c->hist[d][(p[i] >> (8 * d)) & 0xFF]++;
	for (d = 0; d < 8; d++) {
		size_t *h = c->hist[d], sum = 0, b;
		uint64_t *sp;
		uint32_t *sx;

		if (h[(p[0] >> (8 * d)) & 0xFF] == n)
			continue; /* every window has this byte: the pass would change nothing */
		for (b = 0; b < 256; b++) {
			size_t t = h[b];

			h[b] = sum;
			sum += t;
		}
		for (i = 0; i < n; i++) {
			size_t to = h[(p[i] >> (8 * d)) & 0xFF]++;

			tp[to] = p[i];
			tx[to] = x[i];
		}
		sp = p, p = tp, tp = sp;
		sx = x, x = tx, tx = sx;
	}
	if (p != c->pfx + at) {
		memcpy(c->pfx + at, p, n * sizeof(*p));
		memcpy(c->idx + at, x, n * sizeof(*x));
	}
}

/* Sorts positions at .. at + n - 1, whose keys share bytes 0 .. o - 1 and are longer than o
 * (or o is 0). */
static void sort_level(struct ctx *c, size_t at, size_t n, size_t o)
{
	size_t i, s, e;

	if (n <= SMALL) {
		insertion(c->ks, c->idx + at, n);
		return;
	}
	for (i = 0; i < n; i++) {
		size_t len;
		const unsigned char *k = hb_keys_at(c->ks, c->idx[at + i], &len);

		c->pfx[at + i] = window(k, len, o);
	}
	radix(c, at, n);
	for (s = 0; s < n; s = e) {
		size_t cnt[10] = {0}, pos[10], b, sum = 0, len;

		for (e = s + 1; e < n && c->pfx[at + e] == c->pfx[at + s]; e++)
			;
		if (e - s < 2)
			continue;
		/* Equal windows: a key ending inside the window is a prefix of every longer one
		 * there, so those come first, shortest first (same length = same key); the keys
		 * going on past the window are ordered by the next 8 bytes. */
		for (i = s; i < e; i++) {
			hb_keys_at(c->ks, c->idx[at + i], &len);
			cnt[len > o + 8 ? 9 : len - o]++;
		}
		for (b = 0; b < 10; b++) {
			pos[b] = sum;
			sum += cnt[b];
		}
		for (i = s; i < e; i++) {
			hb_keys_at(c->ks, c->idx[at + i], &len);
			c->tidx[at + s + pos[len > o + 8 ? 9 : len - o]++] = c->idx[at + i];
		}
		memcpy(c->idx + at + s, c->tidx + at + s, (e - s) * sizeof(*c->idx));
		sort_level(c, at + s + (e - s - cnt[9]), cnt[9], o + 8);
	}
}

/* A list already in order (a sample made sorted) costs one pass, or none when its maker marked
 * it ordered: fills out (one index of each distinct key with nout) and returns 1, or returns 0
 * at the first key out of order. Windows are compared first, whole keys only when they tie. */
static int in_order(uint32_t *out, size_t *nout, const struct hb_keys *ks)
{
	const unsigned char *base = (const unsigned char *)ks->bytes.data;
	uint64_t prev = 0, win;
	size_t i, j, len;
	int c;

	if (ks->n && ks->ordered == ks->n) {
		/* the list's maker says it is ordered and distinct */
		for (i = 0; i < ks->n; i++)
			out[i] = (uint32_t)i;
		if (nout)
			*nout = ks->n;
		return 1;
	}
	for (i = j = 0; i < ks->n; i++) {
		/* the keys read in place: this pass is all an ordered list costs */
		len = ks->off[i + 1] - ks->off[i];
		win = window(base + ks->off[i], len, 0);
		c = !i            ? 1
		    : win != prev ? (win > prev ? 1 : -1)
		                  : cmp_at(ks, (uint32_t)i, (uint32_t)i - 1);
		if (c < 0)
			return 0;
		if (c > 0 || !nout)
			out[j++] = (uint32_t)i;
		prev = win;
	}
	if (nout)
		*nout = j;
	return 1;
}

/* Sorts into out; with nout, keeps one index of each distinct key and counts them there. */
static int order(uint32_t *out, size_t *nout, const struct hb_keys *ks, struct hb_error *err)
{
	struct ctx *c;
	size_t i, j, n = ks->n;
	int rc = 0;

	if (n > UINT32_MAX)
		return hb_error_set(err, HB_EINVAL, "too many keys to sort (%zu)", n);
	if (in_order(out, nout, ks))
		return 0;
	for (i = 0; i < n; i++)
		out[i] = (uint32_t)i;
	if (n <= SMALL) {
		insertion(ks, out, n);
		for (i = j = 0; nout && i < n; i++)
			if (!j || cmp_at(ks, out[j - 1], out[i]))
				out[j++] = out[i];
		if (nout)
			*nout = j;
		return 0;
	}
	c = malloc(sizeof(*c));
	if (!c)
		return hb_error_set(err, HB_ENOMEM, "out of memory");
	c->ks = ks;
	c->idx = out;
	c->tidx = malloc(n * sizeof(*c->tidx));
	c->pfx = malloc(n * sizeof(*c->pfx));
	c->tpfx = malloc(n * sizeof(*c->tpfx));
	if (!c->tidx || !c->pfx || !c->tpfx) {
		rc = hb_error_set(err, HB_ENOMEM, "out of memory");
		goto done;
	}
	sort_level(c, 0, n, 0);
	/* Equal keys went the same way at every level, so they end with equal windows in pfx
	 * (the top one, or the one of the deepest level that sorted them by window): a window
	 * differing from the previous one means a new key without reading either. */
	for (i = j = 0; nout && i < n; i++)
		if (!j || c->pfx[i] != c->pfx[i - 1] || cmp_at(ks, out[j - 1], out[i]))
			out[j++] = out[i];
	if (nout)
		*nout = j;
done:
	free(c->tidx);
	free(c->pfx);
	free(c->tpfx);
	free(c);
	return rc;
}

int hb_keys_order(uint32_t *out, const struct hb_keys *ks, struct hb_error *err)
{
	return order(out, NULL, ks, err);
}

int hb_keys_order_distinct(uint32_t *out, size_t *nout, const struct hb_keys *ks,
                           struct hb_error *err)
{
	return order(out, nout, ks, err);
}
