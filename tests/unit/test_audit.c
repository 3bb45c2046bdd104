/* Audit findings: reachability, region chain, meta/REST comparison, drift and hot-spots. */
#include "core/audit.h"
#include "test.h"

#include <math.h>
#include <time.h>

/* Region i of a list through one of a few views (each valid for the next seven calls). */
static const struct hb_region *reg(const struct hb_regions *rs, size_t i)
{
	static struct hb_region_view v[8];
	static unsigned k;

	return hb_regions_at(rs, i, &v[k++ % 8]);
}

static struct hb_error err;

/* Region spec "start|end" in toStringBinary; flags: o offline, s split parent, r replica. */
struct rdef {
	const char *start, *end;
	const char *flags;
	uint64_t id;
	const char *server;
};

static void build(struct hb_regions *rs, const struct rdef *d, size_t n)
{
	size_t i;

	hb_regions_init(rs);
	for (i = 0; i < n; i++) {
		struct hb_buf s = HB_BUF_INIT, e = HB_BUF_INIT;
		struct hb_region r;

		memset(&r, 0, sizeof(r));
		hb_tbb_parse(&s, d[i].start, strlen(d[i].start), &err);
		hb_tbb_parse(&e, d[i].end, strlen(d[i].end), &err);
		r.start = (unsigned char *)s.data;
		r.start_len = s.len;
		r.end = (unsigned char *)e.data;
		r.end_len = e.len;
		r.id = d[i].id;
		r.server = (char *)d[i].server;
		r.offline = d[i].flags && strchr(d[i].flags, 'o') != NULL;
		r.split = d[i].flags && strchr(d[i].flags, 's') != NULL;
		r.replica_id = d[i].flags && strchr(d[i].flags, 'r') != NULL;
		hb_regions_push(rs, &r);
		hb_buf_release(&s);
		hb_buf_release(&e);
	}
	hb_regions_sort(rs);
}

/* "kind@region kind@region ..." of the findings, for compact comparisons. */
static const char *kinds(const struct hb_findings *f)
{
	static char out[2048];
	size_t i, o = 0;

	out[0] = 0;
	for (i = 0; i < f->n && o < sizeof(out) - 64; i++)
		o += (size_t)snprintf(out + o, sizeof(out) - o, "%s%s@%ld", i ? " " : "",
		                      f->v[i].kind, f->v[i].region);
	return out;
}

static const char *chain(const struct rdef *d, size_t n, int from_meta)
{
	struct hb_regions rs;
	struct hb_findings f;
	const char *k;

	build(&rs, d, n);
	hb_findings_init(&f);
	CHECK_EQ_INT(hb_audit_chain(&f, &rs, from_meta), 0);
	k = kinds(&f);
	hb_findings_release(&f);
	hb_regions_release(&rs);
	return k;
}

static void test_audit__healthy_chain_has_no_findings(void)
{
	static const struct rdef d[] = {
	    {"", "a", NULL, 1, "rs1:1"}, {"a", "b", NULL, 1, "rs1:1"}, {"b", "", NULL, 1, "rs2:1"}};

	CHECK_EQ_STR(chain(d, 3, 1), "");
	CHECK_EQ_STR(chain(d, 1, 0), "bad_last_end@0");
}

static void test_audit__hole_overlap_duplicate_and_bad_ends(void)
{
	static const struct rdef hole[] = {{"", "a", NULL, 1, "s"}, {"b", "", NULL, 1, "s"}};
	static const struct rdef ovl[] = {{"", "b", NULL, 1, "s"}, {"a", "", NULL, 1, "s"}};
	static const struct rdef dup[] = {{"", "a", NULL, 1, "s"},
	                                  {"a", "b", NULL, 1, "s"},
	                                  {"a", "b", NULL, 2, "s"},
	                                  {"b", "", NULL, 1, "s"}};
	static const struct rdef ends[] = {{"a", "b", NULL, 1, "s"}, {"b", "c", NULL, 1, "s"}};
	static const struct rdef after_inf[] = {{"", "", NULL, 1, "s"}, {"m", "", NULL, 1, "s"}};

	CHECK_EQ_STR(chain(hole, 2, 1), "hole@1");
	CHECK_EQ_STR(chain(ovl, 2, 1), "overlap@1");
	CHECK_EQ_STR(chain(dup, 4, 1), "duplicate@2");
	CHECK_EQ_STR(chain(ends, 2, 1), "bad_first_start@0 bad_last_end@1");
	CHECK_EQ_STR(chain(after_inf, 2, 1), "overlap@1");
}

static void test_audit__split_parents_and_offline_regions_leave_the_chain(void)
{
	/* The parent [∅,∅) stays in meta beside its daughters until the janitor runs. */
	static const struct rdef d[] = {{"", "", "os", 1, NULL},
	                                {"", "m", NULL, 2, "rs1:1"},
	                                {"m", "", NULL, 2, "rs2:1"},
	                                {"m", "x", "o", 3, NULL}};

	/* Sorted: [∅,m) [∅,∅) [m,x) [m,∅). */
	CHECK_EQ_STR(chain(d, 4, 1), "split_parent@1 offline@2");
}

static void test_audit__meta_flags_regions_without_server(void)
{
	static const struct rdef d[] = {{"", "a", NULL, 1, "rs1:1"}, {"a", "", NULL, 1, NULL}};

	CHECK_EQ_STR(chain(d, 2, 1), "no_server@1");
	CHECK_EQ_STR(chain(d, 2, 0), "");
}

static void test_audit__rest_replica_entries_are_not_duplicates(void)
{
	static const struct rdef d[] = {
	    {"", "a", NULL, 7, "rs1:1"}, {"", "a", NULL, 7, "rs2:1"}, {"a", "", NULL, 7, "rs1:1"}};
	static const struct rdef m[] = {
	    {"", "a", NULL, 7, "rs1:1"}, {"", "a", "r", 7, "rs2:1"}, {"a", "", NULL, 7, "rs1:1"}};

	CHECK_EQ_STR(chain(d, 3, 0), "");
	CHECK_EQ_STR(chain(m, 3, 1), "");
}

static void test_audit__compare_reports_regions_in_only_one_list(void)
{
	static const struct rdef meta[] = {{"", "a", NULL, 1, "s"},
	                                   {"a", "b", NULL, 1, "s"},
	                                   {"b", "", NULL, 1, "s"},
	                                   {"", "", "os", 1, NULL}};
	static const struct rdef rest[] = {{"", "a", NULL, 1, "s"}, {"a", "", NULL, 1, "s"}};
	struct hb_regions a, b;
	struct hb_findings f;

	build(&a, meta, 4);
	build(&b, rest, 2);
	hb_findings_init(&f);
	CHECK_EQ_INT(hb_audit_compare(&f, &a, "hbase:meta", &b, "REST"), 0);
	hb_findings_sort(&f);
	CHECK_EQ_STR(kinds(&f), "meta_rest_mismatch@2 meta_rest_mismatch@3 meta_rest_mismatch@-1");
	hb_findings_release(&f);
	hb_findings_init(&f);
	CHECK_EQ_INT(hb_audit_compare(&f, &a, "hbase:meta", &a, "REST"), 0);
	CHECK_EQ_INT(f.n, 0);
	hb_findings_release(&f);
	hb_regions_release(&a);
	hb_regions_release(&b);
}

/* The other list streamed in any order, with repeats: the findings of the list form. */
static void test_audit__streamed_compare_takes_the_other_list_in_any_order(void)
{
	static const struct rdef meta[] = {{"", "b", NULL, 1, "s"},
	                                   {"b", "d", NULL, 1, "s"},
	                                   {"d", "f", NULL, 1, "s"},
	                                   {"f", "", NULL, 1, "s"}};
	/* [d,e) and [e,f) instead of [d,f); [,b) twice (a replica); [f,) last of all */
	static const struct rdef rest[] = {{"e", "f", NULL, 1, "s"}, {"", "b", NULL, 1, "s"},
	                                   {"d", "e", NULL, 1, "s"}, {"b", "d", NULL, 1, "s"},
	                                   {"", "b", NULL, 1, "s"},  {"e", "f", NULL, 2, "s"},
	                                   {"f", "", NULL, 1, "s"}};
	struct hb_regions a, b;
	struct hb_findings f, g;
	struct hb_compare c;
	size_t i;

	build(&a, meta, 4);
	hb_regions_init(&b);
	hb_findings_init(&f);
	hb_findings_init(&g);
	CHECK_EQ_INT(hb_compare_begin(&c, &a), 0);
	for (i = 0; i < 7; i++) {
		struct hb_regions one;

		build(&one, &rest[i], 1);
		CHECK_EQ_INT(hb_compare_add(&c, reg(&one, 0)), 0);
		CHECK_EQ_INT(hb_regions_push(&b, reg(&one, 0)), 0);
		hb_regions_release(&one);
	}
	CHECK_EQ_INT(hb_compare_end(&c, &f, "hbase:meta", "REST"), 0);
	hb_compare_release(&c);
	hb_findings_sort(&f);
	CHECK_EQ_STR(kinds(&f), "meta_rest_mismatch@2 meta_rest_mismatch@-1 meta_rest_mismatch@-1");
	CHECK_EQ_STR(f.v[0].message, "region 2 ['d', 'f') is in hbase:meta but not in REST");
	CHECK_EQ_STR(f.v[1].message, "region ['d', 'e') is in REST but not in hbase:meta");
	CHECK_EQ_STR(f.v[2].message, "region ['e', 'f') is in REST but not in hbase:meta");
	/* the list form over the same regions, sorted */
	hb_regions_sort(&b);
	CHECK_EQ_INT(hb_audit_compare(&g, &a, "hbase:meta", &b, "REST"), 0);
	hb_findings_sort(&g);
	CHECK_EQ_INT(g.n, f.n);
	for (i = 0; i < g.n && i < f.n; i++)
		CHECK_EQ_STR(g.v[i].message, f.v[i].message);
	hb_findings_release(&f);
	hb_findings_release(&g);
	hb_regions_release(&a);
	hb_regions_release(&b);
}

static void partition_regions(struct hb_regions *rs, int n, int broken)
{
	struct hb_keys k;
	int i, b;

	hb_keys_init(&k);
	for (i = 1; i < n; i++) {
		unsigned char key[9] = {0};

		for (b = 0; b < 8; b++)
			key[b] = (unsigned char)((unsigned long long)i >> (56 - 8 * b));
		/* A 9-byte key keeps the order but is not Bytes.toBytes((long) i). */
		hb_keys_push(&k, key, i == broken ? 9 : 8);
	}
	hb_keys_sort(&k);
	hb_regions_init(rs);
	hb_audit_regions_from_splits(rs, &k);
	hb_keys_release(&k);
}

static const char *drift(const struct hb_audit_meta *m, const struct hb_regions *rs,
                         const char *given)
{
	struct hb_findings f;
	const char *k;

	hb_findings_init(&f);
	CHECK_EQ_INT(hb_audit_drift(&f, m, rs, given, &err), 0);
	k = kinds(&f);
	hb_findings_release(&f);
	return k;
}

/* Regions of a 20-partition table from its region starts: "7" is partition 7's start,
 * "7+" a key inside partition 7 (7 followed by one more byte). */
static void partition_table(struct hb_regions *rs, const char *starts)
{
	struct hb_keys k;
	const char *p = starts;

	hb_keys_init(&k);
	while (*p) {
		unsigned char key[9] = {0};
		char *end;
		unsigned long long v = strtoull(p, &end, 10);
		int b;

		for (b = 0; b < 8; b++)
			key[b] = (unsigned char)(v >> (56 - 8 * b));
		key[8] = 0x80;
		hb_keys_push(&k, key, *end == '+' ? 9 : 8);
		p = end + (*end == '+');
		p += *p == ' ';
	}
	hb_keys_sort(&k);
	hb_regions_init(rs);
	hb_audit_regions_from_splits(rs, &k);
	hb_keys_release(&k);
}

/* The drift findings for a partition table with these region starts, "kind@region ...". */
static const char *boundary_drift(const char *starts, unsigned long long parts)
{
	char n[24];
	struct hb_audit_meta m = {1, n, NULL, "--partition-splits", 1};
	struct hb_regions rs;
	const char *k;

	snprintf(n, sizeof(n), "%llu", parts);
	partition_table(&rs, starts);
	k = drift(&m, &rs, parts == 20 ? "u64<20 *" : "u64<65536 *");
	hb_regions_release(&rs);
	return k;
}

static void test_audit__drift_is_one_finding_per_boundary_event(void)
{
	static const char all[] = "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19";

	CHECK_EQ_STR(boundary_drift(all, 20), "");
	/* a split early on shifts every later region by one: one finding, at the new region */
	CHECK_EQ_STR(boundary_drift("1 2 3 3+ 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19", 20),
	             "drift@-1 drift@4");
	/* a merge of partitions 6 and 7: one finding, at the region that spans both */
	CHECK_EQ_STR(boundary_drift("1 2 3 4 5 6 8 9 10 11 12 13 14 15 16 17 18 19", 20),
	             "drift@-1 drift@6");
	/* three partitions merged are one event too */
	CHECK_EQ_STR(boundary_drift("1 2 3 4 5 6 9 10 11 12 13 14 15 16 17 18 19", 20),
	             "drift@-1 drift@6");
	/* a split and a merge: N is right, two events */
	CHECK_EQ_STR(boundary_drift("1 2 2+ 3 4 5 6 8 9 10 11 12 13 14 15 16 17 18 19", 20),
	             "drift@3 drift@7");
	/* a partition split, and the last three partitions merged into one region */
	CHECK_EQ_STR(boundary_drift("1 2 3 4 5 5+ 6 7 8 9 10 11 12 13 14 15 16 17", 20),
	             "drift@-1 drift@6 drift@18");
	/* a boundary moved off its partition start: one event */
	CHECK_EQ_STR(boundary_drift("1 2 3 4 5+ 6 7 8 9 10 11 12 13 14 15 16 17 18 19", 20),
	             "drift@5");
	/* a key space of 65536 partitions on 4 regions: 3 merges, not 65532 findings */
	CHECK_EQ_STR(boundary_drift("100 200 300", 65536),
	             "drift@-1 drift@0 drift@1 drift@2 drift@3");
}

static void test_audit__drift_messages_name_the_event(void)
{
	struct hb_audit_meta m = {1, "20", NULL, "--partition-splits 20", 1};
	struct hb_findings f;
	struct hb_regions rs;

	partition_table(&rs, "1 2 2+ 3 4 5 6 8 9 10 11 12 13 14 15 16 17 18 19");
	hb_findings_init(&f);
	CHECK_EQ_INT(hb_audit_drift(&f, &m, &rs, NULL, &err), 0);
	CHECK_EQ_INT((int)f.n, 2);
	if (f.n == 2) {
		CHECK(strstr(f.v[0].message, "starts inside partition 2: it was split there"));
		CHECK(strstr(f.v[1].message, "spans partitions 6..7: they were merged"));
	}
	hb_findings_release(&f);
	hb_regions_release(&rs);
}

static void test_audit__drift_checks_n_keyspace_and_partition_boundaries(void)
{
	struct hb_audit_meta ok = {1, "20", "u64<20 byte{8}", "--partition-splits 20", 1};
	struct hb_audit_meta wrong_n = {1, "16", "u64<20 byte{8}", NULL, 1};
	struct hb_audit_meta bad_n = {1, "x", NULL, NULL, 1};
	struct hb_audit_meta none = {0, NULL, NULL, NULL, 0};
	struct hb_audit_meta splits_only = {1, "20", NULL, "--partition-splits 20", 1};
	struct hb_regions rs, broken;

	partition_regions(&rs, 20, 0);
	partition_regions(&broken, 20, 5);
	CHECK_EQ_STR(drift(&ok, &rs, NULL), "");
	CHECK_EQ_STR(drift(&ok, &rs, "u64<20 u64<18446744073709551616"), "");
	CHECK_EQ_STR(drift(&ok, &rs, "u64<20 *"), "drift@-1");
	CHECK_EQ_STR(drift(&wrong_n, &rs, NULL), "drift@-1 drift@-1");
	CHECK_EQ_STR(drift(&bad_n, &rs, NULL), "drift@-1");
	CHECK_EQ_STR(drift(&none, &rs, NULL), "");
	{
		struct hb_audit_meta required = {0, NULL, NULL, NULL, 1};

		CHECK_EQ_STR(drift(&required, &rs, NULL), "missing_metadata@-1");
	}
	CHECK_EQ_STR(drift(&ok, &broken, NULL), "drift@5");
	CHECK_EQ_STR(drift(&splits_only, &broken, NULL), "drift@5");
	{
		struct hb_audit_meta bad_ks = {1, "20", "hex{", NULL, 1};

		CHECK_EQ_STR(drift(&bad_ks, &rs, NULL), "drift@-1");
	}
	hb_regions_release(&rs);
	hb_regions_release(&broken);
}

static void test_audit__reach_flags_seed001_regions(void)
{
	static const char *const split_tsb[] = {
	    "0000000000000000",
	    "6\\xF6\\xF6\\xF6\\xF6\\xF6\\xF6\\xF6\\xF6\\xF6\\xF6\\xF6\\xF6\\xF6\\xF6\\xF6",
	    "=\\xBD\\xBD\\xBD\\xBD\\xBD\\xBD\\xBD\\xBD\\xBD\\xBD\\xBD\\xBD\\xBD\\xBD\\xBC",
	    "D\\x84\\x84\\x84\\x84\\x84\\x84\\x84\\x84\\x84\\x84\\x84\\x84\\x84\\x84\\x82",
	    "KKKKKKKKKKKKKKKH",
	    "R\\x12\\x12\\x12\\x12\\x12\\x12\\x12\\x12\\x12\\x12\\x12\\x12\\x12\\x12\\x0E",
	    "X\\xD8\\xD8\\xD8\\xD8\\xD8\\xD8\\xD8\\xD8\\xD8\\xD8\\xD8\\xD8\\xD8\\xD8\\xD4",
	    "_\\x9F\\x9F\\x9F\\x9F\\x9F\\x9F\\x9F\\x9F\\x9F\\x9F\\x9F\\x9F\\x9F\\x9F\\x9A",
	    "ffffffffffffffff",
	};
	struct hb_keys k;
	struct hb_regions rs;
	struct hb_keyspace *ks = NULL;
	struct hb_audit a;
	struct hb_audit_region res;
	size_t i;

	hb_keys_init(&k);
	for (i = 0; i < 9; i++) {
		struct hb_buf b = HB_BUF_INIT;

		hb_tbb_parse(&b, split_tsb[i], strlen(split_tsb[i]), &err);
		hb_keys_push(&k, b.data, b.len);
		hb_buf_release(&b);
	}
	hb_regions_init(&rs);
	CHECK_EQ_INT(hb_audit_regions_from_splits(&rs, &k), 0);
	CHECK_EQ_INT(rs.n, 10);
	CHECK_EQ_INT(hb_keyspace_parse(&ks, "hex{16}", &err), 0);
	hb_audit_init(&a);
	CHECK_EQ_INT(hb_audit_reach(&a, ks, &rs, &err), 0);
	CHECK_EQ_STR(kinds(&a.findings), "unreachable@0 unreachable@3 unreachable@4 "
	                                 "unreachable@5 unreachable@6 unreachable@7");
	CHECK_EQ_STR(a.total_keys, "18446744073709551616");
	hb_audit_at(&a, 9, &res);
	CHECK_EQ_STR(res.keys, "1");
	CHECK_EQ_INT(res.reachable, 1);
	hb_audit_at(&a, 2, &res);
	CHECK(fabs(res.share - 3.0 / 16) < 1e-12);
	hb_audit_at(&a, 3, &res);
	CHECK_EQ_INT(res.reachable, 0);
	CHECK(a.findings.n && strstr(a.findings.v[1].message, "'a000000000000000'") != NULL);
	hb_audit_release(&a);
	/* Without a key space: no reachability, no findings. */
	hb_audit_init(&a);
	CHECK_EQ_INT(hb_audit_reach(&a, NULL, &rs, &err), 0);
	hb_audit_at(&a, 0, &res);
	CHECK_EQ_INT(res.reachable, -1);
	CHECK(res.keys == NULL);
	CHECK_EQ_INT(a.findings.n, 0);
	hb_audit_release(&a);
	hb_keyspace_free(ks);
	hb_regions_release(&rs);
	hb_keys_release(&k);
}

/* One pass of hb_reach_stream over rs: findings into f; reachable flags into reach. */
static void reach_pass(struct hb_findings *f, int *reach, size_t *unreachable,
                       struct hb_keyspace *ks, const struct hb_regions *rs, int decide_only,
                       int escape)
{
	struct hb_reach_stream s;
	size_t i;

	CHECK_EQ_INT(hb_reach_stream_begin(&s, ks, &err), 0);
	s.decide_only = decide_only;
	s.escape_messages = escape;
	for (i = 0; i < rs->n; i++) {
		struct hb_audit_region ar;

		CHECK_EQ_INT(hb_reach_stream_next(&s, i, reg(rs, i), &ar, f, &err), 0);
		reach[i] = ar.reachable;
		CHECK(decide_only ? ar.keys == NULL : ar.keys != NULL);
	}
	*unreachable = s.unreachable;
	hb_reach_stream_release(&s);
}

static void test_audit__reach_stream_escapes_messages_and_decides_without_counting(void)
{
	/* keys with '"', a backslash (\x5C), a quote and more than the 48 bytes quoted */
	static const struct rdef d[] = {
	    {"", "\"q", NULL, 1, NULL},
	    {"\"q", "\"r\\x5C\\x01", NULL, 2, NULL},
	    {"\"r\\x5C\\x01", "'s\"", NULL, 3, NULL},
	    {"'s\"", "0", NULL, 4, NULL},
	    {"0", "a", NULL, 5, NULL},
	    {"a", "a\\x01", NULL, 6, NULL},
	    {"a\\x01",
	     "b\"\\x5C\"\\x5C\"\\x5C\"\\x5C\"\\x5C\"\\x5C\"\\x5C\"\\x5C\"\\x5C\"\\x5C\"\\x5C\"\\x5C"
	     "\"\\x5C\"\\x5C\"\\x5C\"\\x5C\"\\x5C\"\\x5C\"\\x5C\"\\x5C\"\\x5C\"\\x5C\"\\x5C\"\\x5C"
	     "\"\\x5C\"",
	     NULL, 7, NULL},
	    {"b\"\\x5C\"\\x5C\"\\x5C\"\\x5C\"\\x5C\"\\x5C\"\\x5C\"\\x5C\"\\x5C\"\\x5C\"\\x5C\"\\x5C"
	     "\"\\x5C\"\\x5C\"\\x5C\"\\x5C\"\\x5C\"\\x5C\"\\x5C\"\\x5C\"\\x5C\"\\x5C\"\\x5C\"\\x5C"
	     "\"\\x5C\"",
	     "z", NULL, 8, NULL},
	    {"z", "", NULL, 9, NULL},
	};
	struct hb_regions rs;
	struct hb_keyspace *ks = NULL;
	struct hb_findings plain, esc, none;
	int reach[9], reach_esc[9], reach_none[9];
	size_t i, un, un_esc, un_none;

	build(&rs, d, 9);
	CHECK_EQ_INT(hb_keyspace_parse(&ks, "[0-9a]{1,2}", &err), 0);
	hb_findings_init(&plain);
	hb_findings_init(&esc);
	hb_findings_init(&none);
	reach_pass(&plain, reach, &un, ks, &rs, 0, 0);
	reach_pass(&esc, reach_esc, &un_esc, ks, &rs, 1, 1);
	reach_pass(NULL, reach_none, &un_none, ks, &rs, 0, 0);
	CHECK_EQ_STR(kinds(&plain), "unreachable@0 unreachable@1 unreachable@2 unreachable@3 "
	                            "unreachable@7 unreachable@8");
	CHECK_EQ_INT(un, plain.n);
	CHECK_EQ_INT(un_esc, plain.n);
	CHECK_EQ_INT(un_none, plain.n); /* counted without a findings list too */
	CHECK(!memcmp(reach, reach_esc, sizeof(reach)) &&
	      !memcmp(reach, reach_none, sizeof(reach)));
	CHECK_EQ_INT(esc.n, plain.n);
	CHECK(strstr(plain.v[2].message, "['\"r\\x5C\\x01', '\\x27s\"')") != NULL);
	CHECK(strstr(plain.v[4].message, "\\x5C\"...', 'z')") != NULL);
	for (i = 0; i < plain.n && i < esc.n; i++) {
		struct hb_buf want = HB_BUF_INIT;
		const char *m;

		for (m = plain.v[i].message; *m; m++) {
			if (*m == '"' || *m == '\\')
				hb_buf_addc(&want, '\\');
			hb_buf_addc(&want, *m);
		}
		CHECK_EQ_STR(esc.v[i].message, hb_buf_str(&want));
		CHECK_EQ_INT(esc.v[i].region, plain.v[i].region);
		hb_buf_release(&want);
	}
	{
		/* keep_message: each finding's message left in s.msg, none made */
		struct hb_reach_stream s;
		size_t k = 0;

		CHECK_EQ_INT(hb_reach_stream_begin(&s, ks, &err), 0);
		s.keep_message = 1;
		for (i = 0; i < rs.n; i++) {
			struct hb_audit_region ar;

			CHECK_EQ_INT(hb_reach_stream_next(&s, i, reg(&rs, i), &ar, NULL, &err), 0);
			if (!s.msg.len)
				continue;
			CHECK(k < plain.n && plain.v[k].region == (long)i);
			if (k < plain.n)
				CHECK_EQ_STR(s.msg.data, plain.v[k].message);
			k++;
		}
		CHECK_EQ_INT(k, plain.n);
		hb_reach_stream_release(&s);
	}
	hb_findings_release(&plain);
	hb_findings_release(&esc);
	hb_findings_release(&none);
	hb_keyspace_free(ks);
	hb_regions_release(&rs);
}

static void test_audit__audits_100k_regions_quickly(void)
{
	struct hb_keys k;
	struct hb_regions rs;
	struct hb_keyspace *ks = NULL;
	struct hb_audit a;
	clock_t t0;
	double secs;
	unsigned long i;

	hb_keys_init(&k);
	for (i = 1; i < 100000; i++) {
		char key[9];
		/* HexStringSplit-like: i * floor(2^32 / n) as 8 hex digits. */
		snprintf(key, sizeof(key), "%08lx", i * (4294967296UL / 100000UL));
		hb_keys_push(&k, key, 8);
	}
	hb_regions_init(&rs);
	hb_audit_regions_from_splits(&rs, &k);
	hb_keyspace_parse(&ks, "hex{8} byte{8}", &err);
	hb_audit_init(&a);
	t0 = clock();
	CHECK_EQ_INT(hb_audit_reach(&a, ks, &rs, &err), 0);
	secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
	CHECK_EQ_INT(a.findings.n, 0);
	CHECK(secs < 2.0); /* generous for sanitizer builds; about 0.1 s optimized */
	printf("  100000 regions audited in %.3f s\n", secs);
	hb_audit_release(&a);
	hb_keyspace_free(ks);
	hb_regions_release(&rs);
	hb_keys_release(&k);
}

static void region_name(struct hb_buf *b, const char *table, const char *start_tsb, uint64_t id)
{
	hb_buf_reset(b);
	hb_buf_adds(b, table);
	hb_buf_addc(b, ',');
	hb_tbb_parse(b, start_tsb, strlen(start_tsb), &err);
	hb_buf_addf(b, ",%llu.0123456789abcdef0123456789abcdef.", (unsigned long long)id);
}

/* Loads matched one at a time, as a status read streams them (all of t0, then all of t1):
 * a region's server is where t1 saw it, else where t0 first did; another id is not it. */
static void test_audit__loads_match_one_at_a_time(void)
{
	static const struct rdef d[] = {{"", "1", NULL, 5, "rs1:1"}, {"1", "", NULL, 5, "rs1:1"}};
	struct hb_buf n0 = HB_BUF_INIT, n1 = HB_BUF_INIT, other = HB_BUF_INIT;
	struct hb_audit_load l;
	struct hb_region_counts c;
	struct hb_regions rs;

	build(&rs, d, 2);
	region_name(&n0, "t1", "", 5);
	region_name(&n1, "t1", "1", 5);
	region_name(&other, "t1", "1", 6); /* the same start, another region id */
	CHECK_EQ_INT(hb_region_counts_init(&c, rs.n, 1), 0);
	memset(&l, 0, sizeof(l));
#define LOAD(nm, srv, w, t1)                                                                       \
	(l.name = (const unsigned char *)(nm).data, l.name_len = (nm).len, l.server = (srv),       \
	 l.writes = (w), hb_audit_match_load(&c, &rs, "t1", &l, (t1)))
	CHECK_EQ_INT(LOAD(n0, "a:1", 10, 0), 0);
	CHECK_EQ_INT(LOAD(n0, "b:1", 11, 0), 0); /* listed twice at t0: the first server stays */
	CHECK_EQ_INT(LOAD(n1, "a:1", 20, 0), 0);
	CHECK_EQ_INT(LOAD(other, "z:1", 99, 0), 0);
	CHECK_EQ_INT(LOAD(n1, "c:1", 25, 1), 0);
#undef LOAD
	CHECK(c.t0[0].writes != HB_NO_LOAD && c.t1[0].writes == HB_NO_LOAD);
	CHECK(c.server[0] && c.server[0] <= c.nservers);
	CHECK_EQ_STR(c.servers[c.server[0] - 1], "a:1");
	CHECK_EQ_INT(c.t0[0].writes, 11);
	CHECK(c.t0[1].writes != HB_NO_LOAD && c.t1[1].writes != HB_NO_LOAD);
	CHECK(c.server[1] && c.server[1] <= c.nservers);
	CHECK_EQ_STR(c.servers[c.server[1] - 1], "c:1");
	CHECK_EQ_INT(c.t0[1].writes, 20);
	CHECK_EQ_INT(c.t1[1].writes, 25);
	CHECK_EQ_INT(c.nservers,
	             3); /* each name once: a:1, b:1 and c:1 (z:1's load matched none) */
	hb_region_counts_release(&c);
	hb_buf_release(&n0);
	hb_buf_release(&n1);
	hb_buf_release(&other);
	hb_regions_release(&rs);
}

static void test_audit__hotspots_name_sequential_keys_and_hot_regions(void)
{
	static const struct rdef d[] = {
	    {"", "1", NULL, 5, "rs1:1"},    {"1", "2", NULL, 5, "rs1:1"},
	    {"2", "3", NULL, 5, "rs2:1"},   {"3", "4", NULL, 5, "rs2:1"},
	    {"4", "5,x", NULL, 5, "rs1:1"}, {"5,x", "", NULL, 5, "rs2:1"}};
	static const char *const starts[] = {"", "1", "2", "3", "4", "5,x"};
	struct hb_buf names[6];
	struct hb_audit_load l0[7], l1[7];
	struct hb_region_counts c;
	struct hb_hot_params p = HB_HOT_PARAMS_DEFAULT;
	struct hb_hotspots h;
	struct hb_findings f;
	struct hb_regions rs;
	size_t i;

	build(&rs, d, 6);
	for (i = 0; i < 6; i++) {
		hb_buf_init(&names[i], 0);
		region_name(&names[i], "t1", starts[i], 5);
		l0[i].name = (const unsigned char *)names[i].data;
		l0[i].name_len = names[i].len;
		l0[i].server = reg(&rs, i)->server;
		l0[i].reads = 10;
		l0[i].writes = 1000;
		l1[i] = l0[i];
		l1[i].writes = 1010; /* 10 writes each in the window... */
	}
	l1[5].writes = 1000 + 2000; /* ...except the last region: 2000 */
	l0[6] = l0[0];              /* another table's region is ignored */
	l0[6].name = (const unsigned char *)"t2,,5.x.";
	l0[6].name_len = 8;
	l1[6] = l0[6];
	CHECK_EQ_INT(hb_audit_match_loads(&c, &rs, "t1", l0, 7, l1, 7), 0);
	for (i = 0; i < 6; i++)
		CHECK(c.t0[i].writes != HB_NO_LOAD && c.t1[i].writes != HB_NO_LOAD);
	hb_findings_init(&f);
	CHECK_EQ_INT(hb_audit_hotspots(&h, &f, &rs, &c, NULL, &p), 0);
	CHECK(c.t1 == NULL); /* the counts at t1 became h.r */
	hb_region_counts_release(&c);
	CHECK_EQ_INT(h.total_writes, 2050);
	CHECK_EQ_INT(h.sequential_region, 5);
	CHECK_EQ_STR(kinds(&f), "hotspot@5");
	CHECK(strstr(f.v[0].message, "sequential row keys") != NULL);
	CHECK_EQ_INT(h.ns, 2);
	CHECK_EQ_STR(h.s[0].name, "rs1:1");
	CHECK_EQ_INT(h.s[0].regions, 3);
	CHECK_EQ_INT(h.s[0].writes, 30);
	CHECK_EQ_STR(h.s[1].name, "rs2:1");
	CHECK_EQ_INT(h.s[1].writes, 2020);
	hb_hotspots_release(&h);
	hb_findings_release(&f);

	/* Not sequential: region 2 hot at 50 % of the writes; region 4 restarted its counter. */
	l1[5].writes = 1010;
	l1[2].writes = 1000 + 60;
	l1[4].writes = 15;
	CHECK_EQ_INT(hb_audit_match_loads(&c, &rs, "t1", l0, 7, l1, 7), 0);
	hb_findings_init(&f);
	CHECK_EQ_INT(hb_audit_hotspots(&h, &f, &rs, &c, NULL, &p), 0);
	hb_region_counts_release(&c);
	CHECK_EQ_INT(h.r[4].writes, 15);
	CHECK_EQ_INT(h.sequential_region, -1);
	CHECK_EQ_STR(kinds(&f), ""); /* 115 writes in all: only region 2 has 60 < 100 */
	hb_hotspots_release(&h);
	hb_findings_release(&f);
	p.min_writes = 50;
	CHECK_EQ_INT(hb_audit_match_loads(&c, &rs, "t1", l0, 7, l1, 7), 0);
	hb_findings_init(&f);
	CHECK_EQ_INT(hb_audit_hotspots(&h, &f, &rs, &c, NULL, &p), 0);
	hb_region_counts_release(&c);
	CHECK_EQ_STR(kinds(&f), "hotspot@2");
	CHECK(fabs(hb_hotspots_share(&h, 2) - 60.0 / 115) < 1e-12);
	CHECK_EQ_INT(hb_hotspots_share(&h, 4) == 15.0 / 115, 1);
	hb_hotspots_release(&h);
	hb_findings_release(&f);

	/* With reachability known, the end of the key space is the last reachable region. */
	{
		/* one-byte keys '0'..'4': region 5, from "5,x" on, holds none */
		struct hb_keyspace *ks;
		struct hb_audit reach;

		CHECK_EQ_INT(hb_keyspace_parse(&ks, "[0-4]", &err), 0);
		hb_audit_init(&reach);
		CHECK_EQ_INT(hb_audit_reach(&reach, ks, &rs, &err), 0);
		CHECK_EQ_STR(kinds(&reach.findings), "unreachable@5");
		l1[2].writes = 1010;
		l1[4].writes = 1000 + 5000;
		CHECK_EQ_INT(hb_audit_match_loads(&c, &rs, "t1", l0, 7, l1, 7), 0);
		hb_findings_init(&f);
		CHECK_EQ_INT(hb_audit_hotspots(&h, &f, &rs, &c, &reach, &p), 0);
		hb_region_counts_release(&c);
		CHECK_EQ_INT(h.sequential_region, 4);
		CHECK(f.n && strstr(f.v[0].message, "last reachable") != NULL);
		hb_hotspots_release(&h);
		hb_findings_release(&f);
		hb_audit_release(&reach);
		hb_keyspace_free(ks);
	}
	/* One reading (--window 0): the counters as read are the requests; a region with no
	 * load has none and counts on the server it is listed on. */
	CHECK_EQ_INT(hb_region_counts_init(&c, rs.n, 0), 0);
	CHECK(c.t0 == NULL);
	for (i = 0; i < 6; i++)
		if (i != 3)
			CHECK_EQ_INT(hb_audit_match_load(&c, &rs, "t1", &l1[i], 1), 0);
	hb_findings_init(&f);
	CHECK_EQ_INT(hb_audit_hotspots(&h, &f, &rs, &c, NULL, &p), 0);
	hb_region_counts_release(&c);
	CHECK_EQ_INT(h.r[0].writes, 1010);
	CHECK_EQ_INT(h.r[0].reads, 10);
	CHECK_EQ_INT(h.r[3].writes, 0);
	CHECK_EQ_INT(h.r[4].writes, 6000);
	CHECK_EQ_INT(h.total_writes, 1010 * 4 + 6000);
	CHECK_EQ_INT(h.ns, 2);
	CHECK_EQ_STR(h.s[1].name, "rs2:1");
	CHECK_EQ_INT(h.s[1].regions, 3);
	CHECK_EQ_INT(h.s[1].writes, 2020);
	hb_hotspots_release(&h);
	hb_findings_release(&f);
	for (i = 0; i < 6; i++)
		hb_buf_release(&names[i]);
	hb_regions_release(&rs);
}

static void test_audit__findings_sort_puts_table_wide_last(void)
{
	struct hb_findings f;

	hb_findings_init(&f);
	hb_findings_add(&f, HB_FIND_DRIFT, -1, "a");
	hb_findings_add(&f, HB_FIND_HOLE, 3, "b");
	hb_findings_add(&f, HB_FIND_UNREACHABLE, 1, "c");
	hb_findings_add(&f, HB_FIND_OFFLINE, 3, "d");
	hb_findings_sort(&f);
	CHECK_EQ_STR(kinds(&f), "unreachable@1 hole@3 offline@3 drift@-1");
	hb_findings_release(&f);
	{
		/* The merge path for long lists: ordered by region, stable within a region. */
		size_t i, bad = 0;

		hb_findings_init(&f);
		for (i = 0; i < 500; i++)
			hb_findings_add(&f, HB_FIND_HOLE, (long)((i * 7919) % 61) - 1, "%zu", i);
		hb_findings_sort(&f);
		for (i = 1; i < f.n; i++) {
			long a = f.v[i - 1].region, b = f.v[i].region;

			if (a < 0 ? b >= 0
			          : (b >= 0 &&
			             (a > b || (a == b && strtol(f.v[i - 1].message, NULL, 10) >
			                                      strtol(f.v[i].message, NULL, 10)))))
				bad++;
		}
		CHECK_EQ_INT(f.n, 500);
		CHECK_EQ_INT(bad, 0);
		hb_findings_release(&f);
	}
}

int main(void)
{
	RUN(test_audit__healthy_chain_has_no_findings);
	RUN(test_audit__hole_overlap_duplicate_and_bad_ends);
	RUN(test_audit__split_parents_and_offline_regions_leave_the_chain);
	RUN(test_audit__meta_flags_regions_without_server);
	RUN(test_audit__rest_replica_entries_are_not_duplicates);
	RUN(test_audit__compare_reports_regions_in_only_one_list);
	RUN(test_audit__streamed_compare_takes_the_other_list_in_any_order);
	RUN(test_audit__drift_checks_n_keyspace_and_partition_boundaries);
	RUN(test_audit__drift_is_one_finding_per_boundary_event);
	RUN(test_audit__drift_messages_name_the_event);
	RUN(test_audit__reach_flags_seed001_regions);
	RUN(test_audit__reach_stream_escapes_messages_and_decides_without_counting);
	RUN(test_audit__audits_100k_regions_quickly);
	RUN(test_audit__loads_match_one_at_a_time);
	RUN(test_audit__hotspots_name_sequential_keys_and_hot_regions);
	RUN(test_audit__findings_sort_puts_table_wide_last);
	return TEST_DONE();
}
