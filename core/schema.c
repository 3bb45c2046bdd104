/* Table descriptors as plain string maps. */
#include "schema.h"
#include "vec.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

void hb_attrs_init(struct hb_attrs *a)
{
	a->v = NULL;
	a->n = a->cap = 0;
}

void hb_attrs_release(struct hb_attrs *a)
{
	size_t i;

	for (i = 0; i < a->n; i++) {
		free(a->v[i].key);
		free(a->v[i].value);
	}
	free(a->v);
	hb_attrs_init(a);
}

const char *hb_attrs_get(const struct hb_attrs *a, const char *key)
{
	size_t i;

	for (i = 0; i < a->n; i++)
		if (!strcmp(a->v[i].key, key))
			return a->v[i].value;
	return NULL;
}

int hb_attrs_set(struct hb_attrs *a, const char *key, const char *value)
{
	char *v = strdup(value), *k;
	size_t i;

	if (!v)
		return HB_ENOMEM;
	for (i = 0; i < a->n; i++) {
		if (!strcmp(a->v[i].key, key)) {
			free(a->v[i].value);
			a->v[i].value = v;
			return 0;
		}
	}
	if (HB_VEC_GROW(a->v, a->cap, a->n + 1, 8)) {
		free(v);
		return HB_ENOMEM;
	}
	k = strdup(key);
	if (!k) {
		free(v);
		return HB_ENOMEM;
	}
	a->v[a->n].key = k;
	a->v[a->n].value = v;
	a->n++;
	return 0;
}

void hb_schema_init(struct hb_schema *s)
{
	memset(s, 0, sizeof(*s));
	hb_attrs_init(&s->attrs);
}

void hb_schema_release(struct hb_schema *s)
{
	size_t i;

	free(s->table);
	hb_attrs_release(&s->attrs);
	for (i = 0; i < s->nfamilies; i++) {
		free(s->families[i].name);
		hb_attrs_release(&s->families[i].attrs);
	}
	free(s->families);
	hb_schema_init(s);
}

int hb_schema_set_table(struct hb_schema *s, const char *table)
{
	char *t = strdup(table);

	if (!t)
		return HB_ENOMEM;
	free(s->table);
	s->table = t;
	return 0;
}

int hb_schema_add_family(struct hb_schema *s, const char *name, struct hb_family **out)
{
	struct hb_family *f;

	if (HB_VEC_GROW(s->families, s->cap, s->nfamilies + 1, 4))
		return HB_ENOMEM;
	f = &s->families[s->nfamilies];
	f->name = strdup(name);
	if (!f->name)
		return HB_ENOMEM;
	hb_attrs_init(&f->attrs);
	s->nfamilies++;
	if (out)
		*out = f;
	return 0;
}

struct hb_family *hb_schema_family(const struct hb_schema *s, const char *name)
{
	size_t i;

	for (i = 0; i < s->nfamilies; i++)
		if (!strcmp(s->families[i].name, name))
			return &s->families[i];
	return NULL;
}

int hb_schema_compare(struct hb_diff *d, const struct hb_schema *want, const struct hb_schema *have)
{
	size_t i, k;
	int ok = 1;

	for (i = 0; i < want->nfamilies; i++) {
		const struct hb_family *w = &want->families[i];
		const struct hb_family *h = hb_schema_family(have, w->name);

		if (!h) {
			hb_diff_line(d, "- missing family '%s'", w->name);
			ok = 0;
			continue;
		}
		for (k = 0; k < w->attrs.n; k++) {
			const char *hv = hb_attrs_get(&h->attrs, w->attrs.v[k].key);

			if (!hv || strcasecmp(w->attrs.v[k].value, hv)) {
				hb_diff_line(d, "~ family '%s' %s is '%s', requested '%s'", w->name,
				             w->attrs.v[k].key, hv ? hv : "(unset)",
				             w->attrs.v[k].value);
				ok = 0;
			}
		}
	}
	for (i = 0; i < have->nfamilies; i++)
		if (!hb_schema_family(want, have->families[i].name)) {
			hb_diff_line(d, "+ unexpected family '%s'", have->families[i].name);
			ok = 0;
		}
	for (k = 0; k < want->attrs.n; k++) {
		const char *hv = hb_attrs_get(&have->attrs, want->attrs.v[k].key);

		if (!hv || strcmp(hv, want->attrs.v[k].value)) {
			hb_diff_line(d, "~ table attribute %s is '%s', requested '%s'",
			             want->attrs.v[k].key, hv ? hv : "(unset)",
			             want->attrs.v[k].value);
			ok = 0;
		}
	}
	return ok;
}
