/* hbtab audit: reachability, chain integrity, drift and hot-spots of a table or a split set. */
#include "../core/audit.h"
#include "../core/keyspace.h"
#include "../core/splitaudit.h"
#include "../rest/audit.h"
#include "audit_out.h"
#include "cli.h"
#include "commands.h"
#include "exit.h"
#include "prom.h"
#include "rest_cli.h"
#include "splitspec.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_WINDOW 10.0

struct table_opts {
	const char *keyspace, *source, *window, *meta_family, *meta_row, *hot_factor,
	    *hot_min_writes, *placement_factor;
	int hotspots, require_metadata;
};

static struct table_opts o;
static struct cli_prom_opts po;
static const char *servers; /* --servers S: N = auto of a split set, offline */
static struct hb_hot_params hot_params = HB_HOT_PARAMS_DEFAULT;
static double window = DEFAULT_WINDOW;
static double placement_factor = HB_PLACEMENT_FACTOR_DEFAULT;

/* ---------------------------------------------------------------- parse */

/* A number in [min, max] (NaN never is); 0, or -1 when s is not one. */
static int parse_number(const char *s, double min, double max, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (*end || end == s || errno || !(v >= min) || v > max)
		return -1;
	*out = v;
	return 0;
}

/* The table options, checked offline. */
static int check_table_opts(void)
{
	struct hb_error err = {0};

	if (o.placement_factor && parse_number(o.placement_factor, 1, 1e6, &placement_factor))
		return cli_usage_exit("audit", "invalid --placement-factor '%s' (a number >= 1)",
		                      o.placement_factor);
	if (o.source && strcmp(o.source, "meta") && strcmp(o.source, "rest"))
		return cli_usage_exit("audit", "invalid --source '%s' (expected rest or meta)",
		                      o.source);
	if (!o.hotspots && (o.window || o.hot_factor || o.hot_min_writes))
		return cli_usage_exit("audit", "--%s needs --hotspots",
		                      o.window       ? "window"
		                      : o.hot_factor ? "hot-factor"
		                                     : "hot-min-writes");
	if (o.window && parse_number(o.window, 0, 86400, &window))
		return cli_usage_exit("audit", "invalid --window '%s' (seconds, 0..86400)",
		                      o.window);
	if (o.hot_factor && parse_number(o.hot_factor, 1, 1e6, &hot_params.factor))
		return cli_usage_exit("audit", "invalid --hot-factor '%s' (a number >= 1)",
		                      o.hot_factor);
	if (o.hot_min_writes) {
		long v;

		if (cli_parse_long(o.hot_min_writes, 0, 2147483647L, "--hot-min-writes", &v, &err))
			return cli_fail(&err);
		hot_params.min_writes = (uint64_t)v;
	}
	return CLI_EXIT_OK;
}

static struct hb_splitspec ss;
static const struct cli_option opts[] = {
    CLI_STRING(0, "keyspace", &o.keyspace, "SPEC",
               "row-key space, e.g. 'hex{16}', 'u64<20 byte{8}' (default: the metadata "
               "row's)"),
    CLI_CHOICE(0, "source", &o.source, "SRC",
               "rest (/T/regions) or meta (hbase:meta scan, compared with REST)", "rest meta"),
    CLI_FLAG(0, "hotspots", &o.hotspots,
             "measure write hot-spots from /status/cluster request counters"),
    CLI_STRING(0, "window", &o.window, "SEC",
               "seconds between the two counter readings (10; 0 = since region open)"),
    CLI_STRING(0, "hot-factor", &o.hot_factor, "X",
               "flag regions above X times their fair share of writes (2)"),
    CLI_STRING(0, "hot-min-writes", &o.hot_min_writes, "N",
               "... and with at least N writes in the window (100)"),
    CLI_STRING(0, "placement-factor", &o.placement_factor, "X",
               "name servers holding more than ceil(X x an even share) of the table's "
               "regions (1.2)"),
    CLI_STRING(0, "metadata-family", &o.meta_family, "F",
               "family of the metadata row (default: the table's first)"),
    CLI_STRING(0, "metadata-row", &o.meta_row, "ROW", "metadata row key (default: totalPartition)"),
    CLI_FLAG(0, "require-metadata", &o.require_metadata,
             "a table without a metadata row is a finding"),
    CLI_SPLITSPEC_OPTIONS(&ss),
    CLI_STRING(0, "servers", &servers, "S",
               "with N = auto: region servers to count, no server asked (split set only)"),
    CLI_PROM_OPTIONS(&po),
    CLI_END,
};

/* TABLE or a split set, not both; a split set needs --keyspace and is audited offline. */
static int check(struct cli_ctx *x)
{
	if (cli_prom_check("audit", &po))
		return CLI_EXIT_USAGE;
	if (x->table && hb_splitspec_given(&ss))
		return cli_usage_exit("audit",
		                      "give either TABLE or a split specification, not both");
	if (!x->table && !hb_splitspec_given(&ss))
		return cli_usage_exit("audit", "missing TABLE or a split specification");
	if (!x->table) {
		if (!o.keyspace)
			return cli_usage_exit("audit", "auditing a split set needs --keyspace");
		if (cli_prom_wanted(&po))
			return cli_usage_exit("audit",
			                      "--format prometheus and --prom-file need a TABLE");
		if (o.source || o.hotspots || o.window || o.meta_family || o.meta_row ||
		    o.hot_factor || o.hot_min_writes || o.require_metadata || o.placement_factor)
			return cli_usage_exit(
			    "audit", "--source, --hotspots, --window, --hot-*, --placement-factor, "
			             "--metadata-* and --require-metadata need a TABLE");
		/* N = auto: K x --servers, offline; without --servers the cluster counts */
		if (cli_splitspec_check_servers("audit", &ss, servers))
			return CLI_EXIT_USAGE;
		x->offline = !cli_splitspec_needs_cluster(&ss);
		return CLI_EXIT_OK;
	}
	if (servers)
		return cli_usage_exit("audit", "--servers goes with a split set (N = auto)");
	return check_table_opts();
}

/* The given key space into r (canonical form too): 0, or the exit status of a bad one. */
static int parse_keyspace(struct hb_audit_report *r)
{
	struct hb_error err = {0};
	int rc;

	if (!o.keyspace)
		return 0;
	rc = hb_keyspace_parse(&r->ks, o.keyspace, &err);
	if (rc == HB_EINVAL) {
		cli_error("--keyspace '%s': %s", o.keyspace, err.msg);
		return CLI_EXIT_USAGE;
	}
	if (rc || hb_keyspace_format(&r->ks_canon, r->ks)) {
		cli_error("out of memory");
		return CLI_EXIT_SERVER;
	}
	return 0;
}

/* ---------------------------------------------------------------- print */

/* A table's audit in the output format asked for. 0 or HB_E* (a failed write reported). */
static int print_table(const struct hb_audit_report *r)
{
	if (cli_g.output == CLI_OUT_JSON)
		return cli_audit_print_json(r);
	if (cli_g.output == CLI_OUT_PROM) /* --format prometheus: cli_prom_audit prints */
		return 0;
	return cli_audit_print_text(r);
}

/* A split set's audit (w after its count pass) in the output format asked for: the output
 * walks w's other passes. Errors as hb_split_walk_pass, or of a write (reported). */
static int print_splits(struct hb_split_walk *w, const char *ks_canon, struct hb_error *err)
{
	if (cli_g.output == CLI_OUT_JSON)
		return cli_audit_splits_json(w, ks_canon, err);
	return cli_audit_splits_text(w, ks_canon, err);
}

/* ---------------------------------------------------------------- call */

static int audit_table(struct hb_audit_report *r, struct cli_ctx *x)
{
	struct hb_error err = {0};
	struct hb_audit_opts ao;
	int rc;

	memset(&ao, 0, sizeof(ao));
	ao.meta = o.source && !strcmp(o.source, "meta");
	ao.auto_source = !o.source;
	ao.keyspace = o.keyspace;
	ao.meta_family = o.meta_family;
	ao.meta_row = o.meta_row;
	ao.require_metadata = o.require_metadata;
	ao.hotspots = o.hotspots;
	ao.window = window;
	ao.hot = hot_params;
	ao.placement_factor = placement_factor;
	ao.thrift = cli_thrift2_channel();
	ao.tell = &cli_tell;
	cli_prom_arm(&po, "audit", x->table); /* a signal or --deadline: a failed run */
	rc = hb_rest_audit_table(r, x->rest, x->table, &ao, &err);
	cli_progress_done();
	if (!rc)
		rc = print_table(r);
	rc = cli_regions_status(x->table, rc, &err, r->a.findings.n);
	return cli_prom_audit(&po, x->table, &r->a.findings, r->rs.n, r->stored_n, rc);
}

static void walk_progress(void *ctx, size_t done, size_t total)
{
	(void)ctx;
	cli_progress("auditing regions", done, total);
}

/* A planned split set, audited offline (N = auto and --sample-table ask the cluster first). */
static int audit_splits(struct hb_audit_report *r, struct cli_ctx *x)
{
	const char *canon = hb_buf_str(&r->ks_canon);
	struct hb_error err = {0};
	struct hb_split_walk w;
	struct hb_keys keys;
	int rc;

	hb_keys_init(&keys);
	hb_split_walk_init(&w, &keys, r->ks);
	w.progress = walk_progress;
	rc = x->offline ? 0 : cli_splitspec_prepare(&ss, x->rest, &err);
	if (!rc)
		rc = cli_splitspec_compute(&keys, &ss, &err);
	if (!rc) {
		rc = hb_split_walk_pass(&w, HB_WALK_COUNT, &err);
		cli_progress_done();
		if (!rc)
			rc = print_splits(&w, canon, &err);
		if (rc == HB_EINVAL && err.msg[0]) /* the key space could not be evaluated */
			hb_error_prefix(&err, rc, "--keyspace '%s'", canon);
	}
	rc = cli_status(rc, &err, w.nf);
	hb_split_walk_release(&w);
	hb_keys_release(&keys);
	return rc;
}

static int run(struct cli_ctx *x)
{
	struct hb_audit_report r;
	int rc;

	hb_audit_report_init(&r);
	rc = parse_keyspace(&r);
	if (!rc)
		rc = x->table ? audit_table(&r, x) : audit_splits(&r, x);
	hb_audit_report_release(&r);
	return rc;
}

const struct cli_command cli_cmd_audit = {
    .name = "audit",
    .summary = "find unreachable regions, chain defects, drift and hot-spots",
    .usage = "audit TABLE [--keyspace SPEC] [--source rest|meta] [--hotspots [--window "
             "SEC]] " CLI_PROM_USAGE "\n"
             "audit " CLI_SPLITSPEC_USAGE " --keyspace SPEC",
    .opts = opts,
    .args = "TABLE",
    .max_args = 1,
    .flags = CLI_CMD_HBASE | CLI_CMD_TABLE,
    .check = check,
    .run = run,
};
