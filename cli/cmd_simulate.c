/* hbtab simulate: how a row-key design spreads writes over regions, and how regions grow and
 * split under a split policy, before any table exists. */
#include "../core/clock.h"
#include "../core/keygen.h"
#include "../core/keyspace.h"
#include "../core/schema.h"
#include "../core/simulate.h"
#include "../rest/hbase.h"
#include "cli.h"
#include "commands.h"
#include "exit.h"
#include "output.h"
#include "rest_cli.h"
#include "splitspec.h"

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char usage[] = "simulate (" CLI_SPLITSPEC_USAGE
                            " | --table T) (--generator G | --keys-file FILE | --keyspace SPEC) "
                            "[--count N] [--threads K] [--seed S] [--start-time MS] [--servers S] "
                            "[--policy P [--row-size B] [--flush-size B] [--max-filesize B]]";

#define DEFAULT_COUNT 1000000L
#define MAX_COUNT     1000000000000LL /* 10^12 writes */
#define MAX_THREADS   64
#define MAX_SERVERS   100000
#define CHUNK         65536 /* keys per unit of work; threads take every K-th */
#define BAR_WIDTH     40
/* Lower limits HBase's TableDescriptorChecker enforces on a table's sizes. */
#define MIN_FLUSH_SIZE   (1ULL << 20)
#define MIN_MAX_FILESIZE (2ULL << 20)
#define MAX_SIZE         (1ULL << 50)
#define MAX_ROW_SIZE     (1ULL << 30)

struct sim_opts {
	const char *table, *keys_file, *keyspace, *count, *threads, *servers;
	const char *policy, *row_size, *flush_size, *max_filesize;
};

/* What the run produced, for both report forms. */
struct sim_result {
	struct hb_keys splits; /* boundaries of the initial regions */
	char **server_names;   /* live names (--table) or NULL */
	size_t nservers;
	size_t *server_of; /* initial region -> server */
	uint64_t *counts;  /* writes per initial region (no policy) */
	uint64_t count;    /* writes made */
	int policy_on;
	struct hb_sim sim;  /* with --policy */
	const char *source; /* what the keys were */
	uint64_t table_max_filesize,
	    table_flush_size; /* --table: MAX_FILESIZE, MEMSTORE_FLUSHSIZE */
};

/* Progress for runs longer than a second (the indicator itself is terminal-only). */
static double t_start;

static void progress(uint64_t done, uint64_t total)
{
	if (hb_now() - t_start >= 1.0)
		cli_progress("simulating", (size_t)done, (size_t)total);
}

/* A size in bytes: a whole number with an optional binary suffix K, M, G, T (KiB = 1024). */
static int parse_size(const char *s, const char *what, uint64_t min, uint64_t max, uint64_t *out,
                      struct hb_error *err)
{
	char *end;
	unsigned long long v;
	uint64_t mult = 1;

	errno = 0;
	if (!s || *s < '0' || *s > '9')
		return hb_error_set(err, HB_EINVAL, "%s must be a size in bytes, got '%s'", what,
		                    s ? s : "");
	v = strtoull(s, &end, 10);
	if (*end) {
		switch (*end) {
		case 'k':
		case 'K':
			mult = 1ULL << 10;
			break;
		case 'm':
		case 'M':
			mult = 1ULL << 20;
			break;
		case 'g':
		case 'G':
			mult = 1ULL << 30;
			break;
		case 't':
		case 'T':
			mult = 1ULL << 40;
			break;
		default:
			mult = 0;
			break;
		}
		end++;
		if (*end == 'i' && end[1] == 'B')
			end += 2;
		else if (*end == 'B')
			end++;
	}
	if (!mult || *end)
		return hb_error_set(
		    err, HB_EINVAL,
		    "%s must be a size in bytes (suffix K, M, G or T allowed), got '%s'", what, s);
	if (errno == ERANGE || v > max / mult || v * mult < min || v * mult > max)
		return hb_error_set(err, HB_EINVAL,
		                    "%s must be between %llu and %llu bytes, got '%s'", what,
		                    (unsigned long long)min, (unsigned long long)max, s);
	*out = v * mult;
	return 0;
}

/* ---------------------------------------------------------------- generated keys, threads */

/* Workers say when they finish, so the main thread wakes at once rather than at its next
 * progress tick (a run of 10^7 md5 keys takes a few progress ticks in all). */
struct finish {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	size_t finished;
};

struct worker {
	pthread_t th;
	struct finish *fin;
	const struct hb_sim_router *router;
	struct hb_keygen g; /* a copy of the generator at key 0 */
	uint64_t count;
	atomic_uint_fast64_t *next; /* the next chunk no worker has taken, shared */
	uint64_t *counts;
	atomic_uint_fast64_t done;
};

/* Each worker takes the next chunk no other has taken, skips the keys up to it (skipping costs
 * only the generator's sequential state, not the hash) and makes it: a worker slowed down by
 * the host takes fewer chunks, and every K gives the same sums. */
static void *worker_run(void *arg)
{
	struct worker *w = arg;
	uint64_t at = 0; /* the chunk w->g stands at */

	for (;;) {
		uint64_t c = atomic_fetch_add_explicit(w->next, 1, memory_order_relaxed), n;

		if (c >= (w->count + CHUNK - 1) / CHUNK)
			break;
		n = w->count - c * CHUNK < CHUNK ? w->count - c * CHUNK : CHUNK;
		hb_keygen_skip(&w->g, (c - at) * CHUNK);
		hb_sim_count_generated(w->counts, w->router, &w->g, n);
		atomic_fetch_add_explicit(&w->done, n, memory_order_relaxed);
		at = c + 1;
	}
	pthread_mutex_lock(&w->fin->mu);
	w->fin->finished++;
	pthread_cond_signal(&w->fin->cv);
	pthread_mutex_unlock(&w->fin->mu);
	return NULL;
}

static int run_generated(struct sim_result *res, const struct hb_keygen *g, uint64_t count,
                         size_t nthreads, struct hb_error *err)
{
	struct hb_sim_router router;
	struct finish fin = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0};
	atomic_uint_fast64_t next;
	struct worker *w;
	size_t nreg = res->splits.n + 1, i, j, started = 0;
	int rc;

	rc = hb_sim_router_init(&router, &res->splits, err);
	if (rc)
		return rc;
	atomic_init(&next, 0);
	w = calloc(nthreads, sizeof(*w));
	if (!w) {
		hb_sim_router_release(&router);
		return hb_error_set(err, HB_ENOMEM, "out of memory");
	}
	for (i = 0; i < nthreads; i++) {
		w[i].fin = &fin;
		w[i].router = &router;
		w[i].g = *g;
		w[i].count = count;
		w[i].next = &next;
		atomic_init(&w[i].done, 0);
		w[i].counts = calloc(nreg, sizeof(uint64_t));
		if (!w[i].counts) {
			rc = hb_error_set(err, HB_ENOMEM, "out of memory");
			goto done;
		}
	}
	for (i = 0; i < nthreads; i++) {
		if (pthread_create(&w[i].th, NULL, worker_run, &w[i])) {
			rc = hb_error_set(err, HB_ENOMEM, "cannot start thread %zu", i + 1);
			break;
		}
		started++;
	}
	if (!rc) {
		/* the main thread only reports progress until the workers are done */
		pthread_mutex_lock(&fin.mu);
		while (fin.finished < started) {
			uint64_t done = 0;
			struct timespec until;

			for (i = 0; i < nthreads; i++)
				done += atomic_load_explicit(&w[i].done, memory_order_relaxed);
			progress(done, count);
			clock_gettime(CLOCK_REALTIME, &until);
			until.tv_nsec += 50000000L;
			if (until.tv_nsec >= 1000000000L) {
				until.tv_sec++;
				until.tv_nsec -= 1000000000L;
			}
			pthread_cond_timedwait(&fin.cv, &fin.mu, &until);
		}
		pthread_mutex_unlock(&fin.mu);
	}
	for (i = 0; i < started; i++)
		pthread_join(w[i].th, NULL);
	cli_progress_done();
	for (i = 0; !rc && i < nthreads; i++)
		for (j = 0; j < nreg; j++)
			res->counts[j] += w[i].counts[j];
done:
	for (i = 0; i < nthreads; i++)
		free(w[i].counts);
	free(w);
	hb_sim_router_release(&router);
	return rc;
}

/* ---------------------------------------------------------------- the sample, in parallel */

static size_t sample_threads = 1; /* --threads, for the --sampled-splits sample */

struct filler {
	pthread_t th;
	struct hb_keygen g; /* a copy of the generator at the sample's key 0 */
	unsigned char *dst;
	uint64_t first, count;
};

static void *fill_run(void *arg)
{
	struct filler *f = arg;

	hb_keygen_skip(&f->g, f->first);
	hb_keygen_next_n(&f->g, f->dst, (size_t)f->count);
	return NULL;
}

/* cli_splitspec's sample maker: each of --threads threads (this one included) makes one
 * contiguous part of the sample in place; the keys are those of hb_keygen_fill. */
static int fill_sample(struct hb_keys *out, struct hb_keygen *g, long count, struct hb_error *err)
{
	struct filler f[MAX_THREADS];
	size_t k = sample_threads, w = hb_keygen_width(g), i, started = 0;
	unsigned char *dst;

	if (k <= 1 || count < CHUNK)
		return hb_keygen_fill(out, g, count, err);
	dst = hb_keys_push_fixed(out, (size_t)count, w);
	if (!dst)
		return hb_error_set(err, HB_ENOMEM, "out of memory");
	for (i = 0; i < k; i++) {
		f[i].g = *g;
		f[i].first = (uint64_t)count * i / k;
		f[i].count = (uint64_t)count * (i + 1) / k - f[i].first;
		f[i].dst = dst + f[i].first * w;
	}
	for (i = 1; i < k && !pthread_create(&f[i].th, NULL, fill_run, &f[i]); i++)
		started++;
	/* a thread that would not start leaves its part, and those after it, to this one */
	for (i = 1 + started; i < k; i++)
		fill_run(&f[i]);
	fill_run(&f[0]);
	for (i = 1; i <= started; i++)
		pthread_join(f[i].th, NULL);
	*g = f[k - 1].g;
	return 0;
}

static int run_generated_policy(struct sim_result *res, struct hb_keygen *g, uint64_t count,
                                struct hb_error *err)
{
	/* the keys made 256 at a time (their MD5 inputs hashed together), applied in order */
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
		rc = hb_sim_write(&res->sim, k + j++ * w, w, err);
		if (!(i & 0xFFFF))
			progress(i, count);
	}
	cli_progress_done();
	return rc;
}

/* ---------------------------------------------------------------- keys from a file */

static int run_keys_file(struct sim_result *res, const char *path, uint64_t limit,
                         struct hb_error *err)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
	const char *name = strcmp(path, "-") ? path : "stdin";
	struct hb_sim_router router;
	struct hb_buf key = HB_BUF_INIT;
	char *line = NULL;
	size_t cap = 0, nreg = res->splits.n + 1;
	ssize_t got;
	uint64_t lineno = 0;
	int rc = 0;

	(void)nreg;
	if (!f)
		return hb_error_set(err, HB_EINVAL, "cannot open '%s': %s", path, strerror(errno));
	rc = res->policy_on ? 0 : hb_sim_router_init(&router, &res->splits, err);
	if (rc) {
		if (f != stdin)
			fclose(f);
		return rc;
	}
	while (!rc && res->count < limit && (got = getline(&line, &cap, f)) >= 0) {
		struct hb_error e = {0};
		size_t n = (size_t)got;

		lineno++;
		if (n && line[n - 1] == '\n')
			n--;
		if (n && line[n - 1] == '\r')
			n--;
		hb_buf_reset(&key);
		if (!n) {
			rc = hb_error_set(err, HB_EINVAL,
			                  "%s:%llu: empty line (a row key is 1 to %d bytes)", name,
			                  (unsigned long long)lineno, HB_MAX_ROW_LENGTH);
			break;
		}
		rc = hb_tbb_parse(&key, line, n, &e);
		if (rc) {
			hb_error_set(err, rc, "%s:%llu: cannot parse key: %s", name,
			             (unsigned long long)lineno, e.msg);
			break;
		}
		if (key.len > HB_MAX_ROW_LENGTH) {
			rc = hb_error_set(
			    err, HB_EINVAL,
			    "%s:%llu: key is %zu bytes long, more than HBase's maximum "
			    "row length %d",
			    name, (unsigned long long)lineno, key.len, HB_MAX_ROW_LENGTH);
			break;
		}
		if (res->policy_on)
			rc = hb_sim_write(&res->sim, key.data, key.len, err);
		else
			res->counts[hb_sim_route(&router, key.data, key.len)]++;
		res->count++;
		if (!(lineno & 0xFFFF))
			progress(lineno, 0);
	}
	if (!rc && ferror(f))
		rc = hb_error_set(err, HB_EINVAL, "cannot read '%s': %s", path, strerror(errno));
	if (!rc && !res->count)
		rc = hb_error_set(err, HB_EINVAL, "%s: no keys", name);
	cli_progress_done();
	free(line);
	hb_buf_release(&key);
	if (!res->policy_on)
		hb_sim_router_release(&router);
	if (f != stdin)
		fclose(f);
	return rc;
}

/* ---------------------------------------------------------------- draws from a key space */

static int run_keyspace(struct sim_result *res, const char *spec, uint64_t count, int64_t seed,
                        struct hb_error *err)
{
	struct hb_keyspace *ks = NULL;
	size_t nreg = res->splits.n + 1, i;
	double *prob = calloc(nreg, sizeof(double));
	mpz_t total, keys;
	struct hb_error e = {0};
	int rc, reach;

	if (!prob)
		return hb_error_set(err, HB_ENOMEM, "out of memory");
	mpz_init(total);
	mpz_init(keys);
	rc = hb_keyspace_parse(&ks, spec, &e);
	if (rc == HB_EINVAL)
		hb_error_set(err, rc, "--keyspace '%s': %s", spec, e.msg);
	else if (rc)
		*err = e;
	if (!rc)
		rc = hb_keyspace_total(ks, total, err);
	/* the chance that a uniform draw from the key space lands in each region, exactly */
	for (i = 0; !rc && i < nreg; i++) {
		size_t sl = 0, el = 0;
		const unsigned char *s = i ? hb_keys_at(&res->splits, i - 1, &sl) : NULL;
		const unsigned char *en =
		    i < res->splits.n ? hb_keys_at(&res->splits, i, &el) : NULL;

		rc = hb_keyspace_region(ks, &reach, keys, NULL, s, sl, en, el, err);
		if (!rc)
			prob[i] = hb_mpz_ratio(keys, total);
	}
	if (!rc)
		hb_sim_draw(res->counts, prob, nreg, count, seed);
	if (!rc)
		res->count = count;
	mpz_clear(total);
	mpz_clear(keys);
	hb_keyspace_free(ks);
	free(prob);
	return rc;
}

/* ---------------------------------------------------------------- report */

static const char *server_label(const struct sim_result *res, size_t s, char *buf, size_t n)
{
	if (res->server_names && res->server_names[s])
		return res->server_names[s];
	snprintf(buf, n, "server-%zu", s + 1);
	return buf;
}

/*
 * The final regions as plain arrays, whichever mode ran. With --policy a region's writes are
 * those since it opened (a split parent's went before), so regions' shares are of total, the
 * writes the final regions took, and servers count every write: their own regions' and those
 * of the parents that split on them (a daughter stays on its parent's server), out of count.
 * Both sets of shares add up to 100%.
 */
struct view {
	size_t n;
	uint64_t *writes;
	size_t *server;
	uint64_t total;    /* writes of the final regions (the count without --policy) */
	uint64_t *lineage; /* per server: every write its regions and their parents took */
	size_t *sregions;  /* per server: final regions */
};

static int make_view(struct view *v, const struct sim_result *res)
{
	size_t i;

	v->n = res->policy_on ? res->sim.nregions : res->splits.n + 1;
	v->total = 0;
	v->writes = calloc(v->n, sizeof(uint64_t));
	v->server = calloc(v->n, sizeof(size_t));
	v->lineage = calloc(res->nservers ? res->nservers : 1, sizeof(uint64_t));
	v->sregions = calloc(res->nservers ? res->nservers : 1, sizeof(size_t));
	if (!v->writes || !v->server || !v->lineage || !v->sregions)
		return HB_ENOMEM;
	for (i = 0; i < v->n; i++) {
		v->writes[i] = res->policy_on ? res->sim.regions[i].writes : res->counts[i];
		v->server[i] = res->policy_on ? res->sim.regions[i].server : res->server_of[i];
		v->total += v->writes[i];
		v->lineage[v->server[i]] += v->writes[i];
		v->sregions[v->server[i]]++;
	}
	for (i = 0; res->policy_on && i < res->sim.nsplits; i++)
		v->lineage[res->sim.splits[i].server] += res->sim.splits[i].parent_writes;
	return 0;
}

static void view_release(struct view *v)
{
	free(v->writes);
	free(v->server);
	free(v->lineage);
	free(v->sregions);
}

/* A region's share: of the writes the final regions took. */
static double region_share(const struct view *v, size_t i)
{
	return v->total ? (double)v->writes[i] / (double)v->total : 0.0;
}

/* A server's share: of every write. */
static double server_share(const struct sim_result *res, const struct view *v, size_t i)
{
	return res->count ? (double)v->lineage[i] / (double)res->count : 0.0;
}

static void region_bounds(const struct sim_result *res, size_t i, const unsigned char **s,
                          size_t *sl, const unsigned char **e, size_t *el)
{
	if (res->policy_on) {
		*s = res->sim.regions[i].start;
		*sl = res->sim.regions[i].start_len;
		*e = res->sim.regions[i].end;
		*el = res->sim.regions[i].end_len;
		return;
	}
	*s = NULL;
	*e = NULL;
	*sl = *el = 0;
	if (i)
		*s = hb_keys_at(&res->splits, i - 1, sl);
	if (i < res->splits.n)
		*e = hb_keys_at(&res->splits, i, el);
}

/* A region is cold when it received no write in the last tenth of the run. */
static int is_cold(const struct sim_result *res, size_t i)
{
	const struct hb_sim_region *r = &res->sim.regions[i];
	uint64_t tail = res->count - res->count / 10;

	return r->last_write <= tail || !r->writes;
}

static int print_json(const struct sim_result *res, const struct view *v,
                      const struct hb_sim_stats *st)
{
	struct hb_buf b = HB_BUF_INIT, tmp = HB_BUF_INIT;
	char lab[32];
	size_t i;
	int rc = 0;

	if (!rc)
		rc = hb_buf_addf(&b,
		                 "{\"count\":%llu,\"region_writes\":%llu,\"skew\":%s,\"cv\":%s,"
		                 "\"min\":%llu,\"max\":%llu,\"keys\":",
		                 (unsigned long long)res->count, (unsigned long long)v->total,
		                 CLI_NUM(st->skew), CLI_NUM(st->cv), (unsigned long long)st->min,
		                 (unsigned long long)st->max) ||
		     cli_json_str(&b, res->source, strlen(res->source)) ||
		     hb_buf_adds(&b, ",\"regions\":[");
	for (i = 0; !rc && i < v->n; i++) {
		const unsigned char *s, *e;
		size_t sl, el;

		region_bounds(res, i, &s, &sl, &e, &el);
		rc = hb_buf_addf(&b, "%s{\"index\":%zu,\"start\":", i ? "," : "", i) ||
		     cli_json_tsb(&b, s, sl, &tmp) || hb_buf_adds(&b, ",\"end\":") ||
		     cli_json_tsb(&b, e, el, &tmp) ||
		     hb_buf_addf(&b, ",\"writes\":%llu,\"share\":%s,\"ratio\":",
		                 (unsigned long long)v->writes[i], CLI_NUM(region_share(v, i)));
		if (!rc)
			rc = st->min
			         ? hb_buf_adds(&b, CLI_NUM((double)v->writes[i] / (double)st->min))
			         : hb_buf_adds(&b, "null");
		if (!rc)
			rc =
			    hb_buf_adds(&b, ",\"server\":") ||
			    cli_json_str(&b, server_label(res, v->server[i], lab, sizeof(lab)),
			                 strlen(server_label(res, v->server[i], lab, sizeof(lab))));
		if (!rc && res->policy_on) {
			const struct hb_sim_region *r = &res->sim.regions[i];

			rc = hb_buf_addf(&b, ",\"bytes\":%llu,\"opened_after\":%llu,\"cold\":%s",
			                 (unsigned long long)(r->store + r->memstore),
			                 (unsigned long long)r->opened_at,
			                 is_cold(res, i) ? "true" : "false");
		}
		if (!rc)
			rc = hb_buf_addc(&b, '}') || cli_stream_flush(&b, 0);
	}
	if (!rc)
		rc = hb_buf_adds(&b, "],\"servers\":[");
	for (i = 0; !rc && i < res->nservers; i++) {
		const char *nm = server_label(res, i, lab, sizeof(lab));

		rc = hb_buf_adds(&b, i ? ",{\"name\":" : "{\"name\":") ||
		     cli_json_str(&b, nm, strlen(nm)) ||
		     hb_buf_addf(&b, ",\"regions\":%zu,\"writes\":%llu,\"share\":%s}",
		                 v->sregions[i], (unsigned long long)v->lineage[i],
		                 CLI_NUM(server_share(res, v, i))) ||
		     cli_stream_flush(&b, 0);
	}
	if (!rc)
		rc = hb_buf_adds(&b, "]");
	if (!rc && res->policy_on) {
		const struct hb_sim *s = &res->sim;
		int first = 1;

		rc = hb_buf_addf(
		    &b,
		    ",\"policy\":{\"name\":\"%s\",\"row_size\":%llu,"
		    "\"flush_size\":%llu,\"max_filesize\":%llu,\"initial_size\":%llu,"
		    "\"refused_splits\":%llu},\"splits\":[",
		    hb_sim_policy_name(s->cfg.policy), (unsigned long long)s->cfg.row_size,
		    (unsigned long long)s->cfg.flush_size, (unsigned long long)s->cfg.max_filesize,
		    (unsigned long long)(2 * s->cfg.flush_size), (unsigned long long)s->refused);
		for (i = 0; !rc && i < s->nsplits; i++) {
			const struct hb_sim_split *ev = &s->splits[i];
			const char *nm = server_label(res, ev->server, lab, sizeof(lab));

			rc = hb_buf_addf(&b,
			                 "%s{\"after_writes\":%llu,\"after_bytes\":%llu,"
			                 "\"region\":%zu,\"key\":",
			                 i ? "," : "", (unsigned long long)ev->after_writes,
			                 (unsigned long long)ev->after_bytes, ev->region) ||
			     cli_json_tsb(&b, ev->key, ev->key_len, &tmp) ||
			     hb_buf_addf(&b,
			                 ",\"size\":%llu,\"threshold\":%llu,"
			                 "\"regions_on_server\":%ld,\"server\":",
			                 (unsigned long long)ev->size,
			                 (unsigned long long)ev->threshold, ev->count) ||
			     cli_json_str(&b, nm, strlen(nm)) || hb_buf_addc(&b, '}') ||
			     cli_stream_flush(&b, 0);
		}
		if (!rc)
			rc = hb_buf_adds(&b, "],\"cold\":[");
		for (i = 0; !rc && i < s->nregions; i++)
			if (is_cold(res, i)) {
				rc = hb_buf_addf(&b, "%s%zu", first ? "" : ",", i);
				first = 0;
			}
		if (!rc)
			rc = hb_buf_adds(&b, "]");
	}
	if (!rc)
		rc = hb_buf_adds(&b, "}\n") || cli_stream_flush(&b, 1);
	hb_buf_release(&b);
	hb_buf_release(&tmp);
	return rc;
}

static int tsb_cell(struct cli_table *t, const unsigned char *k, size_t n, struct hb_buf *tmp)
{
	hb_buf_reset(tmp);
	if (!n)
		return cli_table_add(t, "");
	if (hb_tsb_append(tmp, k, n))
		return HB_ENOMEM;
	return cli_table_add(t, hb_buf_str(tmp));
}

static int human(char *buf, size_t n, uint64_t bytes)
{
	static const char *const unit[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
	double v = (double)bytes;
	int u = 0;

	while (v >= 1024 && u < 5) {
		v /= 1024;
		u++;
	}
	return snprintf(buf, n, u ? "%.2f %s" : "%.0f %s", v, unit[u]);
}

static int print_text(const struct sim_result *res, const struct view *v,
                      const struct hb_sim_stats *st)
{
	static const char *const rh[] = {"#",     "START", "END",    "WRITES",
	                                 "SHARE", "RATIO", "SERVER", "LOAD"};
	static const char *const rhp[] = {"#",     "START",  "END",  "WRITES", "SHARE",
	                                  "RATIO", "SERVER", "SIZE", "COLD",   "LOAD"};
	static const char *const sh[] = {"SERVER", "REGIONS", "WRITES", "SHARE", "LOAD"};
	static const char *const th[] = {"AFTER WRITES", "AFTER BYTES", "REGION",   "SPLIT KEY",
	                                 "SIZE",         "THRESHOLD",   "ON SERVER"};
	struct cli_table t, ts, tt;
	struct hb_buf tmp = HB_BUF_INIT;
	uint64_t smax = 0;
	char lab[32], bar[BAR_WIDTH + 1], hb1[32], hb2[32];
	size_t i, ncold = 0;
	int rc = 0;

	cli_table_init(&t, res->policy_on ? 10 : 8, res->policy_on ? rhp : rh);
	cli_table_init(&ts, 5, sh);
	cli_table_init(&tt, 7, th);
	if (!rc) {
		char ratio[64];

		if (st->min)
			snprintf(ratio, sizeof(ratio), "%.3f", (double)st->max / (double)st->min);
		else
			snprintf(ratio, sizeof(ratio), "n/a (a region got no writes)");
		rc = printf("%llu write%s over %zu region%s (%s): skew %.3f (max/mean), cv %.4f, "
		            "largest/smallest %s\n",
		            (unsigned long long)res->count, HB_PLURAL(res->count), v->n,
		            HB_PLURAL(v->n), res->source, st->skew, st->cv, ratio) < 0
		         ? HB_EINVAL
		         : 0;
		/* with --policy, writes before a split went to a parent no longer listed */
		if (!rc && v->total != res->count &&
		    printf("regions: WRITES since each opened, %llu of the %llu (%.2f%%; the rest "
		           "went to regions that split), SHARE of those; servers: every write, "
		           "split parents' included, SHARE of all\n",
		           (unsigned long long)v->total, (unsigned long long)res->count,
		           res->count ? 100.0 * (double)v->total / (double)res->count : 0.0) < 0)
			rc = HB_EINVAL;
	}
	for (i = 0; !rc && i < v->n; i++) {
		const unsigned char *s, *e;
		size_t sl, el, w;

		region_bounds(res, i, &s, &sl, &e, &el);
		w = st->max ? (size_t)((double)v->writes[i] * BAR_WIDTH / (double)st->max + 0.5)
		            : 0;
		memset(bar, '#', w);
		bar[w] = '\0';
		rc = cli_table_addf(&t, "%zu", i) || tsb_cell(&t, s, sl, &tmp) ||
		     tsb_cell(&t, e, el, &tmp) ||
		     cli_table_addf(&t, "%llu", (unsigned long long)v->writes[i]) ||
		     cli_table_addf(&t, "%.2f%%",
		                    v->total ? 100.0 * (double)v->writes[i] / (double)v->total
		                             : 0) ||
		     (st->min ? cli_table_addf(&t, "%.3f", (double)v->writes[i] / (double)st->min)
		              : cli_table_add(&t, "-")) ||
		     cli_table_add(&t, server_label(res, v->server[i], lab, sizeof(lab)));
		if (!rc && res->policy_on) {
			const struct hb_sim_region *r = &res->sim.regions[i];

			human(hb1, sizeof(hb1), r->store + r->memstore);
			rc = cli_table_add(&t, hb1) ||
			     cli_table_add(&t, is_cold(res, i) ? "cold" : "");
			ncold += is_cold(res, i);
		}
		if (!rc)
			rc = cli_table_add(&t, bar);
	}
	if (!rc)
		rc = cli_table_print(&t, 0);
	for (i = 0; i < res->nservers; i++)
		if (v->lineage[i] > smax)
			smax = v->lineage[i];
	for (i = 0; !rc && i < res->nservers; i++) {
		size_t w =
		    smax ? (size_t)((double)v->lineage[i] * BAR_WIDTH / (double)smax + 0.5) : 0;

		memset(bar, '#', w);
		bar[w] = '\0';
		rc = cli_table_add(&ts, server_label(res, i, lab, sizeof(lab))) ||
		     cli_table_addf(&ts, "%zu", v->sregions[i]) ||
		     cli_table_addf(&ts, "%llu", (unsigned long long)v->lineage[i]) ||
		     cli_table_addf(&ts, "%.2f%%",
		                    res->count ? 100.0 * (double)v->lineage[i] / (double)res->count
		                               : 0) ||
		     cli_table_add(&ts, bar);
	}
	if (!rc) {
		puts("");
		rc = cli_table_print(&ts, 0);
	}
	if (!rc && res->policy_on) {
		const struct hb_sim *s = &res->sim;

		human(hb1, sizeof(hb1), s->cfg.flush_size);
		human(hb2, sizeof(hb2), s->cfg.max_filesize);
		printf("\npolicy %s: row %llu B, flush size %s, max file size %s (jitter %.2f): "
		       "%zu split%s, %zu region%s, %zu cold",
		       hb_sim_policy_name(s->cfg.policy), (unsigned long long)s->cfg.row_size, hb1,
		       hb2, s->cfg.jitter, s->nsplits, HB_PLURAL(s->nsplits), s->nregions,
		       HB_PLURAL(s->nregions), ncold);
		if (s->refused)
			printf(", %llu split point%s refused by the key restriction",
			       (unsigned long long)s->refused, HB_PLURAL(s->refused));
		puts("");
		for (i = 0; !rc && i < s->nsplits; i++) {
			const struct hb_sim_split *ev = &s->splits[i];

			human(hb1, sizeof(hb1), ev->size);
			human(hb2, sizeof(hb2), ev->threshold);
			rc = cli_table_addf(&tt, "%llu", (unsigned long long)ev->after_writes) ||
			     cli_table_addf(&tt, "%llu", (unsigned long long)ev->after_bytes) ||
			     cli_table_addf(&tt, "%zu", ev->region) ||
			     tsb_cell(&tt, ev->key, ev->key_len, &tmp) || cli_table_add(&tt, hb1) ||
			     cli_table_add(&tt, hb2) || cli_table_addf(&tt, "%ld", ev->count);
		}
		if (!rc && s->nsplits)
			rc = cli_table_print(&tt, 0);
	}
	cli_table_release(&t);
	cli_table_release(&ts);
	cli_table_release(&tt);
	hb_buf_release(&tmp);
	return rc;
}

/* ---------------------------------------------------------------- set-up */

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

/* Reads the live table's boundaries and server names into res, and with schema its
 * MAX_FILESIZE and MEMSTORE_FLUSHSIZE. 0, an exit status > 0 (already reported), or a
 * negative code with err filled. */
static int load_table(struct sim_result *res, struct hb_rest *c, const char *table, int schema,
                      struct hb_error *err)
{
	struct hb_regions rs;
	struct hb_region_view first;
	size_t i, j;
	int rc;

	hb_regions_init(&rs);
	rc = cli_rest_regions(c, table, 0, &rs, NULL, err);
	if (!rc && schema) {
		struct hb_schema sc;

		hb_schema_init(&sc);
		rc = hb_rest_get_schema(c, table, &sc, err);
		cli_progress_done();
		res->table_max_filesize = size_attr(&sc, "MAX_FILESIZE");
		res->table_flush_size = size_attr(&sc, "MEMSTORE_FLUSHSIZE");
		hb_schema_release(&sc);
	}
	if (rc)
		goto done;
	hb_regions_sort(&rs);
	res->server_of = calloc(rs.n ? rs.n : 1, sizeof(size_t));
	res->server_names = calloc(rs.n ? rs.n : 1, sizeof(char *));
	if (!res->server_of || !res->server_names) {
		rc = hb_error_set(err, HB_ENOMEM, "out of memory");
		goto done;
	}
	for (i = 0; i < rs.n; i++) {
		struct hb_region_view v;
		const struct hb_region *g = hb_regions_at(&rs, i, &v);
		const char *sv = g->server ? g->server : "(no server)";

		if (i && hb_keys_push(&res->splits, g->start, g->start_len)) {
			rc = hb_error_set(err, HB_ENOMEM, "out of memory");
			goto done;
		}
		for (j = 0; j < res->nservers; j++)
			if (!strcmp(res->server_names[j], sv))
				break;
		if (j == res->nservers) {
			res->server_names[j] = strdup(sv);
			if (!res->server_names[j]) {
				rc = hb_error_set(err, HB_ENOMEM, "out of memory");
				goto done;
			}
			res->nservers++;
		}
		res->server_of[i] = j;
	}
	for (i = 1; i < res->splits.n; i++) {
		size_t al, bl;
		const unsigned char *a = hb_keys_at(&res->splits, i - 1, &al);
		const unsigned char *b = hb_keys_at(&res->splits, i, &bl);

		if (hb_key_cmp(a, al, b, bl) >= 0) {
			rc = hb_error_set(
			    err, HB_ESERVER,
			    "table '%s': region start keys are not strictly increasing "
			    "(overlapping regions); run 'hbtab audit %s'",
			    table, table);
			goto done;
		}
	}
	if (rs.n && hb_regions_at(&rs, 0, &first)->start_len) {
		rc = hb_error_set(err, HB_ESERVER,
		                  "table '%s': the first region does not start at "
		                  "the empty key; run 'hbtab audit %s'",
		                  table, table);
		goto done;
	}
done:
	hb_regions_release(&rs);
	return rc;
}

static void result_release(struct sim_result *res)
{
	size_t i;

	hb_keys_release(&res->splits);
	if (res->server_names)
		for (i = 0; i < res->nservers; i++)
			free(res->server_names[i]);
	free(res->server_names);
	free(res->server_of);
	free(res->counts);
	if (res->policy_on)
		hb_sim_release(&res->sim);
}

static struct cli_splitspec ss;
static struct sim_opts o;
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

static struct cli_splitspec spec; /* the spec as the simulation reads it */
static int gen_for_sample, have_gen;

/* The option combinations, offline; a live --table or N = auto from the cluster connects. */
static int check(struct cli_ctx *x)
{
	/* --generator, --seed and --start-time drive the written keys, and the sample too when
	 * --sampled-splits draws one */
	spec = ss;
	gen_for_sample = ss.sampled && !ss.sample_file;
	if (!gen_for_sample)
		spec.generator = spec.seed = spec.start_time = NULL;
	if (!o.table == !cli_splitspec_given(&spec))
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
	/* N = auto counts --servers when given (the simulation is offline), else the cluster's
	 * live servers; --sample-table reads the live table */
	x->offline =
	    !o.table && !(cli_splitspec_needs_cluster(&spec) && (spec.sample_table || !o.servers));
	return CLI_EXIT_OK;
}

static int run(struct cli_ctx *x)
{
	struct hb_error err = {0};
	struct sim_result res;
	struct hb_sim_config cfg;
	struct hb_keygen g;
	struct hb_sim_stats st;
	struct view v = {0};
	int64_t seed = 0, t0 = 0;
	long count_l = DEFAULT_COUNT, threads = 1, servers = 1;
	int rc = 0;

	memset(&res, 0, sizeof(res));
	hb_keys_init(&res.splits);
	memset(&cfg, 0, sizeof(cfg));
	cfg.row_size = HB_SIM_DEFAULT_ROW_SIZE;
	cfg.flush_size = HB_SIM_DEFAULT_FLUSH_SIZE;
	cfg.max_filesize = HB_SIM_DEFAULT_MAX_FILESIZE;
	cfg.jitter = HB_SIM_DEFAULT_JITTER;
	if (o.count)
		rc = cli_parse_long(o.count, 1, (long)MAX_COUNT, "--count", &count_l, &err);
	if (!rc && o.threads)
		rc = cli_parse_long(o.threads, 1, MAX_THREADS, "--threads", &threads, &err);
	if (!rc && o.servers)
		rc = cli_parse_long(o.servers, 1, MAX_SERVERS, "--servers", &servers, &err);
	if (!rc)
		rc = cli_splitspec_generator_args(&ss, &seed, &t0, &err);
	if (!rc && o.policy)
		rc = hb_sim_policy_parse(&cfg, o.policy, &err);
	if (!rc && o.row_size)
		rc = parse_size(o.row_size, "--row-size", 1, MAX_ROW_SIZE, &cfg.row_size, &err);
	if (!rc && o.flush_size)
		rc = parse_size(o.flush_size, "--flush-size", MIN_FLUSH_SIZE, MAX_SIZE,
		                &cfg.flush_size, &err);
	if (!rc && o.max_filesize)
		rc = parse_size(o.max_filesize, "--max-filesize", MIN_MAX_FILESIZE, MAX_SIZE,
		                &cfg.max_filesize, &err);
	if (!rc && have_gen)
		rc = hb_keygen_init(&g, ss.generator, seed, t0, &err);
	if (!rc && o.policy && o.keyspace)
		rc =
		    hb_error_set(&err, HB_EINVAL,
		                 "--policy needs the keys themselves (--generator or --keys-file); "
		                 "--keyspace gives region shares only");
	if (rc) {
		cli_usage_error("simulate", "%s", err.msg);
		result_release(&res);
		return CLI_EXIT_USAGE;
	}
	if (o.keys_file && !o.count)
		count_l = (long)MAX_COUNT;
	res.count = 0;
	res.source = have_gen ? ss.generator : o.keys_file ? "keys-file" : "keyspace";
	t_start = hb_now();
	if (o.table) {
		rc = load_table(&res, x->rest, o.table, o.policy != NULL, &err);
		/* the table's own sizes count unless a flag says otherwise (HBase: the table
		 * attribute wins over the site configuration when it is positive) */
		if (!rc && !o.max_filesize && res.table_max_filesize)
			cfg.max_filesize = res.table_max_filesize;
		if (!rc && !o.flush_size && res.table_flush_size)
			cfg.flush_size = res.table_flush_size;
	} else {
		/* N = auto counts --servers when given (the simulation is offline), else the
		 * cluster's live servers; --sample-table reads the live table */
		if (!x->offline) {
			rc = cli_splitspec_prepare(&spec, x->rest, &err);
			cli_progress_done();
		}
		if (!rc && o.servers)
			spec.live_servers = servers;
		sample_threads = (size_t)threads;
		spec.fill = fill_sample;
		if (!rc)
			rc = cli_splitspec_compute(&res.splits, &spec, &err);
		cli_splitspec_release(&spec);
		res.nservers = (size_t)servers;
		res.server_of = calloc(res.splits.n + 1, sizeof(size_t));
		if (!rc && !res.server_of)
			rc = hb_error_set(&err, HB_ENOMEM, "out of memory");
		for (size_t i = 0; !rc && i <= res.splits.n; i++)
			res.server_of[i] = i % res.nservers;
	}
	if (rc > 0)
		goto done;
	if (!rc && !res.nservers)
		res.nservers = 1;
	if (!rc) {
		res.counts = calloc(res.splits.n + 1, sizeof(uint64_t));
		if (!res.counts)
			rc = hb_error_set(&err, HB_ENOMEM, "out of memory");
	}
	if (!rc && o.policy) {
		cfg.seed = seed;
		cfg.servers = res.nservers;
		rc = hb_sim_init(&res.sim, &res.splits, res.server_of, &cfg, &err);
		res.policy_on = !rc;
	}
	if (!rc) {
		if (have_gen && res.policy_on)
			rc = run_generated_policy(&res, &g, (uint64_t)count_l, &err);
		else if (have_gen)
			rc = run_generated(&res, &g, (uint64_t)count_l, (size_t)threads, &err);
		else if (o.keys_file)
			rc = run_keys_file(&res, o.keys_file, (uint64_t)count_l, &err);
		else
			rc = run_keyspace(&res, o.keyspace, (uint64_t)count_l, seed, &err);
		if (!rc && have_gen)
			res.count = (uint64_t)count_l;
	}
	if (!rc)
		rc = make_view(&v, &res) ? hb_error_set(&err, HB_ENOMEM, "out of memory") : 0;
	if (!rc) {
		hb_sim_stats(&st, v.writes, v.n);
		rc = cli_g.output == CLI_OUT_JSON ? print_json(&res, &v, &st)
		                                  : print_text(&res, &v, &st);
		if (rc == HB_ENOMEM)
			rc = hb_error_set(&err, HB_ENOMEM, "out of memory");
		else if (rc)
			rc = CLI_EXIT_USAGE; /* the write error was reported */
	}
	if (rc < 0)
		rc = cli_fail(&err);
done:
	if (have_gen)
		hb_keygen_release(&g);
	view_release(&v);
	result_release(&res);
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
