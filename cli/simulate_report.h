/* hbtab simulate's report of a finished run: text tables or JSON on stdout. */
#ifndef CLI_SIMULATE_REPORT_H
#define CLI_SIMULATE_REPORT_H

#include "../core/simrun.h"

/* Prints run's outcome (after hb_simrun_finish) in the output format asked for; source names
 * the keys. 0, HB_ENOMEM, or another nonzero value when stdout failed. */
int cli_simulate_report(const struct hb_simrun *run, const char *source);

#endif
