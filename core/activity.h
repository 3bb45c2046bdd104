/*
 * Long waits made visible. The code that blocks (a libcurl transfer, a child process, a
 * retry's back-off, a long computation) reports here; the program installs the hook that
 * draws the progress line (cli/progress.c). Without a hook nothing is shown. A wait is
 * reported once it has lasted about a second, so quick steps never flicker.
 */
#ifndef HB_CORE_ACTIVITY_H
#define HB_CORE_ACTIVITY_H

#include <stddef.h>

/* Makes the calling thread's waits and counts invisible: a thread working beside the one
 * that reports (each wait there would be drawn over the other's). */
void hb_activity_quiet_thread(void);

/* Draws one progress line ("creating table 't1' over Thrift2: 3 s"). */
typedef void (*hb_activity_fn)(const char *line);
void hb_activity_set_hook(hb_activity_fn fn);
/* How long a wait lasts before it is shown (1 s; unit tests set 0). */
void hb_activity_set_delay(double seconds);

/* Names the blocking wait that follows; label NULL = "waiting for the server". Nested
 * begins keep the outer label (the caller knows best what the wait is for). */
void hb_activity_begin(const char *label);
void hb_activity_end(void);

/* Called from inside a blocking wait: reports the elapsed time after about a second, once
 * per whole second however often it is called. */
void hb_activity_tick(void);

/* Counted work: done of total (0 = unknown). done == 0 starts the clock. */
void hb_activity_count(const char *label, size_t done, size_t total);
/* The line counted work shows: "LABEL: DONE/TOTAL" ("LABEL: DONE" when total is 0); label
 * NULL = "working". */
void hb_activity_count_line(char *line, size_t size, const char *label, size_t done, size_t total);

/* Sleeps seconds, reporting "LABEL: ELAPSED/SECONDS s" when the sleep is over a second. */
void hb_activity_sleep(const char *label, double seconds);

#endif
