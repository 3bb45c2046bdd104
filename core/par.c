/* hb_par_run: threads kept for the whole process drawing task numbers from one shared counter. */
#define _GNU_SOURCE /* cpu_set_t and the pthread affinity calls, for where a worker starts */
#include "par.h"
#include "clock.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* How long a thread that has finished its part looks for what comes next before it sleeps: a
 * worker for the next run, the calling thread for the workers' end. Runs of one command follow
 * each other within a fraction of a millisecond, and a thread woken from sleep can take
 * milliseconds to be running again (an idle processor of a virtual machine), or be woken on the
 * processor of the thread that woke it, behind that thread. Only threads that have a processor
 * of their own look, and they give it to any other thread that wants it while they do. */
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
	long cpus; /* processors the process may use (else online), once known */
	uint64_t gen;
	atomic_uint_fast64_t agen;
	const struct hb_par *p;
	size_t first, k;
	atomic_size_t finished;    /* workers of the run that are done: changed under mu */
	atomic_uint_fast64_t next; /* the next task no worker has taken */
#ifdef __linux__
	cpu_set_t allowed; /* the processors the process may use, once known */
#endif
} pool = {.mu = PTHREAD_MUTEX_INITIALIZER,
          .work = PTHREAD_COND_INITIALIZER,
          .done = PTHREAD_COND_INITIALIZER};

static void drain(const struct hb_par *p, size_t w)
{
	uint64_t t;

	while ((t = atomic_fetch_add_explicit(&pool.next, 1, memory_order_relaxed)) < p->tasks)
		p->task(p->ctx, w, t);
}

/* Looks for done(x) for up to SPIN_S without the lock, giving the processor away now and
 * then; 1 when it came. */
static int spin_until(int (*done)(uint64_t), uint64_t x)
{
	double since = hb_now();
	unsigned n = 0;

	while (!done(x))
		if (++n % 64 == 0) {
			if (hb_now() - since > SPIN_S)
				return 0;
			sched_yield();
		}
	return 1;
}

/* A run after generation seen has been published. */
static int run_after(uint64_t seen)
{
	return atomic_load_explicit(&pool.agen, memory_order_acquire) != seen;
}

/* The current run's k workers are done. */
static int all_finished(uint64_t k)
{
	return atomic_load_explicit(&pool.finished, memory_order_acquire) >= k;
}

static void *worker_run(void *arg)
{
	size_t i = (size_t)(uintptr_t)arg;
	uint64_t seen = 0;

#ifdef __linux__
	/* started on one processor (start_worker): from here on, any the process may use */
	if (CPU_COUNT(&pool.allowed))
		pthread_setaffinity_np(pthread_self(), sizeof(pool.allowed), &pool.allowed);
#endif
	for (;;) {
		const struct hb_par *p;
		size_t w;

		/* pool thread i is worker i + 1 beside the calling thread */
		if ((long)i + 1 < pool.cpus)
			spin_until(run_after, seen);
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
		atomic_fetch_add_explicit(&pool.finished, 1, memory_order_release);
		pthread_cond_signal(&pool.done);
		pthread_mutex_unlock(&pool.mu);
	}
	return NULL;
}

/*
 * Where pool thread i starts. Left to itself, the scheduler often queues a new thread on the
 * processor of the thread that made it, behind that thread, while another processor is idle;
 * the new thread then waits for a time slice to end or for the next balancing, milliseconds
 * later. On a 2-processor virtual machine simulate's first pass over its sample then took 4 to
 * 9 ms instead of 3, in about half the runs. So thread i starts bound to the (i + 1)-th
 * processor after the caller's among those the process may use, and frees itself of the bond
 * as soon as it runs (worker_run): a hint for its first moment, never a pinning. -1: no hint
 * (one processor, or the caller's processor unknown).
 */
#ifdef __linux__
static int start_cpu(size_t i, int caller)
{
	int others, k, c;

	if (caller < 0 || caller >= CPU_SETSIZE)
		return -1;
	others = CPU_COUNT(&pool.allowed) - (CPU_ISSET(caller, &pool.allowed) ? 1 : 0);
	if (others < 1)
		return -1;
	k = (int)(i % (size_t)others);
	for (c = (caller + 1) % CPU_SETSIZE;; c = (c + 1) % CPU_SETSIZE)
		if (c != caller && CPU_ISSET(c, &pool.allowed) && k-- == 0)
			return c;
}
#endif

/* Starts pool thread i, on its processor when there is one for it; 0 or an errno. */
static int start_worker(size_t i, int caller)
{
	void *arg = (void *)(uintptr_t)i;
	int rc = -1;
#ifdef __linux__
	int cpu = start_cpu(i, caller);
	pthread_attr_t at;
	cpu_set_t one;

	if (cpu >= 0 && !pthread_attr_init(&at)) {
		CPU_ZERO(&one);
		CPU_SET(cpu, &one);
		if (!pthread_attr_setaffinity_np(&at, sizeof(one), &one))
			rc = pthread_create(&pool.th[i], &at, worker_run, arg);
		pthread_attr_destroy(&at);
	}
#else
	(void)caller;
#endif
	if (rc)
		rc = pthread_create(&pool.th[i], NULL, worker_run, arg);
	return rc;
}

size_t hb_par_start(size_t n)
{
	int caller = -1;

	if (n > HB_PAR_MAX_THREADS)
		n = HB_PAR_MAX_THREADS;
	pthread_mutex_lock(&pool.mu);
	if (!pool.cpus) {
		pool.cpus = sysconf(_SC_NPROCESSORS_ONLN);
#ifdef __linux__
		if (sched_getaffinity(0, sizeof(pool.allowed), &pool.allowed))
			CPU_ZERO(&pool.allowed);
		else
			pool.cpus = CPU_COUNT(&pool.allowed);
#endif
	}
#ifdef __linux__
	if (pool.started < n)
		caller = sched_getcpu();
#endif
	while (pool.started < n && !start_worker(pool.started, caller))
		pool.started++;
	n = pool.started;
	pthread_mutex_unlock(&pool.mu);
	return n;
}

/* Waits for the run's k workers, calling the tick every 50 ms when there is one. */
static void wait_workers(const struct hb_par *p, size_t k)
{
	/* a calling thread that did its part looks for theirs, when each has a processor */
	if (!p->tick && (long)k + 1 <= pool.cpus)
		spin_until(all_finished, k);
	pthread_mutex_lock(&pool.mu);
	while (!all_finished(k)) {
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
		if (!all_finished(k))
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
	atomic_store_explicit(&pool.finished, 0, memory_order_relaxed);
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
