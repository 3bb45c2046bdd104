/* hb_par_run: threads kept for the whole process drawing task numbers from one shared counter. */
#include "par.h"
#include "clock.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* How long a worker that has finished looks for the next run before it sleeps: runs of one
 * command follow each other within a fraction of a millisecond, and a worker woken from sleep
 * can take milliseconds to be running again (an idle processor of a virtual machine). Only
 * workers that have a processor of their own beside the calling thread look, and they give
 * their processor to any other thread that wants it while they do. */
#define SPIN_S 0.001

/*
 * The workers, started once and kept: pool thread i is worker first + i of the current run
 * when i < k, else it waits for a run that needs it. A run is published under mu with a new
 * generation (gen, also in agen for the workers that look without the lock).
 */
static struct {
	pthread_mutex_t mu;
	pthread_cond_t work; /* a new run */
	pthread_cond_t done; /* a worker finished its part */
	pthread_t th[HB_PAR_MAX_THREADS];
	size_t started;
	long cpus; /* processors online, once known */
	uint64_t gen;
	atomic_uint_fast64_t agen;
	const struct hb_par *p;
	size_t first, k, finished;
	atomic_uint_fast64_t next; /* the next task no worker has taken */
} pool = {.mu = PTHREAD_MUTEX_INITIALIZER,
          .work = PTHREAD_COND_INITIALIZER,
          .done = PTHREAD_COND_INITIALIZER};

static void drain(const struct hb_par *p, size_t w)
{
	uint64_t t;

	while ((t = atomic_fetch_add_explicit(&pool.next, 1, memory_order_relaxed)) < p->tasks)
		p->task(p->ctx, w, t);
}

/* Pool thread i (worker i + 1 beside the calling thread) looks for a generation after seen
 * for a while without the lock, when there is a processor for it. */
static void spin(size_t i, uint64_t seen)
{
	double since;
	unsigned n = 0;

	if ((long)i + 1 >= pool.cpus)
		return;
	since = hb_now();
	while (atomic_load_explicit(&pool.agen, memory_order_acquire) == seen)
		if (++n % 64 == 0) {
			if (hb_now() - since > SPIN_S)
				break;
			sched_yield();
		}
}

static void *worker_run(void *arg)
{
	size_t i = (size_t)(uintptr_t)arg;
	uint64_t seen = 0;

	for (;;) {
		const struct hb_par *p;
		size_t w;

		spin(i, seen);
		pthread_mutex_lock(&pool.mu);
		while (pool.gen == seen || i >= pool.k) {
			seen = pool.gen; /* a run without this thread is passed over */
			pthread_cond_wait(&pool.work, &pool.mu);
		}
		seen = pool.gen;
		p = pool.p;
		w = pool.first + i;
		pthread_mutex_unlock(&pool.mu);
		drain(p, w);
		pthread_mutex_lock(&pool.mu);
		pool.finished++;
		pthread_cond_signal(&pool.done);
		pthread_mutex_unlock(&pool.mu);
	}
	return NULL;
}

size_t hb_par_start(size_t n)
{
	if (n > HB_PAR_MAX_THREADS)
		n = HB_PAR_MAX_THREADS;
	pthread_mutex_lock(&pool.mu);
	if (!pool.cpus)
		pool.cpus = sysconf(_SC_NPROCESSORS_ONLN);
	while (pool.started < n && !pthread_create(&pool.th[pool.started], NULL, worker_run,
	                                           (void *)(uintptr_t)pool.started))
		pool.started++;
	n = pool.started;
	pthread_mutex_unlock(&pool.mu);
	return n;
}

/* Waits for the run's k workers, calling the tick every 50 ms when there is one. */
static void wait_workers(const struct hb_par *p, size_t k)
{
	pthread_mutex_lock(&pool.mu);
	while (pool.finished < k) {
		struct timespec until;

		if (!p->tick) {
			pthread_cond_wait(&pool.done, &pool.mu);
			continue;
		}
		pthread_mutex_unlock(&pool.mu);
		p->tick(p->tick_ctx);
		pthread_mutex_lock(&pool.mu);
		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_nsec += 50000000L;
		if (until.tv_nsec >= 1000000000L) {
			until.tv_sec++;
			until.tv_nsec -= 1000000000L;
		}
		if (pool.finished < k)
			pthread_cond_timedwait(&pool.done, &pool.mu, &until);
	}
	pthread_mutex_unlock(&pool.mu);
}

void hb_par_run(const struct hb_par *p)
{
	size_t n = p->threads < 1 ? 1 : p->threads, first = p->tick ? 0 : 1, k;

	if (n > HB_PAR_MAX_THREADS)
		n = HB_PAR_MAX_THREADS;
	/* with no tick the calling thread is worker 0 */
	k = n - first ? hb_par_start(n - first) : 0;
	if (k > n - first)
		k = n - first;
	atomic_store_explicit(&pool.next, 0, memory_order_relaxed);
	if (!k) {
		drain(p, 0);
		return;
	}
	pthread_mutex_lock(&pool.mu);
	pool.p = p;
	pool.first = first;
	pool.k = k;
	pool.finished = 0;
	pool.gen++;
	atomic_store_explicit(&pool.agen, pool.gen, memory_order_release);
	pthread_cond_broadcast(&pool.work);
	pthread_mutex_unlock(&pool.mu);
	if (first)
		drain(p, 0);
	wait_workers(p, k);
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
