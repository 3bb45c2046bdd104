/* hbtab advise: how many regions (N) a table, or a planned split set, should have, and why.
 * Read-only: nothing on the cluster changes. */
#include "../core/advise.h"
#include "../core/keyspace.h"
#include "../core/simulate.h"
#include "../rest/advise.h"
#include "advise_out.h"
#include "advise_spec.h"
#include "cli.h"
#include "commands.h"
#include "exit.h"
#include "rest_cli.h"
#include "splitspec.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MiB             (1024ULL * 1024ULL)
#define SKEW_DRAWS      100000ULL /* keys drawn from a key space for the skew */
#define MAX_SERVERS     100000L
#define MAX_PER_SERVER  1000L
#define MAX_SAMPLE_ROWS 1000000L
/* Above this store size rows are sampled only when --sample-rows asks: the sampler's scan
 * reads every row on the servers. */
#define SAMPLE_LIMIT_MB 10240ULL

static struct hb_splitspec ss;
static const char *servers, *size, *max_filesize, *keyspace;

static const struct cli_option opts[] = {
    CLI_GROUP("Advice"),
    CLI_STRING(0, "servers", &servers, "S", "live region servers (a split specification)"),
    CLI_STRING(0, "size", &size, "BYTES",
               "the table's store size, K/M/G/T suffixes (a split specification)"),
    CLI_STRING(0, "max-filesize", &max_filesize, "BYTES",
               "the size regions split at (a split specification; 10G)"),
    CLI_STRING(0, "keyspace", &keyspace, "SPEC",
               "row-key space the skew is drawn from (default: the metadata row's)"),
    CLI_SPLITSPEC_OPTIONS(&ss),
    CLI_END,
};

/* ---------------------------------------------------------------- the split specification */

/* ---------------------------------------------------------------- the advice */

/* Buckets of the key space's uW<N first field (0 = none), and whether the design's keys
 * hold N (partition or salt splits). */
static void design(struct cli_advice *v, struct hb_splitspec *s, const char *ks_text)
{
	struct hb_keyspace *ks = NULL;
	struct hb_error err = {0};
	unsigned long long n = 0;
	int w;

	v->keys_depend_on_n = s && (s->partition || s->salt);
	if (ks_text && !hb_keyspace_parse(&ks, ks_text, &err) && hb_keyspace_partitions(ks, &n, &w))
		v->buckets = n;
	hb_keyspace_free(ks);
}

/* The skew of the current and the recommended split keys, over the table's sampled rows
 * when there are some, else over keys drawn from the key space. */
static int skew(struct cli_advice *v, const struct hb_keys *now, const struct hb_keys *rec,
                const struct hb_keys *sample, struct hb_error *err)
{
	int rc;

	if (sample && sample->n) {
		rc = hb_advise_skew(&v->skew_now, now, sample, err);
		if (!rc)
			rc = hb_advise_skew(&v->skew_rec, rec, sample, err);
		v->skew_source = "rows";
		v->skew_keys = sample->n;
	} else if (v->keyspace) {
		rc = hb_advise_skew_keyspace(&v->skew_now, now, v->keyspace, "--keyspace",
		                             SKEW_DRAWS, 0, err);
		if (!rc)
			rc = hb_advise_skew_keyspace(&v->skew_rec, rec, v->keyspace, "--keyspace",
			                             SKEW_DRAWS, 0, err);
		v->skew_source = "keyspace";
		v->skew_keys = SKEW_DRAWS;
	} else {
		return 0;
	}
	v->have_skew = !rc;
	return rc;
}

/* The rule over the inputs in v, the recommended specification (when s can take N) with
 * its split keys in rec, and both sets of costs. */
static int decide(struct cli_advice *v, struct hb_splitspec *s, uint64_t n_now, struct hb_keys *rec,
                  struct hb_error *err)
{
	struct hb_advise_in in;
	int rc;

	memset(&in, 0, sizeof(in));
	in.servers = v->servers;
	in.size = v->size;
	in.split_size = v->split_size;
	in.per_server = v->per_server;
	in.buckets = v->buckets;
	rc = hb_advise_compute(&v->a, &in, err);
	if (!rc && s && hb_splitspec_n_field(s)) {
		struct hb_error kerr = {0};

		/* the rule once more, with the most regions the specification can make */
		in.n_max = cli_advise_expressible(s, v->a.n);
		if (!cli_advise_keys_at(rec, s, in.n_max, &kerr)) {
			struct hb_splitspec t = *s;
			char num[32];

			rc = hb_advise_compute(&v->a, &in, err);
			hb_splitspec_with_n(&t, v->a.n, num, sizeof(num));
			if (!rc)
				rc = hb_splitspec_write(&v->spec_rec, &t, err);
		} else {
			hb_keys_clear(rec);
			v->spec_note = "The split specification does not compute: N only.";
		}
	} else if (!rc && !v->spec_note) {
		v->spec_note = "A splits file fixes N: give an algorithm to have one recommended.";
	}
	hb_advise_cost(&v->now, n_now, v->servers, v->size, v->split_size);
	hb_advise_cost(&v->rec, v->a.n, v->servers, v->size, v->split_size);
	return rc;
}

/* K: --regions-per-server, HB_ADVISE_PER_SERVER without it. */
static int per_server(struct cli_advice *v, const char *k, struct hb_error *err)
{
	long n = HB_ADVISE_PER_SERVER;
	int rc = k ? cli_parse_long(k, 1, MAX_PER_SERVER, "--regions-per-server", &n, err) : 0;

	v->per_server = (uint64_t)n;
	return rc;
}

/* advise SPLITSPEC --servers S --size BYTES: offline. */
static int advise_spec(struct cli_advice *v, struct hb_keys *now, struct hb_keys *rec,
                       struct hb_error *err)
{
	struct hb_splitspec s = ss;
	long n;
	int rc;

	const char **f = hb_splitspec_n_field(&s);

	if (f && strcmp(*f, "auto"))
		s.regions_per_server = NULL; /* K of the rule only, N is given */
	rc = cli_parse_long(servers, 1, MAX_SERVERS, "--servers", &n, err);
	v->servers = (uint64_t)n;
	if (!rc)
		rc = hb_sim_parse_size(size, "--size", 0, UINT64_MAX / 2, &v->size, err);
	v->split_size = HB_SIM_DEFAULT_MAX_FILESIZE;
	if (!rc && max_filesize)
		rc = hb_sim_parse_size(max_filesize, "--max-filesize", 1, UINT64_MAX / 2,
		                       &v->split_size, err);
	if (!rc)
		rc = per_server(v, ss.regions_per_server, err);
	v->servers_from = "--servers";
	v->split_from = max_filesize ? "--max-filesize" : "hbase.hregion.max.filesize default";
	if (!rc && hb_buf_adds(&v->size_from, "--size"))
		rc = HB_ENOMEM;
	if (!rc)
		rc = cli_splitspec_set_servers(&s, servers, err);
	if (!rc)
		rc = cli_splitspec_compute(now, &s, err);
	if (!rc && !(rc = hb_splitspec_write(&v->spec_now, &s, err))) {
		v->keyspace = keyspace;
		design(v, &s, keyspace);
		rc = decide(v, &s, now->n + 1, rec, err);
	}
	if (!rc && v->spec_rec.len)
		rc = skew(v, now, rec, NULL, err);
	return rc;
}

/* The table's recorded specification, else (rows sampled) quantiles of its rows. */
static struct hb_splitspec *table_spec(struct cli_advice *v, struct hb_splitspec *s,
                                       struct hb_buf *words, struct hb_advise_table *t,
                                       const char *table)
{
	if (t->stored_splits && !hb_splitspec_read(s, words, t->stored_splits)) {
		if (s->sample_table)
			s->table_keys = &t->sample; /* the rows just sampled, not a second read */
		if (s->sample_file || s->splits_file)
			v->spec_note = "The recorded split specification reads a file: N only.";
		else
			return s;
		return NULL;
	}
	if (!t->sample.n) {
		v->spec_note = "The table records no split specification and holds no row: N only.";
		return NULL;
	}
	memset(s, 0, sizeof(*s));
	s->sampled = "1";
	s->sample_table = table;
	s->table_keys = &t->sample;
	return s;
}

/* advise TABLE: every input read from the cluster. */
static int advise_table(struct cli_advice *v, struct cli_ctx *x, struct hb_keys *rec,
                        struct hb_error *err)
{
	struct hb_advise_table t;
	struct hb_splitspec s, *sp;
	struct hb_buf words = HB_BUF_INIT;
	long rows = HB_SPLITSPEC_DEFAULT_SAMPLE_ROWS;
	int rc = per_server(v, ss.regions_per_server, err);

	hb_advise_table_init(&t);
	if (!rc && ss.sample_rows)
		rc =
		    cli_parse_long(ss.sample_rows, 0, MAX_SAMPLE_ROWS, "--sample-rows", &rows, err);
	if (!rc)
		rc = hb_rest_advise_table(&t, x->rest, x->table, (size_t)rows,
		                          ss.sample_rows ? 0 : SAMPLE_LIMIT_MB, err);
	cli_progress_done();
	if (!rc && !t.servers)
		rc = hb_error_set(err, HB_ESERVER, "the cluster reports no live region server");
	if (rc)
		goto done;
	v->servers = t.servers;
	v->servers_from = "/status/cluster";
	v->size = t.store_mb * MiB;
	v->largest = t.largest_mb * MiB;
	if (hb_buf_addf(&v->size_from,
	                "/status/cluster: store files and memstores of %zu of %zu regions (MiB)",
	                t.loads, t.regions)) {
		rc = hb_error_set(err, HB_ENOMEM, "out of memory");
		goto done;
	}
	if (t.sample_skipped)
		v->skew_note = "rows not sampled: the table holds more than 10 GiB and the sampler "
		               "reads every row (--sample-rows M samples anyway)";
	v->split_size = t.max_filesize ? t.max_filesize : HB_SIM_DEFAULT_MAX_FILESIZE;
	v->split_from = t.max_filesize ? "the table's MAX_FILESIZE"
	                               : "hbase.hregion.max.filesize default (no MAX_FILESIZE)";
	v->keyspace = keyspace                                    ? keyspace
	              : t.stored_keyspace && t.stored_keyspace[0] ? t.stored_keyspace
	                                                          : NULL;
	sp = table_spec(v, &s, &words, &t, x->table);
	if (t.stored_splits && hb_buf_adds(&v->spec_now, t.stored_splits))
		rc = hb_error_set(err, HB_ENOMEM, "out of memory");
	design(v, sp, v->keyspace);
	if (!rc)
		rc = decide(v, sp, t.regions, rec, err);
	if (!rc && v->spec_rec.len)
		rc = skew(v, &t.splits, rec, &t.sample, err);
	if (!rc)
		rc = cli_advice_print(v);
	v->keyspace = NULL; /* it may be t's */
done:
	hb_buf_release(&words);
	hb_advise_table_release(&t);
	return rc;
}

/* A split specification given beyond --regions-per-server and --sample-rows, which TABLE
 * takes too. */
static int spec_given(void)
{
	struct hb_splitspec t = ss;

	t.regions_per_server = t.sample_rows = NULL;
	return hb_splitspec_given(&t);
}

/* TABLE, or a split specification with --servers and --size; never both. */
static int check(struct cli_ctx *x)
{
	if (x->table && spec_given())
		return cli_usage_exit("advise",
		                      "give either TABLE or a split specification, not both");
	if (!x->table && !spec_given())
		return cli_usage_exit("advise", "missing TABLE or a split specification");
	if (x->table && (servers || size || max_filesize))
		return cli_usage_exit("advise", "--servers, --size and --max-filesize go with a "
		                                "split specification (TABLE: the cluster's own)");
	if (!x->table && (!servers || !size))
		return cli_usage_exit("advise", "a split specification needs --servers S and "
		                                "--size BYTES");
	if (!x->table && cli_splitspec_needs_cluster(&ss) && ss.sample_table)
		return cli_usage_exit("advise", "--sample-table reads a table: give TABLE instead");
	if (keyspace) {
		struct hb_keyspace *ks = NULL;
		struct hb_error err = {0};
		int rc = hb_keyspace_parse(&ks, keyspace, &err);

		hb_keyspace_free(ks);
		if (rc)
			return cli_usage_exit("advise", "--keyspace '%s': %s", keyspace, err.msg);
	}
	x->offline = !x->table;
	return CLI_EXIT_OK;
}

static int run(struct cli_ctx *x)
{
	struct hb_error err = {0};
	struct cli_advice v;
	struct hb_keys now, rec;
	int rc;

	cli_advice_init(&v);
	v.table = x->table;
	hb_keys_init(&now);
	hb_keys_init(&rec);
	if (x->table) {
		rc = advise_table(&v, x, &rec, &err);
	} else {
		rc = advise_spec(&v, &now, &rec, &err);
		if (rc == HB_EINVAL) {
			hb_keys_release(&now);
			hb_keys_release(&rec);
			cli_advice_release(&v);
			cli_usage_error("advise", "%s", err.msg);
			return CLI_EXIT_USAGE;
		}
		if (!rc)
			rc = cli_advice_print(&v);
	}
	hb_keys_release(&now);
	hb_keys_release(&rec);
	cli_advice_release(&v);
	return cli_regions_status(x->table ? x->table : "", rc, &err, 0);
}

const struct cli_command cli_cmd_advise = {
    .name = "advise",
    .summary = "recommend how many regions a table should have, and show why",
    .usage = "advise TABLE [--regions-per-server K] [--sample-rows M] [--keyspace SPEC]\n"
             "advise " CLI_SPLITSPEC_USAGE " --servers S --size BYTES [--max-filesize BYTES] "
             "[--regions-per-server K] [--keyspace SPEC]",
    .opts = opts,
    .args = "TABLE",
    .max_args = 1,
    .flags = CLI_CMD_HBASE | CLI_CMD_TABLE,
    .check = check,
    .run = run,
};
