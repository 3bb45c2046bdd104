/* Deep-copied region records and their ordering. */
#include "region.h"
#include "key.h"

#include <stdlib.h>
#include <string.h>

void hb_regions_init(struct hb_regions *rs)
{
	rs->v = NULL;
	rs->n = rs->cap = 0;
}

void hb_region_release(struct hb_region *r)
{
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

static int dup_bytes(unsigned char **out, const unsigned char *p, size_t n)
{
	*out = malloc(n + 1);
	if (!*out)
		return HB_ENOMEM;
	if (n)
		memcpy(*out, p, n);
	(*out)[n] = 0;
	return 0;
}

static int dup_str(char **out, const char *s)
{
	if (!s) {
		*out = NULL;
		return 0;
	}
	*out = strdup(s);
	return *out ? 0 : HB_ENOMEM;
}

int hb_regions_push(struct hb_regions *rs, const struct hb_region *r)
{
	struct hb_region c = *r;

	if (rs->n == rs->cap) {
		size_t ncap = rs->cap ? rs->cap * 2 : 64;
		struct hb_region *p = realloc(rs->v, ncap * sizeof(*p));

		if (!p)
			return HB_ENOMEM;
		rs->v = p;
		rs->cap = ncap;
	}
	c.start = c.end = c.name = NULL;
	c.encoded = c.server = c.state = NULL;
	if (dup_bytes(&c.start, r->start, r->start_len) || dup_bytes(&c.end, r->end, r->end_len) ||
	    (r->name && dup_bytes(&c.name, r->name, r->name_len)) ||
	    dup_str(&c.encoded, r->encoded) || dup_str(&c.server, r->server) ||
	    dup_str(&c.state, r->state)) {
		hb_region_release(&c);
		return HB_ENOMEM;
	}
	rs->v[rs->n++] = c;
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
