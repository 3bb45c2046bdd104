/* The metadata row's names and the form of N. */
#include "metarow.h"

int hb_metarow_parse_n(const void *p, size_t n, long *out)
{
	const unsigned char *s = p;
	long v = 0;
	size_t i;

	if (!n)
		return -1;
	for (i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (s[i] - '0');
		if (v > HB_METAROW_MAX_N)
			return -1;
	}
	if (v < 1 || v > HB_METAROW_MAX_N)
		return -1;
	*out = v;
	return 0;
}
