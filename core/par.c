/* hb_par_run: a fixed set of threads drawing task numbers from one shared counter. */
#include "par.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct pool {
	const struct hb_par *p;
	atomic_uint_fast64_t next; /* the next task no worker has taken */
	/* workers say when they finish, so the calling thread wakes at once, not at its next
	 * tick */
	pthread_mutex_t mu;
	pthread_cond_t cv;
	size_t finished;
};

struct worker {
	pthread_t th;
	struct pool *pool;
	size_t w;
};

static void drain(struct pool *pool, size_t w)
{
	const struct hb_par *p = pool->p;
	uint64_t t;

	while ((t = atomic_fetch_add_explicit(&pool->next, 1, memory_order_relaxed)) < p->tasks)
		p->task(p->ctx, w, t);
}

static void *worker_run(void *arg)
{
	struct worker *wk = arg;

	drain(wk->pool, wk->w);
	pthread_mutex_lock(&wk->pool->mu);
	wk->pool->finished++;
	pthread_cond_signal(&wk->pool->cv);
	pthread_mutex_unlock(&wk->pool->mu);
	return NULL;
}

/* Calls the tick every 50 ms until `started` workers have finished. */
static void wait_ticking(struct pool *pool, size_t started)
{
	pthread_mutex_lock(&pool->mu);
	while (pool->finished < started) {
		struct timespec until;

		pthread_mutex_unlock(&pool->mu);
		pool->p->tick(pool->p->tick_ctx);
		pthread_mutex_lock(&pool->mu);
		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_nsec += 50000000L;
		if (until.tv_nsec >= 1000000000L) {
			until.tv_sec++;
			until.tv_nsec -= 1000000000L;
		}
		if (pool->finished < started)
			pthread_cond_timedwait(&pool->cv, &pool->mu, &until);
	}
	pthread_mutex_unlock(&pool->mu);
}

void hb_par_run(const struct hb_par *p)
{
	struct worker wk[HB_PAR_MAX_THREADS];
	struct pool pool = {
	    .p = p, .mu = PTHREAD_MUTEX_INITIALIZER, .cv = PTHREAD_COND_INITIALIZER};
	size_t n = p->threads < 1 ? 1 : p->threads, i, started = 0;

	if (n > HB_PAR_MAX_THREADS)
		n = HB_PAR_MAX_THREADS;
	atomic_init(&pool.next, 0);
	/* with no tick the calling thread is worker 0 */
	for (i = p->tick ? 0 : 1; i < n; i++) {
		wk[i].pool = &pool;
		wk[i].w = i;
		if (pthread_create(&wk[i].th, NULL, worker_run, &wk[i]))
			break;
		started++;
	}
	if (p->tick && started)
		wait_ticking(&pool, started);
	else
		drain(&pool, 0);
	for (i = p->tick ? 0 : 1; i < (p->tick ? 0 : 1) + started; i++)
		pthread_join(wk[i].th, NULL);
}

size_t hb_par_slot(size_t size)
{
	return (size + HB_PAR_LINE - 1) / HB_PAR_LINE * HB_PAR_LINE;
}

void *hb_par_slots(size_t n, size_t size)
{
	size_t each = hb_par_slot(size ? size : 1);
	void *p;

	if (n > SIZE_MAX / each)
		return NULL;
	p = aligned_alloc(HB_PAR_LINE, n * each);
	if (p)
		memset(p, 0, n * each);
	return p;
}
