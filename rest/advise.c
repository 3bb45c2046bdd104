/* What hbtab advise reads of a live table, read-only calls only. */
#include "rest/advise.h"
#include "core/metarow.h"
#include "core/region.h"
#include "core/schema.h"
#include "core/tname.h"
#include "rest/metarow.h"

#include <stdlib.h>
#include <string.h>

void hb_advise_table_init(struct hb_advise_table *t)
{
	memset(t, 0, sizeof(*t));
	hb_keys_init(&t->splits);
	hb_keys_init(&t->sample);
}

void hb_advise_table_release(struct hb_advise_table *t)
{
	free(t->stored_n);
	free(t->stored_keyspace);
	free(t->stored_splits);
	hb_keys_release(&t->splits);
	hb_keys_release(&t->sample);
	hb_advise_table_init(t);
}

/* The table's region loads, summed as a status read streams them. */
struct size_sum {
	struct hb_advise_table *t;
	const char *name; /* the table as region names spell it (no "default:") */
	size_t len;
};

static int add_load(void *ctx, const struct hb_node *node, const struct hb_region_load *l,
                    struct hb_error *err)
{
	struct size_sum *s = ctx;
	const unsigned char *id;
	uint64_t mb;

	(void)node;
	(void)err;
	if (l->name_len <= s->len || memcmp(l->name, s->name, s->len) || l->name[s->len] != ',')
		return 0;
	/* a replica's name has "_REPLICA" after its id, which follows the last comma (a start
	 * key may hold commas, an id never does): its bytes are the primary's again */
	for (id = l->name + l->name_len; id > l->name + s->len && id[-1] != ','; id--)
		;
	for (; id < l->name + l->name_len && *id != '.'; id++)
		if (*id == '_')
			return 0;
	mb = (uint64_t)(l->storefile_size_mb > 0 ? l->storefile_size_mb : 0) +
	     (uint64_t)(l->memstore_size_mb > 0 ? l->memstore_size_mb : 0);
	s->t->loads++;
	s->t->store_mb += mb;
	if (mb > s->t->largest_mb)
		s->t->largest_mb = mb;
	return 0;
}

static int read_status(struct hb_advise_table *t, struct hb_rest *c, const char *table,
                       struct hb_error *err)
{
	struct hb_cluster_status st;
	struct size_sum s;
	int rc;

	memset(&st, 0, sizeof(st));
	s.t = t;
	s.name = hb_tname_bare(table);
	s.len = strlen(s.name);
	rc = hb_rest_get_status_each(c, &st, add_load, &s, err);
	if (!rc)
		t->servers = st.nlive;
	hb_cluster_status_release(&st);
	return rc;
}

/* The regions' split keys (a replica, listed with its primary's bounds, counted once). */
static int read_regions(struct hb_advise_table *t, struct hb_rest *c, const char *table,
                        struct hb_error *err)
{
	struct hb_regions rs;
	size_t i;
	int rc;

	hb_regions_init(&rs);
	rc = hb_rest_get_regions(c, table, &rs, err);
	if (rc == HB_ENOTFOUND)
		hb_error_set(err, rc, "table '%s' not found", table);
	for (i = 0; !rc && i < rs.n; i++) {
		const unsigned char *s, *e, *ps, *pe;
		size_t sl, el, psl, pel;

		hb_regions_bounds(&rs, i, &s, &sl, &e, &el);
		if (i) {
			hb_regions_bounds(&rs, i - 1, &ps, &psl, &pe, &pel);
			if (!hb_key_cmp(s, sl, ps, psl))
				continue;
		}
		t->regions++;
		if (sl && hb_keys_push(&t->splits, s, sl))
			rc = hb_error_set(err, HB_ENOMEM, "out of memory");
	}
	hb_regions_release(&rs);
	return rc;
}

static int read_schema(struct hb_advise_table *t, struct hb_rest *c, const char *table,
                       struct hb_error *err)
{
	struct hb_schema sc;
	const char *v;
	int rc;

	hb_schema_init(&sc);
	rc = hb_rest_get_schema(c, table, &sc, err);
	v = rc ? NULL : hb_attrs_get(&sc.attrs, "MAX_FILESIZE");
	if (v) {
		char *end;
		unsigned long long n = strtoull(v, &end, 10);

		if (!*end && end != v && v[0] != '-')
			t->max_filesize = n;
	}
	hb_schema_release(&sc);
	return rc;
}

static int read_metadata(struct hb_advise_table *t, struct hb_rest *c, const char *table,
                         struct hb_error *err)
{
	struct hb_metarow m;
	struct hb_row cells;
	int found = 0, rc;

	hb_row_init(&cells);
	rc = hb_metarow_locate(&m, c, table, NULL, NULL, err);
	if (!rc)
		rc = hb_metarow_read(c, &m, &cells, &found, err);
	if (!rc && found) {
		t->metadata = 1;
		if (hb_metarow_cell_text(&t->stored_n, hb_metarow_cell(&m, &cells, HB_METAROW_N)) ||
		    hb_metarow_cell_text(&t->stored_keyspace,
		                         hb_metarow_cell(&m, &cells, HB_METAROW_KEYSPACE)) ||
		    hb_metarow_cell_text(&t->stored_splits,
		                         hb_metarow_cell(&m, &cells, HB_METAROW_SPLITS)))
			rc = hb_error_set(err, HB_ENOMEM, "out of memory");
	}
	hb_row_release(&cells);
	hb_metarow_release(&m);
	return rc;
}

int hb_rest_advise_table(struct hb_advise_table *out, struct hb_rest *c, const char *table,
                         size_t sample_rows, uint64_t max_sample_mb, struct hb_error *err)
{
	int rc = read_regions(out, c, table, err);

	if (!rc)
		rc = read_schema(out, c, table, err);
	if (!rc)
		rc = read_status(out, c, table, err);
	if (!rc)
		rc = read_metadata(out, c, table, err);
	out->sample_skipped = sample_rows && max_sample_mb && out->store_mb > max_sample_mb;
	if (!rc && sample_rows && !out->sample_skipped)
		rc = hb_rest_sample_keys(c, table, sample_rows, 0x5EEDu, &out->sample, err);
	return rc;
}
