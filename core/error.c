/* The error record shared by all layers. */
#include "hb.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int hb_error_set(struct hb_error *err, int code, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return code;
	err->code = code;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	return code;
}

int hb_error_malformed(struct hb_error *err, const char *what, const char *fmt, ...)
{
	char detail[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(detail, sizeof(detail), fmt, ap);
	va_end(ap);
	return hb_error_set(err, HB_ESERVER, "malformed response from %s: %s", what, detail);
}

int hb_error_prefix(struct hb_error *err, int code, const char *fmt, ...)
{
	char prefix[HB_ERRMSG_MAX], old[HB_ERRMSG_MAX];
	va_list ap;

	if (!err)
		return code;
	va_start(ap, fmt);
	vsnprintf(prefix, sizeof(prefix), fmt, ap);
	va_end(ap);
	memcpy(old, err->msg, sizeof(old));
	/* Truncation of over-long messages is acceptable; they stay NUL-terminated. */
	{
		size_t pl = strlen(prefix);

		if (pl > sizeof(err->msg) - 3)
			pl = sizeof(err->msg) - 3;
		memcpy(err->msg, prefix, pl);
		memcpy(err->msg + pl, ": ", 2);
		snprintf(err->msg + pl + 2, sizeof(err->msg) - pl - 2, "%.*s",
		         (int)(sizeof(err->msg) - pl - 3), old);
	}
	if (!err->code)
		err->code = code;
	return err->code;
}

_Noreturn void hb_bug(const char *file, int line, const char *msg)
{
	/* The only place core writes to stderr: an invariant is broken, there is no caller to tell.
	 */
	fprintf(stderr, "hbtab: BUG at %s:%d: %s\n", file, line, msg);
	abort();
}
