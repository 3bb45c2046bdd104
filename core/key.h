/* Row keys as bytes + length: HBase's unsigned order, toStringBinary / toBytesBinary, base64, key
 * lists. */
#ifndef HB_KEY_H
#define HB_KEY_H

#include "buf.h"
#include "hb.h"

#include <stddef.h>

/* HBase's maximum row length (Short.MAX_VALUE). */
#define HB_MAX_ROW_LENGTH 32767

/* Bytes.compareTo: unsigned bytes, then the shorter key first. Returns <0, 0, >0. */
int hb_key_cmp(const void *a, size_t alen, const void *b, size_t blen);

/* A key held elsewhere, for sorting keys without copying them. */
struct hb_key_ref {
	const unsigned char *p;
	size_t len;
};
/* hb_key_cmp of two struct hb_key_ref, as qsort wants it. */
int hb_key_ref_cmp(const void *a, const void *b);

/* Appends Bytes.toStringBinary(k): printable ASCII except '\', everything else \xHH upper case. */
int hb_tsb_append(struct hb_buf *out, const void *k, size_t n);
/* The same for a key shown between single quotes in a message: the quote itself as \x27
 * too, so 'a\x27b' reads back (toBytesBinary) as the key, and the quotes stay unambiguous. */
int hb_tsb_append_quoted(struct hb_buf *out, const void *k, size_t n);
/* hb_tsb_append's text (quoted: hb_tsb_append_quoted's) with a backslash before each '"' and
 * '\\' in it: the same characters as the body of a JSON string. Asks for room for 5 bytes a
 * byte (HB_EINVAL when that passes a capped buffer's cap), HB_ENOMEM. */
int hb_tsb_append_escaped(struct hb_buf *out, const void *k, size_t n, int quoted);

/* Appends Bytes.toBytesBinary(s) where s is UTF-8 text (docs/hbase-keys.md §2, the modern rule):
 * each UTF-16 code unit keeps its low 8 bits, only upper-case \xHH escapes, a bogus escape
 * drops only the backslash. HB_EINVAL with err filled for text that is not UTF-8. */
int hb_tbb_parse(struct hb_buf *out, const char *s, size_t n, struct hb_error *err);

/* The value of a hex digit of either case (0..15), or -1. */
int hb_hex_digit(int c);

/* Length of the valid UTF-8 sequence at p (1..4; no overlongs, surrogates or code points
 * above U+10FFFF), or 0 when the bytes there are not UTF-8. n must be >= 1. */
size_t hb_utf8_len(const void *p, size_t n);

/* Appends standard base64 (with '=' padding, no line breaks). */
int hb_b64_encode(struct hb_buf *out, const void *p, size_t n);
/* Appends the bytes of standard base64 text; HB_EINVAL on any malformed input. */
int hb_b64_decode(struct hb_buf *out, const char *s, size_t n);

/* A list of keys stored back to back in one allocation. Key i is [off[i], off[i+1]). */
struct hb_keys {
	struct hb_buf bytes;
	size_t *off; /* n + 1 entries once anything was pushed */
	size_t n;
	size_t cap;
	/* the first `ordered` keys are distinct and in HBase order, as the code that made them
	 * knows (0: nothing known); keys appended later leave it as it is */
	size_t ordered;
};

void hb_keys_init(struct hb_keys *ks);
void hb_keys_release(struct hb_keys *ks);
void hb_keys_clear(struct hb_keys *ks);
/* Makes room for n more keys of total bytes (exact sizes, no doubling). HB_ENOMEM. */
int hb_keys_reserve(struct hb_keys *ks, size_t n, size_t bytes);
/* Appends a copy of k. HB_ENOMEM. */
int hb_keys_push(struct hb_keys *ks, const void *k, size_t n);
/* Appends n keys of w bytes each and returns where their n x w bytes go, for the caller to
 * write before reading them (threads may write disjoint parts). NULL when out of memory. */
unsigned char *hb_keys_push_fixed(struct hb_keys *ks, size_t n, size_t w);
/* hb_keys_push_fixed without the offsets of the new keys: the caller sets them with
 * hb_keys_fixed_offsets (threads on disjoint ranges) before anything reads the list. */
unsigned char *hb_keys_push_fixed_open(struct hb_keys *ks, size_t n, size_t w);
/* Sets the offsets of keys from .. to - 1 of the keys of w bytes that hb_keys_push_fixed_open
 * appended at index first. */
void hb_keys_fixed_offsets(struct hb_keys *ks, size_t first, size_t w, size_t from, size_t to);
/* Key i's bytes (not NUL-terminated) and length. i must be < n. */
const unsigned char *hb_keys_at(const struct hb_keys *ks, size_t i, size_t *len_out);
/* Sorts in HBase order (stable relayout). HB_ENOMEM. */
int hb_keys_sort(struct hb_keys *ks);
/* Index of the first i with keys[i] >= k (binary search over sorted keys). */
size_t hb_keys_lower_bound(const struct hb_keys *ks, const void *k, size_t n);

#endif
