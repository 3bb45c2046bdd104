/* The progress line on a terminal's stderr: drawn for long waits, erased before any other
 * output (diagnostics and the command's results). The waits inside core/ and rest/ report
 * through core/activity.h, whose hook this installs. */
#ifndef HB_CLI_PROGRESS_H
#define HB_CLI_PROGRESS_H

#include <stddef.h>

/* Installs the drawing hook for core/activity.h (once, at start). */
void cli_progress_install(void);
/* 1 when progress lines are drawn (a terminal, and none of -q, -v, --no-progress). */
int cli_progress_shown(void);
/* Shows "LABEL: DONE[/TOTAL]" on stderr (terminal only, rate-limited); label NULL = "working". */
void cli_progress(const char *label, size_t done, size_t total);
/* Clears the progress line, if one was drawn. Called before anything else is written. */
void cli_progress_done(void);

/* Erases the progress line with write(2) alone: for the signal handler, before its message. */
void cli_progress_erase_now(void);

#endif
