/* THBaseService's (Thrift2) messages over TBinaryProtocol (core/tbinary.h): encoders for the DDL
 * calls hbtab makes and bounds-checked decoders for their replies (docs/hbase-wire.md §8). */
#ifndef HB_THRIFT_H
#define HB_THRIFT_H

#include "buf.h"
#include "hb.h"
#include "key.h"
#include "region.h"
#include "schema.h"
#include "tbinary.h"

#include <stddef.h>
#include <stdint.h>

/*
 * Encodes a createTable(desc, splitKeys) CALL: families from s (attributes normalized as by
 * hb_family_normalize, core/family.h; others in the attributes map), table attributes in
 * TTableDescriptor.attributes, every split key as binary. HB_EINVAL for a bad attribute.
 */
int hb_thrift_encode_create_table(struct hb_buf *out, int32_t seqid, const struct hb_schema *s,
                                  const struct hb_keys *splits, struct hb_error *err);
/* Encodes a CALL whose only argument is `1: TTableName` (tableExists, deleteTable,
 * disableTable, enableTable, getTableDescriptor, isTableEnabled...). table is "ns:q" or "q". */
int hb_thrift_encode_table_call(struct hb_buf *out, const char *method, int32_t seqid,
                                const char *table, struct hb_error *err);
/* Encodes truncateTable(1: TTableName tableName, 2: bool preserveSplits). HB_EINVAL, HB_ENOMEM. */
int hb_thrift_encode_truncate_table(struct hb_buf *out, int32_t seqid, const char *table,
                                    int preserve_splits, struct hb_error *err);
/* Encodes getAllRegionLocations(1: binary table). */
int hb_thrift_encode_region_locations(struct hb_buf *out, int32_t seqid, const char *table,
                                      struct hb_error *err);

/* Decodes a createTable CALL back into a schema and split keys (tests, tools). HB_ESERVER. */
int hb_thrift_decode_create_table_call(struct hb_schema *s, struct hb_keys *splits, const void *p,
                                       size_t n, struct hb_error *err);

enum hb_thrift_outcome {
	HB_TR_VOID = 0,      /* REPLY with an empty result struct */
	HB_TR_SUCCESS,       /* REPLY with field 0 */
	HB_TR_IOERROR,       /* REPLY with field 1 TIOError */
	HB_TR_ILLEGAL_ARG,   /* REPLY with field 2 TIllegalArgument */
	HB_TR_APP_EXCEPTION, /* EXCEPTION message: TApplicationException */
};

struct hb_thrift_reply {
	enum hb_thrift_outcome outcome;
	char *message;                /* exception message (NUL-terminated copy), NULL when none */
	int can_retry;                /* TIOError.canRetry: 0/1, -1 when absent */
	int32_t app_type;             /* TApplicationException.type, -1 when absent */
	int success_type;             /* wire type of field 0 */
	const unsigned char *success; /* field 0's value: a span into the parsed input */
	size_t success_len;
};

void hb_thrift_reply_init(struct hb_thrift_reply *r);
void hb_thrift_reply_release(struct hb_thrift_reply *r);

/*
 * Parses a reply to method with seqid: header (strict), name and seqid checked, then the
 * result struct or the TApplicationException; unknown fields skipped. The success span
 * points into p, which must outlive r. HB_ESERVER "malformed thrift reply: ..." ; HB_ENOMEM.
 */
int hb_thrift_reply_parse(struct hb_thrift_reply *r, const void *p, size_t n, const char *method,
                          int32_t seqid, struct hb_error *err);
/* Name of a TApplicationException type ("INTERNAL_ERROR"), "UNKNOWN" when out of range. */
const char *hb_thrift_app_type_name(int32_t type);
/* 0 for VOID/SUCCESS; otherwise HB_ESERVER with "thrift2 METHOD: TIOError: msg" etc. */
int hb_thrift_reply_error(const struct hb_thrift_reply *r, const char *method,
                          struct hb_error *err);
/* Field 0 as a bool (tableExists). HB_ESERVER when absent or of another type. */
int hb_thrift_reply_bool(const struct hb_thrift_reply *r, int *out, struct hb_error *err);
/* Field 0 as list<THRegionLocation> (getAllRegionLocations), appended to out unsorted. */
int hb_thrift_reply_regions(const struct hb_thrift_reply *r, struct hb_regions *out,
                            struct hb_error *err);
/* Field 0 as TTableDescriptor (getTableDescriptor) into an empty schema; enum fields come
 * back as HBase's attribute names (COMPRESSION => SNAPPY, ...). */
int hb_thrift_reply_table_desc(const struct hb_thrift_reply *r, struct hb_schema *out,
                               struct hb_error *err);

#endif
