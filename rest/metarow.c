/* Finding and reading a table's metadata row over REST. */
#include "rest/metarow.h"
#include "core/key.h"

#include <stdlib.h>
#include <string.h>

int hb_metarow_locate(struct hb_metarow *m, struct hb_rest *c, const char *table,
                      const char *family, const char *row_tsb, struct hb_error *err)
{
	struct hb_schema s;
	int rc;

	memset(m, 0, sizeof(*m));
	m->table = table;
	hb_buf_init(&m->row, 0);
	hb_buf_init(&m->row_tsb, 0);
	hb_buf_init(&m->row_shown, 0);
	if (!row_tsb)
		row_tsb = HB_METAROW_ROW;
	if (hb_tbb_parse(&m->row, row_tsb, strlen(row_tsb), err))
		return hb_error_prefix(err, HB_EINVAL, "invalid --metadata-row '%s'", row_tsb);
	if (!m->row.len)
		return hb_error_set(err, HB_EINVAL, "--metadata-row must not be empty");
	if (m->row.len > HB_MAX_ROW_LENGTH)
		return hb_error_set(err, HB_EINVAL,
		                    "--metadata-row is %zu bytes; HBase rows are at most %d bytes",
		                    m->row.len, HB_MAX_ROW_LENGTH);
	if (hb_tsb_append(&m->row_tsb, m->row.data, m->row.len) || hb_buf_add(&m->row_tsb, "", 0) ||
	    hb_tsb_append_quoted(&m->row_shown, m->row.data, m->row.len) ||
	    hb_buf_add(&m->row_shown, "", 0))
		return hb_error_set(err, HB_ENOMEM, "out of memory");
	if (family && (!*family || strchr(family, ':')))
		return hb_error_set(err, HB_EINVAL, "invalid --metadata-family '%s'", family);
	/*
	 * The schema names the families: a row GET cannot tell a missing family from a missing
	 * row (the gateway answers 404 for both), so a given family is checked here.
	 */
	hb_schema_init(&s);
	rc = hb_rest_get_schema(c, table, &s, err);
	if (rc == HB_ENOTFOUND)
		rc = hb_error_set(err, HB_ENOTFOUND, "table '%s' not found", table);
	else if (!rc && !family && !s.nfamilies)
		rc = hb_error_set(err, HB_ESERVER, "table '%s' has no column family", table);
	if (!rc && family) {
		size_t i;

		for (i = 0; i < s.nfamilies && strcmp(s.families[i].name, family); i++)
			;
		if (i == s.nfamilies)
			rc =
			    hb_error_set(err, HB_ENOTFOUND,
			                 "table '%s' has no column family '%s' (--metadata-family)",
			                 table, family);
	}
	if (!rc && !(m->family = strdup(family ? family : s.families[0].name)))
		rc = hb_error_set(err, HB_ENOMEM, "out of memory");
	hb_schema_release(&s);
	return rc;
}

void hb_metarow_release(struct hb_metarow *m)
{
	free(m->family);
	hb_buf_release(&m->row);
	hb_buf_release(&m->row_tsb);
	hb_buf_release(&m->row_shown);
	memset(m, 0, sizeof(*m));
}

int hb_metarow_read(struct hb_rest *c, const struct hb_metarow *m, struct hb_row *out, int *found,
                    struct hb_error *err)
{
	const char *cols[2] = {m->family, NULL};
	int rc = hb_rest_get_row(c, m->table, m->row.data, m->row.len, cols, out, found, err);

	if (rc == HB_ENOTFOUND)
		rc = hb_error_set(err, HB_ENOTFOUND, "table '%s' or family '%s' not found",
		                  m->table, m->family);
	return rc;
}

const struct hb_cell *hb_metarow_cell(const struct hb_metarow *m, const struct hb_row *r,
                                      const char *q)
{
	struct hb_buf col = HB_BUF_INIT;
	const struct hb_cell *c = NULL;

	if (!hb_buf_addf(&col, "%s:%s", m->family, q))
		c = hb_row_cell(r, col.data);
	hb_buf_release(&col);
	return c;
}
