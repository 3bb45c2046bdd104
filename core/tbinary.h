/* Thrift's TBinaryProtocol (strict) (core/tbinary.c): wire types, a bounds-checked read cursor,
 * and writers. THBaseService's messages are core/thrift.h's. */
#ifndef HB_TBINARY_H
#define HB_TBINARY_H

#include "buf.h"
#include "hb.h"

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

#endif
