/* core/par.c: the workers kept between runs do every task of each run once, as the worker
 * numbers a run allows, and may run on every processor the caller may. */
#define _GNU_SOURCE /* sched_getaffinity, cpu_set_t */
#include "core/par.h"
#include "test.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>

#define TASKS 5000

struct seen {
	atomic_int done[TASKS];
	atomic_int bad_worker;
	size_t threads;
	/* tasks each worker did, and the thread each worker number ran on */
	atomic_int by[HB_PAR_MAX_THREADS];
	pthread_t on[HB_PAR_MAX_THREADS];
	atomic_int ticks;
};

static void task(void *ctx, size_t w, uint64_t t)
{
	struct seen *s = ctx;

	if (w >= s->threads) {
		atomic_fetch_add(&s->bad_worker, 1);
		return;
	}
	atomic_fetch_add(&s->done[t], 1);
	atomic_fetch_add(&s->by[w], 1);
	s->on[w] = pthread_self();
}

static void tick(void *ctx)
{
	atomic_fetch_add(&((struct seen *)ctx)->ticks, 1);
}

/* One run of TASKS tasks on threads workers (with a tick or not): how many tasks were done
 * other than once, and whether any worker number was out of range. */
static int run_once(struct seen *s, size_t threads, int ticking, uint64_t tasks)
{
	struct hb_par p = {.threads = threads, .tasks = tasks, .task = task, .ctx = s};
	size_t i;
	int wrong = 0;

	memset(s, 0, sizeof(*s));
	s->threads = threads;
	if (ticking) {
		p.tick = tick;
		p.tick_ctx = s;
	}
	hb_par_run(&p);
	for (i = 0; i < tasks; i++)
		wrong += atomic_load(&s->done[i]) != 1;
	CHECK_EQ_INT(atomic_load(&s->bad_worker), 0);
	return wrong;
}

static void test_par__runs_one_after_another_do_each_task_once(void)
{
	static struct seen s;
	/* thread counts up and down, with and without a tick, so that kept workers are left out
	 * of a run and come back in a later one */
	static const size_t threads[] = {1, 2, 4, 3, 1, 8, 2, 8, 1, 5};
	size_t i, r;

	for (r = 0; r < 3; r++)
		for (i = 0; i < sizeof(threads) / sizeof(threads[0]); i++) {
			CHECK_EQ_INT(run_once(&s, threads[i], 0, TASKS), 0);
			CHECK_EQ_INT(run_once(&s, threads[i], 1, TASKS), 0);
		}
	/* no task at all, and fewer tasks than workers */
	CHECK_EQ_INT(run_once(&s, 4, 0, 0), 0);
	CHECK_EQ_INT(run_once(&s, 8, 1, 3), 0);
}

static void test_par__without_a_tick_the_caller_is_worker_0(void)
{
	static struct seen s;

	CHECK_EQ_INT(run_once(&s, 1, 0, TASKS), 0);
	CHECK_EQ_INT(atomic_load(&s.by[0]), TASKS);
	CHECK(pthread_equal(s.on[0], pthread_self()));
	/* with a tick, worker 0 is a thread of the pool and the caller only ticks */
	CHECK_EQ_INT(run_once(&s, 1, 1, TASKS), 0);
	CHECK_EQ_INT(atomic_load(&s.by[0]), TASKS);
	CHECK(!pthread_equal(s.on[0], pthread_self()));
}

/* Two tasks that each wait until both have begun: worker 0 (the caller) and worker 1 (a
 * thread of the pool) each do one, and worker 1's thread is known. */
struct meet {
	atomic_int arrived;
	pthread_t on[2];
};

static void meet_task(void *ctx, size_t w, uint64_t t)
{
	struct meet *m = ctx;

	(void)t;
	m->on[w] = pthread_self();
	atomic_fetch_add(&m->arrived, 1);
	while (atomic_load(&m->arrived) < 2)
		;
}

static void test_par__workers_are_kept_between_runs(void)
{
	struct meet m1, m2;
	struct hb_par p = {.threads = 2, .tasks = 2, .task = meet_task};
	size_t n = hb_par_start(2);

	CHECK(n >= 2);
	memset(&m1, 0, sizeof(m1));
	p.ctx = &m1;
	hb_par_run(&p);
	memset(&m2, 0, sizeof(m2));
	p.ctx = &m2;
	hb_par_run(&p);
	CHECK_EQ_INT(atomic_load(&m1.arrived), 2);
	CHECK_EQ_INT(atomic_load(&m2.arrived), 2);
	CHECK(pthread_equal(m1.on[0], pthread_self()) && pthread_equal(m2.on[0], pthread_self()));
	/* worker 1 is the same thread in both runs, not the caller */
	CHECK(pthread_equal(m1.on[1], m2.on[1]));
	CHECK(!pthread_equal(m1.on[1], pthread_self()));
	/* asking for no more threads than run starts none */
	CHECK_EQ_INT(hb_par_start(1), n);
}

/* Each worker's processors, as the thread doing its one task sees them; every task waits
 * until all have begun, so that each worker does one. */
struct masks {
	cpu_set_t of[HB_PAR_MAX_THREADS];
	atomic_int failed, arrived;
	int workers;
};

static void mask_task(void *ctx, size_t w, uint64_t t)
{
	struct masks *m = ctx;

	(void)t;
	if (sched_getaffinity(0, sizeof(m->of[w]), &m->of[w]))
		atomic_fetch_add(&m->failed, 1);
	atomic_fetch_add(&m->arrived, 1);
	while (atomic_load(&m->arrived) < m->workers)
		;
}

static void test_par__a_worker_started_on_one_processor_may_then_run_on_any(void)
{
	static struct masks m;
	struct seen ticks;
	/* with a tick every worker is a pool thread, each started bound to one processor other
	 * than the caller's when the caller may use more than one */
	struct hb_par p = {.task = mask_task, .ctx = &m, .tick = tick, .tick_ctx = &ticks};
	cpu_set_t mine;
	size_t w;

	memset(&ticks, 0, sizeof(ticks));
	m.workers = (int)hb_par_start(8);
	p.threads = p.tasks = (size_t)m.workers;
	CHECK_EQ_INT(sched_getaffinity(0, sizeof(mine), &mine), 0);
	hb_par_run(&p);
	CHECK_EQ_INT(atomic_load(&m.failed), 0);
	CHECK_EQ_INT(atomic_load(&m.arrived), m.workers);
	/* none is left bound to the processor it started on */
	for (w = 0; w < (size_t)m.workers; w++)
		CHECK(CPU_EQUAL(&m.of[w], &mine));
}

int main(void)
{
	RUN(test_par__runs_one_after_another_do_each_task_once);
	RUN(test_par__without_a_tick_the_caller_is_worker_0);
	RUN(test_par__workers_are_kept_between_runs);
	RUN(test_par__a_worker_started_on_one_processor_may_then_run_on_any);
	return TEST_DONE();
}
