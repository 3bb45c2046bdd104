/* The one owner of a table's metadata row over REST: finding, reading and writing it. */
#include "rest/metarow.h"
#include "core/key.h"
#include "core/regioninfo.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifndef HB_VERSION
#define HB_VERSION "0.0.0"
#endif

/* Sets up m's buffers and the shown forms of m->row (filled by the caller). */
static void metarow_init(struct hb_metarow *m, const char *table)
{
	memset(m, 0, sizeof(*m));
	m->table = table;
	hb_buf_init(&m->row, 0);
	hb_buf_init(&m->row_tsb, 0);
	hb_buf_init(&m->row_shown, 0);
}

static int metarow_shown(struct hb_metarow *m, struct hb_error *err)
{
	if (hb_tsb_append(&m->row_tsb, m->row.data, m->row.len) || hb_buf_add(&m->row_tsb, "", 0) ||
	    hb_tsb_append_quoted(&m->row_shown, m->row.data, m->row.len) ||
	    hb_buf_add(&m->row_shown, "", 0))
		return hb_error_set(err, HB_ENOMEM, "out of memory");
	return 0;
}

/* HBase's AccessController refused the schema: it asks for CREATE or ADMIN on the table
 * (docs/secure-hbase.md), which a user who may only READ does not hold. The refusal is
 * hbtab's own sentence (rest/http.c), so it is known by its words. */
static int denied_schema(const struct hb_error *err)
{
	return err->code == HB_ESERVER && strstr(err->msg, ": HTTP 403: permission denied: ");
}

/*
 * Without the schema, the row itself names its family: the one holding hbtab's N. A row that
 * is not there (or holds no N) in any family is absent: it reads as no row without asking
 * again, and nothing is written to it (the family to write is not known).
 */
static int family_from_row(struct hb_metarow *m, struct hb_rest *c, struct hb_error *err)
{
	static const char suffix[] = ":" HB_METAROW_N;
	struct hb_row row;
	const char *fam = HB_METAROW_ANY_FAMILY;
	size_t i, flen = strlen(fam);
	int found = 0, rc;

	m->absent = 1;

	hb_row_init(&row);
	rc = hb_rest_get_row(c, m->table, m->row.data, m->row.len, NULL, &row, &found, err);
	for (i = 0; !rc && found && i < row.ncells; i++) {
		const struct hb_cell *cell = &row.cells[i];
		size_t n = cell->column_len, sl = sizeof(suffix) - 1;

		if (n > sl && !memcmp(cell->column + n - sl, suffix, sl) &&
		    !memchr(cell->column, ':', n - sl)) {
			fam = (const char *)cell->column;
			flen = n - sl;
			m->absent = 0;
			break;
		}
	}
	if (!rc && !(m->family = strndup(fam, flen)))
		rc = hb_error_set(err, HB_ENOMEM, "out of memory");
	hb_row_release(&row);
	return rc;
}

int hb_metarow_locate(struct hb_metarow *m, struct hb_rest *c, const char *table,
                      const char *family, const char *row_tsb, struct hb_error *err)
{
	struct hb_schema s;
	int rc;

	metarow_init(m, table);
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
	if (metarow_shown(m, err))
		return HB_ENOMEM;
	if (family && (!*family || strchr(family, ':')))
		return hb_error_set(err, HB_EINVAL, "invalid --metadata-family '%s'", family);
	/*
	 * The schema names the families: a row GET cannot tell a missing family from a missing
	 * row (the gateway answers 404 for both), so a given family is checked here.
	 */
	hb_schema_init(&s);
	rc = hb_rest_get_schema(c, table, &s, err);
	if (rc && denied_schema(err)) {
		/* a given family is taken as given: a row GET of a missing one is a 404 */
		hb_schema_release(&s);
		if (!family)
			return family_from_row(m, c, err);
		if (!(m->family = strdup(family)))
			return hb_error_set(err, HB_ENOMEM, "out of memory");
		return 0;
	}
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

int hb_metarow_given(struct hb_metarow *m, const char *table, const char *family, const void *row,
                     size_t row_len, struct hb_error *err)
{
	metarow_init(m, table);
	if (hb_buf_add(&m->row, row, row_len) || !(m->family = strdup(family)))
		return hb_error_set(err, HB_ENOMEM, "out of memory");
	return metarow_shown(m, err);
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
	int rc;

	*found = 0;
	if (m->absent)
		return 0;
	rc = hb_rest_get_row(c, m->table, m->row.data, m->row.len, cols, out, found, err);

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

int hb_metarow_read_cell(struct hb_rest *c, const struct hb_metarow *m, const char *q,
                         struct hb_buf *out, int *found, struct hb_error *err)
{
	struct hb_buf col = HB_BUF_INIT;
	struct hb_row row;
	const struct hb_cell *cell = NULL;
	const char *colp[2];
	int rc;

	hb_row_init(&row);
	hb_buf_reset(out);
	*found = 0;
	if (m->absent)
		return 0;
	if (hb_buf_addf(&col, "%s:%s", m->family, q))
		return hb_error_set(err, HB_ENOMEM, "out of memory");
	colp[0] = hb_buf_str(&col);
	colp[1] = NULL;
	rc = hb_rest_get_row(c, m->table, m->row.data, m->row.len, colp, &row, found, err);
	if (!rc && *found)
		cell = hb_row_cell(&row, colp[0]);
	*found = cell != NULL;
	if (cell && hb_buf_add(out, cell->value, cell->value_len))
		rc = hb_error_set(err, HB_ENOMEM, "out of memory");
	hb_row_release(&row);
	hb_buf_release(&col);
	return rc;
}

/* ---------------------------------------------------------------- create's record */

/* The qualifiers create reads and writes, in this order. */
enum { Q_N, Q_KEYSPACE, Q_SPLITS, Q_CREATED, Q_CREATOR, Q_ROTATE, Q_COUNT };
static const char *const record_quals[Q_COUNT] = {HB_METAROW_N,       HB_METAROW_KEYSPACE,
                                                  HB_METAROW_SPLITS,  HB_METAROW_CREATED,
                                                  HB_METAROW_CREATOR, HB_METAROW_ROTATE};

struct record {
	struct hb_rest *c;
	const struct hb_metarow *m;
	const struct hb_metarow_design *d;
	struct hb_buf cols[Q_COUNT];
	const char *colp[Q_COUNT + 1]; /* "family:q", NULL-terminated */
	char n[32];                    /* d->n as stored */
	struct hb_row row;             /* the last read */
	int found;
};

static int record_read(struct record *r, struct hb_error *err)
{
	hb_row_release(&r->row);
	hb_row_init(&r->row);
	return hb_rest_get_row(r->c, r->m->table, r->m->row.data, r->m->row.len, r->colp, &r->row,
	                       &r->found, err);
}

static const struct hb_cell *record_cell(const struct record *r, int q)
{
	return r->found ? hb_row_cell(&r->row, r->colp[q]) : NULL;
}

static int same_text(const struct hb_cell *c, const char *s, size_t n)
{
	return c->value_len == n && !memcmp(c->value, s, n);
}

static void set_cell(struct hb_cell *cell, const struct hb_buf *col, const char *v, size_t n)
{
	cell->column = (unsigned char *)col->data;
	cell->column_len = col->len;
	cell->value = (unsigned char *)v;
	cell->value_len = n;
	cell->timestamp = 0;
}

/* The row holds d's N: the rotate mark is added when asked, the keyspace compared. */
static int record_present(struct record *r, const struct hb_tell *tell, const char **state,
                          struct hb_error *err)
{
	const struct hb_metarow_design *d = r->d;
	const struct hb_cell *k;
	struct hb_cell cells[2];
	int applied = 0, rc;

	*state = "present";
	if (d->adopt && d->rotate && !record_cell(r, Q_ROTATE)) {
		/* the design was verified: the table becomes managed by this template.
		 * The put is checked on N, so a row changed meanwhile is not touched. */
		if (d->dry_run) {
			*state = "would adopt";
			return 0;
		}
		/* RowResource's check=put checks a column it also puts: N is put again with the
		 * value it must still have */
		set_cell(&cells[0], &r->cols[Q_N], r->n, strlen(r->n));
		set_cell(&cells[1], &r->cols[Q_ROTATE], d->rotate, strlen(d->rotate));
		rc = hb_rest_check_and_put(r->c, r->m->table, r->m->row.data, r->m->row.len, cells,
		                           2, r->colp[Q_N], r->n, strlen(r->n), &applied, err);
		if (rc)
			return rc;
		if (!applied)
			return hb_error_set(err, HB_ESAFETY,
			                    "the metadata row of '%s' changed while it was being "
			                    "adopted; left unchanged",
			                    r->m->table);
		*state = "adopted";
	}
	k = d->keyspace ? record_cell(r, Q_KEYSPACE) : NULL;
	if (k && !same_text(k, d->keyspace, strlen(d->keyspace)))
		hb_tell_warn(tell,
		             "the metadata row holds another keyspace than '%s'; left unchanged",
		             d->keyspace);
	return 0;
}

/*
 * Writes the row only if N is still absent: HBase's checkAndMutate treats an empty expected
 * value as "absent or empty" (HRegion), so ?check=put with an empty value is an atomic
 * put-if-absent. *applied = 0 when another writer was first.
 */
static int record_write(struct record *r, int *applied, struct hb_error *err)
{
	const struct hb_metarow_design *d = r->d;
	const char *vals[Q_COUNT];
	struct hb_cell cells[Q_COUNT];
	char when[32], creator[64];
	time_t now = time(NULL);
	struct tm tmv;
	size_t i, nc = 0;

	gmtime_r(&now, &tmv);
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tmv);
	snprintf(creator, sizeof(creator), "hbtab %s", HB_VERSION);
	vals[Q_N] = r->n;
	vals[Q_KEYSPACE] = d->keyspace ? d->keyspace : "";
	vals[Q_SPLITS] = d->splits ? d->splits : "";
	vals[Q_CREATED] = when;
	vals[Q_CREATOR] = creator;
	vals[Q_ROTATE] = d->rotate ? d->rotate : "";
	for (i = 0; i < Q_COUNT; i++) {
		if ((i == Q_KEYSPACE && !d->keyspace) || (i == Q_SPLITS && !*vals[Q_SPLITS]) ||
		    (i == Q_ROTATE && !d->rotate))
			continue;
		set_cell(&cells[nc++], &r->cols[i], vals[i], strlen(vals[i]));
	}
	return hb_rest_check_and_put(r->c, r->m->table, r->m->row.data, r->m->row.len, cells, nc,
	                             r->colp[Q_N], "", 0, applied, err);
}

static int record_run(struct record *r, const struct hb_tell *tell, const char **state,
                      struct hb_error *err)
{
	const struct hb_cell *cur;
	int applied = 0, rc;

	rc = record_read(r, err);
	if (rc)
		return rc;
	cur = record_cell(r, Q_N);
	if (cur && !same_text(cur, r->n, strlen(r->n))) {
		struct hb_buf t = HB_BUF_INIT;

		if (hb_tsb_append_quoted(&t, cur->value, cur->value_len) || hb_buf_adds(&t, ""))
			hb_buf_reset(&t);
		rc = hb_error_set(err, HB_ESAFETY,
		                  "the metadata row of '%s' already holds N = '%s' but the table "
		                  "has %s region%s; left unchanged (use 'hbtab meta set' to change "
		                  "it)",
		                  r->m->table, hb_buf_str(&t), r->n, strcmp(r->n, "1") ? "s" : "");
		hb_buf_release(&t);
		return rc;
	}
	if (cur)
		return record_present(r, tell, state, err);
	if (r->d->dry_run) {
		*state = "would write";
		return 0;
	}
	rc = record_write(r, &applied, err);
	if (rc)
		return rc;
	if (!applied)
		hb_tell_verbose(tell,
		                "the metadata row of '%s' was written concurrently; checking it",
		                r->m->table);
	rc = record_read(r, err);
	if (rc)
		return rc;
	cur = record_cell(r, Q_N);
	if (!cur)
		return hb_error_set(err, HB_ESERVER,
		                    "the metadata row of '%s' is still absent after it was written "
		                    "(the gateway answered 200 but did not store it?)",
		                    r->m->table);
	if (!same_text(cur, r->n, strlen(r->n)))
		return hb_error_set(err, HB_ESAFETY,
		                    "the metadata row of '%s' does not read back N = %s (written "
		                    "concurrently?)",
		                    r->m->table, r->n);
	*state = applied ? "written" : "present";
	return 0;
}

/* A row found absent without the schema has no family to be written to. */
static int unknown_family(const struct hb_metarow *m, struct hb_error *err)
{
	return hb_error_set(err, HB_ESERVER,
	                    "cannot write the metadata row of table '%s': its family is not known "
	                    "(the table's schema, which names the families, was refused to this "
	                    "user; HBase asks for CREATE or ADMIN on the table to read it); give "
	                    "--metadata-family",
	                    m->table);
}

int hb_metarow_record(struct hb_rest *c, const struct hb_metarow *m,
                      const struct hb_metarow_design *d, const struct hb_tell *tell,
                      const char **state, struct hb_error *err)
{
	struct record r;
	size_t i;
	int rc = 0;

	if (m->absent)
		return unknown_family(m, err);

	memset(&r, 0, sizeof(r));
	r.c = c;
	r.m = m;
	r.d = d;
	hb_row_init(&r.row);
	snprintf(r.n, sizeof(r.n), "%zu", d->n);
	for (i = 0; i < Q_COUNT; i++) {
		hb_buf_init(&r.cols[i], 0);
		if (!rc && hb_buf_addf(&r.cols[i], "%s:%s", m->family, record_quals[i]))
			rc = hb_error_set(err, HB_ENOMEM, "out of memory");
		r.colp[i] = r.cols[i].data;
	}
	r.colp[Q_COUNT] = NULL;
	if (!rc)
		rc = record_run(&r, tell, state, err);
	for (i = 0; i < Q_COUNT; i++)
		hb_buf_release(&r.cols[i]);
	hb_row_release(&r.row);
	return rc;
}

/* ---------------------------------------------------------------- meta set */

/* Stores n in N with a put checked against expect (len 0: absent). */
static int put_n(struct hb_rest *c, const struct hb_metarow *m, const char *val, const void *expect,
                 size_t len, int *applied, struct hb_error *err)
{
	struct hb_buf col = HB_BUF_INIT;
	struct hb_cell cell;
	int rc;

	if (hb_buf_addf(&col, "%s:%s", m->family, HB_METAROW_N))
		return hb_error_set(err, HB_ENOMEM, "out of memory");
	memset(&cell, 0, sizeof(cell));
	set_cell(&cell, &col, val, strlen(val));
	rc = hb_rest_check_and_put(c, m->table, m->row.data, m->row.len, &cell, 1, col.data, expect,
	                           len, applied, err);
	hb_buf_release(&col);
	return rc;
}

int hb_metarow_set_n(struct hb_rest *c, const struct hb_metarow *m, long n, int force,
                     struct hb_buf *prev, int *had, int *changed, struct hb_error *err)
{
	struct hb_row r;
	const struct hb_cell *nc;
	char val[24];
	long old = 0;
	int found = 0, applied = 0, rc;

	if (m->absent)
		return unknown_family(m, err);

	hb_row_init(&r);
	hb_buf_reset(prev);
	*had = *changed = 0;
	snprintf(val, sizeof(val), "%ld", n);
	rc = hb_metarow_read(c, m, &r, &found, err);
	nc = !rc && found ? hb_metarow_cell(m, &r, HB_METAROW_N) : NULL;
	if (nc && (hb_tsb_append(prev, nc->value, nc->value_len) || hb_buf_add(prev, "", 0)))
		rc = hb_error_set(err, HB_ENOMEM, "out of memory");
	*had = nc != NULL;
	if (rc || (nc && !hb_metarow_parse_n(nc->value, nc->value_len, &old) && old == n))
		goto done;
	if (nc && !force) {
		rc =
		    hb_error_set(err, HB_ESAFETY,
		                 "table '%s' already stores N=%s in metadata row '%s'; use --force "
		                 "to change it",
		                 m->table, prev->data, m->row_shown.data);
		goto done;
	}
	/* Put-if-absent when there is no N: an empty expected value matches an absent cell
	 * (HRegion). A different N is replaced only if it is still the value read. */
	rc = put_n(c, m, val, nc ? nc->value : (const void *)"", nc ? nc->value_len : 0, &applied,
	           err);
	if (!rc && !applied && nc)
		rc = hb_error_set(err, HB_ESAFETY,
		                  "N of table '%s' changed while it was being set (it was %s); "
		                  "nothing written, run 'hbtab meta get %s' and retry",
		                  m->table, prev->data, m->table);
	else if (!rc && !applied)
		rc = hb_error_set(err, HB_ESAFETY,
		                  "N of table '%s' was set by someone else meanwhile; nothing "
		                  "written, run 'hbtab meta get %s' and retry",
		                  m->table, m->table);
	*changed = !rc;
done:
	hb_row_release(&r);
	return rc;
}

/* ---------------------------------------------------------------- reshape */

/* Whether the row holds N = n and splits = spec. */
static int holds_design(struct hb_rest *c, const struct hb_metarow *m, const char *n,
                        const char *spec, int *same, struct hb_error *err)
{
	struct hb_row r;
	const struct hb_cell *nc, *sc;
	int found = 0, rc;

	hb_row_init(&r);
	*same = 0;
	rc = hb_metarow_read(c, m, &r, &found, err);
	nc = !rc && found ? hb_metarow_cell(m, &r, HB_METAROW_N) : NULL;
	sc = !rc && found ? hb_metarow_cell(m, &r, HB_METAROW_SPLITS) : NULL;
	*same = nc && sc && nc->value_len == strlen(n) && !memcmp(nc->value, n, nc->value_len) &&
	        sc->value_len == strlen(spec) && !memcmp(sc->value, spec, sc->value_len);
	hb_row_release(&r);
	return rc;
}

int hb_metarow_record_reshape(struct hb_rest *c, const struct hb_metarow *m, const void *old,
                              size_t old_len, size_t n, const char *spec, const char **state,
                              struct hb_error *err)
{
	struct hb_buf ncol = HB_BUF_INIT, scol = HB_BUF_INIT;
	struct hb_cell cells[2];
	char val[24];
	int applied = 0, same = 0, rc;

	*state = "not recorded";
	if (m->absent)
		return unknown_family(m, err);
	snprintf(val, sizeof(val), "%zu", n);
	if (hb_buf_addf(&ncol, "%s:%s", m->family, HB_METAROW_N) ||
	    hb_buf_addf(&scol, "%s:%s", m->family, HB_METAROW_SPLITS)) {
		rc = hb_error_set(err, HB_ENOMEM, "out of memory");
		goto done;
	}
	memset(cells, 0, sizeof(cells));
	set_cell(&cells[0], &ncol, val, strlen(val));
	set_cell(&cells[1], &scol, spec, strlen(spec));
	/* an empty expected value matches an absent N (HRegion's checkAndMutate) */
	rc = hb_rest_check_and_put(c, m->table, m->row.data, m->row.len, cells, 2, ncol.data,
	                           old_len ? old : "", old_len, &applied, err);
	if (!rc && applied) {
		*state = "recorded";
		goto done;
	}
	if (!rc)
		rc = holds_design(c, m, val, spec, &same, err);
	if (!rc && same)
		*state = "present";
	else if (!rc)
		rc = hb_error_set(
		    err, HB_ESAFETY,
		    "N of table '%s' changed in metadata row '%s' while the table was "
		    "being reshaped (another reshape or 'meta set'); nothing recorded: "
		    "run 'hbtab meta get %s' and 'hbtab audit %s'",
		    m->table, m->row_shown.data, m->table, m->table);
done:
	hb_buf_release(&ncol);
	hb_buf_release(&scol);
	return rc;
}

/* ---------------------------------------------------------------- rotate's mark */

/* The value of qualifier q in any family of the row, or NULL. */
static const struct hb_cell *row_qual(const struct hb_row *row, const char *q)
{
	size_t i, ql = strlen(q);

	for (i = 0; i < row->ncells; i++) {
		const struct hb_cell *c = &row->cells[i];
		const unsigned char *colon = memchr(c->column, ':', c->column_len);

		if (colon && (size_t)(c->column + c->column_len - colon - 1) == ql &&
		    !memcmp(colon + 1, q, ql))
			return c;
	}
	return NULL;
}

int hb_metarow_read_mark(struct hb_rest *c, const char *table, const char *tmpl, int want_disabled,
                         struct hb_metarow_mark *out, struct hb_error *err)
{
	struct hb_row row;
	const struct hb_cell *cell;
	int found = 0, rc;

	memset(out, 0, sizeof(*out));
	out->n = -1;
	hb_row_init(&row);
	rc = hb_rest_get_row(c, table, HB_METAROW_ROW, strlen(HB_METAROW_ROW), NULL, &row, &found,
	                     err);
	if (rc == HB_ENOTFOUND) {
		out->gone = 1;
		rc = 0;
	}
	if (!rc && found) {
		cell = row_qual(&row, HB_METAROW_ROTATE);
		out->managed = cell && same_text(cell, tmpl, strlen(tmpl));
		cell = row_qual(&row, HB_METAROW_N);
		if (cell && hb_metarow_parse_n(cell->value, cell->value_len, &out->n))
			out->n = -1;
	}
	if (!rc && !found && !out->gone) {
		/* a plain 404 for a missing table too: only /T/exists tells it from a missing row
		 */
		int exists = 1;

		rc = hb_rest_table_exists(c, table, &exists, err);
		out->gone = !rc && !exists;
	}
	if (!rc && !found && !out->gone && want_disabled) {
		int state = -1;

		rc = hb_rest_table_state(c, table, &state, err);
		out->disabled = !rc && (state == HB_TABLE_DISABLED || state == HB_TABLE_DISABLING);
	}
	hb_row_release(&row);
	return rc;
}

int hb_metarow_cell_text(char **out, const struct hb_cell *c)
{
	if (!c)
		return 0;
	*out = malloc(c->value_len + 1);
	if (!*out)
		return HB_ENOMEM;
	memcpy(*out, c->value, c->value_len);
	(*out)[c->value_len] = 0;
	if (strlen(*out) != c->value_len) {
		struct hb_buf t = HB_BUF_INIT;

		free(*out);
		if (hb_tsb_append(&t, c->value, c->value_len) || hb_buf_add(&t, "", 0))
			return HB_ENOMEM;
		*out = hb_buf_detach(&t, NULL);
	}
	return 0;
}
