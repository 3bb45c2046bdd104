/* Reading protobuf's wire format (core/pb.c): the reader every protobuf decoder of core/ uses. */
#ifndef HB_PB_H
#define HB_PB_H

#include <stddef.h>
#include <stdint.h>

/* The wire types of a field's tag (its low three bits) that hbtab's decoders read. */
#define HB_PB_VARINT 0
#define HB_PB_I64    1
#define HB_PB_LEN    2

/* Reads a protobuf varint at *pos (advancing it); HB_EINVAL when truncated or > 10 bytes. */
int hb_pb_varint(const unsigned char *p, size_t n, size_t *pos, uint64_t *out);

/* Skips the value of a field of wire type wt at *pos; HB_EINVAL when truncated or for a group
 * or an invalid wire type. */
int hb_pb_skip(const unsigned char *p, size_t n, size_t *pos, unsigned wt);
/* Reads a length-delimited value at *pos: a view [*out, *out + *len) inside p; HB_EINVAL when
 * truncated. */
int hb_pb_len(const unsigned char *p, size_t n, size_t *pos, const unsigned char **out,
              size_t *len);
/* A varint at *pos of a body read as it arrives: 0 when whole (read, *pos moved past it), 1
 * when its bytes are not all there yet, -1 when no more bytes could make it valid. */
int hb_pb_varint_more(const unsigned char *p, size_t n, size_t *pos, uint64_t *v);

#endif
