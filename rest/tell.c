/* Formatting a flow's warnings and -v lines for the caller's callbacks. */
#include "rest/tell.h"
#include "core/buf.h"

#include <stdarg.h>

static void tell(void (*fn)(void *, const char *), void *ctx, const char *fmt, va_list ap)
    __attribute__((format(printf, 3, 0)));

static void tell(void (*fn)(void *, const char *), void *ctx, const char *fmt, va_list ap)
{
	struct hb_buf b = HB_BUF_INIT;

	if (!hb_buf_vaddf(&b, fmt, ap))
		fn(ctx, hb_buf_str(&b));
	hb_buf_release(&b);
}

void hb_tell_warn(const struct hb_tell *t, const char *fmt, ...)
{
	va_list ap;

	if (!t || !t->warn)
		return;
	va_start(ap, fmt);
	tell(t->warn, t->ctx, fmt, ap);
	va_end(ap);
}

void hb_tell_verbose(const struct hb_tell *t, const char *fmt, ...)
{
	va_list ap;

	if (!t || !t->verbose)
		return;
	va_start(ap, fmt);
	tell(t->verbose, t->ctx, fmt, ap);
	va_end(ap);
}
