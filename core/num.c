/* Whole numbers read from text (core/num.h). */
#include "num.h"
#include "hb.h"

#include <errno.h>
#include <stdlib.h>

int hb_parse_i64(const char *s, const char *what, int64_t *out, struct hb_error *err)
{
	char *end;
	long long x;

	errno = 0;
	x = strtoll(s, &end, 10);
	if (!*s || *end || ((*s < '0' || *s > '9') && *s != '-'))
		return hb_error_set(err, HB_EINVAL, "%s must be a whole number, got '%s'", what, s);
	if (errno == ERANGE)
		return hb_error_set(err, HB_EINVAL, "%s does not fit in a Java long, got '%s'",
		                    what, s);
	*out = (int64_t)x;
	return 0;
}

int hb_parse_long(const char *s, long min, long max, const char *what, long *out,
                  struct hb_error *err)
{
	char *end;
	long v;

	if (!s || !*s)
		return hb_error_set(err, HB_EINVAL, "%s must be a number, got ''", what);
	errno = 0;
	v = strtol(s, &end, 10);
	if (*end || end == s || ((*s < '0' || *s > '9') && *s != '-'))
		return hb_error_set(err, HB_EINVAL, "%s must be a whole number, got '%s'", what, s);
	if (errno == ERANGE || v < min || v > max)
		return hb_error_set(err, HB_EINVAL, "%s must be between %ld and %ld, got '%s'",
		                    what, min, max, s);
	*out = v;
	return 0;
}
