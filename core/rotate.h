/* Rotation templates: table names with %Y %m %d %H fields, periods, and reading names back. */
#ifndef HB_ROTATE_H
#define HB_ROTATE_H

#include "hb.h"

#include <stddef.h>

enum hb_period { HB_PERIOD_DAY, HB_PERIOD_HOUR };

/* A calendar period as its fields (hour is 0 for daily periods). Ordered as written. */
struct hb_stamp {
	int year, month, day, hour;
};

/* The longest table name a template may produce (bytes, NUL included). */
#define HB_ROTATE_NAME_MAX 512

/*
 * Checks a template: only %Y %m %d %H and %% fields; %Y, %m and %d each at least once, %H
 * when period is hour; no %H when period is day. *period_out (may be NULL) receives the
 * period its finest field implies (hour with %H, else day). HB_EINVAL with the reason.
 */
int hb_rotate_check(const char *tmpl, enum hb_period *period_out, struct hb_error *err);

/* Writes the name for stamp into out (size bytes). HB_EINVAL when it does not fit. */
int hb_rotate_format(char *out, size_t size, const char *tmpl, const struct hb_stamp *s);

/*
 * Reads name back against tmpl: literal text equal, each field the right number of digits,
 * a real calendar date, and the same value wherever a field repeats. 1 with *out filled when
 * name matches, else 0.
 */
int hb_rotate_match(const char *tmpl, const char *name, struct hb_stamp *out);

/* <0, 0, >0 as a is before, equal to, or after b. */
int hb_stamp_cmp(const struct hb_stamp *a, const struct hb_stamp *b);

/* 1 for a real Gregorian date (hour 0..23). */
int hb_stamp_valid(const struct hb_stamp *s);

/* Moves a daily stamp by delta days on the calendar (no time zone involved). */
void hb_stamp_add_days(struct hb_stamp *s, long delta);

#endif
