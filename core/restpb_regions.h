/* GET /T/regions as protobuf: a TableInfo message (core/restpb_regions.c). */
#ifndef HB_RESTPB_REGIONS_H
#define HB_RESTPB_REGIONS_H

#include "buf.h"
#include "hb.h"
#include "region.h"
#include "restpb.h"

#include <stddef.h>
#include <stdint.h>

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
#define HB_TABLEINFO_PENDING_MAX HB_RESTPB_PENDING_MAX
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

#endif
