/* hbtab advise's split specifications: the recorded one read back, another N put in. */
#ifndef HB_CLI_ADVISE_SPEC_H
#define HB_CLI_ADVISE_SPEC_H

#include "../core/buf.h"
#include "../core/key.h"
#include "splitspec.h"

#include <stdint.h>

/* The metadata row's recorded specification (cli_splitspec_describe's flags, single-quoted
 * where needed) into s, its values kept in words (each NUL-terminated there; words must
 * outlive s). 0, or -1 when it holds anything but split-specification flags. */
int cli_advise_parse_recorded(struct cli_splitspec *s, struct hb_buf *words, const char *text);
/* Where s holds its N (the algorithm's flag value), or NULL for a splits file or none. */
const char **cli_advise_n_field(struct cli_splitspec *s);
/* s with N = n (written into num, which must outlive s) and no --regions-per-server: 0, or
 * -1 when s cannot take another N. */
int cli_advise_with_n(struct cli_splitspec *s, uint64_t n, char *num, size_t cap);
/* The split keys s makes with N = n into out (emptied first): 0, or cli_splitspec_compute's
 * error. */
int cli_advise_keys_at(struct hb_keys *out, const struct cli_splitspec *s, uint64_t n,
                       struct hb_error *err);
/* The most regions s can make, up to want: want when it computes, else the largest n that
 * does (a binary search; 1 region always does). */
uint64_t cli_advise_expressible(const struct cli_splitspec *s, uint64_t want);

#endif
