/* Deep-copied region records and their ordering. */
#include "region.h"
#include "key.h"
#include "vec.h"

#include <stdlib.h>
#include <string.h>

void hb_regions_init(struct hb_regions *rs)
{
	rs->v = NULL;
	rs->n = rs->cap = 0;
}

void hb_region_release(struct hb_region *r)
{
	if (r->packed) {
		free(r->start);
		memset(r, 0, sizeof(*r));
		return;
	}
	free(r->start);
	free(r->end);
	free(r->name);
	free(r->encoded);
	free(r->server);
	free(r->state);
	memset(r, 0, sizeof(*r));
}

void hb_regions_release(struct hb_regions *rs)
{
	size_t i;

	for (i = 0; i < rs->n; i++)
		hb_region_release(&rs->v[i]);
	free(rs->v);
	hb_regions_init(rs);
}

/* Appends n bytes and a NUL at *w; the copy (or NULL when p is NULL and !always). */
static void *put(char **w, const void *p, size_t n, int always)
{
	char *c = *w;

	if (!p && !always)
		return NULL;
	if (n)
		memcpy(c, p, n);
	c[n] = '\0';
	*w = c + n + 1;
	return c;
}

int hb_region_copy(struct hb_region *out, const struct hb_region *r)
{
	/* One block instead of six small ones: a listing holds 100,000s of regions. */
	size_t ne = r->encoded ? strlen(r->encoded) : 0, nsv = r->server ? strlen(r->server) : 0,
	       nst = r->state ? strlen(r->state) : 0;
	size_t total = r->start_len + r->end_len + 2 + (r->name ? r->name_len + 1 : 0) +
	               (r->encoded ? ne + 1 : 0) + (r->server ? nsv + 1 : 0) +
	               (r->state ? nst + 1 : 0);
	struct hb_region c = *r;
	char *w = malloc(total);

	if (!w)
		return HB_ENOMEM;
	c.start = put(&w, r->start, r->start_len, 1);
	c.end = put(&w, r->end, r->end_len, 1);
	c.name = put(&w, r->name, r->name_len, 0);
	c.encoded = put(&w, r->encoded, ne, 0);
	c.server = put(&w, r->server, nsv, 0);
	c.state = put(&w, r->state, nst, 0);
	c.packed = 1;
	*out = c;
	return 0;
}

int hb_regions_push(struct hb_regions *rs, const struct hb_region *r)
{
	if (HB_VEC_GROW(rs->v, rs->cap, rs->n + 1, 64))
		return HB_ENOMEM;
	if (hb_region_copy(&rs->v[rs->n], r))
		return HB_ENOMEM;
	rs->n++;
	return 0;
}

static int cmp_region(const void *a, const void *b)
{
	const struct hb_region *x = a, *y = b;
	int c = hb_key_cmp(x->start, x->start_len, y->start, y->start_len);

	if (c)
		return c;
	if (!x->end_len != !y->end_len)
		return x->end_len ? -1 : 1; /* an empty end is +infinity */
	c = hb_key_cmp(x->end, x->end_len, y->end, y->end_len);
	if (c)
		return c;
	return x->id < y->id ? -1 : x->id > y->id;
}

void hb_regions_sort(struct hb_regions *rs)
{
	if (rs->n > 1)
		qsort(rs->v, rs->n, sizeof(*rs->v), cmp_region);
}
