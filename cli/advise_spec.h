/* hbtab advise's split specifications at another N (the recorded one is read back by
 * core/splitspec.h's hb_splitspec_read). */
#ifndef HB_CLI_ADVISE_SPEC_H
#define HB_CLI_ADVISE_SPEC_H

#include "../core/buf.h"
#include "../core/key.h"
#include "splitspec.h"

#include <stdint.h>

/* The split keys s makes with N = n into out (emptied first): 0, or cli_splitspec_compute's
 * error. */
int cli_advise_keys_at(struct hb_keys *out, const struct hb_splitspec *s, uint64_t n,
                       struct hb_error *err);
/* The most regions s can make, up to want: want when it computes, else the largest n that
 * does (a binary search; 1 region always does). */
uint64_t cli_advise_expressible(const struct hb_splitspec *s, uint64_t want);

#endif
