/* Sampling row keys: scanners with RandomRowFilter, the kept keys thinned as the chance halves. */
#include "rest/sample.h"
#include "core/key.h"
#include "core/metarow.h"
#include "rest/cells.h"
#include "rest/scan.h"

#include <cjson/cJSON.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---- Sampling row keys ---- */

/* splitmix64: a small deterministic generator for thinning decisions. */
static uint64_t mix_next(uint64_t *state)
{
	uint64_t z = (*state += 0x9E3779B97F4A7C15ull);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

int hb_rest_sample_filter(struct hb_buf *out, double chance)
{
	cJSON *o = cJSON_CreateObject(), *list, *f;
	char *text = NULL;
	int ok = o != NULL;

	/* FilterModel: a FilterList (op = FilterList.Operator) of typed filters;
	 * RandomRowFilter's probability is the Float field "chance" */
	ok = ok && cJSON_AddStringToObject(o, "type", "FilterList");
	ok = ok && cJSON_AddStringToObject(o, "op", "MUST_PASS_ALL");
	list = ok ? cJSON_AddArrayToObject(o, "filters") : NULL;
	ok = list != NULL;
	if (ok && chance < 1) {
		f = cJSON_CreateObject();
		ok = f && cJSON_AddItemToArray(list, f) &&
		     cJSON_AddStringToObject(f, "type", "RandomRowFilter") &&
		     cJSON_AddNumberToObject(f, "chance", chance);
	}
	if (ok) {
		f = cJSON_CreateObject();
		ok = f && cJSON_AddItemToArray(list, f) &&
		     cJSON_AddStringToObject(f, "type", "FirstKeyOnlyFilter");
	}
	if (ok) {
		f = cJSON_CreateObject();
		ok = f && cJSON_AddItemToArray(list, f) &&
		     cJSON_AddStringToObject(f, "type", "KeyOnlyFilter");
	}
	if (ok)
		text = cJSON_PrintUnformatted(o);
	cJSON_Delete(o);
	if (!text)
		return HB_ENOMEM;
	hb_buf_reset(out);
	ok = !hb_buf_adds(out, text);
	free(text);
	return ok ? 0 : HB_ENOMEM;
}

struct sampler {
	struct hb_keys *keys;
	size_t max_rows;
	uint64_t rng;
	double chance;
	struct hb_buf last; /* the last key seen */
	int have_last;
};

#define SAMPLE_RESTART    1
#define SAMPLE_SHORT_ENDS 3 /* scans that ended early a sample goes on after */

/* Keeps each key with probability 1/2. */
static int thin_half(struct sampler *s)
{
	struct hb_keys kept;
	size_t i, kl;
	int rc = 0;

	hb_keys_init(&kept);
	for (i = 0; i < s->keys->n && !rc; i++) {
		const unsigned char *k = hb_keys_at(s->keys, i, &kl);

		if (mix_next(&s->rng) >> 63)
			rc = hb_keys_push(&kept, k, kl);
	}
	if (rc) {
		hb_keys_release(&kept);
		return rc;
	}
	hb_keys_release(s->keys);
	*s->keys = kept;
	return 0;
}

static int sample_row(void *ctx, const struct hb_row *row, struct hb_error *err)
{
	struct sampler *s = ctx;

	hb_buf_reset(&s->last);
	if (hb_buf_add(&s->last, row->key, row->key_len))
		return hb_error_set(err, HB_ENOMEM, "out of memory");
	s->have_last = 1;
	/* hbtab's own metadata row is not data: every sampling command leaves it out */
	if (row->key_len == strlen(HB_METAROW_ROW) &&
	    !memcmp(row->key, HB_METAROW_ROW, row->key_len))
		return 0;
	if (hb_keys_push(s->keys, row->key, row->key_len))
		return hb_error_set(err, HB_ENOMEM, "out of memory");
	if (s->keys->n < 2 * s->max_rows)
		return 0;
	/* Too many: halve the chance for the rest of the table and thin what we hold, so
	 * every row was kept with the same probability. */
	s->chance /= 2;
	if (thin_half(s))
		return hb_error_set(err, HB_ENOMEM, "out of memory");
	return SAMPLE_RESTART;
}

/* The rows after the last one a sample's scan saw, counted up to a bound (that row itself, a
 * stateless scan's first, and hbtab's own metadata row left out, as the sample leaves it). */
struct tail_count {
	const struct hb_buf *last; /* NULL: none seen */
	size_t n, bound;
};

static int count_tail_row(void *ctx, const struct hb_row *row, struct hb_error *err)
{
	struct tail_count *t = ctx;

	(void)err;
	if ((row->key_len == strlen(HB_METAROW_ROW) &&
	     !memcmp(row->key, HB_METAROW_ROW, row->key_len)) ||
	    (t->last && row->key_len == t->last->len &&
	     !memcmp(row->key, t->last->data, row->key_len)))
		return 0;
	return ++t->n >= t->bound;
}

/*
 * Whether the sample's scan ended early. A stateful scanner whose region server failed ends
 * with a 204, as one that reached the end does (ScannerResultGenerator, docs/hbase-wire.md
 * §3), so the end is checked: at chance p a complete scan leaves the rows after the last one
 * it kept unsampled, k of them with probability (1-p)^k. At least as many rows after it as
 * makes that 1e-9 (one, at p = 1) mean the scan stopped short. *early = 1 then. The rows are
 * counted by one stateless scan from the last row where its key can be sent in a URL, else
 * by a scanner from just after it.
 */
static int sample_ended_early(struct hb_rest *c, const char *table, const struct sampler *s,
                              const struct hb_buf *from, const void *to, size_t to_len, int *early,
                              struct hb_error *err)
{
	struct hb_buf start = HB_BUF_INIT, filter = HB_BUF_INIT;
	struct hb_scan_spec spec;
	struct tail_count t = {NULL, 0, 0};
	double q = 1;
	int rc;

	*early = 0;
	/* 2^20 rows at most: a chance that low ends no sample hbtab takes (max_rows keys of
	 * 2 x max_rows held) */
	while (q > 1e-9 && t.bound < ((size_t)1 << 20)) {
		q *= 1 - s->chance;
		t.bound++;
	}
	memset(&spec, 0, sizeof(spec));
	spec.end = to_len ? to : NULL;
	spec.end_len = to_len;
	spec.max_versions = 1;
	spec.start = s->have_last ? s->last.data : from->data;
	spec.start_len = s->have_last ? s->last.len : from->len;
	spec.lang_filter = "FirstKeyOnlyFilter() AND KeyOnlyFilter()";
	spec.limit = (long)t.bound + 1;
	t.last = s->have_last ? &s->last : NULL;
	if (!hb_scan_stateless_ok(&spec)) {
		spec.lang_filter = NULL;
		spec.limit = 0;
		spec.batch = t.bound < 1000 ? (long)t.bound : 1000;
		if ((s->have_last &&
		     (hb_buf_add(&start, s->last.data, s->last.len) || hb_buf_addc(&start, 0))) ||
		    hb_rest_sample_filter(&filter, 1)) {
			hb_buf_release(&start);
			return hb_error_set(err, HB_ENOMEM, "out of memory");
		}
		if (s->have_last) {
			spec.start = start.data;
			spec.start_len = start.len;
		}
		spec.filter = filter.data;
	}
	rc = hb_rest_scan(c, table, &spec, count_tail_row, &t, err);
	if (rc > 0)
		rc = 0;
	*early = !rc && t.n >= t.bound;
	hb_buf_release(&filter);
	hb_buf_release(&start);
	return rc;
}

int hb_rest_sample_keys(struct hb_rest *c, const char *table, size_t max_rows, uint64_t seed,
                        struct hb_keys *out, struct hb_error *err)
{
	return hb_rest_sample_range(c, table, NULL, 0, NULL, 0, max_rows, seed, out, err);
}

int hb_rest_sample_range(struct hb_rest *c, const char *table, const void *from, size_t from_len,
                         const void *to, size_t to_len, size_t max_rows, uint64_t seed,
                         struct hb_keys *out, struct hb_error *err)
{
	struct sampler s;
	struct hb_scan_spec spec;
	struct hb_buf filter = HB_BUF_INIT, start = HB_BUF_INIT;
	int rc, short_ends = 0;

	if (!max_rows)
		return hb_error_set(err, HB_EINVAL, "nothing to sample (0 rows asked for)");
	memset(&s, 0, sizeof(s));
	s.keys = out;
	s.max_rows = max_rows;
	s.rng = seed;
	s.chance = 1;
	hb_buf_init(&s.last, 0);
	if (from_len && hb_buf_add(&start, from, from_len))
		return hb_error_set(err, HB_ENOMEM, "out of memory");
	for (;;) {
		if (hb_rest_sample_filter(&filter, s.chance)) {
			rc = hb_error_set(err, HB_ENOMEM, "out of memory");
			break;
		}
		memset(&spec, 0, sizeof(spec));
		spec.start = start.data;
		spec.start_len = start.len;
		spec.end = to_len ? to : NULL;
		spec.end_len = to_len;
		spec.batch = 1000;
		spec.max_versions = 1;
		spec.filter = filter.data;
		rc = hb_rest_scan(c, table, &spec, sample_row, &s, err);
		if (!rc) {
			int early = 0;

			rc = sample_ended_early(c, table, &s, &start, to, to_len, &early, err);
			if (!rc && early && ++short_ends > SAMPLE_SHORT_ENDS)
				rc = hb_error_set(err, HB_ESERVER,
				                  "sampling table '%s': the gateway's scanner "
				                  "ended early %d times "
				                  "(rows remain after the last row it gave; a "
				                  "region server may be "
				                  "failing); no sample was taken",
				                  table, short_ends);
			else if (!rc && early)
				rc = SAMPLE_RESTART; /* on from the last row seen, at the same
				                        chance */
		}
		if (rc != SAMPLE_RESTART)
			break;
		/* go on after the last row seen (none seen: from where this scan began), at the
		 * chance now in force */
		if (!s.have_last)
			continue;
		hb_buf_reset(&start);
		if (hb_buf_add(&start, s.last.data, s.last.len) || hb_buf_addc(&start, 0)) {
			rc = hb_error_set(err, HB_ENOMEM, "out of memory");
			break;
		}
	}
	/* at most max_rows, chosen uniformly (a partial Fisher-Yates over the indexes) */
	if (!rc && out->n > max_rows) {
		struct hb_keys pick;
		size_t *idx = malloc(out->n * sizeof(*idx)), i, kl;

		hb_keys_init(&pick);
		if (!idx)
			rc = hb_error_set(err, HB_ENOMEM, "out of memory");
		for (i = 0; idx && i < out->n; i++)
			idx[i] = i;
		for (i = 0; idx && i < max_rows && !rc; i++) {
			size_t j = i + (size_t)(mix_next(&s.rng) % (out->n - i)), t = idx[i];
			const unsigned char *k;

			idx[i] = idx[j];
			idx[j] = t;
			k = hb_keys_at(out, idx[i], &kl);
			if (hb_keys_push(&pick, k, kl))
				rc = hb_error_set(err, HB_ENOMEM, "out of memory");
		}
		free(idx);
		if (!rc) {
			hb_keys_release(out);
			*out = pick;
		} else {
			hb_keys_release(&pick);
		}
	}
	if (!rc && hb_keys_sort(out))
		rc = hb_error_set(err, HB_ENOMEM, "out of memory");
	hb_buf_release(&s.last);
	hb_buf_release(&filter);
	hb_buf_release(&start);
	return rc;
}
