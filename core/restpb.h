/* Protobuf bodies of HBase's REST gateway: TableInfo (/T/regions), a stateless scan's
 * CellSet chunks, a row GET's or scanner batch's CellSet and StorageClusterStatus
 * (/status/cluster). */
#ifndef HB_RESTPB_H
#define HB_RESTPB_H

#include "buf.h"
#include "hb.h"
#include "region.h"

#include <stddef.h>
#include <stdint.h>

/* The media type hbtab asks for and the two HBase answers with (docs/hbase-wire.md §3.1). */
#define HB_PROTOBUF_TYPE      "application/x-protobuf"
#define HB_PROTOBUF_TYPE_IETF "application/protobuf"

/*
 * A cursor over a TableInfo message (GET /T/regions as protobuf). what names the request in
 * messages ("GET /t/regions"); table, when not NULL, is the table asked for: a name field
 * naming another (a "default:" prefix on either side aside) is refused. pos is how far the
 * body has been read, for callers that give back the pages behind it.
 */
struct hb_tableinfo_reader {
	const unsigned char *p;
	size_t n, pos;
	size_t i; /* regions read so far */
	size_t
	    base; /* where p lies in the whole body, for messages (0 unless the caller moves p) */
	const char *what, *table;
	struct hb_buf start, end, loc, name;
};

/* Starts a reader over the n bytes at p (not copied: they must outlive the reader). */
void hb_tableinfo_reader_init(struct hb_tableinfo_reader *r, const void *p, size_t n,
                              const char *what, const char *table);
void hb_tableinfo_reader_release(struct hb_tableinfo_reader *r);

/*
 * Reads the next region into *out (its strings are the reader's, valid until the next call;
 * the name is the server's, NULL when absent; server is NULL without a location). Returns 1
 * for a region, 0 at the end of the message, HB_ESERVER ("malformed response from WHAT: ...")
 * for a malformed body or one naming another table, HB_ENOMEM.
 */
int hb_tableinfo_next(struct hb_tableinfo_reader *r, struct hb_region *out, struct hb_error *err);

/* For a TableInfo read as it arrives: the length of the longest start of the n bytes at p
 * made of whole top-level fields (their tags and lengths are valid and their bytes are all
 * there). A reader over just those reads every field in them; what follows waits for more
 * bytes, and a rest that never becomes whole is a truncated or malformed body. */
size_t hb_tableinfo_whole(const void *p, size_t n);

/*
 * A TableInfo read as it arrives, in pieces of any size: each region is handed to fn as soon
 * as its bytes are all there (struct hb_region as hb_tableinfo_next gives it). Only the bytes
 * after the last whole field are kept; a rest that grows past HB_TABLEINFO_PENDING_MAX
 * without a whole field in it (no Region comes near: a row key is at most 32 KiB) is read at
 * once, to say why it is malformed.
 */
#define HB_TABLEINFO_PENDING_MAX (1 << 20)
typedef int (*hb_tableinfo_fn)(void *ctx, const struct hb_region *r, struct hb_error *err);
struct hb_tableinfo_stream {
	struct hb_tableinfo_reader rd;
	struct hb_buf pend; /* the bytes after the last whole field */
	size_t seen;        /* bytes read before pend */
};

void hb_tableinfo_stream_init(struct hb_tableinfo_stream *s, const char *what, const char *table);
void hb_tableinfo_stream_release(struct hb_tableinfo_stream *s);
/* Forgets every byte pushed so far (an answer that starts again). */
void hb_tableinfo_stream_reset(struct hb_tableinfo_stream *s);
/* The next n bytes; fn's non-zero return or the reader's error (as hb_tableinfo_next's). */
int hb_tableinfo_stream_push(struct hb_tableinfo_stream *s, const void *p, size_t n,
                             hb_tableinfo_fn fn, void *ctx, struct hb_error *err);
/* After the last byte: bytes left over are a cut or malformed body, and the reader says why. */
int hb_tableinfo_stream_end(struct hb_tableinfo_stream *s, hb_tableinfo_fn fn, void *ctx,
                            struct hb_error *err);

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

/* A live node of a StorageClusterStatus: name ("host:port", no NUL) is a view into the body.
 * index counts the live nodes before it. */
struct hb_statuspb_node {
	const unsigned char *name;
	size_t name_len;
	int64_t start_code, requests, heap_mb, max_heap_mb;
	size_t index;
};

/* One Region of a node: the region name (bytes) is a view into the body. */
struct hb_statuspb_region {
	const unsigned char *name;
	size_t name_len;
	int64_t stores, storefiles, storefile_size_mb, memstore_size_mb;
	int64_t read_requests, write_requests;
};

/*
 * A cursor over a StorageClusterStatus message (GET /status/cluster as protobuf,
 * docs/hbase-wire.md §1.1): live nodes and dead node names in body order, each node's
 * regions read with hb_statuspb_next_region. The summary (regions, requests, averageLoad)
 * is in the reader once hb_statuspb_next has returned 0. pos is how far the body has been
 * read, for callers that give back the pages behind it.
 */
struct hb_statuspb_reader {
	const unsigned char *p;
	size_t n, pos;
	const char *what;
	const unsigned char *node; /* the current node message and how far its regions are read */
	size_t node_len, node_pos;
	size_t nodes, dead, node_regions; /* read so far */
	int64_t regions, requests;
	double average_load;
};

#define HB_STATUSPB_NODE 1
#define HB_STATUSPB_DEAD 2

/* Starts a reader over the n bytes at p (not copied: they must outlive the reader). */
void hb_statuspb_reader_init(struct hb_statuspb_reader *r, const void *p, size_t n,
                             const char *what);

/*
 * Reads the next live node into *node (HB_STATUSPB_NODE; its regions follow through
 * hb_statuspb_next_region) or dead node name into *dead, *dead_len (HB_STATUSPB_DEAD; no
 * NUL inside); 0 at the end of the message, HB_ESERVER ("malformed response from WHAT: ...").
 */
int hb_statuspb_next(struct hb_statuspb_reader *r, struct hb_statuspb_node *node,
                     const unsigned char **dead, size_t *dead_len, struct hb_error *err);

/* Reads the current node's next region: 1 for a region, 0 at the node's end, HB_ESERVER. */
int hb_statuspb_next_region(struct hb_statuspb_reader *r, struct hb_statuspb_region *out,
                            struct hb_error *err);

/* Where the reader has got to in the body (for giving back the pages behind it). */
const unsigned char *hb_statuspb_at(const struct hb_statuspb_reader *r);

/*
 * A StorageClusterStatus read as it arrives, in pieces of any size. A Node can hold every
 * region of a server, so it is not waited for whole: its fields are read one by one and each
 * Region is handed on as soon as its bytes are all there, with the node as read so far.
 * Regions that come before the node's name (protobuf-java writes the name first, but the
 * format allows any order) are held until the name comes, then handed on in order. node is
 * called when a node's name is read (again if it is read again) and at the node's end with
 * its last fields: a node's index tells a new node from one seen before. A body that is
 * malformed fails where a reader over the whole body fails (HB_ESERVER), though regions of a
 * node may have been handed on before an error later in that node.
 */
struct hb_statuspb_fns {
	int (*node)(void *ctx, const struct hb_statuspb_node *n, struct hb_error *err);
	int (*region)(void *ctx, const struct hb_statuspb_node *n,
	              const struct hb_statuspb_region *r, struct hb_error *err);
	int (*dead)(void *ctx, const unsigned char *name, size_t len, struct hb_error *err);
	void *ctx;
};
struct hb_statuspb_stream {
	const char *what;
	const struct hb_statuspb_fns *fns;
	struct hb_buf pend; /* the bytes after the last whole field */
	size_t seen;        /* bytes of the body before pend */
	size_t nodes, dead; /* live nodes begun (the current one included), dead names */
	int64_t regions, requests;
	double average_load;
	/* the Node being read */
	int in_node, has_name;
	size_t node_left, node_at, node_regions;
	struct hb_statuspb_node node; /* its name points into name */
	struct hb_buf name, held;     /* held: regions before the name, each behind its length */
};

void hb_statuspb_stream_init(struct hb_statuspb_stream *s, const char *what,
                             const struct hb_statuspb_fns *fns);
void hb_statuspb_stream_release(struct hb_statuspb_stream *s);
/* Forgets every byte pushed so far (an answer that starts again). */
void hb_statuspb_stream_reset(struct hb_statuspb_stream *s);
/* The next n bytes: a callback's non-zero return, HB_ESERVER, HB_ENOMEM. */
int hb_statuspb_stream_push(struct hb_statuspb_stream *s, const void *p, size_t n,
                            struct hb_error *err);
/* After the last byte: a body that ends inside a field or a node is malformed. The summary
 * (regions, requests, averageLoad) is in s once this returned 0. */
int hb_statuspb_stream_end(struct hb_statuspb_stream *s, struct hb_error *err);

#endif
