/* What a run ended by a signal or by --deadline leaves for its readers, as a failed run does:
 * the --prom-file report of a failure and, under -o json, the error object on stdout. */
#ifndef HB_CLI_EXITREPORT_H
#define HB_CLI_EXITREPORT_H

/* The metric whose sample value cli_exit_report_set's texts hold as " 0": the run's time. */
#define CLI_EXIT_REPORT_TIME_METRIC "hbtab_last_run_timestamp_seconds"

/*
 * Keeps what the signal handler writes when a signal or the deadline ends the run: text[0..3]
 * are the --format prometheus reports of the run failed with exit 130 (SIGINT), 143
 * (SIGTERM), 141 (SIGPIPE) and 4 (--deadline), each with CLI_EXIT_REPORT_TIME_METRIC's sample
 * " 0" (the handler puts the time of the end there). They go atomically to path (NULL: none)
 * and, with to_stdout, to standard output when it has nothing yet. Copies what it keeps.
 * 0, or -1 (out of memory, or a text without that sample).
 */
int cli_exit_report_set(const char *path, int to_stdout, char *const text[4]);
/* Forgets that report: the run writes its own. */
void cli_exit_report_clear(void);

/* The deadline's message ("hbtab: deadline ... released\n", ASCII), for the JSON error object
 * of a run the deadline ends. */
void cli_exit_report_deadline(const char *msg);

/* From the signal handler, after its message: the JSON error object (-o json, nothing on
 * standard output yet; none for SIGPIPE) and the report kept for sig. Async-signal-safe. */
void cli_exit_report_write(int sig);

#endif
