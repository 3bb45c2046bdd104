/* Work split over threads: tasks numbered 0 .. n - 1, each taken by the first idle worker. */
#ifndef HB_PAR_H
#define HB_PAR_H

#include "hb.h"

#include <stdint.h>

/* Most threads a run starts. */
#define HB_PAR_MAX_THREADS 64

struct hb_par {
	size_t threads; /* workers, 1 .. HB_PAR_MAX_THREADS */
	uint64_t tasks;
	/* does task t on worker w (0 .. threads - 1); tasks on one worker run one at a time */
	void (*task)(void *ctx, size_t w, uint64_t t);
	void *ctx;
	/* when set, called on the calling thread about every 50 ms while the workers run */
	void (*tick)(void *tick_ctx);
	void *tick_ctx;
};

/* Workers' own state goes in slots this far apart, so that one worker's writes never take a
 * cache line from another. */
#define HB_PAR_LINE 64

/* n zeroed slots of size bytes (rounded up to HB_PAR_LINE), each HB_PAR_LINE-aligned; slot i is
 * at (char *)p + i * hb_par_slot(size). NULL when out of memory; free() releases it. */
void *hb_par_slots(size_t n, size_t size);
size_t hb_par_slot(size_t size);

/* Runs every task of p once and returns when all are done. With one thread and no tick the
 * calling thread does the work; a worker that cannot start leaves its share to the others
 * (or to the calling thread when none started). Never fails. The workers are the process's
 * own threads (hb_par_start), kept between runs: one run at a time, from one thread at a
 * time, and a task does not start a run of its own. */
void hb_par_run(const struct hb_par *p);

/* Starts worker threads until n are running (before a command's first run, so that they are
 * ready when it comes); returns how many run. Each starts on a processor other than the
 * caller's when the process may use one, and may then run on any. A worker that finishes a run
 * looks for the next for about 1 ms before it sleeps, and a calling thread that finishes its
 * part of a run without a tick looks for the workers' end as long, when the processors the
 * process may use leave each of them one of its own. */
size_t hb_par_start(size_t n);

#endif
