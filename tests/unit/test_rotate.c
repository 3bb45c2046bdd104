/* Rotation templates: checking, formatting, reading names back, calendar steps; the rotation
 * flow's decisions over a listed plan (no cluster: the create flow and the split spec are the
 * caller's, faked here). */
#include "core/rotate.h"
#include "rest/rotate_flow.h"
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

/* ---------------------------------------------------------------- the flow over a plan */

#define TMPL "ns:events_user_clicks_%Y%m%d"
#define T(d) "ns:events_user_clicks_2026" d

/* The caller's side: a create flow answering from a script, a spec of three keys. */
struct fake {
	const char *differs, *fails; /* the create flow answers these tables so */
	int creates, computes, fails_said;
	int said[4];
	char last[4][1024];
};

static void fake_create(void *ctx, const char *name, const struct hb_keys *keys,
                        const char *spec_text, struct hb_rotate_made *out)
{
	struct fake *f = ctx;
	int in_place = !strcmp(name, T("1128"));

	f->creates++;
	CHECK(strstr(spec_text, "--hex-splits 4") != NULL);
	out->planned = keys->n + 1;
	out->existed = in_place;
	if (f->differs && !strcmp(name, f->differs)) {
		out->status = 5;
		out->differs = 1;
		out->regions = 9;
		return;
	}
	if (f->fails && !strcmp(name, f->fails)) {
		out->status = 4;
		return;
	}
	out->created = !in_place;
	out->regions = keys->n + 1;
	snprintf(out->metadata, sizeof(out->metadata), "%s", in_place ? "present" : "written");
}

static int fake_prepare(void *ctx, struct hb_splitspec *s, struct hb_error *err)
{
	(void)ctx;
	(void)s;
	return hb_error_set(err, HB_ESERVER, "the spec needs no cluster");
}

static int fake_compute(void *ctx, struct hb_keys *out, const struct hb_splitspec *s,
                        struct hb_error *err)
{
	struct fake *f = ctx;

	(void)s;
	(void)err;
	f->computes++;
	return hb_keys_push(out, "4", 1) || hb_keys_push(out, "8", 1) || hb_keys_push(out, "c", 1)
	           ? HB_ENOMEM
	           : 0;
}

static void fake_fail(void *ctx, int rc, struct hb_error *err)
{
	struct fake *f = ctx;

	(void)rc;
	(void)err;
	f->fails_said++;
}

static void fake_say(void *ctx, enum hb_rotate_say what, const char *msg)
{
	struct fake *f = ctx;

	f->said[what]++;
	snprintf(f->last[what], sizeof(f->last[what]), "%s", msg);
}

/* Lists 19..28 November at noon on the 28th: 19 and 20 managed (N=8), 21 unmarked, 27
 * managed, 28 (today) managed with N=4; retain 3 keeps 26..28, ahead 1 wants 28 and 29. */
static void plan_nov28(struct hb_rotate_opts *o, struct hb_rotate_plan *p)
{
	char *names[] = {T("1128"), T("1120"), T("1121"), T("1127"), T("1119"), "ns:other"};
	struct hb_error err = {0};
	size_t i;

	setenv("TZ", "UTC", 1);
	tzset();
	o->cfg.tmpl = TMPL;
	o->cfg.period = HB_PERIOD_DAY;
	o->cfg.ahead = 1;
	o->cfg.retain = 3;
	o->cfg.max_drops = 1;
	CHECK_EQ_INT(hb_rotate_parse_time("2026-11-28T12:00:00Z", &o->cfg.now), 0);
	CHECK_EQ_INT(hb_rotate_plan_init(p, &o->cfg, names, 6, &err), 0);
	CHECK_EQ_INT(p->ntables, 5);
	for (i = 0; i < p->ntables; i++) {
		p->tables[i].managed = strcmp(p->tables[i].name, T("1121")) != 0;
		p->tables[i].n = 8;
	}
	hb_rotate_plan_find(p, T("1128"))->n = 4;
}

static void run_nov28(struct hb_rotate_opts *o, struct fake *f, struct hb_rotate_result *res,
                      struct hb_rotate_plan *p)
{
	struct hb_rotate_hooks h = {
	    fake_create, fake_prepare, fake_compute, fake_fail, fake_say, NULL, f};

	memset(res, 0, sizeof(*res));
	hb_rotate_flow_execute(NULL, NULL, o, &h, p, res);
}

static int has_line(const struct hb_rotate_result *r, const char *name, const char *action)
{
	size_t i;

	for (i = 0; i < r->nlines; i++)
		if (!strcmp(r->lines[i].name, name) && !strcmp(r->lines[i].action, action))
			return 1;
	return 0;
}

static void test_rotate__flow_creates_ahead_with_one_design_and_leaves_drops_without_yes(void)
{
	struct hb_splitspec ss = {0};
	struct hb_rotate_opts o = {0};
	struct hb_rotate_plan p;
	struct hb_rotate_result r;
	struct fake f = {0};

	ss.hex = "4";
	o.ss = &ss;
	plan_nov28(&o, &p);
	run_nov28(&o, &f, &r, &p);
	CHECK_EQ_INT(f.creates, 2);
	CHECK_EQ_INT(f.computes, 1); /* the run's design is computed once */
	CHECK_EQ_INT(r.nlines, 5);
	CHECK(has_line(&r, T("1128"), "verified"));
	CHECK(r.lines[0].regions == 4 && r.lines[0].n == 4 && !r.lines[0].note);
	CHECK(has_line(&r, T("1129"), "created"));
	CHECK(has_line(&r, T("1119"), "would drop"));
	CHECK(has_line(&r, T("1120"), "would drop"));
	CHECK(has_line(&r, T("1121"), "skipped"));
	/* the unmarked one is never dropped, and said so even under -q */
	CHECK_EQ_INT(f.said[HB_ROTATE_SAY_NOTICE], 1);
	CHECK(strstr(f.last[HB_ROTATE_SAY_NOTICE],
	             "1 table past retention matches the template "
	             "'" TMPL "' but carries no rotate mark") != NULL);
	CHECK_EQ_INT(f.said[HB_ROTATE_SAY_ERROR], 0); /* without --yes pending is no error */
	CHECK_EQ_INT(r.pending, 2);
	CHECK_EQ_INT(r.rc, HB_ESAFETY);
	CHECK_EQ_INT(r.create_status, 0);
	hb_rotate_result_release(&r);
	hb_rotate_plan_release(&p);
}

static void test_rotate__flow_keeps_a_differing_table_creates_the_rest_and_retires_nothing(void)
{
	struct hb_splitspec ss = {0};
	struct hb_rotate_opts o = {0};
	struct hb_rotate_plan p;
	struct hb_rotate_result r;
	struct fake f = {0};

	ss.hex = "4";
	o.ss = &ss;
	o.cfg.yes = 1;
	f.differs = T("1128");
	plan_nov28(&o, &p);
	o.cfg.yes = 1;
	run_nov28(&o, &f, &r, &p);
	CHECK_EQ_INT(r.nlines, 2);
	CHECK(has_line(&r, T("1128"), "differs"));
	CHECK(r.lines[0].regions == 9 && r.lines[0].n == 4); /* its own regions and N */
	CHECK(has_line(&r, T("1129"), "created"));
	CHECK_EQ_INT(r.rc, HB_EFINDING);
	CHECK_EQ_INT(p.dropped, 0);
	CHECK_EQ_INT(f.fails_said, 0);
	hb_rotate_result_release(&r);
	hb_rotate_plan_release(&p);
}

static void test_rotate__flow_stops_at_a_failed_create(void)
{
	struct hb_splitspec ss = {0};
	struct hb_rotate_opts o = {0};
	struct hb_rotate_plan p;
	struct hb_rotate_result r;
	struct fake f = {0};

	ss.hex = "4";
	o.ss = &ss;
	f.fails = T("1128");
	plan_nov28(&o, &p);
	run_nov28(&o, &f, &r, &p);
	CHECK_EQ_INT(f.creates, 1); /* tomorrow's is not tried */
	CHECK_EQ_INT(r.nlines, 1);
	CHECK(has_line(&r, T("1128"), "failed"));
	CHECK_EQ_INT(r.lines[0].n, 4);
	CHECK_EQ_INT(r.create_status, 4); /* the create flow's own status is the run's */
	hb_rotate_result_release(&r);
	hb_rotate_plan_release(&p);
}

static void test_rotate__flow_dry_run_counts_drops_up_to_max_and_names_the_rest(void)
{
	struct hb_splitspec ss = {0};
	struct hb_rotate_opts o = {0};
	struct hb_rotate_plan p;
	struct hb_rotate_result r;
	struct fake f = {0};

	ss.hex = "4";
	o.ss = &ss;
	o.known_unmarked_text = "ns:events_user_clicks_2026112, " T("1121") " ns:x";
	plan_nov28(&o, &p);
	o.cfg.yes = 1;
	o.cfg.dry_run = 1;
	run_nov28(&o, &f, &r, &p);
	CHECK(has_line(&r, T("1128"), "verified"));
	CHECK(has_line(&r, T("1129"), "would create"));
	CHECK_EQ_INT(r.lines[1].regions, 4);
	CHECK(has_line(&r, T("1119"), "would drop")); /* max 1: the oldest */
	CHECK(!has_line(&r, T("1120"), "would drop"));
	CHECK(has_line(&r, T("1121"), "skipped"));
	CHECK(strstr(r.lines[r.nlines - 1].note, "kept on purpose") != NULL);
	CHECK_EQ_INT(f.said[HB_ROTATE_SAY_NOTICE], 0); /* acknowledged: no warning */
	CHECK_EQ_INT(f.said[HB_ROTATE_SAY_ERROR], 1);
	CHECK_EQ_STR(f.last[HB_ROTATE_SAY_ERROR],
	             "1 more managed table is past retention (--max-drops 1): "
	             "'ns:events_user_clicks_20261120'");
	CHECK_EQ_INT(p.dropped, 1);
	CHECK_EQ_INT(r.pending, 1);
	CHECK_EQ_INT(r.rc, HB_ESAFETY);
	hb_rotate_result_release(&r);
	hb_rotate_plan_release(&p);
}

static void test_rotate__flow_leaves_a_disabled_unmarked_table_and_says_why(void)
{
	struct hb_splitspec ss = {0};
	struct hb_rotate_opts o = {0};
	struct hb_rotate_plan p;
	struct hb_rotate_result r;
	struct fake f = {0};
	struct hb_rotate_table *t;

	ss.hex = "4";
	o.ss = &ss;
	plan_nov28(&o, &p);
	t = hb_rotate_plan_find(&p, T("1121"));
	t->disabled = 1;
	t->managed = 0;
	hb_rotate_plan_find(&p, T("1119"))->managed = 0;
	hb_rotate_plan_find(&p, T("1120"))->managed = 0;
	hb_rotate_plan_find(&p, T("1120"))->disabled = 1;
	o.cfg.yes = 1;
	run_nov28(&o, &f, &r, &p);
	CHECK(has_line(&r, T("1120"), "skipped"));
	CHECK(has_line(&r, T("1121"), "skipped"));
	CHECK_EQ_INT(f.said[HB_ROTATE_SAY_ERROR], 2);
	CHECK(strstr(f.last[HB_ROTATE_SAY_ERROR], "table '" T("1121") "' is past retention but "
	                                                              "disabled") != NULL);
	CHECK_EQ_INT(f.said[HB_ROTATE_SAY_NOTICE], 1); /* 19: unmarked, enabled */
	CHECK_EQ_INT(p.unreadable, 2);
	CHECK_EQ_INT(r.rc, HB_ESAFETY);
	hb_rotate_result_release(&r);
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
	RUN(test_rotate__flow_creates_ahead_with_one_design_and_leaves_drops_without_yes);
	RUN(test_rotate__flow_keeps_a_differing_table_creates_the_rest_and_retires_nothing);
	RUN(test_rotate__flow_stops_at_a_failed_create);
	RUN(test_rotate__flow_dry_run_counts_drops_up_to_max_and_names_the_rest);
	RUN(test_rotate__flow_leaves_a_disabled_unmarked_table_and_says_why);
	return TEST_DONE();
}
