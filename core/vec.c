/* Growable arrays. */
#include "vec.h"
#include "hb.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int hb_vec_grow(void *pv, size_t *cap, size_t need, size_t elem, size_t min)
{
	size_t ncap = *cap ? *cap : (min ? min : 1);
	void *v, *nv;

	if (need <= *cap)
		return 0;
	while (ncap < need) {
		if (ncap > SIZE_MAX / 2)
			return HB_ENOMEM;
		ncap *= 2;
	}
	if (elem && ncap > SIZE_MAX / elem)
		return HB_ENOMEM;
	/* pv points at the caller's typed pointer; its bytes are copied, never aliased */
	memcpy(&v, pv, sizeof(v));
	nv = realloc(v, ncap * elem);
	if (!nv)
		return HB_ENOMEM;
	memcpy(pv, &nv, sizeof(nv));
	*cap = ncap;
	return 0;
}
