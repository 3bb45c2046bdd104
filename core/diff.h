/* A capped list of difference lines: what a verification found, for stderr and JSON. */
#ifndef HB_DIFF_H
#define HB_DIFF_H

#include "buf.h"

#include <stddef.h>

struct hb_diff {
	struct hb_buf lines; /* '\n'-ended lines, at most max of them kept */
	size_t n;            /* lines added, kept or not */
	size_t max;
};

/* An empty list keeping at most max lines. */
void hb_diff_init(struct hb_diff *d, size_t max);
void hb_diff_release(struct hb_diff *d);
/* Adds one line (no '\n'); beyond max it is only counted. HB_ENOMEM. */
int hb_diff_line(struct hb_diff *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Appends "... and K more differences" when lines were dropped. HB_ENOMEM. */
int hb_diff_close(struct hb_diff *d);

#endif
