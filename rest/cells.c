/* Rows of cells: the hb_row container and the CellSet body that carries them, JSON (pull parser) or
 * protobuf (core/restpb_cells.h). */
#include "rest/cells.h"
#include "core/restpb_cells.h"
#include "core/vec.h"
#include "rest/jsonhelp.h"
#include "rest/jsonpull.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- CellSet ---- */

void hb_row_init(struct hb_row *r)
{
	memset(r, 0, sizeof(*r));
}

void hb_row_release(struct hb_row *r)
{
	size_t i;

	for (i = 0; i < r->ncells; i++)
		free(r->cells[i].column); /* the value shares its allocation */
	free(r->cells);
	free(r->key);
	hb_row_init(r);
}

static unsigned char *memdup0(const void *p, size_t n)
{
	unsigned char *c = malloc(n + 1);

	if (c) {
		if (n)
			memcpy(c, p, n);
		c[n] = 0;
	}
	return c;
}

int hb_row_add_cell(struct hb_row *r, const void *col, size_t col_len, const void *val,
                    size_t val_len, int64_t ts)
{
	struct hb_cell *c;

	if (HB_VEC_GROW(r->cells, r->cap, r->ncells + 1, 8))
		return HB_ENOMEM;
	c = &r->cells[r->ncells];
	/* Column and value in one allocation: a meta scan adds 100,000s of cells. */
	if (col_len > SIZE_MAX / 2 - 2 || val_len > SIZE_MAX / 2 ||
	    !(c->column = malloc(col_len + val_len + 2)))
		return HB_ENOMEM;
	if (col_len)
		memcpy(c->column, col, col_len);
	c->column[col_len] = 0;
	c->value = c->column + col_len + 1;
	if (val_len)
		memcpy(c->value, val, val_len);
	c->value[val_len] = 0;
	c->column_len = col_len;
	c->value_len = val_len;
	c->timestamp = ts;
	r->ncells++;
	return 0;
}

const struct hb_cell *hb_row_cell(const struct hb_row *r, const char *col)
{
	size_t i, n = strlen(col);

	for (i = 0; i < r->ncells; i++)
		if (r->cells[i].column_len == n && !memcmp(r->cells[i].column, col, n))
			return &r->cells[i];
	return NULL;
}

/*
 * CellSet bodies are read with the pull parser: a stateless scan of hbase:meta brings a whole
 * table's rows (hundreds of MB for a million regions) in one body, and a cJSON tree of it
 * would cost several times the body. The rules are those of the tree it replaces: the text
 * checks come first, then a syntax check of the whole body (no row is handed on before a
 * syntax error anywhere), then rows in order, each whole before the next is looked at (the
 * rows before a content error are handed on). Of repeated members the first counts; a row's
 * key is checked before its cells, a cell's column before its value before its timestamp,
 * whatever the member order. A lone surrogate escape is a syntax error; a byte order mark
 * and anything after the top-level value are ignored.
 */

struct cs_scratch {
	struct hb_jr_val key, col, val, ts;
	struct hb_buf name, kb, cb, vb;
};

/* Decodes the cells of one row (the Cell array at j->p) into row. */
static int cs_cells(struct hb_jr *j, struct cs_scratch *s, struct hb_row *row, const char *rctx,
                    const char *what, struct hb_error *err)
{
	size_t k = 0;
	int m, rc;

	j->p++; /* '[' */
	m = hb_jr_peek(j) == ']' ? (j->p++, 0) : 1;
	while (m == 1) {
		char cctx[80];
		int64_t ts;
		int has, more;

		snprintf(cctx, sizeof(cctx), "%sCell[%zu].", rctx, k);
		if (hb_jr_peek(j) != '{')
			return HB_BAD("%sCell[%zu] is not an object", rctx, k);
		k++;
		hb_jr_val_reset(&s->col);
		hb_jr_val_reset(&s->val);
		hb_jr_val_reset(&s->ts);
		j->p++;
		more = hb_jr_peek(j) == '}' ? (j->p++, 0) : 1;
		while (more == 1) {
			struct hb_jr_val *v;

			if ((rc = hb_jr_string(j, &s->name)))
				return rc == HB_ENOMEM ? hb_json_oom(err) : HB_ESERVER;
			hb_jr_peek(j);
			j->p++; /* ':' */
			v = !strcmp(s->name.data, "column")      ? &s->col
			    : !strcmp(s->name.data, "$")         ? &s->val
			    : !strcmp(s->name.data, "timestamp") ? &s->ts
			                                         : NULL;
			rc = v ? hb_jr_read(j, v) : hb_jr_skip(j, 3);
			if (rc)
				return rc == HB_ENOMEM ? hb_json_oom(err) : HB_ESERVER;
			more = hb_jr_next(j, '}');
		}
		if ((rc = hb_jr_b64(&s->col, &s->cb, &has, cctx, "column", what, err)))
			return rc;
		if (!has)
			return HB_BAD("%scolumn is missing", cctx);
		if ((rc = hb_jr_b64(&s->val, &s->vb, NULL, cctx, "$", what, err)) ||
		    (rc = hb_jr_i64(&s->ts, &ts, cctx, "timestamp", what, err)))
			return rc;
		if (hb_row_add_cell(row, s->cb.data ? s->cb.data : "", s->cb.len,
		                    s->vb.data ? s->vb.data : "", s->vb.len, ts))
			return hb_json_oom(err);
		m = hb_jr_next(j, ']');
	}
	return 0;
}

/* Decodes Row[i] at j->p into row (empty on entry). */
static int cs_row(struct hb_jr *j, size_t i, struct cs_scratch *s, struct hb_row *row,
                  const char *what, struct hb_error *err)
{
	const char *cells = NULL;
	char rctx[48];
	int more, has, rc;

	snprintf(rctx, sizeof(rctx), "Row[%zu].", i);
	if (hb_jr_peek(j) != '{')
		return HB_BAD("Row[%zu] is not an object", i);
	hb_jr_val_reset(&s->key);
	j->p++;
	more = hb_jr_peek(j) == '}' ? (j->p++, 0) : 1;
	while (more == 1) {
		if ((rc = hb_jr_string(j, &s->name)))
			return rc == HB_ENOMEM ? hb_json_oom(err) : HB_ESERVER;
		hb_jr_peek(j);
		j->p++; /* ':' */
		if (!strcmp(s->name.data, "key")) {
			rc = hb_jr_read(j, &s->key);
		} else {
			if (!strcmp(s->name.data, "Cell") && !cells)
				cells = (hb_jr_peek(j), j->p);
			rc = hb_jr_skip(j, 3);
		}
		if (rc)
			return rc == HB_ENOMEM ? hb_json_oom(err) : HB_ESERVER;
		more = hb_jr_next(j, '}');
	}
	if ((rc = hb_jr_b64(&s->key, &s->kb, &has, rctx, "key", what, err)))
		return rc;
	if (!has)
		return HB_BAD("%skey is missing", rctx);
	if (!(row->key = memdup0(s->kb.data ? s->kb.data : "", s->kb.len)))
		return hb_json_oom(err);
	row->key_len = s->kb.len;
	if (!cells || *cells == 'n')
		return 0;
	if (*cells != '[')
		return HB_BAD("%sCell is not an array", rctx);
	{
		struct hb_jr cj = *j;

		cj.p = cells;
		return cs_cells(&cj, s, row, rctx, what, err);
	}
}

static int decode_cellset(const char *json, size_t len, const char *what,
                          int (*fn)(void *ctx, struct hb_row *frag, struct hb_error *err),
                          void *ctx, struct hb_error *err, int mapped);

int hb_rest_decode_cellset(const char *json, size_t len, const char *what,
                           int (*fn)(void *ctx, struct hb_row *frag, struct hb_error *err),
                           void *ctx, struct hb_error *err)
{
	return decode_cellset(json, len, what, fn, ctx, err, 0);
}

int hb_rest_decode_cellset_mapped(const char *json, size_t len, const char *what,
                                  int (*fn)(void *ctx, struct hb_row *frag, struct hb_error *err),
                                  void *ctx, struct hb_error *err)
{
	return decode_cellset(json, len, what, fn, ctx, err, 1);
}

static int decode_cellset(const char *json, size_t len, const char *what,
                          int (*fn)(void *ctx, struct hb_row *frag, struct hb_error *err),
                          void *ctx, struct hb_error *err, int mapped)
{
	struct cs_scratch s;
	const char *rows = NULL;
	struct hb_row row;
	struct hb_jr j;
	size_t i = 0;
	int rc = 0, more;

	if ((rc = hb_jr_open_object(&j, json, len, mapped, what, err)))
		return rc;
	memset(&s, 0, sizeof(s));
	hb_row_init(&row);
	/* The first top-level "Row" counts, wherever it is. */
	j.p++;
	more = hb_jr_peek(&j) == '}' ? (j.p++, 0) : 1;
	while (more == 1) {
		if ((rc = hb_jr_string(&j, &s.name))) {
			rc =
			    rc == HB_ENOMEM ? hb_json_oom(err) : hb_jr_invalid(&j, json, what, err);
			goto done;
		}
		hb_jr_peek(&j);
		j.p++; /* ':' */
		if (!rows && !strcmp(s.name.data, "Row"))
			rows = (hb_jr_peek(&j), j.p);
		hb_jr_skip(&j, 1);
		more = hb_jr_next(&j, '}');
	}
	if (!rows || *rows == 'n')
		goto done;
	if (*rows != '[') {
		rc = HB_BAD("Row is not an array");
		goto done;
	}
	j.p = rows + 1;
	j.drop = mapped ? json : NULL;
	more = hb_jr_peek(&j) == ']' ? (j.p++, 0) : 1;
	while (more == 1) {
		if ((rc = cs_row(&j, i, &s, &row, what, err)))
			break;
		rc = fn(ctx, &row, err);
		hb_row_release(&row);
		if (rc)
			break;
		i++;
		/* cs_row read the row's members to its closing brace */
		more = hb_jr_next(&j, ']');
	}
	if (!rc && (j.bad || more < 0))
		rc = hb_jr_invalid(&j, json, what, err);
done:
	hb_row_release(&row);
	hb_buf_release(&s.key.buf);
	hb_buf_release(&s.col.buf);
	hb_buf_release(&s.val.buf);
	hb_buf_release(&s.ts.buf);
	hb_buf_release(&s.name);
	hb_buf_release(&s.kb);
	hb_buf_release(&s.cb);
	hb_buf_release(&s.vb);
	return rc;
}

/* The row a protobuf reader has just read (key) with its cells, handed to fn as the JSON
 * decoder hands a row. */
int hb_rest_pb_row(struct hb_scanpb_reader *rd, const unsigned char *key, size_t key_len,
                   hb_fragment_fn fn, void *ctx, struct hb_error *err)
{
	struct hb_pb_cell cell;
	struct hb_row frag;
	int rc;

	hb_row_init(&frag);
	if (!(frag.key = malloc(key_len + 1)))
		return hb_error_set(err, HB_ENOMEM, "out of memory");
	if (key_len)
		memcpy(frag.key, key, key_len);
	frag.key[key_len] = 0;
	frag.key_len = key_len;
	while ((rc = hb_scanpb_next_cell(rd, &cell, err)) == 1)
		if (hb_row_add_cell(&frag, cell.column, cell.column_len, cell.value, cell.value_len,
		                    cell.timestamp)) {
			rc = hb_error_set(err, HB_ENOMEM, "out of memory");
			break;
		}
	if (!rc)
		rc = fn(ctx, &frag, err);
	hb_row_release(&frag);
	return rc;
}

/* Hands each Row a protobuf reader reads to fn. */
static int pb_rows(struct hb_scanpb_reader *rd, hb_fragment_fn fn, void *ctx, struct hb_error *err)
{
	const unsigned char *key;
	size_t key_len;
	int rc;

	while ((rc = hb_scanpb_next_row(rd, &key, &key_len, err)) == 1)
		if ((rc = hb_rest_pb_row(rd, key, key_len, fn, ctx, err)))
			return rc;
	return rc;
}

/* A row GET's or scanner batch's protobuf body: one CellSet, no length in front. */
int hb_rest_decode_cellset_pb(const char *body, size_t blen, const char *what, hb_fragment_fn fn,
                              void *ctx, struct hb_error *err)
{
	struct hb_scanpb_reader rd;
	int rc = hb_cellsetpb_reader_init(&rd, body, blen, what, err);

	return rc ? rc : pb_rows(&rd, fn, ctx, err);
}
