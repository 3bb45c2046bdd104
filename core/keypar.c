/* Generated keys made by several threads: span plans, and ranges taken over in halves. */
#include "keypar.h"

#include "par.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* Spans hold at least SPAN_MIN keys, and a plan has at most SPANS_MAX of them (10^12 writes
 * then plan 16 bytes a span, 1 MiB in all). */
#define SPAN_MIN  16384
#define SPANS_MAX 65536

/* ---------------------------------------------------------------- plans */

/* The keys of a span of count keys' plan. */
static uint64_t span_len(uint64_t count)
{
	return count / SPANS_MAX + 1 > SPAN_MIN ? count / SPANS_MAX + 1 : SPAN_MIN;
}

/* Only a clock that advances by random draws needs the spans scanned; the other generators
 * reach any key from its id (hb_keygen_skip), and one thread makes the spans in order. */
static int needs_scan(const struct hb_keygen *g, size_t threads)
{
	return threads > 1 && (g->kind == HB_KEYGEN_MD5 || g->kind == HB_KEYGEN_TRANSACTION);
}

static void scan_task(void *ctx, size_t w, uint64_t t)
{
	struct hb_keyplan *p = ctx;

	(void)w;
	hb_keygen_span_scan(&p->before[t + 1], &p->g, t, p->len);
}

/* Adds span i's own figures (in before[i + 1]) to the sums before it. */
static void accumulate(struct hb_keyplan *p, uint64_t i)
{
	p->before[i + 1].keys += p->before[i].keys;
	p->before[i + 1].clock += p->before[i].clock;
}

int hb_keyplan_init(struct hb_keyplan *p, const struct hb_keygen *g, uint64_t count, size_t threads,
                    struct hb_error *err)
{
	struct hb_par par = {.threads = threads, .task = scan_task, .ctx = p};
	uint64_t i;

	memset(p, 0, sizeof(*p));
	p->g = *g;
	p->count = count;
	p->len = span_len(count);
	p->spans = (count + p->len - 1) / p->len;
	if (!count || !needs_scan(g, threads))
		return 0;
	p->before = calloc(p->spans + 1, sizeof(*p->before));
	if (!p->before)
		return hb_error_set(err, HB_ENOMEM, "out of memory");
	par.tasks = p->spans;
	hb_par_run(&par);
	for (i = 0; i < p->spans; i++)
		accumulate(p, i);
	/* redrawn clock draws leave the last spans short of count keys: one more span then */
	while (p->before[p->spans].keys < count) {
		struct hb_keygen_span *nb = realloc(p->before, (p->spans + 2) * sizeof(*nb));

		if (!nb)
			return hb_error_set(err, HB_ENOMEM, "out of memory");
		p->before = nb;
		hb_keygen_span_scan(&p->before[p->spans + 1], &p->g, p->spans, p->len);
		accumulate(p, p->spans);
		p->spans++;
	}
	return 0;
}

void hb_keyplan_release(struct hb_keyplan *p)
{
	free(p->before);
	p->before = NULL;
}

void hb_keyplan_cursor_init(struct hb_keyplan_cursor *c, const struct hb_keyplan *p)
{
	c->g = p->g;
	c->next = 0;
}

uint64_t hb_keyplan_seek(struct hb_keyplan_cursor *c, const struct hb_keyplan *p, uint64_t t,
                         uint64_t *first)
{
	uint64_t end;

	if (t >= p->spans || t < c->next)
		HB_BUG("span out of order");
	if (p->before) {
		/* a worker that made span t - 1 stands at span t already (past any redrawn draw
		 * at the end of span t - 1 it would redraw the same) */
		*first = p->before[t].keys;
		end = p->before[t + 1].keys < p->count ? p->before[t + 1].keys : p->count;
		if (t != c->next)
			hb_keygen_span_start(&c->g, &p->g, t, p->len, &p->before[t]);
	} else {
		*first = t * p->len;
		end = *first + p->len < p->count ? *first + p->len : p->count;
		if (t != c->next)
			hb_keygen_skip(&c->g, (t - c->next) * p->len);
	}
	c->next = t + 1;
	return end > *first ? end - *first : 0;
}

/* ---------------------------------------------------------------- ranges taken in halves */

static size_t threads_in_range(size_t threads)
{
	return threads < 1 ? 1 : threads > HB_PAR_MAX_THREADS ? HB_PAR_MAX_THREADS : threads;
}

/* A range of keys [next, end) made in runs of at most `len` keys by the generator g; the run
 * being made is [at_key, next), from the state `at`. One per task, a cache line apart; g,
 * its worker's alone, on lines of its own. */
struct range {
	_Alignas(HB_PAR_LINE) struct hb_keygen g;
	_Alignas(HB_PAR_LINE) struct hb_keygen at;
	uint64_t at_key, next, end;
};

struct halves {
	uint64_t len;
	struct range *r;
	size_t nr;
	pthread_mutex_t mu; /* guards every range's fields */
	void (*task)(void *ctx, size_t w, struct hb_keygen *gen, uint64_t n);
	void *ctx;
};

/* g moved n keys on: whole spans of len draws scanned, the rest stepped over key by key. */
static void advance(struct hb_keygen *g, uint64_t n, uint64_t len)
{
	struct hb_keygen_span sum = {0, 0}, s;
	struct hb_keygen at = *g;
	uint64_t i = 0;

	if (g->kind == HB_KEYGEN_MD5 || g->kind == HB_KEYGEN_TRANSACTION) {
		for (;; i++) {
			hb_keygen_span_scan(&s, &at, i, len);
			if (sum.keys + s.keys > n)
				break;
			sum.keys += s.keys;
			sum.clock += s.clock;
		}
		hb_keygen_span_start(g, &at, i, len, &sum);
	}
	hb_keygen_skip(g, n - sum.keys);
}

/* Under the lock: the second half of the largest range left moved to range `to`, which stays
 * empty (nobody takes from it) until its worker stands at its first key; *g gets the state
 * that worker starts from, at key *from, and *end the range's end. 0 when no range has two
 * runs left. */
static int take_half(struct halves *h, size_t to, struct hb_keygen *g, uint64_t *from,
                     uint64_t *end)
{
	size_t i, best = h->nr;
	uint64_t most = 0, mid;

	for (i = 0; i < h->nr; i++)
		if (h->r[i].end - h->r[i].next > most) {
			most = h->r[i].end - h->r[i].next;
			best = i;
		}
	if (most < 2 * h->len)
		return 0;
	/* past the run its worker is making: from the state where that run starts */
	mid = h->r[best].next + most / 2;
	*g = h->r[best].at;
	*from = h->r[best].at_key;
	*end = h->r[best].end;
	h->r[best].end = mid;
	h->r[to].next = h->r[to].end = mid;
	return 1;
}

/* Range t's worker: its own runs, then halves of the others'. */
static void halves_task(void *ctx, size_t w, uint64_t t)
{
	struct halves *h = ctx;
	struct range *r = &h->r[t];
	uint64_t n, from, end;

	pthread_mutex_lock(&h->mu);
	r->g = r->at;
	for (;;) {
		if (r->next >= r->end) {
			if (!take_half(h, t, &r->g, &from, &end))
				break;
			pthread_mutex_unlock(&h->mu);
			advance(&r->g, r->next - from, h->len);
			pthread_mutex_lock(&h->mu);
			r->end = end;
			continue;
		}
		n = r->end - r->next < h->len ? r->end - r->next : h->len;
		r->at = r->g;
		r->at_key = r->next;
		r->next += n;
		pthread_mutex_unlock(&h->mu);
		h->task(h->ctx, w, &r->g, n);
		pthread_mutex_lock(&h->mu);
	}
	pthread_mutex_unlock(&h->mu);
}

int hb_keygen_run(const struct hb_keygen *g, uint64_t count, size_t threads,
                  void (*task)(void *ctx, size_t w, struct hb_keygen *gen, uint64_t n), void *ctx,
                  void (*tick)(void *tick_ctx), void *tick_ctx, struct hb_error *err)
{
	struct halves h = {.len = span_len(count), .task = task, .ctx = ctx};
	struct hb_par par = {.task = halves_task, .ctx = &h, .tick = tick, .tick_ctx = tick_ctx};

	par.threads = par.tasks = h.nr = threads_in_range(threads);
	h.r = hb_par_slots(h.nr, sizeof(*h.r));
	if (!h.r)
		return hb_error_set(err, HB_ENOMEM, "out of memory");
	h.r[0].at = *g;
	h.r[0].end = count;
	pthread_mutex_init(&h.mu, NULL);
	hb_par_run(&par);
	pthread_mutex_destroy(&h.mu);
	free(h.r);
	return 0;
}
