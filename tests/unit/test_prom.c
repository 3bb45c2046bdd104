/* Prometheus text exposition: a run's report, label and HELP escaping, reading a sample back. */
#include "core/prom.h"
#include "test.h"

#include <math.h>

static const char *esc(const char *s, size_t n)
{
	static struct hb_buf b = HB_BUF_INIT;

	hb_buf_reset(&b);
	CHECK_EQ_INT(hb_prom_escape_label(&b, s, n), 0);
	return hb_buf_str(&b);
}

static void test_prom__label_values_escape_backslash_quote_newline(void)
{
	CHECK_EQ_STR(esc("plain", 5), "plain");
	CHECK_EQ_STR(esc("a\\b", 3), "a\\\\b");
	CHECK_EQ_STR(esc("say \"hi\"", 8), "say \\\"hi\\\"");
	CHECK_EQ_STR(esc("two\nlines", 9), "two\\nlines");
	/* a tab, braces and commas need no escape inside the quotes */
	CHECK_EQ_STR(esc("a\t{b},c=d", 9), "a\t{b},c=d");
	/* UTF-8 passes through; a byte that is not UTF-8 becomes U+FFFD */
	CHECK_EQ_STR(esc("t\xc3\xa1", 3), "t\xc3\xa1");
	CHECK_EQ_STR(esc("x\xff"
	                 "y",
	                 3),
	             "x\xEF\xBF\xBDy");
	CHECK_EQ_STR(esc("\xc3", 1), "\xEF\xBF\xBD");
}

static void test_prom__help_escapes_backslash_and_newline_only(void)
{
	struct hb_buf b = HB_BUF_INIT;

	CHECK_EQ_INT(hb_prom_escape_help(&b, "a \"q\" \\ b\nc"), 0);
	CHECK_EQ_STR(hb_buf_str(&b), "a \"q\" \\\\ b\\nc");
	hb_buf_release(&b);
}

static const char *val(double v)
{
	static struct hb_buf b = HB_BUF_INIT;

	hb_buf_reset(&b);
	CHECK_EQ_INT(hb_prom_value(&b, v), 0);
	return hb_buf_str(&b);
}

static void test_prom__values_integers_exact_floats_shortest_specials_named(void)
{
	CHECK_EQ_STR(val(0), "0");
	CHECK_EQ_STR(val(-0.0), "0");
	CHECK_EQ_STR(val(6), "6");
	CHECK_EQ_STR(val(1764150000), "1764150000");
	CHECK_EQ_STR(val(9007199254740991.0), "9007199254740991");
	CHECK_EQ_STR(val(0.1), "0.1");
	CHECK_EQ_STR(val(1764150000.25), "1764150000.25");
	CHECK_EQ_STR(val(1e300), "1e+300");
	CHECK_EQ_STR(val(NAN), "NaN");
	CHECK_EQ_STR(val(INFINITY), "+Inf");
	CHECK_EQ_STR(val(-INFINITY), "-Inf");
}

static const struct hb_prom_kind kinds[] = {{"unreachable", 6}, {"hole", 0}};

static void test_prom__audit_report_has_help_type_and_every_sample(void)
{
	const struct hb_prom_gauge gauges[] = {
	    {"hbtab_audit_regions", "Regions.", 10},
	    {"hbtab_audit_partitions", "N.", NAN}, /* unknown: left out */
	};
	struct hb_prom_report r = {
	    "audit",     "table", "ns:t1", 1,      1764150000, -1, "hbtab_audit_findings",
	    "Findings.", kinds,   2,       gauges, 2};
	struct hb_buf b = HB_BUF_INIT;

	CHECK_EQ_INT(hb_prom_report(&b, &r), 0);
	CHECK_EQ_STR(
	    hb_buf_str(&b),
	    "# HELP hbtab_last_run_success Whether hbtab's last run of the command completed (1: "
	    "exit status 0 or 1, findings included) or failed (0).\n"
	    "# TYPE hbtab_last_run_success gauge\n"
	    "hbtab_last_run_success{command=\"audit\",table=\"ns:t1\"} 1\n"
	    "# HELP hbtab_last_run_exit_status Exit status of hbtab's last run.\n"
	    "# TYPE hbtab_last_run_exit_status gauge\n"
	    "hbtab_last_run_exit_status{command=\"audit\",table=\"ns:t1\"} 1\n"
	    "# HELP hbtab_last_run_timestamp_seconds When hbtab's last run ended, in seconds since "
	    "the epoch.\n"
	    "# TYPE hbtab_last_run_timestamp_seconds gauge\n"
	    "hbtab_last_run_timestamp_seconds{command=\"audit\",table=\"ns:t1\"} 1764150000\n"
	    "# HELP hbtab_last_success_timestamp_seconds When hbtab's last successful run ended, "
	    "in "
	    "seconds since the epoch.\n"
	    "# TYPE hbtab_last_success_timestamp_seconds gauge\n"
	    "hbtab_last_success_timestamp_seconds{command=\"audit\",table=\"ns:t1\"} 1764150000\n"
	    "# HELP hbtab_audit_findings Findings.\n"
	    "# TYPE hbtab_audit_findings gauge\n"
	    "hbtab_audit_findings{table=\"ns:t1\",kind=\"unreachable\"} 6\n"
	    "hbtab_audit_findings{table=\"ns:t1\",kind=\"hole\"} 0\n"
	    "# HELP hbtab_audit_regions Regions.\n"
	    "# TYPE hbtab_audit_regions gauge\n"
	    "hbtab_audit_regions{table=\"ns:t1\"} 10\n");
	hb_buf_release(&b);
}

static void test_prom__failed_run_keeps_the_last_success_time_given(void)
{
	struct hb_prom_report r = {"rotate", "template", "ev_%Y%m%d", 3, 2000, 1500,
	                           NULL,     NULL,       NULL,        0, NULL, 0};
	struct hb_buf b = HB_BUF_INIT;
	const char *lbl[] = {"command", "rotate", "template", "ev_%Y%m%d"};
	double v = 0;

	CHECK_EQ_INT(hb_prom_report(&b, &r), 0);
	CHECK_EQ_INT(hb_prom_find(b.data, b.len, "hbtab_last_run_success", lbl, 2, &v), 0);
	CHECK(v == 0);
	CHECK_EQ_INT(hb_prom_find(b.data, b.len, "hbtab_last_run_exit_status", lbl, 2, &v), 0);
	CHECK(v == 3);
	CHECK_EQ_INT(hb_prom_find(b.data, b.len, HB_PROM_LAST_SUCCESS, lbl, 2, &v), 0);
	CHECK(v == 1500);
	CHECK_EQ_INT(hb_prom_find(b.data, b.len, "hbtab_last_run_timestamp_seconds", lbl, 2, &v),
	             0);
	CHECK(v == 2000);
	/* no success known: the family is left out, not written as 0 */
	hb_buf_reset(&b);
	r.last_success = -1;
	CHECK_EQ_INT(hb_prom_report(&b, &r), 0);
	CHECK(!strstr(hb_buf_str(&b), HB_PROM_LAST_SUCCESS));
	hb_buf_release(&b);
}

static void test_prom__odd_subject_is_escaped_and_read_back_unescaped(void)
{
	const char *odd = "we\"ird\\ta\nble";
	struct hb_prom_report r = {"audit", "table", odd, 0,    10, -1, "hbtab_audit_findings",
	                           "F",     kinds,   1,   NULL, 0};
	struct hb_buf b = HB_BUF_INIT;
	const char *lbl[] = {"table", odd, "command", "audit"};
	double v = -1;

	CHECK_EQ_INT(hb_prom_report(&b, &r), 0);
	CHECK(strstr(
	    hb_buf_str(&b),
	    "hbtab_audit_findings{table=\"we\\\"ird\\\\ta\\nble\",kind=\"unreachable\"} 6\n"));
	CHECK_EQ_INT(hb_prom_find(b.data, b.len, "hbtab_last_run_success", lbl, 2, &v), 0);
	CHECK(v == 1);
	hb_buf_release(&b);
}

static void test_prom__find_needs_the_exact_label_set(void)
{
	static const char text[] = "# HELP m x\n"
	                           "# TYPE m gauge\n"
	                           "m{command=\"audit\",table=\"a\"} 1\n"
	                           "m{command=\"audit\",table=\"b\",extra=\"1\"} 2\n"
	                           "m { table = \"b\" , command = \"audit\" , } 3 1764150000000\n"
	                           "m_total{command=\"audit\",table=\"c\"} 4\n"
	                           "m{command=\"audit\",table=\"c\" 5\n" /* malformed: skipped */
	                           "  m{command=\"audit\",table=\"d\"} +Inf\r\n"
	                           "bare 7";
	const char *a[] = {"command", "audit", "table", "a"};
	const char *b[] = {"command", "audit", "table", "b"};
	const char *c[] = {"command", "audit", "table", "c"};
	const char *d[] = {"command", "audit", "table", "d"};
	const char *twice[] = {"table", "a", "table", "a"};
	double v = 0;

	CHECK_EQ_INT(hb_prom_find(text, strlen(text), "m", a, 2, &v), 0);
	CHECK(v == 1);
	/* labels in another order, blanks and a trailing comma, a timestamp after the value */
	CHECK_EQ_INT(hb_prom_find(text, strlen(text), "m", b, 2, &v), 0);
	CHECK(v == 3);
	CHECK_EQ_INT(hb_prom_find(text, strlen(text), "m", c, 2, &v), HB_ENOTFOUND);
	CHECK_EQ_INT(hb_prom_find(text, strlen(text), "m", d, 2, &v), 0);
	CHECK(isinf(v) && v > 0);
	CHECK_EQ_INT(hb_prom_find(text, strlen(text), "m", a, 1, &v), HB_ENOTFOUND);
	CHECK_EQ_INT(hb_prom_find(text, strlen(text), "m", twice, 2, &v), HB_ENOTFOUND);
	CHECK_EQ_INT(hb_prom_find(text, strlen(text), "bare", NULL, 0, &v), 0);
	CHECK(v == 7);
	CHECK_EQ_INT(hb_prom_find("", 0, "m", a, 2, &v), HB_ENOTFOUND);
	CHECK_EQ_INT(hb_prom_find("m{table=\"a\\", 11, "m", a + 2, 1, &v), HB_ENOTFOUND);
}

static void test_prom__success_is_exit_status_0_or_1(void)
{
	CHECK(hb_prom_success(0));
	CHECK(hb_prom_success(1));
	CHECK(!hb_prom_success(2));
	CHECK(!hb_prom_success(4));
	CHECK(!hb_prom_success(5));
	CHECK(!hb_prom_success(143));
}

int main(void)
{
	RUN(test_prom__label_values_escape_backslash_quote_newline);
	RUN(test_prom__help_escapes_backslash_and_newline_only);
	RUN(test_prom__values_integers_exact_floats_shortest_specials_named);
	RUN(test_prom__audit_report_has_help_type_and_every_sample);
	RUN(test_prom__failed_run_keeps_the_last_success_time_given);
	RUN(test_prom__odd_subject_is_escaped_and_read_back_unescaped);
	RUN(test_prom__find_needs_the_exact_label_set);
	RUN(test_prom__success_is_exit_status_0_or_1);
	return TEST_DONE();
}
