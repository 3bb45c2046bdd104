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

/* The value after key in text, up to the first of stop (or the end of the line), into out;
 * 0 when key is not there or the value is empty. */
static int denied_field(char *out, size_t cap, const char *text, const char *key, const char *stop)
{
	const char *v = strstr(text, key);
	size_t n;

	if (!v)
		return 0;
	v += strlen(key);
	n = strcspn(v, stop);
	if (!n || n >= cap)
		return 0;
	memcpy(out, v, n);
	out[n] = '\0';
	return 1;
}

/*
 * HBase's AccessChecker words a denial "Insufficient permissions (user=U, scope=S,
 * [family=F, ][params=[...],]action=A)", or for a global check "Insufficient permissions for
 * user 'U' (global, action=A)"; the REST gateway sends it after "Forbidden", Thrift2 as the
 * TIOError's message, both behind the exception's class name.
 */
int hb_error_denied(char *out, size_t cap, const char *text)
{
	const char *d = text ? strstr(text, "AccessDeniedException") : NULL;
	char user[128] = "", action[64] = "", scope[300] = "", where[340];
	size_t n;

	if (!d)
		return 0;
	d = strstr(d, "Insufficient permissions") ? strstr(d, "Insufficient permissions") : d;
	if (!denied_field(user, sizeof(user), d, "user=", ",)\r\n"))
		denied_field(user, sizeof(user), d, "for user '", "'\r\n");
	denied_field(action, sizeof(action), d, "action=", ",)\r\n");
	if (denied_field(scope, sizeof(scope), d, "scope=", ",)\r\n") && strcmp(scope, "GLOBAL") &&
	    strcmp(scope, "global"))
		snprintf(where, sizeof(where), " on %s '%s'",
		         strchr(scope, ':') ? "table" : "namespace", scope);
	else if (scope[0] || strstr(d, "(global"))
		snprintf(where, sizeof(where), " on the whole cluster (global)");
	else
		where[0] = '\0';
	if (user[0] && action[0]) {
		snprintf(out, cap,
		         "permission denied: HBase refused user '%s' the %s permission%s (the "
		         "AccessController: an HBase admin can grant it)",
		         user, action, where);
		return 1;
	}
	/* another wording: the rest of its line, after the last class name */
	n = strcspn(d, "\r\n");
	for (const char *p = d; (p = strstr(p, "Exception: ")) && p < d + n; p += 11)
		d = p + 11;
	n = strcspn(d, "\r\n");
	snprintf(out, cap, "permission denied: %.*s", (int)(n > 300 ? 300 : n), d);
	return 1;
}

_Noreturn void hb_bug(const char *file, int line, const char *msg)
{
	/* The only place core writes to stderr: an invariant is broken, there is no caller to tell.
	 */
	fprintf(stderr, "hbtab: BUG at %s:%d: %s\n", file, line, msg);
	abort();
}
