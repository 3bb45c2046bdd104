/* The growable byte buffer used for keys, bodies and messages. */
#include "buf.h"
#include "hb.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void hb_buf_init(struct hb_buf *b, size_t max)
{
	b->data = NULL;
	b->len = 0;
	b->cap = 0;
	b->max = max;
}

void hb_buf_release(struct hb_buf *b)
{
	free(b->data);
	b->data = NULL;
	b->len = 0;
	b->cap = 0;
}

void hb_buf_reset(struct hb_buf *b)
{
	b->len = 0;
	if (b->data)
		b->data[0] = '\0';
}

int hb_buf_grow(struct hb_buf *b, size_t extra)
{
	size_t need, ncap;
	char *p;

	if (extra > SIZE_MAX - b->len - 1)
		return HB_ENOMEM;
	need = b->len + extra + 1;
	if (b->max && b->len + extra > b->max)
		return HB_EINVAL;
	if (need <= b->cap)
		return 0;
	ncap = b->cap ? b->cap : 64;
	while (ncap < need)
		ncap = ncap > SIZE_MAX / 2 ? need : ncap * 2;
	p = realloc(b->data, ncap);
	if (!p)
		return HB_ENOMEM;
	if (!b->data)
		p[0] = '\0';
	b->data = p;
	b->cap = ncap;
	return 0;
}

int hb_buf_add_slow(struct hb_buf *b, const void *p, size_t n)
{
	int rc = hb_buf_grow(b, n);

	if (rc)
		return rc;
	if (n)
		memcpy(b->data + b->len, p, n);
	b->len += n;
	b->data[b->len] = '\0';
	return 0;
}

int hb_buf_addc_slow(struct hb_buf *b, int c)
{
	unsigned char ch = (unsigned char)c;

	return hb_buf_add_slow(b, &ch, 1);
}

int hb_buf_add_uint(struct hb_buf *b, unsigned long long v)
{
	static const char pairs[] = "00010203040506070809101112131415161718192021222324"
	                            "25262728293031323334353637383940414243444546474849"
	                            "50515253545556575859606162636465666768697071727374"
	                            "75767778798081828384858687888990919293949596979899";
	char d[24];
	size_t n = sizeof(d);

	/* two digits a division */
	for (; v >= 100; v /= 100) {
		n -= 2;
		memcpy(d + n, pairs + 2 * (v % 100), 2);
	}
	if (v >= 10) {
		n -= 2;
		memcpy(d + n, pairs + 2 * v, 2);
	} else {
		d[--n] = (char)('0' + v);
	}
	return hb_buf_add(b, d + n, sizeof(d) - n);
}

int hb_buf_vaddf(struct hb_buf *b, const char *fmt, va_list ap)
{
	va_list cp;
	int n, rc;

	va_copy(cp, ap);
	n = vsnprintf(NULL, 0, fmt, cp);
	va_end(cp);
	if (n < 0)
		return HB_EINVAL;
	rc = hb_buf_grow(b, (size_t)n);
	if (rc)
		return rc;
	vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
	b->len += (size_t)n;
	return 0;
}

int hb_buf_addf(struct hb_buf *b, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = hb_buf_vaddf(b, fmt, ap);
	va_end(ap);
	return rc;
}

const char *hb_buf_str(const struct hb_buf *b)
{
	return b->data ? b->data : "";
}

char *hb_buf_detach(struct hb_buf *b, size_t *len_out)
{
	char *p;

	if (!b->data && hb_buf_grow(b, 0))
		return NULL;
	p = b->data;
	if (len_out)
		*len_out = b->len;
	b->data = NULL;
	b->len = 0;
	b->cap = 0;
	return p;
}
