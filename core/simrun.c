/* hbtab simulate's run: region placement, the key sources, and the view of the outcome. */
#include "simrun.h"

#include "keypar.h"
#include "keyspace.h"
#include "par.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int nomem(struct hb_error *err)
{
	return hb_error_set(err, HB_ENOMEM, "out of memory");
}

void hb_simrun_init(struct hb_simrun *run)
{
	memset(run, 0, sizeof(*run));
	hb_keys_init(&run->splits);
	hb_buf_init(&run->key, 0);
}

void hb_simrun_release(struct hb_simrun *run)
{
	size_t i;

	hb_keys_release(&run->splits);
	if (run->server_names)
		for (i = 0; i < run->nservers; i++)
			free(run->server_names[i]);
	free(run->server_names);
	free(run->server_of);
	free(run->counts);
	if (run->policy_on)
		hb_sim_release(&run->sim);
	hb_sim_router_release(&run->router);
	hb_buf_release(&run->key);
	free(run->writes);
	free(run->server);
	free(run->lineage);
	free(run->sregions);
	memset(run, 0, sizeof(*run));
}

/* ---------------------------------------------------------------- placement */

int hb_simrun_place_round_robin(struct hb_simrun *run, size_t servers, struct hb_error *err)
{
	size_t i;

	run->nservers = servers ? servers : 1;
	run->server_of = calloc(run->splits.n + 1, sizeof(size_t));
	if (!run->server_of)
		return nomem(err);
	for (i = 0; i <= run->splits.n; i++)
		run->server_of[i] = i % run->nservers;
	return 0;
}

/* The index of server name sv in run's list, added when new; SIZE_MAX when out of memory. */
static size_t server_index(struct hb_simrun *run, const char *sv)
{
	size_t j;

	for (j = 0; j < run->nservers; j++)
		if (!strcmp(run->server_names[j], sv))
			return j;
	run->server_names[j] = strdup(sv);
	if (!run->server_names[j])
		return SIZE_MAX;
	run->nservers++;
	return j;
}

/* The table's regions must tile the key space from the empty key, without overlap. */
static int check_tiling(const struct hb_simrun *run, struct hb_regions *rs, const char *table,
                        struct hb_error *err)
{
	struct hb_region_view first;
	size_t i, al, bl;

	for (i = 1; i < run->splits.n; i++) {
		const unsigned char *a = hb_keys_at(&run->splits, i - 1, &al);
		const unsigned char *b = hb_keys_at(&run->splits, i, &bl);

		if (hb_key_cmp(a, al, b, bl) >= 0)
			return hb_error_set(
			    err, HB_ESERVER,
			    "table '%s': region start keys are not strictly increasing "
			    "(overlapping regions); run 'hbtab audit %s'",
			    table, table);
	}
	if (rs->n && hb_regions_at(rs, 0, &first)->start_len)
		return hb_error_set(err, HB_ESERVER,
		                    "table '%s': the first region does not start at "
		                    "the empty key; run 'hbtab audit %s'",
		                    table, table);
	return 0;
}

int hb_simrun_place_table(struct hb_simrun *run, struct hb_regions *rs, const char *table,
                          struct hb_error *err)
{
	size_t i;

	hb_regions_sort(rs);
	run->server_of = calloc(rs->n ? rs->n : 1, sizeof(size_t));
	run->server_names = calloc(rs->n ? rs->n : 1, sizeof(char *));
	if (!run->server_of || !run->server_names)
		return nomem(err);
	for (i = 0; i < rs->n; i++) {
		struct hb_region_view v;
		const struct hb_region *g = hb_regions_at(rs, i, &v);

		if (i && hb_keys_push(&run->splits, g->start, g->start_len))
			return nomem(err);
		run->server_of[i] = server_index(run, g->server ? g->server : "(no server)");
		if (run->server_of[i] == SIZE_MAX)
			return nomem(err);
	}
	return check_tiling(run, rs, table, err);
}

/* A positive whole-number table attribute, or 0 (unset, -1, or not a number). */
static uint64_t size_attr(const struct hb_schema *s, const char *key)
{
	const char *v = hb_attrs_get(&s->attrs, key);
	char *end;
	unsigned long long x;

	if (!v || *v < '0' || *v > '9')
		return 0;
	errno = 0;
	x = strtoull(v, &end, 10);
	return *end || errno ? 0 : (uint64_t)x;
}

void hb_simrun_table_sizes(struct hb_simrun *run, const struct hb_schema *schema)
{
	run->table_max_filesize = size_attr(schema, "MAX_FILESIZE");
	run->table_flush_size = size_attr(schema, "MEMSTORE_FLUSHSIZE");
}

int hb_simrun_start(struct hb_simrun *run, const struct hb_sim_config *cfg, struct hb_error *err)
{
	struct hb_sim_config c;
	int rc;

	if (!run->nservers)
		run->nservers = 1;
	run->counts = calloc(run->splits.n + 1, sizeof(uint64_t));
	if (!run->counts)
		return nomem(err);
	if (!cfg)
		return hb_sim_router_init(&run->router, &run->splits, err);
	c = *cfg;
	c.servers = run->nservers;
	rc = hb_sim_init(&run->sim, &run->splits, run->server_of, &c, err);
	run->policy_on = !rc;
	return rc;
}

/* ---------------------------------------------------------------- generated keys */

/* The writes made by threads: worker w counts into counts[w], a slot of its own. */
struct gen {
	const struct hb_sim_router *router;
	uint64_t **counts;
	atomic_uint_fast64_t done;
	uint64_t count;
	const struct hb_simrun *run;
};

/* n keys of g made and routed on worker w. */
static void gen_task(void *ctx, size_t w, struct hb_keygen *g, uint64_t n)
{
	struct gen *gn = ctx;

	hb_sim_count_generated(gn->counts[w], gn->router, g, n);
	atomic_fetch_add_explicit(&gn->done, n, memory_order_relaxed);
}

static void gen_tick(void *ctx)
{
	struct gen *g = ctx;

	if (g->run->progress)
		g->run->progress(g->run->progress_arg,
		                 atomic_load_explicit(&g->done, memory_order_relaxed), g->count);
}

/* Without a policy: workers take runs of the keys, each counting into its own table. */
static int generated_counts(struct hb_simrun *run, const struct hb_keygen *kg, uint64_t count,
                            size_t threads, struct hb_error *err)
{
	struct gen g = {.router = &run->router, .count = count, .run = run};
	size_t nreg = run->splits.n + 1, i, j;
	int rc = 0;

	atomic_init(&g.done, 0);
	g.counts = calloc(threads, sizeof(*g.counts));
	for (i = 0; g.counts && i < threads; i++)
		if (!(g.counts[i] = hb_par_slots(1, nreg * sizeof(uint64_t))))
			break;
	if (!g.counts || i < threads)
		rc = nomem(err);
	if (!rc)
		rc = hb_keygen_run(kg, count, threads, gen_task, &g,
		                   run->progress ? gen_tick : NULL, &g, err);
	for (i = 0; !rc && i < threads; i++)
		for (j = 0; j < nreg; j++)
			run->counts[j] += g.counts[i][j];
	for (i = 0; g.counts && i < threads; i++)
		free(g.counts[i]);
	free(g.counts);
	return rc;
}

/* With a policy: the keys made 256 at a time (their MD5 inputs hashed together), applied in
 * order. */
static int generated_policy(struct hb_simrun *run, struct hb_keygen *g, uint64_t count,
                            struct hb_error *err)
{
	unsigned char k[256 * HB_KEYGEN_MAX_KEY];
	size_t w = hb_keygen_width(g), j = 0, m = 0;
	uint64_t i;
	int rc = 0;

	for (i = 0; !rc && i < count; i++) {
		if (j == m) {
			m = count - i < 256 ? (size_t)(count - i) : 256;
			hb_keygen_next_n(g, k, m);
			j = 0;
		}
		rc = hb_sim_write(&run->sim, k + j++ * w, w, err);
		if (!(i & 0xFFFF) && run->progress)
			run->progress(run->progress_arg, i, count);
	}
	return rc;
}

int hb_simrun_generated(struct hb_simrun *run, const struct hb_keygen *g, uint64_t count,
                        size_t threads, struct hb_error *err)
{
	struct hb_keygen gg = *g;
	int rc;

	threads = threads < 1 ? 1 : threads > HB_PAR_MAX_THREADS ? HB_PAR_MAX_THREADS : threads;
	if (run->policy_on)
		rc = generated_policy(run, &gg, count, err);
	else
		rc = generated_counts(run, g, count, threads, err);
	if (!rc)
		run->count = count;
	return rc;
}

/* ---------------------------------------------------------------- keys one by one */

int hb_simrun_key(struct hb_simrun *run, const void *k, size_t len, struct hb_error *err)
{
	int rc = 0;

	if (run->policy_on)
		rc = hb_sim_write(&run->sim, k, len, err);
	else
		run->counts[hb_sim_route(&run->router, k, len)]++;
	if (!rc)
		run->count++;
	return rc;
}

int hb_simrun_key_line(struct hb_simrun *run, const char *line, size_t n, const char *name,
                       uint64_t lineno, struct hb_error *err)
{
	struct hb_error e = {0};
	int rc;

	if (n && line[n - 1] == '\n')
		n--;
	if (n && line[n - 1] == '\r')
		n--;
	if (!n)
		return hb_error_set(err, HB_EINVAL,
		                    "%s:%llu: empty line (a row key is 1 to %d bytes)", name,
		                    (unsigned long long)lineno, HB_MAX_ROW_LENGTH);
	hb_buf_reset(&run->key);
	rc = hb_tbb_parse(&run->key, line, n, &e);
	if (rc)
		hb_error_set(err, rc, "%s:%llu: cannot parse key: %s", name,
		             (unsigned long long)lineno, e.msg);
	else if (run->key.len > HB_MAX_ROW_LENGTH)
		rc =
		    hb_error_set(err, HB_EINVAL,
		                 "%s:%llu: key is %zu bytes long, more than HBase's maximum "
		                 "row length %d",
		                 name, (unsigned long long)lineno, run->key.len, HB_MAX_ROW_LENGTH);
	else
		rc = hb_simrun_key(run, run->key.data, run->key.len, err);
	return rc;
}

/* ---------------------------------------------------------------- draws from a key space */

/* The chance that a uniform draw from the key space lands in each region, exactly. */
static int region_chances(double *prob, const struct hb_simrun *run, struct hb_keyspace *ks,
                          struct hb_error *err)
{
	mpz_t total, keys;
	size_t i;
	int rc, reach;

	mpz_init(total);
	mpz_init(keys);
	rc = hb_keyspace_total(ks, total, err);
	for (i = 0; !rc && i <= run->splits.n; i++) {
		size_t sl = 0, el = 0;
		const unsigned char *s = i ? hb_keys_at(&run->splits, i - 1, &sl) : NULL;
		const unsigned char *e =
		    i < run->splits.n ? hb_keys_at(&run->splits, i, &el) : NULL;

		rc = hb_keyspace_region(ks, &reach, keys, NULL, s, sl, e, el, err);
		if (!rc)
			prob[i] = hb_mpz_ratio(keys, total);
	}
	mpz_clear(total);
	mpz_clear(keys);
	return rc;
}

int hb_simrun_keyspace(struct hb_simrun *run, const char *spec, const char *what, uint64_t count,
                       int64_t seed, struct hb_error *err)
{
	struct hb_keyspace *ks = NULL;
	size_t nreg = run->splits.n + 1;
	double *prob = calloc(nreg, sizeof(double));
	struct hb_error e = {0};
	int rc;

	if (!prob)
		return nomem(err);
	rc = hb_keyspace_parse(&ks, spec, &e);
	if (rc == HB_EINVAL)
		hb_error_set(err, rc, "%s '%s': %s", what ? what : "key space", spec, e.msg);
	else if (rc && err)
		*err = e;
	if (!rc)
		rc = region_chances(prob, run, ks, err);
	if (!rc) {
		hb_sim_draw(run->counts, prob, nreg, count, seed);
		run->count = count;
	}
	hb_keyspace_free(ks);
	free(prob);
	return rc;
}

/* ---------------------------------------------------------------- the view */

int hb_simrun_finish(struct hb_simrun *run, struct hb_error *err)
{
	size_t i, ns = run->nservers ? run->nservers : 1;

	run->n = run->policy_on ? run->sim.nregions : run->splits.n + 1;
	run->total = 0;
	run->writes = calloc(run->n, sizeof(uint64_t));
	run->server = calloc(run->n, sizeof(size_t));
	run->lineage = calloc(ns, sizeof(uint64_t));
	run->sregions = calloc(ns, sizeof(size_t));
	if (!run->writes || !run->server || !run->lineage || !run->sregions)
		return nomem(err);
	for (i = 0; i < run->n; i++) {
		run->writes[i] = run->policy_on ? run->sim.regions[i].writes : run->counts[i];
		run->server[i] = run->policy_on ? run->sim.regions[i].server : run->server_of[i];
		run->total += run->writes[i];
		run->lineage[run->server[i]] += run->writes[i];
		run->sregions[run->server[i]]++;
	}
	for (i = 0; run->policy_on && i < run->sim.nsplits; i++)
		run->lineage[run->sim.splits[i].server] += run->sim.splits[i].parent_writes;
	hb_sim_stats(&run->stats, run->writes, run->n);
	return 0;
}

void hb_simrun_bounds(const struct hb_simrun *run, size_t i, const unsigned char **start,
                      size_t *start_len, const unsigned char **end, size_t *end_len)
{
	if (run->policy_on) {
		*start = run->sim.regions[i].start;
		*start_len = run->sim.regions[i].start_len;
		*end = run->sim.regions[i].end;
		*end_len = run->sim.regions[i].end_len;
		return;
	}
	*start = *end = NULL;
	*start_len = *end_len = 0;
	if (i)
		*start = hb_keys_at(&run->splits, i - 1, start_len);
	if (i < run->splits.n)
		*end = hb_keys_at(&run->splits, i, end_len);
}

double hb_simrun_region_share(const struct hb_simrun *run, size_t i)
{
	return run->total ? (double)run->writes[i] / (double)run->total : 0.0;
}

double hb_simrun_server_share(const struct hb_simrun *run, size_t s)
{
	return run->count ? (double)run->lineage[s] / (double)run->count : 0.0;
}

int hb_simrun_is_cold(const struct hb_simrun *run, size_t i)
{
	const struct hb_sim_region *r = &run->sim.regions[i];
	uint64_t tail = run->count - run->count / 10;

	return r->last_write <= tail || !r->writes;
}

const char *hb_simrun_server_name(const struct hb_simrun *run, size_t s, char *buf, size_t n)
{
	if (run->server_names && run->server_names[s])
		return run->server_names[s];
	snprintf(buf, n, "server-%zu", s + 1);
	return buf;
}
