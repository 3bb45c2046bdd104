/* Long waits made visible through the program's progress hook, once they last about a second. */
#include "activity.h"
#include "clock.h"
#include "interrupt.h"

#include <stdio.h>

static hb_activity_fn hook;
static double show_after = 1.0; /* a shorter wait is not shown */
static int depth;
static double started;
static long shown = -1; /* the whole second last reported for this wait */
static char label[160];
static double count_started;
/* a thread that must not draw (a worker beside the one that reports) */
static _Thread_local int quiet;

void hb_activity_quiet_thread(void)
{
	quiet = 1;
}

void hb_activity_set_hook(hb_activity_fn fn)
{
	hook = fn;
}

void hb_activity_set_delay(double seconds)
{
	show_after = seconds;
}

void hb_activity_begin(const char *what)
{
	if (quiet || depth++)
		return;
	snprintf(label, sizeof(label), "%s", what ? what : "waiting for the server");
	started = hb_now();
	shown = -1;
}

void hb_activity_end(void)
{
	if (!quiet && depth > 0)
		depth--;
}

void hb_activity_tick(void)
{
	char line[200];
	double e;

	if (!hook || !depth || quiet)
		return;
	e = hb_now() - started;
	/* libcurl calls in many times a second: only a new whole second makes a new line. */
	if (e < show_after || (long)(e + 0.5) == shown)
		return;
	shown = (long)(e + 0.5);
	snprintf(line, sizeof(line), "%s: %ld s", label, shown);
	hook(line);
}

void hb_activity_count_line(char *line, size_t size, const char *what, size_t done, size_t total)
{
	if (!what)
		what = "working";
	if (total)
		snprintf(line, size, "%s: %zu/%zu", what, done, total);
	else
		snprintf(line, size, "%s: %zu", what, done);
}

void hb_activity_count(const char *what, size_t done, size_t total)
{
	char line[200];

	if (!hook || quiet)
		return;
	if (!done)
		count_started = hb_now();
	if (hb_now() - count_started < show_after)
		return;
	hb_activity_count_line(line, sizeof(line), what, done, total);
	hook(line);
}

void hb_activity_sleep(const char *what, double seconds)
{
	double start = hb_now(), left = seconds;
	char line[200];

	if (!hook || quiet || seconds < show_after) {
		hb_sleep(seconds);
		return;
	}
	while (left > 0 && !hb_interrupt_stop()) {
		double step = left < 0.25 ? left : 0.25;

		snprintf(line, sizeof(line), "%s: %.0f/%.0f s", what, seconds - left, seconds);
		hook(line);
		hb_sleep(step);
		left = seconds - (hb_now() - start);
	}
}
