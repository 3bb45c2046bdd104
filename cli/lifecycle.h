/* The command-line side of enable, disable and truncate (cmd_enable.c, cmd_disable.c,
 * cmd_truncate.c): one set of option values, checks, run and report. */
#ifndef HB_CLI_LIFECYCLE_H
#define HB_CLI_LIFECYCLE_H

#include "cli.h"

struct cli_lc_opts {
	const char *wait, *via;
	int yes;
};

/* The three commands' option values (one command runs per process). */
extern struct cli_lc_opts cli_lc;

/* --via and --wait, entries for a struct cli_option table. */
#define CLI_LC_VIA_WAIT                                                                            \
	CLI_CHOICE(0, "via", &cli_lc.via, "CHANNEL",                                               \
	           "auto (default: thrift2 with --thrift, else the shell), thrift2 or shell",      \
	           "auto thrift2 shell"),                                                          \
	    CLI_STRING(0, "wait", &cli_lc.wait, "SEC",                                             \
	               "how long to wait for the state asked for (60)")

/* The fields of a verb's descriptor; the file's option table is opts. */
#define CLI_LC_COMMAND(verb, sum, use)                                                             \
	.name = verb, .summary = sum, .usage = use, .opts = opts, .args = "TABLE", .min_args = 1,  \
	.max_args = 1, .flags = CLI_CMD_HBASE | CLI_CMD_TABLE | CLI_CMD_WRITES,                    \
	.check = cli_lc_check, .run = cli_lc_run, .release = cli_lc_release

/* Checks the options offline; disable and truncate refuse without --yes (exit 5). */
int cli_lc_check(struct cli_ctx *x);
/* Picks the channel, runs the verb named by x->cmd through rest/lifecycle.h and reports. */
int cli_lc_run(struct cli_ctx *x);
/* Forgets the option values. */
void cli_lc_release(void);

#endif
