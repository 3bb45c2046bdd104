/* Sorting many keys in HBase order by radix on their leading bytes (the split sample). */
#ifndef HB_KEYSORT_H
#define HB_KEYSORT_H

#include "key.h"

#include <stdint.h>

/* Fills out[0 .. ks->n - 1] with the indexes of ks's keys in HBase order (Bytes.compareTo;
 * equal keys in any order), without moving the keys: a radix sort on 8-byte big-endian
 * windows, whole keys compared only in short runs. HB_ENOMEM; HB_EINVAL for 2^32 keys or
 * more. */
int hb_keys_order(uint32_t *out, const struct hb_keys *ks, struct hb_error *err);
/* The same with one index of each distinct key (a TreeSet's iteration order): *nout of them,
 * out sized for ks->n. Duplicates are found mostly from the windows, not by reading keys. */
int hb_keys_order_distinct(uint32_t *out, size_t *nout, const struct hb_keys *ks,
                           struct hb_error *err);

#endif
