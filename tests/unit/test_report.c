/* core/report.c: the page's classes, escaping, bands and a plan's boundaries after it. */
#include "core/audit.h"
#include "core/keyspace.h"
#include "core/report.h"
#include "test.h"

/* A report of regions cut at keys (k strings), audited against spec. */
static void make(struct hb_audit_report *a, const char *const *k, size_t n, const char *spec)
{
	struct hb_error err = {0};
	struct hb_keys keys;
	size_t i;

	hb_audit_report_init(a);
	hb_keys_init(&keys);
	for (i = 0; i < n; i++)
		CHECK_EQ_INT(hb_keys_push(&keys, k[i], strlen(k[i])), 0);
	CHECK_EQ_INT(hb_audit_regions_from_splits(&a->rs, &keys), 0);
	CHECK_EQ_INT(hb_keyspace_parse(&a->ks, spec, &err), 0);
	CHECK_EQ_INT(hb_audit_reach(&a->a, a->ks, &a->rs, &err), 0);
	hb_keys_release(&keys);
}

static char *page(const struct hb_audit_report *a, const char *subject, size_t max_bands)
{
	struct hb_report_input in;
	struct hb_error err = {0};
	struct hb_buf b = HB_BUF_INIT;

	memset(&in, 0, sizeof(in));
	in.subject = subject;
	in.offline = 1;
	in.creator = "hbtab test";
	in.audit = a;
	in.max_bands = max_bands;
	CHECK_EQ_INT(hb_report_html(&b, &in, &err), 0);
	return hb_buf_detach(&b, NULL);
}

static size_t count(const char *s, const char *what)
{
	size_t n = 0;

	for (s = strstr(s, what); s; s = strstr(s + 1, what))
		n++;
	return n;
}

static void test_report__unreachable_regions_get_their_class(void)
{
	static const char *const k[] = {"1", "2", "9g", "a"}; /* [9g, a) holds no hex{2} key */
	struct hb_audit_report a;
	unsigned char *cls;

	make(&a, k, 4, "hex{2}");
	CHECK_EQ_INT(hb_report_classes(&cls, &a), 0);
	CHECK_EQ_INT(cls[0], HB_RC_OK);
	CHECK_EQ_INT(cls[2], HB_RC_OK);
	CHECK_EQ_INT(cls[3], HB_RC_UNREACHABLE);
	CHECK_EQ_INT(cls[4], HB_RC_OK);
	free(cls);
	hb_audit_report_release(&a);
}

static void test_report__names_and_keys_are_escaped(void)
{
	static const char *const k[] = {"<b>&\"'"};
	struct hb_audit_report a;
	char *p;

	make(&a, k, 1, "print{1,4}");
	p = page(&a, "ns:t<script>", 0);
	CHECK(strstr(p, "ns:t&lt;script&gt;") != NULL);
	CHECK(strstr(p, "<script") == NULL);
	CHECK(strstr(p, "&lt;b&gt;&amp;&quot;&#39;") != NULL);
	CHECK(strstr(p, "<b>") == NULL);
	free(p);
	hb_audit_report_release(&a);
}

static void test_report__many_regions_are_bands_every_flagged_run_drawn(void)
{
	const char *k[600];
	char buf[600][8];
	struct hb_audit_report a;
	size_t i, n = 0;
	char *p;

	/* 001..258 in hex against decimal keys: every region starting at a letter is unreachable */
	for (i = 0; i < 600; i++) {
		snprintf(buf[i], sizeof(buf[i]), "%03zx", i + 1);
		k[n++] = buf[i];
	}
	make(&a, k, n, "dec{3}");
	p = page(&a, "t", 50);
	CHECK(strstr(p, "<table id=\"bands\">") != NULL);
	CHECK(strstr(p, "<table id=\"regions\">") == NULL);
	/* every run of unreachable regions is drawn once and listed once */
	CHECK(count(p, "<rect class=\"flag\"") > 0);
	CHECK(count(p, "<rect class=\"flag\"") <= count(p, "<tr><td>unreachable</td><td>r"));
	CHECK(count(p, "<tr><td class=\"n\">") <= 200); /* bands, not 601 rows */
	free(p);
	hb_audit_report_release(&a);
}

static void test_report__plan_after_drops_merged_bounds_and_adds_split_keys(void)
{
	static const char *const k[] = {"1", "2", "3", "4"};
	struct hb_audit_report a;
	struct hb_report_plan p;
	struct hb_report_step s[2];
	size_t len;
	const unsigned char *x;

	make(&a, k, 4, "dec{1}");
	hb_report_plan_init(&p);
	memset(s, 0, sizeof(s));
	s[0].action = "merge"; /* regions 1..3: bounds "2" and "3" go */
	s[0].first = 1;
	s[0].n = 3;
	s[1].action = "split";
	s[1].first = 4;
	s[1].n = 1;
	s[1].key = (const unsigned char *)"45";
	s[1].key_len = 2;
	p.before = &a.rs;
	p.steps = malloc(sizeof(s));
	memcpy(p.steps, s, sizeof(s));
	p.nsteps = 2;
	CHECK_EQ_INT(hb_report_plan_after(&p), 0);
	CHECK_EQ_INT(p.after.n, 3);
	x = hb_keys_at(&p.after, 0, &len);
	CHECK(len == 1 && x[0] == '1');
	x = hb_keys_at(&p.after, 1, &len);
	CHECK(len == 1 && x[0] == '4');
	x = hb_keys_at(&p.after, 2, &len);
	CHECK(len == 2 && !memcmp(x, "45", 2));
	hb_report_plan_release(&p);
	hb_audit_report_release(&a);
}

int main(void)
{
	RUN(test_report__unreachable_regions_get_their_class);
	RUN(test_report__names_and_keys_are_escaped);
	RUN(test_report__many_regions_are_bands_every_flagged_run_drawn);
	RUN(test_report__plan_after_drops_merged_bounds_and_adds_split_keys);
	return TEST_DONE();
}
