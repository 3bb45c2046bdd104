/* One row: GET /T/row, PUT of cells, and checkAndPut. */
#include "rest/row.h"
#include "core/metarow.h"
#include "core/restpb.h"
#include "rest/cells.h"
#include "rest/resource.h"
#include "rest/rest_priv.h"
#include "rest/scan.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- Rows ---- */

struct one_row {
	struct hb_row *out;
	const void *key;
	size_t key_len;
	int found;
};

static int take_row(void *ctx, const struct hb_row *row, struct hb_error *err)
{
	struct one_row *o = ctx;
	size_t i;

	if (row->key_len != o->key_len || memcmp(row->key, o->key, row->key_len))
		return 0; /* cannot happen with [row, row+\0); ignore defensively */
	for (i = 0; i < row->ncells; i++)
		if (hb_row_add_cell(o->out, row->cells[i].column, row->cells[i].column_len,
		                    row->cells[i].value, row->cells[i].value_len,
		                    row->cells[i].timestamp))
			return hb_error_set(err, HB_ENOMEM, "out of memory");
	o->found = row->ncells > 0;
	return 0;
}

static int take_fragment(void *ctx, struct hb_row *frag, struct hb_error *err)
{
	return take_row(ctx, frag, err);
}

/*
 * A row path RowSpec reads back as the same bytes: printable ASCII without '/' (an encoded
 * slash is refused by some Jetty builds) or '*' (a path ending in '*' is a scan), and not a
 * dot segment: libcurl removes "/." and "/.." from a path (RFC 3986 §5.2.4), so a row '.'
 * or '..' would be asked of another resource.
 */
static int row_path_ok(const void *row, size_t n, const char *const *columns)
{
	const char *const *col;

	if (!hb_rest_url_safe(row, n) || memchr(row, '/', n) || memchr(row, '*', n))
		return 0;
	if ((n == 1 && !memcmp(row, ".", 1)) || (n == 2 && !memcmp(row, "..", 2)))
		return 0;
	for (col = columns; col && *col; col++)
		if (!**col || !hb_rest_url_safe(*col, strlen(*col)) || strpbrk(*col, "/*"))
			return 0;
	return 1;
}

/* A row GET asks for protobuf (RowResource's CellSet, docs/hbase-wire.md §4.1) and again for
 * JSON when that is refused; it is idempotent, so asking twice reads nothing twice. */
static int row_request(struct hb_rest *c, const char *path, struct hb_rest_resp *r,
                       struct hb_error *err)
{
	int rc;

	r->accept = hb_rest_protobuf_refused(c) ? NULL : HB_PROTOBUF_TYPE;
	rc = hb_rest_request(c, "GET", path, NULL, NULL, 0, 1, r, err);
	if (rc || !r->accept || !hb_rest_pb_refused(r))
		return rc;
	hb_rest_note_protobuf_refused(c);
	r->accept = NULL;
	return hb_rest_request(c, "GET", path, NULL, NULL, 0, 1, r, err);
}

/* GET /T/row[/col,col...] (RowResource): 404 is "no such row" unless HBase names a missing
 * table or family in the body. */
static int row_get(struct hb_rest *c, const char *table, const void *row, size_t row_len,
                   const char *const *columns, struct one_row *o, struct hb_error *err)
{
	struct hb_buf path = HB_BUF_INIT;
	struct hb_rest_resp r;
	const char *const *col;
	char what[700];
	int rc;

	hb_rest_resp_init(&r);
	rc = hb_rest_table_path(&path, table, "/", err);
	if (!rc && hb_rest_path_escape(&path, row, row_len))
		rc = hb_error_set(err, HB_ENOMEM, "out of memory");
	for (col = columns; !rc && col && *col; col++)
		if (hb_buf_addc(&path, col == columns ? '/' : ',') ||
		    hb_rest_path_escape(&path, *col, strlen(*col)))
			rc = hb_error_set(err, HB_ENOMEM, "out of memory");
	if (!rc)
		rc = row_request(c, path.data, &r, err);
	snprintf(what, sizeof(what), "GET %s", path.data);
	if (!rc && r.status == 404 && !strstr(hb_buf_str(&r.body), "TableNotFoundException") &&
	    !strstr(hb_buf_str(&r.body), "NoSuchColumnFamilyException")) {
		o->found = 0;
	} else if (!rc && r.status != 200) {
		rc = hb_rest_status_error("GET", path.data, &r, err);
	} else if (!rc && hb_rest_is_protobuf(r.content_type)) {
		rc =
		    hb_rest_decode_cellset_pb(r.body.data, r.body.len, what, take_fragment, o, err);
	} else if (!rc) {
		rc = hb_rest_expect_json("GET", path.data, &r, err);
		if (!rc)
			rc = hb_rest_decode_cellset(r.body.data, r.body.len, what, take_fragment, o,
			                            err);
	}
	hb_rest_resp_release(&r);
	hb_buf_release(&path);
	return rc;
}

int hb_rest_get_row(struct hb_rest *c, const char *table, const void *row, size_t row_len,
                    const char *const *columns, struct hb_row *out, int *found,
                    struct hb_error *err)
{
	struct hb_scan_spec spec;
	struct hb_buf end = HB_BUF_INIT;
	struct one_row o;
	int rc;

	*found = 0;
	hb_row_release(out);
	if (!row_len)
		return hb_error_set(err, HB_EINVAL, "empty row key");
	if (hb_buf_add(&end, row, row_len) || hb_buf_addc(&end, 0))
		return hb_error_set(err, HB_ENOMEM, "out of memory");
	out->key = malloc(row_len + 1);
	if (!out->key) {
		hb_buf_release(&end);
		return hb_error_set(err, HB_ENOMEM, "out of memory");
	}
	memcpy(out->key, row, row_len);
	out->key[row_len] = 0;
	out->key_len = row_len;
	o.out = out;
	o.key = row;
	o.key_len = row_len;
	o.found = 0;
	if (row_path_ok(row, row_len, columns)) {
		rc = row_get(c, table, row, row_len, columns, &o, err);
		*found = o.found;
		hb_buf_release(&end);
		return rc;
	}
	memset(&spec, 0, sizeof(spec));
	spec.start = row;
	spec.start_len = row_len;
	spec.end = end.data;
	spec.end_len = end.len;
	spec.columns = columns;
	spec.batch = 1000;
	spec.max_versions = 1;
	rc = hb_rest_scan(c, table, &spec, take_row, &o, err);
	*found = o.found;
	hb_buf_release(&end);
	return rc;
}

static int cellset_body(const void *row, size_t row_len, const struct hb_cell *cells, size_t ncells,
                        const char *check_col, const void *check_val, size_t check_len, char **out)
{
	cJSON *root = cJSON_CreateObject(), *rows, *r, *arr;
	size_t i;
	int ok = root != NULL;

	*out = NULL;
	rows = ok ? cJSON_AddArrayToObject(root, "Row") : NULL;
	r = cJSON_CreateObject();
	ok = rows && r && cJSON_AddItemToArray(rows, r);
	if (!ok)
		cJSON_Delete(r);
	ok = ok && hb_rest_b64_field(r, "key", row, row_len);
	arr = ok ? cJSON_AddArrayToObject(r, "Cell") : NULL;
	ok = arr != NULL;
	for (i = 0; ok && i <= ncells; i++) {
		cJSON *cell;

		if (i == ncells && !check_col)
			break;
		cell = cJSON_CreateObject();
		ok = cell && cJSON_AddItemToArray(arr, cell);
		if (!ok) {
			cJSON_Delete(cell);
			break;
		}
		if (i < ncells)
			ok = hb_rest_b64_field(cell, "column", cells[i].column,
			                       cells[i].column_len) &&
			     hb_rest_b64_field(cell, "$", cells[i].value, cells[i].value_len);
		else /* the check cell goes last (docs/hbase-wire.md §4 ?check=put) */
			ok = hb_rest_b64_field(cell, "column", check_col, strlen(check_col)) &&
			     hb_rest_b64_field(cell, "$", check_val, check_len);
	}
	if (ok)
		*out = cJSON_PrintUnformatted(root);
	cJSON_Delete(root);
	return *out ? 0 : HB_ENOMEM;
}

/* PUT /T/<dummy>[?check=put]: the dummy path row is overridden by the body key (docs/hbase-wire.md
 * §0.1). */
static int put_common(struct hb_rest *c, const char *table, const void *row, size_t row_len,
                      const struct hb_cell *cells, size_t ncells, const char *check_col,
                      const void *check_val, size_t check_len, int *applied, struct hb_error *err)
{
	struct hb_buf path = HB_BUF_INIT;
	struct hb_rest_resp r;
	char *body = NULL;
	int rc;

	if (!row_len || !ncells)
		return hb_error_set(err, HB_EINVAL, "a put needs a row key and at least one cell");
	hb_rest_resp_init(&r);
	rc = hb_rest_table_path(&path, table, check_col ? "/hbtab-row?check=put" : "/hbtab-row",
	                        err);
	if (!rc &&
	    cellset_body(row, row_len, cells, ncells, check_col, check_val, check_len, &body))
		rc = hb_error_set(err, HB_ENOMEM, "out of memory");
	/* A plain put is idempotent; a check-and-put is not (a lost 200 would read as 304). */
	if (!rc)
		rc = hb_rest_request(c, "PUT", path.data, HB_JSON_TYPE, body, strlen(body),
		                     !check_col, &r, err);
	if (!rc) {
		/* HBase's RowResource answers a put (and an applied check-and-put) with an empty
		 * 200; a body means something else answered (a proxy page), and the row may not
		 * have been written. */
		if ((r.status == 200 || r.status == 201) && r.body.len)
			rc = hb_error_set(
			    err, HB_ESERVER,
			    "unexpected answer to PUT %s: HTTP %ld with a %zu-byte body "
			    "(HBase answers an empty 200); the row may not be written",
			    path.data, r.status, r.body.len);
		else if (r.status == 200 || r.status == 201)
			*applied = 1;
		else if (r.status == 304 && check_col)
			*applied = 0;
		else
			rc = hb_rest_status_error("PUT", path.data, &r, err);
	}
	free(body);
	hb_rest_resp_release(&r);
	hb_buf_release(&path);
	return rc;
}

int hb_rest_put_row(struct hb_rest *c, const char *table, const void *row, size_t row_len,
                    const struct hb_cell *cells, size_t ncells, struct hb_error *err)
{
	int applied = 0;

	return put_common(c, table, row, row_len, cells, ncells, NULL, NULL, 0, &applied, err);
}

int hb_rest_check_and_put(struct hb_rest *c, const char *table, const void *row, size_t row_len,
                          const struct hb_cell *cells, size_t ncells, const char *check_col,
                          const void *check_val, size_t check_len, int *applied,
                          struct hb_error *err)
{
	*applied = 0;
	if (!check_col || !strchr(check_col, ':'))
		return hb_error_set(err, HB_EINVAL, "check column must be family:qualifier");
	return put_common(c, table, row, row_len, cells, ncells, check_col, check_val, check_len,
	                  applied, err);
}
