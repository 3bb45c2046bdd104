/* Rotation templates: checking, formatting, reading names back, calendar steps. */
#include "core/rotate.h"
#include "test.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

static void test_rotate__check_accepts_day_and_hour_templates(void)
{
	struct hb_error err = {0};
	enum hb_period p = HB_PERIOD_HOUR;

	CHECK_EQ_INT(hb_rotate_check("ev_%Y%m%d", &p, &err), 0);
	CHECK_EQ_INT(p, HB_PERIOD_DAY);
	CHECK_EQ_INT(hb_rotate_check("ns:h_%Y%m%d%H", &p, &err), 0);
	CHECK_EQ_INT(p, HB_PERIOD_HOUR);
	CHECK_EQ_INT(hb_rotate_check("%d.%m.%Y", &p, &err), 0);
}

static void test_rotate__check_refuses_missing_and_unknown_fields(void)
{
	struct hb_error err = {0};

	CHECK_EQ_INT(hb_rotate_check("events", NULL, &err), HB_EINVAL);
	CHECK(strstr(err.msg, "no date fields") != NULL);
	CHECK_EQ_INT(hb_rotate_check("ev_%Y%m", NULL, &err), HB_EINVAL);
	CHECK(strstr(err.msg, "missing %d") != NULL);
	CHECK_EQ_INT(hb_rotate_check("ev_%Y%m%d%M", NULL, &err), HB_EINVAL);
	CHECK_EQ_INT(hb_rotate_check("ev_%Y%m%d%", NULL, &err), HB_EINVAL);
	CHECK_EQ_INT(hb_rotate_check("ev_%%%Y%m%d", NULL, &err), HB_EINVAL);
}

static void test_rotate__format_and_match_round_trip(void)
{
	struct hb_stamp s = {2026, 3, 9, 7}, back;
	char name[HB_ROTATE_NAME_MAX];

	CHECK_EQ_INT(hb_rotate_format(name, sizeof(name), "ns:h_%Y%m%d%H", &s), 0);
	CHECK_EQ_STR(name, "ns:h_2026030907");
	CHECK(hb_rotate_match("ns:h_%Y%m%d%H", name, &back));
	CHECK_EQ_INT(hb_stamp_cmp(&s, &back), 0);
	CHECK_EQ_INT(hb_rotate_format(name, 8, "ev_%Y%m%d", &s), HB_EINVAL);
}

static void test_rotate__match_refuses_look_alikes(void)
{
	struct hb_stamp s;

	CHECK(!hb_rotate_match("ev_%Y%m%d", "ev_2026110", &s));   /* short */
	CHECK(!hb_rotate_match("ev_%Y%m%d", "ev_202611011", &s)); /* long */
	CHECK(!hb_rotate_match("ev_%Y%m%d", "ev_20261399", &s));  /* no such month */
	CHECK(!hb_rotate_match("ev_%Y%m%d", "ev_20250229", &s));  /* not a leap year */
	CHECK(hb_rotate_match("ev_%Y%m%d", "ev_20240229", &s));
	CHECK(!hb_rotate_match("ev_%Y%m%d", "ex_20261101", &s));
	CHECK(!hb_rotate_match("ev_%Y%m%d", "ev_2026-1101", &s));
	CHECK(!hb_rotate_match("h_%Y%m%d%H", "h_2026110124", &s)); /* hour 24 */
	/* a repeated field must repeat its value */
	CHECK(hb_rotate_match("%Y/%m%d_%Y", "2026/1101_2026", &s) == 1);
	CHECK(!hb_rotate_match("%Y_%m%d_%Y", "2026_1101_2027", &s));
}

static void test_rotate__stamps_order_by_calendar_not_by_name(void)
{
	struct hb_stamp a, b;

	CHECK(hb_rotate_match("%d%m%Y", "31122025", &a));
	CHECK(hb_rotate_match("%d%m%Y", "01012026", &b));
	CHECK(hb_stamp_cmp(&a, &b) < 0);
}

static void test_rotate__add_days_crosses_months_years_and_leap_days(void)
{
	struct hb_stamp s = {2024, 2, 28, 0};

	hb_stamp_add_days(&s, 1);
	CHECK(s.year == 2024 && s.month == 2 && s.day == 29);
	hb_stamp_add_days(&s, 1);
	CHECK(s.year == 2024 && s.month == 3 && s.day == 1);
	s.year = 2026;
	s.month = 1;
	s.day = 1;
	hb_stamp_add_days(&s, -1);
	CHECK(s.year == 2025 && s.month == 12 && s.day == 31);
	hb_stamp_add_days(&s, 365);
	CHECK(s.year == 2026 && s.month == 12 && s.day == 31);
}

static void test_rotate__parse_time_reads_offsets_and_refuses_bad_fields(void)
{
	time_t t;

	CHECK_EQ_INT(hb_rotate_parse_time("2026-11-15T00:00:00Z", &t), 0);
	CHECK_EQ_INT((long long)t, 1794700800LL);
	CHECK_EQ_INT(hb_rotate_parse_time("2026-11-15T01:30+01:30", &t), 0);
	CHECK_EQ_INT((long long)t, 1794700800LL);
	CHECK_EQ_INT(hb_rotate_parse_time("2026-11-31", &t), HB_EINVAL);
	CHECK_EQ_INT(hb_rotate_parse_time("2026-11-15T24", &t), HB_EINVAL);
	CHECK_EQ_INT(hb_rotate_parse_time("2026-11-15T10:60", &t), HB_EINVAL);
	CHECK_EQ_INT(hb_rotate_parse_time("2026-11-15+24:00", &t), HB_EINVAL);
	CHECK_EQ_INT(hb_rotate_parse_time("2026-11-15x", &t), HB_EINVAL);
}

/* A plan over the tables of ten days with --retain 3 and --max-drops 2: the oldest first. */
static void test_rotate__plan_keeps_the_window_and_drops_oldest_first_up_to_max(void)
{
	char *names[] = {"ev_20261110", "ev_20261101", "other",     "ev_20261108",
	                 "ev_20261109", "ev_20261107", "ev_2026110"};
	struct hb_rotate_cfg c = {"ev_%Y%m%d", HB_PERIOD_DAY, 0, 1, 3, 2, 1, 0};
	struct hb_rotate_plan p;
	struct hb_error err = {0};
	size_t i;

	setenv("TZ", "UTC", 1); /* the periods are local days */
	tzset();
	CHECK_EQ_INT(hb_rotate_parse_time("2026-11-10T12:00:00Z", &c.now), 0);
	CHECK_EQ_INT(hb_rotate_plan_init(&p, &c, names, 7, &err), 0);
	CHECK_EQ_INT(p.nwant, 2);
	CHECK_EQ_STR(p.want[0].name, "ev_20261110");
	CHECK_EQ_STR(p.want[1].name, "ev_20261111");
	CHECK_EQ_INT(p.ntables, 5);
	CHECK_EQ_STR(p.tables[0].name, "ev_20261101");
	CHECK(hb_rotate_plan_find(&p, "default:ev_20261109") == &p.tables[3]);
	CHECK_EQ_INT(hb_rotate_plan_expired(&p), 2); /* 01 and 07; 08, 09, 10 kept */
	for (i = 0; i < p.ntables; i++)
		p.tables[i].managed = 1;
	p.tables[0].managed = 0;
	CHECK_EQ_INT(hb_rotate_plan_decide(&p, &c, &p.tables[0]), HB_ROTATE_LOOKALIKE);
	CHECK_EQ_INT(hb_rotate_plan_decide(&p, &c, &p.tables[1]), HB_ROTATE_DROP);
	p.dropped = 2;
	CHECK_EQ_INT(hb_rotate_plan_decide(&p, &c, &p.tables[2]), HB_ROTATE_DUE);
	CHECK(p.tables[2].pending && p.pending == 1);
	p.tables[0].disabled = 1;
	CHECK_EQ_INT(hb_rotate_plan_decide(&p, &c, &p.tables[0]), HB_ROTATE_UNREADABLE);
	CHECK_EQ_INT(p.unreadable, 1);
	hb_rotate_plan_release(&p);
}

int main(void)
{
	RUN(test_rotate__check_accepts_day_and_hour_templates);
	RUN(test_rotate__check_refuses_missing_and_unknown_fields);
	RUN(test_rotate__format_and_match_round_trip);
	RUN(test_rotate__match_refuses_look_alikes);
	RUN(test_rotate__stamps_order_by_calendar_not_by_name);
	RUN(test_rotate__add_days_crosses_months_years_and_leap_days);
	RUN(test_rotate__parse_time_reads_offsets_and_refuses_bad_fields);
	RUN(test_rotate__plan_keeps_the_window_and_drops_oldest_first_up_to_max);
	return TEST_DONE();
}
