/* hbtab simulate: how a row-key design spreads writes over regions, and how regions grow and
 * split under a split policy, before any table exists. */
#include "../core/clock.h"
#include "../core/keygen.h"
#include "../core/par.h"
#include "../core/simrun.h"
#include "../rest/hbase.h"
#include "cli.h"
#include "commands.h"
#include "exit.h"
#include "output.h"
#include "rest_cli.h"
#include "simulate_report.h"
#include "splitspec.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] = "simulate (" CLI_SPLITSPEC_USAGE
                            " | --table T) (--generator G | --keys-file FILE | --keyspace SPEC) "
                            "[--count N] [--threads K] [--seed S] [--start-time MS] [--servers S] "
                            "[--policy P [--row-size B] [--flush-size B] [--max-filesize B]]";

#define DEFAULT_COUNT 1000000L
#define MAX_COUNT     1000000000000LL /* 10^12 writes */
#define MAX_THREADS   64
#define MAX_SERVERS   100000

struct sim_opts {
	const char *table, *keys_file, *keyspace, *count, *threads, *servers;
	const char *policy, *row_size, *flush_size, *max_filesize;
};

/* The flags, parsed. */
struct settings {
	long count, threads, servers;
	int64_t seed, t0;
	struct hb_sim_config cfg;
	struct hb_keygen g; /* with --generator */
	const char *source; /* what the keys are, for the report */
};

static struct hb_splitspec ss;
static struct sim_opts o;
static struct hb_splitspec spec; /* the spec as the simulation reads it */
static int gen_for_sample, have_gen;

/* ---------------------------------------------------------------- running */

/* Progress for runs longer than a second (the indicator itself is terminal-only). */
static double t_start;

static void progress(void *arg, uint64_t done, uint64_t total)
{
	(void)arg;
	if (hb_now() - t_start >= 1.0)
		cli_progress("simulating", (size_t)done, (size_t)total);
}

/* The sizes as the options that set them, for core's messages. */
static const struct hb_sim_names size_names = {"--row-size", "--flush-size", "--max-filesize"};

static int parse(struct settings *st, struct hb_error *err)
{
	int rc = 0;

	memset(st, 0, sizeof(*st));
	st->count = DEFAULT_COUNT;
	st->threads = st->servers = 1;
	if (o.count)
		rc = cli_parse_long(o.count, 1, (long)MAX_COUNT, "--count", &st->count, err);
	if (!rc && o.threads)
		rc = cli_parse_long(o.threads, 1, MAX_THREADS, "--threads", &st->threads, err);
	if (!rc && o.servers)
		rc = cli_parse_long(o.servers, 1, MAX_SERVERS, "--servers", &st->servers, err);
	if (!rc)
		rc = hb_splitspec_generator_args(&ss, &st->seed, &st->t0, err);
	if (!rc)
		rc = hb_sim_config_parse(&st->cfg, o.policy, o.row_size, o.flush_size,
		                         o.max_filesize, &size_names, err);
	if (!rc && have_gen)
		rc = hb_keygen_init(&st->g, ss.generator, st->seed, st->t0, err);
	if (!rc && o.policy && o.keyspace)
		rc =
		    hb_error_set(err, HB_EINVAL,
		                 "--policy needs the keys themselves (--generator or --keys-file); "
		                 "--keyspace gives region shares only");
	if (o.keys_file && !o.count)
		st->count = (long)MAX_COUNT;
	st->source = have_gen ? ss.generator : o.keys_file ? "keys-file" : "keyspace";
	return rc;
}

/* The live table's regions and servers, and with --policy its own sizes (they count unless a
 * flag says otherwise: HBase's table attribute wins over the site configuration when it is
 * positive). 0, an exit status > 0 (already reported), or a negative code. */
static int place_table(struct hb_simrun *run, struct settings *st, struct hb_rest *c,
                       struct hb_error *err)
{
	struct hb_regions rs;
	int rc;

	hb_regions_init(&rs);
	rc = cli_rest_regions(c, o.table, 0, &rs, NULL, err);
	if (!rc && o.policy) {
		struct hb_schema sc;

		hb_schema_init(&sc);
		rc = hb_rest_get_schema(c, o.table, &sc, err);
		cli_progress_done();
		hb_simrun_table_sizes(run, &sc);
		hb_schema_release(&sc);
	}
	if (!rc)
		rc = hb_simrun_place_table(run, &rs, o.table, err);
	hb_regions_release(&rs);
	if (!rc && !o.max_filesize && run->table_max_filesize)
		st->cfg.max_filesize = run->table_max_filesize;
	if (!rc && !o.flush_size && run->table_flush_size)
		st->cfg.flush_size = run->table_flush_size;
	return rc;
}

/* The regions the split specification makes, placed round-robin. N = auto counts --servers
 * when given (the simulation is offline), else the cluster's live servers; --sample-table
 * reads the live table. */
static int place_spec(struct hb_simrun *run, const struct settings *st, struct cli_ctx *x,
                      struct hb_error *err)
{
	int rc = 0;

	if (!x->offline) {
		rc = cli_splitspec_prepare(&spec, x->rest, err);
		cli_progress_done();
	}
	if (!rc && o.servers)
		spec.live_servers = st->servers;
	spec.threads = (size_t)st->threads; /* the sample made by --threads threads */
	if (!rc)
		rc = cli_splitspec_compute(&run->splits, &spec, err);
	cli_splitspec_release(&spec);
	if (rc)
		return rc;
	return hb_simrun_place_round_robin(run, (size_t)st->servers, err);
}

/* Replays the keys of --keys-file, up to limit. */
static int run_keys_file(struct hb_simrun *run, const char *path, uint64_t limit,
                         struct hb_error *err)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
	const char *name = strcmp(path, "-") ? path : "stdin";
	char *line = NULL;
	size_t cap = 0;
	ssize_t got;
	uint64_t lineno = 0;
	int rc = 0;

	if (!f)
		return hb_error_set(err, HB_EINVAL, "cannot open '%s': %s", path, strerror(errno));
	while (!rc && run->count < limit && (got = getline(&line, &cap, f)) >= 0) {
		rc = hb_simrun_key_line(run, line, (size_t)got, name, ++lineno, err);
		if (!(lineno & 0xFFFF))
			progress(NULL, lineno, 0);
	}
	if (!rc && ferror(f))
		rc = hb_error_set(err, HB_EINVAL, "cannot read '%s': %s", path, strerror(errno));
	if (!rc && !run->count)
		rc = hb_error_set(err, HB_EINVAL, "%s: no keys", name);
	free(line);
	if (f != stdin)
		fclose(f);
	return rc;
}

/* Places the regions and makes the writes: 0, an exit status > 0 (already reported), or a
 * negative code. */
static int simulate(struct hb_simrun *run, struct settings *st, struct cli_ctx *x,
                    struct hb_error *err)
{
	int rc = o.table ? place_table(run, st, x->rest, err) : place_spec(run, st, x, err);

	if (!rc) {
		st->cfg.seed = st->seed;
		rc = hb_simrun_start(run, o.policy ? &st->cfg : NULL, err);
	}
	run->progress = cli_progress_shown() ? progress : NULL;
	if (!rc && have_gen)
		rc =
		    hb_simrun_generated(run, &st->g, (uint64_t)st->count, (size_t)st->threads, err);
	else if (!rc && o.keys_file)
		rc = run_keys_file(run, o.keys_file, (uint64_t)st->count, err);
	else if (!rc)
		rc = hb_simrun_keyspace(run, o.keyspace, "--keyspace", (uint64_t)st->count,
		                        st->seed, err);
	cli_progress_done();
	return rc;
}

/* ---------------------------------------------------------------- the command */

static const struct cli_option opts[] = {
    CLI_GROUP("Regions"),
    CLI_STRING(0, "table", &o.table, "T",
               "take boundaries and server locations from a live table (REST)"),
    CLI_STRING(0, "servers", &o.servers, "S",
               "region servers; regions placed round-robin (1; --table: live locations)"),
    CLI_GROUP("Keys (one source; --generator, --seed and --start-time are listed below)"),
    CLI_INFILE(0, "keys-file", &o.keys_file,
               "replay keys, one toStringBinary key per line ('-' = stdin)"),
    CLI_STRING(0, "keyspace", &o.keyspace, "SPEC", "draw keys uniformly from a key space"),
    CLI_STRING(0, "count", &o.count, "N", "writes to simulate (1000000; keys file: all)"),
    CLI_STRING(0, "threads", &o.threads, "K", "threads for generated keys (1)"),
    CLI_GROUP("Split policy"),
    CLI_SUGGEST(0, "policy", &o.policy, "P",
                "stepping, increasing, constant, keyprefix:L, delimited:D or disabled",
                "stepping increasing constant keyprefix: delimited: disabled"),
    CLI_STRING(0, "row-size", &o.row_size, "B", "bytes each write adds (1024)"),
    CLI_STRING(0, "flush-size", &o.flush_size, "B", "memstore flush size (128M)"),
    CLI_STRING(0, "max-filesize", &o.max_filesize, "B", "region max file size (10G)"),
    CLI_SPLITSPEC_OPTIONS(&ss),
    CLI_END,
};

/* The option combinations, offline; a live --table or N = auto from the cluster connects. */
static int check(struct cli_ctx *x)
{
	/* --generator, --seed and --start-time drive the written keys, and the sample too when
	 * --sampled-splits draws one */
	spec = ss;
	gen_for_sample = ss.sampled && !ss.sample_file;
	if (!gen_for_sample)
		spec.generator = spec.seed = spec.start_time = NULL;
	if (!o.table == !hb_splitspec_given(&spec))
		return cli_usage_exit(
		    "simulate", o.table ? "give either --table or a split specification, not both"
		                        : "missing a split specification or --table");
	if (o.keys_file && o.keyspace)
		return cli_usage_exit("simulate",
		                      "--keys-file and --keyspace cannot be used together");
	if (ss.generator && (o.keys_file || o.keyspace) && !gen_for_sample)
		return cli_usage_exit("simulate", "--generator cannot be used with --%s",
		                      o.keys_file ? "keys-file" : "keyspace");
	if (!ss.generator && !o.keys_file && !o.keyspace)
		return cli_usage_exit(
		    "simulate",
		    "missing the keys: --generator G, --keys-file FILE or --keyspace SPEC");
	have_gen = ss.generator && !o.keys_file && !o.keyspace;
	if (o.threads && !have_gen)
		return cli_usage_exit("simulate", "--threads goes with --generator");
	if ((ss.start_time && !ss.generator) || (ss.seed && !ss.generator && !o.keyspace))
		return cli_usage_exit("simulate", "--%s goes with --generator%s",
		                      ss.seed ? "seed" : "start-time",
		                      ss.seed ? " or --keyspace" : "");
	if (!o.policy && (o.row_size || o.flush_size || o.max_filesize))
		return cli_usage_exit("simulate",
		                      "--row-size, --flush-size and --max-filesize need --policy");
	if (o.servers && o.table)
		return cli_usage_exit(
		    "simulate", "--servers cannot be used with --table (the live locations count)");
	if (o.table && cli_check_table("simulate", o.table))
		return CLI_EXIT_USAGE;
	x->offline =
	    !o.table && !(cli_splitspec_needs_cluster(&spec) && (spec.sample_table || !o.servers));
	return CLI_EXIT_OK;
}

static int run(struct cli_ctx *x)
{
	struct hb_error err = {0};
	struct hb_simrun sim;
	struct settings st;
	int rc = parse(&st, &err);

	if (rc) {
		cli_usage_error("simulate", "%s", err.msg);
		return CLI_EXIT_USAGE;
	}
	/* the workers start while the splits and the sample are being set up */
	if (st.threads > 1)
		hb_par_start((size_t)st.threads - 1);
	hb_simrun_init(&sim);
	t_start = hb_now();
	rc = simulate(&sim, &st, x, &err);
	if (!rc)
		rc = hb_simrun_finish(&sim, &err);
	if (!rc) {
		rc = cli_simulate_report(&sim, st.source);
		if (rc == HB_ENOMEM)
			rc = hb_error_set(&err, HB_ENOMEM, "out of memory");
		else if (rc)
			rc = CLI_EXIT_USAGE; /* the write error was reported */
	}
	if (rc < 0)
		rc = cli_fail(&err);
	if (have_gen)
		hb_keygen_release(&st.g);
	hb_simrun_release(&sim);
	return rc;
}

const struct cli_command cli_cmd_simulate = {
    .name = "simulate",
    .summary = "simulate write distribution and region splits of a key design",
    .usage = usage,
    .opts = opts,
    .flags = CLI_CMD_HBASE,
    .check = check,
    .run = run,
};
