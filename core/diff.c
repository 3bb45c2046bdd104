/* Difference lines with a cap. */
#include "diff.h"

#include <stdarg.h>

void hb_diff_init(struct hb_diff *d, size_t max)
{
	hb_buf_init(&d->lines, 0);
	d->n = 0;
	d->max = max;
}

void hb_diff_release(struct hb_diff *d)
{
	hb_buf_release(&d->lines);
	d->n = 0;
}

int hb_diff_line(struct hb_diff *d, const char *fmt, ...)
{
	va_list ap;
	int rc;

	d->n++;
	if (d->n > d->max)
		return 0;
	va_start(ap, fmt);
	rc = hb_buf_vaddf(&d->lines, fmt, ap);
	va_end(ap);
	return rc ? rc : hb_buf_addc(&d->lines, '\n');
}

int hb_diff_close(struct hb_diff *d)
{
	if (d->n <= d->max)
		return 0;
	return hb_buf_addf(&d->lines, "... and %zu more differences\n", d->n - d->max);
}
