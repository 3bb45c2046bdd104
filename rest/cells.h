/* Rows of cells (hb_row, hb_cell) and the CellSet body's decoders. */
#ifndef HB_REST_CELLS_H
#define HB_REST_CELLS_H

#include "core/hb.h"
#include "core/restpb_cells.h"

#include <stddef.h>
#include <stdint.h>

/* One cell: column is "family:qualifier" bytes, value raw bytes (both NUL-terminated copies;
 * in a row built by hb_row_add_cell they share one allocation, freed with the column). */
struct hb_cell {
	unsigned char *column;
	size_t column_len;
	unsigned char *value;
	size_t value_len;
	int64_t timestamp; /* 0 when unknown / server-assigned */
};

/* One row with its cells, as read by a scanner (fragments of one row are merged). */
struct hb_row {
	unsigned char *key;
	size_t key_len;
	struct hb_cell *cells;
	size_t ncells, cap;
};

void hb_row_init(struct hb_row *r);
void hb_row_release(struct hb_row *r);
/* Appends a copy of a cell to r. HB_ENOMEM. */
int hb_row_add_cell(struct hb_row *r, const void *col, size_t col_len, const void *val,
                    size_t val_len, int64_t ts);
/* The first cell of r whose column equals col (bytes), or NULL. */
const struct hb_cell *hb_row_cell(const struct hb_row *r, const char *col);

/* Calls fn for every Row fragment of a CellSet body (rows split across bodies are not
 * merged here); rows before a content error are handed on first, none before a syntax
 * error. HB_ESERVER for a malformed body; fn's error stops the body. */
int hb_rest_decode_cellset(const char *json, size_t len, const char *what,
                           int (*fn)(void *ctx, struct hb_row *frag, struct hb_error *err),
                           void *ctx, struct hb_error *err);

/* hb_rest_decode_cellset for a body mapped from its spool file (hb_rest_resp_body with spool
 * set): the pages read are given back as the parser moves on. */
int hb_rest_decode_cellset_mapped(const char *json, size_t len, const char *what,
                                  int (*fn)(void *ctx, struct hb_row *frag, struct hb_error *err),
                                  void *ctx, struct hb_error *err);

typedef int (*hb_fragment_fn)(void *ctx, struct hb_row *frag, struct hb_error *err);

/* The protobuf CellSet of a row GET or scanner batch, for rest/scan.c and rest/row.c. */
int hb_rest_pb_row(struct hb_scanpb_reader *rd, const unsigned char *key, size_t key_len,
                   hb_fragment_fn fn, void *ctx, struct hb_error *err);
int hb_rest_decode_cellset_pb(const char *body, size_t blen, const char *what, hb_fragment_fn fn,
                              void *ctx, struct hb_error *err);

#endif
