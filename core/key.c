/* Key order, HBase's binary-string forms, base64 and the packed key list. */
#include "key.h"
#include "vec.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int hb_key_cmp(const void *a, size_t alen, const void *b, size_t blen)
{
	size_t n = alen < blen ? alen : blen;
	int c = n ? memcmp(a, b, n) : 0;

	if (c)
		return c;
	return alen < blen ? -1 : alen > blen ? 1 : 0;
}

int hb_key_ref_cmp(const void *a, const void *b)
{
	const struct hb_key_ref *x = a, *y = b;

	return hb_key_cmp(x->p, x->len, y->p, y->len);
}

#define ONES  0x0101010101010101ULL
#define LOWS  0x7F7F7F7F7F7F7F7FULL
#define HIGHS 0x8080808080808080ULL

/* A mark in the high bit of each byte of v equal to c (exact: no carry crosses a byte); none
 * when c is not a byte value. */
static uint64_t byte_marks(uint64_t v, unsigned c)
{
	uint64_t x = v ^ (ONES * (c & 0xff));

	return c > 0xff ? 0 : ~(((x & LOWS) + LOWS) | x | LOWS);
}

/* Whether the 8 bytes at p are all printable ASCII other than '\\', x and y (so
 * toStringBinary copies them as they are). */
static int plain8(const unsigned char *p, unsigned x, unsigned y)
{
	uint64_t v, low;

	memcpy(&v, p, 8);
	low = v & LOWS;
	/* non-ASCII, below ' ' (low + 0x60 carries into bit 7 from ' ' on), DEL */
	return !(((v | ~(low + ONES * 0x60) | (low + ONES)) & HIGHS) | byte_marks(v, '\\') |
	         byte_marks(v, x) | byte_marks(v, y));
}

static int tsb_append(struct hb_buf *out, const void *k, size_t n, int quote)
{
	static const char hex[] = "0123456789ABCDEF";
	const unsigned char *p = k;
	unsigned q = quote ? '\'' : 0x100; /* a byte to escape besides the backslash */
	size_t i;
	char *w;
	int rc;

	if (out->max || n > SIZE_MAX / 8) {
		/* A capped buffer fails only when the text itself exceeds the cap. */
		rc = hb_buf_grow(out, n);
		for (i = 0; !rc && i < n; i++) {
			unsigned char c = p[i];
			char esc[4] = {'\\', 'x', hex[c >> 4], hex[c & 15]};

			rc = c >= 0x20 && c <= 0x7E && c != '\\' && c != q
			         ? hb_buf_addc(out, c)
			         : hb_buf_add(out, esc, 4);
		}
		return rc;
	}
	rc = hb_buf_grow(out, 4 * n); /* every byte as \xHH at worst */
	if (rc)
		return rc;
	w = out->data + out->len;
	for (i = 0; i < n; i++) {
		unsigned c = p[i];
		unsigned plain = (c - 0x20u < 0x5Fu) & (c != '\\') & (c != q), keep = 0u - plain;

		if (n - i >= 8 && plain8(p + i, q, 0x100)) { /* the usual run of plain text */
			memcpy(w, p + i, 8);
			w += 8;
			i += 7;
			continue;
		}

		/* Both forms written, the length picks one: no branch on the (random) bytes. */
		w[0] = (char)((c & keep) | ('\\' & ~keep));
		w[1] = 'x';
		w[2] = hex[c >> 4];
		w[3] = hex[c & 15];
		w += 4 - 3 * plain;
	}
	out->len = (size_t)(w - out->data);
	out->data[out->len] = 0;
	return 0;
}

/*
 * Each byte's toStringBinary form with JSON's backslashes, eight bytes wide (one store): a
 * printable ASCII byte other than '\' and '"' as itself, '"' as \", any other byte as \\xHH;
 * tsb_esc_len holds the length (1, 2 or 5).
 */
#define ESC_PLAIN(c) ((c) >= 0x20 && (c) <= 0x7E && (c) != '\\' && (c) != '"')
#define ESC_HEX(d)   ((char)((d) < 10 ? '0' + (d) : 'A' + (d)-10))
#define ESC_FORM(c)                                                                                \
	{                                                                                          \
		ESC_PLAIN(c) ? (char)(c) : '\\', (c) == '"' ? '"' : '\\', 'x', ESC_HEX((c) >> 4),  \
		    ESC_HEX((c)&15), 0, 0, 0                                                       \
	}
#define ESC_LEN(c)   (ESC_PLAIN(c) ? 1 : (c) == '"' ? 2 : 5)
#define ESC_4(F, c)  F(c), F((c) + 1), F((c) + 2), F((c) + 3)
#define ESC_16(F, c) ESC_4(F, c), ESC_4(F, (c) + 4), ESC_4(F, (c) + 8), ESC_4(F, (c) + 12)
#define ESC_64(F, c) ESC_16(F, c), ESC_16(F, (c) + 16), ESC_16(F, (c) + 32), ESC_16(F, (c) + 48)
#define ESC_256(F)   ESC_64(F, 0), ESC_64(F, 64), ESC_64(F, 128), ESC_64(F, 192)
static const char tsb_esc[256][8] = {ESC_256(ESC_FORM)};
static const unsigned char tsb_esc_len[256] = {ESC_256(ESC_LEN)};

int hb_tsb_append_escaped(struct hb_buf *out, const void *k, size_t n, int quoted)
{
	const unsigned char *p = k;
	unsigned q = quoted ? '\'' : 0x100; /* a byte to escape besides '\' and '"' */
	size_t i;
	char *w;
	int rc;

	if (n > SIZE_MAX / 8)
		return HB_ENOMEM;
	rc = hb_buf_grow(out, 5 * n + 3); /* every byte as \\xHH at worst, the last stored whole */
	if (rc)
		return rc;
	w = out->data + out->len;
	for (i = 0; i < n; i++) {
		unsigned c = p[i];

		if (n - i >= 8 && plain8(p + i, q, '"')) { /* the usual run of plain text */
			memcpy(w, p + i, 8);
			w += 8;
			i += 7;
			continue;
		}
		if (c == q) { /* rare: no table for it */
			memcpy(w, "\\\\x27", 5);
			w += 5;
			continue;
		}
		memcpy(w, tsb_esc[c], 8);
		w += tsb_esc_len[c];
	}
	out->len = (size_t)(w - out->data);
	out->data[out->len] = 0;
	return 0;
}

int hb_tsb_append(struct hb_buf *out, const void *k, size_t n)
{
	return tsb_append(out, k, n, 0);
}

int hb_tsb_append_quoted(struct hb_buf *out, const void *k, size_t n)
{
	return tsb_append(out, k, n, 1);
}

int hb_hex_digit(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

size_t hb_utf8_len(const void *v, size_t n)
{
	const unsigned char *p = v;
	size_t len, i;
	unsigned cp;

	if (p[0] < 0x80)
		return 1;
	if (p[0] >= 0xC2 && p[0] <= 0xDF)
		len = 2, cp = p[0] & 0x1F;
	else if (p[0] >= 0xE0 && p[0] <= 0xEF)
		len = 3, cp = p[0] & 0x0F;
	else if (p[0] >= 0xF0 && p[0] <= 0xF4)
		len = 4, cp = p[0] & 0x07;
	else
		return 0;
	if (len > n)
		return 0;
	for (i = 1; i < len; i++) {
		if ((p[i] & 0xC0) != 0x80)
			return 0;
		cp = cp << 6 | (p[i] & 0x3F);
	}
	if ((len == 3 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF))) ||
	    (len == 4 && (cp < 0x10000 || cp > 0x10FFFF)))
		return 0;
	return len;
}

/* Decodes UTF-8 into UTF-16 code units; returns the count or -1 for malformed input. */
static long utf8_to_utf16(const unsigned char *s, size_t n, uint16_t *out, size_t *bad_at)
{
	size_t i = 0, o = 0;

	while (i < n) {
		size_t len = hb_utf8_len(s + i, n - i), j;
		uint32_t cp;

		if (!len) {
			*bad_at = i;
			return -1;
		}
		cp = len == 1 ? s[i] : (uint32_t)(s[i] & (0xFF >> (len + 1)));
		for (j = 1; j < len; j++)
			cp = (cp << 6) | (s[i + j] & 0x3F);
		if (cp >= 0x10000) {
			cp -= 0x10000;
			out[o++] = (uint16_t)(0xD800 | (cp >> 10));
			out[o++] = (uint16_t)(0xDC00 | (cp & 0x3FF));
		} else {
			out[o++] = (uint16_t)cp;
		}
		i += len;
	}
	return (long)o;
}

static int upper_hex_val(uint16_t c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int hb_tbb_parse(struct hb_buf *out, const char *s, size_t n, struct hb_error *err)
{
	uint16_t *u;
	size_t bad = 0, i, m;
	long got;
	int rc = 0;

	u = malloc((n + 1) * sizeof(*u));
	if (!u)
		return hb_error_set(err, HB_ENOMEM, "out of memory");
	got = utf8_to_utf16((const unsigned char *)s, n, u, &bad);
	if (got < 0) {
		free(u);
		return hb_error_set(err, HB_EINVAL, "invalid UTF-8 at byte %zu", bad + 1);
	}
	m = (size_t)got;
	rc = hb_buf_grow(out, m);
	for (i = 0; !rc && i < m; i++) {
		if (u[i] == '\\' && i + 3 < m && u[i + 1] == 'x') {
			int hi = upper_hex_val(u[i + 2]), lo = upper_hex_val(u[i + 3]);

			if (hi < 0 || lo < 0)
				continue; /* bogus escape: only the backslash is dropped */
			rc = hb_buf_addc(out, hi << 4 | lo);
			i += 3;
		} else {
			rc = hb_buf_addc(out, u[i] & 0xFF);
		}
	}
	free(u);
	if (rc)
		return hb_error_set(err, rc, "key too long");
	return 0;
}

static const char b64chars[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

int hb_b64_encode(struct hb_buf *out, const void *p, size_t n)
{
	const unsigned char *s = p;
	size_t i;
	int rc;

	rc = hb_buf_grow(out, (n + 2) / 3 * 4);
	if (rc)
		return rc;
	for (i = 0; i + 2 < n; i += 3) {
		char q[4] = {b64chars[s[i] >> 2], b64chars[(s[i] & 3) << 4 | s[i + 1] >> 4],
		             b64chars[(s[i + 1] & 15) << 2 | s[i + 2] >> 6],
		             b64chars[s[i + 2] & 63]};
		hb_buf_add(out, q, 4);
	}
	if (n - i == 1) {
		char q[4] = {b64chars[s[i] >> 2], b64chars[(s[i] & 3) << 4], '=', '='};
		hb_buf_add(out, q, 4);
	} else if (n - i == 2) {
		char q[4] = {b64chars[s[i] >> 2], b64chars[(s[i] & 3) << 4 | s[i + 1] >> 4],
		             b64chars[(s[i + 1] & 15) << 2], '='};
		hb_buf_add(out, q, 4);
	}
	return 0;
}

static int b64val(unsigned char c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	if (c == '+')
		return 62;
	if (c == '/')
		return 63;
	return -1;
}

int hb_b64_decode(struct hb_buf *out, const char *s, size_t n)
{
	size_t i, pad = 0;
	unsigned char *w;
	int rc;

	if (n % 4)
		return HB_EINVAL;
	if (n && s[n - 1] == '=')
		pad++;
	if (n > 1 && s[n - 2] == '=')
		pad++;
	rc = hb_buf_grow(out, n / 4 * 3);
	if (rc)
		return rc;
	w = (unsigned char *)out->data + out->len;
	for (i = 0; i < n; i += 4) {
		int v[4], k, last = i + 4 == n;
		uint32_t x;

		for (k = 0; k < 4; k++) {
			v[k] = b64val((unsigned char)s[i + k]);
			if (v[k] < 0 && !(last && s[i + k] == '=' && k >= 4 - (int)pad))
				return HB_EINVAL;
			if (v[k] < 0)
				v[k] = 0;
		}
		x = (uint32_t)v[0] << 18 | (uint32_t)v[1] << 12 | (uint32_t)v[2] << 6 |
		    (uint32_t)v[3];
		*w++ = (unsigned char)(x >> 16);
		if (!(last && pad == 2))
			*w++ = (unsigned char)(x >> 8 & 0xFF);
		if (!(last && pad >= 1))
			*w++ = (unsigned char)(x & 0xFF);
		if (last && pad) {
			/* Non-canonical encodings (stray bits under the padding) are rejected. */
			if ((pad == 2 && (v[1] & 15)) || (pad == 1 && (v[2] & 3)))
				return HB_EINVAL;
		}
	}
	/* Bytes are committed only once the whole input was valid. */
	out->len = (size_t)((char *)w - out->data);
	out->data[out->len] = '\0';
	return 0;
}

void hb_keys_init(struct hb_keys *ks)
{
	hb_buf_init(&ks->bytes, 0);
	ks->off = NULL;
	ks->n = 0;
	ks->cap = 0;
	ks->ordered = 0;
}

void hb_keys_release(struct hb_keys *ks)
{
	hb_buf_release(&ks->bytes);
	free(ks->off);
	hb_keys_init(ks);
}

void hb_keys_clear(struct hb_keys *ks)
{
	hb_buf_reset(&ks->bytes);
	ks->n = ks->ordered = 0;
	if (ks->off)
		ks->off[0] = 0;
}

int hb_keys_reserve(struct hb_keys *ks, size_t n, size_t bytes)
{
	if (n > SIZE_MAX / sizeof(size_t) - ks->n - 2)
		return HB_ENOMEM;
	if (ks->n + n + 2 > ks->cap) {
		size_t ncap = ks->n + n + 2;
		size_t *p = realloc(ks->off, ncap * sizeof(*p));

		if (!p)
			return HB_ENOMEM;
		if (!ks->off)
			p[0] = 0;
		ks->off = p;
		ks->cap = ncap;
	}
	return hb_buf_grow(&ks->bytes, bytes);
}

int hb_keys_push(struct hb_keys *ks, const void *k, size_t n)
{
	int rc;

	if (ks->n + 2 > ks->cap) {
		int first = !ks->off;

		if (HB_VEC_GROW(ks->off, ks->cap, ks->n + 2, 16))
			return HB_ENOMEM;
		if (first)
			ks->off[0] = 0;
	}
	rc = hb_buf_add(&ks->bytes, k, n);
	if (rc)
		return rc;
	ks->n++;
	ks->off[ks->n] = ks->bytes.len;
	return 0;
}

unsigned char *hb_keys_push_fixed_open(struct hb_keys *ks, size_t n, size_t w)
{
	unsigned char *p;

	if (w && n > SIZE_MAX / w)
		return NULL;
	if (hb_keys_reserve(ks, n, n * w) || !ks->bytes.data)
		return NULL;
	p = (unsigned char *)ks->bytes.data + ks->bytes.len;
	ks->n += n;
	ks->bytes.len += n * w;
	ks->bytes.data[ks->bytes.len] = '\0';
	return p;
}

void hb_keys_fixed_offsets(struct hb_keys *ks, size_t first, size_t w, size_t from, size_t to)
{
	size_t at = ks->off[first] + (from - first) * w, i;

	for (i = from + 1; i <= to; i++)
		ks->off[i] = at += w;
}

unsigned char *hb_keys_push_fixed(struct hb_keys *ks, size_t n, size_t w)
{
	size_t first = ks->n;
	unsigned char *p = hb_keys_push_fixed_open(ks, n, w);

	if (p)
		hb_keys_fixed_offsets(ks, first, w, first, first + n);
	return p;
}

const unsigned char *hb_keys_at(const struct hb_keys *ks, size_t i, size_t *len_out)
{
	if (i >= ks->n)
		HB_BUG("key index out of range");
	*len_out = ks->off[i + 1] - ks->off[i];
	return (const unsigned char *)ks->bytes.data + ks->off[i];
}

static const struct hb_keys *sort_ctx;

static int cmp_index(const void *a, const void *b)
{
	size_t ia = *(const size_t *)a, ib = *(const size_t *)b, la, lb;
	const unsigned char *ka = hb_keys_at(sort_ctx, ia, &la);
	const unsigned char *kb = hb_keys_at(sort_ctx, ib, &lb);
	int c = hb_key_cmp(ka, la, kb, lb);

	return c ? c : (ia < ib ? -1 : ia > ib);
}

int hb_keys_sort(struct hb_keys *ks)
{
	struct hb_keys sorted;
	size_t *idx, i;
	int rc = 0;

	if (ks->n < 2)
		return 0;
	idx = malloc(ks->n * sizeof(*idx));
	if (!idx)
		return HB_ENOMEM;
	for (i = 0; i < ks->n; i++)
		idx[i] = i;
	sort_ctx = ks;
	qsort(idx, ks->n, sizeof(*idx), cmp_index);
	sort_ctx = NULL;
	hb_keys_init(&sorted);
	rc = hb_buf_grow(&sorted.bytes, ks->bytes.len);
	for (i = 0; !rc && i < ks->n; i++) {
		size_t len;
		const unsigned char *k = hb_keys_at(ks, idx[i], &len);

		rc = hb_keys_push(&sorted, k, len);
	}
	free(idx);
	if (rc) {
		hb_keys_release(&sorted);
		return rc;
	}
	hb_keys_release(ks);
	*ks = sorted;
	return 0;
}

size_t hb_keys_lower_bound(const struct hb_keys *ks, const void *k, size_t n)
{
	size_t lo = 0, hi = ks->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2, len;
		const unsigned char *m = hb_keys_at(ks, mid, &len);

		if (hb_key_cmp(m, len, k, n) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}
