/* hbtab repair: plan (and with --apply carry out) the merges and splits that fix a table's
 * regions: unreachable or empty ones merged into a neighbour, hot ones split. */
#include "../core/audit.h"
#include "../core/keyspace.h"
#include "../core/regioninfo.h"
#include "../core/repair.h"
#include "../rest/hbase.h"
#include "../rest/metarow.h"
#include "../rest/repair.h"
#include "../rest/shellrun.h"
#include "cli.h"
#include "commands.h"
#include "ddl.h"
#include "exit.h"
#include "output.h"
#include "prom.h"
#include "repair_out.h"
#include "rest_cli.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_MAX_STEPS 10
#define DEFAULT_WAIT      60.0

static const char *keyspace_opt, *min_regions_opt, *max_steps_opt, *via_opt, *wait_opt, *window_opt;
static int empty, split_hot, apply;

static struct hb_repair_params params = {
    0, 1, 0, DEFAULT_MAX_STEPS, {HB_SPLIT_RESTRICT_NONE, 0, NULL}, NULL};
static double wait_s = DEFAULT_WAIT, window_s = 10.0;
static int print_only;
static struct cli_prom_opts po;

static const struct cli_option opts[] = {
    CLI_STRING(0, "keyspace", &keyspace_opt, "SPEC",
               "row-key space (default: the metadata row's); regions no key reaches are merged"),
    CLI_FLAG(0, "empty", &empty, "also merge runs of regions that hold no data"),
    CLI_STRING(0, "min-regions", &min_regions_opt, "K",
               "with --empty: never fewer than K regions (1)"),
    CLI_FLAG(0, "split-hot", &split_hot,
             "split write hot-spots at the median of a key sample drawn from the region"),
    CLI_STRING(0, "window", &window_opt, "SEC",
               "with --split-hot: seconds between the counter readings (10; 0 = since open)"),
    CLI_FLAG(0, "apply", &apply, "carry the plan out through the hbase shell, then audit again"),
    CLI_CHOICE(0, "via", &via_opt, "CHANNEL",
               "auto or shell (run the steps), print (the shell script only)", "auto shell print"),
    CLI_STRING(0, "max-steps", &max_steps_opt, "K", "at most K merges and splits in one run (10)"),
    CLI_STRING(0, "wait", &wait_opt, "SEC", "how long a step's result may take to show (60)"),
    CLI_PROM_OPTIONS(&po),
    CLI_END,
};

static int check(struct cli_ctx *x)
{
	struct hb_error err = {0};
	long v;

	(void)x;
	if (cli_prom_check("repair", &po))
		return CLI_EXIT_USAGE;
	if (min_regions_opt && !empty)
		return cli_usage_exit("repair", "--min-regions needs --empty");
	if (window_opt && !split_hot)
		return cli_usage_exit("repair", "--window needs --split-hot");
	if (min_regions_opt) {
		if (cli_parse_long(min_regions_opt, 1, 2147483647L, "--min-regions", &v, &err))
			return cli_fail(&err);
		params.min_regions = (size_t)v;
	}
	if (max_steps_opt) {
		if (cli_parse_long(max_steps_opt, 1, 100000, "--max-steps", &v, &err))
			return cli_fail(&err);
		params.max_steps = (size_t)v;
	}
	if (wait_opt) {
		if (cli_parse_long(wait_opt, 0, 86400, "--wait", &v, &err))
			return cli_fail(&err);
		wait_s = (double)v;
	}
	if (window_opt) {
		char *end;

		errno = 0;
		window_s = strtod(window_opt, &end);
		if (*end || end == window_opt || errno || !(window_s >= 0) || window_s > 86400)
			return cli_usage_exit("repair", "invalid --window '%s' (seconds, 0..86400)",
			                      window_opt);
	}
	if (cli_ddl_via_steps("repair", via_opt, apply, &print_only))
		return CLI_EXIT_USAGE;
	if (print_only && cli_prom_stdout(&po))
		return cli_usage_exit("repair", "--via print writes the script on standard output: "
		                                "use --prom-file for the gauges");
	if (keyspace_opt) {
		struct hb_keyspace *ks = NULL;
		int rc = hb_keyspace_parse(&ks, keyspace_opt, &err);

		hb_keyspace_free(ks);
		if (rc == HB_EINVAL)
			return cli_usage_exit("repair", "--keyspace '%s': %s", keyspace_opt,
			                      err.msg);
		if (rc)
			return cli_fail(&err);
	}
	params.empty = empty;
	params.split_hot = split_hot;
	return CLI_EXIT_OK;
}

/* ---------------------------------------------------------------- reading the table */

/* Reads and plans TABLE into sv and plan (the audit's options from this command's). */
static int survey(struct hb_rest *c, const char *table, struct hb_repair_survey *sv,
                  const struct hb_repair_params *pp, struct hb_repair_plan *plan,
                  struct hb_error *err)
{
	struct hb_audit_opts ao;
	int rc = 0;

	memset(&ao, 0, sizeof(ao));
	ao.keyspace = keyspace_opt;
	ao.hotspots = pp->split_hot;
	ao.window = window_s;
	ao.hot = (struct hb_hot_params)HB_HOT_PARAMS_DEFAULT;
	ao.placement_factor = HB_PLACEMENT_FACTOR_DEFAULT;
	ao.thrift = cli_thrift2_channel();
	ao.tell = &cli_tell;
	if (keyspace_opt && (hb_keyspace_parse(&sv->audit.ks, keyspace_opt, err) ||
	                     hb_keyspace_format(&sv->audit.ks_canon, sv->audit.ks)))
		rc = hb_error_set(err, HB_ENOMEM, "out of memory");
	if (!rc)
		rc = hb_repair_survey(plan, sv, c, table, &ao, pp, err);
	cli_progress_done();
	return rc;
}

/* ---------------------------------------------------------------- applying */

/* Every step and its outcome on stderr, so that an interrupted run can be followed up. */
static void log_step(void *ctx, const struct hb_repair_plan *p, size_t step, int done, int rc,
                     const struct hb_error *err)
{
	const struct hb_repair_step *s = &p->v[step];
	size_t k, nth = 0;

	(void)ctx;
	for (k = 0; k <= step; k++)
		nth += p->v[k].action != HB_REPAIR_REPORT;
	if (!done && !cli_g.quiet)
		fprintf(stderr, "hbtab: step %zu/%zu (%s): %s\n", nth, p->steps, s->finding,
		        s->command);
	else if (done && !rc && !cli_g.quiet)
		fprintf(stderr, "hbtab: step %zu/%zu done\n", nth, p->steps);
	else if (done && rc) /* the run's error: not printed again at the end */
		cli_error("step %zu/%zu failed: %s", nth, p->steps, err->msg);
}

/* Nothing is changed on a table in transition or with a broken region chain: exit 5. */
static int refuse(const struct cli_repair_result *r)
{
	size_t i;

	if (!r->sv.settled) {
		cli_error("refusing to change table '%s': %s; rerun when it has settled", r->table,
		          r->sv.why);
		return CLI_EXIT_REFUSED;
	}
	for (i = 0; i < r->plan.n; i++)
		if (r->plan.v[i].action == HB_REPAIR_REPORT && !r->plan.v[i].n) {
			cli_error("refusing to change table '%s': its region chain is broken (%s); "
			          "fix hbase:meta first",
			          r->table, r->plan.v[i].finding);
			return CLI_EXIT_REFUSED;
		}
	return 0;
}

static int do_apply(struct hb_rest *c, struct cli_repair_result *r, struct hb_error *err)
{
	struct hb_repair_apply a;
	struct hb_repair_params again = params;
	int rc;

	memset(&a, 0, sizeof(a));
	a.table = r->table;
	a.shell = cli_ddl_shell_command();
	a.timeout = cli_g.timeout + wait_s;
	a.wait = wait_s;
	a.log = log_step;
	a.tell = &cli_tell;
	rc = hb_repair_run(c, &a, &r->sv.live, &r->plan, err);
	r->done = a.done;
	r->applied = 1;
	if (rc)
		return rc;
	/* audit again; a split is judged by its key being a boundary (a hot-spot needs a new
	 * window of writes to be measured). What is left open is named by this audit's
	 * regions: the steps changed the indexes of the first one. */
	again.split_hot = 0;
	rc = survey(c, r->table, &r->again, &again, &r->after, err);
	r->read_again = !rc;
	r->fixed = !rc && r->again.readable && !r->after.n && !r->plan.deferred;
	return rc;
}

/* --format prometheus, --prom-file: what this run planned and did; the status to exit with. */
static int report_prom(const struct cli_repair_result *r, int status)
{
	struct cli_prom_repair pr;

	pr.plan = r->sv.readable ? &r->plan : NULL;
	/* after --apply, the regions the steps left (the audit after them) */
	pr.regions = r->read_again ? r->again.live.n : r->sv.live.n;
	pr.done = r->done;
	pr.open = r->applied && r->plan.steps ? r->after.n : r->plan.n;
	return cli_prom_repair(&po, r->table, &pr, status);
}

static int run(struct cli_ctx *x)
{
	struct hb_error err = {0};
	struct cli_repair_result r;
	int rc;

	cli_repair_result_init(&r, x->table);
	cli_prom_arm(&po, "repair", x->table); /* a signal or --deadline: a failed run */
	rc = survey(x->rest, x->table, &r.sv, &params, &r.plan, &err);
	if (rc) {
		rc = cli_regions_status(x->table, rc, &err, 0);
		goto done;
	}
	if (!r.sv.readable) {
		cli_error("cannot read table '%s' completely: %s; nothing planned", r.table,
		          r.sv.why);
		/* -o json: the document says so (readable false), with no step */
		rc = cli_repair_print(&r, params.max_steps) ? CLI_EXIT_SERVER : CLI_EXIT_FINDINGS;
		goto done;
	}
	if (print_only) {
		struct hb_buf b = HB_BUF_INIT;

		/* -o json: the plan's document with the script in it */
		rc = hb_repair_script(&b, r.table, &r.sv.live, &r.plan);
		if (!rc && cli_g.output == CLI_OUT_JSON) {
			r.script = hb_buf_str(&b);
			rc = cli_repair_print(&r, params.max_steps);
		} else if (!rc) {
			rc = cli_write_stdout(b.data, b.len);
		}
		rc = rc ? CLI_EXIT_SERVER : r.plan.n ? CLI_EXIT_FINDINGS : CLI_EXIT_OK;
		r.script = NULL;
		hb_buf_release(&b);
		goto done;
	}
	if (apply && (r.plan.steps || !r.sv.settled)) {
		rc = refuse(&r);
		if (rc)
			goto done;
		if (cli_ddl_shell_usable(&err)) {
			rc = cli_fail(&err);
			goto done;
		}
		rc = do_apply(x->rest, &r, &err);
		if (rc) {
			cli_repair_print(&r, params.max_steps);
			/* a failed step was reported as it ended (log_step) */
			rc = r.done < r.plan.steps ? cli_exit(err.code ? err.code : HB_ESERVER)
			                           : cli_fail(&err);
			goto done;
		}
	} else if (apply) {
		r.applied = 1;
		r.fixed = !r.plan.n;
	}
	rc = cli_repair_print(&r, params.max_steps);
	if (rc)
		rc = cli_exit(rc);
	else if (apply)
		rc = r.fixed ? CLI_EXIT_OK : CLI_EXIT_FINDINGS;
	else
		rc = r.plan.n || !r.sv.settled ? CLI_EXIT_FINDINGS : CLI_EXIT_OK;
	if (!apply && !r.sv.settled)
		cli_warn("table '%s': %s; nothing was proven empty", r.table, r.sv.why);
done:
	rc = report_prom(&r, rc);
	cli_repair_result_release(&r);
	return rc;
}

const struct cli_command cli_cmd_repair = {
    .name = "repair",
    .summary = "plan and apply the merges and splits that fix a table's regions",
    .usage = "repair TABLE [--keyspace SPEC] [--empty [--min-regions K]] [--split-hot "
             "[--window SEC]] [--apply] [--via auto|shell|print] [--max-steps K] [--wait "
             "SEC] " CLI_PROM_USAGE,
    .opts = opts,
    .args = "TABLE",
    .min_args = 1,
    .max_args = 1,
    .flags = CLI_CMD_HBASE | CLI_CMD_TABLE | CLI_CMD_WRITES,
    .check = check,
    .run = run,
};
