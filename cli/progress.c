/* The progress line: only on a terminal, never with -q, -v or --no-progress. */
#include "progress.h"
#include "../core/clock.h"
#include "cli.h"

#include <stdio.h>
#include <unistd.h>

static int progress_drawn;
static double progress_last;

static int progress_enabled(void)
{
	return !cli_g.no_progress && !cli_g.quiet && !cli_g.verbose && isatty(STDERR_FILENO);
}

void cli_progress(const char *label, size_t done, size_t total)
{
	double t;

	if (!progress_enabled())
		return;
	t = hb_now();
	if (progress_drawn && t - progress_last < 0.1)
		return;
	progress_last = t;
	if (total)
		fprintf(stderr, "\r%s: %zu/%zu ", label ? label : "working", done, total);
	else
		fprintf(stderr, "\r%s: %zu ", label ? label : "working", done);
	fflush(stderr);
	progress_drawn = 1;
}

void cli_progress_sleep(const char *label, double seconds)
{
	double start = hb_now(), left = seconds;

	if (!progress_enabled()) {
		hb_sleep(seconds);
		return;
	}
	while (left > 0) {
		double step = left < 0.25 ? left : 0.25;

		fprintf(stderr, "\r%s: %.0f/%.0f s ", label ? label : "waiting", seconds - left,
		        seconds);
		fflush(stderr);
		progress_drawn = 1;
		hb_sleep(step);
		left = seconds - (hb_now() - start);
	}
	progress_last = hb_now();
}

void cli_progress_done(void)
{
	if (progress_drawn) {
		fputs("\r\033[K", stderr);
		fflush(stderr);
		progress_drawn = 0;
	}
}
