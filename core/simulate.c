/* Routing, statistics and split-policy growth for hbtab simulate (pure computation). */
#include "simulate.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static inline uint64_t prefix8(const unsigned char *k, size_t len)
{
	uint64_t v = 0;
	size_t i;

	if (len >= 8)
		return (uint64_t)k[0] << 56 | (uint64_t)k[1] << 48 | (uint64_t)k[2] << 40 |
		       (uint64_t)k[3] << 32 | (uint64_t)k[4] << 24 | (uint64_t)k[5] << 16 |
		       (uint64_t)k[6] << 8 | k[7];
	for (i = 0; i < 8; i++)
		v = v << 8 | (i < len ? k[i] : 0);
	return v;
}

#define TOP_BITS 16

int hb_sim_router_init(struct hb_sim_router *r, const struct hb_keys *splits, struct hb_error *err)
{
	size_t i, t;

	memset(r, 0, sizeof(*r));
	r->splits = splits;
	r->n = splits->n;
	if (!r->n)
		return 0;
	if (r->n >= UINT32_MAX)
		return hb_error_set(err, HB_EINVAL, "too many split keys (%zu)", r->n);
	r->pfx = malloc(r->n * sizeof(*r->pfx));
	r->top = malloc(((1u << TOP_BITS) + 1) * sizeof(*r->top));
	if (!r->pfx || !r->top) {
		hb_sim_router_release(r);
		return hb_error_set(err, HB_ENOMEM, "out of memory");
	}
	for (i = 0; i < r->n; i++) {
		size_t len;
		const unsigned char *k = hb_keys_at(splits, i, &len);

		r->pfx[i] = prefix8(k, len);
	}
	for (t = i = 0; t <= 1u << TOP_BITS; t++) {
		while (i < r->n && t < 1u << TOP_BITS && r->pfx[i] >> (64 - TOP_BITS) < t)
			i++;
		r->top[t] = (uint32_t)(t < 1u << TOP_BITS ? i : r->n);
	}
	return 0;
}

void hb_sim_router_release(struct hb_sim_router *r)
{
	free(r->pfx);
	free(r->top);
	r->pfx = NULL;
	r->top = NULL;
}

/* The region is the number of split keys <= k. The 8-byte prefixes order the keys as the keys
 * themselves do, except that equal prefixes say nothing. The prefix's top 16 bits give the
 * split keys that can be near k (usually none: the region is then known at once); among those,
 * first the ones with a smaller prefix, found without a branch to mispredict, then the few
 * with the same prefix, compared whole. */
static inline size_t route(const struct hb_sim_router *r, const unsigned char *k, size_t len)
{
	uint64_t kp = prefix8(k, len);
	size_t t = (size_t)(kp >> (64 - TOP_BITS)), lo, n, i;
	const uint64_t *base;

	if (!r->n)
		return 0;
	lo = r->top[t];
	n = r->top[t + 1] - lo;
	if (!n)
		return lo;
	base = r->pfx + lo;
	while (n > 1) {
		size_t half = n / 2;

		base += (size_t)(base[half] < kp) * half;
		n -= half;
	}
	i = (size_t)(base - r->pfx) + (*base < kp);
	for (; i < r->n && r->pfx[i] == kp; i++) {
		size_t sl;
		const unsigned char *s = hb_keys_at(r->splits, i, &sl);

		if (hb_key_cmp(s, sl, k, len) > 0)
			break;
	}
	return i;
}

size_t hb_sim_route(const struct hb_sim_router *r, const void *k, size_t len)
{
	return route(r, k, len);
}

/* Keys made and routed together: a stack buffer of HB_KEYGEN_MAX_KEY-byte keys. */
#define ROUTE_BATCH 256

void hb_sim_count_generated(uint64_t *counts, const struct hb_sim_router *r, struct hb_keygen *g,
                            uint64_t n)
{
	unsigned char k[ROUTE_BATCH * HB_KEYGEN_MAX_KEY];
	size_t w = hb_keygen_width(g), i, m;

	for (; n; n -= m) {
		m = n < ROUTE_BATCH ? (size_t)n : ROUTE_BATCH;
		hb_keygen_next_n(g, k, m);
		for (i = 0; i < m; i++)
			counts[route(r, k + i * w, w)]++;
	}
}

void hb_sim_stats(struct hb_sim_stats *out, const uint64_t *counts, size_t n)
{
	double var = 0;
	size_t i;

	memset(out, 0, sizeof(*out));
	if (!n)
		return;
	out->min = UINT64_MAX;
	for (i = 0; i < n; i++) {
		out->total += counts[i];
		if (counts[i] < out->min) {
			out->min = counts[i];
			out->argmin = i;
		}
		if (counts[i] > out->max) {
			out->max = counts[i];
			out->argmax = i;
		}
	}
	out->mean = (double)out->total / (double)n;
	if (out->mean <= 0)
		return;
	for (i = 0; i < n; i++) {
		double d = (double)counts[i] - out->mean;

		var += d * d;
	}
	out->skew = (double)out->max / out->mean;
	out->cv = sqrt(var / (double)n) / out->mean;
}

void hb_sim_draw(uint64_t *counts, const double *prob, size_t n, uint64_t count, int64_t seed)
{
	struct hb_jrandom rnd;
	double *cum = NULL, acc = 0;
	uint64_t i;
	size_t j;

	if (!n)
		return;
	cum = malloc(n * sizeof(*cum));
	if (!cum)
		HB_BUG("out of memory for the draw table");
	for (j = 0; j < n; j++) {
		acc += prob[j];
		cum[j] = acc;
	}
	hb_jrandom_init(&rnd, seed);
	for (i = 0; i < count; i++) {
		double u = hb_jrandom_next_double(&rnd) * acc;
		size_t lo = 0, hi = n - 1;

		/* first j with u < cum[j]; regions of probability 0 are never drawn */
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (u < cum[mid])
				hi = mid;
			else
				lo = mid + 1;
		}
		counts[lo]++;
	}
	free(cum);
}

/* ---- split policies ---- */

static const char *const policy_names[] = {
    [HB_POLICY_DISABLED] = "disabled",     [HB_POLICY_CONSTANT] = "constant",
    [HB_POLICY_INCREASING] = "increasing", [HB_POLICY_STEPPING] = "stepping",
    [HB_POLICY_KEYPREFIX] = "keyprefix",   [HB_POLICY_DELIMITED] = "delimited",
};

const char *hb_sim_policy_name(enum hb_sim_policy p)
{
	return policy_names[p];
}

int hb_sim_policy_parse(struct hb_sim_config *cfg, const char *spec, struct hb_error *err)
{
	size_t i;

	for (i = 0; i < HB_ARRAY_LEN(policy_names); i++)
		if (!strcmp(spec, policy_names[i]) && i != HB_POLICY_KEYPREFIX &&
		    i != HB_POLICY_DELIMITED) {
			cfg->policy = (enum hb_sim_policy)i;
			return 0;
		}
	if (!strncmp(spec, "keyprefix:", 10)) {
		const char *p = spec + 10;
		long v = 0;

		for (; *p >= '0' && *p <= '9' && v <= 32767; p++)
			v = v * 10 + (*p - '0');
		if (p == spec + 10 || *p || v < 1 || v > 32767)
			return hb_error_set(err, HB_EINVAL,
			                    "policy '%s': the prefix length must be a whole number "
			                    "from 1 to 32767",
			                    spec);
		cfg->policy = HB_POLICY_KEYPREFIX;
		cfg->prefix_len = v;
		return 0;
	}
	if (!strncmp(spec, "delimited:", 10)) {
		struct hb_buf b;
		int rc;

		/* the delimiter in toStringBinary form, so any byte can be given */
		hb_buf_init(&b, 0);
		rc = hb_tbb_parse(&b, spec + 10, strlen(spec + 10), err);
		if (!rc && (b.len == 0 || b.len > sizeof(cfg->delim)))
			rc = hb_error_set(err, HB_EINVAL,
			                  "policy '%s': the delimiter must be 1 to %zu bytes", spec,
			                  sizeof(cfg->delim));
		if (!rc) {
			memcpy(cfg->delim, b.data, b.len);
			cfg->delim_len = b.len;
			cfg->policy = HB_POLICY_DELIMITED;
		}
		hb_buf_release(&b);
		return rc;
	}
	return hb_error_set(err, HB_EINVAL,
	                    "unknown policy '%s' (expected stepping, increasing, constant, "
	                    "keyprefix:L, delimited:D or disabled)",
	                    spec);
}

/* The binary multiple a size suffix letter stands for; 0 when it is none. */
static uint64_t size_unit(char c)
{
	switch (c) {
	case 'k':
	case 'K':
		return 1ULL << 10;
	case 'm':
	case 'M':
		return 1ULL << 20;
	case 'g':
	case 'G':
		return 1ULL << 30;
	case 't':
	case 'T':
		return 1ULL << 40;
	}
	return 0;
}

int hb_sim_parse_size(const char *s, const char *what, uint64_t min, uint64_t max, uint64_t *out,
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
		mult = size_unit(*end++);
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

/* Lower limits HBase's TableDescriptorChecker enforces on a table's sizes; upper bounds. */
#define MIN_FLUSH_SIZE   (1ULL << 20)
#define MIN_MAX_FILESIZE (2ULL << 20)
#define MAX_SIZE         (1ULL << 50)
#define MAX_ROW_SIZE     (1ULL << 30)

int hb_sim_config_parse(struct hb_sim_config *cfg, const char *policy, const char *row_size,
                        const char *flush_size, const char *max_filesize,
                        const struct hb_sim_names *names, struct hb_error *err)
{
	static const struct hb_sim_names words = {"the row size", "the memstore flush size",
	                                          "the largest store file size"};
	int rc = 0;

	if (!names)
		names = &words;

	memset(cfg, 0, sizeof(*cfg));
	cfg->row_size = HB_SIM_DEFAULT_ROW_SIZE;
	cfg->flush_size = HB_SIM_DEFAULT_FLUSH_SIZE;
	cfg->max_filesize = HB_SIM_DEFAULT_MAX_FILESIZE;
	cfg->jitter = HB_SIM_DEFAULT_JITTER;
	if (policy)
		rc = hb_sim_policy_parse(cfg, policy, err);
	if (!rc && row_size)
		rc = hb_sim_parse_size(row_size, names->row_size, 1, MAX_ROW_SIZE, &cfg->row_size,
		                       err);
	if (!rc && flush_size)
		rc = hb_sim_parse_size(flush_size, names->flush_size, MIN_FLUSH_SIZE, MAX_SIZE,
		                       &cfg->flush_size, err);
	if (!rc && max_filesize)
		rc = hb_sim_parse_size(max_filesize, names->max_filesize, MIN_MAX_FILESIZE,
		                       MAX_SIZE, &cfg->max_filesize, err);
	return rc;
}

uint64_t hb_sim_threshold(enum hb_sim_policy p, long count, uint64_t desired, uint64_t initial)
{
	switch (p) {
	case HB_POLICY_DISABLED:
		return UINT64_MAX;
	case HB_POLICY_CONSTANT:
		return desired;
	case HB_POLICY_STEPPING:
		return count == 1 ? initial : desired;
	case HB_POLICY_INCREASING:
	case HB_POLICY_KEYPREFIX:
	case HB_POLICY_DELIMITED:
		if (count == 0 || count > 100)
			return desired;
		{
			/* Java multiplies longs: initial * c^3 (c <= 100 keeps it in range for
			 * sizes up to 2^43; beyond that saturate rather than wrap) */
			uint64_t c3 = (uint64_t)count * (uint64_t)count * (uint64_t)count;
			uint64_t v = initial > UINT64_MAX / c3 ? UINT64_MAX : initial * c3;

			return v < desired ? v : desired;
		}
	}
	return UINT64_MAX;
}

uint64_t hb_sim_jittered(uint64_t desired, double jitter, float u)
{
	/* rate = (nextFloat() - 0.5) * jitter; desired += (long)(desired * rate), with
	 * Long.MAX_VALUE when a positive jitter would overflow */
	double rate = ((double)u - 0.5) * jitter;
	double dv = (double)desired * rate;
	int64_t jv = dv >= 9.2233720368547758e18 ? INT64_MAX : (int64_t)dv;

	if (rate > 0 && (uint64_t)jv > (uint64_t)INT64_MAX - desired)
		return (uint64_t)INT64_MAX;
	return (uint64_t)((int64_t)desired + jv);
}

size_t hb_sim_restrict(const struct hb_sim_config *cfg, unsigned char *point, size_t len)
{
	size_t i;

	if (cfg->policy == HB_POLICY_KEYPREFIX)
		return (size_t)cfg->prefix_len < len ? (size_t)cfg->prefix_len : len;
	if (cfg->policy == HB_POLICY_DELIMITED && cfg->delim_len <= len)
		for (i = 0; i + cfg->delim_len <= len; i++)
			if (!memcmp(point + i, cfg->delim, cfg->delim_len))
				return i; /* cut just before the first delimiter */
	return len;
}

static unsigned char *dup_bytes(const void *p, size_t n)
{
	unsigned char *d;

	if (!n)
		return NULL;
	d = malloc(n);
	if (d)
		memcpy(d, p, n);
	return d;
}

static int region_open(struct hb_sim *s, struct hb_sim_region *r, struct hb_error *err)
{
	r->sample = malloc((size_t)HB_SIM_SAMPLE * HB_SIM_SLOT);
	if (!r->sample)
		return hb_error_set(err, HB_ENOMEM, "out of memory");
	r->desired =
	    hb_sim_jittered(s->cfg.max_filesize, s->cfg.jitter, hb_jrandom_next_float(&s->jrnd));
	r->opened_at = s->writes;
	return 0;
}

static void region_free(struct hb_sim_region *r)
{
	free(r->start);
	free(r->end);
	free(r->sample);
}

int hb_sim_init(struct hb_sim *s, const struct hb_keys *splits, const size_t *server_of,
                const struct hb_sim_config *cfg, struct hb_error *err)
{
	size_t i, n = splits->n + 1;

	memset(s, 0, sizeof(*s));
	s->cfg = *cfg;
	if (s->cfg.servers < 1)
		s->cfg.servers = 1;
	hb_jrandom_init(&s->jrnd, cfg->seed);
	s->rng = (uint64_t)cfg->seed ^ 0x9E3779B97F4A7C15ULL;
	s->regions = calloc(n, sizeof(*s->regions));
	s->per_server = calloc(s->cfg.servers, sizeof(*s->per_server));
	if (!s->regions || !s->per_server) {
		hb_sim_release(s);
		return hb_error_set(err, HB_ENOMEM, "out of memory");
	}
	s->cap = n;
	for (i = 0; i < n; i++) {
		struct hb_sim_region *r = &s->regions[i];
		const unsigned char *k;
		size_t len;

		s->nregions = i + 1;
		if (i > 0) {
			k = hb_keys_at(splits, i - 1, &len);
			r->start = dup_bytes(k, len);
			r->start_len = len;
		}
		if (i + 1 < n) {
			k = hb_keys_at(splits, i, &len);
			r->end = dup_bytes(k, len);
			r->end_len = len;
		}
		r->server = server_of ? server_of[i] % s->cfg.servers : i % s->cfg.servers;
		s->per_server[r->server]++;
		if ((r->start_len && !r->start) || (r->end_len && !r->end) ||
		    region_open(s, r, err)) {
			hb_sim_release(s);
			return hb_error_set(err, HB_ENOMEM, "out of memory");
		}
	}
	return 0;
}

void hb_sim_release(struct hb_sim *s)
{
	size_t i;

	for (i = 0; i < s->nregions; i++)
		region_free(&s->regions[i]);
	free(s->regions);
	free(s->splits);
	free(s->per_server);
	memset(s, 0, sizeof(*s));
}

/* splitmix64: the sample's replacement draws (deterministic for a given seed). */
static uint64_t next_rng(uint64_t *x)
{
	uint64_t z = (*x += 0x9E3779B97F4A7C15ULL);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
	return z ^ (z >> 31);
}

static void slot_put(unsigned char *slot, const void *k, size_t len)
{
	if (len > HB_SIM_SLOT - 1)
		len = HB_SIM_SLOT - 1; /* longer keys are sampled by their first 63 bytes */
	slot[0] = (unsigned char)len;
	memcpy(slot + 1, k, len);
}

static int slot_cmp(const void *a, const void *b)
{
	const unsigned char *x = a, *y = b;

	return hb_key_cmp(x + 1, x[0], y + 1, y[0]);
}

/* Reservoir sample of the keys a region holds: its median stands in for the middle key of
 * the region's largest store file. */
static void sample_add(struct hb_sim *s, struct hb_sim_region *r, const void *k, size_t len)
{
	r->seen++;
	if (r->nsample < HB_SIM_SAMPLE) {
		slot_put(r->sample + r->nsample * HB_SIM_SLOT, k, len);
		r->nsample++;
	} else {
		uint64_t j = next_rng(&s->rng) % r->seen;

		if (j < HB_SIM_SAMPLE)
			slot_put(r->sample + j * HB_SIM_SLOT, k, len);
	}
}

static size_t find_region(const struct hb_sim *s, const void *k, size_t len)
{
	size_t lo = 1, hi = s->nregions; /* regions[0] starts unbounded */

	/* the last region whose start <= k */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct hb_sim_region *r = &s->regions[mid];

		if (hb_key_cmp(r->start, r->start_len, k, len) <= 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo - 1;
}

static int in_region(const struct hb_sim_region *r, const unsigned char *k, size_t len)
{
	return hb_key_cmp(r->start, r->start_len, k, len) <= 0 &&
	       (!r->end_len || hb_key_cmp(k, len, r->end, r->end_len) < 0);
}

static int do_split(struct hb_sim *s, size_t idx, const unsigned char *point, size_t plen,
                    struct hb_error *err)
{
	struct hb_sim_region *r, *up;
	unsigned char *tmp;
	size_t i, nlow = 0, nup = 0;
	uint64_t up_store;

	if (s->nregions == s->cap) {
		size_t ncap = s->cap * 2;
		struct hb_sim_region *nr = realloc(s->regions, ncap * sizeof(*nr));

		if (!nr)
			return hb_error_set(err, HB_ENOMEM, "out of memory");
		s->regions = nr;
		s->cap = ncap;
	}
	memmove(&s->regions[idx + 2], &s->regions[idx + 1],
	        (s->nregions - idx - 1) * sizeof(*s->regions));
	s->nregions++;
	r = &s->regions[idx];
	up = &s->regions[idx + 1];
	memset(up, 0, sizeof(*up));
	up->start = dup_bytes(point, plen);
	up->start_len = plen;
	up->end = r->end;
	up->end_len = r->end_len;
	up->server = r->server;
	tmp = dup_bytes(point, plen);
	if (!up->start || !tmp) {
		free(up->start);
		free(tmp);
		up->start = NULL;
		up->end = NULL;
		memmove(&s->regions[idx + 1], &s->regions[idx + 2],
		        (s->nregions - idx - 2) * sizeof(*s->regions));
		s->nregions--;
		return hb_error_set(err, HB_ENOMEM, "out of memory");
	}
	r->end = tmp;
	r->end_len = plen;
	/* both daughters open on the parent's server; each draws its own jitter */
	if (region_open(s, up, err)) {
		up->end = NULL;
		s->nregions--;
		return err ? err->code : HB_ENOMEM;
	}
	s->per_server[r->server]++;
	/* the parent's sample and size divide at the split point */
	for (i = 0; i < r->nsample; i++) {
		unsigned char *slot = r->sample + i * HB_SIM_SLOT;

		if (hb_key_cmp(slot + 1, slot[0], point, plen) < 0)
			memmove(r->sample + nlow++ * HB_SIM_SLOT, slot, HB_SIM_SLOT);
		else
			memcpy(up->sample + nup++ * HB_SIM_SLOT, slot, HB_SIM_SLOT);
	}
	up_store = r->nsample ? (uint64_t)((double)r->store * (double)nup / (double)r->nsample)
	                      : r->store / 2;
	up->store = up_store;
	r->store -= up_store;
	up->seen = r->nsample ? (uint64_t)((double)r->seen * (double)nup / (double)r->nsample) : 0;
	r->seen -= up->seen;
	up->nsample = nup;
	r->nsample = nlow;
	/* the lower daughter is a new region too: new jitter, writes counted afresh */
	r->desired =
	    hb_sim_jittered(s->cfg.max_filesize, s->cfg.jitter, hb_jrandom_next_float(&s->jrnd));
	r->opened_at = s->writes;
	r->writes = 0;
	r->last_write = 0;
	return 0;
}

static int maybe_split(struct hb_sim *s, size_t idx, struct hb_error *err)
{
	struct hb_sim_region *r = &s->regions[idx];
	uint64_t threshold;
	long count = (long)s->per_server[r->server];
	unsigned char sorted[HB_SIM_SAMPLE * HB_SIM_SLOT], point[HB_SIM_SLOT];
	size_t plen;
	struct hb_sim_split *ev;

	threshold = hb_sim_threshold(s->cfg.policy, count, r->desired, 2 * s->cfg.flush_size);
	if (r->store <= threshold || !r->nsample)
		return 0;
	memcpy(sorted, r->sample, r->nsample * HB_SIM_SLOT);
	qsort(sorted, r->nsample, HB_SIM_SLOT, slot_cmp);
	memcpy(point, sorted + (r->nsample / 2) * HB_SIM_SLOT, HB_SIM_SLOT);
	plen = hb_sim_restrict(&s->cfg, point + 1, point[0]);
	/* SplitTableRegionProcedure refuses an empty point, the start key itself, and a point
	 * outside the region */
	if (!plen || !in_region(r, point + 1, plen) ||
	    (r->start_len == plen && !memcmp(r->start, point + 1, plen))) {
		s->refused++;
		return 0;
	}
	if (s->nsplits == s->splits_cap) {
		size_t ncap = s->splits_cap ? s->splits_cap * 2 : 16;
		struct hb_sim_split *ns = realloc(s->splits, ncap * sizeof(*ns));

		if (!ns)
			return hb_error_set(err, HB_ENOMEM, "out of memory");
		s->splits = ns;
		s->splits_cap = ncap;
	}
	ev = &s->splits[s->nsplits];
	memset(ev, 0, sizeof(*ev));
	ev->after_writes = s->writes;
	ev->after_bytes = s->bytes;
	ev->parent_writes = r->writes;
	ev->region = idx;
	ev->server = r->server;
	ev->size = r->store;
	ev->threshold = threshold;
	ev->count = count;
	memcpy(ev->key, point + 1, plen);
	ev->key_len = plen;
	if (do_split(s, idx, point + 1, plen, err))
		return err ? err->code : HB_ENOMEM;
	s->nsplits++;
	return 0;
}

int hb_sim_write(struct hb_sim *s, const void *k, size_t len, struct hb_error *err)
{
	size_t idx = find_region(s, k, len);
	struct hb_sim_region *r = &s->regions[idx];

	s->writes++;
	s->bytes += s->cfg.row_size;
	r->writes++;
	r->last_write = s->writes;
	sample_add(s, r, k, len);
	r->memstore += s->cfg.row_size;
	/* a region flushes once its memstore exceeds the flush size; the split check follows
	 * the flush (the policies compare store-file sizes) */
	if (r->memstore > s->cfg.flush_size) {
		r->store += r->memstore;
		r->memstore = 0;
		if (s->cfg.policy != HB_POLICY_DISABLED)
			return maybe_split(s, idx, err);
	}
	return 0;
}
