/* Rotation templates: checking, formatting and matching names with %Y %m %d %H fields. */
#include "rotate.h"

#include <stdio.h>
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
