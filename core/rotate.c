/* Rotation templates (checking, formatting and matching names with %Y %m %d %H fields) and
 * the plan of a run: the periods to have, the tables past retention and what becomes of each. */
#include "rotate.h"
#include "tname.h"
#include "vec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int field_width(char f)
{
	return f == 'Y' ? 4 : (f == 'm' || f == 'd' || f == 'H') ? 2 : 0;
}

int hb_rotate_check(const char *tmpl, enum hb_period *period_out, struct hb_error *err)
{
	int seen_y = 0, seen_m = 0, seen_d = 0, seen_h = 0;
	const char *p;

	for (p = tmpl; *p; p++) {
		if (*p != '%')
			continue;
		p++;
		switch (*p) {
		case 'Y':
			seen_y = 1;
			break;
		case 'm':
			seen_m = 1;
			break;
		case 'd':
			seen_d = 1;
			break;
		case 'H':
			seen_h = 1;
			break;
		case '%':
			return hb_error_set(err, HB_EINVAL,
			                    "'%%%%' makes a '%%' that no table name may hold");
		case '\0':
			return hb_error_set(err, HB_EINVAL, "the template ends in a lone '%%'");
		default:
			return hb_error_set(err, HB_EINVAL,
			                    "unsupported field '%%%c' (only %%Y, %%m, %%d and %%H)",
			                    *p);
		}
	}
	if (!seen_y && !seen_m && !seen_d && !seen_h)
		return hb_error_set(err, HB_EINVAL,
		                    "the template has no date fields (use %%Y, %%m, %%d and %%H)");
	if (!seen_y || !seen_m || !seen_d)
		return hb_error_set(err, HB_EINVAL,
		                    "the template needs %%Y, %%m and %%d so that every period has "
		                    "its own name (missing %s)",
		                    !seen_y   ? "%Y"
		                    : !seen_m ? "%m"
		                              : "%d");
	if (period_out)
		*period_out = seen_h ? HB_PERIOD_HOUR : HB_PERIOD_DAY;
	return 0;
}

int hb_rotate_format(char *out, size_t size, const char *tmpl, const struct hb_stamp *s)
{
	size_t o = 0;
	const char *p;

	for (p = tmpl; *p; p++) {
		char num[16];
		int n;

		if (*p != '%' || !p[1]) {
			if (o + 1 >= size)
				return HB_EINVAL;
			out[o++] = *p;
			continue;
		}
		p++;
		switch (*p) {
		case 'Y':
			n = snprintf(num, sizeof(num), "%04d", s->year);
			break;
		case 'm':
			n = snprintf(num, sizeof(num), "%02d", s->month);
			break;
		case 'd':
			n = snprintf(num, sizeof(num), "%02d", s->day);
			break;
		case 'H':
			n = snprintf(num, sizeof(num), "%02d", s->hour);
			break;
		default:
			n = snprintf(num, sizeof(num), "%%%c", *p);
			break;
		}
		if (n < 0 || o + (size_t)n >= size)
			return HB_EINVAL;
		memcpy(out + o, num, (size_t)n);
		o += (size_t)n;
	}
	if (o >= size)
		return HB_EINVAL;
	out[o] = '\0';
	return 0;
}

static int is_leap(int y)
{
	return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

static int days_in(int y, int m)
{
	static const int d[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};

	return m == 2 && is_leap(y) ? 29 : d[m - 1];
}

int hb_stamp_valid(const struct hb_stamp *s)
{
	return s->year >= 1 && s->year <= 9999 && s->month >= 1 && s->month <= 12 && s->day >= 1 &&
	       s->day <= days_in(s->year, s->month) && s->hour >= 0 && s->hour <= 23;
}

int hb_rotate_match(const char *tmpl, const char *name, struct hb_stamp *out)
{
	int val[4] = {-1, -1, -1, -1}; /* Y m d H */
	const char *p, *q = name;

	for (p = tmpl; *p; p++) {
		int w, v = 0, i, slot;

		if (*p != '%' || !p[1]) {
			if (*q != *p)
				return 0;
			q++;
			continue;
		}
		p++;
		w = field_width(*p);
		if (!w)
			return 0;
		for (i = 0; i < w; i++) {
			if (q[i] < '0' || q[i] > '9')
				return 0;
			v = v * 10 + (q[i] - '0');
		}
		q += w;
		slot = *p == 'Y' ? 0 : *p == 'm' ? 1 : *p == 'd' ? 2 : 3;
		if (val[slot] >= 0 && val[slot] != v)
			return 0;
		val[slot] = v;
	}
	if (*q)
		return 0;
	out->year = val[0];
	out->month = val[1];
	out->day = val[2];
	out->hour = val[3] < 0 ? 0 : val[3];
	return hb_stamp_valid(out);
}

int hb_stamp_cmp(const struct hb_stamp *a, const struct hb_stamp *b)
{
	if (a->year != b->year)
		return a->year < b->year ? -1 : 1;
	if (a->month != b->month)
		return a->month < b->month ? -1 : 1;
	if (a->day != b->day)
		return a->day < b->day ? -1 : 1;
	if (a->hour != b->hour)
		return a->hour < b->hour ? -1 : 1;
	return 0;
}

/* Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's days_from_civil). */
static long days_from_civil(long y, long m, long d)
{
	long era, yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = y - era * 400;
	doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

static void civil_from_days(long z, int *y, int *m, int *d)
{
	long era, doe, yoe, doy, mp, yy;

	z += 719468;
	era = (z >= 0 ? z : z - 146096) / 146097;
	doe = z - era * 146097;
	yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	yy = yoe + era * 400;
	doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	mp = (5 * doy + 2) / 153;
	*d = (int)(doy - (153 * mp + 2) / 5 + 1);
	*m = (int)(mp < 10 ? mp + 3 : mp - 9);
	*y = (int)(yy + (*m <= 2));
}

void hb_stamp_add_days(struct hb_stamp *s, long delta)
{
	civil_from_days(days_from_civil(s->year, s->month, s->day) + delta, &s->year, &s->month,
	                &s->day);
}

/* ---------------------------------------------------------------- periods of a run */

static int digits(const char **p, int n, int *out)
{
	int i, v = 0;

	for (i = 0; i < n; i++) {
		if ((*p)[i] < '0' || (*p)[i] > '9')
			return -1;
		v = v * 10 + ((*p)[i] - '0');
	}
	*p += n;
	*out = v;
	return 0;
}

/* [(T| )HH[:MM[:SS]]] */
static int parse_clock(const char **p, int *hour, int *mi, int *se)
{
	if (**p != 'T' && **p != ' ')
		return 0;
	(*p)++;
	if (digits(p, 2, hour))
		return -1;
	if (**p != ':')
		return 0;
	(*p)++;
	if (digits(p, 2, mi))
		return -1;
	if (**p != ':')
		return 0;
	(*p)++;
	return digits(p, 2, se);
}

/* [Z|+-HH[:]MM] into *off (seconds east of UTC), *has_off. */
static int parse_offset(const char **p, int *off, int *has_off)
{
	int sign, oh, om = 0;

	if (**p == 'Z') {
		*has_off = 1;
		(*p)++;
		return 0;
	}
	if (**p != '+' && **p != '-')
		return 0;
	sign = **p == '-' ? -1 : 1;
	(*p)++;
	if (digits(p, 2, &oh))
		return -1;
	if (**p == ':')
		(*p)++;
	if (**p && digits(p, 2, &om))
		return -1;
	if (oh > 23 || om > 59)
		return -1;
	*off = sign * (oh * 3600 + om * 60);
	*has_off = 1;
	return 0;
}

int hb_rotate_parse_time(const char *s, time_t *out)
{
	const char *p = s;
	struct hb_stamp d = {0, 0, 0, 0};
	int mi = 0, se = 0, off = 0, has_off = 0;
	struct tm tmv;

	if (digits(&p, 4, &d.year) || *p++ != '-' || digits(&p, 2, &d.month) || *p++ != '-' ||
	    digits(&p, 2, &d.day) || parse_clock(&p, &d.hour, &mi, &se) ||
	    parse_offset(&p, &off, &has_off))
		return HB_EINVAL;
	if (*p || !hb_stamp_valid(&d) || mi > 59 || se > 60)
		return HB_EINVAL;
	memset(&tmv, 0, sizeof(tmv));
	tmv.tm_year = d.year - 1900;
	tmv.tm_mon = d.month - 1;
	tmv.tm_mday = d.day;
	tmv.tm_hour = d.hour;
	tmv.tm_min = mi;
	tmv.tm_sec = se;
	if (has_off) {
		*out = timegm(&tmv) - off;
	} else {
		/* a local time in a DST gap or repeat: mktime picks one instant, no error */
		tmv.tm_isdst = -1;
		*out = mktime(&tmv);
	}
	return 0;
}

void hb_rotate_stamp_at(time_t t, enum hb_period period, struct hb_stamp *s)
{
	struct tm tmv;

	localtime_r(&t, &tmv);
	s->year = tmv.tm_year + 1900;
	s->month = tmv.tm_mon + 1;
	s->day = tmv.tm_mday;
	s->hour = period == HB_PERIOD_HOUR ? tmv.tm_hour : 0;
}

/* The start of the local hour holding t. */
static time_t hour_floor(time_t t)
{
	struct tm tmv;

	localtime_r(&t, &tmv);
	return t - tmv.tm_min * 60 - tmv.tm_sec;
}

int hb_rotate_last_year(const struct hb_rotate_cfg *c)
{
	struct hb_stamp s;
	struct tm tmv;
	time_t t;

	hb_rotate_stamp_at(c->now, HB_PERIOD_DAY, &s);
	if (c->period == HB_PERIOD_DAY) {
		hb_stamp_add_days(&s, c->ahead);
		return s.year;
	}
	t = hour_floor(c->now) + (time_t)(c->ahead + 1) * 3600;
	return localtime_r(&t, &tmv) ? tmv.tm_year + 1900 : 10000;
}

void hb_rotate_now_text(time_t now, char *out, size_t size)
{
	struct tm tmv;
	char z[8];
	size_t len;

	localtime_r(&now, &tmv);
	strftime(out, size, "%Y-%m-%dT%H:%M:%S", &tmv);
	strftime(z, sizeof(z), "%z", &tmv);
	len = strlen(out);
	if (strlen(z) == 5 && len + 7 <= size)
		snprintf(out + len, size - len, "%.3s:%.2s", z, z + 3);
}

int hb_rotate_periods(const struct hb_rotate_cfg *c, int dir, long count,
                      struct hb_rotate_period *out)
{
	long got = 0;

	if (c->period == HB_PERIOD_DAY) {
		struct hb_stamp s;

		hb_rotate_stamp_at(c->now, HB_PERIOD_DAY, &s);
		for (got = 0; got < count; got++) {
			out[got].stamp = s;
			hb_stamp_add_days(&s, dir);
		}
	} else {
		time_t t = hour_floor(c->now);
		long guard = 0;

		while (got < count && guard++ < count * 2 + 48) {
			struct hb_stamp s;

			hb_rotate_stamp_at(t, HB_PERIOD_HOUR, &s);
			if (!got || hb_stamp_cmp(&s, &out[got - 1].stamp))
				out[got++].stamp = s;
			t += dir * 3600;
			t = hour_floor(t + (dir > 0 ? 1 : 0));
		}
		if (got < count)
			HB_BUG("walking hours did not advance");
	}
	for (got = 0; got < count; got++)
		if (hb_rotate_format(out[got].name, sizeof(out[got].name), c->tmpl,
		                     &out[got].stamp))
			return HB_EINVAL;
	return 0;
}

/* ---------------------------------------------------------------- the plan */

static int cmp_table(const void *a, const void *b)
{
	const struct hb_rotate_table *x = a, *y = b;

	return hb_stamp_cmp(&x->stamp, &y->stamp);
}

/* Adds the names that match the template, sorted by period. */
static int plan_tables(struct hb_rotate_plan *p, const char *tmpl, char *const *names, size_t n,
                       struct hb_error *err)
{
	const char *match = hb_tname_bare(tmpl);
	size_t i;

	for (i = 0; i < n; i++) {
		struct hb_rotate_table *t;
		struct hb_stamp s;

		if (!hb_rotate_match(match, names[i], &s))
			continue;
		if (HB_VEC_GROW(p->tables, p->cap, p->ntables + 1, 16))
			return hb_error_set(err, HB_ENOMEM, "out of memory");
		t = &p->tables[p->ntables];
		memset(t, 0, sizeof(*t));
		if (!(t->name = strdup(names[i])))
			return hb_error_set(err, HB_ENOMEM, "out of memory");
		t->stamp = s;
		t->managed = -1;
		t->n = -1;
		p->ntables++;
	}
	if (p->ntables)
		qsort(p->tables, p->ntables, sizeof(*p->tables), cmp_table);
	return 0;
}

int hb_rotate_plan_init(struct hb_rotate_plan *p, const struct hb_rotate_cfg *c, char *const *names,
                        size_t n, struct hb_error *err)
{
	struct hb_rotate_period *keep;
	int rc;

	memset(p, 0, sizeof(*p));
	p->want = calloc((size_t)c->ahead + 1, sizeof(*p->want));
	keep = calloc((size_t)c->retain, sizeof(*keep));
	if (!p->want || !keep) {
		free(keep);
		return hb_error_set(err, HB_ENOMEM, "out of memory");
	}
	p->nwant = (size_t)c->ahead + 1;
	rc = hb_rotate_periods(c, 1, c->ahead + 1, p->want);
	if (!rc)
		rc = hb_rotate_periods(c, -1, c->retain, keep);
	if (rc)
		rc = hb_error_set(err, HB_EINVAL, "a table name of template '%s' is too long",
		                  c->tmpl);
	else
		p->cutoff = keep[c->retain - 1].stamp;
	free(keep);
	return rc ? rc : plan_tables(p, c->tmpl, names, n, err);
}

void hb_rotate_plan_release(struct hb_rotate_plan *p)
{
	size_t i;

	for (i = 0; i < p->ntables; i++)
		free(p->tables[i].name);
	free(p->tables);
	free(p->want);
	memset(p, 0, sizeof(*p));
}

struct hb_rotate_table *hb_rotate_plan_find(const struct hb_rotate_plan *p, const char *name)
{
	const char *n = hb_tname_bare(name);
	size_t i;

	for (i = 0; i < p->ntables; i++)
		if (!strcmp(p->tables[i].name, n))
			return &p->tables[i];
	return NULL;
}

size_t hb_rotate_plan_expired(const struct hb_rotate_plan *p)
{
	size_t i;

	for (i = 0; i < p->ntables && hb_stamp_cmp(&p->tables[i].stamp, &p->cutoff) < 0; i++)
		;
	return i;
}

enum hb_rotate_fate hb_rotate_plan_decide(struct hb_rotate_plan *p, const struct hb_rotate_cfg *c,
                                          struct hb_rotate_table *t)
{
	if (t->managed <= 0 && t->disabled) {
		/* whether rotate made it cannot be known without enabling it */
		p->unreadable++;
		return HB_ROTATE_UNREADABLE;
	}
	if (t->managed <= 0)
		return HB_ROTATE_LOOKALIKE;
	if (!c->yes || p->dropped >= (size_t)c->max_drops) {
		p->pending++;
		t->pending = 1;
		return HB_ROTATE_DUE;
	}
	if (c->dry_run) {
		p->dropped++;
		return HB_ROTATE_DRY;
	}
	return HB_ROTATE_DROP;
}
