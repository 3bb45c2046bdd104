/* The progress line on a terminal's stderr: drawn for long waits, erased before any other
 * output (diagnostics and the command's results). */
#ifndef HB_CLI_PROGRESS_H
#define HB_CLI_PROGRESS_H

#include <stddef.h>

/* Shows "LABEL: DONE[/TOTAL]" on stderr (terminal only, rate-limited); label NULL = "working". */
void cli_progress(const char *label, size_t done, size_t total);
/* Sleeps for seconds, showing "LABEL: ELAPSED/SECONDS s" meanwhile (terminal only). */
void cli_progress_sleep(const char *label, double seconds);
/* Clears the progress line, if one was drawn. Called before anything else is written. */
void cli_progress_done(void);

#endif
