/* Rotation templates: table names with %Y %m %d %H fields, periods, and reading names back. */
#ifndef HB_ROTATE_H
#define HB_ROTATE_H

#include "hb.h"

#include <stddef.h>
#include <time.h>

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

/* ---- A run's plan: which periods to have, which tables are past retention, and what
 * happens to each. Local times are read in the process's time zone (TZ). ---- */

/* A period of a run and the table name the template gives it. */
struct hb_rotate_period {
	struct hb_stamp stamp;
	char name[HB_ROTATE_NAME_MAX];
};

/* What decides a run's plan. */
struct hb_rotate_cfg {
	const char *tmpl; /* as given (a "default:" prefix is kept in the names made) */
	enum hb_period period;
	time_t now;
	long ahead;     /* periods after the current one to have ready */
	long retain;    /* most recent periods kept, the current one included (>= 1) */
	long max_drops; /* tables dropped at most per run */
	int yes, dry_run;
};

/*
 * Reads ISO-8601 DATE[(T| )HH[:MM[:SS]]][Z|+-HH[:]MM] into *out; without an offset the time
 * is local (a time in a DST gap or repeat: one instant, no error). HB_EINVAL.
 */
int hb_rotate_parse_time(const char *s, time_t *out);

/* The period holding t (local time; hour 0 for daily periods). */
void hb_rotate_stamp_at(time_t t, enum hb_period period, struct hb_stamp *out);

/* The year of the last period a run creates (now + ahead; hourly: one hour more, for the
 * repeated hour of a DST change). %Y names years up to 9999. */
int hb_rotate_last_year(const struct hb_rotate_cfg *c);

/* now as ISO-8601 local time with its offset ("2026-11-15T00:00:00+00:00") into out. */
void hb_rotate_now_text(time_t now, char *out, size_t size);

/*
 * count distinct periods from the current one, forward (dir 1) or backward (dir -1), with
 * their names. Hourly periods walk real hours: a skipped local hour (DST gap) has no period
 * and a repeated one is the same period. HB_EINVAL when a name does not fit.
 */
int hb_rotate_periods(const struct hb_rotate_cfg *c, int dir, long count,
                      struct hb_rotate_period *out);

/* A table whose name matches the template. */
struct hb_rotate_table {
	char *name;
	struct hb_stamp stamp;
	int managed;  /* its metadata row's rotate mark is the template; -1 not read yet */
	long n;       /* N from its metadata row, -1 unknown */
	int disabled; /* no readable metadata row because the table is disabled */
	int pending;  /* past retention, managed, not dropped in this run */
};

/* The plan of one run. */
struct hb_rotate_plan {
	struct hb_rotate_period *want; /* the current period and --ahead more: create or verify */
	size_t nwant;
	struct hb_stamp cutoff;         /* tables stamped before it are past retention */
	struct hb_rotate_table *tables; /* matching tables, oldest first */
	size_t ntables, cap;
	size_t dropped;    /* drops made (or, in a dry run, that would be made) */
	size_t pending;    /* managed tables past retention left for a later run */
	size_t unreadable; /* disabled tables past retention: their mark cannot be read */
};

/*
 * Plans a run of c over the table names: the periods to have, the retention cutoff, the
 * names matching the template (tmpl without a "default:" prefix), sorted by period.
 * Release with hb_rotate_plan_release even on failure. HB_EINVAL, HB_ENOMEM.
 */
int hb_rotate_plan_init(struct hb_rotate_plan *p, const struct hb_rotate_cfg *c, char *const *names,
                        size_t n, struct hb_error *err);
void hb_rotate_plan_release(struct hb_rotate_plan *p);

/* The matching table called name ("default:" aside), or NULL. */
struct hb_rotate_table *hb_rotate_plan_find(const struct hb_rotate_plan *p, const char *name);

/* How many of p->tables (the oldest) are past retention. */
size_t hb_rotate_plan_expired(const struct hb_rotate_plan *p);

/* What becomes of a table past retention, once its mark has been read. */
enum hb_rotate_fate {
	HB_ROTATE_UNREADABLE, /* disabled, mark unknown: left alone, counted unreadable */
	HB_ROTATE_LOOKALIKE,  /* no rotate mark for the template: never dropped */
	HB_ROTATE_DUE,        /* due, but no --yes or --max-drops reached: counted pending */
	HB_ROTATE_DRY,        /* a dry run: the real run would drop it (counted dropped) */
	HB_ROTATE_DROP,       /* to be dropped now, after a fresh check (the caller counts it) */
};

/* Decides t's fate under c and counts it in p (t->pending set when due). */
enum hb_rotate_fate hb_rotate_plan_decide(struct hb_rotate_plan *p, const struct hb_rotate_cfg *c,
                                          struct hb_rotate_table *t);

#endif
