/* hbtab advise's rule and costs, and the skew of a key sample over a split set. */
#include "advise.h"
#include "simrun.h"
#include "simulate.h"

#include <stdlib.h>
#include <string.h>

/* ceil(a / b) for b > 0, without overflow. */
static uint64_t ceil_div(uint64_t a, uint64_t b)
{
	return a / b + (a % b != 0);
}

int hb_advise_compute(struct hb_advise *out, const struct hb_advise_in *in, struct hb_error *err)
{
	uint64_t m;

	memset(out, 0, sizeof(*out));
	if (!in->servers || !in->split_size || !in->per_server)
		return hb_error_set(err, HB_EINVAL,
		                    "advise needs servers, a split size and K >= 1");
	if (in->per_server > UINT64_MAX / in->servers)
		return hb_error_set(err, HB_EINVAL, "%llu servers x %llu regions is too many",
		                    (unsigned long long)in->servers,
		                    (unsigned long long)in->per_server);
	out->target = (uint64_t)((double)in->split_size * HB_ADVISE_FILL);
	if (!out->target)
		out->target = 1;
	out->n_servers = in->servers * in->per_server;
	out->n_size = ceil_div(in->size, out->target);
	if (!out->n_size)
		out->n_size = 1;
	out->size_decides = out->n_size > out->n_servers;
	m = out->size_decides ? out->n_size : out->n_servers;
	out->n_wanted = ceil_div(m, in->servers) * in->servers;
	if (out->n_wanted < m) /* rounding overflowed */
		return hb_error_set(err, HB_EINVAL, "N overflows");
	out->n = out->n_wanted;
	if (in->buckets && out->n > in->buckets) {
		out->n = in->buckets;
		out->bound = HB_ADVISE_BOUND_BUCKETS;
	}
	if (in->n_max && out->n > in->n_max) {
		out->n = in->n_max;
		out->bound = HB_ADVISE_BOUND_SPEC;
	}
	return 0;
}

void hb_advise_cost(struct hb_advise_cost *out, uint64_t n, uint64_t servers, uint64_t size,
                    uint64_t split_size)
{
	memset(out, 0, sizeof(*out));
	out->n = n;
	if (!n)
		return;
	out->per_server = servers ? (double)n / (double)servers : 0;
	out->region_size = size / n;
	out->split_fill = split_size ? (double)out->region_size / (double)split_size : 0;
	out->scanners = n;
	out->scanners_per_server = servers ? ceil_div(n, servers) : n;
}

int hb_advise_skew(double *skew, const struct hb_keys *splits, const struct hb_keys *sample,
                   struct hb_error *err)
{
	struct hb_sim_router r;
	struct hb_sim_stats st;
	uint64_t *counts;
	size_t i;
	int rc;

	*skew = 0;
	if (!sample->n)
		return 0;
	counts = calloc(splits->n + 1, sizeof(*counts));
	if (!counts)
		return hb_error_set(err, HB_ENOMEM, "out of memory");
	rc = hb_sim_router_init(&r, splits, err);
	if (!rc) {
		for (i = 0; i < sample->n; i++) {
			size_t len;
			const unsigned char *k = hb_keys_at(sample, i, &len);

			counts[hb_sim_route(&r, k, len)]++;
		}
		hb_sim_router_release(&r);
		hb_sim_stats(&st, counts, splits->n + 1);
		*skew = st.skew;
	}
	free(counts);
	return rc;
}

int hb_advise_skew_keyspace(double *skew, const struct hb_keys *splits, const char *spec,
                            const char *what, uint64_t count, int64_t seed, struct hb_error *err)
{
	struct hb_simrun run;
	size_t i;
	int rc = 0;

	*skew = 0;
	hb_simrun_init(&run);
	for (i = 0; !rc && i < splits->n; i++) {
		size_t len;
		const unsigned char *k = hb_keys_at(splits, i, &len);

		if (hb_keys_push(&run.splits, k, len))
			rc = hb_error_set(err, HB_ENOMEM, "out of memory");
	}
	if (!rc)
		rc = hb_simrun_place_round_robin(&run, 1, err);
	if (!rc)
		rc = hb_simrun_start(&run, NULL, err);
	if (!rc)
		rc = hb_simrun_keyspace(&run, spec, what, count, seed, err);
	if (!rc)
		rc = hb_simrun_finish(&run, err);
	if (!rc)
		*skew = run.stats.skew;
	hb_simrun_release(&run);
	return rc;
}
