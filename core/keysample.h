/* A generated sample made and sorted by several threads, and the quantiles of one. */
#ifndef HB_KEYSAMPLE_H
#define HB_KEYSAMPLE_H

#include "hb.h"
#include "key.h"
#include "keygen.h"

#include <stddef.h>
#include <stdint.h>

/* Appends the count keys g makes next (g itself unchanged) to out in HBase order, equal keys
 * side by side: made and sorted by up to `threads` threads (a radix sort on a leading 16-bit
 * digit, then each digit's keys on their own). HB_ENOMEM, HB_EINVAL for 2^32 keys or more. */
int hb_keygen_sample_sorted(struct hb_keys *out, const struct hb_keygen *g, uint64_t count,
                            size_t threads, struct hb_error *err);

/* The keys of ranks 0, step, 2 step, .. among the distinct keys of the count keys g makes next
 * (g itself unchanged), in HBase order, appended to out (and out->ordered set when out was
 * empty); *distinct gets the number of distinct keys. The md5 generator's keys are counted
 * twice over, never held all at once, when they are few ranks; other generators' and many
 * ranks' are made and sorted whole (hb_keygen_sample_sorted). HB_ENOMEM, HB_EINVAL for 2^32
 * keys or more. */
int hb_keygen_sample_quantiles(struct hb_keys *out, uint64_t *distinct, const struct hb_keygen *g,
                               uint64_t count, uint64_t step, size_t threads, struct hb_error *err);

#endif
