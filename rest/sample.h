/* A uniform sample of a table's row keys. */
#ifndef HB_REST_SAMPLE_H
#define HB_REST_SAMPLE_H

#include "core/key.h"
#include "rest/rest.h"

#include <stddef.h>
#include <stdint.h>

/*
 * Samples up to max_rows row keys of table, uniformly, into out (initialised; sorted on
 * return), through scanners with RandomRowFilter + FirstKeyOnlyFilter + KeyOnlyFilter, so
 * one empty cell per chosen row travels. The chance starts at 1 and halves (the keys kept so
 * far thinned to match) whenever 2 * max_rows keys are held. *rows_seen gets the number of
 * rows the final chance let through before the last thinning. seed makes it repeatable.
 * hbtab's metadata row (HB_METAROW_ROW) is never part of the sample.
 */
int hb_rest_sample_keys(struct hb_rest *c, const char *table, size_t max_rows, uint64_t seed,
                        struct hb_keys *out, struct hb_error *err);
/* hb_rest_sample_keys over the rows in [start, end) only (end_len 0 = to the last row). */
int hb_rest_sample_range(struct hb_rest *c, const char *table, const void *start, size_t start_len,
                         const void *end, size_t end_len, size_t max_rows, uint64_t seed,
                         struct hb_keys *out, struct hb_error *err);
/* Builds the FilterModel JSON (text) for the sampler's filter at chance (1 = no
 * RandomRowFilter) into out. HB_ENOMEM. */
int hb_rest_sample_filter(struct hb_buf *out, double chance);

#endif
