/* The progress line: only on a terminal, never with -q, -v or --no-progress. */
#include "progress.h"
#include "../core/activity.h"
#include "../core/clock.h"
#include "cli.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* Read by the signal handler (cli_progress_erase_now): a sig_atomic_t it may look at. */
static volatile sig_atomic_t progress_drawn;
static double progress_last;
static char progress_line[200];

/* Decided at the first line to draw, when the options are known: a libcurl transfer
 * reports many times a second and the terminal does not change under a run. */
static int progress_enabled(void)
{
	static int enabled = -1;

	if (enabled < 0)
		enabled =
		    !cli_g.no_progress && !cli_g.quiet && !cli_g.verbose && isatty(STDERR_FILENO);
	return enabled;
}

int cli_progress_shown(void)
{
	return progress_enabled();
}

/* Draws one line over the last, at most ten times a second. */
static void draw(const char *line)
{
	double t;

	if (!progress_enabled())
		return;
	t = hb_now();
	if (progress_drawn && (t - progress_last < 0.1 || !strcmp(line, progress_line)))
		return;
	progress_last = t;
	snprintf(progress_line, sizeof(progress_line), "%s", line);
	/* Marked before the line goes out: a signal that arrives once any of it is on the
	 * terminal finds it to erase. */
	progress_drawn = 1;
	fprintf(stderr, "\r%s ", line);
	fflush(stderr);
}

void cli_progress_install(void)
{
	hb_activity_set_hook(draw);
}

void cli_progress(const char *label, size_t done, size_t total)
{
	char line[200];

	if (!progress_enabled())
		return;
	hb_activity_count_line(line, sizeof(line), label, done, total);
	draw(line);
}

void cli_progress_done(void)
{
	if (progress_drawn) {
		fputs("\r\033[K", stderr);
		fflush(stderr);
		progress_drawn = 0;
	}
}

void cli_progress_erase_now(void)
{
	static const char erase[] = "\r\033[K";

	/* stderr's buffer may hold part of a line; the erase goes out after it, straight to the
	 * descriptor (the handler cannot use stdio). */
	if (progress_drawn && write(STDERR_FILENO, erase, sizeof(erase) - 1) >= 0)
		progress_drawn = 0;
}
