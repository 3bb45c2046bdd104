/* hbtab reshape: plan (and with --apply carry out) the splits and merges that move a live
 * table's region boundaries to the ones a split specification computes, then record the new
 * N and split spec in the metadata row. */
#include "../core/bounds.h"
#include "../core/keyspace.h"
#include "../core/metarow.h"
#include "../core/reshape.h"
#include "../rest/metarow.h"
#include "../rest/reshape.h"
#include "../rest/shellrun.h"
#include "cli.h"
#include "commands.h"
#include "ddl.h"
#include "exit.h"
#include "output.h"
#include "reshape_out.h"
#include "rest_cli.h"
#include "splitspec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_MAX_STEPS 1000
#define DEFAULT_WAIT      120.0

static struct hb_splitspec ss;
static const char *keyspace_opt, *max_steps_opt, *via_opt, *wait_opt;
static int apply, print_only;
static size_t max_steps = DEFAULT_MAX_STEPS;
static double wait_s = DEFAULT_WAIT;

static const struct cli_option opts[] = {
    CLI_SPLITSPEC_OPTIONS(&ss),
    CLI_GROUP("Reshape"),
    CLI_STRING(0, "keyspace", &keyspace_opt, "SPEC",
               "row-key space (default: the metadata row's); a partitioned one is refused"),
    CLI_FLAG(0, "apply", &apply,
             "carry the plan out through the hbase shell, verify, record N and the spec"),
    CLI_CHOICE(0, "via", &via_opt, "CHANNEL",
               "auto or shell (run the steps), print (round 1's shell script only)",
               "auto shell print"),
    CLI_STRING(0, "max-steps", &max_steps_opt, "K",
               "at most K merges and splits in one run (1000)"),
    CLI_STRING(0, "wait", &wait_opt, "SEC",
               "how long a step's result, or a blocked region's clearing, may take (120)"),
    CLI_END,
};

static int check(struct cli_ctx *x)
{
	struct hb_error err = {0};
	long v;

	if (!hb_splitspec_given(&ss))
		return cli_usage_exit("reshape",
		                      "a split specification is needed (--hex-splits N, "
		                      "--decimal-splits N, ...): the boundaries to move to");
	if (max_steps_opt) {
		if (cli_parse_long(max_steps_opt, 1, 100000, "--max-steps", &v, &err))
			return cli_fail(&err);
		max_steps = (size_t)v;
	}
	if (wait_opt) {
		if (cli_parse_long(wait_opt, 0, 86400, "--wait", &v, &err))
			return cli_fail(&err);
		wait_s = (double)v;
	}
	if (cli_ddl_via_steps("reshape", via_opt, apply, &print_only))
		return CLI_EXIT_USAGE;
	if (keyspace_opt) {
		struct hb_keyspace *ks = NULL;
		unsigned long long parts;
		int width, rc = hb_keyspace_parse(&ks, keyspace_opt, &err);

		if (!rc && hb_keyspace_partitions(ks, &parts, &width)) {
			hb_keyspace_free(ks);
			cli_error(
			    "refusing to reshape '%s': the key space '%s' starts with a partition "
			    "number (u%d<%llu): " N_IN_KEYS,
			    x->table, keyspace_opt, 8 * width, parts);
			return CLI_EXIT_REFUSED;
		}
		hb_keyspace_free(ks);
		if (rc == HB_EINVAL)
			return cli_usage_exit("reshape", "--keyspace '%s': %s", keyspace_opt,
			                      err.msg);
		if (rc)
			return cli_fail(&err);
	}
	if (ss.partition || ss.salt) {
		cli_error("refusing to reshape '%s' to %s splits: a %s design's " N_IN_KEYS,
		          x->table, ss.partition ? "--partition" : "--salt",
		          ss.partition ? "partition" : "salt");
		return CLI_EXIT_REFUSED;
	}
	return CLI_EXIT_OK;
}

/* ---------------------------------------------------------------- reading the table */

static void audit_opts(struct hb_audit_opts *ao)
{
	memset(ao, 0, sizeof(*ao));
	ao->keyspace = keyspace_opt;
	ao->hot = (struct hb_hot_params)HB_HOT_PARAMS_DEFAULT;
	ao->placement_factor = HB_PLACEMENT_FACTOR_DEFAULT;
	ao->thrift = cli_thrift2_channel();
	ao->tell = &cli_tell;
}

/* ---------------------------------------------------------------- applying */

static void log_step(void *ctx, const struct hb_repair_plan *p, size_t step, int done, int rc,
                     const struct hb_error *err)
{
	const struct hb_repair_step *s = &p->v[step];

	(void)ctx;
	if (!done && !cli_g.quiet)
		fprintf(stderr, "hbtab: step (%s): %s\n", s->finding, s->command);
	else if (done && !rc && cli_g.verbose)
		fprintf(stderr, "hbtab: step done: %s\n", s->command);
	else if (done && rc)
		cli_error("step failed: %s", err->msg);
}

static void log_note(void *ctx, const char *what)
{
	(void)ctx;
	if (!cli_g.quiet)
		fprintf(stderr, "hbtab: %s\n", what);
}

static int do_apply(struct hb_rest *c, struct cli_reshape_result *r, const struct hb_keys *target,
                    const struct hb_reshape_params *pp, struct hb_error *err)
{
	struct hb_reshape_run run;
	struct hb_audit_opts ao;
	int rc;

	memset(&run, 0, sizeof(run));
	audit_opts(&ao);
	run.a.table = r->table;
	run.a.shell = cli_ddl_shell_command();
	run.a.timeout = cli_g.timeout + wait_s;
	run.a.wait = wait_s;
	run.a.log = log_step;
	run.a.tell = &cli_tell;
	run.max_steps = max_steps;
	run.note = log_note;
	r->applied = 1;
	rc = hb_reshape_apply(c, &run, &ao, target, pp, &r->plan, &r->sv, err);
	cli_progress_done();
	r->done = run.done;
	r->rounds = run.rounds;
	r->clears = run.clears;
	r->capped = run.capped;
	return rc;
}

/* Verifies the boundaries and records N and the spec; the exit status. */
static int finish(struct hb_rest *c, struct cli_reshape_result *r, const struct hb_keys *target,
                  struct hb_metarow *m, const struct hb_buf *old_n)
{
	struct hb_error err = {0};
	char n[24];
	int rc = 0;

	r->verified = !r->capped && hb_bounds_equal(&r->sv.live, target);
	if (r->capped) {
		rc = cli_reshape_print(r);
		cli_warn("stopped after --max-steps %zu: rerun to go on", max_steps);
		return rc ? cli_exit(rc) : CLI_EXIT_FINDINGS;
	}
	if (!r->verified) {
		cli_reshape_print(r);
		cli_error("table '%s': its boundaries differ from what %s computes; nothing "
		          "recorded",
		          r->table, r->spec);
		return CLI_EXIT_FINDINGS;
	}
	snprintf(n, sizeof(n), "%zu", target->n + 1);
	if (r->sv.audit.stored_n && !strcmp(r->sv.audit.stored_n, n) && r->sv.audit.stored_splits &&
	    !strcmp(r->sv.audit.stored_splits, r->spec))
		r->record = "present"; /* the row already says so: nothing to write */
	else
		rc = hb_metarow_record_reshape(c, m, old_n->data, old_n->len, target->n + 1,
		                               r->spec, &r->record, &err);
	if (rc) {
		cli_reshape_print(r);
		return cli_fail(&err);
	}
	rc = cli_reshape_print(r);
	return rc ? cli_exit(rc) : CLI_EXIT_OK;
}

static int print_script(struct cli_reshape_result *r)
{
	struct hb_buf b = HB_BUF_INIT;
	int rc = cli_reshape_script(&b, r);

	if (!rc && cli_g.output == CLI_OUT_JSON) {
		r->script = hb_buf_str(&b);
		rc = cli_reshape_print(r);
	} else if (!rc) {
		rc = cli_write_stdout(b.data, b.len);
	}
	r->script = NULL;
	hb_buf_release(&b);
	return rc ? cli_exit(rc) : r->plan.now.n ? CLI_EXIT_FINDINGS : CLI_EXIT_OK;
}

static int run(struct cli_ctx *x)
{
	struct hb_error err = {0};
	struct cli_reshape_result r;
	struct hb_reshape_params pp = {HB_RESHAPE_MARGIN, 0, NULL};
	struct hb_keys target;
	struct hb_buf spec = HB_BUF_INIT, old_n = HB_BUF_INIT;
	struct hb_metarow m;
	struct hb_audit_opts ao;
	int rc;

	memset(&m, 0, sizeof(m));
	hb_keys_init(&target);
	cli_reshape_result_init(&r, x->table);
	rc = cli_splitspec_needs_cluster(&ss) ? cli_splitspec_prepare(&ss, x->rest, &err) : 0;
	if (!rc)
		rc = cli_splitspec_compute(&target, &ss, &err);
	if (!rc && (rc = hb_splitspec_write(&spec, &ss, &err)) == 0 && hb_buf_add(&spec, "", 0))
		rc = hb_error_set(&err, HB_ENOMEM, "out of memory");
	if (rc) {
		rc = cli_fail(&err);
		goto done;
	}
	r.spec = spec.data;
	rc = cli_reshape_recorded_n(x->rest, &m, x->table, &old_n, &r.old_n, &err);
	if (!rc) {
		pp.old_n = r.old_n;
		audit_opts(&ao);
		rc = hb_reshape_survey(&r.plan, &r.sv, x->rest, x->table, &ao, &target, &pp, &err);
		cli_progress_done();
	}
	if (rc) {
		rc = cli_regions_status(x->table, rc, &err, 0);
		goto done;
	}
	r.first_from = r.sv.live.n;
	if (!r.sv.readable) {
		cli_error("cannot read table '%s' completely: %s; nothing planned", r.table,
		          r.sv.why);
		rc = CLI_EXIT_SERVER;
		goto done;
	}
	if ((rc = cli_reshape_refuse_design(&r)))
		goto done;
	if (print_only) {
		rc = print_script(&r);
		goto done;
	}
	if (!apply) {
		rc = cli_reshape_print(&r);
		rc = rc ? cli_exit(rc) : r.plan.now.n ? CLI_EXIT_FINDINGS : CLI_EXIT_OK;
		goto done;
	}
	if (!r.sv.settled) {
		cli_error("refusing to change table '%s': %s; rerun when it has settled", r.table,
		          r.sv.why);
		rc = CLI_EXIT_REFUSED;
		goto done;
	}
	if (r.plan.now.n && cli_ddl_shell_usable(&err)) {
		rc = cli_fail(&err);
		goto done;
	}
	if (r.plan.now.n && do_apply(x->rest, &r, &target, &pp, &err)) {
		cli_reshape_print(&r);
		rc = cli_fail(&err);
		goto done;
	}
	r.applied = 1;
	rc = finish(x->rest, &r, &target, &m, &old_n);
done:
	hb_metarow_release(&m);
	hb_buf_release(&spec);
	hb_buf_release(&old_n);
	hb_keys_release(&target);
	cli_splitspec_release(&ss);
	cli_reshape_result_release(&r);
	return rc;
}

const struct cli_command cli_cmd_reshape = {
    .name = "reshape",
    .summary = "move a live table's region boundaries to a new split design",
    .usage = "reshape TABLE " CLI_SPLITSPEC_USAGE " [--keyspace SPEC] [--apply] [--via "
             "auto|shell|print] [--max-steps K] [--wait SEC]",
    .opts = opts,
    .args = "TABLE",
    .min_args = 1,
    .max_args = 1,
    .flags = CLI_CMD_HBASE | CLI_CMD_TABLE | CLI_CMD_WRITES,
    .check = check,
    .run = run,
};
