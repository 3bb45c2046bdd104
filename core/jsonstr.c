/* JSON string literals: the one writer of every JSON string hbtab prints or plans. */
#include "jsonstr.h"
#include "key.h"

#include <stdint.h>
#include <string.h>

/* Whether the valid UTF-8 sequence at p (l bytes) is a C1 control (U+0080..U+009F). */
static int is_c1(const unsigned char *p, size_t l)
{
	return l == 2 && p[0] == 0xC2 && p[1] < 0xA0;
}

/* Writes the JSON form of the character at p[*i] (of n) at w; returns the new end. */
static char *json_char(const unsigned char *p, size_t n, size_t *i, char *w)
{
	static const char hex[] = "0123456789abcdef";
	unsigned ch = p[*i];
	size_t l;

	if (ch < 0x80) {
		unsigned two = (ch == '"') | (ch == '\\'), plain = (ch - 0x20u < 0x5Fu) & !two;
		unsigned keep = 0u - plain, t = 0u - two;

		/* All forms written, the length picks one (ASCII needs no decoding). */
		w[0] = (char)((ch & keep) | ('\\' & ~keep));
		w[1] = (char)((ch & t) | ('u' & ~t));
		w[2] = '0';
		w[3] = '0';
		w[4] = hex[ch >> 4];
		w[5] = hex[ch & 15];
		(*i)++;
		return w + 6 - 5 * plain - 4 * two;
	}
	l = hb_utf8_len(p + *i, n - *i);
	if (l > 0 && is_c1(p + *i, l)) {
		/* C1 controls escaped too: the document may go to a terminal. */
		memcpy(w, "\\u00", 4);
		w[4] = hex[p[*i + 1] >> 4];
		w[5] = hex[p[*i + 1] & 15];
		*i += l;
		return w + 6;
	}
	if (l > 0) {
		memcpy(w, p + *i, l);
		*i += l;
		return w + l;
	}
	memcpy(w, "\\ufffd", 6);
	(*i)++;
	return w + 6;
}

#if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define JSON_WORDS 1
#define ONES       0x0101010101010101ULL
#define LOWS       0x7F7F7F7F7F7F7F7FULL
#define HIGHS      0x8080808080808080ULL
/* A mark in the high bit of each byte of v that is zero (exact: no carry crosses a byte). */
static uint64_t zero_marks(uint64_t v)
{
	return ~(((v & LOWS) + LOWS) | v | LOWS);
}

/* Marks of the bytes of v JSON escapes with a backslash before them: '"' and '\\'. */
static uint64_t pair_marks(uint64_t v)
{
	return zero_marks(v ^ (ONES * '"')) | zero_marks(v ^ (ONES * '\\'));
}

/* Marks of the other bytes that are not copied as they are: controls, DEL and non-ASCII. */
static uint64_t other_marks(uint64_t v)
{
	uint64_t low = v & LOWS;

	return (v | ~(low + ONES * (0x80 - 0x20)) | (low + ONES)) & HIGHS;
}
#endif

int hb_json_str(struct hb_buf *out, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0;
	char *w;
	int rc;

	/* Written in place: at most 6 bytes out per byte in (\u00XX, \ufffd), plus quotes. */
	if (n > (SIZE_MAX - 2) / 6)
		return HB_ENOMEM;
	rc = hb_buf_grow(out, 6 * n + 2);
	if (rc)
		return rc;
	w = out->data + out->len;
	*w++ = '"';
#ifdef JSON_WORDS
	/* Eight bytes at a time while they are printable ASCII. '"' and '\\' (dense in
	 * toStringBinary text: one per \xHH) are escaped without a branch: both forms written,
	 * the length picks one. A word with any other byte goes a character at a time. */
	while (i + 8 <= n) {
		uint64_t v, m;
		int k;

		memcpy(&v, p + i, 8);
		if (other_marks(v)) {
			size_t end = i + 8;

			while (i < end) /* a character may run past the word */
				w = json_char(p, n, &i, w);
			continue;
		}
		m = pair_marks(v);
		if (!m) {
			memcpy(w, &v, 8);
			w += 8;
			i += 8;
			continue;
		}
		for (k = 0; k < 8; k++, m >>= 8, v >>= 8) {
			unsigned e = (unsigned)(m >> 7) & 1;

			w[0] = '\\';
			w[e] = (char)(v & 0xFF);
			w += 1 + e;
		}
		i += 8;
	}
#endif
	while (i < n)
		w = json_char(p, n, &i, w);
	*w++ = '"';
	*w = 0;
	out->len = (size_t)(w - out->data);
	return 0;
}

int hb_json_strz(struct hb_buf *out, const char *s)
{
	return hb_json_str(out, s, strlen(s));
}
