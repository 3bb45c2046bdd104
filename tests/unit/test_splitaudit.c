/* The audit of a planned split set as a stream (core/splitaudit.h), and availability findings. */
#include "core/regioninfo.h"
#include "core/splitaudit.h"
#include "test.h"

static struct hb_error err;

/* What the passes hand over, as text: "kind@region" per finding, "i:start-end:yes|no" per row. */
struct seen {
	char text[4096];
	size_t len, rows, findings;
};

static int on_row(void *ctx, size_t i, const struct hb_region *g, const struct hb_audit_region *ar)
{
	struct seen *s = ctx;

	s->len += (size_t)snprintf(s->text + s->len, sizeof(s->text) - s->len, "%.*s-%.*s:%zu:%s ",
	                           (int)g->start_len, g->start ? (const char *)g->start : "",
	                           (int)g->end_len, g->end ? (const char *)g->end : "", i,
	                           ar->reachable ? "yes" : "no");
	s->rows++;
	return 0;
}

static int on_finding(void *ctx, const char *kind, long region, const char *msg, size_t len,
                      int escaped)
{
	struct seen *s = ctx;

	(void)msg;
	(void)len;
	(void)escaped;
	s->len +=
	    (size_t)snprintf(s->text + s->len, sizeof(s->text) - s->len, "%s@%ld ", kind, region);
	s->findings++;
	return 0;
}

/* Split keys from a space-separated list of printable keys. */
static void keys_of(struct hb_keys *k, const char *list)
{
	hb_keys_init(k);
	while (*list) {
		size_t n = strcspn(list, " ");

		hb_keys_push(k, list, n);
		list += n;
		list += *list == ' ';
	}
}

/* A walk over the regions of the split keys in list, in the key space hex{2}, into s. */
static void walk_over(struct hb_split_walk *w, struct hb_keys *k, struct hb_keyspace **ks,
                      struct seen *s, const char *list)
{
	keys_of(k, list);
	CHECK_EQ_INT(hb_keyspace_parse(ks, "hex{2}", &err), 0);
	hb_split_walk_init(w, k, *ks);
	memset(s, 0, sizeof(*s));
	w->row = on_row;
	w->finding = on_finding;
	w->ctx = s;
}

static void test_splitaudit__passes_agree_on_findings_and_rows(void)
{
	struct hb_keyspace *ks = NULL;
	struct hb_split_walk w;
	struct hb_keys k;
	struct seen s;

	/* hex{2}: row keys 00..ff; a region below '0' or inside [b, b0) holds none */
	walk_over(&w, &k, &ks, &s, "+ 1 8 b b0");
	CHECK_EQ_INT(hb_split_walk_regions(&w), 6);
	CHECK_EQ_INT(hb_split_walk_pass(&w, HB_WALK_COUNT, &err), 0);
	CHECK_EQ_INT(w.nf, 2);
	CHECK_EQ_INT(w.chain_nf, 0);
	CHECK_EQ_STR(w.total_keys, "256");
	CHECK_EQ_INT(s.rows + s.findings, 0); /* the count pass hands over nothing */
	CHECK_EQ_INT(hb_split_walk_pass(&w, HB_WALK_FINDINGS, &err), 0);
	CHECK_EQ_INT(w.written, w.nf);
	CHECK_EQ_STR(s.text, "unreachable@0 unreachable@4 ");
	memset(&s, 0, sizeof(s));
	CHECK_EQ_INT(hb_split_walk_pass(&w, HB_WALK_ROWS, &err), 0);
	CHECK_EQ_INT(s.rows, 6);
	CHECK_EQ_INT(s.findings, 0);
	CHECK_EQ_STR(s.text, "-+:0:no +-1:1:yes 1-8:2:yes 8-b:3:yes b-b0:4:no b0-:5:yes ");
	hb_split_walk_release(&w);
	hb_keyspace_free(ks);
	hb_keys_release(&k);
}

static void test_splitaudit__chain_findings_come_after_their_region(void)
{
	struct hb_keyspace *ks = NULL;
	struct hb_split_walk w;
	struct hb_keys k;
	struct seen s;

	/* unsorted keys: region 2 [8, 4) ends before its start */
	walk_over(&w, &k, &ks, &s, "2 8 4");
	CHECK_EQ_INT(hb_split_walk_pass(&w, HB_WALK_COUNT, &err), 0);
	CHECK(w.chain_nf > 0);
	CHECK_EQ_INT(hb_split_walk_pass(&w, HB_WALK_FINDINGS, &err), 0);
	CHECK_EQ_INT(w.written, w.nf);
	CHECK(strstr(s.text, "hole@2") != NULL);
	hb_split_walk_release(&w);
	hb_keyspace_free(ks);
	hb_keys_release(&k);
}

static void test_splitaudit__availability_names_disabled_unavailable_and_unknown(void)
{
	struct hb_table_avail av = {HB_TABLE_ENABLED, 0, {0, ""}, 0, {0, ""}};
	struct hb_findings f;
	struct hb_regions rs;

	hb_regions_init(&rs);
	hb_findings_init(&f);
	CHECK_EQ_INT(hb_audit_availability(&f, "t1", &av, &rs, ""), 0);
	CHECK_EQ_INT(f.n, 1);
	CHECK_EQ_STR(f.v[0].kind, HB_FIND_NOT_OPEN);
	CHECK_EQ_INT(f.v[0].region, -1);
	hb_findings_release(&f);
	av.table_state = HB_TABLE_DISABLED;
	av.available = -1;
	CHECK_EQ_INT(hb_audit_availability(&f, "t1", &av, &rs, ""), 0);
	CHECK_EQ_INT(f.n, 1);
	CHECK_EQ_STR(f.v[0].kind, HB_FIND_DISABLED);
	hb_findings_release(&f);
	av.table_state = -1;
	hb_error_set(&av.why, HB_EFINDING, "cannot learn");
	CHECK_EQ_INT(hb_audit_availability(&f, "t1", &av, &rs, "; maybe disabled"), 0);
	CHECK_EQ_INT(f.n, 1);
	CHECK_EQ_STR(f.v[0].kind, HB_FIND_STATE_UNKNOWN);
	CHECK_EQ_STR(f.v[0].message, "cannot learn; maybe disabled");
	hb_findings_release(&f);
	hb_regions_release(&rs);
}

int main(void)
{
	RUN(test_splitaudit__passes_agree_on_findings_and_rows);
	RUN(test_splitaudit__chain_findings_come_after_their_region);
	RUN(test_splitaudit__availability_names_disabled_unavailable_and_unknown);
	return TEST_DONE();
}
