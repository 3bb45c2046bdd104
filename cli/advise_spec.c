/* hbtab advise's split specifications: the keys a specification makes at another N, and the
 * most regions it can express. */
#include "advise_spec.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

int cli_advise_keys_at(struct hb_keys *out, const struct hb_splitspec *s, uint64_t n,
                       struct hb_error *err)
{
	struct hb_splitspec t = *s;
	char num[32];

	hb_keys_clear(out);
	if (hb_splitspec_with_n(&t, n, num, sizeof(num)))
		return hb_error_set(err, HB_EINVAL, "the split specification cannot take N");
	return cli_splitspec_compute(out, &t, err);
}

uint64_t cli_advise_expressible(const struct hb_splitspec *s, uint64_t want)
{
	struct hb_error err = {0};
	struct hb_keys k;
	uint64_t lo = 1, hi = want;

	hb_keys_init(&k);
	if (!cli_advise_keys_at(&k, s, want, &err))
		lo = want;
	while (lo < hi) {
		uint64_t mid = lo + (hi - lo + 1) / 2;

		if (cli_advise_keys_at(&k, s, mid, &err))
			hi = mid - 1;
		else
			lo = mid;
	}
	hb_keys_release(&k);
	return lo;
}
