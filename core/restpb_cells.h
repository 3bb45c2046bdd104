/* CellSet as protobuf: a stateless scan's chunks and a row GET's or scanner batch's CellSet
 * (core/restpb_cells.c). */
#ifndef HB_RESTPB_CELLS_H
#define HB_RESTPB_CELLS_H

#include "buf.h"
#include "hb.h"
#include "restpb.h"

#include <stddef.h>
#include <stdint.h>

/* One cell of a CellSet row: views into the body. column is "family:qualifier". */
struct hb_pb_cell {
	const unsigned char *column, *value;
	size_t column_len, value_len;
	int64_t timestamp; /* 0 when absent */
};

/*
 * A cursor over a stateless scan's protobuf body (docs/hbase-wire.md §3.1): CellSet chunks,
 * each behind a 2-byte big-endian length that HBase truncates to 16 bits. A chunk's real
 * length is the one of length + k * 65536 that ends on a Row and where the next chunk starts
 * with one; when two fit, the body cannot be framed. Rows are read one at a time, their cells
 * with hb_scanpb_next_cell.
 */
struct hb_scanpb_reader {
	const unsigned char *p;
	size_t n, pos;    /* pos: the next Row field, or the next chunk's length */
	size_t chunk_end; /* where the current chunk ends */
	size_t rows;      /* rows read so far */
	const char *what;
	const unsigned char *row; /* the current Row message and how far its cells are read */
	size_t row_len, row_pos;
	size_t base; /* where p lies in the whole body, for messages (0 unless a stream moves p) */
};

/* Starts a reader over the n bytes at p (not copied). */
void hb_scanpb_reader_init(struct hb_scanpb_reader *r, const void *p, size_t n, const char *what);

/*
 * Starts a reader over one whole CellSet message with no length in front: the body of a row
 * GET (RowResource) or of a scanner's batch (ScannerInstanceResource), docs/hbase-wire.md §4.1.
 * The body is walked first as a stateless scan's chunk is: 0 when it is a non-empty run of
 * Row fields within its bounds, HB_ESERVER ("malformed response from WHAT: ...") otherwise,
 * and then the reader reads nothing. Its rows come from hb_scanpb_next_row and
 * hb_scanpb_next_cell.
 */
int hb_cellsetpb_reader_init(struct hb_scanpb_reader *r, const void *p, size_t n, const char *what,
                             struct hb_error *err);

/* Walks every chunk's framing and Row fields without handing anything on: 0 when the whole
 * body frames, HB_EINVAL (with the message) when two chunk lengths fit (a chunk of 64 KiB or
 * more), HB_ESERVER when the body is malformed. */
int hb_scanpb_check(const void *p, size_t n, const char *what, struct hb_error *err);

/* Reads the next row's key (a view into the body). Returns 1 for a row, 0 at the end, or
 * HB_ESERVER ("malformed response from WHAT: ..."), HB_EINVAL (unframeable, as above). */
int hb_scanpb_next_row(struct hb_scanpb_reader *r, const unsigned char **key, size_t *key_len,
                       struct hb_error *err);

/* Reads the current row's next cell: 1 for a cell, 0 at the row's end, HB_ESERVER. */
int hb_scanpb_next_cell(struct hb_scanpb_reader *r, struct hb_pb_cell *out, struct hb_error *err);

/*
 * A stateless scan's body read as it arrives, in pieces of any size. A chunk is framed as
 * hb_scanpb_next_row frames it over the whole body, and its rows are handed to fn once that
 * framing can no longer change: the walk over its Row fields has stopped on a byte that is not
 * a Row tag, or at the body's end. So fn sees the rows a reader over the whole body would hand
 * on, in the same order, before the same error. fn reads each row's cells from rd with
 * hb_scanpb_next_cell. Only the current chunk and the bytes the walk read past it are kept
 * (a chunk is at most the scan's fetch size in rows, ten by default).
 */
typedef int (*hb_scanpb_row_fn)(void *ctx, struct hb_scanpb_reader *rd, const unsigned char *key,
                                size_t key_len, struct hb_error *err);
struct hb_scanpb_stream {
	const char *what;
	struct hb_buf pend; /* from the current chunk's length on */
	size_t seen;        /* bytes of the body before pend */
	size_t rows;        /* rows handed on */
	/* the walk over the current chunk's Row fields (offsets into pend) */
	size_t at, found, fits, check;
	int walking, checking;
};

void hb_scanpb_stream_init(struct hb_scanpb_stream *s, const char *what);
void hb_scanpb_stream_release(struct hb_scanpb_stream *s);
/* Forgets every byte pushed so far (an answer that starts again). */
void hb_scanpb_stream_reset(struct hb_scanpb_stream *s);
/* The next n bytes: fn's non-zero return, or the reader's HB_ESERVER / HB_EINVAL. */
int hb_scanpb_stream_push(struct hb_scanpb_stream *s, const void *p, size_t n, hb_scanpb_row_fn fn,
                          void *ctx, struct hb_error *err);
/* After the last byte: the chunks still held are framed as at the body's end. */
int hb_scanpb_stream_end(struct hb_scanpb_stream *s, hb_scanpb_row_fn fn, void *ctx,
                         struct hb_error *err);

#endif
