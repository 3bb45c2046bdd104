/* TBinaryProtocol (strict) messages for THBaseService (Thrift2): encoders for the DDL calls
 * hbtab makes and bounds-checked decoders for their replies (docs/hbase-wire.md §8). */
#ifndef HB_THRIFT_H
#define HB_THRIFT_H

#include "buf.h"
#include "hb.h"
#include "key.h"
#include "region.h"
#include "schema.h"

#include <stddef.h>
#include <stdint.h>

/* Wire type codes. */
enum hb_tt {
	HB_TT_STOP = 0,
	HB_TT_BOOL = 2,
	HB_TT_BYTE = 3,
	HB_TT_DOUBLE = 4,
	HB_TT_I16 = 6,
	HB_TT_I32 = 8,
	HB_TT_I64 = 10,
	HB_TT_STRING = 11,
	HB_TT_STRUCT = 12,
	HB_TT_MAP = 13,
	HB_TT_SET = 14,
	HB_TT_LIST = 15,
};

/* Message types. */
enum hb_tmsg { HB_TMSG_CALL = 1, HB_TMSG_REPLY = 2, HB_TMSG_EXCEPTION = 3, HB_TMSG_ONEWAY = 4 };

/* Nesting limit for skipping unknown values (a hostile reply cannot exhaust the stack). */
#define HB_THRIFT_MAX_DEPTH 64

/* A read cursor over one message. Every read checks the remaining length. */
struct hb_thrift_rd {
	const unsigned char *p;
	size_t len, pos;
};

void hb_thrift_rd_init(struct hb_thrift_rd *r, const void *p, size_t len);
/* Reads a strict message header; name is a span into the input. HB_ESERVER when malformed. */
int hb_thrift_read_msg_begin(struct hb_thrift_rd *r, const unsigned char **name, size_t *name_len,
                             int *type, int32_t *seqid, struct hb_error *err);
/* Reads a field header; *type == HB_TT_STOP ends the struct (id is then 0). */
int hb_thrift_read_field(struct hb_thrift_rd *r, int *type, int16_t *id, struct hb_error *err);
int hb_thrift_read_bool(struct hb_thrift_rd *r, int *out, struct hb_error *err);
int hb_thrift_read_i16(struct hb_thrift_rd *r, int16_t *out, struct hb_error *err);
int hb_thrift_read_i32(struct hb_thrift_rd *r, int32_t *out, struct hb_error *err);
int hb_thrift_read_i64(struct hb_thrift_rd *r, int64_t *out, struct hb_error *err);
/* A binary/string value as a span into the input. */
int hb_thrift_read_binary(struct hb_thrift_rd *r, const unsigned char **p, size_t *n,
                          struct hb_error *err);
/* List/set header; the count is checked against the bytes left. */
int hb_thrift_read_list_begin(struct hb_thrift_rd *r, int *elem_type, uint32_t *count,
                              struct hb_error *err);
int hb_thrift_read_map_begin(struct hb_thrift_rd *r, int *ktype, int *vtype, uint32_t *count,
                             struct hb_error *err);
/* Skips one value of the given type (nested up to HB_THRIFT_MAX_DEPTH). */
int hb_thrift_skip(struct hb_thrift_rd *r, int type, struct hb_error *err);

/* Writers (append to out; HB_ENOMEM or HB_EINVAL when out's cap is hit). */
int hb_thrift_write_msg_begin(struct hb_buf *out, const char *name, int type, int32_t seqid);
int hb_thrift_write_field(struct hb_buf *out, int type, int16_t id);
int hb_thrift_write_stop(struct hb_buf *out);
int hb_thrift_write_bool(struct hb_buf *out, int v);
int hb_thrift_write_i16(struct hb_buf *out, int16_t v);
int hb_thrift_write_i32(struct hb_buf *out, int32_t v);
int hb_thrift_write_i64(struct hb_buf *out, int64_t v);
int hb_thrift_write_binary(struct hb_buf *out, const void *p, size_t n);
int hb_thrift_write_list_begin(struct hb_buf *out, int elem_type, uint32_t count);
int hb_thrift_write_map_begin(struct hb_buf *out, int ktype, int vtype, uint32_t count);

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
