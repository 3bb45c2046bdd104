/* hb_buf: one growable, NUL-terminated, binary-safe byte buffer with an optional size cap. */
#ifndef HB_BUF_H
#define HB_BUF_H

#include <stdarg.h>
#include <stddef.h>
#include <string.h>

struct hb_buf {
	char *data; /* always NUL-terminated after the first successful add; may be NULL before */
	size_t len; /* bytes used, excluding the terminating NUL */
	size_t cap; /* bytes allocated */
	size_t max; /* 0 = unbounded; otherwise len never exceeds max */
};

#define HB_BUF_INIT                                                                                \
	{                                                                                          \
		NULL, 0, 0, 0                                                                      \
	}

/* Prepares an empty buffer; max = 0 means no size cap. */
void hb_buf_init(struct hb_buf *b, size_t max);
/* Frees the storage; the buffer is empty and reusable afterwards. */
void hb_buf_release(struct hb_buf *b);
/* Empties the buffer but keeps its storage. */
void hb_buf_reset(struct hb_buf *b);
/* Makes room for extra more bytes. HB_ENOMEM, or HB_EINVAL when the cap would be exceeded. */
int hb_buf_grow(struct hb_buf *b, size_t extra);
/* Appends n raw bytes. HB_ENOMEM / HB_EINVAL (cap). */
int hb_buf_add_slow(struct hb_buf *b, const void *p, size_t n);
static inline int hb_buf_add(struct hb_buf *b, const void *p, size_t n)
{
	/* The common case: room for the bytes and the terminating NUL, no cap. */
	if (!b->max && n < b->cap - b->len) {
		if (n)
			memcpy(b->data + b->len, p, n);
		b->len += n;
		b->data[b->len] = '\0';
		return 0;
	}
	return hb_buf_add_slow(b, p, n);
}
/* Appends one byte. */
int hb_buf_addc_slow(struct hb_buf *b, int c);
static inline int hb_buf_addc(struct hb_buf *b, int c)
{
	/* The common case: room for the byte and the terminating NUL, under the cap. */
	if (b->len + 1 < b->cap && (!b->max || b->len < b->max)) {
		b->data[b->len++] = (char)c;
		b->data[b->len] = '\0';
		return 0;
	}
	return hb_buf_addc_slow(b, c);
}
/* Appends the decimal digits of v. */
int hb_buf_add_uint(struct hb_buf *b, unsigned long long v);
/* Appends a NUL-terminated string (inline: a literal's length is known when compiled). */
static inline int hb_buf_adds(struct hb_buf *b, const char *s)
{
	return hb_buf_add(b, s, strlen(s));
}
/* Appends printf-formatted text. */
int hb_buf_addf(struct hb_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int hb_buf_vaddf(struct hb_buf *b, const char *fmt, va_list ap)
    __attribute__((format(printf, 2, 0)));
/* Returns the data as a C string ("" for an empty buffer); never NULL. */
const char *hb_buf_str(const struct hb_buf *b);
/* Takes ownership of the storage (caller frees; never NULL on success), leaving b empty. */
char *hb_buf_detach(struct hb_buf *b, size_t *len_out);

#endif
