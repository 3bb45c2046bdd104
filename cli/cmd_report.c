/* hbtab report: one self-contained HTML page of a table's audit (or a planned split set's),
 * with a plan's boundaries before and after and simulated writes. */
#include "../core/audit.h"
#include "../core/filereplace.h"
#include "../core/keyspace.h"
#include "../core/report.h"
#include "../core/simrun.h"
#include "../rest/audit.h"
#include "../rest/repair.h"
#include "../rest/reshape.h"
#include "cli.h"
#include "commands.h"
#include "exit.h"
#include "output.h"
#include "reshape_out.h"
#include "rest_cli.h"
#include "splitspec.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#define DEFAULT_COUNT 1000000L

static const char *html, *keyspace, *window_opt, *plan_opt, *count_opt, *servers;
static int hotspots, simulate;
static double window_s = 10.0;
static struct hb_splitspec ss;

static const struct cli_option opts[] = {
    CLI_STRING(0, "html", &html, "FILE", "write the page to FILE ('-' = standard output)"),
    CLI_STRING(0, "keyspace", &keyspace, "SPEC",
               "row-key space (default: the metadata row's; a split set needs it)"),
    CLI_FLAG(0, "hotspots", &hotspots,
             "measure write hot-spots and each server's requests (/status/cluster)"),
    CLI_STRING(0, "window", &window_opt, "SEC",
               "seconds between the two counter readings (10; 0 = since region open)"),
    CLI_SUGGEST(0, "plan", &plan_opt, "KIND",
                "draw the boundaries before and after a plan: repair, or reshape to the "
                "split specification given",
                "repair reshape"),
    CLI_FLAG(0, "simulate", &simulate,
             "split set: simulated writes per region (--generator G, else drawn from "
             "--keyspace)"),
    CLI_STRING(0, "count", &count_opt, "N", "writes to simulate (1000000)"),
    CLI_STRING(0, "servers", &servers, "S",
               "split set: region servers (N = auto, and where simulated regions go; 1)"),
    CLI_SPLITSPEC_OPTIONS(&ss),
    CLI_END,
};

/* ---------------------------------------------------------------- checks */

/* A design whose row keys carry N is refused as reshape refuses it (exit 5). */
static int check_reshape_design(struct cli_ctx *x)
{
	struct hb_keyspace *ks = NULL;
	struct hb_error err = {0};
	unsigned long long parts;
	int width;

	if (keyspace && !hb_keyspace_parse(&ks, keyspace, &err) &&
	    hb_keyspace_partitions(ks, &parts, &width)) {
		hb_keyspace_free(ks);
		cli_error("refusing to plan a reshape of '%s': the key space '%s' starts with a "
		          "partition number (u%d<%llu): " N_IN_KEYS,
		          x->table, keyspace, 8 * width, parts);
		return CLI_EXIT_REFUSED;
	}
	hb_keyspace_free(ks);
	if (ss.partition || ss.salt) {
		cli_error(
		    "refusing to plan a reshape of '%s' to %s splits: a %s design's " N_IN_KEYS,
		    x->table, ss.partition ? "--partition" : "--salt",
		    ss.partition ? "partition" : "salt");
		return CLI_EXIT_REFUSED;
	}
	return CLI_EXIT_OK;
}

/* The plan kinds --plan names. The page draws any plan given as a struct hb_report_plan
 * (core/report.h): repair's comes from repair_to_report, reshape's from reshape_to_report
 * (reshape's own planner, its target the split specification given beside TABLE). */
static int check_plan(struct cli_ctx *x)
{
	if (!plan_opt)
		return hb_splitspec_given(&ss) && x->table
		           ? cli_usage_exit("report", "give either TABLE or a split specification, "
		                                      "not both")
		           : CLI_EXIT_OK;
	if (strcmp(plan_opt, "repair") && strcmp(plan_opt, "reshape"))
		return cli_usage_exit("report", "invalid --plan '%s' (expected repair or reshape)",
		                      plan_opt);
	if (!x->table)
		return CLI_EXIT_OK; /* check_offline says --plan needs a TABLE */
	if (!strcmp(plan_opt, "repair"))
		return hb_splitspec_given(&ss) ? cli_usage_exit("report", "--plan repair takes no "
		                                                          "split specification")
		                               : CLI_EXIT_OK;
	if (!hb_splitspec_given(&ss))
		return cli_usage_exit("report",
		                      "--plan reshape needs a split specification (--hex-splits N, "
		                      "--decimal-splits N, ...): the boundaries to move to");
	return check_reshape_design(x);
}

static int check_offline(struct cli_ctx *x)
{
	if (!hb_splitspec_given(&ss))
		return cli_usage_exit("report", "missing TABLE or a split specification");
	if (!keyspace)
		return cli_usage_exit("report", "a split set's report needs --keyspace");
	if (hotspots || window_opt || plan_opt)
		return cli_usage_exit("report", "--hotspots, --window and --plan need a TABLE");
	if ((count_opt || ss.generator) && !simulate && !ss.sampled)
		return cli_usage_exit("report", "--%s goes with --simulate",
		                      count_opt ? "count" : "generator");
	if (servers) {
		struct hb_error err = {0};
		int auto_n = cli_splitspec_needs_cluster(&ss) && !ss.sample_table;
		long n;

		if (!auto_n && !simulate)
			return cli_usage_exit("report",
			                      "--servers goes with N = auto or --simulate");
		if (cli_parse_long(servers, 1, 100000, "--servers", &n, &err))
			return cli_usage_exit("report", "%s", err.msg);
		if (cli_splitspec_set_servers(&ss, servers, &err))
			return cli_usage_exit("report", "%s", err.msg);
	}
	x->offline = !cli_splitspec_needs_cluster(&ss);
	return CLI_EXIT_OK;
}

static int check(struct cli_ctx *x)
{
	struct stat st;
	struct hb_error err = {0};
	int rc;

	if (cli_g.output_file) {
		if (html)
			return cli_usage_exit("report",
			                      "the page's file is given twice (-o %s and "
			                      "--html %s)",
			                      cli_g.output_file, html);
		html = cli_g.output_file;
	}
	if (!html)
		return cli_usage_exit("report",
		                      "missing -o FILE.html (or --html FILE): where the page goes");
	if (!*html || (strcmp(html, "-") && !stat(html, &st) && S_ISDIR(st.st_mode)))
		return cli_usage_exit("report", "--html '%s' is not a file name", html);
	if (keyspace) {
		struct hb_keyspace *ks = NULL;

		rc = hb_keyspace_parse(&ks, keyspace, &err);
		hb_keyspace_free(ks);
		if (rc)
			return cli_usage_exit("report", "--keyspace '%s': %s", keyspace, err.msg);
	}
	if (window_opt && !hotspots)
		return cli_usage_exit("report", "--window needs --hotspots");
	if (window_opt) {
		char *end;

		errno = 0;
		window_s = strtod(window_opt, &end);
		if (*end || end == window_opt || errno || !(window_s >= 0) || window_s > 86400)
			return cli_usage_exit("report", "invalid --window '%s' (seconds, 0..86400)",
			                      window_opt);
	}
	if (count_opt && !simulate)
		return cli_usage_exit("report", "--count goes with --simulate");
	rc = check_plan(x);
	if (rc || !x->table)
		return rc ? rc : check_offline(x);
	if (simulate || servers)
		return cli_usage_exit("report", "--simulate and --servers go with a split set");
	return CLI_EXIT_OK;
}

/* ---------------------------------------------------------------- output */

static void now_iso(char *buf, size_t n)
{
	time_t t = time(NULL);
	struct tm tm;

	if (!gmtime_r(&t, &tm) || !strftime(buf, n, "%Y-%m-%dT%H:%M:%SZ", &tm))
		snprintf(buf, n, "unknown");
}

/* Renders the page and writes it to --html; a line on stdout says where. */
static int write_page(const struct hb_report_input *in, struct hb_error *err)
{
	struct hb_buf page = HB_BUF_INIT, line = HB_BUF_INIT;
	int rc = hb_report_html(&page, in, err);

	if (rc == HB_ENOMEM)
		return hb_error_set(err, HB_ENOMEM, "out of memory");
	if (rc)
		return rc;
	if (!strcmp(html, "-"))
		rc = cli_write_stdout(page.data, page.len) ? HB_EINVAL : 0;
	else
		rc = hb_file_replace(html, page.data, page.len, 0644, err);
	if (!rc && strcmp(html, "-") && cli_g.output == CLI_OUT_JSON) {
		rc = hb_buf_adds(&line, "{\"file\": ");
		rc = rc ? rc : cli_json_strz(&line, html);
		rc = rc ? rc
		        : hb_buf_addf(&line,
		                      ", \"bytes\": %zu, \"regions\": %zu, \"findings\": %zu}\n",
		                      page.len, in->audit->rs.n, in->audit->a.findings.n);
		rc = rc ? hb_error_set(err, HB_ENOMEM, "out of memory")
		     : cli_write_stdout(line.data, line.len) ? HB_EINVAL
		                                             : 0;
	} else if (!rc && strcmp(html, "-") && !cli_g.quiet) {
		printf("wrote %s: %zu regions, %zu findings\n", html, in->audit->rs.n,
		       in->audit->a.findings.n);
	}
	hb_buf_release(&page);
	hb_buf_release(&line);
	return rc;
}

static void input_init(struct hb_report_input *in, const char *subject, int offline,
                       const struct hb_audit_report *a, const char *when)
{
	static const char creator[] = "hbtab " HB_VERSION;

	memset(in, 0, sizeof(*in));
	in->subject = subject;
	in->offline = offline;
	in->creator = creator;
	in->when = when;
	in->audit = a;
	in->measure_load = "--hotspots";
}

/* ---------------------------------------------------------------- a table */

static void audit_opts(struct hb_audit_opts *ao)
{
	memset(ao, 0, sizeof(*ao));
	ao->keyspace = keyspace;
	ao->hotspots = hotspots;
	ao->window = window_s;
	ao->hot = (struct hb_hot_params)HB_HOT_PARAMS_DEFAULT;
	ao->placement_factor = HB_PLACEMENT_FACTOR_DEFAULT;
	ao->thrift = cli_thrift2_channel();
	ao->tell = &cli_tell;
}

/* The given key space into a (canonical form too). */
static int given_keyspace(struct hb_audit_report *a, struct hb_error *err)
{
	if (!keyspace)
		return 0;
	if (hb_keyspace_parse(&a->ks, keyspace, err) || hb_keyspace_format(&a->ks_canon, a->ks))
		return hb_error_set(err, HB_ENOMEM, "out of memory");
	return 0;
}

static const char *step_action(enum hb_repair_action a)
{
	return a == HB_REPAIR_MERGE ? "merge" : a == HB_REPAIR_SPLIT ? "split" : "report";
}

/* repair's plan as the page draws it. */
static int repair_to_report(struct hb_report_plan *out, const struct hb_repair_plan *p,
                            const struct hb_regions *live)
{
	size_t i;

	out->kind = "repair";
	out->before = live;
	out->deferred = p->deferred;
	out->steps = calloc(p->n + 1, sizeof(*out->steps));
	if (!out->steps)
		return HB_ENOMEM;
	for (i = 0; i < p->n; i++) {
		struct hb_report_step *s = &out->steps[i];

		s->action = step_action(p->v[i].action);
		s->finding = p->v[i].finding;
		s->first = p->v[i].first;
		s->n = p->v[i].n;
		s->command = p->v[i].command;
		if (p->v[i].action == HB_REPAIR_SPLIT) {
			s->key = (const unsigned char *)p->v[i].split.data;
			s->key_len = p->v[i].split.len;
		}
	}
	out->nsteps = p->n;
	return hb_report_plan_after(out);
}

/* Which regions of the chain a later round's step over [start, end) lies over. */
static void later_span(const struct hb_regions *live, const struct hb_buf *start,
                       const struct hb_buf *end, size_t *first, size_t *n)
{
	const unsigned char *s, *e;
	size_t sl, el, a = 0, b = live->n;

	if (start->len) {
		a = hb_regions_lower_bound(live, (const unsigned char *)start->data, start->len);
		if (a < live->n)
			hb_regions_bounds(live, a, &s, &sl, &e, &el);
		if (a && (a == live->n || sl != start->len || memcmp(s, start->data, sl)))
			a--;
	}
	if (end->len)
		b = hb_regions_lower_bound(live, (const unsigned char *)end->data, end->len);
	*first = a;
	*n = b > a ? b - a : 1;
}

/* reshape's plan as the page draws it: round 1's steps on the live chain, the later rounds'
 * by their bounds, the keys after the split specification's. */
static int reshape_to_report(struct hb_report_plan *out, const struct hb_reshape_plan *p,
                             const struct hb_regions *live, const struct hb_keys *target)
{
	size_t i, kl;
	int rc = 0;

	out->kind = "reshape";
	out->before = live;
	out->steps = calloc(p->now.n + p->nlater + 1, sizeof(*out->steps));
	if (!out->steps)
		return HB_ENOMEM;
	for (i = 0; i < p->now.n; i++) {
		struct hb_report_step *s = &out->steps[i];
		const struct hb_repair_step *v = &p->now.v[i];

		s->action = step_action(v->action);
		s->finding = v->finding;
		s->first = v->first;
		s->n = v->n;
		s->command = v->command;
		s->round = 1;
		if (v->action == HB_REPAIR_SPLIT) {
			s->key = (const unsigned char *)v->split.data;
			s->key_len = v->split.len;
		}
	}
	for (i = 0; i < p->nlater; i++) {
		struct hb_report_step *s = &out->steps[p->now.n + i];
		const struct hb_reshape_later *l = &p->later[i];

		s->action = step_action(l->action);
		s->finding = l->action == HB_REPAIR_MERGE ? HB_RESHAPE_MERGE : HB_RESHAPE_SPLIT;
		s->round = l->round;
		s->bounded = 1;
		s->takes = l->action == HB_REPAIR_MERGE ? l->n : 1;
		s->start = (const unsigned char *)l->start.data;
		s->start_len = l->start.len;
		s->end = (const unsigned char *)l->end.data;
		s->end_len = l->end.len;
		later_span(live, &l->start, &l->end, &s->first, &s->n);
		if (l->action == HB_REPAIR_SPLIT) {
			s->key = (const unsigned char *)l->split.data;
			s->key_len = l->split.len;
		}
	}
	out->nsteps = p->now.n + p->nlater;
	for (i = 0; !rc && i < target->n; i++) {
		const unsigned char *k = hb_keys_at(target, i, &kl);

		rc = hb_keys_push(&out->after, k, kl);
	}
	return rc;
}

/* TABLE's page with reshape's plan to the split specification given. */
static int report_reshape(struct cli_ctx *x, struct hb_error *err, size_t *findings)
{
	struct hb_reshape_params pp = {HB_RESHAPE_MARGIN, 0, NULL};
	struct cli_reshape_result r;
	struct hb_report_plan plan;
	struct hb_report_input in;
	struct hb_audit_opts ao;
	struct hb_keys target;
	struct hb_buf old_n = HB_BUF_INIT;
	struct hb_metarow m;
	char when[32];
	int rc;

	memset(&m, 0, sizeof(m));
	hb_keys_init(&target);
	hb_report_plan_init(&plan);
	cli_reshape_result_init(&r, x->table);
	audit_opts(&ao);
	now_iso(when, sizeof(when));
	*findings = 0;
	rc = cli_splitspec_needs_cluster(&ss) ? cli_splitspec_prepare(&ss, x->rest, err) : 0;
	if (!rc)
		rc = cli_splitspec_compute(&target, &ss, err);
	if (!rc)
		rc = given_keyspace(&r.sv.audit, err);
	if (!rc)
		rc = cli_reshape_recorded_n(x->rest, &m, x->table, &old_n, &r.old_n, err);
	if (!rc) {
		pp.old_n = r.old_n;
		rc = hb_reshape_survey(&r.plan, &r.sv, x->rest, x->table, &ao, &target, &pp, err);
	}
	cli_progress_done();
	if (!rc && !r.sv.readable) {
		cli_error("cannot read table '%s' completely: %s; nothing planned", x->table,
		          r.sv.why);
		rc = CLI_EXIT_SERVER;
		goto done;
	}
	if (!rc && (rc = cli_reshape_refuse_design(&r)))
		goto done;
	if (!rc && reshape_to_report(&plan, &r.plan, &r.sv.live, &target))
		rc = hb_error_set(err, HB_ENOMEM, "out of memory");
	if (!rc) {
		input_init(&in, x->table, 0, &r.sv.audit, when);
		in.plan = &plan;
		rc = write_page(&in, err);
	}
	*findings = r.sv.audit.a.findings.n;
	rc = cli_regions_status(x->table, rc, err, *findings);
done:
	hb_metarow_release(&m);
	hb_buf_release(&old_n);
	hb_report_plan_release(&plan);
	cli_reshape_result_release(&r);
	hb_keys_release(&target);
	cli_splitspec_release(&ss);
	return rc;
}

static int report_table(struct cli_ctx *x, struct hb_error *err, size_t *findings)
{
	struct hb_repair_params params = {0,   1, hotspots, 10, {HB_SPLIT_RESTRICT_NONE, 0, NULL},
	                                  NULL};
	struct hb_repair_survey sv;
	struct hb_repair_plan rp;
	struct hb_report_plan plan;
	struct hb_report_input in;
	struct hb_audit_opts ao;
	char when[32];
	int rc;

	hb_repair_survey_init(&sv);
	hb_repair_plan_init(&rp);
	hb_report_plan_init(&plan);
	audit_opts(&ao);
	now_iso(when, sizeof(when));
	rc = given_keyspace(&sv.audit, err);
	if (!rc && plan_opt)
		rc = hb_repair_survey(&rp, &sv, x->rest, x->table, &ao, &params, err);
	else if (!rc)
		rc = hb_rest_audit_table(&sv.audit, x->rest, x->table, &ao, err);
	cli_progress_done();
	if (!rc && plan_opt && repair_to_report(&plan, &rp, &sv.live))
		rc = hb_error_set(err, HB_ENOMEM, "out of memory");
	if (!rc) {
		input_init(&in, x->table, 0, &sv.audit, when);
		in.plan = plan_opt ? &plan : NULL;
		rc = write_page(&in, err);
	}
	*findings = sv.audit.a.findings.n;
	hb_report_plan_release(&plan);
	hb_repair_plan_release(&rp);
	hb_repair_survey_release(&sv);
	return rc;
}

/* ---------------------------------------------------------------- a split set */

/* Writes through a simulation of the split set's regions (round-robin on --servers). */
static int simulate_writes(struct hb_simrun *sim, const struct hb_keys *keys, struct hb_error *err)
{
	long count = DEFAULT_COUNT, nserv = 1;
	int64_t seed = 0, t0 = 0;
	struct hb_keygen g;
	size_t i;
	int rc = 0;

	if (count_opt)
		rc = cli_parse_long(count_opt, 1, 1000000000L, "--count", &count, err);
	if (!rc && servers)
		rc = cli_parse_long(servers, 1, 100000, "--servers", &nserv, err);
	if (!rc)
		rc = hb_splitspec_generator_args(&ss, &seed, &t0, err);
	for (i = 0; !rc && i < keys->n; i++) {
		size_t kl;
		const unsigned char *k = hb_keys_at(keys, i, &kl);

		rc = hb_keys_push(&sim->splits, k, kl);
	}
	if (!rc)
		rc = hb_simrun_place_round_robin(sim, (size_t)nserv, err);
	if (!rc)
		rc = hb_simrun_start(sim, NULL, err);
	if (!rc && ss.generator) {
		rc = hb_keygen_init(&g, ss.generator, seed, t0, err);
		if (!rc)
			rc = hb_simrun_generated(sim, &g, (uint64_t)count, 1, err);
		if (!rc)
			hb_keygen_release(&g);
	} else if (!rc) {
		rc = hb_simrun_keyspace(sim, keyspace, "--keyspace", (uint64_t)count, seed, err);
	}
	return rc ? rc : hb_simrun_finish(sim, err);
}

static int report_splits(struct cli_ctx *x, struct hb_error *err, size_t *findings)
{
	struct hb_audit_report a;
	struct hb_report_input in;
	struct hb_report_sim rs = {0};
	struct hb_simrun sim;
	struct hb_buf subject = HB_BUF_INIT;
	struct hb_splitspec spec = ss;
	struct hb_keys keys;
	int rc;

	hb_audit_report_init(&a);
	hb_keys_init(&keys);
	hb_simrun_init(&sim);
	/* --generator, --seed and --start-time drive the simulated writes, and the sample too
	 * when --sampled-splits draws one (as in simulate) */
	if (!ss.sampled || ss.sample_file)
		spec.generator = spec.seed = spec.start_time = NULL;
	rc = given_keyspace(&a, err);
	if (!rc && !x->offline) {
		rc = cli_splitspec_prepare(&spec, x->rest, err);
		cli_progress_done();
	}
	if (!rc)
		rc = cli_splitspec_compute(&keys, &spec, err);
	if (!rc)
		rc = hb_splitspec_write(&subject, &spec, err);
	if (!rc && hb_audit_regions_from_splits(&a.rs, &keys))
		rc = hb_error_set(err, HB_ENOMEM, "out of memory");
	if (!rc && (rc = hb_audit_reach(&a.a, a.ks, &a.rs, err)) == HB_EINVAL && err->msg[0])
		hb_error_prefix(err, rc, "--keyspace '%s'", keyspace);
	if (!rc && hb_audit_chain(&a.a.findings, &a.rs, 0))
		rc = hb_error_set(err, HB_ENOMEM, "out of memory");
	if (!rc)
		hb_findings_sort(&a.a.findings);
	if (!rc && simulate && !(rc = simulate_writes(&sim, &keys, err))) {
		rs.writes = sim.writes;
		rs.n = sim.n;
		rs.total = sim.total;
		rs.source = ss.generator ? ss.generator : "drawn from the key space";
	}
	if (!rc) {
		input_init(&in, hb_buf_str(&subject), 1, &a, NULL);
		in.sim = simulate ? &rs : NULL;
		rc = write_page(&in, err);
	}
	*findings = a.a.findings.n;
	hb_simrun_release(&sim);
	cli_splitspec_release(&spec);
	hb_buf_release(&subject);
	hb_keys_release(&keys);
	hb_audit_report_release(&a);
	return rc;
}

static int run(struct cli_ctx *x)
{
	struct hb_error err = {0};
	size_t findings = 0;
	int rc;

	if (x->table && plan_opt && !strcmp(plan_opt, "reshape"))
		return report_reshape(x, &err, &findings);
	rc = x->table ? report_table(x, &err, &findings) : report_splits(x, &err, &findings);
	if (x->table)
		return cli_regions_status(x->table, rc, &err, findings);
	return cli_status(rc, &err, findings);
}

const struct cli_command cli_cmd_report = {
    .name = "report",
    .summary = "one self-contained HTML page: key-space map, servers, a plan, writes",
    .usage = "report TABLE -o FILE.html [--keyspace SPEC] [--hotspots [--window SEC]] "
             "[--plan repair|reshape " CLI_SPLITSPEC_USAGE "]\n"
             "report " CLI_SPLITSPEC_USAGE " --keyspace SPEC -o FILE.html [--simulate "
             "[--generator G] [--count N] [--servers S]]",
    .opts = opts,
    .args = "TABLE",
    .max_args = 1,
    .flags = CLI_CMD_HBASE | CLI_CMD_TABLE | CLI_CMD_OUTPUT_FILE,
    .check = check,
    .run = run,
};
