/* One row's cells: read, written, checked-and-put. */
#ifndef HB_REST_ROW_H
#define HB_REST_ROW_H

#include "rest/cells.h"
#include "rest/rest.h"

#include <stddef.h>

/* Reads one row (binary-safe: a scanner over [row, row+"\0")) restricted to columns (may be
 * NULL = all). *found = 0 and out empty when the row has no cells. out must be initialised. */
int hb_rest_get_row(struct hb_rest *c, const char *table, const void *row, size_t row_len,
                    const char *const *columns, struct hb_row *out, int *found,
                    struct hb_error *err);
/* Writes cells to one row; the key goes in the JSON body (dummy path row). */
int hb_rest_put_row(struct hb_rest *c, const char *table, const void *row, size_t row_len,
                    const struct hb_cell *cells, size_t ncells, struct hb_error *err);
/*
 * checkAndPut (?check=put): writes cells if column check_col currently holds exactly
 * check_val. cells must include a cell for check_col. *applied = 1 on 200, 0 on 304.
 */
int hb_rest_check_and_put(struct hb_rest *c, const char *table, const void *row, size_t row_len,
                          const struct hb_cell *cells, size_t ncells, const char *check_col,
                          const void *check_val, size_t check_len, int *applied,
                          struct hb_error *err);

#endif
