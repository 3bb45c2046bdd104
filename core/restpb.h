/* Protobuf bodies of HBase's REST gateway: TableInfo, the /T/regions answer. */
#ifndef HB_RESTPB_H
#define HB_RESTPB_H

#include "buf.h"
#include "hb.h"
#include "region.h"

#include <stddef.h>

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

#endif
