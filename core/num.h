/* Whole numbers read from text, with the messages a user reads (core/num.c). */
#ifndef HB_NUM_H
#define HB_NUM_H

#include <stdint.h>

struct hb_error;

/* s as a whole number that fits in a Java long into *out; HB_EINVAL otherwise, the message
 * naming "what" and the text given. */
int hb_parse_i64(const char *s, const char *what, int64_t *out, struct hb_error *err);

/* s as a whole number from min to max into *out; HB_EINVAL otherwise, the message naming
 * "what" (a flag, a field) and the text given. */
int hb_parse_long(const char *s, long min, long max, const char *what, long *out,
                  struct hb_error *err);

#endif
